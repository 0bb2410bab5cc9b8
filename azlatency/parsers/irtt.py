"""irtt (heistp/irtt, 0.9.x): isochronous UDP round trips with the server's timestamps, so
each probe has a round trip, a send (client → server) and a receive (server → client) delay.

Two outputs of ``irtt client``:

* **text** (stdout)::

      [Connecting] connecting to 10.77.0.1
      [10.77.0.1:2112] [Connected] connection established
      seq=0 rtt=274µs rd=105µs sd=169µs ipdv=n/a
      seq=1 rtt=194µs rd=66.5µs sd=127µs ipdv=80.5µs
                              Min    Mean  Median      Max  Stddev
                      RTT   132µs   222µs   203µs    411µs    61µs
      ...
         packets sent/received: 95/95 (0.00% loss)
       server packets received: 95/95 (0.00%/0.00% loss up/down)

  Values are Go durations rounded by irtt's ``rdur`` to about three digits (``992ns``,
  ``35.52ms``, ``1.98s``); a lost probe prints no line, so the text's losses are the sequence
  numbers it skips (which way each went, only the JSON says).
* **JSON** (``-o file.json``, ``-o -``; gzip unless the name ends in ``.json``): every probe
  with its timestamps in integer ns, ``lost`` as ``true_up``/``true_down``/``true``, and the
  statistics in ns.

The round trip is the basis (``latency_basis = "rtt"``; irtt subtracts the server's
processing time from it).  Send and receive delays are one-way figures between the client's
wall clock and the server's: as exact as the two clocks agree, which irtt does not check
(``labels.clock_sync = "unknown"``).  See ``docs/tools/irtt.md``.
"""

from __future__ import annotations

import json
import re
from decimal import Decimal

import numpy as np
import pandas as pd

from ..errors import NothingMeasured, ParseError
from ._base import Parsed, Run, Span, ToolInfo
from ._lines import (
    command_above,
    computed,
    gapless,
    host_and_ip,
    invalid_json,
    json_without_strays,
    known_lines,
    line_blocks,
    not_found,
    packet_counts,
    samples_frame,
    stray,
    strays_after,
)

TOOL = "irtt"

INFO = ToolInfo(
    tool=TOOL,
    description="irtt client text ('seq=0 rtt=274µs rd=105µs sd=169µs ipdv=n/a', its "
    "statistics table) and -o JSON",
    variants=("text", "json"),
    versions="irtt 0.9.0 (Debian 12, captured; JSON format 1)",
    produces=("runs", "samples", "summaries"),
    flags="-o file.json (every probe's loss direction and timestamps)",
    latency_basis="rtt",
)

# One duration as Go's time.Duration.String prints it: "274µs", "1m2.5s", "-5µs", "0s".
_DUR = r"-?(?:\d+(?:\.\d+)?(?:h|m(?!s)|s|ms|µs|μs|us|ns))+"
_UNIT_NS = {
    "h": 3_600_000_000_000,
    "m": 60_000_000_000,
    "s": 1_000_000_000,
    "ms": 1_000_000,
    "µs": 1000,
    "μs": 1000,
    "us": 1000,
    "ns": 1,
}
_PART = re.compile(r"(\d+(?:\.\d+)?)(h|ms|m|s|µs|μs|us|ns)")

