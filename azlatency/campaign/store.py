"""The processed store: Parquet tables with a declared schema, written atomically.

Layout of ``data/processed/<campaign>/`` (docs/store.md; the table folders are
:mod:`azlatency.campaign.dataset`)::

    manifest.json          format version, azlatency version, input hashes, every table file
                           with its rows and sha256, the import report
    runs/ samples/tool=<tool>/ summaries/    the tables, as a hive-partitioned Parquet dataset
    cache/<sha256>.json    per input file: outcome of parsing it (ok / why not)
    cache/<sha256>.<table>.parquet   per input file: its unlabelled tables

Cache files are not fsynced (four syncs a file would cost more than parsing it): their JSON
records the sha256 of each table file, and a cache entry whose files do not match — torn by a
power cut — is parsed again instead of reused.

Writing goes to ``.<campaign>.tmp-<pid>`` beside the store, every file is fsynced, then two
renames swap it in (the old store is moved to ``.<campaign>.old`` first).  A crash at any point
leaves either the old store in place, or the old store at ``.<campaign>.old`` with no new
one — :func:`recover` (run by every import and load) puts it back.  Files carry no timestamps,
so the same inputs give byte-identical files.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import shutil
import signal
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from .. import schema
from ..errors import CampaignError

try:
    import fcntl
except ImportError:  # Windows
    fcntl = None

TABLES = ("runs", "samples", "summaries")
MANIFEST = "manifest.json"
CACHE = "cache"
COMPRESSION = "zstd"
# Test hook (tests/campaign/test_atomic.py): SIGKILL the process at the named point.
KILL_ENV = "AZLATENCY_KILL_AT"

_ARROW_TYPES = {
    "str": pa.string(),
    "Int64": pa.int64(),
    "float64": pa.float64(),
    "boolean": pa.bool_(),
    "datetime64[ns, UTC]": pa.timestamp("ns", tz="UTC"),
}
_PANDAS_TYPES = {
    pa.string(): pd.StringDtype(na_value=float("nan")),
    pa.large_string(): pd.StringDtype(na_value=float("nan")),
    pa.int64(): pd.Int64Dtype(),
    pa.bool_(): pd.BooleanDtype(),
}


def crash_point(name: str) -> None:
    """Die here, like a power cut, when the test hook names this point."""
    if os.environ.get(KILL_ENV) == name:
        os.kill(os.getpid(), signal.SIGKILL)


def arrow_schema(table: str, columns: list[str] | None = None) -> pa.Schema:
    """Declared Arrow schema of ``table`` from :mod:`azlatency.schema` (all or some columns)."""
    cols = schema.TABLES[table]
    keep = cols if columns is None else [c for c in cols if c.name in set(columns)]
    return pa.schema(
        [pa.field(c.name, _ARROW_TYPES[c.dtype], nullable=True) for c in keep],
        metadata={
            b"azlatency.table": table.encode(),
            b"azlatency.format_version": str(schema.FORMAT_VERSION).encode(),
        },
    )


def to_arrow(df: pd.DataFrame, table: str) -> pa.Table:
    """``df`` as an Arrow table with declared types, in schema column order."""
    target = arrow_schema(table, list(df.columns))
    columns = []
    for field in target:
        # Column by column through __arrow_array__: pandas' Arrow-backed strings and masked
        # integers convert without a copy, twice as fast as Table.from_pandas on our frames.
        arr = pa.array(df[field.name].array, from_pandas=True)
        if isinstance(arr, pa.ChunkedArray):
            arr = arr.combine_chunks()
        columns.append(arr if arr.type == field.type else arr.cast(field.type))
    return pa.Table.from_arrays(columns, schema=target)


def from_arrow(tbl: pa.Table, table: str, *, partial: bool = False) -> pd.DataFrame:
    """``tbl`` as a frame with the declared dtypes; ``partial``: a selection of columns, kept
    as they are (no required or optional column added)."""
    df = tbl.to_pandas(types_mapper=_PANDAS_TYPES.get)
    if partial:
        return schema.frame(table, df, partial=True)
    return schema.frame(table, df) if len(df.columns) else schema.empty(table)


def unify(tables: list[pa.Table], table: str, target: pa.Schema | None = None) -> pa.Table:
    """One Arrow table from per-file parts that may hold different columns (samples)."""
    if target is None:
        names: set[str] = set()
        for t in tables:
            names |= set(t.column_names)
        if not tables:
            names = {c.name for c in schema.TABLES[table] if c.required or table != "samples"}
        target = arrow_schema(table, sorted(names))
    parts = []
    for t in tables:
        if t.schema.equals(target, check_metadata=False):
            parts.append(t.replace_schema_metadata(target.metadata))
            continue
        # One all-null array per type, shared by the part's missing columns (arrays are
        # immutable): a sockperf part lacks 19 of a campaign's 26 columns, and allocating
        # each cost twice the read of the part.
        nulls: dict[pa.DataType, pa.Array] = {}
        cols = []
        for f in target:
            if f.name in t.column_names:
                cols.append(t.column(f.name).cast(f.type))
                continue
            if f.type not in nulls:
                nulls[f.type] = pa.nulls(len(t), type=f.type)
            cols.append(nulls[f.type])
        parts.append(pa.Table.from_arrays(cols, schema=target))
    return pa.concat_tables(parts) if parts else target.empty_table()


_SAMPLE_VOCAB = {"status": schema.SAMPLE_STATUSES, "kind": schema.SAMPLE_KINDS}


def samples_fault(tbl: pa.Table) -> str | None:
    """Cheap Arrow checks of a samples table (pandera on millions of rows would be slow)."""

    for col in ("run_id", "seq", "kind", "status"):
        if col not in tbl.column_names:
            return f"samples: column {col!r} missing"
    for col in ("run_id", "kind", "status"):  # seq may be null: an error line has none
        if tbl[col].null_count:
            return f"samples: column {col!r} has empty values"
    for col, allowed in _SAMPLE_VOCAB.items():
        bad = pc.filter(tbl[col], pc.invert(pc.is_in(tbl[col], pa.array(allowed))))
        if len(bad):
            return f"samples: {col} {bad[0].as_py()!r} is not one of {', '.join(allowed)}"
    return None


def count_by_run(tbl: pa.Table, status: str) -> dict[str, int]:
    """Samples with ``status``, per run."""

    if "status" not in tbl.column_names or not len(tbl):
        return {}
    picked = pc.filter(tbl["run_id"], pc.equal(tbl["status"], status))
    if not len(picked):
        return {}
    return {v["values"].as_py(): v["counts"].as_py() for v in pc.value_counts(picked)}


def parquet_options(target: pa.Schema) -> dict[str, Any]:
    """How every Parquet file of the store is written: zstd; a dictionary for string columns
    only; integer columns delta-encoded.  A dictionary of a million distinct send times or
    latencies is built and then thrown away (it does not pay): that was two thirds of the
    write time.  ``seq`` and the nanosecond times step by small amounts, so delta encoding
    shrinks them.  A 257k-row sockperf part: 158 ms and 3.25 MB before, 42 ms and 1.35 MB.
    Both encodings are in the Parquet format; DuckDB, Spark, Dask and pyarrow read them."""
    strings = [
        f.name for f in target if pa.types.is_string(f.type) or pa.types.is_large_string(f.type)
    ]
    ints = {f.name: "DELTA_BINARY_PACKED" for f in target if pa.types.is_integer(f.type)}
    return dict(
        compression=COMPRESSION,
        write_statistics=True,
        use_dictionary=strings,
        column_encoding=ints or None,
    )


def write_table(
    tbl: pa.Table, path: Path, *, sync: bool = True, row_group_size: int | None = None
) -> None:
    """Parquet (``parquet_options``), no timestamps: the same table always gives the same
    bytes."""
    pq.write_table(tbl, path, row_group_size=row_group_size, **parquet_options(tbl.schema))
    if sync:
        fsync_file(path)


def read_table(path: Path, table: str, columns: list[str] | None = None) -> pd.DataFrame:
    """A table of the store as a frame: every column, or only ``columns``."""
    return from_arrow(pq.read_table(path, columns=columns), table, partial=columns is not None)


def write_json(data: Any, path: Path, *, sync: bool = True) -> None:
    text = json.dumps(data, indent=1, sort_keys=True, ensure_ascii=False, default=str) + "\n"
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write(text)
        if sync:
            f.flush()
            os.fsync(f.fileno())


def fsync_file(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def fsync_dir(path: Path) -> None:
    if os.name == "nt":  # directories cannot be opened for fsync on Windows
        return
    fsync_file(path)


# ---------------------------------------------------------------------------------------------
# Atomic replacement.


def _old(target: Path) -> Path:
    return target.with_name(f".{target.name}.old")


def staging_dir(target: Path) -> Path:
    return target.with_name(f".{target.name}.tmp-{os.getpid()}")


def recover(target: Path) -> None:
    """Finish or undo an import that died mid-swap; drop leftover staging folders.

    Call with the campaign lock held.
    """
    old = _old(target)
    if old.exists():
        if target.exists():
            shutil.rmtree(old)  # the swap completed; only the clean-up was missed
        else:
            os.rename(old, target)  # died between the two renames: the old store comes back
    for leftover in target.parent.glob(f".{target.name}.tmp-*"):
        shutil.rmtree(leftover, ignore_errors=True)


def publish(staging: Path, target: Path) -> None:
    """Swap ``staging`` in as ``target`` (both in one folder, so renames are atomic)."""
    for path in sorted(staging.rglob("*")):
        if path.is_dir():
            fsync_dir(path)
    fsync_dir(staging)
    crash_point("before-swap")
    old = _old(target)
    if target.exists():
        os.rename(target, old)
        crash_point("between-renames")
    os.rename(staging, target)
    fsync_dir(target.parent)
    crash_point("after-swap")
    if old.exists():
        shutil.rmtree(old)


@contextlib.contextmanager
def locked(target: Path, *, wait: bool = False) -> Iterator[None]:
    """Hold ``.<campaign>.lock`` beside the store: one import (or recovery) at a time."""
    target.parent.mkdir(parents=True, exist_ok=True)
    lock_path = target.with_name(f".{target.name}.lock")
    if fcntl is None:  # Windows: no advisory locks; imports of one campaign must not overlap
        yield
        return
    with open(lock_path, "a+") as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | (0 if wait else fcntl.LOCK_NB))
        except BlockingIOError:
            raise CampaignError(
                f"another import of {target.name!r} is running (lock {lock_path})"
            ) from None
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def file_sha256(path: Path, chunk: int = 1 << 20) -> str:

    h = hashlib.sha256()
    with open(path, "rb") as f:
        while block := f.read(chunk):
            h.update(block)
    return h.hexdigest()


def link_or_copy(src: Path, dst: Path) -> None:
    """Reuse an unchanged cache file: a hard link (no copy) where the file system allows."""
    try:
        os.link(src, dst)
    except OSError:
        shutil.copyfile(src, dst)
