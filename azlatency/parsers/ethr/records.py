"""ethr records: one JSON line each, read into :class:`Record` and grouped into tests
(:class:`Test`); ``runs.py`` turns a test into runs, ``__init__`` finds and parses the log."""

from __future__ import annotations

import calendar
import json
import math
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime
from functools import lru_cache

from ...errors import ParseError
from .._lines import NS_MAX, NS_MIN

TOOL = "ethr"
# ethr's Go struct fixes the key order: Time, Title, Type, then the payload.
_RECORD = re.compile(r'^\s*\{\s*"Time"\s*:\s*"[^"]*"\s*,\s*"Title"\s*:\s*"[^"]*"\s*,\s*"Type"\s*:')
_CLIENT_BANNER = re.compile(
    r"^Using destination: (?P<host>[^,]*), ip: (?P<ip>[^,]*), port: (?P<port>\d+)"
)
_SERVER_BANNER = re.compile(r"^(?:Listening on port (?P<port>\d+)|Accepting IP version)")
# The head of a server's console table, printed for each new test (serverui.go emitTestHdr;
# 'Pkts/s' in its -ui)
_SERVER_HEAD = re.compile(
    r"^\s*\[\s*RemoteAddress\s*\]\s+Proto\s+Bits/s\s+Conn/s\s+Pkts?/s\s+Latency\s*$"
)
_DONE = "Ethr done"
# A server-side test ends when the per-second records stop for longer than this.
SERVER_GAP_S = 2
_RATE = re.compile(r"^(\d+(?:\.\d+)?)\s*([KMGT]?)$")
_SCALE = {"": 1, "K": 10**3, "M": 10**6, "G": 10**9, "T": 10**12}
_DURATION = re.compile(r"^(\d+(?:\.\d+)?)\s*(ns|us|µs|ms|s)$")
_US = {"ns": 1e-3, "us": 1.0, "µs": 1.0, "ms": 1e3, "s": 1e6}


@dataclass
class Record:
    line: int  # 1-based within the parsed text
    time_ns: int | None  # None: read from the console, which prints no time
    type: str
    data: dict

    @property
    def message(self) -> str:
        return str(self.data.get("Message", ""))


@dataclass
class Test:
    """Records of one ethr invocation (client) or one server-side test."""

    role: str  # client / server
    records: list[Record] = field(default_factory=list)
    banner: dict | None = None  # host, ip, port of "Using destination"
    index: int = 0
    port: int | None = None  # server: "Listening on port 8888"
    done: bool = False
    warnings: list[str] = field(default_factory=list)
    form: str = "jsonl"  # or "console": read from what ethr printed (console.py)


# ---------------------------------------------------------------------------------------------
# Values


def placeholder(text: str | None) -> bool:
    """``""`` and ethr's padded ``"--  "`` mean "not measured in this test"."""
    return text is None or text.strip() in ("", "--")


def rate(text: str) -> float | None:
    """``'914.94M'`` → 914.94e6 (ethr scales by 1000); None for a placeholder or bad text."""
    m = _RATE.match(text.strip())
    value = float(m.group(1)) * _SCALE[m.group(2)] if m else None
    return value if value is None or math.isfinite(value) else None


def duration_us(text: str) -> float | None:
    """``'1.940ms'`` → 1940.0 µs; ``'0.000ns'`` → 0.0."""
    m = _DURATION.match(text.strip())
    value = float(m.group(1)) * _US[m.group(2)] if m else None
    return value if value is None or math.isfinite(value) else None


@lru_cache(maxsize=4096)  # one stamp per second: most records repeat the one before
def _time_ns(text: str) -> int | None:
    try:
        dt = datetime.fromisoformat(text.strip().replace("Z", "+00:00"))
    except ValueError:
        return None
    if dt.tzinfo is None:
        return None
    ns = calendar.timegm(dt.utctimetuple()) * 10**9 + dt.microsecond * 1000
    # the tables hold times as int64 ns since 1970 (years 1677-2262): beyond is not a time
    # ethr wrote (a damaged digit), and the line says so rather than pandas
    return ns if NS_MIN <= ns <= NS_MAX else None


# ---------------------------------------------------------------------------------------------
# Reading records and grouping them into tests


