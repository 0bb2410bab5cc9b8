"""A page's claims as data: what is compared, on what evidence, with what uncertainty.

Every sentence of a campaign page that states a number, a ratio or a direction is one row of
a **claims table** (:data:`COLUMNS`), rendered to words by one function, :func:`render`, and
written beside the page (``claims.json``) so a change in what a page says shows in a diff.

Contrasts (one factor at a time: placement, accelerated networking, VM size, message size)
follow four rules, each tested on trap campaigns with known truth:

1. **A side is every group that matches it.**  A group is one pair of endpoints: a scenario,
   a zone pair (with its arrow where it is proven), the hosts the logs name.  A contrast whose
   sides hold several groups is estimated **per pair of groups** and reported as every pair,
   or as the range of its pairs with the pairs named — never by a side's first member, never
   as a pooled figure no pair has (seed 001: cross-zone is 1.56× same zone for 2→1 and 18–18.5×
   for the pairs with zone 3).
2. **Like with like.**  Groups are matched on the zones they share: a proximity placement
   group in zone 1 is compared with the same-zone runs in zone 1, not with zones 1–3; a group
   with no partner is named, and a contrast with no matched pair is refused with the reason.
   Message sizes are measured between the same VMs: there the partner is the group of the
   same endpoints (pings of 56 B to google.com are not set against 32 B to another host).
3. **Bounds, not points, from published ranges.**  "55 to 61.09" against "54 to 57" bounds the
   ratio to 0.96–1.13; bounds (or an interval) across 1 give no direction.
4. **Evidence is stated and ranked.**  Tested across runs, then the claims resting on the
   most observations; a printed mean with its std and count gets Fieller's interval (packets
   assumed independent, which the caveat says).
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pandas as pd

from .. import stats
from ..schema import Tables
from ._compare import (
    BASIS_WORDS,
    ENDPOINTS,
    FACTOR_NAMES,
    FACTORS,
    PRETTY_PLACEMENT,
    STAT_WORDS,
    Estimator,
    _show,
    apart_pairs,
    context_text,
    context_texts,
    contrast_pairs,
    file_names,
    mixed_protocols,
)
from ._data import host_pair, whole_ms
from ._memo import memo
from ._show import counted, fmt
from ._throughput import HELD, ThroughputEstimator, throughput_table

COLUMNS = [
    "claim_id",
    "section",
    "kind",  # ratio | range | pair | not_compared | statement
    "parent",  # a pair's range claim
    "factor",
    "a",  # the slower side (ratio ≥ 1), or the side named first
    "b",
    "groups_a",
    "groups_b",
    "runs_a",
    "runs_b",
    "n_runs_a",
    "n_runs_b",
    "n_obs_a",
    "n_obs_b",
    "context",
    "tool",
    "stat",
    "basis",
    "value_a",
    "value_b",
    "value_a_low",  # the low end of a published range (value_a is its high end)
    "value_b_low",
    "estimate",
    "estimate_low",  # a range claim: the smallest and largest pair ratio
    "estimate_high",
    "ci_low",
    "ci_high",
    "bound_low",
    "bound_high",
    "level",
    "p_value",
    "p_adj",
    "direction",  # a>b | a<b | none | mixed
    "evidence",
    "method",
    "caveat",
    "also",  # pairs whose scenarios differ in more than the factor (``_also_differ``)
    "text",
]
EVIDENCE_RANK = {
    "tested across runs": 0,
    "samples, one run a side": 1,
    "samples, runs alike": 1,
    "printed mean, std and count": 2,
    "bounds from published ranges": 3,
    "printed values": 4,
    "none": 5,
}
PRETTY = PRETTY_PLACEMENT


def pretty(value: object) -> str:
    """A factor's value as a page says it: ``'ppg'`` → ``'proximity placement group'``."""
    return PRETTY.get(str(value), str(value))


def side_name(factor: str, value: object) -> str:
    """One side of a contrast in words: ``'accelerated networking off'``, ``'D4s_v3'``,
    ``'1400 B messages'``, ``'cross-zone'``."""
    if factor == "accelerated_networking":
        return f"accelerated networking {_show(value)}"
    if factor == "vm_size":
        return str(value).removeprefix("Standard_")
    if factor == "msg_size_bytes":
        return f"{_show(value)} messages"
    return pretty(_show(value))


# ---------------------------------------------------------------------------------------------
# Groups and matching


def _zones(row: pd.Series) -> set[str]:
    z = {str(row[c]) for c in ("src_zone", "dst_zone") if c in row and pd.notna(row[c])}
    if "zone_pair" in row and pd.notna(row["zone_pair"]):
        z |= set(str(row["zone_pair"]).split("-"))
    return z


def group_label(row: pd.Series) -> str:
    """``'Azure CNI (AZ1 - AZ2) · 2→1'``: the scenario, then the arrow where the direction is
    proven, else the unordered pair, else the hosts."""
    parts = []
    if pd.notna(row.get("src_zone")) and pd.notna(row.get("dst_zone")):
        parts.append(f"{row['src_zone']}→{row['dst_zone']}")
    elif pd.notna(row.get("zone_pair")):
        parts.append(f"zones {str(row['zone_pair']).replace('-', '–')}")
    if pd.notna(row.get("scenario")):
        parts.append(str(row["scenario"]))
    elif not parts and (hosts := host_pair(row)):
        parts.append(hosts)
    return " · ".join(parts) or "all runs"


def groups(runs: pd.DataFrame) -> list[tuple[str, pd.DataFrame, set[str]]]:
    """(label, runs, zones) of each pair of endpoints among ``runs``, in a stable order."""
    cols = [c for c in ENDPOINTS if c in runs.columns]
    key = runs[cols].astype("string").fillna("")
    out = []
    for _, g in runs.groupby([key[c] for c in cols], sort=True, dropna=False):
        first = g.iloc[0]
        out.append((group_label(first), g, _zones(first)))
    labels = [lab for lab, _, _ in out]
    # two groups with one label (hosts the label leaves out): number them
    for i, (lab, g, z) in enumerate(out):
        if labels.count(lab) > 1:
            out[i] = (f"{lab} ({labels[: i + 1].count(lab)})", g, z)
    return out


