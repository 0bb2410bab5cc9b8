"""One iperf3 test, whatever dialect it came from, and how it becomes a :class:`Run`.

The text and JSON readers fill a :class:`Test`: run facts (``meta``), interval rows, the
end-of-test totals (:class:`Total`, one per printed summary line or JSON ``end`` object) and
CPU figures.  :func:`finish` turns it into a run with the summaries of ``docs/tools/iperf3.md``.

Two words keep the sides apart.  ``side`` is where a figure was measured — ``sender`` or
``receiver`` of the data.  ``flow`` is which data flow it belongs to: ``""`` for the test's
main flow, ``"reverse"`` for the server-to-client flow of a ``--bidir`` test (iperf3's own
``*_bidir_reverse`` naming).  A plain ``-R`` test has one flow (``direction = reverse``).
"""

from __future__ import annotations

import math
import operator
import statistics
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from .._base import Run, Summary

TOOL = "iperf3"
INT64_MAX = 2**63 - 1

# The CPU figures of a test, as JSON's end.cpu_utilization_percent names them.
CPU_KEYS = (
    "host_total",
    "host_user",
    "host_system",
    "remote_total",
    "remote_user",
    "remote_system",
)
# (JSON key, sample column, "f" a float / "i" a whole number) of an interval's stream row
ROW_KEYS = (
    ("bytes", "bytes", "i"),
    ("bits_per_second", "bits_per_second", "f"),
    ("retransmits", "retransmits", "i"),
    ("snd_cwnd", "cwnd_bytes", "i"),
    ("rtt", "tcp_rtt_us", "f"),
    ("rttvar", "tcp_rttvar_us", "f"),
    ("lost_packets", "lost_packets", "i"),
    ("packets", "packets", "i"),
)

SAMPLE_KEYS = (
    "seq",
    "kind",
    "status",
    "stream",
    "role",
    "start_s",
    "end_s",
    "bytes",
    "bits_per_second",
    "retransmits",
    "cwnd_bytes",
    "tcp_rtt_us",
    "tcp_rttvar_us",
    "jitter_us",
    "lost_packets",
    "packets",
    "message",
)


@dataclass
class Total:
    """One end-of-test figure set: a ``sender``/``receiver`` summary line or JSON object."""

    side: str  # "sender" | "receiver"
    stream: str  # "SUM" or the stream (socket) id
    flow: str = ""  # "" or "reverse" (--bidir)
    start_s: float | None = None
    end_s: float | None = None
    seconds: float | None = None
    bytes: int | None = None
    bps: float | None = None
    retransmits: int | None = None
    jitter_us: float | None = None
    lost: int | None = None
    packets: int | None = None
    loss_pct: float | None = None
    out_of_order: int | None = None
    cwnd_max: int | None = None
    rtt_min: float | None = None
    rtt_mean: float | None = None
    rtt_max: float | None = None
    line: int | None = None  # text: where it was printed

    @property
    def empty(self) -> bool:
        """Nothing measured: iperf3 prints 0 bytes for a side it has no results from."""
        return not self.bytes and not self.packets and not self.lost


@dataclass
class Test:
    meta: dict[str, Any] = field(default_factory=dict)
    rows: list[dict[str, Any]] = field(default_factory=list)
    # Or, from a clean -J document, the same rows as typed columns (iperf3/jsoncols.py).
    columns: dict[str, Any] | None = None
    totals: list[Total] = field(default_factory=list)
    cpu: dict[str, float] = field(default_factory=dict)  # host_total, remote_user, ...
    warnings: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)  # iperf3's own error / interrupt messages
    labels: dict[str, Any] = field(default_factory=dict)
    line_start: int = 1
    line_end: int = 1
    has_end: bool = False  # the end-of-test summary was printed
    # Why the end is not whole (a summary line or 'iperf Done.' missing): complete = False.
    cut: list[str] = field(default_factory=list)

    @property
    def has_data(self) -> bool:
        return bool(self.rows or self.totals or self.columns)


# ---------------------------------------------------------------------------------------------
# row and flow helpers


