"""Labelling: what the log says, then rules, the inventory, derived placement, defaults."""

from __future__ import annotations

import json

from azlatency import schema
from azlatency.campaign.config import parse_campaign
from azlatency.campaign.labels import label_runs

INVENTORY = """
defaults: {region: westeurope, vm_size: Standard_D4as_v4, accelerated_networking: true}
hosts:
  malzonka01: {ip: 10.0.1.4, zone: 1}
  malzonka02: {ip: 10.0.1.5, zone: 3}
  malzonka03: {ip: 10.0.1.6, zone: none, availability_set: as1}
  malzonka04: {ip: 10.0.1.7, zone: none, availability_set: as1}
  ppg-a: {ip: 10.1.0.4, zone: 2, ppg: ppg1}
  ppg-b: {ip: 10.1.0.5, zone: 2, ppg: ppg1}
  uk-west: {ip: 10.9.0.4, region: ukwest}
  uk-south: {ip: 10.8.0.4, region: uksouth, zone: 1}
"""


def _runs(*metas: dict):
    rows = []
    for i, meta in enumerate(metas):
        rows.append(
            {
                "run_id": f"r{i}",
                "source_path": meta.pop("source_path", f"f{i}.log"),
                "source_sha256": "0" * 64,
                "block": 0,
                "line_start": 1,
                "line_end": 2,
                "tool": meta.pop("tool", "sockperf"),
                "parser_variant": "test",
                "complete": True,
                **meta,
            }
        )
    return schema.frame("runs", rows)


def _label(text: str, *metas: dict):
    runs, issues = label_runs(_runs(*metas), parse_campaign(text), "c")
    return runs, issues


def test_prompt_host_is_the_client_and_the_target_ip_the_server():
    # seed 000 line 26: root@malzonka02 ... sockperf ping-pong -i 10.0.1.4
    runs, issues = _label(INVENTORY, {"prompt_host": "malzonka02", "dst_ip": "10.0.1.4"})
    r = runs.iloc[0]
    assert (r.src_host, r.dst_host, r.src_zone, r.dst_zone) == (
        "malzonka02",
        "malzonka01",
        "3",
        "1",
    )
    assert r.src_ip == "10.0.1.5" and r.placement == "cross_zone"
    assert (r.region, r.vm_size, bool(r.accelerated_networking)) == (
        "westeurope",
        "Standard_D4as_v4",
        True,
    )
    assert r.campaign == "c" and issues == []


def test_a_host_named_by_its_ip_gets_the_inventory_name_without_a_conflict():
    # `ping 10.0.1.4` names the target by its address
    runs, issues = _label(INVENTORY, {"dst_host": "10.0.1.4", "dst_ip": "10.0.1.4"})
    assert runs.iloc[0].dst_host == "malzonka01" and runs.iloc[0].dst_zone == "1"
    assert [i for i in issues if i["issue"] == "label_conflict"] == []


def test_a_server_side_log_puts_the_prompt_host_on_the_destination():
    runs, _ = _label(INVENTORY, {"prompt_host": "malzonka01", "role": "server"})
    assert runs.iloc[0].dst_host == "malzonka01" and runs.iloc[0].dst_zone == "1"


def test_availability_set_pair_has_no_zone_and_no_missing_zone_issue():
    runs, issues = _label(INVENTORY, {"prompt_host": "malzonka04", "dst_ip": "10.0.1.6"})
    r = runs.iloc[0]
    assert r.placement == "availability_set" and r.dst_host == "malzonka03"
    assert runs[["src_zone", "dst_zone"]].isna().all(axis=None)  # regional VMs have no zone
    assert issues == []


def test_ppg_same_node_and_cross_region_are_derived_from_the_inventory():
    runs, _ = _label(
        INVENTORY,
        {"prompt_host": "ppg-a", "dst_ip": "10.1.0.5"},
        {"prompt_host": "ppg-a", "dst_host": "ppg-a"},
        {"src_ip": "10.9.0.4", "dst_ip": "10.8.0.4"},
    )
    assert list(runs.placement) == ["ppg", "same_node", "cross_region"]


