"""Saying a before/after comparison: benchstat-style tables, findings in sentences,
Markdown for a page or a pull request, the gate's JUnit suites and GitHub annotations, and the
figure of notebook 60 (the data and the statistics: :mod:`._before_after`)."""

from __future__ import annotations

from xml.etree import ElementTree as ET

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from .. import plots
from ..stats.before_after import change_text, margin_text
from ._before_after import STATS, Comparison, condition_label
from ._show import counted, fmt

# ---------------------------------------------------------------------------------------------
# Saying it


def value_text(value: float, unit: str) -> str:
    """A run-level centre in readable units (``'142.1 µs'``, ``'11.38 Gbit/s'``, ``'0 %'``)."""
    if value is None or pd.isna(value):
        return "—"
    if unit == "pct":
        return f"{value:.3g} %"
    return fmt(value, unit)


def change_cell(r: dict) -> str:
    """benchstat's change column: the change with its interval, ``~`` in front where it is not
    significant, ``n/a`` where nothing was tested."""
    if r["verdict"] == "not tested" or not np.isfinite(r["estimate"]):
        return "n/a"
    text = change_text(r).replace(f" ({r['level']:.0%} CI ", " (")
    return text if r["significant"] else f"~ {text}"


def verdict_cell(r: dict) -> str:
    """``worse, beyond ±10 %: FAILS``, ``worse, within ±10 %``, ``same ±10 %``, ``~``, or what
    is needed."""
    m = margin_text(r)
    if r["verdict"] == "worse":
        return f"worse, beyond {m}: FAILS" if r["gate"] == "fail" else f"worse, within {m}"
    if r["verdict"] == "same":
        return f"same {m}"
    if r["verdict"] == "not tested":
        return str(r["note"]).split("; ")[0]
    return r["verdict"]


def _p_cell(r: dict) -> str:
    return "" if not np.isfinite(r["p_adj"]) else f"{r['p_adj']:.2g}"


def sections(cmp: Comparison) -> list[tuple[str, pd.DataFrame]]:
    """One table per metric and statistic, benchstat style: condition, before, after, runs,
    change (interval), Holm-adjusted p, verdict; a ``geomean`` row last."""
    out = []
    t = cmp.table
    order = {s: i for i, s in enumerate(STATS)}
    groups = t.assign(_o=t["stat"].map(order)).groupby(["_o", "metric", "stat"], sort=True)
    for (_, metric, stat), g in groups:
        rows = [
            {
                "condition": r["condition"],
                cmp.before: value_text(r["before"], r["unit"]),
                cmp.after: value_text(r["after"], r["unit"]),
                "runs": f"{r['n_runs_before']} / {r['n_runs_after']}",
                f"change ({cmp.level:.0%} CI)": change_cell(r),
                "p (Holm)": _p_cell(r),
                "verdict": verdict_cell(r),
            }
            for r in g.to_dict("records")
        ]
        geo = cmp.geomean[(cmp.geomean["metric"] == metric) & (cmp.geomean["stat"] == stat)]
        for r in geo.to_dict("records"):
            rows.append(
                {
                    "condition": "geomean",
                    cmp.before: value_text(r["before"], r["unit"]),
                    cmp.after: value_text(r["after"], r["unit"]),
                    "runs": "",
                    f"change ({cmp.level:.0%} CI)": f"{r['change_pct']:+.1f} %",
                    "p (Holm)": "",
                    "verdict": "",
                }
            )
        out.append((_title(metric, stat), pd.DataFrame(rows)))
    return out


def _title(metric: str, stat: str) -> str:
    if stat == "throughput":
        return f"throughput ({metric}, higher is better)"
    if stat == "loss":
        return "loss (percent of packets, lower is better)"
    basis = {"rtt": "round trip", "half_rtt": "half round trip"}.get(metric, metric)
    return f"{stat} latency ({basis}, lower is better)"


