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
  exceedance count.  The threshold is the lowest of a ladder that ForwardStop accepts on
  Anderson-Darling tests (Bader, Yan & Zhang 2018); a GPD the test rejects is not used:
  quantiles within the data fall back to their exact order-statistic interval, and the rows
  say why.  Extrapolation is a model, not a measurement: the rows say so.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np
import pandas as pd
from scipy import optimize, stats

from ..schema import pct_label
from . import dependence as dep
from ._groups import groups
from ._resample import percentile_interval, quantile_replicates
from .common import (
    Observations,
    Rng,
    as_rng,
    check_basis,
    check_level,
    clopper_pearson,
    join_notes,
    metric_column,
    nines,
    not_estimable,
    row,
    run_shares,
)
from .intervals import choose, min_n, quantile_ci, quantile_rows, sorted_quantile, summarize

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
    for group in groups(data, runs, by, column):
        keys = group.key
        keys = dict(zip(by, keys if isinstance(keys, tuple) else (keys,)))
        n_runs = group.n_runs
        note = (
            f"{n_runs} runs pooled; run-to-run variation is not in the interval"
            if n_runs > 1
            else ""
        )
        yield {**keys, "metric": metric, "unit": unit}, group.whole, note


def percentile_spectrum(
    data,
    runs: pd.DataFrame | None = None,
    by=None,
    metric: str = "rtt",
    level: float = 0.95,
    *,
    quantiles: Sequence[float] = SPECTRUM,
    unit: str = "auto",
    dependence: str = "auto",
) -> pd.DataFrame:
    """Percentiles p50 … p99.999 with intervals and their ``nines`` (x axis in nines).

    ``data`` is a samples frame (grouped like ``summarize``) or an array of one series."""
    if isinstance(data, pd.DataFrame):
        out = summarize(
            data, runs, by, metric, level, quantiles=quantiles, unit=unit, dependence=dependence
        )
        out = out[out["q"].notna()].reset_index(drop=True)
    else:
        out = quantile_ci(data, quantiles, level, dependence=dependence)
    out.insert(out.columns.get_loc("q") + 1, "nines", nines(out["q"].to_numpy()))
    return out


# ---------------------------------------------------------------------------------------------
# Tail ratios


def _ratio_rows(obs: Observations, ratios, level, rng, n_resamples, dependence, note):
    d, dnote = choose(obs, dependence)
    note = join_notes(dnote, note)
    xs = np.sort(obs.series)
    return [
        _ratio_row(obs, d, xs, top, base, level, rng, n_resamples, note) for top, base in ratios
    ]


def _ratio_row(obs: Observations, d, xs, top, base, level, rng, n_resamples, note) -> dict:
    """The row of ``top``/``base`` of one sorted series ``xs``: a bootstrap interval, or why
    there is none."""
    n = obs.n
    stat = f"{pct_label(top)}/{pct_label(base)}"
    unit = "packet" if d is None else "batch"
    method = (
        "bootstrap percentile on order statistics"
        if d is None
        else "m-out-of-n bootstrap on order statistics, m = n_eff"
    )
    kw = dict(level=level, method=method, unit=unit, n=n)
    need = max(min_n(top, level), min_n(base, level))
    est = sorted_quantile(xs, [top, base]) if n else np.array([np.nan, np.nan])
    why = _no_ratio(obs, est, base)
    if why:
        return {"stat": stat, **not_estimable(note=join_notes(why, note), **kw)}
    ratio = est[0] / est[1] if n * (1 - top) >= 1 else np.nan
    if d is not None and not d.estimable:
        return {
            "stat": stat,
            **not_estimable(estimate=ratio, note=join_notes(d.reason, note), **kw),
        }
    m = _resample_size(obs, d, est, (top, base), level, need)
    if m < need:
        size = f"n={n}" if d is None else f"n_eff={m}"
        return {
            "stat": stat,
            **not_estimable(
                estimate=ratio,
                n_eff=m,
                note=join_notes(
                    f"{size}: the bootstrap cannot reach {pct_label(top)} "
                    f"(an exact interval needs {need})",
                    note,
                ),
                **kw,
            ),
        }
    reps = quantile_replicates(xs, [top, base], m, n_resamples, rng)
    lo, hi = percentile_interval(reps[:, 0] / reps[:, 1], level)
    return {"stat": stat, **row(est[0] / est[1], lo, hi, n_eff=m, note=note, **kw)}


