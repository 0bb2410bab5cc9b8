"""Robust to real dumps (issue 37, item 10): a campaign assembled from a random mix of real
fixture and corpus files, with or without a campaign.yaml, goes through every page's claim
functions without a failure, and without labels each pair of endpoints the logs name is its
own group — never pooled with another target's runs."""

from __future__ import annotations

import json
import re
import shutil
import tempfile
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from azlatency import report as rep
from azlatency import stats
from azlatency.campaign import import_campaign
from azlatency.report._asked import (
    _named,
    asked_other_stat,
    asked_rate,
    asked_threshold,
    named_networking,
    named_placements,
    named_sizes,
    named_tools,
    named_vm_sizes,
)
from azlatency.report._claims import _apart, _endpoints, render
from azlatency.report._compare import campaign_run_values
from azlatency.report._latency import _out_of_order, _runs_apart
from azlatency.report._tails import _printed_ratio
from azlatency.report._throughput import _names as _names_of
from tests._expected import fixture_files
from tests.conftest import CORPUS, ROOT, corpus, needs_shared, seed
from tests.report._fixture_campaign import TWO_PINGS, answer_texts, import_fixtures

SMALL = 64 * 1024  # the mixes stay quick: real files of every tool, none of the big ones
FILES = [f for f in fixture_files() if f.stat().st_size <= SMALL]
if CORPUS.is_dir():
    FILES += sorted(
        f
        for f in CORPUS.rglob("*")
        if f.is_file() and f.name != "SOURCES.md" and f.stat().st_size <= SMALL
    )
YAML = "defaults: {region: westeurope}\nrules:\n  - glob: '*ping*'\n    set: {scenario: ping}\n"


def every_page(tables, name: str, root: Path) -> dict[str, pd.DataFrame]:
    """What each page computes and says, from the package (the notebooks call the same)."""
    level = 0.95
    pct = rep.latency_percentiles(tables, level=level)
    head = rep.headline(pct)
    spectrum = rep.latency_percentiles(tables, level=level, quantiles=rep.SPECTRUM)
    ratios = rep.tail_ratios(tables, spectrum, level=level, rng=0)
    exceed = rep.exceedance(tables, spectrum, multiples=[2.0], level=level)
    medians = rep.zone_pair_medians(tables, level=level)
    asym = rep.asymmetry_table(tables, level=level, rng=0)
    tp = rep.throughput_table(tables, level=level)
    agree = rep.cross_tool(tables, level=level)
    overview = rep.import_overview(name, root)
    _, answer = rep.campaign_answer(tables, None, None, level=level, rng=0)
    rep.campaign_findings(overview, head, medians, asym, tp)
    return {
        "head": head,
        "answer": answer,
        "10": rep.distribution_claims(head, level=level),
        "11": rep.tail_claims(ratios, exceed, level=level),
        "20": rep.zone_matrix_claims(medians, asym, level=level, both_ways=rep.both_ways(medians)),
        "21": rep.contrast_claims(tables, level=level, rng=0),
        "22": rep.throughput_claims(tp),
        "30": rep.longrun_claims(rep.reported_segments(tables), [], pd.DataFrame(), level=level),
        "40": rep.cross_tool_claims(agree),
        "01": rep.import_claims(overview),
    }


@settings(
    max_examples=6,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    picks=st.lists(st.sampled_from(FILES), min_size=2, max_size=6, unique=True),
    with_yaml=st.booleans(),
)
def test_every_page_reads_any_mix_of_real_logs(tmp_path_factory, picks, with_yaml):
    root = tmp_path_factory.mktemp("dump")
    folder = root / "raw" / "mix"
    folder.mkdir(parents=True)
    for i, f in enumerate(picks):
        shutil.copyfile(f, folder / f"{i:02d}-{f.name}")
    if with_yaml:
        (folder / "campaign.yaml").write_text(YAML, encoding="utf-8")
    import_campaign(folder, root=root / "processed", workers=1)
    tables = rep.load_campaigns("mix", root)
    pages = every_page(tables, "mix", root)
    for page, claims in pages.items():
        if page != "head":
            assert claims["text"].notna().all(), page  # every claim has its words
            # and no number a page cannot mean ('inf× apart' over a printed 0 µs)
            assert not claims["text"].str.contains(r"\b(?:inf|nan)\b", case=False).any(), page
    for basis, part in pages["head"].groupby("basis"):
        assert not re.search(r"\b(?:inf|nan)\b", rep.see_latency(part), re.I), basis
    # a label names one group: two targets' runs never share one (a page groups by label)
    head = pages["head"]
    assert not head["label"].duplicated().any(), list(head["label"])


def test_two_pings_to_two_targets_are_two_groups(tmp_path):
    pick = [
        f
        for f in fixture_files()
        if f.name
        in (
            "ping--iputils-20221126-linux-D-c5-timestamps.txt",
            "ping--iputils-20221126-linux-6-c4-ipv6.txt",
        )
    ]
    assert len(pick) == 2
    folder = tmp_path / "raw" / "two"
    folder.mkdir(parents=True)
    for f in pick:
        shutil.copyfile(f, folder / f.name)
    import_campaign(folder, root=tmp_path / "processed", workers=1)
    tables = rep.load_campaigns("two", tmp_path)
    head = rep.headline(rep.latency_percentiles(tables))
    assert len(head) == 2 and head["n_runs"].tolist() == [1, 1]
    assert not head["note"].fillna("").str.contains("across").any()


def _imported(tmp_path, name: str, *files) -> object:
    folder = tmp_path / "raw" / name
    folder.mkdir(parents=True)
    for f in files:
        shutil.copyfile(f, folder / f.name)
    import_campaign(folder, root=tmp_path / "processed", workers=1)
    return rep.load_campaigns(name, tmp_path)


@needs_shared
def test_a_write_ups_runs_under_two_headings_are_two_groups(tmp_path):
    """Seed 001, a write-up in one file: sockperf to 10.2.0.58 under 'Inside single node'
    (lines 106-131: p50 16.493, p99 24.549, p99.9 34.491 µs) and under 'AZ2 - AZ3' (lines
    428-453: 711.131, 819.736, 861.365). Nothing but the heading tells the two runs apart; they
    had one label, so page 11 divided one run's printed percentiles by both runs' (and
    failed), and the headline kept the first run's median for both."""
    tables = _imported(tmp_path, "s001", seed("001"))
    spectrum = rep.latency_percentiles(tables, quantiles=rep.SPECTRUM)
    printed = spectrum[spectrum["source"] == "reported"]
    assert (printed.groupby("label")["run_id"].nunique() == 1).all()
    ratios = rep.tail_ratios(tables, spectrum, rng=0).set_index(["label", "stat"])["estimate"]
    inside, across = (
        f"14 B · to 10.2.0.58 · sockperf (‘{h}’)" for h in ("Inside single node", "AZ2 - AZ3")
    )
    assert ratios[(inside, "p99/p50")] == pytest.approx(24.549 / 16.493)
    assert ratios[(inside, "p99.9/p50")] == pytest.approx(34.491 / 16.493)
    assert ratios[(across, "p99/p50")] == pytest.approx(819.736 / 711.131)
    pages = every_page(tables, "s001", tmp_path)
    head = pages["head"].set_index("label")
    assert not head.index.duplicated().any()
    assert head.loc[inside, "estimate"] == pytest.approx(16.493)
    assert head.loc[across, "estimate"] == pytest.approx(711.131)
    assert pages["11"]["text"].str.contains("p99/p50 ranges from").any()


def test_runs_alike_in_every_attribute_are_told_apart_by_their_line():
    """Two printed runs of one file, same role, no heading, no free label: the line each
    starts at; and the run id where even that is missing."""
    runs = pd.DataFrame(
        {
            "run_id": ["f-000-000", "f-001-000", "f-002-000"],
            "role": "client",
            "source_path": "a/log.txt",
            "heading": [None, None, None],
            "line_start": [3, 40, None],
            "labels": None,
        }
    )
    out = pd.DataFrame({"run_id": ["f-000-000", "f-000-000", "f-001-000", "f-002-000"]})
    label = pd.Series(["x"] * 4)
    got = _runs_apart(label.copy(), out, runs)
    assert got.tolist() == ["x (f-000-000)", "x (f-000-000)", "x (f-001-000)", "x (f-002-000)"]
    got = _runs_apart(label[:3].copy(), out[:3], runs)
    assert got.tolist() == ["x (line 3)", "x (line 3)", "x (line 40)"]


def test_ethrs_batches_give_tail_ratios_as_ethr_wrote_them(tmp_path):
    """ethr's LatencyResult logs its median under "P90" and its maximum under "P50"
    (parsers/ethr/runs.py): read so, the corpus's batches (adriansev) are whole distributions
    and page 11's ratios are theirs (line 37: p99 220.468 us over p50 124.105 us)."""
    src = corpus("ethr", "ethr--client-jsonl-tcp-bw-and-latency--adriansev.txt")
    tables = _imported(tmp_path, "e", src)
    spectrum = rep.latency_percentiles(tables, quantiles=rep.SPECTRUM)
    ratios = rep.tail_ratios(tables, spectrum, rng=0)
    assert len(ratios) == 32 and ratios["estimate"].notna().all()
    first = ratios.iloc[0]
    assert (first["label"], first["stat"]) == ("ethr (batch 0)", "p99/p50")
    assert first["estimate"] == pytest.approx(220.468 / 124.105)


@needs_shared
def test_a_latency_printed_as_0_is_no_value(tmp_path):
    """ethr on Windows to localhost (corpus, zluthdaka's netan log): line 158's batch prints
    'Avg 30.131us', its median (under "P90") and its p90 to p99 '0.000ns', its maximum 1.508
    ms.  In the corpus as one campaign page 90 said 'ethr p50: from 0 µs' and its chart's
    caption 'fastest ... (0 µs), inf× apart'.  A latency of 0 is below what the tool can
    time: the median has no value, the mean stands in and the note says why; the chart of
    the file's 316 groups draws the 30 fastest and the 30 slowest and says so."""
    src = corpus("ethr", "ethr--client-jsonl-mixed-tests-mtr-connect--zluthdaka-netan.txt")
    tables = _imported(tmp_path, "e", src)
    pct = rep.latency_percentiles(tables)
    label = "1 B · TCP · ethr (ethr_test 7, batch 0, batches 11)"
    p50 = pct[(pct["label"] == label) & (pct["stat"] == "p50")].iloc[0]
    assert np.isnan(p50["estimate"])
    assert p50["note"].startswith("printed as 0 µs: below what the tool can time, no value")
    head = rep.headline(pct)
    row = head[head["label"] == label].iloc[0]
    assert (row["stat"], row["estimate"]) == ("mean", 30.131)
    assert row["note"] == (
        "the p50 printed as 0 µs: below what the tool can time, no value; the mean instead"
    )
    rtt = head[head["basis"] == "rtt"]
    assert rtt["estimate"].gt(0).all()
    seen = rep.see_latency(rtt)
    assert "inf" not in seen and seen.startswith("Slowest: ")
    fig = rep.latency_figure(rtt, "rtt")
    assert (
        fig.axes[0]
        .get_title()
        .endswith("the 30 fastest and 30 slowest of 316 groups; the table gives every one")
    )
    assert len(fig.axes[0].get_yticklabels()) == 60


def test_printed_percentiles_out_of_order_give_no_tail_ratio(tmp_path):
    """A printed p50 above its p90 (the same corpus log with each batch's median replaced by
    its maximum, as ethr's keys read literally once gave): p99/p50 would read below 1, a tail
    lighter than the median. Every such ratio is left out, each with its reason, and page 11
    says how many."""
    src = corpus("ethr", "ethr--client-jsonl-tcp-bw-and-latency--adriansev.txt")
    damaged = tmp_path / "src" / src.name
    damaged.parent.mkdir()
    lines = []
    for line in src.read_text().split("\n"):
        if '"LatencyResult"' in line:
            top = re.search(r'"P50":"([^"]*)"', line)[1]  # the batch's maximum
            line = re.sub(r'"P90":"[^"]*"', f'"P90":"{top}"', line)
        lines.append(line)
    damaged.write_text("\n".join(lines))
    tables = _imported(tmp_path, "e", damaged)
    spectrum = rep.latency_percentiles(tables, quantiles=rep.SPECTRUM)
    ratios = rep.tail_ratios(tables, spectrum, rng=0)
    assert len(ratios) == 32 and ratios["estimate"].isna().all()
    first = ratios.iloc[0]
    assert first["note"] == (
        "p50 printed 1940 us, out of order with the run's other percentiles (p90 131.008 us): "
        "not used; no ratio"
    )
    exceed = rep.exceedance(tables, spectrum, multiples=[2.0])
    text = rep.tail_claims(ratios, exceed, level=0.95)["text"].tolist()
    assert text[0].startswith("32 ratios are left out")
    # page 10's headline: the printed mean (127.014 us), not a median above the run's p90
    head = rep.headline(rep.latency_percentiles(tables)).set_index("label")
    assert head.loc["ethr (batch 0)", "stat"] == "mean"
    assert head.loc["ethr (batch 0)", "estimate"] == pytest.approx(127.014)
    assert not any("ranges from" in t or "heaviest" in t for t in text)


