"""Shared set-up of the import tests: copies of the bundled campaigns, store digests."""

from __future__ import annotations

import hashlib
import shutil
from pathlib import Path

import pytest

from tests.conftest import RAW


def tree_digest(folder: Path, *, mtimes: bool = False) -> dict[str, tuple]:
    """relative path → (sha256[, mtime_ns]) of every file under ``folder``."""
    out = {}
    for path in sorted(folder.rglob("*")):
        if path.is_file():
            sha = hashlib.sha256(path.read_bytes()).hexdigest()
            out[path.relative_to(folder).as_posix()] = (
                (sha, path.stat().st_mtime_ns) if mtimes else (sha,)
            )
    return out


@pytest.fixture
def stores(tmp_path: Path) -> Path:
    return tmp_path / "processed"


@pytest.fixture
def copy_campaign(tmp_path: Path):
    """Copy a bundled campaign into a scratch raw folder (tests may change the copy)."""

    def copy(name: str) -> Path:
        dst = tmp_path / "raw" / name
        shutil.copytree(RAW / name, dst)
        return dst

    return copy
