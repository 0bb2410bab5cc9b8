"""Fleet baseline pages and ``azlatency check``: verdicts of a campaign's ``expectations:``.

:func:`baseline` joins an imported campaign's stated expectations (kept in its store's
manifest) to :func:`azlatency.stats.verdicts` and :func:`azlatency.stats.fleet`;
:func:`check_lines`, :func:`junit_xml` and :func:`github_annotations` say the result to a
terminal, a CI test report and a GitHub job.
"""

from __future__ import annotations

import os
from xml.etree import ElementTree as ET

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from .. import paths, plots
from ..campaign.load import expectations
from ..schema import Tables
from ..stats import baseline as bl
from ._show import counted

PathLike = str | os.PathLike[str]


def expectations_of(campaign: str, data_root: PathLike | None = None) -> list[dict]:
    """The ``expectations:`` the campaign's ``campaign.yaml`` stated when it was imported."""

    return expectations(campaign, paths.processed_dir(data_root))


def has_expectations(tables: Tables, data_root: PathLike | None = None) -> bool:
    names = tables.runs["campaign"].dropna().astype(str).unique() if len(tables.runs) else []
    return any(expectations_of(n, data_root) for n in names)


def baseline(
    tables: Tables, campaign: str, data_root: PathLike | None = None, *, level: float = 0.95
) -> pd.DataFrame:
    """Per check and VM: estimate, interval, verdict, why, and the fleet columns."""
    expected = expectations_of(campaign, data_root)
    if not expected:
        return pd.DataFrame(columns=bl.COLUMNS)
    runs = tables.runs[tables.runs["campaign"].astype(str) == campaign]
    table = bl.verdicts(runs, tables.samples, tables.summaries, expected, level=level)
    return bl.fleet(table)


def _fmt(value: float, unit: str) -> str:
    if not np.isfinite(value):
        return "—"
    scale, shown = {
        "bps": (1e9, "Gbit/s"),
        "bytes/s": (1e6, "MB/s"),
        "io/s": (1.0, "IOPS"),
        "us": (1e3, "ms") if abs(value) >= 1000 else (1.0, "µs"),
    }.get(unit, (1.0, unit))
    v = value / scale
    return f"{v:,.0f} {shown}" if abs(v) >= 1000 else f"{v:.3g} {shown}"


def baseline_table(table: pd.DataFrame) -> pd.DataFrame:
    """The verdict table for a page or a terminal: value with its interval in readable units,
    the target, the verdict, and why / the fleet's advice."""
    rows = []
    for r in table.itertuples(index=False):
        unit = r.unit if isinstance(r.unit, str) else ""
        value = _fmt(r.estimate, unit)
        if r.evidence == "printed" and r.n_runs == 1:
            value += " (printed)"
        elif np.isfinite(r.ci_low) and np.isfinite(r.ci_high):
            value += f" [{_fmt(r.ci_low, unit)}, {_fmt(r.ci_high, unit)}]"
        rows.append(
            {
                "check": r.check,
                "VM": r.vm,
                "value [95% CI]": value,
                "runs": int(r.n_runs),
                "target": r.target,
                "verdict": str(r.verdict),
                "why / advice": "; ".join(x for x in (r.advice, r.why) if isinstance(x, str) and x),
            }
        )
    return pd.DataFrame(rows)


def check_lines(table: pd.DataFrame) -> list[str]:
    """One sentence per VM and check that did not meet its target, and per VM the fleet names
    (``azlatency check``'s summary; empty when every check is met)."""
    out = []
    for r in table.itertuples(index=False):
        if str(r.verdict) == "meets" and not r.advice:
            continue
        unit = r.unit if isinstance(r.unit, str) else ""
        what = f"{r.vm}: {r.check}: {str(r.verdict).upper()}"
        if np.isfinite(r.estimate):
            what += f" ({_fmt(r.estimate, unit)}, target {r.target})"
        extra = "; ".join(x for x in (r.why, r.advice) if isinstance(x, str) and x)
        out.append(f"{what}{': ' + extra if extra else ''}")
    return out


