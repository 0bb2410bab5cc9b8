"""ntttcp: real outputs (seed 001, corpus XML) checked value by value, plus the dialect rules.

Reconstructed fixtures are checked by the fixture walker (tests/fixtures/ntttcp/); here the
values come from real logs, each cited by the line it was read from.
"""

from __future__ import annotations

import json

import pandas as pd
import pytest

import azlatency
from azlatency.errors import ParseError
from azlatency.parsers import ntttcp
from tests.conftest import FIXTURES, corpus, needs_shared, seed

CORPUS_FILES = {
    "client": "ntttcp--linux-xml-client-1.4.0-threads--virtualclient.xml",
    "server": "ntttcp--linux-xml-server-1.4.0--virtualclient.xml",
    "wsl2": "ntttcp--linux-xml-client-wsl2-bom-rtt--virtualclient.xml",
    "win535": "ntttcp--windows-xml-server-5.35-bom--virtualclient.xml",
    "win539": "ntttcp--windows-xml-server-5.39-many-threads--virtualclient.xml",
}


def _summary(tables, metric: str, stat: str, run: int = 0) -> float:
    s = tables.summaries
    run_id = tables.runs["run_id"].iloc[run]
    rows = s[(s.run_id == run_id) & (s.metric == metric) & (s.stat == stat)]
    assert len(rows) == 1, f"{metric}/{stat}: {len(rows)} rows"
    return float(rows["value"].iloc[0])


def _read_corpus(key: str):
    path = corpus("ntttcp", CORPUS_FILES[key])
    return azlatency.read(path, source=path.name).validate()


# ---------------------------------------------------------------------------------------------
# Seed 001: five ntttcp-for-linux 1.4.0 sender consoles inside a markdown note.


@pytest.fixture(scope="module")
def seed001():
    tables = azlatency.read(seed("001"), strict=False)  # other tools' blocks are not ours to judge
    keep = tables.runs["tool"] == "ntttcp"
    runs = tables.runs[keep].reset_index(drop=True)
    summaries = tables.summaries[tables.summaries.run_id.isin(runs.run_id)]
    return runs, summaries


# heading, throughput (Gbps), total bytes, retrans segs, cycles/byte, cpu busy (all) %, duration
SEED_RUNS = [
    ("Inside single node", 98.39, 132878434304, 7079, 1.69, 461.15, 10.80),
    ("AZ1 - AZ1", 11.82, 15189147648, 91360, 2.07, 58.32, 10.28),
    ("AZ1 - AZ2", 11.82, 15270543360, 98227, 2.18, 61.61, 10.34),
    ("AZ2 - AZ3", 11.91, 15331753984, 23632, 2.12, 58.11, 10.30),
    ("AZ1 - AZ3", 11.87, 15314321408, 47780, 2.10, 58.48, 10.32),
]


@needs_shared
def test_seed001_five_scenarios(seed001):
    runs, summaries = seed001
    assert list(runs["heading"]) == [r[0] for r in SEED_RUNS]
    for i, (heading, gbps, total, retrans, cycles, busy, duration) in enumerate(SEED_RUNS):
        s = summaries[summaries.run_id == runs.run_id[i]].set_index(["metric", "stat"])["value"]
        # e.g. "17:18:07 INFO:   throughput     :98.39Gbps" (text scales by 1000)
        assert s["throughput_sender", "mean"] == pytest.approx(gbps * 1e9, rel=1e-12), heading
        assert s["transfer_sender", "total"] == total  # "total bytes      :132878434304"
        assert s["retransmits", "total"] == retrans  # "  retrans segs   :7079"
        assert s["cycles_per_byte", "mean"] == cycles  # "  cycles/byte    :1.69"
        assert s["cpu_busy", "mean"] == busy  # "cpu busy (all)   :461.15%"
        assert runs.duration_s[i] == duration  # "test duration    :10.80 seconds"


