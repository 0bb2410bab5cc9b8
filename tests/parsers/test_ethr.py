"""ethr: our captures of v1.0.0 (each run's console and -o log side by side), and the four
corpus logs checked value by value (each cited by its line), plus the rules.

The corpus logs are read in place, once per module, and skipped when ../shared is absent
(tests/fixtures/ethr/SOURCES.md).
"""

from __future__ import annotations

import json

import pandas as pd
import pytest

import azlatency
from azlatency.errors import ParseError
from azlatency.parsers import ethr
from azlatency.parsers.ethr import records
from tests.conftest import FIXTURES, corpus

FILES = {
    "adriansev": "ethr--client-jsonl-tcp-bw-and-latency--adriansev.txt",
    "server": "ethr--server-jsonl-testresult-latencyresult--zluthdaka-netan.txt",
    "mixed": "ethr--client-jsonl-mixed-tests-mtr-connect--zluthdaka-netan.txt",
    "errors": "ethr--client-jsonl-dial-errors-windows--zluthdaka-netan-public.txt",
}


def _read(key: str):
    path = corpus("ethr", FILES[key])
    return azlatency.read(path, source=path.name).validate()


@pytest.fixture(scope="module")
def adriansev():
    return _read("adriansev")


@pytest.fixture(scope="module")
def server():
    return _read("server")


@pytest.fixture(scope="module")
def mixed():
    return _read("mixed")  # 14,839 records: parsed once for the module


def _run(tables, line_start: int):
    rows = tables.runs[tables.runs.line_start == line_start]
    assert len(rows) == 1, f"{len(rows)} runs start at line {line_start}"
    return rows.iloc[0]


def _stats(tables, run) -> dict:
    s = tables.summaries[tables.summaries.run_id == run.run_id]
    return {(m, st): v for m, st, v in zip(s.metric, s.stat, s.value)}


def _samples(tables, run) -> pd.DataFrame:
    return tables.samples[tables.samples.run_id == run.run_id].reset_index(drop=True)


def _records(key: str, kind: str) -> int:
    text = corpus("ethr", FILES[key]).read_text(encoding="utf-8")
    return sum(1 for line in text.splitlines() if f'"Type":"{kind}"' in line)


# ---------------------------------------------------------------------------------------------
# adriansev: a TCP bandwidth test over a LAN, then a latency test (its keys hold other stats).


def test_adriansev_bandwidth(adriansev):
    run = _run(adriansev, 1)
    assert (run.role, run["mode"], run.protocol) == ("client", "bandwidth", "tcp")
    # line 1: "Using destination: monitor.spacescience.ro, ip: 46.243.114.227, port: 43334"
    assert (run.dst_host, run.dst_ip, run.port) == (
        "monitor.spacescience.ro",
        "46.243.114.227",
        43334,
    )
    assert run.src_ip == "46.243.114.230"  # line 2: "[  5] local 46.243.114.230 port 44141"
    assert run.start_time == pd.Timestamp("2021-05-18T06:59:39Z")
    assert run.duration_s == 15.0 and bool(run.complete)  # 15 TestResults, no error
    s = _samples(adriansev, run)
    total = s[s.stream == "SUM"]
    assert list(s[s.stream == "5"].bits_per_second) == list(total.bits_per_second)
    assert total.bits_per_second.iloc[0] == 914.94e6  # line 6: "BitsPerSecond":"914.94M"
    assert (total.start_s.iloc[-1], total.end_s.iloc[-1]) == (14.0, 15.0)  # "014-015 sec"
    # lines 6..34, every TestResult's BitsPerSecond (M)
    mbps = [
        914.94,
        884.61,
        862.72,
        919.55,
        896.51,
        929.02,
        929.02,
        905.47,
        630.14,
        928.51,
        780.03,
        803.46,
        939.90,
        940.42,
        940.03,
    ]
    stats = _stats(adriansev, run)
    assert stats["throughput_sender", "mean"] == pytest.approx(sum(mbps) / 15 * 1e6)
    assert stats["throughput_sender", "min"] == 630.14e6
    assert set(adriansev.summaries.source[adriansev.summaries.run_id == run.run_id]) == {"computed"}


