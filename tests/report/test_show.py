"""Showing a figure on a page: the inline image is the saved PNG's pixels, reduced."""

from __future__ import annotations

import io

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest
from PIL import Image
from scipy.stats import binomtest

import azlatency
from azlatency import plots
from azlatency import report as rep
from azlatency.campaign import import_campaign
from azlatency.report import _compare, _pages, _show, _summary
from tests.conftest import FIXTURES, ROOT


def _campaign(root, name: str, files: dict[str, str], yaml: str | None = None):
    """Fixtures (path under tests/fixtures -> name in the campaign) imported as campaign
    ``name`` under ``root``; its tables."""
    raw = root / "raw" / name
    raw.mkdir(parents=True)
    for src, to in files.items():
        (raw / to).parent.mkdir(parents=True, exist_ok=True)
        (raw / to).write_bytes((FIXTURES / src).read_bytes())
    if yaml is not None:
        (raw / "campaign.yaml").write_text(yaml)
    import_campaign(raw, root=root / "processed", workers=1)
    return rep.load_campaigns(name, root)


WINDOWS = "ping/ping--win10-windows-{}-transcribed.txt"


def test_the_inline_image_is_the_png_reduced_to_the_figure_dpi():
    rng = np.random.default_rng(3)
    big = Image.fromarray(rng.integers(0, 256, size=(90, 120, 3), dtype=np.uint8))
    shown = _show._inline(big, 3.0)
    with Image.open(io.BytesIO(shown.data)) as im:
        assert (im.mode, im.size) == ("RGB", (40, 30))
        assert np.array_equal(np.asarray(im), np.asarray(big.reduce(3)))
    opaque = Image.fromarray(np.full((9, 12, 4), 200, np.uint8)).convert("RGBA")
    opaque.putalpha(255)
    with Image.open(io.BytesIO(_show._inline(opaque, 3.0).data)) as im:
        assert im.mode == "RGB"  # opaque: no alpha on the page


@pytest.fixture(scope="module")
def seed002(tmp_path_factory):
    root = tmp_path_factory.mktemp("seed002")
    import_campaign(ROOT / "data" / "raw" / "seed002-ppg-latte", root=root / "processed", workers=1)
    return rep.headline(rep.latency_percentiles(rep.load_campaigns("seed002-ppg-latte", root)))


def test_a_published_range_is_shown_as_the_range_not_its_high_end(seed002):
    """Seed 002's write-up gives two of its groups only as ranges ('55 to 61.09 usecs', 'the
    3 tests are a bit lower at 54 to 57 usec': README.md, blog-comparison.reported.csv).
    Pages 10 and 90 called the second '57 µs (printed by the tool, no interval)', the
    fastest group: a value the author never gave, and a fastest the ranges do not tell."""
    ppg = seed002[seed002["label"].str.contains("and PPG")].iloc[0]
    assert (ppg["estimate"], ppg["bound_low"], ppg["bound_high"]) == (57.0, 54.0, 57.0)
    assert _show.fmt_value(ppg) == "54–57 µs"
    assert _show.fmt_interval(ppg) == "54–57 µs (a published range, no interval)"
    said = rep.see_latency(seed002)
    assert (
        "fastest: D4s_v3 same zone with accelerated networking and PPG · latte (54–57 µs), " in said
    )
    assert "37.4× to 39.5× apart" in said  # 2131 µs over 57, and over 54
    assert said.endswith(
        "Which is fastest is not known: 54–57 µs and D4s_v3 same zone with accelerated "
        "networking · latte's 55–61.09 µs overlap."
    )
    lines = _summary._latency_lines(seed002)
    assert lines == [
        "- **Latency (rtt), latte mean:** from 54–57 µs (*D4s_v3 same zone with accelerated "
        "networking and PPG*) to 2131 µs (*B1s cross-zone*), 9 groups (printed by the tool, "
        "no intervals)."
    ]


def test_values_without_a_range_read_as_before(seed002):
    point = seed002[seed002["label"] == "D2s_v3 cross-zone · latte"].iloc[0]
    assert _show.fmt_value(point) == "1546 µs"
    assert _show.fmt_interval(point) == "1546 µs (printed by the tool, no interval)"


