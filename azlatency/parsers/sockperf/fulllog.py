"""sockperf ``--full-log`` rows: reading the CSV block exactly, and the statistics sockperf
prints, recomputed from the rows.

The block sits between ``------------------------------`` lines under a header such as
``packet, txTime(sec), rxTime(sec), latency(usec)`` (``rtt(usec)`` with ``--full-rtt``).
Before 3.4 the header was ``txTime, rxTime`` and the rows held the two times only, one per
packet sent in the measured window, a lost reply with ``rxTime`` 0 (``pairs``).
Times are ``seconds.nanoseconds`` (``%.9lf``); they are read with ``pyarrow.csv`` as
``decimal128(19, 9)`` whose unscaled integer *is* the time in nanoseconds, so no float ever
touches them (a float64 cannot hold 1.7e9 s to the nanosecond).  Nineteen digits reach
9,999,999,999 s, past what int64 nanoseconds hold (year 2262), so the precision loses nothing
and parses faster than 20.  Rows that pyarrow refuses are
re-read line by line to name the offending line (strict) or to skip it (lenient).

Kept apart from ``sockperf.py`` only for size; nothing else imports it.
"""

from __future__ import annotations

import math
import os
import re
import sys
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from statistics import NormalDist

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.csv as pacsv

from ...errors import ParseError
from ...schema import pct_label as stat_name  # 0.999 → 'p99.9'
from .._base import Run
from .._lines import (
    INT64_MAX,
    INT64_MIN,
    THREADS_FROM,
    constant_str,
    count_newlines,
    decimal_to_ns,
    int64_array,
    mapped_empty,
    pool_empty,
)

TOOL = "sockperf"
# The printed quantiles (sockperf 3.x prints these eight, highest first).
QUANTILES = (0.25, 0.5, 0.75, 0.9, 0.99, 0.999, 0.9999, 0.99999)
PIECE_MIN = 8 << 20  # bytes of rows per parallel piece (smaller blocks are read whole)
_ROW = re.compile(r"^\s*(\d+)\s*,\s*(\d+(?:\.\d*)?)\s*,\s*(\d+(?:\.\d*)?)\s*(?:,\s*(\S+?)\s*)?$")
_PAIR = re.compile(r"^\s*(\d+(?:\.\d*)?)\s*,\s*(\d+(?:\.\d*)?)\s*$")  # before 3.4: tx, rx


_CLOSE = b"\n" + b"-" * 30  # a line that starts like the closing one


class EarlierClose(Exception):
    """The rows, read up to the last closing line, hold an earlier one (read_rows)."""


@dataclass
class Rows:
    """The parsed CSV block of one full log."""

    seq: np.ndarray
    tx_ns: np.ndarray
    rx_ns: np.ndarray
    value: np.ndarray | None  # the latency/rtt column in µs, when the header has one
    n_lines: int  # lines the block occupies (rows, including skipped or cut ones)
    warnings: list[str] = field(default_factory=list)
    status: np.ndarray | None = None  # per row, when not every row is an "ok" reply


# ---------------------------------------------------------------------------------------------
# Reading


def _dec_to_ns(chunk, out: np.ndarray) -> None:
    """A pyarrow ``decimal128(20, 9)`` array → int64 nanoseconds in ``out``, without
    arithmetic: the unscaled 128-bit integer of scale 9 is the nanosecond count.  Its high word
    must be the sign extension of the low word (any time before the year 2262)."""
    words = np.frombuffer(chunk.buffers()[1], dtype="<i8")
    words = words[2 * chunk.offset : 2 * (chunk.offset + len(chunk))].reshape(-1, 2)
    low, high = words[:, 0], words[:, 1]
    if not np.array_equal(high, low >> 63):
        raise OverflowError("time beyond int64 nanoseconds")
    out[:] = low if sys.byteorder == "little" else low.byteswap()


