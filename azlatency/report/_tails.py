"""Tails for the reports: tail ratios and exceedance per latency group, from samples where
there are any (``azlatency.stats``), from printed percentiles where there are not."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from .. import stats, units
from ..schema import Tables, pct_label
from ..stats.common import INTERVAL_CORE, READ_COLUMNS
from ._data import map_runs
from ._latency import GROUP, _convert, _keys, group_labels
from ._memo import memo

RATIOS = ((0.99, 0.5), (0.999, 0.5))
# The interval columns of both tables, after what each row is of.
_INTERVAL = [*INTERVAL_CORE, "unit_of_analysis", "n", "n_eff", "estimable", "source", "note"]


def _sampled(t: Tables, percentiles: pd.DataFrame, basis: str, *, lean: bool = False):
    """Samples of the groups ``percentiles`` summarised from samples, with a ``label``;
    ``lean``: only the columns the statistics read (grouping a frame by label takes every
    column it holds for each group)."""
    col = units.basis_column(basis)
    by = [c for c in GROUP if c in percentiles.columns]
    groups = percentiles[(percentiles["source"] == "samples") & (percentiles["basis"] == basis)]
    if groups.empty or col not in t.samples.columns:
        return t.samples.iloc[0:0].assign(label=pd.Series(dtype=str))
    label_of = group_labels(groups, [*by, "tool", "converted_from"])
    run_label = {
        rid: label_of.get(k) for rid, k in _keys(t.runs, [*by, "tool", "converted_from"]).items()
    }
    s = t.samples
    if lean:  # columns first: each filter below takes every column it keeps
        s = s[[c for c in dict.fromkeys([*READ_COLUMNS, col]) if c in s.columns]]
    # one filter (a take of every column) and a hashed isin, not a map, for the labelled runs
    labelled = {rid for rid, label in run_label.items() if not pd.isna(label)}
    s = s[(s[col].notna() | s["status"].astype(str).ne("ok")) & s["run_id"].isin(labelled)]
    return s.assign(label=map_runs(s["run_id"], run_label))


@memo(disk=False)
def latency_samples(
    tables: Tables, percentiles: pd.DataFrame, *, basis: str, converted: str | None = None
) -> pd.DataFrame:
    """The samples behind the sample groups of ``percentiles`` (the frame
    :func:`latency_percentiles` returned for the same tables and ``converted`` basis), in
    ``basis``, with each group's ``label`` and its run's ``campaign``: ready for
    ``plots.ecdf(..., hue="label")`` or ``plots.panels(..., by="campaign")``.  Only the
    columns a distribution is drawn from are kept (the run, sequence, times, status and
    censoring of each sample, and ``<basis>_us``): every panel and series of a figure takes
    its rows from this frame, and the synthetic campaign's 945k samples with all 26 columns
    made those takes a quarter of its CCDF figure's time."""
    t, _ = _convert(tables, converted)
    s = _sampled(t, percentiles, basis, lean=True).reset_index(drop=True)
    campaign = t.runs.set_index("run_id")["campaign"] if "campaign" in t.runs else None
    return s.assign(campaign=map_runs(s["run_id"], campaign) if campaign is not None else pd.NA)


@memo
def tail_ratios(
    tables: Tables,
    percentiles: pd.DataFrame,
    *,
    converted: str | None = None,
    level: float = 0.95,
    ratios=RATIOS,
    rng=None,
) -> pd.DataFrame:
    """p99/p50 and p99.9/p50 per group: a bootstrap interval from samples
    (``stats.tail_ratios``), or the ratio of the printed percentiles, which has none."""
    t, _ = _convert(tables, converted)
    rows = []
    for basis in percentiles["basis"].dropna().unique():
        s = _sampled(t, percentiles, basis)  # stats.tail_ratios keeps what it reads
        if len(s):
            res = stats.tail_ratios(
                s, by="label", metric=basis, level=level, ratios=ratios, rng=rng
            )
            res["source"] = "samples"
            rows.append(res)
        printed = percentiles[
            (percentiles["source"] == "reported") & (percentiles["basis"] == basis)
        ]
        for label, g in printed.groupby("label", sort=False):
            v = g.set_index("stat")["estimate"]
            why = g.set_index("stat")["note"]
            for top, base in ratios:
                a, b = pct_label(top), pct_label(base)
                if a in v.index and b in v.index:
                    estimate, note = _printed_ratio(float(v[a]), float(v[b]), a, b)
                    if unused := [f"{k} {why[k]}" for k in (a, b) if pd.isna(v[k])]:
                        note = "; ".join(unused) + "; no ratio"  # _out_of_order's notes
                    rows.append(
                        pd.DataFrame(
                            [
                                {
                                    "label": label,
                                    "metric": basis,
                                    "stat": f"{a}/{b}",
                                    "estimate": estimate,
                                    "ci_low": np.nan,
                                    "ci_high": np.nan,
                                    "level": np.nan,
                                    "method": "ratio of printed percentiles",
                                    "estimable": False,
                                    "source": "reported",
                                    "note": note,
                                }
                            ]
                        )
                    )
    cols = ["label", "metric", "stat", *_INTERVAL]
    if not rows:
        return pd.DataFrame(columns=cols)
    return pd.concat(rows, ignore_index=True).reindex(columns=cols)


