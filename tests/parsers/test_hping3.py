"""hping3: values read off our own captures (tests/fixtures/hping3, see SOURCES.md)."""

from __future__ import annotations

import pandas as pd
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


@pytest.mark.parametrize("strict", [False, True])
def test_duplicate_replies_are_no_answers_of_their_own(strict):
    # every reply sent twice: hping3 prints the second 'DUP! len=...', counts it as received
    # (lines 2-4: '3 packets transmitted, 5 packets received, -66% packet loss', -c 5 met
    # after three probes) and times it in its min/avg/max
    t = _read(f"{V}-veth-icmp-dup-every-reply-file.txt", strict=strict)
    run = t.runs.iloc[0]
    assert (run.packets_sent, run.packets_received, run.duplicates, run.loss_pct) == (3, 3, 2, 0.0)
    assert run.complete and "'5 packets received, -66% packet loss' of 3 sent" in run.warnings
    s = t.samples
    assert s.seq.tolist() == [0, 0, 1, 1, 2]
    assert s.status.tolist() == ["ok", "duplicate", "ok", "duplicate", "ok"]
    assert "not consecutive" not in run.warnings and "the statistics count" not in run.warnings
    # hping3's own figures stand (over 5 replies); the computed ones are the 3 answers'
    assert _stat(t, "count", "reported") == 5 and _stat(t, "count", "computed") == 3
    assert _stat(t, "mean", "reported") == 700.0
    assert _stat(t, "mean", "computed") == pytest.approx((700.0 + 400.0 + 1300.0) / 3)
    # at a terminal, half the replies doubled: 5 sent, '8 packets received, -60% packet loss'
    u = _read(f"{V}-veth-icmp-dup-half-script-tty.txt", strict=strict)
    run = u.runs.iloc[0]
    assert (run.packets_sent, run.packets_received, run.duplicates, run.loss_pct) == (5, 5, 3, 0.0)
    assert u.samples.status.value_counts().to_dict() == {"ok": 5, "duplicate": 3}
    assert u.samples.seq[u.samples.status == "duplicate"].tolist() == [0, 1, 3]


def test_a_duplicate_the_buffer_cut_is_read_whole_as_a_duplicate():
    # the statistics (stderr) landing inside a DUP! line, as they land inside a reply
    lines = (HERE / f"{V}-veth-icmp-dup-every-reply-file.txt").read_text().split("\n")
    assert lines[6].startswith("DUP! len=28 ip=10.77.0.2 ttl=64 DF id=39977 ")
    head, tail = lines[6].split(" icmp_seq=")
    text = "\n".join([*lines[4:6], head, *lines[:4], " icmp_seq=" + tail, *lines[7:]])
    t = _read(text.encode())
    assert t.samples.status.tolist() == ["ok", "duplicate", "ok", "duplicate", "ok"]
    assert "a reply cut in two by the statistics" in t.runs.warnings.item()
    assert t.runs.duplicates.item() == 2


UP = "hping3--3.0.0a1-upstream-linux-veth"


@pytest.mark.parametrize("strict", [False, True])
def test_upstreams_spelling_of_the_statistics(strict):
    # line 3: '5 packets tramitted, 5 packets received, 0% packet loss' (statistics.c; Debian
    # mends it): the line was refused (strict) or skipped, the run 'cut' without its counts
    t = _read(f"{UP}-S-p443-c5-file.txt", strict=strict)
    run = t.runs.iloc[0]
    assert (run.packets_sent, run.packets_received, run.loss_pct, run.complete) == (5, 5, 0.0, True)
    assert [_stat(t, k, "reported") for k in ("min", "mean", "max")] == [100.0, 500.0, 1000.0]
    assert t.samples.rtt_us.tolist() == [300.0, 100.0, 1000.0, 700.0, 500.0]
    u = _read(f"{UP}-S-script-tty-sigint.txt", strict=strict)
    assert (u.runs.packets_sent.item(), u.runs.complete.item()) == (3, True)
    assert pd.isna(u.runs.warnings.item())
    r = _read(f"{UP}-S-relid-file.txt", strict=strict)  # -r: 'id=+0'
    assert r.samples.seq.tolist() == [0, 1, 2] and pd.isna(r.runs.warnings.item())


