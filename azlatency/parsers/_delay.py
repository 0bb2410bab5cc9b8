"""Per-probe delay helpers shared by the probe tools that time more than a round trip (irtt,
owping, twping, fping): RFC 3393 delay variation between consecutive probes, and printed
delays scaled exactly.  Statistics of any delay metric from samples are ``_lines.computed``.

IPDV (docs/vocabulary.md, "Jitter: always with its definition") is ``|d(i) - d(i-1)|`` for a
probe ``i`` whose predecessor by sequence number ``i - 1`` was received too, the selection irtt
uses for its own IPDV (``Result`` in irtt 0.9.0's result.go): a lost probe breaks the chain,
so neither neighbour of a gap has a value.  Computing it the same way for every per-probe tool
is what lets two tools' jitter be compared (metric ``ipdv``), where their printed "jitter"
figures (owping's P95-P50, iperf's RFC 3550 filter) mean different things.
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal

import numpy as np


def ipdv(seq: Sequence[int], delay, ok) -> np.ndarray:
    """``|d(seq) - d(seq - 1)|`` for each row (NaN where the row is not ``ok``, or probe
    ``seq - 1`` has no ``ok`` row): rows may come in any order (fping prints a timeout after
    later replies, owping -v its lost packets last).  The first ``ok`` row of a sequence
    number is the probe; a later one (a duplicate) gets no value."""
    seq = np.asarray(seq, dtype=np.int64)
    delay = np.asarray(delay, dtype=float)
    ok = np.asarray(ok, dtype=bool) & ~np.isnan(delay)
    out = np.full(len(seq), np.nan)
    first: dict[int, int] = {}
    for i in np.flatnonzero(ok):
        first.setdefault(int(seq[i]), int(i))
    for s, i in first.items():
        j = first.get(s - 1)
        if j is not None:
            out[i] = abs(delay[i] - delay[j])
    return out


def scaled(text: str, factor: int) -> float:
    """``float(text) * factor`` through decimals, so a printed ``0.043`` ms is 43.0 µs, not
    43.00000000000001."""
    return float(Decimal(text.strip()) * factor)