@needs_shared
def test_seed001_run_facts(seed001):
    runs, summaries = seed001
    first = runs.iloc[0]
    assert first.command == "ntttcp -s $ip -W 2 -t 10 -l 1"  # the line above the banner
    assert first.role == "sender" and first.tool_version == "1.4.0"  # "NTTTCP for Linux 1.4.0"
    assert first.streams == 64  # "64 connections tested"
    assert first.parser_variant == "console" and first.os == "linux" and bool(first.complete)
    assert pd_isna(first.dst_ip)  # "$ip" is a shell variable, not an address
    labels = json.loads(first.labels)
    assert labels == {"cpu_cores": 8, "cpu_speed_mhz": 2593.903, "test_cycle_s": 60}
    s = summaries[summaries.run_id == first.run_id].set_index(["metric", "stat"])["value"]
    # "  user :2.57%", "  system :78.00%", "  idle :0.05%", "  iowait :0.00%", "  softirq :19.38%"
    assert [
        s["cpu_user", "mean"],
        s["cpu_system", "mean"],
        s["cpu_idle", "mean"],
        s["cpu_iowait", "mean"],
        s["cpu_softirq", "mean"],
    ] == [2.57, 78.0, 0.05, 0.0, 19.38]


def pd_isna(value) -> bool:
    import pandas as pd

    return bool(pd.isna(value))


# ---------------------------------------------------------------------------------------------
# Corpus: five real XML files.


@needs_shared
def test_linux_client_xml_1_4_0():
    t = _read_corpus("client")
    run = t.runs.iloc[0]
    assert (run.parser_variant, run.role, run.tool_version) == ("xml-linux", "sender", "5.33-linux")
    assert run.src_host == "Ubuntu20-16c-01" and run.port == 5500  # computername=, <port>5500
    assert run.duration_s == 60.234391  # <realtime metric="s">60.234391</realtime>
    assert _summary(t, "retransmits", "total") == 3494  # <packets_retransmitted>3494
    assert _summary(t, "tcp_rtt", "mean") == 934  # <tcp_average_rtt metric="us">934
    # <throughput metric="Bps">1484404184.555</throughput>: bytes/s, × 8
    assert _summary(t, "throughput_sender", "mean") == pytest.approx(1484404184.555 * 8)
    # <total_bytes metric="MB">89412.182016: ntttcp-for-linux's MB is 10^6 bytes
    assert _summary(t, "transfer_sender", "total") == 89412182016
    assert _summary(t, "cpu_busy", "mean") == 38.48  # <cpu_busy_all metric="%">38.48
    assert _summary(t, "cycles_per_byte", "mean") == 1.08
    # Linux writes 0 for the Windows-only fields: placeholders, not read
    assert "frame_size" not in set(t.summaries.metric) and pd_isna(run.packets_sent)
    thread = t.samples.iloc[0]  # <thread index="0"> ... <throughput metric="mbps">11875.233
    assert (thread.kind, thread.stream, thread.end_s) == ("thread", "0", 60.234)
    assert thread.bits_per_second == pytest.approx(11875.233e6)


@needs_shared
def test_linux_server_xml_1_4_0_is_a_receiver_without_retransmits():
    t = _read_corpus("server")
    run = t.runs.iloc[0]
    assert run.role == "receiver" and run.dst_host == "Ubuntu20-16c-02"  # <ntttcpr computername=
    assert _summary(t, "throughput_receiver", "mean") == pytest.approx(1476031492.996 * 8)
    assert _summary(t, "transfer_receiver", "total") == 88588630770  # 88588.630770 MB
    assert "retransmits" not in set(t.summaries.metric)  # the receiver's 0 is a placeholder
    assert len(t.samples) == 0  # no <thread> elements


@needs_shared
def test_linux_wsl2_xml_old_field_names_and_bom():
    t = _read_corpus("wsl2")
    assert t.runs.encoding.iloc[0] == "utf-8-sig"
    assert _summary(t, "cycles_per_byte", "mean") == 2.594  # <cycles metric="cycles/byte">2.594
    assert _summary(t, "cpu_busy", "mean") == 326.99  # <cpu metric="%">326.990 (all cores)
    assert _summary(t, "tcp_rtt", "mean") == 1886
    assert _summary(t, "retransmits", "total") == 522885
    assert "WSL2" in json.loads(t.runs.labels.iloc[0])["kernel"]


