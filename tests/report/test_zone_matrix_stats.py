"""The zone matrix takes any statistic (issue 40): a percentile, the mean, probe loss pooled
over a pair's runs, and jitter with its definition, never two definitions in one matrix.

Real captures: fping's lossy runs and iperf 2/iperf3 UDP tests in a campaign folder whose
``campaign.yaml`` says which zone each end is in; seed 001's printed sockperf percentiles.
"""

from __future__ import annotations

import re

import pandas as pd
import pytest

from azlatency import report as rep
from azlatency.campaign import import_campaign
from azlatency.report import _summary
from azlatency.report._answer import _zone_evidence, zone_claims
from tests.conftest import ROOT, SYNTH
from tests.report._fixture_campaign import BY_PATH, FX, import_fixtures

FPING_C20 = "fping/fping--5.1-linux-C20-loss-multi.txt"
FPING_S = "fping/fping--5.1-linux-s-c10-loss.txt"
FILES = {
    FPING_C20: "fping/c20.txt",
    FPING_S: "fping/s-c10.txt",
    "iperf2/iperf2--2.1.8-linux-c-i1-u-udp.txt": "iperf/a-iperf2-client.txt",
    "iperf2/iperf2--2.2.1-linux-s-i1-e-u-udp.txt": "iperf/b-iperf2-server.txt",
    "iperf3/iperf3--3.12-linux-u-udp.txt": "iperf/a-iperf3.txt",
    "twping/twping--5.2.3-linux-c100-clean.txt": "twping/c100.txt",
}
# fping ran in zone 1 towards a zone-2 host (10.77.0.1) and a dead zone-3 one (10.77.0.9);
# the UDP tests ran on loopback, so the rules say their zones.
CAMPAIGN = """\
defaults:
  region: testregion
hosts:
  target: {ip: 10.77.0.1, zone: 2}
  dead: {ip: 10.77.0.9, zone: 3}
rules:
  - glob: "fping/*"
    set: {src_zone: "1"}
  - glob: "iperf/a*"
    set: {src_zone: "1", dst_zone: "2"}
  - glob: "iperf/b*"
    set: {src_zone: "2", dst_zone: "1"}
  - glob: "twping/*"
    set: {src_zone: "2", dst_zone: "1"}
"""


@pytest.fixture(scope="module")
def tables(tmp_path_factory):
    return import_fixtures(tmp_path_factory.mktemp("matrix"), "matrix-stats", FILES, CAMPAIGN)


def _cell(m, src, dst):
    rows = m[(m["src_zone"] == src) & (m["dst_zone"] == dst)]
    assert len(rows) == 1, rows
    return rows.iloc[0]


def _probes(fixture: str, ip: str) -> tuple[int, int]:
    """(sent, lost) to ``ip`` counted by hand off fping's per-probe lines."""
    lines = [x for x in (FX / fixture).read_text().splitlines() if x.startswith(f"{ip} : [")]
    return len(lines), sum("timed out" in x for x in lines)


def test_loss_pools_the_pairs_runs_as_lost_over_sent(tables):
    m = rep.zone_pair_medians(tables, stat="loss", tool="fping")
    assert set(m["stat"]) == {"loss"} and set(m["unit"]) == {"%"}
    sent_a, lost_a = _probes(FPING_C20, "10.77.0.1")
    sent_b, lost_b = _probes(FPING_S, "10.77.0.1")
    assert (sent_a, lost_a, sent_b, lost_b) == (20, 6, 10, 1)  # fping printed 30% and 10%
    cell = _cell(m, "1", "2")
    assert cell["estimate"] == pytest.approx(100 * 7 / 30)  # 23.33 %, not (30 + 10) / 2
    assert (cell["n"], cell["n_runs"], cell["range_low"], cell["range_high"]) == (30, 2, 10, 30)
    dead = _cell(m, "1", "3")  # the unreachable host: every probe lost, size never printed
    assert (dead["estimate"], dead["n"]) == (100.0, 30)
    assert rep.matrix_style(m, "loss") == {"label": "loss [%]", "log_color": False, "vmin": 0.0}
    said = rep.zone_matrix_claims(m, m.iloc[0:0], level=0.95, both_ways=0)["text"].tolist()
    assert said == [
        "Probe loss of fping over 2 zone pairs: lowest 1→2 at 23.3 %, highest 1→3 at 100 %.",
        "No direction test: A→B against B→A compares latencies, not loss.",
        # the other tools that counted datagrams or probes of a pair, unsaid before
        "Zone pairs other tools measured (a matrix is of one tool): iperf2's 2 runs (1→2, "
        "2→1); iperf3's 1 run (1→2); twping's 1 run (1→2).",
    ]
    assert rep.asymmetry_table(tables, tool="fping", stat="loss").empty


