"""The three tables — ``runs``, ``samples``, ``summaries`` — their columns, dtypes and units.

Column names carry their unit as a suffix (``_us``, ``_s``, ``_ns``, ``_bytes``, ``_pct``,
``bits_per_second``).  Every parser's output is built with :func:`frame` and checked with
:func:`validate`; ``docs/vocabulary.md`` documents the same columns (a test keeps the two in
step).  Only ``required`` columns must be present: a tool adds the sample columns it has.
"""

from __future__ import annotations

import functools
import math
import re
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa

from .errors import ParseError, SchemaError

FORMAT_VERSION = 2  # 2: the store is a partitioned dataset (docs/store.md)

# Vocabulary (docs/vocabulary.md explains each).
LATENCY_BASES = ("rtt", "half_rtt", "one_way")
SOURCES = ("reported", "computed")


def pct_label(q: float) -> str:
    """0.999 → ``'p99.9'``; 0.5 → ``'p50'`` (the vocabulary's stat names)."""
    text = f"{q * 100:.6f}".rstrip("0").rstrip(".")
    return f"p{text}"


SAMPLE_STATUSES = ("ok", "timeout", "duplicate", "error", "omitted", "censored", "lost")
SAMPLE_KINDS = ("packet", "reply", "probe", "interval", "histogram", "thread", "record", "hop")


@dataclass(frozen=True)
class Column:
    name: str
    dtype: str  # pandas dtype name
    description: str
    required: bool = False


def _c(name: str, dtype: str, description: str, required: bool = False) -> Column:
    return Column(name, dtype, description, required)


RUN_COLUMNS: tuple[Column, ...] = (
    _c("run_id", "str", "stable id: sha256 of the source (12 hex) - block - run in block", True),
    _c("campaign", "str", "campaign name (folder under data/raw), empty for ad-hoc reads"),
    _c("source_path", "str", "file the run came from, relative to the raw root", True),
    _c("source_sha256", "str", "sha256 of the source file's bytes", True),
    _c("encoding", "str", "encoding the source was decoded with"),
    _c("block", "Int64", "position of the output block within the file (0-based)", True),
    _c("line_start", "Int64", "first line of the run in the source file (1-based)", True),
    _c("line_end", "Int64", "last line of the run in the source file (1-based, inclusive)", True),
    _c("heading", "str", "nearest document heading above the block (scenario label)"),
    _c("context", "str", "last prose line before the block (e.g. 'Sender:')"),
    _c("tool", "str", "tool that wrote the output (registry name)", True),
    _c("tool_version", "str", "version the output states, if any"),
    _c("parser_variant", "str", "dialect the parser recognised (e.g. 'console-3.8', 'json')", True),
    _c("command", "str", "command line, when the log shows it"),
    _c("prompt_host", "str", "host name in the shell prompt before the command"),
    _c("os", "str", "operating system family that wrote the output (linux, windows, macos, ...)"),
    _c("language", "str", "language of the output when localised (en, de, fr, es, ja, zh)"),
    _c("role", "str", "client or server side of the measurement"),
    _c("mode", "str", "tool mode (ping-pong, under-load, throughput, tcp_lat, ...)"),
    _c("protocol", "str", "tcp, udp, icmp, icmpv6, rdma, ..."),
    _c("msg_size_bytes", "Int64", "message / payload size in bytes"),
    _c("duration_s", "float64", "measured duration in seconds"),
    _c("streams", "Int64", "parallel streams / threads / connections"),
    _c("direction", "str", "forward, reverse or bidir (throughput tools)"),
    _c("latency_basis", "str", "rtt, half_rtt or one_way for the run's latency numbers"),
    _c("src_host", "str", "host that ran the client"),
    _c("dst_host", "str", "host that ran the server / was targeted"),
    _c("src_ip", "str", "client address"),
    _c("dst_ip", "str", "server / target address"),
    _c("port", "Int64", "server port"),
    _c("start_time", "datetime64[ns, UTC]", "when the run started, if the log says"),
    _c("region", "str", "cloud region (campaign metadata)"),
    _c("src_zone", "str", "availability zone of the client (campaign metadata)"),
    _c("dst_zone", "str", "availability zone of the server (campaign metadata)"),
    _c(
        "zone_pair",
        "str",
        "zones of the two ends, lower first ('1-3'), also where which end ran the client "
        "is unknown (then src_zone and dst_zone are empty)",
    ),
    _c("placement", "str", "placement of the pair: zone, availability_set, ppg, ... (metadata)"),
    _c("vm_size", "str", "VM size (campaign metadata)"),
    _c("accelerated_networking", "boolean", "accelerated networking on/off (metadata)"),
    _c("scenario", "str", "scenario label (metadata or heading)"),
    _c("labels", "str", "free labels as a JSON object"),
    _c(
        "execution",
        "str",
        "the tool execution this run is a part (window) of; runs sharing "
        "one are never replicates; empty: the run is a whole execution",
    ),
    _c("complete", "boolean", "the tool finished and printed its summary", True),
    _c("warmup_excluded", "boolean", "the tool left its warm-up out of the statistics"),
    _c("packets_sent", "Int64", "messages / echo requests sent"),
    _c("packets_received", "Int64", "messages / replies received"),
    _c("duplicates", "Int64", "duplicated replies (ping DUP!, sockperf duplicated)"),
    _c("dropped", "Int64", "sockperf dropped messages"),
    _c("out_of_order", "Int64", "out-of-order messages"),
    _c("errors", "Int64", "ICMP errors / failed probes"),
    _c("loss_pct", "float64", "loss in percent as printed or computed"),
    _c("warnings", "str", "parser warnings and skipped lines, '; '-joined"),
)