@needs_shared
def test_windows_xml_5_35():
    t = _read_corpus("win535")
    run = t.runs.iloc[0]
    assert (run.parser_variant, run.os, run.tool_version) == ("xml-windows", "windows", "5.35")
    assert json.loads(run.labels)["buffer_count"] == 9223372036854775807  # INT64_MAX, exact
    assert run.msg_size_bytes == 65536 and run.errors == 12  # <bufferLen>, <errors>
    assert (run.packets_sent, run.packets_received) == (1753314, 5259143)
    # <total_bytes metric="MB">109552.625000: NTttcp.exe's MB is 2^20 bytes
    assert _summary(t, "transfer_receiver", "total") == 109552.625 * 2**20
    assert _summary(t, "throughput_receiver", "mean") == pytest.approx(30622.494e6)  # mbps
    assert _summary(t, "cpu_avg", "mean") == 91.205  # <cpu metric="%">91.205: average, not sum
    assert _summary(t, "dpcs_per_s", "mean") == 2116.864
    assert list(t.samples.stream) == ["0", "1", "2", "3"]
    # <thread index="0"> <throughput metric="mbps">7614.088; KB/s × 1024 × 8 agrees
    assert t.samples.bits_per_second.iloc[0] == pytest.approx(929454.115 * 8192, rel=1e-6)


@needs_shared
def test_windows_xml_5_39_many_threads():
    t = _read_corpus("win539")
    run = t.runs.iloc[0]
    assert run.streams == 256 and len(t.samples) == 256  # 256 <thread> elements
    assert _summary(t, "throughput_receiver", "mean") == pytest.approx(11205650190.7 * 8)
    assert _summary(t, "throughput_receiver", "mean") / 1e9 == pytest.approx(89.6, abs=0.05)
    assert _summary(t, "retransmits", "total") == 14
    assert json.loads(run.labels)["cpu_cores"] == 52  # <num_processors>52
    assert run.duration_s == 3600.01363
    # the per-thread rates add up to the total (checks every thread's unit)
    assert t.samples.bits_per_second.sum() == pytest.approx(89645.202e6, rel=1e-4)


@needs_shared
def test_appended_windows_documents_are_separate_runs():
    """Reusing one ``-xml`` file appends documents, each with its BOM (an ``xml.txt``)."""
    a = corpus("ntttcp", CORPUS_FILES["win535"]).read_bytes()
    b = corpus("ntttcp", CORPUS_FILES["win539"]).read_bytes()
    t = azlatency.read(a + b, source="xml.txt").validate()
    assert list(t.runs.tool_version) == ["5.35", "5.39"]
    assert list(t.runs.line_start) == [1, a.count(b"\n") + 1]
    assert t.samples.groupby("run_id").size().tolist() == [4, 256]


@needs_shared
def test_truncated_xml_is_a_located_error():
    data = corpus("ntttcp", CORPUS_FILES["win535"]).read_text(encoding="utf-8-sig")
    cut = "\n".join(data.split("\n")[:40])
    with pytest.raises(ParseError) as info:
        ntttcp.parse(cut, source="cut.xml")
    assert "malformed ntttcp XML" in str(info.value) and info.value.line_no is not None


# ---------------------------------------------------------------------------------------------
# Dialect rules on small texts.

LINUX = """\
17:18:07 INFO: #####  Totals:  #####
17:18:07 INFO: test duration    :10.80 seconds
17:18:07 INFO: total bytes      :{bytes}
17:18:07 INFO:   throughput     :98.39Gbps
"""


def test_rate_units_scale_by_1000():
    assert ntttcp.rate_bps("98.39Gbps") == 98.39e9
    assert ntttcp.rate_bps("812.50Mbps") == 812.5e6
    assert ntttcp.rate_bps("3.20Kbps") == 3200.0
    assert ntttcp.rate_bps("0.00bps") == 0.0
    assert ntttcp.rate_bps("98.39 GB/s") is None


def test_bad_number_is_located_or_skipped():
    text = LINUX.format(bytes="13287x")
    with pytest.raises(ParseError) as info:
        ntttcp.parse(text, source="x.log")
    assert info.value.line_no == 3 and "total bytes" in info.value.reason
    run = ntttcp.parse(text, source="x.log", strict=False).runs[0]
    assert any(w.startswith("line 3 skipped") for w in run.warnings)
    assert run.summaries[0].metric == "throughput_receiver"  # no sender-only line: receiver


def test_unknown_totals_line_is_a_warning():
    run = ntttcp.parse(LINUX.format(bytes="1") + "17:18:07 INFO: new thing :3\n").runs[0]
    assert any("unrecognised Totals line" in w for w in run.warnings)


