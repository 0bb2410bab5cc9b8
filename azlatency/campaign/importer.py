"""Campaign import: a raw dump (folder or archive) → the processed store, with nothing lost.

:func:`import_campaign` discovers every file (:mod:`~azlatency.campaign.sources`), reads
``campaign.yaml`` (:mod:`~azlatency.campaign.config`), parses new or changed files — in worker
processes when the dump is big — into the per-file cache (:mod:`~azlatency.campaign.worker`),
assembles, labels and checks the tables (:mod:`~azlatency.campaign.assemble`,
:mod:`~azlatency.campaign.labels`, :mod:`~azlatency.campaign.quality`) and writes the store atomically
(:mod:`~azlatency.campaign.store`).  It returns an
:class:`~azlatency.campaign.import_report.ImportReport`.  :func:`~azlatency.campaign.load.load` reads a store back as :class:`~azlatency.schema.Tables`.

Incremental: a file whose sha256 has a cache entry in the previous store is not parsed again.
The cache is keyed by :func:`cache_stamp` — the format version, the azlatency version and the
source of the parsers, reader, decoder and schema — so any change to those re-parses all.
"""

from __future__ import annotations

import contextlib
import fnmatch
import hashlib
import json
import multiprocessing
import os
import shutil
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Any

from .. import paths, schema
from .._version import __version__
from ..errors import AzlatencyError, CampaignError
from . import assemble, dataset, labels, sources, store
from .assemble import file_row
from .config import Campaign, parse_campaign
from .engines import dask as dask_engine
from .import_report import FILE_COLUMNS, QUALITY_COLUMNS, ImportReport, frame
from .load import campaign_name, read_manifest
from .worker import Task, parse_batch, parse_file

Progress = Callable[[int, int, str], None]  # (files done, files to parse, last path)

# Below both thresholds a dump is parsed in this process: starting the worker server (a
# Python that imports pandas, pyarrow and every parser) takes seconds — 8.5 s measured on a
# busy 2-core machine — while a log costs ~20 ms of CPU to parse and cache
# (benchmarks/bench_import.py, cpu_split).
PARALLEL_MIN_FILES = 100
PARALLEL_MIN_BYTES = 16 << 20


def cache_stamp() -> str:
    """Identity of the code that produced cached per-file results."""
    pkg = Path(__file__).resolve().parent.parent
    code = (
        sorted(pkg.glob("parsers/**/*.py"))
        + sorted(pkg.glob("reader/*.py"))
        + [
            pkg / n
            for n in (
                "decode.py",
                "schema.py",
                "campaign/worker.py",
                "campaign/store.py",
                "campaign/dataset.py",
            )  # the cache's samples
        ]
    )  # are written as dataset files
    return _code_stamp(code)


def assembly_stamp() -> str:
    """Identity of the code that makes a store of the cached per-file results: labels, the
    quality list, the import report (a store imported before it changed is made again)."""
    here = Path(__file__).resolve().parent
    names = ("assemble", "config", "import_report", "importer", "labels", "quality", "zones")
    return _code_stamp([here / f"{n}.py" for n in names])


def _code_stamp(code: list[Path]) -> str:
    h = hashlib.sha256(f"{schema.FORMAT_VERSION}|{__version__}".encode())
    for path in code:
        h.update(path.name.encode() + b"\0" + path.read_bytes())
    return h.hexdigest()[:16]


# ---------------------------------------------------------------------------------------------
# Planning: where each discovered file goes.


def _read_config(entries: list[sources.Entry]) -> Campaign:
    found = [e for e in entries if e.kind == "campaign"]
    if len(found) > 1:
        raise CampaignError(f"both {' and '.join(e.path for e in found)}: keep one")
    if not found:
        return Campaign()
    text = Path(found[0].location).read_bytes().decode("utf-8-sig", errors="replace")
    return parse_campaign(text, source=found[0].path)


def _plan(entries: list[sources.Entry], cfg: Campaign):
    """Rows (by entry index) of files that will not be parsed; the first entry of each sha."""
    rows: dict[int, dict[str, Any]] = {}
    first: dict[str, sources.Entry] = {}
    for i, e in enumerate(entries):
        if e.kind in ("campaign", "archive"):
            rows[i] = file_row(e, e.kind)
        elif e.kind == "refused":
            rows[i] = file_row(e, "not_imported", reason=e.reason, detail=e.detail)
        else:
            glob = next(
                (g for g in cfg.ignore if fnmatch.fnmatchcase(labels.match_path(e.path), g)), None
            )
            if glob is not None:
                rows[i] = file_row(
                    e, "not_imported", reason="ignored", detail=f"campaign.yaml ignore: {glob}"
                )
            elif e.size == 0:
                rows[i] = file_row(e, "not_imported", reason="empty", detail="empty file")
            elif e.sha256 in first:
                rows[i] = file_row(
                    e,
                    "not_imported",
                    reason="duplicate",
                    duplicate_of=first[e.sha256].path,
                    detail=f"same bytes as {first[e.sha256].path}",
                )
            else:
                first[e.sha256] = e
    return rows, first


