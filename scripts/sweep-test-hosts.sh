#!/usr/bin/env bash
# Test hosts for `scripts/sweep.sh --sshlogin`: each is a network namespace with its own
# hostname (a UTS namespace) and an sshd, reached over a veth pair, on this machine, so a
# multi-host GNU parallel sweep can be run for real without other machines. The hosts share
# this machine's file system and cores, as cluster nodes share a file system.
#
#   bash scripts/sweep-test-hosts.sh up DIR [COUNT]   start COUNT (default 2) hosts; DIR must be new or empty
#   bash scripts/sweep-test-hosts.sh down DIR         stop their sshd and delete their namespaces
#
# After `up`, DIR/sshlogins holds one GNU parallel --sshlogin per line ("ssh -F DIR/ssh_config
# sweep-hK"); host K is named sweep-hK and has address 10.(240+K).P.2 (this side .1), with
# P = this script's pid mod 250, so concurrent test runs do not collide.
# Needs root, iproute2 (`ip netns`), unshare and openssh-server; nothing outside DIR is
# written apart from the namespaces, the veth pairs and /run/sshd (sshd's privilege-separation
# directory).
set -euo pipefail

say() { echo "sweep-test-hosts: $*" >&2; }
usage() { sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }

[ $# -ge 2 ] && [ $# -le 3 ] || usage
action=$1 dir=$2 count=${3:-2}
[[ "$count" =~ ^[1-9]$ ]] || { say "COUNT: '$count' is not 1 to 9"; exit 2; }

# Runs a daemon with only stdin, stdout and stderr (see scripts/slurm/local-cluster.sh).
daemon() (
    for fd in $(ls /proc/$BASHPID/fd); do
        if ((fd > 2)); then eval "exec $fd>&-" 2>/dev/null || true; fi
    done
    exec "$@" </dev/null >/dev/null 2>&1
)

stop() {
    local ns pid
    for pidfile in "$dir"/sweep-h*.pid; do
        [ -s "$pidfile" ] || continue
        pid=$(cat "$pidfile")
        kill -TERM "$pid" 2>/dev/null || true
        for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
        kill -KILL "$pid" 2>/dev/null || true
        rm -f "$pidfile"
    done
    for file in "$dir"/sweep-h*.netns; do
        [ -s "$file" ] || continue
        ns=$(cat "$file")
        ip netns del "$ns" 2>/dev/null || true
        rm -f "$file"
    done
}

case "$action" in
    up)
        [ "$(id -u)" -eq 0 ] || { say "needs root (ip netns, sshd)"; exit 1; }
        for tool in ip unshare ssh ssh-keygen /usr/sbin/sshd; do
            command -v "$tool" >/dev/null 2>&1 || { say "$tool is missing; run: bash scripts/setup.sh --sweep-tests"; exit 1; }
        done
        mkdir -p "$dir"
        [ -z "$(ls -A "$dir")" ] || { say "'$dir' is not empty; give a new directory"; exit 2; }
        dir=$(cd "$dir" && pwd)
        chmod 700 "$dir"
        trap 'status=$?; if ((status != 0)); then say "starting failed; stopping what started"; stop; fi' EXIT
        mkdir -p /run/sshd
        ssh-keygen -q -t ed25519 -N '' -f "$dir/host_key"
        ssh-keygen -q -t ed25519 -N '' -f "$dir/client_key"
        cp "$dir/client_key.pub" "$dir/authorized_keys"
        : > "$dir/ssh_config"
        : > "$dir/sshlogins"
        : > "$dir/known_hosts"
        for ((k = 1; k <= count; k++)); do
            # Per-invocation addresses, so two test runs on one machine do not collide.
            name=sweep-h$k ns=sweep-h$k-$$ here=10.$((240 + k)).$(($$ % 250)).1 there=10.$((240 + k)).$(($$ % 250)).2
            ip netns add "$ns"
            echo "$ns" > "$dir/$name.netns"
            ip link add "sw$k-$$" type veth peer name "sw$k-$$-in" netns "$ns" 2>/dev/null \
                || { ip link add "sw$k-$$" type veth peer name eth0 && ip link set eth0 netns "$ns"; }
            inner=$(ip netns exec "$ns" ip -o link show | awk -F': ' '$2 != "lo" { sub(/@.*/, "", $2); print $2; exit }')
            ip addr add "$here/30" dev "sw$k-$$"
            ip link set "sw$k-$$" up
            ip netns exec "$ns" ip addr add "$there/30" dev "$inner"
            ip netns exec "$ns" ip link set "$inner" up
            ip netns exec "$ns" ip link set lo up
            cat > "$dir/$name.sshd_config" <<CONF
ListenAddress $there
Port 22
HostKey $dir/host_key
AuthorizedKeysFile $dir/authorized_keys
PermitRootLogin prohibit-password
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
PidFile $dir/$name.pid
StrictModes no
AcceptEnv LANG LC_*
CONF
            # Its own hostname: `testbed run` records the host, and merge compares hosts.
            daemon ip netns exec "$ns" unshare --uts sh -c "hostname $name && exec /usr/sbin/sshd -f '$dir/$name.sshd_config' -E '$dir/$name.sshd.log'"
            for _ in $(seq 1 50); do [ -s "$dir/$name.pid" ] && break; sleep 0.1; done
            cat >> "$dir/ssh_config" <<CONF
Host $name
    HostName $there
    User root
    IdentityFile $dir/client_key
    IdentitiesOnly yes
    UserKnownHostsFile $dir/known_hosts
    StrictHostKeyChecking accept-new
    BatchMode yes
    ConnectTimeout 5
    LogLevel ERROR
CONF
            echo "ssh -F $dir/ssh_config $name" >> "$dir/sshlogins"
        done
        for ((k = 1; k <= count; k++)); do
            got=$(ssh -F "$dir/ssh_config" "sweep-h$k" hostname)
            [ "$got" = "sweep-h$k" ] || { say "host sweep-h$k answered '$got'"; exit 1; }
        done
        trap - EXIT
        say "up: $count hosts; --sshlogin values in $dir/sshlogins"
        ;;
    down)
        [ -d "$dir" ] || { say "'$dir' is not a directory"; exit 2; }
        dir=$(cd "$dir" && pwd)
        stop
        say "down: no sshd or namespace of $dir is left"
        ;;
    *) usage ;;
esac
