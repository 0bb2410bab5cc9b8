"""Bulk reading of the reply lines that make up almost all of a long ping log.

A long log repeats one line shape a million times::

    [1700000000.123456] 64 bytes from 10.0.0.4: icmp_seq=1 ttl=64 time=0.510 ms

Only the numbers change.  We take the first such line as a template and check every line
against it with numpy, eight bytes at a time: the template's literal bytes must be equal, its
digit slots must hold digits, then each number runs to a known delimiter (`` ttl=``,
`` time=``, `` ms``) and the line must end there.  That is exactly the regex ``shape.pattern``
(kept for reference and tests), without a regex engine per line.  The numbers are read from
the same 8-byte words with integer arithmetic (SWAR: all digits of a word at once), a few
thousand lines at a time so that the temporaries stay in cache; a line costs one gather of
its first bytes and four of its tail words.  No Python object is made per line.  Every other line — headers, statistics,
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
_BLOCK = 1 << 20  # bytes searched for newlines at a time
_CHUNK = 16_384  # lines checked and decoded at a time (their temporaries stay in cache)
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
# Bytes.  Each field is read from one 8-byte word (first byte lowest) with integer tricks
# (SWAR): a line costs one gather of its first bytes and four of its tail's words instead
# of a gather per digit.

_U = np.uint64
_ZEROS = _U(0x3030303030303030)  # b"0" * 8: XOR turns the digits "0".."9" into 0..9
_SIX = _U(0x0606060606060606)
_HIGH = _U(0xF0F0F0F0F0F0F0F0)
_ALL = _U(0xFFFFFFFFFFFFFFFF)
_REACH = 25 + 8  # bytes after the prefix the reads touch: the last word starts <= 25 on


def _head_bytes(prefix: int) -> int:
    """A line's first bytes read in one gather: the prefix and the word after it, in whole
    words plus one (``_col`` reads across two)."""
    return (prefix // 8 + 2) * 8


def _words(data: np.ndarray) -> np.ndarray:
    """``words[i]`` = bytes ``i .. i+7`` as one little-endian integer, for every byte ``i``
    that has seven bytes after it (a strided view of the bytes, no copy)."""
    n = max(len(data) - 7, 0)
    if not n:
        return np.zeros(0, dtype="<u8")
    return np.ndarray((n,), dtype="<u8", buffer=data, offset=0, strides=(1,))


def _pack(values: bytes | np.ndarray) -> int:
    return int.from_bytes(bytes(values), "little")


def _swar(v: np.ndarray, digits: int = 8) -> np.ndarray:
    """The number written by the digit values 0..9 in the top ``digits`` bytes of ``v`` (8,
    or at most 4), first byte the most significant; the bytes below them are 0."""
    v = (v * _U(10) + (v >> _U(8))) & _U(0x00FF00FF00FF00FF)
    v = (v * _U(100) + (v >> _U(16))) & _U(0x0000FFFF0000FFFF)
    if digits <= 4:
        return v >> _U(32)
    return (v * _U(10000) + (v >> _U(32))) & _U(0xFFFFFFFF)


def _lead(w: np.ndarray, cap: int, pad: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """(8 × count, value) of the digits that start each word, at most ``cap`` (< 8) of them.
    ``pad`` reads them as the first digits of a ``pad``-digit number (a fraction's).

    A byte is a digit when its XOR with "0" is 0..9: no bit in the high nibble, before or
    after adding 6.  Adding 6 carries into the next byte only from a byte >= 0xFA, which is
    not a digit: it never touches the digits before the first non-digit byte."""
    d = w ^ _ZEROS
    stop = ((d | (d + _SIX)) & _HIGH) | _U(0x10 << (8 * cap))
    low = stop & (_U(0) - stop)  # the first non-digit byte's lowest high-nibble bit
    n8 = np.bitwise_count(low - _U(1)).astype(np.uint64) & _U(0x38)
    if pad:  # the digits, then zeros, in the top ``pad`` bytes
        return n8, _swar((d & ~(_ALL << n8)) << _U(64 - 8 * pad), pad)
    # the digits in the top bytes; the bytes after them are shifted out
    return n8, _swar(d << (_U(64) - n8), cap)


def _rows(data: np.ndarray, width: int) -> np.ndarray:
    """``rows[i]`` = the ``width`` bytes from byte ``i`` on, as one opaque item: one gather
    brings a line's first ``width`` bytes (its prefix and tail) into a small array."""
    n = max(len(data) - width + 1, 0)
    return np.ndarray((n,), dtype=f"V{width}", buffer=data, offset=0, strides=(1,))


def _col(head: np.ndarray, k: int) -> np.ndarray:
    """The 8 bytes from byte ``k`` of each row of ``head`` (rows of little-endian words)."""
    q, r = divmod(k, 8)
    if not r:
        return head[q]
    return (head[q] >> _U(8 * r)) | (head[q + 1] << _U(64 - 8 * r))


def _prefix_bad(head: np.ndarray, shape: Shape) -> np.ndarray:
    """Nonzero where a literal byte of the shape's prefix differs (the stamp's digit slots
    are checked where they are read)."""
    bad = np.zeros(head.shape[1], dtype=np.uint64)
    for at in range(0, len(shape.prefix), 8):
        chunk = shape.prefix[at : at + 8]
        slot = shape.digit_slots[at : at + 8]
        lit = _pack([0 if s else 0xFF for s in slot] + [0] * (8 - len(chunk)))
        if lit:
            want = _U(_pack(chunk.ljust(8, b"\0")) & lit)
            bad |= (head[at // 8] & _U(lit)) ^ want
    return bad


def _digits(head: np.ndarray, spots: list[int]) -> np.ndarray:
    """The bytes at ``spots`` (at most 8 positions in each row) as digit values (if they are
    digits: see ``_not_digits``) in the top bytes of a word."""
    k, d, j = len(spots), None, 0
    while j < k:
        n = 1
        while j + n < k and spots[j + n] == spots[j] + n:
            n += 1
        part = (_col(head, spots[j]) ^ _ZEROS) << _U(64 - 8 * n)  # n bytes, on top
        part >>= _U(8 * (k - n - j))  # digit j of the piece at byte 8 - k + j
        d = part if d is None else d | part
        j += n
    return d


def _not_digits(d: np.ndarray) -> np.ndarray:
    """Nonzero where a byte of ``d`` (bytes XOR "0") is not 0..9 (see ``_lead``)."""
    return (d | (d + _SIX)) & _HIGH


def _once(w: np.ndarray) -> np.ndarray:
    """``w[:1]`` when every word of ``w`` is the same (within a chunk, a TTL and the leading
    digits of a -D stamp usually are): what is read from it is read once, and broadcast."""
    return w[:1] if len(w) and (w == w[0]).all() else w


def _stamp(head: np.ndarray, shape: Shape) -> tuple[np.ndarray, np.ndarray]:
    """The ``-D`` stamp as int64 ns, and a mask: nonzero where it is not all digits.  Its
    digits without the dot are one number (<= 19 digits), the stamp in units of its last
    decimal; read 8 digits at a time."""
    sec, frac = shape.sec_digits, shape.frac_digits
    spots = [1 + i for i in range(sec)] + [2 + sec + i for i in range(frac)]
    value = np.zeros(head.shape[1], dtype=np.uint64)
    bad = np.zeros(head.shape[1], dtype=np.uint64)
    for lo in range(0, len(spots), 8):
        piece = spots[lo : lo + 8]
        d = _once(_digits(head, piece))
        value = value * _U(10 ** len(piece)) + _swar(d)
        bad |= _not_digits(d)
    # A 10-digit second past 2262 wraps int64: such a line is left to the line scanner,
    # which reports it at its line.
    bad |= value >= _U((_MAX_SEC + 1) * 10**frac)
    return (value * _U(10 ** (9 - frac))).view(np.int64), bad


def _decode(words, head, start, end, shape: Shape):
    """Fields of the lines at ``start`` (``end`` past their last byte); ``good`` says which
    are the shape.  The tail after the prefix is
    ``<seq> ttl=<ttl> time=<whole>[.<frac>] ms``, each delimiter checked where it is."""
    bad = _prefix_bad(head, shape)
    time_ns = None
    if shape.sec_digits:
        time_ns, bad_ts = _stamp(head, shape)
        bad |= bad_ts
    at = start + len(shape.prefix)
    n8_seq, seq = _lead(_col(head, len(shape.prefix)), 5)
    at = at + (n8_seq >> _U(3)).view(np.int64)
    w = _once(words[at])  # " ttl=<ttl> " or so
    n8_ttl, ttl = _lead(w >> _U(40), 3)
    ttl_ok = (w & _U(0xFFFFFFFFFF)) == _U(_pack(b" ttl="))
    at = at + 5 + (n8_ttl >> _U(3)).view(np.int64)
    ok = (words[at] & _U(0xFFFFFFFFFFFF)) == _U(_pack(b" time="))
    ok &= ttl_ok
    n8_whole, whole = _lead(words[at + 6], 6)
    at = at + 6 + (n8_whole >> _U(3)).view(np.int64)
    w = words[at]  # ".<frac> ms" or " ms"
    has_frac = (w & _U(0xFF)) == _U(ord("."))
    n8_frac, frac = _lead(w >> _U(8), 3, pad=3)
    one = has_frac.astype(np.uint64)
    tail = (n8_frac + _U(8)) * one  # bits before " ms"
    ok &= ((w >> tail) & _U(0xFFFFFF)) == _U(_pack(b" ms"))
    ok &= at + (tail >> _U(3)).view(np.int64) + 3 == end
    ok &= (n8_seq * n8_ttl * n8_whole != 0) & ((n8_frac != 0) | ~has_frac)
    good = ok & (bad == 0)
    rtt_us = (whole * _U(1000) + frac * one).astype(np.float64)  # exact: <= 3 decimals
    return good, seq.view(np.int64), ttl.view(np.int64), rtt_us, time_ns


@dataclass
class Lines:
    """A text's UTF-8 bytes and where each of its lines (split at "\\n") starts and ends."""

    data: np.ndarray
    start: np.ndarray
    end: np.ndarray

    def __len__(self) -> int:
        return len(self.start)


def utf8(text: str) -> np.ndarray:
    """The UTF-8 bytes of ``text`` (one copy, made by Arrow: faster than ``str.encode``)."""
    _, offsets, buf = pa.array([text], pa.large_string()).buffers()
    size = int(np.frombuffer(offsets, np.int64)[1])
    return np.frombuffer(buf, np.uint8, count=size) if size else np.zeros(0, np.uint8)


def is_ascii(data) -> bool:
    """Whether the bytes ``data`` (any buffer) are all ASCII."""
    return len(data) == 0 or int(np.frombuffer(data, np.uint8).max()) < 0x80


def lines_of(data: np.ndarray) -> Lines:
    """The lines of the UTF-8 bytes ``data``."""
    # 1 MB at a time: the comparison's result stays in cache (25 ms instead of 39 on 80 MB)
    nl = np.concatenate(
        [np.zeros(0, np.int64)]
        + [
            np.flatnonzero(data[lo : lo + _BLOCK] == ord("\n")) + lo
            for lo in range(0, len(data), _BLOCK)
        ]
    )
    start = np.concatenate(([0], nl + 1))
    return Lines(data, start, np.concatenate((nl, [len(data)])))


def read_lines(lines: Lines, shape: Shape) -> Replies:
    """Every line of ``lines`` that has ``shape``, decoded."""
    data = lines.data
    words = _words(data)
    size = len(shape.prefix)
    rows = _rows(data, _head_bytes(size))
    length = lines.end - lines.start
    candidates = np.flatnonzero(
        (length >= size + _TAIL_MIN)
        & (length <= size + _TAIL_MAX)
        # every word read lies within the text (the last lines, if replies, are read line
        # by line)
        & (lines.start + size + _REACH <= len(data))
    )
    n = len(candidates)
    good = np.empty(n, dtype=bool)
    out = {"idx": candidates, "seq": np.empty(n, np.int64), "ttl": np.empty(n, np.int64)}
    out["rtt"] = np.empty(n, np.float64)
    out["ts"] = np.empty(n, np.int64) if shape.sec_digits else None
    for lo in range(0, n, _CHUNK):
        hi = min(lo + _CHUNK, n)
        idx = candidates[lo:hi]
        start = lines.start[idx]
        head = rows[start].view("<u8").reshape(hi - lo, -1).T.copy()  # one row per word
        got = _decode(words, head, start, lines.end[idx], shape)
        good[lo:hi] = got[0]
        for key, value in zip(("seq", "ttl", "rtt", "ts"), got[1:]):
            if value is not None:
                out[key][lo:hi] = value
    if not good.all():
        out = {k: None if v is None else v[good] for k, v in out.items()}
    return Replies(
        out["idx"], out["seq"], out["ttl"], out["rtt"], out["ts"], shape.reply_bytes, shape.key
    )
