#!/usr/bin/env bash
# Coverage-guided fuzzing (libFuzzer) of the query parser and the experiment config loader.
#   scripts/fuzz.sh [--runs N] [--seconds S] [--build-only]
# Builds once into .build-fuzz (-sanitize=fuzzer, -D FUZZING), seeds a corpus from
# Workloads/queries/*.rq and Workloads/*.yaml, runs each target; exits non-zero on a crash
# (libFuzzer writes the input as crash-* into .build-fuzz/findings/TARGET/).
set -euo pipefail
cd "$(dirname "$0")/.."
runs=20000
seconds=0
build_only=0
while [ $# -gt 0 ]; do
    case "$1" in
        --runs) runs="$2"; shift 2 ;;
        --seconds) seconds="$2"; runs=-1; shift 2 ;;
        # Only the build (scripts/test.sh builds beside the tests, then runs the fuzz).
        --build-only) build_only=1; shift ;;
        *) echo "fuzz.sh: unknown option $1" >&2; exit 2 ;;
    esac
done
scratch=.build-fuzz
for target in FuzzQueryParser FuzzConfigLoader; do
    swift build --scratch-path "$scratch" --product "$target" \
        -Xswiftc -sanitize=fuzzer -Xswiftc -D -Xswiftc FUZZING 2>&1 | { grep -E 'error|warning|Compiling FUZZ|Build complete' || true; }
done
if [ "$build_only" = 1 ]; then echo "fuzz: built"; exit 0; fi
bin="$(swift build --scratch-path "$scratch" --show-bin-path)"
for target in FuzzQueryParser FuzzConfigLoader; do
    corpus="$scratch/corpus/$target"; findings="$scratch/findings/$target"
    mkdir -p "$corpus" "$findings"
    if [ "$target" = FuzzQueryParser ]; then cp Workloads/queries/*.rq "$corpus/"; else cp Workloads/*.yaml "$corpus/"; fi
    args=(-runs="$runs" -max_len=4096 -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$findings/")
    [ "$seconds" != 0 ] && args+=(-max_total_time="$seconds")
    echo "fuzz: $target ${args[*]}"
    "$bin/$target" "${args[@]}" "$corpus" 2>&1 | grep -E 'stat::|DONE|INITED|crash|ERROR|SUMMARY|Test unit written' 
    status=${PIPESTATUS[0]}
    [ "$status" = 0 ] || { echo "fuzz: $target failed (exit $status); inputs in $findings" >&2; exit 1; }
done
echo "fuzz: no crash"
