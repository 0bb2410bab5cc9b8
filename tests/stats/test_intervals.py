"""Intervals: exact order-statistic quantile intervals (= scipy.stats.quantile_test), the
dependence-aware version, runs as the unit, censoring, and "not estimable" rows."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy import stats

import azlatency
from azlatency import schema
from azlatency.stats import mean_ci, quantile_ci, summarize
from azlatency.stats.intervals import min_n
from azlatency.units import BasisError
from tests.conftest import corpus, needs_shared
from tests.stats import _frames


@pytest.mark.parametrize("n", [5, 37, 368, 1000, 4001])
@pytest.mark.parametrize("q", [0.05, 0.25, 0.5, 0.9, 0.99, 0.999])
@pytest.mark.parametrize("level", [0.9, 0.95, 0.99])
def test_exact_interval_equals_scipy_quantile_test(n, q, level):
    x = np.random.default_rng(n).lognormal(4, 0.5, n)
    got = quantile_ci(x, q, level, dependence="iid").iloc[0]
    ci = stats.quantile_test(x, p=q).confidence_interval(level)
    if np.isnan(ci.low) or np.isnan(ci.high):
        assert not got["estimable"] and np.isnan(got["ci_low"]) and np.isnan(got["ci_high"])
    else:
        assert got["estimable"]
        assert (got["ci_low"], got["ci_high"]) == (ci.low, ci.high)
        assert got["method"] == "order statistics, exact binomial"


def test_p99_needs_368_observations_at_95_percent():
    assert min_n(0.99, 0.95) == 368
    x = np.random.default_rng(0).exponential(size=367)
    r = quantile_ci(x, 0.99, dependence="iid").iloc[0]
    assert not r["estimable"] and np.isnan(r["ci_low"]) and np.isnan(r["ci_high"])
    assert "n ≥ 368" in r["note"]
    assert r["estimate"] == pytest.approx(np.quantile(x, 0.99))  # an estimate exists
    assert quantile_ci(np.append(x, 1.0), 0.99, dependence="iid").iloc[0]["estimable"]


def test_no_estimate_without_an_observation_beyond_it():
    r = quantile_ci(np.arange(1000.0), 0.99999).iloc[0]
    assert np.isnan(r["estimate"]) and not r["estimable"]
    assert "fewer than one observation" in r["note"]


def test_autocorrelation_is_detected_and_widens_the_interval():
    rng = np.random.default_rng(7)
    x = _frames.ar1_lognormal(10_000, 0.8, rng)
    auto = quantile_ci(x, [0.5, 0.99])
    iid = quantile_ci(x, [0.5, 0.99], dependence="iid")
    assert (auto["unit_of_analysis"] == "batch").all()
    assert "autocorrelated" in auto["note"].iloc[0]
    assert (auto["n_eff"] < 0.6 * 10_000).all()
    assert ((auto["ci_high"] - auto["ci_low"]) > (iid["ci_high"] - iid["ci_low"])).all()
    # independent data stay on the exact method
    y = rng.lognormal(4, 0.3, 10_000)
    r = quantile_ci(y, 0.5).iloc[0]
    assert r["unit_of_analysis"] == "packet" and "no autocorrelation detected" in r["note"]


def test_batch_interval_is_never_narrower_than_the_exact_one():
    x = np.random.default_rng(3).lognormal(size=5000)
    b = quantile_ci(x, [0.5, 0.9], dependence="batch")
    e = quantile_ci(x, [0.5, 0.9], dependence="iid")
    assert (b["ci_low"] <= e["ci_low"]).all() and (b["ci_high"] >= e["ci_high"]).all()


def test_mean_interval_is_student_t_when_independent():
    x = np.random.default_rng(1).normal(100, 5, 40)
    r = mean_ci(x, 0.9, dependence="iid").iloc[0]
    ci = stats.ttest_1samp(x, 0).confidence_interval(0.9)
    assert (r["ci_low"], r["ci_high"]) == pytest.approx((ci.low, ci.high))
    assert r["method"] == "Student t"


def test_a_short_series_is_not_assumed_independent():
    """Issue 29: at n < 200 "no autocorrelation detected" is not "independent".  The interval
    rests on the 95 % upper bound of the lag-1 rank autocorrelation (AR(1) τ), so it is wider
    than Student's t, and none is given when the bound leaves n_eff < 3."""
    from azlatency.stats import dependence as dep

    x = np.random.default_rng(1).normal(100, 5, 40)
    r = mean_ci(x, 0.9).iloc[0]
    d = dep.bounded(x)
    # r1 + (1 + 4·max(r1, 0))/n + 1.645/√n, τ = (1 + u)/(1 − u)
    assert d.tau == pytest.approx((1 + d.upper) / (1 - d.upper))
    assert d.upper == pytest.approx(
        d.acf1 + (1 + 4 * max(d.acf1, 0)) / 40 + 1.645 / 40**0.5, abs=1e-12
    )
    half = stats.t.ppf(0.95, 40 / d.tau - 1) * x.std(ddof=1) * np.sqrt(d.tau / 40)
    assert r["ci_high"] - x.mean() == pytest.approx(half)
    assert r["n_eff"] == pytest.approx(40 / d.tau) and "upper bound" in r["note"]
    ci = stats.ttest_1samp(x, 0).confidence_interval(0.9)
    assert r["ci_high"] - r["ci_low"] > ci.high - ci.low
    # ten points of a strongly autocorrelated series: no interval, and why
    y = 100 + np.cumsum(np.random.default_rng(2).normal(0, 1, 10))
    r = mean_ci(y).iloc[0]
    assert not r["estimable"] and np.isnan(r["ci_low"])
    assert "too short to check independence" in r["note"]


