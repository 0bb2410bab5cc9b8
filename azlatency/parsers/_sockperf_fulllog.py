"""sockperf ``--full-log`` rows: reading the CSV block exactly, and the statistics sockperf
prints, recomputed from the rows.

The block sits between ``------------------------------`` lines under a header such as
``packet, txTime(sec), rxTime(sec), latency(usec)`` (``rtt(usec)`` with ``--full-rtt``).
Times are ``seconds.nanoseconds`` (``%.9lf``); they are read with ``pyarrow.csv`` as
``decimal128(20, 9)`` whose unscaled integer *is* the time in nanoseconds, so no float ever
touches them (a float64 cannot hold 1.7e9 s to the nanosecond).  Rows that pyarrow refuses are
re-read line by line to name the offending line (strict) or to skip it (lenient).

Kept apart from ``sockperf.py`` only for size; nothing else imports it.
"""

from __future__ import annotations

import math
import re
import sys
from dataclasses import dataclass, field
from statistics import NormalDist

import numpy as np
import pandas as pd

from ..errors import ParseError
from ._base import Run, decimal_to_ns

TOOL = "sockperf"
# The printed quantiles (sockperf 3.x prints these eight, highest first).
QUANTILES = (0.25, 0.5, 0.75, 0.9, 0.99, 0.999, 0.9999, 0.99999)
_ROW = re.compile(r"^\s*(\d+)\s*,\s*(\d+(?:\.\d*)?)\s*,\s*(\d+(?:\.\d*)?)\s*(?:,\s*(\S+?)\s*)?$")


def stat_name(q: float) -> str:
    """0.999 → ``'p99.9'``; 0.5 → ``'p50'`` (the percent, without trailing zeros)."""
    return "p" + f"{q * 100:.6f}".rstrip("0").rstrip(".")


@dataclass
class Rows:
    """The parsed CSV block of one full log."""

    seq: np.ndarray
    tx_ns: np.ndarray
    rx_ns: np.ndarray
    value: np.ndarray | None  # the latency/rtt column in µs, when the header has one
    n_lines: int  # lines the block occupies (rows, including skipped or cut ones)
    warnings: list[str] = field(default_factory=list)


# ---------------------------------------------------------------------------------------------
# Reading


def _dec_to_ns(column) -> np.ndarray:
    """A pyarrow ``decimal128(20, 9)`` column → int64 nanoseconds, without arithmetic: the
    unscaled 128-bit integer of scale 9 is the nanosecond count.  Its high word must be the
    sign extension of the low word (every time below 2**63 ns, i.e. before year 2262)."""
    parts = []
    for chunk in column.chunks:
        words = np.frombuffer(chunk.buffers()[1], dtype="<i8")
        words = words[2 * chunk.offset : 2 * (chunk.offset + len(chunk))].reshape(-1, 2)
        low, high = words[:, 0], words[:, 1]
        if not np.array_equal(high, low >> 63):
            raise OverflowError("time beyond int64 nanoseconds")
        parts.append(low)
    if not parts:
        return np.empty(0, dtype=np.int64)
    out = np.concatenate(parts) if len(parts) > 1 else parts[0].copy()
    return out if sys.byteorder == "little" else out.byteswap()


def _read_arrow(buf, has_value: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray | None]:
    import pyarrow as pa
    import pyarrow.csv as pacsv

    names = ["seq", "tx", "rx"] + (["value"] if has_value else [])
    types = {"seq": pa.int64(), "tx": pa.decimal128(20, 9), "rx": pa.decimal128(20, 9)}
    if has_value:
        types["value"] = pa.float64()
    table = pacsv.read_csv(
        pa.BufferReader(buf),
        read_options=pacsv.ReadOptions(column_names=names, block_size=1 << 24),
        convert_options=pacsv.ConvertOptions(column_types=types, strings_can_be_null=False),
    )
    if any(table.column(n).null_count for n in names):
        raise ValueError("empty field")
    seq = table.column("seq").to_numpy()
    value = table.column("value").to_numpy() if has_value else None
    return seq, _dec_to_ns(table.column("tx")), _dec_to_ns(table.column("rx")), value


def _read_python(lines: list[str], has_value: bool, first_line_no: int, source, strict, warnings):
    """Slow path: exact line numbers for bad rows (strict) or skip them (lenient)."""
    seq, tx, rx, val = [], [], [], []
    for k, line in enumerate(lines):
        m = _ROW.match(line)
        ok = m is not None and (m.group(4) is not None) == has_value
        if ok and has_value:
            try:
                v = float(m.group(4))
            except ValueError:
                ok = False
        if not ok:
            if not line.strip():
                continue
            what = "latency" if has_value else ""
            reason = f"expected 'packet, txTime, rxTime{', ' + what if what else ''}' numbers, got {line.strip()!r}"
            if strict:
                raise ParseError(TOOL, source, first_line_no + k, reason)
            warnings.append(f"line {first_line_no + k} skipped: {reason}")
            continue
        seq.append(int(m.group(1)))
        tx.append(decimal_to_ns(m.group(2)))
        rx.append(decimal_to_ns(m.group(3)))
        if has_value:
            val.append(v)
    return (
        np.array(seq, dtype=np.int64),
        np.array(tx, dtype=np.int64),
        np.array(rx, dtype=np.int64),
        np.array(val, dtype=np.float64) if has_value else None,
    )


def _decimals(line: str) -> list[int]:
    return [len(f.strip().partition(".")[2]) for f in line.split(",")]


