"""netperf: classic test tables, omni output selectors, ``-D`` interim results, ``-v 2``.

One run per test, from its banner (``MIGRATED TCP REQUEST/RESPONSE TEST from ...``, ``OMNI
Send|Recv TEST from ...``) to the end of its result: the classic table of TCP_RR, UDP_RR,
TCP_CRR, TCP_STREAM, TCP_MAERTS or UDP_STREAM; or the omni selectors as ``-o`` CSV, ``-O``
columns or ``-k`` ``KEY=value`` lines (what PerfKitBenchmarker runs: ``-j -v2 -- -o
THROUGHPUT,...,P99_LATENCY,...``); then ``-v 2``'s verbose table and histogram.  The styles
live in ``netperf/tables.py``; ``netperf/model.py`` names the summaries
(``docs/tools/netperf.md``).

A request/response test's latency is the transaction time, a round trip: ``latency_basis =
rtt``.  An output holding only netperf's error (``establish control: are you sure there is a
netserver listening on ...``) measured nothing: a :class:`~azlatency.errors.NothingMeasured`
at that line.
"""

from __future__ import annotations

import re

from ...errors import NothingMeasured, ParseError
from .._base import Parsed, Span, ToolInfo
from .._lines import (
    PROMPT,
    STRAY_LINES,
    anywhere,
    command_of,
    integer,
    number,
    run_together,
    stray,
)
from .lines import (
    BANNER,
    CONFIDENCE,
    ERROR,
    HINTS,
    HIST_OVER,
    HIST_ROW,
    HIST_TITLE,
    HIST_TOTAL,
    INTERIM,
    INVOCATION,
    KEYVAL,
    MSS_HEAD,
    ROW,
    RR_HEAD,
    STREAM_HEAD,
    TOOL,
    UDP_STREAM_HEAD,
    VERBOSE_HEAD,
    WARN,
    banner_facts,
    command_facts,
)
from .model import Histogram, Test, finish
from .tables import Cursor, classic, columns, csv, is_csv_header, is_header_line, mss, verbose

INFO = ToolInfo(
    tool=TOOL,
    own_samples=True,  # a classic table beside a -v 2 histogram is two executions
    description="netperf classic tables (TCP_RR, UDP_RR, TCP_CRR, TCP_STREAM, TCP_MAERTS, "
    "UDP_STREAM), omni -o/-O/-k output selectors, -D interim results, -v 2 histograms",
    # "-verbose": a -v 2 table or histogram followed the result
    variants=(
        "classic",
        "omni-csv",
        "omni-columns",
        "omni-keyval",
        "classic-verbose",
        "omni-csv-verbose",
        "omni-columns-verbose",
        "omni-keyval-verbose",
    ),
    versions="2.6-2.7.1 (captured: 2.7.0 with PerfKitBenchmarker's patch, 2.7.1)",
    produces=("runs", "samples", "summaries"),
    flags="-j -v 2 -- -o THROUGHPUT,THROUGHPUT_UNITS,P50_LATENCY,P90_LATENCY,P99_LATENCY,"
    "MEAN_LATENCY,STDDEV_LATENCY,MIN_LATENCY,MAX_LATENCY (percentiles and the histogram)",
    latency_basis="rtt",
    # netperf prints no end after its result: a -v 2 histogram may or may not follow, so a
    # log cut right after the result reads as a test run without -v 2 (a cut inside what
    # -v 2 prints is a "-verbose" run, incomplete).
    open_ended=("classic", "omni-csv", "omni-columns", "omni-keyval"),
)

_FENCE = re.compile(r"^\s*(```|~~~)")
_HEADING = re.compile(r"^\s{0,3}#{1,6}\s")
_OPENS = re.compile(r"^(?:netperf: |establish control: |establish_control could not )")
# The banner's opening words: a line with them that is no banner may be one a copy wrapped.
# ('TCP REQUEST/RESPONSE', 'TCP Connect/Request/Response', 'OMNI Send|Recv': no prose's ':')
_BANNER_HEAD = re.compile(r"^\"?(?:MIGRATED )?[A-Z][\w/| -]*? TEST from ")


