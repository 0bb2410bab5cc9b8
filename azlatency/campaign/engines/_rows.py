"""Interval rows from order statistics read by rank: the branches of ``stats.intervals`` that
need no series (``series_rows`` for independent packets, ``run_rows`` for the run as the unit),
given the counts, moments and values by rank DuckDB computed.  Every other case is left to
``intervals.group_rows`` itself (campaign/engines/duck.py says which)."""

from __future__ import annotations

import numpy as np
from scipy import stats as sps

from ...schema import pct_label
from ...stats import intervals as iv
from ...stats.common import join_notes, not_estimable, row


def excluded_note(excluded: int) -> str:
    return (
        (f"{excluded} timeouts/losses/errors excluded; tail percentiles are conditional on a reply")
        if excluded
        else ""
    )


def ranks(n: int, qs: np.ndarray, level: float):
    h = (n - 1) * qs
    lo_e = np.floor(h).astype(int)
    hi_e = np.minimum(lo_e + 1, n - 1)
    lo, hi = iv.exact_indices(n, qs, level)
    return h, lo_e, hi_e, lo, hi


def estimate(ranks, vals: dict[int, float], i: int) -> float:
    """Quantile i by numpy's linear interpolation (``sorted_quantile``'s arithmetic)."""
    h, lo_e, hi_e = ranks[:3]
    x_lo, x_hi = vals[int(lo_e[i])], vals[int(hi_e[i])]
    return x_lo + (h[i] - lo_e[i]) * (x_hi - x_lo)


def series(r: dict, qs, level: float, note: str, ranks, vals: dict[int, float]) -> dict:
    n, excluded = r["n"], r["rows"] - r["n"]
    h, lo_e, hi_e, lo, hi = ranks
    kw = dict(level=level, method=iv.DESCRIPTIVE, unit="packet", n=n)
    count_note = (
        (f"{excluded} timeouts/losses/errors excluded; tail percentiles are conditional on a reply")
        if excluded
        else ""
    )
    out = {
        "count": row(n, note=count_note, **kw),
        "std": row(r["std"], **kw),
        "min": row(r["min"], **kw),
        "max": row(r["max"], **kw),
    }
    a = (1 + level) / 2
    se, crit = np.sqrt(r["std"] ** 2 / n), sps.t.ppf(a, n - 1)
    out["mean"] = row(
        r["mean"],
        r["mean"] - crit * se,
        r["mean"] + crit * se,
        level=level,
        method=iv.T_IID,
        unit="packet",
        n=n,
        n_eff=float(n),
        note=note,
    )
    for i, q in enumerate(qs):
        x_lo, x_hi = vals[int(lo_e[i])], vals[int(hi_e[i])]
        est = x_lo + (h[i] - lo_e[i]) * (x_hi - x_lo)  # sorted_quantile's arithmetic
        label = pct_label(q)
        qkw = dict(level=level, method=iv.EXACT, unit="packet", n=n, n_eff=float(n))
        if n * min(q, 1 - q) < 1 - 1e-9:
            out[label] = not_estimable(
                note=join_notes(
                    f"n={n} is too small for {label}: fewer than one observation beyond it", note
                ),
                **qkw,
            )
        elif lo[i] < 0 or hi[i] >= n:
            out[label] = not_estimable(
                estimate=est,
                note=join_notes(
                    f"a {level:.0%} interval for {label} needs n ≥ {iv.min_n(q, level)}", note
                ),
                **qkw,
            )
        else:
            out[label] = row(est, vals[int(lo[i])], vals[int(hi[i])], note=note, **qkw)
    return out


def run_unit(stats: dict, means: np.ndarray, ests: np.ndarray, qs, level: float) -> dict:
    """``intervals.run_rows`` of k uncensored runs: ``stats`` of the pooled observations
    (n, rows, std, min, max), each run's mean and quantile estimates (NaN where the run
    cannot give one), estimates of run × quantile."""
    k = len(means)
    note = f"{k} runs; the run is the unit"
    n = stats["n"]
    kw = dict(level=level, method=iv.DESCRIPTIVE, unit="packet", n=n)
    out = {
        "count": row(n, note=join_notes(excluded_note(stats["rows"] - n), note), **kw),
        "std": row(stats["std"] if n > 1 else np.nan, **kw),
        "min": row(stats["min"] if n else np.nan, **kw),
        "max": row(stats["max"] if n else np.nan, **kw),
    }
    for r in out.values():
        r["n_runs"], r["unit_of_analysis"] = k, "run"
    estimates = {"mean": means, **{pct_label(q): ests[:, i] for i, q in enumerate(qs)}}
    return out | iv.between_run_rows(estimates, n=n, level=level, note=note)
