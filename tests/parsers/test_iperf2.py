"""iperf 2: values read off the real captures in tests/fixtures/iperf2 (SOURCES.md)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import azlatency
from azlatency.errors import NothingMeasured, ParseError
from tests.parsers._joined import assert_same_reading, joined

FX = Path(__file__).parents[1] / "fixtures" / "iperf2"
MBIT, GBIT, MB = 1e6, 1e9, 2**20


def _fx(name: str, **kw):
    return azlatency.read(FX / name, **kw).validate()


def _stats(t, source="reported", run=None) -> dict[str, float]:
    s = t.summaries[t.summaries.source == source]
    if run is not None:
        s = s[s.run_id == t.runs.run_id[run]]
    return {f"{m}.{st}": v for m, st, v in zip(s.metric, s.stat, s.value)}


@pytest.mark.parametrize(
    "name, interval, total",
    [
        # "[  3]  0.0- 1.0 sec   142 MBytes  1.19 Gbits/sec" ... "[  3]  0.0- 2.0 sec   284 ..."
        ("iperf2--2.0.5-linux-c-i1-tcp.txt", (0.0, 1.0, 142 * MB, 1.19 * GBIT), 1.18 * GBIT),
        # "[  1] 0.00-1.00 sec   471 MBytes  3.95 Gbits/sec", total "0.00-2.02 ... 3.23 Gbits/sec"
        ("iperf2--2.2.1-linux-c-i1-tcp.txt", (0.0, 1.0, 471 * MB, 3.95 * GBIT), 3.23 * GBIT),
    ],
)
def test_oldest_and_newest_client(name, interval, total):
    t = _fx(name)
    run = t.runs.iloc[0]
    assert (run["role"], run["protocol"], run["complete"]) == ("client", "tcp", True)
    assert run["latency_basis"] is None or run["latency_basis"] != run["latency_basis"]
    first = t.samples.iloc[0]
    assert (first["start_s"], first["end_s"], first["bytes"]) == interval[:3]
    assert first["bits_per_second"] == pytest.approx(interval[3])
    assert len(t.samples) == 2  # the total is a summary, not a third interval
    assert _stats(t)["throughput_sender.mean"] == pytest.approx(total)


def test_client_and_server_totals_differ():
    c = _fx("iperf2--2.1.8-linux-c-i1-e-tcp.txt")
    s = _fx("iperf2--2.1.8-linux-s-i1-e-tcp.txt")
    # client "0.0000-2.1483 sec 222 MBytes 865 Mbits/sec"; server "0.0000-2.1218 ... 876"
    assert (c.runs["duration_s"][0], s.runs["duration_s"][0]) == (2.1483, 2.1218)
    assert _stats(c)["throughput_sender.mean"] == pytest.approx(865 * MBIT)
    assert _stats(s)["throughput_receiver.mean"] == pytest.approx(876 * MBIT)
    # -e: "1772/0         18     2013K/2131(3111) us  50735"
    cs = _stats(c)
    assert (cs["writes.total"], cs["write_errors.total"], cs["retransmits.total"]) == (1772, 0, 18)
    assert (cs["tcp_rtt.last"], cs["tcp_rttvar.last"], cs["cwnd.last"]) == (2131, 3111, 2013 * 1024)
    assert _stats(s)["reads.total"] == 1783  # "1783=4:2:2:4:2:3:0:1766"
    first = c.samples.iloc[0]  # "727/0  15  531K/92(118) us"
    assert (first["retransmits"], first["cwnd_bytes"], first["tcp_rtt_us"]) == (15, 531 * 1024, 92)
    assert c.runs["start_time"][0].isoformat() == "2026-11-25T16:20:36+00:00"


def test_old_enhanced_rtt_is_a_mean():
    # 2.0.13 "Cwnd/RTT": the total's RTT is the mean of the samples; -1K: no cwnd at the end.
    stats = _stats(_fx("iperf2--2.0.13-linux-c-i1-e-tcp.txt"))
    assert stats["tcp_rtt.mean"] == 420 and "cwnd.last" not in stats
    assert stats["connect_time.mean"] == 80.0  # "(ct=0.08 ms)"


def test_udp_jitter_loss_and_out_of_order():
    t = _fx("iperf2--2.0.5-linux-s-i1-u-udp.txt")
    run, stats = t.runs.iloc[0], _stats(t)
    # "[  3]  0.0- 2.0 sec  2.37 MBytes  9.95 Mbits/sec   0.003 ms    0/ 1692 (0%)"
    # "[  3]  0.0- 2.0 sec  1 datagrams received out-of-order"
    assert stats["jitter.rfc3550"] == 3.0 and stats["datagrams.total"] == 1692
    assert (run["out_of_order"], run["packets_received"], run["loss_pct"]) == (1, 1692, 0.0)
    assert t.summaries.query("metric == 'jitter'").stat.tolist() == ["rfc3550"]
    # the per-interval jitter: "0.008 ms" then "0.004 ms"
    assert list(t.samples.jitter_us) == [8.0, 4.0] and list(t.samples.packets) == [850, 841]


def test_udp_client_server_report():
    t = _fx("iperf2--2.0.5-linux-c-i1-u-udp.txt")
    run, stats = t.runs.iloc[0], _stats(t)
    assert run["packets_sent"] == 1693  # "[  3] Sent 1693 datagrams"
    assert stats["throughput_sender.mean"] == pytest.approx(9.94 * MBIT)
    assert stats["throughput_receiver.mean"] == pytest.approx(9.95 * MBIT)  # Server Report
    assert run["out_of_order"] == 1 and stats["datagrams.total"] == 1692


def test_udp_one_way_latency():
    t = _fx("iperf2--2.1.8-linux-s-i1-e-u-udp.txt")
    run, stats = t.runs.iloc[0], _stats(t)
    # "... 0.003 ms 0/1786 (0%) 0.008/0.002/0.091/0.004 ms 892 pps 1786/0(0) pkts 156841"
    assert run["latency_basis"] == "one_way"
    assert (stats["one_way.mean"], stats["one_way.min"], stats["one_way.max"]) == (8, 2, 91)
    assert stats["one_way.std"] == 4 and stats["packet_rate_receiver.mean"] == 892
    assert list(t.samples.one_way_us) == [9.0, 8.0]  # interval means, not per datagram
    n = t.summaries.query("metric == 'one_way'")["n"].unique().tolist()
    assert n == [1786]
    c = _stats(_fx("iperf2--2.2.1-linux-c-i1-e-u-udp.txt"))
    assert c["packet_rate_sender.mean"] == 596 and c["packet_rate_receiver.mean"] == 892
    assert c["one_way.max"] == 131  # from the client's Server Report


def test_trip_times_burst_latency():
    t = _fx("iperf2--2.2.1-linux-s-i1-e-trip-times-tcp.txt")
    stats = _stats(t)
    # "0.00-2.00 sec 714 MBytes 2.99 Gbits/sec  10.846/0.034/46.764/8.602 ms (5715/131072)"
    assert (stats["one_way.mean"], stats["one_way.min"]) == (10846, 34)
    assert (stats["one_way.max"], stats["one_way.std"]) == (46764, 8602)
    assert t.summaries.query("metric == 'one_way'")["n"].iloc[0] == 5715
    assert '"trip_times": true' in t.runs["labels"][0]
    assert '"peer_version": "2.2.1-rc"' in t.runs["labels"][0]


def test_parallel_sum_and_stream_latency():
    t = _fx("iperf2--2.2.1-linux-s-i1-e-trip-times-P2-tcp.txt")
    run = t.runs.iloc[0]
    assert run["streams"] == 2 and run["complete"]
    # "[SUM-2] 0.00-2.01 sec   745 MBytes  3.11 Gbits/sec 1.85 MByte  12170=..."
    assert _stats(t)["throughput_receiver.mean"] == pytest.approx(3.11 * GBIT)
    computed = _stats(t, "computed")
    # streams: 22.854 ms over 2504 writes, 11.750 ms over 3455
    assert computed["one_way.mean"] == pytest.approx((22854 * 2504 + 11750 * 3455) / 5959)
    assert (computed["one_way.min"], computed["one_way.max"]) == (60, 102240)
    assert set(t.samples.stream) == {"1", "2", "SUM"}


def test_parallel_udp_client_sums_its_server_reports():
    t = _fx("iperf2--2.1.8-linux-c-i1-u-P2-udp.txt")
    computed = _stats(t, "computed")
    # "[  2] ... 5.27 Mbits/sec   0.002 ms 0/895 (0%)", "[  1] ... 5.25 Mbits/sec 0.003 ms 1/895"
    assert computed["throughput_receiver.mean"] == pytest.approx(10.52 * MBIT)
    assert (computed["lost_datagrams.total"], computed["datagrams.total"]) == (1, 1790)
    assert t.runs["packets_sent"][0] == 1792  # "[SUM-2] Sent 1792 datagrams"


def test_reverse():
    c = _fx("iperf2--2.2.1-linux-c-i1-e-R-tcp-reverse.txt")
    assert c.runs["direction"][0] == "reverse" and set(c.samples.role) == {"receiver"}
    assert _stats(c)["throughput_receiver.mean"] == pytest.approx(1.97 * GBIT)
    s = _fx("iperf2--2.1.8-linux-s-i1-e-R-tcp-reverse.txt")
    assert s.runs["direction"][0] == "reverse" and "retransmits.total" in _stats(s)


@pytest.mark.parametrize(
    "name, forward, back, when",
    [
        # "[  1] 0.0000-2.0168 sec 3.84 GBytes 16.3 Gbits/sec" and, after the server connected
        # back, "[  2] local 10.77.40.1 port 6603 connected with 10.77.40.2 port 46600" ...
        # "[  2] 0.0000-2.0014 sec 3.97 GBytes 17.0 Gbits/sec"
        ("iperf2--2.1.8-linux-c-i1-r-tcp-tradeoff.txt", 16.3 * GBIT, 17.0 * GBIT, "in turn"),
        # -d: "[  1] 0.0000-2.0135 ... 16.3 Gbits/sec", "[  2] 0.0000-2.0041 ... 11.0 Gbits/sec"
        ("iperf2--2.1.8-linux-c-i1-d-tcp-dualtest.txt", 16.3 * GBIT, 11.0 * GBIT, "at once"),
        # the server: "[  1] ... 16.4 Gbits/sec", "[ *2] ... (reverse)" "... 11.0 Gbits/sec",
        # and "[SUM] 0.0000-2.0016 sec 6.39 GBytes 27.4 Gbits/sec", which adds both ways
        ("iperf2--2.1.8-linux-s-i1-d-tcp-dualtest.txt", 16.4 * GBIT, 11.0 * GBIT, "at once"),
    ],
)
def test_both_ways_are_two_runs(name, forward, back, when):
    t = _fx(name)
    assert list(t.runs["direction"]) == ["forward", "reverse"] and t.runs["complete"].all()
    role = t.runs["role"][0]
    sides = ("sender", "receiver") if role == "client" else ("receiver", "sender")
    assert _stats(t, run=0)[f"throughput_{sides[0]}.mean"] == pytest.approx(forward)
    assert _stats(t, run=1)[f"throughput_{sides[1]}.mean"] == pytest.approx(back)
    said = {"in turn": "(iperf 2 -r: one way, then the other)", "at once": "(iperf 2 -d: both "
            "ways at once, each flow beside the other)"}[when]  # fmt: skip
    assert f"{said}: read as two runs" in t.runs["warnings"][0]
    assert {json.loads(x)["both_ways"] for x in t.runs["labels"]} == {when}
    assert role == "server" or "Server" not in str(t.runs["warnings"][0])
    if role == "server":
        assert "the [SUM] lines from line 14 add both ways: not read" in t.runs["warnings"][1]


def test_both_ways_in_udp():
    # the client's own report "[  1] ... 0.001 ms 0/1787 (0%)" for its stream, and what it
    # received: "[  2] 0.0000-2.0019 sec 2.50 MBytes 10.5 Mbits/sec 0.002 ms 0/1786 (0%)";
    # no Server Report is due for what it received
    t = _fx("iperf2--2.1.8-linux-c-i1-d-u-udp-dualtest.txt")
    fwd, back = _stats(t, run=0), _stats(t, run=1)
    assert (fwd["datagrams_sent.total"], fwd["datagrams.total"]) == (1788, 1787)
    assert (back["datagrams.total"], back["jitter.rfc3550"]) == (1786, 2.0)
    assert "throughput_sender.mean" not in back and t.runs["complete"].all()


def test_both_ways_in_csv():
    # 2.1 writes the connecting end first; the server's banner "Client connecting to
    # 10.77.40.1, TCP port 6604" among its rows names the client
    s = _fx("iperf2--2.1.8-linux-s-yC-i1-d-tcp-dualtest.txt")
    assert list(zip(s.runs["role"], s.runs["direction"])) == [
        ("server", "forward"),
        ("server", "reverse"),
    ]
    assert (s.runs["src_ip"][1], s.runs["dst_ip"][1]) == ("10.77.40.1", "10.77.40.2")
    # "...,10.77.40.2,45622,10.77.40.1,6604,2,0.0-2.0,3622961152,14454213064": sent back
    assert _stats(s, run=1)["throughput_sender.mean"] == 14454213064
    # 2.0 (autotest's iperf 2.0.4 docstring) writes the local end first: "...,10.75.222.14,
    # 5001,10.75.222.13,46112,12,0.0-10.0,1176387584,940172245" came in on port 5001.
    # Which end was the client no row says: each way by its own ends.
    a = _fx("iperf2--2.0.4-yC-d-tcp-dualtest-cpu-line--autotest.txt", strict=False)
    assert a.runs["role"].isna().all() and a.runs["direction"].isna().all()
    ways = list(zip(a.runs["src_ip"], a.runs["dst_ip"]))
    assert ways == [("10.75.222.14", "10.75.222.13"), ("10.75.222.13", "10.75.222.14")]
    assert [_stats(a, run=k)["throughput.mean"] for k in (0, 1)] == [84029467, 940172245]


def test_both_ways_in_a_udp_csv_keep_their_own_figures():
    # ChromiumOS tast's iperf 2 -y C -u -d: the client's row, the server's report of it
    # (addresses swapped) "0.114,539,267740,0.201,0", and the stream from the server
    # "...,192.168.0.8,5001,172.16.60.140,51402,4,...,295186328,0.060,3822,254835,1.500,0"
    t = _fx("iperf2--2.0-yC-d-u-udp-dualtest--chromiumos-tast.txt")
    fwd, back = _stats(t, run=0), _stats(t, run=1)
    assert fwd["throughput_sender.mean"] == 314824870 and fwd["jitter.rfc3550"] == 114
    assert (back["throughput_receiver.mean"], back["lost_datagrams.total"]) == (295186328, 3822)
    assert back["jitter.rfc3550"] == 60 and "throughput_sender.mean" not in back
    assert list(t.runs["direction"]) == ["forward", "reverse"]


def test_an_empty_server_report_is_not_read():
    # nfqueue-loadbalancer's report: "[  1] 0.00-0.00 sec  0.000 Bytes  -nan bits/sec  131.072
    # ms 4294966296/0 (inf%)", a server that received nothing; once read as jitter 131 ms
    t = _fx("iperf2--2.1-c-u-empty-server-report-nan-inf--nfqlb.txt", strict=False)
    stats = _stats(t)
    assert stats["throughput_sender.mean"] == 2.15 * GBIT
    assert stats["datagrams_sent.total"] == 1826091
    assert not any(k.startswith(("jitter", "lost", "throughput_receiver")) for k in stats)
    assert "line 12: the Server Report measured nothing" in t.runs["warnings"][0]


def test_a_test_with_no_total_keeps_its_intervals_figures():
    # RT-Thread's README: "[412]  0.0- 1.0 sec  45.6 MBytes   382 Mbits/sec" ... "[412]
    # 19.0-20.0 sec  48.0 MBytes   402 Mbits/sec", no total line
    t = _fx("iperf2--2.0-s-i1-no-total--rtthread-hpm-readme.txt")
    run, stats = t.runs.iloc[0], _stats(t, "computed")
    assert not run.complete and "no total for [412]" in run.warnings
    assert (stats["throughput_receiver.min"], stats["throughput_receiver.max"]) == (382e6, 418e6)
    assert stats["throughput_receiver.mean"] == pytest.approx(407.5e6)
    assert _stats(t) == {}  # nothing reported


def test_the_far_ends_line_of_a_connection_is_not_a_second_stream():
    # cnuvem23's Docker log: the client's "[  1] local 127.0.0.1 port 37872 connected with
    # 127.0.0.1 port 5001" and the server's "[  2] local 127.0.0.1%lo port 5001 connected with
    # 127.0.0.1 port 37872", then "[  2] 0.00-10.00 sec 48.3 GBytes 41.5 Gbits/sec" (the
    # server's) and "[  1] 0.00-10.00 sec 48.3 GBytes 41.5 Gbits/sec" (the client's)
    t = _fx("iperf2--2.1.9-c-s-interleaved-docker--cnuvem23-readme.txt", strict=False)
    second = t.runs.iloc[2]
    assert second.streams == 1 and second.direction == "forward"
    assert "[2] is the far end's line of [1]'s connection" in second.warnings
    assert _stats(t, run=2)["throughput_sender.mean"] == pytest.approx(41.5 * GBIT)


def test_the_far_end_printed_first_or_under_the_same_id_is_not_the_client():
    # the same log, test 1: the server's "[  1] local 127.0.0.1%lo port 5001 connected with
    # 127.0.0.1 port 56638" under the client's own id, then its "Reads=Dist" row at 42.3
    # Gbits/sec; test 4: the server's "[  7] local ... port 5001 connected with ... port 56726"
    # before the client's "[  1] local 127.0.0.1 port 56726 connected with 127.0.0.1 port
    # 5001" and its "[  1] 0.00-10.01 sec 49.5 GBytes 42.5 Gbits/sec" (the server's: 42.6)
    t = _fx("iperf2--2.1.9-c-s-interleaved-docker--cnuvem23-readme.txt", strict=False)
    first, fourth = t.runs.iloc[0], t.runs.iloc[4]
    assert first.streams == 1 and "line 18: the far end's line of [1]'s own connection" in (
        first.warnings
    )
    assert not (t.samples["run_id"] == first.run_id).any()  # the server's row was a sample
    assert _stats(t, run=0)["throughput_sender.mean"] == pytest.approx(42.2 * GBIT)
    assert fourth.port == 5001 and fourth.duration_s == 10.01
    assert _stats(t, run=4)["throughput_sender.mean"] == pytest.approx(42.5 * GBIT)
    assert "[7] is the far end's line of [1]'s connection" in fourth.warnings
    # the script prints each client's output again after the stream: a copy, said
    repeats = [w for w in t.runs["warnings"].fillna("") if "a repeated copy?" in w]
    assert len(repeats) == 3 and "127.0.0.1:56726 - 127.0.0.1:5001" in repeats[2]
    assert "the test from line 53 again" in t.runs["warnings"][5]


def test_server_log_of_several_tests():
    t = _fx("iperf2--2.1.8-linux-s-i1-three-tests-tcp.txt")
    assert list(t.runs["streams"]) == [1, 1, 2] and t.runs["complete"].all()
    assert "no [SUM] lines for the 2 streams" in t.runs["warnings"][2]
    # third test: "[  4] 0.0000-0.9998 sec 271 MBytes" + "[  3] 0.0000-1.0002 sec 297 MBytes"
    third = _stats(t, "computed", run=2)
    assert third["transfer_receiver.total"] == round(271 * MB) + round(297 * MB)


def test_single_line_total_is_said():
    t = _fx("iperf2--2.1.8-linux-s-two-tests-tcp.txt")
    assert t.runs["warnings"].isna().all()  # "0.0000-1.9990": no -i boundary
    c = _fx("iperf2--2.0.5-linux-c-yC-i1-tcp.txt")
    assert c.runs["warnings"].isna().all()  # three rows: intervals and the total
    lines = (FX / "iperf2--2.0.5-linux-c-i1-tcp.txt").read_text().split("\n")
    cut = azlatency.read("\n".join(lines[:7]))  # header and the first interval "0.0- 1.0"
    assert "a log cut after its first -i interval reads the same" in cut.runs["warnings"][0]


def test_csv():
    t = _fx("iperf2--2.0.5-linux-c-yC-i1-u-udp.txt")
    run, stats = t.runs.iloc[0], _stats(t)
    # client rows, then "...,10.77.40.2,6206,10.77.40.1,39529,3,0.0-2.0,2465190,9863620,0.375,0,
    # 1676,0.000,1": the server's report, addresses swapped
    assert (run["role"], run["parser_variant"]) == ("client", "csv-udp")
    assert stats["throughput_sender.mean"] == 9851770 and stats["transfer_sender.total"] == 2465190
    assert stats["jitter.rfc3550"] == 375.0 and run["out_of_order"] == 1
    e = _fx("iperf2--2.2.1-linux-s-yC-e-trip-times-i1-tcp.txt")
    es = _stats(e)
    assert (es["one_way.mean"], es["one_way.max"]) == (5576, 55956)
    assert e.runs["latency_basis"][0] == "one_way"
    # "+0000:20261125163150.219124,...": the report's time, UTC
    assert e.samples["time_ns"].iloc[0] == 1795624310219124000
    tcp = _fx("iperf2--2.1.8-linux-c-yC-i1-tcp.txt")
    assert tcp.runs["role"].isna()[0] and "throughput.mean" in _stats(tcp)


def test_byte_rate_units():
    # -f K: "[  1] 0.0000-1.0116 sec  508032 KBytes  502187 KBytes/sec"
    stats = _stats(_fx("iperf2--2.1.8-linux-c-fK-tcp.txt"))
    assert stats["throughput_sender.mean"] == 502187 * 8 * 1024
    assert stats["transfer_sender.total"] == 508032 * 1024


@pytest.mark.parametrize(
    "name, line, msg",
    [
        ("iperf2--2.1.8-linux-c-p5999-refused-error.txt", 1, "Connection refused"),
        ("iperf2--2.2.1-linux-c-p5999-refused-error.txt", 5, "Connection refused"),
    ],
)
def test_refused(name, line, msg):
    with pytest.raises(NothingMeasured) as info:
        azlatency.read(FX / name, strict=False, tool="iperf2")
    assert info.value.line_no == line and msg in info.value.reason


def test_a_bare_connect_failure_is_not_claimed():
    # 2.0's lone "connect failed: Connection refused" is qperf's line as well (the qperf
    # fixture's rds_lat): nothing says iperf 2, so it is no known tool's output.
    captured = "connect failed: Connection refused\n"  # 2.0.5: `iperf -c S -p 5999 -t 1`
    with pytest.raises(ParseError, match="no known tool output"):
        azlatency.read(captured)
    with pytest.raises(NothingMeasured) as info:
        azlatency.read(captured, tool="iperf2")
    assert info.value.line_no == 1
    with pytest.raises(NothingMeasured):  # 2.1's "tcp connect failed: ..." is iperf 2's
        azlatency.read(FX / "iperf2--2.1.8-linux-c-p5999-refused-error.txt")


def test_cut_short():
    t = _fx("iperf2--2.1.8-linux-c-i1-u-head-n9-truncated.txt")
    assert not t.runs["complete"][0] and len(t.samples) == 2
    assert "no total for [1]" in t.runs["warnings"][0]


def test_line_cut_inside_its_columns_is_located():
    lines = (FX / "iperf2--2.2.1-linux-c-i1-e-tcp.txt").read_text().split("\n")
    last = lines[11]
    assert last.startswith("[  1] 0.00-2.08 sec")
    doc = "\n".join(lines[:11] + [last[:60]])
    with pytest.raises(ParseError) as info:
        azlatency.read(doc, strict=True)
    assert info.value.line_no == 12
    lenient = azlatency.read(doc, strict=False)
    assert not lenient.runs["complete"][0] and "line 12 skipped" in lenient.runs["warnings"][0]


def test_never_taken_for_iperf3_or_the_reverse():
    for name in ("iperf2--2.2.1-linux-c-i1-tcp.txt", "iperf2--2.2.n-linux-c-i1-tcp.txt"):
        assert set(azlatency.read(FX / name).runs["tool"]) == {"iperf2"}
    iperf3 = FX.parent / "iperf3" / "iperf3--3.12-linux-c-tcp.txt"
    assert set(azlatency.read(iperf3).runs["tool"]) == {"iperf3"}
    with pytest.raises(ParseError):
        azlatency.read(iperf3, tool="iperf2")


def test_in_a_note_with_its_command():
    text = (FX / "iperf2--2.2.1-linux-c-i1-tcp.txt").read_text()
    doc = f"## AZ1 to AZ2\n\n```\nroot@vm1:~# iperf -c 10.77.40.2 -p 6400 -t 2 -i 1\n{text}```\n"
    run = azlatency.read(doc).validate().runs.iloc[0]
    assert (run["tool"], run["command"]) == ("iperf2", "iperf -c 10.77.40.2 -p 6400 -t 2 -i 1")
    assert (run["prompt_host"], run["heading"], run["complete"]) == ("vm1", "AZ1 to AZ2", True)


@pytest.mark.parametrize("value", ["1e400", "1.5"])
def test_a_count_that_is_no_whole_number_is_located(value):
    """A damaged count in a -y C row ('0' out of order replaced by '1e400', found by a
    mutation run) raised a bare ValueError from int(); it is the row's located error, and in
    the default mode the row is skipped and named."""
    text = (FX / "iperf2--2.1.8-linux-s-yC-r-u-udp-tradeoff.txt").read_text().split("\n")
    assert text[0].endswith(",1787,0.000,0")
    text[0] = text[0][:-1] + value  # the last column: datagrams out of order
    with pytest.raises(ParseError, match=r":1: expected a whole number for outoforder"):
        azlatency.read("\n".join(text), strict=True)
    warnings = azlatency.read("\n".join(text)).validate().runs["warnings"].iloc[0]
    assert warnings.startswith(f"line 1 skipped: '{text[0][:80]}' is no iperf2 output line")


@pytest.mark.parametrize("strict", [True, False])
@pytest.mark.parametrize(
    ("name", "first"),
    [
        # a banner run into its frame of dashes; a connection and the header after it
        ("iperf2--2.1.8-linux-c-i1-tcp.txt", "-----"),
        ("iperf2--2.1.8-linux-c-i1-tcp.txt", "[  1] local"),
        # settings run together: the message size was lost without a word
        ("iperf2--2.0.13-linux-c-i1-e-tcp.txt", "Write buffer size"),  # ...KByteTCP window
        ("iperf2--2.0.5-linux-c-i1-u-udp.txt", "Client connecting"),  # ...6202Sending 1470
        ("iperf2--2.2.1-linux-s-i1-e-trip-times-tcp.txt", "Server listening"),  # ...Read buffer
        ("iperf2--2.2.1-linux-c-i1-e-u-udp.txt", "TOS defaults"),  # ...(Nagle on)Sending
    ],
)
def test_iperf2_lines_run_together_are_read_one_by_one(name, first, strict):
    """A lost line break joins two of iperf 2's lines ('----...----Client connecting to
    127.0.0.1, TCP port 5621'): the second was lost without a word (a study joining adjacent
    lines of every fixture).  Both are read and the run names the line; a stray character
    before a line ('ñ[ ID] Interval', the nfqlb fixture) is no second line."""
    text = (FX / name).read_text(encoding="utf-8")
    bad, i = joined(text, first)
    base, got = azlatency.read(text, strict=strict), azlatency.read(bad, strict=strict)
    assert_same_reading(base, got, ("role", "protocol", "src_ip", "dst_ip", "port"))
    assert got.runs["msg_size_bytes"].equals(base.runs["msg_size_bytes"])
    said = "; ".join(got.runs["warnings"].dropna())
    assert f"line {i + 1}: 2 of iperf 2's lines run together (line breaks lost)" in said
    nfqlb = _fx("iperf2--2.1-c-u-empty-server-report-nan-inf--nfqlb.txt", strict=False)
    assert "run together" not in nfqlb.runs["warnings"][0]


def test_a_decimal_comma_is_named_not_lost():
    """iperf 2 prints '.' decimals; a copy with decimal commas (a study putting them in
    place of the point of every fixture's figures) lost lines without a word: a server's
    second test ('[  2] 0,0000-2,0142 sec  1,53 GBytes ...' was no iperf 2 line, so the
    test was gone), a UDP receiver's out-of-order count, a client's connect time ('(ct=0,07
    ms)').  The interval is a located error (strict) or a named skip; the out-of-order count
    (its times aside) is read; the connect time is named and left out."""
    two = (FX / "iperf2--2.1.8-linux-s-two-tests-tcp.txt").read_text()
    assert "[  2] 0.0000-2.0142 sec  1.53 GBytes  6.50 Gbits/sec" in two
    bad = two.replace(
        "[  2] 0.0000-2.0142 sec  1.53 GBytes  6.50 Gbits/sec",
        "[  2] 0,0000-2,0142 sec  1,53 GBytes  6,50 Gbits/sec",
    )
    with pytest.raises(ParseError, match=r":10: expected an interval time, got '0,0000'"):
        azlatency.read(bad, strict=True)
    assert "line 10 skipped" in azlatency.read(bad, strict=False).runs["warnings"].iloc[-1]

    udp = (FX / "iperf2--2.0.5-linux-s-i1-u-udp.txt").read_text()
    ooo = "[  3]  0.0- 2.0 sec  1 datagrams received out-of-order"
    assert ooo in udp
    t = azlatency.read(udp.replace(ooo, ooo.replace("0.0- 2.0", "0,0- 2,0")))
    assert t.runs["out_of_order"].tolist() == [1]

    client = (FX / "iperf2--2.1.8-linux-c-i1-e-tcp.txt").read_text()
    assert "(ct=0.07 ms)" in client
    t = azlatency.read(client.replace("(ct=0.07 ms)", "(ct=0,07 ms)"))
    assert "line 7: the connect time 'ct=0,07 ms' is no number" in t.runs["warnings"].iloc[0]
    assert t.summaries.query("metric == 'connect_time'").empty
    assert len(t.samples) == len(azlatency.read(client).samples)


@pytest.mark.parametrize(
    "name, when",
    [
        # -d's interval lines interleave with the other way's: "...,10.77.40.1,58876,...,1,
        # 0.0-1.0,..." then "...,10.77.40.2,45622,...,2,0.0-1.0,..." each second
        ("iperf2--2.1.8-linux-c-yC-i1-d-tcp-dualtest.txt", "at once"),
        # one total a stream, the other way's ([2] and [1]) between this way's ([3], [4])
        ("iperf2--2.1.8-linux-c-yC-d-P2-tcp-dualtest.txt", "at once"),
        # -r without -i: one total a way, one after the other, as -d's two totals would be
        ("iperf2--2.1.8-linux-c-yC-r-u-udp-tradeoff.txt", None),
        ("iperf2--2.0-yC-d-u-udp-dualtest--chromiumos-tast.txt", None),
    ],
)
def test_at_once_or_in_turn_only_where_the_lines_tell(name, when):
    # an iperf 2 -d flow shares the path with the other way's: the report keeps it apart
    # from a flow that had the path alone (report._throughput.at_once); -r's ways are plain
    t = _fx(name)
    got = {json.loads(x).get("both_ways") for x in t.runs["labels"].fillna("{}")}
    assert got == {when}
    if when is None:
        assert "the log does not tell whether both ways ran at once" in t.runs["warnings"][0]
