"""owping and twping: values read off our own captures of owamp 5.2.3 (tests/fixtures/owping
and twping, SOURCES.md)."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest

import azlatency
from azlatency import units
from azlatency.errors import NothingMeasured, ParseError
from azlatency.parsers.owamp.grammar import ntp_delay_us, ntp_ns
from tests.conftest import FIXTURES

OW = FIXTURES / "owping"
TW = FIXTURES / "twping"
V = "5.2.3-linux"


def _read(path, **kw):
    return azlatency.read(path, **kw).validate()


def _sum(t, run, metric, stat, source="reported"):
    s = t.summaries[t.summaries.run_id == t.runs.run_id.iloc[run]]
    return s[(s.metric == metric) & (s.stat == stat) & (s.source == source)].iloc[0]


def test_two_sessions_one_way_with_their_clocks():
    t = _read(OW / f"owping--{V}-c100-clean.txt")
    fwd, rev = t.runs.iloc[0], t.runs.iloc[1]
    assert (fwd.direction, rev.direction) == ("forward", "reverse")
    assert fwd.latency_basis == rev.latency_basis == "one_way"
    # src is the client, dst the server, whichever way the packets went
    assert (fwd.src_ip, fwd.dst_ip) == (rev.src_ip, rev.dst_ip) == ("10.77.0.2", "10.77.0.1")
    assert '"from_addr": "10.77.0.1"' in rev.labels  # the reverse session's sender
    for run in (fwd, rev):
        assert '"clock_sync": "unsync"' in run.labels and "Status UNSYNC" in run.labels
        assert "line 1: owping: NTP: Status UNSYNC" in run.warnings
    # one-way delay min/median/max = 0.03/0.1/12.2 ms; jitter = 5.8 ms (P95-P50)
    assert _sum(t, 0, "one_way", "min").value == 30.0
    assert _sum(t, 0, "one_way", "max").value == 12200.0
    p50 = _sum(t, 0, "one_way", "p50")
    assert (p50.value, p50.bound_low, p50.bound_high) == (100.0, 0.0, 100.0)
    jitter = _sum(t, 0, "jitter", "p95-p50")
    assert (jitter.value, jitter.bound_low, jitter.bound_high) == (5800.0, 5700.0, 5900.0)
    assert (fwd.packets_sent, fwd.packets_received, fwd.loss_pct) == (100, 100, 0.0)


def test_g_style_numbers_nan_and_a_bucket_width_off_the_default():
    t = _read(OW / f"owping--{V}-c100-nu-a99-loss.txt")
    # 24.3/100/4.37e+03 us; jitter and the 99th percentile are 'nan' (14% lost)
    assert _sum(t, 0, "one_way", "max").value == 4370.0
    assert not t.summaries.stat.isin(["p99", "p95-p50"]).any()
    assert (t.runs.packets_received.tolist(), t.runs.loss_pct.tolist()) == ([86, 89], [14, 11])
    path = OW / f"owping--{V}-c100-nu-b10us-a99-clean.txt"
    plain = _read(path)  # 21/70/144 us: 70 is no multiple of the default 100 µs
    assert "not a multiple of the bucket width 100 µs" in plain.runs.warnings.iloc[0]
    assert np.isnan(_sum(plain, 0, "one_way", "p50").bound_low)
    cmd = "$ owping -P 9000-9100 -c 100 -i 0.01 -n u -b 0.00001 -a 99 10.77.0.1:861\n"
    t = azlatency.read(cmd + path.read_text(), source="x")
    p99 = _sum(t, 0, "one_way", "p99")  # 99.0: 140 us, a 10 µs bucket
    assert (p99.value, p99.bound_low, p99.bound_high) == (140.0, 130.0, 140.0)
    assert t.runs.port.iloc[0] == 861 and '"bucket_width_s": 1e-05' in t.runs.labels.iloc[0]


def test_verbose_packets_lost_last_and_computed_statistics():
    t = _read(OW / f"owping--{V}-c50-v-loss.txt")
    assert t.runs.parser_variant.tolist() == ["verbose", "verbose"]
    fwd = t.samples[t.samples.run_id == t.runs.run_id.iloc[0]]
    assert len(fwd) == 50 and fwd.seq.iloc[0] == 0 and fwd.one_way_us.iloc[0] == 78.7
    assert fwd[fwd.status == "lost"].seq.tolist() == [6, 11, 27, 28, 29, 43, 44]
    assert _sum(t, 0, "one_way", "count", "computed").value == 43 == t.runs.packets_received[0]
    assert _sum(t, 0, "one_way", "max", "computed").value == 2600.0  # 2.6 ms, as reported
    assert np.isnan(fwd[fwd.seq == 7].ipdv_us.item())  # seq 6 was lost
    assert fwd[fwd.seq == 8].ipdv_us.item() == pytest.approx(20.0)  # |61 - 41|


def test_raw_records_split_into_sessions_exactly():
    t = _read(OW / f"owping--{V}-c30-R-loss.txt")
    assert t.runs.direction.tolist() == ["forward", "reverse"]
    fwd = t.samples[t.samples.run_id == t.runs.run_id.iloc[0]]
    rev = t.samples[t.samples.run_id == t.runs.run_id.iloc[1]]
    assert (len(fwd), len(rev)) == (30, 30)
    assert fwd[fwd.status == "lost"].seq.tolist() == [0, 11] and (rev.status == "ok").all()
    # 1 17199679083859757326 0 2.32831e-10 17199679083860118103 0 2.32831e-10 255
    first = fwd.iloc[0]
    st, rt = 17199679083859757326, 17199679083860118103
    assert first.one_way_us == ntp_delay_us(st, rt) == pytest.approx(84.0, abs=0.001)
    assert first.tx_time_ns == ntp_ns(st) and first.ttl == 255
    assert pd.Timestamp(first.tx_time_ns, unit="ns", tz="UTC").year == 2026
    assert t.runs.loss_pct.iloc[0] == pytest.approx(200 / 30)
    assert not (t.summaries.source == "reported").any()  # -R prints no statistics


def test_machine_output_exact_times_and_histogram():
    t = _read(OW / f"owping--{V}-c100-M-clean.txt")
    run = t.runs.iloc[0]
    assert str(run.start_time).startswith("2026-11-25 16:19") and run.duration_s > 0.5
    hist = t.samples[(t.samples.run_id == run.run_id) & (t.samples.kind == "histogram")]
    assert hist["count"].sum() == 100 and hist.bin_low_us.iloc[0] == 0.0
    jitter = _sum(t, 0, "jitter", "p95-p50")  # PDV 0.0022
    assert (jitter.value, jitter.bound_low, jitter.bound_high) == (2200.0, 2100.0, 2300.0)


def test_sub_sessions_are_windows_of_one_execution():
    t = _read(OW / f"owping--{V}-c100-N50-subsessions.txt")
    assert t.runs.direction.tolist() == ["forward", "forward", "reverse", "reverse"]
    assert t.runs.execution.nunique() == 2
    assert t.runs.execution.iloc[0] == "owping:0a4d0001eeb18914925907d97ec60967"
    assert ['"window": 0' in x for x in t.runs.labels] == [True, False, True, False]


def test_interrupted_killed_and_refused():
    t = _read(OW / f"owping--{V}-c1000-sigint.txt")
    run = t.runs.iloc[0]  # the "to" session's data was refused: what is left is the reverse
    assert len(t.runs) == 1 and run.direction == "reverse" and run.packets_sent == 0
    assert "Server denied request for to session data" in run.warnings
    # "0 sent, 0 lost (0.000%)": nothing measured, so no loss to state (it was 0%)
    assert pd.isna(run.loss_pct) and "its loss is not estimable (not 0%)" in run.warnings
    with pytest.raises(NothingMeasured, match="no session printed"):
        _read(OW / f"owping--{V}-c300-v-killed.txt")
    with pytest.raises(NothingMeasured, match=r":3: owping measured nothing: Unable to open"):
        _read(OW / f"owping--{V}-no-server-error.txt")
    with pytest.raises(NothingMeasured, match=r":3: twping measured nothing: Unable to open"):
        _read(TW / f"twping--{V}-no-server-error.txt")


def test_errors_are_located():
    lines = (OW / f"owping--{V}-c50-M-loss.txt").read_text().split("\n")
    damaged = "\n".join(lines[:20] + ["MAXERR\tfour"] + lines[20:])
    with pytest.raises(ParseError, match=r"x:21: unexpected 'MAXERR' value 'four'"):
        azlatency.read(damaged, source="x", strict=True)
    stray = "\n".join(lines[:10] + ["Connection reset by peer"] + lines[10:])
    with pytest.raises(ParseError, match=r"x:11: expected owping output"):
        azlatency.read(stray, source="x", strict=True)
    assert "line 11 skipped" in azlatency.read(stray, source="x", strict=False).runs.warnings[0]


def test_twping_round_trip_and_its_halves():
    t = _read(TW / f"twping--{V}-c100-clean.txt")
    run = t.runs.iloc[0]
    assert (run.tool, run.latency_basis, run.src_ip) == ("twping", "rtt", "10.77.0.2")
    assert pd.isna(run.direction)  # a round trip
    # round-trip time min/median/max = 0.0443/0.2/4.82 ms, (err=9.31e-07 ms)
    assert _sum(t, 0, "rtt", "min").value == 44.3
    p50 = _sum(t, 0, "rtt", "p50")
    assert (p50.value, p50.bound_low, p50.bound_high) == (200.0, 100.0, 200.0)
    assert _sum(t, 0, "send_delay", "max").value == 4100.0
    assert _sum(t, 0, "receive_delay", "min").value == 14.8
    assert _sum(t, 0, "server_processing", "max").value == 21.0
    assert _sum(t, 0, "clock_error", "max").value == pytest.approx(0.000931)
    assert _sum(t, 0, "receive_jitter", "p95-p50").value == 900.0
    assert '"clock_sync": "sync"' in run.labels  # the records said so, NTP notwithstanding


def test_twping_packets_and_raw_times():
    v = _read(TW / f"twping--{V}-c10-vU-clean.txt")
    first = v.samples.iloc[0]  # fwd_delay=1.196861e-01 ms ... sent=1795623628.703606
    assert (first.send_delay_us, first.receive_delay_us) == (119.6861, 43.86902)
    assert first.rtt_us == 163.5551 and first.tx_time_ns == 1795623628703606000
    raw = _read(TW / f"twping--{V}-c30-R-loss.txt")
    s = raw.samples
    ok = s[s.status == "ok"]
    # the round trip without the reflector's time is the sum of the two halves
    assert np.allclose(ok.rtt_us, ok.send_delay_us + ok.receive_delay_us)
    assert (s.status == "lost").sum() == 7 and raw.runs.packets_sent.item() == 30
    m = _read(TW / f"twping--{V}-c50-M-loss.txt")
    assert m.samples["count"].sum() == 36  # the round trip's column of <BUCKETS>


def test_one_way_is_never_a_round_trip():
    t = _read(OW / f"owping--{V}-c50-v-loss.txt")
    samples = units.to_rtt(t.samples, t.runs)
    assert "rtt_us" not in samples.columns and samples.one_way_us.equals(t.samples.one_way_us)
    summaries = units.to_rtt(t.summaries)
    assert summaries.equals(t.summaries)  # metric one_way stays one_way, values unscaled


@pytest.mark.parametrize(
    ("line", "damaged", "expected"),
    [
        # a count -M prints whole ('%lu'); int() raised ValueError
        ("LOSS_TIMEOUT\t8598945433", "LOSS_TIMEOUT\t8598943.0033", "'LOSS_TIMEOUT' value "
         "'8598943.0033' (a whole number was expected)"),
        ("SENT\t50", "SENT\t5e1", "'SENT' value '5e1' (a whole number was expected)"),
    ],
)  # fmt: skip
def test_twping_machine_count_that_is_no_whole_number_is_located(line, damaged, expected):
    """Found by a mutation run over the fixtures."""
    text = (TW / f"twping--{V}-c50-M-loss.txt").read_text()
    assert line in text
    bad = text.replace(line, damaged)
    at = text.split("\n").index(line) + 1
    with pytest.raises(ParseError, match=rf":{at}: unexpected {re.escape(expected)}"):
        azlatency.read(bad, strict=True)
    said = azlatency.read(bad).validate().runs["warnings"].iloc[0]
    assert f"line {at} skipped: {expected}" in said


@pytest.mark.parametrize(
    ("name", "line", "damaged", "expected"),
    [
        # -M's %g seconds with an exponent past Decimal's: decimal.InvalidOperation escaped
        (f"twping--{V}-c100-M-clean.txt", "MIN\t", "1e99999999999999999999999",
         "value '1e99999999999999999999999' (a number was expected)"),
        # -M's START_TIME past 2262: pandas' OutOfBoundsDatetime escaped
        (f"twping--{V}-c100-M-clean.txt", "START_TIME\t", "99999999999999999999999",
         "value '99999999999999999999999' (a whole number was expected)"),
        # -M's BUCKET_WIDTH beyond a float: every bucket NaN, int() raised ValueError
        (f"twping--{V}-c50-M-loss.txt", "BUCKET_WIDTH\t", "1e400",
         "value '1e400' (a number was expected)"),
        # the text summary's '(err=... ms)' likewise
        (f"twping--{V}-c100-clean.txt", "(err=", "1e99999999999999999999999",
         "line with '1e99999999999999999999999' (a number was expected)"),
    ],
)  # fmt: skip
def test_a_number_no_table_can_hold_is_located(name, line, damaged, expected):
    """Found by the slow property test (hypothesis): a number replaced by one too big for
    Decimal or a timestamp was an uncaught exception, not a located error."""
    text = (TW / name).read_text()
    lines = text.split("\n")
    at = next(k for k, x in enumerate(lines) if line in x)
    head, _, tail = lines[at].partition(line)
    number = re.match(r"[-+.\de]+", tail)[0]
    lines[at] = head + line + damaged + tail[len(number) :]
    bad = "\n".join(lines)
    with pytest.raises(ParseError, match=rf":{at + 1}: unexpected .*{re.escape(expected)}"):
        azlatency.read(bad, strict=True)
    said = azlatency.read(bad).validate().runs["warnings"].str.cat(sep="; ")
    assert f"line {at + 1} skipped:" in said


def test_twping_loss_percent_as_printed_only():
    """'(%.3f%%)': '35 lost (1e400%)' made loss_pct inf and the table failed its schema."""
    text = (TW / f"twping--{V}-c200-loss.txt").read_text()
    bad = text.replace("35 lost (17.500%)", "35 lost (1e400%)")
    assert bad != text
    t = azlatency.read(bad).validate()
    assert "skipped: not twping output: '200 sent, 35 lost (1e400%)" in t.runs["warnings"].iloc[0]
    assert azlatency.read(text).runs["loss_pct"].iloc[0] == 17.5


def test_one_way_delays_below_zero_say_the_clocks_differ():
    # A published pair of sessions (a lab's notes, owping -c 10 -a 98 -a 99 between two hosts)
    # prints 'one-way delay min/median/max = -12.5/-12.5/-12.4 ms, (err=9.01 ms)' one way and
    # '12.8/12.9/12.8 ms' back: one clock 12.6 ms behind the other.  Our captures share one
    # clock; the clean capture's and the -v capture's delays moved by the same 12.6 ms stand in.
    text = (OW / f"owping--{V}-c100-clean.txt").read_text()
    moved = text.replace("= 0.03/0.1/12.2 ms, (unsync)", "= -12.57/-12.5/-0.4 ms, (err=9.01 ms)")
    t = _read(moved.encode())
    fwd, rev = t.runs.warnings.tolist()
    assert "one-way delays below 0 (min -12.57 ms, owping's error estimate 9.01 ms)" in fwd
    assert "below 0" not in rev  # the way back stays above 0
    assert _sum(t, 0, "one_way", "min").value == -12570.0  # kept as printed
    v = (OW / f"owping--{V}-c50-v-loss.txt").read_text()
    shifted = re.sub(
        r"delay=(\d+\.\d+) ms", lambda m: f"delay={float(m[1]) - 12.6:.4f} ms", v, count=3
    )
    u = _read(shifted.encode())
    assert "one-way delays below 0 (min -12.5" in u.runs.warnings.iloc[0]
    assert (u.samples.one_way_us < 0).sum() == 3
    # the captures themselves: no such warning
    assert not _read(OW / f"owping--{V}-c100-clean.txt").runs.warnings.str.contains("below 0").any()
