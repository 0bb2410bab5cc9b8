"""Zone pairs measured by Windows ping, which prints whole milliseconds, truncated ('time=1ms'
is 1.000-1.999 ms, 'time<1ms' below 1): a figure of such values is known only to a 1 ms step,
and a ratio of two such figures only to what the steps leave of it (real captures filed by
zone pair with a path rule; tests/fixtures/ping/SOURCES.md)."""

from __future__ import annotations

import pytest

from azlatency import report as rep
from azlatency.report._summary import _zone_lines
from tests.report._fixture_campaign import BY_PATH, answer_texts, import_fixtures

P = "ping/ping--win10-windows-"
FILES = {
    P + "en-6-ipv6-censored-transcribed.txt": "1-2/a.txt",  # time<1ms x4
    P + "es-cp850-timeout-censored-transcribed.txt": "1-2/b.txt",  # tiempo<1m
    P + "en-t-ctrl-c-transcribed.txt": "1-3/c.txt",  # time=2ms, time=1ms, time<1ms
    P + "en-truncated-transcribed.txt": "2-3/d.txt",  # time=2ms, time=1ms
}
# 1→3's median is the middle of (<1, 1, 2) ms: 1 ms printed, so 1.000-1.999 ms; 2→3's the
# mean of 1 and 2 ms printed, so 1.5-2.5 ms: 2→3 / 1→3 lies in 1.5/2 = 0.75 to 2.5/1 = 2.5
STEPS = (
    "known only to whole milliseconds (2→3's median lies in 1500–2500 µs; 1→3's median lies "
    "in 1000–2000 µs): 0.75× to 2.5× 1→3, so not told apart"
)


@pytest.fixture(scope="module")
def tables(tmp_path_factory):
    return import_fixtures(tmp_path_factory.mktemp("whole-ms"), "wms", FILES, BY_PATH)


def test_a_cell_of_whole_milliseconds_says_its_step(tables):
    m = rep.zone_pair_medians(tables).set_index(["src_zone", "dst_zone"])
    assert m.loc[("1", "3"), ["estimate", "step_us"]].tolist() == [1000.0, 1000.0]
    assert m.loc[("2", "3"), ["estimate", "step_us"]].tolist() == [1500.0, 1000.0]
    page20 = rep.zone_matrix_claims(m.reset_index(), m.iloc[:0], level=0.95, both_ways=0)
    # page 90's key findings said '..., slowest 2→3 1500 µs, 1.5× apart.'
    assert _zone_lines(m.reset_index())[0].startswith(
        "- **Zone pairs** (ping, p50 rtt): fastest 1→3 1000 µs, slowest 2→3 1500 µs, 1.5× "
        f"apart; but {STEPS}."
    )
    # was '... slowest 2→3 at 1500 µs (1.5× the fastest).'
    assert page20["text"].iloc[0] == (
        "Median rtt of ping over 2 zone pairs: fastest 1→3 at 1000 µs, slowest 2→3 at 1500 µs "
        f"(1.5× the fastest; but {STEPS})."
    )


def test_a_ratio_of_whole_milliseconds_is_not_told_apart(tables):
    # 'Is zone 2 to zone 3 slower than zone 1 to zone 3?' said '2→3 is 1.50× 1→3' unbounded,
    # and the slowest pair's head '2→3 is 1.50× the fastest, 1→3'
    _, claims = rep.campaign_answer(tables, "Is zone 1 to zone 3 slower than zone 2 to zone 3?")
    said = claims[claims["section"] == "answer"]
    assert said["text"].iloc[0] == (
        "**2→3 is 1.50× 1→3** (ping, 32 B; median round trip; 1500 µs vs 1000 µs; one run a "
        f"side: no test across runs; {STEPS})."
    )
    assert said[["estimate_low", "estimate_high"]].iloc[0].tolist() == [0.75, 2.5]
    head = answer_texts(tables, "Which zone pair is slowest?")[0]
    assert head.startswith(
        f"**The slowest zone pair, 2→3, is 1.50× the fastest, 1→3; but {STEPS}**"
    )


