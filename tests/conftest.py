"""Shared test set-up: where fixtures and ../shared live."""

from __future__ import annotations

import atexit
import os
import shutil
import sys
from pathlib import Path

import pytest

# One BLAS thread per process, set before numpy loads: two xdist workers (and the notebook
# kernels they start) on two cores each ran OpenBLAS's spinning thread pool, and a dependence
# test that takes 0.08 s alone took 28 s beside a busy worker (58 s of make test's 350).
for _name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_name, "1")

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "fixtures"
# The bundled example campaigns (data/raw; the synthetic ones are generated beside them).
RAW = ROOT / "data" / "raw"
EXAMPLES = (
    "seed000-az-vs-as",
    "seed001-aks-azure-cni",
    "seed002-ppg-latte",
    "seed004-echo-uksouth",
)
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


SYNTH = "synthetic-tiny"
# Of the zone matrix, one zone pair in both directions is kept: the import takes a third of
# the time and every tool, basis, censoring (Windows ping) and the echo break stay in.
KEEP = ("vm-z1-a/to-vm-z2-b", "vm-z2-a/to-vm-z1-b")


@pytest.fixture(scope="session")
def synth(tmp_path_factory):
    """(raw folder, store root, loaded tables) of a ``tiny`` synthetic campaign, seed 7, with
    part of its zone matrix (built once per test process: the engine tests and
    summarize_store's share it)."""
    from azlatency.campaign import import_campaign, load
    from azlatency.synth import make_campaign

    raw = tmp_path_factory.mktemp("synth") / SYNTH
    make_campaign(raw, size="tiny", seed=7)
    for pair in sorted((raw / "zone-matrix").glob("*/to-*")):
        if pair.relative_to(raw / "zone-matrix").as_posix() not in KEEP:
            shutil.rmtree(pair)
    root = tmp_path_factory.mktemp("synth-store")
    import_campaign(raw, root=root, workers=1)
    return raw, root, load(SYNTH, root=root)


@pytest.fixture(scope="session")
def synth_loaded(synth, tmp_path_factory):
    """(raw folder, tables) of :func:`synth`'s campaign as a page loads it
    (``report.load_campaigns``), its statistics kept as a report keeps them: a test asking it
    a dozen questions computed them again for each (26 s)."""
    from azlatency import report

    raw, root, _ = synth
    data = tmp_path_factory.mktemp("synth-data")
    (data / "processed").mkdir()
    (data / "processed" / SYNTH).symlink_to(root / SYNTH)
    return raw, report.load_campaigns(SYNTH, data)


def _module_scoped(item) -> bool:
    """Does the test use a module-scoped fixture of its own module?"""
    info = getattr(item, "_fixtureinfo", None)
    defs = [d for ds in (info.name2fixturedefs.values() if info else ()) for d in ds]
    return any(d.scope == "module" and d.baseid == item.parent.nodeid for d in defs)


def pytest_configure(config):
    """An xdist worker ends without tearing its interpreter down: once its results are sent
    and pytest has finished (atexit runs after both), freeing a worker's heap of frames,
    kernels' clients and imported modules object by object took 6-10 s after the last test
    of make test, which waited for it.  Registered here, early, the exit runs after the
    atexit handlers of what the tests import (multiprocessing's, which stops its children)."""
    if os.environ.get("PYTEST_XDIST_WORKER"):
        atexit.register(_exit_now)


def _exit_now() -> None:
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0)


@pytest.hookimpl(tryfirst=True)  # before xdist's own hook reads the groups
def pytest_collection_modifyitems(items):
    """A module whose tests use its own module-scoped fixtures goes to one worker whole (an
    xdist group named after it): under ``--dist loadgroup`` its tests are otherwise spread
    over both workers, and each builds the fixture (a sphinx build, a simulation study, four
    campaigns imported).  Each test carries its group into its report, for the check below."""
    for item in items:
        if item.get_closest_marker("xdist_group") is None and _module_scoped(item):
            item.add_marker(pytest.mark.xdist_group(item.module.__name__))
        if mark := item.get_closest_marker("xdist_group"):
            item.user_properties.append(("xdist_group", mark.args[0]))


def _split_groups(reports) -> dict[str, list[str]]:
    """Groups whose tests ran on more than one xdist worker -> those workers."""
    where: dict[str, set[str]] = {}
    for report in reports:
        node = getattr(report, "node", None)  # set by xdist on the controller
        for name, value in report.user_properties:
            if name == "xdist_group" and node is not None:
                where.setdefault(value, set()).add(node.gateway.id)
    return {g: sorted(w) for g, w in where.items() if len(w) > 1}


@pytest.hookimpl(tryfirst=True)
def pytest_sessionfinish(session):
    """Fail the run when ``--dist loadgroup`` split a group: each worker then builds the
    group's session fixtures itself (all notebooks run twice), silently (pytest 9.2 ignores
    the node id xdist marks groups with, pytest-xdist#1386)."""
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    if reporter is None or session.config.getoption("dist", "no") != "loadgroup":
        return
    reports = [r for key in ("passed", "failed", "skipped") for r in reporter.stats.get(key, [])]
    if split := _split_groups(reports):
        reporter.ensure_newline()
        reporter.write_line(f"xdist groups split across workers: {split}", red=True)
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_terminal_summary(terminalreporter):
    """The metamorphic tests' counts (tests/parsers/test_metamorphic.py), summed over the workers."""
    totals: dict[str, list[int]] = {}
    for report in terminalreporter.stats.get("passed", []) + terminalreporter.stats.get(
        "failed", []
    ):
        for name, value in getattr(report, "user_properties", ()):
            if name == "metamorphic" and report.when == "call":
                check, tried, silent = value
                t = totals.setdefault(check, [0, 0])
                t[0] += tried
                t[1] += silent
    if totals:
        parts = [
            f"{check}: {tried} tried, {silent} missed the bar"
            for check, (tried, silent) in sorted(totals.items())
        ]
        terminalreporter.write_line("metamorphic: " + "; ".join(parts))