def test_adriansev_latency_batches_in_ethrs_own_order(adriansev):
    lat = adriansev.runs[adriansev.runs["mode"] == "latency"]
    assert len(lat) == 16 == _records("adriansev", "LatencyResult")
    first = _run(adriansev, 35)  # the batch opens at the test's banner (line 35)
    assert first.line_end == 37 and json.loads(first.labels) == {
        "batch": 0,
        "batches": 16,
        "ethr_test": 1,
    }
    assert (first.latency_basis, first.msg_size_bytes) == (
        "rtt",
        1,
    )  # "Running latency test: 1000, 1"
    stats = _stats(adriansev, first)
    # line 37: "Avg":"127.014us","Min":"87.606us","P50":"1.940ms","P90":"124.105us", ...:
    # ethr logs its maximum under "P50", its median under "P90", ... (runs.LATENCY_FIELDS);
    # read so, the batch is one distribution (a median of 124 us under a mean of 127 us)
    assert stats == {
        ("rtt", "mean"): 127.014,
        ("rtt", "min"): 87.606,
        ("rtt", "max"): 1940.0,
        ("rtt", "p50"): 124.105,
        ("rtt", "p90"): 131.008,
        ("rtt", "p95"): 141.989,
        ("rtt", "p99"): 220.468,
        ("rtt", "p99.9"): 616.828,
        ("rtt", "p99.99"): 616.828,
    }
    assert pd.isna(first.warnings) or "out of order" not in first.warnings
    n = adriansev.summaries.n[adriansev.summaries.run_id == first.run_id]
    assert set(n) == {1000}


# ---------------------------------------------------------------------------------------------
# The server log: no banners between tests, so tests are cut by pauses and new connections.


def test_server_runs_by_kind(server):
    modes = server.runs["mode"].value_counts().to_dict()
    assert modes == {"latency": 304, "bandwidth": 193, "cps": 40}
    assert modes["latency"] == _records("server", "LatencyResult")
    assert set(server.runs.role) == {"server"} and set(server.runs.port) == {8888}


def test_server_bandwidth(server):
    run = _run(server, 7)  # lines 1-6 are start-up banners
    assert (run["mode"], run.line_end, run.src_ip) == ("bandwidth", 16, "::1")
    s = _samples(server, run)
    assert s.bits_per_second.iloc[0] == 15.05e9  # line 7: "BitsPerSecond":"15.05G"
    assert len(s) == 10 and set(s.stream) == {"SUM"}
    stats = _stats(server, run)
    assert stats["throughput_receiver", "max"] == 15.42e9  # line 11: "15.42G"
    # Back-to-back tests: line 115 opens a new connection ("ConnectionsPerSecond":"1") one
    # second after line 114.
    assert _run(server, 104).line_end == 114 and _run(server, 115)["mode"] == "bandwidth"


def test_server_udp_and_cps(server):
    udp = _run(server, 838)
    assert (udp.protocol, udp["mode"]) == ("udp", "bandwidth")
    s = _samples(server, udp)
    assert s.packets.iloc[0] == 248700  # line 838: "PacketsPerSecond":"248.70K" over 1 s
    assert _stats(server, udp)["packets_per_s", "max"] == 248700.0
    cps = _run(server, 27)
    stats = _stats(server, cps)  # lines 27-36: ConnectionsPerSecond 1 ×9 and 2 (line 33)
    assert (stats["connections_per_s", "mean"], stats["connections_per_s", "max"]) == (1.1, 2.0)


