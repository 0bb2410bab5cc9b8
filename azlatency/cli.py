"""``azlatency`` command line: inspect, import, report, check, compare, export, synth."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import click
import pandas as pd
from rich.table import Table

from . import paths
from ._console import console as _console
from ._console import counted
from ._version import __version__
from .errors import AzlatencyError
from .reader import read

_KEY_STATS = ("count", "mean", "p50", "p99", "max")


def _files(paths: tuple[str, ...]) -> list[Path]:
    out: list[Path] = []
    for p in map(Path, paths):
        if p.is_dir():
            out.extend(
                sorted(f for f in p.rglob("*") if f.is_file() and not f.name.startswith("."))
            )
        else:
            out.append(p)
    return out


def _key_metric(summaries: pd.DataFrame, run_id: str) -> tuple[str, dict[str, float], str]:
    s = summaries[summaries["run_id"] == run_id]
    if s.empty:
        return "", {}, ""
    preferred = ("rtt", "half_rtt", "throughput_receiver", "throughput", "throughput_sender")
    metrics = list(dict.fromkeys(s["metric"]))
    metric = next((m for m in preferred if m in metrics), metrics[0])
    rows = s[(s["metric"] == metric)]
    stats = {r.stat: r.value for r in rows.itertuples() if r.source == "reported"} or {
        r.stat: r.value for r in rows.itertuples()
    }
    # the statistics' unit, not the count's (ping and uping print the count first)
    units = rows.loc[rows["stat"] != "count", "unit"]
    return metric, stats, str((units if len(units) else rows["unit"]).iloc[0])


def _fmt(v: float | None) -> str:
    if v is None or pd.isna(v):
        return ""
    return f"{v:,.0f}" if abs(v) >= 1e5 else f"{v:,.3f}".rstrip("0").rstrip(".")


@click.group()
@click.version_option(__version__, prog_name="azlatency")
def main() -> None:
    """Parse and compare cloud network benchmark logs."""


@main.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path(exists=True))
@click.option("--json", "as_json", is_flag=True, help="Print the tables as JSON for machines.")
@click.option("--samples", is_flag=True, help="With --json, include the samples table.")
@click.option(
    "--strict", is_flag=True, help="Reject a file at its first line its tool does not print."
)
# azlatency 0.1.0's flag, when strict was read()'s default: scripts passing it still run.
@click.option("--lenient", is_flag=True, hidden=True)
@click.option("--tool", default=None, help="Skip detection and parse with this tool.")
def inspect(
    paths: tuple[str, ...],
    as_json: bool,
    samples: bool,
    strict: bool,
    lenient: bool,
    tool: str | None,
):
    """Show what azlatency reads in each file (tool, version, basis, key statistics).

    Every run that can be read is shown; a line not understood is named in the run's
    warnings (--strict rejects the file at it instead)."""
    console = _console()
    failures = 0
    payload = []
    for path in _files(paths):
        try:
            tables = read(path, strict=strict and not lenient, tool=tool)
        except AzlatencyError as exc:
            failures += 1
            if as_json:
                payload.append({"source": str(path), "error": str(exc)})
            else:
                console.print(f"[red]not read[/red] {path}: {exc}", highlight=False)
            continue
        if as_json:
            payload.append(_inspect_entry(path, tables, samples))
        else:
            _inspect_show(console, path, tables)
    if as_json:
        click.echo(json.dumps(payload, indent=1, default=str))
    sys.exit(1 if failures else 0)


def _inspect_entry(path, tables, samples: bool) -> dict:
    """``inspect --json``: one file's runs, summaries and problems (and samples)."""
    entry = {
        "source": str(path),
        "runs": json.loads(tables.runs.to_json(orient="records", date_format="iso")),
        "summaries": json.loads(tables.summaries.to_json(orient="records")),
        "problems": [str(p) for p in tables.problems],
    }
    if samples:
        entry["samples"] = json.loads(tables.samples.to_json(orient="records"))
    return entry


