"""The look and its measure: how large a figure's text is shown on the report site."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import pytest  # noqa: E402

from azlatency import plots  # noqa: E402


def test_legibility_measures_shown_size_and_collisions():
    import matplotlib.pyplot as plt

    from azlatency.plots._legibility import legibility, shown_scale

    assert shown_scale(7.16) == pytest.approx(100 / 96)  # shown at its own size
    assert shown_scale(12.0) == pytest.approx(900 / 1200 * 100 / 96)  # shrunk to the column
    with plots.style("report"):
        fig, ax = plt.subplots(figsize=(12, 4))
        ax.barh([f"label {i}" for i in range(60)], range(60))
        m = legibility(fig)
        plt.close(fig)
    assert (m["width_in"], m["smallest_pt"]) == (12.0, 11.0)
    assert m["shown_pt"] == pytest.approx(11 * 0.75 * 100 / 96, abs=0.01)
    assert "ax 0 y: 'label 0' / 'label 1'" in m["collisions"]
    with plots.style("report"):
        fig, ax = plt.subplots(figsize=(7, 3))
        ax.barh(["a", "b", "c"], [1, 2, 3])
        m = legibility(fig)
        plt.close(fig)
    assert m["collisions"] == [] and m["shown_pt"] == pytest.approx(11.46, abs=0.01)
