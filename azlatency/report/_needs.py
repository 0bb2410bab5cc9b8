"""What each report notebook needs from a campaign, and whether a campaign has it.

``azlatency report`` asks :func:`missing` before it runs a notebook on a campaign: a notebook
whose question the data cannot answer gets a short page saying what is missing instead of
empty charts.  The checks read the stored tables only (runs and summaries; the samples'
time column for long runs), never the raw logs, and mirror the notebooks' own conditions:
when a check passes and a finer condition inside the notebook fails, the notebook says so
itself (``rep.nothing_to_show``).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from ..schema import Tables
from ._baseline import has_expectations
from ._before_after import has_baseline
from ._compare import PAIR, contrast_pairs, named_zone_pairs
from ._data import latency_runs, throughput_runs
from ._longrun import long_runs, reported_segments
from ._one_way import has_one_way
from ._zones import zoned_runs

_PCT = re.compile(r"^p\d")
# The samples' columns the checks read (``run_id`` is always read): a report's plan loads only
# these, not the whole samples table of every campaign.
SAMPLE_COLUMNS = ("time_ns", "tx_time_ns")


@dataclass(frozen=True)
class Need:
    """What a notebook needs (in words, for the page) and the check (``tables, params ->
    bool``)."""

    what: str
    check: Callable[[Tables, dict], bool]
    # one page per campaign: every page but the import overview shows one campaign, so its
    # words and marks (SYNTHETIC) are true of everything on it (issue 37)
    per_campaign: bool = False


def _latency(t: Tables, _p: dict) -> bool:
    return not latency_runs(t.runs).empty


def _percentiles(t: Tables, _p: dict) -> bool:
    ids = set(latency_runs(t.runs)["run_id"])
    if not ids:
        return False
    if t.samples["run_id"].isin(ids).any():
        return True
    s = t.summaries
    return bool((s["run_id"].isin(ids) & s["stat"].astype(str).str.match(_PCT)).any())


def _zones(t: Tables, _p: dict) -> bool:
    return not zoned_runs(t.runs).empty


def _contrasts(t: Tables, _p: dict) -> bool:
    return next(contrast_pairs(t.runs), None) is not None


def _throughput(t: Tables, _p: dict) -> bool:
    return not throughput_runs(t.runs, t.summaries).empty


def _long(t: Tables, p: dict) -> bool:
    hours = float(p.get("min_hours", 1.0))
    return not long_runs(t, min_hours=hours).empty or not reported_segments(t).empty


def _tools(t: Tables, _p: dict) -> bool:
    r = latency_runs(named_zone_pairs(t.runs))  # as page 40 pairs them: from all runs
    by = [c for c in PAIR if c in r.columns]
    if r.empty:
        return False
    key = r[by].astype("string").fillna("<NA>").agg("|".join, axis=1)
    return bool(r.groupby(key)["tool"].nunique().ge(2).any())


def _expectations(t: Tables, p: dict) -> bool:

    return has_expectations(t, p.get("data_root"))


def _baseline(t: Tables, p: dict) -> bool:

    return has_baseline(t, p.get("data_root"))


def _always(_t: Tables, _p: dict) -> bool:
    return True


NEEDS: dict[str, Need] = {
    "01": Need("an imported campaign", _always),
    "10": Need(
        "latency runs (sockperf, qperf *_lat, latte, ping, echo CSV, ethr latency)",
        _latency,
        per_campaign=True,
    ),
    "11": Need(
        "latency percentiles: per-packet samples or percentiles printed by the tool",
        _percentiles,
        per_campaign=True,
    ),
    "20": Need(
        "latency runs whose source and destination zones are both known (campaign.yaml's "
        "host inventory or rules say them)",
        _zones,
        per_campaign=True,
    ),
    "21": Need(
        "two latency runs that differ in exactly one of placement, accelerated networking, "
        "VM size or message size and agree on everything else",
        _contrasts,
        per_campaign=True,
    ),
    "22": Need(
        "throughput runs (iperf3, iperf 2, NTttcp, netperf *_STREAM, qperf *_bw, ethr, "
        "sockperf throughput, PsPing -b)",
        _throughput,
        per_campaign=True,
    ),
    "30": Need(
        "a long run: timed samples spanning min_hours or more, or printed tables of the "
        "records before a break",
        _long,
        per_campaign=True,
    ),
    # a campaign of one-way tools alone (owping, iperf 2 --trip-times) has only this page to
    # show its one-way delays, and the latency pages send the reader here
    "40": Need(
        "one pair of VMs measured by two or more latency tools, or one-way delays",
        lambda t, p: _tools(t, p) or has_one_way(t),
        per_campaign=True,
    ),
    "50": Need(
        "expectations in campaign.yaml (`expectations:`: a target per VM size, tool and metric)",
        _expectations,
        per_campaign=True,
    ),
    "60": Need(
        "a baseline campaign named in campaign.yaml (`baseline:`) and imported",
        _baseline,
        per_campaign=True,
    ),
    "90": Need("an imported campaign", _always, per_campaign=True),
}


def need(stem: str) -> Need:
    """The need of notebook ``NN-...`` (a notebook not listed here always runs)."""
    return NEEDS.get(stem[:2], Need("an imported campaign", _always))


def missing(stem: str, tables: Tables, params: dict | None = None) -> str | None:
    """``None`` when the campaign (``tables``) has what notebook ``stem`` needs, else the
    sentence saying what it lacks."""
    n = need(stem)
    if n.check(tables, params or {}):
        return None
    return f"needs {n.what}; this campaign has none."
