"""Every way azlatency is started works, ``python -m`` included (issue 42: ``python -m
azlatency.cli import`` once raised NameError)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.conftest import ROOT


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
