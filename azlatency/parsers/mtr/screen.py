"""mtr's live screen (``mtr host`` at a terminal, curses), as copied from it::

                                     My traceroute  [v0.95]
    vm (10.78.1.2) -> svc-b.azl.internal (10.78.2.2)         2026-11-28T16:41:32+0000
    Keys:  Help   Display mode   Restart statistics   Order of fields   quit
                                                   Packets               Pings
     Host                                        Loss%   Snt   Last   Avg  Best  Wrst StDev
     1. router.azl.internal                       0.0%     8    0.1   0.1   0.1   0.1   0.0
     2. (waiting for reply)

Layout facts (mtr 0.95 and traviscross/mtr 7b01773 ``ui/curses.c``, checked on captures): the
title (``My traceroute on <host>  [v0.96] ICMP`` from 2026); the local host and address, the
target and its address, and the time the screen was drawn (not the start) at the right edge
(older builds name no target); the column titles right-aligned to the screen's edge, in ``-o``
order, the values under them; a hop's host from column 4 up to where the values start, so a
name too long for a narrow screen is cut there; a hop that did not answer says why in
parentheses (``(waiting for reply)``, ``(no route to host)``); further hosts of a hop and MPLS
labels on lines of their own, four spaces in.  The screen is a state of a run that went on: its
counts are those so far (``Snt`` differs hop to hop), and ``-c`` ends it by clearing the screen.
"""

from __future__ import annotations

import re

from ...errors import ParseError
from .._lines import command_of, stray
from .hops import CUT, FIELDS, TOOL, Hop, Trace, from_command, hop_values, target_meta

TITLE = re.compile(
    r"^\s*My traceroute(?: on (?P<local>\S+))?\s+\[v(?P<version>[^\]\s]+)\]"
    r"(?:\s+(?P<proto>ICMP|UDP|TCP|SCTP))?\s*$"
)
# 'vm (10.78.1.2) -> svc-b (10.78.2.2)   2026-11-28T16:41:32+0000': a narrow screen draws the
# time over the target's address ('... (2001:db8::20052026-08-26T13:40:47+0700')
ENDS = re.compile(
    r"^\s*(?P<local>[^\s()]+) \((?P<src>[^)\s]*)\)"
    r"(?: -> (?P<target>[^\s()]+)(?: \((?P<dst>[^)\s]*?)\)?)?)?"
    r"(?:\s*(?P<when>\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d{4}))?\s*$"
)
# 'Keys:  Help   Display mode   Restart statistics   Order of fields   quit'; a screen narrower
# than the line wraps it ('... Order of field' / 's   quit    Packets    Pings')
KEYS = re.compile(r"^\s*Keys:\s+Help\s+Display mode\b.*$")
GROUPS = re.compile(r"^\s*(?:s?\s+quit\s+)?Packets\s+Pings\s*$")
HEAD = re.compile(r"^\s*Host\s+(?P<titles>\S.*?)\s*$")
ROW = re.compile(r"^\s*(?P<hop>\d+)\.\s+(?:(?P<asn>AS\S+)\s+)?(?P<rest>\S.*?)\s*$")
NO_REPLY = re.compile(r"^\((?P<why>[^()]+)\)$")
OTHER = re.compile(r"^ {4}(?P<host>[^\s\[][^\s]*(?: \([^)\s]+\))?)\s*$")
MPLS = re.compile(r"^ {4}\[MPLS: (?P<label>[^\]]*)\]\s*$")
LINES = (TITLE, KEYS, GROUPS, HEAD, ROW, MPLS, OTHER, ENDS)


def kind(line: str) -> re.Pattern[str] | None:
    for pattern in LINES:
        m = pattern.match(line)
        if m and (pattern is not HEAD or _titles(m["titles"]) is not None):
            return pattern
    return None


def _titles(text: str) -> list[str] | None:
    titles = text.split()
    return titles if titles and all(t in FIELDS for t in titles) else None