def _matched(mine: set[str], theirs: set[str]) -> bool:
    """Two groups compare like with like when they share a zone (or either has none)."""
    return not mine or not theirs or bool(mine & theirs)


# ---------------------------------------------------------------------------------------------
# Estimating contrasts pair by pair


class Observations:
    """Observations behind a side of a contrast: its samples with a value, else what its
    runs printed as their count (counted once per campaign and column)."""

    def __init__(self, tables: Tables) -> None:
        self.t = tables
        self._ok: dict[str, pd.Series] = {}

    def __call__(self, runs: pd.DataFrame, basis: str) -> int:
        col = f"{basis}_us"
        s = self.t.samples
        if col not in self._ok:
            ok = (
                s["status"].astype(str).eq("ok") & s[col].notna()
                if col in s.columns
                else pd.Series(False, index=s.index)
            )
            self._ok[col] = s.loc[ok, "run_id"].astype(str).value_counts()
        ids = runs["run_id"].astype(str)
        n = int(self._ok[col].reindex(ids).fillna(0).sum())
        return n or self._printed(set(ids), basis)

    def _printed(self, ids: set[str], basis: str) -> int:
        s = self.t.summaries
        s = s[s["run_id"].isin(ids) & (s["metric"] == basis) & (s["source"] == "reported")]
        counts = s[s["stat"] == "count"].drop_duplicates("run_id")["value"]
        if len(counts):
            return int(counts.sum())
        n = s.drop_duplicates("run_id")["n"].dropna()
        return int(n.sum()) if len(n) else 0


def _evidence(r: dict) -> str:
    unit = str(r.get("unit_of_analysis"))
    if unit == "run" and r.get("testable"):
        return "tested across runs"
    if unit == "printed mean, std and count":
        return "printed mean, std and count"
    if r.get("source") == "cells":  # a figure from samples against a printed or binned one
        return "figures of two kinds"
    if pd.notna(r.get("bound_low")) and pd.notna(r.get("bound_high")):
        return "bounds from published ranges"
    if r.get("source") == "samples":
        # not testable with two or more runs a side: each side's runs alike (ping's whole
        # microseconds: two runs of 52 µs against two of 55 µs were 'one run a side')
        many = all(pd.notna(r.get(k)) and r[k] >= 2 for k in ("n_runs_a", "n_runs_b"))
        return "samples, runs alike" if many else "samples, one run a side"
    return "printed values" if pd.notna(r.get("estimate")) else "none"


def _direction(r: dict) -> str:
    """a>b (other slower), a<b, or none when the interval or the bounds cross 1."""
    for lo, hi in (("ci_low", "ci_high"), ("bound_low", "bound_high")):
        if pd.notna(r.get(lo)) and pd.notna(r.get(hi)):
            return "a>b" if r[lo] > 1 else "a<b" if r[hi] < 1 else "none"
    est = r.get("estimate")
    if est is None or pd.isna(est):
        return "none"
    return "a>b" if est > 1 else "a<b" if est < 1 else "none"


# Factors whose two values are measured between the same endpoints (one pair of VMs sends
# 64 B and 1400 B messages): a group's only partner is the group of the same endpoints.
SAME_ENDPOINTS = ("msg_size_bytes",)


def _endpoints(g: pd.DataFrame) -> tuple[str, ...]:
    first = g.iloc[0]
    # not the scenario: a folder (and so a scenario) per message size is still the same VMs
    return tuple(
        str(first[c]) if pd.notna(first[c]) else "" for c in ENDPOINTS if c in g and c != "scenario"
    )


def _os(g: pd.DataFrame) -> str:
    """The system the group's first run's output came from ('' where not known)."""
    return str(g["os"].iloc[0]) if "os" in g and pd.notna(g["os"].iloc[0]) else ""


def _pair_rows(est: Estimator, f, ref_groups, other_groups) -> tuple[list[dict], list[str]]:
    """Every matched (other group, reference groups) pair, estimated; and the groups left
    without a partner.  The side with more groups is walked; each of its groups is set
    against the groups of the other side that share a zone with it (pooled), or, for a
    factor of :data:`SAME_ENDPOINTS`, against the group of its own endpoints (64 B pings to
    google.com are never set against 32 B pings to another host)."""
    walk_other = len(other_groups) >= len(ref_groups)
    mine, theirs = (other_groups, ref_groups) if walk_other else (ref_groups, other_groups)
    rows, alone = [], []
    for label, g, zones in mine:
        if f in SAME_ENDPOINTS:
            # a group whose logs name no end may be any VMs: it has no partner; nor has one
            # whose client ran another system (ping's output names the far end only: a
            # Windows and a Linux ping of google.com are two clients, not two sizes of one)
            mine_ends = (*_endpoints(g), _os(g))
            partners = [
                p
                for p in theirs
                if any(mine_ends[:-1]) and (*_endpoints(p[1]), _os(p[1])) == mine_ends
            ]
            note = ""
        else:
            partners, note = _partners(zones, theirs)
            partners = _same_scenario(g, partners) or partners
        if not partners:
            alone.append(label)
            continue
        row = _estimate(est, f, g, partners, walk_other)
        if len(partners) > 1 and row.get("first_shown"):
            # one printed figure against several: '2605 µs vs 57.92 µs' stood for three
            # groups of 57.92, 887.6 and 2418 µs; each is said, none stands for the rest
            for p in partners:
                row = _estimate(est, f, g, [p], walk_other)
                rows.append(_pair_row(row, (label, g), [p], walk_other, f, note))
        else:
            rows.append(_pair_row(row, (label, g), partners, walk_other, f, note))
    if f in SAME_ENDPOINTS:
        for r in rows:
            r.pop("_scenarios")
    else:
        _also_differ(rows, f)
    return rows, alone