def local_side(role: str | None, direction: str | None) -> str | None:
    """Which side of the (main) flow the host that printed the log is on."""
    if role is None:
        return None
    sends = (role == "client") != (direction == "reverse")
    return "sender" if sends else "receiver"


def flow_of(role: str | None, side: str | None, bidir: bool) -> str:
    """``--bidir``: the client sends the main flow and receives the reverse one; the server
    the other way round.  Without ``--bidir`` there is one flow."""
    if not bidir or side is None:
        return ""
    client_sends = side == "sender"
    if role == "server":
        client_sends = not client_sends
    return "" if client_sends else "reverse"


def _suffix(flow: str) -> str:
    return "_reverse" if flow == "reverse" else ""


# ---------------------------------------------------------------------------------------------
# totals → summaries


def _combine(parts: list[Total], side: str, flow: str) -> Total:
    """Several stream totals of one side and flow with no SUM line: add them up."""

    def add(attr):
        vals = [getattr(t, attr) for t in parts if getattr(t, attr) is not None]
        return sum(vals) if vals else None

    jit = [t.jitter_us for t in parts if t.jitter_us is not None]
    starts = [t.start_s for t in parts if t.start_s is not None]
    ends = [t.end_s for t in parts if t.end_s is not None]
    out = Total(
        side,
        "SUM",
        flow,
        min(starts) if starts else None,
        max(ends) if ends else None,
        None,
        add("bytes"),
        add("bps"),
        add("retransmits"),
        sum(jit) / len(jit) if jit else None,
        add("lost"),
        add("packets"),
    )
    if out.lost is not None and out.packets:
        out.loss_pct = 100.0 * out.lost / out.packets
    return out


def _pick(totals: list[Total], side: str, flow: str) -> Total | None:
    mine = [t for t in totals if t.side == side and t.flow == flow]
    sums = [t for t in mine if t.stream == "SUM"]
    if sums:
        return sums[-1]
    if len(mine) == 1:
        return mine[0]
    by_stream = {t.stream: t for t in mine}
    return _combine(list(by_stream.values()), side, flow) if by_stream else None


def _tcp_figures(run: Run, totals: list[Total], flow: str) -> None:
    """Kernel RTT and cwnd from per-stream sender totals (JSON): min of the minima, max of the
    maxima, mean of the stream means (every stream has one RTT sample per interval)."""
    streams = [t for t in totals if t.side == "sender" and t.flow == flow and t.stream != "SUM"]
    sfx = _suffix(flow)
    # iperf3 writes 0 when it has no kernel figure (the remote side of a -R test).
    measured = [t for t in streams if t.rtt_mean]
    if measured:
        means = [t.rtt_mean for t in measured]
        mins = [t.rtt_min for t in measured if t.rtt_min is not None]
        maxs = [t.rtt_max for t in measured if t.rtt_max is not None]
        run.add(f"tcp_rtt{sfx}", "mean", sum(means) / len(means), "us", n=len(means))
        run.add(f"tcp_rtt{sfx}", "min", min(mins) if mins else None, "us")
        run.add(f"tcp_rtt{sfx}", "max", max(maxs) if maxs else None, "us")
    cwnds = [t.cwnd_max for t in streams if t.cwnd_max]
    if cwnds:
        run.add(f"cwnd{sfx}", "max", max(cwnds), "bytes")


def _picks(totals: list[Total], flow: str) -> dict[str, Total | None]:
    """The total of each side of ``flow``, as printed (:func:`_pick`)."""
    return {"sender": _pick(totals, "sender", flow), "receiver": _pick(totals, "receiver", flow)}


