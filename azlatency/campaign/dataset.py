"""The store as a Parquet dataset: one folder per table, samples partitioned by tool.

Layout of ``data/processed/<campaign>/`` in format 2 (docs/store.md has the reasons)::

    manifest.json                          format version, inputs, files with rows and sha256
    runs/part-0.parquet                    labelled runs
    summaries/part-0.parquet               long-form statistics
    samples/tool=<tool>/part-<k>.parquet   observations of that tool's runs, ordered by run_id
    <name>/...                             a table written by a hook (EXTRA_TABLES)
    cache/<sha256>...                      per input file (store.py)

Every samples file holds every declared samples column (``sample_target``: a column the
campaign has no values for is all null; the manifest lists the columns with values), so
pyarrow, DuckDB, Dask and Spark read the folder — or several campaigns' folders — as one
table with no schema merging.  The partition column ``tool`` is a string: readers must declare
it (``hive_types`` in DuckDB, a ``partitioning`` schema in pyarrow) or a numeric-looking value
comes back as an integer.

Written once: the import's workers write each input's samples as a samples file is written
(``sample_file``), so an input of at least ``LINK_ROWS`` samples of one tool becomes a file of
the dataset as it is, hard-linked from the per-file cache (``plan_files``).  Only the small
parts are read again, to be packed into files of up to ``FILE_ROWS`` rows.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any
from urllib.parse import quote, unquote

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.dataset as ds
import pyarrow.parquet as pq

from .. import schema
from . import store

TABLES = ("runs", "samples", "summaries")
PARTITION_KEY = {"samples": "tool"}
PARTITION_SCHEMA = pa.schema([pa.field("tool", pa.string())])
# Hive's name for a missing partition value; a campaign without samples still has one
# (zero-row) samples file here, so that every reader finds the table and its columns.
HIVE_NULL = "__HIVE_DEFAULT_PARTITION__"
PART = "part-{:d}.parquet"
# Rows per row group: big enough for DuckDB's row-group parallelism and for few footers,
# small enough that the writer holds one group per tool in memory (~100 MB).
ROW_GROUP_ROWS = 1 << 20
# Rows of one samples file at most (~20 MB of sockperf rows): a tool's partition is cut into
# part-0, part-1, ... at a source file's boundary (a run never spans two files), and the files
# are written by a thread per core (pyarrow encodes and compresses without the GIL).  With one
# writer, writing the dataset of 10^7 samples took 2.6 s; in three files on two threads, 1.8 s.
FILE_ROWS = 1 << 22
WRITE_THREADS = os.cpu_count() or 1
# Samples of one input, of one tool, from which its cache file is linked into the dataset
# as a file of its own rather than read (~80 ns a row) and encoded (~150 ns) again: a
# 2 * 10^7-sample import took 28-33 CPU-s instead of 33-42.  Smaller parts are packed: many
# small files would cost every reader a footer and a scan task each.
LINK_ROWS = 1 << 17

# Hook for tables built from the written store (e.g. per-window summaries): name → a
# function given the staging store folder, with runs/, samples/ and summaries/ already written,
# that writes its files under ``<folder>/<name>/`` (hive-partitioned like samples if it
# likes).  Files there are listed in the manifest with their rows and sha256, swapped in
# atomically with the rest, and compared by the "nothing changed" check like any table.
EXTRA_TABLES: dict[str, Callable[[Path], None]] = {}

_SAFE = re.compile(r"[A-Za-z0-9_.\-]+")


def tables() -> tuple[str, ...]:
    """The tables of a store written now: the three of the data model and the hooks'."""
    return TABLES + tuple(sorted(EXTRA_TABLES))


def partition_dir(value: str | None) -> str:
    """``tool=<value>`` (percent-encoded when not a plain name, as pyarrow writes it)."""
    if value is None:
        return f"tool={HIVE_NULL}"
    return f"tool={value if _SAFE.fullmatch(value) else quote(value, safe='')}"


def table_files(folder: Path, table: str) -> list[Path]:
    """The Parquet files of ``table`` in ``folder``, in reading order (sorted paths)."""
    root = folder / table
    return sorted(root.rglob("*.parquet"), key=_reading_order) if root.is_dir() else []


def _reading_order(path: Path) -> tuple:
    """part-2 before part-10: the parts of a partition in the order they were cut."""
    m = re.fullmatch(r"part-(\d+)\.parquet", path.name)
    return (path.parent.as_posix(), int(m.group(1)) if m else -1, path.name)


