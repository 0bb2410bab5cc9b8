"""A campaign asking about throughput gets its answer from throughput runs (real fixtures,
filed by placement as a user would), and every throughput run is in a claim or named as
not compared."""

from __future__ import annotations

import pandas as pd
import pytest

from azlatency import report as rep
from azlatency.report._answer import _throughput_times
from azlatency.report._claims import throughput_context
from azlatency.report._throughput import kinds, paced_note, throughput_table
from azlatency.stats.asymmetry import directed
from tests.report._fixture_campaign import BY_PATH, TWO_PINGS, answer_texts, import_fixtures

YAML = """
name: tp
question: Is TCP throughput between two VMs in one zone higher than across zones?
compare: placement
rules:
  - glob: "same-zone/*"
    set: {placement: same_zone, src_zone: 1, dst_zone: 1}
  - glob: "cross-zone/*"
    set: {placement: cross_zone, src_zone: 1, dst_zone: 2}
"""
FILES = {
    "iperf3/iperf3--3.12-linux-J-tcp.json": "same-zone/iperf3.json",
    "iperf3/iperf3--3.12-linux-J-u-udp.json": "same-zone/iperf3-udp.json",
    "ntttcp/ntttcp--1.4.3-linux-s-j-sender.json": "same-zone/ntttcp-sender.json",
    "ntttcp/ntttcp--1.4.3-linux-r-j-receiver.json": "same-zone/ntttcp-receiver.json",
    "iperf2/iperf2--2.1.8-linux-c-i1-tcp.txt": "same-zone/iperf2.txt",
    "iperf3/iperf3--3.12-linux-J-R-tcp-reverse.json": "cross-zone/iperf3-R.json",
    "iperf3/iperf3--3.18-linux-J-u-udp.json": "cross-zone/iperf3-udp.json",
    "ntttcp/ntttcp--1.4.0-linux-s-j-sender.json": "cross-zone/ntttcp-sender.json",
    "iperf2/iperf2--2.1.8-linux-c-i1-P2-tcp.txt": "cross-zone/iperf2-P2.txt",
}


@pytest.fixture(scope="module")
def answered(tmp_path_factory):
    t = import_fixtures(tmp_path_factory.mktemp("tp"), "tp", FILES, YAML)
    md, claims = rep.campaign_answer(t, "Is TCP throughput ...?", "placement", rng=0)
    return t, md, claims


def _one(claims, **where):
    hit = claims
    for k, v in where.items():
        hit = hit[hit[k].astype(str) == v]
    assert len(hit) == 1, hit[["kind", "tool", "context", "text"]]
    return hit.iloc[0]


def test_a_throughput_question_is_answered_by_throughput_runs(answered):
    # before: 'Nothing to compare: no two latency runs differ in placement alone'
    _, md, claims = answered
    assert "Nothing to compare" not in md and set(claims["basis"].dropna()) == {"throughput"}
    # ntttcp's sender totals: 1.4.3 'throughput_in_gbps' 10.15..., 1.4.0 2.33... (one run each)
    c = _one(claims, tool="ntttcp", kind="ratio")
    assert c["text"].startswith(
        "**same zone's throughput is 4.35× cross-zone's** (ntttcp, 2 streams, the sender's "
        "figure; mean throughput; 10.15 Gbit/s vs 2.332 Gbit/s; printed values, one run each"
    )
    assert c["value_a"] == pytest.approx(10.153854545824e9)
    assert c["value_b"] == pytest.approx(2.33223999948e9)


def test_paced_runs_say_their_figure_is_the_pace(answered):
    # the iperf3 captures ran with -b 100M (SOURCES.md); UDP is always paced
    _, _, claims = answered
    udp = _one(claims, tool="iperf3", kind="ratio", context="iperf3, udp, 1448 B, 1 stream, "
               "the receiver's figure")  # fmt: skip
    assert udp["estimate"] == pytest.approx(1.0, abs=0.01)
    assert "UDP is sent at the rate its sender is asked for" in udp["text"]


def test_a_figure_says_whose_interval_reports_it_is(answered):
    # an iperf3 client's interval reports are its sender's: seed 000's 3.816 Gbit/s was said
    # as 'the receiver's figure' beside its printed receiver line of 3.81 Gbits/sec. The
    # forward TCP run (the client sent) and the -R run (the client received) are then two
    # ends' figures, not set side by side, and said so
    _, _, claims = answered
    apart = claims[claims["tool"].eq("iperf3") & claims["kind"].eq("not_compared")]
    assert len(apart) == 2
    # (the same-zone UDP run's figure is its receiver's: what arrived)
    texts = sorted(apart["text"])
    assert "figure from receiver vs receiver/sender" in texts[0]
    assert "figure from sender vs receiver;" in texts[1]