# (a host holds no '[' but an IPv6 address's brackets: '...10.77.0.1[10.77.0.1:2112]
# [Connected] ...' is two lines run together, not a host)
_HOST = r"\[[^\]\s]+\](?::\d+)?|[^\s\[]+"
_CONNECTING = re.compile(rf"^\s*\[Connecting\] connecting to (?P<host>{_HOST})\s*$")
# before 0.9 the address was not in front: '[Connected] connected to 127.0.0.1:2112'
_EVENT = re.compile(
    r"^\s*(?:\[(?P<addr>[^\]\s]+)\] )?\[(?P<code>Connected|WaitForPackets|ServerRestriction|"
    r"NoTest|ConnectedClosed)\] (?P<text>.*?)\s*$"
)
_CONNECTED_TO = re.compile(r"connected to (?P<addr>\S+)")
_PROBE = re.compile(
    # before 0.9 (README @0244c92): 'seq=0 len=48 rtt=70.2µs rd=37.2µs sd=33µs', no ipdv
    rf"^\s*seq=(?P<seq>\d+)(?: len=(?P<len>\d+))? rtt=(?P<rtt>{_DUR})(?: rd=(?P<rd>{_DUR}))?"
    rf"(?: sd=(?P<sd>{_DUR}))?(?: ipdv=(?P<ipdv>{_DUR}|n/a))?(?P<late> \(LATE\))?\s*$"
)
_DUP = re.compile(r"^\s*DUP! seq=(?P<seq>\d+)\s*$")
_SIGNAL = re.compile(r"^\s*(?P<sig>interrupt|terminated|hangup|quit|second interrupt, exiting)\s*$")
_TERMINATED = re.compile(r"^\s*Terminated due to (?P<what>send|receive) error: (?P<msg>.+?)\s*$")
_ERROR = re.compile(r"^\s*Error: (?P<msg>.+?)\s*$")
_HEAD = re.compile(r"^\s*Min\s+Mean\s+Median\s+Max\s+Stddev\s*$")
_RULE = re.compile(r"^\s*---\s+----\s+------\s+---\s+------\s*$")
_TITLES = {
    "RTT": "rtt",
    "send delay": "send_delay",
    "receive delay": "receive_delay",
    "IPDV (jitter)": "ipdv",
    "send IPDV": "send_ipdv",
    "receive IPDV": "receive_ipdv",
    "send call time": "send_call",
    "timer error": "timer_error",
    "server proc. time": "server_processing",
}
_ROW = re.compile(
    r"^\s*(?P<title>" + "|".join(re.escape(t) for t in _TITLES) + rf")((?:\s+{_DUR}){{4,5}})\s*$"
)
_DURATION = re.compile(rf"^\s*duration: (?P<d>{_DUR}) \(wait (?P<wait>{_DUR})\)\s*$")
_PACKETS = re.compile(
    r"^\s*packets sent/received: (?P<sent>\d+)/(?P<received>\d+) \((?P<loss>[\d.]+)% loss\)\s*$"
)
_SERVER = re.compile(
    r"^\s*server packets received: (?P<server>\d+)/(?P<sent>\d+) "
    r"\((?P<up>[\d.]+)%/(?P<down>[\d.]+)% loss up/down\)\s*$"
)
_DUPS = re.compile(r"^\s*\*\*\* DUPLICATES: (?P<n>\d+) \((?P<pct>[\d.]+)%\)\s*$")
_LATE = re.compile(r"^\s*late \(out-of-order\) pkts: (?P<n>\d+) \((?P<pct>[\d.]+)%\)\s*$")
_BYTES = re.compile(r"^\s*bytes sent/received: (?P<sent>\d+)/(?P<received>\d+)\s*$")
_RATE = r"(?P<{0}>\d+(?:\.\d+)?) (?P<{0}_unit>[KMGPEZ]?bps)"
_RATES = re.compile(
    rf"^\s*send/receive rate: {_RATE.format('send')} / {_RATE.format('receive')}\s*$"
)
_LENGTH = re.compile(r"^\s*packet length: (?P<n>\d+) bytes\s*$")
_TIMER = re.compile(
    r"^\s*timer stats: (?P<miss>\d+)/(?P<expected>\d+) \((?P<misspct>[\d.]+)%\) missed, "
    r"(?P<err>[\d.]+)% error\s*$"
)
# irtt 0.9.0 Bitrate.String: bps, then /1e3 Kbps, /1e6 Mbps, /1e9 Gbps, and /1e12 printed
# "Pbps" (sic), /1e15 "Ebps", /1e18 "Zbps"
_BPS = {"bps": 1, "Kbps": 10**3, "Mbps": 10**6, "Gbps": 10**9, "Pbps": 10**12}
_BPS.update(Ebps=10**15, Zbps=10**18)
_KINDS = (
    _PROBE,
    _CONNECTING,
    _EVENT,
    _DUP,
    _HEAD,
    _RULE,
    _ROW,
    _DURATION,
    _PACKETS,
    _SERVER,
    _DUPS,
    _LATE,
    _BYTES,
    _RATES,
    _LENGTH,
    _TIMER,
    _SIGNAL,
    _TERMINATED,
    _ERROR,
)
_OPENS = (_CONNECTING, _EVENT, _PROBE, _HEAD, _ERROR)
OPENERS = _OPENS  # the reader's hook: locate() opens on these lines alone
_FOOTER = (_DURATION, _PACKETS, _SERVER, _DUPS, _LATE, _BYTES, _RATES, _LENGTH, _TIMER)
_INTEGERS = {
    "seq": "a sequence number",
    "sent": "a count of packets sent",
    "received": "a count of packets received",
    "server": "a count of packets the server received",
    "n": "a count",
    "miss": "a count of timer misses",
    "expected": "a count of expected packets",
}
_LOSS = {
    "true_up": "lost upstream (client → server)",
    "true_down": "lost downstream (server → client)",
    "true": "lost (irtt could not tell which way)",
}
CLOCKS = "unknown"  # irtt never checks that the server's wall clock agrees with the client's