def test_heading_rule_assigns_zones_and_formats_the_scenario():
    text = """
rules:
  - heading: 'AZ(?P<src_zone>\\d) - AZ(?P<dst_zone>\\d)'
    set: {scenario: "AZ{src_zone} to AZ{dst_zone}", labels: {pair: "{src_zone}{dst_zone}"}}
"""
    runs, issues = _label(text, {"heading": "AZ1 - AZ3"}, {"heading": "Inside single node"})
    a = runs.iloc[0]
    assert (a.src_zone, a.dst_zone, a.scenario, a.placement) == (
        "1",
        "3",
        "AZ1 to AZ3",
        "cross_zone",
    )
    assert json.loads(a.labels) == {"pair": "13"}
    assert runs.iloc[1][["src_zone", "dst_zone"]].isna().all()
    assert [i["issue"] for i in issues] == ["unlabelled_zones"] and issues[0]["run_id"] == "r1"


def test_path_template_and_glob_rules_apply_in_order():
    text = """
rules:
  - path: "{src_zone}-{dst_zone}/{tool}.log"
  - glob: "1-*/*"
    set: {scenario: from zone 1}
  - glob: "*/ping.log"
    set: {scenario: ping, accelerated_networking: "off"}
"""
    runs, _ = _label(
        text,
        {"source_path": "1-2/ping.log", "tool": "ping"},
        {"source_path": "logs.zip!/1-3/sockperf.log"},
    )
    assert list(runs.scenario) == ["ping", "from zone 1"]  # the later rule wins
    assert list(runs.dst_zone) == ["2", "3"]
    assert runs.accelerated_networking.tolist()[0] is False


def test_what_the_file_says_wins_and_a_disagreement_is_reported():
    text = (
        INVENTORY
        + """
rules:
  - glob: "*"
    set: {dst_zone: 2, scenario: x}
"""
    )
    # A reported-values row states its zones; the rule and the inventory disagree with it.
    runs, issues = _label(
        text,
        {"prompt_host": "malzonka02", "dst_ip": "10.0.1.4", "dst_zone": "1", "scenario": "given"},
    )
    r = runs.iloc[0]
    assert (r.dst_zone, r.scenario) == ("1", "given")
    details = [i["detail"] for i in issues if i["issue"] == "label_conflict"]
    assert sorted(details) == [
        "dst_zone: a campaign.yaml rule says '2', kept '1'",
        "scenario: a campaign.yaml rule says 'x', kept 'given'",
    ]


def test_inventory_disagreeing_with_a_rule_is_a_conflict():
    text = INVENTORY + "rules:\n  - glob: '*'\n    set: {src_zone: 2}\n"
    runs, issues = _label(text, {"prompt_host": "malzonka02"})
    assert runs.iloc[0].src_zone == "2"
    assert issues[0]["detail"] == "src_zone: the inventory (malzonka02) says '3', kept '2'"


def test_defaults_fill_last_and_labels_merge():
    text = """
defaults: {placement: same_zone, scenario: default, labels: {a: "1", b: "2"}}
rules:
  - glob: "*"
    set: {labels: {b: "3"}}
"""
    runs, _ = _label(text, {"labels": '{"c": "4"}'})
    r = runs.iloc[0]
    assert (r.placement, r.scenario) == ("same_zone", "default")
    assert json.loads(r.labels) == {"a": "1", "b": "3", "c": "4"}


def test_no_campaign_yaml_leaves_fields_empty_and_says_so():
    runs, issues = _label("", {"prompt_host": "vm9", "dst_ip": "10.0.0.9"})
    r = runs.iloc[0]
    assert r.src_host == "vm9" and r.dst_ip == "10.0.0.9"
    assert runs[["src_zone", "dst_zone", "placement", "region"]].isna().all(axis=None)
    assert issues == [
        {"run_id": "r0", "issue": "unlabelled_zones", "detail": "src_zone and dst_zone unknown"}
    ]
