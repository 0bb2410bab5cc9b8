"""Decoding: every byte shape a log arrives in becomes the same clean text."""

from __future__ import annotations

import codecs
import re

import pytest

from azlatency.decode import decode

TEXT = "sockperf: ====> avg-rtt=94.790 (std-dev=9.300)\nPing statistics for 10.0.0.5:\n"


@pytest.mark.parametrize(
    "data, encoding",
    [
        (TEXT.encode("utf-8"), "utf-8"),
        (codecs.BOM_UTF8 + TEXT.encode("utf-8"), "utf-8-sig"),
        (codecs.BOM_UTF16_LE + TEXT.encode("utf-16-le"), "utf-16-le"),
        (codecs.BOM_UTF16_BE + TEXT.encode("utf-16-be"), "utf-16-be"),
        (TEXT.encode("utf-16-le"), "utf-16-le"),  # PowerShell Out-File without BOM
        (TEXT.replace("\n", "\r\n").encode("utf-8"), "utf-8"),
    ],
)
def test_encodings_decode_to_the_same_text(data, encoding):
    d = decode(data)
    assert d.text == TEXT
    assert d.encoding == encoding


def test_crlf_is_recorded_and_normalised():
    d = decode(b"a\r\nb\r\n")
    assert (d.text, d.newline) == ("a\nb\n", "CRLF")


def test_ansi_colour_escapes_are_stripped():
    raw = b"sockperf: \x1b[2;35m====> avg-rtt=10.5 (std-dev=1.0)\x1b[0m\n"
    d = decode(raw)
    assert d.text == "sockperf: ====> avg-rtt=10.5 (std-dev=1.0)\n"
    assert d.ansi_stripped


def test_harness_prefixes_are_stripped_without_losing_lines():
    d = decode(b"[STDOUT] PING 10.0.0.4 56(84) bytes\n[STDERR] warning\nplain\n")
    assert d.text.splitlines() == ["PING 10.0.0.4 56(84) bytes", "warning", "plain"]
    assert d.prefixes_stripped


@pytest.mark.parametrize(
    "text, codepage",
    [
        ("Antwort von 10.0.0.4: Bytes=32 Zeit<1ms TTL=128\nPaketverlust\xfc\n", "cp1252"),
        ("Réponse de 10.0.0.4 : octets=32 temps<1ms TTL=128\n", "cp850"),
        ("来自 10.0.0.4 的回复: 字节=32 时间<1ms TTL=128\n", "cp936"),
    ],
)
def test_windows_code_pages(text, codepage):
    d = decode(text.encode(codepage))
    assert d.text == text
    assert d.encoding not in ("utf-8", "utf-8-sig")


def test_line_count_is_preserved():
    raw = b"one\r\ntwo\rthree\nfour"
    assert decode(raw).text.split("\n") == ["one", "two", "three", "four"]


@pytest.mark.parametrize(
    ("name", "every"),
    [
        ("iperf3/iperf3--3.12-linux-P4-tcp-parallel.txt", False),
        ("iperf3/iperf3--3.12-linux-P4-tcp-parallel.txt", True),
        ("fio/fio--3.33-linux-json-read-4k.json", True),
        ("mtr/mtr--0.95-linux-r-c40-n-path-change.txt", False),
        ("netperf/netperf--2.7.1-linux-D1-TCP_STREAM-sigint.txt", True),
    ],
)
def test_no_break_spaces_of_a_copied_web_page_are_spaces(name, every):
    """Text copied from a rendered web page has HTML's &nbsp;: runs of spaces become no-break
    spaces (U+00A0) beside plain ones, or every space one.  A study doing either to every
    fixture and corpus file changed or refused about 700 of 1,000 readings (Python's \\s
    takes U+00A0, a literal ' ' does not: fio's JSON, iperf 2's intervals, netperf's
    tables...); 6 now (a legacy code page's byte).  A no-break space between two words of a
    line with plain spaces is a tool's own (iputils' French 'temps=0.024\\xa0ms') and stays."""
    import azlatency
    from tests.conftest import FIXTURES

    text = (FIXTURES / name).read_text(encoding="utf-8")
    lines = text.split("\n")
    if every:
        copied = [x.replace(" ", "\xa0") for x in lines]
    else:
        copied = [re.sub(r" {2,}", lambda m: ("\xa0 " * len(m[0]))[: len(m[0])], x) for x in lines]
    assert copied != lines
    base, got = azlatency.read(text), azlatency.read("\n".join(copied))
    for frame in ("runs", "samples", "summaries"):
        a = getattr(base, frame).drop(columns=["run_id", "source_sha256"], errors="ignore")
        b = getattr(got, frame).drop(columns=["run_id", "source_sha256"], errors="ignore")
        assert a.equals(b), frame
    french = "64 bytes from 10.77.40.2: icmp_seq=1 ttl=64 temps=0.024\xa0ms"
    assert decode(french.encode()).text == french


