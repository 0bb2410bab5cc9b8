"""echo CSV: values read off our own captures (tests/fixtures/echo_csv, see SOURCES.md)."""

from __future__ import annotations

import re
from unittest import mock

import numpy as np
import pandas as pd
import pyarrow as pa
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import azlatency
from azlatency.decode import decode
from azlatency.errors import DetectionError, ParseError
from azlatency.parsers import echo_csv
from azlatency.parsers.echo_csv import fast as fast_path
from tests.conftest import FIXTURES
from tests.parsers.test_properties import _material, damage, plans

HERE = FIXTURES / "echo_csv"
V = "echo_csv--py3.11-linux-i0.1"
CRLF = HERE / f"{V}-crlf-20probes.csv"
HEADER = echo_csv.HEADER_LINE


def _read(name: str, **kw):
    return azlatency.read(HERE / name, **kw).validate()


def test_first_and_last_probe_are_exact():
    t = _read(CRLF.name)
    s = t.samples
    first, last = s.iloc[0], s.iloc[-1]
    # line 2: 0,2026-11-21 00:48:52.644945,1795222132644949259,1795222132645339681,390.422
    assert (first.seq, first.tx_time_ns, first.rx_time_ns) == (
        0,
        1795222132644949259,
        1795222132645339681,
    )
    assert first.rtt_us == 390.422 and first.kind == "probe" and first.status == "ok"
    assert first.time_ns == pd.Timestamp("2026-11-21 00:48:52.644945", tz="UTC").value
    # line 21: 19,2026-11-21 00:48:54.557990,1795222134558010564,1795222134558122942,112.378
    assert (last.seq, last.rx_time_ns, last.rtt_us) == (19, 1795222134558122942, 112.378)
    run = t.runs.iloc[0]
    assert run.start_time == pd.Timestamp(1795222132644949259, unit="ns", tz="UTC")
    assert run.duration_s == (1795222134558122942 - 1795222132644949259) / 1e9
    assert (run.packets_received, run.complete, run.latency_basis) == (20, True, "rtt")


def test_computed_summaries_follow_the_inverted_cdf_rule():
    t = _read(CRLF.name)
    rtt = t.samples.rtt_us.to_numpy()
    got = {r.stat: r for r in t.summaries.itertuples()}
    assert set(t.summaries.source) == {"computed"}
    assert got["count"].value == 20 and got["mean"].value == pytest.approx(rtt.mean())
    assert got["std"].value == pytest.approx(rtt.std(ddof=1))
    assert (got["min"].value, got["max"].value) == (70.636, 390.422)
    for stat, q in (("p50", 0.5), ("p90", 0.9), ("p95", 0.95)):
        assert got[stat].value == np.quantile(rtt, q, method="inverted_cdf") and got[stat].n == 20
    assert got["p50"].value == 90.294  # the 10th of 20 sorted values
    assert "p99" not in got  # 20 probes cannot say anything about a 1-in-100 tail


def test_crlf_lf_and_bom_give_the_same_probes():
    data = CRLF.read_bytes()
    a = azlatency.read(data)
    b = azlatency.read(data.replace(b"\r\n", b"\n"))
    c = azlatency.read(b"\xef\xbb\xbf" + data)
    for other in (b, c):
        pd.testing.assert_frame_equal(
            a.samples.drop(columns="run_id"), other.samples.drop(columns="run_id")
        )
    assert c.runs.encoding.iloc[0] == "utf-8-sig"
    # and the real BOM capture parses as one run with all 20 probes
    assert len(_read(f"{V}-crlf-bom-20probes.csv").samples) == 20


def test_truncated_file_keeps_complete_rows():
    t = _read(f"{V}-crlf-20probes-truncated.csv")
    run = t.runs.iloc[0]
    assert len(t.samples) == 12 and not run.complete
    assert "line 14: last row is cut off" in run.warnings  # '12,2026-11-2' (head -c 1000)


def test_local_time_timestamps_are_flagged():
    t = _read(f"{V}-lf-tz-paris-localtime.csv")
    first = t.samples.iloc[0]
    # line 2: 0,2026-11-21 01:48:59.437134,1795222139437141108,...  (TZ=Europe/Paris)
    assert first.time_ns - first.tx_time_ns == 3_600_000_000_000 - 7108
    assert "+1.00 h from send_time_ns" in t.runs.warnings.iloc[0]