@pytest.mark.parametrize(
    ("top", "base", "estimate", "note"),
    [
        (24.549, 16.493, 24.549 / 16.493, "printed percentiles: no interval"),
        (5.0, 0.0, None, "printed p50 is 0 (below the tool's resolution?): no ratio"),
        (0.0, 555.0, None, "printed p99 (0) is below p50 (555), out of order: no ratio"),
        (float("nan"), 3.0, None, "printed p99 or p50 is not a number: no ratio"),
    ],
)
def test_a_ratio_of_printed_percentiles_says_why_it_has_none(top, base, estimate, note):
    got, why = _printed_ratio(top, base, "p99", "p50")
    assert why == note
    assert got == pytest.approx(estimate) if estimate is not None else np.isnan(got)


def test_a_printed_percentile_out_of_order_with_the_rest_is_not_used():
    """The run's figures in q order (min 0, p50 555, p90 0, p99 0, p99.9 1000, max 3008, as
    ethr's server log prints them): the longest run that never decreases leaves out p50 only."""
    rows = pd.DataFrame(
        {
            "run_id": "r",
            "stat": ["p50", "p90", "p99", "p99.9", "min", "max", "mean"],
            "q": [0.5, 0.9, 0.99, 0.999, np.nan, np.nan, np.nan],
            "estimate": [555.0, 0.0, 0.0, 1000.0, 0.0, 3008.0, 141.3],
            "unit": "us",
            "note": "printed",
        }
    )
    out = _out_of_order(rows.copy())
    assert out["estimate"].isna().tolist() == [True, False, False, False, False, False, False]
    assert out.loc[0, "note"] == (
        "printed 555 us, out of order with the run's other percentiles (p90 0 us): not used"
    )
    assert _out_of_order(rows.iloc[1:].copy()).equals(rows.iloc[1:])  # in order: unchanged


def test_a_range_whose_pairs_point_both_ways_says_so_once():
    """Seed 001's write-up: 350 B against 1400 B sockperf medians of two client VMs, 1.11×
    one pair and 0.90× another (printed 93.56 against 84.39 µs, ...). The sentence said
    'the direction depends on the pair, depending on the pair'."""
    claim = {
        "kind": "range",
        "a": "350 B messages",
        "b": "1400 B messages",
        "estimate": np.nan,
        "estimate_low": 0.90,
        "estimate_high": 1.58,
        "direction": "mixed",
        "context": "sockperf",
        "stat": "p50",
        "basis": "rtt",
        "evidence": "printed values",
        "n_runs_a": 1,
        "n_runs_b": 1,
    }
    mixed = render(claim)
    assert mixed.startswith(
        "**350 B messages against 1400 B messages: 0.90× to 1.58×, the direction depends on "
        "the pair** (sockperf; median round trip; printed values, one run a group: no test):"
    )
    assert mixed.count("on the pair") == 1
    one_way = render({**claim, "direction": "a>b", "estimate_low": 1.11})
    assert one_way.startswith("**350 B messages is 1.11× to 1.58× 1400 B messages, depending on")


def test_a_range_of_medians_and_means_names_each_pairs_statistic(tmp_path):
    """Pings filed by placement: zone 1's with their replies (medians 31 and 56 µs), zone 3's
    summaries only (printed means 24 µs and pingparsing's 99.731 ms). The range said 'median
    round trip' of a pair of printed means."""
    files = {
        "ping/ping--iputils-20221126-linux-D-c5-timestamps.txt": "same-zone/z1/a.txt",
        "ping/ping--iputils-20250605-33-linux-LANG-de_DE-c5.txt": "cross-zone/z1/b.txt",
        "ping/ping--iputils-20221126-linux-q-c5-summary-only.txt": "same-zone/z3/c.txt",
        str(corpus("ping", "ping--linux-summary-only--pingparsing.txt")): "cross-zone/z3/d.txt",
    }
    rules = [
        f'  - glob: "{p}/z{z}/*"\n    set: {{placement: {p.replace("-", "_")}, '
        f"src_zone: {z}, dst_zone: {d}}}"
        for p, z, d in [
            ("same-zone", 1, 1),
            ("cross-zone", 1, 2),
            ("same-zone", 3, 3),
            ("cross-zone", 3, 2),
        ]
    ]
    tables = import_fixtures(tmp_path, "mx", files, "rules:\n" + "\n".join(rules) + "\n")
    claims = rep.contrast_claims(tables, factors=("placement",), rng=0)
    head, one, two = claims["text"]
    assert "(ping, 56 B; median or mean round trip, each pair says which;" in head
    assert one.startswith("1.81× (1→2 vs 1→1): median 56 µs vs 31 µs;")
    assert two.startswith("4155.46× (3→2 vs 3→3): mean 99.73 ms vs 24 µs;")


@needs_shared
def test_message_sizes_are_compared_between_the_same_endpoints(tmp_path):
    """Seed 000 without its campaign.yaml: sockperf from malzonka02 to 10.0.1.4 and from
    malzonka04 to 10.0.1.6, each at 350 B and 1400 B. Each size is compared on its own pair
    of VMs (93.556 vs 84.389 µs, 53.433 vs 44.215 µs, as the bundled campaign's placements give),
    not one VM's 1400 B against both VMs' 350 B pooled."""
    tables = _imported(tmp_path, "s000", seed("000"))
    claims = rep.contrast_claims(tables, factors=("msg_size_bytes",), rng=0)
    pairs = claims[claims["kind"] == "pair"]
    assert (pairs["groups_a"] == pairs["groups_b"]).all()
    got = {tuple(r.groups_a): r.estimate for r in pairs.itertuples()}
    assert got == {
        ("malzonka02→10.0.1.4",): pytest.approx(93.556 / 84.389),
        ("malzonka04→10.0.1.6",): pytest.approx(53.433 / 44.215),
    }
    assert (
        pairs["text"]
        .str.startswith(
            (
                "1.11× (malzonka02→10.0.1.4): 93.56 µs vs 84.39 µs",
                "1.21× (malzonka04→10.0.1.6): 53.43 µs vs 44.22 µs",
            )
        )
        .all()
    )


@needs_shared
def test_message_sizes_to_different_targets_are_not_compared(tmp_path):
    """The corpus pings: 56 B to 10.0.0.2, google.com and google.mx, 32 B to other hosts.
    The page said '56 B messages is 0.78× to 10.69× 32 B messages', every pair a pair of
    different targets; no pair of endpoints was measured at both sizes.  google.com
    (216.58.196.238) was pinged at 32 B by Windows and at 56 B by Linux (pingparsing's
    outputs): two clients, not two sizes of one ('32 B messages is 1.07× 56 B messages' once
    the Linux summary was no longer taken for a summary of another host's pings)."""
    files = sorted(f for f in (CORPUS / "ping").iterdir() if f.stat().st_size <= SMALL)
    tables = _imported(tmp_path, "pings", *files)
    claims = rep.contrast_claims(tables, factors=("msg_size_bytes",), rng=0)
    assert (claims["kind"] == "not_compared").all()
    assert claims["caveat"].str.startswith("no pair of endpoints was measured at both").all()


def test_one_groups_tail_ratio_is_said_as_one():
    """'p99/p50 ranges from 38.3 to 38.3 across 1 groups' (the echo CSV fixtures, one group)."""
    ratios = pd.DataFrame(
        {
            "label": ["echo_csv", "echo_csv"],
            "stat": ["p99/p50", "p99.9/p50"],
            "estimate": [38.3, np.nan],
            "ci_low": [30.1, np.nan],
            "ci_high": [41.0, np.nan],
            "source": "samples",
            "note": ["", "n_eff=650: the bootstrap cannot reach p99.9"],
        }
    )
    exceed = pd.DataFrame(columns=["label", "multiple", "estimate"])
    text = rep.tail_claims(ratios, exceed, level=0.95)["text"].tolist()
    assert text[0] == "p99/p50 is 38.3 (*echo_csv*)."


def test_two_groups_of_one_value_are_both_named(tmp_path):
    """Seed 000 with its campaign.yaml (the bundled campaign): iperf3 gives 3.816 Gbit/s in the
    availability set and in the availability zones. Page 22 said 'from 3.816 Gbit/s
    (availability set) to 3.816 Gbit/s (availability set)': the first group twice."""
    raw = ROOT / "data" / "raw" / "seed000-az-vs-as"
    if not (raw / "campaign.yaml").is_file():
        pytest.skip("the bundled seed000 campaign is not in this clone")
    shutil.copytree(raw, tmp_path / "raw" / "s000")
    import_campaign(tmp_path / "raw" / "s000", root=tmp_path / "processed", workers=1)
    tables = rep.load_campaigns("s000", tmp_path)
    tp = rep.throughput_table(tables)
    text = rep.throughput_claims(tp).loc[0, "text"]
    # both 3.816 Gbit/s: "from 3.816 Gbit/s to 3.816 Gbit/s" read as a range
    assert (
        tp["estimate"].nunique() == 1 and rep.fmt(tp["estimate"].iloc[0], "bps") == "3.816 Gbit/s"
    )
    assert text == (
        "**iperf3** (2 runs): the lowest and the highest are equal to the digits shown: "
        "3.816 Gbit/s (95% CI 3.794–3.838) (availability set) and 3.816 Gbit/s "
        "(95% CI 3.792–3.84) (availability zones)."
    )


def test_a_folder_per_message_size_is_still_the_same_endpoints():
    """A campaign.yaml that names a scenario per size folder ('m64/*', 'm1400/*'): the runs
    are still between the same VMs, so they are each other's partners."""
    a = pd.DataFrame({"scenario": ["m64"], "src_host": ["vm-a"], "dst_host": ["vm-b"]})
    b = a.assign(scenario="m1400")
    assert _endpoints(a) == _endpoints(b) == ("vm-a", "vm-b")
    assert _endpoints(b.assign(dst_host="vm-c")) != _endpoints(a)


def test_message_sizes_of_runs_that_name_no_end_are_not_compared(tmp_path):
    """Four sockperf --full-log files captured on different machines (3.3, 3.7 and 3.10; 64 B
    and 14 B): a full log names neither end, so nothing says the two sizes were sent between
    the same VMs. They used to be compared ('not told apart', 9.651 against 14.21 µs)."""
    fx = ROOT / "tests" / "fixtures" / "sockperf"
    names = (
        "sockperf--3.10-linux-tcp-m64-mps200-fulllog-histogram.csv",
        "sockperf--3.3-linux-tcp-m64-mps200-fulllog-pairs.csv",
        "sockperf--3.3-linux-udp-mps200-fulllog-pairs.csv",
        "sockperf--3.7-linux-udp-mps2000-fulllog-latency.csv",
    )
    tables = _imported(tmp_path, "logs", *(fx / n for n in names))
    claims = rep.contrast_claims(tables, factors=("msg_size_bytes",), rng=0)
    assert claims["kind"].tolist() == ["not_compared"]
    assert claims.loc[0, "caveat"].startswith("the logs name neither end of these runs")


def test_two_pairs_of_vms_with_one_label_are_named_by_their_hosts():
    """Synthetic-westeurope's placement contrast read '1.29× (1→1 · placement vs 1→1 ·
    placement)': a proximity placement group and a same-zone pair, two pairs of VMs."""
    ppg = pd.DataFrame({"src_host": ["vm-ppg-a"], "dst_host": ["vm-ppg-b"]})
    zone = pd.DataFrame({"src_host": ["vm-z1-a"], "dst_host": ["vm-z1-b"]})
    a, b = _apart([("1→1 · placement", zone)], [("1→1 · placement", ppg), ("2→2", ppg)])
    assert [x[0] for x in a] == ["1→1 · placement · vm-z1-a→vm-z1-b"]
    assert [x[0] for x in b] == ["1→1 · placement · vm-ppg-a→vm-ppg-b", "2→2"]
    assert _apart([("x", zone)], [("y", ppg)]) == ([("x", zone)], [("y", ppg)])


@needs_shared
def test_free_labels_that_tell_runs_apart_say_their_key():
    """The corpus ethr server log: runs told apart by their free labels read '(batch 0,
    batches 11, ethr_test 101)', not '(0.0, 11.0, 101.0)'."""
    src = corpus("ethr", "ethr--server-jsonl-testresult-latencyresult--zluthdaka-netan.txt")
    labels = set(rep.latency_percentiles(_imported(Path(tempfile.mkdtemp()), "s", src))["label"])
    assert "ethr (batch 0, batches 11, ethr_test 101)" in labels
    assert not any(".0," in x or ".0)" in x for x in labels)


