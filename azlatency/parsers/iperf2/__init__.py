"""iperf 2 (the ``iperf`` command, 2.0.5-2.2.x): client and server text, ``-e``, ``-y C``.

One run per test: a client output (``Client connecting to H, TCP port P`` and what follows),
each test of a server log (``Server listening on ...``, then one group of ``[  1] local ...
connected with ...`` lines per test), each block of ``-y C`` rows.  ``iperf2/lines.py`` has
the line shapes, ``iperf2/model.py`` turns a test into a run (``docs/tools/iperf2.md``),
``iperf2/csvfmt.py`` reads the CSV.

iperf 2 is not iperf3: its outputs never go to the iperf3 parser (which refuses them with a
located error when asked to read one) and iperf3's never come here.  Latency: a UDP ``-e``
receiver and a ``--trip-times`` TCP server print one-way delays (sender clock to receiver
clock), per interval and for the test: ``latency_basis = one_way``.  The TCP RTT of ``-e``
clients is the kernel's smoothed estimate (``tcp_rtt``), not a latency measurement.
"""

from __future__ import annotations

import math
import re

from ...errors import NothingMeasured, ParseError, WrongTool
from .._base import Parsed, Span, ToolInfo
from .._lines import PROMPT, anywhere, command_of, pieces, run_together, stray
from . import csvfmt
from .lines import (
    ACCEPTED,
    CLIENT,
    CONGESTION,
    CONNECT_FAILED,
    CONNECT_TIME,
    CONNECTED,
    DASHES,
    HEADER,
    INTERVAL,
    MSG_SIZE,
    NO_ACK,
    OUT_OF_ORDER,
    PEER,
    SENT,
    SERVER,
    SERVER_REPORT,
    STARTED,
    TCP_INIT,
    TOOL,
    TRIP_TIME,
    VERSION,
    expected_groups,
    unknown_columns,
)
from .model import (
    Row,
    Test,
    finish,
    flows,
    rate_bps,
    row_figures,
    size_bytes,
    transfer_bytes,
    utc_ns,
)

INFO = ToolInfo(
    tool=TOOL,
    description="iperf 2 client/server text (-i intervals, -P [SUM], UDP jitter/loss, -e "
    "enhanced columns, --trip-times one-way latency) and -y C CSV",
    variants=(
        "client-text",
        "client-text-udp",
        "server-text",
        "server-text-udp",
        "text",
        "csv",
        "csv-udp",
        "csv-enhanced",
        "csv-enhanced-udp",
    ),
    versions="2.0.5-2.2.x (captured: 2.0.5, 2.0.13, 2.1.8, 2.2.1, 2.2.n of 2025-12)",
    produces=("runs", "samples", "summaries"),
    flags="-i 1 -e (retries, cwnd, RTT; UDP latency); --trip-times on the client for the "
    "server's one-way latency of TCP writes",
    latency_basis="one_way",
    # A UDP receiver prints "N datagrams received out-of-order" after its total only when
    # there were some: a log cut right after the total reads as one with none.
    # So does a 2.0 UDP client's CSV cut before the server's report row: its own rows have
    # the 9 columns of a TCP test.
    open_ended=("client-text-udp", "server-text-udp", "csv"),
    commands=("iperf",),  # iperf 2's command is `iperf`
)

_FENCE = re.compile(r"^\s*(```|~~~)")
_HEADING = re.compile(r"^\s{0,3}#{1,6}\s")
# iperf 2 interval times: one decimal (2.0) or four (2.1); iperf3 prints two.
_OWN_TIMES = re.compile(r"^\[[^\]]*\]\s*\d+\.(?:\d|\d{4})\s*-\s*\d+\.(?:\d|\d{4})\s+sec\b")
_COMMANDS = ("iperf",)


# ---------------------------------------------------------------------------------------------
# where the outputs are


# The reader's hook: the kinds _opens() accepts (on stripped lines, so unanchored); dashes
# open only above a client or server line, which is in the output they open.  A CSV row has
# no literal: the reader searches the text for it, anchored at a line's start past its
# indent (a search unanchored costs ten times more on a log of timestamps).
OPENERS = (
    *(anywhere(p) for p in (CLIENT, SERVER, CONNECTED, INTERVAL, VERSION, CONNECT_FAILED)),
    anywhere(csvfmt.HEADER),
    re.compile(r"^\s*" + csvfmt.ROW.pattern.removeprefix("^")),
)


