"""ethr: from one test's records to runs (see ``ethr.py`` for the records, ``docs/tools/ethr.md``
for the rules).

A test becomes one run, except a latency test: each ``LatencyResult`` is a batch of ``-i``
round trips (1000 by default) with its own percentiles, and percentiles of different batches
cannot be merged, so each batch is a run; ``labels`` (``ethr_test``, ``batch``, ``batches``)
tie the batches of one test together.
"""

from __future__ import annotations

import re

import pandas as pd

from ...errors import ParseError
from .._base import Run
from .records import (
    _CLIENT_BANNER,
    _SERVER_BANNER,
    TOOL,
    Record,
    Test,
    duration_us,
    placeholder,
    rate,
    server_kind,
)

# Console rows inside INFO messages (ethr 1.0 client, corpus logs).
_ROW = re.compile(
    r"^\s*(?:\[\s*(?P<id>\w+)\s*\]\s+)?(?P<proto>TCP|UDP|ICMP)\s+(?P<a>\d+)-(?P<b>\d+)\s+sec\s+"
    r"(?P<bits>\S+)(?:\s+(?P<pkts>\S+))?\s*$"
)
_CONNECTED = re.compile(
    r"^\[\s*\w+\s*\] local (?P<ip>\S+) port \d+ connected to (?P<dst>\S+) port (?P<port>\d+)"
)
_PROBE = re.compile(
    r"^\[(?P<proto>tcp|udp|icmp)\] (?P<warm>\[warmup\] )?Connection "
    r"(?:from \S+ to \S+: (?P<dur>\S+)|to \S+: (?P<err>.+))$"
)
_CONNECT_STATS = re.compile(r"^\s*Sent = (\d+), Received = (\d+), Lost = (\d+)")
_LATENCY_START = re.compile(r"^Running latency test: (\d+), (\d+)")
_DONE_DURATION = re.compile(r"^Ethr done, duration: (\d+(?:\.\d+)?)s")
_MTR_ROW = re.compile(
    r"^\s*(?P<hop>\d+)\.\|--(?P<host>\S+)\s+(?P<sent>\d+)\s+(?P<recv>\d+)\s+"
    r"(?P<last>\S+)\s+(?P<avg>\S+)\s+(?P<best>\S+)\s+(?P<worst>\S+)\s*$"
)
# ethr -t tr: one probe a hop, ' 1.|--10.78.1.1 [router.azl.internal]      141.134us', or
# ' 3.|--???' (client.go tcpDiscoverHops; -t mtr prints these lines without a time first)
_TR_ROW = re.compile(
    r"^\s*(?P<hop>\d+)\.\|--(?:(?P<host>[^\s?]\S*)(?: \[[^\]]*\])?\s+"
    r"(?P<last>\d+(?:\.\d+)?(?:ns|us|µs|ms|s))|\?\?\?)\s*$"
)
# INFO messages whose digits become int64 values (ports, counts, hops, interval bounds that
# give packet counts): pattern, groups, what was expected.  ethr.parse checks every record
# against them at its line, so the int() calls below cannot meet a number beyond int64.
_INT_MESSAGES = (
    (_CLIENT_BANNER, ("port",), "'port: <n>'"),
    (_SERVER_BANNER, ("port",), "'Listening on port <n>'"),
    (_LATENCY_START, (1, 2), "'Running latency test: <iterations>, <bytes>'"),
    (_CONNECT_STATS, (1, 2, 3), "'Sent = <n>, Received = <n>, Lost = <n>'"),
    (_MTR_ROW, ("hop", "sent", "recv"), "'<hop>.|--<host> <sent> <received> ...'"),
    (_ROW, ("a", "b"), "'<from>-<to> sec'"),
)
_LONG_DIGITS = re.compile(r"\d{19}")  # shorter runs of digits always fit int64
_INT64 = (-(2**63), 2**63 - 1)


def int64_problem(rec: Record) -> str | None:
    """Why an INFO record cannot be read (a number beyond int64), or None."""
    msg = rec.message
    if rec.type != "INFO" or not _LONG_DIGITS.search(msg):
        return None
    for pattern, groups, what in _INT_MESSAGES:
        m = pattern.match(msg)
        if m:
            for g in groups:
                text = m.group(g)
                if text is not None and not _INT64[0] <= int(text) <= _INT64[1]:
                    return f"expected {what}, got {text!r}: out of range for int64"
            return None
    return None


