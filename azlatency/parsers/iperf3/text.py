"""iperf3 console output (client and server, 3.0 to 3.18) → :class:`Test` s.

A line-by-line state machine over the patterns of ``iperf3/lines.py``: a test starts at
``Connecting to host`` (client), ``Server listening`` / ``Accepted connection`` (server), an
``iperf3`` command line, or — for fragments — at its first header or interval line; it ends
where the next one starts.  When it ends, what the lines left open (role, direction,
protocol, the side of unlabelled summaries) is settled from everything the test printed.

Byte counts are printed with three significant digits (``11.9 MBytes``): the sample ``bytes``
are that value times 2^20, rounded — exact counts need ``-J``.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from math import isfinite

from ...errors import ParseError
from .._lines import (
    BIT_RATES,
    BYTE_RATES,
    BYTE_UNITS,
    INT64_MIN,
    command_of,
    integer,
    number,
    pieces,
    run_together,
)
from .lines import (
    ACCEPTED,
    CONGESTION,
    CONNECTED,
    CONNECTING,
    COUNT_CWND,
    CPU,
    DASHES,
    DEBUG,
    DEBUG_BLOCK,
    DEBUG_JSON,
    DONE,
    ERROR,
    HEADER,
    INT_FLAGS,
    INTERVAL,
    JITTER,
    LISTENING,
    NOT_AVAILABLE,
    OUT_OF_ORDER,
    REVERSE,
    SENT,
    SEPARATOR,
    SERVER_OUTPUT,
    STARTING,
    TIME,
    TOOL_NOTE,
    VERBOSE,
    VERSION,
    command_flags,
    label_of,
    strip_timestamps,
    timestamp_shape,
)
from .model import (
    INT64_MAX,
    TOOL,
    Test,
    Total,
)
from .settle import TextFacts, end_gaps, settle

# Two of iperf3's lines run together where a line break was lost: a stream's line ('[  5]',
# '[SUM]', '[ ID]'), 'Reverse mode, ' or a line whose facts are read (-V's 'Time: ...' after
# 'Control connection MSS 1448', 'Starting Test: protocol: TCP, ...' after the connection's
# line) right after another line's last character ("Connecting to host 10.0.0.2, port
# 5201[  5] local ..."); a role after a stream's id ('[  5][TX-C]') is no such line.  Only a
# line holding '[', 'Reverse' or ':' is searched (no interval line holds a ':').  The pattern
# opens with the lines' first characters, which the regex engine skips to, and _cuts looks at
# the character before (a leading '\S(?=...)' tried every line start at every character: 6 us
# a --bidir interval line, now 3).  No line's start is inside another's, so none is missed.
_JOINED = re.compile(
    r"\[\s*(?:\d+|SUM|ID)\]|Reverse mode, |Time: |Starting Test: |Connecting to host |"
    r"Accepted connection from |Server listening on |Test Complete\. "
)


def _cuts(text: str) -> list[int]:
    """Where ``text`` holds another of iperf3's lines right after a character (not a space)."""
    return [k for m in _JOINED.finditer(text, 1) if not text[(k := m.start()) - 1].isspace()]


# The header's first column: 'Bandwidth' before 3.6, 'Bitrate' since.
_BANDWIDTH = re.compile(r"\s*Bandwidth\b")
_BITRATE = re.compile(r"\s*Bitrate\b")

# -d's JSON (DEBUG_JSON) ends early (it was cut) at one of these lines.
_OWN = (
    INTERVAL,
    HEADER,
    SEPARATOR,
    CONNECTED,
    CONNECTING,
    DONE,
    ERROR,
    LISTENING,
    ACCEPTED,
    SERVER_OUTPUT,
    DASHES,
)