def _kind(line: str) -> str | None:
    s = line.strip()
    if not s:
        return None
    if s[:20] == "-" * 20 and (cut := _JOINED.search(s)):
        s = s[cut.start() :]  # a banner run into its frame of dashes: the banner's kind
    for name, pattern in (
        ("client", CLIENT),
        ("server", SERVER),
        ("connected", CONNECTED),
        ("interval", INTERVAL),
        ("header", HEADER),
        ("dashes", DASHES),
        ("sent", SENT),
        ("report", SERVER_REPORT),
        ("ooo", OUT_OF_ORDER),
        ("failed", CONNECT_FAILED),
        ("noack", NO_ACK),
        ("trip", TRIP_TIME),
        ("version", VERSION),
        ("csv", csvfmt.ROW),
        ("csvhead", csvfmt.HEADER),
        ("setting", ACCEPTED),
    ):
        if pattern.match(s):
            return name
    return None


def _opens(lines: list[str], i: int) -> bool:
    """An iperf 2 output starts here: its banner (or the dashes above it), a ``connected
    with`` line, a connection failure, CSV, or interval lines with iperf 2's times."""
    kind = _kind(lines[i])
    if kind in ("client", "server", "connected", "csv", "csvhead", "version"):
        return True
    if kind == "dashes":
        nxt = next((x for x in lines[i + 1 : i + 3] if x.strip()), "")
        return _kind(nxt) in ("client", "server")
    if kind == "failed":
        # 2.0's bare "connect failed: Connection refused" is qperf's line too: iperf 2's only
        # with its banner after it.
        s = lines[i].lstrip()
        after = [_kind(x) for x in lines[i + 1 : i + 5]]
        return s.startswith(("tcp ", "udp ")) or "dashes" in after or "client" in after
    return kind == "interval" and bool(_OWN_TIMES.match(lines[i].strip()))


def locate(lines: list[str]) -> list[Span]:
    """From an opening line through every iperf 2 line; blank lines and up to three foreign
    lines inside when the output resumes after them; never past a fence, a heading or a
    prompt.  The ``iperf`` command line just above is included."""
    spans: list[Span] = []
    i, n = 0, len(lines)
    while i < n:
        if not _opens(lines, i):
            i += 1
            continue
        start = i - 1 if i and command_of(lines[i - 1], _COMMANDS)[0] else i
        csv_block = _kind(lines[i]) in ("csv", "csvhead") or _csv_follows(lines, i)
        j = i + 1
        while j < n:
            kind = _kind(lines[j])
            if csv_block and kind in _CSV_ASIDE and _csv_follows(lines, j):
                j += 1
                continue
            if _ends(lines[j]) or (csv_block != (kind in ("csv", "csvhead")) and kind):
                break
            if kind is None:
                nxt = next((k for k in range(j + 1, min(j + 4, n)) if _kind(lines[k])), None)
                if (
                    nxt is None
                    or _ends(lines[nxt])
                    or csv_block != (_kind(lines[nxt]) in ("csv", "csvhead"))
                ):
                    break
                j = nxt
                continue
            j += 1
        end = j
        while end > i + 1 and not lines[end - 1].strip():
            end -= 1
        spans.append(Span(start, end, TOOL, weight=2.0))
        i = max(end, i + 1)
    return spans


# Lines a server prints among its CSV rows when it connects back to the client (-d, -r).
_CSV_ASIDE = (None, "dashes", "client", "setting")


def _csv_follows(lines: list[str], i: int) -> bool:
    """Line ``i`` is a dashes, banner or setting line that a CSV row follows, with only such
    lines (up to eight) between."""
    for line in lines[i : i + 9]:
        kind = _kind(line)
        if kind in ("csv", "csvhead"):
            return True
        if kind not in _CSV_ASIDE[1:] and line.strip():
            return False
    return False


