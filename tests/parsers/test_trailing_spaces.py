"""Trailing spaces a copy took off (an editor's 'trim trailing whitespace', git's whitespace
fix, a chat client): the outputs read the same.  A study doing it to every fixture and
corpus file with a trailing space (both modes, 170 readings) found two that did not."""

from __future__ import annotations

import pytest

import azlatency
from tests.conftest import FIXTURES
from tests.parsers._joined import assert_same_reading

CASES = [
    # netperf -O pads a missing fourth header line with spaces: stripped, the table ended
    # there, its values line unread (the run 'cut short', throughput and duration gone)
    "netperf/netperf--2.7.1-linux-TCP_STREAM-O-columns.txt",
    # iperf3 --timestamps stamps an empty line too ('Sat Nov 21 00:47:09 2026 '): stripped,
    # the stamp alone was a line not read
    "iperf3/iperf3--3.12-linux-timestamps-tcp.txt",
    "iperf3/iperf3--3.12-linux-timestamps-fmt-u-R-udp-reverse-loss.txt",
]
RUN_COLUMNS = ("complete", "msg_size_bytes", "duration_s", "line_end", "warnings")


@pytest.mark.parametrize("strict", [True, False], ids=["strict", "default"])
@pytest.mark.parametrize("name", CASES)
def test_trailing_spaces_taken_off_read_the_same(name, strict):
    text = (FIXTURES / name).read_text(encoding="utf-8")
    trimmed = "\n".join(x.rstrip(" \t") for x in text.split("\n"))
    assert trimmed != text
    base, got = azlatency.read(text, strict=strict), azlatency.read(trimmed, strict=strict)
    assert len(got.runs) == len(base.runs) > 0
    assert_same_reading(base, got, tuple(c for c in RUN_COLUMNS if c in base.runs))


def test_a_blank_line_under_o_columns_needs_the_values_aligned():
    """The blank line is taken for the padded header line only where the next line's values
    start where the header's words do: a header cut short, then a blank line and another
    output, is still cut short."""
    text = (FIXTURES / CASES[0]).read_text(encoding="utf-8").split("\n")
    head = [x.rstrip() for x in text[:5]]  # banner, three header lines, the padded line
    cut = azlatency.read("\n".join([*head, "PING 10.0.0.4 (10.0.0.4) 56(84) bytes of data."]))
    netperf = cut.runs[cut.runs["tool"] == "netperf"]
    assert not netperf["complete"].iloc[0]
    assert "cut short" in netperf["warnings"].iloc[0]
