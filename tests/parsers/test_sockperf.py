"""sockperf parser: seeds, corpus and our own 3.7 captures, values read off the logs.

Each expected value cites the log line it comes from.  The fixture walker
(``tests/test_fixtures.py``) checks every capture in ``tests/fixtures/sockperf`` as a whole;
the tests here pin the decisions and the numbers that matter.
"""

from __future__ import annotations

import math
import mmap
import re

import numpy as np
import pandas as pd
import pyarrow as pa
import pytest

import azlatency
from azlatency.decode import decode
from azlatency.errors import ParseError
from azlatency.parsers import _lines as lines_module
from azlatency.parsers import sockperf
from azlatency.parsers._lines import mapped_empty, pool_empty
from azlatency.parsers.sockperf import fulllog
from azlatency.parsers.sockperf.fulllog import TOLERANCE_US, stat_name
from tests.conftest import FIXTURES, corpus, needs_shared, seed
from tests.parsers._joined import assert_same_reading, joined

FIX = FIXTURES / "sockperf"
P = "sockperf--3.7-linux-"


def value(tables, run_id, metric, stat, source="reported"):
    s = tables.summaries
    row = s[(s.run_id == run_id) & (s.metric == metric) & (s.stat == stat) & (s.source == source)]
    assert len(row) == 1, (metric, stat, source, len(row))
    return float(row.value.iloc[0])


def sockperf_runs(tables):
    return tables.runs[tables.runs.tool == "sockperf"].reset_index(drop=True)


# --- seeds ------------------------------------------------------------------------------------


@needs_shared
def test_seed_000_first_block_full_rtt_tcp():
    t = azlatency.read(seed("000"))
    runs = sockperf_runs(t)
    assert len(runs) == 4
    r = runs.iloc[0]
    rid = r.run_id
    # "root@malzonka02:/home/azureuser# sockperf ping-pong -i 10.0.1.4 --tcp -m 1400 -t 101 -p 12345 --full-rtt"
    assert (r.prompt_host, r.msg_size_bytes, r.protocol) == ("malzonka02", 1400, "tcp")
    # "[ 0] IP = 10.0.1.4        PORT = 12345 # TCP"
    assert (r.dst_ip, r.port) == ("10.0.1.4", 12345)
    assert (r.tool_version, r.parser_variant, r["mode"], r.role) == (
        "3.6",
        "console",
        "ping-pong",
        "client",
    )
    assert r.latency_basis == "rtt" and r.heading == "Test 1 sockperf"
    assert r.complete and r.warmup_excluded
    # "[Valid Duration] RunTime=100.549 sec; SentMessages=1060186; ReceivedMessages=1060186"
    assert (r.duration_s, r.packets_sent, r.packets_received) == (100.549, 1060186, 1060186)
    assert (r.dropped, r.duplicates, r.out_of_order) == (0, 0, 0)
    assert value(t, rid, "rtt", "mean") == 94.790  # "====> avg-rtt=94.790 (std-dev=9.300)"
    assert value(t, rid, "rtt", "std") == 9.300
    assert value(t, rid, "rtt", "p99") == 106.059  # "percentile 99.000 =  106.059"
    assert value(t, rid, "rtt", "count") == 1060186  # "Total 1060186 observations"
    assert value(t, rid, "rtt", "max") == 2129.252  # "<MAX> observation = 2129.252"
    assert value(t, rid, "rtt", "min") == 86.803  # "<MIN> observation =   86.803"
    assert value(t, rid, "total_run", "warmup") == 0.4  # "Warm up time=400 msec"
    assert value(t, rid, "total_run", "sent") == 1064751  # "[Total Run] ... SentMessages=1064751"
    assert set(t.summaries[t.summaries.run_id == rid].source) == {"reported"}


@needs_shared
def test_seed_000_spans_start_at_command_and_end_at_min():
    path = seed("000")
    lines = path.read_text(encoding="utf-8").split("\n")
    runs = sockperf_runs(azlatency.read(path))
    for r in runs.itertuples():
        assert "sockperf ping-pong" in lines[r.line_start - 1]
        assert "<MIN> observation" in lines[r.line_end - 1]
    # the 4th block's prompt is alone above its fence: "root@malzonka04:/home/azureuser"
    assert list(runs.prompt_host) == ["malzonka02", "malzonka02", "malzonka04", "malzonka04"]
    means = [value(azlatency.read(path), rid, "rtt", "mean") for rid in runs.run_id]
    assert means == [94.790, 85.902, 54.516, 45.570]
    assert list(runs.msg_size_bytes) == [1400, 350, 1400, 350]


@needs_shared
def test_seed_001_sockperf_38_extended_line():
    t = azlatency.read(seed("001"))
    runs = sockperf_runs(t)
    assert list(runs.heading) == [
        "Inside single node",
        "AZ1 - AZ1",
        "AZ1 - AZ2",
        "AZ2 - AZ3",
        "AZ1 - AZ3",
    ]
    assert set(runs.parser_variant) == {"console-3.8"} and set(runs.tool_version) == {"3.8"}
    assert set(runs.latency_basis) == {"half_rtt"}
    # "# sockperf ping-pong -i $ip --tcp -t 10 -p 5201": no -m, so sockperf's default 14 bytes
    assert set(runs.msg_size_bytes) == {14}
    # the summary table of the seed: 16.791, 37.645, 60.563, 708.390, 698.945
    means = [value(t, rid, "half_rtt", "mean") for rid in runs.run_id]
    assert means == [16.791, 37.645, 60.563, 708.390, 698.945]
    r = runs[runs.heading == "AZ2 - AZ3"].iloc[0]
    rid = r.run_id
    assert (r.dst_ip, r.port, r.protocol) == ("10.2.0.58", 5201, "tcp")  # "[ 0] IP = 10.2.0.58 ..."
    # "avg-latency=708.390 (std-dev=54.558, mean-ad=42.583, median-ad=53.064, siqr=35.740,
    #  cv=0.077, std-error=0.665, 99.0% ci=[706.678, 710.102])"
    assert value(t, rid, "half_rtt", "std") == 54.558
    assert value(t, rid, "half_rtt", "mean_ad") == 42.583
    assert value(t, rid, "half_rtt", "median_ad") == 53.064
    assert value(t, rid, "half_rtt", "siqr") == 35.740
    assert value(t, rid, "half_rtt", "cv") == 0.077
    assert value(t, rid, "half_rtt", "std_error") == 0.665
    s = t.summaries
    ci = s[(s.run_id == rid) & s.stat.isin(["ci_low", "ci_high"])].sort_values("stat")
    assert list(ci.value) == [710.102, 706.678] and list(ci.level) == [0.99, 0.99]
    assert value(t, rid, "half_rtt", "count") == 6738  # "Total 6738 observations"
    assert r.duration_s == 9.549  # "[Valid Duration] RunTime=9.549 sec"


# --- corpus -----------------------------------------------------------------------------------


