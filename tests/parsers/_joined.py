"""Two adjacent lines of a fixture run together (a lost line break), for the parsers' tests
of it: the joined text and where, and whether a reading holds what the two lines gave."""

from __future__ import annotations


def joined(text: str, first: str) -> tuple[str, int]:
    """``text`` with the first line that starts with ``first`` and the line after it run
    together, and that line's index (0-based)."""
    lines = text.split("\n")
    i = next(k for k, line in enumerate(lines) if line.startswith(first))
    return "\n".join(lines[:i] + [lines[i] + lines[i + 1]] + lines[i + 2 :]), i


def assert_same_reading(base, got, runs: tuple[str, ...] = ()) -> None:
    """``got`` holds ``base``'s samples and summaries (and its runs' ``runs`` columns)."""
    for frame in ("samples", "summaries"):
        a, b = getattr(base, frame), getattr(got, frame)
        assert a.drop(columns="run_id").equals(b.drop(columns="run_id")), frame
    if runs:
        assert got.runs[list(runs)].equals(base.runs[list(runs)])
