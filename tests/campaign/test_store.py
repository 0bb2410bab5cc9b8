"""The store: incremental re-import, cache invalidation, recovery, load errors, parallel."""

from __future__ import annotations

import json
import shutil

import pyarrow.parquet as pq
import pytest

from azlatency import campaign, schema
from azlatency.campaign import store
from azlatency.errors import CampaignError
from tests.campaign.conftest import RAW, tree_digest
from tests.conftest import FIXTURES

SEED002_CSV = RAW / "seed002-ppg-latte" / "blog-comparison.reported.csv"


@pytest.fixture
def echo(copy_campaign):
    return copy_campaign("seed004-echo-uksouth")


def test_only_new_or_changed_files_are_parsed(echo, stores):
    first = campaign.import_campaign(echo, root=stores, workers=1)
    assert (first.parsed, first.reused) == (2, 0)
    (echo / "ppg.reported.csv").write_bytes(SEED002_CSV.read_bytes())
    second = campaign.import_campaign(echo, root=stores, workers=1)
    assert (second.parsed, second.reused, second.changed) == (1, 2, True)
    # an edit: the same table with one value corrected parses that file again
    path = echo / "latency-by-scenario.reported.csv"
    path.write_text(path.read_text().replace(",850,us", ",851,us"))
    third = campaign.import_campaign(echo, root=stores, workers=1)
    assert (third.parsed, third.reused) == (1, 2)
    t = campaign.load("seed004-echo-uksouth", stores)
    assert 851.0 in t.summaries.value.tolist() and 850.0 not in t.summaries.value.tolist()
    # the cache keeps the entries of the current files only
    cache = stores / "seed004-echo-uksouth" / "cache"
    cached = {p.name.split(".")[0] for p in cache.iterdir()}
    assert cached == set(third.imported.sha256) and len(cached) == 3


def test_a_new_parser_version_invalidates_the_cache(echo, stores, monkeypatch):
    campaign.import_campaign(echo, root=stores, workers=1)
    monkeypatch.setattr(campaign.importer, "cache_stamp", lambda: "another-version")
    again = campaign.import_campaign(echo, root=stores, workers=1)
    assert (again.parsed, again.reused) == (2, 0)