@needs_shared
def test_corpus_mellanox_doc_three_clients_and_their_servers():
    t = azlatency.read(
        corpus("sockperf", "sockperf--doc-examples-3.5-udp-tcp-vma--mellanox-sockperf.txt")
    )
    runs = sockperf_runs(t)
    clients = runs[runs.role == "client"]
    servers = runs[runs.role == "server"]
    assert len(clients) == 3 and len(servers) == 5
    assert set(clients.parser_variant) == {"console-legacy"} and set(runs.tool_version) == {"3.5"}
    # "avg-lat= 20.771", "avg-lat=  9.017", "avg-lat=  0.951"
    assert [value(t, rid, "half_rtt", "mean") for rid in clients.run_id] == [20.771, 9.017, 0.951]
    assert list(clients.protocol) == ["udp", "tcp", "udp"]
    assert list(clients.msg_size_bytes) == [16384, 64, 64]  # -m 16384, -m 64, -m 64
    assert clients.complete.all() and not servers.complete.any()  # servers still listening
    vma = clients.iloc[2]
    assert vma.command.startswith("VMA_SPEC=latency LD_PRELOAD=libvma.so sockperf ping-pong")
    assert vma.labels == '{"vma_version": "8.6.10-0"}'  # " VMA INFO: VMA_VERSION: 8.6.10-0 ..."
    assert vma.packets_received == 4951987  # "[Valid Duration] ... ReceivedMessages=4951987"
    # "sockperf: Summary: Latency is 0.951 usec" agrees with avg-lat: no warning
    assert clients.warnings.isna().all()
    mc = servers.iloc[0]
    assert (mc.dst_ip, mc.port, mc.protocol) == ("224.18.7.81", 5001, "udp")


@needs_shared
def test_corpus_virtualclient_full_rtt_log():
    path = corpus("sockperf", "sockperf--full-rtt-log-ansi--virtualclient.txt")
    t = azlatency.read(path)
    t.validate()
    (r,) = t.runs.itertuples()
    assert (r.encoding, r.parser_variant, r.latency_basis) == ("utf-8-sig", "full-log", "rtt")
    # "--mps=5000 --burst=1 --reply-every=100 --msg-size=1024 --time=300 --full-rtt"
    assert (r.mode, r.msg_size_bytes) == ("under-load", 1024)
    # "[Valid Duration] RunTime=299.480 sec; SentMessages=1497401; ReceivedMessages=14975"
    assert (r.duration_s, r.packets_sent, r.packets_received) == (299.48, 1497401, 14975)
    assert r.complete and r.line_end == 14997 and pd_isna(r.warnings)
    s = t.samples
    assert len(s) == 14975 and list(s.columns[1:]) == [
        "seq",
        "kind",
        "status",
        "tx_time_ns",
        "rx_time_ns",
        "rtt_us",
    ]
    # "0, 2.441193388, 2.441274749, 81.361" and "14974, 301.921193387, 301.921250281, 56.894"
    assert (s.tx_time_ns.iloc[0], s.rx_time_ns.iloc[0], s.rtt_us.iloc[0]) == (
        2441193388,
        2441274749,
        81.361,
    )
    assert (s.seq.iloc[-1], s.tx_time_ns.iloc[-1]) == (14974, 301921193387)
    assert set(s.kind) == {"packet"} and set(s.status) == {"ok"}
    # printed vs computed: "avg-rtt=101.926 (std-dev=25.485)", "<MIN> observation =   48.650"
    rid = r.run_id
    assert value(t, rid, "rtt", "mean") == 101.926
    assert value(t, rid, "rtt", "mean", "computed") == pytest.approx(101.92653, abs=1e-5)
    assert value(t, rid, "rtt", "std", "computed") == pytest.approx(25.48494, abs=1e-5)
    assert value(t, rid, "rtt", "min", "computed") == 48.651
    assert value(t, rid, "rtt", "p50", "computed") == value(t, rid, "rtt", "p50") == 104.528
    assert value(t, rid, "rtt", "count", "computed") == 14975
    for stat in ("mean", "std", "min", "max", "p25", "p50", "p75", "p90", "p99", "p99.9", "p99.99"):
        diff = abs(value(t, rid, "rtt", stat) - value(t, rid, "rtt", stat, "computed"))
        assert diff <= TOLERANCE_US + 1e-9, stat


def pd_isna(x) -> bool:
    import pandas as pd

    return bool(pd.isna(x))


# --- our 3.7 captures -------------------------------------------------------------------------


def test_full_log_rows_exact_and_consistent_with_their_console_output():
    log = azlatency.read(FIX / f"{P}udp-mps2000-fulllog-latency.csv")
    console = azlatency.read(FIX / f"{P}udp-mps2000-fulllog-console.txt")
    s = log.samples
    # "0, 2.403885655, 2.403927828, 21.087" (first row of the CSV block)
    assert (s.tx_time_ns.iloc[0], s.rx_time_ns.iloc[0], s.half_rtt_us.iloc[0]) == (
        2403885655,
        2403927828,
        21.087,
    )
    half = (s.rx_time_ns - s.tx_time_ns).to_numpy(dtype=np.int64) / 2000
    assert np.abs(half - s.half_rtt_us.to_numpy()).max() <= 0.0005 + 1e-9
    # the log repeats the console's statistics (same run): "avg-latency=117.692 (std-dev=367.436)"
    lid, cid = log.runs.run_id[0], console.runs.run_id[0]
    for stat in ("mean", "std", "count", "min", "max", "p50", "p99.999"):
        assert value(log, lid, "half_rtt", stat) == value(console, cid, "half_rtt", stat)
    assert log.runs.command.isna().all() and log.runs.msg_size_bytes[0] == 14  # "--msg-size=14"


@pytest.mark.parametrize(
    "name",
    [
        f"{P}udp-mps2000-fulllog-latency.csv",
        f"{P}tcp-m1400-mps2000-fullrtt-fulllog-rtt.csv",
        f"{P}udp-mps5000-underload-fulllog-latency.csv",
    ],
)
def test_computed_percentiles_follow_sockperfs_rank_rule(name):
    t = azlatency.read(FIX / name)
    metric = t.runs.latency_basis[0]
    values = np.sort(t.samples[f"{metric}_us"].to_numpy())
    n = len(values)
    for q in (0.25, 0.5, 0.75, 0.9, 0.99, 0.999, 0.9999, 0.99999):
        rank = int(0.5 + q * n)  # ⌊0.5 + q·n⌋, 1-based
        assert value(t, t.runs.run_id[0], metric, stat_name(q), "computed") == values[rank - 1]
        printed = value(t, t.runs.run_id[0], metric, stat_name(q))
        assert abs(printed - values[rank - 1]) <= TOLERANCE_US + 1e-9
    # CI = mean ± z·SE with z of the 99 % level
    rid = t.runs.run_id[0]
    se = values.std(ddof=1) / math.sqrt(n)
    assert value(t, rid, metric, "std_error", "computed") == pytest.approx(se, rel=1e-12)
    low = value(t, rid, metric, "ci_low", "computed")
    assert low == pytest.approx(values.mean() - 2.5758293035489 * se, rel=1e-9)


def test_rtt_log_warns_only_beyond_two_printed_digits():
    t = azlatency.read(FIX / f"{P}tcp-m1400-mps2000-fullrtt-fulllog-rtt.csv")
    rid = t.runs.run_id[0]
    assert value(t, rid, "rtt", "std") == 790.173  # "====> avg-rtt=254.111 (std-dev=790.173)"
    assert value(t, rid, "rtt", "std", "computed") == pytest.approx(790.17412, abs=1e-5)
    assert pd_isna(t.runs.warnings[0])


