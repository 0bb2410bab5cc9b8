"""``azlatency`` command line: inspect, import, report, synth."""

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
            entry = {
                "source": str(path),
                "runs": json.loads(tables.runs.to_json(orient="records", date_format="iso")),
                "summaries": json.loads(tables.summaries.to_json(orient="records")),
                "problems": [str(p) for p in tables.problems],
            }
            if samples:
                entry["samples"] = json.loads(tables.samples.to_json(orient="records"))
            payload.append(entry)
            continue
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
    if as_json:
        click.echo(json.dumps(payload, indent=1, default=str))
    sys.exit(1 if failures else 0)


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
    target = outcome.index.parent if outcome.index else Path(out or "reports")
    print_summary(outcome, target, console, strict=strict)
    sys.exit(outcome.status(strict))


@main.command()
@click.argument("campaign")
@click.option(
    "--data",
    "data_root",
    default=None,
    type=click.Path(file_okay=False),
    help="Data root (default: data/, or $AZLATENCY_DATA); the campaign is imported when stale.",
)
@click.option("--level", type=float, default=0.95, show_default=True, help="Interval level.")
@click.option("--junit", type=click.Path(dir_okay=False), default=None, help="Write JUnit XML.")
@click.option("--github", is_flag=True, help="Print GitHub Actions ::error/::warning lines.")
@click.option(
    "--fail-on",
    type=click.Choice(["fails", "inconclusive"]),
    default="fails",
    show_default=True,
    help="Exit 1 on failed checks, or also on inconclusive ones and missing data.",
)
def check(campaign: str, data_root, level: float, junit, github: bool, fail_on: str):
    """Verdicts of CAMPAIGN's expectations (campaign.yaml `expectations:`): each VM against
    each check, with its interval, and the VM its fleet names.  Exit 1 when a check fails
    (--fail-on), 2 when the campaign states no expectations."""
    from .report import (
        baseline,
        baseline_table,
        check_lines,
        github_annotations,
        junit_xml,
        load_campaigns,
    )
    from .report.run import import_all

    console = _console()
    root = Path(data_root).expanduser().resolve() if data_root else paths.data_root()
    errors: list[str] = []
    reports = import_all([campaign], root, errors)
    if errors:
        raise click.ClickException("; ".join(errors))
    name = reports[0].campaign
    try:
        tables = load_campaigns(name, root)
        table = baseline(tables, name, root, level=level)
    except AzlatencyError as exc:
        raise click.ClickException(str(exc)) from None
    if table.empty:
        console.print(f"{name}: campaign.yaml states no expectations", highlight=False)
        sys.exit(2)
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
    if junit:
        Path(junit).write_text(junit_xml(table, name), encoding="utf-8")
    if github:
        for line in github_annotations(table, name):
            click.echo(line)
    bad = {"fails"} if fail_on == "fails" else {"fails", "inconclusive", "no data"}
    verdicts = table["verdict"].astype(str)
    counts = ", ".join(f"{k} {v}" for k, v in verdicts.value_counts().items())
    console.print(f"{name}: {len(table)} checks of VMs: {counts}", highlight=False)
    sys.exit(1 if verdicts.isin(bad).any() else 0)


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
def synth(out_dir: str, size: str, seed: int):
    """Write a SYNTHETIC campaign (native log formats + truth.json) into OUT_DIR (docs/synth.md)."""
    from .synth import make_campaign

    try:
        truth = make_campaign(out_dir, size=size, seed=seed)
    except FileExistsError as exc:
        raise click.ClickException(str(exc)) from None
    files = sum(len(r["files"]) for r in truth.runs)
    click.echo(
        f"synthetic campaign ({size}, seed {seed}): {files} logs, "
        f"{truth.total_samples:,} samples, truth in {Path(out_dir) / 'truth.json'}"
    )


if __name__ == "__main__":  # pragma: no cover
    main()


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
