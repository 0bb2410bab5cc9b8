"""Two zone pairs of one tool whose figures are of two kinds: one from its samples, the other
printed or from its histogram (real captures filed by zone pair with a path rule; each
tool's tests/fixtures/<tool>/SOURCES.md)."""

from __future__ import annotations

from tests.report._fixture_campaign import BY_PATH, answer_texts, import_fixtures

L = "lagscope/lagscope--1.0.1-linux-"
T = "twping/twping--5.2.3-linux-"


def test_a_sample_median_against_a_histogram_median_is_a_ratio_of_the_two(tmp_path):
    # lagscope's -R dump at 1→2 (its median from the samples) and its frequency table at 1→3
    # (the median from the histogram, known to its 29-30 µs bin): 'Is zone 1 to zone 3
    # slower than zone 1 to zone 2?' said '1→3 vs 1→2: not compared (lagscope): no common
    # printed statistic', though page 20 gives 106.5 µs and 30 µs
    files = {L + "n300-R-dump.csv": "1-2/a.csv", L + "n1000-P-freq-table.json": "1-3/b.json"}
    t = import_fixtures(tmp_path, "lag", files, BY_PATH)
    assert answer_texts(t, "Is zone 1 to zone 3 slower than zone 1 to zone 2?")[0] == (
        "**1→2 is 3.55× 1→3** (lagscope; median round trip; 106.5 µs vs 29–30 µs; the ratio "
        "lies between 3.55 and 3.67; figures of two kinds (1→3's from its histogram; 1→2's "
        "from its samples): their ratio, no test)."
    )


def test_a_printed_bucket_against_a_sample_median_is_bounded_by_the_bucket(tmp_path):
    # twping prints its median to its 100 µs bucket ('0.2' ms: 100-200 µs); -R's raw records
    # give 2→1's samples (116 µs): 'Is latency symmetric between zones 1 and 2?' said
    # '1→2 vs 2→1: not compared (twping): no common printed statistic'
    files = {T + "c100-clean.txt": "1-2/a.txt", T + "c30-R-loss.txt": "2-1/c.txt"}
    t = import_fixtures(tmp_path, "tw", files, BY_PATH)
    assert answer_texts(t, "Is latency symmetric between zones 1 and 2?")[0] == (
        "**1→2 and 2→1 are not told apart** (twping; median round trip; 100–200 µs vs 116 µs; "
        "the ratio lies between 0.86 and 1.72; figures of two kinds (1→2's printed; 2→1's "
        "from its samples): their ratio, no test)."
    )