def _no_ratio(obs: Observations, est: np.ndarray, base: float) -> str:
    """Why a series has no ratio over its ``base`` percentile at all ('' when it has one)."""
    if obs.n and est[1] <= 0:  # ethr's 0.000 ns round trips: below its clock's tick, no ratio
        return (
            f"the {pct_label(base)} is {est[1]:g} (values below the clock's resolution?): no ratio"
        )
    if obs.n_censored and not est[1] >= obs.bound:
        return "the base percentile falls among censored values"
    return ""


def _resample_size(obs: Observations, d, est, qs, level: float, need: int) -> int:
    """Values a bootstrap draw takes: ``n``, or for a dependent series long enough to test,
    its effective size (from the bound on its autocorrelation when it is short)."""
    n = obs.n
    if d is None or n < need:
        return n
    if d.bounded:
        return int(max(1, n / d.tau))
    n_eff = dep.quantile_n_eff(obs.series, est, np.array(qs), d.n_batches).min()
    return int(max(1, n_eff * dep.t_shrink(d.n_batches, level)))


def tail_ratios(
    data,
    runs: pd.DataFrame | None = None,
    by=None,
    metric: str = "rtt",
    level: float = 0.95,
    *,
    ratios=RATIOS,
    rng: Rng = None,
    n_resamples: int = 4000,
    dependence: str = "auto",
) -> pd.DataFrame:
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


def _exceed_row(obs: Observations, t: float, level: float, dependence: str, note: str):
    n = obs.n
    d, dnote = choose(obs, dependence)
    note = join_notes(dnote, note)
    unit, method = (
        ("packet", "Clopper-Pearson exact")
        if d is None
        else ("batch", "Clopper-Pearson at batch-means n_eff")
    )
    kw = dict(level=level, method=method, unit=unit, n=n)
    if n == 0:
        return not_estimable(note="no observations", **kw)
    if obs.n_censored and t < obs.bound:
        return not_estimable(
            note=join_notes(
                f"threshold below the censoring bound {obs.bound:g}: censored values may exceed it",
                note,
            ),
            **kw,
        )
    above = obs.series > t
    k = int(above.sum())
    p = k / n
    n_eff = float(n)
    if d is not None and not d.estimable:
        return not_estimable(
            estimate=p,
            n_eff=n / d.tau if np.isfinite(d.tau) else np.nan,
            note=join_notes(d.reason, note),
            **kw,
        )
    if d is not None and d.bounded:  # a short series: n_eff from the bound on its memory
        n_eff = n / d.tau
    elif d is not None:
        lrv = dep.long_run_variance(above.astype(float), d.n_batches)
        if p * (1 - p) > 0:
            n_eff = n * p * (1 - p) / max(lrv, p * (1 - p))
        n_eff *= dep.t_shrink(d.n_batches, level)
    lo, hi = clopper_pearson(p * n_eff, n_eff, level)
    if obs.n_excluded:
        note = join_notes(note, f"{obs.n_excluded} timeouts/losses not counted as exceedances")
    return row(p, lo, hi, n_eff=n_eff, note=note, **kw)


RUN_METHOD = "Clopper-Pearson at the runs' design-effect n_eff"


def _exceed_runs(obs: Observations, t: float, level: float) -> dict:
    """P(X > t) of a group of k ≥ 2 runs with the run as the unit.

    The estimate is the share of all packets of all runs, Σk_i/Σn_i.  Its variance is read off
    the spread of the runs' own shares p_i (the ratio estimator's cluster variance,
    k/(k−1)·Σ n_i²(p_i − p)²/n²), so run-to-run variation and autocorrelation within a run are
    both in it; the Clopper–Pearson interval is then taken at n_eff = p(1−p)/variance, shrunk
    by (z/t_{k−1})² for a variance estimated from k runs, and never above n (the cap comes
    after the shrink: capping first made 3 runs of one condition over-cover).  Simulated
    (validate_stats.py) with 3 and 10 runs and between-run σ up to 0.2, where pooling packets
    covered 12–55 % instead of 95 %."""
    n = obs.n
    # np.unique's inverse, by hashing: sorting a million run ids as objects took 20 ms a call
    inv, ids = pd.factorize(obs.run_ids, sort=True)
    k = len(ids)
    n_i = np.bincount(inv, minlength=k).astype(float)
    k_i = np.bincount(inv, weights=(obs.series > t).astype(float), minlength=k)
    p, p_i, var, n_eff = run_shares(k_i, n_i, level)
    p, var, n_eff = float(p), float(var), float(n_eff)
    lo, hi = clopper_pearson(p * n_eff, n_eff, level)
    note = (
        f"unit: runs ({k} runs); the interval comes from the spread of the runs' shares, "
        "so run-to-run variation is in it"
    )
    if var <= 0:
        note = join_notes(
            note, "every run has the same share: the interval is that of independent packets"
        )
    if obs.n_excluded:
        note = join_notes(note, f"{obs.n_excluded} timeouts/losses not counted as exceedances")
    return row(
        p,
        lo,
        hi,
        level=level,
        method=RUN_METHOD,
        unit="run",
        n=n,
        n_runs=k,
        n_eff=n_eff,
        note=note,
        range_=(float(p_i.min()), float(p_i.max())),
    )