def _scenario_of(side: list) -> str | None:
    """The one scenario of a side's groups, or None (none, or several)."""
    names = {
        str(v) for _, g in side if "scenario" in g.columns for v in g["scenario"] if pd.notna(v)
    }
    return names.pop() if len(names) == 1 else None


def _words_of(scenario: str) -> set[str]:
    return set(re.findall(r"[\w-]+", scenario.lower()))


def _also_differ(rows: list[dict], f: str) -> None:
    """Pairs whose scenarios differ in more words than the factor's own, where another pair
    of the contrast is alike but for those: ``also`` says so.  A write-up's 'VM-VM without
    Acc' against 'VM-VM with Acc' (3.65×) and against 'VM-LB-VM with Acc' (1.80×, a load
    balancer in the path too): the second is no like-for-like measure of accelerated
    networking alone.  The factor's words are those every pair's scenarios differ in; where
    there are none, the scenario names do not describe the factor and say nothing here."""
    diffs = []
    for r in rows:
        sa, sb = r.pop("_scenarios", (None, None))
        diffs.append((_words_of(sa) ^ _words_of(sb), sa, sb) if sa and sb else None)
    known = [d for d in diffs if d is not None]
    if len(known) < 2:
        return
    factor = set.intersection(*(d[0] for d in known))
    alike = [d for d in known if d[0] <= factor]
    if not factor or not alike:
        # the names do not say the factor (experiments named 'placement', 'zone matrix': a
        # pair across them says nothing of what else differs), or no pair is alike but for it
        return
    name = _factor_name(f)
    for r, d in zip(rows, diffs):
        if d is not None and not d[0] <= factor:
            differ = (
                f"the two scenarios differ in more than {name} (‘{alike[0][1]}’ and "
                f"‘{alike[0][2]}’ in it alone)"
            )
            r["also"] = "; ".join(x for x in (r.get("also"), differ) if x)


def _estimate(est: Estimator, f, g: pd.DataFrame, partners: list, walk_other: bool) -> dict:
    """The contrast of group ``g`` against its ``partners`` pooled."""
    pooled = pd.concat([p[1] for p in partners])
    o, r = (g, pooled) if walk_other else (pooled, g)
    row = est(f, r, o)
    if whole_ms(o) and whole_ms(r):
        row["also"] = "; ".join(x for x in (row.get("also"), steps_left(row)) if x)
    return {**row, "_o": o, "_r": r}


def steps_left(row: dict, step: float = 1000.0) -> str:
    """What whole milliseconds leave of a contrast's ratio (``row``: its ``estimate`` of
    ``value_a`` against ``value_b``, each known only to [value, value + step)), or '' where
    they hold it within 5 %: Windows ping's medians of 1.5 ms against 1 ms are 1.5-2.5 ms
    against 1-2 ms, so 0.75x to 2.5x, not the 1.5x said."""
    ratio, a, b = (row.get(k) for k in ("estimate", "value_a", "value_b"))
    if not all(isinstance(v, (int, float)) and np.isfinite(v) and v > 0 for v in (ratio, a, b)):
        return ""
    low, high = ratio * b / (b + step), ratio * (a + step) / a
    if low >= 0.95 * ratio and high <= 1.05 * ratio:
        return ""
    if ratio < 1:  # said the slower side first, as the claim is (_oriented)
        low, high = 1 / high, 1 / low
    told = "" if low > 1 or high < 1 else ", so not told apart"
    return (
        f"known only to whole milliseconds (each side's figure lies within 1 ms above it): "
        f"{low:.3g}× to {high:.3g}×{told}"
    )


def _pair_row(row: dict, mine: tuple, partners: list, walk_other: bool, f, note: str) -> dict:
    label, g = mine
    if note:
        row["note"] = "; ".join(x for x in (row.get("note"), note) if x)
    o_side = [(label, g)] if walk_other else [(p[0], p[1]) for p in partners]
    r_side = [(p[0], p[1]) for p in partners] if walk_other else [(label, g)]
    scenarios = (_scenario_of(o_side), _scenario_of(r_side))
    if f not in SAME_ENDPOINTS:
        o_side, r_side = _apart(o_side, r_side)
    return {
        **row,
        "groups_a": [x[0] for x in o_side],
        "groups_b": [x[0] for x in r_side],
        "_scenarios": scenarios,
    }


def _same_scenario(g: pd.DataFrame, partners: list) -> list:
    """The partners of the group's own scenario (empty when it has none, or none shares it:
    the caller then keeps them all).  A write-up whose scenarios each measured several
    placements (a firewall in the path, a gateway, neither) sets cross-zone behind the
    firewall against same zone behind the firewall, not against the three same-zone figures
    together (nicolgit's latte tables: 2605 µs against '57.92 µs', another scenario's)."""
    first = g["scenario"].iloc[0] if "scenario" in g.columns else None
    if first is None or pd.isna(first):
        return []
    return [p for p in partners if p[1]["scenario"].eq(first).fillna(False).all()]


def _apart(a: list, b: list) -> tuple[list, list]:
    """Two sides whose groups share a label (a PPG pair and a same-zone pair, both '1→1 ·
    placement'): those groups get their hosts, so the sentence names two different pairs
    of VMs, not one group against itself."""
    shared = {x[0] for x in a} & {x[0] for x in b}
    if not shared:
        return a, b

    def named(side: list) -> list:
        out = []
        for lab, g in side:
            hosts = host_pair(g.iloc[0]) if lab in shared else ""
            out.append((f"{lab} · {hosts}" if hosts else lab, g))
        return out

    return named(a), named(b)


