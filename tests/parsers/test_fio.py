"""fio JSON and normal text output: values read off our fio-3.33 captures (lines cited)."""

from __future__ import annotations

import json

import pandas as pd
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


def test_cut_json_is_a_located_error_strict_and_a_run_by_default():
    with pytest.raises(ParseError) as info:
        _read("fio--3.33-linux-json-read-4k-cut-at-line-60.txt", strict=True)
    assert info.value.line_no == 60 and info.value.hint == "the output looks cut short"
    # by default the copy keeps what it holds whole (it was 'not imported': the job's
    # bandwidth, IOPS and latency percentiles to p99.9 lost with the file)
    t = _read("fio--3.33-linux-json-read-4k-cut-at-line-60.txt")
    assert len(t.runs) == 1 and not bool(t.runs["complete"].iloc[0])
    assert "the JSON is cut short at line 60" in str(t.runs["warnings"].iloc[0])
    assert _value(t, "iops_read", "mean")["value"] == pytest.approx(342436.127745)
    assert _value(t, "clat_read", "p99.9")["value"] == pytest.approx(1155.072)


def test_fio_2_2_json_without_io_kbytes_reads_kib():
    """fio 2.2.10's layout (stat.c: io_bytes >> 10, latencies in µs, no N)."""
    text = (
        '{\n  "fio version" : "fio-2.2.10",\n  "jobs" : [ { "jobname" : "a",\n'
        '  "read" : { "io_bytes" : 1, "total_ios" : 1, "clat" : { "mean" : 1.0 } } } ]\n}\n'
    )
    run = fio.parse(text).runs[0]
    got = {(s.metric, s.stat): s.value for s in run.summaries}
    assert got[("transfer_read", "total")] == 1024 and got[("clat_read", "mean")] == 1.0
    assert run.meta["tool_version"] == "2.2.10"


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
# The normal (default) text output (issue 28 item 1), captured with fio 3.33: every value below
# is read off the fixture by eye (the quoted text is the line it comes from)


def _normal(name: str, **kw):
    return azlatency.read(FIXTURES / "fio" / f"fio--3.33-linux-normal-{name}.txt", **kw)


def _stat(t, metric: str, stat: str, run: int = 0) -> float:
    s = t.summaries[t.summaries["run_id"] == t.runs["run_id"].iloc[run]]
    return s.set_index(["metric", "stat"])["value"][(metric, stat)]


def _labels(t, run: int = 0) -> dict:
    return json.loads(t.runs["labels"].iloc[run])


def test_normal_units_are_converted_exactly():
    from decimal import Decimal

    from azlatency.parsers.fio.text import count, size

    assert size("1329", "MiB") == 1329 * 2**20 and size("400", "KiB") == 409_600
    assert size("83.4", "MB") == 83_400_000 and size("409", "kB") == 409_000
    assert size("64.0", "KiB") == 65_536 and size("4096", "B") == 4096
    assert size("2.5", "GiB") == Decimal(5 * 2**29)
    assert count("340k") == 340_000 and count("62.6k") == 62_600 and count("9388") == 9388
    assert count("15081k") == 15_081_000 and count("1.5M") == 1_500_000
    with pytest.raises(ValueError):
        count("12x")


def test_normal_output_values_as_printed():
    t = _normal("randread-4k-libaio-iodepth16")
    run = t.runs.iloc[0]
    assert (run["parser_variant"], run["mode"], run["msg_size_bytes"]) == (
        "normal",
        "randread",
        4096,
    )
    assert run["complete"] and run["tool_version"] == "3.33" and run["duration_s"] == 2.001
    assert _labels(t) == {
        "groupid": 0,
        "iodepth": 16,
        "ioengine": "libaio",
        "jobname": "raid0",
        "numjobs": 1,
    }
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


def test_normal_percentile_bounds_follow_fios_rounding_up():
    """fio prints a percentile's bucket midpoint rounded up to the heading's unit: '69' usec is
    a midpoint in (68000, 69000] ns, and the bucket around it."""
    t = _normal("randread-4k-libaio-iodepth16")
    s = t.summaries.set_index(["metric", "stat"])
    p99 = s.loc[("clat_read", "p99")]
    # 1024-ns buckets there: only [67584, 68608) has its midpoint (68096) in (68000, 69000]
    assert p99.bound_low == pytest.approx(67.584) and p99.bound_high == pytest.approx(68.608)
    nsec = _normal("randrw-mix70-numjobs2-group_reporting")  # "(nsec)": the midpoint itself
    row = nsec.summaries.set_index(["metric", "stat"]).loc[("clat_read", "p99.9")]
    assert (row.value, row.bound_low, row.bound_high) == (24248.32, 24117.248, 24379.392)