def parse(lines: list[str], source: str | None, strict: bool) -> list[Trace]:
    screens: list[_Screen] = []
    command: dict | None = None
    for no, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        cmd = from_command_line(line)
        if cmd is not None:
            command = cmd
            continue
        cur = screens[-1] if screens else None
        k = kind(line)
        if k is OTHER and (cur is None or not cur.trace.hops) and ENDS.match(line):
            k = ENDS  # 'vm (10.0.0.4)' indented: no further host before any hop
        # a new screen: its title, or its ends or ' Host' line first or after the hops of the
        # last (a second screen copied without its title)
        if k is TITLE or (k in (HEAD, ENDS) and (cur is None or cur.trace.hops)):
            cur = _Screen(_open(no, command))
            screens.append(cur)
            command = None
        if cur is None:
            raise ParseError(TOOL, source, no, f"expected mtr's screen, got {line.strip()[:80]!r}")
        cur.take(k, line, no, source, strict)
    return [x.trace for x in screens]


class _Screen:
    """One screen as read: its trace, the column titles and where the values start."""

    def __init__(self, trace: Trace) -> None:
        self.trace = trace
        self.titles: list[str] = []
        self.start = 0  # the column where the values start (a host reaching it was cut)

    def take(self, k, line: str, no: int, source: str | None, strict: bool) -> None:
        trace = self.trace
        trace.line_end = no
        m = k.match(line) if k else None
        if k is TITLE:
            trace.meta["tool_version"] = m["version"]
            if m["proto"]:
                trace.meta["protocol"] = m["proto"].lower()
            if m["local"]:
                trace.meta["src_host"] = m["local"]
        elif k is ENDS:
            _ends(trace, m)
        elif k is HEAD:
            self.titles = _titles(m["titles"])
            self.start = m.start("titles") - 1
        elif k is ROW and self.titles:
            hop = _hop(m, self.titles, self.start, no, source, strict, trace.warnings)
            if hop is not None:
                trace.hops.append(hop)
        elif k is ROW:
            raise ParseError(
                TOOL, source, no, "expected the ' Host  Loss%  Snt ...' line above the hops"
            )
        elif k in (OTHER, MPLS) and trace.hops:
            hop = trace.hops[-1]
            if k is OTHER:
                hop.others.append(m["host"])
            else:
                hop.notes.append(f"MPLS {m['label']}")
        elif k not in (KEYS, GROUPS):
            stray(TOOL, source, no, line, strict, trace.warnings)


def from_command_line(line: str) -> dict | None:
    cmd = command_of(line, (TOOL,))[0]
    return from_command(cmd) if cmd is not None and not ROW.match(line) else None


def _open(no: int, command: dict | None) -> Trace:
    trace = Trace(variant="screen", line_start=no, line_end=no)
    if command:
        trace.meta.update(target_meta(command.get("target")), protocol=command["protocol"])
    return trace


def _ends(trace: Trace, m: re.Match[str]) -> None:
    """The local host and address, the target and its address, the time of the screen."""
    meta = trace.meta
    meta["src_host"] = m["local"]
    if m["src"] and m["src"] not in ("0.0.0.0", "::"):
        meta["src_ip"] = m["src"]
    if m["target"]:
        named = target_meta(m["target"])
        meta.update({k: v for k, v in named.items() if v is not None})
        if m["dst"] and meta.get("dst_ip") is None:
            meta["dst_ip"] = m["dst"]
    if m["when"]:
        trace.labels["screen_time"] = m["when"]  # when it was drawn, not when mtr started


def _hop(m, titles, start, no, source, strict, warnings) -> Hop | None:
    rest = m["rest"]
    notes = [m["asn"]] if m["asn"] else []
    if why := NO_REPLY.match(rest):
        return Hop(int(m["hop"]), None, {}, no, notes=[*notes, why["why"]])
    read = hop_values(rest.split(), titles, m.group(), no, source, strict, warnings)
    if read is None:
        return None
    host, values = read
    if m.string.find(host, m.start("rest")) + len(host) >= start > 0:
        notes.append(CUT)
        warnings.append(
            f"line {no}: the host {host!r} fills its column up to the values: the screen was "
            "too narrow for its name (cut?)"
        )
    return Hop(int(m["hop"]), host, values, no, notes=notes)
