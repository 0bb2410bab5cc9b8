"""latte: real values from seed 002 (blog page) and the VirtualClient -hist corpus file.

Real latte output lives in ../shared (tests skip without it); the few inline snippets below
only exercise error paths and are built from the seed text at test time where possible.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import azlatency
from azlatency.errors import ParseError
from azlatency.parsers import latte
from tests.conftest import corpus, needs_shared, seed

HIST = "latte--hist-udp-rio-bom--virtualclient.txt"


def _stat(tables, run_id, metric, stat, source="reported"):
    s = tables.summaries
    row = s[
        (s.run_id == run_id) & (s.metric == metric) & (s["stat"] == stat) & (s.source == source)
    ]
    assert len(row) == 1, (metric, stat, source, row)
    return row.iloc[0]


@pytest.fixture(scope="module")
def seed002():
    return azlatency.read(seed("002")).validate()


@needs_shared
def test_seed002_finds_four_latte_blocks_and_no_prose(seed002):
    runs = seed002.runs[seed002.runs.tool == "latte"]
    # 002:85-92 receiver set-up, 111-118 sender set-up, 128-140 sender, 147-159 receiver
    assert list(zip(runs.line_start, runs.line_end)) == [
        (85, 92),
        (111, 118),
        (128, 140),
        (147, 159),
    ]
    assert list(runs.role) == ["server", "client", "client", "server"]
    assert list(runs.complete) == [False, False, True, True]


@needs_shared
def test_seed002_sender_values(seed002):
    runs = seed002.runs.set_index("line_start")
    sender = runs.loc[128]
    assert sender.context == "Sender:"
    assert sender.command == r"latte -c -a 10.0.0.5:5005 -i 65100"  # 002:128
    assert (sender.dst_ip, sender.port, sender.protocol) == ("10.0.0.5", 5005, "tcp")
    assert sender.msg_size_bytes == 4  # 002:134 'MsgSize(byte) 4'
    assert sender.latency_basis == "rtt" and pd.isna(sender.warnings)
    rid = sender.run_id
    mean = _stat(seed002, rid, "rtt", "mean")
    assert (mean.value, mean.unit, mean.n) == (2026.40, "us", 65100)  # 002:136, 002:135
    assert _stat(seed002, rid, "cpu", "mean").value == 5.2  # 002:137
    assert _stat(seed002, rid, "context_switches_per_s", "mean").value == 1382  # 002:138
    assert _stat(seed002, rid, "context_switches_per_iteration", "mean").value == 2.80
    assert _stat(seed002, rid, "syscalls_per_s", "mean").value == 3678  # 002:139
    assert _stat(seed002, rid, "syscalls_per_iteration", "mean").value == 7.45
    assert _stat(seed002, rid, "interrupts_per_s", "mean").value == 1100  # 002:140
    assert _stat(seed002, rid, "interrupts_per_iteration", "mean").value == 2.23


@needs_shared
def test_seed002_receiver_values(seed002):
    receiver = seed002.runs.set_index("line_start").loc[147]
    assert receiver.context == "Receiver:" and receiver.role == "server"
    assert _stat(seed002, receiver.run_id, "rtt", "mean").value == 2026.51  # 002:155
    assert _stat(seed002, receiver.run_id, "cpu", "mean").value == 2.2  # 002:156
    assert _stat(seed002, receiver.run_id, "interrupts_per_iteration", "mean").value == 2.17


@needs_shared
def test_seed002_settings_only_block_is_an_incomplete_run(seed002):
    setup = seed002.runs.set_index("line_start").loc[111]
    assert setup.command == "latte -c -a 10.0.0.5:5005 -i 65100"  # 002:111
    assert not setup.complete and "no 'Latency(usec)' line" in setup.warnings
    s = seed002.summaries[seed002.summaries.run_id == setup.run_id]
    assert list(zip(s.metric, s["stat"], s.value)) == [("rtt", "count", 65100.0)]  # 002:118


@needs_shared
def test_hrtt_on_the_command_line_makes_the_basis_half_rtt():
    text = seed("002").read_text(encoding="utf-8").split("\n")
    block = "\n".join(text[127:140]).replace("-i 65100", "-i 65100 -hrtt", 1)
    run = latte.parse(block).runs[0]
    assert run.meta["latency_basis"] == "half_rtt"
    assert [(s.metric, s.value) for s in run.summaries if s.stat == "mean"][0] == (
        "half_rtt",
        2026.40,
    )


@pytest.fixture(scope="module")
def hist():
    return azlatency.read(corpus("latte", HIST))


def test_corpus_hist_summary(hist):
    hist.validate()
    run = hist.runs.iloc[0]
    assert run.encoding == "utf-8-sig" and run.protocol == "udp"  # line 1 'Protocol      UDP'
    assert '"send_method": "RIO"' in run.labels  # line 2 'SendMethod    RIO'
    assert (run.line_start, run.line_end, run.parser_variant) == (1, 10013, "text-hist")
    mean = _stat(hist, run.run_id, "rtt", "mean")
    assert (mean.value, mean.n) == (224.79, 100100)  # lines 8 and 7
    assert _stat(hist, run.run_id, "cpu", "mean").value == 11.3  # line 9
    assert _stat(hist, run.run_id, "syscalls_per_s", "mean").value == 15482  # line 11
    assert _stat(hist, run.run_id, "interrupts_per_iteration", "mean").value == 2.39  # line 12
    # the command is not in the file: the basis is the default, and a warning says so
    assert run.latency_basis == "rtt" and "assumed 'rtt'" in run.warnings


def test_corpus_hist_buckets(hist):
    s = hist.samples
    # 9,999 rows (0..9998) minus the zero-count row labelled 2164 at line 2793
    assert len(s) == 9998 and int(s["count"].sum()) == 100100
    assert 2778 not in set(s.seq) and "line 2793 skipped" in hist.runs.warnings.iloc[0]
    first = s[s["count"] > 0].iloc[0]
    assert (first.bin_low_us, first.bin_high_us, first["count"]) == (67.0, 68.0, 1)  # line 82
    assert np.isinf(s.bin_high_us.iloc[-1]) and s.bin_low_us.iloc[-1] == 9998.0


def test_corpus_hist_percentiles_are_bucket_bounds(hist):
    s = hist.samples
    values = np.repeat(s.bin_low_us.to_numpy(), s["count"].to_numpy(dtype=int))
    rid = hist.runs.run_id.iloc[0]
    for p in ("50", "90", "99", "99.9", "99.99", "99.999"):
        row = _stat(hist, rid, "rtt", f"p{p}", source="computed")
        low = np.quantile(values, float(p) / 100, method="inverted_cdf")
        assert (row.bound_low, row.bound_high, row.value, row.n) == (low, low + 1, low + 1, 100100)
    assert _stat(hist, rid, "rtt", "p50", source="computed").bound_low == 105  # hand count
    # the reported mean (line 8) lies inside the mean the buckets allow
    m = _stat(hist, rid, "rtt", "mean", source="computed")
    assert m.bound_low <= 224.79 <= m.bound_high and m.bound_high - m.bound_low == 1


def test_corpus_hist_cut_short_keeps_what_it_can():
    lines = corpus("latte", HIST).read_text(encoding="utf-8-sig").split("\n")
    t = azlatency.read("\n".join(lines[:200]) + "\n", tool="latte")  # up to bucket 185
    run = t.runs.iloc[0]
    assert not run.complete and "holds" in run.warnings
    stats = set(t.summaries[t.summaries.source == "computed"]["stat"])
    assert "p50" in stats and "p90" not in stats and "max" not in stats  # p90 is bucket 586
    assert "p90 lies past the histogram rows read" in run.warnings


def test_bad_number_is_a_located_parse_error():
    text = "Protocol TCP\nIterations 10\nLatency(usec) 2O26.40\n"  # letter O, not zero
    with pytest.raises(ParseError) as info:
        latte.parse(text, source="x.txt")
    assert info.value.line_no == 3 and "Latency(usec)" in info.value.reason


def test_unknown_line_strict_vs_lenient():
    text = "Protocol TCP\nIterations 10\nsomething else\nLatency(usec) 20.5\n"
    with pytest.raises(ParseError) as info:
        latte.parse(text)
    assert info.value.line_no == 3
    run = latte.parse(text, strict=False).runs[0]
    assert any("line 3 skipped" in w for w in run.warnings) and run.meta["complete"]


def test_mangled_histogram_row_with_observations():
    text = "Protocol TCP\nIterations 3\nLatency(usec) 1.5\n\nInterval(usec) Frequency\n 0 1\n 1 1\n 0 1\n"
    with pytest.raises(ParseError) as info:
        latte.parse(text)
    assert info.value.line_no == 8
    run = latte.parse(text, strict=False).runs[0]
    assert not run.meta["complete"] and not [s for s in run.summaries if s.source == "computed"]


def test_csv_row_with_wrong_field_count():
    header = ",".join(latte.KEYS)
    short = "TCP,Blocking,Blocking,Default,Default,4,65100,2026.40,5.2,1382,3678"
    with pytest.raises(ParseError, match="expected 12 comma-separated fields") as info:
        latte.parse(f"{header}\n{short}\n")  # -csvh: the header says how many
    assert info.value.line_no == 2
    with pytest.raises(ParseError) as info:  # -csv: a short row is not a latte row at all
        latte.parse(short + "\n")
    assert info.value.line_no == 1


def test_no_output_is_a_parse_error():
    with pytest.raises(ParseError, match="no latte output"):
        latte.parse("\n\n")


def test_locate_stops_at_prose_and_prompt():
    lines = [
        "Sender:",
        "",
        r"C:\Temp>latte -c -a 10.0.0.5:5005 -i 9",
        "Protocol TCP",
        "Iterations 9",
        "Latency(usec) 5.0",
        r"C:\Temp>",
        "",
        "Latency is 308.55 usecs.",
    ]
    assert [(s.start, s.end) for s in latte.locate(lines)] == [(2, 6)]


@pytest.mark.parametrize(
    "text, line",
    [
        ("Protocol TCP\nIterations 99999999999999999999999\n", 2),  # beyond int64
        ("Protocol TCP\nLatency(usec) nan\n", 2),  # float() would take it
        ("Protocol TCP\nLatency(usec) 1\nCtxSwitch/sec inf (1.0/iteration)\n", 3),
    ],
)
def test_impossible_numbers_are_parse_errors(text, line):
    with pytest.raises(ParseError) as info:
        latte.parse(text)
    assert info.value.line_no == line
