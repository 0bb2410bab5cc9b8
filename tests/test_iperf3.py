"""iperf3: the seeds' tables, every corpus file and our captures, checked value by value.

The fixture walker compares every capture with its reviewed ``.expected.json``; here the
figures people quote are asserted against the line they were read from, and the rules
(sides, flows, zeros that mean "not reported", errors, broken JSON) are pinned down.
"""

from __future__ import annotations

import json

import pytest

import azlatency
from azlatency.errors import ParseError
from azlatency.parsers import iperf3
from tests.conftest import FIXTURES, corpus, needs_shared, seed

FX = FIXTURES / "iperf3"
GBIT, MBIT, MIB, KIB, GIB = 1e9, 1e6, 2**20, 2**10, 2**30


def _fx(name: str):
    path = FX / name
    return azlatency.read(path, source=name).validate()


def _stats(tables, run: int = 0, source: str = "reported") -> dict[str, float]:
    rid = tables.runs.run_id.iloc[run]
    s = tables.summaries[(tables.summaries.run_id == rid) & (tables.summaries.source == source)]
    return {f"{r.metric}.{r.stat}": r.value for r in s.itertuples()}


def _samples(tables, run: int = 0):
    rid = tables.runs.run_id.iloc[run]
    return tables.samples[tables.samples.run_id == rid].reset_index(drop=True)


def _iperf3_only(tables):
    runs = tables.runs[tables.runs.tool == "iperf3"].reset_index(drop=True)
    return runs, tables.summaries[tables.summaries.run_id.isin(runs.run_id)]


# ---------------------------------------------------------------------------------------------
# seeds


# Seed 001's table: "iperf3 (Gbps)" 25.7 / 11.8 / 11.8 / 8.25 / 7.91, and each block's
# summary lines (seed lines 47, 155, 263, 371, 477: "sender" with Retr; 48, ... "receiver").
SEED_001 = [
    ("Inside single node", 25.7, 542, 29.9, "10.2.0.58", 5201, 25.6),
    ("AZ1 - AZ1", 11.8, 24093, 13.8, "10.2.0.21", 5201, 11.8),
    ("AZ1 - AZ2", 11.8, 12919, 13.8, "10.2.0.21", 5201, 11.9),
    ("AZ2 - AZ3", 8.25, 495, 9.61, "10.2.0.58", 5201, 8.74),
    ("AZ1 - AZ3", 7.91, 616, 9.21, "10.2.0.21", 5522, 6.45),
]


@needs_shared
def test_seed_001_reproduces_the_table():
    tables = azlatency.read(seed("001"), strict=False)  # other tools' blocks are not ours
    runs, _ = _iperf3_only(tables)
    assert list(runs.heading) == [row[0] for row in SEED_001]
    for k, (heading, gbps, retr, gbytes, dst, port, first_omitted) in enumerate(SEED_001):
        i = tables.runs.index[tables.runs.run_id == runs.run_id[k]][0]
        stats = _stats(tables, i)
        assert stats["throughput_receiver.mean"] == pytest.approx(gbps * GBIT), heading
        assert stats["retransmits.total"] == retr, heading
        assert stats["transfer_receiver.total"] == round(gbytes * GIB), heading
        run = runs.iloc[k]
        assert (run.dst_ip, run.port, run.direction, run.complete) == (dst, port, "forward", True)
        assert run.command.startswith("iperf3 -c $ip -b 0 -O 2")  # the fenced "# iperf3 ..." line
        assert json.loads(run.labels) == {"omit_s": 2}
        s = _samples(tables, i)
        # -O 2: two "(omitted)" intervals (lines 33-34, 141-142, ...), then ten counted ones
        assert list(s.status) == ["omitted"] * 2 + ["ok"] * 10
        assert s.bits_per_second[0] == pytest.approx(first_omitted * GBIT)
        computed = _stats(tables, i, "computed")
        assert computed["throughput_sender.mean"] == pytest.approx(
            s.bits_per_second[2:].mean())  # the omitted intervals are left out