def test_summarize_one_run_per_group_uses_packets():
    rng = np.random.default_rng(11)
    s = _frames.samples({"a": rng.lognormal(4, 0.3, 2000), "b": rng.lognormal(4.1, 0.3, 500)})
    out = summarize(s)
    assert set(out["run_id"]) == {"a", "b"}
    assert list(out[out.run_id == "a"]["stat"])[:5] == ["count", "std", "min", "max", "mean"]
    p99 = out[(out.run_id == "b") & (out.stat == "p99")].iloc[0]
    x = s.loc[s.run_id == "b", "rtt_us"].to_numpy()
    ci = stats.quantile_test(x, p=0.99).confidence_interval()
    assert (p99["ci_low"], p99["ci_high"]) == (ci.low, ci.high)
    assert out.loc[out.stat == "count", "estimate"].tolist() == [2000, 500]


def test_several_runs_make_the_run_the_unit():
    rng = np.random.default_rng(5)
    runs6 = {f"r{i}": rng.lognormal(4 + 0.05 * rng.normal(), 0.3, 400) for i in range(6)}
    s = _frames.samples(runs6)
    runs = _frames.runs([{"run_id": r, "placement": "ppg"} for r in runs6])
    out = summarize(s, runs, by="placement").set_index("stat")
    medians = np.sort([np.median(v) for v in runs6.values()])
    p50 = out.loc["p50"]
    assert p50["unit_of_analysis"] == "run" and p50["n_runs"] == 6
    # with 6 runs the exact 95% interval of the median across runs is [min, max]
    assert (p50["ci_low"], p50["ci_high"]) == pytest.approx((medians[0], medians[-1]))
    assert p50["estimate"] == pytest.approx(np.median(medians))
    assert out.loc["count", "estimate"] == 2400
    # three runs: no 95% interval of a median, but the range is reported
    s3 = s[s.run_id.isin(["r0", "r1", "r2"])]
    p50_3 = summarize(s3, runs, by="placement").set_index("stat").loc["p50"]
    assert not p50_3["estimable"] and "needs ≥ 6 runs" in p50_3["note"]
    assert np.isfinite(p50_3["range_low"]) and p50_3["range_low"] < p50_3["range_high"]


def test_censored_windows_replies_bound_the_statistics():
    # Windows ping prints 'time<1ms' (censored below 1000 us) and integer ms otherwise.
    status = np.array(["censored"] * 60 + ["ok"] * 40, dtype=object)
    rtt = np.r_[np.full(60, np.nan), 1000.0 * np.repeat([1, 2, 3, 4], 10)]
    s = schema.frame(
        "samples",
        {
            "run_id": "w",
            "seq": np.arange(100),
            "kind": "reply",
            "status": status,
            "rtt_us": rtt,
            "censor_high_us": np.where(status == "censored", 1000.0, np.nan),
        },
    )
    out = summarize(s, quantiles=[0.5, 0.9]).set_index("stat")
    assert not out.loc["p50", "estimable"] and out.loc["p50", "bound_high"] == 1000.0
    assert out.loc["p90", "estimate"] == pytest.approx(
        np.quantile(np.r_[np.zeros(60), rtt[60:]], 0.9)
    )
    mean = out.loc["mean"]
    assert np.isnan(mean["estimate"]) and not mean["estimable"]
    assert (mean["bound_low"], mean["bound_high"]) == pytest.approx((1000.0, 1600.0))
    assert out.loc["count", "estimate"] == 100


def _windows_run(run_id: str, rtt_ms: list) -> pd.DataFrame:
    """A Windows ping run: None is a 'time<1ms' reply (censored below 1000 µs)."""
    censored = np.array([v is None for v in rtt_ms])
    return schema.frame(
        "samples",
        {
            "run_id": run_id,
            "seq": np.arange(len(rtt_ms)),
            "kind": "reply",
            "status": np.where(censored, "censored", "ok").astype(object),
            "rtt_us": np.array([np.nan if v is None else 1000.0 * v for v in rtt_ms]),
            "censor_high_us": np.where(censored, 1000.0, np.nan),
        },
    )