def test_server_latency_percentiles_in_ethrs_own_order(server):
    run = _run(server, 69)  # line 69: the test's first second (a new connection)
    stats = _stats(server, run)
    # line 70: "Avg":"30.131us","Min":"0.000ns","P50":"1.508ms","P90":"0.000ns", ...,
    # "P999":"1.284ms","P9999":"1.463ms","Max":"1.463ms": most round trips below the server's
    # clock tick, a few near 1.3-1.5 ms; no longer a 'P50 1508 > P90 0' out of order
    assert (stats["rtt", "max"], stats["rtt", "p50"], stats["rtt", "p99"]) == (1508.0, 0.0, 1284.0)
    assert stats["rtt", "p99.99"] == 1463.0
    assert pd.isna(run.warnings) or "out of order" not in run.warnings


# ---------------------------------------------------------------------------------------------
# The mixed client log: every kind of client test.


def test_mixed_counts(mixed):
    runs = mixed.runs
    assert runs["mode"].value_counts().to_dict() == {
        "latency": 318,
        "bandwidth": 198,
        "connect": 49,
        "pps": 2,
        "traceroute": 2,
    }
    assert runs["mode"].isna().sum() == 25  # failed before the test could start
    batches = runs[runs["mode"].isin(["latency", "connect"])]
    s = mixed.summaries
    with_stats = s[(s.metric == "rtt") & (s.stat == "mean") & s.run_id.isin(batches.run_id)]
    assert len(with_stats) == _records("mixed", "LatencyResult") == 362
    assert not s.duplicated(["run_id", "metric", "stat", "source"]).any()


def test_mixed_bandwidth_and_failed_dial(mixed):
    run = _run(mixed, 7)
    assert run.duration_s == 10.0  # line 31: "Ethr done, duration: 10s."
    s = _samples(mixed, run)
    assert set(s.stream) == {"580", "SUM"} and s.bits_per_second.iloc[0] == 15.10e9  # line 11
    failed = _run(mixed, 1)
    assert not failed.complete and "i/o timeout" in failed.warnings  # line 3: ERROR
    assert list(_samples(mixed, failed).status) == ["error"]  # line 5: BitsPerSecond "0"
    assert not len(mixed.summaries[mixed.summaries.run_id == failed.run_id])
    lookup = _run(mixed, 1494)  # an ERROR with no banner: "Failed to lookup IP address"
    assert pd.isna(lookup["mode"]) and not lookup.complete


def test_mixed_sixteen_streams(mixed):
    run = _run(mixed, 14121)
    assert run.streams == 16  # 16 "[N] local ::1 port ... connected" lines
    s = _samples(mixed, run)
    assert s[s.stream == "SUM"].bits_per_second.iloc[0] == 31.19e9  # line 14158 (TestResult)
    assert s[s.stream != "SUM"].bits_per_second.sum() == pytest.approx(31.19e9, rel=0.01)


def test_mixed_packets_per_second(mixed):
    run = _run(mixed, 1416)
    assert (run["mode"], run.protocol) == ("pps", "udp")  # header without "[  ID ]"
    s = _samples(mixed, run)
    assert s.packets.iloc[0] == 249250  # line 1420: "  UDP  000-001 sec  1.99M  249.25K"
    assert _stats(mixed, run)["packets_per_s", "max"] == 249250.0


def test_mixed_tcp_connect(mixed):
    run = _run(mixed, 59)
    assert (run["mode"], run.packets_sent, run.packets_received, run.loss_pct) == (
        "connect",
        10,
        10,
        0.0,
    )  # line 73: "  Sent = 10, Received = 10, Lost = 0"
    s = _samples(mixed, run)
    assert list(s.status) == ["omitted"] + ["ok"] * 10  # line 60 is the [warmup] connection
    assert "11 of 11 round trips are 0.000ns" in run.warnings
    lost = _run(mixed, 1820)  # every connection "Timed out"; "Sent = 10, Received = 0, Lost = 10"
    assert lost.loss_pct == 100.0 and list(_samples(mixed, lost).status).count("timeout") == 10
    assert "rtt" not in set(mixed.summaries.metric[mixed.summaries.run_id == lost.run_id])


