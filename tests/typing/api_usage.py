"""The public API as a user's code calls it; ``tests/test_typing.py`` type-checks this file with
mypy against the package's annotations (py.typed), so a wrong or missing annotation on what
users call fails the build.  Never executed."""

from __future__ import annotations

from pathlib import Path

import matplotlib.pyplot as plt
import pandas as pd

import azlatency
from azlatency import campaign, plots, stats
from azlatency.campaign.sql import Lazy
from azlatency.report.run import run_report


def reading() -> int:
    tables: azlatency.Tables = azlatency.read(Path("log.txt"), strict=False)
    tables = azlatency.read(b"bytes", tool="ping", source="x.txt")
    runs: pd.DataFrame = tables.runs
    samples: pd.DataFrame = tables.samples
    problems: list = tables.problems
    return len(runs) + len(samples) + len(problems)


def campaigns() -> None:
    report = campaign.import_campaign("data/raw/weu", workers=1, strict=True)
    print(report.store, report.files)
    t: azlatency.Tables = campaign.load("weu", samples=False)
    lazy: Lazy = campaign.load("weu", lazy=True)
    print(t.runs, lazy.query("SELECT 1"), campaign.query("weu", "SELECT count(*) FROM runs"))
    summary: pd.DataFrame = campaign.summarize_store("weu")
    print(summary)


def statistics(values: pd.Series) -> None:
    ci: pd.DataFrame = stats.mean_ci(values, 0.95)
    q: pd.DataFrame = stats.quantile_ci(values, [0.5, 0.99], level=0.9)
    print(ci, q)


def charts(frame: pd.DataFrame) -> None:
    ax = plots.ecdf(frame, x="rtt_us", hue="label")
    plots.point_intervals(frame, basis="rtt", ax=ax)
    plt.close("all")


def reports() -> None:
    outcome = run_report(["weu"], "reports", level=0.95)
    print(outcome.errors)


try:
    reading()
except azlatency.ParseError as exc:
    print(exc.line_no, exc.tool)
