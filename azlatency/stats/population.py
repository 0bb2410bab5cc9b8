"""Percentiles of the population of runs: what a packet of a *future* run will see.

A condition measured in k runs that differ from one another (placement, noisy neighbours, the
time of day) has two percentiles worth asking for: the median run's (``summarize`` with the
run as the unit) and the pooled population's — the p99 of all packets of all runs the
condition could give.  The second is the one a service-level objective talks about.

``pooled_quantile(parts, q)``: the estimate is the q-quantile of all packets (each packet
counts once).  The interval is the union of two:

- **Nonparametric**, by inverting a test of the exceedance share: x is in it when
  P(X > x) = 1 − q is inside the run-unit interval of that share at x — itself the union of
  the Clopper–Pearson interval at the effective n of the runs' shares (the ratio estimator's
  cluster variance, as ``tails.exceedance`` with the run as the unit) and Cox's interval for
  a log-normal mean of the runs' shares (half a packet added to each).  It holds while runs
  differ little; where they differ as much as packets within a run do, the deep tail of the
  population is set by runs nobody measured, and it misses (p99, 10 runs: 56–83 %).
- **Random effects**: log value = μ + b_run + e, b_run ~ N(0, σ_b²) (runs shift on the log
  scale), e from the pooled residuals about each run's median.  The population's quantile
  solves mean_e Φ((log x − μ − e)/σ_b) = q (Gauss–Hermite in b), and its interval is that of
  the generalized pivotal quantities σ_b*² = (k − 1)s_b²/χ²_{k−1}, μ* = μ̂ − Z σ_b*/√k
  (Weerahandi 1993; Krishnamoorthy & Mathew 2009, *Statistical Tolerance Regions*, ch. 4).
  It ignores the residuals' own sampling error, so alone it misses when runs do not differ
  (p99: 54–65 %).

Simulated with log-normal packets and runs (``benchmarks/validate_stats.py``,
docs/statistics.md "pooled population"): the union covers in every cell of k = 5, 10, 30
runs × σ_b = 0 … 0.5 × p50, p99.  The row says the assumption (normal run shifts on the log
scale).  Below :data:`MIN_RUNS` runs, or with values ≤ 0 or censored, it is not estimable.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from scipy import stats

from .common import (
    Observations,
    clopper_pearson,
    join_notes,
    not_estimable,
    row,
    run_shares,
)

METHOD = (
    "inverted run-unit exceedance interval (Clopper–Pearson at n_eff ∪ Cox log-normal) "
    "∪ random-effects generalized pivot"
)
MIN_RUNS = 5
DRAWS = 400  # generalized pivotal draws
_GH_Z, _GH_W = np.polynomial.hermite_e.hermegauss(40)
_GH_W = _GH_W / _GH_W.sum()
ASSUMES = "assumes runs shift on the log scale as a normal random effect"
_GRID = 200_000  # candidate values scanned for the interval's ends (all below this many)


def _share_bounds(
    srt: list[np.ndarray], n_i: np.ndarray, grid: np.ndarray, level: float
) -> tuple[np.ndarray, np.ndarray]:
    """Lower and upper confidence bounds of P(X > x) at each x of ``grid``, the run as unit."""
    k = len(srt)
    above = np.stack([len(s) - np.searchsorted(s, grid, side="right") for s in srt]).astype(float)
    p, _, _, n_eff = run_shares(above, n_i, level)
    lo_cp, hi_cp = clopper_pearson(p * n_eff, n_eff, level)
    y = np.log((above + 0.5) / (n_i[:, None] + 1))
    ybar, s2 = y.mean(0), y.var(0, ddof=1)
    half = stats.t.ppf((1 + level) / 2, k - 1) * np.sqrt(s2 / k + s2**2 / (2 * (k - 1)))
    lo_cox, hi_cox = np.exp(ybar + s2 / 2 - half), np.exp(ybar + s2 / 2 + half)
    return np.minimum(lo_cp, lo_cox), np.maximum(hi_cp, hi_cox)


def _re_quantile(resid: np.ndarray, mu: np.ndarray, sb: np.ndarray, q: float) -> np.ndarray:
    """The q-quantile (log scale) of μ + σ_b·Z + e for each (μ, σ_b), e drawn from the sorted
    ``resid``: bisection on all of them at once."""
    n = len(resid)
    lo = mu + resid[0] - 8 * sb - 1e-9
    hi = mu + resid[-1] + 8 * sb + 1e-9
    for _ in range(48):
        mid = 0.5 * (lo + hi)
        at = mid[:, None] - mu[:, None] - sb[:, None] * _GH_Z[None, :]
        share = (np.searchsorted(resid, at.ravel(), side="right") / n).reshape(at.shape) @ _GH_W
        below = share < q
        lo, hi = np.where(below, mid, lo), np.where(below, hi, mid)
    return hi


def random_effects_interval(
    parts: Sequence[Observations], q: float, level: float, seed: int = 0
) -> tuple[float, float]:
    """The random-effects interval of the population's q-quantile (see the module's
    docstring); NaNs when a value is not positive."""
    with np.errstate(divide="ignore", invalid="ignore"):
        logs = [np.log(p.series) for p in parts if len(p.series)]
    if any(not np.isfinite(v).all() for v in logs):
        return np.nan, np.nan
    k = len(logs)
    med = np.array([np.median(v) for v in logs])
    resid = np.sort(np.concatenate([v - m for v, m in zip(logs, med)]))
    mu, s2 = float(med.mean()), float(med.var(ddof=1))
    rng = np.random.default_rng(seed)
    sb = np.sqrt((k - 1) * s2 / rng.chisquare(k - 1, DRAWS))
    mus = mu - rng.standard_normal(DRAWS) * sb / np.sqrt(k)
    draws = _re_quantile(resid, mus, sb, q)
    a = (1 - level) / 2
    lo, hi = np.quantile(draws, [a, 1 - a])
    return float(np.exp(lo)), float(np.exp(hi))


def pooled_quantile(parts: Sequence[Observations], q: float, level: float = 0.95) -> dict:
    """The q-quantile of the pooled population of runs ``parts`` with its interval (see the
    module's docstring), as one row of ``INTERVAL_COLUMNS``."""
    k = len(parts)
    n_i = np.array([p.n for p in parts], dtype=float)
    n = int(n_i.sum())
    kw = dict(level=level, method=METHOD, unit="run", n=n, n_runs=k)
    srt = [np.sort(p.series) for p in parts]
    pooled = np.sort(np.concatenate(srt)) if n else np.array([])
    est = float(np.quantile(pooled, q, method="inverted_cdf")) if n else np.nan
    per_run = [float(np.quantile(s, q, method="inverted_cdf")) for s in srt if len(s)]
    rng_ = (min(per_run), max(per_run)) if per_run else (np.nan, np.nan)
    note = f"{k} runs pooled as a population (each packet counts once); the run is the unit"
    if k < MIN_RUNS or (n_i == 0).any():
        return not_estimable(
            estimate=est,
            range_=rng_,
            note=f"{k} runs: a pooled-population interval needs ≥ {MIN_RUNS} runs with "
            "packets to see how much runs differ; " + note,
            **kw,
        )
    if any(p.n_censored for p in parts):
        return not_estimable(
            estimate=est, range_=rng_, note="censored values (below a bound): " + note, **kw
        )
    grid = np.unique(
        pooled if len(pooled) <= _GRID else pooled[np.linspace(0, n - 1, _GRID).astype(int)]
    )
    lo, hi = _share_bounds(srt, n_i, grid, level)
    inside = np.nonzero((lo <= 1 - q) & (1 - q <= hi))[0]
    # one candidate further out on each side: the end lies between two scanned values
    low = (grid[inside[0] - 1] if inside[0] > 0 else -np.inf) if len(inside) else np.nan
    high = (
        (grid[inside[-1] + 1] if inside[-1] + 1 < len(grid) else np.inf) if len(inside) else np.nan
    )
    re_low, re_high = random_effects_interval(parts, q, level)
    if not (np.isfinite(re_low) and np.isfinite(re_high)):
        return not_estimable(
            estimate=est,
            range_=rng_,
            note="values ≤ 0: no log scale for the random-effects interval; " + note,
            **kw,
        )
    low = re_low if np.isnan(low) else min(low, re_low)
    high = re_high if np.isnan(high) else max(high, re_high)
    if not (np.isfinite(low) and np.isfinite(high)):
        return not_estimable(
            estimate=est,
            range_=rng_,
            note="the interval reaches past the smallest or largest value; " + note,
            **kw,
        )
    return row(est, low, high, range_=rng_, note=join_notes(note, ASSUMES), n_eff=float(k), **kw)


MEAN_METHOD = "Student t on the pooled mean, variance from the runs (ratio estimator)"


def pooled_mean(parts: Sequence[Observations], level: float = 0.95) -> dict:
    """The mean of every packet of every run, with a t interval (k − 1 degrees of freedom)
    whose variance comes from the runs' own means (k/(k−1)·Σ n_i²(m_i − m)²/n²): run-to-run
    variation and dependence within a run are both in it."""
    k = len(parts)
    n_i = np.array([p.n for p in parts], dtype=float)
    n = int(n_i.sum())
    kw = dict(level=level, method=MEAN_METHOD, unit="run", n=n, n_runs=k)
    if k < 2 or (n_i == 0).any() or any(p.n_censored for p in parts):
        return not_estimable(note=f"{k} runs (some empty or censored): no pooled mean", **kw)
    m_i = np.array([p.series.mean() for p in parts])
    m = float((n_i * m_i).sum() / n)
    se = float(np.sqrt(k / (k - 1) * np.sum((n_i * (m_i - m)) ** 2) / n**2))
    crit = float(stats.t.ppf((1 + level) / 2, k - 1))
    note = join_notes(f"{k} runs pooled as a population (each packet counts once)")
    return row(
        m, m - crit * se, m + crit * se, range_=(m_i.min(), m_i.max()), note=note, n_eff=k, **kw
    )