def test_mixed_connect_blocks_are_batches(mixed):
    runs = mixed.runs[mixed.runs.labels.str.contains('"ethr_test": 136}', regex=False)]
    first = runs.iloc[0]
    assert (first.line_start, first.line_end, first.packets_sent) == (2062, 3066, 1000)
    assert list(runs.packets_sent) == [1000] * 7 + [362]  # line 9448: "Sent = 362"


def test_mixed_traceroute(mixed):
    run = _run(mixed, 76)
    assert run["mode"] == "traceroute" and "not running as administrator" in run.warnings
    stats = _stats(
        mixed, run
    )  # line 110: " 1.|--::1  10  10  0.000ns  638.920us  0.000ns  1.379ms"
    assert stats == {("rtt", "mean"): 638.92, ("rtt", "min"): 0.0, ("rtt", "max"): 1379.0}
    assert (run.packets_sent, run.packets_received, run.dst_ip) == (10, 10, "::1")
    s = _samples(mixed, run)
    assert s.rtt_us.iloc[0] == 1379.0 and len(s) == 10  # line 83: "Last" of the first round


def test_mixed_interrupted_latency(mixed):
    run = _run(mixed, 732)
    assert "received interrupt signal" in run.warnings
    assert json.loads(run.labels)["batches"] == 6


# ---------------------------------------------------------------------------------------------


def test_dial_errors_are_failed_runs():
    t = _read("errors")
    assert len(t.runs) == 12 and not t.runs.complete.any()
    assert t.runs.warnings.str.contains("service provider could not be loaded").sum() == 11
    assert "no results" in _run(t, 22).warnings  # a banner followed by the next banner
    assert len(t.summaries) == 0 and len(t.samples) == 0


def test_values():
    assert records.rate("914.94M") == 914.94e6 and records.rate("15.05G") == 15.05e9
    assert records.rate("0") == 0.0 and records.rate("249.25K") == 249250.0
    assert records.placeholder("--  ") and records.placeholder("") and not records.placeholder("0")
    assert records.duration_us("1.940ms") == 1940.0 and records.duration_us("0.000ns") == 0.0
    assert records.duration_us("127.014us") == 127.014 and records.duration_us("fast") is None


GOOD = (
    '{"Time":"2021-05-18T06:59:41Z","Title":"","Type":"TestResult","RemoteAddr":"10.0.0.4",'
    '"Protocol":"TCP","BitsPerSecond":"%s","ConnectionsPerSecond":"","PacketsPerSecond":"0",'
    '"AverageLatency":""}'
)


def test_bad_lines_are_located_or_skipped():
    text = GOOD % "1.00G" + "\n{not json\n" + GOOD % "2.00G" + "\n"
    with pytest.raises(ParseError) as info:
        ethr.parse(text, source="x.log")
    assert info.value.line_no == 2
    run = ethr.parse(text, source="x.log", strict=False).runs[0]
    assert run.warnings[0].startswith("line 2 skipped")
    assert list(run.samples.bits_per_second) == [1e9, 2e9]
    with pytest.raises(ParseError) as info:
        ethr.parse(GOOD % "12.3X")
    assert info.value.line_no == 1 and "BitsPerSecond" in info.value.reason


def test_whole_file_and_locate():
    assert ethr.whole_file(GOOD % "1G" + "\n")
    assert not ethr.whole_file('{\n    "ntttcps" : {\n')
    doc = ["# run 3", "", "```", GOOD % "1.00G", GOOD % "2.00G", "```", "prose"]
    assert [(s.start, s.end) for s in ethr.locate(doc)] == [(3, 5)]
    t = azlatency.read("\n".join(doc) + "\n")
    assert list(t.runs.tool) == ["ethr"] and t.runs.heading.iloc[0] == "run 3"