def test_a_latency_chart_spanning_two_tools_says_so():
    # synthetic-westeurope's round trips: ping's 3→1 (ICMP, 56 B) against sockperf's PPG
    # (UDP, 64 B) read '50.7× apart' as if one measure
    part = pd.DataFrame({
        "label": ["zone matrix · zone 3→1 · 56 B · ping", "placement · zone 1→1 · ppg · sockperf"],
        "tool": ["ping", "sockperf"], "estimate": [2070.0, 40.83], "ci_low": [None, 40.32],
        "ci_high": [None, 41.42], "source": ["samples", "samples"],
    })  # fmt: skip
    said = rep.see_latency(part)
    assert "50.7× apart (two tools: ping and sockperf); 1 of 2 with an interval." in said
    one = part.assign(tool="sockperf")
    assert "50.7× apart; 1 of 2" in rep.see_latency(one)


def test_a_value_without_an_interval_says_why():
    # rows of synthetic-westeurope's headline table (page 10 said '(no interval)' of each)
    runs = {"estimate": 25.47, "ci_low": None, "ci_high": None, "level": 0.95,
            "source": "samples", "n_runs": 2, "n": 4000, "range_low": 24.88,
            "range_high": 26.06, "note": "a 95% interval of the median across runs needs ≥ 6 "
            "runs; the range across the 2 runs is given; 2 runs; the run is the unit"}  # fmt: skip
    assert _show.fmt_interval(runs) == (
        "25.47 µs (2 runs, too few for a 95% interval; they range 24.88–26.06 µs)"
    )
    ping = {"estimate": 700.0, "ci_low": None, "ci_high": None, "level": 0.95,
            "source": "samples", "n_runs": 1, "n": 100, "note": "n_eff ≈ n/τ = 51 (100 points, "
            "autocorrelation time τ≈1.94): 5 batches of 20 fit, an interval needs ≥ 20 (n ≥ "
            "400); autocorrelated (Ljung-Box on ranks, p=5.6e-06, lag-1 r=0.53)"}  # fmt: skip
    assert _show.fmt_interval(ping) == (
        "700 µs (100 autocorrelated samples, too few for a 95% interval)"
    )
    # any other reason: as before
    assert _show.fmt_interval({**ping, "note": "1 run"}) == "700 µs (no interval)"


def test_a_throughput_chart_says_why_its_bars_lack_whiskers(tmp_path):
    """Seed 001: ntttcp and qperf print one number a run, iperf3's 10 one-second intervals are
    too few to rule out their correlation. The chart's title said whiskers are missing only
    'for one printed number'; the caption now counts both reasons."""
    import_campaign(
        ROOT / "data" / "raw" / "seed001-aks-azure-cni", root=tmp_path / "processed", workers=1
    )
    tp = rep.throughput_table(rep.load_campaigns("seed001-aks-azure-cni", tmp_path))
    said = rep.see_throughput(tp)
    assert said.endswith(
        " 2 of 15 with an interval; without: 10 printed, 3 from rates that cannot give one "
        "(page 22's `note` says why)."
    )
    bare = tp[tp["ci_low"].isna() & tp["source"].ne("reported")]
    assert set(bare["tool"]) == {"iperf3"} and bare["note"].str.contains("too short").all()


@pytest.fixture(scope="module")
def windows_tables(tmp_path_factory):
    """Two real Windows ping captures as one campaign: 10.0.0.4 (2, 1 and <1 ms: median
    1 ms) and ::1 (four replies of time<1ms: a median known only as below 1000 µs)."""
    files = {
        WINDOWS.format(n): WINDOWS.format(n).split("/")[1]
        for n in ("en-6-ipv6-censored", "en-t-ctrl-c")
    }
    return _campaign(tmp_path_factory.mktemp("winping"), "win-ping", files)


@pytest.fixture(scope="module")
def windows_ping(windows_tables):
    return rep.headline(rep.latency_percentiles(windows_tables))


def test_a_group_known_only_as_a_bound_is_said_not_dropped(windows_ping):
    """Every latency sentence dropped a group without a value: synthetic-westeurope's page
    10 said 'ping median, rtt: from 700 µs … 9 groups' beside two Windows ping groups whose
    medians are known only as '< 1000 µs', and page 90 left them off its chart."""
    bound = windows_ping[windows_ping["label"] == "ping (to ::1)"].iloc[0]
    assert np.isnan(bound["estimate"]) and (bound["bound_low"], bound["bound_high"]) == (0, 1000)
    assert _show.fmt_bound(bound) == "< 1000 µs"
    tail = "1 more group known only as a bound: {}ping (to ::1){} (< 1000 µs); it is the {}."
    assert rep.see_latency(windows_ping) == (
        "One group with a value: ping (to 10.0.0.4) (1000 µs); 0 of 1 with an interval. "
        + tail.format("", "", "fastest")
    )
    (said,) = rep.distribution_claims(windows_ping, level=0.95)["text"]
    assert said.endswith(
        "0 printed by the tool; printed in whole milliseconds, truncated: each figure lies "
        "within 1 ms above it. " + tail.format("*", "*", "lowest")
    )
    assert _summary._latency_lines(windows_ping) == [
        "- **Latency (rtt), ping p50:** 1000 µs (no interval) (*ping (to 10.0.0.4)*). "
        + tail.format("*", "*", "lowest")
    ]
    with plots.style("report"):
        fig = rep.latency_figure(windows_ping, "rtt")
    drawn = [a.get_gid() for a in fig.axes[0].get_children() if hasattr(a, "get_gid")]
    plt.close(fig)
    assert "bound" in drawn  # the caret at 1000 µs, as page 10 drew it and page 90 did not