def cut_last_row(last: str, previous: str | None) -> bool:
    """A truncated file may end inside a row: sockperf prints every row with the same
    fixed number of decimals (``%.9lf``, ``%.3lf``), so a last row that is shaped unlike the
    row before it was cut."""
    if previous is None:
        return _ROW.match(last) is None
    return _ROW.match(last) is None or _decimals(last) != _decimals(previous)


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
) -> Rows:
    """Parse the row lines ``data[start:end]`` of one CSV block (no copy of ``data`` is made).

    ``closed`` says whether the closing ``----`` line was seen; without it the file was
    truncated and a last row shaped unlike its neighbour is dropped with a warning.
    """
    warnings: list[str] = []
    n_lines = data.count(b"\n", start, end)
    if end > start and data[end - 1 : end] != b"\n":
        n_lines += 1
    if not closed and end > start:
        begin, last, prev = _last_lines(data, start, end)
        if last and cut_last_row(last, prev):
            line_no = first_line_no + data.count(b"\n", start, begin)
            warnings.append(f"line {line_no} dropped: row cut by truncation {last!r}")
            end = begin
    if end - start < 4096 and not data[start:end].strip():
        empty = np.empty(0, dtype=np.int64)
        return Rows(empty, empty, empty, np.empty(0) if has_value else None, n_lines, warnings)
    try:
        import pyarrow as pa

        buf = pa.py_buffer(data).slice(start, end - start)
        seq, tx, rx, value = _read_arrow(buf, has_value)
    except (ValueError, OverflowError, ImportError):
        # pyarrow.lib.ArrowInvalid is a ValueError; re-read slowly to locate the bad line.
        lines = data[start:end].decode("utf-8", "replace").split("\n")
        seq, tx, rx, value = _read_python(lines, has_value, first_line_no, source, strict, warnings)
    return Rows(seq, tx, rx, value, n_lines, warnings)


# ---------------------------------------------------------------------------------------------
# Samples and computed statistics


def samples(rows: Rows, basis: str) -> pd.DataFrame:
    """The samples frame of a full log (without run_id)."""
    n = len(rows.seq)
    cols: dict[str, object] = {
        "seq": rows.seq,
        "kind": pd.Categorical.from_codes(np.zeros(n, dtype=np.int8), ["packet"]),
        "status": pd.Categorical.from_codes(np.zeros(n, dtype=np.int8), ["ok"]),
        "tx_time_ns": rows.tx_ns,
        "rx_time_ns": rows.rx_ns,
    }
    cols[f"{basis}_us"] = rows.value if rows.value is not None else latency_from_times(rows, basis)
    return pd.DataFrame(cols, copy=False)


def latency_from_times(rows: Rows, basis: str) -> np.ndarray:
    """µs from exact ns differences: rx - tx is the round trip (both stamped at the client)."""
    rtt_ns = rows.rx_ns - rows.tx_ns
    return rtt_ns / (2000.0 if basis == "half_rtt" else 1000.0)


def check_column(rows: Rows, basis: str) -> str | None:
    """The printed latency column should equal the tx/rx difference to its printed digit."""
    if rows.value is None or not len(rows.value):
        return None
    diff = np.abs(rows.value - latency_from_times(rows, basis))
    bad = np.flatnonzero(diff > 0.001 + 1e-9)
    if not len(bad):
        return None
    i = bad[0]
    return (
        f"{len(bad)} rows whose {basis} column disagrees with rxTime - txTime, first packet "
        f"{rows.seq[i]}: {rows.value[i]} vs {latency_from_times(rows, basis)[i]:.4f}"
    )


def rank_quantile(sorted_or_partitioned: np.ndarray, q: float) -> float:
    """sockperf's percentile: the observation of rank ⌊0.5 + q·n⌋ (1-based) of the sorted values."""
    n = len(sorted_or_partitioned)
    k = min(max(math.floor(0.5 + q * n) - 1, 0), n - 1)
    return float(sorted_or_partitioned[k])


def compute(values: np.ndarray, level: float = 0.99) -> dict[str, float]:
    """What sockperf prints, from the rows: count, mean, std (n-1), min, max, the eight
    percentiles, and the 3.8 dispersion figures (mean-ad, median-ad, siqr, cv, std-error, CI)."""
    n = len(values)
    if n == 0:
        return {"count": 0.0}
    ranks = sorted({min(max(math.floor(0.5 + q * n) - 1, 0), n - 1) for q in QUANTILES})
    part = np.partition(values, ranks)
    mean = float(values.mean())
    std = float(values.std(ddof=1)) if n > 1 else 0.0
    out = {"count": float(n), "mean": mean, "std": std}
    out["min"] = float(values.min())
    out["max"] = float(values.max())
    for q in QUANTILES:
        out[stat_name(q)] = rank_quantile(part, q)
    median = out["p50"]
    out["mean_ad"] = float(np.abs(values - mean).mean())
    out["median_ad"] = float(np.median(np.abs(values - median)))
    out["siqr"] = (out["p75"] - out["p25"]) / 2
    out["cv"] = std / mean if mean else math.nan
    out["std_error"] = std / math.sqrt(n)
    z = NormalDist().inv_cdf(0.5 + level / 2)
    out["ci_low"] = mean - z * out["std_error"]
    out["ci_high"] = mean + z * out["std_error"]
    return out


_UNITS = {"count": "count", "cv": "ratio"}


# sockperf prints ``%.3lf`` but computes from its own tick counts: 3.7 logs differ from their
# rows by up to 1.2 units of the last digit (std-dev=790.173 printed, 790.1741 from the rows of
# tests/fixtures/sockperf/...-fullrtt-fulllog-rtt.csv), so two units is "agrees".
TOLERANCE_US = 0.002


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
            tol = 0.5 if stat == "count" else TOLERANCE_US + 1e-9
            if abs(printed[stat] - value) > tol:
                run.warnings.append(
                    f"{metric} {stat}: printed {printed[stat]:g} but the full log gives {value:.4f}"
                )
