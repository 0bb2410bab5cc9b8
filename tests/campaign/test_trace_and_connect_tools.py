"""A campaign of mtr, lagscope, PsPing and ncps outputs goes through ``azlatency import``;
the latency pages take lagscope's, PsPing's and ncps's round trips, never mtr's hops."""

from __future__ import annotations

import json
import shutil

from click.testing import CliRunner

from azlatency import campaign
from azlatency.cli import main
from azlatency.report import latency_percentiles, latency_runs
from tests._expected import FIXTURES

FILES = {
    "mtr/trace.json": "mtr/mtr--0.95-linux-json-o-LSDR-NBAW-VGJMXI-loss.json",
    "mtr/report.txt": "mtr/mtr--0.95-linux-r-c40-n-path-change.txt",
    "lagscope/percentiles.txt": "lagscope/lagscope--1.0.1-linux-n5000-P-percentiles.txt",
    "lagscope/histogram.txt": "lagscope/lagscope--1.0.1-linux-n2000-H-a40-l10-c12-histogram.txt",
    "lagscope/receiver.txt": "lagscope/lagscope--1.0.1-linux-r-receiver.txt",
    "ncps/client.txt": "ncps/ncps--1.1-linux-c-r2-N20-t5-client.txt",
    "ncps/server.txt": "ncps/ncps--1.1-linux-s-r2-t8-server.txt",
    "psping/connect.txt": "psping/psping--2.10-windows-n10-w2-h10-tcp-connect--kelvin-blog.txt",
    "psping/latency.txt": "psping/psping--2.10-windows-l1500-n300-h10-tcp-latency--kelvin-blog.txt",
}
CAMPAIGN = """\
defaults:
  region: testregion
hosts:
  client: {ip: 10.77.1.2, zone: 1}
  server: {ip: 10.77.2.2, zone: 2}
rules:
  - glob: "psping/*"
    set: {scenario: published}
  - glob: "lagscope/histogram.txt"
    set: {scenario: histogram}
"""


def test_campaign_imports_and_latency_pages_take_the_round_trips(tmp_path):
    raw = tmp_path / "raw" / "tools-c"
    for name, fixture in FILES.items():
        (raw / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(FIXTURES / fixture, raw / name)
    (raw / "campaign.yaml").write_text(CAMPAIGN)
    out = tmp_path / "processed"
    res = CliRunner().invoke(
        main, ["import", str(raw), "--out", str(out), "--workers", "1", "--json"]
    )
    assert res.exit_code == 0, res.output
    report = json.loads(res.output)
    status = {f["path"]: f["status"] for f in report["files"]}
    assert {p for p, s in status.items() if s == "imported"} == set(FILES) - {
        "lagscope/receiver.txt"
    }
    assert status["lagscope/receiver.txt"] != "imported"  # a receiver measures nothing

    t = campaign.load("tools-c", root=out)
    runs = t.runs.set_index("source_path")
    assert runs.loc["lagscope/percentiles.txt", "dst_zone"] == "2"
    assert runs.loc["ncps/client.txt", "dst_zone"] == "2"
    assert runs.loc["psping/connect.txt", "scenario"] == "published"
    # mtr's hops survive the store, each with its hop number
    hops = t.summaries[t.summaries["run_id"] == runs.loc["mtr/trace.json", "run_id"]]
    assert sorted(hops["hop"].dropna().unique().tolist()) == [1, 2] and hops["hop"].notna().all()

    assert set(latency_runs(t.runs)["tool"]) == {"lagscope", "ncps", "psping"}
    pct = latency_percentiles(t)
    assert set(pct["tool"]) == {"lagscope", "ncps", "psping"}
    assert (pct["basis"] == "rtt").all()
    # lagscope's printed percentile, a whole µs known to the next one; its histogram run, in
    # a scenario of its own, read from the bins
    lag = pct[(pct["tool"] == "lagscope") & (pct["stat"] == "p99")].set_index("source")
    assert lag.loc["reported", ["estimate", "bound_low", "bound_high"]].tolist() == [
        1064.0,
        1064.0,
        1065.0,
    ]
    assert lag.loc["histogram", ["bound_low", "bound_high"]].tolist() == [130.0, 140.0]
    ncps = pct[(pct["tool"] == "ncps") & (pct["stat"] == "p99.99")]
    assert sorted(ncps["estimate"]) == [122.0, 130.0]  # the client's and the server's SYN RTT
    ps = pct[(pct["tool"] == "psping") & (pct["stat"] == "min") & (pct["source"] == "samples")]
    assert ps["estimate"].tolist() == [38300.0]  # the connect probes after the warm-up
