"""PsPing: warm-ups left out, -h rows that match the replies, KB/s of 1024 bytes."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import azlatency
from tests._expected import FIXTURES

PS = FIXTURES / "psping"
P = "psping--2.10-windows-"


def read(name: str, **kw):
    return azlatency.read(PS / (P + name), source=name, **kw)


def value(t, metric: str, stat: str, source: str = "reported") -> float:
    s = t.summaries
    row = s[(s["metric"] == metric) & (s["stat"] == stat) & (s["source"] == source)]
    assert len(row) == 1, (metric, stat)
    return float(row["value"].iloc[0])


@pytest.mark.parametrize(
    ("name", "kind", "warmup"),
    [
        ("n10-w2-h10-icmp--kelvin-blog.txt", "reply", 2),
        ("n10-w2-h10-tcp-connect--kelvin-blog.txt", "probe", 2),
    ],
)
def test_warmups_are_omitted_and_the_rows_count_the_rest(name, kind, warmup):
    t = read(name)
    run = t.runs.iloc[0]
    assert (run.latency_basis, run.packets_sent, run.packets_received, run.complete) == (
        "rtt",
        10,
        10,
        True,
    )
    probes = t.samples[t.samples.kind == kind]
    assert list(probes.status[:warmup]) == ["omitted"] * warmup
    ok = probes[probes.status == "ok"].rtt_us.to_numpy()
    # PsPing's own statistics leave the warm-ups out: min and max are the rest's
    assert (ok.min(), ok.max()) == (value(t, "rtt", "min"), value(t, "rtt", "max"))
    bins = t.samples[t.samples.kind == "histogram"]
    assert int(bins["count"].sum()) == len(ok) == 10
    # a row counts [its value, the next row's): with the edges PsPing computes (equal steps
    # from the minimum to the maximum, printed rounded) the replies give the printed counts
    k = len(bins)
    edges = ok.min() + np.arange(k) * (ok.max() - ok.min()) / (k - 1)
    counts = [((ok >= a) & (ok < b)).sum() for a, b in zip(edges[:-1], edges[1:])]
    assert counts + [(ok >= edges[-1]).sum()] == bins["count"].tolist()
    assert np.abs(bins.bin_low_us.to_numpy() - edges).max() <= 10  # printed to 0.01 ms
    assert bins.iloc[-1].bin_low_us == bins.iloc[-1].bin_high_us == ok.max()


def test_tcp_connect_target_and_port():
    run = read("n10-w2-h10-tcp-connect--kelvin-blog.txt").runs.iloc[0]
    assert (run.parser_variant, run.dst_ip, run.port, run["mode"]) == (
        "tcp-connect",
        "47.56.65.222",
        443,
        "connect",
    )
    assert run.command == "psping -4 -n 10 -w 2 -h 10 kelvin.mbioq.com:443"


def test_latency_test_reads_maxiumum():
    t = read("l1500-n300-h10-tcp-latency--kelvin-blog.txt")
    run = t.runs.iloc[0]
    assert (run.parser_variant, run.msg_size_bytes, run.packets_sent) == ("latency", 1500, 300)
    assert [value(t, "rtt", s) for s in ("min", "max", "mean")] == [41580.0, 50880.0, 42970.0]
    assert value(t, "bytes_sent", "total") == 450000
    assert int(t.samples["count"].sum()) == 300


def test_bandwidth_kb_are_1024_bytes():
    t = read("b-l1500-n300-h10-bandwidth--kelvin-blog.txt")
    run = t.runs.iloc[0]
    assert (run.parser_variant, run["mode"]) == ("bandwidth", "throughput")
    assert pd.isna(run.latency_basis)
    low = value(t, "throughput_sender", "min")
    assert low == 496.93 * 1024 * 8
    # the first -h row, in bytes/s, is that minimum
    assert t.samples.bits_per_second.iloc[0] == pytest.approx(low, rel=1e-4)


def test_ctrl_c_and_a_paste_without_statistics():
    t = read("t-ctrl-c--jannemattila-cosmosdb-notes.md")
    run = t.runs.iloc[0]
    assert (run.encoding, run.complete, run.packets_received) == ("utf-8", True, 10)
    assert "stopped with Ctrl+C" in run.warnings
    assert run.command == "psping -t yourcosmosdbaccount.documents.azure.com:443"
    cut = read("tcp-connect-no-statistics--azure-docs-sql-private-endpoint.txt").runs.iloc[0]
    assert not cut.complete and cut.warnings.startswith("cut short")


def test_h_rows_missing_after_a_command_that_asked_for_them():
    text = (PS / (P + "n10-w2-h10-icmp--kelvin-blog.txt")).read_text()
    cut = text[: text.index("42.04   0")]
    run = azlatency.read(cut.encode(), source="x.txt").runs.iloc[0]
    assert not run.complete and "-h asked for 10 histogram rows, the output has 8" in run.warnings


@pytest.mark.parametrize("dots", ["...", "." * 20])
@pytest.mark.parametrize("strict", [False, True])
def test_a_paste_shortened_with_dots_keeps_only_the_statistics(dots, strict):
    # Azure's Chinese guide to PsPing and PaPing shortens its 500-connect paste with a line of
    # twenty dots: the connects shown are a subset, the statistics cover them all.  Here the
    # kelvin blog's TCP connect test with four of its connects taken out so (lines 13-16).
    path = FIXTURES / "psping" / "psping--2.10-windows-n10-w2-h10-tcp-connect--kelvin-blog.txt"
    lines = path.read_text(encoding="utf-8").split("\n")
    t = azlatency.read("\n".join([*lines[:12], dots, *lines[16:]]).encode(), strict=strict)
    run = t.runs.iloc[0]
    assert "line 13: probes left out ('...'): the 8 shown are not kept" in run.warnings
    assert (t.samples.kind == "histogram").all()  # -h's rows count every connect
    assert (run.packets_sent, run.packets_received) == (10, 10)
    s = t.summaries
    # line 24: Minimum = 38.30ms, Maximum = 43.91ms, Average = 41.42ms
    assert s[(s.stat == "mean") & (s.source == "reported")].value.item() == pytest.approx(41420.0)
    assert (s.source == "computed").sum() == 0


V201 = "psping--2.01-windows-t-tcp-connect"
DOC = "azure-architecture-center-troubleshoot-vpn.txt"


@pytest.mark.parametrize("strict", [False, True])
def test_psping_2_01_connects_and_their_timeouts(strict):
    # Azure's VPN troubleshooting guide: PsPing 2.01 prints 'Infinite iterations (warmup 1)
    # connecting test:' and no ' from <address>:'; the whole test was refused (strict) or its
    # connects all skipped
    t = azlatency.read(PS / f"{V201}--{DOC}", strict=strict)
    run = t.runs.iloc[0]
    assert (run.tool_version, run.parser_variant, run.dst_ip, run.port) == (
        "2.01",
        "tcp-connect",
        "10.20.0.5",
        80,
    )
    assert t.samples.status.tolist() == ["omitted", "ok", "ok", "ok"]
    assert t.samples.rtt_us.tolist() == [6210.0, 3790.0, 3440.0, 4810.0]
    assert value(t, "rtt", "mean") == 4010.0 and run.packets_received == 3
    assert value(t, "rtt", "mean", "computed") == pytest.approx((3790 + 3440 + 4810) / 3)
    # the timeouts: each a 'timeout' probe with Windows' message; the connect Ctrl+C stopped
    # ('Connecting to 10.20.1.6:80:' alone) is none, as PsPing's 'Sent = 3' says
    u = azlatency.read(PS / f"{V201}-timeouts--{DOC}", strict=strict)
    run = u.runs.iloc[0]
    assert u.samples.status.tolist() == ["omitted", "timeout", "timeout", "timeout"]
    assert u.samples.rtt_us.isna().all()
    assert (
        u.samples.message.iloc[1] == "This operation returned because the timeout period expired."
    )
    assert (run.packets_sent, run.packets_received, run.loss_pct) == (3, 0, 100.0)
    assert "line 13: a connect Ctrl+C stopped, with no result" in run.warnings
    # 'Minimum = 0.00ms, Maximum = 0.00ms, Average = 0.00ms' with nothing back: no time
    assert u.summaries.stat.tolist() == ["count"]
