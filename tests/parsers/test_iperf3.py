"""iperf3: the seeds' tables, every corpus file and our captures, checked value by value.

The fixture walker compares every capture with its reviewed ``.expected.json``; here the
figures people quote are asserted against the line they were read from, and the rules
(sides, flows, zeros that mean "not reported", errors, broken JSON) are pinned down.
"""

from __future__ import annotations

import json

import pandas as pd
import pytest

import azlatency
from azlatency.errors import ParseError
from azlatency.parsers import iperf3
from tests.conftest import FIXTURES, corpus, needs_shared, seed
from tests.parsers._joined import assert_same_reading, joined

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
            s.bits_per_second[2:].mean()
        )  # the omitted intervals are left out


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
    for k, (dst, src, host) in enumerate(
        [("10.0.1.4", "10.0.1.5", "malzonka02"), ("10.0.1.6", "10.0.1.7", "malzonka04")]
    ):
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
    assert (run.tool_version, run.parser_variant, run.role, run.streams) == (
        "3.0.11",
        "json",
        "client",
        1,
    )
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
        "udp",
        False,
        "ping.online.net",
        "62.210.18.40",
    )
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
    assert stats["loss.mean"] == 77 and stats["jitter.rfc3550"] == pytest.approx(236)
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
    assert list(t.runs.direction) == [
        "forward",
        "forward",
        "reverse",
        "forward",
        "forward",
        "bidir",
    ]
    assert list(t.runs.protocol) == ["tcp", "udp", "tcp", "tcp", "tcp", "tcp"]
    bidir = _stats(t, 5)
    # "[  5][RX-S] ... receiver" (client-to-server) and "[  8][TX-S] ... 0  sender"
    assert {
        "throughput_receiver.mean",
        "throughput_sender_reverse.mean",
        "retransmits_reverse.total",
    } <= set(bidir)
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


@pytest.mark.parametrize("at", [1, 20])  # before every stamped line; among them
def test_a_foreign_line_teaches_no_timestamps(at):
    """A syslog line inside an output ('Nov 28 08:00:01 vm1 systemd[1]: ...', its '[1]' like
    iperf3's '[  5]') was taken for a --timestamps prefix: the runs were labelled timestamped
    without a word.  A prefix is learnt only where half the lines open with it."""
    foreign = "Nov 28 08:00:01 vm1 systemd[1]: Started Session 42 of user azureuser."
    for name, stamped in [
        ("iperf3--3.12-linux-s-server-u-udp-blackout-loss.txt", False),
        ("iperf3--3.12-linux-timestamps-tcp.txt", True),
    ]:
        lines = (FIXTURES / "iperf3" / name).read_text("utf-8").split("\n")
        t = azlatency.read("\n".join([*lines[:at], foreign, *lines[at:]]), strict=False)
        labels = [json.loads(x) if isinstance(x, str) else {} for x in t.runs.labels]
        assert [x.get("timestamps", False) for x in labels] == [stamped] * len(t.runs), name
        assert t.runs.complete.all()


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
    # "Server JSON output:" is iperf3's own line, inside the client's output: not prose above
    # the server's run (the reader's outline counts a tool's output as fenced).
    assert j.runs.line_start[1] == 12 and pd.isna(j.runs.context[1])


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
        "json-stream",
        "3.18",
        2,
        True,
    )
    i = _fx("iperf3--3.18-linux-json-stream-sigint-tcp-interrupted.jsonl")
    assert not i.runs.complete[0]
    assert "interrupt - the client has terminated" in i.runs.warnings[0]


def test_server_json_log_two_tests_and_the_stop_document():
    t = _fx("iperf3--3.12-linux-s-J-server-two-tests.json")
    assert list(t.runs.protocol) == ["tcp", "udp"]
    assert list(t.runs.complete) == [True, True]  # the last document only says the server stopped
    assert "target_bitrate" in t.runs.warnings[0]  # 3.12 server repeats the key


@pytest.mark.parametrize(
    "name",
    ["iperf3--3.12-linux-p5999-refused-error.txt", "iperf3--3.12-linux-J-p5999-refused-error.json"],
)
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
    broken = broken.replace(
        '"bits_per_second":\t99954187.9012021', '"bits_per_second":\t9.99541e 07'
    )
    t = azlatency.read(broken, tool="iperf3").validate()
    assert "repaired: exponent, nan" in t.runs.warnings[0]
    stats = _stats(t)
    assert stats["throughput_sender.mean"] == 9.99541e07
    assert "jitter.rfc3550" not in stats  # nan is missing, not a number


