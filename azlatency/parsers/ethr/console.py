"""ethr's console output: what an ethr client prints without ``-o`` (and at a terminal)::

    Ethr: Comprehensive Network Performance Measurement Tool (Version: v1.0.0)
    Using destination: 10.78.2.2, ip: 10.78.2.2, port: 8888
    Running latency test: 1000, 1
    -----------------------------------------------------------------------------------------
          Avg       Min       50%       90%       95%       99%     99.9%    99.99%       Max
     55.893us  29.504us  50.315us  90.740us 103.904us 135.051us 180.267us 180.267us 190.934us
    Ethr done, duration: 3s.

Its log (``-o``) wraps these very lines in INFO records and adds, per second, a TestResult
and, per latency batch, a LatencyResult (ethr ``clientui.go``: each console line is printed
and logged by one call).  The console is read by making those records from it: each line an
INFO record, each row of an interval table a TestResult (its ``[  SUM]`` row, or its one
stream's row, or the row of a table without stream ids: ``Conn/s``, ``Pkts/s``), each row
under ``Avg  Min  50% ...`` a LatencyResult; then ``records.group`` and ``runs.build`` as for a
log.  A console has no time stamps: ``start_time`` and the samples' ``time_ns`` stay empty.
"""

from __future__ import annotations

import re

from .records import _CLIENT_BANNER, _SERVER_HEAD, Record

BANNER = re.compile(
    r"^\s*Ethr: Comprehensive Network Performance Measurement Tool \(Version: (?P<v>[^)]*)\)\s*$"
)
_MAINTAINER = re.compile(r"^\s*Maintainer: Pankaj Garg\b")
LATENCY_HEAD = re.compile(r"^\s*Avg\s+Min\s+50%\s+90%\s+95%\s+99%\s+99\.9%\s+99\.99%\s+Max\s*$")
_DURATION = r"\d+(?:\.\d+)?(?:ns|us|µs|ms|s)"
_LATENCY_ROW = re.compile(rf"^\s*{_DURATION}(?:\s+{_DURATION}){{8}}\s*$")
TABLE_HEAD = re.compile(r"^\s*(?:\[\s*ID\s*\]\s+)?Protocol\s+Interval\s+(?P<cols>\S.*?)\s*$")
_TABLE_ROW = re.compile(
    r"^\s*(?:\[\s*(?P<id>\w+)\s*\]\s+)?(?P<proto>TCP|UDP|ICMP)\s+\d+-\d+\s+sec\s+(?P<values>\S.*?)\s*$"
)
_CONNECTED = re.compile(r"^\s*\[\s*\w+\s*\] local \S+ port \d+ connected to ")
# A server's console (ethr -s without -ui: serverui.go serverCli): its start-up lines, then a
# table head for each new test and a row a second for each client it serves ('[ 10.79.0.2]
# TCP 9.04G 1 -- --'; with several at once, a '- - -' rule each second and a '[SUM]' row).
# Its address (an IPv6 one cut to its last 13 characters) has a dot or a colon: a client's
# stream id ('[  5]  TCP  000-001 sec') has neither.
_SERVER_START = re.compile(
    r"^\s*(?:Accepting IP version: \S.*|Listening on port \d+ for \S.*|Listening on \S+)\s*$"
)
_SERVER_ROW = re.compile(
    r"^\s*\[\s*(?P<remote>\[SUM\]|[^\]\s]*[.:][^\]\s]*)\s*\]\s+(?P<proto>TCP|UDP|ICMP)\s+"
    r"(?P<bits>\S+)\s+(?P<conn>\S+)\s+(?P<pkts>\S+)(?:\s+(?P<latency>\S+))?\s*$"
)
# The keys ethr's log writes a batch's figures under (runs.LATENCY_FIELDS: its median under
# "P90", ..., its maximum under "P50"), in the order the console prints them (avg, min, 50%,
# ..., 99.99%, max)
_LOGGED = ("Avg", "Min", "P90", "P95", "P99", "P999", "P9999", "Max", "P50")
_COLUMN_KEY = {
    "Bits/s": "BitsPerSecond",
    "Pkts/s": "PacketsPerSecond",
    "Conn/s": "ConnectionsPerSecond",
}
# messages ethr prints as errors (and logs as ERROR records): 'Error dialing connection: ...',
# 'Failed in handshake with the server. Error: ...'
_ERROR = re.compile(r"^\s*(?:Error\b|Failed\b|\S.*\bError: )")
# Every line an ethr client prints (client.go, clientui.go, ui.go): any other line is no ethr
# line (a stray line: said, or refused when strict), and no record
_KNOWN = tuple(
    re.compile(p)
    for p in (
        r"^\s*Running latency test: \d+, \d+\s*$",
        r"^\s*-{3,}\s*$",
        r"^\s*(?:- )+-?\s*$",
        r"^\s*\[(?:tcp|udp|icmp)\] (?:\[warmup\] )?Connection (?:from \S+ to \S+: \S+|to \S+: \S.*)$",
        r"^\s*TCP connect statistics for \S+:\s*$",
        r"^\s*Sent = \d+, Received = \d+, Lost = \d+\s*$",
        r"^\s*Tracing route to \S+ over \d+ hops:\s*$",
        r"^\s*\d+\.\|--\S.*$",
        r"^\s*Host: \S+\s+Sent\s+Recv\s+Last\s+Avg\s+Best\s+Wrst\s*$",
        r"^\s*Ethr done, (?:duration: \d+(?:\.\d+)?s|measurement complete|connection "
        r"terminated|received interrupt signal)\.\s*$",
        r"^\s*Hint: \S.*$",
        r"^\s*Warning: \S.*$",
    )
)
_CLIENT_BANNER_LINE = re.compile(r"^\s*" + _CLIENT_BANNER.pattern.lstrip("^"))
_DASHES = re.compile(r"^\s*(?:-{3,}|(?:- )+-?)\s*$")
_ALL = (
    *_KNOWN,
    _CLIENT_BANNER_LINE,
    _ERROR,
    BANNER,
    _MAINTAINER,
    LATENCY_HEAD,
    _LATENCY_ROW,
    TABLE_HEAD,
    _TABLE_ROW,
    _CONNECTED,
    _SERVER_START,
    _SERVER_HEAD,
    _SERVER_ROW,
)
# the lines every console output has: one of them makes a text ethr's console
OPENERS = (BANNER, _CLIENT_BANNER, LATENCY_HEAD, TABLE_HEAD)