def test_command_line_gives_role_address_and_protocol():
    assert ntttcp.command_meta("ntttcp -r 10.0.0.4 -u") == {
        "protocol": "udp",
        "role": "receiver",
        "dst_ip": "10.0.0.4",
    }
    assert ntttcp.command_meta("ntttcp.exe -s -m 8,*,10.1.0.5 -l 128k") == {
        "protocol": "tcp",
        "role": "sender",
        "dst_ip": "10.1.0.5",
    }


def test_windows_console_without_command_names_totals_without_role():
    path = FIXTURES / "ntttcp" / "ntttcp--5.33-windows-r-m-receiver.txt"
    text = path.read_text().replace("\r\n", "\n").split("\n", 1)[1]  # drop the command line
    run = ntttcp.parse(text).runs[0]
    assert run.meta["role"] is None
    assert {s.metric for s in run.summaries} >= {"throughput", "transfer"}
    assert any("sender or receiver unknown" in w for w in run.warnings)


def test_json_errors_are_located():
    with pytest.raises(ParseError) as info:
        ntttcp.parse('{\n "ntttcps": {\n  "total_bytes": \n}\n}')
    assert info.value.line_no == 4
    with pytest.raises(ParseError):
        ntttcp.parse('{"other": {}}')


def test_whole_file_claims_xml_and_json_only():
    assert ntttcp.whole_file('\ufeff<ntttcpr computername="x" version="5.35">\n')
    assert ntttcp.whole_file('{\n    "ntttcps" : {\n')
    assert not ntttcp.whole_file("NTTTCP for Linux 1.4.0\n")
    assert not ntttcp.whole_file('{"Time":"2021-05-18T06:59:39Z","Type":"INFO"}')


def test_locate_in_a_note_includes_the_command_line():
    lines = [
        "## AZ1 - AZ2",
        "",
        "```",
        "# ntttcp -s 10.1.0.4 -t 10",
        "NTTTCP for Linux 1.4.0",
        "-----",
        "10:00:00 INFO: #####  Totals:  #####",
        "10:00:00 INFO:   throughput     :1.00Gbps",
        "```",
        "",
        "Some prose: 3 runs",
        '<ntttcpr computername="w" version="5.35">',
        "</ntttcpr>",
    ]
    spans = ntttcp.locate(lines)
    assert [(s.start, s.end) for s in spans] == [(3, 8), (11, 13)]
    tables = azlatency.read("\n".join(lines) + "\n", strict=False)
    run = tables.runs[tables.runs.tool == "ntttcp"].iloc[0]
    assert (run.heading, run.role, run.dst_ip) == ("AZ1 - AZ2", "sender", "10.1.0.4")


def test_damaged_huge_numbers_are_parse_errors():
    """A 25-digit count fits Python but not the Int64 column: a ParseError at its line."""
    path = FIXTURES / "ntttcp" / "ntttcp--1.4.0-linux-s-V-sender-threads.txt"
    text = path.read_text().replace("4 connections tested", "9" * 25 + " connections tested")
    with pytest.raises(ParseError, match="connections tested.*out of range for int64") as err:
        ntttcp.parse(text)
    assert err.value.line_no == 17
    with pytest.raises(ParseError, match="expected a number for 'total bytes'"):
        ntttcp.parse(path.read_text().replace("11687493632", "9" * 400))


def test_locate_stops_at_prose_after_prefixed_output():
    doc = [
        "NTTTCP for Linux 1.4.0",
        "-----",
        "10:00:00 INFO: #####  Totals:  #####",
        "10:00:00 INFO:   throughput     :1.00Gbps",
        "",
        "Result: fast enough",
    ]
    assert [(s.start, s.end) for s in ntttcp.locate(doc)] == [(0, 4)]


# ---------------------------------------------------------------------------------------------
# Cut-short logs (issue 26): seed 001's first run (lines 54-80, "Inside single node") and the
# Windows console fixture, cut inside their Totals.  A run whose closing line is missing is
# complete=False with a "cut short?" warning; a value cut inside its unit is not read.


def _seed_run(upto: int, keep: int | None = None) -> str:
    """Seed 001 lines 54..upto (1.4.0 sender, ends at line 80 'cpu busy (all)   :461.15%');
    the last line cut to its first ``keep`` characters."""
    lines = seed("001").read_text().split("\n")[53:upto]
    if keep is not None:
        lines[-1] = lines[-1][:keep]
    return "\n".join(lines)


