"""Before and after on the bundled synthetic pair (issue 41): ``compare_campaigns`` finds the
known change with its interval (truth.json) and marks the unchanged conditions "~" or the
same; the rerun without a change passes the gate, the changed campaign fails it; pairing by
label with the campaign.yaml mapping; what one side lacks is listed; ``azlatency compare``
and ``azlatency check`` with JUnit, GitHub annotations and the Markdown step summary."""

from __future__ import annotations

import json
from pathlib import Path
from xml.etree import ElementTree as ET

import numpy as np
import pytest
from click.testing import CliRunner

from azlatency.campaign import import_campaign
from azlatency.campaign.config import parse_campaign
from azlatency.cli import main
from azlatency.errors import CampaignError
from azlatency.report import compare_campaigns, frontpage
from azlatency.report._needs import missing
from azlatency.report.run import Page
from azlatency.synth.abpair import AFTER, AFTER_SCENARIO, BEFORE, RERUN, SCENARIO, make_pair

pytestmark = pytest.mark.xdist_group("abpair")


@pytest.fixture(scope="module")
def pair(tmp_path_factory) -> Path:
    """A data root with the three synthetic campaigns written and imported."""
    root = tmp_path_factory.mktemp("ab")
    make_pair(root / "raw")
    for name in (BEFORE, AFTER, RERUN):
        import_campaign(root / "raw" / name, root=root / "processed", workers=1)
    return root


def _truth(root: Path, name: str) -> dict:
    return json.loads((root / "raw" / name / "truth.json").read_text())["ratio_to_baseline"]


def _key(row) -> tuple[str, str]:
    return f"{row['src_zone']}>{row['dst_zone']}", row["tool"]


def test_the_known_change_is_found_with_its_interval(pair):
    cmp = compare_campaigns(BEFORE, AFTER, pair)
    truth = _truth(pair, AFTER)
    t = cmp.table
    assert cmp.scenarios == {SCENARIO: AFTER_SCENARIO} and cmp.margin == 0.1  # campaign.yaml
    for r in t[t["scale"] == "ratio"].to_dict("records"):
        pair_, tool = _key(r)
        true = truth[pair_][tool]
        assert r["ci_low"] <= true <= r["ci_high"], (r["condition"], r["stat"], true)
        if true == 1.0:  # unchanged: never a significant change
            assert r["verdict"] in ("same", "~"), (r["condition"], r["stat"])
    worse = t[t["gate"] == "fail"]
    assert sorted(zip(worse["condition"], worse["stat"])) == sorted(
        [(f"{p} · sockperf", s) for p in ("1→2", "2→1") for s in ("p50", "p99", "mean")]
        + [("1→3 · iperf3", "throughput")]
    )
    sock = t[(t["condition"] == "1→2 · sockperf") & (t["stat"] == "p50")].iloc[0]
    assert 1.15 < sock["estimate"] < 1.35 and sock["significant"]
    # unchanged medians and means are shown the same within ±10 %, not only "~"
    flat = t[(t["condition"] == "1→3 · sockperf") & t["stat"].isin(["p50", "mean", "p99"])]
    assert (flat["verdict"] == "same").all()
    # ping's ICMP overhead dilutes the change (truth 1.04): at most worse *within* the margin
    ping = t[t["condition"].str.endswith("ping") & (t["scale"] == "ratio")]
    assert not (ping["gate"] == "fail").any()
    loss = t[t["stat"] == "loss"]
    assert (loss["verdict"] == "~").all() and (loss["gate"] == "pass").all()


def test_pairing_by_label_lists_what_one_side_lacks(pair):
    cmp = compare_campaigns(BEFORE, AFTER, pair)
    b, a = cmp.only_before, cmp.only_after
    assert b[["scenario", "src_zone", "dst_zone", "tool"]].values.tolist() == [
        [SCENARIO, "2", "3", "sockperf"]
    ]
    assert a[["src_zone", "dst_zone", "tool"]].values.tolist() == [["3", "2", "sockperf"]]
    assert b["runs"].tolist() == [5] and a["runs"].tolist() == [5]
    nc = cmp.not_comparable
    assert set(nc["stat"]) == {"p99.9"} and set(nc["tool"]) == {"ping"}
    assert nc["why"].str.contains("100 observations: p99.9 needs ≥ 1000").all()
    # without the mapping nothing pairs: every condition is on one side only
    unmapped = compare_campaigns(BEFORE, AFTER, pair, scenarios={"unused": "x"})
    assert unmapped.table.empty and len(unmapped.only_before) == len(unmapped.only_after) == 8


