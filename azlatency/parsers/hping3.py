"""hping3 (and hping2): a TCP SYN, UDP or ICMP "ping" with a round trip per reply::

    HPING 10.207.0.2 (vpa 10.207.0.2): S set, 40 headers + 0 data bytes
    len=44 ip=10.207.0.2 ttl=64 DF id=0 sport=443 flags=SA seq=0 win=64240 rtt=1.1 ms

    --- 10.207.0.2 hping statistic ---
    5 packets transmitted, 5 packets received, 0% packet loss
    round-trip min/avg/max = 0.1/0.7/1.1 ms

``hping3 -S -p 443`` times a SYN to its SYN-ACK (or RST: ``flags=RA``, the port is closed)
where ICMP does not pass.  One run per ``HPING`` line; each reply a ``reply`` sample with its
``seq`` (``rtt_us``, printed to 0.1 ms), a probe without a reply a loss (hping3 prints none);
the statistics as reported summaries and the run's counts.

hping3 prints its replies to stdout and its statistics to stderr: in a file
(``hping3 ... > out 2>&1``) the statistics come *first* (stdout waits in its buffer until
exit), and a reply line the buffer cut in two stands on both sides of them (4 KiB in, ``...
flags=SA`` / statistics / `` seq=48 win=64240 rtt=0.1 ms``): read as one, and said.
See ``docs/tools/hping3.md``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..errors import ParseError
from ._base import Parsed, Run, Span, ToolInfo
from ._lines import (
    CTRL_C,
    ELIDED,
    check_complete,
    host_and_ip,
    known_lines,
    line_blocks,
    located,
    packet_counts,
    probe_samples,
    stopped_by_ctrl_c,
    stray,
)

TOOL = "hping3"

INFO = ToolInfo(
    tool=TOOL,
    description="hping3 TCP/UDP/ICMP pings ('len=44 ip=... flags=SA seq=0 win=64240 rtt=1.1 ms')",
    variants=("tcp", "icmp", "udp", "raw-ip"),
    versions="hping3 3.0.0-alpha-2 (Debian 12's 3.a2.ds2-10, captured); hping2's lines are the same",
    produces=("runs", "samples", "summaries"),
    flags="-S -p <port> -c <count> (a SYN ping); -1 (ICMP), -2 (UDP)",
    latency_basis="rtt",
    commands=("hping", "hping2"),
)

_HEADER = re.compile(
    r"^\s*HPING (?P<host>\S+) \((?P<iface>\S+) (?P<ip>[^)\s]+)\): (?P<mode>\S.*?) set, "
    r"(?P<headers>\d+) headers \+ (?P<data>\d+) data bytes\s*$"
)
_REPLY = re.compile(
    r"^\s*len=(?P<len>\d+) ip=(?P<ip>\S+) (?P<fields>.*?)\s*rtt=(?P<ms>\d+(?:\.\d+)?) ms\s*$"
)
# a run's first reply (seq=0): after a run's statistics, the next run's
_FIRST = re.compile(_REPLY.pattern.replace("(?P<fields>.*?)", r"(?P<fields>.*?\bseq=0\b.*?)"))
# a reply line stdout's buffer cut (its first part; the rest stands below the statistics)
_CUT = re.compile(r"^\s*len=\d+(?: ip=\S*(?: .*)?)?$")
_REST = re.compile(r"^(?!\s*(?:len=|round-trip|---|HPING|\d+ packets))\S?.*?\bms\s*$")
_STATS = re.compile(r"^\s*--- (?P<host>\S+) hping statistic ---\s*$")
_COUNTS = re.compile(
    r"^\s*(?P<sent>\d+) packets transmitted, (?P<received>\d+) packets received, "
    r"(?P<loss>\d+(?:\.\d+)?)% packet loss\s*$"
)
_RTT = re.compile(
    r"^\s*round-trip min/avg/max = (?P<min>\d+(?:\.\d+)?)/(?P<mean>\d+(?:\.\d+)?)/"
    r"(?P<max>\d+(?:\.\d+)?) ms\s*$"
)
_UNRESOLVED = re.compile(r"^\s*Unable to resolve '(?P<host>[^']*)'\s*$")
# hping3's own messages: '[open_sockraw] socket(): Operation not permitted', 'ICMP Port
# Unreachable from ip=10.0.0.2 name=UNKNOWN', 'Warning: Unable to guess the output interface'
_NOTE = re.compile(
    r"^\s*(?P<message>\[\w+\] \S.*|ICMP \S.* from ip=\S+.*|Warning: \S.*|DUP! \S.*)$"
)
# the rest of an 'ICMP ... from ip=' line: the name looked up, 'status=0 port=2422 seq=0'
_ICMP_REST = re.compile(r"^[\s\x08]*(?:name=\S+|status=\d+ port=\d+ seq=\d+)\s*$")
_LINES = (
    _ICMP_REST,
    _HEADER,
    _FIRST,
    _REPLY,
    _STATS,
    _COUNTS,
    _RTT,
    _UNRESOLVED,
    _NOTE,
    _CUT,
    _REST,
    ELIDED,
    CTRL_C,
)
_OPENS = (_HEADER, _FIRST, _REPLY, _STATS, _UNRESOLVED)
OPENERS = _OPENS  # the reader's hook: locate() opens on these lines alone
_INTEGERS = {"sent": "a count of packets sent", "received": "a count of packets received"}
# 'get hostname...' and the backspaces and spaces hping3 writes over it
_BACKSPACED = re.compile(r"get hostname\.\.\.|[^\x08]?\x08| +(?=\x08)")
_SEQ = re.compile(r"\b(?:icmp_)?seq=(?P<seq>\d+)\b")
_FLAGS = re.compile(r"\bflags=(?P<flags>[A-Z]+)\b")
_SPORT = re.compile(r"\bsport=(?P<port>\d+)\b")
# the header's mode: variant and protocol (a TCP ping names its flags: 'S', 'NO FLAGS are')
_MODES = {
    "icmp mode": ("icmp", "icmp"),
    "udp mode": ("udp", "udp"),
    "raw IP mode": ("raw-ip", "ip"),
}


def _kind(line: str) -> re.Pattern[str] | None:
    return next((p for p in _LINES if p.match(line)), None)


def _next_run(kind: re.Pattern[str], seen: set) -> bool:
    """Whether a line of ``kind`` opens the next run.  In a file the statistics come first
    and the ``HPING`` line after them is the same run's; at a terminal they close the run
    (``_CLOSED`` marks it in ``seen``) and its next reply with ``seq=0`` or ``HPING`` line opens
    another.  A reply with a higher seq below them is the rest of stdout's buffer (a file's)."""
    replied = _REPLY in seen or _FIRST in seen
    if kind is _STATS:
        if _STATS in seen:
            return True
        if (_HEADER in seen or replied) and _CUT not in seen:
            seen.add(_CLOSED)
        return False
    if kind is _HEADER:
        return _HEADER in seen or replied
    if kind is _FIRST:
        return replied
    return False


_CLOSED = object()  # in a block's kinds seen: its statistics came after its replies


def locate(lines: list[str]) -> list[Span]:
    """From the ``HPING`` line or the statistics title (first in a file: see the module's
    doc), or, pasted without either, a reply, while the lines are hping3's; a name that did
    not resolve is an output of its own (``Unable to resolve 'host'``)."""
    return line_blocks(lines, TOOL, _kind, _OPENS, _next_run)


def parse(text: str, *, source: str | None = None, strict: bool = True) -> Parsed:
    lines, spans = located(
        text,
        TOOL,
        locate,
        source,
        "'HPING host (eth0 ip): S set, 40 headers + 0 data bytes', "
        "'len=44 ip=... seq=0 ... rtt=0.5 ms' lines or '--- host hping statistic ---'",
    )
    return Parsed(TOOL, [_run(lines, span, source, strict) for span in spans])


@dataclass
class _Read:
    """What the lines of one run say, as read."""

    replies: list[tuple[int, float, str]] = field(default_factory=list)  # seq, µs, fields
    header: re.Match | None = None
    title: re.Match | None = None
    counts: re.Match | None = None
    counts_no: int = 0
    figures: re.Match | None = None
    cut: tuple[int, str] | None = None  # a reply's first part waiting for its rest
    icmp_errors: int = 0  # replies that are ICMP errors ('ICMP Port Unreachable from ip=')
    stats_first: bool = False  # the statistics above the HPING line: a file (module doc)
    elided: int | None = None
    ctrl_c: int | None = None

    def reply(self, m: re.Match, no: int, run: Run) -> None:
        seq = _SEQ.search(m["fields"])
        if seq is None:
            run.warnings.append(f"line {no}: a reply without its seq= not read")
            return
        self.replies.append((int(seq["seq"]), float(m["ms"]) * 1000.0, m["fields"]))

    def take(self, kind: re.Pattern[str], m: re.Match, no: int, run: Run) -> None:
        if kind is _HEADER:
            self.header = m
        elif kind is _REPLY or kind is _FIRST:
            self.reply(m, no, run)
        elif kind is _CUT:
            self.cut = (no, m.group(0))
        elif kind is _STATS:
            self.title = m
            self.stats_first = self.header is None
        elif kind is _COUNTS:
            self.counts, self.counts_no = m, no
        elif kind is _RTT:
            self.figures = m
        elif kind is _NOTE:
            message = _BACKSPACED.sub("", m["message"]).strip()
            if message.startswith("ICMP "):
                self.icmp_errors += 1
                if self.icmp_errors > 1:
                    return  # one line says what they are; the count says how many
            run.warnings.append(f"line {no}: hping3: {message}")
        elif kind is ELIDED:
            self.elided = self.elided or no
        elif kind is CTRL_C:
            self.ctrl_c = no

    def rest(self, line: str, no: int, run: Run) -> bool:
        """The rest of a reply line whose first part stood above (``cut``); False when the
        line is no such rest."""
        whole = _REPLY.match(self.cut[1] + line) if self.cut is not None else None
        if whole is None:
            return False
        run.warnings.append(
            f"line {self.cut[0]}: a reply cut in two by the statistics (hping3 writes them to "
            f"stderr while its replies wait in stdout's buffer); read with its rest, line {no}"
        )
        self.reply(whole, self.cut[0], run)
        self.cut = None
        return True


def _run(lines: list[str], span: Span, source: str | None, strict: bool) -> Run:
    run = Run(line_start=span.start + 1, line_end=span.end)
    run.meta.update(tool=TOOL, parser_variant="tcp", latency_basis="rtt", mode="ping")
    read = _Read()
    for no, kind, m in known_lines(
        lines, span, TOOL, _kind, _INTEGERS, source=source, strict=strict, warnings=run.warnings
    ):
        if kind is _UNRESOLVED:
            raise ParseError(
                TOOL,
                source,
                no,
                f"hping3 did not start: Unable to resolve {m['host']!r}",
                hint="the target's name did not resolve",
            )
        if kind is _REST:
            if not read.rest(m.group(0), no, run):  # a line ending in 'ms' that is not hping3's
                stray(TOOL, source, no, m.group(0), strict, run.warnings)
            continue
        read.take(kind, m, no, run)
    if read.cut is not None:
        no, part = read.cut
        run.warnings.append(f"line {no}: a reply cut short, not read: {part.strip()[:80]!r}")
    _target(run, read)
    _statistics(run, read)
    _samples(run, read)
    if read.ctrl_c:
        run.warnings.append(stopped_by_ctrl_c(read.ctrl_c))
    check_complete(
        run,
        read.counts,
        read.figures,
        read.counts_no,
        who="hping3",
        rtt_line="round-trip min/avg/max",
    )
    if read.header is None:
        # hping3 prints it first, and into a file right under the statistics: a run without it
        # lost its top or, statistics first, everything after them
        run.meta["complete"] = False
        run.warnings.append(
            f"no 'HPING host (...): ... set' line with the lines from line {span.start + 1} "
            "(cut?): the probe's kind and size are unknown"
        )
    elif read.stats_first and read.counts is not None and not read.elided:
        shown, received = len(read.replies), int(read.counts["received"])
        if shown < received:  # into a file stdout is written whole at exit: the rest was cut
            run.meta["complete"] = False
            run.warnings.append(
                f"cut short after line {span.end}: the statistics above count {received} "
                f"replies, {shown} follow"
            )
    return run


def _target(run: Run, read: _Read) -> None:
    meta, h = run.meta, read.header
    name = h["host"] if h else (read.title["host"] if read.title else None)
    host, ip = host_and_ip(name, h["ip"] if h else None)
    meta.update(dst_host=host, dst_ip=ip)
    if h is not None:
        variant, protocol = _MODES.get(h["mode"], ("tcp", "tcp"))
        meta.update(parser_variant=variant, protocol=protocol)
        meta["msg_size_bytes"] = int(h["data"]) or None
        if protocol == "tcp":
            meta.setdefault("labels", {})["tcp_flags"] = h["mode"]
    ports = {p["port"] for _, _, f in read.replies if (p := _SPORT.search(f))}
    if len(ports) == 1:
        meta["port"] = int(ports.pop())
    if read.icmp_errors:
        meta["errors"] = read.icmp_errors
        run.warnings.append(
            f"{read.icmp_errors} replies are ICMP errors: hping3 counts them as received and "
            "times them, so its round trips are to the host's stack, no service answered"
        )
    flags = {f["flags"] for _, _, x in read.replies if (f := _FLAGS.search(x))}
    if flags and flags <= {"RA", "R"}:
        run.warnings.append(
            "every reply is a RST (flags=RA): the port is closed; the round trips are the "
            "host's TCP stack's, no service answered"
        )


def _statistics(run: Run, read: _Read) -> None:
    counts, figures = read.counts, read.figures
    if counts is not None:
        packet_counts(run, counts)
    if figures is not None and counts is not None and int(counts["received"]):
        for stat in ("min", "mean", "max"):
            run.add("rtt", stat, float(figures[stat]) * 1000.0, "us")


def _samples(run: Run, read: _Read) -> None:
    replies = read.replies
    probe_samples(
        run,
        [r[0] for r in replies],
        ["ok"] * len(replies),
        [r[1] for r in replies],
        kind="reply",
        counts=read.counts,
        elided=read.elided,
    )
