"""The lenient read's second try: a block its parser refused is read again without the line
it stopped at (``_without_strays``), or past one line that ended it (``_across_stray``),
the line named and the run's line numbers given back in the file's count."""

from __future__ import annotations

from ..errors import (
    NothingMeasured,
    ParseError,
    WrongTool,
    map_lines,
)
from ..parsers import get
from ..parsers._base import Parsed, Span

# Lines a lenient read may take out of a block its parser refused (each one, near the error),
# and the longest block it reads again for it (each try reads the block whole: a refused
# million-line log keeps its located error rather than be read fifteen times).
STRAY_RETRIES = 3


STRAY_RETRY_LINES = 200_000


_NEAR = (0, -1, -2, -3, 1)


# Errors no line is taken out for: a JSON document's own repair already took out what
# strayed (what is left is its own line: a missing comma), and a number beyond int64 is the
# tool's own figure, too big to store, not a foreign line.
_NOT_A_STRAY = ("invalid JSON", "int64")


def _without_strays(tool: str, block: list[str], source: str | None, exc: Exception):
    """The block read without the line (or up to :data:`STRAY_RETRIES` lines) that made its
    parser refuse it, each named in every run's warnings; None when no such line is found.

    A parser that reads a line it does not know as an error (an ``-o`` CSV header and its
    rows, a table's columns) stops there; the lenient promise is the run kept and the line
    named.  The lines tried are the error's and the three above it (a stray line above a
    table is found where the table's next line no longer fits) and the one below.  The line
    is taken out (a blank line would split a table's header as surely as the stray did) and
    the run's line numbers are given back in the file's count.  A block that measured
    nothing (:class:`NothingMeasured`), another tool's output (:class:`WrongTool`) and the
    errors of :data:`_NOT_A_STRAY` are left as they are."""
    if not isinstance(exc, ParseError) or isinstance(exc, NothingMeasured | WrongTool):
        return None
    if any(what in exc.reason for what in _NOT_A_STRAY) or len(block) > STRAY_RETRY_LINES:
        return None
    lines, removed = list(block), []  # removed: indices in ``block``
    for _ in range(STRAY_RETRIES):
        at = exc.line_no
        if at is None:
            return None
        for k in (at - 1 + d for d in _NEAR):
            if not (0 <= k < len(lines)) or not lines[k].strip():
                continue
            trial = lines[:k] + lines[k + 1 :]
            try:
                parsed = get(tool).parse("\n".join(trial), source=source, strict=False)
            except NothingMeasured:
                continue
            except ParseError as again:
                if again.line_no is not None and again.line_no > at:
                    removed.append(_original(k, removed))
                    lines, exc = trial, again  # past this line: another one to take out
                    break
                continue
            except (OverflowError, ValueError):
                continue
            removed.append(_original(k, removed))
            return _renumbered(parsed, removed, block, tool)
        else:
            return None
    return None


def _original(k: int, removed: list[int]) -> int:
    """Index ``k`` of a block with the ``removed`` lines taken out, in the whole block."""
    for r in sorted(removed):
        if r <= k:
            k += 1
    return k


def _renumbered(parsed: Parsed, removed: list[int], block: list[str], tool: str) -> Parsed:
    def back(n: int) -> int:  # 1-based
        return _original(n - 1, removed) + 1

    note = "; ".join(
        f"line {r + 1} skipped: {block[r].strip()[:80]!r} is no {tool} output line (its "
        "parser stopped there)"
        for r in sorted(removed)
    )
    for run in parsed.runs:
        run.line_start, run.line_end = back(run.line_start), back(run.line_end)
        run.warnings = [map_lines(w, back) for w in run.warnings]
    return _named(parsed, note)


def _named(parsed: Parsed, note: str) -> Parsed:
    """``parsed`` with ``note`` (the lines a lenient read took out) first in each run's
    warnings."""
    for run in parsed.runs:
        run.warnings.insert(0, note)
    return parsed


def _across_stray(span: Span, lines: list[str], stop: int, source: str | None):
    """A refused block read on past the one line that ended it (a shell prompt typed into
    a server's log ends the block there, and the report lines after it are found by no
    locator): the block with that line blanked and the lines up to ``stop`` (the next
    block) after it, when that reads; the line named in every run's warnings."""
    at = span.end
    if at >= stop - 1 or not lines[at].strip() or stop - span.start > STRAY_RETRY_LINES:
        return None
    trial = lines[span.start : at] + [""] + lines[at + 1 : stop]
    try:
        parsed = get(span.tool).parse("\n".join(trial), source=source, strict=False)
    except (ParseError, OverflowError, ValueError):
        return None
    note = (
        f"line {at - span.start + 1} skipped: {lines[at].strip()[:80]!r} is no {span.tool} "
        "output line (the output goes on after it)"
    )
    return _named(parsed, note)
