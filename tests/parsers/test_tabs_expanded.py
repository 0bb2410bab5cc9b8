"""Tabs a copy turned into spaces (a terminal expands them to the next multiple of 8, a web
page collapses each into one space): the outputs that print tabs read the same."""

from __future__ import annotations

import pytest

import azlatency
from tests.conftest import FIXTURES
from tests.parsers._joined import assert_same_reading

CASES = [
    # owping/twping -M: 'SUMMARY\t3.00', 'SID\t0a4d...', '\t0\t12' buckets: the file was
    # refused in both modes ('measured nothing')
    "owping/owping--5.2.3-linux-c100-M-clean.txt",
    "twping/twping--5.2.3-linux-c50-M-loss.txt",
    # iperf3 -d: the JSON it prints ('\t"tcp":\ttrue,') was no iperf3 line (strict: no test
    # found; by default the debug lines were stray lines of the run)
    "iperf3/iperf3--3.12-linux-d-tcp-debug.txt",
    "iperf3/iperf3--3.12-linux-d-u-udp-debug.txt",
]
RUN_COLUMNS = ("tool", "complete", "dst_ip", "loss_pct", "warnings")


@pytest.mark.parametrize("strict", [True, False], ids=["strict", "default"])
@pytest.mark.parametrize("copy", ["terminal", "web page"])
@pytest.mark.parametrize("name", CASES)
def test_tabs_turned_into_spaces_read_the_same(name, copy, strict):
    text = (FIXTURES / name).read_text(encoding="utf-8")
    assert "\t" in text
    spaced = text.expandtabs(8) if copy == "terminal" else text.replace("\t", " ")
    base, got = azlatency.read(text, strict=strict), azlatency.read(spaced, strict=strict)
    assert len(got.runs) == len(base.runs) > 0
    assert_same_reading(base, got, tuple(c for c in RUN_COLUMNS if c in base.runs))
