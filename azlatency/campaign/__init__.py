"""A campaign: its raw folder (logs and ``campaign.yaml``) → its store → the three tables.

In the order data flows: :mod:`.sources` finds the files, :mod:`.config` reads
``campaign.yaml``, :mod:`.worker` parses each file into the per-file cache, :mod:`.assemble`
with :mod:`.labels` and :mod:`.quality` builds the tables, :mod:`.store` and :mod:`.dataset`
write them atomically, :mod:`.importer` runs it all and returns an
:class:`~.import_report.ImportReport`.  :mod:`.load` reads a store back; :mod:`.engines`
(pyarrow, DuckDB, Dask) summarise a store bigger than memory.

>>> from azlatency import campaign                                 # doctest: +SKIP
>>> campaign.import_campaign("data/raw/seed000-az-vs-as")          # doctest: +SKIP
>>> tables = campaign.load("seed000-az-vs-as")                     # doctest: +SKIP
>>> campaign.summarize_store("seed000-az-vs-as", engine="duckdb")  # doctest: +SKIP
"""

from __future__ import annotations

from .engines import summarize_store
from .importer import cache_stamp, import_campaign
from .load import (
    baseline,
    expectations,
    load,
    load_report,
    query,
    samples_files,
    store_folder,
    store_path,
)

__all__ = [
    "baseline",
    "expectations",
    "cache_stamp",
    "import_campaign",
    "load",
    "load_report",
    "query",
    "samples_files",
    "store_folder",
    "store_path",
    "summarize_store",
]