def test_normal_output_mixes_jobs_files_and_sync():
    mix = _normal("randrw-mix70-numjobs2-group_reporting")
    assert len(mix.runs) == 1 and mix.runs["streams"].iloc[0] == 2  # "(groupid=0, jobs=2)"
    assert _labels(mix)["group_reported"] is True and _labels(mix)["numjobs"] == 2
    assert _stat(mix, "iops_read", "mean") == 62_600 and _stat(mix, "iops_write", "mean") == 26_800
    assert _stat(mix, "slat_read", "max") == 15081  # "max=15081k" nsec = 15,081 µs
    assert _stat(mix, "clat_read", "p99.9") == 24248.320  # "(nsec)": 24248320
    assert _stat(mix, "clat_write", "p50") == 141  # "(usec)": 50.00th=[  141]
    per_job = _normal("randwrite-psync-numjobs2-two-files")
    assert len(per_job.runs) == 2 and list(per_job.runs["line_start"]) == [6, 27]
    assert [_labels(per_job, k)["clone"] for k in (0, 1)] == [0, 1]
    assert _labels(per_job, 1)["numjobs"] == 2 and list(per_job.runs["streams"]) == [1, 1]
    assert [_stat(per_job, "iops_write", "mean", k) for k in (0, 1)] == [109_000, 110_000]
    sync = _normal("randwrite-fsync1-sync-lat")
    assert _stat(sync, "iops_write", "mean") == 9388  # "IOPS=9388"
    assert _stat(sync, "lat_sync", "mean") == 97.82  # "sync (usec): ... avg=97.82"
    assert _stat(sync, "lat_sync", "p99.99") == 5276
    assert _stat(sync, "ios_sync", "total") == 9398  # "issued rwts: total=0,9398,0,9398"
    big = _normal("write-1m")
    assert big.runs["msg_size_bytes"].iloc[0] == 2**20  # "bs=(R) 1024KiB-1024KiB"


def test_normal_kb_base_1000_percentile_list_and_lat_percentiles():
    t = _normal("randread-psync-percentile_list-lat_percentiles-kb_base1000")
    # "read: IOPS=20.4k, BW=83.4MB/s (79.6MiB/s)(83.5MB/1001msec)": kb_base=1000 puts the
    # decimal unit first
    assert _stat(t, "iops_read", "mean") == 20_400
    assert _stat(t, "disk_bandwidth_read", "mean") == 83_400_000
    assert _stat(t, "transfer_read", "total") == 83_500_000
    # "bw (   kB/s): min=112536, ..., avg=112536.00": fio's interval samples are KiB/s
    # whatever the label says (stat.c divides by 1024)
    assert _stat(t, "disk_bandwidth_read_per_interval", "mean") == 112_536 * 1024
    # "clat (nsec): min=831, max=15736k", " lat (nsec): min=852"
    assert _stat(t, "clat_read", "max") == 15_736 and _stat(t, "lat_read", "min") == 0.852
    # --percentile_list=50:90:99:99.9: "| 50.0th=[   40], 90.0th=[   49], 99.0th=[   79], ..."
    clat = t.summaries[(t.summaries.metric == "clat_read") & t.summaries.stat.str.startswith("p")]
    assert sorted(clat.stat) == ["p50", "p90", "p99", "p99.9"]
    assert _stat(t, "clat_read", "p99") == 79 and _stat(t, "lat_read", "p99") == 80
    assert _stat(t, "lat_read", "p99.9") == 4080  # --lat_percentiles=1: "lat percentiles"
    assert not t.summaries.metric.str.startswith("slat").any()  # psync: no slat line


def test_normal_msec_latencies_and_percentiles():
    t = _normal("write-4m-libaio-iodepth64-msec")
    run = t.runs.iloc[0]
    assert run["msg_size_bytes"] == 4 * 2**20 and _labels(t)["iodepth"] == 64
    # "write: IOPS=659, BW=2636MiB/s (2764MB/s)(5576MiB/2115msec); 0 zone resets"
    assert _stat(t, "iops_write", "mean") == 659 and run["duration_s"] == 2.115
    assert _stat(t, "disk_bandwidth_write", "mean") == 2636 * 2**20
    # "slat (usec): ... max=40635", "clat (msec): min=8, max=273, avg=94.79, stdev=46.26"
    assert _stat(t, "slat_write", "max") == 40_635
    assert _stat(t, "clat_write", "mean") == pytest.approx(94_790)
    assert _stat(t, "clat_write", "max") == 273_000
    # "clat percentiles (msec): ... 99.00th=[  222]"
    assert _stat(t, "clat_write", "p99") == 222_000
    assert _stat(t, "ios_write", "total") == 1394  # "issued rwts: total=0,1394,0,0"