@needs_shared
def test_seed_001_first_block_values_by_line():
    tables = azlatency.read(seed("001"), strict=False)
    runs, _ = _iperf3_only(tables)
    i = tables.runs.index[tables.runs.run_id == runs.run_id[1]][0]  # AZ1 - AZ1
    s = _samples(tables, i)
    # line 141: "[  5]   0.00-1.00   sec  1.38 GBytes  11.8 Gbits/sec  5151   1.08 MBytes (omitted)"
    assert (s.retransmits[0], s.cwnd_bytes[0]) == (5151, round(1.08 * MIB))
    assert s.bytes[0] == round(1.38 * GIB)
    # line 142: "... 2304    939 KBytes       (omitted)"
    assert s.cwnd_bytes[1] == 939 * KIB
    assert runs.src_ip[1] == "10.2.0.160"  # line 139: "[  5] local 10.2.0.160 port 46874 ..."


@needs_shared
def test_seed_000_two_runs():
    tables = azlatency.read(seed("000"), strict=False)
    runs, _ = _iperf3_only(tables)
    assert len(runs) == 2
    for k, (dst, src, host) in enumerate([("10.0.1.4", "10.0.1.5", "malzonka02"),
                                          ("10.0.1.6", "10.0.1.7", "malzonka04")]):
        i = tables.runs.index[tables.runs.run_id == runs.run_id[k]][0]
        stats = _stats(tables, i)
        # lines 111-112 / 196-197: "4.44 GBytes  3.81 Gbits/sec    0  sender" and "receiver"
        assert stats["throughput_receiver.mean"] == pytest.approx(3.81 * GBIT)
        assert stats["throughput_sender.mean"] == pytest.approx(3.81 * GBIT)
        assert stats["retransmits.total"] == 0
        run = runs.iloc[k]
        assert (run.dst_ip, run.src_ip, run.port, run.prompt_host) == (dst, src, 5001, host)
        assert len(_samples(tables, i)) == 10


# ---------------------------------------------------------------------------------------------
# corpus


@needs_shared
def test_corpus_3_0_11_json():
    path = corpus("iperf3", "iperf3--json-3.0.11-tcp--thiezn-iperf3-python.json")
    t = azlatency.read(path).validate()
    run = t.runs.iloc[0]
    assert (run.tool_version, run.parser_variant, run.role, run.streams) == ("3.0.11", "json",
                                                                            "client", 1)
    assert (run.dst_ip, run.port, run.src_ip) == ("192.168.0.188", 9987, "192.168.0.3")
    s = _samples(t)
    assert len(s) == 26  # 13 intervals x (socket 4 + sum)
    assert s.bits_per_second[0] == 9.50062e08  # line 40: "bits_per_second": 9.50062e+08
    stats = _stats(t)
    assert stats["throughput_sender.mean"] == 9.35992e08  # end.sum_sent
    assert stats["throughput_receiver.mean"] == 9.34268e08  # end.sum_received
    assert stats["transfer_receiver.total"] == 1518193248
    assert stats["cpu_remote.total"] == 4.15082
    assert "tcp_rtt.mean" not in stats  # 3.0.11 has no rtt figures


@needs_shared
def test_corpus_3_6_duplicate_keys_and_four_streams():
    path = corpus("iperf3", "iperf3--json-3.6-tcp-P4-dupkeys--ekfoury-iperf3-plotter.json")
    t = azlatency.read(path).validate()
    run = t.runs.iloc[0]
    assert run.streams == 4 and run.complete
    assert "sock_bufsize" in run.warnings and "sndbuf_actual" in run.warnings
    stats = _stats(t)
    assert stats["throughput_receiver.mean"] == 17535714055.219631  # line 3948
    assert stats["retransmits.total"] == 2  # line 3941
    # per-stream sender mean_rtt 60, 55, 54, 51 (lines 3858, 3880, 3902, 3924); min 19; max 515
    assert stats["tcp_rtt.mean"] == (60 + 55 + 54 + 51) / 4
    assert (stats["tcp_rtt.min"], stats["tcp_rtt.max"]) == (19, 515)
    assert stats["cwnd.max"] == 8609808  # line 3877
    s = _samples(t)
    assert len(s) == 300 and set(s.stream) == {"13", "15", "17", "19", "SUM"}


@needs_shared
def test_corpus_3_7_server_side_json():
    path = corpus("iperf3", "iperf3--json-3.7-server-side-P2-reindented--greepz-wifianalyzer.json")
    t = azlatency.read(path).validate()
    run = t.runs.iloc[0]
    assert (run.role, run.parser_variant, run.tool_version) == ("server", "server-json", "3.7+")
    assert (run.src_ip, run.dst_ip, run.port, run.os) == ("10.8.42.43", "10.8.7.49", 8091, "macos")
    stats = _stats(t)
    assert stats["throughput_receiver.mean"] == 41963324.473553069  # end.sum_received
    # end.sum_sent is all zeros on a receiving server, and remote CPU too: not reported
    assert "throughput_sender.mean" not in stats and "cpu_remote.total" not in stats
    assert set(_samples(t).role) == {"receiver"}


