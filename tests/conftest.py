"""Shared test set-up: where fixtures and ../shared live."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "fixtures"
# CI has ../shared beside the project; a user's clone does not, so tests using it skip.
SHARED = ROOT.parent / "shared"
SEEDS = SHARED / "seeds"
CORPUS = SHARED / "corpus"

needs_shared = pytest.mark.skipif(not SHARED.is_dir(), reason="../shared is not present")


def seed(prefix: str) -> Path:
    """Path of the seed document whose name starts with ``prefix`` (e.g. ``'000'``)."""
    matches = sorted(SEEDS.glob(f"{prefix}_*"))
    if not matches:
        pytest.skip(f"seed {prefix} not present")
    return matches[0]


def corpus(tool: str, name: str) -> Path:
    path = CORPUS / tool / name
    if not path.is_file():
        pytest.skip(f"corpus file {tool}/{name} not present")
    return path
