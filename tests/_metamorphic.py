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

A reading that changes with none of these is *silent*: the bar is zero in both modes.  In the
default mode (``strict=False``) a foreign line or a copy is never fatal either: every run is
kept and the line named.  ``make test`` runs a sample of positions per file
(``tests/parsers/test_metamorphic.py``); ``python -m tests._metamorphic [insert|truncate|duplicate|all]
[--mode strict|default|both] [--every] [--by-tool] [PATH or TOOL ...]`` runs the full study,
prints each trial that misses the bar (and each whose numbers changed under a warning) and
a table of outcomes per check and mode: same, quiet, warned, changed, fatal, nothing, silent.
"""

from __future__ import annotations

import argparse
import functools
import random
import re
import sys
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np
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
        if self.nl == "\r\n" and "\n" in text.replace("\r\n", ""):
            # mixed line ends (script(1): its own first line LF, the terminal's lines CRLF):
            # split on LF, a CRLF line keeps its CR, so the lines are the file's lines
            self.nl = "\n"
        self.lines = text.split(self.nl)

    def join(self, lines: list[str]) -> bytes:
        out = self.nl.join(lines)
        return out.encode("utf-16-le") if self.codec == "utf-16" else out.encode(self.codec)


def run_prints(tables) -> list[tuple]:
    """What each run holds, without where it sits: meta, its samples, its summaries."""
    runs = tables.runs
    # one array of the runs' 50 columns (to_dict('records') was a fifth of the time)
    names = [c for c in sorted(runs.columns) if c not in _WHERE]
    values, missing = runs[names].to_numpy(dtype=object), runs[names].isna().to_numpy()
    samples, summaries = _rows_by_run(tables.samples), _rows_by_run(tables.summaries)
    return [
        (
            repr([(c, repr(v)) for c, v, gone in zip(names, values[i], missing[i]) if not gone]),
            samples.get(rid, b""),
            summaries.get(rid, b""),
        )
        for i, rid in enumerate(runs["run_id"])
    ]


def _same_reading(got, base) -> bool:
    """True when ``got`` holds what ``base`` holds, run for run in the same order: the frames
    equal but for where the runs sit and what their ids are (a line inserted moves both).
    Then :func:`run_prints` of the two are equal too, found at a third of their cost; False
    says only that the prints must tell."""
    runs, runs0 = got.runs, base.runs
    if len(runs) != len(runs0) or not runs.columns.equals(runs0.columns):
        return False
    ids = dict(zip(runs["run_id"], runs0["run_id"], strict=True))
    if len(ids) != len(runs):  # a run_id twice: no one-to-one map
        return False
    keep = [c for c in runs.columns if c not in _WHERE]
    if not runs[keep].equals(runs0[keep]):
        return False
    for frame, frame0 in ((got.samples, base.samples), (got.summaries, base.summaries)):
        if len(frame) != len(frame0) or not frame.columns.equals(frame0.columns):
            return False
        if not frame.drop(columns="run_id").equals(frame0.drop(columns="run_id")):
            return False
        mapped = [ids.get(rid) for rid in frame["run_id"].tolist()]
        if mapped != frame0["run_id"].tolist():
            return False
    return True


def _rows_by_run(frame: pd.DataFrame) -> dict:
    """Each run's rows, in order, as bytes: per column its name and its values' hashes.  The
    columns empty for a run are left out (a frame of several runs carries the union of their
    columns, which says nothing about this run).  Hashed a column at a time over the whole
    frame: writing each run's rows as CSV was half of the metamorphic tests' time."""
    if frame.empty:
        return {}
    codes, ids = pd.factorize(frame["run_id"])
    order = np.argsort(codes, kind="stable")
    starts = np.searchsorted(codes[order], np.arange(len(ids) + 1))
    columns = []
    for c in frame.columns.drop("run_id"):
        values = frame[c]
        hashed = pd.util.hash_pandas_object(values, index=False).to_numpy()[order]
        filled = np.logical_or.reduceat(values.notna().to_numpy()[order], starts[:-1])
        columns.append((str(c).encode() + b"\0", hashed, filled))
    return {
        rid: b"\1".join(
            name + hashed[a:b].tobytes() for name, hashed, filled in columns if filled[k]
        )
        for k, (rid, a, b) in enumerate(zip(ids, starts[:-1], starts[1:]))
    }


def _missing(value) -> bool:
    try:
        return bool(pd.isna(value))
    except (TypeError, ValueError):
        return False


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


# What a trial's reading did, from harmless to wrong:
#   same     the reading is the file's (the line fell outside every run, the cut removed
#            whole runs, the copy is the expected extra run), no new warning;
#   warned   a new warning or problem names what happened, the reading is the expected one;
#   changed  the reading is not the expected one, under a new warning (or, for a cut, a run
#            that says it is incomplete);
#   fatal    read() raised (a located error, or nothing left to read after a cut: ``nothing``);
#   silent   the reading changed with no word: the bar is zero in both modes.
#   quiet    (insert) the reading is the file's, but the line sits inside a run and no
#            warning names it.
OUTCOMES = ("same", "quiet", "warned", "changed", "fatal", "nothing", "silent")


@dataclass(frozen=True)
class Trial:
    path: Path
    check: str
    where: str
    outcome: str
    what: str = ""
    located: bool = True


_NUMBERS = re.compile(r"\b(line|lines|at) \d+(?:-\d+)?")


def _words(tables) -> Counter:
    """The warnings and problems of a reading, without their line numbers (a line inserted
    above shifts them; that is no new word)."""
    texts = [w for ws in tables.runs["warnings"].dropna() for w in ws.split("; ")]
    texts += [str(p) for p in tables.problems]
    return Counter(_NUMBERS.sub(r"\1 N", t) for t in texts)


def _new_words(got, base_words: Counter, named: str | None = None) -> bool:
    """A warning or problem the base reading had not, or one naming ``named`` (the inserted
    line's number, as 'line N')."""
    if _words(got) - base_words:
        return True
    if named is None:
        return False
    texts = [*got.runs["warnings"].dropna(), *map(str, got.problems)]
    return any(re.search(rf"\b{named}\b", t) for t in texts)


def _inside(tables, no: int) -> bool:
    runs = tables.runs
    return bool(((runs["line_start"] < no) & (runs["line_end"] > no)).any())


# A group's three checks run one after another on one worker (test_metamorphic._groups):
# room for both modes of its files (iperf2 has 91; at 64 every check read them all again).
@functools.lru_cache(maxsize=256)
def _base(path: Path, strict: bool):
    """The file's own reading, what its runs hold and its words, and its lines (read once per
    file and mode in a process: the three checks of a file share it), or None when the file
    itself does not read."""
    data = path.read_bytes()
    base, _ = _read(data, strict)
    if base is None:
        return None
    return base, run_prints(base), _words(base), _Text(data)


def insert_trials(path: Path, *, strict: bool, k: int | None = None, seed: int = 0):
    if (known := _base(path, strict)) is None:
        return
    base, want, words0, text = known
    lines = text.lines
    rng = random.Random(f"{path.name}-{seed}")
    for n, pos in enumerate(_positions(len(lines), k, rng)):
        line = FOREIGN[(n + seed) % len(FOREIGN)]
        got, err = _read(text.join(lines[:pos] + [line] + lines[pos:]), strict)
        where = f"line {pos + 1} <- {line!r}"
        if got is None:
            yield Trial(path, "insert", where, "fatal", str(err), _located(err))
            continue
        same = _same_reading(got, base) or run_prints(got) == want
        words = _new_words(got, words0, f"line {pos + 1}")
        outcome = ("warned" if words else "same") if same else ("changed" if words else "silent")
        if outcome == "same" and _inside(got, pos + 1):
            outcome = "quiet"  # inside a run, its figures kept, but the line is not named
        what = "" if same else f"runs {len(want)} -> {len(got.runs)}"
        yield Trial(path, "insert", where, outcome, what)


def truncate_trials(path: Path, *, strict: bool, k: int | None = None, seed: int = 0):
    if (known := _base(path, strict)) is None:
        return
    _, prints0, words0, text = known
    whole = set(prints0)
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
                empty = "no known tool output" in str(err) or "empty input" in str(err)
                outcome = "nothing" if empty else "fatal"
                yield Trial(path, "truncate", where, outcome, str(err), _located(err) or empty)
                continue
            prints = run_prints(got)
            yield Trial(path, "truncate", where, *_cut_outcome(got, prints, whole, words0))


def _cut_outcome(got, prints: list, whole: set, words0: Counter) -> tuple[str, str]:
    runs = got.runs[["complete", "warnings", "tool", "parser_variant", "line_start"]]
    for fp, run in zip(prints, runs.to_dict("records")):
        if fp in whole or run["complete"] is not True or not _missing(run["warnings"]):
            continue
        if _open_ended(run["tool"], run["parser_variant"]):
            continue  # a cut there reads as a shorter output: nothing can tell
        return "silent", (
            f"a complete run ({run['tool']} {run['parser_variant']}, line "
            f"{run['line_start']}) the whole file does not have, no warning"
        )
    if set(prints) <= whole:
        return "same", ""
    if _new_words(got, words0):
        return "warned", ""
    return "changed", "a shorter run that says it is incomplete, or an open-ended one"


def duplicate_trials(path: Path, *, strict: bool, k: int | None = 3, seed: int = 0):
    if (known := _base(path, strict)) is None:
        return
    base, want, words0, text = known
    lines = text.lines
    for n in range(len(base.runs) if k is None else min(k, len(base.runs))):
        run = base.runs.iloc[n]
        a, b = int(run["line_start"]) - 1, int(run["line_end"])
        got, err = _read(text.join(lines[:b] + [""] + lines[a:b] + lines[b:]), strict)
        where = f"lines {a + 1}-{b} twice"
        if got is None:
            yield Trial(path, "duplicate", where, "fatal", str(err), _located(err))
            continue
        # the copy holds every run read from those lines (both ways of an iperf 2 -d test)
        copied = [
            want[m]
            for m, (s, e) in enumerate(zip(base.runs["line_start"], base.runs["line_end"]))
            if a < s and e <= b
        ]
        same = sorted(run_prints(got)) == sorted(want + copied)
        words = _new_words(got, words0)
        outcome = ("warned" if words else "same") if same else ("changed" if words else "silent")
        what = (
            "" if same else f"runs {len(want)} -> {len(got.runs)}, not the file's runs and the copy"
        )
        yield Trial(path, "duplicate", where, outcome, what)


TRIALS = {"insert": insert_trials, "truncate": truncate_trials, "duplicate": duplicate_trials}


def failures(trials, *, strict: bool, exact: bool = False) -> Iterator[Case]:
    """The trials that miss the mode's bar.  Both modes: never silent, never an error without
    a line.  Default (lenient) mode also never fatal for a foreign line or a copy: every run is
    kept under a warning.  ``exact`` (the study's listing) also names the trials whose numbers
    changed under a warning (``changed``: a foreign line or a copy should change none)."""
    for t in trials:
        bad = t.outcome == "silent" or (t.outcome in ("fatal", "nothing") and not t.located)
        if not strict:
            bad = bad or (t.outcome == "fatal" and t.check != "truncate")
            bad = bad or (exact and t.outcome == "changed" and t.check != "truncate")
        if bad:
            what = t.what if t.outcome != "changed" else f"{t.what}, under a warning"
            yield Case(t.path, t.check, t.where, f"{t.outcome}: {what}")


def insert(path: Path, *, strict: bool, k: int | None = None, seed: int = 0) -> Iterator[Case]:
    return failures(insert_trials(path, strict=strict, k=k, seed=seed), strict=strict)


def truncate(path: Path, *, strict: bool, k: int | None = None, seed: int = 0) -> Iterator[Case]:
    return failures(truncate_trials(path, strict=strict, k=k, seed=seed), strict=strict)


def duplicate(path: Path, *, strict: bool, k: int | None = 3, seed: int = 0) -> Iterator[Case]:
    return failures(duplicate_trials(path, strict=strict, k=k, seed=seed), strict=strict)


CHECKS = {"insert": insert, "truncate": truncate, "duplicate": duplicate}


def _tool_of(path: Path) -> str:
    return path.parent.name


def table(trials: list[Trial], by_tool: bool = False) -> str:
    """Counts per check and mode (and tool): one row each, a column per outcome."""
    counts: dict[tuple, dict[str, int]] = {}
    for t, mode in trials:
        key = (t.check, mode) + ((_tool_of(t.path),) if by_tool else ())
        row = counts.setdefault(key, dict.fromkeys(OUTCOMES, 0))
        row[t.outcome] += 1
    head = ["check", "mode"] + (["tool"] if by_tool else []) + ["tried", *OUTCOMES]
    out = [" ".join(f"{h:>9}" for h in head)]
    for key in sorted(counts):
        row = counts[key]
        cells = [*key, sum(row.values()), *(row[o] for o in OUTCOMES)]
        out.append(" ".join(f"{c:>9}" for c in cells))
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("check", choices=sorted(CHECKS) + ["all"])
    ap.add_argument("paths", nargs="*", help="files, folders or tool names (default: all)")
    ap.add_argument(
        "--mode", choices=("strict", "default", "both"), default="both", help="how read() reads"
    )
    ap.add_argument("--lenient", action="store_true", help="the same as --mode default")
    ap.add_argument("--every", action="store_true", help="every position (default: 40 a file)")
    ap.add_argument("--positions", type=int, default=40, help="positions a file (duplicate: 3)")
    ap.add_argument("--by-tool", action="store_true", help="count per tool folder too")
    args = ap.parse_intermixed_args(argv)
    checks = sorted(CHECKS) if args.check == "all" else [args.check]
    mode = "default" if args.lenient else args.mode
    modes = ["strict", "default"] if mode == "both" else [mode]
    done: list[tuple[Trial, str]] = []
    total = 0
    for name in checks:
        for m in modes:
            strict = m == "strict"
            trials = [
                t
                for p in files(args.paths)
                for t in TRIALS[name](
                    p,
                    strict=strict,
                    k=None
                    if args.every
                    else min(3, args.positions)
                    if name == "duplicate"
                    else args.positions,
                )
            ]
            done += [(t, m) for t in trials]
            cases = list(failures(trials, strict=strict, exact=True))
            for case in cases:
                print(f"[{m}] {case}")
            total += len(cases)
    print(table(done, args.by_tool), file=sys.stderr)
    print(f"{total} trials miss the bar", file=sys.stderr)
    return 1 if total else 0


if __name__ == "__main__":
    sys.exit(main())