@needs_shared
def test_corpus_old_bandwidth_header():
    path = corpus("iperf3", "iperf3--text-tcp-old-bandwidth-header--marcos-j-ferreira.txt")
    t = azlatency.read(path).validate()
    run = t.runs.iloc[0]
    assert run.parser_variant == "text-old-bandwidth"
    stats = _stats(t)
    assert stats["throughput_receiver.mean"] == 13.7 * MBIT  # line 37
    assert stats["transfer_receiver.total"] == round(49.1 * MIB)
    # line 36 "49.2 MBytes  1 Mbits/sec" over 30.01 s: kept as printed, flagged
    assert stats["throughput_sender.mean"] == 1 * MBIT
    assert "line 36" in run.warnings and "13.8 Mbit/s" in run.warnings
    s = _samples(t)
    assert len(s) == 30
    assert s.bytes[1] == 896 * KIB  # line 5: "1.01-2.01 sec   896 KBytes  7.30 Mbits/sec"
    assert s.bits_per_second[1] == 7.30 * MBIT


@needs_shared
def test_corpus_retr_cwnd():
    path = corpus("iperf3", "iperf3--text-tcp-retr-cwnd--alexsockz-esamecloudadvance.txt")
    t = azlatency.read(path).validate()
    stats = _stats(t)
    assert stats["throughput_receiver.mean"] == 54.1 * GBIT  # line 17, over 0.00-10.04
    assert stats["throughput_sender.mean"] == 54.3 * GBIT
    assert t.runs.duration_s[0] == 10.0
    assert _samples(t).cwnd_bytes[0] == 595 * KIB  # line 4: "0    595 KBytes"


@needs_shared
def test_corpus_udp_interrupted_client():
    path = corpus("iperf3", "iperf3--text-udp-client-interrupted--freekds-logvisualizer.txt")
    t = azlatency.read(path).validate()
    run = t.runs.iloc[0]
    assert (run.protocol, run.complete, run.dst_host, run.dst_ip) == (
        "udp", False, "ping.online.net", "62.210.18.40")
    assert run.packets_sent == 6041  # "[  5] Sent 6041 datagrams"
    assert "interrupt - the client has terminated" in run.warnings
    stats = _stats(t)
    assert stats["datagrams_sent.total"] == 6041
    assert "loss.mean" not in stats  # 0/6041 is the sender's view: no receiver results came
    s = _samples(t)
    assert len(s) == 378
    assert (s.start_s.iloc[-1], s.end_s.iloc[-1], s.packets.iloc[-1]) == (377.01, 377.55, 9)
    assert s.bits_per_second[1] == 992e3  # line 5: "120 KBytes   992 Kbits/sec  15"


@needs_shared
def test_corpus_summary_only_timestamps():
    path = corpus("iperf3", "iperf3--text-udp-reverse-timestamps-summary-only--zeandon.txt")
    t = azlatency.read(path).validate()
    assert len(t.runs) == 6 and set(t.runs.parser_variant) == {"text-summary"}
    assert all(json.loads(x)["timestamps"] for x in t.runs.labels)
    # "2025-04-02 01:30:51 [  5]   0.00-10.00  sec  9.53 MBytes  7.99 Mbits/sec  0.236 ms
    #  22694/29594 (77%)  receiver"
    stats = _stats(t, 3)
    assert stats["throughput_receiver.mean"] == 7.99 * MBIT
    assert (stats["lost_datagrams.total"], stats["datagrams.total"]) == (22694, 29594)
    assert stats["loss.mean"] == 77 and stats["jitter.mean"] == pytest.approx(236)
    assert stats["datagrams_sent.total"] == 29915
    assert list(t.runs.loss_pct) == [0, 0, 0, 77, 62, 72]


# ---------------------------------------------------------------------------------------------
# our captures: rules the walker cannot express


def test_bidir_text_flows_and_roles():
    t = _fx("iperf3--3.12-linux-bidir-tcp.txt")
    assert t.runs.direction[0] == "bidir" and t.runs.streams[0] == 1
    s = _samples(t)
    assert list(zip(s.stream, s.role))[:2] == [("5", "sender"), ("7", "receiver")]  # TX-C/RX-C
    stats = _stats(t)
    assert stats["throughput_receiver.mean"] == 100 * MBIT
    assert stats["throughput_receiver_reverse.mean"] == 100 * MBIT
    assert "throughput_receiver_reverse.mean" in _stats(t, source="computed")


