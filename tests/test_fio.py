"""fio JSON: values read off our fio-3.33 captures (line numbers of the JSON cited)."""

from __future__ import annotations

import json

import pytest

import azlatency
from azlatency.errors import ParseError
from azlatency.parsers import fio
from azlatency.parsers.fio.units import bucket_edges_ns, percentile_stat, size_bytes
from tests.conftest import FIXTURES

FIO = FIXTURES / "fio"


def _read(name: str, **kw):
    return azlatency.read(FIO / name, **kw)


def _value(tables, metric, stat, run=0, source="reported"):
    s = tables.summaries
    rows = s[
        (s.run_id == tables.runs.run_id.iloc[run])
        & (s.metric == metric)
        & (s.stat == stat)
        & (s.source == source)
    ]
    assert len(rows) == 1, (metric, stat, rows)
    return rows.iloc[0]


def test_read_job_bandwidth_iops_and_latency():
    t = _read("fio--3.33-linux-json-read-4k.json")
    run = t.runs.iloc[0]
    assert (run.tool_version, run["mode"], run.msg_size_bytes) == ("3.33", "read", 4096)
    assert run.duration_s == pytest.approx(1.002)  # line 28 "runtime" : 1002 (ms)
    # line 25 "bw_bytes" : 1402618379 — bytes/s, not bits
    row = _value(t, "disk_bandwidth_read", "mean")
    assert row.value == 1_402_618_379 and row.unit == "bytes/s"
    assert _value(t, "iops_read", "mean").value == pytest.approx(342436.127745)  # line 27
    # line 72 "bw_min" : 1241400 KiB/s
    assert _value(t, "disk_bandwidth_read_per_interval", "min").value == 1_241_400 * 1024
    # line 58 "99.000000" : 1288 ns: the midpoint of the 16-ns bucket [1280, 1296)
    p99 = _value(t, "clat_read", "p99")
    assert (p99.value, p99.unit, p99.bound_low, p99.bound_high) == (1.288, "us", 1.28, 1.296)
    assert p99.n == 343_121  # line 44 "N" : 343121
    # psync has no submission latency: line 37 "N" : 0 → no slat rows at all
    assert not t.summaries.metric.str.startswith("slat").any()
    # no write or trim I/O: no rows for them
    assert not t.summaries.metric.str.endswith(("_write", "_trim")).any()
    assert json.loads(run.labels)["options"]["bs"] == "4k"


def test_numjobs_without_group_reporting_gives_one_run_per_clone():
    t = _read("fio--3.33-linux-json-randrw-numjobs2.json")
    assert list(t.runs.streams) == [1, 1]
    assert [json.loads(x)["clone"] for x in t.runs.labels] == [0, 1]
    # line 26 and line 295: the two clones' read bw_bytes
    assert _value(t, "disk_bandwidth_read", "mean", 0).value == 89_391_824
    assert _value(t, "disk_bandwidth_read", "mean", 1).value == 89_039_920
    assert _value(t, "disk_bandwidth_write", "mean", 0).value == 89_215_872  # line 88


def test_group_reporting_is_one_run_over_numjobs():
    t = _read("fio--3.33-linux-json-randrw-numjobs2-group_reporting.json")
    run = t.runs.iloc[0]
    assert len(t.runs) == 1 and run.streams == 2
    assert json.loads(run.labels)["group_reported"] is True
    assert run.duration_s == pytest.approx(1.012)
    # the run's figure and the per-interval statistics are kept apart: here the interval
    # minimum (126216 KiB/s) is above the run's mean (128165944 bytes/s)
    assert _value(t, "disk_bandwidth_read", "mean").value == 128_165_944
    assert _value(t, "disk_bandwidth_read_per_interval", "min").value == 126_216 * 1024
    assert _value(t, "disk_bandwidth_read_per_interval", "min").n == 4  # "bw_samples" : 4


