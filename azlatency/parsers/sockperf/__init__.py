"""sockperf: console output (2.x, 3.0-3.7, 3.8+), server logs and ``--full-log`` files.

One sockperf *execution* (a command, an optional VMA banner, the ``== version`` line, the
output) gives one run per ``Printing statistics for Server No: N`` section — a client talking
to several servers (``-f feed --srv-num``) prints one section per server, each with its own
counts and percentiles, so each is a run with that server's ``dst_ip``/``port``.  Choices
documented in ``docs/tools/sockperf.md``:

* a server log (``sockperf: [SERVER] listen on:``) is a run with ``role="server"``, no
  latency, and ``packets_received`` from ``Total N messages received and handled``;
* ``sockperf: ERROR: ...`` gives a run with ``complete=False`` and the message in
  ``warnings`` (the input is a valid log of a failed execution, not a parse failure);
* an execution interrupted by the user (``Test end (interrupted by user)`` before the timer)
  or cut short is ``complete=False``; whatever it printed is kept.
"""

from __future__ import annotations

from ...decode import decode
from ...errors import ParseError
from .._base import Parsed, Run, Span, ToolInfo
from . import fulllog
from .console import Execution
from .grammar import CSV_HEAD, DASH, SP, executions
from .run import build_run

INFO = ToolInfo(
    tool="sockperf",
    description="sockperf console output, server logs and --full-log files",
    variants=(
        "console-legacy",
        "console",
        "console-3.8",
        "full-log",
        "throughput",
        "server",
    ),
    versions="2.x (from documented format), 3.0-3.7, 3.8+",
    produces=("runs", "samples", "summaries"),
    flags="--full-log <file> for per-packet samples",
    latency_basis="half_rtt",
    server_command=r"sockperf(?:\.exe)?\s+(?:server|sr)(?:\s|$)",
)

TOOL = INFO.tool
# parse_bytes decodes its own head (BOM, ANSI colours, CRLF): the reader may hand it any file.
PARSE_BYTES_CLEANS = True
# The reader's hook.  executions() keeps an execution only when it holds a 'sockperf:' (or
# 'sockperf[...]') line, the version line among them, or the --full-log CSV header under
# sockperf's dashes: whatever line it opens at (a command, a banner), one of these is inside.
OPENERS = (SP, CSV_HEAD)


def locate(lines: list[str]) -> list[Span]:
    return [Span(s, e, TOOL) for s, e in executions(lines)]


def whole_file(head: str) -> bool:
    """True when every line of the file's head belongs to sockperf executions (a full log,
    or a captured console output), so the reader can skip document scanning."""
    if "sockperf" not in head and "txTime" not in head:
        return False  # no execution without a 'sockperf' line or the CSV header: OPENERS
    lines = head.lstrip("\ufeff").split("\n")
    if len(lines) > 1:
        lines = lines[:-1]  # the head may end inside a line
    lines = [line.rstrip("\r") for line in lines]
    if not any(line.strip() for line in lines):
        return False
    spans = executions(lines)
    if not spans:
        return False
    covered = set()
    for s, e in spans:
        covered.update(range(s, e))
    return all(i in covered or not line.strip() for i, line in enumerate(lines))


# ---------------------------------------------------------------------------------------------
# Parsing


def parse(text: str, *, source: str | None = None, strict: bool = True) -> Parsed:
    """Parse one block (or a whole file) of sockperf output into runs."""
    if "**" in text:  # Markdown bold of a paste: '**sockperf: Summary: ...**', '= **11.5**'
        text = text.replace("**", "")
    lines = text.split("\n")
    spans = executions(lines)
    if not spans:
        raise ParseError(
            TOOL,
            source,
            None,
            "no sockperf output found",
            hint="expected lines starting with 'sockperf:' or a --full-log CSV block",
        )
    runs: list[Run] = []
    for s, e in spans:
        runs.extend(_runs(Execution(lines, s, e, source, strict)))
    return Parsed(TOOL, runs)