# LatencyResult field -> summary stat (ethr's P999 is the 99.9th percentile).
# A LatencyResult's keys hold other statistics than they name: ethr (every version, 80c99bd of
# 2018 to 86e0704 of 2025) calls logLatency(remote, proto, avg, min, max, p50, ..., p9999) on a
# function declared logLatency(remoteIP, proto, avg, min, p50, p90, ..., p9999, max) (log.go;
# clientui.go and serverui.go), so "P50" holds the maximum, "P90" the median, ... "Max" the
# 99.99th percentile.  The console's table prints them in their right order (our captures of
# ethr v1.0.0 wrote both: tests/fixtures/ethr/SOURCES.md).
LATENCY_FIELDS = {
    "Avg": "mean",
    "Min": "min",
    "P50": "max",
    "P90": "p50",
    "P95": "p90",
    "P99": "p95",
    "P999": "p99",
    "P9999": "p99.9",
    "Max": "p99.99",
}
_ORDER = ("Min", "P90", "P95", "P99", "P999", "P9999", "Max", "P50")  # min ... p99.99, max


def build(test: Test, source: str | None, strict: bool) -> list[Run]:
    kind = _kind(test)
    builder = {"latency": _latency, "connect": _connect, "traceroute": _traceroute}.get(
        kind, _rates
    )
    return builder(test, kind, source, strict)


def _kind(test: Test) -> str:
    results = [r for r in test.records if r.type in ("TestResult", "LatencyResult")]
    if test.role == "server":
        if any(r.type == "LatencyResult" for r in results):
            return "latency"  # batches are the strongest evidence; never drop them
        kinds = [server_kind(r) for r in results]
        if len(kinds) > 1 and kinds[0] == "cps":
            kinds = kinds[1:]  # the connection-setup second of the test
        return max(set(kinds), key=kinds.count) if kinds else "unknown"
    msgs = [r.message for r in test.records if r.type == "INFO"]
    if any(m.startswith(("Tracing route", "Host: ")) for m in msgs):
        return "traceroute"
    if any(_PROBE.match(m) or m.startswith("TCP connect statistics") for m in msgs):
        return "connect"
    if any(_LATENCY_START.match(m) for m in msgs) or any(
        r.type == "LatencyResult" for r in results
    ):
        return "latency"
    headers = [m for m in msgs if "Interval" in m and "Bits/s" in m]
    if any("Pkts/s" in h and "ID" not in h for h in headers):
        return "pps"
    if any(not placeholder(r.data.get("ConnectionsPerSecond")) for r in results):
        return "cps"
    if results or headers:
        return "bandwidth"
    return "unknown"


def _run(test: Test, kind: str) -> Run:
    """A run with what every ethr run shares: role, target, time, errors, completion."""
    recs = test.records
    run = Run(line_start=recs[0].line, line_end=recs[-1].line, warnings=list(test.warnings))
    meta = run.meta
    meta.update(
        tool=TOOL,
        parser_variant=f"{test.form}-{test.role}",
        role=test.role,
        mode=None if kind == "unknown" else kind,
        start_time=_when(recs[0]),
        labels={"ethr_test": test.index},
    )
    if test.banner:
        host, ip = test.banner["host"].strip(), test.banner["ip"].strip()
        meta.update(dst_ip=ip, port=int(test.banner["port"]))
        if host and host != ip:
            meta["dst_host"] = host
    proto = next((r.data["Protocol"] for r in recs if r.data.get("Protocol")), None)
    if proto:
        meta["protocol"] = str(proto).lower()
    if test.role == "server":
        remote = next((r.data["RemoteAddr"] for r in recs if r.data.get("RemoteAddr")), None)
        meta.update(src_ip=remote, port=test.port)
    errors = [r for r in recs if r.type == "ERROR"]
    for r in errors:
        run.warnings.append(f"line {r.line}: ethr ERROR: {r.message}")
    interrupted = False
    for r in recs:
        msg = r.message
        if r.type == "INFO" and msg.startswith("Warning:"):
            nxt = next((x.message for x in recs if x.line > r.line and x.type == "INFO"), "")
            run.warnings.append(f"line {r.line}: ethr {msg} {nxt.strip()}".strip())
        m = _DONE_DURATION.match(msg)
        if m:
            meta["duration_s"] = float(m.group(1))
        if msg.startswith("Ethr done, received interrupt"):
            interrupted = True
            run.warnings.append(f"line {r.line}: test interrupted ({msg.strip()})")
        if r.type not in ("INFO", "ERROR", "TestResult", "LatencyResult"):
            run.warnings.append(f"line {r.line}: record of unknown type {r.type!r} not read")
    meta["complete"] = not errors and not interrupted
    return run


