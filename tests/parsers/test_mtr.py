"""mtr: hops kept per hop, the jitter columns with their definitions, the target's counts."""

from __future__ import annotations

import pandas as pd
import pytest

import azlatency
from azlatency.errors import ParseError
from azlatency.report import latency_runs
from tests._expected import FIXTURES
from tests.parsers._joined import assert_same_reading, wrapped

MTR = FIXTURES / "mtr"


def read(name: str, **kw):
    return azlatency.read(MTR / name, source=name, **kw)


def hop(t, n: int, metric: str, stat: str) -> float:
    s = t.summaries
    row = s[(s["hop"] == n) & (s["metric"] == metric) & (s["stat"] == stat)]
    assert len(row) == 1, (n, metric, stat)
    return float(row["value"].iloc[0])


def test_report_keeps_each_hop_apart_and_no_end_to_end_latency():
    t = read("mtr--0.95-linux-r-o-LSDR-NBAW-VGJMXI-loss.txt")
    run = t.runs.iloc[0]
    assert (run.tool, run.parser_variant, run["mode"], run.src_host) == (
        "mtr",
        "report",
        "trace",
        "vm",
    )
    assert pd.isna(run.latency_basis) and latency_runs(t.runs).empty
    assert list(t.samples["seq"]) == [1, 2] and set(t.samples["kind"]) == {"hop"}
    assert list(t.samples["host"]) == ["10.77.1.1", "10.77.2.2"]
    # 'Loss%   Snt Drop   Rcv' of each hop, as printed
    assert [hop(t, 1, m, "total") for m in ("loss", "packets_sent", "packets_dropped")] == [
        80.0,
        50.0,
        40.0,
    ]
    assert hop(t, 2, "loss", "total") == 38.0 and hop(t, 2, "packets_received", "total") == 31.0
    assert hop(t, 2, "jitter", "mtr-jint") == 200.0  # Jint 0.2 ms, kept unscaled (16 x J)
    assert t.summaries["hop"].notna().all()  # nothing here is end to end


def test_json_times_to_the_microsecond_and_the_target_counts():
    t = read("mtr--0.95-linux-json-o-LSDR-NBAW-VGJMXI-loss.json")
    run = t.runs.iloc[0]
    assert (run.parser_variant, run.dst_ip, run.src_host) == ("json", "10.77.2.2", "vm")
    # the target is the last hop: its counts are the run's
    assert (run.packets_sent, run.packets_received, run.loss_pct) == (50, 32, 36.0)
    assert '"reached": true' in run.labels and '"cycles": 50' in run.labels
    assert hop(t, 1, "rtt", "last") == 75.0 and hop(t, 1, "rtt", "gmean") == 71.0
    assert hop(t, 1, "ipdv", "last") == 3.0 and hop(t, 1, "jitter", "mtr-javg") == 9.0
    assert hop(t, 1, "ipdv", "max") == 20.0 and hop(t, 1, "jitter", "mtr-jint") == 53.0
    rtt = t.summaries[t.summaries["metric"] == "rtt"]
    assert rtt.groupby("hop")["n"].first().tolist() == [10, 32]  # 'Rcv' replies behind them


@pytest.mark.parametrize(
    "name",
    [
        "mtr--0.95-linux-r-c5-n-no-reply.txt",
        "mtr--0.95-linux-json-c5-n-no-reply.json",
        "mtr--0.95-linux-csv-c5-n-no-reply.csv",
    ],
)
def test_a_silent_hop_is_lost_and_its_zeros_are_no_round_trips(name):
    t = read(name)
    assert t.samples.set_index("seq")["status"].to_dict() == {1: "ok", 2: "lost"}
    assert pd.isna(t.samples["host"].iloc[1])
    at2 = t.summaries[t.summaries["hop"] == 2]
    assert set(at2["metric"]) <= {"loss", "packets_sent", "packets_dropped"}
    assert hop(t, 2, "loss", "total") == 100.0  # printed '100.0' (its '%' cut by the column)
    if name.endswith((".json", ".csv")):  # these name the target: it did not answer
        run = t.runs.iloc[0]
        assert pd.isna(run.packets_sent) and '"reached": false' in run.labels
        assert "the target 10.77.9.5 did not answer" in run.warnings


