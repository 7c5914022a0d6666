#!/usr/bin/env bash
# Installs what the testbed needs and is missing; safe to run any number of times.
#
#   bash scripts/setup.sh              Swift check + system libraries (libsqlite3-dev, libgraphviz-dev, libpq-dev)
#   bash scripts/setup.sh --plotting   also the Python packages for plots and confidence intervals (matplotlib, numpy, scipy)
#   bash scripts/setup.sh --engines    also PostgreSQL and libpq (postgresql, libpq-dev) and DuckDB's Python
#                                      package (duckdb): the postgres and duckdb engines, their tests, the bulk benchmarks
#   bash scripts/setup.sh --browser    also Chromium, for the report's headless-browser test
#   bash scripts/setup.sh --sweep      also the schedulers scripts/sweep.sh uses: GNU parallel,
#                                      Slurm (slurm-wlm), munge and the ssh client (Debian/Ubuntu)
#   bash scripts/setup.sh --sweep-tests  --sweep plus what the scheduler tests need: sshd
#                                      (openssh-server) and iproute2 for the test hosts
set -euo pipefail

plotting=0
engines=0
browser=0
sweep=0
sweep_tests=0
for arg in "$@"; do
    case "$arg" in
        --plotting) plotting=1 ;;
        --engines) engines=1 ;;
        --browser) browser=1 ;;
        --sweep) sweep=1 ;;
        --sweep-tests) sweep=1; sweep_tests=1 ;;
        -h|--help) sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "setup.sh: unknown option '$arg' (known: --plotting, --engines, --browser, --sweep, --sweep-tests)" >&2; exit 2 ;;
    esac
done

say() { echo "setup: $*"; }

# Swift: not installed by this script (a toolchain is large and platform specific).
if ! command -v swift >/dev/null 2>&1; then
    say "the Swift toolchain (6.0 or later) is not on PATH." >&2
    say "install it from https://www.swift.org/install/ (e.g. with swiftly: https://www.swift.org/swiftly/)," >&2
    say "then make sure 'swift --version' works in this shell and run this script again." >&2
    exit 1
fi

# apt-get, with `apt-get update` run once before the first install, through sudo when not root.
apt_updated=0
apt_install() {
    if ! command -v apt-get >/dev/null 2>&1; then
        say "missing $*, and apt-get is not available; install them with your package manager." >&2
        exit 1
    fi
    local sudo_cmd=()
    if [ "$(id -u)" -ne 0 ]; then
        if ! command -v sudo >/dev/null 2>&1; then
            say "missing $*; run this script as root or install sudo." >&2
            exit 1
        fi
        sudo_cmd=(sudo)
    fi
    say "installing $*"
    if ((apt_updated == 0)); then
        "${sudo_cmd[@]}" apt-get update -qq
        apt_updated=1
    fi
    # env after sudo: sudo's env_reset would drop a variable set before it.
    # Without recommends: every program and plugin the testbed runs is a dependency (Slurm's
    # one-node cluster uses only slurm-wlm-basic-plugins; Chromium runs with --no-sandbox,
    # and fontconfig's dependency brings a font), while the recommends add hundreds of
    # packages a fresh CI machine would download and unpack (Slurm's HDF5, RRD, InfluxDB,
    # Elasticsearch and IPMI plugins, Mesa, systemd-logind for sshd, a printer dialog for
    # Chromium).
    "${sudo_cmd[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@"
}

# System libraries linked through system-library targets (Sources/CSQLite, Sources/CGraphviz,
# Sources/CLibPQ: libpq, PostgreSQL's client library, is needed to build at all).
packages=(libsqlite3-dev libgraphviz-dev libpq-dev)
# PostgreSQL's server programs (initdb, pg_ctl, postgres) for the postgres engines.
if ((engines)); then
    packages+=(postgresql)
fi
# Schedulers: parallel; slurm-wlm brings slurmctld, slurmd and the client commands (sbatch,
# squeue, sinfo); munge authenticates them. scripts/slurm/local-cluster.sh starts none of
# them as services: the packages' own services stay as the system has them.
if ((sweep)); then
    packages+=(parallel slurm-wlm munge openssh-client)
fi
# The scheduler tests' hosts (scripts/sweep-test-hosts.sh) run sshd in network namespaces.
if ((sweep_tests)); then
    packages+=(openssh-server iproute2)
fi
missing=()
for pkg in "${packages[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed"; then
        missing+=("$pkg")
    fi
done
if ((${#missing[@]} > 0)); then
    apt_install "${missing[@]}"
fi

if ((plotting)); then
    python=$(command -v python3 || command -v python || true)
    if [ -z "$python" ]; then
        say "--plotting needs python3, which is not on PATH." >&2
        exit 1
    fi
    # module to import, Debian package, pip package: matplotlib draws the plots, scipy
    # (with numpy) computes the bootstrap confidence intervals (scripts/report/bootstrap.py).
    for spec in "matplotlib python3-matplotlib matplotlib" "scipy.stats python3-scipy scipy"; do
        read -r module deb pip_name <<<"$spec"
        has_module() { "$python" -c "import $module" >/dev/null 2>&1; }
        # Debian's own Python refuses pip installs (externally managed): use its package.
        case "$(readlink -f "$python")" in
            /usr/bin/*) has_module || apt_install "$deb" ;;
        esac
        if ! has_module; then
            say "installing $pip_name for $python with pip"
            if ! "$python" -m pip install --quiet "$pip_name"; then
                say "could not install $pip_name for $python; install it by hand (apt-get install $deb, or pip)." >&2
                exit 1
            fi
        fi
    done
fi

if ((browser)); then
    if ! command -v chromium >/dev/null 2>&1 && ! command -v chromium-browser >/dev/null 2>&1; then
        apt_install chromium
    fi
fi

if ((engines)); then
    python=$(command -v python3 || command -v python || true)
    if [ -z "$python" ]; then
        say "--engines needs python3, which is not on PATH." >&2
        exit 1
    fi
    if ! "$python" -c "import duckdb" >/dev/null 2>&1; then
        # DuckDB's official Python package from PyPI (1.5.x or 2.0.x; the bulk benchmarks
        # were measured with 2.0.0). Debian's own Python refuses pip installs (externally
        # managed), so there the user site is used, with the override pip asks for.
        say "installing duckdb for $python with pip"
        pip_args=(--quiet "duckdb>=1.5,<2.1")
        case "$(readlink -f "$python")" in
            /usr/bin/*)
                "$python" -m pip --version >/dev/null 2>&1 || apt_install python3-pip
                pip_args+=(--user --break-system-packages) ;;
        esac
        if ! "$python" -m pip install "${pip_args[@]}"; then
            say "could not install duckdb for $python; install it by hand (pip install duckdb)." >&2
            exit 1
        fi
    fi
    say "duckdb $("$python" -c "import duckdb; print(duckdb.__version__)") for $python"
fi

say "ready ($(swift --version 2>/dev/null | head -n 1))"
