"""Zone pairs: the median of each source → destination pair, and A→B against B→A."""

from __future__ import annotations

import functools
from collections.abc import Collection, Sequence

import numpy as np
import pandas as pd

from .. import stats, units
from ..schema import Tables
from ..stats.asymmetry import flow
from ..stats.common import INTERVAL_CORE
from ._claims import side_name
from ._compare import MEASURES, STAT_WORDS, summarising_runs
from ._data import executions_only, latency_runs, sample_runs, subset
from ._latency import headline, latency_percentiles
from ._matrix_stats import (
    jitter_cells,
    loss_cells,
    per_hop_runs,
    quantile_of,
    stat_kind,
    stat_label,
)
from ._memo import memo
from ._show import counted, fmt_bound, fmt_range

ZONE_BY = ("src_zone", "dst_zone", "msg_size_bytes")
# The message size of a matrix of the runs that printed none (a netperf -o run that names no
# request size; qperf's and sockperf's consoles): asked for by name where they alone measured
# a pair, or where they are the most common (:func:`_usual_size`).
NO_SIZE = "none"


def zoned_runs(runs: pd.DataFrame) -> pd.DataFrame:
    """Latency runs whose source and destination zones are both known, in a basis a zone
    matrix shows (a round trip or half of one: one-way delays are page 40's, beside their
    clocks).  owping's runs, two zone pairs where irtt's had one, were taken for the matrix's
    tool and then gave it no cell: 'no zone pair' above irtt's 1→2 and 2→1."""
    r = latency_runs(runs)
    keep = r["src_zone"].notna() & r["dst_zone"].notna() & r["latency_basis"].isin(units.BASES)
    return r[keep].reset_index(drop=True)


# On a tie, tools whose latency is a median of many packets before those printing a mean.
PREFERENCE = ("sockperf", "echo_csv", "latte", "ethr", "uping", "ping", "qperf")


def main_tool(runs: pd.DataFrame) -> str | None:
    """The tool that covers the most zone pairs (ties: :data:`PREFERENCE`, then most runs)."""
    return _widest(zoned_runs(runs))


def _widest(r: pd.DataFrame) -> str | None:
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


def _usual_size(r: pd.DataFrame):
    """A latency matrix's message size when none is asked: the most common, the runs that
    printed none (:data:`NO_SIZE`) among them, a printed size first on a tie.  qperf's
    console prints no size for its default tcp_lat: four pairs of such runs beside a 2→3
    sweep of 1 B to 64 KiB, one run a size, made a matrix of one sweep size and page 20 said
    'Nothing to summarise: no zone pair'; sockperf's consoles beside one full log that
    printed 14 B, 'Only 3→1 is in sockperf's zone matrix'.  A run that got no reply back
    has no latency to count."""
    alive = r[~(r["loss_pct"] >= 100).fillna(False)] if "loss_pct" in r.columns else r
    n = alive["msg_size_bytes"].value_counts(dropna=False)
    if n.empty:
        return _most(r, "msg_size_bytes")
    top = sorted(n.index, key=lambda x: (-n[x], pd.isna(x)))[0]
    return NO_SIZE if pd.isna(top) else top


