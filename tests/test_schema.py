from __future__ import annotations

import pandas as pd
import pytest

from azlatency import schema
from azlatency.errors import SchemaError
from tests.conftest import ROOT


def test_frame_orders_and_types_columns():
    df = schema.frame(
        "summaries",
        [
            {
                "run_id": "a",
                "metric": "rtt",
                "stat": "p50",
                "value": 1,
                "unit": "us",
                "source": "reported",
            }
        ],
    )
    assert list(df.columns) == [c.name for c in schema.SUMMARY_COLUMNS]
    assert df["value"].dtype == "float64"
    schema.validate("summaries", df)


def test_undocumented_column_is_refused():
    with pytest.raises(SchemaError, match="undocumented"):
        schema.frame(
            "samples",
            {"run_id": ["a"], "seq": [1], "kind": ["packet"], "status": ["ok"], "latency": [1.0]},
        )


def test_integers_are_never_truncated():
    with pytest.raises(SchemaError, match="non-integer"):
        schema.frame(
            "samples", {"run_id": ["a"], "seq": [1.5], "kind": ["packet"], "status": ["ok"]}
        )


def test_records_are_typed_as_the_columns_of_their_frame():
    """Records (parsers' runs and summaries) take a direct path to each column's dtype; the
    frame equals the one built from ``DataFrame(records)``, whose columns go through the
    same coercion: ints in float columns, None, a key one record lacks, bools, numpy scalars
    and strings (coerced), timestamps, and the same errors."""
    import numpy as np

    base = {
        "run_id": "a",
        "source_path": "x.txt",
        "source_sha256": "0" * 64,
        "block": 0,
        "line_start": 1,
        "line_end": 9,
        "tool": "ping",
        "parser_variant": "linux",
    }
    rows = [
        {
            **base,
            "msg_size_bytes": 64,
            "duration_s": 10,
            "complete": True,
            "loss_pct": None,
            "start_time": "2026-03-02 08:00:59.998200",
        },
        {
            **base,
            "run_id": "b",
            "msg_size_bytes": None,
            "duration_s": 1.5,
            "complete": None,
            "packets_sent": np.int64(7),
            "loss_pct": np.float64(0.5),
            "port": 2**62,
        },
        {**base, "run_id": "c", "duration_s": "2.25", "complete": False, "src_ip": None},
    ]
    got = schema.frame("runs", rows)
    pd.testing.assert_frame_equal(got, schema.frame("runs", pd.DataFrame(rows)), check_exact=True)
    assert got["duration_s"].tolist() == [10.0, 1.5, 2.25]
    assert got["msg_size_bytes"].dtype == "Int64" and got["packets_sent"].tolist()[1] == 7
    assert got["port"].tolist()[1] == 2**62
    for bad, error in (
        ({"msg_size_bytes": 1.5}, "non-integer"),
        ({"latency": 1.0}, "undocumented columns \\['latency'\\]"),
    ):
        with pytest.raises(SchemaError, match=error):
            schema.frame("runs", [{**base, "complete": True, **bad}])
    with pytest.raises(OverflowError):  # the reader reports it with the file and line
        schema.frame("runs", [{**base, "complete": True, "port": 2**64}])


def test_bad_vocabulary_fails_validation():
    df = schema.frame(
        "samples", {"run_id": ["a"], "seq": [1], "kind": ["packet"], "status": ["fine"]}
    )
    with pytest.raises(SchemaError):
        schema.validate("samples", df)


def test_a_text_column_of_another_dtype_fails_validation():
    """str columns are checked apart from pandera (its string check cost 1 ms a column)."""
    df = schema.frame(
        "samples", {"run_id": ["a"], "seq": [1], "kind": ["packet"], "status": ["ok"]}
    )
    schema.validate("samples", df)
    with pytest.raises(SchemaError, match=r"not of dtype str: \['run_id \(object\)'\]"):
        schema.validate("samples", df.astype({"run_id": object}))


def test_nanosecond_timestamps_survive_exactly():
    ns = 1_700_000_000_123_456_789
    df = schema.frame(
        "samples",
        {
            "run_id": ["a"],
            "seq": [1],
            "kind": ["packet"],
            "status": ["ok"],
            "tx_time_ns": pd.array([ns], dtype="Int64"),
        },
    )
    assert int(df["tx_time_ns"].iloc[0]) == ns


def test_vocabulary_doc_lists_every_column():
    doc = (ROOT / "docs" / "vocabulary.md").read_text(encoding="utf-8")
    missing = [
        f"{t}.{c.name}"
        for t, cols in schema.TABLES.items()
        for c in cols
        if f"`{c.name}`" not in doc
    ]
    assert not missing, f"docs/vocabulary.md does not document: {missing}"