# The reader's hook: locate() opens only at these, matched on the stripped line (a command
# line opens an output printed without its banner).
OPENERS = (anywhere(BANNER), anywhere(_BANNER_HEAD), anywhere(_OPENS), INVOCATION)


# ---------------------------------------------------------------------------------------------
# where the outputs are


def _netperf_line(line: str) -> bool:
    """Lines that may follow a blank line inside a netperf output."""
    s = line.strip()
    return bool(
        ROW.match(line)
        or HIST_TITLE.match(s)
        or HIST_ROW.match(s)
        or VERBOSE_HEAD.match(s)
        or MSS_HEAD.match(s)
        or INTERIM.match(s)
        or WARN.match(s)
        or RR_HEAD.match(s)
        or STREAM_HEAD.match(s)
        or UDP_STREAM_HEAD.match(s)
        or KEYVAL.match(s)
        or is_csv_header(s)
        or is_header_line(s)
    )


def _wrapped_banner(lines: list[str], i: int) -> re.Match[str] | None:
    """The banner, as one line, that a copy wrapped at a terminal's or mail client's width
    over lines ``i`` and ``i + 1`` ('... port 0 AF_INET to' / '10.77.40.2 () port 0 AF_INET :
    histogram : demo'); else None."""
    s = lines[i].strip()
    if i + 1 >= len(lines) or not _BANNER_HEAD.match(s) or BANNER.match(s):
        return None
    nxt = lines[i + 1].strip()
    return BANNER.match(f"{s} {nxt}") or BANNER.match(s + nxt)


def _ends(line: str) -> bool:
    return bool(_FENCE.match(line) or _HEADING.match(line) or PROMPT.match(line))


def _headless(lines: list[str], i: int) -> bool:
    """Line ``i`` runs netperf and a result table follows it with no banner (``-P 0``, or a
    paste that left the banner out): the output opens at the command."""
    if "netperf" not in lines[i] or not INVOCATION.search(lines[i]):
        return False
    strays = 0
    for line in lines[i + 1 : i + 4 + STRAY_LINES]:
        s = line.strip()
        if not s:
            continue
        if RR_HEAD.match(s) or STREAM_HEAD.match(s) or UDP_STREAM_HEAD.match(s):
            return True
        if is_header_line(s) or is_csv_header(s):
            return True
        strays += 1  # a foreign line (a kernel message) between: the reader names it
        if BANNER.match(s) or _ends(line) or INVOCATION.search(s) or strays > STRAY_LINES:
            return False
    return False


def locate(lines: list[str]) -> list[Span]:
    """A netperf output opens at its banner (or netperf's error) and goes on through every
    line up to a fence, a heading, a prompt, the next banner, or a blank line not followed by
    more netperf lines; the ``netperf`` command line just above is included."""
    spans: list[Span] = []
    i, n = 0, len(lines)
    while i < n:
        s = lines[i].strip()
        headless = _headless(lines, i)
        if not (BANNER.match(s) or _OPENS.match(s) or headless or _wrapped_banner(lines, i)):
            i += 1
            continue
        start = i - 1 if i and not headless and command_of(lines[i - 1], (TOOL,))[0] else i
        j = i + 1
        while j < n:
            line = lines[j]
            if BANNER.match(line.strip()) or _ends(line) or _wrapped_banner(lines, j):
                break
            if not line.strip():
                nxt = next((k for k in range(j + 1, min(j + 3, n)) if lines[k].strip()), None)
                if nxt is None or not _netperf_line(lines[nxt]):
                    break
            j += 1
        spans.append(Span(start, j, TOOL))
        i = j
    return spans


# ---------------------------------------------------------------------------------------------
# parse


