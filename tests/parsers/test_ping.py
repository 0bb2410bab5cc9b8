"""ping: seed 000, every corpus file, our captures (beyond the fixture walker), jc as a
differential oracle, the bulk reader against the line reader, and the error paths."""

from __future__ import annotations

import math
import re
from pathlib import Path

import jc
import numpy as np
import pandas as pd
import pytest

import azlatency
from azlatency.errors import ParseError
from azlatency.parsers import ping
from azlatency.parsers.ping.runs import unwrap
from tests._expected import FIXTURES, read_fixture
from tests.conftest import CORPUS, corpus, needs_shared, seed
from tests.parsers._joined import assert_same_reading, joined

PING = FIXTURES / "ping"


def _fx(name: str):
    return read_fixture(PING / name)


def _stats(tables, run: int = 0, source: str = "reported") -> dict[str, float]:
    s = tables.summaries
    rid = tables.runs["run_id"].iloc[run]
    s = s[(s["run_id"] == rid) & (s["source"] == source)]
    return dict(zip(s["stat"], s["value"]))


def _samples(tables, run: int = 0) -> pd.DataFrame:
    rid = tables.runs["run_id"].iloc[run]
    return tables.samples[tables.samples["run_id"] == rid].reset_index(drop=True)


def _ms(values) -> list[float]:
    return [round(v * 1000, 3) for v in values]


# ---------------------------------------------------------------------------------------------
# Seed 000: bare statistics lines under a heading, in prose.


@needs_shared
def test_seed_000_bare_statistics_blocks():
    t = azlatency.read(seed("000"))
    runs = t.runs[t.runs["tool"] == "ping"].reset_index(drop=True)
    assert list(runs["heading"]) == ["TEST 2 ping test", "TEST5 ping avset"]
    assert list(runs["line_start"]) == [88, 203] and list(runs["line_end"]) == [89, 204]
    assert (runs["latency_basis"] == "rtt").all() and runs["complete"].all()
    assert list(runs["packets_sent"]) == [20, 20] and list(runs["packets_received"]) == [20, 20]
    assert list(runs["loss_pct"]) == [0.0, 0.0]
    assert list(runs["duration_s"]) == [19.235, 19.161]  # "time 19235ms", "time 19161ms"
    assert list(runs["parser_variant"]) == ["iputils", "iputils"]
    s = t.summaries[t.summaries["run_id"].isin(runs["run_id"])]
    first = s[s["run_id"] == runs["run_id"][0]].set_index("stat")["value"]
    second = s[s["run_id"] == runs["run_id"][1]].set_index("stat")["value"]
    # line 89: rtt min/avg/max/mdev = 0.718/0.969/2.137/0.299 ms
    assert first.to_dict() == {"count": 20, "min": 718, "mean": 969, "max": 2137, "mdev": 299}
    # line 204: rtt min/avg/max/mdev = 0.728/1.902/10.265/2.507 ms
    assert second.to_dict() == {"count": 20, "min": 728, "mean": 1902, "max": 10265, "mdev": 2507}
    assert (s["unit"][s["stat"] != "count"] == "us").all()
    assert not len(t.samples[t.samples["run_id"].isin(runs["run_id"])])


# ---------------------------------------------------------------------------------------------
# The corpus, file by file.


def _gping_expected(path) -> list[str]:
    """gping's own expectations: one entry per output line, after the '-----' line."""
    text = path.read_text(encoding="utf-8")
    return [x for x in text.split("-----", 1)[1].split("\n") if x.strip()]


@needs_shared
def test_corpus_busybox_alpine_stops_before_expectations():
    path = corpus("ping", "ping--busybox-alpine-unreachable-fixture--gping.txt")
    t = azlatency.read(path)
    (run,) = t.runs.itertuples()
    assert (run.parser_variant, run.os, run.complete) == ("busybox", "busybox", False)
    assert (run.line_start, run.line_end) == (1, 5)  # the '-----' line 6 is not ping's
    assert (run.dst_host, run.dst_ip, run.msg_size_bytes) == ("google.com", "142.250.178.14", 56)
    s = _samples(t)
    assert list(s["status"]) == ["ok", "ok", "ok", "error"]
    assert list(s["seq"][:3]) == [0, 1, 2]  # BusyBox counts from 0
    assert s["message"][3] == "sendto: Network unreachable"
    expected = [float(x[:-2]) for x in _gping_expected(path) if x.endswith("ms")]
    assert _ms(s["rtt_us"][:3] / 1e6) == expected == [19.236, 19.319, 17.944]


@needs_shared
def test_corpus_macos_request_timeouts_and_gaps():
    path = corpus("ping", "ping--macos-request-timeouts-fixture--gping.txt")
    t = azlatency.read(path)
    (run,) = t.runs.itertuples()
    assert (run.parser_variant, run.os, run.complete, run.line_end) == ("bsd", "macos", False, 11)
    s = _samples(t)
    printed = s[s["status"] != "lost"]
    # gping's expectations list a value or "Timeout" per printed packet line.
    want = [x for x in _gping_expected(path) if x != "None"]
    got = [
        "Timeout" if st == "timeout" else f"{r / 1000:.3f}ms"
        for st, r in zip(printed["status"], printed["rtt_us"])
    ]
    assert got == want
    assert list(printed["seq"]) == [0, 1, 2, 3, 4, 5, 19, 20, 21, 30]
    # seqs 6-18 and 22-29 printed nothing: lost
    assert list(s["seq"][s["status"] == "lost"]) == [*range(6, 19), *range(22, 30)]


@needs_shared
def test_corpus_iputils_600_packets_with_glued_lines():
    t = azlatency.read(corpus("ping", "ping--linux-iputils-600pkt-loss-pipe--csc458-a2-bbq100.txt"))
    (run,) = t.runs.itertuples()
    # line 118: 600 packets transmitted, 588 received, 2% packet loss, time 60779ms
    assert (run.packets_sent, run.packets_received, run.loss_pct, run.duration_s) == (
        600,
        588,
        2.0,
        60.779,
    )
    assert (run.errors, run.duplicates, run.complete) == (0, 0, True)
    assert run.labels == '{"pipe": 3}'
    assert "5 lines held several replies run together" in run.warnings
    # line 119: rtt min/avg/max/mdev = 4.112/175.876/237.468/34.582 ms, pipe 3
    assert _stats(t) == {"count": 588, "min": 4112, "mean": 175876, "max": 237468, "mdev": 34582}
    s = _samples(t)
    assert (s["status"] == "ok").sum() == 588 and (s["status"] == "lost").sum() == 12
    assert list(s["seq"]) == list(range(1, 601))
    assert (s["payload_bytes"].dropna() == 64).all()  # "ms664 bytes from" read as 64 bytes
    assert s["rtt_us"][0] == 4110.0  # line 2: icmp_seq=1 ttl=64 time=4.11 ms
    assert s["rtt_us"][599] == 122000.0  # last glued reply: icmp_seq=600 ... time=122 ms
    computed = _stats(t, source="computed")
    # Replies print 3 significant digits ("time=4.11 ms", "time=237 ms"); the statistics
    # line is computed from the exact times, so the two differ by the printing.
    assert computed["min"] == 4110 and computed["max"] == 237000
    assert abs(computed["mean"] - 175876) < 500


@needs_shared
def test_corpus_iputils_interleaved_statistics():
    t = azlatency.read(
        corpus("ping", "ping--linux-iputils-loss-interleaved-stats-pipe--csc458-a2.txt")
    )
    (run,) = t.runs.itertuples()
    assert (run.packets_sent, run.packets_received, run.loss_pct) == (30, 20, 33.0)
    assert (run.line_start, run.line_end, run.labels) == (1, 26, '{"pipe": 16}')
    assert "statistics block printed twice" in run.warnings
    assert _stats(t) == {"count": 20, "min": 4153, "mean": 1148627, "max": 2190702, "mdev": 618968}
    s = _samples(t)
    assert list(s["seq"][s["status"] == "ok"]) == [*range(1, 19), 24]
    assert list(s["seq"][s["status"] == "lost"]) == [*range(19, 24), *range(25, 31)]
    assert s["rtt_us"][s["seq"] == 24].item() == 2071000.0  # line 20: time=2071 ms


@needs_shared
def test_corpus_iputils_summary_only():
    t = azlatency.read(corpus("ping", "ping--linux-summary-only--pingparsing.txt"))
    (run,) = t.runs.itertuples()
    assert (run.dst_host, run.dst_ip, run.packets_sent, run.duration_s) == (
        "google.com",
        "216.58.196.238",
        60,
        59.153,
    )
    assert _stats(t) == {"count": 60, "min": 61425, "mean": 99731, "max": 212597, "mdev": 27566}
    assert not len(t.samples)  # -q style: no reply lines, no invented samples