def _inspect_show(console, path, tables) -> None:
    """``inspect``: one file's runs as a table, then its warnings and skipped lines."""
    table = Table(title=str(path), title_justify="left")
    for col in (
        "block",
        "lines",
        "tool",
        "version",
        "variant",
        "basis",
        "metric",
        "unit",
        *_KEY_STATS,
        "heading",
    ):
        table.add_column(col, overflow="fold")
    for run in tables.runs.itertuples():
        metric, stats, unit = _key_metric(tables.summaries, run.run_id)
        # pandas 3 str columns hold NaN for a missing value, and NaN is truthy: not `or ""`
        cells = [
            v if isinstance(v, str) else ""
            for v in (run.tool_version, run.parser_variant, run.latency_basis, run.heading)
        ]
        table.add_row(
            str(run.block),
            f"{run.line_start}-{run.line_end}",
            run.tool,
            *cells[:3],
            metric,
            unit,
            *(_fmt(stats.get(s)) for s in _KEY_STATS),
            cells[3],
        )
    console.print(table)
    for run in tables.runs.itertuples():
        if isinstance(run.warnings, str):
            where = f"{path}:{run.line_start}-{run.line_end}"
            console.print(f"[yellow]warned[/yellow] {where}: {run.warnings}", highlight=False)
    for problem in tables.problems:
        console.print(f"[yellow]skipped[/yellow] {problem}", highlight=False)


@main.command("import")
@click.argument("campaign")
@click.option("--name", default=None, help="Store name (default: the folder or archive name).")
@click.option(
    "--out",
    "root",
    default=None,
    type=click.Path(file_okay=False),
    help="Folder of stores (default: data/processed, or $AZLATENCY_DATA/processed).",
)
@click.option("--workers", type=int, default=None, help="Parsing processes (default: CPUs).")
@click.option(
    "--engine",
    type=click.Choice(["local", "dask"]),
    default="local",
    show_default=True,
    help="Parse here, or on the workers of a Dask cluster.",
)
@click.option(
    "--scheduler",
    default=None,
    metavar="ADDRESS",
    help="Dask scheduler for --engine dask (tcp://host:8786); raw and processed "
    "folders must be on storage the workers share.",
)
@click.option("--strict", is_flag=True, help="Reject a file at its first bad line.")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@click.option("--fail-on-skip", is_flag=True, help="Exit 3 when a file was not imported.")
def import_(campaign: str, as_json: bool, fail_on_skip: bool, **options):
    """Import a campaign folder or archive (or a name under data/raw) into its store."""
    sys.exit(run_import(campaign, as_json=as_json, fail_on_skip=fail_on_skip, **options))


@main.command()
@click.argument("campaigns", nargs=-1, required=True)
@click.option(
    "-o",
    "--out",
    "out",
    default=None,
    type=click.Path(file_okay=False),
    help="Report folder (default: reports/).",
)
@click.option(
    "--data",
    "data_root",
    default=None,
    type=click.Path(file_okay=False),
    help="Data root: campaign names are looked for in its raw/ first, stores go to "
    "its processed/ (default: data/, or $AZLATENCY_DATA).",
)
@click.option("--level", type=float, default=None, help="Confidence level of every interval.")
@click.option(
    "-p",
    "--param",
    "params",
    multiple=True,
    metavar="NAME=VALUE",
    help="A notebook parameter (YAML value), for every notebook that takes it.",
)
@click.option(
    "--notebooks",
    "only",
    default=None,
    metavar="NN,NN",
    help="Only these notebooks, by number (e.g. 20,30).",
)
@click.option(
    "--strict",
    is_flag=True,
    help="Fail (exit 3) on files not imported or runs flagged by the import.",
)
@click.option("--jobs", type=int, default=2, show_default=True, help="Kernels at a time.")
@click.option(
    "--formats",
    default="png,svg",
    show_default=True,
    metavar="png,svg,pdf",
    help="Figure files written to OUT/figures (the pages show PNG either way); add pdf for print.",
)
@click.option(
    "--no-cache",
    is_flag=True,
    help="Run every page again, even those whose notebook, parameters, stores and code are "
    "unchanged since the last report into OUT (they are reused by default).",
)
def report(
    campaigns: tuple[str, ...], out, data_root, level, params, only, strict, jobs, formats, no_cache
):
    """Import CAMPAIGNS (names under data/raw, folders or archives) when stale, run the report
    notebooks that apply, render the site. Exit 1 when a notebook fails (its cell and error
    are named), 3 with --strict on data-quality problems."""
    from .report.run import parse_params, print_summary, run_report

    console = _console()
    try:
        outcome = run_report(
            campaigns,
            out,
            data_root=data_root,
            level=level,
            params=parse_params(params),
            only=[n.strip() for n in only.split(",") if n.strip()] if only else None,
            workers=jobs,
            console=console,
            formats=[f.strip() for f in formats.split(",") if f.strip()],
            cache=not no_cache,
        )
    except AzlatencyError as exc:  # raised before any work: bad -p or --notebooks
        raise click.UsageError(str(exc)) from None
    target = outcome.index.parent if outcome.index else paths.reports_dir(out)
    print_summary(outcome, target, console, strict=strict)
    sys.exit(outcome.status(strict))