class TextReader:
    def __init__(self, lines: list[str], *, source: str | None, strict: bool, offset: int = 0):
        self.lines = strip_timestamps(lines, timestamp_shape(lines))
        self.timestamped = self.lines is not lines
        self.source = source
        self.strict = strict
        self.offset = offset  # line number of lines[0] minus one
        self.tests: list[Test] = []
        self.cur: Test | None = None
        self.x = TextFacts()
        self.pending: list[str] = []  # iperf3 messages before any test (stderr comes first)
        self.notes: list[str] = []  # lines skipped (strict=False) before any test
        self.orphans: list[str] = []  # messages of tests that never measured anything
        self.command: tuple[int, str, str | None] | None = None
        self.prev_kind = ""
        self.version: str | None = None
        self.time: datetime | None = None
        self.embedded = False
        # the first line of what the next test reads before its banner: -V's "iperf 3.12"
        # and "Time:", or "Server output:"
        self.preamble: int | None = None
        self.debug: list[int] = []  # -d lines not yet told in a test's warnings
        self.debug_json = False  # inside the JSON -d prints after "send_results" and the like

    # -- helpers ------------------------------------------------------------------------------

    def error(self, line_no: int, reason: str, hint: str | None = None) -> ParseError:
        return ParseError(TOOL, self.source, line_no, reason, hint=hint)

    def num(self, text: str, line_no: int, what: str) -> float:
        try:  # float() first: number() is for what it refuses (its located error)
            value = float(text)
        except ValueError:  # iperf3 groups no thousands: '0,010' is a localized 0.010
            value = number(
                text, tool=TOOL, source=self.source, line_no=line_no, what=what, grouped=False
            )
        if not isfinite(value):  # nan, inf or -inf
            raise self.error(line_no, f"expected {what}, got {text!r}")
        return value

    def int(self, text: str, line_no: int, what: str) -> int:
        try:  # as num(): integer() when int() does not read it as it stands (or its range)
            value = int(text)
        except ValueError:
            value = None
        if value is None or not INT64_MIN <= value <= INT64_MAX:
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
            self.x = TextFacts(command_flags=command_flags(cmd))
        else:
            self.x = TextFacts()
        self.command = None
        if self.preamble is not None:
            test.line_start = min(test.line_start, self.preamble)
            self.preamble = None
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
        for line_no, body in enumerate(self.lines, self.offset + 1):
            text = body.strip()
            if not text:
                continue  # no kind, and not a test's last line
            try:
                # ('[' or 'R' past the first character first: a search on every line of an
                # hour's intervals cost a third of their parse)
                if (
                    text[0] != "{"
                    and (text.find("[", 1) > 0 or "Reverse" in text or ":" in text)
                    and (cuts := _cuts(text))
                ):
                    self.joined(text, cuts, line_no)
                else:
                    self.line(body, text, line_no)
            except ParseError as exc:
                if self.strict:
                    raise
                target = self.cur.warnings if self.cur is not None else self.notes
                target.append(f"line {line_no} skipped: {exc.reason}")
            if self.cur is not None:
                self.cur.line_end = line_no
        self.close()
        if self.debug and self.tests:
            self.tell_debug(self.tests[-1], self.debug[-1])
        self.leftover = self.orphans + self.pending  # messages no test of this text took
        if self.leftover and self.tests:
            self.tests[-1].warnings.extend(f"iperf3: {e}" for e in self.leftover)
            self.leftover = []
        return self.tests

    def joined(self, text: str, cuts: list[int], line_no: int) -> None:
        """Line ``line_no`` holding several of iperf3's lines (cut at ``cuts``): each read as a
        line, and the line named."""
        for piece in pieces(text, cuts):
            self.line(piece, piece.strip(), line_no)
        target = self.cur.warnings if self.cur is not None else self.notes
        target.append(run_together(line_no, len(cuts) + 1, "iperf3"))

    def line(self, body: str, text: str, line_no: int) -> None:
        """Line ``line_no``: ``body`` as it stands, ``text`` stripped (not empty)."""
        first = text[0]
        # (a line of the output's own, '[' or '-', is a -d line only inside -d's JSON)
        if (self.debug_json or first not in "[-") and self.debug_line(body, text, line_no):
            return
        for match, handle, kind in _BY_FIRST.get(first, _ANY_FIRST):
            m = match(text)
            if m:
                if handle is not None:
                    handle(self, m, line_no)
                self.prev_kind = kind or "other"  # blank lines are no kind
                return
        if self.cur is None:
            self.prev_kind = "other"
            return
        self.cur.warnings.append(f"line {line_no} not read: {text[:80]!r}")
        # a stray line is no kind: between a separator and its header it changes nothing

    def debug_line(self, body: str, text: str, line_no: int) -> bool:
        """Whether the line is -d's (a debug line or the JSON it prints), kept to be told."""
        if self.debug_json:
            body = body.rstrip()
            nxt = line_no - self.offset  # index of the next line
            after = self.lines[nxt] if nxt < len(self.lines) else ""
            if DEBUG_JSON.match(body) or (
                DEBUG_JSON.match(after) and not any(p.match(text) for p in _OWN)
            ):  # a stray line inside the JSON stays inside
                self.debug.append(line_no)
                self.debug_json = body != "}"
                return True
            self.debug_json = False
        # -d's lines start with a letter: not an interval, header or frame line's '[' or '-'
        if text[0] not in "[-" and (DEBUG_BLOCK.match(text) or DEBUG.match(text)):
            self.debug.append(line_no)
            self.debug_json = bool(DEBUG_BLOCK.match(text))
            return True  # not a kind: a debug line between a separator and a header changes nothing
        return False

    # -- one kind of line each (see _KINDS) ---------------------------------------------------

    def connected(self, m: re.Match[str], line_no: int) -> None:
        conn = {
            **m.groupdict(),
            "lport": self.int(m["lport"], line_no, "a local port"),
            "rport": self.int(m["rport"], line_no, "a remote port"),
        }
        t = self.need(line_no)
        if t.rows or t.totals:
            self.start(line_no, t.meta.get("role"))
        self.x.connected.append(conn)

    def connecting(self, m: re.Match[str], line_no: int) -> None:
        self.start(line_no, "client")
        self.x.connecting_host = m["host"]
        self.cur.meta["port"] = self.int(m["port"], line_no, "port")

    def listening(self, m: re.Match[str], line_no: int) -> None:
        self.start(line_no, "server")
        self.x.listen_port = self.int(m["port"], line_no, "port")

    def accepted(self, m: re.Match[str], line_no: int) -> None:
        t = self.cur
        if t is None or t.meta.get("role") != "server" or t.has_data or self.x.connected:
            port = self.x.listen_port if t is not None else None
            self.start(line_no, "server")
            self.x.listen_port = port
        self.x.accepted_ip = m["host"]

    def reverse(self, m: re.Match[str], line_no: int) -> None:
        self.need(line_no)
        self.x.reverse_line = True

    def sent(self, m: re.Match[str], line_no: int) -> None:
        self.need(line_no)
        self.x.sent[m["id"]] = self.int(m["n"], line_no, "datagrams sent")

    def out_of_order(self, m: re.Match[str], line_no: int) -> None:
        self.need(line_no)
        self.x.ooo[m["id"]] = self.int(m["n"], line_no, "out-of-order datagrams")

    def iperf_error(self, m: re.Match[str], line_no: int) -> None:
        msg = m["msg"].strip().removeprefix("error - ")
        if self.cur is not None and self.cur.has_end and msg.endswith("server has terminated"):
            return  # the server stopped after this test ended: nothing wrong with the test
        (self.cur.errors if self.cur is not None else self.pending).append(msg)

    def version_line(self, m: re.Match[str], line_no: int) -> None:
        if self.cur is not None and self.cur.has_data:
            self.close()
        self.version = m["v"]
        if self.cur is None:
            self.preamble = self.preamble or line_no

    def cpu(self, m: re.Match[str], line_no: int) -> None:
        t = self.need(line_no)
        self.x.verbose = True
        for key, grp in (
            ("host_total", "ht"),
            ("host_user", "hu"),
            ("host_system", "hs"),
            ("remote_total", "rt"),
            ("remote_user", "ru"),
            ("remote_system", "rs"),
        ):
            t.cpu[key] = self.num(m[grp], line_no, "CPU percent")

    def time_line(self, m: re.Match[str], line_no: int) -> None:
        self.time = datetime.strptime(m["t"], "%a, %d %b %Y %H:%M:%S").replace(tzinfo=UTC)
        if self.cur is None:
            self.preamble = self.preamble or line_no

    def congestion(self, m: re.Match[str], line_no: int) -> None:
        if self.cur is not None:
            self.cur.labels[f"{m['side']}_tcp_congestion"] = m["algo"]

    def server_output(self, m: re.Match[str], line_no: int) -> None:
        if self.cur is not None:
            self.x.done = True  # the client's output ended; the server's follows
        self.close()
        self.embedded = True
        self.preamble = line_no

    def done(self, m: re.Match[str], line_no: int) -> None:
        if self.cur is not None:
            self.x.done = True

    def command_line(self, cmd: tuple[str, str | None], line_no: int) -> None:
        for name, value in command_flags(cmd[0]).items():
            if name in INT_FLAGS and isinstance(value, str) and value.isdecimal():
                # settle() reads these with int_flag: a located error here, not there
                self.int(value, line_no, f"a number after iperf3's --{name} option")
        self.close()
        self.command = (line_no, cmd[0], cmd[1])

    def not_available(self, m: re.Match[str], line_no: int) -> None:
        if self.cur is not None:
            self.cur.labels[f"{m['side']}_statistics"] = "not available"

    def tool_note(self, m: re.Match[str], line_no: int) -> None:
        if self.cur is not None:
            self.cur.warnings.append(f"line {line_no}: {m['msg']}")

    def header(self, m: re.Match[str], line_no: int) -> None:
        t = self.cur
        cols = m["cols"]
        if t is not None and self.prev_kind == "separator" and (t.rows or self.x.header):
            self.x.summary_header = cols
            self.x.in_summary = True
        else:
            if t is not None and t.has_data:
                t = self.start(line_no, t.meta.get("role"))  # a new test, banner not captured
            self.need(line_no)
            self.x.header = cols
            self.x.in_summary = False
        if _BANDWIDTH.match(cols):
            self.x.old_header = True

    def starting(self, m: re.Match[str], line_no: int) -> None:
        t = self.need(line_no)
        self.x.verbose = True
        t.meta["protocol"] = m["proto"].lower()
        t.meta["streams"] = self.int(m["streams"], line_no, "streams")
        t.meta["msg_size_bytes"] = self.int(m["blk"], line_no, "block size")
        t.labels["omit_s"] = self.int(m["omit"], line_no, "omit seconds")
        if m["dur"]:
            t.labels["requested_duration_s"] = self.int(m["dur"], line_no, "test seconds")

    def tell_debug(self, t: Test, upto: int) -> None:
        """One warning for the -d lines up to line ``upto``, which are not read."""
        mine = [n for n in self.debug if n <= upto]
        if mine:
            self.debug = self.debug[len(mine) :]
            t.warnings.append(
                f"{len(mine)} iperf3 -d (debug) lines not read (line {mine[0]} "
                f"to line {mine[-1]}, between the output's own)"
            )

    # -- interval and summary lines -------------------------------------------------------------

    def interval(self, m: re.Match[str], line_no: int) -> None:
        t = self.cur if self.cur is not None else self.start(line_no, None)  # need()
        stream, tag, raw = m.group("id", "tag", "rest")
        label = label_of(raw)
        if t.totals and (
            not self.x.in_summary
            and not label
            or label
            and any((o.side, o.stream, o.flow) == (label, stream, tag or "") for o in t.totals)
        ):
            # Intervals after a summary, or a second summary of the same stream: a new test
            # whose banner was not captured (summary-only logs repeat sender/receiver pairs).
            t = self.start(line_no, t.meta.get("role"))
        x = self.x
        figures = self.figures(m, line_no)
        rest = raw.strip()
        omitted = rest.endswith("(omitted)")
        if omitted:
            rest = rest[: -len("(omitted)")].strip()
        if label:
            rest = rest[: rest.rindex(label)].strip()
        if (
            not label
            and x.in_summary
            and (any(s[2] for s in x.summary) or _BITRATE.match(x.summary_header))
        ):
            raise self.error(
                line_no,
                "an end-of-test line without 'sender'/'receiver' where "
                "iperf3 labels each one (3.6+ 'Bitrate' header, or labelled lines "
                "before it): cut short?",
            )
        fields = self.columns(rest, line_no, summary=bool(label) or x.in_summary) if rest else {}
        if tag:
            x.tags.add(tag)
        if label or x.in_summary:
            self.total(t, m, label, figures, fields, line_no)
        else:
            self.row(t, m, omitted, figures, fields, line_no, stream, tag)

    def figures(self, m: re.Match[str], line_no: int) -> tuple[float, float, float, float]:
        """(start s, end s, bytes, bits/s) of an interval or summary line."""
        _, _, start_s, end_s, xfer, xunit, rate, runit, _ = m.groups()
        try:  # what num() reads with float() and finds finite; any other number goes there
            start, end, value, per_s = float(start_s), float(end_s), float(xfer), float(rate)
        except ValueError:
            return self.read_figures(m, line_no)
        if not (isfinite(start) and isfinite(end) and isfinite(value) and isfinite(per_s)):
            return self.read_figures(m, line_no)
        nbytes = value * BYTE_UNITS[xunit]
        if nbytes > INT64_MAX:
            raise self.error(line_no, f"transfer {xfer} {xunit} is beyond 64 bits")
        return start, end, nbytes, per_s * (BIT_RATES.get(runit) or BYTE_RATES[runit])

    def read_figures(self, m: re.Match[str], line_no: int) -> tuple[float, float, float, float]:
        """:meth:`figures` number by number, each with its own error."""
        start = self.num(m["start"], line_no, "interval start")
        end = self.num(m["end"], line_no, "interval end")
        nbytes = self.num(m["xfer"], line_no, "transfer") * BYTE_UNITS[m["xunit"]]
        if nbytes > INT64_MAX:
            raise self.error(line_no, f"transfer {m['xfer']} {m['xunit']} is beyond 64 bits")
        runit = m["runit"]
        factor = BIT_RATES.get(runit) or BYTE_RATES[runit]
        bps = self.num(m["rate"], line_no, "bitrate") * factor
        return start, end, nbytes, bps

    def total(self, t: Test, m: re.Match[str], label, figures, fields, line_no: int) -> None:
        """An end-of-test (summary) line: a :class:`Total`, its side settled in close() when
        the line does not say it."""
        start, end, nbytes, bps = figures
        stream, tag = m["id"], m["tag"]
        self.x.summary.append((stream, tag, label, line_no))
        total = Total(
            label or "?",
            stream,
            "",
            start,
            end,
            None,
            round(nbytes),
            bps,
            **fields,
            line=line_no,
        )
        _check_rate(t, total, m)
        total.flow = tag or ""  # resolved in close()
        if label:
            t.totals.append(total)
        else:
            self.x.unlabelled.append((total, tag))
        t.has_end = True

    def row(
        self, t: Test, m: re.Match[str], omitted: bool, figures, fields, line_no: int, stream, tag
    ) -> None:
        """An interval line: a sample row, a duplicate or one that contradicts itself."""
        x = self.x
        start, end, nbytes, bps = figures
        key = (stream, tag)
        seq = x.seq.get(key, 0)
        x.seq[key] = seq + 1
        row = {
            "seq": seq,
            "kind": "interval",
            "status": "omitted" if omitted else "ok",
            "stream": stream,
            "_tag": tag,
            "start_s": start,
            "end_s": end,
            "bytes": round(nbytes),
            "bits_per_second": bps,
        }
        for name, value in fields.items():  # columns() gives them in _ROW_NAMES' order
            if value is not None and name in _ROW_NAMES:
                row[_ROW_NAMES[name]] = value
        sig = (start, end, m["xfer"], m["rate"])
        if x.last.get(key) == sig:
            row["status"] = "duplicate"
            t.warnings.append(
                f"line {line_no}: interval {m['start']}-{m['end']} of stream "
                f"{stream} printed twice (iperf3 server quirk): kept as duplicate"
            )
        elif bps > 0 and abs(nbytes * 8 / bps - (end - start)) > 0.02 + 0.05 * (end - start):
            # Times are printed to 0.01 s and sizes to three digits; beyond that the line
            # contradicts itself (3.12 with -O prints "1.00-1.00 sec 12.0 MBytes 50.3 Mbits/sec").
            row["status"] = "error"
            row["message"] = "interval length, transfer and bitrate disagree"
            t.warnings.append(
                f"line {line_no}: interval {m['start']}-{m['end']} sec with {m['xfer']} "
                f"{m['xunit']} at {m['rate']} {m['runit']} would last {nbytes * 8 / bps:.2f} s "
                "(iperf3 3.12 -O quirk): status error, left out of statistics"
            )
        x.last[key] = sig
        t.rows.append(row)

    def columns(self, rest: str, line_no: int, *, summary: bool) -> dict[str, float | int | None]:
        """The columns after the bitrate: ``Retr [Cwnd]``, ``Total Datagrams`` or
        ``Jitter Lost/Total (pct)``."""
        if not rest:
            return {}
        # (a TCP line's 'Retr Cwnd' is asked no more than whether it holds JITTER's ' ms')
        if " ms" in rest and (j := JITTER.match(rest)) is not None:
            out: dict[str, float | int | None] = {
                "jitter_us": self.num(j["jit"], line_no, "jitter ms") * 1000.0,
                "lost": self.int(j["lost"], line_no, "lost datagrams"),
                "packets": self.int(j["total"], line_no, "total datagrams"),
            }
            pct = j["pct"].strip()
            # iperf3 prints the percentage with %.2g: 100 % is "1e+02"; "nan" when 0/0.
            out["loss_pct"] = None if pct in ("nan", "-nan") else self.num(pct, line_no, "loss %")
            return out
        c = COUNT_CWND.match(rest)
        if c is None:
            raise self.error(
                line_no,
                f"expected 'Retr [Cwnd]', 'Total Datagrams' or "
                f"'Jitter Lost/Total' columns, got {rest!r}",
            )
        n = self.int(c["n"], line_no, "a Retr or Total Datagrams count")
        # A bare count is Retr on a summary line (UDP summaries carry jitter and loss) and on
        # an interval under a Retr header; otherwise the sending side's Total Datagrams.
        cwnd = c["cwnd"]
        if cwnd or summary or "Retr" in self.x.header:
            out = {"retransmits": n}
            if cwnd:
                cw = self.num(cwnd, line_no, "cwnd") * BYTE_UNITS[c["cunit"]]
                if cw > INT64_MAX:
                    raise self.error(line_no, f"cwnd {cwnd} is beyond 64 bits")
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
        x.version, x.time, x.embedded, x.timestamped = (
            self.version,
            self.time,
            self.embedded,
            self.timestamped,
        )
        x.verbose = x.verbose or x.version is not None
        settle(t, x)
        gap = end_gaps(t, x)
        if gap:
            t.cut.append(gap)
        if self.debug:  # (-d's lines: most outputs have none)
            self.tell_debug(t, t.line_end)
        self.tests.append(t)
        self.version = self.time = None
        self.embedded = False