def exceedance(
    data,
    threshold: float | Sequence[float],
    level: float = 0.95,
    *,
    runs: pd.DataFrame | None = None,
    by=None,
    metric: str = "rtt",
    dependence: str = "auto",
    unit: str = "auto",
) -> pd.DataFrame:
    """P(value > threshold) with an exact (Clopper–Pearson) interval, per group.

    ``unit="auto"``: a group of two or more runs has the run as its unit (``_exceed_runs``);
    ``"packet"`` pools the packets of all runs, and the note says run-to-run variation is
    then not in the interval."""
    level = check_level(level)
    if unit not in ("auto", "packet"):
        raise ValueError(f"unit must be 'auto' or 'packet', got {unit!r}")
    ts = np.atleast_1d(np.asarray(threshold, dtype=float))
    out = []
    for keys, obs, note in _groups(data, runs, by, metric):
        by_run = unit == "auto" and len(set(obs.run_ids)) > 1
        for t in ts:
            if by_run and obs.n and not (obs.n_censored and t < obs.bound):
                r = _exceed_runs(obs, t, level)
            else:
                r = _exceed_row(obs, t, level, dependence, note)
            out.append({**keys, "threshold": t, **r})
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
    res = optimize.minimize_scalar(
        neg_profile, bounds=(lo, hi), method="bounded", options={"xatol": 1e-12}
    )
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


ALPHA = 0.05  # ForwardStop level, and the Anderson-Darling level at which a fit is rejected
SCAN_FROM = 0.9  # lowest candidate threshold of the automatic choice (a quantile) ...
MAX_EXCESS = 10_000  # ... or the one leaving this many excesses, when that is higher
SCAN_RATIO = 1.25  # each candidate leaves 1.25× fewer excesses than the one below it
GPD_METHOD = "GPD MLE over threshold; bootstrap of excesses and exceedance count"
# A quantile with at least this many observations expected above it (n·(1−q)) is measured,
# not modelled: its exact order-statistic interval holds for any tail, while a GPD fitted at a
# lower threshold carries the bias of a tail that bends (a log-normal's shape drifts with the
# threshold: at n = 10^5 its GPD p99.99 interval covered 72 %, the order statistics 100 %).
MEASURED_ABOVE = 10
AUTOCORRELATED = "autocorrelated: exceedances may cluster, the interval is likely too narrow"

# Null distribution of the Anderson-Darling statistic A² when ξ and σ are estimated by
# ``gpd_fit`` (it depends on ξ only, and hardly on the number of excesses: 50 or 1,000 give
# the same critical values within Monte-Carlo error): AD_Q[i, j] is the A² exceeded with
# probability AD_P[j] when the shape is AD_XI[i].  Made by ``ad_null_quantiles(xi, rng=g)``
# for each ξ in turn with one g = default_rng(20261122): 20,000 samples of 100 excesses each;
# Monte-Carlo error ≈ 1 % at p = 0.05, 3 % at p = 0.005.  At ξ = 1 the maximum likelihood
# grows erratic (the mean is infinite) and its row was left out: larger shapes use ξ = 0.75.
AD_XI = np.array([-0.5, -0.25, 0.0, 0.25, 0.5, 0.75])
AD_P = np.array([0.999, 0.99, 0.95, 0.9, 0.75, 0.5, 0.25, 0.1, 0.05, 0.025, 0.01, 0.005])
AD_Q = np.array(
    [
        [0.110, 0.151, 0.202, 0.237, 0.318, 0.454, 0.667, 0.955, 1.188, 1.446, 1.773, 2.033],
        [0.107, 0.145, 0.191, 0.224, 0.300, 0.421, 0.609, 0.863, 1.071, 1.284, 1.581, 1.838],
        [0.109, 0.136, 0.180, 0.213, 0.281, 0.392, 0.561, 0.782, 0.954, 1.140, 1.395, 1.605],
        [0.103, 0.134, 0.176, 0.206, 0.268, 0.373, 0.528, 0.728, 0.889, 1.051, 1.263, 1.465],
        [0.102, 0.131, 0.171, 0.198, 0.258, 0.356, 0.500, 0.690, 0.829, 0.968, 1.175, 1.302],
        [0.100, 0.129, 0.168, 0.195, 0.251, 0.342, 0.480, 0.656, 0.799, 0.945, 1.155, 1.308],
    ]
)