def parse_bytes(data: bytes, *, source: str | None = None, strict: bool = True) -> Parsed:
    """Fast path for big ``--full-log`` files: only the lines around the CSV block become text;
    the rows go straight from ``data`` to pyarrow (no decoded copy of the file)."""
    head_at = _find_csv_header(data)
    if head_at is None:
        return parse(decode(data).text, source=source, strict=strict)
    header_end = data.find(b"\n", head_at)
    header_end = len(data) if header_end < 0 else header_end + 1
    try:
        return _parse_rows_at(data, header_end, _last_close(data, header_end), source, strict)
    except fulllog.EarlierClose:  # a line like the closing one among the rows: end there
        close_at = data.find(_CLOSE, header_end - 1)
        return _parse_rows_at(data, header_end, (close_at, True), source, strict)


_CLOSE = b"\n" + DASH.encode()
# A --histogram table follows the rows between closing lines of its own (a few kB: 3.10 prints
# one line a bin); a closing line this near before the last one sends the search to the front.
_NEAR = 1 << 20


def _last_close(data: bytes, header_end: int) -> tuple[int, bool]:
    """Where the rows' closing line starts (its newline; -1 when the file was cut before it),
    and whether that is sure to be the first one after the header.  The last closing line is
    found from the end for nothing, where a search from the header read all 600 MB of a
    10-million-row log (0.11 s); when it is not sure to be the first one, the rows the fast
    reader then reads hold an earlier one, which it refuses (no packet number), and
    :func:`fulllog.read_rows` raises :class:`fulllog.EarlierClose` before reading them line by
    line."""
    last = data.rfind(_CLOSE, header_end - 1)
    if last < 0:
        return last, True
    if data.rfind(_CLOSE, max(header_end - 1, last - _NEAR), last) >= 0:
        return data.find(_CLOSE, header_end - 1), True
    return last, last - header_end < _NEAR


def _parse_rows_at(data: bytes, header_end: int, close: tuple[int, bool], source, strict):
    close_at, sure = close
    rows_end = len(data) if close_at < 0 else close_at + 1
    tail = data[rows_end:]
    if tail.strip() and tail.strip() != DASH.encode():
        return parse(decode(data).text, source=source, strict=strict)
    head_text = decode(data[:header_end]).text.rstrip("\n")  # BOM, ANSI colours, CRLF
    lines = head_text.split("\n")
    spans = executions(lines)
    if len(spans) != 1 or spans[0][1] != len(lines):
        return parse(decode(data).text, source=source, strict=strict)
    block = _BytesBlock(data, header_end, rows_end, closed=close_at >= 0, sure=sure)
    ex = Execution(lines, spans[0][0], spans[0][1], source, strict, block=block)
    return Parsed(TOOL, _runs(ex))


def _runs(ex: Execution) -> list[Run]:
    return [build_run(ex, section) for section in ex.read()]


def _find_csv_header(data: bytes) -> int | None:
    """Where the full log's CSV header line starts: ``packet, txTime...`` (3.4+) or the older
    ``txTime, rxTime``; None when there is none."""
    at = data.find(b"txTime")
    while at >= 0:
        line_start = data.rfind(b"\n", 0, at) + 1
        line_end = data.find(b"\n", at)
        line = data[line_start : line_end if line_end >= 0 else len(data)]
        if CSV_HEAD.match(line.decode("utf-8", "replace")):
            return line_start
        at = data.find(b"txTime", at + 1)
    return None


class _BytesBlock:
    """Where the CSV rows sit in the raw bytes of a file (parse_bytes)."""

    def __init__(self, data: bytes, start: int, end: int, closed: bool, sure: bool) -> None:
        self.data, self.start, self.end, self.closed = data, start, end, closed
        self.sure = sure  # no closing line before ``end`` (see _last_close)


__all__ = ["INFO", "locate", "parse", "parse_bytes", "whole_file"]
