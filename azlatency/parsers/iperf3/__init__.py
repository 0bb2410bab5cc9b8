"""iperf3: console text (client and server, 3.0–3.18), ``-J`` JSON and ``--json-stream``.

One run per test: a client output, each test of a server log (``Server listening on ...``
repeats), each JSON document, each ``start`` event of a JSON stream, and the server's view
that ``--get-server-output`` embeds in a client output.  The dialects live in
``iperf3/text.py`` and ``iperf3/jsondoc.py``; both fill the model of ``iperf3/model.py``,
which names the summaries (``docs/tools/iperf3.md``).

An output that holds only iperf3's error (``iperf3: error - unable to connect to server``, or
a JSON document whose ``error`` is all there is) measured nothing: it is a
:class:`~azlatency.errors.ParseError` carrying iperf3's message and a hint, so the import
report lists the file.  An error after measurements (Ctrl-C, a lost connection) keeps the run
with ``complete = False`` and the message in ``warnings``.
"""

from __future__ import annotations

import heapq
import json
import re

from ...errors import ParseError
from .._base import Parsed, Span, ToolInfo
from .._lines import STRAY_LINES, anywhere, command_of, gc_paused, stray
from .documents import decode_documents, stream_documents
from .jsondoc import has_measurement, to_test
from .lines import (
    ACCEPTED,
    ANCHOR,
    CONGESTION,
    CONNECTED,
    CONNECTING,
    CPU,
    DASHES,
    DEBUG,
    DEBUG_BLOCK,
    DEBUG_JSON,
    DONE,
    ERROR,
    HEADER,
    INTERVAL,
    IPERF2,
    IPERF2_WORDS,
    LISTENING,
    OUT_OF_ORDER,
    REVERSE,
    SENT,
    SEPARATOR,
    SERVER_OUTPUT,
    STARTING,
    TIME,
    TOOL_NOTE,
    VERBOSE,
    VERSION,
    error_only,
    strip_timestamps,
    timestamp_shape,
)
from .model import TOOL, Test, finish, sample_frames
from .text import TextReader

INFO = ToolInfo(
    tool=TOOL,
    description="iperf3 text (client/server, --timestamps, --bidir, -P, -O), -J JSON "
    "and --json-stream",
    variants=(
        "text",
        "text-old-bandwidth",
        "text-summary",
        "server-text",
        "server-text-old-bandwidth",
        "json",
        "server-json",
        "json-stream",
        "server-json-stream",
    ),
    versions="3.0-3.18 (captured: 3.12, 3.18; corpus: 3.0.11, 3.6, 3.7)",
    produces=("runs", "samples", "summaries"),
    flags="-J (exact byte counts, kernel RTT, cwnd); --get-server-output for the receiver's view",
    latency_basis=None,
    server_command=r"\s(?:-s|--server)(?:\s|$)",
)

# iperf3 writes the top-level braces at column 0; nested objects are indented further.  A
# terminal echoes Ctrl+C as '^C' where the cursor is, and the -J document follows on that
# same line ('^C{', a 3.12 client captured through a pty).
_PRETTY_OPEN = re.compile(r"^ {0,3}(?:\^C)?\{\s*$")
_START_KEY = re.compile(r'^\s*"start"\s*:')
_COMPACT_OPEN = re.compile(r'^ {0,3}(?:\^C)?\{\s*"start"\s*:')
_STREAM_LINE = re.compile(r'^\s*\{\s*"event"\s*:\s*"(?:start|interval|end|error|server_output)')
_CLOSE = re.compile(r"^\}\s*$")
_FENCE = re.compile(r"^\s*(```|~~~)")

