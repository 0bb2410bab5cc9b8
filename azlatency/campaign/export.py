"""``azlatency export``: a campaign's runs and summaries for the tools users already run.

One tidy table of points (:func:`points`): every summary row (what the tool printed and what
azlatency computed) and every run-level count (loss, packets, duration), each with the run's
labels as tags and the unit in its name, and a timestamp where the run has one — its
``start_time``, else the time of its first timed sample (``ping -D``, echo probes, iperf3
JSON); a run without either has none, and nothing is made up for it.  Written as

* ``csv`` and ``ndjson``: the table itself (``name`` = metric and unit: ``rtt_us``,
  ``throughput_receiver_bits_per_second``; ``timestamp_ns`` integer nanoseconds UTC and
  ``time``, the same in ISO 8601);
* ``openmetrics``: one gauge family per name in Prometheus base units (``_seconds``,
  ``_bytes``, ``_bytes_per_second``, ``_ratio``, with a ``# UNIT`` line), labels from the
  tags, timestamps in whole seconds — the file passes ``promtool check metrics`` and backfills
  with ``promtool tsdb create-blocks-from openmetrics``;
* ``influx``: InfluxDB line protocol, one measurement per name, the tags, the field
  ``value``, nanosecond timestamps (``precision=ns``).

The time-series formats leave untimed runs out unless ``untimed="keep"`` (a backfill needs a
time on every sample), and :class:`Export` says how many.  Peers: PerfKitBenchmarker's
publishers (CSV, InfluxDB) and Prometheus' OpenMetrics backfill.
"""

from __future__ import annotations

import json
import math
import os
import re
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from ..schema import Tables
from .load import load

FORMATS = ("csv", "ndjson", "openmetrics", "influx")
# Run labels exported as tags (a free label `x` of runs.labels becomes `label_x`).
TAGS = (
    "campaign",
    "run_id",
    "tool",
    "tool_version",
    "parser_variant",
    "scenario",
    "src_zone",
    "dst_zone",
    "src_host",
    "dst_host",
    "placement",
    "vm_size",
    "accelerated_networking",
    "region",
    "protocol",
    "mode",
    "direction",
    "role",
    "latency_basis",
    "msg_size_bytes",
    "streams",
)
# Run columns exported as points: column -> (metric, unit).
RUN_VALUES = {
    "loss_pct": ("loss", "pct"),
    "duration_s": ("duration", "s"),
    "packets_sent": ("packets_sent", "count"),
    "packets_received": ("packets_received", "count"),
    "duplicates": ("duplicates", "count"),
    "dropped": ("dropped", "count"),
    "out_of_order": ("out_of_order", "count"),
    "errors": ("errors", "count"),
}
# The unit as a name suffix in the project's vocabulary (docs/vocabulary.md).
SUFFIX = {
    "bps": "bits_per_second",
    "bytes/s": "bytes_per_second",
    "io/s": "io_per_second",
    "msg/s": "messages_per_second",
}
# OpenMetrics: Prometheus base units (promtool lints "microseconds", "bits" and "_us").
BASE = {
    "ns": ("seconds", 1e-9),
    "us": ("seconds", 1e-6),
    "ms": ("seconds", 1e-3),
    "s": ("seconds", 1.0),
    "bytes": ("bytes", 1.0),
    "bps": ("bytes_per_second", 1 / 8),
    "bytes/s": ("bytes_per_second", 1.0),
    "pct": ("ratio", 1e-2),
    "io/s": ("operations_per_second", 1.0),
    "msg/s": ("messages_per_second", 1.0),
    "count": ("", 1.0),
}
# Suffixes OpenMetrics reserves for counters, histograms and summaries.
_RESERVED = ("_count", "_sum", "_bucket", "_total", "_created", "_info", "_gcount", "_gsum")


def suffix(unit: str) -> str:
    """A summary unit as a name suffix: ``us`` → ``us``, ``bps`` → ``bits_per_second``."""
    return SUFFIX.get(unit, re.sub(r"[^a-z0-9]+", "_", unit.lower()).strip("_") or "value")


def _run_times(tables: Tables) -> pd.Series:
    """run_id → integer ns UTC: the run's start_time, else its first timed sample."""
    runs = tables.runs
    start = pd.Series(pd.NA, index=runs["run_id"].astype(str), dtype="Int64")
    if "start_time" in runs.columns:
        st = pd.to_datetime(runs["start_time"], utc=True).dt.as_unit("ns")  # pandas 3 infers
        ok = st.notna().to_numpy()
        start.iloc[ok] = st[ok].astype("int64").to_numpy()  # ns since the epoch
    s = tables.samples
    if "time_ns" in s.columns and len(s):
        first = s.loc[s["time_ns"].notna()].groupby("run_id")["time_ns"].min()
        first.index = first.index.astype(str)
        missing = start.isna() & start.index.isin(first.index)
        start[missing] = first.reindex(start.index[missing]).to_numpy()
    return start


