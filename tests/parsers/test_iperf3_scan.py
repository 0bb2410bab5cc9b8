"""iperf3: the fast paths of issue 39 give what the line-by-line reading gave.

``_json_end`` finds a document's end with one regex scan of the joined text; the interval
rows of a clean ``-J`` document are built column by column.  Each case here is one the fast
path must still see: the column-0 ``}``, a fence, the next document (``^C{`` too), a cut.
"""

from __future__ import annotations

from azlatency.parsers.iperf3 import _Joined, _json_end


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
