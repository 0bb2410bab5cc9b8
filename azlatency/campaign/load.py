"""Reading a campaign's store back: :func:`load` (the three tables, or DuckDB relations),
:func:`query` (SQL over them), the store's folder and files for the engines that stream it,
and the report of its last import.  Nothing here writes, except :func:`load` migrating a store
of an older format in place (docs/store.md)."""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Literal, overload

from .. import paths, schema
from ..errors import CampaignError
from ..schema import Tables
from . import dataset, sources, store
from .import_report import ImportReport
from .sql import Lazy

# Store formats that load() rewrites in place as the current one (docs/store.md).
MIGRATES = (1,)


def campaign_name(raw: Path) -> str:
    name = raw.name
    for suffix in sources.ARCHIVE_SUFFIXES:
        if raw.is_file() and name.lower().endswith(suffix):
            return name[: -len(suffix)]
    return name


def read_manifest(target: Path) -> dict[str, Any] | None:
    try:
        return json.loads((target / store.MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def store_path(
    campaign: str | os.PathLike[str], root: str | os.PathLike[str] | None = None
) -> Path:
    """The store of ``campaign``: a store folder as given, or a name under ``root``."""
    path = Path(campaign).expanduser()
    if (path / store.MANIFEST).is_file():
        return path.resolve()
    name = path.name if path.exists() else str(campaign)
    return paths.store_dir(campaign_name(Path(name)) if path.is_file() else name, root)


def _manifest(target: Path, campaign: Any) -> dict[str, Any]:
    if not (target / store.MANIFEST).is_file() or target.with_name(f".{target.name}.old").exists():
        with store.locked(target, wait=True):
            store.recover(target)
    if not (target / store.MANIFEST).is_file():
        raise CampaignError(
            f"no processed store for {str(campaign)!r} at {target}; "
            f"run `azlatency import data/raw/{target.name}` first"
        )
    manifest = read_manifest(target) or {}
    if manifest.get("format_version") in MIGRATES:
        with store.locked(target, wait=True):
            store.recover(target)
            if (read_manifest(target) or {}).get("format_version") in MIGRATES:
                dataset.migrate(target)
        manifest = read_manifest(target) or {}
    if manifest.get("format_version") != schema.FORMAT_VERSION:
        raise CampaignError(
            f"{target} was written in store format {manifest.get('format_version')}, this "
            f"azlatency reads format {schema.FORMAT_VERSION}: import the campaign again"
        )
    return manifest


@overload
def load(
    campaign: str | os.PathLike[str],
    root: str | os.PathLike[str] | None = None,
    *,
    samples: bool = True,
    columns: Sequence[str] | None = None,
    lazy: Literal[False] = False,
) -> Tables: ...


@overload
def load(
    campaign: str | os.PathLike[str],
    root: str | os.PathLike[str] | None = None,
    *,
    samples: bool = True,
    columns: Sequence[str] | None = None,
    lazy: Literal[True],
) -> Lazy: ...


def load(
    campaign: str | os.PathLike[str],
    root: str | os.PathLike[str] | None = None,
    *,
    samples: bool = True,
    columns: Sequence[str] | None = None,
    lazy: bool = False,
) -> Tables | Lazy:
    """The three tables of an imported campaign.

    Parameters
    ----------
    campaign : str or os.PathLike
        A campaign name under ``data/processed`` (or ``root``), or the path of its store.
    root : str or os.PathLike, optional
        The folder of stores (default ``data/processed``, or ``$AZLATENCY_DATA/processed``).
    samples : bool, default True
        ``False`` skips the samples table (it can be large) and returns it empty.
    columns : sequence of str, optional
        Read only these samples columns, through pyarrow (``run_id`` is always kept; a
        documented column this campaign has no values for is left out, as in a full load).
        Without ``status`` every value counts as an observation in ``azlatency.stats``: keep
        it for statistics.
    lazy : bool, default False
        Return DuckDB relations instead (``.runs``, ``.samples`` with the partition column
        ``tool``, ``.summaries`` and ``.query(sql)``;
        :class:`azlatency.campaign.sql.Lazy`): nothing is read until a result is
        asked for, so a store bigger than memory can be filtered and aggregated in SQL.

    Returns
    -------
    Tables
        As :func:`azlatency.read` returns them, with the campaign's labels (zones, placement,
        VM size) filled in by ``azlatency import``; units as in the column names
        (``rtt_us`` [µs], ``bits_per_second`` [bit/s]).

    Raises
    ------
    SchemaError
        The store is missing, half-written or from an unknown format version.
    """
    target = store_path(campaign, root)
    manifest = _manifest(target, campaign)
    if lazy:
        return Lazy(target)
    runs = store.from_arrow(dataset.read(target, "runs"), "runs")
    valued = manifest["tables"]["samples"]["columns"]
    if not samples:
        sample_df = schema.empty("samples")
    elif columns is None:
        # The files hold every declared column; the frame, those with values (the manifest's).
        sample_df = store.from_arrow(dataset.read(target, "samples", valued), "samples")
    else:
        present = sample_columns(valued, columns)
        sample_df = store.from_arrow(
            dataset.read(target, "samples", present), "samples", partial=True
        )
    summaries = store.from_arrow(dataset.read(target, "summaries"), "summaries")
    return Tables(runs, sample_df, summaries)


def about(
    campaign: str | os.PathLike[str], root: str | os.PathLike[str] | None = None
) -> dict[str, Any]:
    """What an imported campaign's ``campaign.yaml`` says of itself: ``name``,
    ``description``, ``question``, ``compare`` (a list, empty where it says nothing) and
    ``conclusion`` (None where it says nothing)."""
    target = store_path(campaign, root)
    m = _manifest(target, campaign)
    compare = m.get("compare") or []
    return {k: m.get(k) for k in ("name", "description", "question", "conclusion")} | {
        "name": m.get("campaign") or target.name,
        "compare": [compare] if isinstance(compare, str) else list(compare),
    }


def expectations(
    campaign: str | os.PathLike[str], root: str | os.PathLike[str] | None = None
) -> list[dict[str, Any]]:
    """The ``expectations:`` of an imported campaign's ``campaign.yaml`` (validated at import,
    kept in the store's manifest), as :func:`azlatency.stats.baseline.verdicts` takes them;
    ``[]`` when it states none."""
    target = store_path(campaign, root)
    return list(_manifest(target, campaign).get("expectations") or [])


def baseline(
    campaign: str | os.PathLike[str], root: str | os.PathLike[str] | None = None
) -> dict[str, Any] | None:
    """The ``baseline:`` of an imported campaign's ``campaign.yaml`` (validated at import, kept
    in the store's manifest): ``campaign``, ``margin`` (a fraction, or None) and
    ``scenarios`` (the baseline's label → this campaign's); None when it names none."""
    target = store_path(campaign, root)
    return _manifest(target, campaign).get("baseline")


def query(campaign: str | os.PathLike[str], sql: str, root: str | os.PathLike[str] | None = None):
    """Run SQL over an imported campaign's store, without loading it.

    Parameters
    ----------
    campaign : str or os.PathLike
        A campaign name under ``data/processed`` (or ``root``), or the path of its store.
    sql : str
        DuckDB SQL over the views ``runs``, ``samples`` (with the partition column ``tool``)
        and ``summaries``; units as in the column names (``rtt_us`` [µs]).
    root : str or os.PathLike, optional
        The folder of stores (default ``data/processed``).

    Returns
    -------
    duckdb.DuckDBPyRelation
        Lazy: ``.to_df()`` or ``.arrow()`` runs it.

    Examples
    --------
    >>> query("weu", "SELECT tool, count(*) FROM samples GROUP BY tool").to_df()  # doctest: +SKIP
    """
    return load(campaign, root, lazy=True).query(sql)


def store_folder(
    campaign: str | os.PathLike[str], root: str | os.PathLike[str] | None = None
) -> Path:
    """The checked (migrated if old) store folder of an imported campaign, for readers that
    stream it (``campaign.summarize_store``, the DuckDB and Dask engines)."""
    target = store_path(campaign, root)
    _manifest(target, campaign)
    return target


def samples_files(
    campaign: str | os.PathLike[str], root: str | os.PathLike[str] | None = None
) -> list[Path]:
    """The samples files of an imported campaign (``samples/tool=*/part-*.parquet``), in
    reading order."""
    return dataset.table_files(store_folder(campaign, root), "samples")


def sample_columns(valued: list[str], columns: Sequence[str]) -> list[str]:
    """``run_id`` and those of ``columns`` among a store's samples columns with values
    (``valued``, its manifest's), in their order.

    A name the samples schema does not document is an error (a typo would otherwise read as
    a column with no values)."""
    if isinstance(columns, str):
        columns = [columns]
    known = schema.COLUMNS["samples"]
    unknown = [c for c in columns if c not in known]
    if unknown:
        raise ValueError(f"samples have no documented column {unknown}; known: {', '.join(known)}")
    wanted = {"run_id", *columns}
    return [c for c in valued if c in wanted]


def load_report(
    campaign: str | os.PathLike[str], root: str | os.PathLike[str] | None = None
) -> ImportReport:
    """The report of the last import of ``campaign``, as stored in its manifest."""
    target = store_path(campaign, root)
    return ImportReport.from_manifest(_manifest(target, campaign), target)