def _md_table(df: pd.DataFrame) -> str:
    cells = [[str(c).replace("|", "\\|") for c in row] for row in df.itertuples(index=False)]
    head = "| " + " | ".join(df.columns) + " |"
    rule = "|" + "---|" * len(df.columns)
    return "\n".join([head, rule, *("| " + " | ".join(c) + " |" for c in cells)])


def findings(cmp: Comparison) -> str:
    """The answer first, in sentences: what changed (significant, with the interval), what is
    the same within the margin, what could not be tested, what is on one side only."""
    t = cmp.table
    v = t["verdict"]
    # '6 ~' was not said, nor that an interval excluding no change may stand beside a '~'
    # (+38.9 %, 95% CI +4.7 to +84.4 %, Holm-adjusted p 0.34): each is its row's own
    counts = ", ".join(
        f"{n} " + ("inconclusive, marked ~" if k == "~" else str(k))
        for k, n in v.value_counts().items()
    )
    lines = [
        f"**{cmp.after} against {cmp.before}:** {counted(len(t), 'comparison')} "
        f"({counts}); the run is the unit, p-values Holm-adjusted over the table "
        f"(each {cmp.level:.0%} interval is its row's own, not adjusted), equivalence within "
        f"±{cmp.margin:.0%} (loss ±{cmp.loss_margin:g} points)."
    ]
    if cmp.synthetic:
        lines.insert(0, f"**Synthetic data:** {', '.join(cmp.synthetic)} (azlatency synth).\n")
    # one scenario, named (campaigns without scenarios printed '- Scenario: nan')
    one = "scenario" in t.columns and t["scenario"].nunique(dropna=False) == 1
    if one and pd.notna(scenario := t["scenario"].iloc[0]) and str(scenario):
        lines.append(f"- Scenario: {scenario} (every condition below).")
    for what, (b, a) in cmp.differences.items():
        lines.append(f"- Changed between the campaigns: {what} {b} → {a}.")
    for r in t[t["significant"]].to_dict("records"):
        lines.append(f"- **{r['condition']}, {r['stat']}: {r['verdict']}**, {change_cell(r)}.")
    same = t[v == "same"]
    if len(same):
        lines.append(
            f"- The same within its margin: {len(same)} ({', '.join(sorted(set(same['stat'])))})."
        )
    if (v == "not tested").any():
        lines.append(f"- Not tested: {int((v == 'not tested').sum())} (too few runs a side).")
    for side, names in only_labels(cmp).items():
        if names:
            lines.append(f"- Only in {getattr(cmp, side)}: {'; '.join(names)}.")
    return "\n".join(lines)


def only_labels(cmp: Comparison) -> dict[str, list[str]]:
    """The conditions on one side only, labelled over both sides together: an iperf3 TCP run
    before and a UDP one after were 'Only in before: iperf3' and 'Only in after: iperf3';
    now 'iperf3 · protocol=tcp · msg_size_bytes=131072' and '... protocol=udp ...'."""
    sides = [("before", cmp.only_before), ("after", cmp.only_after)]
    parts = [f.assign(_side=s) for s, f in sides if len(f)]
    if not parts:
        return {"before": [], "after": []}
    both = pd.concat(parts, ignore_index=True)
    keys = [k for k in cmp.keys if k in both.columns and k not in ("metric", "stat")]
    both["_label"] = condition_label(both, keys)
    return {s: both.loc[both["_side"] == s, "_label"].tolist() for s, _ in sides}