def test_csv_blank_column_is_the_drop_count_and_w_rows_are_hosts_not_hops():
    t = read("mtr--0.95-linux-csv-c20-loss.csv")
    run = t.runs.iloc[0]
    assert (run.tool_version, run.dst_ip, str(run.start_time)) == (
        "0.95",
        "10.77.2.2",
        "2026-11-25 16:18:24+00:00",
    )
    assert hop(t, 1, "packets_dropped", "total") == 13.0 and hop(t, 1, "loss", "total") == 65.0
    w = read("mtr--0.95-linux-w-csv-c40-n-path-change.csv")
    assert list(zip(w.samples["seq"], w.samples["host"])) == [
        (1, "10.77.1.1"),
        (1, "10.77.3.1"),
        (2, "10.77.8.1"),
    ]
    assert "also answered at this hop" in w.samples["message"].iloc[1]
    assert (w.summaries["hop"] == 1).sum() == (w.summaries["hop"] == 2).sum()  # no double hop


def test_report_path_change_lists_the_second_host_under_its_hop():
    t = read("mtr--0.95-linux-r-c40-n-path-change.txt")
    assert list(t.samples["host"]) == ["10.77.1.1", "10.77.3.1", "10.77.8.1"]
    assert list(t.samples["seq"]) == [1, 1, 2]


def test_a_command_line_above_a_report_names_target_and_protocol():
    report = (MTR / "mtr--0.95-linux-r-u-c20-n-udp.txt").read_text()
    doc = "## UDP trace\n\n```\n$ mtr -r -u -c 20 -i 0.2 -n 10.77.8.1\n" + report + "```\n"
    t = azlatency.read(doc.encode(), source="notes.md")
    run = t.runs.iloc[0]
    assert (run.protocol, run.dst_ip, run.command) == (
        "udp",
        "10.77.8.1",
        "mtr -r -u -c 20 -i 0.2 -n 10.77.8.1",
    )
    assert (run.packets_sent, run.loss_pct) == (20, 60.0)  # the target's, hop 2
    assert run.heading == "UDP trace"


def test_a_damaged_hop_line_is_a_located_error_or_a_named_skip():
    text = (MTR / "mtr--0.95-linux-r-c10-n-2hops.txt").read_text()
    broken = text.replace("   0.1   0.1   0.0   0.1   0.0\n", "   0.1   0.1\n", 1)
    with pytest.raises(ParseError) as info:
        azlatency.read(broken.encode(), source="m.txt", strict=True)
    assert info.value.line_no == 3 and "expected a host and 7 values" in info.value.reason
    lenient = azlatency.read(broken.encode(), source="m.txt", strict=False)
    assert "line 3 skipped" in lenient.runs["warnings"].iloc[0]
    assert list(lenient.samples["seq"]) == [2]


@pytest.mark.parametrize("strict", [True, False])
@pytest.mark.parametrize(
    "name", ["mtr--0.95-linux-r-c10-n-2hops.txt", "mtr--0.95-linux-r-o-LSDR-NBAW-JMXI-2hops.txt"]
)
def test_a_header_wrapped_over_two_lines_keeps_its_titles(name, strict):
    """mtr's 'HOST:' line runs past 72 columns; a copy wrapped there puts its last titles
    ('StDev', 'Avg  Wrst  Jttr ...') on a line of their own, and the report was refused in
    both modes (a study wrapping long lines: 11 mtr files).  The titles are read with the
    header, and the run names the line."""
    text = (MTR / name).read_text(encoding="utf-8")
    lines = text.split("\n")
    cut = lines[1].rfind(" ", 0, 72)
    wrapped = "\n".join([lines[0], lines[1][:cut], lines[1][cut + 1 :], *lines[2:]])
    base, got = azlatency.read(text), azlatency.read(wrapped, strict=strict)
    assert got.samples.drop(columns="run_id").equals(base.samples.drop(columns="run_id"))
    assert got.summaries.drop(columns="run_id").equals(base.summaries.drop(columns="run_id"))
    assert (
        "line 3: the 'HOST:' line's last titles on a line of their own" in got.runs["warnings"][0]
    )


@pytest.mark.parametrize("strict", [True, False])
def test_a_csv_header_wrapped_over_two_lines_is_read_as_one(strict):
    """mtr --csv's header is 81 characters; a copy wrapped at 72 cuts it at its blank column
    ('...,Loss%,Snt,' / ',Last,Avg,...'), and every row then had a field more than the
    header: the file was refused in both modes (the wrap study: 4 CSV files).  The two lines
    are read as the header (the space the wrap took is mtr's blank column), and named."""
    text = (MTR / "mtr--0.95-linux-csv-c10-n-2hops.csv").read_text(encoding="utf-8")
    base, got = azlatency.read(text), azlatency.read(wrapped(text, 0), strict=strict)
    assert_same_reading(base, got)
    assert got.runs["warnings"].tolist() == [
        "lines 1-2: the header broken in two (a copy wrapped at its width?), read as one line"
    ]


S = "mtr--0.95-linux-screen-"