def read_records(text: str, source: str | None, strict: bool, warnings: list[str]) -> list[Record]:
    out = []
    for no, line in enumerate(text.split("\n"), start=1):
        if not line.strip():
            continue
        try:
            data = json.loads(line.lstrip("\ufeff"))
            if not isinstance(data, dict):
                raise ValueError("not an object")
            kind, when = data["Type"], _time_ns(str(data["Time"]))
            if when is None:
                raise ValueError(f"bad Time {data['Time']!r}")
        except (ValueError, KeyError) as exc:
            reason = f'expected an ethr record {{"Time": ..., "Type": ...}}, got {line.strip()[:60]!r} ({exc})'
            if strict:
                raise ParseError(
                    TOOL, source, no, reason, hint="ethr -o writes one JSON object per line"
                ) from None
            warnings.append(f"line {no} skipped: {reason}")
            continue
        out.append(Record(no, when, str(kind), data))
    return out


def server_kind(rec: Record) -> str:
    """What a server-side record measures; ethr's server reports every active test at once."""
    if rec.type == "LatencyResult":
        return "latency"
    d = rec.data
    if not placeholder(d.get("AverageLatency")):
        return "latency"
    # The server cannot tell ethr's packets/s test (-t p) from a UDP bandwidth test: both
    # show bits/s and packets/s.  Both are "bandwidth" here, with packets_per_s for UDP.
    if (rate(str(d.get("BitsPerSecond", ""))) or 0) > 0 or not placeholder(
        d.get("PacketsPerSecond")
    ):
        return "bandwidth"
    if not placeholder(d.get("ConnectionsPerSecond")):
        return "cps"
    return "unknown"


def group(recs: list[Record]) -> list[Test]:
    """Client tests open at ``Using destination``; an ERROR or result after ``Ethr done``
    (other than its ``Hint:``) opens a new one.  Server records are split by remote and
    protocol (the tests of clients served at once are apart, their rows interleaved second by
    second), by a pause longer than SERVER_GAP_S, by a change of what is measured, and on a
    console by the table head ethr prints for a new test (:class:`_Served`); the ``[SUM]``
    rows it adds for several clients are no client's and are said in the tests beside them."""
    tests: list[Test] = []
    cur: Test | None = None
    summed: list[int] = []  # lines of [SUM] rows
    served = _Served(tests, summed)
    listening = False  # a server banner was the last thing seen
    for rec in recs:
        msg = rec.message
        if rec.type == "INFO":
            m = _CLIENT_BANNER.match(msg)
            if m:
                cur, listening = Test("client", [rec], banner=m.groupdict()), False
                tests.append(cur)
                continue
            m = _SERVER_BANNER.match(msg)
            if m:  # server start-up lines belong to no test; they give the port
                served = _Served(tests, summed, int(m["port"]) if m["port"] else served.port)
                cur, listening = None, True
                continue
            if _SERVER_HEAD.match(msg):
                served.heads += 1
                continue
        result = rec.type in ("TestResult", "LatencyResult")
        server = cur is not None and cur.role == "server"
        if result and (server or (cur is None and (listening or _server_formatted(rec)))):
            cur = served.test_of(rec, cur if server else None)
            if cur is None:
                continue  # a [SUM] row
        elif not server and (cur is None or (cur.done and not msg.startswith("Hint:"))):
            server = listening or (cur is None and _server_formatted(rec))
            cur = Test("server" if server else "client", port=served.port if server else None)
            tests.append(cur)
        cur.records.append(rec)
        if rec.type == "INFO" and msg.startswith(_DONE):
            cur.done = True
    tests = [part for t in tests for part in _split_latency_tail(t) if t.records]
    for k, t in enumerate(tests):
        t.index = k
        if summed and t.role == "server" and (said := _sums(summed, t)):
            t.warnings.append(said)
    return tests


def _copied(test: Test, rec: Record) -> str:
    """Why ``rec`` is no next second of ``test`` but a copy of its records (a block pasted
    twice): its time is before the last one's, or it is that record again; '' if neither."""
    results = _results(test)
    if not results:
        return ""
    last = results[-1]
    if rec.time_ns is None or last.time_ns is None:
        return ""  # a console prints no time
    if rec.time_ns < last.time_ns:
        why = f"its time {rec.data.get('Time')} is before line {last.line}'s"
    else:  # the same record again, in the same second
        same = next((r for r in _same_second(results) if r.data == rec.data), None)
        if same is None:
            return ""
        why = f"it is line {same.line} again"
    return f"line {rec.line}: {why}: a copy of the lines above? Read as a test of its own"


def _same_second(results: list[Record]) -> Iterator[Record]:
    """The last of ``results`` and those before it of the same time."""
    for r in reversed(results):
        if r.time_ns != results[-1].time_ns:
            return
        yield r


def _results(test: Test) -> list[Record]:
    return [r for r in test.records if r.type in ("TestResult", "LatencyResult")]


