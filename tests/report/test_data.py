"""``report._data``: helpers over a campaign's tables."""

from __future__ import annotations

import shutil

import pandas as pd
import pytest

from azlatency import report as rep
from azlatency.campaign import import_campaign
from azlatency.campaign.load import load
from azlatency.report import _data
from azlatency.report._data import map_runs
from tests.conftest import ROOT


@pytest.mark.parametrize(
    "mapping",
    [
        {"r1": "label a", "r2": "label b"},
        {"r1": "label a"},  # r2 and r3 unmapped: missing
        pd.Series({"r1": 1, "r2": 2, "r3": 3}),  # integers stay integers
        pd.Series({"r1": 1}),  # and become floats where a run is missing, as with map
    ],
)
@pytest.mark.parametrize("with_missing_id", [False, True])
def test_map_runs_is_a_map_of_every_row(mapping, with_missing_id):
    ids = ["r2", "r1", "r2", "r3", "r1"] + ([None] if with_missing_id else [])
    run_ids = pd.Series(ids, dtype="str", index=range(10, 10 + len(ids)), name="run_id")
    got, want = map_runs(run_ids, mapping), run_ids.map(mapping)
    pd.testing.assert_series_equal(got, want)
    assert [type(v) for v in got] == [type(v) for v in want]


def test_map_runs_values():
    run_ids = pd.Series(["b", "a", "b"], dtype="str")
    assert map_runs(run_ids, {"a": "A", "b": "B"}).tolist() == ["B", "A", "B"]


def test_a_process_keeps_the_campaigns_it_loaded(tmp_path, monkeypatch):
    """A report kernel's pages go round the campaigns: each store is read once, while the
    tables kept fit in ``LOADED_BYTES`` (the last loaded always stays)."""
    for name in ("seed002-ppg-latte", "seed004-echo-uksouth"):
        shutil.copytree(ROOT / "data" / "raw" / name, tmp_path / "raw" / name)
        import_campaign(tmp_path / "raw" / name, root=tmp_path / "processed", workers=1)
    reads = []
    monkeypatch.setattr(
        _data, "load", lambda name, *a, **k: reads.append(name) or load(name, *a, **k)
    )
    monkeypatch.setattr(_data, "_LOADED", {})
    order = ["seed002-ppg-latte", "seed004-echo-uksouth"] * 2
    got = [_data.load_campaigns(name, tmp_path) for name in order]
    assert reads == order[:2]
    assert got[2].runs.equals(got[0].runs) and got[3].summaries.equals(got[1].summaries)
    assert set(got[2].runs["campaign"]) == {"seed002-ppg-latte"} and len(got[2].runs) == 9

    _data.load_campaigns(order[0], tmp_path)  # kept: the most recently used moves last
    assert list(_data._LOADED.values())[-1].runs["campaign"].iloc[0] == order[0]
    monkeypatch.setattr(_data, "LOADED_BYTES", 0)  # none fits: the last stays
    monkeypatch.setattr(_data, "_LOADED", {})
    reads.clear()
    for name in order:
        _data.load_campaigns(name, tmp_path)
    assert reads == order and len(_data._LOADED) == 1


def test_a_run_read_twice_counts_once_in_a_report(tmp_path):
    """The same 15 pings (5 lost) saved as they are and with CRLF line ends: the store keeps
    both runs, a report's tables the first, and its findings say the other was left out."""
    ping = ROOT / "tests/fixtures/ping/ping--iputils-20221126-linux-c15-i0.2-gap-partial-loss.txt"
    raw = tmp_path / "raw" / "twice"
    raw.mkdir(parents=True)
    (raw / "a.txt").write_bytes(ping.read_bytes())
    (raw / "b.txt").write_bytes(ping.read_bytes().replace(b"\n", b"\r\n"))
    import_campaign(raw, root=tmp_path / "processed", workers=1)
    stored = load("twice", tmp_path / "processed")
    assert len(stored.runs) == 2 and len(stored.samples) == 30
    tables = _data.load_campaigns("twice", tmp_path)
    assert list(tables.runs["source_path"]) == ["a.txt"]
    assert len(tables.samples) == 15
    assert set(tables.summaries["run_id"]) == set(tables.runs["run_id"])
    assert _data.repeats("twice", tmp_path / "processed") == list(
        stored.runs.loc[stored.runs.source_path == "b.txt", "run_id"]
    )
    overview = rep.import_overview(["twice"], tmp_path)
    head = rep.headline(rep.latency_percentiles(tables))
    medians, tp = rep.zone_pair_medians(tables), rep.throughput_table(tables)
    text = rep.campaign_findings(overview, head, medians, rep.asymmetry_table(tables), tp)
    assert (
        "repeated_run (1 run, left out of every statistic: each is a run before it again)" in text
    )
