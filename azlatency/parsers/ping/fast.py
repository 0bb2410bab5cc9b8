"""Bulk reading of the reply lines that make up almost all of a long ping log.

A long log repeats one line shape a million times::

    [1700000000.123456] 64 bytes from 10.0.0.4: icmp_seq=1 ttl=64 time=0.510 ms

Only the numbers change.  We take the first such line as a template and check every line
against it with numpy, eight bytes at a time: the template's literal bytes must be equal, its
digit slots must hold digits, then each number runs to a known delimiter (`` ttl=``,
`` time=``, `` ms``) and the line must end there.  That is exactly the regex ``shape.pattern``
(kept for reference and tests), without a regex engine per line.  The numbers are read from
the same bytes.  No Python object is made per line.  Every other line — headers, statistics,
errors, ``(DUP!)``, another target — goes through the line scanner as usual, so the result is
the same as reading every line with the scanner (``tests/parsers/test_ping.py`` checks it).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np
import pyarrow as pa

# A reply in its plainest form: what iputils, BSD and BusyBox print without -D or with it.
# Field widths are those ping can print: icmp_seq is 16 bits, TTL 8 bits, and times have
# at most 3 decimals (iputils switches to fewer decimals, BSD prints %.3f).
SIMPLE = re.compile(
    r"(?:\[(?P<sec>\d+)\.(?P<frac>\d+)\] )?(?P<bytes>\d+) bytes from (?P<src>[^\s()]+): "
    r"(?P<key>icmp_seq|icmp_req|seq)=\d{1,5} ttl=\d{1,3} time=\d{1,6}(?:\.\d{1,3})? ms"
)
_TAIL_MIN = len("0 ttl=0 time=0 ms")
_TAIL_MAX = len("65535 ttl=255 time=999999.999 ms")
_CHUNK = 250_000  # lines checked and decoded at a time (bounds the temporaries)
_MAX_SEC = (2**63 - 1) // 1_000_000_000 - 1  # any fraction added still fits int64 ns


@dataclass
class Shape:
    """One reply-line shape: its prefix (template bytes, which of them are digit slots),
    and the regex every line of the shape matches."""

    pattern: str
    prefix: bytes  # the template line up to the icmp_seq digits
    digit_slots: np.ndarray  # bool per prefix byte: a digit of the -D stamp
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
    sec, frac = m["sec"] or "", m["frac"] or ""
    if len(sec) > 10 or len(frac) > 9 or len(m["bytes"]) > 18:
        # Numbers int64 cannot hold (ns since 1970 beyond 2262, a 19-digit size): no bulk
        # read.  The line scanner reads these lines and names the one that holds the number.
        return None
    ts = rf"\[[0-9]{{{len(sec)}}}\.[0-9]{{{len(frac)}}}\] " if sec else ""
    literal = f"{m['bytes']} bytes from {m['src']}: {m['key']}="
    pattern = (
        "^"
        + ts
        + re.escape(literal)
        + r"[0-9]{1,5} ttl=[0-9]{1,3} time=[0-9]{1,6}(?:\.[0-9]{1,3})? ms$"
    )
    stamp = f"[{sec}.{frac}] " if sec else ""
    slots = np.zeros(len(stamp) + len(literal), dtype=bool)
    if sec:
        slots[1 : 1 + len(sec)] = True
        slots[2 + len(sec) : 2 + len(sec) + len(frac)] = True
    return Shape(
        pattern, (stamp + literal).encode(), slots, len(sec), len(frac), int(m["bytes"]), m["key"]
    )


# ---------------------------------------------------------------------------------------------
# Bytes.


def _buffers(lines: pa.Array) -> tuple[np.ndarray, np.ndarray]:
    """Offsets and bytes of a (large_)string array, without copying the bytes."""
    _, off_buf, data_buf = lines.buffers()
    width = np.int64 if pa.types.is_large_string(lines.type) else np.int32
    offsets = np.frombuffer(off_buf, dtype=width)[lines.offset : lines.offset + len(lines) + 1]
    data = (
        np.frombuffer(data_buf, dtype=np.uint8) if data_buf is not None else np.zeros(0, np.uint8)
    )
    return offsets.astype(np.int64), data


def _words(data: np.ndarray) -> np.ndarray:
    """``words[i]`` = bytes ``i .. i+7`` as one little-endian integer, for every byte ``i``
    (a strided view of the bytes, padded with 8 zeros so that the last ones have a word)."""
    padded = np.concatenate((data, np.zeros(8, np.uint8)))
    return np.ndarray((len(data),), dtype="<u8", buffer=padded, offset=0, strides=(1,))


def _pack(values: bytes | np.ndarray) -> int:
    return int.from_bytes(bytes(values), "little")


def _prefix_ok(words: np.ndarray, start: np.ndarray, shape: Shape) -> np.ndarray:
    """Lines whose first bytes are the shape's prefix: literal bytes equal, digit slots
    digits.  A digit byte is 0x30-0x39: its high nibble is 3, and still 3 after adding 6."""
    ok = np.ones(len(start), dtype=bool)
    size = len(shape.prefix)
    for at in range(0, size, 8):
        chunk = shape.prefix[at : at + 8]
        n = len(chunk)
        slot = shape.digit_slots[at : at + 8]
        lit = _pack([0 if s else 0xFF for s in slot] + [0] * (8 - n))
        dig = _pack([0xFF if s else 0 for s in slot] + [0] * (8 - n))
        w = words[start + at]
        ok &= (w & np.uint64(lit)) == np.uint64(_pack(chunk.ljust(8, b"\0")) & lit)
        if dig:
            x = w & np.uint64(dig)
            high, three, six = (np.uint64(dig & _pack(b * 8)) for b in (b"\xf0", b"0", b"\x06"))
            ok &= ((x & high) == three) & (((x + six) & high) == three)
    return ok


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
    """Value of exactly ``width`` digits at each ``start`` (checked by ``_prefix_ok``)."""
    value = np.zeros(len(start), dtype=np.int64)
    for k in range(width):
        value = value * 10 + (data[start + k] - np.uint8(48))
    return value


def _is(words: np.ndarray, at: np.ndarray, text: bytes) -> np.ndarray:
    """Whether the bytes at each ``at`` are ``text`` (up to 8 bytes)."""
    mask = np.uint64((1 << (8 * len(text))) - 1)
    return (words[np.minimum(at, len(words) - 1)] & mask) == np.uint64(_pack(text))


def _decode(data, words, start, end, shape: Shape):
    """Fields of lines that have the shape's prefix; ``good`` says which are the shape."""
    seq_at = start + len(shape.prefix)
    seq, n_seq = _uint(data, seq_at, 5)
    ttl_at = seq_at + n_seq + len(" ttl=")
    ttl, n_ttl = _uint(data, ttl_at, 3)
    ms_at = ttl_at + n_ttl + len(" time=")
    whole, n_whole = _uint(data, ms_at, 6)
    dot = ms_at + n_whole
    has_frac = _is(words, dot, b".")
    frac, n_frac = _uint(data, dot + 1, 3)
    after = np.where(has_frac, dot + 1 + n_frac, dot)
    good = (
        (n_seq > 0)
        & _is(words, seq_at + n_seq, b" ttl=")
        & (n_ttl > 0)
        & _is(words, ttl_at + n_ttl, b" time=")
        & (n_whole > 0)
        & (~has_frac | (n_frac > 0))
        & _is(words, after, b" ms")
        & (after + 3 == end)
    )
    frac = np.where(has_frac, frac * 10 ** (3 - n_frac), 0)
    rtt_us = (whole * 1000 + frac).astype(np.float64)  # exact: ping prints <= 3 decimals of ms
    time_ns = None
    if shape.sec_digits:
        sec = _fixed(data, start + 1, shape.sec_digits)
        sub = _fixed(data, start + 2 + shape.sec_digits, shape.frac_digits)
        time_ns = sec * 1_000_000_000 + sub * 10 ** (9 - shape.frac_digits)
        # A 10-digit second past 2262 wraps int64: such a line is left to the line scanner,
        # which reports it at its line.
        good &= sec <= _MAX_SEC
    return good, seq, ttl, rtt_us, time_ns