SAMPLE_COLUMNS: tuple[Column, ...] = (
    _c("run_id", "str", "run this observation belongs to", True),
    _c("seq", "Int64", "sequence number (packet, icmp_seq, probe, interval index)", True),
    _c("kind", "str", "packet, reply, probe, interval, histogram, thread, record, hop", True),
    _c("status", "str", "ok, timeout, duplicate, error, omitted, censored, lost", True),
    _c("stream", "str", "stream / thread id ('SUM' for iperf3 sums)"),
    _c("role", "str", "sender or receiver side of an interval"),
    _c("time_ns", "Int64", "UTC time of the observation in integer ns since the epoch"),
    _c("tx_time_ns", "Int64", "send time, integer ns (sockperf txTime, echo send_time_ns)"),
    _c("rx_time_ns", "Int64", "receive time, integer ns"),
    _c("start_s", "float64", "interval start, seconds from the run's start"),
    _c("end_s", "float64", "interval end, seconds from the run's start"),
    _c("rtt_us", "float64", "round-trip time, µs"),
    _c("half_rtt_us", "float64", "half round trip (one-way estimate), µs"),
    _c("one_way_us", "float64", "one-way delay, sender clock to receiver clock, µs"),
    _c("send_delay_us", "float64", "one-way delay of a probe's request (client → server), µs"),
    _c("receive_delay_us", "float64", "one-way delay of a probe's reply (server → client), µs"),
    _c("ipdv_us", "float64", "delay variation against the previous probe (RFC 3393), µs"),
    _c("censor_high_us", "float64", "upper bound of a censored latency (Windows 'time<1ms')"),
    _c("bin_low_us", "float64", "histogram bin lower bound, µs"),
    _c("bin_high_us", "float64", "histogram bin upper bound, µs"),
    _c("count", "Int64", "observations in a histogram bin"),
    _c("bytes", "Int64", "bytes transferred in the interval"),
    _c("bits_per_second", "float64", "throughput in the interval, bits/s"),
    _c("retransmits", "Int64", "TCP retransmits in the interval"),
    _c("cwnd_bytes", "Int64", "TCP congestion window, bytes"),
    _c("tcp_rtt_us", "float64", "kernel-smoothed TCP RTT, µs"),
    _c("tcp_rttvar_us", "float64", "kernel TCP RTT variance, µs"),
    _c("jitter_us", "float64", "UDP jitter as the tool computes it (iperf: RFC 3550), µs"),
    _c("lost_packets", "Int64", "UDP datagrams lost in the interval"),
    _c("packets", "Int64", "UDP datagrams in the interval / packets in a record"),
    _c("ttl", "Int64", "IP TTL of a reply"),
    _c("payload_bytes", "Int64", "bytes in the reply"),
    _c("message", "str", "error text of a failed observation (ICMP error, timeout text)"),
    _c("host", "str", "address or name that answered: a hop of a traced path (mtr)"),
    _c(
        "connections_per_second",
        "float64",
        "TCP connections opened per second in the interval (ncps Conn/s)",
    ),
)

