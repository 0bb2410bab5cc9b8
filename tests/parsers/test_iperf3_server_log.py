"""iperf3 server logs: the fast paths of issue 39 for many short tests read as before.

``model.sample_frames`` hands each test its rows of one frame (``Run.share``), cut out when
``samples`` is read; here each frame is checked to be its own (values, index, writes that stay
in it).  ``TextReader.figures``
reads an interval line's numbers with ``float()`` first: the same values and errors as
``read_figures``, number by number.  The iperf 2 check looks line by line only in a text
holding one of ``IPERF2_WORDS``.  ``model._column`` types a column with one ``np.array``
when it can: the same arrays as value by value.  ``segments`` finds where a text block
meets JSON by the lines holding '{' (``_next_json``): the same pieces as line by line.  A
line tries only the kinds that can start with its first character (``text._BY_FIRST``): the
kind found is the one trying every kind in order finds.  That every frame
equals the one built test by test is ``test_iperf3_scan.py``'s
``test_sample_frames_cut_from_one_frame_are_each_tests_own``.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from azlatency.errors import ParseError
from azlatency.parsers import iperf3
from azlatency.parsers._base import Run
from azlatency.parsers.iperf3 import model, text
from azlatency.parsers.iperf3.lines import INTERVAL, IPERF2, IPERF2_WORDS
from azlatency.parsers.iperf3.text import TextReader
from tests.conftest import CORPUS, FIXTURES, SEEDS

SERVER = FIXTURES / "iperf3" / "iperf3--3.12-linux-s-server-six-tests.txt"


def _files() -> list[Path]:
    out = sorted((FIXTURES / "iperf3").glob("iperf3--*"))
    for folder in (CORPUS / "iperf3", SEEDS):
        if folder.is_dir():
            out += sorted(p for p in folder.rglob("*") if p.is_file())
    return out


def test_each_tests_samples_are_its_own_rows():
    runs = iperf3.parse(SERVER.read_text() * 2).runs
    assert len(runs) == 12
    first, multi = runs[0].samples, runs[3].samples
    assert first.index.equals(pd.RangeIndex(2))
    assert first["bytes"].tolist() == [12582912, 12478054]  # 12.0 and 11.9 MBytes
    assert first["end_s"].tolist() == [1.0, 2.0]
    assert multi.index.equals(pd.RangeIndex(10))
    assert multi["stream"].tolist() == ["5", "8", "11", "13", "SUM"] * 2
    assert multi["seq"].tolist() == [0] * 5 + [1] * 5
    assert str(multi["bytes"].dtype) == "Int64" and multi["stream"].dtype == "str"


def test_a_write_to_one_tests_samples_stays_in_it():
    runs = iperf3.parse(SERVER.read_text() * 2).runs
    again = runs[6].samples.copy()
    runs[0].samples.loc[0, "bytes"] = 1
    runs[0].samples.loc[1, "start_s"] = -1.0
    runs[0].samples.loc[0, "status"] = "error"
    pd.testing.assert_frame_equal(runs[6].samples, again)  # the same test, printed again
    assert runs[1].samples["bytes"].tolist() == [12478054, 12478054]  # the next rows
    assert runs[0].samples["bytes"].tolist() == [1, 12478054]


def _outcome(fn, *args):
    try:
        return fn(*args)
    except ParseError as exc:
        return str(exc)


@pytest.mark.parametrize(
    ("xfer", "rate"),
    [("12.0", "101"), ("1,234", "99.6"), ("nan", "1"), ("1", "inf"),
     ("1e3", "-1"), ("9" * 400, "1"), ("1", "9" * 400), ("9" * 18, "1"), ("x", "1"),
     ("1", "1_000"), ("0.00", "0.00")],
)  # fmt: skip
@pytest.mark.parametrize("units", ["MBytes Mbits/sec", "Bytes bits/sec", "GBytes MBytes/sec"])
@pytest.mark.parametrize("times", ["0.00-1.00", "1-2", "1" * 400 + ".0-1"])
def test_interval_figures_read_as_number_by_number(xfer, rate, units, times):
    xunit, runit = units.split()
    line = f"[  5]   {times}   sec  {xfer} {xunit}  {rate} {runit}"
    m = INTERVAL.match(line)
    assert m is not None
    reader = TextReader([], source="x", strict=True)
    fast = _outcome(reader.figures, m, 7)
    assert fast == _outcome(reader.read_figures, m, 7)
    if xfer == "12.0" and units == "MBytes Mbits/sec" and times == "1-2":
        assert fast == (1.0, 2.0, 12.0 * 2**20, 101e6)


_IPERF2_LINES = [
    "Client connecting to 10.0.0.2, TCP port 5001",
    "Server listening on UDP port 5001",
    "Server listening on SCTP port 5001",
    "[  3] local 10.0.0.1 port 5001 connected with 10.0.0.2 port 40000",
    "[SUM] local 10.0.0.1 port 5001 connected with 10.0.0.2 port 40000",
    "[  3] Server Report:",
    "Sending 1470 byte datagrams, IPG target: 11215.21 us (kalman adjust)",
]


def test_every_iperf2_line_holds_one_of_its_words():
    folders = [FIXTURES / "iperf2", FIXTURES / "iperf3", CORPUS / "iperf2", CORPUS / "iperf3"]
    lines = [x for f in folders if f.is_dir() for p in sorted(f.rglob("*")) if p.is_file()
             for x in p.read_text(errors="replace").split("\n")]  # fmt: skip
    found = [x for x in [*lines, *_IPERF2_LINES] if IPERF2.match(x.strip())]
    assert len(found) > len(_IPERF2_LINES)
    for line in found:
        assert any(word in line for word in IPERF2_WORDS), line
    assert not any(word in "Server listening on 5201 (test #1)" for word in IPERF2_WORDS)


def test_an_iperf2_banner_deep_in_an_iperf3_log_is_still_refused():
    log = SERVER.read_text() * 3
    lines = log.split("\n")
    lines.insert(40, "  Client connecting to 10.0.0.2, TCP port 5001")
    with pytest.raises(ParseError) as info:
        iperf3.parse("\n".join(lines), source="x")
    assert info.value.line_no == 41 and "iperf 2 output, not iperf3" in str(info.value)


def _old_column(key, values):
    if key in model._INT_KEYS:
        mask = np.fromiter((v is None for v in values), dtype=bool, count=len(values))
        data = np.fromiter((0 if v is None else v for v in values), dtype=np.int64)
        return pd.arrays.IntegerArray(data, mask)
    return np.fromiter((np.nan if v is None else v for v in values), dtype=np.float64)


@pytest.mark.parametrize("key", ["bytes", "seq", "bits_per_second", "jitter_us"])
@pytest.mark.parametrize(
    "values",
    [[1, 2, 3], [None, 2], [None, None], [], [2**63 - 1, -(2**63)], [1.5, 2], [True, 0],
     [np.int64(4), 5]],
)  # fmt: skip
def test_typed_columns_at_once_as_value_by_value(key, values):
    new, old = model._column(key, values), _old_column(key, values)
    assert type(new) is type(old) and new.dtype == old.dtype
    if isinstance(new, np.ndarray):
        np.testing.assert_array_equal(new, old)
    else:
        pd.testing.assert_extension_array_equal(new, old)
        assert new.isna().tolist() == [v is None for v in values]


_MIXED = [
    "[  5]   0.00-1.00   sec  12.0 MBytes   101 Mbits/sec",
    "a note {with braces} in the text",
    "{",
    '  "start": {"version": "iperf 3.12"},',
    '  "end": {}',
    "}",
    "[  5]   0.00-1.00   sec  12.0 MBytes   101 Mbits/sec\r",
    '{"event":"start","data":{}}',
    '{"event":"end","data":{}}',
    "Server listening on 5201 (test #2)",
    '   {"start": {"version": "iperf 3.12"}}',
    "tail {",
]


def _texts() -> list[str]:
    out = [p.read_text(errors="replace") for p in _files()]
    out += ["\n".join(_MIXED), "\n".join(_MIXED[:2]), "\n".join(_MIXED[6:]) + "\n", "{", ""]
    return out


def test_text_runs_to_the_next_json_as_line_by_line(monkeypatch):
    texts = _texts()
    new = [iperf3.segments(t.split("\n"), text_everywhere=True, text=t) for t in texts]
    monkeypatch.setattr(iperf3, "_next_json", lambda lines, j, joined: j)  # the loop's own look
    old = [iperf3.segments(t.split("\n"), text_everywhere=True, text=t) for t in texts]
    assert new == old
    assert new[-5] == [("text", 0, 2), ("json", 2, 6), ("text", 6, 7), ("stream", 7, 9),
                       ("text", 9, 10), ("json", 10, 11), ("text", 11, 12)]  # fmt: skip


def _first_kind(kinds, line: str):
    return next(((handle, kind) for match, handle, kind, *_ in kinds if match(line)), None)


_ODD = [
    "[me@host ~]$ iperf3 -c 10.0.0.1",  # a prompt in brackets: a command, not a '[' kind
    "$ iperf3 -s",
    "Cookie: abc",
    "TCP MSS: 1448 (default)",
    "Target Bitrate: 1 Mbit/sec",
    "Test Complete. Summary Results:",
    "Linux host 6.1.0 #1 SMP x86_64",
    "snd_tcp_congestion cubic",
    "rcv_tcp_congestion cubic",
    "warning: something",
    "iperf3: interrupt - the server has terminated",
    "iperf 3.12",
    "iperf Done.",
    "- - - - - - - - - - - - - - - - - - - - - - - - -",
    "-----------------------------------------------------------",
    "[  5] (sender statistics not available)",
    "[  5] Sent 6041 datagrams",
    "[SUM]  0.0-10.0 sec  3 datagrams received out-of-order",
    "Server output:",
    "\u00a0stray",
    "0",
    "{",
]


def test_a_line_tries_only_the_kinds_it_can_start_with():
    lines = {x.strip() for p in _files() for x in p.read_text(errors="replace").split("\n")}
    lines = sorted((lines | set(_ODD)) - {""})
    assert len(lines) > 1000
    for line in lines:
        dispatched = _first_kind(text._BY_FIRST.get(line[0], text._ANY_FIRST), line)
        assert dispatched == _first_kind(text._KINDS, line), line


@pytest.mark.parametrize("first", ["[", "-", "C", "S", "i", "T", "x", "$", "7"])
def test_the_kinds_of_a_first_character_keep_their_order(first):
    kinds = text._BY_FIRST.get(first, text._ANY_FIRST)
    order = [k[0] for k in text._KINDS]
    assert [order.index(k[0]) for k in kinds] == sorted(order.index(k[0]) for k in kinds)
    assert any(k[1] is text.TextReader.command_line for k in kinds)  # a command: any start


def test_values_and_row_groups_of_rows():
    rows = [
        {"stream": "5", "status": "ok", "bits_per_second": 1.0, "role": "receiver"},
        {"stream": "SUM", "status": "ok", "bits_per_second": 4.0, "role": "receiver"},
        {"stream": "5", "status": "duplicate", "bits_per_second": 9.0, "role": "receiver"},
        {"stream": "5", "status": "ok", "bits_per_second": None, "role": "receiver"},
        {"stream": "8", "status": "ok", "bits_per_second": 2.0, "_flow": "reverse"},
        {"stream": "5", "status": "ok", "bits_per_second": 3.0, "role": "receiver"},
    ]
    assert model._values(rows, "stream") == ["5", "SUM", "5", "5", "8", "5"]
    assert model._values(rows, "role") == ["receiver"] * 4 + [None, "receiver"]
    groups = model._row_groups(rows)
    assert groups == {
        ("", "receiver"): {"5": [1.0, 3.0], "SUM": [4.0]},
        ("reverse", None): {"8": [2.0]},
    }
    assert list(groups) == [("", "receiver"), ("reverse", None)]


def _firsts(items) -> set[str] | None:
    """The characters a stripped line matched by the parsed pattern ``items`` can start with;
    None when any (or when this reading cannot tell)."""
    import re._constants as c

    for op, av in items:
        if op is c.AT:
            continue
        if op is c.LITERAL:
            return {chr(av)}
        if op is c.IN and all(o is c.LITERAL for o, _ in av):
            return {chr(v) for _, v in av}
        if op is c.SUBPATTERN:
            return _firsts(av[3])
        if op is c.BRANCH:
            alts = [_firsts(alt) for alt in av[1]]
            return None if None in alts else set().union(*alts)
        if op in (c.MAX_REPEAT, c.MIN_REPEAT):
            lo, _, inner = av
            if lo > 0:
                return _firsts(inner)
            if list(inner) == [(c.IN, [(c.CATEGORY, c.CATEGORY_SPACE)])]:
                continue  # leading white space: a stripped line has none
        return None
    return None


def test_each_kinds_first_characters_are_read_off_its_pattern():
    """The hand-written first characters of ``text._KINDS`` hold every character its pattern
    can start a line with: a pattern given a new alternative cannot be skipped unseen."""
    import re._parser as sre_parse

    for match, _, _, chars in text._KINDS:
        pattern = getattr(match, "__self__", None)
        if chars is None or pattern is None:
            continue
        assert not pattern.flags & re.IGNORECASE, pattern.pattern
        firsts = _firsts(sre_parse.parse(pattern.pattern, pattern.flags))
        assert firsts is not None and firsts <= set(chars), (pattern.pattern, chars)


def test_the_iperf2_words_hold_every_literal_of_the_pattern():
    """``IPERF2_WORDS`` against the literals ``reader.openers.needs`` reads off ``IPERF2`` (one
    of which every line it matches holds): each of those holds a word, so a text with none of
    the words has no iperf 2 line, and a new alternative without one fails here."""
    from azlatency.reader.openers import needs

    literals = needs(IPERF2)
    assert literals
    assert all(any(word in lit for word in IPERF2_WORDS) for lit in literals), literals


def test_a_run_with_shared_rows_reads_them_as_its_own_frame():
    frame = pd.DataFrame({"seq": [0, 1, 2, 3], "bytes": [10, 11, 12, 13]})
    run = Run()
    run.share(frame, 1, 3)
    assert run.sample_rows() == (frame, 1, 3)  # not cut out: the reader takes ``frame``
    assert run.samples.index.equals(pd.RangeIndex(2)) and run.samples["bytes"].tolist() == [11, 12]
    run.samples.loc[0, "bytes"] = 99  # read, it may be written to: its own frame from now on
    rows = run.sample_rows()
    assert rows[0] is run.samples and rows[1:] == (0, 2) and frame["bytes"][1] == 11
    run.samples = frame  # a frame of its own replaces the shared rows
    assert run.shared is None and run.sample_rows() == (frame, 0, 4)