def test_a_console_beside_its_full_log_is_one_run_of_probes(synth):
    # the tiny synthetic campaign's 1→2: five sockperf full logs, r1's console beside its
    # own; the loss cell pooled both, 6 runs of 462 probes (r1's 77 twice)
    raw, _, tables = synth
    logs = sorted((raw / "zone-matrix" / "vm-z1-a" / "to-vm-z2-b").glob("sockperf-*"))
    full = [f for f in logs if f.name.endswith(".fulllog.csv")]
    rows = sum(bool(re.match(r"\d+, ", x)) for f in full for x in f.read_text().splitlines())
    assert (len(full), len(logs), rows) == (5, 6, 385)
    loss, p50 = (_cell(rep.zone_pair_medians(tables, stat=s, tool="sockperf"), "1", "2")
                 for s in ("loss", "p50"))  # fmt: skip
    assert (loss["n_runs"], loss["n"], loss["estimate"]) == (5, rows, 0.0)
    assert (p50["n_runs"], p50["n"]) == (5, rows)


def test_the_runs_that_summarise_another_runs_probes_are_named(synth, tmp_path):
    # every console the synthetic campaign writes (*.log) sits beside the file of its probes:
    # 'What was measured' counted each as a run of its own (184 sockperf runs of 92)
    raw, _, tables = synth
    consoles = {p.relative_to(raw).as_posix() for p in raw.rglob("*.log")}
    summaries = rep.summarising_runs(tables)
    runs = tables.runs
    assert set(runs.loc[runs["run_id"].isin(summaries), "source_path"]) == consoles
    said = _summary._summarising(runs, summaries)
    n = len(consoles)
    assert said == (
        f", {n} of them consoles summarising another run's probes (1 echo_csv, {n - 1} "
        f"sockperf), which the figures count once: {len(runs) - n} runs"
    )
    assert n == 10 and _summary._summarising(runs, set()) == ""
    # page 01, which reads no samples, counted them as runs alike: it names them now, from
    # the store's runs and the columns of its samples that hold observations
    (tmp_path / "processed").mkdir()
    (tmp_path / "processed" / SYNTH).symlink_to(synth[1] / SYNTH)
    counts = rep.console_counts(SYNTH, tmp_path)
    assert counts.to_dict("records") == [
        {"campaign": SYNTH, "tool": "echo_csv", "consoles": 1},
        {"campaign": SYNTH, "tool": "sockperf", "consoles": n - 1},
    ]


def test_jitter_is_the_printed_rfc3550_figure_and_names_it(tables):
    m = rep.zone_pair_medians(tables, stat="jitter", tool="iperf2")
    assert set(m["definition"]) == {"jitter/rfc3550"} and set(m["unit"]) == {"us"}
    # the client's server report prints "0.001 ms", the 2.2.1 server "0.002 ms"
    assert _cell(m, "1", "2")["estimate"] == 1.0
    assert _cell(m, "2", "1")["estimate"] == 2.0
    assert rep.matrix_label(m, "jitter") == "jitter (RFC 3550) [µs]"
    m3 = rep.zone_pair_medians(tables, stat="jitter", tool="iperf3")
    assert _cell(m3, "1", "2")["estimate"] == 6.0  # receiver line: "0.006 ms"
    # fping prints no jitter: its IPDV is computed from the replies, and said so
    mf = rep.zone_pair_medians(tables, stat="jitter", tool="fping")
    assert set(mf["definition"]) == {"ipdv/mean"}
    assert rep.matrix_label(mf, "jitter") == "IPDV mean (RFC 3393) [µs]"