@needs_shared
def test_corpus_macos_100_packets():
    t = azlatency.read(corpus("ping", "ping--macos-100pkt--emma-alv-ping-statistics.txt"))
    (run,) = t.runs.itertuples()
    assert (run.parser_variant, run.os, run.packets_sent, run.packets_received) == (
        "bsd",
        "bsd",
        100,
        100,
    )
    assert (run.loss_pct, run.duplicates, run.dst_host) == (0.0, 0, "google.mx")
    # round-trip min/avg/max/stddev = 33.071/41.502/161.899/17.531 ms
    assert _stats(t) == {"count": 100, "min": 33071, "mean": 41502, "max": 161899, "std": 17531}
    s = _samples(t)
    assert list(s["seq"]) == list(range(100)) and (s["status"] == "ok").all()
    computed = _stats(t, source="computed")
    assert abs(computed["mean"] - 41502) < 0.5 and abs(computed["mdev"] - 17531) < 0.5


@needs_shared
def test_corpus_powershell_test_connection_utf16():
    t = azlatency.read(corpus("ping", "ping--powershell-test-connection-utf16le--ntig-umea.txt"))
    assert list(t.runs["parser_variant"]) == ["powershell-5"] * 3
    assert (t.runs["encoding"] == "utf-16-le").all()
    assert (t.runs["src_host"] == "5CD225N9R5").all() and (t.runs["dst_ip"] == "8.8.8.8").all()
    assert list(t.runs["packets_sent"]) == [4, 4, 4] and (t.runs["msg_size_bytes"] == 32).all()
    times = [list(_samples(t, k)["rtt_us"] / 1000) for k in range(3)]
    assert times == [[14, 13, 13, 13], [15, 16, 19, 15], [16, 16, 16, 14]]


@needs_shared
def test_corpus_windows_english_multi_run():
    t = azlatency.read(corpus("ping", "ping--windows-en-multi-run--lindahl2010.txt"))
    assert len(t.runs) == 4 and (t.runs["language"] == "en").all()
    assert list(t.runs["dst_ip"]) == ["172.217.1.36"] * 2 + ["172.217.8.164"] * 2
    assert (t.runs["dst_host"] == "www.google.com").all()
    assert t.runs["line_end"].iloc[-1] == 49  # the file has no final newline
    assert list(_samples(t, 1)["rtt_us"] / 1000) == [14, 17, 13, 15, 15]
    # Minimum = 13ms, Maximum = 17ms, Average = 14ms
    assert _stats(t, 1) == {"count": 5, "min": 13000, "max": 17000, "mean": 14000}
    assert "1000 us resolution" in t.runs["warnings"].iloc[0]


@needs_shared
def test_corpus_windows_win7():
    t = azlatency.read(corpus("ping", "ping--windows-en-win7--pingparsing.txt"))
    assert _stats(t) == {"count": 10, "min": 56000, "max": 194000, "mean": 107000}
    assert _stats(t, source="computed")["mean"] == 107700  # ping.exe truncates to 107 ms
    assert t.runs["dst_ip"][0] == "216.58.196.238" and t.runs["dst_host"][0] == "google.com"


@needs_shared
def test_corpus_windows_french_in_notes():
    t = azlatency.read(corpus("ping", "ping--windows-fr-embedded-in-notes--lucasvellinpatche.md"))
    runs = t.runs
    assert (runs["tool"] == "ping").all() and (runs["language"] == "fr").all()
    assert list(runs["command"]) == [
        "ping 10.33.72.214",
        "ping 127.0.0.1",
        "ping 10.33.79.254",
        "ping 10.33.73.111",
        "ping www.thinkerview.com",
    ]
    assert list(runs["dst_ip"]) == [
        "10.33.72.214",
        "127.0.0.1",
        "10.33.79.254",
        "10.33.73.111",
        "188.114.97.7",
    ]
    assert runs["dst_host"][4] == "www.thinkerview.com"
    censored = [(_samples(t, k)["status"] == "censored").sum() for k in range(5)]
    assert censored == [3, 4, 0, 0, 0]  # "temps<1ms"
    first = _samples(t, 0)
    assert first["rtt_us"].isna().sum() == 3 and first["rtt_us"][1] == 1000.0  # "temps=1 ms"
    assert (first["censor_high_us"].dropna() == 1000.0).all()
    lost = _samples(t, 2)
    assert list(lost["status"]) == ["timeout"] * 4  # "Délai d’attente de la demande dépassé."
    assert (runs["loss_pct"][2], runs["complete"][2]) == (100.0, True)
    assert _stats(t, 2) == {"count": 0}  # no round-trip block at 100 % loss
    assert list(_samples(t, 4)["rtt_us"] / 1000) == [17, 17, 17, 16]
    # The ipconfig, nslookup and nmap lines around them are not ping's.
    assert list(runs["line_start"]) == [63, 75, 95, 105, 117]


@needs_shared
def test_every_corpus_file_is_tested():
    names = {p.name for p in (CORPUS / "ping").iterdir()}
    tested = set(re.findall(r'"(ping--[^"]+)"', Path(__file__).read_text(encoding="utf-8")))
    assert names <= tested


# ---------------------------------------------------------------------------------------------
# Our captures: what the walker's head/tail does not show.


def test_timestamps_are_exact_integer_ns():
    t = _fx("ping--iputils-20221126-linux-D-c5-timestamps.txt")
    # line 2: [1795221973.988834] 64 bytes from 10.202.0.2: icmp_seq=1 ttl=64 time=0.029 ms
    assert t.samples["time_ns"][0] == 1_795_221_973_988_834_000
    assert t.samples["time_ns"].dtype == "Int64"
    assert list(t.samples["rtt_us"]) == [29.0, 41.0, 25.0, 31.0, 34.0]


def test_no_answer_yet_then_late_errors():
    t = _fx("ping--iputils-20221126-linux-D-O-c6-no-answer-yet.txt")
    s = t.samples
    assert list(s["seq"]) == [1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6]
    assert list(s["status"][:2]) == ["timeout", "error"]
    assert s["message"][1] == "Destination Host Unreachable"
    run = t.runs.iloc[0]
    assert (run.errors, run.loss_pct, run.labels) == (6, 100.0, '{"pipe": 6}')


def test_gap_becomes_lost_samples_iputils_and_busybox():
    t = _fx("ping--iputils-20221126-linux-c15-i0.2-gap-partial-loss.txt")
    assert list(t.samples["seq"][t.samples["status"] == "lost"]) == [6, 7, 8, 9, 10]
    t = _fx("ping--iputils-20221126-linux-D-O-c15-gap-partial-loss.txt")
    assert list(t.samples["seq"][t.samples["status"] == "timeout"]) == [6, 7, 8, 9, 10]
    assert "lost" not in set(t.samples["status"])
    t = _fx("ping--busybox-1.35.0-linux-c15-gap-partial-loss.txt")
    assert list(t.samples["seq"][t.samples["status"] == "lost"]) == [6, 7, 8, 9, 10]
    assert t.runs["loss_pct"][0] == 33.0


def test_duplicates_marked_and_unmarked():
    for name in (
        "ping--iputils-20221126-linux-v-b-c3-broadcast-dup.txt",
        "ping--iputils-20221126-linux-b-c3-broadcast-dups-unmarked.txt",
    ):
        t = _fx(name)
        assert list(t.samples["status"]) == ["ok", "duplicate", "ok", "duplicate", "ok"]
        assert t.runs["duplicates"][0] == 2
        # iputils averages replies and duplicates together, truncated to whole µs
        # (-v file: 0.026+0.039+0.039+0.054+0.044 = 0.202 ms / 5 -> "avg 0.040")
        assert math.floor(_stats(t, source="computed")["mean"]) == _stats(t)["mean"]


def test_total_loss_and_truncation():
    t = _fx("ping--iputils-20221126-linux-c5-unreachable-total-loss.txt")
    assert list(t.samples["status"]) == ["error"] * 5 and t.runs["errors"][0] == 5
    assert _stats(t) == {"count": 0}
    t = _fx("ping--busybox-1.35.0-linux-c3-total-loss.txt")
    assert not len(t.samples) and t.runs["loss_pct"][0] == 100.0
    t = _fx("ping--iputils-20221126-linux-i0.2-sigkill-truncated.txt")
    run = t.runs.iloc[0]
    assert not run.complete and pd.isna(run.packets_sent) and len(t.samples) == 6
    assert _stats(t) == {}


def test_ipv6_runs():
    t = _fx("ping--iputils-20221126-linux-6-c4-ipv6.txt")
    assert (t.runs["protocol"][0], t.runs["dst_ip"][0]) == ("icmpv6", "fd00:202::2")
    t = _fx("ping--iputils-20221126-linux-6-c4-unreachable.txt")
    assert t.samples["message"][0] == "Destination unreachable: Address unreachable"
    t = _fx("ping--busybox-1.35.0-linux-6-c3-ipv6.txt")
    assert (t.runs["protocol"][0], t.runs["os"][0]) == ("icmpv6", "busybox")


# ---------------------------------------------------------------------------------------------
# Windows: censoring, languages, encodings.


