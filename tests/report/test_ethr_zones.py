"""Page 20 and page 90 over ethr runs filed by zone pair (tests/fixtures/ethr, a path rule):
its latency console prints a block a second, each a run, and its bandwidth tests over TCP
and UDP are two conditions."""

from __future__ import annotations

import pytest

from azlatency import report as rep
from tests.report._fixture_campaign import BY_PATH, answer_texts, import_fixtures

E = "ethr/ethr--1.0.0-linux-"
FILES = {
    f"{E}c-t-l-d3s-console.txt": "1-2/lat.txt",  # four blocks: p50 50.315, 45.097, 40.31, 42.183
    f"{E}c-t-pi-n5-log.jsonl": "1-3/pi.jsonl",
    f"{E}c-t-b-d3s-log.jsonl": "2-1/bw.jsonl",
    f"{E}c-t-b-udp-b100M-d2s-console.txt": "3-1/udp.txt",
}


@pytest.fixture(scope="module")
def tables(tmp_path_factory):
    return import_fixtures(tmp_path_factory.mktemp("ethr"), "ethr", FILES, BY_PATH)


def test_several_printed_runs_of_a_pair_are_one_cell(tables):
    # the matrix held four cells of 1→2 and page 20 said 'Median rtt of ethr over 4 zone
    # pairs: fastest 1→2 at 40.31 µs, slowest 1→2 at 50.31 µs (1.25× the fastest)'
    m = rep.zone_pair_medians(tables)
    assert len(m) == 1
    cell = m.iloc[0]
    assert (cell["estimate"], cell["range_low"], cell["range_high"], cell["n_runs"]) == (
        (45.097 + 42.183) / 2,
        40.31,
        50.315,
        4,
    )
    assert cell["note"] == (
        "the median of 4 runs' printed medians (range 40.31–50.31 µs): printed values are not "
        "pooled, no interval"
    )
    page20 = rep.zone_matrix_claims(m, m.iloc[:0], level=0.95, both_ways=0)["text"]
    assert page20[0] == "Median rtt of ethr over 1 zone pair: 1→2 at 43.64 µs."


def test_throughput_of_two_conditions_is_said_apart(tables):
    # 'Which zone pair has the lowest throughput?' got the latency statements alone
    said = answer_texts(tables, "Which zone pair has the lowest throughput?")
    assert said[0] == (
        "**By throughput, no one tool and condition measured two zone pairs** (2→1 by ethr, "
        "tcp, 1 stream, the sender's figure: 11.66 Gbit/s (one run); 3→1 by ethr, udp, 1 "
        "stream, the sender's figure: 100 Mbit/s (one run): two conditions' figures are not set "
        "side by side)."
    )


def test_a_cell_of_several_printed_runs_is_no_interval_across_runs(tables):
    # the zone answer said '(median rtt; runs, ...)' and its claim 'intervals across runs'
    # of a cell that is the median of four printed values
    claims = rep.campaign_answer(tables, "Which zone pair is slowest?", level=0.95, rng=0)[1]
    row = claims.iloc[0]
    assert row["text"].startswith(
        "**Only 1→2 is in ethr's zone matrix, at 43.64 µs: no pair to set it against** (median "
        "rtt; printed values, a pair of several runs the median of theirs, none with an "
        "interval)."
    )
    assert row["evidence"] == "printed values"


def test_a_pairs_median_of_printed_runs_is_not_said_printed(tables):
    # 'By ethr, 1→2 is 43.64 µs (printed by the tool, no interval)': no run printed 43.64
    said = answer_texts(tables, "How slow is zone 1 to zone 2?")
    assert said[0] == (
        "**By ethr, 1→2 is 43.64 µs (the median of 4 runs' printed values, 40.31–50.31 µs; no "
        "interval)** (median round trip)."
    )


def test_one_pair_of_latency_gives_its_figure(tmp_path):
    # ethr's latency console at 3→2 the campaign's only latency pair, bandwidth elsewhere:
    # 'Which zone pair is slowest?' said 'Nothing to say: fewer than two zone pairs have a
    # latency run whose direction is known, ...', the pair's figure withheld
    files = {f"{E}c-t-l-d3s-console.txt": "3-2/lat.txt", f"{E}c-t-b-d3s-log.jsonl": "1-2/bw.jsonl"}
    t = import_fixtures(tmp_path, "one", files, BY_PATH)
    assert answer_texts(t, "Which zone pair is slowest?") == [
        "**ethr measured one zone pair: 3→2 at 43.64 µs** (median rtt; printed values, a pair "
        "of several runs the median of theirs, none with an interval)."
    ]
