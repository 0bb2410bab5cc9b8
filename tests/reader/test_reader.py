"""How ``azlatency.read`` splits documents into blocks, on the seed documents."""

from __future__ import annotations

import codecs
import hashlib
import warnings

import pandas as pd
import pytest

import azlatency
from azlatency.decode import decode
from azlatency.errors import DetectionError, NothingMeasured, ParseError
from azlatency.parsers import modules
from tests.conftest import FIXTURES, SEEDS, needs_shared, seed

ALL_SEEDS = sorted(SEEDS.glob("*")) if SEEDS.is_dir() else []
# Seeds 003 (fio commands, screenshots of results) and 004 (tables of numbers) hold no tool
# output at all: reading them is a DetectionError (tested below).
NO_OUTPUT = ("003", "004")
SEED_FILES = [p for p in ALL_SEEDS if p.name[:3] not in NO_OUTPUT]


def _read(data, **kw):
    return azlatency.read(data, strict=False, **kw)


@needs_shared
@pytest.mark.parametrize("prefix", NO_OUTPUT)
def test_seed_without_output_is_a_detection_error(prefix):
    with pytest.raises(DetectionError, match="no known tool output found; looked for: "):
        azlatency.read(seed(prefix))


def _lines(path) -> list[str]:
    return decode(path.read_bytes()).text.split("\n")


# ---------------------------------------------------------------------------------------------
# seed 002: latte blocks in a blog page


@needs_shared
def test_seed002_latte_blocks_carry_context_and_command():
    t = azlatency.read(seed("002"))
    done = t.runs[(t.runs.tool == "latte") & t.runs.complete]
    assert list(done.context) == ["Sender:", "Receiver:"]  # 002:126, 002:145
    assert list(done.command) == [  # 002:128, 002:147 (after the C:\Temp> prompt)
        "latte -c -a 10.0.0.5:5005 -i 65100",
        "latte -a 10.0.0.5:5005 -i 65100",
    ]
    assert done.heading.isna().all()  # a blog page: no markdown headings


@needs_shared
def test_seed002_line_ranges_are_absolute_in_the_file():
    lines = _lines(seed("002"))
    t = azlatency.read(seed("002"))
    done = t.runs[t.runs.complete]
    first = [lines[i - 1] for i in done.line_start]
    last = [lines[i - 1] for i in done.line_end]
    assert first == [
        r"C:\Temp>latte -c -a 10.0.0.5:5005 -i 65100",
        r"C:\Temp>latte -a 10.0.0.5:5005 -i 65100",
    ]
    assert last == ["Interrupt/sec 1100 (2.23/iteration)", "Interrupt/sec 1068 (2.17/iteration)"]


# ---------------------------------------------------------------------------------------------
# nothing to find


@needs_shared
def test_commands_without_output_raise_detection_error_listing_what_was_looked_for():
    # seed 003 shows fio commands whose outputs are screenshots: nothing to parse
    with pytest.raises(DetectionError) as info:
        azlatency.read(seed("003"))
    message = str(info.value)
    assert "no known tool output found; looked for:" in message and "003_" in message
    for module in modules():
        assert f"{module.INFO.tool} ({module.INFO.description})" in message


def test_prose_raises_detection_error():
    with pytest.raises(DetectionError, match="no known tool output found"):
        azlatency.read("Latency between the zones was about 2 ms.\nWe used several tools.\n")


@pytest.mark.parametrize(
    "data", ["", "  \n\n\t\n", b"", b"\n\r\n", codecs.BOM_UTF16_LE + " \n".encode("utf-16-le")]
)
def test_empty_input_is_a_detection_error(data):
    with pytest.raises(DetectionError, match="empty input"):
        azlatency.read(data)


# ---------------------------------------------------------------------------------------------
# every seed that holds outputs some parser finds


@needs_shared
@pytest.mark.parametrize("path", SEED_FILES, ids=[p.name[:3] for p in SEED_FILES])
def test_run_ids_are_stable_and_distinct(path):
    data = path.read_bytes()
    a, b = _read(data), _read(data)
    assert list(a.runs.run_id) == list(b.runs.run_id)
    assert a.runs.run_id.is_unique
    sha = hashlib.sha256(data).hexdigest()[:12]
    expected = [f"{sha}-{blk:03d}-{k:03d}" for blk, k in _block_and_index(a.runs)]
    assert list(a.runs.run_id) == expected
    pd.testing.assert_frame_equal(a.summaries, b.summaries)


