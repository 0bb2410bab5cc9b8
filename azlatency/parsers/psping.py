"""PsPing (Sysinternals, Windows): ICMP ping, TCP connect ping, TCP/UDP latency, bandwidth::

    PsPing v2.10 - PsPing - ping, latency, bandwidth measurement utility
    TCP connect to 47.56.65.222:443:
    12 iterations (warmup 2) ping test:
    Connecting to 47.56.65.222:443 (warmup): from 172.29.33.222:50671: 41.47ms
    Connecting to 47.56.65.222:443: from 172.29.33.222:50673: 43.91ms
    TCP connect statistics for 47.56.65.222:443:
      Sent = 10, Received = 10, Lost = 0 (0% loss),
      Minimum = 38.30ms, Maximum = 43.91ms, Average = 41.42ms
    Latency Count
    38.30   1

Modes and what becomes of them (one run per test):

* ICMP (``Pinging <ip> with 32 bytes of data:``): ``Reply from <ip>: 41.93ms`` replies.  The
  warm-up replies are printed unmarked, first: the ``(warmup N)`` count says how many
  (``omitted`` samples; the statistics leave them out, and the ``-h`` counts confirm it).
* TCP connect (``TCP connect to``): one ``probe`` per ``Connecting to ...`` line, ``(warmup)``
  ones ``omitted``; the time is the connect (SYN to SYN-ACK) as PsPing times it.  A connect
  that failed prints Windows' message (``timeout`` or ``error`` probes); PsPing 2.01 prints no
  `` from <address>:``.
* TCP/UDP latency (``-l``/``-n``): ``roundtrip latency statistics (post warmup)`` (its
  ``Maxiumum`` spelt so by PsPing 2.10); no per-probe lines.
* Bandwidth (``-b``): ``sender``/``receiver bandwidth statistics`` in KB/s (1024 bytes: the
  ``-h`` rows are bytes/s, ``496.93 KB/s`` = 508851.28 B/s).
* ``-h``: ``Latency Count`` (or ``Bandwidth Count``) rows.  A row counts the values from its
  own value up to the next row's, the last row the maximum alone (checked against the replies
  printed beside it).  The edges are kept as printed, to 0.01 ms: PsPing places them from its
  unrounded minimum and maximum, so a value may lie up to 0.01 ms outside its printed bin.

All times are round trips in ms (``rtt``, µs here).  ``-t`` stopped with Ctrl+C prints the
statistics without their title line.  See ``docs/tools/psping.md``.
"""

from __future__ import annotations

import re

import numpy as np
import pandas as pd

from ..errors import ParseError
from ._base import Parsed, Run, Span, ToolInfo
from ._lines import (
    ELIDED,
    apart,
    command_above,
    command_of,
    computed_rtt,
    left_out,
    line_blocks,
    name_joined,
    packet_counts,
    samples_frame,
    stray,
)

TOOL = "psping"
_NAMES = ("psping", "psping64")

INFO = ToolInfo(
    tool=TOOL,
    description="PsPing ICMP, TCP connect, TCP/UDP latency and bandwidth tests, -h histograms",
    variants=("icmp", "tcp-connect", "latency", "bandwidth"),
    versions="PsPing 2.10 and 2.01 (outputs published in docs and blogs)",
    produces=("runs", "samples", "summaries"),
    flags="-n <count> -h (histogram); -l <size> for latency, -b for bandwidth",
    latency_basis="rtt",
    # -h prints its rows after the statistics: cut before them, an output reads as one without
    # -h (only the command line, when it is there, tells)
    open_ended=("icmp", "tcp-connect", "latency", "bandwidth"),
)

