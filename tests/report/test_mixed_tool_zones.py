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
