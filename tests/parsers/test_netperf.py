"""netperf: values read off the real captures in tests/fixtures/netperf (SOURCES.md)."""

from __future__ import annotations

from pathlib import Path

import pytest

import azlatency
from azlatency.errors import NothingMeasured, ParseError
from azlatency.parsers import netperf
from tests.parsers._joined import assert_same_reading, wrapped

FX = Path(__file__).parents[1] / "fixtures" / "netperf"


def _fx(name: str, **kw):
    return azlatency.read(FX / name, **kw).validate()


def _stats(t, source="reported") -> dict[str, float]:
    s = t.summaries[t.summaries.source == source]
    return {f"{m}.{st}": v for m, st, v in zip(s.metric, s.stat, s.value)}


def test_classic_rr_table_and_its_second_row():
    t = _fx("netperf--2.7.1-linux-TCP_RR-classic.txt")
    run = t.runs.iloc[0]
    # "16384  131072 1        1       2.00     4004.19" then "16384  131072"
    assert (run["mode"], run["protocol"], run["latency_basis"]) == ("rr", "tcp", "rtt")
    assert (run["msg_size_bytes"], run["duration_s"], run["dst_ip"]) == (1, 2.0, "10.77.40.2")
    # netperf's RT_LATENCY (nettest_omni.c): 10⁶ / rate × (1 + first burst), banner's burst 0
    assert _stats(t) == {"transaction_rate.mean": 4004.19, "rtt.mean": pytest.approx(249.7384)}
    assert '"remote_send_socket_bytes": 16384' in run["labels"] and run["complete"]
    # cut after the first row: the remote socket sizes are missing, so the run is not whole
    lines = (FX / "netperf--2.7.1-linux-TCP_RR-classic.txt").read_text().split("\n")
    cut = azlatency.read("\n".join(lines[:7]))
    assert not cut.runs["complete"][0]


def test_request_and_response_sizes():
    t = _fx("netperf--2.7.0-pkb-linux-TCP_RR-r64x1024-classic.txt")
    run = t.runs.iloc[0]
    assert run["msg_size_bytes"] == 64 and '"response_size_bytes": 1024' in run["labels"]
    assert _stats(t)["transaction_rate.mean"] == 24491.26


@pytest.mark.parametrize(
    "name, bps",
    [
        ("netperf--2.7.1-linux-TCP_STREAM-classic.txt", 1497.08e6),  # 10^6bits/sec
        ("netperf--2.7.1-linux-TCP_STREAM-fg-gigabits.txt", 0.85e9),  # 10^9bits/sec
        ("netperf--2.7.1-linux-TCP_STREAM-fM-megabytes.txt", 108.30 * 8 * 2**20),  # MBytes/sec
        ("netperf--2.7.1-linux-TCP_STREAM-O-columns.txt", 962.74e6),  # 10^6bits/s
        ("netperf--2.7.1-linux-TCP_STREAM-k-keyval.txt", 778.77e6),
    ],
)
def test_stream_units(name, bps):
    t = _fx(name)
    assert _stats(t)["throughput_sender.mean"] == pytest.approx(bps, rel=1e-12)
    run = t.runs.iloc[0]
    assert (run["mode"], run["direction"]) == ("stream", "forward")
    assert run["latency_basis"] is None or run["latency_basis"] != run["latency_basis"]


def test_maerts_is_the_receiving_side():
    t = _fx("netperf--2.7.0-pkb-linux-TCP_MAERTS-classic.txt")
    assert _stats(t) == {"throughput_receiver.mean": 2193.50e6}
    assert t.runs["direction"][0] == "reverse"


def test_udp_stream_two_rows():
    t = _fx("netperf--2.7.1-linux-UDP_STREAM-m1400-classic-loss.txt")
    run = t.runs.iloc[0]
    stats = _stats(t)
    # "212992    1400   2.00        58182      0     325.64" / "212992  2.00  18641  104.33"
    assert stats["throughput_sender.mean"] == 325.64e6
    assert stats["throughput_receiver.mean"] == 104.33e6
    assert (run["packets_sent"], run["packets_received"]) == (58182, 18641)
    assert run["loss_pct"] == pytest.approx(100 * (58182 - 18641) / 58182)
    assert (stats["datagrams_sent.total"], stats["send_errors.total"]) == (58182, 0)


