"""The quality list on real logs from ../shared/corpus and tests/fixtures (one run read twice
among them), and where the data root is."""

from __future__ import annotations

import shutil

import pandas as pd

from azlatency import campaign, paths
from azlatency.campaign.quality import FIGURES, repeated
from tests.campaign.conftest import RAW
from tests.conftest import CORPUS as CORPUS_DIR
from tests.conftest import FIXTURES, corpus, needs_shared

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


PING_GAP = FIXTURES / "ping" / "ping--iputils-20221126-linux-c15-i0.2-gap-partial-loss.txt"


def _repeats(report) -> dict[str, str]:
    q = report.quality
    return dict(zip(q[q.issue == "repeated_run"].source_path, q[q.issue == "repeated_run"].detail))


def test_a_run_saved_twice_is_named_once_it_tells_enough(tmp_path):
    """One capture (15 pings, 5 lost, to the microsecond) as is, with CRLF line ends and
    with a prompt and its command above: the copies are in the tables and each is named
    as the first one again; three Windows pings of 1, 1 and 2 ms in two other files are two
    runs alike (they tell 2.5 bits, not the 24 the note needs)."""
    raw = tmp_path / "raw" / "twice"
    raw.mkdir(parents=True)
    text = PING_GAP.read_bytes()
    (raw / "a.txt").write_bytes(text)
    (raw / "b-crlf.txt").write_bytes(text.replace(b"\n", b"\r\n"))
    (raw / "c-prompt.txt").write_bytes(b"azureuser@vm1:~$ ping -c 15 -i 0.2 10.202.0.2\n" + text)
    for name in ("en-t-ctrl-c", "de-cp850-timeout-unreachable"):
        f = FIXTURES / "ping" / f"ping--win10-windows-{name}-transcribed.txt"
        shutil.copyfile(f, raw / f.name)
    report = campaign.import_campaign(raw, root=tmp_path / "processed", workers=1)
    assert report.counts["runs"] == 6  # nothing left out (the German file holds two runs)
    found = _repeats(report)
    assert sorted(found) == ["b-crlf.txt", "c-prompt.txt"]
    first = report.quality[report.quality.source_path == "a.txt"]
    assert "repeated_run" not in set(first.issue)
    assert found["b-crlf.txt"].startswith(
        "every figure (15 statistics, 15 samples in order) is run "
    )
    assert "'s of a.txt (line 1): one run read twice" in found["b-crlf.txt"]


def test_an_ethr_console_beside_its_log(tmp_path):
    """ethr's console and its -o log of one latency test (ethr v1.0.0, captured): each of the
    log's four batches is the console's again (nine percentiles to the nanosecond); of a
    bandwidth test the three figures to three digits tell too little to say."""
    raw = tmp_path / "raw" / "ethr"
    raw.mkdir(parents=True)
    for test in ("l-d3s", "b-d3s"):
        for form in ("console.txt", "log.jsonl"):
            name = f"ethr--1.0.0-linux-c-t-{test}-{form}"
            shutil.copyfile(FIXTURES / "ethr" / name, raw / name)
    report = campaign.import_campaign(raw, root=tmp_path / "processed", workers=1)
    q = report.quality[report.quality.issue == "repeated_run"]
    assert list(q.source_path) == ["ethr--1.0.0-linux-c-t-l-d3s-log.jsonl"] * 4
    assert [d.split(" (line ")[1].split(")")[0] for d in q.detail] == ["5", "10", "11", "12"]
    assert all("of ethr--1.0.0-linux-c-t-l-d3s-console.txt" in d for d in q.detail)


def test_runs_known_apart_are_not_one_run():
    """The same figures at another start, or the server's report of the client's transfer."""
    runs = pd.DataFrame(
        {
            "run_id": ["r1", "r2", "r3"],
            "tool": ["ethr"] * 3,
            "source_path": ["a", "b", "c"],
            "line_start": [1, 1, 1],
            "start_time": pd.to_datetime(["2026-01-01", "2026-01-02", None], utc=True),
            "role": ["client", "client", "server"],
        }
    )
    figures = pd.DataFrame(
        {
            "metric": "rtt",
            "stat": ["mean", "p50", "p99"] * 3,
            "value": [127.014, 124.105, 221.447] * 3,
            "unit": "us",
            "source": "reported",
            "run_id": [r for r in ("r1", "r2", "r3") for _ in range(3)],
        }
    ).reindex(columns=list(FIGURES))
    assert repeated(runs, figures) == []
    runs["start_time"] = pd.NaT
    runs["role"] = "client"
    assert [r["run_id"] for r in repeated(runs, figures)] == ["r2", "r3"]


def test_an_irtt_console_beside_its_json_is_one_run(tmp_path):
    """irtt's console ('rtt=207µs', three digits, a lost probe printed after the replies) and
    its -o JSON (nanoseconds) of one run, captured (tests/fixtures/irtt/SOURCES.md): no figure
    is the same to the letter, so both were runs and the pair's 294 probes were 588 (20.4 %
    lost of them) and one run two of a test across runs.  The console is named; a clean run
    of the same tool beside them is not."""
    raw = tmp_path / "raw" / "irtt"
    raw.mkdir(parents=True)
    for name in (
        "i10ms-d3s-o-loss-console.txt",
        "i10ms-d3s-o-loss-file.json",
        "i20ms-d2s-clean.txt",
    ):
        shutil.copyfile(FIXTURES / "irtt" / f"irtt--0.9.0-linux-{name}", raw / name)
    report = campaign.import_campaign(raw, root=tmp_path / "processed", workers=1)
    found = _repeats(report)
    assert list(found) == ["i10ms-d3s-o-loss-console.txt"]
    assert found["i10ms-d3s-o-loss-console.txt"].startswith("its 294 samples are run ")
    assert (
        "'s of i10ms-d3s-o-loss-file.json (line 1) printed to fewer digits"
        in (found["i10ms-d3s-o-loss-console.txt"])
    )


def test_samples_a_digit_apart_are_two_runs():
    """The console's values with one moved by more than half its printed digit, or the
    two runs told apart by their start: two runs."""
    from azlatency.campaign.quality import printed_again

    fine = [207.412, 176.049, 167.152, 169.3, 199.04, 160.26, 149.1, 185.33] * 4
    coarse = [207.0, 176.0, 167.0, 169.0, 199.0, 160.0, 149.0, 185.0] * 4
    runs = pd.DataFrame(
        {
            "run_id": ["fine", "coarse"],
            "tool": "irtt",
            "source_path": ["a.json", "a.txt"],
            "line_start": 1,
            "packets_sent": 32,
            "packets_received": 32,
        }
    )

    def samples_of(values):
        return lambda ids: pd.DataFrame(
            {
                "run_id": [r for r in ("fine", "coarse") for _ in range(32)],
                "seq": list(range(32)) * 2,
                "status": "ok",
                "rtt_us": fine + values,
            }
        )

    assert [r["run_id"] for r in printed_again(runs, samples_of(coarse))] == ["coarse"]
    moved = coarse[:5] + [coarse[5] + 1] + coarse[6:]
    assert printed_again(runs, samples_of(moved)) == []
    runs["start_time"] = pd.to_datetime(["2026-01-01", "2026-01-02"], utc=True)
    assert printed_again(runs, samples_of(coarse)) == []
