"""Property tests: whatever bytes or text come in, ``read`` and every parser either return
valid tables or raise ParseError — never IndexError, KeyError, ValueError, SchemaError, ...

Inputs: arbitrary text, and every fixture (all tools, walked at run time) and every corpus
file, cut at a random byte, with random bytes, lines or numbers replaced, deleted or repeated,
or a block of lines pasted again, CRLF, UTF-16, ANSI colour, tabs or decimal commas
(10 examples per tool folder, so the cost stays fixed as fixtures are added; 400 in
`make test-slow`).
Derandomized (the same examples on every run), no deadline, few examples per test: the
suite must stay fast.  Big files are mutated within their first 96 KB so one example costs
milliseconds, not seconds.
"""

from __future__ import annotations

import re
from functools import cache

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import azlatency
from azlatency.errors import ParseError
from azlatency.parsers import modules
from azlatency.parsers._base import Parsed
from azlatency.schema import Tables
from tests._expected import fixture_files
from tests.conftest import CORPUS

SETTINGS = settings(
    max_examples=30,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
# Each damaged example is read and validated (pandera: ~0.05 s), so fewer of them per tool.
DAMAGED = settings(SETTINGS, max_examples=10)
MAX_BYTES = 96 * 1024  # above the reader's 64 KB fast-path threshold, still quick
WEIRD_NUMBERS = (b"99999999999999999999999", b"nan", b"inf", b"-1", b"0", b"1e400", b"")

FIXTURES = fixture_files()
CORPUS_FILES = (
    sorted(p for p in CORPUS.rglob("*") if p.is_file() and p.name != "SOURCES.md")
    if CORPUS.is_dir()
    else []
)
PARSERS = modules()


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


@cache
def _material(path) -> tuple[bytes, list[bytes], list[re.Match]]:
    data = path.read_bytes()[:MAX_BYTES]
    return data, data.split(b"\n"), list(re.finditer(rb"\d+(?:\.\d+)?", data))


def plans(data: bytes, lines: list[bytes], numbers: list) -> st.SearchStrategy:
    """A damage as a small plan that prints well when a test fails: (kind, where, what)."""
    options = [st.tuples(st.just("cut"), st.integers(0, len(data)))]
    if data:
        pos = st.integers(0, len(data) - 1)
        line = st.integers(0, len(lines) - 1)
        junk = st.one_of(
            st.binary(max_size=40),
            line,  # an int: a copy of that line
            st.text(max_size=40).map(lambda t: t.encode("utf-8")),
        )
        options += [
            st.tuples(
                st.just("bytes"),
                st.lists(st.tuples(pos, st.integers(0, 255)), min_size=1, max_size=8),
            ),
            st.tuples(st.just("delete_lines"), st.lists(line, min_size=1, max_size=4)),
            st.tuples(st.just("repeat_line"), line),
            # a block pasted again right after itself (NTttcp.exe's tables twice raised an error)
            st.tuples(st.just("repeat_block"), line, st.integers(2, 30)),
            st.tuples(
                st.just("replace_lines"), st.lists(st.tuples(line, junk), min_size=1, max_size=4)
            ),
            # the forms the ground rules call normal input, not edge cases
            st.tuples(st.sampled_from(["crlf", "utf16"]), st.none()),
            st.tuples(st.sampled_from(["ansi", "tabs"]), line),
            st.tuples(st.just("decimal_comma"), st.integers(1, 50)),
        ]
    if numbers:  # a number the tool never prints: beyond int64, nan, inf, negative, empty
        options.append(
            st.tuples(
                st.just("number"), st.integers(0, len(numbers) - 1), st.sampled_from(WEIRD_NUMBERS)
            )
        )
    return st.one_of(options)


def damage(plan, data: bytes, lines: list[bytes], numbers: list) -> bytes:
    kind, arg = plan[0], plan[1]
    if kind == "cut":
        return data[:arg]
    if kind == "bytes":
        out = bytearray(data)
        for pos, value in arg:
            out[pos] = value
        return bytes(out)
    if kind == "delete_lines":
        return b"\n".join(line for i, line in enumerate(lines) if i not in set(arg))
    if kind == "repeat_line":
        return b"\n".join(lines[: arg + 1] + lines[arg:])
    if kind == "repeat_block":
        end = min(len(lines), arg + plan[2])
        return b"\n".join(lines[:end] + lines[arg:end] + lines[end:])
    if kind == "replace_lines":
        out = list(lines)
        for i, junk in arg:
            out[i] = lines[junk] if isinstance(junk, int) else junk
        return b"\n".join(out)
    if kind == "crlf":
        return data.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n")
    if kind == "utf16":
        return b"\xff\xfe" + data.decode("utf-8", errors="replace").encode("utf-16-le")
    if kind in ("ansi", "tabs"):
        out = list(lines)
        out[arg] = (
            b"\x1b[1;32m" + out[arg] + b"\x1b[0m"
            if kind == "ansi"
            else out[arg].replace(b" ", b"\t")
        )
        return b"\n".join(out)
    if kind == "decimal_comma":  # a localized '0,215' for '0.215', the first ``arg`` of them
        return re.sub(rb"(\d)\.(\d)", rb"\1,\2", data, count=arg)
    m = numbers[arg]  # "number"
    return data[: m.start()] + plan[2] + data[m.end() :]


def _check_damaged(paths, data):
    path = data.draw(st.sampled_from(paths), label="file")
    material = _material(path)
    plan = data.draw(plans(*material), label="damage")
    strict = data.draw(st.booleans(), label="strict")
    mutated = damage(plan, *material)
    _outcome(lambda: azlatency.read(mutated, strict=strict, source=path.name))


def _by_folder(paths) -> dict[str, list]:
    """Files grouped by tool folder: the cost per tool stays fixed as fixtures are added."""
    groups: dict[str, list] = {}
    for p in paths:
        groups.setdefault(p.parent.name, []).append(p)
    return groups


FIXTURE_GROUPS = _by_folder(FIXTURES)
CORPUS_GROUPS = _by_folder(CORPUS_FILES)


@pytest.mark.parametrize("tool", sorted(FIXTURE_GROUPS))
@DAMAGED
@given(data=st.data())
def test_damaged_fixture(tool, data):
    _check_damaged(FIXTURE_GROUPS[tool], data)


@pytest.mark.parametrize("tool", sorted(CORPUS_GROUPS))
@DAMAGED
@given(data=st.data())
def test_damaged_corpus_file(tool, data):
    _check_damaged(CORPUS_GROUPS[tool], data)


@pytest.mark.slow
@pytest.mark.parametrize("tool", sorted(FIXTURE_GROUPS))
@settings(SETTINGS, max_examples=400)
@given(data=st.data())
def test_damaged_fixture_many(tool, data):
    """``make test-slow``: 400 damaged files a tool folder (``make test`` tries 10)."""
    _check_damaged(FIXTURE_GROUPS[tool], data)


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
    lines=st.lists(
        st.one_of(st.sampled_from(REAL_LINES or [""]), st.text(max_size=30)), max_size=40
    ),
    strict=st.booleans(),
)
def test_parse_shuffled_real_lines(module, lines, strict):
    _check_parse(module, "\n".join(lines), strict)