def test_text_around_the_document():
    text = (
        "warning: something before\n"
        + _json_text()
        + "iperf3: interrupt - the client has terminated\n"
    )
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


CUT_FILES = [
    "iperf3--3.12-linux-J-tcp.json",
    "iperf3--3.12-linux-J-u-udp.json",
    "iperf3--3.12-linux-J-bidir-tcp.json",
    "iperf3--3.12-linux-s-J-server-two-tests.json",
    "iperf3--3.18-linux-json-stream-u-bidir-udp.jsonl",
]


@pytest.mark.parametrize("name", CUT_FILES)
def test_cuts_give_tables_or_parse_error(name):
    """Cuts at eight evenly spaced bytes: valid tables or a ParseError, never anything else.
    (tests/parsers/test_properties.py cuts every fixture at random; these cuts are the same each run.)"""
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
        azlatency.read(broken, tool="iperf3", strict=True)
    assert info.value.line_no == 5 and "transfer" in info.value.reason
    t = azlatency.read(broken, tool="iperf3", strict=False).validate()
    assert "line 5 skipped" in t.runs.warnings[0] and len(t.samples) == 1


def test_count_beyond_64_bits_is_a_parse_error():
    text = (FX / "iperf3--3.12-linux-c-tcp.txt").read_text()
    broken = text.replace("    2             sender", "99999999999999999999999 sender")
    with pytest.raises(ParseError):
        azlatency.read(broken, tool="iperf3", strict=True)


def test_whole_file_claims_only_iperf3_json():
    assert iperf3.whole_file((FX / "iperf3--3.12-linux-J-tcp.json").read_text()[:4096])
    assert iperf3.whole_file((FX / "iperf3--3.18-linux-json-stream-P2-tcp.jsonl").read_text())
    assert not iperf3.whole_file((FX / "iperf3--3.12-linux-c-tcp.txt").read_text())
    assert not iperf3.whole_file('{\n  "fio version" : "fio-3.33",\n  "jobs" : []\n}\n')


def test_locate_leaves_other_tools_alone():
    lines = (FX / "iperf3--3.12-linux-c-tcp.txt").read_text().split("\n")
    doc = [
        "# notes",
        "```",
        "# iperf3 -c 10.203.0.2 -t 2",
        *lines[:-1],
        "```",
        "",
        "[ 0] IP = 10.0.1.4        PORT = 12345 # TCP",
        "sockperf: Summary: Latency is 1 usec",
    ]
    spans = iperf3.locate(doc)
    assert [(s.start, s.end) for s in spans] == [
        (2, 3 + len(lines) - 1)
    ]  # command to "iperf Done."


# ---------------------------------------------------------------------------------------------
# cut short, pasted twice (tests/_metamorphic.py finds these; here the readings are pinned)


def _cut(name: str, keep: int) -> str:
    """The fixture's first ``keep`` lines."""
    return "\n".join((FX / name).read_text().split("\n")[:keep])


def test_summary_cut_after_the_sender_line_is_not_complete():
    # c-tcp line 8 "[  5]   0.00-2.00 sec 23.9 MBytes 100 Mbits/sec 2 sender"; line 9, the
    # receiver's, and "iperf Done." are gone
    for strict in (True, False):
        t = azlatency.read(_cut("iperf3--3.12-linux-c-tcp.txt", 8), strict=strict).validate()
        run = t.runs.iloc[0]
        assert not run.complete
        assert run.warnings == (
            "the end-of-test summary stops at line 8: no [5] receiver line (cut short?)"
        )
        assert _stats(t)["throughput_sender.mean"] == 100 * MBIT
    whole = _fx("iperf3--3.12-linux-c-tcp.txt")
    assert whole.runs.complete[0] and whole.runs.warnings.isna()[0]


