"""The quality list of an import: runs that are in the tables but need a second look.

Each row names the file, the run, an issue from
:data:`azlatency.campaign.import_report.ISSUES` and a detail.
Nothing here changes the tables; analyses decide what to do with, say, an incomplete run.
"""

from __future__ import annotations

from typing import Any

import pandas as pd

from .import_report import ISSUES

_COUNTS = (  # run column → issue, when the count is above zero
    ("dropped", "dropped"),
    ("duplicates", "duplicates"),
    ("out_of_order", "out_of_order"),
    ("errors", "errors"),
)
_ORDER = {issue: i for i, issue in enumerate(ISSUES)}


def _false(value: Any) -> bool:
    return value is not None and not pd.isna(value) and not bool(value)


def _num(value: Any) -> float | None:
    return None if value is None or pd.isna(value) else float(value)


def assess(
    runs: pd.DataFrame,
    censored: dict[str, int],
    summaries: pd.DataFrame,
    extra: list[dict[str, Any]],
) -> list[dict[str, Any]]:
    """Quality rows for ``runs``; ``censored`` counts censored samples per run (taken when
    each file was parsed); ``extra`` adds rows found elsewhere (labels, reader)."""
    bounded = summaries[summaries["bound_low"].notna() | summaries["bound_high"].notna()]
    intervals = bounded.groupby("run_id").size().to_dict() if len(bounded) else {}
    rows: list[dict[str, Any]] = list(extra)
    for run in runs.itertuples(index=False):
        found: list[tuple[str, str]] = []
        if _false(run.complete):
            found.append(("incomplete", "no final summary: the run may have been cut short"))
        if _false(run.warmup_excluded):
            found.append(("warmup_included", "statistics include the tool's warm-up"))
        loss = _num(run.loss_pct)
        if loss:
            sent, got = run.packets_sent, run.packets_received
            counts = f" ({got} of {sent} received)" if not pd.isna(sent) else ""
            found.append(("loss", f"{loss:g}% lost{counts}"))
        for column, issue in _COUNTS:
            n = _num(getattr(run, column))
            if n:
                found.append((issue, f"{column} = {int(n)}"))
        if censored.get(run.run_id):
            found.append(("censored", f"{censored[run.run_id]} censored samples"))
        if intervals.get(run.run_id):
            found.append(
                ("interval_values", f"{intervals[run.run_id]} statistics known only as an interval")
            )
        if isinstance(run.warnings, str) and run.warnings:
            found.append(("parser_warning", run.warnings[:300]))
        rows.extend({"run_id": run.run_id, "issue": i, "detail": d} for i, d in found)
    by_id = runs.set_index("run_id")[["source_path", "tool"]].to_dict(orient="index")
    for row in rows:
        info = by_id.get(row.get("run_id"), {})
        row.setdefault("source_path", info.get("source_path"))
        row.setdefault("tool", info.get("tool"))
    rows.sort(
        key=lambda r: (
            str(r.get("source_path")),
            str(r.get("run_id") or ""),
            _ORDER.get(r["issue"], 99),
            str(r.get("detail")),
        )
    )
    return rows
