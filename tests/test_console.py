"""The console every command prints with: wide enough for a CI log."""

from __future__ import annotations

import io

from azlatency._console import LOG_WIDTH, console


def test_a_log_is_wider_than_rich_s_80_columns(monkeypatch):
    """Written to a file (a CI log, ``make run > log``), rich assumed 80 columns and wrapped
    every path and campaign name of the import and report tables over several lines."""
    monkeypatch.delenv("COLUMNS", raising=False)
    out = console(file=io.StringIO())
    assert not out.is_terminal and out.width == LOG_WIDTH == 120
    out.print("x" * 100)
    assert out.file.getvalue() == "x" * 100 + "\n"


def test_columns_and_an_explicit_width_win(monkeypatch):
    monkeypatch.setenv("COLUMNS", "90")
    assert console(file=io.StringIO()).width == 90
    monkeypatch.delenv("COLUMNS")
    assert console(file=io.StringIO(), width=60).width == 60