def test_parallel_summary_cut_names_what_is_missing():
    name = "iperf3--3.12-linux-P4-tcp-parallel.txt"
    run = azlatency.read(_cut(name, 20)).runs.iloc[0]  # line 20: "[  5] ... 0 sender"
    assert not run.complete
    assert run.warnings == (
        "the end-of-test summary stops at line 20: no [5] receiver, "
        "[7] sender, [7] receiver, [9] sender and 5 more line (cut short?)"
    )
    run = azlatency.read(_cut(name, 28)).runs.iloc[0]  # "[SUM] ... 401 Mbits/sec 1 sender"
    assert not run.complete and "no [SUM] receiver line" in run.warnings
    bidir = azlatency.read(_cut("iperf3--3.12-linux-bidir-tcp.txt", 12)).runs.iloc[0]
    assert not bidir.complete
    assert "no [7][RX-C] sender, [7][RX-C] receiver line" in bidir.warnings


def test_server_summary_cut_in_a_parallel_test():
    # server test #4: four "receiver" lines and "[SUM] ... receiver" (lines 56-60); cut at 58
    t = azlatency.read(_cut("iperf3--3.12-linux-s-server-six-tests.txt", 58)).validate()
    assert list(t.runs.complete) == [True, True, True, False]
    assert t.runs.warnings[3] == (
        "the end-of-test summary stops at line 58: no [13] receiver, "
        "[SUM] receiver line (cut short?)"
    )


def test_summary_line_cut_before_its_label():
    # c-tcp cut inside line 9, before its "receiver": "[  5]   0.00-2.00 ... 100 Mbits/sec   "
    whole = (FX / "iperf3--3.12-linux-c-tcp.txt").read_text()
    text = whole[: whole.rindex("receiver")]
    assert text.count("\n") == 8 and text.endswith("100 Mbits/sec                  ")
    with pytest.raises(ParseError) as info:
        azlatency.read(text, strict=True)
    assert info.value.line_no == 9 and "without 'sender'/'receiver'" in info.value.reason
    run = azlatency.read(text, strict=False).runs.iloc[0]
    assert not run.complete and "line 9 skipped" in run.warnings
    assert "no [5] receiver line" in run.warnings


def test_verbose_and_old_udp_clients_need_iperf_done():
    # -V: "CPU Utilization" (line 19) and the congestion lines come before "iperf Done." (23)
    run = azlatency.read(_cut("iperf3--3.12-linux-V-tcp-verbose.txt", 19)).runs.iloc[0]
    assert not run.complete
    assert run.warnings.startswith("no 'iperf Done.' after line 18 (-V prints CPU")
    assert azlatency.read(_cut("iperf3--3.12-linux-V-tcp-verbose.txt", 23)).runs.complete[0]


@needs_shared
def test_old_udp_client_cut_before_its_interrupt_line():
    # freekds: the unlabelled 3.0/3.1 summary (line 384) and "Sent 6041 datagrams" read the same
    # whether the test ended or was interrupted; line 386 says "interrupt"
    path = corpus("iperf3", "iperf3--text-udp-client-interrupted--freekds-logvisualizer.txt")
    lines = path.read_text().split("\n")
    assert lines[385] == "iperf3: interrupt - the client has terminated"
    run = azlatency.read("\n".join(lines[:385])).runs.iloc[0]
    assert not run.complete
    assert run.warnings.startswith("no 'iperf Done.' after line 384 (an interrupted 3.0/3.1")


@needs_shared
def test_summary_only_fragment_cut_after_a_sender_line():
    path = corpus("iperf3", "iperf3--text-udp-reverse-timestamps-summary-only--zeandon.txt")
    lines = path.read_text().split("\n")
    t = azlatency.read("\n".join(lines[:9]), strict=False)  # line 9: the 2nd test's sender
    assert list(t.runs.complete) == [True, False]
    assert "no [5] receiver line" in t.runs.warnings[1]


def test_a_run_starts_at_the_lines_it_reads():
    # -V: "iperf 3.12" (line 1) and "Time:" (line 4) come before "Connecting to host" (line 5)
    v = _fx("iperf3--3.12-linux-V-tcp-verbose.txt")
    assert (v.runs.line_start[0], v.runs.line_end[0]) == (1, 23)
    # --get-server-output: the server's run starts at "Server output:" (line 11)
    s = _fx("iperf3--3.12-linux-get-server-output-tcp-server-text.txt")
    assert list(s.runs.line_start) == [1, 11] and list(s.runs.line_end) == [9, 22]
    # so pasting a run's lines twice reads as that run once more
    for name, run in (
        ("iperf3--3.12-linux-V-tcp-verbose.txt", 0),
        ("iperf3--3.12-linux-get-server-output-tcp-server-text.txt", 1),
    ):
        lines = (FX / name).read_text().split("\n")
        t0 = _fx(name)
        a, b = t0.runs.line_start[run] - 1, t0.runs.line_end[run]
        t = azlatency.read("\n".join(lines[:b] + [""] + lines[a:b] + lines[b:]))
        assert len(t.runs) == len(t0.runs) + 1
        assert _stats(t, len(t.runs) - 1) == _stats(t0, run)
        assert t.runs.labels.iloc[-1] == t0.runs.labels[run]


