"""owping (perfsonar/owamp): one-way delay, both directions of a session, read by the OWAMP
package (``parsers/owamp/``) with this tool's name.  See ``docs/tools/owping.md``."""

from __future__ import annotations

from . import owamp
from ._base import Parsed, Span, ToolInfo

TOOL = "owping"

INFO = ToolInfo(
    tool=TOOL,
    description="owping summaries ('--- owping statistics from [A]:p to [B]:q ---'), -v "
    "per-packet lines, -R raw records, -M machine output",
    variants=("summary", "verbose", "raw", "machine"),
    versions="owamp 5.2.3 (perfsonar/owamp eecec26 with I2util 125b7bc, built and captured)",
    produces=("runs", "samples", "summaries"),
    flags="-R (every packet's timestamps) or -v; -M (the delay histogram)",
    latency_basis="one_way",
    # -R prints records and nothing after them: cut at a line, it reads as fewer packets
    open_ended=("raw",),
)

OPENERS = owamp.openers(TOOL)


def locate(lines: list[str]) -> list[Span]:
    return owamp.locate(lines, TOOL)


def parse(text: str, *, source: str | None = None, strict: bool = True) -> Parsed:
    return owamp.parse(text, TOOL, source, strict)
