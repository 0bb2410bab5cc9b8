"""What `make run` does: the main job on the bundled example data.

1. build the bundled synthetic campaign under ``data/raw`` when it is absent or stale
   (``azlatency.synth.ensure_bundled``; real example campaigns are never touched);
2. import every example campaign under ``data/raw`` into ``data/processed`` (each prints its
   report: files imported, files not imported and why, quality notes);
3. execute every report notebook with papermill into ``reports/notebooks/`` (figures into
   ``reports/figures/``), two kernels at a time;
4. render the executed notebooks into the site ``reports/site/`` and print where
   ``reports/index.html`` is.

Nothing it writes is committed (``data/processed`` and ``reports`` are git-ignored).
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from . import paths
from .report import run_import


def ensure_synthetic() -> Path | None:
    """Build ``data/raw/synthetic-westeurope`` if needed; ``None`` when it was up to date."""
    try:
        from .synth import ensure_bundled
    except ImportError:  # a checkout without the generator: the real campaigns still run
        return None
    return ensure_bundled(paths.raw_dir())


def import_examples() -> int:
    """Import every campaign folder under data/raw; the worst exit status wins."""
    status = 0
    for name in paths.campaigns():
        status = max(status, run_import(name))
    return status


def run_notebooks(reports: Path, *, workers: int = 2) -> list:
    """Execute every notebook into ``reports/notebooks`` with the paths as parameters."""
    from .notebooks import execute_all

    out = reports / "notebooks"
    params = {"reports_dir": str(reports), "figures_dir": str(reports / "figures")}
    return execute_all(out, params, workers=workers)


def run(reports: Path | None = None) -> int:
    from .reporting import reports_root
    from .site import build

    reports = reports or reports_root()
    steps = []
    start = time.perf_counter()
    built = ensure_synthetic()
    if built is not None:
        print(f"built the synthetic campaign {built}")
    steps.append(("synthetic campaign", time.perf_counter() - start))
    status = import_examples()
    steps.append(("import", time.perf_counter() - start - sum(s for _, s in steps)))
    if status:
        print(f"an import failed (status {status}): notebooks not run", file=sys.stderr)
        return status
    for done in run_notebooks(reports):
        print(f"executed {done.source.name} in {done.seconds:.1f} s")
    steps.append(("notebooks", time.perf_counter() - start - sum(s for _, s in steps)))
    index = build(reports / "notebooks", reports)
    steps.append(("site", time.perf_counter() - start - sum(s for _, s in steps)))
    print("; ".join(f"{name} {sec:.1f} s" for name, sec in steps))
    print(f"open {index}")
    return 0


if __name__ == "__main__":
    sys.exit(run())
