"""What `make run` does: the main job on the bundled example data.

Until the campaign importer and report site land, this inspects every bundled example log.
"""

from __future__ import annotations

import sys
from pathlib import Path

from .cli import main

ROOT = Path(__file__).resolve().parent.parent


def run() -> int:
    raw = ROOT / "data" / "raw"
    targets = [str(raw)] if raw.is_dir() and any(raw.rglob("*.*")) else [str(ROOT / "tests" / "fixtures")]
    try:
        main(["inspect", "--lenient", *targets], standalone_mode=False)
    except SystemExit as exc:  # click exits; a file it could not read is reported, not fatal
        return int(exc.code or 0)
    return 0


if __name__ == "__main__":
    sys.exit(run())