def test_normal_two_groups_kib_and_a_block_size_per_direction():
    t = _normal("two-groups-stonewall-rate-bs4k16k")
    assert list(t.runs["mode"]) == ["randwrite", "randrw"] and t.runs["complete"].all()
    assert [_labels(t, k)["groupid"] for k in (0, 1)] == [0, 1]
    # "write: IOPS=99, BW=400KiB/s (409kB/s)(400KiB/1001msec)" (--rate=400k)
    assert _stat(t, "iops_write", "mean") == 99
    assert _stat(t, "disk_bandwidth_write", "mean") == 400 * 1024
    assert _stat(t, "disk_bandwidth_write_per_interval", "mean") == 403 * 1024  # "avg=403.00"
    # "mixbs: (g=1): rw=randrw, bs=(R) 4096B-4096B, (W) 16.0KiB-16.0KiB, (T) 16.0KiB-16.0KiB"
    assert pd_isna(t.runs["msg_size_bytes"].iloc[1])
    labels = _labels(t, 1)
    assert (labels["bs_read_bytes"], labels["bs_write_bytes"]) == (4096, 16384)
    assert _stat(t, "iops_read", "mean", 1) == 9760
    assert _stat(t, "disk_bandwidth_write", "mean", 1) == pytest.approx(68.4 * 2**20)
    assert _stat(t, "clat_read", "p99.99", 1) == 19267.584  # "99.99th=[19267584]" (nsec)
    assert _stat(t, "clat_write", "p99.99", 1) == 174  # "99.99th=[  174]" (usec)


def test_normal_unified_mixed_reporting():
    t = _normal("randrw-unified-mixed")
    dirs = {m.rsplit("_", 1)[-1] for m in t.summaries.metric if m.startswith(("iops", "clat"))}
    assert dirs == {"mixed", "interval"} or dirs == {"mixed"}
    assert _stat(t, "iops_mixed", "mean") == 21_200  # "mixed: IOPS=21.2k"
    assert _stat(t, "ios_mixed", "total") == 21196  # "issued rwts: total=21196,0,0,0"
    assert not t.summaries.metric.str.endswith(("_read", "_write")).any()


def test_normal_failed_job_is_an_incomplete_run():
    t = _normal("missing-file-error")
    run = t.runs.iloc[0]
    assert len(t.runs) == 1 and not run["complete"] and run["mode"] == "read"
    assert "error=No such file or directory" in run["warnings"]
    assert "fio printed no report for job 'ro'" in run["warnings"]
    assert t.summaries.empty


def test_normal_output_cut_short_is_incomplete():
    t = _normal("randread-4k-cut-at-line-14")
    run = t.runs.iloc[0]
    assert not run["complete"]
    assert "no 'Run status group' after the job report (it stops at line 14)" in run["warnings"]
    assert _stat(t, "clat_read", "p95") == 61  # what was printed before the cut is kept


def test_normal_garbled_line_is_located_or_skipped():
    path = FIXTURES / "fio" / "fio--3.33-linux-normal-randread-4k-libaio-iodepth16.txt"
    text = path.read_text()
    bad = text.replace("IOPS=340k", "IOPS=34O0k")  # line 6
    with pytest.raises(ParseError, match="expected a line of fio's job report") as err:
        fio.parse(bad, source="x.txt")
    assert (err.value.line_no, err.value.tool, err.value.source) == (6, "fio", "x.txt")
    lenient = fio.parse(bad, strict=False).runs[0]
    assert "line 6 skipped" in "; ".join(lenient.warnings)
    assert not any(s.metric == "iops_read" and s.stat == "mean" for s in lenient.summaries)
    pct = text.replace("99.00th=[   69]", "99.00th=[   6 9]")
    with pytest.raises(ParseError) as err:
        fio.parse(pct)
    assert err.value.line_no == 14
    (run,) = fio.parse(pct, strict=False).runs  # the next percentile line is still read
    assert [w for w in run.warnings if "skipped" in w] == [
        "line 14 skipped: expected a line of fio's job report, got "
        "'| 99.00th=[   6 9], 99.50th=[   82], 99.90th=[   94], 99.95th=[  100],'"
    ]
    assert {s.stat for s in run.summaries if s.metric == "clat_read"} >= {"p95", "p99.99"}
    assert not any(s.stat == "p99" and s.metric == "clat_read" for s in run.summaries)
    lines = text.split("\n")  # a foreign line inside the block: skipped, the block read on
    (run,) = fio.parse("\n".join(lines[:13] + ["12.5"] + lines[13:]), strict=False).runs
    assert sum("skipped" in w for w in run.warnings) == 1
    assert {s.stat for s in run.summaries if s.metric == "clat_read"} >= {"p99", "p99.99"}