def test_jitter_never_mixes_definitions(tables):
    from azlatency.report._matrix_stats import jitter_cells

    runs = tables.runs[tables.runs["tool"].isin(["iperf2", "twping"])]
    cells = jitter_cells(rep.subset(tables, runs), runs)
    # two iperf 2 runs print RFC 3550, one twping run P95-P50: the majority is shown
    assert set(cells["definition"]) == {"jitter/rfc3550"}
    assert _cell(cells, "2", "1")["estimate"] == 2.0  # twping's 2800 µs is not in it
    assert "left out: 1 run whose jitter is jitter/p95-p50" in cells["note"].iloc[0]


def test_unknown_statistic_is_a_clear_error(tables):
    for bad in ("median", "p100", "jitter_rfc", "p"):
        with pytest.raises(ValueError, match=r"'pNN' or 'pNN.N'.*'mean', 'loss' or 'jitter'"):
            rep.zone_pair_medians(tables, stat=bad)
    assert rep.latency_stat("p99.9") and not rep.latency_stat("loss")


@pytest.fixture(scope="module")
def seed001(tmp_path_factory):
    root = tmp_path_factory.mktemp("seed001")
    raw = ROOT / "data" / "raw" / "seed001-aks-azure-cni"
    import_campaign(raw, root=root / "processed", workers=1)
    return rep.load_campaigns("seed001-aks-azure-cni", root)


def test_printed_p99_and_p999_cells_are_the_printed_percentiles(seed001):
    text = (ROOT / "data" / "raw" / "seed001-aks-azure-cni" / "az1-az3.md").read_text()
    printed = dict(re.findall(r"percentile (99\.\d{3}) =\s+([\d.]+)", text))
    assert (printed["99.900"], printed["99.000"]) == ("894.177", "798.420")
    # az1-az3.md: the client is the zone-3 pod, the server the zone-1 one
    for stat, pct in (("p99", "99.000"), ("p99.9", "99.900")):
        cell = _cell(rep.zone_pair_medians(seed001, stat=stat), "3", "1")
        assert (cell["stat"], cell["estimate"]) == (stat, float(printed[pct]))
        assert cell["source"] == "reported"
    med = rep.zone_pair_medians(seed001)  # the default is still the median
    assert _cell(med, "3", "1")["estimate"] == 700.618
    assert rep.matrix_label(med) == "median half rtt [µs]"
    assert rep.matrix_label(med, "p99") == "p99 half rtt [µs]"


def test_p99_cells_equal_latency_percentiles_of_the_pair(seed001):
    from azlatency.report._zones import ZONE_BY

    m = rep.zone_pair_medians(seed001, stat="p99")
    pct = rep.latency_percentiles(seed001, by=ZONE_BY, quantiles=(0.99,))
    p99 = pct[pct["stat"] == "p99"].set_index(["src_zone", "dst_zone"])["estimate"]
    assert len(m) == 4
    for r in m.itertuples():
        assert r.estimate == p99.loc[(r.src_zone, r.dst_zone)]


