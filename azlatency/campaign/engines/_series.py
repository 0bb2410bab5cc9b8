"""One run's summary from its values alone: the per-run path every engine shares.

``intervals.group_rows`` takes a pandas frame, sorts it into measurement order
(``common.ordered``: ``seq``, then send time, then file order) and splits out the
observations.  For most runs that is a detour: when ``seq`` is never NULL and never repeats
it alone fixes the order, and when nothing is censored the observations are the rows whose
status is ``ok`` with a finite value.  Such a run needs three arrays — the value, the
observation flag and ``seq`` — and ``intervals.series_rows`` on the ordered values gives its
rows exactly (tests/campaign/engines compare every engine with ``summarize``).  The other runs
(censored values, a NULL or repeated ``seq``) go to ``group_rows`` as before.

The DuckDB engine streams the three columns itself (campaign/engines/duck.py ``_series``); the pyarrow
and Dask engines hand over a run's Arrow rows (``table_rows``).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from ...stats import intervals as iv
from ...stats.common import Observations
from ...units import COLUMN
from ._files import frame as _frame

NULL_SEQ = np.iinfo(np.int64).min  # a NULL seq, filled: the run is left to group_rows
_NO_RUN_IDS = np.zeros(0, dtype=object)  # series_rows reads no run ids


def in_seq_order(parts: list[tuple[np.ndarray, np.ndarray, np.ndarray]]):
    """(ok, values) of one run from its stretches of (ok, values, seq) in ``seq`` order, or
    None when ``seq`` is NULL or repeats (then file order breaks the ties: ``ordered()`` must).

    The stretches are ordered by their first ``seq`` (a stretch is a row group's rows, each
    already in order); a run still out of order after that is sorted."""
    parts = sorted(parts, key=lambda p: p[2][0])
    ok, v, seq = (np.concatenate(c) if len(parts) > 1 else c[0] for c in zip(*parts))
    if len(seq) > 1 and not np.all(seq[1:] > seq[:-1]):
        order = np.argsort(seq, kind="stable")
        seq, ok, v = seq[order], ok[order], v[order]
        if not np.all(seq[1:] > seq[:-1]):
            return None
    if len(seq) and seq[0] == NULL_SEQ:
        return None
    return ok, v


def series(ok: np.ndarray, v: np.ndarray, kw: dict) -> dict:
    """``series_rows`` of the run whose rows (in measurement order) hold values ``v``, of
    which those flagged ``ok`` are observations; ``kw``: summarize's quantiles, level and
    dependence."""
    x = v[ok] if not ok.all() else v
    obs = Observations(x, np.nan, 0, len(v) - len(x), _NO_RUN_IDS)
    return iv.series_rows(obs, kw["quantiles"], kw["level"], kw["dependence"])


def ordered_series(parts: list[tuple[np.ndarray, np.ndarray, np.ndarray]], kw: dict) -> dict | None:
    """``series`` of the run in stretches ``parts`` (``in_seq_order``), None when its order
    needs file order: both on the worker thread, so the scan's thread only cuts stretches."""
    got = in_seq_order(parts)
    return None if got is None else series(*got, kw)


def arrays(tbl: pa.Table, column: str):
    """(ok, values, seq) of a samples table, or None when it needs ``group_rows``: a row is
    censored, there is no ``seq``, or the other latency basis has values (``check_basis``
    must name the run).  ``ok`` is ``observations()``'s test."""
    names = tbl.column_names
    if "seq" not in names or column not in names or not tbl.num_rows:
        return None
    if column in COLUMN.values():  # the other basis present: group_rows's BasisError
        other = [c for c in COLUMN.values() if c != column and c in names]
        if other and tbl.column(other[0]).null_count < tbl.num_rows:
            return None
    status = tbl.column("status") if "status" in names else None
    if (
        status is not None
        and "censor_high_us" in names
        and pc.any(
            pc.and_(pc.equal(status, "censored"), pc.is_valid(tbl.column("censor_high_us")))
        ).as_py()
    ):
        return None
    v = tbl.column(column).cast(pa.float64()).to_numpy().astype(float, copy=False)
    ok = np.isfinite(v)
    if status is not None:
        ok &= _is_ok(status)
    seq = tbl.column("seq")
    seq = (seq.fill_null(NULL_SEQ) if seq.null_count else seq).to_numpy()
    return ok, v, seq