def test_normal_repeated_report_is_flagged():
    lines = (FIXTURES / "fio" / "fio--3.33-linux-normal-write-1m.txt").read_text().split("\n")
    twice = "\n".join(lines[:24] + [""] + lines[4:24] + lines[24:])
    runs = fio.parse(twice).runs
    assert len(runs) == 2 and "repeats the one at line 5" in runs[1].warnings[0]


@pytest.mark.parametrize(
    "name", ["json-normal-randrw-1024k", "json-normal-read-1m-tmpfs-kb_base1000"]
)
def test_normal_and_json_of_one_job_agree_within_print_rounding(name):
    """--output-format=json,normal prints both: the text reader's figures equal the JSON's to
    the precision printed (about four digits), and each text percentile's bounds hold the
    JSON's bucket."""
    from azlatency.parsers.fio.text import parse_text

    path = FIXTURES / "fio" / f"fio--3.33-linux-{name}.txt"
    lines = path.read_text().split("\n")
    close = max(i for i, x in enumerate(lines) if x.rstrip() == "}")
    (text_run,) = parse_text(lines[close + 1 :], None, True)
    js = azlatency.read(path).summaries.set_index(["metric", "stat"])
    compared = 0
    for s in text_run.summaries:
        want = js.loc[(s.metric, s.stat)]  # every text row has its JSON row
        assert s.unit == want.unit
        assert s.value == pytest.approx(want.value, rel=0.005, abs=1.0), (s.metric, s.stat)
        if s.stat.startswith("p"):
            assert s.bound_low <= want.value <= s.bound_high
        compared += 1
    assert compared >= 40


def test_normal_and_json_run_meta_agree():
    from azlatency.parsers.fio.text import parse_text

    path = FIXTURES / "fio" / "fio--3.33-linux-json-normal-read-1m-tmpfs-kb_base1000.txt"
    lines = path.read_text().split("\n")
    start = next(i for i, x in enumerate(lines) if x.rstrip() == "{")
    close = max(i for i, x in enumerate(lines) if x.rstrip() == "}")
    blanked = lines[:start] + [""] * (close + 1 - start) + lines[close + 1 :]  # the text alone
    (text_run,) = parse_text(blanked, None, True)
    js = azlatency.read(path).runs.iloc[0]
    for key in ("mode", "tool_version", "duration_s", "streams"):
        assert text_run.meta.get(key) == js[key], key
    assert text_run.meta["labels"] == json.dumps(
        {"groupid": 0, "iodepth": 1, "ioengine": "psync", "jobname": "shm", "numjobs": 1}
        | {"bs_printed": "(R) 1049kB-1049kB, (W) 1049kB-1049kB, (T) 1049kB-1049kB"},
        sort_keys=True,
    )
    # --bs=1m came before --kb_base=1000, so fio read it as 1 MiB (io_bytes / total_ios =
    # 3825205248 / 3648): the banner's '1049kB' is that rounded, not a size to take
    assert js["msg_size_bytes"] == 2**20 and "msg_size_bytes" not in text_run.meta


def test_normal_outputs_one_after_the_other_keep_their_own_banner():
    """Seed 003 runs the same job name (raid0) with rw=read, randread, write, ...: a log of
    those holds several outputs, and each report takes the banner of its own output."""
    first = (FIO / "fio--3.33-linux-normal-randread-4k-libaio-iodepth16.txt").read_text()
    second = (FIO / "fio--3.33-linux-normal-write-4m-libaio-iodepth64-msec.txt").read_text()
    second = second.replace("big:", "raid0:")  # the same name, as in the seed's commands
    runs = fio.parse(first + second).runs
    assert [r.meta["mode"] for r in runs] == ["randread", "write"]
    assert [r.meta["msg_size_bytes"] for r in runs] == [4096, 4 * 2**20]
    assert [json.loads(r.meta["labels"])["iodepth"] for r in runs] == [16, 64]
    assert all(r.meta["complete"] and not r.warnings for r in runs)


