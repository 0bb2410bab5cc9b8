"""Fleet baseline verdicts (issue 28): targets, verdicts with their evidence, the fleet rule,
and the synthetic seed-003 campaign whose truth names the degraded VM."""

from __future__ import annotations

import json
from xml.etree import ElementTree as ET

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

from azlatency import schema, stats
from azlatency.campaign import import_campaign
from azlatency.campaign.config import parse_campaign
from azlatency.cli import main
from azlatency.errors import CampaignError
from azlatency.report import _baseline as rb
from azlatency.stats.baseline import check_units, parse_target
from azlatency.synth.baseline import DEGRADED, NAME, make_baseline


def test_target_forms_and_units():
    t = parse_target("40-50 us")
    assert (t.low, t.high, t.unit, t.kind) == (40, 50, "us", "range")
    t = parse_target("~780 MB/s ±10%")
    assert (t.low, t.high, t.kind) == (pytest.approx(702), pytest.approx(858), "about")
    assert parse_target("~780 MB/s", tolerance=0.05).high == pytest.approx(819)
    assert parse_target(">= 11 Gbit/s").to("bps") == (11e9, np.inf)
    assert parse_target("<= 3.3 ms").to("us") == (-np.inf, pytest.approx(3300))
    assert parse_target("~20k IOPS ±10%").to("io/s") == (pytest.approx(18e3), pytest.approx(22e3))
    assert parse_target("~530 MiB/s ±0%").to("bytes/s")[0] == 530 * 2**20
    with pytest.raises(ValueError, match="cannot read target"):
        parse_target("fast")
    with pytest.raises(ValueError, match="unknown unit"):
        parse_target("40-50 furlongs")
    with pytest.raises(ValueError, match="is a time, but 'throughput_receiver' is a rate"):
        check_units("throughput_receiver", parse_target("40 ms"))


def test_campaign_yaml_expectations_are_validated_with_lines():
    good = parse_campaign(
        "expectations:\n"
        "  - check: pair latency\n    tool: sockperf\n    metric: latency\n"
        "    basis: half_rtt\n    target: 40-50 us\n"
    )
    assert good.expectations[0].metric == "half_rtt"  # latency + basis -> the basis's metric
    for body, line, words in (
        ("  - check: a\n    metric: latency\n    target: 40-50 us\n", 2, "needs basis"),
        ("  - check: a\n    metric: iops_read\n    target: 20 ms\n", 2, "is a time"),
        ("  - check: a\n    metric: rtt\n    stat: median\n    target: 1 ms\n", 4, "stat"),
        ("  - check: a\n    metric: rtt\n    target: 1 ms\n    tolerance: 2\n", 5, "less than 1"),
    ):
        with pytest.raises(CampaignError, match=rf"campaign.yaml:{line}: expectations.0.*{words}"):
            parse_campaign("expectations:\n" + body)


def _tables(values: dict[str, list[float]], *, metric="iops_read", unit="io/s"):
    """Printed values per VM, one run each: {vm: [run values]}."""
    runs, summaries = [], []
    for vm, vals in values.items():
        for k, v in enumerate(vals):
            rid = f"{vm}-{k}"
            runs.append({"run_id": rid, "tool": "fio", "src_host": vm, "vm_size": "DS14_v2"})
            summaries.append(
                {"run_id": rid, "metric": metric, "stat": "mean", "value": v, "unit": unit,
                 "source": "reported"}
            )  # fmt: skip
    runs = pd.DataFrame(runs)
    return runs, schema.empty("samples"), schema.frame("summaries", summaries)


def test_verdicts_printed_value_run_level_interval_and_no_data():
    runs, samples, summaries = _tables(
        {
            "vm1": [20_100],  # one printed value: compared as printed
            "vm2": [12_300],  # fails as printed
            "vm3": [19_900, 20_050, 20_010],  # t interval over runs inside 18k-22k: meets
            "vm4": [17_000, 21_000, 19_000],  # interval straddles 18k: inconclusive
        }
    )
    runs.loc[len(runs)] = {"run_id": "x", "tool": "iperf3", "src_host": "vm5", "vm_size": "DS14_v2"}
    e = {"check": "iops", "tool": "fio", "metric": "iops_read", "target": "~20k IOPS ±10%"}
    iperf = {"check": "tput", "tool": "iperf3", "metric": "throughput", "target": ">= 1 Gbit/s"}
    v = stats.verdicts(runs, samples, summaries, [e, iperf]).set_index(["check", "vm"])
    assert v.loc[("iops", "vm1"), "verdict"] == "meets"
    assert "compared as printed" in v.loc[("iops", "vm1"), "why"]
    assert v.loc[("iops", "vm2"), "verdict"] == "fails"
    row = v.loc[("iops", "vm3")]
    assert row["verdict"] == "meets" and row["unit_of_analysis"] == "run" and row["n_runs"] == 3
    # Student t with 2 df over the three printed values
    sd = np.std([19_900, 20_050, 20_010], ddof=1)
    assert row["ci_high"] - row["estimate"] == pytest.approx(4.3027 * sd / 3**0.5, rel=1e-4)
    assert v.loc[("iops", "vm4"), "verdict"] == "inconclusive"
    assert "straddles the target's bound 1.8e+04 io/s" in v.loc[("iops", "vm4"), "why"]
    # vm5 ran iperf3 only: no fio run for the iops check is said, not skipped
    assert v.loc[("iops", "vm5"), "verdict"] == "no data"
    assert v.loc[("tput", "vm5"), "verdict"] == "no data"  # its run printed nothing


