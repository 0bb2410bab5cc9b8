"""Before and after: ``azlatency compare``, ``azlatency check --baseline`` and notebook 60.

Two imported campaigns are paired condition by condition — scenario, zone pair, tool, and
what defines the measurement (mode, protocol, message size, direction, streams, role) — and
each run gives one value per statistic: its p50, p99, p99.9 and mean latency (from its
samples, or as the tool printed them), its throughput, its loss.  Placement, accelerated
networking and VM size join the pairing only where they vary inside a campaign; where each
campaign has one value of them and the two differ, that difference is the change under test
and is named (``Comparison.differences``).  Scenarios pair by their labels; ``scenarios``
maps a baseline label onto the other campaign's where the names differ.  What exists on one
side only is listed, never dropped in silence.

The statistics are :func:`azlatency.stats.before_after`'s (the run as the unit, Holm over the
table, the equivalence test, the gate); this module finds the runs and says the result to a
terminal, a pull-request comment (Markdown), a CI test report (JUnit) and a GitHub job.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from .. import schema, stats, units
from ..schema import Tables
from ..stats.before_after import COLUMNS as AB_COLUMNS
from ..stats.before_after import change_text, margin_text
from ._compare import prefer_samples, sampled_runs
from ._data import processed_root, synthetic
from ._show import fmt

PathLike = str | os.PathLike[str]
STATS = ("p50", "p99", "p99.9", "mean", "throughput", "loss")
LATENCY = ("p50", "p99", "p99.9", "mean")
BASE = ("scenario", "src_zone", "dst_zone", "tool")
# What defines a measurement: always part of the pairing.
MEASUREMENT = ("mode", "protocol", "msg_size_bytes", "direction", "streams", "role")
# What a change often is: part of the pairing only where it varies inside a campaign.
CONDITIONS = ("placement", "accelerated_networking", "vm_size")
DESCRIBED = (*CONDITIONS, "region")
THROUGHPUT = ("throughput_receiver", "throughput", "throughput_sender")
DEFAULT_MARGIN = 0.10
DEFAULT_LOSS_MARGIN = 0.1  # percentage points


@dataclass
class Comparison:
    """Two campaigns compared: ``table`` (one row per condition and statistic, the columns of
    :func:`azlatency.stats.before_after` plus ``condition``, a label), ``geomean`` (benchstat's
    summary row per metric and statistic), ``only_before`` / ``only_after`` (conditions
    measured on one side only), ``not_comparable`` (statistics no run of either side gives),
    ``differences`` (what each campaign holds constant and the two disagree on)."""

    before: str
    after: str
    table: pd.DataFrame
    geomean: pd.DataFrame
    only_before: pd.DataFrame
    only_after: pd.DataFrame
    not_comparable: pd.DataFrame
    keys: list[str]
    differences: dict[str, tuple[str, str]] = field(default_factory=dict)
    scenarios: dict[str, str] = field(default_factory=dict)
    level: float = 0.95
    margin: float = DEFAULT_MARGIN
    loss_margin: float = DEFAULT_LOSS_MARGIN
    synthetic: list[str] = field(default_factory=list)

    @property
    def failed(self) -> pd.DataFrame:
        """The rows the gate fails: significant and beyond the margin in the bad direction."""
        return self.table[self.table["gate"] == "fail"]


# ---------------------------------------------------------------------------------------------
# One value per run


def _units(runs: pd.DataFrame) -> pd.DataFrame:
    """``runs`` with ``_unit``: the execution each run is part of (windows of one count once),
    and only the first run of each unit (its labels stand for the unit)."""
    out = runs.assign(_unit=runs["run_id"].map(schema.execution_ids(runs)).astype(str))
    return out.drop_duplicates("_unit")


def _latency_values(tables: Tables, wanted: Sequence[str]) -> pd.DataFrame:
    """Per run and latency statistic: from its samples, else as the tool printed it."""
    sampled = sampled_runs(tables.samples)
    runs = prefer_samples(tables.runs, sampled)
    parts = []
    for basis, g in runs.groupby("latency_basis", sort=True):
        have = g[g["run_id"].isin(sampled.get(units.basis_column(basis), set()))]
        if len(have):
            s = tables.samples[tables.samples["run_id"].isin(set(have["run_id"]))]
            v = stats.run_statistics(s, have, metric=basis, stats=wanted)
            parts.append(v.rename(columns={"run_id": "_unit"}).assign(
                metric=basis, source="samples"))  # fmt: skip
        printed = g[~g["run_id"].isin(set(have["run_id"]))]
        if len(printed):
            parts.append(_printed(tables, printed, basis, wanted))
    if not parts:
        return pd.DataFrame(columns=["_unit", "stat", "value", "metric", "source", "note"])
    return pd.concat(parts, ignore_index=True).assign(unit="us", better="lower", scale="ratio")


def _printed(tables: Tables, runs: pd.DataFrame, basis: str, wanted: Sequence[str]):
    """The printed statistics of runs without samples, one per execution (the mean of its
    windows' values where only windows printed one); printed ranges are no value to test."""
    s = tables.summaries
    s = s[
        s["run_id"].isin(set(runs["run_id"]))
        & (s["metric"] == basis)
        & (s["source"] == "reported")
        & s["stat"].isin(list(wanted))
    ]
    if "bound_low" in s.columns:
        s = s[s["bound_low"].isna()]
    unit = s["run_id"].map(schema.execution_ids(runs))
    out = s.assign(_unit=unit).groupby(["_unit", "stat"], as_index=False)["value"].mean()
    return out.assign(metric=basis, source="printed", note="")


def _throughput_values(tables: Tables) -> pd.DataFrame:
    """Per run its throughput in bit/s: the receiver's mean where given, else the tool's
    throughput, else the sender's; printed before computed."""
    s = tables.summaries
    s = s[s["metric"].isin(THROUGHPUT) & (s["stat"] == "mean") & (s["unit"] == "bps")]
    order = {m: i for i, m in enumerate(THROUGHPUT)}
    s = s.assign(
        _o=s["metric"].map(order), _src=(s["source"] != "reported").astype(int)
    ).sort_values(["run_id", "_o", "_src"], kind="stable")
    s = s.drop_duplicates("run_id")
    unit = s["run_id"].map(schema.execution_ids(tables.runs))
    out = s.assign(_unit=unit).groupby(["_unit", "metric"], as_index=False)["value"].mean()
    return out.assign(stat="throughput", unit="bps", better="higher", scale="ratio",
                      source="printed", note="")  # fmt: skip


def _loss_values(tables: Tables) -> pd.DataFrame:
    r = tables.runs[tables.runs["loss_pct"].notna()] if "loss_pct" in tables.runs else None
    if r is None or r.empty:
        return pd.DataFrame(columns=["_unit", "value"])
    unit = r["run_id"].map(schema.execution_ids(tables.runs))
    out = r.assign(_unit=unit, value=r["loss_pct"].astype(float))
    out = out.groupby("_unit", as_index=False)["value"].mean()
    return out.assign(metric="loss", stat="loss", unit="pct", better="lower",
                      scale="difference", source="printed", note="")  # fmt: skip


def run_values(tables: Tables, wanted: Sequence[str] = STATS) -> pd.DataFrame:
    """One row per run (execution) and statistic: the run's labels (``BASE``,
    ``MEASUREMENT``, ``CONDITIONS``, ``region``), ``metric``, ``stat``, ``unit``, ``value``
    (NaN with a ``note`` where the run cannot give it), ``better``, ``scale``, ``source``."""
    bad = sorted(set(wanted) - set(STATS))
    if bad:
        raise ValueError(f"statistics {bad}: known are {', '.join(STATS)}")
    parts = []
    lat = [s for s in wanted if s in LATENCY]
    if lat:
        parts.append(_latency_values(tables, lat))
    if "throughput" in wanted:
        parts.append(_throughput_values(tables))
    if "loss" in wanted:
        parts.append(_loss_values(tables))
    values = pd.concat([p for p in parts if len(p)], ignore_index=True) if parts else None
    runs = _units(tables.runs)
    cols = [c for c in (*BASE, *MEASUREMENT, *DESCRIBED) if c in runs.columns]
    if values is None or values.empty:
        return pd.DataFrame(columns=["run_id", *cols, "metric", "stat", "unit", "value"])
    attrs = runs[["_unit", "run_id", *cols]]
    out = values.merge(attrs, on="_unit", how="inner", validate="m:1")
    order = {s: i for i, s in enumerate(STATS)}
    out = out.assign(_o=out["stat"].map(order)).sort_values(["_o", "run_id"], kind="stable")
    return out.drop(columns=["_o", "_unit"]).reset_index(drop=True)


# ---------------------------------------------------------------------------------------------
# Pairing two campaigns


def _varying(values: pd.DataFrame, cols: Sequence[str]) -> list[str]:
    """Of ``cols``, those taking more than one value among the runs of one base condition."""
    base = [c for c in (*BASE, *MEASUREMENT) if c in values.columns]
    keyed = values[base].astype("string").fillna("<NA>").agg("|".join, axis=1)
    out = []
    for c in cols:
        if c in values.columns:
            n = values[c].astype("string").fillna("<NA>").groupby(keyed).nunique()
            if (n > 1).any():
                out.append(c)
    return out


def _differences(vb: pd.DataFrame, va: pd.DataFrame, keyed: Sequence[str]) -> dict:
    """Run labels each campaign holds constant and the two disagree on (the change)."""
    out = {}
    for c in DESCRIBED:
        if c in keyed or c not in vb.columns or c not in va.columns:
            continue
        b = sorted(set(vb[c].dropna().astype(str)))
        a = sorted(set(va[c].dropna().astype(str)))
        if b != a:
            out[c] = (", ".join(b) or "unknown", ", ".join(a) or "unknown")
    return out


def _conditions(values: pd.DataFrame, cond: list[str]) -> pd.DataFrame:
    """Each condition of one side: its labels, runs and the statistics measured."""
    g = values.groupby(cond, dropna=False, sort=True)
    out = g.agg(runs=("run_id", "nunique"), stats=("stat", lambda s: ", ".join(dict.fromkeys(s))))
    return out.reset_index()


def _one_side(vb, va, cond) -> tuple[pd.DataFrame, pd.DataFrame]:
    cb, ca = _conditions(vb, cond), _conditions(va, cond)
    kb = cb[cond].astype("string").fillna("<NA>").agg("|".join, axis=1)
    ka = ca[cond].astype("string").fillna("<NA>").agg("|".join, axis=1)
    return cb[~kb.isin(set(ka))].reset_index(drop=True), ca[~ka.isin(set(kb))].reset_index(
        drop=True
    )


def pair_values(
    before: Tables, after: Tables, *, scenarios: dict | None = None, wanted=STATS
) -> tuple[pd.DataFrame, list[str], dict]:
    """Both campaigns' run values in one frame (``side``: before / after), the pairing keys,
    and the differences between the campaigns (see the module doc).  ``scenarios`` maps a
    baseline scenario label onto the other campaign's."""
    vb, va = run_values(before, wanted), run_values(after, wanted)
    if scenarios and "scenario" in vb.columns:
        vb = vb.assign(scenario=vb["scenario"].replace(dict(scenarios)))
    both = pd.concat([vb.assign(side="before"), va.assign(side="after")], ignore_index=True)
    measure = [c for c in (*BASE, *MEASUREMENT) if c in both.columns]
    varying = sorted(set(_varying(vb, CONDITIONS)) | set(_varying(va, CONDITIONS)))
    keys = [*measure, *[c for c in CONDITIONS if c in varying], "metric", "stat"]
    return both, keys, _differences(vb, va, varying)


LABELLED = ("scenario", "src_zone", "dst_zone", "tool", "metric", "stat")


def _label(table: pd.DataFrame, keys: Sequence[str], *, scenario: bool = True) -> pd.Series:
    """``'zone matrix · 1→2 · sockperf'``, with the other keys that tell rows of one tool
    apart (``msg_size_bytes=1400``); without the scenario when ``scenario`` is false."""
    same = [c for c in LABELLED if c in table.columns]
    extra = [
        c
        for c in keys
        if c not in LABELLED
        and len(table)
        and table.groupby(same, dropna=False)[c].nunique(dropna=False).gt(1).any()
    ]

    def one(r) -> str:
        parts = [str(r["scenario"])] if scenario and pd.notna(r.get("scenario")) else []
        if pd.notna(r.get("src_zone")) or pd.notna(r.get("dst_zone")):
            parts.append(f"{_na(r.get('src_zone'))}→{_na(r.get('dst_zone'))}")
        parts.append(str(r["tool"]))
        for c in extra:
            if pd.notna(r[c]):
                parts.append(f"{c}={r[c]}")
        return " · ".join(parts)

    return table.apply(one, axis=1) if len(table) else pd.Series(dtype=str)


def _na(v) -> str:
    return "?" if v is None or pd.isna(v) else str(v)


def compare_tables(
    before: Tables,
    after: Tables,
    *,
    names: tuple[str, str] = ("before", "after"),
    scenarios: dict | None = None,
    level: float = 0.95,
    margin: float = DEFAULT_MARGIN,
    loss_margin: float = DEFAULT_LOSS_MARGIN,
    wanted: Sequence[str] = STATS,
) -> Comparison:
    """:class:`Comparison` of two campaigns' tables (see the module doc)."""
    values, keys, diffs = pair_values(before, after, scenarios=scenarios, wanted=wanted)
    cond = [k for k in keys if k not in ("metric", "stat")]
    usable = values.groupby(keys, dropna=False)["value"].transform(lambda v: v.notna().any())
    gone = values[~usable]
    values = values[usable]
    vb, va = values[values["side"] == "before"], values[values["side"] == "after"]
    only_b, only_a = _one_side(vb, va, cond)
    shared = _shared(values, cond, only_b, only_a)
    back = {v: k for k, v in (scenarios or {}).items()}
    if back and len(only_b):  # listed under the baseline's own names
        only_b = only_b.assign(scenario=only_b["scenario"].replace(back))
    table = stats.before_after(
        shared, keys, level=level, margin=margin, abs_margin=loss_margin
    ) if len(shared) else pd.DataFrame(columns=[*keys, *AB_COLUMNS])  # fmt: skip
    one = "scenario" in table.columns and table["scenario"].nunique(dropna=False) == 1
    table.insert(0, "condition", _label(table, keys, scenario=not one))
    return Comparison(
        before=names[0],
        after=names[1],
        table=table,
        geomean=stats.geomean_rows(table, by=("metric", "stat")),
        only_before=only_b,
        only_after=only_a,
        not_comparable=_not_comparable(gone, keys),
        keys=keys,
        differences=diffs,
        scenarios=dict(scenarios or {}),
        level=level,
        margin=margin,
        loss_margin=loss_margin,
        synthetic=synthetic(pd.concat([before.runs, after.runs], ignore_index=True)),
    )


def _shared(values, cond, only_b, only_a) -> pd.DataFrame:
    """The run values of the conditions measured on both sides."""
    if not len(values):
        return values
    gone = pd.concat([only_b[cond], only_a[cond]], ignore_index=True)
    key = values[cond].astype("string").fillna("<NA>").agg("|".join, axis=1)
    out_key = gone.astype("string").fillna("<NA>").agg("|".join, axis=1) if len(gone) else []
    return values[~key.isin(set(out_key))]


def _not_comparable(gone: pd.DataFrame, keys: list[str]) -> pd.DataFrame:
    """Statistics that no run of either side gives, with the runs' reason."""
    if gone.empty:
        return pd.DataFrame(columns=[*keys, "why"])
    g = gone.groupby(keys, dropna=False, sort=True)["note"]
    return g.agg(lambda s: next((x for x in s if isinstance(x, str) and x), "")).reset_index(
        name="why"
    )


def baseline_of(campaign: str, data_root: PathLike | None = None) -> dict | None:
    """The ``baseline:`` an imported campaign's ``campaign.yaml`` names (``campaign``,
    ``margin``, ``scenarios``), or None."""
    from ..campaign import baseline

    return baseline(campaign, processed_root(data_root))


def compare_campaigns(
    before: str,
    after: str,
    data_root: PathLike | None = None,
    *,
    scenarios: dict | None = None,
    level: float = 0.95,
    margin: float | None = None,
    loss_margin: float = DEFAULT_LOSS_MARGIN,
    wanted: Sequence[str] = STATS,
) -> Comparison:
    """Compare two imported campaigns (``after`` relative to ``before``).  Where ``after``'s
    ``campaign.yaml`` names ``before`` as its ``baseline:``, its ``margin`` and ``scenarios``
    apply unless given here; otherwise the margin is 10 %."""
    from ._data import load_campaigns

    named = baseline_of(after, data_root) or {}
    if named.get("campaign") != before:
        named = {}
    if scenarios is None:
        scenarios = named.get("scenarios") or {}
    if margin is None:
        margin = named.get("margin") or DEFAULT_MARGIN
    return compare_tables(
        load_campaigns(before, data_root),
        load_campaigns(after, data_root),
        names=(before, after),
        scenarios=scenarios,
        level=level,
        margin=margin,
        loss_margin=loss_margin,
        wanted=wanted,
    )


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
    lines = [
        f"**{cmp.after} against {cmp.before}:** {len(t)} comparisons "
        f"({', '.join(f'{n} {k}' for k, n in v.value_counts().items())}); the run is the "
        f"unit, p-values Holm-adjusted over the table, equivalence within ±{cmp.margin:.0%}"
        f" (loss ±{cmp.loss_margin:g} points)."
    ]
    if cmp.synthetic:
        lines.insert(0, f"**Synthetic data:** {', '.join(cmp.synthetic)} (azlatency synth).\n")
    if "scenario" in t.columns and t["scenario"].nunique(dropna=False) == 1:
        lines.append(f"- Scenario: {t['scenario'].iloc[0]} (every condition below).")
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
    for side, frame in (("before", cmp.only_before), ("after", cmp.only_after)):
        if len(frame):
            names = "; ".join(_label(frame, [*BASE]).tolist())
            lines.append(f"- Only in {getattr(cmp, side)}: {names}.")
    return "\n".join(lines)


def comparison_markdown(cmp: Comparison, *, heading: str = "##") -> str:
    """The whole comparison as Markdown (a page, a pull-request comment): findings, one
    table per statistic, what is on one side only and what no run gives."""
    parts = [findings(cmp)]
    if cmp.scenarios:
        mapped = ", ".join(f"`{k}` → `{v}`" for k, v in cmp.scenarios.items())
        parts.append(f"Scenarios paired by name, and {mapped}.")
    for title, df in sections(cmp):
        parts += [f"{heading} {title}", _md_table(df)]
    for side, frame in (("before", cmp.only_before), ("after", cmp.only_after)):
        if len(frame):
            shown = frame.assign(condition=_label(frame, [*BASE]))[["condition", "runs", "stats"]]
            parts += [f"{heading} Only in {getattr(cmp, side)}", _md_table(shown)]
    if len(cmp.not_comparable):
        nc = cmp.not_comparable.assign(condition=_label(cmp.not_comparable, cmp.keys))
        parts += [f"{heading} Not comparable", _md_table(nc[["condition", "stat", "why"]])]
    return "\n\n".join(parts) + "\n"


# ---------------------------------------------------------------------------------------------
# The gate: `azlatency check --baseline`


def _what(r: dict) -> str:
    return f"{r['condition']}: {r['stat']} ({r['metric']})"


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
    from xml.etree import ElementTree as ET

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
        body = f"{len(untested)} comparison(s) not tested: " + "; ".join(
            f"{r['condition']} {r['stat']} ({r['note']})" for r in untested.to_dict("records")
        )
        out.append(f"::warning title={title}::{_escape(body)}")
    return out


def gate_markdown(cmp: Comparison) -> str:
    """The gate's verdict for a pull-request comment (``$GITHUB_STEP_SUMMARY``): the result
    line, the failing rows, then the whole comparison folded away."""
    failed = cmp.failed
    t = cmp.table
    head = f"### azlatency check: `{cmp.after}` against its baseline `{cmp.before}`\n\n" + (
        f"**FAIL**: {len(failed)} of {len(t)} comparisons are worse beyond the margin "
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


# ---------------------------------------------------------------------------------------------
# The page (notebook 60)


def has_baseline(tables: Tables, data_root: PathLike | None = None) -> bool:
    """The campaign names a ``baseline:`` whose store is imported (notebook 60's need)."""
    from ..campaign.load import store_path

    names = tables.runs["campaign"].dropna().astype(str).unique() if len(tables.runs) else []
    for name in names:
        base = (baseline_of(name, data_root) or {}).get("campaign")
        if base and store_path(base, processed_root(data_root)).is_dir():
            return True
    return False


def baseline_comparison(
    campaign: str,
    data_root: PathLike | None = None,
    *,
    baseline: str | None = None,
    level: float = 0.95,
    margin: float | None = None,
) -> tuple[Comparison | None, str]:
    """``campaign`` against ``baseline`` (default: the one its ``campaign.yaml`` names), and
    why there is no comparison when there is none."""
    from ..campaign.load import store_path

    base = baseline or (baseline_of(campaign, data_root) or {}).get("campaign")
    if not base:
        return None, f"{campaign}'s campaign.yaml names no `baseline:`."
    if not store_path(base, processed_root(data_root)).is_dir():
        return None, f"the baseline {base} is not imported (azlatency import {base})."
    return compare_campaigns(base, campaign, data_root, level=level, margin=margin), ""


def change_figure(cmp: Comparison, *, width: float = 7.16):
    """One panel per metric and statistic (ratios only; loss is in the tables): every
    condition's change after / before with its interval, the margin shaded, the
    Holm-adjusted p-value at the right."""
    import matplotlib.pyplot as plt

    from .. import plots

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