class _Reader:
    def __init__(self, lines: list[str], source: str | None, strict: bool) -> None:
        self.lines, self.source, self.strict = lines, source, strict
        self.tests: list[Test] = []
        self.pending: list[tuple[str, int]] = []  # errors before any banner

    @property
    def test(self) -> Test | None:
        return self.tests[-1] if self.tests else None

    def read(self) -> list[Test]:
        i = 0
        while i < len(self.lines):
            i = self._line(i)
        return self.tests

    def _line(self, i: int) -> int:
        line, no = self.lines[i], i + 1
        s = line.strip()
        if _headless(self.lines, i):
            test = Test(
                {**command_facts(INVOCATION.search(s)["args"]), "variant": "classic"}, no, no
            )
            test.errors, self.pending = self.pending, []
            test.warnings.append(
                f"line {no}: no netperf banner: the test and its far end are read from the "
                "command line"
            )
            self.tests.append(test)
            return i + 1
        if not s or command_of(line, (TOOL,))[0]:
            return i + 1
        if (wrapped := _wrapped_banner(self.lines, i)) is not None:
            self.tests.append(Test({**banner_facts(wrapped), "variant": "classic"}, no, no + 1))
            self.tests[-1].errors, self.pending = self.pending, []
            self.tests[-1].warnings.append(
                f"lines {no}-{no + 1}: the banner broken in two (a copy wrapped at its "
                "width?), read as one line"
            )
            return i + 2
        if m := BANNER.match(s):
            # -D's first interim line run into the banner by a lost line break ('... AF_INET
            # : histogram : demoInterim result: ...'): the banner's options would take it
            cut = s.find("Interim result: ", 1)
            joined = cut > 0 and not s[cut - 1].isspace() and INTERIM.match(s[cut:])
            facts = banner_facts(BANNER.match(s[:cut]) if joined else m)
            facts["variant"] = "classic"
            self.tests.append(Test(facts, no, no, errors=self.pending))
            self.pending = []
            if joined:
                self.tests[-1].warnings.append(run_together(no, 2, "netperf"))
                self._body(self.tests[-1], i, s[cut:])
            return i + 1
        if ERROR.match(s):
            (self.test.errors if self.test else self.pending).append((s, no))
            return i + 1
        test = self.test
        if test is None:
            raise ParseError(
                TOOL,
                self.source,
                no,
                "expected a netperf banner ('MIGRATED TCP REQUEST/RESPONSE TEST from ...'), "
                f"got {s[:80]!r}",
            )
        j = self._body(test, i, s)
        test.line_end = max(test.line_end, j)
        return j

    def _body(self, test: Test, i: int, s: str) -> int:
        no = i + 1
        if m := WARN.match(s):
            if c := CONFIDENCE.match(s):
                test.warnings.append(
                    f"line {no}: netperf did not reach the confidence asked for: throughput "
                    f"interval +/-{c['pct']}%"
                )
            return i + 1
        if m := INTERIM.match(s):
            # netperf groups no thousands: '1,811 seconds' is a localized 1.811
            kw = {"tool": TOOL, "source": self.source, "line_no": no, "grouped": False}
            value = number(m["value"], what="a rate", **kw)
            secs = number(m["secs"], what="seconds", **kw)
            test.interim.append((value, m["unit"], secs, m["epoch"], no))
            return i + 1
        if m := KEYVAL.match(s):
            test.fields[m["key"]] = (m["value"], no)
            test.result = True
            test.facts["variant"] = "omni-keyval"
            return i + 1
        if HIST_TITLE.match(s) or HIST_ROW.match(s) or HIST_OVER.match(s) or HIST_TOTAL.match(s):
            return self._histogram(test, i, s)
        return self._table(test, i, s)

    def _table(self, test: Test, i: int, s: str) -> int:
        c = Cursor(self.lines, i, self.source)
        mode = test.facts.get("mode")
        if not test.result and (
            RR_HEAD.match(s) or STREAM_HEAD.match(s) or UDP_STREAM_HEAD.match(s)
        ):
            test.result = classic(c, mode, test.fields)
        elif VERBOSE_HEAD.match(s):
            if not verbose(c, mode, test.fields):
                test.parts.append(f"line {i + 1}: the -v 2 table is cut short")
            test.facts["verbose"] = True
        elif MSS_HEAD.match(s):
            if not mss(c, test.fields):
                test.parts.append(f"line {i + 1}: the maximum segment size block is cut short")
        elif not test.result and is_csv_header(s):
            test.result = csv(c, test.fields)
            test.facts["variant"] = "omni-csv"
        elif not test.result and is_header_line(s):
            test.result = columns(c, test.fields)
            test.facts["variant"] = "omni-columns"
        else:
            stray(TOOL, self.source, i + 1, self.lines[i], self.strict, test.warnings)
            return i + 1
        return max(c.i, i + 1)

    def _histogram(self, test: Test, i: int, s: str) -> int:
        no = i + 1
        h = test.histogram
        if m := HIST_TITLE.match(s):
            test.histogram = Histogram(m["what"], no)
            return i + 1
        if h is None or h.total is not None:
            stray(TOOL, self.source, no, self.lines[i], self.strict, test.warnings)
            return i + 1
        if m := HIST_ROW.match(s):
            cells = [
                integer(x, tool=TOOL, source=self.source, line_no=no, what="a histogram count")
                for x in m["cells"].split(":")[1:]
            ]
            if m["row"] in h.rows or (h.rows and len(cells) != len(next(iter(h.rows.values())))):
                stray(TOOL, self.source, no, self.lines[i], self.strict, test.warnings)
                return i + 1
            h.rows[m["row"]] = cells
        elif m := HIST_OVER.match(s):
            h.over = int(m["n"])
        elif m := HIST_TOTAL.match(s):
            h.total = int(m["n"])
        h.last = no
        return i + 1


