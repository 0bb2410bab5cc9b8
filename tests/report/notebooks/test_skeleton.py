"""The notebooks as committed: stripped, numbered, one typed ``parameters`` cell, a claims
cell, paths only from parameters.  Fast: nothing is executed here."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from azlatency.report import execute as notebooks
from tests.report.notebooks.conftest import OTHER

NOTEBOOKS = notebooks.notebooks()
IDS = [p.stem for p in NOTEBOOKS]
# The list: every one of these must exist.
REQUIRED = (
    "01-import-and-quality",
    "10-latency-distributions",
    "11-tail-analysis",
    "20-zone-pair-matrix",
    "21-placement-and-networking",
    "22-throughput",
    "30-long-run-stability",
    "40-cross-tool-agreement",
    "90-campaign-report",
)
PATHS = ("data_root", "reports_dir", "figures_dir")


def _cells(path: Path) -> list[dict]:
    return json.loads(path.read_text(encoding="utf-8"))["cells"]


def _source(cell: dict) -> str:
    src = cell.get("source", "")
    return "".join(src) if isinstance(src, list) else src


def test_every_required_notebook_exists_and_has_other_parameters():
    assert set(REQUIRED) <= set(IDS)
    assert set(OTHER) == set(IDS)  # each one is also run with non-default parameters


def test_names_follow_nn_area_question():
    for stem in IDS:
        assert re.fullmatch(r"\d\d-[a-z0-9]+(-[a-z0-9]+)*", stem), stem


@pytest.mark.parametrize("path", NOTEBOOKS, ids=IDS)
def test_committed_without_outputs(path):
    assert not notebooks.has_outputs(path), f"{path.name}: run `nbstripout {path}`"


def test_nbstripout_has_nothing_to_strip():
    # Stricter than has_outputs (metadata too); --keep-id: cell ids are stable names.
    import shutil
    import subprocess
    import sys

    exe = shutil.which("nbstripout") or str(Path(sys.executable).with_name("nbstripout"))
    if not Path(exe).exists():
        pytest.skip("nbstripout is not installed")
    res = subprocess.run(
        [exe, "--keep-id", "--verify", *map(str, NOTEBOOKS)], capture_output=True, text=True
    )
    assert res.returncode == 0, res.stdout + res.stderr


def test_has_outputs_notices_an_output(tmp_path):
    # The check above cannot pass vacuously: a notebook with one output is caught.
    nb = json.loads(NOTEBOOKS[0].read_text(encoding="utf-8"))
    code = next(c for c in nb["cells"] if c["cell_type"] == "code")
    code["outputs"] = [{"output_type": "stream", "name": "stdout", "text": "x"}]
    dirty = tmp_path / NOTEBOOKS[0].name
    dirty.write_text(json.dumps(nb), encoding="utf-8")
    assert notebooks.has_outputs(dirty)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=IDS)
def test_skeleton(path):
    cells = _cells(path)
    title = _source(cells[0])
    assert cells[0]["cell_type"] == "markdown" and title.startswith(f"# {path.stem[:2]} · ")
    assert "**Question" in title
    params = cells[1]
    assert params["cell_type"] == "code" and params["metadata"].get("tags") == ["parameters"]
    tagged = [c for c in cells if "parameters" in c.get("metadata", {}).get("tags", [])]
    assert len(tagged) == 1
    # Derived values come in the next cell (papermill does not recompute the parameters cell).
    assert "figures_dir(reports_dir, figures_dir)" in _source(cells[2])
    # The last cell states the claims, and the site leaves it out.
    assert "rep.claims(" in _source(cells[-1])
    assert "remove-cell" in cells[-1]["metadata"].get("tags", [])
    ids = [c["id"] for c in cells]
    assert len(set(ids)) == len(ids) and "parameters" in ids


@pytest.mark.parametrize("path", NOTEBOOKS, ids=IDS)
def test_parameters_are_typed_commented_literals(path):
    declared = notebooks.parameters_of(path)
    assert set(PATHS) <= set(declared)
    assert all(declared[p] == "None" for p in PATHS)  # default: the project's folders
    lines = [ln for ln in _source(_cells(path)[1]).splitlines() if re.match(r"^\w+\s*:", ln)]
    assert len(lines) == len(declared), "one parameter per line, each found by papermill"
    for ln in lines:
        assert re.match(r"^\w+: [\w\[\], ]+ = .+  # .+", ln), f"untyped or uncommented: {ln}"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=IDS)
def test_no_machine_paths_or_working_directory(path):
    text = "\n".join(_source(c) for c in _cells(path))
    assert "/work/" not in text and "/tmp/" not in text and "os.getcwd" not in text
    assert "Path.cwd" not in text and "../" not in text


@pytest.mark.parametrize("path", NOTEBOOKS, ids=IDS)
def test_code_cells_stay_short(path):
    # Logic lives in the package: a notebook cell is a few calls, not a program.
    for cell in _cells(path):
        if cell["cell_type"] == "code":
            assert len(_source(cell).splitlines()) <= 30, cell["id"]


def _annotations(path: Path) -> dict[str, str]:
    src = _source(_cells(path)[1])
    return dict(re.findall(r"^(\w+): ([\w\[\], ]+) = ", src, flags=re.M))


@pytest.mark.parametrize("path", NOTEBOOKS, ids=IDS)
def test_campaigns_is_always_a_list(path):
    # One vocabulary: `azlatency report` passes campaigns=[...] to every notebook.
    ann = _annotations(path)
    assert ann.get("campaigns") == "list[str]" and "campaign" not in ann


def test_a_parameter_means_the_same_in_every_notebook():
    # -p NAME=VALUE goes to every notebook that declares NAME: one type per name.
    types: dict[str, set[str]] = {}
    for path in NOTEBOOKS:
        for name, kind in _annotations(path).items():
            types.setdefault(name, set()).add(kind)
    assert {n: t for n, t in types.items() if len(t) > 1} == {}
    assert types["level"] == {"float"} and types["seed"] == {"int"}
