"""``report.run``'s kernel environment: what every kernel of a report inherits."""

from __future__ import annotations

import os
from types import SimpleNamespace

import pytest

from azlatency.report import run


def test_parallel_kernels_share_the_cores_between_their_blas_threads(monkeypatch):
    for name in run.BLAS_THREADS:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr(os, "cpu_count", lambda: 4)
    with run._deterministic_kernels(2):
        assert os.environ["PYTHONHASHSEED"] == "0"
        assert {os.environ[n] for n in run.BLAS_THREADS} == {"2"}
    assert not any(n in os.environ for n in run.BLAS_THREADS)  # put back as it was


def test_a_blas_setting_of_the_user_is_left_alone(monkeypatch):
    monkeypatch.setenv("OPENBLAS_NUM_THREADS", "3")
    with run._deterministic_kernels(2):
        assert os.environ["OPENBLAS_NUM_THREADS"] == "3"


def test_kernels_start_ahead_only_when_pages_will_run(monkeypatch, tmp_path):
    """No page kept (or ``--no-cache``): the kernels start before the import, no more than
    there may be pages; with a page kept, after an import that changed a store (no more than
    that store's pages), else on first need."""
    from azlatency.report import cache, execute

    started: list[tuple[int, str | None]] = []
    monkeypatch.setattr(
        execute.Kernels,
        "start",
        lambda self, n: started.append((n, os.environ.get("PYTHONHASHSEED"))),
    )
    monkeypatch.setattr(run, "import_all", lambda *a, **k: [])  # nothing imported: stop there
    out = tmp_path / "reports"
    run.run_report(["a", "b"], out, formats=["png"])
    run.run_report(["a"], out, only=["90"], formats=["png"])
    assert started == [(2, "0"), (1, "0")]  # in the kernels' environment
    kept = cache.Cache(out, run.paths.build_dir(out)).root / "k" / cache.ENTRY
    kept.parent.mkdir(parents=True)
    kept.write_text("{}", encoding="utf-8")
    run.run_report(["a", "b"], out, formats=["png"])
    assert len(started) == 2
    run.run_report(["a", "b"], out, formats=["png"], cache=False)
    assert started[-1] == (2, "0")
    imported = [SimpleNamespace(campaign=c, changed=c == "b") for c in "ab"]
    monkeypatch.setattr(run, "import_all", lambda *a, **k: imported)
    monkeypatch.setattr(run, "quality_problems", lambda reports: [])

    def planned(*args, **kwargs):
        raise LookupError("stop before the pages")

    monkeypatch.setattr(run, "plan", planned)
    with pytest.raises(LookupError):
        run.run_report(["a", "b"], out, only=["90"], formats=["png"])
    assert started[-1] == (1, "0") and len(started) == 4
    imported[1].changed = False
    with pytest.raises(LookupError):
        run.run_report(["a", "b"], out, formats=["png"])
    assert len(started) == 4