def _when(rec: Record) -> pd.Timestamp | None:
    """The record's time (None from a console, which prints none)."""
    return None if rec.time_ns is None else pd.Timestamp(rec.time_ns, unit="ns", tz="UTC")


def _copy(base: Run) -> Run:
    """A fresh run with ``base``'s facts (batches of one test share them; computed once)."""
    meta = dict(base.meta, labels=dict(base.meta["labels"]))
    return Run(
        meta=meta, line_start=base.line_start, line_end=base.line_end, warnings=list(base.warnings)
    )


def _value(rec: Record, key: str, parse, what: str, run: Run, source, strict) -> float | None:
    text = rec.data.get(key)
    if placeholder(None if text is None else str(text)):
        return None
    value = parse(str(text))
    if value is None:
        reason = f"expected {what} in {key}, got {text!r}"
        if strict:
            raise ParseError(TOOL, source, rec.line, reason)
        run.warnings.append(f"line {rec.line} skipped: {reason}")
    return value


# ---------------------------------------------------------------------------------------------
# Bandwidth, packets/s and connections/s: per-second TestResult records.


def _rates(test: Test, kind: str, source, strict) -> list[Run]:
    run = _run(test, kind)
    read = _RateRecords(test, kind, run, source, strict)
    for rec in test.records:
        if rec.type == "INFO":
            read.info(rec)
        elif rec.type == "TestResult":
            read.result(rec)
    if read.streams:
        run.meta["streams"] = len(read.streams)
    failed = not run.meta["complete"] and any(r.type == "ERROR" for r in test.records)
    if read.rows:
        frame = _frame(read.rows)
        frame["seq"] = range(len(frame))
        if failed:
            frame["status"] = "error"
        run.samples = frame
    if "duration_s" not in run.meta and read.n_results and not failed:
        run.meta["duration_s"] = float(read.n_results)  # one TestResult per second
    if not failed:
        _rate_stats(run, kind, test.role, read.values)
    if not read.n_results and not read.rows:
        run.meta["complete"] = False
        run.warnings.append("no results: the test produced no TestResult record")
    return [run]


class _RateRecords:
    """The per-second records of one rate test, read into interval rows and the values of
    each ``TestResult``."""

    def __init__(self, test: Test, kind: str, run: Run, source, strict) -> None:
        self.test, self.kind, self.run, self.source, self.strict = test, kind, run, source, strict
        self.rows: list[dict] = []
        self.streams: set[str] = set()
        self.last_interval: tuple[float, float] | None = None
        self.n_results = 0
        self.values: dict[str, list[float]] = {"bits": [], "pkts": [], "cps": []}

    def info(self, rec: Record) -> None:
        """An INFO message: the connection's source address, or a console row."""
        m = _CONNECTED.match(rec.message)
        if m:
            self.run.meta["src_ip"] = m.group("ip")
            return
        m = _ROW.match(rec.message)
        if not m:
            return
        interval = (float(m.group("a")), float(m.group("b")))
        sid = m.group("id")
        self.last_interval = interval
        if sid is not None and sid != "SUM":
            self.streams.add(sid)
            count = _fits(_pkts(m.group("pkts"), interval), rec, self.run, self.source, self.strict)
            self.rows.append(_row(rec, sid, interval, rate(m.group("bits")), count))

    def result(self, rec: Record) -> None:
        """A TestResult: the second's totals, over the interval of the rows before it."""
        run, source, strict = self.run, self.source, self.strict
        interval = self.last_interval or (float(self.n_results), float(self.n_results + 1))
        self.last_interval = None
        self.n_results += 1
        bits = _value(rec, "BitsPerSecond", rate, "bits/s like '914.94M'", run, source, strict)
        pkts = _value(
            rec, "PacketsPerSecond", rate, "packets/s like '249.25K'", run, source, strict
        )
        cps = _value(rec, "ConnectionsPerSecond", rate, "connections/s", run, source, strict)
        if run.meta.get("protocol") == "tcp" and self.test.role == "client":
            pkts = None  # the TCP client always prints "0": not measured
        if self.kind != "cps":
            count = _fits(_pkts_value(pkts, interval), rec, run, source, strict)
            self.rows.append(_row(rec, "SUM", interval, bits, count))
        for key, v in (("bits", bits), ("pkts", pkts), ("cps", cps)):
            if v is not None:
                self.values[key].append(v)


