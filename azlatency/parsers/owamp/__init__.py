"""OWAMP and TWAMP clients of perfsonar/owamp (5.2.3): owping (one-way delay, RFC 4656) and
twping (round trips with their halves, RFC 5357).  The two registry tools ``owping`` and
``twping`` (``parsers/owping.py``, ``parsers/twping.py``) are this package's readers with the
tool's name; the lines they print differ only in words (``grammar.py``).

One output of either holds, after the client's messages (``owping: NTP: Status UNSYNC
(clock offset issues likely)`` first, on stderr), one or more **sessions**, each in one of
four forms:

* the summary (default): ``--- owping statistics from [A]:p to [B]:q ---``, ``SID:``,
  ``first:``/``last:`` (local time), ``100 sent, 0 lost (0.000%), 0 duplicates``, ``one-way
  delay min/median/max = 0.03/0.1/12.2 ms, (unsync)``, ``one-way jitter = 5.8 ms (P95-P50)``,
  ``-a`` percentiles, hops, reordering;
* ``-v``: the same header, one ``seq_no=N delay=...`` line per packet (lost ones last, as
  ``*LOST*``), then the header again and the summary;
* ``-M``: ``KEY<TAB>value`` lines from ``SUMMARY 3.00``, seconds in ``%g``, the delay
  histogram between ``<BUCKETS>`` tags;
* ``-R``: one line per packet, OWAMP timestamps, no header: a session ends where sequence
  numbers start again.

owping runs two sessions, client → server (printed first) and back: each is a run of its own
(``direction`` forward / reverse, ``latency_basis = "one_way"``); twping runs one
(``latency_basis = "rtt"``).  Medians, jitter and percentiles are read off owping's histogram
(bucket ``b`` holds delays in ``((b-1)w, bw]``, ``w`` = ``-b``, 0.1 ms by default) and printed
as the bucket's upper edge: the summaries carry the edges as bounds.  See docs/tools/owping.md.
"""

from __future__ import annotations

import re

from ...errors import NothingMeasured
from .._base import Parsed, Span, ToolInfo
from .._lines import STRAY_LINES, command_above, command_of, not_found, stray
from .grammar import grammar
from .runs import runs_of
from .sessions import Block, Session


def info(tool: str, latency_basis: str) -> ToolInfo:
    """The registry's ``INFO`` of ``owping`` or ``twping``: one client program's two modes,
    printing the same four forms."""
    return ToolInfo(
        tool=tool,
        description=f"{tool} summaries ('--- {tool} statistics from [A]:p to [B]:q ---'), -v "
        "per-packet lines, -R raw records, -M machine output",
        variants=("summary", "verbose", "raw", "machine"),
        versions="owamp 5.2.3 (perfsonar/owamp eecec26 with I2util 125b7bc, built and captured)",
        produces=("runs", "samples", "summaries"),
        flags="-R (every packet's timestamps) or -v; -M (the delay histogram)",
        latency_basis=latency_basis,
        # -R prints records and nothing after them: cut at a line, it reads as fewer packets
        open_ended=("raw",),
    )


# Line kinds, in the order they are tried.
_KINDS = (
    "header",
    "sid",
    "packet",
    "lost",
    "first",
    "last",
    "counts",
    "delay",
    "proc",
    "jitter",
    "percentiles",
    "hops",
    "reordering",
    "approx",
    "offset",
    "message",
    "machine",
    "tag",
    "raw",
)
_OPENS = {"message", "header", "approx", "machine", "raw", "packet", "offset"}


def openers(tool: str) -> tuple[re.Pattern[str], ...]:
    """The patterns of the kinds in _OPENS (the reader's hook ``OPENERS``): ``locate`` opens
    only on a line whose kind is one of them."""
    g = grammar(tool)
    return tuple(getattr(g, name) for name in _KINDS if name in _OPENS)


