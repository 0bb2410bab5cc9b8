"""netperf's result tables, read into one dictionary of omni selectors.

Every output style ends up as ``{selector: (text, line)}`` (``selectors.SELECTORS``), so one
function (``model.finish``) decides what each figure becomes:

* the classic tables of ``nettest_bsd.c`` (RR, STREAM/MAERTS, UDP_STREAM): header lines, a
  blank line, one or two rows of numbers.  RR tables carry a second row of socket sizes with
  no rate (the remote end's); UDP_STREAM a second row for the receiving side;
* omni ``-o``: one CSV line of display names and one of values;
* omni ``-O``: up to four header lines of display-name words, columns aligned with the values
  line under them;
* omni ``-k``: ``SELECTOR=value`` lines (read line by line in ``__init__``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ...errors import ParseError
from .lines import NUMBER, ROW, TOOL
from .selectors import BY_DISPLAY, HEADER_WORDS

Fields = dict[str, tuple[str, int]]

# Row layouts of the classic tables: the selector each number is.  CPU columns (-c/-C) follow
# the rate: local and remote utilisation, local and remote service demand.
_CPU = ("LOCAL_CPU_UTIL", "REMOTE_CPU_UTIL", "LOCAL_SD", "REMOTE_SD")
RR_ROW1 = (
    "LSS_SIZE_END",
    "LSR_SIZE_END",
    "REQUEST_SIZE",
    "RESPONSE_SIZE",
    "ELAPSED_TIME",
    "THROUGHPUT",
    *_CPU,
)
RR_ROW2 = ("RSS_SIZE_END", "RSR_SIZE_END")
STREAM_ROW = (
    "RSR_SIZE_END",
    "LSS_SIZE_END",
    "LOCAL_SEND_SIZE",
    "ELAPSED_TIME",
    "THROUGHPUT",
    *_CPU,
)
# TCP_MAERTS: the same header; the local end receives what the remote end sends.
MAERTS_ROW = (
    "LSR_SIZE_END",
    "RSS_SIZE_END",
    "REMOTE_SEND_SIZE",
    "ELAPSED_TIME",
    "THROUGHPUT",
    *_CPU,
)
UDP_ROW1 = (
    "LSS_SIZE_END",
    "LOCAL_SEND_SIZE",
    "ELAPSED_TIME",
    "LOCAL_SEND_CALLS",
    "SEND_ERRORS",
    "LOCAL_SEND_THROUGHPUT",
    "LOCAL_CPU_UTIL",
    "LOCAL_SD",
)
UDP_ROW2 = (
    "RSR_SIZE_END",
    "REMOTE_ELAPSED_TIME",
    "REMOTE_RECV_CALLS",
    "REMOTE_RECV_THROUGHPUT",
    "REMOTE_CPU_UTIL",
    "REMOTE_SD",
)
# RR -v 2: alignment and offset (4 numbers), then the round trip per transaction, the rate,
# and the payload rates out and in.
RR_VERBOSE = (
    "LOCAL_SEND_ALIGN",
    "REMOTE_RECV_ALIGN",
    "LOCAL_SEND_OFFSET",
    "REMOTE_RECV_OFFSET",
    "RT_LATENCY",
    "TRANSACTION_RATE",
    "OUTBOUND_THROUGHPUT",
    "INBOUND_THROUGHPUT",
)
STREAM_VERBOSE = (
    "LOCAL_SEND_ALIGN",
    "REMOTE_RECV_ALIGN",
    "LOCAL_SEND_OFFSET",
    "REMOTE_RECV_OFFSET",
    "LOCAL_BYTES_XFERD",
    "LOCAL_BYTES_PER_SEND",
    "LOCAL_SEND_CALLS",
    "REMOTE_BYTES_PER_RECV",
    "REMOTE_RECV_CALLS",
)

_UNIT = re.compile(r"(10\^\d+bits|[KMG]?Bytes)/s(?:ec)?\b|per sec")
_SD_UNIT = re.compile(r"us/(KB|Tr)\b")


@dataclass
class Cursor:
    """Lines of one block and where the reader stands; ``stray`` names a foreign line."""

    lines: list[str]
    i: int
    source: str | None

    def line(self, k: int = 0) -> str:
        j = self.i + k
        return self.lines[j] if j < len(self.lines) else ""

    @property
    def no(self) -> int:
        return self.i + 1


def _numbers(text: str, no: int, source: str | None, names: tuple[str, ...]) -> Fields:
    tokens = text.split()
    if len(tokens) > len(names):
        raise ParseError(
            TOOL, source, no, f"expected at most {len(names)} numbers, got {text.strip()[:80]!r}"
        )
    return {name: (tok, no) for name, tok in zip(names, tokens)}


def _units(header: list[str]) -> tuple[str | None, str | None]:
    """The rate unit (``10^6bits/sec``, ``per sec``) and service-demand unit of a header."""
    rate = sd = None
    for line in header:
        m = _UNIT.search(line)
        if m and rate is None:
            rate = "Trans/s" if m[0] == "per sec" else m[0]
        s = _SD_UNIT.search(line)
        if s and sd is None:
            sd = s[0]
    return rate, sd


def _header(c: Cursor, n: int) -> list[str]:
    """The ``n`` header lines at the cursor (a line of numbers or a blank one ends them)."""
    out = []
    while len(out) < n and c.i < len(c.lines):
        line = c.line()
        if not line.strip() or ROW.match(line):
            break
        out.append(line)
        c.i += 1
    return out


def _rows(c: Cursor, want: int) -> list[tuple[str, int]]:
    """Up to ``want`` number rows after the header's blank line(s)."""
    while c.i < len(c.lines) and not c.line().strip():
        c.i += 1
    rows = []
    while len(rows) < want and c.i < len(c.lines) and ROW.match(c.line()):
        rows.append((c.line(), c.no))
        c.i += 1
    return rows


