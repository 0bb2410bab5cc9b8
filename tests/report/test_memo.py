"""``report._memo``: a campaign's statistics computed once per store and code, then read."""

from __future__ import annotations

import shutil

from azlatency import report as rep
from azlatency.campaign import import_campaign
from azlatency.report import _memo
from tests.conftest import ROOT


def test_a_result_is_kept_per_store_and_read_back(tmp_path):
    raw = tmp_path / "raw" / "seed004"
    shutil.copytree(ROOT / "data" / "raw" / "seed004-echo-uksouth", raw)
    import_campaign(raw, root=tmp_path / "processed", workers=1)
    _memo.clear()
    t = rep.load_campaigns("seed004", tmp_path)
    first = rep.latency_percentiles(t)
    again = rep.latency_percentiles(t, level=0.95, basis=None)  # the defaults, named
    assert again.equals(first)
    kept = list((tmp_path / "processed" / ".derived" / "seed004").glob("latency_percentiles-*"))
    assert len(kept) == 1
    _memo.clear()  # a new process: read from disk
    assert rep.latency_percentiles(rep.load_campaigns("seed004", tmp_path)).equals(first)
    other = rep.latency_percentiles(t, level=0.9)  # other arguments: another entry
    assert len(list(kept[0].parent.glob("latency_percentiles-*"))) == 2
    assert other["level"].dropna().eq(0.9).all()
    sub = rep.subset(t, t.runs.iloc[:3])  # a subset carries no fingerprint: computed
    assert len(rep.latency_percentiles(sub)) <= len(first)
