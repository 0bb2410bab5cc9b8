"""Zone pairs: the median of each source → destination pair, and A→B against B→A."""

from __future__ import annotations

import numpy as np
import pandas as pd

from .. import stats
from ..reader import Tables
from ._data import latency_runs, sample_runs, subset
from ._latency import headline, latency_percentiles

ZONE_BY = ("src_zone", "dst_zone", "msg_size_bytes")


def zoned_runs(runs: pd.DataFrame) -> pd.DataFrame:
    """Latency runs whose source and destination zones are both known."""
    r = latency_runs(runs)
    return r[r["src_zone"].notna() & r["dst_zone"].notna()].reset_index(drop=True)


# On a tie, tools whose latency is a median of many packets before those printing a mean.
PREFERENCE = ("sockperf", "echo_csv", "latte", "ethr", "ping", "qperf")


def main_tool(runs: pd.DataFrame) -> str | None:
    """The tool that covers the most zone pairs (ties: :data:`PREFERENCE`, then most runs)."""
    r = zoned_runs(runs)
    if r.empty:
        return None
    pairs = r.groupby("tool").apply(
        lambda g: len(set(zip(g["src_zone"], g["dst_zone"]))), include_groups=False
    )
    size = r.groupby("tool").size()
    rank = {t: i for i, t in enumerate(PREFERENCE)}
    order = sorted(pairs.index, key=lambda t: (-pairs[t], rank.get(t, len(rank)), -size[t], t))
    return order[0]


def _most(r: pd.DataFrame, col: str):
    v = r[col].dropna()
    return v.value_counts().idxmax() if len(v) else None


def _choose(
    runs: pd.DataFrame, tool: str | None, basis: str | None, msg_size: int | None
) -> tuple[pd.DataFrame, str | None, str | None, object]:
    """The runs a zone matrix compares: one tool, one message size, one basis (as printed:
    never mixed), and everything but the zones held fixed — the most common VM size and
    accelerated networking, and only placements that zones define (a PPG or an availability
    set in a zone is another pair of VMs)."""
    r = zoned_runs(runs)
    tool = tool or main_tool(runs)
    r = r[r["tool"] == tool]
    if r.empty:
        return r, tool, basis, msg_size
    if msg_size is None:
        msg_size = _most(r, "msg_size_bytes")
    if msg_size is not None:
        r = r[r["msg_size_bytes"] == msg_size]
    basis = basis or _most(r, "latency_basis")
    r = r[r["latency_basis"] == basis]
    for col in ("vm_size", "accelerated_networking"):
        v = _most(r, col)
        if v is not None:
            r = r[r[col].isna() | (r[col] == v)]
    r = r[r["placement"].isna() | r["placement"].isin(["same_zone", "cross_zone"])]
    return r.reset_index(drop=True), tool, basis, None if msg_size is None else int(msg_size)


def zone_pair_medians(
    tables: Tables,
    *,
    tool: str | None = None,
    basis: str | None = None,
    msg_size: int | None = None,
    level: float = 0.95,
    stat: str = "p50",
    unit: str = "auto",
) -> pd.DataFrame:
    """One row per (source zone, destination zone): the ``stat`` (median) of ``tool``'s runs,
    with its interval where there are samples.  ``tool=None`` takes the tool that covers the
    most pairs, ``msg_size=None`` its most common message size, ``basis=None`` the basis most
    of those runs printed (the others are left out, not converted); the chosen tool, basis
    and size are columns of the result.  ``unit`` as in ``stats.summarize``."""
    runs, tool, basis, msg_size = _choose(tables.runs, tool, basis, msg_size)
    cols = [
        "src_zone",
        "dst_zone",
        "tool",
        "basis",
        "msg_size_bytes",
        "stat",
        "estimate",
        "ci_low",
        "ci_high",
        "level",
        "method",
        "unit_of_analysis",
        "source",
        "n",
        "n_runs",
        "range_low",
        "range_high",
        "estimable",
        "note",
    ]
    if runs.empty:
        return pd.DataFrame(columns=cols)
    q = float(stat[1:]) / 100
    pct = latency_percentiles(
        subset(tables, runs), level=level, by=ZONE_BY, quantiles=(q,), unit=unit
    )
    # The mean stands in where the tool printed no median (qperf); ``stat`` says which.
    # Several printed runs of one pair cannot be pooled (a median of medians is no median):
    # they stay apart, the matrix shows the first and the table lists every one.
    out = headline(pct, stat).reindex(columns=cols).copy()
    out["tool"], out["basis"] = tool, basis
    return out.sort_values(["src_zone", "dst_zone"], kind="stable").reset_index(drop=True)


