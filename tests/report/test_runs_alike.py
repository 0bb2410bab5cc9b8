"""Contrasts of two or more runs a side whose runs are alike, and groups with one end's zone
known (real pings filed by placement with rules; tests/fixtures/ping/SOURCES.md)."""

from __future__ import annotations

from azlatency import report as rep
from tests.report._fixture_campaign import import_fixtures

P = "ping/ping--iputils-20250605-33-linux-LANG-"
YAML = """rules:
  - glob: "avset/*"
    set: {placement: availability_set}
  - glob: "xz/*"
    set: {placement: cross_zone, src_zone: 1, dst_zone: 2}
"""
# two runs a side, each side's medians alike (52 and 52 µs; 55 and 55 µs)
FILES = {
    P + "cs_CZ-c5.txt": "avset/c.txt",
    P + "ja_JP-c5.txt": "avset/d.txt",
    P + "zh_CN-c5.txt": "xz/e.txt",
    P + "uk_UA-c5.txt": "xz/f.txt",
}


def test_runs_alike_are_not_one_run_a_side(tmp_path):
    # 'cross-zone is 1.06× availability set (...; one run a side: no test across runs)' of two
    # runs a side: no test because each side's runs have one median, not for want of runs
    t = import_fixtures(tmp_path, "alike", FILES, YAML)
    (claim,) = rep.contrast_claims(t, factors=["placement"], rng=0).to_dict("records")
    assert claim["text"].endswith(
        "; 2 vs 2 runs, each side's runs alike: no run-to-run variation to test)."
    )
    assert (claim["n_runs_a"], claim["n_runs_b"]) == (2, 2)


def test_a_group_with_one_ends_zone_is_labelled_by_it(tmp_path):
    # a rule puts the far end (10.77.40.2) in zone 1 (a proximity placement group within
    # it); the availability set's runs to it know that end's zone alone: page 10 labelled
    # them 'availability_set · zone nan→1 · ping'
    yaml = YAML.replace(
        '"xz/*"\n    set: {placement: cross_zone, src_zone: 1, dst_zone: 2}',
        '"ppg/*"\n    set: {placement: ppg, src_zone: 1, dst_zone: 1}',
    )
    files = {k: v.replace("xz/", "ppg/") for k, v in FILES.items()}
    t = import_fixtures(tmp_path, "ends", files, yaml)
    labels = set(rep.headline(rep.latency_percentiles(t))["label"])
    assert labels == {"availability_set · to zone 1 · ping", "ppg · zone 1→1 · ping"}
