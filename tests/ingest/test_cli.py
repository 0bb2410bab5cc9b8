"""``azlatency import``: the summary, JSON for machines, exit codes."""

from __future__ import annotations

import json

from click.testing import CliRunner

from azlatency.cli import main


def _run(*args):
    return CliRunner().invoke(main, ["import", *map(str, args)], catch_exceptions=False)


def test_import_prints_the_summary_and_the_not_imported_files(copy_campaign, stores):
    raw = copy_campaign("seed004-echo-uksouth")
    (raw / "notes.txt").write_text("to do: rerun cross region\n")
    result = _run(raw, "--out", stores, "--workers", "1")
    assert result.exit_code == 0, result.output
    assert ("seed004-echo-uksouth: 2 files imported, 2 not imported; 18 runs, 0 samples, "
            "30 summaries; 6 quality notes") in " ".join(result.output.split())
    assert "notes.txt" in result.output and "unknown_format" in result.output
    assert (stores / "seed004-echo-uksouth" / "runs" / "part-0.parquet").is_file()


def test_json_report(copy_campaign, stores):
    raw = copy_campaign("seed004-echo-uksouth")
    result = _run(raw, "--out", stores, "--json")
    data = json.loads(result.output)
    assert data["counts"] == {"runs": 18, "samples": 0, "summaries": 30}
    assert {f["path"]: f["status"] for f in data["files"]}["campaign.yaml"] == "campaign"


def test_bad_campaign_yaml_fails_with_key_and_line(copy_campaign, stores):
    raw = copy_campaign("seed004-echo-uksouth")
    (raw / "campaign.yaml").write_text("hosts:\n  vm1: {zone: 1, ip: 10.0.0.300}\n")
    result = _run(raw, "--out", stores)
    assert result.exit_code == 1
    assert "campaign.yaml:2: hosts.vm1.ip: '10.0.0.300' does not appear" in " ".join(
        result.output.split())
    assert not (stores / "seed004-echo-uksouth").exists()


def test_fail_on_skip(copy_campaign, stores):
    raw = copy_campaign("seed004-echo-uksouth")
    assert _run(raw, "--out", stores, "--fail-on-skip").exit_code == 0  # README is ignored
    (raw / "empty.log").write_bytes(b"")
    assert _run(raw, "--out", stores, "--fail-on-skip").exit_code == 3
