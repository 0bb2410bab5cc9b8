"""Zone pairs measured by fping (real captures filed by zone pair with a path rule;
tests/fixtures/fping/SOURCES.md)."""

from __future__ import annotations

from azlatency import report as rep
from tests.report._fixture_campaign import BY_PATH, answer_texts, import_fixtures

F = "fping/fping--5.1-linux-"


def test_the_totals_of_s_are_not_counted_beside_the_targets(tmp_path):
    # `fping -s -c 10` to two targets (10.77.0.1 lost 1 of 10, 10.77.0.9 all 10) ends with
    # the invocation's totals (20 echoes sent, 9 replies), a run of its own: pooled beside
    # the targets, 1→3 'lost 55 % of 40 probes over 3 runs'
    files = {F + "c20-clean.txt": "1-2/a.txt", F + "s-c10-loss.txt": "1-3/b.txt"}
    t = import_fixtures(tmp_path, "fping", files, BY_PATH)
    assert t.runs["mode"].eq("totals").sum() == 1  # kept in the store
    loss = rep.zone_pair_medians(t, stat="loss").set_index(["src_zone", "dst_zone"])
    assert loss.loc[("1", "3"), ["estimate", "n_runs"]].tolist() == [55.0, 2]
    assert answer_texts(t, "Which zone pair loses the most packets?")[0] == (
        "**By fping, lowest 1→2 (lost 0 % of 20 probes), highest 1→3 (lost 55 % of 20 "
        "probes), over 2 zone pairs** (page 20 gives each pair)."
    )
