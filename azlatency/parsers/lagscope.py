"""lagscope (microsoft/lagscope): TCP ping-pong latency from the sender's side::

    lagscope 1.0.1
    ---------------------------------------------------------
    16:22:39 INFO: New connection: local:25001 [socket:3] --> 10.77.2.2:6001
    10.77.2.2: 1% completed.\\r10.77.2.2: 2% completed.\\r ...16:22:39 INFO: TEST COMPLETED.
    16:22:39 INFO: Ping statistics for 10.77.2.2:
    16:22:39 INFO: \\t  Number of successful Pings: 1000
    16:22:39 INFO: \\t  Minimum = 21.000us, Maximum = 5740.500us, Average = 105.210us

    Percentile\\t Latency(us)                 (-P)
         50% \\t 30
    Interval(usec)\\t Frequency               (-H)
          0 \\t 1899

Basis: a round trip.  ``run_lagscope_sender`` (src/main.c, commit 38cd354) writes the message
to the TCP connection, reads the server's echo, and pushes ``recv_time - send_time``: an
application-level TCP round trip (``rtt``).  Format facts from the source and our captures:
the exit status is the ping count modulo 256; progress lines end in ``\\r`` only (the reader
splits them); min/max/average are fractional µs, while the percentiles, the histogram and the
``-R`` dump hold each latency truncated to a whole µs (``push(latency)`` stores an ``unsigned
long``), so a printed percentile ``v`` means ``v <= x < v + 1`` (``bound_low``/``bound_high``).
The ``-R`` CSV (``Index, Latency(us)``) and the ``-P<file>`` JSON frequency table are files of
their own and read as runs of their own.  The receiver measures nothing.  See
``docs/tools/lagscope.md``.
"""

from __future__ import annotations

import json
import re

import numpy as np
import pandas as pd

from ..errors import NothingMeasured, ParseError
from ..schema import pct_label
from ._base import Parsed, Run, Span, ToolInfo
from ._delay import scaled
from ._lines import (
    apart,
    command_above,
    command_of,
    computed_rtt,
    integer,
    json_without_strays,
    line_blocks,
    name_joined,
    samples_frame,
    spans_from_starts,
    stray,
)

TOOL = "lagscope"

INFO = ToolInfo(
    tool=TOOL,
    description="lagscope sender output (-P percentiles, -H histogram, -V replies), its -R "
    "CSV and -P<file> JSON frequency table",
    variants=("text", "text-P", "text-H", "text-P-H", "raw-csv", "freq-json"),
    versions="lagscope 1.0.1 (microsoft/lagscope 38cd354, captured)",
    produces=("runs", "samples", "summaries"),
    flags="-s<server> -n<count> -P -H (-R<file> for every latency)",
    latency_basis="rtt",
    # The statistics end a plain output, and -P's table may be followed by -H's: a cut right
    # after either reads as an output without the next section.  The -R CSV has no end.
    open_ended=("text", "text-P", "raw-csv"),
)

