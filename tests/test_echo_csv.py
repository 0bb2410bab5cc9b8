"""echo CSV: values read off our own captures (tests/fixtures/echo_csv, see SOURCES.md)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import azlatency
from azlatency.decode import decode
from azlatency.errors import DetectionError, ParseError
from azlatency.parsers import echo_csv
from tests.conftest import FIXTURES
from tests.test_properties import _material, damage, plans

HERE = FIXTURES / "echo_csv"
V = "echo_csv--py3.11-linux-i0.1"
CRLF = HERE / f"{V}-crlf-20probes.csv"


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
        azlatency.read(text, tool="echo_csv")
    assert info.value.line_no == 1 and echo_csv.HEADER_LINE in str(info.value)
    with pytest.raises(DetectionError):
        azlatency.read(text)


def test_bad_middle_row_strict_and_lenient():
    lines = CRLF.read_text().split("\n")
    lines[5] = "4,2026-11-21 00:48:53.046,notanumber,1795222133046000000,1.0"
    text = "\n".join(lines)
    with pytest.raises(ParseError) as info:
        azlatency.read(text)
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
        azlatency.read("\n".join(lines), tool="echo_csv")
    assert info.value.line_no == 5


# ---------------------------------------------------------------------------------------------
# The vectorised path (pyarrow, for big files) gives what the line-by-line parser gives.

CSV_FIXTURES = sorted(p for p in HERE.glob("*.csv"))


def _both(text: str):
    """(fast run or None, careful run) for the echo CSV ``text`` (header on line 1)."""
    data = text.encode("utf-8")
    fast = echo_csv._fast_csv(data, 0, data.find(b"\n") + 1)
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
