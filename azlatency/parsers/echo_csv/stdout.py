"""echo_client.py's ping-style output (simonpainter/echo_test ``client/echo_client.py`` since
commit 2cfea51; the README's "Output" section shows it)::

    ECHO 10.1.1.2:7 (64 bytes of data)
    64 bytes from 10.1.1.2:7: seq=1 time=108.204 μs
    ERROR: Connection closed by server                 (stderr, when the connection breaks)

    --- 10.1.1.2:7 echo statistics ---
    39 packets transmitted, 38 received, 2.6% packet loss
    rtt min/avg/max/stddev = 108.204/195.387/247.612/20.966 μs

That client writes its CSV only with ``--csv``, so this output may be all there is of a run.
One run per ``ECHO`` line: each reply a sample (``seq``, ``rtt_us``), an ``ERROR:`` line an
``error`` sample (the connection is gone: the client stops) and a ``connection_drops`` count,
the statistics as reported summaries and the run's counts.  Pasted into notes, runs are often
shortened with a ``...`` line: the replies shown are then a hand-picked subset, kept out of the
samples (they would pass for the run's distribution), and only the printed statistics stand.

Kept apart from ``echo_csv.py`` only for size; nothing else imports it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ...errors import ParseError
from .._base import Run, Span
from .._lines import (
    CTRL_C,
    ELIDED,
    MICRO,
    PingEnd,
    check_complete,
    check_shown,
    computed_rtt,
    host_and_ip,
    known_lines,
    left_out,
    line_blocks,
    packet_counts,
    samples_frame,
)

_OPEN = re.compile(r"^\s*ECHO (?P<host>\S+):(?P<port>\d+) \((?P<size>\d+) bytes of data\)\s*$")
_PROBE = re.compile(
    r"^\s*(?P<size>\d+) bytes from (?P<host>\S+):(?P<port>\d+): seq=(?P<seq>\d+) "
    rf"time=(?P<rtt>\d+(?:\.\d+)?) ?{MICRO}\s*$"
)
_STATS = re.compile(r"^\s*--- (?P<host>\S+):(?P<port>\d+) echo statistics ---\s*$")
_COUNTS = re.compile(
    r"^\s*(?P<sent>\d+) packets transmitted, (?P<received>\d+) received, "
    r"(?P<loss>\d+(?:\.\d+)?)% packet loss\s*$"
)
_RTT = re.compile(
    r"^\s*rtt min/avg/max/stddev = (?P<min>\d+(?:\.\d+)?)/(?P<mean>\d+(?:\.\d+)?)/"
    rf"(?P<max>\d+(?:\.\d+)?)/(?P<std>\d+(?:\.\d+)?) ?{MICRO}\s*$"
)
_ERROR = re.compile(r"^\s*ERROR: (?P<message>.+?)\s*$")
_OPENS = (_OPEN, _PROBE, _STATS)
OPENERS = _OPENS
_LINES = (_OPEN, _PROBE, _STATS, _COUNTS, _RTT, _ERROR, ELIDED, CTRL_C)


def _kind(line: str) -> re.Pattern[str] | None:
    return next((p for p in _LINES if p.match(line)), None)


def locate(lines: list[str], tool: str) -> list[Span]:
    """A run opens at its ``ECHO`` line (or, pasted without it, at a reply or the statistics
    header) and goes on while its lines are the client's; another ``ECHO``, or a reply or
    statistics after the statistics, opens the next."""
    return line_blocks(lines, tool, _kind, _OPENS, _next_run)


def _next_run(kind: re.Pattern[str], seen: set) -> bool:
    return kind is _OPEN or (_STATS in seen and kind in (_PROBE, _STATS))


@dataclass
class _Read(PingEnd):
    """What the lines of one run say, as read."""

    COUNTS, FIGURES = _COUNTS, _RTT

    seq: list[int] = field(default_factory=list)
    rtt: list[float] = field(default_factory=list)
    errors: list[tuple[int, str]] = field(default_factory=list)
    where: re.Match | None = None  # the first line naming the target

    def take(self, kind: re.Pattern[str], m: re.Match, no: int) -> None:
        if self.end(kind, m, no):
            return
        if kind is _PROBE:
            self.seq.append(int(m["seq"]))
            self.rtt.append(float(m["rtt"]))
        elif kind is _ERROR:
            self.errors.append((no, m["message"]))


def parse(lines: list[str], span: Span, meta: dict, source: str | None, strict: bool) -> Run:
    """The run of the output at ``span`` (located by :func:`locate`) of ``lines``; line
    numbers are ``lines``'s, 1-based."""
    tool = span.tool
    run = Run(line_start=span.start + 1, line_end=span.end)
    run.meta.update(meta, parser_variant="stdout")
    read = _read(lines, span, run, source, strict)
    if read.where is None:
        raise ParseError(
            tool,
            source,
            None,
            "no echo_client.py output: expected 'ECHO host:port "
            "(N bytes of data)', a reply line or '--- host:port echo statistics ---'",
        )
    _target(run, read.where["host"], int(read.where["port"]))
    _statistics(run, read.counts, read.figures)
    _samples(run, read.seq, read.rtt, read.errors, read.counts, read.elided)
    _complete(run, read)
    return run