def classic(c: Cursor, mode: str | None, fields: Fields) -> bool:
    """A classic table at the cursor, if there is one: its figures into ``fields``; True when
    every row it has was read (an RR table's second row too)."""
    first = c.line().strip()
    if first.startswith("Local /Remote"):
        layout, rows_wanted, head = (RR_ROW1, RR_ROW2), 2, 4
    elif re.match(r"^Recv\s+Send\s+Send\b", first):
        layout = (MAERTS_ROW if mode == "maerts" else STREAM_ROW,)
        rows_wanted, head = 1, 4
    else:
        layout, rows_wanted, head = (UDP_ROW1, UDP_ROW2), 2, 3
    header = _header(c, head)
    rate, sd = _units(header)
    rows = _rows(c, rows_wanted)
    for (text, no), names in zip(rows, layout):
        fields.update(_numbers(text, no, c.source, names))
    if rate is not None:
        fields.setdefault("THROUGHPUT_UNITS", (rate, c.i))
    if sd is not None:
        fields.setdefault("SD_UNITS", (sd, c.i))
    return len(header) == head and len(rows) == rows_wanted


def verbose(c: Cursor, mode: str | None, fields: Fields) -> bool:
    """``-v 2``'s alignment table (3 header lines, one row); True when whole."""
    header = _header(c, 3)
    rows = _rows(c, 1)
    names = RR_VERBOSE if mode in ("rr", "crr") else STREAM_VERBOSE
    for text, no in rows:
        fields.update(_numbers(text, no, c.source, names))
    unit = next((m[1] for h in header if (m := _UNIT.search(h)) and m[1]), None)
    if unit is not None:
        fields["VERBOSE_UNITS"] = (unit, c.i)
    return len(header) == 3 and len(rows) == 1


def mss(c: Cursor, fields: Fields) -> bool:
    """STREAM ``-v 2``: ``Maximum`` / ``Segment`` / ``Size (bytes)`` and the value."""
    header = _header(c, 3)
    rows = _rows(c, 1)
    for text, no in rows:
        fields.update(_numbers(text, no, c.source, ("TRANSPORT_MSS",)))
    return len(header) == 3 and len(rows) == 1


# ---------------------------------------------------------------------------------------------
# omni -o and -O


def is_csv_header(line: str) -> bool:
    names = [x.strip() for x in line.split(",")]
    return len(names) >= 2 and all(x in BY_DISPLAY for x in names if x)