def test_a_tool_with_one_pair_says_its_ratio_once():
    """The corpus page 40 said 'latte ...: ratio of p50 from 8.52 to 8.52 over 1 pair(s)', and
    the seeds' 'latte ...: ratio of mean from 1.43 to 1.43 over 2 pairs'."""
    agree = pd.DataFrame(
        {
            "tool": ["sockperf", "latte", "sockperf", "qperf", "sockperf", "qperf"],
            "label": ["s1", "l1", "s2", "q2", "s3", "q3"],
            "reference": ["s1", "s1", "s2", "s2", "s3", "s3"],
            "ratio_to_reference": [1.0, 8.52, 1.0, 1.4312, 1.0, 1.4338],
            "ratio_of": ["p50", "p50", "p50", "mean", "p50", "mean"],
        }
    )
    assert rep.cross_tool_claims(agree)["text"].tolist() == [
        "**latte** against sockperf, the reference tool of its pair: ratio of p50 8.52 on its "
        "one pair.",
        "**qperf** against sockperf, the reference tool of its pairs: ratio of mean 1.43 on each "
        "of its 2 pairs.",
    ]


def test_a_message_size_sweep_is_set_against_its_smallest_size(tmp_path):
    """qperf's ``-oo msg_size:1:64K:*4 tcp_lat`` to 10.204.0.1 (a fixture): nine sizes
    between one pair of hosts. Every pair of sizes made a sentence, 36 for this one sweep;
    each size is now set against the smallest, 1 B (19.6 µs): eight."""
    fixture = ROOT / "tests" / "fixtures" / "qperf" / "qperf--0.4.11-linux-oo-vu-sweep-tcp_lat.txt"
    tables = _imported(tmp_path, "sweep", fixture)
    claims = rep.contrast_claims(tables, factors=("msg_size_bytes",), rng=0)
    assert len(claims) == 8 and set(claims["kind"]) == {"ratio"}
    assert ((claims["a"] == "1 B messages") | (claims["b"] == "1 B messages")).all()
    got = dict(zip(claims["a"] + " / " + claims["b"], claims["estimate"], strict=True))
    assert got["16384 B messages / 1 B messages"] == pytest.approx(81.7 / 19.6, rel=1e-3)
    assert got["1 B messages / 64 B messages"] == pytest.approx(19.6 / 13.8, rel=1e-3)


def test_each_pair_of_hosts_has_its_own_smallest_size():
    """Two pairs of VMs in one sweep: vm-a→vm-b at 14, 64 and 1400 B, vm-c→vm-d at 64 and
    1400 B. vm-c→vm-d's 1400 B is set against its own 64 B, not against a 14 B it never
    sent; a pair of VMs measured at one size is in every contrast of that size."""
    runs = pd.DataFrame(
        {
            "run_id": [f"r{i}" for i in range(6)],
            "tool": "sockperf",
            "latency_basis": "half_rtt",
            "src_host": ["vm-a", "vm-a", "vm-a", "vm-c", "vm-c", "vm-e"],
            "dst_host": ["vm-b", "vm-b", "vm-b", "vm-d", "vm-d", "vm-f"],
            "msg_size_bytes": [14, 64, 1400, 64, 1400, 64],
        }
    )
    got = {
        (ref, other): sorted(a["run_id"]) + sorted(b["run_id"])
        for _, ref, other, _, a, b in rep.contrast_pairs(runs, ("msg_size_bytes",))
    }
    assert got == {
        (14, 64): ["r0", "r1", "r5"],
        (14, 1400): ["r0", "r2"],
        (64, 1400): ["r3", "r5", "r4"],
    }


def test_a_test_lost_to_the_adjustment_says_so():
    """synthetic-westeurope's page 21 said '1400 B messages and 64 B messages are not told
    apart (...; 95% CI of the ratio 1.11 to 1.36; ..., adjusted p = 0.12)': an interval
    without 1 under a verdict of none, and no word of why."""
    claim = {
        "kind": "ratio",
        "factor": "msg_size_bytes",
        "a": "1400 B messages",
        "b": "64 B messages",
        "context": "sockperf",
        "tool": "sockperf",
        "stat": "p50",
        "basis": "half_rtt",
        "estimate": 1.2306,
        "ci_low": 1.1105,
        "ci_high": 1.3637,
        "level": 0.95,
        "p_value": 0.0195,
        "p_adj": 0.1169,
        "direction": "none",
        "evidence": "tested across runs",
        "value_a": 32.09,
        "value_b": 26.08,
        "n_runs_a": 2,
        "n_runs_b": 2,
    }
    text = render(claim)
    assert text.startswith("**1400 B messages and 64 B messages are not told apart**")
    assert text.endswith(
        "the interval excludes 1, but the test is not significant after adjustment over the "
        "page's tests)."
    )
    assert "excludes 1" not in render({**claim, "ci_low": 0.99, "p_adj": 0.2})


@needs_shared
def test_tools_are_compared_on_the_pair_a_write_up_names(tmp_path):
    """Seed 001 without its campaign.yaml: qperf and sockperf under each heading ('Inside
    single node': qperf 16.9 µs, sockperf's mean 16.791 µs, half round trips). With nothing
    to name the pairs, every run was set against one sockperf run ('AZ2 - AZ3', 711 µs):
    page 40 said 'qperf ... from 0.0239 to 1.01 over 5 pairs'."""
    tables = _imported(tmp_path, "s001", seed("001"))
    agree = rep.cross_tool(tables)
    qperf = agree[agree["tool"] == "qperf"].set_index("heading")["ratio_to_reference"]
    assert len(qperf) == 5
    assert qperf["Inside single node"] == pytest.approx(16.9 / 16.791, rel=1e-4)
    assert qperf.between(0.99, 1.04).all()
    assert set(agree["pair"]) >= {"‘Inside single node’ · to 10.2.0.58"}
    text = rep.cross_tool_claims(agree)["text"].tolist()
    assert text == [
        "**qperf** at 1 B against sockperf at 14 B, the reference tool of its pairs: ratio of mean "
        "from 0.999 to 1.03 over 5 pairs."
    ]
    assert agree.attrs["alone"] == []


@needs_shared
def test_a_tool_alone_on_its_pairs_is_named(tmp_path):
    """The seeds without their yamls: latte (seed 002) and ping (seed 000) share a pair with
    no other tool. Page 40 said nothing of them, as if they were not in the campaign."""
    files = [seed("000"), seed("001"), seed("002")]
    agree = rep.cross_tool(_imported(tmp_path, "seeds", *files))
    assert agree.attrs["alone"] == ["latte", "ping"]
    assert rep.cross_tool_claims(agree)["text"].tolist()[-1] == (
        "**latte, ping**: no other tool measured their pairs of VMs, so they are not set "
        "against one."
    )


def test_a_tool_alone_on_some_of_its_pairs_is_said(tmp_path):
    """Two of seed 001's write-ups (qperf and sockperf in each) and a sockperf capture under a
    third scenario: sockperf measured one pair qperf did not. Page 40 compared them over 2
    pairs and said nothing of the third."""
    folder = ROOT / "data" / "raw" / "seed001-aks-azure-cni"
    solo = tmp_path / "solo.txt"
    shutil.copyfile(
        ROOT / "tests" / "fixtures" / "sockperf" / "sockperf--3.7-linux-tcp-pingpong.txt", solo
    )
    yaml = tmp_path / "campaign.yaml"
    yaml.write_text(
        "rules:\n"
        "  - {glob: az1-az1.md, set: {scenario: same zone}}\n"
        "  - {glob: az1-az2.md, set: {scenario: cross zone}}\n"
        "  - {glob: solo.txt, set: {scenario: solo}}\n",
        encoding="utf-8",
    )
    agree = rep.cross_tool(
        _imported(tmp_path, "alone", folder / "az1-az1.md", folder / "az1-az2.md", solo, yaml)
    )
    assert agree.attrs["alone_on"] == {"sockperf": (1, 3)}
    assert rep.cross_tool_claims(agree)["text"].tolist()[1:] == [
        "**sockperf**: 1 of its 3 pairs of VMs had no other tool beside it, so it is not set "
        "against one."
    ]


def test_a_pair_whose_zones_one_tool_could_not_know_is_still_one_pair(tmp_path):
    """The bundled seed 001 campaign: under 'Inside single node' (single-node.md) qperf prints
    no address, so its run has no zones, while sockperf's addresses put both pods in zone 2.
    Same scenario, same placement, same heading: one pair of pods. Page 40 took them for two
    and said each tool had measured that pair alone ('qperf: 1 of its 5 pairs of VMs had no
    other tool beside it'; sockperf the same). It now compares them there too, as seed 001
    without its yaml does: qperf's mean 16.9 µs over sockperf's 16.791 µs."""
    folder = ROOT / "data" / "raw" / "seed001-aks-azure-cni"
    agree = rep.cross_tool(_imported(tmp_path, "s001", *sorted(folder.iterdir())))
    assert agree.attrs["alone_on"] == {}
    one = agree[agree["scenario"] == "Azure CNI (single node)"].set_index("tool")
    assert one["zone_pair"].tolist() == ["2-2", "2-2"]
    assert one.loc["qperf", "ratio_to_reference"] == pytest.approx(16.9 / 16.791, rel=1e-4)
    assert rep.cross_tool_claims(agree)["text"].tolist() == [
        "**qperf** at 1 B against sockperf at 14 B, the reference tool of its pairs: ratio of mean "
        "from 0.999 to 1.03 over 5 pairs."
    ]


def test_two_tools_on_one_pair_of_pods_get_one_rule_for_its_zones(tmp_path):
    """The same seed 001 pair of pods on one node (zone 2, from sockperf's addresses): page
    21 refused sockperf's 'same node vs same zone' (1→1 against 2→2 share no zone) but set
    qperf's against 1-1 ('same zone is 2.30× same node', 38.8 µs vs 16.9 µs), qperf's run
    having no zones of its own. Both tools now get the rule's answer."""
    folder = ROOT / "data" / "raw" / "seed001-aks-azure-cni"
    claims = rep.contrast_claims(_imported(tmp_path, "s001", *sorted(folder.iterdir())))
    text = claims["text"].tolist()
    for tool, size in (("qperf", "1 B"), ("sockperf", "14 B")):
        assert (
            f"**same node vs same zone: not compared** ({tool}, {size}, D8ds_v4): no pair of "
            "groups shares a zone, so none compares like with like."
        ) in text
    assert not any("same zone is 2.30× same node" in t for t in text)
    single = claims[claims["kind"].eq("pair") & claims["tool"].eq("qperf")]["groups_b"]
    assert "zones 2–2 · Azure CNI (single node)" in {g for gs in single for g in gs}


def test_logs_that_name_no_pair_are_not_compared_across_tools(tmp_path):
    """A sockperf full log and a qperf test from two machines, in one folder without a yaml:
    nothing says they measured one pair of VMs, so the page says so instead of a ratio."""
    fx = ROOT / "tests" / "fixtures"
    tables = _imported(
        tmp_path,
        "two",
        fx / "sockperf" / "sockperf--3.10-linux-tcp-m64-mps200-fulllog-histogram.csv",
        fx / "qperf" / "qperf--0.4.11-linux-plain-tcp-udp.txt",
    )
    agree = rep.cross_tool(tables)
    assert agree.empty
    (text,) = rep.cross_tool_claims(agree)["text"]
    assert text.startswith("**qperf, sockperf**: not compared; nothing says they measured one pair")


@needs_shared
def test_throughput_without_scenarios_says_where_each_run_was(tmp_path):
    """Seed 001 without its campaign.yaml: page 22 said 'iperf3 (5 runs): from 7.91 Gbit/s
    ((no scenario)) to 25.72 Gbit/s ((no scenario))'. The write-up's headings say where."""
    tables = _imported(tmp_path, "s001", seed("001"))
    text = rep.throughput_claims(rep.throughput_table(tables))["text"].tolist()
    assert text[0] == (
        "**iperf3** (5 runs): from 7.91 Gbit/s (no interval) (‘AZ1 - AZ3’) to 25.72 Gbit/s "
        "(no interval) (‘Inside single node’)."
    )
    assert not any("no scenario" in t for t in text)


def test_throughput_without_scenarios_or_headings_names_the_hosts_or_the_file():
    """The corpus's iperf3 logs: no scenario, no heading; the hosts the log names, else the
    file and the line the run starts at."""
    out = _names_of(
        pd.DataFrame(
            {
                "tool": "iperf3",
                "parser_variant": "json",
                "scenario": pd.NA,
                "src_zone": pd.NA,
                "dst_zone": pd.NA,
                "heading": pd.NA,
                "src_host": [pd.NA, pd.NA],
                "dst_host": [pd.NA, pd.NA],
                "dst_ip": ["10.0.0.2", pd.NA],
                "source_path": ["corpus/iperf3/a.json", "corpus/iperf3/b.txt"],
                "line_start": [1, 24],
            }
        )
    )
    assert out["where"].tolist() == ["?→10.0.0.2", "b.txt:24"]


