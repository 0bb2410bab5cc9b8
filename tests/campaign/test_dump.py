"""A messy dump — junk, empty, truncated, UTF-16, duplicate, link, too large, hostile
archives — and a report that accounts for every file, exactly once."""

from __future__ import annotations

import csv
import io
import os
import stat
import tarfile
import zipfile
from pathlib import Path

import pytest

from azlatency import campaign
from azlatency.campaign.sources import Limits
from azlatency.parsers.reported_csv import UNITS
from tests.campaign.conftest import RAW, tree_digest
from tests.conftest import FIXTURES

ECHO = FIXTURES / "echo_csv"
PROBES = ECHO / "echo_csv--py3.11-linux-i0.1-crlf-20probes.csv"
PROBES_LF = ECHO / "echo_csv--py3.11-linux-i0.1-lf-20probes.csv"
TRUNCATED = ECHO / "echo_csv--py3.11-linux-i0.1-crlf-20probes-truncated.csv"
TOTAL_LOSS = ECHO / "echo_csv--py3.11-linux-i0.1-crlf-no-echo-total-loss.csv"
SENDER = RAW / "seed002-ppg-latte" / "b1s-cross-zone" / "latte-sender.log"
RECEIVER = RAW / "seed002-ppg-latte" / "b1s-cross-zone" / "latte-receiver.log"
REPORTED = RAW / "seed004-echo-uksouth" / "latency-by-scenario.reported.csv"
# The line made bad: the second row under the header (the first, Same AZ's mean, stays good).
BAD = (
    next(
        i for i, line in enumerate(REPORTED.read_text().splitlines(), 1) if line.startswith("tool,")
    )
    + 2
)
LIMIT = 64 * 1024


def _zip(path: Path) -> None:
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("ok/probes-lf.csv", PROBES_LF.read_bytes())
        zf.writestr("../escape.log", SENDER.read_bytes())
        zf.writestr("/etc/absolute.log", SENDER.read_bytes())
        link = zipfile.ZipInfo("ok/link.log")
        link.external_attr = (stat.S_IFLNK | 0o777) << 16
        zf.writestr(link, "../../etc/passwd")
        zf.writestr("bomb.log", b"0" * (LIMIT * 4))  # 256 KiB of zeros: a few hundred bytes zipped
        zf.writestr("inner.zip", b"PK\x05\x06" + b"\0" * 18)


def _tar(path: Path) -> None:
    with tarfile.open(path, "w:gz") as tf:

        def add(name: str, data: bytes = b"", **kw) -> None:
            info = tarfile.TarInfo(name)
            info.size = len(data)
            for k, v in kw.items():
                setattr(info, k, v)
            tf.addfile(info, io.BytesIO(data) if data else None)

        add("good/latte-receiver.log", RECEIVER.read_bytes())
        add("evil", type=tarfile.SYMTYPE, linkname="/etc/passwd")
        add("hard", type=tarfile.LNKTYPE, linkname="good/latte-receiver.log")
        add("../../outside.log", b"x")
        add("fifo", type=tarfile.FIFOTYPE)