def test_cpu_columns():
    t = _fx("netperf--2.7.1-linux-TCP_RR-c-C-cpu.txt")
    stats = _stats(t)
    assert stats["cpu_host.total"] == 100.0 and stats["service_demand_remote.mean"] == 323.503
    assert set(t.summaries.loc[t.summaries.metric.str.startswith("service"), "unit"]) == {"us/Tr"}
    s = _fx("netperf--2.7.1-linux-TCP_STREAM-c-C-cpu.txt")
    assert _stats(s)["throughput_sender.mean"] == 2320.50e6
    assert set(s.summaries.loc[s.summaries.metric.str.startswith("service"), "unit"]) == {"us/KB"}


@pytest.mark.parametrize(
    "name",
    [
        "netperf--2.7.1-linux-j-TCP_RR-O-columns.txt",
        "netperf--2.7.1-linux-j-TCP_RR-k-keyval.txt",
        "netperf--2.7.1-linux-j-TCP_RR-o-csv.txt",
    ],
)
def test_omni_styles_name_the_same_selectors(name):
    t = _fx(name)
    stats = _stats(t)
    assert set(stats) == {
        "transaction_rate.mean",
        *(f"rtt.{s}" for s in ("mean", "std", "min", "p50", "p90", "p99", "max")),
    }
    assert t.runs["msg_size_bytes"][0] == 1 and t.runs["latency_basis"][0] == "rtt"


def test_omni_columns_values():
    # "4944.41    Trans/s    202.12       1255.34      15           20           41 ..."
    stats = _stats(_fx("netperf--2.7.1-linux-j-TCP_RR-O-columns.txt"))
    assert stats["transaction_rate.mean"] == 4944.405  # TRANSACTION_RATE, three decimals
    assert (stats["rtt.mean"], stats["rtt.std"], stats["rtt.min"]) == (202.12, 1255.34, 15)
    assert (stats["rtt.p50"], stats["rtt.p90"], stats["rtt.p99"]) == (20, 41, 4666)
    assert stats["rtt.max"] == 49601


def test_pkb_omni_rr_with_histogram():
    t = _fx("netperf--2.7.1-linux-j-v2-OMNI-T-TCP-d-RR-o-pkb.txt")
    run, stats = t.runs.iloc[0], _stats(t)
    # 6590.23,Trans/s,20,31,3905,993.81,15,32047,1,-1.000,0,0,1448
    assert stats["transaction_rate.mean"] == 6590.23
    assert (stats["rtt.p50"], stats["rtt.p90"], stats["rtt.p99"]) == (20, 31, 3905)
    assert (stats["rtt.std"], stats["rtt.min"], stats["rtt.max"]) == (993.81, 15, 32047)
    assert stats["retransmits.total"] == 0 and stats["rtt.count"] == 13203
    assert (
        '"tcp_mss_bytes": 1448' in run["labels"] and '"confidence_iterations": 1' in run["labels"]
    )
    assert (run["src_ip"], run["dst_ip"], run["port"]) == ("10.77.40.1", "10.77.40.2", 20001)
    h = t.samples
    assert set(h["kind"]) == {"histogram"} and h["count"].sum() == 13203
    # TEN_USEC :    0: 6235: 5386: ...  -> [10, 20) µs holds 6235
    first = h.iloc[0]
    assert (first["bin_low_us"], first["bin_high_us"], first["count"]) == (10.0, 20.0, 6235)
    # the UDP run reports no retransmissions (-1): none are read
    u = _stats(_fx("netperf--2.7.1-linux-j-v2-OMNI-T-UDP-d-RR-o-pkb.txt"))
    assert "retransmits.total" not in u and u["rtt.p99"] == 5166


def test_pkb_build_prints_1000_cells_a_row():
    t = _fx("netperf--2.7.0-pkb-linux-j-v2-OMNI-T-TCP-d-RR-o-hist1000.txt")
    h = t.samples
    assert h["count"].sum() == 61967 == _stats(t)["rtt.count"]
    widths = (h["bin_high_us"] - h["bin_low_us"]).round(9)
    assert widths[h["bin_high_us"] <= 100].eq(0.1).all()  # TEN_USEC: 1000 cells over 10-100 µs
    # 27899 transactions of 17 µs: the cell [17.0, 17.1)
    row = h[h["count"] == 27899].iloc[0]
    assert (row["bin_low_us"], row["bin_high_us"]) == (17.0, pytest.approx(17.1))