def _root(data_root) -> Path:
    return paths.data_root(data_root or None)


def _imported(campaigns: list[str], root: Path) -> list[str]:
    """Import each campaign when stale (a name under ``<root>/raw``, a folder, an archive);
    their store names.  A name with a store but no raw folder is used as stored."""
    from .report.run import import_all

    names = []
    for c in campaigns:
        errors: list[str] = []
        reports = import_all([c], root, errors)
        if reports:
            names.append(reports[0].campaign)
        elif (paths.processed_dir(root) / c).is_dir() and not (paths.raw_dir(root) / c).exists():
            names.append(c)
        else:
            raise click.ClickException("; ".join(errors))
    return names


def _margin(text: str | None) -> float | None:
    from .campaign.config import parse_margin

    if text is None:
        return None
    try:
        return parse_margin(text)
    except ValueError as exc:
        raise click.BadParameter(str(exc)) from None


_DATA = click.option(
    "--data",
    "data_root",
    default=None,
    type=click.Path(file_okay=False),
    help="Data root (default: data/, or $AZLATENCY_DATA); campaigns are imported when stale.",
)
_MARGIN = click.option(
    "--margin",
    default=None,
    metavar="10%",
    help="Equivalence and gate margin of ratios (default: the baseline's campaign.yaml, else 10%).",
)
_MAP = click.option(
    "--map",
    "mapping",
    multiple=True,
    metavar="OLD=NEW",
    help="Pair the baseline's scenario OLD with the other campaign's NEW (repeat; default: "
    "the later campaign's campaign.yaml `baseline: scenarios:` when it names the baseline).",
)


def _mapping(items) -> dict | None:
    """``--map OLD=NEW`` options as a dict (None when none was given)."""
    if not items:
        return None
    pairs = [m.partition("=") for m in items]
    if any(not sep or not a.strip() or not b.strip() for a, sep, b in pairs):
        raise click.BadParameter("--map expects OLD=NEW")
    return {a.strip(): b.strip() for a, _, b in pairs}


_LOSS = click.option(
    "--loss-margin",
    type=float,
    default=0.1,
    show_default=True,
    help="Margin of loss, in percentage points.",
)


@main.command()
@click.argument("before")
@click.argument("after")
@_DATA
@click.option("--level", type=float, default=0.95, show_default=True, help="Interval level.")
@_MARGIN
@_LOSS
@_MAP
@click.option("--stats", "wanted", default=None, metavar="p50,p99,...", help="Statistics.")
@click.option("--markdown", type=click.Path(dir_okay=False), default=None, help="Write Markdown.")
@click.option("--csv", "csv_out", type=click.Path(dir_okay=False), default=None, help="Write CSV.")
def compare(before, after, data_root, level, margin, loss_margin, mapping, wanted, markdown,
            csv_out):  # fmt: skip
    """Compare campaign AFTER with BEFORE, benchstat style: per scenario, zone pair, tool and
    statistic (p50, p99, p99.9, mean, throughput, loss) both estimates, the change with its
    interval (the run is the unit), a Holm-adjusted p-value, "~" where no change is detected
    and "same" where equivalence within the margin is shown."""
    from .report import compare_campaigns, comparison_markdown

    root = _root(data_root)
    scenarios = _mapping(mapping)
    names = _imported([before, after], root)
    try:
        cmp = compare_campaigns(
            *names, root, scenarios=scenarios, level=level, margin=_margin(margin),
            loss_margin=loss_margin, wanted=_wanted(wanted),
        )  # fmt: skip
    except (AzlatencyError, ValueError) as exc:
        raise click.ClickException(str(exc)) from None
    _print_comparison(cmp)
    if markdown:
        Path(markdown).write_text(comparison_markdown(cmp), encoding="utf-8")
    if csv_out:
        cmp.table.to_csv(csv_out, index=False)