def ns_of(text: str) -> int:
    """A Go duration as printed (``"1m2.5s"``, ``"274µs"``, ``"-5µs"``) in integer ns."""
    text = text.strip()
    sign = -1 if text.startswith("-") else 1
    total = sum(Decimal(v) * _UNIT_NS[u] for v, u in _PART.findall(text))
    return sign * int(total)


def us_of(text: str) -> float:
    return ns_of(text) / 1000.0


def _kind(line: str) -> re.Pattern[str] | None:
    kind = next((p for p in _KINDS if p.match(line)), None)
    if kind is _EVENT and _A_PROBE.search(line):
        return None  # a probe line run into the event's text: two lines (unjoin)
    return kind


# A probe's start inside another line ('[Connected] connection establishedseq=0 rtt=2.5ms'):
# the event's text took the probe without a word.
_A_PROBE = re.compile(r"\Sseq=\d+ (?:len=\d+ )?rtt=")


def _next_run(kind: re.Pattern[str], seen: set) -> bool:
    if kind is _CONNECTING:
        return bool(seen)
    if kind in (_PROBE, _DUP, _HEAD, _EVENT):
        return _TIMER in seen  # the footer's last line was printed: another test follows
    return kind in _FOOTER and kind in seen


def locate(lines: list[str]) -> list[Span]:
    """Text outputs: from ``[Connecting]`` (or the ``irtt client`` command above it, or a
    probe line or the statistics header of a paste without it) while the lines are irtt's,
    up to the footer's ``timer stats`` line.  The JSON is a whole file (:func:`whole_file`)."""
    spans = line_blocks(lines, TOOL, _kind, _OPENS, _next_run)
    out, floor = [], 0
    for s in spans:
        start = command_above(lines, s.start, floor, (TOOL,))
        out.append(Span(start, s.end, TOOL))
        floor = s.end
    return out


def whole_file(head: str) -> bool:
    """irtt's JSON: ``{`` then ``"version": {"irtt": ...`` (a stray line may sit above)."""
    top = head[:600]
    return (
        '"irtt"' in top
        and re.search(r'"version"\s*:\s*\{', top) is not None
        and '"json_format"' in top
    )


def parse(text: str, *, source: str | None = None, strict: bool = True) -> Parsed:
    lines = text.split("\n")
    # '{' on its own line, or run together with the next ('{"version": {': JSON all the same)
    brace = next((i for i, x in enumerate(lines[:8]) if x.lstrip().startswith("{")), None)
    if brace is not None and whole_file("\n".join(lines[brace : brace + 12])):
        return Parsed(TOOL, _parse_json(text, lines, brace, source, strict))
    spans = locate(lines)
    if not spans:
        raise not_found(
            TOOL,
            source,
            "'[Connecting] connecting to <host>', 'seq=N rtt=...' "
            "lines or its statistics table, or the JSON of 'irtt client -o'",
        )
    return Parsed(TOOL, [_text_run(lines, span, source, strict) for span in spans])


# ---------------------------------------------------------------------------------------------
# Text