def test_bidir_server_text_reverse_flow_is_its_tx():
    t = _fx("iperf3--3.12-linux-s-server-six-tests.txt")
    assert list(t.runs.direction) == ["forward", "forward", "reverse", "forward", "forward",
                                      "bidir"]
    assert list(t.runs.protocol) == ["tcp", "udp", "tcp", "tcp", "tcp", "tcp"]
    bidir = _stats(t, 5)
    # "[  5][RX-S] ... receiver" (client-to-server) and "[  8][TX-S] ... 0  sender"
    assert {"throughput_receiver.mean", "throughput_sender_reverse.mean",
            "retransmits_reverse.total"} <= set(bidir)
    assert "throughput_sender.mean" not in _stats(t, 0)  # a receiving server prints one side


def test_reverse_json_roles_and_zero_kernel_figures():
    t = _fx("iperf3--3.12-linux-J-R-tcp-reverse.json")
    assert t.runs.direction[0] == "reverse"
    assert set(_samples(t).role) == {"receiver"}
    assert "tcp_rtt.mean" not in _stats(t)  # max_rtt/min_rtt/mean_rtt are 0 on a -R client


def test_bidir_json_rtt_only_from_sending_sockets():
    t = _fx("iperf3--3.12-linux-J-bidir-tcp.json")
    stats = _stats(t)
    # end.streams[0].sender (socket 5, "sender": true): max_rtt 22, min_rtt 21, mean_rtt 21
    assert (stats["tcp_rtt.min"], stats["tcp_rtt.mean"], stats["tcp_rtt.max"]) == (21, 21, 22)
    assert "tcp_rtt_reverse.mean" not in stats  # socket 7 only received
    assert stats["throughput_receiver_reverse.mean"] == 100045965.25231534


def test_parallel_sum_is_the_total():
    t = _fx("iperf3--3.12-linux-P4-tcp-parallel.txt")
    stats = _stats(t)
    assert stats["throughput_receiver.mean"] == 401 * MBIT  # "[SUM] 0.00-2.00 ... 401 Mbits/sec"
    assert stats["retransmits.total"] == 1
    s = _samples(t)
    assert list(s.stream[:5]) == ["5", "7", "9", "12", "SUM"]
    assert _stats(t, source="computed")["throughput_sender.mean"] == (403 + 398) / 2 * MBIT


def test_omitted_and_self_contradicting_intervals():
    t = _fx("iperf3--3.12-linux-O2-tcp-omit.txt")
    s = _samples(t)
    # line 4 "(omitted)"; line 5 "1.00-1.00 sec  12.0 MBytes  50.3 Mbits/sec" lasts 2 s, not 0
    assert list(s.status) == ["omitted", "error", "ok"]
    assert _stats(t, source="computed")["throughput_sender.mean"] == 99.6 * MBIT
    j = _fx("iperf3--3.12-linux-J-O1-tcp-omit.json")
    assert list(_samples(j).status) == ["omitted", "omitted", "ok", "ok", "ok", "ok"]


def test_timestamps_prefixes_are_learnt():
    t = _fx("iperf3--3.12-linux-timestamps-tcp.txt")  # "Sat Nov 21 00:47:07 2026 Connecting..."
    assert t.runs.dst_ip[0] == "10.203.0.2" and t.runs.complete[0]
    u = _fx("iperf3--3.12-linux-timestamps-fmt-u-R-udp-reverse-loss.txt")
    # "2026-11-21 00:47:12 [  5]   0.00-2.00   sec  21.9 MBytes  92.0 Mbits/sec  0.006 ms
    #  1374/17261 (8%)  receiver"
    assert u.runs.direction[0] == "reverse" and u.runs.loss_pct[0] == 8
    s = _samples(u)
    assert (s.lost_packets[1], s.packets[1], s.jitter_us[1]) == (491, 8634, 6.0)


def test_verbose_text_version_time_cpu():
    t = _fx("iperf3--3.12-linux-V-tcp-verbose.txt")
    run = t.runs.iloc[0]
    assert run.tool_version == "3.12" and str(run.start_time) == "2026-11-21 00:47:13+00:00"
    assert run.msg_size_bytes == 131072
    stats = _stats(t)
    # "CPU Utilization: local/sender 2.2% (2.2%u/0.0%s), remote/receiver 0.4% (0.0%u/0.4%s)"
    assert (stats["cpu_host.total"], stats["cpu_remote.system"]) == (2.2, 0.4)