def _wanted(text: str | None):
    from .report import COMPARE_STATS

    return tuple(s.strip() for s in text.split(",") if s.strip()) if text else COMPARE_STATS


def _print_comparison(cmp) -> None:
    from .report import compare_findings, compare_sections

    console = _console()
    colours = {"worse": "red", "better": "green", "same": "green", "FAILS": "red"}
    for title, df in compare_sections(cmp):
        out = Table(title=title, title_justify="left")
        for col in df.columns:
            out.add_column(col, overflow="fold")
        for row in df.itertuples(index=False):
            cells = [str(x) for x in row]
            word = "FAILS" if "FAILS" in cells[-1] else cells[-1].split(",")[0].split(" ")[0]
            if word in colours:
                cells[-1] = f"[{colours[word]}]{cells[-1]}[/]"
            out.add_row(*cells)
        console.print(out)
    console.print(compare_findings(cmp), highlight=False, markup=False)


@main.command()
@click.argument("campaign")
@_DATA
@click.option("--level", type=float, default=0.95, show_default=True, help="Interval level.")
@click.option("--junit", type=click.Path(dir_okay=False), default=None, help="Write JUnit XML.")
@click.option("--github", is_flag=True, help="Print GitHub Actions ::error/::warning lines.")
@click.option(
    "--fail-on",
    type=click.Choice(["fails", "inconclusive"]),
    default="fails",
    show_default=True,
    help="Exit 1 on failed checks, or also on inconclusive ones, missing data and "
    "comparisons with the baseline that could not be tested.",
)
@click.option(
    "--baseline",
    "baseline_name",
    default=None,
    help="Gate CAMPAIGN on this campaign (default: campaign.yaml's `baseline:`).",
)
@_MARGIN
@_LOSS
@_MAP
@click.option(
    "--summary",
    type=click.Path(dir_okay=False),
    default=None,
    help="Append a Markdown summary (default: $GITHUB_STEP_SUMMARY when set).",
)
def check(campaign, data_root, level, junit, github, fail_on, baseline_name, margin, loss_margin,
          mapping, summary):  # fmt: skip
    """Verdicts of CAMPAIGN's expectations (campaign.yaml `expectations:`): each VM against
    each check, with its interval, and the VM its fleet names; and its gate against a
    baseline campaign (--baseline, or campaign.yaml `baseline:`): a change fails only when it
    is significant and beyond the margin in the bad direction.  Exit 1 when a check or the
    gate fails (--fail-on), 2 when there is nothing to check."""
    from xml.etree import ElementTree as ET

    from .report import baseline_of

    root = _root(data_root)
    (name,) = _imported([campaign], root)
    try:
        table = _expectations(name, root, level)
        base = baseline_name or (baseline_of(name, root) or {}).get("campaign")
        cmp = _gate(name, base, root, level, margin, loss_margin, mapping) if base else None
    except AzlatencyError as exc:
        raise click.ClickException(str(exc)) from None
    if table.empty and cmp is None:
        _console().print(
            f"{name}: campaign.yaml states no expectations and names no baseline", highlight=False
        )
        sys.exit(2)
    bad = _report_expectations(name, table, fail_on, github) if len(table) else False
    if cmp is not None:
        bad |= _report_gate(cmp, fail_on, github)
    suites = ET.Element("testsuites", name=f"azlatency check {name}")
    if len(table):
        suites.extend(ET.fromstring(_junit_of(table, name)))
    if cmp is not None:
        suites.extend(_gate_suites(cmp))
    if junit:
        ET.indent(suites)
        text = '<?xml version="1.0" encoding="utf-8"?>\n' + ET.tostring(suites, "unicode")
        Path(junit).write_text(text, encoding="utf-8")
    _summary(summary, name, table, cmp)
    sys.exit(1 if bad else 0)


def _expectations(name: str, root: Path, level: float):
    from .report import baseline, load_campaigns

    return baseline(load_campaigns(name, root), name, root, level=level)


def _gate(name: str, base: str, root: Path, level, margin, loss_margin, mapping):
    from .report import compare_campaigns

    (base,) = _imported([base], root)
    return compare_campaigns(
        base, name, root, level=level, margin=_margin(margin), loss_margin=loss_margin,
        scenarios=_mapping(mapping),
    )  # fmt: skip