@pytest.mark.parametrize(
    "name, lang, encoding",
    [
        ("ping--win10-windows-de-cp850-timeout-unreachable-transcribed.txt", "de", "cp850"),
        ("ping--win10-windows-es-cp850-timeout-censored-transcribed.txt", "es", "cp850"),
        ("ping--win10-windows-ja-cp932-timeout-censored-transcribed.txt", "ja", "cp932"),
        ("ping--win10-windows-zh-cp936-timeout-censored-transcribed.txt", "zh", "cp936"),
    ],
)
def test_localized_windows(name, lang, encoding):
    t = _fx(name)
    run = t.runs.iloc[0]
    assert (run.language, run.encoding, run.os) == (lang, encoding, "windows")
    assert (run.packets_sent, run.packets_received, run.loss_pct) == (4, 3, 25.0)
    s = _samples(t)
    assert list(s["seq"]) == [1, 2, 3, 4]
    assert (s["status"] == "timeout").sum() == 1
    censored = s[s["status"] == "censored"]
    assert len(censored) and censored["rtt_us"].isna().all()  # never 1.0 ms
    assert (censored["censor_high_us"] == 1000.0).all()
    assert (s["rtt_us"].dropna() % 1000 == 0).all()


@pytest.mark.parametrize(
    "lang, first_ms, stats",
    [
        # "64 Bytes von 10.77.40.2: icmp_seq=1 ttl=64 Zeit=0.032 ms" ... "5 Pakete übertragen,
        # 5 empfangen, 0% Paketverlust, Zeit 813ms", "rtt min/avg/max/mdev = ..."
        ("de_DE", 0.032, (5, 5, 0.0)),
        ("fr_FR", 0.024, (5, 5, 0.0)),  # "temps=0.024 ms", "0 % paquets perdus"
        ("ja_JP", 0.025, (5, 5, 0.0)),  # "時間=0.025 ミリ秒"
        ("zh_CN", 0.019, (5, 5, 0.0)),  # "已发送 5 个包， 已接收 5 个包"
        ("uk_UA", 0.020, (5, 5, 0.0)),  # "ПІНГ", "64 байтів від", "час=0.020 мс"
        ("cs_CZ", 0.025, (5, 5, 0.0)),  # "pořadí=1 TTL=64 čas=0.025 ms"
    ],
)
def test_iputils_in_other_languages(lang, first_ms, stats):
    t = _fx(f"ping--iputils-20250605-33-linux-LANG-{lang}-c5.txt")
    run = t.runs.iloc[0]
    assert len(t.runs) == 1 and run.complete and pd.isna(run.warnings)
    assert (run.language, run.parser_variant, run.msg_size_bytes) == (lang[:2], "iputils", 56)
    assert (run.packets_sent, run.packets_received, run.loss_pct) == stats
    samples = _samples(t)
    assert len(samples) == 5 and samples.rtt_us[0] == first_ms * 1000
    assert _stats(t)["mdev"] >= 0 and len(_stats(t)) == 5  # count, min, mean, max, mdev


def test_iputils_in_german_unreachable_and_a_published_paste():
    # "Von 10.77.40.1 icmp_seq=1 Zielhost nicht erreichbar" x4, "4 Pakete übertragen, 0
    # empfangen, +4 Fehler, 100% Paketverlust, Zeit 959ms", "pipe 4"
    t = _fx("ping--iputils-20250605-33-linux-LANG-de_DE-c4-unreachable.txt")
    run = t.runs.iloc[0]
    assert (run.packets_sent, run.packets_received, run.errors, run.loss_pct) == (4, 0, 4, 100.0)
    assert list(_samples(t).message) == ["Zielhost nicht erreichbar"] * 4
    # mtr issue 450: "--- 2a00:6020:0:b::1 ping-Statistik ---", "5 Pakete übertragen, 5
    # empfangen, 0% packet loss, time 4006ms" (an older translation): the counts are read
    p = _fx("ping--iputils-linux-LANG-de-c5-elided-ipv6--mtr-issue450.txt")
    run = p.runs.iloc[0]
    assert (run.packets_sent, run.loss_pct, run.language, run.dst_ip) == (
        5,
        0.0,
        "de",
        "2a00:6020:0:b::1",
    )
    assert _stats(p)["mean"] == 6645.0


def test_a_windows_for_loop_over_hosts_is_one_run_per_host():
    # "for /l %i in (1,1,255) do @ping 192.168.7.%i -w 1 -n 1|find /i "ttl="": "来自
    # 192.168.7.7 的回复: 字节=32 时间<1ms TTL=128", then .107 and .110, no header
    t = _fx("ping--windows-zh-for-loop-n1-find-ttl-three-hosts--host-discovery-notes.txt")
    assert list(t.runs.dst_ip) == ["192.168.7.7", "192.168.7.107", "192.168.7.110"]
    assert list(t.samples.status) == ["censored", "ok", "censored"]
    assert not t.runs.complete.any()


def test_windows_unreachable_counts_as_received():
    t = _fx("ping--win10-windows-de-cp850-timeout-unreachable-transcribed.txt")
    run = t.runs.iloc[1]
    assert (run.packets_received, run.errors, run.dst_ip) == (4, 4, "10.0.0.99")
    assert set(_samples(t, 1)["message"]) == {"Zielhost nicht erreichbar."}
    assert _stats(t, 1) == {"count": 4}


def test_censored_statistics_carry_bounds():
    t = _fx("ping--win10-windows-en-6-ipv6-censored-transcribed.txt")
    s = t.summaries[t.summaries["source"] == "computed"].set_index("stat")
    assert s.loc["mean", "bound_low"] == 0.0 and s.loc["mean", "bound_high"] == 1000.0
    assert "std" not in s.index and "mdev" not in s.index  # no bound exists for the spread
    assert t.runs["protocol"][0] == "icmpv6"


def test_windows_printed_zero_ms_is_a_bound_not_zero():
    """Windows counts a time<1ms reply as 0 ms: 'Minimum = 0ms, Maximum = 0ms, Average = 0ms'
    (four replies of time<1ms) was read as 0 µs each, and a paste whose replies are left out
    ('...') keeps only these: its page said 'mean 0 µs'.  Now each is below 1000 µs, as the
    replies' own bounds say; 'Average = 0ms' beside 'Maximum = 1ms' (<1, 1, <1 ms) is below
    the maximum, and beside 'Maximum = 3ms' below 2 ms (whole-ms replies summing to less than
    their count, the censored ones each below 1 ms)."""

    def printed(name: str):
        t = _fx(name)
        s = t.summaries[t.summaries["source"] == "reported"].set_index("stat")
        return {
            k: tuple(s.loc[k, ["value", "bound_low", "bound_high"]]) for k in ("min", "max", "mean")
        }

    every = printed("ping--win10-windows-en-6-ipv6-censored-transcribed.txt")
    assert every == {k: (1000.0, 0.0, 1000.0) for k in ("min", "max", "mean")}
    one = printed("ping--win10-windows-es-cp850-timeout-censored-transcribed.txt")
    assert one["min"] == (1000.0, 0.0, 1000.0) and one["mean"] == (1000.0, 0.0, 1000.0)
    assert one["max"][0] == 1000.0 and np.isnan(one["max"][1])  # 'Máximo = 1ms': read as 1 ms
    text = (PING / "ping--win10-windows-en-6-ipv6-censored-transcribed.txt").read_text()
    text = text.replace("Reply from ::1: time<1ms\n", "Reply from ::1: time<1ms\n...\n", 1)
    t = azlatency.read(text.replace("Maximum = 0ms", "Maximum = 3ms"), tool="ping", strict=False)
    assert t.samples.empty  # the replies left out: the printed statistics stand alone
    mean = t.summaries.set_index("stat").loc["mean"]
    assert (mean["bound_low"], mean["bound_high"]) == (0.0, 2000.0)


POWERSHELL_7 = """\

   Destination: 10.0.0.4

Ping Source           Address                   Latency BufferSize Status
                                                   (ms)        (B)
---- ------           -------                   ------- ---------- ------
   1 vm-client        10.0.0.4                        1         32 Success
   2 vm-client        10.0.0.4                        0         32 Success
   3 vm-client        10.0.0.4                        *          * TimedOut
"""


def test_powershell_7_table():
    # Layout of PowerShell 7.4's Test-Connection table (Microsoft docs example), values ours.
    t = azlatency.read(POWERSHELL_7)
    run = t.runs.iloc[0]
    assert (run.parser_variant, run.src_host, run.dst_ip, run.packets_sent) == (
        "powershell-7",
        "vm-client",
        "10.0.0.4",
        3,
    )
    assert list(t.samples["status"]) == ["ok", "censored", "timeout"]
    assert t.samples["rtt_us"][0] == 1000.0 and pd.isna(t.samples["rtt_us"][1])


# ---------------------------------------------------------------------------------------------
# jc as an oracle for the statistics block.


