"""The reader joins the runs' samples shape by shape (reader.tables._Samples, issue 39): the
table, its run ids and the repeated-copy check are what joining them run by run gave."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import azlatency
from azlatency import schema
from azlatency.parsers import iperf3
from azlatency.parsers._lines import constant_str, int64_array, repeated_str
from azlatency.reader import tables as reader_tables
from tests.conftest import FIXTURES

FX = FIXTURES / "iperf3"
SERVER = (FX / "iperf3--3.12-linux-s-server-six-tests.txt").read_text()


def _run_by_run(text: str, tables) -> pd.DataFrame:
    """The samples table as the reader built it before: each run's frame with its run id
    inserted, joined in run order."""
    frames = []
    for run_id, run in zip(tables.runs["run_id"], iperf3.parse(text).runs, strict=True):
        if run.samples is not None and len(run.samples):
            frame = run.samples.copy()
            frame.insert(0, "run_id", run_id)
            frames.append(frame)
    return schema.frame("samples", pd.concat(frames, ignore_index=True))


def _long_client(seconds: int) -> str:
    lines = (FX / "iperf3--3.12-linux-c-tcp.txt").read_text().split("\n")
    body = [
        f"[  5] {k:6.2f}-{k + 1:<6.2f} sec  12.0 MBytes   {100 + k % 7} Mbits/sec    1    402 KBytes"
        for k in range(seconds)
    ]
    return "\n".join(lines[:3] + body + lines[5:])


@pytest.mark.parametrize("reorder_rows", [1_000_000, 0])
def test_shapes_taking_turns_keep_run_order_and_ids(monkeypatch, reorder_rows):
    monkeypatch.setattr(reader_tables, "_REORDER_ROWS", reorder_rows)
    text = SERVER * 3  # six tests of four sample shapes, three times
    got = azlatency.read(text, tool="iperf3")
    assert len(got.runs) == 18
    pd.testing.assert_frame_equal(got.samples, _run_by_run(text, got), check_exact=True)
    first = got.samples.groupby("run_id", sort=False).size()
    assert list(first.index) == list(got.runs["run_id"][got.runs["run_id"].isin(first.index)])


def test_repeated_copies_are_said_for_short_and_long_runs():
    long = _long_client(2100)  # past 2,000 rows: its ends are hashed
    text = SERVER + long + "\n" + SERVER + long
    got = azlatency.read(text, tool="iperf3")
    warned = got.runs["warnings"].fillna("").str.contains("a repeated copy")
    assert len(got.runs) == 14
    assert not warned[:7].any() and warned[7:].all()  # as run by run (before issue 39)
    assert (
        got.runs["warnings"]
        .iloc[13]
        .endswith("the same figures as the run at lines 91-2201: a repeated copy? (both read)")
    )
    assert got.samples["run_id"].value_counts()[got.runs["run_id"][6]] == 2100


def test_a_long_runs_ends_hash_as_their_rows():
    n = 2500  # the ends are its rows 0-999 and 1500-2499
    samples = pd.DataFrame(
        {
            "seq": int64_array(np.arange(n, dtype=np.int64)),
            "kind": constant_str("packet", n),
            "rtt_us": np.linspace(10.0, 99.0, n),
        }
    )
    ends = reader_tables._ends(samples)
    assert list(ends["seq"]) == [*range(1000), *range(1500, 2500)]
    by_position = samples.iloc[np.r_[0:1000, -1000:0]]
    assert np.array_equal(reader_tables._row_hashes(ends), reader_tables._row_hashes(by_position))


def test_repeated_str():
    col = repeated_str(["a", "bb", "c"], [2, 0, 3])
    assert col.tolist() == ["a", "a", "c", "c", "c"]
    assert col.dtype == pd.StringDtype("pyarrow", na_value=float("nan"))
    # long runs are constant_str's shared chunks, short ones between them one array
    ids, counts = ["r1", "r2", "r3", "r4"], [1500, 3, 2_100_000, 7]
    big = repeated_str(ids, counts)
    assert len(big) == sum(counts) and big.dtype == col.dtype
    assert big[1499] == "r1" and big[1500] == "r2" and big[1503] == "r3" and big[-1] == "r4"
    assert big[-8] == "r3" and big[1502] == "r2"
    chunks = big.__arrow_array__().chunks
    assert len(chunks) == 1 + 1 + 3 + 1  # r1, r2, r3 in CONSTANT_CHUNK pieces, r4


def test_runs_sharing_one_frame_are_joined_as_that_frame(monkeypatch):
    """A server log's tests share a frame per shape (``Run.share``): the reader takes each
    whole, no run's rows cut out and joined again, and the table is the run-by-run one."""
    calls = []
    real = pd.concat

    def concat(frames, *args, **kwargs):
        calls.append(len(frames))
        return real(frames, *args, **kwargs)

    monkeypatch.setattr(reader_tables.pd, "concat", concat)
    text = SERVER * 3
    got = azlatency.read(text, tool="iperf3")
    assert calls and max(calls) <= 4  # the four shapes' frames; 18 runs' rows before
    pd.testing.assert_frame_equal(got.samples, _run_by_run(text, got), check_exact=True)