def _gpd_log_sf(y: np.ndarray, xi: float, sigma: float) -> np.ndarray:
    """log P(Y > y) for a GPD(ξ, σ); −inf beyond the upper end point (ξ < 0)."""
    if abs(xi) < 1e-9:
        return -y / sigma
    with np.errstate(divide="ignore"):
        return -np.log1p(np.maximum(xi * y / sigma, -1.0)) / xi


def anderson_darling(y: np.ndarray, xi: float, sigma: float) -> float:
    """Anderson-Darling statistic of excesses ``y`` against GPD(ξ, σ) (Stephens 1974):
    A² = −n − (1/n) Σ (2i−1) [log F(y₍ᵢ₎) + log(1 − F(y₍ₙ₊₁₋ᵢ₎))].  It weighs the tails of the
    fit most, which is where a mixture of body and spikes departs from one GPD."""
    log_sf = np.maximum(_gpd_log_sf(np.sort(y), xi, sigma), -700.0)
    log_cdf = np.log(np.maximum(-np.expm1(log_sf), 1e-300))
    w = 2 * np.arange(1, len(y) + 1) - 1
    return float(-len(y) - np.mean(w * (log_cdf + log_sf[::-1])))


def ad_p_value(a2: float, xi: float) -> float:
    """P-value of ``a2`` for a GPD whose ξ and σ were estimated from the same excesses.

    The construction of Choulakian & Stephens (2001, *Technometrics* 43(4)): the null law of
    A² depends on ξ only, so a table of its quantiles by ξ (``AD_Q``, simulated for
    ``gpd_fit``) is interpolated — linearly in ξ (clipped to [−0.5, 0.75]), log p linearly in
    A², and beyond the last entry too (the upper tail of A² is close to exponential, but a p
    below 0.005 is an extrapolation)."""
    xi = float(np.clip(xi, AD_XI[0], AD_XI[-1]))
    crit = np.array([np.interp(xi, AD_XI, col) for col in AD_Q.T])
    log_p = np.log(AD_P)
    if a2 <= crit[0]:
        return float(AD_P[0])
    if a2 <= crit[-1]:
        return float(np.exp(np.interp(a2, crit, log_p)))
    slope = (log_p[-1] - log_p[-2]) / (crit[-1] - crit[-2])
    return float(np.exp(log_p[-1] + slope * (a2 - crit[-1])))


def ad_null_quantiles(
    xi: float,
    probs: Sequence[float] = tuple(AD_P),
    *,
    m: int = 100,
    reps: int = 20_000,
    rng: Rng = None,
) -> np.ndarray:
    """The A² exceeded with probabilities ``probs`` when ξ and σ are estimated from ``m``
    GPD(ξ, 1) draws, by simulation: how ``AD_Q`` was made, kept to check and extend it."""
    rng = as_rng(rng)
    a2 = np.empty(reps)
    for r in range(reps):
        y = stats.genpareto.rvs(xi, size=m, random_state=rng)
        a2[r] = anderson_darling(y, *gpd_fit(y))
    return np.quantile(a2, 1 - np.asarray(probs))


def forward_stop(p_values: Sequence[float], alpha: float = ALPHA) -> int:
    """How many of the ordered hypotheses to reject: the largest k with
    −(1/k) Σᵢ≤ₖ log(1 − pᵢ) ≤ α (ForwardStop, G'Sell, Wager, Chouldechova & Tibshirani 2016,
    *JRSS B* 78(2)); it controls the false discovery rate of the rejected leading hypotheses."""
    y = -np.log1p(-np.minimum(np.asarray(p_values, dtype=float), 1 - 1e-12))
    ok = np.flatnonzero(np.cumsum(y) / np.arange(1, len(y) + 1) <= alpha)
    return int(ok[-1] + 1) if len(ok) else 0


