"""Plots are checked through their artists (what data each line or cell holds), not pixels."""

from __future__ import annotations

import re

import matplotlib

matplotlib.use("Agg")

import matplotlib as mpl  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402

from azlatency import plots  # noqa: E402


@pytest.fixture(autouse=True)
def _close():
    yield
    plt.close("all")


def test_import_changes_no_global_settings():
    before = dict(mpl.rcParams)
    import importlib

    importlib.reload(plots)
    assert dict(mpl.rcParams) == before


def test_style_is_a_context_with_embedded_truetype():
    with plots.style("paper"):
        assert mpl.rcParams["pdf.fonttype"] == 42
        assert mpl.rcParams["axes.prop_cycle"].by_key()["color"][0] == plots.PALETTE[0]
    assert mpl.rcParams["pdf.fonttype"] != 42 or mpl.rcParamsDefault["pdf.fonttype"] == 42


def test_ecdf_steps_hold_sorted_values_and_label_states_basis():
    df = pd.DataFrame({"rtt_us": [30.0, 10.0, 20.0, np.nan], "run": ["a"] * 4})
    ax = plots.ecdf(df, x="rtt_us")
    xy = ax.lines[0].get_xydata()
    assert xy[:, 0].tolist() == [10.0, 20.0, 30.0]
    assert np.allclose(xy[:, 1], [1 / 3, 2 / 3, 1.0])
    assert "RTT" in ax.get_xlabel() and "µs" in ax.get_xlabel()


def test_ccdf_is_log_log_and_drops_the_zero_point():
    df = pd.DataFrame({"half_rtt_us": [1.0, 2.0, 3.0, 4.0]})
    ax = plots.ccdf(df, x="half_rtt_us")
    assert ax.get_xscale() == "log" and ax.get_yscale() == "log"
    assert np.allclose(ax.lines[0].get_ydata(), [0.75, 0.5, 0.25])
    assert "half RTT" in ax.get_xlabel()


def test_latency_axis_without_basis_is_refused():
    with pytest.raises(ValueError, match="basis"):
        plots.ecdf(pd.DataFrame({"latency": [1.0]}), x="latency")


def test_percentile_spectrum_uses_nines_and_draws_bands():
    df = pd.DataFrame(
        {
            "q": [0.5, 0.99, 0.999],
            "value": [10.0, 20.0, 50.0],
            "ci_low": [9.0, 18.0, np.nan],
            "ci_high": [11.0, 23.0, np.nan],
        }
    )
    ax = plots.percentile_spectrum(df, basis="half_rtt")
    assert np.allclose(ax.lines[0].get_xdata(), [np.log10(2), 2.0, 3.0])
    assert [t.get_text() for t in ax.get_xticklabels()][:4] == ["50", "90", "99", "99.9"]
    assert len(ax.collections) == 1  # the interval band
    assert "half RTT" in ax.get_ylabel()


def test_zone_matrix_cells_hold_values_intervals_and_marks():
    df = pd.DataFrame(
        {
            "src_zone": ["1", "1", "3"],
            "dst_zone": ["1", "3", "1"],
            "value": [40.0, 700.0, 650.0],
            "ci_low": [39.0, 690.0, 640.0],
            "ci_high": [41.0, 710.0, 660.0],
            "asym": [False, True, True],
        }
    )
    fig, ax = plt.subplots()
    plots.zone_matrix(df, asymmetric="asym", ax=ax)
    arr = ax.images[0].get_array()
    assert np.isclose(arr[0, 1], 700.0) and np.ma.is_masked(arr[1, 1])
    assert ax.images[0].norm.vmin == 40.0 and ax.images[0].norm.vmax == 700.0  # log scale
    texts = [t.get_text() for t in ax.texts]
    assert "700\n[690, 710] †" in texts and "n/a" in texts
    assert "Median" in fig.axes[1].get_ylabel() and "RTT" in fig.axes[1].get_ylabel()


def test_zone_matrix_of_loss_names_its_statistic_and_keeps_zero_cells():
    # a loss matrix (issue 40): 0 % is a value, not a blank cell, on a linear colour scale
    df = pd.DataFrame({"src_zone": ["1", "1"], "dst_zone": ["2", "3"], "value": [0.0, 23.33]})
    fig, ax = plt.subplots()
    plots.zone_matrix(df, low=None, high=None, label="loss [%]", log_color=False, ax=ax)
    arr = ax.images[0].get_array()
    assert arr[0, 1] == 0.0 and not np.ma.is_masked(arr[0, 1])
    assert fig.axes[1].get_ylabel() == "loss [%]"
    assert {"0", "23.33"} <= {t.get_text() for t in ax.texts}


