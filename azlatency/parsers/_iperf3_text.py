"""iperf3 console output (client and server, 3.0 to 3.18) → :class:`Test` s.

Shapes seen in the seeds, the corpus and our captures (``tests/fixtures/iperf3/SOURCES.md``):

* interval lines ``[  5]   0.00-1.00   sec  12.0 MBytes   101 Mbits/sec    0    402 KBytes``
  with ``[SUM]`` lines when ``-P`` > 1, ``[  5][TX-C]`` role tags with ``--bidir`` (3.7+),
  ``(omitted)`` for ``-O`` intervals; after ``- - - -`` and a second ``[ ID]`` header, the
  end-of-test lines labelled ``sender`` / ``receiver``;
* the column header says ``Bitrate`` since 3.6 and ``Bandwidth`` before;
* UDP: ``Total Datagrams`` on the sending side, ``Jitter  Lost/Total Datagrams`` on the
  receiving side; 3.0/3.1 clients print one unlabelled summary line and ``Sent N datagrams``;
* servers print ``Server listening on 5201 (test #1)`` (the number since 3.10), then one block
  per accepted test; ``--timestamps`` prefixes every line with a strftime date;
* ``-V`` adds ``iperf 3.12``, ``Time: ... GMT``, ``Starting Test: ...``, ``CPU Utilization``.

Byte counts are printed with three significant digits (``11.9 MBytes``): the sample ``bytes``
are that value times 2^20, rounded — exact counts need ``-J``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import UTC, datetime

from ..errors import ParseError
from ._base import command_of, integer, number
from ._iperf3_model import (
    BIT_RATES,
    BYTE_RATES,
    BYTE_UNITS,
    INT64_MAX,
    TOOL,
    Test,
    Total,
    flow_of,
    local_side,
)

_ID = r"\[\s*(?P<id>\d+|SUM)\](?:\[(?P<tag>[TR]X-[CS])\])?"
INTERVAL = re.compile(
    rf"^{_ID}\s+(?P<start>\d+(?:\.\d+)?)\s*-\s*(?P<end>\d+(?:\.\d+)?)\s+sec\s+"
    r"(?P<xfer>\S+)\s+(?P<xunit>[KMGT]?Bytes)\s+(?P<rate>\S+)\s+"
    r"(?P<runit>[KMGT]?(?:bits|Bytes)/sec)(?P<rest>.*)$"
)
CONNECTED = re.compile(
    r"^\[\s*(?P<id>\d+)\](?:\[[TR]X-[CS]\])?\s+local\s+(?P<lip>\S+)\s+port\s+(?P<lport>\d+)\s+"
    r"connected\s+(?:to\s+)?(?P<rip>\S+)\s+port\s+(?P<rport>\d+)"
)
HEADER = re.compile(r"^\[\s*ID\s*\](?:\[Role\])?\s+Interval\s+Transfer\b(?P<cols>.*)$")
SEPARATOR = re.compile(r"^(?:- ){8,}-?\s*$")
DASHES = re.compile(r"^-{20,}\s*$")
CONNECTING = re.compile(r"^Connecting to host (?P<host>[^\s,]+),? port (?P<port>\d+)")
REVERSE = re.compile(r"^Reverse mode, remote host (?P<host>\S+) is sending")
LISTENING = re.compile(r"^Server listening on (?P<port>\d+)")
ACCEPTED = re.compile(r"^Accepted connection from (?P<host>[^\s,]+),? port (?P<port>\d+)")
SENT = re.compile(rf"^{_ID}\s+Sent (?P<n>\S+) datagrams")
DONE = re.compile(r"^iperf Done\.?\s*$")
ERROR = re.compile(r"^iperf3?: (?P<msg>(?:error|interrupt) - .*|the client has terminated.*)$")
TOOL_NOTE = re.compile(r"^(?:iperf3?: |warning: )(?P<msg>.+)$")
VERSION = re.compile(r"^iperf (?P<v>3\.\d+\S*)")
TIME = re.compile(r"^Time: (?P<t>\w{3}, \d{1,2} \w{3} \d{4} \d\d:\d\d:\d\d) (?:GMT|UTC)\s*$")
STARTING = re.compile(
    r"^Starting Test: protocol: (?P<proto>\w+), (?P<streams>\d+) streams, (?P<blk>\d+) byte "
    r"blocks, omitting (?P<omit>\d+) seconds, (?:(?P<dur>\d+) second test|[^,]+)"
)
CPU = re.compile(
    r"^CPU Utilization: local/\w+ (?P<ht>[\d.]+)% \((?P<hu>[\d.]+)%u/(?P<hs>[\d.]+)%s\), "
    r"remote/\w+ (?P<rt>[\d.]+)% \((?P<ru>[\d.]+)%u/(?P<rs>[\d.]+)%s\)"
)
CONGESTION = re.compile(r"^(?P<side>snd|rcv)_tcp_congestion (?P<algo>\S+)")
# -V lines read elsewhere or not needed; accepted silently.
VERBOSE = re.compile(
    r"^(?:\s*Cookie: |\s*TCP MSS: |\s*Target Bitrate: |Control connection MSS |"
    r"Test Complete\. Summary Results:|Linux |Darwin |FreeBSD |CYGWIN|MINGW|Windows )"
)
SERVER_OUTPUT = re.compile(r"^Server (?:JSON )?output:\s*$")
JITTER = re.compile(
    r"^(?P<jit>\S+) ms\s+(?P<lost>-?\d+)/\s*(?P<total>\d+)\s+\((?P<pct>[^)%]*)%\)"
    r"(?:\s+\((?P<ooo>\d+) out of order\))?$"
)
COUNT_CWND = re.compile(r"^(?P<n>-?\d+)(?:\s+(?P<cwnd>\S+)\s+(?P<cunit>[KMGT]?Bytes))?$")
# Any line iperf3 prints, once the timestamp is off: used by the locator and the shape finder.
ANCHOR = re.compile(
    r"\[\s*(?:\d+|SUM|ID)\s*\]|Connecting to host |Reverse mode, |(?:- ){8}|iperf Done|"
    r"Server listening on |Accepted connection from |-{20}|iperf3: |Server (?:JSON )?output:|"
    r"Test Complete|CPU Utilization|Starting Test: |Time: |iperf 3\."
)
_WEEKDAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")


def timestamp_shape(lines: list[str]) -> re.Pattern[str] | None:
    """The ``--timestamps`` prefix of this output as a pattern, learnt from its first line: a
    date-like text (digits and ``:``) before an iperf3 line.  The format is any strftime
    string (``%c`` by default, ``'%Y-%m-%d %H:%M:%S '`` in the zeandon log), so it is learnt
    rather than listed: digit runs become ``\\d+``, letter runs ``[^\\W\\d_]+``, spaces `` +``."""
    for line in lines[:200]:
        m = ANCHOR.search(line)
        if m is None or m.start() == 0:
            continue
        prefix = line[: m.start()]
        if not re.search(r"\d", prefix) or ":" not in prefix or "[" in prefix:
            continue
        if not re.fullmatch(r"[\w:./,+\- ]+", prefix):
            continue
        parts = []
        for tok in re.finditer(r"\d+|[^\W\d_]+| +|.", prefix):
            t = tok.group()
            parts.append(r"\d+" if t.isdigit() else " +" if t.isspace()
                         else r"[^\W\d_]+" if t.isalpha() else re.escape(t))
        return re.compile("^" + "".join(parts))
    return None


def strip_timestamps(lines: list[str], shape: re.Pattern[str] | None) -> list[str]:
    if shape is None:
        return lines
    out = []
    for line in lines:
        m = shape.match(line)
        out.append(line[m.end():] if m else line)
    return out


@dataclass
class _Extra:
    """Per-test facts only the text reader needs while it reads."""

    header: str = ""  # columns of the interval header
    summary_header: str = ""
    old_header: bool = False
    in_summary: bool = False
    connected: list[re.Match[str]] = field(default_factory=list)
    tags: set[str] = field(default_factory=set)
    sent: dict[str, int] = field(default_factory=dict)
    reverse_line: bool = False
    connecting_host: str | None = None
    accepted_ip: str | None = None
    listen_port: int | None = None
    command_flags: dict[str, str | bool] = field(default_factory=dict)
    unlabelled: list[tuple[Total, str | None]] = field(default_factory=list)
    seq: dict[tuple[str, str | None], int] = field(default_factory=dict)
    last: dict[tuple[str, str | None], tuple] = field(default_factory=dict)


# ---------------------------------------------------------------------------------------------
# command line


def command_flags(command: str) -> dict[str, str | bool]:
    """The iperf3 options that change how the output reads (``$ip``-style values are kept as
    text and ignored where an address is expected)."""
    tokens = command.split()
    flags: dict[str, str | bool] = {}
    names = {"-c": "client", "--client": "client", "-s": "server", "--server": "server",
             "-R": "reverse", "--reverse": "reverse", "--bidir": "bidir", "-u": "udp",
             "--udp": "udp", "-P": "parallel", "--parallel": "parallel", "-t": "time",
             "--time": "time", "-O": "omit", "--omit": "omit", "-p": "port", "--port": "port",
             "-J": "json", "--json": "json"}
    takes_value = {"client", "parallel", "time", "omit", "port"}
    i = 0
    while i < len(tokens):
        tok = tokens[i]
        key, _, inline = tok.partition("=")
        name = names.get(key)
        if name in takes_value:
            if inline:
                flags[name] = inline
            elif i + 1 < len(tokens):
                flags[name] = tokens[i + 1]
                i += 1
        elif name:
            flags[name] = True
        i += 1
    return flags


def _int_flag(flags: dict[str, str | bool], name: str) -> int | None:
    value = flags.get(name)
    return int(value) if isinstance(value, str) and value.isdigit() else None


# ---------------------------------------------------------------------------------------------
# the reader


class TextReader:
    def __init__(self, lines: list[str], *, source: str | None, strict: bool, offset: int = 0):
        self.raw = lines
        self.lines = strip_timestamps(lines, timestamp_shape(lines))
        self.timestamped = self.lines is not lines
        self.source = source
        self.strict = strict
        self.offset = offset  # line number of lines[0] minus one
        self.tests: list[Test] = []
        self.cur: Test | None = None
        self.x = _Extra()
        self.pending: list[str] = []  # iperf3 messages before any test (stderr comes first)
        self.notes: list[str] = []  # lines skipped (strict=False) before any test
        self.orphans: list[str] = []  # messages of tests that never measured anything
        self.command: tuple[int, str, str | None] | None = None
        self.prev_kind = ""
        self.version: str | None = None
        self.time: datetime | None = None
        self.embedded = False

    # -- helpers ------------------------------------------------------------------------------

    def error(self, line_no: int, reason: str, hint: str | None = None) -> ParseError:
        return ParseError(TOOL, self.source, line_no, reason, hint=hint)

    def num(self, text: str, line_no: int, what: str) -> float:
        value = number(text, tool=TOOL, source=self.source, line_no=line_no, what=what)
        if value != value or value in (float("inf"), float("-inf")):
            raise self.error(line_no, f"expected {what}, got {text!r}")
        return value

    def int(self, text: str, line_no: int, what: str) -> int:
        value = integer(text, tool=TOOL, source=self.source, line_no=line_no, what=what)
        if abs(value) > INT64_MAX:
            raise self.error(line_no, f"{what} {text!r} is beyond a 64-bit count")
        return value

    def start(self, line_no: int, role: str | None) -> Test:
        self.close()
        test = Test(line_start=line_no, line_end=line_no)
        test.meta["role"] = role
        if self.command is not None and self.command[0] >= line_no - 3:
            cmd_line, cmd, _ = self.command
            test.line_start = cmd_line
            test.meta["command"] = cmd
            self.x = _Extra(command_flags=command_flags(cmd))
        else:
            self.x = _Extra()
        self.command = None
        if self.pending:
            test.errors.extend(self.pending)
            self.pending = []
        if self.notes:
            test.warnings.extend(self.notes)
            self.notes = []
        self.cur = test
        return test

    def need(self, line_no: int) -> Test:
        """The test a data line belongs to; a fragment without a banner opens one."""
        if self.cur is None:
            return self.start(line_no, None)
        return self.cur

    # -- reading ------------------------------------------------------------------------------

    def read(self) -> list[Test]:
        for i, body in enumerate(self.lines):
            line_no = self.offset + i + 1
            try:
                self.line(body.rstrip(), line_no)
            except ParseError as exc:
                if self.strict:
                    raise
                target = self.cur.warnings if self.cur is not None else self.notes
                target.append(f"line {line_no} skipped: {exc.reason}")
            if self.cur is not None and body.strip():
                self.cur.line_end = line_no
        self.close()
        self.leftover = self.orphans + self.pending  # messages no test of this text took
        if self.leftover and self.tests:
            self.tests[-1].warnings.extend(f"iperf3: {e}" for e in self.leftover)
            self.leftover = []
        return self.tests

    def line(self, body: str, line_no: int) -> None:  # noqa: C901 - one dispatch table
        text = body.strip()
        if not text:
            return
        kind = ""
        if (m := INTERVAL.match(text)) is not None:
            self.interval(m, line_no)
            kind = "interval"
        elif HEADER.match(text):
            self.header(text, line_no)
            kind = "header"
        elif SEPARATOR.match(text):
            kind = "separator"
        elif (m := CONNECTED.match(text)) is not None:
            t = self.need(line_no)
            if t.rows or t.totals:
                t = self.start(line_no, t.meta.get("role"))
            self.x.connected.append(m)
        elif (m := CONNECTING.match(text)) is not None:
            self.start(line_no, "client")
            self.x.connecting_host = m["host"]
            self.cur.meta["port"] = self.int(m["port"], line_no, "port")
        elif (m := LISTENING.match(text)) is not None:
            self.start(line_no, "server")
            self.x.listen_port = self.int(m["port"], line_no, "port")
        elif (m := ACCEPTED.match(text)) is not None:
            t = self.cur
            if t is None or t.meta.get("role") != "server" or t.has_data or self.x.connected:
                port = self.x.listen_port if t is not None else None
                t = self.start(line_no, "server")
                self.x.listen_port = port
            self.x.accepted_ip = m["host"]
        elif (m := REVERSE.match(text)) is not None:
            self.need(line_no)
            self.x.reverse_line = True
        elif (m := SENT.match(text)) is not None:
            self.need(line_no)
            self.x.sent[m["id"]] = self.int(m["n"], line_no, "datagrams sent")
        elif (m := ERROR.match(text)) is not None:
            msg = m["msg"].strip().removeprefix("error - ")
            if self.cur is not None and self.cur.has_end and msg.endswith("server has terminated"):
                pass  # the server stopped after this test ended: nothing wrong with the test
            else:
                (self.cur.errors if self.cur is not None else self.pending).append(msg)
        elif (m := VERSION.match(text)) is not None:
            if self.cur is not None and self.cur.has_data:
                self.close()
            self.version = m["v"]
        elif (m := STARTING.match(text)) is not None:
            self.starting(m, line_no)
        elif (m := CPU.match(text)) is not None:
            t = self.need(line_no)
            for key, grp in (("host_total", "ht"), ("host_user", "hu"), ("host_system", "hs"),
                             ("remote_total", "rt"), ("remote_user", "ru"),
                             ("remote_system", "rs")):
                t.cpu[key] = self.num(m[grp], line_no, "CPU percent")
        elif (m := TIME.match(text)) is not None:
            self.time = datetime.strptime(m["t"], "%a, %d %b %Y %H:%M:%S").replace(
                tzinfo=UTC)
        elif (m := CONGESTION.match(text)) is not None:
            if self.cur is not None:
                self.cur.labels[f"{m['side']}_tcp_congestion"] = m["algo"]
        elif SERVER_OUTPUT.match(text):
            self.close()
            self.embedded = True
        elif text.startswith("Test Complete"):
            kind = "separator"  # -V: between the last interval and the summary header
        elif DONE.match(text) or DASHES.match(text) or VERBOSE.match(text):
            pass
        elif (cmd := command_of(text, ("iperf3",))) and cmd[0]:
            self.close()
            self.command = (line_no, cmd[0], cmd[1])
        elif (m := TOOL_NOTE.match(text)) is not None:
            if self.cur is not None:
                self.cur.warnings.append(f"line {line_no}: {m['msg']}")
        elif self.cur is not None:
            self.cur.warnings.append(f"line {line_no} not read: {text[:80]!r}")
        self.prev_kind = kind or ("other" if text else self.prev_kind)

    def header(self, text: str, line_no: int) -> None:
        t = self.cur
        cols = HEADER.match(text)["cols"]
        if t is not None and self.prev_kind == "separator" and (t.rows or self.x.header):
            self.x.summary_header = cols
            self.x.in_summary = True
        else:
            if t is not None and t.has_data:
                t = self.start(line_no, t.meta.get("role"))  # a new test, banner not captured
            self.need(line_no)
            self.x.header = cols
            self.x.in_summary = False
        if re.match(r"\s*Bandwidth\b", cols):
            self.x.old_header = True

    def starting(self, m: re.Match[str], line_no: int) -> None:
        t = self.need(line_no)
        t.meta["protocol"] = m["proto"].lower()
        t.meta["streams"] = self.int(m["streams"], line_no, "streams")
        t.meta["msg_size_bytes"] = self.int(m["blk"], line_no, "block size")
        t.labels["omit_s"] = self.int(m["omit"], line_no, "omit seconds")
        if m["dur"]:
            t.labels["requested_duration_s"] = self.int(m["dur"], line_no, "test seconds")

    # -- interval and summary lines -------------------------------------------------------------

    def interval(self, m: re.Match[str], line_no: int) -> None:
        t = self.need(line_no)
        label = _label(m["rest"])
        if t.totals and (not self.x.in_summary and not label or label and any(
                (o.side, o.stream, o.flow) == (label, m["id"], m["tag"] or "") for o in t.totals)):
            # Intervals after a summary, or a second summary of the same stream: a new test
            # whose banner was not captured (summary-only logs repeat sender/receiver pairs).
            t = self.start(line_no, t.meta.get("role"))
        x = self.x
        start = self.num(m["start"], line_no, "interval start")
        end = self.num(m["end"], line_no, "interval end")
        nbytes = self.num(m["xfer"], line_no, "transfer") * BYTE_UNITS[m["xunit"]]
        if nbytes > INT64_MAX:
            raise self.error(line_no, f"transfer {m['xfer']} {m['xunit']} is beyond 64 bits")
        runit = m["runit"]
        factor = BIT_RATES.get(runit) or BYTE_RATES[runit]
        bps = self.num(m["rate"], line_no, "bitrate") * factor
        rest = m["rest"].strip()
        omitted = rest.endswith("(omitted)")
        if omitted:
            rest = rest[: -len("(omitted)")].strip()
        if label:
            rest = rest[: rest.rindex(label)].strip()
        fields = self.columns(rest, line_no, summary=bool(label) or x.in_summary)
        stream, tag = m["id"], m["tag"]
        if tag:
            x.tags.add(tag)
        if label or x.in_summary:
            total = Total(label or "?", stream, "", start, end, None, round(nbytes), bps,
                          **fields, line=line_no)
            _check_rate(t, total, m)
            total.flow = tag or ""  # resolved in close()
            if label:
                t.totals.append(total)
            else:
                x.unlabelled.append((total, tag))
            t.has_end = True
            return
        key = (stream, tag)
        seq = x.seq.get(key, 0)
        x.seq[key] = seq + 1
        row = {"seq": seq, "kind": "interval", "status": "omitted" if omitted else "ok",
               "stream": stream, "_tag": tag, "start_s": start, "end_s": end,
               "bytes": round(nbytes), "bits_per_second": bps, **_row_fields(fields)}
        sig = (start, end, m["xfer"], m["rate"])
        if x.last.get(key) == sig:
            row["status"] = "duplicate"
            t.warnings.append(f"line {line_no}: interval {m['start']}-{m['end']} of stream "
                              f"{stream} printed twice (iperf3 server quirk): kept as duplicate")
        elif bps > 0 and abs(nbytes * 8 / bps - (end - start)) > 0.02 + 0.05 * (end - start):
            # Times are printed to 0.01 s and sizes to three digits; beyond that the line
            # contradicts itself (3.12 with -O prints "1.00-1.00 sec 12.0 MBytes 50.3 Mbits/sec").
            row["status"] = "error"
            row["message"] = "interval length, transfer and bitrate disagree"
            t.warnings.append(
                f"line {line_no}: interval {m['start']}-{m['end']} sec with {m['xfer']} "
                f"{m['xunit']} at {m['rate']} {runit} would last {nbytes * 8 / bps:.2f} s "
                "(iperf3 3.12 -O quirk): status error, left out of statistics")
        x.last[key] = sig
        t.rows.append(row)

    def columns(self, rest: str, line_no: int, *, summary: bool) -> dict[str, float | int | None]:
        """The columns after the bitrate: ``Retr [Cwnd]``, ``Total Datagrams`` or
        ``Jitter Lost/Total (pct)``."""
        if not rest:
            return {}
        if (j := JITTER.match(rest)) is not None:
            out: dict[str, float | int | None] = {
                "jitter_us": self.num(j["jit"], line_no, "jitter ms") * 1000.0,
                "lost": self.int(j["lost"], line_no, "lost datagrams"),
                "packets": self.int(j["total"], line_no, "total datagrams"),
            }
            pct = j["pct"].strip()
            # iperf3 prints the percentage with %.2g: 100 % is "1e+02"; "nan" when 0/0.
            out["loss_pct"] = None if pct in ("nan", "-nan") else self.num(pct, line_no, "loss %")
            if j["ooo"]:
                out["out_of_order"] = self.int(j["ooo"], line_no, "out-of-order count")
            return out
        c = COUNT_CWND.match(rest)
        if c is None:
            raise self.error(line_no, f"expected 'Retr [Cwnd]', 'Total Datagrams' or "
                             f"'Jitter Lost/Total' columns, got {rest!r}")
        n = self.int(c["n"], line_no, "count")
        # A bare count is Retr on a summary line (UDP summaries carry jitter and loss) and on
        # an interval under a Retr header; otherwise the sending side's Total Datagrams.
        if c["cwnd"] or summary or "Retr" in self.x.header:
            out = {"retransmits": n}
            if c["cwnd"]:
                cw = self.num(c["cwnd"], line_no, "cwnd") * BYTE_UNITS[c["cunit"]]
                if cw > INT64_MAX:
                    raise self.error(line_no, f"cwnd {c['cwnd']} is beyond 64 bits")
                out["cwnd_max"] = round(cw)
            return out
        return {"packets": n}

    # -- closing a test -----------------------------------------------------------------------

    def close(self) -> None:
        t, x = self.cur, self.x
        self.cur = None
        if t is None:
            return
        if not t.has_data and not x.connected:
            # A server waiting for its next test is stopped with Ctrl-C: nothing to report.
            self.orphans.extend(e for e in t.errors if not e.endswith("server has terminated"))
            return
        self._meta(t, x)
        self.tests.append(t)
        self.version = self.time = None
        self.embedded = False

    def _meta(self, t: Test, x: _Extra) -> None:
        meta = t.meta
        flags = x.command_flags
        role = meta.get("role") or ("server" if flags.get("server") else
                                    "client" if flags.get("client") else None)
        meta["role"] = role
        if self.version:
            meta["tool_version"] = self.version
        if self.time is not None:
            meta["start_time"] = self.time
        if self.embedded:
            t.labels["from"] = "server output (--get-server-output)"
        direction = _direction(t, x, role)
        meta["direction"] = direction
        headers = x.header + " " + x.summary_header
        if "protocol" not in meta:
            udp = "Datagrams" in headers or any(r.get("jitter_us") is not None for r in t.rows)
            udp = udp or any(tt.jitter_us is not None for tt in t.totals + [u for u, _ in x.unlabelled])
            meta["protocol"] = "udp" if udp or flags.get("udp") else "tcp"
        self._addresses(t, x, role)
        streams = _streams(t, x, direction)
        if streams is None:
            streams = _int_flag(flags, "parallel")
        if streams is not None:
            meta.setdefault("streams", streams)
        if "omit_s" not in t.labels and _int_flag(flags, "omit") is not None:
            t.labels["omit_s"] = _int_flag(flags, "omit")
        summary_only = not t.rows and not x.header and not x.connected
        base = "text-summary" if summary_only else "server-text" if role == "server" else "text"
        meta["parser_variant"] = base + ("-old-bandwidth" if x.old_header else "")
        if self.timestamped:
            t.labels["timestamps"] = True
        local = local_side(role, "forward" if direction == "bidir" else direction)
        bidir = direction == "bidir"
        for r in t.rows:
            tag = r.pop("_tag")
            r["role"] = _tag_side(tag) or local
            r["_flow"] = flow_of(role, r["role"], bidir)
        for total in t.totals:
            tag = total.flow or None
            total.flow = flow_of(role, _tag_side(tag) or local, bidir) if tag else ""
            if total.side == "sender":
                total.jitter_us = total.lost = total.loss_pct = None
        self._unlabelled(t, x, local)
        for stream, n in x.sent.items():  # "[  5] Sent 6041 datagrams" (3.0/3.1 UDP client)
            mine = [o for o in t.totals if o.side == "sender" and o.stream == stream]
            if mine:
                mine[-1].packets = n
            else:
                t.totals.append(Total("sender", stream, "", packets=n))

    def _addresses(self, t: Test, x: _Extra, role: str | None) -> None:
        meta = t.meta
        first = x.connected[0] if x.connected else None
        if role == "server":
            if first is not None:
                meta["dst_ip"], meta["src_ip"] = first["lip"], first["rip"]
                meta["port"] = int(first["lport"])
            elif x.accepted_ip:
                meta["src_ip"] = x.accepted_ip
            if x.listen_port is not None:
                meta.setdefault("port", x.listen_port)
            return
        if first is not None:
            meta["src_ip"], meta["dst_ip"] = first["lip"], first["rip"]
            meta.setdefault("port", int(first["rport"]))
        host = x.connecting_host or (x.command_flags.get("client") or None)
        if isinstance(host, str) and not host.startswith("$"):
            if _is_ip(host):
                meta.setdefault("dst_ip", host)
            else:
                meta["dst_host"] = host
        if "port" not in meta and _int_flag(x.command_flags, "port") is not None:
            meta["port"] = _int_flag(x.command_flags, "port")

    def _unlabelled(self, t: Test, x: _Extra, local: str | None) -> None:
        """3.0/3.1 print the end-of-test line without ``sender``/``receiver``: it is the local
        side's; on a UDP sender, its jitter and loss are the receiver's, sent back at the end
        — which an interrupted client never gets."""
        for total, tag in x.unlabelled:
            side = _tag_side(tag) or local
            if side is None:
                t.warnings.append("an end-of-test line without 'sender'/'receiver' and no "
                                  "client/server banner: not read")
                continue
            total.side = side
            if side == "sender" and total.lost is not None:
                if not t.errors:
                    t.totals.append(Total("receiver", total.stream, total.flow,
                                          jitter_us=total.jitter_us, lost=total.lost,
                                          packets=total.packets, loss_pct=total.loss_pct))
                else:
                    t.warnings.append("jitter and loss of the unlabelled summary are the "
                                      "receiver's, which an interrupted client never gets: "
                                      "not read")
                total.jitter_us = total.lost = total.loss_pct = None
            t.totals.append(total)


HINTS = {
    "unable to connect": "nothing accepted the connection: is `iperf3 -s` running on that "
                         "host and port, and does a firewall let it through?",
    "server is busy": "another client was testing: iperf3 -s serves one test at a time",
    "unable to receive": "the connection broke during the test",
    "control socket has closed": "the other end went away during the test",
}


def error_only(messages: list[str], source: str | None, line_no: int) -> ParseError:
    """An output with iperf3's error and no measurement: the import report must list it."""
    msg = messages[0]
    hint = next((h for k, h in HINTS.items() if k in msg), None)
    return ParseError(TOOL, source, line_no, f"iperf3 reported an error and measured nothing: "
                      f"{msg!r}", hint=hint)