def _read_piece(buf, has_value: bool, out: list[np.ndarray | None], pairs: bool = False) -> int:
    """Stream one piece of the block through pyarrow's CSV reader, 16 MB at a time, into the
    ``out`` arrays: the decimal columns (16 bytes a value) never exist for the whole file.
    ``pairs``: pre-3.4 ``tx, rx`` rows, no packet column (``seq`` is left to the caller)."""

    names = ([] if pairs else ["seq"]) + ["tx", "rx"] + (["value"] if has_value else [])
    types = {"seq": pa.int64(), "tx": pa.decimal128(19, 9), "rx": pa.decimal128(19, 9)}
    if has_value:
        types["value"] = pa.float64()
    reader = pacsv.open_csv(
        pa.BufferReader(buf),
        read_options=pacsv.ReadOptions(column_names=names, block_size=1 << 24, use_threads=False),
        convert_options=pacsv.ConvertOptions(column_types=types, strings_can_be_null=False),
    )
    seq, tx, rx, value = out
    k = 0
    for batch in reader:
        m = batch.num_rows
        if k + m > len(seq) or any(col.null_count for col in batch.columns):
            raise ValueError("unexpected rows")  # re-read slowly, which names the line
        at = 0 if pairs else 1
        if not pairs:
            seq[k : k + m] = batch.column(0).to_numpy()
        _dec_to_ns(batch.column(at), tx[k : k + m])
        _dec_to_ns(batch.column(at + 1), rx[k : k + m])
        if value is not None:
            value[k : k + m] = batch.column(at + 2).to_numpy()
            if not np.isfinite(value[k : k + m]).all():  # '%.3lf' is never nan or inf
                raise ValueError("a latency that is no number")
        k += m
    return k


