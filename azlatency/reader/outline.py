"""The document around an output: the headings and fences it sits under, the prose line
before it, the command (and prompt host) above it, quoted lines unquoted."""

from __future__ import annotations

import re

from ..parsers._base import Span
from ..parsers._lines import PROMPT, STRAY_ABOVE, command_of

_FENCE = re.compile(r"^\s*(```|~~~)")


_HEADING = re.compile(r"^\s{0,3}(#{1,6})\s+(\S.*?)\s*#*\s*$")


_PROMPT_ONLY = re.compile(r"^\s*[\w.-]+@([\w.-]+)(?::\S*)?\s*[#$%]?\s*$")


# An e-mail reply's or a Markdown blockquote's markers: "> sockperf: ...", "> > ", ">> ".
_QUOTED = re.compile(r"^[ \t]*>(?:[ \t]?>)*[ \t]?")


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


INDENTED = re.compile(r"^[ \t]+\S")  # a line that starts with white space
# one after a blank line (the text's first line is asked apart: an alternation with \A made
# the search of a 6 MB JSON document ten times as slow, 69 ms)
_BLOCK_START = re.compile(r"\n[ \t]*\n[ \t]+\S")


def has_block(text: str) -> bool:
    """Whether ``text`` may hold an indented block (:func:`dedent`): an indented line first,
    or after a blank line."""
    return INDENTED.match(text) is not None or _BLOCK_START.search(text) is not None


def dedent(lines: list[str]) -> list[str]:
    """``lines`` with each indented block moved left by the white space its lines share: a
    Markdown code block indented four spaces (a StackOverflow post, an older README), an
    output pasted under a list item.  A block is a run of lines that all start with white
    space (blank lines inside it allowed), with a blank line or the file's edge before and
    after it; the tool's own indentation inside it is kept, and an indented line right under
    an unindented one (qperf's values under their test's name, fio's under its job) is in no
    such block.  One line each, so line numbers stay the file's."""
    out, n, i, moved = list(lines), len(lines), 0, False
    while i < n:
        if not INDENTED.match(lines[i]) or (i and lines[i - 1].strip()):
            i += 1
            continue
        j, last = i, i
        while j < n and (not lines[j].strip() or lines[j][:1] in " \t"):
            if lines[j].strip():
                last = j
            j += 1
        if j == n or not lines[j - 1].strip():  # a blank line (or the end) closes it
            block = [x for x in lines[i : last + 1] if x.strip()]
            cut = len(_common_lead(block))
            for k in range(i, last + 1):
                out[k] = lines[k][cut:] if lines[k].strip() else lines[k]
            moved = moved or cut > 0
        i = max(j, i + 1)
    return out if moved else lines


def _common_lead(block: list[str]) -> str:
    """The leading white space every line of ``block`` starts with."""
    lead = re.match(r"[ \t]*", block[0])[0]
    for line in block[1:]:
        while not line.startswith(lead):
            lead = lead[:-1]
    return lead


# A time stamp a logger put before every line.  No tool prints these as a line's prefix: a
# CI runner's ISO time with its zone (GitHub Actions' '2026-11-25T16:20:36.1234567Z ',
# Jenkins' '[2026-11-25T16:20:36.123Z] ') and syslog's with host and program ('Nov 25
# 16:20:36 vm1 bench.sh[1234]: ', journalctl).
SURE_STAMPS = (
    re.compile(
        r"^[ \t]*\[?\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:[.,]\d+)?(?:Z|[+-]\d\d:?\d\d)\]?(?:[ \t]|$)"
    ),
    re.compile(r"^[ \t]*\[\d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\d(?:[.,]\d+)?(?:Z|[+-]\d\d:?\d\d)?\] "),
    re.compile(
        r"^[ \t]*[A-Z][a-z]{2} [ \d]\d \d\d:\d\d:\d\d(?:\.\d+)? [\w.-]+ [\w./-]+(?:\[\d+\])?:"
        r"(?:[ \t]|$)"
    ),
)
# How a line with one of the stamps below starts (quote markers allowed before it): asked of
# the first lines only, so that a file without (most) has no line looked at for them (every
# line of an iperf3 -J hour: 137 ms a read; a multi-line search of its text: 145 ms).
_STAMP_START = re.compile(
    r"[ \t>]*\[?(?:\d{4}-\d\d-\d\d[T ]\d\d:|(?:[A-Z][a-z]{2} )?[A-Z][a-z]{2} [ \d]\d \d\d:)"
)
_STAMP_HEAD = 1000  # lines: a logger stamps the first ones too


