"""Issue 39's goals, judged from one ``make bench`` run: each figure against its goal, printed
last by ``run_all.py`` and written to ``results/goals.json``.

A goal whose benchmark did not run (``run_all.py ping`` runs one) says so instead of carrying
an older figure over: the table speaks only of this run.  The 10^9 figures need
``AZL_SCALING_SIZES`` to include ``1e9`` (``bench_scaling.py``); without it the scaling
benchmark runs smaller sizes and those goals are "not run".
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

# 1 GB in the MiB that _timing's peaks are given in
_GB_MIB = 1e9 / 2**20


def _point(size: str, *keys: str) -> Callable[[dict], Any]:
    """A figure of ``bench_scaling``'s point of ``size`` (e.g. ``"1e9"``)."""

    def get(result: dict) -> Any:
        for p in result.get("points") or ():
            if p.get("size") == size:
                value: Any = p
                for k in keys:
                    value = value.get(k) if isinstance(value, dict) else None
                return value
        return None

    return get


def _key(name: str) -> Callable[[dict], Any]:
    return lambda result: result.get(name)


@dataclass(frozen=True)
class Goal:
    what: str
    bench: str  # the benchmark's name in results (bench_<name>.py)
    get: Callable[[dict], Any]
    most: float | None = None  # the figure must be at most this
    least: float | None = None  # or at least this
    unit: str = "x"

    def judge(self, results: dict[str, dict]) -> dict:
        result = results.get(self.bench)
        value = None if result is None else self.get(result)
        goal = f"<= {self.most:g}" if self.most is not None else f">= {self.least:g}"
        row = {"goal": self.what, "target": f"{goal} {self.unit}".strip(), "value": value}
        if value is None:
            row["verdict"] = "not run" if result is None else "not measured in this run"
        elif self.most is not None:
            row["verdict"] = "met" if value <= self.most else "not met"
        else:
            row["verdict"] = "met" if value >= self.least else "not met"
        return row


GOALS = (
    Goal("ping parse vs jc", "ping", _key("ratio_parse_vs_jc"), least=25),
    Goal(
        "sockperf full log vs pandas read_csv",
        "sockperf_fulllog",
        _key("time_ratio_vs_pandas"),
        most=0.7,
    ),  # fmt: skip
    Goal("echo CSV vs pandas read_csv", "echo_csv", _key("time_ratio"), most=0.7),
    Goal("iperf3 -J hour vs json.loads", "iperf3", _key("json_hour_P4_parse_over_peer"), most=3),
    Goal(
        "iperf3 server log vs re.findall",
        "iperf3",
        _key("server_log_1200_tests_parse_over_peer"),
        most=10,
    ),  # fmt: skip
    Goal(
        "report, cold (no page cache, no statistics derived)",
        "report",
        _key("report_cold_s"),
        most=20,
        unit="s",
    ),  # fmt: skip
    Goal(
        "10^9 import vs DuckDB read_csv -> Parquet",
        "scaling",
        _point("1e9", "import_time_ratio_vs_duckdb_write"),
        most=1.2,
    ),  # fmt: skip
    Goal(
        "10^9 summarize_store vs quantile_cont",
        "scaling",
        _point("1e9", "summary_time_ratio_vs_duckdb"),
        most=1.0,
    ),  # fmt: skip
    Goal(
        "10^9 import peak",
        "scaling",
        _point("1e9", "import", "tree_peak_mb"),
        most=round(_GB_MIB),
        unit="MiB (1 GB)",
    ),  # fmt: skip
    Goal(
        "10^9 summary peak",
        "scaling",
        _point("1e9", "summary", "tree_peak_mb"),
        most=round(_GB_MIB),
        unit="MiB (1 GB)",
    ),  # fmt: skip
)


def judge(results: dict[str, dict]) -> list[dict]:
    """Every goal's row: its figure in ``results`` (benchmark name -> result), the target and
    the verdict."""
    return [g.judge(results) for g in GOALS]


def table(rows: list[dict]) -> str:
    """The rows as aligned text, one goal a line."""
    lines = ["issue 39 goals, this run:"]
    width = max(len(r["goal"]) for r in rows)
    for r in rows:
        value = "-" if r["value"] is None else f"{r['value']:g}"
        lines.append(f"  {r['goal']:<{width}}  {value:>8}  {r['target']:<18} {r['verdict']}")
    return "\n".join(lines)
