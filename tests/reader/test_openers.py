"""The reader asks a tool's ``locate`` only about a document its ``OPENERS`` may match
(``reader/openers.py``).  Checked three ways: the literals read off a pattern (``needs``) and
whether it may be searched over a whole text, on known patterns; every line a tool's opener
patterns match is found by the reader's check, even among other lines (hypothesis draws the
lines from the patterns); and, on every real file the project has, every output a tool's
``locate`` finds has a line its ``OPENERS`` match."""

from __future__ import annotations

import functools
import re
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from azlatency.decode import decode
from azlatency.parsers import fping, get, tools
from azlatency.parsers._base import hook
from azlatency.parsers._lines import anywhere
from azlatency.reader import _HEAD_BYTES
from azlatency.reader.openers import _marks, _searchable, may_open, needs
from azlatency.reader.outline import unquote
from azlatency.reader.spans import locate, whole_file_tool
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


@functools.cache
def _lines_of(pattern: re.Pattern) -> st.SearchStrategy[str]:
    """Lines ``pattern`` matches (one strategy per pattern: building it again for every
    example was most of the test's time)."""
    return st.from_regex(pattern, fullmatch=False).filter(lambda s: "\n" not in s)


_OTHER_LINES = st.lists(st.sampled_from(["", "  12  0", "lorem ipsum", "----", "x = 1"]))


def _opener_line_is_found(tool: str, data) -> None:
    module = get(tool)
    pattern = data.draw(st.sampled_from(module.OPENERS))
    line = data.draw(_lines_of(pattern))
    assert pattern.search(line)
    above, below = data.draw(_OTHER_LINES), data.draw(_OTHER_LINES)
    text = "\n".join([*above, line, *below])
    assert may_open(module, text), (tool, pattern.pattern, line)


# make test draws 25 lines a tool (new ones each run: hypothesis is not derandomized here);
# make test-slow draws 300.
_QUICK = settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
_MANY = settings(_QUICK, max_examples=300)


@pytest.mark.parametrize("tool", WITH_OPENERS)
@_QUICK
@given(data=st.data())
def test_every_line_an_opener_matches_is_found(tool, data):
    _opener_line_is_found(tool, data)


@pytest.mark.slow
@pytest.mark.parametrize("tool", WITH_OPENERS)
@_MANY
@given(data=st.data())
def test_every_line_an_opener_matches_is_found_in_many_lines(tool, data):
    _opener_line_is_found(tool, data)


@functools.cache
def _documents() -> list[tuple]:
    """The real files read as documents (the way the reader reads them: decoded, unquoted;
    whole-file formats are never located), once for all the tools' sweeps."""
    return list(_read_documents())


def _read_documents():
    for path in files():
        data = path.read_bytes()
        if b"\0" in data[:4096] and not data.startswith((b"\xff\xfe", b"\xfe\xff")):
            continue
        try:
            text = decode(data).text
        except Exception:  # noqa: BLE001 - a file that does not decode is not located either
            continue
        if whole_file_tool(text[:_HEAD_BYTES], None):
            continue
        lines = text.split("\n")
        yield path, unquote(lines[:-1] if lines and lines[-1] == "" else lines)


# A tool a test: the sweep over every file took 14-16 s on one worker, the longest test of
# make test (0.1-2.2 s a tool).
@pytest.mark.parametrize("tool", WITH_OPENERS)
def test_every_located_output_has_an_opener_line(tool):
    """On every fixture, corpus, seed, docs and example file: each span a tool with
    ``OPENERS`` finds holds a line one of them matches (so skipping the tool where none of
    their literals is in the document loses nothing)."""
    module, found = get(tool), 0
    for path, lines in _documents():
        for span in module.locate(lines):
            block = lines[span.start : span.end]
            assert any(p.search(x) for p in module.OPENERS for x in block), (
                f"{path.name}: {tool} output at lines {span.start + 1}-{span.end} has no "
                "line its OPENERS match"
            )
            found += 1
    assert found, f"no {tool} output found in any real file"


