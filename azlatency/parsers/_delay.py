"""Per-probe delay helpers shared by the probe tools that time more than a round trip (irtt,
owping, twping, fping): statistics of any delay metric computed from samples, and RFC 3393
delay variation between consecutive probes.

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

from ._base import Run
from ._lines import RTT_PERCENTILES


def computed(run: Run, metric: str, values) -> None:
    """Statistics of ``values`` (µs) as ``metric``: count, mean, ddof=1 std, min, max and the
    inverted-CDF percentiles of :data:`_base.RTT_PERCENTILES` each kept where ``n * (1 - q)
    >= 1``, ``source = computed`` — the rule :func:`_base.computed_rtt` applies to ``rtt``."""
    v = np.asarray(values, dtype=float)
    v = v[~np.isnan(v)]
    n = len(v)
    if not n:
        return
    kw = {"source": "computed", "n": n}
    run.add(metric, "count", n, "count", source="computed")
    run.add(metric, "mean", float(v.mean()), "us", **kw)
    if n > 1:
        run.add(metric, "std", float(v.std(ddof=1)), "us", **kw)
    run.add(metric, "min", float(v.min()), "us", **kw)
    run.add(metric, "max", float(v.max()), "us", **kw)
    wanted = [(stat, q) for stat, q in RTT_PERCENTILES if n * (1 - q) >= 1 - 1e-9]
    if wanted:
        qs = np.quantile(v, [q for _, q in wanted], method="inverted_cdf")
        for (stat, _), value in zip(wanted, qs):
            run.add(metric, stat, float(value), "us", **kw)


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