def _read(lines: list[str], span: Span, run: Run, source: str | None, strict: bool) -> _Read:
    """Read the lines at ``span``; the run's first and last line become those of the
    client's own lines, a stray or unstorable line is skipped (or raises, ``strict``)."""
    tool = span.tool
    read = _Read()
    first = last = None
    known = known_lines(
        lines, span, tool, _kind, _INTEGERS, source=source, strict=strict, warnings=run.warnings
    )
    for no, kind, m in known:
        first, last = first or no, no
        if kind in (_OPEN, _PROBE, _STATS) and read.where is None:
            read.where = m
            if kind is not _STATS:
                run.meta["msg_size_bytes"] = int(m["size"])
        read.take(kind, m, no)
    run.line_start, run.line_end = first or run.line_start, last or run.line_end
    return read


def _complete(run: Run, read: _Read) -> None:
    """Whether the run got to its statistics without an error, and why not."""
    # print_stats() writes 'rtt min/avg/max/stddev' whenever a reply came back
    check_complete(
        run, read, who="the client", rtt_line="rtt min/avg/max/stddev", errors=bool(read.errors)
    )


_INTEGERS = {
    "port": "a port",
    "size": "a message size in bytes",
    "seq": "a sequence number",
    "sent": "a count of packets transmitted",
    "received": "a count of packets received",
}


def _target(run: Run, host: str, port: int) -> None:
    dst_host, dst_ip = host_and_ip(host.strip("[]"), None)
    run.meta.update(dst_host=host if dst_host else None, dst_ip=dst_ip, port=port)


def _statistics(run: Run, counts: re.Match | None, figures: re.Match | None) -> None:
    if counts is not None:
        packet_counts(run, counts)
    if figures is not None:
        for stat in ("min", "mean", "max", "std"):  # stddev is statistics.stdev (n - 1)
            run.add("rtt", stat, float(figures[stat]), "us")


def _samples(
    run: Run,
    seq: list[int],
    rtt: list[float],
    errors: list[tuple[int, str]],
    counts: re.Match | None,
    elided: int | None,
) -> None:
    if elided and seq:
        run.warnings.append(left_out(elided, len(seq), "replies", "reply"))
        seq, rtt = [], []
    elif seq:
        check_shown(run, seq, counts, len(seq))
    # The client stops at its first error: the probe in flight is the one after the last reply.
    in_flight = counts is not None and int(counts["sent"]) > int(counts["received"])
    next_seq = (max(seq) + 1 if seq else int(counts["received"]) + 1) if in_flight else None
    connected = bool(seq) or (counts is not None and int(counts["sent"]) > 0)
    for no, message in errors:
        what = "the connection ended" if connected else "the client could not connect"
        run.warnings.append(f"line {no}: {what}: {message}")
    if errors and connected:
        run.add("connection_drops", "count", len(errors), "count")
    elif errors:
        run.meta["errors"] = len(errors)
    if not seq and not errors:
        return
    n = len(seq)
    run.samples = samples_frame(
        {
            "seq": pd.array(seq + [next_seq] * len(errors), dtype="Int64"),
            "kind": "probe",
            "status": ["ok"] * n + ["error"] * len(errors),
            "rtt_us": np.array(rtt + [np.nan] * len(errors), dtype=float),
            "message": [None] * n + [m for _, m in errors],
        }
    )
    if n:
        computed_rtt(run, rtt)
