"""ncps (Microsoft's network connections-per-second tool), client or server::

       T(sec)        N   Pend   Failed   IOFail   Conn/s  Close/s RXkbyte/s TXkbyte/s  RT/i    c0/i c0rtt/i    cR/i  cRrtt/i
        1.024       20      0        0        0   1569.3   1549.8    1549.8    1569.3     0    1607      14       0        0
    === CMDLINE: ./ncps -c 10.77.2.2 -r 2 -np 2 -N 20 -t 5
    === VERSION 1.1
    ###RXGBPS 0.02
    ###TXGBPS 0.02
    === Time (ms) to Nth connection establishment for first 14016 connections:
    ===       N   T(ms)     CPS
    ===   14016    5077    2760
    ###ENDCPS 2760
    ###CPS,14016:5077
    === SYN RTT (us) stats for first 14016 connections:
    ===      P25   Median     Mean      P75      P90      P95      P99    P99.9   P99.99
    ===        9       12       12       14       17       19       32       86      216
    ###SYNRTT,25:9,Median:12,Mean:12,75:14,90:17,95:19,99:32,99.9:86,99.99:216
    === Percentage of connections with retransmits in the first 14016 connections: 0.0000%
    === Average retransmit count per connection (excluding 0-retransmit cases): 0.0000
    ###REXMIT,rtconnpercentage:0.0000,rtperconn:0.0000

Basis: a round trip.  The "SYN RTT" is the kernel's ``tcpi_rtt`` (µs) read right after each
connection is made (``sockwiz_tcp_get_info`` in sockwiz.c): on the client the SYN → SYN-ACK
round trip, on the server the SYN-ACK → ACK one; both sides record one per connection
(ncps.c ``record_connection``).  Percentiles are whole µs from a 1-µs histogram capped at
10 s; the mean is the integer quotient of the sum.  ``-brief`` prints ``N CPS SYNRTT0
SYNRTTx`` per interval instead of the 14 columns; ``cps`` (its predecessor) prints the same
without ``=== VERSION``.  See ``docs/tools/ncps.md``.
"""

from __future__ import annotations

import re

import numpy as np
import pandas as pd

from ..errors import ParseError
from ._base import Parsed, Run, Span, ToolInfo
from ._lines import (
    STRAY_LINES,
    apart,
    integer,
    line_blocks,
    name_joined,
    samples_frame,
    stray,
)

TOOL = "ncps"

INFO = ToolInfo(
    tool=TOOL,
    description="ncps client/server output: per-interval connections/s, ### summary lines "
    "(connections/s, SYN RTT percentiles, retransmits)",
    variants=("text", "text-brief", "text-silent"),
    versions="ncps 1.1 (captured, built from the source), 1.0 and 1.4 (VirtualClient examples)",
    produces=("runs", "samples", "summaries"),
    flags="-c <server> -t <seconds> (-wt <warm-up seconds>)",
    latency_basis="rtt",
)

