"""Trap campaigns with known truth (issue 37): each is small, built here, and set to catch one
way a page's words go wrong.  Their claims tables are asserted against the truth they were
built with.

* heterogeneous cross-zone pairs: a contrast never speaks for a side by its first member;
* headings reversed against the addresses: arrows from the logs, a quality warning;
* a confounded contrast: a PPG in zone 1 is set against same-zone runs in zone 1 only;
* overlapping published ranges: bounds, and no direction across 1;
* a synthetic campaign beside a real one: the mark on exactly the synthetic one.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from azlatency import report as rep
from azlatency.campaign import import_campaign
from azlatency.synth.formats.sockperf import PingPong, console

HEADER = (
    "tool,scenario,src_zone,dst_zone,placement,vm_size,msg_size_bytes,metric,stat,value,unit,n\n"
)


def _campaign(root, name: str, files: dict[str, str]):
    folder = root / "raw" / name
    for path, text in files.items():
        (folder / path).parent.mkdir(parents=True, exist_ok=True)
        (folder / path).write_text(text, encoding="utf-8")
    report = import_campaign(folder, root=root / "processed", workers=1)
    return rep.load_campaigns(name, root), report


def _csv(rows: list[str]) -> str:
    return (
        "# trap campaign: values chosen by tests/report/test_traps.py\n"
        + HEADER
        + "".join(f"{r}\n" for r in rows)
    )


def test_heterogeneous_pairs_give_every_pair_never_the_first(tmp_path):
    # truth: same zone 1→1 40 µs; cross-zone 1→2 60, 1→3 700, 2→3 710 (seed 001's shape)
    rows = [
        "sockperf,AZ1 - AZ1,1,1,,D8,14,half_rtt,p50,40,us,1000",
        "sockperf,AZ1 - AZ2,1,2,,D8,14,half_rtt,p50,60,us,1000",
        "sockperf,AZ1 - AZ3,1,3,,D8,14,half_rtt,p50,700,us,1000",
        "sockperf,AZ2 - AZ3,2,3,,D8,14,half_rtt,p50,710,us,1000",
    ]
    tables, _ = _campaign(tmp_path, "hetero", {"t.reported.csv": _csv(rows)})
    md, claims = rep.campaign_answer(tables, "How much slower across zones?", "placement")
    head = claims[claims["parent"].isna()].iloc[0]
    assert head["kind"] == "range" and head["a"] == "cross-zone" and head["b"] == "same zone"
    assert (head["estimate_low"], head["estimate_high"]) == (1.5, 17.75)
    pairs = claims[claims["parent"] == head["claim_id"]]
    assert sorted(pairs["estimate"]) == [1.5, 17.5, 17.75]
    assert sorted(g for gs in pairs["groups_a"] for g in gs) == [
        "1→2 · AZ1 - AZ2",
        "1→3 · AZ1 - AZ3",
        "2→3 · AZ2 - AZ3",
    ]
    assert "**cross-zone is 1.50× to 17.75× same zone, depending on the pair**" in md
    # no sentence states a pooled figure that no pair has
    assert not claims["text"].str.contains("cross-zone is 1.50× same zone").any()


def _sockperf(dst: str, rtt_us: float, prompt: str, seed: int) -> str:
    rng = np.random.default_rng(seed)
    rtt_ns = np.round(rtt_us * 1000 * rng.uniform(0.98, 1.02, 2001)).astype(np.int64)
    run = PingPong(
        version="3.7",
        dst_ip=dst,
        port=11111,
        msg_size=64,
        time_s=2,
        mps=1000,
        full_rtt=True,
        tx_ns=np.arange(2001, dtype=np.int64) * 1_000_000,
        rtt_ns=rtt_ns,
        valid_s=2.0,
        total_sent=2003,
    )
    return "```\n" + console(run, prompt) + "```\n"


def test_headings_reversed_against_addresses_follow_the_logs(tmp_path):
    # The heading names the server's zone first; the addresses say which end is which:
    # 10.9.0.1 serves both sections, and in 'AZ1 - AZ1' both ends are in zone 1.
    notes = (
        "### AZ1 - AZ1\n\n"
        + _sockperf("10.9.0.1", 50.0, "root@vm-b:~# ", 1)
        + "\n### AZ1 - AZ2\n\n"
        + _sockperf("10.9.0.1", 120.0, "root@vm-c:~# ", 2)
    )
    yaml = (
        "rules:\n  - heading: 'AZ(?P<src_zone>\\d) - AZ(?P<dst_zone>\\d)'\n"
        "    set: {scenario: 'AZ{src_zone} - AZ{dst_zone}'}\n"
        "hosts:\n  vm-b: {zone: 1}\n"
    )
    tables, report = _campaign(tmp_path, "reversed", {"notes.md": notes, "campaign.yaml": yaml})
    runs = tables.runs.set_index("scenario")
    assert runs.loc["AZ1 - AZ2", ["src_zone", "dst_zone"]].tolist() == ["2", "1"]
    warned = report.quality[report.quality["issue"] == "zone_direction"]
    assert len(warned) == 1 and "client zone 1, server zone 2" in warned["detail"].iloc[0]
    md, claims = rep.campaign_answer(tables, None, "zone pair")
    assert "**The slowest zone pair, 2→1," in md and "1→2" not in md


def test_a_confounded_contrast_is_matched_on_the_zone(tmp_path):
    # truth: PPG (zone 1) is 0.8 of same zone in zone 1 (50 µs); zones 2 and 3 are slower
    rows = [
        "sockperf,z1,1,1,same_zone,D4,64,rtt,p50,50,us,1000",
        "sockperf,z2,2,2,same_zone,D4,64,rtt,p50,65,us,1000",
        "sockperf,z3,3,3,same_zone,D4,64,rtt,p50,45,us,1000",
        "sockperf,ppg,1,1,ppg,D4,64,rtt,p50,40,us,1000",
    ]
    tables, _ = _campaign(tmp_path, "confounded", {"t.reported.csv": _csv(rows)})
    claims = rep.contrast_claims(tables, factors=["placement"])
    c = claims[claims["b"] == "proximity placement group"]
    assert len(c) == 1 and c["kind"].iloc[0] == "ratio"
    c = c.iloc[0]
    assert c["estimate"] == pytest.approx(50 / 40)  # the generator's truth, 1 / 0.8
    assert c["groups_a"] == ["1→1 · z1"] and c["groups_b"] == ["1→1 · ppg"]
    assert "not compared (no partner in a shared zone): 2→2 · z2, 3→3 · z3" in c["caveat"]


def test_a_pair_with_no_like_partner_is_refused_with_the_reason(tmp_path):
    rows = [
        "sockperf,z2,2,2,same_zone,D4,64,rtt,p50,65,us,1000",
        "sockperf,ppg,1,1,ppg,D4,64,rtt,p50,40,us,1000",
    ]
    tables, _ = _campaign(tmp_path, "refused", {"t.reported.csv": _csv(rows)})
    c = rep.contrast_claims(tables, factors=["placement"]).iloc[0]
    assert c["kind"] == "not_compared" and "shares a zone" in c["caveat"]
    assert "not compared" in c["text"]


def test_overlapping_published_ranges_give_no_direction(tmp_path):
    rows = [
        "latte,a,,,same_zone,D4,,rtt,mean,100..130,us,",
        "latte,b,,,ppg,D4,,rtt,mean,110..120,us,",
        "latte,c,,,cross_zone,D4,,rtt,mean,400..420,us,",
    ]
    tables, _ = _campaign(tmp_path, "ranges", {"t.reported.csv": _csv(rows)})
    claims = rep.contrast_claims(tables, factors=["placement"])
    same_ppg = claims[claims["a"] == "same zone"].iloc[0]
    assert same_ppg["direction"] == "none"  # 100/120 .. 130/110 holds 1
    assert (same_ppg["bound_low"], same_ppg["bound_high"]) == (
        pytest.approx(100 / 120),
        pytest.approx(130 / 110),
    )
    cross = claims[(claims["a"] == "cross-zone") & (claims["b"] == "same zone")].iloc[0]
    assert cross["direction"] == "a>b"
    assert (cross["bound_low"], cross["bound_high"]) == (
        pytest.approx(400 / 130),
        pytest.approx(420 / 100),
    )
    assert "not told apart" in same_ppg["text"] and "3.08× to 4.20×" in cross["text"]


def test_the_synthetic_mark_is_on_exactly_the_synthetic_campaign(tmp_path):
    from azlatency.synth import make_campaign

    real, _ = _campaign(
        tmp_path, "real", {"t.reported.csv": _csv(["sockperf,z1,1,1,,D4,64,rtt,p50,50,us,9"])}
    )
    make_campaign(tmp_path / "raw" / "made", size="tiny", seed=0)
    import_campaign(tmp_path / "raw" / "made", root=tmp_path / "processed", workers=1)
    made = rep.load_campaigns("made", tmp_path)
    assert rep.mark(real) == "" and rep.banner(real) == ""
    assert rep.mark(made) == "SYNTHETIC — " and "nothing in it was measured" in rep.banner(made)
    with pytest.raises(Exception, match="one campaign at a time"):
        rep.one_campaign(["real", "made"])


def test_scenarios_that_each_measured_both_placements_are_kept_apart(tmp_path):
    """nicolgit's latte tables (typed from the write-up): each scenario (a firewall in the
    path, ...) measured zone 1 → 1 and → 2.  Cross-zone behind the firewall was set against
    the three same-zone figures pooled and shown by the first ('2605 µs vs 57.92 µs')."""
    rows = [
        "latte,S1 one vnet,1,1,ppg,D4,,rtt,mean,65.15,us,60000",
        "latte,S1 one vnet,1,2,cross_zone,D4,,rtt,mean,119.87,us,60000",
        "latte,S2 peering,1,1,same_zone,D4,,rtt,mean,57.92,us,60000",
        "latte,S2 peering,1,2,cross_zone,D4,,rtt,mean,112.2,us,60000",
        "latte,S4 firewall,1,1,same_zone,D4,,rtt,mean,2418.44,us,60000",
        "latte,S4 firewall,1,2,cross_zone,D4,,rtt,mean,2605.39,us,60000",
    ]
    tables, _ = _campaign(tmp_path, "scenarios", {"t.reported.csv": _csv(rows)})
    claims = rep.contrast_claims(tables, factors=["placement"])
    sides = claims[["a", "b"]].apply(frozenset, axis=1)
    pairs = claims[(claims["kind"] == "pair") & sides.eq(frozenset({"cross-zone", "same zone"}))]
    got = {
        frozenset([*p["groups_a"], *p["groups_b"]]): round(p["estimate"], 3)
        for _, p in pairs.iterrows()
    }
    # within a scenario: its own same-zone pair only
    assert got[frozenset({"1→2 · S4 firewall", "1→1 · S4 firewall"})] == round(2605.39 / 2418.44, 3)
    assert got[frozenset({"1→2 · S2 peering", "1→1 · S2 peering"})] == round(112.2 / 57.92, 3)
    # S1 has no same-zone pair: each other scenario's is said, none stands for the rest
    assert got[frozenset({"1→2 · S1 one vnet", "1→1 · S2 peering"})] == round(119.87 / 57.92, 3)
    assert got[frozenset({"1→2 · S1 one vnet", "1→1 · S4 firewall"})] == round(2418.44 / 119.87, 3)
    assert len(got) == 4 and all(len(p["groups_b"]) == 1 for _, p in pairs.iterrows())


def test_pairs_whose_scenarios_differ_in_more_than_the_factor_say_so(tmp_path):
    """yinghli's Azure tables (typed from the README): qperf 146 µs without accelerated
    networking ('VM-VM without Acc'), 40 µs with it ('VM-VM with Acc'), 81 and 53 µs with it
    through a basic and a standard load balancer ('VM-LB-VM with Acc', 'VM-SLB-VM with
    Acc').  'accelerated networking off is 1.80× to 3.65× on' credited the load balancers'
    pairs to accelerated networking without a word."""
    fx = Path(__file__).parents[1] / "fixtures" / "reported_csv"
    text = (fx / "reported_csv--1-any-none-yinghli-acc-and-load-balancers.csv").read_text()
    tables, _ = _campaign(tmp_path, "yinghli", {"summary.reported.csv": text})
    claims = rep.contrast_claims(tables, factors=["accelerated_networking"])
    qperf = claims[claims["tool"] == "qperf"]
    head = qperf[qperf["kind"] == "range"].iloc[0]
    assert head["text"].endswith(
        "2 of the 3 pairs compare scenarios that differ in more than accelerated networking):"
    )
    also = {frozenset([*p["groups_a"], *p["groups_b"]]): p["also"] for _, p in qperf.iterrows()}
    assert also[frozenset({"VM-VM without Acc", "VM-VM with Acc"})] == ""
    said = also[frozenset({"VM-VM without Acc", "VM-LB-VM with Acc"})]
    assert said.startswith("the two scenarios differ in more than accelerated networking")