def test_the_rerun_without_a_change_is_the_same(pair):
    cmp = compare_campaigns(BEFORE, RERUN, pair)
    t = cmp.table
    assert len(t) == 26 and cmp.only_before.empty and cmp.only_after.empty
    assert not t["verdict"].isin(["worse", "better"]).any()
    assert (t["gate"] == "pass").all() and (t["verdict"] == "same").sum() >= 15
    geo = cmp.geomean.set_index("stat")
    assert abs(geo.loc["p50", "change_pct"]) < 3


def test_check_gate_fails_the_change_and_passes_the_rerun(pair, tmp_path, monkeypatch):
    junit, summary = tmp_path / "gate.xml", tmp_path / "summary.md"
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(summary))
    runner = CliRunner()
    res = runner.invoke(main, ["check", AFTER, "--data", str(pair), "--junit", str(junit),
                               "--github"])  # fmt: skip
    assert res.exit_code == 1, res.output
    assert "1→2 · sockperf: p50 (rtt): FAILS" in res.output
    errors = [ln for ln in res.output.splitlines() if ln.startswith("::error ")]
    assert len(errors) == 7 and "beyond ±10 %25: fails the gate" in errors[0]
    suites = ET.parse(junit).getroot()
    failures = sum(int(s.get("failures")) for s in suites)
    assert failures == 7 and sum(int(s.get("tests")) for s in suites) == 22
    text = summary.read_text()
    assert "**FAIL**: 7 of 22 comparisons are worse beyond the margin" in text
    assert "<details><summary>Every comparison</summary>" in text
    assert " ".join(res.output.split()).endswith(  # (the console wraps it at its width)
        f"{AFTER} against {BEFORE}: 22 comparisons: pass 15 (8 the same within its margin, "
        "6 inconclusive: no change shown, 1 worse within its margin), fail 7"
    ), res.output  # 'pass 15, fail 7': 6 of the passes showed no sameness either
    res = runner.invoke(main, ["check", RERUN, "--data", str(pair)])
    assert res.exit_code == 0, res.output
    assert "**PASS**: no comparison is significantly worse" in summary.read_text()
    # a wider margin lets the 25 % through; the baseline itself names none: nothing to check
    res = runner.invoke(main, ["check", AFTER, "--data", str(pair), "--margin", "30%"])
    assert res.exit_code == 0, res.output
    res = runner.invoke(main, ["check", BEFORE, "--data", str(pair)])
    assert res.exit_code == 2 and "names no baseline" in res.output


def test_nothing_compared_is_no_pass(pair, tmp_path):
    """A mapping that pairs nothing leaves no row: the gate says so and fails, never a quiet
    pass over zero comparisons."""
    summary = tmp_path / "s.md"
    res = CliRunner().invoke(main, ["check", AFTER, "--data", str(pair), "--map", "x=y",
                                    "--summary", str(summary)])  # fmt: skip
    assert res.exit_code == 1, res.output
    said = " ".join(res.output.split())  # the console wraps at its width
    assert "FAILS: no condition was measured in both campaigns (8 only in" in said
    assert "**NOTHING COMPARED**" in summary.read_text()


def test_compare_command_prints_and_writes(pair, tmp_path):
    md, csv = tmp_path / "cmp.md", tmp_path / "cmp.csv"
    res = CliRunner().invoke(
        main,
        ["compare", BEFORE, AFTER, "--data", str(pair), "--markdown", str(md), "--csv", str(csv),
         "--stats", "p50,throughput"],
    )  # fmt: skip
    assert res.exit_code == 0, res.output
    assert "p50 latency (round trip, lower is better)" in res.output
    text = md.read_text()
    assert "| geomean |" in text and "worse, beyond ±10 %: FAILS" in text
    assert "## Only in synthetic-ab-before" in text
    import pandas as pd

    rows = pd.read_csv(csv)
    assert set(rows["stat"]) == {"p50", "throughput"} and len(rows) == 7
    bad = CliRunner().invoke(main, ["compare", BEFORE, AFTER, "--data", str(pair), "--map", "x"])
    assert bad.exit_code == 2 and "--map expects OLD=NEW" in bad.output


def test_notebook_60_needs_an_imported_baseline(pair):
    from azlatency.report import load_campaigns

    assert missing("60-compare", load_campaigns(AFTER, pair), {"data_root": pair}) is None
    why = missing("60-compare", load_campaigns(BEFORE, pair), {"data_root": pair})
    assert why.startswith("needs a baseline campaign named in campaign.yaml")