def test_the_matrix_says_which_runs_it_left_out_to_hold_the_rest_fixed(seed001):
    """seed001's single-node sockperf run (single-node.md, placement same_node in its
    campaign.yaml: both pods in zone 2) is no zone pair of VMs: the matrix leaves it out, and
    page 20, the campaign page's finding and the zone-pair answer say so, where before the
    'fastest 1→1 at 33.41 µs' stood beside the same page's 16.49 µs on one node."""
    m = rep.zone_pair_medians(seed001)
    assert ("2", "2") not in set(zip(m["src_zone"], m["dst_zone"]))
    said = "Not in the matrix, to hold all but the zones fixed: sockperf's 1 run on one node (2→2)."
    # and, a matrix being of one tool, the pairs other tools measured (qperf's 1→1)
    other = " Zone pairs other tools measured (a matrix is of one tool): qperf's 1 run (1→1)."
    page20 = rep.zone_matrix_claims(m, m.iloc[:0], level=0.95, both_ways=0)["text"]
    assert page20.iloc[-1] == said + other
    answer = zone_claims(seed001)["text"]
    assert answer.iloc[0].startswith("**By sockperf, the slowest zone pair")
    assert answer.iloc[0].endswith(" " + said)  # the other tools' statements follow
    assert answer.iloc[1].startswith("**qperf measured one zone pair: 1→1 at ")
    loss = rep.zone_pair_medians(seed001, stat="loss")
    assert loss.attrs["held_out"] == ["1 run on one node (2→2)"]


def test_a_matrix_holding_nothing_back_says_nothing_of_it(tables):
    m = rep.zone_pair_medians(tables)
    assert m.attrs["held_out"] == []
    texts = rep.zone_matrix_claims(m, m.iloc[:0], level=0.95, both_ways=0)["text"]
    assert not texts.str.contains("Not in the matrix").any()


def test_the_zone_answer_says_what_its_figures_are(tmp_path):
    """Three hping3 SYN pings (Debian's 3.a2 and upstream's 3.0.0-alpha-1, captured) filed by
    zone pair: hping3 prints min/avg/max only, so each pair's median is one run's samples
    (50, 5 and 10 replies at 0.1 ms resolution), too few for an interval.  The answer said
    'printed values of one run each' and that the matrix gave each pair its interval."""
    hping = "hping3/hping3--3.0.0a{}-linux-veth-S-{}.txt"
    files = {
        hping.format(2, "c50-i20ms"): "1-2/hping.txt",
        hping.format("1-upstream", "p443-c5-file"): "1-3/hping.txt",
        hping.format(2, "p443-c10-file"): "2-3/hping.txt",
    }
    tables = import_fixtures(tmp_path, "hping-zones", files, BY_PATH)
    claim = zone_claims(tables).iloc[0]
    assert claim["text"] == (
        "**The slowest zone pair, 1→2, is 1.30× the fastest, 1→3** (hping3, median rtt; "
        "1→3 500 µs, 2→3 600 µs, 1→2 650 µs; one run each, from its samples, none with an "
        "interval). The arrows are client → server where the addresses prove it; the matrix "
        "gives every pair and why none has an interval."
    )
    assert claim["evidence"] == "samples, one run a side"
    m = rep.zone_pair_medians(tables)
    said = rep.zone_matrix_claims(m, rep.asymmetry_table(tables), level=0.95, both_ways=0)
    assert said["text"].iloc[-1] == (
        "No zone pair was measured both ways by hping3 with samples (0 have both directions "
        "in the matrix): no direction can be tested."
    )


def test_tools_to_other_far_ends_of_one_zone_pair_are_not_one_pair_of_vms(tmp_path):
    """An hping3 SYN ping to 10.207.0.2 and PsPing's TCP connects to 10.20.0.5 and to
    10.6.1.4 (Azure's VPN and private-endpoint guides) filed under one zone pair, no scenario:
    no log names both hosts, so page 40 took the zone pair for one pair of VMs, pooled
    PsPing's two far ends into one median (2,747.5 µs) and set it against hping3's (ratio
    4.23).  Each far end is its own pair now, and no tool measured one beside another."""
    psping = "psping/psping--{}--azure-{}.txt"
    files = {
        "hping3/hping3--3.0.0a2-linux-veth-S-c50-i20ms.txt": "1-2/hping.txt",
        psping.format(
            "2.01-windows-t-tcp-connect", "architecture-center-troubleshoot-vpn"
        ): "2-1/vpn.txt",
        psping.format(
            "2.10-windows-tcp-connect-no-statistics", "docs-sql-private-endpoint"
        ): "2-1/endpoint.txt",
    }
    tables = import_fixtures(tmp_path, "far-ends", files, BY_PATH)
    agree = rep.cross_tool(tables)
    assert agree.empty
    assert agree.attrs["alone"] == ["hping3", "psping"]
    assert list(rep.cross_tool_claims(agree)["text"]) == [
        "**hping3, psping**: no other tool measured their pairs of VMs, so they are not set "
        "against one."
    ]