def test_a_json_document_pasted_twice_warns():
    name = "iperf3--3.12-linux-J-get-server-output-tcp-server-text.json"
    text = (FX / name).read_text()
    t = azlatency.read(text + "\n" + text).validate()
    assert len(t.runs) == 4 and t.runs.warnings[:2].isna().all()
    assert t.runs.warnings[2].endswith("a repeated copy, read again")
    assert t.runs.warnings[2].startswith("line 152: the same test as the document at line 1")
    # a client's and a server's document of one test share the cookie: not a copy
    name = "iperf3--3.12-linux-J-get-server-output-tcp-server-json.json"
    client = (FX / name).read_text()
    server = json.loads(client)["server_output_json"]  # the server's -J of the same test
    assert server["start"]["cookie"] == json.loads(client)["start"]["cookie"]
    both = azlatency.read(client + "\n" + json.dumps(server, indent="\t") + "\n").validate()
    assert list(both.runs.role) == ["client", "server", "server"]
    assert not both.runs.warnings.str.contains("repeated copy", na=False).any()


# ---------------------------------------------------------------------------------------------
# real inputs captured on 2026-11-25 (SOURCES.md): ^C under -J, -d, iperf 2


def test_json_client_interrupted_by_sigint():
    t = _fx("iperf3--3.12-linux-J-sigint-u-udp-interrupted.json")
    run = t.runs.iloc[0]
    assert (len(t.runs), run.complete, run.protocol, run.duration_s) == (1, False, "udp", 2.299394)
    assert run.warnings.endswith("iperf3: interrupt - the client has terminated")
    assert "the receiver side printed 0 bytes" in run.warnings
    stats = _stats(t)  # "sum_sent": bits_per_second 50048497.995558828, packets 439
    assert stats["throughput_sender.mean"] == pytest.approx(50048497.995558828)
    assert stats["datagrams_sent.total"] == 439 and "throughput_receiver.mean" not in stats
    assert run.packets_sent == 439
    # ^C at 0.5 s, inside the first interval: "end": 0.489259, "bytes": 3145728
    e = _fx("iperf3--3.12-linux-J-sigint-early-tcp-interrupted.json")
    run = e.runs.iloc[0]
    assert (run.complete, run.duration_s) == (False, 0.489259)
    assert "interrupt - the client has terminated" in run.warnings
    s = _samples(e)
    assert list(s.end_s) == [0.489259, 0.489259] and list(s.bytes) == [3145728, 3145728]
    assert s.bits_per_second[0] == pytest.approx(51436608.756828249)
    assert _stats(e)["throughput_sender.mean"] == pytest.approx(51436609.239686958)


_OWN = ("Connecting to host", "[", "- - -", "iperf Done")


@pytest.mark.parametrize(
    "name, debug_lines, last",
    [
        ("iperf3--3.12-linux-d-tcp-debug.txt", 250, 254),
        ("iperf3--3.12-linux-d-u-udp-debug.txt", 64, 68),
    ],
)
def test_debug_lines_change_nothing_but_a_warning(name, debug_lines, last):
    text = (FX / name).read_text()
    plain = "\n".join(x for x in text.split("\n") if x.startswith(_OWN) or not x.strip())
    for strict in (True, False):
        t = azlatency.read(text, source=name, strict=strict).validate()
        p = azlatency.read(plain, source=name, strict=strict).validate()
        assert len(t.runs) == 1 and t.runs.complete[0]
        assert t.runs.warnings[0] == (
            f"{debug_lines} iperf3 -d (debug) lines not read (line 1 "
            f"to line {last}, between the output's own)"
        )
        assert p.runs.warnings.isna()[0]
        assert _stats(t) == _stats(p) and _stats(t, source="computed") == _stats(
            p, source="computed"
        )
        cols = ["seq", "stream", "start_s", "end_s", "bytes", "bits_per_second"]
        assert _samples(t)[cols].equals(_samples(p)[cols])


