"""Page 90's zone-pair answers over netperf runs: classic tables print a transaction rate (its
mean round trip, netperf's RT_LATENCY), ``-o`` outputs may print no request size, and a
histogram gives a median where a classic table gives a mean (tests/fixtures/netperf, filed
by zone pair with a path rule)."""

from __future__ import annotations

from azlatency import report as rep
from tests.report._fixture_campaign import BY_PATH, answer_texts, import_fixtures

NP = "netperf/netperf--"
ONE_TWO = {  # 1 B, TCP: a classic table (249.74 µs mean) and a -v 2 histogram (median 30 µs)
    f"{NP}2.7.1-linux-TCP_RR-classic.txt": "1-2/classic.txt",
    f"{NP}2.7.1-linux-TCP_RR-v2-histogram.txt": "1-2/v2.txt",
}


def test_a_pair_measured_only_outside_the_matrix_is_said_so(tmp_path):
    # 1→3 by PKB's -o run (no request size printed: its p50 20 µs of 13,203 transactions)
    # and a classic r64x1024 table (64 B): 'no latency run measured 1→3' was said, page 10
    # showing 1→3's netperf median; the matrix at 1 B had dropped the sizeless run unsaid
    files = {
        **ONE_TWO,
        f"{NP}2.7.1-linux-j-v2-OMNI-T-TCP-d-RR-o-pkb.txt": "1-3/pkb.txt",
        f"{NP}2.7.0-pkb-linux-TCP_RR-r64x1024-classic.txt": "1-3/r64.txt",
    }
    t = import_fixtures(tmp_path, "np", files, BY_PATH)
    said = answer_texts(t, "Is zone 1 to zone 3 slower than zone 1 to zone 2?")
    assert not any("no latency run measured" in s for s in said)
    assert (
        "1→3 measured only in runs a zone matrix leaves out, to hold all but the zones fixed: "
        "netperf's 1 run of 64 B (1→3); netperf's 1 run of no printed message size (1→3))."
    ) in said[0]
    # one pair named: its matrix at the size that holds it, 64 B (10⁶ / 24,491.26 trans/s)
    one = answer_texts(t, "How slow is zone 1 to zone 3?")
    assert one[0] == (
        "**By netperf, 1→3 is 40.83 µs (printed by the tool, no interval)** (mean round trip; "
        "from its 1 run at 64 B: the zone matrix's are at 1 B)."
    )


def test_a_mean_and_a_median_are_no_ratio_and_protocols_are_apart(tmp_path):
    # 1→3 by a classic TCP_RR table with -c -C (1 B: 10⁶ / 6,182.32 = 161.8 µs, a mean), a
    # UDP_RR and a TCP_CRR one; 1→2's median of its histogram 30 µs. It said 'The slowest
    # zone pair, 1→3, is 7.46× the fastest' of UDP_RR's mean against the median, and set
    # UDP_RR against TCP_RR as one matrix ('1→3 is 1.01× 1→2')
    files = {
        **ONE_TWO,
        f"{NP}2.7.1-linux-TCP_RR-c-C-cpu.txt": "1-3/cpu.txt",
        f"{NP}2.7.1-linux-UDP_RR-classic.txt": "1-3/udp.txt",
        f"{NP}2.7.1-linux-TCP_CRR-classic.txt": "1-3/crr.txt",
    }
    t = import_fixtures(tmp_path, "np", files, BY_PATH)
    said = answer_texts(t, "Which zone pair is slowest?")
    row = next(s for s in said if "not set against" in s)
    assert row.startswith(
        "**1→2's figure is a median, 1→3's of another statistic: not set against each "
        "other** (netperf, median (mean where only a mean printed) rtt; 1→2 30 µs, 1→3 161.8 "
        "µs (mean);"
    )
    assert row.endswith(
        "Not in the matrix, to hold all but the zones fixed: netperf's 1 run over UDP (1→3); "
        "1 run timing connect-request-response (1→3)."
    )
    assert not any("× the fastest" in s for s in said)
    # 1→2's median is of the -v 2 run's histogram: its classic table (249.74 µs, a mean) is
    # not pooled with it, and the figure said 'one run each' of the pair's two
    assert "printed; 1→2's leaves out 1 run that printed a summary only)" in row
    m = rep.zone_pair_medians(t)
    assert rep.zone_matrix_claims(m, m.iloc[:0], level=0.95, both_ways=0)["text"][0] == (
        "Median (mean where printed) rtt of netperf over 2 zone pairs: 1→2 at 30 µs; 1→3 at "
        "161.8 µs (mean): of another statistic, not set against it."
    )
    page10 = rep.distribution_claims(rep.headline(rep.latency_percentiles(t)), level=0.95)
    assert (
        page10["text"]
        .str.endswith(
            "0 printed by the tool; *zone 1→2 · TCP · netperf*'s leaves out 1 run that printed a "
            "summary only."
        )
        .any()
    )
    two = answer_texts(t, "How slow is zone 1 to zone 2?")
    assert two[0] == (
        "**By netperf, 1→2 is 30 µs (95% CI 20–30)** (median round trip; its figure leaves out "
        "1 run that printed a summary only)."
    )
    one = answer_texts(t, "How slow is zone 1 to zone 3?")
    assert (
        one[0]
        == "**By netperf, 1→3 is 161.8 µs (printed by the tool, no interval)** (mean round trip)."
    )


