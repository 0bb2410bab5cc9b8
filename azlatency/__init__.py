"""azlatency: cloud network benchmark logs → tidy, typed, unit-consistent frames.

>>> import azlatency
>>> tables = azlatency.read("data/raw/seed000-az-vs-as/notes.md")   # doctest: +SKIP
>>> tables.runs[["tool", "latency_basis", "src_zone", "dst_zone"]]  # doctest: +SKIP
"""

from __future__ import annotations

from ._version import __version__
from .errors import AzlatencyError, DetectionError, ParseError, SchemaError, UnknownToolError
from .reader import read
from .schema import Tables

__all__ = [
    "AzlatencyError",
    "DetectionError",
    "ParseError",
    "SchemaError",
    "Tables",
    "UnknownToolError",
    "__version__",
    "read",
]


def __getattr__(name: str):
    # Heavier entry points are imported on first use so `import azlatency` stays quick.
    if name in ("load", "import_campaign", "query", "summarize_store"):
        from . import campaign

        return getattr(campaign, name)
    raise AttributeError(f"module 'azlatency' has no attribute {name!r}")