@needs_shared
def test_seed_run_whole_is_complete():
    run = ntttcp.parse(_seed_run(80)).runs[0]
    assert run.meta["complete"] is True and not run.warnings
    got = {s.metric: s.value for s in run.summaries}
    assert got["cpu_busy"] == 461.15 and got["throughput_sender"] == 98.39e9


@needs_shared
@pytest.mark.parametrize("upto", range(67, 80))  # Totals marker .. cycles/byte
def test_seed_run_cut_in_totals_is_incomplete(upto):
    run = ntttcp.parse(_seed_run(upto)).runs[0]
    assert run.meta["complete"] is False
    line = upto - 53  # the block's own line numbers
    assert any(
        w.startswith(f"cut short? no 'cpu busy (all)' line after line {line}") for w in run.warnings
    ), run.warnings
    assert run.meta["duration_s"] == (10.80 if upto >= 68 else None)


@needs_shared
def test_seed_run_cut_after_total_bytes_says_the_count_may_be_cut():
    """Seed line 69 'total bytes      :132878434304' is the last: no unit proves it whole."""
    run = ntttcp.parse(_seed_run(69)).runs[0]
    assert run.meta["complete"] is False
    assert run.warnings == [
        "cut short? no 'cpu busy (all)' line after line 16: the Totals block is incomplete; "
        "the 'total bytes' value on line 16 may be cut too"
    ]
    assert [(s.metric, s.value) for s in run.summaries] == [
        ("transfer_sender", 132878434304),
        ("connections", 64),
    ]


@needs_shared
@pytest.mark.parametrize(
    ("upto", "keep", "key", "left", "metric"),
    [
        (70, -4, "throughput", "98.39", "throughput_sender"),  # '98.39Gbps' cut in its unit
        (70, -6, "throughput", "98.", "throughput_sender"),
        (68, -5, "test duration", "10.80 se", None),
        (73, -3, "cpu speed", "2593.903", None),
        (79, -1, "cycles/byte", "1.6", "cycles_per_byte"),  # '%.2f': '1.6' is '1.69' cut
        (80, -1, "cpu busy (all)", "461.15", "cpu_busy"),
    ],
)
def test_seed_run_value_cut_inside_is_not_read(upto, keep, key, left, metric):
    line = seed("001").read_text().split("\n")[upto - 1]
    text = _seed_run(upto, len(line) + keep)
    no = upto - 53
    with pytest.raises(ParseError) as info:
        ntttcp.parse(text, source="cut.log")
    assert info.value.line_no == no
    assert info.value.reason == f"expected a number for {key!r}, got {left!r}"
    run = ntttcp.parse(text, strict=False).runs[0]
    assert run.meta["complete"] is False
    assert run.warnings[0] == f"line {no} skipped: expected a number for {key!r}, got {left!r}"
    assert run.warnings[-1].startswith(f"cut short? no 'cpu busy (all)' line after line {no}")
    assert metric not in {s.metric for s in run.summaries}
    assert run.meta["duration_s"] == (None if key == "test duration" else 10.80)
    speed = run.meta.get("labels", {}).get("cpu_speed_mhz")
    assert speed == (2593.903 if upto > 73 else None)  # seed line 73 'cpu speed :2593.903MHz'


@needs_shared
def test_seed_run_cut_at_cpu_busy_key_is_incomplete():
    text = _seed_run(80, len("17:18:07 INFO: cpu busy (a"))
    run = ntttcp.parse(text).runs[0]
    assert run.meta["complete"] is False
    assert run.warnings[0] == "line 27: unrecognised Totals line 'cpu busy (a'"
    assert "cpu_busy" not in {s.metric for s in run.summaries}


def test_derived_fixture_cut_in_totals():
    """tests/fixtures/ntttcp/...-cut-in-totals.txt: seed 001 lines 53-69 (SOURCES.md)."""
    path = FIXTURES / "ntttcp" / "ntttcp--1.4.0-linux-s-cut-in-totals.txt"
    run = azlatency.read(path).runs.iloc[0]
    assert (run.complete, run.role, run.duration_s, run.line_end) == (False, "sender", 10.8, 17)
    assert run.warnings.startswith("cut short? no 'cpu busy (all)' line after line 17")


