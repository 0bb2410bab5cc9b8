"""Bootstrap of order statistics without resampling the data.

For statistics that are functions of a few sample quantiles (a median, p99/p50, a ratio of
medians), the nonparametric bootstrap does not need to draw n values B times.  A bootstrap
sample of size m drawn from sorted data x_(1) ≤ … ≤ x_(n) has its k-th order statistic equal
to x_(⌈n·U_(k)⌉), where U_(k) is the k-th order statistic of m uniforms; and the order
statistics U_(k1) < U_(k2) < … of m uniforms are partial sums of independent Gamma spacings
divided by their total (Devroye 1986, *Non-Uniform Random Variate Generation*, §V.2).  So
each replicate costs O(number of quantiles), not O(n): a million-sample run is bootstrapped in
milliseconds, and the result has exactly the distribution of scipy.stats.bootstrap's
resampled quantiles (tests check this).

With m = n this is the ordinary iid bootstrap; with m = n_eff < n it is the m-out-of-n
bootstrap (Bickel, Götze & van Zwet 1997), which we use to carry autocorrelation: the
resampled quantile then has the variance of a quantile of n_eff independent points.
"""

from __future__ import annotations

import numpy as np


def quantile_replicates(
    xs: np.ndarray, qs, m: int, n_resamples: int, rng: np.random.Generator
) -> np.ndarray:
    """(n_resamples, len(qs)) bootstrap replicates of linear-interpolation quantiles ``qs`` of
    a size-``m`` resample of sorted ``xs``."""
    n = len(xs)
    qs = np.asarray(qs, dtype=float)
    h = (m - 1) * qs
    j = np.floor(h).astype(int)  # 0-based order statistics j and j+1 of the resample
    frac = h - j
    ranks = np.unique(np.concatenate([j + 1, np.minimum(j + 2, m)]))  # 1-based, sorted
    shapes = np.diff(np.concatenate([[0], ranks, [m + 1]])).astype(float)
    gam = rng.standard_gamma(shapes, size=(n_resamples, len(shapes)))
    u = np.cumsum(gam, axis=1)
    u = u[:, :-1] / u[:, -1:]  # U_(rank) for every needed rank
    idx = np.clip(np.ceil(n * u).astype(int) - 1, 0, n - 1)
    vals = xs[idx]
    pos = {r: i for i, r in enumerate(ranks)}
    lo = vals[:, [pos[r] for r in j + 1]]
    hi = vals[:, [pos[r] for r in np.minimum(j + 2, m)]]
    return lo + frac * (hi - lo)


def percentile_interval(reps: np.ndarray, level: float) -> tuple[float, float]:
    a = (1 - level) / 2
    lo, hi = np.quantile(reps, [a, 1 - a])
    return float(lo), float(hi)
