#!/usr/bin/env bash
# Bulk queries side by side: the testbed (all-off, all-on) against SQLite (without and with
# ANALYZE) and DuckDB (one thread), on the same generated data in one run.
#
#   bash scripts/bench-bulk.sh [--sizes 100000,1000000] [--reps N] [--out FILE.md] [more]
#   bash scripts/bench-bulk.sh --profile [--profile-rows N]
#
# Builds release, installs DuckDB's Python package if missing (setup.sh --engines),
# self-tests the DuckDB helper, then runs `testbed-bench bulk`, which prints a markdown report
# and writes it to FILE.md (default Results/bench/bulk-<UTC time>.md). Other options go to
# the suite as they are (`testbed-bench bulk --help` lists them).
# --profile runs callgrind on the testbed instead (the bulk queries once each on N documents,
# default 100000, under all-off and all-on; generation and loading are not collected) and
# writes the raw profiles and a summary of the top functions by inclusive instructions to
# Results/bench/callgrind-<UTC time>/.
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
        -h|--help) sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
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
    dir="Results/bench/callgrind-$(date -u +%Y%m%dT%H%M%SZ)"
    mkdir -p "$dir"
    for preset in all-off all-on; do
        say "callgrind: bulk queries on $profile_rows documents, $preset"
        valgrind --tool=callgrind --toggle-collect='*bulkProfileQueries*' \
            --callgrind-out-file="$dir/callgrind.out.$preset" \
            "$bin" bulk-profile --rows "$profile_rows" --preset "$preset" 2>"$dir/valgrind-$preset.log" \
            | tee "$dir/driver-$preset.txt" >&2
        # Top functions by inclusive instructions, names demangled.
        callgrind_annotate --inclusive=yes --threshold=100 "$dir/callgrind.out.$preset" 2>/dev/null \
            | head -n 80 | swift demangle --simplified > "$dir/summary-$preset.txt"
    done
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
