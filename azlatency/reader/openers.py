"""Which tools a document may hold, before any tool scans its lines.

A parser may declare ``OPENERS`` (a hook, see ``parsers._base.HOOKS``): patterns such that
every output its ``locate`` finds has a line one of them matches (``re.search``; usually the
line it opens on).  From each the reader reads the
literals it cannot match without (:func:`needs`), and asks the tool's ``locate`` only about a
document that holds one of them: ``in`` over the text instead of the tool's scan of each line.
A pattern with no such literal (a bare row of numbers) is searched over the whole text
instead, when that search is sure to find any line it matches (:func:`_searchable`); if
neither holds, the tool is always asked.
"""

from __future__ import annotations

import re
from functools import cache
from re import _constants as sre  # re's own parser: the parsed form of a pattern
from re import _parser as sre_parse
from types import ModuleType

from ..parsers._base import hook


def may_open(module: ModuleType, text: str) -> bool:
    """False only when ``module``'s ``locate`` cannot open an output in ``text``."""
    marks = _marks(module)
    if marks is None:
        return True
    literals, searched = marks
    return any(mark in text for mark in literals) or any(p.search(text) for p in searched)


@cache
def _marks(module: ModuleType) -> tuple[frozenset[str], tuple[re.Pattern[str], ...]] | None:
    """The literals and the whole-text patterns for ``module``'s openers (None: the tool is
    always asked)."""
    openers = hook(module, "OPENERS")
    if not openers:
        return None
    literals: set[str] = set()
    searched: list[re.Pattern[str]] = []
    for pattern in openers:
        need = needs(pattern)
        if need is not None:
            literals |= need
        elif _searchable(pattern):
            searched.append(re.compile(pattern.pattern, pattern.flags | re.MULTILINE))
        else:
            return None
    return frozenset(literals), tuple(searched)


# A literal shorter than this is in nearly every document: no better than none.
_SHORTEST_MARK = 2
_ZERO_WIDTH = {sre.AT, sre.ASSERT, sre.ASSERT_NOT}


def needs(pattern: re.Pattern[str]) -> frozenset[str] | None:
    """Literals one of which every string ``pattern`` matches (search) contains, read off its
    parsed form: runs of literal characters in sequence, through groups, repeats of at least
    one and alternatives (each of which must have its own).  None when there is no such set
    of literals at least :data:`_SHORTEST_MARK` long (or the pattern ignores case)."""
    if pattern.flags & re.IGNORECASE:
        return None
    return _needs(sre_parse.parse(pattern.pattern, pattern.flags))


def _needs(items) -> frozenset[str] | None:
    best: frozenset[str] | None = None
    run: set[str] = {""}  # the strings the items since the last break can be, exactly

    def keep(candidate: set[str] | frozenset[str] | None) -> None:
        nonlocal best
        shortest = min(map(len, candidate)) if candidate else 0
        if shortest >= _SHORTEST_MARK and (best is None or shortest > min(map(len, best))):
            best = frozenset(candidate)

    for op, av in items:
        if op in _ZERO_WIDTH:
            continue
        exact = _exactly(op, av)
        if exact is not None and len(run) * len(exact) <= _MOST_STRINGS:
            run = {a + b for a in run for b in exact}
            continue
        keep(run)
        run = {""}
        keep(_inner(op, av))
    keep(run)
    return best


# Beyond this many strings an alternation is read for what each alternative needs instead.
_MOST_STRINGS = 64


def _exactly(op, av) -> set[str] | None:
    """The strings one item can match when they are few: a character, a class of characters,
    alternatives or a group of such items (None otherwise)."""
    if op is sre.LITERAL:
        return {chr(av)}
    if op is sre.IN and all(o is sre.LITERAL for o, _ in av):
        return {chr(c) for _, c in av}
    if op is sre.SUBPATTERN and not av[1] & re.IGNORECASE:
        return _sequence(av[3])
    if op is sre.BRANCH:
        out: set[str] = set()
        for alternative in av[1]:
            strings = _sequence(alternative)
            if strings is None:
                return None
            out |= strings
        return out if len(out) <= _MOST_STRINGS else None
    return None


def _sequence(items) -> set[str] | None:
    out = {""}
    for op, av in items:
        if op in _ZERO_WIDTH:
            continue
        exact = _exactly(op, av)
        if exact is None or len(out) * len(exact) > _MOST_STRINGS:
            return None
        out = {a + b for a in out for b in exact}
    return out


def _inner(op, av) -> frozenset[str] | None:
    """What an item that is not a literal character needs: its group's, its repeat's (when
    it repeats at least once), or, for alternatives, one of each's."""
    if op is sre.ATOMIC_GROUP:
        return _needs(av)
    if op is sre.SUBPATTERN:
        _, add_flags, _, items = av
        return None if add_flags & re.IGNORECASE else _needs(items)
    if op in (sre.MAX_REPEAT, sre.MIN_REPEAT, sre.POSSESSIVE_REPEAT):
        low, _, items = av
        return _needs(items) if low >= 1 else None
    if op is sre.BRANCH:
        alternatives = [_needs(items) for items in av[1]]
        if all(alternatives):
            return frozenset().union(*alternatives)
    return None


def _searchable(pattern: re.Pattern[str]) -> bool:
    """Whether ``pattern`` in MULTILINE mode finds, in a text, every line it matches alone:
    true unless it asserts the string's own start or end (``\\A``, ``\\Z``) or looks around
    (which at a line's end would see the newline).  Elsewhere the text only adds matches:
    ``^``/``$`` hold at each line's edges, ``\\s`` and ``[^x]`` may cross a newline."""

    def walk(items) -> bool:
        for op, av in items:
            if op in (sre.ASSERT, sre.ASSERT_NOT):
                return False
            if op is sre.AT and av in (sre.AT_BEGINNING_STRING, sre.AT_END_STRING):
                return False
            nested = _nested(op, av)
            if any(not walk(x) for x in nested):
                return False
        return True

    return walk(sre_parse.parse(pattern.pattern, pattern.flags))


def _nested(op, av) -> list:
    if op is sre.SUBPATTERN:
        return [av[3]]
    if op in (sre.MAX_REPEAT, sre.MIN_REPEAT, sre.POSSESSIVE_REPEAT):
        return [av[2]]
    if op is sre.ATOMIC_GROUP:
        return [av]
    if op is sre.BRANCH:
        return list(av[1])
    if op is sre.GROUPREF_EXISTS:
        return [x for x in av[1:] if x is not None]
    return []