def matrix_runs(
    runs: pd.DataFrame,
    tool: str | None,
    basis: str | None,
    msg_size: int | str | None,
    *,
    latency: bool = True,
    only: Sequence[str] = (),
    summaries: Collection[str] = frozenset(),
) -> tuple[pd.DataFrame, str | None, str | None, object]:
    """The runs a zone matrix compares: one tool, one message size, one basis (as printed:
    never mixed), and everything but the zones held fixed — the most common VM size and
    accelerated networking, and only placements that zones define (a PPG or an availability
    set in a zone is another pair of VMs).  ``latency=False`` (loss, jitter) takes every
    run with both zones known, latency basis or not (iperf's UDP tests have none).  What is
    left out is said in ``attrs["held_out"]``: of the runs of the pairs ``only`` ('1→3')
    where given, not counting ``summaries`` (:func:`_compare.summarising_runs`: a console
    beside its full log is one run, as the matrix and the contrasts count it)."""
    say = functools.partial(_gone, only=only, summaries=summaries)
    r = zoned_runs(runs) if latency else runs[runs["src_zone"].notna() & runs["dst_zone"].notna()]
    tool = tool or _widest(r)
    # (a loss or jitter matrix is given the runs that have one: the other tools named are
    # those, as owping's 4 pairs of loss beside fping's 2, which it left unsaid)
    other = r[r["tool"] != tool]
    others = [say(g, "", tool=t) for t, g in other.groupby("tool", sort=True)]
    r = r[r["tool"] == tool]
    r.attrs["other_tools"] = others
    if r.empty:
        return r, tool, basis, msg_size
    if msg_size is None:
        msg_size = _usual_size(r) if latency else _most(r, "msg_size_bytes")
    held: list[str] = []  # what is left out, said (a pair measured at 56 B only was dropped)
    if msg_size is not None:
        # a probe that never came back may leave the size unprinted (fping's timeouts)
        sizes = r["msg_size_bytes"]
        keep = sizes.isna() if msg_size == NO_SIZE else sizes == msg_size
        keep = (keep if latency else keep | r["msg_size_bytes"].isna()).fillna(False)
        # (a run that printed no size, a dead host's fping, is no run of another size); of
        # latency it is left out, and said: a netperf -o run that printed no request size was
        # 1→3's only figure, dropped from the matrix unsaid (groupby drops a missing key)
        for size, gone in r[~keep].groupby("msg_size_bytes", sort=True, dropna=False):
            if pd.isna(size):  # but a run that got no reply back has no latency to leave out
                gone = gone[~(gone["loss_pct"] >= 100).fillna(False)]
            held.append(
                say(gone, "of no printed message size" if pd.isna(size) else f"of {int(size)} B")
            )
        r = r[keep]
    basis = basis or _most(r, "latency_basis")
    if latency:  # a loss or a jitter has no basis: the runs are not split by it
        keep = (r["latency_basis"] == basis).fillna(False)
        for b, gone in r[~keep].groupby("latency_basis", sort=True):
            held.append(say(gone, _OF_BASIS.get(b, f"of {b}")))
        r = r[keep]
    if latency:
        r, alike = _held_alike(r, say)
        held += alike
    r, fixed = _held_fixed(r, say)
    r = r.reset_index(drop=True)
    r.attrs["held_out"] = [h for h in held + fixed if h]
    r.attrs["other_tools"] = [o for o in others if o]
    return r, tool, basis, msg_size if msg_size in (None, NO_SIZE) else int(msg_size)


_OF_BASIS = {
    "rtt": "of round trips",
    "half_rtt": "of half round trips",
    "one_way": "of one-way delays",
}


def _gone(
    gone: pd.DataFrame,
    what: str,
    *,
    tool: str = "",
    only: Sequence[str] = (),
    summaries: Collection[str] = frozenset(),
) -> str:
    """'3 runs of 56 B (1→2, 2→1)': runs a matrix left out, what they are and their pairs;
    'hping3's 1 run (1→3)' with ``tool``; only those of the pairs ``only`` where given, and
    not the ``summaries`` of another run's samples ('' if none is left)."""
    each = [
        f"{a}→{b}"
        for a, b, run in zip(gone["src_zone"], gone["dst_zone"], gone["run_id"].astype(str))
        if run not in summaries
    ]
    each = [p for p in each if p in only] if only else each
    if not each:
        return ""
    pairs = sorted(dict.fromkeys(each))
    runs = " ".join(x for x in (counted(len(each), "run"), what) if x)
    whose = tool + "'s " if tool else ""
    return f"{whose}{runs} ({', '.join(pairs)})"


def _held_alike(r: pd.DataFrame, say=_gone) -> tuple[pd.DataFrame, list[str]]:
    """``r`` at its most common protocol and measure, and what that left out: a netperf
    campaign's UDP_RR at 1→3 was set against TCP_RR at 1→2 as one matrix ('1→3 is 1.01×
    1→2'); a run that names no protocol is kept, and ICMP over IPv6 is ICMP."""
    held: list[str] = []
    for col in ("protocol", "mode"):
        if col not in r:
            continue
        values = (  # an ICMP echo over IPv6 is the same measure as over IPv4: one matrix
            r[col].str.removesuffix("v6")
            if col == "protocol"
            else r[col].map(lambda m: MEASURES.get(m, ""))
        )
        if (v := _most(r.assign(_v=values), "_v")) is None:
            continue
        keep = values.isna() | (values == v)
        for value, gone in r[~keep].groupby(values[~keep], sort=True):
            what = f"over {str(value).upper()}" if col == "protocol" else f"timing {value}"
            held.append(say(gone, what))
        r = r[keep]
    return r, held


# Placements of a pair of VMs that zones do not define, in words.
_PLACED = {
    "same_node": "on one node",
    "ppg": "in a proximity placement group",
    "availability_set": "in an availability set",
    "cross_region": "across regions",
}


