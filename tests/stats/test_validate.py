"""The simulation study of benchmarks/validate_stats.py in quick mode (one process, ~15 s):
the harness works on every row of issue 11's table, verdicts follow the bar, and the cells
that hold in the full study (docs/statistics.md, "Validation against known truth") hold here
within a tolerance of three Monte-Carlo standard errors at the bar."""

from __future__ import annotations

import importlib.util

import numpy as np
import pandas as pd
import pytest

from tests.conftest import ROOT


def _module():
    path = ROOT / "benchmarks" / "validate_stats.py"
    spec = importlib.util.spec_from_file_location("validate_stats", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def study():
    vs = _module()
    return vs, vs.run(quick=True, workers=1)


def _cell(table: pd.DataFrame, group: str, design: str, stat: str) -> pd.Series:
    rows = table[table.group.eq(group) & table.design.eq(design) & table.stat.eq(stat)]
    assert len(rows) == 1, (group, design, stat)
    return rows.iloc[0]


def _floor(reps: int) -> float:
    """Lowest (covered + not estimable) share a correct 95 % interval reaches with near
    certainty at ``reps`` replicates."""
    return 0.925 - 3 * np.sqrt(0.95 * 0.05 / reps)


def test_quick_study_covers_every_row_of_the_issue(study):
    vs, table = study
    groups = {d.group for d in vs.designs()}
    # issue 11's rows, + the pooled population (29.4), the last records (29.2) and before/after
    # (41: no change, a table, power, equivalence)
    assert set(table.group) == groups and len(groups) == 18
    assert table.reps.gt(0).all()
    verdicts = ["pass", "fail", "warned", "over-covers", "measured"]
    assert table.verdict.str.split(" ").str[0].isin(verdicts).all()
    cov = table[table.kind.eq("coverage") & table.result.notna()]
    assert ((cov.result >= 0) & (cov.result <= 1) & cov.mc_se.ge(0)).all()


def test_verdicts_follow_the_bar():
    vs = _module()
    assert vs.verdict("fp", 0.05, 0.015, 0.06) == "pass"
    assert vs.verdict("fp", 0.07, 0.015, 0.06) == "pass (MC)"
    assert vs.verdict("fp", 0.30, 0.015, 0.06) == "fail"
    assert vs.verdict("coverage", 0.95, 0.01, 0, 0.95, 0.01) == "pass"
    assert vs.verdict("coverage", 0.80, 0.01, 0, 0.80, 0.01) == "fail"
    assert vs.verdict("coverage", 0.80, 0.01, 0, 0.80, 0.01, warned=1.0) == "warned"
    assert vs.verdict("coverage", 1.0, 0.01, 0, 1.0, 0.01) == "over-covers"
    # not estimable counts as honest: 60 % covered + 35 % "not estimable" passes the floor
    assert vs.verdict("coverage", 0.95, 0.01, 0, 0.92, 0.02) == "pass"


@pytest.mark.parametrize(
    "design, stat",
    [
        ("n=50, log-AR(1) φ=0.0", "p50"),
        ("n=10000, log-AR(1) φ=0.0", "p50"),
        ("n=10000, log-AR(1) φ=0.0", "p99"),
        ("n=10000, log-AR(1) φ=0.9", "p50"),
        ("n=10000, log-AR(1) φ=0.9", "p99"),
    ],
)
def test_quantile_intervals_that_hold(study, design, stat):
    row = _cell(study[1], "quantile CI, dependence='auto'", design, stat)
    assert row.honest >= _floor(row.reps), row


@pytest.mark.parametrize("design", ["n=10, log-AR(1) φ=0.7", "n=20, log-AR(1) φ=0.0",
                                    "n=50, log-AR(1) φ=0.5"])  # fmt: skip
@pytest.mark.parametrize("stat", ["mean", "p50"])
def test_short_series_hold_or_say_not_estimable(study, design, stat):
    """Issue 29, item 1: a short series is never taken as independent because a test could
    not see its dependence (n=10, φ=0.7 covered 57 % before; 54 % in the issue)."""
    row = _cell(study[1], "short series, mean and p50, dependence='auto'", design, stat)
    assert row.honest >= _floor(row.reps), row


def test_too_few_points_for_p99_is_said(study):
    # n = 50 has less than one point beyond p99: every replicate says "not estimable"
    for phi in (0.0, 0.9, 0.99):
        row = _cell(study[1], "quantile CI, dependence='auto'", f"n=50, log-AR(1) φ={phi}", "p99")
        assert row.not_estimable == 1.0


@pytest.mark.parametrize("stat", ["p50", "p99", "p99.9"])
def test_spike_mixture_quantiles(study, stat):
    row = _cell(study[1], "quantile CI, spike mixture", "n=10⁴, iid body + 0.1 % spikes ×10", stat)
    assert row.honest >= _floor(row.reps), row


def test_run_unit_quantiles_over_ten_runs(study):
    for stat in ("p50", "p99"):
        row = _cell(
            study[1], "pooled p50/p99, run unit (auto)", "σ_between=0.2, 10 runs × 1000", stat
        )
        assert row.honest >= _floor(row.reps), row


def test_change_points_on_drift_and_spikes(study):
    table = study[1]
    shift = _cell(
        table,
        "change points, drift + spikes",
        "same (φ=0.9) with a +20 % shift at 5.5 h",
        "+20 % shift magnitude",
    )
    assert shift.result == 1.0  # found, with the truth in its interval, in each replicate
    null = _cell(
        table,
        "change points, drift + spikes",
        "11 h at 1 Hz, AR(1) φ=0.9, +3 % drift, 8 spikes, no shift",
        "≥ 1 false level change",
    )
    assert null.result <= 1 / 3  # 3 replicates: the full study measures the rate (≤ 5 %)


@pytest.mark.parametrize(
    "design", ["σ_between=0.0, 10 runs × 1000", "σ_between=0.5, 10 runs × 1000"]
)
@pytest.mark.parametrize("stat", ["p50", "p99"])
def test_pooled_population_holds_whether_runs_differ_or_not(study, design, stat):
    """Issue 29, item 4: the pooled-population percentile covers with runs alike and with
    runs that differ more than packets do (the quick study's cells; the full grid in
    docs/statistics.md)."""
    row = _cell(study[1], "pooled population p50/p99 (unit='population')", design, stat)
    assert row.honest >= _floor(row.reps) and row.not_estimable == 0.0, row


def test_before_after_rows_run_and_the_known_change_is_found(study):
    """Issue 41: the quick cells of the before/after study ran without an error; a +20 %
    change with 5 runs a side is found (the full study's power table is in
    docs/statistics.md); with no change the gate failed no campaign in the quick cells."""
    table = study[1]
    ab = table[table.group.str.startswith("before/after")]
    assert len(ab) >= 12 and ab.errors.eq(0).all()
    found = _cell(table, "before/after power, 10 % margin", "σ_between=0.05, 5 runs a side, +20%",
                  "p50: detected")  # fmt: skip
    assert found.result >= 0.8 and found.verdict == "measured"
    null = ab[ab.group.str.contains("no change") & ab.stat.str.contains("gate")]
    assert len(null) >= 5 and (null.result <= 0.2).all()