def test_front_page_links_a_campaign_to_its_comparison(tmp_path):
    pages = [
        Page("90-campaign-report", [AFTER], folder=AFTER, status="skipped"),
        Page("60-compare", [AFTER], folder=AFTER, status="run"),
        Page("90-campaign-report", [BEFORE], folder=BEFORE, status="skipped"),
        Page("60-compare", [BEFORE], folder=BEFORE, status="skipped"),
    ]
    titles = {"60-compare": "Against its baseline"}
    after = "\n".join(frontpage._campaign(AFTER, pages, tmp_path, titles))
    before = "\n".join(frontpage._campaign(BEFORE, pages, tmp_path, titles))
    assert f"Pages: [Against its baseline]({AFTER}/60-compare.ipynb)" in after
    assert "Pages:" not in before
    assert f"[Against its baseline]({BEFORE}/60-compare.md)" in before.split("Not run for it:")[1]


@pytest.mark.parametrize(
    "body, line, words",
    [
        ("name: a\nbaseline: a\n", 2, "baseline: 'a' is this campaign itself"),
        ("baseline:\n  campaign: b\n  margin: 150%\n", 3, "baseline.margin: margin '150%'"),
        ("baseline:\n  campaign: b\n  margin: ten\n", 3, "baseline.margin: .*write a percentage"),
        ("baseline:\n  campaign: b\n  scenario: {x: y}\n", 3, "baseline.scenario: Extra"),
        ("baseline: [b]\n", 1, "baseline: Input should be a valid dictionary"),
    ],
)
def test_campaign_yaml_baseline_is_validated_with_its_line(body, line, words):
    with pytest.raises(CampaignError, match=rf"campaign.yaml:{line}: {words}"):
        parse_campaign(body)


def test_campaign_yaml_baseline_forms():
    assert parse_campaign("baseline: last-month\n").baseline.campaign == "last-month"
    b = parse_campaign("baseline:\n  campaign: x\n  margin: 5%\n  scenarios: {a: b}\n").baseline
    assert (b.margin, b.scenarios) == (pytest.approx(0.05), {"a": "b"})
    assert parse_campaign("baseline: {campaign: x, margin: 0.2}\n").baseline.margin == 0.2
    assert np.isclose(
        parse_campaign("baseline: {campaign: x, margin: 10 %}\n").baseline.margin, 0.1
    )


def test_the_campaign_page_answers_what_changed_against_its_baseline(pair):
    # the pair's question is 'What changed against the baseline campaign, and is it real?':
    # page 90 answered it with its title alone (no factor varies inside either campaign)
    from azlatency import report as rep

    ab, why = rep.baseline_comparison(AFTER, pair)
    assert why == ""
    md, claims = rep.campaign_answer(
        rep.load_campaigns(AFTER, pair),
        "What changed against the baseline campaign, and is it real?",
        against=rep.compare_findings(ab),
    )
    assert "**Answer, against the baseline campaign** (page 60 gives every comparison):" in md
    # the known change of synth.abpair: sockperf on 1→2 and 2→1 worse (truth.json)
    assert "**1→2 · sockperf, p50: worse**" in md and "**2→1 · sockperf, p50: worse**" in md
    assert claims["factor"].tolist() == ["baseline campaign"]
    assert f"{AFTER} against {BEFORE}: 22 comparisons" in claims["text"].iloc[0]
    before, why = rep.baseline_comparison(BEFORE, pair)
    assert before is None and why == (
        f"{BEFORE}'s campaign.yaml names no `baseline:`; {AFTER} and {RERUN} name it as their "
        "baseline: their pages compare against it."
    )
    # the baseline's own page, asked what changed, said 'Nothing to compare: no two latency
    # or throughput runs differ in one condition alone ... and no baseline campaign is
    # compared': it says why there is no comparison, and where the comparisons are
    tables = rep.load_campaigns(BEFORE, pair)
    md, claims = rep.campaign_answer(tables, "What changed?", no_comparison=why)
    assert f"**Answer, against the baseline campaign:** Not compared: {why}" in md
    assert claims[["factor", "evidence"]].values.tolist() == [["baseline campaign", "none"]]
    md, claims = rep.campaign_answer(tables, "Which zone pair is slowest?", no_comparison=why)
    assert "Not compared" not in md  # a question about something else: its own answer
    md, claims = rep.campaign_answer(tables, "What changed?")
    assert "**Answer:** Nothing to compare" in md and "no baseline campaign is compared" in md