def test_forest_rows_follow_comparisons():
    df = pd.DataFrame(
        {
            "comparison": ["AZ vs AS", "PPG vs none"],
            "estimate": [1.7, 1.0],
            "ci_low": [1.6, 0.9],
            "ci_high": [1.8, 1.1],
            "p_adjusted": [1e-6, 0.5],
        }
    )
    ax = plots.forest(df)
    xy = ax.lines[0].get_xydata()
    assert xy[:, 0].tolist() == [1.7, 1.0] and xy[:, 1].tolist() == [1, 0]
    assert [t.get_text() for t in ax.texts] == ["p<1e-4", "p=0.5"]


def test_throughput_bars_scale_to_gbit():
    df = pd.DataFrame(
        {
            "scenario": ["a", "b"],
            "value": [25.7e9, 7.91e9],
            "ci_low": [25e9, 7.5e9],
            "ci_high": [26e9, 8e9],
        }
    )
    ax = plots.throughput_bars(df)
    assert [round(p.get_height(), 2) for p in ax.patches] == [25.7, 7.91]
    assert "Gbit/s" in ax.get_ylabel()


def test_timeseries_marks_breaks_and_change_points():
    t0 = 1_742_464_000_000_000_000
    df = pd.DataFrame(
        {
            "time_ns": pd.array([t0 + i * 10**9 for i in range(5)], dtype="Int64"),
            "rtt_us": [800.0, 810.0, 790.0, 900.0, 905.0],
        }
    )
    ax = plots.timeseries(df, change_points=[t0 + 3 * 10**9], breaks=[t0 + 4 * 10**9])
    labels = [ln.get_label() for ln in ax.lines]
    assert "change point" in labels and "connection break" in labels
    assert ax.lines[0].get_ydata().tolist() == [800.0, 810.0, 790.0, 900.0, 905.0]


def test_save_writes_three_formats_with_embedded_truetype(tmp_path):
    with plots.style("paper"):
        fig, ax = plt.subplots()
        ax.plot([1, 2], [1, 2])
        ax.set_xlabel("Latency, RTT (µs)")
        paths = plots.save(fig, tmp_path / "fig" / "x")
    assert sorted(p.suffix for p in paths) == [".pdf", ".png", ".svg"]
    pdf = (tmp_path / "fig" / "x.pdf").read_bytes()
    assert b"/FontFile2" in pdf  # TrueType embedded (pdf.fonttype 42), not Type 3
    from PIL import Image

    assert Image.open(tmp_path / "fig" / "x.png").info["dpi"][0] == pytest.approx(300, abs=1)


def test_svg_ids_do_not_hang_on_a_layout_far_below_a_drawn_digit(tmp_path):
    """matplotlib names a clip path by a hash of its box at full precision: two runs of one
    report page once laid an axes out 1e-13 apart, and every clip path of its SVG was renamed.
    The ids are numbered in order instead; what is drawn is the same."""
    fig, ax = plt.subplots()
    ax.plot([1, 2], [1, 2], marker="o")
    ax.set_position([0.125, 0.11, 0.775, 0.77])
    plots.save(fig, tmp_path / "a", formats=("svg",))
    ax.set_position([0.125 + 1e-13, 0.11, 0.775, 0.77])
    plots.save(fig, tmp_path / "b", formats=("svg",))
    a, b = (tmp_path / "a.svg").read_bytes(), (tmp_path / "b.svg").read_bytes()
    assert a == b
    assert b'<clipPath id="p0000000001">' in a and b"url(#p0000000001)" in a
    assert b'id="m0000000001"' in a and b'xlink:href="#m0000000001"' in a
    # the hashed names are gone, each reference renamed with its definition
    assert not re.search(rb'(?:id="|#)[mp](?!\d{10})[0-9a-f]{10}', a)


