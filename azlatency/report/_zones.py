"""Zone pairs: the median of each source → destination pair, and A→B against B→A."""

from __future__ import annotations

import numpy as np
import pandas as pd

from .. import stats
from ..schema import Tables
from ..stats.common import INTERVAL_CORE
from ._data import latency_runs, sample_runs, subset
from ._latency import headline, latency_percentiles
from ._memo import memo

ZONE_BY = ("src_zone", "dst_zone", "msg_size_bytes")


def zoned_runs(runs: pd.DataFrame) -> pd.DataFrame:
    """Latency runs whose source and destination zones are both known."""
    r = latency_runs(runs)
    return r[r["src_zone"].notna() & r["dst_zone"].notna()].reset_index(drop=True)


# On a tie, tools whose latency is a median of many packets before those printing a mean.
PREFERENCE = ("sockperf", "echo_csv", "latte", "ethr", "uping", "ping", "qperf")


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


@memo
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
        *INTERVAL_CORE,
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


ASYMMETRY_COLUMNS = [
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
    "n_runs_a",
    "n_runs_b",
    "unit_of_analysis",
    "estimable",
    "testable",
    "p_value",
    "p_adj",
    "adjust",
    "asymmetric",
    "method",
    "test",
    "df",
    "assumption",
    "note",
    "caption",
    "direction_meaning",
    "tool",
    "basis",
]


@memo
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
    between_runs="pooled",
) -> pd.DataFrame:
    """A→B against B→A (ratio of run medians, interval, adjusted p) for every zone pair
    measured both ways with samples.  The run is the unit (``stats.asymmetry``): Welch t on
    log run medians with ≥ 2 runs a direction; with 1 run in a direction, the between-run
    variance of the replicated cells of the same matrix (same-zone cells included), named in
    ``assumption``, or no test at all (``testable`` False, the note says why).
    ``asymmetric`` is true only for a run-level test with ``p_adj < 1 - level``; a
    packet-level test (``unit="packet"``) is shown but never marks a pair.  ``caption`` says
    each row in plain words: unit, runs per side, method.  Empty when no pair was measured in
    both directions (printed statistics cannot be compared this way)."""
    runs, tool, basis, msg_size = _choose(tables.runs, tool, basis, msg_size)
    cols = ASYMMETRY_COLUMNS
    if runs.empty or basis is None:
        return pd.DataFrame(columns=cols)
    t = subset(tables, runs)
    ids = sample_runs(t.samples, f"{basis}_us")
    t = subset(t, t.runs[t.runs["run_id"].isin(ids)])
    if t.runs.empty:
        return pd.DataFrame(columns=cols)
    res = stats.asymmetry(
        t.samples,
        t.runs,
        metric=basis,
        level=level,
        adjust=adjust,
        unit=unit,
        rng=rng,
        between_runs=between_runs,
    )
    res = res[res["effect"] == "ratio"].copy()
    res["asymmetric"] = res["significant"].astype(bool)
    res["tool"], res["basis"] = tool, basis
    return res.reindex(columns=cols).reset_index(drop=True)


NOT_TESTABLE = "‡"  # the mark of a pair measured both ways whose runs cannot be tested


def matrix_frame(medians: pd.DataFrame, asymmetry: pd.DataFrame) -> pd.DataFrame:
    """Medians with the asymmetry test of each cell's pair for ``plots.zone_matrix``: one
    cell per directed pair, ``asymmetric`` (a run-level test, adjusted), ``untestable`` (the
    pair was measured both ways but a direction has 1 run and nothing to borrow the
    run-to-run variation from), ``n_runs_a``/``n_runs_b`` (runs of this direction and of the
    reverse one) and ``caption``, the cell in plain words."""
    cells = medians.drop_duplicates(["src_zone", "dst_zone"]).copy()
    by_pair = {}
    if len(asymmetry):
        by_pair = {(r["src_zone"], r["dst_zone"]): r for r in asymmetry.to_dict("records")}
    keys = list(zip(cells["src_zone"], cells["dst_zone"]))
    found = [by_pair.get(k) for k in keys]
    cells["asymmetric"] = [bool(r is not None and r["asymmetric"]) for r in found]
    cells["untestable"] = [bool(r is not None and not r["testable"]) for r in found]
    cells["n_runs_a"] = [np.nan if r is None else r["n_runs_a"] for r in found]
    cells["n_runs_b"] = [np.nan if r is None else r["n_runs_b"] for r in found]
    cells["caption"] = [_cell_caption(c, r) for c, r in zip(cells.to_dict("records"), found)]
    for c in ("estimate", "ci_low", "ci_high"):
        cells[c] = pd.to_numeric(cells[c], errors="coerce").astype(float)
    return cells.reset_index(drop=True)


def _cell_caption(cell: dict, pair: dict | None) -> str:
    """One cell in words: its median and how it was made, then its direction test."""
    unit = cell.get("unit_of_analysis")
    runs = cell.get("n_runs")
    head = f"{cell['src_zone']}→{cell['dst_zone']}: {cell.get('stat', 'p50')} " + (
        f"{float(cell['estimate']):.4g} µs" if pd.notna(cell.get("estimate")) else "n/a"
    )
    how = f"unit: {unit or 'printed value'}" + (f", {int(runs)} run(s)" if pd.notna(runs) else "")
    if cell.get("method"):
        how += f", {cell['method']}"
    if cell["src_zone"] == cell["dst_zone"]:
        direction = "same zone: no direction to compare"
    elif pair is None:
        direction = "reverse direction not measured with samples: no direction test"
    elif pair["testable"]:
        direction = (
            f"direction: {'asymmetric' if pair['asymmetric'] else 'no asymmetry shown'} "
            f"({pair['test']}, adjusted p = {float(pair['p_adj']):.2g})"
        )
    else:
        direction = f"direction: not testable ({str(pair['note']).split('; ')[0]})"
    return "; ".join([head, how, direction])


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
