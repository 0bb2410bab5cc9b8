"""A small campaign of our irtt, fping, owping and twping captures (issue 40) through
``azlatency import``: every file read, the hosts' zones labelled from ``campaign.yaml``, the
round trips on the latency page, the one-way runs never taken for round trips."""

from __future__ import annotations

import gzip
import json
import shutil

import pandas as pd
from click.testing import CliRunner

from azlatency import campaign, units
from azlatency import report as rep
from azlatency.cli import main
from tests.conftest import FIXTURES

CAMPAIGN_YAML = """\
defaults: {region: westeurope}
hosts:
  toolsb-cli: {ip: 10.77.0.2, zone: 1}
  toolsb-srv: {ip: 10.77.0.1, zone: 2}
rules:
  - glob: "*"
    set: {src_host: toolsb-cli, scenario: veth pair}
"""
FILES = {
    "fping/fping--5.1-linux-c20-clean.txt": "fping.txt",
    "irtt/irtt--0.9.0-linux-i10ms-d3s-o-loss-console.txt": "irtt.txt",
    "owping/owping--5.2.3-linux-c50-v-loss.txt": "owping.txt",
    "twping/twping--5.2.3-linux-c30-v-clean.txt": "twping.txt",
}


def _campaign(tmp_path):
    raw = tmp_path / "raw" / "probes"
    raw.mkdir(parents=True)
    for src, name in FILES.items():
        shutil.copyfile(FIXTURES / src, raw / name)
    # irtt's default -o output is gzip'd JSON
    js = (FIXTURES / "irtt" / "irtt--0.9.0-linux-i50ms-d1s-o-stdout-loss.json").read_bytes()
    (raw / "irtt.json.gz").write_bytes(gzip.compress(js))
    (raw / "campaign.yaml").write_text(CAMPAIGN_YAML)
    res = CliRunner().invoke(
        main,
        ["import", str(raw), "--out", str(tmp_path / "processed"), "--workers", "1", "--json"],
        catch_exceptions=False,
    )
    assert res.exit_code == 0, res.output
    return json.loads(res.output), campaign.load("probes", root=tmp_path / "processed")


def test_the_probe_tools_import_with_their_zones_and_bases(tmp_path):
    report, t = _campaign(tmp_path)
    status = {f["path"]: f["status"] for f in report["files"]}
    assert {p: s for p, s in status.items() if s != "imported"} == {"campaign.yaml": "campaign"}
    runs = t.runs.set_index("source_path")
    assert sorted(t.runs.tool.unique()) == ["fping", "irtt", "owping", "twping"]
    assert runs.loc["irtt.json.gz", "parser_variant"] == "json"
    # the inventory labels both ends: client in zone 1, server (10.77.0.1) in zone 2
    assert set(t.runs.src_zone) == {"1"} and set(t.runs.dst_zone) == {"2"}
    assert set(t.runs.placement) == {"cross_zone"}
    ow = t.runs[t.runs.tool == "owping"]
    assert ow.direction.tolist() == ["forward", "reverse"]
    assert set(ow.latency_basis) == {"one_way"}
    bases = t.runs.groupby("tool").latency_basis.first().to_dict()
    assert bases == {"fping": "rtt", "irtt": "rtt", "owping": "one_way", "twping": "rtt"}


def test_round_trips_reach_the_latency_page_and_one_way_never_converts(tmp_path):
    _, t = _campaign(tmp_path)
    for basis in (None, "rtt"):
        pct = rep.latency_percentiles(t, basis=basis)
        assert {"fping", "irtt", "twping"} <= set(pct.tool), basis
        assert "owping" not in set(pct.tool), basis  # a one-way delay is no round trip
        assert set(pct.basis.dropna()) == {"rtt"}
        assert not (pct.converted_from == "one_way").any()
        p50 = pct[(pct.tool == "fping") & (pct.stat == "p50")]
        assert p50.source.tolist() == ["samples"]  # fping's replies, not its printed mean
    converted = units.to_rtt(t.samples, t.runs)
    one_way = t.samples.one_way_us.notna()
    assert converted.loc[one_way, "rtt_us"].isna().all()
    assert converted.one_way_us.equals(t.samples.one_way_us)
    summaries = units.to_rtt(t.summaries)
    assert pd.Series(summaries.metric == "one_way").sum() == (t.summaries.metric == "one_way").sum()
