"""uping (simonpainter/uping): ICMP echo timed in whole microseconds::

    UPING 10.206.0.2 (10.206.0.2): ICMPv4 ICMP, timeout 2.0s
    seq=1    40µs  from 10.206.0.2
    seq=6    TIMEOUT
    seq=1    FAIL  send: Network is unreachable

    --- 10.206.0.2 uping statistics ---
    20 packets transmitted, 20 received, 0.0% loss
    rtt min/avg/max = 40/54.2/74 µs

The README's example prints ``ICMPv4,`` (no second ``ICMP``); notes may print a DGRAM
warning line (``uping: using unprivileged DGRAM socket ...``) under the command.  One run per
``UPING`` line: each reply a ``reply`` sample (``rtt_us``, whole µs from ``CLOCK_MONOTONIC``),
``TIMEOUT`` a ``timeout`` sample, ``FAIL`` an ``error`` sample with its message; the
statistics as reported summaries and the run's counts.  A paste shortened with ``...`` keeps
only the printed statistics (the replies shown are a hand-picked subset).  See
``docs/tools/uping.md``.
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
    MICRO,
    PingEnd,
    check_complete,
    host_and_ip,
    known_lines,
    line_blocks,
    located,
    packet_counts,
    probe_samples,
)

TOOL = "uping"

INFO = ToolInfo(
    tool=TOOL,
    description="uping microsecond ICMP ping ('UPING host (ip): ICMPv4 ICMP', 'seq=1 40µs from ip')",
    variants=("text",),
    versions="uping.c of 2026 (simonpainter/uping 11beb11, captured); the README's and a blog's outputs",
    produces=("runs", "samples", "summaries"),
    latency_basis="rtt",
)

_HEADER = re.compile(
    r"^\s*UPING (?P<host>\S+) \((?P<ip>[^)\s]+)\): (?P<family>ICMPv[46])(?: ICMP)?, "
    r"timeout (?P<timeout>\d+(?:\.\d+)?)s\s*$"
)
_REPLY = re.compile(rf"^\s*seq=(?P<seq>\d+)\s+(?P<us>\d+) ?{MICRO}\s+from (?P<src>\S+)\s*$")
_TIMEOUT = re.compile(r"^\s*seq=(?P<seq>\d+)\s+TIMEOUT\s*$")
_FAIL = re.compile(r"^\s*seq=(?P<seq>\d+)\s+FAIL\s+(?P<message>\S.*?)\s*$")
_STATS = re.compile(r"^\s*--- (?P<host>\S+) uping statistics ---\s*$")
_COUNTS = re.compile(
    r"^\s*(?P<sent>\d+) packets transmitted, (?P<received>\d+) received, "
    r"(?P<loss>\d+(?:\.\d+)?)% loss\s*$"
)
_RTT = re.compile(
    r"^\s*rtt min/avg/max = (?P<min>\d+(?:\.\d+)?)/(?P<mean>\d+(?:\.\d+)?)/"
    rf"(?P<max>\d+(?:\.\d+)?) ?{MICRO}\s*$"
)
_NOTE = re.compile(r"^\s*uping: (?P<message>\S.*?)\s*$")  # a warning under the command
_LINES = (_HEADER, _REPLY, _TIMEOUT, _FAIL, _STATS, _COUNTS, _RTT, _NOTE, ELIDED, CTRL_C)
_OPENS = (_HEADER, _NOTE, _REPLY, _TIMEOUT, _FAIL, _STATS)
OPENERS = _OPENS  # the reader's hook: locate() opens on these lines alone
_PROBES = (_REPLY, _TIMEOUT, _FAIL)
_INTEGERS = {
    "seq": "a sequence number",
    "us": "a round trip in µs",
    "sent": "a count of packets transmitted",
    "received": "a count of packets received",
}


def _kind(line: str) -> re.Pattern[str] | None:
    kind = next((p for p in _LINES if p.match(line)), None)
    if kind is _FAIL and _AGAIN.search(line, line.index("FAIL")):
        return None  # the next probe's line run into the message: two lines (unjoin)
    return kind


_AGAIN = re.compile(r"seq=\d+\s")


def _next_run(kind: re.Pattern[str], seen: set) -> bool:
    if kind is _HEADER:
        return _HEADER in seen or any(p in seen for p in _PROBES)
    if kind is _NOTE:
        return bool(seen - {_NOTE})
    return _STATS in seen and (kind in _PROBES or kind is _STATS)


def locate(lines: list[str]) -> list[Span]:
    """From the ``UPING`` line (or a ``uping:`` warning above it, or, pasted without either,
    a probe line or the statistics header) while the lines are uping's."""
    return line_blocks(lines, TOOL, _kind, _OPENS, _next_run)