def test_one_way_delays_are_not_contrasted_beside_round_trips(tmp_path):
    """iperf 2's fixtures: pages 10 and 90 said 'holds no latency run' while page 21 and the
    campaign's answer compared one-way delays ('131072 B messages and 1470 B messages are not
    told apart (iperf2; median one way; ...)'). Contrasts take round trips and half round
    trips, as the latency pages do; the one-way runs are page 40's, and the pages say so."""
    fixture = ROOT / "tests" / "fixtures" / "iperf2" / "iperf2--2.0.13-linux-s-i1-e-u-udp.txt"
    tables = _imported(tmp_path, "ow", fixture)
    assert set(tables.runs["latency_basis"].dropna()) == {"one_way"}
    assert rep.no_round_trips(tables, "ow") == (
        "ow holds no round-trip latency run (rtt or half rtt); its one-way delays (iperf2: 1 "
        "run) are on the cross-tool page (40), beside the evidence of the clocks they rest on."
    )
    runs = pd.DataFrame(
        {
            "run_id": ["a", "b"],
            "tool": "iperf2",
            "latency_basis": "one_way",
            "src_host": "vm-a",
            "dst_host": "vm-b",
            "msg_size_bytes": [1470, 131072],
        }
    )
    assert list(rep.contrast_pairs(runs)) == []


def test_the_page_one_way_runs_are_sent_to_runs(tmp_path):
    """iperf 2's server log with -e -u: the latency pages say its one-way delays are on page
    40, which ran only where two tools measured one pair, so it was skipped here."""
    from azlatency.report._needs import NEEDS

    fixture = ROOT / "tests" / "fixtures" / "iperf2" / "iperf2--2.0.13-linux-s-i1-e-u-udp.txt"
    tables = _imported(tmp_path, "ow", fixture)
    assert NEEDS["40"].check(tables, {})
    assert len(rep.one_way_notes(tables)) == 1


def test_contrasts_of_a_tool_in_two_protocols_say_which():
    """ping's fixtures: ICMP and ICMPv6 runs made two sentences alike to the letter ('56 B
    messages vs 32 B messages: not compared (ping): ...')."""
    from azlatency.report._compare import context_text, mixed_protocols

    runs = pd.DataFrame(
        {"tool": ["ping", "ping", "sockperf"], "latency_basis": "rtt"}
        | {"protocol": ["icmp", "icmpv6", "udp"]}
    )
    mixed = mixed_protocols(runs)
    assert mixed == {"ping"}
    assert context_text({"tool": "ping", "protocol": "icmpv6"}, "msg_size_bytes", mixed) == (
        "ping, icmpv6"
    )
    assert context_text({"tool": "sockperf", "protocol": "udp"}, "msg_size_bytes", mixed) == (
        "sockperf"
    )


def test_tied_groups_on_the_campaign_page_are_both_named():
    """latte's fixtures: the campaign page said 'from 2026 µs (latte (to 10.0.0.5)) to
    2026 µs (latte (to 10.0.0.5)), 2 groups', the first group twice."""
    from azlatency.report._summary import _latency_lines

    head = pd.DataFrame(
        {
            "basis": "rtt",
            "tool": "latte",
            "stat": "mean",
            "label": ["latte (to 10.0.0.5)", "latte"],
            "estimate": [2026.0, 2026.0],
            "source": "reported",
        }
    )
    assert _latency_lines(head) == [
        "- **Latency (rtt), latte mean:** from 2026 µs (*latte (to 10.0.0.5)*) to 2026 µs "
        "(*latte*), 2 groups (printed by the tool, no intervals)."
    ]


def test_a_forest_of_printed_values_claims_no_direction_from_evidence():
    """Seed 001's forest said '13 ratios (slower / faster); 13 with a direction the evidence
    supports', every one a ratio of two printed values with no interval."""
    forest = pd.DataFrame(
        {
            "direction": ["a>b", "a>b", "none", "a>b"],
            "interval": ["none", "none", "confidence interval", "bounds"],
        }
    )
    assert rep.see_forest(forest) == (
        "4 ratios (slower / faster): 1 with a direction the evidence supports; 1 not told apart "
        "(whiskers or bounds reach 1, or the adjusted test fails); 2 of printed values, with no "
        "interval to give one."
    )


def test_one_group_is_said_once_and_counts_take_their_noun():
    """The corpus's latte log alone: 'Slowest: latte (106 µs); fastest: latte (106 µs)' and
    'What was measured: 1 runs from 1 files'."""
    from azlatency.report._show import counted

    one = pd.DataFrame({"label": ["latte"], "estimate": [106.0], "ci_low": [105.0]})
    assert rep.see_latency(one) == "One group: latte (106 µs); 1 of 1 with an interval."
    assert [counted(1, "run"), counted(0, "file"), counted(2, "file")] == [
        "1 run",
        "0 files",
        "2 files",
    ]


def test_two_tables_alike_but_for_a_region_say_which_is_which(tmp_path):
    """The reported-values fixtures: the German table names uksouth, the markdown note names
    no region, and both give cross-zone 1425 µs against same zone 850 µs.  Their contrasts
    were two sentences alike to the letter, with one claim id."""
    fx = ROOT / "tests" / "fixtures" / "reported_csv"
    folder = tmp_path / "raw" / "twice"
    folder.mkdir(parents=True)
    for name in (
        "reported_csv--1-windows-de-semicolon-decimal-comma.csv",
        "reported_csv--1-any-none-markdown-note.md",
    ):
        shutil.copyfile(fx / name, folder / name)
    import_campaign(folder, root=tmp_path / "processed", workers=1)
    claims = rep.contrast_claims(rep.load_campaigns("twice", tmp_path), factors=["placement"])
    echo = claims[(claims["tool"] == "echo_csv") & (claims["a"] == "cross-zone")]
    assert sorted(echo["context"]) == ["echo_csv, region not stated", "echo_csv, region uksouth"]
    assert set(echo["estimate"].round(2)) == {1.68}  # 1425 / 850, in each
    assert not claims["text"].duplicated().any()
    assert not claims["claim_id"].duplicated().any()


def test_the_import_page_counts_take_their_noun():
    """Every tool's fixtures as one campaign: page 01 said '1 files were not imported' and
    '(11 runs)'; a campaign with no run said '0 runs from 0 files ();'."""
    overview = {
        "campaigns": pd.DataFrame({"campaign": ["uping"], "runs": [1], "files_imported": [1]}),
        "not_imported": pd.DataFrame({"reason": ["parse_error"]}),
        "quality": pd.DataFrame({"issue": ["unlabelled_zones"], "runs": [1]}),
    }
    texts = list(rep.import_claims(overview)["text"])
    assert texts[0].startswith("Imported: **1 run** from **1 file** in 1 campaign (uping: 1)")
    assert texts[1] == "1 file was not imported: 1 parse_error."
    assert texts[2] == "The most common quality note is *unlabelled_zones* (1 run)."


def test_page_40_runs_where_the_one_shared_pair_is_known_by_one_tools_zones(tmp_path):
    """The bundled seed 001 campaign with qperf's sections cut out of its four zone files,
    so that the single node is the one pair both tools measured: there qperf prints no
    address (no zones) while sockperf's addresses put both pods in zone 2. The plan skipped
    page 40 ('needs one pair of VMs measured by two or more latency tools'), as cross_tool had
    counted two pairs."""
    folder = ROOT / "data" / "raw" / "seed001-aks-azure-cni"
    files = [folder / "single-node.md", folder / "campaign.yaml"]
    for name in ("az1-az1.md", "az1-az2.md", "az1-az3.md", "az2-az3.md"):
        text = (folder / name).read_text(encoding="utf-8")
        qperf, sockperf = text.index("# qperf "), text.index("# sockperf ")
        (tmp_path / name).write_text(text[:qperf] + text[sockperf:], encoding="utf-8")
        files.append(tmp_path / name)
    tables = _imported(tmp_path, "s001", *files)
    qperf = tables.runs[tables.runs["tool"].eq("qperf")]
    assert set(qperf["scenario"]) == {"Azure CNI (single node)"}
    assert qperf["zone_pair"].isna().all()
    from azlatency.report._needs import missing

    assert missing("40-cross-tool-agreement", tables) is None
    agree = rep.cross_tool(tables)
    assert set(agree["zone_pair"]) == {"2-2"} and set(agree["tool"]) == {"qperf", "sockperf"}


def test_a_tool_that_measured_both_sides_only_apart_says_so(tmp_path):
    """sockperf in an availability set with --full-rtt (round trips) and across zones without
    (half round trips), ping in both: the placement answer set ping's sides against each
    other and said nothing of sockperf's, which measured both placements but never alike."""
    files = {
        "ping/ping--busybox-1.35.0-linux-c15-gap-partial-loss.txt": "avset/ping.txt",
        "ping/ping--iputils-20221126-linux-c15-i0.2-gap-partial-loss.txt": "zones/ping.txt",
        "sockperf/sockperf--3.7-linux-tcp-m1400-fullrtt-pingpong.txt": "avset/sockperf.txt",
        "sockperf/sockperf--3.7-linux-tcp-pingpong.txt": "zones/sockperf.txt",
    }
    yaml = _rules(
        {"avset/*": "{placement: availability_set}", "zones/*": "{src_zone: '1', dst_zone: '3'}"}
    )
    tables = import_fixtures(tmp_path, "placed", files, yaml)
    claims = rep.contrast_claims(tables, rng=0)
    placement = claims[claims["factor"] == "placement"]
    assert placement["text"].tolist() == [
        "**availability set is 1.37× cross-zone** (ping, 56 B; median round trip; 44 µs vs "
        "32 µs; one run a side: no test across runs).",
        "**availability set vs cross-zone: not compared** (sockperf): every run of one side "
        "differs from every run of the other in more than placement (basis rtt vs half_rtt).",
    ]


def test_a_printed_only_run_to_another_host_is_no_summary_of_a_sampled_one(tmp_path):
    """A ping pasted without its replies (printed statistics only) is left out where a run of
    the same condition has samples, as sockperf's console summary of its --full-log: but a
    paste to 10.107.3.5 beside pings with replies to 10.77.40.2 is no such summary. The
    VM-size answer said 'D4s_v5 is 1.78× D2s_v5 (... 1 vs 2 runs)' of the two D4 runs."""
    files = {
        "ping/ping--iputils-20221126-linux-D-c5-timestamps.txt": "d2/a.txt",
        "ping/ping--iputils-20221126-linux-c15-i0.2-gap-partial-loss.txt": "d2/b.txt",
        "ping/ping--iputils-20250605-33-linux-LANG-de_DE-c5.txt": "d4/a.txt",
        "ping/ping--iputils-linux-c30-elided-paste--richardimaoka-blog.txt": "d4/b.txt",
    }
    yaml = _rules({"d2/*": "{vm_size: Standard_D2s_v5}", "d4/*": "{vm_size: Standard_D4s_v5}"})
    tables = import_fixtures(tmp_path, "sized", files, yaml)
    claims = rep.contrast_claims(tables, factors=["vm_size"], rng=0)
    said = {r for col in ("runs_a", "runs_b") for x in claims[col].dropna() for r in x}
    assert said == set(tables.runs["run_id"])
    # the blog's 30 pings to 10.107.3.5: 'rtt min/avg/max/mdev = 1.449/1.465/1.509/0.051 ms'
    (far,) = claims[claims["groups_a"].map(lambda g: g == ["?→10.107.3.5"])].itertuples()
    assert far.value_a == 1465 and far.kind == "pair"


def _rules(sets: dict[str, str]) -> str:
    """A campaign.yaml of path rules: glob -> the YAML mapping it sets."""
    return "rules:\n" + "".join(f"  - glob: '{g}'\n    set: {v}\n" for g, v in sets.items())


# a dump filed by zone pair, one folder each: az1-az2/, az2-az1/, ...
AZ_FOLDERS = 'rules:\n  - path: "az{src_zone}-az{dst_zone}/{_}"\n'


def _answered(tmp_path, files: dict[str, str], question: str):
    """The campaign ``zp`` of ``files`` (fixture -> place) filed by :data:`AZ_FOLDERS`: its
    tables and the claims of page 90's answer to ``question``."""
    tables = import_fixtures(tmp_path, "zp", files, AZ_FOLDERS)
    return tables, rep.campaign_answer(tables, question, level=0.95, rng=0)[1]