def test_parse_bytes_equals_text_path_on_every_full_log():
    for path in sorted(FIX.glob("*.csv")):
        data = path.read_bytes()
        a = sockperf.parse(decode(data).text.rstrip("\n")).runs[0]
        b = sockperf.parse_bytes(data).runs[0]
        assert a.meta == b.meta and a.warnings == b.warnings, path.name
        assert (a.line_start, a.line_end) == (b.line_start, b.line_end), path.name
        assert a.samples.equals(b.samples), path.name
        assert [x.__dict__ for x in a.summaries] == [x.__dict__ for x in b.summaries], path.name


def test_big_full_log_takes_the_fast_path_and_keeps_every_nanosecond(tmp_path, monkeypatch):
    # Epoch-sized times: a float64 cannot hold 1700000000.123456789 s to the nanosecond.
    head = (FIX / f"{P}udp-mps2000-fulllog-latency.csv").read_text().split("packet,")[0]
    rows = [
        f"{k}, 1700000000.{k * 1000 + 123456789 % 1000:09d}, 1700000000.{k * 1000 + 50000:09d}, "
        f"{(50000 - 123456789 % 1000) / 2000:.3f}"
        for k in range(3000)
    ]
    text = (
        head
        + "packet, txTime(sec), rxTime(sec), latency(usec)\n"
        + "\n".join(rows)
        + "\n"
        + "-" * 30
        + "\n"
    )
    path = tmp_path / "big.csv"
    path.write_text(text)
    calls = []
    real = sockperf.parse_bytes
    monkeypatch.setattr(sockperf, "parse_bytes", lambda *a, **k: calls.append(1) or real(*a, **k))
    t = azlatency.read(path)
    assert calls and path.stat().st_size > 64 * 1024
    assert t.samples.tx_time_ns.iloc[0] == 1700000000_000000789
    assert t.samples.tx_time_ns.iloc[2999] == 1700000000_002999789
    assert t.runs.line_end[0] == len(text.split("\n")) - 1


def _runs_equal(a, b) -> None:
    assert len(a.runs) == len(b.runs)
    for x, y in zip(a.runs, b.runs):
        assert x.meta == y.meta and x.warnings == y.warnings
        assert (x.line_start, x.line_end) == (y.line_start, y.line_end)
        assert (x.samples is None) == (y.samples is None)
        assert x.samples is None or x.samples.equals(y.samples)
        assert [s.__dict__ for s in x.summaries] == [s.__dict__ for s in y.summaries]


def _tries(monkeypatch) -> list[bool]:
    """Each read of the rows, as whether it was the second (after a closing line among them)."""
    seen: list[bool] = []
    real = sockperf._parse_rows_at
    monkeypatch.setattr(
        sockperf,
        "_parse_rows_at",
        lambda d, h, close, *a: seen.append(close[1]) or real(d, h, close, *a),
    )
    return seen


@pytest.mark.parametrize(
    ("inserted", "tries"),
    [
        (None, [False]),  # the closing line found from the end is the first: one read
        ("-" * 30, [False, True]),  # an earlier one among the rows: read again up to it
        ("-" * 30 + " (a note)", [False, True]),
        ("packet, txTime(sec), rxTime(sec), latency(usec)", [False]),  # refused, read slowly
    ],
)
def test_closing_line_found_from_the_end_reads_as_from_the_front(inserted, tries, monkeypatch):
    data = (FIX / f"{P}udp-mps2000-fulllog-latency.csv").read_bytes()
    if inserted is not None:
        at = data.index(b"\n", data.index(b"\n500, ")) + 1
        data = data[:at] + inserted.encode() + b"\n" + data[at:]
    monkeypatch.setattr(sockperf, "_NEAR", 1 << 40)  # the search from the front: as before
    front = sockperf.parse_bytes(data, strict=False)
    seen = _tries(monkeypatch)
    monkeypatch.setattr(sockperf, "_NEAR", 64)  # the fixture's rows are far more than 64 bytes
    back = sockperf.parse_bytes(data, strict=False)
    assert seen == tries
    _runs_equal(front, back)
    if inserted == "-" * 30:
        assert len(back.runs[0].samples) == 500  # rows 0-499, up to the earlier closing line


def test_histogram_after_the_rows_is_found_from_the_front(monkeypatch):
    data = (FIX / "sockperf--3.10-linux-tcp-m64-mps200-fulllog-histogram.csv").read_bytes()
    seen = _tries(monkeypatch)
    monkeypatch.setattr(sockperf, "_NEAR", 4096)  # the bins sit within it: no read of them as rows
    run = sockperf.parse_bytes(data).runs[0]
    assert seen == [True] and len(run.samples) == 110


def test_rows_land_in_writable_arrays_mapped_for_them(monkeypatch):
    big = pool_empty(1 << 18, np.int64)  # 2 MB: from pyarrow's pool (the echo CSV's columns)
    assert isinstance(big.base, pa.Buffer) and big.flags.writeable and len(big) == 1 << 18
    big[:] = 7
    assert int(big.sum()) == 7 << 18
    assert pool_empty(10, np.float64).base is None  # small: numpy's own
    mapped = mapped_empty(1 << 18, np.int64)  # a mapping of its own where MAP_POPULATE is
    assert mapped.flags.writeable and len(mapped) == 1 << 18
    mapped[:] = 7
    assert int(mapped.sum()) == 7 << 18
    assert mapped_empty(10, np.float64).base is None
    monkeypatch.setattr(lines_module, "POOL_BYTES", 0)  # every column mapped
    t = azlatency.read(FIX / f"{P}tcp-m1400-mps2000-fullrtt-fulllog-rtt.csv")
    s = t.samples
    root = s["tx_time_ns"].array._data
    while isinstance(root, np.ndarray):  # the frame holds a view of the parser's array
        root = root.base
    if hasattr(mmap, "MAP_POPULATE"):
        assert isinstance(root, memoryview) and isinstance(root.obj, mmap.mmap)
    else:
        assert isinstance(root, pa.Buffer)
    s.loc[0, "seq"] = 5  # a sample corrected in place, as with numpy's arrays
    s.loc[1, "rtt_us"] = 1.5
    assert (s["seq"].iloc[0], s["rtt_us"].iloc[1]) == (5, 1.5)


def test_throughput_units_are_binary_megabits():
    t = azlatency.read(FIX / f"{P}udp-m1400-throughput.txt")
    rid = t.runs.run_id[0]
    # "Summary: BandWidth is 127.369 MBps (1018.950 Mbps)": sockperf's mega is 2**20
    assert value(t, rid, "throughput_sender", "mean") == pytest.approx(1018.950 * 2**20)
    assert value(t, rid, "message_rate_sender", "mean") == 95397  # "Message Rate is 95397"
    # "Total of 95442 messages sent in 1.000 sec", "using msg-size=1400"
    r = t.runs.iloc[0]
    assert (r.packets_sent, r.duration_s, r.msg_size_bytes) == (95442, 1.0, 1400)
    assert pd_isna(r.latency_basis) and r["mode"] == "throughput"
    g = azlatency.read(FIX / f"{P}udp-m1000-mps20000-gigasize-throughput.txt")
    # "BandWidth is 0.019 GBps (0.153 Gbps)"
    assert value(g, g.runs.run_id[0], "throughput_sender", "mean") == pytest.approx(0.153 * 2**30)