BANNER = re.compile(
    r"^\s*PsPing v(?P<version>\d+\.\d+) - PsPing - ping, latency, bandwidth measurement utility\s*$"
)
COPYRIGHT = re.compile(
    r"^\s*(?:Copyright \(C\) \d{4}-\d{4} Mark Russinovich|Sysinternals - www\.sysinternals\.com)\s*$"
)
ICMP_HEAD = re.compile(r"^\s*Pinging (?P<ip>\S+) with (?P<size>\d+) bytes of data:\s*$")
TCP_HEAD = re.compile(r"^\s*TCP connect to (?P<target>\S+):\s*$")
LAT_HEAD = re.compile(
    r"^\s*(?P<proto>TCP|UDP) (?P<what>latency|bandwidth) test connecting to (?P<target>\S+?):\s*(?P<state>Connected)?\s*$"
)
WARMUP_SET = re.compile(r"^\s*Setting warmup count to match number of outstanding I/Os: \d+\s*$")
ITERATIONS = re.compile(
    r"^\s*(?P<n>\d+|Infinite) iterations \((?:warmup (?P<w1>\d+)|(?P<w2>\d+) warmup)\) "
    r"(?:ping test|connecting test|sending (?P<size>\d+) bytes (?P<proto>TCP|UDP) (?:latency|bandwidth) test):"
    r"(?:\s*\d+%)?\s*$"
)
CONNECTED = re.compile(r"^\s*Connected\s*$")
REPLY = re.compile(r"^\s*Reply from (?P<ip>\S+): (?P<ms>\d+(?:\.\d+)?)ms\s*$")
# PsPing 2.01 prints no ' from <address>:', and its failures as Windows' message for the error
CONNECT = re.compile(
    r"^\s*Connecting to (?P<target>\S+?)(?P<warmup> \(warmup\))?:(?: from (?P<src>\S+):)? "
    r"(?P<ms>\d+(?:\.\d+)?)ms\s*$"
)
FAILED = re.compile(
    r"^\s*Connecting to (?P<target>\S+?)(?P<warmup> \(warmup\))?:(?: from (?P<src>\S+?):)? "
    r"(?P<error>[A-Z][^:]*\.)\s*$"
)  # 'This operation returned because the timeout period expired.'
# the connect Ctrl+C stopped: its line has no result (and the statistics do not count it)
CUT = re.compile(r"^\s*Connecting to (?P<target>\S+?)(?P<warmup> \(warmup\))?:(?: from \S+?:)?\s*$")
STATS = re.compile(
    r"^\s*(?:(?:Ping|TCP connect) statistics for (?P<target>\S+?)"
    r"|(?P<proto>TCP|UDP) roundtrip latency statistics \(post warmup\)"
    r"|(?P<bproto>TCP|UDP) (?P<side>sender|receiver) bandwidth statistics):\s*$"
)
COUNTS = re.compile(
    r"^\s*Sent = (?P<sent>\d+), Received = (?P<received>\d+), Lost = (?P<lost>\d+) \((?P<loss>\d+(?:\.\d+)?)% loss\),?\s*$"
)
SIZES = re.compile(
    r"^\s*Sent = (?P<sent>\d+), Size = (?P<size>\d+), Total Bytes: (?P<bytes>\d+),?\s*$"
)
FIGURES = re.compile(
    r"^\s*Minimum = (?P<min>\d+(?:\.\d+)?) ?(?P<unit>ms|KB/s), Max(?:imum|iumum) = (?P<max>\d+(?:\.\d+)?) ?(?:ms|KB/s), "
    r"Average = (?P<mean>\d+(?:\.\d+)?) ?(?:ms|KB/s)\s*$"
)  # 'Maxiumum' in the latency test's line (PsPing 2.10)
HIST_HEAD = re.compile(r"^\s*(?P<what>Latency|Bandwidth)\s+Count\s*$")
HIST_ROW = re.compile(r"^\s*(?P<value>\d+(?:\.\d+)?)\s+(?P<count>\d+)\s*$")
LINES = (
    BANNER, COPYRIGHT, ICMP_HEAD, TCP_HEAD, LAT_HEAD, WARMUP_SET, ITERATIONS, CONNECTED, REPLY,
    CONNECT, FAILED, CUT, STATS, COUNTS, SIZES, FIGURES, HIST_HEAD, HIST_ROW, ELIDED,
)  # fmt: skip
_HEADS = (ICMP_HEAD, TCP_HEAD, LAT_HEAD, WARMUP_SET)
_SETUP = (ICMP_HEAD, TCP_HEAD, LAT_HEAD, ITERATIONS)  # lines read by _Test._setup
# Windows ping.exe prints 'Pinging <ip> with 32 bytes of data:' and 'Ping statistics for
# <ip>:' too: those lines open a PsPing output only with PsPing's own lines after them (its
# 'N iterations (warmup N) ping test:' under the title; its statistics lines).
_OPENS = (BANNER, TCP_HEAD, LAT_HEAD, WARMUP_SET, ITERATIONS, COUNTS, "stats")
# The reader's hook: the lines of _OPENS ("stats" is a STATS line).
OPENERS = (BANNER, TCP_HEAD, LAT_HEAD, WARMUP_SET, ITERATIONS, COUNTS, STATS)
KB = 1024  # PsPing's KB/s: see the module docstring