@pytest.mark.parametrize(
    "name, quot",
    [
        ("ping/ping--win10-windows-en-6-ipv6-censored-transcribed.txt", False),  # time<1ms
        ("lagscope/lagscope--1.0.1-linux-n1000.txt", False),  # '--> 10.0.0.4:6001'
        ("sockperf/sockperf--3.10-linux-tcp-m64-mps200-fulllog-histogram.csv", False),  # <MAX>
        ("iperf3/iperf3--3.12-linux-J-O1-tcp-omit.json", True),  # every key '&quot;start&quot;'
        ("ntttcp/ntttcp--1.4.3-linux-s-x-sender.xml", True),  # the XML itself escaped
    ],
)
def test_html_escaped_text_reads_as_its_characters(name, quot):
    """A page that shows its code block escaped (a blog's block escaped twice, an HTML or XML
    export read as text) has '&lt;' for '<', '&gt;', '&amp;' and, in some, '&quot;'.  A study
    escaping every fixture and corpus file so, both modes: 192 of 240 readings changed,
    refused or lost without a word (Windows ping's 'time&lt;1ms' no reply, lagscope's
    '--&gt;' line no connection: its target gone), and of 339 with '&quot;' too, 317 (every
    JSON document unread); now every one reads as before, and says so."""
    import azlatency
    from tests.conftest import FIXTURES

    text = (FIXTURES / name).read_text(encoding="utf-8")
    escaped = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    escaped = escaped.replace('"', "&quot;") if quot else escaped
    assert escaped != text
    base, got = azlatency.read(text), azlatency.read(escaped)
    said = got.runs["warnings"].str.contains("was HTML-escaped", regex=False)
    assert len(got.runs) == len(base.runs) > 0 and said.all()
    got.runs["warnings"] = base.runs["warnings"]
    for frame in ("runs", "samples", "summaries"):
        a = getattr(base, frame).drop(columns=["run_id", "source_sha256"], errors="ignore")
        b = getattr(got, frame).drop(columns=["run_id", "source_sha256"], errors="ignore")
        assert a.equals(b), frame


def test_entities_of_a_markup_document_are_its_own():
    """A text with a '<' of its own (ntttcp's XML, any markup) keeps its entities: its
    parser reads them.  No tool prints one: a plain text's are read."""
    xml = '<ntttcps cmdline="ntttcp -s -m 1,*,10.0.0.4 &amp;&amp; true">'
    assert decode(xml.encode()).text == xml and not decode(xml.encode()).entities_read
    d = decode(b"Reply from 10.0.0.4: bytes=32 time&lt;1ms TTL=128\r\n")
    assert (d.text, d.entities_read) == ("Reply from 10.0.0.4: bytes=32 time<1ms TTL=128\n", True)
    plain = "sockperf: ---> <MAX> observation =  103.954\nR&D lab\n"
    assert decode(plain.encode()).text == plain  # a bare '&' is no entity


