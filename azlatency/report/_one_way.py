"""One-way delay beside the round trip (issue 40), for the cross-tool page.

A one-way delay is one direction's trip: receive time on one host minus send time on the
other, so it carries the offset between the two clocks.  The two directions carry it with
opposite signs, so forward + reverse is free of it, and a round trip is forward + reverse +
the far end's turnaround.  Half a round trip (``half_rtt``) is no one-way delay.

Where the figures come from:

* runs whose ``latency_basis`` is ``one_way``: owping's two sessions (``direction`` forward:
  client → server, reverse: server → client) and iperf 2's ``--trip-times``/UDP ``-e``
  receivers (forward);
* runs with a send/receive split of their round trips: irtt's ``send_delay`` /
  ``receive_delay``, twping's send and reflect times (metrics ``send_delay`` and
  ``receive_delay``), whose own ``rtt`` is measured by the same probes.

The clock evidence is what the tools print: owping/twping's ``(err=...)`` (metric
``clock_error``, ``send_clock_error``, ``receive_clock_error``) or ``(unsync)``
(``labels.clock_sync``), irtt's ``clock_sync: unknown`` (it cannot know).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..schema import Tables
from ._data import executions_only, labels
from ._show import counted, fmt

CLOCK_METRICS = ("clock_error", "send_clock_error", "receive_clock_error")
SPLIT = {"send_delay": "forward", "receive_delay": "reverse"}
COLUMNS = [
    "tool",
    "client",
    "server",
    "forward_us",
    "reverse_us",
    "stat",
    "sum_us",
    "rtt_us",
    "rtt_from",
    "rtt_minus_sum_us",
    "n_runs",
    "clock_sync",
    "clock_error_us",
    "verdict",
    "note",
]


def _end(runs: pd.DataFrame, side: str) -> pd.Series:
    """A run's ``src``/``dst`` end by name, else by address ("?" when the log says neither)."""
    host, ip = runs.get(f"{side}_host"), runs.get(f"{side}_ip")
    out = pd.Series("?", index=runs.index, dtype=object)
    for col in (ip, host):
        if col is not None:
            out = col.astype("string").fillna(out.astype("string")).astype(object)
    return out


def _figure(s: pd.DataFrame, run_id: str, metric: str) -> tuple[float, str]:
    """A run's median of ``metric`` (its mean when it printed no median: iperf 2), printed
    first, else computed."""
    rows = s[(s["run_id"] == run_id) & (s["metric"] == metric) & s["value"].notna()]
    for stat in ("p50", "mean"):
        pick = rows[rows["stat"] == stat].sort_values("source", key=lambda x: x != "reported")
        if len(pick):
            return float(pick["value"].iloc[0]), stat
    return np.nan, ""


def has_one_way(tables: Tables) -> bool:
    """Whether any run has one-way figures (what :func:`one_way_figures` reads)."""
    s = tables.summaries
    return bool(
        tables.runs["latency_basis"].eq("one_way").any() or s["metric"].isin(list(SPLIT)).any()
    )


def one_way_figures(tables: Tables) -> pd.DataFrame:
    """One row per run and direction: ``forward``/``reverse`` one-way median of the run,
    the statistic it is, the run's own round trip (irtt, twping) and its clock evidence."""
    runs = executions_only(tables.runs)  # a window beside its whole run would count twice
    s = tables.summaries
    split_ids = set(s.loc[s["metric"].isin(list(SPLIT)), "run_id"])
    one = runs[(runs["latency_basis"] == "one_way") | runs["run_id"].isin(split_ids)]
    if one.empty:
        return pd.DataFrame()
    lab = labels(one)
    sync = lab["clock_sync"] if "clock_sync" in lab.columns else pd.Series(None, index=one.index)
    client, server = _end(one, "src"), _end(one, "dst")
    rows = []
    for i, r in one.iterrows():
        clock = s[(s["run_id"] == r["run_id"]) & s["metric"].isin(CLOCK_METRICS)]["value"]
        base = {
            "run_id": r["run_id"],
            "tool": r["tool"],
            "client": client[i],
            "server": server[i],
            "clock_sync": sync[i] if isinstance(sync[i], str) else "unknown",
            "clock_error_us": float(clock.max()) if len(clock) else np.nan,
        }
        if r["latency_basis"] == "one_way":
            value, stat = _figure(s, r["run_id"], "one_way")
            way = "reverse" if r.get("direction") == "reverse" else "forward"
            rows.append({**base, "way": way, "value": value, "stat": stat, "rtt": np.nan})
            continue
        rtt, _ = _figure(s, r["run_id"], "rtt")
        for metric, way in SPLIT.items():
            value, stat = _figure(s, r["run_id"], metric)
            rows.append({**base, "way": way, "value": value, "stat": stat, "rtt": rtt})
    return pd.DataFrame(rows)