def _flow_summaries(
    test: Test, run: Run, flow: str, picked: dict[str, Total | None]
) -> dict[str, Total | None]:
    """``picked``: :func:`_picks` of the flow, which this may change (a side not reported)."""
    sfx = _suffix(flow)
    snd, rcv = picked["sender"], picked["receiver"]
    # A client that ended its test got the other end's results: a 0 there is measured (a
    # UDP receiver that got no datagram: 3.12 prints '0.00 Bytes  0.00 bits/sec ... 0/0').
    finished = test.meta.get("role") == "client" and not test.errors and not test.cut
    for side, mine, other in (("sender", snd, rcv), ("receiver", rcv, snd)):
        if mine is not None and mine.empty and other is not None and not other.empty:
            if finished:
                run.warnings.append(
                    f"the {side} side{sfx.replace('_', ' ')} measured 0 bytes: stored as 0"
                )
                continue
            # An interrupted client, and every server, print 0 for the side they got no
            # results from: that is "not reported", not a measured zero.
            picked[side] = None
            if test.meta.get("role") == "client":
                run.warnings.append(
                    f"the {side} side{sfx.replace('_', ' ')} printed 0 bytes (no results from "
                    "the other end, e.g. an interrupted test): not read"
                )
    for side, t in picked.items():
        if t is None:
            continue
        run.add(f"throughput_{side}{sfx}", "mean", t.bps, "bps")
        run.add(f"transfer_{side}{sfx}", "total", t.bytes, "bytes")
        if side == "sender":
            run.add(f"retransmits{sfx}", "total", t.retransmits, "count")
            run.add(f"datagrams_sent{sfx}", "total", t.packets, "count")  # UDP
        else:
            run.add(f"jitter{sfx}", "rfc3550", t.jitter_us, "us")  # vocabulary.md
            run.add(f"lost_datagrams{sfx}", "total", t.lost, "count")
            if t.lost is not None:
                run.add(f"datagrams{sfx}", "total", t.packets, "count")
            if t.packets != 0:  # '0/0 (0%)' is a share of nothing, not a loss of 0
                run.add(f"loss{sfx}", "mean", t.loss_pct, "pct")
            run.add(f"out_of_order{sfx}", "total", t.out_of_order, "count")
    _tcp_figures(run, test.totals, flow)
    return picked


def _udp_counts(meta: dict[str, Any], picked: dict[str, Total | None], warnings: list[str]):
    snd, rcv = picked["sender"], picked["receiver"]
    if snd is not None and snd.packets is not None:
        meta["packets_sent"] = snd.packets
    if rcv is None or rcv.lost is None or rcv.packets is None:
        return
    meta.setdefault("packets_sent", rcv.packets)
    meta["packets_received"] = max(rcv.packets - max(rcv.lost, 0), 0)
    if rcv.out_of_order is not None:
        meta["out_of_order"] = rcv.out_of_order
    pct = rcv.loss_pct
    if pct is None and rcv.packets:
        pct = 100.0 * rcv.lost / rcv.packets
    if rcv.packets == 0 and snd is not None and snd.packets:
        # iperf3 counts loss from the sequence numbers it received: none received is '0/0
        # (0%)' (3.12), whatever was sent.
        pct = 100.0
        warnings.append(
            f"the receiver got none of the {snd.packets} datagrams sent (iperf3 prints 0/0 "
            "(0%)): loss_pct 100"
        )
    if pct is not None and 0 <= pct <= 100:
        meta["loss_pct"] = pct
    elif pct is not None:
        # Out-of-order datagrams make iperf3's lost count, hence the percentage, negative.
        warnings.append(f"loss {pct}% is outside 0-100 (out-of-order datagrams): not a run value")


# ---------------------------------------------------------------------------------------------
# computed statistics from intervals


_Groups = dict[tuple[str, str | None], dict[str, list[float]]]


def _row_groups(rows: list[dict[str, Any]]) -> _Groups:
    """The ``ok`` intervals' bits_per_second by (flow, side), then stream."""
    groups: _Groups = {}
    for r in rows:
        bps = r.get("bits_per_second")
        if bps is None or r.get("status") != "ok":
            continue
        key = (r.get("_flow", ""), r.get("role"))
        if (streams := groups.get(key)) is None:  # (setdefault would make a {} per row)
            streams = groups[key] = {}
        if (values := streams.get(r["stream"])) is None:
            values = streams[r["stream"]] = []
        values.append(bps)
    return groups