BANNER = re.compile(r"^\s*lagscope (?P<version>\d+(?:\.\d+)+)\s*$")
DASHES = re.compile(r"^\s*-{40,}\s*$")
LOG = re.compile(r"^\s*\d{2}:\d{2}:\d{2} (?P<level>INFO|ERR |DBG ): (?P<msg>.*?)\s*$")
FLAG = re.compile(
    r"^\s*(?:\*\*\* (?P<role>sender|receiver) role|\*\*\* run as daemon"
    r"|(?P<key>cpu affinity|server address|domain|protocol|server port|client port"
    r"|(?:sender|receiver) socket buffer \(bytes\)|message size \(bytes\)|test mode"
    r"|test iteration|test duration \(sec\)|test interval \(sec\)|histogram report"
    r"|histogram 1st interval start at|histogram length of intervals"
    r"|histogram count of intervals|verbose mode):\s+(?P<value>\S.*?))\s*$"
)
PROGRESS = re.compile(r"^\s*(?P<addr>\S+): (?P<pct>\d+)% completed\.\s*$")
PCT_HEAD = re.compile(r"^\s*Percentile\s+Latency\(us\)\s*$")
PCT_ROW = re.compile(r"^\s*(?P<p>\d+(?:\.\d+)?)%\s+(?P<us>\d+)\s*$")
HIST_HEAD = re.compile(r"^\s*Interval\(usec\)\s+Frequency\s*$")
HIST_ROW = re.compile(r"^\s*(?P<start>\d+)\s+(?P<count>\d+)\s*$")
LINES = (BANNER, DASHES, LOG, FLAG, PROGRESS, PCT_HEAD, PCT_ROW, HIST_HEAD, HIST_ROW)
# lagscope's own log lines, by message
_STATS = re.compile(r"^Ping statistics for (?P<addr>\S+):$")
_COUNT = re.compile(r"^\s*Number of successful Pings: (?P<n>\d+)$")
# lagscope 0.1.0 printed the three in ms ('%.3fms', README @63b6afd); later versions in µs
_FIGURES = re.compile(
    r"^\s*Minimum = (?P<min>\d+(?:\.\d+)?)(?P<unit>us|ms), "
    r"Maximum = (?P<max>\d+(?:\.\d+)?)(?P=unit), Average = (?P<mean>\d+(?:\.\d+)?)(?P=unit)$"
)
_SENDER = re.compile(
    r"^New connection: local:(?P<sport>\d+) \[socket:\d+\] --> (?P<ip>\S+):(?P<port>\d+)$"
)
_RECEIVER = re.compile(r"^New connection: (?P<ip>\S+):\d+ --> local:(?P<port>\d+) \[socket \d+\]$")
_REPLY = re.compile(
    r"^Reply from (?P<addr>\S+): bytes=(?P<bytes>\d+) time=(?P<us>\d+(?:\.\d+)?)us$"
)
_DUMP = re.compile(
    r"^Dumping (?:all latencies into csv|latency frequency table into json) file: (?P<file>.+)$"
)
_PERCENTILES = 8  # 50, 75, 90, 95, 99, 99.9, 99.99, 99.999 (src/latencies_stats.c)
# Before lagscope's PR #49 (dd70d1d, 2021-07) the table had six rows, 95 and 99 not among them
# (README @04c9927: '-G' on 0.1.2); a table cut short is a first part of either list.
_SIX = ("p50", "p75", "p90", "p99.9", "p99.99", "p99.999")
CSV_HEAD = re.compile(r"^\s*Index,\s*Latency\(us\)\s*$")
CSV_ROW = re.compile(r"^\s*(?P<i>\d+),\s*(?P<us>\d+)\s*$")


def _kind(line: str) -> re.Pattern[str] | None:
    kind = next((p for p in LINES if p.match(line)), None)
    if kind is LOG and _AGAIN.search(line, 9):
        return None  # the next log line run into the message: two lines (unjoin)
    return kind


# (or a progress line: '... --> 10.77.2.2:600110.77.2.2: 0% completed.' lost the connection's
# port and role without a word)
_AGAIN = re.compile(r"\d{2}:\d{2}:\d{2} (?:INFO|ERR |DBG ): |\S: \d+% completed\.\s*$")


def _opens(line: str) -> bool:
    # 'HH:MM:SS INFO:' alone is ntttcp's logger too (same author): only lagscope's banner or
    # its own statistics, tables and replies open an output.
    m = LOG.match(line)
    return bool(m and (_STATS.match(m["msg"]) or _REPLY.match(m["msg"])))


_OPEN_KINDS = (BANNER, PCT_HEAD, HIST_HEAD, "stats")
# The reader's hook: the lines of _OPEN_KINDS ("stats" is a LOG line) and the -R CSV's header.
OPENERS = (BANNER, PCT_HEAD, HIST_HEAD, LOG, CSV_HEAD)


def _kinds(line: str):
    k = _kind(line)
    return "stats" if k is LOG and _opens(line) else k


