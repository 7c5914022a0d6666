#!/usr/bin/env bash
# A single-node Slurm cluster (munged + slurmctld + slurmd) living entirely in one directory,
# for testing scripts/slurm/sweep.sbatch and scripts/sweep.sh --scheduler slurm on one machine.
#
#   bash scripts/slurm/local-cluster.sh up DIR     configure and start it in DIR (created; must be new or empty)
#   bash scripts/slurm/local-cluster.sh down DIR   stop every daemon it started, wait until they are gone
#
# Clients (sbatch, squeue, sinfo) find it with `export SLURM_CONF=DIR/slurm.conf`. Needs root
# (slurmd starts jobs as their user) and the packages of `bash scripts/setup.sh --sweep`.
# Ports: SLURMCTLD_PORT and SLURMD_PORT (default: the first free pair from 16817). Logs: DIR/log/.
# Nothing is installed as a service and nothing outside DIR is written; `down` leaves DIR
# (with its logs) for the caller to remove.
set -euo pipefail

say() { echo "local-cluster: $*" >&2; }
usage() { sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }

[ $# -eq 2 ] || usage
action=$1
dir=$2

pid_files() { echo "$dir/slurmd.pid $dir/slurmctld.pid $dir/munge/munged.pid"; }

# Runs a daemon with only stdin, stdout and stderr: a descriptor it inherited (a pipe or a
# socket its caller waits on to see this script end) would otherwise stay open as long as the
# daemon lives, and the caller would wait for it.
daemon() (
    for fd in $(ls /proc/$BASHPID/fd); do
        if ((fd > 2)); then eval "exec $fd>&-" 2>/dev/null || true; fi
    done
    exec "$@" </dev/null >/dev/null 2>&1
)

stop() {
    local file pid waited
    for file in $(pid_files); do
        [ -s "$file" ] || continue
        pid=$(cat "$file")
        kill -TERM "$pid" 2>/dev/null || true
        waited=0
        while kill -0 "$pid" 2>/dev/null; do
            if ((waited >= 100)); then
                say "pid $pid ($file) did not stop in 10 s; killing it"
                kill -KILL "$pid" 2>/dev/null || true
            fi
            sleep 0.1
            waited=$((waited + 1))
        done
        rm -f "$file"
    done
}

case "$action" in
    up)
        if [ "$(id -u)" -ne 0 ]; then
            say "needs root: slurmd runs jobs as their submitting user"
            exit 1
        fi
        for tool in munged slurmctld slurmd sinfo; do
            command -v "$tool" >/dev/null 2>&1 || { say "$tool is missing; run: bash scripts/setup.sh --sweep"; exit 1; }
        done
        mkdir -p "$dir"
        if [ -n "$(ls -A "$dir")" ]; then
            say "'$dir' is not empty; give a new directory"
            exit 2
        fi
        dir=$(cd "$dir" && pwd)
        mkdir -p "$dir/munge" "$dir/state" "$dir/spool" "$dir/log"
        chmod 700 "$dir/munge"
        # If anything below fails, stop what did start, so no daemon outlives a failed `up`.
        trap 'status=$?; if ((status != 0)); then say "starting failed; stopping what started (logs in $dir/log)"; stop; fi' EXIT

        head -c 1024 /dev/urandom > "$dir/munge/munge.key"
        chmod 400 "$dir/munge/munge.key"
        # --force: the key and socket live under /tmp-like directories munged would otherwise refuse.
        daemon munged --force --key-file="$dir/munge/munge.key" --socket="$dir/munge/munge.socket" \
            --pid-file="$dir/munge/munged.pid" --log-file="$dir/log/munged.log" --seed-file="$dir/munge/munged.seed"

        # Ports: as given, else the first free pair from 16817 (another cluster may be up).
        if [ -z "${SLURMCTLD_PORT:-}" ] || [ -z "${SLURMD_PORT:-}" ]; then
            listening=$(ss -Hltn 2>/dev/null | awk '{ n = split($4, a, ":"); print a[n] }' || true)
            port=16817
            while grep -qx "$port" <<<"$listening" || grep -qx "$((port + 1))" <<<"$listening"; do port=$((port + 2)); done
            SLURMCTLD_PORT=${SLURMCTLD_PORT:-$port}
            SLURMD_PORT=${SLURMD_PORT:-$((port + 1))}
        fi
        host=$(hostname -s)
        cpus=$(nproc)
        cat > "$dir/slurm.conf" <<CONF
# Written by scripts/slurm/local-cluster.sh: a one-node cluster living in $dir.
ClusterName=testbed-local
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$SLURMCTLD_PORT
SlurmdPort=$SLURMD_PORT
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$dir/munge/munge.socket
CredType=cred/munge
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/affinity
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
SwitchType=switch/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
SlurmdTimeout=30
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus State=UNKNOWN
PartitionName=local Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
        export SLURM_CONF="$dir/slurm.conf"
        daemon slurmctld -f "$SLURM_CONF"
        daemon slurmd -f "$SLURM_CONF" -N "$host"
        # Ready when the node is idle (slurmd registered with slurmctld).
        for _ in $(seq 1 300); do
            state=$(sinfo --noheader --nodes="$host" --format=%t 2>/dev/null || true)
            if [ "$state" = "idle" ]; then
                say "up: node $host idle with $cpus CPUs; export SLURM_CONF=$SLURM_CONF"
                trap - EXIT
                exit 0
            fi
            sleep 0.1
        done
        say "the node did not become idle in 30 s (state '${state:-none}'); see $dir/log/"
        exit 1
        ;;
    down)
        [ -d "$dir" ] || { say "'$dir' is not a directory"; exit 2; }
        dir=$(cd "$dir" && pwd)
        stop
        say "down: no daemon of $dir is running"
        ;;
    *) usage ;;
esac