def asymmetry_table(
    tables: Tables,
    *,
    tool: str | None = None,
    basis: str | None = None,
    msg_size: int | None = None,
    level: float = 0.95,
    adjust: str = "holm",
    unit: str = "auto",
    rng=None,
) -> pd.DataFrame:
    """A→B against B→A (ratio of medians, interval, adjusted p) for every zone pair measured
    both ways with samples; ``asymmetric`` is ``p_adj < 1 - level``.  Empty when no pair was
    measured in both directions (printed statistics cannot be compared this way)."""
    runs, tool, basis, msg_size = _choose(tables.runs, tool, basis, msg_size)
    cols = [
        "src_zone",
        "dst_zone",
        "mirrored",
        "estimate",
        "ci_low",
        "ci_high",
        "level",
        "median_a",
        "median_b",
        "n_a",
        "n_b",
        "unit_of_analysis",
        "estimable",
        "p_value",
        "p_adj",
        "adjust",
        "asymmetric",
        "method",
        "note",
        "direction_meaning",
        "tool",
        "basis",
    ]
    if runs.empty or basis is None:
        return pd.DataFrame(columns=cols)
    t = subset(tables, runs)
    ids = sample_runs(t.samples, f"{basis}_us")
    t = subset(t, t.runs[t.runs["run_id"].isin(ids)])
    if t.runs.empty:
        return pd.DataFrame(columns=cols)
    res = stats.asymmetry(
        t.samples, t.runs, metric=basis, level=level, adjust=adjust, unit=unit, rng=rng
    )
    res = res[res["effect"] == "ratio"].copy()
    res["asymmetric"] = res["p_adj"] < (1 - level)
    res["tool"], res["basis"] = tool, basis
    return res.reindex(columns=cols).reset_index(drop=True)


def matrix_frame(medians: pd.DataFrame, asymmetry: pd.DataFrame) -> pd.DataFrame:
    """Medians with an ``asymmetric`` column for ``plots.zone_matrix`` (one cell per pair)."""
    cells = medians.drop_duplicates(["src_zone", "dst_zone"]).copy()
    flag = {}
    if len(asymmetry):
        flag = {
            (r.src_zone, r.dst_zone): bool(r.asymmetric) for r in asymmetry.itertuples(index=False)
        }
    cells["asymmetric"] = [
        flag.get((s, d), False) for s, d in zip(cells["src_zone"], cells["dst_zone"])
    ]
    for c in ("estimate", "ci_low", "ci_high"):
        cells[c] = pd.to_numeric(cells[c], errors="coerce").astype(float)
    return cells.reset_index(drop=True)


def both_ways(medians: pd.DataFrame) -> int:
    """Number of unordered zone pairs measured in both directions."""
    pairs = {(str(s), str(d)) for s, d in zip(medians["src_zone"], medians["dst_zone"]) if s != d}
    return sum(1 for s, d in pairs if (d, s) in pairs and s < d)


def spread(medians: pd.DataFrame) -> dict[str, object]:
    """Fastest and slowest pair and their ratio (a description, not a test)."""
    m = medians.dropna(subset=["estimate"])
    if m.empty:
        return {}
    lo = m.loc[m["estimate"].astype(float).idxmin()]
    hi = m.loc[m["estimate"].astype(float).idxmax()]
    return {
        "fastest": f"{lo['src_zone']}→{lo['dst_zone']}",
        "fastest_us": float(lo["estimate"]),
        "slowest": f"{hi['src_zone']}→{hi['dst_zone']}",
        "slowest_us": float(hi["estimate"]),
        "ratio": float(hi["estimate"]) / float(lo["estimate"]) if lo["estimate"] else np.nan,
    }