def test_debug_values():
    t = _fx("iperf3--3.12-linux-d-tcp-debug.txt")
    # line 24 "[  5]   0.00-1.00 sec 12.0 MBytes 101 Mbits/sec 0 1.12 MBytes", line 68 (of the
    # file) "[  5]   0.00-2.00 sec 23.9 MBytes 100 Mbits/sec receiver"
    assert list(_samples(t).bits_per_second) == [101 * MBIT, 99.6 * MBIT]
    assert _stats(t)["throughput_receiver.mean"] == 100 * MBIT
    u = _fx("iperf3--3.12-linux-d-u-udp-debug.txt")
    # "[  5]   0.00-2.00 sec 256 KBytes 1.05 Mbits/sec 0.010 ms 0/8 (0%) receiver"
    stats = _stats(u)
    assert (stats["jitter.rfc3550"], stats["datagrams.total"]) == (10.0, 8)
    assert stats["throughput_receiver.mean"] == 1.05 * MBIT


IPERF2 = FX.parent / "iperf2"  # iperf 2 captures (they were here until issue 40)


@pytest.mark.parametrize(
    "name, line, what",
    [
        (
            "iperf2--2.1.8-linux-c-i1-tcp.txt",
            2,
            "'Client connecting to 127.0.0.1, TCP port 5621'",
        ),
        (
            "iperf2--2.1.8-linux-c-i1-u-udp.txt",
            2,
            "'Client connecting to 127.0.0.1, UDP port 5622'",
        ),
        (
            "iperf2--2.1.8-linux-s-two-tests-tcp.txt",
            2,
            "'Server listening on TCP port 5621'",
        ),
    ],
)
@pytest.mark.parametrize("strict", [True, False])
def test_iperf2_output_is_refused(name, line, what, strict):
    # Asked to read iperf 2 as iperf3, the iperf3 parser refuses at the banner.
    with pytest.raises(ParseError) as info:
        azlatency.read(IPERF2 / name, strict=strict, tool="iperf3")
    assert info.value.line_no == line
    assert info.value.reason == f"iperf 2 output, not iperf3: {what}"
    assert "iperf2" in info.value.hint
    # Found by itself, it is the iperf2 parser's (issue 40).
    assert set(azlatency.read(IPERF2 / name, strict=strict).runs["tool"]) == {"iperf2"}


def test_iperf2_intervals_alone_are_refused_by_their_times():
    lines = (IPERF2 / "iperf2--2.1.8-linux-c-i1-tcp.txt").read_text().split("\n")
    assert lines[6] == "[  1] 0.0000-1.0000 sec   550 MBytes  4.61 Gbits/sec"
    with pytest.raises(ParseError) as info:
        azlatency.read("\n".join(lines[5:9]), tool="iperf3", strict=False)
    assert info.value.line_no == 2 and "4 decimals" in info.value.reason
    # Found by itself, the fragment is iperf 2's.
    assert set(azlatency.read("\n".join(lines[5:9]), strict=False).runs["tool"]) == {"iperf2"}


def test_iperf2_next_to_iperf3_is_read_as_iperf2():
    # Before issue 40 the iperf 2 output was refused at its line 16; now each is its tool's.
    iperf3_text = (FX / "iperf3--3.12-linux-c-tcp.txt").read_text()
    iperf2_text = (IPERF2 / "iperf2--2.1.8-linux-c-i1-tcp.txt").read_text()
    doc = iperf3_text + "\nand with iperf 2:\n\n" + iperf2_text
    for strict in (True, False):
        t = azlatency.read(doc, strict=strict)
        assert list(t.runs["tool"]) == ["iperf3", "iperf2"] and t.runs["complete"].all()
        assert list(t.runs["line_start"]) == [1, 15] and not t.problems


