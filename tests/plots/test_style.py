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


def test_the_measure_is_of_the_image_saved_not_the_figure(tmp_path):
    """A tight box grows around labels that stand out of the figure: the PNG is that wide,
    and the site shrinks it to the column.  The measure was of the figure's own 7.16 in
    (a forest plot saved 21.8 in wide passed with its labels shown at 4 pt)."""
    import json

    import matplotlib.pyplot as plt
    from PIL import Image

    from azlatency.plots._legibility import KEY, shown_scale

    with plots.style("paper"):  # no layout engine: the labels stand out of the figure
        fig, ax = plt.subplots(figsize=(7.16, 3))
        ax.barh(["a comparison named at length, " * 8, "b"], [1, 2])
        plots.save(fig, tmp_path / "f", formats=("png",))
        plt.close(fig)
    with Image.open(tmp_path / "f.png") as im:
        m, width_px = json.loads(im.text[KEY]), im.width
    assert m["width_in"] == pytest.approx(width_px / 300, abs=0.01) and m["width_in"] > 12
    assert m["shown_pt"] == pytest.approx(7 * shown_scale(m["width_in"]), abs=0.01)


def test_a_saved_figure_makes_room_for_its_labels_inside_its_width(tmp_path):
    """Labels wider than the figure leaves them: the axes narrow until the saved image is no
    wider than the site's column (9 in), which shows it at its own size."""
    import matplotlib.pyplot as plt
    from PIL import Image

    with plots.style("report"):
        fig, ax = plt.subplots(figsize=(7.16, 3))
        ax.barh(["a long label of a group · zone 1→2 · 64 B · sockperf · run 1", "b"], [1, 2])
        ax.set_title("a title centred over the axes, as long as it is")
        plots.save(fig, tmp_path / "f", formats=("png",))
        plt.close(fig)
    with Image.open(tmp_path / "f.png") as im:
        assert im.width <= 9.0 * 300


def test_narrowing_that_brings_nothing_in_is_undone(tmp_path):
    """A figure title wider than the room is carried by no axes: narrowing them leaves the
    box as wide, so the axes keep their width (three rounds had squeezed them to two thirds)."""
    import matplotlib.pyplot as plt

    with plots.style("report"):
        fig, ax = plt.subplots(figsize=(7.16, 3))
        ax.plot([1, 2], [1, 2])
        fig.suptitle("a figure title wider than the site's column, of many words " * 2)
        before = ax.get_position().bounds
        plots.save(fig, tmp_path / "f", formats=("png",))
        assert ax.get_position().bounds == pytest.approx(before)
        plt.close(fig)
