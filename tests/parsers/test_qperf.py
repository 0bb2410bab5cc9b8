"""qperf: values read off real outputs (seed 001 and our captures), units, sweeps, errors."""

from __future__ import annotations

import json

import pandas as pd
import pytest

import azlatency
from azlatency.errors import ParseError
from azlatency.parsers import qperf
from azlatency.parsers.qperf.command import default_msg_size, parse_command, size_of, time_of
from tests.conftest import FIXTURES, needs_shared, seed
from tests.parsers._joined import assert_same_reading, joined

QP = FIXTURES / "qperf"


def _read(name: str, **kw):
    return azlatency.read(QP / name, **kw)


def _summary(tables, run: int, metric: str, stat: str = "mean"):
    s = tables.summaries
    rid = tables.runs.run_id.iloc[run]
    rows = s[(s.run_id == rid) & (s.metric == metric) & (s.stat == stat)]
    assert len(rows) == 1, (metric, stat, rows)
    return rows.iloc[0]


# ---------------------------------------------------------------------------------------------
# seed 001: five "# qperf $ip -vvs -t 10 tcp_bw tcp_lat" blocks under scenario headings


@needs_shared
def test_seed_001_latency_and_bandwidth_per_scenario():
    tables = azlatency.read(seed("001"))
    runs = tables.runs[tables.runs.tool == "qperf"].reset_index(drop=True)
    assert list(runs["mode"]) == ["tcp_bw", "tcp_lat"] * 5
    headings = ["Inside single node", "AZ1 - AZ1", "AZ1 - AZ2", "AZ2 - AZ3", "AZ1 - AZ3"]
    assert list(runs["heading"][::2]) == headings
    s = tables.summaries.set_index("run_id")
    lat = [s.loc[r].query("metric == 'half_rtt'").value.item() for r in runs.run_id[1::2]]
    # "latency         =     16.9 us" ... "latency         =    699 us"
    assert lat == [16.9, 38.8, 60.5, 718.0, 699.0]
    bw = [s.loc[r].query("metric == 'throughput'").value.item() for r in runs.run_id[::2]]
    # "bw          =     2.82 GB/sec" is 2.82e9 BYTES/s = 22.56e9 bits/s; "993 MB/sec" ...
    assert bw == pytest.approx([22.56e9, 11.52e9, 11.76e9, 7.944e9, 7.344e9], rel=1e-12)
    assert set(s.loc[runs.run_id[0]].unit) == {"bps", "msg/s", "bytes", "count"}
    first_bw, first_lat = runs.iloc[0], runs.iloc[1]
    # "send_msgs   =  430,972 " (comma thousands, trailing space)
    assert first_bw.packets_sent == 430_972 and first_bw.packets_received == 430_972
    assert first_lat.latency_basis == "half_rtt" and pd_isna(first_bw.latency_basis)
    assert first_lat.command == "qperf $ip -vvs -t 10 tcp_bw tcp_lat"
    assert first_lat.duration_s == 10.0  # -t 10: -vvs prints no time
    assert first_lat.dst_ip is None or pd_isna(first_lat.dst_ip)  # $ip is a shell variable
    labels = json.loads(first_bw.labels)
    assert first_bw.msg_size_bytes == 65536 and labels["msg_size_source"] == "default"


def pd_isna(value) -> bool:
    import pandas as pd

    return bool(pd.isna(value))


@needs_shared
def test_seed_001_latency_n_is_the_message_count_qperf_divided_by():
    tables = azlatency.read(seed("001"))
    runs = tables.runs[tables.runs.tool == "qperf"].reset_index(drop=True)
    row = tables.summaries[
        (tables.summaries.run_id == runs.run_id[1]) & (tables.summaries.metric == "half_rtt")
    ].iloc[0]
    # "loc_recv_msgs   =  295,149 " + "rem_recv_msgs   =  295,150 "
    assert row.n == 295_149 + 295_150


# ---------------------------------------------------------------------------------------------
# units


