"""plots.point_intervals, plots.count_bars and the ECDF's thinning, checked through artists."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402

from azlatency import plots  # noqa: E402


@pytest.fixture(autouse=True)
def _close():
    yield
    plt.close("all")


def test_point_intervals_dots_whiskers_and_hollow_printed_values():
    df = pd.DataFrame(
        {
            "label": ["a", "b", "c"],
            "estimate": [10.0, 20.0, 40.0],
            "ci_low": [9.0, np.nan, 35.0],
            "ci_high": [12.0, np.nan, 50.0],
            "printed": [False, True, False],
        }
    )
    ax = plots.point_intervals(df, hollow="printed", basis="half_rtt")
    dots = ax.containers[0]
    assert np.allclose(dots.lines[0].get_ydata(), [10, 20, 40])
    # whiskers: a → [9, 12], b (printed, no interval) → none, c → [35, 50]
    segs = dots.lines[2][0].get_segments()
    assert [tuple(s[:, 1]) for s in segs] == [(9.0, 12.0), (20.0, 20.0), (35.0, 50.0)]
    hollow = ax.lines[-1]
    assert hollow.get_markerfacecolor() == "white" and list(hollow.get_ydata()) == [20.0]
    assert [t.get_text() for t in ax.get_xticklabels()] == ["a", "b", "c"]
    assert "half RTT" in ax.get_ylabel() and "µs" in ax.get_ylabel()
    assert ax.get_yscale() == "log"


def test_point_intervals_hue_offsets_and_requires_a_basis():
    df = pd.DataFrame({"label": ["a", "a"], "estimate": [1.0, 2.0], "tool": ["x", "y"]})
    ax = plots.point_intervals(df, hue="tool", low=None, high=None, basis="rtt")
    xs = [c.lines[0].get_xdata()[0] for c in ax.containers]
    assert xs[0] < 0 < xs[1]  # the two tools of one category side by side
    with pytest.raises(ValueError, match="basis"):
        plots.point_intervals(df, basis=None)
    ax2 = plt.figure().gca()
    plots.point_intervals(df, basis=None, ylabel="Records", ax=ax2, low=None, high=None)
    assert ax2.get_ylabel() == "Records"


@pytest.mark.parametrize("n", [2, 6, 30])
def test_point_intervals_every_series_has_its_own_look(n):
    """Open (printed) markers must not advance the colour cycle: in 40-cross-tool.png
    "ping (mean)" and "sockperf 14 B" once shared colour and marker.  Every series of up to
    4 x colours keeps a colour-and-marker pair no other series has, and its open markers and
    whiskers keep its colour."""
    rows = []
    for k in range(n):
        for cat in ("a", "b"):
            rows.append(
                {
                    "label": cat,
                    "estimate": 10.0 + k,
                    "ci_low": 9.0 + k,
                    "ci_high": 11.0 + k,
                    "series": f"s{k}",
                    "printed": cat == "b",
                }
            )
    ax = plots.point_intervals(
        pd.DataFrame(rows), hue="series", hollow="printed", basis="rtt", orient="v"
    )
    looks = []
    for c in ax.containers:
        dot = c.lines[0]
        looks.append((matplotlib.colors.to_hex(dot.get_color()), dot.get_marker()))
        whisker = c.lines[2][0]
        assert matplotlib.colors.to_hex(whisker.get_color()[0]) == looks[-1][0]
    assert len(looks) == n and len(set(looks)) == n
    opens = [ln for ln in ax.lines if ln.get_markerfacecolor() == "white"]
    assert [
        (matplotlib.colors.to_hex(ln.get_markeredgecolor()), ln.get_marker()) for ln in opens
    ] == looks


def test_count_bars_stack_per_category():
    df = pd.DataFrame(
        {"campaign": ["c1", "c1", "c2"], "tool": ["ping", "iperf3", "ping"], "runs": [2, 3, 5]}
    )
    ax = plots.count_bars(df)
    bars = {(round(p.get_y() + p.get_height() / 2), p.get_x(), p.get_width()) for p in ax.patches}
    # c1 is the top row (y = 1): ping 0..2 then iperf3 2..5; c2 (y = 0): ping 0..5
    assert bars == {(1, 0.0, 2.0), (1, 2.0, 3.0), (0, 0.0, 5.0)}
    ticks = dict(zip(ax.get_yticks(), (t.get_text() for t in ax.get_yticklabels())))
    assert ticks == {1: "c1", 0: "c2"}


def test_ecdf_thins_a_big_group_but_keeps_its_extremes():
    x = np.arange(1, 100_001, dtype=float)
    ax = plots.ccdf(pd.DataFrame({"rtt_us": x}))
    line = ax.lines[0]
    xs, ys = line.get_xdata(), line.get_ydata()
    assert len(xs) <= 4002
    assert xs[0] == 1.0 and xs[-1] == 99_999.0  # the largest value has P = 0: off a log axis
    assert np.allclose(ys, 1 - xs / 100_000)  # every drawn point is exact
    full = plots.ecdf(pd.DataFrame({"rtt_us": x[:500]}), ax=plt.figure().gca())
    assert len(full.lines[0].get_xdata()) == 500  # small groups are drawn whole


def _look(artist) -> tuple:
    """What tells a series apart to a reader: colour, line style, marker, hatch."""
    from matplotlib.colors import to_hex

    if isinstance(artist, matplotlib.patches.Patch):
        return (to_hex(artist.get_facecolor()), artist.get_hatch() or "")
    return (to_hex(artist.get_color()), str(artist.get_linestyle()), str(artist.get_marker()))


def _series_frame(n: int) -> pd.DataFrame:
    rng = np.random.default_rng(n)
    rows = []
    for k in range(n):
        for j, q in enumerate((0.5, 0.9, 0.99)):
            rows.append(
                {
                    "series": f"s{k}",
                    "rtt_us": 100.0 + k + rng.random(),
                    "q": q,
                    "value": 100.0 + 10 * j + k,
                    "ci_low": 99.0 + 10 * j + k,
                    "ci_high": 101.0 + 10 * j + k,
                    "msg_size_bytes": 2 ** (j + 4),
                    "scenario": f"c{j}",
                    "campaign": f"c{j}",
                    "runs": 1 + j,
                }
            )
    return pd.DataFrame(rows)


CHARTS = {
    "ecdf": lambda d: plots.ecdf(d, hue="series", basis="rtt").lines,
    "ccdf": lambda d: plots.ccdf(d, hue="series", basis="rtt").lines,
    "spectrum": lambda d: plots.percentile_spectrum(d, hue="series").lines,
    "latency_vs_size": lambda d: [
        c.lines[0] for c in plots.latency_vs_size(d, hue="series").containers
    ],
    "throughput_bars": lambda d: [
        c.patches[0]
        for c in plots.throughput_bars(d, hue="series").containers
        if hasattr(c, "patches")
    ],
    "count_bars": lambda d: [c.patches[0] for c in plots.count_bars(d, hue="series").containers],
}


@pytest.mark.parametrize("n", [2, 6, 30])
@pytest.mark.parametrize("chart", sorted(CHARTS))
def test_every_chart_kind_gives_each_series_its_own_look(chart, n):
    """Issue 26: however many series (up to 4 x the colour cycle), no two share colour and
    style, read off the artists each chart draws per series."""
    plt.figure()
    artists = CHARTS[chart](_series_frame(n))
    looks = [_look(a) for a in artists]
    assert len(looks) == n, (chart, len(looks))
    assert len(set(looks)) == n, (chart, looks)