@pytest.mark.parametrize(
    "name, utf16",
    [
        ("irtt/irtt--0.9.0-linux-i10ms-d3s-o-loss-console.txt", False),  # '46.2µs'
        ("ping/ping--win10-windows-de-cp850-timeout-unreachable-transcribed.txt", False),
        ("ping/ping--win10-windows-ru-cp866-timeout-unreachable-transcribed.txt", True),
        ("reported_csv/reported_csv--1-windows-de-semicolon-decimal-comma.csv", False),  # BOM
    ],
)
def test_mojibake_reads_as_the_text_it_was(name, utf16):
    """UTF-8 read as Windows-1252 and saved again ('Ã¼' for 'ü', 'Âµs' for 'µs'): what
    PowerShell 5.1's ``Get-Content | Out-File`` (UTF-16) or an editor's wrong guess leaves.
    A study doing it to every fixture and corpus file with a non-ASCII character (both modes,
    101 readings): 4 read the same, 10 changed without a word (irtt's round trips, sockperf's
    and NTttcp's files behind a BOM), 38 refused (localized ping's replies and timeouts), 46
    changed.  Now every one reads as before (its encoding now UTF-8) and says so."""
    import azlatency
    from tests.conftest import FIXTURES

    text = decode((FIXTURES / name).read_bytes()).text
    assert not text.isascii()
    # as Windows reads cp1252: its five unassigned bytes as the C1 controls of that number
    damaged = "".join(
        bytes([b]).decode("cp1252", errors="ignore") or chr(b) for b in text.encode("utf-8")
    )
    data = damaged.encode("utf-16") if utf16 else damaged.encode("utf-8")
    base, got = azlatency.read(text), azlatency.read(data)
    said = got.runs["warnings"].str.contains("UTF-8 read as another code page", regex=False)
    assert len(got.runs) == len(base.runs) > 0 and said.all()
    got.runs["warnings"] = base.runs["warnings"]
    for frame in ("runs", "samples", "summaries"):
        drop = ["run_id", "source_sha256", "encoding"]
        a = getattr(base, frame).drop(columns=drop, errors="ignore")
        b = getattr(got, frame).drop(columns=drop, errors="ignore")
        assert a.equals(b), frame


@pytest.mark.parametrize("page", ["cp1251", "cp437"])
def test_mojibake_of_other_code_pages_is_repaired(page):
    """A Russian Windows reads UTF-8 as cp1251 ('РћС‚РІРµС‚' for 'Ответ'), a console as cp437
    ('Zeit├╝berschreitung')."""
    import azlatency
    from tests.conftest import FIXTURES

    name = "ping/ping--win10-windows-ru-cp866-timeout-unreachable-transcribed.txt"
    text = decode((FIXTURES / name).read_bytes()).text
    damaged = text.encode("utf-8").decode(page, errors="replace")
    base, got = azlatency.read(text), azlatency.read(damaged.encode("utf-8"))
    assert got.runs["warnings"].str.contains("(mojibake", regex=False).all()
    assert base.samples.drop(columns="run_id").equals(got.samples.drop(columns="run_id"))
    assert decode(damaged.encode("utf-8")).text == text


def test_text_that_is_no_mojibake_stays():
    """Latin text whose letters stand where mojibake's would ('é»') is left as it is: the
    repair must decode to be made."""
    real = (
        "Zeitüberschreitung der Anforderung.",
        "« café» ô¿",
        "Ответ от 10.0.0.4: число байт=32 время=1мс TTL=64",
        "来自 10.0.0.4 的回复: 字节=32 时间<1ms TTL=64",
        "64 bytes from 10.77.40.2: icmp_seq=1 ttl=64 čas=0,024 ms",
    )
    for text in real:
        d = decode(text.encode("utf-8"))
        assert (d.text, d.mojibake_fixed) == (text, False)
    d = decode("ZeitÃ¼berschreitung der Anforderung.\n".encode())
    assert (d.text, d.mojibake_fixed) == ("Zeitüberschreitung der Anforderung.\n", True)


@pytest.mark.parametrize(
    "name",
    [
        "ping/ping--win10-windows-en-6-ipv6-censored-transcribed.txt",  # 'time&lt;1ms'
        "sockperf/sockperf--3.10-linux-tcp-m64-mps200-fulllog-histogram.csv",  # &lt;MAX&gt;
        "iperf3/iperf3--3.12-linux-J-O1-tcp-omit.json",
        "netperf/netperf--2.7.1-linux-TCP_STREAM-O-columns.txt",
    ],
)
@pytest.mark.parametrize("page", ["html", "markdown"])
def test_an_html_page_reads_as_its_output(name, page):
    """An HTML page saved from the browser (a blog post, Jenkins' console page) holds the
    output escaped in a '<pre>' element; a README holds it so in Markdown.  A study doing
    either to every fixture and corpus file (both modes, 987 readings): 230 read the same,
    284 changed without a word (Windows ping's 'time&lt;1ms' replies errors, sockperf's
    '&lt;MAX&gt;' no summary), 223 refused; now 947 (HTML) and 949 (Markdown) read the same
    and say so: the rest are JSON documents in prose and a CSV under a paragraph."""
    import html

    import azlatency
    from tests.conftest import FIXTURES

    text = (FIXTURES / name).read_text(encoding="utf-8").rstrip("\n")
    pre = "<pre>" + html.escape(text, quote=False) + "</pre>"
    if page == "html":
        doc = f'<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>log</title></head>\n<body>{pre}\n</body></html>\n'
    else:
        doc = f"The output:\n\n{pre}\n"
    base, got = azlatency.read(text), azlatency.read(doc)
    said = got.runs["warnings"].str.contains("HTML: the page's tags", regex=False)
    assert len(got.runs) == len(base.runs) > 0 and said.all()
    for frame in ("samples", "summaries"):
        a = getattr(base, frame).drop(columns="run_id")
        b = getattr(got, frame).drop(columns="run_id")
        assert a.equals(b), frame
    keep = ["tool", "complete", "dst_ip", "msg_size_bytes", "duration_s"]
    keep = [c for c in keep if c in base.runs]
    assert got.runs[keep].equals(base.runs[keep])