def may_be_stamped(lines: list[str]) -> bool:
    """Whether one of the first lines starts with a time stamp's shape (:func:`unstamp`)."""
    return any(_STAMP_START.match(line) for line in lines[:_STAMP_HEAD])


# These a tool may print itself (a Python log's '2026-11-24 04:35:50,444 ', iperf3
# --timestamps' '%c'), beside moreutils' ts ('Nov 25 16:20:36 '): taken off only where the
# outputs found as the lines stand cover less than half of them.
MAYBE_STAMPS = (
    re.compile(r"^[ \t]*\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(?:[.,]\d+)?(?: ?UTC)?(?:[ \t]|$)"),
    re.compile(r"^[ \t]*[A-Z][a-z]{2} [ \d]\d \d\d:\d\d:\d\d(?:\.\d+)?(?:[ \t]|$)"),
    re.compile(r"^[ \t]*[A-Z][a-z]{2} [A-Z][a-z]{2} [ \d]\d \d\d:\d\d:\d\d \d{4}(?:[ \t]|$)"),
)


def unstamp(lines: list[str], stamps: tuple[re.Pattern[str], ...], share: float) -> list[str]:
    """``lines`` without the time stamp a logger put before each, when one of ``stamps``
    stands before ``share`` of the non-blank lines or more, and two at least (a tool's
    carriage returns make lines of their own that the logger did not stamp: lagscope's
    progress); else ``lines``.  The stamp and one separator go, so a tool's own indentation
    stays; one line each, so line numbers stay the file's."""
    filled = [line for line in lines if line.strip()]
    for stamp in stamps:
        found = sum(bool(stamp.match(x)) for x in filled)
        if found >= 2 and found >= share * len(filled):
            return [stamp.sub("", line, count=1) for line in lines]
    return lines


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


_DOUBLED_LINES = 3  # lines of text, each with an empty line after it, that say a copy did it


def undouble(lines: list[str]) -> tuple[list[str], int] | None:
    """``lines`` with every second one, an empty line, taken out, and which line the kept
    ones start at (0 or 1): a copy that set each line apart (a mail or a page that holds each
    line in a paragraph of its own, a document converted by pandoc) put an empty line after
    every line, and an empty line the text had became two.  None when some line of text
    stands where an empty one would (a text whose lines follow each other, as every tool
    prints them)."""
    if len(lines) < 2 * _DOUBLED_LINES:
        return None
    for first in (0, 1):
        if not any(x.strip() for x in lines[1 - first :: 2]):
            kept = lines[first::2]
            if sum(bool(x.strip()) for x in kept) >= _DOUBLED_LINES:
                return kept, first
    return None


# 'cat -n', 'less -N', an editor's line numbers copied from the terminal ('     7\tPING ...',
# '  7 PING ...'): a number before every line, then a tab or a space.
_NUMBERED = re.compile(r"^[ \t]*(\d+)(?:\t| |$)")


def unnumber(lines: list[str]) -> list[str] | None:
    """``lines`` without the number before each, where every line of the text (empty lines
    before and after it aside: an HTML page's tags) opens with the number one more than the
    line before it's; else None.  No tool numbers every line it prints, its header and
    summary too."""
    filled = [k for k, line in enumerate(lines) if line.strip()]
    if len(filled) < 3:
        return None
    a, b = filled[0], filled[-1] + 1
    first = _NUMBERED.match(lines[a])
    if first is None:
        return None
    out = list(lines)
    for k in range(a, b):
        m = _NUMBERED.match(lines[k])
        if m is None or int(m[1]) != int(first[1]) + k - a:
            return None
        out[k] = lines[k][m.end() :]
    return out