def _column_groups(columns: dict[str, Any]) -> _Groups:
    """:func:`_row_groups` of rows held as columns (``jsoncols``: NaN is an absent value)."""
    groups: _Groups = {}
    bps = columns.get("bits_per_second")
    if bps is None:
        return groups
    role = columns.get("role")
    sides = [None] * len(bps) if role is None else role.tolist()
    for status, value, flow, side, stream in zip(
        columns["status"].tolist(),
        bps.tolist(),
        columns["_flow"],
        sides,
        columns["stream"].tolist(),
        strict=True,
    ):
        if status == "ok" and value == value:
            groups.setdefault((flow, side), {}).setdefault(stream, []).append(value)
    return groups


def _computed(run: Run, groups: _Groups) -> None:
    """mean/min/max/p50 of the ``ok`` intervals' bits_per_second, per flow and side, over the
    SUM rows (or the single stream's)."""
    for (flow, side), streams in groups.items():
        values = streams.get("SUM")
        if values is None:
            if len(streams) != 1:
                continue  # several streams and no SUM: a total per interval is not printed
            values = next(iter(streams.values()))
        metric = f"throughput_{side}{_suffix(flow)}" if side else f"throughput{_suffix(flow)}"
        n = len(values)
        # (as run.add makes them, none of the four None: made directly, not by way of its
        # keywords, four times a test)
        run.summaries += (
            Summary(metric, "mean", float(math.fsum(values) / n), "bps", "computed", n=n),
            Summary(metric, "min", float(min(values)), "bps", "computed", n=n),
            Summary(metric, "p50", float(statistics.median(values)), "bps", "computed", n=n),
            Summary(metric, "max", float(max(values)), "bps", "computed", n=n),
        )


# ---------------------------------------------------------------------------------------------


_INT_KEYS = {"seq", "bytes", "retransmits", "cwnd_bytes", "lost_packets", "packets"}
_FLOAT_KEYS = {"start_s", "end_s", "bits_per_second", "tcp_rtt_us", "tcp_rttvar_us", "jitter_us"}


def _column(key: str, values: list[Any]) -> Any:
    """Typed arrays built directly: a server log has hundreds of small runs, and pandas'
    type inference per column would cost more than reading the text."""
    n = len(values)
    if key in _INT_KEYS:
        try:  # most columns have no None: the list at once (a None is a TypeError)
            data = np.array(values, dtype=np.int64)
        except TypeError:
            data = None
        if data is not None and data.shape == (n,):
            return pd.arrays.IntegerArray(data, np.zeros(n, dtype=bool))
        mask = np.fromiter((v is None for v in values), dtype=bool, count=len(values))
        data = np.fromiter(
            (0 if v is None else v for v in values), dtype=np.int64, count=len(values)
        )
        return pd.arrays.IntegerArray(data, mask)
    if key in _FLOAT_KEYS:
        floats = np.array(values, dtype=np.float64)  # None is NaN, as below
        if floats.shape == (n,):
            return floats
        return np.fromiter(
            (np.nan if v is None else v for v in values), dtype=np.float64, count=len(values)
        )
    arr = np.empty(len(values), dtype=object)  # the schema makes it str once, after concat
    arr[:] = values
    return arr


def _present(rows: list[dict[str, Any]]) -> tuple[str, ...]:
    """The sample columns of ``rows``: ``seq``, ``kind``, ``status`` and every column some
    row has a value in."""
    keys = set().union(*rows)
    first = rows[0]
    return tuple(
        key
        for key in SAMPLE_KEYS
        if key in ("seq", "kind", "status")
        or (
            key in keys
            and (first.get(key) is not None or any(r.get(key) is not None for r in rows))
        )
    )


def _samples(rows: list[dict[str, Any]], columns: dict[str, Any] | None) -> pd.DataFrame | None:
    if columns is not None:
        return pd.DataFrame({key: columns[key] for key in SAMPLE_KEYS if key in columns})
    if not rows:
        return None
    return pd.DataFrame({key: _column(key, [r.get(key) for r in rows]) for key in _present(rows)})