def _held_fixed(r: pd.DataFrame, say=_gone) -> tuple[pd.DataFrame, list[str]]:
    """``r`` with all but the zones held fixed (the most common VM size and accelerated
    networking, the placements zones define), and what that left out, one entry a value:
    ``'12 runs with accelerated networking off (1→1)'``."""
    held: list[str] = []
    for col in ("vm_size", "accelerated_networking", "placement"):
        if col == "placement":
            keep = r[col].isna() | r[col].isin(["same_zone", "cross_zone"])
        elif (v := _most(r, col)) is not None:
            keep = r[col].isna() | (r[col] == v)
        else:
            continue
        for value, gone in r[~keep].groupby(col, sort=True):
            what = (
                f"on {side_name(col, value)}"
                if col == "vm_size"
                else _PLACED.get(str(value), f"placed {side_name(col, value)}")
                if col == "placement"
                else f"with {side_name(col, value)}"
            )
            held.append(say(gone, what))
        r = r[keep]
    return r, held


def held_out(cells: pd.DataFrame, *, others: bool = True) -> str:
    """What a zone matrix left out to hold all but the zones fixed, as a sentence ('' when
    nothing): its runs of the matrix's tool in another message size, basis, VM size,
    accelerated networking or placement; with ``others``, the zoned runs of other tools."""
    held = cells.attrs.get("held_out") or []
    tool = cells["tool"].iloc[0] if len(cells) else "the tool"
    said = (
        f"Not in the matrix, to hold all but the zones fixed: {tool}'s " + "; ".join(held) + "."
        if held
        else ""
    )
    if others and (other := cells.attrs.get("other_tools")):
        # a matrix is of one tool: fping's two pairs were 'the slowest zone pair' of a
        # campaign whose hping3 and paping runs measured two more, never named
        said += f" Zone pairs other tools measured (a matrix is of one tool): {'; '.join(other)}."
    return said.strip()


MATRIX_COLUMNS = [
    "src_zone",
    "dst_zone",
    "tool",
    "basis",
    "msg_size_bytes",
    "stat",
    "unit",
    "definition",
    *INTERVAL_CORE,
    "unit_of_analysis",
    "source",
    "n",
    "n_runs",
    "range_low",
    "range_high",
    "bound_low",
    "bound_high",
    "step_us",  # the step its runs print in (Windows ping: whole ms, truncated), or NaN
    "estimable",
    "note",
]


@memo
def zone_pair_medians(
    tables: Tables,
    *,
    tool: str | None = None,
    basis: str | None = None,
    msg_size: int | str | None = None,
    level: float = 0.95,
    stat: str = "p50",
    unit: str = "auto",
) -> pd.DataFrame:
    """One row per (source zone, destination zone): the ``stat`` of ``tool``'s runs, with
    its interval where there are samples.  ``stat`` is a percentile (``"p50"``, the default,
    ``"p99"``, ``"p99.9"``), ``"mean"``, ``"loss"`` (percent of probes lost, the pair's runs
    pooled as total lost / total sent) or ``"jitter"`` (one definition per matrix, the most
    common, named in ``definition``); anything else is a ``ValueError``.  ``tool=None`` takes
    the tool that covers the most pairs (for loss and jitter: among runs that have one),
    ``msg_size=None`` its most common message size (:data:`NO_SIZE`: its runs that printed
    none), ``basis=None`` the basis most of those
    runs printed (the others are left out, not converted); the chosen tool, basis and size
    are columns of the result, ``unit`` the cells' (``us`` or ``%``).  The ``unit`` argument
    is the unit of analysis, as in ``stats.summarize``."""
    kind = stat_kind(stat)
    if kind in ("loss", "jitter"):
        return _other_cells(tables, kind, tool=tool, basis=basis, msg_size=msg_size)
    summaries = summarising_runs(tables)
    runs, tool, basis, msg_size = matrix_runs(
        tables.runs, tool, basis, msg_size, summaries=summaries
    )
    cols = MATRIX_COLUMNS
    if runs.empty:
        return pd.DataFrame(columns=cols)
    pct = latency_percentiles(
        subset(tables, runs), level=level, by=ZONE_BY, quantiles=(quantile_of(stat),), unit=unit
    )
    # The mean stands in for a missing median where the tool printed none (qperf); ``stat``
    # says which.  Any other statistic is shown only where it is known: a p99 cell is never
    # a mean.  Several printed runs of one pair cannot be pooled (a median of medians is no
    # median): the cell is the median of their values, as a contrast's side, and says so.
    out = headline(pct, stat, fallback=stat == "p50").reindex(columns=cols)
    out = _one_cell_a_pair(out)
    out["tool"], out["basis"], out["unit"] = tool, basis, "us"
    out = out.sort_values(["src_zone", "dst_zone"], kind="stable").reset_index(drop=True)
    out.attrs["held_out"] = runs.attrs.get("held_out", [])
    out.attrs["other_tools"] = runs.attrs.get("other_tools", [])
    return out