def test_every_throughput_run_is_in_a_claim_or_named_as_left_out(answered):
    t, _, claims = answered
    runs = set(throughput_table(t)["run_id"])
    assert len(runs) == 9
    said = {r for col in ("runs_a", "runs_b") for x in claims[col].dropna() for r in x}
    # the iperf2 runs: one stream here, two there (-P 2), never alike but for placement
    iperf2 = _one(claims, tool="iperf2")
    assert iperf2["kind"] == "not_compared" and "(streams 1 vs 2)" in iperf2["text"]
    left = runs - said
    assert left == set(t.runs.loc[t.runs["tool"] == "iperf2", "run_id"])
    # the ntttcp receiver's log has no cross-zone counterpart: named, not dropped
    rx = _one(claims, tool="ntttcp", kind="not_compared")
    assert (
        rx["n_runs_a"] == 1 and "`ntttcp-receiver.json` differs from every cross-zone" in rx["text"]
    )


ZONES = """
name: tz
question: Which zone pair has the lowest TCP throughput?
compare: zone pair
rules:
  - path: "{src_zone}-{dst_zone}/*"
"""


def test_a_zone_pair_question_is_answered_by_throughput(tmp_path):
    # before: 'Nothing to say: fewer than two zone pairs have a latency run whose direction
    # is known', above the throughput of two zone pairs
    files = {
        "ntttcp/ntttcp--1.4.3-linux-s-j-sender.json": "1-1/ntttcp.json",
        "ntttcp/ntttcp--1.4.0-linux-s-j-sender.json": "1-2/ntttcp.json",
        "iperf3/iperf3--3.12-linux-J-tcp.json": "1-1/iperf3.json",
        "iperf3/iperf3--3.12-linux-J-O1-tcp-omit.json": "1-3/iperf3.json",
    }
    t = import_fixtures(tmp_path, "tz", files, ZONES)
    md, claims = rep.campaign_answer(t, "Which zone pair ...?", "zone pair")
    assert "Nothing to say" not in md
    ntttcp = _one(claims, tool="ntttcp", section="answer", kind="statement")
    assert ntttcp["text"] == (
        "**By throughput, 1→2 carries 0.23× 1→1** (ntttcp, 2 streams, the sender's figure; "
        "1→2 2.332 Gbit/s, 1→1 10.15 Gbit/s; one run each, printed by the tool, no test "
        "across runs)"
    )
    assert ntttcp["estimate"] == pytest.approx(2.33223999948 / 10.153854545824)
    # two pairs named, no latency run of either: the throughput statements answer, nothing
    # says 'no run measured' of pairs the throughput runs measured
    q = "Is zone 1 → zone 2 slower than zone 1 → zone 1?"
    md2, named = rep.campaign_answer(t, q, "zone pair")
    assert "run measured" not in md2 and named["text"].tolist() == claims["text"].tolist()
    iperf3 = _one(claims, tool="iperf3", section="answer", kind="statement")
    assert sorted(iperf3["groups_a"]) == ["1→1", "1→3"] and iperf3["estimate"] == pytest.approx(
        1, abs=0.01
    )
    assert "2 runs asked for 100 Mbit/s a stream (-b) and reached it" in iperf3["text"]


