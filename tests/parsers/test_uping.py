"""uping: values read off our own captures and the public outputs (tests/fixtures/uping,
see SOURCES.md)."""

from __future__ import annotations

import pandas as pd
import pytest

import azlatency
from azlatency.errors import ParseError
from tests.conftest import FIXTURES

HERE = FIXTURES / "uping"
V = "uping--11beb11-linux"


def _read(name: str, **kw):
    return azlatency.read(HERE / name, **kw).validate()


def _stat(t, stat, source, run=0):
    s = t.summaries[t.summaries.run_id == t.runs.run_id.iloc[run]]
    return s.loc[(s.metric == "rtt") & (s.stat == stat) & (s.source == source), "value"].item()


def test_replies_are_whole_microseconds_and_the_statistics_agree():
    t = _read(f"{V}-veth-c20.txt")
    run = t.runs.iloc[0]
    assert (run.tool, run.parser_variant, run.dst_ip, run.protocol) == (
        "uping",
        "text",
        "10.206.0.2",
        "icmp",
    )
    assert (run.packets_sent, run.packets_received, run.loss_pct, run.complete) == (
        20,
        20,
        0.0,
        True,
    )
    assert run.latency_basis == "rtt" and '"timeout_s": 2.0' in run.labels
    s = t.samples
    # line 2: seq=1    40µs  from 10.206.0.2; line 21: seq=20   74µs  from 10.206.0.2
    assert s.seq.tolist() == list(range(1, 21)) and (s.kind == "reply").all()
    assert (s.rtt_us.iloc[0], s.rtt_us.iloc[-1]) == (40.0, 74.0)
    # rtt min/avg/max = 40/54.2/74 µs, and the same from the replies
    assert [_stat(t, k, "reported") for k in ("min", "mean", "max")] == [40.0, 54.2, 74.0]
    assert _stat(t, "mean", "computed") == pytest.approx(54.2, abs=0.05)


def test_timeouts_are_samples_and_loss_is_counted():
    t = _read(f"{V}-veth-W0.3-partial-loss.txt")
    run = t.runs.iloc[0]
    # 12 packets transmitted, 10 received, 16.7% loss
    assert (run.packets_sent, run.packets_received, run.loss_pct) == (12, 10, 16.7)
    timeouts = t.samples[t.samples.status == "timeout"]
    assert timeouts.seq.tolist() == [6, 7] and timeouts.rtt_us.isna().all()
    assert _stat(t, "count", "computed") == 10  # the replies, not the probes
    assert '"timeout_s": 0.3' in run.labels
    total = _read(f"{V}-veth-W0.5-total-loss.txt")
    assert total.samples.status.tolist() == ["timeout"] * 3
    assert total.summaries.stat.tolist() == ["count"]  # no rtt line, nothing to compute


def test_a_send_failure_is_an_error_sample():
    t = _read(f"{V}-no-route-send-fail.txt")
    assert t.samples[["seq", "status", "message"]].values.tolist() == [
        [1, "error", "send: Network is unreachable"],
        [2, "error", "send: Network is unreachable"],
    ]
    run = t.runs.iloc[0]
    assert (run.errors, run.loss_pct) == (2, 100.0)


def test_a_terminal_recording_reads_like_a_file():
    """`script` keeps the colours uping prints to a terminal, CRLF, and its own lines."""
    tty = _read(f"{V}-veth-script-tty-colour-crlf.txt")
    assert tty.samples.rtt_us.tolist() == [37.0, 48.0, 63.0, 84.0, 63.0]
    assert tty.runs.line_start.item() == 2  # 'Script started on ...' is not uping's
    assert _stat(tty, "mean", "reported") == 59.0


def test_a_target_that_does_not_resolve_is_a_located_error():
    with pytest.raises(ParseError, match="uping did not start: nosuch.invalid: Temporary failure"):
        _read(f"{V}-unknown-host-error.txt")


def test_the_readme_header_without_the_second_icmp():
    t = _read("uping--readme-example--simonpainter-uping.txt")
    run = t.runs.iloc[0]
    assert (run.dst_host, run.dst_ip, run.packets_sent) == ("google.com", "142.251.151.119", 3)
    assert t.samples.rtt_us.tolist() == [12054.0, 12229.0, 11986.0]
    assert _stat(t, "mean", "computed") == pytest.approx(_stat(t, "mean", "reported"), abs=0.05)


def test_the_blog_runs():
    """Three runs on a Raspberry Pi 5; two shortened with '...' keep only their statistics."""
    t = _read("uping--blog-loopback-dgram-raw-elided--simonpainter.md")
    assert t.runs.command.tolist() == [
        "uping 127.0.0.1",
        "./uping 10.1.1.2",
        "sudo ./uping 10.1.1.2",
    ]
    assert t.runs.packets_sent.tolist() == [46, 9, 40]
    assert [_stat(t, "mean", "reported", k) for k in range(3)] == [10.7, 169.6, 179.4]
    # only the DGRAM run is whole: its nine replies are samples
    assert t.samples.groupby("run_id").size().to_dict() == {t.runs.run_id.iloc[1]: 9}
    assert '"socket": "dgram"' in t.runs.labels.iloc[1]
    assert "probes left out ('...')" in t.runs.warnings.iloc[2]


def test_cut_before_the_rtt_line_is_incomplete():
    """uping prints 'rtt min/avg/max' whenever a reply came back; the capture cut after
    '20 packets transmitted, 20 received, 0.0% loss' (line 24) lacks it."""
    t = _read(f"{V}-veth-c20-cut-before-rtt.txt")
    run = t.runs.iloc[0]
    assert not run.complete and (run.packets_sent, run.packets_received) == (20, 20)
    assert run.warnings == (
        "no 'rtt min/avg/max' line after line 24 (cut short?): the reported rtt is missing"
    )
    reported = t.summaries[t.summaries.source == "reported"]
    assert reported.stat.tolist() == ["count"]  # no min/avg/max made up
    assert (t.samples.rtt_us.iloc[0], t.samples.rtt_us.iloc[-1]) == (40.0, 74.0)
    assert _stat(t, "mean", "computed") == pytest.approx(54.2, abs=0.05)
    # total loss prints no rtt line: still complete, no warning
    total = _read(f"{V}-veth-W0.5-total-loss.txt")
    assert total.runs.complete.item() and total.runs.warnings.isna().item()


def test_replies_without_their_uping_line_are_flagged():
    """A run whose 'UPING host (ip): ...' line is missing (a paste or log that lost its top)
    says so: its timeout and address family are unknown."""
    lines = (HERE / f"{V}-veth-sigint.txt").read_text().split("\n")
    t = azlatency.read("\n".join(lines[1:]), tool="uping")
    run = t.runs.iloc[0]
    assert run.warnings == (
        "no 'UPING host (ip): ...' line above line 1 (cut at the top?): the timeout and "
        "address family are unknown"
    )
    assert t.samples.rtt_us.tolist() == [39.0, 49.0, 55.0, 48.0, 49.0, 53.0]
    assert pd.isna(run.labels) and run.dst_ip == "10.206.0.2"  # from the statistics title