def test_drop_log_marks_the_break():
    t = _read(f"{V}-crlf-server-killed-drop-stdout.log")
    run = t.runs.iloc[0]
    assert (run.parser_variant, run.complete, run.dst_ip, run.port) == (
        "log",
        False,
        "10.205.0.2",
        5000,
    )
    drop = t.samples.iloc[0]
    # last line: 2026-11-21 00:49:02.739331 TCP CONNECTION DROP at packet 10: ConnectionResetError(...)
    assert (drop.seq, drop.status) == (10, "error")
    assert drop.time_ns == pd.Timestamp("2026-11-21 00:49:02.739331", tz="UTC").value
    assert "ConnectionResetError" in drop.message and "(line 12)" in run.warnings
    assert t.summaries.value.tolist() == [1.0] and t.summaries.metric.iloc[0] == "connection_drops"
    # the CSV of the same run ends with packet 9, the probe before the drop
    csv = _read(f"{V}-crlf-server-killed-drop.csv")
    assert csv.samples.seq.iloc[-1] == 9 and csv.runs.complete.iloc[0]


def test_total_loss_is_a_run_without_probes():
    t = _read(f"{V}-crlf-no-echo-total-loss.csv")
    assert len(t.runs) == 1 and len(t.samples) == 0 and len(t.summaries) == 0
    assert not t.runs.complete.iloc[0] and t.runs.packets_received.iloc[0] == 0
    log = _read(f"{V}-crlf-no-echo-total-loss-stdout.log")
    assert log.samples.seq.iloc[0] == 0 and "TimeoutError" in log.samples.message.iloc[0]


def test_different_header_is_rejected_naming_the_expected_one():
    text = "packet, txTime(sec), rxTime(sec), rtt(usec)\n1, 1.0, 1.1, 100\n"
    assert not echo_csv.whole_file(text)
    with pytest.raises(ParseError) as info:
        azlatency.read(text, tool="echo_csv", strict=True)
    assert info.value.line_no == 1 and echo_csv.HEADER_LINE in str(info.value)
    with pytest.raises(DetectionError):
        azlatency.read(text, strict=True)


def test_bad_middle_row_strict_and_lenient():
    lines = CRLF.read_text().split("\n")
    lines[5] = "4,2026-11-21 00:48:53.046,notanumber,1795222133046000000,1.0"
    text = "\n".join(lines)
    with pytest.raises(ParseError) as info:
        azlatency.read(text, strict=True)
    assert info.value.line_no == 6 and info.value.tool == "echo_csv"
    t = azlatency.read(text, strict=False)
    assert len(t.samples) == 19 and "line 6 skipped" in t.runs.warnings.iloc[0]
    assert "packet_num is not consecutive" in t.runs.warnings.iloc[0]


def test_csv_and_log_inside_a_document():
    doc = (
        "# Run 3, AZ1 to AZ2\n\nThe probe file:\n\n"
        + (HERE / f"{V}-crlf-server-killed-drop.csv").read_text().replace("\r", "")
        + "\nand the client said:\n\n"
        + (HERE / f"{V}-crlf-server-killed-drop-stdout.log").read_text()
        + "\nThat was the end.\n"
    )
    t = azlatency.read(doc)
    assert list(t.runs.parser_variant) == ["csv", "log"]
    assert list(t.runs.line_start) == [5, 19] and list(t.runs.line_end) == [15, 30]
    assert list(t.runs.heading) == ["Run 3, AZ1 to AZ2"] * 2
    assert t.runs.context.iloc[0] == "The probe file:"


@pytest.mark.parametrize(
    "text, ns",
    [
        ("2026-11-21 00:48:52.644945", 1795222132644945000),
        ("2026-11-21T00:48:52.644945123Z", 1795222132644945123),
        ("2026-11-21 01:48:52.644945+01:00", 1795222132644945000),
        ("2026-11-20 23:48:52-0100", 1795222132000000000),
        ("2026-11-21 00:48:52", 1795222132000000000),
        ("2026-13-21 00:48:52", None),
        ("21/11/2026 00:48:52", None),
    ],
)
def test_timestamps_are_exact_integer_ns(text, ns):
    assert echo_csv.iso_ns(text) == ns