def _next_run(kind, seen: set) -> bool:
    # a second table of one kind is another output's (two histograms pasted 'before' and
    # 'after', each alone), not the first one's rows run on
    return (kind is BANNER and bool(seen)) or (kind in (PCT_HEAD, HIST_HEAD) and kind in seen)


def whole_file(head: str) -> bool:
    """lagscope's -R CSV or -P<file> JSON frequency table."""
    text = head.lstrip()
    top = "\n".join(text.split("\n", 6)[:6])
    return bool(CSV_HEAD.match(text.split("\n", 1)[0])) or (
        text.startswith("{") and bool(re.search(r'"latencies"\s*:\s*\[', top))
    )


def locate(lines: list[str]) -> list[Span]:
    spans = line_blocks(lines, TOOL, _kinds, _OPEN_KINDS, _next_run)
    spans += spans_from_starts(lines, TOOL, CSV_HEAD.match, belongs=CSV_ROW.match)
    out = []
    for s in sorted(spans, key=lambda s: s.start):
        start = command_above(lines, s.start, out[-1].end if out else 0, (TOOL,))
        out.append(Span(start, s.end, TOOL))
    return out


def parse(text: str, *, source: str | None = None, strict: bool = True) -> Parsed:
    lines = text.split("\n")
    body = [x for x in lines if x.strip()]
    if not body:
        raise ParseError(TOOL, source, None, "no lagscope output: empty")
    if body[0].lstrip().startswith("{"):
        return Parsed(TOOL, _freq_tables(text, source, strict))
    if any(CSV_HEAD.match(x) for x in body[:3]):
        return Parsed(TOOL, [_raw_csv(lines, source, strict)])
    return Parsed(TOOL, [_Console(source, strict).read(lines)])


# ---------------------------------------------------------------------------------------------
# The sender's console output