def test_a_contrast_of_whole_milliseconds_says_what_the_steps_leave(tmp_path):
    # page 21: the same two captures as runs with accelerated networking on (2, 1, <1 ms) and
    # off (2, 1 ms) said 'accelerated networking off is 1.50× accelerated networking on'
    yaml = (
        "rules:\n"
        '  - glob: "on/*"\n    set: {accelerated_networking: true, src_zone: 1, dst_zone: 2}\n'
        '  - glob: "off/*"\n    set: {accelerated_networking: false, src_zone: 1, dst_zone: 2}\n'
    )
    files = {
        P + "en-t-ctrl-c-transcribed.txt": "on/c.txt",
        P + "en-truncated-transcribed.txt": "off/d.txt",
    }
    t = import_fixtures(tmp_path, "an", files, yaml)
    (claim,) = rep.contrast_claims(t, factors=["accelerated_networking"], rng=0).to_dict("records")
    assert claim["text"] == (
        "**accelerated networking off is 1.50× accelerated networking on** (ping, 32 B, "
        "cross-zone; median round trip; 1500 µs vs 1000 µs; one run a side: no test across "
        "runs; known only to whole milliseconds (each side's figure lies within 1 ms above it): "
        "0.75× to 2.5×, so not told apart)."
    )


def test_a_bound_below_a_figure_says_which_is_faster(tables):
    # 1→2's replies were all 'time<1ms' (its median below 1000 µs), 1→3's median 1 ms printed
    # (1.000-1.999 ms): 'Is zone 1 to zone 2 slower than zone 1 to zone 3?' said 'no ratio'
    # and not which
    said = answer_texts(tables, "Is zone 1 to zone 2 slower than zone 1 to zone 3?")
    assert said[0] == (
        "**1→2 against 1→3: 1→2 is the faster, no ratio** (ping; 1→2 < 1000 µs, 1→3 1000 µs: "
        "a figure known only as a bound, or none)."
    )


def test_page_10_and_the_charts_say_what_the_steps_leave(tables):
    # page 10's caption said '...; fastest: zone 1→3 · ping (1000 µs), 1.5× apart', its summary
    # 'from 1000 µs ... to 1500 µs' as an order, and the zone chart's caption 'Slowest pair
    # 2→3 (1500 µs), fastest 1→3 (1000 µs)'
    head = rep.headline(rep.latency_percentiles(tables))
    assert head.set_index("label").loc["zone 2→3 · ping", ["estimate", "step_us"]].tolist() == [
        1500.0,
        1000.0,
    ]
    steps = "printed in whole milliseconds, truncated: each figure lies within 1 ms above it"
    assert rep.see_latency(head).startswith(
        "Slowest: zone 2→3 · ping (1500 µs); fastest: zone 1→3 · ping (1000 µs), 0.75× to 2.5× "
        f"apart ({steps}); 0 of 2 with an interval. Which is slowest is not known: 1500 µs (so "
        "1500–2500 µs) and zone 1→3 · ping's 1000 µs (so 1000–2000 µs) overlap."
    )
    (summary,) = rep.distribution_claims(head, level=0.95)["text"]
    assert summary.startswith(
        "**ping median, rtt:** from 1000 µs (no interval) (*zone 1→3 · ping*) to 1500 µs (no "
        "interval) (*zone 2→3 · ping*), 2 groups; 0 of 2 with a 95% interval, 0 printed by the "
        f"tool; {steps}, so which is lowest and which highest is not known. "
    )
    m = rep.zone_pair_medians(tables)
    cells = rep.matrix_frame(m, rep.asymmetry_table(tables, level=0.95, rng=0))
    assert rep.see_matrix(cells) == (
        f"Slowest pair 2→3 (1500 µs), fastest 1→3 (1000 µs); but {STEPS}."
    )


def test_whole_milliseconds_a_step_apart_are_in_order(tables):
    # 1 ms and 2 ms printed are 1.000-1.999 and 2.000-2.999 ms: the slower is known (by 1x
    # to 3x: the two may be as near as 1.999 and 2.000 ms)
    head = rep.headline(rep.latency_percentiles(tables)).dropna(subset=["estimate"])
    head = head.assign(estimate=[1000.0, 2000.0])
    said = rep.see_latency(head)
    assert "Which is" not in said and "1× to 3× apart" in said
    (summary,) = rep.distribution_claims(head, level=0.95)["text"]
    assert summary.endswith("each figure lies within 1 ms above it.")
