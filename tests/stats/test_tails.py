"""Tails: spectrum, tail ratios (order-statistic bootstrap = scipy.stats.bootstrap),
exceedance (= scipy binomtest exact), peaks over threshold (GPD fit = scipy genpareto.fit,
Anderson-Darling = scipy goodness_of_fit), its threshold choice and its fallback."""

from __future__ import annotations

import importlib.util
import sys

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from azlatency.stats import exceedance, percentile_spectrum, pot_fit, tail_ratios
from azlatency.stats._resample import quantile_replicates
from azlatency.stats.tails import (
    GPD_METHOD,
    ad_p_value,
    anderson_darling,
    forward_stop,
    gpd_fit,
    gpd_quantile,
)
from tests.conftest import ROOT
from tests.stats import _frames


def _designs():
    """benchmarks/_validate_designs.py: the spike mixture of the validation study."""
    path = ROOT / "benchmarks" / "_validate_designs.py"
    spec = importlib.util.spec_from_file_location("_validate_designs", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look themselves up there
    spec.loader.exec_module(module)
    return module


def test_spectrum_has_nines_and_the_exact_intervals():
    x = np.random.default_rng(0).lognormal(4, 0.3, 5000)
    sp = percentile_spectrum(x, dependence="iid")
    assert sp["nines"].tolist()[:5] == pytest.approx(
        [-np.log10(0.5), -np.log10(0.25), 1, -np.log10(0.05), 2]
    )
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
    ours = tail_ratios(x, ratios=[(0.9, 0.5)], rng=4, n_resamples=4000, dependence="iid").iloc[0]
    ref = stats.bootstrap(
        (x,),
        lambda v, axis: np.quantile(v, 0.9, axis=axis) / np.quantile(v, 0.5, axis=axis),
        n_resamples=4000,
        method="percentile",
        rng=5,
        vectorized=True,
    )
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
    # Exactly GPD above its 99th percentile: the truth of p99.999 is known.  The quantile is
    # now named (the default scans for a threshold): a named threshold_q is used as is.
    x = 50 + stats.genpareto.rvs(0.2, scale=10, size=200_000, random_state=rng)
    out = pot_fit(x, threshold_q=0.99, rng=11, n_resamples=100).set_index("stat")
    truth = 50 + stats.genpareto.ppf([0.9999, 0.99999], 0.2, scale=10)
    for stat, t in zip(["p99.99", "p99.999"], truth):
        assert out.loc[stat, "ci_low"] <= t <= out.loc[stat, "ci_high"]
    # p99.99 has 20 values above it: measured (order statistics); p99.999 (2): the GPD's
    assert out.loc["p99.99", "method"].startswith("order statistics")
    assert out.loc["p99.99", "note"].startswith("within the data (≥ 10 values above it)")
    assert out.loc["p99.999", "method"] == GPD_METHOD
    assert out.loc["shape", "ci_low"] <= 0.2 <= out.loc["shape", "ci_high"]
    assert out.loc["p99.99", "n_excess"] == 2000
    assert (out["threshold_method"] == "given quantile p99").all()
    assert out.loc["p99.99", "gof_p"] > 0.05
    assert gpd_quantile(0.0, 0.0, 1.0, 1.0, np.array([1 - np.exp(-2)]))[0] == pytest.approx(2)


def test_pot_needs_enough_excesses():
    # The scan starts at the p90: 400 values leave 40 excesses there, too few for a fit.
    out = pot_fit(np.random.default_rng(0).lognormal(size=400), rng=0)
    assert not out["estimable"].any()
    assert out["note"].iloc[0] == "40 excesses over the p90; a fit needs ≥ 50"
    # A named quantile is not moved to find more (the old default, p99 of 1000 values).
    out = pot_fit(np.random.default_rng(0).lognormal(size=1000), threshold_q=0.99, rng=0)
    assert not out["estimable"].any() and "10 excesses over" in out["note"].iloc[0]
    assert "a fit needs ≥ 50" in out["note"].iloc[0]


def test_anderson_darling_is_scipys_statistic():
    y = stats.genpareto.rvs(0.2, scale=3, size=200, random_state=np.random.default_rng(12))
    ref = stats.goodness_of_fit(
        stats.genpareto,
        y,
        known_params={"c": 0.2, "loc": 0, "scale": 3},
        statistic="ad",
        n_mc_samples=10,
        rng=0,
    )
    assert anderson_darling(y, 0.2, 3.0) == pytest.approx(ref.statistic, rel=1e-12)


def test_anderson_darling_p_values_are_uniform_for_a_fitted_gpd():
    # The null table is for estimated ξ and σ: with the fit's own parameters, p is uniform.
    rng = np.random.default_rng(13)
    p = []
    for _ in range(600):
        y = stats.genpareto.rvs(0.1, scale=5, size=100, random_state=rng)
        xi, sigma = gpd_fit(y)
        p.append(ad_p_value(anderson_darling(y, xi, sigma), xi))
    p = np.array(p)
    assert 0.023 <= (p < 0.05).mean() <= 0.077  # ±3 binomial sd
    assert 0.44 <= (p < 0.5).mean() <= 0.56
    assert ad_p_value(0.1, 0.0) == 0.999 and ad_p_value(0.954, 0.0) == pytest.approx(0.05)
    assert ad_p_value(5.0, 0.0) < 1e-4 < ad_p_value(2.0, 0.0) < 0.005


def test_forward_stop_rejects_the_leading_poor_fits():
    # −log(1−p) averaged over the first k stays ≤ 0.05 up to k = 3, exceeds it from k = 4 on.
    assert forward_stop([0.0, 0.001, 0.01, 0.6, 0.02, 0.7]) == 3
    assert forward_stop([0.5, 0.0]) == 0
    assert forward_stop([0.0] * 5) == 5


def _gpd_above_p95(n: int, rng) -> tuple[np.ndarray, float]:
    """Lognormal(4, 0.3) below its p95 (u), exactly u + GPD(0.2, 10) above; the p99.99."""
    u = np.exp(4 + 0.3 * stats.norm.ppf(0.95))
    x = np.exp(4 + 0.3 * stats.norm.ppf(0.95 * rng.random(n)))
    tail = rng.random(n) >= 0.95
    x[tail] = u + stats.genpareto.rvs(0.2, scale=10, size=int(tail.sum()), random_state=rng)
    return x, u + stats.genpareto.ppf((0.9999 - 0.95) / 0.05, 0.2, scale=10)


def test_pot_finds_where_a_gpd_tail_begins_and_uses_it():
    x, truth = _gpd_above_p95(40_000, np.random.default_rng(14))
    out = pot_fit(x, quantiles=(0.9999,), rng=15, n_resamples=100).set_index("stat")
    r = out.loc["p99.99"]
    assert r["method"] == GPD_METHOD and r["estimable"] and r["gof_p"] > 0.05
    assert r["threshold_method"] == "ForwardStop over 21 thresholds (Bader, Yan & Zhang 2018)"
    # Above the true start (89.4 µs, the p95) with 1,337 of the 2,000 GPD excesses.
    assert r["threshold"] == pytest.approx(93.71, abs=0.01) and r["n_excess"] == 1337
    assert r["ci_low"] <= truth <= r["ci_high"]
    assert out.loc["shape", "ci_low"] <= 0.2 <= out.loc["shape", "ci_high"]


def test_pot_on_the_spike_mixture_falls_back_or_moves_above_the_body():
    vd = _designs()
    truth = vd._mixture_quantile(0.9999, 0.001, 10.0, 0.5)  # 1036 µs
    for seed in (0, 1, 2):
        x = vd.spiky(100_000, np.random.default_rng(seed))
        # Over the p99 (the old default) the excesses mix body and spikes: the test rejects
        # the GPD, p99.99 gets its order-statistic interval, the named threshold is kept.
        fixed = pot_fit(x, threshold_q=0.99, quantiles=(0.9999,), rng=seed).set_index("stat")
        r = fixed.loc["p99.99"]
        assert r["method"].startswith("order statistics") and r["gof_p"] < 0.001
        assert r["note"].startswith("GPD rejected (Anderson-Darling p<0.001 at threshold ")
        assert r["threshold"] == np.quantile(x, 0.99) and r["ci_low"] <= truth <= r["ci_high"]
        assert not fixed.loc["shape", "estimable"] and "GPD rejected" in fixed.loc["shape", "note"]
    for seed, accepted in ((0, True), (4, False)):
        x = vd.spiky(100_000, np.random.default_rng(seed))
        # The scan moves the threshold above the body (its p99.99 is 165 µs) into the spikes,
        # or, when no candidate passes, falls back to the order-statistic interval.
        r = (
            pot_fit(x, quantiles=(0.9999,), rng=seed, n_resamples=100)
            .set_index("stat")
            .loc["p99.99"]
        )
        assert r["threshold"] > 300 and r["ci_low"] <= truth <= r["ci_high"]
        # p99.99 of 10^5 has 10 values above it: measured either way; the fit shows in shape
        assert r["method"].startswith("order statistics")
        shape = pot_fit(x, quantiles=(0.9999,), rng=seed, n_resamples=100).set_index("stat")
        assert bool(shape.loc["shape", "estimable"]) == accepted
        if not accepted:
            assert r["note"].startswith(
                "GPD rejected: ForwardStop on Anderson-Darling tests "
                "rejects all 25 candidate thresholds"
            )


def test_pot_honours_a_given_threshold():
    x, _ = _gpd_above_p95(40_000, np.random.default_rng(16))
    out = pot_fit(x, threshold=120.0, quantiles=(0.9999,), rng=0, n_resamples=50)
    assert (out["threshold"] == 120.0).all() and (
        out["threshold_method"] == "given threshold"
    ).all()
    assert (out["n_excess"] == (x > 120.0).sum()).all() and out["estimable"].all()
    assert out["gof_stat"].iloc[0] == pytest.approx(
        anderson_darling(x[x > 120] - 120, out["estimate"].iloc[0], out["estimate"].iloc[1])
    )


def test_a_rejected_fit_says_why_beyond_the_data():
    x = _designs().spiky(20_000, np.random.default_rng(17))
    out = pot_fit(x, threshold_q=0.99, quantiles=(0.999, 0.99999), rng=0).set_index("stat")
    assert out.loc["p99.9", "estimable"] and out.loc["p99.9", "method"].startswith("order stat")
    beyond = out.loc["p99.999"]
    assert not beyond["estimable"] and np.isnan(beyond["estimate"])
    assert beyond["note"].startswith("GPD rejected (Anderson-Darling p")
    assert "p99.999 lies beyond the data (n=20000)" in beyond["note"]


def test_exceedance_over_several_runs_has_the_run_as_its_unit():
    # Three runs of one condition whose levels differ (a redeployed VM): 10 %, 30 % and 50 %
    # of each run's 1,000 packets lie above the threshold.
    rng = np.random.default_rng(3)
    x = {
        f"r{i}": rng.permutation(np.r_[np.full(1000 - k, 100.0), np.full(k, 300.0)])
        for i, k in enumerate((100, 300, 500))
    }
    s = _frames.samples(x)
    runs = pd.DataFrame({"run_id": list(x), "scenario": "a"})
    row = exceedance(s, 200.0, runs=runs, by="scenario").iloc[0]
    assert (
        row["unit_of_analysis"] == "run"
        and row["n_runs"] == 3
        and row["estimate"] == pytest.approx(0.3)
    )
    assert (row["range_low"], row["range_high"]) == (0.1, 0.5)
    # variance of the pooled share from the runs' shares: 3/2 · Σ(1000·(p_i − 0.3))² / 3000²
    var = 1.5 * (200**2 + 0 + 200**2) / 3000**2
    n_eff = 0.3 * 0.7 / var * (stats.norm.ppf(0.975) / stats.t.ppf(0.975, 2)) ** 2
    lo, hi = stats.beta.ppf(
        [0.025, 0.975], [0.3 * n_eff, 0.3 * n_eff + 1], [0.7 * n_eff + 1, 0.7 * n_eff]
    )
    assert (row["ci_low"], row["ci_high"]) == pytest.approx((lo, hi))
    assert row["ci_low"] < 0.1 and row["ci_high"] > 0.5  # 3 runs that far apart: wide
    # pooled packets (on request) as if independent claim far more: about [0.28, 0.32]
    packets = exceedance(s, 200.0, runs=runs, by="scenario", unit="packet", dependence="iid").iloc[
        0
    ]
    assert packets["ci_high"] - packets["ci_low"] < 0.05
    assert "run-to-run variation is not in the interval" in packets["note"]


def test_tail_ratio_of_a_zero_median_is_not_estimable():
    """ethr prints 0.000ns round trips below its clock's tick: p99/p50 of such a series is no
    tail (it was inf)."""
    x = np.r_[np.zeros(900), np.random.default_rng(3).uniform(1, 5, 100)]
    r = tail_ratios(x, rng=0).set_index("stat")
    assert r["estimate"].isna().all() and not r["estimable"].any()
    assert r.loc["p99/p50", "note"].startswith("the p50 is 0 (values below the clock's")