def test_json_plus_bins_become_histogram_samples():
    t = _read("fio--3.33-linux-jsonplus-randread-bins.json")
    assert t.runs.parser_variant.iloc[0] == "json+"
    s = t.samples
    assert set(s.kind) == {"histogram"} and set(s.stream) == {"clat_read"}
    assert s["count"].sum() == 17_409  # line 44 "N" : 17409
    first = s.iloc[0]  # line 65 "1368" : 1 — 1368 ns lies in the 16-ns bucket [1360, 1376)
    assert (first.bin_low_us, first.bin_high_us, first["count"]) == (1.36, 1.376, 1)
    assert (s.bin_low_us.iloc[1:].values >= s.bin_high_us.iloc[:-1].values).all()


def test_percentiles_computed_from_bins_equal_the_reported_ones():
    t = _read("fio--3.33-linux-jsonplus-randread-bins.json")
    s = t.summaries[t.summaries.metric == "clat_read"]
    reported = s[s.source == "reported"].set_index("stat").value
    computed = s[s.source == "computed"].set_index("stat").value
    assert len(computed) == 18  # count + the 17 default percentiles
    assert (computed == reported[computed.index]).all()
    assert computed["p99.99"] == pytest.approx(4947.968)  # line 220 "4947968" : 1


def test_sync_direction_and_mixed_reporting():
    sync = _read("fio--3.33-linux-json-randwrite-fsync4-sync-lat.json")
    assert _value(sync, "ios_sync", "total").value == 7474  # line 172
    assert _value(sync, "lat_sync", "p50").value == pytest.approx(110.08)  # line 186
    mixed = _read("fio--3.33-linux-json-write-fsync-lat_percentiles-mixed.json")
    assert {m.split("_")[-1] for m in mixed.summaries.metric if m.startswith("clat")} == {"mixed"}
    # --percentile_list=50:90:99:99.9:99.99 and --lat_percentiles=1
    stats = set(mixed.summaries[mixed.summaries.metric == "lat_mixed"].stat)
    assert {"p50", "p90", "p99", "p99.9", "p99.99"} <= stats


def test_block_size_per_direction():
    t = _read("fio--3.33-linux-json-randrw-bs4k16k-mix70.json")
    run = t.runs.iloc[0]
    labels = json.loads(run.labels)
    assert pd_isna(run.msg_size_bytes)
    assert (labels["bs_read_bytes"], labels["bs_write_bytes"]) == (4096, 16384)


def pd_isna(value) -> bool:
    import pandas as pd

    return bool(pd.isna(value))


def test_text_around_the_json():
    note = _read("fio--3.33-linux-json-note-before-iodepth-psync.txt")
    assert note.runs.warnings.iloc[0].startswith("note: both iodepth >= 1")
    labels = json.loads(note.runs.labels.iloc[0])  # "iodepth" : "64" in the job options
    assert (labels["iodepth"], labels["numjobs"], labels["ioengine"]) == (64, 1, "psync")
    late = _read("fio--3.33-linux-json-late-output-format-header-before.txt")
    assert list(late.runs["mode"]) == ["read", "write"] and late.runs.warnings.isna().all()
    normal = _read("fio--3.33-linux-json-normal-randrw-1024k.txt")
    assert "38 lines of text after the JSON" in normal.runs.warnings.iloc[0]
    assert normal.runs.msg_size_bytes.iloc[0] == 1024 * 1024  # bs=1024k


def test_failed_job_is_an_incomplete_run():
    t = _read("fio--3.33-linux-json-missing-file-error.txt")
    run = t.runs.iloc[0]
    assert not run.complete
    assert "error=No such file or directory" in run.warnings
    assert "ended with error 2" in run.warnings
    assert not t.summaries.metric.str.startswith(("disk_", "iops", "clat")).any()


def test_client_server_mode():
    t = _read("fio--3.33-linux-json-client-server.txt")
    run = t.runs.iloc[0]
    assert (run.dst_ip, run.port, run["mode"]) == ("10.204.0.1", 8765, "randread")
    assert run.msg_size_bytes == 4096  # from "global options"


def test_cut_json_is_a_located_error():
    with pytest.raises(ParseError) as info:
        _read("fio--3.33-linux-json-read-4k-cut-at-line-60.txt")
    assert info.value.line_no == 60 and info.value.hint == "the output looks cut short"


