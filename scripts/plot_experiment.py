#!/usr/bin/env python3
"""Plots of one experiment run, drawn from its summary.csv with matplotlib.

    python3 scripts/plot_experiment.py RESULTS_DIR

writes RESULTS_DIR/plots/total-vs-rows.svg (log-log median total time against rows, one
panel per query, one line per flag set and SQLite engine, min-max as a band) and
RESULTS_DIR/plots/speedup.svg (speedup against the run's baseline flag set, as bars).
A change experiment (summary.csv has a mode column) also gets the plots of
scripts/plot_changes.py, drawn from timings.csv: latency along the stream, its CDF, and
incremental against requery by dataset size.
Exit status 3 means matplotlib is missing (install it with scripts/setup.sh --plotting or
`python3 -m pip install matplotlib`); `testbed run` calls this script and says so.
"""
import csv
import math
import os
import sys

try:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
except ImportError:
    sys.stderr.write("matplotlib is not installed: run scripts/setup.sh --plotting or python3 -m pip install matplotlib\n")
    sys.exit(3)

# Small, reproducible SVGs: text stays text, ids and metadata do not depend on the clock.
matplotlib.rcParams["svg.fonttype"] = "none"
matplotlib.rcParams["svg.hashsalt"] = "querytestbed"


def read_summary(directory):
    with open(os.path.join(directory, "summary.csv"), newline="") as f:
        return list(csv.DictReader(f))


def label(row, multiple_backends):
    if row["engine"] != "testbed":
        return row["engine"]
    name = f'{row["flagset"]}@{row["backend"]}' if multiple_backends else row["flagset"]
    return f'{name}/{row["mode"]}' if row.get("mode") else name


def ordered(values):
    seen = []
    for v in values:
        if v not in seen:
            seen.append(v)
    return seen


def panels(count):
    columns = min(count, 2)
    rows = math.ceil(count / columns)
    fig, axes = plt.subplots(rows, columns, figsize=(6.4 * columns, 4.2 * rows), squeeze=False)
    flat = [a for line in axes for a in line]
    for extra in flat[count:]:
        extra.set_visible(False)
    return fig, flat


def save(fig, path):
    fig.tight_layout()
    save_atomically(fig, path)
    plt.close(fig)


def save_atomically(fig, path):
    """Writes beside `path` and renames, so a full disk leaves no cut-off plot behind."""
    partial = path + ".partial"
    try:
        fig.savefig(partial, format=os.path.splitext(path)[1][1:], metadata={"Date": None})
        os.replace(partial, path)
    except BaseException:
        if os.path.exists(partial):
            os.remove(partial)
        raise


def plot_times(rows, labels, queries, lab, out):
    fig, axes = panels(len(queries))
    for ax, query in zip(axes, queries):
        for name in labels:
            cells = sorted(((int(r["rows"]), r) for r in rows if r["query"] == query and lab(r) == name), key=lambda c: c[0])
            if not cells:
                continue
            xs = [n for n, _ in cells]
            median = [float(r["total_us_median"]) / 1000 for _, r in cells]
            low = [float(r["total_us_min"]) / 1000 for _, r in cells]
            high = [float(r["total_us_max"]) / 1000 for _, r in cells]
            style = "--" if not cells[0][1]["engine"] == "testbed" else "-"
            line, = ax.plot(xs, median, style, marker="o", label=name)
            ax.fill_between(xs, low, high, color=line.get_color(), alpha=0.15, linewidth=0)
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_title(query)
        ax.set_xlabel("rows")
        ax.set_ylabel("median total time (ms)")
        ax.grid(True, which="major", alpha=0.3)
        ax.legend(fontsize="small")
    save(fig, os.path.join(out, "total-vs-rows.svg"))


def plot_speedups(rows, labels, queries, lab, out):
    baseline = next((r["baseline"] for r in rows if r.get("baseline")), "")
    shown = [name for name in labels if name != baseline and not name.startswith(baseline + "@")]
    if not baseline or not shown:
        return
    fig, axes = panels(len(queries))
    for ax, query in zip(axes, queries):
        sizes = sorted({int(r["rows"]) for r in rows if r["query"] == query})
        width = 0.8 / max(len(shown), 1)
        for i, name in enumerate(shown):
            values = []
            for n in sizes:
                match = [r for r in rows if r["query"] == query and int(r["rows"]) == n and lab(r) == name]
                values.append(float(match[0]["speedup"]) if match and match[0]["speedup"] else 0.0)
            positions = [k + (i - (len(shown) - 1) / 2) * width for k in range(len(sizes))]
            ax.bar(positions, values, width, label=name)
        ax.axhline(1.0, color="black", linewidth=0.8)
        ax.set_yscale("log")
        ax.set_xticks(range(len(sizes)))
        ax.set_xticklabels([f"{n:,}" for n in sizes])
        ax.set_title(query)
        ax.set_xlabel("rows")
        ax.set_ylabel(f"speedup vs {baseline} (x, log)")
        ax.grid(True, axis="y", which="major", alpha=0.3)
        ax.legend(fontsize="small")
    save(fig, os.path.join(out, "speedup.svg"))


def main(argv):
    if len(argv) != 2:
        sys.stderr.write("usage: plot_experiment.py RESULTS_DIR\n")
        return 2
    directory = argv[1]
    rows = read_summary(directory)
    if not rows:
        return 0
    multiple = len({r["backend"] for r in rows if r["engine"] == "testbed"}) > 1
    lab = lambda r: label(r, multiple)
    labels = ordered(lab(r) for r in rows)
    queries = ordered(r["query"] for r in rows)
    out = os.path.join(directory, "plots")
    os.makedirs(out, exist_ok=True)
    plot_times(rows, labels, queries, lab, out)
    plot_speedups(rows, labels, queries, lab, out)
    if rows[0].get("mode"):
        sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
        import plot_changes

        plot_changes.plot(directory, out, multiple, panels, save)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
