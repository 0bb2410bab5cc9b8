"""A figure printed as 'nan', or with a decimal comma, where the tool prints a number is
named with its line.

A study that replaced each of a few decimal figures of every fixture with 'nan' (session
notes of 2026-11-27) found readings that changed with no word: ``float()`` reads 'nan', and
a missing value looks like one the tool left out.  Tools that print 'nan' for "no value"
(owping's statistics, fping's '(NaN avg, ...)', iperf 3's '(nan%)', iperf 2's report of
nothing) are matched apart and keep reading so.  Default mode keeps the run and names the
line; strict mode raises a located error where the line is skipped."""

from __future__ import annotations

import pytest

import azlatency
from azlatency.errors import ParseError
from tests._expected import FIXTURES

# (fixture, printed, damaged, line, what the default mode says, strict raises)
CASES = [
    # an interval's rate: the interval is kept without it, in both modes
    ("iperf2/iperf2--2.2.1-linux-c-i1-tcp.txt", "779 MBytes  3.23 Gbits/sec",
     "779 MBytes  nan Gbits/sec", 9,
     "line 9: the rate nan Gbits/sec is no number; the interval is kept without one", False),
    # a reply's time, translated: kept without a round trip, as an English one is
    ("ping/ping--iputils-20250605-33-linux-LANG-de_DE-c5.txt", "Zeit=0.032 ms", "Zeit=nan ms",
     2, "line 2: 'Zeit=nan ms' is no round trip; the reply is kept without one", False),
    ("ping/ping--iputils-20250605-33-linux-LANG-ja_JP-c5.txt", "時間=0.025", "時間=nan", 2,
     "line 2: '時間=nan' is no round trip; the reply is kept without one", False),
    # figures read with _lines.number: the line is skipped and named
    ("sockperf/sockperf--3.7-linux-udp-pingpong.txt", "RunTime=1.000", "RunTime=nan", 9,
     "line 9 skipped: expected 'RunTime=<sec>', got 'nan'", True),
    ("netperf/netperf--2.7.1-linux-D0.5-TCP_RR-interim.txt", "3245.33 Trans/s",
     "nan Trans/s", 2, "line 2 skipped:", True),
    ("reported_csv/reported_csv--1-any-none-yinghli-acc-and-load-balancers.csv", ",3.65,",
     ",nan,", 7, "line 7 skipped: expected a number or 'low..high', got 'nan'", True),
    # a table's row: the last device row of iostat, a thread row of ntttcp -V
    ("iostat/iostat--12.6.1-linux-x-1-3-vda-dd-write.txt", "1.57  77.60", "1.57  nan", 21,
     "line 21 skipped: expected a number in column %util of device vda, got 'nan'", True),
    ("ntttcp/ntttcp--1.4.3-linux-r-V-receiver-dbg.txt", "0\t 5.00\t 5.40Gbps",
     "0\t nan\t 5.40Gbps", 42, "line 42 skipped: expected 'thread  seconds  rate', got", True),
]  # fmt: skip


@pytest.mark.parametrize(
    ("path", "printed", "damaged", "line", "said", "raises"),
    CASES,
    ids=[c[0].split("/")[0] + f"-line{c[3]}" for c in CASES],
)
def test_a_nan_figure_is_named_with_its_line(path, printed, damaged, line, said, raises):
    text = (FIXTURES / path).read_text(encoding="utf-8")
    assert text.count(printed) >= 1
    bad = text.replace(printed, damaged, 1)
    base = azlatency.read(text, strict=False)
    got = azlatency.read(bad, strict=False).validate()
    # the file is kept; where a row is a run (a reported value, an iostat device row) the
    # row whose figure is no number is the one left out, named
    assert len(got.runs) == len(base.runs) - (raises and path.startswith(("reported", "iostat")))
    assert said in "; ".join(got.runs["warnings"].dropna())
    assert said not in "; ".join(base.runs["warnings"].dropna())
    if raises:
        with pytest.raises(ParseError) as info:
            azlatency.read(bad, strict=True)
        assert info.value.line_no == line and "nan" in str(info.value)
    else:
        strict = azlatency.read(bad, strict=True)
        assert said in "; ".join(strict.runs["warnings"].dropna())


# (fixture, printed, localized, line): iperf3 and netperf group no thousands, so a decimal
# comma is no grouping; '0,006 ms' was read as 6 ms (a first group of 0 groups nothing)
COMMAS = [
    ("iperf3/iperf3--3.12-linux-u-udp.txt", "99.9 Mbits/sec  0.006 ms",
     "99.9 Mbits/sec  0,006 ms", 9),
    ("netperf/netperf--2.7.1-linux-D0.5-TCP_STREAM-interim.txt", "over 2.010 seconds",
     "over 2,010 seconds", 2),
]  # fmt: skip


@pytest.mark.parametrize(("path", "printed", "localized", "line"), COMMAS)
def test_a_decimal_comma_is_named_not_read_as_thousands(path, printed, localized, line):
    text = (FIXTURES / path).read_text(encoding="utf-8")
    assert printed in text
    bad = text.replace(printed, localized, 1)
    with pytest.raises(ParseError) as info:
        azlatency.read(bad, strict=True)
    assert info.value.line_no == line and localized.split()[-2] in str(info.value)
    said = "; ".join(azlatency.read(bad, strict=False).runs["warnings"].dropna())
    assert f"line {line} skipped" in said