def kind_of(line: str, tool: str, inside: str | None = None) -> tuple[str | None, re.Match | None]:
    """The kind of an owping/twping line; ``inside`` is the ``-M`` tag or ``Percentiles:``
    block the line is in (their rows are plain numbers)."""
    g = grammar(tool)
    if inside == "percentiles" and (m := g.percentile.match(line)):
        return "percentile", m
    if inside in ("BUCKETS", "TTLBUCKETS", "NREORDERING") and (m := g.bucket.match(line)):
        return "bucket", m
    for name in _KINDS:
        m = getattr(g, name).match(line)
        if m:
            return name, m
    return None, None


def _inside(kind: str | None, m: re.Match | None, inside: str | None) -> str | None:
    if kind == "percentiles":
        return "percentiles"
    if kind == "tag":
        return None if m["end"] else m["tag"]
    if kind in ("percentile", "bucket"):
        return inside
    return None


def locate(lines: list[str], tool: str) -> list[Span]:
    """From a line of the tool's own (its ``tool:`` messages, a header, ``SUMMARY``, a raw
    record; or the command above it) while the lines are the tool's, blank lines and up to
    :data:`STRAY_LINES` stray lines between them; the tool's NTP message after a session
    starts the next invocation."""
    spans: list[Span] = []
    i, n = 0, len(lines)
    while i < n:
        kind, _ = kind_of(lines[i], tool)
        if kind not in _OPENS:
            i += 1
            continue
        start = command_above(lines, i, spans[-1].end if spans else 0, (tool,))
        inside, sessions, last, j = None, False, i, i
        while j < n:
            if not lines[j].strip():
                j += 1
                continue
            kind, m = kind_of(lines[j], tool, inside)
            if kind is None:
                ahead = [x for x in lines[j + 1 : j + 1 + STRAY_LINES] if x.strip()]
                if not any(kind_of(x, tool)[0] for x in ahead):
                    break
                j += 1
                continue
            if kind == "message" and sessions and m["text"].startswith("NTP:"):
                break  # the next invocation's first line
            sessions = sessions or kind in ("header", "machine", "raw", "packet")
            inside = _inside(kind, m, inside)
            last = j
            j += 1
        spans.append(Span(start, last + 1, tool))
        i = last + 1
    return spans


def parse(text: str, tool: str, source: str | None, strict: bool) -> Parsed:
    lines = text.split("\n")
    spans = locate(lines, tool)
    if not spans:
        raise not_found(
            tool,
            source,
            f"'--- {tool} statistics from [...]', 'SUMMARY\\t3.00' "
            f"or its raw records, or '{tool}: ...' messages",
        )
    runs = []
    for span in spans:
        block = _read_block(lines, span, tool, source, strict)
        if not block.sessions:
            said = "; ".join(text for _, text in block.messages if not text.startswith("NTP:"))
            said = said or "no session printed (stopped or cut before the results)"
            raise NothingMeasured(
                tool,
                source,
                (block.messages[-1][0] if block.messages else span.start + 1),
                f"{tool} measured nothing: {said}",
                hint=f"is the {'twampd' if tool == 'twping' else 'owampd'} server running "
                "there, and are its control and test ports open?",
            )
        runs.extend(runs_of(block))
    return Parsed(tool, runs)


def _read_block(lines: list[str], span: Span, tool: str, source: str | None, strict: bool):
    block = Block(tool=tool, source=source, strict=strict)
    inside = None
    for no in range(span.start + 1, span.end + 1):
        line = lines[no - 1].rstrip("\r")
        if not line.strip():
            continue
        kind, m = kind_of(line, tool, inside)
        if kind is None:
            if no == span.start + 1 and command_of(line, (tool,))[0]:
                block.command = line
                continue
            stray(tool, source, no, line, strict, block.warnings)
            continue
        inside = _inside(kind, m, inside)
        block.take(kind, m, no)
    block.close()
    return block


__all__ = ["Block", "Session", "kind_of", "locate", "parse"]
