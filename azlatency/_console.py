"""The rich console every command prints with, and how a count is written in words (the
console, the warnings and the pages say it alike)."""

from __future__ import annotations

import os
from typing import Any

LOG_WIDTH = 120


def console(**kwargs: Any):
    """``rich.console.Console(**kwargs)``; written to a file or a CI log rather than a
    terminal, :data:`LOG_WIDTH` columns wide (or ``$COLUMNS``) instead of rich's 80, which
    wrapped every path and campaign name of the import and report tables over several lines."""
    from rich.console import Console

    out = Console(**kwargs)
    if out.is_terminal or os.environ.get("COLUMNS") or "width" in kwargs:
        return out
    return Console(width=LOG_WIDTH, **kwargs)


def counted(
    n: int, word: str, verb: tuple[str, str] | None = None, *, plural: str | None = None
) -> str:
    """``'1 run'``, ``'2 runs'``: a count with its noun (``'1 runs from 1 files'`` was on a
    campaign page, ``'1 run(s) flagged'`` in the report's summary), and with ``verb`` (one,
    many) the verb that agrees: ``counted(1, 'pair', ('was', 'were'))`` is ``'1 pair was'``
    ('1 pairs were measured' was on page 20).  ``plural``: where it is not ``word + 's'``
    (``counted(2, 'summary', plural='summaries')``)."""
    text = f"{n} {word if n == 1 else plural or word + 's'}"
    return text if verb is None else f"{text} {verb[n != 1]}"