def test_fleet_names_the_vm_that_differs_and_not_small_spread():
    vals = {f"vm{i}": [v] for i, v in enumerate([20_000, 19_950, 20_100, 12_400, 20_050, 19_900])}
    runs, samples, summaries = _tables(vals)
    e = {"check": "iops", "metric": "iops_read", "target": "~20k IOPS ±10%"}
    f = stats.fleet(stats.verdicts(runs, samples, summaries, [e])).set_index("vm")
    assert f["outlier"].tolist() == [False, False, False, True, False, False]
    assert f.loc["vm3", "ratio_to_median"] == pytest.approx(12_400 / 19_975)  # median of six
    assert "redeploy that VM and test again" in f.loc["vm3", "advice"]
    # 2 % apart is many MADs in a tight fleet, but not worth a redeploy
    tight = {f"vm{i}": [v] for i, v in enumerate([20_000, 20_001, 20_002, 19_600, 20_001])}
    f2 = stats.fleet(stats.verdicts(*_tables(tight), [e]))
    assert not f2["outlier"].any()
    assert abs(f2["robust_z"]).max() > 3.5


@pytest.fixture(scope="module")
def baseline_root(tmp_path_factory):
    root = tmp_path_factory.mktemp("baseline")
    make_baseline(root / "raw" / NAME)
    import_campaign(root / "raw" / NAME, root=root / "processed", workers=1)
    return root


def test_synthetic_baseline_names_the_degraded_vm_and_nothing_else(baseline_root):
    from azlatency.report import baseline, load_campaigns

    truth = json.loads((baseline_root / "raw" / NAME / "truth.json").read_text())
    assert truth["degraded_vm"] == DEGRADED
    table = baseline(load_campaigns(NAME, baseline_root), NAME, baseline_root)
    assert sorted(set(table["vm"])) == [f"cass-{i}" for i in range(1, 7)]
    assert table["check"].nunique() == 9  # the seed's table, both iperf3 directions apart
    failed = table[table["verdict"] == "fails"]
    assert set(failed["vm"]) == {DEGRADED}
    assert set(failed["check"]) == {
        "data disks 1 MiB random read",
        "data disks 4 KiB random read IOPS",
    }
    assert (table.loc[table["vm"] != DEGRADED, "verdict"] == "meets").all()
    assert set(table.loc[table["advice"].astype(bool), "vm"]) == {DEGRADED}
    # samples give run-level intervals; fio's one printed number has none
    lat = table[table["check"].str.startswith("VM-pair")]
    assert (lat["evidence"] == "samples").all() and (lat["n_runs"] == 5).all()
    assert lat["estimate"].between(44, 47).all()
    one = table[table["check"] == "local disk 1 MiB random write"]
    assert (one["evidence"] == "printed").all() and (one["n_runs"] == 1).all()
    text = rb.baseline_findings(table)
    assert f"**{DEGRADED} fails data disks 4 KiB random read IOPS:**" in text
    assert f"**{DEGRADED} differs from its peers**" in text


def test_check_command_exits_1_naming_vm_and_check(baseline_root, tmp_path):
    junit = tmp_path / "check.xml"
    res = CliRunner().invoke(
        main, ["check", NAME, "--data", str(baseline_root), "--junit", str(junit), "--github"]
    )
    assert res.exit_code == 1, res.output
    assert f"{DEGRADED}: data disks 4 KiB random read IOPS: FAILS" in res.output
    assert "::error title=synthetic-seed003-baseline: data disks 4 KiB random read IOPS::" in (
        res.output
    )
    suites = ET.parse(junit).getroot()
    failures = [
        (s.get("name"), c.get("classname"))
        for s in suites
        for c in s
        if c.find("failure") is not None
    ]
    assert sorted(failures) == [
        ("data disks 1 MiB random read", f"{NAME}.{DEGRADED}"),
        ("data disks 4 KiB random read IOPS", f"{NAME}.{DEGRADED}"),
    ]
    assert sum(int(s.get("tests")) for s in suites) == 54