SUMMARY_COLUMNS: tuple[Column, ...] = (
    _c("run_id", "str", "run the statistic describes", True),
    _c("metric", "str", "what is measured: rtt, half_rtt, throughput_receiver, ...", True),
    _c("stat", "str", "count, mean, std, min, max, p50, p99.9, ci_low, mdev, ...", True),
    _c("value", "float64", "the number, in `unit`", True),
    _c("unit", "str", "us, bps, bytes, pct, count, s, ...", True),
    _c("source", "str", "reported (printed by the tool) or computed (from samples)", True),
    _c("level", "float64", "confidence level of ci_low/ci_high (0.99 for 99%)"),
    _c("bound_low", "float64", "the value is only known to be >= this (histogram bin)"),
    _c("bound_high", "float64", "the value is only known to be <= this (histogram bin)"),
    _c("n", "Int64", "observations behind the statistic, when known"),
    _c("hop", "Int64", "hop (TTL) of a traced path the statistic is of (mtr); empty: end to end"),
)

TABLES = {"runs": RUN_COLUMNS, "samples": SAMPLE_COLUMNS, "summaries": SUMMARY_COLUMNS}
COLUMNS = {name: {c.name: c for c in cols} for name, cols in TABLES.items()}


def _coerce(series: pd.Series, dtype: str) -> pd.Series:
    if series.dtype == _DTYPES[dtype]:
        return series
    if dtype == "datetime64[ns, UTC]":
        return pd.to_datetime(series, utc=True).astype("datetime64[ns, UTC]")
    if dtype == "float64" and series.dtype == object:
        series = pd.to_numeric(series)
    if dtype == "Int64" and series.dtype.kind == "f":
        # Never silently truncate: integers that arrived as floats must be whole.
        bad = series.notna() & (series != series.round())
        if bad.any():
            raise SchemaError(f"column {series.name!r}: non-integer value {series[bad].iloc[0]!r}")
    return series.astype(dtype)


def frame(
    table: str, data: dict[str, Any] | list[dict[str, Any]] | pd.DataFrame, *, partial: bool = False
) -> pd.DataFrame:
    """Build a frame of ``table`` from columns or records, with documented dtypes and order.

    Unknown columns are an error (they would be undocumented); missing required columns are
    an error; optional columns are added only for ``runs`` and ``summaries`` (samples keep
    just the columns the tool gives).  ``partial=True``: ``data`` is a selection of columns
    (``campaign.load(columns=...)``), so neither missing nor absent optional columns are added.
    """
    cols = COLUMNS[table]
    records = isinstance(data, list) and all(type(r) is dict for r in data)
    df = None if records else data if isinstance(data, pd.DataFrame) else pd.DataFrame(data)
    names = list(dict.fromkeys(k for r in data for k in r)) if records else list(df.columns)
    unknown = [c for c in names if c not in cols]
    if unknown:
        raise SchemaError(f"{table}: undocumented columns {unknown}")
    if records:
        # Every parser's runs and summaries: each column straight to its dtype (_records).
        # A run's 49-column frame cost 8.6 ms through a DataFrame of objects, now 2.
        n, columns = len(data), _records(data, set(names), cols)
    else:
        n = len(df)
        columns = {
            name: _coerce(df[name], col.dtype).array  # by position: no index to align
            for name, col in cols.items()
            if name in df.columns
        }
    out = {}
    for name, col in cols.items():
        if name in columns:
            out[name] = columns[name]
        elif partial:
            continue
        elif col.required and n:
            raise SchemaError(f"{table}: missing required column {name!r}")
        elif table != "samples" or col.required:
            out[name] = _missing(col.dtype, n)
    # copy=False: under copy-on-write the columns are shared safely; a copy would double the
    # memory of a 10-million-row samples frame.
    return pd.DataFrame(out, index=pd.RangeIndex(n), copy=False)