def _unix_texts():
    out = [
        p
        for p in sorted(PING.glob("ping--*"))
        if not p.name.startswith(("ping--win", "ping--none"))
        and ".expected." not in p.name
        # jc misreads a packets line that ends the text ("+6 errors" with no line under it:
        # no loss, data_bytes 5684); these cut captures have their own tests
        and "-cut-before-" not in p.name
        and "-LANG-" not in p.name  # jc reads iputils in English only
    ]
    if CORPUS.is_dir():
        out += [
            p
            for p in sorted((CORPUS / "ping").glob("ping--*"))
            if p.name.startswith(("ping--linux", "ping--macos", "ping--busybox"))
        ]
    return out


@pytest.mark.parametrize("path", _unix_texts(), ids=lambda p: p.name)
def test_statistics_agree_with_jc(path):
    text = path.read_text(encoding="utf-8")
    t = azlatency.read(path)
    run = t.runs.iloc[0]
    try:
        want = jc.parse("ping", text.split("\n-----")[0], quiet=True)
    except Exception:  # jc fails on outputs without a statistics block (IndexError)
        want = {}
    if "packets_transmitted" not in want:
        assert not run.complete
        return
    assert run.packets_sent == want["packets_transmitted"]
    assert run.packets_received == want["packets_received"]
    assert run.loss_pct == want["packet_loss_percent"]
    assert run.duplicates == want.get("duplicates", 0)
    if "errors" in want:
        assert run.errors == want["errors"]
    if "time_ms" in want:
        assert run.duration_s * 1000 == pytest.approx(want["time_ms"])
    ours = _stats(t)
    for key, stat in (("min", "min"), ("avg", "mean"), ("max", "max")):
        value = want.get(f"round_trip_ms_{key}")
        assert (ours.get(stat) is None) == (value is None)
        if value is not None:
            assert ours[stat] == pytest.approx(value * 1000, abs=1e-9)
    spread = want.get("round_trip_ms_stddev")
    mine = ours.get("mdev", ours.get("std"))
    assert (mine is None) == (spread is None)
    if spread is not None:
        assert mine == pytest.approx(spread * 1000, abs=1e-9)


# ---------------------------------------------------------------------------------------------
# The bulk reader gives what the line reader gives.


def _all_inputs():
    out = [
        p
        for p in sorted(PING.glob("ping--*"))
        if ".expected." not in p.name and "empty" not in p.name
    ]
    if CORPUS.is_dir():
        out += sorted((CORPUS / "ping").glob("ping--*"))
    return out


@pytest.mark.parametrize("path", _all_inputs(), ids=lambda p: p.name)
def test_bulk_reader_matches_line_reader(path, monkeypatch):
    slow = azlatency.read(path)
    monkeypatch.setattr(ping, "FAST_MIN_BYTES", 0)
    fast = azlatency.read(path)
    for name in ("runs", "samples", "summaries"):
        pd.testing.assert_frame_equal(getattr(fast, name), getattr(slow, name))


def test_samples_columns_become_the_frame():
    """Line-reader rows and a bulk chunk, merged in line order, a gap filled, one frame."""
    from azlatency.parsers.ping.runs import Acc, _columns, samples_of, unix_samples

    acc = Acc(0, 9, kind="unix")
    acc.rows = [
        (1, 1, "ok", 29.0, None, 64, 64, 1_700_000_001 * 10**9, None),
        (5, 4, "timeout", None, None, None, None, 1_700_000_004 * 10**9, "no answer yet"),
    ]
    acc.chunks = [
        {
            "idx": np.array([2, 6]),
            "seq": np.array([2, 5]),
            "ttl": np.array([63, 62]),
            "rtt_us": np.array([510.0, 95200.0]),
            "time_ns": np.array([1_700_000_002 * 10**9, 1_700_000_005 * 10**9]),
            "bytes": np.array([64, 64]),
        }
    ]
    s = samples_of(acc)
    assert s.idx.tolist() == [1, 2, 5, 6]
    frame = _columns(unix_samples(acc, s, first_seq=1), "unix")
    assert frame["seq"].tolist() == [1, 2, 3, 4, 5]
    assert frame["status"].tolist() == ["ok", "ok", "lost", "timeout", "ok"]
    assert frame["rtt_us"].tolist()[:2] == [29.0, 510.0] and np.isnan(frame["rtt_us"][2])
    assert frame["ttl"].tolist() == [64, 63, pd.NA, pd.NA, 62]
    assert frame["time_ns"][3] == 1_700_000_004 * 10**9 and pd.isna(frame["time_ns"][2])
    assert frame["message"].isna().tolist() == [True, True, True, False, True]
    assert frame["message"][3] == "no answer yet"
    assert {str(frame[c].dtype) for c in ("seq", "ttl", "payload_bytes", "time_ns")} == {"Int64"}
    assert str(frame["status"].dtype) == str(frame["message"].dtype) == "str"


def test_seq_unwraps_past_65535():
    assert list(unwrap(np.array([65534, 65535, 0, 1]))) == [65534, 65535, 65536, 65537]
    # a late reply from before the wrap stays before it
    assert list(unwrap(np.array([65535, 0, 65534, 1]))) == [65535, 65536, 65534, 65537]


def test_long_run_wraps_and_is_read_in_bulk(monkeypatch):
    lines = ["PING 10.0.0.4 (10.0.0.4) 56(84) bytes of data."]
    lines += [
        f"64 bytes from 10.0.0.4: icmp_seq={i % 65536} ttl=64 time=0.{i % 900 + 100} ms"
        for i in range(1, 70001)
        if i != 65540
    ]
    lines += [
        "",
        "--- 10.0.0.4 ping statistics ---",
        "70000 packets transmitted, 69999 received, 0.00142857% packet loss, time 70000ms",
    ]
    monkeypatch.setattr(ping, "FAST_MIN_BYTES", 0)
    t = azlatency.read("\n".join(lines) + "\n")
    s = t.samples
    assert len(s) == 70000 and s["seq"].iloc[-1] == 70000
    assert list(s["seq"][s["status"] == "lost"]) == [65540]
    assert s["rtt_us"][0] == 101.0 and not (s["status"] == "duplicate").any()


# ---------------------------------------------------------------------------------------------
# Errors.

GARBAGE = """\
PING 10.202.0.2 (10.202.0.2) 56(84) bytes of data.
64 bytes from 10.202.0.2: icmp_seq=1 ttl=64 time=0.029 ms
64 bytes from 10.202.0.2 icmp_seq 2 ttl 64 time 0.041
64 bytes from 10.202.0.2: icmp_seq=3 ttl=64 time=0.025 ms
"""


def test_garbage_where_a_reply_was_expected_is_a_located_error():
    with pytest.raises(ParseError) as info:
        ping.parse(GARBAGE, source="x.txt")
    err = info.value
    assert (err.tool, err.source, err.line_no) == ("ping", "x.txt", 3)
    assert "expected a ping reply" in err.reason and "icmp_seq 2" in err.reason
    with pytest.raises(ParseError, match=r"ping: doc.md:3: expected a ping reply"):
        azlatency.read(GARBAGE, tool="ping", source="doc.md", strict=True)


def test_lenient_read_skips_and_records():
    parsed = ping.parse(GARBAGE, strict=False)
    (run,) = parsed.runs
    assert list(run.samples["seq"]) == [1, 2, 3]
    assert list(run.samples["status"]) == ["ok", "lost", "ok"]
    assert run.warnings == [
        "skipped 1 line that is not ping output: line 3: "
        "'64 bytes from 10.202.0.2 icmp_seq 2 ttl 64 time 0.041'"
    ]


def test_rtt_line_with_missing_value_is_an_error():
    text = "rtt min/avg/max/mdev = 0.718/0.969/2.137 ms\n"
    with pytest.raises(ParseError, match=r":1: expected 4 values for min/avg/max/mdev"):
        ping.parse(text)


def test_no_ping_output_is_an_error():
    with pytest.raises(ParseError, match="no ping output"):
        ping.parse("\n\n")


def test_locate_never_claims_prose():
    lines = [
        "We used ping because PING is quick; the reply from the VM came back.",
        "Request timed out is what Windows says, they told us.",
        "Ping statistics were fine.",
        "--- not a statistics line",
        "time 19235ms",
    ]
    assert ping.locate(lines) == []


def test_numbers_are_exact():
    from azlatency.parsers.ping.runs import ms_to_us

    assert ms_to_us("0.029") == 29.0 and ms_to_us("1148.627") == 1148627.0
    assert ms_to_us("95.2") == 95200.0 and math.isclose(ms_to_us("0.0291"), 29.1)


# macOS ping6 and a BSD ICMP error, in the layouts jc's BSD parser reads (jc/parsers/ping.py
# _bsd_parse: "PING6(", "bytes from ::1, icmp_seq=", "Vr HL TOS" then the header dump row).
MACOS_PING6 = """\
PING6(56=40+8+8 bytes) ::1 --> ::1
16 bytes from ::1, icmp_seq=0 hlim=64 time=0.068 ms
16 bytes from ::1, icmp_seq=1 hlim=64 time=0.112 ms

--- ::1 ping6 statistics ---
2 packets transmitted, 2 packets received, 0.0% packet loss
round-trip min/avg/max/std-dev = 0.068/0.090/0.112/0.022 ms
"""

