"""The public API's annotations hold for code that uses it: mypy checks
``tests/typing/api_usage.py`` (read, import_campaign, load — lazy or not —, query,
summarize_store, stats, plots, the report runner, the errors) against the package, which ships
``py.typed`` so users' type checkers read the same annotations; and the statistics package
itself, whose 36 complaints (a cache typed by int keyed by tuples, a sorted view passed where
an array was declared, ...) were cleared: followed silently, they were never shown."""

from __future__ import annotations

from mypy import api

from tests.conftest import ROOT


def test_public_api_type_checks():
    assert (ROOT / "azlatency" / "py.typed").is_file()
    out, err, status = api.run(
        [
            f"--config-file={ROOT / 'pyproject.toml'}",  # [tool.mypy]: what is followed
            "--no-incremental",
            str(ROOT / "tests" / "typing" / "api_usage.py"),
            str(ROOT / "azlatency" / "stats"),
        ]
    )
    assert status == 0, out + err