# Lines that open an iperf3 text output, and lines that may continue one.
# iperf 2's banners are not among them: its outputs are the iperf2 parser's (issue 40).
_TEXT_START = (INTERVAL, CONNECTED, HEADER, CONNECTING, LISTENING, ACCEPTED, REVERSE, ERROR)
_TEXT_MORE = _TEXT_START + (
    SEPARATOR,
    DONE,
    DASHES,
    VERBOSE,
    TIME,
    STARTING,
    CPU,
    CONGESTION,
    SERVER_OUTPUT,
    SENT,
    OUT_OF_ORDER,
    VERSION,
    TOOL_NOTE,
    DEBUG,
    DEBUG_BLOCK,
    re.compile(r"^Test Complete"),
    re.compile(r"^(?:TCP window size|UDP buffer size): "),
)  # iperf 2
# iperf3 prints interval times with two decimals; iperf 2.1 with four, 2.0 with one.
_TIMES = re.compile(r"^\[[^\]]*\](?:\[[^\]]*\])?\s*\d+\.(\d+)\s*-")
_IPERF3_ONLY = re.compile(
    r"^(?:Connecting to host |Server listening on \d|iperf Done|"
    r"Accepted connection from |(?:- ){8}|.*\b(?:sender|receiver)\s*$)"
)


# ---------------------------------------------------------------------------------------------
# where the outputs are


def _json_opens(lines: list[str], i: int) -> bool:
    line = lines[i]
    if "{" not in line[:6]:  # both opens have it after at most 3 spaces and '^C'
        return False
    if '"start"' in line and _COMPACT_OPEN.match(line):
        return True
    if not _PRETTY_OPEN.match(line):
        return False
    # The first key, or (a stray line between) one of the next two.
    seen = 0
    for x in lines[i + 1 : i + 6]:
        if x.strip():
            if '"start"' in x and _START_KEY.match(x):
                return True
            seen += 1
            if seen == 3:
                break
    return False


class _Joined:
    """``lines`` as one text, to find the few lines that can end a JSON document with one
    regex scan: a -J document is thousands of lines (one per key), and looking at each in
    Python cost more than decoding it.  Offsets are counted on demand, moving forward."""

    def __init__(self, lines: list[str], text: str | None = None) -> None:
        """``text``: ``"\\n".join(lines)`` when the caller has it."""
        self.lines, self._text = lines, text
        self.line, self.pos = 0, 0  # a line and its offset in ``text``

    @property
    def text(self) -> str:
        if self._text is None:  # joined once, when a file has a -J document
            self._text = "\n".join(self.lines)
        return self._text

    def offset(self, i: int) -> int:
        if i < self.line:
            self.line, self.pos = 0, 0
        self.pos += sum(map(len, self.lines[self.line : i])) + (i - self.line)
        self.line = i
        return self.pos

    def at(self, j: int, pos: int) -> None:
        """Line ``j`` holds offset ``pos``: the next offset counts on from there."""
        self.line, self.pos = j, self.text.rfind("\n", 0, pos) + 1


# With _MARKS, a superset of the lines _json_end looks at: a column-0 '}', a '{' after at
# most 3 spaces (no more can open a document) with a '"start"' key where _json_opens looks
# for it (on its line, or opening one of the next three lines with text), a '`' or '~' (a
# fence); each is then checked as before.  Each regex starts with a literal, which the regex
# engine scans for fast (the '{' then looks behind it for its line's start); the look-ahead
# keeps the nested objects of a document indented by 1-3 spaces (json.tool --indent 1,
# jq --indent 2: an interval each) out of Python.
_CLOSE_STOP = re.compile(r"\n\}")
_OPEN_STOP = re.compile(
    r"\{(?:(?<=\n\{)|(?<=\n \{)|(?<=\n  \{)|(?<=\n   \{))(?="
    r'[^\S\n]*"start"'  # compact: {"start": ...
    r'|[^\S\n]*\n(?:[^\S\n]*\n)*(?:[^\S\n]*\S[^\n]*\n(?:[^\S\n]*\n)*){0,2}[^\S\n]*"start")'
)
_MARKS = ("`", "~")


def _next_mark(text: str, at: int) -> int:
    """Where the next of :data:`_MARKS` is, or -1."""
    found = [k for k in (text.find(mark, at) for mark in _MARKS) if k >= 0]
    return min(found) if found else -1


