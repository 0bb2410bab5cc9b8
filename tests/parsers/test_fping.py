"""fping: values read off our own captures of fping 5.1 and a published older output
(tests/fixtures/fping, SOURCES.md)."""

from __future__ import annotations

import numpy as np
import pytest

import azlatency
from azlatency.errors import NothingMeasured, ParseError
from tests.conftest import FIXTURES

HERE = FIXTURES / "fping"
V = "fping--5.1-linux"


def _read(name: str, **kw):
    return azlatency.read(HERE / name, **kw).validate()


def _stat(t, run, metric, stat, source="reported"):
    s = t.summaries[t.summaries.run_id == t.runs.run_id.iloc[run]]
    return s.loc[(s.metric == metric) & (s.stat == stat) & (s.source == source), "value"].item()


def test_probe_lines_and_summary():
    t = _read(f"{V}-c20-clean.txt")
    run = t.runs.iloc[0]
    assert (run.tool, run.latency_basis, run.protocol, run.dst_ip) == (
        "fping",
        "rtt",
        "icmp",
        "10.77.0.1",
    )
    assert (run.packets_sent, run.packets_received, run.loss_pct, run.msg_size_bytes) == (
        20,
        20,
        0.0,
        56,
    )
    # 10.77.0.1 : [0], 64 bytes, 0.051 ms (0.051 avg, 0% loss)
    first = t.samples.iloc[0]
    assert (first.seq, first.status, first.rtt_us, first.payload_bytes) == (0, "ok", 51.0, 64)
    # min/avg/max = 0.038/0.047/0.055
    assert [_stat(t, 0, "rtt", k) for k in ("min", "mean", "max")] == [38.0, 47.0, 55.0]
    assert _stat(t, 0, "rtt", "max", "computed") == 55.0
    # IPDV from consecutive replies: |51 - 55| ... 19 pairs
    assert _stat(t, 0, "ipdv", "count", "computed") == 19
    assert t.samples.ipdv_us.iloc[1] == 4.0


def test_before_5_0_a_reply_counted_its_ip_header():
    # "8.8.8.8 : [0], 84 bytes, 6.46 ms": fping before 5.0 counted the 20-byte IP header
    # (its CHANGELOG for 5.0), so 56 data bytes, not 76; no "timed out" line tells 5.0 apart
    t = _read("fping--pre5.0-s-C3-84-bytes--toolshed-issue82.txt", strict=False)
    run = t.runs.iloc[0]
    assert run.msg_size_bytes == 56 and "read as fping before 5.0" in run.warnings
    # "12.9 ms" on the probe line, "12.92" among the -C values (printed to 2 decimals then):
    # one value, not a disagreement
    assert "disagree" not in run.warnings
    five = _read(f"{V}-C20-loss-multi.txt")  # "[1], timed out": 5.0's, 64 bytes = 56 data
    assert set(five.runs.msg_size_bytes.dropna()) == {56}


def test_one_run_per_target_with_C_values_and_an_unresolved_name():
    t = _read(f"{V}-C20-loss-multi.txt")
    assert t.runs.dst_ip.tolist() == ["10.77.0.1", "10.77.0.9"]
    first, dead = t.runs.iloc[0], t.runs.iloc[1]
    # 10.77.0.1 : 0.039 0.042 0.045 0.043 0.043 - ... : 6 of 20 lost
    assert (first.packets_sent, first.packets_received, first.loss_pct) == (20, 14, 30.0)
    assert (dead.packets_received, dead.loss_pct) == (0, 100.0)
    assert "nosuch.invalid: Temporary failure in name resolution (no run)" in first.warnings
    mine = t.samples[t.samples.run_id == first.run_id]
    assert (mine.status == "timeout").sum() == 6 and mine.rtt_us.max() == 122.0


def test_timestamps_and_a_timeout_printed_late():
    t = _read(f"{V}-D-c10-loss.txt")
    s = t.samples
    # [1795623432.11189] 10.77.0.1 : [0], 64 bytes, 0.036 ms
    assert s.time_ns.iloc[0] == 1795623432111890000 == s.rx_time_ns.iloc[0]
    # [8] printed before the timeout of [7]: both kept, by their index
    assert s.seq.tolist()[-3:] == [8, 7, 9]
    late = s[s.seq == 7].iloc[0]
    assert late.status == "timeout" and late.time_ns == 1795623432915730000
    assert np.isnan(s[s.seq == 8].ipdv_us.item())  # its predecessor was lost
    assert t.runs.loss_pct.item() == 20.0