HEADER = re.compile(
    r"^\s*T\(sec\)\s+N\s+Pend\s+Failed\s+IOFail\s+Conn/s\s+Close/s\s+RXkbyte/s\s+TXkbyte/s\s+RT/i\s+c0/i\s+c0rtt/i\s+cR/i\s+cRrtt/i\s*$"
)
ROW = re.compile(
    r"^\s*(?P<t>\d+\.\d+)\s+(?P<n>\d+)\s+(?P<pend>\d+)\s+(?P<failed>\d+)\s+(?P<iofail>\d+)"
    r"\s+(?P<cps>\d+\.\d+)\s+(?P<closes>\d+\.\d+)\s+(?P<rx>\d+\.\d+)\s+(?P<tx>\d+\.\d+)"
    r"\s+(?P<rt>\d+)\s+(?P<c0>\d+)\s+(?P<c0rtt>\d+)\s+(?P<cr>\d+)\s+(?P<crrtt>\d+)"
    r"(?:\s+(?P<rep>REP))?\s*$"
)
BRIEF_HEAD = re.compile(r"^\s*N\s+CPS\s+SYNRTT0\s+SYNRTTx\s*$")
BRIEF = re.compile(r"^\s*(?P<n>\d+)\s+(?P<cps>\d+\.\d)\s+(?P<rtt0>\d+)\s+(?P<rttx>\d+)\s*$")
CMDLINE = re.compile(r"^\s*=== CMDLINE: (?P<cmd>\S.*?)\s*$")
VERSION = re.compile(r"^\s*=== VERSION (?P<version>\d+\.\d+)\s*$")
GBPS = re.compile(r"^\s*###(?P<dir>RX|TX)GBPS (?P<v>\d+(?:\.\d+)?)\s*$")
TIME_HEAD = re.compile(
    r"^\s*=== Time \(ms\) to Nth connection establishment for first (?P<n>\d+) connections:\s*$"
)
TIME_COLS = re.compile(r"^\s*===\s+N\s+T\(ms\)\s+CPS\s*$")
TIME_ROW = re.compile(r"^\s*===\s+(?P<n>\d+)\s+(?P<ms>\d+)\s+(?P<cps>\d+)\s*$")
ENDCPS = re.compile(r"^\s*###ENDCPS (?P<cps>-?\d+)\s*$")
CPS = re.compile(r"^\s*###CPS(?P<pairs>(?:,\d+:\d+)*)\s*$")
RTT_HEAD = re.compile(r"^\s*=== SYN RTT \(us\) stats for first (?P<n>\d+) connections:\s*$")
RTT_COLS = re.compile(
    r"^\s*===\s+P25\s+Median\s+Mean\s+P75\s+P90\s+P95\s+P99\s+P99\.9\s+P99\.99\s*$"
)
RTT_ROW = re.compile(r"^\s*===((?:\s+-?\d+){9})\s*$")
SYNRTT = re.compile(r"^\s*###SYNRTT,(?P<pairs>\S+)\s*$")
REXMIT_PCT = re.compile(
    r"^\s*=== Percentage of connections with retransmits in the first \d+ connections: (?P<v>\d+\.\d+)%\s*$"
)
REXMIT_AVG = re.compile(
    r"^\s*=== Average retransmit count per connection \(excluding 0-retransmit cases\): (?P<v>\d+\.\d+)\s*$"
)
REXMIT = re.compile(
    r"^\s*###REXMIT,rtconnpercentage:(?P<pct>\d+\.\d+),rtperconn:(?P<per>\d+\.\d+)\s*$"
)
NOCONN = re.compile(r"^\s*!!!NO CONNECTIONS WERE ESTABLISHED!!!\s*$")
MESSAGE = re.compile(
    r"^\s*(?:AFFINITY: .*|FAILURE -?\d+ at \S+.*|ERROR at \S+.*|ABORT at \S+.*|PAUSE|RESUME)\s*$"
)
LINES = (
    HEADER, ROW, BRIEF_HEAD, BRIEF, CMDLINE, VERSION, GBPS, TIME_HEAD, TIME_COLS, TIME_ROW,
    ENDCPS, CPS, RTT_HEAD, RTT_COLS, RTT_ROW, SYNRTT, REXMIT_PCT, REXMIT_AVG, REXMIT, NOCONN,
    MESSAGE,
)  # fmt: skip
_ENDS = (REXMIT, NOCONN)
OPENERS = (HEADER, CMDLINE, ROW)  # locate()'s, and the reader's hook
# ###SYNRTT keys -> stats (ncps.c summarize_connection_recording)
_SYNRTT_STATS = {
    "25": "p25", "Median": "p50", "Mean": "mean", "75": "p75", "90": "p90", "95": "p95",
    "99": "p99", "99.9": "p99.9", "99.99": "p99.99",
}  # fmt: skip
_TABLE_ORDER = ("p25", "p50", "mean", "p75", "p90", "p95", "p99", "p99.9", "p99.99")