def _stops(text: str, at: int):
    """Offsets, in order, of the lines from ``at`` on that may end a document (a line start,
    or a mark within its line)."""
    ends = heapq.merge(
        (m.start() + 1 for m in _CLOSE_STOP.finditer(text, at)),
        (text.rfind("\n", 0, m.start()) + 1 for m in _OPEN_STOP.finditer(text, at)),
    )
    end, mark = next(ends, None), _next_mark(text, at)
    while end is not None or mark >= 0:
        if mark < 0 or (end is not None and end < mark):
            yield end
            end = next(ends, None)
        else:
            yield mark
            nl = text.find("\n", mark)
            mark = -1 if nl < 0 else _next_mark(text, nl)


def _json_end(lines: list[str], i: int, joined: _Joined | None = None) -> int:
    """End (exclusive) of the document opening at ``i``: its column-0 ``}``, else (cut short)
    the next fence or document, else the end."""
    if _COMPACT_OPEN.match(lines[i]) and lines[i].rstrip().endswith("}"):
        return i + 1
    joined = joined or _Joined(lines)
    text = joined.text
    j, at = i, joined.offset(i)
    if (end := _unindented_end(lines, i, text, at)) is not None:
        j = i + text.count("\n", at, end)
        joined.at(j, end)
        return j + 1
    for stop in _stops(text, at):
        j += text.count("\n", at, stop)
        at = stop
        if j == i:
            continue  # a mark on the opening line itself
        line = lines[j]
        if line[:1] == "}" and _CLOSE.match(line):
            joined.at(j, at)
            return j + 1
        quick = "`" in line or "~" in line or line.lstrip(" ")[:1] == "{"
        if quick and (_FENCE.match(line) or _json_opens(lines, j)):
            joined.at(j, at)
            return j
    return len(lines)


def _unindented_end(lines: list[str], i: int, text: str, at: int) -> int | None:
    """Where the document opening at line ``i`` (offset ``at``) ends, when its keys stand at
    column 0: a copy took iperf3's indentation off (a web page, ``sed 's/^\\s*//'``), and a
    column-0 ``}`` no longer ends it.  None when they do not, or it does not decode to the
    end of a line (cut short: the column-0 rule finds where it stops)."""
    key = next((x for x in lines[i + 1 : i + 6] if x.strip()), "")
    brace = lines[i].find("{")
    if key[:1] != '"' or brace < 0:
        return None
    try:
        _, end = json.JSONDecoder().raw_decode(text, at + brace)
    except json.JSONDecodeError:
        return None
    rest = text.find("\n", end)
    if text[end : rest if rest >= 0 else len(text)].strip():
        return None  # the closing brace does not end its line ('}x'): as the column-0 rule
    return end - 1  # the closing brace


def _head(text: str, at: int) -> list[str]:
    """The line starting at offset ``at`` and the five after it: what :func:`_json_opens`
    looks at."""
    out: list[str] = []
    while len(out) < 6:
        nl = text.find("\n", at)
        out.append(text[at:] if nl < 0 else text[at:nl])
        if nl < 0:
            break
        at = nl + 1
    return out


def _document_end(text: str, at: int) -> int | None:
    """:func:`_json_end` on the text: the offset of the first line after the document whose
    opening line starts at offset ``at`` (``len(text) + 1`` at the end).  None where
    _json_end would decode the document to find its end (keys at column 0)."""
    nl = text.find("\n", at)
    first = text[at:] if nl < 0 else text[at:nl]
    if _COMPACT_OPEN.match(first) and first.rstrip().endswith("}"):
        return len(text) + 1 if nl < 0 else nl + 1
    if next((x for x in _head(text, at)[1:] if x.strip()), "")[:1] == '"':
        return None
    for stop in _stops(text, at):
        if nl < 0 or stop <= nl:
            continue  # a mark on the opening line itself
        start = text.rfind("\n", 0, stop) + 1
        end = text.find("\n", stop)
        end = len(text) if end < 0 else end
        line = text[start:end]
        if line[:1] == "}" and _CLOSE.match(line):
            return end + 1
        quick = "`" in line or "~" in line or line.lstrip(" ")[:1] == "{"
        if quick and (_FENCE.match(line) or _json_opens(_head(text, start), 0)):
            return start
    return len(text) + 1