def _text_run(lines: list[str], span: Span, source: str | None, strict: bool) -> Run:
    run = Run(line_start=span.start + 1, line_end=span.end)
    run.meta.update(
        tool=TOOL, parser_variant="text", latency_basis="rtt", protocol="udp", complete=False
    )
    st = _TextState()
    known = known_lines(
        lines,
        span,
        TOOL,
        _kind,
        _INTEGERS,
        source=source,
        strict=strict,
        warnings=run.warnings,
        command_first=True,
    )
    for no, kind, m in known:
        st.take(run, kind, m, no)
    if st.error and not st.probes and not st.footer:
        raise NothingMeasured(
            TOOL,
            source,
            st.error[0],
            f"irtt reported an error and measured nothing: {st.error[1]!r}",
            hint="is 'irtt server' running on that host and port, and does a firewall let "
            "UDP through?",
        )
    _text_meta(run, st)
    _text_samples(run, st)
    return run


class _TextState:
    """What one text output said, line by line."""

    def __init__(self) -> None:
        self.probes: list[tuple] = []  # seq, status, rtt, rd, sd, ipdv (µs), message
        self.rows: dict[str, dict[str, float]] = {}
        self.footer: dict[str, re.Match[str]] = {}
        self.footer_no = 0
        self.error: tuple[int, str] | None = None
        self.host: str | None = None
        self.addr: str | None = None
        self.table = False

    def take(self, run: Run, kind: re.Pattern[str], m: re.Match[str], no: int) -> None:
        if kind is _PROBE:
            self.probes.append(_probe(m))
        elif kind is _DUP:
            self.probes.append((int(m["seq"]), "duplicate", *([np.nan] * 4), "DUP!"))
        elif kind is _ROW:
            values = [us_of(v) for v in m.group(2).split()]
            stats = ("min", "mean", "p50", "max", "std") if len(values) == 5 else None
            self.rows[_TITLES[m["title"]]] = dict(
                zip(stats or ("min", "mean", "max", "std"), values)
            )
        elif kind in _FOOTER:
            self.footer[kind.pattern] = m
            self.footer_no = no
        elif kind is _CONNECTING:
            self.host = m["host"]
        elif kind is _EVENT:
            to = _CONNECTED_TO.fullmatch(m["text"]) if m["code"] == "Connected" else None
            self.addr = m["addr"] or (to and to["addr"]) or self.addr
            if m["code"] not in ("Connected", "WaitForPackets"):  # the wait is in labels
                run.warnings.append(f"line {no}: [{m['code']}] {m['text']}")
        elif kind is _SIGNAL:
            run.warnings.append(f"line {no}: stopped by a signal ({m['sig']}): a shorter test")
        elif kind is _TERMINATED:
            run.warnings.append(f"line {no}: irtt stopped on a {m['what']} error: {m['msg']}")
        elif kind is _ERROR:
            self.error = (no, m["msg"])
            run.warnings.append(f"line {no}: irtt: Error: {m['msg']}")
        elif kind is _HEAD:
            self.table = True

    def get(self, kind: re.Pattern[str]) -> re.Match[str] | None:
        return self.footer.get(kind.pattern)


def _probe(m: re.Match[str]) -> tuple:
    def us(name: str) -> float:
        v = m[name]
        return np.nan if v is None or v == "n/a" else us_of(v)

    return (
        int(m["seq"]),
        "ok",
        us("rtt"),
        us("rd"),
        us("sd"),
        us("ipdv"),
        "late (out of order)" if m["late"] else None,
    )


def _text_meta(run: Run, st: _TextState) -> None:
    meta = run.meta
    addr = st.addr or st.host
    ip, port = _address(addr) if addr else (None, None)
    host, ip = host_and_ip(st.host.rsplit(":", 1)[0] if st.host else None, ip)
    meta.update(dst_host=host, dst_ip=ip, port=port)
    labels = {"clock_sync": CLOCKS}
    for metric, stats in st.rows.items():
        for stat, value in stats.items():
            run.add(metric, stat, value, "us")
    _footer(run, st, labels)
    meta["labels"] = labels
    meta["complete"] = st.get(_TIMER) is not None  # irtt's last line
    if not meta["complete"]:
        where = st.footer_no or (st.probes and run.line_end) or run.line_end
        run.warnings.append(
            f"no 'timer stats' line (irtt's last) after line {where}: the output was cut "
            "before irtt finished"
        )


