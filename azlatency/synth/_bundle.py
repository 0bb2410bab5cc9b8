"""Building a bundled synthetic campaign under ``data/raw`` once: what ``make run`` calls.

A campaign folder is rebuilt only when it is absent or its ``truth.json`` says another
generator (or seed, or size) wrote it; it is written beside its place and renamed into it, so
an interrupted build leaves no half folder; and a folder of that name whose ``truth.json``
does not say ``synthetic: true`` is somebody's real data and is never touched.
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any


def up_to_date(target: Path, stamp: dict[str, Any]) -> bool:
    """True when ``target`` holds a synthetic campaign whose ``truth.json`` has every item of
    ``stamp``; False when it is absent or stale; :class:`FileExistsError` when it is not
    synthetic."""
    if not target.exists():
        return False
    try:
        truth = json.loads((target / "truth.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        truth = {}
    if truth.get("synthetic") is not True:
        raise FileExistsError(f"{target} exists and is not a synthetic campaign")
    return all(truth.get(k) == v for k, v in stamp.items())


def rebuild(target: Path, build: Callable[[Path], object]) -> Path:
    """``build`` the campaign into a staging folder beside ``target``, then put it in place."""
    staging = target.with_name(f".{target.name}.tmp-{os.getpid()}")
    shutil.rmtree(staging, ignore_errors=True)
    build(staging)
    if target.exists():
        shutil.rmtree(target)
    staging.rename(target)
    return target
