"""Reported values CSV (docs/reported-values.md): the blog tables of seeds 002 and 004."""

from __future__ import annotations

import json

import pandas as pd
import pytest

import azlatency
from azlatency.errors import ParseError
from azlatency.parsers import reported_csv
from tests.campaign.conftest import RAW
from tests.conftest import FIXTURES

SEED002 = RAW / "seed002-ppg-latte" / "blog-comparison.reported.csv"
SEED004 = RAW / "seed004-echo-uksouth" / "latency-by-scenario.reported.csv"
WINDOWS = RAW / "seed004-echo-uksouth" / "last-records-before-break.reported.csv"
HEADER = "tool,scenario,metric,stat,value,unit,n\n"


def _value(tables, scenario, stat, metric="rtt"):
    runs = tables.runs.set_index("run_id")
    s = tables.summaries
    ids = runs.index[runs["scenario"] == scenario]
    row = s[s.run_id.isin(ids) & (s.metric == metric) & (s["stat"] == stat)]
    assert len(row) == 1, (scenario, stat, row)
    return row.iloc[0]


def test_seed002_comparison_table():
    t = azlatency.read(SEED002).validate()
    assert len(t.runs) == 7 and set(t.runs.tool) == {"latte"}
    assert set(t.runs.parser_variant) == {"reported-csv"} and set(t.summaries.source) == {
        "reported"
    }
    assert set(t.runs.latency_basis) == {"rtt"}
    # seed 002 line 166: "the results are 2130.93"
    assert _value(t, "B1s cross-zone", "mean").value == 2130.93
    # line 192: "decreased to 1364.43 usec after enabling accelerated networking"
    an = t.runs[t.runs.scenario == "D4s_v3 cross-zone with accelerated networking"].iloc[0]
    assert an.accelerated_networking and an.vm_size == "Standard_D4s_v3"
    assert _value(t, an.scenario, "mean").value == 1364.43
    # line 206: "55 to 61.09 usecs" — only an interval is known
    r = _value(t, "D4s_v3 same zone with accelerated networking", "mean")
    assert (r.bound_low, r.bound_high, r.value) == (55.0, 61.09, 61.09)
    # line 228: "54 to 57 usec" with a proximity placement group
    ppg = t.runs[t.runs.placement == "ppg"]
    assert len(ppg) == 1 and _value(t, ppg.iloc[0].scenario, "mean").bound_low == 54.0
    b1s = t.runs[t.runs.scenario == "B1s cross-zone"].iloc[0]
    assert b1s.msg_size_bytes == 4 and "2026.40" in json.loads(b1s.labels)["note"]
    assert t.summaries["n"].isna().all()  # iterations behind the screenshots are unknown


def test_seed004_latency_table_with_thousands_separators():
    t = azlatency.read(SEED004).validate()
    assert list(t.runs.scenario) == ["Same AZ", "Cross AZ", "Cross Region"]
    # seed 004 line 103: "| Maximum | 404,402 μs | 1,099,789 μs | 743,394 μs |"
    assert _value(t, "Same AZ", "max").value == 404402
    assert _value(t, "Cross AZ", "max").value == 1099789
    # line 101: 99th percentile 8,100 μs cross region
    assert _value(t, "Cross Region", "p99").value == 8100
    cross_az = t.runs.iloc[1]
    assert (cross_az.src_zone, cross_az.dst_zone, cross_az.placement) == ("2", "1", "cross_zone")
    assert cross_az.msg_size_bytes == 64 and cross_az.port == 7
    # line 123: "| Cross AZ | 2025-03-20 13:23:58 |"
    assert json.loads(cross_az.labels)["broke_at"] == "2025-03-20 13:23:58"
    assert len(t.summaries) == 15


def test_seed004_windows_before_the_break():
    t = azlatency.read(WINDOWS).validate()
    assert len(t.runs) == 15 and set(t.summaries["n"]) == {100}
    last = t.runs[
        (t.runs.scenario == "Same AZ") & t.runs.labels.str.contains("last 100 records")
    ].run_id.iloc[0]
    # seed 004 line 139: "| Last 100 records | 789.58 | ..."
    assert t.summaries.set_index("run_id").loc[last, "value"] == 789.58


def test_units_are_converted_and_aliases_normalised():
    text = (
        "# comment\n"
        + HEADER
        + "ping,a,rtt,average,0.969,ms,20\n"
        + "ping,a,rtt,median,850,µs,\n"
        + "iperf3,b,throughput_receiver,mean,3.81,Gbps,\n"
    )
    t = azlatency.read(text, tool="reported_csv").validate()
    s = t.summaries
    assert list(zip(s["stat"], s.value, s.unit)) == [
        ("mean", 969.0, "us"),
        ("p50", 850.0, "us"),
        ("mean", 3.81e9, "bps"),
    ]
    assert list(t.runs.latency_basis.fillna("-")) == ["rtt", "-"]


@pytest.mark.parametrize(
    ("body", "line", "reason"),
    [
        ("tool,metric,stat,value,unit,zone\n", 1, "unknown column 'zone'"),
        (HEADER + "ping,a,rtt,mean,1,furlongs,\n", 2, "unknown unit 'furlongs'"),
        (HEADER + "ping,a,rtt,mean,1,us\n", 2, "expected 7 cells, got 6"),
        (HEADER + "pong,a,rtt,mean,1,us,\n", 2, "unknown tool 'pong'"),
        (HEADER + "ping,a,rtt,p99.9.9,1,us,\n", 2, "unknown stat 'p99.9.9'"),
        (HEADER + "ping,a,rtt,mean,61..55,us,\n", 2, "range '61..55' runs backwards"),
        (HEADER + "ping,a,rtt,mean,fast,us,\n", 2, "expected a number or 'low..high', got 'fast'"),
        (
            HEADER + "ping,a,rtt,mean,1,us,\nping,a,rtt,mean,2,us,\n",
            3,
            "rtt mean of this run is already given on line 2",
        ),
        (HEADER + "ping,a,rtt,mean,1,us,1.5\n", 2, "expected a whole count n, got '1.5'"),
    ],
)
def test_errors_are_located(body, line, reason):
    with pytest.raises(ParseError) as info:
        reported_csv.parse(body, source="x.csv")
    assert info.value.line_no == line and info.value.reason.startswith(reason)


