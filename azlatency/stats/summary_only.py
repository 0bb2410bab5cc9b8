"""What summary-only inputs allow: qperf, latte, sockperf's printed percentiles, pasted tables.

A tool that prints only a mean, a standard deviation and a count does not say how its packets
depended on each other, so:

* ``summary_only_interval`` — per run, the normal interval mean ± z·std/√n (the large-sample
  interval of a mean; any textbook, e.g. Wasserman 2004, *All of Statistics*, §6.3.2), with a
  ``caveat`` column: it assumes independent packets, which a run's packets are not, so the
  true interval is wider.  A tool's own interval (``ci_low``/``ci_high`` with a level) is
  passed through as reported.  No count → "not estimable".
* ``summary_ranges`` — across the runs of a group: the range (min, max) of each reported
  statistic and the number of runs.  Percentiles are **never averaged** across runs (the mean of
  two p99s is the p99 of nothing); means with counts are pooled (count-weighted), which is
  exact.
* ``histogram_quantiles`` — histograms (latte ``-hist``) of the runs of a group are merged by
  adding counts bin by bin, which is exact, and each quantile is reported as the bin that
  holds it (``bound_low``/``bound_high``; the estimate is the bin's upper edge as in
  ``docs/vocabulary.md``) with an exact order-statistic interval widened to bin edges.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd
from scipy import stats

from ..schema import pct_label
from .common import DEFAULT_QUANTILES, attach, check_level, not_estimable, row
from .intervals import exact_indices, min_n

CAVEAT = (
    "normal interval from the printed mean, std and count: assumes independent packets; "
    "a run's packets are autocorrelated, so the true interval is wider"
)


def _wide(summaries: pd.DataFrame, metric: str) -> pd.DataFrame:
    s = summaries[summaries["metric"] == metric]
    if s.empty:
        return pd.DataFrame(columns=["run_id", "source"])
    return s.pivot_table(
        index=["run_id", "source"], columns="stat", values="value", aggfunc="first"
    ).reset_index()


def _count(summaries: pd.DataFrame, metric: str) -> dict:
    """Observations behind each run's mean: a ``count`` stat, else the mean row's ``n``."""
    s = summaries[summaries["metric"] == metric]
    out: dict[str, float] = {}
    for (run_id, stat), g in s.groupby(["run_id", "stat"]):
        if stat == "count":
            out.setdefault(run_id, float(g["value"].iloc[0]))
        elif stat == "mean" and "n" in g.columns and g["n"].notna().any():
            out[run_id] = float(g["n"].dropna().iloc[0])
    return out


def summary_only_interval(
    summaries: pd.DataFrame, *, metric: str = "rtt", level: float = 0.95, source: str = "reported"
) -> pd.DataFrame:
    """Per run: an interval for the mean from what the tool printed (see module doc)."""
    level = check_level(level)
    s = summaries[summaries["source"] == source]
    counts = _count(s, metric)
    out = []
    for r in _wide(s, metric).to_dict("records"):
        run_id = r["run_id"]
        reported = s[(s["run_id"] == run_id) & (s["metric"] == metric)]
        unit = _unit(reported)
        base = {"run_id": run_id, "metric": metric, "unit": unit, "stat": "mean", "source": source}
        out.append({**base, **_run_interval(r, reported, counts.get(run_id, np.nan), level)})
    return pd.DataFrame(out)


def _unit(reported: pd.DataFrame) -> str:
    """The unit of a run's mean (the interval is the mean's), else of its first value that is
    not its count (ping prints its count first: 'count' over µs); each run its own (one run's
    unit labelled every run)."""
    for wanted in (reported["stat"] == "mean", reported["stat"] != "count"):
        units = reported.loc[wanted, "unit"]
        if len(units):
            return str(units.iloc[0])
    return ""


def _run_interval(r: dict, reported: pd.DataFrame, n: float, level: float) -> dict:
    """One run's interval columns: the tool's own interval, else mean ± z·std/√n, else why not."""
    kw = dict(level=level, unit="packet", n=0 if np.isnan(n) else int(n))
    mean, std = r.get("mean", np.nan), r.get("std", np.nan)
    lo_r = reported.loc[reported["stat"] == "ci_low"]
    hi_r = reported.loc[reported["stat"] == "ci_high"]
    if len(lo_r) and len(hi_r):
        lvl = lo_r["level"].iloc[0]
        return {
            **row(
                mean,
                lo_r["value"].iloc[0],
                hi_r["value"].iloc[0],
                method="reported by the tool",
                **{**kw, "level": lvl},
            ),
            "caveat": "the tool's own interval; its method is the tool's",
        }
    if np.isnan(mean) or np.isnan(std) or np.isnan(n) or n < 2:
        missing = [k for k, v in (("mean", mean), ("std", std), ("count", n)) if np.isnan(v)]
        return {
            **not_estimable(
                method="normal (mean ± z·std/√n)",
                estimate=mean,
                note=f"the tool did not print {', '.join(missing) or 'enough observations'}",
                **kw,
            ),
            "caveat": CAVEAT,
        }
    half = stats.norm.ppf((1 + level) / 2) * std / np.sqrt(n)
    return {
        **row(mean, mean - half, mean + half, method="normal (mean ± z·std/√n)", n_eff=n, **kw),
        "caveat": CAVEAT,
    }


def summary_ranges(
    summaries: pd.DataFrame,
    runs: pd.DataFrame | None = None,
    by: str | Sequence[str] | None = None,
    *,
    metric: str = "rtt",
    source: str = "reported",
) -> pd.DataFrame:
    """Per group and stat: number of runs, range across runs, and a pooled mean when the
    counts allow (percentiles are never averaged)."""
    by = [] if by is None else [by] if isinstance(by, str) else list(by)
    s = summaries[(summaries["metric"] == metric) & (summaries["source"] == source)]
    s = attach(s, runs, by) if by else s
    counts = _count(s, metric)
    out = []
    groups = s.groupby(by, sort=True, dropna=False) if by else [((), s)]
    for keys, g in groups:
        keys = dict(zip(by, keys if isinstance(keys, tuple) else (keys,)))
        for stat, gs in g.groupby("stat", sort=False):
            v = gs["value"].to_numpy(dtype=float)
            rec = {
                **keys,
                "metric": metric,
                "stat": stat,
                "unit": gs["unit"].iloc[0],
                "n_runs": gs["run_id"].nunique(),
                "range_low": np.nanmin(v),
                "range_high": np.nanmax(v),
                "pooled": np.nan,
                "note": "",
            }
            if stat == "mean":
                n = np.array([counts.get(r, np.nan) for r in gs["run_id"]])
                if np.isfinite(n).all() and n.sum() > 0:
                    rec["pooled"] = float((n * v).sum() / n.sum())
                    rec["note"] = "count-weighted mean of run means"
                else:
                    rec["note"] = "counts missing: no pooled mean"
            elif stat.startswith("p"):
                rec["note"] = "percentiles are not averaged across runs: range only"
            out.append(rec)
    return pd.DataFrame(out)


def histogram_quantiles(
    samples: pd.DataFrame,
    runs: pd.DataFrame | None = None,
    by: str | Sequence[str] | None = None,
    *,
    quantiles: Sequence[float] = DEFAULT_QUANTILES,
    level: float = 0.95,
) -> pd.DataFrame:
    """Quantiles of merged histograms (samples of kind ``histogram``), as bins with intervals."""
    level = check_level(level)
    by = ["run_id"] if by is None else [by] if isinstance(by, str) else list(by)
    h = samples[samples["kind"].astype(str) == "histogram"]
    h = attach(h, runs, by)
    out = []
    for keys, g in h.groupby(by, sort=True, dropna=False):
        keys = dict(zip(by, keys if isinstance(keys, tuple) else (keys,)))
        out.extend(_group_quantiles(g, keys, quantiles, level))
    return pd.DataFrame(out)


def _group_quantiles(
    g: pd.DataFrame, keys: dict, quantiles: Sequence[float], level: float
) -> list[dict]:
    """The quantile rows of one group: its runs' histograms merged by adding counts per bin."""
    merged = g.groupby(["bin_low_us", "bin_high_us"], sort=True)["count"].sum()
    merged = merged[merged > 0]
    lows = merged.index.get_level_values(0).to_numpy(dtype=float)
    highs = merged.index.get_level_values(1).to_numpy(dtype=float)
    cum = np.cumsum(merged.to_numpy(dtype=np.int64))
    n = int(cum[-1]) if len(cum) else 0
    qs = np.asarray(quantiles, dtype=float)
    lo_i, hi_i = exact_indices(n, qs, level) if n else (qs * 0 - 1, qs * 0)
    kw = dict(
        level=level,
        method="merged histogram; exact order statistics to bin edges",
        unit="packet",
        n=n,
        n_runs=g["run_id"].nunique(),
    )
    return [
        {
            **keys,
            "stat": pct_label(q),
            "q": q,
            "unit": "us",
            **_bin_quantile(q, li, ui, lows, highs, cum, kw),
        }
        for q, li, ui in zip(qs, lo_i, hi_i)
    ]