def _footer(run: Run, st: _TextState, labels: dict) -> None:
    meta = run.meta
    if m := st.get(_DURATION):
        meta["duration_s"] = ns_of(m["d"]) / 1e9
        labels["wait_s"] = ns_of(m["wait"]) / 1e9
    if m := st.get(_PACKETS):
        packet_counts(run, m)
    if m := st.get(_SERVER):
        labels["server_packets_received"] = int(m["server"])
        run.add("loss_up", "mean", float(m["up"]), "pct")
        run.add("loss_down", "mean", float(m["down"]), "pct")
    if m := st.get(_DUPS):
        meta["duplicates"] = int(m["n"])
    if m := st.get(_LATE):
        meta["out_of_order"] = int(m["n"])
    if m := st.get(_BYTES):
        labels.update(bytes_sent=int(m["sent"]), bytes_received=int(m["received"]))
    if m := st.get(_RATES):
        for side in ("send", "receive"):
            bps = float(Decimal(m[side]) * _BPS[m[f"{side}_unit"]])
            run.add(f"{side}_rate", "mean", bps, "bps")
    if m := st.get(_LENGTH):
        meta["msg_size_bytes"] = int(m["n"])
    if m := st.get(_TIMER):
        labels.update(
            timer_misses=int(m["miss"]),
            timer_expected=int(m["expected"]),
            timer_error_pct=float(m["err"]),
        )


def _text_samples(run: Run, st: _TextState) -> None:
    probes = list(st.probes)
    sent = run.meta.get("packets_sent")
    received = run.meta.get("packets_received")
    if sent is not None and (probes or received == 0):
        shown = {p[0] for p in probes}
        # irtt numbers its probes 0..sent-1 and prints only those answered: the rest were lost
        probes += [
            (s, "lost", *([np.nan] * 4), "lost (the text output does not say which way)")
            for s in range(sent)
            if s not in shown
        ]
    if probes:
        _frame(run, probes, {})


def _address(addr: str) -> tuple[str | None, int | None]:
    """``10.77.0.1:2112`` / ``[fe80::1%en0]:2112`` → (ip, port); a bare host → (host, None)."""
    m = re.match(r"^\[(?P<ip>[^\]]+)\]:(?P<port>\d+)$|^(?P<ip4>[^:\s]+):(?P<port4>\d+)$", addr)
    if not m:
        return addr.strip("[]"), None
    ip = m["ip"] or m["ip4"]
    port = int(m["port"] or m["port4"])
    return ip, port if port < 65536 else None


def _frame(run: Run, probes: list[tuple], times: dict[str, list]) -> None:
    """Samples of the probes (seq, status, rtt, rd, sd, ipdv µs, message) and the statistics
    computed from them."""
    cols = {
        "seq": pd.array([p[0] for p in probes], dtype="Int64"),
        "kind": "probe",
        "status": [p[1] for p in probes],
        "rtt_us": np.array([p[2] for p in probes], dtype=float),
        "send_delay_us": np.array([p[4] for p in probes], dtype=float),
        "receive_delay_us": np.array([p[3] for p in probes], dtype=float),
        # irtt's own IPDV, as a magnitude: the text prints |ipdv| and irtt's statistics use
        # it; the sign is the one of rtt(i) - rtt(i-1)
        "ipdv_us": np.abs(np.array([p[5] for p in probes], dtype=float)),
        "message": [p[6] for p in probes],
    }
    for name, values in times.items():
        cols[name] = pd.array(values, dtype="Int64")
    for name in ("send_delay_us", "receive_delay_us"):
        if np.isnan(cols[name]).all():
            del cols[name]  # --clock=monotonic, --tstamp=none: irtt has no one-way delays
    run.samples = samples_frame(cols)
    ok = np.array([p[1] == "ok" for p in probes])
    for metric, col in (
        ("rtt", "rtt_us"),
        ("send_delay", "send_delay_us"),
        ("receive_delay", "receive_delay_us"),
        ("ipdv", "ipdv_us"),
    ):
        if col in cols:
            computed(run, metric, cols[col][ok])
    if not gapless(p[0] for p in probes if p[1] != "duplicate"):
        run.warnings.append("sequence numbers are not consecutive (lines missing?)")


# ---------------------------------------------------------------------------------------------
# JSON


