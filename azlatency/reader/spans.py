"""Where the outputs sit in a document's lines: every parser's spans, the non-overlapping
ones kept (``resolve``), and outputs read on across a few foreign lines (``bridge``)."""

from __future__ import annotations

import bisect
import contextlib
import itertools
import json

from ..errors import (
    ParseError,
)
from ..parsers import get, modules
from ..parsers._base import Span, hook
from .openers import may_open
from .outline import _FENCE, _HEADING


def resolve(spans: list[Span]) -> list[Span]:
    """Keep non-overlapping spans: earliest first, then the longest, then the heaviest."""
    chosen: list[Span] = []
    for s in sorted(spans, key=lambda s: (s.start, -(s.end - s.start) * s.weight, -s.weight)):
        if s.end <= s.start:
            continue
        if chosen and s.start < chosen[-1].end:
            prev = chosen[-1]
            # A heavier span that starts inside a lighter one wins the overlap.
            if s.weight > prev.weight and s.start > prev.start:
                chosen[-1] = Span(prev.start, s.start, prev.tool, prev.weight)
                chosen.append(s)
            continue
        chosen.append(s)
    return chosen


def locate(lines: list[str]) -> list[Span]:
    """Every tool's spans in ``lines``, resolved.  A tool whose ``OPENERS`` the document cannot
    match is not asked (``openers.may_open``): its line scan would open nothing, and a long log
    of one tool is otherwise scanned line by line by all twenty."""
    text = "\n".join(lines)
    spans: list[Span] = []
    for module in modules():
        if may_open(module, text):
            spans.extend(module.locate(lines))
    if "{" in text:
        spans.extend(_json_documents(lines, text, spans))
    return resolve(spans)


def whole_file_tool(text_head: str, tool: str | None) -> str | None:
    """``tool``, else the tool whose ``whole_file`` claims a text that opens with
    ``text_head`` (a JSON document, a CSV with its header), else None."""
    if tool:
        return tool
    for module in modules():
        claim = hook(module, "whole_file")
        if claim is not None and claim(text_head):
            return module.INFO.tool
    return None


_HEAD = 4096  # of a document: what a tool's whole_file is shown


def _json_documents(lines: list[str], text: str, spans: list[Span]) -> list[Span]:
    """Pretty-printed JSON documents in a text that no tool's ``locate`` found: a tool whose
    JSON output is a file of its own (ntttcp's ``-j``, lagscope's frequency table) claims
    such a document as its ``whole_file``, pasted into a README's fence or a note.  A
    document opens with a line that is '{' alone and ends where it decodes to, at a line's
    end."""
    starts = [k for k, x in enumerate(lines) if x.strip() == "{"]
    if not starts:
        return []
    found = bytearray(len(lines))  # the lines some locate found (an iperf3 -J log's many)
    for span in spans:
        found[span.start : span.end] = b"\x01" * (span.end - span.start)
    offsets = list(itertools.accumulate((len(x) + 1 for x in lines), initial=0))
    decoder = json.JSONDecoder()
    out: list[Span] = []
    past = 0
    for k in starts:
        if k < past or found[k]:
            continue
        try:
            _, end = decoder.raw_decode(text, offsets[k] + lines[k].index("{"))
        except ValueError:
            continue
        last = bisect.bisect_right(offsets, end - 1) - 1  # the line of the closing brace
        if text[end : offsets[last + 1] - 1].strip():
            continue
        tool = whole_file_tool(text[offsets[k] : min(end, offsets[k] + _HEAD)], None)
        if tool is not None:
            out.append(Span(k, last + 1, tool))
            past = last + 1
    return out


# Lines that are no tool's (a kernel message, ``Connection reset by peer``, a shell line, a
# note) between two outputs of one tool: up to this many are read as part of the output when
# the tool's parser says the second continues the first's run.
BRIDGE_LINES = 6


# Another tool's output this short inside the gap is more likely a stray line that happens
# to look like that tool's (``12.5``, ``----``) than an output of its own.
_STRAY_SPAN = 2


def bridge(lines: list[str], spans: list[Span]) -> list[Span]:
    """Outputs as their tools read them, not as far as the first foreign line: a few lines
    that are no tool's (a kernel message, ``Connection reset by peer``, a shell line, a note)
    inside an output are kept inside its block, where the parser names them (a warning, or a
    located error with ``strict=True``), instead of ending the run there.

    A span grows over what follows it while the tool's own parser reads the two differently
    together: the next span of the same tool (one run split in two would be a fake replicate,
    or the second part would lose what the first said, such as a command's message sizes), or
    the lines after a stray line up to the next blank line (a ``key = value`` tail no locator
    starts a span on).  A heading or a code fence in between always separates."""
    out: list[Span] = []
    memo: dict[tuple[int, int], tuple | None] = {}
    i = 0
    while i < len(spans):
        cur = spans[i]
        i += 1
        while True:
            j = i  # the candidate continuation, past a stray span of another tool
            while (
                j + 1 < len(spans)
                and spans[j].tool != cur.tool
                and spans[j].end - spans[j].start <= _STRAY_SPAN
            ):
                j += 1
            if (
                j < len(spans)
                and spans[j].tool == cur.tool
                and _small_gap(lines, cur.end, spans[j].start)
            ):
                merged = Span(cur.start, spans[j].end, cur.tool, cur.weight)
                if _reads_as_one(lines, cur, spans[j], merged, memo):
                    cur, i = merged, j + 1
                    continue
            limit = spans[i].start if i < len(spans) else len(lines)
            for end in _tails(lines, cur.end, limit):
                longer = Span(cur.start, end, cur.tool, cur.weight)
                if _reads_more(lines, cur, longer, memo):
                    cur = longer
                    break
            else:
                break
        out.append(cur)
    return out