def test_damaged_huge_numbers_are_parse_errors():
    banner = (
        '{"Time":"2021-05-18T06:59:39Z","Title":"","Type":"INFO","Message":'
        '"Using destination: h, ip: 10.0.0.4, port: %s"}'
    )
    with pytest.raises(ParseError, match="'port: <n>'.*out of range for int64") as err:
        ethr.parse(GOOD % "1.00G" + "\n" + banner % ("9" * 25) + "\n" + GOOD % "1.00G")
    assert err.value.line_no == 2
    with pytest.raises(ParseError, match="BitsPerSecond"):
        ethr.parse(GOOD % ("9" * 400 + "G"))  # inf is not a rate


def test_a_time_beyond_the_tables_range_is_a_located_error():
    """Issue 26 item 6: fuzzing changed a record's year to 9024 and pandas raised
    OutOfBoundsDatetime; the times are int64 ns (years 1677-2262), so such a Time is not one
    ethr wrote: a ParseError at its line, a skipped line in lenient mode."""
    late = (GOOD % "1.00G").replace("2021-05-18", "9024-05-18")
    text = GOOD % "1.00G" + "\n" + late + "\n" + GOOD % "2.00G" + "\n"
    with pytest.raises(ParseError, match=r"bad Time '9024-05-18T06:59:41Z'") as info:
        azlatency.read(text, source="x.log", strict=True)
    assert info.value.line_no == 2
    t = azlatency.read(text, source="x.log", strict=False)
    assert list(t.samples.bits_per_second) == [1e9, 2e9]
    assert t.runs.warnings.iloc[0].startswith("line 2 skipped")