def _check_rate(t: Test, total: Total, m: re.Match[str]) -> None:
    """The printed rate should be the printed transfer over the printed interval (both to
    three digits); the corpus has a hand-edited line that is not."""
    secs = (total.end_s or 0) - (total.start_s or 0)
    if not total.bytes or secs <= 0 or total.bps is None:
        return
    implied = total.bytes * 8 / secs
    if abs(total.bps - implied) > 0.05 * implied:
        t.warnings.append(
            f"line {total.line}: {m['xfer']} {m['xunit']} in {secs:.2f} s is "
            f"{implied / 1e6:.3g} Mbit/s, but the line says {m['rate']} {m['runit']}: "
            "kept as printed")


def _label(rest: str) -> str | None:
    m = re.search(r"\b(sender|receiver)\s*$", rest)
    return m.group(1) if m else None


def _row_fields(fields: dict) -> dict:
    out = {}
    for src, dst in (("retransmits", "retransmits"), ("cwnd_max", "cwnd_bytes"),
                     ("jitter_us", "jitter_us"), ("lost", "lost_packets"),
                     ("packets", "packets")):
        if fields.get(src) is not None:
            out[dst] = fields[src]
    return out


def _tag_side(tag: str | None) -> str | None:
    if not tag:
        return None
    return "sender" if tag.startswith("TX") else "receiver"


