"""``read``: from a file, bytes or text to the three tables.

The reader decodes (``decode.py``), asks every parser where its outputs sit (``locate``),
keeps the non-overlapping spans, parses each as one block, and labels the runs with where
they came from: file, sha256, block, absolute line range, the heading above and the prose
line before.  Parsers never see files.
"""

from __future__ import annotations

import contextlib
import gzip
import hashlib
import json
import mmap
import os
import re
import threading
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from . import schema
from .decode import Decoded, clean_text, decode
from .errors import (
    LOOKED_FOR,
    DetectionError,
    NothingMeasured,
    ParseError,
    SchemaError,
    WrongTool,
    map_lines,
    shift_lines,
)
from .parsers import get, modules
from .parsers._base import (
    PROMPT,
    STRAY_ABOVE,
    Parsed,
    Span,
    command_of,
    constant_str,
    count_newlines,
    hook,
)
from .schema import Tables

_FENCE = re.compile(r"^\s*(```|~~~)")
_HEADING = re.compile(r"^\s{0,3}(#{1,6})\s+(\S.*?)\s*#*\s*$")
_PROMPT_ONLY = re.compile(r"^\s*[\w.-]+@([\w.-]+)(?::\S*)?\s*[#$%]?\s*$")
# An e-mail reply's or a Markdown blockquote's markers: "> sockperf: ...", "> > ", ">> ".
_QUOTED = re.compile(r"^[ \t]*>(?:[ \t]?>)*[ \t]?")
# Files whose head says they are one output in their entirety skip document scanning.
_HEAD_BYTES = 64 * 1024


def _short(sha: str) -> str:
    return sha[:12]


def resolve(spans: list[Span]) -> list[Span]:
    """Keep non-overlapping spans: earliest first, then the longest, then the heaviest."""
    chosen: list[Span] = []
    for s in sorted(spans, key=lambda s: (s.start, -(s.end - s.start) * s.weight, -s.weight)):
        if s.end <= s.start:
            continue
        if chosen and s.start < chosen[-1].end:
            prev = chosen[-1]
            # A heavier span that starts inside a lighter one wins the overlap.
            if s.weight > prev.weight and s.start > prev.start:
                chosen[-1] = Span(prev.start, s.start, prev.tool, prev.weight)
                chosen.append(s)
            continue
        chosen.append(s)
    return chosen


def locate(lines: list[str]) -> list[Span]:
    spans: list[Span] = []
    for module in modules():
        spans.extend(module.locate(lines))
    return resolve(spans)


# Lines that are no tool's (a kernel message, ``Connection reset by peer``, a shell line, a
# note) between two outputs of one tool: up to this many are read as part of the output when
# the tool's parser says the second continues the first's run.
BRIDGE_LINES = 6
# Another tool's output this short inside the gap is more likely a stray line that happens
# to look like that tool's (``12.5``, ``----``) than an output of its own.
_STRAY_SPAN = 2


def bridge(lines: list[str], spans: list[Span]) -> list[Span]:
    """Outputs as their tools read them, not as far as the first foreign line: a few lines
    that are no tool's (a kernel message, ``Connection reset by peer``, a shell line, a note)
    inside an output are kept inside its block, where the parser names them (a warning, or a
    located error with ``strict=True``), instead of ending the run there.

    A span grows over what follows it while the tool's own parser reads the two differently
    together: the next span of the same tool (one run split in two would be a fake replicate,
    or the second part would lose what the first said, such as a command's message sizes), or
    the lines after a stray line up to the next blank line (a ``key = value`` tail no locator
    starts a span on).  A heading or a code fence in between always separates."""
    out: list[Span] = []
    memo: dict[tuple[int, int], tuple | None] = {}
    i = 0
    while i < len(spans):
        cur = spans[i]
        i += 1
        while True:
            j = i  # the candidate continuation, past a stray span of another tool
            while (
                j + 1 < len(spans)
                and spans[j].tool != cur.tool
                and spans[j].end - spans[j].start <= _STRAY_SPAN
            ):
                j += 1
            if (
                j < len(spans)
                and spans[j].tool == cur.tool
                and _small_gap(lines, cur.end, spans[j].start)
            ):
                merged = Span(cur.start, spans[j].end, cur.tool, cur.weight)
                if _reads_as_one(lines, cur, spans[j], merged, memo):
                    cur, i = merged, j + 1
                    continue
            limit = spans[i].start if i < len(spans) else len(lines)
            for end in _tails(lines, cur.end, limit):
                longer = Span(cur.start, end, cur.tool, cur.weight)
                if _reads_more(lines, cur, longer, memo):
                    cur = longer
                    break
            else:
                break
        out.append(cur)
    return out