def test_page_11_names_the_groups_with_no_tail_figure(windows_tables):
    """Page 11 said nothing of a group whose median is known only as a bound: its ratios were
    NaN and left out of 'the heaviest tail' and 'p99/p50 ranges', and its exceedance row was
    dropped (synthetic-westeurope: the heaviest tail named over 19 of 30 groups, p99/p50
    over 28)."""
    tables = windows_tables
    pct = rep.latency_percentiles(tables, quantiles=rep.SPECTRUM)
    ratios = rep.tail_ratios(tables, pct, rng=0)
    exceed = rep.exceedance(tables, pct, multiples=[2.0])
    censored = exceed[exceed["label"] == "ping (to ::1)"].iloc[0]
    assert censored["note"] == (
        "no median to take multiples of (p50 falls among censored values (< 1000))"
    )
    assert rep.tail_claims(ratios, exceed, level=0.95)["text"].tolist() == [
        "No group has a p99.9/p50 (2 groups: the table's `note` says why).",
        "No group has a p99/p50 (2 groups: the table's `note` says why).",
        "P(latency > 2× median) is 0.00% in *ping (to 10.0.0.4)* (no interval: the table's "
        "`note` says why), the only group with one. 1 more group has none (the table's `note` "
        "says why).",
    ]
    kept = ratios.assign(estimate=[1.5, 2.5, np.nan, np.nan], ci_low=np.nan, ci_high=np.nan)
    said = rep.tail_claims(kept, exceed, level=0.95)["text"].tolist()
    assert said[0].startswith("The heaviest tail of the 1 group with a p99.9/p50 is ")
    assert said[0].endswith(" 1 more group has none (the table's `note` says why).")


def test_a_throughput_run_with_no_printed_total_keeps_its_computed_figure(tmp_path):
    """iperf 2's third test in this server log has two streams and no [SUM] line: the parser
    sums their totals (2.27 + 2.49 Gbit/s: 4.76) under a warning, but page 22's table took
    only the tool's own totals, so the run had no figure and every sentence left it out. A
    log cut after its first interval (iperf3 -J through 'head -c 2000') likewise."""
    files = (
        "iperf2/iperf2--2.1.8-linux-s-i1-three-tests-tcp.txt",
        "iperf3/iperf3--3.12-linux-J-head-c2000-tcp-truncated.json",
    )
    tables = _campaign(tmp_path, "tp", {f: f.split("/")[1] for f in files})
    tp = rep.throughput_table(tables).set_index("line_start")
    two = tp[tp["tool"].eq("iperf2")]
    # the first test's 3 interval rates averaged (4.02, 2.56, 2.27), the second's total
    assert two["estimate"].tolist() == pytest.approx([2.95e9, 2.63e9, 4.76e9])
    assert two["source"].tolist() == ["samples", "reported", "computed"]
    assert np.isnan(two.loc[15, "reported_bps"])
    assert two.loc[15, "note"].startswith("no total printed: computed from the run's lines")
    cut = tp[tp["tool"].eq("iperf3")].iloc[0]
    assert (cut["estimate"], cut["source"]) == (pytest.approx(100_655_040.68), "computed")
    said = rep.see_throughput(tp.reset_index())
    assert said.endswith(
        " 0 of 4 with an interval; without: 1 printed, 2 computed from a log with no total, 1 "
        "from rates that cannot give one (page 22's `note` says why). 1 place holds several "
        "runs of one series: a bar a run, side by side."
    )
    assert said.startswith(  # the server log's three tests, told apart by their lines
        "Highest: ?→10.77.40.2 · iperf2 · iperf2--2.1.8-linux-s-i1-three-tests-tcp.txt:15 "
        "(4.76 Gbit/s)"
    )


