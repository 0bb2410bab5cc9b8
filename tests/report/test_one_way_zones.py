"""Page 20 and page 90 over one-way and probe tools filed by zone pair (tests/fixtures: owping,
twping, fping, ncps, mtr, a path rule): an owping file holds two sessions, one each way, and
its one-way delays are in no zone matrix of round trips."""

from __future__ import annotations

import pytest

from azlatency import report as rep
from azlatency.report._asked import asked_other_stat
from tests.report._fixture_campaign import BY_PATH, FX, answer_texts, import_fixtures

FILES = {
    "fping/fping--5.1-linux-c20-clean.txt": "1-2/fping.txt",
    "fping/fping--5.1-linux-D-c10-loss.txt": "1-3/fping.txt",
    "mtr/mtr--0.95-linux-r-c10-n-2hops.txt": "2-3/mtr.txt",
    # two sessions each: client -> server (2→1, 3→1), and back (reverse: 1→2, 1→3)
    "owping/owping--5.2.3-linux-c100-clean.txt": "2-1/owping.txt",
    "owping/owping--5.2.3-linux-c200-loss.txt": "3-1/owping.txt",
    "twping/twping--5.2.3-linux-c100-M-clean.txt": "3-2/twping.txt",
    "ncps/ncps--1.1-linux-c-r2-N20-t5-client.txt": "1-2/ncps.txt",
}


@pytest.fixture(scope="module")
def tables(tmp_path_factory):
    return import_fixtures(tmp_path_factory.mktemp("oneway"), "oneway", FILES, BY_PATH)


def test_a_reverse_session_loses_its_probes_on_its_own_way(tables):
    # owping -c200: 'to' session 39 of 200 lost (19.5 %), 'from' session 26 of 200 (13 %); the
    # loss matrix pooled both as 3→1, '16.25 % of 400 probes'
    m = rep.zone_pair_medians(tables, stat="loss").set_index(["src_zone", "dst_zone"])
    assert m.loc[("3", "1"), ["estimate", "n"]].tolist() == [19.5, 200]
    assert m.loc[("1", "3"), ["estimate", "n"]].tolist() == [13.0, 200]
    page20 = rep.zone_matrix_claims(m.reset_index(), m.iloc[:0], level=0.95, both_ways=0)["text"]
    assert page20[0] == (
        "Probe loss of owping over 4 zone pairs: lowest 1→2 at 0 %, highest 3→1 at 19.5 %."
    )
    # fping's loss, another tool's, was left unsaid beside owping's matrix
    assert page20.iloc[-1].startswith(
        "Zone pairs other tools measured (a matrix is of one tool): fping's 2 runs (1→2, 1→3);"
    )


def test_a_loss_question_reads_every_tool_with_zones(tables):
    # 'no run with zones known measured it' was said of 3→1, whose owping session lost 19.5 %
    said = answer_texts(tables, "Is there packet loss between zone 1 and zone 3?")
    assert said == [
        "**By fping, 1→3 lost 20 % of 10 probes** (total lost / total sent over 1 run (counts)).",
        "**By owping, 1→3 lost 13 % of 200 probes** (total lost / total sent over 1 run (counts)).",
        "**By owping, 3→1 lost 19.5 % of 200 probes** (total lost / total sent over 1 run "
        "(counts)).",
    ]
    # 'loses the most packets' was answered by the zone pairs' latency
    assert asked_other_stat("Which zone pair loses the most packets?") == "loss"
    assert asked_other_stat("Does latency drop with accelerated networking?") is None
    most = answer_texts(tables, "Which zone pair loses the most packets?")
    assert most[1] == (
        "**By owping, lowest 1→2 (lost 0 % of 100 probes), highest 3→1 (lost 19.5 % of 200 "
        "probes), over 4 zone pairs** (page 20 gives each pair)."
    )


def test_a_pair_measured_one_way_only_is_said_so(tables):
    # 'no latency run measured 2→1' of a campaign whose owping session measured it, then
    # 'no figure' of it: its session printed "one-way delay min/median/max =
    # 0.03/0.1/12.2 ms, (unsync)", a median of owping's 0.1 ms buckets ("bucket_width")
    said = answer_texts(tables, "How slow is zone 2 to zone 1?")
    assert said[0] == (
        "**2→1: no round-trip figure** (2→1 measured only as one-way delays, which a zone "
        "matrix of round trips does not hold (page 40 sets them beside the round trip): "
        "owping's 1 run of one-way delay (2→1: median 100 µs; each median known to owping's "
        "100 µs bucket; clocks not synchronized (owping printed (unsync)): a one-way figure "
        "may carry the clocks' offset))."
    )


