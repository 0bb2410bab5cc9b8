"""Mergeable quantile sketches (DDSketch) per run and time window: "p99 per zone pair over 30
days" from a few kilobytes per run-window instead of every sample.

A DDSketch (Masson, Rim & Lee, VLDB 2019; the ``ddsketch`` package's ``LogarithmicMapping``)
counts values in logarithmic bins: bin ``k`` holds the values in ``(γ^(k−1), γ^k]`` with
``γ = (1 + α) / (1 − α)`` and stands for ``2γ^k / (1 + γ)``, which is within a relative
``α`` of every value of the bin.  Two sketches of one ``α`` merge by adding their bin counts,
so a merge of window sketches is the sketch of all their samples — exactly, bin for bin.

**The bound.** For ``n`` observations and a quantile ``q``, :func:`quantiles` returns the
representative of the bin holding the order statistic ``x_(⌊q(n−1)⌋)`` (0-based; numpy's
``quantile(..., method="lower")``), clamped to the exact ``[min, max]``, so::

    |estimate − x_(⌊q(n−1)⌋)| ≤ α · x_(⌊q(n−1)⌋)

This is a deterministic bound on the estimate of that order statistic, not a confidence
interval: it says nothing about sampling error.  Intervals stay where samples are read
(``stats.summarize``, ``stats.summarize_store``).

**The table** (``sketches``; one row per run, metric and window; :data:`SCHEMA`):

==================  ===============  ============================================================
column              Arrow type       meaning
==================  ===============  ============================================================
run_id              string           run of the samples
metric              string           ``rtt`` or ``half_rtt``: the latency basis of the values
window_start_ns     int64 (null)     UTC start of the window, ns since the epoch; null: the
                                     run's rows without a time (``time`` column empty)
window_ns           int64 (null)     window length; null: one window for the whole run
alpha               float64          relative accuracy α of the sketch
count               int64            observations (``status == "ok"`` rows with a value)
zero_count          int64            observations at 0 µs (below the smallest bin)
min_us, max_us      float64          exact smallest and largest observation
sum_us              float64          exact sum (mean = sum_us / count)
bin_keys            list<int32>      keys of the non-empty bins, ascending
bin_counts          list<int64>      observations in each of those bins
==================  ===============  ============================================================

The bins are plain lists, so pyarrow, DuckDB or Spark read and merge them without azlatency
(``UNNEST`` both lists, ``SUM(count) GROUP BY key``; the representative of key ``k`` is
``2γ^k / (1 + γ)``).  The schema metadata carries ``azlatency.sketch_format_version``.

Only ``status == "ok"`` rows with a finite value are counted: timeouts, losses, errors and
censored replies (Windows ``time<1ms``) are not observations of the latency.  A negative or
infinite latency is a :class:`ValueError`.

Build from a frame or a stream of ``pyarrow`` batches (memory: the sketches, not the
samples)::

    b = SketchBuilder(window="1min")
    for batch in pq.ParquetFile(path).iter_batches(columns=SketchBuilder.COLUMNS_READ): b.add(batch)
    table = b.table()
    quantiles(table, runs, by=["src_zone", "dst_zone"], start="2026-03-01", end="2026-03-31")
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from ..schema import pct_label
from ..units import COLUMN
from ._common import DEFAULT_QUANTILES

FORMAT_VERSION = 1
DEFAULT_ALPHA = 0.01
DEFAULT_WINDOW = "1min"
SCHEMA = pa.schema(
    [
        pa.field("run_id", pa.string()),
        pa.field("metric", pa.string()),
        pa.field("window_start_ns", pa.int64()),
        pa.field("window_ns", pa.int64()),
        pa.field("alpha", pa.float64()),
        pa.field("count", pa.int64()),
        pa.field("zero_count", pa.int64()),
        pa.field("min_us", pa.float64()),
        pa.field("max_us", pa.float64()),
        pa.field("sum_us", pa.float64()),
        pa.field("bin_keys", pa.list_(pa.int32())),
        pa.field("bin_counts", pa.list_(pa.int64())),
    ],
    metadata={b"azlatency.table": b"sketches",
              b"azlatency.sketch_format_version": str(FORMAT_VERSION).encode()},
)
NOTE = ("estimate with a guaranteed relative-error bound (DDSketch): |estimate − x| ≤ "
        "relative_error · x for the order statistic x = x_(⌊q(n−1)⌋) of the merged "
        "observations; not a confidence interval — exact intervals need the samples")
_LN2 = math.log(2)


def gamma(alpha: float) -> float:
    """DDSketch's bin ratio for relative accuracy ``alpha`` (``ddsketch.mapping``)."""
    if not 0 < alpha < 1:
        raise ValueError(f"alpha (relative accuracy) must be in (0, 1), got {alpha!r}")
    return 1 + 2 * alpha / (1 - alpha)