def file_infos(
    folder: Path, table: str, known: dict[str, str] | None = None
) -> dict[str, dict[str, Any]]:
    """relative path → rows and sha256 of every file of ``table`` (for the manifest);
    ``known``: the sha256 of files linked from a file already hashed (not read again)."""
    known = known or {}
    out = {}
    for f in table_files(folder, table):
        rel = f.relative_to(folder).as_posix()
        out[rel] = {
            "rows": pq.read_metadata(f).num_rows,
            "sha256": known[rel] if rel in known else store.file_sha256(f),
        }
    return out


def read_schema(folder: Path, table: str) -> pa.Schema:
    """The (common) file schema of ``table``."""
    files = table_files(folder, table)
    if not files:
        raise FileNotFoundError(f"{folder}: no files of table {table!r}")
    return pq.read_schema(files[0])


def read(folder: Path, table: str, columns: list[str] | None = None) -> pa.Table:
    """``table`` of a store as one Arrow table (file columns only, not the partition key)."""
    parts = [pq.read_table(f, columns=columns) for f in table_files(folder, table)]
    if not parts:
        raise FileNotFoundError(f"{folder}: no files of table {table!r}")
    return pa.concat_tables(parts)


def arrow_dataset(folder: Path, table: str = "samples"):
    """``pyarrow.dataset`` of a table, with its partition key declared as a string."""

    part = ds.partitioning(PARTITION_SCHEMA, flavor="hive") if table in PARTITION_KEY else None
    # The files listed in reading order (part-2 before part-10), not discovered (lexical).
    return ds.dataset(
        [str(f) for f in table_files(folder, table)],
        format="parquet",
        partitioning=part,
        partition_base_dir=str(folder / table),
    )


# ---------------------------------------------------------------------------------------------
# Writing


def write_single(tbl: pa.Table, folder: Path, table: str) -> None:
    """An unpartitioned table as ``<table>/part-0.parquet``."""
    (folder / table).mkdir(parents=True, exist_ok=True)
    store.write_table(tbl, folder / table / PART.format(0))


class _ToolWriter:
    """Row groups of ROW_GROUP_ROWS rows into ``samples/tool=<t>/part-0.parquet``."""

    def __init__(self, path: Path, target: pa.Schema) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path, self.pending, self.rows = path, [], 0
        self.writer = pq.ParquetWriter(path, target, **store.parquet_options(target))

    def add(self, tbl: pa.Table) -> None:
        self.pending.append(tbl)
        self.rows += tbl.num_rows
        if self.rows >= ROW_GROUP_ROWS:
            self.flush()

    def flush(self) -> None:
        if self.pending:
            self.writer.write_table(pa.concat_tables(self.pending), row_group_size=ROW_GROUP_ROWS)
        self.pending, self.rows = [], 0

    def close(self) -> None:
        self.flush()
        self.writer.close()
        store.fsync_file(self.path)


def sample_target() -> pa.Schema:
    """Schema of every samples file: every declared samples column, in the declared types."""
    return store.arrow_schema("samples")


def sample_columns(columns: Iterable[str]) -> list[str]:
    """The manifest's samples ``columns``: those with values (``columns``, the parts' union),
    in declared order; the required ones when there are none."""
    names = set(columns) or {c.name for c in schema.TABLES["samples"] if c.required}
    return [c for c in schema.COLUMNS["samples"] if c in names]


def sample_file(tbl: pa.Table) -> pa.Table:
    """One input's samples as a samples file holds them (``sample_target``, by run): what
    the import's workers write to the cache, so that a large part is linked, not rewritten."""
    return store.unify([by_run(tbl)], "samples", sample_target())


def linkable(
    parts: list[Path], part_runs: list[list[str]], tool_of: dict[str, str], target: pa.Schema
) -> tuple[list[int], list[bool]]:
    """Rows of each part (its footer), and whether it becomes a samples file as it is: at
    least ``LINK_ROWS`` rows of one tool, written in the target schema (``sample_file``)."""
    rows, whole = [], []
    for part, runs in zip(parts, part_runs):
        pf = pq.ParquetFile(part)
        n = pf.metadata.num_rows
        rows.append(n)
        one_tool = len(_tools(runs, tool_of)) == 1
        whole.append(
            n >= LINK_ROWS and one_tool and pf.schema_arrow.equals(target, check_metadata=True)
        )
        pf.close()
    return rows, whole


