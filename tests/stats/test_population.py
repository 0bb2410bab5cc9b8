"""``stats.population`` / ``summarize(unit="population")``: the percentiles of all packets of
a condition's runs, checked against known truth (log-normal packets within a run, log-normal
run-to-run shifts: the pooled population is log-normal with σ = √(σ_w² + σ_b²))."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats as st

from azlatency.stats import summarize
from azlatency.stats.common import Observations
from azlatency.stats.population import METHOD, MIN_RUNS, pooled_mean, pooled_quantile
from tests.stats import _frames


def _parts(rng, k: int, sigma_b: float, sigma_w: float = 0.3, n: int = 1000):
    out = []
    for i in range(k):
        x = np.exp(rng.normal(0, sigma_b) + sigma_w * rng.standard_normal(n))
        out.append(Observations(x, np.nan, 0, 0, np.full(n, f"r{i}", dtype=object)))
    return out


def _truth(q: float, sigma_b: float, sigma_w: float = 0.3) -> float:
    return float(np.exp(np.hypot(sigma_w, sigma_b) * st.norm.ppf(q)))


@pytest.mark.parametrize(
    ("sigma_b", "q"),
    [
        pytest.param(0.0, 0.99, marks=pytest.mark.slow),  # make test-slow: the other two
        pytest.param(0.2, 0.5, marks=pytest.mark.slow),
        (0.2, 0.99),
        (0.5, 0.99),
    ],
)
def test_pooled_percentile_covers_the_population_of_runs(sigma_b, q):
    # 10 runs, within-run log sd 0.3; between-run sd 0 (the nonparametric part holds), 0.2
    # (the design: the run-unit p99 covered 77 %) and 0.5 (runs differ more than
    # packets: the random-effects part holds)
    rng = np.random.default_rng(20261125)
    rows = [pooled_quantile(_parts(rng, 10, sigma_b), q) for _ in range(60)]
    assert all(r["estimable"] for r in rows)
    covered = np.mean([r["ci_low"] <= _truth(q, sigma_b) <= r["ci_high"] for r in rows])
    assert covered >= 0.9, covered
    assert all(r["method"] == METHOD and r["unit_of_analysis"] == "run" for r in rows)
    assert "normal random effect" in rows[0]["note"]


def test_the_estimate_is_the_pooled_packets_quantile_and_few_runs_say_why():
    rng = np.random.default_rng(3)
    parts = _parts(rng, 6, 0.05, n=200)
    pooled = np.concatenate([p.series for p in parts])
    r = pooled_quantile(parts, 0.9)
    assert r["estimate"] == np.quantile(pooled, 0.9, method="inverted_cdf")
    assert r["n"] == 1200 and r["n_runs"] == 6
    few = pooled_quantile(parts[: MIN_RUNS - 1], 0.9)
    assert not few["estimable"] and f"≥ {MIN_RUNS} runs" in few["note"]
    m = pooled_mean(parts)
    assert m["estimate"] == pytest.approx(pooled.mean())
    assert m["ci_low"] < m["estimate"] < m["ci_high"]


def test_summarize_population_unit():
    rng = np.random.default_rng(11)
    values = {
        f"r{i}": np.exp(4 + rng.normal(0, 0.05) + 0.3 * rng.standard_normal(500)) for i in range(6)
    }
    values["single"] = np.exp(4 + 0.3 * rng.standard_normal(500))
    samples = _frames.samples(values)
    runs = _frames.runs(
        [{"run_id": r, "scenario": "one run" if r == "single" else "six runs"} for r in values]
    )
    out = summarize(samples, runs, by="scenario", unit="population", quantiles=[0.5, 0.99])
    six = out[out["scenario"] == "six runs"].set_index("stat")
    assert six.loc["p99", "method"] == METHOD and six.loc["p99", "n_runs"] == 6
    pooled = np.concatenate([v for r, v in values.items() if r != "single"])
    assert six.loc["p99", "estimate"] == pytest.approx(
        np.quantile(pooled, 0.99, method="inverted_cdf")
    )
    assert six.loc["mean", "estimate"] == pytest.approx(pooled.mean())
    one = out[out["scenario"] == "one run"].set_index("stat")
    assert one.loc["p99", "unit_of_analysis"] != "run"  # one run: its packets, as "auto"
    with pytest.raises(ValueError, match="population"):
        summarize(samples, runs, by="scenario", unit="populace")