# ---------------------------------------------------------------------------------------------
# fio 2.x (issue 28): JSON with µs latencies, and the normal text, captured with fio-2.21.


def _fio2(name):
    return azlatency.read(FIXTURES / "fio" / name, source=name)


def _v(t, metric, stat, source="reported"):
    s = t.summaries
    return s[(s.metric == metric) & (s.stat == stat) & (s.source == source)]["value"].item()


def test_fio2_json_units_and_counts():
    t = _fio2("fio--2.21-linux-json-randread-4k.json")
    run = t.runs.iloc[0]
    assert (run.tool_version, run.parser_variant, run["mode"], run.complete) == (
        "2.21",
        "json",
        "randread",
        True,
    )
    assert _v(t, "disk_bandwidth_read", "mean") == 929398 * 1024  # "bw" KiB/s
    assert _v(t, "transfer_read", "total") == 952655872  # io_bytes: bytes (io_kbytes 930328)
    assert _v(t, "clat_read", "mean") == 3.253162  # µs as printed
    assert _v(t, "clat_read", "count") == 232582  # no N in 2.x: one per I/O issued
    s = t.summaries
    p = s[(s.metric == "clat_read") & (s.stat == "p99.99")].iloc[0]
    assert (p.value, p.bound_low, p.bound_high) == (5728.0, 5696.0, 5760.0)  # µs bucket
    assert not s["stat"].isin(["p0"]).any()  # the "0.00": 0 padding is not a percentile
    assert "slat_read" not in set(s.metric)  # psync: all zeros, not measured


def test_fio2_json_io_bytes_in_kib_before_io_kbytes():
    """fio 2.1-2.15 wrote io_bytes in KiB (stat.c: 'ts->io_bytes[ddir] >> 10') and no
    io_kbytes: the same document without io_kbytes, io_bytes as KiB, reads the same bytes."""
    doc = json.loads((FIXTURES / "fio" / "fio--2.21-linux-json-randread-4k.json").read_text())
    for part in (doc["jobs"][0]["read"], doc["jobs"][0]["write"]):
        part["io_bytes"] = part.pop("io_kbytes")
    t = azlatency.read(json.dumps(doc, indent=2), source="old.json")
    assert _v(t, "transfer_read", "total") == 930328 * 1024


def test_fio2_normal_text():
    t = _fio2("fio--2.21-linux-normal-randread-4k-psync.txt")
    run = t.runs.iloc[0]
    assert (run.tool_version, run.parser_variant, run.complete) == ("2.21", "normal", True)
    assert run.warnings == "raid0: Laying out IO file (1 file / 32MiB)"
    assert _v(t, "iops_read", "mean") == 143_000
    assert _v(t, "ios_read", "total") == 286086  # 'issued rwt: total=286086,0,0'
    s = t.summaries
    bw = s[(s.metric == "disk_bandwidth_read_per_interval") & (s.stat == "mean")].iloc[0]
    assert bw.value == 279739.67 * 1024 and pd.isna(bw.n)  # no 'samples=' in 2.x
    p = s[(s.metric == "clat_read") & (s.stat == "p99.95")].iloc[0]
    assert (p.value, p.bound_low, p.bound_high) == (2576.0, 2560.0, 2592.0)
    g = _fio2("fio--2.21-linux-normal-randrw-mix70-numjobs2-group_reporting.txt")
    assert (g.runs.streams[0], _v(g, "iops_write", "mean")) == (2, 46_900)


def test_a_block_pasted_twice_inside_the_json_is_named_and_skipped():
    """A copy of the jobs' lines pasted into the document (the metamorphic study's
    'duplicate' case): the default read keeps the job and names both blocks; strict refuses
    at the copy's first line."""
    path = FIO / "fio--2.21-linux-json-randread-4k.json"
    lines = path.read_text().split("\n")
    base = azlatency.read(path)
    copied = "\n".join(lines[:245] + [""] + lines[6:245] + lines[245:])
    got = azlatency.read(copied)
    assert len(got.runs) == len(base.runs) == 1
    assert got.summaries["value"].tolist() == base.summaries["value"].tolist()
    assert "lines 247-485 repeat lines 7-245 word for word" in got.runs["warnings"][0]
    with pytest.raises(ParseError, match=r":247: lines 247-485 repeat"):
        azlatency.read(copied, strict=True)
