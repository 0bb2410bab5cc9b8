"""A run read straight from its row groups (``_series.read_series``, the DuckDB engine's path
for a large input's file) gives the rows of ``series`` on the run in measurement order:
stretches out of order are put back by ``seq``, statuses and NULLs flag the observations as
``observations()`` does, and a run whose order needs file order is left to ``group_rows``."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from azlatency.campaign.engines import _series
from azlatency.stats import intervals as iv

KW = {"quantiles": [0.5, 0.9, 0.99], "level": 0.95, "dependence": "auto"}


def _write(path, seq, rtt, status, group_rows):
    """One run's rows as a samples file holds them: status dictionary-encoded, the row
    groups ``group_rows`` long."""
    tbl = pa.table(
        {
            "run_id": pa.array(["r1"] * len(seq)),
            "seq": pa.array(seq, pa.int64()),
            "status": pa.array(status, pa.string()),
            "rtt_us": pa.array(rtt, pa.float64()),
        }
    )
    pq.write_table(tbl, path, row_group_size=group_rows)
    md = pq.read_metadata(path)
    return [(path, g, md.row_group(g).num_rows) for g in range(md.num_row_groups)]


def _rows(stats):
    return pd.DataFrame(iv.stat_rows(stats, {"run_id": "r1"}, KW["quantiles"]))


def _series_of(seq, rtt, status):
    """``series`` of the run put in seq order by hand, observations flagged by hand."""
    order = np.argsort(seq)
    v = np.array([np.nan if x is None else x for x in rtt], dtype=float)[order]
    ok = np.array([s == "ok" for s in status])[order] & np.isfinite(v)
    return _series.series(ok, v, KW)


def test_row_groups_out_of_order_are_read_in_seq_order(tmp_path):
    rng = np.random.default_rng(7)
    n = 3000
    seq = np.arange(n)
    # the second and first thousand swapped, and a stretch reversed inside the last one
    seq = np.concatenate([seq[1000:2000], seq[:1000], seq[2000:2500][::-1], seq[2500:]])
    rtt = np.round(50 + rng.gamma(2.0, 5.0, n), 3).tolist()
    status = ["ok"] * n
    for i in (5, 700, 2999):
        status[i] = "lost"
    status[10] = None
    rtt[20] = None  # an ok row without a value is not an observation
    rtt[30] = float("inf")
    groups = _write(tmp_path / "part-0.parquet", seq, rtt, status, 1000)
    assert len(groups) == 3
    got = _series.read_series(groups, "rtt_us", KW)
    want = _series_of(seq, rtt, status)
    assert got["count"]["estimate"] == n - 6 == want["count"]["estimate"]
    pd.testing.assert_frame_equal(_rows(got), _rows(want))


def test_status_read_as_a_dictionary_flags_as_strings_do():
    status = pa.chunked_array(
        [
            pa.array(["ok", None, "lost", "ok"]).dictionary_encode(),
            pa.array(["late", "ok"]).dictionary_encode(),
        ]
    )
    assert _series._is_ok(status).tolist() == [True, False, False, True, False, True]
    assert _series._is_ok(status.cast(pa.string())).tolist() == _series._is_ok(status).tolist()


@pytest.mark.parametrize(
    "chunks, want",
    [
        ([["ok", "ok"], ["ok"]], [True, True, True]),  # one word, "ok": no lookup
        ([["ok", None], ["ok"]], [True, False, True]),  # a NULL among them
        ([["ok", "ok"], ["lost"]], [True, True, False]),  # another word in one chunk
    ],
)
def test_a_status_of_ok_alone_flags_every_row(chunks, want):
    status = pa.chunked_array([pa.array(c).dictionary_encode() for c in chunks])
    assert _series._is_ok(status).tolist() == want
    assert _series._is_ok(status.cast(pa.string())).tolist() == want


@pytest.mark.parametrize("why", ["repeated seq", "NULL seq", "no seq column"])
def test_a_run_whose_order_needs_file_order_is_left_to_group_rows(tmp_path, why):
    seq = list(range(400))
    if why == "repeated seq":
        seq[300] = 299
    if why == "NULL seq":
        seq[0] = None
    groups = _write(
        tmp_path / "part-0.parquet", seq, [1.0 + i % 7 for i in range(400)], ["ok"] * 400, 100
    )
    if why == "no seq column":
        pq.write_table(
            pq.read_table(groups[0][0]).drop_columns(["seq"]), groups[0][0], row_group_size=100
        )
    assert _series.read_series(groups, "rtt_us", KW) is None


def test_row_groups_whose_footer_says_all_ok_are_read_without_status(tmp_path, monkeypatch):
    """Row groups whose status statistics are min = max = "ok" with no NULL are all
    observations where the value is finite: status is not read for them, and the rows are
    those of the run read with it.  A NULL, another word, or no statistics: status is read."""
    rng = np.random.default_rng(9)
    n = 2000
    seq = np.arange(n)
    rtt = np.round(50 + rng.gamma(2.0, 5.0, n), 3).tolist()
    rtt[40] = None
    status = ["ok"] * n
    groups = _write(tmp_path / "ok.parquet", seq, rtt, status, 500)
    pf = pq.ParquetFile(groups[0][0])
    assert _series._all_ok(pf, [0, 1, 2, 3])
    read = []
    real = pq.ParquetFile.read_row_groups

    def spy(self, gs, columns=None, **kw):
        read.append(list(columns))
        return real(self, gs, columns=columns, **kw)

    monkeypatch.setattr(pq.ParquetFile, "read_row_groups", spy)
    got = _series.read_series(groups, "rtt_us", KW)
    assert read == [["rtt_us", "seq"]]
    pd.testing.assert_frame_equal(_rows(got), _rows(_series_of(seq, rtt, status)))

    status[1700] = "lost"
    status[10] = None
    mixed = _write(tmp_path / "mixed.parquet", seq, rtt, status, 500)
    pf = pq.ParquetFile(mixed[0][0])
    assert _series._all_ok(pf, [1, 2]) and not _series._all_ok(pf, [0, 1, 2])
    assert not _series._all_ok(pf, [3])
    read.clear()
    got = _series.read_series(mixed, "rtt_us", KW)
    assert read == [["rtt_us", "status", "seq"]]
    assert got["count"]["estimate"] == n - 3
    pd.testing.assert_frame_equal(_rows(got), _rows(_series_of(seq, rtt, status)))
    tbl = pq.read_table(groups[0][0])
    pq.write_table(tbl, tmp_path / "nostats.parquet", row_group_size=500, write_statistics=False)
    assert not _series._all_ok(pq.ParquetFile(tmp_path / "nostats.parquet"), [0])
