"""A command and the first line of its output run together by a lost line break (a web page
copied without its ``<br>``, a log whose newline was eaten): ``$ ping -c 2 10.0.0.1PING
10.0.0.1 (10.0.0.1) 56(84) bytes of data.``.  Read as it stands, the line is a command that
takes the output's first line into its arguments, and what that line said (ping's payload
size, lagscope's and ntttcp's version, the echo client's target) is lost without a word.

:func:`split_commands` gives such a line back as the two lines it was; the reader reads the
outputs in those lines and puts every line number back into the file's (:func:`file_line`),
and the runs it touched say so (:func:`note`).
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field
from functools import cache

from ..errors import map_lines
from ..parsers import modules
from ..parsers._base import Span, hook
from ..parsers._lines import _BANNER, command_of

# The cut: after a character that is not a space (the break that was lost), outside quotes and
# not right after one (a command may grep for a tool's words: `... | find "TTL="Reply from`).
_QUOTES = "\"'`"
# A command and a line of output are short; a longer line is no such pair (and each place in
# it is tried).
_LONGEST = 1000


@cache
def _tools() -> tuple[
    re.Pattern[str], dict[str, tuple[tuple[str, ...], tuple[re.Pattern[str], ...]]]
]:
    """A pattern finding any command name of a tool with openers, and per name its tool's
    names and openers."""
    by_name = {}
    for module in modules():
        openers = hook(module, "OPENERS")
        if openers:
            names = module.INFO.command_names()
            by_name.update({name: (names, tuple(openers)) for name in names})
    alternation = "|".join(map(re.escape, sorted(by_name, key=len, reverse=True)))
    return re.compile(rf"(?<![\w.-])({alternation})(?:\.exe)?(?=\s)"), by_name


# A quoted document's marker before the output's line ('> $ sockperf pp ...> sockperf: ==').
_MARKER = re.compile(r">(?:[ \t]?>)*[ \t]?")


def _cut(
    line: str, names: tuple[str, ...], openers: tuple[re.Pattern[str], ...], at: int, quoted: bool
) -> tuple[int, int]:
    """Where in ``line`` (a command of a tool, its name ending at ``at``) a line one of the
    tool's ``openers`` opens on starts right after a character that is not a space, and where
    that line's text starts (after a quote marker, in a ``quoted`` document); (0, 0) if none,
    or if more than one place would do: an opener that opens on any word (fio's job name,
    fping's host) cannot say where the command's last word ended and the line began, unless
    one place alone is a capital after a digit or a small letter (netperf's 'MIGRATED TCP
    STREAM TEST' opens at any letter of its first word, and at the '-H' before it), or
    opens with the word the command ends with (fping's target: 'fping -c 3 10.0.0.4'
    + '10.0.0.4 : [0], ...')."""
    if len(line) > _LONGEST or command_of(line, names)[0] is None:
        return 0, 0
    cuts = set()
    open_quotes = {q: line.count(q, 0, at) % 2 for q in _QUOTES}
    for p in range(at + 1, len(line)):
        if line[p - 1] in _QUOTES:
            open_quotes[line[p - 1]] ^= 1
            continue
        if line[p - 1].isspace() or line[p].isspace() or any(open_quotes.values()):
            continue  # no break lost there, or inside quotes: an argument
        if _BANNER.match(line[:p].strip()):
            return 0, 0  # a banner naming the tool's version ('lagscope 1.0.1'), no command
        m = _MARKER.match(line, p) if quoted and line[p] == ">" else None
        start = m.end() if m else p
        tail = line[start:]
        rule = line[p - 1] not in "-=" and _RULE.fullmatch(tail)
        if rule or any(_opens(o, tail) for o in openers):
            cuts.add((p, start))
    if len(cuts) > 1:  # one where a capital follows a digit or small letter ('4MIGRATED')
        capital = {
            (p, s)
            for p, s in cuts
            if line[s].isupper() and line[p - 1].isalnum() and not line[p - 1].isupper()
        }
        # or one whose first word the command ends with ('fping 10.0.0.4' + '10.0.0.4 : [0]')
        cuts = capital or {(p, s) for p, s in cuts if line[:p].endswith(" " + _word(line[s:]))}
    return cuts.pop() if len(cuts) == 1 else (0, 0)


def _word(text: str) -> str:
    """``text``'s first word, up to a space or a colon."""
    return re.split(r"[\s:]", text, maxsplit=1)[0]


# A rule of dashes or equals signs (iperf's, sockperf's, a report's) under the command.
_RULE = re.compile(r"[-=]{10,}\s*")


def _opens(opener: re.Pattern[str], tail: str) -> bool:
    """Does ``opener`` match ``tail`` from its first character."""
    found = opener.search(tail)
    return found is not None and found.start() == 0 and len(tail) >= 8


# How far from the first line of an output found its command may stand, run into a line: the
# output's first line is then the next that opens it, or one above it opened it already.
_REACH = 6


def _looked_at(n: int, spans: list[Span]) -> list[int]:
    """The lines a command run into its output's first line may be: those of no output found
    (where the first line held the output's only opener, none was found), and the
    :data:`_REACH` lines around the first of each output found."""
    rows: set[int] = set()
    at = 0
    for span in sorted(spans, key=lambda s: s.start):
        rows.update(range(at, span.start))
        rows.update(range(max(0, span.start - _REACH), min(span.start + _REACH + 1, n)))
        at = max(at, span.end)
    rows.update(range(at, n))
    return sorted(rows)


def split_commands(
    lines: list[str], spans: list[Span], quoted: bool = False
) -> tuple[list[str], list[int]]:
    """``lines`` with every command line that holds its output's first line cut in two, and
    the indexes (in the lines returned) of the second halves; ``lines`` itself and ``[]`` when
    there is none.  Only the lines :func:`_looked_at` are looked at (a long log is one output:
    its few first lines).  ``quoted``: the document's quote markers were taken off (a marker
    may stand before the output's line inside the joined one)."""
    find, by_name = _tools()
    found: dict[int, tuple[int, int]] = {}
    for row in _looked_at(len(lines), spans):
        line = lines[row]
        for m in find.finditer(line):
            names, openers = by_name[m[1]]
            cut, start = _cut(line, names, openers, m.end(), quoted)
            if cut:
                found[row] = (cut, start)
                break
    if not found:
        return lines, []
    out: list[str] = []
    added: list[int] = []
    for i, line in enumerate(lines):
        if i in found:
            cut, start = found[i]
            out.append(line[:cut])
            added.append(len(out))
            out.append(line[start:])
        else:
            out.append(line)
    return out, added


def file_line(added: list[int], n: int) -> int:
    """The file's line of line ``n`` (1-based) of the lines :func:`split_commands` gave: a
    second half is on its command's line."""
    return n - bisect.bisect_left(added, n)


@dataclass(frozen=True)
class LineMap:
    """The file's line of each line the reader read: ``added`` the second halves
    :func:`split_commands` made; ``step`` 2 where every second line of the file, an empty
    one, was taken out (``outline.undouble``), ``first`` the file's line before the first
    kept (0 or 1)."""

    added: list[int] = field(default_factory=list)
    step: int = 1
    first: int = 0

    def __bool__(self) -> bool:
        return bool(self.added) or self.step != 1

    def __call__(self, n: int) -> int:
        return self.first + self.step * (file_line(self.added, n) - 1) + 1

    def renumbered(self, text: str) -> str:
        """``text`` with every ``line N`` made the file's."""
        return map_lines(text, self)


def note(added: list[int]) -> dict[int, str]:
    """Per second half (its index in the split lines), the warning of the run it opens."""
    return {
        a: f"line {a}: a command and its output's first line stood on one line (a lost line "
        "break); read as two lines"
        for a in added
    }