def _bin_quantile(
    q: float, li: float, ui: float, lows: np.ndarray, highs: np.ndarray, cum: np.ndarray, kw: dict
) -> dict:
    """Quantile ``q`` as the bin that holds it, its interval (ranks ``li``, ``ui``) to bin edges."""
    n, level = kw["n"], kw["level"]
    if n == 0 or n * min(q, 1 - q) < 1 - 1e-9:
        return not_estimable(note="too few observations", **kw)
    b = int(np.searchsorted(cum, np.ceil(q * n), side="left"))
    bounds = (lows[b], highs[b])
    if li < 0 or ui >= n:
        return not_estimable(
            estimate=highs[b],
            bounds=bounds,
            note=f"a {level:.0%} interval for {pct_label(q)} needs n ≥ {min_n(q, level)}",
            **kw,
        )
    bl = int(np.searchsorted(cum, li + 1, side="left"))
    bu = int(np.searchsorted(cum, ui + 1, side="left"))
    return row(
        highs[b], lows[bl], highs[bu], bounds=bounds, note="value known only to its bin", **kw
    )


FIELLER_CAVEAT = (
    "from the printed mean, standard deviation and count of each side: assumes independent "
    "packets (a run's packets are autocorrelated, so the true interval is wider) and one run "
    "per side (run-to-run variation unknown)"
)