@pytest.mark.parametrize("strict", [True, False])
def test_a_comma_that_groups_no_thousands_is_no_number(strict):
    """qperf prints C-locale numbers, ',' grouping thousands ('64 KiB (65,536)'): a
    '7,07 us' (a localized copy, a damaged figure) was read as 707 us without a word, a
    hundred times the 7.07 printed.  It is a located error (strict) or skipped and named;
    a grouped '1,234 us' is still 1234."""
    name = "qperf--0.4.11-linux-oo-sweep-sizes-from-command.txt"
    lines = (QP / name).read_text().split("\n")
    assert lines[20] == "    latency  =  7.07 us"
    bad = "\n".join(lines[:20] + ["    latency  =  7,07 us"] + lines[21:])
    if strict:
        with pytest.raises(ParseError, match=r":21: expected '<number> <unit>'.*'7,07 us' \(qperf"):
            azlatency.read(bad, tool="qperf", strict=True)
    else:
        t = azlatency.read(bad, tool="qperf", strict=False)
        assert not (t.summaries["value"] == 707).any()
        assert "line 21 skipped: expected '<number> <unit>'" in "; ".join(
            t.runs["warnings"].dropna()
        )
    grouped = "\n".join(lines[:20] + ["    latency  =  1,234 us"] + lines[21:])
    assert 1234.0 in azlatency.read(grouped, tool="qperf").summaries["value"].tolist()


def test_default_units_are_bytes_per_second_scaled_by_1000():
    t = _read("qperf--0.4.11-linux-v-tcp-udp.txt")
    # line 2 "bw              =  2.16 GB/sec", line 5 "send_cost       =   919 ms/GB"
    assert _summary(t, 0, "throughput").value == pytest.approx(2.16e9 * 8)
    assert _summary(t, 0, "send_cost").value == pytest.approx(0.919)
    assert _summary(t, 0, "send_cost").unit == "s/GB"
    # line 10 "latency        =  7.04 us", line 11 "msg_rate       =   142 K/sec"
    assert _summary(t, 1, "half_rtt").value == pytest.approx(7.04)
    assert _summary(t, 1, "msg_rate").value == pytest.approx(142_000)
    # line 16 "send_bw         =   845 MB/sec", line 17 "recv_bw         =   782 MB/sec"
    assert _summary(t, 2, "throughput_sender").value == pytest.approx(845e6 * 8)
    assert _summary(t, 2, "throughput_receiver").value == pytest.approx(782e6 * 8)
    # line 20 "send_cost       =  2.36 sec/GB"
    assert _summary(t, 2, "send_cost").value == pytest.approx(2.36)


def test_unified_units_are_unscaled():
    t = _read("qperf--0.4.11-linux-uu-vv-tcp-udp.txt")
    # "bw                =  1135411200 bytes/sec" equals "recv_bytes =  1135411200 bytes" in 1 s
    assert _summary(t, 0, "throughput").value == 1_135_411_200 * 8
    assert _summary(t, 0, "transfer_receiver", "total").value == 1_135_411_200
    # "send_cost         =  1759114762 ns/GB", "send_cpu_time     =  2009999990 ns"
    assert _summary(t, 0, "send_cost").value == pytest.approx(1.759114762)
    assert _summary(t, 0, "send_cpu_time", "total").value == pytest.approx(2.00999999)
    # "latency          =       18809 ns"
    assert _summary(t, 1, "half_rtt").value == pytest.approx(18.809)
    # "send_msgs         =       17435 " without commas
    assert t.runs.packets_sent.iloc[0] == 17435


def test_bits_per_second_with_ub():
    t = _read("qperf--0.4.11-linux-ub-v-bits.txt")
    # "bw              =  3.31 Gb/sec" is already bits
    assert _summary(t, 0, "throughput").value == pytest.approx(3.31e9)
    assert _summary(t, 1, "throughput_sender").value == pytest.approx(2.64e9)