def _tails(lines: list[str], a: int, limit: int) -> list[int]:
    """Where the lines after ``lines[a]`` could end if they go on the output: the end of the
    next paragraph (one or two blank lines on), and, when that paragraph is only a few lines
    (the stray lines alone), of the one after it.  None past a heading or a fence."""
    ends: list[int] = []
    for _ in range(2):
        skipped = 0
        while a < limit and not lines[a].strip() and skipped < 2:
            a, skipped = a + 1, skipped + 1
        if a >= limit or not lines[a].strip():
            break
        b = a
        while (
            b < limit
            and lines[b].strip()
            and not (_FENCE.match(lines[b]) or _HEADING.match(lines[b]))
        ):
            b += 1
        if b == a or b - a > _TRIAL_LINES:
            break
        ends.append(b)
        if b - a > BRIDGE_LINES or b < limit and lines[b].strip():
            break
        a = b
    return ends


def _reads_more(lines, cur: Span, longer: Span, memo) -> bool:
    """The tool reads ``longer`` differently from ``cur``, and not less of it."""
    if cur.end - cur.start > _TRIAL_LINES:
        return False
    short, long = _reading(lines, cur, memo), _reading(lines, longer, memo)
    if long is None or long == short:
        return False
    if short is None:
        return False  # nothing to continue: the lines after it are another matter
    return len(long) >= len(short) and _amount(long) >= _amount(short)


def _samples(reading: tuple) -> int:
    return sum(samples for _, _, samples, _, _ in reading)


def _amount(reading: tuple) -> int:
    """How much a reading holds: facts about runs, samples and summaries."""
    return sum(facts + samples + summaries for _, facts, samples, summaries, _ in reading)


# Beyond this many lines the trial reads cost more than they tell: a long log split by a few
# stray lines is one output.
_TRIAL_LINES = 100_000


def _reads_as_one(lines, prev: Span, nxt: Span, merged: Span, memo) -> bool:
    if merged.end - merged.start > _TRIAL_LINES:
        return True
    together = _reading(lines, merged, memo)
    if together is None:
        return False
    first, second = _reading(lines, prev, memo), _reading(lines, nxt, memo)
    if first is None or second is None:
        return True
    # Read as one, the two must say something else (fewer runs, a command's sizes on the
    # second) and keep every sample: another output after a note is not swallowed as bad
    # lines.  (Summaries may fall: a total line supersedes the per-stream lines before it.)
    return together != first + second and _samples(together) >= _samples(first) + _samples(second)


def _small_gap(lines: list[str], a: int, b: int) -> bool:
    gap = [line for line in lines[a:b] if line.strip()]
    return 0 < len(gap) <= BRIDGE_LINES and not any(
        _FENCE.match(line) or _HEADING.match(line) for line in gap
    )


_WHERE = frozenset(("line_start", "line_end", "warnings", "complete"))


def _facts(meta: dict) -> int:
    """Facts a run's meta holds (each label counts, whether a dict or its JSON)."""
    n = 0
    for k, v in meta.items():
        if k in _WHERE or v is None:
            continue
        if isinstance(v, str) and v.startswith("{"):
            with contextlib.suppress(ValueError):
                v = json.loads(v)
        n += len(v) if isinstance(v, dict) else 1
    return n


def _reading(lines: list[str], span: Span, memo) -> tuple | None:
    """What the tool's parser reads in ``span`` (lenient), without line numbers and warnings:
    a tuple per run; None when it reads nothing."""
    key = (span.start, span.end)
    if key not in memo:
        try:
            parsed = get(span.tool).parse("\n".join(lines[span.start : span.end]), strict=False)
        except (ParseError, OverflowError):
            memo[key] = None
        else:
            memo[key] = (
                tuple(
                    (
                        repr(sorted((k, repr(v)) for k, v in run.meta.items() if k not in _WHERE)),
                        _facts(run.meta),
                        0 if run.samples is None else len(run.samples),
                        len(run.summaries),
                        repr([(x.metric, x.stat, x.value) for x in run.summaries]),
                    )
                    for run in parsed.runs
                )
                or None
            )
    return memo[key]


def _outline(lines: list[str], spans: list[Span] = ()) -> tuple[list[str | None], list[bool]]:
    """Heading in force at each line (markdown headings outside fences) and fence membership.
    A tool's output counts as fenced: ntttcp's ``#####  Totals:  #####`` is no heading, nor
    is the last line of one output the prose above the next."""
    output = [False] * len(lines)
    for span in spans:
        output[span.start : span.end] = [True] * (min(span.end, len(lines)) - span.start)
    heading: list[str | None] = []
    fenced: list[bool] = []
    current, inside = None, False
    for k, line in enumerate(lines):
        if output[k]:
            fenced.append(True)
            heading.append(current)
            continue
        if _FENCE.match(line):
            inside = not inside
            fenced.append(True)
            heading.append(current)
            continue
        if not inside:
            m = _HEADING.match(line)
            if m:
                current = m.group(2).strip()
        fenced.append(inside)
        heading.append(current)
    return heading, fenced


def _context(lines: list[str], fenced: list[bool], start: int) -> str | None:
    """Last prose line above ``start``: outside code fences, not a prompt, not above the
    nearest heading, at most six lines up."""
    for i in range(start - 1, max(-1, start - 7), -1):
        text = lines[i].strip()
        if fenced[i]:
            continue
        if _HEADING.match(lines[i]):
            return None
        if not text or PROMPT.match(text) or _PROMPT_ONLY.match(text):
            continue
        return text[:200]
    return None