def test_server_log_is_a_server_run_without_latency():
    t = azlatency.read(FIX / f"{P}udp-server.txt")
    r = t.runs.iloc[0]
    assert (r.role, r["mode"], r.parser_variant, r.complete) == ("server", "server", "server", True)
    assert r.packets_received == 256372  # "Total 256372 messages received and handled"
    assert pd_isna(r.latency_basis) and len(t.summaries) == 0
    assert pd_isna(r.warnings)  # a server always ends on Ctrl-C: no interruption warning


def test_error_total_loss_and_interruptions():
    err = azlatency.read(FIX / f"{P}tcp-refused-error.txt").runs.iloc[0]
    assert not err.complete
    assert err.warnings == "sockperf: ERROR: Can`t connect socket (errno=111 Connection refused)"
    loss = azlatency.read(FIX / f"{P}udp-dontreply-total-loss.txt").runs.iloc[0]
    assert loss.complete and (loss.packets_received, loss.loss_pct) == (0, 100.0)
    cut = azlatency.read(FIX / f"{P}udp-sigint-interrupted.txt")
    r = cut.runs.iloc[0]
    assert not r.complete and r.warnings.startswith("test interrupted by user")
    assert value(cut, r.run_id, "half_rtt", "mean") == 7.525  # kept: "avg-latency=7.525"
    warm = azlatency.read(FIX / f"{P}tcp-sigint-warmup-interrupted.txt").runs.iloc[0]
    assert not warm.complete and "no messages were sent" in warm.warnings
    # under-load prints "interrupted by timer" then "interrupted by signal 2": the first wins
    assert azlatency.read(FIX / f"{P}udp-mps5000-underload.txt").runs.complete[0]


def test_one_run_per_server_section():
    t = azlatency.read(FIX / f"{P}udp-srvnum2-underload-multiserver.txt")
    a, b = t.runs.itertuples()
    # "[ 0] IP = 10.201.0.1      PORT = 11120 # UDP" / "[ 1] ... PORT = 11121"
    assert (a.port, b.port) == (11120, 11121)
    assert a.out_of_order == 29  # "# out-of-order messages = 29" (printed in red)
    assert (a.line_start, a.line_end, b.line_start, b.line_end) == (1, 26, 27, 28)
    assert "no valid observations" in b.warnings and pd_isna(b.packets_sent)


def test_truncated_capture_keeps_what_is_there():
    t = azlatency.read(FIX / f"{P}udp-pingpong-truncated.txt")
    r = t.runs.iloc[0]
    assert not r.complete and "cut short" in r.warnings
    assert value(t, r.run_id, "half_rtt", "p99") == 16.584  # the last whole line
    f = azlatency.read(FIX / f"{P}udp-mps2000-fulllog-truncated.csv")
    r = f.runs.iloc[0]
    assert not r.complete and len(f.samples) == 767 and r.line_end == 789
    assert "line 789 dropped: row cut by truncation '76'" in r.warnings


def test_script_typescript_with_crlf():
    t = azlatency.read(FIX / f"{P}tcp-pingpong-script-crlf.txt")
    r = t.runs.iloc[0]
    assert (r.line_start, r.line_end) == (2, 26)  # "Script started on ..." is line 1
    assert value(t, r.run_id, "half_rtt", "mean") == 22.251  # "avg-latency=22.251"


# --- errors -----------------------------------------------------------------------------------


def _text(name: str) -> str:
    return decode((FIX / name).read_bytes()).text


def test_percentile_that_is_not_a_number_is_a_located_parse_error():
    text = _text(f"{P}udp-pingpong.txt").replace(
        "percentile 99.000 =   16.584", "percentile 99.000 = n/a"
    )
    with pytest.raises(ParseError) as info:
        azlatency.read(text, source="weu/az1-az3.txt", strict=True)
    e = info.value
    assert (e.tool, e.source, e.line_no) == ("sockperf", "weu/az1-az3.txt", 20)
    assert (
        str(e) == "sockperf: weu/az1-az3.txt:20: expected 'percentile 99.000 = <usec>', got 'n/a'"
    )
    lenient = azlatency.read(text, strict=False)
    assert "line 20 skipped" in lenient.runs.warnings[0]
    assert "p99" not in set(lenient.summaries.stat) and "p90" in set(lenient.summaries.stat)


def test_bad_row_in_full_log_names_its_line():
    text = _text(f"{P}udp-mps2000-fulllog-latency.csv").replace("\n5, ", "\n5, x", 1)
    with pytest.raises(ParseError) as info:
        sockperf.parse(text, source="log.csv")
    assert info.value.line_no == 27 and "got '5, x2.411711797" in info.value.reason
    lenient = sockperf.parse(text, source="log.csv", strict=False).runs[0]
    assert len(lenient.samples) == 1098 and "line 27 skipped" in " ".join(lenient.warnings)


def test_text_without_sockperf_output():
    with pytest.raises(ParseError, match="no sockperf output found"):
        sockperf.parse("PING 10.0.0.1 (10.0.0.1) 56(84) bytes of data.")


# --- locating ---------------------------------------------------------------------------------


def test_whole_file_claims_logs_not_documents():
    assert sockperf.whole_file(_text(f"{P}udp-mps2000-fulllog-latency.csv"))
    assert sockperf.whole_file(_text(f"{P}udp-pingpong.txt"))
    assert not sockperf.whole_file(_text(f"{P}tcp-pingpong-script-crlf.txt"))
    assert not sockperf.whole_file("")


@needs_shared
def test_locate_does_not_swallow_prose_or_other_tools():
    lines = seed("001").read_text(encoding="utf-8").split("\n")
    spans = sockperf.locate(lines)
    assert len(spans) == 5
    for s in spans:
        assert lines[s.start].startswith("# sockperf ping-pong")
        assert "<MIN> observation" in lines[s.end - 1]
        assert all(line.startswith(("sockperf", "[ 0]", "")) for line in lines[s.start + 1 : s.end])


def test_latency_column_is_checked_against_the_timestamps():
    # row "3, 2.408861404, 2.411673801, 1406.199": (rx - tx) / 2 = 1406.1985 µs; change it
    text = _text(f"{P}udp-mps2000-fulllog-latency.csv")
    assert "\n3, 2.408861404, 2.411673801, 1406.199\n" in text
    run = sockperf.parse(text.replace("2.411673801, 1406.199", "2.411673801, 1406.299")).runs[0]
    assert (
        "1 rows whose half_rtt column disagrees with rxTime - txTime, first packet 3"
        in run.warnings[0]
    )
    assert not sockperf.parse(text).runs[0].warnings


