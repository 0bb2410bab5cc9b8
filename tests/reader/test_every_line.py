"""What a copy did to every line of a text, undone by the reader with every line number put
back to the file's.

An empty line after every line (a mail or a page that holds each line in a paragraph of its
own, a document converted by pandoc): a study doing it to every fixture and corpus file (both
modes, 987 readings) found 699 read the same, 58 changed without a word (sockperf's summary cut
from its output, the echo client's log without its target), 59 refused; now 963 read the
same and say so, their lines the file's.  A line number before every line: below."""

from __future__ import annotations

import pytest

import azlatency
from azlatency.errors import ParseError
from azlatency.reader.joined import LineMap
from azlatency.reader.outline import undouble, unnumber
from tests.conftest import FIXTURES

CASES = [
    "sockperf/sockperf--3.7-linux-tcp-pingpong.txt",  # the summary was a second run
    "echo_csv/echo_csv--log-eff7dae-py3.11-linux-lo-timeout.log",  # its target was lost
    "fio/fio--3.33-linux-normal-write-1m.txt",  # refused: a job report line by line
    "netperf/netperf--2.7.1-linux-j-TCP_RR-o-csv.txt",  # three lines: the table cut short
]


def _doubled(text: str) -> str:
    return "\n".join(y for x in text.split("\n") for y in (x, ""))


@pytest.mark.parametrize("strict", [True, False], ids=["strict", "default"])
@pytest.mark.parametrize("name", CASES)
def test_an_empty_line_after_every_line_reads_the_same(name, strict):
    text = (FIXTURES / name).read_text(encoding="utf-8")
    base, got = azlatency.read(text, strict=strict), azlatency.read(_doubled(text), strict=strict)
    assert len(got.runs) == len(base.runs) > 0
    for frame in ("samples", "summaries"):
        a, b = getattr(base, frame), getattr(got, frame)
        assert a.drop(columns="run_id").equals(b.drop(columns="run_id")), frame
    keep = ["tool", "complete", "dst_ip", "port", "msg_size_bytes", "duration_s"]
    keep = [c for c in keep if c in base.runs]
    assert got.runs[keep].equals(base.runs[keep])
    assert got.runs["warnings"].str.contains("an empty line after every line").all()
    # the lines are the file's: line n of the text is line 2n - 1 of the copy
    assert (got.runs["line_start"] == 2 * base.runs["line_start"] - 1).all()
    assert (got.runs["line_end"] == 2 * base.runs["line_end"] - 1).all()


def test_a_located_error_names_the_file_line():
    text = (FIXTURES / CASES[0]).read_text(encoding="utf-8").split("\n")
    at = next(k for k, x in enumerate(text) if "avg-latency" in x)
    text[at] = "sockperf: ====> avg-latency=7.2.57 (std-dev=10.373)"
    with pytest.raises(ParseError) as one:
        azlatency.read("\n".join(text), strict=True)
    with pytest.raises(ParseError) as two:
        azlatency.read("\n" + _doubled("\n".join(text)), strict=True)  # kept lines start at 1
    assert one.value.line_no == at + 1 and two.value.line_no == 2 * (at + 1)


def test_lines_that_follow_each_other_are_left_as_they_are():
    lines = ["PING 10.0.0.4 (10.0.0.4) 56(84) bytes of data.", "", "a", "", "b", "c", "", "d"]
    assert undouble(lines) is None
    assert undouble(["a", "", "b", "", "c", ""]) == (["a", "b", "c"], 0)
    assert undouble(["", "a", "", "b", "", "c"]) == (["a", "b", "c"], 1)
    assert undouble(["a", "", "b", ""]) is None  # two lines: no telling


def test_line_map():
    where = LineMap(added=[1], step=2, first=1)  # line 2 a second half, every other line out
    assert [where(n) for n in (1, 2, 3, 4)] == [2, 2, 4, 6]
    assert where.renumbered("line 3 skipped") == "line 4 skipped"
    assert not LineMap() and LineMap(step=2)


@pytest.mark.parametrize("style", ["cat -n", "vim"])
@pytest.mark.parametrize("name", CASES)
def test_a_line_number_before_every_line_is_taken_off(name, style):
    """'cat -n', 'less -N' or an editor's line numbers copied from the terminal: a study
    doing either to every fixture and corpus file (both modes, 987 readings) found 12 read
    the same, 902 refused; now 959 (the rest: carriage returns that make lines of their own
    between the numbered ones) and each run says so."""
    text = (FIXTURES / name).read_text(encoding="utf-8")
    lines = text.split("\n")
    if style == "cat -n":
        numbered = [f"{k:>6}\t{x}" for k, x in enumerate(lines, 1)]
    else:
        numbered = [f"{k:>3} {x}".rstrip() for k, x in enumerate(lines, 1)]
    base, got = azlatency.read(text), azlatency.read("\n".join(numbered))
    for frame in ("runs", "samples", "summaries"):
        drop = ["run_id", "source_sha256", "warnings"]
        a = getattr(base, frame).drop(columns=drop, errors="ignore")
        assert a.equals(getattr(got, frame).drop(columns=drop, errors="ignore")), frame
    assert got.runs["warnings"].str.contains("a line number before every line").all()


def test_numbers_that_do_not_count_every_line_stay():
    """A tool's own numbered rows (traceroute's hops, sockperf's packets) stand among lines
    it does not number: the text is left as it is."""
    hops = ["traceroute to 10.0.0.4", " 1  10.0.0.1  0.5 ms", " 2  10.0.0.4  0.9 ms"]
    assert unnumber(hops) is None
    assert unnumber(["1 a", "2 b", "4 c"]) is None
    assert unnumber(["     7\tPING x", "     8\t", "     9\t64 bytes", ""]) == [
        "PING x",
        "",
        "64 bytes",
        "",
    ]


def test_the_repairs_compose():
    """A numbered, double-spaced text in an HTML page that was then read as Windows-1252:
    each repair undoes its own part, in any order the copies were made, and the lines are the
    file's (the page's first line, then every second one)."""
    import html

    from azlatency.decode import decode

    name = "ping/ping--win10-windows-de-cp850-timeout-unreachable-transcribed.txt"
    text = decode((FIXTURES / name).read_bytes()).text
    lines = text.split("\n")
    numbered = [f"{k:>6}\t{x}" for k, x in enumerate(lines, 1)]
    doubled = "\n".join(y for x in numbered for y in (x, ""))
    page = "<!DOCTYPE html>\n<html><body><pre>" + html.escape(doubled, quote=False) + "</pre>\n"
    moj = "".join(bytes([b]).decode("cp1252", errors="ignore") or chr(b) for b in page.encode())
    base, got = azlatency.read(text), azlatency.read(moj.encode("utf-8"))
    assert base.samples.drop(columns="run_id").equals(got.samples.drop(columns="run_id"))
    assert (got.runs["line_start"] == 2 * base.runs["line_start"]).all()
    said = got.runs["warnings"].iloc[0]
    for repair in ("mojibake", "HTML", "a line number", "an empty line after every line"):
        assert repair in said