def by_run(tbl: pa.Table) -> pa.Table:
    """``tbl`` with its rows ordered by ``run_id`` (stable: a run keeps its row order)."""
    rid = tbl.column("run_id")
    if len(tbl) < 2:
        return tbl
    ordered = pc.all(pc.less_equal(rid.slice(0, len(tbl) - 1), rid.slice(1))).as_py()
    return tbl if ordered else tbl.take(pc.sort_indices(tbl, [("run_id", "ascending")]))


def write_samples(
    parts: Iterable[pa.Table | Path],
    target: pa.Schema,
    tool_of: dict[str, str],
    folder: Path,
    *,
    sort: bool = True,
    skip: set[str] = frozenset(),
    part_runs: list[list[str]] | None = None,
    part_rows: list[int] | None = None,
    whole: list[bool] | None = None,
) -> dict[str, Path]:
    """The samples dataset from per-file parts (tables, or Parquet files read one at a time).

    Each part goes to the partition of its runs' tool; ``sort``: parts are ordered by run
    within (callers pass them in run_id order — run_id starts with the file's sha256 — so
    each partition is ordered by run and a row group's run_id statistics are narrow).

    With ``part_runs`` and ``part_rows`` (the import), a partition is cut into files of at
    most ``FILE_ROWS`` rows (``plan_files``) written by ``WRITE_THREADS`` threads, a
    ``whole`` part's file linked from the part itself (``linkable``); ``skip``: files not to
    write (reused), whose parts are not even read.  Without them (migration of
    a format-1 store, whose parts stream from one file) each partition is one file, written
    as the parts arrive.  Returns the files linked: relative path → the part it is."""
    if part_runs is not None and part_rows is not None:
        parts = list(parts)
        tools = [_tools(runs, tool_of) for runs in part_runs]
        plan = plan_files(part_rows, tools, whole)
        jobs = [(rel, idx) for rel, idx in plan.items() if rel not in skip]
        if not plan:
            jobs = [(f"samples/{partition_dir(None)}/{PART.format(0)}", [])]
        linked = {
            rel: parts[idx[0]] for rel, idx in jobs if whole and len(idx) == 1 and whole[idx[0]]
        }

        def one(job: tuple[str, list[int]]) -> None:
            rel, idx = job
            if rel in linked:
                (folder / rel).parent.mkdir(parents=True, exist_ok=True)
                store.link_or_copy(linked[rel], folder / rel)
                store.fsync_file(folder / rel)  # the worker wrote it unsynced
                return
            tool = tool_from_dir(rel.split("/")[1])
            w = _ToolWriter(folder / rel, target)
            for i in idx:
                tbl = _load(parts[i], target, sort)
                w.add(tbl if tools[i] == [tool] else _only(tbl, tool, tool_of))
            w.close()

        with ThreadPoolExecutor(max(1, min(WRITE_THREADS, len(jobs)))) as pool:
            list(pool.map(one, jobs))
        return linked
    writers: dict[str, _ToolWriter] = {}

    def writer(tool: str | None) -> _ToolWriter:
        key = partition_dir(tool)
        if key not in writers:
            writers[key] = _ToolWriter(folder / "samples" / key / PART.format(0), target)
        return writers[key]

    for part in parts:
        tbl = _load(part, target, sort)
        runs = pc.unique(tbl.column("run_id")).to_pylist()
        tools = _tools(runs, tool_of)
        if len(tools) == 1:  # the usual case: one file, one tool
            writer(tools[0]).add(tbl)
            continue
        for tool in tools:
            writer(tool).add(_only(tbl, tool, tool_of))
    if not writers:
        writer(None)  # an empty table still has its file: readers find its columns
    for w in writers.values():
        w.close()
    return {}


def _load(part: pa.Table | Path, target: pa.Schema, sort: bool) -> pa.Table:
    tbl = store.unify([pq.read_table(part) if isinstance(part, Path) else part], "samples", target)
    return by_run(tbl) if sort else tbl


def _tools(runs: Iterable[str], tool_of: dict[str, str]) -> list[str | None]:
    """The tools of ``runs``, sorted, None last."""
    return sorted({tool_of.get(r) for r in runs}, key=lambda t: (t is None, t or ""))