def ratio_of_printed_means(
    mean_a: float,
    sd_a: float,
    n_a: float,
    mean_b: float,
    sd_b: float,
    n_b: float,
    *,
    level: float = 0.95,
) -> dict:
    """The ratio ``mean_a / mean_b`` of two printed means with Fieller's interval (Fieller
    1954; the exact interval of a ratio of independent normal estimates), the standard errors
    ``sd/√n`` and Welch–Satterthwaite degrees of freedom.

    ping prints ``rtt min/avg/max/mdev`` and a count; ``mdev`` (iputils: the root of the mean
    square deviation) serves as the standard deviation.  Returns ``estimate``, ``ci_low``,
    ``ci_high``, ``df``, ``method``, ``estimable`` and ``note``; an interval that would be
    unbounded (the denominator's own interval reaches 0) is "not estimable" and says so."""
    level = check_level(level)
    est = mean_a / mean_b if mean_b else np.nan
    out: dict[str, float | str | bool] = {
        "estimate": est,
        "ci_low": np.nan,
        "ci_high": np.nan,
        "df": np.nan,
        "level": level,
    }
    out["method"] = "Fieller interval of a ratio of printed means (Welch df)"
    values = np.array([mean_a, sd_a, n_a, mean_b, sd_b, n_b], dtype=float)
    if not np.isfinite(values).all() or min(n_a, n_b) < 2 or mean_b <= 0:
        return {**out, "estimable": False, "note": "a side lacks a printed mean, std or count"}
    va, vb = sd_a**2 / n_a, sd_b**2 / n_b
    den = (va**2 / (n_a - 1) if va else 0.0) + (vb**2 / (n_b - 1) if vb else 0.0)
    df = (va + vb) ** 2 / den if den > 0 else float(n_a + n_b - 2)
    t = float(stats.t.ppf((1 + level) / 2, df))
    # (mean_a - r·mean_b)² = t²(va + r²·vb): a quadratic in r
    qa = mean_b**2 - t * t * vb
    qb = -2 * mean_a * mean_b
    qc = mean_a**2 - t * t * va
    disc = qb * qb - 4 * qa * qc
    if qa <= 0 or disc < 0:
        return {
            **out,
            "df": df,
            "estimable": False,
            "note": "not estimable: the reference mean's own interval reaches 0, so the "
            "ratio has no bounded interval",
        }
    root = np.sqrt(disc)
    lo, hi = (-qb - root) / (2 * qa), (-qb + root) / (2 * qa)
    return {**out, "ci_low": lo, "ci_high": hi, "df": df, "estimable": True, "note": ""}
