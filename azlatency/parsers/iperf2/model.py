"""One iperf 2 test, whatever printed it (client, server, CSV), and how it becomes a run.

iperf 2 labels no line as a total: each stream's report lines are intervals until one starts
at 0 again, which is the test's total for that stream (``[SUM]`` likewise).  A stream with a
single line is its total only when nothing says otherwise (a UDP client's ``Sent N
datagrams`` after it, an end time no ``-i`` boundary has); else a warning says a log cut
after its first interval would read the same.

Sides: the client sends and the server receives, both the other way round with ``-R``
(``(reverse)``, ``[ *1]``).  A UDP client's ``Server Report`` is the receiver's figures,
printed by the client.  ``-d`` (both ways at once) and ``-r`` (one way, then the other) add
streams from the server to the client: ``flows`` makes one test of each way.
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from typing import Any

import pandas as pd

from ...errors import ParseError
from .._base import Run
from .._lines import BIT_RATES, BYTE_RATES, BYTE_UNITS
from .lines import SIZE_UNITS, TOOL, rest_fields, times_round


@dataclass
class Row:
    stream: str
    start: float
    end: float
    start_text: str
    end_text: str
    line: int
    bytes: int | None = None
    bps: float | None = None
    figures: dict[str, Any] = field(default_factory=dict)
    out_of_order: int | None = None
    report: bool = False  # a UDP client's "Server Report" line
    status: str = "ok"


@dataclass
class Stream:
    id: str
    rows: list[Row] = field(default_factory=list)
    sent: int | None = None
    awaiting_report: bool = False
    report: Row | None = None
    facts: dict[str, Any] = field(default_factory=dict)  # from its "connected" line


@dataclass
class Test:
    role: str | None
    protocol: str | None = None
    variant: str = "text"
    line_start: int = 1
    line_end: int = 1
    meta: dict[str, Any] = field(default_factory=dict)
    labels: dict[str, Any] = field(default_factory=dict)
    streams: dict[str, Stream] = field(default_factory=dict)
    connected: list[str] = field(default_factory=list)
    header: str | None = None
    warnings: list[str] = field(default_factory=list)
    errors: list[tuple[str, int]] = field(default_factory=list)
    no_report: bool = False  # the client said the server's report never came
    ends_block: bool = False
    side: str | None = None  # the writer's side of the data when no role tells it
    split: bool = False  # one way of a -d/-r test (``flows``): its [SUM] lines are not read

    def stream(self, sid: str) -> Stream:
        key = "SUM" if sid.startswith("SUM") else sid.lstrip("*")
        return self.streams.setdefault(key, Stream(key))

    @property
    def has_rows(self) -> bool:
        return any(s.rows or s.report for s in self.streams.values())


# ---------------------------------------------------------------------------------------------
# one line's figures


def transfer_bytes(value: str, unit: str, source: str | None, no: int) -> int:
    try:
        return round(float(value) * BYTE_UNITS[unit])
    except ValueError:
        raise ParseError(TOOL, source, no, f"expected a transfer, got {value!r}") from None


def rate_bps(value: str, unit: str, source: str | None, no: int) -> float:
    factor = BIT_RATES.get(unit) or BYTE_RATES.get(unit)
    try:
        return float(value) * factor
    except (TypeError, ValueError):
        raise ParseError(TOOL, source, no, f"expected a rate, got {value} {unit}") from None


def _num(text: str | None) -> float | None:
    if text is None or text in ("-", "nan", "-nan"):
        return None
    return float(text)


def _ms_to_us(text: str | None) -> float | None:
    """iperf 2 prints milliseconds with three decimals: whole µs, without float noise."""
    value = _num(text)
    return None if value is None else round(value * 1e3, 6)


def row_figures(rest: str, *, first_is_writes: bool) -> tuple[dict[str, Any], str, int]:
    """What the columns after the rate say, named as the samples and summaries name them,
    the text none of them matched, and how many column groups there were."""
    out: dict[str, Any] = {}
    groups, left = rest_fields(rest)
    previous = None
    for k, (name, m) in enumerate(groups):
        if name in ("jitter_loss", "loss"):
            if name == "jitter_loss":
                out["jitter_us"] = _ms_to_us(m["jitter"])
            out["lost"], out["total"] = int(m["lost"]), int(m["total"])
            out["loss_pct"] = _num(m["pct"].strip() or None)
        elif name in ("latency", "latency3"):
            for stat in ("avg", "min", "max") + (("std",) if name == "latency" else ()):
                out[f"lat_{stat}_us"] = _ms_to_us(m[stat])
        elif name == "count_size":
            out["lat_count"], out["write_size"] = int(m["cnt"]), int(m["size"])
        elif name == "pps":
            out["pps"] = float(m["pps"])
        elif name == "tcp_info":
            _tcp_info(m, out)
        elif name == "reads":
            out["reads"] = int(m["reads"])
        elif name in ("pair", "triple") and k == 0 and first_is_writes:
            out["writes"], out["write_errors"] = int(m["a"]), int(m["b"])
        elif name == "number" and previous in ("pair", "triple") and "writes" in out:
            out["retransmits"] = int(float(m["v"]))
        elif name in ("pair", "triple", "rx_inp", "in_progress", "number", "omitted"):
            # Read/Timeo/Trunc, Rx/inP, inP, NetPwr: not read (docs/tools/iperf2.md)
            out["omitted"] = out.get("omitted") or name == "omitted"
        previous = name
    return out, left, len(groups)


def _tcp_info(m, out: dict[str, Any]) -> None:
    if m["cwnd"] is not None and int(m["cwnd"]) >= 0:  # -1K: no TCP_INFO (socket closed)
        out["cwnd_bytes"] = int(m["cwnd"]) * 1024  # iperf 2: tcpi_snd_cwnd * mss / 1024
    out["tcp_rtt_us"] = float(m["rtt"])
    if m["rttvar"] is not None:
        out["tcp_rttvar_us"] = float(m["rttvar"])


def flows(test: Test, ways: tuple[str, str] = ("client to server", "server to client")):
    """A test whose streams carry data both ways (``-d``, ``-r``; a stream's ``back`` fact
    marks those of the second way) as one test per way, the first ``forward`` and the second
    ``reverse``, each saying so; else ``[test]``.  A ``[SUM]`` line of such a test adds both
    ways: it is not read, and the runs say that too.  A stream that is the far end's view of
    another's connection (``mirror``: two processes' outputs in one stream) is dropped."""
    for k in [k for k, s in test.streams.items() if s.facts.get("mirror")]:
        other = test.streams.pop(k).facts["mirror"]
        test.connected = [c for c in test.connected if c != k]
        test.warnings.append(
            f"[{k}] is the far end's line of [{other}]'s connection (the other end's output "
            "interleaved with this one's): its lines are not read"
        )
    data = {k: s for k, s in test.streams.items() if k != "SUM"}
    back = [k for k, s in data.items() if s.facts.get("back")]
    if not back or len(back) == len(data):
        return [test]
    first = [k for k in data if k not in back]
    when = _when(data, first, back)
    note = (
        f"streams {' '.join(f'[{k}]' for k in first)} carry data {ways[0]} and "
        f"{' '.join(f'[{k}]' for k in back)} {ways[1]} ({_WHEN[when]}): read as two runs"
    )
    sums = test.streams.get("SUM")
    if sums is not None and sums.rows:
        note += f"; the [SUM] lines from line {sums.rows[0].line} add both ways: not read"
    parts = []
    for keys, direction in ((first, "forward"), (back, "reverse")):
        parts.append(
            replace(
                test,
                meta={**test.meta, "direction": direction},
                labels={**test.labels, **({"both_ways": when} if when else {})},
                streams={k: data[k] for k in keys},
                connected=[c for c in test.connected if c in keys],
                warnings=[*test.warnings, note],
                errors=list(test.errors) if direction == "forward" else [],
                split=True,
            )
        )
    return parts


_WHEN = {
    "at once": "iperf 2 -d: both ways at once, each flow beside the other",
    "in turn": "iperf 2 -r: one way, then the other",
    None: "iperf 2 -d or -r: the log does not tell whether both ways ran at once",
}


def _when(data: dict[str, Stream], first: list[str], back: list[str]) -> str | None:
    """Whether the two ways of a -d/-r test ran ``"at once"`` (-d: the second way's lines
    begin before the first way's end) or ``"in turn"`` (-r: the second way connects after
    the first way's last line), or ``None`` where the lines cannot tell: a way known only by
    its totals (-y C without -i prints one line a stream, in either order under -d or -r)."""
    spans = [_lines_of([data[k] for k in keys]) for keys in (first, back)]
    if not all(spans):
        return None
    (a0, a1, a_full), (b0, b1, b_full) = spans
    if a0 < b1 and b0 < a1:
        return "at once"
    return "in turn" if a_full and b_full else None


def _lines_of(streams: list[Stream]) -> tuple[int, int, bool] | None:
    """The first and last line of ``streams`` (their connection lines, rows and reports),
    and whether that span shows when they ran: a connection line or intervals (two rows of
    a stream), not a lone total."""
    lines = [s.facts["line"] for s in streams if "line" in s.facts]
    full = bool(lines) or any(len(s.rows) >= 2 for s in streams)
    lines += [r.line for s in streams for r in s.rows]
    lines += [s.report.line for s in streams if s.report is not None]
    return (min(lines), max(lines), full) if lines else None


# ---------------------------------------------------------------------------------------------
# totals


def split_totals(stream: Stream) -> tuple[list[Row], Row | None]:
    """(intervals, total) of a stream: the total is the first line after the first that
    starts at 0 again."""
    rows = stream.rows
    for k, row in enumerate(rows):
        if k and row.start == 0:
            return rows[:k] + rows[k + 1 :], row
    return rows, None


def local_side(role: str | None, reverse: bool) -> str | None:
    if role is None:
        return None
    return "sender" if (role == "client") != reverse else "receiver"


def _single_line_total(test: Test, stream: Stream, warnings: list[str]) -> Row | None:
    """A stream with one report line: its total, said so when nothing else tells."""
    row = stream.rows[0]
    if row.start != 0:
        return None
    if stream.sent is not None or stream.report is not None or not times_round(row.end_text):
        return row
    warnings.append(
        f"line {row.line}: one report line for [{stream.id}] ({row.start_text}-{row.end_text} "
        "sec) and no intervals: read as the test's total (a log cut after its first -i "
        "interval reads the same)"
    )
    return row


def totals(test: Test, warnings: list[str], cut: list[str]) -> dict[str, Row]:
    """The total row of every stream that has one; ``cut`` says what is missing."""
    out: dict[str, Row] = {}
    data_streams = [s for k, s in test.streams.items() if k != "SUM"]
    for sid in dict.fromkeys(test.connected):
        stream = test.streams.get(sid)
        if stream is not None and not stream.rows and stream.report is None and test.has_rows:
            cut.append(f"no report line for [{sid}], connected (cut short?)")
    for key, stream in test.streams.items():
        if not stream.rows:
            continue
        _, total = split_totals(stream)
        if total is None and len(stream.rows) == 1:
            total = _single_line_total(test, stream, warnings)
        if total is None:
            last = stream.rows[-1]
            cut.append(f"no total for [{key}] after line {last.line} (cut short?)")
            continue
        out[key] = total
    several = len([s for s in data_streams if s.rows]) > 1
    sums = test.streams.get("SUM")
    if (
        several
        and "SUM" not in out
        and not test.split
        and (test.role == "client" or (sums and sums.rows))
    ):
        cut.append(f"no [SUM] total for the {len(data_streams)} streams (cut short?)")
    elif several and (sums is None or test.split):
        # 2.1+ servers print no [SUM] for a short -P test (a capture: -t 1 -P 2).
        warnings.append(
            f"no [SUM] lines for the {len(data_streams)} streams: the test's figures are the "
            "sum of the streams' totals (computed)"
        )
    sends = test.meta.get("direction") != "reverse"  # a -R or -d client's received streams
    udp_client = test.role == "client" and test.protocol == "udp" and sends
    if udp_client and not test.variant.startswith("csv") and not test.no_report:
        for key, stream in test.streams.items():
            if key != "SUM" and key in out and stream.report is None:
                cut.append(f"no 'Server Report' for [{key}] (cut short?)")
    return out


# ---------------------------------------------------------------------------------------------
# the run


def _side_figures(run: Run, row: Row, side: str, source: str = "reported") -> None:
    f = row.figures
    run.add(f"throughput_{side}", "mean", row.bps, "bps", source=source)
    run.add(f"transfer_{side}", "total", row.bytes, "bytes", source=source)
    if side == "sender":
        run.add("writes", "total", f.get("writes"), "count")
        run.add("write_errors", "total", f.get("write_errors"), "count")
        run.add("retransmits", "total", f.get("retransmits"), "count")
    else:
        run.add("reads", "total", f.get("reads"), "count")
        run.add("jitter", "rfc3550", f.get("jitter_us"), "us")  # vocabulary.md
        if f.get("total") is not None and f["total"] >= 0:
            run.add("lost_datagrams", "total", f.get("lost"), "count")
            run.add("datagrams", "total", f["total"], "count")
            if f.get("loss_pct") is not None and 0 <= f["loss_pct"] <= 100:
                run.add("loss", "mean", f["loss_pct"], "pct")
        run.add("out_of_order", "total", row.out_of_order, "count")
    run.add(f"packet_rate_{side}", "mean", f.get("pps"), "pkt/s")


def _tcp_state(run: Run, row: Row, test: Test) -> None:
    """TCP figures of a sender's total line.  2.0.x (``Cwnd/RTT`` header) prints the mean of
    the RTT samples there (Reporter.c ``meanrtt``); 2.1+ repeats the last sample."""
    f = row.figures
    mean_rtt = test.header is not None and "RTT(var)" not in test.header
    if "tcp_rtt_us" in f:
        run.add("tcp_rtt", "mean" if mean_rtt else "last", f["tcp_rtt_us"], "us")
    run.add("tcp_rttvar", "last", f.get("tcp_rttvar_us"), "us")
    run.add("cwnd", "last", f.get("cwnd_bytes"), "bytes")


def _one_way(run: Run, row: Row) -> bool:
    f = row.figures
    if f.get("lat_avg_us") is None:
        return False
    n = f.get("lat_count")
    if n is None and f.get("total") is not None and f.get("lost") is not None:
        n = max(f["total"] - max(f["lost"], 0), 0)
    for stat, key in (
        ("mean", "lat_avg_us"),
        ("min", "lat_min_us"),
        ("max", "lat_max_us"),
        ("std", "lat_std_us"),
    ):
        run.add("one_way", stat, f.get(key), "us", n=n)
    return True


def _combined_reports(run: Run, test: Test) -> None:
    """``-P`` UDP client: iperf 2 prints a Server Report per stream and none for the sum."""
    reports = [s.report for k, s in test.streams.items() if k != "SUM" and s.report]
    if len(reports) < 2:
        return
    kw = {"source": "computed", "n": len(reports)}
    run.add("throughput_receiver", "mean", sum(r.bps for r in reports), "bps", **kw)
    run.add("transfer_receiver", "total", sum(r.bytes for r in reports), "bytes", **kw)
    lost = [r.figures.get("lost") for r in reports]
    total = [r.figures.get("total") for r in reports]
    if None not in lost and None not in total and sum(total) > 0:
        run.add("lost_datagrams", "total", sum(lost), "count", **kw)
        run.add("datagrams", "total", sum(total), "count", **kw)
        run.add("loss", "mean", 100.0 * sum(lost) / sum(total), "pct", **kw)


def _combined_totals(run: Run, found: dict[str, Row], main: Row | None, side: str | None):
    """Figures of a ``-P`` test that iperf 2 prints per stream only: the sum of the streams'
    totals when there is no [SUM] total, and the one-way latency of the streams (a [SUM]
    line has none): count-weighted mean, smallest minimum, largest maximum."""
    parts = [row for key, row in found.items() if key != "SUM"]
    if len(parts) < 2:
        return
    kw = {"source": "computed", "n": len(parts)}
    if main is None:
        name = f"_{side}" if side else ""
        run.add(f"throughput{name}", "mean", sum(r.bps for r in parts), "bps", **kw)
        run.add(f"transfer{name}", "total", sum(r.bytes for r in parts), "bytes", **kw)
    lat = [r.figures for r in parts if r.figures.get("lat_avg_us") is not None]
    if len(lat) == len(parts) and (main is None or main.figures.get("lat_avg_us") is None):
        counts = [f.get("lat_count") or 1 for f in lat]
        mean = sum(f["lat_avg_us"] * c for f, c in zip(lat, counts)) / sum(counts)
        run.add("one_way", "mean", mean, "us", source="computed", n=sum(counts))
        run.add("one_way", "min", min(f["lat_min_us"] for f in lat), "us", **kw)
        run.add("one_way", "max", max(f["lat_max_us"] for f in lat), "us", **kw)


def _udp_counts(test: Test, run: Run, rcv: Row | None) -> None:
    """Datagram counts of a UDP test: sent (``Sent N datagrams``), and from the receiver's
    total line (a server's, or the client's Server Report) received, lost, out of order."""
    sums = [s.sent for k, s in test.streams.items() if k == "SUM" and s.sent is not None]
    sent = sums or [s.sent for k, s in test.streams.items() if k != "SUM" and s.sent is not None]
    if sent:
        run.meta["packets_sent"] = sum(sent)
        run.add("datagrams_sent", "total", run.meta["packets_sent"], "count")
    if rcv is None:
        return
    f = rcv.figures
    if f.get("total") is None or f.get("lost") is None or f["total"] < 0:
        return
    run.meta.setdefault("packets_sent", f["total"])
    run.meta["packets_received"] = max(f["total"] - max(f["lost"], 0), 0)
    if rcv.out_of_order is not None:
        run.meta["out_of_order"] = rcv.out_of_order
    pct = f.get("loss_pct")
    if pct is not None and 0 <= pct <= 100:
        run.meta["loss_pct"] = pct


def samples(test: Test, side: str | None) -> pd.DataFrame | None:
    rows = []
    for key, stream in test.streams.items():
        intervals, _ = split_totals(stream)
        if len(stream.rows) == 1 and intervals and intervals[0].start == 0:
            intervals = []  # the single line is the total
        for k, row in enumerate(intervals):
            f = row.figures
            rows.append(
                {
                    "seq": k,
                    "kind": "interval",
                    "status": row.status,
                    "stream": key,
                    "role": side,
                    "start_s": row.start,
                    "end_s": row.end,
                    "bytes": row.bytes,
                    "bits_per_second": row.bps,
                    "retransmits": f.get("retransmits"),
                    "cwnd_bytes": f.get("cwnd_bytes"),
                    "tcp_rtt_us": f.get("tcp_rtt_us"),
                    "tcp_rttvar_us": f.get("tcp_rttvar_us"),
                    "jitter_us": f.get("jitter_us"),
                    "lost_packets": f.get("lost"),
                    "packets": f.get("total"),
                    "one_way_us": f.get("lat_avg_us"),
                    "time_ns": f.get("_time_ns"),  # CSV of 2.2 -e: the report's UTC time
                }
            )
    if not rows:
        return None
    # the columns some row fills, built as columns (a frame of the rows, its empty columns
    # dropped after, was 4 ms a run: most of reading a small log)
    filled = [k for k in rows[0] if any(r[k] is not None and r[k] == r[k] for r in rows)]
    return pd.DataFrame({k: [r[k] for r in rows] for k in filled})


def _meta(test: Test) -> dict[str, Any]:
    meta = {
        "tool": TOOL,
        "parser_variant": test.variant,
        "role": test.role,
        "protocol": test.protocol,
        "mode": "throughput",
        "direction": "forward",
        **test.meta,
    }
    ids = [s for s in test.streams if s != "SUM"]
    meta["streams"] = max(len(test.connected), len(ids)) or None
    return meta


def _connect_times(run: Run, test: Test) -> None:
    times = [s.facts["ct_us"] for s in test.streams.values() if "ct_us" in s.facts]
    if len(times) == 1:
        run.add("connect_time", "mean", times[0], "us", n=1)
    elif times:
        kw = {"source": "computed", "n": len(times)}
        run.add("connect_time", "mean", statistics.fmean(times), "us", **kw)
        run.add("connect_time", "min", min(times), "us", **kw)
        run.add("connect_time", "max", max(times), "us", **kw)


def _empty_reports(streams: list[Stream], warnings: list[str]) -> None:
    """A Server Report of a server that received nothing (``0.00-0.00 sec 0.000 Bytes -nan
    bits/sec 131.072 ms 4294966296/0 (inf%)``) has no figure to read: dropped, said."""
    for stream in streams:
        row = stream.report
        if row is not None and (row.end <= row.start or row.figures.get("total") == 0):
            warnings.append(
                f"line {row.line}: the Server Report measured nothing ({row.start_text}-"
                f"{row.end_text} sec, {row.figures.get('total')} datagrams): not read"
            )
            stream.report = None


def _combined(found: dict[str, Row]) -> bool:
    """Stream totals ``_combined_totals`` adds up into the test's figures."""
    return len([k for k in found if k != "SUM"]) > 1


def _from_intervals(run: Run, df: pd.DataFrame | None, side: str | None) -> None:
    """A test with no total (a log cut, a server stopped mid-test): mean/min/p50/max of its
    ``ok`` intervals' rates, over the [SUM] rows or the single stream's, as iperf3's runs
    have them (``source = computed``)."""
    if df is None or "bits_per_second" not in df:
        return
    ok = df[(df["status"] == "ok") & df["bits_per_second"].notna()]
    streams = set(ok["stream"])
    key = "SUM" if "SUM" in streams else next(iter(streams)) if len(streams) == 1 else None
    if key is None:
        return  # several streams and no [SUM]: no per-interval total was printed
    values = ok.loc[ok["stream"] == key, "bits_per_second"].astype(float)
    metric = f"throughput_{side}" if side else "throughput"
    kw = {"source": "computed", "n": len(values)}
    run.add(metric, "mean", float(values.mean()), "bps", **kw)
    run.add(metric, "min", float(values.min()), "bps", **kw)
    run.add(metric, "p50", float(values.median()), "bps", **kw)
    run.add(metric, "max", float(values.max()), "bps", **kw)


def finish(test: Test) -> Run:
    run = Run(line_start=test.line_start, line_end=test.line_end)
    run.meta.update(_meta(test))
    warnings, cut = list(test.warnings), []
    found = totals(test, warnings, cut)
    if not test.has_rows and not test.errors:
        cut.append(f"nothing measured after line {test.line_end}")
    reverse = run.meta.get("direction") == "reverse"
    side = test.side or local_side(test.role, reverse)
    main = found.get("SUM")
    if main is None and len(found) == 1:
        main = next(iter(found.values()))
    data = [s for k, s in test.streams.items() if k != "SUM"]
    _empty_reports(data, warnings)
    report = data[0].report if len(data) == 1 else None
    if main is not None:
        run.meta["duration_s"] = round(main.end - main.start, 6)
        if side is None:
            run.add("throughput", "mean", main.bps, "bps")
            run.add("transfer", "total", main.bytes, "bytes")
        else:
            _side_figures(run, main, side)
            if side == "sender":
                _tcp_state(run, main, test)
        basis = _one_way(run, main)
    else:
        basis = False
    if report is not None:
        _side_figures(run, report, "receiver")
        basis = _one_way(run, report) or basis
    _combined_reports(run, test)
    _combined_totals(run, found, main, side)
    if test.protocol == "udp":
        _udp_counts(
            test, run, report if report is not None else main if side == "receiver" else None
        )
    _connect_times(run, test)
    basis = basis or any(
        r.figures.get("lat_avg_us") is not None for s in test.streams.values() for r in s.rows
    )
    run.meta["latency_basis"] = "one_way" if basis else None
    run.samples = samples(test, side)
    if main is None and not _combined(found):
        _from_intervals(run, run.samples, side)
    run.meta["complete"] = not cut and not test.errors
    run.warnings = warnings + [f"cut short: {c}" for c in cut]
    run.warnings += [f"line {no}: iperf 2: {msg}" for msg, no in test.errors]
    if test.labels:
        run.meta["labels"] = dict(test.labels)
    return run


def utc_ns(text: str) -> pd.Timestamp:
    fmt = "%Y-%m-%d %H:%M:%S.%f" if "." in text else "%Y-%m-%d %H:%M:%S"
    return pd.Timestamp(datetime.strptime(text, fmt).replace(tzinfo=UTC))


def size_bytes(value: str, unit: str) -> int | None:
    """``131072 Byte`` → 131072; a rounded ``1.44 KByte`` is not an exact size: None."""
    if unit == "Byte":
        return int(float(value))
    exact = float(value) * SIZE_UNITS[unit]
    return int(exact) if exact.is_integer() else None