def test_page_40_counts_the_pairs_a_tool_has_no_ratio_on():
    """synthetic-westeurope's page 40 said 'ping ... from 1.45 to 14.3 over 6 pairs' of the 7
    it shares with another tool: the Windows pair, whose mean is not estimable (replies of
    time<1ms), was left out without a word."""
    agree = pd.DataFrame(
        {
            "tool": ["ping", "sockperf", "ping", "latte", "ping"],
            "label": ["p1", "s1", "p2", "l2", "p3"],
            "reference": ["s1", "s1", "s1", "l2", "l2"],
            "ratio_to_reference": [1.45, np.nan, 14.3, np.nan, np.nan],
            "ratio_of": ["p50", None, "p50", None, "mean"],
        }
    )
    (said,) = rep.cross_tool_claims(agree)["text"]
    assert said == (
        "**ping** against the reference tool of each pair (latte, sockperf): ratio of p50 from 1.45 to 14.3 over "
        "2 pairs (ICMP, paced: not TCP ping-pong). 1 more pair with no value (the table's "
        "`note` says why)."
    )
    (said,) = rep.cross_tool_claims(agree[agree["label"].isin(["l2", "p3"])])["text"]
    assert said == (
        "**ping** against latte, the reference tool of its pair (ratio of mean): 1 pair with no value "
        "(the table's `note` says why)."
    )


def _globs(name: str, rules: dict[str, str]) -> str:
    """campaign.yaml of ``name`` whose rules set labels by glob ({glob: 'key: value, ...'})."""
    return f"name: {name}\nrules:\n" + "".join(
        f'  - glob: "{glob}"\n    set: {{{labels}}}\n' for glob, labels in rules.items()
    )


CAMPAIGN_WINDOWS = _globs("win-tools", {"*": "src_zone: 1, dst_zone: 2, scenario: windows"})


def test_page_40_bounds_a_pair_known_only_as_a_bound(tmp_path):
    """Two Windows ping runs whose replies are mostly time<1ms (4 of 4; 2 of 3) beside latte
    on one pair of VMs: page 40 said the ping pair 'has none', though each run's median is
    below 1000 µs and its mean bounded. Known truth: the median across runs below 1000 µs;
    the run means in [0, 1000] and [1000/3, 1000], so their mean in [500/3, 1000] µs, over
    latte's printed mean of 2026.4 µs."""
    files = {
        WINDOWS.format("en-6-ipv6-censored"): "ping-a.txt",
        WINDOWS.format("es-cp850-timeout-censored"): "ping-b.txt",
        "latte/latte--unknown-windows-csv-console-reconstructed.txt": "latte.txt",
    }
    agree = rep.cross_tool(_campaign(tmp_path, "win-tools", files, CAMPAIGN_WINDOWS))
    ping = agree[agree["tool"] == "ping"].iloc[0]
    assert (ping["stat"], ping["bound_low"], ping["bound_high"]) == ("p50", 0.0, 1000.0)
    assert ping["ratio_of"] == "mean" and np.isnan(ping["ratio_to_reference"])
    assert (ping["ratio_bound_low"], ping["ratio_bound_high"]) == pytest.approx(
        (500 / 3 / 2026.4, 1000 / 2026.4)
    )
    assert ping["caption"].startswith("windows · 32 B · ping: p50 < 1000 µs (round trip); ")
    assert ", 2 runs; " in ping["caption"]
    assert rep.cross_tool_claims(agree)["text"].tolist() == [
        "**ping** at 32 B against latte at 4 B, the reference tool of its pair (ratio of mean): 1 pair "
        "known only as a bound: *windows · zones 1–2* (0.0822–0.493)."
    ]


CAMPAIGN_ZONES = _globs(
    "win-zones",
    {
        "z1-z1.txt": "src_zone: 1, dst_zone: 1, scenario: zones",
        "z1-z2.txt": "src_zone: 1, dst_zone: 2, scenario: zones",
    },
)


