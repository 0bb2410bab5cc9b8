"""irtt: values read off our own captures of irtt 0.9.0 (tests/fixtures/irtt, SOURCES.md)."""

from __future__ import annotations

import gzip

import numpy as np
import pandas as pd
import pytest

import azlatency
from azlatency.errors import NothingMeasured, ParseError
from azlatency.parsers.irtt import ns_of
from tests.conftest import FIXTURES
from tests.parsers._joined import assert_same_reading, joined

HERE = FIXTURES / "irtt"
V = "irtt--0.9.0-linux"


def _read(name: str, **kw):
    return azlatency.read(HERE / name, **kw).validate()


def _stat(t, metric, stat, source="reported"):
    s = t.summaries
    return s.loc[(s.metric == metric) & (s.stat == stat) & (s.source == source), "value"].item()


@pytest.mark.parametrize(
    ("text", "ns"),
    [("274µs", 274_000), ("992ns", 992), ("35.52ms", 35_520_000), ("1.98s", 1_980_000_000)]
    + [("1m2.5s", 62_500_000_000), ("0s", 0), ("-5.5µs", -5_500), ("2h0m0s", 7_200 * 10**9)],
)
def test_go_durations_are_read_exactly(text, ns):
    assert ns_of(text) == ns


def test_text_probes_table_and_footer():
    t = _read(f"{V}-i20ms-d2s-clean.txt")
    run = t.runs.iloc[0]
    assert (run.tool, run.parser_variant, run.latency_basis, run.dst_ip, run.port) == (
        "irtt",
        "text",
        "rtt",
        "10.77.0.1",
        2112,
    )
    assert (run.packets_sent, run.packets_received, run.loss_pct, run.complete) == (
        97,
        97,
        0.0,
        True,
    )
    assert run.duration_s == 1.98 and run.msg_size_bytes == 60
    assert '"clock_sync": "unknown"' in run.labels  # one-way figures need synchronized clocks
    first = t.samples.iloc[0]  # seq=0 rtt=576µs rd=305µs sd=270µs ipdv=n/a
    assert (first.seq, first.rtt_us, first.receive_delay_us, first.send_delay_us) == (
        0,
        576.0,
        305.0,
        270.0,
    )
    assert np.isnan(first.ipdv_us)
    # RTT   121µs   223µs   188µs   2.03ms   200µs
    assert [_stat(t, "rtt", k) for k in ("min", "mean", "p50", "max", "std")] == [
        121.0,
        223.0,
        188.0,
        2030.0,
        200.0,
    ]
    # IPDV (jitter)   140ns ... 1.8ms: irtt's IPDV, metric ipdv
    assert (_stat(t, "ipdv", "min"), _stat(t, "ipdv", "max")) == (0.14, 1800.0)
    assert _stat(t, "server_processing", "max") == 35.5
    # the probes' own statistics agree with the printed ones to irtt's rounding
    assert _stat(t, "rtt", "mean", "computed") == pytest.approx(223.0, rel=0.01)
    assert _stat(t, "ipdv", "mean", "computed") == pytest.approx(73.9, rel=0.01)
    assert _stat(t, "send_rate", "mean") == 23_500.0


def test_text_and_json_of_one_run_agree_and_json_says_which_way():
    text = _read(f"{V}-i10ms-d3s-o-loss-console.txt")
    js = _read(f"{V}-i10ms-d3s-o-loss-file.json")
    a, b = text.samples.set_index("seq").sort_index(), js.samples.set_index("seq").sort_index()
    assert len(a) == len(b) == 294 and (a.status.to_numpy() == b.status.to_numpy()).all()
    ok = b.status == "ok"
    # the text rounds to about three digits (irtt's rdur)
    assert np.allclose(a.rtt_us[ok], b.rtt_us[ok], rtol=0.006)
    assert np.allclose(a.send_delay_us[ok], b.send_delay_us[ok], rtol=0.006, atol=0.01)
    lost = b[b.status == "lost"].message.value_counts()
    assert lost["lost upstream (client → server)"] == 31
    assert lost["lost downstream (server → client)"] == 29
    run = js.runs.iloc[0]
    assert (run.tool_version, run.src_ip, run.packets_sent, run.packets_received) == (
        "0.9.0",
        "10.77.0.2",
        294,
        234,
    )
    assert str(run.start_time) == "2026-11-25 16:16:15.659735282+00:00"
    # the JSON's exact ns: first answered probe seq=1, rtt 207057 ns, send 132367, recv 74690
    assert (b.rtt_us[1], b.send_delay_us[1], b.receive_delay_us[1]) == (207.057, 132.367, 74.69)
    assert b.tx_time_ns[1] == 1795623375670020034 and b.rx_time_ns[1] == 1795623375670235176
    # loss per direction: 10.54%/11.03% printed, the JSON's exact
    assert _stat(text, "loss_up", "mean") == 10.54
    assert _stat(js, "loss_down", "mean") == pytest.approx(11.02661596958175)
    assert _stat(js, "rtt", "p50") == 191.899 and _stat(text, "rtt", "p50") == 192.0
    # IPDV between consecutive answered probes: 189 in both, irtt's and ours alike
    assert _stat(js, "ipdv", "count") == 189 and _stat(js, "ipdv", "count", "computed") == 189
    assert _stat(text, "ipdv", "count", "computed") == 189