def _partners(zones: set[str], theirs: list) -> tuple[list, str]:
    """The groups of the other side to set against a group with ``zones``: those sharing a
    zone.  A group spanning two zones (cross-zone) with no such partner is set against all of
    them, which the note says; two single-zone groups in different zones are never compared
    (a PPG in zone 1 is not a same-zone pair in zone 3)."""
    shared = [p for p in theirs if _matched(zones, p[2])]
    if shared:
        return shared, ""
    if len(zones) > 1 or all(len(p[2]) > 1 for p in theirs):
        where = ", ".join(sorted({z for p in theirs for z in p[2]}))
        return list(
            theirs
        ), f"no partner in zones {'/'.join(sorted(zones))}: compared with zone {where}"
    return [], ""


@memo
def contrast_claims(
    tables: Tables,
    *,
    factors: Sequence[str] = FACTORS,
    stat: str = "p50",
    level: float = 0.95,
    adjust: str = "holm",
    rng=None,
    throughput: bool = True,
) -> pd.DataFrame:
    """The claims of every one-factor contrast (see the module doc): a ``ratio`` claim where
    one pair of groups is compared, a ``range`` claim over its ``pair`` claims where several
    are, a ``not_compared`` claim where no pair is like with like.  Adjusted over all of
    them (``finish_claims``).  ``throughput``: the contrasts of throughput runs too (page
    90's answer; page 21 asks about latency, and its chart is of latency ratios)."""
    out = [c for f in factors for c in factor_claims(tables, f, stat=stat, level=level, rng=rng)]
    if throughput:
        out += [c for f in factors for c in throughput_factor_claims(tables, f, level=level)]
    return finish_claims(pd.DataFrame(out), level, adjust)


@memo
def factor_claims(
    tables: Tables, factor: str, *, stat: str = "p50", level: float = 0.95, rng=None
) -> list[dict]:
    """The claims of one factor's contrasts, not yet adjusted, each a record.  Kept: page 21
    asks for every factor and page 90's answer for the asked factor, then the rest, and
    each of those lists had estimated every pair again.  A run-level ratio takes no random
    draw, so a factor's claims are the same alone as among the others."""
    est = Estimator(tables, stat=stat, level=level, rng=rng)
    pairs = list(contrast_pairs(est.runs, [factor]))
    texts = context_texts(pairs, mixed_protocols(est.runs))
    bases = [str(p[3].get("latency_basis")) for p in pairs]
    out = claims_of_pairs(est, pairs, texts, bases, stat, level, Observations(tables))
    apart = apart_pairs(est.runs, factor, pairs)
    return out + apart_claims(apart, tables.runs, factor, stat, level)


@memo
def throughput_factor_claims(tables: Tables, factor: str, *, level: float = 0.95) -> list[dict]:
    """The claims of one factor's throughput contrasts, not yet adjusted: runs of one tool,
    side of the test, stream count and end of the figure (:data:`_throughput.HELD`) at two
    values of ``factor``, the other factors alike, set side by side as latency runs are
    (:func:`factor_claims`), each run by its figure (``_throughput.ThroughputEstimator``).
    A campaign asked 'is throughput across zones lower?' was answered 'no two latency runs
    differ in placement alone'."""
    runs = throughput_contrast_runs(tables, level)
    if runs.empty:
        return []
    pairs = list(contrast_pairs(runs, [factor], held=HELD))
    # the protocol said where a tool used several
    texts = context_texts(pairs, mixed_protocols(runs, latency=False), throughput_context)
    est = ThroughputEstimator(level)
    out = claims_of_pairs(
        est, pairs, texts, ["throughput"] * len(pairs), "mean", level, _intervals_of
    )
    apart = apart_pairs(runs, factor, pairs, held=HELD)
    return out + apart_claims(apart, tables.runs, factor, "mean", level, what="throughput")


def throughput_contrast_runs(tables: Tables, level: float = 0.95) -> pd.DataFrame:
    """The rows of ``throughput_table`` with what a contrast holds or groups by (the runs'
    factors, ``HELD``, their ends): what :func:`contrast_pairs` is given, with ``held=HELD``."""
    tp = throughput_table(tables, level=level)
    extra = [c for c in (*HELD, *FACTORS, *ENDPOINTS, "os") if c not in tp.columns]
    return tp.merge(tables.runs.reindex(columns=["run_id", *extra]), on="run_id", how="left")


def throughput_context(context: dict, factor: str, mixed=frozenset()) -> str:
    """``'iperf3, server log, 2 streams, the receiver's figure'``: what the two sides of a
    throughput contrast share (:func:`_compare.context_text`'s, and these)."""
    parts = [context_text(context, factor, mixed)]
    if context.get("role") == "server":
        parts.append("server log")
    if pd.notna(streams := context.get("streams")):
        parts.append(counted(int(streams), "stream"))
    at_once = context.get("both_ways") is True or context.get("both_ways") is np.True_
    bidir = at_once and context.get("tool") != "iperf2"
    if at_once:
        parts.append(f"both ways at once ({'--bidir' if bidir else '-d'})")
    if context.get("side"):
        flow = " of the client-to-server flow" if bidir else ""
        parts.append(f"the {context['side']}'s figure{flow}")
    return ", ".join(parts)


def _intervals_of(runs: pd.DataFrame, _basis: str) -> int:
    """The interval rates behind a side of a throughput contrast (0 for printed figures)."""
    return int(pd.to_numeric(runs["n"], errors="coerce").fillna(0).sum())