class _Console:
    def __init__(self, source: str | None, strict: bool) -> None:
        self.source, self.strict = source, strict
        self.run = Run()
        self.meta = self.run.meta
        self.meta.update(tool=TOOL, parser_variant="text", mode="ping-pong", protocol="tcp")
        self.replies: list[float] = []
        self.percentiles: list[tuple[str, int, int]] = []  # stat, value, line
        self.hist: list[tuple[int, int, int]] = []  # start, count, line
        self.section = None  # PCT_HEAD or HIST_HEAD while reading a table
        self.n = self.figures = self.completed = self.interrupted = None
        self.errors: list[str] = []
        self.progress = None
        self.first = self.last = None
        self.own = False  # a line only lagscope prints (a histogram alone could be latte's)

    def read(self, lines: list[str]) -> Run:
        joined: list[tuple[int, int]] = []
        for no, line, k in apart(lines, _kind, joined):
            if not line.strip():
                self.section = None if self.section and self._table_done() else self.section
                continue
            self._line(no, line, k)
        run = self._finish()
        name_joined([run], joined, TOOL)
        return run

    def _table_done(self) -> bool:
        return bool(self.percentiles) if self.section is PCT_HEAD else bool(self.hist)

    def _line(self, no: int, line: str, k: re.Pattern[str] | None) -> None:
        cmd = command_of(line, (TOOL,))[0] if k is None else None
        if cmd is not None:
            self.meta["command"] = cmd
            self.own = True
            self.first = self.first or no  # the run's lines begin with the command it read
            self._command(cmd)
            return
        m = k.match(line) if k else None
        if k is None or (k in (PCT_ROW, HIST_ROW) and self.section is None):
            stray(TOOL, self.source, no, line, self.strict, self.run.warnings)
            return
        self.first = self.first or no
        self.last = no
        self.own = self.own or k in (BANNER, FLAG, LOG, PROGRESS, PCT_HEAD)
        if k is BANNER:
            self.meta["tool_version"] = m["version"]
        elif k is FLAG:
            self._flag(m)
        elif k is LOG:
            self._log(no, m)
        elif k is PROGRESS:
            self.progress = int(m["pct"])
        elif k in (PCT_HEAD, HIST_HEAD):
            self.section = k
        elif k is PCT_ROW and self.section is PCT_HEAD:
            self.percentiles.append((pct_label(float(m["p"]) / 100), self._int(m["us"], no), no))
        elif k is HIST_ROW and self.section is HIST_HEAD:
            self.hist.append((self._int(m["start"], no), self._int(m["count"], no), no))
        elif k is not DASHES:
            stray(TOOL, self.source, no, line, self.strict, self.run.warnings)

    def _command(self, cmd: str) -> None:
        """``lagscope -s10.0.0.4 -z64 -p6001 ...``: lagscope takes no space between an option
        and its value (its usage: 'There should be no space between option and its value')."""
        for tok in cmd.split()[1:]:
            flag, value = tok[:2], tok[2:]
            if flag == "-s" and value:
                self.meta["dst_ip"] = value
            elif flag == "-z" and value.isdigit():
                self.meta["msg_size_bytes"] = int(value)
            elif flag == "-p" and value.isdigit():
                self.meta["port"] = int(value)
            elif flag == "-r":
                self.meta["role"] = "server"

    def _int(self, text: str, no: int) -> int:
        return integer(text, tool=TOOL, source=self.source, line_no=no, what="a count")

    def _flag(self, m: re.Match[str]) -> None:
        if m["role"]:
            self.meta["role"] = "client" if m["role"] == "sender" else "server"
        key, value = m["key"], m["value"]
        if key == "message size (bytes)" and value.isdigit():
            self.meta["msg_size_bytes"] = int(value)
        elif key == "server port" and value.isdigit():
            self.meta["port"] = int(value)
        elif key in ("test iteration", "test duration (sec)", "test interval (sec)"):
            self.meta.setdefault("labels", {})[key.split(" (")[0].replace(" ", "_")] = value

    def _log(self, no: int, m: re.Match[str]) -> None:
        msg, level = m["msg"], m["level"].strip()
        if r := _REPLY.match(msg):
            self.replies.append(float(r["us"]))
        elif s := _STATS.match(msg):
            self.meta.setdefault("dst_ip", s["addr"])
        elif c := _COUNT.match(msg):
            self.n = (self._int(c["n"], no), no)
        elif f := _FIGURES.match(msg):
            self.figures = (f, no)
        elif msg == "TEST COMPLETED.":
            self.completed = no
        elif msg == "Interrupted by Ctrl+C":
            self.interrupted = no
        elif s := _SENDER.match(msg):
            self.meta.update(dst_ip=s["ip"], port=int(s["port"]), role="client")
        elif r := _RECEIVER.match(msg):
            self.meta.update(src_ip=r["ip"], port=int(r["port"]), role="server")
        elif d := _DUMP.match(msg):
            self.meta.setdefault("labels", {})["dumped_to"] = d["file"]
        elif level == "ERR":
            self.errors.append(f"line {no}: lagscope: {msg}")

    def _finish(self) -> Run:
        run, meta = self.run, self.meta
        if self.n is None and self.figures is None:
            self._nothing()
        run.line_start, run.line_end = self.first or 1, self.last or 1
        meta["latency_basis"] = "rtt"
        meta["complete"] = self.n is not None
        run.warnings.extend(self.errors)
        if self.n is None:
            at = f" ({self.progress}% completed)" if self.progress is not None else ""
            run.warnings.append(
                f"cut short: no 'Number of successful Pings' after line {self.last}{at}"
            )
        else:
            n = self.n[0]
            meta["packets_received"] = n
            run.add("rtt", "count", n, "count")
        if self.interrupted:
            run.warnings.append(
                f"line {self.interrupted}: stopped with Ctrl+C before its count or time"
            )
        if self.figures is not None:
            f = self.figures[0]
            for stat in ("min", "max", "mean"):
                us = scaled(f[stat], 1000 if f["unit"] == "ms" else 1)
                run.add("rtt", stat, us, "us", n=self.n[0] if self.n else None)
        elif self.n is not None and self.n[0] > 0:
            meta["complete"] = False
            run.warnings.append(f"no 'Minimum = ...' line after line {self.n[1]} (cut short?)")
        self._percentiles()
        self._histogram()
        self._replies()
        if self.hist and not self.own:
            run.warnings.append(
                "an 'Interval(usec)  Frequency' histogram alone: latte prints the same table "
                "(-hist), so the tool is not known; read as lagscope's"
            )
        meta["parser_variant"] = (
            "text" + ("-P" if self.percentiles else "") + ("-H" if self.hist else "")
        )
        return run

    def _nothing(self) -> None:
        said = "; ".join(e.split(": lagscope: ", 1)[1] for e in self.errors)
        if self.meta.get("role") == "server":
            reason = "a lagscope receiver's log: the sender measures, the receiver only echoes"
        elif said:
            reason = f"lagscope measured nothing: {said}"
        else:
            return
        raise NothingMeasured(TOOL, self.source, self.first or 1, reason)

    def _percentiles(self) -> None:
        if not self.percentiles:
            return
        n = self.n[0] if self.n else None
        for stat, value, _ in self.percentiles:
            # printed as a whole µs: the latency truncated (src/latencies_stats.c push())
            self.run.add("rtt", stat, value, "us", bound_low=value, bound_high=value + 1, n=n)
        if len(self.percentiles) < _PERCENTILES and tuple(p[0] for p in self.percentiles) != _SIX:
            self.run.meta["complete"] = False
            self.run.warnings.append(
                f"only {len(self.percentiles)} of lagscope's {_PERCENTILES} percentiles after "
                f"line {self.percentiles[-1][2]} (cut short?)"
            )

    def _histogram(self) -> None:
        if not self.hist:
            return
        starts = [h[0] for h in self.hist]
        if any(b <= a for a, b in zip(starts, starts[1:])):
            raise ParseError(
                TOOL,
                self.source,
                self.hist[0][2],
                "expected the histogram's intervals in increasing order",
            )
        top = float(self.figures[0]["max"]) if self.figures else None
        step = starts[-1] - starts[-2] if len(starts) > 1 else None
        highs = starts[1:] + [_last_high(starts[-1], top, step)]
        counts = [h[1] for h in self.hist]
        self.run.samples = samples_frame(
            {
                "seq": pd.array(range(len(starts)), dtype="Int64"),
                "kind": "histogram",
                "status": "ok",
                "bin_low_us": np.array(starts, dtype=float),
                "bin_high_us": np.array(highs, dtype=float),
                "count": pd.array(counts, dtype="Int64"),
            }
        )
        n = self.n[0] if self.n else None
        if n is not None and sum(counts) != n:
            self.run.meta["complete"] = False
            self.run.warnings.append(
                f"the histogram counts {sum(counts)} of the {n} pings (cut short after line "
                f"{self.hist[-1][2]}?)"
            )

    def _replies(self) -> None:
        if not self.replies:
            return
        if self.hist:
            self.run.warnings.append(
                "-V replies and -H histogram both printed: the histogram is kept"
            )
            return
        replies = np.array(self.replies, dtype=float)
        self.run.samples = samples_frame(
            {
                "seq": pd.array(range(len(replies)), dtype="Int64"),
                "kind": "reply",
                "status": "ok",
                "rtt_us": replies,
            }
        )
        if self.n is not None and self.n[0] != len(replies):
            self.run.warnings.append(
                f"the statistics count {self.n[0]} pings, the output shows {len(replies)}"
            )
        computed_rtt(self.run, replies)