def test_gzip_output_reads_as_its_json():
    data = (HERE / f"{V}-i10ms-d3s-o-loss-file.json").read_bytes()
    plain = azlatency.read(data, source="x.json")
    zipped = azlatency.read(gzip.compress(data), source="x.json.gz")
    where = ["run_id", "source_path", "source_sha256"]
    assert zipped.runs.drop(columns=where).equals(plain.runs.drop(columns=where))
    assert zipped.samples.drop(columns="run_id").equals(plain.samples.drop(columns="run_id"))


def test_total_loss_is_every_probe_lost_in_text_and_json():
    for name in (f"{V}-l200-o-totalloss-console.txt", f"{V}-l200-o-totalloss-file.json"):
        t = _read(name)
        run = t.runs.iloc[0]
        assert (run.packets_sent, run.packets_received, run.loss_pct) == (50, 0, 100.0), name
        assert (t.samples.status == "lost").sum() == 50 and t.samples.rtt_us.isna().all()
        assert not ((t.summaries.metric == "rtt") & (t.summaries.stat == "mean")).any()


def test_stopped_runs_say_so():
    killed = _read(f"{V}-i100ms-d5s-killed.txt").runs.iloc[0]
    assert not killed.complete and "cut before irtt finished" in killed.warnings
    sigint = _read(f"{V}-i10ms-d10s-o-sigint-console.txt").runs.iloc[0]
    assert sigint.complete and "stopped by a signal (interrupt)" in sigint.warnings
    js = _read(f"{V}-i10ms-d10s-o-sigint-file.json").runs.iloc[0]
    assert "of the 10 s asked" in js.warnings
    err = _read(f"{V}-o-send-error-console.txt").runs.iloc[0]
    assert "send error: write udp4" in err.warnings and err.packets_sent == 2


def test_monotonic_clock_has_no_one_way_delays():
    t = _read(f"{V}-clock-monotonic-loss.txt")
    assert "send_delay_us" not in t.samples.columns
    assert not t.summaries.metric.isin(["send_delay", "receive_delay"]).any()
    assert t.summaries.metric.isin(["send_ipdv", "receive_ipdv"]).any()


def test_errors_are_located():
    with pytest.raises(NothingMeasured, match=r"no-server-error.txt:2: .*connection refused"):
        _read(f"{V}-no-server-error.txt")
    lines = (HERE / f"{V}-o-send-error-file.json").read_text().split("\n")
    damaged = "\n".join(lines[:40] + ["Connection reset by peer"] + lines[40:])
    with pytest.raises(ParseError, match=r"x:41: expected irtt output"):
        azlatency.read(damaged, source="x", strict=True)
    lenient = azlatency.read(damaged, source="x", strict=False)
    assert "line 41 skipped" in lenient.runs.warnings.iloc[0]
    cut = "\n".join(lines[:100])
    with pytest.raises(ParseError, match=r"invalid JSON.*cut short"):
        azlatency.read(cut, source="x", tool="irtt")


@pytest.mark.parametrize("strict", [True, False])
def test_json_start_time_that_is_no_time_is_named(strict):
    """A damaged ``stats.start_time`` (its hour replaced by 'nan', found by a mutation run)
    raised pandas' DateParseError out of the parser; it is now named and left out."""
    text = (HERE / f"{V}-o-send-error-file.json").read_text()
    bad = text.replace('"2026-11-25T16:16:12.183766046Z"', '"2026-11-25Tnan:16:12.183766046Z"')
    assert bad != text
    run = azlatency.read(bad, strict=strict).validate().runs.iloc[0]
    assert pd.isna(run.start_time)
    assert run.warnings.startswith(
        "document at line 1: start_time '2026-11-25Tnan:16:12.183766046Z' is no time: not read; "
    )
    good = azlatency.read(text, strict=strict).runs.iloc[0]
    assert good.start_time == pd.Timestamp("2026-11-25T16:16:12.183766046Z")


@pytest.mark.parametrize("strict", [True, False])
def test_a_json_brace_run_together_with_its_next_line_reads_the_same(strict):
    """'{' and '"version": {' run together by a lost line break is the same JSON; the file was
    'no known tool output' (parse looked for a line that is '{' alone)."""
    path = HERE / "irtt--0.9.0-linux-i10ms-d3s-o-loss-file.json"
    text = path.read_text(encoding="utf-8")
    bad, _ = joined(text, "{")
    base, got = azlatency.read(text, strict=strict), azlatency.read(bad, strict=strict)
    assert_same_reading(base, got, ("dst_ip", "complete", "packets_sent", "packets_received"))


def test_lines_after_the_json_document_are_named_not_fatal():
    """A shell's line pasted below irtt's JSON ('[sudo] password for ...', a prompt) made the
    file invalid JSON in both modes: the run was lost.  It is a stray line now (named by
    default, a located error when strict); a second document cut short is named and left out
    by default, the first kept."""
    name = "irtt--0.9.0-linux-o-send-error-file.json"
    text = (FIXTURES / "irtt" / name).read_text("utf-8").rstrip("\n")
    base = azlatency.read(text, strict=False)
    n = text.count("\n") + 2  # the line added below the document
    for tail, said in [
        ("[sudo] password for azureuser:", f"line {n} skipped: not irtt output: '[sudo]"),
        ('{"version": {"irtt": "0.9.0"', f"the JSON document from line {n} does not read"),
    ]:
        got = azlatency.read(text + "\n" + tail + "\n", strict=False)
        assert_same_reading(base, got, ("complete", "dst_ip"))
        assert said in got.runs.warnings[0]
        with pytest.raises(ParseError, match=f":{n}: "):
            azlatency.read(text + "\n" + tail + "\n", strict=True)