def comparison_markdown(cmp: Comparison, *, heading: str = "##") -> str:
    """The whole comparison as Markdown (a page, a pull-request comment): findings, one
    table per statistic, what is on one side only and what no run gives."""
    parts = [findings(cmp)]
    if cmp.scenarios:
        mapped = ", ".join(f"`{k}` → `{v}`" for k, v in cmp.scenarios.items())
        parts.append(f"Scenarios paired by name, and {mapped}.")
    for title, df in sections(cmp):
        parts += [f"{heading} {title}", _md_table(df)]
    labels = only_labels(cmp)
    for side, frame in (("before", cmp.only_before), ("after", cmp.only_after)):
        if len(frame):
            shown = frame.assign(condition=labels[side])[["condition", "runs", "stats"]]
            parts += [f"{heading} Only in {getattr(cmp, side)}", _md_table(shown)]
    if len(cmp.not_comparable):
        nc = cmp.not_comparable.assign(condition=condition_label(cmp.not_comparable, cmp.keys))
        parts += [f"{heading} Not comparable", _md_table(nc[["condition", "stat", "why"]])]
    return "\n\n".join(parts) + "\n"


# ---------------------------------------------------------------------------------------------
# The gate: `azlatency check --baseline`


def _what(r: dict) -> str:
    return f"{r['condition']}: {r['stat']} ({r['metric']})"


def nothing_compared(cmp: Comparison) -> str:
    """Why a comparison has no row, and what to do (the gate fails on it: nothing checked is
    no pass)."""
    return (
        f"no condition was measured in both campaigns ({len(cmp.only_before)} only in "
        f"{cmp.before}, {len(cmp.only_after)} only in {cmp.after}); where scenario names "
        "differ, map them (--map OLD=NEW, or campaign.yaml's `baseline: scenarios:`)."
    )


def gate_lines(cmp: Comparison) -> list[str]:
    """One sentence per row the gate fails, and per significant change for the worse within
    the margin (``azlatency check``'s summary)."""
    out = []
    for r in cmp.table[cmp.table["verdict"] == "worse"].to_dict("records"):
        what = "FAILS" if r["gate"] == "fail" else f"worse, within {margin_text(r)}"
        out.append(
            f"{_what(r)}: {what}: {value_text(r['before'], r['unit'])} → "
            f"{value_text(r['after'], r['unit'])}, {change_text(r)}, Holm-adjusted "
            f"p = {r['p_adj']:.2g}"
        )
    return out


def gate_junit(cmp: Comparison) -> list:
    """JUnit test suites (``ElementTree`` elements) of the gate: one suite per metric and
    statistic, one case per condition; a failure where the gate fails, skipped where the row
    could not be tested."""

    suites = []
    for (metric, stat), part in cmp.table.groupby(["metric", "stat"], sort=False):
        gate = part["gate"]
        suite = ET.Element(
            "testsuite",
            name=f"{stat} {metric} against {cmp.before}",
            tests=str(len(part)),
            failures=str(int((gate == "fail").sum())),
            skipped=str(int((gate == "not tested").sum())),
        )
        for r in part.to_dict("records"):
            case = ET.SubElement(
                suite, "testcase", classname=f"{cmp.after}.{r['condition']}", name=f"{stat}"
            )
            message = f"{change_text(r)}; margin {margin_text(r)}"
            if r["gate"] == "fail":
                ET.SubElement(case, "failure", message=message).text = r["caption"]
            elif r["gate"] == "not tested":
                ET.SubElement(case, "skipped", message=f"not tested: {r['note']}")
        suites.append(suite)
    return suites


def _escape(text: str, title: bool = False) -> str:
    text = text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    return text.replace(",", "%2C").replace("::", "%3A%3A") if title else text


def gate_annotations(cmp: Comparison) -> list[str]:
    """GitHub Actions workflow commands: ``::error`` where the gate fails, ``::warning`` for a
    significant change for the worse within the margin, and one ``::warning`` counting the
    rows that could not be tested."""
    out = []
    for r in cmp.table[cmp.table["verdict"] == "worse"].to_dict("records"):
        level = "error" if r["gate"] == "fail" else "warning"
        title = _escape(f"{cmp.after} vs {cmp.before}: {r['stat']} {r['condition']}", True)
        out.append(f"::{level} title={title}::{_escape(r['caption'])}")
    untested = cmp.table[cmp.table["gate"] == "not tested"]
    if len(untested):
        title = _escape(f"{cmp.after} vs {cmp.before}: not tested", True)
        body = f"{counted(len(untested), 'comparison')} not tested: " + "; ".join(
            f"{r['condition']} {r['stat']} ({r['note']})" for r in untested.to_dict("records")
        )
        out.append(f"::warning title={title}::{_escape(body)}")
    return out