@pytest.mark.parametrize(
    "row",
    [
        "3,2026-11-21 00:48:52,99999999999999999999,1795222132645339681,1.0",  # beyond int64
        "3,2026-11-21 00:48:52,1795222132644949259,1795222132645339681,nan",
        "3,2026-11-21 00:48:52,1795222132644949259,1795222132645339681",  # 4 fields
    ],
)
def test_impossible_rows_are_bad_rows(row):
    lines = CRLF.read_text().replace("\r", "").split("\n")
    lines[4] = row
    with pytest.raises(ParseError) as info:
        azlatency.read("\n".join(lines), tool="echo_csv", strict=True)
    assert info.value.line_no == 5


# ---------------------------------------------------------------------------------------------
# The vectorised path (pyarrow, for big files) gives what the line-by-line parser gives.

CSV_FIXTURES = sorted(p for p in HERE.glob("*.csv"))


def _both(text: str):
    """(fast run or None, careful run) for the echo CSV ``text`` (header on line 1).  The fast
    path reads a big body in two halves at once: here every body is read both whole and in
    halves, and the two must agree."""
    data = text.encode("utf-8")
    fast = echo_csv._fast_csv(data, 0, data.find(b"\n") + 1)
    with mock.patch.object(fast_path, "_HALVES_FROM", 0):
        halves = echo_csv._fast_csv(data, 0, data.find(b"\n") + 1)
    assert (fast is None) == (halves is None)
    if fast is not None:
        _same(halves, fast)
    slow = echo_csv._parse_csv(text.split("\n"), 0, None, False)
    return fast, slow


def _same(fast, slow) -> None:
    assert (fast.line_start, fast.line_end, fast.warnings) == (
        slow.line_start,
        slow.line_end,
        slow.warnings,
    )
    assert fast.meta == slow.meta
    pd.testing.assert_frame_equal(fast.samples, slow.samples)
    assert [s.__dict__ for s in fast.summaries] == [s.__dict__ for s in slow.summaries]


@pytest.mark.parametrize("path", CSV_FIXTURES, ids=[p.name for p in CSV_FIXTURES])
def test_fast_path_equals_line_by_line(path):
    text = decode(path.read_bytes()).text
    fast, slow = _both(text)
    if "total-loss" in path.name:  # header only: nothing for pyarrow to read
        assert fast is None or fast.samples.empty
        return
    assert fast is not None
    _same(fast, slow)


def test_fast_path_on_odd_timestamps_and_cut_rows():
    lines = CRLF.read_text().replace("\r", "").split("\n")
    lines[2] = lines[2].replace("00:48:52.745483", "00:48:52")  # isoformat drops .000000
    lines[3] = (
        lines[3]
        .replace("2026-11-21 00:48:52", "2026-11-21T00:48:52")
        .replace(",", "Z,", 2)
        .replace("Z,", ",", 1)
    )
    fast, slow = _both("\n".join(lines[:-8]) + "\n15,2026-11-21 00:4")
    assert fast is not None and not fast.meta["complete"]
    _same(fast, slow)
    lines[4] = lines[4].replace("2026-11-21", "2026-02-30")  # no such day: time_ns empty
    fast, slow = _both("\n".join(lines))
    assert fast is not None and pd.isna(fast.samples.time_ns.iloc[3])
    _same(fast, slow)


def test_fast_path_gives_way_to_the_careful_parser():
    lines = CRLF.read_text().replace("\r", "").split("\n")
    for i, bad in (
        (5, "4,2026-11-21 00:48:53,x,1,1.0"),
        (5, ""),
        (6, "5,2026-11-21 00:48:53,1,2,nan"),
        (3, '"2",2026-11-21 00:48:52,1,2,1.0'),
    ):
        damaged = list(lines)
        damaged[i] = bad
        assert _both("\n".join(damaged))[0] is None
    assert _both(lines[0] + "\n\n" + "\n".join(lines[1:]))[0] is None  # blank line after the header


# Shapes the pattern and pyarrow's cast might judge apart: the cast must refuse each one the
# pattern refuses (zones, missing seconds, ten digits of fraction, spaces), or the length must.
_STAMPS = [
    "2025-03-20 01:02:03",
    "2025-03-20T01:02:03.1",
    "2025-03-20 01:02:03.123456789",
    "2025-03-20 01:02:03.000000000",
    "2025-03-20",
    "2025-03-20 01",
    "2025-03-20 01:02",
    "2025-03-20 01:02:03.1234567891",
    "2025-03-20 01:02:03Z",
    "2025-03-20 01:02:03+01:00",
    "2025-03-20 01:02:03-0100",
    "2025-03-20T01+01:00",
    "2025-03-20 01:02Z",
    "2025-03-20 01:02:03,5",
    "2025-03-20 01:02:03.",
    "2025-03-20t01:02:03",
    "2025-03-20 010203.12345",
    "20250320T010203.123456",
    "2025-079 01:02:03.1",
    "+2025-03-20 01:02:03",
    "2025-03-20 01:02:03.1e5",
    "2025-03-20 24:00:00",
    "2025-02-30 01:02:03",
]


