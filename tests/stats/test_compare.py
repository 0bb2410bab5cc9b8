"""Comparisons: Hodges-Lehmann by exact selection (= brute force), its interval ranks (= the
Mann-Whitney null distribution), Cliff's delta = 2U/(mn) - 1, p-values = scipy, Holm/BH."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from azlatency.stats import _hl, adjust_pvalues, compare, compare_groups, compare_runs
from tests.stats import _frames


def _brute(a, b):
    return np.sort((np.asarray(a)[:, None] - np.asarray(b)[None, :]).ravel())


@pytest.mark.parametrize("seed", range(6))
def test_selection_equals_sorting_all_differences(seed, monkeypatch):
    rng = np.random.default_rng(seed)
    monkeypatch.setattr(_hl, "ENUMERATE", [10, 1000, 2_000_000][seed % 3])
    if seed % 2:  # integer-millisecond data: heavy ties
        a, b = rng.integers(1, 6, 300).astype(float), rng.integers(1, 6, 170).astype(float)
    else:
        a, b = rng.lognormal(size=250), rng.standard_cauchy(size=190)
    d = _brute(a, b)
    ks = rng.integers(0, len(d), 40)
    assert np.array_equal(_hl.select(np.sort(a), np.sort(b), ks, rng), d[ks])


def test_selection_on_millions_of_pairs_without_forming_them():
    rng = np.random.default_rng(1)
    a, b = np.sort(rng.lognormal(4, 0.3, 1500)), np.sort(rng.lognormal(4.05, 0.3, 1400))
    d = _brute(a, b)  # 2.1 million differences: more than ENUMERATE, so the search runs
    ks = [0, len(d) // 2, len(d) - 1, 123_457]
    assert np.array_equal(_hl.select(a, b, ks, rng), d[ks])


@pytest.mark.parametrize("m,n", [(3, 5), (6, 6), (8, 10), (12, 7)])
def test_exact_null_distribution_matches_scipy(m, n):
    cdf = _hl.mwu_null_cdf(m, n)
    assert cdf[-1] == pytest.approx(1.0)
    rng = np.random.default_rng(m * 100 + n)
    for _ in range(20):  # P(U ≤ u) is scipy's exact one-sided p-value at U = u (no ties)
        a, b = rng.normal(size=m), rng.normal(size=n)
        u = stats.mannwhitneyu(a, b, method="exact").statistic
        p_less = stats.mannwhitneyu(a, b, alternative="less", method="exact").pvalue
        assert cdf[int(u)] == pytest.approx(p_less)


def test_compare_matches_brute_force_and_scipy():
    rng = np.random.default_rng(2)
    a, b = rng.lognormal(4.05, 0.3, 60), rng.lognormal(4, 0.3, 45)
    out = compare(a, b, dependence="iid", rng=3).set_index("effect")
    d = _brute(a, b)
    assert out.loc["shift", "estimate"] == pytest.approx(np.median(d))
    res = stats.mannwhitneyu(a, b)
    assert out.loc["cliffs_delta", "estimate"] == pytest.approx(2 * res.statistic / (60 * 45) - 1)
    assert out.loc["cliffs_delta", "estimate"] == pytest.approx(np.mean(np.sign(d)))
    assert out.loc["shift", "p_value"] == pytest.approx(res.pvalue)
    # interval ends are the differences at the normal-approximation critical ranks
    z = stats.norm.ppf(0.975)
    c = int(np.floor(60 * 45 / 2 - z * np.sqrt(60 * 45 * (60 + 45 + 1) / 12)))
    assert out.loc["shift", "ci_low"] == d[c - 1] and out.loc["shift", "ci_high"] == d[-c]
    assert out.loc["ratio", "estimate"] == pytest.approx(np.median(a) / np.median(b))
    assert out.loc["ratio", "ci_low"] < out.loc["ratio", "estimate"] < out.loc["ratio", "ci_high"]


def test_small_samples_use_the_exact_interval_and_say_when_there_is_none():
    a, b = [1.1, 1.3, 1.2, 1.4, 1.25, 1.35], [1.0, 0.9, 0.95, 1.05, 0.97, 1.02]
    out = compare_runs(a, b).set_index("effect")
    d = _brute(a, b)
    cdf = _hl.mwu_null_cdf(6, 6)
    c = int(np.searchsorted(cdf, 0.025, side="right"))
    assert (out.loc["shift", "ci_low"], out.loc["shift", "ci_high"]) == (d[c - 1], d[36 - c])
    assert out.loc["shift", "p_value"] == pytest.approx(stats.mannwhitneyu(a, b).pvalue)
    assert out.loc["ratio", "method"].startswith("exp(Hodges-Lehmann of log")
    assert out["unit_of_analysis"].eq("run").all()
    tiny = compare_runs([1.0, 2.0], [3.0, 4.0]).set_index("effect")
    assert not tiny.loc["shift", "estimable"] and np.isnan(tiny.loc["shift", "ci_low"])
    assert "too few" in tiny.loc["shift", "note"]


def test_cliffs_delta_interval_does_not_collapse_at_separation():
    out = compare(np.arange(10.0) + 100, np.arange(10.0), dependence="iid").set_index("effect")
    r = out.loc["cliffs_delta"]
    assert r["estimate"] == 1.0 and r["ci_high"] == pytest.approx(1.0) and r["ci_low"] < 0.9


def test_autocorrelation_widens_the_comparison():
    rng = np.random.default_rng(4)
    a = _frames.ar1_lognormal(5000, 0.8, rng)
    b = _frames.ar1_lognormal(5000, 0.8, rng)
    auto = compare(a, b, rng=1).set_index("effect")
    iid = compare(a, b, dependence="iid", rng=1).set_index("effect")
    assert auto.loc["shift", "unit_of_analysis"] == "batch"
    w = lambda t: t.loc["shift", "ci_high"] - t.loc["shift", "ci_low"]  # noqa: E731
    assert w(auto) > 1.8 * w(iid)
    assert auto.loc["shift", "p_value"] > iid.loc["shift", "p_value"]
    assert auto.loc["shift", "n_eff_a"] < 2000


def test_censored_values_rank_but_do_not_subtract():
    a = np.r_[np.full(5, -np.inf), np.arange(30.0) + 2000]
    out = compare(a, np.arange(30.0) + 1500, dependence="iid").set_index("effect")
    assert not out.loc["shift", "estimable"] and out.loc["cliffs_delta", "estimable"]


def test_adjustments():
    p = np.array([0.01, 0.04, 0.03, 0.2, np.nan])
    holm = adjust_pvalues(p, "holm")
    # by hand: sorted 0.01, 0.03, 0.04, 0.2 times 4, 3, 2, 1, then running maximum
    assert holm[:4] == pytest.approx([0.04, 0.09, 0.09, 0.2]) and np.isnan(holm[4])
    assert adjust_pvalues(p, "fdr_bh")[:4] == pytest.approx(
        stats.false_discovery_control(p[:4], method="bh")
    )
    assert adjust_pvalues(p, "bonferroni")[:4] == pytest.approx([0.04, 0.16, 0.12, 0.8])
    with pytest.raises(ValueError):
        adjust_pvalues(p, "sidak")


def test_compare_groups_adjusts_across_pairs_and_picks_the_unit():
    rng = np.random.default_rng(5)
    vals, rows = {}, []
    for g, mu in (("as", 4.0), ("az", 4.2), ("ppg", 3.9)):
        for i in range(3):
            rid = f"{g}{i}"
            vals[rid] = rng.lognormal(mu + 0.02 * rng.normal(), 0.2, 300)
            rows.append({"run_id": rid, "placement": g})
    s, runs = _frames.samples(vals), _frames.runs(rows)
    out = compare_groups(s, "placement", runs=runs, rng=0)
    assert out["comparison"].nunique() == 3
    assert out["unit_of_analysis"].eq("run").all()
    per = out.groupby("comparison").first()
    assert (per["p_adj"] >= per["p_value"]).all()
    assert per["p_adj"].tolist() == pytest.approx(adjust_pvalues(per["p_value"], "holm"))
    assert out["test"].str.startswith("Welch t on log run medians (3 vs 3 runs").all()
    # one run a side and no replicated group: no test (was a packet test, the bug of issue 11)
    one = compare_groups(s[s.run_id.isin(["as0", "az0"])], "placement", runs=runs, rng=0)
    assert one["unit_of_analysis"].eq("run").all() and one["p_value"].isna().all()
    assert (
        "1 run per side: a placement effect cannot be separated from run-to-run "
        "variation" in one["note"].iloc[0]
    )
    # ... with replicated groups elsewhere, their between-run variance is borrowed
    borrowed = compare_groups(
        s[~s.run_id.isin(["as1", "as2", "az1", "az2"])],
        "placement",
        runs=runs,
        pairs=[("az", "as")],
        rng=0,
    )
    r = borrowed.set_index("effect").loc["ratio"]
    assert r["testable"] and r["df"] == 2 and "3 runs" in r["assumption"]
    chosen = compare_groups(s, "placement", runs=runs, pairs=[("az", "as")], rng=0)
    assert chosen.set_index("effect").loc["shift", "estimate"] > 0
    with pytest.raises(ValueError, match="no group"):
        compare_groups(s, "placement", runs=runs, pairs=[("az", "an")])


def test_windows_of_one_execution_are_one_run():
    """Two windows of one execution per side are one run a side: no run-level test."""
    rng = np.random.default_rng(7)
    rows, runs = [], []
    for side, mu in (("a", 100.0), ("b", 120.0)):
        for w in range(2):
            rid = f"{side}{w}"
            runs.append({"run_id": rid, "campaign": "c", "side": side, "execution": f"x-{side}"})
            rows.append(
                pd.DataFrame(
                    {
                        "run_id": rid,
                        "seq": np.arange(500),
                        "rtt_us": rng.lognormal(np.log(mu), 0.1, 500),
                    }
                )
            )
    samples, runs = pd.concat(rows, ignore_index=True), pd.DataFrame(runs)
    res = compare_groups(samples, "side", runs=runs, between_runs="none", rng=1)
    r = res[res["effect"] == "ratio"].iloc[0]
    assert (r["n_runs_a"], r["n_runs_b"]) == (1, 1) and np.isnan(r["p_value"])
    whole = compare_groups(
        samples, "side", runs=runs.drop(columns="execution"), between_runs="none", rng=1
    )
    w = whole[whole["effect"] == "ratio"].iloc[0]
    assert (w["n_runs_a"], w["n_runs_b"]) == (2, 2) and w["p_value"] < 0.05


def _three_placements():
    rng = np.random.default_rng(5)
    vals, rows = {}, []
    for g, mu in (("as", 4.0), ("az", 4.2), ("ppg", 3.9)):
        for i in range(3):
            vals[f"{g}{i}"] = rng.lognormal(mu, 0.2, 300)
            rows.append({"run_id": f"{g}{i}", "placement": g})
    return _frames.samples(vals), _frames.runs(rows)


def test_compare_groups_checks_its_pairs_and_adjustment_before_any_work():
    """A group named in the last pair that does not exist is refused before the first pair
    draws its random numbers; an unknown adjustment is refused with no pair to adjust."""
    s, runs = _three_placements()
    rng = np.random.default_rng(0)
    before = rng.bit_generator.state
    with pytest.raises(ValueError, match=r"no group \['an'\]"):
        compare_groups(s, "placement", runs=runs, pairs=[("az", "as"), ("az", "an")], rng=rng)
    assert rng.bit_generator.state == before
    one = s[s.run_id.str.startswith("az")]
    with pytest.raises(ValueError, match="adjust must be one of"):
        compare_groups(one, "placement", runs=runs, adjust="sidak")
