"""One-way delay beside the round trip (issue 40): owping's two sessions, twping's and irtt's
send/receive split, iperf 2's ``--trip-times``, each with what the tool said about its
clocks, in a campaign imported from real captures."""

from __future__ import annotations

import re

import numpy as np
import pytest

from azlatency import report as rep
from tests.report._fixture_campaign import FX, import_fixtures

OWPING = "owping/owping--5.2.3-linux-c200-loss.txt"
TWPING = "twping/twping--5.2.3-linux-c100-clean.txt"
IRTT = "irtt/irtt--0.9.0-linux-i20ms-d2s-clean.txt"
IPERF2 = "iperf2/iperf2--2.2.1-linux-s-i1-e-trip-times-tcp.txt"
FILES = {
    OWPING: "owping/c200.txt",
    "owping/owping--5.2.3-linux-c100-clean.txt": "owping/c100.txt",
    TWPING: "twping/c100.txt",
    IRTT: "irtt/clean.txt",
    IPERF2: "iperf/trip-times.txt",
    "fping/fping--5.1-linux-c20-clean.txt": "fping/clean.txt",
    # interrupted before any packet: "nan/nan/nan ms, (err=0 ms)", no figure, no evidence
    "owping/owping--5.2.3-linux-c1000-sigint.txt": "owping/sigint.txt",
}


@pytest.fixture(scope="module")
def tables(tmp_path_factory):
    return import_fixtures(tmp_path_factory.mktemp("oneway"), "one-way", FILES)


def _row(notes, tool):
    rows = notes[notes["tool"] == tool]
    assert len(rows) == 1, rows
    return rows.iloc[0]


def _text(fixture: str) -> str:
    return (FX / fixture).read_text()


def test_irtt_split_adds_up_to_its_round_trip_and_clock_is_unknown(tables):
    notes = rep.one_way_notes(tables)
    text = _text(IRTT)
    # the statistics table: Min Mean Median Max Stddev
    med = {
        name: re.search(rf"{name}\s+\S+\s+\S+\s+([\d.]+)µs", text)[1]
        for name in ("RTT", "send delay", "receive delay")
    }
    assert med == {"RTT": "188", "send delay": "111", "receive delay": "77"}
    irtt = _row(notes, "irtt")
    assert (irtt["forward_us"], irtt["reverse_us"], irtt["rtt_us"]) == (111.0, 77.0, 188.0)
    assert irtt["sum_us"] == 188.0 and irtt["rtt_minus_sum_us"] == 0.0
    assert irtt["rtt_from"] == "the same probes (irtt)" and irtt["clock_sync"] == "unknown"
    assert irtt["verdict"].startswith("clock sync unknown (irtt cannot tell)")
    assert "their sum is still the round trip minus server time" in irtt["verdict"]


def test_owping_unsync_sessions_against_twpings_round_trip(tables):
    notes = rep.one_way_notes(tables)
    text = _text(OWPING)
    # both sessions: "one-way delay min/median/max = 0.0281/0.1/7.77 ms, (unsync)"
    assert re.findall(r"min/median/max = [\d.]+/([\d.]+)/[\d.]+ ms, \((unsync)\)", text) == [
        ("0.1", "unsync"),
        ("0.1", "unsync"),
    ]
    ow = _row(notes, "owping")
    assert (ow["client"], ow["server"]) == ("10.77.0.2", "10.77.0.1")
    assert (ow["forward_us"], ow["reverse_us"], ow["sum_us"]) == (100.0, 100.0, 200.0)
    assert ow["n_runs"] == 4  # two files, two sessions each; the empty session left out
    assert ow["clock_sync"] == "unsync" and np.isnan(ow["clock_error_us"])
    assert ow["verdict"].startswith("clocks not synchronized (owping printed (unsync))")
    # twping measured the same hosts: "round-trip time min/median/max = 0.0443/0.2/4.82 ms"
    assert "round-trip time min/median/max = 0.0443/0.2/4.82 ms" in _text(TWPING)
    assert (ow["rtt_us"], ow["rtt_from"]) == (200.0, "twping (1 run)")


def test_twping_halves_and_its_printed_clock_error(tables):
    tw = _row(rep.one_way_notes(tables), "twping")
    text = _text(TWPING)
    assert "send time min/median/max = 0.0281/0.1/4.1 ms, (err=4.66e-07 ms)" in text
    assert "(err=9.31e-07 ms)" in text  # the round trip's
    assert (tw["forward_us"], tw["reverse_us"], tw["rtt_us"]) == (100.0, 100.0, 200.0)
    assert tw["clock_sync"] == "sync"
    assert tw["clock_error_us"] == pytest.approx(9.31e-4)  # 9.31e-07 ms, the largest
    assert tw["verdict"].startswith("clocks synchronized within ±0.000931 µs (twping err=")


def test_iperf2_trip_times_one_direction_says_nothing_cancels(tables):
    ip = _row(rep.one_way_notes(tables), "iperf2")
    # the server's total line: mean/min/max/stdev of the one-way trip times
    assert "10.846/0.034/46.764/8.602 ms" in _text(IPERF2)
    assert ip["forward_us"] == 10846.0 and ip["stat"] == "mean"
    assert np.isnan(ip["reverse_us"]) and np.isnan(ip["sum_us"])
    assert "one direction only" in ip["note"]
    assert "with one direction nothing cancels it" in ip["verdict"]
    md = rep.one_way_markdown(rep.one_way_notes(tables))
    assert "- **irtt**, ? → 10.77.0.1: forward 111 µs, reverse 77 µs, sum 188 µs" in md


def test_no_one_way_data_is_an_empty_frame(tables):
    ping_only = tables.runs[tables.runs["tool"] == "fping"]
    notes = rep.one_way_notes(rep.subset(tables, ping_only))
    assert notes.empty and "verdict" in notes.columns
