"""A command run into its output's first line (``reader.joined``), on real pastes: the reading
is the one of the lines apart, every line number the file's, and the run says so."""

from __future__ import annotations

import re

import pytest

import azlatency
from azlatency.reader.joined import file_line, split_commands
from tests.conftest import FIXTURES
from tests.parsers._joined import assert_same_reading, joined

# (fixture, the command line's start, the run's columns the output's first line gives)
PASTES = [
    # a blog's ping: the header gives the payload size
    (
        "ping/ping--iputils-linux-c30-elided-paste--richardimaoka-blog.txt",
        "> ping -c 30",
        {"command": "ping -c 30 10.107.3.5", "msg_size_bytes": 56},
    ),
    # lagscope's README: its banner gives the version
    (
        "lagscope/lagscope--0.1.0-readme-ms-units--microsoft-lagscope.txt",
        "simonxiao@",
        {"command": "./lagscope -s192.168.4.1", "tool_version": "0.1.0"},
    ),
    # a blog's NTttcp sender: 'Copyright Version 5.28'
    (
        "ntttcp/ntttcp--5.28-windows-s-m8-one-table-totals--jonathandotchin-blog.md",
        "D:\\>",
        {"command": "NTttcp.exe -s -m 8,*,192.168.0.2 -l 128k -a 2 -t 15", "tool_version": "5.28"},
    ),
    # NTttcp for Linux's banner: the version, and a command no longer holding it
    (
        "ntttcp/ntttcp--1.4.0-linux-r-u-total-loss.txt",
        "$ ntttcp",
        {"command": "ntttcp -r -u -t 10", "tool_version": "1.4.0"},
    ),
    # the echo client's own header: the target and the probe size
    (
        "echo_csv/echo_csv--stdout-blog-loopback-and-crossover-elided--simonpainter.md",
        "simon@pi2",
        {"command": "python echo_test/client/echo_client.py 127.0.0.1 7", "msg_size_bytes": 64},
    ),
    # a mailing list's quoted sockperf: the quote marker stands again inside the joined line
    (
        "sockperf/sockperf--3.10-linux-tcp-pingpong-email-quoted--intel-wired-lan.txt",
        "> [root@dell",
        {"tool_version": "3.10", "msg_size_bytes": 1000},
    ),
]


@pytest.mark.parametrize("name,first,want", PASTES, ids=[p[0].split("/")[0] for p in PASTES])
@pytest.mark.parametrize("strict", [True, False], ids=["strict", "default"])
def test_a_command_run_into_its_output_reads_as_the_two_lines(name, first, want, strict):
    text = (FIXTURES / name).read_text(encoding="utf-8")
    base = azlatency.read(text, strict=strict)
    damaged, i = joined(text, first)
    got = azlatency.read(damaged, strict=strict).validate()  # the line numbers stay Int64
    assert_same_reading(base, got)
    run = got.runs.iloc[0]
    for col, value in want.items():
        assert run[col] == value == base.runs.iloc[0][col], col
    # the file's numbers: the joined line is line i + 1, every later line one up
    assert run.line_start == base.runs.iloc[0].line_start - (base.runs.iloc[0].line_start > i + 1)
    assert list(got.runs.line_end) == [n - 1 for n in base.runs.line_end]
    assert f"line {i + 1}: a command and its output's first line stood on one line" in run.warnings


def test_a_windows_ping_header_run_into_its_command():
    text = (
        "C:\\Users\\x>ping 10.0.0.1\r\nPinging 10.0.0.1 with 32 bytes of data:\r\n"
        "Reply from 10.0.0.1: bytes=32 time=1ms TTL=128\r\nbogus line\r\n"
        "Reply from 10.0.0.1: bytes=32 time=2ms TTL=128\r\n\r\nPing statistics for 10.0.0.1:\r\n"
        "    Packets: Sent = 2, Received = 2, Lost = 0 (0% loss),\r\n"
    )
    damaged, _ = joined(text.replace("\r\n", "\n"), "C:\\")
    got = azlatency.read(damaged)
    run = got.runs.iloc[0]
    assert (run.command, run.msg_size_bytes) == ("ping 10.0.0.1", 32)
    assert list(got.samples.rtt_us) == [1000.0, 2000.0]
    # the stray line is named by the file's number (3), not the split lines' (4)
    assert re.search(r"\bline 3: 'bogus line'", run.warnings), run.warnings
    assert "after line 7 (cut short?)" in run.warnings


@pytest.mark.parametrize(
    "line",
    [
        # fio's job line opens on any word: the job's name could start anywhere in 'fioraid0'
        "$ fio --name=raid0 job.fioraid0: (g=0): rw=randread, bs=(R) 4096B-4096B",
        # fping's reply opens on its host: '10.0.0.410.0.0.5 : [0]' cuts more than one way
        "$ fping -c 3 10.0.0.410.0.0.5 : [0], 64 bytes, 0.04 ms (0.04 avg, 0% loss)",
    ],
)
def test_no_cut_where_the_line_could_begin_in_more_than_one_place(line):
    assert split_commands([line], []) == ([line], [])


def test_a_cut_where_only_one_place_opens_the_line():
    line = "$ ping -c 2 10.0.0.1PING 10.0.0.1 (10.0.0.1) 56(84) bytes of data."
    assert split_commands(["x", line], []) == (
        ["x", "$ ping -c 2 10.0.0.1", "PING 10.0.0.1 (10.0.0.1) 56(84) bytes of data."],
        [2],
    )
    # netperf's banner opens at any letter of 'MIGRATED' and at '-H': the capital after a digit
    banner = "MIGRATED TCP STREAM TEST from 0.0.0.0 (0.0.0.0) port 0 AF_INET to 10.0.0.4 () port 0"
    assert split_commands(["$ netperf -H 10.0.0.4" + banner], [])[0] == [
        "$ netperf -H 10.0.0.4",
        banner,
    ]
    # fping's reply opens on its host, the word the command ends with
    reply = "10.0.0.4 : [0], 64 bytes, 0.04 ms (0.04 avg, 0% loss)"
    assert split_commands(["$ fping -c 3 10.0.0.4" + reply], [])[0] == [
        "$ fping -c 3 10.0.0.4",
        reply,
    ]
    rule = "$ iperf -c 10.0.0.4" + "-" * 60
    assert split_commands([rule], [])[0] == ["$ iperf -c 10.0.0.4", "-" * 60]


def test_no_cut_inside_quotes_or_after_one():
    # cmd.exe's loop greps the replies for 'TTL='; the reply run in after the quote stays
    lines = [
        'C:\\>for /l %i in (1,1,9) do @ping 10.0.0.%i -n 1|find "TTL="Reply from 10.0.0.7: '
        "bytes=32 time<1ms TTL=128"
    ]
    assert split_commands(lines, []) == (lines, [])


def test_file_line():
    added = [1, 5]  # second halves at indexes 1 and 5 of the split lines
    assert [file_line(added, n) for n in range(1, 8)] == [1, 1, 2, 3, 4, 4, 5]