def _multiplier(alpha: float) -> float:
    # The same float arithmetic as ddsketch's LogarithmicMapping, so keys agree bit for bit:
    # key = ceil(log(v, 2) * (ln 2 / log1p(γ − 1))), and math.log(v, 2) is log(v) / log(2).
    return 1 / math.log1p(2 * alpha / (1 - alpha)) * _LN2


def keys(values: np.ndarray, alpha: float) -> np.ndarray:
    """Bin keys of positive ``values``: ``ddsketch.LogarithmicMapping(alpha).key``,
    vectorised (the package adds one value at a time, ~0.6 µs each)."""
    return np.ceil(np.log(values) / _LN2 * _multiplier(alpha)).astype(np.int64)


def values_of(bin_keys: np.ndarray, alpha: float) -> np.ndarray:
    """Representative value of each key: ``2γ^k / (1 + γ)`` (``mapping.value``)."""
    g = gamma(alpha)
    return np.power(2.0, np.asarray(bin_keys, dtype=np.float64) / _multiplier(alpha)) * (
        2.0 / (1 + g))


def window_ns(window: str | int | pd.Timedelta | None) -> int | None:
    """A window length in ns from ``"1min"``, ``"1h"``, a Timedelta or ns; ``None``: the run."""
    if window is None:
        return None
    ns = int(window) if isinstance(window, (int, np.integer)) else pd.Timedelta(window).value
    if ns <= 0:
        raise ValueError(f"window must be a positive duration, got {window!r}")
    return ns


@dataclass
class _Bins:
    """One sketch being built: dense counts from key ``offset``, exact count/min/max/sum."""

    offset: int = 0
    counts: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))
    zero: int = 0
    n: int = 0
    lo: float = math.inf
    hi: float = -math.inf
    total: float = 0.0

    def add(self, k: np.ndarray, c: np.ndarray) -> None:
        """Add counts ``c`` at unique keys ``k``."""
        if not len(k):
            return
        kmin, kmax = int(k.min()), int(k.max())
        if not len(self.counts):
            self.offset, self.counts = kmin, np.zeros(kmax - kmin + 1, np.int64)
        elif kmin < self.offset or kmax >= self.offset + len(self.counts):
            lo = min(kmin, self.offset)
            hi = max(kmax, self.offset + len(self.counts) - 1)
            grown = np.zeros(hi - lo + 1, np.int64)
            grown[self.offset - lo: self.offset - lo + len(self.counts)] = self.counts
            self.offset, self.counts = lo, grown
        self.counts[k - self.offset] += c

    def nonzero(self) -> tuple[np.ndarray, np.ndarray]:
        at = np.flatnonzero(self.counts)
        return (at + self.offset).astype(np.int32), self.counts[at]


