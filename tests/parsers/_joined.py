"""Two adjacent lines of a fixture run together (a lost line break), or one broken in two (a
wrap), for the parsers' tests of it: the damaged text (and where), and whether a reading
holds what the lines gave."""

from __future__ import annotations


def joined(text: str, first: str) -> tuple[str, int]:
    """``text`` with the first line that starts with ``first`` and the line after it run
    together, and that line's index (0-based)."""
    lines = text.split("\n")
    i = next(k for k, line in enumerate(lines) if line.startswith(first))
    return "\n".join(lines[:i] + [lines[i] + lines[i + 1]] + lines[i + 2 :]), i


def wrapped(text: str, i: int, width: int = 72) -> str:
    """``text`` with line ``i`` (0-based) broken at its last space before ``width``, as a
    terminal's or mail client's wrap breaks it (the space gone)."""
    lines = text.split("\n")
    cut = lines[i].rfind(" ", 0, width)
    return "\n".join([*lines[:i], lines[i][:cut], lines[i][cut + 1 :], *lines[i + 1 :]])


def assert_same_reading(base, got, runs: tuple[str, ...] = ()) -> None:
    """``got`` holds ``base``'s samples and summaries (and its runs' ``runs`` columns)."""
    for frame in ("samples", "summaries"):
        a, b = getattr(base, frame), getattr(got, frame)
        assert a.drop(columns="run_id").equals(b.drop(columns="run_id")), frame
    if runs:
        assert got.runs[list(runs)].equals(base.runs[list(runs)])