def _windows(upto: int, keep: int | None = None) -> str:
    """The Windows console fixture (reconstructed, SOURCES.md) lines 1..upto, the last cut to
    ``keep`` characters.  Its Totals end at line 34, the 'Packets Sent ... Avg. CPU %' row."""
    path = FIXTURES / "ntttcp" / "ntttcp--5.33-windows-r-m-receiver.txt"
    lines = path.read_bytes().decode().split("\r\n")[:upto]
    if keep is not None:
        lines[-1] = lines[-1][:keep]
    return "\r\n".join(lines)


@pytest.mark.parametrize("upto", [19, 24, 29, 33])  # 32: the header alone, a stray line
def test_windows_cut_before_last_table_is_incomplete(upto):
    run = ntttcp.parse(_windows(upto)).runs[0]
    assert run.meta["complete"] is False
    assert run.warnings == [
        f"cut short? no 'Packets Sent ... Errors  Avg. CPU %' table after line {upto}: "
        "the Totals tables are incomplete"
    ]
    got = {s.metric: s.value for s in run.summaries}
    assert got["transfer_receiver"] == round(12074.505854 * 2**20)
    assert got["throughput_receiver"] == pytest.approx(402.457 * 2**20 * 8)


def test_windows_last_row_cut_inside_is_not_read():
    """'      31.30' cut to '      31.3': right-aligned values end where their underline does."""
    text = _windows(34, -1)
    with pytest.raises(ParseError, match=r"cut short\? the row stops at column 58") as info:
        ntttcp.parse(text, source="cut.txt")
    assert info.value.line_no == 34
    run = ntttcp.parse(text, strict=False).runs[0]
    assert run.meta["complete"] is False
    assert run.warnings[0].startswith("line 34 skipped: cut short? the row stops at column 58")
    assert "cpu_avg" not in {s.metric for s in run.summaries}
    whole = ntttcp.parse(_windows(34)).runs[0]
    assert whole.meta["complete"] is True and not whole.warnings
    assert {s.metric: s.value for s in whole.summaries}["cpu_avg"] == 31.30


# ---------------------------------------------------------------------------------------------
# Captured ntttcp-for-linux 1.4.3 (-V console, -j, -x) and NTttcp.exe 5.28 (issue 38)

NT = FIXTURES / "ntttcp"
V143 = "ntttcp--1.4.3-linux"


@pytest.mark.parametrize("strict", [True, False])
def test_verbose_console_dbg_lines_are_ntttcps_own(strict):
    """logger.c pads the level: '16:17:48 DBG : New connection: ...' (-V), and 'Real-time
    throughput: 7.60Gbps' has no level at all.  Before issue 38 the first refused the file
    (strict) or split it into two runs with no figures in the first (lenient)."""
    t = azlatency.read(NT / f"{V143}-s-V-sender-dbg.txt", strict=strict).validate()
    assert len(t.runs) == 1
    run = t.runs.iloc[0]
    assert (run.role, run.complete, run.tool_version) == ("sender", True, "1.4.3")
    assert pd.isna(run.warnings)
    assert (run.line_start, run.line_end) == (1, 56)
    assert _summary(t, "throughput_sender", "mean") == 10.15e9  # 'throughput	:10.15Gbps'
    assert _summary(t, "transfer_sender", "total") == 6349127680  # 'total bytes	:6349127680'
    assert _summary(t, "retransmits", "total") == 407
    assert _summary(t, "tcp_rtt", "mean") == 1286  # 'tcpi rtt		:1286 us' after the close
    assert list(t.samples["bits_per_second"]) == [5.40e9, 4.75e9]


def test_receiver_role_from_its_flags_not_from_retrans_segs():
    """A 1.4.3 receiver prints 'retrans segs :0' too; '*** receiver role' says what it is, and
    its 'threads created' count includes the sync thread: the table's 2 threads are the data's."""
    t = azlatency.read(NT / f"{V143}-r-V-receiver-dbg.txt", strict=True).validate()
    run = t.runs.iloc[0]
    assert (run.role, run.complete, run.streams) == ("receiver", True, 2)
    assert _summary(t, "throughput_receiver", "mean") == 10.15e9
    assert _summary(t, "transfer_receiver", "total") == 6342402320


