#!/usr/bin/env python3
"""Seeded bootstrap confidence intervals for the testbed, computed with scipy.stats.bootstrap.

    python3 scripts/report/bootstrap.py REQUEST.json ANSWER.json

The request (written by the Swift side, `BootstrapIntervals`) is
    {"confidence": 0.95, "resamples": 9999, "seed": 1,
     "medians": [{"id": "...", "samples": [..]}, ...],
     "ratios":  [{"id": "...", "numerator": [..], "denominator": [..]}, ...]}
A median item gets the interval of its sample's median; a ratio item the interval of
median(numerator) / median(denominator), the two samples resampled independently.
The answer is {"library": "scipy X, numpy Y", "method": "...", "intervals": {"id": [low, high], ...}}.

Every item is resampled from its own generator, seeded from the request's seed and the
item's id (CRC-32), so an interval depends only on its samples, the seed and its id: not on
which other cells are in the request (a merged run gets the intervals of an unsharded one).
A sample whose statistic cannot vary (one value, or all values equal) gets [x, x].
Exit status 3: numpy or scipy is missing (install with scripts/setup.sh --plotting).
"""
import json
import sys
import warnings
import zlib

try:
    import numpy as np
    import scipy
    from scipy import stats
except ImportError as error:
    sys.stderr.write(f"numpy/scipy is not installed ({error}): run scripts/setup.sh --plotting "
                     "or python3 -m pip install scipy\n")
    sys.exit(3)

METHOD = "percentile"


def generator(seed, item_id):
    return np.random.default_rng([int(seed) & 0xFFFFFFFF, zlib.crc32(item_id.encode("utf-8"))])


def bootstrap(data, statistic, confidence, resamples, rng):
    kwargs = dict(statistic=statistic, vectorized=True, paired=False, confidence_level=confidence,
                  n_resamples=resamples, method=METHOD)
    # scipy renamed random_state to rng in 1.15; accept both.
    try:
        result = stats.bootstrap(data, rng=rng, **kwargs)
    except TypeError:
        result = stats.bootstrap(data, random_state=rng, **kwargs)
    return [float(result.confidence_interval.low), float(result.confidence_interval.high)]


def median_interval(samples, confidence, resamples, rng):
    x = np.asarray(samples, dtype=float)
    if x.size == 0:
        return None
    if np.all(x == x[0]):
        return [float(x[0]), float(x[0])]
    return bootstrap((x,), lambda s, axis: np.median(s, axis=axis), confidence, resamples, rng)


def ratio_interval(numerator, denominator, confidence, resamples, rng):
    a = np.asarray(numerator, dtype=float)
    b = np.asarray(denominator, dtype=float)
    if a.size == 0 or b.size == 0:
        return None
    if np.all(a == a[0]) and np.all(b == b[0]):
        return [float(a[0] / b[0]), float(a[0] / b[0])] if b[0] > 0 else None
    if np.median(b) <= 0:
        return None
    if a.size < 2 or b.size < 2:
        return None  # scipy resamples only samples of two or more (a cell of one repetition)

    def ratio(s, t, axis):
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.median(s, axis=axis) / np.median(t, axis=axis)

    low, high = bootstrap((a, b), ratio, confidence, resamples, rng)
    if not (np.isfinite(low) and np.isfinite(high)):
        return None  # some resample had a zero median in the denominator
    return [low, high]


def main():
    if len(sys.argv) != 3:
        sys.stderr.write("usage: bootstrap.py REQUEST.json ANSWER.json\n")
        sys.exit(2)
    with open(sys.argv[1], encoding="utf-8") as f:
        request = json.load(f)
    confidence = float(request.get("confidence", 0.95))
    resamples = int(request.get("resamples", 9999))
    seed = int(request.get("seed", 1))
    intervals = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for item in request.get("medians", []):
            interval = median_interval(item["samples"], confidence, resamples, generator(seed, item["id"]))
            if interval is not None:
                intervals[item["id"]] = interval
        for item in request.get("ratios", []):
            interval = ratio_interval(item["numerator"], item["denominator"], confidence, resamples,
                                      generator(seed, item["id"]))
            if interval is not None:
                intervals[item["id"]] = interval
    answer = {"library": f"scipy {scipy.__version__}, numpy {np.__version__}",
              "method": f"scipy.stats.bootstrap, {METHOD}", "intervals": intervals}
    with open(sys.argv[2], "w", encoding="utf-8") as f:
        json.dump(answer, f)


if __name__ == "__main__":
    main()