def _kind(line: str) -> re.Pattern[str] | None:
    return next((p for p in LINES if p.match(line)), None)


def _open_kind(line: str):
    """As ``_kind``, with PsPing's own statistics titles told from ping.exe's."""
    k = _kind(line)
    if k is STATS and not line.lstrip().startswith("Ping statistics"):
        return "stats"
    return k


def _next_run(kind, seen: set) -> bool:
    if kind is BANNER:
        return bool(seen)
    if kind == "stats":
        return False
    if kind in _HEADS:
        # 'Setting warmup count ...' comes before the -b test's own title
        return any(k in seen for k in (ICMP_HEAD, TCP_HEAD, LAT_HEAD, ITERATIONS, STATS, "stats"))
    return False


def locate(lines: list[str]) -> list[Span]:
    spans = line_blocks(lines, TOOL, _open_kind, _OPENS, _next_run)
    out = []
    for s in spans:
        start = s.start
        above = next((j for j in range(start - 1, -1, -1) if lines[j].strip()), None)
        if above is not None and ICMP_HEAD.match(lines[above]) and ITERATIONS.match(lines[start]):
            start = above  # the ICMP title above PsPing's iterations line
        start = command_above(lines, start, out[-1].end if out else 0, _NAMES)
        out.append(Span(start, s.end, TOOL))
    return out


def parse(text: str, *, source: str | None = None, strict: bool = True) -> Parsed:
    lines = text.split("\n")
    tests: list[_Test] = []
    test: _Test | None = None
    command = version = top = None
    joined: list[tuple[int, int]] = []
    for no, line, k in apart(lines, _kind, joined):
        if not line.strip():
            if test is not None:
                test.blank()
            continue
        cmd = command_of(line, _NAMES)[0]
        if cmd is not None:
            command, top = cmd, no
            continue
        if k is BANNER:
            version, top = k.match(line)["version"], top or no
            continue
        if k is COPYRIGHT:
            continue
        if (k in _HEADS and (test is None or test.started)) or (
            test is None and k in (ITERATIONS, COUNTS, STATS)  # pasted without its title
        ):
            test = _Test(top or no, version, command, source, strict)
            tests.append(test)
            command = top = None
        if test is None:
            raise ParseError(TOOL, source, no, f"expected PsPing output, got {line.strip()[:80]!r}")
        test.line(no, line, k)
    if not tests:
        raise ParseError(
            TOOL,
            source,
            next((i for i, x in enumerate(lines, start=1) if x.strip()), None),
            "no PsPing test: expected 'Pinging ...', 'TCP connect to ...' or '... test "
            "connecting to ...'",
        )
    runs = [_finish(t) for t in tests]
    name_joined(runs, joined, TOOL)
    return Parsed(TOOL, runs)