# Two of iperf 2's lines run together where a line break was lost: a banner right after its
# frame of dashes ('----...----Server listening on TCP port 5001'), a stream's line ('[  1]',
# '[SUM]', '[ ID]') right after another line's last character, a banner or setting right
# after another line's ('Write buffer size:  128 KByteTCP window size: ...': the setting read
# as the first line's lost the message size without a word).
_STARTS = (
    r"Client connecting to |Server listening on |TCP window size|UDP buffer size|"
    r"(?:Sending|Receiving) \d+ byte datagrams|(?:Write|Read) buffer size|"
    r"TOS (?:set|defaults)|TCP congestion control "
)
_JOINED = re.compile(
    r"(?<=-{20})(?=[^-\s])|(?<=\S)(?=\[\s*(?:\*?\d+|SUM(?:-\d+)?|ID|FD\d+)\])|"
    rf"(?<=\S)(?={_STARTS})"
)
_SETTING_AFTER = re.compile(rf"\S(?:{_STARTS})")


def _joined_at(s: str) -> list[int]:
    """Where ``s`` holds several of iperf 2's lines, the cuts between them; none where a
    piece is no line of iperf 2's ('ñ[ ID] Interval ...': a stray character before a line)."""
    cuts = [m.start() for m in _JOINED.finditer(s)]
    return cuts if all(_kind(p) for p in pieces(s, cuts)) else []


def _printed_twice(tests: list[Test]) -> None:
    """A test on the connection of an earlier one (both ends' addresses and ports) with the
    same rows: the same test printed again (a script that echoes its client's output after
    the interleaved stream, cnuvem23's Docker log).  Both are read; the later one says so."""
    seen: dict[tuple, Test] = {}
    for test in tests:
        own = [k for k in test.connected if not test.streams[k].facts.get("mirror")]
        stream = test.streams[own[0]] if own else None
        if stream is None or "ends" not in stream.facts:
            continue
        rows = tuple((r.start, r.end, r.bytes) for r in stream.rows)
        first = seen.setdefault((test.role, stream.facts["ends"], rows), test)
        if first is not test and rows:
            (a, p), (b, q) = stream.facts["ends"]
            test.warnings.append(
                f"line {test.line_start}: the connection {a}:{p} - {b}:{q} and the figures of "
                f"the test from line {first.line_start} again: a repeated copy? (both read)"
            )


def _ends(line: str) -> bool:
    return bool(_FENCE.match(line) or _HEADING.match(line) or PROMPT.match(line))


# ---------------------------------------------------------------------------------------------
# text