def test_semicolon_csv_from_a_decimal_comma_locale():
    # Excel with German settings; the values of seed 004 lines 99-103 and seed 002 line 200
    t = azlatency.read(
        FIXTURES / "reported_csv" / "reported_csv--1-windows-de-semicolon-decimal-comma.csv"
    ).validate()
    assert _value(t, "Gleiche AZ", "max").value == 404402  # written "404.402"
    assert _value(t, "Zonenübergreifend", "max").value == 1099789  # "1.099.789"
    assert _value(t, "D4s_v3 gleiche Zone", "mean").value == 308.55  # "308,55"
    assert t.runs.encoding.iloc[0] == "utf-8-sig"


def test_header_without_rows_is_an_error():
    with pytest.raises(ParseError, match="no rows under the header"):
        reported_csv.parse("# nothing measured yet\n" + HEADER)


def test_lenient_read_skips_a_bad_row_and_says_so():
    body = HEADER + "ping,a,rtt,mean,1,us,\nping,a,rtt,max,??,us,\nping,a,rtt,min,0.5,us,\n"
    parsed = reported_csv.parse(body, strict=False)
    run = parsed.runs[0]
    assert [s.stat for s in run.summaries] == ["mean", "min"]
    assert run.warnings == ["line 3 skipped: expected a number or 'low..high', got '??'"]


def test_detection_by_header():
    assert reported_csv.whole_file("# from the blog\n\n" + HEADER)
    assert not reported_csv.whole_file("packet_num,timestamp,send_time_ns,receive_time_ns,rtt_us\n")
    assert not reported_csv.whole_file("sockperf: == version #3.6-no.git ==\n")


def test_a_table_inside_a_markdown_note_takes_its_heading():
    note = (
        "# Results\n\n## Cross zone\n\nWhat the wiki says:\n\n"
        + HEADER
        + "ping,x,rtt,mean,1.5,ms,\n\nThe end.\n"
    )
    t = azlatency.read(note)
    assert len(t.runs) == 1 and t.runs.iloc[0].heading == "Cross zone"
    assert (t.runs.iloc[0].line_start, t.runs.iloc[0].line_end) == (8, 8)
    assert t.summaries.iloc[0].value == 1500.0


def test_windows_and_the_whole_run_are_one_execution():
    """Seed 004's two tables give the same 11-hour run per scenario: whole (its mean, 850 µs
    for Same AZ) and in five 100-record windows.  ``run`` ties them into one execution."""
    whole, windows = azlatency.read(SEED004), azlatency.read(WINDOWS)
    same = windows.runs[windows.runs.scenario == "Same AZ"]
    assert len(same) == 5 and set(same.execution) == {"echo_csv:same-az"}
    assert json.loads(same.labels.iloc[-1])["window"] == "last 100 records"
    assert set(whole.runs.loc[whole.runs.scenario == "Same AZ", "execution"]) == {
        "echo_csv:same-az"
    }
    assert whole.runs.execution.nunique() == 3


def test_a_window_without_a_run_is_a_part_of_what_the_row_describes():
    text = HEADER.replace("scenario,", "scenario,window,") + (
        "echo_csv,A,first hour,rtt,mean,10,us,\n"
        "echo_csv,A,last hour,rtt,mean,12,us,\n"
        "echo_csv,B,last hour,rtt,mean,20,us,\n"
        "echo_csv,C,,rtt,mean,30,us,\n"
    )
    t = azlatency.read(text.encode(), tool="reported_csv")
    ex = t.runs.set_index("scenario")["execution"]
    assert len(t.runs) == 4 and ex["A"].nunique() == 1 and ex["A"].iloc[0] != ex["B"]
    assert pd.isna(ex["C"])  # a whole run: its own execution


def test_rows_after_a_blank_line_are_the_tables_not_dropped():
    """Issue 26: a row pasted twice after a blank line inside a note's table was neither read
    nor named.  Rows that fit the header after a blank line belong to the table: a repeated
    row is a located error (strict) or a skipped line with a warning, a new row is read."""
    note = """Cross zone:

tool,scenario,src_zone,dst_zone,metric,stat,value,unit
echo_csv,Cross AZ,2,1,rtt,mean,1425,us

echo_csv,Cross AZ,2,1,rtt,p95,1950,us
echo_csv,Cross AZ,2,1,rtt,mean,1425,us

Nothing else was measured.
"""
    with pytest.raises(ParseError) as info:
        azlatency.read(note, source="note.md", strict=True)
    assert info.value.line_no == 7
    assert info.value.reason == "rtt mean of this run is already given on line 4"
    t = azlatency.read(note, source="note.md", strict=False)
    assert t.summaries["stat"].tolist() == ["mean", "p95"]
    assert (t.runs.line_start[0], t.runs.line_end[0]) == (4, 6)
    assert t.runs.warnings[0] == "line 7 skipped: rtt mean of this run is already given on line 4"