def test_totals_are_a_run_of_their_own():
    t = _read(f"{V}-s-c10-loss.txt")
    assert t.runs.parser_variant.tolist() == ["count", "count", "totals"]
    totals = t.runs.iloc[2]
    assert pd_none(totals.latency_basis) and totals.duration_s == 0.51
    assert (totals.packets_sent, totals.packets_received) == (20, 9)
    assert '"timeouts": 11' in totals.labels and '"unreachable": 1' in totals.labels
    assert _stat(t, 2, "rtt_pooled", "mean") == 45.0
    cut = "\n".join((HERE / f"{V}-s-c10-loss.txt").read_text().split("\n")[:34])
    part = azlatency.read(cut, source="x")
    assert not part.runs.complete.iloc[2] and "cut short" in part.runs.warnings.iloc[2]
    before = azlatency.read("\n".join(cut.split("\n")[:23]), source="x")
    assert before.runs.parser_variant.tolist() == ["count", "count"]


def pd_none(value) -> bool:
    return value is None or value != value


def test_loss_is_exact_where_fping_truncates():
    t = _read(f"{V}-l-sigint.txt")  # xmt/rcv/%loss = 13/12/7%
    assert t.runs.loss_pct.item() == pytest.approx(100 / 13)
    total = _read(f"{V}-c5-totalloss.txt")
    assert total.runs.loss_pct.item() == 100.0 and (total.samples.status == "timeout").all()
    assert _stat(total, 0, "rtt", "count") == 0
    C = _read(f"{V}-C5-totalloss.txt")
    assert (C.runs.packets_sent.item(), C.runs.packets_received.item()) == (5, 0)


def test_alive_unreachable_and_cut_outputs():
    t = _read(f"{V}-e-alive-unreachable.txt")
    alive, dead = t.runs.iloc[0], t.runs.iloc[1]
    assert alive.parser_variant == "alive" and t.samples.rtt_us.tolist() == [36.0]
    assert dead.errors == 4 and "ICMP Host Unreachable from 10.77.0.2" in dead.warnings
    killed = _read(f"{V}-c50-killed.txt").runs.iloc[0]
    assert not killed.complete and "cut before fping finished" in killed.warnings
    q = _read(f"{V}-Q0.5-c10-intervals.txt").runs.iloc[0]
    assert q.packets_sent == 10 and "1 interval summaries" in q.warnings


def test_errors_are_located():
    with pytest.raises(NothingMeasured, match="x:1: fping measured nothing"):
        azlatency.read("nosuch.invalid: Name or service not known\n", source="x", tool="fping")
    text = (HERE / f"{V}-c20-clean.txt").read_text().split("\n")
    damaged = "\n".join(text[:5] + ["Connection reset by peer"] + text[5:])
    with pytest.raises(ParseError, match=r"x:6: expected fping output"):
        azlatency.read(damaged, source="x", strict=True)
    assert "line 6 skipped" in azlatency.read(damaged, source="x", strict=False).runs.warnings[0]


def test_a_label_colon_number_line_is_not_fping():
    with pytest.raises(ParseError, match="no known tool output"):
        azlatency.read("Latency : 12.5 13.0\n", source="x")


def test_a_target_with_only_duplicate_replies_reads():
    """A target whose only probe lines are duplicates (docs/tools/fping.md's table, read as a
    log) raised IndexError checking the probe indexes; it is a run whose summary says more
    replies than its lines show."""
    text = (
        b"10.77.0.1 : duplicate for [3], 64 bytes, 0.061 ms\n\n"
        b"10.77.0.1 : xmt/rcv/%loss = 20/18/10%, min/avg/max = 0.038/0.047/0.055\n"
    )
    runs = azlatency.read(text, source="dups.txt").runs
    assert list(runs["dst_ip"]) == ["10.77.0.1"] and list(runs["duplicates"]) == [1]
    assert runs["warnings"].iloc[0] == "the summary counts 18 replies, the output shows 0"


@pytest.mark.parametrize(
    ("name", "line", "comma"),
    [
        ("fping--5.1-linux-e-alive-unreachable.txt", "10.77.0.1 is alive (0,036 ms)", "0,036"),
        (
            "fping--5.1-linux-q-c20-unreachable.txt",
            "10.77.0.1 : xmt/rcv/%loss = 20/18/10%, min/avg/max = 0,045/0.052/0.060",
            "0,045",
        ),
    ],
)
def test_a_decimal_comma_is_named_not_lost(name, line, comma):
    """fping prints C-locale numbers; a copy with a decimal comma ('is alive (0,036 ms)', a
    study putting one in place of the point of every fixture's figures) was no fping line:
    it fell out of the output, and its target's run with it, without a word.  It is a
    located error (strict) or a skipped line named in the warnings."""
    lines = (HERE / name).read_text().split("\n")
    text = "\n".join([line, *lines[1:]])
    with pytest.raises(ParseError, match=rf":1: expected a '.' decimal point .*'{comma}'"):
        azlatency.read(text, strict=True)
    t = azlatency.read(text, strict=False)
    said = "; ".join(t.runs["warnings"].dropna())
    assert (
        f"line 1 skipped: expected a '.' decimal point (fping prints C-locale numbers), got '{comma}'"
        in said
    )
    assert "10.77.0.1" not in t.runs["dst_ip"].tolist()  # not read as a run with a made-up figure