# The Python types a column's values may have to be made into its dtype directly (None: a
# missing value); anything else goes through _coerce as a frame's column would.
_PLAIN: dict[str, tuple[type, ...]] = {
    "str": (str,),
    "Int64": (int,),
    "float64": (int, float),
    "boolean": (bool,),
}
_DTYPES = {
    d: pd.api.types.pandas_dtype(d)
    for d in ("str", "Int64", "float64", "boolean", "datetime64[ns, UTC]")
}


def _records(rows: list[dict[str, Any]], names: set[str], cols: dict[str, Column]) -> dict:
    """Columns of ``rows`` (records) by name, each of its documented dtype: the same values
    as ``_coerce`` of a ``DataFrame(rows)`` column (a key a row lacks is missing there)."""
    out = {}
    for name, col in cols.items():
        if name not in names:
            continue
        values = [r.get(name) for r in rows]
        plain = _PLAIN.get(col.dtype)
        if (
            plain is not None
            and all(v is None or type(v) in plain for v in values)
            and (col.dtype != "Int64" or all(v is None or -(2**63) <= v < 2**63 for v in values))
        ):
            out[name] = _PLAIN_ARRAY[col.dtype](values)
        else:
            out[name] = _coerce(pd.Series(values, name=name), col.dtype).array
    return out


# Each dtype's array straight from its plain values (None: missing): the same array as
# pd.array(values, dtype), built in a quarter of its time (25-40 µs a column, 49 columns a
# run: a third of reading a small log went to it).
def _str_array(values: list) -> pd.api.extensions.ExtensionArray:
    chunked = pa.chunked_array([pa.array(values, pa.large_string())])
    return pd.arrays.ArrowStringArray(chunked, dtype=_DTYPES["str"])


def _masked(values: list, kind: type, fill: Any) -> tuple[np.ndarray, np.ndarray]:
    mask = np.fromiter((v is None for v in values), bool, len(values))
    data = np.fromiter((fill if v is None else v for v in values), kind, len(values))
    return data, mask


_PLAIN_ARRAY = {
    "str": _str_array,
    "Int64": lambda v: pd.arrays.IntegerArray(*_masked(v, np.int64, 0)),
    "float64": lambda v: np.fromiter((np.nan if x is None else x for x in v), float, len(v)),
    "boolean": lambda v: pd.arrays.BooleanArray(*_masked(v, bool, False)),
}


def _missing(dtype: str, n: int):
    """``n`` missing values of ``dtype``: a copy of one array built once per length (a
    copy takes 1 µs, building one 50)."""
    return _missing_template(dtype, n).copy() if n <= 4096 else _missing_built(dtype, n)


def _missing_built(dtype: str, n: int):
    return pd.array([None] * n, dtype=_DTYPES[dtype])


_missing_template = functools.lru_cache(maxsize=512)(_missing_built)


def empty(table: str) -> pd.DataFrame:
    """A zero-row frame of ``table`` with every documented (or every required) column: a
    copy of one built once (building the runs table's 49 typed columns took 12 ms, as long
    as reading a small log; half the files a parser meets leave a table empty)."""
    return _empty(table).copy()