def _kind(line: str) -> re.Pattern[str] | None:
    return next((p for p in LINES if p.match(line)), None)


def _next_run(kind, seen: set) -> bool:
    if kind is HEADER:
        return bool(seen)
    if kind is CMDLINE:
        return CMDLINE in seen
    return kind in (ROW, BRIEF) and any(k in seen for k in _ENDS)


def locate(lines: list[str]) -> list[Span]:
    """From the interval header (or, ``-sil``, the ``=== CMDLINE`` line) to ``###REXMIT`` or
    ``!!!NO CONNECTIONS WERE ESTABLISHED!!!``."""
    spans = line_blocks(lines, TOOL, _kind, OPENERS, _next_run)
    return [_with_brief_lines(lines, s) for s in spans]


def _with_brief_lines(lines: list[str], span: Span) -> Span:
    """``-brief`` lines (``N CPS SYNRTT0 SYNRTTx``, four bare numbers) open no output on their
    own: they join the ``=== CMDLINE`` output right below them."""
    if not CMDLINE.match(lines[span.start]):
        return span
    start, j, stray = span.start, span.start - 1, 0
    while j >= 0 and stray <= STRAY_LINES:
        line = lines[j]
        if BRIEF.match(line) or BRIEF_HEAD.match(line):
            start, stray = j, 0  # the lines looked past are the parser's to name
        elif line.strip():
            stray += 1
        j -= 1
    return Span(start, span.end, TOOL)


def parse(text: str, *, source: str | None = None, strict: bool = True) -> Parsed:
    lines = text.split("\n")
    if not any(x.strip() for x in lines):
        raise ParseError(TOOL, source, None, "no ncps output: empty")
    reader = _Reader(source, strict)
    joined: list[tuple[int, int]] = []
    for no, line, _ in apart(lines, _kind, joined):
        if line.strip():
            reader.line(no, line)
    run = reader.finish()
    name_joined([run], joined, TOOL)
    return Parsed(TOOL, [run])


