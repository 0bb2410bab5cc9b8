"""Executed pages kept between reports: a page whose inputs did not change is not run again.

What Jupyter Book's execution cache (jupyter-cache) and Quarto's ``freeze`` do, for the report's
pages.  A page is one notebook over some campaigns; its **key** is a SHA-256 over everything its
output can depend on:

- the notebook's bytes and the parameters it is given (paths included);
- the manifest of each campaign's store it reads, which records the SHA-256 of every table
  file, the ``campaign.yaml`` stated at import and the import's report (``docs/store.md``);
- the code: every file of the installed ``azlatency`` package, the Python version and the
  name and version of every installed distribution;
- the figure formats asked for.

An entry is ``<build>/.cache/<key>/`` (the report's build folder, ``paths.build_dir``): the executed notebook, the figure files it wrote (each
figure's output names them, :func:`azlatency.report.figure`) and ``entry.json`` (written last:
an entry without it is torn and ignored).  A page that failed is never kept; a report keeps
the entries of its own pages and removes the rest, so the cache holds one report's worth.
``azlatency report --no-cache`` runs every page again (and refreshes the entries).
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import shutil
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path

from .. import paths
from ..campaign.load import store_path
from ..campaign.store import MANIFEST

FOLDER = ".cache"
ENTRY = "entry.json"
FILES_KEY = "azlatency"  # display metadata of a figure output: {"azlatency": {"files": [...]}}
_PACKAGE = Path(__file__).resolve().parents[1]


def _update_tree(h, root: Path) -> None:
    for path in sorted(root.rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc":
            h.update(path.relative_to(root).as_posix().encode())
            h.update(b"\0")
            h.update(path.read_bytes())
            h.update(b"\0")


@functools.cache
def code_fingerprint() -> str:
    """The package's files, the Python version and every installed distribution's version:
    a change to any of them may change a page."""

    h = hashlib.sha256()
    _update_tree(h, _PACKAGE)
    h.update(sys.version.encode())
    h.update("\n".join(_installed()).encode())
    return h.hexdigest()


def _installed() -> list[str]:
    """Every installed distribution as its metadata folder names it (``pandas-2.2.3.dist-info``:
    its name and version), on the import path's folders: ``importlib.metadata`` parsed every
    METADATA file for its name, 0.17-0.55 s in each process of a report (the command and its
    two kernels).  The working folder ('' on the path) is left out: it is the project in one
    process and another folder in the next."""
    found: set[str] = set()
    for entry in sys.path:
        if not os.path.isabs(entry):
            continue
        try:
            with os.scandir(entry) as folder:
                found.update(e.name for e in folder if e.name.endswith(_METADATA_FOLDERS))
        except OSError:  # a zip, or a folder that is gone
            continue
    return sorted(found)


_METADATA_FOLDERS = (".dist-info", ".egg-info")


def store_fingerprint(campaign: str, data_root: Path) -> str:
    """SHA-256 of the campaign's store manifest (it names every table file by its SHA-256)."""

    manifest = store_path(campaign, paths.processed_dir(data_root)) / MANIFEST
    return hashlib.sha256(manifest.read_bytes()).hexdigest()


def key(
    notebook: Path,
    parameters: dict[str, object],
    campaigns: Sequence[str],
    data_root: Path,
    formats: Sequence[str],
) -> str:
    """The page's cache key (see the module's docstring)."""
    parts = {
        "notebook": hashlib.sha256(notebook.read_bytes()).hexdigest(),
        "parameters": parameters,
        "stores": {c: store_fingerprint(c, data_root) for c in campaigns},
        "code": code_fingerprint(),
        "formats": sorted(formats),
    }
    text = json.dumps(parts, sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()


def figure_files(executed: Path) -> list[Path]:
    """The figure files an executed notebook wrote, as its figure outputs name them."""
    nb = json.loads(executed.read_text(encoding="utf-8"))
    found: list[Path] = []
    for cell in nb.get("cells", []):
        for out in cell.get("outputs", []) if cell.get("cell_type") == "code" else []:
            files = out.get("metadata", {}).get(FILES_KEY, {}).get("files", [])
            found += [Path(f) for f in files]
    return found


class Cache:
    """The entries under ``<build>/.cache`` for a report into ``out`` (the figure files a
    page wrote are under ``out``; the cache is not published with it).  ``build`` defaults
    to ``out`` itself."""

    def __init__(self, out: Path, build: Path | None = None) -> None:
        self.out = Path(out)
        self.root = Path(build if build is not None else out) / FOLDER
        self.used: set[str] = set()

    def _entry(self, k: str) -> Path:
        return self.root / k

    def empty(self) -> bool:
        """No page kept: every page of a report will run."""
        return not self.root.is_dir() or next(self.root.glob(f"*/{ENTRY}"), None) is None

    def restore(self, k: str, executed: Path) -> float | None:
        """Put the page's executed notebook at ``executed`` and its figures back where they
        were written; the seconds the page took when it ran, or None on a miss."""
        entry = self._entry(k)
        try:
            meta = json.loads((entry / ENTRY).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        sources = [entry / "files" / rel for rel in meta["files"]]
        if not (entry / "page.ipynb").is_file() or not all(p.is_file() for p in sources):
            return None
        executed.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(entry / "page.ipynb", executed)
        for rel, src in zip(meta["files"], sources, strict=True):
            dest = self.out / rel
            dest.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(src, dest)
        self.used.add(k)
        return float(meta["seconds"])

    def keep(self, k: str, executed: Path, seconds: float) -> bool:
        """Keep a page that ran: its notebook and figure files (all under the report folder,
        else the page is not kept).  True when kept."""
        files = figure_files(executed)
        try:
            rels = [f.resolve().relative_to(self.out.resolve()).as_posix() for f in files]
        except ValueError:
            return False
        if not all((self.out / r).is_file() for r in rels):
            return False
        entry = self._entry(k)
        tmp = entry.with_name(entry.name + ".tmp")
        shutil.rmtree(tmp, ignore_errors=True)
        (tmp / "files").mkdir(parents=True)
        shutil.copyfile(executed, tmp / "page.ipynb")
        for r in rels:
            (tmp / "files" / r).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(self.out / r, tmp / "files" / r)
        meta = {"files": rels, "seconds": round(seconds, 3), "notebook": executed.name}
        (tmp / ENTRY).write_text(json.dumps(meta, indent=1) + "\n", encoding="utf-8")
        shutil.rmtree(entry, ignore_errors=True)
        tmp.rename(entry)
        self.used.add(k)
        return True

    def prune(self, keep: Iterable[str] | None = None) -> int:
        """Remove every entry but ``keep`` (default: those this report used); how many."""
        wanted = set(self.used if keep is None else keep)
        removed = 0
        if self.root.is_dir():
            for entry in self.root.iterdir():
                if entry.name not in wanted:
                    shutil.rmtree(entry, ignore_errors=True)
                    removed += 1
        return removed
