"""Stores for the engine tests: a tiny synthetic campaign and one built from real captures."""

from __future__ import annotations

import shutil

import pytest

from azlatency.ingest import import_campaign, load
from azlatency.synth import make_campaign
from tests.conftest import FIXTURES
from tests.ingest.conftest import RAW

SYNTH = "synthetic-tiny"
# One zone pair in both directions: every tool, basis, censoring (Windows ping) stays in.
KEEP = ("vm-z1-a/to-vm-z2-b", "vm-z2-a/to-vm-z1-b")
CAPTURES = (("sockperf", "*fulllog*.csv"), ("ping", "*.txt"), ("echo_csv", "*20probes.csv"))


@pytest.fixture(scope="session")
def synth(tmp_path_factory):
    """(raw folder, store root, loaded tables) of a ``tiny`` synthetic campaign, seed 7."""
    raw = tmp_path_factory.mktemp("synth") / SYNTH
    make_campaign(raw, size="tiny", seed=7)
    for pair in sorted((raw / "zone-matrix").glob("*/to-*")):
        if pair.relative_to(raw / "zone-matrix").as_posix() not in KEEP:
            shutil.rmtree(pair)
    root = tmp_path_factory.mktemp("synth-store")
    import_campaign(raw, root=root, workers=1)
    return raw, root, load(SYNTH, root=root)


@pytest.fixture(scope="session")
def captures(tmp_path_factory):
    """(raw folder, store root, loaded tables): seed002 plus real sockperf, ping and echo
    captures from tests/fixtures."""
    raw = tmp_path_factory.mktemp("captures") / "captures"
    shutil.copytree(RAW / "seed002-ppg-latte", raw)
    for tool, pattern in CAPTURES:
        for f in sorted((FIXTURES / tool).glob(pattern)):
            if ".expected." not in f.name and f.suffix != ".md":
                shutil.copy(f, raw / f.name)
    root = tmp_path_factory.mktemp("captures-store")
    import_campaign(raw, root=root, workers=1)
    return raw, root, load("captures", root=root)