# nokia/moler, moler/cmd/unix/iperf3.py (commit 6371ae24), COMMAND_OUTPUT_tcp_ipv6_server: an
# iperf 3.6 server run with -V; moler's expected values give 25.7 GBytes at 22.0 Gbits/sec.
MOLER_36_SERVER = """\
xyz@debian:~$ iperf3 -s -V -p 5901 -i 1.0
iperf 3.6
Linux debian
-----------------------------------------------------------
Server listening on 5901
-----------------------------------------------------------
Time: Wed, 26 Jul 2023 14:07:18 GMT
Accepted connection from 127.0.0.1, port 37974
      Cookie: abcd
      TCP MSS: 0 (default)
[  5] local 127.0.0.1 port 5901 connected to 127.0.0.1 port 37988
Starting Test: protocol: TCP, 1 streams, 131072 byte blocks, omitting 0 seconds, 10 second test, tos 0
[ ID] Interval           Transfer     Bitrate
[  5]   0.00-1.00   sec  2.26 GBytes  19.4 Gbits/sec
[  5]   1.00-2.00   sec  2.49 GBytes  21.4 Gbits/sec
[  5]   2.00-3.00   sec  2.41 GBytes  20.7 Gbits/sec
[  5]   3.00-4.00   sec  2.51 GBytes  21.5 Gbits/sec
[  5]   4.00-5.00   sec  2.99 GBytes  25.7 Gbits/sec
[  5]   5.00-6.00   sec  2.52 GBytes  21.6 Gbits/sec
[  5]   6.00-7.00   sec  2.52 GBytes  21.7 Gbits/sec
[  5]   7.00-8.00   sec  2.50 GBytes  21.5 Gbits/sec
[  5]   8.00-9.00   sec  2.54 GBytes  21.9 Gbits/sec
[  5]   9.00-10.00  sec  2.89 GBytes  24.8 Gbits/sec
[  5]  10.00-10.04  sec  71.2 MBytes  14.4 Gbits/sec
- - - - - - - - - - - - - - - - - - - - - - - - -
Test Complete. Summary Results:
[ ID] Interval           Transfer     Bitrate
[  5] (sender statistics not available)
[  5]   0.00-10.04  sec  25.7 GBytes  22.0 Gbits/sec                  receiver
CPU Utilization: local/receiver 59.8% (3.9%u/55.9%s), remote/sender 0.0% (0.0%u/0.0%s)
rcv_tcp_congestion cubic
iperf 3.6
Linux debian
-----------------------------------------------------------
Server listening on 5901
-----------------------------------------------------------
xyz@debian:~$
"""


def test_a_server_without_the_senders_statistics_is_one_run():
    """Issue 26 case 7: iperf 3.6 -V server output with '(sender statistics not available)'.
    One run whose receiver summary is read; the placeholder is known (no 'not read'); the
    remote CPU it prints as 0.0 % is not stored as a fact (as in JSON: all-zero remote CPU is
    iperf3's "not known")."""
    t = azlatency.read(MOLER_36_SERVER.encode(), source="moler")
    (run,) = t.runs.itertuples()
    assert (run.role, run.complete, run.tool_version) == ("server", True, "3.6")
    assert json.loads(run.labels)["sender_statistics"] == "not available"
    assert pd.isna(run.warnings)  # the placeholder is iperf3's own line
    printed = t.summaries[t.summaries["source"] == "reported"]
    s = printed.set_index(["metric", "stat"])["value"]
    assert s["throughput_receiver", "mean"] == 22.0e9
    assert s["transfer_receiver", "total"] == pytest.approx(25.7 * 2**30, rel=1e-3)
    assert s["cpu_host", "total"] == 59.8 and "cpu_remote" not in s.index.get_level_values(0)
    assert len(t.samples) == 11


@needs_shared
def test_old_udp_client_without_its_connecting_line_keeps_its_summary():
    """Issue 26 case 7: an old (3.0/3.1) UDP client log without 'Connecting to host' lost its
    summary, jitter and loss (no role, so no side for the unlabelled line).  The sender says
    so itself: 'Sent 6041 datagrams' and a Total Datagrams interval column.  freekds' log with
    that line left out, once interrupted as captured and once ending in 'iperf Done.'."""
    path = corpus("iperf3", "iperf3--text-udp-client-interrupted--freekds-logvisualizer.txt")
    lines = path.read_text().split("\n")
    assert lines[0].startswith("Connecting to host ping.online.net")
    cut = azlatency.read("\n".join(lines[1:]).encode(), source="cut")
    s = cut.summaries.set_index(["metric", "stat", "source"])["value"]
    # "[  5]   0.00-377.55 sec  47.2 MBytes  1.05 Mbits/sec  0.000 ms  0/6041 (0%)"
    assert s["throughput_sender", "mean", "reported"] == 1.05e6
    assert s["datagrams_sent", "total", "reported"] == 6041
    assert "receiver's, which an interrupted client never gets" in cut.runs["warnings"][0]
    done = lines[1 : lines.index("[  5] Sent 6041 datagrams") + 1] + ["iperf Done."]
    whole = azlatency.read("\n".join(done).encode(), source="done")
    s = whole.summaries.set_index(["metric", "stat", "source"])["value"]
    assert whole.runs["complete"][0]
    assert s["jitter", "rfc3550", "reported"] == 0 and s["datagrams", "total", "reported"] == 6041
    assert s["lost_datagrams", "total", "reported"] == 0