def _junit_of(table, name: str) -> str:
    from .report import junit_xml

    return junit_xml(table, name).split("\n", 1)[1]


def _gate_suites(cmp) -> list:
    from .report import gate_junit

    return gate_junit(cmp)


def _report_expectations(name: str, table, fail_on: str, github: bool) -> bool:
    """Print the verdict table of the expectations; True when the build should fail."""
    from .report import baseline_table, check_lines, github_annotations

    console = _console()
    out = Table(title=f"{name}: fleet baseline", title_justify="left")
    shown = baseline_table(table)
    colours = {"meets": "green", "fails": "red", "inconclusive": "yellow", "no data": "dim"}
    for col in shown.columns:
        out.add_column(col, overflow="fold")
    for row in shown.itertuples(index=False):
        cells = [str(x) for x in row]
        cells[5] = f"[{colours.get(cells[5], 'white')}]{cells[5]}[/]"
        out.add_row(*cells)
    console.print(out)
    for line in check_lines(table):
        console.print(line, highlight=False, markup=False)
    if github:
        for line in github_annotations(table, name):
            click.echo(line)
    bad = {"fails"} if fail_on == "fails" else {"fails", "inconclusive", "no data"}
    verdicts = table["verdict"].astype(str)
    counts = ", ".join(f"{k} {v}" for k, v in verdicts.value_counts().items())
    console.print(f"{name}: {len(table)} checks of VMs: {counts}", highlight=False)
    return bool(verdicts.isin(bad).any())


def _report_gate(cmp, fail_on: str, github: bool) -> bool:
    """Print the comparison with the baseline and the gate; True when the build should
    fail."""
    from .report import gate_annotations, gate_lines, nothing_compared

    console = _console()
    if cmp.table.empty:
        console.print(f"{cmp.after} against {cmp.before}: FAILS: {nothing_compared(cmp)}",
                      highlight=False, markup=False)  # fmt: skip
        return True
    _print_comparison(cmp)
    for line in gate_lines(cmp):
        console.print(line, highlight=False, markup=False)
    if github:
        for line in gate_annotations(cmp):
            click.echo(line)
    gate = cmp.table["gate"].astype(str)
    console.print(
        f"{cmp.after} against {cmp.before}: {len(gate)} comparisons: {_gate_counts(cmp.table)}",
        highlight=False,
    )
    bad = {"fail"} if fail_on == "fails" else {"fail", "not tested"}
    return bool(gate.isin(bad).any())


# Why a comparison passes the gate, by its verdict: 'pass 26' of a rerun held 7 comparisons
# that showed neither a change nor sameness
_PASSED_AS = {
    "same": "the same within its margin",
    "better": "better",
    "worse": "worse within its margin",
    "~": "inconclusive: no change shown",
}


def _gate_counts(table) -> str:
    """'pass 15 (8 the same within its margin, 6 inconclusive: no change shown, 1 worse
    within its margin), fail 7'."""
    gate, verdict = table["gate"].astype(str), table["verdict"].astype(str)
    parts = []
    for g, n in gate.value_counts().items():
        if g == "pass":
            why = verdict[gate.eq(g)].value_counts().items()
            parts.append(f"pass {n} ({', '.join(f'{m} {_PASSED_AS.get(v, v)}' for v, m in why)})")
        else:
            parts.append(f"{g} {n}")
    return ", ".join(parts)


def _summary(path, name: str, table, cmp) -> None:
    """Append the Markdown summary to ``path``, else to $GITHUB_STEP_SUMMARY when set."""
    import os

    from .report import baseline_findings, gate_markdown

    target = path or os.environ.get("GITHUB_STEP_SUMMARY")
    if not target:
        return
    parts = []
    if len(table):
        parts.append(f"### azlatency check: `{name}` expectations\n\n{baseline_findings(table)}\n")
    if cmp is not None:
        parts.append(gate_markdown(cmp))
    with open(target, "a", encoding="utf-8") as f:
        f.write("\n".join(parts) + "\n")