def junit_xml(table: pd.DataFrame, campaign: str) -> str:
    """A JUnit XML report: one test suite per check, one test case per VM; ``fails`` is a
    failure, ``inconclusive`` and ``no data`` are skipped with their reason."""
    suites = ET.Element("testsuites", name=f"azlatency check {campaign}")
    for check, part in table.groupby("check", sort=False):
        verdicts = part["verdict"].astype(str)
        suite = ET.SubElement(
            suites,
            "testsuite",
            name=str(check),
            tests=str(len(part)),
            failures=str(int((verdicts == "fails").sum())),
            skipped=str(int(verdicts.isin(["inconclusive", "no data"]).sum())),
        )
        for r in part.itertuples(index=False):
            case = ET.SubElement(suite, "testcase", classname=f"{campaign}.{r.vm}", name=str(check))
            unit = r.unit if isinstance(r.unit, str) else ""
            message = f"{_fmt(r.estimate, unit)}, target {r.target}"
            detail = "; ".join(x for x in (r.why, r.advice) if isinstance(x, str) and x)
            if str(r.verdict) == "fails":
                ET.SubElement(case, "failure", message=message).text = detail
            elif str(r.verdict) in ("inconclusive", "no data"):
                ET.SubElement(case, "skipped", message=f"{r.verdict}: {detail or message}")
    ET.indent(suites)
    return '<?xml version="1.0" encoding="utf-8"?>\n' + ET.tostring(suites, encoding="unicode")


def github_annotations(table: pd.DataFrame, campaign: str) -> list[str]:
    """GitHub Actions workflow commands: ``::error`` for a failed check, ``::warning`` for an
    inconclusive one or a VM the fleet rule names."""
    out = []
    for r in table.itertuples(index=False):
        verdict = str(r.verdict)
        if verdict == "meets" and not r.advice:
            continue
        level = "error" if verdict == "fails" else "warning"
        unit = r.unit if isinstance(r.unit, str) else ""
        text = f"{r.vm} {verdict}: {_fmt(r.estimate, unit)}, target {r.target}"
        extra = "; ".join(x for x in (r.why, r.advice) if isinstance(x, str) and x)
        body = f"{text}. {extra}" if extra else text
        body = body.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
        title = f"{campaign}: {r.check}".replace(",", "%2C").replace("::", "%3A%3A")
        out.append(f"::{level} title={title}::{body}")
    return out


def baseline_findings(table: pd.DataFrame) -> str:
    """The page's answer first, in sentences: how many VM checks meet, fail or cannot say,
    which VM fails which check (value, interval, target), and the VM the fleet names."""
    if table.empty:
        return "No expectations: campaign.yaml states no `expectations:`."
    v = table["verdict"].astype(str)
    vms = table["vm"].nunique()
    checks = table["check"].nunique()
    counts = ", ".join(f"{n} {k}" for k, n in v.value_counts().items() if n)
    lines = [f"**{vms} VMs × {checks} checks:** {counts}."]
    for r in table[v == "fails"].itertuples(index=False):
        unit = r.unit if isinstance(r.unit, str) else ""
        value = _fmt(r.estimate, unit)
        if not (r.evidence == "printed" and r.n_runs == 1):
            value += f" [{_fmt(r.ci_low, unit)}, {_fmt(r.ci_high, unit)}]"
        else:
            value += " (one printed value)"
        lines.append(f"- **{r.vm} fails {r.check}:** {value}, target {r.target}.")
    for vm, part in table[table["advice"].astype(bool)].groupby("vm", sort=True):
        which = "; ".join(
            f"{r.check} ({r.ratio_to_median:.2f}× the peers' median)"
            for r in part.itertuples(index=False)
        )
        lines.append(f"- **{vm} differs from its peers** on {which}: {bl.ADVICE}.")
    unsure = table[v == "inconclusive"]
    if len(unsure):
        lines.append(
            f"- {counted(len(unsure), 'check')} inconclusive: "
            + "; ".join(f"{r.vm} {r.check} ({r.why})" for r in unsure.itertuples(index=False))
        )
    if not (v == "fails").any() and not table["advice"].astype(bool).any():
        lines.append(
            "- Every VM meets every check it was measured on; none differs from its peers."
        )
    return "\n".join(lines)


def fleet_figure(table: pd.DataFrame, *, width: float = 7.16):
    """One panel per check (small multiples): every VM with its interval against the target
    band, the VM the fleet names marked "redeploy?"."""

    checks = list(dict.fromkeys(table["check"]))
    per = [max(1.25, 0.26 * table[table["check"] == c]["vm"].nunique() + 0.75) for c in checks]
    fig, axes = plt.subplots(
        len(checks), 1, figsize=(width, sum(per)), squeeze=False,
        gridspec_kw={"height_ratios": per}, layout="constrained",
    )  # fmt: skip
    for ax, check in zip(axes[:, 0], checks):
        part = table[table["check"] == check].sort_values("vm")
        plots.fleet(part, ax=ax)
        ax.set_title(check, loc="left", fontsize="medium")
    return fig
