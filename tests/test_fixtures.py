"""One parametrized test walks every fixture; a new fixture needs no new test code."""

from __future__ import annotations

import json

import pytest

from azlatency.errors import ParseError
from tests._expected import compare, describe, expected_path, fixture_files, read_fixture

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
