"""A synthetic campaign goes through the normal import path: every file is found and parsed by
the right parser, with the right basis, no unexplained warning, the samples it was written
with, and the labels the inventory implies.  Same seed, same bytes."""

from __future__ import annotations

import hashlib
import json

import pandas as pd
import pytest
from click.testing import CliRunner

from azlatency.cli import main
from azlatency.synth import BUNDLED, Truth, ensure_bundled, make_campaign

from .conftest import SEED

pytestmark = pytest.mark.xdist_group("synth")

# Warnings the formats carry by nature, not a writer's mistake: Windows ping prints whole
# milliseconds (docs/tools/ping.md), the echo client's log reports its drop, and a latte tail
# packet beyond -hc lands in the open last bucket (docs/tools/latte.md).
EXPECTED_WARNINGS = (
    "Windows prints whole milliseconds",
    "TCP connection dropped at",
    "rtt max lies in the open-ended last bucket",
)


def _digest(folder) -> dict[str, str]:
    return {
        p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


def _by_file(truth: Truth) -> dict[str, dict]:
    return {f: run for run in truth.runs for f in run["files"]}


def test_every_file_is_imported(tiny):
    truth, tables, report = tiny
    skipped = report.not_imported
    assert sorted(skipped["path"]) == ["README.md", "truth.json"]
    assert set(skipped["reason"]) == {"ignored"}
    written = set(_by_file(truth))
    assert set(tables.runs["source_path"]) == written
    assert len(written) == len(report.files) - 3  # campaign.yaml, README.md, truth.json


def test_tool_and_basis_of_every_run(tiny):
    truth, tables, _ = tiny
    files = _by_file(truth)
    for run in tables.runs.itertuples():
        t = files[run.source_path]
        assert run.tool == t["tool"], run.source_path
        if t["tool"] in ("sockperf", "ping", "latte", "echo_csv"):
            assert run.latency_basis == t["latency_basis"], run.source_path
        elif t["tool"] == "qperf":  # tcp_bw has no latency; tcp_lat is half a round trip
            assert run.latency_basis == ("half_rtt" if run.mode == "tcp_lat" else None) or (
                run.mode == "tcp_bw" and run.latency_basis != run.latency_basis
            )
        else:
            assert run.latency_basis != run.latency_basis  # NaN: throughput tools
    variants = set(zip(tables.runs["tool"], tables.runs["parser_variant"]))
    assert {
        ("sockperf", "console"),
        ("sockperf", "console-3.8"),
        ("sockperf", "full-log"),
        ("ping", "iputils"),
        ("ping", "windows-en"),
        ("latte", "text-hist"),
        ("qperf", "text"),
        ("iperf3", "text"),
        ("iperf3", "json"),
        ("ntttcp", "console"),
        ("echo_csv", "csv"),
        ("echo_csv", "log"),
    } <= variants


def test_no_warning_beyond_what_the_formats_carry(tiny):
    _, tables, _ = tiny
    warned = tables.runs.dropna(subset=["warnings"])
    for run in warned.itertuples():
        assert run.warnings.startswith(EXPECTED_WARNINGS), (run.source_path, run.warnings)
    assert {"ping", "echo_csv"} <= set(warned["tool"]) <= {"ping", "echo_csv", "latte"}


def _expected_placement(a: dict, b: dict) -> str:
    if a["ppg"] and a["ppg"] == b["ppg"]:
        return "ppg"
    if a["availability_set"] and a["availability_set"] == b["availability_set"]:
        return "availability_set"
    return "same_zone" if a["zone"] == b["zone"] else "cross_zone"


def test_labels_come_out_of_the_inventory(tiny):
    truth, tables, _ = tiny
    files, hosts = _by_file(truth), truth.data["hosts"]
    for run in tables.runs.itertuples():
        t = files[run.source_path]
        src, dst = hosts[t["src_host"]], hosts[t["dst_host"]]
        assert (run.src_host, run.dst_host) == (src["name"], dst["name"]), run.source_path
        for side, host in (("src", src), ("dst", dst)):
            zone = getattr(run, f"{side}_zone")
            if host["zone"] is None:  # the availability set: regional VMs, no zone
                assert pd.isna(zone), run.source_path
            else:
                assert zone == host["zone"], run.source_path
        assert run.placement == _expected_placement(src, dst), run.source_path
        assert run.accelerated_networking == (src["accelerated"] and dst["accelerated"])
        assert run.vm_size == src["vm_size"] == dst["vm_size"]
        assert run.region == "westeurope"
        assert run.scenario == t["scenario"]
        assert json.loads(run.labels)["synthetic"] == "true"


def test_samples_are_the_ones_written(tiny):
    truth, tables, _ = tiny
    counts = tables.samples.groupby("run_id").size()
    runs = tables.runs.set_index("source_path")
    checked = 0
    for t in truth.runs:
        if t["tool"] not in ("sockperf", "ping", "latte") and t.get("session") not in (1, 2):
            continue
        run_id = runs.loc[t["samples_file"], "run_id"]
        assert counts.get(run_id, 0) == t["n_samples"], t["samples_file"]
        checked += 1
    assert checked > 60


def test_same_seed_same_bytes_other_seed_other_bytes(tiny, tmp_path):
    truth, _, _ = tiny
    again = make_campaign(tmp_path / "again", size="tiny", seed=SEED, name=truth.data["campaign"])
    assert _digest(again.path) == _digest(truth.path)
    other = make_campaign(
        tmp_path / "other", size="tiny", seed=SEED + 1, name=truth.data["campaign"]
    )
    mine, theirs = _digest(truth.path), _digest(other.path)
    assert mine.keys() == theirs.keys()
    assert sum(mine[k] != theirs[k] for k in mine) > 0.9 * len(mine)


def test_truth_json_says_synthetic_and_holds_the_effects(tiny):
    truth, _, _ = tiny
    data = json.loads((truth.path / "truth.json").read_text())
    assert data["synthetic"] is True and data["seed"] == SEED and data["size"] == "tiny"
    assert data["effects"]["asymmetric_pairs"] == ["1-2"]
    assert data["effects"]["symmetric_pairs"] == ["1-3", "2-3"]
    assert data["samples"]["total"] == sum(r["n_samples"] for r in data["runs"])
    assert "SYNTHETIC" in (truth.path / "README.md").read_text()
    assert "SYNTHETIC" in (truth.path / "campaign.yaml").read_text()


def test_cli_synth_writes_a_campaign(tmp_path):
    out = tmp_path / "cli"
    result = CliRunner().invoke(main, ["synth", str(out), "--size", "tiny", "--seed", "3"])
    assert result.exit_code == 0, result.output
    assert Truth.load(out).seed == 3
    again = CliRunner().invoke(main, ["synth", str(out), "--size", "tiny", "--seed", "3"])
    assert again.exit_code != 0 and "not empty" in again.output
    # `inspect` shows a log without a heading (its heading is NaN, not "": pandas 3 str)
    shown = CliRunner().invoke(main, ["inspect", str(out / "zone-matrix" / "vm-z1-a")])
    assert shown.exit_code == 0, shown.output
    assert "not read" not in shown.output and "Traceback" not in shown.output


def test_ensure_bundled_builds_once_and_never_touches_real_data(tmp_path):
    raw = tmp_path / "raw"
    built = ensure_bundled(raw, size="tiny", seed=1)
    assert built == raw / BUNDLED and Truth.load(built).size == "tiny"
    assert ensure_bundled(raw, size="tiny", seed=1) is None  # up to date: left alone
    assert not list(raw.glob(".*"))  # no staging folder left behind
    real = tmp_path / "other" / BUNDLED
    real.mkdir(parents=True)
    (real / "notes.md").write_text("measured by hand")
    with pytest.raises(FileExistsError):
        ensure_bundled(real.parent, size="tiny")
    assert (real / "notes.md").read_text() == "measured by hand"