def test_two_named_zone_pairs_are_set_against_each_other_by_throughput(tmp_path):
    # one condition (iperf3 -b 100M, one stream) at three pairs; asked of 1→3 and 1→1, the
    # answer gave its lowest and highest pair (1→2 against 1→3), never 1→3 against 1→1
    files = {
        "iperf3/iperf3--3.12-linux-J-tcp.json": "1-1/iperf3.json",
        "iperf3/iperf3--3.12-linux-J-O1-tcp-omit.json": "1-3/iperf3.json",
        "iperf3/iperf3--3.12-linux-J-sigint-tcp-interrupted.json": "1-2/iperf3.json",
    }
    t = import_fixtures(tmp_path, "tn", files, ZONES)
    said = answer_texts(t, "Is zone 1 → zone 3 slower than zone 1 → zone 1?")
    assert said[0] == (
        "**By throughput, 1→3 carries 1.00× 1→1** (iperf3, 131072 B, 1 stream, the sender's "
        "figure; 1→3 100.1 Mbit/s vs 1→1 100.1 Mbit/s; one run each, means of each run's "
        "interval rates, no test across runs; 2 runs asked for 100 Mbit/s a stream (-b) and "
        "reached it: their figures are the pace asked, not what the path carries)"
    )
    assert said[1].startswith("**By throughput, 1→2 carries 1.00× 1→3** (iperf3, 131072 B, ")
    _, claims = rep.campaign_answer(t, "Is zone 1 → zone 3 slower than zone 1 → zone 1?")
    first = claims[claims["section"].eq("answer")].iloc[0]
    assert (first["a"], first["b"]) == ("1→3", "1→1")
    assert first["estimate"] == pytest.approx(first["value_a"] / first["value_b"])
    # no pair named, a pair no run measured, or the lowest and highest pair (the condition's
    # own statement sets those side by side): no such line
    for q in ("Which zone pair is slowest?", "Is zone 1 → zone 3 slower than zone 2 → zone 3?",
              "Is zone 1 → zone 2 slower than zone 1 → zone 3?"):  # fmt: skip
        assert answer_texts(t, q) == said[1:]


def test_a_throughput_question_holds_its_factor_against_throughput_first(tmp_path):
    # 'Is zone 1 → zone 2 throughput 1.5 times lower ...?' was held against the latency
    # ratio ('1.5 times lower? By sockperf, 1→3 is 9.91× 1→2, more than 0.667×'), and the
    # throughput statements came after every latency one. ntttcp at 1→2 printed 2.332 Gbit/s,
    # at 1→1 10.15 Gbit/s (0.23×); two pings' runs at the same pairs
    files = {
        "ntttcp/ntttcp--1.4.3-linux-s-j-sender.json": "1-1/ntttcp.json",
        "ntttcp/ntttcp--1.4.0-linux-s-j-sender.json": "1-2/ntttcp.json",
        TWO_PINGS[0]: "1-1/ping.txt",
        TWO_PINGS[1]: "1-2/ping.txt",
    }
    asked = {
        "half": "Is zone 1 → zone 2 throughput half that of zone 1 → zone 1?",
        "lower": "Is zone 1 → zone 2 throughput 4 times lower than zone 1 → zone 1?",
        "slower": "Is zone 1 → zone 2 four times slower than zone 1 → zone 1?",  # of latency
        "one": "Does zone 1 → zone 2 really carry half the throughput?",  # of what: each pair
    }
    tables = import_fixtures(tmp_path, "tf", files, ZONES)
    half, lower, slow, one = (answer_texts(tables, q) for q in asked.values())
    assert half[0] == (
        "**Half? By throughput, 1→2 carries 0.23× 1→1: no interval to hold 0.5× against** "
        "(ntttcp, 2 streams, the sender's figure; one run each, printed by the tool, no test "
        "across runs)."
    )
    assert half[1].startswith("**By throughput, 1→2 carries 0.23× 1→1** (ntttcp")
    # the latency of the pairs follows, and no factor is held against it
    assert half[2].startswith("**1→2 is ") and "(ping" in half[2]
    assert not any("Half?" in x for x in half[1:])
    assert lower[0].startswith("**4 times lower? By throughput, 1→2 carries 0.23× 1→1: no "
                               "interval to hold 0.25× against**")  # fmt: skip
    assert lower[1:] == half[1:]
    # a question of latency: its factor is held against the latency ratio, throughput last
    assert slow[0].startswith("**Four times slower? By ping, 1→2 is ")
    assert slow[-1] == half[1] and not any("? By throughput" in x for x in slow)
    # one pair and a factor: the pair against each other pair of the condition, then the
    # condition's own statement; the pair's latency with no factor held against it
    assert one[:2] == [
        "**Half? By throughput, 1→2 carries 0.23× 1→1: no interval to hold 0.5× against** "
        "(ntttcp, 2 streams, the sender's figure; one run each, printed by the tool, no test "
        "across runs).",
        half[1],
    ]
    assert one[2].startswith("**By ping, 1→2 is ") and not any("Half?" in x for x in one[1:])