@pytest.mark.parametrize(
    ("pattern", "line"),
    [
        (
            r"^Connecting to host (?P<host>\S+)",
            "Thu, 02 Mar 2026 08:00:00 GMT Connecting to host x",
        ),
        (r"^-{20,}\s*$", "   ---------------------- "),
        (r"^(?:send_results|get_results)$", "12:00:01 get_results  "),
        (r"^(?:a \d+$|b \d+ c$)", " b 12 c d"),
    ],
)
def test_anywhere_finds_a_stripped_match_in_the_line_as_it_stands(pattern, line):
    compiled = re.compile(pattern)
    assert not compiled.search(line)
    assert anywhere(compiled).search(line)
    assert needs(anywhere(compiled)) == needs(compiled)


@pytest.mark.parametrize("pattern", [r"a[$]b$", r"cost \$5$", r"^x[^$]"])
def test_anywhere_keeps_dollars_that_are_no_anchor(pattern):
    assert anywhere(re.compile(pattern)).pattern == pattern.removeprefix("^").removesuffix("$")


def test_fping_all_line_opener_has_every_space_the_pattern_takes():
    """fping's -C lines are asked for by the whitespace before ': ', one literal per
    character ``\\s`` matches."""
    spaces = set(re.findall(r"\s", "".join(map(chr, range(sys.maxunicode + 1)))))
    assert set(fping._SPACES) == spaces


# Outputs that open at a line with no word of their own, or where the line the locator reads
# is not the line as the document holds it: each is still asked for.
_HARD_OPENINGS = {
    "fping -C alone, a tab": (
        "fping",
        ["10.0.0.4\t: 0.51 0.49 -", "host.example : 1.20 1.31 1.25"],
    ),
    "fping [hh:mm:ss] then a summary": (
        "fping",
        ["[12:34:56]", "10.0.0.4 : xmt/rcv/%loss = 3/3/0%, min/avg/max = 0.49/0.50/0.51"],
    ),
    "iperf3 --timestamps intervals": (
        "iperf3",
        [
            f"Thu, 02 Mar 2026 08:00:0{i} GMT [  5]   {i}.00-{i + 1}.00   sec   112 MBytes   "
            "941 Mbits/sec    0    403 KBytes"
            for i in range(2)
        ],
    ),
    "iperf3 -J, a stray line above 'start'": (
        "iperf3",
        ["{", "kernel: a stray line", '\t"start":\t{', '\t\t"connected":\t[]', "\t}", "}"],
    ),
    "iperf3 column header, asked for by 'Transfer'": (
        "iperf3",
        ["[ ID] Interval           Transfer     Bitrate"],
    ),
    "fio JSON from its brace": ("fio", ["{", '  "fio version" : "fio-3.33",', "}"]),
    "ntttcp XML from its root": ("ntttcp", ['<ntttcps computername="vm">', "</ntttcps>"]),
    "qperf test of no known name": ("qperf", ["foo_bar_lat:", "    latency  =  12.5 us"]),
    "sockperf from its command": (
        "sockperf",
        [
            "$ sockperf ping-pong -i 10.0.0.4 -t 10",
            "sockperf: == version #3.10-0.git == ",
            "sockperf: [Total Run] RunTime=10.000 sec; Warm up time=400 msec; "
            "SentMessages=1000; ReceivedMessages=999",
        ],
    ),
    "netperf banner indented": (
        "netperf",
        [
            "  MIGRATED TCP REQUEST/RESPONSE TEST from 0.0.0.0 (0.0.0.0) port 0 AF_INET to "
            "10.0.0.4 () port 0 AF_INET : first burst 0",
        ],
    ),
}


@pytest.mark.parametrize("case", sorted(_HARD_OPENINGS))
def test_hard_openings_are_still_asked_for(case):
    tool, lines = _HARD_OPENINGS[case]
    assert get(tool).locate(lines), "the example is no output of the tool"
    assert tool in {span.tool for span in locate(lines)}
