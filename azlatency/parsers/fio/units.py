"""fio's number conventions: block-size suffixes, percentile keys, latency buckets."""

from __future__ import annotations

import re
from decimal import Decimal

_SIZE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([a-zA-Z]*)\s*$")
_POWERS = {"k": 1, "m": 2, "g": 3, "t": 4, "p": 5}
# fio's log-linear histogram: 2^6 = 64 buckets per power of two (stat.h FIO_IO_U_PLAT_BITS).
PLAT_BITS = 6


def size_bytes(text: str, kb_base: int = 1024) -> int | None:
    """A fio size (``4k``, ``1024k``, ``1m``, ``64KiB``) in bytes, as ``__get_mult_bytes`` of
    fio 3.33 reads it: with the default ``kb_base=1024``, ``k``/``kb`` are 1024 and — fio's own
    quirk — ``kib`` is 1000; with ``kb_base=1000`` it is the other way round.  Exact (no
    float on the way), so a size beyond int64 reaches the caller, which says where it is."""
    m = _SIZE.match(text)
    if not m:
        return None
    suffix = m.group(2).lower()
    if not suffix or suffix == "b":
        return int(Decimal(m.group(1)))
    pow_ = _POWERS.get(suffix[0])
    if pow_ is None or suffix not in (suffix[0], suffix[0] + "b", suffix[0] + "ib"):
        return None
    mult = kb_base
    if suffix.endswith("ib"):
        mult = 1024 if kb_base == 1000 else 1000
    return int(Decimal(m.group(1)) * mult**pow_)


def percentile_stat(key: str) -> str | None:
    """``"99.000000"`` → ``"p99"``, ``"99.500000"`` → ``"p99.5"``; None if not a percent."""
    try:
        value = float(key)
    except ValueError:
        return None
    if not 0 <= value <= 100:
        return None
    text = key.strip()
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return f"p{text}"


def bucket_edges_ns(value: int) -> tuple[int, int]:
    """Edges [low, high) of the histogram bucket whose reported value is ``value`` ns.

    fio reports a bucket by its midpoint (``plat_idx_to_val``): below 128 ns every ns is its
    own bucket; above, a bucket in [2^(e+6), 2^(e+7)) is 2^e ns wide.
    """
    if value < 2 << PLAT_BITS:
        return value, value + 1
    width = 1 << (value.bit_length() - 1 - PLAT_BITS)
    return value - width // 2, value + width // 2


def bucket_span_ns(lo: int, hi: int) -> tuple[int, int]:
    """Edges [low, high) of the buckets whose midpoints lie in [lo, hi] ns: where a percentile
    is when fio printed its midpoint rounded to a coarser unit (``lo <= hi``, both >= 0)."""

    def width(v: int) -> int:
        return 1 if v < 2 << PLAT_BITS else 1 << (v.bit_length() - 1 - PLAT_BITS)

    # lowest bucket with midpoint >= lo: buckets start at multiples of their width
    w = width(lo)
    low = lo if w == 1 else -(-(lo - w // 2) // w) * w
    # highest bucket with midpoint <= hi; below its range's start, the last bucket before it
    w = width(hi)
    if w == 1:
        return low, hi + 1
    start = 1 << (hi.bit_length() - 1)
    top = (hi - w // 2) // w * w
    return low, (top + w if top >= start else start)