def _lone_document(text: str) -> int | None:
    """The length of the -J documents that open ``text`` when no more than blank lines follow
    them, else None: segments() would find them (one piece of documents back to back, each
    ended as :func:`_json_end` ends it) and blank lines, which read as nothing.  A -J file is
    so parsed without splitting it into lines (an hour of ``-P 4``: 280,000 lines, 15-20 ms
    of a 145 ms parse)."""
    at = 0
    while _json_opens(_head(text, at), 0):
        end = _document_end(text, at)
        if end is None:
            return None
        at = end  # the next line that is not blank
        while at < len(text):
            nl = text.find("\n", at)
            if text[at : len(text) if nl < 0 else nl].strip():
                break
            at = len(text) + 1 if nl < 0 else nl + 1
        if at >= len(text):
            return end - 1  # the documents' last line ends before offset ``end``
    return None


class _DocLines:
    """Lines ``first`` to ``last`` (1-based) of ``text``, split only when read: a document's
    lines are read only to find the line of a bad value (``jsondoc._Values``)."""

    def __init__(self, text: str, first: int, last: int) -> None:
        self.text, self.first, self.last = text, first, last

    def __iter__(self):
        return iter(self.text.split("\n")[self.first - 1 : self.last])


def _stream_resumes(lines: list[str], j: int) -> bool:
    """A stray line inside a JSON stream: the stream goes on within two lines, with an event
    of the same test (not the next test's ``start``)."""
    for line in lines[j + 1 : j + 3]:
        if _STREAM_LINE.match(line):
            return '"start"' not in line[:40]
    return False


def _next_nonblank(lines: list[str], j: int) -> int:
    while j < len(lines) and not lines[j].strip():
        j += 1
    return j


def _is(patterns, body: str) -> bool:
    text = body.strip()
    return any(p.match(text) for p in patterns)


def _text_opens(body: list[str], i: int) -> bool:
    if _is(_TEXT_START, body[i]):
        return True
    text = body[i].strip()
    nxt = [x.strip() for x in body[i + 1 : i + 9] if x.strip()]
    if DASHES.match(text):  # the frame around "Server listening on 5201"
        return bool(nxt) and bool(LISTENING.match(nxt[0]))
    if DEBUG_BLOCK.match(text):  # -d: "send_parameters:" and its JSON open a client output
        return bool(nxt) and nxt[0] == "{"
    if DEBUG.match(text):  # -d lines go on after a stray line among them
        return True
    if VERSION.match(text):  # -V: "iperf 3.12", then system info, then the test
        return any(CONNECTING.match(x) or LISTENING.match(x) or TIME.match(x) for x in nxt)
    return False


# The reader's hook: every line at which segments() opens an output, as it stands in the
# document (text lines are matched stripped, after a --timestamps prefix: hence anywhere).
# A -J document opens at '{' with '"start":' on it or on one of the next lines, which is in
# the document's span; a JSON stream at its line; text at a _TEXT_START line, at '-----'
# above "Server listening", at -d's block names and lines, or at "iperf 3.x" (-V), each
# condition needing its own pattern or "iperf ".  The column header is asked for by its
# 'Transfer', not the 'Interval' the reader would read off HEADER: latte's histograms print
# 'Interval(usec)' on every run, and 10,000 lines each.
_COLUMNS = re.compile(r"\sTransfer\b")  # HEADER: '[ ID] Interval   Transfer   Bitrate'
OPENERS = (
    anywhere(_START_KEY),
    _STREAM_LINE,
    _COLUMNS,
    *(anywhere(p) for p in (*_TEXT_START, DEBUG_BLOCK, DEBUG, VERSION) if p is not HEADER),
)

# Lines that open the next test (a server's '-----' frame too), never the same one's
# continuation after a stray line.
_TEXT_OPENERS = (CONNECTING, LISTENING, ACCEPTED, VERSION, IPERF2, DASHES)