def is_console(lines: list[str]) -> bool:
    """Whether the text is ethr's console (its banner or 'Using destination: ...' line and no
    JSON record)."""
    return any(BANNER.match(x) or _CLIENT_BANNER.match(x.strip()) for x in lines)


def version(lines: list[str]) -> str | None:
    m = next((m for x in lines if (m := BANNER.match(x))), None)
    v = m["v"].strip() if m else None
    return None if v in (None, "", "UNKNOWN") else v.removeprefix("v")


def known(line: str) -> bool:
    """Whether ``line`` is one an ethr client prints."""
    return any(p.match(line) for p in _ALL)


def records(lines: list[str], strays: list[tuple[int, str]] | None = None) -> list[Record]:
    """The records ethr's log would hold for these console lines (no times); the lines that
    are no ethr line go to ``strays`` instead."""
    out: list[Record] = []
    served: dict[tuple, list[Record]] = {}  # a server's rows, per client and protocol
    columns: list[str] = []
    streams = 0  # connections opened since the banner ('[  7] local ... connected to ...')
    latency = False
    target = None
    for no, raw in enumerate(lines, start=1):
        line = raw.rstrip()
        if not line.strip() or BANNER.match(line) or _MAINTAINER.match(line):
            continue
        if not known(line):
            if strays is not None:
                strays.append((no, line))
            continue
        if _DASHES.match(line):
            continue  # a rule between tables: it says nothing (and would open a test alone)
        if LATENCY_HEAD.match(line):
            latency = True  # printed, not logged (clientui.go emitLatencyHdr)
            continue
        text = line.strip() if _CLIENT_BANNER.match(line.strip()) else line
        kind = "ERROR" if _ERROR.match(text) else "INFO"  # ui.printErr: an ERROR in the log
        out.append(Record(no, None, kind, {"Message": text.strip() if kind == "ERROR" else text}))
        if m := _CLIENT_BANNER.match(text):
            target, streams, latency, columns = m["ip"], 0, False, []
        elif _CONNECTED.match(line):
            streams += 1
        elif latency and _LATENCY_ROW.match(line):
            out[-1] = Record(no, None, "LatencyResult", _batch(line, target))
        elif m := TABLE_HEAD.match(line):
            columns = m["cols"].split()
        elif (m := _TABLE_ROW.match(line)) and columns and _per_second(m["id"], streams):
            out.append(Record(no, None, "TestResult", _result(m, columns, target)))
        elif m := _SERVER_ROW.match(line):
            out[-1] = _served(no, m)
            if m["remote"] != "[SUM]":
                _repeated(served.setdefault((m["remote"], m["proto"]), []), out[-1], line)
        elif _SERVER_HEAD.match(line):
            served = {}  # a new test: its rows are no copy of the last one's
    return out