class _Text:
    def __init__(self, lines: list[str], source: str | None, strict: bool) -> None:
        self.lines, self.source, self.strict = lines, source, strict
        self.tests: list[Test] = []
        self.test: Test | None = None
        self.session: dict = {}  # role, protocol, meta, labels of the banner in force
        self.pending: list[tuple[str, int]] = []
        self.version: str | None = None
        self.last: Row | None = None

    def read(self) -> list[Test]:
        for i, line in enumerate(self.lines):
            s = line.strip()
            if s and not DASHES.match(s) and not command_of(line, _COMMANDS)[0]:
                maybe = "[" in s[1:] or s[:20] == "-" * 20 or _SETTING_AFTER.search(s)
                if maybe and (cuts := _joined_at(s)):
                    self._joined(s, cuts, i + 1)
                else:
                    self._line(s, i + 1)
        _printed_twice(self.tests)
        return self.tests

    def _joined(self, s: str, cuts: list[int], no: int) -> None:
        """Line ``no`` holding several of iperf 2's lines: each read as a line (a frame of
        dashes passed over), and the line named."""
        for piece in map(str.strip, pieces(s, cuts)):
            if piece and not DASHES.match(piece):
                self._line(piece, no)
        self._current(no).warnings.append(run_together(no, len(cuts) + 1, "iperf 2"))

    def _new(self, no: int) -> Test:
        sess = self.session
        test = Test(role=sess.get("role"), protocol=sess.get("protocol"), line_start=no)
        test.meta.update(sess.get("meta", {}))
        test.labels.update(sess.get("labels", {}))
        test.errors, self.pending = self.pending, []
        if self.version:
            test.meta["tool_version"] = self.version
        self.tests.append(test)
        self.test = test
        return test

    def _banner(self, m, role: str, no: int) -> None:
        if self._other_end(role, int(m["port"])):
            return
        meta = {"port": int(m["port"])}
        if role == "client" and not re.fullmatch(r"[\d.]+|[\da-fA-F:]+", m["host"]):
            meta["dst_host"] = m["host"]
        self.session = {"role": role, "protocol": m["proto"].lower(), "meta": meta, "labels": {}}
        above = no - 1 if no > 1 and DASHES.match(self.lines[no - 2].strip()) else no
        self.test = self._new(above) if role == "client" else None

    def _other_end(self, role: str, port: int) -> bool:
        """A banner of the other end of a -d/-r test: the server connecting back to the
        client, or the client's own listener (on the port it calls) printed before its first
        report line."""
        test = self.test
        if test is None or test.role == role:
            return False
        if role == "client":
            return test.role == "server" and bool(test.connected)
        listener = test.meta.get("port") == port
        return test.role == "client" and listener and not test.has_rows and not test.errors

    def _setting(self, s: str) -> None:
        target = self.test.meta if self.test is not None else self.session.setdefault("meta", {})
        labels = (
            self.test.labels if self.test is not None else self.session.setdefault("labels", {})
        )
        if m := MSG_SIZE.match(s):
            size = int(m["n"]) if m["n"] else size_bytes(m["v"], m["u"])
            if size is not None:
                target["msg_size_bytes"] = size
        elif m := CONGESTION.match(s):
            labels["tcp_congestion"] = m["algo"]

    def _line(self, s: str, no: int) -> None:
        if m := CLIENT.match(s):
            self._banner(m, "client", no)
        elif m := SERVER.match(s):
            self._banner(m, "server", no)
        elif m := CONNECTED.match(s):
            self._connected(m, no)
        elif m := INTERVAL.match(s):
            self._interval(m, no)
        elif m := HEADER.match(s):
            self._header(m, no)
        elif m := OUT_OF_ORDER.match(s):
            self._out_of_order(m, s, no)
        elif m := SENT.match(s):
            self._stream_line(s, no).sent = int(m["n"])
        elif m := SERVER_REPORT.match(s):
            self._stream_line(s, no).awaiting_report = True
        elif m := NO_ACK.match(s):
            test = self._current(no)
            test.no_report = True
            test.warnings.append(f"line {no}: iperf 2: WARNING: {m['msg']}")
        elif m := CONNECT_FAILED.match(s):
            msg = next(g for g in m.groups() if g) if any(m.groups()) else s
            (self.test.errors if self.test is not None else self.pending).append((msg, no))
        elif m := VERSION.match(s):
            self.version = m["v"]
        elif TRIP_TIME.match(s) or ACCEPTED.match(s):
            self._setting(s)
        else:
            test = self._current(no)
            stray(TOOL, self.source, no, s, self.strict, test.warnings)
            return
        if self.test is not None:
            self.test.line_end = max(self.test.line_end, no)

    def _current(self, no: int) -> Test:
        return self.test if self.test is not None else self._new(no)

    def _connected(self, m, no: int) -> None:
        test = self.test
        if test is None or (test.role != "client" and test.has_rows):
            test = self._new(no)
        sid = m["id"].lstrip("*")
        stream = test.stream(sid)
        ends = ((m["lip"], m["lport"]), (m["rip"], m["rport"]))
        if stream.facts.get("ends") == ends[::-1]:
            # the far end's line of this stream's own connection, under the same id: the
            # server's output interleaved with its client's (cnuvem23's Docker stream)
            stream.facts["far_end"] = True
            test.warnings.append(
                f"line {no}: the far end's line of [{sid}]'s own connection, under the same "
                "id (the other end's output interleaved with this one's): its report lines "
                "are not read"
            )
            return
        test.connected.append(sid)
        stream.facts.setdefault("line", no)  # when it connected: -d's ways overlap, -r's not
        rest = m["rest"]
        if len(test.connected) == 1:
            self._endpoints(test, m)
            if t := STARTED.search(rest):
                test.meta["start_time"] = utc_ns(t["t"])
            if p := PEER.search(rest):
                test.labels["peer_version"] = p["v"]
            if c := TCP_INIT.search(rest):
                test.labels.update(
                    tcp_icwnd=int(c["icwnd"]),
                    tcp_mss_bytes=int(c["mss"]),
                    tcp_irtt_us=int(c["irtt"]),
                )
        marked = "(reverse)" in rest or m["id"].startswith("*")
        if marked:
            test.meta["direction"] = "reverse"
        # -d/-r: the server connects back (its "(reverse)", "[ *2]"; on the client, a
        # connection that is not to the port it called)
        port = test.meta.get("port")
        back = test.role == "client" and port is not None and int(m["rport"]) != port
        stream.facts["back"] = marked or back
        for other in test.streams.values():  # the far end's line of one of these connections
            if other is not stream and other.facts.get("ends") == ends[::-1]:
                if self._server_first(test, other, m):
                    other.facts.update(mirror=stream.id, back=False)
                    stream.facts["back"] = False
                else:
                    stream.facts.update(mirror=other.id, back=False)
        stream.facts["ends"] = ends
        if "(full-duplex)" in rest:
            test.meta["direction"] = "bidir"
        if "(trip-times)" in rest:
            test.labels["trip_times"] = True
        if c := CONNECT_TIME.search(rest):
            try:
                stream.facts["ct_us"] = round(float(c["ms"]) * 1e3, 6)
            except ValueError:  # '0,08': a decimal comma iperf 2 never prints
                self._current(no).warnings.append(
                    f"line {no}: the connect time 'ct={c['ms']} ms' is no number "
                    "(iperf 2 prints a '.' decimal point): not read"
                )

    @staticmethod
    def _endpoints(test: Test, m) -> None:
        """The test's addresses and port from its connection line ``m``."""
        local, remote = (m["lip"], int(m["lport"])), (m["rip"], int(m["rport"]))
        src, dst = (local, remote) if test.role != "server" else (remote, local)
        # a server's port is the one it listens on (its -r connection back is not)
        port = test.meta.get("port", dst[1]) if test.role == "server" else dst[1]
        test.meta.update(src_ip=src[0], dst_ip=dst[0], port=port)

    def _server_first(self, test: Test, far, m) -> bool:
        """Is ``far``, a stream of a client's test whose connection ``m`` mirrors, the server's
        line of it, printed first (its local port the one the client called)?  Then the
        client's own line, ``m``, gives the test's addresses and port; the server's peer
        version and TCP facts, about the client itself, are not the client's to keep."""
        called = self.session.get("meta", {}).get("port")
        (_, lport), (_, rport) = far.facts["ends"]
        if test.role != "client" or called is None or int(lport) != called:
            return False
        if int(rport) == called or int(m["rport"]) != called:
            return False
        self._endpoints(test, m)
        for key in ("peer_version", "tcp_icwnd", "tcp_mss_bytes", "tcp_irtt_us"):
            test.labels.pop(key, None)
        return True

    def _header(self, m, no: int) -> None:
        test = self._current(no)
        test.header = m["cols"]
        unknown = unknown_columns(m["cols"])
        if unknown:
            test.warnings.append(
                f"line {no}: columns {' '.join(unknown)} are not read (iperf 2 report "
                "styles other than -e's interval columns)"
            )

    def _interval(self, m, no: int) -> None:
        test = self._current(no)
        if m["id"].startswith("*"):
            test.meta["direction"] = "reverse"
        stream = test.stream(m["id"])
        if stream.facts.get("far_end") and test.role == "client" and "Reads" in (test.header or ""):
            return  # the far end's report under the same id (a server's Reads=Dist): said
        start, end = (_seconds(m[k], self.source, no) for k in ("start", "end"))
        row = Row(stream.id, start, end, m["start"], m["end"], no)
        row.bytes = transfer_bytes(m["xfer"], m["xunit"], self.source, no)
        row.bps = rate_bps(m["rate"], m["runit"], self.source, no)
        if math.isnan(row.bps) and row.bytes:
            # iperf 2 prints '-nan bits/sec' for a report of nothing (0 bytes in 0 s, read
            # by _empty_reports); beside bytes it is a damaged figure, named ('inf': the
            # reader leaves it out and says so)
            test.warnings.append(
                f"line {no}: the rate {m['rate']} {m['runit']} is no number; the interval "
                "is kept without one"
            )
        header = test.header or ""
        writes = "Write/Err" in header and not stream.awaiting_report
        try:
            row.figures, left, groups = row_figures(m["rest"], first_is_writes=writes)
        except ValueError:  # a percentage iperf 2 would not print ("(x%)")
            raise ParseError(
                TOOL, self.source, no, f"expected iperf 2's columns, got {m['rest'].strip()!r}"
            ) from None
        short = stream.id != "SUM" and groups < expected_groups(header)
        if (left or short) and not unknown_columns(header):
            # A line cut inside its columns, or text no column of iperf 2 holds.
            stray(TOOL, self.source, no, m[0], self.strict, test.warnings)
            return
        if row.figures.pop("omitted", False) is True:
            row.status = "omitted"
        if stream.awaiting_report:
            row.report, stream.report, stream.awaiting_report = True, row, False
        else:
            stream.rows.append(row)
        self.last = row

    def _stream_line(self, s: str, no: int):
        sid = re.match(r"^\[\s*(\*?\w+(?:-\d+)?)\]", s)[1]
        return self._current(no).stream(sid)

    def _out_of_order(self, m, s: str, no: int) -> None:
        stream = self._stream_line(s, no)
        target = stream.report if stream.report is self.last else None
        target = target or (stream.rows[-1] if stream.rows else None)
        if target is None:
            stray(TOOL, self.source, no, s, self.strict, self.test.warnings)
            return
        target.out_of_order = int(m["n"])