def test_a_zone_cell_known_only_as_a_bound_is_not_left_out_of_the_fastest(tmp_path):
    """The two Windows captures as a zone matrix: 1→1 all time<1ms (a median below 1000 µs),
    1→2 at 1 ms. Page 20 said 'fastest 1→2 at 1000 µs, slowest 1→2 at 1000 µs (1× the
    fastest)' and '1 of 2 pairs have no median (too few packets a run, or the tool did not
    print it)'; the campaign page said the same fastest."""
    files = {
        WINDOWS.format("en-6-ipv6-censored"): "z1-z1.txt",
        WINDOWS.format("en-t-ctrl-c"): "z1-z2.txt",
    }
    tables = _campaign(tmp_path, "win-zones", files, CAMPAIGN_ZONES)
    medians = rep.zone_pair_medians(tables)
    cells = rep.matrix_frame(medians, medians.iloc[0:0]).set_index(["src_zone", "dst_zone"])
    assert cells.loc[("1", "1"), "caption"].startswith("1→1: p50 < 1000 µs; unit: batch, 1 run")
    assert rep.zone_matrix_claims(medians, medians.iloc[0:0], level=0.95, both_ways=0)[
        "text"
    ].tolist()[:3] == [
        "Median rtt of ping over 1 zone pair: 1→2 at 1000 µs.",
        "0 of 2 cells have a 95% interval (`note` says why the others have none).",
        "1 more pair known only as a bound: 1→1 (< 1000 µs); it is the fastest.",
    ]
    # one pair tested both ways: '1 pairs were measured' was on the before/after pages
    tested = pd.DataFrame(
        [{"src_zone": "1", "dst_zone": "2", "estimate": 1.2, "p_adj": 1e-5, "asymmetric": True}]
    )
    said = rep.zone_matrix_claims(medians[1:], tested, level=0.95, both_ways=1)["text"]
    assert said.tolist()[1:] == [
        "0 of 1 cell has a 95% interval (`note` says why the others have none).",
        "1 pair was measured both ways; asymmetric at adjusted p < 0.05: 1↔2 (ratio 1.2, "
        "adjusted p = 1e-05).",
    ]
    overview = rep.import_overview(["win-zones"], tmp_path)
    head = rep.headline(rep.latency_percentiles(tables))
    empty = pd.DataFrame(columns=["mirrored", "series", "estimate"])
    said = rep.campaign_findings(overview, head, medians, empty, empty)
    assert (
        "- **Zone pairs** (ping, p50 rtt): 1→2 1000 µs, the one pair with a value. 1 more pair "
        "known only as a bound: 1→1 (< 1000 µs); it is the fastest.\n"
    ) in said


def test_page_11_gives_the_largest_exceedance_with_its_interval():
    """Page 11 said 'P(latency > 2× median) is at most 1.00% over the 28 groups' of a point
    estimate without an interval, while a ping group of 100 replies, none over 2× its median,
    has an interval reaching 10%: 'at most' was no bound. The sentence now gives the largest
    estimate with its interval and names the group whose interval reaches higher."""

    def row(label, k, n):
        ci = binomtest(k, n).proportion_ci(0.95, method="exact")
        return {"label": label, "multiple": 2.0, "estimate": k / n}, (ci.low, ci.high)

    rows = []
    for label, k, n in (("sockperf", 20, 2000), ("ping", 0, 30), ("latte", 5, 2000)):
        r, (lo, hi) = row(label, k, n)
        rows.append({**r, "ci_low": lo, "ci_high": hi, "note": None})
    rows.append({"label": "ping (win)", "multiple": 2.0, "estimate": np.nan, "note": "no median"})
    exceed = pd.DataFrame(rows)
    ratios = pd.DataFrame(columns=["label", "stat", "estimate", "ci_low", "ci_high", "note"])
    text = rep.tail_claims(ratios, exceed, level=0.95)["text"].tolist()[-1]
    assert text == (
        "P(latency > 2× median) is largest of the 3 groups with one in *sockperf*: 1.00% "
        "(95% CI 0.61%–1.54%). The interval reaching highest is *ping*'s: 0.00% (95% CI "
        "0.00%–11.57%). 1 more group has none (the table's `note` says why)."
    )
    exceed.loc[1, ["ci_low", "ci_high"]] = np.nan  # too few, say, for an honest interval
    text = rep.tail_claims(ratios, exceed, level=0.95)["text"].tolist()[-1]
    assert "reaching highest" not in text
    assert " 1 of the 3 has no interval (the table's `note` says why)." in text