class _Reader:
    def __init__(self, source: str | None, strict: bool) -> None:
        self.source, self.strict = source, strict
        self.run = Run()
        self.run.meta.update(
            tool=TOOL, parser_variant="text", mode="connections", protocol="tcp",
            latency_basis="rtt",
        )  # fmt: skip
        self.rows: list[dict] = []
        self.records: list[tuple[int, int, int]] = []  # N, T(ms), CPS
        self.table: dict[str, int] = {}
        self.synrtt: dict[str, int] = {}
        self.seen: dict = {}  # pattern -> first line it was on
        self.first = self.last = None
        self.pending = None  # the table whose rows follow

    def line(self, no: int, line: str) -> None:
        k = _kind(line)
        if k is None:
            if self.first is None:
                raise ParseError(
                    TOOL, self.source, no, f"expected ncps output, got {line.strip()[:80]!r}"
                )
            stray(TOOL, self.source, no, line, self.strict, self.run.warnings)
            return
        self.first = self.first or no
        self.last = no
        self.seen.setdefault(k, no)
        m = k.match(line)
        handler = _HANDLERS.get(k)
        if handler is not None:
            handler(self, m, no)

    def _row(self, m, no):
        prev = self.rows[-1]["end_s"] if self.rows else 0.0
        c0 = int(m["c0"])
        self.rows.append(
            {
                "start_s": prev,
                "end_s": float(m["t"]),
                "connections_per_second": float(m["cps"]),
                "retransmits": int(m["rt"]),
                "tcp_rtt_us": float(m["c0rtt"]) if c0 else np.nan,  # 0 when none was made
                "failed": int(m["failed"]) + int(m["iofail"]),
            }
        )
        if m["rep"]:
            self.run.warnings.append(f"line {no}: REP: the client's local ports wrapped around")

    def _brief(self, m, no):
        self.run.meta["parser_variant"] = "text-brief"
        rtt = float(m["rtt0"])
        self.rows.append(
            {
                "start_s": np.nan,  # -brief prints no time; its interval is -i (1 s default)
                "end_s": np.nan,
                "connections_per_second": float(m["cps"]),
                "retransmits": None,
                "tcp_rtt_us": rtt if rtt else np.nan,
                "failed": None,
            }
        )

    def _cmdline(self, m, no):
        self.run.meta["command"] = m["cmd"]
        _command(self.run, m["cmd"])

    def _version(self, m, no):
        self.run.meta["tool_version"] = m["version"]

    def _gbps(self, m, no):
        metric = "rx_rate" if m["dir"] == "RX" else "tx_rate"
        self.run.add(metric, "mean", float(m["v"]) * 1e9, "bps")

    def _time_row(self, m, no):
        self.records.append(
            (self._int(m["n"], no), self._int(m["ms"], no), self._int(m["cps"], no))
        )

    def _endcps(self, m, no):
        self.run.add("connections_per_s", "mean", float(m["cps"]), "1/s")

    def _cps(self, m, no):
        pairs = [tuple(int(x) for x in p.split(":")) for p in m["pairs"].split(",")[1:]]
        if pairs != [(n, ms) for n, ms, _ in self.records]:
            self.run.warnings.append(
                f"line {no}: ###CPS does not repeat the '=== N T(ms)' table above it"
            )

    def _rtt_row(self, m, no):
        values = [int(x) for x in m.group(1).split()]
        self.table = dict(zip(_TABLE_ORDER, values))

    def _synrtt(self, m, no):
        for pair in m["pairs"].split(","):
            key, _, value = pair.partition(":")
            stat = _SYNRTT_STATS.get(key)
            if stat is None or not re.fullmatch(r"-?\d+", value):
                raise ParseError(
                    TOOL, self.source, no, f"expected '<percentile>:<us>' pairs, got {pair!r}"
                )
            self.synrtt[stat] = int(value)

    def _rexmit(self, m, no):
        self.run.add("retransmitted_connections", "total", float(m["pct"]), "pct")
        self.run.add("retransmits_per_retransmitted_connection", "mean", float(m["per"]), "count")

    def _int(self, text: str, no: int) -> int:
        return integer(text, tool=TOOL, source=self.source, line_no=no, what="a count")

    def finish(self) -> Run:
        run, meta = self.run, self.run.meta
        run.line_start, run.line_end = self.first or 1, self.last or 1
        if not (self.rows or self.seen):
            raise ParseError(TOOL, self.source, None, "no ncps output")
        if not self.rows and meta["parser_variant"] == "text":
            meta["parser_variant"] = "text-silent"
        self._samples()
        self._connections()
        self._syn_rtt()
        ended = [self.seen[k] for k in _ENDS if k in self.seen]
        meta["complete"] = bool(ended)
        if not ended:
            run.warnings.append(
                f"cut short: no '###REXMIT' or '!!!NO CONNECTIONS' after line {self.last}"
            )
        if NOCONN in self.seen:
            failed = self.rows[-1]["failed"] if self.rows else None
            run.warnings.append(
                f"line {self.seen[NOCONN]}: no connection was established"
                + (f" ({failed} connects failed)" if failed else "")
            )
        return run

    def _samples(self) -> None:
        if not self.rows:
            return
        failed = [r["failed"] for r in self.rows if r["failed"] is not None]
        if failed:
            self.run.meta["errors"] = failed[-1]  # Failed + IOFail, cumulative since the start
        self.run.samples = samples_frame(
            {
                "seq": pd.array(range(len(self.rows)), dtype="Int64"),
                "kind": "interval",
                "status": "ok",
                "start_s": np.array([r["start_s"] for r in self.rows], dtype=float),
                "end_s": np.array([r["end_s"] for r in self.rows], dtype=float),
                "connections_per_second": np.array(
                    [r["connections_per_second"] for r in self.rows], dtype=float
                ),
                "retransmits": pd.array([r["retransmits"] for r in self.rows], dtype="Int64"),
                "tcp_rtt_us": np.array([r["tcp_rtt_us"] for r in self.rows], dtype=float),
            }
        )

    def _connections(self) -> None:
        if not self.records:
            return
        n, ms, _ = self.records[-1]
        self.run.meta["duration_s"] = ms / 1000
        self.run.add("connections", "total", n, "count")
        rows = [
            {
                "seq": len(self.rows) + i,
                "kind": "record",
                "status": "ok",
                "end_s": t / 1000,
                "count": count,
                "connections_per_second": float(cps),
            }
            for i, (count, t, cps) in enumerate(self.records)
        ]
        extra = samples_frame(rows)
        extra["seq"] = extra["seq"].astype("Int64")
        extra["count"] = extra["count"].astype("Int64")
        base = self.run.samples
        self.run.samples = extra if base is None else pd.concat([base, extra], ignore_index=True)

    def _syn_rtt(self) -> None:
        figures = self.synrtt or self.table
        if self.synrtt and self.table and self.synrtt != self.table:
            self.run.warnings.append(
                "###SYNRTT and the '=== SYN RTT' table disagree: ###SYNRTT kept"
            )
        n = self.records[-1][0] if self.records else None
        for stat in _TABLE_ORDER:
            if stat not in figures or figures[stat] < 0:
                continue  # ncps prints -1 for a percentile it could not place
            value = figures[stat]
            if stat == "mean":  # the integer quotient of the sum (ncps.c)
                self.run.add("rtt", stat, value, "us", bound_low=value, bound_high=value + 1, n=n)
            else:
                self.run.add("rtt", stat, value, "us", n=n)
        if n:
            self.run.add("rtt", "count", n, "count")


