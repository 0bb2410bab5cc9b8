"""``report._data``: helpers over a campaign's tables."""

from __future__ import annotations

import pandas as pd
import pytest

from azlatency.report._data import map_runs


@pytest.mark.parametrize(
    "mapping",
    [
        {"r1": "label a", "r2": "label b"},
        {"r1": "label a"},  # r2 and r3 unmapped: missing
        pd.Series({"r1": 1, "r2": 2, "r3": 3}),  # integers stay integers
        pd.Series({"r1": 1}),  # and become floats where a run is missing, as with map
    ],
)
@pytest.mark.parametrize("with_missing_id", [False, True])
def test_map_runs_is_a_map_of_every_row(mapping, with_missing_id):
    ids = ["r2", "r1", "r2", "r3", "r1"] + ([None] if with_missing_id else [])
    run_ids = pd.Series(ids, dtype="str", index=range(10, 10 + len(ids)), name="run_id")
    got, want = map_runs(run_ids, mapping), run_ids.map(mapping)
    pd.testing.assert_series_equal(got, want)
    assert [type(v) for v in got] == [type(v) for v in want]


def test_map_runs_values():
    run_ids = pd.Series(["b", "a", "b"], dtype="str")
    assert map_runs(run_ids, {"a": "A", "b": "B"}).tolist() == ["B", "A", "B"]
