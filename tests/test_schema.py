from __future__ import annotations

import pandas as pd
import pytest

from azlatency import schema
from azlatency.errors import SchemaError
from tests.conftest import ROOT


def test_frame_orders_and_types_columns():
    df = schema.frame("summaries", [{"run_id": "a", "metric": "rtt", "stat": "p50",
                                     "value": 1, "unit": "us", "source": "reported"}])
    assert list(df.columns) == [c.name for c in schema.SUMMARY_COLUMNS]
    assert df["value"].dtype == "float64"
    schema.validate("summaries", df)


def test_undocumented_column_is_refused():
    with pytest.raises(SchemaError, match="undocumented"):
        schema.frame("samples", {"run_id": ["a"], "seq": [1], "kind": ["packet"],
                                 "status": ["ok"], "latency": [1.0]})


def test_integers_are_never_truncated():
    with pytest.raises(SchemaError, match="non-integer"):
        schema.frame("samples", {"run_id": ["a"], "seq": [1.5], "kind": ["packet"],
                                 "status": ["ok"]})


def test_bad_vocabulary_fails_validation():
    df = schema.frame("samples", {"run_id": ["a"], "seq": [1], "kind": ["packet"],
                                  "status": ["fine"]})
    with pytest.raises(SchemaError):
        schema.validate("samples", df)


def test_nanosecond_timestamps_survive_exactly():
    ns = 1_700_000_000_123_456_789
    df = schema.frame("samples", {"run_id": ["a"], "seq": [1], "kind": ["packet"],
                                  "status": ["ok"], "tx_time_ns": pd.array([ns], dtype="Int64")})
    assert int(df["tx_time_ns"].iloc[0]) == ns


def test_vocabulary_doc_lists_every_column():
    doc = (ROOT / "docs" / "vocabulary.md").read_text(encoding="utf-8")
    missing = [f"{t}.{c.name}" for t, cols in schema.TABLES.items() for c in cols
               if f"`{c.name}`" not in doc]
    assert not missing, f"docs/vocabulary.md does not document: {missing}"