def claims_of_pairs(
    est, pairs: list[tuple], texts: list[str], bases: list[str], stat: str, level: float, count
) -> list[dict]:
    """The claims of ``pairs`` (:func:`contrast_pairs`' tuples), each said as its ``texts``
    and of its ``bases`` (a latency basis, or ``'throughput'``), estimated pair of groups by
    pair of groups by ``est`` (an :class:`Estimator`'s call); ``count(runs, basis)``: the
    observations behind a side."""
    out: list[dict] = []
    for (f, ref, other, context, ref_runs, other_runs), shared, basis in zip(
        pairs, texts, bases, strict=True
    ):
        base = {
            "section": "answer",
            "factor": f,
            "context": shared,
            "tool": context.get("tool"),
            "stat": stat,
            "basis": basis,
            "level": level,
        }
        sides = (side_name(f, other), side_name(f, ref))
        ref_groups, other_groups = groups(ref_runs), groups(other_runs)
        nameless = f in SAME_ENDPOINTS and not any(
            any(_endpoints(g)) for _, g, _ in (*ref_groups, *other_groups)
        )
        rows, alone = _pair_rows(est, f, ref_groups, other_groups)
        for r in rows:
            r.update(
                n_obs_a=count(r["_o"], basis),
                n_obs_b=count(r["_r"], basis),
                runs_a=sorted(r.pop("_o")["run_id"]),
                runs_b=sorted(r.pop("_r")["run_id"]),
            )
        out += _claims_of(base, sides, rows, alone, nameless=nameless)
    return out


def apart_claims(
    apart, every: pd.DataFrame, factor: str, stat: str, level: float, what: str = ""
) -> list[dict]:
    """A ``not_compared`` claim for each of ``apart`` (:func:`apart_pairs`): a tool whose
    runs of two values no contrast sets side by side, or the runs of one side a tool's
    contrasts left out, named (as their files, ``every`` the campaign's runs); ``what``: the
    measure, where it is not latency ('throughput')."""
    name = FACTOR_NAMES.get(factor, factor)
    out = []
    for tool, ref, other, how, left in apart:
        why = f" in more than {name}" + (f" ({'; '.join(how)})" if how else "")
        claim = {
            "section": "answer",
            "factor": factor,
            "context": f"{tool} {what}".strip(),
            "tool": tool,
            "stat": stat,
            "level": level,
            "kind": "not_compared",
            "a": side_name(factor, other),
            "b": side_name(factor, ref),
            "caveat": "every run of one side differs from every run of the other" + why,
        }
        if left is not None:
            names = _run_names(left, every)
            claim.update(
                runs_a=sorted(left["run_id"]),
                n_runs_a=len(left),
                caveat=f"{names} {'differs' if len(left) == 1 else 'differ'} from every "
                f"{side_name(factor, ref)} run" + why,
            )
        out.append(claim)
    return out


def _run_names(runs: pd.DataFrame, every: pd.DataFrame, most: int = 3) -> str:
    """'`ping-a.log`, `ping-b.log:12` and 2 more': the files of ``runs`` (with the line
    where a file holds several of them; with its folder where ``every``, the campaign's runs,
    has two of that name), as Markdown code (a page would print '--' as '–')."""
    files = file_names(every, runs)
    line = runs["line_start"].astype("string").fillna("") if "line_start" in runs else ""
    many = files.duplicated(keep=False)
    named = [f"`{x}`" for x in dict.fromkeys(files.where(~many, files + ":" + line))]
    more = f" and {len(named) - most} more" if len(named) > most else ""
    return ", ".join(named[:most]) + more


def _claims_of(
    base: dict, sides: tuple[str, str], rows: list[dict], alone: list[str], *, nameless: bool
):
    """One contrast's claims: a ratio, or a range over its pairs, or not compared
    (``nameless``: no group of either side names an end)."""
    a, b = sides
    same = base["factor"] in SAME_ENDPOINTS
    if not rows:
        why = (
            "the logs name neither end of these runs, so nothing says both sizes were sent "
            "between the same VMs (campaign.yaml's hosts can say it)"
            if nameless
            else "no pair of endpoints was measured at both, so none compares like with like"
            if same
            else "no pair of groups shares a zone, so none compares like with like"
        )
        return [{**base, "kind": "not_compared", "a": a, "b": b, "caveat": why}]
    pairs = [_pair_claim(base, a, b, r) for r in rows]
    if alone:
        where = "the same endpoints" if same else "a shared zone"
        note = f"not compared (no partner in {where}): {', '.join(alone)}"
        for p in pairs:
            p["caveat"] = "; ".join(x for x in (p["caveat"], note) if x)
    if len(pairs) == 1:
        return [{**pairs[0], "kind": "ratio"}]
    head = _range_claim(base, a, b, pairs)
    for p in pairs:
        p["parent"] = head["claim_id"]
    return [head, *pairs]


def _pair_claim(base: dict, a: str, b: str, r: dict) -> dict:
    """A pair's claim, ``a`` = the other side (its ratio is other / reference)."""
    ga, gb = r.pop("groups_a"), r.pop("groups_b")
    ev = _evidence(r)
    caveat = str(r.get("note") or "")
    if ev in ("printed values", "bounds from published ranges"):
        caveat = caveat.split("; ")[-1] if "bounds" in caveat else caveat
    claim = {
        **base,
        "kind": "pair",
        "a": a,
        "b": b,
        "groups_a": ga,
        "groups_b": gb,
        **{k: r.get(k) for k in ("runs_a", "runs_b", "n_obs_a", "n_obs_b")},
        **{k: r.get(k) for k in ("value_a", "value_b", "value_a_low", "value_b_low")},
        **{k: r.get(k) for k in ("estimate", "ci_low", "ci_high")},
        **{k: r.get(k) for k in ("bound_low", "bound_high", "p_value", "method")},
        "n_runs_a": r.get("n_runs_a"),
        "n_runs_b": r.get("n_runs_b"),
        "stat": r.get("stat") or base["stat"],
        "evidence": ev,
        "caveat": caveat if ev != "tested across runs" else str(r.get("assumption") or ""),
        "also": r.get("also") or "",
        "direction": _direction(r),
    }
    claim["claim_id"] = _claim_id(claim)
    return claim


