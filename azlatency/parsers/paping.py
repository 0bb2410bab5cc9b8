"""paping (Mike Lovell's TCP "port ping", 1.5.x; Windows and Linux): TCP connect times::

    paping v1.5.5 - Copyright (c) 2011 Mike Lovell

    Connecting to svc-b.azl.internal [10.207.0.2] on TCP 443:

    Connected to 10.207.0.2: time=0.33ms protocol=TCP port=443
    Connection timed out

    Connection statistics:
            Attempted = 20, Connected = 19, Failed = 1 (5.00%)
    Approximate connection times:
            Minimum = 0.09ms, Maximum = 2.33ms, Average = 0.35ms

Where ICMP does not pass (Azure's load balancers and firewalls), paping and PsPing are what
Azure's own troubleshooting guides run.  Each probe is a ``connect()`` timed from the SYN to
the SYN-ACK: one round trip and the server's accept.  One run per ``Connecting to`` line (or
banner); each ``Connected to`` line a ``probe`` sample (``rtt_us``), ``Connection timed out``
a ``timeout`` sample, ``General failure`` an ``error`` sample; the statistics as reported
summaries and the run's counts.  Two quirks of paping's statistics (``src/stats.cpp``) are
undone, each said in the run's warnings: its ``Average`` divides the connect times by every
attempt, failed ones too (the mean of the connects is the ``Average`` times attempts over
connects), and its ``Minimum`` is set by the first attempt only (``0.00ms`` when that one
failed: left out).  A paste shortened with a line of dots keeps only the printed statistics.
See ``docs/tools/paping.md``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import numpy as np

from ..errors import ParseError
from ._base import Parsed, Run, Span, ToolInfo
from ._lines import (
    CTRL_C,
    ELIDED,
    PingEnd,
    check_complete,
    host_and_ip,
    known_lines,
    line_blocks,
    located,
    packet_counts,
    probe_samples,
)

TOOL = "paping"

INFO = ToolInfo(
    tool=TOOL,
    description="paping TCP connect times ('Connected to ip: time=0.33ms protocol=TCP port=443')",
    variants=("text",),
    versions="paping 1.5.5 (rampageX/paping f8cebb1, captured; the 2011 Windows and Linux builds print the same lines)",
    produces=("runs", "samples", "summaries"),
    flags="-p <port> -c <count> (--nocolor for a file without ANSI colours)",
    latency_basis="rtt",
)

_BANNER = re.compile(r"^\s*paping v(?P<version>\d[\w.]*) - Copyright \(c\) \d{4} .*$")
_CONNECTING = re.compile(
    r"^\s*Connecting to (?P<host>\S+?)(?: \[(?P<ip>[^\]\s]+)\])? on (?P<proto>TCP|UDP) "
    r"(?P<port>\d+):\s*$"
)
_CONNECTED = re.compile(
    r"^\s*Connected to (?P<ip>\S+?): time=(?P<ms>\d+(?:\.\d+)?)ms protocol=(?P<proto>TCP|UDP) "
    r"port=(?P<port>\d+)\s*$"
)
_FAILED = re.compile(r"^\s*(?P<message>Connection timed out|General failure)\s*$")
_UNRESOLVED = re.compile(r"^\s*(?P<message>Cannot resolve host)\s*$")
_STATS = re.compile(r"^\s*Connection statistics:\s*$")
_COUNTS = re.compile(
    r"^\s*Attempted = (?P<sent>\d+), Connected = (?P<received>\d+), Failed = (?P<failed>\d+) "
    r"\((?P<loss>\d+(?:\.\d+)?)%\)\s*$"
)
_TIMES = re.compile(r"^\s*Approximate connection times:\s*$")
_FIGURES = re.compile(
    r"^\s*Minimum = (?P<min>\d+(?:\.\d+)?)ms, Maximum = (?P<max>\d+(?:\.\d+)?)ms, "
    r"Average = (?P<mean>\d+(?:\.\d+)?)ms\s*$"
)
_LINES = (
    _BANNER,
    _CONNECTING,
    _CONNECTED,
    _FAILED,
    _UNRESOLVED,
    _STATS,
    _COUNTS,
    _TIMES,
    _FIGURES,
    ELIDED,
    CTRL_C,
)
# 'Connection timed out' alone opens nothing: other programs print that line too
_OPENS = (_BANNER, _CONNECTING, _CONNECTED, _STATS)
OPENERS = _OPENS  # the reader's hook: locate() opens on these lines alone
_PROBES = (_CONNECTED, _FAILED)
_INTEGERS = {
    "port": "a TCP port",
    "sent": "a count of attempts",
    "received": "a count of connects",
    "failed": "a count of failed attempts",
}


def _kind(line: str) -> re.Pattern[str] | None:
    return next((p for p in _LINES if p.match(line)), None)


def _next_run(kind: re.Pattern[str], seen: set) -> bool:
    if kind is _BANNER:
        return True  # paping prints its banner first, once a run
    if kind is _CONNECTING:
        return bool(seen - {_BANNER})
    return _STATS in seen and (kind in _PROBES or kind is _STATS)


def locate(lines: list[str]) -> list[Span]:
    """From the banner (or, pasted without it, the ``Connecting to`` line, a probe line or
    the statistics title) while the lines are paping's."""
    return line_blocks(lines, TOOL, _kind, _OPENS, _next_run)


