"""Before and after (issue 41, ``stats.before_after``): the run is the unit, Holm over the
table, "~" where nothing is detected, equivalence (TOST) where "the same" is shown, the gate
that fails only a significant change beyond the margin in the bad direction, and "need ≥ 2
runs per side" instead of a p-value from packets.  Checked against known truth (seeded
simulations; the full study is benchmarks/validate_stats.py, docs/statistics.md)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from azlatency import stats
from azlatency.stats.before_after import COLUMNS
from tests.stats import _frames

KEYS = ["cell", "tool", "metric", "stat"]


def _values(cells: dict, rng, *, sigma_b=0.03, level=100.0, stat="p50", tool="sockperf"):
    """{cell: (runs before, runs after, true ratio)} → one value per run."""
    rows = []
    for cell, (kb, ka, ratio) in cells.items():
        for side, k, r in (("before", kb, 1.0), ("after", ka, ratio)):
            for _ in range(k):
                v = level * r * np.exp(sigma_b * rng.standard_normal())
                rows.append({"cell": cell, "tool": tool, "metric": "rtt", "stat": stat,
                             "side": side, "value": v, "unit": "us"})  # fmt: skip
    return pd.DataFrame(rows)


def test_known_change_found_with_its_interval_and_the_rest_same_or_tilde():
    rng = np.random.default_rng(41)
    v = _values({"slow": (5, 5, 1.25), "a": (5, 5, 1.0), "b": (5, 5, 1.0)}, rng)
    t = stats.before_after(v, KEYS).set_index("cell")
    slow = t.loc["slow"]
    assert slow["verdict"] == "worse" and slow["gate"] == "fail" and slow["significant"]
    assert slow["ci_low"] < 1.25 < slow["ci_high"]
    assert slow["estimate"] == pytest.approx(slow["after"] / slow["before"])
    for cell in ("a", "b"):
        assert t.loc[cell, "verdict"] in ("same", "~") and t.loc[cell, "gate"] == "pass"
    assert (t.loc[["a", "b"], "verdict"] == "same").all()  # 5 runs, σ 3 %: within ±10 % shown
    # Holm: the smallest p times the number of tests
    assert t["p_adj"].min() == pytest.approx(3 * t["p_value"].min())
    assert "holm-adjusted" in slow["caption"] and "fails the gate" in slow["caption"]


def test_one_run_a_side_borrows_pooled_variance_or_says_what_it_needs():
    rng = np.random.default_rng(3)
    v = _values({"one": (1, 1, 1.0), "rep": (4, 4, 1.0)}, rng)
    t = stats.before_after(v, KEYS).set_index("cell")
    assert t.loc["one", "testable"] and "borrowed" in t.loc["one", "method"]
    assert "runs assumed to vary as much as" in t.loc["one", "assumption"]
    alone = stats.before_after(v[v["cell"] == "one"], KEYS)
    r = alone.iloc[0]
    assert not r["testable"] and np.isnan(r["p_value"]) and np.isnan(r["ci_low"])
    assert r["note"].startswith("need ≥ 2 runs per side (1 before, 1 after)")
    assert r["verdict"] == "not tested" and r["gate"] == "not tested"
    never = stats.before_after(v, KEYS, between_runs="none").set_index("cell")
    assert not never.loc["one", "testable"]


def test_gate_needs_significance_and_the_margin_in_the_bad_direction():
    rng = np.random.default_rng(5)
    v = _values({"small": (10, 10, 1.05), "big": (10, 10, 1.3), "faster": (10, 10, 0.7)}, rng,
                sigma_b=0.01)  # fmt: skip
    t = stats.before_after(v, KEYS).set_index("cell")
    # +5 %: significant, but within ±10 %: worse and passes; -30 %: better, never fails
    assert t.loc["small", "verdict"] == "worse" and t.loc["small", "gate"] == "pass"
    assert t.loc["big", "gate"] == "fail"
    assert t.loc["faster", "verdict"] == "better" and t.loc["faster", "gate"] == "pass"
    # throughput: higher is better, so a drop is the bad direction
    tp = v.assign(better="higher", stat="throughput", unit="bps")
    g = stats.before_after(tp, KEYS).set_index("cell")
    assert g.loc["faster", "gate"] == "fail" and g.loc["big", "verdict"] == "better"
    wide = stats.before_after(v, KEYS, margin=0.5).set_index("cell")
    assert not (wide["gate"] == "fail").any()  # beyond 50 % nothing here is


def test_tost_is_the_interval_at_twice_alpha_inside_the_margin():
    """Schuirmann's duality: equivalence at α (one row, no adjustment) exactly when the
    (1 − 2α) interval of the ratio lies inside [1 − m, 1 + m]."""
    rng = np.random.default_rng(11)
    cells = {i: (4, 6, float(np.exp(rng.normal(0, 0.05)))) for i in range(40)}
    v = _values(cells, rng, sigma_b=0.05)
    r = stats.before_after(v, KEYS, margin=0.08, adjust="none", between_runs="none")
    inner = stats.before_after(v, KEYS, level=0.90, adjust="none", between_runs="none")
    inside = (inner["ci_low"] > 0.92) & (inner["ci_high"] < 1.08)
    assert ((r["tost_p"] < 0.05) == inside).all()
    assert 5 < inside.sum() < 35  # both outcomes occur


def test_loss_is_a_difference_in_points_and_zero_everywhere_is_no_change():
    rows = [{"cell": c, "tool": "ping", "metric": "loss", "stat": "loss", "side": s,
             "value": v, "unit": "pct", "scale": "difference"}
            for c, s, vals in (("flat", "before", [0] * 5), ("flat", "after", [0] * 5),
                               ("up", "before", [0, 0.2, 0, 0.1, 0]),
                               ("up", "after", [2.1, 1.8, 2.4, 2.0, 1.9]))
            for v in vals]  # fmt: skip
    t = stats.before_after(pd.DataFrame(rows), KEYS, abs_margin=0.5).set_index("cell")
    assert t.loc["up", "estimate"] == pytest.approx(2.04 - 0.06)
    assert t.loc["up", "gate"] == "fail" and "pt" in t.loc["up", "caption"]
    flat = t.loc["flat"]
    assert flat["verdict"] == "~" and flat["gate"] == "pass" and not flat["testable"]
    assert "same value on both sides" in flat["note"]


def test_bad_input_is_named():
    v = pd.DataFrame({"cell": ["a"], "side": ["later"], "value": [1.0]})
    with pytest.raises(ValueError, match="side must be 'before' or 'after'"):
        stats.before_after(v, ["cell"])
    with pytest.raises(ValueError, match="margin must be a fraction"):
        stats.before_after(v.assign(side="before"), ["cell"], margin=10)
    with pytest.raises(ValueError, match="values need the columns"):
        stats.before_after(v, ["zone"])
    with pytest.raises(ValueError, match="adjust must be one of"):
        stats.before_after(v.iloc[:0], ["cell"], adjust="sidak")  # refused with no cell too


def test_run_statistics_one_value_per_run_and_what_a_run_cannot_give():
    rng = np.random.default_rng(2)
    x = {"long": _frames.ar1_lognormal(2000, 0.5, rng), "short": _frames.ar1_lognormal(50, 0, rng)}
    s = _frames.samples(x)
    out = stats.run_statistics(s, stats=("p50", "p99.9", "mean")).set_index(["run_id", "stat"])
    assert out.loc[("long", "p50"), "value"] == pytest.approx(np.quantile(x["long"], 0.5))
    assert out.loc[("long", "mean"), "value"] == pytest.approx(x["long"].mean())
    assert out.loc[("long", "p99.9"), "value"] == pytest.approx(np.quantile(x["long"], 0.999))
    short = out.loc[("short", "p99.9")]
    assert np.isnan(short["value"]) and short["note"] == "50 observations: p99.9 needs ≥ 1000"


def test_geomean_row_is_the_geometric_mean_of_each_column():
    rng = np.random.default_rng(8)
    t = stats.before_after(_values({"a": (5, 5, 1.2), "b": (5, 5, 1.0)}, rng), KEYS)
    g = stats.geomean_rows(t).iloc[0]
    assert g["estimate"] == pytest.approx(np.sqrt(t["estimate"].prod()))
    assert g["before"] == pytest.approx(np.sqrt(t["before"].prod()))


def _replicates(reps: int, k: int, rng, *, ratio=1.0, sigma_b=0.05, n=500) -> pd.DataFrame:
    """``reps`` simulated campaigns as the cells of one table (one row each): per side ``k``
    runs of ``n`` packets (log-AR(1) φ = 0.5) whose scale varies from run to run (σ_b), each
    run's median its value; the after side × ``ratio``."""
    rows = []
    for i in range(reps):
        for side, r in (("before", 1.0), ("after", ratio)):
            for _ in range(k):
                x = _frames.ar1_lognormal(n, 0.5, rng) * np.exp(sigma_b * rng.standard_normal())
                rows.append({"cell": i, "side": side, "value": r * float(np.median(x))})
    return pd.DataFrame(rows)


