"""summarize_store: the summary of a whole store, read run by run, equals summarize of the
loaded samples — also when a run's rows are not together — and load(columns=...) reads only
the columns asked for."""

from __future__ import annotations

import shutil

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq
import pytest

from azlatency import campaign as camp
from azlatency import stats
from azlatency.campaign import dataset
from azlatency.campaign.engines import arrow as streamed
from azlatency.units import BasisError
from tests.conftest import SYNTH

# One worker builds the store once for this file and the engine tests.
pytestmark = pytest.mark.xdist_group("engines")  # the worker that builds the synthetic store

NAME = SYNTH


@pytest.fixture(scope="module")
def campaign(synth):
    """(store root, loaded tables) of the tiny synthetic campaign (tests/conftest.py)."""
    return synth[1], synth[2]


def basis_runs(runs: pd.DataFrame, basis: str) -> pd.Series:
    return runs.loc[runs["latency_basis"] == basis, "run_id"]


def test_streamed_summary_equals_summarize_of_the_loaded_samples(campaign):
    root, t = campaign
    ids = basis_runs(t.runs, "rtt")
    want = stats.summarize(t.samples[t.samples["run_id"].isin(ids)], t.runs)
    got = camp.summarize_store(NAME, root, run_ids=ids)
    pd.testing.assert_frame_equal(got, want)
    # ... and the frame holds the numbers, not just the same shape: one run, by hand.
    with_samples = t.samples.loc[t.samples["run_id"].isin(ids), "run_id"].nunique()
    assert got["run_id"].nunique() == with_samples == 46  # sockperf console runs have none
    rid = t.samples.loc[t.samples["run_id"].isin(ids), "run_id"].value_counts().index[0]
    run = t.samples[(t.samples["run_id"] == rid) & (t.samples["status"] == "ok")]
    mine = got[got["run_id"] == rid].set_index("stat")
    assert mine.loc["count", "estimate"] == len(run) == 1513
    assert mine.loc["p50", "estimate"] == np.quantile(run["rtt_us"].to_numpy(), 0.5)
    assert mine.loc["max", "estimate"] == run["rtt_us"].max()
    # intervals where there are some (which runs have one is intervals.py's business)
    pcts = got[got["stat"].str.startswith("p") & got["estimable"]]
    assert len(pcts) > 0 and (pcts["ci_low"] <= pcts["estimate"]).all()
    assert (pcts["estimate"] <= pcts["ci_high"]).all()
    # Windows ping's time<1ms rows are in: censoring goes through the same code.
    censored = got[(got["stat"] == "min") & got["note"].str.contains("censored")]
    assert len(censored) == 2 and set(censored["bound_high"]) == {1000.0}


def test_half_rtt_runs_and_the_basis_check(campaign):
    root, t = campaign
    ids = basis_runs(t.runs, "half_rtt")
    want = stats.summarize(t.samples[t.samples["run_id"].isin(ids)], t.runs, metric="half_rtt")
    got = camp.summarize_store(NAME, root, run_ids=ids, metric="half_rtt")
    pd.testing.assert_frame_equal(got, want)
    assert set(got["unit"]) == {"us"} and set(got["metric"]) == {"half_rtt"}
    # Every run: the half-RTT-only runs stop it, as they stop summarize.
    with pytest.raises(BasisError, match="hold half_rtt_us only"):
        stats.summarize(t.samples, t.runs)
    with pytest.raises(BasisError, match="hold half_rtt_us only"):
        camp.summarize_store(NAME, root)


@pytest.mark.parametrize(
    ("by", "unit"),
    [
        (["src_zone", "dst_zone"], "auto"),
        ("placement", "packet"),
        (["tool", "run_id"], "auto"),
    ],
)
def test_groups_of_run_columns_equal_summarize(campaign, by, unit):
    root, t = campaign
    ids = basis_runs(t.runs, "rtt")
    want = stats.summarize(t.samples[t.samples["run_id"].isin(ids)], t.runs, by=by, unit=unit)
    got = camp.summarize_store(NAME, root, by=by, unit=unit, run_ids=ids)
    pd.testing.assert_frame_equal(got, want)
    assert len(got) > 0 and got["estimate"].notna().any()