BSD_ERROR = """\
PING 10.0.0.99 (10.0.0.99): 56 data bytes
92 bytes from 10.0.0.1: Destination Host Unreachable
Vr HL TOS  Len   ID Flg  off TTL Pro  cks      Src      Dst
 4  5  00 5400 3b4e   0 0000  40  01 a9f2 10.0.0.2  10.0.0.99

--- 10.0.0.99 ping statistics ---
1 packets transmitted, 0 packets received, 100.0% packet loss
"""


def test_macos_ping6_agrees_with_jc():
    t = azlatency.read(MACOS_PING6)
    run = t.runs.iloc[0]
    want = jc.parse("ping", MACOS_PING6, quiet=True)
    assert (run.parser_variant, run.protocol, run.dst_ip, run.src_ip) == (
        "bsd",
        "icmpv6",
        "::1",
        "::1",
    )
    assert run.packets_sent == want["packets_transmitted"] == 2
    assert _stats(t)["std"] == want["round_trip_ms_stddev"] * 1000 == 22.0
    assert list(t.samples["ttl"]) == [64, 64] and list(t.samples["payload_bytes"]) == [16, 16]
    assert list(t.samples["rtt_us"]) == [68.0, 112.0]


def test_bsd_icmp_error_skips_the_header_dump():
    t = azlatency.read(BSD_ERROR)
    assert list(t.samples["status"]) == ["error"]
    assert t.samples["message"][0] == "Destination Host Unreachable"
    assert t.runs["loss_pct"][0] == 100.0 and t.runs["errors"][0] == 1


@needs_shared
def test_locate_claims_nothing_in_other_seeds_and_corpus_files():
    from azlatency.decode import decode

    paths = sorted(p for p in (CORPUS.parent / "seeds").iterdir() if not p.name.startswith("000"))
    paths += sorted(p for p in CORPUS.glob("*/*") if p.parent.name != "ping" and p.is_file())
    for path in paths:
        lines = decode(path.read_bytes()).text.split("\n")
        assert ping.locate(lines) == [], path.name  # seed 004 line 146: "From these tests, ..."


def test_prose_that_looks_like_windows_lines_is_not_claimed():
    lines = ["Reply from Bob: thanks, all good.", "From the VM icmp_seq looked fine."]
    assert ping.locate(lines) == []


def _same_runs(a, b) -> None:
    assert len(a.runs) == len(b.runs)
    for x, y in zip(a.runs, b.runs):
        assert (x.line_start, x.line_end, x.meta, x.warnings) == (
            y.line_start,
            y.line_end,
            y.meta,
            y.warnings,
        )
        pd.testing.assert_frame_equal(x.samples, y.samples)
        assert [s.__dict__ for s in x.summaries] == [s.__dict__ for s in y.summaries]


@pytest.mark.parametrize("ending", ["\n", "", "\n\n"])
def test_parse_bytes_reads_ascii_without_decoding(monkeypatch, ending):
    """A long ASCII log: its lines are found and read in the bytes (no text is decoded but
    the few lines the line scanner reads), with what the decoded text gives."""
    lines = ["PING 10.0.0.4 (10.0.0.4) 56(84) bytes of data."]
    lines += [
        f"[1700000000.{i:06d}] 64 bytes from 10.0.0.4: icmp_seq={i} ttl=64 time=0.5{i % 10} ms"
        for i in range(1, 4001)
        if i != 1234
    ]
    lines[2000] += " (DUP!)"
    lines += ["", "--- 10.0.0.4 ping statistics ---"]
    lines += ["4000 packets transmitted, 3999 received, +1 duplicates, 0.025% packet loss"]
    data = ("\n".join(lines) + ending).encode()
    monkeypatch.setattr(ping, "FAST_MIN_BYTES", 0)
    got = ping.parse_bytes(data, source="x.txt")
    assert ping.is_ascii(data) and not ping.is_ascii("é".encode() + data)
    monkeypatch.setattr(ping, "is_ascii", lambda data: False)  # through the decoded text
    _same_runs(got, ping.parse_bytes(data, source="x.txt"))
    (run,) = got.runs
    assert run.samples["status"].value_counts().to_dict() == {"ok": 3998, "lost": 1, "duplicate": 1}
    assert run.meta["packets_sent"] == 4000 and not run.meta["complete"]


def test_parse_bytes_falls_back_to_the_decoder():
    path = PING / "ping--win10-windows-de-cp850-timeout-unreachable-transcribed.txt"
    data = path.read_bytes().replace(b"\r\n", b"\n")  # what the reader's bytes path accepts
    runs = ping.parse_bytes(data, source="de.txt").runs
    assert [r.meta["language"] for r in runs] == ["de", "de"]
    assert [r.meta["packets_received"] for r in runs] == [3, 4]


def test_lines_are_found_in_the_bytes_as_str_split_finds_them():
    from azlatency.parsers.ping.fast import lines_of, utf8

    # (the last text spans three of the 1 MB blocks the newline search goes by)
    for text in ["", "a", "a\n", "\n\n", "é\nb\r\nc", "x" * 2_500_000 + "\ny\n" * 3]:
        lines = lines_of(utf8(text))
        data = lines.data.tobytes()
        got = [data[s:e].decode() for s, e in zip(lines.start.tolist(), lines.end.tolist())]
        assert got == text.split("\n")


def _read_in_bulk(lines: list[str], shape):
    """ping/fast on ``lines`` (padded: the bulk reader leaves a text's last ~100 bytes to the
    line reader)."""
    from azlatency.parsers.ping.fast import lines_of, read_lines

    text = "\n".join([*lines, "x" * 200])
    return read_lines(lines_of(np.frombuffer(text.encode(), np.uint8)), shape)


def test_bulk_shape_check_is_the_shape_regex():
    """The byte-level check in ping/fast accepts exactly the lines shape.pattern matches."""
    from azlatency.parsers.ping.fast import shape_of

    good = "[1795221973.988834] 64 bytes from 10.202.0.2: icmp_seq=1 ttl=64 time=0.029 ms"
    shape = shape_of(good)
    edits = [
        good,
        good.replace("=1 ", "=65535 "),
        good.replace("=1 ", "=123456 "),
        good.replace("0.029", "0.0291"),
        good.replace("0.029", "1119"),
        good.replace("0.029", "95.2"),
        good.replace("0.029", "1234567"),
        good.replace("0.029", "0."),
        good.replace("0.029", ".5"),
        good + " ",
        good + "\r",
        good + " (DUP!)",
        good[:-3],
        good.replace("[1795", "[x795"),
        good.replace("973.", "973,"),
        good.replace("[1795221973", "[179522197"),
        good.replace("10.202.0.2", "10.202.0.3"),
        good.replace("ttl=64", "ttl=1000"),
        good.replace("ttl=64", "ttl="),
        good.replace("ttl=64 ", "ttl=64  "),
        good.replace("=1 ", "= "),
        good.replace(" ms", "ms"),
        good.replace("time=", "time<"),
        "",
        "x" * 120,
        good.replace("]", ":"),
        good.replace(".988834", ".98883a"),
    ]
    got = set(_read_in_bulk(edits, shape).idx.tolist())
    want = {i for i, line in enumerate(edits) if re.match(shape.pattern, line)}
    assert got == want == {0, 1, 4, 5}  # plain, seq 65535, "1119 ms", "95.2 ms"


@pytest.mark.parametrize(
    "good",
    [
        "[1795221973.988834] 64 bytes from 10.202.0.2: icmp_seq=1 ttl=64 time=0.029 ms",
        "[1700000000.1] 64 bytes from h: icmp_req=12345 ttl=255 time=123456.789 ms",
        "64 bytes from 10.0.0.4: seq=0 ttl=1 time=5 ms",
    ],
)
def test_bulk_reader_reads_what_the_regex_reads(good):
    """Random one-byte edits of a reply: the bulk reader keeps exactly the lines that match
    the shape's regex, with the numbers the line scanner reads from them."""
    from azlatency.parsers.ping.fast import shape_of
    from azlatency.parsers.ping.grammar import Scanner
    from azlatency.parsers.ping.runs import ms_to_us

    shape = shape_of(good)
    rng = np.random.default_rng(39)
    alphabet = "0123456789 .=:[]msx\x00\xff"
    edits = [good]
    for _ in range(3000):
        i = int(rng.integers(len(good)))
        op, c = int(rng.integers(3)), alphabet[int(rng.integers(len(alphabet)))]
        edits.append(good[:i] + c + good[i + (op > 0) :] if op < 2 else good[:i] + good[i + 1 :])
    got = _read_in_bulk(edits, shape)
    want = [i for i, line in enumerate(edits) if re.match(shape.pattern, line)]
    assert got.idx.tolist() == want and 100 < len(want) < 2000
    for k, i in enumerate(want):
        (event,) = Scanner().scan(i, edits[i])
        d = event.data
        assert (got.seq[k], got.ttl[k]) == (int(d["seq"]), int(d["ttl"]))
        assert got.rtt_us[k] == ms_to_us(d["ms"])
        if got.time_ns is not None:
            sec, frac = d["ts"].split(".")
            assert got.time_ns[k] == int(sec) * 10**9 + int(frac.ljust(9, "0"))