@pytest.mark.parametrize("strict", [False, True])
def test_verbose_replies_over_two_lines(strict):
    t = _read(f"{UP}-S-c3-verbose-file.txt", strict=strict)
    run = t.runs.iloc[0]
    # line 5 'using va, addr: 10.77.0.1, MTU: 1500'; lines 7-8 'len=44 ... tos=0 iplen=44' /
    # 'sport=443 flags=SA seq=0 win=64240 rtt=0.2 ms'; line 9 the SYN-ACK's own seq and ack
    assert (run.src_ip, run.dst_ip, run.port, run.packets_received) == (
        "10.77.0.1",
        "10.77.0.2",
        443,
        3,
    )
    assert t.samples.seq.tolist() == [0, 1, 2]
    assert t.samples.rtt_us.tolist() == [200.0, 100.0, 900.0]
    assert pd.isna(run.warnings)  # nothing cut, nothing stray
    d = _read(f"{UP}-icmp-verbose-dup-file.txt", strict=strict)
    run = d.runs.iloc[0]
    # '1 packets tramitted, 2 packets received, -100% packet loss': -c 2 met by a duplicate
    assert (run.packets_sent, run.packets_received, run.duplicates, run.loss_pct) == (1, 1, 1, 0.0)
    assert d.samples.status.tolist() == ["ok", "duplicate"]
    u = _read(f"{UP}-udp-verbose-unreachable-file.txt", strict=strict)
    assert (u.runs.errors.item(), u.runs.packets_received.item()) == (2, 2)


@pytest.mark.parametrize("strict", [False, True])
def test_icmp_timestamps_and_flood_mode(strict):
    t = _read(f"{UP}-icmp-ts-c3-file.txt", strict=strict)
    run = t.runs.iloc[0]
    assert t.samples.rtt_us.tolist() == [500.0, 300.0, 100.0] and run.packets_received == 3
    assert run.warnings.startswith("6 lines of what ICMP timestamp or address mask replies")
    f = _read(f"{UP}-S-flood-sigint-file.txt", strict=strict)
    run = f.runs.iloc[0]
    # '91633 packets tramitted, 0 packets received, 100% packet loss': --flood reads no reply
    assert run.packets_sent == 91633 and run.line_start == 1
    assert pd.isna(run.packets_received) and pd.isna(run.loss_pct) and len(f.samples) == 0
    assert len(f.summaries) == 0  # not even its 'received' count, 0
    assert "--flood: hping3 reads no reply" in run.warnings


def test_the_loss_is_the_counts_not_hping3s_whole_percent():
    # '3 packets tramitted, 2 packets received, 34% packet loss': 100 - 2 * 100 / 3 in ints
    t = _read(f"{UP}-icmp-c3-one-lost-file.txt")
    run = t.runs.iloc[0]
    assert (run.packets_sent, run.packets_received) == (3, 2)
    assert run.loss_pct == pytest.approx(100 / 3)
    assert t.samples.seq.tolist() == [0, 2] and "not consecutive in 1 places" in run.warnings


def test_out_of_sequence_packets():
    # statistics.c prints '%d out of sequence packets received' under the counts where -r saw
    # ids go back (no capture: the veth pair kept them in order); the line put in its place
    lines = (HERE / f"{UP}-S-relid-file.txt").read_text().split("\n")
    lines.insert(3, "1 out of sequence packets received")
    for strict in (False, True):
        t = _read("\n".join(lines).encode(), strict=strict)
        assert t.runs.out_of_order.item() == 1 and pd.isna(t.runs.warnings.item())


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
