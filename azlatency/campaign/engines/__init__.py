"""Engines that read the store (docs/store.md "Engines"): :func:`summarize_store` and its one
dispatch.  Each engine is a module with ``summarize(req: Request) -> list[dict]`` giving the
rows of ``stats.summarize`` for the store, holding one run (or group) at a time:

* ``duckdb`` — :mod:`azlatency.campaign.engines.duck`: DuckDB over the dataset; order statistics in SQL.
* ``pyarrow`` — :mod:`azlatency.campaign.engines.arrow`: the samples files streamed run by run.
* ``dask`` — :mod:`azlatency.campaign.engines.dask`: the per-run work as tasks on a Dask cluster.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from ...stats.common import DEFAULT_QUANTILES, metric_column
from ...stats.intervals import group_rows, summary_args, summary_frame
from ...units import COLUMN
from .. import dataset
from ..load import load, store_folder
from ._files import Files, frame

# engine name -> its module
ENGINES = {"duckdb": "duck", "pyarrow": "arrow", "dask": "dask"}
# What group_rows reads of a samples frame: observations (status, censoring bound), the basis
# check (both latency columns) and measurement order (ordered()'s keys).
_NEEDS = ("run_id", "seq", "tx_time_ns", "time_ns", "status", "censor_high_us")


@dataclass(frozen=True)
class Request:
    """What every engine is given: the store, the samples columns to read, the runs to keep
    (``None``: all), ``by`` (``["run_id"]`` or run columns), the metric, ``group_rows``'s
    keywords (level, quantiles, unit, dependence), the runs table of the groups (``None`` for
    ``by=["run_id"]``) and the Dask scheduler (the other engines ignore it)."""

    folder: Path
    columns: list[str]
    keep: list[str] | None
    by: list[str]
    metric: str
    kw: dict
    runs: pd.DataFrame | None = None
    scheduler: str | None = None


def check(engine: str) -> str:
    if engine not in ENGINES:
        raise ValueError(f"engine must be one of {', '.join(ENGINES)}, got {engine!r}")
    return engine


def summarize_store(
    campaign: str | os.PathLike[str],
    root: str | os.PathLike[str] | None = None,
    *,
    by: str | Sequence[str] | None = None,
    metric: str = "rtt",
    level: float = 0.95,
    quantiles: Sequence[float] = DEFAULT_QUANTILES,
    unit: str = "auto",
    dependence: str = "auto",
    run_ids: Iterable[str] | None = None,
    engine: str = "duckdb",
    scheduler: str | None = None,
) -> pd.DataFrame:
    """``summarize(samples, runs, by, metric, level, ...)`` of an imported campaign, reading
    the samples one run (or one group of ``by``) at a time.

    ``engine``: ``"duckdb"`` (the default: counts, moments, the dependence test and the order
    statistics in SQL), ``"pyarrow"`` (the files streamed run by run) or ``"dask"`` (tasks on
    the Dask cluster at ``scheduler``, or a local one).  Every engine gives the same frame.

    ``run_ids`` keeps only these runs (``summarize`` of ``samples[samples.run_id.isin(ids)]``),
    e.g. the runs whose ``latency_basis`` is the metric's.  The result equals ``summarize``
    of the loaded samples exactly (tests/stats/test_summarize_store.py).
    """
    check(engine)
    level, by = summary_args(level, by, unit)
    folder = store_folder(campaign, root)
    schema = Files(dataset.table_files(folder, "samples")).schema_arrow
    column = metric_column(metric)[0]
    wanted = [*_NEEDS, column, *(COLUMN.values() if metric in COLUMN else ())]
    columns = [c for c in schema.names if c in wanted]
    if isinstance(run_ids, str):
        run_ids = [run_ids]
    keep = None if run_ids is None else sorted({str(r) for r in run_ids})
    kw = dict(level=level, quantiles=quantiles, unit=unit, dependence=dependence)
    # The columns and the metric are checked before any row is read, as summarize would.
    group_rows(frame(schema.empty_table().select(columns)), None, ["run_id"], metric, **kw)
    runs = None if by == ["run_id"] else _group_runs(load(folder, samples=False).runs, by, keep)
    req = Request(folder, columns, keep, by, metric, kw, runs, scheduler)
    rows = importlib.import_module(f".{ENGINES[engine]}", __name__).summarize(req)
    return summary_frame(rows, by)


def _group_runs(runs: pd.DataFrame, by: list[str], keep: list[str] | None) -> pd.DataFrame:
    need = [c for c in by if c not in runs.columns]
    if need:
        raise ValueError(
            f"summarize_store groups by run columns only; {need} are not in runs "
            "(for a samples column, summarize the frame of campaign.load(..., columns=[...]))"
        )
    return runs if keep is None else runs[runs["run_id"].isin(keep)]
