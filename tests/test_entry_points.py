"""Every way azlatency is started works, ``python -m`` included (issue 42: ``python -m
azlatency.cli import`` once raised NameError)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from types import SimpleNamespace

import pytest

from azlatency import make_run
from tests.conftest import RAW, ROOT


@pytest.mark.parametrize(
    "module", ["azlatency", "azlatency.cli", "azlatency.make_run"], ids=lambda m: f"-m {m}"
)
def test_every_entry_point_answers_help(module):
    """``python -m azlatency``, ``python -m azlatency.cli`` (each command defined before it
    runs) and ``python -m azlatency.make_run`` (what make run calls) print their usage."""
    res = subprocess.run(
        [sys.executable, "-m", module, "--help"], capture_output=True, text=True, cwd=ROOT
    )
    assert res.returncode == 0, res.stderr
    assert "usage" in res.stdout.lower() and "Traceback" not in res.stderr


def test_import_only_imports_every_campaign_and_says_which_failed(tmp_path, monkeypatch):
    """``make lab``'s step (``make_run --import-only``): every campaign under raw/ imported;
    one that cannot be is named, and the status is 1."""
    for name in ("seed001-aks-azure-cni", "seed002-ppg-latte"):
        shutil.copytree(RAW / name, tmp_path / "raw" / name)
    (tmp_path / "raw" / "broken").mkdir()
    (tmp_path / "raw" / "broken" / "campaign.yaml").write_text("zones: [unclosed\n")
    monkeypatch.setenv("AZLATENCY_DATA", str(tmp_path))
    monkeypatch.setattr(make_run, "ensure_synthetic", lambda: [])
    printed = []
    monkeypatch.setattr(
        make_run, "_console", lambda: SimpleNamespace(print=lambda s, **k: printed.append(s))
    )
    assert make_run.prepare() == 1
    assert printed[0].startswith("broken: import failed: ")
    assert printed[1].startswith("seed001-aks-azure-cni: 7 files, store ")
    assert (tmp_path / "processed" / "seed002-ppg-latte" / "manifest.json").is_file()
