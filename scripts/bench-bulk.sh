#!/usr/bin/env bash
# Bulk queries side by side: the testbed (all-off, all-on) against SQLite (without and with
# ANALYZE) and DuckDB (one thread), on the same generated data in one run.
#
#   bash scripts/bench-bulk.sh [--sizes 100000,1000000] [--reps N] [--out FILE.md] [more]
#   bash scripts/bench-bulk.sh --profile [--profile-rows N]
#
# Builds release, installs DuckDB's Python package if missing (setup.sh --engines),
# self-tests the DuckDB helper, then runs `testbed-bench bulk`, which prints a markdown report
# and writes it to FILE.md (default Results/bench/<UTC time>/bulk.md). Other options go to
# the suite as they are (`testbed-bench bulk --help` lists them).
# --profile runs callgrind on the testbed instead: each bulk query once on N documents
# (default 100000) under all-off and all-on, collecting only the query (generation and
# loading are not collected). Writes Results/bench/<UTC time>-callgrind/: summary.md
# (instructions per query and preset, and self instructions by kind of work:
# scripts/callgrind_categories.py), top.<preset>.<query>.txt (top functions by self and
# inclusive instructions, demangled) and the raw callgrind.out.* files.
set -euo pipefail
cd "$(dirname "$0")/.."

profile=0
profile_rows=100000
bench_args=()
while (($# > 0)); do
    case "$1" in
        --profile) profile=1 ;;
        --profile-rows)
            [ $# -ge 2 ] || { echo "bench-bulk.sh: --profile-rows needs a count" >&2; exit 2; }
            profile_rows=$2; shift ;;
        -h|--help) sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) bench_args+=("$1") ;;
    esac
    shift
done

say() { echo "bench-bulk: $*" >&2; }

if ((profile)); then
    bash scripts/setup.sh >&2
    command -v valgrind >/dev/null 2>&1 || { say "--profile needs valgrind (apt-get install valgrind)"; exit 1; }
    say "building release"
    swift build -c release --product testbed-bench >&2
    bin=$(swift build -c release --show-bin-path)/testbed-bench
    dir="Results/bench/$(date -u +%Y%m%dT%H%M%SZ)-callgrind"
    mkdir -p "$dir"
    # valgrind 3.19 gives up on the DWARF 5 debug info Swift 6.3 writes ("unhandled dwarf2
    # abbrev form code 0x25"); a copy without debug info keeps the symbols callgrind needs.
    stripped_dir=$(mktemp -d)
    trap 'rm -rf "$stripped_dir"' EXIT
    if command -v strip >/dev/null 2>&1 && strip --strip-debug -o "$stripped_dir/testbed-bench" "$bin"; then
        bin="$stripped_dir/testbed-bench"
    fi
    summary="$dir/summary.md"
    {
        echo "# callgrind: the testbed on the bulk queries, $profile_rows documents ($(date -u '+%Y-%m-%d %H:%M UTC'))"
        echo
        echo "Instructions (Ir) collected inside \`bulkProfileQueries\` only: plan + optimize + run of one query, results"
        echo "materialised; generating and loading the documents are not collected."
        echo
        echo "| query | preset | instructions | rows |"
        echo "| --- | --- | ---: | ---: |"
    } > "$summary"
    for preset in all-off all-on; do
        for query in parent-join scan-select set-ops; do
            name="$preset.$query"
            say "callgrind: $query on $profile_rows documents, $preset"
            # Deterministic hashing: Swift seeds Hasher per process, which moves counts slightly.
            SWIFT_DETERMINISTIC_HASHING=1 valgrind --tool=callgrind --toggle-collect='*bulkProfileQueries*' \
                --callgrind-out-file="$dir/callgrind.out.$name" \
                "$bin" bulk-profile --rows "$profile_rows" --preset "$preset" --query "$query" \
                2>"$dir/valgrind.$name.log" > "$dir/driver.$name.txt"
            total=$(callgrind_annotate "$dir/callgrind.out.$name" 2>/dev/null | awk '/PROGRAM TOTALS/ && t == "" { t = $1 } END { print t }')
            rows=$(sed -n 's/.*: \([0-9]*\) rows.*/\1/p' "$dir/driver.$name.txt")
            echo "| $query | $preset | $total | $rows |" >> "$summary"
            # Top functions by self and by inclusive instructions, names demangled.
            {
                echo "== self (exclusive) instructions"
                # awk reads to the end, so no SIGPIPE trips pipefail.
                callgrind_annotate --threshold=99 "$dir/callgrind.out.$name" 2>/dev/null \
                    | awk '/file:function/ { on = 1 } on && n++ < 32'
                echo
                echo "== inclusive instructions"
                callgrind_annotate --inclusive=yes --threshold=99 "$dir/callgrind.out.$name" 2>/dev/null \
                    | awk '/file:function/ { on = 1 } on && n++ < 62'
            } | swift demangle --simplified > "$dir/top.$name.txt"
            {
                echo
                echo "Self instructions by kind, $query, $preset:"
                echo
                echo "| kind | instructions | share |"
                echo "| --- | ---: | ---: |"
                callgrind_annotate --auto=no --threshold=100 "$dir/callgrind.out.$name" 2>/dev/null \
                    | swift demangle --simplified | python3 scripts/callgrind_categories.py
            } >> "$dir/kinds.md"
        done
    done
    cat "$dir/kinds.md" >> "$summary"
    rm "$dir/kinds.md"
    cat "$summary"
    say "profiles and summaries in $dir"
    exit 0
fi

bash scripts/setup.sh --engines >&2
say "self-testing the DuckDB helper"
python3 scripts/engines/duckdb_helper.py --self-test >&2
say "building release"
swift build -c release --product testbed-bench >&2
bin=$(swift build -c release --show-bin-path)/testbed-bench
"$bin" bulk "${bench_args[@]}"
