"""Serial dependence: Ljung-Box on ranks, batch-means long-run variance, effective sizes."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from azlatency.stats import dependence as dep
from tests.stats import _frames


def test_rank_autocorrelation_and_ljung_box_by_hand():
    x = np.random.default_rng(0).lognormal(size=500)
    r = stats.rankdata(x) - stats.rankdata(x).mean()
    rho1 = (r[:-1] @ r[1:]) / (r @ r)
    assert dep.rank_acf(x, 3)[0] == pytest.approx(rho1)
    rho = dep.rank_acf(x, 10)
    q = 500 * 502 * np.sum(rho**2 / (500 - np.arange(1, 11)))
    got_q, p, acf1 = dep.ljung_box(x)
    assert got_q == pytest.approx(q) and p == pytest.approx(stats.chi2.sf(q, 10))
    assert acf1 == pytest.approx(rho1)


def test_detection_rate_is_near_alpha_for_independent_data():
    rng = np.random.default_rng(1)
    hits = [dep.assess(rng.lognormal(size=1000)).detected for _ in range(300)]
    assert np.mean(hits) < 0.04  # alpha = 0.01
    assert dep.assess(_frames.ar1_lognormal(1000, 0.3, rng)).detected
    assert np.isnan(dep.assess(np.ones(10)).p_value)


def test_long_run_variance_of_ar1_matches_theory():
    rng = np.random.default_rng(2)
    phi = 0.6
    z = np.log(_frames.ar1_lognormal(200_000, phi, rng, mu=0.0, sigma=1.0))
    theory = (1 + phi) / (1 - phi)  # unit marginal variance
    assert dep.long_run_variance(z, 100) == pytest.approx(theory, rel=0.15)
    assert dep.mean_n_eff(z, 100) == pytest.approx(len(z) / theory, rel=0.15)


def test_effective_size_is_n_for_independent_data_and_never_more():
    x = np.random.default_rng(3).normal(size=20_000)
    qs = np.array([0.5, 0.99])
    ne = dep.quantile_n_eff(x, np.quantile(x, qs), qs, dep.n_batches(len(x)))
    assert (ne <= 20_000).all() and (ne > 0.8 * 20_000).all()
    assert dep.n_batches(500) == 20 and dep.n_batches(5_000) == 50
    assert dep.n_batches(10**6) == 100
    assert dep.t_shrink(20, 0.95) == pytest.approx((1.959964 / 2.093024) ** 2, rel=1e-5)


@pytest.mark.parametrize("decimals", [0, 1, 3])
def test_centred_ranks_are_scipys_average_ranks(decimals):
    """Ties (rounded values, censored -inf) get their average rank, as rankdata's."""
    rng = np.random.default_rng(4)
    x = np.round(_frames.ar1_lognormal(5001, 0.5, rng), decimals)
    x[rng.random(len(x)) < 0.03] = -np.inf
    want = stats.rankdata(x)
    np.testing.assert_array_equal(dep.centred_ranks(x), want - want.mean())
    assert dep.centred_ranks(np.array([])).size == 0


