"""Tails: percentile spectrum, tail ratios, exceedance probabilities, peaks over threshold.

* ``percentile_spectrum`` — p50 … p99.999 with the intervals of ``intervals.summarize`` and a
  ``nines`` column (−log10(1−q): p99 → 2, p99.9 → 3), the x axis of a latency spectrum.
* ``tail_ratios`` — p99/p50, p99.9/p50 with a bootstrap percentile interval (Efron & Tibshirani
  1993, ch. 13) computed on order statistics (``_resample``: exact bootstrap distribution, cost
  independent of n); under autocorrelation the m-out-of-n bootstrap with m = n_eff.  A ratio
  whose tail quantile has no exact order-statistic interval is "not estimable": a percentile
  bootstrap cannot reach deeper into a tail than the exact interval can.
* ``exceedance`` — P(X > t) with the Clopper–Pearson interval (Clopper & Pearson 1934;
  ``scipy.stats.binomtest(k, n).proportion_ci(method="exact")``), at n_eff under
  autocorrelation.
* ``pot_fit`` — a generalized Pareto fit to the excesses over a high threshold (Pickands 1975;
  Coles 2001, *An Introduction to Statistical Modeling of Extreme Values*, ch. 4), for
  quantiles beyond the data, with a bootstrap interval that resamples the excesses and the
  exceedance count.  Extrapolation is a model, not a measurement: the rows say so.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd
from scipy import optimize, stats

from ..schema import pct_label
from . import _dependence as dep
from ._common import (
    Observations,
    Rng,
    as_rng,
    attach,
    check_basis,
    check_level,
    join_notes,
    metric_column,
    nines,
    not_estimable,
    observations,
    ordered,
    row,
)
from ._resample import percentile_interval, quantile_replicates
from .intervals import choose, min_n, sorted_quantile, summarize

SPECTRUM = (0.5, 0.75, 0.9, 0.95, 0.99, 0.995, 0.999, 0.9995, 0.9999, 0.99995, 0.99999)
RATIOS = ((0.99, 0.5), (0.999, 0.5))


def _groups(data, runs, by, metric):
    """(keys, Observations) for each group of a samples frame, or one group for an array."""
    if not isinstance(data, pd.DataFrame):
        x = np.asarray(data, dtype=float)
        x = x[np.isfinite(x)]
        yield {}, Observations(x, np.nan, 0, 0, np.zeros(len(x), dtype=object)), ""
        return
    by = ["run_id"] if by is None else [by] if isinstance(by, str) else list(by)
    column, unit = metric_column(metric)
    check_basis(data, metric)
    frame = ordered(attach(data, runs, by))
    for keys, part in frame.groupby(by, sort=True, dropna=False):
        keys = dict(zip(by, keys if isinstance(keys, tuple) else (keys,)))
        n_runs = part["run_id"].nunique()
        note = f"{n_runs} runs pooled; run-to-run variation is not in the interval" \
            if n_runs > 1 else ""
        yield {**keys, "metric": metric, "unit": unit}, observations(part, column), note


def percentile_spectrum(data, runs: pd.DataFrame | None = None, by=None, metric: str = "rtt",
                        level: float = 0.95, *, quantiles: Sequence[float] = SPECTRUM,
                        unit: str = "auto", dependence: str = "auto") -> pd.DataFrame:
    """Percentiles p50 … p99.999 with intervals and their ``nines`` (x axis in nines).

    ``data`` is a samples frame (grouped like ``summarize``) or an array of one series."""
    if isinstance(data, pd.DataFrame):
        out = summarize(data, runs, by, metric, level, quantiles=quantiles, unit=unit,
                        dependence=dependence)
        out = out[out["q"].notna()].reset_index(drop=True)
    else:
        from .intervals import quantile_ci

        out = quantile_ci(data, quantiles, level, dependence=dependence)
    out.insert(out.columns.get_loc("q") + 1, "nines", nines(out["q"].to_numpy()))
    return out


# ---------------------------------------------------------------------------------------------
# Tail ratios


def _ratio_rows(obs: Observations, ratios, level, rng, n_resamples, dependence, note):
    n = obs.n
    d, dnote = choose(obs, dependence)
    note = join_notes(dnote, note)
    xs = np.sort(obs.series)
    rows = []
    for top, base in ratios:
        stat = f"{pct_label(top)}/{pct_label(base)}"
        unit = "packet" if d is None else "batch"
        method = ("bootstrap percentile on order statistics" if d is None
                  else "m-out-of-n bootstrap on order statistics, m = n_eff")
        kw = dict(level=level, method=method, unit=unit, n=n)
        need = max(min_n(top, level), min_n(base, level))
        est = sorted_quantile(xs, [top, base]) if n else np.array([np.nan, np.nan])
        if obs.n_censored and not est[1] >= obs.bound:
            rows.append({"stat": stat, **not_estimable(note=join_notes(
                "the base percentile falls among censored values", note), **kw)})
            continue
        m = n
        if d is not None and not d.estimable:
            rows.append({"stat": stat, **not_estimable(
                estimate=est[0] / est[1] if n * (1 - top) >= 1 else np.nan,
                note=join_notes(d.reason, note), **kw)})
            continue
        if d is not None and n >= need:
            qs = np.array([top, base])
            n_eff = dep.quantile_n_eff(obs.series, est, qs, d.n_batches).min()
            m = int(max(1, n_eff * dep.t_shrink(d.n_batches, level)))
        if m < need:
            size = f"n={n}" if d is None else f"n_eff={m}"
            rows.append({"stat": stat, **not_estimable(
                estimate=est[0] / est[1] if n * (1 - top) >= 1 else np.nan, n_eff=m,
                note=join_notes(f"{size}: the bootstrap cannot reach {pct_label(top)} "
                                f"(an exact interval needs {need})", note), **kw)})
            continue
        reps = quantile_replicates(xs, [top, base], m, n_resamples, rng)
        lo, hi = percentile_interval(reps[:, 0] / reps[:, 1], level)
        rows.append({"stat": stat, **row(est[0] / est[1], lo, hi, n_eff=m, note=note, **kw)})
    return rows


def tail_ratios(data, runs: pd.DataFrame | None = None, by=None, metric: str = "rtt",
                level: float = 0.95, *, ratios=RATIOS, rng: Rng = None,
                n_resamples: int = 4000, dependence: str = "auto") -> pd.DataFrame:
    """Ratios of percentiles (default p99/p50 and p99.9/p50) with bootstrap intervals."""
    level = check_level(level)
    rng = as_rng(rng)
    out = []
    for keys, obs, note in _groups(data, runs, by, metric):
        for r in _ratio_rows(obs, ratios, level, rng, n_resamples, dependence, note):
            out.append({**keys, **r})
    return pd.DataFrame(out)


# ---------------------------------------------------------------------------------------------
# Exceedance


def clopper_pearson(k: float, n: float, level: float) -> tuple[float, float]:
    """Exact binomial interval; accepts a fractional (effective) n and k."""
    a = (1 - level) / 2
    lo = 0.0 if k <= 0 else float(stats.beta.ppf(a, k, n - k + 1))
    hi = 1.0 if k >= n else float(stats.beta.ppf(1 - a, k + 1, n - k))
    return lo, hi


def _exceed_row(obs: Observations, t: float, level: float, dependence: str, note: str):
    n = obs.n
    d, dnote = choose(obs, dependence)
    note = join_notes(dnote, note)
    unit, method = ("packet", "Clopper-Pearson exact") if d is None else (
        "batch", "Clopper-Pearson at batch-means n_eff")
    kw = dict(level=level, method=method, unit=unit, n=n)
    if n == 0:
        return not_estimable(note="no observations", **kw)
    if obs.n_censored and t < obs.bound:
        return not_estimable(note=join_notes(
            f"threshold below the censoring bound {obs.bound:g}: censored values may exceed it",
            note), **kw)
    above = obs.series > t
    k = int(above.sum())
    p = k / n
    n_eff = float(n)
    if d is not None and not d.estimable:
        return not_estimable(estimate=p, n_eff=n / d.tau if np.isfinite(d.tau) else np.nan,
                             note=join_notes(d.reason, note), **kw)
    if d is not None:
        lrv = dep.long_run_variance(above.astype(float), d.n_batches)
        if p * (1 - p) > 0:
            n_eff = n * p * (1 - p) / max(lrv, p * (1 - p))
        n_eff *= dep.t_shrink(d.n_batches, level)
    lo, hi = clopper_pearson(p * n_eff, n_eff, level)
    if obs.n_excluded:
        note = join_notes(note, f"{obs.n_excluded} timeouts/losses not counted as exceedances")
    return row(p, lo, hi, n_eff=n_eff, note=note, **kw)


def exceedance(data, threshold: float | Sequence[float], level: float = 0.95, *,
               runs: pd.DataFrame | None = None, by=None, metric: str = "rtt",
               dependence: str = "auto") -> pd.DataFrame:
    """P(value > threshold) with an exact (Clopper–Pearson) interval, per group."""
    level = check_level(level)
    ts = np.atleast_1d(np.asarray(threshold, dtype=float))
    out = []
    for keys, obs, note in _groups(data, runs, by, metric):
        for t in ts:
            out.append({**keys, "threshold": t, **_exceed_row(obs, t, level, dependence, note)})
    return pd.DataFrame(out)


# ---------------------------------------------------------------------------------------------
# Peaks over threshold


def gpd_fit(y: np.ndarray) -> tuple[float, float]:
    """Maximum-likelihood (shape ξ, scale σ) of a generalized Pareto for excesses ``y`` > 0.

    Grimshaw (1993, Technometrics 35(2)) reduces the likelihood to one variable θ = ξ/σ:
    for fixed θ the best ξ is mean(log(1+θy)), so one bounded 1-D search suffices."""
    y = np.asarray(y, dtype=float)
    k, ymax, ybar = len(y), y.max(), y.mean()

    def neg_profile(t: float) -> float:
        theta = t / ybar
        if abs(theta) < 1e-12:
            return k * np.log(ybar) + k  # exponential limit
        s = np.log1p(theta * y).sum()  # ξ = s/k shares the sign of θ; σ = ξ/θ > 0
        if not s / theta > 0:
            return np.inf
        return k * np.log(s / (k * theta)) + s + k

    # A coarse grid first (the profile can be flat or have a spurious edge optimum), then
    # Brent's bounded search between the best grid point's neighbours.
    lower = -ybar / ymax
    grid = np.concatenate([lower * (1 - np.geomspace(1e-6, 1, 20)), np.geomspace(1e-4, 50, 40)])
    vals = np.array([neg_profile(t) for t in grid])
    j = int(np.argmin(vals))
    lo, hi = grid[max(j - 1, 0)], grid[min(j + 1, len(grid) - 1)]
    res = optimize.minimize_scalar(neg_profile, bounds=(lo, hi), method="bounded",
                                   options={"xatol": 1e-12})
    best = res.x if res.fun <= vals[j] else grid[j]
    theta = best / ybar
    if abs(theta) < 1e-12:
        return 0.0, float(ybar)
    xi = float(np.log1p(theta * y).mean())
    return xi, xi / theta


def gpd_quantile(u: float, xi: float, sigma: float, zeta: float, q: np.ndarray) -> np.ndarray:
    """Quantile q of a distribution whose tail above u (exceeded with probability zeta) is GPD."""
    r = (1 - np.asarray(q)) / zeta
    if abs(xi) < 1e-9:
        return u - sigma * np.log(r)
    return u + sigma / xi * (r ** (-xi) - 1)


def _pot_rows(obs, threshold_q, threshold, qs, level, rng, n_resamples, min_excess, note):
    x = obs.values
    n = len(x)
    u = float(np.quantile(x, threshold_q)) if threshold is None and n else threshold
    y = x[x > u] - u if n else np.empty(0)
    k = len(y)
    method = "GPD MLE over threshold; bootstrap of excesses and exceedance count"
    kw = dict(level=level, method=method, unit="packet", n=n)
    info = {"threshold": u, "n_excess": k}
    if k < min_excess or obs.n_censored and u < obs.bound:
        why = f"{k} excesses over {u:g}; a fit needs ≥ {min_excess}" if k < min_excess \
            else "threshold among censored values"
        return [{"stat": s, **info, **not_estimable(note=join_notes(why, note), **kw)}
                for s in ["shape", "scale", *map(pct_label, qs)]]
    xi, sigma = gpd_fit(y)
    zeta = k / n
    reps = np.empty((n_resamples, 2 + len(qs)))
    for b in range(n_resamples):
        kb = max(int(rng.binomial(n, zeta)), 2)
        yb = rng.choice(y, size=kb, replace=True)
        xb, sb = gpd_fit(yb)
        reps[b] = [xb, sb, *gpd_quantile(u, xb, sb, kb / n, qs)]
    est = [xi, sigma, *gpd_quantile(u, xi, sigma, zeta, qs)]
    names = ["shape", "scale", *map(pct_label, qs)]
    out = []
    for i, (s, e) in enumerate(zip(names, est)):
        lo, hi = percentile_interval(reps[:, i], level)
        beyond = i >= 2 and n * (1 - qs[i - 2]) < 1
        extra = "extrapolated beyond the data: a model, not a measurement" if beyond else ""
        out.append({"stat": s, **info, **row(e, lo, hi, n_eff=k, note=join_notes(
            extra, note), **kw)})
    return out


def pot_fit(data, runs: pd.DataFrame | None = None, by=None, metric: str = "rtt",
            level: float = 0.95, *, threshold_q: float = 0.99, threshold: float | None = None,
            quantiles: Sequence[float] = (0.9999, 0.99999), rng: Rng = None,
            n_resamples: int = 200, min_excess: int = 50) -> pd.DataFrame:
    """Generalized Pareto fit above a threshold (default the group's p99) and the quantiles it
    implies, with bootstrap intervals.  Exceedances are treated as independent (no
    declustering): under autocorrelation the intervals are too narrow, and the note says so."""
    level = check_level(level)
    rng = as_rng(rng)
    qs = np.asarray(quantiles, dtype=float)
    out = []
    for keys, obs, note in _groups(data, runs, by, metric):
        if obs.n >= dep.MIN_N and dep.assess(obs.series).detected:
            note = join_notes(note, "autocorrelated: exceedances may cluster, the interval "
                                    "is likely too narrow")
        for r in _pot_rows(obs, threshold_q, threshold, qs, level, rng, n_resamples,
                           min_excess, note):
            out.append({**keys, **r})
    return pd.DataFrame(out)


__all__ = ["exceedance", "percentile_spectrum", "pot_fit", "tail_ratios"]
