"""A campaign page's first lines: the campaign's question and its answer, with numbers.

``campaign.yaml`` may say what the campaign was run to find out (``question:``) and what it
compares (``compare: placement | zone pair | message size | VM size | accelerated
networking``); without ``compare`` the page takes the factor most of the campaign's one-factor
contrasts vary.  The answer is one sentence per contrast: which side is slower and by how
much (a ratio ≥ 1, so "cross-region is 6.24× same-zone" reads as the write-ups do), the
interval and the unit of analysis when runs allow a test, or "printed values, one run each: no
test" — never a range of unrelated numbers.
"""

from __future__ import annotations

import os

import numpy as np
import pandas as pd

from ..schema import Tables
from ._compare import FACTOR_NAMES, contrasts

PathLike = str | os.PathLike[str]
COMPARE_FACTOR = {
    "placement": "placement",
    "message size": "msg_size_bytes",
    "VM size": "vm_size",
    "accelerated networking": "accelerated_networking",
}


def about(campaign: str, data_root: PathLike | None = None) -> dict:
    """``name``, ``description``, ``question`` and ``compare`` of an imported campaign."""
    from ..campaign.load import about as _about
    from ._data import processed_root

    return _about(campaign, processed_root(data_root))


_PRETTY = {
    "same_zone": "same zone",
    "cross_zone": "cross-zone",
    "cross_region": "cross-region",
    "availability_set": "availability set",
    "ppg": "proximity placement group",
    "same_node": "same node",
}


def _pretty(value) -> str:
    return _PRETTY.get(str(value), str(value))


def _sentence(r) -> str:
    est = float(r.estimate)
    slow, fast, ratio = (r.a, r.b, est) if est >= 1 else (r.b, r.a, 1 / est)
    what = f"{r.stat} {r.basis}" if isinstance(r.basis, str) else str(r.stat)
    printed = str(r.unit_of_analysis) == "printed value"
    values = ""
    if printed:  # the two printed figures are the ratio's terms; a tested ratio is the runs'
        v_slow, v_fast = (r.value_a, r.value_b) if est >= 1 else (r.value_b, r.value_a)
        values = f" {v_slow:.4g} vs {v_fast:.4g} µs"
    head = f"**{_pretty(slow)} is {ratio:.2f}× {_pretty(fast)}** ({r.context}; {what}{values})"
    if bool(r.testable) and np.isfinite(r.ci_low) and np.isfinite(r.ci_high):
        lo, hi = (r.ci_low, r.ci_high) if est >= 1 else (1 / r.ci_high, 1 / r.ci_low)
        p = f"; p = {r.p_adj:.2g} ({r.test}, adjusted)" if pd.notna(r.p_adj) else ""
        return (
            f"{head}: {r.level:.0%} CI of the ratio {lo:.2f} to {hi:.2f}; unit: "
            f"{r.unit_of_analysis}, {int(r.n_runs_a)} vs {int(r.n_runs_b)} runs{p}."
        )
    if str(r.unit_of_analysis) == "printed value":
        n = "one run each" if r.n_runs_a == 1 and r.n_runs_b == 1 else "no samples"
        return f"{head}: printed values, {n}: no test."
    return f"{head}: no interval ({r.note})." if isinstance(r.note, str) and r.note else f"{head}."


def campaign_answer(
    tables: Tables, question: str | None = None, compare: str | None = None, *, level=0.95
) -> tuple[str, pd.DataFrame]:
    """(Markdown: the question and its answer, the contrasts it rests on)."""
    c = contrasts(tables, level=level)
    factor = COMPARE_FACTOR.get(compare or "")
    inferred = False
    if factor is None and compare != "zone pair" and len(c):
        factor, inferred = c["factor"].value_counts().idxmax(), True
    lines = [f"**Question.** {question}" if question else "**Question** (not stated in "
             "campaign.yaml): what differs between the conditions this campaign measured?"]  # fmt: skip
    if compare == "zone pair":
        return "\n\n".join(lines + [_zone_answer(tables, level)]), c.iloc[0:0]
    rows = c[c["factor"] == factor] if factor is not None else c.iloc[0:0]
    if rows.empty:
        lines.append("**Answer.** Nothing to compare: no two latency runs differ in "
                     f"{FACTOR_NAMES.get(factor or '', compare or 'one factor')} alone.")  # fmt: skip
        return "\n\n".join(lines), rows
    name = FACTOR_NAMES.get(factor, factor)
    how = (
        " (the factor most contrasts vary; campaign.yaml's `compare:` says it)" if inferred else ""
    )
    lines.append(f"**Answer, by {name}{how}:**")
    lines.append("\n".join(f"- {_sentence(r)}" for r in rows.itertuples(index=False)))
    return "\n\n".join(lines), rows


def _zone_answer(tables: Tables, level: float) -> str:
    from ._zones import zone_pair_medians

    m = zone_pair_medians(tables, level=level)
    if m.empty:
        return "**Answer.** No latency run has both zones labelled."
    m = m.dropna(subset=["estimate"]).sort_values("estimate")
    if len(m) < 2:
        return "**Answer.** One zone pair only: nothing to compare it with."
    lo, hi = m.iloc[0], m.iloc[-1]
    unit = "runs" if (m.get("n_runs", pd.Series([1])) > 1).any() else "packets of one run"
    return (
        f"**Answer, by zone pair:** {len(m)} pairs; the slowest, {hi.src_zone}→{hi.dst_zone} "
        f"({hi.estimate:.4g} µs median {hi.basis}), is {hi.estimate / lo.estimate:.2f}× the "
        f"fastest, {lo.src_zone}→{lo.dst_zone} ({lo.estimate:.4g} µs); unit: {unit}. The zone "
        "matrix below gives every pair with its interval."
    )


def author_tables(tables: Tables, *, ours: bool = False) -> dict[str, pd.DataFrame]:
    """The tables a campaign's write-up published (its ``reported_csv`` files), as published:
    one table per file, a row per scenario (in the file's order), a column per statistic (or
    per window when the file gives windows of one run), the numbers as printed with the unit
    in the column's name.  Keyed by the file.

    ``ours=True`` puts beside each statistic the same figure from the campaign's own runs of
    that scenario (:func:`ours_beside`), where it has any."""
    import json

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