class _Test:
    def __init__(self, no, version, command, source, strict) -> None:
        self.source, self.strict = source, strict
        self.run = Run(line_start=no, line_end=no)
        self.run.meta.update(tool=TOOL, tool_version=version, command=command, warmup_excluded=True)
        self.started = False
        # status, ms, source address, the error's message
        self.probes: list[tuple[str, float, str | None, str | None]] = []
        self.cut: int | None = None  # the connect Ctrl+C stopped (CUT)
        self.hist: list[tuple[float, int, int]] = []
        self.hist_kind = None
        self.counts = self.sizes = self.figures = self.stats = None
        self.warmup = None
        self.in_hist = False
        self.elided: int | None = None  # a paste's '...' line: the probes shown are a subset
        self.buckets = _buckets(command)  # rows -h asked for: None when not asked or unknown

    def blank(self) -> None:
        if self.hist:
            self.in_hist = False

    def line(self, no: int, line: str, k) -> None:
        m = k.match(line) if k else None
        if k is None or (k is HIST_ROW and not self.in_hist):
            stray(TOOL, self.source, no, line, self.strict, self.run.warnings)
            return
        self.started = self.started or k is not WARMUP_SET  # it comes before the -b title
        self.run.line_end = no
        meta = self.run.meta
        if k in _SETUP:
            self._setup(k, m)
        elif k is REPLY:
            self.probes.append(("ok", float(m["ms"]), None, None))
        elif k is CONNECT or k is FAILED:
            failed = ("timeout" if "timeout" in m["error"] else "error") if k is FAILED else None
            ms = float("nan") if failed else float(m["ms"])
            status = "omitted" if m["warmup"] else failed or "ok"
            self.probes.append((status, ms, m["src"], m["error"] if failed else None))
            _target(meta, m["target"])
        elif k is CUT:
            self.cut = no
            _target(meta, m["target"])
        elif k is STATS:
            self.stats = no
            side = m["side"]
            if side:
                meta["direction"] = "forward" if side == "sender" else "reverse"
        elif k is COUNTS:
            self.counts = m
        elif k is SIZES:
            self.sizes = m
        elif k is FIGURES:
            self.figures = m
        elif k is HIST_HEAD:
            self.hist_kind, self.in_hist = m["what"], True
        elif k is HIST_ROW:
            self.hist.append((float(m["value"]), int(m["count"]), no))
        elif k is ELIDED:
            self.elided = self.elided or no

    def _setup(self, k: re.Pattern[str], m: re.Match) -> None:
        """A test's title or its iterations line: what is measured, to where, how."""
        meta = self.run.meta
        if k is ICMP_HEAD:
            meta.update(parser_variant="icmp", mode="ping", protocol="icmp", dst_ip=m["ip"])
            meta["msg_size_bytes"] = int(m["size"])
        elif k is TCP_HEAD:
            meta.update(parser_variant="tcp-connect", mode="connect", protocol="tcp")
            _target(meta, m["target"])
        elif k is LAT_HEAD:
            what = m["what"]
            meta.update(
                parser_variant=what,
                mode="ping-pong" if what == "latency" else "throughput",
                protocol=m["proto"].lower(),
            )
            _target(meta, m["target"])
        elif k is ITERATIONS:
            self.warmup = int(m["w1"] or m["w2"])
            if m["n"] != "Infinite":
                meta.setdefault("labels", {})["iterations"] = int(m["n"])
            if m["size"]:
                meta["msg_size_bytes"] = int(m["size"])


def _buckets(command: str | None) -> int | None:
    """How many -h rows the command asks for: ``-h`` alone 20 (PsPing's default), ``-h N``
    N; 0 when -h is not given; None when unknown (no command, or a list of values)."""
    if command is None:
        return None
    tokens = command.split()
    if "-h" not in tokens:
        return 0
    arg = tokens[tokens.index("-h") + 1] if tokens.index("-h") + 1 < len(tokens) else ""
    if arg.isdigit():
        return int(arg)
    return None if re.fullmatch(r"[\d.,]+", arg) else 20


def _target(meta: dict, target: str) -> None:
    host, _, port = target.rpartition(":")
    if port.isdigit() and host:
        meta["port"] = int(port)
        meta["dst_ip"] = host


def _finish(t: _Test) -> Run:
    run = t.run
    meta = run.meta
    meta.setdefault("parser_variant", "tcp-connect" if any(p[2] for p in t.probes) else "icmp")
    if t.cut is not None:
        run.warnings.append(
            f"line {t.cut}: a connect Ctrl+C stopped, with no result (not counted, as PsPing's "
            "statistics do not count it)"
        )
    variant = meta["parser_variant"]
    meta["latency_basis"] = None if variant == "bandwidth" else "rtt"
    _counts(run, t)
    _figures(run, t)
    _probes(run, t)
    _histogram(run, t)
    ended = t.figures is not None or (t.counts is not None and int(t.counts["received"]) == 0)
    if ended and t.buckets and len(t.hist) != t.buckets:
        ended = False
        run.warnings.append(
            f"-h asked for {t.buckets} histogram rows, the output has {len(t.hist)} (cut short?)"
        )
    meta["complete"] = ended
    if not ended and t.figures is None:
        run.warnings.append(f"cut short: no 'Minimum = ...' statistics after line {run.line_end}")
    elif t.stats is None and t.counts is not None:
        # -t (or -n 10s) stopped with Ctrl+C prints its statistics without their title line
        run.warnings.append("stopped with Ctrl+C: the statistics have no title line (psping -t)")
    return run


