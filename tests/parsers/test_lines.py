"""The parsers' shared line helpers (``azlatency.parsers._lines``): strict conversions."""

from __future__ import annotations

import re

import pytest

from azlatency.errors import ParseError
from azlatency.parsers._lines import UNJOIN_MAX, beside_known, integer, number, unjoin


@pytest.mark.parametrize(
    ("text", "value"),
    [("1,234", 1234.0), ("1,234,567.5", 1234567.5), ("12\u202f345", 12345.0),
     ("-1\xa0000", -1000.0), ("7.5", 7.5), ("1e3", 1000.0)],
)  # fmt: skip
def test_thousands_read_where_they_group_by_three(text, value):
    assert number(text, tool="t", source="f", line_no=3, what="x") == value


@pytest.mark.parametrize("text", ["1,5", "99,0", "10,16", "1,23,456", "1,234,5", "0,065", "0,010"])
def test_a_comma_that_groups_nothing_is_a_located_error(text):
    """A localized decimal comma ('1,5') was read as a separator and gave 15."""
    with pytest.raises(ParseError, match=rf"^t: f:3: expected x, got '{text}'$"):
        number(text, tool="t", source="f", line_no=3, what="x")
    with pytest.raises(ParseError, match=rf"^t: f:3: expected x, got '{text}'$"):
        integer(text, tool="t", source="f", line_no=3, what="x")


def test_a_tool_that_never_groups_reads_no_comma():
    """sockperf prints '%.3lf': its '10,161' is a localized 10.161, not 10161 (grouped=False)."""
    assert number("10,161", tool="t", source=None, line_no=1, what="x") == 10161.0
    with pytest.raises(ParseError, match="expected x, got '10,161'"):
        number("10,161", tool="t", source=None, line_no=1, what="x", grouped=False)
    assert integer("2,429,473", tool="t", source=None, line_no=1, what="x") == 2429473


@pytest.mark.parametrize("text", ["nan", "NaN", "-nan", " nan "])
def test_nan_is_no_number(text):
    """float() reads 'nan'; a figure printed so was stored as a missing one without a word."""
    with pytest.raises(ParseError, match=r"^t: f:3: expected x, got '-?(nan|NaN)'$"):
        number(text, tool="t", source="f", line_no=3, what="x")


_ROW = re.compile(r"^\s*(\d+)%\s+(\d+)\s*$")
_HEAD = re.compile(r"^\s*Percentile\s+Latency\(us\)\s*$")


def _kind(line: str):
    return next((p for p in (_ROW, _HEAD) if p.match(line)), None)


@pytest.mark.parametrize(
    ("line", "want"),
    [
        # two rows: the spaces between go with the second (its indentation)
        ("  50%   12  90%   15", ["  50%   12", "  90%   15"]),
        # a header and two rows, three lines in one
        (
            "Percentile  Latency(us)  50%   12  90%   15",
            ["Percentile  Latency(us)", "  50%   12", "  90%   15"],
        ),
        # three ways to cut ('  50%   1' + '290%   15', '  50%   12' + '90%   15', ...): read
        # as none (a stray line, named)
        ("  50%   1290%   15", []),
        # not two known lines
        ("  50%   12 and then some", []),
        ("  50%   12", []),
    ],
)
def test_unjoin_cuts_a_line_into_known_lines_only_one_way(line, want):
    assert unjoin(line, _kind) == want


def test_unjoin_leaves_a_line_longer_than_any_tools_alone():
    """A cut is tried at every position: a line of a pasted blob is never tried."""
    line = "  50%   12" + " " * UNJOIN_MAX + "  90%   15"
    assert unjoin(line, _kind) == []


def test_only_a_line_beside_a_known_one_is_tried_at_an_outputs_start():
    """Markdown's paragraphs stand alone between blank lines: none is cut (each would cost a
    cut at every position); one next to a row, or past one blank line, is; so is the one line
    of a block."""
    doc = ["Some prose.", "", "More prose here.", "", "  50%   1290%   15", "", "  75%   14"]
    assert not beside_known(doc, 2, _kind)
    assert beside_known(doc, 4, _kind)
    assert beside_known(["  50%   12  90%   15", ""], 0, _kind)