@pytest.mark.parametrize(
    "name",
    [
        "ping/ping--win10-windows-en-6-ipv6-censored-transcribed.txt",
        "iperf3/iperf3--3.12-linux-timestamps-tcp.txt",
        "netperf/netperf--2.7.1-linux-TCP_STREAM-O-columns.txt",
    ],
)
def test_characters_of_no_width_are_taken_out(name):
    """A byte-order mark where files that each begin with one were put together, a zero-width
    space or word joiner a chat client or wiki puts into copied text: invisible, and a line
    that starts with one was no line of its tool's.  A study putting a BOM before three lines
    of every fixture and corpus file (both modes, 975 readings): 26 read the same, 28 changed
    without a word, 452 refused; now 973 (a sockperf full log's fast path names the row)."""
    import azlatency
    from tests.conftest import FIXTURES

    text = (FIXTURES / name).read_text(encoding="utf-8")
    lines = text.split("\n")
    for k, mark in zip((1, 3, 5), ("\ufeff", "\u200b", "\u2060"), strict=True):
        lines[k] = mark + lines[k]
    lines[2] = lines[2].replace(" ", " \u200b", 1)
    base, got = azlatency.read(text), azlatency.read("\n".join(lines))
    for frame in ("runs", "samples", "summaries"):
        a = getattr(base, frame).drop(columns=["run_id", "source_sha256"], errors="ignore")
        b = getattr(got, frame).drop(columns=["run_id", "source_sha256"], errors="ignore")
        assert a.equals(b), frame


@pytest.mark.parametrize(
    "name",
    [
        "ping/ping--iputils-20221126-linux-D-O-c6-cut-before-pipe.txt",  # icmp_seq, [1764...]
        "iperf3/iperf3--3.12-linux-timestamps-tcp.txt",  # [  5], [SUM]
        "fio/fio--3.33-linux-normal-write-1m.txt",  # |  1.00th=[ 3490]
    ],
)
def test_markdown_escapes_outside_code_are_read(name):
    """Markdown from a converter or an editor's export (pandoc from a Word report, Notion)
    escapes '_', '*', '[' and ']' in text that is not code: 'icmp\\\\_seq=1', '\\\\[  5\\\\]'.  A
    study doing it to every fixture and corpus file (both modes, 795 readings with one of
    them): 16 read the same, 98 changed without a word, 511 refused; now 781 read the same
    (the rest: escapes put inside fenced blocks, where Markdown keeps them) and say so."""
    import azlatency
    from tests.conftest import FIXTURES

    text = (FIXTURES / name).read_text(encoding="utf-8")
    escaped = re.sub(r"([_*\[\]])", r"\\\1", text)
    assert escaped != text
    base, got = azlatency.read(text), azlatency.read(escaped)
    assert got.runs["warnings"].str.contains("Markdown's escapes", regex=False).all()
    for frame in ("samples", "summaries"):
        a = getattr(base, frame).drop(columns="run_id")
        assert a.equals(getattr(got, frame).drop(columns="run_id")), frame
    # inside a fenced block Markdown keeps a backslash; a Windows path keeps its own
    fenced = "icmp\\_seq=1 C:\\Users\\x\n```\ngrep 'icmp\\_seq'\n```\n"
    assert decode(fenced.encode()).text == "icmp_seq=1 C:\\Users\\x\n```\ngrep 'icmp\\_seq'\n```\n"