def test_a_zone_matrix_of_medians_and_a_mean_says_which_is_which(tmp_path):
    """lagscope filed by zone pair (and mtr beside it): 1→2's run prints its average only
    (105.2 µs), 1→3's its percentiles (30 µs), 2→3's a histogram (40 µs). The zone answer
    said '3.51× ...; 1→3 30 µs, 2→3 40 µs, 1→2 105.2 µs' and 'the matrix gives every pair
    with its interval' (one has one); the key findings said 'mean rtt' of them all and
    nothing of the mtr traces.  Page 20 said '3.51× the fastest' of 1→2's mean against 1→3's
    median: the two medians are set side by side, the mean apart."""
    files = {
        "lagscope/lagscope--1.0.1-linux-n1000.txt": "az1-az2/lagscope.txt",
        "mtr/mtr--0.95-linux-r-c10-n-2hops.txt": "az1-az2/mtr.txt",
        "lagscope/lagscope--1.0.1-linux-n5000-P-percentiles.txt": "az1-az3/lagscope.txt",
        "lagscope/lagscope--1.0.1-linux-n2000-H-a40-l10-c12-histogram.txt": "az2-az3/lagscope.txt",
    }
    tables, claims = _answered(tmp_path, files, "Which zone pair is slowest?")
    (said,) = claims.loc[claims["section"] == "answer", "text"]
    assert "(lagscope, median (mean where only a mean printed) rtt; 1→3 30 µs, 2→3 40 µs, " \
        "1→2 105.2 µs (mean);" in said  # fmt: skip
    assert said.endswith("the matrix gives each pair's interval where it has one (1 of 3).")
    # 2→3's median lies in the -a40 histogram's first bin, below 40 µs: not told from 1→3's
    # printed 30 µs, where it was '1.33× the fastest' of the bin's top edge
    assert said.startswith(
        "**Of the 2 pairs with a median, the slowest, 2→3, is 1.33× the fastest, 1→3; but known "
        "only to bins (2→3's median lies in 0–40 µs): up to 1.33× 1→3, so not told apart; 1→2's "
        "figure is of another statistic, not set against them** "
    )
    medians = rep.zone_pair_medians(tables, level=0.95)
    md = rep.campaign_findings(
        rep.import_overview("zp", tmp_path), rep.headline(rep.latency_percentiles(tables)),
        medians, rep.asymmetry_table(tables, rng=0), rep.throughput_table(tables),
    )  # fmt: skip
    assert "- **Zone pairs** (lagscope, median (mean where only a mean printed) rtt):" in md
    assert "- **Not in the figures above:** 1 mtr run (traces: a round trip per hop)." in md
    page20 = rep.zone_matrix_claims(medians, rep.asymmetry_table(tables, rng=0), level=0.95,
                                    both_ways=rep.both_ways(medians))["text"]  # fmt: skip
    assert page20.iloc[0] == (
        "Median (mean where printed) rtt of lagscope over 3 zone pairs; of the 2 with a "
        "median, fastest 1→3 at 30 µs, slowest 2→3 at 40 µs (1.33× the fastest; but known only "
        "to bins (2→3's median lies in 0–40 µs): up to 1.33× 1→3, so not told apart); 1→2 at "
        "105.2 µs (mean): of another statistic, not set against them."
    )


def _page20(tables) -> pd.Series:
    """Page 20's sentences of a campaign's zone matrix, as its notebook asks for them."""
    medians = rep.zone_pair_medians(tables, level=0.95)
    asym = rep.asymmetry_table(tables, rng=0)
    return rep.zone_matrix_claims(medians, asym, level=0.95, both_ways=rep.both_ways(medians))[
        "text"
    ]


WIN = "ping/ping--win10-windows-"
WINDOWS_ZONES = {
    WIN + "en-6-ipv6-censored-transcribed.txt": "az1-az1/p.txt",
    WIN + "es-cp850-timeout-censored-transcribed.txt": "az1-az2/p.txt",
    WIN + "ja-cp932-timeout-censored-transcribed.txt": "az1-az3/p.txt",
    WIN + "zh-cp936-timeout-censored-transcribed.txt": "az2-az3/p.txt",
    WIN + "de-cp850-timeout-unreachable-transcribed.txt": "az3-az1/p.txt",
}


def test_zone_pairs_known_only_as_a_bound_answer_the_zone_question(tmp_path):
    """Windows pings filed by zone pair, most replies 'time<1ms': four pairs' medians fall
    among them (< 1000 µs), 3→1's is 1000 µs.  The answer said 'Nothing to say: fewer than
    two zone pairs have a latency run whose direction is known' (page 20 named the bounds);
    a Linux ping of 56 B filed under 2→1 left the matrix (32 B) without a word."""
    files = {**WINDOWS_ZONES, TWO_PINGS[0]: "az2-az1/p.txt"}
    tables, claims = _answered(tmp_path, files, "Which zone pair has the lowest latency?")
    (said,) = claims.loc[claims["section"] == "answer", "text"]
    assert said == (
        "**Only 3→1 has a median rtt of its own: 1000 µs** (ping; one run each, from its "
        "samples, none with an interval). 4 more pairs known only as a bound: 1→1 (< 1000 µs), "
        "1→2 (< 1000 µs), 1→3 (< 1000 µs) and 1 more; the fastest is among them. Not in the "
        "matrix, to hold all but the zones fixed: ping's 1 run of 56 B (2→1)."
    )
    assert _page20(tables).iloc[-1] == "Not in the matrix, to hold all but the zones fixed: " \
        "ping's 1 run of 56 B (2→1)."  # fmt: skip


def test_zone_pairs_of_other_tools_are_in_the_zone_answer(tmp_path):
    """fping at 1→2 and 2→1, hping3 -S at 1→3, paping at 2→3: 'which zone pair has the lowest
    latency?' was answered by fping's two pairs alone ('The slowest zone pair, 1→2, ...'),
    the matrix being of one tool, and the other two pairs were never named."""
    files = {
        "fping/fping--5.1-linux-c20-clean.txt": "az1-az2/f.txt",
        "fping/fping--5.1-linux-D-c10-loss.txt": "az2-az1/f.txt",
        "hping3/hping3--3.0.0a1-upstream-linux-veth-S-p443-c5-file.txt": "az1-az3/h.txt",
        "paping/paping--1.5.5-linux-veth-c20-nocolor-hostname.txt": "az2-az3/p.txt",
    }
    tables, claims = _answered(tmp_path, files, "Which zone pair has the lowest latency?")
    said = claims.loc[claims["section"] == "answer", "text"].tolist()
    assert said[0].startswith(
        "**By fping, the slowest zone pair, 1→2, is 1.11× the fastest, 2→1** (fping, median "
        "rtt; 2→1 41.5 µs, 1→2 46 µs;"
    )
    assert said[1:] == [
        "**hping3 measured one zone pair: 1→3 at 500 µs** (median rtt; one run, from its "
        "samples, none with an interval).",
        "**paping measured one zone pair: 2→3 at 195 µs** (median rtt; one run, from its "
        "samples, none with an interval).",
    ]
    assert _page20(tables).iloc[-1] == "Zone pairs other tools measured (a matrix is of one " \
        "tool): hping3's 1 run (1→3); paping's 1 run (2→3)."  # fmt: skip

    # a question naming two pairs is answered by them first: one tool's ratio, or why none
    def first(q):
        _, claims = rep.campaign_answer(tables, q, level=0.95, rng=0)
        return claims.loc[claims["section"] == "answer", "text"].iloc[0]

    assert first("Is zone 1 → zone 3 slower than zone 1 → zone 2?") == (
        "**1→3 against 1→2: not compared** (1→3 by hping3 (500 µs); 1→2 by fping (46 µs); no "
        "tool measured both; two tools' figures are not set side by side)."
    )
    assert first("Is az2->az1 slower than zone 1 to zone 2?") == (
        "**1→2 is 1.11× 2→1** (fping, 56 B; median round trip; 46 µs vs 41.5 µs; one run a "
        "side: no test across runs)."
    )
    assert first("Is zone 3 → zone 1 slower than zone 1 → zone 2?").endswith(
        "(1→2 by fping (46 µs); no latency run measured 3→1)."
    )
    # one pair named: by each tool that measured it, its figure and where it stands
    assert first("How slow is az2->az1?") == (
        "**By fping, 2→1 is 41.5 µs (no interval)**: the fastest of its 2 pairs with a figure "
        "(median round trip)."
    )
    assert first("How slow is zone 1 → zone 3?") == (
        "**By hping3, 1→3 is 500 µs (no interval)** (median round trip)."
    )
    # pairs no latency run measured: said, with the pairs the runs did measure (the answer
    # gave the matrices' fastest and slowest pairs as if asked which pair is slowest)
    assert first("Is zone 3 → zone 1 slower than zone 3 → zone 2?") == (
        "**3→1 against 3→2: not compared** (no latency run measured 3→1 or 3→2; the latency "
        "runs' zone pairs are 1→2, 1→3, 2→1, 2→3)."
    )
    assert first("How slow is zone 3 → zone 2?") == (
        "**3→2: no figure** (no latency run measured 3→2; the latency runs' zone pairs are 1→2, "
        "1→3, 2→1, 2→3)."
    )


def test_two_named_zone_pairs_are_one_against_the_other_as_the_truth_has_them(synth_loaded):
    """The tiny synthetic campaign puts 1→2 at 1.2× 2→1 (truth.json's asymmetry); asked 'Is
    zone 1 → zone 2 slower than zone 2 → zone 1?', the answer sets sockperf's runs of one
    against the other (the interval covers 1.2), and Windows ping's, whose medians fall
    among 'time<1ms' replies, gets no ratio."""
    raw, tables = synth_loaded
    truth = json.loads((raw / "truth.json").read_text())["effects"]["asymmetry"]["1-2"]
    q = "Is zone 1 → zone 2 slower than zone 2 → zone 1?"
    _, claims = rep.campaign_answer(tables, q, level=0.95, rng=0)
    answer = claims[claims["section"] == "answer"]
    sp = answer[answer["tool"].eq("sockperf") & answer["kind"].eq("ratio")].iloc[0]
    assert (sp["a"], sp["b"], sp["evidence"]) == ("1→2", "2→1", "tested across runs")
    assert sp["ci_low"] < truth["ratio_a_to_b_over_b_to_a"] < sp["ci_high"]
    assert sp["text"].startswith("**1→2 is 1.20× 2→1** (sockperf, 64 B, D4s_v5, AN on; median ")
    # the ratio is of the runs' geometric means; the figures shown, medians over the runs
    rtt = campaign_run_values(tables, "rtt_us", "p50")
    a, b = (np.array([rtt[r] for r in sp[k]]) for k in ("runs_a", "runs_b"))
    assert sp["estimate"] == pytest.approx(np.exp(np.log(a).mean() - np.log(b).mean()))
    assert (sp["value_a"], sp["value_b"]) == (np.median(a), np.median(b))
    said = "medians over the runs; the ratio is of their geometric means" in sp["text"]
    assert said == (f"{np.median(a) / np.median(b):.2f}" != f"{sp['estimate']:.2f}")

    # 1→1 holds runs with accelerated networking off (5× slower) and in a proximity placement
    # group (0.8×): its side is the matrix's runs, all but the zones held fixed (they were
    # pooled, 1→1's runs 20 against 1→2's 5), and what is left out is said
    paths = json.loads((raw / "truth.json").read_text())["effects"]["directed_path_rtt_us"]
    q = "Is zone 1 → zone 2 slower than zone 1 → zone 1?"
    _, claims = rep.campaign_answer(tables, q, level=0.95, rng=0)
    sp = claims[claims["tool"].eq("sockperf") & claims["kind"].eq("ratio")].iloc[0]
    cell = rep.zone_pair_medians(tables, tool="sockperf").iloc[0]  # 1→1
    assert (sp["b"], sp["n_runs_b"]) == ("1→1", cell["n_runs"])
    assert sp["ci_low"] < paths["1>2"] / paths["1>1"] < sp["ci_high"]
    assert sp["text"].startswith("**1→2 is 2.70× 1→1** (sockperf, 64 B, D4s_v5, AN on;")
    # a run is an execution, as the contrasts count it: r1's console summary beside its full
    # log is not a run of its own ('6 runs with accelerated networking off' of five)
    off = len(list((raw / "accelerated-networking").glob("vm-noan-a/*/sockperf-*.fulllog.csv")))
    assert sp["text"].endswith(
        "; not in it, to hold all but the zones fixed: 2 runs of 1400 B (1→1); 2 runs of half "
        f"round trips (1→1); {off} runs with accelerated networking off (1→1); 5 runs in a "
        "proximity placement group (1→1))."
    )
    assert off == 5
    # a pair named without a direction is both ways
    _, claims = rep.campaign_answer(tables, "How slow is it between zones 1 and 2?", rng=0)
    said = claims.loc[claims["tool"].eq("sockperf") & claims["section"].eq("answer"), "text"]
    assert [x.split(" (")[0] for x in said.iloc[:2]] == [
        "**By sockperf, 1→2 is 141.9 µs",
        "**By sockperf, 2→1 is 118.6 µs",
    ]
    # five runs give no 95% interval of their median: it says so, with their range (it said
    # '141.9 µs (no interval)')
    runs = tables.runs
    five = runs[runs["run_id"].isin(rtt) & runs["tool"].eq("sockperf") & runs["src_zone"].eq("1")
                & runs["dst_zone"].eq("2") & runs["msg_size_bytes"].eq(64)]  # fmt: skip
    medians = sorted(rtt[r] for r in five["run_id"])
    assert len(medians) == 5
    assert said.iloc[0].startswith(
        f"**By sockperf, 1→2 is 141.9 µs (5 runs, too few for a 95% interval; they range "
        f"{medians[0]:.4g}–{medians[-1]:.4g} µs)**"
    )

    # a factor the question asks about is held against each tool's ratio, first
    def first(q):
        return answer_texts(tables, q, level=0.95, rng=0)[0]

    asked = truth["ratio_a_to_b_over_b_to_a"]
    assert first(f"Is zone 1 → zone 2 {asked:g} times slower than zone 2 → zone 1?") == (
        f"**{asked:g} times slower? By sockperf, 1→2 is 1.20× 2→1, and {asked:g}× is within "
        "its 95% interval** (1.17 to 1.24)."
    )
    assert first("Is zone 1 → zone 2 twice as slow as zone 2 → zone 1?") == (
        "**Twice as slow? By sockperf, 1→2 is 1.20× 2→1, less than 2×** (95% CI 1.17 to 1.24)."
    )
    # 'twice as fast' of latency is half the time: it was held against 2×
    assert first("Is zone 1 → zone 2 twice as fast as zone 2 → zone 1?") == (
        "**Twice as fast? By sockperf, 1→2 is 1.20× 2→1, more than 0.5×** (95% CI 1.17 to 1.24)."
    )
    # one pair and a factor: which of the tool's other pairs it is that factor of
    said = answer_texts(tables, "Is zone 1 → zone 2 really 1.2 times slower, and how sure?", rng=0)
    assert [x for x in said if x.startswith("**1.2 times slower? By sockperf")] == [
        "**1.2 times slower? By sockperf, 1→2 is 1.2×, within the 95% interval, of 2→1 (1.20×, "
        "1.17 to 1.24)**; more than 1.2× 1→1 (2.70×, 2.63 to 2.78)."
    ]  # the truth: 1.2 and 141.6 / 52.0 = 2.72
    assert first("Is zone 2 → zone 1 1.2 times faster than zone 1 → zone 2?") == (
        "**1.2 times faster? By sockperf, 2→1 is 0.83× 1→2, and 0.833× is within its 95% "
        "interval** (0.81 to 0.85)."
    )
    ping = answer.loc[answer["tool"].eq("ping"), "text"].iloc[0]
    assert ping == "**1→2 against 2→1: no ratio** (ping; 1→2 < 1000 µs, 2→1 < 1000 µs: a " \
        "figure known only as a bound, or none)."  # fmt: skip