def test_fio_2_json_is_refused_with_a_hint():
    text = (
        '{\n  "fio version" : "fio-2.2.10",\n  "jobs" : [ { "jobname" : "a",\n'
        '  "read" : { "io_bytes" : 1, "total_ios" : 1, "clat" : { "mean" : 1.0 } } } ]\n}\n'
    )
    with pytest.raises(ParseError, match="fio < 3.0"):
        fio.parse(text)


def test_wrong_types_are_parse_errors_and_lenient_mode_skips_the_job():
    text = (
        '{\n  "fio version" : "fio-3.33",\n  "jobs" : [\n    {\n      "jobname" : "a",\n'
        '      "read" : { "total_ios" : "many" }\n    },\n    {\n      "jobname" : "b",\n'
        '      "read" : { "total_ios" : 1, "bw_bytes" : 10 }\n    }\n  ]\n}\n'
    )
    with pytest.raises(ParseError, match="read.total_ios"):
        fio.parse(text)
    parsed = fio.parse(text, strict=False)
    assert len(parsed.runs) == 1 and "job 0 skipped" in parsed.runs[0].warnings[0]


def test_whole_file_claims_fio_files_only():
    assert fio.whole_file((FIO / "fio--3.33-linux-json-client-server.txt").read_text())
    assert fio.whole_file((FIO / "fio--3.33-linux-json-missing-file-error.txt").read_text())
    doc = '# Disk baseline\n\nSome prose.\n\n{\n  "fio version" : "fio-3.33",\n'
    assert not fio.whole_file(doc)
    assert [(s.start, s.end) for s in fio.locate(doc.split("\n") + ["}"])] == [(4, 8)]


def test_units():
    assert size_bytes("4k") == 4096 and size_bytes("1024k") == 1 << 20
    assert size_bytes("4KiB") == 4000  # fio 3.33 with kb_base=1024: 'kib' means 1000
    assert size_bytes("4k", 1000) == 4000 and size_bytes("4KiB", 1000) == 4096
    assert size_bytes("4x") is None
    assert percentile_stat("99.900000") == "p99.9" and percentile_stat("50.000000") == "p50"
    assert percentile_stat("100.000000") == "p100" and percentile_stat("x") is None
    assert bucket_edges_ns(100) == (100, 101) and bucket_edges_ns(129) == (128, 130)
    assert bucket_edges_ns(110080) == (109568, 110592)


def test_numbers_beyond_64_bits():
    text = (FIO / "fio--3.33-linux-json-read-4k.json").read_text()
    # json gives no positions: the line is found by the key and the value's text
    with pytest.raises(ParseError, match="fio's 64-bit counters.*out of range") as err:
        fio.parse(text.replace('"runtime" : 1002', '"runtime" : 99999999999999999999999'))
    assert err.value.line_no == 28
    with pytest.raises(ParseError, match="bs within int64 bytes") as err:
        fio.parse(text.replace('"bs" : "4k"', '"bs" : "99999999999999999999999k"'))
    assert err.value.line_no == 20


# ---------------------------------------------------------------------------------------------
# The normal (default) text output (issue 28 item 1), captured with fio 3.33


def _normal(name: str):
    return azlatency.read(FIXTURES / "fio" / f"fio--3.33-linux-normal-{name}.txt")


def _stat(t, metric: str, stat: str, run: int = 0) -> float:
    s = t.summaries[t.summaries["run_id"] == t.runs["run_id"].iloc[run]]
    return s.set_index(["metric", "stat"])["value"][(metric, stat)]


