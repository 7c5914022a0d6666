#!/usr/bin/env bash
# One shard of a sweep, as scripts/sweep.sh and scripts/slurm/sweep.sbatch start it on the
# host that runs it:
#
#   bash scripts/sweep-shard.sh TESTBED CONFIG K N OUT [CPUS SLOT]
#
# runs `TESTBED run CONFIG --shard K/N --out OUT`. With CPUS > 0 and SLOT (GNU parallel's job
# slot, 1-based) the shard is pinned with taskset to CPUS cores of its own on this host:
# slot 1 gets cores 0..CPUS-1, slot 2 the next CPUS, and so on (wrapping past the last core,
# which sweep.sh warns about). The shard runs in the repository this script belongs to, so
# its environment.txt records that checkout's git commit (merge refuses shards of different
# commits). Exit status: testbed's.
set -euo pipefail

if [ $# -ne 5 ] && [ $# -ne 7 ]; then
    sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2
fi
testbed=$1 config=$2 k=$3 n=$4 out=$5 cpus=${6:-0} slot=${7:-1}
absolute() { case "$1" in /*) echo "$1" ;; *) echo "$PWD/$1" ;; esac; }
testbed=$(absolute "$testbed") config=$(absolute "$config") out=$(absolute "$out")
cd "$(dirname "$0")/.."

pin=()
if ((cpus > 0)) && command -v taskset >/dev/null 2>&1; then
    cores=$(nproc --all)
    first=$(( ((slot - 1) * cpus) % cores ))
    list=$first
    for ((i = 1; i < cpus && i < cores; i++)); do list+=",$(( (first + i) % cores ))"; done
    pin=(taskset -c "$list")
fi
exec "${pin[@]}" "$testbed" run "$config" --shard "$k/$n" --out "$out"