_STATS = {
    "rtt": "rtt",
    "send_delay": "send_delay",
    "receive_delay": "receive_delay",
    "ipdv_round_trip": "ipdv",
    "ipdv_send": "send_ipdv",
    "ipdv_receive": "receive_ipdv",
    "send_call": "send_call",
    "timer_error": "timer_error",
    "server_processing_time": "server_processing",
}
_STAT_KEYS = {"min": "min", "mean": "mean", "median": "p50", "max": "max", "stddev": "std"}


def _parse_json(
    text: str, lines: list[str], brace: int, source: str | None, strict: bool
) -> list[Run]:
    notes: list[str] = []
    for no in range(1, brace + 1):  # a line above the document
        if lines[no - 1].strip():
            stray(TOOL, source, no, lines[no - 1], strict, notes)
    body = "\n".join(lines[brace:])
    decoder = json.JSONDecoder()
    runs: list[Run] = []
    pos, offset = 0, brace  # offset: lines before body[pos]
    while body[pos:].strip():
        pos += len(body[pos:]) - len(body[pos:].lstrip())
        start = offset + body.count("\n", 0, pos)
        try:
            doc, end = decoder.raw_decode(body, pos)
            strays: list[tuple[int, str]] = []
        except json.JSONDecodeError as exc:
            if runs and body[pos] != "{":  # no document: lines pasted below the last
                strays_after(TOOL, source, body, pos, strict, runs[-1].warnings, offset)
                break
            body, doc, end, strays = json_without_strays(decoder.raw_decode, body, pos, exc)
            if doc is None:
                if runs and not strict:  # the runs read are kept; the one cut short is named
                    runs[-1].warnings.append(
                        f"line {offset + exc.lineno}: the JSON document from line {start + 1} "
                        f"does not read ({exc.msg}: cut short?); left out"
                    )
                    break
                raise invalid_json(TOOL, source, offset + exc.lineno, exc, body) from None
        run = _json_run(doc, source, start + 1, offset + body.count("\n", 0, end) + 1)
        for no, line in strays:
            stray(TOOL, source, offset + no, line, strict, run.warnings)
        runs.append(run)
        pos = end
    if not runs:
        raise ParseError(TOOL, source, brace + 1, "expected irtt's JSON document")
    runs[0].warnings[:0] = notes
    return runs


def _json_run(doc, source: str | None, first: int, last: int) -> Run:
    if not isinstance(doc, dict) or not isinstance(doc.get("stats"), dict):
        raise ParseError(TOOL, source, first, "expected irtt's JSON: an object with 'stats'")
    run = Run(line_start=first, line_end=last)
    stats, config = doc["stats"], doc.get("config") or {}
    params = config.get("params") or {}
    version = (doc.get("version") or {}).get("irtt")
    dst_ip, port = _address(str(config.get("remote_address", "")))
    src_ip, _ = _address(str(config.get("local_address", "")))
    labels = {"clock_sync": CLOCKS}
    for key in ("clock", "stamp_at", "received_stats", "timer", "waiter"):
        if params.get(key, config.get(key)) is not None:
            labels[key] = params.get(key, config.get(key))
    interval = _num(params.get("interval"))
    if interval is not None:
        labels["interval_s"] = interval / 1e9
    run.meta.update(
        tool=TOOL,
        tool_version=version,
        parser_variant="json",
        latency_basis="rtt",
        protocol="udp",
        dst_ip=dst_ip or None,
        src_ip=src_ip or None,
        port=port,
        msg_size_bytes=_int(params.get("length")),
        duration_s=None if _num(stats.get("duration")) is None else stats["duration"] / 1e9,
        start_time=_start_time(run, stats.get("start_time"), first),
        packets_sent=_int(stats.get("packets_sent")),
        packets_received=_int(stats.get("packets_received")),
        loss_pct=_num(stats.get("packet_loss_percent")),
        duplicates=_int(stats.get("duplicates")),
        out_of_order=_int(stats.get("late_packets")),
        complete=True,
        labels=labels,
    )
    _json_stats(run, stats, labels)
    _json_stopped(run, doc, stats, params)
    trips = doc.get("round_trips")
    if isinstance(trips, list) and trips:
        _json_samples(run, trips, source, first)
    return run