def _compared(tmp_path, sides: dict[str, tuple[str, ...]]) -> str:
    """Folders ``before`` and ``after`` of real fixture logs (no campaign.yaml), compared with
    ``azlatency compare``: its Markdown."""
    fx = Path(__file__).resolve().parents[1] / "fixtures"
    for side, files in sides.items():
        folder = tmp_path / "raw" / side
        folder.mkdir(parents=True)
        for f in files:
            (folder / Path(f).name).write_bytes((fx / f).read_bytes())
    md = tmp_path / "cmp.md"
    res = CliRunner().invoke(
        main, ["compare", "before", "after", "--data", str(tmp_path), "--markdown", str(md)]
    )
    assert res.exit_code == 0, res.output
    return md.read_text()


def test_campaigns_without_scenarios_are_compared_without_a_nan(tmp_path):
    """Two folders of real logs (iperf3, ntttcp, ping), no campaign.yaml: the findings said
    '- Scenario: nan (every condition below).'"""
    text = _compared(tmp_path, {
        "before": ("iperf3/iperf3--3.12-linux-c-tcp.txt", "ntttcp/ntttcp--1.4.3-linux-s-j-sender.json",
                   "ping/ping--iputils-20221126-linux-D-c5-timestamps.txt"),
        "after": ("iperf3/iperf3--3.18-linux-c-tcp.txt", "ntttcp/ntttcp--1.4.0-linux-s-j-sender.json",
                  "ping/ping--iputils-20221126-linux-c15-i0.2-gap-partial-loss.txt"),
    })  # fmt: skip
    assert "nan" not in text.lower() and "Scenario:" not in text
    # ntttcp's sender totals, one run a side: 10.15 then 2.332 Gbit/s, not tested
    assert "| ntttcp | 10.15 Gbit/s | 2.332 Gbit/s | 1 / 1 |" in text


def test_conditions_on_one_side_only_say_how_they_differ(tmp_path):
    """An iperf3 TCP run before, a UDP one after: 'Only in before: iperf3' and 'Only in after:
    iperf3' read as one condition lost and found; each names its protocol and size now."""
    text = _compared(tmp_path, {"before": ("iperf3/iperf3--3.12-linux-J-tcp.json",),
                                "after": ("iperf3/iperf3--3.18-linux-J-u-udp.json",)})  # fmt: skip
    assert "- Only in before: iperf3 · protocol=tcp · msg_size_bytes=131072." in text
    assert "- Only in after: iperf3 · protocol=udp · msg_size_bytes=1448." in text
    assert "| iperf3 · protocol=udp · msg_size_bytes=1448 |" in text


def test_far_ends_that_differ_between_the_campaigns_are_said(tmp_path):
    """sockperf to 10.201.0.1 before, to 127.0.0.1 after: one condition '+37.4 %' without a
    word that the second run crossed no network."""
    text = _compared(tmp_path, {
        "before": ("sockperf/sockperf--3.7-linux-tcp-pingpong.txt",),
        "after": ("sockperf/sockperf--3.10-linux-tcp-m64-mps200-histogram-console.txt",),
    })  # fmt: skip
    assert (
        "- Changed between the campaigns: far end of sockperf 10.201.0.1 → 127.0.0.1 (this "
        "host: no network crossed)." in text
    )


def test_a_change_question_naming_a_pair_is_answered_by_the_change_first(pair):
    """'Did sockperf latency from zone 1 to zone 2 get worse than in the baseline campaign?'
    was answered by this campaign's 1→2 figures first, the comparison after them (truth: 1→2
    sockperf +25 %); 'Is the change in 1→2 latency more than 20%?' is a change question."""
    from azlatency import report as rep

    ab, _ = rep.baseline_comparison(AFTER, pair)
    tables = rep.load_campaigns(AFTER, pair)
    for q in (
        "Did sockperf latency from zone 1 to zone 2 get worse than in the baseline campaign?",
        "Is the change in 1→2 latency more than 20%?",
    ):
        md, _ = rep.campaign_answer(tables, q, against=rep.compare_findings(ab), rng=0)
        heads = [x for x in md.split("\n\n") if x.startswith("**Answer")]
        assert heads[0].startswith("**Answer, against the baseline campaign**"), q
        assert heads[1].startswith("**Answer, by zone pair"), q
        assert "**1→2 · sockperf, p50: worse**, +24.8 %" in md
        assert "Nothing to compare" not in md
