"""iperf3 ``-J`` documents (3.0.11 to 3.18) → :class:`Test` s.

A document is ``{"start": ..., "intervals": [...], "end": ..., "error": ...}``;
``--get-server-output`` adds ``server_output_json`` (a whole server document) or
``server_output_text``; a JSON stream is reassembled into the same shape
(``iperf3/documents.py``).  Which keys exist depends on the version: 3.0.11 has no ``rtt`` nor
``sender`` flags, 3.0/3.1 UDP has one ``end.sum`` instead of ``sum_sent``/``sum_received``,
``--bidir`` (3.7+) adds ``*_bidir_reverse`` sums, 3.18 a ``bidir`` key in ``test_start``.
"""

from __future__ import annotations

import json
import math
from datetime import UTC, datetime
from typing import Any

from ...errors import ParseError
from .._ranges import line_of
from .jsoncols import interval_columns
from .model import CPU_KEYS, INT64_MAX, ROW_KEYS, TOOL, Test, Total, flow_of, local_side

# ---------------------------------------------------------------------------------------------
# values


class _Values:
    """Typed access to JSON values: wrong types, non-finite and out-of-range numbers are a
    located ParseError (strict) or a warning and a missing value (``strict=False``); ``nan``
    is always read as missing (iperf3 writes it for 0/0).

    ``json`` gives no positions: the line of a bad value is the first of the document's
    ``lines`` (numbered from ``line_no``) that holds its key and its text — iperf3 writes one
    ``"key": value`` per line with -J, one event per line with --json-stream — else the
    document's first line."""

    def __init__(
        self,
        test: Test,
        source: str | None,
        strict: bool,
        line_no: int,
        lines: list[str] | None = None,
    ):
        self.test, self.source, self.strict, self.line_no = test, source, strict, line_no
        self.lines = lines or []
        self.nan_seen = False

    def bad(self, where: str, key: str, value: Any, what: str) -> None:
        reason = f"{where}.{key}: expected {what}, got {value!r:.40}"
        if self.strict:
            line = self.line_no
            if isinstance(value, int | str) and not isinstance(value, bool):
                line = line_of(self.lines, self.line_no, json.dumps(key), json.dumps(value))
            raise ParseError(TOOL, self.source, line, reason)
        self.test.warnings.append(reason + ": not read")

    def f(self, obj: Any, key: str, where: str) -> float | None:
        value = obj.get(key) if isinstance(obj, dict) else None
        kind = type(value)
        if kind is int and -INT64_MAX <= value <= INT64_MAX:  # the common cases, fast
            return float(value)
        if kind is float and math.isfinite(value):
            return value
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            self.bad(where, key, value, "a number")
            return None
        value = float(value)
        if math.isnan(value):
            self.nan_seen = True
            return None
        if math.isinf(value):
            self.bad(where, key, value, "a finite number")
            return None
        return value

    def i(self, obj: Any, key: str, where: str) -> int | None:
        raw = obj.get(key) if isinstance(obj, dict) else None
        if type(raw) is int and -INT64_MAX <= raw <= INT64_MAX:
            return raw
        value = self.f(obj, key, where)
        if value is None:
            return None
        if not value.is_integer() or abs(value) > INT64_MAX:
            self.bad(where, key, obj[key], "a whole number within 64 bits")
            return None
        raw = obj[key]
        return raw if isinstance(raw, int) and not isinstance(raw, bool) else int(value)


def _d(obj: Any, key: str) -> dict:
    value = obj.get(key) if isinstance(obj, dict) else None
    return value if isinstance(value, dict) else {}


def _l(obj: Any, key: str) -> list:
    value = obj.get(key) if isinstance(obj, dict) else None
    return value if isinstance(value, list) else []


# ---------------------------------------------------------------------------------------------
# document → Test


def has_measurement(doc: dict) -> bool:
    end = _d(doc, "end")
    return bool(_l(doc, "intervals")) or any(k.startswith("sum") or k == "streams" for k in end)


def _role(start: dict) -> str | None:
    if "accepted_connection" in start:
        return "server"
    if "connecting_to" in start:
        return "client"
    return None


def _os(system_info: Any) -> str | None:
    if not isinstance(system_info, str):
        return None
    low = system_info.lower()
    for key, name in (
        ("linux", "linux"),
        ("darwin", "macos"),
        ("freebsd", "freebsd"),
        ("cygwin", "windows"),
        ("windows", "windows"),
        ("mingw", "windows"),
    ):
        if low.startswith(key):
            return name
    return None


def _is_bidir(doc: dict) -> bool:
    if _d(_d(doc, "start"), "test_start").get("bidir"):
        return True
    if "sum_sent_bidir_reverse" in _d(doc, "end"):
        return True
    return any("sum_bidir_reverse" in iv for iv in _l(doc, "intervals") if isinstance(iv, dict))


