#!/usr/bin/env bash
# Rows read by every catalog query under `all-on` and under `seed`, on each query's own
# shape at the given sizes (default 1000 and 10000 rows): prints one line per query and
# size and exits 1 when all-on reads more rows than seed anywhere.
#
#   bash scripts/presets-rows-check.sh [TESTBED] [SIZES...]
set -euo pipefail
testbed=${1:-.build/release/testbed}
shift || true
sizes=("$@")
[ ${#sizes[@]} -eq 0 ] && sizes=(1000 10000)
worse=0
printf '%-32s %8s %12s %12s\n' query rows seed all-on
for query in $("$testbed" queries | awk '{print $1}'); do
  for rows in "${sizes[@]}"; do
    read_rows() { "$testbed" query "$query" --rows "$rows" --preset "$1" | awk '$1 == "source_rows_read" {print $2}'; }
    seed=$(read_rows seed)
    on=$(read_rows all-on)
    mark=""
    if [ "$on" -gt "$seed" ]; then mark="  all-on reads more"; worse=1; fi
    printf '%-32s %8s %12s %12s%s\n' "$query" "$rows" "$seed" "$on" "$mark"
  done
done
exit $worse
