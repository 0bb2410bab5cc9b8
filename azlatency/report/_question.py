"""What a campaign says of itself (``campaign.yaml``'s question) and the tables its write-up
published, with our own runs' figures beside them.  The answer to the question is
``report._answer``."""

from __future__ import annotations

import json
import os

import numpy as np
import pandas as pd

from .. import paths
from ..campaign.load import about as _about
from ..schema import Tables

PathLike = str | os.PathLike[str]


def about(campaign: str, data_root: PathLike | None = None) -> dict:
    """``name``, ``description``, ``question`` and ``compare`` of an imported campaign."""

    return _about(campaign, paths.processed_dir(data_root))


def author_tables(tables: Tables, *, ours: bool = False) -> dict[str, pd.DataFrame]:
    """The tables a campaign's write-up published (its ``reported_csv`` files), as published:
    one table per file, a row per scenario (in the file's order), a column per statistic (or
    per window when the file gives windows of one run), the numbers as printed with the unit
    in the column's name.  Keyed by the file.

    ``ours=True`` puts beside each statistic the same figure from the campaign's own runs of
    that scenario (:func:`ours_beside`), where it has any."""

    runs = tables.runs
    rep_runs = runs[
        runs["tool"].notna() & runs["parser_variant"].astype(str).str.startswith("reported")
    ]
    out: dict[str, pd.DataFrame] = {}
    for source, part in rep_runs.groupby("source_path", sort=True):
        part = part.sort_values("line_start")
        s = tables.summaries[tables.summaries["run_id"].isin(part["run_id"])]
        if s.empty:
            continue
        windows = part["labels"].map(
            lambda x: json.loads(x).get("window") if isinstance(x, str) and x else None
        )
        meta = part.assign(_window=windows)[["run_id", "scenario", "_window", "line_start"]]
        s = s.merge(meta, on="run_id")
        s["_row"] = s["scenario"].astype(str)
        by_window = s["_window"].notna().any()
        stats = s["stat"].astype(str)
        basis = s["metric"].astype(str)
        unit = s["unit"].astype(str).replace({"us": "µs"})
        if by_window:
            s["_col"] = s["_window"].astype(str) + " — " + stats + " " + basis + " (" + unit + ")"
        else:
            s["_col"] = stats + " " + basis + " (" + unit + ")"
        s = s.sort_values(["line_start"], kind="stable")
        # a range as published ("55..61.09": the value is its high end), not one number
        ranged = s["level"].isna() & s["bound_low"].notna() & (s["value"] == s["bound_high"])
        if ranged.any():
            s["value"] = s["value"].astype(object)
            s.loc[ranged, "value"] = [
                f"{lo:g}..{hi:g}"
                for lo, hi in zip(s.loc[ranged, "bound_low"], s.loc[ranged, "value"])
            ]
        table = s.pivot_table(
            index="_row", columns="_col", values="value", aggfunc="first", sort=False
        )
        table = table.reindex(
            index=list(dict.fromkeys(s["_row"])), columns=list(dict.fromkeys(s["_col"]))
        )
        table.index.name = "scenario"
        table.columns.name = None
        table = table.reset_index()
        if not by_window:  # the file's other columns (label:broke_at, ...), as printed
            labels = part["labels"].map(lambda x: json.loads(x) if isinstance(x, str) and x else {})
            keys = [k for k in dict.fromkeys(k for d in labels for k in d) if k != "note"]
            for i, k in enumerate(keys, 1):
                table.insert(i, k, [d.get(k) for d in labels])
            if ours:
                table = ours_beside(tables, table, s)
        out[str(source)] = table
    return out


def ours_beside(tables: Tables, table: pd.DataFrame, published: pd.DataFrame) -> pd.DataFrame:
    """``table`` (an :func:`author_tables` table) with an ``ours — <column>`` column after
    each statistic the campaign's own runs of the row's scenario also give: each run's figure
    (the unit of analysis is the run), printed by the tool where it printed one, else computed
    from the run's samples, e.g. ``2026.4, 2026.51 (2 runs, printed)``.  Rows without runs of
    their own stay empty; a statistic no row has is left out."""
    runs = tables.runs
    own = runs[~runs["parser_variant"].astype(str).str.startswith("reported")]
    cols = published.drop_duplicates("_col").set_index("_col")[["stat", "metric"]]
    out = table.copy()
    for col in [c for c in table.columns if c in cols.index]:
        stat, metric = str(cols.loc[col, "stat"]), str(cols.loc[col, "metric"])
        cells = [
            _ours(tables, own[own["scenario"].astype(str) == str(row)], stat, metric)
            for row in table["scenario"]
        ]
        if any(cells):
            out.insert(out.columns.get_loc(col) + 1, f"ours — {col}", cells)
    return out


def _ours(tables: Tables, runs: pd.DataFrame, stat: str, metric: str) -> str:
    """One cell of :func:`ours_beside`: the runs' figures for ``stat`` of ``metric``."""
    s, samples = tables.summaries, tables.samples
    values, how, counted = [], set(), 0
    for rid in runs.sort_values(["source_path", "line_start"])["run_id"]:
        printed = s[(s["run_id"] == rid) & (s["metric"] == metric) & (s["stat"] == stat)]
        printed = printed[printed["source"] == "reported"]
        if len(printed):
            values.append(float(printed["value"].iloc[0]))
            how.add("printed")
            continue
        column = f"{metric}_us"
        if samples is None or column not in samples:
            continue
        mine = samples[(samples["run_id"] == rid) & (samples["status"] == "ok")][column]
        x = mine.dropna().to_numpy(dtype="float64")
        got = _stat_of(x, stat)
        if got is not None:
            values.append(got)
            counted += len(x)
    if not values:
        return ""
    if counted:
        how.add(f"from {counted:,} samples")
    shown = ", ".join(f"{v:.6g}" for v in values)
    n = len(values)
    return f"{shown} ({n} run{'s' if n > 1 else ''}, {' and '.join(sorted(how))})"


def _stat_of(x: np.ndarray, stat: str) -> float | None:
    if not len(x):
        return None
    if stat in ("mean", "min", "max"):
        return float(getattr(np, stat)(x))
    if stat == "std":
        return float(np.std(x, ddof=1)) if len(x) > 1 else None
    if stat.startswith("p"):
        try:
            q = float(stat[1:])
        except ValueError:
            return None
        return float(np.quantile(x, q / 100)) if 0 <= q <= 100 else None
    return None