def _is_ip(host: str) -> bool:
    return bool(re.fullmatch(r"\d{1,3}(?:\.\d{1,3}){3}", host)) or (":" in host and
                                                                 re.fullmatch(r"[\da-fA-F:.]+", host) is not None)


def _direction(t: Test, x: _Extra, role: str | None) -> str | None:
    if x.tags or x.command_flags.get("bidir"):
        return "bidir"
    if x.reverse_line or x.command_flags.get("reverse"):
        return "reverse"
    if role == "client":
        return "forward"
    if role == "server":
        # A server is the sender of a -R test: its intervals carry Retr/Cwnd (TCP) or the
        # sending side's Total Datagrams (UDP), and its summary line says "sender".
        header = x.header
        sends = "Retr" in header or ("Datagrams" in header and "Jitter" not in header)
        labels = {tt.side for tt in t.totals}
        if sends or labels == {"sender"}:
            return "reverse"
        return "forward"
    return None


def _streams(t: Test, x: _Extra, direction: str | None) -> int | None:
    if "streams" in t.meta:
        return None
    ids = {m["id"] for m in x.connected}
    if not ids:
        ids = {r["stream"] for r in t.rows if r["stream"] != "SUM"}
    if not ids:
        return None
    if direction == "bidir":
        return max(1, len(ids) // 2)
    return len(ids)