# what parse looks for, said when it finds none
_EXPECTED = (
    "'UPING host (ip): ICMPv4 ICMP, timeout 2.0s', 'seq=N 40µs from ip' lines or "
    "'--- host uping statistics ---'"
)


def parse(text: str, *, source: str | None = None, strict: bool = True) -> Parsed:
    lines, spans = located(text, TOOL, locate, source, _EXPECTED)
    return Parsed(TOOL, [_run(lines, span, source, strict) for span in spans])


@dataclass
class _Read(PingEnd):
    """What the lines of one run say, as read."""

    COUNTS, FIGURES = _COUNTS, _RTT

    # seq, status, rtt_us, message
    probes: list[tuple[int, str, float, str | None]] = field(default_factory=list)
    header: re.Match | None = None
    title: re.Match | None = None
    socket: str | None = None

    def take(self, kind: re.Pattern[str], m: re.Match, no: int, run: Run) -> None:
        if self.end(kind, m, no):
            return
        if kind is _HEADER:
            self.header = m
        elif kind is _REPLY:
            self.probes.append((int(m["seq"]), "ok", float(m["us"]), None))
        elif kind is _TIMEOUT:
            self.probes.append((int(m["seq"]), "timeout", np.nan, None))
        elif kind is _FAIL:
            self.probes.append((int(m["seq"]), "error", np.nan, m["message"]))
        elif kind is _STATS:
            self.title = m
        elif kind is _NOTE:
            run.warnings.append(f"line {no}: uping: {m['message']}")
            if "DGRAM socket" in m["message"]:
                self.socket = "dgram"  # the kernel's ICMP socket: less exact timing


def _run(lines: list[str], span: Span, source: str | None, strict: bool) -> Run:
    run = Run(line_start=span.start + 1, line_end=span.end)
    meta = run.meta
    meta.update(tool=TOOL, parser_variant="text", latency_basis="rtt")
    read = _read(lines, span, run, source, strict)
    if read.header is None and read.title is None and not read.probes:
        # 'uping: nosuch.invalid: Name or service not known': it never started
        said = "; ".join(w.partition(": uping: ")[2] for w in run.warnings if ": uping: " in w)
        raise ParseError(
            TOOL,
            source,
            span.start + 1,
            f"uping did not start: {said}",
            hint="the target did not resolve or no ICMP socket could be opened",
        )
    _target(meta, read.header, read.title, read.socket)
    _statistics(run, read.counts, read.figures)
    _samples(run, read.probes, read.counts, read.elided)
    _complete(run, read)
    if read.header is None and read.probes:
        # uping prints its 'UPING host (ip): ...' line first: a run without it lost its top
        run.warnings.append(
            f"no 'UPING host (ip): ...' line above line {span.start + 1} (cut at the top?): "
            "the timeout and address family are unknown"
        )
    return run


def _read(lines: list[str], span: Span, run: Run, source: str | None, strict: bool) -> _Read:
    """Read the lines at ``span``; a stray or unstorable line is skipped (or raises,
    ``strict``)."""
    read = _Read()
    known = known_lines(
        lines, span, TOOL, _kind, _INTEGERS, source=source, strict=strict, warnings=run.warnings
    )
    for no, kind, m in known:
        read.take(kind, m, no, run)
    return read


def _complete(run: Run, read: _Read) -> None:
    """Whether the run got to its statistics, and why not."""
    # uping prints 'rtt min/avg/max' whenever a reply came back (none: total loss)
    check_complete(run, read, who="uping", rtt_line="rtt min/avg/max")


def _target(
    meta: dict, header: re.Match | None, title: re.Match | None, socket: str | None
) -> None:
    host, ip = host_and_ip(
        header["host"] if header else (title["host"] if title else None),
        header["ip"] if header else None,
    )
    meta.update(dst_host=host, dst_ip=ip)
    family = header["family"] if header else ("ICMPv6" if ip and ":" in ip else "ICMPv4")
    meta["protocol"] = "icmpv6" if family == "ICMPv6" else "icmp"
    labels = {"timeout_s": float(header["timeout"])} if header else {}
    if socket:
        labels["socket"] = socket
    if labels:
        meta["labels"] = labels


def _statistics(run: Run, counts: re.Match | None, figures: re.Match | None) -> None:
    if counts is not None:
        packet_counts(run, counts)
    if figures is not None:
        for stat in ("min", "mean", "max"):
            run.add("rtt", stat, float(figures[stat]), "us")


def _samples(run: Run, probes: list, counts: re.Match | None, elided: int | None) -> None:
    failed = sum(p[1] == "error" for p in probes)
    if failed and not elided:
        run.meta["errors"] = failed  # 'FAIL  send: Network is unreachable'
    probe_samples(
        run,
        [p[0] for p in probes],
        [p[1] for p in probes],
        [p[2] for p in probes],
        kind="reply",
        counts=counts,
        elided=elided,
        message=[p[3] for p in probes],
    )
