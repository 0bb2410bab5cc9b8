"""Issue 39's goals (``goals.toml``), judged from one ``make bench`` run: each figure against
its goal, printed last by ``run_all.py`` and written to ``results/goals.json``.

A goal whose benchmark did not run (``run_all.py ping`` runs one) says so instead of carrying
an older figure over: the table speaks only of this run.  The 10^9 figures need
``AZL_SCALING_SIZES`` to include ``1e9`` (``bench_scaling.py``); without it the scaling
benchmark runs smaller sizes and those goals are "not measured in this run".
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

FILE = Path(__file__).with_name("goals.toml")


def figure(result: Any, keys: list[str]) -> Any:
    """The value at ``keys`` in ``result``; in a list (``bench_scaling``'s points) a key picks
    the item whose ``size`` it is.  None where there is none."""
    for key in keys:
        if isinstance(result, list):
            result = next((p for p in result if isinstance(p, dict) and p.get("size") == key), None)
        elif isinstance(result, dict):
            result = result.get(key)
        else:
            return None
    return result


@dataclass(frozen=True)
class Goal:
    what: str
    bench: str  # the benchmark's name in results (bench_<name>.py)
    figure: list[str]
    most: float | None = None  # the figure must be at most this
    least: float | None = None  # or at least this
    unit: str = "x"

    def judge(self, results: dict[str, dict]) -> dict:
        result = results.get(self.bench)
        value = None if result is None else figure(result, self.figure)
        bound = f"<= {self.most:g}" if self.most is not None else f">= {self.least:g}"
        row = {"goal": self.what, "target": f"{bound} {self.unit}", "value": value}
        if value is None:
            row["verdict"] = "not run" if result is None else "not measured in this run"
        elif self.most is not None:
            row["verdict"] = "met" if value <= self.most else "not met"
        else:
            row["verdict"] = "met" if value >= self.least else "not met"
        return row


def goals() -> list[Goal]:
    with FILE.open("rb") as f:
        return [Goal(**g) for g in tomllib.load(f)["goal"]]


def judge(results: dict[str, dict]) -> list[dict]:
    """Every goal's row: its figure in ``results`` (benchmark name -> result), the target and
    the verdict."""
    return [g.judge(results) for g in goals()]


def table(rows: list[dict]) -> str:
    """The rows as aligned text, one goal a line."""
    lines = ["issue 39 goals, this run:"]
    width = max(len(r["goal"]) for r in rows)
    for r in rows:
        value = "-" if r["value"] is None else f"{r['value']:g}"
        lines.append(f"  {r['goal']:<{width}}  {value:>8}  {r['target']:<18} {r['verdict']}")
    return "\n".join(lines)