def _one_cell_a_pair(cells: pd.DataFrame) -> pd.DataFrame:
    """One cell a zone pair: where several runs printed the pair's figure apart (ethr's
    latency console, a block a second), the median of their values, the range across them
    and how many; the matrix held four cells of 1→2 and page 20 said 'over 4 zone pairs:
    fastest 1→2 at 40.31 µs, slowest 1→2 at 50.31 µs'."""
    key = ["src_zone", "dst_zone"]
    if cells.empty or not cells.duplicated(key).any():
        return cells.copy()
    rows = []
    for _, g in cells.groupby(key, sort=False, dropna=False):
        g = g[g["stat"] == g["stat"].mode().iloc[0]] if g["stat"].nunique() > 1 else g
        if len(g) == 1 or g["estimate"].notna().sum() < 2:
            rows.append(g.iloc[0])
            continue
        v = g["estimate"].dropna()
        one = g.iloc[0].copy()
        word = STAT_WORDS.get(str(one["stat"]), str(one["stat"]))
        one["estimate"], one["range_low"], one["range_high"] = v.median(), v.min(), v.max()
        one[["ci_low", "ci_high", "level"]] = np.nan
        one["n_runs"] = int(g["n_runs"].fillna(1).sum())
        one["n"] = g["n"].sum(min_count=1)
        one["unit_of_analysis"] = "printed value"
        one["method"] = f"median of {len(v)} runs' printed {word}s"
        one["note"] = (
            f"the median of {len(v)} runs' printed {word}s (range {fmt_range(v.min(), v.max())}"
            "): printed values are not pooled, no interval"
        )
        rows.append(one)
    return pd.DataFrame(rows).reset_index(drop=True)


def end_to_end_runs(tables: Tables) -> pd.DataFrame:
    """The runs whose loss or jitter is of their two ends, each counted once: not a traced
    path's hops, and not a console summarising its own full log, whose probes were counted
    twice (synthetic-westeurope's 1→2: 12 runs of 114,604 probes where 6 runs sent 57,302)."""
    gone = per_hop_runs(tables.summaries) | summarising_runs(tables) | totals_runs(tables.runs)
    return executions_only(tables.runs[~tables.runs["run_id"].isin(gone)])


def totals_runs(runs: pd.DataFrame) -> set[str]:
    """Runs that total other runs of their output (fping ``-s``: the echoes of every target,
    ``mode`` ``totals``), where those runs are in ``runs``: counted beside them, a pair's
    probes were counted twice ('1→3 lost 55 % of 40 probes over 3 runs' of two targets' 10
    each and their total of 20).  A total with no target's run beside it stays."""
    if "mode" not in runs.columns or not runs["mode"].eq("totals").any():
        return set()
    whole = runs["mode"].eq("totals").fillna(False).to_numpy()
    where = runs[["source_path", "block"]].astype("string").fillna("<NA>")
    parts = set(where[~whole].itertuples(index=False, name=None))
    return {
        str(rid)
        for rid, w in zip(
            runs.loc[whole, "run_id"], where[whole].itertuples(index=False, name=None)
        )
        if w in parts
    }