def test_by_a_samples_column_is_refused(campaign):
    root, _ = campaign
    with pytest.raises(ValueError, match="run columns only"):
        camp.summarize_store(NAME, root, by="kind")


def test_a_run_held_in_memory_is_one_run(campaign, monkeypatch):
    """The stream yields each run once, whole, never two runs together: memory is that of the
    largest run (here with batches of 100 rows, so runs cross batch boundaries)."""
    root, t = campaign
    monkeypatch.setattr(streamed, "BATCH_ROWS", 100)
    pf = streamed.Files(camp.samples_files(NAME, root))
    seen = [(rid, tbl) for rid, tbl in streamed._runs(pf, ["run_id", "rtt_us"], None)]
    sizes = t.samples["run_id"].value_counts()
    assert [rid for rid, _ in seen] == list(dict.fromkeys(t.samples["run_id"]))
    assert all(tbl.num_rows == sizes[rid] for rid, tbl in seen)
    assert all(pc.count_distinct(tbl["run_id"]).as_py() == 1 for _, tbl in seen)
    assert max(tbl.num_rows for _, tbl in seen) == sizes.max() == 1513
    # and the summary is unchanged by the batch size
    ids = basis_runs(t.runs, "rtt")
    pd.testing.assert_frame_equal(
        camp.summarize_store(NAME, root, run_ids=ids),
        stats.summarize(t.samples[t.samples["run_id"].isin(ids)]),
    )


def test_a_run_split_across_the_file_is_summarised_from_all_its_rows(campaign, tmp_path):
    """The samples rewritten as one file where the biggest run's first half comes last, in row
    groups of 500 rows: the run is seen twice, its summary is redone from every row."""
    root, t = campaign
    store = tmp_path / NAME
    shutil.copytree(root / NAME, store, ignore=shutil.ignore_patterns("samples"))
    tbl = dataset.read(root / NAME, "samples")
    rid = t.samples["run_id"].value_counts().index[0]
    at = np.flatnonzero(tbl["run_id"].to_numpy(zero_copy_only=False) == rid)
    half = at[: len(at) // 2]
    order = np.concatenate([np.setdiff1d(np.arange(len(tbl)), half), half])
    (store / "samples" / "tool=all").mkdir(parents=True)
    part = store / "samples" / "tool=all" / "part-0.parquet"
    pq.write_table(tbl.take(pa.array(order)), part, row_group_size=500)
    pf = streamed.Files([part])
    stretches = [r for r, _ in streamed._runs(pf, ["run_id"], None)]
    assert stretches.count(rid) == 2  # the case under test

    ids = basis_runs(t.runs, "rtt")
    got = camp.summarize_store(store, run_ids=ids)
    moved = camp.load(store).samples
    pd.testing.assert_frame_equal(got, stats.summarize(moved[moved["run_id"].isin(ids)]))
    # The same numbers as from the store as imported: summarize orders each run by seq.
    pd.testing.assert_frame_equal(got, camp.summarize_store(NAME, root, run_ids=ids))
    assert got.loc[(got["run_id"] == rid) & (got["stat"] == "count"), "estimate"].item() == 1513


def test_load_reads_only_the_columns_asked_for(campaign):
    root, t = campaign
    # jitter_us is documented but this campaign has no value for it (no UDP iperf3): left out
    got = camp.load(NAME, root=root, columns=["status", "rtt_us", "jitter_us"]).samples
    assert list(got.columns) == ["run_id", "status", "rtt_us"]
    pd.testing.assert_frame_equal(got, t.samples[["run_id", "status", "rtt_us"]])
    assert got["rtt_us"].notna().sum() == t.samples["rtt_us"].notna().sum() == 4520
    assert list(camp.load(NAME, root=root, columns=[]).samples.columns) == ["run_id"]
    with pytest.raises(ValueError, match="no documented column \\['rtt_ms'\\]"):
        camp.load(NAME, root=root, columns=["rtt_ms"])