def test_rows_read_in_parallel_pieces_equal_one_piece(monkeypatch):
    from azlatency.parsers.sockperf import fulllog as fl

    data = (FIX / f"{P}tcp-m1400-mps2000-fullrtt-fulllog-rtt.csv").read_bytes()
    start = data.index(b"\n", data.index(b"packet,")) + 1
    end = data.rindex(b"\n" + b"-" * 30) + 1
    whole = fl._read_arrow(data, start, end, True)
    monkeypatch.setattr(fl, "PIECE_MIN", 4096)  # 43 KB of rows → 4 pieces (or one per core)
    cut = data.index(b"\n", start + 20000) + 1
    gappy = data[:cut] + b"\n\n" + data[cut:]  # blank lines inside a piece are skipped
    pieces = fl._read_arrow(gappy, start, end + 2, True)
    for a, b in zip(whole[:4], pieces[:4]):
        assert np.array_equal(a, b)
    assert (whole[4], pieces[4]) == (1093, 1095)  # newlines: 1,093 rows (+ the 2 blank lines)


@pytest.mark.parametrize(
    ("name", "low"),
    [
        (f"{P}udp-mps2000-fulllog-latency.csv", 6.289),  # <MIN> observation =    6.289
        (f"{P}tcp-m1400-mps2000-fullrtt-fulllog-rtt.csv", 14.011),  # printed 14.010; rows 14.011
    ],
)
def test_counted_order_statistics_equal_the_selection(name, low, monkeypatch):
    """Rows printed ``%.3lf`` are counted per nanosecond; the result is what a selection over
    the values gives (median-ad to rounding, it is the exact decimal there)."""
    from azlatency.parsers.sockperf import fulllog as fl

    t = azlatency.read(FIX / name)
    rows = t.samples[f"{t.runs.latency_basis[0]}_us"].to_numpy()
    rng = np.random.default_rng(7)
    synthetic = np.round(rng.lognormal(4, 0.6, 100_001) * 1000) / 1000
    for values in (rows, rows[:2], rows[:1], synthetic, synthetic[:-1]):
        counted: dict[str, float] = {}
        assert fl._order_stats_counted(values, counted)
        monkeypatch.setattr(fl, "MAX_BINS", 0)  # forces the selection
        selected: dict[str, float] = {}
        fl._order_stats(values, selected)
        monkeypatch.undo()
        assert counted.keys() == selected.keys()
        for stat in selected:
            if stat == "median_ad":
                assert counted[stat] == pytest.approx(selected[stat], abs=1e-9)
            else:
                assert counted[stat] == selected[stat], stat
    assert value(t, t.runs.run_id[0], t.runs.latency_basis[0], "min", "computed") == low
    assert not fl._order_stats_counted(synthetic + 1e-4, {})  # not whole ns: selection instead


def test_outputs_quoted_in_an_email_reply():
    """A mailing-list reply quotes the patch's test results line by line ('> sockperf: ...')
    under Red Hat's '[root@host dir]#' prompt: before, no tool output was found in it."""
    t = azlatency.read(
        FIXTURES
        / "sockperf"
        / "sockperf--3.10-linux-tcp-pingpong-email-quoted--intel-wired-lan.txt"
    ).validate()
    runs = t.runs
    assert runs.tool_version.tolist() == ["3.10", "3.10"]
    assert runs.prompt_host.tolist() == ["dell-per640-07"] * 2 and runs.msg_size_bytes.tolist() == [
        1000,
        1000,
    ]
    assert runs.packets_received.tolist() == [2429473, 2391186]
    s = t.summaries[(t.summaries.metric == "half_rtt") & (t.summaries.source == "reported")]
    by_run = {stat: s[s.stat == stat].value.tolist() for stat in ("max", "p99", "p50")}
    # '---> <MAX> observation = 103294.331' before the fix, '195.841' after: the patch's point
    assert by_run == {"max": [103294.331, 195.841], "p99": [33.39, 33.482], "p50": [26.743, 26.86]}


# ---------------------------------------------------------------------------------------------
# --histogram after the full log (sockperf 3.10 built from source; issue 26 item 3)

HIST = FIX / "sockperf--3.10-linux-tcp-m64-mps200-fulllog-histogram.csv"


def test_histogram_after_the_full_log_is_read_and_checked_against_the_rows():
    t = azlatency.read(HIST)
    run = t.runs.iloc[0]
    # 110 rows; bins "5  87", "10  20", "15  3" (µs, [start, start + 5))
    assert len(t.samples) == 110 and run["line_end"] == 139
    assert run["labels"] == '{"histogram_us": "5:0:100"}'
    assert not isinstance(run["warnings"], str)  # the bins agree with the rows
    half = t.samples["half_rtt_us"]
    assert [int(((half >= a) & (half < a + 5)).sum()) for a in (5, 10, 15)] == [87, 20, 3]
    # sockperf 3.8+'s median-ad is scaled to estimate a std-dev: printed 0.181
    s = t.summaries.set_index(["stat", "source"])["value"]
    assert s[("median_ad", "reported")] == 0.181
    assert s[("median_ad", "computed")] == pytest.approx(0.120 * 1.48260221851, abs=1e-6)


def test_a_histogram_that_disagrees_with_the_rows_or_is_cut_says_so():
    text = HIST.read_text().replace(
        "\n10                        20\n", "\n10                        21\n"
    )
    run = azlatency.read(text, source="x.csv").runs.iloc[0]
    assert (
        "does not match the full log's rows: line 137: bin 10: 21 printed, 20 in the rows"
        in (run["warnings"])
    )
    assert "111 binned, 110 rows" in run["warnings"]
    cut = azlatency.read(
        FIX / "sockperf--3.10-linux-tcp-m64-mps200-fulllog-histogram-truncated.csv"
    )
    assert "the --histogram table stops at line 137 (cut short?)" in cut.runs.iloc[0]["warnings"]
    assert len(cut.samples) == 110  # the rows are whole


def test_a_foreign_line_inside_the_histogram_is_named():
    lines = HIST.read_text().split("\n")
    lines.insert(137, "Connection reset by peer")
    with pytest.raises(ParseError) as info:
        azlatency.read("\n".join(lines), source="x.csv", strict=True)
    assert info.value.line_no == 138
    t = azlatency.read("\n".join(lines), source="x.csv", strict=False)
    assert "line 138 skipped" in t.runs.iloc[0]["warnings"]


# ---------------------------------------------------------------------------------------------
# The two-column full log of sockperf before 3.4 ("txTime, rxTime"; captures of 3.3)


def test_two_column_full_log_rows_are_read_exactly():
    """Issue 26 case 8: a 'txTime, rxTime' full log gave 0 samples and no warning, though the
    docs said it is read.  sockperf 3.3's own capture: 109 rows, rxTime − txTime is the round
    trip, halved for its avg-lat basis; the rows' statistics equal the printed ones."""
    t = azlatency.read(FIX / "sockperf--3.3-linux-udp-mps200-fulllog-pairs.csv")
    (run,) = t.runs.itertuples()
    assert (run.parser_variant, run.latency_basis, run.complete) == ("full-log", "half_rtt", True)
    assert pd.isna(run.warnings)  # the printed and the recomputed statistics agree
    s = t.samples
    assert len(s) == 109 and s["status"].eq("ok").all() and s["seq"].tolist()[:2] == [1, 2]
    # first row "2.407151335, 2.407180198": 28.863 µs round trip, 14.4315 half
    assert (s["tx_time_ns"].iloc[0], s["rx_time_ns"].iloc[0]) == (2_407_151_335, 2_407_180_198)
    assert s["half_rtt_us"].iloc[0] == pytest.approx(14.4315)
    got = t.summaries.set_index(["stat", "source"])["value"]
    for stat, printed in (("mean", 58.277), ("p50", 34.195), ("p99", 973.018), ("max", 1107.487)):
        assert got[stat, "reported"] == printed
        assert got[stat, "computed"] == pytest.approx(printed, abs=0.001)
    tcp = azlatency.read(FIX / "sockperf--3.3-linux-tcp-m64-mps200-fulllog-pairs.csv")
    assert len(tcp.samples) == 109 and tcp.runs["msg_size_bytes"].iloc[0] == 64


