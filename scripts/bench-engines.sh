#!/usr/bin/env bash
# Every baseline engine installed here side by side with the testbed (issue 13):
#
#   bash scripts/bench-engines.sh [--sizes 100000,1000000] [--engines a,b,...] [--reps N] [--out DIR]
#
# 1. the seed's experiment (Workloads/subtree-copying.yaml) at the given sizes with every
#    engine as a baseline (`testbed run`, into DIR/seed);
# 2. the bulk queries (Workloads/engines-bulk.yaml) likewise (DIR/bulk);
# 3. `testbed-bench baselines`: start-up + load time per engine and the testbed's per-query
#    overhead over each engine's own reported time (DIR/baselines.md).
# Engines default to `testbed engines --available` (sqlite, sqlite-analyzed, postgres,
# postgres-analyzed, duckdb where installed). Builds release and installs PostgreSQL and DuckDB
# (setup.sh --engines) first.
# DIR defaults to Results/bench/<UTC time>-engines.
set -euo pipefail
cd "$(dirname "$0")/.."

sizes=100000,1000000
engines=""
reps=""
out=""
while (($# > 0)); do
    case "$1" in
        --sizes) sizes=$2; shift ;;
        --engines) engines=$2; shift ;;
        --reps) reps=$2; shift ;;
        --out) out=$2; shift ;;
        -h|--help) sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "bench-engines.sh: unknown option '$1' (known: --sizes, --engines, --reps, --out)" >&2; exit 2 ;;
    esac
    shift
done
say() { echo "bench-engines: $*" >&2; }

bash scripts/setup.sh --engines >&2
say "building release"
swift build -c release --product testbed >&2
swift build -c release --product testbed-bench >&2
bin=$(swift build -c release --show-bin-path)
[ -n "$engines" ] || engines=$("$bin/testbed" engines --available)
[ -n "$out" ] || out="Results/bench/$(date -u +%Y%m%dT%H%M%SZ)-engines"
mkdir -p "$out"
say "engines: $engines; sizes: $sizes; into $out"

# A YAML list of the engines, and a config with the sizes, engines (and repetitions) replaced.
list="[$(echo "$engines" | sed 's/,/, /g')]"
configure() {  # source name
    sed -e "s/^name: .*/name: $2/" \
        -e "s/^  rows: .*/  rows: [$sizes]/" \
        -e "s/^baselines: .*/baselines: $list/" \
        ${reps:+-e "s/^repetitions: .*/repetitions: $reps/"} "$1" > "$out/$2.yaml"
}
configure Workloads/subtree-copying.yaml engines-seed
configure Workloads/engines-bulk.yaml engines-bulk

say "the seed's experiment"
"$bin/testbed" run "$out/engines-seed.yaml" --out "$out/seed"
say "the bulk queries"
"$bin/testbed" run "$out/engines-bulk.yaml" --out "$out/bulk"
say "start-up, load and per-query overhead"
"$bin/testbed-bench" baselines --sizes "$sizes" --engines "$engines" ${reps:+--reps "$reps"} --out "$out/baselines.md"
say "done: $out/seed/summary.csv, $out/bulk/summary.csv, $out/baselines.md"