@pytest.mark.parametrize("stamp", _STAMPS)
def test_naive_timestamps_without_the_pattern_agree_with_it(stamp):
    for text in (stamp, f"  {stamp} "):  # spaces around are trimmed first, as before
        got = fast_path._naive_ns(pa.chunked_array([[text, "2025-03-20 01:02:03.5"]]))
        if re.match(fast_path._NAIVE, stamp) and echo_csv.iso_ns(stamp) is not None:
            assert got is not None and got[0] == echo_csv.iso_ns(stamp)
            assert got[1] == 1742432523500000000
        else:
            assert got is None


def test_blank_lines_are_found_by_the_count_of_rows():
    rows = b"0,a\n1,b\n2,c"
    assert not fast_path._blank_line(rows, 0, len(rows), 3, 3)
    assert not fast_path._blank_line(b"", 0, 0, 0, 0)
    blank = b"0,a\n1,b\n \t\r\n2,c"
    assert fast_path._blank_line(blank, 0, len(blank), 3, 4)  # one skipped: a blank line
    cr = b"0,a\n1,b\r2,c"  # a bare CR: pyarrow breaks the line there, but nothing is blank
    assert not fast_path._blank_line(cr, 0, len(cr), 3, 2)
    for text in (rows, blank, cr):  # what read_body hands it: the lines counted
        lines = fast_path.count_newlines(text, 0, len(text)) + 1
        assert lines == {rows: 3, blank: 4, cr: 2}[text]


@pytest.mark.parametrize("n", [0, 1, 2, 3, 1001, 100_000])
@pytest.mark.parametrize("missing", [0.0, 0.1, 1.0])
def test_median_of_the_offsets_is_pandas_median(n, missing):
    rng = np.random.default_rng(n)
    for scale in (1e3, 1e12, 9e18):  # to past 2**53: the middle two averaged as floats
        values = (rng.random(n) * scale).astype(np.int64) * rng.choice([-1, 1], n)
        column = pd.Series(pd.arrays.IntegerArray(values, rng.random(n) < missing))
        want, got = column.median(), echo_csv._median(column)
        if pd.isna(want):  # nothing left: pandas says NA, _checks asks pd.notna of either
            assert np.isnan(got)
        else:
            assert got == want


def test_fast_path_samples_can_be_corrected_in_place():
    lines = CRLF.read_text().replace("\r", "").split("\n")
    fast, _ = _both("\n".join(lines))
    s = fast.samples
    assert all(s[c].array._data.flags.writeable for c in ("seq", "time_ns", "tx_time_ns"))
    s.loc[0, "seq"] = 99
    s.loc[1, "rtt_us"] = 1.5
    assert (s["seq"].iloc[0], s["rtt_us"].iloc[1]) == (99, 1.5)


def test_big_lf_file_goes_through_parse_bytes_and_matches():
    rows = CRLF.read_text().replace("\r", "").rstrip("\n").split("\n")
    body = [rows[1 + i % 20].split(",", 1)[1] for i in range(3000)]
    data = ("\n".join([rows[0]] + [f"{i},{b}" for i, b in enumerate(body)]) + "\n").encode()
    assert len(data) > 64 * 1024  # the reader takes its bytes fast path
    a = azlatency.read(data)
    b = azlatency.read(data.replace(b"\n", b"\r\n"))  # CRLF: the text path
    pd.testing.assert_frame_equal(
        a.samples.drop(columns="run_id"), b.samples.drop(columns="run_id")
    )
    assert len(a.samples) == 3000 and a.runs.line_end.iloc[0] == 3001


