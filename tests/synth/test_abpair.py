"""The synthetic before/after pair (issue 41, ``synth.abpair``): three campaigns in the tools'
own formats, the change stated in truth.json, a campaign.yaml naming the baseline with the
scenario mapping, same bytes for the same code, built once by ``make run`` and never over
somebody's real data."""

from __future__ import annotations

import json

import pytest

from azlatency.campaign.config import parse_campaign
from azlatency.synth.abpair import (
    AFTER,
    AFTER_SCENARIO,
    BEFORE,
    NAMES,
    RERUN,
    SCENARIO,
    ensure_pair,
    make_campaign,
)


def test_ensure_pair_builds_once_and_never_touches_real_data(tmp_path):
    raw = tmp_path / "raw"
    built = ensure_pair(raw)
    assert [p.name for p in built] == list(NAMES)
    assert ensure_pair(raw) == []  # up to date: left alone
    real = tmp_path / "other" / BEFORE
    real.mkdir(parents=True)
    (real / "ping.txt").write_text("somebody's log\n")
    with pytest.raises(FileExistsError, match="not a synthetic campaign"):
        ensure_pair(real.parent)
    assert (real / "ping.txt").read_text() == "somebody's log\n"


def test_truth_config_and_files(tmp_path):
    truth = make_campaign(tmp_path / AFTER, AFTER)
    r = truth["ratio_to_baseline"]
    assert r["1>2"]["sockperf"] == pytest.approx(1.25) and r["2>1"]["sockperf"] == 1.25
    assert r["1>3"] == {"sockperf": 1.0, "ping": 1.0, "iperf3": pytest.approx(0.85)}
    assert 1.03 < r["1>2"]["ping"] < 1.05  # ICMP's overhead does not change: it dilutes 25 %
    assert "3>2" in r and "2>3" not in r
    cfg = parse_campaign((tmp_path / AFTER / "campaign.yaml").read_text())
    assert cfg.baseline.campaign == BEFORE and cfg.baseline.margin == pytest.approx(0.1)
    assert cfg.baseline.scenarios == {SCENARIO: AFTER_SCENARIO}
    files = sorted(p.name for p in (tmp_path / AFTER / "zone-matrix").rglob("*") if p.is_file())
    # 4 pairs × 5 sockperf full logs (+ the first run's console), ping and iperf3 on 2 pairs
    assert len(files) == 4 * 6 + 2 * 10
    make_campaign(tmp_path / BEFORE, BEFORE)
    assert parse_campaign((tmp_path / BEFORE / "campaign.yaml").read_text()).baseline is None


def test_same_code_same_bytes(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    make_campaign(a, RERUN)
    make_campaign(b, RERUN)
    for path in sorted(a.rglob("*")):
        if path.is_file():
            assert path.read_bytes() == (b / path.relative_to(a)).read_bytes(), path
    assert json.loads((a / "truth.json").read_text())["baseline"] == BEFORE
    with pytest.raises(ValueError, match="name must be one of"):
        make_campaign(tmp_path / "x", "synthetic-ab-later")
