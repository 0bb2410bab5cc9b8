"""hping3: values read off our own captures (tests/fixtures/hping3, see SOURCES.md)."""

from __future__ import annotations

import pytest

import azlatency
from azlatency.errors import ParseError
from tests.conftest import FIXTURES

HERE = FIXTURES / "hping3"
V = "hping3--3.0.0a2-linux"


def _read(what, **kw):
    return azlatency.read(HERE / what if isinstance(what, str) else what, **kw).validate()


def _stat(t, stat, source, run=0):
    s = t.summaries[t.summaries.run_id == t.runs.run_id.iloc[run]]
    return s.loc[(s.metric == "rtt") & (s.stat == stat) & (s.source == source), "value"].item()


@pytest.mark.parametrize("strict", [False, True])
def test_a_file_holds_the_statistics_first(strict):
    t = _read(f"{V}-veth-S-p443-c10-file.txt", strict=strict)
    assert len(t.runs) == 1
    run = t.runs.iloc[0]
    assert (run.tool, run.parser_variant, run.protocol, run.dst_ip, run.port) == (
        "hping3",
        "tcp",
        "tcp",
        "10.207.0.2",
        443,
    )
    # lines 2-4, above the HPING line: 10 transmitted, 10 received; 0.2/1.0/4.5 ms
    assert (run.packets_sent, run.packets_received, run.loss_pct, run.complete) == (
        10,
        10,
        0.0,
        True,
    )
    assert [_stat(t, k, "reported") for k in ("min", "mean", "max")] == [200.0, 1000.0, 4500.0]
    s = t.samples
    # line 6: seq=0 ... rtt=0.2 ms; line 15: seq=9 ... rtt=0.3 ms
    assert s.seq.tolist() == list(range(10)) and (s.kind == "reply").all()
    assert (s.rtt_us.iloc[0], s.rtt_us.iloc[2], s.rtt_us.iloc[-1]) == (200.0, 4500.0, 300.0)
    assert '"tcp_flags": "S"' in run.labels


@pytest.mark.parametrize("strict", [False, True])
def test_a_reply_the_buffer_cut_around_the_statistics_is_read_whole(strict):
    t = _read(f"{V}-veth-S-c50-i20ms.txt", strict=strict)
    run = t.runs.iloc[0]
    s = t.samples
    # line 50 '... flags=SA', lines 51-53 the statistics, line 54 ' seq=48 win=64240 rtt=0.1 ms'
    assert s.seq.tolist() == list(range(50))
    assert s.rtt_us.iloc[48] == 100.0 and s.rtt_us.iloc[49] == 1000.0
    assert "line 50: a reply cut in two by the statistics" in run.warnings
    assert "read with its rest, line 54" in run.warnings
    assert _stat(t, "max", "computed") == _stat(t, "max", "reported") == 3300.0


def test_in_order_at_a_terminal():
    t = _read(f"{V}-veth-S-p443-c5-script-tty.txt")
    run = t.runs.iloc[0]
    assert (run.packets_received, len(t.samples)) == (5, 5)
    assert t.samples.rtt_us.tolist() == [900.0, 800.0, 700.0, 600.0, 400.0]
    assert _stat(t, "mean", "reported") == 700.0


def test_rst_replies_say_the_port_is_closed():
    t = _read(f"{V}-veth-S-closed-port-rst.txt")
    run = t.runs.iloc[0]
    assert run.port == 444 and run.packets_received == 4
    assert "every reply is a RST (flags=RA): the port is closed" in run.warnings


def test_no_reply_stores_no_time():
    for name in (f"{V}-veth-S-no-host-total-loss.txt", f"{V}-veth-raw-ip-no-reply.txt"):
        t = _read(name)
        run = t.runs.iloc[0]
        assert (run.packets_received, run.loss_pct, len(t.samples)) == (0, 100.0, 0)
        assert t.summaries.stat.tolist() == ["count"]
    assert (run.parser_variant, run.protocol) == ("raw-ip", "ip")


def test_icmp_mode_and_icmp_error_replies():
    t = _read(f"{V}-veth-icmp-c5.txt")
    assert (t.runs.parser_variant.item(), t.runs.protocol.item()) == ("icmp", "icmp")
    # len=28 ip=10.207.0.2 ttl=64 id=54585 icmp_seq=0 rtt=0.8 ms
    assert t.samples.seq.tolist() == [0, 1, 2, 3, 4] and t.samples.rtt_us.iloc[0] == 800.0
    for strict in (False, True):
        u = _read(f"{V}-veth-udp-closed-port-unreachable.txt", strict=strict)
        run = u.runs.iloc[0]
        assert (run.parser_variant, run.packets_received, run.errors) == ("udp", 3, 3)
        assert "ICMP Port Unreachable from ip=10.207.0.2 name=svc-b.azl.internal" in run.warnings
        assert "3 replies are ICMP errors" in run.warnings
        assert _stat(u, "mean", "reported") == 800.0 and len(u.samples) == 0


def test_an_unresolved_name_is_a_located_error():
    with pytest.raises(ParseError) as e:
        azlatency.read(HERE / f"{V}-unknown-host.txt")
    assert e.value.line_no == 1 and "Unable to resolve 'nosuch.invalid'" in e.value.reason


def test_two_runs_appended_to_one_file():
    # 'hping3 ... >> log 2>&1' twice: each run's statistics above its own HPING line
    one = (HERE / f"{V}-veth-S-p443-c10-file.txt").read_text(encoding="utf-8")
    two = (HERE / f"{V}-veth-S-closed-port-rst.txt").read_text(encoding="utf-8")
    t = _read((one + two).encode("utf-8"))
    assert t.runs.port.tolist() == [443, 444]
    assert t.runs.packets_sent.tolist() == [10, 4]
    counts = t.samples.groupby("run_id", sort=False).size().tolist()
    assert counts == [10, 4]