def test_a_factor_against_a_pair_that_carried_nothing_says_so():
    # the ratio is empty where the second pair carried nothing (a UDP run that lost every
    # datagram): it was 'carries nothing against 1→2' of a pair that carried 5 Gbit/s
    row = {"estimate": float("nan"), "a": "1→3", "b": "1→2", "value_a": 5e9, "value_b": 0.0,
           "how": "iperf3, udp; one run each", "tool": "iperf3", "evidence": "mixed"}  # fmt: skip
    said = _throughput_times(row, (0.5, "half"))["text"]
    assert said.startswith("**Half? By throughput, 1→3 carries 5 Gbit/s where 1→2 carries "
                           "nothing: no interval to hold 0.5× against**")  # fmt: skip
    said = _throughput_times({**row, "value_a": 0.0}, (0.5, "half"))["text"]
    assert "1→3 carries nothing, nor does 1→2:" in said


def test_a_udp_runs_figure_is_what_arrived(tmp_path):
    # iperf3 -u clients: their interval reports are the sender's, which count no loss. The
    # run through a blackout (-b 50M, 22.4 % of 17,262 datagrams lost) was '49.98 Mbit/s'
    # against its receiver's printed 38.77; the run that lost all 272 datagrams was
    # '1.05 Mbit/s' (the default pace), and as a zone pair of 0 bit/s it was then dropped
    # from the answer to 'which zone pair has the lowest UDP throughput?'
    files = {
        "iperf3/iperf3--3.12-linux-J-u-udp-blackout-loss.json": "1-2/a.json",
        "iperf3/iperf3--3.12-linux-J-u-udp.json": "1-3/a.json",
        "iperf3/iperf3--3.12-linux-u-udp-blackout-loss.txt": "1-2/b.txt",
        "iperf3/iperf3--3.12-linux-u-udp.txt": "1-3/b.txt",
        "iperf3/iperf3--3.12-linux-u-udp-total-loss-receiver-zero.txt": "2-3/b.txt",
    }
    t = import_fixtures(tmp_path, "tu", files, ZONES.replace("TCP", "UDP"))
    tp = throughput_table(t).set_index("where")
    json_ = tp[tp["parser_variant"] == "json"]
    assert json_.loc["1→2", "estimate"] == pytest.approx(38769195.8483626)
    assert json_.loc["1→2", "side"] == "receiver" and json_.loc["1→2", "source"] == "reported"
    assert "22.4 % of its datagrams lost" in json_.loc["1→2", "note"]
    text = tp[tp["parser_variant"] == "text"]
    assert text.loc["2→3", "estimate"] == 0 and text.loc["2→3", "loss_pct"] == 100
    _, claims = rep.campaign_answer(t, "Which zone pair has the lowest UDP throughput?", rng=0)
    said = claims.loc[claims["section"] == "answer", "text"].tolist()
    assert len(said) == 2
    assert said[1].startswith(
        "**By throughput, 2→3 carries nothing against 1→3** (iperf3, 1 stream, the receiver's "
        "figure; 2→3 0 bit/s, 1→2 38.5 Mbit/s, 1→3 99.9 Mbit/s; one run each, printed by the "
        "tool"
    )
    assert "2 runs lost datagrams (1→2 23 %, 2→3 100 %): each figure is what arrived" in said[1]
    assert "1→2 38.77 Mbit/s, 1→3 99.95 Mbit/s" in said[0]


def test_a_partial_interval_is_left_out_of_a_runs_mean():
    # iperf3 --get-server-output, UDP at -b 100M: the server's intervals are 99.12 and 99.76
    # Mbit/s, then 0.017 s of 39.85 (the queue draining after the sender stopped); their
    # plain mean, 79.58 Mbit/s, was the run's figure beside its printed 98.93
    import azlatency
    from tests.conftest import FIXTURES

    fx = FIXTURES / "iperf3" / "iperf3--3.12-linux-get-server-output-u-udp-server-json.txt"
    server = throughput_table(azlatency.read(fx)).iloc[1]
    assert server["side"] == "receiver" and server["n"] == 2
    assert server["estimate"] == pytest.approx((99115568.1636094 + 99764320) / 2, rel=1e-6)
    assert server["method"].startswith(
        "mean of 2 interval rates (1 partial interval of 0.0172 s left out)"
    )


def test_a_sockperf_throughput_test_at_a_set_message_rate_is_paced():
    # 'NOTE: test was performed, using msg-size=1000, mps=20000': 20,000 messages of 1000 B a
    # second, 160 Mbit/s of payload; its figure (164.3 Mbit/s, sockperf's binary 'Gbps') was
    # set against a --mps=max run at 1400 B as '6.50x' with no word of the pace
    import azlatency
    from tests.conftest import FIXTURES

    fx = FIXTURES / "sockperf" / "sockperf--3.7-linux-udp-m1000-mps20000-gigasize-throughput.txt"
    tp = throughput_table(azlatency.read(fx))
    assert tp["paced_bps"].tolist() == [160e6]
    assert paced_note(tp) == (
        "1 run asked for 160 Mbit/s a stream (--mps) and reached it: its figure is the pace "
        "asked, not what the path carries"
    )


