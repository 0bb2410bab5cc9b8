"""The worker reads the bytes the planner hashed: trusted by the file's stamp, checked by
hash when the stamp moved or was never taken (a racy file), and a file written to while it
is parsed is reported, not imported."""

from __future__ import annotations

import hashlib
import os
import shutil
from pathlib import Path
from types import SimpleNamespace

import pytest

from azlatency import campaign
from azlatency.campaign import sources, worker
from tests.conftest import FIXTURES

LOG = FIXTURES / "sockperf" / "sockperf--3.7-linux-tcp-m1400-mps2000-fullrtt-fulllog-rtt.csv"
CHANGED = "the file changed during the import"


@pytest.fixture
def log(tmp_path: Path) -> Path:
    path = tmp_path / "raw" / LOG.name
    path.parent.mkdir()
    shutil.copy(LOG, path)
    return path


def _task(path: Path, tmp_path: Path, sha: str, stamp) -> worker.Task:
    cache = tmp_path / "cache"
    cache.mkdir(exist_ok=True)
    return worker.Task(sha, path.name, str(path), str(cache), stamp=stamp)


def _stamp(path: Path) -> tuple[int, ...]:
    return sources.file_stamp(os.stat(path))


def test_a_settled_file_gets_a_stamp_a_racy_one_does_not():
    st = SimpleNamespace(st_size=10, st_mtime_ns=5, st_ctime_ns=7, st_ino=42)
    assert sources.settled_stamp(st, 7 + sources.RACY_NS) == (10, 5, 7, 42)
    assert sources.settled_stamp(st, 6 + sources.RACY_NS) is None  # changed (ctime) too lately


def test_a_file_with_its_planned_stamp_is_not_hashed_again(log, tmp_path):
    """The stamp is trusted: a wrong sha256 beside the right stamp still parses."""
    out = worker.parse_file(_task(log, tmp_path, "0" * 64, _stamp(log)))
    assert out["status"] == "ok" and out["tables"]["samples"] == 1093  # its .expected.json


def test_a_file_whose_stamp_moved_is_hashed(log, tmp_path):
    sha = hashlib.sha256(log.read_bytes()).hexdigest()
    old = _stamp(log)
    os.utime(log, ns=(old[1] + 10**9, old[1] + 10**9))  # touched: same bytes
    assert worker.parse_file(_task(log, tmp_path, sha, old))["status"] == "ok"
    log.write_bytes(log.read_bytes().replace(b"0.0", b"0.1", 1))  # changed bytes
    out = worker.parse_file(_task(log, tmp_path, sha, old))
    assert out["status"] == "failed" and out["error"]["reason"] == CHANGED
    out = worker.parse_file(_task(log, tmp_path, sha, None))  # no stamp: hashed as well
    assert out["status"] == "failed" and out["error"]["reason"] == CHANGED


def test_a_file_written_while_it_is_parsed_is_not_imported(log, tmp_path, monkeypatch):
    sha = hashlib.sha256(log.read_bytes()).hexdigest()
    parse = worker._parse

    def parse_then_append(data, task, arrow):
        out = parse(data, task, arrow)
        with open(task.location, "ab") as f:
            f.write(b"\n")
        return out

    monkeypatch.setattr(worker, "_parse", parse_then_append)
    out = worker.parse_file(_task(log, tmp_path, sha, _stamp(log)))
    assert out["status"] == "failed" and out["error"]["reason"] == CHANGED
    assert out["arrow"] == {}
    assert sorted(p.name for p in (tmp_path / "cache").iterdir()) == [f"{sha}.json"]


def test_stamped_files_give_the_same_store(copy_campaign, stores, tmp_path, monkeypatch):
    """Files settled long enough are stamped and not hashed again by the workers; the store
    is the one an import hashing every file writes."""
    raw = copy_campaign("seed002-ppg-latte")
    hashed = campaign.import_campaign(raw, root=tmp_path / "hashed", workers=1)
    monkeypatch.setattr(sources, "RACY_NS", 10**18)  # every file modified "just now"
    entries = sources.discover(raw, limits=sources.Limits(), spool=None)
    assert all(e.stamp is None for e in entries if e.kind == "file")
    monkeypatch.setattr(sources, "RACY_NS", -(10**12))  # any file counts as settled
    entries = sources.discover(raw, limits=sources.Limits(), spool=None)
    assert all(e.stamp == _stamp(e.location) for e in entries if e.kind == "file")
    calls = []
    real = worker.hashlib.sha256

    def counting(data=b""):
        calls.append(len(data))
        return real(data)

    monkeypatch.setattr(worker, "hashlib", SimpleNamespace(sha256=counting))
    stamped = campaign.import_campaign(raw, root=stores, workers=1)
    assert calls == []  # no raw file hashed twice
    assert stamped.files.equals(hashed.files)
    a, b = campaign.load(tmp_path / "hashed" / raw.name), campaign.load(stores / raw.name)
    assert a.runs.equals(b.runs) and a.samples.equals(b.samples)
