"""iperf3 ``-J`` interval rows, column by column, when the document is clean.

``jsondoc._intervals`` reads one interval object at a time and checks each value with
``_Values`` (a wrong type, a non-finite or 64-bit-overflowing number is a located error or a
warning; ``nan`` is read as missing and noted).  An hour of ``-P 4`` is 18,000 objects, and
that reading cost several times ``json.loads``.  Most documents have none of those values:
here each column is taken out of the objects at once (``map(dict.get, ...)``) and checked as a
whole — every value an int within 64 bits, a finite float where a float is read, or absent.
A column that is not clean returns ``None`` and the caller reads the document row by row as
before, so every warning, error and ``nan`` note comes from the same code and in the same
order as ever.  The values are those the row reading gives (``float(int)`` for a float key,
the int itself for an int key), typed as ``model._column`` types them.
"""

from __future__ import annotations

from itertools import repeat
from typing import Any

import numpy as np
import pandas as pd

from .model import INT64_MAX, ROW_KEYS, flow_of

_NONE = type(None)
_FLOAT_KINDS = frozenset({float, int, _NONE})
_INT_KINDS = frozenset({int, _NONE})
# (JSON key, sample column, "f" a float / "i" a whole number): model.ROW_KEYS and the start,
# end and jitter read around them, in the order of the row's columns.
_KEYS = (
    ("start", "start_s", "f"),
    ("end", "end_s", "f"),
    *ROW_KEYS,
    ("jitter_ms", "jitter_us", "f"),
)


# |x| at or beyond it: maybe an int _Values refuses (beyond 64 bits, or -2**63), or a float
# its int branch never sees; such a column goes to the rows.
_BIG = float(2**63)


def floats(values: list[Any]) -> np.ndarray | None:
    """float64, NaN where absent; None when a value is not a finite number (or ``nan``)."""
    kinds = set(map(type, values))
    if not kinds <= _FLOAT_KINDS:
        return None
    try:
        arr = np.array(values, dtype=np.float64)  # None -> NaN, int -> float(int)
    except OverflowError:  # an int beyond any float: the rows say so
        return None
    if int(np.isnan(arr).sum()) != values.count(None) or np.isinf(arr).any():
        return None
    if int in kinds and np.nanmax(np.abs(arr), initial=0.0) >= _BIG:
        return None
    return arr


def ints(values: list[Any]) -> pd.arrays.IntegerArray | None:
    """Int64 with absent values masked; None unless every value is an int within 64 bits."""
    kinds = set(map(type, values))
    if not kinds <= _INT_KINDS:
        return None
    try:
        if _NONE in kinds:
            obj = np.array(values, dtype=object)
            mask = np.equal(obj, None).astype(bool)
            obj[mask] = 0
            data = obj.astype(np.int64)
        else:
            data, mask = np.array(values, dtype=np.int64), np.zeros(len(values), dtype=bool)
    except OverflowError:  # beyond 64 bits: the rows say so
        return None
    if (data == -(2**63)).any():  # _Values reads within +-INT64_MAX
        return None
    return pd.arrays.IntegerArray(data, mask)


def objects(values: list[Any]) -> np.ndarray:
    arr = np.empty(len(values), dtype=object)  # the schema makes it str once, after concat
    arr[:] = values
    return arr


def _gather(doc_intervals: list, local: str | None, other: str | None):
    """The interval objects in row order: each stream's, then ``sum``, ``sum_bidir_reverse``;
    with their interval number, stream index (None for a sum) and the side they default to."""
    objs: list[dict] = []
    seqs: list[int] = []
    ks: list[int | None] = []
    fallback: list[str | None] = []
    for seq, iv in enumerate(doc_intervals):
        if not isinstance(iv, dict):
            continue
        streams = iv.get("streams")
        if isinstance(streams, list):
            for k, st in enumerate(streams):
                if isinstance(st, dict):
                    objs.append(st)
                    seqs.append(seq)
                    ks.append(k)
                    fallback.append(local)
        for key, side in (("sum", local), ("sum_bidir_reverse", other)):
            obj = iv.get(key)
            if isinstance(obj, dict):
                objs.append(obj)
                seqs.append(seq)
                ks.append(None)
                fallback.append(side)
    return objs, seqs, ks, fallback


def _streams(objs: list[dict], ks: list[int | None]) -> list[str] | None:
    """jsondoc._stream_id of each stream object (its socket, else ``#k``), ``SUM`` for sums."""
    sockets = [o.get("socket") if k is not None else None for o, k in zip(objs, ks, strict=True)]
    kinds = set(map(type, sockets))
    if not kinds <= _INT_KINDS:
        return None
    if int in kinds:
        present = [x for x in sockets if x is not None]
        if min(present) < -INT64_MAX or max(present) > INT64_MAX:
            return None
    return [
        "SUM" if k is None else f"#{k}" if s is None else str(s)
        for s, k in zip(sockets, ks, strict=True)
    ]


def interval_columns(
    intervals: list, role: str | None, bidir: bool, local: str | None, other: str | None
) -> dict[str, Any] | None:
    """The interval rows as columns (``model.SAMPLE_KEYS`` present, and ``_flow``), or None
    when a value needs the row-by-row reading (or there are no rows)."""
    objs, seqs, ks, fallback = _gather(intervals, local, other)
    stream = _streams(objs, ks) if objs else None
    if stream is None:
        return None
    typed: dict[str, Any] = {}
    for key, col, kind in _KEYS:
        values = list(map(dict.get, objs, repeat(key)))
        if values.count(None) == len(values):
            continue  # the row reading leaves the column out too
        arr = floats(values) if kind == "f" else ints(values)
        if arr is None:
            return None
        typed[col] = arr * 1000.0 if key == "jitter_ms" else arr
    flags = map(dict.get, objs, repeat("sender"))
    sides = [
        ("sender" if f else "receiver") if type(f) is bool else d
        for f, d in zip(flags, fallback, strict=True)
    ]
    status = ["omitted" if x is True else "ok" for x in map(dict.get, objs, repeat("omitted"))]
    cols: dict[str, Any] = {
        "seq": ints(seqs),
        "kind": objects(["interval"] * len(objs)),
        "status": objects(status),
        "stream": objects(stream),
    }
    if any(s is not None for s in sides):
        cols["role"] = objects(sides)
    cols |= typed
    cols["_flow"] = [flow_of(role, s, True) for s in sides] if bidir else [""] * len(sides)
    return cols