def _rate_stats(run: Run, kind: str, role: str, values: dict[str, list[float]]) -> None:
    side = "sender" if role == "client" else "receiver"
    if kind in ("bandwidth", "pps"):
        _stats(run, f"throughput_{side}", values["bits"], "bps")
    if kind == "pps" or (kind == "bandwidth" and run.meta.get("protocol") == "udp"):
        _stats(run, "packets_per_s", values["pkts"], "1/s")
    if kind == "cps":
        _stats(run, "connections_per_s", values["cps"], "1/s")


def _row(rec: Record, stream: str, interval, bits, packets) -> dict:
    row = {
        "seq": 0,
        "kind": "interval",
        "status": "ok",
        "stream": stream,
        "time_ns": rec.time_ns,
        "start_s": interval[0],
        "end_s": interval[1],
        "bits_per_second": bits,
    }
    if packets is not None:
        row["packets"] = packets
    return row


def _pkts(text: str | None, interval) -> int | None:
    return _pkts_value(None if text is None else rate(text), interval)


def _pkts_value(per_s: float | None, interval) -> int | None:
    """Datagrams in the interval from ethr's rounded rate (``249.25K`` over 1 s)."""
    if per_s is None:
        return None
    return int(round(per_s * (interval[1] - interval[0])))


def _fits(packets: int | None, rec: Record, run: Run, source, strict) -> int | None:
    """A packet count (rate times interval, both read from line ``rec.line``) within int64,
    else a ParseError there, or (lenient) None and a warning."""
    if packets is None or _INT64[0] <= packets <= _INT64[1]:
        return packets
    reason = f"expected a packet rate, got one giving {packets} packets: out of range for int64"
    if strict:
        raise ParseError(TOOL, source, rec.line, reason)
    run.warnings.append(f"line {rec.line}: {reason}; packets left empty")
    return None


def _frame(rows: list[dict]) -> pd.DataFrame:
    """Samples from row dicts, built column by column (3× faster than a list of dicts)."""
    keys = list(dict.fromkeys(k for row in rows for k in row))
    return pd.DataFrame({k: [row.get(k) for row in rows] for k in keys})


def _stats(run: Run, metric: str, values: list[float], unit: str) -> None:
    if not values:
        return
    n = len(values)
    run.add(metric, "mean", sum(values) / n, unit, source="computed", n=n)
    run.add(metric, "min", min(values), unit, source="computed", n=n)
    run.add(metric, "max", max(values), unit, source="computed", n=n)


# ---------------------------------------------------------------------------------------------
# Latency: one run per LatencyResult batch.


def _latency(test: Test, kind: str, source, strict) -> list[Run]:
    iterations = size = None
    for rec in test.records:
        m = _LATENCY_START.match(rec.message) if rec.type == "INFO" else None
        if m:  # "Running latency test: <iterations>, <message bytes>" (ethr client.go)
            iterations, size = int(m.group(1)), int(m.group(2))
    batches = [r for r in test.records if r.type == "LatencyResult"]
    if not batches:
        run = _run(test, kind)
        run.meta["complete"] = False
        run.warnings.append("no LatencyResult: the latency test produced no batch")
        return [run]
    other = [r for r in test.records[1:] if r.type == "TestResult" and server_kind(r) != "latency"]
    runs, base = [], _run(test, kind)
    for i, rec in enumerate(batches):
        run = _copy(base)
        run.line_start = test.records[0].line if i == 0 else batches[i - 1].line + 1
        run.line_end = rec.line if i < len(batches) - 1 else test.records[-1].line
        # "Ethr done, duration: 10s." is the test's, not a batch's: left out
        run.meta.update(
            latency_basis="rtt",
            msg_size_bytes=size,
            duration_s=None,
            start_time=_when(rec),
        )
        run.meta["labels"].update(batch=i, batches=len(batches))
        run.meta["complete"] = True  # each batch is a finished measurement
        _latency_stats(run, rec, "rtt", iterations, source, strict)
        if other and test.role == "server":
            run.warnings.append(
                f"{len(other)} TestResult records without latency in this test (connections "
                "the server saw meanwhile) not read"
            )
        runs.append(run)
    return runs