def test_check_without_expectations_exits_2(tmp_path):
    from tests.conftest import ROOT

    res = CliRunner().invoke(main, ["check", str(ROOT / "data/raw/seed002-ppg-latte"),
                                    "--data", str(tmp_path)])  # fmt: skip
    assert res.exit_code == 2, res.output
    assert "states no expectations" in res.output


def test_fio_text_and_json_give_the_same_verdicts(baseline_root, tmp_path):
    """Issue 28 item 7: synth writes fio's default text (as seed 003 runs fio) or its JSON
    for the same jobs; read either way, every VM gets the same verdict on every check, and
    the printed IOPS agree to fio's four significant digits."""
    from azlatency.report import baseline, load_campaigns

    make_baseline(tmp_path / "raw" / NAME, fio_output="json")
    import_campaign(tmp_path / "raw" / NAME, root=tmp_path / "processed", workers=1)
    text = baseline(load_campaigns(NAME, baseline_root), NAME, baseline_root)
    js = baseline(load_campaigns(NAME, tmp_path), NAME, tmp_path)
    key = ["vm", "check"]
    both = text.merge(js, on=key, suffixes=("_text", "_json"))
    assert len(both) == len(text) == len(js) == 54
    assert (both["verdict_text"] == both["verdict_json"]).all()
    fio_rows = both[both["check"].str.contains("disk")]
    assert len(fio_rows) == 24  # four disk checks, six VMs
    rel = (fio_rows["estimate_text"] / fio_rows["estimate_json"] - 1).abs()
    assert rel.max() < 0.005  # 'IOPS=12.4k', 'BW=744MiB/s': four characters of num2str
    raw = baseline_root / "raw" / NAME
    assert len(list(raw.glob("cass-*/fio-*.txt"))) == 42 and not list(raw.glob("cass-*/*.json"))


def test_stripe_spread_names_the_member_that_waits():
    """Four disks of one VM in two iostat reports (and a since-boot report, left out)."""
    rows, sums = [], []
    for k, (dev, r_s, wait_us) in enumerate(
        [("sdc", 5000, 3200), ("sdd", 5010, 3100), ("sde", 4990, 8400), ("sdf", 5005, 3300)]
    ):
        for rep_no, boot in ((0, True), (1, False), (2, False)):
            rid = f"r{k}{rep_no}"
            label = {"device": dev, "report": rep_no, "since_boot": boot}
            rows.append({"run_id": rid, "tool": "iostat", "src_host": "vm1",
                         "scenario": "data", "labels": json.dumps(label)})  # fmt: skip
            scale = 0.01 if boot else 1.0
            sums += [
                {"run_id": rid, "metric": "iops_read", "stat": "mean", "value": r_s * scale},
                {"run_id": rid, "metric": "await_read", "stat": "mean", "value": wait_us},
            ]
    got = stats.stripe_spread(pd.DataFrame(rows), pd.DataFrame(sums)).set_index("device")
    assert got["reports"].tolist() == [2, 2, 2, 2]
    assert got.loc["sde", "await_read_ms"] == 8.4
    assert got.loc["sde", "await_vs_stripe"] == pytest.approx(8400 / 3250)
    assert got["slow_member"].tolist() == [False, False, True, False]
    assert stats.stripe_spread(pd.DataFrame(rows).assign(tool="fio"), pd.DataFrame(sums)).empty


def test_the_baseline_campaign_page_answers_which_vm_to_redeploy(baseline_root):
    """Seed 003's question ('which one should be redeployed?') is answered on the campaign
    page, from the verdicts: it said "Nothing to compare" before (issue 37, item 4)."""
    from azlatency import report as rep

    tables = rep.load_campaigns(NAME, baseline_root)
    info = rep.about(NAME, baseline_root)
    assert info["compare"] == ["baseline"]
    fleet = rep.baseline(tables, NAME, baseline_root)
    md, claims = rep.campaign_answer(tables, info["question"], info["compare"], baseline=fleet)
    assert "Nothing to compare" not in md
    assert f"**Redeploy {DEGRADED} and test again:**" in md
    fails = claims[claims["text"].str.startswith(f"**{DEGRADED} fails")]
    assert len(fails) == 2
    iops = fails[fails["text"].str.contains("4 KiB random read IOPS")].iloc[0]
    assert iops["evidence"] == "tested across runs" and iops["ci_high"] < 18000  # < 20k -10 %