# ---------------------------------------------------------------------------------------------
# Logs cut short inside the statistics block or inside a reply (issue 26: no silent wrong
# answers).  Every dialect prints its round-trip line whenever a timed reply came back.


def _cut(path: Path, n: int) -> bytes:
    """The first ``n`` lines of a real capture, as a log cut while ping was writing."""
    data = path.read_bytes()
    nl = b"\r\n" if b"\r\n" in data else b"\n"
    return nl.join(data.split(nl)[:n])


def test_busybox_cut_before_the_round_trip_line_is_incomplete():
    t = _fx("ping--busybox-1.35.0-linux-c4-cut-before-round-trip.txt")
    run = t.runs.iloc[0]
    assert not run.complete
    assert run.warnings == (
        "no 'round-trip min/avg/max' line after line 8 (cut short?): the reported rtt is missing"
    )
    # "4 packets transmitted, 4 packets received, 0% packet loss" is still read
    assert (run.packets_sent, run.packets_received, run.loss_pct) == (4, 4, 0.0)
    assert _stats(t) == {"count": 4}  # no min/avg/max is made up
    # seq=0..3: time=0.043, 0.064, 0.068, 0.065 ms
    assert list(_samples(t)["rtt_us"]) == [43.0, 64.0, 68.0, 65.0]
    assert _stats(t, source="computed")["mean"] == 60.0
    whole = _fx("ping--busybox-1.35.0-linux-c4-ok.txt")
    assert whole.runs["complete"][0] and pd.isna(whole.runs["warnings"][0])


def test_iputils_and_windows_cut_before_the_rtt_lines():
    data = _cut(PING / "ping--iputils-20221126-linux-c15-i0.2-gap-partial-loss.txt", 14)
    for strict in (True, False):
        run = azlatency.read(data, strict=strict).runs.iloc[0]
        assert not run.complete and (run.packets_sent, run.packets_received) == (15, 10)
        assert run.warnings == (
            "no 'rtt min/avg/max' line after line 14 (cut short?): the reported rtt is missing"
        )
    # Windows: cut after "Approximate round trip times in milli-seconds:" (line 11)
    path = corpus("ping", "ping--windows-en-multi-run--lindahl2010.txt")
    t = azlatency.read(_cut(path, 11))
    (run,) = t.runs.itertuples()
    assert not run.complete and run.packets_received == 5
    assert run.warnings.endswith(
        "; no 'Minimum = ..., Maximum = ..., Average = ...' line after line 11 (cut short?): "
        "the reported rtt is missing"
    )
    # the same run whole: "Minimum = 13ms, Maximum = 15ms, Average = 14ms"
    whole = azlatency.read(path)
    assert whole.runs["complete"].all()
    assert _stats(whole) == {"count": 5, "min": 13000.0, "max": 15000.0, "mean": 14000.0}


def test_no_rtt_line_is_expected_without_a_timed_reply():
    # iputils total loss: "0 received, +5 errors", then "pipe 5"
    t = _fx("ping--iputils-20221126-linux-c5-unreachable-total-loss.txt")
    assert t.runs["complete"][0] and pd.isna(t.runs["warnings"][0])
    # BusyBox total loss prints no round-trip line
    t = _fx("ping--busybox-1.35.0-linux-c3-total-loss.txt")
    assert t.runs["complete"][0] and pd.isna(t.runs["warnings"][0])
    # Windows counts "Destination host unreachable." replies as received (Received = 3) and
    # prints no round-trip block for them
    t = _fx("ping--win10-windows-en-unreachable-timeout-transcribed.txt")
    assert t.runs["complete"][0] and t.runs["packets_received"][0] == 3
    assert "cut short" not in t.runs["warnings"][0]


def test_iputils_total_loss_cut_before_its_closing_line():
    # iputils writes one line under the packets line, always: rtt, "pipe N" or an empty line.
    t = _fx("ping--iputils-20221126-linux-D-O-c6-cut-before-pipe.txt")
    run = t.runs.iloc[0]
    assert not run.complete and pd.isna(run.labels)  # the whole file says {"pipe": 6}
    assert run.warnings == (
        "the output ends at the packets line (line 15), without the line iputils writes under "
        "it ('pipe N' or an empty line): cut short?"
    )
    assert (run.packets_sent, run.packets_received, run.errors) == (6, 0, 6)
    whole = _fx("ping--iputils-20221126-linux-D-O-c6-no-answer-yet.txt")
    assert whole.runs["complete"][0] and whole.runs["labels"][0] == '{"pipe": 6}'
    # pipe 1: the closing line is empty; the capture ends "time 1532ms\n\n"
    name = "ping--iputils-20221126-linux-6-c4-unreachable.txt"
    t = _fx(name)
    assert t.runs["complete"][0] and pd.isna(t.runs["warnings"][0])
    # ... also inside a document, where the block is located (its empty line kept)
    doc = b"# notes\n\n" + (PING / name).read_bytes() + b"That was all.\n"
    t = azlatency.read(doc)
    assert t.runs["complete"][0] and pd.isna(t.runs["warnings"][0])
    # the same capture cut at its packets line (line 8), with or without its newline
    for data in (_cut(PING / name, 8), _cut(PING / name, 8) + b"\n"):
        run = azlatency.read(data).runs.iloc[0]
        assert not run.complete and "line 8), without the line iputils" in run.warnings
    # the big-file path (ping.parse_bytes) agrees
    assert ping.parse_bytes((PING / name).read_bytes()).runs[0].meta["complete"]
    assert not ping.parse_bytes(_cut(PING / name, 8) + b"\n").runs[0].meta["complete"]


def test_reply_cut_inside_its_time_is_not_read_as_a_reply():
    # "1408 bytes from 10.202.0.2: icmp_seq=2 ttl=64 time=0.042 ms" cut to "time=0.04"
    data = _cut(PING / "ping--iputils-20221126-linux-s1400-c4-payload.txt", 3)[:-4]
    assert data.endswith(b"time=0.04")
    with pytest.raises(ParseError) as info:
        azlatency.read(data, source="cut.txt", strict=True)
    assert info.value.line_no == 3 and "ends in 'time=0.04' (cut short?)" in info.value.reason
    run = azlatency.read(data, strict=False).runs.iloc[0]
    assert not run.complete and "line 3 skipped: expected a whole reply line" in run.warnings
    t = azlatency.read(data, strict=False)
    assert list(t.samples["seq"]) == [1] and list(t.samples["rtt_us"]) == [23.0]
    # Windows: "Reply from 172.217.1.36: bytes=32 time=13ms TTL=54" cut to "time=1"
    path = corpus("ping", "ping--windows-en-multi-run--lindahl2010.txt")
    data = _cut(path, 3)
    data = data[: data.rindex(b"time=1") + len(b"time=1")]
    with pytest.raises(ParseError, match=r":3: expected a whole reply line, got one that ends"):
        azlatency.read(data, strict=True)
    t = azlatency.read(data, strict=False)
    assert not len(t.samples) and not t.runs["complete"][0]


def test_replies_without_times_have_no_rtt_line_to_miss():
    # "ping -s 8": "16 bytes from 127.0.0.1: icmp_seq=1 ttl=64", "3 received", no rtt line
    t = _fx("ping--iputils-20221126-linux-lo-s8-c3-no-times.txt")
    run = t.runs.iloc[0]
    assert run.complete and pd.isna(run.warnings) and run.packets_received == 3
    assert list(t.samples["status"]) == ["ok"] * 3 and t.samples["rtt_us"].isna().all()
    assert list(t.samples["payload_bytes"]) == [16] * 3 and _stats(t) == {"count": 3}


# ---------------------------------------------------------------------------------------------
# Real shapes other parsers' test suites hold (issue 26, item 7): each read as one whole run.

_IPUTILS = """PING 10.0.0.4 (10.0.0.4) 56(84) bytes of data.
64 bytes from 10.0.0.4: icmp_seq=1 ttl=64 time=0.512 ms
64 bytes from 10.0.0.4: icmp_seq=2 ttl=64 time=0.498 ms

--- 10.0.0.4 ping statistics ---
2 packets transmitted, 2 received, 0% packet loss, time 1001ms
rtt min/avg/max/mdev = 0.498/0.505/0.512/0.007 ms"""


def _one(text, **kw):
    t = azlatency.read(text, **kw)
    assert len(t.runs) == 1, t.runs
    return t, t.runs.iloc[0]