@dataclass(frozen=True)
class _Tail:
    """A GPD fitted to the excesses ``y`` over ``u``, with its goodness of fit."""

    u: float
    y: np.ndarray
    xi: float
    sigma: float
    a2: float
    p: float

    @property
    def k(self) -> int:
        return len(self.y)


def _fit_over(xs: np.ndarray, u: float) -> _Tail:
    """Fit and test the GPD over threshold ``u`` of the sorted values ``xs``."""
    y = xs[np.searchsorted(xs, u, side="right") :] - u
    xi, sigma = gpd_fit(y)
    a2 = anderson_darling(y, xi, sigma)
    return _Tail(u, y, xi, sigma, a2, ad_p_value(a2, xi))


@dataclass(frozen=True)
class _Choice:
    """The threshold used and how it was chosen.  ``tail`` is None when no fit was possible;
    ``why`` says why there is no fit, or why the fitted GPD is not used ("" when it is)."""

    u: float
    k: int
    method: str
    tail: _Tail | None = None
    why: str = ""

    def info(self) -> dict:
        t = self.tail
        return {
            "threshold": self.u,
            "n_excess": self.k,
            "threshold_method": self.method,
            "gof_stat": t.a2 if t else np.nan,
            "gof_p": t.p if t else np.nan,
        }


def _top_excesses(n: int) -> int:
    """Excesses over the lowest candidate: those over the p90, at most ``MAX_EXCESS``."""
    return min(int(n * (1 - SCAN_FROM) + 1e-9), MAX_EXCESS)


def _candidate_excesses(n: int, min_excess: int) -> np.ndarray:
    """Excess counts of the candidate thresholds, decreasing: from the p90 (or the level that
    leaves ``MAX_EXCESS`` excesses, when higher) up to the one that leaves ``min_excess``."""
    top = _top_excesses(n)
    if top < min_excess:
        return np.empty(0, dtype=int)
    steps = int(np.ceil(np.log(top / min_excess) / np.log(SCAN_RATIO))) if top > min_excess else 0
    return np.unique(np.round(np.geomspace(top, min_excess, steps + 1)).astype(int))[::-1]


def _scan(xs: np.ndarray, bound: float, min_excess: int, unit: str) -> _Choice:
    """The threshold of the ForwardStop rule (Bader, Yan & Zhang 2018, *Ann. Appl. Stat.*
    12(1)): the candidates, lowest first, are tested with Anderson-Darling; ForwardStop rejects
    the leading run of poor fits, and the lowest threshold after it is used."""
    n = len(xs)
    ks = _candidate_excesses(n, min_excess)
    us = np.unique(xs[n - ks - 1])  # lowest first; ties can merge candidates
    cands = [u for u in us if u >= bound and n - np.searchsorted(xs, u, "right") >= min_excess]
    if not cands:
        top = _top_excesses(n)
        why = (
            f"{top} excesses over the {pct_label(SCAN_FROM)}; a fit needs ≥ {min_excess}"
            if top < min_excess
            else f"no candidate threshold leaves ≥ {min_excess} excesses above censored or tied "
            "values"
        )
        return _Choice(np.nan, top, "ForwardStop", why=why)
    tails = [_fit_over(xs, u) for u in cands]
    j = forward_stop([t.p for t in tails])
    method = f"ForwardStop over {len(tails)} thresholds (Bader, Yan & Zhang 2018)"
    if j == len(tails):
        t = tails[-1]
        return _Choice(
            t.u,
            t.k,
            method,
            t,
            (
                f"GPD rejected: ForwardStop on Anderson-Darling tests rejects all {len(tails)} "
                f"candidate thresholds ({_p_text(t.p)} at the highest, {_fmt(t.u, unit)})"
            ),
        )
    return _Choice(tails[j].u, tails[j].k, method, tails[j])


def _fmt(u: float, unit: str) -> str:
    return f"{u:.4g} µs" if unit == "us" else f"{u:.4g} {unit}".strip()


def _p_text(p: float) -> str:
    """A p-value for a note: below the table's last entry it is an extrapolation."""
    return "p<0.001" if p < 0.001 else f"p={p:.2g}"


