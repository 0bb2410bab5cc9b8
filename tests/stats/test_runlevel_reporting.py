"""The run as the unit in the reports: the zone matrix marks an asymmetry only under a
run-level test and shows which pairs cannot be tested; contrasts with one run a side borrow
the campaign's between-run variance and say so; every row states unit, runs per side and
method in its columns and caption."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402

from azlatency import plots, schema  # noqa: E402
from azlatency import report as rep
from azlatency.schema import Tables  # noqa: E402

T0 = 1_742_464_800 * 10**9


def _tables(cells: dict[tuple, int], rng, *, scale=None, n=200) -> Tables:
    """sockperf-like runs: ``cells`` maps (src, dst, placement[, message size]) to a number
    of runs; run medians vary by a lognormal factor σ = 0.05."""
    runs, samples = [], []
    for key, k in cells.items():
        src, dst, placement, size = (*key, 64)[:4]
        for r in range(k):
            rid = f"{src}{dst}-{placement}-{size}-{r}"
            mu = np.log((scale or {}).get(key, 100.0)) + 0.05 * rng.normal()
            x = rng.lognormal(mu, 0.05, n)
            runs.append(
                {
                    "run_id": rid,
                    "campaign": "c",
                    "source_path": f"{rid}.csv",
                    "source_sha256": "0" * 64,
                    "block": 0,
                    "line_start": 1,
                    "line_end": 1,
                    "tool": "sockperf",
                    "parser_variant": "full-log",
                    "complete": True,
                    "latency_basis": "rtt",
                    "src_zone": src,
                    "dst_zone": dst,
                    "msg_size_bytes": size,
                    "scenario": "matrix",
                    "protocol": "tcp",
                    "placement": placement,
                }
            )
            samples.append(
                pd.DataFrame(
                    {
                        "run_id": rid,
                        "seq": np.arange(n),
                        "kind": "packet",
                        "status": "ok",
                        "rtt_us": x,
                        "tx_time_ns": T0 + np.arange(n) * 10**6,
                    }
                )
            )
    return Tables(
        schema.frame("runs", runs),
        schema.frame("samples", pd.concat(samples)),
        schema.empty("summaries"),
    )


def test_zone_matrix_marks_only_run_level_asymmetries_and_shows_untestable_pairs():
    rng = np.random.default_rng(1)
    cells = {
        ("1", "2", "cross_zone"): 1,
        ("2", "1", "cross_zone"): 1,
        ("1", "3", "cross_zone"): 4,
        ("3", "1", "cross_zone"): 4,
    }
    scale = {("1", "2", "cross_zone"): 150.0, ("1", "3", "cross_zone"): 130.0}
    t = _tables(cells, rng, scale=scale)
    asym = rep.asymmetry_table(t, rng=0, between_runs="none")
    tested = asym[~asym["mirrored"]].set_index(["src_zone", "dst_zone"])
    one, four = tested.loc[("1", "2")], tested.loc[("1", "3")]
    # 1 run a direction: a 50 % difference and 200 packets a side, yet no test
    assert not one["testable"] and not one["asymmetric"] and np.isnan(one["p_adj"])
    assert (one["n_runs_a"], one["n_runs_b"]) == (1, 1) and one["unit_of_analysis"] == "run"
    assert "1 run per side: a direction effect cannot be separated" in one["caption"]
    assert (
        four["testable"] and four["asymmetric"] and four["estimate"] == pytest.approx(1.3, rel=0.1)
    )
    assert "unit: runs, 4 vs 4 runs; method: Welch t on log run medians" in four["caption"]
    med = rep.zone_pair_medians(t)
    frame = rep.matrix_frame(med, asym).set_index(["src_zone", "dst_zone"])
    assert frame.loc[("2", "1"), "untestable"] and not frame.loc[("2", "1"), "asymmetric"]
    assert frame.loc[("3", "1"), "asymmetric"] and not frame.loc[("3", "1"), "untestable"]
    assert "direction: not testable (1 run per side" in frame.loc[("1", "2"), "caption"]
    fig, ax = plt.subplots()
    plots.zone_matrix(frame.reset_index(), value="estimate", asymmetric="asymmetric", ax=ax)
    texts = [x.get_text() for x in ax.texts]
    assert sum(x.endswith("‡") for x in texts) == 2 and sum(x.endswith("†") for x in texts) == 2
    assert "‡ 1 run per direction: not testable" in ax.get_title(loc="left")
    plt.close(fig)
    # The replicated 1↔3 cells lend their run-to-run variation to 1↔2, which then is tested.
    pooled = rep.asymmetry_table(t, rng=0)
    r = pooled[~pooled["mirrored"]].set_index(["src_zone", "dst_zone"]).loc[("1", "2")]
    assert r["testable"] and r["df"] == 6 and "2 replicated conditions of" in r["assumption"]
    # Packets pooled on request never mark a pair.
    packets = rep.asymmetry_table(t, rng=0, unit="packet")
    assert not packets["asymmetric"].any() and (packets["p_value"] < 1e-6).any()


def test_contrasts_state_unit_runs_and_method_and_borrow_variance_for_one_run():
    rng = np.random.default_rng(2)
    cells = {
        ("1", "1", "same_zone", 64): 1,
        ("1", "1", "ppg", 64): 1,
        ("1", "1", "same_zone", 1400): 3,
        ("1", "1", "ppg", 1400): 3,
    }
    t = _tables(cells, rng, scale={("1", "1", "ppg", 64): 80.0, ("1", "1", "ppg", 1400): 90.0})
    c = rep.contrasts(t, rng=0)
    c = c[c["factor"] == "placement"]
    assert len(c) == 2
    assert set(c["unit_of_analysis"]) == {"run"}
    one = c[c["n_runs_a"] == 1].iloc[0]
    three = c[c["n_runs_a"] == 3].iloc[0]
    # 1 run a side: the between-run sd of the two 3-run conditions (4 df) is borrowed
    assert one["testable"] and one["df"] == 4 and "4 df" in one["assumption"]
    assert "assumption: runs assumed to vary as much" in one["caption"]
    assert three["testable"] and three["assumption"] == "" and three["n_runs_b"] == 3
    assert "unit: runs, 3 vs 3 runs; method: Welch t on log run medians;" in three["caption"]
    assert c["caption"].str.startswith("placement: ppg vs same_zone").all()


def test_printed_values_of_several_runs_a_side_are_compared_run_by_run():
    """qperf-like runs that print one mean each: 3 vs 3 runs are a run-level test of the
    printed values (no samples needed); 1 vs 1 stays a bare ratio without an interval."""
    base = {
        "campaign": "c",
        "source_sha256": "0" * 64,
        "block": 0,
        "line_start": 1,
        "line_end": 1,
        "tool": "qperf",
        "parser_variant": "text",
        "complete": True,
        "latency_basis": "half_rtt",
        "src_zone": "1",
        "dst_zone": "2",
        "protocol": "tcp",
    }
    values = {"ppg": [40.0, 42.0, 41.0], "same_zone": [50.0, 53.0, 51.0]}
    runs, summ = [], []
    for placement, vals in values.items():
        for i, v in enumerate(vals):
            rid = f"{placement}-{i}"
            runs.append(
                {**base, "run_id": rid, "source_path": f"{rid}.txt", "placement": placement}
            )
            summ.append(
                {
                    "run_id": rid,
                    "metric": "half_rtt",
                    "stat": "mean",
                    "value": v,
                    "unit": "us",
                    "source": "reported",
                }
            )
    t = Tables(schema.frame("runs", runs), schema.empty("samples"), schema.frame("summaries", summ))
    r = rep.contrasts(t, factors=("placement",)).iloc[0]
    la, lb = np.log(values["ppg"]), np.log(values["same_zone"])
    assert r["estimate"] == pytest.approx(np.exp(la.mean() - lb.mean()))
    assert r["testable"] and r["unit_of_analysis"] == "run" and r["ci_high"] < 1
    assert (r["n_runs_a"], r["n_runs_b"]) == (3, 3) and r["source"] == "reported"
    assert "Welch t on log run means (printed values, one per run)" in r["caption"]
    one = rep.contrasts(
        Tables(t.runs[t.runs.run_id.str.endswith("-0")], t.samples, t.summaries),
        factors=("placement",),
    ).iloc[0]
    assert one["estimate"] == pytest.approx(40 / 50) and np.isnan(one["ci_low"])
    assert not one["testable"] and "unit: printed values, 1 vs 1 runs" in one["caption"]