def test_normal_output_values_as_printed():
    t = _normal("randread-4k-libaio-iodepth16")
    run = t.runs.iloc[0]
    assert (run["parser_variant"], run["mode"], run["msg_size_bytes"]) == (
        "normal",
        "randread",
        4096,
    )
    assert run["complete"] and run["tool_version"] == "3.33" and run["duration_s"] == 2.001
    # "read: IOPS=340k, BW=1329MiB/s (1393MB/s)(2659MiB/2001msec)"
    assert _stat(t, "iops_read", "mean") == 340_000
    assert _stat(t, "disk_bandwidth_read", "mean") == 1329 * 2**20
    assert _stat(t, "transfer_read", "total") == 2659 * 2**20
    # "slat (nsec): ... avg=1930.47", "lat (usec): min=3, max=388, avg=46.69, stdev= 7.40"
    assert _stat(t, "slat_read", "mean") == pytest.approx(1.93047)
    assert _stat(t, "lat_read", "max") == 388 and _stat(t, "lat_read", "std") == 7.40
    # "clat percentiles (usec): ... 99.00th=[   69], ... 99.99th=[  149]"
    assert _stat(t, "clat_read", "p99") == 69 and _stat(t, "clat_read", "p99.99") == 149
    # "bw (  MiB/s): min= 1265, ... avg=1324.78, ..., samples=3"; "iops : ... avg=339142.67"
    assert _stat(t, "disk_bandwidth_read_per_interval", "mean") == pytest.approx(1324.78 * 2**20)
    assert _stat(t, "iops_read_per_interval", "mean") == 339142.67
    assert _stat(t, "ios_read", "total") == 680728  # "issued rwts: total=680728,0,0,0"
    assert _stat(t, "cpu_system", "mean") == 77.45


def test_normal_output_mixes_jobs_files_and_sync():
    mix = _normal("randrw-mix70-numjobs2-group_reporting")
    assert len(mix.runs) == 1 and mix.runs["streams"].iloc[0] == 2  # "(groupid=0, jobs=2)"
    assert _stat(mix, "iops_read", "mean") == 62_600 and _stat(mix, "iops_write", "mean") == 26_800
    assert _stat(mix, "slat_read", "max") == 15081  # "max=15081k" nsec = 15,081 µs
    assert _stat(mix, "clat_read", "p99.9") == 24248.320  # "(nsec)": 24248320
    per_job = _normal("randwrite-psync-numjobs2-two-files")
    assert len(per_job.runs) == 2 and list(per_job.runs["line_start"]) == [6, 27]
    assert [_stat(per_job, "iops_write", "mean", k) for k in (0, 1)] == [109_000, 110_000]
    sync = _normal("randwrite-fsync1-sync-lat")
    assert _stat(sync, "iops_write", "mean") == 9388  # "IOPS=9388"
    assert _stat(sync, "lat_sync", "mean") == 97.82  # "sync (usec): ... avg=97.82"
    assert _stat(sync, "lat_sync", "p99.99") == 5276
    big = _normal("write-1m")
    assert big.runs["msg_size_bytes"].iloc[0] == 2**20  # "bs=(R) 1024KiB-1024KiB"


def test_normal_output_cut_short_is_incomplete():
    t = _normal("randread-4k-cut-at-line-14")
    run = t.runs.iloc[0]
    assert not run["complete"]
    assert "no 'Run status group' after the job report (it stops at line 14)" in run["warnings"]
    assert _stat(t, "clat_read", "p95") == 61  # what was printed before the cut is kept


def test_normal_and_json_of_one_job_agree_within_print_rounding():
    """--output-format=json,normal prints both: the text reader's figures equal the JSON's to
    the precision printed (IOPS to ~3 digits, µs latencies truncated to the unit)."""
    from azlatency.parsers.fio.text import parse_text

    path = FIXTURES / "fio" / "fio--3.33-linux-json-normal-randrw-1024k.txt"
    lines = path.read_text().split("\n")
    close = max(i for i, x in enumerate(lines) if x.rstrip() == "}")
    (text_run,) = parse_text(lines[close + 1 :], None, True)
    js = azlatency.read(path).summaries.set_index(["metric", "stat"])["value"]
    compared = 0
    for s in text_run.summaries:
        if (s.metric, s.stat) not in js.index:
            continue
        want = js[(s.metric, s.stat)]
        assert s.value == pytest.approx(want, rel=0.01, abs=1.0), (s.metric, s.stat)
        compared += 1
    assert compared >= 30