def _rtt_beside(tables: Tables, a: str, b: str, skip: set[str]) -> tuple[float, str]:
    """The median round trip other runs measured between hosts ``a`` and ``b`` (either way
    round): the median of their run medians, and which tools."""
    runs = tables.runs[(tables.runs["latency_basis"] == "rtt") & ~tables.runs["run_id"].isin(skip)]
    src, dst = _end(runs, "src"), _end(runs, "dst")
    same = runs[((src == a) & (dst == b)) | ((src == b) & (dst == a))]
    vals = [
        (_figure(tables.summaries, rid, "rtt")[0], t)
        for rid, t in zip(same["run_id"], same["tool"])
    ]
    vals = [(v, t) for v, t in vals if np.isfinite(v)]
    if "?" in (a, b) or not vals:
        return np.nan, ""
    tools = sorted({t for _, t in vals})
    return float(
        np.median([v for v, _ in vals])
    ), f"{', '.join(tools)} ({counted(len(vals), 'run')})"


def verdict(tool: str, sync: set[str], err: float, *, both_ways: bool = True) -> str:
    """The clock evidence in one sentence."""
    if not both_ways and sync <= {"unknown"}:
        return (
            f"clock sync unknown ({tool} does not print it): a one-way figure carries "
            "whatever offset the two clocks had, and with one direction nothing cancels it"
        )
    if sync == {"sync"} and np.isfinite(err):
        return (
            f"clocks synchronized within ±{fmt(err)} ({tool} err={err / 1000:.3g} ms): the "
            "one-way figures are good to that error"
        )
    if "unsync" in sync:
        return (
            f"clocks not synchronized ({tool} printed (unsync)): each one-way figure may carry "
            "the clock offset; their sum does not (the offset cancels)"
        )
    return (
        f"clock sync unknown ({tool} cannot tell): one-way figures may carry a clock offset; "
        "their sum is still the round trip minus server time"
    )


def one_way_notes(tables: Tables) -> pd.DataFrame:
    """One row per tool and pair of hosts (client, server) with one-way figures: the one-way
    medians each way (``forward``: client → server), their sum, the round trip measured
    beside them (the same probes for irtt and twping, else other tools' runs between the
    same hosts), round trip minus the sum (the far end's turnaround, and rounding: owping's
    medians are bucket-rounded), the clock evidence and a ``verdict`` sentence.  Several runs
    of a pair: the median of their figures.  Empty when no run has one-way figures."""
    fig = one_way_figures(tables)
    # a session with no delay (owping interrupted before any packet: "nan/nan/nan ms,
    # (err=0 ms)") says nothing about the path, nor about the clocks of the others
    fig = fig[fig["value"].notna()] if len(fig) else fig
    if fig.empty:
        return pd.DataFrame(columns=COLUMNS)
    rows = []
    for (tool, a, b), g in fig.groupby(["tool", "client", "server"], sort=True):
        way = {w: g.loc[g["way"] == w, "value"].dropna() for w in ("forward", "reverse")}
        fwd = float(way["forward"].median()) if len(way["forward"]) else np.nan
        rev = float(way["reverse"].median()) if len(way["reverse"]) else np.nan
        rtt, rtt_from = float(g["rtt"].median()), f"the same probes ({tool})"
        if not np.isfinite(rtt):
            rtt, rtt_from = _rtt_beside(tables, a, b, set(g["run_id"]))
        total = fwd + rev
        stats_used = sorted(set(g["stat"]) - {""})
        rows.append(
            {
                "tool": tool,
                "client": a,
                "server": b,
                "forward_us": fwd,
                "reverse_us": rev,
                "stat": "/".join(stats_used),
                "sum_us": total,
                "rtt_us": rtt,
                "rtt_from": rtt_from or "no round trip between these hosts",
                "rtt_minus_sum_us": rtt - total,
                "n_runs": g["run_id"].nunique(),
                "clock_sync": "/".join(sorted(set(g["clock_sync"]))),
                "clock_error_us": float(g["clock_error_us"].max()),
                "verdict": verdict(
                    tool,
                    set(g["clock_sync"]),
                    float(g["clock_error_us"].max()),
                    both_ways=bool(np.isfinite(rev) and np.isfinite(fwd)),
                ),
                "note": _note(g, fwd, rev),
            }
        )
    return pd.DataFrame(rows, columns=COLUMNS)