def _seconds(text: str, source: str | None, no: int) -> float:
    """An interval's start or end; a decimal comma ('0,0000', a localized copy: iperf 2
    prints '.') is a located error, not a line that is no iperf 2's."""
    try:
        return float(text)
    except ValueError:
        raise ParseError(
            TOOL, source, no, f"expected an interval time, got {text!r} (iperf 2 prints '.')"
        ) from None


# ---------------------------------------------------------------------------------------------
# parse


def _variant(test: Test) -> None:
    if test.variant == "text":
        test.variant = f"{test.role}-text" if test.role else "text"
        if test.role and test.protocol == "udp":
            test.variant += "-udp"


def _nothing(errors: list[tuple[str, int]], source: str | None) -> NothingMeasured:
    msg, no = errors[0]
    hint = "nothing accepted the connection: is `iperf -s` running on that host and port?"
    return NothingMeasured(
        TOOL, source, no, f"iperf 2 reported an error and measured nothing: {msg!r}", hint=hint
    )


# How an iperf3 client or server output opens (iperf 2 writes 'Client connecting to ...', and
# '[  1] local A port p connected with B port q').
_IPERF3_OPENING = re.compile(
    r"(Connecting to host \S+, port \d+|Server listening on \d+( \(test #\d+\))?|"
    r"\[\s*\d+\] local \S+ port \d+ connected to \S+ port \d+|iperf 3\.\d+)$"
)