def test_sizes_kib_exact_and_kb_decimal():
    t = _read("qperf--0.4.11-linux-e6-m1000-sb-vvu-params.txt")
    run = t.runs.iloc[0]
    assert run.msg_size_bytes == 1000  # "msg_size           =        1 KB"
    labels = json.loads(run.labels)
    # "loc_sock_buf_size  =        1 MiB (1,048,576)", "rem_sock_buf_size  =        2 MiB (2,097,152)"
    assert labels["loc_sock_buf_size_bytes"] == 1_048_576
    assert labels["rem_sock_buf_size_bytes"] == 2_097_152
    assert labels["timeout_s"] == 5
    # -e 6: "bw                 =  124.163 MB/sec"
    assert _summary(t, 0, "throughput").value == pytest.approx(124.163e6 * 8)


def test_unify_nodes_counts_and_udp_loss():
    t = _read("qperf--0.4.11-linux-un-vv-unify-nodes.txt")
    udp = t.runs.iloc[1]
    # line 41 "loc_send_msgs    =  15,337 " and line 49 "rem_recv_msgs    =  12,951 "
    assert (udp.packets_sent, udp.packets_received) == (15_337, 12_951)
    assert udp.loss_pct == pytest.approx(100 * (15_337 - 12_951) / 15_337)
    assert pd_isna(t.runs.iloc[0].loss_pct)  # TCP message counts differ, but that is no loss


# ---------------------------------------------------------------------------------------------
# sweeps, conf, warnings, failures


def test_sweep_sizes_printed_with_vu():
    t = _read("qperf--0.4.11-linux-oo-vu-sweep-tcp_lat.txt")
    assert list(t.runs.msg_size_bytes) == [4**k for k in range(9)]
    assert t.runs.command.iloc[0] == "qperf 10.204.0.1 -t 1 -oo 'msg_size:1:64K:*4' -vu tcp_lat"
    assert set(t.runs.dst_ip) == {"10.204.0.1"}
    # line 11 "latency   =  46.9 us" is the third block (line 12 "msg_size  =    16 bytes")
    assert _summary(t, 2, "half_rtt").value == pytest.approx(46.9)


def test_sweep_sizes_taken_from_the_command_line():
    t = _read("qperf--0.4.11-linux-oo-sweep-sizes-from-command.txt")
    runs = t.runs
    assert list(runs["mode"]) == ["tcp_bw"] * 9 + ["udp_lat"] * 9
    assert list(runs.msg_size_bytes) == [4**k for k in range(9)] * 2
    assert {json.loads(x)["msg_size_source"] for x in runs.labels} == {"command"}
    last = runs.iloc[-1]  # 64 KiB UDP datagrams never arrive: "latency  =  0 ns"
    assert last.loss_pct == 100.0 and last.packets_received == 0
    assert "total loss" in last.warnings
    assert not (t.summaries.run_id == last.run_id).any()


def test_total_loss_keeps_no_latency():
    t = _read("qperf--0.4.11-linux-vv-m1M-udp_lat-total-loss.txt")
    run = t.runs.iloc[0]
    assert run.complete and run.loss_pct == 100.0
    assert run.packets_sent == 0 and run.packets_received == 0  # -vv hides zero counts
    assert "half_rtt" not in set(t.summaries.metric)
    # line 11 "loc_send_errors  =  1.58 million" is rounded: a summary, not run.errors
    assert _summary(t, 0, "loc_send_errors", "total").value == pytest.approx(1.58e6)
    assert pd_isna(run.errors)


def test_conf_facts_go_to_every_run():
    t = _read("qperf--0.4.11-linux-vv-conf-tcp-udp.txt")
    assert list(t.runs["mode"]) == ["tcp_bw", "tcp_lat", "udp_bw", "udp_lat"]
    assert set(t.runs.tool_version) == {"0.4.11"}  # "loc_qperf  =  0.4.11"
    assert set(t.runs.src_host) == {"vm"} and set(t.runs.os) == {"linux"}
    labels = json.loads(t.runs.labels.iloc[0])
    assert labels["loc_cpu"] == "2 Cores: AMD EPYC 2.6GHz"


