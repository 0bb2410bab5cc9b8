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

import pandas as pd

from .. import paths, schema, stats, units
from ..campaign import baseline
from ..campaign.load import store_path
from ..campaign.store import MANIFEST
from ..schema import Tables
from ..stats.before_after import COLUMNS as AB_COLUMNS
from ._compare import prefer_samples, sampled_runs
from ._data import load_campaigns, synthetic

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
    cols = [c for c in (*BASE, *MEASUREMENT, *DESCRIBED, "dst_ip") if c in runs.columns]
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


def condition_label(
    table: pd.DataFrame, keys: Sequence[str], *, scenario: bool = True
) -> pd.Series:
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
    table.insert(0, "condition", condition_label(table, keys, scenario=not one))
    return Comparison(
        before=names[0],
        after=names[1],
        table=table,
        geomean=stats.geomean_rows(table, by=("metric", "stat")),
        only_before=only_b,
        only_after=only_a,
        not_comparable=_not_comparable(gone, keys),
        keys=keys,
        differences={**diffs, **_far_ends(shared)},
        scenarios=dict(scenarios or {}),
        level=level,
        margin=margin,
        loss_margin=loss_margin,
        synthetic=synthetic(pd.concat([before.runs, after.runs], ignore_index=True)),
    )


LOOPBACK = ("127.", "::1", "localhost")


def _far_ends(shared: pd.DataFrame) -> dict[str, tuple[str, str]]:
    """Per tool compared, the far ends its runs name on each side where the two differ: a
    run to 10.201.0.1 before and one to 127.0.0.1 (this host: no network crossed) after were
    one condition without a word.  VMs redeployed take new addresses, so this is said, not
    refused."""
    if "dst_ip" not in shared.columns or shared.empty:
        return {}
    out = {}
    for tool, g in shared.groupby("tool", sort=True):
        ends = {
            side: sorted(set(g.loc[g["side"] == side, "dst_ip"].dropna().astype(str)))
            for side in ("before", "after")
        }
        b, a = ends["before"], ends["after"]
        if not b or not a or b == a:
            continue

        def shown(ips: list[str]) -> str:
            text = ", ".join(ips[:3]) + (f" and {len(ips) - 3} more" if len(ips) > 3 else "")
            here = all(ip.startswith(LOOPBACK) for ip in ips)
            return text + (" (this host: no network crossed)" if here else "")

        out[f"far end of {tool}"] = (shown(b), shown(a))
    return out


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

    return baseline(campaign, paths.processed_dir(data_root))


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
# The page (notebook 60)


def _baseline_for(campaign: str, data_root: PathLike | None = None) -> list[str]:
    """The imported campaigns whose ``campaign.yaml`` names ``campaign`` as their
    ``baseline:`` (synthetic-ab-before is synthetic-ab-after's and synthetic-ab-rerun's)."""
    root = paths.processed_dir(data_root)
    stores = sorted(root.iterdir()) if root.is_dir() else []
    return [
        s.name
        for s in stores
        if s.name != campaign
        and (s / MANIFEST).is_file()
        and (baseline(s.name, root) or {}).get("campaign") == campaign
    ]


def has_baseline(tables: Tables, data_root: PathLike | None = None) -> bool:
    """The campaign names a ``baseline:`` whose store is imported (notebook 60's need)."""

    names = tables.runs["campaign"].dropna().astype(str).unique() if len(tables.runs) else []
    for name in names:
        base = (baseline_of(name, data_root) or {}).get("campaign")
        if base and store_path(base, paths.processed_dir(data_root)).is_dir():
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

    base = baseline or (baseline_of(campaign, data_root) or {}).get("campaign")
    if not base:
        theirs = _baseline_for(campaign, data_root)
        also = (
            f"; {' and '.join(theirs)} {'names' if len(theirs) == 1 else 'name'} it as "
            f"{'its' if len(theirs) == 1 else 'their'} baseline: "
            f"{'its page compares' if len(theirs) == 1 else 'their pages compare'} against it"
            if theirs
            else ""
        )
        return None, f"{campaign}'s campaign.yaml names no `baseline:`{also}."
    if not store_path(base, paths.processed_dir(data_root)).is_dir():
        return None, f"the baseline {base} is not imported (azlatency import {base})."
    return compare_campaigns(base, campaign, data_root, level=level, margin=margin), ""