def test_both_ways_of_one_way_delay_are_told_apart_only_by_synchronized_clocks(tmp_path):
    # owping -c200's two sessions: 3→1 "0.0281/0.1/7.77 ms, (unsync)", back (1→3)
    # "0.0119/0.1/3.17 ms, (unsync)": 'Is latency symmetric ...?' was 'not compared', the
    # figures unsaid, and unsynchronized clocks can not tell the two ways apart
    files = {"owping/owping--5.2.3-linux-c200-loss.txt": "3-1/owping.txt"}
    t = import_fixtures(tmp_path / "u", "u", files, BY_PATH)
    said = answer_texts(t, "Is latency symmetric between zones 1 and 3?")
    assert said[0].startswith("**1→3 against 3→1: one-way delays only** (")
    assert said[0].endswith(
        "owping's 2 runs of one-way delay (1→3: median 100 µs; 3→1: median 100 µs; each median "
        "known to owping's 100 µs bucket; clocks not synchronized (owping printed (unsync)): a "
        "one-way figure may carry the clocks' offset; 1→3 and 3→1 are not told apart by it "
        "(each way carries the offset, with opposite signs; their sum, 200 µs, is free of it)))."
    )
    # the same sessions as owping prints them with synchronized clocks, "(err=0.012 ms)" for
    # "(unsync)" (the only change to the capture): 0 µs apart, within 2 x 12 µs and a bucket
    text = (FX / "owping" / "owping--5.2.3-linux-c200-loss.txt").read_text(encoding="utf-8")
    synced = {"3-1/owping.txt": text.replace("(unsync)", "(err=0.012 ms)")}
    t = import_fixtures(tmp_path / "s", "s", {}, BY_PATH, texts=synced)
    said = answer_texts(t, "Is latency symmetric between zones 1 and 3?")
    assert said[0].endswith(
        "(1→3: median 100 µs; 3→1: median 100 µs; each median known to owping's 100 µs bucket; "
        "clocks synchronized within ±12 µs (owping's err); 1→3 and 3→1 differ by 0 µs, within "
        "both clocks' errors and a bucket (124 µs): not told apart))."
    )


def test_a_pair_traced_only_is_said_so(tables):
    # mtr's trace of 2→3: 'no latency run measured 2→3', and of its loss 'no run with zones
    # known measured it'
    said = answer_texts(tables, "How slow is zone 2 to zone 3?")
    assert said[0] == (
        "**2→3: no figure** (2→3 measured only by traces, a round trip and a loss per hop, which "
        "no zone matrix holds: mtr's 1 run tracing each hop (2→3))."
    )
    lost = answer_texts(tables, "Is there packet loss from zone 2 to zone 3?")
    assert lost[0] == (
        "**2→3: no figure of probe loss** (no run with zones known measured it end to end; the "
        "pairs with one are 1→2, 1→3, 2→1, 3→1, 3→2; mtr's 1 run tracing each hop (2→3): a "
        "probe loss per hop, not the pair's)."
    )


def test_a_loss_question_reads_a_pair_the_matrix_size_leaves_out(tmp_path):
    # ping's loss matrix holds its most common message size (56 B: 1→3, 2→1, 3→1); the
    # -s 1400 run of 1→2 ("4 packets transmitted, 4 received") was left out, and 'Is there
    # packet loss between zone 1 and zone 2?' said '1→2: no figure of probe loss (no run with
    # zones known measured it ...)'
    p = "ping/ping--iputils-20221126-linux-"
    files = {
        p + "c15-i0.2-gap-partial-loss.txt": "2-1/loss.txt",  # 15 transmitted, 10 received
        p + "D-c5-timestamps.txt": "1-3/ts.txt",
        "ping/ping--busybox-1.35.0-linux-c4-ok.txt": "3-1/bb.txt",
        p + "s1400-c4-payload.txt": "1-2/big.txt",
    }
    t = import_fixtures(tmp_path, "sizes", files, BY_PATH)
    from_1400 = "from its 1 run at 1400 B: the zone matrix's are at 56 B"
    assert answer_texts(t, "Is there packet loss between zone 1 and zone 2?") == [
        "**By ping, 1→2 lost 0 % of 4 probes** (total lost / total sent over 1 run (counts); "
        f"{from_1400}).",
        "**By ping, 2→1 lost 33.3 % of 15 probes** (total lost / total sent over 1 run (counts)).",
    ]
    assert answer_texts(t, "Which zone pair loses the most packets?") == [
        "**By ping, lowest 1→3 (lost 0 % of 5 probes), highest 2→1 (lost 33.3 % of 15 probes), "
        "over 3 zone pairs** (page 20 gives each pair). Not set beside them, at another message "
        "size: 1→2 lost 0 % of 4 probes (total lost / total sent over 1 run (counts); "
        f"{from_1400})."
    ]