class _Served:
    """The server tests open since the last start-up line: one per client and protocol."""

    def __init__(self, tests: list[Test], summed: list[int], port: int | None = None) -> None:
        self.tests, self.summed, self.port = tests, summed, port
        self.open: dict[tuple, Test] = {}  # (remote, protocol) -> its open test
        self.copied: dict[tuple, Test] = {}  # (remote, protocol) -> the test a copy interrupts
        self.heads = 0  # console table heads not yet met by a new test

    def test_of(self, rec: Record, cur: Test | None) -> Test | None:
        """The test ``rec`` is a record of (a new one where it starts one); None for a [SUM]
        row.  ``cur``: the server test of the messages just before it, if any."""
        if str(rec.data.get("RemoteAddr", "")).strip() == "[SUM]":
            self.summed.append(rec.line)
            return None
        key = (rec.data.get("RemoteAddr"), rec.data.get("Protocol"))
        test = self.open.get(key)
        copy = rec.data.pop("_copy", "") or (_copied(test, rec) if test is not None else "")
        rec.data.pop("_text", None)
        back = self.copied.get(key)
        if (
            back
            and rec.time_ns is not None
            and not (_copied(back, rec) or _server_split(back, rec))
        ):
            # past a copy, the test it copied goes on (a block pasted into a log; a console
            # has no time to tell where the copy ends)
            test = self.open[key] = self.copied.pop(key)
        elif test is None and cur is not None and not _results(cur):
            test = self.open[key] = cur  # its messages came first (an ERROR, a warning)
        elif test is None or self.heads or copy or _server_split(test, rec):
            self.heads = max(self.heads - 1, 0)
            if copy:
                self.copied[key] = test
            test = self.open[key] = Test("server", port=self.port, warnings=[copy] if copy else [])
            self.tests.append(test)
        return test


def _sums(lines: list[int], test: Test) -> str:
    """What a server test served beside others says of ethr's [SUM] rows (all of them: a
    row sums the second of every test it is printed among)."""
    first, last = test.records[0].line, test.records[-1].line
    if last < lines[0] or first > lines[-1]:
        return ""
    return (
        f"{len(lines)} [SUM] rows of ethr's (line {lines[0]} to line {lines[-1]}) not read: "
        "the server's total over the clients it served at once, the sum of their runs"
    )


def _split_latency_tail(test: Test) -> list[Test]:
    """Connections counted after a server-side latency test's last batch belong to the next
    test (a TCP-connect test started 2 s later in the corpus log), not to the latency test."""
    if test.role != "server" or not any(r.type == "LatencyResult" for r in test.records):
        return [test]
    last = max(i for i, r in enumerate(test.records) if server_kind(r) == "latency")
    tail = test.records[last + 1 :]
    if not tail or any(r.type != "TestResult" for r in tail):
        return [test]
    test.records = test.records[: last + 1]
    return [test, Test("server", tail, port=test.port)]


def _server_formatted(rec: Record) -> bool:
    """A result with no banner before it: the server pads unused fields with ``"--  "``, the
    client leaves them ``""`` (both corpus logs)."""
    return rec.type == "TestResult" and any(
        str(v).strip() == "--" for k, v in rec.data.items() if k != "Message"
    )


def _new_connection(last: Record, rec: Record) -> bool:
    before = rate(str(last.data.get("ConnectionsPerSecond", "")))
    now = rate(str(rec.data.get("ConnectionsPerSecond", "")))
    return before == 0 and bool(now)


def _server_split(cur: Test, rec: Record) -> bool:
    results = _results(cur)
    if not results:
        return False
    last = results[-1]
    if (rec.data.get("RemoteAddr"), rec.data.get("Protocol")) != (
        last.data.get("RemoteAddr"),
        last.data.get("Protocol"),
    ):
        return True
    if None not in (rec.time_ns, last.time_ns) and rec.time_ns - last.time_ns > SERVER_GAP_S * 1e9:
        return True  # (a console prints no time: its table heads split its tests)
    kind, before = server_kind(rec), {server_kind(r) for r in results}
    if kind == "bandwidth" and kind in before and _new_connection(last, rec):
        return True  # back-to-back bandwidth tests: the next one opens its connection(s)
    if kind in before or (kind == "cps" and "latency" in before):
        return False  # a latency test opens connections too (server log, 2024-02-02 11:20)
    # The first second of a test shows only its new connection (cps 1, no bits yet): it
    # belongs to the test that follows, not to a one-record "cps" test.
    return not (before == {"cps"} and len(results) == 1)
