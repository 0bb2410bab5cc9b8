"""``azlatency report NAME --data ROOT`` finds NAME in ``ROOT/raw`` (the notebooks' own
``data_root`` holds raw/ and processed/): before, a bare name was looked for in the project's
``data/raw`` whatever ``--data`` said."""

from __future__ import annotations

import shutil

from azlatency.report.run import import_all
from tests.conftest import ROOT

FIXTURE = ROOT / "tests/fixtures/ping/ping--busybox-1.35.0-linux-c15-gap-partial-loss.txt"


def test_a_name_is_looked_for_under_the_data_roots_raw_folder(tmp_path):
    data = tmp_path / "data"
    (data / "raw" / "mine").mkdir(parents=True)
    shutil.copy(FIXTURE, data / "raw" / "mine" / "ping.txt")
    errors: list[str] = []
    reports = import_all(["mine"], data, errors)
    assert errors == []
    assert [r.campaign for r in reports] == ["mine"]
    assert reports[0].counts["runs"] == 1 and len(reports[0].not_imported) == 0
    assert reports[0].raw == (data / "raw" / "mine").resolve()
    assert (data / "processed" / "mine" / "manifest.json").is_file()


def test_a_name_found_nowhere_is_an_error_naming_where_it_was_looked_for(tmp_path):
    errors: list[str] = []
    assert import_all(["nowhere-at-all"], tmp_path / "data", errors) == []
    assert len(errors) == 1 and "import of nowhere-at-all failed" in errors[0]
    assert "nowhere-at-all" in errors[0]
