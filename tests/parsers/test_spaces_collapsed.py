"""Runs of spaces a web page made one (text shown outside ``<pre>``): a table that PowerShell
aligns by columns is read by its words."""

from __future__ import annotations

import re

import pytest

import azlatency
from tests.conftest import FIXTURES, corpus, needs_shared
from tests.parsers._joined import assert_same_reading

ROWS = (
    "Source        Destination     IPV4Address      IPV6Address"
    "                              Bytes    Time(ms)\n"
    "------        -----------     -----------      -----------"
    "                              -----    --------\n"
    "VM1           10.0.0.5        10.0.0.5                    "
    "                              32       2\n"
    "VM1           10.0.0.5        10.0.0.5                    "
    "                              32       1\n"
)


def _collapsed(text: str) -> str:
    return "\n".join(re.sub(r"[ \t]+", " ", x.strip(" \t")) for x in text.split("\n"))


@pytest.mark.parametrize("strict", [True, False], ids=["strict", "default"])
def test_a_powershell_table_with_its_columns_collapsed(strict):
    """Windows PowerShell 5.1's Test-Connection table: the rows read as nothing (a run of no
    sample, no word) once the columns were gone; the empty IPV6Address is the one column a
    row lacks."""
    base = azlatency.read(ROWS, strict=strict)
    got = azlatency.read(_collapsed(ROWS), strict=strict)
    assert list(got.samples.rtt_us) == list(base.samples.rtt_us) == [2000.0, 1000.0]
    assert_same_reading(base, got, ("dst_ip", "msg_size_bytes", "complete"))


@needs_shared
def test_a_real_powershell_paste_with_its_columns_collapsed():
    path = corpus("ping", "ping--powershell-test-connection-utf16le--ntig-umea.txt")
    text = azlatency.decode.decode(path.read_bytes()).text
    base, got = azlatency.read(text), azlatency.read(_collapsed(text))
    assert len(got.samples) == len(base.samples) == 12
    assert_same_reading(base, got, ("dst_ip", "line_start", "line_end"))


@pytest.mark.parametrize("strict", [True, False], ids=["strict", "default"])
@pytest.mark.parametrize(
    "name",
    [
        # iperf3 -J: a column-0 '}' ended the document at its first inner object (both modes:
        # 'no iperf3 test found')
        "iperf3/iperf3--3.12-linux-J-tcp.json",
        "iperf3/iperf3--3.12-linux-s-J-server-two-tests.json",
        # qperf: its 'key = value' lines were indented or no qperf line
        "qperf/qperf--0.4.11-linux-plain-tcp-udp.txt",
        "qperf/qperf--0.4.11-linux-vv-m1M-udp_lat-total-loss.txt",
        # iperf3 -d: the JSON it prints, its keys at column 0
        "iperf3/iperf3--3.12-linux-d-tcp-debug.txt",
        # NTttcp.exe's tables: titles of several words cut apart by the underline's runs, and
        # a last row shorter than its underline taken for a row cut short
        "ntttcp/ntttcp--5.28-windows-s-m8-one-table-totals--jonathandotchin-blog.md",
        "ntttcp/ntttcp--5.33-windows-r-m-receiver.txt",
    ],
)
def test_outputs_without_their_indentation_read_the_same(name, strict):
    """Every line's indentation taken off and its runs of spaces made one, as a web page
    shows text outside ``<pre>``."""
    text = (FIXTURES / name).read_text(encoding="utf-8")
    flat = "\n".join(" ".join(x.split()) for x in text.split("\n"))
    base, got = azlatency.read(text, strict=strict), azlatency.read(flat, strict=strict)
    assert len(got.runs) == len(base.runs) > 0
    assert_same_reading(base, got, ("complete", "dst_ip", "msg_size_bytes", "warnings"))