def test_a_paced_run_below_the_target_is_inconclusive_not_failed():
    """iperf3 -u without -b sends 1 Mbit/s; the fixtures ran -b 100M. Against '>= 5 Gbit/s'
    each 'failed' a VM that was never asked for more than the pace."""
    import azlatency
    from azlatency.schema import Tables
    from tests.conftest import FIXTURES

    parts = [
        azlatency.read(FIXTURES / "iperf3" / name)
        for name in ("iperf3--3.12-linux-J-u-udp.json", "iperf3--3.12-linux-u-udp.txt",
                     "iperf3--3.12-linux-J-tcp.json")
    ]  # fmt: skip
    for i, t in enumerate(parts):
        t.runs["src_host"] = f"vm{i}"
    t = Tables.concat(parts)
    e = {
        "check": "tput",
        "tool": "iperf3",
        "metric": "throughput_receiver",
        "target": ">= 5 Gbit/s",
    }
    v = stats.verdicts(t.runs, t.samples, t.summaries, [e]).set_index("vm")
    # JSON states target_bitrate 100000000: UDP and TCP alike
    for vm in ("vm0", "vm2"):
        assert v.loc[vm, "verdict"] == "inconclusive"
        assert v.loc[vm, "why"].startswith("the runs asked for 100 Mbit/s (iperf3 -b)")
    # text UDP states no rate: iperf's UDP pace is said
    assert v.loc["vm1", "verdict"] == "inconclusive"
    assert v.loc["vm1", "why"].startswith("iperf sends UDP at the rate it is asked for")
    # the same runs against a target they reach are judged as before
    ok = {**e, "target": ">= 50 Mbit/s"}
    assert set(stats.verdicts(t.runs, t.samples, t.summaries, [ok])["verdict"]) == {"meets"}


def test_runs_that_name_no_vm_are_judged_and_said(tmp_path):
    """A folder of two pings (no host in their logs, no hosts: in campaign.yaml) with a
    latency expectation: `azlatency check` said 'campaign.yaml states no expectations and
    names no baseline' (every run without a src_host was dropped) and exited 2."""
    from tests.conftest import FIXTURES

    raw = tmp_path / "raw" / "ck"
    raw.mkdir(parents=True)
    for name in ("ping--iputils-20221126-linux-D-c5-timestamps.txt",
                 "ping--iputils-20221126-linux-c15-i0.2-gap-partial-loss.txt"):  # fmt: skip
        (raw / name).write_bytes((FIXTURES / "ping" / name).read_bytes())
    (raw / "campaign.yaml").write_text(
        "expectations:\n  - check: ping latency\n    tool: ping\n    metric: latency\n"
        "    basis: rtt\n    target: '<= 40 us'\n"
    )
    res = CliRunner().invoke(main, ["check", "ck", "--data", str(tmp_path)])
    assert res.exit_code == 0, res.output  # inconclusive: no failure
    said = " ".join(res.output.split())
    assert "(VM not named): ping latency: INCONCLUSIVE" in said
    assert "2 runs name no VM (src_host), judged together" in said


def test_two_vms_a_question_names_are_set_against_each_other(baseline_root):
    """'Is cass-4 slower than cass-1?' got the fleet's verdicts alone; the truth puts the
    degraded VM's data disks at 62 % of the healthy IOPS."""
    from azlatency import report as rep

    truth = json.loads((baseline_root / "raw" / NAME / "truth.json").read_text())
    assert truth["degraded"].startswith("62% of the healthy IOPS")
    tables = rep.load_campaigns(NAME, baseline_root)
    fleet = rep.baseline(tables, NAME, baseline_root)
    q = f"Is {DEGRADED} slower than cass-1?"
    _, claims = rep.campaign_answer(tables, q, ["baseline"], baseline=fleet)
    pair = claims[claims["text"].str.startswith(f"**{DEGRADED} is ")]
    assert len(pair) == 9  # each check both have a figure of
    iops = pair[pair["text"].str.contains("4 KiB random read IOPS")].iloc[0]
    assert iops["estimate"] == pytest.approx(0.62, abs=0.02)
    assert f"{DEGRADED} fails, cass-1 meets;" in iops["text"]
    assert claims["text"].iloc[0].startswith(f"**{DEGRADED} is ")  # before the verdicts
