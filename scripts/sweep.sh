#!/usr/bin/env bash
# Runs an experiment config as N shards through a scheduler, then merges them into one result.
#
#   bash scripts/sweep.sh CONFIG N [--scheduler parallel|slurm] [--out DIR] [--cpus-per-shard C]
#                         [--jobs J] [--sshlogin LOGIN]... [--sbatch-option OPT]... [--normalise]
#
#   --scheduler parallel   (default) GNU parallel on this machine, or on --sshlogin hosts
#   --scheduler slurm      a Slurm array job (scripts/slurm/sweep.sbatch), waited for
#   --out DIR              merged result (default Results/<name>/<UTC timestamp>); the shards
#                          go to DIR-shards/shard-K (plus joblog.txt or slurm-*.out)
#   --cpus-per-shard C     cores each shard gets (default 1): parallel pins each shard to C cores
#                          of its own with taskset and runs cores/C shards at once per host;
#                          Slurm gets --cpus-per-task=C
#   --jobs J               parallel: shards at once per host (default: cores / C)
#   --sshlogin LOGIN       parallel: also run shards on LOGIN (GNU parallel's -S, e.g. 4/user@node1;
#                          ':' is this machine); repeatable; paths must be the same on every host
#   --sbatch-option OPT    slurm: passed to sbatch (e.g. --partition=short); repeatable
#   --normalise            merge --normalise: scale each shard's times by the calibration ratio
#
# TESTBED=PATH uses that testbed executable instead of building .build/release/testbed.
# Exit status: 0 merged; 1 a result mismatch or a failed shard; 2 bad usage or config.
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
say() { echo "sweep: $*" >&2; }
usage() { sed -n '2,21p' "$0" | sed 's/^# \{0,1\}//' >&2; exit "${1:-2}"; }
die() { say "$1"; exit "${2:-2}"; }

positional=()
scheduler=parallel out="" out_given=0 cpus=1 jobs="" normalise=0
sshlogins=() sbatch_options=()
given=" "
while [ $# -gt 0 ]; do
    # --option=value is --option value.
    if [[ "$1" == --*=* ]]; then
        first=${1%%=*} rest=${1#*=}
        shift
        set -- "$first" "$rest" "$@"
    fi
    # A single-valued option given twice is refused, as the testbed refuses it (the last won).
    case "$1" in
        --scheduler|--out|--cpus-per-shard|--jobs|--normalise)
            [[ "$given" != *" $1 "* ]] || die "$1 is given twice; give it once"
            given+="$1 " ;;
    esac
    case "$1" in
        --scheduler) [ $# -ge 2 ] || die "--scheduler needs parallel or slurm"; scheduler=$2; shift 2 ;;
        --out) [ $# -ge 2 ] || die "--out needs a directory"; out=$2; out_given=1; shift 2 ;;
        --cpus-per-shard) [ $# -ge 2 ] || die "--cpus-per-shard needs a number"; cpus=$2; shift 2 ;;
        --jobs) [ $# -ge 2 ] || die "--jobs needs a number"; jobs=$2; shift 2 ;;
        --sshlogin|-S) [ $# -ge 2 ] || die "--sshlogin needs a login"; sshlogins+=("$2"); shift 2 ;;
        --sbatch-option) [ $# -ge 2 ] || die "--sbatch-option needs an option"; sbatch_options+=("$2"); shift 2 ;;
        --normalise) normalise=1; shift ;;
        -h|--help) usage 0 ;;
        -*) die "unknown option '$1' (see --help)" ;;
        *) positional+=("$1"); shift ;;
    esac