def test_save_is_reproducible(tmp_path):
    fig, ax = plt.subplots()
    ax.plot([1, 2], [1, 2])
    plots.save(fig, tmp_path / "a", formats=("pdf", "svg"))
    plots.save(fig, tmp_path / "b", formats=("pdf", "svg"))
    assert (tmp_path / "a.svg").read_bytes() == (tmp_path / "b.svg").read_bytes()
    assert (tmp_path / "a.pdf").read_bytes() == (tmp_path / "b.pdf").read_bytes()


def test_save_lays_a_figure_out_once_and_keeps_its_layout_engine(tmp_path):
    """plots.save runs the layout once for every format (the engine is off while it writes,
    then back): the PNG is what savefig with the tight box alone writes, to the pixel or one,
    and the figure can still change and be saved again."""
    from PIL import Image

    with plots.style("report"):
        fig, axes = plt.subplots(1, 2, layout="constrained")
        for ax in axes:
            ax.plot([1, 10, 100], [3, 2, 1])
            ax.set_xscale("log")
            ax.set_xlabel("Latency, RTT (µs)")
        engine = fig.get_layout_engine()
        plots.save(fig, tmp_path / "once", formats=("svg", "png"))
        assert fig.get_layout_engine() is engine
        fig.savefig(tmp_path / "plain.png", dpi=300)  # matplotlib's own layout and tight box
    once = Image.open(tmp_path / "once.png").size
    plain = Image.open(tmp_path / "plain.png").size
    assert abs(once[0] - plain[0]) <= 1 and abs(once[1] - plain[1]) <= 1
    assert (tmp_path / "once.svg").stat().st_size > 0


def test_render_hands_back_the_pixels_it_wrote_as_matplotlib_draws_them(tmp_path):
    """plots.render draws the PNG once to raw pixels and writes them itself (opaque: RGB; the
    legibility text and 300 dpi kept); they are the pixels matplotlib's own PNG has."""
    import numpy as np
    from PIL import Image

    from azlatency.plots import _legibility, _style

    with plots.style("report"):
        fig, ax = plt.subplots(layout="constrained")
        ax.plot([1, 10, 100], [3, 2, 1])
        ax.set_xlabel("Latency, RTT (µs)")
        saved = plots.render(fig, tmp_path / "r", formats=("png",))
        with _style._laid_out(fig) as box:  # the same layout and box, matplotlib's PNG
            fig.savefig(tmp_path / "mpl.png", dpi=300, bbox_inches=box)
    assert saved.paths == [tmp_path / "r.png"]
    with Image.open(tmp_path / "r.png") as png, Image.open(tmp_path / "mpl.png") as ref:
        assert png.mode == "RGB" and png.info["dpi"][0] == pytest.approx(300, abs=1)
        assert _legibility.KEY in png.info and png.info["Software"] == "azlatency"
        ours = np.asarray(png)
        assert np.array_equal(ours, np.asarray(saved.image.convert("RGB")))
        assert np.array_equal(ours, np.asarray(ref.convert("RGB")))
    svg = plots.render(fig, tmp_path / "t", formats=("svg",))
    assert svg.image is None and svg.paths == [tmp_path / "t.svg"]


def test_forest_wraps_long_labels_and_gives_each_row_room_for_its_lines():
    long = "cross-zone / same zone (sockperf, 64 B, D4s_v5, AN on) · 1→2 · zone matrix"
    df = pd.DataFrame(
        {
            "comparison": [long, "AZ vs AS", long],
            "estimate": [3.0, 1.7, 2.5],
            "ci_low": [2.9, 1.6, 2.4],
            "ci_high": [3.1, 1.8, 2.6],
            "p_adjusted": [1e-6, 0.5, 0.01],
        }
    )
    ax = plots.forest(df, wrap=40)
    ticks = [t.get_text() for t in ax.get_yticklabels()]
    assert ticks[0] == "cross-zone / same zone (sockperf, 64 B,\nD4s_v5, AN on) · 1→2 · zone matrix"
    assert ticks[1] == "AZ vs AS" and all(len(x) <= 40 for t in ticks for x in t.split("\n"))
    # bottom row at 0; a row of two lines is 1.5 rows high: centres 0, 1.25, 2.5
    assert ax.lines[0].get_xydata()[:, 1].tolist() == [2.5, 1.25, 0.0]
    assert plots.forest_height(df["comparison"], wrap=40) == pytest.approx(1.4 + 0.32 * 4)
    assert plots.forest_height(df["comparison"]) == pytest.approx(1.4 + 0.32 * 3)