@pytest.mark.parametrize("n", [50, 997, 20_011])  # a prime length: Bluestein's path before
@pytest.mark.parametrize("phi", [0.3, 0.8, 0.97])  # window within the direct lags, or FFT's
def test_integrated_time_is_the_direct_sum_over_sokals_window(n, phi):
    rng = np.random.default_rng(5)
    x = _frames.ar1_lognormal(n, phi, rng)
    r = dep.centred_ranks(x)
    acf = np.array([r[: n - k] @ r[k:] for k in range(n // 2)]) / (r @ r)
    taus = 2 * np.cumsum(acf) - 1
    closes = np.arange(n // 2) >= dep.SOKAL_C * taus
    want = max(taus[int(np.argmax(closes))], 1.0) if closes.any() else np.inf
    assert dep.integrated_time(x) == pytest.approx(want, rel=1e-9)
    rho = dep.rank_acf(x, dep.MAX_LAG, r)  # the lags assess already has: the same answer
    assert dep.integrated_time(x, ranks=r, rho=rho) == pytest.approx(want, rel=1e-9)
    window = int(np.argmax(closes)) if closes.any() else n // 2
    assert (window < dep.DIRECT_LAGS) == (phi < 0.97 or n == 50)  # both paths are taken
    if n > 50 and phi == 0.8:  # AR(1): near (1 + phi)/(1 - phi) = 9 on the ranks too
        assert 5 < dep.integrated_time(x) < 15


def test_sorted_order_sorts_whatever_the_values():
    """The direct sort of bit-mapped keys gives a permutation that sorts x, for signed
    values, ±0, infinities, ties, values closer than the bits given up to the index (put
    right afterwards) and NaN (last, as np.sort puts it)."""
    rng = np.random.default_rng(6)
    x = np.round(rng.lognormal(size=5000), 2)
    x[:300] *= -1
    x[300:400] = -np.inf
    x[400:450] = np.inf
    x[450:500] = 0.0
    x[500:550] = -0.0
    near = 1.0 + np.arange(100) * 2.0**-50  # differ only in bits the index takes
    x[600:700] = rng.permutation(near)
    for values in (x, rng.permutation(x), np.append(x, np.nan), np.array([3.0]), np.array([])):
        order, xs = dep.sorted_order(values)
        np.testing.assert_array_equal(np.sort(order), np.arange(len(values)))
        np.testing.assert_array_equal(xs, values[order])
        np.testing.assert_array_equal(xs, np.sort(values))
    want = stats.rankdata(x)
    np.testing.assert_array_equal(dep.centred_ranks(x), want - want.mean())


def test_values_on_the_nanosecond_grid_sort_without_a_gather():
    """Latencies printed to the nanosecond (µs with three decimals) are sorted by their
    integer count of nanoseconds, and the sorted values read back from the keys are the very
    values of x; values off the grid, negative or infinite take the general path."""
    rng = np.random.default_rng(7)
    x = np.round(_frames.ar1_lognormal(20_000, 0.5, rng), 3)
    x[::97] = x[5]  # ties
    x[3] = 0.0
    order, xs = dep._on_grid(x)
    np.testing.assert_array_equal(xs, x[order])
    np.testing.assert_array_equal(xs, np.sort(x))
    np.testing.assert_array_equal(np.sort(order), np.arange(len(x)))
    assert np.array_equal(dep.sorted_order(x)[1], xs)
    for off in (x + 1e-4, np.append(x, -1.0), np.append(x, np.inf), np.append(x, np.nan)):
        assert dep._on_grid(off) is None
        np.testing.assert_array_equal(dep.sorted_order(off)[1], np.sort(off))
    want = stats.rankdata(x)
    np.testing.assert_array_equal(dep.centred_ranks(x), want - want.mean())


@pytest.mark.parametrize("b", [2, 37, 400])
def test_batch_counts_from_the_sort_are_the_counts_by_comparison(b):
    """quantile_n_eff counts the values ≤ each threshold per batch from the sort (one pass)
    or by comparing every value with every threshold: the same counts, the same n_eff, for
    thresholds in any order, ties and a series that does not divide into b batches."""
    rng = np.random.default_rng(8)
    x = np.round(_frames.ar1_lognormal(10_007, 0.7, rng), 1)  # ties
    qs = np.array([0.99, 0.25, 0.5, 0.999, 0.9])
    th = np.quantile(x, qs)
    sort = dep.sorted_order(x)
    np.testing.assert_array_equal(dep._sorted_counts(sort, th, b), dep._batch_counts(x, th, b))
    np.testing.assert_array_equal(
        dep.quantile_n_eff(x, th, qs, b, sort), dep.quantile_n_eff(x, th, qs, b)
    )
    assert dep._batch_counts(x, th, b).sum(axis=1)[1] == (x[len(x) % b :] <= th[1]).sum()


def _on_the_grid(n: int, seed: int) -> np.ndarray:
    """AR(1) lognormal latencies (median ~12 µs) printed to the nanosecond, with ties."""
    rng = np.random.default_rng(seed)
    x = np.round(_frames.ar1_lognormal(n, 0.7, rng, mu=2.5), 3)
    x[::53] = x[7]
    return x


def test_counted_values_are_the_sorted_values_and_their_ranks():
    """A series on the nanosecond grid is counted, not sorted: indexing the counts gives the
    sorted values (the same floats, at any rank), its ranks are rankdata's, and the values ≤
    each threshold per batch are the counts by comparison — thresholds between values, on a
    value, just off one, below the smallest and above the largest."""
    x = _on_the_grid(20_011, 9)
    c = dep.counted(x)
    assert c is not None and len(c) == len(x)
    xs = np.sort(x)
    np.testing.assert_array_equal(c[np.arange(len(x))], xs)
    assert c[0] == xs[0] and c[len(x) - 1] == xs[-1] and c[12_345] == xs[12_345]
    want = stats.rankdata(x)
    np.testing.assert_array_equal(c.ranks(), want - want.mean())
    np.testing.assert_array_equal(dep.centred_ranks(x), want - want.mean())
    th = np.concatenate(
        [
            np.quantile(x, [0.99, 0.25, 0.5, 0.999, 0.9]),
            [
                xs[100],
                np.nextafter(xs[100], 0),
                np.nextafter(xs[100], 1e9),
                xs[0] - 1.0,
                xs[-1] + 1.0,
                xs[-1],
            ],
        ]
    )
    for b in (2, 37, 400, 2001):
        np.testing.assert_array_equal(c.batch_counts(th, b), dep._batch_counts(x, th, b))


def test_only_short_spans_of_the_grid_are_counted():
    """Values off the grid, NaN, infinite, or spanning more than COUNT_SPAN·n ticks (plus a
    floor) are sorted as before; negative values on the grid are counted."""
    x = _on_the_grid(5_000, 10)
    assert dep.counted(-x) is not None and dep.counted(-x)[0] == -x.max()
    for off in (x + 1e-4, np.append(x, np.nan), np.append(x, np.inf), np.append(x, 1e6)):
        assert dep.counted(off) is None
        order, xs = dep.sorted_view(off)
        np.testing.assert_array_equal(xs, np.sort(off))
    assert dep.counted(np.array([1.0])) is None


def test_counting_gives_the_rows_sorting_gives(monkeypatch):
    """The whole summary of a dependent series (Ljung-Box, τ, batch counts, interval ranks)
    is the same, value for value, whether the series is counted or sorted."""
    from azlatency.stats import intervals as iv
    from azlatency.stats.common import Observations

    x = _on_the_grid(30_000, 11)
    obs = Observations(x, np.nan, 0, 0, np.zeros(0, dtype=object))
    qs = [0.25, 0.5, 0.9, 0.99, 0.999]
    assert isinstance(dep.assess(x).sort[1], dep.Counted)
    counted = iv.series_rows(obs, qs, 0.95, "auto")
    monkeypatch.setattr(dep, "counted", lambda *a: None)
    assert isinstance(dep.assess(x).sort[1], np.ndarray)
    sorted_ = iv.series_rows(obs, qs, 0.95, "auto")
    assert counted["p50"]["method"] == sorted_["p50"]["method"] and "τ" in counted["p50"]["note"]
    assert counted.keys() == sorted_.keys()
    for stat in counted:
        assert counted[stat] == sorted_[stat] or all(
            a == b or (a != a and b != b)
            for a, b in zip(counted[stat].values(), sorted_[stat].values())
        ), stat


@pytest.mark.parametrize("phi, n, lags", [(0.0, 200, 10), (0.5, 500, 20), (0.9, 60, 12)])
def test_ljung_box_on_ranks_agrees_with_statsmodels(phi, n, lags):
    """statsmodels' acorr_ljungbox and acf over the ranks are the oracle for ours (which is
    written out to share one pass over the ranks with the autocorrelation time)."""
    from scipy.stats import rankdata
    from statsmodels.stats.diagnostic import acorr_ljungbox
    from statsmodels.tsa.stattools import acf

    from azlatency.stats.dependence import ljung_box, rank_acf

    rng = np.random.default_rng(7)
    e = rng.normal(size=n)
    x = np.empty(n)
    x[0] = e[0]
    for i in range(1, n):
        x[i] = phi * x[i - 1] + e[i]
    x = np.exp(x)  # a latency-like, skewed series: ranks make the test indifferent to it
    q, p, r1 = ljung_box(x, lags)
    used = min(lags, n // 5)
    want = acorr_ljungbox(rankdata(x), lags=[used])
    assert q == pytest.approx(float(want["lb_stat"].iloc[0]), rel=1e-9)
    assert p == pytest.approx(float(want["lb_pvalue"].iloc[0]), rel=1e-6, abs=1e-300)
    assert rank_acf(x, used) == pytest.approx(acf(rankdata(x), nlags=used)[1:], rel=1e-9)
    assert r1 == pytest.approx(acf(rankdata(x), nlags=1)[1], rel=1e-9)
