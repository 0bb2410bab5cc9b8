"""iperf 2's ``-y C`` CSV: one line per report, no header (2.0-2.1), or, with ``-e`` in 2.2,
a header line naming the columns and split interval columns.

``time,srcaddress,srcport,dstaddr,dstport,transferid,interval,bytes,bits_per_second`` and,
for UDP, ``jitter_ms,lost,total,lost_pct,out_of_order`` (Locale.c ``reportCSV_bw_format``,
``reportCSV_bw_jitter_loss_format``).  Which end wrote the file shows only in UDP: a 2.0
client writes 9 columns and then the server's report with the addresses swapped; a 2.1+
client writes the UDP columns too, with ``-1`` datagrams in its total.  A 2.2 ``-e`` header
says it (``writecnt`` is the sender's, ``readcnt`` the receiver's).

``-d``/``-r`` add rows of a connection from the server back to the client.  A connection's
listening end receives; 2.0 writes the local address first, 2.1+ the connecting one, so the
port the rows share tells which end listened.  Rows of both ways are read as two runs.  The
server prints its ``Client connecting to CLIENT`` banner among its rows: the file is the
server's, and the way from CLIENT is the client's; else which way is whose stays unknown.
"""

from __future__ import annotations

import calendar
import re

from ...errors import ParseError
from .._lines import decimal_to_ns, stray
from .lines import ACCEPTED, CLIENT, DASHES, TOOL
from .model import Row, Test, flows, local_side

ROW = re.compile(
    r"^(?P<time>(?:[+-]\d{4}:)?\d{14}(?:\.\d+)?),(?P<a>[^,]+),(?P<ap>\d+),(?P<b>[^,]+),"
    r"(?P<bp>\d+),(?P<id>-?\d+),(?P<rest>.*)$"
)
HEADER = re.compile(r"^time,srcaddress,srcport,dstaddr,dstport,transferid,istart,iend,bytes,")
_NUMBER = re.compile(r"-?(?:\d+(?:\.\d*)?(?:[eE][-+]?\d+)?|nan)")
_REQUIRED = ("start", "end", "bytes", "bps")
# Counts (Locale.c prints them with %d / %lld; bin0.. are a histogram's): whole numbers only,
# so that a damaged '1e400' is a located error, not an int() of it.
_COUNTS = {
    "bytes", "errors", "datagrams", "outoforder", "writecnt", "writeerr", "writetimeo",
    "tcpretry", "tcpcwnd", "tcppcwnd", "readcnt", "readtimeo", "readerrlen", "ttcnt", "ttsize",
}  # fmt: skip
_WHOLE = re.compile(r"-?\d+")
_OFFSET = re.compile(r"^(?P<sign>[+-])(?P<h>\d\d)(?P<m>\d\d):(?P<t>\d{14}(?:\.\d+)?)$")


def time_ns(text: str) -> int | None:
    """A 2.2 ``-e`` time (``+0000:20261125163141.690921``: UTC offset, then local time) in
    ns since the epoch; ``None`` for 2.0/2.1's local time of unknown zone."""
    m = _OFFSET.match(text)
    if m is None:
        return None
    t = m["t"]
    whole = calendar.timegm(
        (int(t[:4]), int(t[4:6]), int(t[6:8]), int(t[8:10]), int(t[10:12]), int(t[12:14]))
    )
    frac = t[14:].lstrip(".") or "0"
    offset = (int(m["h"]) * 3600 + int(m["m"]) * 60) * (1 if m["sign"] == "+" else -1)
    return decimal_to_ns(f"{whole - offset}.{frac}")


def _bad(source: str | None, no: int, what: str, line: str) -> ParseError:
    return ParseError(TOOL, source, no, f"expected {what}, got {line.strip()[:80]!r}")


def _values(m: re.Match[str], names: list[str] | None, no: int, source: str | None) -> dict:
    """The columns after ``transferid`` as a dict: ``start``, ``end``, ``bytes``, ``bps`` and,
    when present, the UDP or ``-e`` ones by their header names."""
    rest = m["rest"].split(",")
    if names is None:  # 2.0/2.1: "0.0-1.0,bytes,bps[,jitter,lost,total,pct,ooo]"
        if len(rest) not in (3, 8) or "-" not in rest[0]:
            raise _bad(source, no, "an iperf 2 CSV row of 9 or 14 columns", m[0])
        start, _, end = rest[0].partition("-")
        keys = [
            "start",
            "end",
            "bytes",
            "bps",
            "jitter",
            "errors",
            "datagrams",
            "errpercent",
            "outoforder",
        ]
        values = [start, end, *rest[1:]]
    else:
        keys = names[6:]
        values = rest
        if len(values) != len(keys):
            raise _bad(source, no, f"{len(names)} columns as the header says", m[0])
        keys = ["start", "end", "bytes", "bps", *keys[4:]]
    out = dict(zip(keys, values))
    for key, value in out.items():
        whole = key in _COUNTS or key.startswith("bin")  # bin0..bin7: -e histogram counts
        if not (_WHOLE if whole else _NUMBER).fullmatch(value.strip()) or (
            key in _REQUIRED and "nan" in value
        ):
            raise _bad(source, no, f"{'a whole number' if whole else 'a number'} for {key}", m[0])
    return out


