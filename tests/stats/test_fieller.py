"""Fieller's interval of a ratio of printed means (``stats.ratio_of_printed_means``), checked
by simulation against known truth: ping's 20-packet summaries (seed 000) are the use case."""

from __future__ import annotations

import numpy as np
import pytest

from azlatency.stats import ratio_of_printed_means


def _coverage(draw, truth: float, n: int, reps: int, rng) -> float:
    hit = 0
    for _ in range(reps):
        a, b = draw(rng, n, "a"), draw(rng, n, "b")
        r = ratio_of_printed_means(
            a.mean(), a.std(ddof=1), n, b.mean(), b.std(ddof=1), n, level=0.95
        )
        hit += bool(r["estimable"] and r["ci_low"] <= truth <= r["ci_high"])
    return hit / reps


def test_normal_packets_are_covered_at_the_nominal_rate():
    rng = np.random.default_rng(7)

    def draw(rng, n, side):  # means 1900 and 970 µs, sds 2500 and 300 (seed 000's ping)
        return rng.normal(1900.0, 900.0, n) if side == "a" else rng.normal(970.0, 300.0, n)

    cover = _coverage(draw, 1900 / 970, 20, 2000, rng)
    assert 0.93 <= cover <= 0.97  # 2000 draws: ±1 % is one standard error


def test_seed000_ping_gives_an_interval_that_holds_one():
    # zones/ping.log avg 0.969 ms mdev 0.299; avset/ping.log avg 1.902 ms mdev 2.507; 20 each
    r = ratio_of_printed_means(1902, 2507, 20, 969, 299, 20)
    assert r["estimate"] == pytest.approx(1902 / 969)
    assert r["ci_low"] < 1 < r["ci_high"]
    assert (r["ci_low"], r["ci_high"]) == (
        pytest.approx(0.7494, abs=1e-4),
        pytest.approx(3.2595, abs=1e-4),
    )


def test_a_reference_mean_whose_interval_reaches_zero_is_not_estimable():
    r = ratio_of_printed_means(100, 10, 5, 2, 10, 5)
    assert not r["estimable"] and "reaches 0" in r["note"] and np.isnan(r["ci_low"])