def _commands(lines: list[str], span: Span, tool_names: tuple[str, ...]) -> list[tuple]:
    """(command, prompt host) of a span (:func:`_command`), then the tool's other commands in
    the same head above it: one fenced block often holds the client's command and the server's
    started beside it (``# host`` / ``# vm`` comments between), in either order."""
    cmd, host, at = _command(lines, span, tool_names)
    if not cmd:
        return []
    out = [(cmd, host)]
    stray = 0
    for i in range(at - 1, max(-1, at - 8 - STRAY_ABOVE), -1):
        line = lines[i]
        if not line.strip() or _FENCE.match(line) or _HEADING.match(line):
            continue  # context around the commands, not output
        other, other_host = command_of(line, tool_names)
        if not other:
            if stray < STRAY_ABOVE:
                stray += 1  # a stray line, or another tool's command, among the commands
                continue
            break
        out.append((other, other_host or host))
    return out


def _pick_command(cands: list[tuple], role: str | None, server: re.Pattern | None):
    """The command of a run among those above its output: a server's run takes the server
    command, any other run a command that does not start a server (sockperf's ``server``,
    iperf3's ``-s``), when there is one."""
    if len(cands) < 2 or server is None:
        return cands[0] if cands else (None, None)
    want = [c for c in cands if bool(server.search(c[0])) == (role == "server")]
    return (want or cands)[0]


def _command(lines: list[str], span: Span, tool_names: tuple[str, ...]):
    """Command line, prompt host and line of a span's command: its first line, or up to 4
    lines above it."""
    cmd, host = command_of(lines[span.start], tool_names)
    if cmd:
        if host is None and span.start > 0 and _FENCE.match(lines[span.start - 1]):
            # A span that starts at a fenced ``# command``: the prompt sits above the fence.
            for j in range(span.start - 2, max(-1, span.start - 4), -1):
                m = _PROMPT_ONLY.match(lines[j])
                if m:
                    host = m.group(1)
                    break
        return cmd, host, span.start
    stray = 0
    for i in range(span.start - 1, max(-1, span.start - 5 - STRAY_ABOVE), -1):
        line = lines[i]
        if _FENCE.match(line) or not line.strip():
            continue
        cmd, host = command_of(line, tool_names)
        if not cmd and stray < STRAY_ABOVE and not (PROMPT.match(line) or _HEADING.match(line)):
            stray += 1  # a kernel message or a note between the command and its output
            continue
        if cmd:
            if host is None and i > 0:
                # ``root@host:/path`` alone on the line above a fenced ``# command``.
                for j in range(i - 1, max(-1, i - 3), -1):
                    m = _PROMPT_ONLY.match(lines[j])
                    if m:
                        host = m.group(1)
                        break
            return cmd, host, i
        break
    return None, None, None


def _command_passed_over(lines: list[str], span: Span, tool_names: tuple[str, ...]) -> str | None:
    """A warning when the block has no command because a prompt line with another command
    stands between it and the tool's command just above (``$ echo done`` pasted in): the
    command is not taken, and the run says which and why."""
    seen_prompt, stray = None, 0
    for i in range(span.start - 1, max(-1, span.start - 6 - STRAY_ABOVE), -1):
        line = lines[i]
        if not line.strip() or _FENCE.match(line):
            continue
        if command_of(line, tool_names)[0]:
            if seen_prompt is None:
                return None
            return (
                f"the command on line {i + 1} is not taken as this output's: the shell line on "
                f"line {seen_prompt + 1} ({lines[seen_prompt].strip()[:40]!r}) stands between"
            )
        if seen_prompt is None and PROMPT.match(line):
            seen_prompt = i
        elif seen_prompt is None and stray < STRAY_ABOVE and not _HEADING.match(line):
            stray += 1  # the output's first line the span leaves out ('- - -'), a note
        else:
            return None
    return None


def _whole_file_tool(text_head: str, tool: str | None) -> str | None:
    if tool:
        return tool
    for module in modules():
        claim = hook(module, "whole_file")
        if claim is not None and claim(text_head):
            return module.INFO.tool
    return None


def read_bytes(
    data: bytes,
    *,
    source: str | None = None,
    tool: str | None = None,
    strict: bool = False,
    sha256: str | None = None,
) -> Tables:
    """Parse raw bytes of one file. ``source`` is how the file is named in runs and errors;
    ``sha256`` is the bytes' hash when the caller has it already (the importer does)."""
    if not data or data.isspace():  # data.strip() would copy the whole file
        raise DetectionError(tool or "azlatency", source, None, "empty input")
    if data.startswith(_GZIP):
        # one gzip'd output (irtt client -o writes .json.gz unless the name ends in .json):
        # read what it holds; the hash stays the file's
        sha256 = sha256 or hashlib.sha256(data).hexdigest()
        data = _gunzip(data, source, tool)
    if len(data) <= _HEAD_BYTES:
        return read_text(
            decode(data),
            source=source,
            tool=tool,
            strict=strict,
            sha=sha256 or hashlib.sha256(data).hexdigest(),
        )
    # Hashing lets go of the GIL: on a big file it runs beside the parser, in a thread at idle
    # priority, so that it takes the cores the parser leaves free.
    sha = _Known(sha256) if sha256 else _Background(lambda: hashlib.sha256(data).hexdigest())
    return _read_big(data, sha, source=source, tool=tool, strict=strict)


