"""A campaign of iperf 2 and netperf captures goes through ``azlatency import`` and the report
helpers pick its runs up: netperf's RR latency in ``latency_percentiles`` (from its ``-v 2``
histogram, or its printed percentiles), iperf 2's and netperf STREAM's throughput in
``throughput_table`` (issue 40)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from azlatency import report
from azlatency.campaign import load
from azlatency.cli import main

FX = Path(__file__).resolve().parents[1] / "fixtures"
FILES = {
    "netperf/netperf--2.7.1-linux-j-v2-OMNI-T-TCP-d-RR-o-pkb.txt": "az1-az2/tcp_rr-pkb.txt",
    "netperf/netperf--2.7.1-linux-j-TCP_RR-O-columns.txt": "az1-az2/tcp_rr-columns.txt",
    "netperf/netperf--2.7.1-linux-TCP_STREAM-classic.txt": "az1-az2/tcp_stream.txt",
    "iperf2/iperf2--2.2.1-linux-c-i1-tcp.txt": "az1-az2/iperf-client.txt",
    "iperf2/iperf2--2.1.8-linux-s-i1-e-u-udp.txt": "az1-az2/iperf-udp-server.txt",
}
CAMPAIGN_YAML = """\
name: tools-a-veth
defaults:
  region: westeurope
hosts:
  client-vm: {ip: 10.77.40.1, zone: 1}
  server-vm: {ip: 10.77.40.2, zone: 2}
rules:
  - glob: "az1-az2/*"
    set: {scenario: veth pair}
"""


@pytest.fixture(scope="module")
def tables(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("campaign")
    raw = tmp / "raw" / "tools-a-veth"
    for src, dst in FILES.items():
        (raw / dst).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(FX / src, raw / dst)
    (raw / "campaign.yaml").write_text(CAMPAIGN_YAML)
    res = CliRunner().invoke(
        main,
        ["import", str(raw), "--out", str(tmp / "processed"), "--workers", "1", "--json"],
        catch_exceptions=False,
    )
    assert res.exit_code == 0, res.output
    files = {f["path"]: f["status"] for f in json.loads(res.output)["files"]}
    assert files.pop("campaign.yaml") == "campaign"
    assert set(files.values()) == {"imported"} and len(files) == len(FILES), files
    return load("tools-a-veth", tmp / "processed")


def test_zones_from_the_host_inventory(tables):
    runs = tables.runs.set_index("source_path")
    assert set(runs["dst_zone"]) == {"2"}  # every run names the server's address
    # the PKB run names its own end (-L 10.77.40.1), iperf 2 both ends; classic netperf
    # banners say 0.0.0.0 for the local end: no source zone there
    assert runs.loc["az1-az2/tcp_rr-pkb.txt", "src_zone"] == "1"
    assert runs.loc["az1-az2/iperf-client.txt", "src_zone"] == "1"
    assert set(tables.runs["tool"]) == {"iperf2", "netperf"}


def test_netperf_rr_latency_in_latency_percentiles(tables):
    lat = report.latency_percentiles(tables)
    netperf = lat[lat["tool"] == "netperf"]
    assert set(netperf["basis"]) == {"rtt"}
    sources = set(netperf["source"])
    # the -v 2 histogram (PKB run) and the printed -O percentiles (the other run)
    assert sources == {"histogram", "reported"}
    printed = netperf[netperf["source"] == "reported"].set_index("stat")["estimate"]
    # "4944.41 Trans/s 202.12 1255.34 15 20 41 4666 49601": mean, std, min, p50, p90, p99, max
    assert (printed["p50"], printed["p99"], printed["mean"]) == (20, 4666, 202.12)
    hist = netperf[(netperf["source"] == "histogram") & (netperf["stat"] == "p50")].iloc[0]
    # 13203 transactions; TEN_USEC holds 6235 in [10, 20) and 5386 in [20, 30): the median's
    # bin is [20, 30), whose top edge it was; the run printed '50th Percentile Latency
    # Microseconds' 20, inside it: the figure, exact, the interval the bins'
    assert (hist["estimate"], hist["ci_low"], hist["ci_high"]) == (20.0, 20.0, 30.0)
    assert hist["note"].startswith("printed by the tool, inside its bin")
    assert not (lat["tool"] == "iperf2").any()  # one-way interval means are not rtt


def test_throughput_table(tables):
    tp = report.throughput_table(tables).set_index("tool")
    assert set(tp.index) == {"iperf2", "netperf"}
    stream = tp.loc["netperf"]
    assert stream["reported_bps"] == 1497.08e6 and stream["side"] == "sender"
    iperf = report.throughput_table(tables)
    iperf = iperf[iperf["tool"] == "iperf2"].set_index("side")
    # the client's per-interval rates (two) give the estimate; the UDP server is the receiver
    assert set(iperf.index) == {"sender", "receiver"}
    assert iperf.loc["sender", "reported_bps"] == pytest.approx(3.23e9)
    assert iperf.loc["receiver", "reported_bps"] == pytest.approx(10.5e6)
    assert set(iperf["dst_zone"]) == {"2"}