def _also_range(base: dict, pairs: list[dict]) -> str:
    """How many of a range's pairs compare scenarios that differ in more than the factor
    (each pair says which)."""
    also = [p for p in pairs if p.get("also")]
    if not also:
        return ""
    return (
        f"{len(also)} of the {len(pairs)} pairs {'compares' if len(also) == 1 else 'compare'} "
        "scenarios that differ in more than "
        f"{_factor_name(base['factor'])}"
    )


def _factor_name(f: str) -> str:
    return {"vm_size": "VM size"}.get(f, f.replace("_", " "))


def _range_claim(base: dict, a: str, b: str, pairs: list[dict]) -> dict:
    ratios = np.array([p["estimate"] for p in pairs], dtype=float)
    ratios = ratios[np.isfinite(ratios)]
    low, high = (float(ratios.min()), float(ratios.max())) if len(ratios) else (np.nan, np.nan)
    dirs = [p["direction"] for p in pairs]
    ev = max((p["evidence"] for p in pairs), key=lambda e: EVIDENCE_RANK.get(e, 9))  # weakest
    claim = {
        **base,
        "kind": "range",
        "a": a,
        "b": b,
        "groups_a": sorted({g for p in pairs for g in p["groups_a"]}),
        "groups_b": sorted({g for p in pairs for g in p["groups_b"]}),
        "runs_a": sorted({r for p in pairs for r in p["runs_a"]}),
        "runs_b": sorted({r for p in pairs for r in p["runs_b"]}),
        "n_runs_a": len({r for p in pairs for r in p["runs_a"]}),
        "n_runs_b": len({r for p in pairs for r in p["runs_b"]}),
        "n_obs_a": min(int(p["n_obs_a"] or 0) for p in pairs),
        "n_obs_b": min(int(p["n_obs_b"] or 0) for p in pairs),
        "stat": _one_stat(pairs),
        "estimate_low": low,
        "estimate_high": high,
        "direction": _range_direction(list(dirs)),
        "evidence": ev,
        "caveat": "; ".join(dict.fromkeys(p["caveat"] for p in pairs if p["caveat"])),
        "also": _also_range(base, pairs),
    }
    claim["claim_id"] = _claim_id(claim)
    return claim


def _one_stat(pairs: list[dict]) -> str:
    """A range's statistic: its pairs' one, or ``mixed`` (a pair of medians beside a pair of
    printed means: each pair then names its own)."""
    found = list(dict.fromkeys(str(p["stat"]) for p in pairs))
    return found[0] if len(found) == 1 else "mixed"


def _range_direction(dirs: list[str]) -> str:
    """One direction for a range: every pair's, ``partial`` when some pairs are not told
    apart and the rest agree, ``mixed`` when pairs point both ways."""
    found = set(dirs)
    if len(found) == 1:
        return found.pop()
    if {"a>b", "a<b"} <= found:
        return "mixed"
    return "partial" if found - {"none"} else "none"


def _claim_id(c: dict) -> str:
    ga = "+".join(c.get("groups_a") or [])
    gb = "+".join(c.get("groups_b") or [])
    return f"{c['factor']}:{c['a']}/{c['b']}:{c['context']}:{c['basis']}:{ga}/{gb}:{c['kind']}"


def finish_claims(out: pd.DataFrame, level: float, adjust: str) -> pd.DataFrame:
    """Holm over the tested claims, each claim oriented slower-first, ranked, rendered."""
    if out.empty:
        return pd.DataFrame(columns=COLUMNS)
    out = out.reindex(columns=COLUMNS)
    tested = out["evidence"].eq("tested across runs") & out["p_value"].notna()
    out["p_adj"] = np.nan
    if tested.any():
        out.loc[tested, "p_adj"] = stats.adjust_pvalues(
            out.loc[tested, "p_value"].to_numpy(dtype=float), adjust
        )
        # a direction needs the test to hold after adjustment over every claim of the page
        out.loc[tested & (out["p_adj"] >= 1 - level), "direction"] = "none"
        for i in out.index[out["kind"] == "range"]:
            dirs = list(out.loc[out["parent"] == out.at[i, "claim_id"], "direction"])
            out.at[i, "direction"] = _range_direction(dirs)
    out = pd.DataFrame([_oriented(r) for r in out.to_dict("records")], columns=COLUMNS)
    out = rank(out)
    mixed = set(out.loc[out["stat"].eq("mixed"), "claim_id"])
    out["text"] = [render(r, r["parent"] in mixed) for r in out.to_dict("records")]
    return out


def _oriented(c: dict) -> dict:
    """The slower side first: a ratio below 1 is turned over (a ↔ b, 1/x, bounds swapped)."""
    if c["kind"] == "range":
        lo, hi = c["estimate_low"], c["estimate_high"]
        turn = math.sqrt(lo * hi) < 1 if lo > 0 and hi > 0 else False
    else:
        est = c.get("estimate")
        turn = est is not None and pd.notna(est) and est < 1
    if not turn:
        return c
    c = dict(c)
    for x, y in (("a", "b"), ("groups_a", "groups_b"), ("runs_a", "runs_b")):
        c[x], c[y] = c[y], c[x]
    for x, y in (("n_runs_a", "n_runs_b"), ("n_obs_a", "n_obs_b"), ("value_a", "value_b")):
        c[x], c[y] = c[y], c[x]
    for x, y in (("value_a_low", "value_b_low"),):
        c[x], c[y] = c[y], c[x]

    def inv(v):
        return 1 / v if v is not None and pd.notna(v) and v != 0 else np.nan

    c["estimate"] = inv(c.get("estimate"))
    for x, y in (("ci_low", "ci_high"), ("bound_low", "bound_high")):
        c[x], c[y] = inv(c.get(y)), inv(c.get(x))
    c["estimate_low"], c["estimate_high"] = inv(c.get("estimate_high")), inv(c.get("estimate_low"))
    c["direction"] = {"a>b": "a<b", "a<b": "a>b"}.get(c["direction"], c["direction"])
    return c