def _tails(lines: list[str], a: int, limit: int) -> list[int]:
    """Where the lines after ``lines[a]`` could end if they go on the output: the end of the
    next paragraph (one or two blank lines on), and, when that paragraph is only a few lines
    (the stray lines alone), of the one after it.  None past a heading or a fence."""
    ends: list[int] = []
    for _ in range(2):
        skipped = 0
        while a < limit and not lines[a].strip() and skipped < 2:
            a, skipped = a + 1, skipped + 1
        if a >= limit or not lines[a].strip():
            break
        b = a
        while (
            b < limit
            and lines[b].strip()
            and not (_FENCE.match(lines[b]) or _HEADING.match(lines[b]))
        ):
            b += 1
        if b == a or b - a > _TRIAL_LINES:
            break
        ends.append(b)
        if b - a > BRIDGE_LINES or b < limit and lines[b].strip():
            break
        a = b
    return ends


def _reads_more(lines, cur: Span, longer: Span, memo) -> bool:
    """The tool reads ``longer`` differently from ``cur``, and not less of it."""
    if cur.end - cur.start > _TRIAL_LINES:
        return False
    short, long = _reading(lines, cur, memo), _reading(lines, longer, memo)
    if long is None or long == short:
        return False
    if short is None:
        return False  # nothing to continue: the lines after it are another matter
    return len(long) >= len(short) and _amount(long) >= _amount(short)


def _samples(reading: tuple) -> int:
    return sum(samples for _, _, samples, _, _ in reading)


def _amount(reading: tuple) -> int:
    """How much a reading holds: facts about runs, samples and summaries."""
    return sum(facts + samples + summaries for _, facts, samples, summaries, _ in reading)


# Beyond this many lines the trial reads cost more than they tell: a long log split by a few
# stray lines is one output.
_TRIAL_LINES = 100_000


def _reads_as_one(lines, prev: Span, nxt: Span, merged: Span, memo) -> bool:
    if merged.end - merged.start > _TRIAL_LINES:
        return True
    together = _reading(lines, merged, memo)
    if together is None:
        return False
    first, second = _reading(lines, prev, memo), _reading(lines, nxt, memo)
    if first is None or second is None:
        return True
    # Read as one, the two must say something else (fewer runs, a command's sizes on the
    # second) and keep every sample: another output after a note is not swallowed as bad
    # lines.  (Summaries may fall: a total line supersedes the per-stream lines before it.)
    return together != first + second and _samples(together) >= _samples(first) + _samples(second)


def _small_gap(lines: list[str], a: int, b: int) -> bool:
    gap = [line for line in lines[a:b] if line.strip()]
    return 0 < len(gap) <= BRIDGE_LINES and not any(
        _FENCE.match(line) or _HEADING.match(line) for line in gap
    )


_WHERE = frozenset(("line_start", "line_end", "warnings", "complete"))


def _facts(meta: dict) -> int:
    """Facts a run's meta holds (each label counts, whether a dict or its JSON)."""
    n = 0
    for k, v in meta.items():
        if k in _WHERE or v is None:
            continue
        if isinstance(v, str) and v.startswith("{"):
            with contextlib.suppress(ValueError):
                v = json.loads(v)
        n += len(v) if isinstance(v, dict) else 1
    return n


def _count(rows: tuple | None) -> int:
    return 0 if rows is None else rows[2] - rows[1]


def _reading(lines: list[str], span: Span, memo) -> tuple | None:
    """What the tool's parser reads in ``span`` (lenient), without line numbers and warnings:
    a tuple per run; None when it reads nothing."""
    key = (span.start, span.end)
    if key not in memo:
        try:
            parsed = get(span.tool).parse("\n".join(lines[span.start : span.end]), strict=False)
        except (ParseError, OverflowError):
            memo[key] = None
        else:
            memo[key] = (
                tuple(
                    (
                        repr(sorted((k, repr(v)) for k, v in run.meta.items() if k not in _WHERE)),
                        _facts(run.meta),
                        _count(run.sample_rows()),
                        len(run.summaries),
                        repr([(x.metric, x.stat, x.value) for x in run.summaries]),
                    )
                    for run in parsed.runs
                )
                or None
            )
    return memo[key]
