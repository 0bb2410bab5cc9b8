"""A dot chart's rows without a value say what is known of them: a censored median (every
Windows reply ``time<1ms``) is below 1000 µs, not a blank row."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402

from azlatency import plots  # noqa: E402

NAN = np.nan


@pytest.fixture(autouse=True)
def _close():
    yield
    plt.close("all")


def _rows() -> pd.DataFrame:
    # label, estimate, ci_low, ci_high, bound_low, bound_high
    return pd.DataFrame(
        [
            ("sockperf", 52.0, 51.0, 53.0, NAN, NAN),
            ("windows ping", NAN, NAN, NAN, 0.0, 1000.0),  # the headline's censored median
            ("at least", NAN, NAN, NAN, 300.0, NAN),
            ("between", NAN, NAN, NAN, 100.0, 400.0),
            ("nothing", NAN, NAN, NAN, NAN, NAN),
        ],
        columns=["label", "estimate", "ci_low", "ci_high", "bound_low", "bound_high"],
    )


def _texts(ax) -> list[str]:
    return [t.get_text() for t in ax.texts]


@pytest.mark.parametrize("orient", ["h", "v"])
def test_a_row_without_value_shows_its_bound_or_says_no_value(orient):
    ax = plots.point_intervals(_rows(), orient=orient, ax=plt.figure().gca())
    assert _texts(ax) == ["< 1000", "> 300", "100–400", "no value"]
    values = 0 if orient == "h" else 1  # the value axis's column of a line's data
    carets = [
        (ln.get_marker(), ln.get_data()[values].tolist())
        for ln in ax.lines
        if ln.get_gid() == "bound"
    ]
    if orient == "h":  # below points left, along the values
        assert carets == [("<", [1000.0]), (">", [300.0]), ("|", [100.0, 400.0])]
    else:
        assert carets == [("v", [1000.0]), ("^", [300.0]), ("_", [100.0, 400.0])]
    lo, hi = ax.get_xlim() if orient == "h" else ax.get_ylim()
    assert lo < 52 and hi > 1000  # the bounds are within the drawn range
    assert (ax.get_xscale() if orient == "h" else ax.get_yscale()) == "log"


def test_rows_with_values_draw_nothing_more():
    ax = plots.point_intervals(_rows().head(1), orient="h", ax=plt.figure().gca())
    assert _texts(ax) == []


def test_without_bound_columns_a_missing_value_says_so():
    rows = _rows()[["label", "estimate", "ci_low", "ci_high"]]
    ax = plots.point_intervals(rows, orient="h", ax=plt.figure().gca())
    assert _texts(ax) == ["no value"] * 4


@pytest.mark.parametrize("orient", ["h", "v"])
def test_a_value_given_only_as_a_range_is_drawn_with_its_range(orient):
    """Seed 002's write-up: 'the 3 tests are a bit lower at 54 to 57 usec', kept as 57 with
    bounds 54 and 57; its dot stood at 57 with nothing to say the author gave a range."""
    rows = pd.DataFrame(
        [
            ("ppg", 57.0, NAN, NAN, 54.0, 57.0),
            ("same zone", 61.09, NAN, NAN, 55.0, 61.09),
            ("cross-zone", 1364.43, NAN, NAN, NAN, NAN),
            ("tested", 52.0, 51.0, 53.0, 50.0, 60.0),  # an interval: no range drawn beside it
        ],
        columns=["label", "estimate", "ci_low", "ci_high", "bound_low", "bound_high"],
    )
    ax = plots.point_intervals(rows, orient=orient, ax=plt.figure().gca())
    assert _texts(ax) == ["54–57", "55–61.09"]
    values = 0 if orient == "h" else 1
    bars = [ln.get_data()[values].tolist() for ln in ax.lines if ln.get_gid() == "bound"]
    assert bars == [[54.0, 57.0], [55.0, 61.09]]
