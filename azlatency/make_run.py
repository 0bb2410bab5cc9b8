"""What `make run` does: the main job on the bundled example data.

1. import every example campaign under ``data/raw`` into ``data/processed`` (each prints its
   report: files imported, files not imported and why, quality notes).
"""

from __future__ import annotations

import sys

from . import paths
from .report import run_import


def import_examples() -> int:
    """Import every campaign folder under data/raw; the worst exit status wins."""
    status = 0
    for name in paths.campaigns():
        status = max(status, run_import(name))
    return status


def run() -> int:
    return import_examples()


if __name__ == "__main__":
    sys.exit(run())