def test_real_json_reads_as_its_xml():
    """ntttcp-for-linux's own -j names keys in camelCase ('totalBytes', 'throughputs',
    '"tcpAverageRtt metric": "1286 us"'): read, it gives the figures of the -x XML written by
    the same run.  Before issue 38 it was a complete run with no throughput and no bytes."""
    js = azlatency.read(NT / f"{V143}-s-j-sender.json", strict=True).validate()
    xml = azlatency.read(NT / f"{V143}-s-x-sender.xml", strict=True).validate()
    for metric, stat in (
        ("throughput_sender", "mean"),
        ("transfer_sender", "total"),
        ("retransmits", "total"),
        ("tcp_rtt", "mean"),
    ):
        assert _summary(js, metric, stat) == _summary(xml, metric, stat), metric
    assert _summary(js, "transfer_sender", "total") == 6349127680  # "6349.127680" MB
    assert _summary(js, "throughput_sender", "mean") == pytest.approx(1269231818.228 * 8)
    assert js.runs.iloc[0].duration_s == 5.002339
    assert list(js.samples["bits_per_second"]) == list(xml.samples["bits_per_second"])


def test_xml_converted_to_json_with_text_keys():
    """xmltodict's convention ('@metric', '#text'): the receiver XML's values, not a run
    without figures."""
    t = azlatency.read(NT / f"{V143}-r-x-receiver-xmltodict.json", strict=True).validate()
    run = t.runs.iloc[0]
    assert (run.role, run.complete, run.tool_version, run.duration_s) == (
        "receiver",
        True,
        "5.33-linux",
        5.000819,
    )
    assert _summary(t, "transfer_receiver", "total") == 6342402320  # "#text": "6342.402320"
    assert _summary(t, "throughput_receiver", "mean") == pytest.approx(1268272729.09 * 8)
    assert _summary(t, "cpu_busy", "mean") == 46.42
    assert len(t.samples) == 2


def test_json_without_figures_is_incomplete_and_says_why():
    text = json.dumps({"ntttcps": {"version": "5.33-linux", "throughputValues": ["1"]}})
    run = azlatency.read(text).runs.iloc[0]
    assert not run.complete
    assert "no throughput and no total bytes" in run.warnings
    assert "keys found: version, throughputValues" in run.warnings


@pytest.mark.parametrize("strict", [True, False])
def test_ntttcp_528_one_table_totals(strict):
    """NTttcp.exe 5.28 prints its Totals as one 16-column table right under the marker, in a
    blog post with no blank lines: the marker is not the table's header, nor 'Network
    activity progressing...' the thread table's."""
    t = azlatency.read(
        NT / "ntttcp--5.28-windows-s-m8-one-table-totals--jonathandotchin-blog.md",
        strict=strict,
    ).validate()
    run = t.runs.iloc[0]
    assert (run.tool_version, run.role, run.complete, run.streams) == ("5.28", "sender", True, 8)
    assert pd.isna(run.warnings)
    assert run.duration_s == 30.016
    assert (run.packets_sent, run.packets_received, run.errors) == (24450576, 1485400, 0)
    assert _summary(t, "throughput_sender", "mean") == pytest.approx(1131.367 * 2**20 * 8)
    assert _summary(t, "transfer_sender", "total") == round(33959.125 * 2**20)
    assert _summary(t, "cpu_avg", "mean") == 4.559
    assert _summary(t, "interrupts_per_s", "mean") == 51434.235
    assert t.samples["bits_per_second"].iloc[1] == pytest.approx(231692.964 * 1024 * 8)


@pytest.mark.parametrize("strict", [True, False])
def test_ntttcp_528_tables_pasted_twice_are_read_once(strict):
    """The 5.28 capture with its thread and totals tables pasted again under the first (found
    by a mutation run): a second 'Throughput(MB/s)' raised UnboundLocalError, and the other
    columns were read twice (12 summaries became 24).  Each is read once and the copy named."""
    lines = (NT / "ntttcp--5.28-windows-s-m8-one-table-totals--jonathandotchin-blog.md").read_text()
    lines = lines.split("\n")
    text = "\n".join([*lines[14:32], *lines[17:32]])  # the command, output, its tables again
    t = azlatency.read(text, strict=strict).validate()
    assert t.runs["warnings"].iloc[0] == (
        "line 19: the thread table again (read on line 4); not read twice; "
        "line 32: the totals table again (read on line 17); not read twice"
    )
    assert len(t.samples) == 8 and len(t.summaries) == 12
    assert _summary(t, "throughput_sender", "mean") == pytest.approx(1131.367 * 2**20 * 8)
    assert _summary(t, "transfer_sender", "total") == round(33959.125 * 2**20)