def test_server_output_is_a_second_run():
    t = _fx("iperf3--3.12-linux-get-server-output-tcp-server-text.txt")
    assert list(t.runs.role) == ["client", "server"]
    assert json.loads(t.runs.labels[1])["from"].startswith("server output")
    assert _stats(t, 1)["throughput_receiver.mean"] == 99.9 * MBIT
    j = _fx("iperf3--3.12-linux-get-server-output-u-udp-server-json.txt")
    assert list(j.runs.parser_variant) == ["text", "server-json"]
    assert j.runs.context[1] == "Server JSON output:"


def test_interrupted_client_keeps_intervals_not_the_zero_receiver():
    t = _fx("iperf3--3.12-linux-sigint-tcp-interrupted.txt")
    run = t.runs.iloc[0]
    assert not run.complete and "interrupt - the client has terminated" in run.warnings
    stats = _stats(t)
    assert "throughput_receiver.mean" not in stats  # "receiver  0.00 Bytes  0.00 bits/sec"
    assert stats["throughput_sender.mean"] == 100 * MBIT
    assert len(_samples(t)) == 3
    j = _fx("iperf3--3.12-linux-J-sigint-tcp-interrupted.json")
    assert not j.runs.complete[0] and "throughput_receiver.mean" not in _stats(j)


def test_truncated_outputs_keep_complete_intervals():
    t = _fx("iperf3--3.12-linux-head-n5-tcp-truncated.txt")
    assert not t.runs.complete[0] and len(_samples(t)) == 2
    j = _fx("iperf3--3.12-linux-J-head-c2000-tcp-truncated.json")
    assert not j.runs.complete[0]
    assert list(_samples(j).stream) == ["5", "SUM"]  # the second interval is cut in its sum


def test_blackout_loss():
    t = _fx("iperf3--3.12-linux-u-udp-blackout-loss.txt")
    s = _samples(t)
    assert (s.bytes[2], s.packets[2]) == (0, 0)  # "2.00-3.00 sec  0.00 Bytes  0.00 bits/sec  0"
    run = t.runs.iloc[0]
    assert (run.packets_sent, run.packets_received, run.loss_pct) == (17262, 17262 - 3975, 23)


def test_json_stream_and_newest_version():
    t = _fx("iperf3--3.18-linux-json-stream-P2-tcp.jsonl")
    run = t.runs.iloc[0]
    assert (run.parser_variant, run.tool_version, run.streams, run.complete) == (
        "json-stream", "3.18", 2, True)
    i = _fx("iperf3--3.18-linux-json-stream-sigint-tcp-interrupted.jsonl")
    assert not i.runs.complete[0]
    assert "interrupt - the client has terminated" in i.runs.warnings[0]


def test_server_json_log_two_tests_and_the_stop_document():
    t = _fx("iperf3--3.12-linux-s-J-server-two-tests.json")
    assert list(t.runs.protocol) == ["tcp", "udp"]
    assert list(t.runs.complete) == [True, True]  # the last document only says the server stopped
    assert "target_bitrate" in t.runs.warnings[0]  # 3.12 server repeats the key


@pytest.mark.parametrize("name", ["iperf3--3.12-linux-p5999-refused-error.txt",
                                  "iperf3--3.12-linux-J-p5999-refused-error.json"])
@pytest.mark.parametrize("strict", [True, False])
def test_error_only_output_is_a_parse_error_with_hint(name, strict):
    with pytest.raises(ParseError) as info:
        azlatency.read(FX / name, strict=strict)
    assert "unable to connect to server: Connection refused" in info.value.reason
    assert "iperf3 -s" in info.value.hint


# ---------------------------------------------------------------------------------------------
# broken JSON, in memory (the files stay byte-exact)


def _json_text() -> str:
    return (FX / "iperf3--3.12-linux-J-u-udp.json").read_text()