def test_a_file_cut_inside_its_first_record_is_a_located_error():
    """The lenient metamorphic study: a log cut inside its first JSON line held no record, and
    'no ethr records found' named no line.  It names line 1 and the skipped line's reason."""
    path = corpus("ethr", FILES["adriansev"])
    first = path.read_text().split("\n")[0]
    with pytest.raises(ParseError) as info:
        azlatency.read(first[: len(first) // 2].encode(), source="cut", strict=False)
    assert info.value.line_no == 1
    assert "no ethr records found" in info.value.reason and "line 1 skipped" in info.value.reason


# ---------------------------------------------------------------------------------------------
# Our captures: the console and the -o log of one run each (tests/fixtures/ethr/SOURCES.md).

CAP = FIXTURES / "ethr"
CASES = (
    "t-l-d3s",
    "t-pi-n5",
    "t-b-d3s",
    "t-b-n2-d2s",
    "t-b-udp-b100M-d2s",
    "t-c-d2s",
    "t-p-udp-d2s",
    "t-mtr-d3s",
    "t-b-port9999-refused",
)


def _pair(case: str, strict: bool = True, side: str = "c"):
    """The console and the log of one capture: a client's (``c``) or a server's (``s``)."""
    name = f"ethr--1.0.0-linux-{side}-{case}"
    return (
        azlatency.read(CAP / f"{name}-console.txt", strict=strict).validate(),
        azlatency.read(CAP / f"{name}-log.jsonl", strict=strict).validate(),
    )


def _figures(t) -> list:
    return sorted(
        (m, st, round(v, 3))
        for m, st, v in zip(t.summaries.metric, t.summaries.stat, t.summaries.value)
    )


@pytest.mark.parametrize("case", CASES)
def test_the_console_reads_as_its_own_log(case):
    # ethr prints to its console what it writes to its log (clientui.go): read from either,
    # a run has the same figures, counts and kind; the console was 'no known tool output'
    console, log = _pair(case)
    assert set(console.runs.parser_variant) == {"console-client"}
    assert set(log.runs.parser_variant) == {"jsonl-client"}
    cols = ["mode", "dst_ip", "protocol", "streams", "packets_sent", "packets_received", "complete"]
    assert console.runs[cols].equals(log.runs[cols])
    assert _figures(console) == _figures(log)
    assert len(console.samples) == len(log.samples)
    assert console.runs.start_time.isna().all()  # a console prints no time
    assert set(console.runs.tool_version) == {"1.0.0"}  # its banner's 'Version: v1.0.0'


def test_a_latency_batch_is_logged_under_other_keys():
    # t-pi-n5, the console's table: Avg 241.415us, Min 142.211us, 50% 198.144us, 90% to
    # 99.99% 309.935us, Max 422.437us; the log's record of it: "P50":"422.437us",
    # "P90":"198.144us", "P95":"309.935us", ..., "Max":"309.935us" (runs.LATENCY_FIELDS)
    console, log = _pair("t-pi-n5")
    for t in (console, log):
        stats = _stats(t, t.runs.iloc[0])
        assert (stats["rtt", "p50"], stats["rtt", "p90"], stats["rtt", "max"]) == (
            198.144,
            309.935,
            422.437,
        )
        assert stats["rtt", "mean"] == 241.415 and stats["rtt", "min"] == 142.211


def test_the_console_names_an_error_and_a_trace_cut_in_its_log():
    console, log = _pair("t-b-port9999-refused")
    for t in (console, log):
        assert (
            "ethr ERROR: Error dialing connection: dial tcp4 :0->10.78.2.2:9999"
            in t.runs.warnings.item()
        )
    # -t tr: one probe a hop; ethr's log stopped after the first hop, its console did not
    console, log = _pair("t-tr")
    run = console.runs.iloc[0]
    assert console.samples.rtt_us.tolist() == [141.134, 296.37] and run.complete
    assert (run.dst_ip, run.packets_received) == ("10.78.2.2", 1)
    assert _stats(console, run) == {("rtt", "mean"): 296.37}
    run = log.runs.iloc[0]
    assert not run.complete and len(log.summaries) == 0
    assert (
        "the last hop shown (1, 10.78.1.1) is not the target 10.78.2.2 (cut short?)" in run.warnings
    )


def test_a_console_cut_short_or_with_a_stray_line_says_so():
    name = "ethr--1.0.0-linux-c-t-b-n2-d2s-console.txt"
    lines = (CAP / name).read_text().split("\n")
    done = next(i for i, x in enumerate(lines) if x.startswith("Ethr done"))
    cut = azlatency.read("\n".join(lines[: done - 3]).encode(), strict=True)
    run = cut.runs.iloc[0]
    assert not run.complete and "no 'Ethr done, ...' line after line" in run.warnings
    # a kernel message pasted among the rows: named (default) or refused (strict)
    stray = "\n".join([*lines[:12], "[  101.5] eth0: Link up", *lines[12:]]).encode()
    t = azlatency.read(stray, strict=False)
    assert "line 13" in t.runs.warnings.item() and _figures(t) == _figures(_pair("t-b-n2-d2s")[0])
    with pytest.raises(ParseError) as e:
        azlatency.read(stray, strict=True)
    assert e.value.line_no == 13


# The server's side: ethr -s's console and its -o log of one run each (SOURCES.md).


def _served(case: str):
    return _pair(case, side="s")


def _means(t) -> list:
    s = t.summaries[t.summaries.stat == "mean"]
    return [
        (r.mode, r.protocol, r.src_ip, tuple(s[s.run_id == r.run_id].value.round(1)))
        for r in t.runs.itertuples()
    ]


def test_a_servers_console_reads_as_its_log():
    # five client tests one after another: ethr -s printed a table head for each and a row a
    # second (was: 'no ethr test in its console output', a parse error)
    console, log = _served("b-bu-l-c-pi")
    assert set(console.runs.parser_variant) == {"console-server"}
    assert set(console.runs.role) == {"server"} and console.runs.complete.all()
    assert set(console.runs.tool_version) == {"1.0.0"} and console.runs.start_time.isna().all()
    got = _means(console)
    assert got == [
        ("bandwidth", "tcp", "10.79.0.2", (10753333333.3,)),  # 11.37G, 11.02G, 9.87G
        ("bandwidth", "udp", "10.79.0.2", (159948000.0, 1248.8)),  # and packets/s
        ("latency", "tcp", "10.79.0.2", (132.1,)),  # each second's average: 132.147us
        ("latency", "tcp", "10.79.0.2", (113.5,)),
        ("latency", "tcp", "10.79.0.2", (123.6,)),
        ("cps", "tcp", "10.79.0.2", (6403.3,)),  # 8.03K, 9.03K, 2.15K
        ("cps", "tcp", "10.79.0.2", (1.0,)),  # -t pi: a connection a second
    ]
    # the log holds the same, and one latency batch more (logged after the last row)
    assert _means(log) == [*got[:5], ("latency", "tcp", "10.79.0.2", (151.3,)), *got[5:]]
    assert _stats(console, console.runs.iloc[2]) == {("rtt", "mean"): 132.147}


def test_clients_served_at_once_are_a_run_each():
    # -t b from 10.79.1.2 and -t l from 10.79.0.2 at once: their rows interleave second by
    # second under a [SUM] row.  The log was read as 17 one-second runs, the bandwidth test as
    # four and each [SUM] row as a run from the address '[SUM]'.
    console, log = _served("two-clients-b-l")
    for t in (console, log):
        bandwidth = t.runs[t.runs["mode"] == "bandwidth"]
        assert bandwidth.src_ip.tolist() == ["10.79.1.2"]  # one run: 9G, 6.19G, 6.20G, 7.24G
        assert _stats(t, bandwidth.iloc[0])["throughput_receiver", "mean"] == 7.1575e9
        assert "[SUM]" not in set(t.runs.src_ip)
        assert set(t.runs.src_ip) == {"10.79.0.2", "10.79.1.2"}
        said = "4 [SUM] rows of ethr's (line {} to line {}) not read: the server's total"
        assert said.format(*((15, 27) if t is console else (6, 18))) in t.runs.warnings.iloc[0]
    assert [m[3] for m in _means(console) if m[0] == "latency"] == [
        (356.6,),
        (282.2,),
        (334.6,),
        (163.3,),
    ]
    assert len(log.runs[log.runs["mode"] == "latency"]) == 5  # and the batch after the last row


def test_a_servers_rows_pasted_twice_are_a_test_of_their_own():
    # the TCP bandwidth test's three rows (lines 10-12) pasted again below them: the console
    # has no time, the repeated block tells; the log's copy goes back in time.  Before, the
    # copy's seconds were read as three more seconds of the test (console: without a word)
    name = CAP / "ethr--1.0.0-linux-s-b-bu-l-c-pi-console.txt"
    lines = name.read_text().split("\n")
    t = azlatency.read("\n".join(lines[:12] + lines[9:12] + lines[12:]).encode(), strict=True)
    bandwidth = t.runs[(t.runs["mode"] == "bandwidth") & (t.runs.protocol == "tcp")]
    assert bandwidth[["line_start", "line_end"]].values.tolist() == [[10, 12], [13, 15]]
    assert _figures(_one(t, bandwidth.iloc[0])) == _figures(_one(t, bandwidth.iloc[1]))
    assert bandwidth.warnings.iloc[1].startswith(
        "line 13 to line 15 repeat line 10 to line 12: a copy? Read as a test of its own"
    )
    log = (CAP / "ethr--1.0.0-linux-s-b-bu-l-c-pi-log.jsonl").read_text().split("\n")
    t = azlatency.read("\n".join(log[:5] + log[2:5] + log[5:]).encode(), strict=True)
    bandwidth = t.runs[(t.runs["mode"] == "bandwidth") & (t.runs.protocol == "tcp")]
    assert bandwidth[["line_start", "line_end"]].values.tolist() == [[3, 5], [6, 8]]
    assert bandwidth.warnings.iloc[1].startswith(
        "line 6: its time 2026-11-28T19:14:24Z is before line 5's: a copy of the lines above? "
        "Read as a test of its own"
    )


def _one(t, run):
    return type(t)(
        t.runs[t.runs.run_id == run.run_id],
        t.samples[t.samples.run_id == run.run_id],
        t.summaries[t.summaries.run_id == run.run_id],
    )
