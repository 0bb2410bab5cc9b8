"""``import_many``: small first imports side by side, each store the one ``import_campaign``
writes."""

from __future__ import annotations

from azlatency import campaign
from azlatency.campaign import importer
from azlatency.errors import CampaignError
from tests.campaign.conftest import tree_digest


def test_first_imports_run_side_by_side_and_write_the_stores_one_by_one_would(
    copy_campaign, stores, tmp_path, monkeypatch
):
    fresh = [copy_campaign("seed001-aks-azure-cni"), copy_campaign("seed002-ppg-latte")]
    big = copy_campaign("seed000-az-vs-as")  # 10 files: parsed with its own workers, here
    monkeypatch.setattr(importer, "PARALLEL_MIN_FILES", 8)  # (7 and 5 files: small)
    kept = copy_campaign("seed004-echo-uksouth")
    campaign.import_campaign(kept, root=stores, workers=1)  # a store already: imported here
    missing = tmp_path / "raw" / "nowhere"
    submitted = []
    real = importer.ProcessPoolExecutor

    class Pool(real):
        def submit(self, fn, *args, **kwargs):
            if fn is importer._import_one:  # (not the big one's own file batches)
                submitted.append(args[0])
            return super().submit(fn, *args, **kwargs)

    monkeypatch.setattr(importer, "ProcessPoolExecutor", Pool)
    done = []
    out = importer.import_many(
        [fresh[0], missing, kept, big, fresh[1]],
        root=stores,
        workers=2,
        progress=lambda: done.append(1),
    )

    assert submitted == [fresh[0], fresh[1]]  # the small ones without a store, biggest first
    assert [type(r).__name__ for r in out] == [
        "ImportReport",
        "CampaignError",
        "ImportReport",
        "ImportReport",
        "ImportReport",
    ]
    assert isinstance(out[1], CampaignError) and "no campaign folder" in str(out[1])
    assert [r.campaign for r in out if not isinstance(r, CampaignError)] == [
        "seed001-aks-azure-cni",
        "seed004-echo-uksouth",
        "seed000-az-vs-as",
        "seed002-ppg-latte",
    ]
    assert out[0].changed and out[3].changed and out[4].changed and not out[2].changed
    assert out[3].workers == 2 and out[0].workers == 1  # the big one kept its own workers
    assert len(done) == 5
    one_by_one = tmp_path / "one-by-one"
    for raw in fresh:
        report = campaign.import_campaign(raw, root=one_by_one, workers=1)
        assert tree_digest(one_by_one / raw.name) == tree_digest(stores / raw.name)
        assert report.files.equals(out[0 if raw == fresh[0] else 4].files)


def test_one_first_import_is_not_sent_to_a_pool(copy_campaign, stores, monkeypatch):
    raw = copy_campaign("seed002-ppg-latte")
    monkeypatch.setattr(importer, "ProcessPoolExecutor", None)  # would fail if started
    (report,) = importer.import_many([raw], root=stores, workers=2)
    assert report.changed and report.counts["runs"] > 0
