#!/usr/bin/env bash
# Reruns every committed reference run (Results/*/reference, from its own config.yaml) with
# a release build and compares the fresh run with the reference, cell by cell:
#
#   bash scripts/check-regressions.sh [--tolerance T] [--out DIR]
#
# `testbed compare REFERENCE FRESH --tolerance T` lists the cells whose median moved beyond
# its bootstrap interval, counter changes (exact) and changed results. Exits 1 when any
# reference has a cell slower beyond the tolerance (default 0.25: the reference may come from
# another machine) or a changed result, 2 on bad usage, else 0. Fresh runs go to DIR
# (default Results/regressions/<UTC timestamp>/<name>) and are kept, report.html included.
# Run it before merging a change to the engine.
set -euo pipefail
usage_error() { echo "check-regressions.sh: $1" >&2; exit 2; }
caller=$(pwd)

tolerance=0.25
out=""
given=" "
while (($# > 0)); do
    # A single-valued option given twice is refused, as the testbed refuses it (the last won).
    case "$1" in
        --tolerance|--out) [[ "$given" != *" $1 "* ]] || usage_error "$1 is given twice; give it once"; given+="$1 " ;;
    esac
    case "$1" in
        --tolerance) (($# >= 2)) || usage_error "--tolerance needs a value"; tolerance=$2; shift 2 ;;
        --out) (($# >= 2)) && [ -n "$2" ] || usage_error "--out needs a directory"
            [[ "$2" =~ [^/] ]] || usage_error "--out: '$2' is the file-system root; give a directory below it"
            out=$2; shift 2 ;;
        -h|--help) sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) usage_error "unknown option '$1' (known: --tolerance T, --out DIR)" ;;
    esac
done
# Checked before the set-up and the build, which take minutes (as `testbed compare` takes it).
[[ "$tolerance" =~ ^([0-9]+\.?[0-9]*|\.[0-9]+)$ ]] || usage_error "--tolerance: '$tolerance' is not a number >= 0"
# A relative --out is the caller's, not the repository's.
if [ -n "$out" ] && [[ "$out" != /* ]]; then out="$caller/$out"; fi
cd "$(dirname "$0")/.."
[ -n "$out" ] || out="Results/regressions/$(date -u +%Y-%m-%dT%H-%M-%SZ)"

bash scripts/setup.sh --plotting || echo "check-regressions.sh: Python set-up failed; comparing by min-max ranges" >&2
swift build -c release --product testbed
testbed="$(swift build -c release --show-bin-path)/testbed"

references=(Results/*/reference)
if [ ! -d "${references[0]}" ]; then
    echo "check-regressions.sh: no committed reference run (Results/*/reference)" >&2
    exit 2
fi
status=0
summary=()
for reference in "${references[@]}"; do
    name=$(basename "$(dirname "$reference")")
    echo "== $name: rerunning $reference/config.yaml"
    "$testbed" run "$reference/config.yaml" --out "$out/$name"
    echo "== $name: comparing $reference with $out/$name"
    set +e
    "$testbed" compare "$reference" "$out/$name" --tolerance "$tolerance"
    code=$?
    set -e
    case "$code" in
        0) summary+=("$name: no regression") ;;
        1) summary+=("$name: REGRESSION or changed result"); status=1 ;;
        *) summary+=("$name: compare failed (exit $code)"); status=2 ;;
    esac
done
echo
printf '%s\n' "${summary[@]}"
exit "$status"
