"""lagscope: a TCP round trip; fractional min/max/mean, whole-µs percentiles and histogram."""

from __future__ import annotations

import pandas as pd
import pytest

import azlatency
from azlatency.errors import NothingMeasured
from tests._expected import FIXTURES

LAG = FIXTURES / "lagscope"
L = "lagscope--1.0.1-linux-"


def read(name: str, **kw):
    return azlatency.read(LAG / (L + name), source=name, **kw)


def stat(t, name: str, source: str = "reported") -> pd.Series:
    s = t.summaries[(t.summaries["stat"] == name) & (t.summaries["source"] == source)]
    assert len(s) == 1, name
    return s.iloc[0]


def test_summary_is_a_tcp_round_trip_with_fractional_figures():
    t = read("n1000.txt")
    run = t.runs.iloc[0]
    assert (run.tool_version, run.latency_basis, run.protocol, run.role) == (
        "1.0.1",
        "rtt",
        "tcp",
        "client",
    )
    assert (run.dst_ip, run.port, run.packets_received, run.complete) == (
        "10.77.2.2",
        6001,
        1000,
        True,
    )
    # 'Minimum = 21.000us, Maximum = 5740.500us, Average = 105.210us'
    assert [stat(t, s).value for s in ("min", "max", "mean")] == [21.0, 5740.5, 105.21]
    assert t.samples.empty  # the progress lines ('\r' only) hold no values


def test_percentiles_are_whole_microseconds_truncated():
    t = read("n5000-P-percentiles.txt")
    p99 = stat(t, "p99")
    assert (p99.value, p99.bound_low, p99.bound_high, p99.n) == (1064.0, 1064.0, 1065.0, 5000)
    assert stat(t, "p99.999").value == 7920.0 and stat(t, "max").value == 7920.25
    assert t.runs.parser_variant.iloc[0] == "text-P"


def test_histogram_bins_from_the_start_value_to_the_maximum():
    t = read("n2000-H-a40-l10-c12-histogram.txt")
    h = t.samples
    assert (h.kind == "histogram").all() and int(h["count"].sum()) == 2000
    first, last = h.iloc[0], h.iloc[-1]
    assert (first.bin_low_us, first.bin_high_us, first["count"]) == (0.0, 40.0, 1899)
    assert (last.bin_low_us, last.bin_high_us, last["count"]) == (160.0, 8913.75, 14)
    assert list(h.bin_high_us.iloc[:-1]) == list(h.bin_low_us.iloc[1:])


def test_ctrl_c_keeps_the_statistics_and_says_so_a_kill_cuts_them():
    t = read("t20-H-P-ctrl-c.txt")
    run = t.runs.iloc[0]
    assert run.complete and run.packets_received == 16655  # exit status 16655 % 256 = 15
    assert "stopped with Ctrl+C" in run.warnings
    k = read("n2000000-killed-cut-short.txt").runs.iloc[0]
    assert not k.complete
    assert k.warnings == "cut short: no 'Number of successful Pings' after line 5 (1% completed)"


def test_verbose_replies_are_samples_with_computed_statistics():
    t = read("n20-V-verbose.txt")
    run = t.runs.iloc[0]
    assert (run.msg_size_bytes, run.packets_received) == (4, 20)
    assert len(t.samples) == 20 and t.samples.rtt_us.iloc[0] == 4131.5
    assert stat(t, "mean", "computed").value == pytest.approx(3295.6375)
    assert stat(t, "mean").value == 3295.637  # printed to 0.001


def test_the_dump_files_are_runs_of_their_own():
    raw = read("n300-R-dump.csv")
    assert raw.runs.parser_variant.iloc[0] == "raw-csv" and len(raw.samples) == 300
    assert raw.samples.rtt_us.iloc[:3].tolist() == [303.0, 895.0, 1241.0]
    # truncated to whole µs: the computed mean runs low of the printed 711.331
    assert stat(raw, "mean", "computed").value == pytest.approx(710.98)
    freq = read("n1000-P-freq-table.json")
    h = freq.samples
    assert freq.runs.packets_received.iloc[0] == 1000 == int(h["count"].sum())
    assert (h.bin_high_us - h.bin_low_us == 1.0).all() and h.bin_low_us.iloc[-1] == 170.0


@pytest.mark.parametrize(
    ("name", "said"),
    [
        ("r-receiver.txt", "a lagscope receiver's log"),
        ("p6999-connection-refused.txt", "failed to connect to receiver: 10.77.2.2:6999"),
    ],
)
def test_nothing_measured(name, said):
    with pytest.raises(NothingMeasured) as info:
        read(name)
    assert said in str(info.value)


@pytest.mark.parametrize("strict", [False, True])
def test_two_histograms_alone_are_two_outputs_of_a_tool_not_known(strict):
    # A KVM patch's cover letter pastes latte's histogram alone, 'Before' and 'After': one
    # block that ran the second table into the first (strict refused 'After'), and no word
    # that latte prints the very same table.  Made from our capture's histogram.
    lines = (LAG / (L + "n2000-H-a40-l10-c12-histogram.txt")).read_text().split("\n")
    head = next(i for i, x in enumerate(lines) if x.startswith("Interval(usec)"))
    table = [x for x in lines[head:] if x.strip()]
    text = "\n".join(["Before", "------", "", *table, "", "After", "-----", "", *table[:3], ""])
    t = azlatency.read(text.encode(), strict=strict)
    assert len(t.runs) == 2 and list(t.runs.line_start) == [4, 8 + len(table)]
    for w in t.runs.warnings:
        assert "histogram alone: latte prints the same table (-hist), so the tool is not known" in w
    counts = t.samples.groupby("run_id", sort=False)["count"].sum().tolist()
    assert counts[1] == sum(int(x.split()[1]) for x in table[1:3])
    # with lagscope's own lines above it, no such word
    assert "histogram alone" not in str(
        read("n2000-H-a40-l10-c12-histogram.txt").runs.warnings.item()
    )
