"""A campaign of irtt, lagscope and PsPing runs filed by zone pair (tests/fixtures, a path
rule): a histogram's coarse bins beside the tool's own percentiles, and a question of loss
and of latency at once."""

from __future__ import annotations

import pytest

from azlatency import report as rep
from tests.report._fixture_campaign import BY_PATH, answer_texts, import_fixtures

FILES = {
    "irtt/irtt--0.9.0-linux-i20ms-d2s-clean.txt": "1-3/irtt.txt",
    "irtt/irtt--0.9.0-linux-q-i10ms-d2s-loss.txt": "3-1/irtt.txt",
    "lagscope/lagscope--1.0.1-linux-n5000-P-percentiles.txt": "1-2/lag.txt",
    "lagscope/lagscope--1.0.1-linux-n3000-P-H.txt": "2-1/lag.txt",
    "psping/psping--2.10-windows-l1500-n300-h10-tcp-latency--kelvin-blog.txt": "2-3/psping.txt",
}


@pytest.fixture(scope="module")
def tables(tmp_path_factory):
    return import_fixtures(tmp_path_factory.mktemp("mixed"), "mixed", FILES, BY_PATH)


def test_a_printed_percentile_inside_its_bin_is_the_figure(tables):
    # lagscope -P -H: '50% 22' and 100 µs bins (2,819 of 3,000 in the first); the median was
    # the bin's top edge, '100 µs (95% CI 0–100)', 3.3× 1→2's printed 30 µs
    head = rep.headline(rep.latency_percentiles(tables)).set_index("label")
    row = head.loc["zone 2→1 · lagscope"]
    assert (row["estimate"], row["ci_low"], row["ci_high"]) == (22, 0, 100)
    assert (row["bound_low"], row["bound_high"]) == (22, 23)  # as printed: whole µs
    assert row["note"].startswith("printed by the tool, inside its bin")
    said = rep.distribution_claims(head.reset_index(), level=0.95)["text"]
    assert said.str.startswith("**lagscope median, rtt:** from 22 µs (95% CI 0–100)").any()
    # a bin from 0 on the chart's caption: the ratio's far end is unbounded, not a crash
    assert "apart" in rep.see_latency(head.reset_index())


def test_a_question_of_loss_and_of_latency_answers_both(tables):
    said = answer_texts(
        tables,
        "Is there packet loss from zone 3 to zone 1, and is zone 1 to zone 3 slower than "
        "zone 1 to zone 2?",
    )
    # irtt -q: 'packets sent/received: 200/162 (19.00% loss)'
    assert said[0].startswith("**By irtt, 3→1 lost 19 % of 200 probes**")
    assert said[1] == (
        "**1→3 against 1→2: not compared** (1→3 by irtt (188 µs); 1→2 by lagscope (30 µs); no "
        "tool measured both; two tools' figures are not set side by side)."
    )


def test_a_ratio_of_bin_tops_says_what_the_bins_allow(tmp_path):
    # 2→1 by two lagscope runs whose 100 µs bins merge (one printed '50% 22', the other, -H
    # with 10 µs bins from 40, printed no percentile): its median is known only to 0–100 µs,
    # and 'The slowest zone pair, 2→1, is 3.33× the fastest, 1→2' (30 µs) was said of the
    # bin's top edge; '1→2 is 1.30× to 1.41× 2→1' left the second run out unsaid
    files = {
        "lagscope/lagscope--1.0.1-linux-n3000-P-H.txt": "2-1/a.txt",
        "lagscope/lagscope--1.0.1-linux-n2000-H-a40-l10-c12-histogram.txt": "2-1/b.txt",
        "lagscope/lagscope--1.0.1-linux-n5000-P-percentiles.txt": "1-2/lag.txt",
    }
    t = import_fixtures(tmp_path, "bins", files, BY_PATH)
    m = rep.zone_pair_medians(t)
    assert rep.zone_matrix_claims(m, m.iloc[:0], level=0.95, both_ways=0)["text"][0] == (
        "Median rtt of lagscope over 2 zone pairs: fastest 1→2 at 30 µs, slowest 2→1 at 100 µs "
        "(3.33× the fastest; but known only to bins (2→1's median lies in 0–100 µs): up to "
        "3.33× 1→2, so not told apart)."
    )
    slowest = rep.campaign_answer(t, "Which zone pair is slowest?", level=0.95, rng=0)[1]
    assert slowest["text"][0].startswith(
        "**The slowest zone pair, 2→1, is 3.33× the fastest, 1→2; but known only to bins "
        "(2→1's median lies in 0–100 µs): up to 3.33× 1→2, so not told apart**"
    )
    assert (slowest["estimate_low"][0], slowest["estimate_high"][0]) == (0, 100 / 30)
    said = answer_texts(t, "Is zone 2 to zone 1 slower than zone 1 to zone 2?")
    assert said[0] == (
        "**1→2 is 1.30× to 1.41× 2→1** (lagscope; median round trip; 30 µs vs 22 µs; bounds "
        "from published ranges, not an interval; `b.txt` printed no median: not in its side's "
        "figure)."
    )
