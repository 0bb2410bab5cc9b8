"""import: a 1,000-log campaign parsed by worker processes, against one worker (the peer).

The dump (``benchmarks/_data/import-dump-1000/``, rebuilt when missing) holds 1,000 files made
from the real logs of the bundled example campaigns (``data/raw``: sockperf, ping, iperf3,
ntttcp, qperf, latte, reported-values CSVs), cycled in order.  Each copy gets one first line —
``## run NNNN`` (``# run NNNN`` in a CSV, where ``#`` starts a comment) — so that every file has
its own sha256 and none is skipped as a duplicate; the output itself is unchanged.

Measured in one run, each into a fresh store: ``import_campaign(workers=1)`` (the peer) and
``import_campaign(workers=os.cpu_count())``; then an unchanged re-import (every file reused
from the per-file cache).  The two stores must be byte-identical.  Parsing is Python, so the
speed-up comes from processes, not threads.
"""

from __future__ import annotations

import hashlib
import importlib
import itertools
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
DUMP = HERE / "_data" / "import-dump-1000"
FILES = 1000


def make_dump(path: Path = DUMP, n: int = FILES) -> Path:
    if path.is_dir() and len(list(path.iterdir())) == n:
        return path
    shutil.rmtree(path, ignore_errors=True)
    path.mkdir(parents=True)
    raw = ROOT / "data" / "raw"
    logs = [
        p
        for p in sorted(raw.rglob("*"))
        if p.is_file() and p.name not in ("campaign.yaml", "README.md")
    ]
    for i, src in zip(range(n), itertools.cycle(logs)):
        head = f"# run {i:04d}\n" if src.suffix == ".csv" else f"## run {i:04d}\n\n"
        (path / f"{i:04d}-{src.parent.name}-{src.name}").write_bytes(
            head.encode() + src.read_bytes()
        )
    return path


def _cpu_batch(tasks):
    """Parse a batch as the import's workers do, and say how much CPU that process used."""
    from azlatency.campaign.worker import parse_file

    start = time.process_time()
    for task in tasks:
        parse_file(task)
    return os.getpid(), time.process_time() - start


def _cpu_split(dump: Path, workers: int, n: int = 300) -> dict:
    """CPU seconds per worker process for the first ``n`` files: shows the parsing work is
    shared out even when other load on the machine hides it in the wall-clock ratio."""
    from concurrent.futures import ProcessPoolExecutor

    from azlatency import campaign
    from azlatency.campaign.worker import Task

    files = sorted(dump.iterdir())[:n]
    with tempfile.TemporaryDirectory(prefix="bench-import-cpu-") as cache:
        tasks = [
            Task(hashlib.sha256(f.read_bytes()).hexdigest(), f.name, str(f), cache) for f in files
        ]
        batches = [tasks[i : i + 25] for i in range(0, len(tasks), 25)]
        start = time.perf_counter()
        me = importlib.import_module("bench_import")  # picklable by name, unlike __main__
        with ProcessPoolExecutor(workers, mp_context=campaign.importer._pool_context()) as pool:
            results = list(pool.map(me._cpu_batch, batches))
        wall = time.perf_counter() - start
    per: dict[int, float] = {}
    for pid, cpu in results:
        per[pid] = per.get(pid, 0.0) + cpu
    return {
        "files": n,
        "wall_s": round(wall, 2),
        "cpu_s_per_process": sorted(round(v, 2) for v in per.values()),
    }


def _digest(store: Path) -> str:
    h = hashlib.sha256()
    for p in sorted(store.rglob("*")):
        if p.is_file():
            h.update(p.relative_to(store).as_posix().encode() + p.read_bytes())
    return h.hexdigest()


def _timed(dump: Path, root: Path, workers: int):
    from azlatency import campaign

    start = time.perf_counter()
    report = campaign.import_campaign(dump, root=root, workers=workers)
    return time.perf_counter() - start, report


def _snapshot_code():
    """Pin the parser code for the whole run, though the files may be edited meanwhile:
    every parser is imported now, the worker server forks from this state, and the cache
    stamp (which hashes the parsers' source) is frozen."""
    from multiprocessing import forkserver

    from azlatency import campaign  # noqa: F401  (_worker imports every parser)

    # _cpu_batch is sent to workers by name: they must be able to import this file.
    if str(HERE) not in sys.path:
        sys.path.insert(0, str(HERE))

    campaign.importer._pool_context()
    forkserver.ensure_running()
    real = campaign.cache_stamp
    stamp = real()
    campaign.cache_stamp = lambda: stamp
    return stamp, real


def main() -> dict:
    from azlatency import campaign

    dump = make_dump()
    cpus = os.cpu_count() or 1
    stamp, real_stamp = _snapshot_code()
    load_before = os.getloadavg()[0]
    with tempfile.TemporaryDirectory(prefix="bench-import-") as tmp:
        campaign.import_campaign(
            ROOT / "data" / "raw" / "seed004-echo-uksouth", root=Path(tmp) / "warm", workers=1
        )  # imports, pandera, parsers
        serial_s, serial = _timed(dump, Path(tmp) / "one", 1)
        parallel_s, parallel = _timed(dump, Path(tmp) / "many", cpus)
        again_s, again = _timed(dump, Path(tmp) / "many", cpus)
        same = _digest(Path(tmp) / "one" / dump.name) == _digest(Path(tmp) / "many" / dump.name)
    split_one, split_many = _cpu_split(dump, 1), _cpu_split(dump, cpus)
    # Whether a parser's source changed while this ran (the run used the snapshot anyway).
    code_changed = real_stamp() != stamp
    campaign.cache_stamp = real_stamp
    counts = serial.files.status.value_counts().to_dict()
    return {
        "files": FILES,
        "imported": counts.get("imported", 0),
        "not_imported": counts.get("not_imported", 0),
        "runs": serial.counts["runs"],
        "summaries": serial.counts["summaries"],
        "cpus": cpus,
        "peer": "import_campaign(workers=1)",
        "one_worker_s": round(serial_s, 2),
        f"{cpus}_workers_s": round(parallel_s, 2),
        "processes_used": parallel.workers,
        "speedup_vs_one_worker": round(serial_s / parallel_s, 2),
        "reimport_unchanged_s": round(again_s, 2),
        "reimport_parsed": again.parsed,
        "reimport_vs_full_import": round(again_s / parallel_s, 3),
        "stores_identical": same,
        "cpu_split_one_worker": split_one,
        f"cpu_split_{cpus}_workers": split_many,
        "parser_code_changed_during_run": code_changed,
        # Other work on the machine competes for the same cores: read the ratio with these.
        # (Linux autogroup gives each login session one fair share: under contention a
        # session's extra processes split that share instead of adding to it.)
        "load_average_1m_before_after": [round(load_before, 2), round(os.getloadavg()[0], 2)],
    }


if __name__ == "__main__":
    import json

    print(json.dumps(main(), indent=1))