def test_a_throughput_caption_of_two_like_figures_says_they_are_alike(tmp_path):
    """Seed 000's two iperf3 runs average their ten interval rates (3.87, 3.81 ×6 or ×7,
    3.82, 3.80 Gbit/s) to one figure each; the caption named one the highest and the other
    the lowest, each '(3.816 Gbit/s)'."""
    import_campaign(ROOT / "data" / "raw" / "seed000-az-vs-as", root=tmp_path / "processed")
    tp = rep.throughput_table(rep.load_campaigns("seed000-az-vs-as", tmp_path))
    assert tp["estimate"].tolist() == pytest.approx([3.816e9, 3.816e9])
    assert rep.see_throughput(tp) == (
        "Highest and lowest alike: availability zones · iperf3 and availability set · iperf3, "
        "each 3.816 Gbit/s."
    )
    near = tp.assign(estimate=[3.816e9, 3.8161e9])  # alike only as shown
    assert rep.see_throughput(near).startswith(
        "Highest and lowest alike: availability zones · iperf3 and availability set · iperf3, "
        "each 3.816 Gbit/s at the digits shown (0.0026 % apart)."
    )


def test_repeated_throughput_runs_of_one_place_are_told_apart(tmp_path):
    """Runs of one tool at one place were all named alike ('1→1 · iperf3' for the seed 003
    baseline's 36 runs): page 22 named its lowest and highest run alike, its claims kept one
    of them (a dict keyed by label) and its chart drew every run on one bar. Three real
    iperf3 -J captures placed in one zone pair (a -R capture is not: its data went 2→1)."""
    names = ("J-tcp", "J-O1-tcp-omit", "J-P4-tcp-parallel-dupkeys")
    files = {f"iperf3/iperf3--3.12-linux-{n}.json": f"az1-az2/{n}.json" for n in names}
    yaml = 'rules:\n  - path: "az{src_zone}-az{dst_zone}/{_}"\n'
    tp = rep.throughput_table(_campaign(tmp_path, "rep", files, yaml))
    assert tp["where"].tolist() == ["1→2"] * 3
    assert sorted(tp["run"]) == sorted(f"{n}.json" for n in names)
    assert tp["label"].is_unique
    said = rep.throughput_claims(tp)["text"].iloc[0]
    lo, hi = tp.loc[tp["estimate"].idxmin()], tp.loc[tp["estimate"].idxmax()]
    assert f"({lo['where']} · {lo['run']})" in said and f"({hi['where']} · {hi['run']})" in said
    assert rep.see_throughput(tp).endswith(
        " 1 place holds several runs of one series: a bar a run, side by side."
    )
    fig, ax = plt.subplots()
    plots.throughput_bars(tp, x="where", y="estimate", hue="series", ax=ax)
    bars = [p for p in ax.patches if p.get_height() > 0]
    plt.close(fig)
    assert len({round(b.get_x(), 6) for b in bars}) == 3  # side by side, not on one another
    assert sorted(round(b.get_height() * 1e9) for b in bars) == sorted(
        round(v) for v in tp["estimate"]
    )


def test_claims_keyed_by_name_keep_every_row_and_say_so(monkeypatch):
    """A claims dict built by a comprehension kept one of page 22's 36 runs named alike;
    ``rep.keyed`` keeps each and says so on the page."""
    said = []
    monkeypatch.setattr(_show, "say", said.append)
    rows = [("1→1 · iperf3", 10.66e9), ("1→2 · iperf3", 9.1e9), ("1→1 · iperf3", 11.42e9)]
    assert rep.keyed(rows) == {
        "1→1 · iperf3": 10.66e9,
        "1→2 · iperf3": 9.1e9,
        "1→1 · iperf3 (2)": 11.42e9,
    }
    assert said == [
        f"**{_show.REPEATED}:** *1→1 · iperf3* (2 rows). Their values are kept as *name*, "
        "*name (2)*, …; a sentence that names one may stand for any of them."
    ]
    said.clear()
    assert rep.keyed(rows[:2]) == dict(rows[:2]) and said == []


TWO_PAIRS = {
    "*": "src_zone: 1, dst_zone: 2, scenario: cross",
    "a-*": "src_host: vm-a1, dst_host: vm-a2",
    "b-*": "src_host: vm-b2, dst_host: vm-b1",
}


