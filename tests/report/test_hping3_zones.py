"""Zone pairs measured by hping3 (real captures filed by zone pair with a path rule;
tests/fixtures/hping3/SOURCES.md)."""

from __future__ import annotations

from tests.report._fixture_campaign import BY_PATH, answer_texts, import_fixtures

H = "hping3/hping3--3.0.0a2-linux-veth-"


def test_two_pairs_of_two_protocols_and_no_size_are_not_compared(tmp_path):
    # hping3 prints no message size: its TCP SYN runs at 1→2 and 2→1 make a matrix of runs
    # that printed none, its ICMP run at 1→3 is held out by protocol; 'Is zone 1 to zone 3
    # slower than zone 1 to zone 2?' raised 'boolean value of NA is ambiguous' (page 90
    # failed) where the matrix's size, none, was compared with the size asked
    files = {
        H + "S-p443-c10-file.txt": "1-2/a.txt",
        H + "icmp-c5.txt": "1-3/b.txt",
        H + "S-c50-i20ms.txt": "2-1/c.txt",
    }
    t = import_fixtures(tmp_path, "hping3", files, BY_PATH)
    assert answer_texts(t, "Is zone 1 to zone 3 slower than zone 1 to zone 2?")[0] == (
        "**1→3 against 1→2: not compared** (1→2 by hping3 (600 µs); 1→3 measured only in runs "
        "a zone matrix leaves out, to hold all but the zones fixed: hping3's 1 run over ICMP "
        "(1→3))."
    )