def rank(claims: pd.DataFrame) -> pd.DataFrame:
    """Strongest evidence first: tested across runs, then the claims over the most runs, then
    those resting on the most observations (the smaller side's), then by evidence; what was
    not compared last (its runs are those left out); pairs stay under their range."""
    c = claims.copy()
    c["_ev"] = c["evidence"].map(EVIDENCE_RANK).fillna(9)
    num = {k: pd.to_numeric(c[k], errors="coerce").fillna(0) for k in COLUMNS if k[:2] == "n_"}
    c["_runs"] = -(num["n_runs_a"] + num["n_runs_b"])
    c["_obs"] = -np.minimum(num["n_obs_a"], num["n_obs_b"])
    c["_tested"] = c["_ev"].ne(0)
    c["_apart"] = c["kind"].eq("not_compared")
    keys = ["_apart", "_tested", "_runs", "_obs", "_ev"]
    heads = c[c["parent"].isna()].sort_values(keys, kind="stable")
    order = []
    for i, h in heads.iterrows():
        order.append(i)
        order += list(c.index[c["parent"] == h["claim_id"]])
    return c.loc[order].drop(columns=[*keys]).reset_index(drop=True)


# ---------------------------------------------------------------------------------------------
# Words


def _num(x: float) -> str:
    return f"{x:.3g}" if abs(x) < 100 else f"{x:.0f}"


def _what(c: dict) -> str:
    stat = STAT_WORDS.get(str(c["stat"]), str(c["stat"]))
    what = f"{c['context']}; {stat} {BASIS_WORDS.get(str(c['basis']), c['basis'])}"
    return what + (", each pair says which" if c["stat"] == "mixed" else "")


def _n(x) -> int:
    return int(x) if x is not None and pd.notna(x) else 0


def _evidence_words(c: dict) -> str:
    ev = c["evidence"]
    k = f"{_n(c['n_runs_a'])} vs {_n(c['n_runs_b'])} runs"
    if ev == "tested across runs":
        p = f", adjusted p = {c['p_adj']:.2g}" if pd.notna(c.get("p_adj")) else ""
        return f"tested across runs, {k}{p}"
    if ev == "printed values" and c["kind"] == "range":
        return "printed values, one run a group: no test"
    if ev == "printed values":
        one = c["n_runs_a"] == 1 and c["n_runs_b"] == 1
        return "printed values, one run each: no test" if one else f"printed values, {k}: no test"
    return {
        "printed mean, std and count": "from the printed mean, std and count; packets assumed "
        "independent, one run a side",
        "bounds from published ranges": "bounds from published ranges, not an interval",
        "samples, one run a side": "one run a side: no test across runs",
        "samples, runs alike": f"{k}, each side's runs alike: no run-to-run variation to test",
        # which pair's figure is of which kind: the note _answer._cells_ratio wrote
        "figures of two kinds": str(c.get("caveat")).split("; bounds")[0],
    }.get(ev, ev)


def _interval(c: dict) -> str:
    if pd.notna(c.get("ci_low")) and pd.notna(c.get("ci_high")):
        return f"{c['level']:.0%} CI of the ratio {c['ci_low']:.2f} to {c['ci_high']:.2f}"
    if pd.notna(c.get("bound_low")) and pd.notna(c.get("bound_high")):
        return f"the ratio lies between {c['bound_low']:.2f} and {c['bound_high']:.2f}"
    return ""


def _value(c: dict, side: str) -> str:
    v, lo = c.get(f"value_{side}"), c.get(f"value_{side}_low")
    unit = "bps" if c.get("basis") == "throughput" else "us"
    if lo is not None and pd.notna(lo) and lo != v:
        return f"{fmt(lo, unit).split()[0]}–{fmt(v, unit)}"
    return fmt(v, unit)


def _sides(c: dict) -> tuple[str, str]:
    """The two sides as a ratio's sentence names them: a throughput's ratio is of the
    throughputs ('same zone's throughput is 4.29× cross-zone's'), a latency's of the sides."""
    if c.get("basis") == "throughput":
        return f"{_whose(c['a'])} throughput", _whose(c["b"])
    return c["a"], c["b"]


def _whose(side: str) -> str:
    """'same zone's', '1400 B messages'' (not 'messages's')."""
    return f"{side}'" if str(side).endswith("messages") else f"{side}'s"


def _values(c: dict, stat_said: bool = False) -> str:
    if pd.isna(c.get("value_a")) or pd.isna(c.get("value_b")):
        return ""
    stat = f"{STAT_WORDS.get(str(c['stat']), c['stat'])} " if stat_said else ""
    return f"{stat}{_value(c, 'a')} vs {_value(c, 'b')}{_not_quotient(c)}"


def _not_quotient(c: dict) -> str:
    """Why the two figures shown do not divide to the ratio, where they do not: a test across
    runs estimates the ratio of the runs' geometric means (Welch on their logs), and each side
    is shown by the median over its runs (synthetic-westeurope's 1→3 against 1→2 was
    '9.91× (...; 1428 µs vs 142.2 µs; ...)', which divide to 10.04)."""
    va, vb, est = (c.get(k) for k in ("value_a", "value_b", "estimate"))
    if c.get("evidence") != "tested across runs" or not all(
        isinstance(x, (int, float)) and np.isfinite(x) and x > 0 for x in (va, vb, est)
    ):
        return ""
    if f"{va / vb:.2f}" == f"{est:.2f}":
        return ""
    return ", medians over the runs; the ratio is of their geometric means"


def _pair_words(c: dict) -> str:
    ga = ", ".join(c["groups_a"] or [])
    gb = ", ".join(c["groups_b"] or [])
    if ga == gb and c.get("factor") in SAME_ENDPOINTS:  # the same VMs at two sizes: once
        return f"{c['estimate']:.2f}× ({ga})"
    return f"{c['estimate']:.2f}× ({ga} vs {gb})"