# How many rows back a server's console is searched for the block a copy repeats.
_COPY_ROWS = 64


def _repeated(rows: list[Record], rec: Record, line: str) -> None:
    """Mark ``rec`` ('_copy': why) where it ends a block of a client's rows that repeats the
    block just before it (pasted twice: a console prints no time to tell).  A block of one
    row counts where it is a latency average (to the nanosecond), others must hold two
    distinct rows: a paced UDP test prints '200M  1.56K' second after second."""
    rec.data["_text"] = " ".join(line.split())
    rows.append(rec)
    texts = [r.data["_text"] for r in rows[-2 * _COPY_ROWS :]]
    for m in range(1, len(texts) // 2 + 1):
        block, before = texts[-m:], texts[-2 * m : -m]
        if block != before or (len(set(block)) < 2 and rows[-1].type != "LatencyResult"):
            continue
        first = rows[-m]
        first.data["_copy"] = (
            f"line {first.line} to line {rec.line} repeat line {rows[-2 * m].line} to line "
            f"{rows[-m - 1].line}: a copy? Read as a test of its own"
        )
        del rows[-2 * m :]  # a copy found is not searched again
        return


def _served(no: int, m: re.Match[str]) -> Record:
    """A server console's row as the TestResult ethr logs for it (logResults); a row of a
    latency test as a batch of its average alone (the server logs the batch's percentiles
    but prints only that)."""
    if m["latency"] and m["latency"].strip("-"):
        batch = {"RemoteAddr": m["remote"], "Protocol": m["proto"], "Avg": m["latency"]}
        return Record(no, None, "LatencyResult", batch)
    return Record(
        no,
        None,
        "TestResult",
        {
            "RemoteAddr": m["remote"],
            "Protocol": m["proto"],
            "BitsPerSecond": m["bits"],
            "ConnectionsPerSecond": m["conn"],
            "PacketsPerSecond": m["pkts"],
            "AverageLatency": m["latency"] or "",
        },
    )


def _per_second(sid: str | None, streams: int) -> bool:
    """Whether a table row is the second's total: the SUM row, the one stream's row, or a row
    of a table without stream ids (connections or packets per second)."""
    return sid is None or sid == "SUM" or streams <= 1


def _batch(line: str, target: str | None) -> dict:
    data = {"RemoteAddr": target, "Protocol": "TCP"}
    data.update(zip(_LOGGED, line.split()))
    return data


def _result(m: re.Match[str], columns: list[str], target: str | None) -> dict:
    data = {"RemoteAddr": target, "Protocol": m["proto"]}
    for column, value in zip(columns, m["values"].split()):
        if column in _COLUMN_KEY:
            data[_COLUMN_KEY[column]] = value
    return data