def _is_ok(status: pa.ChunkedArray) -> np.ndarray:
    """status == "ok" (NULL: False) as numpy; a dictionary column by its indices, which
    costs a lookup per row, not a string comparison — and no lookup at all for a chunk
    whose every word is "ok" and that has no NULL (10 ms for 2.7 * 10^6 rows)."""
    if not pa.types.is_dictionary(status.type):
        return pc.fill_null(pc.equal(status, "ok"), False).to_numpy(zero_copy_only=False)
    out = []
    for chunk in status.chunks:
        words = chunk.dictionary.to_pylist()
        good = np.array([w == "ok" for w in words] + [False])  # the last: NULL
        if good[:-1].all() and not chunk.null_count:
            out.append(np.ones(len(chunk), dtype=bool))
            continue
        out.append(good[chunk.indices.fill_null(len(words)).to_numpy(zero_copy_only=False)])
    return np.concatenate(out) if out else np.zeros(0, dtype=bool)


def _all_ok(pf: pq.ParquetFile, groups: list[int]) -> bool:
    """Whether every row of ``groups`` has status ``ok``, by the footer's statistics (min =
    max = "ok", no NULL): then ``status`` is not read, and a row is an observation when its
    value is finite (a constant column still costs 3.6 ns a row to decode, 5% of a run)."""
    if "status" not in pf.schema_arrow.names:
        return False
    i = pf.schema_arrow.get_field_index("status")
    for g in groups:
        st = pf.metadata.row_group(g).column(i).statistics
        if (
            st is None
            or not st.has_min_max
            or not st.has_null_count
            or st.null_count
            or st.min != "ok"
            or st.max != "ok"
        ):
            return False
    return True


def read_series(groups: list[tuple[Path, int, int]], column: str, kw: dict) -> dict | None:
    """``ordered_series`` of the run held by the row groups ``groups`` — (file, row group,
    rows), ``dataset.footer_runs``: row groups of this run alone, with no censored row —
    read straight from the files (``column``, ``status`` and ``seq``), in file order: a
    large input's rows were written in measurement order, so no sort is needed where
    ``seq`` rises.  None when the run needs ``group_rows`` (no ``seq``, or it repeats).

    Against DuckDB's scan of the same runs (``hash(run_id)``, then stretches the parallel
    scan interleaves put back in order): at 10^8 samples the summary's numpy path took
    9.4 CPU-s against 12.5, the whole summary 4.98 s against 6.58 s."""
    by_file: dict[str, list[int]] = {}
    for f, g, _ in groups:
        by_file.setdefault(f, []).append(g)
    parts = []
    for f, gs in by_file.items():
        pf = pq.ParquetFile(f, read_dictionary=["status"])
        names = set(pf.schema_arrow.names)
        if not {column, "seq"} <= names:
            return None
        skip = {"status"} if _all_ok(pf, gs) else set()
        cols = [c for c in (column, "status", "seq") if c in names - skip]
        got = arrays(pf.read_row_groups(gs, columns=cols, use_threads=False), column)
        if got is None:
            return None
        parts.append(got)
    return ordered_series(parts, kw) if parts else None


def table_rows(tbl: pa.Table, metric: str, kw: dict) -> list[dict]:
    """summarize's rows (``by="run_id"``) of the runs in ``tbl`` (samples rows in file
    order), in run order: each run by ``series`` when it can be, else by ``group_rows``."""

    column, value_unit = iv.metric_column(metric)
    qs = np.asarray(kw["quantiles"], dtype=float)
    # Runs in order, each run's rows in file order (the sort is stable), cut where the run
    # changes: one pass, not a filter of the whole table per run.
    tbl = tbl.take(pc.sort_indices(tbl, [("run_id", "ascending")]))
    rid = tbl.column("run_id").combine_chunks()
    n = len(rid)
    cuts = (
        [
            0,
            *(
                np.flatnonzero(pc.not_equal(rid[1:], rid[:-1]).to_numpy(zero_copy_only=False)) + 1
            ).tolist(),
            n,
        ]
        if n
        else [0]
    )
    out: list[dict] = []
    for lo, hi in zip(cuts[:-1], cuts[1:]):
        part, run_id = tbl.slice(lo, hi - lo), rid[lo].as_py()
        got = arrays(part, column)
        got = in_seq_order([got]) if got is not None else None
        if got is None:
            out.extend(iv.group_rows(_frame(part), None, ["run_id"], metric, **kw))
            continue
        keys = {"run_id": run_id, "metric": metric, "unit": value_unit}
        out.extend(iv.stat_rows(series(*got, kw), keys, qs))
    return out