def test_stream_latency_selectors_are_send_call_times():
    t = _fx("netperf--2.7.1-linux-j-OMNI-T-TCP-d-STREAM-o-pkb.txt")
    stats = _stats(t)
    assert "rtt.p50" not in stats and stats["send_time.p50"] == 49
    assert stats["throughput_sender.mean"] == 1856.94e6 and stats["retransmits.total"] == 180
    assert t.runs["latency_basis"].isna()[0]
    v = _fx("netperf--2.7.1-linux-TCP_STREAM-v2-send-histogram.txt")
    assert len(v.samples) == 0  # send() call times are counted, not kept as latency
    assert _stats(v)["send_time.count"] == 48269 and '"tcp_mss_bytes": 1448' in v.runs["labels"][0]


def test_verbose_rr_table():
    stats = _stats(_fx("netperf--2.7.1-linux-TCP_RR-v2-histogram.txt"))
    # "    8      0       0      0   192.701   5189.398 0.042     0.042"
    assert stats["transaction_time.mean"] == 192.701
    assert stats["transaction_rate.mean"] == 5189.398
    assert stats["payload_rate_outbound.mean"] == 0.042e6
    assert stats["rtt.mean"] == 192.701  # printed: netperf's mean round trip, not our division


def test_mean_round_trip_from_a_classic_rate_follows_netperfs_formula():
    # TCP_CRR: a connect, a request, a response per transaction, one in flight: 10⁶ / 908.52
    crr = _stats(_fx("netperf--2.7.1-linux-TCP_CRR-classic.txt"))
    assert crr["rtt.mean"] == pytest.approx(1e6 / 908.52)
    text = (FX / "netperf--2.7.1-linux-TCP_RR-classic.txt").read_text()
    # the same table from a build that bursts (-b 3: four in flight) and one that can pace
    # (': interval', -w/-b: the printed rate includes the waits, which netperf takes out)
    burst = azlatency.read(text.replace("first burst 0", "first burst 3"), tool="netperf")
    assert _stats(burst)["rtt.mean"] == pytest.approx(4e6 / 4004.19)
    paced = azlatency.read(text.replace(": demo", ": interval : demo"), tool="netperf")
    assert _stats(paced) == {"transaction_rate.mean": 4004.19}


def test_interim_results():
    t = _fx("netperf--2.7.1-linux-D0.5-TCP_STREAM-interim.txt")
    s = t.samples.iloc[0]
    # "Interim result:  887.27 10^6bits/s over 2.010 seconds ending at 1795623591.166"
    assert (s["kind"], s["bits_per_second"], s["end_s"]) == ("interval", 887.27e6, 2.01)
    assert s["time_ns"] == 1795623591166000000
    rr = _fx("netperf--2.7.1-linux-D0.5-TCP_RR-interim.txt")
    assert len(rr.samples) == 0
    computed = _stats(rr, "computed")
    assert computed == {"transaction_rate.min": 2833.26, "transaction_rate.max": 5959.79}


def test_confidence_not_reached_is_a_warning():
    t = _fx("netperf--2.7.1-linux-i3-I99-TCP_RR-confidence-missed.txt")
    assert (
        "did not reach the confidence asked for: throughput interval +/-143.393%"
        in (t.runs["warnings"][0])
    )
    assert '"confidence_target": "+/-2.500% @ 99%"' in t.runs["labels"][0]
    assert _stats(t)["transaction_rate.mean"] == 3017.84


def test_refused_measured_nothing():
    with pytest.raises(NothingMeasured) as info:
        azlatency.read(FX / "netperf--2.7.1-linux-p5999-refused-error.txt", strict=False)
    assert info.value.line_no == 1 and "netserver" in info.value.hint


def test_cut_short_is_incomplete():
    t = _fx("netperf--2.7.1-linux-TCP_RR-head-n5-truncated.txt")
    assert not t.runs["complete"][0]
    assert t.runs["warnings"][0] == "cut short: no result table after line 5"


def test_histogram_cut_short():
    text = (FX / "netperf--2.7.1-linux-j-v2-OMNI-T-TCP-d-RR-o-pkb.txt").read_text()
    lines = text.split("\n")
    t = azlatency.read("\n".join(lines[:10]))
    assert not t.runs["complete"][0] and "histogram is cut short" in t.runs["warnings"][0]