@main.command()
@click.argument("campaign")
@_DATA
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["csv", "ndjson", "openmetrics", "influx"]),
    required=True,
    help="csv / ndjson: the tidy table; openmetrics: for promtool's backfill; influx: line "
    "protocol.",
)
@click.option(
    "-o", "--out", default=None, type=click.Path(dir_okay=False), help="File (- : stdout)."
)
@click.option(
    "--untimed",
    type=click.Choice(["skip", "keep"]),
    default="skip",
    show_default=True,
    help="openmetrics / influx: leave out runs without a time, or write them without one.",
)
def export(campaign: str, data_root, fmt: str, out, untimed: str):
    """Export CAMPAIGN's runs and summaries, tidy: one row per run and value, the run's labels
    as tags, the unit in the name, the run's time where it has one (docs/export.md)."""
    from .campaign.export import export as run_export
    from .campaign.export import write

    root = _root(data_root)
    (name,) = _imported([campaign], root)
    try:
        result = run_export(name, paths.processed_dir(root), format=fmt, untimed=untimed)
    except (AzlatencyError, ValueError) as exc:
        raise click.ClickException(str(exc)) from None
    path = write(result, out)
    err = _console(stderr=True)
    if result.untimed_runs and fmt in ("openmetrics", "influx"):
        what = (
            f"left out of {fmt} (--untimed keep writes them without a time)"
            if result.untimed_left_out
            else "written without a time"
        )
        runs = counted(result.untimed_runs, "run", ("has", "have"))
        err.print(f"{name}: {runs} no time: {what}", highlight=False)
    if path is not None:
        err.print(f"{name}: {counted(result.rows, 'point')} → {path}", highlight=False)


@main.command()
@click.argument("out_dir", type=click.Path(file_okay=False))
@click.option(
    "--size",
    type=click.Choice(["tiny", "small", "large"]),
    default="small",
    show_default=True,
    help="tiny: tests; small: the bundled campaign; large: ~1e8 packets.",
)
@click.option("--seed", type=int, default=0, show_default=True, help="Same seed, same bytes.")
@click.option(
    "--ab",
    is_flag=True,
    help="Write the before/after pair with a known change (and a rerun without one) as "
    "three campaigns under OUT_DIR instead.",
)
def synth(out_dir: str, size: str, seed: int, ab: bool):
    """Write a SYNTHETIC campaign (native log formats + truth.json) into OUT_DIR (docs/synth.md)."""
    from .synth import make_campaign

    if ab:
        from .synth.abpair import make_pair

        try:
            truths = make_pair(out_dir)
        except FileExistsError as exc:
            raise click.ClickException(str(exc)) from None
        for name in truths:
            click.echo(f"synthetic campaign {Path(out_dir) / name} (truth in truth.json)")
        return

    try:
        truth = make_campaign(out_dir, size=size, seed=seed)
    except FileExistsError as exc:
        raise click.ClickException(str(exc)) from None
    files = sum(len(r["files"]) for r in truth.runs)
    click.echo(
        f"synthetic campaign ({size}, seed {seed}): {files} logs, "
        f"{truth.total_samples:,} samples, truth in {Path(out_dir) / 'truth.json'}"
    )


def run_import(
    campaign: str, *, as_json: bool = False, fail_on_skip: bool = False, **options: Any
) -> int:
    """``azlatency import``: import with a progress bar on long imports, print the report.

    Exit status: 0; 1 when the campaign cannot be imported (bad campaign.yaml, ...);
    3 with ``fail_on_skip`` when a file was not imported (files campaign.yaml ignores aside).
    """
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

    from .campaign.importer import import_campaign

    console = _console(stderr=as_json)
    bar = Progress(
        "parsing",
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=console,
        transient=True,
        disable=as_json,
    )
    task = None

    def progress(done: int, total: int, _path: str) -> None:
        nonlocal task
        if total < 20:  # a short import needs no bar
            return
        if task is None:
            task = bar.add_task("parse", total=total)
        bar.update(task, completed=done)

    try:
        with bar:
            report = import_campaign(campaign, progress=progress, **options)
    except AzlatencyError as exc:
        console.print(f"[red]import failed[/red]: {exc}", highlight=False)
        return 1
    if as_json:
        print(report.to_json())
    else:
        report.print(console)
    skipped = report.not_imported[report.not_imported.reason != "ignored"]
    return 3 if fail_on_skip and len(skipped) else 0


if __name__ == "__main__":  # pragma: no cover
    main()