def test_the_placements_a_question_names_are_answered_first(synth_loaded):
    """'Is a proximity placement group faster than an availability set?' was answered by
    every placement contrast in turn, the one asked fifth or sixth; the truth puts an
    availability set at 0.92 and a PPG at 0.8 of the same zone's latency."""
    raw, tables = synth_loaded
    truth = json.loads((raw / "truth.json").read_text())["effects"]
    placed = truth["placement_ratio_vs_same_zone"]
    q = "Is a proximity placement group faster than an availability set?"
    assert named_placements(q) == ["proximity placement group", "availability set"]
    _, claims = rep.campaign_answer(tables, q, level=0.95, rng=0)
    first = claims[claims["section"].eq("answer")].iloc[0]
    assert (first["a"], first["b"]) == ("availability set", "proximity placement group")
    assert first["ci_low"] < placed["availability_set"] / placed["ppg"] < first["ci_high"]
    # a question naming none keeps the contrasts' own order
    _, plain = rep.campaign_answer(tables, "Which placement is fastest?", level=0.95, rng=0)
    assert plain.loc[plain["section"].eq("answer"), "a"].iloc[0] == "cross-zone"
    assert named_placements("latency across zones and across regions, within one zone") == [
        "cross-zone",
        "cross-region",
        "same zone",
    ]


def _bundled(name: str, tmp_path):
    """A bundled campaign imported under ``tmp_path`` and loaded as a page loads it."""
    import_campaign(ROOT / "data" / "raw" / name, root=tmp_path / "processed")
    return rep.load_campaigns(name, tmp_path)


def test_a_factor_asked_of_two_placements_is_held_against_their_contrast(synth_loaded):
    """'Is a proximity placement group twice as fast as an availability set?' got
    'availability set is 1.13× proximity placement group' and no word on twice; the truth
    puts a PPG at 0.8 and an availability set at 0.92 of the same zone's latency."""
    raw, tables = synth_loaded
    placed = json.loads((raw / "truth.json").read_text())["effects"]
    placed = placed["placement_ratio_vs_same_zone"]
    q = "Is a proximity placement group twice as fast as an availability set?"
    _, claims = rep.campaign_answer(tables, q, level=0.95, rng=0)
    first = claims[claims["section"].eq("answer")].iloc[0]
    assert (first["kind"], first["a"], first["b"]) == (
        "statement",
        "proximity placement group",
        "availability set",
    )
    assert first["ci_low"] < placed["ppg"] / placed["availability_set"] < first["ci_high"]
    assert first["text"].startswith("**Twice as fast? By sockperf, proximity placement group is ")
    assert ", more than 0.5×** (95% CI " in first["text"]  # twice as fast: half the time
    # a side of several groups is held pair by pair, each pair named
    _, claims = rep.campaign_answer(tables, "Is cross-zone more than twice same zone?", rng=0)
    held = claims[claims["kind"].eq("statement") & claims["section"].eq("answer")]
    assert len(held) == 2 and held["text"].str.contains(r"more than 2×\*\*").all()
    assert "cross-zone (1→2 · zone matrix, 2→1 · zone matrix) is " in held["text"].iloc[0]


def test_a_factor_asked_of_networking_or_of_two_sizes_is_held_against_it(synth_loaded):
    """'Is 1400 B twice as slow as 64 B?' was answered by placement, 'the factor most
    contrasts vary'; 'Does accelerated networking make latency twice as fast?' got the
    contrast and no word on twice.  The truth: AN off at 5× AN on; a round trip growing
    0.0085 µs a byte from 52 µs (1→1), a half round trip 26 µs at 64 B and 31.68 at 1400 B."""
    raw, tables = synth_loaded
    truth = json.loads((raw / "truth.json").read_text())["effects"]
    off = truth["accelerated_networking_off_ratio"]

    def held(q):
        _, claims = rep.campaign_answer(tables, q, level=0.95, rng=0)
        answer = claims[claims["section"].eq("answer")]
        return answer[answer["kind"].eq("statement")]

    fast = held("Does accelerated networking make latency twice as fast?")
    assert len(fast) == 2 and fast["a"].eq("accelerated networking on").all()
    assert ((fast["ci_low"] < 1 / off) & (1 / off < fast["ci_high"])).all()
    assert fast["text"].str.contains(r", less than 0\.5×\*\*").all()
    high = held("Is latency without accelerated networking five times higher?")
    assert high["a"].eq("accelerated networking off").all()
    assert high["text"].str.contains(r"and 5× is within its 95% interval\*\*").all()
    sizes = held("Is 1400 B twice as slow as 64 B?")
    assert sizes.iloc[0]["text"].startswith(
        "**Twice as slow? By sockperf, 1400 B messages is 1.24× 64 B messages, less than 2×**"
    )
    grown = (26 + 1336 * truth["msg_slope_us_per_byte"] / 2) / 26
    assert sizes.iloc[0]["ci_low"] < grown < sizes.iloc[0]["ci_high"]
    assert named_sizes("Is 1400 B slower than 64 bytes or 64 KiB, at 10 KB/s?") == [
        "1400 B messages",
        "64 B messages",
        "65536 B messages",
    ]
    assert named_networking("Is it slower with AN off, without accelerated networking?") == [
        "accelerated networking off",
        "accelerated networking on",
    ]


def test_what_a_question_names_is_what_its_answer_is_of(synth_loaded):
    """Four questions of the tiny synthetic campaign answered of something else: a throughput
    question naming pairs no throughput run measured (its runs measured 1→2 and 2→1) got '1→2
    carries 0.99× 2→1' first; 'symmetric between zones 1 and 2' got each way's figure alone;
    '64-byte' against '1400-byte' was answered by placement; 'the p99.9 ... across zones'
    by medians.  The truth: 1→2 at 1.2× 2→1."""
    raw, tables = synth_loaded
    truth = json.loads((raw / "truth.json").read_text())["effects"]

    def first(q):
        _, claims = rep.campaign_answer(tables, q, level=0.95, rng=0)
        return claims[claims["section"].eq("answer")].iloc[0]

    q = "Is throughput from zone 1 to zone 3 lower than from zone 1 to zone 2?"
    assert first(q)["text"] == (
        "**1→3 against 1→2: not compared** (no throughput run measured 1→3; the throughput "
        "runs' zone pairs are 1→2, 2→1)."
    )
    assert first("How much throughput does zone 1 to zone 3 get?")["text"].startswith(
        "**1→3: no figure** (no throughput run measured 1→3; "
    )
    both = first("Is latency symmetric between zones 1 and 2?")
    assert (both["a"], both["b"], both["tool"]) == ("1→2", "2→1", "sockperf")
    assert both["ci_low"] < truth["asymmetry"]["1-2"]["ratio_a_to_b_over_b_to_a"] < both["ci_high"]
    sizes = first("Is 64-byte latency lower than 1400-byte latency?")
    assert (sizes["factor"], sizes["a"], sizes["b"]) == (
        "msg_size_bytes",
        "1400 B messages",
        "64 B messages",
    )
    tail = first("What is the p99.9 latency across zones?")
    assert (tail["factor"], tail["stat"]) == ("placement", "p99.9")
    assert "; p99.9 round trip; " in tail["text"]


def test_a_bound_a_question_asks_is_held_against_each_figure(synth_loaded):
    """'Is latency from zone 1 to zone 2 above 100 µs?' got each tool's figure and no word on
    100 µs.  The truth puts 1→2's round trip at 141.6 µs (sockperf, latte's 4 B at ~154)."""
    raw, tables = synth_loaded
    truth = json.loads((raw / "truth.json").read_text())["effects"]["directed_path_rtt_us"]
    assert truth["1>2"] > 100
    said = answer_texts(tables, "Is latency from zone 1 to zone 2 above 100 µs?", rng=0)
    sockperf = [x for x in said if x.startswith("**Above 100 µs? By sockperf")]
    assert sockperf == [
        "**Above 100 µs? By sockperf, 1→2's median round trip is 141.9 µs (5 runs, too few for "
        "a 95% interval; they range 138.8–147.4 µs): above 100 µs by the figure alone (no "
        "interval)**."
    ]
    assert "**Above 100 µs? By latte, 1→2's median round trip is 154 µs (95% CI 152–154): " \
        "above 100 µs**." in said  # fmt: skip
    # ping's Windows replies are known only as '< 1000 µs'
    assert "**Above 100 µs? By ping, 1→2's median round trip is < 1000 µs: its bound cannot " \
        "tell it from 100 µs**." in said  # fmt: skip
    said = answer_texts(tables, "Is zone 2 to zone 1 under 1 ms?", rng=0)
    assert "**Under 1 ms? By ping, 2→1's median round trip is < 1000 µs: below 1000 µs**." in said
    assert asked_threshold("Is it below 150 microseconds?") == (
        150,
        "below",
        "below 150 microseconds",
    )
    assert asked_threshold("Is it under a millisecond?")[:2] == (1000, "below")
    assert asked_threshold("Is it at least 2.5 ms?")[:2] == (2500, "above")
    assert asked_threshold("Does 1→3 carry more than 5 Gbit/s?") is None


def test_a_question_of_loss_or_jitter_is_answered_by_it(synth_loaded):
    """'Is there packet loss between zone 1 and zone 2?' was answered by each tool's median
    round trip.  The tiny campaign loses no probe; its qperf tcp_bw prints 'send_msgs =
    109,416', 'recv_msgs = 109,395' (messages in flight when it stopped, not lost), which
    page 20's loss matrix had as '0.0192 % lost'."""
    _, tables = synth_loaded
    said = answer_texts(tables, "Is there packet loss between zone 1 and zone 2?", rng=0)
    lost = [x for x in said if " lost " in x]
    assert lost[:3] == [
        "**By echo_csv, 2→1 lost 0 % of 1785 probes** (total lost / total sent over 2 runs "
        "(samples)).",
        "**By ping, 1→2 lost 0 % of 30 probes** (total lost / total sent over 1 run (counts)).",
        "**By ping, 2→1 lost 0 % of 30 probes** (total lost / total sent over 1 run (counts)).",
    ]
    assert not [x for x in said if x.startswith("**By qperf")]  # TCP messages lose nothing
    assert not [x for x in said if "median round trip" in x]
    said = answer_texts(tables, "Is packet loss from zone 1 to zone 3 higher than 1→2?", rng=0)
    assert said[0] == (
        "**1→3: no figure of probe loss** (no run with zones known measured it; the pairs "
        "with one are 1→1, 1→2, 2→1)."
    )
    said = answer_texts(tables, "What is the jitter from zone 1 to zone 2?", rng=0)
    assert said[0] == "**1→2: no figure of jitter** (no run with zones known measured it)."
    assert asked_other_stat("Does latency drop from zone 1 to zone 3?") is None
    assert asked_other_stat("Any dropped packets from 1→2?") == "loss"