def _rates(values: pd.DataFrame, **kw) -> pd.DataFrame:
    """Each replicate is its own campaign: no adjustment across them, nothing borrowed."""
    return stats.before_after(values, ["cell"], adjust="none", between_runs="none", **kw)


@pytest.mark.parametrize("k", [3, 5])
def test_quick_simulation_false_failures_at_most_nominal(k):
    """The quick version of the study (docs/statistics.md "Before and after"): no true
    change, run-to-run variation 5 %; a two-sided 5 % test, so the gate (one direction) at
    margin 0 fails about 2.5 % of the time, and less beyond a margin."""
    reps = 300
    v = _replicates(reps, k, np.random.default_rng(100 + k))
    t0, t10 = _rates(v, margin=0.0), _rates(v, margin=0.10)
    se = np.sqrt(0.05 * 0.95 / reps)
    assert t0["significant"].mean() <= 0.05 + 3 * se
    assert (t0["gate"] == "fail").mean() <= 0.025 + 3 * se
    assert (t10["gate"] == "fail").mean() <= (t0["gate"] == "fail").mean()


def test_tost_false_equivalence_at_the_margin_is_at_most_alpha():
    """True ratio exactly at the margin (1.10): "the same within ±10 %" is claimed in at most
    5 % of campaigns (5 runs a side); with no change it is shown in most."""
    rng = np.random.default_rng(9)
    reps = 300
    edge = _rates(_replicates(reps, 5, rng, ratio=1.10, sigma_b=0.03))
    assert (edge["verdict"] == "same").mean() <= 0.05 + 3 * np.sqrt(0.05 * 0.95 / reps)
    none = _rates(_replicates(100, 5, rng, ratio=1.0, sigma_b=0.03))
    assert (none["verdict"] == "same").mean() >= 0.8


def test_module_columns_are_documented():
    t = stats.before_after(_values({"a": (3, 3, 1.0)}, np.random.default_rng(1)), KEYS)
    assert list(t.columns) == [*KEYS, *COLUMNS]