def _block_and_index(runs: pd.DataFrame):
    seen: dict[int, int] = {}
    for blk in runs.block:
        seen[blk] = seen.get(blk, -1) + 1
        yield blk, seen[blk]


@needs_shared
@pytest.mark.parametrize("path", SEED_FILES, ids=[p.name[:3] for p in SEED_FILES])
def test_blocks_are_disjoint_ordered_and_inside_the_file(path):
    t = _read(path)
    n = len(_lines(path))
    spans = t.runs.groupby("block").agg(start=("line_start", "min"), end=("line_end", "max"))
    assert (spans.start >= 1).all() and (spans.end <= n).all() and (spans.start <= spans.end).all()
    assert list(spans.index) == sorted(spans.index)
    assert (spans.start.iloc[1:].to_numpy() > spans.end.iloc[:-1].to_numpy()).all()


@needs_shared
@pytest.mark.parametrize("variant", ["crlf", "utf-16-crlf", "utf-8-bom"])
@pytest.mark.parametrize("path", SEED_FILES, ids=[p.name[:3] for p in SEED_FILES])
def test_encodings_and_line_ends_give_the_same_runs(path, variant):
    raw = path.read_bytes()
    text = raw.decode("utf-8")
    if "crlf" in variant:
        text = text.replace("\n", "\r\n")
    if variant.startswith("utf-16"):  # PowerShell's `>`: UTF-16 LE with BOM, CRLF
        data = codecs.BOM_UTF16_LE + text.encode("utf-16-le")
    elif variant == "utf-8-bom":
        data = codecs.BOM_UTF8 + text.encode("utf-8")
    else:
        data = text.encode("utf-8")
    a = _read(raw, source=path.name)
    b = azlatency.read(data, source=path.name, strict=False)
    differ = ["run_id", "source_sha256", "encoding"]
    pd.testing.assert_frame_equal(a.runs.drop(columns=differ), b.runs.drop(columns=differ))
    pd.testing.assert_frame_equal(
        a.summaries.drop(columns="run_id"), b.summaries.drop(columns="run_id")
    )
    pd.testing.assert_frame_equal(
        a.samples.drop(columns="run_id"), b.samples.drop(columns="run_id")
    )
    encoding = {"crlf": "utf-8", "utf-16-crlf": "utf-16-le", "utf-8-bom": "utf-8-sig"}[variant]
    assert set(b.runs.encoding) == {encoding}


def _same_tables(a, b) -> None:
    for name in ("runs", "samples", "summaries"):
        pd.testing.assert_frame_equal(getattr(a, name), getattr(b, name))
    assert [str(e) for e in a.problems] == [str(e) for e in b.problems]


def _outcome(what, **kw):
    try:
        return azlatency.read(what, **kw)
    except Exception as exc:  # compared by type and message
        return (type(exc), str(exc))


@pytest.mark.parametrize(
    "every", [False, pytest.param(True, marks=pytest.mark.slow)], ids=["half", "every"]
)
def test_mapped_files_read_as_their_bytes(monkeypatch, every):
    """Files from ``MAP_BYTES`` on are mapped, not read; with the threshold at one byte every
    fixture goes that way and must give what its bytes give (tables or the same error).
    make test takes every other fixture (of every tool), make test-slow all of them."""
    from azlatency import reader
    from tests._expected import fixture_files

    monkeypatch.setattr(reader.files, "MAP_BYTES", 1)
    files = fixture_files()
    assert len(files) > 150
    for path in files if every else files[::2]:
        for strict in (True, False):  # lenient only where the strict read fails
            mapped = _outcome(path, strict=strict)
            read = _outcome(path.read_bytes(), source=str(path), strict=strict)
            if isinstance(read, tuple):
                assert mapped == read, path
            else:
                _same_tables(mapped, read)
                break


def test_mapped_file_answers_like_bytes(tmp_path):

    from azlatency.reader.files import _Mapped

    raw = b"  \n\tping 10.0.0.1\r\n64 bytes\n" * 3
    (tmp_path / "f").write_bytes(raw)
    (tmp_path / "blank").write_bytes(b" \n\t\r\n  ")
    with (tmp_path / "f").open("rb") as f:
        m = _Mapped.of(f.fileno())
    with (tmp_path / "blank").open("rb") as f:
        blank = _Mapped.of(f.fileno())
    assert (m.isspace(), blank.isspace()) == (raw.isspace(), True)
    assert m.startswith((b"x", b"  \n")) and not m.startswith(b"ping")
    assert m.startswith(b"ping", 4) == raw.startswith(b"ping", 4) is True
    assert m.endswith(b"bytes\n") and not m.endswith((b"x", b"y"))
    assert (m.count(b"\n"), m.count(b"\n", 5, 40), m.count(b"64")) == (
        raw.count(b"\n"),
        raw.count(b"\n", 5, 40),
        raw.count(b"64"),
    )
    assert (b"\r" in m, b"\x1b" in m, b"64 bytes" in m) == (True, False, True)
    assert m.decode("utf-8") == raw.decode("utf-8")
    assert m.splitlines() == raw.splitlines()  # not answered by the mapping: asked of a copy
    assert m[2:8] == raw[2:8] and isinstance(m[2:8], bytes)
    m.close()
    blank.close()