def test_two_tools_a_question_names_are_set_against_each_other(synth_loaded):
    """'Is ping slower than sockperf?' was answered by placement, 'the factor most contrasts
    vary'.  It is a question of tools: page 40's ratio on the pairs of VMs both measured,
    the same figures page 40 states ('from 5.84 to 6.39 over 2 pairs')."""
    _, tables = synth_loaded
    assert named_tools("Is ping slower than sockperf, by TCP ping-pong?") == ["ping", "sockperf"]
    assert _named("How stable is TCP ping-pong latency?") == ["stability"]
    md, claims = rep.campaign_answer(tables, "Is ping slower than sockperf?", rng=0)
    assert "**Answer, by tool (campaign.yaml's `compare:` does not say; the question " in md
    first = claims[claims["section"].eq("answer")].iloc[0]
    assert (first["factor"], first["a"], first["b"]) == ("tool", "ping", "sockperf")
    assert first["text"].startswith(
        "**ping at 56 B against sockperf at 64 B: ping is 5.84× to 6.39× sockperf** (ratio of "
        "p50, as round trips (ICMP, paced: not TCP ping-pong); 2 pairs of VMs both measured: "
    )
    page40 = rep.cross_tool_claims(rep.cross_tool(tables))["text"]
    assert page40.str.contains("ratio of p50 from 5.84 to 6.39 over 2 pairs").any()
    said = answer_texts(tables, "Do qperf and sockperf agree?", rng=0)
    assert said[0].startswith("**qperf at 1 B against sockperf at 64 B: qperf is 1.03× sockperf "
                              "on each of 2 pairs** (ratio of mean, ")  # fmt: skip
    said = answer_texts(tables, "Is iperf3 faster than hping3?", rng=0)
    assert said[0] == (
        "**iperf3 against hping3: not compared** (no pair of VMs was measured by both; iperf3 "
        "ran, on no pair of VMs page 40 sets beside another tool; no hping3 run)."
    )


def test_a_throughput_question_of_a_factor_is_answered_by_throughput_first(synth_loaded, tmp_path):
    """'Is throughput across zones lower than within a zone?' was answered by latency
    contrasts of placement, the tiny synthetic campaign's throughput runs being all
    cross-zone, without a word on throughput; of seed 001 every latency contrast came before
    the throughput ones, and a factor ('half that') is held against the throughput
    contrasts alone (its notes: iperf3 7.91 Gbit/s 3→1 against 11.83 Gbit/s within zone 1)."""
    _, tables = synth_loaded
    q = "Is throughput across zones lower than within a zone?"
    said = answer_texts(tables, q, rng=0)
    assert said[0] == (
        "**By throughput: no two runs differ in placement alone** (the throughput runs' "
        "placement: cross-zone); the contrasts below are of latency."
    )
    seed1 = _bundled("seed001-aks-azure-cni", tmp_path)
    _, claims = rep.campaign_answer(seed1, q, level=0.95, rng=0)
    assert claims.loc[claims["section"].eq("answer"), "basis"].iloc[0] == "throughput"
    q = "Is throughput across zones half that within one zone?"
    _, claims = rep.campaign_answer(seed1, q, level=0.95, rng=0)
    held = claims[claims["section"].eq("answer") & claims["kind"].eq("statement")]
    assert set(held["tool"]) == {"iperf3", "ntttcp", "qperf"}  # no latency tool's
    assert held["text"].iloc[1] == (
        "**Half? By iperf3, cross-zone (3→1 · Azure CNI (AZ1 - AZ3)) is 0.67× same zone (1→1 · "
        "Azure CNI (AZ1 - AZ1)): no interval to hold 0.5× against** (samples, one run a side)."
    )


def test_a_bound_asked_of_a_placement_is_held_against_its_figures(tmp_path):
    """Seed 002 (latte): 'Is latte's latency with a PPG under 50 µs?' got the placement
    contrasts and no word on 50 µs; the post published 54–57 µs for the PPG (AN on), 55–61
    µs within one zone and 308.55 µs there with AN off."""
    tables = _bundled("seed002-ppg-latte", tmp_path)
    said = answer_texts(tables, "Is latte's latency with a PPG under 50 µs?", rng=0)
    assert said[0] == (
        "**Under 50 µs? By latte, proximity placement group's mean round trip (D4s_v3 same zone "
        "with accelerated networking and PPG) is 54–57 µs: above 50 µs** (latte, D4s_v3, AN "
        "on; a published range)."
    )
    said = answer_texts(tables, "Is latency within one zone under 100 µs?", rng=0)
    assert said[:2] == [
        "**Under 100 µs? By latte, same zone's mean round trip (D4s_v3 same zone with "
        "accelerated networking) is 55–61.09 µs: below 100 µs** (latte, D4s_v3, AN on; a "
        "published range).",
        "**Under 100 µs? By latte, same zone's mean round trip (D4s_v3 same zone) is 308.6 µs: "
        "above 100 µs** (latte, D4s_v3, AN off; by the figure alone, no interval).",
    ]


def test_loss_asked_of_a_factor_and_a_break_asked_of_are_answered(synth_loaded, tmp_path):
    """'Is there packet loss across zones?' got the placement contrasts of latency; seed 004's
    'When did the connections break?' was answered by placement (the post's three TCP
    connections broke; its echo CSVs count no probes lost, only latencies)."""
    _, tables = synth_loaded
    said = answer_texts(tables, "Is there packet loss across zones?", rng=0)
    assert said[:2] == [
        # 2 runs: the echo client's console summarises the CSV's probes and is counted once,
        # as page 20 counts it (it was '1786 probes (3 runs)')
        "**By echo_csv, probes lost: cross-zone 0 % of 1785 probes (2 runs)** (total lost / "
        "total sent; no test).",
        "**By ping, probes lost: cross-zone 0 % of 100 probes (4 runs)** (total lost / total "
        "sent; no test).",
    ]
    seed4 = _bundled("seed004-echo-uksouth", tmp_path)
    said = answer_texts(seed4, "Is there packet loss across regions?", rng=0)
    assert said[0] == (
        "**No figure of probe loss by placement** (no run whose placement is known counts the "
        "probes it sent and lost); the contrasts below are of latency."
    )
    md, _ = rep.campaign_answer(seed4, "When did the connections break?", rng=0)
    assert "**Answer, by stability (campaign.yaml's `compare:` does not say; the question" in md
    said = answer_texts(seed4, "When did the connections break?", rng=0)
    assert said[0].startswith("**Every one of the 3 connections broke** (Same AZ at 2025-03-20 ")


def test_a_contrast_of_another_statistic_than_asked_says_so(synth_loaded):
    """'Is 1→2 slower than 2→1 at the p99?' got latte's '1→2 is 1.19× 2→1 (...; mean round
    trip; ...)' first, the mean unexplained beside the p99 asked."""
    _, tables = synth_loaded
    said = answer_texts(tables, "Is 1→2 slower than 2→1 at the p99?", rng=0)
    assert said[0].startswith("**1→2 is 1.19× 2→1** (latte, 4 B, D4s_v3, AN on; mean round trip;")
    assert said[0].endswith(
        "; the p99 was asked; this contrast of latte's runs is of their means)."
    )


def test_one_pair_is_given_by_the_tools_with_an_interval_first(synth_loaded):
    """'How slow is zone 2 → zone 1?' opened with echo_csv's 746.9 µs of two runs (no
    interval), the tools in name order; latte's 129 µs (95% CI 128–129) came second."""
    _, tables = synth_loaded
    said = answer_texts(tables, "How slow is zone 2 → zone 1?", rng=0)
    assert said[0].startswith("**By latte, 2→1 is 129 µs (95% CI 128–129)**")
    assert said[1].startswith("**By echo_csv, 2→1 is 746.9 µs (2 runs, too few for a 95% ")


def test_a_throughput_bound_is_held_against_the_named_pairs_figure(synth_loaded):
    """'Does zone 1 → zone 2 carry more than 5 Gbit/s?' got every pair's throughput and no
    word on 5 Gbit/s; the truth puts 1→2 at 11.8 Gbit/s."""
    raw, tables = synth_loaded
    truth = json.loads((raw / "truth.json").read_text())["effects"]["throughput_gbps"]
    assert truth["1-2"] > 5
    said = answer_texts(tables, "Does zone 1 → zone 2 carry more than 5 Gbit/s?", rng=0)
    held = [x for x in said if x.startswith("**More than 5 Gbit/s? By throughput, 1→2 carries ")]
    assert len(held) >= 2 and all(": above 5 Gbit/s** (" in x for x in held)
    assert said[: len(held)] == held  # first
    assert held[0].endswith("; 1→2: one run, no interval).")
    assert asked_rate("Is it under 800 Mbit/s?") == (800e6, "below", "under 800 Mbit/s")
    assert asked_rate("Is it under 800 µs?") is None


def test_the_vm_sizes_a_question_names_are_its_factor_and_answered_first(tmp_path):
    # seed 002 (latte): 'Is a D4s_v3 faster than a D2s_v3?' was answered by placement, the
    # factor most of its contrasts vary; the write-up's table has D4s_v3 at 1840 µs and
    # D2s_v3 at 1546 µs across zones with AN off
    import_campaign(ROOT / "data" / "raw" / "seed002-ppg-latte", root=tmp_path / "processed")
    tables = rep.load_campaigns("seed002-ppg-latte", tmp_path)
    md, claims = rep.campaign_answer(tables, "Is a D2s_v3 faster than a B1s?", rng=0)
    assert "**Answer, by VM size (campaign.yaml's `compare:` does not say; the question " in md
    first = claims[claims["section"].eq("answer")].iloc[0]
    assert (first["kind"], first["a"], first["b"]) == ("not_compared", "D2s_v3", "B1s")
    _, claims = rep.campaign_answer(tables, "Is a Standard_D4s_v3 faster than a D2s_v3?", rng=0)
    first = claims[claims["section"].eq("answer")].iloc[0]
    assert (first["a"], first["b"]) == ("D4s_v3", "D2s_v3")
    assert first["estimate"] == pytest.approx(1840 / 1546, rel=1e-3)
    assert named_vm_sizes("Does a Standard_DS14_v2 beat an E8s_v5 at p99?") == ["DS14_v2", "E8s_v5"]
    assert _named("Is the P99 of a D4s_v3 higher?") == []  # one size; a percentile is none


def test_the_statistic_a_question_names_sets_the_pairs_against_each_other(synth_loaded):
    """'Is the p90 from zone 1 to zone 2 higher than from zone 2 to zone 1?' was answered by
    the medians. The synthetic model scales every percentile of a condition alike, so the
    p90s stand as the truth's 1.2 too; a p99 its runs of 77 probes cannot give is said so."""
    raw, tables = synth_loaded
    truth = json.loads((raw / "truth.json").read_text())["effects"]["asymmetry"]["1-2"]
    q = "Is the p90 from zone 1 to zone 2 higher than from zone 2 to zone 1?"
    _, claims = rep.campaign_answer(tables, q, level=0.95, rng=0)
    answer = claims[claims["section"].eq("answer") & claims["kind"].eq("ratio")]
    sp = answer[answer["tool"].eq("sockperf")].iloc[0]
    assert (sp["stat"], sp["a"], sp["b"]) == ("p90", "1→2", "2→1")
    assert sp["ci_low"] < truth["ratio_a_to_b_over_b_to_a"] < sp["ci_high"]
    assert "; p90 round trip; " in sp["text"]
    said = answer_texts(tables, q.replace("p90", "p99"), rng=0)
    assert "**1→2 against 2→1: no ratio** (sockperf; 1→2 no value (5 of 5 runs cannot give p99 " \
        "(too short or censored)), 2→1 no value (5 of 5 runs " in " ".join(said)  # fmt: skip
    median = rep.campaign_answer(tables, q.replace("the p90", "the latency"), rng=0)[1]
    asked = median["section"].eq("answer") & median["kind"].eq("ratio")
    assert median.loc[asked & median["tool"].eq("sockperf"), "stat"].tolist() == ["p50"]


def test_the_contrasts_one_question_asks_are_one_family(synth_loaded):
    """'between zones 1 and 2 against between zones 1 and 1' asks two contrasts, 1→2 against
    1→1 and 2→1 against 1→1; each was adjusted (Holm) over its own tools alone, two families
    of one test each where the question makes one of two."""
    _, tables = synth_loaded
    q = "Is latency between zones 1 and 2 higher than between zones 1 and 1?"
    _, claims = rep.campaign_answer(tables, q, level=0.95, rng=0)
    tested = claims[claims["section"].eq("answer") & claims["evidence"].eq("tested across runs")]
    assert [(a, b) for a, b in zip(tested["a"], tested["b"])] == [("1→2", "1→1"), ("2→1", "1→1")]
    holm = stats.adjust_pvalues(tested["p_value"].to_numpy(dtype=float), "holm")
    assert tested["p_adj"].tolist() == pytest.approx(list(holm))
    assert tested["p_adj"].min() == pytest.approx(2 * tested["p_value"].min())


