"""Tails: spectrum, tail ratios (order-statistic bootstrap = scipy.stats.bootstrap),
exceedance (= scipy binomtest exact), peaks over threshold (GPD fit = scipy genpareto.fit)."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from azlatency.stats import exceedance, percentile_spectrum, pot_fit, tail_ratios
from azlatency.stats._resample import quantile_replicates
from azlatency.stats.tails import gpd_fit, gpd_quantile
from tests.stats import _frames


def test_spectrum_has_nines_and_the_exact_intervals():
    x = np.random.default_rng(0).lognormal(4, 0.3, 5000)
    sp = percentile_spectrum(x, dependence="iid")
    assert sp["nines"].tolist()[:5] == pytest.approx(
        [-np.log10(0.5), -np.log10(0.25), 1, -np.log10(0.05), 2])
    p999 = sp.set_index("stat").loc["p99.9"]
    ci = stats.quantile_test(x, p=0.999).confidence_interval()
    assert (p999["ci_low"], p999["ci_high"]) == (ci.low, ci.high)
    assert not sp.set_index("stat").loc["p99.99", "estimable"]


def test_spectrum_of_a_samples_frame_groups_like_summarize():
    rng = np.random.default_rng(1)
    s = _frames.samples({"a": rng.lognormal(size=1000), "b": rng.lognormal(size=1000)})
    sp = percentile_spectrum(s)
    assert set(sp["run_id"]) == {"a", "b"} and sp["q"].notna().all()
    assert "nines" in sp.columns


def test_order_statistic_bootstrap_matches_resampling_the_data():
    rng = np.random.default_rng(2)
    x = rng.lognormal(0, 1, 300)
    fast = quantile_replicates(np.sort(x), [0.5, 0.9], 300, 20000, rng)
    idx = rng.integers(0, 300, size=(20000, 300))
    slow = np.quantile(x[idx], [0.5, 0.9], axis=1).T
    for j in range(2):
        assert stats.ks_2samp(fast[:, j], slow[:, j]).pvalue > 0.001
        assert fast[:, j].std() == pytest.approx(slow[:, j].std(), rel=0.05)


def test_tail_ratio_interval_agrees_with_scipy_bootstrap():
    rng = np.random.default_rng(3)
    x = rng.lognormal(4, 0.4, 2000)
    ours = tail_ratios(x, ratios=[(0.9, 0.5)], rng=4, n_resamples=4000,
                       dependence="iid").iloc[0]
    ref = stats.bootstrap((x,), lambda v, axis: np.quantile(v, 0.9, axis=axis)
                          / np.quantile(v, 0.5, axis=axis), n_resamples=4000,
                          method="percentile", rng=5, vectorized=True)
    assert ours["estimate"] == pytest.approx(np.quantile(x, 0.9) / np.quantile(x, 0.5))
    ci = ref.confidence_interval
    width = ci.high - ci.low
    assert ours["ci_low"] == pytest.approx(ci.low, abs=0.1 * width)
    assert ours["ci_high"] == pytest.approx(ci.high, abs=0.1 * width)


def test_tail_ratio_refuses_a_tail_it_cannot_reach():
    x = np.random.default_rng(6).lognormal(size=1000)
    r = tail_ratios(x, rng=0).set_index("stat")
    assert r.loc["p99/p50", "estimable"]
    assert not r.loc["p99.9/p50", "estimable"] and np.isnan(r.loc["p99.9/p50", "ci_low"])
    assert "cannot reach p99.9" in r.loc["p99.9/p50", "note"]


def test_exceedance_is_clopper_pearson():
    x = np.random.default_rng(7).lognormal(4, 0.3, 3000)
    out = exceedance(x, [80.0, 120.0, 1e6], dependence="iid")
    for t, r in zip([80.0, 120.0, 1e6], out.itertuples()):
        k = int((x > t).sum())
        ci = stats.binomtest(k, 3000).proportion_ci(0.95, method="exact")
        assert r.estimate == k / 3000
        assert (r.ci_low, r.ci_high) == pytest.approx((ci.low, ci.high), rel=1e-9, abs=1e-12)
    assert out.iloc[2]["ci_low"] == 0 and 0 < out.iloc[2]["ci_high"] < 0.002


def test_exceedance_under_autocorrelation_uses_fewer_effective_points():
    x = _frames.ar1_lognormal(20_000, 0.9, np.random.default_rng(8))
    t = np.quantile(x, 0.95)
    auto = exceedance(x, t).iloc[0]
    iid = exceedance(x, t, dependence="iid").iloc[0]
    assert auto["unit_of_analysis"] == "batch" and auto["n_eff"] < 5000
    assert auto["ci_high"] - auto["ci_low"] > 1.5 * (iid["ci_high"] - iid["ci_low"])


def test_gpd_fit_matches_scipy():
    rng = np.random.default_rng(9)
    for shape in (-0.2, 0.0, 0.3):
        y = stats.genpareto.rvs(shape, scale=7, size=3000, random_state=rng)
        xi, sigma = gpd_fit(y)
        c, _, scale = stats.genpareto.fit(y, floc=0)
        ll_ours = stats.genpareto.logpdf(y, xi, scale=sigma).sum()
        ll_scipy = stats.genpareto.logpdf(y, c, scale=scale).sum()
        assert ll_ours >= ll_scipy - 1e-6  # at least as good a maximum
        assert xi == pytest.approx(c, abs=0.02) and sigma == pytest.approx(scale, rel=0.02)


def test_pot_extrapolates_with_an_interval_that_holds_the_truth():
    rng = np.random.default_rng(10)
    # Exactly GPD above its 99th percentile: the truth of p99.999 is known.
    x = 50 + stats.genpareto.rvs(0.2, scale=10, size=200_000, random_state=rng)
    out = pot_fit(x, rng=11, n_resamples=100).set_index("stat")
    truth = 50 + stats.genpareto.ppf([0.9999, 0.99999], 0.2, scale=10)
    for stat, t in zip(["p99.99", "p99.999"], truth):
        assert out.loc[stat, "ci_low"] <= t <= out.loc[stat, "ci_high"]
    assert out.loc["shape", "ci_low"] <= 0.2 <= out.loc["shape", "ci_high"]
    assert out.loc["p99.99", "n_excess"] == 2000
    assert gpd_quantile(0.0, 0.0, 1.0, 1.0, np.array([1 - np.exp(-2)]))[0] == pytest.approx(2)


def test_pot_needs_enough_excesses():
    out = pot_fit(np.random.default_rng(0).lognormal(size=1000), rng=0)
    assert not out["estimable"].any() and "a fit needs ≥ 50" in out["note"].iloc[0]