def test_blank_mapped_file_is_empty_input(tmp_path, monkeypatch):
    from azlatency import reader

    monkeypatch.setattr(reader.files, "MAP_BYTES", 1)
    path = tmp_path / "blank.txt"
    path.write_bytes(b"\r\n  \n" * 40000)
    with pytest.raises(DetectionError, match="empty input"):
        azlatency.read(path)


# ---------------------------------------------------------------------------------------------
# Notes that name a tool's markers in prose hold no output


PROSE = """\
# Notes on the formats

ntttcp prints `NTTTCP for Linux 1.4.0` first and `#####  Totals:  #####` before its totals;
with `-x` the root element is `<ntttcps version="5.33-linux">`.
The echo client logs `TCP CONNECTION DROP at packet N` when the peer goes away.
sockperf reports `sockperf: ---> percentile 99.000 =   60.744`.
A ping reply reads `64 bytes from 10.0.0.1: icmp_seq=1 ttl=64 time=0.512 ms`.
On Windows it reads `Reply from 10.0.0.1: bytes=32 time<1ms TTL=128`.
iperf3 prints `[  5]   0.00-10.00  sec  1.10 GBytes   942 Mbits/sec  receiver`.
qperf prints `tcp_lat:` then `latency = 16.9 us`; latte.exe `Latency(usec)  52.18`.
The echo CSV header is `packet_num,timestamp,send_time_ns,receive_time_ns,rtt_us`.
"""


@pytest.mark.parametrize("line", [x for x in PROSE.splitlines() if "`" in x])
def test_a_marker_quoted_in_prose_is_not_output(line):
    """Before, ntttcp's banner, its Totals marker and its XML root, and the echo client's
    'TCP CONNECTION DROP', each opened a run when a sentence quoted them: a run without values
    (the whole of corpus/SOURCES.md became an ntttcp run; docs/synth.md an echo log)."""
    with pytest.raises(DetectionError, match="no known tool output found"):
        azlatency.read(line + "\n")


def test_a_note_of_quoted_markers_is_not_output():
    with pytest.raises(DetectionError, match="no known tool output found"):
        azlatency.read(PROSE)


def test_the_same_markers_on_lines_of_their_own_are_output():
    note = (
        "Run 1:\n\n```\nNTTTCP for Linux 1.4.0\n10:00:00 INFO: #####  Totals:  #####\n"
        "10:00:00 INFO:   throughput     :1.00Gbps\n```\n\n"
        "2026-11-21 00:49:02.739331 TCP CONNECTION DROP at packet 10: TimeoutError('x')\n"
    )
    runs = _read(note).runs
    assert sorted(runs.tool) == ["echo_csv", "ntttcp"]
    assert runs.set_index("tool").loc["echo_csv", "line_start"] == 9


@needs_shared
def test_the_corpus_list_of_sources_is_not_output():
    """corpus/SOURCES.md quotes `<ntttcps version=...>` and `#####  Totals:  #####`."""
    with pytest.raises(DetectionError, match="no known tool output found"):
        azlatency.read((SEEDS.parent / "corpus" / "SOURCES.md").read_bytes())


def test_quote_markers_come_off_and_line_numbers_stay():
    from azlatency.reader import unquote

    lines = [
        "On Monday, A wrote:",
        "> sockperf: x",
        "> > nested",
        ">> mail",
        ">",
        "  > indented",
        "no quote > here",
        "C:\\>ping",
    ]
    assert unquote(lines) == [
        "On Monday, A wrote:",
        "sockperf: x",
        "nested",
        "mail",
        "",
        "indented",
        "no quote > here",
        "C:\\>ping",
    ]
    assert unquote(["a", "b"]) == ["a", "b"]


