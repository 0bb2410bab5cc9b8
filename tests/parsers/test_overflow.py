"""Numbers beyond int64 in real logs: ``read`` returns valid tables or raises ParseError.

Every fixture and corpus file gets each of a few of its integer tokens (evenly spaced, the
same on every run) replaced by ``10**30`` and by ``99999999999999999999`` (> 2**64), one at a
time.  A huge "packets transmitted", sequence number, port, message size or CSV column once
leaked OverflowError, SchemaError or numpy's "Maximum allowed dimension exceeded".
Strict reads run for every replacement; the lenient read runs too (it is the path that skips
bad lines, so it meets the huge number in a different place).  Files are cut to their first
16 KiB (still past every header and summary of the small files).

``make test`` tries one of the four (token, number) replacements per file in one mode, turn by
turn over the files, so that every token position, both numbers and both modes are met across
the set in each run; ``make test-slow`` tries all four in both modes in every file (8 reads a
file, 200 s on two cores).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import azlatency
from azlatency.errors import ParseError
from tests._expected import fixture_files
from tests.conftest import CORPUS

HUGE = (b"1" + b"0" * 30, b"99999999999999999999")
POSITIONS = 2  # integer tokens replaced per file, evenly spaced
MAX_BYTES = 16 * 1024
INTEGER = re.compile(rb"\b\d+\b")

CORPUS_FILES = (
    sorted(p for p in CORPUS.rglob("*") if p.is_file() and p.name != "SOURCES.md")
    if CORPUS.is_dir()
    else []
)
FILES = fixture_files() + CORPUS_FILES


def _positions(n: int) -> list[int]:
    k = min(POSITIONS, n)
    return sorted({round(i * (n - 1) / max(k - 1, 1)) for i in range(k)})


def _check(data: bytes, *, source: str, strict: bool) -> None:
    try:
        tables = azlatency.read(data, strict=strict, source=source)
    except ParseError:
        return
    tables.validate()


def _replacements(path: Path, every: bool):
    """(token number, token match, huge value) of ``path``'s replacements: all of them, or the
    one whose turn it is (the file's place in FILES picks it)."""
    data = path.read_bytes()[:MAX_BYTES]
    tokens = list(INTEGER.finditer(data))
    if not tokens:
        pytest.skip("no integer in the file")
    pairs = [(i, huge) for i in _positions(len(tokens)) for huge in HUGE]
    if not every:
        pairs = [pairs[FILES.index(path) % len(pairs)]]
    return data, [(i, tokens[i], huge) for i, huge in pairs]


def _overflow(path: Path, *, every: bool) -> None:
    data, replacements = _replacements(path, every)
    # make test: one mode a file, turn by turn (both across the files); test-slow: both.
    modes = (True, False) if every else ((FILES.index(path) // 4) % 2 == 0,)
    for i, m, huge in replacements:
        mutated = data[: m.start()] + huge + data[m.end() :]
        where = f"{path.name} token {i} ({m.group().decode()!r} -> {huge.decode()})"
        for strict in modes:
            try:
                _check(mutated, source=path.name, strict=strict)
            except Exception as exc:  # re-raised with the damage named; not swallowed
                raise AssertionError(f"{where}, strict={strict}: {exc!r}") from exc


@pytest.mark.parametrize("path", FILES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_integer_beyond_int64(path):
    _overflow(path, every=False)


@pytest.mark.slow
@pytest.mark.parametrize("path", FILES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_integer_beyond_int64_every_replacement(path):
    _overflow(path, every=True)
