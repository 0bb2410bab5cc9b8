"""``read``: from a file, bytes or text to the three tables.

The reader decodes (``decode.py``), asks every parser where its outputs sit (``locate``),
keeps the non-overlapping spans, parses each as one block, and labels the runs with where
they came from: file, sha256, block, absolute line range, the heading above and the prose
line before.  Parsers never see files.

The package: this module's read functions; ``files`` (bytes read or mapped, gunzipped,
hashed beside the parse); ``spans`` (where each output sits); ``outline`` (the document
around it: headings, fences, the command above); ``joined`` (a command run into its output's
first line, cut back into two); ``strays`` (the lenient read's second try without a foreign
line); ``tables`` (the runs of every block as the three tables).
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

from ..decode import Decoded, clean_text, decode
from ..errors import LOOKED_FOR, DetectionError, NothingMeasured, ParseError
from ..parsers import get, modules
from ..parsers._base import Parsed, Span, hook
from ..schema import Tables
from .files import _GZIP, _gunzip, _Hashing, _Known, file_bytes
from .joined import LineMap, note, split_commands
from .outline import (
    MAYBE_STAMPS,
    SURE_STAMPS,
    dedent,
    has_block,
    may_be_stamped,
    undouble,
    unnumber,
    unquote,
    unstamp,
)
from .spans import bridge, locate, whole_file_tool
from .strays import _across_stray, _without_strays
from .tables import _tables, _too_big

# Files whose head says they are one output in their entirety skip document scanning.
_HEAD_BYTES = 64 * 1024
_HEAD_LINES = 2000  # lines enough for _HEAD_BYTES of most files' heads
_STAMPED_NOTE = "a logger's time stamp before every line (a CI job's or syslog's): taken off"
_MOJIBAKE_NOTE = (
    "the text was UTF-8 read as another code page and saved again (mojibake: 'Ã¼' for 'ü', "
    "'Âµs' for 'µs'): its lines repaired"
)
_HTML_NOTE = (
    "HTML: the page's tags ('<pre>', '<br>', ...) taken off and its entities ('&lt;', "
    "'&nbsp;', ...) read as the characters they stand for"
)
_MARKDOWN_NOTE = (
    "Markdown's escapes outside code ('icmp\\_seq', '\\[  5\\]': a converter's or an "
    "editor's export) read as the characters they escape"
)
_NUMBERED_NOTE = "a line number before every line (cat -n, an editor's): taken off"
_DOUBLED_NOTE = (
    "an empty line after every line (a copy that set each line apart: a mail, a page, a "
    "converted document): every second line, an empty one, taken out"
)
_ENTITIES_NOTE = (
    "the text was HTML-escaped (a page that showed it escaped): '&lt;', '&gt;', '&amp;' "
    "and '&quot;' read as '<', '>', '&' and '\"'"
)


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
    # priority, so that it takes the cores the parser leaves free (_Hashing).
    sha = _Known(sha256) if sha256 else _Hashing(data)
    return _read_big(data, sha, source=source, tool=tool, strict=strict)


def _read_big(data: bytes, sha_job, *, source, tool, strict) -> Tables:
    # Fast path: a big, plain single-tool file parsed from bytes without a text copy.
    raw_head = data[:_HEAD_BYTES]
    plain = not data.startswith((b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff"))
    plain = plain and b"\r" not in raw_head and b"\x1b" not in raw_head
    if not plain:
        head_info = decode(raw_head)
    elif not raw_head.isascii() or any(c in raw_head for c in (b"&", b"<", b"\\")):
        # mojibake, HTML or escaped text? whole lines of the head tell (decode.clean_text)
        head_info = decode(raw_head[: raw_head.rfind(b"\n") + 1] or raw_head)
    else:
        head_info = None
    if head_info is not None and _repairs(head_info):  # the text path repairs it
        return read_text(
            decode(data), source=source, tool=tool, strict=strict, sha=sha_job.result()
        )
    head = head_info.text if head_info else raw_head.decode("utf-8", errors="replace")
    whole = whole_file_tool(head, tool) if plain or head_info.encoding.startswith("utf-8") else None
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
        decoded = clean_text(decoded)
    text = decoded.text
    if sha is None:
        sha = hashlib.sha256(text.encode("utf-8")).hexdigest()
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    if not any(line.strip() for line in lines):
        raise DetectionError(tool or "azlatency", source, None, "empty input")

    lines, spans, said, where = _outputs(text, lines, tool)
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
            err = _renumber(exc.shifted(span.start, source), where)
            # A block holding only its tool's error is that block's problem, not the
            # document's: the outputs beside it are read (NothingMeasured).
            if strict and not (isinstance(err, NothingMeasured) and len(spans) > 1):
                raise err from None
            problems.append(err)
            parsed = None
        parsed_blocks.append(parsed)
    _say(parsed_blocks, _repairs(decoded) + said)
    tables = _tables(spans, parsed_blocks, decoded, sha, source, lines=lines, strict=strict)
    tables.problems[:0] = problems
    if where:
        _file_lines(tables, where)
    if not len(tables.runs) and problems:
        raise problems[0]
    return tables


def _repairs(decoded: Decoded) -> list[str]:
    """What decoding repaired in the whole text, said as each run says it."""
    done = (
        (_MOJIBAKE_NOTE, decoded.mojibake_fixed),
        (_ENTITIES_NOTE, decoded.entities_read),
        (_HTML_NOTE, decoded.html_read),
        (_MARKDOWN_NOTE, decoded.markdown_unescaped),
    )
    return [said for said, did in done if did]


def _say(parsed_blocks: list[Parsed | None], notes: list[str]) -> None:
    """Every run says what was done to the whole text before it was read (``notes``)."""
    for parsed in filter(None, parsed_blocks) if notes else ():
        for run in parsed.runs:
            run.warnings.extend(notes)


def _outputs(
    text: str, lines: list[str], tool: str | None
) -> tuple[list[str], list[Span], list[str], LineMap]:
    """The document's lines as its outputs are read, where they are, what was done to every
    line (a number before each taken off, ``outline.unnumber``; every second line, an empty
    one, ``outline.undouble``; a logger's time stamp), and the file's line of each line read
    (lines added by cutting a command from its output's first line, ``reader.joined``): a
    file that is one tool's (JSON), else quote markers and the indentation of code blocks
    taken off, and a CI runner's or syslog's time stamp before every line; a stamp a tool may
    print itself only when the outputs found as the lines stand cover less than half of them
    and taking it off finds more."""
    said = []
    numbered = unnumber(lines)
    lines = lines if numbered is None else numbered
    halved = undouble(lines)
    step, first = (1, 0) if halved is None else (2, halved[1])
    if halved is not None:
        lines = halved[0]
        if numbered is None:  # numbers before every line of the text that was set apart?
            numbered = unnumber(lines)
            lines = lines if numbered is None else numbered
    said += [_NUMBERED_NOTE] if numbered is not None else []
    said += [_DOUBLED_NOTE] if halved is not None else []
    text = "\n".join(lines) if said else text
    whole = whole_file_tool(text[:_HEAD_BYTES], tool)
    quoted = lines if whole else unquote(lines)
    # an indented block (a Markdown code block) starts after a blank line or at the top
    shifted = dedent(quoted) if quoted is not lines or has_block(text) else quoted
    maybe = may_be_stamped(shifted)
    stamped = maybe and (unstamped := unstamp(shifted, SURE_STAMPS, 0.05)) is not shifted
    if stamped:
        shifted = dedent(unstamped)
    if shifted is not quoted and not whole:  # the whole file one tool's (JSON) as well?
        whole = whole_file_tool("\n".join(shifted[:_HEAD_LINES])[:_HEAD_BYTES], None)
    if whole:
        said += [_STAMPED_NOTE] if stamped else []
        return shifted, [Span(0, len(shifted), whole)], said, LineMap([], step, first)
    spans = bridge(shifted, locate(shifted))
    split, added = split_commands(shifted, spans, quoted is not lines)
    where = LineMap(added, step, first)
    if added:
        shifted, spans = split, bridge(split, locate(split))
    if stamped:
        return shifted, spans, [*said, _STAMPED_NOTE], where
    few = maybe and _covered(spans) < len(shifted) / 2
    if few and (unstamped := unstamp(shifted, MAYBE_STAMPS, 0.9)) is not shifted:
        found = bridge(unstamped, locate(unstamped))
        if _covered(found) > _covered(spans):
            return unstamped, found, [*said, _STAMPED_NOTE], where
    return shifted, spans, said, where


def _covered(spans: list[Span]) -> int:
    return sum(span.end - span.start for span in spans)


def _renumber(err: ParseError, where: LineMap) -> ParseError:
    """``err`` with its lines the file's (``where``)."""
    if not where or not isinstance(err, ParseError):
        return err
    line = None if err.line_no is None else where(err.line_no)
    return type(err)(err.tool, err.source, line, where.renumbered(err.reason), hint=err.hint)


def _file_lines(tables: Tables, where: LineMap) -> None:
    """The runs' lines made the file's (``where``), and the run each cut of a command from
    its output's first line opens told so (``reader.joined``)."""
    runs = tables.runs
    for a, said in note(where.added).items():
        below = runs.index[runs["line_end"] >= a + 1]
        if len(below):
            at = below[runs.loc[below, "line_start"].argmin()]
            old = runs.at[at, "warnings"]
            runs.at[at, "warnings"] = f"{old}; {said}" if isinstance(old, str) else said
    for col in ("line_start", "line_end"):
        runs[col] = runs[col].map(where, na_action="ignore").astype(runs[col].dtype)
    runs["warnings"] = runs["warnings"].map(
        lambda w: where.renumbered(w) if isinstance(w, str) else w
    )
    tables.problems[:] = [_renumber(p, where) for p in tables.problems]


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