def test_red_hat_prompts_name_the_command_and_host():
    from azlatency.parsers._lines import command_of

    assert command_of(
        "[root@dell-per640-07 net]# sockperf ping-pong -i 10.9.9.1", ["sockperf"]
    ) == ("sockperf ping-pong -i 10.9.9.1", "dell-per640-07")
    assert command_of("[me@vm1 ~]$ ping -c 3 10.0.0.4", ["ping"]) == ("ping -c 3 10.0.0.4", "vm1")
    assert command_of("root@vm2:/tmp# ping 10.0.0.5", ["ping"]) == ("ping 10.0.0.5", "vm2")


@pytest.mark.parametrize(
    ("line", "command", "host"),
    [
        # macOS's zsh ('%n@%m %1~ %#'), as a hping3 write-up shows it
        ("me@mbp ~ % sudo hping3 --icmp -c 3 10.0.0.4", "sudo hping3 --icmp -c 3 10.0.0.4", "mbp"),
        ("/ # hping3 --flood -S nginx -p 80", "hping3 --flood -S nginx -p 80", None),  # busybox
        ("~ \u27a4 qperf 192.168.66.1 tcp_lat", "qperf 192.168.66.1 tcp_lat", None),
        ("\u279c  ~ qperf 10.0.0.4 tcp_lat", "qperf 10.0.0.4 tcp_lat", None),  # oh-my-zsh
        ("\u279c  repo git:(main) \u2717 qperf 10.0.0.4 tcp_lat", "qperf 10.0.0.4 tcp_lat", None),
        ("\u276f qperf 10.0.0.4 tcp_lat", "qperf 10.0.0.4 tcp_lat", None),
    ],
)
def test_prompts_of_other_shells(line, command, host):
    """A command under zsh's, a container's or an arrow theme's prompt was no command: a
    strict read refused the line between two outputs, the default skipped it and the output
    below lost its command."""
    from azlatency.parsers._lines import command_of

    assert command_of(line, ["hping3", "qperf"]) == (command, host)
    assert command_of("/ # ", ["hping3"]) == (None, None)


def test_a_fence_run_into_the_command_says_nothing():
    """A lost line break ran a Markdown fence into the command below it ('```# ntttcp -s
    $ip ...', a join study of the fixtures): the command was lost without a word.  The fence
    is taken off, as are a prompt's and a code span's marks."""
    from azlatency.parsers._lines import command_of

    assert command_of("```# ntttcp -s $ip -W 2", ["ntttcp"]) == ("ntttcp -s $ip -W 2", None)
    assert command_of("~~~$ ping -c 3 10.0.0.4", ["ping"]) == ("ping -c 3 10.0.0.4", None)
    assert command_of("```", ["ping"]) == (None, None)
    from tests._expected import FIXTURES

    lines = (
        (FIXTURES / "ntttcp" / "ntttcp--1.4.0-linux-s-cut-in-totals.txt").read_text().split("\n")
    )
    assert lines[:2] == ["```", "# ntttcp -s $ip -W 2 -t 10 -l 1"]
    got = azlatency.read("\n".join([lines[0] + lines[1], *lines[2:]]))
    assert got.runs["command"].tolist() == ["ntttcp -s $ip -W 2 -t 10 -l 1"]


@pytest.mark.parametrize(
    "name",
    [
        "fio/fio--3.33-linux-json-read-4k.json",
        "iperf3/iperf3--3.12-linux-J-tcp.json",
        "iostat/iostat--12.6.1-linux-x-1-3-vda-dd-write.txt",
        "qperf/qperf--0.4.11-linux-oo-sweep-sizes-from-command.txt",
        "owping/owping--5.2.3-linux-c100-M-clean.txt",
        "mtr/mtr--0.95-linux-r-c40-n-path-change.txt",
    ],
)
@pytest.mark.parametrize("lead", ["    ", "\t"])
def test_an_output_in_an_indented_code_block_reads_as_the_output(name, lead):
    """An output pasted as a Markdown code block indented four spaces (a StackOverflow post,
    an older README) or a tab, under a paragraph: fio's and iperf3's JSON were invalid JSON,
    iostat's reports no tool's output, qperf's values and mtr's hops refused, owping's
    session not found (a study indenting every fixture and corpus file: 145 of 1,000
    readings changed or refused, now 20, most a byte-order mark the indent put mid-line).
    Each indented block is moved left by what its lines share; the tool's own indentation
    within it stays, and an indented line right under an unindented one is no block."""
    from tests._expected import FIXTURES

    text = (FIXTURES / name).read_text(encoding="utf-8")
    indented = "\n".join(lead + x if x.strip() else x for x in text.split("\n"))
    doc = f"The run from zone 1:\n\n{indented}\n\nThat was all.\n"
    base, got = azlatency.read(text), azlatency.read(doc)
    for frame in ("samples", "summaries"):
        a, b = getattr(base, frame), getattr(got, frame)
        assert a.drop(columns="run_id").equals(b.drop(columns="run_id")), frame
    assert (got.runs["line_start"] == base.runs["line_start"] + 2).all()