def test_page_40_sets_a_tool_against_the_reference_of_its_own_pair_of_vms(tmp_path):
    """One scenario and zone pair, two pairs of VMs: sockperf between vm-a1 and vm-a2 and
    between vm-b2 and vm-b1, ping beside the first, and a ping that names no hosts. Page 40
    took the zone pair for one pair of VMs and set ping against sockperf's two pairs pooled
    (the synthetic before/after campaigns: both ways of an asymmetric path). Known truth:
    ping's median 44 µs (its ten replies) over sockperf's printed median 9.642 µs, doubled."""
    files = {
        "sockperf/sockperf--3.10-linux-tcp-m64-mps200-histogram-console.txt": "a-sockperf.txt",
        "ping/ping--busybox-1.35.0-linux-c15-gap-partial-loss.txt": "a-ping.txt",
        "sockperf/sockperf--3.10-linux-tcp-m64-mps2000-histogram-outliers-console.txt": (
            "b-sockperf.txt"
        ),
        "ping/ping--busybox-1.35.0-linux-6-c3-ipv6.txt": "c-ping.txt",
    }
    agree = rep.cross_tool(_campaign(tmp_path, "two-pairs", files, _globs("two-pairs", TWO_PAIRS)))
    assert agree["pair"].unique().tolist() == ["cross · zones 1–2 · vm-a1 ↔ vm-a2"]
    ping = agree[agree["tool"] == "ping"].iloc[0]
    assert ping["ratio_to_reference"] == pytest.approx(44.0 / (2 * 9.642))
    assert rep.cross_tool_claims(agree)["text"].tolist() == [
        "**ping** against sockperf, the reference tool of its pair: ratio of p50 2.28 on its one pair "
        "(ICMP, paced: not TCP ping-pong).",
        "**sockperf**: 1 of its 2 pairs of VMs had no other tool beside it, so it is not set "
        "against one.",
        "**ping** (cross · zones 1–2): not compared; 1 run names no hosts where the logs name 2 "
        "pairs of VMs, so nothing says which pair it measured.",
    ]
    # an iperf3 run to a third VM is no second pair of the latency tools: qperf, which names
    # no hosts, is still set against sockperf
    files = {
        "sockperf/sockperf--3.10-linux-tcp-m64-mps200-histogram-console.txt": "a-sockperf.txt",
        "qperf/qperf--0.4.11-linux-uu-tcp.txt": "qperf.txt",
        "iperf3/iperf3--3.12-linux-J-O1-tcp-omit.json": "b-iperf3.json",
    }
    yaml = _globs("one-pair", TWO_PAIRS)
    agree = rep.cross_tool(_campaign(tmp_path, "one-pair", files, yaml))
    assert sorted(agree["tool"]) == ["qperf", "sockperf"] and not agree.attrs["left_out"]
    assert agree["pair"].unique().tolist() == ["cross · zones 1–2"]
    # a ping between two other VMs, its zones unknown, is not put in the sockperf pair's
    # zones (the scenario's one known zone pair is that of other hosts)
    yaml = _globs(
        "other-vms",
        {
            "*": "scenario: cross, placement: cross_zone",
            "a-*": "src_zone: 1, dst_zone: 2, src_host: vm-a1, dst_host: vm-a2",
            "c-*": "src_host: vm-x, dst_host: vm-y",
        },
    )
    files = {
        "sockperf/sockperf--3.10-linux-tcp-m64-mps200-histogram-console.txt": "a-sockperf.txt",
        "ping/ping--busybox-1.35.0-linux-c15-gap-partial-loss.txt": "c-ping.txt",
    }
    tables = _campaign(tmp_path, "other-vms", files, yaml)
    zones = _compare.named_zone_pairs(tables.runs).set_index("tool")["zone_pair"]
    assert zones["sockperf"] == "1-2" and pd.isna(zones["ping"])  # page 21's contrasts too
    agree = rep.cross_tool(tables)
    assert agree.empty and agree.attrs["alone"] == ["ping", "sockperf"]


def test_a_loss_matrix_of_one_pair_and_its_counts_agree():
    """Page 20 for a loss matrix said 'over 1 zone pairs: lowest 1→2 at 0 %, highest 1→2 at
    0 %' and '1 of 2 pairs have no loss'."""
    cells = pd.DataFrame(
        {
            "src_zone": ["1", "2"],
            "dst_zone": ["2", "1"],
            "tool": "fping",
            "basis": "rtt",
            "stat": "loss",
            "estimate": [2.5, np.nan],
            "note": [None, "no counts"],
        }
    )
    said = rep.zone_matrix_claims(cells, cells.iloc[0:0], level=0.95, both_ways=0)["text"]
    assert said.tolist()[:2] == [
        "Probe loss of fping over 1 zone pair: 1→2 at 2.5 %.",
        "1 of 2 pairs has no loss (`note` says why).",
    ]


def test_a_forest_of_one_ratio_says_one():
    """Page 21's figure caption said '1 ratios (slower / faster)'."""
    forest = pd.DataFrame({"direction": ["a>b"], "interval": ["confidence interval"]})
    assert _pages.see_forest(forest) == (
        "1 ratio (slower / faster): 1 with a direction the evidence supports."
    )