# ---------------------------------------------------------------------------------------------
# Parsing: inline for small dumps, worker processes for big ones.


def _pool_context(preload: str = "azlatency.campaign.worker"):
    # forkserver: workers fork from a clean process that preloaded pandas/pyarrow and the
    # parsers (forking this process could copy locks held by pyarrow's threads).  There is
    # one server a process: the first pool's preload is every later pool's.
    methods = multiprocessing.get_all_start_methods()
    ctx = multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")
    if "forkserver" in methods:
        ctx.set_forkserver_preload([preload])
    return ctx


def _batches(tasks: list[Task], sizes: dict[str, int], workers: int) -> list[list[Task]]:
    """Biggest first, in batches small enough to balance the load across workers."""
    ordered = sorted(tasks, key=lambda t: -sizes.get(t.sha256, 0))
    per = max(1, min(32, len(tasks) // (workers * 8)))
    return [ordered[i : i + per] for i in range(0, len(tasks), per)]


def _execute(
    tasks: list[Task], sizes: dict[str, int], workers: int, progress: Progress | None
) -> tuple[list[dict[str, Any]], int]:
    """Parse ``tasks``; returns the outcomes and the number of processes used."""
    total = len(tasks)
    small = total < PARALLEL_MIN_FILES and sum(sizes.values()) < PARALLEL_MIN_BYTES
    if workers <= 1 or total <= 1 or small:
        out = []
        for i, task in enumerate(tasks, start=1):
            out.append(parse_file(task))
            if progress:
                progress(i, total, task.source_path)
        return out, 1
    batches = _batches(tasks, sizes, workers)
    out, done = [], 0
    try:
        with ProcessPoolExecutor(max_workers=workers, mp_context=_pool_context()) as pool:
            futures = [pool.submit(parse_batch, b) for b in batches]
            for future in as_completed(futures):
                results = future.result()
                out.extend(results)
                done += len(results)
                if progress:
                    progress(done, total, "")
    except BrokenProcessPool:
        # A worker died (killed, out of memory, or no importable __main__ for the start
        # method): parse what is left here, where a failure at least shows its traceback.
        seen = {r["sha256"] for r in out}
        rest = [t for t in tasks if t.sha256 not in seen]
        more, _ = _execute(rest, sizes, 1, progress)
        return out + more, 1
    return out, workers


def _previous_cache(target: Path, stamp: str) -> Path | None:
    old = read_manifest(target)
    if old is None:
        return None
    ok = old.get("cache_stamp") == stamp and old.get("format_version") == schema.FORMAT_VERSION
    return target / store.CACHE if ok else None


def _cached(sha: str, previous: Path | None) -> dict[str, Any] | None:
    """The previous import's outcome for ``sha`` if its cache entry is intact."""
    if previous is None or not (previous / f"{sha}.json").is_file():
        return None
    try:
        outcome = json.loads((previous / f"{sha}.json").read_text(encoding="utf-8"))
        intact = all(
            store.file_sha256(previous / name) == digest
            for name, digest in outcome.get("files", {}).items()
        )
    except (OSError, ValueError):
        intact = False
    return outcome if intact else None  # torn by a crash (not fsynced): parse again


def _reuse(sha: str, previous: Path | None, cache: Path) -> dict[str, Any] | None:
    """The cached outcome for ``sha``, its files linked into the new cache, or ``None``."""
    outcome = _cached(sha, previous)
    if outcome is not None:
        for name in (f"{sha}.json", *outcome.get("files", {})):
            store.link_or_copy(previous / name, cache / name)
    return outcome


def _raw_label(raw: Path) -> str:
    try:
        return raw.relative_to(paths.data_root()).as_posix()
    except ValueError:
        return str(raw)


def _write(
    staging: Path,
    result: assemble.Assembled,
    manifest: dict[str, Any],
    target: Path,
    cache_sha256: dict[str, str],
) -> None:
    """Write the store's tables and manifest into ``staging``; ``cache_sha256``: the hashes
    of the cache files (their workers took them), so files linked from them are not read
    again to hash them."""
    runs = store.to_arrow(result.runs, "runs")
    dataset.write_single(runs, staging, "runs")
    dataset.write_single(result.summaries, staging, "summaries")
    # Parts in sha256 order are in run_id order (run_id starts with the file's sha256), so
    # each tool partition is ordered by run without sorting the campaign.
    order = sorted(range(len(result.samples)), key=lambda i: result.samples[i].name)
    parts = [result.samples[i] for i in order]
    target_schema = dataset.sample_target()
    tool_of = dataset.run_tools(runs)
    part_runs = [result.samples_runs[i] for i in order]
    # Files are cut by rows; a large part of one tool is a file of its own, linked.
    part_rows, whole = dataset.linkable(parts, part_runs, tool_of, target_schema)
    inputs = dataset.partition_inputs(
        parts,
        part_runs,
        tool_of,
        target_schema,
        json.dumps([manifest["cache_stamp"], manifest["options"]], sort_keys=True),
        part_rows,
        whole,
    )
    previous = read_manifest(target)
    reuse = dataset.reusable(target, previous, inputs)
    linked = dataset.write_samples(
        parts,
        target_schema,
        tool_of,
        staging,
        skip=set(reuse),
        part_runs=part_runs,
        part_rows=part_rows,
        whole=whole,
    )
    known = {
        rel: cache_sha256[part.name] for rel, part in linked.items() if part.name in cache_sha256
    }
    for rel, old in reuse.items():  # unchanged partitions: the old file, linked
        (staging / rel).parent.mkdir(parents=True, exist_ok=True)
        store.link_or_copy(old, staging / rel)
        known[rel] = previous["tables"]["samples"]["files"][rel]["sha256"]  # checked by reusable
    for hook in dataset.EXTRA_TABLES.values():
        hook(staging)
    manifest["tables"] = dataset.manifest_tables(
        staging, inputs, {"samples": dataset.sample_columns(result.samples_columns)}, known=known
    )
    store.write_json(manifest, staging / store.MANIFEST)
    store.crash_point("staging-written")


def _unchanged(staging: Path, target: Path) -> bool:
    new, old = staging / store.MANIFEST, target / store.MANIFEST
    if not old.is_file() or new.read_bytes() != old.read_bytes():
        return False
    return dataset.intact(target, json.loads(old.read_text(encoding="utf-8")))


def _listed(target: Path, manifest: dict[str, Any]) -> bool:
    """Every file the manifest lists is there (hashes are checked only when writing)."""
    tables = manifest.get("tables", {})
    return set(dataset.tables()) <= set(tables) and all(
        "files" in info and all((target / name).is_file() for name in info["files"])
        for info in tables.values()
    )


def import_campaign(
    campaign: str | os.PathLike[str],
    *,
    name: str | None = None,
    root: str | os.PathLike[str] | None = None,
    workers: int | None = None,
    engine: str = "local",
    scheduler: str | None = None,
    strict: bool = False,
    progress: Progress | None = None,
    limits: sources.Limits | None = None,
) -> ImportReport:
    """Import a campaign folder or archive into its store (``data/processed/<name>``).

    Every file is either in the tables or in the report's "not imported" list with its
    reason; ``data/raw`` is never modified and the store is replaced whole or not at all.

    Parameters
    ----------
    campaign : str or os.PathLike
        A folder or archive (.zip, .tar.*), or a name under ``data/raw``; its
        ``campaign.yaml`` (optional) labels the runs (docs/campaign.md).
    name : str, optional
        The store's name (default: the folder or archive name).
    root : str or os.PathLike, optional
        Where stores live (default ``data/processed``).
    workers : int, optional
        Parsing processes (default ``os.cpu_count()``; small dumps stay in this process).
    engine : {"local", "dask"}, default "local"
        ``"dask"`` parses every file on the Dask cluster at ``scheduler`` (or of the client
        this process has); raw and processed folders must be on storage the workers share
        (docs/store.md).  The store is the same, byte for byte.
    scheduler : str, optional
        The Dask scheduler's address (``tcp://host:8786``) for ``engine="dask"``.
    strict : bool, default False
        Reject a file at its first bad line instead of skipping the line with a warning.
    progress : callable, optional
        Called as files are parsed (the CLI's progress bar).
    limits : campaign.sources.Limits, optional
        Size and archive-expansion limits [bytes, entries].

    Returns
    -------
    ImportReport
        Files (imported, reused from the last import, or not imported with the reason and
        line), runs per tool, quality issues, the store's path; ``print_report`` or
        ``to_json`` shows it.
    """
    if engine not in ("local", "dask"):
        raise ValueError(f"engine must be 'local' or 'dask', got {engine!r}")
    started = time.perf_counter()
    raw = paths.raw_campaign(campaign)
    if not raw.exists():
        raise CampaignError(f"no campaign folder or archive at {raw}")
    name = name or campaign_name(raw)
    target = paths.store_dir(name, root)
    if target == raw or raw in target.parents:
        raise CampaignError(f"the store {target} would be inside the raw campaign {raw}")
    job = _Job(
        raw,
        name,
        target,
        limits or sources.Limits(),
        strict,
        max(1, workers or os.cpu_count() or 1),
        progress,
    )
    with store.locked(target), _cluster(engine, scheduler) as job.cluster:
        store.recover(target)
        try:
            report = job.run()
        finally:
            shutil.rmtree(job.staging, ignore_errors=True)
    report.seconds = time.perf_counter() - started
    return report


def import_many(
    campaigns: Sequence[str | os.PathLike[str]],
    *,
    root: str | os.PathLike[str] | None = None,
    workers: int | None = None,
    progress: Callable[[], None] | None = None,
) -> list[ImportReport | CampaignError]:
    """:func:`import_campaign` of each campaign, the reports (or the error) in their order.

    A first import of a small campaign (one :func:`import_campaign` parses in its own process:
    fewer than ``PARALLEL_MIN_FILES`` files and ``PARALLEL_MIN_BYTES``) is sent to a pool of
    ``workers`` processes (default ``os.cpu_count()``), one campaign a process, the biggest
    first, when there are two or more; the others are imported here meanwhile, a big one
    with its own worker processes.  The bundled nine, 14 s one after another, take 11.3 s so
    on two cores.  ``progress`` is called as each campaign is done."""
    workers = max(1, workers or os.cpu_count() or 1)
    extent = {i: _extent(c) for i, c in enumerate(campaigns) if _first_import(c, root)}
    small = [
        i for i, (n, size) in extent.items() if n < PARALLEL_MIN_FILES and size < PARALLEL_MIN_BYTES
    ]
    pooled = sorted(small, key=lambda i: -extent[i][1]) if workers > 1 and len(small) > 1 else []
    out: list[ImportReport | CampaignError | None] = [None] * len(campaigns)
    with contextlib.ExitStack() as stack:
        futures = {}
        if pooled:
            ctx = _pool_context("azlatency.campaign.importer")
            pool = stack.enter_context(
                ProcessPoolExecutor(min(workers, len(pooled)), mp_context=ctx)
            )
            for i in pooled:
                futures[pool.submit(_import_one, campaigns[i], root)] = i
        for i, c in enumerate(campaigns):
            if i not in futures.values():
                out[i] = _import_one(c, root, workers)
                if progress:
                    progress()
        for future in as_completed(futures):
            i = futures[future]
            try:
                out[i] = future.result()
            except BrokenProcessPool:  # a worker died: import it here, traceback and all
                out[i] = _import_one(campaigns[i], root, workers)
            if progress:
                progress()
    return out


def _import_one(
    campaign: str | os.PathLike[str], root, workers: int = 1
) -> ImportReport | CampaignError:
    """:func:`import_campaign`, its error returned (any error of ours, as one message: not
    all of them can be pickled back from a worker)."""
    try:
        return import_campaign(campaign, root=root, workers=workers)
    except AzlatencyError as exc:
        return CampaignError(str(exc))


def _first_import(campaign: str | os.PathLike[str], root) -> bool:
    """Whether ``campaign`` is an existing folder or archive with no store yet."""
    raw = paths.raw_campaign(campaign)
    target = paths.store_dir(campaign_name(raw), root)
    return raw.exists() and read_manifest(target) is None


def _extent(campaign: str | os.PathLike[str]) -> tuple[int, int]:
    """Files and bytes of the campaign (an archive: one file, its own size)."""
    raw = paths.raw_campaign(campaign)
    if raw.is_file():
        return 1, raw.stat().st_size
    sizes = [p.stat().st_size for p in raw.rglob("*") if p.is_file()]
    return len(sizes), sum(sizes)


def _cluster(engine: str, scheduler: str | None):
    if engine != "dask":
        return contextlib.nullcontext()

    return dask_engine.client(scheduler)


class _Job:
    """One import: discover, plan, parse, assemble, write (under the campaign's lock)."""

    def __init__(
        self,
        raw: Path,
        name: str,
        target: Path,
        limits: sources.Limits,
        strict: bool,
        workers: int,
        progress: Progress | None,
    ) -> None:
        self.raw, self.name, self.target, self.limits = raw, name, target, limits
        self.strict, self.workers, self.progress = strict, workers, progress
        self.stamp = cache_stamp()
        self.staging = store.staging_dir(target)
        self.cache = self.staging / store.CACHE
        self.spool = self.staging / ".spool"
        self.previous = _previous_cache(target, self.stamp)
        self.cluster = None  # a distributed.Client: parse on its workers

    def spooler(self, sha: str, data: bytes) -> Path:
        # Archive entries are copied out only when they will be parsed.
        path = self.spool / sha
        if not path.exists() and _cached(sha, self.previous) is None:
            path.write_bytes(data)
        return path

    def identity(self, entries: list[sources.Entry]) -> dict[str, Any]:
        """Everything the store is a function of: equal identity, equal store."""
        return {
            "format_version": schema.FORMAT_VERSION,
            "azlatency_version": __version__,
            "cache_stamp": self.stamp,
            "assembly_stamp": assembly_stamp(),
            "campaign": self.name,
            "raw": _raw_label(self.raw),
            "inputs": {e.path: e.sha256 for e in entries if e.sha256},
            "options": {
                "strict": self.strict,
                "max_file_bytes": self.limits.max_file_bytes,
                "max_archive_bytes": self.limits.max_archive_bytes,
            },
        }

    def run(self) -> ImportReport:
        self.cache.mkdir(parents=True)
        self.spool.mkdir()
        entries = sources.discover(self.raw, limits=self.limits, spool=self.spooler)
        cfg = _read_config(entries)
        rows, first = _plan(entries, cfg)
        identity = self.identity(entries)
        old = read_manifest(self.target)
        if (
            old is not None
            and all(old.get(k) == v for k, v in identity.items())
            and _listed(self.target, old)
        ):
            # Nothing the store depends on changed: do not even re-read the cache.
            report = ImportReport.from_manifest(old, self.target)
            report.raw, report.reused = self.raw, len(first)
            return report
        outcomes, parsed, used = self.parse(first)
        shutil.rmtree(self.spool)
        parts = assemble.Parts()
        for i, entry in enumerate(entries):
            if i in rows:
                parts.files.append(rows[i])
            else:
                parts.add(entry, outcomes[entry.sha256], self.cache)
        result = assemble.tables(parts, cfg, self.name)
        report = ImportReport(
            campaign=self.name,
            raw=self.raw,
            store=self.target,
            files=frame(parts.files, FILE_COLUMNS),
            quality=frame(result.quality, QUALITY_COLUMNS),
            counts={
                "runs": len(result.runs),
                "samples": result.samples_rows,
                "summaries": result.summaries.num_rows,
            },
            notes=cfg.defaults.notes,
            parsed=parsed,
            reused=len(first) - parsed,
            workers=used,
        )
        manifest = {
            **identity,
            "description": cfg.description,
            "question": cfg.question,
            "compare": list(cfg.compare),
            "conclusion": cfg.conclusion,
            "notes": cfg.defaults.notes,
            "expectations": [e.as_dict() for e in cfg.expectations],
            "baseline": cfg.baseline.as_dict() if cfg.baseline else None,
            "report": report.to_dict(),
        }
        cache_sha256 = {
            name: sha for o in outcomes.values() for name, sha in o.get("files", {}).items()
        }
        _write(self.staging, result, manifest, self.target, cache_sha256)
        report.changed = not _unchanged(self.staging, self.target)
        if report.changed:
            store.publish(self.staging, self.target)
        return report

    def parse(self, first: dict[str, sources.Entry]):
        """Outcomes of every distinct file: reused from the cache, or parsed now."""
        outcomes: dict[str, dict[str, Any]] = {}
        tasks: list[Task] = []
        for sha, entry in first.items():
            reused = _reuse(sha, self.previous, self.cache)
            if reused is not None:
                outcomes[sha] = reused
            else:
                tasks.append(
                    Task(
                        sha,
                        entry.path,
                        str(entry.location),
                        str(self.cache),
                        self.strict,
                        entry.stamp,
                    )
                )
        sizes = {t.sha256: first[t.sha256].size for t in tasks}
        if self.cluster is not None and tasks:
            used = dask_engine.workers(self.cluster)
            results = dask_engine.parse(
                _batches(tasks, sizes, used), self.cluster, self.progress, len(tasks)
            )
        else:
            results, used = _execute(tasks, sizes, self.workers, self.progress)
        outcomes.update(
            {r["sha256"]: {k: v for k, v in r.items() if k != "sha256"} for r in results}
        )
        return outcomes, len(tasks), used