def test_dedent_moves_only_indented_blocks():
    from azlatency.reader.outline import dedent

    qperf = ["tcp_lat:", "    latency  =  7.07 us", "", "tcp_bw:", "    bw  =  2 GB/sec"]
    assert dedent(qperf) is qperf  # values under their test's name: no block
    doc = ["Output:", "", "    tcp_lat:", "        latency  =  7.07 us", "", "done"]
    assert dedent(doc) == ["Output:", "", "tcp_lat:", "    latency  =  7.07 us", "", "done"]
    run_on = ["Output:", "", "    a = 1", "text right after"]  # no blank line closes it
    assert dedent(run_on) is run_on


@pytest.mark.parametrize(
    ("name", "typed", "column", "want"),
    [
        # WordPress prints '--' as an en dash; a one- or two-letter option keeps one dash
        (
            "sockperf/sockperf--3.7-linux-tcp-pingpong.txt",
            "$ sockperf pp –i 10.201.0.1 —tcp –m 64",
            "msg_size_bytes",
            [64],
        ),
        ("qperf/qperf--0.4.11-linux-oo-sweep-sizes-from-command.txt", None, "msg_size_bytes", None),
        ("ntttcp/ntttcp--1.4.0-linux-s-V-sender-threads.txt", None, "dst_ip", None),
    ],
)
def test_typographic_dashes_in_a_command_are_its_options(name, typed, column, want):
    """A command copied from a blog whose typography made its options' dashes en or em
    dashes ('sockperf pp –i 10.0.0.4 —tcp –m 64', WordPress's '--' → '–') or its quotes
    curly was read without them: the message size fell back to sockperf's default 14
    without a word, qperf's '–oo' or ‘msg_size:1:64K:*4’ loop of sizes was lost (every run
    one size).  They are ASCII again (`_lines.plain_typography`)."""
    import re

    from azlatency.parsers._lines import plain_typography
    from tests._expected import FIXTURES

    text = (FIXTURES / name).read_text(encoding="utf-8")
    lines = text.split("\n")
    if typed is not None:
        base = azlatency.read(text)
        got = azlatency.read("\n".join([typed, *lines]))
        assert got.runs[column].tolist() == want
        assert got.runs["command"].iloc[0] == "sockperf pp -i 10.201.0.1 --tcp -m 64"
        return
    typo = lines[0].replace(" --", " \u2013").replace(" -", " \u2013")
    typo = re.sub(r"'([^']*)'", "\u2018\\1\u2019", typo)  # and curly quotes
    assert typo != lines[0] and plain_typography(typo) == lines[0]
    base, got = azlatency.read(text), azlatency.read("\n".join([typo, *lines[1:]]))
    assert got.runs[column].tolist() == base.runs[column].tolist()
    assert got.runs["command"].tolist() == base.runs["command"].tolist()


@pytest.mark.parametrize(
    "stamp",
    [
        "2026-11-25T16:20:{k:02d}.1234567Z ",  # GitHub Actions' raw log
        "[2026-11-25T16:20:{k:02d}.123Z] ",  # Jenkins' timestamper
        "Nov 25 16:20:{k:02d} vm1 bench.sh[1234]: ",  # syslog, journalctl
        "Nov 25 16:20:{k:02d} ",  # moreutils' ts
    ],
)
@pytest.mark.parametrize(
    "name",
    [
        "ping/ping--iputils-20221126-linux-6-c4-unreachable.txt",
        "sockperf/sockperf--3.7-linux-tcp-pingpong.txt",
        "qperf/qperf--0.4.11-linux-oo-sweep-sizes-from-command.txt",
        "lagscope/lagscope--1.0.1-linux-n1000.txt",  # its progress: carriage returns
    ],
)
def test_a_loggers_time_stamp_before_every_line_is_taken_off(name, stamp):
    """A CI job's log (GitHub Actions, Jenkins) or syslog puts a time stamp before every line
    of the output it captured, and the file was 'no known tool output found' (a study
    stamping every fixture and corpus file: about 1,000 of 1,000 readings refused or changed,
    now 24).  A CI runner's or syslog's stamp, which no tool prints, is taken off; one a tool
    may print (a Python log's, ts') only where the outputs found as the lines stand cover
    less than half of them; every run says so.  A tool's own stamps stay its parser's."""
    from tests._expected import FIXTURES

    text = (FIXTURES / name).read_text(encoding="utf-8")
    lines = text.rstrip("\n").split("\n")
    logged = "\n".join(stamp.format(k=k % 60) + line for k, line in enumerate(lines))
    base, got = azlatency.read(text), azlatency.read(logged)
    assert got.summaries.drop(columns="run_id").equals(base.summaries.drop(columns="run_id"))
    assert got.samples.drop(columns="run_id").equals(base.samples.drop(columns="run_id"))
    note = "a logger's time stamp before every line (a CI job's or syslog's): taken off"
    assert all(note in w for w in got.runs["warnings"])


