"""The parsers' shared line helpers: strict conversions (every failure a located
``ParseError``), commands and prompts above an output, blocks of lines and the stray lines
inside them, JSON documents with a foreign line or a pasted copy, and the columns every probe
tool's runs share.  The contract itself (``ToolInfo``, ``Parser``, the result types) is
``_base``."""

from __future__ import annotations

import gc
import ipaddress
import json
import math
import mmap
import re
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np
import pandas as pd
import pyarrow as pa

from ..errors import ParseError
from ._base import Run, Span

# ---------------------------------------------------------------------------------------------
# Strict conversions: every failure becomes a located ParseError.


def not_found(
    tool: str, source: str | None, expected: str, line_no: int | None = None
) -> ParseError:
    """The error of a text that holds none of ``tool``'s output: "no <tool> output: expected
    <expected>" (``line_no``: the line it was looked for at, if one)."""
    return ParseError(tool, source, line_no, f"no {tool} output: expected {expected}")


def located(
    text: str,
    tool: str,
    locate: Callable[[list[str]], list[Span]],
    source: str | None,
    expected: str,
) -> tuple[list[str], list[Span]]:
    """The lines of ``text`` and the outputs ``locate`` finds in them, a parser's first step;
    :func:`not_found` (``expected``) where it finds none."""
    lines = text.split("\n")
    spans = locate(lines)
    if not spans:
        raise not_found(tool, source, expected)
    return lines, spans


# Thousands grouped by ',' or a (narrow) no-break space: '1,234,567.5', '12 345'.  A first
# group of 0 groups nothing: '0,065' is a localized 0.065, never 65.
_GROUPED = re.compile(r"[-+]?[1-9]\d{0,2}(?:[,\u202f\xa0]\d{3})+(?:\.\d*)?(?:[eE][-+]?\d+)?")


def number(
    text: str,
    *,
    tool: str,
    source: str | None,
    line_no: int | None,
    what: str,
    grouped: bool = True,
) -> float:
    """``float(text)``, accepting thousands separators where they group by three
    (``grouped``: the tool prints them); a located ParseError otherwise.  A separator
    elsewhere is no grouping: a localized '1,5' is not read as 15.  ``float`` also takes
    'nan', which no tool prints where a number is read here (those that print it for "no
    value" match it apart): refused too, or a damaged figure would be stored as a missing
    one without a word.  ('inf' is returned: the reader leaves it out and says so.)"""
    cleaned = _ungrouped(text, grouped)
    try:
        value = float(cleaned)
    except ValueError:
        value = math.nan
    if math.isnan(value):
        raise ParseError(tool, source, line_no, f"expected {what}, got {text.strip()!r}")
    return value


INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1
# A time the tables hold: int64 ns since 1970, as pandas has it (years 1677-2262).
NS_MIN, NS_MAX = int(pd.Timestamp.min.value), int(pd.Timestamp.max.value)


def _ungrouped(text: str, grouped: bool = True) -> str:
    """``text`` stripped, its thousands separators taken out where they group by three."""
    cleaned = text.strip()
    if grouped and _GROUPED.fullmatch(cleaned):
        return cleaned.replace(",", "").replace("\u202f", "").replace("\xa0", "")
    return cleaned


def integer(text: str, *, tool: str, source: str | None, line_no: int | None, what: str) -> int:
    """``int(text)`` (or a whole float) within int64 — the tables store Int64 — else a located
    ParseError.  Thousands separators as :func:`number` takes them."""
    cleaned = _ungrouped(text)
    try:
        value = int(cleaned)
    except ValueError:
        try:
            number_ = float(cleaned)
        except ValueError:
            number_ = None
        if number_ is None or not number_.is_integer():
            raise ParseError(
                tool, source, line_no, f"expected {what}, got {text.strip()!r}"
            ) from None
        value = int(number_)
    if not INT64_MIN <= value <= INT64_MAX:
        raise ParseError(
            tool, source, line_no, f"expected {what}, got {text.strip()!r}: out of range for int64"
        )
    return value


def decimal_to_ns(text: str) -> int:
    """``'1700000000.123456789'`` → ``1700000000123456789`` exactly (no float on the way)."""
    whole, _, frac = text.strip().partition(".")
    frac = (frac + "000000000")[:9]
    sign = -1 if whole.startswith("-") else 1
    return sign * (abs(int(whole or "0")) * 1_000_000_000 + int(frac or "0"))


# ---------------------------------------------------------------------------------------------
# Locating outputs inside documents.

# Shell prompts seen in the seeds and corpus: ``root@host:/path#``, ``$``, ``#``, ``C:\\x>``,
# ``PS C:\\x>``, and Red Hat's default ``[root@host dir]#``.  Group ``host`` is the prompt's
# host name when there is one.
PROMPT = re.compile(
    r"^\s*(?:(?P<open>\[)?(?P<user>[\w.-]+)@(?P<host>[\w.-]+)"
    # 'user@host:~$ ', '[user@host dir]# ', zsh's 'user@host ~ % '
    r"(?(open)(?: [^\]]*)?\]|(?::[^\s#$]*|\s+[^\s#$%@]+)?)\s*[#$%]\s*"
    r"|(?:PS\s+)?[A-Za-z]:\\[^>]*>\s*"
    r"|[~/][^\s#$%]*\s+[#$%]\s+"  # a container's sh: '/ # ', '~ $ '
    # an arrow theme's: '~ ➤ ', oh-my-zsh's '➜  ~ ' or '➜  repo git:(main) ✗ ', '❯ '
    r"|(?:[~/]\S*\s+)?[\u279c\u27a4\u276f]\s+"
    r"(?:[~/]\S*\s+|[\w.-]+\s+git:\([^)]*\)\s+(?:\u2717\s+)?)?"
    r"|[#$>]\s+)"
)


