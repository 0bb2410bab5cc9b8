"""Equivalence runs: what every fixture, corpus, seed, docs and example file reads as.

``python -m tests._equivalence snapshot OUT.json`` reads each file strict and lenient and
writes, per file and mode, a digest of the three tables (and the error, when one is raised);
``python -m tests._equivalence diff A.json B.json`` lists the files whose reading changed.  Run
it before and after a change that must not change behaviour (a refactoring), or that must
change only the files it names (a detection fix), and read the list.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

import azlatency
from azlatency.errors import AzlatencyError
from tests._expected import fixture_files
from tests.conftest import CORPUS, ROOT, SEEDS


def files() -> list[Path]:
    out = list(fixture_files())
    for folder in (CORPUS, SEEDS):
        if folder.is_dir():
            out += sorted(p for p in folder.rglob("*") if p.is_file())
    out += sorted((ROOT / "docs").rglob("*.md"))
    out += sorted(
        p
        for p in (ROOT / "data" / "raw").rglob("*")
        if p.is_file() and not p.parent.name.startswith("synthetic-")
    )
    return out


def _digest(tables) -> dict:
    runs = tables.runs.drop(columns=["source_sha256", "run_id", "source_path"])
    ids = {rid: i for i, rid in enumerate(tables.runs["run_id"])}
    samples = tables.samples.assign(run_id=tables.samples["run_id"].map(ids))
    summaries = tables.summaries.assign(run_id=tables.summaries["run_id"].map(ids))
    return {
        "runs": len(runs),
        "samples": len(samples),
        "summaries": len(summaries),
        "runs_csv": runs.to_csv(index=False),
        "samples_sha": hashlib.sha256(samples.to_csv(index=False).encode()).hexdigest()[:16],
        "summaries_sha": hashlib.sha256(summaries.to_csv(index=False).encode()).hexdigest()[:16],
        "problems": [str(p) for p in tables.problems],
    }


def reading(path: Path, strict: bool) -> dict:
    try:
        return _digest(azlatency.read(path, strict=strict, source=path.name))
    except AzlatencyError as exc:
        return {"error": str(exc)}


def snapshot(out: Path) -> None:
    data = {}
    for path in files():
        key = (
            path.relative_to(ROOT)
            if path.is_relative_to(ROOT)
            else Path("..") / path.relative_to(ROOT.parent)
        ).as_posix()
        data[key] = {"strict": reading(path, True), "lenient": reading(path, False)}
    out.write_text(json.dumps(data, indent=1, sort_keys=True))
    print(f"{len(data)} files read into {out}")


def diff(a: Path, b: Path) -> int:
    before, after = json.loads(a.read_text()), json.loads(b.read_text())
    changed = sorted(k for k in before.keys() | after.keys() if before.get(k) != after.get(k))
    for key in changed:
        modes = [
            m
            for m in ("strict", "lenient")
            if (before.get(key) or {}).get(m) != (after.get(key) or {}).get(m)
        ]
        print(f"{key}: {', '.join(modes)}")
    print(f"{len(changed)} of {len(before.keys() | after.keys())} files read differently")
    return 1 if changed else 0


if __name__ == "__main__":
    if sys.argv[1:2] == ["snapshot"] and len(sys.argv) == 3:
        snapshot(Path(sys.argv[2]))
    elif sys.argv[1:2] == ["diff"] and len(sys.argv) == 4:
        sys.exit(diff(Path(sys.argv[2]), Path(sys.argv[3])))
    else:
        sys.exit(__doc__)