def test_ntttcp_540_zero_thread_row_is_no_measurement():
    """NTttcp.exe 5.40 (microsoft/ntttcp issue 24) prints its one thread as '0    0.000
    0.000   1048576.000' under totals of 136794 MB in 30.008 s: that row is no reading."""
    t = azlatency.read(
        NT / "ntttcp--5.40-windows-s-console-thread-zero--ntttcp-issue24.txt", strict=False
    ).validate()
    run = t.runs.iloc[0]
    assert (run.tool_version, run.role, run.complete, run.duration_s) == (
        "5.40",
        "sender",
        True,
        30.008,
    )
    assert list(t.samples.status) == ["error"]
    assert "1 of 1 threads print 0.000 s at 0 KB/s" in run.warnings
    assert _summary(t, "throughput_sender", "mean") == pytest.approx(4558.548 * 2**20 * 8)
    assert (run.packets_sent, run.packets_received) == (16008900, 253662)


def _inserted(name: str, at: int, line: str, strict: bool = False):
    lines = (NT / name).read_text(encoding="utf-8").split("\n")
    whole = azlatency.read(NT / name)
    return whole, azlatency.read(
        "\n".join(lines[: at - 1] + [line] + lines[at - 1 :]), strict=strict
    )


@pytest.mark.parametrize(
    "name, at",
    [
        (f"{V143}-s-V-sender-dbg.txt", 24),  # among the DBG lines
        (f"{V143}-r-V-receiver-dbg.txt", 50),  # inside the Totals
        (f"{V143}-s-j-sender.json", 39),  # a bare value inside the threads array
        ("ntttcp--5.28-windows-s-m8-one-table-totals--jonathandotchin-blog.md", 24),  # a row
    ],
)
def test_a_foreign_line_keeps_the_run_and_its_figures(name, at):
    """Before issue 38 a line inside the console output split the run (the first part without
    figures), '12.5' in a Windows table or the JSON was a fatal error even when lenient."""
    whole, got = _inserted(name, at, "12.5")
    assert len(got.runs) == 1
    assert f"line {at}" in got.runs.warnings.iloc[0]
    cols = ["metric", "stat", "value"]
    assert got.summaries[cols].equals(whole.summaries[cols])
    with pytest.raises(ParseError) as info:
        _inserted(name, at, "12.5", strict=True)
    assert info.value.line_no == at


def test_windows_version_with_the_next_line_run_into_it():
    """'Copyright Version 5.33Network activity progressing...': the version is 5.33."""
    text = (FIXTURES / "ntttcp" / "ntttcp--5.33-windows-r-m-receiver.txt").read_text("utf-8")
    bad = text.replace("5.33\nNetwork", "5.33Network", 1)
    assert bad != text
    assert azlatency.read(bad).runs["tool_version"].tolist() == ["5.33"]


@pytest.mark.parametrize("strict", [True, False])
def test_a_json_string_wrapped_over_two_lines_is_read(strict):
    """ntttcp -j's 'os' string is longer than a terminal's or mail client's 72 columns; a
    copy wrapped there breaks it in two, a line break inside a string is no JSON, and the
    file was refused in both modes (the wrap study: 4 ntttcp files).  The document is read
    with the string as it stands (`_lines.json_wrapped`, as iperf3 -J), and the line named."""
    path = FIXTURES / "ntttcp" / "ntttcp--1.4.3-linux-s-j-sender.json"
    text = path.read_text(encoding="utf-8")
    at = text.index("PREEMPT_DYNAMIC @0 ") + len("PREEMPT_DYNAMIC @0")
    base, got = (
        azlatency.read(text),
        azlatency.read(text[:at] + "\n" + text[at + 1 :], strict=strict),
    )
    assert got.summaries.drop(columns="run_id").equals(base.summaries.drop(columns="run_id"))
    line = text.count("\n", 0, at) + 1
    assert got.runs["warnings"].tolist() == [
        f"line {line}: a string broken over two lines (a wrapped copy?): read as one"
    ]
