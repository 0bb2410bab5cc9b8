"""``stats._groups``: groups cut by position are the groups cut from the frame."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from azlatency.stats import _groups
from azlatency.stats._groups import groups

from ._frames import runs, samples


def _tables():
    """Four runs, two of them windows of one execution, one scenario missing; rows shuffled
    (the groups must come back in measurement order), a censored value and a timeout."""
    s = samples(
        {
            "r1": np.array([10.0, 11.0, 12.0]),
            "r2": np.array([20.0, 21.0]),
            "w1": np.array([30.0, 31.0]),
            "w2": np.array([40.0, 41.0, 42.0]),
        },
        status={"r2": np.array(["ok", "timeout"], dtype=object)},
    )
    s["censor_high_us"] = np.nan
    s.loc[2, ["status", "censor_high_us"]] = ["censored", 1.0]
    s.loc[s["run_id"] == "w2", "seq"] += 2  # the second window goes on with the sequence
    s = s.iloc[[7, 0, 9, 5, 2, 8, 1, 3, 6, 4]].reset_index(drop=True)
    r = runs(
        [
            {"run_id": "r1", "scenario": "a"},
            {"run_id": "r2", "scenario": "a"},
            {"run_id": "w1", "scenario": "b", "execution": "x"},
            {"run_id": "w2", "scenario": None, "execution": "x"},
        ]
    )
    return s, r


def _seen(gs):
    return [
        (g.key, g.n_runs, [list(o.series) for o in g.runs], list(g.whole.series), g.whole.bound)
        for g in gs
    ]


def test_groups_by_run_columns_are_the_frame_groups():
    s, r = _tables()
    fast = list(groups(s, r, ["scenario"], "rtt_us"))
    assert fast[0]._part is None  # cut by position
    assert _seen(fast) == _seen(_groups._frame_groups(s, r, ["scenario"], "rtt_us"))
    a, b, missing = fast
    assert (a.key, b.key) == (("a",), ("b",)) and pd.isna(missing.key[0])
    # r1's censored third value ranks below every value; r2's timeout is no observation
    assert [list(o.series) for o in a.runs] == [[10.0, 11.0, -np.inf], [20.0]]
    assert a.whole.bound == 1.0 and a.whole.n_censored == 1 and a.whole.n_excluded == 1
    assert list(a.whole.run_ids) == ["r1"] * 3 + ["r2"]
    assert list(missing.whole.run_ids) == ["exec:/x"] * 3  # a window is its execution's run


def test_one_group_of_every_run_and_runs_as_groups():
    s, r = _tables()
    (whole,) = groups(s, r, [], "rtt_us")
    assert [o.run_ids[0] for o in whole.runs] == ["exec:/x", "r1", "r2"]  # sorted ids
    # windows of one execution are one run, in sequence order across the windows
    assert list(whole.runs[0].series) == [30.0, 31.0, 40.0, 41.0, 42.0]
    by_run = list(groups(s, r, ["run_id"], "rtt_us"))
    assert [g.key for g in by_run] == [("r1",), ("r2",), ("w1",), ("w2",)]
    assert _seen(by_run) == _seen(_groups._frame_groups(s, r, ["run_id"], "rtt_us"))


@pytest.mark.parametrize("by", [["status"], ["scenario", "status"], ["status", "run_id"]])
def test_groups_by_samples_columns_are_the_frame_groups(by):
    s, r = _tables()
    fast = list(groups(s, r, by, "rtt_us"))
    assert all(g._part is None for g in fast)
    assert _seen(fast) == _seen(_groups._frame_groups(s, r, by, "rtt_us"))
    if by == ["status"]:
        assert [g.key for g in fast] == [("censored",), ("ok",), ("timeout",)]
        assert [o.run_ids[0] for o in fast[1].runs] == ["exec:/x", "r1", "r2"]


@pytest.mark.parametrize("by", [["scenario"], ["run_id"], []])
def test_missing_run_ids_take_the_frame_path(by):
    s, r = _tables()
    s.loc[0, "run_id"] = None
    gs = list(groups(s, r, by, "rtt_us"))
    assert gs and all(g._part is not None for g in gs)
    assert _seen(gs) == _seen(_groups._frame_groups(s, r, by, "rtt_us"))


def test_measurement_order_is_ordered_with_missing_values_and_ties():
    """numpy's lexsort of (missing, value) per key gives ``ordered``'s stable sort, missing
    values last, large send times exact (not through float)."""
    from azlatency.stats.common import ordered

    t0 = 1_742_464_800_123_456_789
    frame = pd.DataFrame(
        {
            "run_id": np.array([1, 0, 1, 1, 0, 1, 0]),
            "seq": pd.array([2, None, 2, 1, 0, None, 0], dtype="Int64"),
            "tx_time_ns": pd.array([t0 + 1, t0, t0, None, t0 + 2, t0, t0 + 1], dtype="Int64"),
        }
    )
    got = _groups._measurement_order(frame, frame["run_id"].to_numpy())
    assert got.tolist() == ordered(frame).index.tolist() == [6, 4, 1, 3, 2, 0, 5]
    in_order = frame.iloc[got].reset_index(drop=True).dropna()
    assert _groups._measurement_order(in_order, in_order["run_id"].to_numpy()).tolist() == [
        0,
        1,
        2,
        3,
    ]


def _runs_in_order(seed: int) -> pd.DataFrame:
    """Four runs interleaved, each in measurement order along the frame: seq non-decreasing
    with repeats, send times tied within a seq, missing ones after them."""
    rng = np.random.default_rng(seed)
    run = rng.integers(0, 4, 40)
    seq, tx = np.zeros(40, dtype=np.int64), np.zeros(40, dtype=object)
    for r in range(4):
        at = np.flatnonzero(run == r)
        seq[at] = np.cumsum(rng.integers(0, 2, len(at)))
        for k in np.unique(seq[at]):
            tie = at[seq[at] == k]
            missing = np.arange(len(tie)) >= len(tie) - rng.integers(0, 2)  # the last, or none
            tx[tie] = np.where(missing, None, 1_742_464_800_123_456_789 + k)
    return pd.DataFrame(
        {
            "run_id": run,
            "seq": pd.array(seq, dtype="Int64"),
            "tx_time_ns": pd.array(tx, dtype="Int64"),
        }
    )


@pytest.mark.parametrize("seed", range(6))
def test_measurement_order_of_runs_in_order_sorts_the_runs_alone(seed, monkeypatch):
    """Runs each in measurement order but not in the order of their ids (as the store keeps
    them): the stable sort of the runs alone is the lexsort's order, ties kept in place."""
    frame = _runs_in_order(seed)
    run = frame["run_id"].to_numpy()
    want = frame.sort_values(["run_id", "seq", "tx_time_ns"], kind="stable").index.tolist()
    assert want == np.argsort(run, kind="stable").tolist()
    with monkeypatch.context() as m:
        m.setattr(np, "lexsort", None)  # not called
        assert _groups._measurement_order(frame, run).tolist() == want


@pytest.mark.parametrize("seed", range(6))
def test_measurement_order_with_rows_out_of_order_is_the_lexsort(seed):
    frame = _runs_in_order(seed)
    run = frame["run_id"].to_numpy()
    keys = frame[["seq", "tx_time_ns"]].astype("string").fillna("-").agg(" ".join, axis=1)
    at = np.flatnonzero(run == run[0])
    later = next(i for i in at[1:] if keys[i] != keys[at[0]])
    pair = [at[0], later]
    frame.loc[pair, ["seq", "tx_time_ns"]] = frame.loc[pair[::-1], ["seq", "tx_time_ns"]].to_numpy()
    want = frame.sort_values(["run_id", "seq", "tx_time_ns"], kind="stable").index.tolist()
    assert want != np.argsort(run, kind="stable").tolist()
    assert _groups._measurement_order(frame, run).tolist() == want