def test_two_column_rows_keep_sockperfs_lost_and_out_of_order_rule():
    """dumpFullLog (3.3) writes a lost reply as rxTime 0 and counts a reply received before the
    latest one out of order, leaving both out of its statistics: so do we, and say so."""
    text = (FIX / "sockperf--3.3-linux-udp-mps200-fulllog-pairs.csv").read_text().split("\n")
    head = text.index("txTime, rxTime")
    rows = text[head + 1 : head + 5]
    assert rows[1] == "2.412151327, 2.412177126"
    rows[1] = "2.412151327, 0.000000000"  # lost
    rows[3] = "2.422151342, 2.417000000"  # before the reply at 2.417187183
    body = "\n".join(["------------------------------", "txTime, rxTime", *rows, text[-2]])
    t = azlatency.read(body.encode(), source="cut")
    s = t.samples
    assert s["status"].tolist() == ["ok", "lost", "ok", "omitted"]
    # no statistics above the rows to say half: rxTime − txTime, the round trip
    assert pd.isna(s["rx_time_ns"].iloc[1]) and np.isnan(s["rtt_us"].iloc[1])
    (warnings,) = t.runs["warnings"]
    assert "1 rows with rxTime 0: lost replies" in warnings
    assert "1 rows received before an earlier packet's reply: out of order" in warnings
    computed = t.summaries[t.summaries["source"] == "computed"].set_index("stat")["value"]
    assert computed["count"] == 2  # the two replies sockperf would count


def test_two_column_row_that_is_not_two_numbers_is_located():
    text = (FIX / "sockperf--3.3-linux-udp-mps200-fulllog-pairs.csv").read_text().split("\n")
    head = text.index("txTime, rxTime")
    text[head + 3] = "2.417151330; 2.417187183"
    with pytest.raises(ParseError, match=f"bad:{head + 4}: expected 'txTime, rxTime' numbers"):
        azlatency.read("\n".join(text).encode(), source="bad", strict=True)
    lenient = azlatency.read("\n".join(text).encode(), source="bad", strict=False)
    assert len(lenient.samples) == 108
    assert f"line {head + 4} skipped" in lenient.runs["warnings"].iloc[0]


def test_two_column_rows_take_the_arrow_path_and_equal_the_slow_one(monkeypatch):
    """Old logs can hold millions of rows: the pairs go through pyarrow like the 3.4+ rows,
    and read exactly what the line-by-line reader reads."""
    from azlatency.parsers.sockperf import fulllog

    data = (FIX / "sockperf--3.3-linux-udp-mps200-fulllog-pairs.csv").read_bytes()
    start = data.index(b"txTime, rxTime\n") + len(b"txTime, rxTime\n")
    stop = data.rindex(b"------------------------------")
    *fast, _ = fulllog._read_arrow(data, start, stop, False, pairs=True)
    lines = data[start:stop].decode().split("\n")
    slow = fulllog._read_python(lines, False, 22, "f", True, [], pairs=True)
    assert all(np.array_equal(a, b) for a, b in zip(fast[:3], slow[:3]))
    assert fast[0][:3].tolist() == [1, 2, 3] and len(fast[0]) == 109

    def refuse(*args, **kwargs):
        raise AssertionError("the slow path was taken")

    monkeypatch.setattr(fulllog, "_read_python", refuse)
    assert (
        len(azlatency.read(FIX / "sockperf--3.3-linux-udp-mps200-fulllog-pairs.csv").samples) == 109
    )


# --- Markdown around an output, a library's banner (issue 38) ----------------------------------

MV = "sockperf--any-linux-pp-m64-md-"


def _md(name: str, strict: bool):
    return azlatency.read(FIX / f"{MV}{name}.md", strict=strict).validate()


@pytest.mark.parametrize("strict", [True, False])
def test_client_command_beside_a_server_in_the_fence_above(strict):
    """``sockperf ping-pong ... -m 64 -t 30`` and ``sockperf server ...`` in one fence, the
    output in the next: the fences are context, the run is the client's (it was the server's,
    incomplete and without its message size, or a refusal at the fence line)."""
    t = _md("server-cmd-beside--microvm-kvm-kvm", strict)
    run = sockperf_runs(t).iloc[0]
    assert (run.role, run["mode"], run.msg_size_bytes, run.complete) == (
        "client",
        "ping-pong",
        64,
        True,
    )
    assert run.command == "sockperf ping-pong -i 192.168.100.2 -m 64 -t 30"
    assert pd.isna(run.warnings) and not t.problems
    assert value(t, run.run_id, "half_rtt", "mean") == 65.325  # avg-latency=65.325
    assert value(t, run.run_id, "half_rtt", "p50") == 64.660
    assert run.packets_received == 226052  # [Valid Duration] ... ReceivedMessages=226052
    iperf = t.runs[t.runs.tool == "iperf3"].iloc[0]
    assert iperf.command == "iperf3 -c 192.168.100.2 -t 30 -P 4"


@pytest.mark.parametrize("strict", [True, False])
def test_statistics_pasted_without_total_run_ran_their_full_time(strict):
    t = _md("no-total-run--microvm-vm-server", strict)
    run = sockperf_runs(t).iloc[0]
    assert (run.role, run.complete, run.msg_size_bytes) == ("client", True, 64)
    assert pd.isna(run.warnings)
    assert value(t, run.run_id, "half_rtt", "mean") == 67.798
    assert value(t, run.run_id, "half_rtt", "ci_low") == 67.703  # 99.0% ci=[67.703, 67.893]
    # the client's command, though the server's (``iperf3 -s``) stands nearer the output
    iperf = t.runs[t.runs.tool == "iperf3"].iloc[0]
    assert iperf.command == "iperf3 -c 192.168.100.2 -t 30 -P 4"


def test_output_prefix_of_a_harness_is_taken_off():
    t = _md("output-prefix--microvm-vm-vm", strict=True)
    run = sockperf_runs(t).iloc[0]
    assert (run.role, run.complete, run.msg_size_bytes) == ("client", True, 64)
    assert value(t, run.run_id, "half_rtt", "mean") == 74.449
    assert value(t, run.run_id, "half_rtt", "max") == 290.965


# A real libvma line (the Mellanox docs' 3.5 example, corpus) as it appears while sockperf runs.
VMA_LINE = " VMA WARNING: Not enough hugepage resources for VMA memory allocation."


@pytest.mark.parametrize("at", [1, 4, 8, 12, 20])
@pytest.mark.parametrize("strict", [True, False])
def test_a_preloaded_librarys_line_inside_the_output_is_its_own(at, strict):
    """An LD_PRELOAD library (libvma, libxlio) prints its lines while sockperf runs: they are
    neither a stray line nor the start of another execution (it split the run in two)."""
    lines = (FIX / f"{P}udp-pingpong.txt").read_text().split("\n")
    whole = azlatency.read("\n".join(lines))
    t = azlatency.read("\n".join(lines[:at] + [VMA_LINE] + lines[at:]), strict=strict)
    assert len(t.runs) == 1 and bool(t.runs.complete.iloc[0]) and pd.isna(t.runs.warnings.iloc[0])
    cols = ["metric", "stat", "value"]
    assert t.summaries[cols].equals(whole.summaries[cols])


