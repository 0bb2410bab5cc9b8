"""What ``azlatency report`` plans: which notebook runs on which campaign."""

from __future__ import annotations

import pandas as pd
import pytest

from azlatency.campaign import load
from azlatency.campaign.store import MANIFEST
from azlatency.report._longrun import long_runs
from azlatency.report._needs import NEEDS, SAMPLE_COLUMNS, missing

pytestmark = pytest.mark.xdist_group("claims")  # conftest.data_root: every kind of campaign


def test_the_plan_reads_only_the_samples_columns_its_checks_need(data_root):
    """The plan loads each campaign's samples with ``SAMPLE_COLUMNS`` only: every notebook's
    check answers on those tables as on the whole ones, on every campaign of the notebooks'
    tests (the real examples, the synthetic one, a fleet baseline, a before/after pair)."""
    processed = data_root / "processed"
    names = sorted(p.name for p in processed.iterdir() if (p / MANIFEST).is_file())
    assert len(names) >= 6
    params = {"data_root": data_root}
    answers, timed = set(), set()
    for name in names:
        whole = load(name, processed)
        lean = load(name, processed, columns=SAMPLE_COLUMNS)
        assert len(lean.samples) == len(whole.samples)
        # the samples' spans, the long-run check's own reading (any length here)
        spans = long_runs(whole, min_hours=0.0)
        pd.testing.assert_frame_equal(long_runs(lean, min_hours=0.0), spans)
        timed |= set(spans["tool"])
        for stem in NEEDS:
            answer = missing(f"{stem}-x", whole, params)
            assert missing(f"{stem}-x", lean, params) == answer, (name, stem)
            answers.add((stem, answer is None))
    # the campaigns answer both ways for the checks that read samples (long runs, percentiles)
    assert {("30", True), ("30", False), ("11", True)} <= answers
    assert {"ping", "sockperf"} <= timed  # time_ns and tx_time_ns both read
