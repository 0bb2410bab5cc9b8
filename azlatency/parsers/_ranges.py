"""Range checks shared by the ntttcp and ethr parsers.

A damaged log can carry a number with twenty digits (``total bytes :99999999999999999999999``);
Python reads it, but the table's ``Int64`` column cannot hold it and pandas would raise an
``OverflowError`` far from the line that caused it.  These checks turn that into a located
:class:`~azlatency.errors.ParseError` before the run leaves the parser.
"""

from __future__ import annotations

import numbers

from ..errors import ParseError
from ..schema import COLUMNS
from ._base import Run

_LO, _HI = -(2**63), 2**63 - 1


def _bad(value) -> bool:
    return (
        isinstance(value, numbers.Integral)
        and not isinstance(value, bool)
        and not _LO <= int(value) <= _HI
    )


def int64(
    value, *, tool: str, source: str | None, line_no: int | None, what: str, text: str | None = None
) -> int:
    """``int(value)`` (an int or Decimal read from line ``line_no``; ``text`` as printed) when it
    fits int64, else a ParseError at that line saying what was expected."""
    n = int(value)
    if not _LO <= n <= _HI:
        got = text if text is not None else str(value)
        raise ParseError(
            tool, source, line_no, f"expected {what}, got {got.strip()!r}: out of range for int64"
        )
    return n


def line_of(lines: list[str], first: int, *needles: str) -> int:
    """Line number of the first of ``lines`` that holds every needle, ``lines[0]`` being line
    ``first``; ``first`` when none does.  XML and JSON parsers give no position for a value:
    its text, next to its key or tag, finds the line in a pretty-printed document (in a
    one-line document that is the document's line anyway)."""
    for k, line in enumerate(lines):
        if all(n in line for n in needles):
            return first + k
    return first


def check_int64(run: Run, tool: str, source: str | None) -> Run:
    """Raise ParseError when an integer run or sample column of ``run`` does not fit Int64.
    A safety net at the run's first line: the parsers check each number at its own line."""
    for name, value in run.meta.items():
        col = COLUMNS["runs"].get(name)
        if col is not None and col.dtype == "Int64" and _bad(value):
            raise ParseError(
                tool,
                source,
                run.line_start,
                f"{name} {value} does not fit a 64-bit integer (a damaged number?)",
            )
    samples = run.samples
    if samples is not None and len(samples):
        for name in samples.columns:
            col = COLUMNS["samples"].get(name)
            if col is None or col.dtype != "Int64" or samples[name].dtype.kind in "if":
                continue  # numeric numpy dtypes already fit
            bad = next((v for v in samples[name] if _bad(v)), None)
            if bad is not None:
                raise ParseError(
                    tool,
                    source,
                    run.line_start,
                    f"{name} {bad} does not fit a 64-bit integer (a damaged number?)",
                )
    return run