@pytest.mark.parametrize(
    ("sources", "words", "evidence"),
    [
        (["reported", "reported"], "printed values of one run each", "printed values"),
        (["samples", "samples"], "one run each, from its samples", "samples, one run a side"),
        (["histogram"] * 2, "one run each, from its histogram", "histogram bins, one run a side"),
        (["reported", "histogram"], "one run each, printed or from its histogram", "mixed"),
    ],
)
def test_the_zone_answer_names_each_source_of_its_figures(sources, words, evidence):
    # PsPing's -h histogram gives a median known to a bin: 'printed or from its samples' was
    # said of it before (kelvin's blog: 42.62-43.65 ms)
    m = pd.DataFrame(
        {"source": sources, "n_runs": 1, "ci_low": [42620.0, None], "ci_high": [43650.0, None]}
    )
    assert _zone_evidence(m) == (words, evidence)
    assert _zone_evidence(m.assign(ci_low=None, ci_high=None))[0] == (
        f"{words}, none with an interval"
    )


def test_one_way_delays_are_no_zone_matrix_tool(tmp_path):
    """owping (one-way delays) and irtt filed by direction, 1→2 and 2→1: owping's four runs
    were taken for the matrix's tool (two pairs, most runs), then gave it no cell: page 20
    said 'no zone pair' above irtt's 188 µs and 132 µs.  One-way delays are page 40's."""
    files = {
        "owping/owping--5.2.3-linux-c100-clean.txt": "1-2/owping.txt",
        "irtt/irtt--0.9.0-linux-i20ms-d2s-clean.txt": "1-2/irtt.txt",
        "owping/owping--5.2.3-linux-c200-loss.txt": "2-1/owping.txt",
        "irtt/irtt--0.9.0-linux-q-i10ms-d2s-loss.txt": "2-1/irtt.txt",
    }
    tables = import_fixtures(tmp_path, "one-way", files, BY_PATH)
    assert rep.main_tool(tables.runs) == "irtt"
    m = rep.zone_pair_medians(tables)
    got = list(zip(m["src_zone"], m["dst_zone"], m["estimate"], m["source"]))
    assert got == [("1", "2", 188.0, "samples"), ("2", "1", 132.0, "reported")]


def test_a_loss_matrix_says_it_pools_every_basis_and_pairs_alike_once(synth_loaded):
    """The tiny synthetic campaign's sockperf loss matrix holds 12 runs at 1→1 where its
    latency matrix (round trips) holds 10: the two 64 B runs of its message-size sweep print
    half round trips.  Loss has no basis, and page 20 said nothing of the 12; its three pairs
    all at 0 % were 'lowest 1→1 at 0 %, highest 2→1 at 0 %'."""
    _, tables = synth_loaded
    loss = rep.zone_pair_medians(tables, tool="sockperf", stat="loss")
    latency = rep.zone_pair_medians(tables, tool="sockperf")
    one = {m: f.set_index(["src_zone", "dst_zone"]).loc[("1", "1"), "n_runs"] for m, f in
           (("loss", loss), ("latency", latency))}  # fmt: skip
    assert one == {"loss": 12, "latency": 10}
    said = rep.zone_matrix_claims(loss, loss.iloc[:0], level=0.95, both_ways=0)["text"].tolist()
    assert said[:2] == [
        "Probe loss of sockperf over 3 zone pairs: each at 0 %.",
        "Loss pools sockperf's runs whatever basis they printed latency in (half round trip and "
        "round trip): a probe lost is lost either way, so a pair may hold more runs here than in "
        "the latency matrix, which is of one basis.",
    ]