def _tags(runs: pd.DataFrame) -> pd.DataFrame:
    """run_id → its tags as strings (missing: <NA>), free scalar labels as ``label_<key>``."""
    cols = [c for c in TAGS if c in runs.columns]
    out = runs[cols].astype("string")
    if "labels" in runs.columns:
        free = [json.loads(x) if isinstance(x, str) and x else {} for x in runs["labels"]]
        extra = pd.DataFrame(
            [{k: v for k, v in d.items() if isinstance(v, str | int | float | bool)} for d in free],
            index=runs.index,
        )
        extra.columns = [_label_name(f"label_{c}") for c in extra.columns]
        out = pd.concat([out, extra.astype("string")], axis=1)
    return out.set_index(runs["run_id"].astype(str), drop=False)


def _label_name(name: str) -> str:
    name = re.sub(r"[^A-Za-z0-9_]", "_", name)
    return name if re.match(r"[A-Za-z_]", name) else f"_{name}"


def points(tables: Tables) -> pd.DataFrame:
    """The tidy table every format writes: one row per run and value (summaries, then the
    run-level counts): the tags, ``name`` (metric and unit), ``metric``, ``stat``, ``unit``,
    ``source`` (reported, computed, run), ``level``, ``value``, ``timestamp_ns`` and
    ``time`` (ISO 8601, UTC)."""
    runs = tables.runs
    s = tables.summaries[["run_id", "metric", "stat", "value", "unit", "source"]].copy()
    s["level"] = tables.summaries.get("level", np.nan)
    parts = [s]
    for col, (metric, unit) in RUN_VALUES.items():
        if col in runs.columns:
            v = runs[["run_id", col]].dropna(subset=[col])
            parts.append(
                pd.DataFrame(
                    {
                        "run_id": v["run_id"],
                        "metric": metric,
                        "stat": "value",
                        "value": v[col].astype(float),
                        "unit": unit,
                        "source": "run",
                        "level": np.nan,
                    }
                )  # fmt: skip
            )
    p = pd.concat(parts, ignore_index=True)
    p = p[np.isfinite(p["value"].astype(float))]
    p["run_id"] = p["run_id"].astype(str)
    p["name"] = p["metric"].astype(str) + "_" + p["unit"].astype(str).map(suffix)
    tags = _tags(runs)
    p = p.join(tags.drop(columns="run_id"), on="run_id")
    p["timestamp_ns"] = p["run_id"].map(_run_times(tables)).astype("Int64")
    # ISO 8601 to the nanosecond: exact where a reader turns integers with gaps into floats
    # (pandas' read_json does: 2**53 < 1.8e18 ns)
    when = pd.to_datetime(p["timestamp_ns"], unit="ns", utc=True)
    p["time"] = [t.isoformat() if pd.notna(t) else None for t in when]
    front = ["name", "metric", "stat", "unit", "value", "source", "level", "timestamp_ns", "time"]
    return p[[*tags.columns, *front]].reset_index(drop=True)


# ---------------------------------------------------------------------------------------------
# Formats


def _tag_columns(p: pd.DataFrame) -> list[str]:
    return [c for c in p.columns if c in TAGS or c.startswith("label_")]


def _om_escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")


def _num(x: float) -> str:
    """The shortest text that reads back as the same float (Prometheus and Influx keep it)."""
    return repr(float(x))


def _om_family(metric: str, unit: str) -> tuple[str, str, float]:
    base, factor = BASE.get(unit, (suffix(unit), 1.0))
    name = _label_name(f"azlatency_{metric}" + (f"_{base}" if base else ""))
    if name.endswith(_RESERVED):  # a gauge named like a counter or summary part
        name += "_value"
    return name, base, factor