@functools.cache
def _empty(table: str) -> pd.DataFrame:
    cols = TABLES[table]
    keep = [c for c in cols if table != "samples" or c.required]
    return pd.DataFrame({c.name: pd.Series([], dtype=c.dtype) for c in keep})


def _pandera_schema(table: str):
    import pandera.pandas as pda  # not pa: that is pyarrow here

    checks = {
        ("runs", "latency_basis"): pda.Check.isin(LATENCY_BASES),
        ("summaries", "source"): pda.Check.isin(SOURCES),
        ("summaries", "level"): pda.Check.in_range(0, 1, include_min=False, include_max=False),
        ("samples", "status"): pda.Check.isin(SAMPLE_STATUSES),
        ("samples", "kind"): pda.Check.isin(SAMPLE_KINDS),
        ("runs", "loss_pct"): pda.Check.in_range(0, 100),
    }
    # str columns' dtype is checked in validate(): pandera 0.35 checks a string dtype value by
    # value and formats an empty table of failures for each column that passes (1 ms a
    # column, two thirds of validating a parsed log).
    columns = {
        c.name: pda.Column(
            None if c.dtype == "str" else c.dtype,
            checks=checks.get((table, c.name)),
            nullable=not (c.required and c.name in ("run_id", "tool", "metric", "stat", "unit")),
            required=c.required or table != "samples",
        )
        for c in TABLES[table]
    }
    unique = ["run_id"] if table == "runs" else None
    return pda.DataFrameSchema(columns, strict=True, unique=unique, coerce=False)


_SCHEMAS: dict[str, Any] = {}


def pandera_schema(table: str):
    """The pandera schema of ``table`` (built once, lazily: pandera is slow to import)."""
    if table not in _SCHEMAS:
        _SCHEMAS[table] = _pandera_schema(table)
    return _SCHEMAS[table]


def validate(table: str, df: pd.DataFrame) -> pd.DataFrame:
    """Check ``df`` against the documented table; raise :class:`SchemaError` naming the fault."""
    import pandera.errors

    text = [c.name for c in TABLES[table] if c.dtype == "str" and c.name in df.columns]
    if wrong := [f"{c} ({df[c].dtype})" for c in text if df[c].dtype != _DTYPES["str"]]:
        raise SchemaError(f"{table} does not match the schema: not of dtype str: {wrong}")
    try:
        return pandera_schema(table).validate(df, lazy=True)
    except pandera.errors.SchemaErrors as exc:
        cases = exc.failure_cases.head(10).to_string()
        raise SchemaError(f"{table} does not match the schema:\n{cases}") from None


def execution_ids(runs: pd.DataFrame) -> pd.Series:
    """``run_id`` → the execution each run belongs to: its own id for a whole execution, the
    campaign and ``execution`` for a window of one.  Count these, not runs, wherever runs are
    replicates (a window of an 11-hour run is not a second run)."""
    ids = runs["run_id"].astype("string").to_numpy()
    if "execution" not in runs.columns:
        return pd.Series(ids, index=ids)
    # in Python, not as string columns: a report asks this of a few runs a hundred times a page
    part = runs["execution"].astype("string").to_numpy()
    camp = (
        runs["campaign"].astype("string").fillna("").to_numpy()
        if "campaign" in runs.columns
        else [""] * len(ids)
    )
    key = [i if p is pd.NA else f"exec:{c}/{p}" for i, p, c in zip(ids, part, camp, strict=True)]
    return pd.Series(np.array(key, dtype=object), index=ids)