@settings(
    max_examples=60,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(data=st.data())
def test_fast_and_careful_agree_on_damaged_files(data):
    path = data.draw(st.sampled_from(CSV_FIXTURES), label="file")
    material = _material(path)
    text = decode(damage(data.draw(plans(*material), label="damage"), *material)).text
    if not echo_csv.whole_file(text):
        return
    fast, slow = _both(text)
    if fast is not None:
        _same(fast, slow)


def test_log_with_an_impossible_port_keeps_the_drop():
    text = (
        (HERE / f"{V}-crlf-no-echo-total-loss-stdout.log")
        .read_text()
        .replace(":5000,", ":99999999999999999999,")
    )
    t = azlatency.read(text).validate()
    assert pd.isna(t.runs.port.iloc[0]) and t.samples.status.tolist() == ["error"]


# ---------------------------------------------------------------------------------------------
# The original client's output (SOURCES.md, "The original client"): commit 2cfea51 prints
# ping-style lines, commit eff7dae logs through Python's logging.

S = "echo_csv--stdout-2cfea51-py3.11-linux-lo"


def _rtt(t, stat, source):
    s = t.summaries
    return s.loc[(s.metric == "rtt") & (s.stat == stat) & (s.source == source), "value"].item()


def test_stdout_replies_are_samples_and_the_statistics_reported():
    t = _read(f"{S}-20probes.txt")
    run = t.runs.iloc[0]
    assert (run.parser_variant, run.dst_ip, run.port, run.msg_size_bytes) == (
        "stdout",
        "127.0.0.1",
        5007,
        64,
    )
    assert (run.packets_sent, run.packets_received, run.loss_pct, run.complete) == (
        20,
        20,
        0.0,
        True,
    )
    s = t.samples
    # line 2: 64 bytes from 127.0.0.1:5007: seq=1 time=509.333 μs; line 21: seq=20 time=164.287
    assert s.seq.tolist() == list(range(1, 21)) and (s.status == "ok").all()
    assert (s.rtt_us.iloc[0], s.rtt_us.iloc[-1]) == (509.333, 164.287)
    # rtt min/avg/max/stddev = 122.720/170.446/509.333/82.818 μs, and the same from the replies
    assert [_rtt(t, k, "reported") for k in ("min", "mean", "max", "std")] == [
        122.72,
        170.446,
        509.333,
        82.818,
    ]
    assert _rtt(t, "mean", "computed") == pytest.approx(170.446, abs=5e-4)
    assert _rtt(t, "std", "computed") == pytest.approx(82.818, abs=5e-4)


def test_stdout_connection_closed_by_the_server():
    t = _read(f"{S}-closed-by-server.txt")
    run = t.runs.iloc[0]
    # 8 packets transmitted, 7 received, 12.5% packet loss; ERROR: Connection closed by server
    assert (run.packets_sent, run.packets_received, run.loss_pct, run.complete) == (
        8,
        7,
        12.5,
        False,
    )
    s = t.samples
    assert s.status.tolist() == ["ok"] * 7 + ["error"]
    assert (s.seq.iloc[-1], s.message.iloc[-1]) == (8, "Connection closed by server")  # in flight
    drops = t.summaries[t.summaries.metric == "connection_drops"]
    assert drops.value.tolist() == [1.0]


def test_stdout_timeout_and_refused():
    t = _read(f"{S}-timeout.txt")
    assert t.samples[["seq", "status", "message"]].values.tolist() == [
        [1, "error", "socket timeout — server not responding"]
    ]
    assert (t.summaries.metric == "connection_drops").sum() == 1
    t = _read(f"{S}-refused.txt")  # never connected: an error, not a drop
    run = t.runs.iloc[0]
    assert (run.packets_sent, run.errors, run.complete) == (0, 1, False)
    assert (t.summaries.metric == "connection_drops").sum() == 0
    assert "could not connect: [Errno 111] Connection refused" in run.warnings


def test_the_readme_example_agrees_with_itself():
    t = _read("echo_csv--stdout-readme-example--simonpainter-echo_test.txt")
    assert t.samples.rtt_us.tolist() == [312.45, 298.112]
    assert _rtt(t, "mean", "computed") == pytest.approx(_rtt(t, "mean", "reported"), abs=5e-4)
    # 10.1385 from the printed replies, 10.139 printed: the replies are themselves rounded
    assert _rtt(t, "std", "computed") == pytest.approx(_rtt(t, "std", "reported"), abs=1e-3)
    assert "stopped with Ctrl+C" in t.runs.iloc[0].warnings


def test_a_shortened_paste_keeps_only_the_printed_statistics():
    """The blog's runs were cut with '...': the six replies shown are not the run."""
    t = _read("echo_csv--stdout-blog-loopback-and-crossover-elided--simonpainter.md")
    assert t.runs.tool.tolist() == ["echo_csv", "echo_csv"]  # before: three ping runs
    assert t.runs.heading.tolist() == [
        "Test 0: Loopback Baseline",
        "Test 1: Crossover Cable Baseline",
    ]
    assert t.runs.command.iloc[1] == "python3 echo_test/client/echo_client.py 10.1.1.2 7"
    assert t.runs.packets_sent.tolist() == [20, 39] and t.runs.loss_pct.tolist() == [0.0, 2.6]
    assert len(t.samples) == 0
    assert all("replies left out ('...'): the 6 shown are not kept" in w for w in t.runs.warnings)
    reported = t.summaries[t.summaries.stat == "mean"]
    assert reported.value.tolist() == [39.056, 195.387] and set(reported.source) == {"reported"}


def test_eff7dae_log_drop_takes_the_packet_being_sent():
    t = _read("echo_csv--log-eff7dae-py3.11-linux-lo-closed-by-server.log")
    # line 13: Sending packet #5 (64 bytes)...; line 14: ... ERROR - TCP CONNECTION DROP: Connection closed by server
    assert t.samples[["seq", "status"]].values.tolist() == [[5, "error"]]
    assert t.samples.time_ns.item() == pd.Timestamp("2026-11-24 04:35:50.443", tz="UTC").value
    csv = _read("echo_csv--csv-eff7dae-py3.11-linux-lo-closed-by-server.csv")
    assert csv.samples.seq.max() == 4  # the CSV stops at the last reply


def test_replies_pasted_without_their_header_are_not_ping():
    """ping's grammar took 'seq=1 time=108.204 μs' for a BusyBox reply with no time (and a
    file of such lines for a whole ping output)."""
    text = (
        "64 bytes from 10.1.1.2:7: seq=1 time=108.204 μs\n"
        "64 bytes from 10.1.1.2:7: seq=2 time=228.241 μs\n"
    )
    t = azlatency.read(text, strict=False)
    assert t.runs.tool.tolist() == ["echo_csv"] and t.samples.rtt_us.tolist() == [108.204, 228.241]
    assert "no statistics" in t.runs.warnings.item()


def test_stdout_cut_before_the_rtt_line_is_incomplete():
    """print_stats() writes 'rtt min/avg/max/stddev' whenever a reply came back; the capture
    cut after '20 packets transmitted, 20 received, 0.0% packet loss' (line 24) lacks it."""
    t = _read(f"{S}-20probes-cut-before-rtt.txt")
    run = t.runs.iloc[0]
    assert not run.complete and (run.packets_sent, run.packets_received) == (20, 20)
    assert run.warnings == (
        "no 'rtt min/avg/max/stddev' line after line 24 (cut short?): the reported rtt is missing"
    )
    reported = t.summaries[t.summaries.source == "reported"]
    assert reported.stat.tolist() == ["count"]  # no min/avg/max/stddev made up
    assert (t.samples.rtt_us.iloc[0], t.samples.rtt_us.iloc[-1]) == (509.333, 164.287)
    assert _rtt(t, "mean", "computed") == pytest.approx(170.446, abs=5e-4)
    # a reply cut inside its time ('time=164.28' of 'time=164.287 μs') is not a reply
    lines = (HERE / f"{S}-20probes.txt").read_text(encoding="utf-8").split("\n")
    t = azlatency.read("\n".join(lines[:20] + [lines[20][:-4]]))
    assert not t.runs.complete.item() and t.samples.seq.tolist() == list(range(1, 20))
    # the server never answered: 0 received, no rtt line, no such warning
    t = _read(f"{S}-timeout.txt")
    assert "cut short" not in t.runs.warnings.item()


# --- a foreign line inside the client's output (issue 38) -------------------------------------


def _with(name: str, at: int, line: str, strict: bool = False):
    """The fixture ``name`` read whole, and with ``line`` inserted as line ``at`` (1-based)."""
    lines = (HERE / name).read_text(encoding="utf-8").split("\n")
    whole = azlatency.read("\n".join(lines), source="x")
    return whole, azlatency.read(
        "\n".join(lines[: at - 1] + [line] + lines[at - 1 :]), strict=strict
    )


def _figures(t):
    cols = ["metric", "stat", "value", "source"]
    return t.summaries[cols].reset_index(drop=True), t.samples.drop(columns="run_id")


@pytest.mark.parametrize(
    "name, at",
    [
        ("echo_csv--stdout-2cfea51-py3.11-linux-lo-20probes.txt", 23),  # after the gap
        ("echo_csv--stdout-2cfea51-py3.11-linux-lo-20probes.txt", 10),  # among the replies
        ("echo_csv--stdout-2cfea51-py3.11-linux-lo-1400B.txt", 13),
    ],
)
def test_a_foreign_line_does_not_split_the_stdout_run(name, at):
    """'Connection reset by peer' between the replies' gap and the statistics made the
    statistics a second run (a fake replicate); now one run, the line named, the figures as
    without it."""
    whole, got = _with(name, at, "Connection reset by peer")
    assert len(got.runs) == 1
    assert (
        f"line {at} skipped: not echo_csv output: 'Connection reset by peer'"
        in (got.runs.warnings.iloc[0])
    )
    for a, b in zip(_figures(got), _figures(whole)):
        assert a.equals(b)
    with pytest.raises(ParseError, match=rf":{at}: expected echo_csv output"):
        _with(name, at, "Connection reset by peer", strict=True)


@pytest.mark.parametrize("at", [2, 5, 9])
def test_a_foreign_line_inside_the_client_log_keeps_its_head(at):
    """The log around a TCP CONNECTION DROP was cut at a foreign line: the lines above it (the
    'Connected to' line: address, port, start time) were lost without a word."""
    name = "echo_csv--log-eff7dae-py3.11-linux-lo-closed-by-server.log"
    whole, got = _with(name, at, "12.5")
    run, base = got.runs.iloc[0], whole.runs.iloc[0]
    assert (run.dst_ip, run.port, run.start_time) == (base.dst_ip, base.port, base.start_time)
    assert run.dst_ip == "127.0.0.1" and run.port == 5008
    assert f"line {at} skipped: not echo_csv output: '12.5'" in run.warnings


def test_a_foreign_last_line_of_a_csv_is_not_a_cut_row():
    """A last line that is no prefix of a row (a kernel message) is a stray line: the run
    stays complete; only a line a row could have been cut to is 'cut off'."""
    name = "echo_csv--py3.11-linux-i0.1-lf-20probes.csv"
    kernel = "[ 1234.567890] mlx5_core 0001:00:02.0 eth1: Link up"
    whole, got = _with(name, 22, kernel)
    assert bool(got.runs.complete.iloc[0]) and len(got.samples) == len(whole.samples) == 20
    assert "line 22 skipped" in got.runs.warnings.iloc[0]
    _, cut = _with(name, 22, "20,2026-11-21 00:48:56.90")
    assert not cut.runs.complete.iloc[0] and "last row is cut off" in cut.runs.warnings.iloc[0]


def _rows(n: int) -> str:
    """``n`` probes 0.1 s apart, 100 µs each (enough for the big-file path)."""
    t0 = 1795222134885895266
    return "".join(
        f"{i},{np.datetime64(t0 + i * 10**8, 'ns').astype('datetime64[us]')},"
        f"{t0 + i * 10**8},{t0 + i * 10**8 + 100000},100.0\n".replace("T", " ")
        for i in range(n)
    )


_TEXTS = {
    "crlf": CRLF.read_bytes().decode("utf-8"),  # 20 probes, CRLF
    "big": f"{HEADER}\n{_rows(600)}",  # past the 16 KiB from which the fast path reads
}


@pytest.mark.parametrize("strict", [True, False])
@pytest.mark.parametrize("name", sorted(_TEXTS))
def test_a_header_run_together_with_the_first_row_is_read(name, strict):
    """A lost line break joins the header and the first row ('...,rtt_us0,2026-11-21 ...'):
    the file was 'no known tool output' (the whole file lost).  Every row is read, and the
    run names the line; a big file too (its fast path would skip the header's line)."""
    text = _TEXTS[name]
    bad = text.replace("\r\n" if name == "crlf" else "\n", "", 1)
    base = azlatency.read(text.encode(), strict=strict)
    got = azlatency.read(bad.encode(), strict=strict)
    assert len(got.samples) == len(base.samples) == (20 if name == "crlf" else 600)
    assert got.samples.drop(columns="run_id").equals(base.samples.drop(columns="run_id"))
    said = got.runs["warnings"].iloc[0]
    assert "line 1: 2 of the echo CSV's lines run together (line breaks lost)" in said
