"""Metamorphic checks: damage a real file in a way whose right answer is known, read it, and
find the readings that changed without a word.

* **insert** one foreign line (a kernel message, ``Connection reset by peer``, ``12.5``,
  ``----``, a shell line) at a position: the same runs, samples and summaries, or a warning,
  or a located ``ParseError``;
* **truncate** at a line (and inside it): every run that still claims ``complete`` is one the
  whole file had, or says why it may not be (a warning); variants whose output has no end
  (``ToolInfo.open_ended``: a CSV of probes, qperf's ``key = value`` lines) may end anywhere;
* **duplicate** a run's lines after it: the runs of the file plus that run once more, each
  whole, or a warning.

A reading that changes with none of these is *silent*: the bar is zero.  ``make test`` runs a
sample of positions per file (``tests/test_metamorphic.py``); ``python -m
tests._metamorphic [insert|truncate|duplicate] [--lenient] [--every] [PATH or TOOL ...]``
runs the full study and prints each silent case.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

import azlatency
from azlatency.decode import decode
from azlatency.errors import AzlatencyError, ParseError
from azlatency.parsers import get, tools
from tests._expected import fixture_files
from tests.conftest import CORPUS

FOREIGN = (
    "[ 1234.567890] mlx5_core 0001:00:02.0 eth1: Link up",
    "Connection reset by peer",
    "12.5",
    "----",
    "$ echo done",
)
# Where a run sits and what it is called are not what it holds.
_WHERE = {
    "run_id",
    "source_sha256",
    "source_path",
    "line_start",
    "line_end",
    "warnings",
    "context",
    "block",
}


def files(selectors: list[str] | None = None) -> list[Path]:
    """Every fixture and corpus file, or those under the named tools or paths."""
    out = list(fixture_files())
    if CORPUS.is_dir():
        out += sorted(p for p in CORPUS.rglob("*") if p.is_file() and p.name != "SOURCES.md")
    if not selectors:
        return out
    keep = []
    for sel in selectors:
        path = Path(sel)
        if path.exists():
            keep += [path] if path.is_file() else sorted(p for p in path.rglob("*") if p.is_file())
        else:
            keep += [p for p in out if p.parent.name == sel]
    return keep


@dataclass(frozen=True)
class Case:
    path: Path
    check: str  # insert, truncate, duplicate
    where: str  # what was done, e.g. "line 12 <- '12.5'"
    what: str  # what went wrong

    def __str__(self) -> str:
        return f"{self.path.name}: {self.check} {self.where}: {self.what}"


def _read(data: bytes, strict: bool):
    try:
        return azlatency.read(data, strict=strict, source="mutated"), None
    except AzlatencyError as exc:
        return None, exc


class _Text:
    """A file's lines in its own encoding (a UTF-16 capture stays UTF-16 when damaged)."""

    def __init__(self, data: bytes) -> None:
        if data.startswith((b"\xff\xfe", b"\xfe\xff")):
            self.codec = "utf-16"  # the BOM is kept: decoded as U+FEFF, encoded again
        else:
            try:
                data.decode("utf-8")
                self.codec = "utf-8"
            except UnicodeDecodeError:
                self.codec = decode(data).encoding
        text = data.decode(self.codec)
        self.nl = "\r\n" if "\r\n" in text[:65536] else "\n"
        self.lines = text.split(self.nl)

    def join(self, lines: list[str]) -> bytes:
        out = self.nl.join(lines)
        return out.encode("utf-16-le") if self.codec == "utf-16" else out.encode(self.codec)


def run_prints(tables) -> list[tuple]:
    """What each run holds, without where it sits: meta, its samples, its summaries."""
    meta = tables.runs.drop(columns=[c for c in tables.runs.columns if c in _WHERE])
    samples = dict(tuple(tables.samples.groupby("run_id", sort=False)))
    summaries = dict(tuple(tables.summaries.groupby("run_id", sort=False)))
    out = []
    for i, rid in enumerate(tables.runs["run_id"]):
        row = meta.iloc[i]
        s = samples.get(rid)
        y = summaries.get(rid)
        out.append(
            (
                repr(sorted((k, repr(v)) for k, v in row.items() if not _missing(v))),
                _csv(s),
                _csv(y),
            )
        )
    return out


def _csv(rows) -> str:
    """A run's rows as text; columns empty for this run are dropped (a frame of several runs
    carries the union of their columns, which says nothing about this run)."""
    if rows is None:
        return ""
    return rows.drop(columns=["run_id"]).dropna(axis=1, how="all").to_csv(index=False)


def _missing(value) -> bool:
    try:
        return bool(pd.isna(value))
    except (TypeError, ValueError):
        return False


def _warned(tables) -> bool:
    return bool(tables.problems) or bool(tables.runs["warnings"].notna().any())


def _located(exc: AzlatencyError) -> bool:
    return isinstance(exc, ParseError) and exc.line_no is not None