class SketchBuilder:
    """Streams samples into sketches per (run, metric, window).

    ``add`` takes a samples frame, a ``pyarrow`` Table or RecordBatch holding ``run_id``,
    ``status``, the ``time`` column (optional) and ``rtt_us`` and/or ``half_rtt_us``; only
    the sketches are kept.  ``table()`` returns the ``sketches`` table, sorted by run,
    metric and window.  ``time="tx_time_ns"`` windows by send time where that is UTC
    (sockperf's full-log times are the tool's clock, so the default reads ``time_ns`` only).
    """

    COLUMNS_READ = ("run_id", "status", "time_ns", *COLUMN.values())

    def __init__(self, *, window: str | int | pd.Timedelta | None = DEFAULT_WINDOW,
                 alpha: float = DEFAULT_ALPHA, metrics: Sequence[str] = tuple(COLUMN),
                 time: str = "time_ns"):
        gamma(alpha)
        unknown = [m for m in metrics if m not in COLUMN]
        if unknown:
            raise ValueError(f"metrics must be among {sorted(COLUMN)}, got {unknown}")
        self.alpha, self.window, self.time = alpha, window_ns(window), time
        self.metrics = tuple(metrics)
        self._sketches: dict[tuple[str, str, int | None], _Bins] = {}

    def add(self, data: pd.DataFrame | pa.Table | pa.RecordBatch) -> None:
        tbl = _as_table(data)
        for col in ("run_id", "status"):
            if col not in tbl.column_names:
                raise ValueError(f"sketches need a samples column {col!r}; got "
                                 f"{tbl.column_names}")
        ok = pc.fill_null(pc.equal(tbl["status"], "ok"), False)
        for metric in self.metrics:
            col = COLUMN[metric]
            if col in tbl.column_names:
                keep = pc.and_(ok, pc.is_valid(tbl[col]))
                keep = pc.and_(keep, pc.invert(pc.fill_null(pc.is_nan(tbl[col]), True)))
                self._add_metric(tbl.filter(keep), metric, col)

    def _add_metric(self, tbl: pa.Table, metric: str, col: str) -> None:
        if not tbl.num_rows:
            return
        v = tbl[col].to_numpy()
        if (v < 0).any() or np.isinf(v).any():
            bad = v[(v < 0) | np.isinf(v)][0]
            raise ValueError(f"sketches: {col} must be a finite latency ≥ 0 µs, got {bad}")
        run = pc.dictionary_encode(tbl["run_id"].combine_chunks())
        names = run.dictionary.to_pylist()
        code = run.indices.to_numpy(zero_copy_only=False).astype(np.int64)
        win = self._windows(tbl)
        if win is not None:
            wvals, winv = np.unique(win, return_inverse=True)
            code = code * len(wvals) + winv
        if (code[1:] < code[:-1]).any():  # a batch usually holds one run in time order
            order = np.argsort(code, kind="stable")
            code, v = code[order], v[order]
        cuts = np.flatnonzero(code[1:] != code[:-1]) + 1
        for a, b in zip([0, *cuts], [*cuts, len(code)]):
            c = int(code[a])
            if win is None:
                key = (names[c], metric, None)
            else:
                w = wvals[c % len(wvals)]
                key = (names[c // len(wvals)], metric, None if w == _NO_TIME else int(w))
            self._update(key, v[a:b])

    def _windows(self, tbl: pa.Table) -> np.ndarray | None:
        if self.window is None and self.time not in tbl.column_names:
            return None
        if self.time not in tbl.column_names:
            return np.full(tbl.num_rows, _NO_TIME, np.int64)
        t = tbl[self.time].cast(pa.int64()).fill_null(_NO_TIME).to_numpy()
        if self.window is None:  # whole run, but untimed rows apart from timed ones
            return np.where(t == _NO_TIME, _NO_TIME, 0)
        return np.where(t == _NO_TIME, _NO_TIME, t - np.mod(t, self.window))

    def _update(self, key: tuple, v: np.ndarray) -> None:
        s = self._sketches.setdefault(key, _Bins())
        pos = v[v > _MIN_POSITIVE]
        if len(pos):
            k = keys(pos, self.alpha)
            lo = int(k.min())
            dense = np.bincount(k - lo)  # keys span a few hundred bins: cheaper than unique
            at = np.flatnonzero(dense)
            s.add(at + lo, dense[at])
        s.zero += len(v) - len(pos)
        s.n += len(v)
        s.lo, s.hi = min(s.lo, float(v.min())), max(s.hi, float(v.max()))
        s.total += float(v.sum())

    def table(self) -> pa.Table:
        rows = sorted(self._sketches.items(), key=lambda kv: (
            kv[0][0], kv[0][1], -1 if kv[0][2] is None else kv[0][2]))
        cols: dict[str, list] = {f.name: [] for f in SCHEMA}
        for (run_id, metric, start), s in rows:
            k, c = s.nonzero()
            for name, val in (("run_id", run_id), ("metric", metric),
                              ("window_start_ns", None if self.window is None else start),
                              ("window_ns", self.window), ("alpha", self.alpha),
                              ("count", s.n), ("zero_count", s.zero), ("min_us", s.lo),
                              ("max_us", s.hi), ("sum_us", s.total), ("bin_keys", k),
                              ("bin_counts", c)):
                cols[name].append(val)
        return pa.Table.from_pydict(cols, schema=SCHEMA)


# time_ns of rows without a time (int64 min is 1677-09-21: no sample is that old).
_NO_TIME = np.iinfo(np.int64).min
# ddsketch's min_possible: values at or below it count as zero (sys.float_info.min · γ).
_MIN_POSITIVE = 2.2250738585072014e-308 * 1.03


def _as_table(data: pd.DataFrame | pa.Table | pa.RecordBatch) -> pa.Table:
    if isinstance(data, pa.RecordBatch):
        return pa.Table.from_batches([data])
    if isinstance(data, pa.Table):
        return data
    if isinstance(data, pd.DataFrame):
        cols = [c for c in SketchBuilder.COLUMNS_READ + ("tx_time_ns",) if c in data.columns]
        return pa.Table.from_pandas(data[cols], preserve_index=False)
    raise TypeError(f"sketches build from a DataFrame or pyarrow Table/RecordBatch, "
                    f"got {type(data).__name__}")


def build(samples: pd.DataFrame | pa.Table | Iterable[pa.RecordBatch | pa.Table], *,
          window: str | int | pd.Timedelta | None = DEFAULT_WINDOW,
          alpha: float = DEFAULT_ALPHA, metrics: Sequence[str] = tuple(COLUMN),
          time: str = "time_ns") -> pa.Table:
    """The ``sketches`` table of a samples frame/table, or of a stream of batches (e.g.
    ``ParquetFile.iter_batches(columns=SketchBuilder.COLUMNS_READ)``)."""
    b = SketchBuilder(window=window, alpha=alpha, metrics=metrics, time=time)
    if isinstance(samples, (pd.DataFrame, pa.Table, pa.RecordBatch)):
        samples = [samples]
    for part in samples:
        b.add(part)
    return b.table()


# ---------------------------------------------------------------------------------------------
# Merge and query.


def _time_ns(t: str | int | pd.Timestamp | None) -> int | None:
    if t is None:
        return None
    if isinstance(t, (int, np.integer)):
        return int(t)
    ts = pd.Timestamp(t)
    return (ts.tz_localize("UTC") if ts.tzinfo is None else ts).value


def select(sketches: pa.Table | pd.DataFrame, *, start: str | int | pd.Timestamp | None = None,
           end: str | int | pd.Timestamp | None = None) -> pa.Table:
    """The window sketches inside ``[start, end)``: a window is kept when its start is at or
    after ``start`` and its end at or before ``end`` (whole windows only, so the merged
    sketch covers exactly the kept windows; untimed and whole-run sketches are dropped when a
    range is given)."""
    tbl = sketches if isinstance(sketches, pa.Table) else pa.Table.from_pandas(
        sketches, schema=SCHEMA, preserve_index=False)
    lo, hi = _time_ns(start), _time_ns(end)
    if lo is None and hi is None:
        return tbl
    ws = tbl["window_start_ns"]
    keep = pc.is_valid(ws)
    if lo is not None:
        keep = pc.and_(keep, pc.greater_equal(ws, lo))
    if hi is not None:
        keep = pc.and_(keep, pc.less_equal(pc.add(ws, tbl["window_ns"]), hi))
    return tbl.filter(pc.fill_null(keep, False))


def merge(sketches: pa.Table | pd.DataFrame, runs: pd.DataFrame | None = None, *,
          by: str | Sequence[str] = "run_id", start: str | int | pd.Timestamp | None = None,
          end: str | int | pd.Timestamp | None = None) -> pd.DataFrame:
    """One merged sketch per group of ``by`` (run columns; ``runs`` is needed for any but
    ``run_id``) and ``metric`` — bases are never mixed — over the windows in ``[start, end)``.

    Returns ``[*by, metric, alpha, count, zero_count, min_us, max_us, sum_us, n_runs,
    n_windows, window_start_ns, window_end_ns, bin_keys, bin_counts]`` (bins as numpy
    arrays).  Merging is adding bin counts: the result is the sketch of all the samples.
    """
    by = [by] if isinstance(by, str) else list(by)
    tbl = select(sketches, start=start, end=end)
    alphas = pc.unique(tbl["alpha"]).to_pylist()
    if len(alphas) > 1:
        raise ValueError(f"sketches of different alpha cannot merge: {sorted(alphas)}")
    # Int64, not float64: window starts in ns since the epoch are beyond 2^53.
    meta = tbl.drop_columns(["bin_keys", "bin_counts"]).to_pandas(
        types_mapper={pa.int64(): pd.Int64Dtype()}.get)
    meta["row"] = np.arange(len(meta))
    if by != ["run_id"]:
        if runs is None:
            raise ValueError(f"merge by {by} needs the runs table (run columns)")
        need = [c for c in by if c not in runs.columns]
        if need:
            raise ValueError(f"merge groups by run columns; {need} are not in runs")
        labels = runs[["run_id", *[c for c in by if c != "run_id"]]].drop_duplicates("run_id")
        meta = meta.merge(labels, on="run_id", how="left")
    out = []
    ends = meta["window_start_ns"] + meta["window_ns"]
    meta["window_end_ns"] = ends
    for group, part in meta.groupby([*by, "metric"], sort=True, dropna=False):
        k, c = _merge_bins(tbl, part["row"].to_numpy())
        starts = part["window_start_ns"].dropna()
        out.append({
            **dict(zip([*by, "metric"], group)), "alpha": alphas[0],
            "count": int(part["count"].sum()), "zero_count": int(part["zero_count"].sum()),
            "min_us": float(part["min_us"].min()), "max_us": float(part["max_us"].max()),
            "sum_us": float(part["sum_us"].sum()), "n_runs": part["run_id"].nunique(),
            "n_windows": len(part),
            "window_start_ns": int(starts.min()) if len(starts) else None,
            "window_end_ns": int(part["window_end_ns"].max()) if len(starts) else None,
            "bin_keys": k, "bin_counts": c,
        })
    cols = [*by, "metric", "alpha", "count", "zero_count", "min_us", "max_us", "sum_us",
            "n_runs", "n_windows", "window_start_ns", "window_end_ns", "bin_keys",
            "bin_counts"]
    return pd.DataFrame(out, columns=cols)


def _merge_bins(tbl: pa.Table, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    part = tbl.take(pa.array(rows, pa.int64()))
    k = pc.list_flatten(part["bin_keys"]).to_numpy(zero_copy_only=False).astype(np.int64)
    c = pc.list_flatten(part["bin_counts"]).to_numpy(zero_copy_only=False)
    if not len(k):
        return np.zeros(0, np.int32), np.zeros(0, np.int64)
    lo = int(k.min())
    dense = np.bincount(k - lo, weights=c).astype(np.int64)  # counts < 2^53: exact
    at = np.flatnonzero(dense)
    return (at + lo).astype(np.int32), dense[at]


def quantile_of(bin_keys: np.ndarray, bin_counts: np.ndarray, zero_count: int, alpha: float,
                qs: Sequence[float], lo: float, hi: float) -> np.ndarray:
    """Estimates of ``x_(⌊q(n−1)⌋)`` for each ``q``: DDSketch's rank rule
    (``DDSketch.get_quantile_value``), clamped to the exact ``[lo, hi]`` — the order
    statistic lies there, so the clamp never widens the error."""
    cum = np.cumsum(bin_counts)
    n = int(zero_count) + (int(cum[-1]) if len(cum) else 0)
    if n == 0:
        return np.full(len(qs), np.nan)
    rank = np.asarray(qs, dtype=np.float64) * (n - 1)
    out = np.zeros(len(qs))
    pos = rank >= zero_count
    at = np.searchsorted(cum, rank[pos] - zero_count, side="right")
    out[pos] = values_of(np.asarray(bin_keys)[at], alpha)
    return np.clip(out, lo, hi)


def quantiles(sketches: pa.Table | pd.DataFrame, runs: pd.DataFrame | None = None, *,
              by: str | Sequence[str] = "run_id",
              quantiles: Sequence[float] = DEFAULT_QUANTILES,
              start: str | int | pd.Timestamp | None = None,
              end: str | int | pd.Timestamp | None = None) -> pd.DataFrame:
    """Quantiles per group from merged sketches, long form: ``[*by, metric, unit, stat, q,
    estimate, relative_error, method, n, n_runs, n_windows, window_start, window_end,
    note]``.  ``relative_error`` is α: ``|estimate − x_(⌊q(n−1)⌋)| ≤ α · x`` (see the module
    text); ``count``, ``min``, ``max`` and ``mean`` rows are exact (relative_error 0)."""
    qs = [float(q) for q in quantiles]
    bad = [q for q in qs if not 0 <= q <= 1]
    if bad:
        raise ValueError(f"quantiles must be in [0, 1], got {bad}")
    by = [by] if isinstance(by, str) else list(by)
    merged = merge(sketches, runs, by=by, start=start, end=end)
    rows = []
    for rec in merged.to_dict("records"):
        head = {c: rec[c] for c in [*by, "metric"]}
        alpha, n = rec["alpha"], rec["count"]
        est = quantile_of(rec["bin_keys"], rec["bin_counts"], rec["zero_count"], alpha, qs,
                          rec["min_us"], rec["max_us"])
        common = {"method": f"ddsketch (alpha={alpha:g}; rank ⌊q(n−1)⌋)", "n": n,
                  "n_runs": rec["n_runs"], "n_windows": rec["n_windows"],
                  "window_start": _ts(rec["window_start_ns"]),
                  "window_end": _ts(rec["window_end_ns"]), "note": NOTE}
        exact = {"count": float(n), "mean": rec["sum_us"] / n if n else np.nan,
                 "min": rec["min_us"], "max": rec["max_us"]}
        for stat, value in exact.items():
            rows.append({**head, "unit": "count" if stat == "count" else "us", "stat": stat,
                         "q": np.nan, "estimate": value, "relative_error": 0.0, **common,
                         "note": "exact (kept beside the bins)"})
        for q, e in zip(qs, est):
            rows.append({**head, "unit": "us", "stat": pct_label(q), "q": q, "estimate": e,
                         "relative_error": alpha, **common})
    cols = [*by, "metric", "unit", "stat", "q", "estimate", "relative_error", "method", "n",
            "n_runs", "n_windows", "window_start", "window_end", "note"]
    return pd.DataFrame(rows, columns=cols)


def _ts(ns) -> pd.Timestamp:
    return pd.NaT if ns is None or pd.isna(ns) else pd.Timestamp(int(ns), tz="UTC")


def to_ddsketch(bin_keys: Sequence[int], bin_counts: Sequence[int], alpha: float,
                zero_count: int = 0):
    """A ``ddsketch.DDSketch`` holding these bins (for code that speaks DDSketch; its
    ``to_proto`` gives the protobuf form other DDSketch libraries read).  Min, max and sum
    are not carried over: the package keeps them only from ``add``."""
    from ddsketch import DDSketch

    s = DDSketch(alpha)
    for k, c in zip(bin_keys, bin_counts):
        s._store.add(int(k), float(c))  # no public API adds counts at a key
    s._zero_count = float(zero_count)
    s._count = float(sum(int(c) for c in bin_counts) + zero_count)
    return s