def test_a_reverse_runs_zone_pair_is_the_way_its_data_went():
    # an -R run filed under 1-3/ sent its data from the server (zone 3) to the client: 3→1,
    # as page 20's asymmetry and the zone answer read it (the answer said '1→3')
    runs = pd.DataFrame({"run_id": ["f", "r"], "src_zone": ["1", "1"], "dst_zone": ["3", "3"],
                         "direction": ["forward", "reverse"]})  # fmt: skip
    flow = directed(runs, throughput=True).set_index("run_id")
    assert flow.loc["f", ["src_zone", "dst_zone"]].tolist() == ["1", "3"]
    assert flow.loc["r", ["src_zone", "dst_zone"]].tolist() == ["3", "1"]


def test_page_22_and_the_key_findings_say_a_series_is_paced(answered):
    # iperf3's JSON series here: a TCP run asked for -b 100M and reached it (its
    # target_bitrate), the -R run likewise, and two UDP runs (3.12 and 3.18)
    t, _, _ = answered
    tp = throughput_table(t)
    assert tp["paced_bps"].notna().sum() == 4  # each of the four JSON runs states 100 Mbit/s
    # a series of two protocols is said a protocol at a time (one range went from a paced
    # UDP run to a TCP run)
    lines = [x for x in rep.throughput_claims(tp)["text"] if x.startswith("**iperf3")]
    tcp, udp = sorted(lines)
    assert tcp.startswith("**iperf3, tcp** (2 runs)") and tcp.endswith(
        "2 runs asked for 100 Mbit/s a stream (-b) and reached it: their figures are the pace "
        "asked, not what the path carries."
    )
    assert udp.startswith("**iperf3, udp** (2 runs)") and udp.endswith(
        "UDP is sent at the rate its sender is asked for (iperf's -b; 1 Mbit/s by default): a "
        "figure near that rate is the pace, not what the path carries."
    )


def test_qperf_udp_is_not_called_paced():
    # qperf's udp_bw sends as fast as it can (no -b): 'send_bw = 6.26 GB/sec' is no pace
    import azlatency
    from tests.conftest import FIXTURES

    t = azlatency.read(FIXTURES / "qperf" / "qperf--0.4.11-linux-plain-tcp-udp.txt")
    tp = throughput_table(t)
    assert set(tp["protocol"]) == {"tcp", "udp"}
    assert paced_note(tp) == ""


def test_no_compare_takes_the_factor_throughput_runs_vary(answered):
    # without compare:, the factor came from latency contrasts alone: 'Nothing to compare: no
    # two latency or throughput runs differ in one condition alone', above the throughput
    # contrasts of placement under 'Also measured'
    t, _, _ = answered
    md, _ = rep.campaign_answer(t, rng=0)
    assert "Nothing to compare" not in md
    assert "**Answer, by placement (campaign.yaml's `compare:` does not say" in md


def test_zone_statements_of_one_tool_name_their_protocol(answered):
    # the placement folders' zones (1→1, 1→2): iperf3's UDP and TCP statements read alike
    # but for their message size ('iperf3, 1448 B, ...'); each names its protocol now
    t, _, _ = answered
    _, claims = rep.campaign_answer(t, "Which zone pair ...?", "zone pair")
    said = claims.loc[claims["tool"].eq("iperf3") & claims["section"].eq("answer"), "text"]
    # (its TCP runs, a forward run's sender figure and an -R run's receiver figure, are two
    # ends' figures: no statement sets them side by side)
    assert [x.split("** (")[1].split(";")[0] for x in said] == [
        "iperf3, udp, 1448 B, 1 stream, the receiver's figure"
    ]


