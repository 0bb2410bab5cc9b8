"""Summary-only inputs: a normal interval for a printed mean with its caveat, the tool's own
interval passed through, ranges (never averages) of percentiles across runs, merged
histograms."""

from __future__ import annotations

import importlib.util

import numpy as np
import pytest
from scipy import stats

import azlatency
from azlatency import schema
from azlatency.stats import histogram_quantiles, summary_only_interval, summary_ranges
from tests.conftest import FIXTURES, needs_shared, seed
from tests.stats import _frames


def _seed000():
    # seed 000 run 1 (1400 bytes): line 38 "avg-rtt=94.790 (std-dev=9.300)", line 41 "Total
    # 1060186 observations", line 46 "percentile 99.000 = 106.059", line 49 "percentile
    # 50.000 = 93.556"; run 2 (350 bytes): lines 71, 74, 79, 82: 85.902, 7.425, 1169871,
    # 96.321, 84.389.
    rows = []
    for rid, mean, std, n, p99, p50 in (
        ("m1400", 94.790, 9.300, 1060186, 106.059, 93.556),
        ("m350", 85.902, 7.425, 1169871, 96.321, 84.389),
    ):
        for stat, v, unit in (
            ("mean", mean, "us"),
            ("std", std, "us"),
            ("count", n, "count"),
            ("p99", p99, "us"),
            ("p50", p50, "us"),
        ):
            rows.append(
                {
                    "run_id": rid,
                    "metric": "rtt",
                    "stat": stat,
                    "value": v,
                    "unit": unit,
                    "source": "reported",
                    "n": n,
                }
            )
    return schema.frame("summaries", rows)


def test_normal_interval_from_mean_std_and_count_with_caveat():
    out = summary_only_interval(_seed000()).set_index("run_id")
    half = stats.norm.ppf(0.975) * 9.300 / np.sqrt(1060186)
    r = out.loc["m1400"]
    assert (r["ci_low"], r["ci_high"]) == pytest.approx((94.790 - half, 94.790 + half))
    assert r["estimate"] == 94.790 and r["n"] == 1060186 and r["estimable"]
    assert "autocorrelated" in r["caveat"] and "wider" in r["caveat"]
    assert r["method"] == "normal (mean ± z·std/√n)"


def test_without_a_count_there_is_no_interval():
    s = _seed000()
    s = s[s.stat != "count"].assign(n=None)
    s = schema.frame("summaries", s)
    out = summary_only_interval(s)
    assert not out["estimable"].any() and out["ci_low"].isna().all()
    assert "did not print count" in out["note"].iloc[0]


def test_ranges_never_average_percentiles():
    s = _seed000()
    runs = _frames.runs(
        [{"run_id": "m1400", "placement": "zone"}, {"run_id": "m350", "placement": "zone"}]
    )
    out = summary_ranges(s, runs, by="placement").set_index("stat")
    assert (out.loc["p99", "range_low"], out.loc["p99", "range_high"]) == (96.321, 106.059)
    assert np.isnan(out.loc["p99", "pooled"]) and "not averaged" in out.loc["p99", "note"]
    pooled = (94.790 * 1060186 + 85.902 * 1169871) / (1060186 + 1169871)
    assert out.loc["mean", "pooled"] == pytest.approx(pooled)
    assert out.loc["mean", "n_runs"] == 2


@needs_shared
def test_tool_interval_passes_through_from_seed_001():
    if importlib.util.find_spec("azlatency.parsers.sockperf") is None:
        pytest.skip("sockperf parser not present")
    tables = azlatency.read(seed("001"))
    out = summary_only_interval(tables.summaries, metric="half_rtt")
    sock = out[out.run_id.isin(tables.runs.loc[tables.runs.tool == "sockperf", "run_id"])]
    # line 226: "avg-latency=37.645 (... 99.0% ci=[37.519, 37.771])"
    row = sock[sock.estimate == 37.645].iloc[0]
    assert (row["ci_low"], row["ci_high"], row["level"]) == (37.519, 37.771, 0.99)
    assert row["method"] == "reported by the tool"
    # qperf prints only "latency = 38.8 us" (and its message count): no std, no interval
    qperf = out[out.run_id.isin(tables.runs.loc[tables.runs.tool == "qperf", "run_id"])]
    assert len(qperf) and not qperf["estimable"].any()


def test_merged_histograms_give_bins_with_exact_intervals():
    rng = np.random.default_rng(0)
    data = {r: np.floor(rng.lognormal(3, 0.3, 3000)) for r in ("h1", "h2")}
    rows = []
    for rid, x in data.items():
        edges, counts = np.unique(x, return_counts=True)
        rows += [
            {
                "run_id": rid,
                "seq": i,
                "kind": "histogram",
                "status": "ok",
                "bin_low_us": e,
                "bin_high_us": e + 1,
                "count": c,
            }
            for i, (e, c) in enumerate(zip(edges, counts))
        ]
    samples = schema.frame("samples", rows)
    runs = _frames.runs([{"run_id": r, "scenario": "s"} for r in data])
    out = histogram_quantiles(samples, runs, by="scenario", quantiles=[0.5, 0.99, 0.99999])
    out = out.set_index("stat")
    pooled = np.sort(np.r_[data["h1"], data["h2"]])
    ci = stats.quantile_test(pooled, p=0.99).confidence_interval()
    p99 = out.loc["p99"]
    assert p99["bound_low"] <= np.quantile(pooled, 0.99, method="inverted_cdf") < p99["bound_high"]
    assert p99["ci_low"] <= ci.low and p99["ci_high"] >= ci.high  # widened to bin edges
    assert p99["ci_high"] - ci.high <= 1 and ci.low - p99["ci_low"] <= 1
    assert p99["n"] == 6000 and p99["n_runs"] == 2
    assert not out.loc["p99.999", "estimable"]


def test_the_interval_carries_the_means_unit_not_the_counts():
    """ping prints 'N received' before 'rtt min/avg/max/mdev': the mean was labelled 'count'."""
    tables = azlatency.read(
        FIXTURES / "ping" / "ping--iputils-20221126-linux-c15-i0.2-gap-partial-loss.txt"
    )
    out = summary_only_interval(tables.summaries)
    assert out[["stat", "unit", "estimate"]].values.tolist() == [["mean", "us", 33.0]]


def test_each_run_carries_its_own_unit():
    """Two runs of a metric printed in different units: each interval says its run's (the
    first run's unit labelled every run)."""
    s = _seed000()
    s = schema.frame(
        "summaries",
        s.assign(unit=np.where((s.run_id == "m350") & (s.stat != "count"), "ms", s.unit)),
    )
    out = summary_only_interval(s).set_index("run_id")
    assert out["unit"].to_dict() == {"m1400": "us", "m350": "ms"}
