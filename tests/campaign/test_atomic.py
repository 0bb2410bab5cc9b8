"""Kill the import process at every step (and at random moments): the old store survives.

Each case runs an import in a child process that SIGKILLs itself at a named point of the
store writer (``AZLATENCY_KILL_AT``, a test hook in ``azlatency/campaign/store.py``) or is killed from
outside after a random delay.  Afterwards the store must be exactly the old one or exactly the
new one — never a mix, never missing — and the next import must succeed.  Children come from a
forkserver that has azlatency imported already, so a case costs a fork, not a Python start.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import random
import shutil
import signal
import time

import pytest

from azlatency import campaign
from tests.campaign.conftest import RAW

pytestmark = pytest.mark.xdist_group("atomic")
KILLED = -signal.SIGKILL


def _child(raw, root, point):
    if point:
        os.environ["AZLATENCY_KILL_AT"] = point
    campaign.import_campaign(raw, root=root, workers=1)


@pytest.fixture(scope="module")
def ctx():
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(
        [
            "azlatency.campaign.importer",
            "pandera.pandas",
            "pyarrow.parquet",
            "tests.campaign.test_atomic",
        ]
    )
    return context


@pytest.fixture(scope="module")
def setup(tmp_path_factory):
    """Old store of seed004; the raw folder then gains a file; the new store for reference."""
    tmp = tmp_path_factory.mktemp("atomic")
    raw = tmp / "raw" / "echo"
    shutil.copytree(RAW / "seed004-echo-uksouth", raw)
    stores = tmp / "processed"
    campaign.import_campaign(raw, root=stores, workers=1)
    old = state(stores / "echo")
    (raw / "ppg.reported.csv").write_bytes(
        (RAW / "seed002-ppg-latte" / "blog-comparison.reported.csv").read_bytes()
    )
    reference = tmp / "reference"
    campaign.import_campaign(raw, root=reference, workers=1)
    new = state(reference / "echo")
    assert old != new
    return raw, stores, old, new


def state(store):
    """What a reader sees: the three tables and the manifest.  The cache stamp is left out:
    it hashes the parsers' source, which other work may change while this test runs."""
    if not (store / "manifest.json").is_file():
        return None
    manifest = json.loads((store / "manifest.json").read_text())
    manifest.pop("cache_stamp")
    tables = {
        f.relative_to(store).as_posix(): f.read_bytes()
        for t in ("runs", "samples", "summaries")
        for f in sorted((store / t).rglob("*.parquet"))
    }
    return manifest, tables


def _run(ctx, raw, root, point=None, kill_after=None):
    proc = ctx.Process(target=_child, args=(raw, root, point))
    proc.start()
    if kill_after is not None:
        time.sleep(kill_after)
        proc.kill()
    proc.join(timeout=120)
    return proc.exitcode


def _check_and_restore(stores, old, new):
    """After a crash: loading recovers a store that is exactly old or exactly new."""
    tables = campaign.load("echo", stores)  # recovers a half-done swap under the lock
    now = state(stores / "echo")
    assert now in (old, new)
    assert len(tables.runs) == (18 if now == old else 25)
    leftovers = [
        p.name
        for p in stores.iterdir()
        if p.name.startswith(".echo.") and not p.name.endswith(".lock")
    ]
    assert leftovers == [] or all(".tmp-" in n for n in leftovers)
    return "old" if now == old else "new"


@pytest.mark.parametrize(
    ("point", "expected"),
    [
        ("cache-written", "old"),
        ("staging-written", "old"),
        ("before-swap", "old"),
        ("between-renames", "old"),
        ("after-swap", "new"),
    ],
)
def test_killed_at_each_step(ctx, setup, point, expected, tmp_path):
    raw, stores, old, new = setup
    root = tmp_path / "processed"
    shutil.copytree(stores, root)
    assert _run(ctx, raw, root, point) == KILLED
    if point == "between-renames":  # the store folder is briefly gone: only the .old is left
        assert not (root / "echo").exists() and (root / ".echo.old").exists()
    assert _check_and_restore(root, old, new) == expected
    campaign.import_campaign(raw, root=root, workers=1)  # the next import completes
    assert state(root / "echo") == new


def test_killed_at_random_moments(ctx, setup, tmp_path):
    raw, stores, old, new = setup
    root = tmp_path / "timing"
    shutil.copytree(stores, root)
    _run(ctx, raw, root)  # starts the forkserver
    shutil.rmtree(root)
    shutil.copytree(stores, root)
    start = time.perf_counter()
    assert _run(ctx, raw, root) == 0
    full = time.perf_counter() - start
    assert state(root / "echo") == new
    rng = random.Random(20261121)
    seen = set()
    for i in range(6):
        root = tmp_path / f"run{i}"
        shutil.copytree(stores, root)
        _run(ctx, raw, root, kill_after=rng.uniform(0.0, 1.2 * full))
        seen.add(_check_and_restore(root, old, new))
    assert seen  # which of old/new depends on timing; both are fine, a mix never is