def _other_cells(
    tables: Tables, kind: str, *, tool: str | None, basis: str | None, msg_size: int | None
) -> pd.DataFrame:
    """Loss or jitter cells of the runs that have one (never a traced path's hops)."""
    runs = end_to_end_runs(tables)
    if kind == "loss":
        has = runs["packets_sent"].notna() | runs["loss_pct"].notna()
        has |= runs["run_id"].isin(tables.samples.loc[tables.samples["status"] != "ok", "run_id"])
        has |= runs["run_id"].isin(tables.samples["run_id"]) & runs["latency_basis"].notna()
    else:
        jit = tables.summaries["metric"].isin(["jitter", "ipdv"])
        has = runs["run_id"].isin(tables.summaries.loc[jit, "run_id"])
    runs, tool, basis, msg_size = matrix_runs(flow(runs[has]), tool, basis, msg_size, latency=False)
    if runs.empty:
        return pd.DataFrame(columns=MATRIX_COLUMNS)
    t = subset(tables, runs)
    cells = loss_cells(t, runs) if kind == "loss" else jitter_cells(t, runs)
    if cells.empty:
        return pd.DataFrame(columns=MATRIX_COLUMNS)
    cells = cells.assign(
        tool=tool,
        basis=basis,
        msg_size_bytes=msg_size,
        stat=kind,
        unit="%" if kind == "loss" else "us",
    )
    cells = cells.reindex(columns=MATRIX_COLUMNS).reset_index(drop=True)
    cells.attrs["held_out"] = runs.attrs.get("held_out", [])
    cells.attrs["other_tools"] = runs.attrs.get("other_tools", [])
    # the bases the pooled runs printed their latency in (loss has none: page 20 says so)
    cells.attrs["bases"] = sorted(set(runs["latency_basis"].dropna().astype(str)))
    return cells


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
    stat: str = "p50",
) -> pd.DataFrame:
    """A→B against B→A (ratio of run medians, interval, adjusted p) for every zone pair
    measured both ways with samples.  The run is the unit (``stats.asymmetry``): Welch t on
    log run medians with ≥ 2 runs a direction; with 1 run in a direction, the between-run
    variance of the replicated cells of the same matrix (same-zone cells included), named in
    ``assumption``, or no test at all (``testable`` False, the note says why).
    ``asymmetric`` is true only for a run-level test with ``p_adj < 1 - level``; a
    packet-level test (``unit="packet"``) is shown but never marks a pair.  ``caption`` says
    each row in plain words: unit, runs per side, method.  Empty when no pair was measured in
    both directions (printed statistics cannot be compared this way), and for a ``stat``
    that is no latency (loss, jitter: :func:`latency_stat`)."""
    runs, tool, basis, msg_size = matrix_runs(tables.runs, tool, basis, msg_size)
    cols = ASYMMETRY_COLUMNS
    if runs.empty or basis is None or not latency_stat(stat):
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


def latency_stat(stat: str) -> bool:
    """Whether a matrix of ``stat`` holds latencies (a percentile or the mean), which the
    direction test compares; loss and jitter are no latencies.  A ``ValueError`` names the
    accepted statistics."""
    return stat_kind(stat) in ("quantile", "mean")


def matrix_label(medians: pd.DataFrame, stat: str = "p50") -> str:
    """The colour-bar label of a :func:`zone_pair_medians` frame: ``'p99 rtt [µs]'``,
    ``'loss [%]'``, ``'jitter (RFC 3550) [µs]'``."""
    basis = medians["basis"].dropna().iloc[0] if medians["basis"].notna().any() else None
    defs = medians["definition"].dropna() if "definition" in medians.columns else []
    label = stat_label(stat, basis, defs.iloc[0] if len(defs) else None)
    if stat == "p50" and len(medians) and (medians["stat"] != "p50").any():
        label = label.replace("median", "median (mean where only a mean was printed)")
    return label


def matrix_style(medians: pd.DataFrame, stat: str = "p50") -> dict[str, object]:
    """Keyword arguments of ``plots.zone_matrix`` for a matrix of ``stat``: its colour-bar
    label (:func:`matrix_label`); latencies and jitter on a log colour scale, loss on a
    linear one from 0 % (a lossless pair is a cell, and the lowest colour means none)."""
    style: dict[str, object] = {"label": matrix_label(medians, stat)}
    if stat_kind(stat) == "loss":
        style.update(log_color=False, vmin=0.0)
    return style


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
    shown = {"us": "µs", "%": "%"}.get(str(cell.get("unit")), "µs")
    head = f"{cell['src_zone']}→{cell['dst_zone']}: {cell.get('stat', 'p50')} " + (
        f"{float(cell['estimate']):.4g} {shown}"
        if pd.notna(cell.get("estimate"))
        else fmt_bound(cell) or "n/a"  # a Windows cell among time<1ms replies: '< 1000 µs'
    )
    how = f"unit: {unit or 'printed value'}" + (
        f", {counted(int(runs), 'run')}" if pd.notna(runs) else ""
    )
    if cell.get("method"):
        how += f", {cell['method']}"
    if cell["src_zone"] == cell["dst_zone"]:
        direction = "same zone: no direction to compare"
    elif cell.get("stat") in ("loss", "jitter"):
        direction = "no direction test: it compares latencies"
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
