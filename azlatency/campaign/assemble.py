"""Assembly: the per-file results of an import → the campaign's labelled, checked tables.

Per-file tables stay Arrow until the end (1,000 small frames are cheap to concatenate as
Arrow and slow as pandas).  The pandera schema is checked once, on the assembled tables;
only when that fails is every file checked on its own, to name and drop the files at fault.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from .. import schema
from ..errors import SchemaError
from . import labels, quality, sources, store
from .config import Campaign
from .worker import describe_error


def file_row(entry: sources.Entry, status: str, **kw: Any) -> dict[str, Any]:
    """One row of the report's ``files`` frame."""
    return {
        "path": entry.path,
        "status": status,
        "size_bytes": entry.size,
        "sha256": entry.sha256,
        **kw,
    }


class Parts:
    """The per-file Arrow tables of the files that made it in, in file order, and the
    report's ``files`` rows of every parsed file."""

    def __init__(self) -> None:
        self.files: list[dict[str, Any]] = []
        self.kept: list[dict[str, Any]] = []

    def add(self, entry: sources.Entry, outcome: dict[str, Any], cache: Path) -> None:
        sha = entry.sha256
        if outcome["status"] != "ok":
            err = outcome.get("error") or {}
            self.files.append(
                file_row(
                    entry,
                    "not_imported",
                    reason=outcome["reason"],
                    detail=describe_error(err),
                    line=err.get("line"),
                )
            )
            return
        arrow = outcome.get("arrow") or {}  # tables parsed just now; reused ones are read

        def table(name: str) -> pa.Table | None:
            if not outcome["tables"].get(name) and name != "runs":
                return None
            got = arrow.get(name)
            return got if got is not None else pq.read_table(cache / f"{sha}.{name}.parquet")

        runs = table("runs")
        at = runs.column_names.index("source_path")
        runs = runs.set_column(at, "source_path", pa.array([entry.path] * len(runs), pa.string()))
        row = file_row(entry, "imported", tools=", ".join(outcome["tools"]), runs=len(runs))
        has_samples = bool(outcome["tables"].get("samples"))
        item = {
            "row": row,
            "runs": runs,
            "problems": outcome.get("problems", []),
            "summaries": table("summaries"),
            # samples stay in the cache file: streamed into the store, never all in memory
            "samples": cache / f"{sha}.samples.parquet" if has_samples else None,
            "samples_columns": outcome.get("samples_columns", []),
            "samples_rows": outcome["tables"].get("samples", 0),
            "censored": outcome.get("censored", {}),
        }
        self.files.append(item["row"])
        self.kept.append(item)
        if outcome.get("samples_fault"):
            self.reject(item, outcome["samples_fault"])

    def reject(self, item: dict[str, Any], detail: str) -> None:
        item["row"].update(
            status="not_imported", reason="schema_error", detail=detail, tools=None, runs=None
        )
        self.kept.remove(item)

    def frame(self, table: str, items: list[dict[str, Any]] | None = None) -> pd.DataFrame:
        parts = [i[table] for i in (self.kept if items is None else items) if i[table] is not None]
        return store.from_arrow(store.unify(parts, table), table)

    def find_culprits(self) -> bool:
        """Validate file by file (~25 ms a file, so only after the whole campaign failed);
        reject the files at fault.  False when no single file explains the failure."""
        found = False
        for item in list(self.kept):
            try:
                schema.validate("runs", self.frame("runs", [item]))
                schema.validate("summaries", self.frame("summaries", [item]))
            except SchemaError as exc:
                lines = str(exc).splitlines()
                self.reject(item, " ".join([lines[0], *lines[1:3]]))
                found = True
        return found

    def problems(self) -> list[dict[str, Any]]:
        return [
            {
                "source_path": i["row"]["path"],
                "run_id": None,
                "tool": p.get("tool"),
                "issue": "reader_problem",
                "detail": describe_error(p),
            }
            for i in self.kept
            for p in i["problems"]
        ]


@dataclass
class Assembled:
    runs: pd.DataFrame  # labelled
    summaries: pa.Table
    samples: list[Path]  # per-file cache parts, in file order
    samples_runs: list[list[str]]  # run_ids of each part's file
    samples_columns: set[str]
    samples_rows: int
    quality: list[dict[str, Any]]


def _samples_of(kept: list[dict[str, Any]]) -> quality.SamplesOf:
    """Reads the samples of the runs asked for from the files' cache parts."""

    def read(run_ids: list[str]) -> pd.DataFrame:
        wanted = set(run_ids)
        frames = [
            pq.read_table(i["samples"], filters=[("run_id", "in", sorted(here))]).to_pandas()
            for i in kept
            if (here := wanted.intersection(i["runs"].column("run_id").to_pylist()))
        ]
        return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame()

    return read


def tables(parts: Parts, cfg: Campaign, name: str) -> Assembled:
    """Labelled runs, summaries, the samples parts to stream and the quality rows."""
    while True:  # pandera once on the whole campaign, not on every file
        runs, label_issues = labels.label_runs(parts.frame("runs"), cfg, name)
        summaries = store.unify(
            [i["summaries"] for i in parts.kept if i["summaries"] is not None], "summaries"
        )
        try:
            schema.validate("runs", runs)
            schema.validate("summaries", store.from_arrow(summaries, "summaries"))
            break
        except SchemaError:
            if not parts.find_culprits():
                raise
    kept = [i for i in parts.kept if i["samples"] is not None]
    censored = {rid: n for i in kept for rid, n in i["censored"].items()}
    figures = summaries.select(list(quality.FIGURES)).to_pandas()
    notes = quality.assess(
        runs, censored, figures, parts.problems() + label_issues, _samples_of(kept)
    )
    return Assembled(
        runs=runs,
        summaries=summaries,
        samples=[i["samples"] for i in kept],
        samples_runs=[i["runs"].column("run_id").to_pylist() for i in kept],
        samples_columns={c for i in kept for c in i["samples_columns"]},
        samples_rows=sum(i["samples_rows"] for i in kept),
        quality=notes,
    )