def csv(c: Cursor, fields: Fields) -> bool:
    """``-o``: the display names, then the values; True when both were there."""
    names = [x.strip() for x in c.line().split(",")]
    c.i += 1
    if c.i >= len(c.lines) or not c.line().strip():
        return False
    values = c.line().rstrip().split(",")
    if len(values) != len(names):
        raise ParseError(
            TOOL,
            c.source,
            c.no,
            f"expected {len(names)} comma-separated values under the -o header, got "
            f"{len(values)}: {c.line().strip()[:80]!r}",
        )
    for name, value in zip(names, values):
        fields[BY_DISPLAY[name]] = (value.strip(), c.no)
    c.i += 1
    return True


def is_header_line(line: str) -> bool:
    """A ``-O`` header line: every word is a word of some selector's display name."""
    words = line.split()
    return bool(words) and all(w in HEADER_WORDS for w in words)


def columns(c: Cursor, fields: Fields) -> bool:
    """``-O``: header lines (whitespace-only ones too), then the values line whose tokens
    start where the columns do.  True when the values line was there."""
    header: list[tuple[str, int]] = []
    while c.i < len(c.lines) and (
        is_header_line(c.line()) or _spaces(c.line()) or _stripped_pad(c, header)
    ):
        header.append((c.line(), c.no))
        c.i += 1
    if c.i >= len(c.lines) or not c.line().strip():
        return False
    values, no = c.line(), c.no
    c.i += 1
    starts = [m.start() for m in re.finditer(r"\S+", values)]
    spans = [(a, b) for a, b in zip(starts, [*starts[1:], None], strict=True)]
    lines = [h for h, _ in header]
    names = [" ".join(x for h in lines if (x := h[a:b].strip())) for a, b in spans]
    if not all(n in BY_DISPLAY for n in names):
        names = _unaligned(lines, spans) or names
    for (start, end), name in zip(spans, names, strict=True):
        selector = BY_DISPLAY.get(name)
        if selector is None:
            raise ParseError(
                TOOL,
                c.source,
                no,
                f"expected the values of the -O columns above, got a value at column "
                f"{start + 1} under {name!r}, which is no netperf output selector",
            )
        fields[selector] = (values[start:end].strip(), no)
    return True


def _unaligned(lines: list[str], spans: list[tuple]) -> list[str] | None:
    """The columns' names where a header line lost its indent (a paste that stripped it:
    '99th Percentile Latency' over a fourth line 'Microseconds' at the left margin): the lines
    with a word over every column give each its name, and the words of the shorter lines
    complete, in order, the names that are no selector's without them.  None when that does
    not name every column."""
    whole = [h for h in lines if len(h.split()) == len(spans)]
    rest = [w for h in lines if 0 < len(h.split()) < len(spans) for w in h.split()]
    if not whole or not rest:
        return None
    names = []
    for a, b in spans:
        name = " ".join(x for h in whole if (x := h[a:b].strip()))
        while name not in BY_DISPLAY and rest:
            name = f"{name} {rest.pop(0)}"
        names.append(name)
    return names if not rest and all(n in BY_DISPLAY for n in names) else None


def _stripped_pad(c: Cursor, header: list[tuple[str, int]]) -> bool:
    """An empty line where netperf padded a header line with spaces, and a copy took trailing
    spaces off (an editor's 'trim trailing whitespace'): the values line follows, each value
    where a header word starts."""
    if c.line() or not header or len(header) >= 4 or c.i + 1 >= len(c.lines):
        return False
    starts = {m.start() for h, _ in header for m in re.finditer(r"\S+", h)}
    values = [m.start() for m in re.finditer(r"\S+", c.line(1))]
    return bool(values) and set(values) <= starts and not is_header_line(c.line(1))


def _spaces(line: str) -> bool:
    """netperf pads a missing fourth header line with spaces: a line of spaces only."""
    return bool(line) and not line.strip() and len(line) > 8


def number_of(fields: Fields, key: str, source: str | None) -> float | None:
    """A field as a number; ``None`` when absent.  A field that is no number is an error at
    its line."""
    if key not in fields:
        return None
    text, no = fields[key]
    if not re.fullmatch(NUMBER, text.strip()):
        raise ParseError(TOOL, source, no, f"expected a number for {key}, got {text.strip()!r}")
    return float(text)