def read_replies(lines: pa.Array, shape: Shape) -> Replies:
    """Every line of ``lines`` that has ``shape``, decoded."""
    offsets, data = _buffers(lines)
    words = _words(data)
    size = len(shape.prefix)
    length = np.diff(offsets)
    candidates = np.flatnonzero((length >= size + _TAIL_MIN) & (length <= size + _TAIL_MAX))
    parts: dict[str, list[np.ndarray]] = {k: [] for k in ("idx", "seq", "ttl", "rtt", "ts")}
    for lo in range(0, len(candidates), _CHUNK):
        idx = candidates[lo : lo + _CHUNK]
        idx = idx[_prefix_ok(words, offsets[idx], shape)]
        good, seq, ttl, rtt, ts = _decode(data, words, offsets[idx], offsets[idx + 1], shape)
        for key, value in zip(parts, (idx, seq, ttl, rtt, ts)):
            if value is not None:
                parts[key].append(value[good])
    empty = {"rtt": np.zeros(0), "ts": np.zeros(0, np.int64) if shape.sec_digits else None}
    out = {
        k: np.concatenate(v) if v else empty.get(k, np.zeros(0, np.int64)) for k, v in parts.items()
    }
    return Replies(
        out["idx"], out["seq"], out["ttl"], out["rtt"], out["ts"], shape.reply_bytes, shape.key
    )
