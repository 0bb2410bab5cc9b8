"""Engines that read the store (docs/store.md "Engines").

* ``pyarrow`` — :mod:`azlatency.campaign.engines.arrow`: the samples files streamed run by run.
* ``duckdb`` — :mod:`azlatency.campaign.engines.duck`: DuckDB over the dataset; order statistics in SQL.
* ``dask`` — :mod:`azlatency.campaign.engines.dask`: the per-run work as tasks on a Dask cluster.
"""

from __future__ import annotations

ENGINES = ("duckdb", "pyarrow", "dask")


def check(engine: str) -> str:
    if engine not in ENGINES:
        raise ValueError(f"engine must be one of {', '.join(ENGINES)}, got {engine!r}")
    return engine
