"""The release path (docs/releasing.md): ``uv build`` gives an sdist and a wheel that hold
everything ``azlatency report`` needs, and ``twine check --strict`` accepts both.  (That a
wheel installs outside the checkout and writes the report is tests/report/test_ci.py.)"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

from azlatency import __version__
from azlatency.report import execute
from tests.conftest import ROOT

UV = shutil.which("uv") or str(Path(sys.executable).with_name("uv"))


@pytest.fixture(scope="module")
def dist(tmp_path_factory) -> Path:
    tmp = tmp_path_factory.mktemp("release")
    src = tmp / "src"
    # what git would archive: the package, its metadata, README and CHANGELOG (no caches)
    shutil.copytree(
        ROOT / "azlatency", src / "azlatency", ignore=shutil.ignore_patterns("__pycache__", "*.pyc")
    )
    for name in ("pyproject.toml", "README.md", "CHANGELOG.md"):
        shutil.copy2(ROOT / name, src / name)
    subprocess.run(
        [UV, "build", "--quiet", "--sdist", "--wheel", "--out-dir", str(tmp / "dist"), str(src)],
        check=True,
        capture_output=True,
        text=True,
    )
    return tmp / "dist"


def test_twine_check_passes(dist):
    files = sorted(str(p) for p in dist.iterdir() if p.name.startswith("azlatency-"))
    assert sorted(Path(f).suffix for f in files) == [".gz", ".whl"]
    res = subprocess.run(
        [sys.executable, "-m", "twine", "check", "--strict", *files],
        capture_output=True,
        text=True,
    )
    assert res.returncode == 0, res.stdout + res.stderr
    assert res.stdout.count("PASSED") == 2


def test_wheel_and_sdist_hold_what_the_report_needs(dist):
    (wheel,) = dist.glob(f"azlatency-{__version__}-*.whl")
    (sdist,) = dist.glob(f"azlatency-{__version__}.tar.gz")
    notebooks = {f"azlatency/report/notebooks/{p.name}" for p in execute.notebooks()}
    assert len(notebooks) == 11  # 01 to 90, 60-compare included
    needed = notebooks | {"azlatency/py.typed", "azlatency/cli.py", "azlatency/report/site.py"}
    in_wheel = set(zipfile.ZipFile(wheel).namelist())
    assert needed <= in_wheel
    entry = next(n for n in in_wheel if n.endswith("entry_points.txt"))
    assert "azlatency = azlatency.cli:main" in zipfile.ZipFile(wheel).read(entry).decode()
    with tarfile.open(sdist) as tar:
        in_sdist = {n.split("/", 1)[1] for n in tar.getnames() if "/" in n}
    assert needed <= in_sdist