_HANDLERS = {
    ROW: _Reader._row,
    BRIEF: _Reader._brief,
    CMDLINE: _Reader._cmdline,
    VERSION: _Reader._version,
    GBPS: _Reader._gbps,
    TIME_ROW: _Reader._time_row,
    ENDCPS: _Reader._endcps,
    CPS: _Reader._cps,
    RTT_ROW: _Reader._rtt_row,
    SYNRTT: _Reader._synrtt,
    REXMIT: _Reader._rexmit,
}


def _command(run: Run, cmd: str) -> None:
    """Role, target, threads and warm-up from the command ncps echoes (``=== CMDLINE:``)."""
    tokens = cmd.split()
    meta = run.meta
    program = tokens[0].rsplit("/", 1)[-1].removesuffix(".exe") if tokens else ""
    labels = {"program": program} if program and program != TOOL else {}
    i = 1
    while i < len(tokens):
        tok = tokens[i]
        value = tokens[i + 1] if i + 1 < len(tokens) else None
        if tok == "-s":
            meta["role"] = "server"
        elif tok == "-c":
            meta["role"] = "client"
            if value and not value.startswith("-") and "," not in value:
                meta["dst_ip"] = value
                i += 1
        elif tok == "-r" and value and value.isdigit():
            meta["streams"] = int(value)
            i += 1
        elif tok == "-wt" and value and value.isdigit():
            meta["warmup_excluded"] = int(value) > 0
            labels["warmup_s"] = int(value)
            i += 1
        elif tok in ("-N", "-P", "-D", "-M", "-np", "-bp", "-t", "-len") and value:
            labels[tok.lstrip("-")] = value
            i += 1
        elif tok.count(",") == 7 and program == "cps":
            # cps's thread parameters: localip,port,remoteip,port,N,P,D,M
            meta["dst_ip"] = tok.split(",")[2]
        elif tok == "-b" and value:
            meta["dst_ip" if meta.get("role") == "server" else "src_ip"] = value
            i += 1
        i += 1
    if labels:
        meta["labels"] = labels
