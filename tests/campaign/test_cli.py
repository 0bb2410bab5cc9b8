"""``azlatency import``: the summary, JSON for machines, exit codes."""

from __future__ import annotations

import io
import json

from click.testing import CliRunner
from rich.console import Console

from azlatency import campaign
from azlatency.cli import main
from tests.conftest import FIXTURES


def _run(*args):
    return CliRunner().invoke(main, ["import", *map(str, args)], catch_exceptions=False)


def test_import_prints_the_summary_and_the_not_imported_files(copy_campaign, stores):
    raw = copy_campaign("seed004-echo-uksouth")
    (raw / "notes.txt").write_text("to do: rerun cross region\n")
    result = _run(raw, "--out", stores, "--workers", "1")
    assert result.exit_code == 0, result.output
    assert (
        "seed004-echo-uksouth: 2 files imported, 2 not imported; 18 runs, 0 samples, "
        "30 summaries; 6 quality notes"
    ) in " ".join(result.output.split())
    assert "notes.txt" in result.output and "unknown_format" in result.output
    assert (stores / "seed004-echo-uksouth" / "runs" / "part-0.parquet").is_file()


def test_a_one_file_import_says_one(tmp_path, stores):
    """'1 files imported, 0 not imported; 1 runs, …; 1 quality notes' for a single log."""
    raw = tmp_path / "one"
    raw.mkdir()
    log = "ping--busybox-1.35.0-linux-c15-gap-partial-loss.txt"
    (raw / log).write_bytes((FIXTURES / "ping" / log).read_bytes())
    line = campaign.import_campaign(raw, root=stores, workers=1).summary_line()
    # ten replies, five lost (seq 6-10): 15 samples; printed and computed statistics
    assert line.startswith("one: 1 file imported, 0 not imported; 1 run, 15 samples, ")


def test_the_tools_looked_for_are_listed_once(copy_campaign, stores):
    """Each unknown file's detail held the whole list of tools and what each reads (a dozen
    wrapped lines a file); the table now says it once, below."""
    raw = copy_campaign("seed004-echo-uksouth")
    for name in ("notes.txt", "todo.txt", "plan.txt"):
        (raw / name).write_text(f"{name}: rerun cross region\n")
    report = campaign.import_campaign(raw, root=stores, workers=1)
    out = io.StringIO()
    report.print(Console(file=out, width=2000))
    text = out.getvalue()
    assert text.count("no known tool output found (the tools looked for are below)") == 3
    assert text.count("looked for: echo_csv (TCP echo probe CSV") == 1
    assert text.count("sockperf (sockperf console output") == 1
    detail = report.not_imported.set_index("path").loc["todo.txt", "detail"]
    assert "; looked for: echo_csv (TCP echo probe CSV" in detail  # the record keeps it all


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
        result.output.split()
    )
    assert not (stores / "seed004-echo-uksouth").exists()


def test_fail_on_skip(copy_campaign, stores):
    raw = copy_campaign("seed004-echo-uksouth")
    assert _run(raw, "--out", stores, "--fail-on-skip").exit_code == 0  # README is ignored
    (raw / "empty.log").write_bytes(b"")
    assert _run(raw, "--out", stores, "--fail-on-skip").exit_code == 3


def test_inspect_gives_the_statistics_unit_not_the_counts():
    """ping prints its count before its statistics: the table said 'count' over a mean in µs."""
    from tests.conftest import FIXTURES

    path = FIXTURES / "ping" / "ping--iputils-20221126-linux-c15-i0.2-gap-partial-loss.txt"
    result = CliRunner().invoke(main, ["inspect", str(path)], env={"COLUMNS": "200"})
    row = next(line for line in result.output.splitlines() if line.startswith("│ 0 "))
    cells = [c.strip() for c in row.strip("│ ").split("│")]
    # metric, unit, count, mean: 10 replies, 'rtt min/avg/max/mdev = 0.024/0.033/0.042/...'
    assert cells[6:10] == ["rtt", "us", "10", "33"]


def test_python_m_azlatency_cli_imports(copy_campaign, stores):
    """``python -m azlatency.cli import`` raised NameError: ``run_import`` was defined below
    the ``__main__`` guard (issue 42)."""
    import subprocess
    import sys

    raw = copy_campaign("seed004-echo-uksouth")
    res = subprocess.run(
        [sys.executable, "-m", "azlatency.cli", "import", str(raw), "--out", str(stores)]
        + ["--workers", "1", "--json"],
        capture_output=True,
        text=True,
    )
    assert res.returncode == 0, res.stderr
    files = json.loads(res.stdout)["files"]
    assert sum(f["status"] == "imported" for f in files) == 2