@pytest.fixture
def dump(tmp_path: Path) -> Path:
    d = tmp_path / "raw" / "messy"
    (d / "latte").mkdir(parents=True)
    (d / "echo").mkdir()
    (d / "junk.bin").write_bytes(bytes(range(256)) * 8)
    (d / "empty.log").write_bytes(b"")
    (d / "blank.log").write_bytes(b"\r\n  \n\t\n")
    (d / "notes.md").write_text("# Week 2\n\nNothing ran: the VMs were deallocated.\n")
    (d / "latte" / "sender.log").write_bytes(SENDER.read_bytes())
    (d / "latte" / "sender2.log").write_bytes(SENDER.read_bytes())
    # what PowerShell's `>` writes: UTF-16 LE with a BOM
    text = RECEIVER.read_bytes().decode("utf-8")
    (d / "latte" / "receiver-utf16.log").write_bytes(text.encode("utf-16"))
    (d / "echo" / "probes.csv").write_bytes(PROBES.read_bytes())
    (d / "echo" / "truncated.csv").write_bytes(TRUNCATED.read_bytes())
    (d / "echo" / "total-loss.csv").write_bytes(TOTAL_LOSS.read_bytes())
    # a reported-values file with a row the parser rejects (strict import: parse error)
    lines = REPORTED.read_text().splitlines(keepends=True)
    (d / "bad.reported.csv").write_text(
        "".join(lines[: BAD - 1]) + lines[BAD - 1].replace(",us,", ",xs,")
    )
    (d / "big.log").write_bytes(SENDER.read_bytes() * (LIMIT // len(SENDER.read_bytes()) + 1))
    os.symlink("latte/sender.log", d / "link.log")
    _zip(d / "hostile.zip")
    _tar(d / "hostile.tar.gz")
    return d


EXPECTED = {  # path -> (status, reason)
    "bad.reported.csv": ("not_imported", "parse_error"),
    "big.log": ("not_imported", "too_large"),
    "blank.log": ("not_imported", "empty"),
    "echo/probes.csv": ("imported", None),
    "echo/total-loss.csv": ("imported", None),
    "echo/truncated.csv": ("imported", None),
    "empty.log": ("not_imported", "empty"),
    "hostile.tar.gz": ("archive", None),
    "hostile.tar.gz!/../../outside.log": ("not_imported", "refused_entry"),
    "hostile.tar.gz!/evil": ("not_imported", "refused_entry"),
    "hostile.tar.gz!/fifo": ("not_imported", "refused_entry"),
    "hostile.tar.gz!/good/latte-receiver.log": ("imported", None),
    "hostile.tar.gz!/hard": ("not_imported", "refused_entry"),
    "hostile.zip": ("archive", None),
    "hostile.zip!/../escape.log": ("not_imported", "refused_entry"),
    "hostile.zip!//etc/absolute.log": ("not_imported", "refused_entry"),
    "hostile.zip!/bomb.log": ("not_imported", "too_large"),
    "hostile.zip!/inner.zip": ("not_imported", "nested_archive"),
    "hostile.zip!/ok/link.log": ("not_imported", "refused_entry"),
    "hostile.zip!/ok/probes-lf.csv": ("imported", None),
    "junk.bin": ("not_imported", "unknown_format"),
    "latte/receiver-utf16.log": ("imported", None),
    "latte/sender2.log": ("not_imported", "duplicate"),
    "latte/sender.log": ("imported", None),
    "link.log": ("not_imported", "link"),
    "notes.md": ("not_imported", "unknown_format"),
}


def _import(dump: Path, stores: Path, **kw):
    return campaign.import_campaign(
        dump, root=stores, workers=1, strict=True, limits=Limits(max_file_bytes=LIMIT), **kw
    )


def test_every_file_is_accounted_for_exactly_once(dump, stores):
    before = tree_digest(dump, mtimes=True)
    report = _import(dump, stores)
    files = report.files
    assert files.path.is_unique
    got = {
        r.path: (r.status, r.reason if isinstance(r.reason, str) else None)
        for r in files.itertuples()
    }
    assert got == EXPECTED
    assert tree_digest(dump, mtimes=True) == before  # the dump was only read
    by_path = files.set_index("path")
    assert by_path.loc["latte/sender2.log", "duplicate_of"] == "latte/sender.log"
    # the rejected row: its line of the file, its unit cell
    assert BAD == 13 and by_path.loc["bad.reported.csv", "line"] == BAD
    assert "unknown unit 'xs'" in by_path.loc["bad.reported.csv", "detail"]
    assert "path escapes the archive" in by_path.loc["hostile.zip!/../escape.log", "detail"]
    assert "link in the archive" in by_path.loc["hostile.tar.gz!/evil", "detail"]
    # the imported files are all in the tables
    runs = campaign.load("messy", stores).runs
    imported = set(files[files.status == "imported"].path)
    assert set(runs.source_path) == imported


def test_utf16_truncated_and_total_loss_runs(dump, stores):
    _import(dump, stores)
    t = campaign.load("messy", stores)
    runs = t.runs.set_index("source_path")
    assert runs.loc["latte/receiver-utf16.log", "encoding"] == "utf-16-le"
    # seed 002 line 155: "Latency(usec) 2026.51" (the receiver), read through UTF-16
    rid = runs.loc["latte/receiver-utf16.log", "run_id"]
    s = t.summaries
    rtt = s[(s.run_id == rid) & (s.metric == "rtt") & (s["stat"] == "mean")]
    assert rtt.value.tolist() == [2026.51]
    assert not runs.loc["echo/truncated.csv", "complete"]
    assert runs.loc["echo/total-loss.csv", "packets_received"] == 0
    report = campaign.load_report("messy", stores)
    issues = set(zip(report.quality.source_path, report.quality.issue))
    assert ("echo/truncated.csv", "incomplete") in issues
    assert ("echo/truncated.csv", "parser_warning") in issues
    assert ("echo/total-loss.csv", "incomplete") in issues


def test_nanosecond_timestamps_and_string_zones_survive_the_store(dump, stores):
    (dump / "campaign.yaml").write_text("rules:\n  - glob: 'echo/*'\n    set: {src_zone: 1}\n")
    _import(dump, stores)
    t = campaign.load("messy", stores)
    runs = t.runs.set_index("source_path")
    assert runs.loc["echo/probes.csv", "src_zone"] == "1"  # not the integer 1
    assert str(t.runs.src_zone.dtype) == "str"
    # row 2 of the capture: "0,2026-11-21 ...,<send_time_ns>,<receive_time_ns>,..."
    with open(PROBES, newline="") as f:
        first = list(csv.DictReader(f))[0]
    rid = runs.loc["echo/probes.csv", "run_id"]
    s = t.samples[t.samples.run_id == rid].sort_values("seq")
    assert int(s.tx_time_ns.iloc[0]) == int(first["send_time_ns"])
    assert int(s.rx_time_ns.iloc[0]) == int(first["receive_time_ns"])
    assert str(t.samples.tx_time_ns.dtype) == "Int64"


def test_lenient_import_keeps_the_good_rows_and_lists_the_skipped(dump, stores):
    report = campaign.import_campaign(
        dump, root=stores, workers=1, limits=Limits(max_file_bytes=LIMIT)
    )
    row = report.files.set_index("path").loc["bad.reported.csv"]
    assert row.status == "imported" and row.runs == 1  # the Same AZ mean of line 12
    q = report.quality
    warn = q[(q.source_path == "bad.reported.csv") & (q.issue == "parser_warning")]
    assert warn.detail.tolist() == [
        "line 13 skipped: unknown unit 'xs'; use one of " + ", ".join(UNITS)
    ]


def test_an_archive_campaign_with_one_top_folder(tmp_path, stores):
    archive = tmp_path / "week3.tgz"
    with tarfile.open(archive, "w:gz") as tf:
        tf.add(RAW / "seed002-ppg-latte", arcname="week3")
    report = campaign.import_campaign(archive, root=stores, workers=1)
    assert report.campaign == "week3"
    files = report.files.set_index("path")
    assert files.loc["campaign.yaml", "status"] == "campaign"
    assert files.loc["README.md", "reason"] == "ignored"  # campaign.yaml inside was used
    runs = campaign.load("week3", stores).runs
    assert len(runs) == 9 and set(runs.region) == {"canadacentral"}
    assert files.loc["blog-comparison.reported.csv", "tools"] == "latte (reported)"
    again = campaign.import_campaign(archive, root=stores, workers=1)
    assert (again.parsed, again.changed) == (0, False)


def test_a_folder_that_cannot_be_listed_is_reported(dump, stores, monkeypatch):
    # Root can list any folder, so the refusal os.walk reports is simulated here.
    real_walk = os.walk

    def walk(top, **kw):
        kw["onerror"](PermissionError(13, "Permission denied", str(dump / "locked")))
        yield from real_walk(top, **kw)

    monkeypatch.setattr(os, "walk", walk)
    report = _import(dump, stores)
    row = report.files.set_index("path").loc["locked/"]
    assert (row.status, row.reason) == ("not_imported", "unreadable")
    assert row.detail == "folder could not be listed: Permission denied"
