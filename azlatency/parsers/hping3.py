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
A second reply to a probe (``DUP! len=...``) is a ``duplicate`` sample; hping3 counts it as
received (its loss goes below 0: '-66% packet loss') and the run's counts do not.
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
    PingEnd,
    check_complete,
    host_and_ip,
    known_lines,
    line_blocks,
    located,
    packet_counts,
    probe_samples,
    stray,
)

TOOL = "hping3"

INFO = ToolInfo(
    tool=TOOL,
    description="hping3 TCP/UDP/ICMP pings ('len=44 ip=... flags=SA seq=0 win=64240 rtt=1.1 ms')",
    variants=("tcp", "icmp", "udp", "raw-ip"),
    versions=(
        "hping3 3.0.0-alpha-2 (Debian 12's 3.a2.ds2-10) and upstream's 3.0.0-alpha-1 "
        "(antirez/hping 3547c76, 'packets tramitted'), captured; hping2's lines are the same"
    ),
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
# a second reply to one probe: hping3 counts and times it as received (module doc)
_DUP = re.compile(r"^\s*DUP! " + _REPLY.pattern.removeprefix("^\\s*"))
# a reply line stdout's buffer cut (its first part; the rest stands below the statistics)
_CUT = re.compile(r"^\s*(?:DUP! )?len=\d+(?: ip=\S*(?: .*)?)?$")
_REST = re.compile(r"^(?!\s*(?:len=|DUP! |round-trip|---|HPING|\d+ packets))\S?.*?\bms\s*$")
_STATS = re.compile(r"^\s*--- (?P<host>\S+) hping statistic ---\s*$")
_COUNTS = re.compile(
    # 'tramitted' is upstream's spelling (antirez/hping statistics.c); Debian's package mends it
    r"^\s*(?P<sent>\d+) packets tra(?:ns)?mitted, (?P<received>\d+) packets received, "
    r"(?P<loss>-?\d+(?:\.\d+)?)% packet loss\s*$"  # below 0 with duplicates (module doc)
)
_RTT = re.compile(
    r"^\s*round-trip min/avg/max = (?P<min>\d+(?:\.\d+)?)/(?P<mean>\d+(?:\.\d+)?)/"
    r"(?P<max>\d+(?:\.\d+)?) ms\s*$"
)
# --flood (stderr: in a file above the statistics, so it may open a run)
_FLOOD = re.compile(r"^\s*hping in flood mode, no replies will be shown\s*$")
_OUT_OF_SEQ = re.compile(r"^\s*(?P<n>\d+) out of sequence packets received\s*$")  # -r's ids
_UNRESOLVED = re.compile(r"^\s*Unable to resolve '(?P<host>[^']*)'\s*$")
# -V: the interface's line above the HPING line, each reply's IP part on a line of its own
# ('len=44 ip=... id=0 tos=0 iplen=44', then 'sport=443 flags=SA seq=0 ... rtt=0.2 ms') and,
# for TCP, the reply's own sequence numbers on a third ('seq=3781279105 ack=... urp=0')
_USING = re.compile(r"^\s*using (?P<iface>\S+), addr: (?P<ip>\S+), MTU: (?P<mtu>\d+)\s*$")
_VERBOSE = re.compile(r"^\s*(?:DUP! )?len=\d+ ip=\S+ .*\btos=[0-9a-fA-F]+ iplen=\d+\s*$")
_TCP_DETAIL = re.compile(r"^\s*seq=\d+ ack=\d+ sum=[0-9a-fA-F]+ urp=\d+\s*$")
# --icmp-ts / --icmp-addr: what the reply carries, under its reply line
_ICMP_DETAIL = re.compile(
    r"^\s*ICMP (?:timestamp: Originate=\d+ Receive=\d+ Transmit=\d+|timestamp RTT tsrtt=\d+"
    r"|address mask: icmpam=[\d.]+)\s*$"
)
# hping3's own messages: '[open_sockraw] socket(): Operation not permitted', 'ICMP Port
# Unreachable from ip=10.0.0.2 name=UNKNOWN', 'Warning: Unable to guess the output interface'
_NOTE = re.compile(r"^\s*(?P<message>\[\w+\] \S.*|ICMP \S.* from ip=\S+.*|Warning: \S.*)$")
# the rest of an 'ICMP ... from ip=' line: the name looked up, 'status=0 port=2422 seq=0'
_ICMP_REST = re.compile(r"^[\s\x08]*(?:name=\S+|status=\d+ port=\d+ seq=\d+)\s*$")
_LINES = (
    _ICMP_REST,
    _ICMP_DETAIL,
    _TCP_DETAIL,
    _USING,
    _HEADER,
    _FIRST,
    _REPLY,
    _DUP,
    _STATS,
    _COUNTS,
    _OUT_OF_SEQ,
    _RTT,
    _UNRESOLVED,
    _FLOOD,
    _NOTE,
    _VERBOSE,
    _CUT,
    _REST,
    ELIDED,
    CTRL_C,
)
_OPENS = (_HEADER, _FIRST, _REPLY, _STATS, _UNRESOLVED, _FLOOD)
OPENERS = _OPENS  # the reader's hook: locate() opens on these lines alone
_INTEGERS = {
    "sent": "a count of packets sent",
    "received": "a count of packets received",
    "n": "a count of packets out of sequence",
}
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
    if kind is _FLOOD:  # stderr's, as the statistics: at a terminal under the HPING line
        return _FLOOD in seen or _STATS in seen
    return False


_CLOSED = object()  # in a block's kinds seen: its statistics came after its replies


def locate(lines: list[str]) -> list[Span]:
    """From the ``HPING`` line or the statistics title (first in a file: see the module's
    doc), or, pasted without either, a reply, while the lines are hping3's; a name that did
    not resolve is an output of its own (``Unable to resolve 'host'``)."""
    return line_blocks(lines, TOOL, _kind, _OPENS, _next_run)


# what parse looks for, said when it finds none
_EXPECTED = (
    "'HPING host (eth0 ip): S set, 40 headers + 0 data bytes', "
    "'len=44 ip=... seq=0 ... rtt=0.5 ms' lines or '--- host hping statistic ---'"
)


def parse(text: str, *, source: str | None = None, strict: bool = True) -> Parsed:
    lines, spans = located(text, TOOL, locate, source, _EXPECTED)
    return Parsed(TOOL, [_run(lines, span, source, strict) for span in spans])


@dataclass
class _Read(PingEnd):
    """What the lines of one run say, as read."""

    COUNTS, FIGURES = _COUNTS, _RTT

    # seq, µs, fields, status ('ok', or 'duplicate': a DUP! line)
    replies: list[tuple[int, float, str, str]] = field(default_factory=list)
    header: re.Match | None = None
    title: re.Match | None = None
    cut: tuple[int, str] | None = None  # a reply's first part waiting for its rest
    details: int = 0  # --icmp-ts's or --icmp-addr's lines under their replies, not read
    using: re.Match | None = None  # -V's 'using eth0, addr: ip, MTU: 1500'
    out_of_seq: int | None = None  # '-r': 'N out of sequence packets received'
    flood: bool = False  # '--flood': hping3 reads no reply
    icmp_errors: int = 0  # replies that are ICMP errors ('ICMP Port Unreachable from ip=')
    stats_first: bool = False  # the statistics above the HPING line: a file (module doc)

    def reply(self, m: re.Match, no: int, run: Run, status: str = "ok") -> None:
        seq = _SEQ.search(m["fields"])
        if seq is None:
            run.warnings.append(f"line {no}: a reply without its seq= not read")
            return
        self.replies.append((int(seq["seq"]), float(m["ms"]) * 1000.0, m["fields"], status))

    def take(self, kind: re.Pattern[str], m: re.Match, no: int, run: Run) -> None:
        if self.end(kind, m, no):
            return
        if kind in _KEPT:
            setattr(self, _KEPT[kind], m)
        elif kind is _REPLY or kind is _FIRST or kind is _DUP:
            self.reply(m, no, run, "duplicate" if kind is _DUP else "ok")
        elif kind is _CUT or kind is _VERBOSE:
            self.cut = (no, m.group(0))
        elif kind is _ICMP_DETAIL:
            self.details += 1
        elif kind is _OUT_OF_SEQ:
            self.out_of_seq = int(m["n"])
        elif kind is _FLOOD:
            self.flood = True
        elif kind is _STATS:
            self.title = m
            self.stats_first = self.header is None
        elif kind is _NOTE:
            self.note(m, no, run)

    def note(self, m: re.Match, no: int, run: Run) -> None:
        message = _BACKSPACED.sub("", m["message"]).strip()
        if message.startswith("ICMP "):
            self.icmp_errors += 1
            if self.icmp_errors > 1:
                return  # one line says what they are; the count says how many
        run.warnings.append(f"line {no}: hping3: {message}")

    def rest(self, line: str, no: int, run: Run) -> bool:
        """The rest of a reply line whose first part stood above (``cut``); False when the
        line is no such rest."""
        if self.cut is None:
            return False
        split = _VERBOSE.match(self.cut[1]) is not None  # -V's, not stdout's buffer's
        joined = self.cut[1] + " " + line.lstrip() if split else self.cut[1] + line
        whole = _REPLY.match(joined) or _DUP.match(joined)
        if whole is None:
            return False
        if not split:
            run.warnings.append(
                f"line {self.cut[0]}: a reply cut in two by the statistics (hping3 writes them to "
                f"stderr while its replies wait in stdout's buffer); read with its rest, line {no}"
            )
        self.reply(whole, self.cut[0], run, "duplicate" if whole.re is _DUP else "ok")
        self.cut = None
        return True


# the lines whose match is kept as it is (_Read's attribute)
_KEPT = {_HEADER: "header", _USING: "using"}


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
    check_complete(run, read, who="hping3", rtt_line="round-trip min/avg/max")
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
    ports = {p["port"] for _, _, f, _ in read.replies if (p := _SPORT.search(f))}
    if len(ports) == 1:
        meta["port"] = int(ports.pop())
    if read.using is not None:  # -V: the interface hping3 sends from
        meta["src_ip"] = read.using["ip"]
    if read.out_of_seq is not None:
        meta["out_of_order"] = read.out_of_seq
    if read.details:
        run.warnings.append(
            f"{read.details} lines of what ICMP timestamp or address mask replies carry "
            "(--icmp-ts, --icmp-addr) not read: each reply's round trip is its line above them"
        )
    if read.icmp_errors:
        meta["errors"] = read.icmp_errors
        run.warnings.append(
            f"{read.icmp_errors} replies are ICMP errors: hping3 counts them as received and "
            "times them, so its round trips are to the host's stack, no service answered"
        )
    flags = {f["flags"] for _, _, x, _ in read.replies if (f := _FLAGS.search(x))}
    if flags and flags <= {"RA", "R"}:
        run.warnings.append(
            "every reply is a RST (flags=RA): the port is closed; the round trips are the "
            "host's TCP stack's, no service answered"
        )


def _statistics(run: Run, read: _Read) -> None:
    counts, figures = read.counts, read.figures
    if counts is not None:
        packet_counts(run, counts)
        sent = int(counts["sent"])
        if sent:  # hping3 prints 100 - received * 100 / sent in whole numbers: 67% for 1 of 3
            run.meta["loss_pct"] = 100.0 * (sent - int(counts["received"])) / sent
        _duplicates(run, read)
        if read.flood:  # hping3 sends and reads nothing: its '100% packet loss' is none
            run.meta.update(packets_received=None, loss_pct=None)
            run.summaries = [x for x in run.summaries if x.metric != "rtt"]  # its count, 0
            run.warnings.append(
                "--flood: hping3 reads no reply, so its 'received' and 'loss' are no "
                "measurement (left out); only the packets sent are counted"
            )
    if figures is not None and counts is not None and int(counts["received"]):
        for stat in ("min", "mean", "max"):
            run.add("rtt", stat, float(figures[stat]) * 1000.0, "us")


def _duplicates(run: Run, read: _Read) -> None:
    """hping3 counts a second reply to a probe (``DUP!``) as received, and its round trip in
    ``min/avg/max``: more received than sent makes its loss below 0 ('-66% packet loss').  The
    run's counts are of the probes answered, as ping's are; hping3's figures stand, said."""
    sent, received = int(read.counts["sent"]), int(read.counts["received"])
    extra = max(sum(r[3] == "duplicate" for r in read.replies), received - sent)
    if extra <= 0:
        return
    answered = max(received - extra, 0)
    loss = 100.0 * (sent - answered) / sent if sent else None
    run.meta.update(packets_received=answered, loss_pct=loss, duplicates=extra)
    run.warnings.append(
        f"{extra} replies are duplicates (DUP!): hping3 counts them as received and times them "
        f"in its round-trip min/avg/max ('{received} packets received, {read.counts['loss']}% "
        f"packet loss' of {sent} sent); the run's received is {answered}, its loss "
        f"{loss if loss is None else f'{loss:g}%'}"
    )


def _samples(run: Run, read: _Read) -> None:
    replies = read.replies
    probe_samples(
        run,
        [r[0] for r in replies],
        [r[3] for r in replies],
        [r[1] for r in replies],
        kind="reply",
        counts=read.counts,
        elided=read.elided,
        duplicates_counted=True,
    )
