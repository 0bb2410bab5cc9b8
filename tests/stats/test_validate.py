"""The simulation study of benchmarks/validate_stats.py in quick mode: a few seconds, coarse
checks that no interval is badly off and that the asymmetry test is not fooled by
autocorrelation (the full study, with its table, is run by hand; see docs/statistics.md)."""

from __future__ import annotations

import importlib.util

from tests.conftest import ROOT


def _module():
    path = ROOT / "benchmarks" / "validate_stats.py"
    spec = importlib.util.spec_from_file_location("validate_stats", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_quick_simulation_study():
    table = _module().run(quick=True)
    cov = table[table.study != "asymmetry"]
    auto = cov[cov.method == "auto"]
    # 12-20 replicates each: a correct 95% interval stays above 75% with near certainty; the
    # iid method on autocorrelated data (not run here, see the full table) falls to ~60%.
    assert (auto["coverage"] >= 0.75).all(), auto[["scenario", "stat", "coverage"]]
    iid_exact = cov[(cov.scenario == "iid lognormal") & cov.exact_coverage.notna()]
    assert (iid_exact["exact_coverage"] >= 0.95).all()
    ar = cov[(cov.scenario == "AR(1) φ=0.8") & (cov.stat == "p50")].iloc[0]
    assert ar["n_eff"] < 3000  # the dependence was seen: 10,000 packets count as ~1,600
    asym = table[table.study == "asymmetry"].set_index("method")
    assert asym.loc["auto", "rate"] <= 0.5