def _meta(test: Test, doc: dict, v: _Values, variant: str) -> None:
    start = _d(doc, "start")
    ts = _d(start, "test_start")
    meta = test.meta
    role = _role(start)
    meta["role"] = role
    meta["parser_variant"] = ("server-" if role == "server" else "") + variant
    version = start.get("version")
    if isinstance(version, str):
        meta["tool_version"] = version.removeprefix("iperf").strip() or None
    meta["os"] = _os(start.get("system_info"))
    proto = ts.get("protocol")
    if isinstance(proto, str):
        meta["protocol"] = proto.lower()
    meta["streams"] = v.i(ts, "num_streams", "start.test_start")
    meta["msg_size_bytes"] = v.i(ts, "blksize", "start.test_start")
    if _is_bidir(doc):
        meta["direction"] = "bidir"
    elif "reverse" in ts or role is not None:
        meta["direction"] = "reverse" if ts.get("reverse") else "forward"
    secs = v.i(_d(start, "timestamp"), "timesecs", "start.timestamp")
    if secs is not None and 0 <= secs < 2**33:
        meta["start_time"] = datetime.fromtimestamp(secs, tz=UTC)
    conn = next((c for c in _l(start, "connected") if isinstance(c, dict)), {})
    local, remote = conn.get("local_host"), conn.get("remote_host")
    if role == "server":
        meta["dst_ip"], meta["src_ip"] = local, remote
        meta["port"] = v.i(conn, "local_port", "start.connected")
        meta["src_ip"] = meta["src_ip"] or _d(start, "accepted_connection").get("host")
    else:
        meta["src_ip"], meta["dst_ip"] = local, remote
        target = _d(start, "connecting_to")
        meta["port"] = v.i(target, "port", "start.connecting_to") or v.i(
            conn, "remote_port", "start.connected"
        )
        host = target.get("host")
        if isinstance(host, str) and host != remote:
            meta["dst_host"] = host
    for key in ("src_ip", "dst_ip", "dst_host"):
        if not isinstance(meta.get(key), str) or not meta[key]:
            meta.pop(key, None)
    labels = test.labels
    for key, label in (
        ("omit", "omit_s"),
        ("duration", "requested_duration_s"),
        ("target_bitrate", "target_bitrate_bps"),
        ("bytes", "requested_bytes"),
    ):
        value = v.i(ts, key, "start.test_start")
        if value:
            labels[label] = value
    end = _d(doc, "end")
    for key in ("sender_tcp_congestion", "receiver_tcp_congestion"):
        if isinstance(end.get(key), str):
            labels[key] = end[key]


def _row(
    obj: dict, seq: int, stream: str, side: str | None, flow: str, v: _Values, where: str
) -> dict[str, Any]:
    row: dict[str, Any] = {
        "seq": seq,
        "kind": "interval",
        "status": "omitted" if obj.get("omitted") is True else "ok",
        "stream": stream,
        "role": side,
        "_flow": flow,
        "start_s": v.f(obj, "start", where),
        "end_s": v.f(obj, "end", where),
    }
    for key, col, kind in ROW_KEYS:
        value = v.i(obj, key, where) if kind == "i" else v.f(obj, key, where)
        if value is not None:
            row[col] = value
    jitter = v.f(obj, "jitter_ms", where)
    if jitter is not None:
        row["jitter_us"] = jitter * 1000.0
    return row


def _stream_id(obj: dict, k: int, v: _Values, where: str) -> str:
    sock = v.i(obj, "socket", where)
    return str(sock) if sock is not None else f"#{k}"


def _side(obj: dict, fallback: str | None) -> str | None:
    flag = obj.get("sender")
    if isinstance(flag, bool):
        return "sender" if flag else "receiver"
    return fallback


def _intervals(test: Test, doc: dict, v: _Values) -> None:
    role, direction = test.meta.get("role"), test.meta.get("direction")
    bidir = direction == "bidir"
    local = local_side(role, "forward" if bidir else direction)
    other = {"sender": "receiver", "receiver": "sender"}.get(local or "")
    test.columns = interval_columns(_l(doc, "intervals"), role, bidir, local, other)
    if test.columns is not None:
        return  # a clean document, read column by column (jsoncols.py)
    for seq, iv in enumerate(_l(doc, "intervals")):
        if not isinstance(iv, dict):
            continue
        where = f"intervals[{seq}]"
        for k, st in enumerate(_l(iv, "streams")):
            if not isinstance(st, dict):
                continue
            side = _side(st, local)
            stream = _stream_id(st, k, v, f"{where}.streams[{k}]")
            test.rows.append(
                _row(st, seq, stream, side, flow_of(role, side, bidir), v, f"{where}.streams[{k}]")
            )
        for key, fallback in (("sum", local), ("sum_bidir_reverse", other)):
            if isinstance(iv.get(key), dict):
                side = _side(iv[key], fallback)
                test.rows.append(
                    _row(iv[key], seq, "SUM", side, flow_of(role, side, bidir), v, f"{where}.{key}")
                )


