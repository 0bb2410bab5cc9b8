"""mtr (My Traceroute): per-hop loss and round trips of a path.

Reads the text report (``-r``, ``-w``, ``-o FIELDS``), ``--json`` and ``--csv``
(``report.py``, ``machine.py``); every format becomes one run per trace, its hops kept apart
(``hops.py``, docs/vocabulary.md "Per-hop data"): ``hop`` samples (``seq`` = the hop,
``host``), per-hop summaries with ``summaries.hop``, and no end-to-end latency.  See
``docs/tools/mtr.md``.
"""

from __future__ import annotations

import re

from ...errors import ParseError
from .._base import Parsed, Span, ToolInfo
from .._lines import STRAY_LINES, command_above, command_of, line_blocks, not_found
from . import machine, report, screen
from .hops import TOOL, build, from_command

INFO = ToolInfo(
    tool=TOOL,
    description="mtr --report/-w/-o, its live screen, --json and --csv: per-hop loss and round trips",
    variants=("report", "screen", "json", "json-0.93", "csv"),
    versions="mtr 0.85-0.96 (0.93, 0.95 and 0.96 captured; their screens copied from tmux)",
    produces=("runs", "samples", "summaries"),
    flags="-r -c <n> (or --json / --csv); -o 'LSDR NBAW JMXI' adds counts and jitter",
    latency_basis="rtt",  # every time it prints is an ICMP/UDP/TCP round trip, of one hop
    # A report or CSV ends after its last hop with nothing to say so: cut at a line, it reads
    # as a shorter trace.
    open_ended=("report", "csv"),
)

_JSON_OPEN = re.compile(r'^\s*\{\s*(?:"report"\s*:\s*\{\s*)?$')
_JSON_REPORT = re.compile(r'^\s*"report"\s*:\s*\{\s*$|^\s*\{\s*"report"\s*:')
# The reader's hook: a report keeps only spans with a HOST: line, the CSV opens on its header,
# a JSON document needs its "report" line.
OPENERS = (report.HEADER, machine.CSV_HEADER, _JSON_REPORT, screen.TITLE, screen.HEAD)


def whole_file(head: str) -> bool:
    """A file that is mtr --json output: ``{`` first, ``"report": {`` and ``"mtr": {`` within
    its first lines (a stray line between them is the parser's to name)."""
    text = head.lstrip()
    top = "\n".join(text.split("\n", 6)[:6])
    return text.startswith("{") and bool(
        re.search(r'"report"\s*:\s*\{', top) and re.search(r'"mtr"\s*:\s*\{', top)
    )


def _next_run(k, seen: set) -> bool:
    if k is report.START:
        return bool(seen)
    return k is report.HEADER and report.HEADER in seen


def locate(lines: list[str]) -> list[Span]:
    """Reports from their ``Start:`` (or ``HOST:``) line through the hops; CSV from its
    header through its ``MTR.`` rows; JSON documents from ``{`` to the ``}`` that closes them;
    each with an ``mtr`` command line just above it."""
    spans = [
        s
        for s in line_blocks(lines, TOOL, report.kind, (report.START, report.HEADER), _next_run)
        # a 'Start: ...' line of something else opens nothing: a report has its HOST: line
        if any(report.has_header(x) for x in lines[s.start : s.end])
    ]
    spans += _csv_spans(lines) + _json_spans(lines) + _screen_spans(lines)
    out = []
    for s in sorted(spans, key=lambda s: s.start):
        start = command_above(lines, s.start, out[-1].end if out else 0, (TOOL,))
        out.append(Span(start, s.end, TOOL))
    return out


def _screen_next(k, seen: set) -> bool:
    if k is screen.TITLE:
        return bool(seen)
    return k in (screen.HEAD, screen.ENDS) and screen.ROW in seen


def _screen_spans(lines: list[str]) -> list[Span]:
    """The screen from its title (or, copied without it, its ' Host  Loss% ...' line) through
    its hops; a screen has its ' Host' line."""
    return [
        s
        for s in line_blocks(lines, TOOL, screen.kind, (screen.TITLE, screen.HEAD), _screen_next)
        if any(screen.kind(x) is screen.HEAD for x in lines[s.start : s.end])
    ]


def _csv_kind(line: str):
    return (
        machine.CSV_HEADER
        if machine.CSV_HEADER.match(line)
        else (machine.CSV_ROW if machine.CSV_ROW.match(line) else None)
    )


def _csv_spans(lines: list[str]) -> list[Span]:
    return line_blocks(lines, TOOL, _csv_kind, (machine.CSV_HEADER,), lambda k, seen: False)


def _json_spans(lines: list[str]) -> list[Span]:
    spans, i = [], 0
    while i < len(lines):
        line = lines[i]
        near = lines[i : i + 1 + STRAY_LINES]
        if not (_JSON_OPEN.match(line) and any(_JSON_REPORT.match(x) for x in near)):
            i += 1
            continue
        indent = len(line) - len(line.lstrip())
        j = i + 1
        while j < len(lines) and not (
            lines[j].strip() == "}" and len(lines[j]) - len(lines[j].lstrip()) == indent
        ):
            j += 1
        spans.append(Span(i, min(j + 1, len(lines)), TOOL))
        i = j + 1
    return spans


def parse(text: str, *, source: str | None = None, strict: bool = True) -> Parsed:
    lines = text.split("\n")
    body = [x for x in lines if x.strip()]
    if not body:
        raise ParseError(TOOL, source, None, "no mtr output: empty")
    if any(machine.CSV_HEADER.match(x) for x in body):
        traces = machine.parse_csv(lines, source, strict)
    elif any(x.lstrip().startswith("{") for x in body[:3]):
        traces = machine.parse_json(_from_json(lines), source, strict)
        _add_command(traces, lines)
    elif any(screen.kind(x) in (screen.TITLE, screen.HEAD) for x in body):
        traces = screen.parse(lines, source, strict)
    else:
        traces = report.parse(lines, source, strict)
    if not traces:
        first = next(i for i, x in enumerate(lines, start=1) if x.strip())
        raise not_found(
            TOOL,
            source,
            "'HOST: <name>  Loss%  Snt ...' and hop lines ('  1.|-- <host> ...'), --json or --csv",
            first,
        )
    return Parsed(TOOL, [build(t, source=source, strict=strict) for t in traces])


def _from_json(lines: list[str]) -> str:
    """The block from its first ``{`` on, lines above it blanked (a command line) so line
    numbers hold."""
    first = next(i for i, x in enumerate(lines) if x.lstrip().startswith("{"))
    return "\n".join([""] * first + lines[first:])


def _add_command(traces, lines: list[str]) -> None:
    for line in lines:
        cmd = command_of(line, (TOOL,))[0]
        if cmd is not None:
            said = from_command(cmd)
            for t in traces:
                t.meta.setdefault("protocol", said["protocol"])
            return
