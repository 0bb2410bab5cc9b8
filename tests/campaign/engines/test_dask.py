"""Dask: an import whose files are parsed on a LocalCluster's two workers writes the store the
local import writes, byte for byte; summarize_store(engine="dask") gives the same rows."""

from __future__ import annotations

import pandas as pd
import pytest

from azlatency import campaign
from azlatency.campaign import dataset
from azlatency.campaign.engines import _series
from azlatency.campaign.engines import dask as dask_engine
from tests.campaign.conftest import tree_digest
from tests.conftest import SYNTH

distributed = pytest.importorskip("distributed")
pytestmark = pytest.mark.xdist_group("engines")


@pytest.fixture(scope="module")
def cluster():
    # Threads, not processes: a worker process would spend seconds importing pandas and the
    # parsers; the scheduler, the task graph and the serialisation are the same.
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None
    ) as lc:
        yield lc


def test_import_on_the_cluster_writes_the_same_store(captures, cluster, tmp_path):
    raw, root, _ = captures
    report = campaign.import_campaign(
        raw, root=tmp_path, engine="dask", scheduler=cluster.scheduler_address
    )
    assert report.workers == 2 and report.parsed > 20
    local, remote = tree_digest(root / raw.name), tree_digest(tmp_path / raw.name)
    assert local == remote and len(local) > 40  # tables, manifest and every cache file
    # nothing changed: the next cluster import writes nothing
    again = campaign.import_campaign(
        raw, root=tmp_path, engine="dask", scheduler=cluster.scheduler_address
    )
    assert again.changed is False and tree_digest(tmp_path / raw.name) == remote


def test_a_cluster_import_links_large_inputs_as_the_local_import_does(
    captures, cluster, tmp_path, monkeypatch
):
    """With LINK_ROWS small, large inputs' cache files (written on the workers) are samples
    files of the store on both engines, and the two stores are the same bytes."""
    raw, _, _ = captures
    monkeypatch.setattr(dataset, "LINK_ROWS", 700)  # the sockperf full logs: 767-1099 rows
    campaign.import_campaign(raw, root=tmp_path / "local", workers=1)
    campaign.import_campaign(
        raw, root=tmp_path / "dask", engine="dask", scheduler=cluster.scheduler_address
    )
    files = dataset.table_files(tmp_path / "dask" / raw.name, "samples")
    assert sum(f.stat().st_nlink == 2 for f in files) >= 3  # the file and its cache entry
    assert tree_digest(tmp_path / "local" / raw.name) == tree_digest(tmp_path / "dask" / raw.name)
    # Its summary reads the linked files' runs from their row groups, as the DuckDB engine
    # does, and gives the same rows (the cluster's workers are threads: the patch holds).
    placed, _ = dataset.footer_runs(files)
    read = []
    original = _series.read_series
    monkeypatch.setattr(
        _series, "read_series", lambda groups, *a: read.append(groups[0][0]) or original(groups, *a)
    )
    t = campaign.load(raw.name, root=tmp_path / "dask")
    got, ids = {}, {}
    for basis in ("rtt", "half_rtt"):  # sockperf's latency logs are half-RTT
        ids[basis] = t.runs.loc[t.runs["latency_basis"] == basis, "run_id"]
        got[basis] = campaign.summarize_store(
            raw.name,
            tmp_path / "dask",
            run_ids=ids[basis],
            metric=basis,
            engine="dask",
            scheduler=cluster.scheduler_address,
        )
    assert placed and sorted(map(str, read)) == sorted(
        str(f) for gs in placed.values() for f, *_ in gs
    )  # each placed run once, by the cluster's tasks
    for basis, frame in got.items():
        pd.testing.assert_frame_equal(
            frame,
            campaign.summarize_store(raw.name, tmp_path / "dask", run_ids=ids[basis], metric=basis),
        )


@pytest.mark.parametrize(
    ("by", "unit"), [(None, "auto"), (["src_zone", "dst_zone"], "auto"), ("placement", "packet")]
)
def test_summary_on_the_cluster_equals_the_local_engines(synth, cluster, by, unit):
    _, root, t = synth
    ids = t.runs.loc[t.runs["latency_basis"] == "rtt", "run_id"]
    local = campaign.summarize_store(SYNTH, root, run_ids=ids, by=by, unit=unit, engine="pyarrow")
    remote = campaign.summarize_store(
        SYNTH,
        root,
        run_ids=ids,
        by=by,
        unit=unit,
        engine="dask",
        scheduler=cluster.scheduler_address,
    )
    pd.testing.assert_frame_equal(remote, local)
    assert len(remote) > 0


def test_summary_tasks_split_the_runs(captures, cluster, monkeypatch):
    """Several tasks of consecutive runs (here a few hundred rows each), gathered in run
    order: the frame is the one-pass frame."""
    _, root, t = captures
    monkeypatch.setattr(dask_engine, "TASK_ROWS", 300)
    counts = sorted(t.samples["run_id"].value_counts().items())
    chunks = list(dask_engine._run_chunks(counts, 4))
    assert len(chunks) >= 4 and [r for c in chunks for r in c] == [r for r, _ in counts]
    ids = t.runs.loc[t.runs["latency_basis"] == "rtt", "run_id"]
    with distributed.Client(cluster):  # the default client: no scheduler= needed
        got = campaign.summarize_store("captures", root, run_ids=ids, engine="dask")
    pd.testing.assert_frame_equal(got, campaign.summarize_store("captures", root, run_ids=ids))


def test_the_dask_engine_needs_a_cluster(captures):
    _, root, t = captures
    with pytest.raises(ValueError, match="needs scheduler="):
        campaign.summarize_store("captures", root, run_ids=t.runs["run_id"][:1], engine="dask")