# 'lagscope 1.0.1', 'paping v1.5.5 - Copyright (c) 2011 Mike Lovell': a tool's banner
_BANNER = re.compile(r"^[\w.-]+ v?\d+\.\d+(?:\.\d+)?(?: - .*)?$")


_FENCE_OPEN = re.compile(r"^\s*(?:`{3,}|~{3,})(?=\S)")
# An option's dashes a blog's typography made a dash of another kind: WordPress prints '--tcp'
# as '–tcp' (an en dash), others as '—tcp' or '–-tcp'.
_TYPO_DASH = re.compile(
    r"(?<!\S)(?:[\u2013\u2014]-?|-[\u2013\u2014])(?=[A-Za-z])|(?<!\S)[\u2013\u2014](?=\s+[-\u2013\u2014])"
)
_SHORT = re.compile(r"[A-Za-z]{1,2}(?:\s|$|\d)")  # '-m 64', '-oo msg_size:...', '-s10.0.0.4'


_QUOTES = str.maketrans({"\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"'})


def plain_typography(command: str) -> str:
    """``command`` as typed, where a blog's typography changed it: curly quotes are straight
    again (qperf's -oo ‘msg_size:1:64K:*4’), and the options' dashes ASCII: '–tcp',
    '—full-rtt' and '–-bidir' are '--tcp', '--full-rtt' and '--bidir'; an option of one or
    two letters takes one dash ('–m 64', qperf's '–oo ...'); netperf's lone '–' before its
    test options is '--'."""
    command = command.translate(_QUOTES)
    if "\u2013" not in command and "\u2014" not in command:
        return command
    return _TYPO_DASH.sub(
        lambda m: "-" if len(m[0]) == 1 and _SHORT.match(command, m.end()) else "--", command
    )


def command_of(line: str, tools: Iterable[str]) -> tuple[str | None, str | None]:
    """If ``line`` invokes one of ``tools`` (after an optional prompt), return (command, host).
    A fence run into the command by a lost line break ('```# ntttcp -s ...') says nothing."""
    line = plain_typography(_FENCE_OPEN.sub("", line, count=1))
    m = PROMPT.match(line)
    rest = line[m.end() :] if m else line.strip()
    rest = rest.strip().strip("`")
    if m is None and _BANNER.match(rest):
        return None, None  # 'lagscope 1.0.1': a tool's banner naming its version, no command
    for tool in tools:
        # a script's tool (echo_client.py) is run by its interpreter: python3 path/to/it
        if re.match(
            rf"(?:sudo\s+)?(?:\S*python[\d.]*(?:\.exe)?\s+)?(?:\S*[/\\])?"
            rf"{re.escape(tool)}(?:\.exe)?(?:\s|$)",
            rest,
        ):
            return rest, (m.group("host") if m else None)
    return None, None


# Lines that are no tool's (a kernel message, a note) that may sit between a command line and
# its output: the command is still the output's.  A prompt, a heading or a fence may not.
STRAY_ABOVE = 2


def command_above(
    lines: list[str], i: int, floor: int, tools: Iterable[str], *, reach: int = 4
) -> int:
    """``i``, or the line of a ``tools`` command above ``lines[i]`` within ``reach`` lines
    (not above ``floor``); blank lines and up to :data:`STRAY_ABOVE` stray lines may sit
    between.  Parsers that need the command (sizes of a sweep, a role, a basis) take it into
    their block this way."""
    stray = 0
    for j in range(i - 1, max(floor, i - reach - STRAY_ABOVE) - 1, -1):
        line = lines[j]
        if not line.strip():
            continue
        if command_of(line, tools)[0] is not None:
            return j
        if (
            stray == STRAY_ABOVE
            or PROMPT.match(line)
            or line.lstrip().startswith(("```", "~~~", "#"))
        ):
            return i
        stray += 1
    return i


def in_code_span(line: str, at: int) -> bool:
    """Is ``line[at]`` inside a Markdown code span?  A note that names a tool's marker in a
    sentence (`` `#####  Totals:  #####` ``) quotes the tool; it holds no output of it.
    Pasted output sits on lines of its own, fenced or not, with no backtick before it."""
    return line.count("`", 0, at) % 2 == 1


def spans_from_starts(
    lines: list[str],
    tool: str,
    is_start: Callable[[str], bool],
    is_end: Callable[[str], bool] | None = None,
    *,
    belongs: Callable[[str], bool] | None = None,
    weight: float = 1.0,
) -> list[Span]:
    """Generic locator: a span opens at a line where ``is_start`` holds and closes after a line
    where ``is_end`` holds, or before the first line where ``belongs`` fails, or at the next
    start.  Good enough for most line-oriented tools; parsers with stranger shapes write their
    own ``locate``.
    """
    spans: list[Span] = []
    i, n = 0, len(lines)
    while i < n:
        if not is_start(lines[i]):
            i += 1
            continue
        start = i
        j = i + 1
        while j < n:
            line = lines[j]
            if is_end is not None and is_end(lines[j - 1]) and j - 1 > start:
                break
            if is_start(line):
                break
            if belongs is not None and not belongs(line):
                break
            j += 1
        if is_end is not None and j == n and is_end(lines[j - 1]):
            pass
        # trim trailing blank lines
        end = j
        while end > start + 1 and not lines[end - 1].strip():
            end -= 1
        spans.append(Span(start, end, tool, weight))
        i = max(j, start + 1)
    return spans


def line_blocks(
    lines: list[str],
    tool: str,
    kind: Callable[[str], Any],
    opens: Iterable[Any],
    ends: Callable[[Any, set], bool],
) -> list[Span]:
    """Locator for outputs made of known lines (ping-style tools): a block opens at a line
    whose ``kind`` is in ``opens`` and goes on while each line has a kind, a blank line only
    when the output resumes within two lines; it ends before a line for which ``ends(kind,
    kinds seen so far)`` holds (the next run's first line), or before a line of no kind unless
    the output resumes within :data:`STRAY_LINES` lines (a stray line inside the output, which
    the parser then names: :func:`stray`)."""
    opens = set(opens)
    spans: list[Span] = []
    i, n = 0, len(lines)
    while i < n:
        first = kind(lines[i])
        if first is None and beside_known(lines, i, kind):
            first = next((k for k in joined_kinds(lines[i], kind) if k in opens), None)
        if first not in opens:
            i += 1
            continue
        start, j, seen = i, i + 1, {first}
        while j < n:
            if not lines[j].strip():
                nxt = next((k for k in range(j + 1, min(j + 3, n)) if lines[k].strip()), None)
                if nxt is not None and kind(lines[nxt]) is None:
                    # a stray line after the gap (before the statistics): looked past too
                    nxt = _resumes(lines, nxt, n, kind)
                if nxt is None or kind(lines[nxt]) is None or ends(kind(lines[nxt]), seen):
                    break
                j += 1
                continue
            k = kind(lines[j])
            if k is None and (joined := joined_kinds(lines[j], kind)):
                if any(ends(x, seen) for x in joined):
                    break  # the next run starts on it
                seen.update(joined[:-1])
                k = joined[-1]
            if k is None:
                resume = _resumes(lines, j, n, kind)
                if resume is None or ends(kind(lines[resume]), seen):
                    break
                j = resume
                continue
            if ends(k, seen):
                break
            seen.add(k)
            j += 1
        spans.append(Span(start, j, tool))
        i = j
    return spans


def beside_known(lines: list[str], i: int, kind: Callable[[str], Any]) -> bool:
    """Whether a line of a known kind is next to ``lines[i]``, or it is the only line that
    is not blank (a parser locating in a block of this one line): only such a line is tried
    as lines run together at an output's start (the cuts of every line of prose would cost;
    a Markdown paragraph stands alone between blank lines)."""
    # the nearest line that is not blank either side, past one blank line (as line_blocks)
    near = [
        next((lines[k] for k in ks if 0 <= k < len(lines) and lines[k].strip()), "")
        for ks in ((i - 1, i - 2), (i + 1, i + 2))
    ]
    if any(kind(line) is not None for line in near if line):
        return True
    return len(lines) <= 8 and not any(x.strip() for k, x in enumerate(lines) if k != i)


def joined_kinds(line: str, kind: Callable[[str], Any]) -> list[Any]:
    """The kinds of the lines run together into ``line`` (:func:`unjoin`), or [] (a line of
    no known kind that is not several either)."""
    return [kind(p) for p in unjoin(line, kind)]


# Lines of no tool looked past inside an output (a kernel message, ``Connection reset by
# peer``, a shell's line): the output goes on after them.
STRAY_LINES = 3
# Markdown structure is never a stray line inside an output: it ends it.
_STRUCTURE = re.compile(r"^\s*(?:```|~~~|#{1,6}\s)")


def _resumes(lines: list[str], j: int, n: int, kind: Callable[[str], Any]) -> int | None:
    """The line of the output's own within :data:`STRAY_LINES` lines after the stray line
    ``lines[j]`` (None when there is none, or when the stray line is a fence or heading)."""
    if _STRUCTURE.match(lines[j]):
        return None
    return next(
        (x for x in range(j + 1, min(j + 1 + STRAY_LINES, n)) if kind(lines[x]) is not None),
        None,
    )


# An end anchor: a '$' not escaped, before the end of the pattern, a '|' or a ')' (inside a
# character class it is followed by neither).
_END_ANCHOR = re.compile(r"(?<!\\)\$(?=$|[|)])")


def anywhere(pattern: re.Pattern[str]) -> re.Pattern[str]:
    """``pattern`` without its ``^`` and ``$`` anchors, for a tool's ``OPENERS``: a locator
    that matches it on a line stripped (of spaces, of a ``--timestamps`` prefix) finds it by
    search in the line as the document holds it.  Dropping an anchor only widens what
    matches, and leaves the literals the reader reads off the pattern as they were."""
    return re.compile(_END_ANCHOR.sub("", pattern.pattern.removeprefix("^")), pattern.flags)


@contextmanager
def gc_paused() -> Iterator[None]:
    """No cyclic garbage collection inside; the collector is left as it was found.  Decoding a
    large JSON document makes tens of thousands of dicts and lists, and every 700 of them
    start a collection that walks the young ones again, and some of those the whole graph
    decoded so far: an iperf3 ``-J`` hour of ``-P 4`` spent 16 of its 150 ms there, a server
    log of 1,200 short tests (a dict a row) 4 % (``benchmarks/bench_iperf3.py``).  What a
    parser builds holds no cycle; reference counting frees what is dropped.  (Another thread
    may switch the collector back on before the end: then only the time is lost.)"""
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


# A stray line inside a JSON document is taken out, at most this many per document; a document
# that still does not decode is left as it is (cut short, or broken otherwise).
JSON_STRAYS = 3


# A JSON member line ('"key": value'): no foreign line looks like one.
_MEMBER = re.compile(r'^\s*"(?:[^"\\]|\\.)*"\s*:')


def json_without_strays(
    raw_decode: Callable[[str, int], tuple[Any, int]],
    text: str,
    i: int,
    exc: json.JSONDecodeError,
    *,
    cut_ok: bool = False,
):
    """``(text, document, end, strays)``: ``text`` with the lines blanked (their newlines
    kept, so line numbers hold) that kept the document at ``text[i]`` from decoding, the
    document ``raw_decode`` then reads and its end, and those lines as (1-based number, text).
    ``(text, None, None, [])`` when taking out lines does not make the document decode; with
    ``cut_ok``, ``(text without the lines, None, None, strays)`` when what is left is a document
    cut short (its only error is at the end: the caller reads what it holds)."""
    strays: list[tuple[int, str]] = []
    out = text
    for _ in range(JSON_STRAYS):
        span = _stray_line(out, exc.pos)
        if span is None:
            break  # the document's own line: it is broken there (a comma missing), not strayed
        a, b = span
        strays.append((out.count("\n", 0, a) + 1, out[a:b]))
        out = out[:a] + out[b:]
        try:
            doc, end = raw_decode(out, i)
        except json.JSONDecodeError as again:
            exc = again
            continue
        return out, doc, end, strays
    nl = out.find("\n", exc.pos)
    if cut_ok and strays and (nl < 0 or not out[nl:].strip()):
        return out, None, None, strays  # the error is on the last line: a cut ("Unterminated
        # string" points at the string's start, not at the end)
    return text, None, None, []


def json_wrapped(
    text: str, i: int, exc: json.JSONDecodeError, decoder: json.JSONDecoder | None = None
) -> tuple[Any, int, str] | None:
    """``(document, end, note)`` for the document at ``text[i]`` when its only fault is a line
    break (or tab) inside a string: a copy wrapped at a terminal's or mail client's width
    breaks a long 'system_info' or 'os' in two.  The string is read as it stands (by a
    decoder set as ``decoder`` is); None when the document has another fault."""
    if not exc.msg.startswith("Invalid control character"):
        return None
    base = decoder or json.JSONDecoder()
    lenient = json.JSONDecoder(
        object_pairs_hook=base.object_pairs_hook, parse_float=base.parse_float, strict=False
    )
    try:
        doc, end = lenient.raw_decode(text, i)
    except json.JSONDecodeError:
        return None
    note = f"line {exc.lineno}: a string broken over two lines (a wrapped copy?): read as one"
    return doc, end, note


def json_document(
    text: str,
    i: int,
    *,
    tool: str,
    source: str | None,
    strict: bool,
    warnings: list[str],
    what: str,
    decoder: json.JSONDecoder | None = None,
) -> tuple[str, Any, int]:
    """``(text, document, end)`` for the JSON document at ``text[i]``, repaired where a copy
    broke it: a string wrapped over two lines (:func:`json_wrapped`), stray lines inside
    (:func:`json_without_strays`: blanked in the ``text`` returned, newlines kept), each named
    in ``warnings``.  A located ParseError '<what>: <decoder's message>' when none reads it."""
    raw = (decoder or json.JSONDecoder()).raw_decode
    try:
        doc, end = raw(text, i)
        return text, doc, end
    except json.JSONDecodeError as exc:
        if (found := json_wrapped(text, i, exc, decoder)) is not None:
            warnings.append(found[2])
            return text, found[0], found[1]
        fixed, doc, end, strays = json_without_strays(raw, text, i, exc)
        if doc is None:
            raise ParseError(tool, source, exc.lineno, f"{what}: {exc.msg}") from None
        for no, line in strays:
            stray(tool, source, no, line, strict, warnings)
        return fixed, doc, end


def json_without_copy(
    raw_decode: Callable[[str, int], tuple[Any, int]],
    text: str,
    i: int,
    exc: json.JSONDecodeError,
    *,
    offset: int = 0,
):
    """``(text, document, end, note)``: ``text`` with a pasted copy of the lines just above
    the decode error blanked (newlines kept, so line numbers hold), the document it then
    decodes and its end, and a note naming both blocks; ``(text, None, None, None)`` when no
    such copy makes the document decode.  A block copied into a JSON document (a paste
    between two captures) makes it invalid at the copy's first line; the copy is the one
    that goes, the document's own lines stay.  ``offset``: lines above ``text`` in the file."""
    lines = text.split("\n")
    err = text.count("\n", 0, exc.pos)
    for s in range(err, max(err - 3, 0) - 1, -1):  # the copy's first line, at or just above
        if not lines[s].strip():
            continue
        t = s - 1
        while t >= 0 and not lines[t].strip():
            t -= 1  # the last line of the block copied, blank lines between skipped
        for n in range(t + 1, 0, -1):
            a = t + 1 - n
            if s + n > len(lines) or lines[a] != lines[s] or lines[t] != lines[s + n - 1]:
                continue
            if lines[a : t + 1] != lines[s : s + n]:
                continue
            out = "\n".join(lines[:s] + [""] * n + lines[s + n :])
            try:
                doc, end = raw_decode(out, i)
            except json.JSONDecodeError:
                continue
            note = (
                f"lines {s + 1 + offset}-{s + n + offset} repeat lines {a + 1 + offset}-"
                f"{t + 1 + offset} word for word: a pasted "
                "copy inside the JSON, not read"
            )
            return out, doc, end, note
    return text, None, None, None


def invalid_json(
    tool: str, source: str | None, line_no: int, exc: json.JSONDecodeError, body: str
) -> ParseError:
    """The located error of a JSON document no repair could read: at the decoder's line, with a
    hint when the error is at the end of the text (the output cut short)."""
    cut = exc.pos >= len(body.rstrip()) - 1
    return ParseError(
        tool,
        source,
        line_no,
        f"invalid JSON: {exc.msg}",
        hint="the output looks cut short" if cut else None,
    )


def _stray_line(out: str, pos: int) -> tuple[int, int] | None:
    """(start, end) of the line to take out for a decode error at ``out[pos]``: the line of the
    offending token (json reports "Expecting ',' delimiter" at the blank before it), or, when
    that is the document's own ('{', a member), the line above it: a bare value there ('12.5'
    inside an array) decoded as an element and made the next line the error."""
    while pos < len(out) and out[pos] in " \t\r\n":
        pos += 1
    a = out.rfind("\n", 0, pos) + 1
    b = out.find("\n", pos)
    b = len(out) if b < 0 else b
    if not out[b:].strip():
        return None  # the last line: where a document cut short stops, not a stray line
    if not _own_json_line(out[a:b]):
        return a, b
    above_end = a - 1
    above = out.rfind("\n", 0, max(above_end, 0)) + 1
    line = out[above:above_end] if above_end > 0 else ""
    if line.strip() and not _own_json_line(line) and not line.rstrip().endswith(","):
        return above, above_end
    return None


def _own_json_line(line: str) -> bool:
    """Blank, a member ('"key": ...'), or a line that opens or closes an object or array
    (ntttcp writes '{ "metric" : "MB/s", "value" : "1.0" },' on one line)."""
    s = line.strip()
    if not s or s[0] in "}]" or _MEMBER.match(line):
        return True
    if s[0] not in "{[":
        return False
    body = s.rstrip(",").strip()
    if body in ("{", "[", "[{", "{["):
        return True
    try:  # a whole object on one line; '[ 1234.567890] mlx5_core ...' is a kernel message
        json.loads(body)
    except ValueError:
        return False
    return True


def stray(
    tool: str, source: str | None, no: int, line: str, strict: bool, warnings: list[str]
) -> None:
    """A line inside ``tool``'s output that is not ``tool``'s: a located ParseError, or
    (lenient) a warning naming it; the run goes on either way."""
    reason = f"not {tool} output: {line.strip()[:80]!r}"
    if strict:
        raise ParseError(
            tool,
            source,
            no,
            f"expected {tool} output, got {line.strip()[:80]!r}",
            hint=f"parse with strict=False to skip lines that are not {tool}'s",
        )
    warnings.append(f"line {no} skipped: {reason}")


def strays_after(
    tool: str,
    source: str | None,
    text: str,
    at: int,
    strict: bool,
    warnings: list[str],
    offset: int = 0,
) -> None:
    """Every line of ``text`` from ``at`` on that is not blank, a :func:`stray` line (a
    shell's line, a prompt pasted below a JSON document); ``offset``: the lines before
    ``text``'s first."""
    first = offset + text.count("\n", 0, at) + 1
    for k, line in enumerate(text[at:].split("\n")):
        if line.strip():
            stray(tool, source, first + k, line, strict, warnings)


def pieces(line: str, cuts: list[int]) -> list[str]:
    """``line`` cut at ``cuts`` (ascending positions): the lines a lost line break ran
    together."""
    return [line[a:b] for a, b in zip([0, *cuts], [*cuts, len(line)])]


UNJOIN_MAX = 1000


def unjoin(line: str, kind: Callable[[str], Any], most: int = 3) -> list[str]:
    """The lines of known ``kind`` that a lost line break ran together into ``line`` (2 to
    ``most`` of them), when there is one way to cut it so; [] otherwise (the line is a stray
    one).  Cuts within one run of spaces are one way (the spaces go with the later line: its
    indentation).  For a line that does not read: a cut is tried at every position, so a
    line longer than :data:`UNJOIN_MAX` characters is never cut (no tool's lines are)."""
    if len(line) > UNJOIN_MAX:
        return []
    ways: dict[tuple[str, ...], list[str]] = {}
    for c in range(1, len(line)):
        head, rest = line[:c], line[c:]
        if not head.strip() or not rest.strip() or kind(head) is None:
            continue
        if kind(rest) is not None:
            found = [head, rest]
        elif most > 2 and (more := unjoin(rest, kind, most - 1)):
            found = [head, *more]
        else:
            continue
        ways.setdefault(tuple(x.strip() for x in found), found)
        if len(ways) > 1:
            return []
    return next(iter(ways.values()), [])


def apart(
    lines: list[str], kind: Callable[[str], Any], joined: list[tuple[int, int]]
) -> Iterator[tuple[int, str, Any]]:
    """(line number, line, its kind) of each line of ``lines`` (a blank one with no kind); a
    line of no kind that ran several lines of known ``kind`` together (:func:`unjoin`) as
    those lines, each with its number, and (number, how many) added to ``joined``."""
    for no, line in enumerate(lines, start=1):
        if not line.strip():
            yield no, line, None
            continue
        k = kind(line)
        parts = unjoin(line, kind) if k is None else []
        if not parts:
            yield no, line, k
            continue
        joined.append((no, len(parts)))
        for part in parts:
            yield no, part, kind(part)


def name_joined(runs: list, joined: list[tuple[int, int]], tool: str) -> None:
    """Each line of ``joined`` (:func:`apart`) named by the run whose lines hold it, else by
    the first run (:func:`run_together`)."""
    for no, n in joined:
        run = next(
            (r for r in runs if None not in (r.line_start, r.line_end)
             and r.line_start <= no <= r.line_end),
            runs[0],
        )  # fmt: skip
        run.warnings.append(run_together(no, n, tool))


def run_together(no: int, n: int, tool: str) -> str:
    """The warning of line ``no``, ``n`` of ``tool``'s lines (as the tool is written in
    prose: 'iperf 2') that a lost line break ran together and that were read one by one."""
    return f"line {no}: {n} of {tool}'s lines run together (line breaks lost), read one by one"


def unstorable(m: re.Match[str], integers: dict[str, str]) -> str | None:
    """Why a number matched on a line cannot be stored, or None: a group of ``integers``
    (group name → what it is) beyond int64, the columns' type, or a ``loss`` above 100%."""
    for name, value in m.groupdict().items():
        if value is None:
            continue
        if name in integers and int(value) >= 2**63:
            return f"expected {integers[name]}, got {value!r}: out of range for int64"
        if name == "loss" and float(value) > 100:
            return f"expected a packet loss of 0-100%, got {value}%"
    return None


def known_lines(
    lines: list[str],
    span: Span,
    tool: str,
    kind_of: Callable[[str], re.Pattern[str] | None],
    integers: dict[str, str],
    *,
    source: str | None,
    strict: bool,
    warnings: list[str],
    command_first: bool = False,
) -> Iterator[tuple[int, re.Pattern[str], re.Match[str]]]:
    """(line number, pattern, match) of each line of ``span`` whose pattern ``kind_of`` knows.
    Blank lines are passed over; a stray line (:func:`stray`) or a number too big to store
    (:func:`unstorable`) is skipped with a warning, or raised when ``strict``.
    ``command_first``: the block's first line may be the tool's own command (the reader keeps
    it as ``runs.command``)."""
    for no in range(span.start + 1, span.end + 1):
        line = lines[no - 1].rstrip("\r")
        if not line.strip():
            continue
        kind = kind_of(line)
        if kind is None:
            if command_first and no == span.start + 1 and command_of(line, (tool,))[0]:
                continue
            if parts := unjoin(line, kind_of):
                warnings.append(run_together(no, len(parts), tool))
            else:
                stray(tool, source, no, line, strict, warnings)
            read = [(p, k) for p in parts if (k := kind_of(p)) is not None]
        else:
            read = [(line, kind)]
        for text, pattern in read:
            m = pattern.match(text)
            reason = unstorable(m, integers)
            if reason:
                if strict:
                    raise ParseError(tool, source, no, reason)
                warnings.append(f"line {no} skipped: {reason}")
                continue
            yield no, pattern, m


def host_and_ip(host: str | None, ip: str | None) -> tuple[str | None, str | None]:
    """(dst_host, dst_ip): the name only when it is not the address itself."""
    if ip is None and host is not None and is_ip(host):
        host, ip = None, host
    if host is not None and host == ip:
        host = None
    return host, ip


def is_ip(text: str) -> bool:
    """Whether ``text`` is an IPv4 or IPv6 address (an IPv6 zone, ``%eth0``, allowed)."""
    try:
        ipaddress.ip_address(text.split("%")[0])
    except ValueError:
        return False
    return True


# Ping-style outputs (uping, the echo client's): µs as the tools print it (the micro sign or
# Greek mu; 'us' after re-encoding), a note's "and so on" line, a terminal's echo of Ctrl+C.
MICRO = r"(?:µs|μs|us)"
# ('...', or a longer run of dots: Azure's Chinese guide shortens its pastes with twenty)
ELIDED = re.compile(r"^\s*(?:\.{3,}|…+)\s*$")
CTRL_C = re.compile(r"^\s*\^C\s*$")

# iperf's units, the same in iperf 2 (src/Locale.c, stdio.c) and iperf3 (src/units.c): byte
# units are powers of 1024, bit units powers of 1000; ``-f K``/``-f M``/... print the rate in
# bytes per second.
BYTE_UNITS = {"Bytes": 1, "KBytes": 2**10, "MBytes": 2**20, "GBytes": 2**30, "TBytes": 2**40}
BIT_RATES = {
    "bits/sec": 1.0,
    "Kbits/sec": 1e3,
    "Mbits/sec": 1e6,
    "Gbits/sec": 1e9,
    "Tbits/sec": 1e12,
}
BYTE_RATES = {f"{unit}/sec": 8.0 * factor for unit, factor in BYTE_UNITS.items()}


def left_out(line_no: int, shown: int, what: str, one: str) -> str:
    """The warning of a paste shortened with '...': the ``shown`` lines are not samples."""
    return (
        f"line {line_no}: {what} left out ('...'): the {shown} shown are not kept as "
        "samples (a subset picked by hand would pass for the run); the printed statistics "
        f"cover every {one}"
    )


def stopped_by_ctrl_c(line_no: int) -> str:
    return f"line {line_no}: stopped with Ctrl+C (how an endless run ends)"


CONSTANT_CHUNK = 1 << 20


# Arrays from this size on come from pyarrow's pool (pool_empty).
POOL_BYTES = 1 << 20
# Rows from which a run's statistics run on a second thread (sockperf's, the echo CSV's):
# handing the GIL between two threads can wait a switch interval (5 ms), and a 10,000-row
# sockperf run's statistics took 5.2 ms on two threads, 0.7 ms on one (100,000 rows: 14 ms on
# two, 16 ms on one).
THREADS_FROM = 100_000


def pool_empty(n: int, dtype) -> np.ndarray:
    """``np.empty(n, dtype)`` in pyarrow's memory pool, for a column of millions of rows.

    numpy asks the kernel for transparent huge pages on big arrays (madvise); where the kernel
    then compacts memory to find them (THP ``defrag=madvise``, as on our benchmark machine),
    writing 320 MB of fresh numpy arrays took 0.05-0.52 s in a fresh process, pyarrow's pool
    (mimalloc) 0.06-0.08 s.  The array is an ordinary writable ndarray; it keeps its buffer."""
    dtype = np.dtype(dtype)
    if n * dtype.itemsize < POOL_BYTES:
        return np.empty(n, dtype)
    return np.frombuffer(pa.allocate_buffer(n * dtype.itemsize), dtype=dtype)


def mapped_empty(n: int, dtype) -> np.ndarray:
    """``np.empty(n, dtype)`` with its pages mapped before it is written, for a column of
    millions of rows that is written whole: a mapping of its own, populated in one call
    (Linux ``MAP_POPULATE``), where the first write to each page of a pool array faults.

    In the VM of our benchmark machine a fault costs far more than a page's worth of work:
    the 320 MB of a 10-million-row sockperf log's columns took 0.3-0.6 s of system time
    written fresh, against 0.1 s populated.  The mapping goes back to the system with the
    array.  Elsewhere (no ``MAP_POPULATE``), :func:`pool_empty`."""
    dtype = np.dtype(dtype)
    if n * dtype.itemsize < POOL_BYTES or not hasattr(mmap, "MAP_POPULATE"):
        return pool_empty(n, dtype)
    flags = mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS | mmap.MAP_POPULATE
    return np.frombuffer(mmap.mmap(-1, n * dtype.itemsize, flags=flags), dtype=dtype)


def int64_array(values: np.ndarray) -> pd.arrays.IntegerArray:
    """Nullable ``Int64`` (the schema's dtype) around int64 ``values`` without a copy of them
    (``pd.array(values, dtype="Int64")`` copies: a second copy of a ten-million-row column)."""
    return pd.arrays.IntegerArray(values, np.zeros(len(values), dtype=bool))


def constant_str(value: str, n: int) -> pd.api.extensions.ExtensionArray:
    """``[value] * n`` already in the schema's ``str`` dtype (Arrow ``large_string``), built
    from its buffers: a list of ten million Python strings costs seconds.

    A long column is one chunk of :data:`CONSTANT_CHUNK` values repeated (Arrow arrays are
    immutable, so the chunks share their buffers): ten million run ids hold 28 MB, not 280."""

    raw = value.encode("utf-8")
    m = min(n, CONSTANT_CHUNK)
    offsets = (
        np.arange(0, (m + 1) * len(raw), len(raw), dtype=np.int64)
        if raw
        else np.zeros(m + 1, np.int64)
    )
    chunk = pa.LargeStringArray.from_buffers(m, pa.py_buffer(offsets), pa.py_buffer(raw * m))
    full, rest = divmod(n, m) if m else (0, 0)
    chunks = [chunk] * full + ([chunk.slice(0, rest)] if rest else [])
    column = pa.chunked_array(chunks, type=pa.large_string())
    return pd.array(column, dtype=pd.StringDtype("pyarrow", na_value=float("nan")))


def repeated_str(values: list[str], counts: list[int]) -> pd.api.extensions.ExtensionArray:
    """Each of ``values`` repeated its count of times, in order, in the schema's ``str``
    dtype: the run ids of many runs' samples joined.  A long run's are :func:`constant_str`
    chunks (shared buffers); consecutive short runs' one array between them (1,200 short
    runs' constant_str calls cost more than their rows)."""
    chunks: list[pa.Array] = []
    short: list[str] = []
    short_counts: list[int] = []

    def flush() -> None:
        if short:
            repeated = np.repeat(np.array(short, dtype=object), short_counts)
            chunks.append(pa.array(repeated, type=pa.large_string()))
            short.clear()
            short_counts.clear()

    for value, n in zip(values, counts, strict=True):
        if n >= _SHORT_RUN:
            flush()
            chunks.extend(constant_str(value, n).__arrow_array__().chunks)
        elif n:
            short.append(value)
            short_counts.append(n)
    flush()
    column = pa.chunked_array(chunks, type=pa.large_string())
    return pd.array(column, dtype=pd.StringDtype("pyarrow", na_value=float("nan")))


_SHORT_RUN = 1000  # rows: below, a value costs less in one array than a constant_str call


_CHUNK = 1 << 23


def count_newlines(data, start: int = 0, end: int | None = None) -> int:
    """``data.count(b"\n", start, end)`` in 8 MB numpy slices: the same answer, but numpy lets
    go of the GIL, so other threads (hashing, pyarrow) run meanwhile."""

    end = len(data) if end is None else end
    if end - start < _CHUNK:
        if isinstance(data, bytes):
            return data.count(b"\n", start, end)
        return data[start:end].count(b"\n")
    view = np.frombuffer(data, dtype=np.uint8)
    return sum(
        int(np.count_nonzero(view[a : min(a + _CHUNK, end)] == 10))
        for a in range(start, end, _CHUNK)
    )


def samples_frame(columns: dict[str, Any]) -> pd.DataFrame:
    """A samples frame (without run_id) from column arrays; dtypes are fixed later by schema."""
    return pd.DataFrame(columns)


def packet_counts(run: Run, counts: re.Match[str]) -> None:
    """A probe tool's printed counts (groups ``sent``, ``received`` and ``loss`` of its 'N
    packets transmitted, M received, L% loss' line): the run's packets and loss, and the
    reported rtt count."""
    received = int(counts["received"])
    run.meta.update(
        packets_sent=int(counts["sent"]),
        packets_received=received,
        loss_pct=float(counts["loss"]),
    )
    run.add("rtt", "count", received, "count")


def gapless(seqs: Iterable[int]) -> bool:
    """Whether the sequence numbers, in any order, are consecutive: none missing, none twice."""
    s = sorted(seqs)
    return not s or s == list(range(s[0], s[0] + len(s)))


def check_shown(run: Run, seq: list[int], counts: re.Match[str] | None, replies: int) -> None:
    """Warn where the probes shown skip or repeat a sequence number, or where their
    ``replies`` are not as many as the printed counts say."""
    steps = np.diff(seq)
    if len(steps) and (steps != 1).any():
        run.warnings.append(f"seq is not consecutive in {int((steps != 1).sum())} places")
    if counts is not None and int(counts["received"]) != replies:
        run.warnings.append(
            f"the statistics count {counts['received']} replies, the output shows {replies}"
        )


@dataclass
class PingEnd:
    """What a ping-style run's lines say of its end, as read: its counts and rtt figures
    (the tool's own ``COUNTS`` and ``FIGURES`` patterns, set by each ``_Read`` subclassing
    this), a line of elided output and a ``^C``.  hping3, paping, uping and the echo client
    keep them alike, and :func:`check_complete` judges them."""

    COUNTS: ClassVar[re.Pattern[str] | None] = None
    FIGURES: ClassVar[re.Pattern[str] | None] = None
    counts: re.Match[str] | None = None
    counts_no: int = 0
    figures: re.Match[str] | None = None
    figures_no: int = 0
    elided: int | None = None
    ctrl_c: int | None = None

    def end(self, kind: re.Pattern[str], m: re.Match[str], no: int) -> bool:
        """Keep line ``no`` where it is one of these (True), else leave it to the tool."""
        if kind is self.COUNTS:
            self.counts, self.counts_no = m, no
        elif kind is self.FIGURES:
            self.figures, self.figures_no = m, no
        elif kind is ELIDED:
            self.elided = self.elided or no
        elif kind is CTRL_C:
            self.ctrl_c = no
        else:
            return False
        return True


def check_complete(
    run: Run, read: PingEnd, *, who: str, rtt_line: str, errors: bool = False
) -> None:
    """``complete``: a ping-style output got to its statistics (its counts, and its
    ``rtt_line`` whenever a reply came back) without ``errors``; a warning for what is
    missing (``who``: what stopped printing), after one for the ``^C`` ``read`` saw."""
    if read.ctrl_c:
        run.warnings.append(stopped_by_ctrl_c(read.ctrl_c))
    run.meta["complete"] = read.counts is not None and not errors
    if read.counts is None:
        run.warnings.append(f"no statistics: the output was cut before {who} stopped")
    elif read.figures is None and int(read.counts["received"]):
        run.meta["complete"] = False
        run.warnings.append(
            f"no '{rtt_line}' line after line {read.counts_no} (cut short?): the reported rtt "
            "is missing"
        )


# Percentiles computed from the probes; each is kept only when n * (1 - q) >= 1.
RTT_PERCENTILES = (
    ("p25", 0.25),
    ("p50", 0.5),
    ("p75", 0.75),
    ("p90", 0.9),
    ("p95", 0.95),
    ("p99", 0.99),
    ("p99.9", 0.999),
    ("p99.99", 0.9999),
)


def probe_samples(
    run: Run,
    seq: list[int],
    status: list[str],
    rtt_us: list[float],
    *,
    kind: str,
    counts: re.Match[str] | None,
    elided: int | None,
    message: list[str | None] | None = None,
    duplicates_counted: bool = False,
) -> None:
    """A ping-style run's probes as its samples (``kind``, each with its ``seq``, ``status``
    and ``rtt_us``), checked against the printed ``counts`` (:func:`check_shown`: the
    ``duplicate`` rows among its received where ``duplicates_counted``), and the computed
    statistics of those ``ok``; in a paste shortened at line ``elided`` ('...') the probes
    shown are no samples (:func:`left_out`)."""
    if elided and seq:
        run.warnings.append(left_out(elided, len(seq), "probes", "probe"))
        return
    if not seq:
        return
    replies = [r for s, r in zip(status, rtt_us, strict=True) if s == "ok"]
    once = [q for q, s in zip(seq, status, strict=True) if s != "duplicate"]
    counted = len(replies) + (len(seq) - len(once) if duplicates_counted else 0)
    check_shown(run, once, counts, counted)
    frame: dict[str, Any] = {
        "seq": pd.array(seq, dtype="Int64"),
        "kind": kind,
        "status": status,
        "rtt_us": np.array(rtt_us, dtype=float),
    }
    if message is not None:
        frame["message"] = message
    run.samples = samples_frame(frame)
    computed_rtt(run, replies)


def computed(run: Run, metric: str, values) -> None:
    """Statistics of ``values`` (µs) as ``metric``: count, mean, ddof=1 std, min, max and the
    inverted-CDF percentiles of :data:`RTT_PERCENTILES`, ``source = computed``: what a probe
    tool's own samples give.  NaN and infinities are left out: an infinity ('1e400' in a
    damaged line) is no measurement, the reader stores none and says so, and kept here it
    made the mean and max infinite, the std NaN and the count one more than the samples."""
    v = np.asarray(values, dtype=float)
    v = v[np.isfinite(v)]
    n = len(v)
    if not n:
        return
    kw = {"source": "computed", "n": n}
    run.add(metric, "count", n, "count", source="computed")
    run.add(metric, "mean", float(v.mean()), "us", **kw)
    if n > 1:
        run.add(metric, "std", float(v.std(ddof=1)), "us", **kw)
    run.add(metric, "min", float(v.min()), "us", **kw)
    run.add(metric, "max", float(v.max()), "us", **kw)
    wanted = [(stat, q) for stat, q in RTT_PERCENTILES if n * (1 - q) >= 1 - 1e-9]
    qs = np.quantile(v, [q for _, q in wanted], method="inverted_cdf")  # one partition
    for (stat, _), value in zip(wanted, qs):
        run.add(metric, stat, float(value), "us", **kw)


def computed_rtt(run: Run, rtt) -> None:
    """:func:`computed` of the probes' round trips."""
    computed(run, "rtt", rtt)


def json_closed(text: str, i: int = 0) -> tuple[Any, int] | None:
    """``(document, cut)`` for a JSON document at ``text[i]`` cut short (a copy that stops
    mid-way, ``head -n``): the members it holds whole, closed where the last one ends, and
    the offset of that end (whole lines after it: the document breaks there, say a block
    pasted twice, and the caller names them); None when nothing whole is left.  A member cut
    in the middle is dropped, never guessed."""
    stack: list[str] = []
    ends: list[tuple[int, str]] = []  # after each whole member: (offset, closers needed)
    in_str = esc = False
    for k in range(i, len(text)):
        ch = text[k]
        if in_str:
            if esc:
                esc = False
            elif ch == "\\":
                esc = True
            elif ch == '"':
                in_str = False
            continue
        if ch == '"':
            in_str = True
        elif ch in "{[":
            stack.append("}" if ch == "{" else "]")
        elif ch in "}]":
            if not stack:
                return None
            stack.pop()
            if not stack:
                return None  # the document is whole: not cut
            ends.append((k + 1, "".join(reversed(stack))))
        elif ch == "," and stack:
            ends.append((k, "".join(reversed(stack))))
    for end, closers in reversed(ends[-64:]):
        try:
            return json.loads(text[i:end] + closers), end
        except json.JSONDecodeError:
            continue
    return None