def read(lines: list[str], source: str | None, strict: bool) -> list[Test]:
    """One test per block of rows; a stream whose total was read and that starts again at 0
    opens the next test (``_restarts``)."""
    tests: list[Test] = []
    names: list[str] | None = None
    test: Test | None = None
    banners: list[tuple[int, str]] = []  # a server connecting back: (line, client)
    gap = False  # a blank line since the last row
    for i, line in enumerate(lines):
        no, s = i + 1, line.strip()
        gap = gap or not s
        if not s or DASHES.match(s) or ACCEPTED.match(s):
            continue
        if c := CLIENT.match(s):
            banners.append((no, c["host"]))
            continue
        if HEADER.match(s):
            names = s.split(",")
            test = None
            continue
        m = ROW.match(s)
        if m is None:
            if test is None:
                raise _bad(source, no, "an iperf 2 CSV row (-y C)", line)
            stray(TOOL, source, no, line, strict, test.warnings)
            continue
        values = _values(m, names, no, source)
        sid = "SUM" if m["id"] == "-1" else m["id"]
        if test is not None and _swapped(test, m) and "jitter" not in values:
            # a 2.0 UDP client's copy of the server's report, cut before its UDP columns
            stray(TOOL, source, no, line, strict, test.warnings)
            continue
        restarts = test is not None and _restarts(test, sid, float(values["start"]), gap)
        if test is None or (restarts and not _swapped(test, m)):
            test = Test(role=None, variant="csv-enhanced" if names else "csv", line_start=no)
            tests.append(test)
        _row(test, m, values, sid, no, names)
        test.line_end, gap = no, False
    out: list[Test] = []
    for k, t in enumerate(tests):
        if names:
            t.role = "client" if "writecnt" in names else "server" if "readcnt" in names else None
        after = tests[k - 1].line_end if k else 0
        client = next((h for no, h in reversed(banners) if after < no <= t.line_end), None)
        for part in _ways(t, client):
            _roles(part, names)
            out.append(part)
    return out


def _ways(test: Test, client: str | None) -> list[Test]:
    """The test as one test per way its data went (``model.flows``), each with its
    addresses; the writer's role where a server's banner names the client (or a 2.0 UDP
    client's report row shows it), else unknown, with the side it was on where UDP shows it."""
    firsts = {k: s.rows[0].figures["_pair"] for k, s in test.streams.items() if s.rows}
    firsts.pop("SUM", None)
    shared = set.intersection(*({ap, bp} for _, ap, _, bp in firsts.values())) if firsts else ()
    if len(firsts) < 2 or len(shared) != 1:
        return [test]
    (port,) = shared
    way = {k: (b, a) if ap == port else (a, b) for k, (a, ap, b, bp) in firsts.items()}
    kinds = list(dict.fromkeys(way.values()))
    if len(kinds) != 2 or kinds[0] != kinds[1][::-1] or kinds[0][0] == kinds[0][1]:
        return [test]
    reported = next((k for k, s in test.streams.items() if s.report is not None), None)
    main = kinds[0]
    if client is not None and any(w[0] == client for w in kinds):
        test.role, main = "server", next(w for w in kinds if w[0] == client)
    elif reported is not None:
        test.role, main = "client", way[reported]
    for k, w in way.items():
        test.streams[k].facts["back"] = w != main
    other = main[::-1]
    parts = flows(test, (f"from {main[0]} to {main[1]}", f"from {other[0]} to {other[1]}"))
    for part, (src, dst) in zip(parts, (main, other)):
        if test.role is None:  # each way by its own ends: which end was the client is unknown
            part.meta.update(src_ip=src, dst_ip=dst, port=int(port), direction=None)
        else:  # the client and the server, as in the text, and the direction
            part.meta.update(src_ip=main[0], dst_ip=main[1], port=int(port))
    return parts


def _restarts(test: Test, sid: str, start: float, gap: bool) -> bool:
    """A row of a stream whose total was read, from 0 again: the next test.  After a blank
    line (iperf 2 writes none between a test's rows) a single row from 0 was the total too."""
    stream = test.streams.get(sid)
    if not stream or not stream.rows or start != 0:
        return False
    total_read = len(stream.rows) > 1 and stream.rows[-1].start == 0
    return total_read or (gap and len(stream.rows) == 1 and stream.rows[0].start == 0)


