"""ncps: connections per second, the SYN round trip, the === tables and ### lines together."""

from __future__ import annotations

import pandas as pd

import azlatency
from tests._expected import FIXTURES

NCPS = FIXTURES / "ncps"


def read(name: str, **kw):
    return azlatency.read(NCPS / name, source=name, **kw)


def value(t, metric: str, stat: str) -> float:
    s = t.summaries
    row = s[(s["metric"] == metric) & (s["stat"] == stat) & (s["source"] == "reported")]
    assert len(row) == 1, (metric, stat)
    return float(row["value"].iloc[0])


def test_client_summary_and_intervals():
    t = read("ncps--1.1-linux-c-r2-N20-t5-client.txt")
    run = t.runs.iloc[0]
    assert (run.tool, run.tool_version, run.role, run.dst_ip, run.streams) == (
        "ncps",
        "1.1",
        "client",
        "10.77.2.2",
        2,
    )
    assert (run.latency_basis, run.protocol, run.complete) == ("rtt", "tcp", True)
    connections = value(t, "connections", "total")
    assert value(t, "rtt", "count") == connections and run.duration_s > 4.9
    assert value(t, "connections_per_s", "mean") == int(
        connections * 1000 / (run.duration_s * 1000)
    )
    intervals = t.samples[t.samples.kind == "interval"]
    assert len(intervals) == 5 and intervals.start_s.iloc[0] == 0.0
    assert (intervals.end_s.iloc[:-1].to_numpy() == intervals.start_s.iloc[1:].to_numpy()).all()
    record = t.samples[t.samples.kind == "record"].iloc[0]
    assert record["count"] == connections and record.end_s == run.duration_s


def test_syn_rtt_percentiles_and_the_integer_mean():
    t = read("ncps--1.0-linux-c-r16-wt30-client--virtualclient-example.txt")
    assert [value(t, "rtt", s) for s in ("p25", "p50", "p99", "p99.99")] == [
        3424.0,
        6221.0,
        54222.0,
        4057000.0,
    ]
    mean = t.summaries.query("metric == 'rtt' and stat == 'mean'").iloc[0]
    assert (mean.value, mean.bound_low, mean.bound_high) == (18737.0, 18737.0, 18738.0)
    assert value(t, "retransmitted_connections", "total") == 3.2825
    assert value(t, "rx_rate", "mean") == 0.65e9
    run = t.runs.iloc[0]
    assert (run.warmup_excluded, run.duration_s, run.streams) == (True, 51.188, 16)
    assert len(t.samples.query("kind == 'record'")) == 13  # 100000, 200000, ..., 1250000


def test_brief_and_silent_outputs():
    brief = read("ncps--1.1-linux-c-r4-wt2-t6-brief.txt")
    assert brief.runs.parser_variant.iloc[0] == "text-brief"
    intervals = brief.samples[brief.samples.kind == "interval"]
    assert len(intervals) == 6 and intervals.end_s.isna().all()
    assert intervals.tcp_rtt_us.notna().all()
    sil = read("ncps--1.1-linux-c-r4-t3-sil.txt")
    assert sil.runs.parser_variant.iloc[0] == "text-silent"
    assert set(sil.samples.kind) == {"record"}


def test_no_connection_established():
    t = read("ncps--1.1-linux-c-no-listener-no-connections.txt")
    run = t.runs.iloc[0]
    assert run.complete and run.errors > 0
    assert "no connection was established" in run.warnings
    assert t.summaries.query("metric == 'rtt'").empty
    assert t.samples.tcp_rtt_us.isna().all()  # c0/i 0: no SYN RTT in any interval


def test_table_and_hash_line_disagreeing_is_said():
    text = (NCPS / "ncps--1.1-linux-c-r2-N20-t5-client.txt").read_text()
    line = next(x for x in text.splitlines() if x.startswith("###SYNRTT"))
    changed = text.replace(line, line.replace(",Median:", ",Median:1"))
    t = azlatency.read(changed.encode(), source="x.txt")
    assert "###SYNRTT and the '=== SYN RTT' table disagree" in t.runs.warnings.iloc[0]
    assert pd.notna(t.runs.warnings.iloc[0])