def _pieces(data: bytes, start: int, stop: int, n: int) -> list[tuple[int, int]]:
    """``n`` pieces of ``data[start:stop]`` cut after newlines."""
    bounds = [start]
    for k in range(1, n):
        cut = data.rfind(b"\n", bounds[-1], start + (stop - start) * k // n) + 1
        if cut > bounds[-1]:
            bounds.append(cut)
    bounds.append(stop)
    return [(a, b) for a, b in zip(bounds, bounds[1:]) if b > a]


def _map(fn, items: list) -> list:
    """``list(map(fn, items))``, in threads when there is more than one item."""
    if len(items) < 2:
        return [fn(x) for x in items]

    with ThreadPoolExecutor(len(items)) as pool:
        return list(pool.map(fn, items))


def _read_arrow(data: bytes, start: int, stop: int, has_value: bool, pairs: bool = False):
    """The rows of ``data[start:stop]`` as (seq, tx_ns, rx_ns, value, newlines).  Big blocks
    are cut into one piece per core (at most 8); the pieces' lines are counted, then read, in
    parallel threads (pyarrow and numpy release the GIL; each piece's reader is single-threaded,
    so the cores are not oversubscribed), each into its own stretch of the preallocated result
    arrays."""

    n = max(1, min(os.cpu_count() or 1, 8, (stop - start) // PIECE_MIN))
    pieces = _pieces(data, start, stop, n)
    counts = _map(lambda ab: count_newlines(data, *ab), pieces)
    sizes = [c + (1 if data[b - 1 : b] != b"\n" else 0) for (a, b), c in zip(pieces, counts)]
    total = sum(sizes)
    cols = [mapped_empty(total, np.int64) for _ in range(3)]
    cols.append(mapped_empty(total, np.float64) if has_value else None)
    at = np.concatenate(([0], np.cumsum(sizes))).tolist()
    whole = pa.py_buffer(data)

    def one(i: int) -> int:
        a, b = pieces[i]
        out = [c[at[i] : at[i + 1]] if c is not None else None for c in cols]
        return _read_piece(whole.slice(a, b - a), has_value, out, pairs)

    got = _map(one, list(range(len(pieces))))
    if got != sizes:  # blank lines: close the gaps (rare, so the copy is fine)
        keep = np.concatenate([np.arange(at[i], at[i] + g) for i, g in enumerate(got)])
        cols = [c[keep] if c is not None else None for c in cols]
    if pairs:  # rows numbered from 1, as the slow path numbers them
        cols[0] = np.arange(1, len(cols[1]) + 1, dtype=np.int64)
    return (*cols, sum(counts))


def _read_python(
    lines: list[str],
    has_value: bool,
    first_line_no: int,
    source,
    strict,
    warnings,
    pairs: bool = False,
):
    """Slow path: exact line numbers for bad rows (strict) or skip them (lenient).  ``pairs``:
    a pre-3.4 ``txTime, rxTime`` block, whose rows are numbered from 1 (no packet column)."""
    seq, tx, rx, val = [], [], [], []
    if pairs:
        what = "'txTime, rxTime'"
    else:
        what = "'packet, txTime, rxTime" + (", latency'" if has_value else "'")
    for k, line in enumerate(lines):
        m = (_PAIR if pairs else _ROW).match(line)
        ok = m is not None and (pairs or (m.group(4) is not None) == has_value)
        v = math.nan
        if ok and has_value:
            try:
                v = float(m.group(4))
            except ValueError:
                ok = False
            ok = ok and math.isfinite(v)  # sockperf prints '%.3lf': 'nan', 'inf' are not its
        reason = f"expected {what} numbers, got {line.strip()!r}"
        if ok:
            times = m.groups()[:2] if pairs else m.groups()[1:3]
            row = (len(seq) + 1 if pairs else int(m.group(1)), *map(decimal_to_ns, times))
            if not all(INT64_MIN <= x <= INT64_MAX for x in row):
                ok = False
                reason += ": out of range for int64 (" + (
                    "a time past the year 2262)"
                    if pairs
                    else "packet number, or a time past the year 2262)"
                )
        if not ok:
            if not line.strip():
                continue
            if strict:
                raise ParseError(TOOL, source, first_line_no + k, reason)
            warnings.append(f"line {first_line_no + k} skipped: {reason}")
            continue
        seq.append(row[0])
        tx.append(row[1])
        rx.append(row[2])
        if has_value:
            val.append(v)
    return (
        np.array(seq, dtype=np.int64),
        np.array(tx, dtype=np.int64),
        np.array(rx, dtype=np.int64),
        np.array(val, dtype=np.float64) if has_value else None,
    )


def pair_status(rx_ns: np.ndarray) -> tuple[np.ndarray | None, list[str]]:
    """sockperf's rule for the pre-3.4 rows (dumpFullLog's loop): ``rxTime`` 0 is a lost reply;
    a reply received before the latest reply accepted so far is out of order and, as sockperf
    does, left out of the statistics (status ``omitted``)."""
    lost = rx_ns == 0
    latest = np.maximum.accumulate(np.where(lost, np.iinfo(np.int64).min, rx_ns))
    ooo = ~lost & (rx_ns < np.concatenate(([np.iinfo(np.int64).min], latest[:-1])))
    if not lost.any() and not ooo.any():
        return None, []
    status = np.where(lost, "lost", np.where(ooo, "omitted", "ok")).astype(object)
    notes = []
    if lost.any():
        notes.append(f"{int(lost.sum())} rows with rxTime 0: lost replies")
    if ooo.any():
        notes.append(
            f"{int(ooo.sum())} rows received before an earlier packet's reply: out of order, "
            "left out of the statistics as sockperf does"
        )
    return status, notes


def _decimals(line: str) -> list[int]:
    return [len(f.strip().partition(".")[2]) for f in line.split(",")]


def cut_last_row(last: str, previous: str | None, pairs: bool = False) -> bool:
    """A truncated file may end inside a row: sockperf prints every row with the same
    fixed number of decimals (``%.9lf``, ``%.3lf``), so a last row that is shaped unlike the
    row before it was cut."""
    shape = _PAIR if pairs else _ROW
    if previous is None:
        return shape.match(last) is None
    return shape.match(last) is None or _decimals(last) != _decimals(previous)


def _last_lines(data: bytes, start: int, end: int) -> tuple[int, str, str | None]:
    """Offset where the last non-empty line of ``data[start:end]`` begins, it, and the one before."""
    stop = end
    while stop > start and data[stop - 1 : stop] == b"\n":
        stop -= 1
    begin = data.rfind(b"\n", start, stop) + 1 or start
    begin = max(begin, start)
    prev_begin = max(data.rfind(b"\n", start, max(begin - 1, start)) + 1, start)
    last = data[begin:stop].decode("utf-8", "replace")
    prev = data[prev_begin : begin - 1].decode("utf-8", "replace") if begin > start else None
    return begin, last, prev


def read_rows(
    data: bytes,
    start: int,
    end: int,
    *,
    has_value: bool,
    first_line_no: int,
    closed: bool,
    source: str | None,
    strict: bool,
    pairs: bool = False,
    end_sure: bool = True,
) -> Rows:
    """Parse the row lines ``data[start:end]`` of one CSV block (no copy of ``data`` is made).

    ``closed`` says whether the closing ``----`` line was seen; without it the file was
    truncated and a last row shaped unlike its neighbour is dropped with a warning.
    ``end_sure=False``: the closing line at ``end`` was found from the back, and an earlier
    one may sit among the rows; when the fast reader refuses them and one does,
    :class:`EarlierClose` is raised instead of reading them line by line.
    """
    warnings: list[str] = []
    stop = end  # rows parsed are data[start:stop]; a cut last row is left out
    if not closed and end > start:
        begin, last, prev = _last_lines(data, start, end)
        if last and cut_last_row(last, prev, pairs):
            line_no = first_line_no + count_newlines(data, start, begin)
            warnings.append(f"line {line_no} dropped: row cut by truncation {last!r}")
            stop = begin
    newlines = None
    if stop - start < 4096 and not data[start:stop].strip():
        empty = np.empty(0, dtype=np.int64)
        rows = Rows(empty, empty, empty, np.empty(0) if has_value else None, 0, warnings)
    else:
        try:
            *cols, newlines = _read_arrow(data, start, stop, has_value, pairs)
            rows = Rows(*cols, 0, warnings)
        except (ValueError, OverflowError):
            if not end_sure and data.find(_CLOSE, start - 1, stop - 1) >= 0:
                raise EarlierClose from None
            # pyarrow.lib.ArrowInvalid is a ValueError; re-read slowly to find the bad line.
            lines = data[start:stop].decode("utf-8", "replace").split("\n")
            read = _read_python(lines, has_value, first_line_no, source, strict, warnings, pairs)
            rows = Rows(*read, 0, warnings)
    if pairs:  # pre-3.4 rows: sockperf's lost and out-of-order rules
        rows.status, notes = pair_status(rows.rx_ns)
        warnings.extend(notes)
    if newlines is None or stop != end:
        newlines = count_newlines(data, start, end)
    rows.n_lines = newlines + int(end > start and data[end - 1 : end] != b"\n")
    return rows


# ---------------------------------------------------------------------------------------------
# Samples and computed statistics


def samples(rows: Rows, basis: str) -> pd.DataFrame:
    """The samples frame of a full log (without run_id), already in the schema's dtypes so
    the reader's coercion copies nothing."""
    n = len(rows.seq)
    cols: dict[str, object] = {
        "seq": int64_array(rows.seq),
        "kind": constant_str("packet", n),
        "status": constant_str("ok", n),
        "tx_time_ns": int64_array(rows.tx_ns),
        "rx_time_ns": int64_array(rows.rx_ns),
    }
    value = rows.value if rows.value is not None else latency_from_times(rows, basis)
    if rows.status is not None:  # pre-3.4 rows: lost replies have no time, nor a latency
        cols["status"] = rows.status
        lost = rows.status == "lost"
        cols["rx_time_ns"] = pd.arrays.IntegerArray(rows.rx_ns, lost)
        value = np.where(lost, np.nan, value)
    cols[f"{basis}_us"] = value
    return pd.DataFrame(cols, copy=False)


def latency_from_times(rows: Rows, basis: str) -> np.ndarray:
    """µs from exact ns differences: rx - tx is the round trip (both stamped at the client)."""
    rtt_ns = rows.rx_ns - rows.tx_ns
    return rtt_ns / (2000.0 if basis == "half_rtt" else 1000.0)


def check_column(rows: Rows, basis: str, step: int = 1 << 18) -> str | None:
    """The printed latency column should equal the tx/rx difference to its printed digit.
    Checked in cache-sized slices: whole-column temporaries cost memory and time."""
    if rows.value is None or not len(rows.value):
        return None
    scale = 2000.0 if basis == "half_rtt" else 1000.0
    bad_count, first = 0, None
    for lo in range(0, len(rows.value), step):
        hi = lo + step
        diff = np.subtract(rows.rx_ns[lo:hi], rows.tx_ns[lo:hi]) / scale
        np.subtract(rows.value[lo:hi], diff, out=diff)
        bad = np.flatnonzero(np.abs(diff, out=diff) > 0.001 + 1e-9)
        if len(bad):
            bad_count += len(bad)
            first = lo + bad[0] if first is None else first
    if first is None:
        return None
    exact = (rows.rx_ns[first] - rows.tx_ns[first]) / scale
    return (
        f"{bad_count} rows whose {basis} column disagrees with rxTime - txTime, first packet "
        f"{rows.seq[first]}: {rows.value[first]} vs {exact:.4f}"
    )


def compute(values: np.ndarray, level: float = 0.99) -> dict[str, float]:
    """What sockperf prints, from the rows: count, mean, std (n-1), min, max, the eight
    percentiles, and the 3.8 dispersion figures (mean-ad, median-ad, siqr, cv, std-error, CI).

    The order statistics (counted, or selected when they cannot be: ``_order_stats``) and the
    moments (sliced passes, no whole-column temporaries) run in two threads from
    ``THREADS_FROM`` values."""
    n = len(values)
    if n == 0:
        return {"count": 0.0}
    out: dict[str, float] = {"count": float(n)}
    jobs = [_order_stats, _moments]
    if n >= THREADS_FROM:
        _map(lambda job: job(values, out), jobs)
    else:
        for job in jobs:
            job(values, out)
    # sockperf 3.8+ prints the median absolute deviation scaled to a consistent estimator of
    # the standard deviation (ticks.cpp TicksDuration::medianad: × 1/Φ⁻¹(3/4) = 1.48260221851;
    # a 3.10 capture, tests/fixtures/sockperf, prints 0.181 where the raw figure is 0.120)
    out["median_ad"] *= MEDIAN_AD_SCALE
    std, mean = out["std"], out["mean"]
    out["siqr"] = (out["p75"] - out["p25"]) / 2
    out["cv"] = std / mean if mean else math.nan
    out["std_error"] = std / math.sqrt(n)
    z = NormalDist().inv_cdf(0.5 + level / 2)
    out["ci_low"] = mean - z * out["std_error"]
    out["ci_high"] = mean + z * out["std_error"]
    return {k: out[k] for k in _ORDER}


_ORDER = (
    "count",
    "mean",
    "std",
    "min",
    "max",
    *map(stat_name, QUANTILES),
    "mean_ad",
    "median_ad",
    "siqr",
    "cv",
    "std_error",
    "ci_low",
    "ci_high",
)


def _ranks(n: int) -> dict[str, int]:
    """0-based ranks of min, max and sockperf's percentiles among ``n`` sorted values: its
    percentile is the observation of rank ⌊0.5 + q·n⌋ (1-based)."""
    ranks = {"min": 0, "max": n - 1}
    for q in QUANTILES:
        ranks[stat_name(q)] = min(max(math.floor(0.5 + q * n) - 1, 0), n - 1)
    return ranks


# Latencies printed ``%.3lf`` are whole nanoseconds: counting them (one bin per ns) gives the
# order statistics exactly in one pass, where a selection needs several.  Past this many bins
# (a range of 67 ms) the counts cost more than they save.
MAX_BINS = 1 << 26
SORT_BINS = 8  # bins a value past which the ticks are sorted instead (_order_stats_sorted)


def _order_stats(values: np.ndarray, out: dict[str, float]) -> None:
    if _order_stats_counted(values, out):
        return
    ranks = _ranks(len(values))
    part = np.partition(values, sorted(set(ranks.values())))  # the one copy, reused as scratch
    for stat, rank in ranks.items():
        out[stat] = float(part[rank])
    scratch = np.subtract(values, out["p50"], out=part)
    np.abs(scratch, out=scratch)
    out["median_ad"] = float(np.median(scratch, overwrite_input=True))


def _order_stats_counted(values: np.ndarray, out: dict[str, float], step: int = 1 << 18) -> bool:
    """min, max, percentiles and median-ad by counting whole nanoseconds; False (nothing
    written) when the values are not all whole ns or span more than :data:`MAX_BINS`.
    The ticks are made slice by slice into one array (the only whole-column buffer)."""
    lo, hi = np.rint(float(values.min()) * 1000.0), np.rint(float(values.max()) * 1000.0)
    if not (math.isfinite(lo) and math.isfinite(hi)) or hi - lo >= MAX_BINS:
        return False
    ticks = pool_empty(len(values), np.intp)  # what bincount takes without a cast
    # Scratch made once: temporaries made per slice cost fresh pages in a worker thread.
    size = min(step, len(values))
    buf, back, same = np.empty(size), np.empty(size), np.empty(size, dtype=bool)
    for a in range(0, len(values), step):
        part = values[a : a + step]
        k = len(part)
        ns = np.multiply(part, 1000.0, out=buf[:k])
        np.rint(ns, out=ns)
        if not np.equal(np.divide(ns, 1000.0, out=back[:k]), part, out=same[:k]).all():
            return False  # not whole nanoseconds
        np.subtract(ns, lo, out=ns)
        ticks[a : a + step] = ns
    if hi - lo > SORT_BINS * len(values):
        _order_stats_sorted(ticks, float(lo), out)
        return True
    cum = np.bincount(ticks, minlength=int(hi - lo) + 1)
    del ticks
    np.cumsum(cum, out=cum)
    lo = float(lo)
    for stat, rank in _ranks(len(values)).items():
        out[stat] = (lo + int(np.searchsorted(cum, rank, side="right"))) / 1000.0
    # |x - median| <= d holds for the values in the ticks m - d .. m + d, a count read off
    # ``cum``: the distance of rank r is the smallest d whose count exceeds r (a bisection).
    # numpy's median of an even count averages the two middle ones.
    m, top = round(out["p50"] * 1000.0 - lo), len(cum) - 1

    def within(d: int) -> int:
        upper = cum[min(m + d, top)]
        return int(upper - (cum[m - d - 1] if m - d - 1 >= 0 else 0))

    def distance(rank: int) -> int:
        low, high = 0, max(m, top - m)
        while low < high:
            mid = (low + high) // 2
            if within(mid) > rank:
                high = mid
            else:
                low = mid + 1
        return low

    n = len(values)
    out["median_ad"] = (distance(n // 2) + distance((n - 1) // 2)) / 2 / 1000.0
    return True


def _order_stats_sorted(ticks: np.ndarray, lo: float, out: dict[str, float]) -> None:
    """What :func:`_order_stats_counted` reads off its counts, from the ticks sorted: the
    same whole-nanosecond figures, for few values over a wide range (10,000 values: 0.3 ms to
    sort; counting their range took 2.3 ms a run in the synthetic campaigns' files, 95 ms
    over a range of tens of milliseconds)."""
    ticks.sort()
    for stat, rank in _ranks(len(ticks)).items():
        out[stat] = (lo + int(ticks[rank])) / 1000.0
    # the distance of rank r from the median is the r-th smallest |tick - median|
    distance = np.abs(ticks - round(out["p50"] * 1000.0 - lo))
    distance.sort()
    n = len(ticks)
    out["median_ad"] = (int(distance[n // 2]) + int(distance[(n - 1) // 2])) / 2 / 1000.0


def _moments(values: np.ndarray, out: dict[str, float], step: int = 1 << 18) -> None:
    n = len(values)
    mean = float(values.mean())
    squares = absolute = 0.0
    buf = np.empty(min(step, n))
    for lo in range(0, n, step):
        d = np.subtract(values[lo : lo + step], mean, out=buf[: min(step, n - lo)])
        np.abs(d, out=d)
        absolute += float(d.sum())
        squares += float(np.dot(d, d))
    out["mean"] = mean
    out["std"] = math.sqrt(squares / (n - 1)) if n > 1 else 0.0
    out["mean_ad"] = absolute / n


_UNITS = {"count": "count", "cv": "ratio"}


# sockperf prints ``%.3lf`` but computes from its own tick counts: 3.7 logs differ from their
# rows by up to 1.2 units of the last digit (std-dev=790.173 printed, 790.1741 from the rows of
# tests/fixtures/sockperf/...-fullrtt-fulllog-rtt.csv), so two units is "agrees".
TOLERANCE_US = 0.002
# median-ad is scaled by 1.48 after the rows' rounding to 0.001 µs: its tolerance too
TOLERANCE = {"count": 0.5, "median_ad": 0.004}
MEDIAN_AD_SCALE = 1.48260221851


def add_computed(
    run: Run, metric: str, values: np.ndarray, level: float, *, compare: bool = True
) -> None:
    """Append ``source="computed"`` summaries and warn where the printed ones disagree by more
    than :data:`TOLERANCE_US` (the count must match exactly)."""
    stats = compute(values, level)
    n = int(stats["count"])
    printed = {
        s.stat: s.value
        for s in run.summaries
        if compare and s.metric == metric and s.source == "reported"
    }
    for stat, value in stats.items():
        if math.isnan(value):
            continue
        unit = _UNITS.get(stat, "us")
        lvl = level if stat.startswith("ci_") else None
        run.add(metric, stat, value, unit, source="computed", level=lvl, n=n)
        if stat in printed:
            tol = TOLERANCE.get(stat, TOLERANCE_US) + 1e-9
            if abs(printed[stat] - value) > tol:
                run.warnings.append(
                    f"{metric} {stat}: printed {printed[stat]:g} but the full log gives {value:.4f}"
                )
