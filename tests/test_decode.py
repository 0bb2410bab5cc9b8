"""Decoding: every byte shape a log arrives in becomes the same clean text."""

from __future__ import annotations

import codecs

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
