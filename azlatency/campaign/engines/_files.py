"""The samples files of a store read as one table, run by run (the pyarrow and Dask engines
and the arrays path of ``_series`` share it)."""

from __future__ import annotations

from collections.abc import Iterator

import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from .. import store


class Files:
    """The samples files of a store, read as one: their schema is one (dataset.py)."""

    def __init__(self, paths: list) -> None:
        self.files = [pq.ParquetFile(p) for p in paths]
        self.schema_arrow = self.files[0].schema_arrow

    def iter_batches(self, batch_size: int, columns: list[str]) -> Iterator[pa.RecordBatch]:
        for f in self.files:
            yield from f.iter_batches(batch_size=batch_size, columns=columns)

    def row_groups(self) -> Iterator[tuple[pq.ParquetFile, int]]:
        for f in self.files:
            for i in range(f.metadata.num_row_groups):
                yield f, i


def frame(tbl: pa.Table) -> pd.DataFrame:
    """Arrow rows of the samples table as the samples frame (its dtypes)."""
    return store.from_arrow(tbl, "samples", partial=True)


def read_runs(pf: Files, columns: list[str], run_ids: list[str]) -> pa.Table:
    """Every row of ``run_ids``, in file order, reading only the row groups whose ``run_id``
    statistics can hold one of them."""
    at = pf.schema_arrow.get_field_index("run_id")
    lo, hi = min(run_ids), max(run_ids)
    wanted = pa.array(run_ids, pa.string())
    parts = []
    for f, i in pf.row_groups():
        stats = f.metadata.row_group(i).column(at).statistics
        if stats is not None and stats.has_min_max and (stats.max < lo or stats.min > hi):
            continue
        tbl = f.read_row_group(i, columns=columns)
        parts.append(tbl.filter(pc.is_in(tbl.column("run_id"), value_set=wanted)))
    schema = pf.schema_arrow.empty_table().select(columns).schema
    return pa.concat_tables(parts) if parts else schema.empty_table()
