"""twping (perfsonar/owamp): TWAMP round trips with their send and reflect halves, read by the
OWAMP package (``parsers/owamp/``) with this tool's name.  See ``docs/tools/twping.md``."""

from __future__ import annotations

from . import owamp
from ._base import Parsed, Span

TOOL = "twping"

INFO = owamp.info(TOOL, latency_basis="rtt")
OPENERS = owamp.openers(TOOL)


def locate(lines: list[str]) -> list[Span]:
    return owamp.locate(lines, TOOL)


def parse(text: str, *, source: str | None = None, strict: bool = True) -> Parsed:
    return owamp.parse(text, TOOL, source, strict)
