"""Showing a figure on a page: the inline image is the saved PNG's pixels, reduced."""

from __future__ import annotations

import io

import numpy as np
import pytest
from PIL import Image

from azlatency import report as rep
from azlatency.campaign import import_campaign
from azlatency.report import _show, _summary
from tests.conftest import ROOT


def test_the_inline_image_is_the_png_reduced_to_the_figure_dpi():
    rng = np.random.default_rng(3)
    big = Image.fromarray(rng.integers(0, 256, size=(90, 120, 3), dtype=np.uint8))
    shown = _show._inline(big, 3.0)
    with Image.open(io.BytesIO(shown.data)) as im:
        assert (im.mode, im.size) == ("RGB", (40, 30))
        assert np.array_equal(np.asarray(im), np.asarray(big.reduce(3)))
    opaque = Image.fromarray(np.full((9, 12, 4), 200, np.uint8)).convert("RGBA")
    opaque.putalpha(255)
    with Image.open(io.BytesIO(_show._inline(opaque, 3.0).data)) as im:
        assert im.mode == "RGB"  # opaque: no alpha on the page


@pytest.fixture(scope="module")
def seed002(tmp_path_factory):
    root = tmp_path_factory.mktemp("seed002")
    import_campaign(ROOT / "data" / "raw" / "seed002-ppg-latte", root=root / "processed", workers=1)
    return rep.headline(rep.latency_percentiles(rep.load_campaigns("seed002-ppg-latte", root)))


def test_a_published_range_is_shown_as_the_range_not_its_high_end(seed002):
    """Seed 002's write-up gives two of its groups only as ranges ('55 to 61.09 usecs', 'the
    3 tests are a bit lower at 54 to 57 usec': README.md, blog-comparison.reported.csv).
    Pages 10 and 90 called the second '57 µs (printed by the tool, no interval)', the
    fastest group: a value the author never gave, and a fastest the ranges do not tell."""
    ppg = seed002[seed002["label"].str.contains("and PPG")].iloc[0]
    assert (ppg["estimate"], ppg["bound_low"], ppg["bound_high"]) == (57.0, 54.0, 57.0)
    assert _show.fmt_value(ppg) == "54–57 µs"
    assert _show.fmt_interval(ppg) == "54–57 µs (a published range, no interval)"
    said = rep.see_latency(seed002)
    assert (
        "fastest: D4s_v3 same zone with accelerated networking and PPG · latte (54–57 µs), " in said
    )
    assert "37.4× to 39.5× apart" in said  # 2131 µs over 57, and over 54
    assert said.endswith(
        "Which is fastest is not known: 54–57 µs and D4s_v3 same zone with accelerated "
        "networking · latte's 55–61.09 µs overlap."
    )
    lines = _summary._latency_lines(seed002)
    assert lines == [
        "- **Latency (rtt), latte mean:** from 54–57 µs (*D4s_v3 same zone with accelerated "
        "networking and PPG*) to 2131 µs (*B1s cross-zone*), 9 groups (printed by the tool, "
        "no intervals)."
    ]


def test_values_without_a_range_read_as_before(seed002):
    point = seed002[seed002["label"] == "D2s_v3 cross-zone · latte"].iloc[0]
    assert _show.fmt_value(point) == "1546 µs"
    assert _show.fmt_interval(point) == "1546 µs (printed by the tool, no interval)"


def test_a_throughput_chart_says_why_its_bars_lack_whiskers(tmp_path):
    """Seed 001: ntttcp and qperf print one number a run, iperf3's 10 one-second intervals are
    too few to rule out their correlation. The chart's title said whiskers are missing only
    'for one printed number'; the caption now counts both reasons."""
    import_campaign(
        ROOT / "data" / "raw" / "seed001-aks-azure-cni", root=tmp_path / "processed", workers=1
    )
    tp = rep.throughput_table(rep.load_campaigns("seed001-aks-azure-cni", tmp_path))
    said = rep.see_throughput(tp)
    assert said.endswith(
        " 2 of 15 with an interval; without: 10 printed, 3 from rates that cannot give one "
        "(page 22's `note` says why)."
    )
    bare = tp[tp["ci_low"].isna() & tp["source"].ne("reported")]
    assert set(bare["tool"]) == {"iperf3"} and bare["note"].str.contains("too short").all()