def test_conf_alone_and_quit():
    conf = _read("qperf--0.4.11-linux-conf.txt")
    assert list(conf.runs["mode"]) == ["conf"] and conf.runs.complete.iloc[0]
    assert len(conf.summaries) == 0
    quit_ = _read("qperf--0.4.11-linux-v-conf-tcp_lat-quit.txt")
    assert list(quit_.runs["mode"]) == ["tcp_lat"]
    assert quit_.runs.tool_version.iloc[0] == "0.4.11"


def test_warning_line_goes_to_the_run():
    t = _read("qperf--0.4.11-linux-n-vu-warning.txt")
    assert t.runs.warnings.iloc[0] == "-n set but not used in test tcp_bw"
    assert _summary(t, 0, "throughput").value == pytest.approx(1.49e9 * 8)  # line 3


def test_connection_refused_is_a_failed_run():
    t = _read("qperf--0.4.11-linux-no-server-refused.txt")
    run = t.runs.iloc[0]
    assert run["mode"] == "tcp_lat" and not run.complete
    assert run.warnings == "10.204.0.1: failed to connect"


def test_server_error_printed_before_the_headers_goes_to_the_failed_test():
    t = _read("qperf--0.4.11-linux-sctp-unsupported-stderr-first.txt")
    ok, failed = t.runs.iloc[0], t.runs.iloc[1]
    assert ok.complete and pd_isna(ok.warnings)
    assert failed["mode"] == "sctp_bw" and failed.protocol == "sctp" and not failed.complete
    assert failed.warnings == "server: unable to make SCTP socket"


def test_terminal_capture_with_crlf():
    t = _read("qperf--0.4.11-linux-pty-rds-unsupported.txt")
    assert list(t.runs["mode"]) == ["udp_lat", "rds_lat"]
    assert t.runs.protocol.iloc[1] == "rds" and not t.runs.complete.iloc[1]
    assert _summary(t, 0, "loc_cpus_used").unit == "pct"


def test_truncated_output():
    t = _read("qperf--0.4.11-linux-vv-interrupted-truncated.txt")
    assert list(t.runs.complete) == [True, False]
    assert "cut short" in t.runs.warnings.iloc[1]


# ---------------------------------------------------------------------------------------------
# strictness and location


def test_bad_value_is_a_located_parse_error():
    text = "tcp_bw:\n    bw  =  fast GB/sec\n"
    with pytest.raises(ParseError) as info:
        qperf.parse(text, source="x.txt")
    assert info.value.line_no == 2 and "'bw ='" in info.value.reason
    lenient = qperf.parse(text, source="x.txt", strict=False)
    assert lenient.runs[0].warnings and "line 2 skipped" in lenient.runs[0].warnings[-1]


def test_wrong_unit_for_a_key_is_an_error():
    with pytest.raises(ParseError, match="expected a us unit"):
        qperf.parse("tcp_lat:\n    latency  =  5 GB/sec\n")


def test_text_without_a_test_header_is_an_error():
    with pytest.raises(ParseError, match="test header"):
        qperf.parse("hello\n")


def test_locate_skips_prose_and_takes_the_command():
    doc = [
        "Results for tcp_lat:",
        "tcp_lat:",
        "was fine.",
        "",
        "```",
        "$ qperf 10.0.0.4 -t 5 -m 64 tcp_lat",
        "tcp_lat:",
        "    latency  =  30.1 us",
        "```",
    ]
    spans = qperf.locate(doc)
    assert [(s.start, s.end) for s in spans] == [(5, 8)]
    t = azlatency.read("\n".join(doc) + "\n")
    run = t.runs.iloc[0]
    assert run.msg_size_bytes == 64 and run.duration_s == 5.0 and run.dst_ip == "10.0.0.4"