def _latency_stats(run: Run, rec: Record, metric: str, n, source, strict) -> None:
    got = {}
    for key, stat in LATENCY_FIELDS.items():
        value = _value(rec, key, duration_us, "a duration like '127.014us'", run, source, strict)
        if value is not None:
            got[key] = value
            run.add(metric, stat, value, "us", n=n)
    bad = [
        f"{a} {got[a]:g} > {b} {got[b]:g}"
        for a, b in zip(_ORDER, _ORDER[1:])
        if a in got and b in got and got[a] > got[b]
    ]
    if bad:
        run.warnings.append(
            f"line {rec.line}: percentiles out of order ({'; '.join(bad)}): an ethr quirk, "
            "kept as printed"
        )


def _trace_once(test: Test, run: Run, source, strict) -> Run:
    """ethr -t tr: each hop probed once, its round trip on its line; the last hop's is the
    target's when it answered."""
    rows, last = [], None
    for rec in test.records:
        m = _TR_ROW.match(rec.message) if rec.type == "INFO" else None
        if not m:
            continue
        row = {"seq": len(rows), "kind": "probe", "stream": m["hop"], "time_ns": rec.time_ns}
        if m["host"] is None:
            row["status"] = "timeout"
        elif (rtt := duration_us(m["last"])) is None:
            _bad(run, rec, source, strict, f"a duration, got {m['last']!r}")
            continue
        else:
            row.update(status="ok", rtt_us=rtt)
        rows.append(row)
        last = m
    if not rows:
        run.meta["complete"] = False
        run.warnings.append("no hop table: the trace produced no result")
        return run
    run.samples = _frame(rows)
    _zeros(run, rows)
    run.meta["labels"]["hops"] = len(rows)
    target = run.meta.get("dst_ip")
    if last["host"] is None:
        run.warnings.append(f"the last hop ({last['hop']}) did not answer: no round trip")
    elif target is not None and last["host"] != target:
        run.meta["complete"] = False  # ethr stops at the target: the trace was cut before it
        run.warnings.append(
            f"the last hop shown ({last['hop']}, {last['host']}) is not the target {target} "
            "(cut short?): no end-to-end round trip"
        )
    else:
        run.meta.update(dst_ip=last["host"], packets_sent=1, packets_received=1, loss_pct=0.0)
        run.add("rtt", "mean", rows[-1]["rtt_us"], "us", n=1)
    return run


# ---------------------------------------------------------------------------------------------
# TCP connect latency (ethr -t pi): one probe per second.


def _connect(test: Test, kind: str, source, strict) -> list[Run]:
    """ethr prints ``TCP connect statistics`` and a LatencyResult after every 1000
    connections (corpus: a 10 s test with ``-g`` short printed 8 blocks): each block is a
    batch, a run of its own, like a latency batch."""
    batches: list[dict] = [{"rows": [], "recs": []}]
    for rec in test.records:
        cur = batches[-1]
        m = _PROBE.match(rec.message) if rec.type == "INFO" else None
        if m and "stats" in cur:  # probes after a finished block open the next batch
            cur = {"rows": [], "recs": []}
            batches.append(cur)
        cur["recs"].append(rec)
        if m:
            row = _probe(m, rec, len(cur["rows"]), source, strict, cur)
            if row is not None:
                cur["rows"].append(row)
            continue
        s = _CONNECT_STATS.match(rec.message)
        if s:
            cur["stats"] = tuple(int(x) for x in s.groups())
        elif rec.type == "LatencyResult":
            cur["latency"] = rec
    runs, base = [], _run(test, kind)
    for i, batch in enumerate(batches):
        run = _copy(base)
        run.line_start, run.line_end = batch["recs"][0].line, batch["recs"][-1].line
        run.meta.update(latency_basis="rtt", protocol="tcp")
        run.warnings.extend(batch.get("warnings", []))
        if len(batches) > 1:
            run.meta.update(
                duration_s=None,
                start_time=_when(batch["recs"][0]),
            )
            run.meta["labels"].update(batch=i, batches=len(batches))
        if "stats" in batch:
            sent, received, lost = batch["stats"]
            run.meta.update(
                packets_sent=sent,
                packets_received=received,
                loss_pct=100.0 * lost / sent if sent else None,
            )
        else:
            run.meta["complete"] = False
            run.warnings.append("no 'TCP connect statistics': the test did not finish")
        if "latency" in batch:
            _latency_stats(
                run, batch["latency"], "rtt", run.meta.get("packets_received"), source, strict
            )
        if batch["rows"]:
            run.samples = _frame(batch["rows"])
            _zeros(run, batch["rows"])
        runs.append(run)
    return runs


