"""iperf3: the fast paths of issue 39 give what the line-by-line reading gave.

``_json_end`` finds a document's end with one regex scan of the joined text; the interval
rows of a clean ``-J`` document are built column by column.  Each case here is one the fast
path must still see: the column-0 ``}``, a fence, the next document (``^C{`` too), a cut.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pandas as pd
import pytest

from azlatency.errors import ParseError
from azlatency.parsers import iperf3
from azlatency.parsers._lines import integer, number
from azlatency.parsers.iperf3 import _Joined, _json_end, jsoncols, jsondoc, model
from azlatency.parsers.iperf3.text import TextReader
from tests.conftest import CORPUS, FIXTURES


def _doc(*body: str) -> list[str]:
    return ["{", '\t"start":\t{', "\t},", *body]


def test_json_end_is_the_column_0_brace():
    lines = [*_doc('\t"intervals":\t[{', '\t\t"x": "```"', "\t}]"), "}", "after"]
    assert _json_end(lines, 0) == 7


def test_json_end_before_a_fence_or_the_next_document():
    fence = [*_doc(), "  ```", "}"]
    assert _json_end(fence, 0) == 3
    tilde = [*_doc(), "~~~ text", "}"]
    assert _json_end(tilde, 0) == 3
    # cut short, then the next document
    for opening in ("{", "   {", '{"start": {}}', '^C{"start": "~"'):
        nxt = [*_doc('\t"intervals":\t['), opening, '\t"start":\t{', "\t}", "}"]
        assert _json_end(nxt, 0) == 4, opening
    # '^C{' opens a document at the top (parse), not within one: the old reading's
    # quick look at each line never saw it there
    nxt = [*_doc('\t"intervals":\t['), "^C{", '\t"start":\t{', "\t}", "}"]
    assert _json_end(nxt, 0) == 8


def test_json_end_skips_what_only_looks_like_a_stop():
    # '{' indented by 4, marks inside values, a '{' not followed by a "start" key
    lines = [*_doc("    {", '\t"a": "^C ``` ~~~"', "  {", '\t"b": 1'), "}"]
    assert _json_end(lines, 0) == 8
    assert _json_end([*_doc('\t"cut": 1')], 0) == 4
    assert _json_end(['{"start": {}, "end": {}}', "x"], 0) == 1


def test_json_end_from_a_later_line_and_back():
    lines = ["text", *_doc(), "}", "", *_doc(), "}"]
    joined = _Joined(lines)
    assert _json_end(lines, 7, joined) == 10
    assert _json_end(lines, 1, joined) == 5  # an earlier line: offsets counted again
    assert joined.text[joined.offset(6) :].startswith("{")


def _json_end_line_by_line(lines: list[str], i: int) -> int:
    """The reading _json_end replaced (before issue 39): each line looked at in turn."""
    if iperf3._COMPACT_OPEN.match(lines[i]) and lines[i].rstrip().endswith("}"):
        return i + 1
    for j in range(i + 1, len(lines)):
        line = lines[j]
        if line[:1] == "}" and iperf3._CLOSE.match(line):
            return j + 1
        quick = "`" in line or "~" in line or line.lstrip(" ")[:1] == "{"
        if quick and (iperf3._FENCE.match(line) or iperf3._json_opens(lines, j)):
            return j
    return len(lines)


def test_json_end_agrees_with_the_line_by_line_reading():
    pieces = [
        "{", "}", "} ", "}x", "}\t", "  {", "   {", "    {", "\t{", "^C{", "^C", "a^Cb", "~",
        "`", " `{", "```", " ~~~ x", "x ``` y", "", '"start": 1', '  "start": {',
        '{"start": 2}', '{ "start": 3, "x": 1}', '^C{"start": "~"}', "text",
        "  ", "\t", '\t"a": 1,', '  "start"', ' "x": "start"', '{\t"start":', "{ ",
    ]  # fmt: skip
    rnd = random.Random(39)
    for _ in range(3000):
        lines = [rnd.choice(pieces) for _ in range(rnd.randint(1, 12))]
        joined = _Joined(lines)  # one for every start, in a random order: offsets go back too
        for i in rnd.sample(range(len(lines)), len(lines)):
            want = _json_end_line_by_line(lines, i)
            assert _json_end(lines, i) == want, (lines, i)
            assert _json_end(lines, i, joined) == want, (lines, i)


@pytest.mark.parametrize("indent", [1, 2, 3, "\t"])
def test_json_end_of_reindented_documents(indent):
    # json.tool / jq re-indentation puts every interval's '{' 1-3 spaces in: none is a stop
    doc = json.loads(
        (FIXTURES / "iperf3" / "iperf3--3.12-linux-J-P4-tcp-parallel-dupkeys.json").read_text()
    )
    one = json.dumps(doc, indent=indent).split("\n")
    cut = one[: len(one) // 2]
    for lines in (one, [*one, *one], [*cut, *one], ["text", *cut, "", *one, "```"]):
        for i in (k for k, x in enumerate(lines) if x == "{"):
            assert _json_end(lines, i) == _json_end_line_by_line(lines, i)
    assert len(iperf3.parse("\n".join([*cut, *one]), strict=False).runs) == 2


# ---------------------------------------------------------------------------------------------
# interval rows column by column (jsoncols.py) = row by row (jsondoc._intervals)


def _json_files() -> list[Path]:
    out = sorted((FIXTURES / "iperf3").glob("iperf3--*"))
    if (CORPUS / "iperf3").is_dir():
        out += sorted(p for p in (CORPUS / "iperf3").rglob("*") if p.is_file())
    return [p for p in out if not p.name.endswith(".expected.json") and p.suffix != ".md"]


def _read(text: str, strict: bool):
    try:
        return iperf3.parse(text, source="x", strict=strict)
    except ParseError as exc:
        return str(exc)


def _same(a, b) -> None:
    assert type(a) is type(b)
    if isinstance(a, str):
        assert a == b
        return
    assert len(a.runs) == len(b.runs)
    for x, y in zip(a.runs, b.runs, strict=True):
        assert (x.meta, x.warnings, x.summaries) == (y.meta, y.warnings, y.summaries)
        assert (x.line_start, x.line_end) == (y.line_start, y.line_end)
        if x.samples is None or y.samples is None:
            assert x.samples is None and y.samples is None
        else:
            pd.testing.assert_frame_equal(x.samples, y.samples, check_exact=True)


def test_columns_read_every_json_as_the_rows_do(monkeypatch):
    fast = []
    real = jsondoc.interval_columns

    def spy(*args):
        cols = real(*args)
        fast.append(cols is not None)
        return cols

    texts = [p.read_text(encoding="utf-8", errors="replace") for p in _json_files()]
    for strict in (True, False):
        monkeypatch.setattr(jsondoc, "interval_columns", spy)
        new = [_read(t, strict) for t in texts]
        monkeypatch.setattr(jsondoc, "interval_columns", lambda *a: None)
        old = [_read(t, strict) for t in texts]
        for a, b in zip(new, old, strict=True):
            _same(a, b)
    assert sum(fast) >= 20  # the fixtures' clean documents did take the columns


_IV = {"start": 0, "end": 1.0, "bytes": 10, "bits_per_second": 80.0, "socket": 5}


def _columns(**changed):
    iv = {"streams": [_IV | changed], "sum": {k: v for k, v in _IV.items() if k != "socket"}}
    return jsoncols.interval_columns([iv, iv], "client", False, "sender", "receiver")


def test_columns_values_and_types():
    cols = _columns(retransmits=2, omitted=True)
    assert cols["stream"].tolist() == ["5", "SUM", "5", "SUM"]
    assert cols["status"].tolist() == ["omitted", "ok"] * 2
    assert cols["role"].tolist() == ["sender"] * 4
    assert cols["start_s"].dtype == "float64" and cols["start_s"].tolist() == [0.0] * 4
    assert str(cols["bytes"].dtype) == "Int64" and cols["bytes"].tolist() == [10] * 4
    assert cols["retransmits"].tolist() == [2, pd.NA, 2, pd.NA]
    assert cols["seq"].tolist() == [0, 0, 1, 1]
    assert "jitter_us" not in cols and cols["_flow"] == [""] * 4
    assert _columns(jitter_ms=0.5)["jitter_us"].tolist()[0] == 500.0
    assert _columns(socket=None)["stream"].tolist()[0] == "#0"


@pytest.mark.parametrize(
    "changed",
    [
        {"bytes": 10.0},  # a whole float where an int is read: the rows convert it
        {"bytes": True},
        {"bytes": 2**63},
        {"bytes": -(2**63)},
        {"end": float("nan")},
        {"end": float("inf")},
        {"bits_per_second": "80"},
        {"bits_per_second": 2**64},
        {"socket": "5"},
        {"socket": 5.0},
        {"rtt": [1]},
    ],
)
def test_columns_leave_what_the_rows_check_to_the_rows(changed):
    assert _columns(**changed) is None
    assert _columns() is not None


def test_columns_of_a_document_with_a_bad_value_warn_as_before():
    doc = json.loads((FIXTURES / "iperf3" / "iperf3--3.12-linux-J-tcp.json").read_text())
    doc["intervals"][1]["streams"][0]["bytes"] = "many"
    doc["intervals"][1]["sum"]["end"] = float("nan")
    text = json.dumps(doc, indent="\t")
    run = iperf3.parse(text, strict=False).runs[0]
    assert "intervals[1].streams[0].bytes: expected a number, got 'many': not read" in run.warnings
    assert "nan values read as missing" in run.warnings
    assert pd.isna(run.samples["bytes"][2]) and pd.isna(run.samples["end_s"][3])
    assert run.samples["bytes"][0] == 12582912 and run.samples["end_s"][1] == 1.000099
    with pytest.raises(ParseError, match=r"intervals\[1\]\.streams\[0\]\.bytes"):
        iperf3.parse(text)


# ---------------------------------------------------------------------------------------------
# one samples frame for the tests with the same columns, cut into each test's rows


def test_sample_frames_cut_from_one_frame_are_each_tests_own(monkeypatch):
    texts = [p.read_text(encoding="utf-8", errors="replace") for p in _json_files()]
    server = FIXTURES / "iperf3" / "iperf3--3.12-linux-s-server-six-tests.txt"
    texts.append(server.read_text() * 3)
    new = [_read(t, False) for t in texts]
    monkeypatch.setattr(
        iperf3, "sample_frames", lambda tests: [model._samples(t.rows, t.columns) for t in tests]
    )
    old = [_read(t, False) for t in texts]
    for a, b in zip(new, old, strict=True):
        _same(a, b)  # columns, dtypes, values and a RangeIndex from 0
    runs = new[-1].runs
    assert len(runs) == 18 and runs[0].samples.index.equals(pd.RangeIndex(len(runs[0].samples)))
    assert runs[6].samples.equals(runs[0].samples) and runs[6].samples is not runs[0].samples


# ---------------------------------------------------------------------------------------------
# text numbers: float()/int() first, number()/integer() for what they do not read


def _old_num(reader, text):
    # iperf3 groups no thousands: '1,234' is refused as a localized decimal would be
    value = number(text, tool="iperf3", source=None, line_no=3, what="x", grouped=False)
    if value != value or value in (float("inf"), float("-inf")):
        raise reader.error(3, f"expected x, got {text!r}")
    return value


def _old_int(reader, text):
    value = integer(text, tool="iperf3", source=None, line_no=3, what="x")
    if abs(value) > 2**63 - 1:
        raise reader.error(3, f"x {text!r} is beyond a 64-bit count")
    return value


def _outcome(fn, *args):
    try:
        value = fn(*args)
    except ParseError as exc:
        return "error", str(exc)
    return type(value), value


@pytest.mark.parametrize(
    "text",
    ["12.0", " 101 ", "1,234", "1\xa0234", "1\u202f234", "1_000", "nan", "-inf", "1e3", "x",
     "", "7.5", "-3", "+4", str(2**63 - 1), str(2**63), str(-(2**63)), str(2**70), "1.0",
     "9" * 30, "0x10"],
)  # fmt: skip
def test_text_numbers_read_as_before(text):
    reader = TextReader([], source=None, strict=True)
    assert _outcome(reader.num, text, 3, "x") == _outcome(_old_num, reader, text)
    assert _outcome(reader.int, text, 3, "x") == _outcome(_old_int, reader, text)


def test_parse_pauses_the_collector_and_leaves_it_as_found(monkeypatch):
    """``gc_paused`` around the parse: off while the JSON documents are decoded, as found
    after (on, off, and after a located error)."""
    import gc

    seen = []
    real = iperf3.decode_documents

    def spy(text):
        seen.append(gc.isenabled())
        return real(text)

    monkeypatch.setattr(iperf3, "decode_documents", spy)
    text = (FIXTURES / "iperf3" / "iperf3--3.12-linux-J-P4-tcp-parallel-dupkeys.json").read_text()
    assert gc.isenabled()
    assert len(iperf3.parse(text).runs) == 1
    assert seen == [False] and gc.isenabled()
    broken = text.replace('"intervals"', '"intervals" 7', 1)  # a document that goes on after it
    with pytest.raises(ParseError):
        iperf3.parse(broken)
    assert gc.isenabled()
    gc.disable()
    try:
        iperf3.parse(text)
        assert not gc.isenabled()
    finally:
        gc.enable()
