"""iostat -x (sysstat 11.4, 11.6, 12.6): real captures, values read off the files."""

from __future__ import annotations

import json

import pytest

import azlatency
from azlatency.errors import ParseError
from tests._expected import FIXTURES

D = FIXTURES / "iostat"


def _values(t, metric: str) -> list[float]:
    s = t.summaries[t.summaries["metric"] == metric]
    return [round(v, 2) for v in s["value"]]


def test_four_disks_show_how_a_load_spreads():
    t = azlatency.read(D / "iostat--12.6.1-linux-x-d-t-4loop-dd-write.txt")
    labels = [json.loads(x) for x in t.runs["labels"]]
    assert len(t.runs) == 12 and {x["device"] for x in labels} == {f"loop{i}" for i in range(4)}
    second = [i for i, x in enumerate(labels) if x["report"] == 2]
    ids = set(t.runs["run_id"].iloc[second])
    w = t.summaries[t.summaries["run_id"].isin(ids) & (t.summaries["metric"] == "iops_write")]
    assert w["value"].tolist() == [1109.0, 2032.0, 2639.0, 2580.0]
    bw = t.summaries[t.summaries["run_id"].isin(ids)]
    bw = bw[bw["metric"] == "disk_bandwidth_write"]["value"].tolist()
    assert bw == [70976.0 * 1024, 130048.0 * 1024, 168896.0 * 1024, 165120.0 * 1024]
    assert labels[0] == {
        "device": "loop0",
        "report": 1,
        "since_boot": True,
        "timestamp": "11/25/26 03:11:59",
    }
    # reports are windows of one execution per device: 4 executions, not 12 runs
    assert t.runs["execution"].nunique() == 4
    assert (t.runs["parser_variant"] == "x").all() and (t.runs["src_host"] == "vm").all()


def test_units_are_converted_from_what_iostat_prints():
    t = azlatency.read(D / "iostat--12.6.1-linux-x-1-3-vda-dd-write.txt")
    assert len(t.runs) == 3  # vda in three reports; the avg-cpu blocks are left out
    assert _values(t, "await_write") == [1410.0, 2260.0, 2730.0]  # ms -> µs
    assert _values(t, "request_size_write") == [79.2 * 1024, 318.64 * 1024, 512.0 * 1024]
    assert _values(t, "util") == [0.49, 73.33, 77.6]
    assert set(t.summaries["unit"]) == {"io/s", "bytes/s", "pct", "us", "bytes", "requests"}


@pytest.mark.parametrize(
    "name, variant, reads",
    [
        (
            "iostat--11.4.9-linux-x-d-2loop-dd-read-write.txt",
            "x-legacy",
            [0.0, 2.16, 0.0, 11201.98, 0.0, 8686.0],
        ),
        (
            "iostat--11.6.6-linux-x-t-2loop-dd-read-write.txt",
            "x-legacy",
            [0.0, 0.0, 0.0, 2956.0, 0.0, 9205.0],
        ),
    ],
)
def test_older_sysstat_layouts(name, variant, reads):
    t = azlatency.read(D / name)
    assert (t.runs["parser_variant"] == variant).all()
    assert _values(t, "iops_read") == reads
    if "11.4.9" in name:  # avgrq-sz counts 512-byte sectors: dd's 64 KiB writes
        assert _values(t, "request_size")[2] == round(127.95 * 512, 2)
        assert _values(t, "queue_size")[3] == 0.51


def test_a_foreign_line_is_named_and_a_short_row_refused():
    text = (D / "iostat--12.6.1-linux-x-1-3-vda-dd-write.txt").read_text()
    lines = text.split("\n")
    head = next(i for i, x in enumerate(lines) if x.startswith("Device"))
    bad = "\n".join(lines[: head + 1] + ["vda 1.00 2.00"] + lines[head + 2 :])
    with pytest.raises(
        ParseError, match=r"iostat: .*:7: expected 22 values under the Device header, got 2"
    ):
        azlatency.read(bad.encode(), tool="iostat", source="x", strict=True)
    lenient = azlatency.read(bad.encode(), tool="iostat", strict=False)
    assert len(lenient.runs) == 2 and "line 7 skipped" in lenient.runs["warnings"].iloc[0]


def test_a_sentence_as_wide_as_a_device_row_is_not_one():
    """A device row with a value that is no number is named (tests/parsers/
    test_damaged_figures.py); a line of as many words after the output, most of them no
    number, is text after it, read as before (strict too)."""
    path = D / "iostat--12.6.1-linux-x-1-3-vda-dd-write.txt"
    text = path.read_text(encoding="utf-8").rstrip("\n")
    width = len(next(x for x in text.split("\n") if x.startswith("Device")).split())
    prose = "Then " + " ".join(["we"] * (width - 2)) + " waited."
    base, got = azlatency.read(text, strict=True), azlatency.read(text + "\n" + prose, strict=True)
    assert len(prose.split()) == width and got.runs["warnings"].equals(base.runs["warnings"])
    assert got.summaries.drop(columns="run_id").equals(base.summaries.drop(columns="run_id"))