def sample_frames(tests: list[Test]) -> list[pd.DataFrame | tuple[pd.DataFrame, int, int] | None]:
    """Each test's samples as :func:`_samples` makes them, but one frame for all the tests
    with the same columns, handed out as (frame, a, b), the test's rows ``a:b`` of it
    (``Run.share``): a server log of 1,200 short tests spent a third of its read building
    1,200 small frames, and as much again cutting one frame into 1,200 for the reader to join."""
    out: list[pd.DataFrame | tuple[pd.DataFrame, int, int] | None] = []
    groups: dict[tuple[str, ...], list[Test]] = {}
    places: dict[tuple[str, ...], list[int]] = {}
    for k, t in enumerate(tests):
        out.append(_samples(t.rows, t.columns) if t.columns is not None or not t.rows else None)
        if out[-1] is None and t.rows:
            keys = _present(t.rows)
            groups.setdefault(keys, []).append(t)
            places.setdefault(keys, []).append(k)
    for keys, members in groups.items():
        rows = [r for t in members for r in t.rows]
        big = pd.DataFrame({key: _column(key, _values(rows, key)) for key in keys})
        a = 0
        for k, t in zip(places[keys], members, strict=True):
            out[k], a = (big, a, a + len(t.rows)), a + len(t.rows)
    return out


def _values(rows: list[dict[str, Any]], key: str) -> list[Any]:
    """``[r.get(key) for r in rows]``, by itemgetter when every row has the key."""
    try:
        return list(map(operator.itemgetter(key), rows))
    except KeyError:
        return [r.get(key) for r in rows]


def finish(test: Test) -> Run:
    """The run of ``test``, without its samples (:func:`sample_frames` builds them)."""
    meta = dict(test.meta)
    meta.setdefault("mode", "throughput")
    run = Run(
        meta=meta, line_start=test.line_start, line_end=test.line_end, warnings=list(test.warnings)
    )
    bidir = meta.get("direction") == "bidir"
    flows = ("", "reverse") if bidir else ("",)
    main = _picks(test.totals, "")  # the main flow's, as printed: for its duration too
    for flow in flows:
        picked = _flow_summaries(
            test, run, flow, dict(main) if flow == "" else _picks(test.totals, flow)
        )
        if flow == "" and meta.get("protocol") == "udp":
            _udp_counts(meta, picked, run.warnings)
    if test.cpu:  # (most text tests have none)
        _cpu(run, test.cpu)
    _computed(run, _row_groups(test.rows) if test.columns is None else _column_groups(test.columns))
    if "duration_s" not in meta:
        meta["duration_s"] = _duration(test, main)
    if test.errors:
        run.warnings.extend(f"iperf3: {e}" for e in test.errors)
    run.warnings.extend(test.cut)
    meta["complete"] = test.has_end and not test.errors and not test.cut
    if not test.has_end:
        run.warnings.append("no end-of-test summary (interrupted or cut short): intervals kept")
    if test.labels:
        meta["labels"] = dict(test.labels)
    return run


def _cpu(run: Run, figures: dict[str, float]) -> None:
    cpu = dict(figures)
    if not any(cpu.get(f"remote_{k}") for k in ("total", "user", "system")):
        # A server never learns the client's CPU (-V: "sender statistics not available"), nor
        # an interrupted client the server's: iperf3 writes zeros there, in text and JSON.
        for k in ("total", "user", "system"):
            cpu.pop(f"remote_{k}", None)
    for key in CPU_KEYS:
        if key in cpu:
            where, stat = key.split("_")
            run.add(f"cpu_{where}", stat, cpu[key], "pct")


def _duration(test: Test, main: dict[str, Total | None]) -> float | None:
    """``main``: :func:`_picks` of the main flow."""
    for side in ("sender", "receiver"):
        t = main[side]
        if t is not None and not t.empty:
            if t.seconds is not None:
                return t.seconds
            if t.start_s is not None and t.end_s is not None:
                return t.end_s - t.start_s
    if test.columns is not None and "end_s" in test.columns:
        ok = test.columns["status"] == "ok"
        ends = [x for x in test.columns["end_s"][ok].tolist() if x == x]  # NaN: absent
    else:
        ends = [
            r["end_s"] for r in test.rows if r.get("status") == "ok" and r.get("end_s") is not None
        ]
    return max(ends) if ends else None


def finite(value: float | None) -> float | None:
    return value if value is not None and math.isfinite(value) else None
