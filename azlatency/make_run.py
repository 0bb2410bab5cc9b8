"""What `make run` does: ``azlatency report`` on the bundled example data.

1. build the bundled synthetic campaigns under ``data/raw`` when absent or stale
   (``azlatency.synth.ensure_bundled``, ``synth.baseline.ensure_baseline``,
   ``synth.abpair.ensure_pair``; real example campaigns are never touched);
2. ``azlatency report`` every campaign under ``data/raw`` into ``reports/``: import what is
   stale into ``data/processed``, execute the notebooks that apply (into ``build/report/``,
   figures in ``reports/figures/``), render the site ``reports/site/`` and print where
   ``reports/index.html`` is.

``python -m azlatency.make_run --import-only`` (what ``make lab`` runs before it opens
JupyterLab) does step 1 and the import of step 2, so the notebooks' defaults find their data.

Nothing it writes is committed (``data/processed`` and ``reports`` are git-ignored).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from . import paths
from ._console import console as _console
from ._console import counted
from .campaign.importer import import_many
from .errors import AzlatencyError
from .report.run import print_summary, run_report


def ensure_synthetic() -> list[Path]:
    """Build ``data/raw/synthetic-westeurope``, ``synthetic-seed003-baseline`` (seed 003's
    fleet baseline) and the before/after pair ``synthetic-ab-*`` if needed; the ones
    (re)built."""
    try:  # the generator may be left out of a trimmed install
        from .synth import ensure_bundled  # noqa: PLC0415
        from .synth.abpair import ensure_pair  # noqa: PLC0415
        from .synth.baseline import ensure_baseline  # noqa: PLC0415
    except ImportError:  # a checkout without the generator: the real campaigns still run
        return []
    built = [ensure_bundled(paths.raw_dir()), ensure_baseline(paths.raw_dir())]
    return [b for b in built if b is not None] + ensure_pair(paths.raw_dir())


def run(reports: Path | None = None, *, strict: bool = False) -> int:

    console = _console()
    reports = paths.reports_dir(reports)
    for built in ensure_synthetic():
        console.print(f"built the synthetic campaign {built}", highlight=False)
    outcome = run_report(paths.campaigns(), reports, data_root=paths.data_root(), console=console)
    print_summary(outcome, reports, console, strict=strict)
    return outcome.status(strict)


def prepare() -> int:
    """The bundled campaigns built and imported, for notebooks opened by hand (``make lab``)."""

    console = _console()
    for built in ensure_synthetic():
        console.print(f"built the synthetic campaign {built}", highlight=False)
    names = paths.campaigns()
    status = 0
    for name, got in zip(names, import_many(names, root=paths.processed_dir()), strict=True):
        if isinstance(got, AzlatencyError):
            console.print(f"{name}: import failed: {got}", highlight=False)
            status = 1
        else:
            console.print(
                f"{name}: {counted(len(got.files), 'file')}, store {got.store}", highlight=False
            )
    return status


def main(argv: list[str] | None = None) -> int:
    """``python -m azlatency.make_run [--import-only] [--strict]`` (what ``make run`` and
    ``make lab`` call)."""
    parser = argparse.ArgumentParser(
        prog="python -m azlatency.make_run",
        description="Build and import the bundled campaigns and write the report (make run).",
    )
    parser.add_argument(
        "--import-only", action="store_true", help="build and import only (make lab)"
    )
    parser.add_argument("--strict", action="store_true", help="fail on data-quality problems too")
    args = parser.parse_args(argv)
    return prepare() if args.import_only else run(strict=args.strict)


if __name__ == "__main__":
    sys.exit(main())