@pytest.mark.parametrize("at", [4, 6])
def test_a_foreign_line_among_the_fenced_commands(at):
    """A stray line inside the fenced block of commands: the client's command is still the
    run's (it was the server's, the run incomplete), and the line is named."""
    lines = (FIX / f"{MV}no-total-run--microvm-vm-server.md").read_text().split("\n")
    lines = lines[:34] + lines[34:]  # the sockperf fence: lines 33-39
    at += 33
    t = azlatency.read("\n".join(lines[: at - 1] + ["Connection reset by peer"] + lines[at - 1 :]))
    run = sockperf_runs(t).iloc[0]
    assert run.command == "sockperf ping-pong -i 192.168.100.2 -m 64 -t 30"
    assert bool(run.complete) and run.msg_size_bytes == 64
    assert f"line {at}" in run.warnings


def test_a_shell_line_between_command_and_output_is_said():
    """'$ echo done' between the fence of commands and the output's: the command above is
    not the output's, and the run says which and why (it was dropped without a word)."""
    lines = (FIX / f"{MV}no-total-run--microvm-vm-server.md").read_text().split("\n")
    t = azlatency.read("\n".join(lines[:8] + ["$ echo done"] + lines[8:]))
    run = t.runs[t.runs.tool == "iperf3"].iloc[0]
    assert pd.isna(run.command)
    assert "the command on line 7 is not taken as this output's" in run.warnings


@pytest.mark.parametrize("n", [2_001, 150_000])
def test_the_statistics_are_the_same_on_one_thread_or_two(monkeypatch, n):
    """``compute`` runs its two jobs on two threads from ``_lines.THREADS_FROM`` rows, on this one
    below (GIL hand-offs cost a small run more than a core gives): the same figures either way."""
    values = np.random.default_rng(n).lognormal(3.5, 0.4, n)
    monkeypatch.setattr(fulllog, "THREADS_FROM", 0)
    two = fulllog.compute(values)
    monkeypatch.setattr(fulllog, "THREADS_FROM", 10**9)
    one = fulllog.compute(values)
    assert two == one and one["count"] == n and one["p50"] == np.sort(values)[-1 + int(0.5 + n / 2)]


@pytest.mark.parametrize("n", [1, 2, 7, 2_000, 30_000])
def test_sorted_ticks_give_the_counted_order_statistics(monkeypatch, n):
    """Few values over a wide range are sorted (``_order_stats_sorted``), not counted bin by
    bin: the same whole-nanosecond percentiles and median-ad, value for value."""
    rng = np.random.default_rng(n)
    for sigma in (0.05, 0.5, 1.5):  # a range of microseconds to a hundred milliseconds
        ticks = np.round(rng.lognormal(11, sigma, n)).astype(np.int64)
        values = np.array([float(f"{t / 1000:.3f}") for t in ticks])  # as printed, %.3lf
        counted, ordered = {}, {}
        monkeypatch.setattr(fulllog, "SORT_BINS", 10**12)
        assert fulllog._order_stats_counted(values, counted)
        monkeypatch.setattr(fulllog, "SORT_BINS", 0)
        assert fulllog._order_stats_counted(values, ordered)
        assert ordered == counted and counted["p50"] == np.sort(values)[-1 + int(0.5 + n / 2)]


def test_markdown_bold_and_stripped_tags_of_a_paste_are_read():
    # issue 172: "sockperf: ---> MAX observation = **11541.068**", "percentile 99.999 =
    # **11533.498**", "**sockperf: Summary: Round trip is 1892.600 usec**"
    t = azlatency.read(FIX / "sockperf--3.8-tcp-pp-full-rtt-markdown-bold--sockperf-issue172.txt")
    s = dict(zip(t.summaries.metric + "." + t.summaries.stat, t.summaries.value))
    assert (s["rtt.max"], s["rtt.p99.999"], s["rtt.mean"]) == (11541.068, 11533.498, 1892.6)
    assert t.runs.warnings[0] == "statistics end early (truncated output)"
    # PR 73: "---> MAX observation =   42.328" ... "---> MIN observation =    1.743"
    # and "percentile 99.999 =    7.946  <=== New report": the value read, the note named
    for strict in (True, False):
        p = azlatency.read(
            FIX / "sockperf--vma-percentiles-max-min-tags-stripped--sockperf-pr73.txt",
            strict=strict,
        )
        s = dict(zip(p.summaries.stat, p.summaries.value))
        assert (s["max"], s["min"], s["p50"], s["p99.999"]) == (42.328, 1.743, 1.861, 7.946)
        assert p.runs.warnings[0] == (
            "line 5: read 7.946; the text after it is not sockperf's and was left out: "
            "'<=== New report'"
        )
    # a value with no number first is still refused, not guessed
    with pytest.raises(azlatency.ParseError, match="<text>:2: expected .percentile 50.000"):
        azlatency.read(
            "sockperf: Total 100 observations\nsockperf: ---> percentile 50.000 = n/a <== x\n",
            tool="sockperf",
            strict=True,
        )


def test_the_console_histogram_is_read_as_a_check_of_the_observations():
    """sockperf 3.10's --histogram on the console (client.cpp printHistogram): drawn to scale
    a '#' is an observation (87 + 20 + 3 of 110; 1,100 with an outlier bin), scaled '#' = up
    to 16 samples, rounded up.  Its lines were each 'not understood'; the bars are now checked
    against 'Total N observations', and a display cut short is named."""
    for name, total in (
        ("mps200-histogram-console.txt", 110),
        ("mps2000-histogram-outliers-console.txt", 1100),
        ("mps2000-histogram-scaled-pty-crlf.txt", 1099),
    ):
        t = azlatency.read(FIX / f"sockperf--3.10-linux-tcp-m64-{name}", strict=True)
        assert t.runs["warnings"].isna().all(), name
        count = t.summaries.loc[t.summaries["stat"] == "count", "value"]
        assert count.tolist() == [total] and t.samples.empty
    lines = (FIX / "sockperf--3.10-linux-tcp-m64-mps200-histogram-console.txt").read_text()
    cut = lines[: lines.index("sockperf:  15-20")]  # the last bar (3 observations) gone
    (warning,) = azlatency.read(cut, tool="sockperf").runs["warnings"]
    assert warning == (
        "the histogram shown at line 26 holds 107 observations, the statistics 110: cut short, "
        "or not this run's"
    )
    scaled = (
        FIX / "sockperf--3.10-linux-tcp-m64-mps2000-histogram-scaled-pty-crlf.txt"
    ).read_text()
    cut = scaled[: scaled.index("sockperf: 40-2034")]  # the outlier bar (68 '#') gone
    (warning,) = azlatency.read(cut, tool="sockperf").runs["warnings"]
    assert "holds 9 to 144 observations, the statistics 1099" in warning