def _choose(
    xs: np.ndarray, bound: float, threshold_q, threshold, min_excess: int, unit: str
) -> _Choice:
    """The threshold (given, at a given quantile, or scanned) and the GPD fitted over it;
    a fit whose Anderson-Darling p-value is below ``ALPHA`` is marked rejected."""
    if threshold is None and threshold_q is None:
        choice = _scan(xs, bound, min_excess, unit)
    else:
        given = threshold is not None
        u = float(threshold) if given else float(sorted_quantile(xs, [threshold_q])[0])
        method = "given threshold" if given else f"given quantile {pct_label(threshold_q)}"
        k = int((xs > u).sum())
        if not u >= bound or k < min_excess:
            why = (
                "threshold among censored values"
                if not u >= bound
                else f"{k} excesses over {u:g}; a fit needs ≥ {min_excess}"
            )
            return _Choice(u, k, method, why=why)
        choice = _Choice(u, k, method, _fit_over(xs, u))
    t = choice.tail
    if t is not None and not choice.why and t.p < ALPHA:
        return replace(
            choice,
            why=f"GPD rejected (Anderson-Darling {_p_text(t.p)} at threshold {_fmt(t.u, unit)})",
        )
    return choice


def _bootstrap(t: _Tail, n: int, qs: np.ndarray, n_resamples: int, rng) -> np.ndarray:
    """Replicates of (ξ, σ, quantiles ``qs``): the excesses resampled, their number drawn
    Binomial(n, k/n)."""
    reps = np.empty((n_resamples, 2 + len(qs)))
    for b in range(n_resamples):
        kb = max(int(rng.binomial(n, t.k / n)), 2)
        yb = rng.choice(t.y, size=kb, replace=True)
        xb, sb = gpd_fit(yb)
        reps[b] = [xb, sb, *gpd_quantile(t.u, xb, sb, kb / n, qs)]
    return reps


def _degenerate(reps: np.ndarray, level: float) -> str:
    """Why the bootstrap cannot give intervals ("" when it can)."""
    if not np.isfinite(reps).all():
        return "bootstrap replicates not finite"
    lo, hi = np.quantile(reps, [(1 - level) / 2, (1 + level) / 2], axis=0)
    return "" if (hi > lo).all() else "bootstrap interval of zero width"


def _fallback_rows(obs, d, dnote, choice: _Choice, qs, level, note, kw) -> list[dict]:
    """Rows when the GPD is rejected: shape and scale not estimable; a quantile within the
    data gets its exact order-statistic interval (``intervals.quantile_rows``), one beyond
    the data is not estimable.  Every row says why the GPD was rejected."""
    why, t, n = choice.why, choice.tail, obs.n
    assert t is not None  # without a fit _pot_rows has returned before
    out = [not_estimable(estimate=e, note=join_notes(why, note), **kw) for e in (t.xi, t.sigma)]
    within = n * (1 - qs) >= 1 - 1e-9
    empirical = iter(
        quantile_rows(
            obs,
            qs[within],
            level,
            d,
            join_notes(f"{why}: empirical order-statistic interval", dnote, note),
        )
    )
    for q, w in zip(qs, within):
        out.append(
            next(empirical)
            if w
            else not_estimable(
                note=join_notes(
                    f"{why}; {pct_label(q)} lies beyond the data (n={n}), where only a model could "
                    "reach",
                    note,
                ),
                **kw,
            )
        )
    return out


def _pot_rows(
    obs, d, dnote, threshold_q, threshold, qs, level, rng, n_resamples, min_excess, note, unit
):
    n = obs.n
    xs = np.sort(obs.series)
    names = ["shape", "scale", *map(pct_label, qs)]
    kw = dict(level=level, method=GPD_METHOD, unit="packet", n=n)
    choice = (
        _Choice(np.nan, 0, "none", why="no observations")
        if n == 0
        else _choose(
            xs, obs.bound if obs.n_censored else -np.inf, threshold_q, threshold, min_excess, unit
        )
    )
    t = choice.tail
    if t is None:
        return [
            {"stat": s, **choice.info(), **not_estimable(note=join_notes(choice.why, note), **kw)}
            for s in names
        ]
    if not choice.why:
        reps = _bootstrap(t, n, qs, n_resamples, rng)
        why = _degenerate(reps, level)
        if why:
            choice = replace(choice, why=f"GPD rejected ({why} at threshold {_fmt(t.u, unit)})")
    if choice.why:
        rows = _fallback_rows(obs, d, dnote, choice, qs, level, note, kw)
        return [{"stat": s, **choice.info(), **r} for s, r in zip(names, rows)]
    return _gpd_rows(obs, d, dnote, choice, reps, names, qs, level, note, kw)