def _printed_ratio(top: float, base: float, a: str, b: str) -> tuple[float, str]:
    """``top / base`` of two printed percentiles, or NaN and why there is no ratio: a base of
    0 (ethr prints 0 for a round trip below its clock tick) or percentiles out of order (ethr
    prints p90 0 beside a p50 of 555 µs) is no tail."""
    if not (np.isfinite(top) and np.isfinite(base)):
        return np.nan, f"printed {a} or {b} is not a number: no ratio"
    if base <= 0:
        return np.nan, f"printed {b} is {base:g} (below the tool's resolution?): no ratio"
    if top < base:
        return np.nan, f"printed {a} ({top:g}) is below {b} ({base:g}), out of order: no ratio"
    return top / base, "printed percentiles: no interval"


def _no_multiple(median: pd.DataFrame) -> str:
    """Why a group's ``median`` row (of the percentiles) has no multiples to take, or ""."""
    m = median["estimate"]
    if m.empty or pd.isna(m.iloc[0]):  # said, not dropped (Windows' time<1ms medians)
        why = median["note"].dropna().astype(str)
        return "no median to take multiples of" + (
            f" ({why.iloc[0].split('; ')[0]})" if len(why) else ""
        )
    if m.iloc[0] <= 0:  # every multiple of 0 is 0: P(latency > 0) is no tail
        return (
            f"the median is {m.iloc[0]:g} (values below the clock's resolution?): no multiple of it"
        )
    return ""


@memo
def exceedance(
    tables: Tables,
    percentiles: pd.DataFrame,
    *,
    multiples: Sequence[float],
    converted: str | None = None,
    level: float = 0.95,
) -> pd.DataFrame:
    """P(latency > m × the group's median) with an exact interval, for each group with
    samples and each multiple ``m``; printed statistics cannot give it (a row says so)."""
    t, _ = _convert(tables, converted)
    cols = ["label", "metric", "multiple", "threshold", *_INTERVAL]
    rows = []
    for basis in percentiles["basis"].dropna().unique():
        s = _sampled(t, percentiles, basis, lean=True)
        med = percentiles[(percentiles["stat"] == "p50") & (percentiles["basis"] == basis)]
        for label, g in s.groupby("label", sort=True):
            m = med.loc[med["label"] == label, "estimate"]
            why = _no_multiple(med[med["label"] == label])
            if why:
                rows.append(
                    {
                        "label": label,
                        "metric": basis,
                        "estimable": False,
                        "source": "samples",
                        "note": why,
                    }
                )
                continue
            # by label: the group's runs together, the run as the unit (a row per threshold,
            # each as its own call gives it: the group is cut once, not once a multiple)
            thresholds = [k * float(m.iloc[0]) for k in multiples]
            res = stats.exceedance(g, thresholds, level, runs=t.runs, by="label", metric=basis)
            for i, k in enumerate(multiples):
                r = res.iloc[i].to_dict()
                rows.append(
                    {"label": label, "multiple": k, **r, "metric": basis, "source": "samples"}
                )
        for label in percentiles.loc[
            (percentiles["source"] == "reported") & (percentiles["basis"] == basis), "label"
        ].unique():
            rows.append(
                {
                    "label": label,
                    "metric": basis,
                    "estimable": False,
                    "source": "reported",
                    "note": "printed statistics only: an exceedance probability needs the samples",
                }
            )
    return pd.DataFrame(rows).reindex(columns=cols)
