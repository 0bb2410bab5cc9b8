"""Stores for the engine tests: the tiny synthetic campaign (tests/conftest.py) and one built
from real captures."""

from __future__ import annotations

import shutil

import pytest

from azlatency.campaign import import_campaign, load
from tests.campaign.conftest import RAW
from tests.conftest import FIXTURES

CAPTURES = (("sockperf", "*fulllog*.csv"), ("ping", "*.txt"), ("echo_csv", "*20probes.csv"))


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