def test_command_line_reading():
    assert size_of("64K") == 65536 and size_of("64k") == 64000 and size_of("1kib") == 1024
    assert size_of("2x") is None
    assert time_of("2m") == 120.0 and time_of("10") == 10.0
    cmd = parse_command("sudo qperf -H srv -oo msg_size:1:8:*2 -oo time:1:2:1 tcp_lat udp_lat")
    assert cmd.host == "srv" and cmd.tests == ["tcp_lat", "udp_lat"]
    # the first -oo is the outer loop (qperf.c do_loop)
    assert cmd.loop_values()[:3] == [
        {"msg_size": 1, "time": 1},
        {"msg_size": 1, "time": 2},
        {"msg_size": 2, "time": 1},
    ]
    assert default_msg_size("udp_bw") == 32768 and default_msg_size("rc_rdma_read_lat") == 1
    assert default_msg_size("rc_fetch_add_mr") is None


def test_counts_beyond_64_bits_are_errors_and_unreadable_sizes_get_no_default():
    text = "tcp_lat:\n    latency  =  5 us\n    loc_send_msgs  =  99999999999999999999999 \n"
    with pytest.raises(ParseError, match="loc_send_msgs = <count>' within int64") as err:
        qperf.parse(text)
    assert err.value.line_no == 3
    assert qperf.parse(text, strict=False).runs[0].meta.get("packets_sent") is None
    t = azlatency.read("$ qperf h -m 99999999999K tcp_lat\ntcp_lat:\n    latency  =  5 us\n")
    assert pd_isna(t.runs.msg_size_bytes.iloc[0])  # -m was given: qperf's default is no answer


def test_error_counts_that_fit_but_whose_sum_does_not_leave_errors_empty():
    """Each ``*_errors`` count fits Int64; their sum would not.  The run is kept, ``errors``
    stays empty and a warning names the lines (it used to fail in pandas, at line 1)."""
    text = (QP / "qperf--0.4.11-linux-vvs-tcp.txt").read_text()
    head, _, rest = text.partition("    rem_recv_msgs   =  70,410 \n")
    big = (
        "    loc_send_errors =  6000000000000000000 \n    rem_recv_errors =  6000000000000000000 \n"
    )
    t = azlatency.read(head + "    rem_recv_msgs   =  70,410 \n" + big + rest)
    lat = t.runs[t.runs["mode"] == "tcp_lat"].iloc[0]
    assert pd_isna(lat["errors"]) and lat["packets_sent"] == 70_409
    assert "error counts on lines 19, 20 add up past int64" in lat["warnings"]
    small = big.replace("6000000000000000000", "3")
    t = azlatency.read(head + "    rem_recv_msgs   =  70,410 \n" + small + rest)
    assert t.runs[t.runs["mode"] == "tcp_lat"].iloc[0]["errors"] == 6


def test_a_blank_line_between_tests_does_not_cut_the_invocation():
    """Issue 26: a test block pasted again after a blank line became a second block without
    the command, conf or message size (a silent replicate in the metamorphic duplicate
    check).  qperf prints no blank line, so tests after one belong to the same output; every
    run of a test printed more often than the command runs it says so."""
    lines = (QP / "qperf--0.4.11-linux-v-conf-tcp_lat-quit.txt").read_text().split("\n")
    assert lines[10] == "tcp_lat:" and lines[16] == "quit:"
    twice = "\n".join(lines[:16] + [""] + lines[10:16] + lines[16:])
    runs = azlatency.read(twice.encode(), source="f").runs
    assert list(runs["line_start"]) == [11, 18]
    assert runs["command"].eq("qperf 10.204.0.1 -v -t 1 conf tcp_lat quit").all()
    assert runs["msg_size_bytes"].tolist() == [1, 1]
    assert runs["dst_host"].tolist() == ["vm", "vm"]
    said = "tcp_lat printed 2 times where the command runs it 1: a second invocation or"
    assert runs["warnings"].str.contains(said).all()
    # a gap inside one invocation's output: conf, a blank line, then tcp_lat
    gap = "\n".join(lines[:10] + ["", ""] + lines[10:])
    runs = azlatency.read(gap.encode(), source="f").runs
    assert len(runs) == 1 and runs["labels"].str.contains("rem_qperf").all()
    assert pd.isna(runs["warnings"].iloc[0])


