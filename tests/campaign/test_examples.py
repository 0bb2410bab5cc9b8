"""The bundled example campaigns import with the right labels, and re-import changes nothing."""

from __future__ import annotations

import shutil

import pytest

from azlatency import campaign as camp
from tests.campaign.conftest import tree_digest
from tests.conftest import EXAMPLES, RAW


def _import(campaign, stores):
    return camp.import_campaign(RAW / campaign, root=stores, workers=1)


def test_seed000_pairs_come_from_prompt_host_target_ip_and_inventory(stores):
    report = _import("seed000-az-vs-as", stores)
    # 8 logs (README.md is ignored by campaign.yaml, campaign.yaml is metadata)
    assert report.not_imported.reason.tolist() == ["ignored"]
    runs = camp.load("seed000-az-vs-as", stores).runs.set_index("source_path")
    assert len(runs) == 8 and runs.index.is_unique
    zones, avset = (
        runs.loc[runs.index.str.startswith("zones/")],
        runs.loc[runs.index.str.startswith("avset/")],
    )
    # seed 000 line 26: "root@malzonka02 ... sockperf ping-pong -i 10.0.1.4"; malzonka02 is in
    # zone 3 and malzonka01 (10.0.1.4) in zone 1 (lines 20-21).
    assert set(zones.src_host) == {"malzonka02"} and set(zones.dst_host) == {"malzonka01"}
    assert set(zones.src_zone) == {"3"} and set(zones.dst_zone) == {"1"}
    assert set(zones.placement) == {"cross_zone"}
    # lines 117-121: malzonka04 -> 10.0.1.6 (malzonka03), same availability set, no zones
    assert set(avset.src_host) == {"malzonka04"} and set(avset.dst_host) == {"malzonka03"}
    assert set(avset.placement) == {"availability_set"}
    assert avset[["src_zone", "dst_zone"]].isna().all(axis=None)
    assert set(runs.region) == {"westeurope"} and set(runs.vm_size) == {"Standard_D4as_v4"}
    assert runs.accelerated_networking.all()
    # the sockperf m350 run on the availability set has its prompt on the line above a fence
    assert runs.loc["avset/sockperf-tcp-m350.log", "prompt_host"] == "malzonka04"
    assert runs.loc["zones/ping.log", "tool"] == "ping"  # labelled by rule (no host printed)
    assert report.quality.empty


def test_seed001_zones_and_directions_come_from_the_addresses(stores):
    """The headings name two zones; the logs' addresses say which end ran the client: the
    server of every ``AZ1 - ...`` section is 10.2.0.21, so that pod is the zone-1 end, and the
    cross-zone pairs are 2→1, 3→1 and 3→2 (issue 37, item 2).  qperf and ntttcp print no
    address: their pair is known, their direction is not."""
    report = _import("seed001-aks-azure-cni", stores)
    assert report.not_imported.reason.tolist() == ["ignored"]
    runs = camp.load("seed001-aks-azure-cni", stores).runs
    expected = {  # file: (client zone, server zone, pair, placement)
        "az1-az1.md": ("1", "1", "1-1", "same_zone"),
        "az1-az2.md": ("2", "1", "1-2", "cross_zone"),
        "az2-az3.md": ("3", "2", "2-3", "cross_zone"),
        "az1-az3.md": ("3", "1", "1-3", "cross_zone"),
    }
    for path, group in runs.groupby("source_path"):
        # five scenarios x four tools (qperf may report tcp_bw and tcp_lat as two runs)
        assert {"iperf3", "ntttcp", "qperf", "sockperf"} <= set(group.tool), path
        if path == "single-node.md":
            assert set(group.placement) == {"same_node"}
            assert set(group.scenario) == {"Azure CNI (single node)"}
            continue
        src, dst, pair, placement = expected[path]
        assert set(group.zone_pair) == {pair} and set(group.placement) == {placement}
        assert set(group.scenario) == {f"Azure CNI (AZ{pair[0]} - AZ{pair[-1]})"}
        addressed = group[group.tool.isin(["iperf3", "sockperf"])]
        assert set(addressed.src_zone) == {src} and set(addressed.dst_zone) == {dst}, path
        silent = group[group.tool.isin(["qperf", "ntttcp"])]
        if src != dst:
            assert silent.src_zone.isna().all() and silent.dst_zone.isna().all(), path
    assert set(runs.vm_size) == {"Standard_D8ds_v4"} and set(runs.region) == {"westeurope"}
    q = report.quality
    assert set(q[q.issue == "unordered_zones"].source_path) == {
        "az1-az2.md",
        "az2-az3.md",
        "az1-az3.md",
    }
    assert set(q[q.issue == "unlabelled_zones"].source_path) == {"single-node.md"}
    assert not q.issue.isin(["zone_direction", "zone_conflict"]).any()


def test_seed002_latte_logs_and_reported_comparison(stores):
    _import("seed002-ppg-latte", stores)
    t = camp.load("seed002-ppg-latte", stores)
    assert len(t.runs) == 9
    logs = t.runs[t.runs.parser_variant != "reported-csv"].set_index("source_path")
    assert set(logs.index) == {
        "b1s-cross-zone/latte-sender.log",
        "b1s-cross-zone/latte-receiver.log",
    }
    assert set(logs.vm_size) == {"Standard_B1s"} and set(logs.placement) == {"cross_zone"}
    assert not logs.accelerated_networking.any() and set(logs.region) == {"canadacentral"}
    s = t.summaries
    sender = logs.loc["b1s-cross-zone/latte-sender.log", "run_id"]
    # seed 002 line 136: "Latency(usec) 2026.40"
    rtt = s[(s.run_id == sender) & (s.metric == "rtt") & (s["stat"] == "mean")]
    assert rtt.value.tolist() == [2026.40]


def test_seed004_reported_echo_tables(stores):
    report = _import("seed004-echo-uksouth", stores)
    assert report.counts == {"runs": 18, "samples": 0, "summaries": 30}
    t = camp.load("seed004-echo-uksouth", stores)
    assert set(t.runs.parser_variant) == {"reported-csv"} and set(t.summaries.source) == {
        "reported"
    }
    assert set(t.runs.placement) == {"same_zone", "cross_zone", "cross_region"}
    assert set(t.runs.vm_size) == {"Standard_B1s"}
    # only the UK West client has no zone
    assert set(report.quality.issue) == {"unlabelled_zones"}
    assert len(report.quality) == 6


@pytest.mark.parametrize("campaign", EXAMPLES)
def test_reimport_changes_nothing_and_raw_is_never_written(campaign, stores):
    raw_before = tree_digest(RAW / campaign, mtimes=True)
    first = camp.import_campaign(RAW / campaign, root=stores, workers=1)
    store = stores / campaign
    snapshot = tree_digest(store, mtimes=True)
    again = camp.import_campaign(RAW / campaign, root=stores, workers=1)
    assert (again.changed, again.parsed, again.reused) == (False, 0, first.parsed)
    assert tree_digest(store, mtimes=True) == snapshot  # not even rewritten
    # From scratch: byte-identical files (no timestamps in Parquet or the manifest).
    shutil.rmtree(store)
    camp.import_campaign(RAW / campaign, root=stores, workers=1)
    assert tree_digest(store) == {k: v[:1] for k, v in snapshot.items()}
    assert tree_digest(RAW / campaign, mtimes=True) == raw_before
    assert not [
        p
        for p in stores.iterdir()
        if p.name.startswith(f".{campaign}.") and not p.name.endswith(".lock")
    ]