def test_a_torn_cache_file_is_parsed_again(echo, stores):
    campaign.import_campaign(echo, root=stores, workers=1)
    cache = stores / "seed004-echo-uksouth" / "cache"
    victim = next(cache.glob("*.summaries.parquet"))
    data = victim.read_bytes()
    victim.unlink()  # cache files are hard links: replace, never modify in place
    victim.write_bytes(data[: len(data) // 2])
    # nothing changed: the store stands as it is, the cache is not even read
    assert campaign.import_campaign(echo, root=stores, workers=1).changed is False
    # the next import that has work to do finds the torn entry and parses that file again
    (echo / "ppg.reported.csv").write_bytes(SEED002_CSV.read_bytes())
    again = campaign.import_campaign(echo, root=stores, workers=1)
    assert (again.parsed, again.reused) == (2, 1)
    assert len(campaign.load("seed004-echo-uksouth", stores).summaries) == 30 + 7


def test_campaign_yaml_changes_relabel_without_parsing(echo, stores):
    campaign.import_campaign(echo, root=stores, workers=1)
    cfg = echo / "campaign.yaml"
    cfg.write_text(
        cfg.read_text().replace("defaults:\n", "defaults:\n  labels: {study: painter}\n")
    )
    again = campaign.import_campaign(echo, root=stores, workers=1)
    assert (again.parsed, again.reused, again.changed) == (0, 2, True)
    runs = campaign.load("seed004-echo-uksouth", stores).runs
    assert runs.labels.str.contains('"study": "painter"').all()


def test_declared_schema_in_the_parquet_files(echo, stores):
    campaign.import_campaign(echo, root=stores, workers=1)
    runs = pq.read_schema(stores / "seed004-echo-uksouth" / "runs" / "part-0.parquet")
    assert str(runs.field("src_zone").type) == "string"
    assert str(runs.field("start_time").type) == "timestamp[ns, tz=UTC]"
    assert str(runs.field("msg_size_bytes").type) == "int64"
    assert runs.metadata[b"azlatency.format_version"] == str(schema.FORMAT_VERSION).encode()
    assert b"pandas" not in runs.metadata
    meta = pq.read_metadata(stores / "seed004-echo-uksouth" / "runs" / "part-0.parquet")
    assert meta.row_group(0).column(0).compression == "ZSTD"


def test_manifest_has_hashes_versions_and_the_report(echo, stores):
    report = campaign.import_campaign(echo, root=stores, workers=1)
    manifest = json.loads((stores / "seed004-echo-uksouth" / "manifest.json").read_text())
    assert manifest["format_version"] == schema.FORMAT_VERSION
    assert manifest["azlatency_version"] == __import__("azlatency").__version__
    assert set(manifest["inputs"]) == {
        "README.md",
        "campaign.yaml",
        "last-records-before-break.reported.csv",
        "latency-by-scenario.reported.csv",
    }
    assert manifest["tables"]["runs"]["rows"] == 18
    assert len(manifest["report"]["files"]) == len(report.files) == 4
    assert campaign.load_report("seed004-echo-uksouth", stores).files.equals(report.files)


def test_load_accepts_a_path_and_explains_a_missing_store(echo, stores):
    campaign.import_campaign(echo, root=stores, workers=1)
    by_path = campaign.load(stores / "seed004-echo-uksouth")
    assert len(by_path.runs) == 18
    assert len(campaign.load("seed004-echo-uksouth", stores, samples=False).samples) == 0
    with pytest.raises(CampaignError, match="run `azlatency import data/raw/nope` first"):
        campaign.load("nope", stores)


def test_a_store_of_another_format_is_refused(echo, stores):
    campaign.import_campaign(echo, root=stores, workers=1)
    path = stores / "seed004-echo-uksouth" / "manifest.json"
    manifest = json.loads(path.read_text())
    manifest["format_version"] = schema.FORMAT_VERSION + 1
    path.write_text(json.dumps(manifest))
    with pytest.raises(CampaignError, match="import the campaign again"):
        campaign.load("seed004-echo-uksouth", stores)


def test_leftovers_of_a_crash_are_recovered(echo, stores):
    campaign.import_campaign(echo, root=stores, workers=1)
    target = stores / "seed004-echo-uksouth"
    before = tree_digest(target)
    # died between the two renames: only ".<name>.old" is left, plus a staging folder
    target.rename(stores / ".seed004-echo-uksouth.old")
    (stores / ".seed004-echo-uksouth.tmp-999999").mkdir()
    assert len(campaign.load("seed004-echo-uksouth", stores).runs) == 18
    assert tree_digest(target) == before
    assert not (stores / ".seed004-echo-uksouth.old").exists()
    campaign.import_campaign(echo, root=stores, workers=1)
    assert not (stores / ".seed004-echo-uksouth.tmp-999999").exists()


def test_the_store_may_not_live_inside_the_raw_folder(echo):
    with pytest.raises(CampaignError, match="inside the raw campaign"):
        campaign.import_campaign(echo, root=echo / "processed", workers=1)


def test_a_bad_campaign_yaml_stops_the_import_and_keeps_the_store(echo, stores):
    campaign.import_campaign(echo, root=stores, workers=1)
    before = tree_digest(stores / "seed004-echo-uksouth")
    (echo / "campaign.yaml").write_text("defaults:\n  vm_size: B1\n  zone: 1\n")
    with pytest.raises(CampaignError, match=r"campaign.yaml:3: defaults.zone: Extra inputs"):
        campaign.import_campaign(echo, root=stores, workers=1)
    assert tree_digest(stores / "seed004-echo-uksouth") == before
    assert [p.name for p in stores.iterdir() if ".tmp-" in p.name] == []


def test_one_import_at_a_time(echo, stores):
    target = stores / "seed004-echo-uksouth"
    with store.locked(target), pytest.raises(CampaignError, match="another import"):
        campaign.import_campaign(echo, root=stores, workers=1)


def test_worker_processes_give_the_same_store(copy_campaign, stores, tmp_path, monkeypatch):
    raw = copy_campaign("seed002-ppg-latte")
    shutil.copytree(RAW / "seed004-echo-uksouth", raw / "echo")
    monkeypatch.setattr(campaign.importer, "PARALLEL_MIN_FILES", 2)
    one = campaign.import_campaign(raw, root=stores, workers=1)
    two = campaign.import_campaign(raw, root=tmp_path / "two", workers=2)
    assert (one.workers, two.workers) == (1, 2)
    a, b = tree_digest(stores / raw.name), tree_digest(tmp_path / "two" / raw.name)
    assert a == b and len(a) > 10


def test_mapped_files_give_the_same_store(copy_campaign, stores, tmp_path, monkeypatch):
    """Big files are mapped, not read, by the import too (and their hash is not taken twice);
    with the threshold at one byte every file goes that way and the store is the same."""
    from azlatency import reader

    raw = copy_campaign("seed002-ppg-latte")
    for tool, pattern in (("sockperf", "*fulllog*.csv"), ("ping", "*-D*.txt"), ("echo_csv", "*")):
        for f in sorted((FIXTURES / tool).glob(pattern)):
            if ".expected." not in f.name and f.suffix != ".md":
                shutil.copy(f, raw / f.name)
    read = campaign.import_campaign(raw, root=stores, workers=1)
    monkeypatch.setattr(reader.files, "MAP_BYTES", 1)
    mapped = campaign.import_campaign(raw, root=tmp_path / "mapped", workers=1)
    assert read.counts == mapped.counts and read.counts["samples"] > 0
    a, b = tree_digest(stores / raw.name), tree_digest(tmp_path / "mapped" / raw.name)
    assert a == b and len(a) > 10
