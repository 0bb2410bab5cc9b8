"""``make bench`` judges issue 39's goals from the figures of its own run
(``benchmarks/_goals.py``): a goal is met, not met, or not run; never an older figure."""

from __future__ import annotations

import importlib.util
import sys

from tests.conftest import ROOT

BENCH = ROOT / "benchmarks"


def _goals():
    spec = importlib.util.spec_from_file_location("_goals", BENCH / "_goals.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("_goals", module)  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def test_every_goal_names_a_benchmark_that_exists():
    for goal in _goals().goals():
        assert (BENCH / f"bench_{goal.bench}.py").is_file(), goal.bench


def test_goals_are_judged_from_this_runs_figures_only():
    goals = _goals()
    results = {
        "ping": {"ratio_parse_vs_jc": 31.0},
        "iperf3": {
            "json_hour_P4_parse_over_peer": 3.04,
            "server_log_1200_tests_parse_over_peer": 9.9,
        },  # fmt: skip
        "scaling": {"points": [{"size": "1e8", "import_time_ratio_vs_duckdb_write": 1.1}]},
    }
    rows = {r["goal"]: r for r in goals.judge(results)}
    assert rows["ping parse vs jc"]["verdict"] == "met"
    assert rows["iperf3 -J hour vs json.loads"] == {
        "goal": "iperf3 -J hour vs json.loads",
        "target": "<= 3 x",
        "value": 3.04,
        "verdict": "not met",
    }
    assert rows["iperf3 server log vs re.findall"]["verdict"] == "met"
    assert rows["echo CSV vs pandas read_csv"]["verdict"] == "not run"
    # the scaling benchmark ran, but not at 10^9: its 10^8 figure is not carried over
    big = rows["10^9 import vs DuckDB read_csv -> Parquet"]
    assert (big["value"], big["verdict"]) == (None, "not measured in this run")
    assert rows["10^9 import peak"]["target"] == "<= 954 MiB (1 GB)"
    text = goals.table(list(rows.values()))
    assert "3.04  <= 3 x" in text
    assert (text.count("not run"), text.count("not measured")) == (3, 4)