def test_macos_icmp_error_naming_its_host_is_a_sample_not_a_split():
    text = """PING example.com (93.184.216.34): 56 data bytes
64 bytes from 93.184.216.34: icmp_seq=0 ttl=56 time=11.632 ms
92 bytes from router.lan (192.168.1.1): Destination Host Unreachable
Vr HL TOS  Len   ID Flg  off TTL Pro  cks      Src      Dst
 4  5  00 5400 4c9a   0 0000  3f  01 e9a7 192.168.1.10  93.184.216.34

64 bytes from 93.184.216.34: icmp_seq=2 ttl=56 time=12.100 ms

--- example.com ping statistics ---
3 packets transmitted, 2 packets received, 33.3% packet loss
round-trip min/avg/max/stddev = 11.632/11.866/12.100/0.234 ms"""
    t, run = _one(text)
    assert (run.parser_variant, run.dst_host, run.dst_ip) == ("bsd", "example.com", "93.184.216.34")
    assert (run.packets_sent, run.packets_received, run.complete) == (3, 2, True)
    assert pd.isna(run.warnings)
    errors = t.samples[t.samples["status"] == "error"]
    assert errors["message"].tolist() == ["Destination Host Unreachable"]
    assert t.samples.loc[t.samples["status"] == "ok", "rtt_us"].tolist() == [11632.0, 12100.0]


def test_iputils_empty_host_name():
    text = _IPUTILS.replace("PING 10.0.0.4 (", "PING  (").replace("--- 10.0.0.4 ping", "---  ping")
    t, run = _one(text)
    assert pd.isna(run.dst_host) and run.dst_ip == "10.0.0.4" and run.msg_size_bytes == 56
    assert (run.packets_sent, run.packets_received, run.complete) == (2, 2, True)
    assert pd.isna(run.warnings) and len(t.samples) == 2


@pytest.mark.parametrize("indent", ["    ", "  ", "\t"])
def test_indented_output_is_found_and_read_whole(indent):
    """A 4-space Markdown code block, a 2-space quote, a tab: still ping's output."""
    body = "\n".join(indent + line if line else line for line in _IPUTILS.split("\n"))
    t, run = _one(f"Results:\n\n{body}\n\nThat was fast.\n")
    assert (run.line_start, run.line_end, run.dst_ip, run.msg_size_bytes) == (3, 9, "10.0.0.4", 56)
    assert (run.packets_received, run.complete) == (2, True) and pd.isna(run.warnings)
    assert t.samples["rtt_us"].tolist() == [512.0, 498.0]
    assert t.summaries.query("source == 'reported' and stat == 'mean'")["value"].item() == 505.0


def test_iputils_ipv6_named_header_captured():
    run = read_fixture(
        FIXTURES / "ping" / "ping--iputils-20221126-linux-ip6-localhost-named-ipv6-header.txt"
    )
    run = run.runs.iloc[0]
    assert (run.dst_host, run.dst_ip, run.protocol, run.msg_size_bytes) == (
        "ip6-localhost",
        "::1",
        "icmpv6",
        56,
    )


@pytest.mark.parametrize(
    ("name", "src", "ip", "protocol"),
    [
        ("ping--iputils-20221126-linux-I-lo-ipv6-from-iface.txt", "::1", "::1", "icmpv6"),
        (
            "ping--iputils-20221126-linux-I-address-from-no-iface.txt",
            "127.0.0.1",
            "127.0.0.1",
            "icmp",
        ),
    ],
)
def test_iputils_dash_I_headers_captured(name, src, ip, protocol):
    run = read_fixture(FIXTURES / "ping" / name).runs.iloc[0]
    assert (run.src_ip, run.dst_ip, run.protocol, run.msg_size_bytes) == (src, ip, protocol, 56)


def test_bsd_ping6_title_names_the_host():
    text = """PING6(56=40+8+8 bytes) ::1 --> ::1
16 bytes from ::1, icmp_seq=0 hlim=64 time=0.063 ms
16 bytes from ::1, icmp_seq=1 hlim=64 time=0.105 ms

--- localhost ping6 statistics ---
2 packets transmitted, 2 packets received, 0.0% packet loss
round-trip min/avg/max/std-dev = 0.063/0.084/0.105/0.021 ms"""
    _, run = _one(text)
    assert (run.dst_host, run.dst_ip, run.src_ip, run.protocol) == (
        "localhost",
        "::1",
        "::1",
        "icmpv6",
    )


def test_windows_french_with_accents_stripped():
    text = """Envoi d'une requete 'Ping'  10.0.0.1 avec 32 octets de donnees:
Reponse de 10.0.0.1 : octets=32 temps=1 ms TTL=64
Delai d'attente de la demande depasse.
Reponse de 10.0.0.1 : octets=32 temps=2 ms TTL=64

Statistiques Ping pour 10.0.0.1:
    Paquets : envoyes = 3, recus = 2, perdus = 1 (perte 33%),
Duree approximative des boucles en millisecondes :
    Minimum = 1ms, Maximum = 2ms, Moyenne = 1ms"""
    t, run = _one(text)
    assert (run.parser_variant, run.packets_sent, run.packets_received, run.loss_pct) == (
        "windows-fr",
        3,
        2,
        33.0,
    )
    assert t.samples["status"].tolist() == ["ok", "timeout", "ok"]
    assert t.samples["rtt_us"].dropna().tolist() == [1000.0, 2000.0]


@pytest.mark.parametrize(
    ("name", "encoding", "variant", "statuses"),
    [
        (
            "ping--win10-windows-ru-cp866-timeout-unreachable-transcribed.txt",
            "cp866",
            "windows-ru",
            ["ok", "timeout", "censored", "error"],
        ),
        (
            "ping--win10-windows-zh-tw-cp950-timeout-censored-transcribed.txt",
            "cp950",
            "windows-zh-tw",
            ["censored", "ok", "timeout", "censored"],
        ),
    ],
)
def test_windows_russian_and_traditional_chinese(name, encoding, variant, statuses):
    t = read_fixture(FIXTURES / "ping" / name)
    run = t.runs.iloc[0]
    assert (run.encoding, run.parser_variant, run.dst_ip, run.msg_size_bytes) == (
        encoding,
        variant,
        "10.0.0.4",
        32,
    )
    assert (run.packets_sent, run.packets_received, run.loss_pct, run.complete) == (
        4,
        3,
        25.0,
        True,
    )
    assert t.samples["status"].tolist() == statuses
    reported = t.summaries.query("source == 'reported'").set_index("stat")
    # 'Минимальное = 0мсек' is a time<1ms reply's 0: below 1000 µs; 'Максимальное = 1 мсек'
    assert tuple(reported.loc["min", ["value", "bound_low", "bound_high"]]) == (1000, 0, 1000)
    assert reported.loc["max", "value"] == 1000.0 and np.isnan(reported.loc["max", "bound_low"])


@pytest.mark.parametrize("encoding", ["cp866", "cp1251"])
def test_russian_code_pages_are_told_apart(encoding):
    """cmd.exe writes cp866, other programs cp1251: each is read as itself."""
    path = FIXTURES / "ping" / "ping--win10-windows-ru-cp866-timeout-unreachable-transcribed.txt"
    data = path.read_bytes().decode("cp866").encode(encoding)
    t = azlatency.read(data, source="ru.txt")
    assert t.runs.iloc[0].encoding == encoding
    assert t.runs.iloc[0].parser_variant == "windows-ru" and len(t.samples) == 4


# --- issue 38: stray lines in real transcripts ---------------------------------------------


@needs_shared
@pytest.mark.parametrize("line", ["WARNING: x", ">"])
@pytest.mark.parametrize("at", [3, 4, 12])
def test_powershell_table_keeps_its_rows_past_a_line_between_header_and_rule(line, at):
    """A line between a Test-Connection table's header and its rule (a warning PowerShell
    prints, a bare quote marker) closed the table: its four rows were lost (12 -> 8 samples)
    and the header alone was a 'complete' run."""
    path = corpus("ping", "ping--powershell-test-connection-utf16le--ntig-umea.txt")
    text = path.read_bytes().decode("utf-16")
    lines = text.split("\r\n")
    whole = azlatency.read(path)
    for strict in (True, False):
        t = azlatency.read("\r\n".join(lines[: at - 1] + [line] + lines[at - 1 :]), strict=strict)
        assert len(t.samples) == 12 and len(t.runs) == 3
        assert list(t.samples["rtt_us"]) == list(whole.samples["rtt_us"])


@pytest.mark.parametrize("strict", [True, False])
def test_powershell_rows_run_together_are_read_one_by_one(strict):
    """Two rows of a Test-Connection table run together by a lost line break, each padded to
    the rule's width ('...  32       13       5CD225N9R5    8.8.8.8 ...'): the line was no
    row, and one reply of twelve was lost (named as a line that is not ping's).  Both rows
    are read, and the run names the line."""
    path = corpus("ping", "ping--powershell-test-connection-utf16le--ntig-umea.txt")
    lines = path.read_bytes().decode("utf-16").split("\r\n")
    assert len(lines[4]) == len(lines[2]) == 106  # a row, and the rule
    t = azlatency.read("\r\n".join(lines[:4] + [lines[4] + lines[5]] + lines[6:]), strict=strict)
    whole = azlatency.read(path)
    assert list(t.samples["rtt_us"]) == list(whole.samples["rtt_us"])  # 12 replies
    assert "read one by one: line 5" in t.runs["warnings"].iloc[0]