def test_values_no_tool_can_mean_are_flagged_not_stored():
    """Issue 26, case 8: a remote CPU of -6.7e19 % (as iperf3 3.12 printed once) is not kept
    as a fact.  The input is a real -J capture with that figure put in its remote_total."""
    import re

    from tests._expected import FIXTURES

    path = FIXTURES / "iperf3" / "iperf3--3.12-linux-J-R-tcp-reverse.json"
    real = path.read_text(encoding="utf-8")
    (value,) = re.findall(r'"remote_total":\s*([0-9.]+)', real)
    bad = real.replace(f'"remote_total":\t{value}', '"remote_total":\t-6.7108864e19')
    assert bad != real
    t = azlatency.read(bad.encode())
    cpu = t.summaries.query("metric == 'cpu_remote' and stat == 'total'")
    assert cpu.empty
    assert (
        "cpu_remote total = -6.71089e+19 pct not stored: a percentage outside [0, 102400]"
        in (t.runs["warnings"].iloc[0])
    )
    kept = azlatency.read(real.encode()).summaries.query(
        "metric == 'cpu_remote' and stat == 'total'"
    )["value"]
    assert kept.tolist() == [float(value)]


def test_zero_throughput_beside_moved_bytes_is_not_a_rate():
    from azlatency.parsers._base import Summary
    from azlatency.schema import implausible, moved_nothing

    rows = [
        Summary("transfer_receiver", "total", 7.5e9, "bytes"),
        Summary("throughput_receiver", "mean", 0.0, "bps"),
        Summary("throughput_sender", "mean", 0.0, "bps"),  # no transfer_sender: kept
    ]
    assert moved_nothing(rows) == {1}
    assert implausible("lost_datagrams", "total", -1, "count") == "a negative count"
    assert implausible("loss", "mean", 100.0, "pct") is None
    assert implausible("loss", "mean", 100.5, "pct") == "a percentage outside [0, 100]"
    assert implausible("loc_cpus_used", "mean", 201, "pct") is None  # two cores busy
    assert implausible("rtt", "min", -5.0, "us") == "below zero"
    assert implausible("throughput_receiver", "mean", -1e9, "bps") == "below zero"
    assert implausible("one_way", "min", -5.0, "us") is None  # clocks apart: it may be
    assert implausible("ipdv", "min", -5.0, "us") is None  # a later packet faster
    assert implausible("rtt", "max", float("inf"), "us") == "not a finite number"


def test_a_run_pasted_twice_is_read_twice_and_said():
    """Issue 26: a block pasted twice must not become a silent replicate.  The copy of a
    qperf -oo sweep step (captured, tests/fixtures/qperf) is read, and says it repeats."""
    from tests.conftest import ROOT

    path = ROOT / "tests/fixtures/qperf/qperf--0.4.11-linux-oo-vu-sweep-tcp_lat.txt"
    lines = path.read_text().split("\n")
    whole = azlatency.read(path)
    twice = azlatency.read("\n".join(lines[:9] + lines[5:9] + lines[9:]), source=path.name)
    assert len(twice.runs) == len(whole.runs) + 1
    copy = twice.runs.iloc[2]
    assert copy["line_start"] == 10 and copy["msg_size_bytes"] == 4
    assert (
        "the same figures as the run at lines 6-9: a repeated copy? (both read)"
        in (copy["warnings"])
    )
    # and every step of the sweep says which loop value is which is no longer certain
    said = "tcp_lat printed 10 times where the command runs it 9"
    assert twice.runs["warnings"].str.contains(said).all() and pd.isna(whole.runs["warnings"]).all()


@needs_shared
def test_two_runs_that_merely_agree_are_not_called_copies():
    """Seed 000's two iperf3 runs (zones and availability set) print the same end-of-test
    figures (3.81 Gbits/sec, 4.44 GBytes: a capped rate) but different intervals and cwnd:
    not a copy, no warning."""
    t = azlatency.read(seed("000"))
    iperf = t.runs[t.runs["tool"] == "iperf3"]
    assert len(iperf) == 2 and iperf["warnings"].isna().all()