def _counts(run: Run, t: _Test) -> None:
    if t.counts is not None:
        packet_counts(run, t.counts)
    if t.sizes is not None:
        s = t.sizes
        run.meta["packets_sent"] = int(s["sent"])
        run.meta["msg_size_bytes"] = int(s["size"])
        run.add("bytes_sent", "total", int(s["bytes"]), "bytes")
        if run.meta["parser_variant"] == "latency":
            run.add("rtt", "count", int(s["sent"]), "count")


def _figures(run: Run, t: _Test) -> None:
    f = t.figures
    if f is None:
        return
    n = (
        int(t.counts["received"])
        if t.counts is not None
        else (int(t.sizes["sent"]) if t.sizes else None)
    )
    if f["unit"] == "KB/s":
        side = "receiver" if run.meta.get("direction") == "reverse" else "sender"
        for stat in ("min", "max", "mean"):
            run.add(f"throughput_{side}", stat, float(f[stat]) * KB * 8, "bps", n=n)
        return
    if n == 0:  # nothing came back: PsPing prints 0.00ms for each
        return
    for stat in ("min", "max", "mean"):
        run.add("rtt", stat, float(f[stat]) * 1000, "us", n=n)


def _probes(run: Run, t: _Test) -> None:
    if not t.probes:
        return
    if t.elided:
        run.warnings.append(left_out(t.elided, len(t.probes), "probes", "probe"))
        return
    status = [p[0] for p in t.probes]
    if run.meta["parser_variant"] == "icmp" and t.warmup:
        # ICMP replies are not marked: the first 'warmup' ones are the warm-up
        status = ["omitted"] * min(t.warmup, len(status)) + status[t.warmup :]
    ms = np.array([p[1] for p in t.probes], dtype=float)
    frame = {
        "seq": pd.array(range(len(ms)), dtype="Int64"),
        "kind": "reply" if run.meta["parser_variant"] == "icmp" else "probe",
        "status": status,
        "rtt_us": ms * 1000,
    }
    if any(p[3] for p in t.probes):
        frame["message"] = [p[3] for p in t.probes]
    run.samples = samples_frame(frame)
    kept = ms[[s == "ok" for s in status]] * 1000
    if t.counts is not None and int(t.counts["received"]) != len(kept):
        run.warnings.append(
            f"the statistics count {t.counts['received']} replies, the output shows {len(kept)} "
            "after the warm-up"
        )
    computed_rtt(run, kept)


def _histogram(run: Run, t: _Test) -> None:
    if not t.hist:
        return
    values = [h[0] for h in t.hist]
    counts = [h[1] for h in t.hist]
    if any(b < a for a, b in zip(values, values[1:])):
        raise ParseError(TOOL, t.source, t.hist[0][2], "expected the -h rows in increasing order")
    edges = values + [values[-1]]  # the last row counts the maximum alone
    frame = {
        "seq": pd.array(range(len(values)), dtype="Int64"),
        "kind": "histogram",
        "status": "ok",
        "count": pd.array(counts, dtype="Int64"),
    }
    if t.hist_kind == "Bandwidth":
        frame["bits_per_second"] = np.array(values, dtype=float) * 8  # rows are bytes/s
    else:
        frame["bin_low_us"] = np.array(edges[:-1], dtype=float) * 1000
        frame["bin_high_us"] = np.array(edges[1:], dtype=float) * 1000
    hist = samples_frame(frame)
    run.samples = hist if run.samples is None else pd.concat([run.samples, hist], ignore_index=True)
    # -b's rows count bandwidth samples, not the sends: only latency rows add up to a count
    n = run.meta.get("packets_received") if t.counts is not None else run.meta.get("packets_sent")
    if t.hist_kind == "Latency" and n is not None and sum(counts) != n:
        run.warnings.append(
            f"the -h rows count {sum(counts)} of {n} (cut short after line {t.hist[-1][2]}?)"
        )
