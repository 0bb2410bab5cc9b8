"""The reader asks a tool's ``locate`` only about a document its ``OPENERS`` may match
(``reader/openers.py``).  Checked three ways: the literals read off a pattern (``needs``) and
whether it may be searched over a whole text, on known patterns; every line a tool's opener
patterns match is found by the reader's check, even among other lines (hypothesis draws the
lines from the patterns); and, on every real file the project has, every output a tool's
``locate`` finds has a line its ``OPENERS`` match."""

from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from azlatency.decode import decode
from azlatency.parsers import get, tools
from azlatency.parsers._base import hook
from azlatency.reader import _HEAD_BYTES, _whole_file_tool
from azlatency.reader.openers import _marks, _searchable, may_open, needs
from azlatency.reader.outline import unquote
from tests._equivalence import files

WITH_OPENERS = [t for t in tools() if hook(get(t), "OPENERS")]


@pytest.mark.parametrize(
    ("pattern", "marks"),
    [
        (
            r"^\s*UPING (?P<host>\S+) \((?P<ip>[^)\s]+)\): ICMPv[46], timeout",
            {"): ICMPv4, timeout", "): ICMPv6, timeout"},
        ),
        (r"^\s*(?:foo|barr)\s+\d+", {"foo", "barr"}),
        (r"\] \[(?P<code>Connected|NoTest)\] ", {"] [Connected] ", "] [NoTest] "}),
        (r"(?:MIN|MAX)(?:_FWD)?\t", {"MIN", "MAX"}),  # re factors out the M; it is put back
        (r"(?:ab){2,}x", {"ab"}),
        (r"c(?!d)de", {"cde"}),  # zero width: the literals either side are one
        (r"^(?:abc|abd)x", {"abcx", "abdx"}),
        (r"(?>xyz)+", {"xyz"}),
        (r"a|bc", None),  # one alternative needs no literal of two characters
        (r"(?:abc)?\d+", None),  # optional
        (r"(?i)abc", None),
        (r"x(?i:abc)y", None),
        (r"\d+\s+\d+", None),
    ],
)
def test_needs_reads_the_literals_a_pattern_cannot_match_without(pattern, marks):
    got = needs(re.compile(pattern))
    assert (set(got) if got is not None else None) == marks


def test_tools_declare_openers():
    """The tools that cost most to scan have them (the others are asked about every
    document, which is always right)."""
    assert len(WITH_OPENERS) >= 1, WITH_OPENERS
    for tool in WITH_OPENERS:
        assert _marks(get(tool)) is not None, f"{tool}: an opener can be neither read nor searched"


@pytest.mark.parametrize(
    ("pattern", "searchable"),
    [
        (r"^\s*(?P<seq>\d+) (?P<t>\d{20})\s*$", True),
        (r"^(?:\d+\s+){2,}\d+$", True),
        (r"\d+\Z", False),
        (r"\A\d+", False),
        (r"\d+(?!\s)", False),
        (r"(?<=x)\d+", False),
    ],
)
def test_a_pattern_is_searched_over_the_text_only_where_that_finds_every_line(pattern, searchable):
    assert _searchable(re.compile(pattern)) is searchable


def test_tools_may_be_skipped():
    """A tool with OPENERS is not asked about a text none of them matches."""
    for tool in WITH_OPENERS:
        assert not may_open(get(tool), "lorem ipsum\n\nThe round trips were short.\n")


_OTHER_LINES = st.lists(st.sampled_from(["", "  12  0", "lorem ipsum", "----", "x = 1"]))


@pytest.mark.parametrize("tool", WITH_OPENERS)
@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_every_line_an_opener_matches_is_found(tool, data):
    module = get(tool)
    pattern = data.draw(st.sampled_from(module.OPENERS))
    line = data.draw(st.from_regex(pattern, fullmatch=False).filter(lambda s: "\n" not in s))
    assert pattern.search(line)
    above, below = data.draw(_OTHER_LINES), data.draw(_OTHER_LINES)
    text = "\n".join([*above, line, *below])
    assert may_open(module, text), (tool, pattern.pattern, line)


def _documents():
    """The real files read as documents (the way the reader reads them: decoded, unquoted;
    whole-file formats are never located)."""
    for path in files():
        data = path.read_bytes()
        if b"\0" in data[:4096] and not data.startswith((b"\xff\xfe", b"\xfe\xff")):
            continue
        try:
            text = decode(data).text
        except Exception:  # noqa: BLE001 - a file that does not decode is not located either
            continue
        if _whole_file_tool(text[:_HEAD_BYTES], None):
            continue
        lines = text.split("\n")
        yield path, unquote(lines[:-1] if lines and lines[-1] == "" else lines)


def test_every_located_output_has_an_opener_line():
    """On every fixture, corpus, seed, docs and example file: each span a tool with
    ``OPENERS`` finds holds a line one of them matches (so skipping the tool where none of
    their literals is in the document loses nothing)."""
    found = dict.fromkeys(WITH_OPENERS, 0)
    for path, lines in _documents():
        for tool in WITH_OPENERS:
            module = get(tool)
            for span in module.locate(lines):
                block = lines[span.start : span.end]
                assert any(p.search(x) for p in module.OPENERS for x in block), (
                    f"{path.name}: {tool} output at lines {span.start + 1}-{span.end} has no "
                    "line its OPENERS match"
                )
                found[tool] += 1
    assert all(found.values()), f"no output found in any real file: {found}"