@pytest.mark.parametrize("strict", [True, False])
def test_decimal_commas_are_never_read_as_thousands(strict):
    """A localized copy of a 3.10 capture ('avg-latency=10,161', 'percentile 99,000 =
    15,659', found by a mutation run): number() took the commas for thousands separators,
    read a mean of 10161 µs and a percentile 'p99000', and the table failed its schema.
    sockperf prints '%.3lf': its lines with a comma in a number are named, none read."""
    text = (FIX / "sockperf--3.10-linux-tcp-m64-mps200-histogram-console.txt").read_text()
    lines = text.split("\n")
    local = [re.sub(r"(\d)\.(\d)", r"\1,\2", x) if "RunTime" in x or "--->" in x or "avg-" in x
             else x for x in lines]  # fmt: skip
    assert local[11].startswith("sockperf: \x1b[2;35m====> avg-latency=10,161 (std-dev=1,403")
    if strict:
        with pytest.raises(ParseError, match=r":9: expected 'RunTime=<sec>', got '1,000'"):
            azlatency.read("\n".join(local), strict=True)
        return
    t = azlatency.read("\n".join(local)).validate()
    said = t.runs["warnings"].iloc[0]
    assert "line 12 skipped: expected 'avg-latency=<usec>', got '10,161'" in said
    assert "line 20 skipped: expected 'percentile <q> = <usec>', got '99,000'" in said
    s = t.summaries
    assert not s["stat"].str.match(r"p\d{4,}").any() and not (s["value"] > 1000).any()


@pytest.mark.parametrize("strict", [True, False])
@pytest.mark.parametrize(
    ("name", "first"),
    [
        # a percentile and the <MIN> observation; the message rate and the bandwidth
        ("sockperf--3.7-linux-tcp-m1400-fullrtt-pingpong.txt", "sockperf: ---> percentile 25.000"),
        ("sockperf--3.7-linux-tcp-m1400-throughput.txt", "sockperf: Summary: Message Rate"),
    ],
)
def test_sockperf_lines_run_together_are_read_one_by_one(name, first, strict):
    """A lost line break joins two of sockperf's lines ('... =   14.121sockperf: ---> <MIN>
    observation = ...'): the second was lost without a word (a study joining adjacent lines
    of every fixture).  Both are read, and the run names the line; sockperf's own 'sockperf[
    CLIENT] send on:sockperf: using recvfrom() ...' (printed so) is no such line."""
    text = (FIX / name).read_text(encoding="utf-8")
    bad, i = joined(text, first)
    base, got = azlatency.read(text, strict=strict), azlatency.read(bad, strict=strict)
    assert_same_reading(base, got)
    said = "; ".join(got.runs["warnings"].dropna())
    assert f"line {i + 1}: 2 of sockperf's lines run together (line breaks lost)" in said
    own = azlatency.read(FIX / "sockperf--3.3-linux-udp-mps200-fulllog-console.txt")
    assert not any("run together" in w for w in own.runs["warnings"].dropna())


@pytest.mark.parametrize("strict", [True, False])
@pytest.mark.parametrize(
    ("command", "banner"),
    [
        ("$ sockperf ping-pong -i 10.201.0.1 -p 11112 --tcp -m 64", ""),
        ("_sockperf ping-pong -i 10.201.0.1 -p 11112 --tcp -m 64_", ""),  # Markdown italic
        # a library's banner (as sockperf's docs show libvma's) ran into the command
        (
            "$ sockperf ping-pong -i 10.201.0.1 -p 11112 --tcp -m 64",
            " VMA INFO: VMA_VERSION: 8.6.10-0",
        ),
    ],
)
def test_a_command_run_together_with_the_next_line_is_read_one_by_one(command, banner, strict):
    """A lost line break joins the command and sockperf's version line ('$ sockperf ping-pong
    ... -m 64sockperf: == version #3.7-no.git ==') or a library's banner line: the version
    (the banner's) was lost without a word, and the command took the line's text (or, in
    Markdown italic, was no command at all).  Both are read, and the run names the line; a
    'sockperf: ' inside the command's quotes is no cut."""
    text = (FIX / "sockperf--3.7-linux-tcp-pingpong.txt").read_text(encoding="utf-8")
    whole = f"{command}\n{banner}\n{text}" if banner else f"{command}\n{text}"
    base = azlatency.read(whole, strict=strict)
    bad, i = joined(whole, command)
    got = azlatency.read(bad, strict=strict)
    assert_same_reading(base, got, ("tool_version", "command", "msg_size_bytes", "labels"))
    run = got.runs.iloc[0]
    assert (run["tool_version"], run["msg_size_bytes"]) == ("3.7", 64)
    assert run["command"] == "sockperf ping-pong -i 10.201.0.1 -p 11112 --tcp -m 64"
    assert f"line {i + 1}: 2 of sockperf's lines run together" in run["warnings"]
    quoted = azlatency.read(f"$ sockperf pp -i 10.201.0.1 | grep 'x-sockperf: '\n{text}")
    assert quoted.runs["command"].iloc[0] == "sockperf pp -i 10.201.0.1 | grep 'x-sockperf: '"
    assert quoted.runs["warnings"].isna().all()


def test_a_command_in_markdown_emphasis_is_read():
    """Sockperf issue 172's paste opens its command with Markdown's '_' and never closes it
    ('_sockperf ping-pong -i 10.12.0.4 --tcp -m 350 -t 200 -p 12345  --full-rtt'): it was
    taken for prose, and the message size lost.  It is the run's command now, as are
    '**...**' and '*...*'."""
    t = azlatency.read(FIX / "sockperf--3.8-tcp-pp-full-rtt-markdown-bold--sockperf-issue172.txt")
    run = t.runs.iloc[0]
    assert (
        run["command"] == "sockperf ping-pong -i 10.12.0.4 --tcp -m 350 -t 200 -p 12345  --full-rtt"
    )
    assert (run["msg_size_bytes"], run["port"], run["line_start"]) == (350, 12345, 1)
    text = (FIX / "sockperf--3.7-linux-tcp-pingpong.txt").read_text(encoding="utf-8")
    for mark in ("**", "*", "__"):
        got = azlatency.read(f"{mark}sockperf pp -i 10.201.0.1 --tcp -m 64{mark}\n{text}")
        assert got.runs["msg_size_bytes"].tolist() == [64], mark
    bullet = azlatency.read(f"* sockperf pp -i 10.201.0.1 --tcp -m 64\n{text}")  # a list item
    assert bullet.runs["command"].isna().all()


@pytest.mark.parametrize("strict", [True, False])
def test_the_full_logs_dashes_run_together_with_its_parameters_read_the_same(strict):
    """A lost line break joins the full log's dashes and its 'test was performed using the
    following parameters:' line: the parameters (the message size) were lost without a word.
    The dashes say nothing; the line reads as the parameters line (no warning needed: the
    reading is the same)."""
    text = (FIX / "sockperf--3.7-linux-udp-mps2000-fulllog-latency.csv").read_text(encoding="utf-8")
    bad, _ = joined(text, "-----")
    base, got = azlatency.read(text, strict=strict), azlatency.read(bad, strict=strict)
    assert_same_reading(base, got, ("msg_size_bytes", "mode", "protocol", "complete"))
    assert got.runs["msg_size_bytes"].tolist() == [14]
