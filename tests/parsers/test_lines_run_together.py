"""Two of a tool's lines run together by a lost line break, in the parsers that share
``_lines.unjoin`` (a line of no known kind cut, one way only, into lines of known kinds):
lagscope, mtr's report, fping, ncps, psping, uping, irtt and the echo client's output, and
the cuts of their own of fio, iostat, ntttcp and netperf.  A
study joining adjacent lines of every fixture and corpus file (three joins a file, both
modes) found the second line lost without a word, or the file no tool's output at all: the
fixtures here are such joins.  Now both lines are read, and the run names the line."""

from __future__ import annotations

import pytest

import azlatency
from tests.conftest import FIXTURES
from tests.parsers._joined import assert_same_reading, joined

CASES = [
    # a log line and the next ('... --> 10.77.2.2:600116:22:39 INFO: TEST COMPLETED.')
    ("lagscope/lagscope--1.0.1-linux-n5-short.txt", "16:22:39 INFO: failed to bind"),
    # the banner and its dashes: the file was no lagscope output
    ("lagscope/lagscope--1.0.1-linux-n5-short.txt", "lagscope 1.0.1"),
    # two hops ('...   0.0  2.|-- 10.77.2.2 ...'): hop 1 took hop 2's figures
    ("mtr/mtr--0.95-linux-r-c10-n-2hops.txt", "  1.|--"),
    # 'Start:' and 'HOST:': the file was no mtr output
    ("mtr/mtr--0.95-linux-r-c10-n-2hops.txt", "Start:"),
    # the first two replies, the file's first line: the first reply was lost
    ("fping/fping--5.1-linux-c50-killed.txt", "10.77.0.1 : [0],"),
    ("ncps/ncps--1.1-linux-c-r4-wt2-t6-brief.txt", "      40   3363.4"),
    ("psping/psping--2.10-windows-n10-w2-h10-icmp--kelvin-blog.txt", "PsPing v2.10"),
    # two failures: the second ran into the first's message
    ("uping/uping--11beb11-linux-no-route-send-fail.txt", "seq=1    FAIL"),
    ("uping/uping--11beb11-linux-veth-c20.txt", "UPING 10.206.0.2"),
    ("irtt/irtt--0.9.0-linux-i100ms-d5s-killed.txt", "seq=0 rtt=2.5ms"),
    # irtt: '[Connecting]' and '[addr] [Connected]' (the address fitted the host: two ways to
    # cut, so the line was a stray); '[Connected] ...' and the first probe (the event's text
    # took the probe)
    ("irtt/irtt--0.9.0-linux-i100ms-d5s-killed.txt", "[Connecting]"),
    ("irtt/irtt--0.9.0-linux-i100ms-d5s-killed.txt", "[10.77.0.1:2112] [Connected]"),
    # fio's banner and version (the banner's block sizes took the version and the iodepth);
    # the version and 'Starting 1 process'
    ("fio/fio--3.33-linux-normal-missing-file-error.txt", "ro: (g=0)"),
    ("fio/fio--3.33-linux-normal-write-4m-libaio-iodepth64-msec.txt", "fio-3.33"),
    # iostat: two device rows ('... 0.00loop1  0.00 ...': the report's later rows were lost);
    # the Device header and the first row ('... %utilvda  1.96 ...': a report lost)
    ("iostat/iostat--11.4.9-linux-x-d-2loop-dd-read-write.txt", "loop0"),
    ("iostat/iostat--12.6.1-linux-x-1-3-vda-dd-write.txt", "Device"),
    # ntttcp: dashes and the first message (the threads lost); two 'hh:mm:ss INFO:' messages
    # (the connections lost).  A command and the banner: tests/reader/test_joined.py
    ("ntttcp/ntttcp--1.3.4-linux-r-receiver-noprefix.txt", "-----"),
    ("ntttcp/ntttcp--1.4.0-linux-s-V-truncated.txt", "10:02:09 INFO: 4 threads"),
    # netperf: the banner and -D's first interim line (the banner's options took the interim)
    ("netperf/netperf--2.7.1-linux-D1-TCP_STREAM-sigint.txt", "MIGRATED TCP STREAM TEST"),
]
# The runs' columns a join lost in one case or another: each must read as from the two lines.
RUN_COLUMNS = ("tool_version", "complete", "dst_ip", "streams", "msg_size_bytes", "labels")


@pytest.mark.parametrize("strict", [True, False])
@pytest.mark.parametrize(("name", "first"), CASES)
def test_lines_run_together_are_read_one_by_one(name, first, strict):
    text = (FIXTURES / name).read_text(encoding="utf-8")
    bad, i = joined(text, first)
    base, got = azlatency.read(text, strict=strict), azlatency.read(bad, strict=strict)
    assert_same_reading(base, got, RUN_COLUMNS)
    said = "; ".join(got.runs["warnings"].dropna())
    assert f"line {i + 1}: 2 of {name.split('/')[0]}'s lines run together" in said


def test_a_log_line_and_a_progress_line_run_together_are_named():
    """lagscope's connection line and the first progress line ('... --> 10.77.2.2:600110.77.2.2:
    0% completed.') lost the port and role without a word.  The cut is not one way (the
    address fits either side: ':6001' + '10.77...', ':60011' + '0.77...'), so the line is a
    located error (strict) or skipped and named, the figures kept."""
    from azlatency.errors import ParseError

    text = (FIXTURES / "lagscope/lagscope--1.0.1-linux-t3-P-duration.txt").read_text("utf-8")
    bad, i = joined(text, "16:22:57 INFO: New connection")
    with pytest.raises(ParseError, match=f":{i + 1}: expected lagscope output"):
        azlatency.read(bad, strict=True)
    base, got = azlatency.read(text), azlatency.read(bad, strict=False)
    assert_same_reading(base, got)
    assert got.runs["warnings"][0].startswith(f"line {i + 1} skipped: not lagscope output")


@pytest.mark.parametrize("strict", [True, False])
@pytest.mark.parametrize("at", [8, 17])  # in a fenced block; a table alone in the prose
def test_a_reported_values_header_and_its_first_row_run_together(at, strict):
    """'tool,...,unit,necho_csv,Same AZ,1,1,rtt,mean,0.850,ms,': the header's last column and
    the first row's first cell are one cell.  Read as a header of odd columns, the table was
    lost without a word (prose) or refused (a file of its own); now the header and the row
    are read, and the line named."""
    name = "reported_csv/reported_csv--1-any-none-markdown-note.md"
    text = (FIXTURES / name).read_text(encoding="utf-8")
    lines = text.split("\n")
    bad = "\n".join(lines[: at - 1] + [lines[at - 1] + lines[at]] + lines[at + 1 :])
    base, got = azlatency.read(text, strict=strict), azlatency.read(bad, strict=strict)
    assert_same_reading(base, got, ("scenario", "src_zone", "dst_zone"))
    said = "; ".join(got.runs["warnings"].dropna())
    assert f"line {at}: 2 of reported_csv's lines run together" in said
