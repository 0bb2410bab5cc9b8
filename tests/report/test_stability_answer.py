"""A stability question is answered from what the runs hold: the breaks and change points of
the long sessions' timed samples (as page 30 finds them), how long the longest run is when
none is long, and each run's printed p99 against its own printed mean."""

from __future__ import annotations

import json
import re

import pandas as pd
import pytest

from azlatency.campaign import import_campaign, load
from azlatency.report._answer import _session_rows, stability_claims
from tests.conftest import RAW


def test_a_long_sessions_breaks_and_change_are_the_known_ones(synth):
    # the tiny synthetic campaign's echo session (truth.json 'echo'): 1785 probes over 30 min,
    # a level shift of -120 us at 08:18:42 UTC and one connection break; page 90 said
    # 'Nothing to say: no long run with timed samples' for any folder without printed tables
    raw, _, tables = synth
    truth = json.loads((raw / "truth.json").read_text())["echo"]
    (row,) = _session_rows(tables, min_hours=0.25)
    m = re.match(r"\*\*long run \(echo\) · echo_csv \(vm-echo-cli → vm-echo-srv\): 1 break "
                 r"\(at (\d\d:\d\d) UTC\); level change −([\d.]+) µs at (\d\d:\d\d) UTC\*\* "
                 r"\(over 30 min of timed "
                 r"samples, 1,785 of them; rtt;", row["text"])  # fmt: skip
    assert m, row["text"]
    assert m[1] == f"{pd.Timestamp(truth['break_ns'], unit='ns'):%H:%M}"
    assert float(m[2]) == pytest.approx(-truth["change_shift_us"], rel=0.1)
    assert m[3] == f"{pd.Timestamp(truth['change_ns'], unit='ns'):%H:%M}"


def test_without_a_long_run_the_answer_says_how_long_the_longest_is(synth):
    _, _, tables = synth
    texts = list(stability_claims(tables)["text"])
    assert texts[0] == (
        "**No run is long enough to tell: the longest with timed samples, echo_csv 2→1's "
        "(`echo-1.csv`), spans 25.2 min** (5 runs with timed samples; a long run spans 1 h or "
        "more, as page 30 reads one)"
    )


def test_each_printed_p99_is_set_against_its_own_runs_mean(tmp_path):
    # seed 004's table (latency-by-scenario.reported.csv): Same AZ mean 850, p99 1050 µs. The
    # sentence set 1050 against the first printed mean of the scenario, a window's 813.14 µs
    # (the last-records table): 'Same AZ 1.29×'
    import_campaign(RAW / "seed004-echo-uksouth", root=tmp_path, workers=1)
    texts = stability_claims(load("seed004-echo-uksouth", tmp_path))["text"]
    (tail,) = [x for x in texts if "p99" in x]
    assert tail == (
        "**The printed p99 is 1.24× to 1.58× the printed mean of its run** (Same AZ 1.24× "
        "(1050 µs against 850 µs); Cross Region 1.53× (8100 µs against 5300 µs); Cross AZ 1.58× "
        "(2250 µs against 1425 µs); printed values, one run each: no test)"
    )
