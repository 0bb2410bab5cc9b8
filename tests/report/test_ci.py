"""The CI recipe (docs/ci.md): ``examples/ci/report.sh`` run as a CI job would run it — in a
clean folder holding only a campaign, installing azlatency from a wheel of this checkout into
a virtualenv of its own (so the notebooks must ship inside the package) — and the GitHub
workflow checked to run the same command and publish the folder it writes."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from azlatency.paths import build_dir
from tests.conftest import ROOT
from tests.report.shapes import SHAPES, build

RECIPE = ROOT / "examples" / "ci"
UV = shutil.which("uv") or str(Path(sys.executable).with_name("uv"))


def _wheel(tmp: Path) -> Path:
    """A wheel of the checkout, built from a copy (a build writes build/ beside its source)."""
    src = tmp / "src"
    shutil.copytree(
        ROOT / "azlatency", src / "azlatency", ignore=shutil.ignore_patterns("__pycache__", "*.pyc")
    )
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(ROOT / name, src / name)
    subprocess.run(
        [UV, "build", "--quiet", "--wheel", "--out-dir", str(tmp / "dist"), str(src)],
        check=True,
        capture_output=True,
        text=True,
    )
    (wheel,) = (tmp / "dist").glob("azlatency-*.whl")
    return wheel


# A virtualenv of its own with the whole stack installed, then a report: the most CPU of any
# test.  make test keeps what it rests on (test_release.py: the wheel holds the notebooks;
# the script's usage below); make test-slow runs it whole.
@pytest.mark.slow
@pytest.mark.skipif(not Path(UV).exists(), reason="uv is not installed")
def test_recipe_shell_steps_in_a_clean_folder(tmp_path):
    wheel = _wheel(tmp_path)
    repo = tmp_path / "repo"  # what a user's CI checkout holds: the recipe and a campaign
    build(repo / "benchmarks", {"weu": SHAPES["one-direction"]})
    shutil.copy2(RECIPE / "report.sh", repo / "report.sh")
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("VIRTUAL_ENV", "PYTHONPATH", "AZLATENCY_DATA", "MPLBACKEND")
    }
    env.update(
        PATH=os.pathsep.join([str(Path(UV).parent), "/usr/bin", "/bin"]),
        UV_PYTHON=getattr(sys, "_base_executable", sys.executable),
        AZLATENCY_SPEC=f"azlatency[notebooks] @ {wheel.as_uri()}",
    )
    res = subprocess.run(
        ["sh", "report.sh", "benchmarks/weu", "--notebooks", "01,90"],
        cwd=repo,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert res.returncode == 0, res.stdout + res.stderr
    out = repo / "azlatency-report"
    assert (out / "index.html").is_file() and (out / "site" / "index.html").is_file()
    assert (out / "site" / "weu" / "90-campaign-report.html").is_file()
    assert (repo / ".azlatency" / "data" / "processed" / "weu").is_dir()
    # the installed package carried the notebooks; nothing came from this checkout
    shipped = list(
        (repo / ".azlatency" / "venv").rglob("report/notebooks/90-campaign-report.ipynb")
    )
    executed = build_dir(out) / "notebooks" / "weu" / "90-campaign-report.ipynb"
    assert shipped and str(ROOT) not in executed.read_text(encoding="utf-8")
    assert "2 run, 0 skipped, 0 failed" in res.stdout


def test_recipe_needs_a_campaign(tmp_path):
    res = subprocess.run(
        ["sh", str(RECIPE / "report.sh")], cwd=tmp_path, capture_output=True, text=True
    )
    assert res.returncode == 2 and "usage:" in res.stderr


def test_workflow_runs_the_recipe_command_and_publishes_its_folder():
    flow = yaml.safe_load((RECIPE / "report.yml").read_text(encoding="utf-8"))
    steps = flow["jobs"]["report"]["steps"]
    runs = "\n".join(s.get("run", "") for s in steps)
    script = (RECIPE / "report.sh").read_text(encoding="utf-8")
    assert '"$WORK/venv/bin/azlatency" report $CAMPAIGNS --data "$WORK/data" -o "$OUT"' in runs
    assert '"$VENV/bin/azlatency" report "$@" --data "$WORK/data" -o "$OUT"' in script
    assert "ipykernel install --sys-prefix --name python3" in runs
    assert "ipykernel install --sys-prefix --name python3" in script
    upload = next(s for s in steps if s.get("uses", "").startswith("actions/upload-artifact"))
    assert upload["with"]["path"] == flow["env"]["OUT"] and upload["if"] == "always()"


def test_docs_show_the_install_the_recipe_test_uses():
    """docs/ci.md shows the two pinned sources; the wheel form is the one the test above
    passes to report.sh (AZLATENCY_SPEC = 'azlatency[notebooks] @ <wheel URI>')."""
    doc = (ROOT / "docs" / "ci.md").read_text(encoding="utf-8")
    assert 'AZLATENCY_SPEC="azlatency[notebooks] @ git+https://' in doc
    assert 'AZLATENCY_SPEC="azlatency[notebooks] @ file://' in doc
    assert "AZLATENCY_SPEC" in (RECIPE / "report.sh").read_text(encoding="utf-8")