done
[ ${#positional[@]} -eq 2 ] || usage
config=${positional[0]} shards=${positional[1]}

is_count() { [[ "$1" =~ ^[1-9][0-9]{0,5}$ ]]; }
is_count "$shards" || die "N: '$shards' is not a whole number from 1 to 999999"
is_count "$cpus" || die "--cpus-per-shard: '$cpus' is not a whole number of at least 1"
[ -z "$jobs" ] || is_count "$jobs" || die "--jobs: '$jobs' is not a whole number of at least 1"
case "$scheduler" in parallel|slurm) ;; *) die "--scheduler: '$scheduler' is not parallel or slurm" ;; esac
[ -f "$config" ] || die "$config: no such config file"
if [ "$scheduler" = slurm ] && [ ${#sshlogins[@]} -gt 0 ]; then die "--sshlogin is for --scheduler parallel"; fi
if [ "$scheduler" = parallel ] && [ ${#sbatch_options[@]} -gt 0 ]; then die "--sbatch-option is for --scheduler slurm"; fi
config=$(cd "$(dirname "$config")" && pwd)/$(basename "$config")

# The scheduler's commands, installed when missing.
needed=parallel
[ "$scheduler" = slurm ] && needed=sbatch
if ! command -v "$needed" >/dev/null 2>&1; then
    say "$needed is missing; installing the schedulers (scripts/setup.sh --sweep)"
    bash "$repo/scripts/setup.sh" --sweep >&2
fi

if [ -z "${TESTBED:-}" ]; then
    say "building testbed (release)"
    (cd "$repo" && swift build -c release --product testbed >&2)
    TESTBED=$(cd "$repo" && swift build -c release --show-bin-path)/testbed
fi
[ -x "$TESTBED" ] || die "TESTBED: '$TESTBED' is not an executable"
testbed=$(cd "$(dirname "$TESTBED")" && pwd)/$(basename "$TESTBED")

# The default output is the one `testbed run` would pick: Results/<name>/<UTC timestamp>.
if [ "$out_given" = 1 ]; then
    [ -n "$out" ] || die "--out: '' is empty; give a directory path"
    [ -n "${out//\//}" ] || die "--out: '$out' is the root directory; give a directory to write the result in"
fi
if [ -z "$out" ]; then
    name=$(sed -n 's/^name:[[:space:]]*//p' "$config" | head -n 1 | sed 's/[[:space:]]*#.*$//; s/^["'\'']//; s/["'\'']$//')
    [[ "$name" =~ ^[A-Za-z0-9._-]+$ ]] || die "$config: no plain top-level 'name:' to name the output directory; give --out DIR"
    stamp=$(date -u +%Y%m%dT%H%M%SZ)
    out=Results/$name/$stamp
    n=2
    while [ -e "$out" ] || [ -e "$out-shards" ]; do out=Results/$name/$stamp-$n; n=$((n + 1)); done
fi
# Trailing '/' and '/.' name the same directory: stripped, so that its shards go beside
# it (DIR-shards), not inside it where merge would then find the directory not empty.
while [ "$out" != "/" ] && { [ "${out%/}" != "$out" ] || [ "${out%/.}" != "$out" ]; }; do
    out=${out%/}
    out=${out%/.}
    [ -n "$out" ] || out=/
done
[ "$out" != "/" ] || die "--out: the root directory; give a directory to write the result in"
[ ! -e "$out" ] || [ -d "$out" ] || die "--out: '$out' is a file, not a directory"
[ ! -e "$out" ] || [ -z "$(ls -A -- "$out" 2>/dev/null)" ] || die "--out: '$out' is not empty; choose another --out"
shard_root=$out-shards
[ ! -e "$shard_root" ] || die "--out: '$shard_root' (where the shards go) already exists; choose another --out"
# `--` so that a path starting with '-' is a path; a parent that is a file is said plainly.
made=$(mkdir -p -- "$shard_root" 2>&1) || die "--out: cannot make '$shard_root': ${made#mkdir: }"
shard_root=$(cd -- "$shard_root" && pwd)
shard_dirs=()
for ((k = 1; k <= shards; k++)); do shard_dirs+=("$shard_root/shard-$k"); done

failed_shards() {
    local k
    for ((k = 1; k <= shards; k++)); do
        grep -qx 'status: complete' "$shard_root/shard-$k/run.txt" 2>/dev/null || echo "$k"
    done
}

# A config or option every shard refused (exit 2 before writing anything) leaves nothing
# behind: the shards' directory goes when no shard wrote a run directory.
refused_everywhere() {
    if ! compgen -G "$shard_root/shard-*/run.txt" >/dev/null; then
        rm -rf "$shard_root"
        return 0
    fi
    return 1
}

cores=$(nproc --all)
started=$(date +%s)
if [ "$scheduler" = parallel ]; then
    if [ ${#sshlogins[@]} -eq 0 ]; then
        per_host=${jobs:-$((cores / cpus > 0 ? cores / cpus : 1))}
        if ((cpus > cores)); then
            say "warning: --cpus-per-shard $cpus is more than the $cores cores of $(hostname); each shard gets all of them"
        elif ((per_host * cpus > cores)); then
            say "warning: $per_host shards at once × $cpus cores each > $cores cores on $(hostname); shards will share cores and their times are not comparable"
        fi
        job_option=(--jobs "$per_host")
        login_options=()
    else
        # Per host: J shards, or one per C cores of that host (GNU parallel counts each host's cores).
        job_option=(--jobs "${jobs:-$((100 / cpus))%}")
        login_options=()
        for login in "${sshlogins[@]}"; do login_options+=(--sshlogin "$login"); done
    fi
    say "running $shards shards of $config with GNU parallel into $shard_root"
    status=0
    # -q: each word reaches the shard as it is; without it parallel joins them into one
    # shell command line, and a path holding a space, `;` or `$(…)` was split or run.
    parallel -q "${job_option[@]}" "${login_options[@]}" --joblog "$shard_root/joblog.txt" --tagstring 'shard {}' \
        bash "$repo/scripts/sweep-shard.sh" "$testbed" "$config" {} "$shards" "$shard_root/shard-{}" "$cpus" '{%}' \
        ::: $(seq 1 "$shards") || status=$?
    if ((status != 0)); then
        # joblog.txt: Seq Host Starttime JobRuntime Send Receive Exitval Signal Command; a
        # config error fails every shard with 2, a mismatch with 1.
        if awk 'NR > 1 && $7 == 2 { found = 1 } END { exit !found }' "$shard_root/joblog.txt"; then
            refused_everywhere && exit 2
            die "shards $(failed_shards | tr '\n' ' ')were refused (exit 2, above; joblog in $shard_root/joblog.txt)"
        fi
        die "shards $(failed_shards | tr '\n' ' ')failed (see $shard_root/joblog.txt); rerun one with: $testbed run $config --shard K/$shards --resume --out $shard_root/shard-K, then merge" 1
    fi
else
    say "submitting an array of $shards shards of $config to Slurm (--cpus-per-task=$cpus)"
    job=$(sbatch --parsable --array="1-$shards" --cpus-per-task="$cpus" --chdir="$repo" \
        --output="$shard_root/slurm-%A_%a.out" "${sbatch_options[@]}" \
        "$repo/scripts/slurm/sweep.sbatch" "$config" "$shards" "$shard_root" "$testbed")
    job=${job%%;*}
    echo "$job" > "$shard_root/slurm-job-id.txt"
    say "job $job submitted; waiting for it"
    while [ -n "$(squeue --noheader --jobs="$job" --format=%i 2>/dev/null)" ]; do sleep 0.5; done
    failed=$(failed_shards | tr '\n' ' ')
    if [ -n "$failed" ]; then
        if grep -qs '^testbed: ' "$shard_root"/slurm-*.out; then
            grep -h '^testbed: ' "$shard_root"/slurm-*_1.out >&2 || true
            refused_everywhere && exit 2
        fi
        die "shards ${failed}did not complete (see $shard_root/slurm-${job}_K.out); rerun one with: $testbed run $config --shard K/$shards --resume --out $shard_root/shard-K, then merge" 1
    fi
fi
say "$shards shards done in $(( $(date +%s) - started )) s; merging into $out"

mkdir -p -- "$(dirname -- "$out")"
merge_options=()
((normalise)) && merge_options+=(--normalise)
"$testbed" merge "${shard_dirs[@]}" --out "$out" "${merge_options[@]}"
say "merged: $out (shards kept in $shard_root)"