def test_a_stray_line_before_iputils_closing_empty_line():
    """iputils writes an empty line under the packets line when there is no rtt line: a
    foreign line between them made the run 'cut short?' (incomplete)."""
    name = "ping--iputils-20221126-linux-6-c4-unreachable.txt"
    lines = (PING / name).read_text().split("\n")
    t = azlatency.read("\n".join(lines[:8] + ["12.5"] + lines[8:]))
    run = t.runs.iloc[0]
    assert bool(run.complete) and run.packets_sent == 4 and run.errors == 4
    assert "line 9: '12.5'" in run.warnings


@needs_shared
def test_windows_transcript_cut_inside_the_packets_line_keeps_its_counts():
    """Cut after 'Lost = 0 (0% l': the three counts are whole (sent - received = lost), so
    they are read, the loss computed, and the run says the line was cut (it was read as no
    counts at all, with no word about the line)."""
    text = corpus("ping", "ping--windows-en-win7--pingparsing.txt").read_text()
    lines = text.rstrip().split("\n")
    i = next(k for k, x in enumerate(lines) if "Packets:" in x)
    for strict in (True, False):
        t = azlatency.read("\n".join(lines[:i] + [lines[i][:-9]]), strict=strict)
        run = t.runs.iloc[0]
        assert (run.packets_sent, run.packets_received, run.loss_pct) == (10, 10, 0.0)
        assert not run.complete
        assert f"line {i + 1}: the packets line is cut short after its counts" in run.warnings
    # "Lost = 1" of a line cut inside "Lost = 10": the counts do not add up, nothing is read
    cut = "    Packets: Sent = 10, Received = 0, Lost = 1"
    t = azlatency.read("\n".join(lines[:i] + [cut]))
    assert pd.isna(t.runs.iloc[0].packets_sent)


def test_a_short_run_pasted_twice_says_so():
    """Six lost probes are too few figures to tell a copy from a coincidence; their lines,
    word for word, are not."""
    path = PING / "ping--iputils-20221126-linux-D-O-c6-cut-before-pipe.txt"
    text = path.read_text()
    got = azlatency.read(text + "\n" + text)
    assert len(got.runs) == 2
    assert "the same figures as the run at lines 1-15: a repeated copy?" in got.runs["warnings"][1]


@pytest.mark.parametrize("strict", [True, False])
@pytest.mark.parametrize("printed", ["time=nan ms", "time=inf ms", "time=- ms"])
def test_a_reply_whose_time_is_no_number_is_named(printed, strict):
    """BusyBox 1.35's reply 'seq=1 ... time=0.061 ms' with its time damaged: the reply is
    kept (it came back), without a round trip, and the run names the line; it was an 'ok'
    reply with no time and no word, as iputils prints one whose payload holds no time."""
    path = FIXTURES / "ping" / "ping--busybox-1.35.0-linux-6-c3-ipv6.txt"
    text = path.read_text().replace("time=0.061 ms", printed, 1)
    t = azlatency.read(text, strict=strict)
    assert (
        t.runs["warnings"][0]
        == f"line 3: '{printed}' is no round trip; the reply is kept without one"
    )
    s = t.samples.set_index("seq")
    assert s.loc[1, "status"] == "ok" and pd.isna(s.loc[1, "rtt_us"])
    assert s["rtt_us"].tolist()[::2] == [36.0, 72.0]


@pytest.mark.parametrize("strict", [True, False])
@pytest.mark.parametrize(
    ("name", "first", "what"),
    [
        # header + first reply; title + packets line; packets line + round-trip line
        ("ping--busybox-1.35.0-linux-c4-ok.txt", "PING 10.202.0.2", "header"),
        ("ping--busybox-1.35.0-linux-c3-total-loss.txt", "--- 10.202.0.99 ping", "title"),
        ("ping--iputils-20221126-linux-D-O-c15-gap-partial-loss.txt", "15 packets", "packets"),
        # two error lines (the first's message took the second); the packets line and -O's
        # 'pipe 5'; two -D lines
        (
            "ping--iputils-20221126-linux-c5-unreachable-total-loss.txt",
            "From 10.202.0.1 icmp_seq=3",
            "errors",
        ),
        ("ping--iputils-20221126-linux-c5-unreachable-total-loss.txt", "5 packets", "pipe"),
        ("ping--iputils-20221126-linux-D-c5-timestamps.txt", "[1795221974.394283]", "-D"),
        # Windows: the header and a reply; two replies ('Reply from ::1: time<1msReply from
        # ::1: time<1ms' read as one failure); the title and the packets line
        ("ping--win10-windows-en-6-ipv6-censored-transcribed.txt", "Pinging ::1", "win header"),
        ("ping--win10-windows-en-6-ipv6-censored-transcribed.txt", "Reply from ::1", "win replies"),
        (
            "ping--win10-windows-en-unreachable-timeout-transcribed.txt",
            "Ping statistics",
            "win title",
        ),
        # two replies or errors of the same kind in iputils' other languages, or without
        # times ('... ttl=6416 bytes from ...'): the first reply's rest took the second
        (
            "ping--iputils-20250605-33-linux-LANG-de_DE-c5.txt",
            "64 Bytes von 10.77.40.2: icmp_seq=2",
            "de",
        ),
        (
            "ping--iputils-20250605-33-linux-LANG-cs_CZ-c5.txt",
            "64 bajtů",  # the first reply (a no-break space after "z")
            "cs",
        ),
        (
            "ping--iputils-20250605-33-linux-LANG-de_DE-c4-unreachable.txt",
            "Von 10.77.40.1 icmp_seq=2",
            "de error",
        ),
        (
            "ping--iputils-20221126-linux-lo-s8-c3-no-times.txt",
            "16 bytes from 127.0.0.1: icmp_seq=1",
            "no times",
        ),
        # a translated header and the first error line; a translated title and packets line
        (
            "ping--iputils-20250605-33-linux-LANG-de_DE-c4-unreachable.txt",
            "PING 10.77.40.9",
            "de header",
        ),
        ("ping--iputils-linux-LANG-de-c5-elided-ipv6--mtr-issue450.txt", "--- 2a00", "de title"),
    ],
)
def test_ping_lines_run_together_are_read_one_by_one(name, first, what, strict):
    """A lost line break joins two of ping's lines ('... time 14007msrtt min/avg/max/mdev =
    ...'): the second was lost without a word (a study joining adjacent lines of every
    fixture).  Both are read, as from the two lines, and the run names the line."""
    text = (PING / name).read_text(encoding="utf-8")
    bad, i = joined(text, first)
    base, got = azlatency.read(text, strict=strict), azlatency.read(bad, strict=strict)
    assert_same_reading(base, got)
    said = "; ".join(got.runs["warnings"].dropna())
    assert (
        f"held several of ping's lines run together (line breaks lost), read one by one: line {i + 1}"
        in said
    )


@needs_shared
@pytest.mark.parametrize("strict", [True, False])
def test_a_reply_and_busyboxs_sendto_error_run_together(strict):
    """'... time=17.944 msping: sendto: Network unreachable': the reply's rest took BusyBox's
    error line without a word; both are read and the line named."""
    text = corpus("ping", "ping--busybox-alpine-unreachable-fixture--gping.txt").read_text("utf-8")
    bad, i = joined(text, "64 bytes from 142.250.178.14: seq=2")
    base, got = azlatency.read(text, strict=strict), azlatency.read(bad, strict=strict)
    assert_same_reading(base, got)
    said = "; ".join(got.runs["warnings"].dropna())
    assert f"read one by one: line {i + 1}" in said


@pytest.mark.parametrize("strict", [True, False])
def test_a_packets_line_wrapped_keeps_its_time(strict):
    """iputils' packets line with errors is 75 characters ('4 packets transmitted, 0
    received, +4 errors, 100% packet loss, time 1532ms'); a copy wrapped at 72 puts '1532ms'
    on a line of its own, and the run lost its duration without a word (the wrap study).
    The two lines are read as one, and the run names them."""
    name = "ping--iputils-20221126-linux-6-c4-unreachable.txt"
    lines = (PING / name).read_text().split("\n")
    assert lines[7].endswith(", time 1532ms")
    cut = lines[7].rfind(" ")
    t = azlatency.read(
        "\n".join([*lines[:7], lines[7][:cut], lines[7][cut + 1 :], *lines[8:]]), strict=strict
    )
    run = t.runs.iloc[0]
    assert run.duration_s == 1.532 and bool(run.complete)
    assert (
        run.warnings
        == "lines 8-9: the packets line broken in two (a copy wrapped at its width?), read as one"
    )