def render(c: dict, stat_said: bool = False) -> str:
    """A claim in words — the only place a claim becomes a sentence (``stat_said``: a pair
    names its statistic, under a range of mixed ones)."""
    kind = c["kind"]
    if kind == "statement":  # a sentence its builder wrote (stability, baseline, zone pairs)
        return str(c["text"])
    if kind == "not_compared":
        n = _n(c.get("n_runs_a"))  # runs of side a left out by the contrasts that were made
        head = f"{counted(n, 'run')} of {c['a']} not compared" if n else "not compared"
        return f"**{c['a']} vs {c['b']}: {head}** ({c['context']}): {c['caveat']}."
    finite = [c.get(k) for k in ("estimate", "estimate_low", "estimate_high")]
    if not any(v is not None and pd.notna(v) and np.isfinite(v) for v in finite):
        why = str(c.get("caveat") or "no statistic both sides printed").split("; ")[0]
        return f"**{c['a']} vs {c['b']}: not compared** ({c['context']}): {why}."
    what, ev = _what(c), _evidence_words(c)
    a, b = _sides(c)
    if kind == "range":
        head = (
            f"**{a} is {c['estimate_low']:.2f}× to {c['estimate_high']:.2f}× {b}, "
            "depending on the pair"
        )
        if c["direction"] == "mixed":  # said once: not '..., depending on the pair' again
            head = (
                f"**{c['a']} against {c['b']}: {c['estimate_low']:.2f}× to "
                f"{c['estimate_high']:.2f}×, the direction depends on the pair"
            )
        if c["direction"] in ("partial", "none"):
            ev += "; not every pair is told apart"
        if c.get("also"):
            ev += f"; {c['also']}"
        return f"{head}** ({what}; {ev}):"
    sub = kind == "pair"
    values = _values(c, stat_said)
    interval = _interval(c)
    detail = "; ".join(x for x in (values, interval, ev, c.get("also")) if x)
    if c["direction"] == "none":
        why = (
            "bounds include 1"
            if "bounds" in c["evidence"]
            else "not significant after adjustment over the page's tests"
            if pd.notna(c.get("p_adj")) and pd.notna(c.get("ci_low")) and not c["ci_low"] <= 1
            else "interval includes 1"
            if pd.notna(c.get("ci_low"))
            else "the two figures are equal"  # no interval: a ratio of exactly 1
        )
        if sub:
            return f"{_pair_words(c)}: no direction ({why}); {detail}."
        if why.startswith("not significant"):  # an interval without 1 needs the reason said
            detail += f"; the interval excludes 1, but the test is {why}"
        return f"**{c['a']} and {c['b']} are not told apart** ({what}; {detail})."
    if sub:
        return f"{_pair_words(c)}: {detail}."
    if c["evidence"] == "bounds from published ranges":
        interval = f"{c['bound_low']:.2f}× to {c['bound_high']:.2f}×"
        # what the ratio leaves out is said here too: a run that printed no median was left
        # out of '1→2 is 1.30× to 1.41× 2→1' unsaid
        detail = "; ".join(x for x in (values, ev, c.get("also")) if x)
        return f"**{a} is {interval} {b}** ({what}; {detail})."
    return f"**{a} is {c['estimate']:.2f}× {b}** ({what}; {detail})."


def markdown(claims: pd.DataFrame) -> str:
    """The claims as a Markdown list, pairs indented under their range."""
    lines = []
    for c in claims.to_dict("records"):
        indent = "  " if c["kind"] == "pair" else ""
        lines.append(f"{indent}- {c['text']}")
    return "\n".join(lines)


def to_records(claims: pd.DataFrame) -> list[dict]:
    """JSON-ready rows (NaN → None, numpy → Python)."""
    out = []
    for r in claims.to_dict("records"):
        row = {}
        for k, v in r.items():
            if isinstance(v, (list, tuple, np.ndarray)):
                row[k] = [x.item() if hasattr(x, "item") else x for x in v]
            elif v is None or (isinstance(v, float) and math.isnan(v)) or v is pd.NA:
                row[k] = None
            else:
                row[k] = v.item() if hasattr(v, "item") else v
        out.append(row)
    return out


def write(claims: pd.DataFrame, path: str | Path) -> Path:
    """``claims.json`` beside a page: every claim, sorted keys, one diff-friendly file."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps(to_records(claims), indent=1, sort_keys=True, ensure_ascii=False)
    path.write_text(text + "\n", encoding="utf-8")
    return path


__all__ = ["COLUMNS", "FACTOR_NAMES", "contrast_claims", "markdown", "render", "write"]


def forest(claims: pd.DataFrame) -> pd.DataFrame:
    """The claims a forest plot draws (``plots.forest``): every single ratio and every pair of
    a range — never a range's pooled figure — with ``low``/``high`` its interval or its bounds
    (``interval`` says which, ``none`` for printed values) and a ``label`` naming both sides."""
    rows = claims[claims["kind"].isin(["ratio", "pair"]) & claims["estimate"].notna()].copy()
    if rows.empty:
        return rows.assign(low=[], high=[], interval=[], label=[])
    ci = rows["ci_low"].notna() & rows["ci_high"].notna()
    bounds = ~ci & rows["bound_low"].notna() & rows["bound_high"].notna()
    rows["low"] = rows["ci_low"].where(ci, rows["bound_low"].where(bounds))
    rows["high"] = rows["ci_high"].where(ci, rows["bound_high"].where(bounds))
    rows["interval"] = np.select([ci, bounds], ["confidence interval", "bounds"], "none")

    def label(r) -> str:
        pair = ""
        if r["kind"] == "pair":
            pair = f" · {', '.join(r['groups_a'])} / {', '.join(r['groups_b'])}"
        mark = {"bounds": " [bounds]", "none": " [printed]"}.get(r["interval"], "")
        return f"{r['a']} / {r['b']} ({r['context']}){pair}{mark}"

    rows["label"] = [label(r) for r in rows.to_dict("records")]
    return rows.reset_index(drop=True)
