"""Vectorised reading of a well-formed echo CSV body (pyarrow), for files of millions of probes.

``read_body`` returns ``None`` as soon as the input is not plainly well formed — a blank line
between rows, a field that does not convert, a non-finite ``rtt_us``, a row with the wrong
number of fields anywhere but last — and the line-by-line parser in ``echo_csv.py`` then reads
it and locates the fault.  The two give the same tables (``tests/parsers/test_echo_csv.py`` checks
it on every fixture and on damaged ones).
"""

from __future__ import annotations

import calendar
import re
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.csv as pacsv

from .._lines import count_newlines, pool_empty

HEADER = ("packet_num", "timestamp", "send_time_ns", "receive_time_ns", "rtt_us")
_TYPES = {
    "packet_num": pa.int64(),
    "timestamp": pa.string(),
    "send_time_ns": pa.int64(),
    "receive_time_ns": pa.int64(),
    "rtt_us": pa.float64(),
}
_BLANK_LINE = re.compile(rb"\n[ \t]*\r?\n")
_HALVES_FROM = 8 << 20  # bytes of rows from which they are read in two halves at once
# What datetime.isoformat() writes, and nothing else: other shapes go through iso_ns per row.
_NAIVE = r"^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?$"
_MIN_NS = calendar.timegm((1678, 1, 1, 0, 0, 0)) * 1_000_000_000
_END_NS = calendar.timegm((2262, 1, 1, 0, 0, 0)) * 1_000_000_000

# What a row cut off mid-line can look like: a prefix of 'n,YYYY-MM-DD hh:mm:ss.f,ns,ns,us'.
# Any other last line is a stray line (a note, a kernel message), not a cut row.
ROW_PREFIX = re.compile(r"^\s*\d+(?:,[\d :.T+-]*(?:,\d*(?:,\d*(?:,[\d.]*)?)?)?)?\s*$")


@dataclass
class Body:
    seq: np.ndarray
    time_ns: list | np.ndarray  # a list holds None where a timestamp did not parse
    tx: np.ndarray
    rx: np.ndarray
    rtt: np.ndarray
    cut: bytes | None  # the last row, when it was cut off mid-row


def read_body(data: bytes, offset: int, iso_ns: Callable[[str], int | None]) -> Body | None:
    """The rows in ``data[offset:]`` (what follows the header line), or None when the careful
    parser must read them.  Nothing here copies the whole file."""
    end = len(data)
    while end > offset and data[end - 1] in b" \t\r\n":
        end -= 1
    last = data[max(data.rfind(b"\n", offset, end) + 1, offset) : end].strip()
    bad: list[bytes] = []

    def on_invalid(row) -> str:
        bad.append(row.text.encode("utf-8", errors="replace").strip())
        return "skip"

    # pyarrow's own thread pool cost more than it gave in a fresh process (0.46 to 0.76 s
    # against 0.40 s for the whole read of 1M probes): a big body is cut in two at a line
    # break instead, each half read on a thread of its own, while this one counts the lines
    # (the file is hashed meanwhile where a core is idle: reader.files._Hashing).
    whole = pa.py_buffer(data)
    cut = data.find(b"\n", (offset + end) // 2) + 1 if end - offset >= _HALVES_FROM else 0
    pieces = [(offset, cut), (cut, len(data))] if offset < cut < end else [(offset, len(data))]

    def read(piece: tuple[int, int]) -> pa.Table:
        return pacsv.read_csv(
            pa.BufferReader(whole[piece[0] : piece[1]]),
            read_options=pacsv.ReadOptions(column_names=list(HEADER), use_threads=False),
            parse_options=pacsv.ParseOptions(quote_char=False, invalid_row_handler=on_invalid),
            convert_options=pacsv.ConvertOptions(
                column_types=_TYPES, null_values=[], strings_can_be_null=False
            ),
        )

    with ThreadPoolExecutor(len(pieces)) as pool:
        tables = [pool.submit(read, piece) for piece in pieces]
        lines = count_newlines(data, offset, end)
        try:
            table = pa.concat_tables([t.result() for t in tables])
        except (pa.ArrowException, UnicodeDecodeError):
            return None
    if bad and (bad != [last] or not ROW_PREFIX.match(last.decode("utf-8", "replace"))):
        return None
    lines = lines + 1 if end > offset else 0
    if _blank_line(data, offset, end, table.num_rows + len(bad), lines):
        return None  # line numbers would no longer follow the row index
    rtt = _numpy(table["rtt_us"])
    if not np.isfinite(rtt).all():
        return None
    return Body(
        seq=_numpy(table["packet_num"]),
        time_ns=_times(table["timestamp"], iso_ns),
        tx=_numpy(table["send_time_ns"]),
        rx=_numpy(table["receive_time_ns"]),
        rtt=rtt,
        cut=last if bad else None,
    )


def _blank_line(data: bytes, offset: int, end: int, rows: int, lines: int) -> bool:
    """Is there a blank line among the ``lines`` lines ``data[offset:end]``?  pyarrow skips
    empty lines without a word, so the rows it saw (``rows``, refused ones included) are one a
    line unless one was skipped; only then is the text searched (a regular expression over a
    whole file costs four times the count of its newlines).  A bare CR, which pyarrow also
    takes for a line break, is told apart from a blank line by that search."""
    return rows != lines and _BLANK_LINE.search(data, max(offset - 1, 0), end) is not None


def _numpy(column: pa.ChunkedArray) -> np.ndarray:
    """A numeric column without nulls as one writable ndarray (a sample may be corrected in
    place), its chunks joined into pyarrow's memory pool: ``ChunkedArray.to_numpy`` joins them
    in a fresh numpy array, whose huge pages the kernel may compact memory for (pool_empty)."""
    if not column.num_chunks:
        return column.to_numpy()
    parts = [chunk.to_numpy() for chunk in column.chunks]  # views of pyarrow's buffers
    return np.concatenate(parts, out=pool_empty(len(column), parts[0].dtype))


def _times(column: pa.ChunkedArray, iso_ns: Callable[[str], int | None]) -> list | np.ndarray:
    ns = _naive_ns(column) if len(column) else None
    if ns is not None and ((ns >= _MIN_NS) & (ns < _END_NS)).all():
        return ns
    return [iso_ns(s) for s in pc.utf8_trim_whitespace(column).to_pylist()]


def _naive_ns(stamps: pa.ChunkedArray) -> np.ndarray | None:
    """The timestamps as ns when every one is what ``datetime.isoformat()`` writes
    (:data:`_NAIVE`), else None.  pyarrow's cast to a zone-less ``timestamp`` takes only
    ``YYYY-MM-DD[ T]hh[:mm[:ss[.f{1,9}]]]`` with real dates and times (no zone, no space around
    it: tests/parsers/test_echo_csv.py pins it), so a cast that succeeds leaves the length
    to tell the shapes with seconds (19, or 21 to 29 characters) from the shorter ones: the
    same answer as the pattern, without running it over every row."""
    try:
        ns = pc.cast(stamps, pa.timestamp("ns"))
    except pa.ArrowException:
        stamps = pc.utf8_trim_whitespace(stamps)  # spaces around: the cast refuses them
        try:
            ns = pc.cast(stamps, pa.timestamp("ns"))
        except pa.ArrowException:  # month 13, 30 February, second 60: judged row by row
            return None
    length = pc.binary_length(stamps)
    if pc.min(length).as_py() < 19 or pc.any(pc.equal(length, 20)).as_py():
        return None  # a date, or a time without its seconds
    return _numpy(ns.cast(pa.int64()))
