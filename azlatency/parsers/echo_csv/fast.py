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
from dataclasses import dataclass

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.csv as pacsv

HEADER = ("packet_num", "timestamp", "send_time_ns", "receive_time_ns", "rtt_us")
_TYPES = {
    "packet_num": pa.int64(),
    "timestamp": pa.string(),
    "send_time_ns": pa.int64(),
    "receive_time_ns": pa.int64(),
    "rtt_us": pa.float64(),
}
_BLANK_LINE = re.compile(rb"\n[ \t]*\r?\n")
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
    if _BLANK_LINE.search(data, max(offset - 1, 0), end):  # from the header's own newline
        return None  # line numbers would no longer follow the row index
    last = data[max(data.rfind(b"\n", offset, end) + 1, offset) : end].strip()
    bad: list[bytes] = []

    def on_invalid(row) -> str:
        bad.append(row.text.encode("utf-8", errors="replace").strip())
        return "skip"

    try:
        table = pacsv.read_csv(
            pa.BufferReader(pa.py_buffer(data)[offset:]),
            read_options=pacsv.ReadOptions(column_names=list(HEADER)),
            parse_options=pacsv.ParseOptions(quote_char=False, invalid_row_handler=on_invalid),
            convert_options=pacsv.ConvertOptions(
                column_types=_TYPES, null_values=[], strings_can_be_null=False
            ),
        )
    except (pa.ArrowException, UnicodeDecodeError):
        return None
    if bad and (bad != [last] or not ROW_PREFIX.match(last.decode("utf-8", "replace"))):
        return None
    rtt = table["rtt_us"].to_numpy()
    if not np.isfinite(rtt).all():
        return None
    return Body(
        seq=table["packet_num"].to_numpy(),
        time_ns=_times(table["timestamp"], iso_ns),
        tx=table["send_time_ns"].to_numpy(),
        rx=table["receive_time_ns"].to_numpy(),
        rtt=rtt,
        cut=last if bad else None,
    )


def _times(column: pa.ChunkedArray, iso_ns: Callable[[str], int | None]) -> list | np.ndarray:
    stamps = pc.utf8_trim_whitespace(column)
    if len(stamps) and pc.all(pc.match_substring_regex(stamps, _NAIVE)).as_py():
        try:
            ns = pc.cast(stamps, pa.timestamp("ns")).cast(pa.int64()).to_numpy()
        except pa.ArrowException:  # month 13, 30 February, second 60: judged row by row
            ns = None
        if ns is not None and ((ns >= _MIN_NS) & (ns < _END_NS)).all():
            return ns
    return [iso_ns(s) for s in stamps.to_pylist()]