def _open_ended(tool: str, variant: str | None) -> bool:
    """Does ``variant`` (of the parser that read it: reported values carry the tool they
    report on) end where the tool stops writing, with nothing to say it did?"""
    owners = [t for t in tools() if variant in get(t).INFO.variants]
    owner = tool if tool in owners else (owners[0] if len(owners) == 1 else None)
    return owner is not None and variant in get(owner).INFO.open_ended


def _positions(n: int, k: int | None, rng: random.Random) -> list[int]:
    positions = list(range(1, n))
    if k is not None and len(positions) > k:
        positions = sorted(rng.sample(positions, k))
    return positions


def insert(path: Path, *, strict: bool, k: int | None = None, seed: int = 0) -> Iterator[Case]:
    data = path.read_bytes()
    base, err = _read(data, strict)
    if base is None:
        return
    want, warnings, problems = (
        run_prints(base),
        set(base.runs["warnings"].dropna()),
        len(base.problems),
    )
    text = _Text(data)
    lines = text.lines
    rng = random.Random(f"{path.name}-{seed}")
    for n, pos in enumerate(_positions(len(lines), k, rng)):
        line = FOREIGN[(n + seed) % len(FOREIGN)]
        got, err = _read(text.join(lines[:pos] + [line] + lines[pos:]), strict)
        where = f"line {pos + 1} <- {line!r}"
        if got is None:
            if not _located(err):
                yield Case(path, "insert", where, f"error without a line: {err}")
            continue
        if run_prints(got) == want:
            continue
        if len(got.problems) > problems or set(got.runs["warnings"].dropna()) - warnings:
            continue
        yield Case(path, "insert", where, f"runs {len(want)} -> {len(got.runs)}, no warning")


def truncate(path: Path, *, strict: bool, k: int | None = None, seed: int = 0) -> Iterator[Case]:
    data = path.read_bytes()
    base, err = _read(data, strict)
    if base is None:
        return
    whole = set(run_prints(base))
    text = _Text(data)
    lines = text.lines
    rng = random.Random(f"{path.name}-{seed}")
    for pos in _positions(len(lines), k, rng):
        for inside in (False, True):
            kept = lines[:pos]
            if inside:
                if len(kept[-1]) < 2:
                    continue
                kept = kept[:-1] + [kept[-1][: len(kept[-1]) // 2]]
            where = f"at line {pos}" + (" (inside it)" if inside else "")
            got, err = _read(text.join(kept), strict)
            if got is None:
                if not (
                    _located(err) or "no known tool output" in str(err) or "empty input" in str(err)
                ):
                    yield Case(path, "truncate", where, f"error without a line: {err}")
                continue
            for fp, (_, run) in zip(run_prints(got), got.runs.iterrows()):
                if fp in whole or run["complete"] is not True or not _missing(run["warnings"]):
                    continue
                if _open_ended(run["tool"], run["parser_variant"]):
                    continue  # a cut there reads as a shorter output: nothing can tell
                yield Case(
                    path,
                    "truncate",
                    where,
                    f"a complete run ({run['tool']} {run['parser_variant']}, line "
                    f"{run['line_start']}) the whole file does not have, no warning",
                )
                break


def duplicate(path: Path, *, strict: bool, k: int | None = 3, seed: int = 0) -> Iterator[Case]:
    data = path.read_bytes()
    base, err = _read(data, strict)
    if base is None:
        return
    want = run_prints(base)
    text = _Text(data)
    lines = text.lines
    for n in range(len(base.runs) if k is None else min(k, len(base.runs))):
        run = base.runs.iloc[n]
        a, b = int(run["line_start"]) - 1, int(run["line_end"])
        got, err = _read(text.join(lines[:b] + [""] + lines[a:b] + lines[b:]), strict)
        where = f"lines {a + 1}-{b} twice"
        if got is None:
            if not _located(err):
                yield Case(path, "duplicate", where, f"error without a line: {err}")
            continue
        if sorted(run_prints(got)) == sorted(want + [want[n]]) or _warned(got):
            continue
        yield Case(
            path,
            "duplicate",
            where,
            f"runs {len(want)} -> {len(got.runs)}, not the file's runs and the copy, no warning",
        )


CHECKS = {"insert": insert, "truncate": truncate, "duplicate": duplicate}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("check", choices=sorted(CHECKS) + ["all"])
    ap.add_argument("paths", nargs="*", help="files, folders or tool names (default: all)")
    ap.add_argument("--lenient", action="store_true", help="read with strict=False")
    ap.add_argument("--every", action="store_true", help="every position (default: 40 a file)")
    args = ap.parse_intermixed_args(argv)
    checks = sorted(CHECKS) if args.check == "all" else [args.check]
    total = 0
    for name in checks:
        cases = [
            c
            for p in files(args.paths)
            for c in CHECKS[name](
                p,
                strict=not args.lenient,
                k=None if args.every else (3 if name == "duplicate" else 40),
            )
        ]
        for case in cases:
            print(case)
        print(f"{name}: {len(cases)} silent", file=sys.stderr)
        total += len(cases)
    return 1 if total else 0


if __name__ == "__main__":
    sys.exit(main())