def test_an_error_only_block_fails_its_block_not_the_document():
    """Issue 26, item 6: a fenced block holding only iperf3's error beside a ping output.
    Strict or lenient, the ping run is read and the iperf3 block is a located problem; a file
    holding nothing but the error still fails with it."""
    error = "iperf3: error - unable to connect to server: Connection refused"
    note = f"""# notes

```
$ iperf3 -c 10.0.0.5
{error}
```

```
PING 10.0.0.4 (10.0.0.4) 56(84) bytes of data.
64 bytes from 10.0.0.4: icmp_seq=1 ttl=64 time=0.512 ms
64 bytes from 10.0.0.4: icmp_seq=2 ttl=64 time=0.498 ms

--- 10.0.0.4 ping statistics ---
2 packets transmitted, 2 received, 0% packet loss, time 1001ms
rtt min/avg/max/mdev = 0.498/0.505/0.512/0.007 ms
```
"""
    for strict in (True, False):
        t = azlatency.read(note, source="note.md", strict=strict)
        assert t.runs["tool"].tolist() == ["ping"] and len(t.samples) == 2
        (problem,) = t.problems
        assert isinstance(problem, NothingMeasured)
        assert (problem.tool, problem.source, problem.line_no) == ("iperf3", "note.md", 5)
        assert "unable to connect to server" in problem.reason
    with pytest.raises(NothingMeasured) as info:
        azlatency.read(f"$ iperf3 -c 10.0.0.5\n{error}\n", source="alone.txt")
    assert info.value.line_no == 2


def test_a_refused_block_longer_than_the_retry_limit_keeps_its_error(monkeypatch):
    """The lenient retry reads a block again for each line it tries; past
    ``STRAY_RETRY_LINES`` the located error stands (a broken million-line log is not read
    fifteen times)."""
    from azlatency import reader
    from tests._expected import FIXTURES

    path = FIXTURES / "netperf" / "netperf--2.7.1-linux-j-TCP_RR-O-columns.txt"
    lines = path.read_text().split("\n")
    doc = "\n".join(lines[:2] + ["Connection reset by peer"] + lines[2:])
    assert "line 3 skipped" in azlatency.read(doc).runs["warnings"][0]
    monkeypatch.setattr(reader.strays, "STRAY_RETRY_LINES", 5)
    with pytest.raises(ParseError) as info:
        azlatency.read(doc)
    assert info.value.line_no == 3


def test_row_hashes_are_pandas_own_without_the_run_id():
    """The repeated-copy check's row hashes (reader.tables._row_hashes) are exactly
    hash_pandas_object's of the samples without the run id, built without that frame."""
    from azlatency.reader.tables import _row_hashes
    from tests._expected import FIXTURES

    tables = azlatency.read(FIXTURES / "iperf3" / "iperf3--3.12-linux-s-server-six-tests.txt")
    samples = tables.samples
    want = pd.util.hash_pandas_object(samples.drop(columns=["run_id"]), index=False)
    assert (_row_hashes(samples) == want.to_numpy()).all()
    assert len(set(_row_hashes(samples))) > 5