def test_a_pair_measured_only_by_a_run_of_no_printed_size_has_its_figure(tmp_path):
    # 1→3 by PKB's -o run alone (no request size printed; its p50 20 µs, printed inside its
    # [20, 30) bin): 'How slow is zone 1 to zone 3?' said 'no figure ... measured only in
    # runs a zone matrix leaves out' while page 10 gave that run's median
    files = {**ONE_TWO, f"{NP}2.7.1-linux-j-v2-OMNI-T-TCP-d-RR-o-pkb.txt": "1-3/pkb.txt"}
    t = import_fixtures(tmp_path, "np", files, BY_PATH)
    one = answer_texts(t, "How slow is zone 1 to zone 3?")
    assert one[0] == (
        "**By netperf, 1→3 is 20 µs (95% CI 20–30)** (median round trip; from its 1 run that "
        "printed no message size: the zone matrix's are at 1 B)."
    )
    # two pairs of which one has a size and one has none: no matrix holds both
    said = answer_texts(t, "Is zone 1 to zone 3 slower than zone 1 to zone 2?")
    assert "netperf's 1 run of no printed message size (1→3)" in said[0]
    # which is slowest: 'Nothing to say: fewer than two zone pairs have a latency run whose
    # direction is known' was said of two pairs measured
    slowest = answer_texts(t, "Which zone pair is slowest?")
    assert slowest == [
        "**Only 1→2 is in netperf's zone matrix, at 30 µs: no pair to set it against** (median "
        "rtt; one run, from its histogram; 1→2's leaves out 1 run that printed a summary only). "
        "Not in the matrix, to hold all but the zones fixed: netperf's 1 run of no printed "
        "message size (1→3)."
    ]


def test_another_tools_one_pair_in_its_matrix_is_not_all_it_measured(tmp_path):
    # lagscope's three pairs make the page's matrix; netperf's 1→2 (1 B, -v 2) and 1→3 (no
    # request size printed) were 'netperf measured one zone pair: 1→2 at 30 µs'
    files = {
        f"{NP}2.7.1-linux-TCP_RR-v2-histogram.txt": "1-2/v2.txt",
        f"{NP}2.7.1-linux-j-v2-OMNI-T-TCP-d-RR-o-pkb.txt": "1-3/pkb.txt",
        "lagscope/lagscope--1.0.1-linux-n5000-P-percentiles.txt": "1-2/lag.txt",
        "lagscope/lagscope--1.0.1-linux-n3000-P-H.txt": "2-1/lag.txt",
        "lagscope/lagscope--1.0.1-linux-n1000.txt": "2-3/lag.txt",
    }
    t = import_fixtures(tmp_path, "mixed", files, BY_PATH)
    said = answer_texts(t, "Which zone pair is slowest?")
    assert said[0].startswith("**By lagscope, of the 2 pairs with a median, the slowest, 1→2,")
    assert said[1] == (
        "**Only 1→2 is in netperf's zone matrix, at 30 µs: no pair to set it against** (median "
        "rtt; one run, from its histogram). Not in the matrix, to hold all but the zones "
        "fixed: netperf's 1 run of no printed message size (1→3)."
    )
    assert not any("measured one zone pair" in s for s in said)


def test_runs_that_print_no_size_make_the_matrix_where_they_are_most(tmp_path):
    # qperf's console prints no message size for its default tcp_lat ("latency = 8.01 us")
    # and one for each size of a sweep (-oo msg_size:1:64K:*4, one run a size at 2→3); the
    # matrix was of one sweep size, and page 20 said 'Nothing to summarise: no zone pair'
    q = "qperf/qperf--0.4.11-linux-"
    files = {
        q + "plain-tcp-udp.txt": "1-2/a.txt",
        q + "vu-tcp.txt": "1-3/b.txt",
        q + "oo-vu-sweep-tcp_lat.txt": "2-3/c.txt",
        q + "uu-tcp.txt": "3-1/e.txt",
    }
    t = import_fixtures(tmp_path / "q", "q", files, BY_PATH)
    m = rep.zone_pair_medians(t)
    assert m[["src_zone", "dst_zone", "estimate"]].values.tolist() == [
        ["1", "2", 8.01],
        ["1", "3", 10.6],
        ["3", "1", 116.144],
    ]
    said = rep.zone_matrix_claims(m, m.iloc[:0], level=0.95, both_ways=0)["text"]
    assert said[0] == (
        "Mean half rtt of qperf over 3 zone pairs: fastest 1→2 at 8.01 µs, slowest 3→1 at "
        "116.1 µs (14.5× the fastest)."
    )
    assert said.iloc[-1].startswith(
        "Not in the matrix, to hold all but the zones fixed: qperf's 1 run of 1 B (2→3); 1 run "
        "of 4 B (2→3);"
    )
    # sockperf's consoles print no size; one full log beside its console printed 14 B, and
    # 'Which zone pair is slowest?' was 'Only 3→1 is in sockperf's zone matrix'
    s = "sockperf/sockperf--3.7-linux-udp-"
    files = {
        s + "pingpong.txt": "1-2/a.txt",
        s + "pingpong-truncated.txt": "2-3/c.txt",
        s + "mps2000-fulllog-console.txt": "3-1/e.txt",
        s + "mps2000-fulllog-latency.csv": "3-1/e.csv",
    }
    t = import_fixtures(tmp_path / "s", "s", files, BY_PATH)
    assert answer_texts(t, "Which zone pair is slowest?")[0].startswith(
        "**Of the 2 pairs with a median, the slowest, 3→1, is 1.24× the fastest, 1→2; 2→3's "
        "figure is of another statistic, not set against them** (sockperf, median (mean where "
        "only a mean printed) half rtt; 1→2 6.419 µs, 3→1 7.991 µs, 2→3 13.54 µs (mean);"
    )