def gate_markdown(cmp: Comparison) -> str:
    """The gate's verdict for a pull-request comment (``$GITHUB_STEP_SUMMARY``): the result
    line, the failing rows, then the whole comparison folded away."""
    failed = cmp.failed
    t = cmp.table
    if t.empty:
        return (
            f"### azlatency check: `{cmp.after}` against its baseline `{cmp.before}`\n\n"
            f"**NOTHING COMPARED**: {nothing_compared(cmp)}\n"
        )
    head = f"### azlatency check: `{cmp.after}` against its baseline `{cmp.before}`\n\n" + (
        f"**FAIL**: {len(failed)} of {counted(len(t), 'comparison')} "
        f"{'is' if len(failed) == 1 else 'are'} worse beyond the margin "
        f"(±{cmp.margin:.0%}; loss ±{cmp.loss_margin:g} pt), significant after Holm "
        f"at {cmp.level:.0%}."
        if len(failed)
        else f"**PASS**: no comparison is significantly worse beyond the margin "
        f"(±{cmp.margin:.0%}; loss ±{cmp.loss_margin:g} pt) at {cmp.level:.0%} "
        f"({len(t)} compared, {int((t['verdict'] == 'same').sum())} shown the same)."
    )
    parts = [head]
    if len(failed):
        rows = pd.DataFrame(
            {
                "condition": failed["condition"],
                "statistic": failed["stat"],
                cmp.before: [value_text(v, u) for v, u in zip(failed["before"], failed["unit"])],
                cmp.after: [value_text(v, u) for v, u in zip(failed["after"], failed["unit"])],
                f"change ({cmp.level:.0%} CI)": [change_cell(r) for r in failed.to_dict("records")],
                "p (Holm)": [_p_cell(r) for r in failed.to_dict("records")],
            }
        )
        parts.append(_md_table(rows))
    parts.append(
        "<details><summary>Every comparison</summary>\n\n"
        + comparison_markdown(cmp, heading="####")
        + "\n</details>"
    )
    return "\n\n".join(parts) + "\n"


def change_figure(cmp: Comparison, *, width: float = 7.16):
    """One panel per metric and statistic (ratios only; loss is in the tables): every
    condition's change after / before with its interval, the margin shaded, the
    Holm-adjusted p-value at the right."""

    t = cmp.table[(cmp.table["scale"] == "ratio") & cmp.table["estimate"].notna()]
    groups = [(k, g) for k, g in t.groupby(["stat", "metric"], sort=False)]
    heights = [plots.rows_height(len(g)) for _, g in groups] or [1.0]
    fig, axes = plt.subplots(
        max(1, len(groups)), 1, figsize=(width, sum(heights)), squeeze=False,
        gridspec_kw={"height_ratios": heights}, layout="constrained",
    )  # fmt: skip
    for ax, ((stat, metric), g) in zip(axes[:, 0], groups):
        ax.axvspan(1 - cmp.margin, 1 + cmp.margin, color="0.85", lw=0, label="margin")
        plots.forest(g, label="condition", p="p_adj", xlabel=f"{cmp.after} / {cmp.before}", ax=ax)
        ax.set_title(_title(metric, stat), loc="left", fontsize="medium")
        lo, hi = ax.get_xlim()
        ticks = [x for x in RATIO_TICKS if lo <= x <= hi]
        ax.set_xticks(ticks, [f"{x:g}" for x in ticks], minor=False)
        ax.set_xticks([], minor=True)
    return fig


RATIO_TICKS = (0.2, 0.3, 0.5, 0.6, 0.7, 0.8, 0.9, 1, 1.1, 1.2, 1.3, 1.5, 2, 3, 5)