def _note(g: pd.DataFrame, fwd: float, rev: float) -> str:
    parts = []
    if not np.isfinite(rev):
        parts.append("one direction only: no sum, no comparison with a round trip")
    if "mean" in set(g["stat"]):
        parts.append("a mean where the tool printed no median")
    if g["run_id"].nunique() > 1:
        parts.append(f"median of {g['run_id'].nunique()} runs' figures")
    return "; ".join(parts)


def one_way_markdown(notes: pd.DataFrame) -> str:
    """One bullet per row of :func:`one_way_notes`: the two directions, their sum against
    the round trip, and the clock verdict."""
    lines = []
    for r in notes.itertuples():
        head = f"**{r.tool}**, {r.client} → {r.server}: forward {fmt(r.forward_us)}"
        if np.isfinite(r.reverse_us):
            head += f", reverse {fmt(r.reverse_us)}, sum {fmt(r.sum_us)}"
        if np.isfinite(r.rtt_us) and np.isfinite(r.sum_us):
            head += f" against a round trip of {fmt(r.rtt_us)} ({r.rtt_from})"
        lines.append(f"- {head}; {r.verdict}.")
    return "\n".join(lines)


def zone_figures(tables: Tables, runs: pd.DataFrame, pairs: pd.Series) -> str:
    """What ``runs`` (one tool's one-way sessions, each with its zone ``pairs`` as its data
    flowed: '2→1') measured, for a zone answer that holds no one-way delay: each pair's
    median and the clocks' evidence, and where both directions of two zones are there,
    whether they are told apart: '2→1: median 100 µs; 1→2: median 100 µs; clocks not
    synchronized (owping printed (unsync)): ...'.  'How slow is zone 2 to zone 1?' was
    answered 'no figure' of owping's session that printed 0.1 ms."""
    s = tables.summaries
    value = {rid: _figure(s, rid, "one_way")[0] for rid in runs["run_id"]}
    each: dict[str, float] = {}
    for pair in sorted(set(pairs)):
        got = [value[rid] for rid in runs.loc[pairs == pair, "run_id"] if np.isfinite(value[rid])]
        each[pair] = float(np.median(got)) if got else np.nan
    said = [
        f"{p}: median {fmt(v)}" if np.isfinite(v) else f"{p}: no delay" for p, v in each.items()
    ]
    clock = s[s["run_id"].isin(runs["run_id"]) & s["metric"].isin(CLOCK_METRICS)]["value"]
    lab = labels(runs)
    sync = set(lab["clock_sync"].dropna()) if "clock_sync" in lab.columns else set()
    err = float(clock.max()) if len(clock) else np.nan
    tool = str(runs["tool"].iloc[0])
    width = pd.to_numeric(lab.get("bucket_width_s", pd.Series(dtype=float)), errors="coerce")
    bucket = float(width.max()) * 1e6 if width.notna().any() else 0.0
    if bucket:  # owping's medians are of its histogram's buckets (0.1 ms printed as 0.1)
        said.append(f"each median known to {tool}'s {fmt(bucket)} bucket")
    return "; ".join([*said, _clocks(tool, sync or {"unknown"}, err, each, bucket)])


def _clocks(tool: str, sync: set[str], err: float, each: dict[str, float], bucket: float) -> str:
    """The clocks' evidence for one-way figures of zone pairs, and for a pair measured both
    ways (``each``: '1→2' and '2→1'), whether the two differ by more than both clocks'
    errors and a bucket (``bucket``, µs: how finely the tool's medians are known)."""
    both = [
        (p, q) for p in each for q in each
        if p < q and p.split("→") == q.split("→")[::-1] and np.isfinite(each[p] + each[q])
    ]  # fmt: skip
    if sync == {"sync"} and np.isfinite(err):
        text = f"clocks synchronized within ±{fmt(err)} ({tool}'s err)"
        for p, q in both:
            gap, room = abs(each[p] - each[q]), 2 * err + bucket
            slower = p if each[p] > each[q] else q
            text += f"; {p} and {q} differ by {fmt(gap)}, " + (
                f"more than both clocks' errors{' and a bucket' if bucket else ''} "
                f"({fmt(room)}): {slower} is the slower way"
                if gap > room
                else f"within both clocks' errors{' and a bucket' if bucket else ''} "
                f"({fmt(room)}): not told apart"
            )
        return text
    text = (
        f"clocks not synchronized ({tool} printed (unsync))"
        if "unsync" in sync
        else f"clock sync unknown ({tool} does not say)"
    )
    text += ": a one-way figure may carry the clocks' offset"
    for p, q in both:
        text += (
            f"; {p} and {q} are not told apart by it (each way carries the offset, with "
            f"opposite signs; their sum, {fmt(each[p] + each[q])}, is free of it)"
        )
    return text
