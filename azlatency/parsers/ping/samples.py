"""A ping run's packet lines as numpy columns, from the line reader's rows and the bulk
reader's chunks to the ``samples`` frame, which is made once, at the end.

A million replies pass through several steps (seqs unwrapped, duplicates marked, ``lost`` rows
for gaps, statistics); on numpy arrays each is a few vector operations, where pandas frames
cost a copy of every column per step.  Statuses are small integer codes until the frame is
made.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace

import numpy as np
import pandas as pd
import pyarrow as pa

from .._lines import constant_str

STATUSES = ("ok", "duplicate", "censored", "timeout", "error", "lost")
CODE = {name: np.int8(i) for i, name in enumerate(STATUSES)}
_STR = pd.StringDtype("pyarrow", na_value=float("nan"))  # the schema's ``str``
_NO_LINE = np.iinfo(np.int64).max  # the line of a ``lost`` row: after every printed line


@dataclass
class Samples:
    """One array per column; ``has_*`` says where an integer column holds a value."""

    idx: np.ndarray  # 0-based line (int64)
    seq: np.ndarray
    has_seq: np.ndarray
    status: np.ndarray  # int8 codes into STATUSES
    rtt_us: np.ndarray  # float64, NaN where none
    censor_high_us: np.ndarray
    ttl: np.ndarray
    has_ttl: np.ndarray
    size: np.ndarray
    has_size: np.ndarray
    time_ns: np.ndarray
    has_time: np.ndarray
    message: np.ndarray | None  # object (str or None); None when no line has a message

    def __len__(self) -> int:
        return len(self.idx)

    def take(self, order: np.ndarray) -> Samples:
        return Samples(**{f.name: _take(getattr(self, f.name), order) for f in fields(self)})

    def any_of(self, *names: str) -> np.ndarray:
        """Where the status is one of ``names``."""
        wanted = np.zeros(len(STATUSES), dtype=bool)
        wanted[[CODE[n] for n in names]] = True
        return wanted[self.status]

    def count(self, name: str) -> int:
        return int((self.status == CODE[name]).sum())


def _take(values: np.ndarray | None, order: np.ndarray) -> np.ndarray | None:
    return None if values is None else values[order]


def _ints(values: list) -> tuple[np.ndarray, np.ndarray]:
    has = np.array([v is not None for v in values], dtype=bool)
    return np.array([0 if v is None else v for v in values], dtype=np.int64), has


def _floats(values: list) -> np.ndarray:
    return np.array([np.nan if v is None else v for v in values], dtype=np.float64)


def from_rows(rows: list[tuple]) -> Samples:
    """The line reader's rows: (idx, seq, status, rtt, censor, ttl, size, ts, message)."""
    idx, seq, status, rtt, censor, ttl, size, ts, message = (list(c) for c in zip(*rows))
    seq_v, has_seq = _ints(seq)
    ttl_v, has_ttl = _ints(ttl)
    size_v, has_size = _ints(size)
    ts_v, has_ts = _ints(ts)
    return Samples(
        np.array(idx, dtype=np.int64),
        seq_v,
        has_seq,
        np.array([CODE[s] for s in status], dtype=np.int8),
        _floats(rtt),
        _floats(censor),
        ttl_v,
        has_ttl,
        size_v,
        has_size,
        ts_v,
        has_ts,
        np.array(message, dtype=object) if any(m is not None for m in message) else None,
    )


def from_chunk(ch: dict) -> Samples:
    """Replies the bulk reader read (all ``ok``, no message)."""
    n = len(ch["idx"])
    yes = np.ones(n, dtype=bool)
    ts = ch["time_ns"]
    return Samples(
        ch["idx"],
        ch["seq"],
        yes,
        np.zeros(n, dtype=np.int8),  # ok
        ch["rtt_us"],
        np.full(n, np.nan),
        ch["ttl"],
        yes,
        ch["bytes"],
        yes,
        np.zeros(n, dtype=np.int64) if ts is None else ts,
        ~yes if ts is None else yes,
        None,
    )


def concat(parts: list[Samples]) -> Samples:
    if len(parts) == 1:
        return parts[0]
    out = {}
    for f in fields(Samples):
        values = [getattr(p, f.name) for p in parts]
        if f.name == "message":
            if all(v is None for v in values):
                out[f.name] = None
                continue
            values = [
                np.full(len(p), None, dtype=object) if v is None else v
                for p, v in zip(parts, values)
            ]
        out[f.name] = np.concatenate(values)
    return Samples(**out)


def with_lost(s: Samples, lost: np.ndarray, key: np.ndarray) -> Samples:
    """``s`` and a ``lost`` row (no line, nothing but its seq) for every seq in ``lost``,
    ordered by ``key`` (the rows' seqs; ``lost`` is rising and none of them), stable."""
    if not (key[1:] >= key[:-1]).all():
        extra = _lost_rows(lost, s.message is not None)
        order = np.argsort(np.concatenate((key, lost)), kind="stable")
        return concat([s, extra]).take(order)
    if not len(lost):
        return s
    # Rows already in order: each lost row goes in before the first row with a larger seq.
    at = np.searchsorted(key, lost) + np.arange(len(lost))
    old = np.ones(len(s) + len(lost), dtype=bool)
    old[at] = False
    extra = _lost_rows(lost, s.message is not None)
    out = {}
    for f in fields(Samples):
        mine, theirs = getattr(s, f.name), getattr(extra, f.name)
        if mine is None:
            out[f.name] = None
            continue
        merged = np.empty(len(old), dtype=mine.dtype)
        merged[old] = mine
        merged[at] = theirs
        out[f.name] = merged
    return Samples(**out)


def _lost_rows(lost: np.ndarray, messages: bool) -> Samples:
    n = len(lost)
    no = np.zeros(n, dtype=bool)
    nan = np.full(n, np.nan)
    zero = np.zeros(n, dtype=np.int64)
    return Samples(
        np.full(n, _NO_LINE, dtype=np.int64),
        lost.astype(np.int64),
        ~no,
        np.full(n, CODE["lost"], dtype=np.int8),
        nan,
        nan,
        zero,
        no,
        zero,
        no,
        zero,
        no,
        np.full(n, None, dtype=object) if messages else None,
    )


def with_status(s: Samples, where: np.ndarray, name: str) -> Samples:
    status = s.status.copy()
    status[where] = CODE[name]
    return replace(s, status=status)


# ---------------------------------------------------------------------------------------------
# The frame.


def int64(values: np.ndarray, has: np.ndarray) -> pd.arrays.IntegerArray:
    return pd.arrays.IntegerArray(values, ~has)


def status_str(codes: np.ndarray) -> pd.api.extensions.ExtensionArray:
    """Status codes as the schema's ``str`` column (Arrow decodes them, no Python strings)."""
    if len(codes) and (codes == codes[0]).all():
        return constant_str(STATUSES[codes[0]], len(codes))
    names = pa.array(STATUSES, pa.large_string())
    column = pa.DictionaryArray.from_arrays(pa.array(codes, pa.int8()), names)
    return pd.array(column.cast(pa.large_string()), dtype=_STR)


def message_str(s: Samples) -> pd.api.extensions.ExtensionArray:
    if s.message is None:
        return pd.array(pa.nulls(len(s), pa.large_string()), dtype=_STR)
    return pd.array(s.message, dtype="str")