def test_a_chart_of_many_groups_draws_their_ends_or_those_with_a_value():
    """Over 60 groups a latency chart draws the 30 fastest and 30 slowest; where at most 60
    have a value (the rest printed 0 µs, or nothing), those, and the title says which."""
    many = pd.DataFrame({"label": [f"g{i:02d}" for i in range(80)], "estimate": range(80)})
    drawn, said = _pages._ends(many)
    assert sorted(drawn["label"]) == [f"g{i:02d}" for i in (*range(30), *range(50, 80))]
    assert said == "\nthe 30 fastest and 30 slowest of 80 groups; the table gives every one"
    few = many.assign(estimate=[float("nan")] * 75 + [1.0, 2.0, 3.0, 4.0, 5.0])
    drawn, said = _pages._ends(few)
    assert (
        len(drawn) == 5 and said == "\nthe 5 of 80 groups with a value; the table gives every one"
    )


def test_a_matrix_of_one_cell_says_one_pair():
    # a folder of four tools on one pair (1→2): 'Slowest pair 1→2 (9.651 µs), fastest 1→2
    # (9.651 µs)'
    cells = pd.DataFrame(
        {"src_zone": ["1"], "dst_zone": ["2"], "estimate": [9.651], "stat": ["p50"],
         "asymmetric": [False]}
    )  # fmt: skip
    assert rep.see_matrix(cells) == "One pair: 1→2 (9.651 µs)."
    loss = cells.assign(estimate=[2.5], stat=["loss"])
    assert rep.see_matrix(loss) == "One pair: 1→2 (2.5 %)."
    two = pd.concat([cells, cells.assign(src_zone=["2"], dst_zone=["1"], estimate=[12.0])])
    assert rep.see_matrix(two) == "Slowest pair 2→1 (12 µs), fastest 1→2 (9.651 µs)."
    # both cells of an asymmetric pair are marked: the pair is said once (synthetic-westeurope's
    # caption read 'asymmetric: 1↔2, 2↔1')
    two["asymmetric"] = True
    assert rep.see_matrix(two) == (
        "Slowest pair 2→1 (12 µs), fastest 1→2 (9.651 µs); asymmetric: 1↔2."
    )


def test_a_range_of_tail_ratios_names_its_ends():
    # 'p99/p50 ranges from 1.62 to 2.33 across 2 groups' said of which groups?
    ratios = pd.DataFrame(
        {"label": ["64 B · sockperf", "60 B · irtt", "56 B · ping"],
         "stat": ["p99/p50"] * 3, "estimate": [1.62, 2.33, 1.9], "note": [""] * 3}
    )  # fmt: skip
    exceed = pd.DataFrame(columns=["label", "multiple", "estimate", "ci_low", "ci_high", "note"])
    texts = rep.tail_claims(ratios, exceed, level=0.95)["text"].tolist()
    assert texts[0] == (
        "p99/p50 ranges from 1.62 (*64 B · sockperf*) to 2.33 (*60 B · irtt*) across 3 groups."
    )


def test_an_interval_printed_at_another_level_is_counted_apart():
    # sockperf 3.8 prints '99.0% ci=[1889.246, 1895.954]' beside its mean: page 10 said
    # '1893 µs (99% CI 1889–1896) ...; 1 of 1 with a 95% interval'
    t = azlatency.read(
        FIXTURES / "sockperf" / "sockperf--3.8-tcp-pp-full-rtt-markdown-bold--sockperf-issue172.txt"
    )
    (text,) = rep.distribution_claims(rep.headline(rep.latency_percentiles(t)), level=0.95)["text"]
    assert text == (
        "**sockperf mean, rtt:** 1893 µs (99% CI 1889–1896) (*sockperf*); 0 of 1 with a 95% "
        "interval (1 with the tool's printed 99%), 1 printed by the tool."
    )


def test_a_zone_cell_with_a_printed_99_percent_interval_is_counted_apart(tmp_path):
    files = {
        "sockperf/sockperf--3.8-tcp-pp-full-rtt-markdown-bold--sockperf-issue172.txt": "1-2/a.txt"
    }
    yaml = 'rules:\n  - path: "{src_zone}-{dst_zone}/{_}"\n'
    medians = rep.zone_pair_medians(_campaign(tmp_path, "z99", files, yaml))
    said = rep.zone_matrix_claims(medians, medians.iloc[0:0], level=0.95, both_ways=0)["text"]
    assert said.iloc[1] == "0 of 1 cell has a 95% interval (1 with the tool's printed 99%)."