def test_a_foreign_line_between_tests_keeps_the_conf_lines():
    """-vv prints the 'conf' lines once, before the first test: a stray line between two
    tests ended the output there, and the later tests lost them (hosts, OS, qperf version)
    under a 'skipped' warning (issue 38)."""
    path = FIXTURES / "qperf" / "qperf--0.4.11-linux-vv-conf-tcp-udp.txt"
    lines = path.read_text().split("\n")
    whole = azlatency.read(path)
    t = azlatency.read("\n".join(lines[:78] + ["Connection reset by peer"] + lines[78:]))
    assert len(t.runs) == len(whole.runs) == 4
    cols = ["tool_version", "src_host", "dst_host", "os", "labels", "msg_size_bytes"]
    assert t.runs[cols].equals(whole.runs[cols])
    assert "line 79 skipped: 'Connection reset by peer'" in t.runs.warnings.iloc[0]


@pytest.mark.parametrize("strict", [True, False])
@pytest.mark.parametrize(
    ("name", "first"),
    [
        ("plain-tcp-udp", "tcp_bw:"),  # a header and its first value
        ("v-conf-tcp_lat-quit", "    rem_os"),  # two values
        ("v-conf-tcp_lat-quit", "$ qperf"),  # the command and the first header
        ("vv-interrupted-truncated", "    recv_msgs"),  # '31,748 ' (empty unit) and a header
        ("n-vu-warning", "warning: -n"),  # qperf's warning and a value
    ],
)
def test_qperf_lines_run_together_are_read_one_by_one(name, first, strict):
    """A lost line break joins two of qperf's lines ('tcp_bw:    bw  =  1.75 GB/sec'): the
    test was lost without a word, or the file was no qperf output at all (a study joining
    adjacent lines of every fixture: 40 silent trials, 16 files not recognised).  Both lines
    are read, and the run names the line."""
    text = (QP / f"qperf--0.4.11-linux-{name}.txt").read_text(encoding="utf-8")
    bad, i = joined(text, first)
    base, got = azlatency.read(text, strict=strict), azlatency.read(bad, strict=strict)
    assert_same_reading(base, got, ("mode", "complete", "command", "tool_version", "labels"))
    said = "; ".join(got.runs["warnings"].dropna())
    assert f"line {i + 1}: 2 of qperf's lines run together (line breaks lost)" in said


@pytest.mark.parametrize("prompt", ["~ \u27a4 ", "\u279c  ~ ", "me@mbp ~ % ", "/ # "])
def test_an_arrow_themes_prompt_between_two_outputs_is_a_command(prompt):
    # two runs pasted one after another, each under its command as an oh-my-zsh, fish-like,
    # macOS zsh or busybox prompt shows it (a WireGuard benchmark's post: '~ ➤ qperf ...'):
    # the second command was refused (strict) or skipped and the run above it lost its own
    lines = (QP / "qperf--0.4.11-linux-plain-tcp-udp.txt").read_text().split("\n")
    text = "\n".join(
        [
            f"{prompt}qperf 10.0.0.4 tcp_lat",
            *lines[2:4],
            f"{prompt}qperf 10.0.0.4 udp_lat",
            *lines[7:9],
        ]
    )
    t = azlatency.read(text.encode(), strict=True)
    assert t.runs.command.tolist() == ["qperf 10.0.0.4 tcp_lat", "qperf 10.0.0.4 udp_lat"]
    assert t.runs.warnings.isna().all()
    assert t.summaries.value.tolist() == [8.01, 6.21]