def _text_resumes(body: list[str], j: int) -> bool:
    """A stray line at ``body[j]`` (a kernel message, a shell's line) inside a text output:
    the test's own lines go on within :data:`STRAY_LINES` lines; the parser names it."""
    if re.match(r"\s*#{1,6}\s", body[j]):
        return False
    for k in range(j + 1, min(j + 1 + STRAY_LINES, len(body))):
        if not body[k].strip():
            continue
        if _is(_TEXT_OPENERS, body[k]) or _FENCE.match(body[k]):
            return False
        if _is(_TEXT_MORE, body[k]):
            return True
    return False


def _text_ends(lines: list[str], body: list[str], j: int) -> bool:
    """``locate``: a fence, or a foreign line after which the output does not go on."""
    if _FENCE.match(lines[j]):
        return True
    foreign = body[j].strip() and not _is(_TEXT_MORE, body[j])
    return bool(foreign) and not _text_resumes(body, j)


def _next_json(lines: list[str], j: int, joined: _Joined) -> int:
    """The first line from ``j`` on that opens a -J document or is a JSON-stream line, or
    ``len(lines)``.  Only a line holding '{' can be either: one scan of the joined text finds
    those, rather than a look at each line (a server log of 18,000 lines has none)."""
    text, n = joined.text, len(lines)
    at = joined.offset(j) if j < n else len(text)
    while j < n and (k := text.find("{", at)) >= 0:
        j += text.count("\n", at, k)
        if _json_opens(lines, j) or _STREAM_LINE.match(lines[j]):
            joined.at(j, k)
            return j
        at = text.find("\n", k) + 1
        if at == 0:
            break
        j += 1
    return n


def segments(
    lines: list[str], *, text_everywhere: bool, text: str | None = None
) -> list[tuple[str, int, int]]:
    """(kind, start, end) pieces of ``lines``: ``json`` (one or more documents), ``stream``
    (JSON-stream lines) and ``text``.  With ``text_everywhere`` every other line is text (for
    ``parse``); without, only lines that look like iperf3 output are (for ``locate``).
    ``text``: ``"\\n".join(lines)``, when the caller has it."""
    body = strip_timestamps(lines, timestamp_shape(lines))
    joined = _Joined(lines, text)
    out: list[tuple[str, int, int]] = []
    i, n = 0, len(lines)
    while i < n:
        if _json_opens(lines, i):
            j = _json_end(lines, i, joined)
            while (k := _next_nonblank(lines, j)) < n and _json_opens(lines, k):
                j = _json_end(lines, k, joined)  # -s -J: one document per test, back to back
            out.append(("json", i, j))
            i = j
        elif _STREAM_LINE.match(lines[i]):
            j = i + 1
            while j < n and (
                _STREAM_LINE.match(lines[j])
                or lines[j].lstrip().startswith("{")
                or _stream_resumes(lines, j)
            ):
                j += 1
            out.append(("stream", i, j))
            i = j
        elif text_everywhere or _text_opens(body, i):
            start = i
            cmd, _ = (
                command_of(lines[i - 1], (TOOL,)) if i > 0 and not text_everywhere else (None, None)
            )
            if cmd:
                start = i - 1  # the command line above: its flags help read the output
            j = _next_json(lines, i + 1, joined) if text_everywhere else i + 1
            debug = bool(DEBUG_BLOCK.match(body[i].strip()))  # inside -d's JSON
            while j < n and not _json_opens(lines, j) and not _STREAM_LINE.match(lines[j]):
                if debug and (
                    DEBUG_JSON.match(body[j])
                    or (  # a stray line stays inside
                        j + 1 < n
                        and DEBUG_JSON.match(body[j + 1])
                        and not _FENCE.match(lines[j])
                        and not _is(_TEXT_MORE, body[j])
                    )
                ):
                    debug = body[j].rstrip() != "}"  # its end
                    j += 1
                    continue
                debug = bool(DEBUG_BLOCK.match(body[j].strip()))
                if not text_everywhere and _text_ends(lines, body, j):
                    break
                j += 1
            while j > i + 1 and not lines[j - 1].strip():
                j -= 1
            out.append(("text", start, j))
            i = max(j, i + 1)
        else:
            i += 1
    return out