# --- issue 38: real shapes ------------------------------------------------------------------


@pytest.mark.parametrize("strict", [True, False])
def test_json_after_ctrl_c_on_the_same_line(strict):
    """A terminal echoes Ctrl+C as '^C' and iperf3's -J document starts right after it:
    '^C{' (captured through a pty).  No tool output was found before."""
    t = azlatency.read(FX / "iperf3--3.12-linux-J-pty-ctrl-c-tcp-interrupted.txt", strict=strict)
    run = t.runs.iloc[0]
    assert (run.parser_variant, run.role, run.complete) == ("json", "client", False)
    assert run.duration_s == 2.607389
    assert "line 1: stopped with Ctrl+C ('^C' before the document)" in run.warnings
    s = t.summaries.set_index(["metric", "stat"])["value"]
    assert s["transfer_sender", "total"] == 1136787456
    assert s["retransmits", "total"] == 855


@pytest.mark.parametrize(
    "name",
    [
        "iperf3--3.12-linux-u-udp-total-loss-receiver-zero.txt",
        "iperf3--3.12-linux-J-u-udp-total-loss-receiver-zero.json",
    ],
)
def test_a_finished_test_whose_receiver_got_nothing_stores_zero(name):
    """'0.00 Bytes  0.00 bits/sec ... 0/0 (0%)  receiver' then 'iperf Done.': the receiver
    measured 0 (it was read as 'not reported').  The loss is 100 % of the 272 sent, not the
    printed 0/0 (0%)."""
    t = azlatency.read(FX / name, strict=True)
    run = t.runs.iloc[0]
    assert bool(run.complete)
    s = t.summaries.set_index(["metric", "stat", "source"])["value"]
    assert s["throughput_receiver", "mean", "reported"] == 0
    assert s["transfer_receiver", "total", "reported"] == 0
    assert ("loss", "mean", "reported") not in s.index
    assert (run.packets_sent, run.packets_received, run.loss_pct) == (272, 0, 100.0)
    assert "the receiver side measured 0 bytes: stored as 0" in run.warnings


def test_an_interrupted_clients_zero_is_still_not_read():
    t = azlatency.read(FX / "iperf3--3.12-linux-J-pty-ctrl-c-tcp-interrupted.txt")
    assert "throughput_receiver" not in set(t.summaries.metric)


@pytest.mark.parametrize("strict", [True, False])
def test_invalid_json_is_a_located_error(strict):
    """A comma taken out of a real -J document: 'invalid JSON' at its line in both modes, not
    'no iperf3 test found' (nor, lenient, the next lines dropped as 'stray')."""
    lines = (FX / "iperf3--3.12-linux-J-tcp.json").read_text().split("\n")
    lines[20] = lines[20].rstrip(",")
    with pytest.raises(ParseError, match=r"invalid JSON: Expecting ',' delimiter") as info:
        azlatency.read("\n".join(lines), source="x.json", strict=strict)
    assert info.value.line_no == 22


@pytest.mark.parametrize(
    "at, line",
    [(7, "Connection reset by peer"), (7, "[ 1234.567890] mlx5_core 0001:00:02.0 eth1: Link up")],
)
def test_a_foreign_line_between_separator_and_summary_keeps_one_run(at, line):
    """'Connection reset by peer' between the '- - -' separator and the summary header made
    the summary a second test (two runs, the first 'no end-of-test summary')."""
    lines = (FX / "iperf3--3.12-linux-c-tcp.txt").read_text().split("\n")
    whole = azlatency.read("\n".join(lines))
    t = azlatency.read("\n".join(lines[: at - 1] + [line] + lines[at - 1 :]))
    assert len(t.runs) == 1 and bool(t.runs.complete.iloc[0])
    assert f"line {at} not read" in t.runs.warnings.iloc[0]
    cols = ["metric", "stat", "value"]
    assert t.summaries[cols].equals(whole.summaries[cols])


