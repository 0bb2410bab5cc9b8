"""Robust to real dumps (issue 37, item 10): a campaign assembled from a random mix of real
fixture and corpus files, with or without a campaign.yaml, goes through every page's claim
functions without a failure, and without labels each pair of endpoints the logs name is its
own group — never pooled with another target's runs."""

from __future__ import annotations

import shutil
from pathlib import Path

import pandas as pd
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from azlatency import report as rep
from azlatency.campaign import import_campaign
from tests._expected import fixture_files
from tests.conftest import CORPUS

SMALL = 64 * 1024  # the mixes stay quick: real files of every tool, none of the big ones
FILES = [f for f in fixture_files() if f.stat().st_size <= SMALL]
if CORPUS.is_dir():
    FILES += sorted(
        f
        for f in CORPUS.rglob("*")
        if f.is_file() and f.name != "SOURCES.md" and f.stat().st_size <= SMALL
    )
YAML = "defaults: {region: westeurope}\nrules:\n  - glob: '*ping*'\n    set: {scenario: ping}\n"


def every_page(tables, name: str, root: Path) -> dict[str, pd.DataFrame]:
    """What each page computes and says, from the package (the notebooks call the same)."""
    level = 0.95
    pct = rep.latency_percentiles(tables, level=level)
    head = rep.headline(pct)
    spectrum = rep.latency_percentiles(tables, level=level, quantiles=rep.SPECTRUM)
    ratios = rep.tail_ratios(tables, spectrum, level=level, rng=0)
    exceed = rep.exceedance(tables, spectrum, multiples=[2.0], level=level)
    medians = rep.zone_pair_medians(tables, level=level)
    asym = rep.asymmetry_table(tables, level=level, rng=0)
    tp = rep.throughput_table(tables, level=level)
    agree = rep.cross_tool(tables, level=level)
    overview = rep.import_overview(name, root)
    _, answer = rep.campaign_answer(tables, None, None, level=level, rng=0)
    rep.campaign_findings(overview, head, medians, asym, tp)
    return {
        "head": head,
        "answer": answer,
        "10": rep.distribution_claims(head, level=level),
        "11": rep.tail_claims(ratios, exceed, level=level),
        "20": rep.zone_matrix_claims(medians, asym, level=level, both_ways=rep.both_ways(medians)),
        "21": rep.contrast_claims(tables, level=level, rng=0),
        "22": rep.throughput_claims(tp),
        "30": rep.longrun_claims(rep.reported_segments(tables), [], pd.DataFrame(), level=level),
        "40": rep.cross_tool_claims(agree),
        "01": rep.import_claims(overview),
    }


@settings(
    max_examples=6,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    picks=st.lists(st.sampled_from(FILES), min_size=2, max_size=6, unique=True),
    with_yaml=st.booleans(),
)
def test_every_page_reads_any_mix_of_real_logs(tmp_path_factory, picks, with_yaml):
    root = tmp_path_factory.mktemp("dump")
    folder = root / "raw" / "mix"
    folder.mkdir(parents=True)
    for i, f in enumerate(picks):
        shutil.copyfile(f, folder / f"{i:02d}-{f.name}")
    if with_yaml:
        (folder / "campaign.yaml").write_text(YAML, encoding="utf-8")
    import_campaign(folder, root=root / "processed", workers=1)
    tables = rep.load_campaigns("mix", root)
    pages = every_page(tables, "mix", root)
    for page, claims in pages.items():
        if page != "head":
            assert claims["text"].notna().all(), page  # every claim has its words
    # a label names one group: two targets' runs never share one (a page groups by label)
    head = pages["head"]
    assert not head["label"].duplicated().any(), list(head["label"])


def test_two_pings_to_two_targets_are_two_groups(tmp_path):
    pick = [
        f
        for f in fixture_files()
        if f.name
        in (
            "ping--iputils-20221126-linux-D-c5-timestamps.txt",
            "ping--iputils-20221126-linux-6-c4-ipv6.txt",
        )
    ]
    assert len(pick) == 2
    folder = tmp_path / "raw" / "two"
    folder.mkdir(parents=True)
    for f in pick:
        shutil.copyfile(f, folder / f.name)
    import_campaign(folder, root=tmp_path / "processed", workers=1)
    tables = rep.load_campaigns("two", tmp_path)
    head = rep.headline(rep.latency_percentiles(tables))
    assert len(head) == 2 and head["n_runs"].tolist() == [1, 1]
    assert not head["note"].fillna("").str.contains("across").any()
