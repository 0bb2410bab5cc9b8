"""Shared set-up of the notebook tests: one data root with every example campaign imported
(the synthetic one at its ``tiny`` size), and the notebooks executed on it once per session,
with their default parameters and with other ones.

Everything is built under pytest's temporary folder: a clean clone has no ``data/processed``
and the tests must not depend on ``make run`` having been called.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from azlatency.campaign import import_campaign
from azlatency.report import execute as notebooks
from azlatency.report.run import FORMATS_ENV
from tests.conftest import EXAMPLES, RAW

SYNTHETIC = "synthetic-westeurope"
BASELINE = "synthetic-seed003-baseline"  # seed 003's fleet baseline (azlatency.synth.baseline)
AB = ("synthetic-ab-before", "synthetic-ab-after")  # the before/after pair (synth.abpair)

# Non-default parameters: another campaign (or several), another confidence level.
OTHER = {
    "01-import-and-quality": {"campaigns": ["seed001-aks-azure-cni", SYNTHETIC]},
    "10-latency-distributions": {"campaigns": [SYNTHETIC], "basis": "rtt", "level": 0.9},
    "11-tail-analysis": {"campaigns": [SYNTHETIC], "multiples": [3.0], "level": 0.9},
    "20-zone-pair-matrix": {"campaigns": ["seed001-aks-azure-cni"], "level": 0.9},
    "21-placement-and-networking": {"campaigns": [SYNTHETIC], "level": 0.9},
    "22-throughput": {"campaigns": [SYNTHETIC], "level": 0.9},
    "30-long-run-stability": {
        "campaigns": [SYNTHETIC],
        "min_hours": 0.25,
        "window": "2min",
        "level": 0.9,
    },
    "40-cross-tool-agreement": {"campaigns": [SYNTHETIC], "level": 0.9},
    "50-baseline-validation": {"campaigns": [BASELINE], "level": 0.9},
    "60-compare": {"campaigns": [AB[1]], "margin": 0.3, "level": 0.9},
    "90-campaign-report": {"campaigns": [SYNTHETIC], "level": 0.9},
}


@pytest.fixture(scope="session")
def data_root(tmp_path_factory) -> Path:
    """``<tmp>/raw`` (the synthetic campaign) and ``<tmp>/processed`` (every store)."""
    from azlatency.synth import make_campaign
    from azlatency.synth.abpair import make_campaign as make_ab
    from azlatency.synth.baseline import make_baseline

    root = tmp_path_factory.mktemp("data")
    # In this process (workers=1): the other test worker keeps the second core busy, and
    # with a pool (its server and workers each import azlatency) this fixture took 29 s of
    # CPU, 18 s without (tests/campaign/test_importer.py imports through the pool).
    for name in EXAMPLES:
        import_campaign(RAW / name, root=root / "processed", workers=1)
    make_campaign(root / "raw" / SYNTHETIC, size="tiny", seed=0)
    import_campaign(root / "raw" / SYNTHETIC, root=root / "processed", workers=1)
    make_baseline(root / "raw" / BASELINE)
    import_campaign(root / "raw" / BASELINE, root=root / "processed", workers=1)
    for name in AB:
        make_ab(root / "raw" / name, name)
        import_campaign(root / "raw" / name, root=root / "processed", workers=1)
    return root


def _params(data_root: Path, out: Path) -> dict[str, object]:
    return {
        "data_root": str(data_root),
        "reports_dir": str(out),
        "figures_dir": str(out / "figures"),
    }


@pytest.fixture(scope="session")
def _runs(data_root, tmp_path_factory) -> dict[str, dict[str, Path]]:
    """Every notebook twice — defaults (only the paths point at the test data) and the
    parameters of :data:`OTHER` — as one queue, two warm kernels at a time (as ``azlatency
    report`` runs them: each kernel starts once and runs notebook after notebook)."""
    base = tmp_path_factory.mktemp("reports")
    jobs = [(kind, path) for kind in ("default", "other") for path in notebooks.notebooks()]

    def one(job):
        kind, path = job
        out = base / kind
        params = {**_params(data_root, out), **(OTHER[path.stem] if kind == "other" else {})}
        return kind, notebooks.execute(path, out / "notebooks", params, kernels=kernels)

    done: dict[str, dict[str, Path]] = {"default": {}, "other": {}}
    with pytest.MonkeyPatch.context() as mp:
        # PNG only (the kernels inherit it): the SVG copies, a fifth of a run's time, are read
        # by no test here; tests/report writes and compares them.
        mp.setenv(FORMATS_ENV, "png")
        with notebooks.Kernels() as kernels, ThreadPoolExecutor(max_workers=2) as pool:
            for kind, result in pool.map(one, jobs):
                done[kind][result.source.stem] = result.output
    return done


@pytest.fixture(scope="session")
def executed(_runs) -> dict[str, Path]:
    """Every notebook run with its defaults."""
    return _runs["default"]


@pytest.fixture(scope="session")
def executed_other(_runs) -> dict[str, Path]:
    """Every notebook run with the parameters of :data:`OTHER`."""
    return _runs["other"]