def test_two_titled_clients_interleaved_are_two_runs():
    # "s1:  [  5]   0.00-3.00   sec  2.31 GBytes  6.60 Gbits/sec  1305  sender" and "s2:  [  5]
    # 0.00-3.00   sec  2.54 GBytes  7.29 Gbits/sec  667  sender", their lines interleaved
    t = _fx("iperf3--3.12-linux-T-two-clients-interleaved.txt")
    assert list(t.runs.port) == [6701, 6702] and t.runs.complete.all()
    assert list(t.runs.labels) == ['{"title": "s1"}', '{"title": "s2"}']
    assert t.runs.warnings.isna().all()
    s1, s2 = _stats(t, 0), _stats(t, 1)
    assert (s1["throughput_sender.mean"], s2["throughput_sender.mean"]) == (6.60e9, 7.29e9)
    # s1's intervals only: 8.70, 6.33, 4.77 Gbits/sec
    s1_rows = t.samples[(t.samples.run_id == t.runs.run_id[0]) & (t.samples.kind == "interval")]
    assert list(s1_rows.bits_per_second) == [8.70e9, 6.33e9, 4.77e9]


@pytest.mark.parametrize("strict", [True, False])
@pytest.mark.parametrize(
    ("name", "first"),
    [
        # the banner and the connected line; the header and the first interval
        ("iperf3--3.12-linux-c-tcp.txt", "Connecting to host"),
        ("iperf3--3.12-linux-c-tcp.txt", "[ ID] Interval"),
        # -V: the MSS line and 'Time: ...' (the start time was lost); the connection and
        # 'Starting Test: protocol: TCP, ...'
        ("iperf3--3.12-linux-V-tcp-verbose.txt", "Control connection MSS"),
        ("iperf3--3.12-linux-V-tcp-verbose.txt", "[  5] local"),
        # --timestamps: the second line's stamp stood between the two (it went with the first)
        (
            "iperf3--3.12-linux-timestamps-fmt-u-R-udp-reverse-loss.txt",
            "2026-11-21 00:47:10 Reverse",
        ),
        ("iperf3--3.12-linux-timestamps-tcp.txt", "Sat Nov 21 00:47:08 2026 [ ID]"),
    ],
)
def test_iperf3_lines_run_together_are_read_one_by_one(name, first, strict):
    """A lost line break joins two of iperf3's lines ('Connecting to host 10.203.0.2, port
    5201[  5] local ...'): the second was lost without a word (a study joining adjacent
    lines of every fixture).  Both are read, and the run names the line."""
    text = (FX / name).read_text(encoding="utf-8")
    bad, i = joined(text, first)
    base, got = azlatency.read(text, strict=strict), azlatency.read(bad, strict=strict)
    assert_same_reading(base, got, ("src_ip", "dst_ip", "port", "streams", "start_time"))
    assert got.runs["msg_size_bytes"].equals(base.runs["msg_size_bytes"])
    said = "; ".join(got.runs["warnings"].dropna())
    assert f"line {i + 1}: 2 of iperf3's lines run together (line breaks lost)" in said


@pytest.mark.parametrize("strict", [True, False])
def test_a_json_string_wrapped_over_two_lines_is_read(strict):
    """A -J document copied from a terminal or a mail client that wrapped its long lines
    breaks 'system_info' over two lines: a line break inside a string is no JSON, and the
    whole file was refused in both modes (a study wrapping long lines at 72 columns, 23
    iperf3 files).  The document is read with the string as it stands, and the line named."""
    text = (FX / "iperf3--3.12-linux-J-tcp.json").read_text(encoding="utf-8")
    at = text.index("PREEMPT_DYNAMIC @0 ") + len("PREEMPT_DYNAMIC @0")
    wrapped = text[:at] + "\n" + text[at + 1 :]
    base, got = azlatency.read(text), azlatency.read(wrapped, strict=strict)
    assert got.samples.drop(columns="run_id").equals(base.samples.drop(columns="run_id"))
    assert got.summaries.drop(columns="run_id").equals(base.summaries.drop(columns="run_id"))
    assert got.runs["warnings"].tolist() == [
        "line 11: a string broken over two lines (a wrapped copy?): read as one"
    ]