def whole_file(head_text: str) -> bool:
    """A file that is one iperf3 JSON output (``-J`` document(s) or a JSON stream)."""
    lines = head_text.lstrip().removeprefix("^C").split("\n", 8)
    if not lines or not lines[0].lstrip().startswith("{"):
        return False
    if _STREAM_LINE.match(lines[0]):
        return True
    return _json_opens(lines, 0) and bool(re.search(r'"(?:connected|version)"\s*:', head_text))


def _only_messages(lines: list[str], a: int, b: int) -> bool:
    return all(ERROR.match(x.strip()) or not x.strip() for x in lines[a:b])


def locate(lines: list[str]) -> list[Span]:
    """iperf3 outputs in a document.  A lone ``iperf3: interrupt - ...`` line next to an
    output (stderr lands before or after stdout) joins it: alone it would be an error block."""
    spans: list[list[int]] = []
    for kind, a, b in segments(lines, text_everywhere=False):
        if (
            spans
            and not any(x.strip() for x in lines[spans[-1][1] : a])
            and (
                kind == "text" and _only_messages(lines, a, b) or _only_messages(lines, *spans[-1])
            )
        ):
            spans[-1][1] = b
        else:
            spans.append([a, b])
    return [Span(a, b, TOOL) for a, b in spans]


# ---------------------------------------------------------------------------------------------
# parse


def _repeated(doc: dict, first: int, seen: dict[tuple[str, str], int]) -> str | None:
    """A document of a test already read: the same ``cookie`` (iperf3 draws one per test)
    from the same side.  A client's and a server's document of one test share the cookie."""
    start = doc.get("start")
    cookie = start.get("cookie") if isinstance(start, dict) else None
    if not isinstance(cookie, str) or not cookie:
        return None
    key = (cookie, "server" if "accepted_connection" in start else "client")
    if key not in seen:
        seen[key] = first
        return None
    return (
        f"line {first}: the same test as the document at line {seen[key]} (cookie "
        f"{cookie[:12]}...): a repeated copy, read again"
    )


def _json_tests(
    lines: list[str] | None,
    a: int,
    b: int,
    kind: str,
    source: str | None,
    strict: bool,
    orphans: list[str],
    seen: dict[tuple[str, str], int] | None = None,
    whole: str | None = None,
) -> list[Test]:
    """``whole``: ``"\\n".join(lines)``, when the documents are all of it; ``lines`` None when
    only ``whole`` is at hand (:func:`_lone_document`)."""
    docs, notes, outside, variant = _documents(lines, a, b, kind, source, strict, whole)
    tests: list[Test] = []
    for d in docs:
        doc, first, last = d.data, d.first, d.last
        if getattr(d, "broken", None):
            at, msg = d.broken[0] + a, d.broken[1]
            if strict or not (isinstance(doc, dict) and has_measurement(doc)):
                raise ParseError(
                    TOOL,
                    source,
                    at,
                    f"invalid JSON: {msg} (the document goes on after it: not a cut)",
                    hint="an edited or damaged iperf3 -J file",
                )
            notes = [*notes, f"line {at}: invalid JSON ({msg}): read up to it"]
        if not isinstance(doc, dict):
            continue
        if not has_measurement(doc):
            error = doc.get("error")
            if isinstance(error, str) and error and not error.endswith("server has terminated"):
                orphans.append(error)
            continue
        text = lines[first - 1 : last] if lines is not None else _DocLines(whole, first, last)
        test = to_test(
            doc,
            first=first,
            last=last,
            complete=d.complete,
            variant=variant,
            source=source,
            strict=strict,
            duplicates=d.duplicates,
            lines=text,
        )
        test.warnings[:0] = notes
        found = [test, *_embedded(doc, first, last, source, strict, d.duplicates, text)]
        again = _repeated(doc, first, seen if seen is not None else {})
        for t in found if again else ():
            t.warnings.append(again)
        tests.extend(found)
    if outside.strip() and tests:
        tests[-1].warnings.append(f"text outside the JSON not read: {outside.strip()[:80]!r}")
    return tests