def _command(text: str) -> tuple[str, str | None] | None:
    cmd = command_of(text, ("iperf3",))
    return cmd if cmd and cmd[0] else None


# The kinds of line, tried in order: how one is recognised, what reads it, the kind the next
# line sees (``prev_kind``; "" is "other"), and the characters a line of that kind can start
# with (None: any).  A line is matched stripped, so its first character is no space.
_KINDS = (
    (INTERVAL.match, TextReader.interval, "interval", "["),
    (HEADER.match, TextReader.header, "header", "["),
    (SEPARATOR.match, None, "separator", "-"),
    # a server's frame, twice a test; no pattern between here and its old place (before
    # VERBOSE) matches a line that starts with '-', so the first kind that matches is the same
    (DASHES.match, None, "", "-"),
    (CONNECTED.match, TextReader.connected, "", "["),
    (CONNECTING.match, TextReader.connecting, "", "C"),
    (LISTENING.match, TextReader.listening, "", "S"),
    (ACCEPTED.match, TextReader.accepted, "", "A"),
    (REVERSE.match, TextReader.reverse, "", "R"),
    (SENT.match, TextReader.sent, "", "["),
    (OUT_OF_ORDER.match, TextReader.out_of_order, "", "["),
    (ERROR.match, TextReader.iperf_error, "", "i"),
    (VERSION.match, TextReader.version_line, "", "i"),
    (STARTING.match, TextReader.starting, "", "S"),
    (CPU.match, TextReader.cpu, "", "C"),
    (TIME.match, TextReader.time_line, "", "T"),
    (CONGESTION.match, TextReader.congestion, "", "sr"),
    (SERVER_OUTPUT.match, TextReader.server_output, "", "S"),
    # -V: between the last interval and the summary header
    (lambda text: text.startswith("Test Complete"), None, "separator", "T"),
    (DONE.match, TextReader.done, "", "i"),
    (VERBOSE.match, None, "", "CTLDFMW"),
    (_command, TextReader.command_line, "", None),  # after a prompt: '[me@host ~]$ iperf3'
    (NOT_AVAILABLE.match, TextReader.not_available, "", "["),
    (TOOL_NOTE.match, TextReader.tool_note, "", "iw"),
)


def _kinds_for(first: str | None) -> tuple:
    """The kinds a line starting with ``first`` may be, in :data:`_KINDS`' order (a line
    tried only against these reads as it would against all: 7 patterns fewer, on average)."""
    return tuple(
        (match, handle, kind)
        for match, handle, kind, chars in _KINDS
        if chars is None or (first is not None and first in chars)
    )


_BY_FIRST = {c: _kinds_for(c) for _, _, _, chars in _KINDS for c in chars or ""}
_ANY_FIRST = _kinds_for(None)


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
            "kept as printed"
        )


# the name of a column in columns() -> the sample column
_ROW_NAMES = {
    "retransmits": "retransmits",
    "cwnd_max": "cwnd_bytes",
    "jitter_us": "jitter_us",
    "lost": "lost_packets",
    "packets": "packets",
}
