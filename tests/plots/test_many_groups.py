"""Charts with many groups: legends that fit (the shared part of the labels said once,
outside the axes past six entries), series told apart past the palette, horizontal dot charts
for long labels, one panel per campaign, and log axes in plain numbers."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402

from azlatency import plots  # noqa: E402
from azlatency.plots._axes import common_prefix, series_style  # noqa: E402


@pytest.fixture(autouse=True)
def _close():
    yield
    plt.close("all")


def _labels(ax) -> list[str]:
    return [t.get_text() for t in ax.get_legend().get_texts()]


def test_common_prefix_is_whole_parts_and_leaves_every_label_one():
    assert common_prefix(["c · zone 1 · ping", "c · zone 2 · ping"]) == "c"
    assert common_prefix(["c · s · a", "c · s · b"]) == "c · s"
    assert common_prefix(["c · a", "c · a"]) == "c"  # never the whole label
    assert common_prefix(["c1 · a", "c2 · a"]) == ""
    assert common_prefix(["c · a"]) == ""  # one label: nothing to factor out
    assert common_prefix(["ca · x", "cb · x"]) == ""  # parts, not characters


def test_legend_says_the_shared_part_once_and_stays_off_the_data():
    ax = plt.figure().gca()
    for i in range(3):
        ax.plot([1, 2], [i, i], label=f"camp · zone {i} · sockperf")
    leg = plots.legend(ax)
    assert leg.get_title().get_text() == "camp"
    assert _labels(ax) == [f"zone {i} · sockperf" for i in range(3)]
    x0 = leg.get_bbox_to_anchor().transformed(ax.transAxes.inverted()).x0
    assert x0 == pytest.approx(1.01)  # three entries too: beside the axes, never over a point
    leg = plots.legend(ax, inside_max=6)  # a caller that knows a free corner may keep it in
    assert leg.get_bbox_to_anchor().bounds == ax.bbox.bounds
    for i in range(3, 30):
        ax.plot([1, 2], [i, i], label=f"camp · zone {i} · sockperf")
    leg = plots.legend(ax, title="series")
    assert leg.get_title().get_text() == "camp · series"
    x0 = leg.get_bbox_to_anchor().transformed(ax.transAxes.inverted()).x0
    assert x0 == pytest.approx(1.01)  # beside the axes, not over the data
    assert leg._ncols == 2  # 30 entries: columns of at most 24


def test_long_labels_wrap_and_an_empty_axes_has_no_legend():
    ax = plt.figure().gca()
    assert plots.legend(ax) is None
    long = "seed004 · Cross Region · echo_csv (latency-by-scenario.reported.csv, 2025-03-20)"
    ax.plot([1], [1], label=long)
    (text,) = _labels(ax) if plots.legend(ax) else []
    assert "\n" in text and text.replace("\n  ", " ") == long


def test_series_past_the_palette_change_line_style():
    with plots.style("report"):
        n = len(plots.PALETTE)
        styles = [series_style(i)["linestyle"] for i in range(4 * n)]
        assert styles[:n] == ["-"] * n and styles[n : 2 * n] == ["--"] * n
        df = pd.DataFrame(
            {
                "label": np.repeat([f"g{i:02d}" for i in range(20)], 5),
                "rtt_us": np.tile(np.arange(1.0, 6.0), 20),
            }
        )
        ax = plots.ecdf(df, hue="label")
        seen = {(line.get_color(), line.get_linestyle()) for line in ax.lines}
        assert len(seen) == 20  # no two groups drawn alike
        dots = pd.DataFrame(
            {
                "label": ["a"] * 9,
                "estimate": np.arange(1.0, 10.0),
                "tool": [f"t{i}" for i in range(9)],
            }
        )
        ax = plots.point_intervals(dots, hue="tool", low=None, high=None, ax=plt.figure().gca())
        assert [c.lines[0].get_marker() for c in ax.containers] == ["o"] * n + ["s"]


def test_point_intervals_lists_many_or_long_categories_down_the_left():
    df = pd.DataFrame(
        {"label": [f"campaign · scenario {i}" for i in range(12)], "estimate": np.arange(1.0, 13.0)}
    )
    ax = plots.point_intervals(df, low=None, high=None, basis="rtt")  # auto → horizontal
    # the first category at the top: largest y
    at = {t.get_position()[1]: t.get_text() for t in ax.get_yticklabels()}
    assert at == {11 - i: label for i, label in enumerate(df["label"])}
    dots = ax.containers[0].lines[0]
    assert list(dots.get_ydata()) == list(range(11, -1, -1))
    assert list(dots.get_xdata()) == list(df["estimate"])
    assert ax.get_xscale() == "log" and "RTT" in ax.get_xlabel() and ax.get_ylabel() == ""
    few = plots.point_intervals(
        df.head(3).assign(label=list("abc")), low=None, high=None, ax=plt.figure().gca()
    )
    assert [t.get_text() for t in few.get_xticklabels()] == ["a", "b", "c"]  # auto → vertical
    with pytest.raises(ValueError, match="orient"):
        plots.point_intervals(df, orient="sideways")
    assert plots.rows_height(40) > plots.rows_height(10) > plots.rows_height(1)


def test_panels_one_per_campaign_each_with_its_own_legend():
    df = pd.DataFrame(
        {
            "campaign": ["b"] * 6 + ["a"] * 4,
            "label": [f"b · s{i % 3}" for i in range(6)] + [f"a · s{i % 2}" for i in range(4)],
            "rtt_us": np.arange(1.0, 11.0),
        }
    )
    with plots.style("report"):
        fig = plots.panels(df, plots.ecdf, by="campaign", x="rtt_us")
    top, bottom = fig.axes[:2]
    assert len(fig.axes) == 2
    assert top.get_legend().get_title().get_text() == "a"  # sorted: a, then b
    assert _labels(top) == ["s0", "s1"] and _labels(bottom) == ["s0", "s1", "s2"]
    assert top.get_xlabel() == "" and "RTT" in bottom.get_xlabel()  # one x label
    assert fig.get_size_inches()[0] > plots.WIDTHS["two_column"]  # widened for the legends
    one = plots.panels(df.drop(columns="campaign"), plots.ecdf, x="rtt_us")
    assert len(one.axes) == 1
    unknown = df.assign(campaign=df["campaign"].where(df["campaign"] == "a"))
    fig = plots.panels(unknown, plots.ecdf, by="campaign", x="rtt_us")
    assert len(fig.axes) == 2 and _labels(fig.axes[1]) == ["s0", "s1", "s2"]  # nothing dropped


def test_log_axes_read_as_plain_numbers():
    ax = plt.figure().gca()
    ax.plot([40, 6000], [40, 6000])
    ax.set_yscale("log")
    plots.plain_log(ax.yaxis)
    ax.figure.canvas.draw()
    lo, hi = ax.get_ylim()
    shown = [
        t.get_text()
        for t in (*ax.get_yticklabels(), *ax.get_yticklabels(minor=True))
        if t.get_text() and lo <= t.get_position()[1] <= hi
    ]
    assert shown == ["100", "1000", "50", "200", "500", "2000", "5000"]
    ax2 = plots.percentile_spectrum(
        pd.DataFrame({"q": [0.5, 0.99], "value": [50.0, 700.0]}),
        low=None,
        high=None,
        ax=plt.figure().gca(),
    )
    ax2.figure.canvas.draw()
    assert "100" in [t.get_text() for t in ax2.get_yticklabels()]


def test_plain_log_labels_all_ticks_at_once_as_one_at_a_time():
    """matplotlib asks a formatter for all of an axis's labels at once (format_ticks), which
    measures the view once: the labels are those asked one at a time."""
    from azlatency.plots._axes import _Plain

    for top in (3.0, 9.0, 90.0, 9e5):
        ax = plt.figure().gca()
        ax.plot([1.0, top], [1.0, top])
        ax.set_yscale("log")
        plots.plain_log(ax.yaxis)
        for formatter, locs in (
            (ax.yaxis.get_minor_formatter(), ax.yaxis.get_minorticklocs()),
            (ax.yaxis.get_major_formatter(), ax.yaxis.get_majorticklocs()),
        ):
            assert isinstance(formatter, _Plain)
            each = [formatter(x, i) for i, x in enumerate(locs)]
            assert formatter.format_ticks(locs) == each
            assert any(each) == (top < 1e3 or not formatter.minor)  # 6 decades: none
        plt.close(ax.figure)


def test_a_panel_with_nothing_estimable_says_so_instead_of_failing(tmp_path):
    """The shapes' Windows campaign has spectrum rows whose every estimate is NaN (``time<1ms``
    censored): alone on a log axis matplotlib cannot draw it."""
    df = pd.DataFrame(
        {
            "campaign": ["ok"] * 2 + ["windows"] * 2,
            "label": ["ok · ping"] * 2 + ["windows · ping"] * 2,
            "q": [0.5, 0.99] * 2,
            "value": [30.0, 60.0, np.nan, np.nan],
        }
    )
    with plots.style("report"):
        fig = plots.panels(df, plots.percentile_spectrum, low=None, high=None)
        fig.savefig(tmp_path / "spectrum.png")
    ok, windows = fig.axes[:2]
    assert ok.get_yscale() == "log" and not ok.texts
    assert windows.get_yscale() == "linear"
    assert [t.get_text() for t in windows.texts] == ["no value to draw"]


def test_throughput_bars_turn_many_names_further():
    few = pd.DataFrame({"scenario": ["a", "b"], "value": [1e9, 2e9]})
    many = pd.DataFrame({"scenario": [f"zone matrix · {i}→1" for i in range(8)], "value": 1e9})
    for frame, angle in ((few, 20), (many, 45)):
        ax = plots.throughput_bars(frame, low=None, high=None, ax=plt.figure().gca())
        assert {t.get_rotation() for t in ax.get_xticklabels()} == {angle}


def test_a_panel_holds_at_most_eight_series():
    import pandas as pd

    rows = [{"label": f"pair {i:02d}", "rtt_us": v} for i in range(20) for v in (10 + i, 11 + i)]
    fig = plots.panels(pd.DataFrame(rows), plots.ecdf, by="tool", x="rtt_us")
    counts = [len(ax.get_legend_handles_labels()[0]) for ax in fig.axes]
    assert counts == [7, 7, 6]  # 20 series: three balanced panels, none over eight
    plt.close(fig)


def test_throughput_bars_go_log_when_they_span_a_decade():
    import pandas as pd

    # seed 001: ntttcp 98.39 Gbit/s on one node beside 7.91-11.82 across zones
    tp = pd.DataFrame({"where": ["node", "1-1", "1-3"], "estimate": [98.39e9, 11.82e9, 7.91e9]})
    ax = plt.figure().gca()
    plots.throughput_bars(tp, x="where", y="estimate", low=None, high=None, side=None, ax=ax)
    assert ax.get_yscale() == "log" and ax.get_ylabel().endswith("log scale")
    ax = plt.figure().gca()
    plots.throughput_bars(tp.iloc[1:], x="where", y="estimate", low=None, high=None, ax=ax)
    assert ax.get_yscale() == "linear"


def test_panels_split_a_column_as_a_filter_by_its_text_would():
    """One factorize and one take a panel (panels._split) give each panel the rows a filter
    ``data[by].astype(str) == key`` gave: values alike as text in one panel, rows without a
    value in the last, every panel's rows in their order in the frame."""
    from azlatency.plots.panels import _by_name, _chunks, _split

    df = pd.DataFrame({"by": ["x", None, "y", "x", 1, "1", "z", np.nan], "v": range(8)})
    at, names = _by_name(df["by"])
    assert names == ["1", "x", "y", "z"] and at.tolist() == [1, -1, 2, 1, 0, 0, 3, -1]
    parts = _split(df, at, [[0], [1], [2, 3], [-1]])
    assert [p["v"].tolist() for p in parts] == [[4, 5], [0, 3], [2, 6], [1, 7]]
    hue = pd.DataFrame({"label": [f"g{i % 9}" for i in range(27)], "v": range(27)})
    chunks = _chunks(hue, "label", 8)  # nine values: 5 + 4
    assert [sorted(c["label"].unique()) for c in chunks] == [
        ["g0", "g1", "g2", "g3", "g4"],
        ["g5", "g6", "g7", "g8"],
    ]
    assert chunks[0]["v"].tolist() == [v for v in range(27) if v % 9 < 5]
