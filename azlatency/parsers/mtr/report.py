"""mtr's text report (``-r``/``--report``, ``-w``/``--report-wide``, ``-o FIELDS``)::

    Start: 2026-11-25T16:17:56+0000
    HOST: vm                          Loss%   Snt Drop   Rcv   Last  Best   Avg  Wrst ...
      1.|-- 10.77.1.1                 80.0%    50   40    10    0.1   0.1   0.1   0.1 ...
            10.77.3.1
      2.|-- ???                       100.0     5    0.0   0.0   0.0   0.0   0.0

Format facts (mtr 0.95 ``ui/report.c``, checked on captures): the columns are the ``HOST:``
line's titles, in ``-o`` order; each value is printed as ``" %5.1f"`` into a fixed width, so a
value wider than its column loses its last character to the next one (``100.0%`` prints as
``100.0``; a time of 1000 ms or more loses its last digit: ``1234.`` is read with a warning);
hosts that answered at a hop after the first are listed on lines of their own under it (8
spaces, or ``    |  `|-- host`` in builds without ipinfo); ``-z`` puts ``AS...`` before the host
instead of ``|--``.  The report does not name its target: only a command line above it does.
"""

from __future__ import annotations

import re

from ...errors import ParseError
from .._lines import apart, command_of, joined_kinds, name_joined, stray
from .hops import (
    BLANK,
    FIELDS,
    TOOL,
    UNKNOWN_HOST,
    Hop,
    Trace,
    from_command,
    hop_values,
    start_time,
    target_meta,
)

START = re.compile(r"^\s*Start:\s+(?P<when>\S.*?)\s*$")
HEADER = re.compile(r"^\s*HOST:\s+(?P<host>\S+)(?P<titles>(?:\s+\S+)+)\s*$")
HOP = re.compile(
    r"^\s*(?P<hop>\d+)\.(?:\|--\s|\s+(?P<asn>AS\S*)\s+)\s*(?P<rest>\S.*?)\s*$"
)  # fmt: skip
# A further host of the hop above: 8 spaces (builds with ipinfo, Debian's) or the tree drawn by
# builds without it (``    |  `|-- 10.0.0.2`` for the second, ``    |   |-- ...`` after).
OTHER = re.compile(r"^(?: {8}|\s{4}\|\s+`?\|-- )(?P<host>[^\s|`][^\s]*(?: \([^)\s]+\))?)\s*$")
MPLS = re.compile(r"^\s*(?:\|\s+(?:\|\+|\+)-- )?\[MPLS: (?P<label>[^\]]*)\]\s*$")
LINES = (START, HEADER, HOP, OTHER, MPLS)


def kind(line: str) -> re.Pattern[str] | None:
    if command_of(line, (TOOL,))[0] is not None:
        return None  # a command line is found by locate() on its own
    for pattern in LINES:
        m = pattern.match(line)
        if m and (pattern is not HEADER or _titles(m) is not None):
            # a hop line holding the next hop's ('...  0.1  2.|-- 10.77.2.2 ...'), a start
            # line holding the header ('Start: 2026-11-25T17:05:40+0000HOST: vm  Loss% ...')
            # are two lines run together (a lost line break), no line of one kind
            if pattern is HOP and _ANOTHER_HOP.search(line, m.start("rest")):
                return None
            if pattern is START and _HOST.search(m["when"]):
                return None
            return pattern
    return None


def has_header(line: str) -> bool:
    """Whether ``line`` is the ``HOST:`` line, or holds it run together with another."""
    if HEADER.match(line):
        return True
    return "HOST:" in line and HEADER in joined_kinds(line, kind)


_ANOTHER_HOP = re.compile(r"\s\d+\.\|--\s")
_HOST = re.compile(r"HOST:\s")


def _other_line(
    cur: Trace, titles: list[str], no: int, line: str, source: str | None, strict: bool
) -> None:
    """A line of no kind in a trace: the header's last titles on a line of their own ('StDev':
    a copy wrapped at its width), taken into ``titles``; else a stray line."""
    words = line.split()
    if titles and not cur.hops and words and all(w in FIELDS for w in words):
        titles.extend(words)
        cur.warnings.append(
            f"line {no}: the 'HOST:' line's last titles on a line of their own (a copy "
            "wrapped at its width?): read with it"
        )
    else:
        stray(TOOL, source, no, line, strict, cur.warnings)


def _titles(m: re.Match[str]) -> list[str] | None:
    titles = m["titles"].split()
    return titles if titles and all(t in FIELDS for t in titles) else None


def parse(lines: list[str], source: str | None, strict: bool) -> list[Trace]:
    traces: list[Trace] = []
    cur: Trace | None = None
    command: dict | None = None
    titles: list[str] = []
    joined: list[tuple[int, int]] = []
    for no, line, _ in apart(lines, kind, joined):
        if not line.strip():
            continue
        cmd = command_of(line, (TOOL,))[0]
        if cmd is not None and not HOP.match(line):
            command = from_command(cmd)
            continue
        k = kind(line)
        m = k.match(line) if k else None
        if k is START or (k is HEADER and (cur is None or titles)):
            cur, titles = _open(no, command), []
            traces.append(cur)
            command = None
        if k is START:
            when = start_time(m["when"])
            cur.meta["start_time"] = when
            if when is None:
                cur.labels["start"] = m["when"]  # ctime() of mtr < 0.87: local, no zone
        elif k is HEADER:
            titles = _titles(m)
            cur.meta["src_host"] = m["host"]
            cur.line_end = no
        elif k is HOP and titles:
            hop = _hop(m, titles, no, source, strict, cur.warnings)
            if hop is not None:
                cur.hops.append(hop)
                cur.line_end = no
        elif k in (OTHER, MPLS) and cur is not None and cur.hops:
            hop = cur.hops[-1]
            if k is OTHER:
                hop.others.append(m["host"])
            else:
                hop.notes.append(f"MPLS {m['label']}")
            cur.line_end = no
        elif k is HOP:
            raise ParseError(
                TOOL, source, no, "expected the 'HOST: <name> Loss% Snt ...' line above the hops"
            )
        elif cur is not None:
            _other_line(cur, titles, no, line, source, strict)
        else:
            raise ParseError(TOOL, source, no, f"expected an mtr report, got {line.strip()[:80]!r}")
    if traces:
        name_joined(traces, joined, TOOL)
    return traces


def _open(no: int, command: dict | None) -> Trace:
    trace = Trace(variant="report", line_start=no, line_end=no)
    if command:
        trace.meta.update(target_meta(command.get("target")), protocol=command["protocol"])
        if "cycles" in command:
            trace.labels["cycles"] = command["cycles"]
    return trace


def _hop(m, titles, no, source, strict, warnings) -> Hop | None:
    read = hop_values(m["rest"].split(), titles, m.group(), no, source, strict, warnings)
    if read is None:
        return None
    host, values = read
    cut = [t for t, v in values.items() if v.endswith(".") and FIELDS[t][2] == "us"]
    if cut:
        warnings.append(
            f"line {no}: {', '.join(cut)} wider than mtr's column: its last digit was cut "
            "(read without it)"
        )
    notes = [m["asn"]] if m["asn"] else []
    return Hop(int(m["hop"]), None if host == UNKNOWN_HOST else host, values, no, notes=notes)


__all__ = ["BLANK", "kind", "parse"]