def parse(text: str, *, source: str | None = None, strict: bool = True) -> Parsed:
    lines = text.split("\n")
    first = next((x.strip() for x in lines if x.strip() and not command_of(x, _COMMANDS)[0]), "")
    if _IPERF3_OPENING.match(first):  # read as iperf2 by request (tool="iperf2"): refused
        raise WrongTool(
            TOOL,
            source,
            next(i for i, x in enumerate(lines, 1) if x.strip() == first),
            f"iperf3 output, not iperf 2's: {first[:60]!r} (iperf 2 writes 'Client "
            "connecting to HOST, TCP port N' and 'connected with')",
            hint="read it as iperf3",
        )
    # a server's CSV of a -d/-r test can open with its banner of connecting back
    row = next((x.strip() for x in lines if _kind(x) not in _CSV_ASIDE), "")
    if csvfmt.ROW.match(row) or csvfmt.HEADER.match(row):
        tests = csvfmt.read(lines, source, strict)
        pending: list[tuple[str, int]] = []
    else:
        reader = _Text(lines, source, strict)
        tests = [part for test in reader.read() for part in flows(test)]
        pending = reader.pending
    measured = [t for t in tests if t.has_rows]
    if not measured:
        errors = [e for t in tests for e in t.errors] + pending
        if errors:
            raise _nothing(errors, source)
        if not any(t.role == "client" for t in tests):
            raise ParseError(
                TOOL,
                source,
                1,
                "no iperf 2 test found: expected '[  1] local A port p connected with B port "
                "q' and report lines like '[  1] 0.00-1.00 sec  1.25 MBytes  10.5 Mbits/sec'",
            )
    runs = []
    for test in tests:
        if not test.has_rows and test.role != "client" and not test.errors:
            continue
        _variant(test)
        runs.append(finish(test))
    return Parsed(TOOL, runs)
