"""Bulk reading of the reply lines that make up almost all of a long ping log.

A long log repeats one line shape a million times::

    [1700000000.123456] 64 bytes from 10.0.0.4: icmp_seq=1 ttl=64 time=0.510 ms

Only the numbers change.  We take the first such line as a template, let pyarrow (RE2, in C++)
check which lines have exactly that shape, and read the numbers of those lines straight from
the bytes with numpy: the literal prefix fixes where ``icmp_seq`` starts, and each field ends
at a known delimiter.  No Python object is made per line.  Every other line — headers,
statistics, errors, ``(DUP!)``, another target — goes through the line scanner as usual, so the
result is the same as reading every line with the scanner (``tests/test_ping.py`` checks it).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

# A reply in its plainest form: what iputils, BSD and BusyBox print without -D or with it.
# Field widths are those ping can print: icmp_seq is 16 bits, TTL 8 bits, and times have
# at most 3 decimals (iputils switches to fewer decimals, BSD prints %.3f).
SIMPLE = re.compile(
    r"(?:\[(?P<sec>\d+)\.(?P<frac>\d+)\] )?(?P<bytes>\d+) bytes from (?P<src>[^\s()]+): "
    r"(?P<key>icmp_seq|icmp_req|seq)=\d{1,5} ttl=\d{1,3} time=\d{1,6}(?:\.\d{1,3})? ms"
)
_CHUNK = 250_000  # rows decoded at a time (bounds the temporary matrices)


@dataclass
class Shape:
    """One reply-line shape: the RE2 pattern its lines match and where the fields start."""

    pattern: str
    prefix_len: int  # bytes before the icmp_seq digits
    sec_digits: int  # 0 without -D
    frac_digits: int
    reply_bytes: int
    key: str


@dataclass
class Replies:
    """The replies read in bulk: 0-based line index and the fields, one array each."""

    idx: np.ndarray
    seq: np.ndarray
    ttl: np.ndarray
    rtt_us: np.ndarray
    time_ns: np.ndarray | None
    reply_bytes: int
    key: str

    def take(self, lo: int, hi: int) -> dict[str, np.ndarray | None]:
        return {
            "idx": self.idx[lo:hi],
            "seq": self.seq[lo:hi],
            "ttl": self.ttl[lo:hi],
            "rtt_us": self.rtt_us[lo:hi],
            "time_ns": None if self.time_ns is None else self.time_ns[lo:hi],
            "bytes": np.full(hi - lo, self.reply_bytes, dtype=np.int64),
        }


def shape_of(line: str) -> Shape | None:
    m = SIMPLE.fullmatch(line)
    if m is None or not line.isascii():
        return None
    ts = ""
    if m["sec"]:
        ts = rf"\[[0-9]{{{len(m['sec'])}}}\.[0-9]{{{len(m['frac'])}}}\] "
    literal = f"{m['bytes']} bytes from {m['src']}: {m['key']}="
    pattern = (
        "^" + ts + re.escape(literal)
        + r"[0-9]{1,5} ttl=[0-9]{1,3} time=[0-9]{1,6}(?:\.[0-9]{1,3})? ms$"
    )
    ts_len = len(m["sec"]) + len(m["frac"]) + 4 if m["sec"] else 0  # "[" "." "] "
    return Shape(
        pattern, ts_len + len(literal), len(m["sec"] or ""), len(m["frac"] or ""),
        int(m["bytes"]), m["key"],
    )


def _buffers(lines: pa.Array) -> tuple[np.ndarray, np.ndarray]:
    """Offsets and bytes of a (large_)string array, without copying."""
    _, off_buf, data_buf = lines.buffers()
    width = np.int64 if pa.types.is_large_string(lines.type) else np.int32
    offsets = np.frombuffer(off_buf, dtype=width)[lines.offset : lines.offset + len(lines) + 1]
    data = np.frombuffer(data_buf, dtype=np.uint8) if data_buf is not None else np.zeros(1, np.uint8)
    return offsets.astype(np.int64), data


def _uint(data: np.ndarray, start: np.ndarray, width: int) -> tuple[np.ndarray, np.ndarray]:
    """Value and length of the run of up to ``width`` digits at each ``start``."""
    value = np.zeros(len(start), dtype=np.int64)
    n = np.zeros(len(start), dtype=np.int64)
    going = np.ones(len(start), dtype=bool)
    last = len(data) - 1
    for k in range(width):
        d = data[np.minimum(start + k, last)] - np.uint8(48)  # non-digits wrap to >= 10
        going &= d < 10
        value = np.where(going, value * 10 + d, value)
        n += going
    return value, n


def _fixed(data: np.ndarray, start: np.ndarray, width: int) -> np.ndarray:
    """Value of exactly ``width`` digits at each ``start``."""
    value = np.zeros(len(start), dtype=np.int64)
    for k in range(width):
        value = value * 10 + (data[start + k] - np.uint8(48))
    return value


def _decode(data: np.ndarray, start: np.ndarray, shape: Shape) -> tuple[np.ndarray, ...]:
    seq_at = start + shape.prefix_len
    seq, n_seq = _uint(data, seq_at, 5)
    ttl_at = seq_at + n_seq + len(" ttl=")
    ttl, n_ttl = _uint(data, ttl_at, 3)
    ms_at = ttl_at + n_ttl + len(" time=")
    whole, n_whole = _uint(data, ms_at, 6)
    dot = ms_at + n_whole
    has_frac = data[np.minimum(dot, len(data) - 1)] == ord(".")
    frac, n_frac = _uint(data, dot + 1, 3)
    frac = np.where(has_frac, frac * 10 ** (3 - n_frac), 0)
    rtt_us = (whole * 1000 + frac).astype(np.float64)  # exact: ping prints <= 3 decimals of ms
    time_ns = None
    if shape.sec_digits:
        sec = _fixed(data, start + 1, shape.sec_digits)
        sub = _fixed(data, start + 2 + shape.sec_digits, shape.frac_digits)
        time_ns = sec * 1_000_000_000 + sub * 10 ** (9 - shape.frac_digits)
    return seq, ttl, rtt_us, time_ns


def read_replies(lines: pa.Array, shape: Shape) -> Replies:
    """Every line of ``lines`` that has ``shape``, decoded."""
    mask = pc.match_substring_regex(lines, shape.pattern).to_numpy(zero_copy_only=False)
    idx = np.flatnonzero(mask)
    offsets, data = _buffers(lines)
    parts: list[tuple[np.ndarray, ...]] = []
    for lo in range(0, len(idx), _CHUNK):
        parts.append(_decode(data, offsets[idx[lo : lo + _CHUNK]], shape))
    if parts:
        seq, ttl, rtt, ts = (
            np.concatenate([p[i] for p in parts]) if parts[0][i] is not None else None
            for i in range(4)
        )
    else:
        seq = ttl = np.zeros(0, np.int64)
        rtt = np.zeros(0)
        ts = np.zeros(0, np.int64) if shape.sec_digits else None
    return Replies(idx, seq, ttl, rtt, ts, shape.reply_bytes, shape.key)
