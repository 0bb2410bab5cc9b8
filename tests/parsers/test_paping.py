"""paping: values read off our own captures (tests/fixtures/paping, see SOURCES.md), and the
forms published pastes take (a line of dots, ``^C``, a tab's indentation, CRLF) made from them."""

from __future__ import annotations

import pandas as pd
import pytest

import azlatency
from azlatency.errors import ParseError
from tests.conftest import FIXTURES

HERE = FIXTURES / "paping"
V = "paping--1.5.5-linux"


def _text(name: str) -> str:
    return (HERE / name).read_text(encoding="utf-8")


def _read(what, **kw):
    return azlatency.read(HERE / what if isinstance(what, str) else what, **kw).validate()


def _stat(t, stat, source, run=0):
    s = t.summaries[t.summaries.run_id == t.runs.run_id.iloc[run]]
    return s.loc[(s.metric == "rtt") & (s.stat == stat) & (s.source == source), "value"].item()


def test_connect_times_are_round_trips_and_the_statistics_agree():
    t = _read(f"{V}-veth-c20-nocolor-hostname.txt")
    run = t.runs.iloc[0]
    # Connecting to svc-b.azl.internal [10.207.0.2] on TCP 443:
    assert (run.tool, run.tool_version, run.dst_host, run.dst_ip, run.port) == (
        "paping",
        "1.5.5",
        "svc-b.azl.internal",
        "10.207.0.2",
        443,
    )
    assert (run.protocol, run["mode"], run.latency_basis, run.complete) == (
        "tcp",
        "connect",
        "rtt",
        True,
    )
    assert pd.isna(run.command)  # the banner is no command line
    # Attempted = 20, Connected = 20, Failed = 0 (0.00%)
    assert (run.packets_sent, run.packets_received, run.loss_pct) == (20, 20, 0.0)
    s = t.samples
    # line 5: time=0.33ms; line 24: time=0.19ms
    assert s.seq.tolist() == list(range(1, 21)) and (s.kind == "probe").all()
    assert (s.rtt_us.iloc[0], s.rtt_us.iloc[-1]) == (330.0, 190.0)
    # Minimum = 0.09ms, Maximum = 2.33ms, Average = 0.35ms; no failure: the mean as printed
    assert [_stat(t, k, "reported") for k in ("min", "max", "mean")] == [90.0, 2330.0, 350.0]
    assert _stat(t, "mean", "computed") == pytest.approx(350.0, abs=5)
    assert not isinstance(run.warnings, str)


def test_the_average_over_every_attempt_is_made_the_mean_of_the_connects():
    t = _read(f"{V}-veth-c8-t500-service-stopped.txt")
    run = t.runs.iloc[0]
    # Attempted = 8, Connected = 4, Failed = 4 (50.00%); Average = 0.11ms is 0.88 ms / 8
    assert (run.packets_sent, run.packets_received, run.loss_pct) == (8, 4, 50.0)
    assert _stat(t, "mean", "reported") == pytest.approx(220.0)
    assert _stat(t, "mean", "computed") == pytest.approx(220.0)  # 0.27 0.09 0.26 0.26 ms
    assert "divides the connect times by all 8 attempts" in run.warnings
    s = t.samples
    assert s.status.tolist() == ["ok"] * 4 + ["timeout"] * 4
    assert (s.message.iloc[-1], s.rtt_us.iloc[-1] != s.rtt_us.iloc[-1]) == (
        "Connection timed out",
        True,
    )


def test_a_minimum_set_by_a_failed_first_attempt_is_left_out():
    t = _read(f"{V}-veth-c5-t500-service-late.txt")
    run = t.runs.iloc[0]
    # Minimum = 0.00ms, Maximum = 0.32ms, Average = 0.19ms after a first attempt that failed
    reported = t.summaries[t.summaries.source == "reported"]
    assert "min" not in reported.stat.tolist()
    assert _stat(t, "max", "reported") == 320.0
    assert _stat(t, "mean", "reported") == pytest.approx(237.5)  # 0.19 ms * 5 / 4
    assert _stat(t, "min", "computed") == 110.0
    assert "'Minimum = 0.00ms' is no connect time" in run.warnings


def test_no_connect_stores_no_time():
    t = _read(f"{V}-veth-c4-closed-port.txt")
    run = t.runs.iloc[0]
    assert (run.packets_sent, run.packets_received, run.loss_pct, run.complete) == (
        4,
        0,
        100.0,
        True,
    )
    # 'Minimum = 0.00ms, Maximum = 0.00ms, Average = 0.00ms': no time
    assert t.summaries.stat.tolist() == ["count"] and _stat(t, "count", "reported") == 0
    assert (t.samples.status == "timeout").all() and len(t.samples) == 4


def test_colours_and_an_endless_run():
    colour = _read(f"{V}-veth-c5-colour.txt")
    assert colour.samples.rtt_us.tolist() == [10220.0, 320.0, 190.0, 230.0, 170.0]
    assert _stat(colour, "max", "reported") == 10220.0
    endless = _read(f"{V}-veth-endless-sigint.txt")
    assert (endless.runs.packets_sent.item(), len(endless.samples)) == (7, 7)


def test_an_unresolved_name_is_a_located_error():
    with pytest.raises(ParseError) as e:
        azlatency.read(HERE / f"{V}-cannot-resolve.txt")
    assert e.value.line_no == 3 and "Cannot resolve host" in e.value.reason


def test_a_paste_shortened_with_dots_keeps_only_the_statistics():
    # as Azure's Chinese guide pastes its 500 attempts: a tab before every line, twenty dots
    lines = _text(f"{V}-veth-c20-nocolor-hostname.txt").split("\n")
    pasted = "\n".join(["\t" + x for x in lines[:8] + ["." * 20, ""] + lines[20:]])
    t = _read(pasted.encode("utf-8"))
    run = t.runs.iloc[0]
    assert (run.packets_sent, run.dst_host, len(t.samples)) == (20, "svc-b.azl.internal", 0)
    assert "probes left out" in run.warnings
    assert _stat(t, "max", "reported") == 2330.0


def test_ctrl_c_at_a_terminal_and_crlf():
    # a terminal echoes ^C above the statistics the SIGINT handler prints; Windows ends lines
    # with CRLF
    lines = _text(f"{V}-veth-endless-sigint.txt").split("\n")
    k = lines.index("Connection statistics:")
    text = "\r\n".join(lines[: k - 1] + ["^C"] + lines[k:])
    t = _read(text.encode("utf-8"))
    run = t.runs.iloc[0]
    assert "stopped with Ctrl+C" in run.warnings and run.packets_sent == 7
    assert len(t.samples) == 7


def test_two_runs_in_a_note_and_a_stray_line():
    one = _text(f"{V}-veth-c5-colour.txt")
    two = _text(f"{V}-veth-c8-t500-service-stopped.txt").split("\n")
    two.insert(6, "ssh: connect to host 10.207.0.9 port 22: Connection refused")
    note = "Before the change:\n\n" + one + "\nAfter it:\n\n" + "\n".join(two)
    t = _read(note.encode("utf-8"))
    assert t.runs.port.tolist() == [443, 8443]
    assert "ssh: connect to host" in t.runs.warnings.iloc[1]
    assert len(t.samples[t.samples.run_id == t.runs.run_id.iloc[1]]) == 8
    with pytest.raises(ParseError) as e:
        azlatency.read(note, strict=True)
    assert "ssh: connect" in str(e.value)
