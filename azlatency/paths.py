"""Where the project's data lives: one place for notebooks, the CLI and ``make run``.

``data/raw/<campaign>/`` holds the immutable dumps, ``data/processed/<campaign>/`` the stores
the importer builds, ``reports/`` the published report and ``build/report/`` what a report
keeps unpublished (executed notebooks, the page cache).  Every one of these paths is defined
here and nowhere else; a function taking ``data_root`` takes ``None`` for the default.  The
data root is, in order:

1. the ``AZLATENCY_DATA`` environment variable (a folder holding ``raw/`` and ``processed/``);
2. ``data/`` beside the project's ``pyproject.toml`` when azlatency runs from a checkout;
3. ``data/`` in the current working directory (an installed package, no checkout).
"""

from __future__ import annotations

import os
from pathlib import Path

ENV_VAR = "AZLATENCY_DATA"
_PACKAGE = Path(__file__).resolve().parent


def project_root() -> Path | None:
    """The checkout azlatency runs from, or ``None`` for an installed package."""
    root = _PACKAGE.parent
    return root if (root / "pyproject.toml").is_file() else None


def data_root(given: str | os.PathLike[str] | None = None) -> Path:
    """``given`` (resolved), else the default data root described above."""
    if given is not None:
        return Path(given).expanduser().resolve()
    env = os.environ.get(ENV_VAR)
    if env:
        return Path(env).expanduser().resolve()
    root = project_root()
    return (root / "data") if root is not None else (Path.cwd() / "data").resolve()


def raw_dir(root: str | os.PathLike[str] | None = None) -> Path:
    """``<data root>/raw``: one folder (or archive) per campaign; never written by azlatency."""
    return data_root(root) / "raw"


def processed_dir(root: str | os.PathLike[str] | None = None) -> Path:
    """``<data root>/processed``: one store per campaign, rebuilt by ``azlatency import``."""
    return data_root(root) / "processed"


def reports_dir(given: str | os.PathLike[str] | None = None) -> Path:
    """Where a report is published: ``given``, else ``reports/`` of the checkout (of the
    working directory for an installed package)."""
    if given is not None:
        return Path(given).expanduser().resolve()
    root = project_root()
    return (root if root is not None else Path.cwd()) / "reports"


def build_dir(out: str | os.PathLike[str]) -> Path:
    """What a report into ``out`` keeps unpublished: ``build/report`` of the checkout for its
    own ``reports/``, else ``.<name>.build`` beside ``out``."""
    out = Path(out)
    root = project_root()
    if root is not None and out.resolve() == (root / "reports").resolve():
        return root / "build" / "report"
    return out.parent / f".{out.name}.build"


def campaigns() -> list[str]:
    """Names of the campaigns under :func:`raw_dir` (folders, sorted)."""
    raw = raw_dir()
    if not raw.is_dir():
        return []
    return sorted(p.name for p in raw.iterdir() if p.is_dir() and not p.name.startswith("."))


def raw_campaign(name_or_path: str | os.PathLike[str]) -> Path:
    """A campaign's raw folder or archive: an existing path as given, else a name under raw."""
    path = Path(name_or_path).expanduser()
    if path.exists():
        return path.resolve()
    return raw_dir() / str(name_or_path)


def store_dir(name: str, root: str | os.PathLike[str] | None = None) -> Path:
    """The store of campaign ``name`` under ``root`` (default :func:`processed_dir`)."""
    return Path(root if root is not None else processed_dir()).expanduser().resolve() / name


def derived_dir(name: str, root: str | os.PathLike[str] | None = None) -> Path:
    """Where a campaign's statistics computed once for its pages are kept (``report._memo``):
    ``<processed>/.derived/<name>``."""
    return store_dir(name, root).parent / ".derived" / name
