"""Dask for a cluster: the import's parsing and ``summarize_store``'s per-run work as tasks.

Both send the same functions the local engines run — ``campaign.worker.parse_batch`` for the import;
for the summary ``_series.read_series`` for a run in a large input's file (its row groups,
from the footers, as the DuckDB engine reads it), else ``_series.table_rows`` (runs) or
``intervals.group_rows`` (groups) on rows read by ``_files.read_runs`` — so the results
are the same bytes and the same rows (tests/campaign/engines/test_dask.py).  Workers read and
write paths, not data: the raw folder and the processed folder must be visible to every
worker under the same path (one machine, NFS, or a mounted object store).  docs/store.md
says how to start a cluster.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

from . import Request

# Rows per summary task: enough work to hide the scheduling cost (~1 ms a task), small
# enough that a worker holds little and the cluster stays busy.
TASK_ROWS = 1 << 20


@contextlib.contextmanager
def client(scheduler: str | None):
    """A client of the cluster at ``scheduler`` (``tcp://host:8786``, closed afterwards), or
    the client this process already has (e.g. of a ``LocalCluster``)."""
    from distributed import Client, default_client

    if scheduler:
        with Client(scheduler) as c:
            yield c
        return
    try:
        c = default_client()
    except ValueError:
        raise ValueError(
            "engine='dask' needs scheduler='tcp://host:8786' (or a "
            "distributed.Client created beforehand)"
        ) from None
    yield c


def workers(c) -> int:
    return max(1, len(c.scheduler_info().get("workers", {})))


# ---------------------------------------------------------------------------------------------
# Import


def parse(batches: list[list], c, progress=None, total: int = 0) -> list[dict[str, Any]]:
    """``parse_batch`` of every batch on the cluster; outcomes as they complete."""
    from distributed import as_completed

    from ..worker import parse_batch

    futures = c.map(parse_batch, batches, pure=False)
    out: list[dict[str, Any]] = []
    for _, results in as_completed(futures, with_results=True):
        out.extend(results)
        if progress:
            progress(len(out), total, "")
    return out


# ---------------------------------------------------------------------------------------------
# summarize_store(engine="dask")


def _task(
    files: list[str],
    columns: list[str],
    run_ids: list[str],
    runs,
    by: list[str],
    metric: str,
    kw: dict,
    placed: dict | None = None,
) -> list[dict]:
    """On a worker: the rows of ``run_ids`` (their row groups only) and their summary.  A
    run in ``placed`` (run → its row groups, ``dataset.footer_runs``) is read from those
    alone (``_series.read_series``); the others, and a placed run whose order needs file
    order, are read together and given to ``table_rows``."""
    from ...stats.intervals import group_rows
    from . import _files

    if by == ["run_id"]:  # each run from its arrays when it can be (campaign/engines/_series.py)
        return _run_rows(files, columns, run_ids, metric, kw, placed or {})
    tbl = _files.read_runs(_files.Files(files), columns, run_ids)
    if not tbl.num_rows:
        return []
    return group_rows(_files.frame(tbl), runs, by, metric, **kw)


def _run_rows(files, columns, run_ids, metric, kw, placed) -> list[dict]:
    """The rows of ``run_ids`` (sorted), in run order (``_task``)."""
    import numpy as np

    from ...stats import intervals as iv
    from . import _files
    from ._series import read_series, table_rows

    column, unit = iv.metric_column(metric)
    qs = np.asarray(kw["quantiles"], dtype=float)
    out: dict[str, list[dict]] = {}
    rest = []
    for rid in run_ids:
        stats = read_series(placed[rid], column, kw) if rid in placed else None
        if stats is None:
            rest.append(rid)
        else:
            out[rid] = iv.stat_rows(stats, {"run_id": rid, "metric": metric, "unit": unit}, qs)
    if rest:
        tbl = _files.read_runs(_files.Files(files), columns, rest)
        for r in table_rows(tbl, metric, kw) if tbl.num_rows else []:
            out.setdefault(r["run_id"], []).append(r)
    return [r for rid in run_ids for r in out.get(rid, [])]


def _run_chunks(counts: list[tuple[str, int]], parts: int) -> Iterator[list[str]]:
    """Consecutive runs (sorted) in chunks of about TASK_ROWS rows, at least ``parts``."""
    total = sum(n for _, n in counts)
    size = max(1, min(TASK_ROWS, -(-total // max(1, parts))))
    chunk, rows = [], 0
    for rid, n in counts:
        chunk.append(rid)
        rows += n
        if rows >= size:
            yield chunk
            chunk, rows = [], 0
    if chunk:
        yield chunk


def summarize(req: Request) -> list[dict]:
    """The rows of ``summarize``: one task per chunk of runs (``by="run_id"``) or per group."""
    from ..sql import connect
    from . import duck

    folder, columns, by, metric, kw = req.folder, req.columns, req.by, req.metric, req.kw
    con = connect(folder, order=True)
    q = duck._Query(con, columns, duck.iv.metric_column(metric)[0], req.keep)
    q.check_basis(metric)  # for the whole store at once, as summarize checks its frame
    # run → rows, from the footers of large inputs' files, else by a pass over the others;
    # q.placed: the runs read from their own row groups
    counts = [(r, c["rows"]) for r, c in q.counts(folder).items()]
    from .. import dataset

    files = [str(f) for f in dataset.table_files(folder, "samples")]
    placed = {r: [(str(f), g, n) for f, g, n in gs] for r, gs in q.placed.items()}
    with client(req.scheduler) as c:
        return _submit(c, files, columns, counts, req.runs, by, metric, kw, placed)


def _submit(c, files, columns, counts, runs, by, metric, kw, placed) -> list[dict]:
    if by == ["run_id"]:
        chunks = list(_run_chunks(counts, 2 * workers(c)))
        keys = [None] * len(chunks)
        where = [{r: placed[r] for r in ids if r in placed} for ids in chunks]
    else:
        present = {r for r, _ in counts}
        runs = runs[runs["run_id"].isin(present)]
        groups = [
            sorted(g["run_id"].astype(str)) for _, g in runs.groupby(by, sort=True, dropna=False)
        ]
        chunks, keys = groups, [runs] * len(groups)
        where = [None] * len(groups)
    futures = [
        c.submit(_task, files, columns, ids, key, by, metric, kw, at, pure=False)
        for ids, key, at in zip(chunks, keys, where)
    ]
    # gathered in submission order: run_id order, or summarize's group order
    return [r for rows in c.gather(futures) for r in rows]
