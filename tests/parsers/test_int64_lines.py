"""A number beyond int64 is a ParseError at the line that holds it, not at the block's first.

Each case takes a real fixture, puts ``10**30`` in place of one integer on a known line deep
in the file (a reply in the middle of a ping log, a packet number in an echo CSV row, ...),
and checks that ``azlatency.read`` names that exact line and what it expected there.  With
``strict=False`` the line is skipped, the skip is recorded, and the rest is read.  (The
tables store integers as Int64: before these checks, such a number failed later, in pandas,
and the reader could only blame the block's first line.)  ``test_overflow.py`` checks that
no number anywhere leaks another exception; this file checks where the error points.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import pytest

import azlatency
from azlatency.errors import ParseError
from azlatency.parsers import echo_csv, ping
from tests.conftest import CORPUS, FIXTURES

HUGE = "1" + "0" * 30


@dataclass(frozen=True)
class Case:
    path: str  # under tests/fixtures (or the shared corpus, see CORPUS_CASES)
    line: int  # 1-based line of the file
    old: str  # text on that line; its first occurrence there becomes ``new``
    expected: str  # regex the error's reason must match: what was expected there
    new: str = HUGE
    lenient: str | None = "skipped"  # what the strict=False warning says about the line

    @property
    def id(self) -> str:
        return f"{self.path.split('/')[0]}:{self.line}:{self.old.strip()[:12]}"


CASES = [
    # ping: a reply deep in the log, the statistics line, -O, -D stamps, Windows ping.exe
    Case(
        "ping/ping--iputils-20221126-linux-c15-i0.2-gap-partial-loss.txt",
        8,
        "icmp_seq=12",
        "expected 'icmp_seq=<n>'",
        new=f"icmp_seq={HUGE}",
    ),
    Case(
        "ping/ping--iputils-20221126-linux-c15-i0.2-gap-partial-loss.txt",
        9,
        "ttl=64",
        "expected 'ttl=<n>'",
        new=f"ttl={HUGE}",
    ),
    Case(
        "ping/ping--iputils-20221126-linux-c15-i0.2-gap-partial-loss.txt",
        14,
        "15 packets",
        "expected '<n> packets transmitted'",
        new=f"{HUGE} packets",
    ),
    Case(
        "ping/ping--iputils-20221126-linux-D-O-c15-gap-partial-loss.txt",
        9,
        "icmp_seq=8",
        "expected an icmp_seq number",
        new=f"icmp_seq={HUGE}",
    ),
    # 9999999999 s is in 2286: beyond what int64 nanoseconds since 1970 reach (2262)
    Case(
        "ping/ping--iputils-20221126-linux-D-O-c15-gap-partial-loss.txt",
        13,
        "[1795222017",
        "expected a -D timestamp",
        new="[9999999999",
    ),
    Case(
        "ping/ping--busybox-1.35.0-linux-c15-gap-partial-loss.txt",
        9,
        "seq=",
        "expected 'seq=<n>'",
        new=f"seq={HUGE}",
    ),
    # (Windows ping.exe starts with a blank line, so the output is a block from line 2: the
    # reader shifts the lenient warning's line from the block's count to the file's.)
    Case(
        "ping/ping--win10-windows-en-t-ctrl-c-transcribed.txt",
        4,
        "bytes=32",
        "expected a reply size",
        new=f"bytes={HUGE}",
        lenient="out of range for int64",
    ),
    Case(
        "ping/ping--win10-windows-en-t-ctrl-c-transcribed.txt",
        8,
        "Received = 3",
        "expected a count of packets received",
        new=f"Received = {HUGE}",
        lenient="out of range for int64",
    ),
    # echo CSV: packet_num and send_time_ns of a row; the client log's drop line
    Case(
        "echo_csv/echo_csv--py3.11-linux-i0.1-lf-20probes.csv",
        12,
        "10,",
        "expected packet_num",
        new=f"{HUGE},",
    ),
    Case(
        "echo_csv/echo_csv--py3.11-linux-i0.1-lf-20probes.csv",
        14,
        "1795222136093491212",
        "expected send_time_ns",
    ),
    Case(
        "echo_csv/echo_csv--py3.11-linux-i0.1-crlf-link-down-timeout-stdout.log",
        12,
        "packet 10",
        "expected 'packet <n>'",
        new=f"packet {HUGE}",
        lenient="the drop is kept without its packet",
    ),
    # echo_client.py's ping-style output: a reply's seq, the statistics' counts
    Case(
        "echo_csv/echo_csv--stdout-2cfea51-py3.11-linux-lo-20probes.txt",
        5,
        "seq=4",
        "expected a sequence number",
        new=f"seq={HUGE}",
    ),
    Case(
        "echo_csv/echo_csv--stdout-2cfea51-py3.11-linux-lo-closed-by-server.txt",
        12,
        "8 packets",
        "expected a count of packets transmitted",
        new=f"{HUGE} packets",
    ),
    # iperf3 text: Retr on an interval line, UDP lost datagrams, the connected line's port
    Case(
        "iperf3/iperf3--3.12-linux-c-tcp.txt",
        5,
        "sec    1 ",
        "expected a Retr or Total Datagrams count",
        new=f"sec    {HUGE} ",
    ),
    Case(
        "iperf3/iperf3--3.12-linux-u-udp.txt",
        9,
        "0/17258",
        "expected lost datagrams",
        new=f"{HUGE}/17258",
    ),
    Case("iperf3/iperf3--3.12-linux-c-tcp.txt", 2, "37800", "expected a local port"),
    # latte -csv: the Iterations field
    Case(
        "latte/latte--unknown-windows-csvh-redirected-reconstructed.csv",
        2,
        "65100",
        "expected 'Iterations <count>'",
    ),
    # ntttcp: Linux Totals and -V thread rows, Windows totals and thread rows
    Case(
        "ntttcp/ntttcp--1.4.0-linux-s-V-sender-threads.txt",
        22,
        "412",
        "expected a count for 'retrans segs'",
    ),
    Case(
        "ntttcp/ntttcp--1.4.0-linux-s-V-sender-threads.txt",
        15,
        "\t2\t",
        "expected a thread number",
        new=f"\t{HUGE}\t",
    ),
    Case(
        "ntttcp/ntttcp--1.4.0-linux-s-V-sender-threads.txt",
        17,
        "4 connections",
        "expected '<n> connections tested'",
        new=f"{HUGE} connections",
    ),
    Case(
        "ntttcp/ntttcp--5.33-windows-r-m-receiver.txt",
        34,
        "8672300",
        "expected a count under 'Packets Received'",
    ),
    Case(
        "ntttcp/ntttcp--5.33-windows-r-m-receiver.txt",
        10,
        "     2 ",
        "expected a thread number under 'Thread'",
        new=f" {HUGE} ",
        lenient=None,
    ),
    # qperf: a message count of the second test
    Case(
        "qperf/qperf--0.4.11-linux-vvs-tcp.txt",
        13,
        "70,409",
        "expected 'loc_send_msgs = <count>' within int64",
    ),
    # sockperf console: [Valid Duration] counts, the observation count, the server's port
    Case(
        "sockperf/sockperf--3.7-linux-udp-pingpong.txt",
        11,
        "SentMessages=20299",
        "expected 'SentMessages=<n>'",
        new=f"SentMessages={HUGE}",
    ),
    Case(
        "sockperf/sockperf--3.7-linux-udp-pingpong.txt",
        15,
        "20299",
        "expected 'Total <n> observations'",
    ),
    Case("sockperf/sockperf--3.7-linux-udp-pingpong.txt", 4, "11111", "expected 'PORT = <port>'"),
    Case(
        "sockperf/sockperf--3.7-linux-udp-m1400-throughput.txt",
        8,
        "95442",
        "expected 'Total of <n> messages sent'",
    ),
    # sockperf --full-log rows: a packet number, and a txTime in 2286 (past int64 ns)
    Case(
        "sockperf/sockperf--3.7-linux-udp-mps2000-fulllog-latency.csv",
        28,
        "6, ",
        "out of range for int64",
        new=f"{HUGE}, ",
    ),
    Case(
        "sockperf/sockperf--3.7-linux-udp-mps2000-fulllog-latency.csv",
        30,
        " 2.411809543",
        "out of range for int64",
        new=" 9999999999.411809543",
    ),
    # JSON: no positions from json, so the line is found by the key and the value's text
    Case(
        "fio/fio--3.33-linux-json-read-4k.json",
        28,
        "1002",
        "expected read.runtime within fio's 64-bit counters",
        lenient=None,
    ),
    Case(
        "fio/fio--3.33-linux-json-randrw-numjobs2.json",
        343,
        "90148",
        r"\.bw_max within fio's 64-bit counters",
        lenient="job 1 skipped",
    ),
    Case(
        "iperf3/iperf3--3.12-linux-J-tcp.json",
        60,
        "12582912",
        r"intervals\[0\].sum.bytes: expected a whole number",
        lenient="not read",
    ),
    Case(
        "iperf3/iperf3--3.18-linux-json-stream-P2-tcp.jsonl",
        4,
        "25034752",
        "expected a whole number within 64 bits",
        lenient="not read",
    ),
    Case(
        "ntttcp/ntttcp--1.4.0-linux-s-j-sender.json",
        60,
        '"2"',
        "expected a whole number for conns_tested",
        new=f'"{HUGE}"',
        lenient=None,
    ),
]

# Formats with no fixture of that shape in tests/fixtures: the shared corpus (skipped when
# it is not there).
CORPUS_CASES = [
    Case(
        "latte/latte--hist-udp-rio-bom--virtualclient.txt",
        7,
        "100100",
        "expected 'Iterations <count>'",
    ),
    Case(
        "latte/latte--hist-udp-rio-bom--virtualclient.txt",
        400,
        "41",
        "expected a histogram row '<usec> <count>' within int64",
    ),
    Case(
        "ethr/ethr--client-jsonl-mixed-tests-mtr-connect--zluthdaka-netan.txt",
        76,
        "8888",
        "expected 'port: <n>'",
    ),
]


def _mutate(data: bytes, case: Case) -> bytes:
    lines = data.split(b"\n")
    line = lines[case.line - 1]
    old = case.old.encode()
    assert old in line, f"{case.path}:{case.line} does not hold {case.old!r}: {line[:120]!r}"
    lines[case.line - 1] = line.replace(old, case.new.encode(), 1)
    return b"\n".join(lines)


def _check(data: bytes, case: Case) -> None:
    mutated = _mutate(data, case)
    with pytest.raises(ParseError) as err:
        azlatency.read(mutated, source="f", strict=True)
    assert err.value.line_no == case.line, str(err.value)
    assert re.search(case.expected, err.value.reason), str(err.value)
    assert err.value.source == "f" and err.value.tool in case.path
    if case.lenient is None:
        return  # a value the parser cannot do without: the run is not read (see below)
    tables = azlatency.read(mutated, source="f", strict=False)
    tables.validate()
    warnings = " ".join(w for w in tables.runs["warnings"].dropna())
    assert case.lenient in warnings, warnings
    if re.search(r"\bline \d+", warnings):  # numbered in the file, not in its block
        assert f"line {case.line}" in warnings, warnings


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_number_beyond_int64_is_located(case):
    _check((FIXTURES / case.path).read_bytes(), case)


@pytest.mark.parametrize("case", CORPUS_CASES, ids=lambda c: c.id)
def test_number_beyond_int64_is_located_corpus(case):
    path = CORPUS / case.path
    if not path.is_file():
        pytest.skip(f"corpus file {case.path} not present")
    _check(path.read_bytes(), case)


@pytest.mark.parametrize("case", [c for c in CASES if c.lenient is None], ids=lambda c: c.id)
def test_lenient_drops_the_run_at_the_line(case):
    """A thread number or the connection count is the run's own: the lenient reader drops
    the run and records the located error."""
    mutated = _mutate((FIXTURES / case.path).read_bytes(), case)
    try:
        tables = azlatency.read(mutated, source="f", strict=False)
    except ParseError as exc:  # the file's only run
        assert exc.line_no == case.line
        return
    assert any(p.line_no == case.line for p in tables.problems), tables.problems


# ---------------------------------------------------------------------------------------------
# The bulk readers: a long log goes through numpy/pyarrow, which must hand the bad line back.


@pytest.mark.parametrize(
    ("line", "old", "new", "expected"),
    [
        (13, "icmp_seq=12", f"icmp_seq={HUGE}", "expected 'icmp_seq=<n>'"),
        (13, "[1795222017", "[9999999999", "expected a -D timestamp"),
        (2, "[1795222015", "[9999999999", "expected a -D timestamp"),  # the template line
        (5, "64 bytes", f"{HUGE} bytes", "expected '<n> bytes from'"),
    ],
)
def test_ping_bulk_reader_names_the_line(monkeypatch, line, old, new, expected):
    monkeypatch.setattr(ping, "FAST_MIN_BYTES", 0)  # every block through ping/fast
    case = Case(
        "ping/ping--iputils-20221126-linux-D-O-c15-gap-partial-loss.txt",
        line,
        old,
        expected,
        new=new,
    )
    _check((FIXTURES / case.path).read_bytes(), case)


def test_ping_bulk_reader_long_log(monkeypatch):
    """200,000 replies; the bad one is line 150,001 (the header is line 1)."""
    lines = ["PING 10.0.0.4 (10.0.0.4) 56(84) bytes of data."]
    lines += [
        f"[1700000000.{i % 10**6:06d}] 64 bytes from 10.0.0.4: icmp_seq={i % 65536} "
        f"ttl=64 time=0.5{i % 10} ms"
        for i in range(1, 200_001)
    ]
    lines[150_000] = lines[150_000].replace("ttl=64", f"ttl={HUGE}")
    data = ("\n".join(lines) + "\n").encode()
    assert len(data) > ping.FAST_MIN_BYTES
    with pytest.raises(ParseError, match="expected 'ttl=<n>'") as err:
        azlatency.read(data, strict=True)
    assert err.value.line_no == 150_001
    tables = azlatency.read(data, strict=False)
    assert "line 150001" in tables.runs["warnings"].iloc[0]
    assert (tables.samples["status"] == "ok").sum() == 199_999


def test_echo_csv_bulk_reader_names_the_line(monkeypatch):
    monkeypatch.setattr(echo_csv, "_FAST_BYTES", 0)  # every CSV through pyarrow first
    case = Case(
        "echo_csv/echo_csv--py3.11-linux-i0.1-lf-20probes.csv",
        12,
        "10,",
        "expected packet_num",
        new=f"{HUGE},",
    )
    _check((FIXTURES / case.path).read_bytes(), case)
    tables = azlatency.read(_mutate((FIXTURES / case.path).read_bytes(), case), strict=False)
    assert len(tables.samples) == 19