# what parse looks for, said when it finds none
_EXPECTED = (
    "'paping v1.5.5 - Copyright ...', 'Connecting to host on TCP 443:', "
    "'Connected to ip: time=0.33ms protocol=TCP port=443' lines or "
    "'Connection statistics:'"
)


def parse(text: str, *, source: str | None = None, strict: bool = True) -> Parsed:
    lines, spans = located(text, TOOL, locate, source, _EXPECTED)
    return Parsed(TOOL, [_run(lines, span, source, strict) for span in spans])


@dataclass
class _Read(PingEnd):
    """What the lines of one run say, as read."""

    COUNTS, FIGURES = _COUNTS, _FIGURES

    # status, rtt_us, message
    probes: list[tuple[str, float, str | None]] = field(default_factory=list)
    banner: re.Match | None = None
    target: re.Match | None = None
    port: int | None = None
    ip: str | None = None  # the address the probes name
    unresolved: int | None = None

    def take(self, kind: re.Pattern[str], m: re.Match, no: int) -> None:
        if self.end(kind, m, no):
            return
        if kind is _BANNER:
            self.banner = m
        elif kind is _CONNECTING:
            self.target = m
        elif kind is _CONNECTED:
            self.probes.append(("ok", float(m["ms"]) * 1000.0, None))
            self.port = self.port or int(m["port"])
            self.ip = self.ip or m["ip"]
        elif kind is _FAILED:
            status = "timeout" if m["message"] == "Connection timed out" else "error"
            self.probes.append((status, np.nan, m["message"]))
        elif kind is _UNRESOLVED:
            self.unresolved = no


def _run(lines: list[str], span: Span, source: str | None, strict: bool) -> Run:
    run = Run(line_start=span.start + 1, line_end=span.end)
    meta = run.meta
    meta.update(tool=TOOL, parser_variant="text", latency_basis="rtt", mode="connect")
    read = _Read()
    for no, kind, m in known_lines(
        lines, span, TOOL, _kind, _INTEGERS, source=source, strict=strict, warnings=run.warnings
    ):
        read.take(kind, m, no)
    if read.target is None and read.counts is None and not read.probes:
        at = read.unresolved or span.start + 1
        raise ParseError(
            TOOL,
            source,
            at,
            "paping did not start: "
            + ("Cannot resolve host" if read.unresolved else "no 'Connecting to' line"),
            hint="the target's name did not resolve" if read.unresolved else None,
        )
    _target(meta, read)
    _statistics(run, read)
    _samples(run, read)
    check_complete(run, read, who="paping", rtt_line="Minimum = ..., Maximum = ..., Average = ...")
    if read.target is None:
        run.warnings.append(
            f"no 'Connecting to ...' line above line {span.start + 1} (cut at the top?): "
            "the target's name is unknown"
        )
    return run


def _target(meta: dict, read: _Read) -> None:
    if read.banner is not None:
        meta["tool_version"] = read.banner["version"]
    t = read.target
    host, ip = host_and_ip(t["host"] if t else None, t["ip"] if t else None)
    meta.update(dst_host=host, dst_ip=ip)
    if ip is None and read.ip is not None:  # the address the name resolved to
        meta["dst_ip"] = read.ip
    meta["protocol"] = (t["proto"] if t else "TCP").lower()
    port = int(t["port"]) if t else read.port
    if port is not None:
        meta["port"] = port


def _statistics(run: Run, read: _Read) -> None:
    """The printed counts and times; paping's two quirks undone (see the module's doc)."""
    counts, figures = read.counts, read.figures
    if counts is None:
        return
    packet_counts(run, counts)
    attempted, connected = int(counts["sent"]), int(counts["received"])
    if int(counts["failed"]):
        run.meta["errors"] = sum(p[0] == "error" for p in read.probes) or None
    if figures is None or not connected:
        return  # no connect: paping prints zeros, which are no times
    no = read.figures_no
    # the first probe shown is the first attempt where the output is whole from its top
    whole = read.target is not None and not read.elided
    first_failed = whole and bool(read.probes) and read.probes[0][0] != "ok"
    if first_failed or (attempted > connected and float(figures["min"]) == 0.0):
        run.warnings.append(
            f"line {no}: 'Minimum = {figures['min']}ms' is no connect time: paping sets its "
            "minimum at the first attempt only, and that attempt failed; left out"
        )
    else:
        run.add("rtt", "min", float(figures["min"]) * 1000.0, "us")
    run.add("rtt", "max", float(figures["max"]) * 1000.0, "us")
    mean = float(figures["mean"]) * 1000.0
    if attempted > connected:
        mean *= attempted / connected
        run.warnings.append(
            f"line {no}: paping's 'Average = {figures['mean']}ms' divides the connect times "
            f"by all {attempted} attempts, failed ones too: the mean of the {connected} "
            f"connects is {mean / 1000.0:.4g} ms (kept)"
        )
    run.add("rtt", "mean", mean, "us")


def _samples(run: Run, read: _Read) -> None:
    probes, counts = read.probes, read.counts
    if counts is not None and probes and not read.elided and int(counts["sent"]) != len(probes):
        run.warnings.append(
            f"the statistics count {counts['sent']} attempts, the output shows {len(probes)}"
        )
    probe_samples(
        run,
        list(range(1, len(probes) + 1)),  # paping numbers no probe: in the order printed
        [p[0] for p in probes],
        [p[1] for p in probes],
        kind="probe",
        counts=counts,
        elided=read.elided,
        message=[p[2] for p in probes],
    )
