"""One netperf test, whatever style printed it, and how it becomes a :class:`Run`.

The reader fills a :class:`Test`: the banner's facts, the result fields as omni selectors
(``tables.Fields``), ``-D`` interim lines and the ``-v 2`` histogram.  :func:`finish` names
the summaries of ``docs/tools/netperf.md``.

Basis: a request/response test (TCP_RR, UDP_RR, TCP_CRR, omni ``-d rr``) times each
transaction from the request's send to the response's arrival, a round trip (``rtt``).  The
"latency" selectors of a STREAM or MAERTS test time each send() or recv() call instead; they
are kept as ``send_time`` / ``recv_time`` and say nothing about the path's latency.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from ...errors import ParseError
from .._base import Run
from .._lines import decimal_to_ns, host_and_ip
from .lines import HIST_SCALE_US, TOOL, rate
from .tables import Fields, number_of

# Omni latency selectors -> statistic (microseconds; netperf prints P50/P90/P99/MIN/MAX as
# whole µs read off its histogram, MEAN and STDDEV with two decimals).
LATENCY_STATS = {
    "MEAN_LATENCY": "mean",
    "STDDEV_LATENCY": "std",
    "MIN_LATENCY": "min",
    "P50_LATENCY": "p50",
    "P90_LATENCY": "p90",
    "P99_LATENCY": "p99",
    "MAX_LATENCY": "max",
}
SOCKETS = {
    "LSS_SIZE_END": "local_send_socket_bytes",
    "LSR_SIZE_END": "local_recv_socket_bytes",
    "RSS_SIZE_END": "remote_send_socket_bytes",
    "RSR_SIZE_END": "remote_recv_socket_bytes",
}
# Read into run columns or summaries below; any other selector lands in labels as text.
_READ = {
    *LATENCY_STATS,
    *SOCKETS,
    "THROUGHPUT",
    "THROUGHPUT_UNITS",
    "TRANSACTION_RATE",
    "RT_LATENCY",
    "ELAPSED_TIME",
    "REMOTE_ELAPSED_TIME",
    "REQUEST_SIZE",
    "RESPONSE_SIZE",
    "LOCAL_SEND_SIZE",
    "REMOTE_SEND_SIZE",
    "LOCAL_TRANSPORT_RETRANS",
    "REMOTE_TRANSPORT_RETRANS",
    "TRANSPORT_MSS",
    "CONFIDENCE_ITERATION",
    "THROUGHPUT_CONFID",
    "LOCAL_CPU_UTIL",
    "REMOTE_CPU_UTIL",
    "LOCAL_SD",
    "REMOTE_SD",
    "SD_UNITS",
    "PROTOCOL",
    "DIRECTION",
    "LOCAL_SEND_THROUGHPUT",
    "REMOTE_RECV_THROUGHPUT",
    "LOCAL_SEND_CALLS",
    "REMOTE_RECV_CALLS",
    "SEND_ERRORS",
    "LOCAL_BYTES_XFERD",
    "OUTBOUND_THROUGHPUT",
    "INBOUND_THROUGHPUT",
    "VERBOSE_UNITS",
}


@dataclass
class Histogram:
    what: str
    line: int
    rows: dict[str, list[int]] = field(default_factory=dict)
    over: int | None = None
    total: int | None = None
    last: int = 0


@dataclass
class Test:
    facts: dict[str, Any]
    line_start: int
    line_end: int
    fields: Fields = field(default_factory=dict)
    interim: list[tuple[float, str, float, str, int]] = field(default_factory=list)
    histogram: Histogram | None = None
    result: bool = False  # the result table (or -o/-O/-k values) was read whole
    parts: list[str] = field(default_factory=list)  # trailing sections begun but cut
    warnings: list[str] = field(default_factory=list)
    errors: list[tuple[str, int]] = field(default_factory=list)


def _side(mode: str | None) -> str:
    """The side of the data flow the netperf end (this log) is on."""
    return "receiver" if mode == "maerts" else "sender"


def _latency_metric(mode: str | None) -> str | None:
    if mode in ("rr", "crr"):
        return "rtt"
    if mode == "stream":
        return "send_time"
    if mode == "maerts":
        return "recv_time"
    return None


def _mode(test: Test) -> str | None:
    mode = test.facts.get("mode")
    direction = test.fields.get("DIRECTION", ("", 0))[0].strip().lower()
    if mode is None and direction:
        mode = {"send|recv": "rr", "send": "stream", "recv": "maerts"}.get(direction)
    units = test.fields.get("THROUGHPUT_UNITS", ("", 0))[0]
    if mode is None and units.startswith(("Trans", "Tran")):
        mode = "rr"
    return mode


def _rates(test: Test, run: Run, mode: str | None, source: str | None) -> None:
    f = test.fields
    units = f.get("THROUGHPUT_UNITS", (None, 0))[0]
    side = _side(mode)
    for key, metric_side in (
        ("THROUGHPUT", side),
        ("LOCAL_SEND_THROUGHPUT", "sender"),
        ("REMOTE_RECV_THROUGHPUT", "receiver"),
    ):
        value = number_of(f, key, source)
        if value is None:
            continue
        unit = units or ("Trans/s" if mode in ("rr", "crr") else None)
        got = rate(value, unit) if unit else None
        if got is None:
            run.warnings.append(
                f"line {f[key][1]}: {key} {value} without a unit netperf names "
                f"({units!r}): not read"
            )
        elif got[0] == "trans":
            if "TRANSACTION_RATE" not in f:  # the same figure with three decimals
                run.add("transaction_rate", "mean", got[1], "trans/s")
        elif key == "THROUGHPUT" and mode == "stream" and "LOCAL_SEND_THROUGHPUT" in f:
            continue  # UDP_STREAM: the sending row says the same
        else:
            run.add(f"throughput_{metric_side}", "mean", got[1], "bps")
    run.add("transaction_rate", "mean", number_of(f, "TRANSACTION_RATE", source), "trans/s")
    # RR -v 2: the request and response payload carried per second, each way.
    unit = f.get("VERBOSE_UNITS", ("10^6bits", 0))[0]
    for key, metric in (
        ("OUTBOUND_THROUGHPUT", "payload_rate_outbound"),
        ("INBOUND_THROUGHPUT", "payload_rate_inbound"),
    ):
        value = number_of(f, key, source)
        got = rate(value, unit) if value is not None else None
        if got is not None and got[0] == "bps":
            run.add(metric, "mean", got[1], "bps")


def _latency(test: Test, run: Run, mode: str | None, source: str | None) -> None:
    metric = _latency_metric(mode)
    n = test.histogram.total if test.histogram and test.histogram.total else None
    for key, stat in LATENCY_STATS.items():
        value = number_of(test.fields, key, source)
        if value is None:
            continue
        if metric is None:
            run.warnings.append(f"{key} of an unknown test (not RR, STREAM, MAERTS): not read")
        elif value < 0:
            continue  # netperf prints -1 for a statistic it did not keep (no -j)
        else:
            run.add(metric, stat, value, "us", n=n)
    # RT_LATENCY / -v 2 "RoundTrip Latency usec/Tran": elapsed time over transactions, times
    # (1 + first burst) (nettest_omni.c), less the paced waits: netperf's mean round trip
    printed = number_of(test.fields, "RT_LATENCY", source)
    run.add("transaction_time", "mean", printed, "us")
    if metric == "rtt" and not any(s.metric == "rtt" and s.stat == "mean" for s in run.summaries):
        run.add("rtt", "mean", _mean_round_trip(test, run, mode) if printed is None else printed,
                "us")  # fmt: skip


def _mean_round_trip(test: Test, run: Run, mode: str | None) -> float | None:
    """netperf's own RT_LATENCY from a classic table that printed the transaction rate alone:
    10⁶ / rate × (1 + first burst) µs (a TCP_CRR: one transaction in flight, no burst).  Not
    from an omni banner (it never says the burst), nor a build that can pace (': interval' in
    the banner: a paced run's rate includes its waits, which netperf takes out)."""
    facts = test.facts
    rate = next((s.value for s in run.summaries if s.metric == "transaction_rate"), None)
    if not rate or not facts.get("classic_rr") or facts.get("intervals"):
        return None
    burst = 0 if mode == "crr" else facts.get("first_burst", 0)
    return 1e6 / rate * (1 + burst)


def _counts(test: Test, run: Run, source: str | None) -> None:
    f = test.fields
    for key, metric in (
        ("LOCAL_TRANSPORT_RETRANS", "retransmits"),
        ("REMOTE_TRANSPORT_RETRANS", "retransmits_remote"),
    ):
        value = number_of(f, key, source)
        if value is not None and value >= 0:  # -1: not available (UDP, other OSes)
            run.add(metric, "total", value, "count")
    for key, metric in (("LOCAL_CPU_UTIL", "cpu_host"), ("REMOTE_CPU_UTIL", "cpu_remote")):
        value = number_of(f, key, source)
        if value is not None and value >= 0:
            run.add(metric, "total", value, "pct")
    sd_unit = f.get("SD_UNITS", ("us/KB", 0))[0].strip() or "us/KB"
    for key, metric in (
        ("LOCAL_SD", "service_demand_host"),
        ("REMOTE_SD", "service_demand_remote"),
    ):
        value = number_of(f, key, source)
        if value is not None and value >= 0:
            run.add(metric, "mean", value, sd_unit)
    sent = number_of(f, "LOCAL_SEND_CALLS", source)
    got = number_of(f, "REMOTE_RECV_CALLS", source)
    if run.meta.get("protocol") == "udp" and run.meta.get("mode") == "stream":
        run.add("datagrams_sent", "total", sent, "count")
        run.add("datagrams_received", "total", got, "count")
        run.add("send_errors", "total", number_of(f, "SEND_ERRORS", source), "count")
        if sent is not None:
            run.meta["packets_sent"] = int(sent)
        if got is not None:
            run.meta["packets_received"] = int(got)
        if sent and got is not None and got <= sent:
            run.meta["loss_pct"] = 100.0 * (sent - got) / sent
    run.add("transfer_sender", "total", number_of(f, "LOCAL_BYTES_XFERD", source), "bytes")


def _meta(test: Test, mode: str | None, source: str | None) -> dict[str, Any]:
    facts, f = test.facts, test.fields
    proto = f.get("PROTOCOL", (facts.get("protocol") or "", 0))[0].strip().lower() or None
    meta: dict[str, Any] = {
        "tool": TOOL,
        "parser_variant": facts.get("variant"),
        "role": "client",
        "mode": mode,
        "protocol": proto,
        "direction": "reverse" if mode == "maerts" else "forward",
        "latency_basis": "rtt" if mode in ("rr", "crr") else None,
        "streams": 1,
        "complete": test.result and not test.parts,
    }
    size = number_of(f, "REQUEST_SIZE", source)
    for key in ("LOCAL_SEND_SIZE", "REMOTE_SEND_SIZE"):
        size = number_of(f, key, source) if size is None else size
    if size is not None:
        meta["msg_size_bytes"] = int(size)
    elapsed = number_of(f, "ELAPSED_TIME", source)
    if elapsed is not None:
        meta["duration_s"] = elapsed
    host, remote_ip = host_and_ip(facts.get("remote_host"), facts.get("remote_ip"))
    if remote_ip and remote_ip not in ("0.0.0.0", "::"):
        meta["dst_ip"] = remote_ip
    if host:
        meta["dst_host"] = host
    local = facts.get("local_ip") or facts.get("local_host")
    if local and local not in ("0.0.0.0", "::"):
        meta["src_ip"] = local
    if facts.get("remote_port"):
        meta["port"] = facts["remote_port"]
    return meta


def _labels(test: Test, source: str | None) -> dict[str, Any]:
    f, labels = test.fields, {}
    for key, name in SOCKETS.items():
        value = number_of(f, key, source)
        if value is not None and value >= 0:
            labels[name] = int(value)
    for key, name in (
        ("RESPONSE_SIZE", "response_size_bytes"),
        ("TRANSPORT_MSS", "tcp_mss_bytes"),
        ("CONFIDENCE_ITERATION", "confidence_iterations"),
    ):
        value = number_of(f, key, source)
        if value is not None and value > 0:
            labels[name] = int(value)
    width = number_of(f, "THROUGHPUT_CONFID", source)
    if width is not None and width >= 0:
        labels["throughput_confidence_width_pct"] = width
    if "confidence" in test.facts:
        level, target = test.facts["confidence"]
        labels["confidence_target"] = f"+/-{target}% @ {level}%"
    if test.facts.get("first_burst"):
        labels["first_burst"] = test.facts["first_burst"]
    for key, (text, _) in f.items():
        if key not in _READ:
            labels[f"omni_{key.lower()}"] = text.strip()
    return labels


def _interim(test: Test, run: Run, source: str | None) -> pd.DataFrame | None:
    """``-D``: bits/s intervals become samples; transaction rates (no sample column holds
    one) give computed min/max over the intervals."""
    rows, trans = [], []
    end = 0.0
    for k, (value, unit, secs, epoch, no) in enumerate(test.interim):
        got = rate(value, unit)
        if got is None:
            raise ParseError(TOOL, source, no, f"expected a netperf rate unit, got {unit!r}")
        start, end = end, end + secs
        if got[0] == "trans":
            trans.append(got[1])
            continue
        rows.append(
            {
                "seq": k,
                "kind": "interval",
                "status": "ok",
                "role": _side(run.meta.get("mode")),
                "time_ns": decimal_to_ns(epoch),
                "start_s": round(start, 3),
                "end_s": round(end, 3),
                "bits_per_second": got[1],
            }
        )
    if trans:
        kw = {"source": "computed", "n": len(trans)}
        run.add("transaction_rate", "min", min(trans), "trans/s", **kw)
        run.add("transaction_rate", "max", max(trans), "trans/s", **kw)
    return pd.DataFrame(rows) if rows else None


def _histogram(test: Test, run: Run) -> pd.DataFrame | None:
    """``-v 2``: the bins of a request/response histogram as samples (``kind =
    histogram``), only those with observations.  A row of scale ``s`` (1 µs for UNIT_USEC,
    10 µs for TEN_USEC, ...) and ``n`` cells covers [0, 10 s): cell ``j`` is
    [j, j + 1) × 10 s / n µs.  A histogram of send() calls (STREAM)
    is counted, not kept as samples: it is no latency of the path."""
    h = test.histogram
    if h is None:
        return None
    binned = sum(sum(r) for r in h.rows.values())
    metric = _latency_metric(run.meta.get("mode")) or "latency"
    if h.total is not None:
        run.add(metric, "count", h.total, "count")
        if binned + (h.over or 0) != h.total:
            run.warnings.append(
                f"line {h.line}: the histogram's bins hold {binned} observations (+{h.over} "
                f"beyond 100 s), HIST_TOTAL says {h.total}"
            )
    if metric != "rtt":
        return None
    rows = []
    for name, cells in h.rows.items():
        decade, n = HIST_SCALE_US[name] * 10, len(cells)
        for j, count in enumerate(cells):
            if count:
                rows.append(
                    {
                        "seq": len(rows),
                        "kind": "histogram",
                        "status": "ok",
                        "bin_low_us": j * decade / n,
                        "bin_high_us": (j + 1) * decade / n,
                        "count": count,
                    }
                )
    return pd.DataFrame(rows) if rows else None


def finish(test: Test, source: str | None) -> Run:
    mode = _mode(test)
    run = Run(line_start=test.line_start, line_end=test.line_end)
    run.meta.update(_meta(test, mode, source))
    run.warnings.extend(test.warnings)
    run.warnings.extend(f"line {no}: netperf: {msg}" for msg, no in test.errors)
    if not test.result:
        run.warnings.append(f"cut short: no result table after line {test.line_end}")
    run.warnings.extend(test.parts)
    _rates(test, run, mode, source)
    _latency(test, run, mode, source)
    _counts(test, run, source)
    labels = _labels(test, source)
    if labels:
        run.meta["labels"] = labels
    parts = [x for x in (_interim(test, run, source), _histogram(test, run)) if x is not None]
    if parts:
        frame = pd.concat(parts, ignore_index=True)
        frame["seq"] = range(len(frame))
        run.samples = frame
    return run