def _swapped(test: Test, m) -> bool:
    """The addresses of ``m`` are those of the test's first row, the other way round: the
    server's report a 2.0 UDP client prints after its own rows."""
    first = next((r for s in test.streams.values() for r in s.rows), None)
    if first is None:
        return False
    a, ap, b, bp = first.figures["_pair"]
    return (m["a"], m["ap"], m["b"], m["bp"]) == (b, bp, a, ap)


def _row(test: Test, m, values: dict, sid: str, no: int, names) -> None:
    stream = test.stream(sid)
    row = Row(sid, float(values["start"]), float(values["end"]), values["start"], values["end"], no)
    row.bytes = int(float(values["bytes"]))
    row.bps = float(values["bps"])
    row.figures["_pair"] = (m["a"], m["ap"], m["b"], m["bp"])
    row.figures["_time_ns"] = time_ns(m["time"])
    for key, name in (
        ("jitter", "jitter_us"),
        ("errors", "lost"),
        ("datagrams", "total"),
        ("errpercent", "loss_pct"),
        ("outoforder", "ooo"),
        ("writecnt", "writes"),
        ("writeerr", "write_errors"),
        ("tcpretry", "retransmits"),
        ("readcnt", "reads"),
        ("tcprtt", "tcp_rtt_us"),
        ("tcprttvar", "tcp_rttvar_us"),
        ("tcpcwnd", "cwnd_k"),
        ("ttavg", "lat_avg"),
        ("ttmin", "lat_min"),
        ("ttmax", "lat_max"),
        ("ttsdev", "lat_std"),
        ("ttcnt", "lat_count"),
    ):
        if key in values:
            row.figures[name] = values[key]
    if test.protocol != "udp":
        test.protocol = "udp" if "jitter" in values else "tcp"
    if _swapped(test, m) and "jitter" in values and stream.rows:  # 2.0 client: the report
        row.report = True
        stream.report = row
    else:
        stream.rows.append(row)


def _roles(test: Test, names: list[str] | None) -> None:
    """Which end wrote the rows, where the file can tell, and the figures as the text reader
    names them."""
    rows = [r for s in test.streams.values() for r in s.rows]
    if not names and test.protocol == "udp" and (test.role is None or not test.split):
        sent = any(s.report for s in test.streams.values()) or any(
            "jitter_us" not in r.figures or r.figures.get("total") == "-1" for r in rows
        )
        if test.split:  # one way of a -d/-r test: which end wrote it is not known
            test.side = "sender" if sent else "receiver"
        else:
            test.role = "client" if sent else "server"
    test.variant += "-udp" if test.protocol == "udp" else ""
    first = rows[0] if rows else None
    # The client writes its own address first in every version, and so does any end in
    # 2.2's -e CSV; a 2.0 server writes its own first, a 2.1 server the client's: unknown.
    if first is not None and not test.split and (names or test.role == "client"):
        a, ap, b, bp = first.figures["_pair"]
        test.meta.update(src_ip=a, dst_ip=b, port=int(bp))
    side = test.side or local_side(test.role, test.meta.get("direction") == "reverse")
    for stream in test.streams.values():
        for row in stream.rows + ([stream.report] if stream.report else []):
            _figures(row, sender=side == "sender" and not row.report)


def _figures(row: Row, *, sender: bool) -> None:
    f = row.figures
    out: dict = {"_time_ns": f.get("_time_ns")}
    if not sender and "jitter_us" in f:
        jitter = f["jitter_us"]
        out["jitter_us"] = (
            None if "nan" in jitter or float(jitter) < 0 else round(float(jitter) * 1e3, 6)
        )
        out["lost"], out["total"] = int(f["lost"]), int(f["total"])
        out["loss_pct"] = float(f["loss_pct"]) if "nan" not in f["loss_pct"] else None
        row.out_of_order = int(f["ooo"])
    for key in ("writes", "write_errors", "retransmits", "reads", "lat_count"):
        if key in f:
            out[key] = int(f[key])
    for key in ("tcp_rtt_us", "tcp_rttvar_us"):
        if key in f:
            out[key] = float(f[key])
    if "cwnd_k" in f and int(f["cwnd_k"]) >= 0:
        out["cwnd_bytes"] = int(f["cwnd_k"]) * 1024
    for stat in ("avg", "min", "max", "std"):
        if f"lat_{stat}" in f:
            out[f"lat_{stat}_us"] = round(float(f[f"lat_{stat}"]) * 1e3, 6)
    row.figures = out
