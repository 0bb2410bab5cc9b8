"""Parse one input file into the store's per-file cache (runs in a worker process or inline).

The outcome of a file is ``cache/<sha256>.json`` — ``ok`` with table sizes and the problems a
lenient read skipped, or ``failed`` with a reason code and the located error — plus its
unlabelled tables as ``cache/<sha256>.<table>.parquet``.  The JSON is written last, so an entry
without it is incomplete and never reused.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import traceback
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import DetectionError, ParseError, SchemaError
from ..parsers import modules
from ..reader import file_bytes, read_bytes
from . import dataset, sources, store

# Import every parser now: worker processes fork from a server that imported this module
# (importer._pool_context), so they start with the parsers loaded.
modules()


@dataclass(frozen=True)
class Task:
    sha256: str
    source_path: str
    location: str  # file to read: the raw file itself or an archive entry's spooled copy
    cache_dir: str
    strict: bool = False
    stamp: tuple[int, ...] | None = None  # sources.Entry.stamp: the file as it was hashed


def error_record(exc: ParseError) -> dict[str, Any]:
    return {"tool": exc.tool, "line": exc.line_no, "reason": exc.reason, "hint": exc.hint}


def describe_error(rec: dict[str, Any]) -> str:
    """``sockperf: line 42: expected ... (hint: ...)`` — the path is reported beside it."""
    where = f"line {rec['line']}: " if rec.get("line") is not None else ""
    hint = f" (hint: {rec['hint']})" if rec.get("hint") else ""
    tool = f"{rec['tool']}: " if rec.get("tool") else ""
    return f"{tool}{where}{rec['reason']}{hint}"


def _failure(reason: str, rec: dict[str, Any]) -> dict[str, Any]:
    return {"status": "failed", "reason": reason, "error": rec}


def parse_file(task: Task) -> dict[str, Any]:
    """Parse ``task`` and write its cache entry; return the outcome (as in the JSON) with
    the Arrow tables under ``"arrow"`` (sent back whole: cheaper than reading them again)."""
    arrow: dict[str, Any] = {}
    changed = _failure("unreadable", {"reason": "the file changed during the import"})
    with contextlib.ExitStack() as stack:
        try:
            before = sources.file_stamp(os.stat(task.location))
            data = stack.enter_context(file_bytes(task.location))  # big files are mapped
        except OSError as exc:
            outcome = _failure("unreadable", {"reason": str(exc)})
        else:
            # The bytes are the ones hashed when the import was planned if the file's stamp
            # is the one taken then (not hashing again saves ~30 ns a row of a full log, an
            # eighth of its CSV read); a racy file has no stamp, one whose stamp moved is
            # hashed.
            if before != task.stamp and hashlib.sha256(data).hexdigest() != task.sha256:
                outcome = changed
            else:
                outcome = _parse(data, task, arrow)
                if _stamp(task.location) != before:  # written to while it was parsed
                    _discard(Path(task.cache_dir), outcome)
                    outcome, arrow = changed, {}
    cache = Path(task.cache_dir)
    tmp = cache / f"{task.sha256}.json.tmp"
    store.write_json(outcome, tmp, sync=False)  # verified by hash when reused (store.py)
    os.replace(tmp, cache / f"{task.sha256}.json")
    store.crash_point("cache-written")
    return {"sha256": task.sha256, **outcome, "arrow": arrow}


def _stamp(path: str) -> tuple[int, ...] | None:
    try:
        return sources.file_stamp(os.stat(path))
    except OSError:
        return None


def _discard(cache: Path, outcome: dict[str, Any]) -> None:
    for name in outcome.get("files", {}):
        with contextlib.suppress(OSError):
            (cache / name).unlink()


def _parse(data: bytes, task: Task, arrow: dict[str, Any]) -> dict[str, Any]:
    if not data or data.isspace():  # data.strip() would copy the whole file
        return _failure("empty", {"reason": "empty file" if not data else "only whitespace"})
    try:
        # Checked against the pandera schema once, on the assembled tables (importer.py):
        # validating each file here would cost ~25 ms a file.
        tables = read_bytes(data, source=task.source_path, strict=task.strict, sha256=task.sha256)
    except DetectionError as exc:
        reason = "empty" if exc.reason == "empty input" else "unknown_format"
        return _failure(reason, error_record(exc))
    except ParseError as exc:
        return _failure("parse_error", error_record(exc))
    except SchemaError as exc:
        return _failure("schema_error", {"reason": str(exc).splitlines()[0]})
    except Exception as exc:  # a parser bug must not stop the import: report it per file
        frame = traceback.extract_tb(exc.__traceback__)[-1]
        where = f"{Path(frame.filename).name}:{frame.lineno}"
        return _failure("parser_crash", {"reason": f"{type(exc).__name__}: {exc} ({where})"})
    cache = Path(task.cache_dir)
    sizes, hashes = {}, {}
    outcome: dict[str, Any] = {"status": "ok"}
    for name in store.TABLES:
        df = getattr(tables, name)
        sizes[name] = len(df)
        if len(df) or name == "runs":
            path = cache / f"{task.sha256}.{name}.parquet"
            tbl = store.to_arrow(df, name)
            setattr(tables, name, None)  # free the pandas copy (samples can be millions)
            if name == "samples":
                # Samples stay on disk, so what the import needs of them is taken here.  They
                # are written as the dataset's samples files are (every column, by run, its
                # row groups), so a large part is linked into the dataset, not rewritten.
                outcome.update(
                    samples_columns=tbl.column_names,
                    samples_fault=store.samples_fault(tbl),
                    censored=store.count_by_run(tbl, "censored"),
                )
                tbl = dataset.sample_file(tbl)
            else:
                arrow[name] = tbl
            store.write_table(tbl, path, sync=False, row_group_size=dataset.ROW_GROUP_ROWS)
            hashes[path.name] = store.file_sha256(path)
    outcome.update(
        tables=sizes,
        files=hashes,
        tools=_tools(arrow["runs"]),
        problems=[error_record(p) for p in tables.problems],
    )
    return outcome


def _tools(runs) -> list[str]:
    """Tools of a file's runs; values typed from a document are marked ``(reported)``."""
    out = set()
    for tool, variant in zip(runs["tool"].to_pylist(), runs["parser_variant"].to_pylist()):
        if tool:
            out.add(f"{tool} (reported)" if variant == "reported-csv" else tool)
    return sorted(out)


def parse_batch(tasks: list[Task]) -> list[dict[str, Any]]:
    return [parse_file(t) for t in tasks]