def _probe(m: re.Match, rec: Record, seq: int, source, strict, batch: dict) -> dict | None:
    row = {
        "seq": seq,
        "kind": "probe",
        "time_ns": rec.time_ns,
        "status": "omitted" if m.group("warm") else "ok",
    }
    if m.group("err"):
        row.update(
            status="omitted" if m.group("warm") else "timeout", message=m.group("err").strip()
        )
        return row
    value = duration_us(m.group("dur"))
    if value is None:
        reason = f"expected a duration, got {m.group('dur')!r}"
        if strict:
            raise ParseError(TOOL, source, rec.line, reason)
        batch.setdefault("warnings", []).append(f"line {rec.line} skipped: {reason}")
        return None
    row["rtt_us"] = value
    return row


def _zeros(run: Run, rows: list[dict]) -> None:
    """ethr on Windows prints ``0.000ns`` for round trips shorter than its clock's tick
    (corpus: loopback connects of 0.000ns between others of ~1 ms)."""
    zeros = sum(1 for r in rows if r.get("rtt_us") == 0.0)
    if zeros:
        run.warnings.append(
            f"{zeros} of {len(rows)} round trips are 0.000ns: the clock is coarser than the "
            "round trip (read them as 'below one clock tick', not as zero)"
        )


def _bad(run: Run, rec: Record, source, strict, what: str) -> None:
    if strict:
        raise ParseError(TOOL, source, rec.line, f"expected {what}")
    run.warnings.append(f"line {rec.line} skipped: expected {what}")


# ---------------------------------------------------------------------------------------------
# MyTraceRoute (ethr -t mtr): the hop table is reprinted after every round of probes.


def _traceroute(test: Test, kind: str, source, strict) -> list[Run]:
    run = _run(test, kind)
    run.meta["latency_basis"] = "rtt"
    rows, received = [], {}
    final: dict[str, re.Match] = {}
    for rec in test.records:
        m = _MTR_ROW.match(rec.message) if rec.type == "INFO" else None
        if not m:
            continue
        hop, recv = m.group("hop"), int(m.group("recv"))
        row = {"seq": len(rows), "kind": "probe", "stream": hop, "time_ns": rec.time_ns}
        if recv > received.get(hop, 0):
            last = duration_us(m.group("last"))
            if last is None:
                _bad(run, rec, source, strict, f"a duration for Last, got {m.group('last')!r}")
                continue
            row.update(status="ok", rtt_us=last)
        else:
            row["status"] = "timeout"
        received[hop] = recv
        final[hop] = m
        rows.append(row)
    if not rows:
        return [_trace_once(test, run, source, strict)]
    if rows:
        run.samples = _frame(rows)
        _zeros(run, rows)
    if final:
        hop = max(final, key=int)
        m = final[hop]
        sent, recv = int(m.group("sent")), int(m.group("recv"))
        run.meta.update(
            dst_ip=m.group("host"),
            packets_sent=sent,
            packets_received=recv,
            loss_pct=100.0 * (sent - recv) / sent if sent else None,
        )
        run.meta["labels"]["hops"] = len(final)
        for key, stat in (("avg", "mean"), ("best", "min"), ("worst", "max")):
            value = duration_us(m.group(key))
            run.add("rtt", stat, value, "us", n=recv)
    else:
        run.meta["complete"] = False
        run.warnings.append("no hop table: the trace produced no result")
    return [run]
