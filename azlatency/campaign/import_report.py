"""The import report: where every file went, and what is wrong with the runs that came in.

``files`` has one row per file of the campaign (``status``: ``imported``, ``not_imported``,
``campaign`` for campaign.yaml, ``archive`` for a container whose entries are listed after
it); ``not_imported`` is the subset with a reason; ``quality`` lists runs (or files) with
problems.  The same frames are stored in the store's manifest and printed by
``azlatency import``.  Vocabulary: docs/campaign.md "The import report".
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from .._console import console as _console
from .._console import counted
from ..errors import LOOKED_FOR

FILE_COLUMNS = {
    "path": "str",
    "status": "str",
    "reason": "str",
    "detail": "str",
    "line": "Int64",
    "tools": "str",
    "runs": "Int64",
    "size_bytes": "Int64",
    "sha256": "str",
    "duplicate_of": "str",
}
QUALITY_COLUMNS = {
    "source_path": "str",
    "run_id": "str",
    "tool": "str",
    "issue": "str",
    "detail": "str",
}

# Why a file is not in the tables (docs/campaign.md).
REASONS = {
    "unknown_format": "no known tool output found",
    "parse_error": "a parser rejected it (line given)",
    "empty": "empty or only whitespace",
    "too_large": "over the size limit",
    "refused_entry": "archive entry refused (escaping path, link, expansion limit)",
    "nested_archive": "archive inside an archive (not opened)",
    "corrupt_archive": "archive could not be read (further)",
    "duplicate": "same bytes as another file, imported once",
    "ignored": "matched an ignore glob of campaign.yaml",
    "link": "symbolic link (not followed)",
    "unreadable": "could not be read",
    "parser_crash": "a parser failed unexpectedly (a bug: please report it)",
    "schema_error": "a parser produced a table that breaks the schema (a bug)",
}
ISSUES = {
    "incomplete": "the tool did not finish (no final summary)",
    "warmup_included": "the tool's statistics include its warm-up",
    "loss": "packets / messages lost",
    "dropped": "messages dropped",
    "duplicates": "duplicated replies / messages",
    "out_of_order": "out-of-order messages",
    "errors": "errors reported by the tool",
    "censored": "samples only known to be below a bound (e.g. Windows time<1ms)",
    "interval_values": "statistics only known to lie in an interval",
    "unlabelled_zones": "source or destination zone unknown",
    "unordered_zones": "the two ends' zones are known, not which end ran the client",
    "zone_direction": "a rule's source and destination zones contradict the addresses",
    "zone_conflict": "the campaign puts one host in two zones",
    "label_conflict": "campaign.yaml or the inventory disagrees with the log",
    "repeated_run": "every figure the same as another run's: one run read twice?",
    "reader_problem": "a block was not read (the reason in detail)",
    "parser_warning": "lines skipped or oddities noted by the parser",
}


def frame(records: list[dict[str, Any]], columns: dict[str, str]) -> pd.DataFrame:
    df = pd.DataFrame.from_records(records, columns=list(columns))
    return (
        df.astype(columns)
        if len(df)
        else pd.DataFrame({c: pd.Series([], dtype=t) for c, t in columns.items()})
    )


def _records(df: pd.DataFrame) -> list[dict[str, Any]]:
    out = []
    for row in df.to_dict(orient="records"):
        out.append(
            {
                k: (None if _isna(v) else (v.item() if hasattr(v, "item") else v))
                for k, v in row.items()
            }
        )
    return out


def _isna(value: Any) -> bool:
    try:
        return bool(pd.isna(value))
    except (TypeError, ValueError):
        return False


@dataclass
class ImportReport:
    campaign: str
    raw: Path
    store: Path
    files: pd.DataFrame
    quality: pd.DataFrame
    counts: dict[str, int] = field(default_factory=dict)
    notes: str | None = None
    # How this import ran: not stored in the manifest (the store must not depend on it).
    parsed: int = 0
    reused: int = 0
    workers: int = 1
    seconds: float = 0.0
    changed: bool = True

    @property
    def not_imported(self) -> pd.DataFrame:
        keep = ["path", "reason", "detail", "line", "duplicate_of"]
        return self.files.loc[self.files["status"] == "not_imported", keep].reset_index(drop=True)

    @property
    def imported(self) -> pd.DataFrame:
        return self.files.loc[self.files["status"] == "imported"].reset_index(drop=True)

    def to_dict(self) -> dict[str, Any]:
        """The deterministic part, as stored in ``manifest.json``."""
        return {
            "files": _records(self.files),
            "quality": _records(self.quality),
            "counts": dict(sorted(self.counts.items())),
        }

    @classmethod
    def from_manifest(cls, manifest: dict[str, Any], store: Path) -> ImportReport:
        rep = manifest.get("report", {})
        return cls(
            campaign=manifest.get("campaign", store.name),
            raw=Path(manifest.get("raw", "")),
            store=store,
            files=frame(rep.get("files", []), FILE_COLUMNS),
            quality=frame(rep.get("quality", []), QUALITY_COLUMNS),
            counts=rep.get("counts", {}),
            notes=manifest.get("notes"),
            changed=False,
        )

    def summary_line(self) -> str:
        n = self.files["status"].value_counts()
        how = f"{self.parsed} parsed, {self.reused} reused" + (
            f" on {self.workers} processes" if self.workers > 1 else ""
        )
        c = self.counts
        return (
            f"{self.campaign}: {counted(int(n.get('imported', 0)), 'file')} imported, "
            f"{n.get('not_imported', 0)} not imported; {counted(c.get('runs', 0), 'run')}, "
            f"{counted(c.get('samples', 0), 'sample')}, "
            f"{counted(c.get('summaries', 0), 'summary', plural='summaries')}; "
            f"{counted(len(self.quality), 'quality note')} ({how}, {self.seconds:.1f} s"
            f"{'' if self.changed else ', store unchanged'})"
        )

    def __str__(self) -> str:
        return self.summary_line()

    def print(self, console=None, *, max_rows: int = 12) -> None:
        """Rich summary: imported files per tool, every file not imported, quality notes."""
        console = console or _console()
        console.print(f"[bold]{self.summary_line()}[/bold]", highlight=False)
        console.print(f"store: {self.store}", highlight=False)
        if len(self.imported):
            console.print(self._imported_table())
        if len(self.not_imported):
            t, looked = self._not_imported_table()
            console.print(t)
            if looked:
                console.print(f"looked for: {looked}", highlight=False)
        if len(self.quality):
            for t in self._quality_tables(max_rows):
                console.print(t)

    def _imported_table(self):
        """Imported files and runs per tool."""
        t = _table("imported", ())
        for col in ("tools", "files", "runs"):
            t.add_column(col, justify="right" if col != "tools" else "left")
        grouped = self.imported.groupby("tools", dropna=False).agg(
            files=("path", "size"), runs=("runs", "sum")
        )
        for tools, row in grouped.iterrows():
            t.add_row(str(tools), str(row["files"]), str(row["runs"]))
        return t

    def _not_imported_table(self):
        """Every file not imported with its reason, and the tools an unknown file was compared
        with (said once, below the table; None when no file says it)."""
        t = _table("not imported", ("path", "reason", "detail"))
        looked = None
        for row in self.not_imported.itertuples():
            detail = row.detail if isinstance(row.detail, str) else ""
            if isinstance(row.duplicate_of, str):
                detail = f"duplicate of {row.duplicate_of}"
            detail, sep, tools = detail.partition(LOOKED_FOR)
            if sep:
                looked = tools
                detail += " (the tools looked for are below)"
            t.add_row(row.path, row.reason, detail)
        return t, looked

    def _quality_tables(self, max_rows: int) -> tuple:
        """Quality notes: one row per issue, then the first ``max_rows`` notes in detail."""
        q = self.quality
        t = _table("quality", ("issue", "runs", "files", "meaning"))
        for issue, group in q.groupby("issue", sort=False):
            t.add_row(
                issue,
                str(group.run_id.nunique()),
                str(group.source_path.nunique()),
                ISSUES.get(issue, ""),
            )
        details = _table(
            f"quality details (first {min(max_rows, len(q))} of {len(q)}; "
            "report.quality has them all)",
            ("source_path", "run_id", "issue", "detail"),
        )
        for row in q.head(max_rows).itertuples():
            details.add_row(
                row.source_path,
                row.run_id if isinstance(row.run_id, str) else "",
                row.issue,
                row.detail if isinstance(row.detail, str) else "",
            )
        return t, details

    def to_json(self) -> str:
        data = {
            "campaign": self.campaign,
            "store": str(self.store),
            **self.to_dict(),
            "parsed": self.parsed,
            "reused": self.reused,
            "changed": self.changed,
        }
        return json.dumps(data, indent=1, default=str)


def _table(title: str, columns):
    """A rich table titled ``title`` with ``columns`` that fold (rich loads on first use)."""
    from rich.table import Table

    t = Table(title=title, title_justify="left")
    for col in columns:
        t.add_column(col, overflow="fold")
    return t
