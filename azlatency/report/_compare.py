"""Comparisons for the reports: one factor at a time (placement, accelerated networking, VM
size, message size), and the same pair of VMs measured by several tools.

A contrast compares runs that differ in one factor and agree on everything else that is
known (tool, basis, protocol, region, role and the other factors); an unknown value only
matches an unknown value.  With samples on both sides the comparison is
``stats.compare_groups`` with the run as the unit: the ratio of run medians with a Welch
interval on their logs when both sides have ≥ 2 runs; with 1 run on a side, the between-run
variance pooled over every replicated condition of the same campaign, tool and basis (named
in ``assumption``), or no interval and no p-value when there is none ("1 run per side: a
placement effect cannot be separated from run-to-run variation").  Holm across all
contrasts.  With printed statistics only, the ratio of the two printed values, which the
data give no interval for — the row says so.  Every row states its ``unit_of_analysis``,
``n_runs_a``/``n_runs_b``, ``method`` and a plain-words ``caption``.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

import numpy as np
import pandas as pd

from .. import paths, schema, stats, units
from ..campaign.load import load
from ..schema import Tables
from ..stats import runlevel
from ..stats.common import INTERVAL_CORE, as_rng
from ..stats.compare import run_value_map, value_rows
from ..stats.summary_only import FIELLER_CAVEAT
from ._data import PathLike, latency_runs, names, sample_runs, strings
from ._latency import GROUP, label_part, latency_percentiles
from ._memo import memo
from ._show import counted, fmt_bound

FACTORS = ("placement", "accelerated_networking", "vm_size", "msg_size_bytes")
CONTEXT = ("campaign", "tool", "latency_basis", "protocol", "measure", "region", "role")
# Tests whose latency is another measure than one message's round trip, by ``mode``: never
# set beside a ping-pong of the same tool (netperf's TCP_CRR opens, answers and closes a
# connection per transaction; sockperf's under-load keeps many messages in flight; a TCP
# connect time is a handshake).  The ``measure`` a contrast holds, said in its context.
MEASURES = {"crr": "connect-request-response", "under-load": "under load", "connect": "connect"}
# The first value found in these lists is the reference (the denominator of a ratio).
BASELINES = {
    "placement": (
        "cross_region",
        "cross_zone",
        "same_zone",
        "availability_set",
        "ppg",
        "same_node",
    ),
    "accelerated_networking": (False, True),
}
COLUMNS = [
    "factor",
    "a",
    "b",
    "context",
    "label",
    "stat",
    "basis",
    "value_a",
    "value_b",
    "estimate",
    "ci_low",
    "ci_high",
    "bound_low",
    "bound_high",
    "level",
    "p_value",
    "p_adj",
    "method",
    "source",
    "note",
    "unit_of_analysis",
    "n_runs_a",
    "n_runs_b",
    "testable",
    "significant",
    "test",
    "df",
    "assumption",
    "caption",
]


def _order(factor: str, values: list) -> list:
    pref = BASELINES.get(factor)
    if pref is None:
        return sorted(values, key=lambda v: (str(type(v)), v))
    return sorted(values, key=lambda v: pref.index(v) if v in pref else len(pref))


def _show(v) -> str:
    if isinstance(v, (bool, np.bool_)):
        return "on" if v else "off"
    if isinstance(v, (int, np.integer, float)) and not pd.isna(v):
        return f"{int(v)} B"
    return str(v)


SAME_MEASUREMENT = (
    "campaign",
    "tool",
    "latency_basis",
    "scenario",
    "src_zone",
    "dst_zone",
    "src_host",
    "dst_host",
    *FACTORS,
)


def sampled_runs(samples: pd.DataFrame) -> dict[str, set[str]]:
    """Value column of each latency basis → the runs with observations in it (``sample_runs``,
    a pass over every sample: asked once per contrast it was most of ``contrasts``' time)."""
    cols = (units.basis_column(b) for b in schema.LATENCY_BASES)
    return {col: sample_runs(samples, col) for col in cols}


def _group_key(frame: pd.DataFrame, cols: Sequence[str]) -> pd.Series:
    """Each row's values of ``cols`` as one string ('a|b|<NA>'): a key to group or look up
    rows by, missing values equal to each other."""
    return frame[list(cols)].astype("string").fillna("<NA>").agg("|".join, axis=1)


def prefer_samples(runs: pd.DataFrame, sampled: dict[str, set[str]]) -> pd.DataFrame:
    """Latency runs, without the printed-only runs of a condition that also has runs with
    samples (sockperf's console summary of the packets its --full-log file holds);
    ``sampled``: ``sampled_runs``."""
    runs = latency_runs(runs)
    have = runs["run_id"].isin(set().union(*sampled.values()))
    cols = [c for c in SAME_MEASUREMENT if c in runs.columns]
    key = _group_key(runs, cols)
    # ... and of the same ends where both print them: a ping pasted without its replies to
    # 10.107.3.5 is no summary of another's to 10.77.40.2 (one of two runs left out, unsaid)
    ends = [c for c in ("src_ip", "dst_ip") if c in runs.columns]
    addresses = runs[ends].astype("string")
    seen: dict[str, list] = {}
    for k, row in zip(key[have], addresses[have].itertuples(index=False)):
        seen.setdefault(k, []).append(row)

    def summarised(k: str, row) -> bool:
        return any(
            all(pd.isna(a) or pd.isna(b) or a == b for a, b in zip(row, other))
            for other in seen.get(k, ())
        )

    keep = have | ~pd.Series(
        [summarised(k, r) for k, r in zip(key, addresses.itertuples(index=False))],
        index=runs.index,
    )
    return runs[keep].reset_index(drop=True)


# A pair of endpoints: what makes runs one group (replicates of one condition).
ENDPOINTS = (
    "scenario",
    "src_zone",
    "dst_zone",
    "zone_pair",
    "src_host",
    "dst_host",
    "src_ip",
    "dst_ip",
)
# Ordered factors measured as a sweep between one pair of endpoints: each value is set
# against the smallest of its endpoints, not against every other (ten message sizes are 9
# contrasts, not 45).
SWEEPS = ("msg_size_bytes",)


def mixed_protocols(runs: pd.DataFrame, *, latency: bool = True) -> frozenset:
    """The tools whose latency runs (``latency=False``: whose rows, throughput runs) came in
    more than one protocol."""
    runs = latency_runs(runs) if latency else runs
    if "protocol" not in runs:
        return frozenset()
    n = runs.groupby("tool")["protocol"].nunique()
    return frozenset(n.index[n > 1])


def _shown_latency(runs: pd.DataFrame) -> pd.DataFrame:
    """Latency runs of round trips and half round trips, as the latency pages show them;
    one-way delays are page 40's, beside the evidence of the clocks they rest on."""
    runs = latency_runs(runs)
    runs = runs[runs["latency_basis"].isin(units.BASES)]
    if "mode" not in runs:
        return runs
    return runs.assign(measure=runs["mode"].map(MEASURES).astype(object))


def contrast_pairs(
    runs: pd.DataFrame, factors: Sequence[str] = FACTORS, *, held: Sequence[str] | None = None
):
    """(factor, reference value, other value, context dict, reference runs, other runs).

    Every pair of a factor's values, but for a sweep (:data:`SWEEPS`): there each pair of
    endpoints measured at two or more values has its smallest as the reference of the others;
    the runs of endpoints measured at one value are in every pair of theirs (where a page
    says they have no partner).  ``held``: the conditions a contrast holds besides the other
    factors, for ``runs`` as given (throughput runs); by default :data:`CONTEXT`, of the
    latency runs among ``runs``."""
    if held is None:
        runs, held = _shown_latency(runs), CONTEXT
    for f in factors:
        # every other factor is held fixed, asked about or not (350 B and 1400 B runs are no
        # replicates of a placement)
        ctx = [c for c in (*held, *FACTORS) if c != f and c in runs.columns]
        for key, g in runs.groupby(ctx, dropna=False, sort=True):
            g = g[g[f].notna()]
            values = _order(f, list(dict.fromkeys(g[f].tolist())))
            context = {
                c: v
                for c, v in zip(ctx, key if isinstance(key, tuple) else (key,))
                if not pd.isna(v)
            }
            lowest = _sweep_lowest(g, f) if f in SWEEPS else None
            for ref, other in itertools.combinations(values, 2):
                mine = g if lowest is None else g[lowest.isna() | (lowest == ref)]
                a, b = mine[mine[f] == ref], mine[mine[f] == other]
                if len(a) and len(b):
                    yield f, ref, other, context, a, b


def apart_pairs(
    runs: pd.DataFrame, factor: str, pairs: list[tuple], *, held: Sequence[str] | None = None
):
    """(tool, reference value, other value, how they differ, runs left): a tool's runs at two
    values of ``factor`` (not a sweep) that none of ``pairs`` (:func:`contrast_pairs` of
    ``factor``) sets side by side, because every run of one value differs from every run of
    the other in more than the factor (sockperf's availability-set runs print round trips, its
    cross-zone runs half ones); ``how``, each held condition whose values the two sides do
    not share, the other value's first (as a contrast names its sides).  Where ``pairs`` do
    set the tool's runs of the two values side by side but leave some out (an iperf3 JSON
    run that states its message size beside text runs that do not), one item for each side
    with runs left: (tool, the left runs' value, the other value, how, the runs left).
    ``held``: as :func:`contrast_pairs` was given it."""
    if factor in SWEEPS:
        return
    if held is None:
        runs, held = _shown_latency(runs), CONTEXT
    runs = runs[runs[factor].notna()]
    paired: dict[tuple, set] = {}
    for _, r, o, c, a, b in pairs:
        ids = paired.setdefault((c.get("tool"), r, o), set())
        ids.update(a["run_id"], b["run_id"])
    held = [c for c in (*held, *FACTORS) if c not in (factor, "tool") and c in runs.columns]
    for tool, g in runs.groupby("tool", sort=True):
        values = _order(factor, list(dict.fromkeys(g[factor].tolist())))
        for ref, other in itertools.combinations(values, 2):
            a, b = g[g[factor] == ref], g[g[factor] == other]
            ids = paired.get((tool, ref, other))
            if ids is None:
                yield tool, ref, other, _how(b, a, held), None
                continue
            for mine, value, theirs, them in ((b, other, a, ref), (a, ref, b, other)):
                left = mine[~mine["run_id"].isin(ids)]
                if len(left):
                    yield tool, them, value, _how(left, theirs, held), left


def _how(one: pd.DataFrame, other: pd.DataFrame, held: list[str]) -> list[str]:
    """Each of ``held`` whose values ``one`` and ``other`` do not share, in words."""
    how = []
    for c in held:
        va, vb = (sorted(set(x[c].dropna().map(lambda v, c=c: _said(v, c)))) for x in (one, other))
        if va != vb:
            name = CONDITION_NAMES.get(c, c.replace("_", " "))
            none = "a message at a time" if c == "measure" else "not stated"  # MEASURES' others
            how.append(f"{name} {'/'.join(va) or none} vs {'/'.join(vb) or none}")
    return how


def _said(value, column: str = "") -> str:
    """A condition's value as a page says it: '4 B', 'off', 'cross-zone', 'half_rtt'; a
    count of streams as its number."""
    if column == "streams":
        return str(int(value))
    shown = _show(value)
    return PRETTY_PLACEMENT.get(shown, shown)


def _sweep_lowest(g: pd.DataFrame, f: str) -> pd.Series:
    """Each run's smallest value of ``f`` over its endpoints' runs (the scenario left out: a
    folder per message size is still one pair of VMs); NA where they were measured at one."""
    cols = [c for c in ENDPOINTS if c in g.columns and c != "scenario"]
    key = [g[c].astype("string").fillna("") for c in cols] or [pd.Series("", index=g.index)]
    by = g[f].groupby(key, sort=False, dropna=False)
    return by.transform("min").where(by.transform("nunique") > 1)


FACTOR_NAMES = {
    "placement": "placement",
    "accelerated_networking": "accelerated networking",
    "vm_size": "VM size",
    "msg_size_bytes": "message size",
}
# A statistic and a latency basis as a sentence says them.
STAT_WORDS = {"p50": "median", "mean": "mean", "mixed": "median or mean"}
BASIS_WORDS = {
    "half_rtt": "half round trip",
    "rtt": "round trip",
    "one_way": "one way",
    "throughput": "throughput",
}
# What a held condition is called where two sides differ in it (:func:`apart_pairs`; others
# by their column's name: protocol, region).
CONDITION_NAMES = {
    **FACTOR_NAMES,
    "latency_basis": "basis",
    "role": "side",
    "side": "figure from",  # a throughput run's: the receiver's or the sender's
    "mode": "test",  # a throughput run's: ethr's bandwidth or pps test
}


PRETTY_PLACEMENT = {
    "same_zone": "same zone",
    "cross_zone": "cross-zone",
    "cross_region": "cross-region",
    "availability_set": "availability set",
    "ppg": "proximity placement group",
    "same_node": "same node",
}


def context_text(context: dict, factor: str, mixed: frozenset = frozenset()) -> str:
    """``'sockperf, 350 B, D4as_v4, AN on'``: what the two sides of a contrast share; the
    protocol too for a tool of ``mixed`` (:func:`mixed_protocols`: ping's ICMP and ICMPv6
    runs made two sentences alike to the letter)."""
    parts = [str(context["tool"])] if "tool" in context else []
    if context.get("tool") in mixed and "protocol" in context:
        parts.append(str(context["protocol"]))
    if "measure" in context:
        parts.append(str(context["measure"]))
    if "msg_size_bytes" in context:
        parts.append(_show(context["msg_size_bytes"]))
    if "vm_size" in context:
        parts.append(str(context["vm_size"]).removeprefix("Standard_"))
    if "accelerated_networking" in context:
        parts.append(f"AN {_show(context['accelerated_networking'])}")
    if "placement" in context:
        parts.append(PRETTY_PLACEMENT.get(str(context["placement"]), str(context["placement"])))
    return ", ".join(parts)


def context_texts(pairs: list[tuple], mixed: frozenset = frozenset(), text=None) -> list[str]:
    """``text`` (by default :func:`context_text`) of each of ``pairs``
    (:func:`contrast_pairs`' tuples).  Two
    contrasts of one factor, values and basis that would read alike differ in what the text
    leaves out (a region, a role, a protocol; or one file states it and the other does not):
    that is added to both ('echo_csv, region uksouth' and 'echo_csv, region not stated'), so
    no two sentences of a page are the same to the letter."""
    texts = [(text or context_text)(ctx, f, mixed) for f, _, _, ctx, *_ in pairs]
    alike: dict[tuple, list[int]] = {}
    for i, (f, ref, other, ctx, *_) in enumerate(pairs):
        key = (f, str(ref), str(other), str(ctx.get("latency_basis")), texts[i])
        alike.setdefault(key, []).append(i)
    for idx in (v for v in alike.values() if len(v) > 1):
        ctxs = [pairs[i][3] for i in idx]
        keys = list(dict.fromkeys(k for c in ctxs for k in c))
        differ = [k for k in keys if len({str(c.get(k)) for c in ctxs}) > 1]
        for i, c in zip(idx, ctxs, strict=True):
            named = [k.replace("_", " ") for k in differ]
            extra = [
                f"{n} {_show(c[k])}" if k in c else f"{n} not stated" for k, n in zip(differ, named)
            ]
            texts[i] = ", ".join(x for x in (texts[i], *extra) if x)
    return texts


# What makes two runs repetitions of one condition (for the between-run variance).
CONDITION = (*CONTEXT, *FACTORS, "scenario", "src_zone", "dst_zone")


class RunValues:
    """Each execution's ``stat`` per latency column (``stats.compare.run_value_map``), read
    once for a campaign and looked up by every contrast of its page."""

    def __init__(self, tables: Tables, stat: str) -> None:
        self.tables, self.stat = tables, stat
        self._maps: dict[str, dict[str, float]] = {}
        # run id → execution id as a dict: Series.get per run was most of between_run_pools
        ids = schema.execution_ids(tables.runs) if len(tables.runs) else pd.Series()
        self._exec = dict(zip(ids.index, ids.to_numpy()))

    def of(self, runs: pd.DataFrame, column: str) -> np.ndarray:
        """The values of ``runs`` (one per execution) in ``column``."""
        if column not in self._maps:
            self._maps[column] = campaign_run_values(self.tables, column, self.stat)
        m = self._maps[column]
        ids = dict.fromkeys(str(self._exec.get(r, r)) for r in runs["run_id"].astype(str))
        return np.array([m[i] for i in ids if i in m], dtype=float)


@memo
def campaign_run_values(tables: Tables, column: str, stat: str) -> dict[str, float]:
    """``stats.compare.run_value_map`` of a campaign, kept: the contrasts of page 21 and the
    two the answer of page 90 asks for each read every run of the campaign (0.4 s a call)."""
    return run_value_map(tables.samples, tables.runs, column, stat)


def between_run_pools(values: RunValues, runs: pd.DataFrame, sampled: dict[str, set[str]]) -> dict:
    """(campaign, tool, basis) → the between-run variance of log run values pooled over
    every condition with ≥ 2 sampled runs (``stats.runlevel.Pooled``), or None; ``sampled``:
    ``sampled_runs``."""
    runs = runs[runs["latency_basis"].notna()]
    cols = [c for c in CONDITION if c in runs.columns]
    pools = {}
    for key, g in runs.groupby(["campaign", "tool", "latency_basis"], dropna=False, sort=True):
        col = units.basis_column(key[2])
        g = g[g["run_id"].isin(sampled[col])]
        cells = [
            runlevel.clean(values.of(c, col))[0]
            for _, c in g.groupby(cols, dropna=False, sort=False)
        ]
        pools[key] = runlevel.pool(cells)
    return pools


def _samples_row(values: RunValues, f, ref, other, basis, level, rng, pooled) -> dict:
    """Run-level ratio of ``other`` to ``ref`` from their runs' values (as
    ``stats.compare_groups`` with the run as the unit gives it)."""
    col = units.basis_column(basis)
    res = value_rows(
        values.of(other, col),
        values.of(ref, col),
        level=level,
        stat=values.stat,
        pooled=pooled,
        what=f"a {f}",
        rng=rng,
    )
    r = res[res["effect"] == "ratio"].iloc[0]
    return {
        "value_a": r["median_a"],
        "value_b": r["median_b"],
        "estimate": r["estimate"],
        "ci_low": r["ci_low"],
        "ci_high": r["ci_high"],
        "level": level,
        "p_value": r["p_value"],
        "method": f"{r['method']} ({r['unit_of_analysis']})",
        "source": "samples",
        "note": r["note"],
        **{k: r[k] for k in ("unit_of_analysis", "n_runs_a", "n_runs_b", "testable", "test")},
        **{k: r[k] for k in ("df", "assumption")},
    }


def _windows(runs: pd.DataFrame) -> pd.Series:
    """Which runs are a window of an execution (a ``window`` label), not all of it."""
    if "execution" not in runs.columns or "labels" not in runs.columns:
        return pd.Series(False, index=runs.index)
    return runs["execution"].notna() & runs["labels"].fillna("").str.contains('"window"')


def _printed(t: Tables, runs: pd.DataFrame, basis: str, stat: str) -> tuple[pd.Series, str]:
    """The printed ``stat`` (or mean) of the first run giving it, a whole execution first."""
    whole = runs.loc[~_windows(runs), "run_id"].tolist()
    s = t.summaries[
        t.summaries["run_id"].isin(runs["run_id"])
        & (t.summaries["metric"] == basis)
        & (t.summaries["source"] == "reported")
    ]
    s = s.assign(_part=~s["run_id"].isin(whole)).sort_values("_part", kind="stable")
    for want in (stat, "mean"):
        hit = s[s["stat"] == want]
        if len(hit):
            return hit.iloc[0].drop("_part"), want
    return pd.Series(dtype=object), ""


def executions(runs: pd.DataFrame) -> int:
    """How many executions ``runs`` hold: windows of one execution count once."""
    return int(schema.execution_ids(runs).nunique()) if len(runs) else 0


def _printed_values(t: Tables, runs: pd.DataFrame, basis: str, stat: str) -> np.ndarray:
    """One printed ``stat`` per execution (positive, without a printed range), for a
    run-level test: a whole execution's value where one is printed, else the mean of its
    windows' values."""
    s = t.summaries[
        t.summaries["run_id"].isin(runs["run_id"])
        & (t.summaries["metric"] == basis)
        & (t.summaries["source"] == "reported")
        & (t.summaries["stat"] == stat)
    ]
    if "bound_low" in s and s["bound_low"].notna().any():
        return np.empty(0)  # a range is no value to test with
    s = s.drop_duplicates("run_id")
    part = s["run_id"].isin(runs.loc[_windows(runs), "run_id"])
    s = s.assign(_exec=s["run_id"].map(schema.execution_ids(runs)), _part=part)
    per = s.sort_values("_part", kind="stable").groupby("_exec", sort=True)
    values = [
        g.loc[~g["_part"], "value"].iloc[0] if (~g["_part"]).any() else g["value"].mean()
        for _, g in per
    ]
    return runlevel.clean(np.asarray(values, dtype=float))[0]


def _printed_runs_row(va: np.ndarray, vb: np.ndarray, stat: str, level: float) -> dict:
    """≥ 2 runs a side with a printed value each: the runs are the unit, as with samples."""
    res = runlevel.run_test(va, vb, level, None, stat=stat, what="this factor's")
    est, lo, hi = res["ratio"]
    return {
        "stat": stat,
        "value_a": float(np.median(va)),
        "value_b": float(np.median(vb)),
        "estimate": est,
        "ci_low": lo,
        "ci_high": hi,
        "p_value": res["p_value"],
        "method": f"{res['method']} (printed values, one per run)",
        "source": "reported",
        "note": res["note"] or f"{len(va)} vs {len(vb)} runs, one printed {stat} each",
        "unit_of_analysis": "run",
        "n_runs_a": len(va),
        "n_runs_b": len(vb),
        "testable": res["testable"],
        "test": res["test"],
        "df": res["df"],
        "assumption": "",
    }


def _spread(t: Tables, runs: pd.DataFrame, basis: str) -> tuple[float, float]:
    """(std, count) a run printed beside its mean: sockperf's ``std-dev``, ping's ``mdev``
    (iputils: the root mean square deviation), and its count of observations."""
    s = t.summaries[
        t.summaries["run_id"].isin(runs["run_id"])
        & (t.summaries["metric"] == basis)
        & (t.summaries["source"] == "reported")
    ]
    got = dict(zip(s["stat"], s["value"]))
    sd = got.get("std", got.get("mdev", np.nan))
    n = got.get("count", np.nan)
    if pd.isna(n) and "n" in s and s["n"].notna().any():
        n = float(s["n"].dropna().iloc[0])
    return float(sd), float(n)


def _fieller_row(t: Tables, ref, other, basis, a: pd.Series, b: pd.Series, level) -> dict:
    """One run a side, each with a printed mean, std and count: the ratio of the means with
    Fieller's interval (``stats.summary_only.ratio_of_printed_means``), packets assumed
    independent — which the row says."""
    sd_a, n_a = _spread(t, other, basis)
    sd_b, n_b = _spread(t, ref, basis)
    r = stats.ratio_of_printed_means(a["value"], sd_a, n_a, b["value"], sd_b, n_b, level=level)
    note = (FIELLER_CAVEAT if r["estimable"] else r["note"]) + (
        f"; {int(n_a)} vs {int(n_b)} packets" if np.isfinite(n_a) and np.isfinite(n_b) else ""
    )
    return {
        "stat": "mean",
        "value_a": a["value"],
        "value_b": b["value"],
        "estimate": r["estimate"],
        "ci_low": r["ci_low"],
        "ci_high": r["ci_high"],
        "df": r["df"],
        "method": r["method"],
        "source": "reported",
        "note": note,
        "unit_of_analysis": "printed mean, std and count",
        "n_runs_a": 1,
        "n_runs_b": 1,
        "testable": False,
    }


def _reported_row(t: Tables, ref, other, basis, stat, level) -> dict:
    a, sa = _printed(t, other, basis, stat)
    b, sb = _printed(t, ref, basis, stat)
    if a.empty or b.empty or sa != sb:
        return {"source": "reported", "method": "", "note": "no common printed statistic"}
    if not b["value"] > 0:
        return {"source": "reported", "method": "", "note": f"a printed {sb} of 0: no ratio"}
    va, vb = _printed_values(t, other, basis, sa), _printed_values(t, ref, basis, sa)
    if len(va) >= 2 and len(vb) >= 2:
        return _printed_runs_row(va, vb, sa, level)
    if sa == "mean" and executions(other) == 1 and executions(ref) == 1:
        row = _fieller_row(t, ref, other, basis, a, b, level)
        if np.isfinite(row["ci_low"]) or "reaches 0" in row["note"]:
            return row
    note = "printed values: their ratio has no interval the data can give"
    ka, kb = executions(other), executions(ref)
    first_shown = False  # several runs a side, shown by their first printed value
    if ka < len(other) or kb < len(ref):
        note += (
            f"; {ka} vs {kb} runs: the {len(other)} vs {len(ref)} in the tables are parts "
            "(windows) of one execution, not replicates, so no test is possible"
        )
    elif len(other) > 1 or len(ref) > 1:
        note += f"; {len(other)} vs {len(ref)} runs, each side the median of its runs' values"
        first_shown = True
    # a side of several runs is the median of the values its runs printed (it was its first
    # run's), and a run that printed none of them is named: AN off's two sockperf runs were
    # '33.78 µs' (one run's median; the other, cut short, printed a mean only)
    value_a = float(np.median(va)) if first_shown and len(va) > 1 else a["value"]
    value_b = float(np.median(vb)) if first_shown and len(vb) > 1 else b["value"]
    also = _not_printed(t, pd.concat([other, ref]), basis, sa)
    if first_shown and max(len(va), len(vb)) > 1:
        word = STAT_WORDS.get(sa, sa)
        also = "; ".join(x for x in (f"a side of several runs: the median of their {word}s",
                                     also) if x)  # fmt: skip
    out = {
        "stat": sa,
        "value_a": value_a,
        "value_b": value_b,
        "estimate": value_a / value_b,
        "method": "ratio of printed values",
        "source": "reported",
        "note": note,
        "unit_of_analysis": "printed value",
        "n_runs_a": ka,
        "n_runs_b": kb,
        "testable": False,
        "first_shown": first_shown,
        **({"also": also} if also else {}),
    }
    lo_a, hi_a = a.get("bound_low"), a.get("bound_high")
    lo_b, hi_b = b.get("bound_low"), b.get("bound_high")
    if not (pd.isna(lo_a) and pd.isna(lo_b)):
        # A value known only as a range (seed 002's "55 to 61.09 usecs") bounds the ratio.
        lo_a, hi_a = (a["value"], a["value"]) if pd.isna(lo_a) else (lo_a, hi_a)
        lo_b, hi_b = (b["value"], b["value"]) if pd.isna(lo_b) else (lo_b, hi_b)
        out.update(
            bound_low=lo_a / hi_b,
            bound_high=hi_a / lo_b,
            value_a_low=lo_a,
            value_b_low=lo_b,
            note=note + "; bounds from printed ranges, not a confidence interval",
        )
    return out


def file_names(every: pd.DataFrame, runs: pd.DataFrame) -> pd.Series:
    """The file of each of ``runs`` as a page names it: its name, or its path in the campaign
    where two files of ``every`` (the campaign's runs) share that name ('an-on/sp2.txt' and
    'an-off/sp2.txt': '`sp2.txt` differs' named either)."""
    base = strings(every, "source_path").dropna().drop_duplicates().str.rsplit("/", n=1).str[-1]
    path = strings(runs, "source_path").fillna("?")
    name = path.str.rsplit("/", n=1).str[-1]
    return path.where(name.isin(base[base.duplicated()]), name)


def _not_printed(t: Tables, runs: pd.DataFrame, basis: str, stat: str) -> str:
    """The files of ``runs`` that printed no ``stat`` of ``basis`` (so no value of theirs is in
    the ratio), as a clause, or ''."""
    s = t.summaries[t.summaries["run_id"].isin(runs["run_id"])]
    has = s.loc[
        (s["metric"] == basis) & (s["source"] == "reported") & (s["stat"] == stat), "run_id"
    ]
    ex = pd.Series(schema.execution_ids(runs).to_numpy(), index=runs.index)
    printed = set(ex[runs["run_id"].isin(has)])
    left = runs[~ex.isin(printed)]
    if left.empty:
        return ""
    names = sorted(set(file_names(t.runs, left)))
    word = STAT_WORDS.get(stat, stat)
    return f"{', '.join(f'`{n}`' for n in names)} printed no {word}: not in its side's figure"


@memo
def contrasts(
    tables: Tables,
    *,
    factors: Sequence[str] = FACTORS,
    stat: str = "p50",
    level: float = 0.95,
    adjust: str = "holm",
    rng=None,
) -> pd.DataFrame:
    """Every one-factor contrast of the campaign's latency runs (see the module doc).

    ``estimate`` is the ratio other / reference of ``stat`` (the median; the mean where only a
    mean was printed); below 1 the other value is faster.  ``p_adj`` is adjusted over all
    contrasts with samples; ``significant`` needs a run-level test (``testable``) below
    ``1 - level`` after adjustment.  ``caption`` says each row in plain words."""
    est = Estimator(tables, stat=stat, level=level, rng=rng)
    rows = []
    pairs = list(contrast_pairs(est.runs, factors))
    texts = context_texts(pairs, mixed_protocols(est.runs))
    for (f, ref, other, context, ref_runs, other_runs), shared in zip(pairs, texts, strict=True):
        base = {
            "factor": f,
            "a": _show(other),
            "b": _show(ref),
            "basis": context.get("latency_basis"),
            "context": shared,
            "stat": stat,
            "level": level,
            "label": f"{FACTOR_NAMES.get(f, f)}: {_show(other)} vs {_show(ref)} ({shared})",
        }
        rows.append({**base, **est(f, ref_runs, other_runs)})
    return finish(pd.DataFrame(rows).reindex(columns=COLUMNS), level, adjust)


class Estimator:
    """One contrast's estimate, ``other`` runs against ``ref`` runs: run-level from samples
    (the between-run variance pooled per campaign, tool and basis where a side has one run),
    else from what the tools printed (see the module doc)."""

    def __init__(self, tables: Tables, *, stat: str, level: float, rng=None) -> None:
        self.tables, self.stat, self.level, self.rng = tables, stat, level, as_rng(rng)
        self.sampled, self.runs = _sampled_latency_runs(tables)
        self.values = RunValues(tables, stat)
        self._pools: dict | None = None

    def __call__(self, factor: str, ref_runs: pd.DataFrame, other_runs: pd.DataFrame) -> dict:
        t, basis = self.tables, ref_runs["latency_basis"].iloc[0]
        have = self.sampled[units.basis_column(basis)]
        if set(ref_runs["run_id"]) <= have and set(other_runs["run_id"]) <= have:
            if self._pools is None:  # only campaigns with samples need the between-run variance
                self._pools = _campaign_pools(t, self.stat)
            first = ref_runs.iloc[0]
            pooled = self._pools.get((first["campaign"], first["tool"], first["latency_basis"]))
            return _samples_row(
                self.values, factor, ref_runs, other_runs, basis, self.level, self.rng, pooled
            )
        return _reported_row(t, ref_runs, other_runs, basis, self.stat, self.level)


@memo
def _sampled_latency_runs(tables: Tables) -> tuple[dict[str, set[str]], pd.DataFrame]:
    """``sampled_runs`` and ``prefer_samples`` of a campaign (zone pairs named as page 40
    names them: :func:`named_zone_pairs` over all its runs), kept: each of a page's contrast
    tables (page 90 asks for two) starts from them."""
    sampled = sampled_runs(tables.samples)
    return sampled, prefer_samples(named_zone_pairs(tables.runs), sampled)


def summarising_runs(tables: Tables) -> set[str]:
    """Printed-only runs that summarise the packets of a run with samples (sockperf's console
    beside its --full-log file: one execution, two files), as :func:`prefer_samples` leaves
    them out: a count of runs beside the contrasts' counts does not count them."""
    _, kept = _sampled_latency_runs(tables)
    every = latency_runs(tables.runs)["run_id"]
    return set(every.astype(str)) - set(kept["run_id"].astype(str))


# what summarising_runs reads of the samples: which runs hold an observation in a basis
_OBSERVED = ("status", "censor_high_us", *(units.basis_column(b) for b in schema.LATENCY_BASES))


def console_counts(
    campaigns: str | Sequence[str], data_root: PathLike | None = None
) -> pd.DataFrame:
    """Per campaign and tool, how many of the store's runs are consoles summarising another
    run's probes (:func:`summarising_runs`), from its runs and the columns of its samples
    that say which runs hold an observation: page 01 counted synthetic-westeurope's 249 runs
    where page 90 says 93 of them are consoles beside their full logs, which the figures
    count once."""
    root = paths.processed_dir(data_root)
    rows = []
    for name in names(campaigns):
        t = load(name, root, columns=list(_OBSERVED))
        gone = t.runs[t.runs["run_id"].astype(str).isin(summarising_runs(t))]
        for tool, n in gone["tool"].value_counts().sort_index().items():
            rows.append({"campaign": name, "tool": str(tool), "consoles": int(n)})
    return pd.DataFrame(rows, columns=["campaign", "tool", "consoles"])


@memo
def _campaign_pools(tables: Tables, stat: str) -> dict:
    """``between_run_pools`` of a campaign, kept (0.7 s of each of page 90's two contrast
    tables on synthetic-westeurope)."""
    sampled, runs = _sampled_latency_runs(tables)
    return between_run_pools(RunValues(tables, stat), runs, sampled)


def finish(out: pd.DataFrame, level: float, adjust: str) -> pd.DataFrame:
    """``p_adj`` over the rows, ``testable``, ``significant`` (a run-level test below
    ``1 - level`` after adjustment) and each row's ``caption``."""
    if len(out):
        out["p_adj"] = stats.adjust_pvalues(out["p_value"].to_numpy(dtype=float), adjust)
        out["testable"] = out["testable"].astype("boolean").fillna(False).astype(bool)
        out["significant"] = (
            out["testable"] & out["unit_of_analysis"].eq("run") & (out["p_adj"] < 1 - level)
        )
        out["caption"] = [_caption(r, adjust) for r in out.to_dict("records")]
    return out


def _caption(r: dict, adjust: str) -> str:
    """A contrast in plain words: what, unit, runs per side, method, what it allows."""
    if r["unit_of_analysis"] == "printed mean, std and count":
        ci = (
            f" ({r['level']:.0%} CI {runlevel.fmt3(r['ci_low'])} to "
            f"{runlevel.fmt3(r['ci_high'])}, {r['method']})"
            if pd.notna(r["ci_low"])
            else " (no interval)"
        )
        return (
            f"{r['label']}: ratio {runlevel.fmt3(r['estimate'])} of printed means{ci}; "
            f"{r['note']}; no p-value"
        )
    if r["unit_of_analysis"] != "run":
        k = f"{runlevel.fmt_count(r['n_runs_a'])} vs {runlevel.fmt_count(r['n_runs_b'])} runs"
        what = (
            f"{r['label']}: ratio {runlevel.fmt3(r['estimate'])} of printed {r['stat']}s"
            if pd.notna(r["estimate"])
            else f"{r['label']}: no common printed statistic"
        )
        return (
            f"{what}; unit: printed values, {k}; no interval or p-value (a printed value "
            "carries no uncertainty the data can give, nor any run-to-run variation)"
        )
    method = str(r["method"]).removesuffix(f" ({r['unit_of_analysis']})")
    row = {**r, "a": r["label"], "b": "", "effect": "ratio", "method": method}
    return runlevel.caption(row, adjust=adjust).replace(" vs : ", ": ", 1)


# ---------------------------------------------------------------------------------------------
# Cross-tool agreement


# The VMs, whatever the message, the protocol and whichever end ran the client (zone_pair,
# not the arrow: qperf prints no address, sockperf does; both measured the same two VMs; ping's
# ICMP and sockperf's TCP between them are what the page compares).
_NOT_PAIR = ("msg_size_bytes", "src_zone", "dst_zone", "src_host", "dst_host", "dst_ip", "protocol")
PAIR = tuple(c for c in GROUP if c not in _NOT_PAIR)


# What names a pair of VMs in a campaign (its campaign.yaml or folders). Runs with none of
# them (a folder of logs, a write-up without a yaml) are one pair only where the write-up's
# heading or the one host they all name says so (:func:`_unnamed_pairs`).
NAMED_BY = ("scenario", "zone_pair", "placement")
# What tells such runs apart: the section of a write-up, then the hosts the logs name.
WHERE = ("heading", "src_host", "dst_host", "dst_ip")


# The reference tool of a pair of VMs on page 40: the first of these that measured it.
CROSS_REFERENCE = ("sockperf", "qperf", "latte", "echo_csv", "ping", "uping")


@memo
def cross_tool(
    tables: Tables,
    *,
    by: Sequence[str] = PAIR,
    reference: Sequence[str] = CROSS_REFERENCE,
    level: float = 0.95,
) -> pd.DataFrame:
    """The same pair of VMs (one group of ``by``: scenario, zones, placement, ...) measured by
    several tools, all as round trips (half round trips are doubled explicitly,
    ``converted_from`` says so).

    One row per group, tool and message size: the median where the tool gives one, else its
    mean (``stat``), with the interval the data allow, and ``ratio_to_reference``: the value
    over the reference tool's (the first of ``reference`` present in the group, its smallest
    message size) for the same statistic, or its mean when the statistic differs.

    Where a group holds several pairs of VMs that the logs name (both hosts), each pair is a
    group of its own (``vms``, :func:`_vm_pairs_apart`), and its runs that name no hosts are
    not compared (``attrs["left_out"]`` says so).  Runs that nothing of ``NAMED_BY`` places
    are compared only under one heading of a
    write-up or when they all name one host (:func:`_unnamed_pairs`); ``attrs["left_out"]``
    says which were not, and why; ``attrs["alone"]``, the tools no other tool measured
    beside on any pair; ``attrs["alone_on"]``, tool -> (pairs no other tool measured, its
    pairs) for the tools compared on some of their pairs only."""
    by = [c for c in by if c in tables.runs.columns]
    tables = _zone_pairs_named(tables, by)
    tables = _vm_pairs_apart(tables, by)
    by = [*by, "vms"] if "vms" in tables.runs.columns else by
    pct = _cross_percentiles(tables, by, level)
    pct, left_out = _hostless_apart(pct, by)
    rows = []
    pairs: dict[str, list[bool]] = {}  # tool -> for each of its named pairs: compared?
    for keys, g in pct[_named(pct)].groupby(list(by), dropna=False, sort=True):
        for tool in set(g["tool"]):
            pairs.setdefault(tool, []).append(g["tool"].nunique() > 1)
        if g["tool"].nunique() < 2:
            continue
        group = dict(zip(by, keys if isinstance(keys, tuple) else (keys,)))
        rows.extend(_cross_rows(group, g, reference))
    unsaid = set(pct["tool"])
    if not _named(pct).all():
        where = [c for c in WHERE if c in tables.runs.columns]
        wide = _cross_percentiles(tables, [*by, *where], level)
        found, why, said = _unnamed_pairs(wide[~_named(wide)], by)
        left_out += why
        unsaid -= said
        for group, g in found:
            rows.extend(_cross_rows(group, g, reference))
    out = pd.DataFrame(rows, columns=[*by, *_CROSS_COLUMNS])
    if len(out):
        out["pair"] = _pair_names(out, by)
        size = out["msg_size_bytes"].map(lambda m: "" if pd.isna(m) else f" {int(m)} B")
        out["what"] = out["tool"] + size + " (" + out["stat"] + ")"
    out.attrs["left_out"] = left_out
    out.attrs["alone"] = sorted(unsaid - set(out["tool"]))
    out.attrs["alone_on"] = {  # compared on some pairs, alone on others: (alone, of)
        t: (f.count(False), len(f)) for t, f in sorted(pairs.items()) if any(f) and not all(f)
    }
    return out


def _zone_pairs_named(tables: Tables, by: Sequence[str]) -> Tables:
    """``tables`` with :func:`named_zone_pairs` filled in (the same object when none is)."""
    runs = named_zone_pairs(tables.runs, by)
    return (
        tables
        if runs is tables.runs
        else Tables(runs, tables.samples, tables.summaries, tables.problems)
    )


def _vm_pairs_apart(tables: Tables, by: Sequence[str]) -> Tables:
    """``tables`` whose runs carry ``vms`` ('vm-z1-a ↔ vm-z2-b') where a group of ``by``
    holds several pairs of VMs that the logs name (both hosts known): those are not one pair.
    The synthetic before/after campaigns' zones 1–2 hold sockperf both ways, between
    vm-z1-a and vm-z2-b and between vm-z2-a and vm-z1-b, and ping between the first two
    only; page 40 set ping against sockperf's two pairs taken together, as 'its pair'.  A run
    of such a group that names no hosts is 'hosts not named', apart from both.  The same
    object when no group holds more than one pair."""
    runs = tables.runs
    if not by:
        return tables
    key = _group_key(runs, by)
    pair = _host_pairs(runs)
    # A group whose logs name no pair of hosts, and which a zone pair or a placement names
    # but no scenario: its runs' far ends.  (PsPing to 10.20.0.5 and to 10.6.1.4 filed under
    # one zone pair were one pair of VMs, their medians pooled and set against an hping3 run
    # to a third host; a scenario of campaign.yaml names one pair of VMs, whatever addresses
    # its logs print, and runs that nothing names are told apart by _unnamed_pairs.)
    scenario = strings(runs, "scenario").notna() if "scenario" in runs else False
    hostless = key.map(pair.notna().groupby(key).any()).eq(False) & _named(runs) & ~scenario
    pair = pair.mask(hostless, _far_ends(runs))
    if pair.isna().all():
        return tables
    # the pairs page 40 compares: latency runs' (an iperf3 run to a third VM splits nothing)
    latency = strings(runs, "latency_basis").isin(["rtt", "half_rtt"])
    several = pair[latency].groupby(key[latency]).nunique() > 1
    split = key.map(several).fillna(False).astype(bool)
    if not split.any():
        return tables
    vms = pair.where(split).mask(split & pair.isna(), "hosts not named")
    return Tables(runs.assign(vms=vms), tables.samples, tables.summaries, tables.problems)


def _far_ends(runs: pd.DataFrame) -> pd.Series:
    """Each run's server end as the logs name it ('to 10.20.0.5'): its address where they
    print one (ping's 'PING vm2 (10.0.0.5)' and sockperf's 'IP = 10.0.0.5' are one end),
    else its name; NA where they name none."""
    far = strings(runs, "dst_ip").fillna(strings(runs, "dst_host")).str.strip().str.lower()
    return ("to " + far).astype("string")


def _host_pairs(runs: pd.DataFrame) -> pd.Series:
    """Each run's pair of hosts, either way round ('vm-z1-a ↔ vm-z2-b'); NA unless the logs
    or the campaign name both."""
    src, dst = strings(runs, "src_host"), strings(runs, "dst_host")
    known = src.notna() & dst.notna()
    return pd.Series(
        [" ↔ ".join(sorted((a, b))) if k else pd.NA for a, b, k in zip(src, dst, known)],
        index=runs.index,
        dtype="string",
    )


def _hostless_apart(pct: pd.DataFrame, by: Sequence[str]) -> tuple[pd.DataFrame, list[str]]:
    """``pct`` without the rows of runs that name no hosts in a group holding several pairs of
    VMs (:func:`_vm_pairs_apart`), and a sentence a group saying why they are not compared:
    nothing says which of the pairs they measured."""
    if "vms" not in pct.columns:
        return pct, []
    apart = pct["vms"].eq("hosts not named").fillna(False).astype(bool)
    rest = [c for c in by if c != "vms"]
    key = _group_key(pct, rest)
    named = pct.loc[~apart, "vms"].groupby(key[~apart]).nunique()
    said = []
    for k, g in pct[apart].groupby(key[apart], sort=True):
        tools = sorted(set(g["tool"]))
        where = _pair_names(g.iloc[:1].drop(columns="vms"), rest)[0]
        # every run of the group: one row a label and statistic, its runs on each
        n = int(g.drop_duplicates("label")["n_runs"].sum())
        runs = counted(n, "run", ("names", "name"))
        said.append(
            f"**{', '.join(tools)}** ({where}): not compared; {runs} no hosts where the logs "
            f"name {counted(int(named.get(k, 0)), 'pair')} of VMs, so nothing says which pair "
            f"{'it' if len(tools) == 1 else 'they'} measured."
        )
    return pct[~apart], said


def named_zone_pairs(runs: pd.DataFrame, by: Sequence[str] = PAIR) -> pd.DataFrame:
    """``runs`` where a run whose zone pair is unknown takes the one zone pair its scenario's
    other runs (same ``by``: placement, VM size, ...) are known to be in, when there is
    exactly one: the scenario names the pair of VMs, and an unknown is no difference.  Seed
    001's qperf on one node prints no address, its sockperf beside it (same heading, same
    file) gave zones 2-2 from its addresses: they were two pairs, page 40 said each tool had
    measured that pair alone, and page 21 set qperf's single node against zone 1-1 while
    refusing sockperf's (no shared zone).  A run that names other hosts than the runs whose
    zones are known measured other VMs, and is not filled.  The same frame when nothing is
    filled."""
    by = [c for c in by if c in runs.columns]
    if "zone_pair" not in by or "scenario" not in runs.columns or runs["zone_pair"].notna().all():
        return runs
    rest = [c for c in by if c != "zone_pair"]
    key = _group_key(runs, rest)
    known = runs["zone_pair"].astype("string").groupby(key).agg(lambda z: set(z.dropna()))
    one = known[known.map(len) == 1].map(lambda z: next(iter(z)))
    fill = runs["zone_pair"].isna() & runs["scenario"].notna() & key.isin(one.index)
    # ... unless the run names other hosts than the runs whose zones are known: other VMs
    hosts = _host_pairs(runs)
    placed = hosts[runs["zone_pair"].notna()].groupby(key).agg(lambda h: set(h.dropna()))
    fill &= np.array(
        [pd.isna(h) or not placed.get(k) or h in placed[k] for h, k in zip(hosts, key)], bool
    )
    if not fill.any():
        return runs
    runs = runs.copy()
    runs.loc[fill, "zone_pair"] = key[fill].map(one)
    return runs


def _cross_percentiles(tables: Tables, by: Sequence[str], level: float) -> pd.DataFrame:
    pct = latency_percentiles(
        tables, basis="rtt", level=level, by=[*by, "msg_size_bytes"], quantiles=(0.5,)
    )
    return pct[pct["stat"].isin(["p50", "mean"])]


def _named(pct: pd.DataFrame) -> pd.Series:
    """Rows whose pair of VMs the campaign names (:data:`NAMED_BY`)."""
    cols = [c for c in NAMED_BY if c in pct.columns]
    return pct[cols].notna().any(axis=1) if cols else pd.Series(False, index=pct.index)


def _unnamed_pairs(pct: pd.DataFrame, by: Sequence[str]):
    """(group, rows) of each pair of VMs among rows nothing of :data:`NAMED_BY` places, and
    why the others are not compared.  Under a heading of a write-up the rows are one pair
    when at most one host is named as the far end (qperf names none); without one, when every
    row names the same far end.  Seed 001 without its yaml: 'Inside single node' and 'AZ2 -
    AZ3' both ping-pong to 10.2.0.58 (16.5 against 711 µs), and were one pair."""
    if pct.empty:
        return [], [], set()

    far = strings(pct, "dst_ip").fillna(
        strings(pct, "dst_host")
    )  # the far end, as the log names it
    near = strings(pct, "src_host")
    heading = strings(pct, "heading")
    found, why, said = [], [], set()
    keys = [*by, heading.fillna("").rename("_heading")]
    for key, g in pct.groupby(keys, sort=True, dropna=False):
        if g["tool"].nunique() < 2:
            continue
        *values, head = key
        said |= set(g["tool"])
        ends = sorted(set(far[g.index].dropna()))
        tools = f"**{', '.join(sorted(set(g['tool'])))}**" + (f" under ‘{head}’" if head else "")
        # the group's own values ('AN on'): each group said the same sentence
        named = [
            label_part(c, v)
            for c, v in zip(by, values, strict=True)
            if c not in ("campaign", "vms") and _set(v)
        ]
        tools += f" ({' · '.join(named)})" if named else ""
        many = next(
            (
                (side, names)
                for side, names in (("far", ends), ("near", sorted(set(near[g.index].dropna()))))
                if len(names) > 1
            ),
            None,
        )
        if many is not None:
            side, names = many
            shown = ", ".join(names[:3]) + (", …" if len(names) > 3 else "")
            why.append(
                f"{tools}: not compared; the logs name {len(names)} {side} ends ({shown}), so "
                "nothing says which runs measured one pair of VMs."
            )
            continue
        if not head and (not ends or far[g.index].isna().any()):
            why.append(
                f"{tools}: not compared; nothing says they measured one pair of VMs (no "
                "scenario, zones or heading, and no one far end that every log names): "
                "campaign.yaml's scenarios can say it."
            )
            continue
        group = {
            **dict(zip(by, values, strict=True)),
            "heading": head or pd.NA,
            "far_end": ends[0] if ends else pd.NA,
        }
        found.append((group, g))
    return found, why, said


def _set(v) -> bool:
    return not (v is None or v is pd.NA or (isinstance(v, float) and np.isnan(v)) or v == "")


_CROSS_COLUMNS = (
    "heading",
    "far_end",
    "tool",
    "msg_size_bytes",
    "label",
    "pair",
    "what",
    "stat",
    *INTERVAL_CORE,
    "source",
    "converted_from",
    "mean",
    "reference",
    "ratio_to_reference",
    "ratio_of",
    "note",
    "unit_of_analysis",
    "n_runs",
    "caption",
    "bound_low",
    "bound_high",
    "ratio_bound_low",
    "ratio_bound_high",
)


def _cross_rows(group: dict, g: pd.DataFrame, reference: Sequence[str]) -> list[dict]:
    """The rows of ``cross_tool`` for one pair of VMs: each tool and size against the
    reference tool's (first of ``reference`` present) smallest message size."""
    ref_tool = next((t for t in reference if t in set(g["tool"])), sorted(g["tool"])[0])
    ref = g[g["tool"] == ref_tool].sort_values("msg_size_bytes", na_position="last")
    ref_label = ref["label"].iloc[0]
    ref_vals = ref[ref["label"] == ref_label].drop_duplicates("stat").set_index("stat")["estimate"]
    rows = []
    for label, h in g.groupby("label", sort=False):
        vals = h.drop_duplicates("stat").set_index("stat")
        stat = _cross_stat(vals)
        r = vals.loc[stat]
        common = stat if stat in ref_vals.index and pd.notna(ref_vals.get(stat)) else "mean"
        ref = ref_vals.get(common, np.nan)
        own = vals.loc[common] if common in vals.index else pd.Series(dtype=object)
        rows.append(
            {
                **group,
                "tool": r["tool"],
                "msg_size_bytes": r["msg_size_bytes"],
                "label": label,
                "stat": stat,
                "estimate": r["estimate"],
                "ci_low": r["ci_low"],
                "ci_high": r["ci_high"],
                "level": r["level"],
                "method": r["method"],
                "source": r["source"],
                "converted_from": r["converted_from"],
                "mean": vals.at["mean", "estimate"] if "mean" in vals.index else np.nan,
                "reference": ref_label,
                "ratio_to_reference": own.get("estimate", np.nan) / ref,
                "ratio_of": common,
                "note": r["note"],
                "unit_of_analysis": r["unit_of_analysis"],
                "n_runs": r["n_runs"],
                "caption": _tool_caption(r, stat),
                "bound_low": r.get("bound_low", np.nan),
                "bound_high": r.get("bound_high", np.nan),
                **_ratio_bounds(own, ref),
            }
        )
    return rows


def _cross_stat(vals: pd.DataFrame) -> str:
    """The statistic a tool is shown by: its median, else its mean, where either has a value;
    else the one known as a bound (a median among Windows ping's ``time<1ms`` replies: below
    1000 µs, which page 40 had called no value at all); else the mean."""
    for column in ("estimate", "bound_high", "bound_low"):
        for stat in ("p50", "mean"):
            if stat in vals.index and pd.notna(vals.at[stat, column]):
                return stat
    return "mean"


def _ratio_bounds(own: pd.Series, ref: float) -> dict:
    """``ratio_bound_low`` / ``ratio_bound_high``: where a tool's value is known only as a
    bound, the bounds of its ratio to the reference's value (a low bound of 0 is none)."""
    lo, hi = own.get("bound_low", np.nan), own.get("bound_high", np.nan)
    known = pd.isna(own.get("estimate", np.nan)) and ref > 0
    return {
        "ratio_bound_low": lo / ref if known and lo > 0 else np.nan,
        "ratio_bound_high": hi / ref if known and np.isfinite(hi) else np.nan,
    }


def _pair_names(out: pd.DataFrame, by: Sequence[str]) -> list[str]:
    """Short names for a chart: the pair (campaign only when several), scenario and zones,
    or, for runs nothing else places, the heading they are under and the far end."""
    many = "campaign" in by and out["campaign"].nunique() > 1

    def known(v) -> str:
        return "" if v is None or pd.isna(v) else str(v)

    return [
        " · ".join(
            x
            for x in (
                known(r.get("campaign")) if many else "",
                known(r.get("scenario")),
                f"zones {str(r['zone_pair']).replace('-', '–')}"
                if known(r.get("zone_pair"))
                else "",
                f"‘{r['heading']}’" if known(r.get("heading")) else "",
                f"to {r['far_end']}" if known(r.get("far_end")) else "",
                known(r.get("vms")),
            )
            if x
        )
        for r in out.to_dict("records")
    ]


def _tool_caption(r: pd.Series, stat: str) -> str:
    """One tool's value in words: the statistic (or its bound), its interval, unit, runs and
    method."""
    value = fmt_bound(r) if pd.isna(r["estimate"]) else ""
    text = f"{r['label']}: {stat} {value or runlevel.fmt3(r['estimate']) + ' µs'} (round trip)"
    if pd.notna(r["ci_low"]) and pd.notna(r["ci_high"]):
        text += (
            f", {r['level']:.0%} CI {runlevel.fmt3(r['ci_low'])} to {runlevel.fmt3(r['ci_high'])}"
        )
    unit = r["unit_of_analysis"] if pd.notna(r["unit_of_analysis"]) else "printed value"
    printed = " (from the tool's printed summary)" if r["source"] == "reported" else ""
    runs = counted(int(r["n_runs"]), "run") if pd.notna(r["n_runs"]) else "? runs"
    text += f"; unit: {unit}{printed}, {runs}"
    return text + (f"; method: {r['method']}" if r["method"] else "; no interval")


def forest_frame(contrasts: pd.DataFrame) -> pd.DataFrame:
    """``contrasts`` ready for ``plots.forest``: ``low``/``high`` hold the confidence interval,
    or the bounds a printed range allows (the label then says ``[bounds]``), ``interval``
    says which; rows are ordered by factor."""
    out = contrasts.copy()
    ci = out["ci_low"].notna() & out["ci_high"].notna()
    bounds = ~ci & out["bound_low"].notna() & out["bound_high"].notna()
    out["low"] = out["ci_low"].where(ci, out["bound_low"].where(bounds))
    out["high"] = out["ci_high"].where(ci, out["bound_high"].where(bounds))
    out["interval"] = np.select([ci, bounds], ["confidence interval", "bounds"], "none")
    out.loc[bounds, "label"] = out.loc[bounds, "label"] + " [bounds]"
    out.loc[out["interval"] == "none", "label"] = out["label"] + " [printed]"
    order = {f: i for i, f in enumerate(FACTORS)}
    out["_o"] = out["factor"].map(order)
    return out.sort_values(["_o", "label"], kind="stable").drop(columns="_o").reset_index(drop=True)


def size_series(headline: pd.DataFrame) -> pd.DataFrame:
    """Headline rows of groups measured at several message sizes (same campaign, scenario,
    tool and everything else), with a ``series`` label, for ``plots.latency_vs_size``."""
    keep = [
        c
        for c in (
            "campaign",
            "scenario",
            "placement",
            "accelerated_networking",
            "vm_size",
            "src_zone",
            "dst_zone",
            "tool",
            "basis",
        )
        if c in headline
    ]
    h = headline[headline["msg_size_bytes"].notna()].copy()
    if h.empty:
        return h.assign(series=pd.Series(dtype=str))
    key = h[keep].astype("string").fillna("").agg(" · ".join, axis=1)
    h = h[key.map(key.value_counts()) > 1]
    n = h.groupby(key[h.index])["msg_size_bytes"].transform("nunique")
    h = h[n > 1]
    if h.empty:  # a row-wise join of no rows is a frame, not a column
        return h.assign(series=pd.Series(dtype=str))
    parts = [c for c in ("scenario", "placement", "tool") if c in h]
    h["series"] = h[parts].astype("string").fillna("").agg(" · ".join, axis=1)
    h["msg_size_bytes"] = h["msg_size_bytes"].astype(float)
    return h.reset_index(drop=True)
