"""The quality list on real logs from ../shared/corpus, and where the data root is."""

from __future__ import annotations

import shutil

from azlatency import campaign, paths
from tests.campaign.conftest import RAW
from tests.conftest import CORPUS as CORPUS_DIR
from tests.conftest import corpus, needs_shared

CORPUS = [
    ("ping", "ping--linux-iputils-loss-interleaved-stats-pipe--csc458-a2.txt"),
    ("ping", "ping--windows-fr-embedded-in-notes--lucasvellinpatche.md"),
    ("iperf3", "iperf3--text-udp-client-interrupted--freekds-logvisualizer.txt"),
    ("sockperf", "sockperf--full-rtt-log-ansi--virtualclient.txt"),
]


@needs_shared
def test_loss_censored_and_incomplete_runs_are_listed(tmp_path):
    raw = tmp_path / "raw" / "corpus"
    raw.mkdir(parents=True)
    for tool, name in CORPUS:  # copies in a scratch folder, never into the repository
        shutil.copyfile(corpus(tool, name), raw / name)
    report = campaign.import_campaign(raw, root=tmp_path / "processed", workers=1)
    assert set(report.files.status) == {"imported"}
    q = report.quality
    found = {(p.split("--")[1], i) for p, i in zip(q.source_path, q.issue)}
    # corpus/SOURCES.md: "Missing seqs 19-23 and a 33 % loss line"
    assert ("linux-iputils-loss-interleaved-stats-pipe", "loss") in found
    loss = q[q.source_path.str.contains("csc458") & (q.issue == "loss")].detail.tolist()
    assert loss == ["33% lost (20 of 30 received)"]
    # French ping.exe: "Réponse de ... temps<1ms" replies are censored at 1 ms
    assert ("windows-fr-embedded-in-notes", "censored") in found
    # ... and "Délai d'attente de la demande dépassé." at 100 % loss
    fr_loss = q[q.source_path.str.contains("windows-fr") & (q.issue == "loss")].detail
    assert fr_loss.str.startswith("100% lost").any()
    # iperf3 UDP client stopped with Ctrl-C, no "iperf Done."
    assert ("text-udp-client-interrupted", "incomplete") in found
    # no campaign.yaml: nothing says where these ran
    assert q[q.issue == "unlabelled_zones"].run_id.nunique() == report.counts["runs"]
    # the sockperf --full-rtt log keeps its 14,975 packets (SOURCES.md)
    t = campaign.load("corpus", tmp_path / "processed")
    sock = t.runs[t.runs.tool == "sockperf"].run_id.iloc[0]
    assert (t.samples.run_id == sock).sum() == 14975


def test_data_root_from_the_environment(tmp_path, monkeypatch):
    monkeypatch.setenv(paths.ENV_VAR, str(tmp_path / "data"))
    assert paths.raw_dir() == tmp_path / "data" / "raw"
    assert paths.processed_dir() == tmp_path / "data" / "processed"
    shutil.copytree(RAW / "seed004-echo-uksouth", tmp_path / "data" / "raw" / "echo")
    assert paths.campaigns() == ["echo"]
    monkeypatch.chdir(tmp_path)  # a name is looked up under the data root, not the cwd
    report = campaign.import_campaign("echo", workers=1)
    assert report.store == tmp_path / "data" / "processed" / "echo"
    assert len(campaign.load("echo").runs) == 18
    manifest = (report.store / "manifest.json").read_text()
    assert '"raw": "raw/echo"' in manifest  # recorded relative to the data root


def test_default_data_root_is_the_checkout(monkeypatch):
    monkeypatch.delenv(paths.ENV_VAR, raising=False)
    assert paths.raw_dir() == RAW
    assert set(paths.campaigns()) >= {"seed000-az-vs-as", "seed004-echo-uksouth"}


@needs_shared
def test_every_corpus_file_imports(tmp_path):
    # The whole corpus as one dump: every file is a real output of a tool we parse, so none
    # may land in "not imported".  BusyBox's "ping: sendto: Network unreachable" is an error
    # sample without a sequence number; the store's check used to refuse the whole file.
    raw = tmp_path / "raw" / "corpus"
    for path in CORPUS_DIR.rglob("*"):
        if path.is_file() and path.name != "SOURCES.md":
            dest = raw / path.relative_to(CORPUS_DIR)
            dest.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, dest)
    report = campaign.import_campaign(raw, root=tmp_path / "processed", workers=1)
    files = report.files
    assert (files.status == "imported").all(), files[files.status != "imported"]
    assert len(files) == sum(1 for p in raw.rglob("*") if p.is_file())
    tables = campaign.load("corpus", root=tmp_path / "processed")
    busybox = tables.runs[tables.runs.source_path.str.contains("busybox-alpine-unreachable")]
    s = tables.samples[tables.samples.run_id.isin(busybox.run_id)]
    assert s.status.tolist() == ["ok", "ok", "ok", "error"]
    assert s.seq.isna().tolist() == [False, False, False, True]