def _total(obj: dict, side: str, stream: str, flow: str, v: _Values, where: str) -> Total:
    t = Total(
        side,
        stream,
        flow,
        v.f(obj, "start", where),
        v.f(obj, "end", where),
        v.f(obj, "seconds", where),
        v.i(obj, "bytes", where),
        v.f(obj, "bits_per_second", where),
        v.i(obj, "retransmits", where),
    )
    if side == "receiver":
        jitter = v.f(obj, "jitter_ms", where)
        t.jitter_us = None if jitter is None else jitter * 1000.0
        t.lost = v.i(obj, "lost_packets", where)
        t.loss_pct = v.f(obj, "lost_percent", where)
    t.packets = v.i(obj, "packets", where)
    t.out_of_order = v.i(obj, "out_of_order", where)
    t.cwnd_max = v.i(obj, "max_snd_cwnd", where)
    t.rtt_min = v.f(obj, "min_rtt", where)
    t.rtt_mean = v.f(obj, "mean_rtt", where)
    t.rtt_max = v.f(obj, "max_rtt", where)
    return t


def _end(test: Test, doc: dict, v: _Values) -> None:
    end = _d(doc, "end")
    role, bidir = test.meta.get("role"), test.meta.get("direction") == "bidir"
    for key, side, flow in (
        ("sum_sent", "sender", ""),
        ("sum_received", "receiver", ""),
        ("sum_sent_bidir_reverse", "sender", "reverse"),
        ("sum_received_bidir_reverse", "receiver", "reverse"),
    ):
        if isinstance(end.get(key), dict):
            test.totals.append(_total(end[key], side, "SUM", flow, v, f"end.{key}"))
    if not test.totals and isinstance(end.get("sum"), dict):
        _old_udp_sum(test, end["sum"], v)
    ooo: dict[str, int] = {}
    local = local_side(role, "forward" if bidir else test.meta.get("direction"))
    for k, st in enumerate(_l(end, "streams")):
        for key in ("sender", "receiver", "udp"):
            obj = _d(st, key)
            if not obj:
                continue
            where = f"end.streams[{k}].{key}"
            stream = _stream_id(obj, k, v, where)
            # The object's own "sender" flag says whether this host sent that stream.
            flow = flow_of(role, _side(obj, None), bidir) if bidir else ""
            if key == "udp":
                n = v.i(obj, "out_of_order", where)
                if n is not None:
                    ooo[flow] = ooo.get(flow, 0) + n
                continue
            total = _total(obj, key, stream, flow, v, where)
            own = obj.get("sender")
            if own is False or (own is None and local != "sender"):
                # Kernel figures of a socket that did not send this stream (the receiving
                # socket of a --bidir test, or zeros on the -R client): not the flow's.
                total.cwnd_max = total.rtt_min = total.rtt_mean = total.rtt_max = None
            test.totals.append(total)
    for flow, n in ooo.items():
        for t in test.totals:
            if t.side == "receiver" and t.stream == "SUM" and t.flow == flow:
                t.out_of_order = n
    cpu = _d(end, "cpu_utilization_percent")
    for key in CPU_KEYS:
        value = v.f(cpu, key, "end.cpu_utilization_percent")
        if value is not None:
            test.cpu[key] = value
    test.has_end = bool(test.totals)


def _old_udp_sum(test: Test, obj: dict, v: _Values) -> None:
    """3.0/3.1 UDP: one ``end.sum`` with the local bytes and the remote's jitter and loss."""
    local = local_side(test.meta.get("role"), test.meta.get("direction")) or "sender"
    mine = _total(obj, "receiver", "SUM", "", v, "end.sum")
    if local == "sender":
        rcv = Total(
            "receiver",
            "SUM",
            "",
            jitter_us=mine.jitter_us,
            lost=mine.lost,
            packets=mine.packets,
            loss_pct=mine.loss_pct,
        )
        mine.side, mine.jitter_us, mine.lost, mine.loss_pct = "sender", None, None, None
        test.totals.append(rcv)
    test.totals.append(mine)


def to_test(
    doc: dict,
    *,
    first: int,
    last: int,
    complete: bool,
    variant: str,
    source: str | None,
    strict: bool,
    duplicates: list[str] | None = None,
    lines: list[str] | None = None,
) -> Test:
    """``lines``: the document's text (from line ``first``), to find a bad value's line."""
    test = Test(line_start=first, line_end=last)
    v = _Values(test, source, strict, first, lines)
    _meta(test, doc, v, variant)
    _intervals(test, doc, v)
    _end(test, doc, v)
    if not complete:
        test.has_end = False
        test.warnings.append("the JSON document is cut short: complete intervals kept")
    error = doc.get("error")
    if isinstance(error, str) and error:
        test.errors.append(error)
    dups = duplicates or []
    if dups:
        test.warnings.append(
            "keys repeated in the JSON (iperf 3.6 and 3.12 bugs; first value "
            "kept): " + ", ".join(dups)
        )
    if v.nan_seen:
        test.warnings.append("nan values read as missing")
    return test
