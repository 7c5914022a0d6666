#!/usr/bin/env python3
"""Regret CDF of a `testbed hunt` run, drawn from its regret.csv with matplotlib.

    python3 scripts/plot_regret.py HUNT_DIR

writes HUNT_DIR/plots/regret-cdf.svg: for each flag set, the share of cases whose regret
(rows read over the least rows read by any flag set) is at most x, x on a log axis.
Exit status 3 means matplotlib is missing (scripts/setup.sh --plotting).
"""
import csv
import os
import sys

try:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
except ImportError:
    sys.stderr.write("matplotlib is not installed: run scripts/setup.sh --plotting or python3 -m pip install matplotlib\n")
    sys.exit(3)

matplotlib.rcParams["svg.fonttype"] = "none"
matplotlib.rcParams["svg.hashsalt"] = "querytestbed"


def main(directory):
    regrets = {}
    with open(os.path.join(directory, "regret.csv"), newline="") as f:
        for row in csv.DictReader(f):
            regrets.setdefault(row["flagset"], []).append(float(row["regret"]))
    fig, ax = plt.subplots(figsize=(8, 5))
    for name, values in regrets.items():
        values.sort()
        n = len(values)
        ax.step(values, [(i + 1) / n for i in range(n)], where="post", label=f"{name} (n={n})")
    ax.set_xscale("log")
    ax.set_xlabel("regret: rows read / least rows read by any flag set (log)")
    ax.set_ylabel("share of cases with regret <= x")
    ax.set_ylim(0, 1.02)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=7, loc="lower right")
    ax.set_title("Regret CDF per flag set")
    plots = os.path.join(directory, "plots")
    os.makedirs(plots, exist_ok=True)
    fig.tight_layout()
    # Written beside and renamed, so a full disk leaves no cut-off plot behind.
    path = os.path.join(plots, "regret-cdf.svg")
    try:
        fig.savefig(path + ".partial", format="svg", metadata={"Date": None})
        os.replace(path + ".partial", path)
    except BaseException:
        if os.path.exists(path + ".partial"):
            os.remove(path + ".partial")
        raise
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.stderr.write("usage: plot_regret.py HUNT_DIR\n")
        sys.exit(2)
    sys.exit(main(sys.argv[1]))