def _gpd_rows(obs, d, dnote, choice: _Choice, reps, names, qs, level, note, kw) -> list[dict]:
    """Rows when the GPD holds: shape, scale and each quantile from the fit with a bootstrap
    interval, except quantiles well within the data, which keep their exact interval."""
    t, n = choice.tail, obs.n
    assert t is not None  # the GPD holds: a fit was made
    gpd_note = join_notes(AUTOCORRELATED if d is not None else "", note)
    est = [t.xi, t.sigma, *gpd_quantile(t.u, t.xi, t.sigma, t.k / n, qs)]
    measured = n * (1 - qs) >= MEASURED_ABOVE - 1e-9
    empirical = dict(
        zip(
            np.flatnonzero(measured) + 2,
            quantile_rows(
                obs,
                qs[measured],
                level,
                d,
                join_notes(
                    f"within the data (≥ {MEASURED_ABOVE} values above it): the exact "
                    "order-statistic interval, not the GPD's, which a bending tail biases",
                    dnote,
                    note,
                ),
            )
            if measured.any()
            else [],
        )
    )
    out = []
    for i, (s, e) in enumerate(zip(names, est)):
        if i in empirical:
            out.append({"stat": s, **choice.info(), **empirical[i]})
            continue
        lo, hi = percentile_interval(reps[:, i], level)
        beyond = i >= 2 and n * (1 - qs[i - 2]) < 1
        extra = "extrapolated beyond the data: a model, not a measurement" if beyond else ""
        out.append(
            {
                "stat": s,
                **choice.info(),
                **row(e, lo, hi, n_eff=t.k, note=join_notes(extra, gpd_note), **kw),
            }
        )
    return out


def pot_fit(
    data,
    runs: pd.DataFrame | None = None,
    by=None,
    metric: str = "rtt",
    level: float = 0.95,
    *,
    threshold_q: float | None = None,
    threshold: float | None = None,
    quantiles: Sequence[float] = (0.9999, 0.99999),
    rng: Rng = None,
    n_resamples: int = 200,
    min_excess: int = 50,
) -> pd.DataFrame:
    """Generalized Pareto fit above a threshold and the quantiles it implies, with bootstrap
    intervals — or, when the GPD does not fit, the empirical interval and the reason.

    The threshold: ``threshold`` (a value) or ``threshold_q`` (a quantile of the group) when
    given, honoured as is; by default chosen per group by ForwardStop on Anderson-Darling
    tests (``_scan``) among candidates from the p90 (at most 10,000 excesses) up to
    ``min_excess`` excesses.  Every row carries ``threshold``, ``n_excess``,
    ``threshold_method``, and the Anderson-Darling statistic and p-value of the fit there
    (``gof_stat``, ``gof_p``).

    A quantile with at least ``MEASURED_ABOVE`` (10) values expected above it is measured:
    it gets the exact order-statistic interval of ``summarize`` whatever the fit, since a GPD
    fitted lower down carries the bias of a tail that bends (log-normal), and the note says
    so; the GPD serves the quantiles beyond that.

    The GPD is rejected when that p-value is below 0.05, when no candidate threshold passes,
    or when its bootstrap is degenerate.  Then a quantile within the data (n·(1−q) ≥ 1) gets
    the exact order-statistic interval of ``summarize`` (batch-means when autocorrelated),
    one beyond it is not estimable, and the note says why the GPD was rejected.  Exceedances
    are treated as independent (no declustering): under autocorrelation the GPD intervals are
    too narrow, and the note says so."""
    level = check_level(level)
    rng = as_rng(rng)
    qs = np.asarray(quantiles, dtype=float)
    out = []
    for keys, obs, note in _groups(data, runs, by, metric):
        d, dnote = choose(obs, "auto")
        for r in _pot_rows(
            obs,
            d,
            dnote,
            threshold_q,
            threshold,
            qs,
            level,
            rng,
            n_resamples,
            min_excess,
            note,
            keys.get("unit", ""),
        ):
            out.append({**keys, **r})
    return pd.DataFrame(out)


__all__ = ["exceedance", "percentile_spectrum", "pot_fit", "tail_ratios"]
