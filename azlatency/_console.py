"""The rich console every command prints with."""

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