def test_nan_and_eaten_exponent_plus_are_repaired():
    text = _json_text()
    assert '"jitter_ms":\t0.023547744099689037' in text
    broken = text.replace('"jitter_ms":\t0.023547744099689037', '"jitter_ms":\tnan')
    broken = broken.replace('"bits_per_second":\t99954187.9012021', '"bits_per_second":\t9.99541e 07')
    t = azlatency.read(broken, tool="iperf3").validate()
    assert "repaired: exponent, nan" in t.runs.warnings[0]
    stats = _stats(t)
    assert stats["throughput_sender.mean"] == 9.99541e07
    assert "jitter.mean" not in stats  # nan is missing, not a number


def test_text_around_the_document():
    text = "warning: something before\n" + _json_text() + "iperf3: interrupt - the client has terminated\n"
    t = azlatency.read(text).validate()
    assert len(t.runs) == 1 and t.runs.parser_variant[0] == "json"
    assert "interrupt - the client has terminated" in t.runs.warnings[0]


def test_cut_json_keeps_every_complete_interval():
    text = (FX / "iperf3--3.12-linux-J-P4-tcp-parallel-dupkeys.json").read_text()
    counts = []
    for cut in range(len(text) // 10, len(text), len(text) // 10):
        try:
            t = azlatency.read(text[:cut], tool="iperf3")
        except ParseError:
            counts.append(None)
            continue
        t.validate()
        assert not t.runs.complete[0]
        counts.append(len(t.samples))
    kept = [c for c in counts if c is not None]
    assert kept == sorted(kept) and kept[-1] == 10  # two intervals x (4 streams + SUM)


CUT_FILES = ["iperf3--3.12-linux-J-tcp.json", "iperf3--3.12-linux-J-u-udp.json",
             "iperf3--3.12-linux-J-bidir-tcp.json", "iperf3--3.12-linux-s-J-server-two-tests.json",
             "iperf3--3.18-linux-json-stream-u-bidir-udp.jsonl"]


@pytest.mark.parametrize("name", CUT_FILES)
def test_cuts_give_tables_or_parse_error(name):
    """Cuts at eight evenly spaced bytes: valid tables or a ParseError, never anything else.
    (tests/test_properties.py cuts every fixture at random; these cuts are the same each run.)"""
    data = (FX / name).read_bytes()
    outcomes = []
    for cut in range(len(data) // 9, len(data), len(data) // 9):
        try:
            tables = azlatency.read(data[:cut], source=name, strict=False)
        except ParseError:
            outcomes.append("error")
            continue
        tables.validate()
        outcomes.append("incomplete" if not tables.runs.complete.all() else "complete")
    assert "incomplete" in outcomes  # a cut after the first interval keeps what was measured


# ---------------------------------------------------------------------------------------------
# strictness, detection


def test_bad_number_is_located_or_skipped():
    text = (FX / "iperf3--3.12-linux-c-tcp.txt").read_text()
    broken = text.replace("11.9 MBytes  99.6", "11.x MBytes  99.6")
    with pytest.raises(ParseError) as info:
        azlatency.read(broken, tool="iperf3")
    assert info.value.line_no == 5 and "transfer" in info.value.reason
    t = azlatency.read(broken, tool="iperf3", strict=False).validate()
    assert "line 5 skipped" in t.runs.warnings[0] and len(t.samples) == 1


def test_count_beyond_64_bits_is_a_parse_error():
    text = (FX / "iperf3--3.12-linux-c-tcp.txt").read_text()
    broken = text.replace("    2             sender", "99999999999999999999999 sender")
    with pytest.raises(ParseError):
        azlatency.read(broken, tool="iperf3")


def test_whole_file_claims_only_iperf3_json():
    assert iperf3.whole_file((FX / "iperf3--3.12-linux-J-tcp.json").read_text()[:4096])
    assert iperf3.whole_file((FX / "iperf3--3.18-linux-json-stream-P2-tcp.jsonl").read_text())
    assert not iperf3.whole_file((FX / "iperf3--3.12-linux-c-tcp.txt").read_text())
    assert not iperf3.whole_file('{\n  "fio version" : "fio-3.33",\n  "jobs" : []\n}\n')


def test_locate_leaves_other_tools_alone():
    lines = (FX / "iperf3--3.12-linux-c-tcp.txt").read_text().split("\n")
    doc = ["# notes", "```", "# iperf3 -c 10.203.0.2 -t 2", *lines[:-1], "```", "",
           "[ 0] IP = 10.0.1.4        PORT = 12345 # TCP", "sockperf: Summary: Latency is 1 usec"]
    spans = iperf3.locate(doc)
    assert [(s.start, s.end) for s in spans] == [(2, 3 + len(lines) - 1)]  # command to "iperf Done."