@dataclass
class Tables:
    """The three tables (runs, samples, summaries), plus the blocks a lenient read had to
    skip (``problems``)."""

    runs: pd.DataFrame
    samples: pd.DataFrame
    summaries: pd.DataFrame
    problems: list[ParseError] = field(default_factory=list)

    def __iter__(self):  # allows ``runs, samples, summaries = read(...)``
        return iter((self.runs, self.samples, self.summaries))

    @classmethod
    def concat(cls, parts: list[Tables]) -> Tables:
        if not parts:
            return cls(empty("runs"), empty("samples"), empty("summaries"))
        return cls(
            _concat([p.runs for p in parts], "runs"),
            _concat([p.samples for p in parts], "samples"),
            _concat([p.summaries for p in parts], "summaries"),
            [e for p in parts for e in p.problems],
        )

    def validate(self) -> Tables:
        for name in ("runs", "samples", "summaries"):
            validate(name, getattr(self, name))
        return self


def _concat(frames: list[pd.DataFrame], table: str) -> pd.DataFrame:
    frames = [f for f in frames if len(f)]
    if not frames:
        return empty(table)
    if len(frames) == 1:
        return frames[0]
    out = pd.concat(frames, ignore_index=True)
    return frame(table, out)  # re-fix dtypes of columns absent from some parts


# ---------------------------------------------------------------------------------------------
# Plausibility: a printed value no tool can mean is not stored as a fact.

# A CPU percentage above 100 x this many cores is no machine's (iperf3 3.12 once printed a
# remote CPU of -6.7e19 %).
MAX_CORES = 1024


# Figures no tool prints below zero: a negative one is damage ('-5' for '5'), never a measure
# (a one-way delay, its halves and a delay variation may be: clocks apart, a later packet).
NEVER_NEGATIVE = {
    "samples": frozenset(
        ("seq", "time_ns", "tx_time_ns", "rx_time_ns", "start_s", "end_s",
         "rtt_us", "half_rtt_us", "censor_high_us", "count", "bytes", "bits_per_second",
         "retransmits", "cwnd_bytes", "tcp_rtt_us", "tcp_rttvar_us", "jitter_us", "lost_packets",
         "packets", "ttl", "payload_bytes", "connections_per_second")
    ),
    "runs": frozenset(
        ("msg_size_bytes", "duration_s", "streams", "port", "packets_sent", "packets_received",
         "duplicates", "dropped", "out_of_order", "errors")
    ),
}  # fmt: skip
_SIGNED_METRICS = re.compile(r"one_way|send_delay|receive_delay|ipdv|clock|offset|skew|drift")


def implausible(metric: str, stat: str, value: float, unit: str) -> str | None:
    """Why a summary value cannot be what its tool meant (a negative count, a percentage
    outside [0, 100 x cores], loss over 100 %), or None when it can."""
    if value != value:  # NaN: not printed, nothing to judge
        return None
    if value in (math.inf, -math.inf):  # 'inf' in a log, or a number beyond float64 ('1e400')
        return "not a finite number"
    if value < 0 and unit not in ("count", "bytes", "pct") and not _SIGNED_METRICS.match(metric):
        return "below zero"  # a latency, a spread, a rate or a time: '-5' for '5'
    if unit in ("count", "bytes") and value < 0:
        return f"a negative {unit}"
    if unit == "pct":
        top = 100.0 * MAX_CORES if "cpu" in metric else 100.0
        if not 0.0 <= value <= top:
            return f"a percentage outside [0, {top:g}]"
    return None


def moved_nothing(summaries: list) -> set[int]:
    """Indexes of reported throughputs of 0 beside a transfer of more than 0 bytes on the same
    side (``throughput_receiver`` and ``transfer_receiver``): the test moved data, so the 0
    is not its rate (an old iperf3 UDP server prints ``0.00 Bytes  0.00 bits/sec`` too)."""
    moved = {
        s.metric.removeprefix("transfer")
        for s in summaries
        if s.metric.startswith("transfer") and s.source == "reported" and s.value > 0
    }
    return {
        i
        for i, s in enumerate(summaries)
        if s.metric.startswith("throughput")
        and s.source == "reported"
        and s.value == 0
        and s.metric.removeprefix("throughput") in moved
    }
