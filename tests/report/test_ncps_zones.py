"""Connections per second by zone pair: ncps's and ethr -t c's rates (real captures filed by
zone pair with a path rule; tests/fixtures/ncps/SOURCES.md, tests/fixtures/ethr/SOURCES.md)."""

from __future__ import annotations

import pytest

from tests.report._fixture_campaign import BY_PATH, answer_texts, import_fixtures

N = "ncps/ncps--1.1-linux-"
FILES = {
    N + "c-r2-N20-t5-client.txt": "1-2/a.txt",  # ###ENDCPS 4010
    N + "s-r2-t8-server.txt": "1-2/s.txt",  # a server's 2632: the pair's client figure stands
    N + "c-r4-t3-sil.txt": "1-3/b.txt",  # 2494
    N + "c-r4-wt2-t6-brief.txt": "2-1/c.txt",  # 3063
    "ethr/ethr--1.0.0-linux-c-t-c-d2s-log.jsonl": "3-1/d.jsonl",
}


@pytest.fixture(scope="module")
def tables(tmp_path_factory):
    return import_fixtures(tmp_path_factory.mktemp("ncps"), "ncps", FILES, BY_PATH)


def test_a_question_of_connections_per_second_gets_the_rates(tables):
    # was answered by ncps's handshake latency: 'By ncps, 1→2 is 11.5 µs (the median of 2
    # runs' printed values, 11–12 µs; no interval)'
    said = answer_texts(tables, "How many connections per second from zone 1 to zone 2?")
    assert (
        said[0]
        == "**By ncps, 1→2 made 4010 connections per second** (printed by the tool; one run)."
    )
    said = answer_texts(tables, "Which zone pair has the highest connection rate?")
    assert said[0] == (
        "**By ethr, only 3→1 has a figure: 10080 connections per second** (the mean of its 2 "
        "interval rates; one run)."
    )
    assert said[1] == (
        "**By ncps, lowest 1→3 (2494 connections per second), highest 1→2 (4010), over 3 zone "
        "pairs** (1→3 2494, 2→1 3063, 1→2 4010; printed by the tool, one run each: no test)."
    )
    assert answer_texts(tables, "What is the CPS from zone 2 to zone 3?")[0] == (
        "**2→3: no figure of connections per second** (the pairs with one are 1→2, 1→3, 2→1, 3→1)."
    )


def test_a_latency_question_is_not_answered_by_rates(tables):
    said = answer_texts(tables, "Which zone pair is slowest?")
    assert not any("connections per second" in s for s in said)
