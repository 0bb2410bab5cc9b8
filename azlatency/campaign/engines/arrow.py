"""``summarize_store(engine="pyarrow")``: the samples dataset read run by run.

At 10⁸ samples, ``summarize(load(campaign).samples, runs)`` needs the whole samples table in
pandas — every column, then a sorted copy — and was stopped at 22 GB on a 24 GB machine
(``benchmarks/bench_synth_import.py``).  ``summarize_store`` gives the same frame, row for
row, holding one run at a time:

* ``by="run_id"`` (the default) streams the samples files (``samples/tool=*/part-*.parquet``,
  one after the other) once with
  ``pyarrow.parquet.ParquetFile.iter_batches``, reading only the columns the statistics use
  (``run_id``, ``status``, the metric, the other latency basis for the basis check,
  ``censor_high_us`` and the ordering keys ``seq``, ``tx_time_ns``, ``time_ns``).  A run is
  summarised when the next run begins.  The import writes each run's rows together (a run
  comes from one file and the per-file parts are written one after the other), but a store is
  not trusted to be so: a run seen again after it ended is summarised again at the end from
  all of its rows, read by a second, filtered pass (``split`` runs below).
* ``by`` naming run columns (``["src_zone", "dst_zone"]``, ``"placement"``) reads the groups
  one at a time: the rows of the group's runs, from the row groups whose ``run_id``
  statistics can hold them.  Memory is then that of the largest group.  Sample columns
  other than ``run_id`` (``kind``, ``status``) cannot be ``by`` here.

The statistics are those of ``summarize``: a run is summarised from its values by
``intervals.series_rows`` when ``seq`` alone fixes its order and nothing is censored
(``engines._series``), otherwise by ``intervals.group_rows`` — the code of ``summarize`` — and
a group always by ``group_rows``; intervals, dependence handling, censoring and notes are
those of ``summarize``.
A run holding only the other latency basis raises ``BasisError`` when it is reached.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from ...stats.intervals import group_rows
from .. import dataset
from . import Request
from ._files import Files, frame, read_runs
from ._series import table_rows  # a run's rows from its arrays when it can

BATCH_ROWS = 1 << 20


def summarize(req: Request) -> list[dict]:
    """The rows of ``summarize`` for ``req`` (see the module docstring)."""
    pf = Files(dataset.table_files(req.folder, "samples"))
    if req.by == ["run_id"]:
        return _by_run(pf, req.columns, req.keep, req.metric, req.kw)
    return _by_group(pf, req.columns, req.runs, req.by, req.metric, req.kw)


def _by_run(
    pf: Files, columns: list[str], keep: list[str] | None, metric: str, kw: dict
) -> list[dict]:
    done: dict[str, list[dict]] = {}
    split: set[str] = set()
    for run_id, tbl in _runs(pf, columns, keep):
        if run_id in done or run_id in split:
            split.add(run_id)  # rows seen after the run ended: redone below from all its rows
            done.pop(run_id, None)
            continue
        done[run_id] = table_rows(tbl, metric, kw)
    for run_id in sorted(split):
        done[run_id] = table_rows(read_runs(pf, columns, [run_id]), metric, kw)
    # summarize's groupby sorts by run_id; one run per group, so sorting the runs is enough.
    return [r for run_id in sorted(done) for r in done[run_id]]


def _runs(pf: Files, columns: list[str], keep: list[str] | None) -> Iterator[tuple[str, pa.Table]]:
    """(run_id, rows) for each stretch of consecutive rows of one run, in file order."""
    current, pending = None, []
    wanted = None if keep is None else pa.array(keep, pa.string())
    for batch in pf.iter_batches(batch_size=BATCH_ROWS, columns=columns):
        if wanted is not None:
            batch = batch.filter(pc.is_in(batch.column("run_id"), value_set=wanted))
        n = batch.num_rows
        if not n:
            continue
        rid = batch.column("run_id")
        changes = pc.not_equal(rid.slice(1), rid.slice(0, n - 1))
        cuts = np.flatnonzero(changes.to_numpy(zero_copy_only=False)) + 1
        for start, stop in zip([0, *cuts], [*cuts, n]):
            run_id = rid[int(start)].as_py()
            if run_id != current:
                if pending:
                    yield current, pa.Table.from_batches(pending)
                current, pending = run_id, []
            pending.append(batch.slice(int(start), int(stop - start)))
    if pending:
        yield current, pa.Table.from_batches(pending)


def _by_group(
    pf: Files, columns: list[str], runs: pd.DataFrame, by: list[str], metric: str, kw: dict
) -> list[dict]:
    rows: list[dict] = []
    # The groups of summarize, in its order (groupby sort=True, dropna=False); a group whose
    # runs have no samples gives no rows, as in summarize.
    for _, group in runs.groupby(by, sort=True, dropna=False):
        tbl = read_runs(pf, columns, sorted(group["run_id"].astype(str)))
        if tbl.num_rows:
            rows.extend(group_rows(frame(tbl), runs, by, metric, **kw))
    return rows