_GZIP = b"\x1f\x8b"


def _gunzip(data: bytes, source: str | None, tool: str | None) -> bytes:
    try:
        return gzip.decompress(data)
    except (OSError, EOFError, zlib.error) as exc:
        raise DetectionError(
            tool or "azlatency", source, None, f"a gzip file that does not decompress: {exc}"
        ) from None


class _Known:
    """A hash the caller already has, answering like :class:`_Background`."""

    def __init__(self, value: str) -> None:
        self.value = value

    def result(self) -> str:
        return self.value


# Files from this size on are mapped, not read: the parser's fast paths take their bytes
# straight from the page cache, and half a gigabyte of log is never copied into the process.
MAP_BYTES = 32 << 20


@contextlib.contextmanager
def file_bytes(path: str | os.PathLike[str]) -> Iterator[bytes]:
    """The bytes of a file: read when small, mapped (:class:`_Mapped`) from :data:`MAP_BYTES`
    on.  Parsing takes them through the same code either way."""
    path = Path(path)
    if not MAP_BYTES <= path.stat().st_size > 0:
        yield path.read_bytes()
        return
    with path.open("rb") as f:
        data = _Mapped.of(f.fileno())
    try:
        yield data
    finally:
        # Something may still view the mapping (BufferError): it then goes with that view.
        with contextlib.suppress(BufferError):
            data.close()


class _Mapped(mmap.mmap):
    """A read-only mapped file that answers the ``bytes`` methods the readers use (slices are
    ``bytes``).  Anything else is asked of a ``bytes`` copy: correct, only slower.  The file
    must not shrink while it is read (raw data is never modified: docs/campaign.md)."""

    _SPACE = re.compile(rb"[^ \t\n\r\x0b\x0c]")

    @classmethod
    def of(cls, fd: int) -> _Mapped:
        """The whole file, read-only; on Linux its pages are mapped in one call (MAP_POPULATE)
        rather than one fault at a time as the parser meets them."""
        if hasattr(mmap, "MAP_POPULATE"):
            return cls(fd, 0, flags=mmap.MAP_SHARED | mmap.MAP_POPULATE, prot=mmap.PROT_READ)
        return cls(fd, 0, access=mmap.ACCESS_READ)

    def isspace(self) -> bool:
        return len(self) > 0 and self._SPACE.search(self) is None

    def startswith(self, prefix, start: int = 0, end: int | None = None) -> bool:
        prefixes = prefix if isinstance(prefix, tuple) else (prefix,)
        head = (
            self[start : start + max(len(p) for p in prefixes)] if end is None else self[start:end]
        )
        return head.startswith(prefixes)

    def endswith(self, suffix) -> bool:
        suffixes = suffix if isinstance(suffix, tuple) else (suffix,)
        return self[len(self) - max(len(s) for s in suffixes) :].endswith(suffixes)

    def count(self, sub: bytes, start: int = 0, end: int | None = None) -> int:
        if sub == b"\n":
            return count_newlines(self, start, end)
        return self[start:end].count(sub)

    def __contains__(self, sub) -> bool:
        return self.find(sub) >= 0

    def decode(self, *args, **kwargs) -> str:
        return self[:].decode(*args, **kwargs)

    def __getattr__(self, name: str):
        return getattr(self[:], name)


class _Background:
    """``fn()`` in a thread of its own at idle CPU priority; ``result()`` waits for it."""

    def __init__(self, fn) -> None:
        self._fn, self._value, self._error = fn, None, None
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        # Linux: a thread is a task with its own policy; SCHED_IDLE runs only on an idle core
        # (nice 19 still takes a share of a busy one). Elsewhere the thread runs as it is.
        with contextlib.suppress(AttributeError, OSError):
            os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
        try:
            self._value = self._fn()
        except BaseException as exc:  # handed to the caller of result()
            self._error = exc

    def result(self):
        self._thread.join()
        if self._error is not None:
            raise self._error
        return self._value


