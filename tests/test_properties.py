"""Property tests: whatever bytes or text come in, ``read`` and every parser either return
valid tables or raise ParseError — never IndexError, KeyError, ValueError, SchemaError, ...

Inputs: arbitrary text, and every fixture (all tools, walked at run time) and every corpus
file, cut at a random byte, with random bytes or lines replaced, deleted or repeated.
Derandomized (the same examples on every run), no deadline, few examples per test: the
suite must stay fast.  Big files are mutated within their first 256 KB so one example costs
milliseconds, not seconds.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import azlatency
from azlatency.errors import ParseError
from azlatency.parsers import modules
from azlatency.parsers._base import Parsed
from azlatency.reader import Tables
from tests._expected import fixture_files
from tests.conftest import CORPUS

SETTINGS = settings(
    max_examples=30,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
PER_FILE = settings(SETTINGS, max_examples=6)
MAX_BYTES = 256 * 1024

FIXTURES = fixture_files()
CORPUS_FILES = (
    sorted(p for p in CORPUS.rglob("*") if p.is_file() and p.name != "SOURCES.md")
    if CORPUS.is_dir()
    else []
)
PARSERS = modules()


def _ids(paths):
    return [f"{p.parent.name}/{p.name}" for p in paths]


def _outcome(call):
    """Run ``call``: Tables are validated, ParseError is fine, anything else fails the test."""
    try:
        result = call()
    except ParseError:
        return None
    if isinstance(result, Tables):
        result.validate()
    return result


# ---------------------------------------------------------------------------------------------
# (1) arbitrary text


@SETTINGS
@given(text=st.text(), strict=st.booleans())
def test_read_arbitrary_text(text, strict):
    _outcome(lambda: azlatency.read(text, strict=strict, source="<hypothesis>"))


@SETTINGS
@given(data=st.binary(max_size=2048), strict=st.booleans())
def test_read_arbitrary_bytes(data, strict):
    _outcome(lambda: azlatency.read(data, strict=strict, source="<hypothesis>"))


# ---------------------------------------------------------------------------------------------
# (2) real files, damaged


@st.composite
def damaged(draw, data: bytes) -> bytes:
    """``data`` cut at a random point, or with bytes or lines replaced, deleted or repeated."""
    data = data[:MAX_BYTES]
    kind = draw(st.sampled_from(["cut", "bytes", "delete_lines", "replace_lines", "repeat_line"]))
    if kind == "cut" or not data:
        return data[: draw(st.integers(0, len(data)))]
    if kind == "bytes":
        out = bytearray(data)
        for _ in range(draw(st.integers(1, 8))):
            out[draw(st.integers(0, len(out) - 1))] = draw(st.integers(0, 255))
        return bytes(out)
    lines = data.split(b"\n")
    picks = draw(st.lists(st.integers(0, len(lines) - 1), min_size=1, max_size=4))
    if kind == "delete_lines":
        return b"\n".join(line for i, line in enumerate(lines) if i not in set(picks))
    if kind == "repeat_line":
        i = picks[0]
        return b"\n".join(lines[: i + 1] + lines[i:])
    junk = st.one_of(st.binary(max_size=40), st.sampled_from(lines),
                     st.text(max_size=40).map(lambda t: t.encode("utf-8")))
    for i in picks:
        lines[i] = draw(junk)
    return b"\n".join(lines)


def _check_damaged(path, data):
    blob = path.read_bytes()
    mutated = data.draw(damaged(blob), label="input")
    strict = data.draw(st.booleans(), label="strict")
    _outcome(lambda: azlatency.read(mutated, strict=strict, source=path.name))


@pytest.mark.parametrize("path", FIXTURES, ids=_ids(FIXTURES))
@PER_FILE
@given(data=st.data())
def test_damaged_fixture(path, data):
    _check_damaged(path, data)


@pytest.mark.parametrize("path", CORPUS_FILES, ids=_ids(CORPUS_FILES))
@PER_FILE
@given(data=st.data())
def test_damaged_corpus_file(path, data):
    _check_damaged(path, data)


# ---------------------------------------------------------------------------------------------
# (3) each parser directly, on random text and on shuffled real lines


def _real_lines() -> list[str]:
    lines: set[str] = set()
    for path in FIXTURES + CORPUS_FILES:
        if path.stat().st_size <= MAX_BYTES:
            text = path.read_bytes().decode("utf-8", errors="replace")
            lines.update(text.replace("\r", "").split("\n")[:400])
    return sorted(lines)


REAL_LINES = _real_lines()


def _check_parse(module, text, strict):
    try:
        parsed = module.parse(text, source="<hypothesis>", strict=strict)
    except ParseError:
        return
    assert isinstance(parsed, Parsed) and parsed.tool == module.INFO.tool
    spans = module.locate(text.split("\n"))
    assert all(0 <= s.start <= s.end <= len(text.split("\n")) for s in spans)


@pytest.mark.parametrize("module", PARSERS, ids=[m.INFO.tool for m in PARSERS])
@SETTINGS
@given(text=st.text(), strict=st.booleans())
def test_parse_random_text(module, text, strict):
    _check_parse(module, text, strict)


@pytest.mark.parametrize("module", PARSERS, ids=[m.INFO.tool for m in PARSERS])
@SETTINGS
@given(
    lines=st.lists(st.one_of(st.sampled_from(REAL_LINES or [""]), st.text(max_size=30)), max_size=40),
    strict=st.booleans(),
)
def test_parse_shuffled_real_lines(module, lines, strict):
    _check_parse(module, "\n".join(lines), strict)