def _only(tbl: pa.Table, tool: str | None, tool_of: dict[str, str]) -> pa.Table:
    """The rows of ``tbl`` whose run is of ``tool``."""
    runs = pc.unique(tbl.column("run_id")).to_pylist()
    mine = pa.array([r for r in runs if tool_of.get(r) == tool], pa.string())
    return tbl.filter(pc.is_in(tbl.column("run_id"), value_set=mine))


def tool_from_dir(key: str) -> str | None:
    """The tool of a partition folder name (``partition_dir``'s inverse)."""
    value = key.split("=", 1)[1]
    return None if value == HIVE_NULL else unquote(value)


def plan_files(
    part_rows: list[int], part_tools: list[list[str | None]], whole: list[bool] | None = None
) -> dict[str, list[int]]:
    """Samples file (relative path) → the indices of the parts it holds, in order.  Each
    tool's parts fill ``part-0``, then ``part-1`` once the next part would take the file
    past ``FILE_ROWS`` rows; a part is never split across files, so neither is a run.  A
    ``whole`` part is a file of its own, the next number (``linkable``), so the files of a
    partition still hold its runs in order.  A part of several tools counts its whole size
    in each (the split is only known after reading it, and the plan is needed before:
    ``partition_inputs`` digests it)."""
    current: dict[str, tuple[int, int]] = {}  # partition → (open file's number, its rows)
    files: dict[str, list[int]] = {}
    for i, (n, tools) in enumerate(zip(part_rows, part_tools)):
        for tool in tools:
            key = partition_dir(tool)
            k, rows = current.get(key, (0, 0))
            if whole and whole[i]:
                k += 1 if rows else 0
                files[f"samples/{key}/{PART.format(k)}"] = [i]
                current[key] = (k + 1, 0)
                continue
            if rows and rows + n > FILE_ROWS:
                k, rows = k + 1, 0
            current[key] = (k, rows + n)
            files.setdefault(f"samples/{key}/{PART.format(k)}", []).append(i)
    return files


def partition_inputs(
    parts: list[Path],
    part_runs: list[list[str]],
    tool_of: dict[str, str],
    target: pa.Schema,
    stamp: str,
    part_rows: list[int],
    whole: list[bool] | None = None,
) -> dict[str, str]:
    """Samples file (relative path) → digest of everything its bytes depend on: the code
    (``stamp``), the columns, and the sequence of per-file parts in it (``plan_files``: each
    part's input sha256, its runs' tools, and whether it is linked).  Equal digest, equal
    file."""

    plan = plan_files(part_rows, [_tools(runs, tool_of) for runs in part_runs], whole)
    head = [stamp, str(schema.FORMAT_VERSION), [f"{f.name}:{f.type}" for f in target]]
    out = {}
    for rel, idx in plan.items():
        seq = [
            [
                parts[i].name,
                sorted((r, tool_of.get(r) or "") for r in part_runs[i]),
                bool(whole and whole[i]),
            ]
            for i in idx
        ]
        out[rel] = hashlib.sha256(
            json.dumps([head, seq], separators=(",", ":")).encode()
        ).hexdigest()
    return out


def reusable(target: Path, old: dict[str, Any] | None, inputs: dict[str, str]) -> dict[str, Path]:
    """Samples files of the current store at ``target`` whose inputs are unchanged and whose
    bytes are intact: relative path → file to link into the new store."""
    if not old or old.get("format_version") != schema.FORMAT_VERSION:
        return {}
    files = old.get("tables", {}).get("samples", {}).get("files", {})
    out = {}
    for rel, info in files.items():
        path = target / rel
        if (
            info.get("inputs") is not None
            and inputs.get(rel) == info["inputs"]
            and path.is_file()
            and store.file_sha256(path) == info["sha256"]
        ):
            out[rel] = path
    return out


