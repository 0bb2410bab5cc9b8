"""One tiny synthetic campaign, generated and imported once per test session (and per xdist
worker: the tests of this folder share the ``synth`` group, so they run on one worker)."""

from __future__ import annotations

import pytest

from azlatency.campaign import import_campaign, load
from azlatency.synth import make_campaign

SEED = 7
NAME = "synthetic-tiny"


@pytest.fixture(scope="session")
def tiny(tmp_path_factory):
    """(truth, tables, report) of a ``tiny`` campaign, seed 7, imported strictly as a user
    would import it (the default lenient mode: any skipped line would show as a warning)."""
    raw = tmp_path_factory.mktemp("synth") / NAME
    truth = make_campaign(raw, size="tiny", seed=SEED)
    root = tmp_path_factory.mktemp("store")
    report = import_campaign(raw, root=root, workers=1)
    return truth, load(NAME, root=root), report