def _read_big(data: bytes, sha_job, *, source, tool, strict) -> Tables:
    # Fast path: a big, plain single-tool file parsed from bytes without a text copy.
    raw_head = data[:_HEAD_BYTES]
    plain = not data.startswith((b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff"))
    plain = plain and b"\r" not in raw_head and b"\x1b" not in raw_head
    head_info = decode(raw_head) if not plain else None
    head = head_info.text if head_info else raw_head.decode("utf-8", errors="replace")
    whole = (
        _whole_file_tool(head, tool) if plain or head_info.encoding.startswith("utf-8") else None
    )
    module = get(whole) if whole else None
    # A module with ``PARSE_BYTES_CLEANS = True`` decodes its own input (sockperf 3.7
    # colours the summary of every --full-log file), so it takes this path for any file;
    # the others only for a file that is plain all through.
    if (
        module is not None
        and hook(module, "parse_bytes") is not None
        and (
            hook(module, "PARSE_BYTES_CLEANS")
            or (plain and b"\r" not in data and b"\x1b" not in data)
        )
    ):
        try:
            parsed = module.parse_bytes(data, source=source, strict=strict)
        except OverflowError as exc:  # a number beyond int64 reached numpy/pandas
            raise _too_big(whole, source, 1, exc) from None
        decoded = head_info or Decoded("", "utf-8", "LF", False, False)
        decoded = Decoded(
            "", decoded.encoding, decoded.newline, decoded.ansi_stripped, decoded.prefixes_stripped
        )
        end = max((run.line_end or 0 for run in parsed.runs), default=0)  # the whole file
        tables = _tables(
            [Span(0, end, whole)],
            [parsed],
            decoded,
            sha_job.result(),
            source,
            lines=None,
            strict=strict,
        )
        if not len(tables.runs) and tables.problems:
            raise tables.problems[0]
        return tables
    return read_text(decode(data), source=source, tool=tool, strict=strict, sha=sha_job.result())


def read_text(
    decoded: Decoded | str,
    *,
    source: str | None = None,
    tool: str | None = None,
    strict: bool = False,
    sha: str | None = None,
) -> Tables:
    if isinstance(decoded, str):
        text = decoded

        cleaned, newline, ansi, prefixed = clean_text(text)
        decoded = Decoded(cleaned, "str", newline, ansi, prefixed)
    text = decoded.text
    if sha is None:
        sha = hashlib.sha256(text.encode("utf-8")).hexdigest()
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    if not any(line.strip() for line in lines):
        raise DetectionError(tool or "azlatency", source, None, "empty input")

    whole = _whole_file_tool(text[:_HEAD_BYTES], tool)
    if not whole:
        lines = unquote(lines)
    spans = [Span(0, len(lines), whole)] if whole else bridge(lines, locate(lines))
    if not spans:
        looked = "; ".join(f"{m.INFO.tool} ({m.INFO.description})" for m in modules())
        raise DetectionError(
            "azlatency", source, None, f"no known tool output found{LOOKED_FOR}{looked}"
        )
    parsed_blocks: list[Parsed | None] = []
    problems: list[ParseError] = []
    for i, span in enumerate(spans):
        block = lines[span.start : span.end]
        try:
            parsed = get(span.tool).parse("\n".join(block), source=source, strict=strict)
        except (ParseError, OverflowError) as exc:
            if isinstance(exc, OverflowError):  # a number beyond int64 reached numpy/pandas
                exc = _too_big(span.tool, source, 1, exc)
            parsed = None if strict else _without_strays(span.tool, block, source, exc)
            if parsed is None and not strict:
                stop = spans[i + 1].start if i + 1 < len(spans) else len(lines)
                parsed = _across_stray(span, lines, stop, source)
            if parsed is not None:
                parsed_blocks.append(parsed)
                continue
            err = exc.shifted(span.start, source)
            # A block holding only its tool's error is that block's problem, not the
            # document's: the outputs beside it are read (NothingMeasured).
            if strict and not (isinstance(err, NothingMeasured) and len(spans) > 1):
                raise err from None
            problems.append(err)
            parsed = None
        parsed_blocks.append(parsed)
    tables = _tables(spans, parsed_blocks, decoded, sha, source, lines=lines, strict=strict)
    tables.problems[:0] = problems
    if not len(tables.runs) and problems:
        raise problems[0]
    return tables


# Lines a lenient read may take out of a block its parser refused (each one, near the error),
# and the longest block it reads again for it (each try reads the block whole: a refused
# million-line log keeps its located error rather than be read fifteen times).
STRAY_RETRIES = 3
STRAY_RETRY_LINES = 200_000
_NEAR = (0, -1, -2, -3, 1)
# Errors no line is taken out for: a JSON document's own repair already took out what
# strayed (what is left is its own line: a missing comma), and a number beyond int64 is the
# tool's own figure, too big to store, not a foreign line.
_NOT_A_STRAY = ("invalid JSON", "int64")


def _without_strays(tool: str, block: list[str], source: str | None, exc: Exception):
    """The block read without the line (or up to :data:`STRAY_RETRIES` lines) that made its
    parser refuse it, each named in every run's warnings; None when no such line is found.

    A parser that reads a line it does not know as an error (an ``-o`` CSV header and its
    rows, a table's columns) stops there; the lenient promise is the run kept and the line
    named.  The lines tried are the error's and the three above it (a stray line above a
    table is found where the table's next line no longer fits) and the one below.  The line
    is taken out (a blank line would split a table's header as surely as the stray did) and
    the run's line numbers are given back in the file's count.  A block that measured
    nothing (:class:`NothingMeasured`), another tool's output (:class:`WrongTool`) and the
    errors of :data:`_NOT_A_STRAY` are left as they are."""
    if not isinstance(exc, ParseError) or isinstance(exc, NothingMeasured | WrongTool):
        return None
    if any(what in exc.reason for what in _NOT_A_STRAY) or len(block) > STRAY_RETRY_LINES:
        return None
    lines, removed = list(block), []  # removed: indices in ``block``
    for _ in range(STRAY_RETRIES):
        at = exc.line_no
        if at is None:
            return None
        for k in (at - 1 + d for d in _NEAR):
            if not (0 <= k < len(lines)) or not lines[k].strip():
                continue
            trial = lines[:k] + lines[k + 1 :]
            try:
                parsed = get(tool).parse("\n".join(trial), source=source, strict=False)
            except NothingMeasured:
                continue
            except ParseError as again:
                if again.line_no is not None and again.line_no > at:
                    removed.append(_original(k, removed))
                    lines, exc = trial, again  # past this line: another one to take out
                    break
                continue
            except (OverflowError, ValueError):
                continue
            removed.append(_original(k, removed))
            return _renumbered(parsed, removed, block, tool)
        else:
            return None
    return None


def _original(k: int, removed: list[int]) -> int:
    """Index ``k`` of a block with the ``removed`` lines taken out, in the whole block."""
    for r in sorted(removed):
        if r <= k:
            k += 1
    return k


def _renumbered(parsed: Parsed, removed: list[int], block: list[str], tool: str) -> Parsed:
    def back(n: int) -> int:  # 1-based
        return _original(n - 1, removed) + 1

    note = "; ".join(
        f"line {r + 1} skipped: {block[r].strip()[:80]!r} is no {tool} output line (its "
        "parser stopped there)"
        for r in sorted(removed)
    )
    for run in parsed.runs:
        run.line_start, run.line_end = back(run.line_start), back(run.line_end)
        run.warnings = [map_lines(w, back) for w in run.warnings]
    return _named(parsed, note)


def _named(parsed: Parsed, note: str) -> Parsed:
    """``parsed`` with ``note`` (the lines a lenient read took out) first in each run's
    warnings."""
    for run in parsed.runs:
        run.warnings.insert(0, note)
    return parsed


def _across_stray(span: Span, lines: list[str], stop: int, source: str | None):
    """A refused block read on past the one line that ended it (a shell prompt typed into
    a server's log ends the block there, and the report lines after it are found by no
    locator): the block with that line blanked and the lines up to ``stop`` (the next
    block) after it, when that reads; the line named in every run's warnings."""
    at = span.end
    if at >= stop - 1 or not lines[at].strip() or stop - span.start > STRAY_RETRY_LINES:
        return None
    trial = lines[span.start : at] + [""] + lines[at + 1 : stop]
    try:
        parsed = get(span.tool).parse("\n".join(trial), source=source, strict=False)
    except (ParseError, OverflowError, ValueError):
        return None
    note = (
        f"line {at - span.start + 1} skipped: {lines[at].strip()[:80]!r} is no {span.tool} "
        "output line (the output goes on after it)"
    )
    return _named(parsed, note)


def unquote(lines: list[str]) -> list[str]:
    """``lines`` without the quote markers of an e-mail reply or a Markdown blockquote (a
    tool's output quoted on a mailing list is still its output; one line each, so line
    numbers stay the file's).  No tool prints a line that starts with '>'."""
    if not any(">" in line[:8] for line in lines):
        return lines
    return [
        _QUOTED.sub("", line, count=1) if line.lstrip(" \t").startswith(">") else line
        for line in lines
    ]


def _tables(
    spans: list[Span],
    blocks: list[Parsed | None],
    decoded: Decoded,
    sha: str,
    source: str | None,
    *,
    lines: list[str] | None,
    strict: bool = False,
) -> Tables:
    # Headings and fences matter only above a block's first line: a whole-file output of a
    # million lines needs none of it.
    upto = max((s.start for s in spans), default=0) + 1
    headings, fenced = _outline(lines[:upto], spans) if lines is not None else ([], [])
    rows: list[_RunRows] = []
    for block_no, (span, parsed) in enumerate(zip(spans, blocks)):
        if parsed is None:
            continue
        names = get(parsed.tool).INFO.command_names()
        cands = _commands(lines, span, names) if lines is not None else []
        passed = None
        if not cands and lines is not None and span.start:
            passed = _command_passed_over(lines, span, names)
        server = get(parsed.tool).INFO.server_command
        server = re.compile(server) if server else None
        for k, run in enumerate(parsed.runs):
            run_id = f"{_short(sha)}-{block_no:03d}-{k:03d}"
            meta = dict(run.meta)
            meta.setdefault("tool", parsed.tool)
            meta.setdefault("complete", True)
            cmd, host = _pick_command(cands, meta.get("role"), server)
            if cmd and not meta.get("command"):
                meta["command"] = cmd
            if host and not meta.get("prompt_host"):
                meta["prompt_host"] = host
            warnings = list(run.warnings) + ([meta.pop("warnings")] if meta.get("warnings") else [])
            kept, flagged = _plausible(run.summaries)
            warnings += flagged
            if span.start:  # parsers count lines within their block; the file's count is wanted
                warnings = [shift_lines(w, span.start) for w in warnings]
            if passed and not meta.get("command"):
                warnings.append(passed)  # counted in the file's lines already
            meta.update(
                run_id=run_id,
                source_path=source or "<text>",
                source_sha256=sha,
                encoding=decoded.encoding,
                block=block_no,
                line_start=span.start + run.line_start,
                line_end=span.start + run.line_end,
                heading=headings[span.start] if headings else None,
                context=_context(lines, fenced, span.start) if lines is not None else None,
                warnings="; ".join(warnings) if warnings else None,
            )
            if isinstance(meta.get("labels"), dict):
                meta["labels"] = json.dumps(meta["labels"], sort_keys=True)
            samples = None
            if run.samples is not None and len(run.samples):
                samples = run.samples
                samples.insert(0, "run_id", constant_str(run_id, len(samples)))
            summaries = [{"run_id": run_id, **row.__dict__} for row in kept]
            rows.append(_RunRows(parsed.tool, meta["line_start"], meta, samples, summaries))
    _repeats(rows, lines)
    try:
        return _frames(rows)
    except (SchemaError, OverflowError):
        pass
    # A number beyond what a column stores (int64): find the runs that carry one and raise,
    # or (lenient) drop them, at their first line rather than as a bare SchemaError.
    problems, keep = [], []
    for r in rows:
        try:
            _frames([r])
        except (SchemaError, OverflowError) as exc:
            err = _too_big(r.tool, source, r.line, exc)
            if strict:
                raise err from None
            problems.append(err)
        else:
            keep.append(r)
    tables = _frames(keep)
    tables.problems.extend(problems)
    return tables


_COUNTS = ("packets_sent", "packets_received", "loss_pct")


def _figures(r: _RunRows) -> tuple | None:
    """What a run measured, without where it sits: its summaries and (the ends of) its
    samples.  None when it holds too little to tell a copy from a coincidence: fewer than
    20 samples or 5 distinct ones (ten 1-s iperf3 intervals capped at one rate), or, with no
    samples, fewer than four distinct non-zero measured figures (an idle disk, a failed
    test, a count) unless it names the message size it measured (a qperf -oo sweep visits
    each size once)."""
    summ = tuple(
        sorted(
            (s["metric"], s["stat"], repr(s["value"]), s["unit"], s["source"]) for s in r.summaries
        )
    )
    distinct = {
        s["value"]
        for s in r.summaries
        if s["stat"] not in ("count", "total") and s["value"] == s["value"] and s["value"]
    }
    # the counts a run's meta holds are figures too (fping's 'xmt/rcv/%loss = 10/9/10%')
    counts = tuple(r.meta.get(c) for c in _COUNTS)
    distinct |= {float(v) for v in counts if v is not None and pd.notna(v) and float(v)}
    summ = (*summ, counts)
    samples, digest, varied = r.samples, None, False
    if samples is not None and len(samples):
        body = samples.drop(columns=["run_id"])
        ends = body if len(body) <= 2000 else pd.concat([body.head(1000), body.tail(1000)])
        hashes = pd.util.hash_pandas_object(ends, index=False)
        digest = (len(body), int(hashes.sum()))
        varied = len(body) >= 20 and hashes.nunique() >= 5
    if digest is not None:  # the figures come from the samples: they decide
        return (r.tool, r.meta.get("mode"), summ, digest) if varied else None
    if len(distinct) >= 4:
        return (r.tool, r.meta.get("mode"), summ)
    if r.meta.get("msg_size_bytes") is not None and distinct:
        return (r.tool, r.meta.get("mode"), r.meta.get("msg_size_bytes"), summ)
    return None


_NUMBER = re.compile(r"\d+(?:\.\d+)?")


def _repeats(rows: list[_RunRows], lines: list[str] | None = None) -> None:
    """A run whose figures repeat an earlier run's of the same file, value for value, or whose
    lines repeat an earlier run's word for word (three or more lines, or eight or more
    numbers: a short run of lost probes has too few figures to compare), was most likely pasted twice: both stay (two
    identical executions are possible, if unlikely), and the later one says so, so a
    run-level test is not handed a replicate unseen."""
    seen: dict[tuple, _RunRows] = {}
    for r in rows:
        key = _figures(r)
        if key is None and lines is not None:
            a, b = r.meta["line_start"], r.meta["line_end"]
            text = tuple(x.strip() for x in lines[a - 1 : b] if x.strip())
            figures = sum(len(_NUMBER.findall(x)) for x in text)
            key = ("text", r.tool, text) if len(text) >= 3 or figures >= 8 else None
        if key is None:
            continue
        first = seen.setdefault(key, r)
        where = (first.meta["line_start"], first.meta["line_end"])
        if first is r or (key[0] == "text" and where == (r.meta["line_start"], r.meta["line_end"])):
            continue  # (two runs of one block's lines: a client's and its server's, embedded)
        old = r.meta.get("warnings")
        if old and "repeated copy" in old:
            continue  # its parser said so already
        note = (
            f"the same figures as the run at lines {first.meta['line_start']}-"
            f"{first.meta['line_end']}: a repeated copy? (both read)"
        )
        r.meta["warnings"] = f"{old}; {note}" if old else note


def _plausible(summaries: list) -> tuple[list, list[str]]:
    """The summaries a tool can have meant, and a warning for each one left out."""
    zero = schema.moved_nothing(summaries)
    kept, flagged = [], []
    for i, s in enumerate(summaries):
        why = "zero throughput for a test that moved data" if i in zero else None
        why = why or schema.implausible(s.metric, s.stat, s.value, s.unit)
        if why:
            flagged.append(f"{s.metric} {s.stat} = {s.value:g} {s.unit} not stored: {why}")
        else:
            kept.append(s)
    return kept, flagged


def _too_big(tool: str, source: str | None, line: int, exc: Exception) -> ParseError:
    if isinstance(exc, SchemaError) and "missing required column" in str(exc):
        # a parser's fault, not the input's: say so rather than blame a number
        return ParseError(tool, source, line, f"the run does not fit the tables ({exc})")
    return ParseError(tool, source, line, f"value out of range for int64 ({exc})")


@dataclass
class _RunRows:
    """One run's rows, before the frames are built."""

    tool: str
    line: int
    meta: dict
    samples: pd.DataFrame | None
    summaries: list[dict]


def _frames(rows: list[_RunRows]) -> Tables:
    run_rows = [r.meta for r in rows]
    sample_frames = [r.samples for r in rows if r.samples is not None]
    summary_rows = [s for r in rows for s in r.summaries]
    runs = schema.frame("runs", run_rows) if run_rows else schema.empty("runs")
    samples = (
        schema.frame("samples", pd.concat(sample_frames, ignore_index=True))
        if sample_frames
        else schema.empty("samples")
    )
    summaries = (
        schema.frame("summaries", summary_rows) if summary_rows else schema.empty("summaries")
    )
    return Tables(runs, samples, summaries)


def read(
    path_or_text: str | os.PathLike[str] | bytes,
    *,
    tool: str | None = None,
    strict: bool = False,
    source: str | None = None,
) -> Tables:
    """Read one log, document or text into :class:`Tables`.

    Parameters
    ----------
    path_or_text : str, os.PathLike or bytes
        A path (a ``str`` without a newline that names a file, or a ``Path``), raw ``bytes``
        in any encoding (UTF-8/16, a Windows code page; CRLF and ANSI colours are undone), or
        the text itself.  A document (notes, a terminal capture) may hold several tools'
        outputs; each is found and read.
    tool : str, optional
        Read the input as this tool's output (a name of ``azlatency.parsers.tools()``) instead
        of detecting it.
    strict : bool, default False
        ``False`` (the default, as ``azlatency import``): every run that can be read is
        kept, and every line a parser does not understand inside it is skipped and named in
        ``runs.warnings`` (its line, its text and what was expected); a block that cannot be
        read at all is a located error in ``Tables.problems``.  The figures are those of the
        output without the line.  ``True`` (``--strict``, for CI that must refuse such
        input) raises a :class:`ParseError` at the first such line instead.
    source : str, optional
        The name errors and ``runs.source_path`` give the input (default: the path).

    Returns
    -------
    Tables
        ``runs`` (one row per tool execution: tool, version, ``latency_basis`` [rtt or
        half_rtt], message size [bytes], duration [s], ``complete``, ...), ``samples`` (one
        row per packet, probe or interval: ``rtt_us`` [µs], ``bits_per_second`` [bit/s], ...)
        and ``summaries`` (printed or computed statistics with their ``unit``).

    Raises
    ------
    ParseError
        Nothing in the input could be read as its tool's output (or, with ``strict=True``, a
        line was not what its tool prints): names the tool, the source, the line and what was
        expected.
    DetectionError
        No known tool output was found.

    Examples
    --------
    >>> t = azlatency.read("data/raw/seed000-az-vs-as/notes.md")  # doctest: +SKIP
    >>> t.runs[["tool", "latency_basis", "msg_size_bytes"]]         # doctest: +SKIP
    """
    if isinstance(path_or_text, bytes):
        return read_bytes(path_or_text, source=source, tool=tool, strict=strict)
    if isinstance(path_or_text, os.PathLike) or (
        isinstance(path_or_text, str) and "\n" not in path_or_text and os.path.isfile(path_or_text)
    ):
        path = Path(path_or_text)
        with file_bytes(path) as data:
            return read_bytes(data, source=source or str(path), tool=tool, strict=strict)
    return read_text(path_or_text, source=source, tool=tool, strict=strict)