def test_a_question_naming_zone_pairs_is_answered_by_zone_pair(answered):
    # no compare:, 'Which zone pair has the lowest TCP throughput?': answered by placement,
    # the factor most contrasts vary, and the zone pairs never said
    t, _, _ = answered
    md, claims = rep.campaign_answer(t, "Which zone pair has the lowest TCP throughput?", rng=0)
    assert "**Answer, by zone pair (campaign.yaml's `compare:` does not say; the question " in md
    first = claims[claims["section"] == "answer"]
    assert set(first["factor"]) == {"zone pair"} and len(first) == 3  # iperf3 UDP, NTttcp
    # and the pair no condition ranked, which the answer left out unsaid: the -R run's 2→1
    assert first["text"].iloc[2] == (
        "**Not ranked with them:** 2→1 by iperf3, tcp, 131072 B, 1 stream, the receiver's "
        "figure: 100.1 Mbit/s (one run) (each the only zone pair of its tool and condition; "
        "two conditions' figures are not set side by side)."
    )


def test_page_22_names_a_reverse_runs_place_by_the_way_its_data_went(answered):
    # the -R run filed cross-zone (client in zone 1, server in zone 2) sent 2→1; page 22 said
    # '1→2 · iperf3' where the zone answer and page 20 say 2→1
    t, _, _ = answered
    tp = throughput_table(t)
    where = dict(zip(tp["source_path"].str.split("/").str[-2:].str.join("/"), tp["where"]))
    assert where["cross-zone/iperf3-R.json"] == "2→1"
    assert where["cross-zone/iperf3-udp.json"].startswith("1→2")


def test_a_bidir_runs_figure_is_its_forward_flows():
    # iperf3 --bidir (3.18, --json-stream, UDP at 50 Mbit/s each way): the client's interval
    # SUMs of the flow it sent average 49,988,515 bit/s, of the flow it received 50,000,096;
    # the figure was the received (reverse) flow's beside the forward flow's arrow and total.
    # UDP: the figure is what the forward flow delivered (its receiver's sum_received,
    # 49,986,109 bit/s), not what its sender sent
    import azlatency
    from tests.conftest import FIXTURES

    t = azlatency.read(FIXTURES / "iperf3" / "iperf3--3.18-linux-json-stream-u-bidir-udp.jsonl")
    (row,) = throughput_table(t).to_dict("records")
    assert row["both_ways"] and row["estimate"] == pytest.approx(49986109.1189331)
    ctx = throughput_context({k: row[k] for k in ("tool", "streams", "side", "both_ways")}, "")
    assert ctx == (
        "iperf3, 1 stream, both ways at once (--bidir), the receiver's figure of the "
        "client-to-server flow"
    )
    # TCP --bidir in text prints one stream a flow and no [SUM]: [5][TX-C] 101 and 99.6
    # Mbits/sec, [7][RX-C] the same; the two streams were 'not one series' and the figure
    # fell back to the printed receiver line of the forward flow, unlike the JSON's
    t = azlatency.read(FIXTURES / "iperf3" / "iperf3--3.12-linux-bidir-tcp.txt")
    (row,) = throughput_table(t).to_dict("records")
    assert row["estimate"] == pytest.approx(100.3e6) and (row["side"], row["n"]) == ("sender", 2)


def test_a_factor_no_run_knows_is_said_as_unknown(tmp_path):
    # seed 000's question without its rules: 'no two latency or throughput runs differ in
    # placement alone', where no run's placement was known at all
    t = import_fixtures(
        tmp_path, "np", dict(zip(TWO_PINGS, ("a/ping.txt", "b/ping.txt"), strict=True))
    )
    md, _ = rep.campaign_answer(t, "Is an availability set faster than across zones?", rng=0)
    assert (
        "Nothing to compare: no run's placement is known (the logs do not say it; "
        "campaign.yaml's rules or hosts can)." in md
    )


def test_a_tools_two_tests_are_two_series_and_not_compared(tmp_path):
    # ethr -p udp: '-t b -b 100M' sends at 100 Mbit/s, '-t p' sends 1-byte packets to count
    # them (141,350 a second, 1.135 Mbit/s); page 22 gave one range 'from 1.135 Mbit/s to
    # 100 Mbit/s', and a placement contrast set the two tests side by side
    files = {
        "ethr/ethr--1.0.0-linux-c-t-b-udp-b100M-d2s-console.txt": "same-zone/ethr-b.txt",
        "ethr/ethr--1.0.0-linux-c-t-p-udp-d2s-console.txt": "cross-zone/ethr-p.txt",
    }
    t = import_fixtures(tmp_path, "et", files, YAML)
    tp = throughput_table(t)
    assert sorted(kinds(tp)) == ["ethr, bandwidth test", "ethr, pps test"]
    claims = rep.contrast_claims(t, factors=["placement"], rng=0)
    (apart,) = claims.loc[claims["tool"].eq("ethr"), "text"]
    assert "not compared" in apart and "(test bandwidth vs pps;" in apart