@pytest.mark.parametrize("strict", [False, True])
def test_a_copy_of_the_live_screen_is_a_trace(strict):
    # 'mtr host' at a terminal: no report, its curses screen copied (tmux capture-pane).  It
    # was 'no known tool output found'.
    t = read(f"{S}names-120x24.txt", strict=strict)
    run = t.runs.iloc[0]
    assert (run.parser_variant, run.tool_version, run.src_host, run.src_ip) == (
        "screen",
        "0.95",
        "vm",
        "10.78.1.2",
    )
    # 'vm (10.78.1.2) -> svc-b.azl.internal (10.78.2.2)': the target, reached at hop 2
    assert (run.dst_host, run.dst_ip) == ("svc-b.azl.internal", "10.78.2.2")
    assert (
        '"reached": true' in run.labels
        and '"screen_time": "2026-11-28T16:41:32+0000"' in run.labels
    )
    assert (run.packets_sent, run.loss_pct) == (7, 0.0)  # hop 2's Snt, as drawn then
    assert list(t.samples.host) == ["router.azl.internal", "svc-b.azl.internal"]
    assert hop(t, 1, "packets_sent", "total") == 8.0 and hop(t, 2, "rtt", "mean") == 100.0
    assert pd.isna(run.latency_basis) and pd.isna(run.warnings)
    z = read(f"{S}b-z-120x24.txt", strict=strict)
    assert list(z.samples.host) == [
        "router.azl.internal (10.78.1.1)",
        "svc-b.azl.internal (10.78.2.2)",
    ]
    assert list(z.samples.message) == ["AS???", "AS???"]
    o = read(f"{S}n-o-LSDR-NBAW-JMXI-140x24.txt", strict=strict)
    assert (
        hop(o, 1, "packets_received", "total") == 8.0 and hop(o, 1, "jitter", "mtr-jint") == 100.0
    )


def test_the_2026_screen_names_its_protocol():
    # traviscross/mtr 7b01773 (0.96): 'My traceroute on vm  [v0.96] UDP', 'Loss%' as '0.00%'
    t = read("mtr--0.96-linux-screen-u-n-100x24.txt")
    run = t.runs.iloc[0]
    assert (run.tool_version, run.protocol, run.src_host, run.dst_ip) == (
        "0.96",
        "udp",
        "vm",
        "10.78.2.2",
    )
    assert (run.packets_sent, run.loss_pct) == (7, 0.0) and hop(t, 1, "loss", "total") == 0.0
    assert read("mtr--0.96-linux-screen-names-100x24.txt").runs.protocol.item() == "icmp"


def test_a_hop_that_did_not_answer_says_why():
    w = read(f"{S}waiting-for-reply-100x24.txt")
    assert (
        list(w.samples.status) == ["lost", "ok"]
        and w.samples.message.iloc[0] == "waiting for reply"
    )
    assert '"reached": true' in w.runs.labels.item()
    n = read(f"{S}n-no-route-100x24.txt")
    run = n.runs.iloc[0]
    assert n.samples.message.iloc[1] == "no route to host" and hop(n, 1, "loss", "total") == 18.2
    assert (
        "the target 10.78.2.9 did not answer" in run.warnings and '"reached": false' in run.labels
    )


@pytest.mark.parametrize("strict", [False, True])
def test_a_narrow_screen_cuts_names_and_tells_nothing_of_the_target(strict):
    # 64 columns: the keys line wrapped, the time drawn against the target's address, the
    # names cut where the values start; the target was given as an address, the hops are names
    t = read(f"{S}u-names-cut-64x24.txt", strict=strict)
    run = t.runs.iloc[0]
    assert list(t.samples.host) == ["router.azl.inter", "svc-b.azl.intern"]
    assert "line 6: the host 'router.azl.inter' fills its column up to the values" in run.warnings
    assert "no telling whether it is the target" in run.warnings
    assert "did not answer" not in run.warnings and pd.isna(run.packets_sent)
    assert hop(t, 1, "rtt", "max") == 800.0  # " 1. router.azl.inter  0.0%  8  0.1  0.2  0.1  0.8"


def test_a_second_screen_copied_without_its_title_is_a_trace_of_its_own():
    # two screens pasted one under the other, the second from its ends line on: its target
    # was written into the first screen's run, and the second screen had no hop of its own
    a = (MTR / f"{S}names-120x24.txt").read_text().split("\n")
    b = (MTR / f"{S}n-80x24.txt").read_text().split("\n")
    t = azlatency.read("\n".join(a[:7] + b[1:7]).encode(), strict=True)
    assert t.runs.line_start.tolist() == [1, 8]
    assert t.runs.dst_host.tolist()[0] == "svc-b.azl.internal" and pd.isna(t.runs.dst_host[1])
    assert t.samples.groupby("run_id", sort=False).size().tolist() == [2, 2]
