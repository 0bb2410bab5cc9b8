"""DuckDB over a store: a connection with the views ``runs``, ``samples`` and ``summaries``
(:func:`connect`) and the three tables as lazy relations (:class:`Lazy`, what
``load(..., lazy=True)`` returns).  Below ``load`` and the engines, which both use it."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from . import dataset

HIVE = "hive_partitioning = true, hive_types = {'tool': VARCHAR}"


def _files(folder: Path, table: str) -> str:
    return "[" + ", ".join(f"'{quote(f)}'" for f in dataset.table_files(folder, table)) + "]"


def quote(path: Path | str) -> str:
    return str(path).replace("'", "''")


# DuckDB takes 80 % of the machine's memory for its buffers by default, and a window pass
# over 10^8 rows used 17 GB of this 24 GB machine.  Capped, it spills to its temp folder.
MEMORY_LIMIT = os.environ.get("AZLATENCY_DUCKDB_MEMORY", "1GB")


def _config() -> dict:
    spill = os.path.join(tempfile.gettempdir(), "azlatency-duckdb")
    return {"memory_limit": MEMORY_LIMIT, "temp_directory": spill}


def connect(folder: Path, *, order: bool = False):
    """A DuckDB connection with views ``runs``, ``samples`` (with ``tool``) and
    ``summaries`` over the store in ``folder``; ``order`` adds ``filename`` and
    ``file_row_number`` to samples (file order, to break ties as pandas' stable sort does)."""
    import duckdb

    con = duckdb.connect(config=_config())
    extra = ", filename = true, file_row_number = true" if order else ""
    con.execute(
        f"CREATE VIEW samples AS SELECT * FROM read_parquet("
        f"{_files(folder, 'samples')}, {HIVE}{extra})"
    )
    for table in ("runs", "summaries"):
        con.execute(f"CREATE VIEW {table} AS SELECT * FROM read_parquet({_files(folder, table)})")
    return con


class Lazy:
    """The three tables of a store as DuckDB relations (nothing read until asked)."""

    def __init__(self, folder: Path) -> None:
        self.folder, self.con = folder, connect(folder)
        self.runs = self.con.sql("SELECT * FROM runs")
        self.samples = self.con.sql("SELECT * FROM samples")
        self.summaries = self.con.sql("SELECT * FROM summaries")

    def query(self, sql: str):
        """A relation of ``sql`` over the views ``runs``, ``samples``, ``summaries``."""
        return self.con.sql(sql)

    def __repr__(self) -> str:
        return f"Lazy({self.folder})"