def test_pairs_no_one_condition_measured_both_are_each_given(tmp_path):
    # netperf TCP_STREAM at 1→3, iperf2 at 1→2 with one and two streams, and at 3→1 with two:
    # '1→3 against 1→2: not compared (no one tool and condition measured both: the
    # statements below give each where it was measured)', and none gave 1→3's 1.497 Gbit/s
    files = {
        "netperf/netperf--2.7.1-linux-TCP_STREAM-classic.txt": "1-3/np.txt",
        "iperf2/iperf2--2.0.5-linux-c-i1-tcp.txt": "1-2/iperf.txt",
        "iperf2/iperf2--2.0.13-linux-c-i1-P2-tcp.txt": "1-2/iperf-p2.txt",
        "iperf2/iperf2--2.0.5-linux-c-i1-P2-tcp.txt": "3-1/iperf-p2.txt",
    }
    t = import_fixtures(tmp_path, "tp", files, BY_PATH)
    said = answer_texts(t, "Does zone 1 to zone 3 carry less throughput than zone 1 to zone 2?")
    assert said[0] == (
        "**1→3 against 1→2: not compared** (1→3 by netperf, 16384 B, 1 stream, the sender's "
        "figure: 1.497 Gbit/s (one run); 1→2 by iperf2, 1 stream, the sender's figure: 1.19 "
        "Gbit/s (one run); 1→2 by iperf2, 2 streams, the sender's figure: 3.435 Gbit/s (one "
        "run); no one tool and condition measured both, and two conditions' figures are not "
        "set side by side)."
    )


def test_a_bidir_runs_reverse_flow_is_named_not_unmeasured(tmp_path):
    # iperf3 -J --bidir filed 2→3: the pages give its forward flow (2→3); 'What is the
    # throughput from zone 3 to zone 2?' said 'no throughput run measured 3→2' of its reverse
    # flow, printed at 100 Mbit/s received
    i3 = "iperf3/iperf3--3.12-linux-"
    files = {f"{i3}J-tcp.json": "1-2/tcp.json", f"{i3}J-bidir-tcp.json": "2-3/bidir.json"}
    t = import_fixtures(tmp_path, "bidir", files, BY_PATH)
    said = answer_texts(t, "What is the throughput from zone 3 to zone 2?")
    assert said[0] == (
        "**3→2: not among the throughput figures** (3→2 measured only as the reverse flow of a "
        "--bidir run, which the throughput figures give by its forward flow: iperf3's --bidir "
        "run of 2→3, its reverse flow 100 Mbit/s received (printed))."
    )


def test_one_pair_measured_in_conditions_of_one_pair_each(tmp_path):
    # 3→1 by netperf UDP_STREAM (filed 3-1) and by an iperf 2 -R run (filed 1-3, its data
    # flowing 3→1), each condition of that pair alone: 'What is the throughput from zone 3
    # to zone 1?' raised IndexError (page 90 failed)
    files = {
        "netperf/netperf--2.7.1-linux-UDP_STREAM-m1400-classic-loss.txt": "3-1/nu.txt",
        "iperf2/iperf2--2.1.8-linux-c-i1-e-R-tcp-reverse.txt": "1-3/rev.txt",
        "netperf/netperf--2.7.1-linux-TCP_STREAM-classic.txt": "2-1/ns.txt",
    }
    t = import_fixtures(tmp_path, "one", files, BY_PATH)
    said = answer_texts(t, "What is the throughput from zone 3 to zone 1?")
    assert said[0] == (
        "**3→1's throughput, by condition:** 3→1 by netperf, udp, 1400 B, 1 stream, the "
        "receiver's figure: 104.3 Mbit/s (one run); 3→1 by iperf2, 131072 B, 1 stream, the "
        "receiver's figure: 1.55 Gbit/s (one run) (no condition that measured it measured "
        "another zone pair, and two conditions' figures are not set side by side)."
    )


