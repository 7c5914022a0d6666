"""Plots of a change experiment, drawn from its timings.csv (one row per transaction per
cell; run_us is the transaction's propagation time). Called by plot_experiment.py:

- plots/latency-stream-ROWS.svg: per-transaction latency along the stream, one panel per
  query, one line per flag set and mode (the median over repetitions of each transaction);
- plots/latency-cdf-ROWS.svg: the distribution (CDF) of per-transaction latency, one line
  per flag set and mode;
- plots/changes-vs-rows.svg: median per-transaction latency against dataset size, log-log,
  one line per flag set and mode, the band from the fastest transaction to the 95th
  percentile.
"""
import csv
import math
import os
import statistics


def read_timings(directory):
    with open(os.path.join(directory, "timings.csv"), newline="") as f:
        return list(csv.DictReader(f))


def ordered(values):
    seen = []
    for v in values:
        if v not in seen:
            seen.append(v)
    return seen


def label(row, multiple_backends):
    name = f'{row["flagset"]}@{row["backend"]}' if multiple_backends else row["flagset"]
    return f'{name}/{row["mode"]}'


def style(name):
    # Requery dashed, the incremental modes solid: the comparison the plots are for.
    return "--" if name.endswith("/requery") else "-"


def percentile(values, p):
    # Nearest rank, as summary.csv's p95 columns.
    ordered_values = sorted(values)
    rank = max(1, min(len(ordered_values), math.ceil(p * len(ordered_values))))
    return ordered_values[rank - 1]


def plot(directory, out, multiple_backends, panels, save):
    rows = read_timings(directory)
    if not rows:
        return
    lab = lambda r: label(r, multiple_backends)
    labels = ordered(lab(r) for r in rows)
    queries = ordered(r["query"] for r in rows)
    sizes = sorted({int(r["rows"]) for r in rows})
    ms = lambda r: float(r["run_us"]) / 1000

    for n in sizes:
        at = [r for r in rows if int(r["rows"]) == n]
        fig, axes = panels(len(queries))
        for ax, query in zip(axes, queries):
            for name in labels:
                cell = [r for r in at if r["query"] == query and lab(r) == name]
                if not cell:
                    continue
                by_t = {}
                for r in cell:
                    by_t.setdefault(int(r["transaction"]), []).append(ms(r))
                ts = sorted(by_t)
                ax.plot(ts, [statistics.median(by_t[t]) for t in ts], style(name), linewidth=1, label=name)
            ax.set_yscale("log")
            ax.set_title(f"{query}, {n:,} rows")
            ax.set_xlabel("transaction")
            ax.set_ylabel("propagation time (ms, log)")
            ax.grid(True, which="major", alpha=0.3)
            ax.legend(fontsize="x-small")
        save(fig, os.path.join(out, f"latency-stream-{n}.svg"))

        fig, axes = panels(len(queries))
        for ax, query in zip(axes, queries):
            for name in labels:
                values = sorted(ms(r) for r in at if r["query"] == query and lab(r) == name)
                if not values:
                    continue
                ax.step(values, [(i + 1) / len(values) for i in range(len(values))], style(name), where="post",
                        linewidth=1, label=name)
            ax.set_xscale("log")
            ax.set_title(f"{query}, {n:,} rows")
            ax.set_xlabel("propagation time per transaction (ms, log)")
            ax.set_ylabel("fraction of transactions")
            ax.grid(True, which="major", alpha=0.3)
            ax.legend(fontsize="x-small")
        save(fig, os.path.join(out, f"latency-cdf-{n}.svg"))

    fig, axes = panels(len(queries))
    for ax, query in zip(axes, queries):
        for name in labels:
            points = []
            for n in sizes:
                values = [ms(r) for r in rows if r["query"] == query and lab(r) == name and int(r["rows"]) == n]
                if values:
                    points.append((n, statistics.median(values), min(values), percentile(values, 0.95)))
            if not points:
                continue
            line, = ax.plot([p[0] for p in points], [p[1] for p in points], style(name), marker="o", label=name)
            ax.fill_between([p[0] for p in points], [p[2] for p in points], [p[3] for p in points],
                            color=line.get_color(), alpha=0.12, linewidth=0)
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_title(query)
        ax.set_xlabel("rows")
        ax.set_ylabel("median propagation time per transaction (ms)")
        ax.grid(True, which="major", alpha=0.3)
        ax.legend(fontsize="x-small")
    save(fig, os.path.join(out, "changes-vs-rows.svg"))
