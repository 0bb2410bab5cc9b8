"""``report.cache``: a page is reused only while everything it depends on is unchanged, and an
entry brings back the executed notebook and exactly the figure files it wrote."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from azlatency.report import cache
from azlatency.report.execute import notebooks


@pytest.fixture
def store(tmp_path) -> Path:
    """A data root with one campaign store (only its manifest matters to the key)."""
    target = tmp_path / "data" / "processed" / "camp"
    target.mkdir(parents=True)
    (target / "manifest.json").write_text('{"tables": {"runs": "ab12"}}', encoding="utf-8")
    return tmp_path / "data"


def _key(data_root: Path, notebook: Path, **params) -> str:
    return cache.key(notebook, {"level": 0.95, **params}, ["camp"], data_root, ["png", "svg"])


def test_key_changes_with_every_input_and_only_then(store, tmp_path):
    nb = tmp_path / "10-x.ipynb"
    nb.write_bytes(notebooks()[0].read_bytes())
    first = _key(store, nb)
    assert _key(store, nb) == first  # same inputs, same key
    assert _key(store, nb, level=0.9) != first  # a parameter
    assert cache.key(nb, {"level": 0.95}, ["camp"], store, ["png"]) != first  # the formats
    manifest = store / "processed" / "camp" / "manifest.json"
    manifest.write_text('{"tables": {"runs": "cd34"}}', encoding="utf-8")  # re-imported
    assert _key(store, nb) != first
    second = _key(store, nb)
    nb.write_bytes(nb.read_bytes().replace(b'"cells"', b'"cells" ', 1))  # the notebook
    assert _key(store, nb) != second


def test_a_campaign_never_imported_is_an_error_not_a_key(tmp_path):
    with pytest.raises(OSError):
        cache.key(notebooks()[0], {}, ["nowhere"], tmp_path, ["png"])


def test_the_code_fingerprint_covers_the_package_files(monkeypatch, tmp_path):
    pkg = tmp_path / "pkg"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "sub" / "m.py").write_text("x = 1\n", encoding="utf-8")
    monkeypatch.setattr(cache, "_PACKAGE", pkg)
    cache.code_fingerprint.cache_clear()
    try:
        before = cache.code_fingerprint()
        (pkg / "sub" / "m.py").write_text("x = 2\n", encoding="utf-8")
        cache.code_fingerprint.cache_clear()
        assert cache.code_fingerprint() != before
    finally:
        cache.code_fingerprint.cache_clear()


def test_the_code_fingerprint_covers_every_installed_version(monkeypatch, tmp_path):
    # every distribution on the import path by its metadata folder's name and version, as
    # importlib.metadata lists them (read from each METADATA file, 0.17-0.55 s a process)
    import sys
    from importlib import metadata

    def norm(name: str) -> str:
        return re.sub(r"[-_.]+", "_", name).lower()

    listed = {(norm(d.metadata["Name"]), d.version) for d in metadata.distributions()
              if d.metadata and Path(str(d._path)).is_absolute()}  # fmt: skip
    folders = (x.rsplit(".", 1)[0].partition("-") for x in cache._installed())
    assert listed <= {(norm(name), version) for name, _, version in folders}
    site = tmp_path / "site"
    (site / "foo-1.0.dist-info").mkdir(parents=True)
    monkeypatch.setattr(sys, "path", [*sys.path, str(site)])
    cache.code_fingerprint.cache_clear()
    try:
        before = cache.code_fingerprint()
        (site / "foo-1.0.dist-info").rename(site / "foo-1.1.dist-info")
        cache.code_fingerprint.cache_clear()
        assert cache.code_fingerprint() != before
    finally:
        cache.code_fingerprint.cache_clear()


def _executed(path: Path, files: list[Path]) -> None:
    """An executed notebook whose one figure output names ``files``."""
    out = {
        "output_type": "display_data",
        "data": {"image/png": "iVBORw0KGgo="},
        "metadata": {cache.FILES_KEY: {"files": [str(f) for f in files]}},
    }
    cell = {"cell_type": "code", "metadata": {}, "source": "", "outputs": [out]}
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"cells": [cell]}), encoding="utf-8")


def test_an_entry_restores_the_notebook_and_its_figures_then_is_pruned(tmp_path):
    out = tmp_path / "reports"
    figs = [out / "figures" / "camp" / "20-matrix.png", out / "figures" / "camp" / "20-matrix.svg"]
    for f in figs:
        f.parent.mkdir(parents=True, exist_ok=True)
        f.write_bytes(f.name.encode())
    other = out / "figures" / "camp" / "90-other.png"  # another page's figure: not in the entry
    other.write_bytes(b"other")
    executed = out / "notebooks" / "camp" / "20-zone-pair-matrix.ipynb"
    _executed(executed, figs)
    c = cache.Cache(out)
    assert c.restore("k1", executed) is None  # a miss
    assert c.keep("k1", executed, 6.25)
    saved = executed.read_bytes()
    for sub in ("notebooks", "figures"):  # what `azlatency report` clears before running
        for f in sorted((out / sub).rglob("*"), reverse=True):
            f.unlink() if f.is_file() else f.rmdir()
    again = cache.Cache(out)
    assert again.restore("k1", executed) == 6.25
    assert executed.read_bytes() == saved
    assert [f.read_bytes() for f in figs] == [b"20-matrix.png", b"20-matrix.svg"]
    assert not other.exists()
    # a torn entry (no entry.json) is a miss, never half a page
    (out / cache.FOLDER / "k1" / cache.ENTRY).unlink()
    assert cache.Cache(out).restore("k1", executed) is None
    assert again.prune(keep=[]) == 1 and not any((out / cache.FOLDER).iterdir())


def test_a_page_whose_figures_are_outside_the_report_folder_is_not_kept(tmp_path):
    elsewhere = tmp_path / "elsewhere.png"
    elsewhere.write_bytes(b"x")
    executed = tmp_path / "reports" / "notebooks" / "10.ipynb"
    _executed(executed, [elsewhere])
    assert not cache.Cache(tmp_path / "reports").keep("k", executed, 1.0)