def _documents(
    lines: list[str],
    a: int,
    b: int,
    kind: str,
    source: str | None,
    strict: bool,
    whole: str | None = None,
):
    """The JSON documents of ``lines[a:b]`` (numbered as in ``lines``), the notes on what
    was skipped, the text outside them and the parser variant."""
    if kind == "stream":
        docs, notes = stream_documents(lines[a:b], a)
        return docs, notes, "", "json-stream"
    docs, notes, outside, strays = decode_documents(
        whole if whole is not None else "\n".join(lines[a:b])
    )
    for d in docs:
        d.first, d.last = d.first + a, d.last + a
    for no, line in strays:
        stray(TOOL, source, a + no, line, strict, notes)
    return docs, notes, outside, "json"


def _embedded(
    doc: dict,
    first: int,
    last: int,
    source: str | None,
    strict: bool,
    duplicates: list[str],
    lines: list[str],
) -> list[Test]:
    """``--get-server-output``: the server's own output of the same test, as a server run."""
    out: list[Test] = []
    inner = doc.get("server_output_json")
    if isinstance(inner, dict) and has_measurement(inner):
        test = to_test(
            inner,
            first=first,
            last=last,
            complete=True,
            variant="json",
            source=source,
            strict=strict,
            duplicates=duplicates,
            lines=lines,
        )
        out.append(test)
    text = doc.get("server_output_text")
    if isinstance(text, str) and text.strip():
        out.extend(TextReader(text.split("\n"), source=source, strict=strict).read())
    for test in out:
        test.line_start, test.line_end = first, last
        test.meta["role"] = test.meta.get("role") or "server"
        test.labels["from"] = "server output (--get-server-output)"
    return out


def _refuse_iperf2(lines: list[str], a: int, b: int, source: str | None) -> None:
    """iperf 2 (``iperf``) is another tool: its banners (``Client connecting to H, TCP port``,
    ``connected with``, ``Server Report:``) or, with none of iperf3's own lines, interval
    times without two decimals say so.  A located error in either mode, not a wrong run:
    the reader gives such outputs to the iperf2 parser; only ``tool="iperf3"`` (or a block
    that mixes the two) lands here."""
    block = lines[a:b]
    body = strip_timestamps(block, timestamp_shape(block))
    hint = (
        "iperf 2 (the `iperf` command) is a different tool with its own output: azlatency "
        "reads it as iperf2 (found by itself, or tool='iperf2')"
    )
    joined = "\n".join(block)
    if any(word in joined for word in IPERF2_WORDS):  # line by line only when one is there
        for k, x in enumerate(body):
            if IPERF2.match(text := x.strip()):
                raise ParseError(
                    TOOL, source, a + k + 1, f"iperf 2 output, not iperf3: {text[:70]!r}", hint=hint
                )
    if any(_IPERF3_ONLY.match(x.strip()) for x in body):
        return
    for k, x in enumerate(body):
        text = x.strip()
        m = _TIMES.match(text) if INTERVAL.match(text) else None
        if m is not None and len(m[1]) != 2:
            raise ParseError(
                TOOL,
                source,
                a + k + 1,
                "interval times with "
                f"{len(m[1])} decimals, which iperf 2 prints (iperf3 prints two), "
                f"and no line only iperf3 prints: {text[:70]!r}",
                hint=hint,
            )


# "-T s1" prints "s1:  " before every line of that client (iperf_printf).
_TITLE = re.compile(r"(?P<title>[^\s:][^:]{0,39}?):  (?=\S)")


def _titles(block: list[str]) -> dict[int, tuple[str, int]]:
    """Line -> (its ``-T`` title, where its text starts) when the lines of iperf3 in
    ``block`` carry two titles or more: several clients run at once into one terminal, their
    lines interleaved.  Else empty (one title is read as any prefix)."""
    out: dict[int, tuple[str, int]] = {}
    for k, line in enumerate(block):
        if ":  " not in line:  # what every title ends with: most lines are asked no more
            continue
        body = line.lstrip()
        m = _TITLE.match(body)
        if m is not None and ANCHOR.match(body, m.end()):
            out[k] = (m["title"], len(line) - len(body) + m.end())
    titles = {t for t, _ in out.values()}
    if len(titles) < 2:
        return {}
    for k, line in enumerate(block):  # a title before an empty line ("s1:  ")
        head, colon, rest = line.strip().partition(":")
        if k not in out and colon and not rest.strip() and head in titles:
            out[k] = (head, len(line))
    return out


