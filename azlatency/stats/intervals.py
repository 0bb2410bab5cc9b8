"""Summaries with intervals: count, mean, std, min, max and p25 … p99.999, per run or per group.

Methods (docs/statistics.md has the long form):

* **Quantile, one series, independent packets** — the exact distribution-free interval
  [X_(l), X_(u)] whose ranks come from Binomial(n, q) (Conover 1999, *Practical Nonparametric
  Statistics*, 3rd ed., §3.2); identical to ``scipy.stats.quantile_test(x, p=q)
  .confidence_interval(level)``.  Its coverage is at least ``level`` for any continuous
  distribution.  When n is too small (a 95% interval for p99 needs n ≥ 368) there is no such
  interval and the row says "not estimable".
* **Quantile, one series, autocorrelated packets** (detected by ``dependence.assess``) — the
  same order-statistic construction with the binomial taken at the effective sample size of
  the quantile's indicator series (batch means), the ranks rescaled to n.
* **Several runs of one condition** (``unit="auto"`` with ≥ 2 runs, or ``unit="run"``) — the
  run is the experimental unit: each run gives one estimate and the interval is the exact
  order-statistic interval of the *median across runs* (≥ 6 runs for 95%); the range across
  runs is always given.  Percentiles are never averaged across runs.
* **Mean** — Student t; batch-means t under autocorrelation (Flegal & Jones 2010); t across
  run means when the run is the unit.

The point estimate of a quantile is numpy's default (linear interpolation, Hyndman & Fan 1996
type 7).  It is withheld (NaN) when fewer than one observation lies beyond it.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike
from scipy import stats

from ..schema import pct_label
from . import dependence as dep
from ._groups import groups
from .common import (
    DEFAULT_QUANTILES,
    INTERVAL_COLUMNS,
    Observations,
    check_basis,
    check_level,
    join_notes,
    metric_column,
    not_estimable,
    row,
)
from .population import pooled_mean, pooled_quantile

EXACT = "order statistics, exact binomial"
BATCH = "order statistics, binomial at batch-means n_eff"
RUNS = "order statistics of run estimates (median across runs), exact binomial"
T_IID = "Student t"
T_BATCH = "batch-means Student t"
T_RUNS = "Student t across run means"
DESCRIPTIVE = "descriptive (no interval)"
DEPENDENCE = ("auto", "iid", "batch")


# ---------------------------------------------------------------------------------------------
# Order statistics


def sorted_quantile(xs: np.ndarray | dep.Counted, qs: ArrayLike) -> np.ndarray:
    """Linear-interpolation quantiles of already sorted ``xs`` (numpy's default method)."""
    n = len(xs)
    h = (n - 1) * np.asarray(qs, dtype=float)
    lo = np.floor(h).astype(int)
    hi = np.minimum(lo + 1, n - 1)
    with np.errstate(invalid="ignore"):
        out = xs[lo] + (h - lo) * (xs[hi] - xs[lo])
    return np.where(np.isfinite(xs[lo]) & np.isfinite(xs[hi]), out, np.nan)


def exact_indices(
    n: int | np.ndarray, qs: ArrayLike, level: float
) -> tuple[np.ndarray, np.ndarray]:
    """0-based indices (l, u) of the exact interval; l < 0 or u ≥ n means unavailable."""
    a = (1 - level) / 2
    qs = np.asarray(qs, dtype=float)
    # binom.ppf(a, n, q), not binom(n, q).ppf(a): freezing a distribution re-renders its
    # docstring, ten times the cost of the quantiles and all of it under the GIL.
    return (stats.binom.ppf(a, n, qs).astype(int) - 1, stats.binom.isf(a, n, qs).astype(int))


def scaled_indices(n: int, qs: np.ndarray, level: float, n_eff: np.ndarray):
    """Exact indices at an effective size, mapped back onto the n ranks of the data.

    Every quantile at once: the binomial's quantile function broadcasts over (size, q), and
    a scipy call costs far more than its arithmetic."""
    qs = np.asarray(qs, dtype=float)
    m = np.maximum(1, np.floor(np.asarray(n_eff, dtype=float))).astype(np.int64)
    full = m >= n
    m = np.where(full, n, m)  # at m = n the mapping is the identity
    l_m, u_m = exact_indices(m, qs, level)
    lo = np.where(l_m >= 0, np.floor((l_m + 1) * n / m).astype(np.int64) - 1, -1)
    hi = np.where(u_m < m, np.ceil((u_m + 1) * n / m).astype(np.int64) - 1, n)
    return np.where(full, l_m, lo), np.where(full, u_m, hi)


def min_n(q: float, level: float) -> int:
    """Smallest n with an exact two-sided interval for quantile q at ``level``."""
    a = (1 - level) / 2
    return int(np.ceil(np.log(a) / np.log(max(q, 1 - q)) - 1e-9))


# ---------------------------------------------------------------------------------------------
# One series (packets as the unit)


def choose(obs: Observations, dependence: str) -> tuple[dep.Dependence | None, str]:
    """The dependence assessment that applies (None: the iid methods) and a note saying so.

    A returned assessment may carry a ``reason`` (the series is too short for its memory):
    callers then give no interval and say why."""
    if dependence not in DEPENDENCE:
        raise ValueError(f"dependence must be one of {DEPENDENCE}, got {dependence!r}")
    if dependence == "iid":
        return None, ""
    if dependence == "auto" and obs.n < dep.SMALL_N:
        d = dep.assess(obs.series) if obs.n >= dep.MIN_N else None
        if d is not None and d.detected and not d.estimable:
            return d, d.note  # measured: the memory is too long for the series
        bounded = dep.bounded(obs.series, d.sort if d is not None else None)
        return bounded, bounded.note
    if obs.n < dep.MIN_N:
        return None, f"n < {dep.MIN_N}: autocorrelation not tested"
    d = dep.assess(obs.series)
    if dependence == "batch":  # assess measured τ already: only the batching differs
        m, b, reason = dep.batching(obs.n, d.tau, True)
        return dep.Dependence(True, d.p_value, d.acf1, b, d.tau, m, reason, d.sort), join_notes(
            "batch means requested", d.note
        )
    return (d if d.detected else None), d.note


def _too_dependent(obs: Observations, d: dep.Dependence, est, level, method, note) -> dict:
    """A row for a series whose memory leaves too few effective points: the estimate, n_eff
    and the reason, no interval."""
    n_eff = obs.n / d.tau if np.isfinite(d.tau) else np.nan
    return not_estimable(
        estimate=est,
        level=level,
        method=method,
        unit="batch",
        n=obs.n,
        n_eff=n_eff,
        note=join_notes(d.reason, note),
    )


def quantile_rows(
    obs: Observations, quantiles: ArrayLike, level: float, d: dep.Dependence | None, note: str = ""
) -> list[dict]:
    """Interval rows of ``quantiles`` of one ordered series."""
    qs = np.asarray(quantiles, dtype=float)
    n = obs.n
    unit = "packet" if d is None else "batch"
    method = EXACT if d is None else BATCH
    if n == 0:
        return [
            not_estimable(level=level, method=method, unit=unit, n=0, note="no observations")
            for _ in qs
        ]
    # d assessed obs.series: its sort serves the quantiles and the batch counts
    sort = d.sort if d is not None and d.sort is not None and len(d.sort[1]) == n else None
    xs = sort[1] if sort is not None else np.sort(obs.series)
    est = sorted_quantile(xs, qs)
    n_eff, lo, hi = _order_bounds(obs, qs, level, d, xs, est, sort)
    rows = []
    for i, q in enumerate(qs):
        kw = dict(level=level, method=method, unit=unit, n=n, n_eff=n_eff[i])
        rows.append(_quantile_row(obs, d, xs, q, est[i], lo[i], hi[i], note, kw))
    return rows


def _order_bounds(
    obs: Observations,
    qs: np.ndarray,
    level: float,
    d: dep.Dependence | None,
    xs: np.ndarray | dep.Counted,
    est: np.ndarray,
    sort,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Effective sizes and the order-statistic indices of each quantile's interval (an index
    of -1 or n: no interval at this size)."""
    n = obs.n
    if d is not None and not d.estimable:
        n_eff = np.full(len(qs), n / d.tau if np.isfinite(d.tau) else np.nan)
        lo, hi = np.full(len(qs), -1), np.full(len(qs), n)
    elif d is not None and d.bounded:
        n_eff = np.full(len(qs), n / d.tau)
        lo, hi = scaled_indices(n, qs, level, n_eff)
    elif d is None:
        n_eff = np.full(len(qs), float(n))
        lo, hi = exact_indices(n, qs, level)
    else:
        thresholds = np.where(np.isfinite(est), est, xs[np.clip((qs * n).astype(int), 0, n - 1)])
        n_eff = dep.quantile_n_eff(obs.series, thresholds, qs, d.n_batches, sort)
        n_eff *= dep.t_shrink(d.n_batches, level)
        lo, hi = scaled_indices(n, qs, level, n_eff)
    return n_eff, lo, hi


def _quantile_row(
    obs: Observations,
    d: dep.Dependence | None,
    xs: np.ndarray | dep.Counted,
    q: float,
    est: float,
    lo: int,
    hi: int,
    note: str,
    kw: dict,
) -> dict:
    """The interval row of quantile ``q`` (``kw``: level, method, unit, n, n_eff), or why
    there is none."""
    n, level = kw["n"], kw["level"]
    label = pct_label(q)
    if n * min(q, 1 - q) < 1 - 1e-9:
        return not_estimable(
            note=join_notes(
                f"n={n} is too small for {label}: fewer than one observation beyond it", note
            ),
            **kw,
        )
    if d is not None and not d.estimable:
        if obs.n_censored and not est >= obs.bound:
            return not_estimable(
                bounds=(0.0, obs.bound),
                note=join_notes(
                    f"{label} falls among censored values (< {obs.bound:g})", d.reason, note
                ),
                **kw,
            )
        return _too_dependent(obs, d, est, level, kw["method"], note)
    if lo < 0 or hi >= n:
        need = min_n(q, level)
        what = f"n ≥ {need}" if d is None else f"n_eff ≥ {need} (n_eff={kw['n_eff']:.0f})"
        return not_estimable(
            estimate=est,
            note=join_notes(f"a {level:.0%} interval for {label} needs {what}", note),
            **kw,
        )
    low, high = xs[lo], xs[hi]
    if obs.n_censored and not (low >= obs.bound):
        bounds = (0.0, obs.bound) if not est >= obs.bound else (np.nan, np.nan)
        return not_estimable(
            estimate=est if est >= obs.bound else np.nan,
            bounds=bounds,
            note=join_notes(
                f"{label} or its interval falls among censored values (< {obs.bound:g})", note
            ),
            **kw,
        )
    return row(est, low, high, note=note, **kw)


def mean_row(obs: Observations, level: float, d: dep.Dependence | None, note: str = "") -> dict:
    """Interval row of the mean of one ordered series."""
    n = obs.n
    method, unit = (T_IID, "packet") if d is None else (T_BATCH, "batch")
    kw = dict(level=level, method=method, unit=unit, n=n)
    if obs.n_censored:
        vals = obs.values
        hi = (vals.sum() + obs.n_censored * obs.bound) / n
        return not_estimable(
            bounds=(vals.sum() / n, hi),
            note=join_notes(
                f"{obs.n_censored} censored values (< {obs.bound:g}): the mean is only bounded",
                note,
            ),
            **kw,
        )
    x = obs.series
    if n < 2:
        return not_estimable(estimate=x.mean() if n else np.nan, note="needs n ≥ 2", **kw)
    mean, var = float(x.mean()), float(obs.variance)  # not censored: values is series
    a = (1 + level) / 2
    if d is not None and not d.estimable:
        return _too_dependent(obs, d, mean, level, method, note)
    if d is None:
        se, crit, n_eff = np.sqrt(var / n), stats.t.ppf(a, n - 1), float(n)
    elif d.bounded:
        n_eff = n / d.tau
        se, crit = np.sqrt(var * d.tau / n), stats.t.ppf(a, max(n_eff - 1, 1.0))
    else:
        lrv = max(dep.long_run_variance(x, d.n_batches), var)
        se, crit = np.sqrt(lrv / n), stats.t.ppf(a, d.n_batches - 1)
        n_eff = n * var / lrv if lrv > 0 else float(n)
    return row(mean, mean - crit * se, mean + crit * se, n_eff=n_eff, note=note, **kw)


def descriptive_rows(obs: Observations, level: float, note: str = "") -> dict[str, dict]:
    """count, std, min, max of one series (no intervals)."""
    n, x = obs.n, obs.values
    kw = dict(level=level, method=DESCRIPTIVE, unit="packet", n=n)
    count_note = join_notes(
        f"{obs.n_excluded} timeouts/losses/errors excluded; tail percentiles are conditional "
        "on a reply"
        if obs.n_excluded
        else "",
        note,
    )
    out = {"count": row(n, note=count_note, **kw)}
    if obs.n_censored:
        cnote = f"{obs.n_censored} censored values (< {obs.bound:g})"
        out["std"] = not_estimable(note=cnote, **kw)
        out["min"] = not_estimable(bounds=(0.0, obs.bound), note=cnote, **kw)
    else:
        out["std"] = row(np.sqrt(obs.variance) if n > 1 else np.nan, **kw)
        out["min"] = row(x.min() if n else np.nan, **kw)
    out["max"] = row(x.max() if len(x) else np.nan, **kw)
    return out


def series_rows(obs: Observations, qs, level: float, dependence: str = "auto") -> dict:
    """Every stat of one series, keyed by stat name."""
    d, note = choose(obs, dependence)
    out = descriptive_rows(obs, level)
    out["mean"] = mean_row(obs, level, d, note)
    for q, r in zip(qs, quantile_rows(obs, qs, level, d, note)):
        out[pct_label(q)] = r
    return out


# ---------------------------------------------------------------------------------------------
# Several runs (the run as the unit)


def _run_estimates(parts: list[Observations], qs) -> tuple[dict, dict]:
    """Point estimate of every stat in every run (NaN where a run cannot give one), and what
    bounds it: ``(low, high)`` arrays, the estimate itself where a run gives one, the run's
    censoring bound where its value falls among censored values (a quantile among Windows
    ping's ``time<1ms`` replies lies in [0, 1000) µs; a mean with censored values between the
    mean with them at 0 and at the bound), NaN where a run is too short."""
    labels = ["mean", *(pct_label(q) for q in qs)]
    est = {k: np.full(len(parts), np.nan) for k in labels}
    low = {k: np.full(len(parts), np.nan) for k in labels}
    high = {k: np.full(len(parts), np.nan) for k in labels}
    for i, obs in enumerate(parts):
        n = obs.n
        xs = np.sort(obs.series)
        for q, e in zip(qs, sorted_quantile(xs, qs) if n else np.full(len(qs), np.nan)):
            k = pct_label(q)
            if n * min(q, 1 - q) < 1 - 1e-9:
                continue
            if obs.n_censored and not e >= obs.bound:
                low[k][i], high[k][i] = 0.0, obs.bound
            else:
                est[k][i] = low[k][i] = high[k][i] = e
        if n and obs.n_censored:
            total = obs.values.sum()
            low["mean"][i], high["mean"][i] = total / n, (total + obs.n_censored * obs.bound) / n
        elif n:
            est["mean"][i] = low["mean"][i] = high["mean"][i] = obs.series.mean()
    return est, {k: (low[k], high[k]) for k in labels}


def _pooled(parts: list[Observations]) -> Observations:
    """The observations of several runs as one (run ids kept)."""
    return Observations(
        np.concatenate([p.series for p in parts]),
        np.nanmax([p.bound for p in parts] + [np.nan])
        if any(p.n_censored for p in parts)
        else np.nan,
        sum(p.n_censored for p in parts),
        sum(p.n_excluded for p in parts),
        np.concatenate([p.run_ids for p in parts]),
    )


def run_rows(parts: list[Observations], qs, level: float) -> dict:
    """Every stat across runs: the interval of the median (quantiles) or of the mean (mean)."""
    k = len(parts)
    pooled = _pooled(parts)
    note = f"{k} runs; the run is the unit"
    out = descriptive_rows(pooled, level, note)
    for r in out.values():
        r["n_runs"], r["unit_of_analysis"] = k, "run"
    return out | between_run_rows(*_run_estimates(parts, qs), n=pooled.n, level=level, note=note)


def between_run_rows(
    estimates: dict[str, np.ndarray],
    bounds: dict[str, tuple[np.ndarray, np.ndarray]] | None = None,
    *,
    n: int,
    level: float,
    note: str,
) -> dict[str, dict]:
    """The interval across runs of each stat, from its per-run estimates (NaN where a run
    cannot give one): Student's t on the run means for ``mean``, the exact order-statistic
    interval of the median of the runs' values for a quantile.  ``n`` is the observations
    pooled over the runs.  ``bounds`` (from :func:`_run_estimates`): where runs cannot give a
    value but every one is bounded (censored), the statistic across runs is bounded by the
    same statistic of the runs' low and high ends (a mean and a median rise with each value):
    two Windows ping runs each known as '< 1000 µs' give a median across runs below 1000 µs,
    where it had been no value at all.  The one definition of the between-run interval: the
    in-memory path (:func:`run_rows`) and the out-of-core engines (``campaign.engines``) both
    call it."""
    out: dict[str, dict] = {}
    a = (1 + level) / 2
    for stat, v in estimates.items():
        k = len(v)
        kw = dict(level=level, unit="run", n=n, n_runs=k, n_eff=float(k))
        if np.isnan(v).any():
            out[stat] = _runs_without_value(stat, v, (bounds or {}).get(stat), note, kw)
            continue
        rng_ = (v.min(), v.max())
        if stat == "mean":
            if k < 2:
                out[stat] = not_estimable(
                    method=T_RUNS,
                    estimate=v.mean(),
                    range_=rng_,
                    note="one run: no spread across runs",
                    **kw,
                )
                continue
            se = v.std(ddof=1) / np.sqrt(k)
            m, crit = v.mean(), stats.t.ppf(a, k - 1)
            out[stat] = row(
                m,
                m - crit * se,
                m + crit * se,
                method=T_RUNS,
                range_=rng_,
                note=join_notes("mean of run means (each run weighted equally)", note),
                **kw,
            )
            continue
        xs = np.sort(v)
        (lo,), (hi,) = exact_indices(k, [0.5], level)
        med = float(np.median(v))
        if lo < 0 or hi >= k:
            out[stat] = not_estimable(
                method=RUNS,
                estimate=med,
                range_=rng_,
                note=join_notes(
                    f"a {level:.0%} interval of the median across runs needs ≥ "
                    f"{min_n(0.5, level)} runs; the range across the {k} runs is given",
                    note,
                ),
                **kw,
            )
            continue
        out[stat] = row(med, xs[lo], xs[hi], method=RUNS, range_=rng_, note=note, **kw)
    return out


def _runs_without_value(stat: str, v: np.ndarray, bounds, note: str, kw: dict) -> dict:
    """The row of a stat some runs cannot give: bounded where every such run is (censored),
    by the statistic across runs of the runs' low and high ends, else no value."""
    k, bad = len(v), int(np.isnan(v).sum())
    method = T_RUNS if stat == "mean" else RUNS
    lo, hi = bounds if bounds is not None else (np.full(k, np.nan), np.full(k, np.nan))
    if np.isnan(lo).any() or np.isnan(hi).any():
        why = f"{bad} of {k} runs cannot give {stat} (too short or censored)"
        return not_estimable(method=method, note=join_notes(why, note), **kw)
    agg = np.mean if stat == "mean" else np.median
    return not_estimable(
        method=method,
        bounds=(float(agg(lo)), float(agg(hi))),
        note=join_notes(
            f"{bad} of {k} runs give {stat} only as a bound (censored values): the {stat} "
            "across runs is only bounded",
            note,
        ),
        **kw,
    )


def population_rows(parts: list[Observations], qs, level: float) -> dict:
    """Every stat of the pooled population of several runs (``stats.population``)."""

    pooled = _pooled(parts)
    out = descriptive_rows(pooled, level, f"{len(parts)} runs pooled as a population")
    out["mean"] = pooled_mean(parts, level)
    for q in qs:
        out[pct_label(q)] = pooled_quantile(parts, float(q), level)
    return out


# ---------------------------------------------------------------------------------------------
# Public functions


def stat_rows(rows: dict[str, dict], keys: dict, qs) -> list[dict]:
    """The rows of one group's stats (``series_rows``, ``run_rows``): one dict per stat,
    ``keys`` first, ``q`` set for the quantiles (every engine builds its rows with this)."""
    qmap = {pct_label(q): q for q in qs}
    return [{**keys, "stat": s, "q": qmap.get(s, np.nan), **r} for s, r in rows.items()]


def _array_obs(values) -> Observations:
    x = np.asarray(values, dtype=float)
    x = x[np.isfinite(x)]
    return Observations(x, np.nan, 0, 0, np.zeros(len(x), dtype=object))


def quantile_ci(
    values, q: float | Sequence[float] = 0.5, level: float = 0.95, *, dependence: str = "auto"
) -> pd.DataFrame:
    """Interval of quantile(s) ``q`` of ``values`` (one series, in measurement order).

    With ``dependence="iid"`` this is exactly ``scipy.stats.quantile_test(values, p=q)
    .confidence_interval(level)``; ``"auto"`` switches to the batch-means version when the
    series is autocorrelated; ``"batch"`` forces it.  NaNs are dropped.
    """
    level = check_level(level)
    qs = np.atleast_1d(np.asarray(q, dtype=float))
    obs = _array_obs(values)
    d, note = choose(obs, dependence)
    rows = quantile_rows(obs, qs, level, d, note)
    return pd.DataFrame([{"stat": pct_label(x), "q": x, **r} for x, r in zip(qs, rows)])


def mean_ci(values, level: float = 0.95, *, dependence: str = "auto") -> pd.DataFrame:
    """Interval of the mean of ``values`` (Student t, or batch-means t when autocorrelated)."""
    level = check_level(level)
    obs = _array_obs(values)
    d, note = choose(obs, dependence)
    return pd.DataFrame([{"stat": "mean", **mean_row(obs, level, d, note)}])


def summarize(
    samples: pd.DataFrame,
    runs: pd.DataFrame | None = None,
    by: str | Sequence[str] | None = None,
    metric: str = "rtt",
    level: float = 0.95,
    *,
    quantiles: Sequence[float] = DEFAULT_QUANTILES,
    unit: str = "auto",
    dependence: str = "auto",
) -> pd.DataFrame:
    """count, mean, std, min, max and percentiles with intervals, per group of ``by``.

    ``by`` defaults to ``"run_id"``; columns not in ``samples`` are taken from ``runs``.
    ``unit``: ``"auto"`` (a group of several runs uses the run as the unit, one run uses its
    packets with a dependence check), ``"run"``, ``"packet"`` (pool the packets of every run
    of the group — run-to-run variation is then not in the interval) or ``"population"``
    (the percentiles and mean of all packets of the group's runs, with intervals that carry
    run-to-run variation: ``stats.population``; what a packet of a future run will see).
    Only ``status == "ok"`` rows are observations (censored values bound the statistics).
    A store too big to load is summarised run by run with ``summarize_store``.
    """
    level, by = summary_args(level, by, unit)
    rows = group_rows(
        samples, runs, by, metric, level, quantiles=quantiles, unit=unit, dependence=dependence
    )
    return summary_frame(rows, by)


def summary_args(level: float, by, unit: str) -> tuple[float, list[str]]:
    """Checked ``level`` and ``unit``; ``by`` as a list (default ``["run_id"]``)."""
    level = check_level(level)
    if unit not in ("auto", "run", "packet", "population"):
        raise ValueError(f"unit must be 'auto', 'run', 'packet' or 'population', got {unit!r}")
    by = ["run_id"] if by is None else [by] if isinstance(by, str) else list(by)
    return level, by


def group_rows(
    samples: pd.DataFrame,
    runs: pd.DataFrame | None,
    by: list[str],
    metric: str,
    level: float,
    *,
    quantiles: Sequence[float],
    unit: str,
    dependence: str,
) -> list[dict]:
    """The rows of ``summarize`` for ``samples`` (every group they hold), not yet a frame:
    ``summarize_store`` calls this once per run or group and builds one frame at the end."""
    column, value_unit = metric_column(metric)
    check_basis(samples, metric)
    if column not in samples.columns:
        raise ValueError(f"samples have no column {column!r} for metric {metric!r}")
    qs = np.asarray(quantiles, dtype=float)
    out: list[dict] = []
    for group in groups(samples, runs, by, column):
        keys = group.key
        keys = dict(zip(by, keys if isinstance(keys, tuple) else (keys,)))
        run_parts = group.runs
        if unit == "population" and len(run_parts) > 1:
            rows = population_rows(run_parts, qs, level)
        elif unit == "run" or (unit == "auto" and len(run_parts) > 1):
            rows = run_rows(run_parts, qs, level)
        else:
            whole = run_parts[0] if len(run_parts) == 1 else group.whole
            rows = series_rows(whole, qs, level, dependence)
            if len(run_parts) > 1:
                for r in rows.values():
                    r["n_runs"] = len(run_parts)
                    r["note"] = join_notes(
                        r["note"],
                        f"{len(run_parts)} runs pooled; "
                        "run-to-run variation is not in the interval",
                    )
        out.extend(stat_rows(rows, {**keys, "metric": metric, "unit": value_unit}, qs))
    return out


def summary_frame(rows: list[dict], by: list[str]) -> pd.DataFrame:
    """The frame ``summarize`` returns, from ``group_rows`` output."""
    cols = [*by, "metric", "unit", "stat", "q", *INTERVAL_COLUMNS]
    return pd.DataFrame(rows, columns=cols)
