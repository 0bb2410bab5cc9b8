"""DuckDB over the store: lazy relations, SQL queries, and ``summarize_store(engine="duckdb")``.

The summary per run is SQL where SQL can give the very rows of ``stats.summarize``:

1. the rows and censored rows of each run, from the footers of the files that are one
   input's (``dataset.footer_runs``), else by a ``GROUP BY run_id`` pass over the other
   files: uncensored runs of ``SERIES_ROWS`` (= ``MIN_N``, 50) rows or more go straight to
   the numpy path below; for the others a second pass gives the counts of observations,
   censored and excluded rows, mean, standard deviation, min, max;
2. with ``dependence="iid"`` their observations are independent by assumption; otherwise a
   short run's interval rests on a bound of its lag-1 autocorrelation (``dependence.bounded``),
   which needs the series in order, so it is read and given to ``group_rows``;
3. the order statistics: the ranks — of the interval from Binomial(n, q), of the estimate
   from numpy's linear interpolation — are computed in Python from n exactly as
   ``intervals.exact_indices``/``sorted_quantile`` do, and the values at those ranks are read
   with ``row_number() OVER (PARTITION BY run_id ORDER BY value)``.

The longer uncensored runs — the ones to test for autocorrelation (the test needs ranks in
measurement order; SQL's window pass for it cost ten times numpy's, see ``SERIES_ROWS``) and,
when found autocorrelated, to correct by batch means — are summarised by
``intervals.series_rows`` on their values (``_series``), as are short runs of fewer than two
observations.  A run wholly in a large input's file is read from its row groups by the
thread that summarises it (``_series.read_series``); the others in one unsorted pass (DuckDB
hands back the value, the observation flag and ``seq``; numpy puts each run in ``seq`` order
and a thread per core summarises it while the scan goes on).  Censored runs (Windows ``time<1ms``) and runs whose ``seq`` is NULL or
repeats (file order must break the ties) are read whole, sorted as ``ordered()`` sorts, and
given to ``intervals.group_rows``.  Groups (``by`` of run columns): the run-as-unit rule
(``intervals.run_rows``) needs only each run's estimates, so it is SQL too (campaign/engines/_rows.py);
a group of one run has that run's rows, from SQL or ``_series`` as above; groups that pool
packets across runs, or hold censored runs, are read and given to ``group_rows``.  The rows
equal the pandas path's (tests/campaign/engines/test_duck.py).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa

from ...stats import dependence as dep
from ...stats import intervals as iv
from ...stats.common import check_basis
from ...units import COLUMN
from .. import dataset, store
from ..sql import HIVE, connect, quote
from . import Request, _rows
from . import _series as _series_rows

# Rows of a fallback read: runs are fetched in chunks of about this many rows (as the pyarrow
# path's batches: a frame of 2^20 rows and the sorted copy group_rows makes stay ~200 MB).
CHUNK_ROWS = 1 << 20
# Runs of at least this many rows, uncensored, are summarised in numpy (``_series``), not SQL:
# the autocorrelation test needs their ranks in measurement order, and SQL's window pass for it
# (ranks, ties, ten lags) cost ~1.2 µs a row. At 8.3 * 10^5 samples (53 runs of 50 to 65,536
# rows tested in SQL) it was 0.74 s of a 1.1-1.3 s summary; with those runs read in the scan
# and summarised in numpy the whole summary took 0.33-0.41 s, the same rows. Shorter runs are
# not tested (``dep.MIN_N``): SQL gives their counts, moments and order statistics.
SERIES_ROWS = dep.MIN_N
# Runs of a scan named in its SQL text (more: a semi-join with a registered table)
LITERAL_MAX = 2000
# Threads summarising runs read for the numpy path (DuckDB's own threads default to the same).
THREADS = os.cpu_count() or 1


# ---------------------------------------------------------------------------------------------
# summarize_store(engine="duckdb")


def summarize(req: Request) -> list[dict]:
    """The rows of ``summarize`` for ``req`` (see the module docstring)."""
    folder, columns, keep, by, metric, kw = (
        req.folder,
        req.columns,
        req.keep,
        req.by,
        req.metric,
        req.kw,
    )
    con = connect(folder, order=True)
    column = iv.metric_column(metric)[0]
    q = _Query(con, columns, column, keep)
    q.check_basis(metric)
    if by != ["run_id"]:
        return _groups(q, q.per_run(), req.runs, by, metric, kw)
    # An uncensored run of SERIES_ROWS rows or more goes to _series whatever its counts and
    # moments (which it computes itself): the GROUP BY pass of moments is only for the others.
    counts = q.counts(folder)
    long = [r for r, c in counts.items() if _numpy_path(c)]
    per_run = q.per_run(set(counts) - set(long))
    qs, level = np.asarray(kw["quantiles"], dtype=float), kw["level"]
    plain, fallback = q.split(per_run, kw["dependence"], level)
    fallback = sorted([*fallback, *long])
    per_run.update((r, counts[r]) for r in long)
    value_unit = iv.metric_column(metric)[1]
    slow: list[str] = []  # runs whose order needs file order (NULL or repeated seq)
    rows = {
        rid: iv.stat_rows(stats, {"run_id": rid, "metric": metric, "unit": value_unit}, qs)
        for rid, stats in _plain_rows(q, per_run, plain, qs, level).items()
    }
    keys = {"metric": metric, "unit": value_unit}
    for rid, stats in _series(
        q, per_run, [r for r in fallback if not per_run[r]["n_cens"]], kw, slow
    ):
        rows[rid] = iv.stat_rows(stats, {"run_id": rid, **keys}, qs)
    for ids in _chunks([*slow, *(r for r in fallback if per_run[r]["n_cens"])], per_run):
        part = iv.group_rows(q.read(ids), None, ["run_id"], metric, **kw)
        for r in part:
            rows.setdefault(r["run_id"], []).append(r)
    return [r for run_id in sorted(rows) for r in rows[run_id]]


class _Query:
    """The SQL of one summary: observations of the metric column, per run."""

    def __init__(self, con, columns: list[str], column: str, keep: list[str] | None) -> None:
        self.con, self.columns, self.column = con, columns, column
        where = ""
        if keep is not None:
            con.register("keep_runs", pa.table({"run_id": pa.array(keep, pa.string())}))
            where = "WHERE run_id IN (SELECT run_id FROM keep_runs)"
        self.keep = None if keep is None else set(keep)
        self.placed: dict[str, list] = {}  # run → its row groups, by counts()
        has = set(columns)
        status = "status" if "status" in has else "'ok'"
        bound = "censor_high_us" if "censor_high_us" in has else "NULL::DOUBLE"
        self._marks = f"run_id, {status} AS st, CAST({bound} AS DOUBLE) AS cb"  # for counts
        keys = [k for k in ("seq", "tx_time_ns", "time_ns") if k in has]
        # ordered(): seq, then send time, pandas' NaN-last stable sort; file order breaks ties
        self.order = ", ".join([*(f"{k} NULLS LAST" for k in keys), "filename", "file_row_number"])
        con.execute(f"CREATE TEMP VIEW kept AS SELECT * FROM samples {where}")
        for view, source in (("obs", "kept"), ("obs_all", "samples")):  # obs_all: unfiltered
            con.execute(f"""CREATE TEMP VIEW {view} AS SELECT run_id, {status} AS st,
                CAST({column} AS DOUBLE) AS v, CAST({bound} AS DOUBLE) AS cb,
                {", ".join(keys) + "," if keys else ""} filename, file_row_number
                FROM {source}""")
        self.ok = "(st = 'ok' AND isfinite(v))"

    def check_basis(self, metric: str) -> None:
        """``check_basis`` of summarize, on one row per offending run (the same error)."""

        if metric not in COLUMN:
            return
        other = COLUMN["half_rtt" if metric == "rtt" else "rtt"]
        if other not in self.columns:
            return
        mine = COLUMN[metric]
        cond = f"{other} IS NOT NULL" + (f" AND {mine} IS NULL" if mine in self.columns else "")
        bad = self.con.sql(
            f"SELECT DISTINCT run_id FROM kept WHERE {cond} ORDER BY run_id LIMIT 5"
        ).fetchall()
        if bad:
            ids = [b[0] for b in bad]
            check_basis(pd.DataFrame({"run_id": ids, other: [1.0] * len(ids)}), metric)

    CENSORED = "(st = 'censored' AND cb IS NOT NULL)"

    def counts(self, folder: Path) -> dict[str, dict]:
        """run → rows and censored rows (of the kept runs), read from the footers where they
        tell (``dataset.footer_runs``: files whose every row group is one run with no
        censored row — a large input's file), else by a pass that reads no values over the
        other files.  At 10^8 samples: 0.02 s against 0.9 s (1.8 CPU-s) for the pass over
        every file, which was an eighth of the summary."""
        placed, others = dataset.footer_runs(dataset.table_files(folder, "samples"))
        out = {
            r: {"run_id": r, "rows": sum(n for *_, n in gs), "n_cens": 0}
            for r, gs in placed.items()
            if self.keep is None or r in self.keep
        }
        if others:
            where = "" if self.keep is None else "WHERE run_id IN (SELECT run_id FROM keep_runs)"
            files = "[" + ", ".join(f"'{quote(f)}'" for f in others) + "]"
            got = self.con.sql(f"""SELECT run_id, count(*) AS rows,
                  count(*) FILTER ({self.CENSORED}) AS n_cens
                FROM (SELECT {self._marks} FROM read_parquet({files}, {HIVE}) {where})
                GROUP BY run_id""").fetchall()
            for rid, rows, n_cens in got:  # a run lives in one file; summed all the same
                c = out.setdefault(rid, {"run_id": rid, "rows": 0, "n_cens": 0})
                c["rows"] += rows
                c["n_cens"] += n_cens
                placed.pop(rid, None)
        self.placed = placed  # runs wholly in such files: _series reads their row groups
        return {r: out[r] for r in sorted(out)}

    def per_run(self, run_ids=None) -> dict[str, dict]:
        """run → rows, observations, censored rows, mean, std, min, max (of ``run_ids``;
        None: every run)."""
        ok, where = self.ok, ""
        if run_ids is not None:
            if not run_ids:
                return {}
            self.con.register(
                "per_runs", pa.table({"run_id": pa.array(sorted(run_ids), pa.string())})
            )
            where = "WHERE run_id IN (SELECT run_id FROM per_runs)"
        got = self.con.sql(f"""SELECT run_id, count(*) AS rows,
              count(*) FILTER ({ok}) AS n, count(*) FILTER ({self.CENSORED}) AS n_cens,
              avg(v) FILTER ({ok}) AS mean, stddev_samp(v) FILTER ({ok}) AS std,
              min(v) FILTER ({ok}) AS min, max(v) FILTER ({ok}) AS max
            FROM obs {where} GROUP BY run_id ORDER BY run_id""").to_arrow_table()
        return {r["run_id"]: r for r in got.to_pylist()}

    def split(self, per_run: dict[str, dict], dependence: str, level: float):
        """(runs SQL summarises, with their note; runs ``group_rows`` summarises) of runs that
        are not on the numpy path (``_numpy_path``): shorter than ``SERIES_ROWS`` (too short
        to test for autocorrelation) or censored."""
        if dependence not in iv.DEPENDENCE:
            raise ValueError(f"dependence must be one of {iv.DEPENDENCE}, got {dependence!r}")
        plain: dict[str, str] = {}
        fallback = []
        for rid, r in per_run.items():
            if r["n"] < 2 or r["n_cens"] or (dependence == "batch" and r["n"] >= dep.MIN_N):
                fallback.append(rid)
            elif dependence == "iid":
                plain[rid] = ""
            else:  # auto: a short run's bound on its autocorrelation needs the series
                fallback.append(rid)
        return plain, sorted(fallback)

    def values_at(self, wanted: dict[str, np.ndarray]) -> dict[str, dict[int, float]]:
        """run → {0-based rank: value} of the sorted observations at the ranks asked for."""
        ids = [r for r, ks in wanted.items() for _ in ks]
        ranks = [int(k) for ks in wanted.values() for k in ks]
        if not ids:
            return {}
        self.con.register(
            "wanted",
            pa.table({"run_id": pa.array(ids, pa.string()), "rk": pa.array(ranks, pa.int64())}),
        )
        got = self.con.sql(f"""
            SELECT o.run_id, o.rk, o.v FROM (
              SELECT run_id, v, row_number() OVER (PARTITION BY run_id ORDER BY v) - 1 AS rk
              FROM obs WHERE {self.ok} AND run_id IN (SELECT DISTINCT run_id FROM wanted)) o
            SEMI JOIN wanted w ON o.run_id = w.run_id AND o.rk = w.rk""").fetchall()
        out: dict[str, dict[int, float]] = {}
        for rid, rk, v in got:
            out.setdefault(rid, {})[rk] = v
        return out

    def pooled(self, groups: list[list[str]]) -> list[dict]:
        """Per group of runs: n, rows, std, min, max of the pooled observations."""
        if not groups:
            return []
        ids = [r for g in groups for r in g]
        gs = [i for i, g in enumerate(groups) for _ in g]
        self.con.register(
            "run_groups",
            pa.table({"run_id": pa.array(ids, pa.string()), "g": pa.array(gs, pa.int64())}),
        )
        ok = self.ok
        got = self.con.sql(f"""SELECT g, count(*) AS rows, count(*) FILTER ({ok}) AS n,
              stddev_samp(v) FILTER ({ok}) AS std, min(v) FILTER ({ok}) AS min,
              max(v) FILTER ({ok}) AS max
            FROM obs JOIN run_groups USING (run_id) GROUP BY g ORDER BY g""").to_arrow_table()
        return got.to_pylist()

    def read(self, run_ids: list[str]):
        """The samples columns of ``run_ids`` as a frame, in file order (for group_rows)."""
        self.con.register("read_runs", pa.table({"run_id": pa.array(run_ids, pa.string())}))
        cols = ", ".join(self.columns)
        tbl = self.con.sql(
            f"SELECT {cols} FROM kept WHERE run_id IN "
            "(SELECT run_id FROM read_runs) ORDER BY filename, file_row_number"
        ).to_arrow_table()
        return store.from_arrow(tbl.cast(_schema(self.columns)), "samples", partial=True)


def _series(q: _Query, per_run: dict, run_ids: list[str], kw: dict, slow: list[str]):
    """(run_id, ``series_rows`` stats) of the uncensored runs ``run_ids``, from their values
    alone (no frame, no pandas sort); the runs whose order this cannot establish go to
    ``slow`` (for ``read`` and ``group_rows``).

    A run wholly in files of one run per row group (``counts``, ``dataset.footer_runs``: a
    large input's) is read from its row groups by the thread that summarises it
    (``_series.read_series``).  The others take one pass over their rows, in whatever order
    DuckDB's parallel scan hands them back (``hash(run_id)``, the value, the observation flag
    and ``seq``).  A run is complete when its ``per_run`` row count has arrived; its
    stretches are then put in measurement order (``_series.in_seq_order``) and summarised on
    a thread per core (numpy's sorts and FFTs let go of the GIL) while the scan goes on.  At
    most ``2·THREADS`` complete runs wait for a thread (``_queue``), so memory stays that of a
    few runs and the scan's buffers."""
    if not run_ids:
        return
    if "seq" not in q.columns:
        slow.extend(run_ids)
        return
    queued: list = []
    with ThreadPoolExecutor(THREADS) as pool:
        for rid in run_ids:
            if rid in q.placed:
                yield from _queue(
                    pool, queued, slow, rid, _series_rows.read_series, q.placed[rid], q.column, kw
                )
        yield from _scan(
            q, per_run, [r for r in run_ids if r not in q.placed], kw, slow, pool, queued
        )
        for rid, f in queued:
            yield from _done(rid, f, slow)


def _scan(
    q: _Query, per_run: dict, run_ids: list[str], kw: dict, slow: list[str], pool, queued: list
):
    """The runs of ``_series`` read by one DuckDB pass, summarised on ``pool`` (the runs
    waiting: ``queued``)."""
    if not run_ids:
        return
    q.con.register("series_runs", pa.table({"run_id": pa.array(run_ids, pa.string())}))
    names = dict(q.con.sql("SELECT hash(run_id), run_id FROM series_runs").fetchall())
    if len(names) < len(run_ids):  # two runs of one hash: no way to tell their rows apart
        slow.extend(run_ids)
        return
    # The run ids are a subset of the kept ones: the unfiltered view takes one filter, not
    # obs's semi-join and a second one (CPU-s for 7.9 * 10^7 rows, three rounds: two
    # semi-joins 4.1-5.3, one 3.5-4.3, a literal list 3.3-4.1).
    within = (
        "(" + ", ".join(f"'{quote(r)}'" for r in run_ids) + ")"
        if len(run_ids) <= LITERAL_MAX
        else "(SELECT run_id FROM series_runs)"
    )
    reader = q.con.sql(
        f"SELECT hash(run_id) AS h, v, coalesce({q.ok}, false) AS ok, seq FROM obs_all "
        f"WHERE run_id IN {within}"
    ).to_arrow_reader(CHUNK_ROWS)
    need = {rid: per_run[rid]["rows"] for rid in run_ids}
    pieces: dict[str, list] = {}
    for batch in reader:
        h = batch.column("h").to_numpy()
        cols = (
            batch.column("ok").to_numpy(zero_copy_only=False),
            batch.column("v").to_numpy(zero_copy_only=False),
            batch.column("seq").fill_null(_series_rows.NULL_SEQ).to_numpy(zero_copy_only=False),
        )
        cuts = np.concatenate(([0], np.flatnonzero(h[1:] != h[:-1]) + 1, [len(h)]))
        for lo, hi in zip(cuts[:-1], cuts[1:]):
            rid = names[int(h[lo])]
            pieces.setdefault(rid, []).append(tuple(c[lo:hi] for c in cols))
            need[rid] -= hi - lo
            if need[rid]:
                continue
            yield from _queue(
                pool, queued, slow, rid, _series_rows.ordered_series, pieces.pop(rid), kw
            )
    slow.extend(sorted(pieces))  # rows missing (the store changed under the scan): re-read


def _queue(pool, queued: list, slow: list[str], rid: str, fn, *args):
    """Summarise run ``rid`` on ``pool`` (``fn(*args)``); while more than ``2·THREADS`` runs
    wait, (rid, stats) of the oldest (``_done``)."""
    queued.append((rid, pool.submit(fn, *args)))
    while len(queued) > 2 * THREADS:
        yield from _done(*queued.pop(0), slow)


def _done(rid: str, future, slow: list[str]):
    """(rid, stats) of a run summarised on a thread; nothing when its order needs file
    order (it joins ``slow``)."""
    stats = future.result()
    if stats is None:
        slow.append(rid)
    else:
        yield rid, stats


def _numpy_path(counts: dict) -> bool:
    """Whether a run is summarised by ``_series`` (``SERIES_ROWS``), from its row counts."""
    return counts["rows"] >= SERIES_ROWS and not counts["n_cens"]


def _schema(columns: list[str]) -> pa.Schema:
    return store.arrow_schema("samples", columns).empty_table().select(columns).schema


def _chunks(run_ids: list[str], per_run: dict[str, dict]):
    chunk, rows = [], 0
    for rid in run_ids:
        chunk.append(rid)
        rows += per_run[rid]["rows"]
        if rows >= CHUNK_ROWS:
            yield chunk
            chunk, rows = [], 0
    if chunk:
        yield chunk


# ---------------------------------------------------------------------------------------------
# Rows from the order statistics


def _wanted(per_run: dict, plain, estimates_only, qs, level):
    """The ranks to read: every rank of the plain runs, the estimate ranks of the others."""
    ranks, wanted = {}, {}
    for rid in [*plain, *estimates_only]:
        n = per_run[rid]["n"]
        if n == 0:
            continue
        ranks[rid] = rk = _rows.ranks(n, qs, level)
        _, lo_e, hi_e, lo, hi = rk
        inside = [k for k in np.concatenate([lo, hi]) if 0 <= k < n] if rid in plain else []
        wanted[rid] = np.unique(np.concatenate([lo_e, hi_e, inside]).astype(int))
    return ranks, wanted


def _plain_rows(q: _Query, per_run: dict, plain: dict[str, str], qs, level: float) -> dict:
    """run → the stats of ``series_rows`` (independent packets) from SQL."""
    ranks, wanted = _wanted(per_run, plain, [], qs, level)
    values = q.values_at(wanted)
    return {
        rid: _rows.series(per_run[rid], qs, level, note, ranks[rid], values[rid])
        for rid, note in plain.items()
    }


# ---------------------------------------------------------------------------------------------
# Groups of runs


def _groups(q: _Query, per_run: dict, runs, by: list[str], metric: str, kw: dict) -> list[dict]:
    """summarize's groups in its order.  In SQL: a group whose runs are the unit (none
    censored), and a group of one run shorter than ``SERIES_ROWS``; a group of one longer
    uncensored run is that run's ``_series`` rows; every other group (packets pooled across
    runs, censoring) is read and given to ``group_rows``."""
    qs, level, unit = np.asarray(kw["quantiles"], dtype=float), kw["level"], kw["unit"]
    runs = runs[runs["run_id"].isin(per_run)]
    groups = [
        (keys if isinstance(keys, tuple) else (keys,), sorted(g["run_id"].astype(str)))
        for keys, g in runs.groupby(by, sort=True, dropna=False)
    ]
    as_runs = [
        ids
        for _, ids in groups
        if (unit == "run" or (unit == "auto" and len(ids) > 1))
        and not any(per_run[r]["n_cens"] for r in ids)
    ]
    singles = [ids[0] for _, ids in groups if len(ids) == 1 and ids not in as_runs]
    slow: list[str] = []  # runs _series cannot order (NULL or repeated seq): group_rows below
    series = dict(_series(q, per_run, [r for r in singles if _numpy_path(per_run[r])], kw, slow))
    plain, _ = q.split(
        {r: per_run[r] for r in singles if not _numpy_path(per_run[r])}, kw["dependence"], level
    )
    estimates_only = [r for ids in as_runs for r in ids]
    ranks, wanted = _wanted(per_run, plain, estimates_only, qs, level)
    values = q.values_at(wanted)
    pooled = q.pooled(as_runs)
    value_unit = iv.metric_column(metric)[1]
    out: list[dict] = []
    for keys, ids in groups:
        keys = {**dict(zip(by, keys)), "metric": metric, "unit": value_unit}
        if ids in as_runs:
            means = np.array(
                [per_run[r]["mean"] if per_run[r]["n"] else np.nan for r in ids], dtype=float
            )
            ests = np.array(
                [
                    [
                        _est(per_run[r], ranks.get(r), values.get(r), j, q_)
                        for j, q_ in enumerate(qs)
                    ]
                    for r in ids
                ],
                dtype=float,
            )
            stats = _rows.run_unit(pooled[as_runs.index(ids)], means, ests, qs, level)
            out.extend(iv.stat_rows(stats, keys, qs))
        elif len(ids) == 1 and ids[0] in series:
            out.extend(iv.stat_rows(series[ids[0]], keys, qs))
        elif len(ids) == 1 and ids[0] in plain:
            rid = ids[0]
            stats = _rows.series(per_run[rid], qs, level, plain[rid], ranks[rid], values[rid])
            out.extend(iv.stat_rows(stats, keys, qs))
        else:
            frame = q.read(ids)
            out.extend(iv.group_rows(frame, runs, by, metric, **kw))
    return out


def _est(r: dict, ranks, vals, j: int, q: float) -> float:
    """``_run_estimates`` of one run: NaN when fewer than one observation lies beyond q."""
    n = r["n"]
    if n == 0 or n * min(q, 1 - q) < 1 - 1e-9:
        return np.nan
    return _rows.estimate(ranks, vals, j)


__all__: Sequence[str] = ("summarize",)