def _read_text(
    lines: list[str], a: int, b: int, source: str | None, strict: bool, titles: bool = True
) -> tuple[list[Test], list[str]]:
    """A text segment's tests: one reading of each ``-T`` title's lines where several clients'
    lines are interleaved (each test labelled with its title), else one reading.  ``titles``:
    False when no line can hold a title (the whole text has no ':')."""
    block = lines[a:b]
    titled = _titles(block) if titles else {}
    if not titled:
        reader = TextReader(block, source=source, strict=strict, offset=a)
        return reader.read(), reader.leftover
    found: list[Test] = []
    messages: list[str] = []
    for title in dict.fromkeys(t for t, _ in titled.values()):
        own = [
            line[titled[k][1] :] if titled.get(k, ("",))[0] == title else ""
            for k, line in enumerate(block)
        ]
        reader = TextReader(own, source=source, strict=strict, offset=a)
        for test in reader.read():
            test.labels["title"] = title
            found.append(test)
        messages += reader.leftover
    others = [k for k, line in enumerate(block) if line.strip() and k not in titled]
    for k in others:
        stray(TOOL, source, a + k + 1, block[k], strict, found[0].warnings if found else [])
    return found, messages


def parse(text: str, *, source: str | None = None, strict: bool = True) -> Parsed:
    with gc_paused():
        return _parse(text, source, strict)


def _parse(text: str, source: str | None, strict: bool) -> Parsed:
    tests: list[Test] = []
    pending: list[str] = []  # iperf3 messages seen before any test (stderr comes first)
    seen: dict[tuple[str, str], int] = {}  # JSON tests read: (cookie, side) -> line
    # A -T title ends with ':  ': a text without ':' (a server log, most outputs) is asked
    # once, not line by line (1 % of a server log's parse).
    titles = ":" in text
    lone = _lone_document(text)
    if lone is None:
        lines: list[str] | None = text.split("\n")
        pieces = segments(lines, text_everywhere=True, text=text)
    else:  # a -J file: its document, not split into lines
        lines, pieces = None, [("json", 0, -1)]
    for kind, a, b in pieces:
        messages: list[str] = []
        if lines is None:
            found = _json_tests(None, a, b, kind, source, strict, messages, seen, text[:lone])
        elif kind == "text":
            _refuse_iperf2(lines, a, b, source)
            found, messages = _read_text(lines, a, b, source, strict, titles)
        else:
            whole = text if (a, b) == (0, len(lines)) else None  # a -J file: no second join
            found = _json_tests(lines, a, b, kind, source, strict, messages, seen, whole)
        if found and pending:
            found[0].warnings[:0] = [f"iperf3: {e}" for e in pending]
            pending = []
        tests.extend(found)
        if messages and tests:
            tests[-1].warnings.extend(f"iperf3: {e}" for e in messages)
        else:
            pending.extend(messages)
    if not tests:
        if pending:  # located at the line that prints iperf3's first message
            every = lines if lines is not None else text.split("\n")
            at = next((k for k, line in enumerate(every, 1) if pending[0] in line), 1)
            raise error_only(pending, source, at)
        raise ParseError(
            TOOL,
            source,
            1,
            "no iperf3 test found: expected 'Connecting to host', "
            "'Server listening on', interval lines like '[  5]   0.00-1.00   sec  "
            '...\' or a JSON document with a "start" key',
        )
    runs = [finish(t) for t in tests]
    for run, samples in zip(runs, sample_frames(tests), strict=True):
        if isinstance(samples, tuple):
            run.share(*samples)
        else:
            run.samples = samples
    return Parsed(TOOL, runs)