def openmetrics(p: pd.DataFrame) -> str:
    """The points in the OpenMetrics text format (gauges, base units, ``# EOF``)."""
    tags = [*_tag_columns(p), "stat", "source", "level"]
    fams = [_om_family(m, u) for m, u in zip(p["metric"], p["unit"])]
    p = p.assign(_fam=[f[0] for f in fams], _unit=[f[1] for f in fams],
                 _v=p["value"].astype(float) * [f[2] for f in fams])  # fmt: skip
    # one sample per series: a row repeated in the summaries would be a duplicate sample
    p = p.drop_duplicates(["_fam", *[t for t in tags if t in p.columns]])
    lines = []
    for fam, g in p.groupby("_fam", sort=True):
        unit = g["_unit"].iloc[0]
        lines += [
            f"# TYPE {fam} gauge",
            *([f"# UNIT {fam} {unit}"] if unit else []),
            f"# HELP {fam} azlatency {g['metric'].iloc[0]} per run and statistic"
            + (f", in {unit}" if unit else ""),
        ]
        for r in g.to_dict("records"):
            labels = ",".join(
                f'{t}="{_om_escape(str(r[t]))}"'
                for t in tags
                if t in r and r[t] is not pd.NA and not _missing(r[t])
            )
            ts = "" if _missing(r["timestamp_ns"]) else f" {int(r['timestamp_ns']) // 10**9}"
            lines.append(f"{fam}{{{labels}}} {_num(r['_v'])}{ts}")
    return "\n".join([*lines, "# EOF"]) + "\n"


def _missing(v) -> bool:
    return v is None or v is pd.NA or (isinstance(v, float) and math.isnan(v))


def _influx_escape(text: str, *, measurement: bool = False) -> str:
    """Line protocol escapes commas, spaces (and in tags equals signs) with a backslash; a
    backslash before anything else is itself (InfluxDB 1.6 keeps ``a\\b`` as is).  A line
    break cannot be written: it becomes the two characters ``\\n``."""
    text = text.replace("\r\n", "\n").replace("\r", "\n").replace("\n", "\\n")
    text = text.replace(",", "\\,").replace(" ", "\\ ")
    return text if measurement else text.replace("=", "\\=")


def influx(p: pd.DataFrame) -> str:
    """The points as InfluxDB line protocol (``precision=ns``)."""
    tags = sorted([*_tag_columns(p), "stat", "source", "level"])  # sorted keys write fastest
    lines = []
    for r in p.to_dict("records"):
        kv = ",".join(
            f"{_influx_escape(t)}={_influx_escape(str(r[t]))}"
            for t in tags
            if not _missing(r.get(t)) and str(r[t]) != ""
        )
        ts = "" if _missing(r["timestamp_ns"]) else f" {int(r['timestamp_ns'])}"
        head = _influx_escape(str(r["name"]), measurement=True) + (f",{kv}" if kv else "")
        lines.append(f"{head} value={_num(r['value'])}{ts}")
    return "\n".join(lines) + ("\n" if lines else "")


def _plain(v):
    if _missing(v):
        return None
    return int(v) if isinstance(v, np.integer) else float(v) if isinstance(v, np.floating) else v


def ndjson(p: pd.DataFrame) -> str:
    """One JSON object per point; floats written to round-trip (pandas' ``to_json`` keeps 10
    significant digits), missing values as null."""
    cols = list(p.columns)
    return "".join(
        json.dumps(dict(zip(cols, map(_plain, row))), ensure_ascii=False, allow_nan=False) + "\n"
        for row in p.itertuples(index=False, name=None)
    )


@dataclass
class Export:
    """What :func:`export` wrote: the format, the rows, and the runs left out for want of a
    time (time-series formats, ``untimed="skip"``)."""

    format: str
    text: str
    rows: int
    untimed_runs: int
    untimed_left_out: bool


def export(
    campaign: str | os.PathLike[str],
    root: str | os.PathLike[str] | None = None,
    *,
    format: str,
    untimed: str = "skip",
) -> Export:
    """An imported campaign's points as ``format`` (one of :data:`FORMATS`); ``untimed``
    ("skip" or "keep") decides whether the time-series formats write runs without a time."""
    if format not in FORMATS:
        raise ValueError(f"format must be one of {', '.join(FORMATS)}, got {format!r}")
    if untimed not in ("skip", "keep"):
        raise ValueError(f"untimed must be 'skip' or 'keep', got {untimed!r}")
    tables = load(campaign, root, columns=["time_ns"])
    p = points(tables)
    timeless = p["timestamp_ns"].isna()
    n_untimed = int(p.loc[timeless, "run_id"].nunique())
    series = format in ("openmetrics", "influx")
    if series and untimed == "skip":
        p = p[~timeless]
    if format == "csv":
        text = p.to_csv(index=False)
    elif format == "ndjson":
        text = ndjson(p)
    else:
        text = openmetrics(p) if format == "openmetrics" else influx(p)
    return Export(format, text, len(p), n_untimed, series and untimed == "skip")


def write(result: Export, out: str | os.PathLike[str] | None) -> Path | None:
    """Write ``result`` to ``out`` (a file; None: standard output)."""
    if out is None or str(out) == "-":
        sys.stdout.write(result.text)
        return None
    path = Path(out)
    path.write_text(result.text, encoding="utf-8", newline="\n")
    return path