def _check_histogram(test: Test) -> None:
    h = test.histogram
    if h is not None and h.total is None:
        test.parts.append(f"line {h.last or h.line}: the histogram is cut short (no HIST_TOTAL)")
    elif h is not None and len(h.rows) < 8:
        test.parts.append(f"line {h.line}: the histogram has {len(h.rows)} of its 8 rows")
    elif h is None and test.facts.get("verbose") and ": histogram" in test.facts.get("opts", ""):
        test.parts.append("the -v 2 table is not followed by its histogram (cut short?)")


def _nothing(errors: list[tuple[str, int]], source: str | None) -> NothingMeasured:
    msg, no = errors[0]
    hint = next((h for k, h in HINTS.items() if k in msg), None)
    return NothingMeasured(
        TOOL, source, no, f"netperf reported an error and measured nothing: {msg!r}", hint=hint
    )


def parse(text: str, *, source: str | None = None, strict: bool = True) -> Parsed:
    reader = _Reader(text.split("\n"), source, strict)
    tests = reader.read()
    if not tests:
        if reader.pending:
            raise _nothing(reader.pending, source)
        raise ParseError(
            TOOL,
            source,
            1,
            "no netperf test found: expected its banner "
            "('MIGRATED TCP STREAM TEST from ...', 'OMNI Send TEST from ...')",
        )
    if not any(t.result or t.interim or t.fields for t in tests):
        errors = [e for t in tests for e in t.errors] + reader.pending
        if errors:
            raise _nothing(errors, source)
    runs = []
    for test in tests:
        _check_histogram(test)
        if test.histogram is not None or test.facts.get("verbose"):
            test.facts["variant"] += "-verbose"
        runs.append(finish(test, source))
    if reader.pending and runs:
        runs[-1].warnings.extend(f"line {no}: netperf: {msg}" for msg, no in reader.pending)
    return Parsed(TOOL, runs)
