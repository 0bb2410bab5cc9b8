"""One exception family for azlatency.

Every error a user can see derives from :class:`AzlatencyError`.  Parsers raise
:class:`ParseError`, which always names the tool, the source, the line and what was
expected, formatted like a compiler message::

    sockperf: data/raw/weu/az1-az3.txt:42: expected 'percentile 99.000 = <usec>', got 'n/a'
"""

from __future__ import annotations

import re
from collections.abc import Callable

# "line 12 skipped: ...", "already given on line 2": numbered within a parser's block.
_LINE_NO = re.compile(r"\bline (\d+)\b")


def map_lines(text: str, where: Callable[[int], int]) -> str:
    """``text`` with every ``line N`` made ``line where(N)``."""
    return _LINE_NO.sub(lambda m: f"line {where(int(m[1]))}", text)


def shift_lines(text: str, by: int) -> str:
    """``text`` with every ``line N`` moved down by ``by`` lines (a block's numbers made the
    enclosing text's)."""
    return map_lines(text, lambda n: n + by) if by else text


class AzlatencyError(Exception):
    """Base class of every error azlatency raises on purpose."""


class ParseError(AzlatencyError, ValueError):
    """A parser could not read its input.

    ``line_no`` is 1-based within ``source`` (or within the text given, when there is no
    file); ``None`` when the problem is not tied to a line (empty input, wrong tool).
    """

    def __init__(
        self,
        tool: str,
        source: str | None,
        line_no: int | None,
        reason: str,
        *,
        hint: str | None = None,
    ) -> None:
        self.tool = tool
        self.source = source
        self.line_no = line_no
        self.reason = reason
        self.hint = hint
        super().__init__(self._format())

    def _format(self) -> str:
        where = self.source or "<text>"
        if self.line_no is not None:
            where = f"{where}:{self.line_no}"
        msg = f"{self.tool}: {where}: {self.reason}"
        if self.hint:
            msg += f" (hint: {self.hint})"
        return msg

    def shifted(self, offset: int, source: str | None = None) -> ParseError:
        """The same error with its line moved by ``offset`` (a block inside a document)."""
        line = None if self.line_no is None else self.line_no + offset
        reason = shift_lines(self.reason, offset)  # "already given on line 2" too
        return type(self)(self.tool, source or self.source, line, reason, hint=self.hint)


class NothingMeasured(ParseError):
    """The tool's output holds only the tool's own error (``iperf3: error - unable to
    connect to server``): it measured nothing.  A file of nothing else fails with it; in a
    document beside other outputs it is that block's problem (``Tables.problems``, the import
    report), and the outputs beside it are read, even with ``strict=True``."""


class WrongTool(ParseError):
    """The input is another tool's output (read as this tool's by request: ``tool=...``).
    A lenient read does not take lines out of it to make it fit."""


class DetectionError(ParseError):
    """No known tool's output was found in the input."""


# A file that no parser claims: "no known tool output found" + LOOKED_FOR + every tool and
# what it reads (reader.read_text).  The import report prints that list once, not per file.
LOOKED_FOR = "; looked for: "


class UnknownToolError(AzlatencyError, KeyError):
    """A tool name that the parser registry does not know."""

    def __str__(self) -> str:  # KeyError would quote the whole message
        return str(self.args[0]) if self.args else ""


class SchemaError(AzlatencyError):
    """A frame does not match the documented tables."""


class CampaignError(AzlatencyError):
    """A campaign folder or its campaign.yaml cannot be used."""