def test_an_iperf2_dualtest_flow_is_not_set_against_a_flow_alone(tmp_path):
    # iperf 2 -d runs both ways at once (the client's "[  1] ... 16.3 Gbits/sec" beside "[  2]
    # ... 11.0 Gbits/sec"), -r one after the other: a -d flow shares the path with the other
    # way's, and 'Which zone pair has the lowest throughput?' set a plain run's 2→3 against
    # it ('2→3 carries 0.29× 1→3' over '1→2 16.4 Gbit/s' of the -d run) and called the
    # second way of -d and -r 'a reverse-mode run (-R)'
    ip = "iperf2/iperf2--2.1.8-linux-c-i1-"
    files = {
        f"{ip}tcp.txt": "2-3/plain.txt",
        f"{ip}d-tcp-dualtest.txt": "1-2/dual.txt",
        f"{ip}r-tcp-tradeoff.txt": "1-3/tradeoff.txt",
    }
    t = import_fixtures(tmp_path, "dual", files, BY_PATH)
    tp = throughput_table(t).set_index(["src_zone", "dst_zone", "direction"])["both_ways"]
    assert tp.to_dict() == {
        ("1", "2", "forward"): True,
        ("1", "2", "reverse"): True,
        ("1", "3", "forward"): False,
        ("1", "3", "reverse"): False,
        ("2", "3", "forward"): False,
    }
    said = answer_texts(t, "Which zone pair has the lowest throughput?")
    assert said == [
        "**By throughput, 2→3 carries 0.29× 1→3** (iperf2, 1 stream, the sender's figure; 2→3 "
        "4.765 Gbit/s, 1→3 16.5 Gbit/s; one run each, means of each run's interval rates, no "
        "test across runs)",
        "**Not ranked with them:** 1→2 by iperf2, 1 stream, both ways at once (-d), the "
        "sender's figure: 16.4 Gbit/s (one run); 2→1 by iperf2, 1 stream, both ways at once "
        "(-d), the receiver's figure: 11 Gbit/s (one run); 3→1 by iperf2, 1 stream, the "
        "receiver's figure: 17 Gbit/s (one run) (each the only zone pair of its tool and "
        "condition; two conditions' figures are not set side by side).",
    ]
    said = answer_texts(t, "Is throughput from zone 1 to zone 2 higher than from zone 2 to zone 3?")
    assert said[0].startswith(
        "**1→2 against 2→3: not compared** (1→2 by iperf2, 1 stream, both ways at once (-d), "
        "the sender's figure: 16.4 Gbit/s (one run); 2→3 by iperf2, 1 stream, the sender's "
        "figure: 4.765 Gbit/s (one run); no one tool and condition"
    )


def test_one_named_pair_gets_its_own_throughput_first(tmp_path):
    # qperf tcp_bw at 1→2 ("bw = 1.75 GB/sec"), 1→3 and 3→1: 'What is the throughput from
    # zone 1 to zone 2?' was answered '3→1 carries 0.31× 1→3 (...)', 1→2's figure among theirs
    q = "qperf/qperf--0.4.11-linux-"
    files = {q + "plain-tcp-udp.txt": "1-2/a.txt", q + "vu-tcp.txt": "1-3/b.txt",
             q + "uu-tcp.txt": "3-1/e.txt"}  # fmt: skip
    t = import_fixtures(tmp_path, "one", files, BY_PATH)
    said = answer_texts(t, "What is the throughput from zone 1 to zone 2?")
    assert said[0] == (
        "**By throughput, 1→2 carries 14 Gbit/s, between 3→1 (5.602 Gbit/s) and 1→3 (17.92 "
        "Gbit/s)** (qperf, tcp, the receiver's figure; one run each, printed by the tool; 1→2: "
        "one run, no interval)."
    )
    assert said[1].startswith("**By throughput, 3→1 carries 0.31× 1→3**")


def test_one_pair_of_throughput_is_said_to_be_one(tmp_path):
    # psping's bandwidth test (-b -l 1500) at 2→3 beside its latency tests at 1→2, 1→3 and
    # 2→1 (the kelvin-blog captures): 'Which zone pair has the lowest throughput?' was
    # answered by latency alone ('Only 1→2 is in psping's zone matrix, at 43.65 ms')
    p = "psping/psping--2.10-windows-"
    files = {
        p + "l1500-n300-h10-tcp-latency--kelvin-blog.txt": "1-2/a.txt",
        p + "n10-w2-h10-icmp--kelvin-blog.txt": "1-3/b.txt",
        p + "b-l1500-n300-h10-bandwidth--kelvin-blog.txt": "2-3/d.txt",
    }
    t = import_fixtures(tmp_path, "psping", files, BY_PATH)
    assert answer_texts(t, "Which zone pair has the lowest throughput?")[0] == (
        "**By throughput, only 2→3 was measured: no pair to rank it against** (2→3 by psping, "
        "1500 B, the sender's figure: 4.621 Mbit/s (one run))."
    )