def test_figures_that_do_not_divide_to_the_ratio_say_why():
    # synthetic-westeurope's 1→3 against 1→2 (6 vs 6 sockperf runs): 1428 / 142.2 is 10.04
    claim = {
        "kind": "ratio", "a": "1→3", "b": "1→2", "estimate": 9.91, "ci_low": 9.64,
        "ci_high": 10.2, "level": 0.95, "direction": "a>b", "context": "sockperf, 64 B",
        "stat": "p50", "basis": "rtt", "evidence": "tested across runs", "n_runs_a": 6,
        "n_runs_b": 6, "p_adj": 8.9e-19, "value_a": 1428.0, "value_b": 142.2,
    }  # fmt: skip
    assert render(claim) == (
        "**1→3 is 9.91× 1→2** (sockperf, 64 B; median round trip; 1428 µs vs 142.2 µs, "
        "medians over the runs; the ratio is of their geometric means; 95% CI of the ratio "
        "9.64 to 10.20; tested across runs, 6 vs 6 runs, adjusted p = 8.9e-19)."
    )
    # where they divide to it, or the ratio is of the two figures, nothing more is said
    for other in ({"estimate": 10.04}, {"evidence": "printed values", "p_adj": None}):
        assert "geometric" not in render({**claim, **other})


def test_a_throughput_of_message_sizes_is_said_in_plain_possessive():
    # the fixtures as one campaign: '131072 B messages's throughput is 1.01× 1470 B messages's'
    claim = {
        "kind": "ratio", "a": "131072 B messages", "b": "1470 B messages", "estimate": 1.01,
        "direction": "a>b", "context": "iperf2, udp", "stat": "mean", "basis": "throughput",
        "evidence": "printed values", "n_runs_a": 1, "n_runs_b": 1,
    }  # fmt: skip
    assert render(claim).startswith(
        "**131072 B messages' throughput is 1.01× 1470 B messages'** (iperf2, udp; mean throughput;"
    )


def test_folders_no_rule_reads_are_named_in_the_caveats(tmp_path):
    # a dump filed as same-zone/ and cross-zone/ without a campaign.yaml: its groups were
    # named by their far ends and the page said nothing of the folders
    files = dict(zip(TWO_PINGS, ("same-zone/ping.txt", "cross-zone/ping.txt"), strict=True))
    tables = import_fixtures(tmp_path, "ny", files)

    def careful(tables, name, root):
        md = rep.campaign_findings(
            rep.import_overview(name, root), rep.headline(rep.latency_percentiles(tables)),
            rep.zone_pair_medians(tables), rep.asymmetry_table(tables, rng=0),
            rep.throughput_table(tables), runs=tables.runs,
        )  # fmt: skip
        return next(x for x in md.splitlines() if x.startswith("- **Careful:**"))

    assert "the runs sit in 2 folders (`cross-zone/`, `same-zone/`) that no campaign.yaml " \
        "rule reads" in careful(tables, "ny", tmp_path)  # fmt: skip
    yaml = 'rules:\n  - glob: "same-zone/*"\n    set: {placement: same_zone}\n'
    labelled = import_fixtures(tmp_path / "y", "ny", files, yaml)
    assert "folders" not in careful(labelled, "ny", tmp_path / "y")


AN_FILES = {
    "sockperf/sockperf--3.7-linux-udp-pingpong.txt": "an-on/sp1.txt",
    "sockperf/sockperf--3.7-linux-udp-m64-fullrtt-pingpong.txt": "an-on/sp2.txt",
    "sockperf/sockperf--3.7-linux-udp-mps20-short.txt": "an-off/sp1.txt",
    "sockperf/sockperf--3.7-linux-udp-pingpong-truncated.txt": "an-off/sp2.txt",
    "qperf/qperf--0.4.11-linux-plain-tcp-udp.txt": "an-on/qp.txt",
    "qperf/qperf--0.4.11-linux-v-tcp-udp.txt": "an-off/qp.txt",
}
AN_YAML = _rules({"an-on/*": "{accelerated_networking: true}",
                  "an-off/*": "{accelerated_networking: false}"})  # fmt: skip


@pytest.fixture(scope="module")
def by_an(tmp_path_factory):
    return import_fixtures(tmp_path_factory.mktemp("an"), "an", AN_FILES, AN_YAML)


def test_a_printed_median_of_one_of_a_sides_runs_says_so(by_an):
    # AN off's two sockperf runs: one printed a median (33.78 µs), the other, cut short, a
    # mean only. The contrast said '33.78 µs vs 6.419 µs; printed values, 2 vs 1 runs' as if
    # the median were both runs'
    c = rep.contrast_claims(by_an, factors=["accelerated_networking"], level=0.95, rng=0)
    sp = c[c["tool"].eq("sockperf") & c["kind"].eq("ratio")].iloc[0]
    assert (sp["value_a"], sp["value_b"]) == (33.78, 6.419)
    assert sp["text"].endswith(
        "printed values, 2 vs 1 runs: no test; `an-off/sp2.txt` printed no median: not in its "
        "side's figure)."
    )


def test_a_side_of_several_printed_medians_is_their_median(tmp_path):
    # a third AN-off ping-pong (--mps 2000, median 7.991 µs): the side was shown by its first
    # run's 33.78 µs, '3 vs 1 runs' beside it. An under-load run (a reply to every 100th
    # message: 2,501 sent, 26 received, none dropped; median 8.297 µs) was its third run
    # before: it is another measure, not compared
    files = {
        **AN_FILES,
        "sockperf/sockperf--3.7-linux-udp-mps2000-fulllog-console.txt": "an-off/sp3.txt",
        "sockperf/sockperf--3.7-linux-udp-mps5000-underload.txt": "an-off/sp4.txt",
    }
    t = import_fixtures(tmp_path, "an", files, AN_YAML)
    c = rep.contrast_claims(t, factors=["accelerated_networking"], level=0.95, rng=0)
    sp = c[c["tool"].eq("sockperf") & c["kind"].eq("ratio")].iloc[0]
    assert sp["value_a"] == pytest.approx((33.78 + 7.991) / 2) and sp["value_b"] == 6.419
    assert "printed values, 3 vs 1 runs: no test; a side of several runs: the median of their " \
        "medians; `an-off/sp2.txt` printed no median" in sp["text"]  # fmt: skip
    apart = c.loc[c["tool"].eq("sockperf") & c["kind"].eq("not_compared"), "text"]
    assert any(
        "`sp4.txt` differs" in x and "measure under load vs a message at a time" in x for x in apart
    )


def test_a_run_left_out_is_named_by_its_folder_where_two_files_share_its_name(tmp_path):
    # an-on/sp2.txt (a 64 B ping-pong, full rtt) and an-off/sp2.txt (under load): each is
    # the one run of its side no contrast takes, and both were named '`sp2.txt` differs'
    files = {
        "sockperf/sockperf--3.7-linux-udp-pingpong.txt": "an-on/sp1.txt",
        "sockperf/sockperf--3.7-linux-udp-m64-fullrtt-pingpong.txt": "an-on/sp2.txt",
        "sockperf/sockperf--3.7-linux-udp-mps20-short.txt": "an-off/sp1.txt",
        "sockperf/sockperf--3.7-linux-udp-mps5000-underload.txt": "an-off/sp2.txt",
    }
    t = import_fixtures(tmp_path, "an", files, AN_YAML)
    c = rep.contrast_claims(t, factors=["accelerated_networking"], level=0.95, rng=0)
    apart = c.loc[c["kind"].eq("not_compared"), "text"].tolist()
    assert len(apart) == 2
    assert "`an-on/sp2.txt` differs from every accelerated networking off run" in apart[0]
    assert "(basis rtt vs half_rtt; measure a message at a time vs under load)" in apart[0]
    assert "`an-off/sp2.txt` differs from every accelerated networking on run" in apart[1]
    assert not any("`sp2.txt`" in x for x in apart)


def test_page_22_names_the_factor_a_folder_sets(by_an):
    # qperf's runs filed under an-on/ and an-off/: page 22 called them 'qp.txt:5' and
    # 'qp.txt:15', where page 10 says 'AN on' and 'AN off'
    tp = rep.throughput_table(by_an)
    assert sorted(tp["label"]) == [
        "AN off · qperf · qp.txt:1", "AN off · qperf · qp.txt:15",
        "AN on · qperf · qp.txt:1", "AN on · qperf · qp.txt:5",
    ]  # fmt: skip


def test_page_40_says_which_group_it_could_not_compare(by_an):
    # the same sentence twice, 'qperf, sockperf: not compared; nothing says they measured
    # one pair of VMs', once for each of AN on and AN off
    why = rep.cross_tool(by_an).attrs["left_out"]
    said = [w for w in why if "nothing says they measured one pair" in w]
    assert [w.split(":")[0] for w in said] == [
        "**qperf, sockperf** (AN off)", "**qperf, sockperf** (AN on)"
    ]  # fmt: skip


def test_a_message_size_question_is_answered_by_the_sizes_in_order(tmp_path):
    # qperf -oo 'msg_size:1:64K:*4' tcp_lat, and tcp_bw with udp_lat: 'How does latency grow
    # with message size?' was fifteen ratios against 1 B messages, and never said that
    # tcp_lat fell from 46.9 µs at 16 B to 13.8 µs at 64 B
    files = {
        "qperf/qperf--0.4.11-linux-oo-vu-sweep-tcp_lat.txt": "sweep.txt",
        "qperf/qperf--0.4.11-linux-oo-sweep-sizes-from-command.txt": "sweep2.txt",
    }
    t = import_fixtures(tmp_path, "ms", files)
    _, claims = rep.campaign_answer(t, "How does latency grow with message size?", rng=0)
    said = claims.loc[claims["kind"].eq("statement"), "text"].tolist()
    assert said[0] == (
        "**By message size (qperf, tcp; mean half round trip): from 13.8 µs at 64 B to 81.7 µs "
        "at 16384 B, not rising steadily with size** (1 B 19.6 µs, 4 B 39.6 µs, 16 B 46.9 µs, "
        "64 B 13.8 µs, 256 B 13.9 µs, 1024 B 14 µs, 4096 B 57.5 µs, 16384 B 81.7 µs, 65536 B "
        "22.9 µs; printed values, one run a size: no test)"
    )
    # udp_lat at 64 KiB printed '0 ns' (nothing sent): named, not left out unsaid
    assert said[1].endswith("; 65536 B not compared (below))")
    assert "from 5.032 Mbit/s at 1 B to 16.56 Gbit/s at 65536 B, rising with size" in said[2]


@pytest.mark.parametrize("told", [False, True])
def test_a_size_trend_no_contrast_tells_apart_says_it_is_of_the_figures(told):
    # synthetic-westeurope's sockperf sweep, two runs a size: 'from 25.47 µs at 14 B to
    # 32.09 µs at 1400 B, rising with size' above three contrasts that each said 'not told
    # apart' (95% CI of 1400 B against 14 B: 0.99 to 1.60)
    from azlatency.report._answer import size_claims

    values = {64: 26.08, 350: 27.25, 1400: 32.09}
    claims = pd.DataFrame(
        {
            "kind": "ratio", "factor": "msg_size_bytes", "context": "sockperf, same zone",
            "basis": "half_rtt", "stat": "p50", "tool": "sockperf",
            "a": [f"{k} B messages" for k in values], "b": "14 B messages",
            "value_a": list(values.values()), "value_b": 25.47, "evidence": "tested across runs",
            "direction": ["none", "none", "a>b" if told else "none"], "n_runs_a": 2, "n_runs_b": 2,
        }
    )  # fmt: skip
    (text,) = size_claims(claims)["text"]
    assert text.startswith(
        "**By message size (sockperf, same zone; median half round trip): from 25.47 µs at 14 "
        "B to 32.09 µs at 1400 B, rising with size**"
    )
    clause = "; none is told apart from its partner at this level: the trend is of the figures"
    assert (clause in text) is not told


def test_netperfs_transaction_rate_alone_is_said_for_what_it_is(tmp_path):
    # a classic TCP_RR table prints a transaction rate (24,491.26 a second) and no latency:
    # the key findings said '1 netperf run (no latency or throughput figure these pages
    # read)', then '(transaction rates: a latency only where netperf prints one)'; its mean
    # round trip is netperf's own RT_LATENCY, 10⁶ / rate × (1 + first burst 0) = 40.83 µs
    files = {
        "netperf/netperf--2.7.0-pkb-linux-TCP_RR-r64x1024-classic.txt": "np.txt",
        TWO_PINGS[0]: "ping.txt",
    }
    tables = import_fixtures(tmp_path, "np", files)
    md = rep.campaign_findings(
        rep.import_overview("np", tmp_path), rep.headline(rep.latency_percentiles(tables)),
        rep.zone_pair_medians(tables), rep.asymmetry_table(tables, rng=0),
        rep.throughput_table(tables),
    )  # fmt: skip
    assert "- **Latency (rtt), netperf mean:** 40.83 µs (*64 B*) (printed by the tool" in md
    assert "Not in the figures above" not in md