def _last_high(start: int, top: float | None, step: int | None) -> float:
    """The last bin runs from its start to the maximum (lagscope sums every latency from the
    final interval up to the maximum into it); past the maximum it is an empty interval."""
    if top is not None and top >= start:
        return max(top, float(start + 1))
    return float(start + (step or 1))


# ---------------------------------------------------------------------------------------------
# -R<file>: 'Index, Latency(us)' then 'i, latency' per ping, whole µs


def _raw_csv(lines: list[str], source: str | None, strict: bool) -> Run:
    run = Run()
    run.meta.update(
        tool=TOOL, parser_variant="raw-csv", mode="ping-pong", protocol="tcp", latency_basis="rtt"
    )
    seq, values = [], []
    head = None
    for no, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        if CSV_HEAD.match(line) and head is None:
            head = run.line_start = no
        elif (m := CSV_ROW.match(line)) and head is not None:
            seq.append(int(m["i"]))
            values.append(float(m["us"]))
            run.line_end = no
        elif head is None:
            raise ParseError(TOOL, source, no, "expected 'Index, Latency(us)'")
        else:
            stray(TOOL, source, no, line, strict, run.warnings)
    if any(b != a + 1 for a, b in zip(seq, seq[1:])) or (seq and seq[0] != 0):
        run.warnings.append("the index is not 0, 1, 2, ...: rows missing or repeated")
    run.meta["complete"] = True
    run.meta["packets_received"] = len(seq)
    if seq:
        run.samples = samples_frame(
            {
                "seq": pd.array(seq, dtype="Int64"),
                "kind": "reply",
                "status": "ok",
                "rtt_us": np.array(values, dtype=float),
            }
        )
        computed_rtt(run, values)
    return run