def test_quote_marker_line_is_read_either_way():
    # '>100_SECS: 0' loses its '>' in the reader (e-mail quote markers): the same reading.
    text = (FX / "netperf--2.7.1-linux-j-v2-OMNI-T-TCP-d-RR-o-pkb.txt").read_text()
    direct = netperf.parse(text)
    assert direct.runs[0].meta["complete"] and not direct.runs[0].warnings
    assert azlatency.read(text).runs["complete"][0]


def test_foreign_line_in_columns_is_located():
    lines = (FX / "netperf--2.7.1-linux-j-TCP_RR-O-columns.txt").read_text().split("\n")
    doc = "\n".join(lines[:2] + ["Connection reset by peer"] + lines[2:])
    with pytest.raises(ParseError) as info:
        azlatency.read(doc, strict=True)
    assert info.value.line_no == 3
    # the default read takes the line out: the run and its figures as without it
    got, base = azlatency.read(doc), azlatency.read("\n".join(lines))
    assert got.runs["warnings"][0].startswith("line 3 skipped: 'Connection reset by peer'")
    assert (got.runs["line_start"][0], got.runs["line_end"][0]) == (1, 7)
    assert got.summaries["value"].tolist() == base.summaries["value"].tolist()


def test_two_outputs_in_a_note():
    a = (FX / "netperf--2.7.1-linux-TCP_RR-classic.txt").read_text()
    b = (FX / "netperf--2.7.1-linux-TCP_STREAM-classic.txt").read_text()
    doc = f"## AZ1 - AZ2\n\n```\n$ netperf -H 10.77.40.2 -t TCP_RR\n{a}```\n\nand\n\n```\n{b}```\n"
    t = azlatency.read(doc).validate()
    assert list(t.runs["mode"]) == ["rr", "stream"]
    assert t.runs["command"][0] == "netperf -H 10.77.40.2 -t TCP_RR"
    assert list(t.runs["heading"]) == ["AZ1 - AZ2", "AZ1 - AZ2"]


def test_outputs_without_their_banner_read_the_command_line():
    # "kubectl exec -n netperf -it netperf-client -- netperf -H netperf-server -t TCP_RR -l 30
    # -- -O min_latency,...", then the -O table with no banner: "307  333.18  4840  384
    # 39.75  2999.744"; UDP_RR the same; a classic TCP_STREAM table "... 30.00  9809.07"
    t = azlatency.read(FX / "netperf--kubectl-O-p99-rr-and-stream-no-banner--aks-cilium-readme.txt")
    runs = t.runs
    assert list(zip(runs["mode"], runs["protocol"])) == [
        ("rr", "tcp"),
        ("rr", "udp"),
        ("stream", "tcp"),
    ]
    assert (runs["dst_host"] == "netperf-server").all() and runs["dst_ip"].isna().all()
    assert all("no netperf banner" in w for w in runs["warnings"])
    s = t.summaries
    tcp_rr = s[(s.run_id == runs.run_id[0]) & (s.metric == "rtt")]
    assert dict(zip(tcp_rr.stat, tcp_rr.value)) == {
        "mean": 333.18,
        "std": 39.75,
        "min": 307.0,
        "p99": 384.0,
        "max": 4840.0,
    }
    stream = s[(s.run_id == runs.run_id[2]) & (s.metric == "throughput_sender")]
    assert stream.value.item() == 9809.07e6


@pytest.mark.parametrize("strict", [True, False])
def test_a_banner_wrapped_over_two_lines_is_read_as_one(strict):
    """netperf's banner is 100-150 characters; a copy from a terminal or mail client that
    wraps at 72 breaks it in two ('... port 0 AF_INET to' / '10.77.40.2 () port 0 AF_INET :
    histogram : demo'), and the file was no netperf output, refused in both modes (a study
    wrapping long lines: 31 netperf files).  The two lines are read as the banner, the run
    names them; a sentence that quotes a banner (docs/tools/netperf.md) is still none."""
    text = (FX / "netperf--2.7.0-pkb-linux-TCP_MAERTS-classic.txt").read_text(encoding="utf-8")
    base, got = azlatency.read(text), azlatency.read(wrapped(text, 0), strict=strict)
    assert_same_reading(base, got, ("mode", "protocol", "dst_ip", "line_start"))
    assert got.runs["warnings"].iloc[0].startswith("lines 1-2: the banner broken in two")
