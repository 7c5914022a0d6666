#!/usr/bin/env bash
# Mutation check: how strong are the oracles?
#
# Applies each planted bug in scripts/mutations/*.patch to this checkout ONE AT A TIME,
# builds `testbed`, and runs
#   fuzzer        testbed verify --random N --seed S --no-reduce           (classic small tables)
#   fuzzer-large  testbed verify --random N/10 --seed S --rows 200 --no-reduce   (hundreds of rows)
#   catalog       testbed verify --no-reduce                               (catalog queries, all flag sets)
# then reverts the patch. For each run it records whether the run failed (exit 1) and which
# oracles disagreed (reference, sqlite, partition, duplicates, engine-error, oracles), or
# whether the process crashed (a runtime trap, not an oracle). The table goes to stdout and,
# with --out FILE, to FILE.
#
# The patches are written against the code of the commit that last regenerated them (the
# column-batch kernels in Sources/QueryEngine/Kernels, as of e725071).
# When the engine is rewritten they go stale: a patch that no longer applies is reported as
# "stale", and one that no longer compiles as "does not build"; both are expected. Re-plant
# the bug in the new code and regenerate the patch with `git diff -- Sources > PATCH`.
#
# Stop it with Ctrl-C in its terminal (which signals every process of the run); the patch
# that is applied is reverted on the way out.
#
# Usage: bash scripts/mutation-check.sh [--cases N] [--seed S] [--release] [--no-catalog] [--out FILE] [PATCH...]
# --no-catalog skips the catalog verification (on the debug build it takes well over an
# hour per mutant since the catalog grew; its column then says "not run").
# Needs a clean Sources/ (the patches are applied in place); Ctrl-C or any failure reverts
# the patch that is applied. A baseline run without a patch comes first: every oracle must
# pass on the unmodified code, or the results would mean nothing.
set -euo pipefail

cd "$(dirname "$0")/.."
cases=1000
seed=1
config=debug
catalog=yes
out=""
patches=()
while [ $# -gt 0 ]; do
    case "$1" in
        --cases) cases="${2:?--cases needs a number}"; shift 2 ;;
        --seed) seed="${2:?--seed needs a number}"; shift 2 ;;
        --release) config=release; shift ;;
        --no-catalog) catalog=no; shift ;;
        --out) out="${2:?--out needs a file}"; shift 2 ;;
        -h|--help) sed -n '2,/^set /{/^#/p}' "$0"; exit 0 ;;
        -*) echo "mutation-check: unknown option $1" >&2; exit 2 ;;
        *) patches+=("$1"); shift ;;
    esac
done
case "$cases" in ''|*[!0-9]*) echo "mutation-check: --cases: '$cases' is not a positive integer" >&2; exit 2 ;; esac
case "$seed" in ''|*[!0-9]*) echo "mutation-check: --seed: '$seed' is not a non-negative integer" >&2; exit 2 ;; esac
[ "$cases" -ge 10 ] || { echo "mutation-check: --cases: at least 10" >&2; exit 2; }
if [ ${#patches[@]} -eq 0 ]; then
    patches=(scripts/mutations/*.patch)
fi
for p in "${patches[@]}"; do
    [ -f "$p" ] || { echo "mutation-check: no patch file $p" >&2; exit 2; }
done
if ! git diff --quiet -- Sources; then
    echo "mutation-check: Sources/ has uncommitted changes; commit or stash them first (patches are applied in place)" >&2
    exit 2
fi

applied=""
revert() {
    if [ -n "$applied" ]; then
        git apply -R "$applied" || echo "mutation-check: could not revert $applied; run: git checkout -- Sources" >&2
        applied=""
    fi
}
trap revert EXIT
trap 'revert; exit 130' INT TERM

logs=$(mktemp -d /tmp/mutation-check.XXXXXX)
testbed=".build/$config/testbed"

# One verify run: prints a table cell ("caught 12: reference 10, sqlite 2", "missed",
# "crashed (signal 4), after 29 mismatches in 450 cases", "timed out").
verify_cell() {
    local name=$1; shift
    local log="$logs/$name.log"
    local rc=0
    timeout 1800 "$testbed" verify "$@" --no-reduce --repro-directory "$logs/repro" >"$log" 2>&1 || rc=$?
    case $rc in
        0) echo "missed" ;;
        1)
            local line kinds
            line=$(grep -E '^verify: [0-9]+ cases' "$log" | tail -1)
            kinds=$(echo "$line" | sed -nE 's/.* ([0-9]+) differed \((.*)\).*/caught \1: \2/p')
            echo "${kinds:-caught (see $log)}" ;;
        124) echo "timed out" ;;
        *)
            if [ $rc -gt 128 ]; then
                # Mismatches the oracles had counted before the trap (from the progress line).
                local before
                before=$(grep -E '^verify: [0-9]+/[0-9]+ random cases, [0-9]+ mismatches' "$log" | tail -1 |
                    sed -nE 's/^verify: ([0-9]+)\/[0-9]+ random cases, ([1-9][0-9]*) mismatches.*/, after \2 mismatches in \1 cases/p')
                echo "crashed (signal $((rc - 128)))$before"
            else
                echo "error (exit $rc)"
            fi ;;
    esac
}

build() {
    swift build -c "$config" --product testbed >"$logs/build.log" 2>&1
}

row() {
    local name=$1
    local small large catalog_cell
    small=$(verify_cell "$name-fuzzer" --random "$cases" --seed "$seed")
    large=$(verify_cell "$name-large" --random $((cases / 10)) --seed "$seed" --rows 200)
    if [ "$catalog" = yes ]; then catalog_cell=$(verify_cell "$name-catalog"); else catalog_cell="not run"; fi
    echo "| $name | $small | $large | $catalog_cell |"
}

table="| mutant | fuzzer (--random $cases --seed $seed) | fuzzer --rows 200 (--random $((cases / 10))) | catalog |
| --- | --- | --- | --- |"
echo "mutation-check: logs in $logs" >&2

echo "mutation-check: baseline build" >&2
build || { echo "mutation-check: the unmodified code does not build; see $logs/build.log" >&2; exit 2; }
line=$(row baseline | sed 's/| missed /| passes /g')
table="$table
$line"
echo "$line" >&2

for p in "${patches[@]}"; do
    name=$(basename "$p" .patch)
    if ! git apply --check "$p" 2>/dev/null; then
        line="| $name | stale: patch does not apply | | |"
    else
        git apply "$p"
        applied="$p"
        echo "mutation-check: $name: building" >&2
        if build; then
            line=$(row "$name")
        else
            cp "$logs/build.log" "$logs/$name-build.log"
            line="| $name | does not build (see $logs/$name-build.log) | | |"
        fi
        revert
    fi
    table="$table
$line"
    echo "$line" >&2
done

echo "mutation-check: rebuilding the unmodified code" >&2
build || true
echo "$table"
if [ -n "$out" ]; then
    printf '%s\n' "$table" >"$out"
fi
