"""azlatency.units: rtt = 2 × half_rtt, explicit, on samples and summaries, never mixed."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from azlatency import schema
from azlatency.units import BasisError, basis_column, to_half_rtt, to_rtt
from tests.stats import _frames


def _summaries():
    # seed 001, "AZ1 - AZ1" sockperf (line 226): avg-latency=37.645 (std-dev=17.405, ...,
    # cv=0.462, ..., 99.0% ci=[37.519, 37.771]); line 229: Total 126665 observations.
    rows = [
        ("mean", 37.645, "us"),
        ("std", 17.405, "us"),
        ("cv", 0.462, "ratio"),
        ("count", 126665, "count"),
        ("ci_low", 37.519, "us"),
        ("ci_high", 37.771, "us"),
    ]
    return schema.frame(
        "summaries",
        [
            {
                "run_id": "r",
                "metric": "half_rtt",
                "stat": s,
                "value": v,
                "unit": u,
                "source": "reported",
                "level": 0.99 if s.startswith("ci") else None,
            }
            for s, v, u in rows
        ]
        + [
            {
                "run_id": "r",
                "metric": "throughput",
                "stat": "mean",
                "value": 11.8e9,
                "unit": "bps",
                "source": "reported",
            }
        ],
    )


def test_summaries_scale_times_and_keep_scale_free_stats():
    out = to_rtt(_summaries())
    got = dict(zip(out["stat"] + "/" + out["metric"], out["value"]))
    assert got["mean/rtt"] == pytest.approx(75.29)
    assert got["std/rtt"] == pytest.approx(34.81)
    assert got["ci_low/rtt"] == pytest.approx(75.038)
    assert got["cv/rtt"] == pytest.approx(0.462)  # a ratio does not scale
    assert got["count/rtt"] == 126665
    assert got["mean/throughput"] == 11.8e9  # other metrics untouched
    assert "half_rtt" not in set(out["metric"])
    schema.validate("summaries", out)


def test_round_trip_restores_the_input():
    s = _summaries()
    back = to_half_rtt(to_rtt(s))
    pd.testing.assert_frame_equal(back, s)


def test_samples_get_one_latency_column():
    s = _frames.samples({"a": np.array([10.0, 20.0])}, column="half_rtt_us")
    s2 = _frames.samples({"b": np.array([50.0])})
    both = schema.frame("samples", pd.concat([s, s2], ignore_index=True))
    out = to_rtt(both)
    assert "half_rtt_us" not in out.columns
    assert out["rtt_us"].tolist() == [20.0, 40.0, 50.0]
    half = to_half_rtt(out)
    assert half["half_rtt_us"].tolist() == [10.0, 20.0, 25.0]
    assert "rtt_us" not in half.columns


def test_censored_bound_follows_the_run_basis():
    s = schema.frame(
        "samples",
        {
            "run_id": ["w", "w", "h"],
            "seq": [0, 1, 0],
            "kind": "reply",
            "status": ["censored", "ok", "censored"],
            "rtt_us": [np.nan, 2000.0, np.nan],
            "censor_high_us": [1000.0, np.nan, 500.0],
        },
    )
    runs = _frames.runs(
        [{"run_id": "w", "latency_basis": "rtt"}, {"run_id": "h", "latency_basis": "half_rtt"}]
    )
    out = to_rtt(s, runs)
    assert out["censor_high_us"].tolist()[0] == 1000.0
    assert out["censor_high_us"].tolist()[2] == 1000.0  # half_rtt bound 500 → rtt 1000
    with pytest.raises(BasisError, match="pass runs="):
        to_rtt(s.assign(half_rtt_us=np.nan))  # run h has only censored rows: basis unknown


def test_disagreeing_columns_and_runs_frames_are_refused():
    s = schema.frame(
        "samples",
        {
            "run_id": ["x"],
            "seq": [0],
            "kind": "packet",
            "status": "ok",
            "rtt_us": [10.0],
            "half_rtt_us": [6.0],
        },
    )
    with pytest.raises(BasisError, match="disagree"):
        to_rtt(s)
    with pytest.raises(BasisError, match="runs frame"):
        to_rtt(_frames.runs([{"run_id": "x"}]))
    assert basis_column("one_way") == "one_way_us"  # a basis of its own since a1b91c2
    with pytest.raises(BasisError, match="must be one of"):
        basis_column("round_trip")
