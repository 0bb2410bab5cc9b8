"""One parametrized test walks every fixture; a new fixture needs no new test code."""

from __future__ import annotations

import json

import pytest

from azlatency.errors import ParseError
from azlatency.parsers import tools
from tests._expected import compare, describe, expected_path, fixture_files, read_fixture
from tests.conftest import FIXTURES, ROOT

FILES = fixture_files()


@pytest.mark.parametrize("path", FILES, ids=[f.relative_to(f.parents[1]).as_posix() for f in FILES])
def test_fixture_matches_expected(path):
    exp_file = expected_path(path)
    assert exp_file.is_file(), f"{exp_file.name} missing: run `python tests/_expected.py {path}`"
    expected = json.loads(exp_file.read_text(encoding="utf-8"))
    if "error" in expected:
        with pytest.raises(ParseError) as info:
            read_fixture(path)
        assert str(info.value) == expected["error"]
        return
    tables = read_fixture(path)
    tables.validate()
    assert compare(describe(tables), expected) == []


def test_every_fixture_folder_has_sources():
    folders = {f.parent for f in FILES}
    missing = [str(d) for d in folders if not (d / "SOURCES.md").is_file()]
    assert not missing, f"fixture folders without SOURCES.md: {missing}"


def test_parse_error_is_the_only_failure_kind():
    assert issubclass(ParseError, ValueError)  # callers catching ValueError still work


# A tool documented elsewhere than docs/tools/<tool>.md (the page says why).
DOC_PAGES = {"reported_csv": "reported-values.md"}


@pytest.mark.parametrize("tool", tools())
def test_every_tool_follows_the_recipe(tool):
    """docs/contributing.md: a tool is one module, one registry line, its fixtures (two at
    least, with SOURCES.md; none only where SOURCES.md says why) and its docs page."""
    page = ROOT / "docs" / DOC_PAGES.get(tool, f"tools/{tool}.md")
    assert page.is_file(), f"{tool}: no docs page {page.relative_to(ROOT)}"
    folder = FIXTURES / tool
    assert (folder / "SOURCES.md").is_file(), f"{tool}: no tests/fixtures/{tool}/SOURCES.md"
    mine = [f for f in FILES if f.parent == folder]
    if len(mine) < 2:
        why = (folder / "SOURCES.md").read_text(encoding="utf-8")
        assert "none, on purpose" in why, f"{tool}: {len(mine)} fixtures, and no reason given"