# ---------------------------------------------------------------------------------------------
# -P<file>: the frequency table as JSON, one entry per whole µs seen


def _freq_tables(text: str, source: str | None, strict: bool) -> list[Run]:
    """Every frequency table in the text (one per file as lagscope writes it; files joined
    together read as one run each)."""
    decoder = json.JSONDecoder()
    runs, i = [], len(text) - len(text.lstrip())
    while i < len(text):
        warnings: list[str] = []
        try:
            doc, end = decoder.raw_decode(text, i)
        except json.JSONDecodeError as exc:
            text, doc, end, strays = json_without_strays(decoder.raw_decode, text, i, exc)
            if doc is None:
                raise ParseError(
                    TOOL,
                    source,
                    exc.lineno,
                    f"expected lagscope's frequency table, broken at: {exc.msg}",
                ) from None
            for no, line in strays:
                stray(TOOL, source, no, line, strict, warnings)
        first, last = text.count("\n", 0, i) + 1, text.count("\n", 0, end) + 1
        runs.append(_freq_run(doc, first, last, warnings, source))
        i = end + len(text[end:]) - len(text[end:].lstrip())
    return runs


def _freq_run(doc, first: int, last: int, warnings: list[str], source: str | None) -> Run:
    try:
        entries = doc["latencies"]
        pairs = [(int(e["latency"]), int(e["frequency"])) for e in entries]
    except (KeyError, TypeError, ValueError):
        raise ParseError(
            TOOL,
            source,
            first,
            'expected {"latencies": [{"latency": <us>, "frequency": <n>}, ...]}',
        ) from None
    if any(f < 0 or f >= 2**63 or x < 0 for x, f in pairs):
        raise ParseError(TOOL, source, first, "expected whole µs and counts >= 0")
    run = Run(line_start=first, line_end=last, warnings=warnings)
    run.meta.update(
        tool=TOOL,
        parser_variant="freq-json",
        mode="ping-pong",
        protocol="tcp",
        latency_basis="rtt",
        complete=True,
        packets_received=sum(f for _, f in pairs),
    )
    run.samples = samples_frame(
        {
            "seq": pd.array(range(len(pairs)), dtype="Int64"),
            "kind": "histogram",
            "status": "ok",
            "bin_low_us": np.array([x for x, _ in pairs], dtype=float),
            "bin_high_us": np.array([x + 1 for x, _ in pairs], dtype=float),
            "count": pd.array([f for _, f in pairs], dtype="Int64"),
        }
    )
    return run
