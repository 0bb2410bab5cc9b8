"""Zones from evidence (issue 37, item 2): host → zone solved over the whole campaign from
labelled pairs and the addresses the logs print; a direction only where it is proven."""

from __future__ import annotations

from azlatency.campaign.zones import pair_label
from tests.campaign.test_labels import _label

HEADING_PAIR = """
rules:
  - heading: 'AZ(?P<zone_a>\\d) - AZ(?P<zone_b>\\d)'
    set: {scenario: "AZ{zone_a} - AZ{zone_b}"}
"""
HEADING_ORDERED = HEADING_PAIR.replace("zone_a", "src_zone").replace("zone_b", "dst_zone")


def _by_heading(text: str, *runs: dict):
    runs_, issues = _label(text, *runs)
    return runs_.set_index("run_id"), issues


def test_a_recurring_host_settles_the_direction_of_every_pair():
    # seed 001's shape: the server of both 'AZ1 - ...' sections is one pod; the same-zone
    # section puts it in zone 1, so the client of 'AZ1 - AZ2' is the zone-2 end.
    runs, issues = _by_heading(
        HEADING_PAIR,
        {"heading": "AZ1 - AZ1", "src_ip": "10.2.0.160", "dst_ip": "10.2.0.21"},
        {"heading": "AZ1 - AZ2", "src_ip": "10.2.0.58", "dst_ip": "10.2.0.21"},
        {"heading": "AZ2 - AZ3", "dst_ip": "10.2.0.58"},  # sockperf: only the server's address
        {"heading": "AZ1 - AZ3", "tool": "qperf"},  # no address at all
    )
    got = runs[["src_zone", "dst_zone", "zone_pair", "placement"]].astype(object)
    assert got.loc["r0"].tolist() == ["1", "1", "1-1", "same_zone"]
    assert got.loc["r1"].tolist() == ["2", "1", "1-2", "cross_zone"]
    assert got.loc["r2"].tolist() == ["3", "2", "2-3", "cross_zone"]
    r3 = got.loc["r3"]
    assert r3.isna()["src_zone"] and r3.isna()["dst_zone"]  # never a guessed arrow
    assert (r3["zone_pair"], r3["placement"]) == ("1-3", "cross_zone")
    assert [(i["run_id"], i["issue"]) for i in issues] == [("r3", "unordered_zones")]


def test_a_heading_whose_order_the_addresses_contradict_is_a_quality_warning():
    runs, issues = _by_heading(
        HEADING_ORDERED,
        {"heading": "AZ1 - AZ1", "src_ip": "10.0.0.9", "dst_ip": "10.0.0.1"},
        {"heading": "AZ1 - AZ2", "src_ip": "10.0.0.2", "dst_ip": "10.0.0.1"},
    )
    assert runs.loc["r1", ["src_zone", "dst_zone"]].tolist() == ["2", "1"]  # the addresses
    (issue,) = issues
    assert issue["issue"] == "zone_direction" and issue["run_id"] == "r1"
    assert issue["detail"] == (
        "campaign.yaml's rule on the heading 'AZ1 - AZ2' says client zone 1, server zone 2; "
        "the addresses put the client (10.0.0.2) in zone 2 and the server (10.0.0.1) in zone "
        "1, which is kept"
    )


def test_an_ordered_rule_nothing_contradicts_stands():
    runs, issues = _by_heading(HEADING_ORDERED, {"heading": "AZ1 - AZ3", "tool": "qperf"})
    assert runs.loc["r0", ["src_zone", "dst_zone", "zone_pair"]].tolist() == ["1", "3", "1-3"]
    assert issues == []


def test_the_inventory_settles_a_pair_and_a_host_in_two_zones_is_a_conflict():
    text = HEADING_PAIR + "hosts:\n  vm-a: {ip: 10.0.0.1, zone: 2}\n"
    runs, issues = _by_heading(
        text,
        {"heading": "AZ2 - AZ3", "src_ip": "10.0.0.5", "dst_ip": "10.0.0.1"},
        {"heading": "AZ1 - AZ1", "src_ip": "10.0.0.7", "dst_ip": "10.0.0.5"},  # 10.0.0.5 again
    )
    assert runs.loc["r0", "dst_zone"] == "2"  # the inventory's zone is certain
    conflicts = [i for i in issues if i["issue"] == "zone_conflict"]
    assert conflicts and all("10.0.0.5" in i["detail"] for i in conflicts)
    assert "says zone 3" in conflicts[0]["detail"] and "says zone 1" in conflicts[0]["detail"]


def test_pair_labels_sort_zones_as_numbers():
    assert pair_label("3", "1") == "1-3"
    assert pair_label("10", "2") == "2-10"
    assert pair_label("b", "a") == "a-b"


NO_ZONE = """
rules:
  - heading: 'availability set'
    set: {placement: availability_set, zone_a: none, zone_b: none}
  - heading: 'zone 1 to zone 3'
    set: {src_zone: "1", dst_zone: "3"}
  - heading: 'regional client'
    set: {src_zone: regional, dst_zone: "2"}
"""


def test_a_rule_may_say_an_end_has_no_zone():
    # As a host's 'zone: none' (or 'regional'): the zone stays empty and is not missing.  Read
    # as a zone named 'none', the availability set's ping was the zone pair 'none-none', its
    # target (10.202.0.2, also the cross-zone ping's) was put in zone 'none', and the
    # cross-zone run lost its client's zone and gained 'dst_zone none'.
    runs, issues = _by_heading(
        NO_ZONE,
        {"heading": "availability set", "dst_ip": "10.202.0.2"},
        {"heading": "zone 1 to zone 3", "dst_ip": "10.202.0.2"},
        {"heading": "regional client", "dst_ip": "10.9.0.2"},
    )
    got = runs[["src_zone", "dst_zone", "zone_pair", "placement"]].astype(object)
    assert got.loc["r0"].isna()[["src_zone", "dst_zone", "zone_pair"]].all()
    assert got.loc["r0", "placement"] == "availability_set"
    assert got.loc["r1"].tolist() == ["1", "3", "1-3", "cross_zone"]
    assert got.loc["r2"].isna()["src_zone"] and got.loc["r2", "dst_zone"] == "2"
    assert issues == []


def test_rules_that_put_one_address_in_two_zones_say_so():
    # hping3 to 10.207.0.2 filed under '1-2/' and under '2-3/' (their rules state client and
    # server zones; nothing else places the address): the zones are kept, as the rules say,
    # and both runs name the conflict.  Before, nothing did.
    runs, issues = _by_heading(
        HEADING_ORDERED,
        {"heading": "AZ1 - AZ2", "dst_ip": "10.207.0.2"},
        {"heading": "AZ2 - AZ3", "dst_ip": "10.207.0.2"},
        {"heading": "AZ1 - AZ3", "dst_ip": "10.207.0.9"},
    )
    assert runs[["src_zone", "dst_zone"]].values.tolist() == [["1", "2"], ["2", "3"], ["1", "3"]]
    said = (
        "10.207.0.2: campaign.yaml's rules put it in zone 2 (f0.log:1) and zone 3 (f1.log:1): "
        "one host in two zones, or one address of two VMs (one redeployed)? The rules' zones "
        "are kept"
    )
    assert [(i["run_id"], i["issue"], i["detail"]) for i in issues] == [
        ("r0", "zone_conflict", said),
        ("r1", "zone_conflict", said),
    ]