def test_runs_censored_at_their_median_bound_the_median_and_mean_across_runs():
    """Two Windows ping runs whose medians fall among 'time<1ms' replies (the two captures
    of tests/fixtures/ping: 4 × <1ms; <1, 1, <1 ms): each run's median is below 1000 µs, so
    their median across runs is too. The run-level row had no value and no bound, and page 40
    said the pair 'has none'.  Known truth: medians in [0, 1000) each, so their median in
    [0, 1000); the means in [0, 1000] and [1000/3, 3000/3], so their mean in [500/3, 1000]."""
    s = pd.concat([_windows_run("a", [None] * 4), _windows_run("b", [None, 1, None])])
    s["group"] = "pair"
    runs = pd.DataFrame({"run_id": ["a", "b"], "group": ["pair", "pair"]})
    out = summarize(s, runs, by="group", unit="run", quantiles=[0.5]).set_index("stat")
    p50, mean = out.loc["p50"], out.loc["mean"]
    assert np.isnan(p50["estimate"]) and not p50["estimable"]
    assert (p50["bound_low"], p50["bound_high"]) == (0.0, 1000.0)
    assert "2 of 2 runs give p50 only as a bound" in p50["note"]
    assert (mean["bound_low"], mean["bound_high"]) == pytest.approx((500 / 3, 1000.0))
    # one run too short for a p99 (3 replies): no bound, as before
    out = summarize(s, runs, by="group", unit="run", quantiles=[0.99]).set_index("stat")
    assert np.isnan(out.loc["p99", "bound_high"]) and "cannot give p99" in out.loc["p99", "note"]


def test_timeouts_are_counted_not_observed():
    x = np.full(10, 500.0)
    st = np.array(["ok"] * 8 + ["timeout"] * 2, dtype=object)
    out = summarize(_frames.samples({"t": x}, status={"t": st})).set_index("stat")
    assert out.loc["count", "estimate"] == 8
    assert "2 timeouts" in out.loc["count", "note"]


def test_metric_basis_is_never_mixed_silently():
    s = _frames.samples({"h": np.ones(10)}, column="half_rtt_us")
    with pytest.raises(BasisError, match="to_rtt"):
        summarize(s, metric="rtt")
    assert summarize(s, metric="half_rtt")["metric"].eq("half_rtt").all()


@needs_shared
def test_real_sockperf_full_log():
    path = corpus("sockperf", "sockperf--full-rtt-log-ansi--virtualclient.txt")
    tables = azlatency.read(path)
    if tables.samples.empty:
        pytest.skip("sockperf parser does not give full-log samples yet")
    out = summarize(tables.samples, tables.runs).set_index("stat")
    assert out.loc["count", "estimate"] == 14975  # line 9: "Total 14975 observations"
    assert out.loc["p50", "estimate"] == pytest.approx(104.528)  # line 17: percentile 50.000
    # the packets are autocorrelated: the interval is the batch-means one, and it still holds
    # sockperf's own p50 and p99 (line 14: percentile 99.000 = 180.199)
    assert out.loc["p50", "unit_of_analysis"] == "batch"
    for stat, reported in (("p50", 104.528), ("p99", 180.199), ("p90", 123.090)):
        assert out.loc[stat, "ci_low"] <= reported <= out.loc[stat, "ci_high"]
    assert not out.loc["p99.99", "estimable"]  # 14,975 packets cannot pin p99.99
    assert out.loc["mean", "estimate"] == pytest.approx(101.926, abs=1e-3)  # line 7: avg-rtt


def test_summarize_rejects_unknown_units_and_levels():
    s = _frames.samples({"a": np.ones(5)})
    with pytest.raises(ValueError, match="unit"):
        summarize(s, unit="batches")
    with pytest.raises(ValueError, match="level"):
        summarize(s, level=95)
    assert isinstance(summarize(s), pd.DataFrame)


def test_scaled_indices_map_the_exact_interval_at_n_eff_onto_the_data():
    """Each quantile's interval at its effective size m is the exact one of Binomial(m, q),
    its ranks stretched by n/m (outward); at m ≥ n it is the plain exact interval."""
    from azlatency.stats.intervals import exact_indices, scaled_indices

    qs = np.array([0.25, 0.5, 0.9, 0.99, 0.999])
    n, level, a = 100_000, 0.95, 0.025
    n_eff = np.array([n * 2.0, 1234.9, 400.0, 1e5 - 0.5, 3.0])
    lo, hi = scaled_indices(n, qs, level, n_eff)
    for i, (q, m) in enumerate(zip(qs, [n, 1234, 400, 99_999, 3])):
        low, high = stats.binom.ppf(a, m, q) - 1, stats.binom.isf(a, m, q)
        if m == n:
            assert (lo[i], hi[i]) == (low, high)
            continue
        assert lo[i] == (np.floor((low + 1) * n / m) - 1 if low >= 0 else -1)
        assert hi[i] == (np.ceil((high + 1) * n / m) - 1 if high < m else n)
    assert hi[4] == n  # 3 effective points: no upper bound for p99.9 (not estimable)
    (l0,), (h0,) = exact_indices(n, [0.25], level)
    assert (lo[0], hi[0]) == (l0, h0)