def footer_runs(files: list[Path]) -> tuple[dict[str, list[tuple[Path, int, int]]], list[Path]]:
    """run → its row groups, (file, row group, rows), in file and row-group order, from the
    footers of the files whose every row group holds one run (``run_id`` min = max) and no
    censored row (``status`` min after ``"censored"``, the first status in sort order): a
    large input's file.  And the other files, whose runs' rows only a read can count.  A
    file without those statistics is among the others."""
    first = min(schema.SAMPLE_STATUSES)  # "censored": no status sorts before it
    placed: dict[str, list[tuple[Path, int, int]]] = {}
    others = []
    for f in files:
        md = pq.read_metadata(f)
        names = md.schema.names
        if "run_id" not in names or "status" not in names:
            others.append(f)
            continue
        ri, si = names.index("run_id"), names.index("status")
        mine: list[tuple[str, int, int]] = []
        for g in range(md.num_row_groups):
            rg = md.row_group(g)
            rid, st = rg.column(ri).statistics, rg.column(si).statistics
            if not (
                rid is not None
                and rid.has_min_max
                and rid.min == rid.max
                and rid.null_count == 0
                and st is not None
                and st.has_min_max
                and st.min > first
            ):
                others.append(f)
                break
            mine.append((rid.min, g, rg.num_rows))
        else:
            for r, g, n in mine:
                placed.setdefault(r, []).append((f, g, n))
    return placed, others


def run_tools(runs: pa.Table) -> dict[str, str]:
    """run_id → tool, from a runs table."""
    return dict(zip(runs.column("run_id").to_pylist(), runs.column("tool").to_pylist()))


def manifest_tables(
    folder: Path,
    inputs: dict[str, str] | None = None,
    columns: dict[str, list[str]] | None = None,
    known: dict[str, str] | None = None,
) -> dict[str, dict[str, Any]]:
    """The manifest's ``tables``: per table its rows, columns and files (rows, sha256, and
    for samples files the digest of their ``inputs``).  ``columns``: a table's columns with
    values where its files hold more (samples: ``sample_columns``); else the files' own.
    ``known``: relative path → sha256 of linked files (``file_infos``)."""
    out = {}
    for table in tables():
        files = file_infos(folder, table, known)
        for name, info in files.items():
            if inputs and name in inputs:
                info["inputs"] = inputs[name]
        if columns and table in columns:
            names = columns[table]
        else:
            names = read_schema(folder, table).names if files else []
        out[table] = {
            "rows": sum(f["rows"] for f in files.values()),
            "columns": names,
            "files": files,
        }
    return out


def intact(folder: Path, manifest: dict[str, Any]) -> bool:
    """Every table file the manifest lists is there with its sha256, and no other."""
    for table, info in manifest.get("tables", {}).items():
        files = info.get("files")
        if files is None:
            return False
        have = {f.relative_to(folder).as_posix() for f in table_files(folder, table)}
        if have != set(files) or any(
            store.file_sha256(folder / name) != f["sha256"] for name, f in files.items()
        ):
            return False
    return True


# ---------------------------------------------------------------------------------------------
# Format 1 → 2


def migrate(target: Path) -> None:
    """Rewrite a format-1 store (``runs.parquet``, ``samples.parquet``, ``summaries.parquet``)
    as this format, atomically (staging folder, then the swap of store.publish).

    No raw file is read: the tables are rewritten as they are, the samples streamed row
    group by row group into their tool partitions (a run's rows keep their order).  The
    cache is kept but its stamp no longer matches, so the next import parses every file.
    Call with the campaign lock held."""
    manifest = json.loads((target / store.MANIFEST).read_text(encoding="utf-8"))
    staging = store.staging_dir(target)
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir()
    try:
        if (target / store.CACHE).is_dir():
            (staging / store.CACHE).mkdir()
            for f in sorted((target / store.CACHE).iterdir()):
                store.link_or_copy(f, staging / store.CACHE / f.name)
        runs = _relabel(pq.read_table(target / "runs.parquet"), "runs")
        write_single(runs, staging, "runs")
        write_single(
            _relabel(pq.read_table(target / "summaries.parquet"), "summaries"), staging, "summaries"
        )
        pf = pq.ParquetFile(target / "samples.parquet")
        parts = (pa.Table.from_batches([b]) for b in pf.iter_batches(batch_size=ROW_GROUP_ROWS))
        write_samples(parts, sample_target(), run_tools(runs), staging, sort=False)
        for name in EXTRA_TABLES.values():
            name(staging)
        manifest.update(
            format_version=schema.FORMAT_VERSION,
            migrated_from=manifest.get("format_version"),
            tables=manifest_tables(
                staging, columns={"samples": sample_columns(pf.schema_arrow.names)}
            ),
        )
        store.write_json(manifest, staging / store.MANIFEST)
        store.publish(staging, target)
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def _relabel(tbl: pa.Table, table: str) -> pa.Table:
    """``tbl`` with this format's schema metadata (its types are already the declared ones)."""
    return store.unify([tbl], table, store.arrow_schema(table, tbl.column_names))