def _start_time(run: Run, value, first: int) -> pd.Timestamp | None:
    """``stats.start_time`` (RFC 3339 with ns); one that is not a time is named, not read."""
    if not value:
        return None
    try:
        return pd.Timestamp(value) if isinstance(value, str) else None
    except ValueError:
        run.warnings.append(f"document at line {first}: start_time {value!r} is no time: not read")
        return None


def _num(v) -> float | None:
    return float(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else None


def _int(v) -> int | None:
    return int(v) if isinstance(v, int) and not isinstance(v, bool) else None


def _json_stats(run: Run, stats: dict, labels: dict) -> None:
    for key, metric in _STATS.items():
        block = stats.get(key)
        if not isinstance(block, dict) or not _int(block.get("n")):
            continue
        run.add(metric, "count", block["n"], "count")
        for k, stat in _STAT_KEYS.items():
            if _num(block.get(k)) is not None:
                run.add(metric, stat, block[k] / 1000.0, "us")
    if _int(stats.get("server_packets_received")):
        labels["server_packets_received"] = stats["server_packets_received"]
        run.add("loss_up", "mean", _num(stats.get("upstream_loss_percent")), "pct")
        run.add("loss_down", "mean", _num(stats.get("downstream_loss_percent")), "pct")
    for side in ("send", "receive"):
        rate = stats.get(f"{side}_rate")
        if isinstance(rate, dict):
            run.add(f"{side}_rate", "mean", _num(rate.get("bps")), "bps")
    for key in ("bytes_sent", "bytes_received", "timer_misses"):
        if _int(stats.get(key)) is not None:
            labels[key] = stats[key]
    if _num(stats.get("timer_err_percent")) is not None:
        labels["timer_error_pct"] = stats["timer_err_percent"]
    if _num(stats.get("wait")) is not None:
        labels["wait_s"] = stats["wait"] / 1e9


def _json_stopped(run: Run, doc: dict, stats: dict, params: dict) -> None:
    """A send or receive error, or a test stopped (a signal) before its duration: said."""
    for key in ("send_err", "receive_err"):
        if doc.get(key):
            what = key.split("_")[0]
            run.warnings.append(f"irtt stopped on a {what} error: {json.dumps(doc[key])[:160]}")
    asked, ran, every = params.get("duration"), stats.get("duration"), params.get("interval")
    if all(_num(v) is not None for v in (asked, ran, every)) and ran < asked - 2 * every:
        run.warnings.append(
            f"the test ran {ran / 1e9:g} s of the {asked / 1e9:g} s asked (stopped early: a "
            "signal or an error)"
        )


def _json_samples(run: Run, trips: list, source: str | None, first: int) -> None:
    probes, tx, rx = [], [], []
    for k, rt in enumerate(trips):
        if not isinstance(rt, dict) or not isinstance(rt.get("seqno"), int):
            raise ParseError(TOOL, source, first, f"round_trips[{k}]: expected a 'seqno'")
        delay, ipdv = rt.get("delay") or {}, rt.get("ipdv") or {}
        lost = str(rt.get("lost", "false"))
        status = "ok" if lost == "false" else "lost"
        message = _LOSS.get(lost) if status == "lost" else None
        if rt.get("late") is True:  # irtt >= 0.9.2 records it per probe
            message = "late (out of order)"
        probes.append(
            (
                rt["seqno"],
                status,
                *(
                    np.nan if _num(delay.get(x)) is None else delay[x] / 1000.0
                    for x in ("rtt", "receive", "send")
                ),
                np.nan if _num(ipdv.get("rtt")) is None else ipdv["rtt"] / 1000.0,
                message,
            )
        )
        client = (rt.get("timestamps") or {}).get("client") or {}
        tx.append(_int((client.get("send") or {}).get("wall")))
        rx.append(_int((client.get("receive") or {}).get("wall")))
    _frame(run, probes, {"time_ns": tx, "tx_time_ns": tx, "rx_time_ns": rx})
    down = sum(p[6] == _LOSS["true_down"] for p in probes)
    up = sum(p[6] == _LOSS["true_up"] for p in probes)
    if up or down:
        run.meta["labels"].update(lost_up=up, lost_down=down)