@pytest.mark.parametrize("strict", [True, False])
@pytest.mark.parametrize(
    ("path", "printed", "damaged", "said"),
    [
        # an interval's rate: a sample
        ("iperf2/iperf2--2.0.5-linux-c-i1-P2-tcp.txt", "1.13 Gbits/sec", "inf Gbits/sec",
         "bits_per_second of 1 sample not stored: not a finite number"),
        # the test's seconds: a run figure
        ("netperf/netperf--2.7.1-linux-D0.5-TCP_STREAM-interim.txt", "2.02      884.30",
         "1e400      884.30", "duration_s not stored: not a finite number"),
        # a summary
        ("owping/owping--5.2.3-linux-c100-clean.txt", "min/median/max = 0.0129/",
         "min/median/max = 1e400/", "one_way min = inf us not stored: not a finite number"),
        # below zero where no tool prints it: a round trip, a percentile, a count
        ("echo_csv/echo_csv--csv-eff7dae-py3.11-linux-lo-5probes.csv", ",492.943", ",-492.943",
         "rtt_us of 1 sample not stored: below zero"),
        ("sockperf/sockperf--3.7-linux-tcp-pingpong.txt", "percentile 99.000 =    9.103",
         "percentile 99.000 =   -9.103", "half_rtt p99 = -9.103 us not stored: below zero"),
        ("qperf/qperf--0.4.11-linux-uu-vv-tcp-udp.txt", "send_msgs         =       17435",
         "send_msgs         =      -17435", "packets_sent not stored: below zero"),
        # more lost than sent: a loss over 100 % (the table's schema refused it whole)
        ("twping/twping--5.2.3-linux-c50-M-loss.txt", "LOST\t14", "LOST\t18849",
         "loss_pct not stored: over 100"),
    ],
)  # fmt: skip
def test_an_impossible_number_is_never_stored(path, printed, damaged, said, strict):
    """'inf' in a log, or a number beyond float64 ('1e400'), is no measure, nor is a round
    trip, a rate or a count below zero: 20 parsers stored one or the other (a mutation run
    over the fixtures), and a mean or a chart took it in. It is left empty and the run says
    so. (A one-way delay may be negative: clocks apart.)"""
    text = (FIXTURES / path).read_text()
    assert printed in text
    t = azlatency.read(text.replace(printed, damaged, 1), strict=strict).validate()
    numbers = [df.select_dtypes("number") for df in (t.runs, t.samples, t.summaries)]
    assert not any(df.abs().eq(float("inf")).any().any() for df in numbers)
    assert not (t.samples.filter(regex="^(rtt|half_rtt)_us$") < 0).any().any()
    assert said in "; ".join(t.runs["warnings"].dropna())


def test_statistics_computed_from_probes_leave_an_impossible_one_out():
    """A probe's round trip damaged to '1e400' (fping 5.1, probe [3] of 20): the sample is
    not stored and the run says so; the statistics computed from the probes are those of
    the 19 stored (the mean and max were infinite, the std NaN, the count 20), and numpy
    warns of nothing."""
    path = FIXTURES / "fping" / "fping--5.1-linux-c20-clean.txt"
    text = path.read_text().replace("[3], 64 bytes, 0.050 ms", "[3], 64 bytes, 1e400 ms", 1)
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        t = azlatency.read(text)
    rtt = t.samples["rtt_us"].dropna()
    assert len(rtt) == 19 and len(t.samples) == 20
    assert "rtt_us of 1 sample not stored: not a finite number" in t.runs["warnings"][0]
    s = t.summaries[t.summaries["metric"].eq("rtt") & t.summaries["source"].eq("computed")]
    got = dict(zip(s["stat"], s["value"]))
    assert got["count"] == 19 and got["max"] == 55.0 and got["min"] == 38.0
    assert got["mean"] == pytest.approx(rtt.mean()) and got["std"] == pytest.approx(rtt.std())


@pytest.mark.parametrize("strict", [True, False])
@pytest.mark.parametrize(
    ("path", "printed", "damaged", "said"),
    [
        # fping 5.1 killed: its first and its last reply, their time no number
        ("fping/fping--5.1-linux-c50-killed.txt", "[0], 64 bytes, 0.065 ms",
         "[0], 64 bytes, nan ms", "line 1 looks like this fping output's line 2 but does not read"),
        ("fping/fping--5.1-linux-c50-killed.txt", "[10], 64 bytes, 0.050 ms",
         "[10], 64 bytes, nan ms", "line 11 looks like this fping output's line 10"),
        # ncps -brief: no header, its first row damaged
        ("ncps/ncps--1.1-linux-c-r4-wt2-t6-brief.txt", "40   2225.5", "40   nan",
         "line 1 looks like this ncps output's line 2"),
    ],
)  # fmt: skip
def test_a_damaged_line_at_an_outputs_edge_is_named(path, printed, damaged, said, strict):
    """A line of an output that its parser cannot read, at the output's first or last line,
    fell outside the output: its reply or row was lost without a word (a study that put 'nan'
    in place of figures of every fixture).  The run beside it names it; a foreign line there
    ('Connection reset by peer') is no line of the output and is not named."""
    text = (FIXTURES / path).read_text(encoding="utf-8")
    assert printed in text
    got = azlatency.read(text.replace(printed, damaged, 1), strict=strict)
    assert said in "; ".join(got.runs["warnings"].dropna())
    base = azlatency.read(text, strict=strict)
    assert not any("looks like this" in w for w in base.runs["warnings"].dropna())
    lines = text.split("\n")
    for at in (0, len(lines) - 1 if lines[-1] else len(lines) - 2):
        foreign = "\n".join(lines[:at] + ["Connection reset by peer"] + lines[at:])
        said_there = azlatency.read(foreign, strict=False).runs["warnings"].dropna()
        assert not any("looks like this" in w for w in said_there)
