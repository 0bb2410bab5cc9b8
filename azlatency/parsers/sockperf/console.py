"""The parser of one sockperf execution (console output, server log, throughput, and the
summary part of a ``--full-log`` file).  Private to :mod:`azlatency.parsers.sockperf`.

Lines are matched by a table of (pattern, handler): every handler is a few lines, and the
order of the table is the order sockperf prints them in.
"""

from __future__ import annotations

import re

import numpy as np

from ...errors import ParseError
from .._base import Run
from .._lines import integer, number, pieces, run_together
from . import fulllog
from . import grammar as g
from .grammar import TOOL, command_options

_NO_VALID = re.compile(r"No valid observations found")
_NO_REPLY = re.compile(r"No messages were received from the server")
_SRV_NONE = re.compile(r"No messages were received on the server")
_NO_SENT = re.compile(r"No messages were sent")
# Options whose digits the run stores (message size, port) or compares (reply-every).
_INT_OPTS = ("-m", "--msg-size", "-p", "--port", "--reply-every")
_KV_NAMES = {
    "std-dev": "std",
    "mean-ad": "mean_ad",
    "median-ad": "median_ad",
    "siqr": "siqr",
    "cv": "cv",
    "std-error": "std_error",
}


class _Section:
    """What sockperf printed for one server (one run)."""

    def __init__(self, first: int) -> None:
        self.first = self.last = first
        self.server_no: int | None = None
        self.run = Run()
        self.label: str | None = None  # lat / latency / rtt from the avg line
        self.summary_label: str | None = None  # from "Summary: Latency/Round trip is"
        self.summary_mean: float | None = None
        self.stats: dict[str, tuple[float, str, float | None]] = {}  # stat → value, unit, level
        self.extra: list[tuple[str, str, float, str]] = []  # throughput summaries
        self.extended = False  # 3.8 dispersion figures present
        self.level: float | None = None
        self.count: int | None = None
        self.has_stats = self.has_min = self.no_valid = self.total_loss = False
        self.throughput = self.bandwidth = False
        self.tp_msg_size: int | None = None
        self.tp_mps: str | None = None  # the NOTE's 'mps=20000' (or 'max')
        self.rows: fulllog.Rows | None = None
        self.rows_closed = True
        self.csv_col: str | None = None
        # the console histogram (--histogram): '#' per observation, its bars' lengths, its line
        self.shown: tuple[int, list[int], int] | None = None

    def content(self) -> bool:
        return (
            self.has_stats
            or self.no_valid
            or self.total_loss
            or self.throughput
            or self.rows is not None
            or bool(self.run.meta)
        )


# A value, then after a space a note that cannot be part of it (not a digit, sign or point).
_ANNOTATED = re.compile(r"(?P<v>[-+]?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?)\s+(?P<note>[^\d\s.+-].*)$")


class Execution:
    """Parser of one sockperf execution: ``lines[start:end]`` of a block."""

    def __init__(self, lines, start, end, source, strict, block=None) -> None:
        self.lines, self.start, self.end = lines, start, end
        self.source, self.strict, self.block = source, strict, block
        self.command: str | None = None
        # Every command above the output (a Markdown fence may hold the client's and a server
        # started beside it): the run's is chosen by what the output says (_choose_command).
        self.commands: list[tuple[str, str | None, dict[str, str]]] = []
        self.seen_output = False
        self.mode: str | None = None
        self.opts: dict[str, str] = {}
        self.version_raw: str | None = None
        self.role: str | None = None
        self.ips: dict[int, tuple[str, int, str]] = {}
        self.params: dict[str, str] = {}
        self.total: dict[str, float] = {}
        self.end_why: str | None = None
        self.ended = False
        self.errors: list[str] = []
        self.labels: dict[str, str] = {}
        self.srv_received: int | None = None
        self.cut = False  # the last line was cut short (truncated capture)
        self.sections = [_Section(start)]

    # -- helpers ----------------------------------------------------------------------------
    def num(self, text: str, i: int, what: str) -> float:
        # sockperf prints '%.3lf' and '%d': a comma in a number is no grouping of its own
        # ('avg-latency=10,161' of a localized copy is not 10161 µs)
        return number(text, tool=TOOL, source=self.source, line_no=i + 1, what=what, grouped=False)

    def value(self, text: str, i: int, what: str) -> float:
        """A statistic's value, where a note written after it by hand (``7.946  <=== New
        report``, sockperf PR 73's example output) is not sockperf's: the number is read and
        the note named in a warning.  The value had been dropped with the line."""
        m = _ANNOTATED.match(text)
        if m is None:
            return self.num(text, i, what)
        self.cur.run.warnings.append(
            f"line {i + 1}: read {m['v']}; the text after it is not sockperf's and was left "
            f"out: {m['note']!r}"
        )
        return self.num(m["v"], i, what)

    def int_(self, text: str, i: int, what: str) -> int:
        return integer(text, tool=TOOL, source=self.source, line_no=i + 1, what=what)

    @property
    def cur(self) -> _Section:
        return self.sections[-1]

    # -- driver -----------------------------------------------------------------------------
    def read(self) -> list[_Section]:
        """Read the execution's lines; the sections that become runs (``run.build_run``)."""
        i = self.start
        while i < self.end:
            line = self.lines[i]
            try:
                i = self._line(i, line)
            except ParseError as exc:
                if self._cut(i, line):
                    self.cur.run.warnings.append(
                        f"line {i + 1} dropped: cut short {line.strip()!r}"
                    )
                    self.cut = True
                elif self.strict:
                    raise
                else:
                    self.cur.run.warnings.append(f"line {i + 1} skipped: {exc.reason}")
                i += 1
        if len(self.commands) > 1:
            self._choose_command()
        first = self.sections[0]
        if self.params and self.mode != "server" and all(s.rows is None for s in self.sections):
            # the full log's own header ("test was performed using ...") with no rows after
            # the statistics: the file ends before them
            last = max((k for k in range(self.start, self.end) if self.lines[k].strip()), default=0)
            self.cur.run.warnings.append(
                f"a --full-log file without its rows: nothing after line {last + 1} (cut short?)"
            )
            self.cut = True
        return [s for s in self.sections if s.content() or s is first]

    def _cut(self, i: int, line: str) -> bool:
        """A truncated capture ends inside a line: the last line of the execution whose value
        is missing or a bare prefix of a number (``percentile 90.000 =  ``) was cut, not wrong."""
        last = max((k for k in range(self.start, self.end) if self.lines[k].strip()), default=-1)
        return i == last and re.search(r"[=:]\s*[\d.]*\s*$", line) is not None

    def _line(self, i: int, line: str) -> int:
        """Handle line ``i``; return the index of the next line to read."""
        if not line.strip():
            return i + 1
        if g.SP.match(line) and (cuts := [m.start() for m in g.JOINED.finditer(line)]):
            self.cur.run.warnings.append(run_together(i + 1, len(cuts) + 1, "sockperf"))
            for piece in pieces(line, cuts):
                self._line(i, piece)
            return i + 1
        if not self.seen_output:
            if (cut := g.joined_command(line)) is not None:  # the command, then sockperf's
                rest = line[cut:]
                more = pieces(rest, [m.start() for m in g.JOINED.finditer(rest)])
                self.cur.run.warnings.append(run_together(i + 1, len(more) + 1, "sockperf"))
                self._command(i, g.command_in(line[:cut]))
                for piece in more:
                    self._line(i, piece)
                return i + 1
            cmd = g.command_in(line)
            if cmd is not None and not g.SP.match(line):
                self._command(i, cmd)
                return i + 1
            if g.CONTEXT.match(line):
                return i + 1  # a fence, a heading or a shell comment around the command

        if g.BANNER.match(line):
            m = re.search(r"(VMA|XLIO)_VERSION:\s*(\S+)", line)
            if m:
                self.labels[f"{m.group(1).lower()}_version"] = m.group(2)
            return i + 1
        m = g.CSV_HEAD.match(line)
        if m:
            return self._csv(i, m.group("col"), pairs=m.group("packet") is None)
        m = g.HIST_HEAD.match(line)
        if m:
            return self._histogram(i, m)
        m = g.PARAMS.match(line)
        if m:
            self._params(i, m)
            return i + 1
        if g.line_kind(line, False) == "other":
            raise ParseError(
                TOOL,
                self.source,
                i + 1,
                f"expected a sockperf line, got {line.strip()[:80]!r}",
                hint="parse with strict=False to skip lines that are not sockperf's",
            )
        self._output(i, line)
        return i + 1

    def _command(self, i: int, command: str) -> None:
        """A sockperf command line above the output (line ``i``)."""
        mode, opts = command_options(command)
        for key in _INT_OPTS:  # the run reads these as int64 (sockperf/run)
            if re.fullmatch(r"\d+", opts.get(key, "")):
                self.int_(opts[key], i, f"'{key} <n>' on the command line")
        self.commands.append((command, mode, opts))
        if self.command is None:
            self.command, self.mode, self.opts = command, mode, opts

    def _params(self, i: int, m: re.Match) -> None:
        """The ``key=value`` settings of a run's 'test was performed using the following
        parameters:' line (line ``i``)."""
        params = dict(t.partition("=")[::2] for t in m.group("args").split())
        for key in _INT_OPTS:  # the run reads these as int64 (sockperf/run)
            if re.fullmatch(r"\d+", params.get(key, "")):
                self.int_(params[key], i, f"'{key}=<n>'")
        self.params.update(params)

    def _choose_command(self) -> None:
        """The command of the output, when several stand above it: a server's output is the
        server command's, anything else the client's (the last of each)."""
        server = self.role == "server" or self.srv_received is not None
        client = (
            self.role == "client"
            or bool(self.total)
            or any(s.has_stats or s.throughput or s.no_valid or s.total_loss for s in self.sections)
        )
        pick = (
            [c for c in self.commands if (c[1] == "server") == server] if server or client else []
        )
        self.command, self.mode, self.opts = (pick or self.commands)[-1]

    def _output(self, i: int, line: str) -> None:
        self.seen_output = True
        m = g.SERVER_NO.search(line)
        if m:
            self._server_no(i, m)
            return
        self.cur.last = max(self.cur.last, i)
        self._header(i, line)
        # An error may share its line with the IP line (3.7: ``IP = ... # TCP sockperf: ERROR``).
        for pattern, handler in _HANDLERS:
            m = pattern.search(line)
            if m:
                handler(self, i, m)
                return
        if g.SP.match(line) and not g.CHATTER.search(line) and not g.VERSION.search(line):
            self.cur.run.warnings.append(f"line {i + 1} not understood: {line.strip()[:120]!r}")

    def _header(self, i: int, line: str) -> None:
        m = g.VERSION.search(line)
        if m:
            self.version_raw = m.group("raw")
        if "[SERVER]" in line:
            self.role = "server"
        elif "sockperf[CLIENT]" in line:
            self.role = "client"
        m = g.IP.search(line)
        if m:
            idx = int(m.group("idx") or 0)  # a key only: never stored, cannot overflow
            port = self.int_(m.group("port"), i, "'PORT = <port>'")
            self.ips[idx] = (m.group("ip"), port, m.group("proto").lower())
        if "Test ended" in line:
            self.ended = True

    def _server_no(self, i: int, m: re.Match[str]) -> None:
        """``Printing statistics for Server No: N`` opens the section (run) of server N."""
        no = int(m.group("no"))  # a key only (which IP line): never stored, cannot overflow
        if self.cur.server_no is None and not self.cur.content():
            self.cur.server_no = no
            return
        new = _Section(i)
        new.server_no = no
        self.sections.append(new)

    # -- the --full-log CSV block -----------------------------------------------------------
    def _csv(self, i: int, col: str | None, pairs: bool = False) -> int:
        sec = self.cur
        kw = dict(
            has_value=col is not None,
            pairs=pairs,
            first_line_no=i + 2,
            source=self.source,
            strict=self.strict,
        )
        if self.block is not None and i == self.end - 1:  # parse_bytes: rows stay in bytes
            b = self.block
            rows = fulllog.read_rows(b.data, b.start, b.end, closed=b.closed, end_sure=b.sure, **kw)
            closed, nxt = b.closed, self.end
        else:
            k = i + 1
            while k < self.end and self.lines[k].strip() != g.DASH:
                k += 1
            closed = k < self.end
            text = "\n".join(self.lines[i + 1 : k])
            data = (text + "\n").encode("utf-8") if text else b""
            rows = fulllog.read_rows(data, 0, len(data), closed=closed, **kw)
            nxt = k + 1 if closed else k
        sec.rows, sec.rows_closed, sec.csv_col = rows, closed, col
        sec.last = i + rows.n_lines + (1 if closed else 0)
        sec.run.warnings.extend(rows.warnings)
        return nxt

    # -- the --histogram table after the rows ---------------------------------------------
    def _histogram(self, i: int, m: re.Match[str]) -> int:
        """Read the bins sockperf wrote after the full log's rows and check them against the
        rows (the same latencies, binned: a mismatch or a cut table is a warning, since the
        rows, not the bins, are the run's samples).  Returns the index after the table."""
        size, low, high = (self.int_(m.group(k), i, f"'--h_{k}'") for k in ("bin", "lo", "hi"))
        bins: list[tuple[int, int | None, int, int]] = []  # (start, end or None, count, line)
        k, dashes = i + 1, 0
        while k < self.end and dashes < 2:
            text = self.lines[k].strip()
            if text == g.DASH:
                dashes += 1
            elif not (g.HIST_COLS.match(text) or not text):
                row = g.HIST_ROW.match(text)
                if row is None or dashes != 1:
                    break  # a foreign line: _line names it
                end = int(row.group("b")) if row.group("b") else None
                bins.append((int(row.group("a")), end, int(row.group("n")), k + 1))
            k += 1
        sec = self.cur
        sec.last = k - 1
        self.labels["histogram_us"] = f"{size}:{low}:{high}"
        if dashes < 2:
            where = bins[-1][3] if bins else i + 1
            sec.run.warnings.append(
                f"the --histogram table stops at line {where} (cut short?): its bins are not "
                "checked against the rows"
            )
            return k
        if sec.rows is None or sec.rows.value is None or size <= 0:
            return k
        v = sec.rows.value[np.isfinite(sec.rows.value)]
        want = []
        for start, end, count, line in bins:
            if end is not None and start < low:
                got = int((v < low).sum())  # left outliers "min-lower"
            elif end is not None:
                got = int((v >= high).sum())  # right outliers "start-max"
            else:
                got = int(((v >= start) & (v < start + size)).sum())
            if got != count:
                want.append(f"line {line}: bin {start}: {count} printed, {got} in the rows")
        if sum(b[2] for b in bins) != len(v):
            want.append(f"{sum(b[2] for b in bins)} binned, {len(v)} rows")
        if want:
            sec.run.warnings.append(
                "the --histogram table does not match the full log's rows: " + "; ".join(want[:4])
            )
        return k


# ---------------------------------------------------------------------------------------------
# Line handlers: (ex, i, match) → None


def _error(ex: Execution, i: int, m: re.Match[str]) -> None:
    ex.errors.append(m.group("msg"))


def _end(ex: Execution, i: int, m: re.Match[str]) -> None:
    ex.end_why = ex.end_why or m.group("why")  # the first reason counts


def _total(ex: Execution, i: int, m: re.Match[str]) -> None:
    ex.total = {
        "runtime": ex.num(m.group("rt"), i, "'RunTime=<sec>'"),
        "sent": ex.int_(m.group("sent"), i, "'SentMessages=<n>'"),
        "received": ex.int_(m.group("recv"), i, "'ReceivedMessages=<n>'"),
    }
    if m.group("wu") is not None:  # absent before 3.x
        ex.total["warmup"] = ex.num(m.group("wu"), i, "'Warm up time=<msec>'") / 1000
    if m.group("skip") is not None:
        ex.total["skipped"] = ex.int_(m.group("skip"), i, "'SkippedMessages=<n>'")


def _valid(ex: Execution, i: int, m: re.Match[str]) -> None:
    ex.cur.run.meta.update(
        duration_s=ex.num(m.group("rt"), i, "'RunTime=<sec>'"),
        packets_sent=ex.int_(m.group("sent"), i, "'SentMessages=<n>'"),
        packets_received=ex.int_(m.group("recv"), i, "'ReceivedMessages=<n>'"),
    )


def _avg(ex: Execution, i: int, m: re.Match[str]) -> None:
    sec = ex.cur
    sec.label = m.group("label")
    sec.stats["mean"] = (ex.num(m.group("mean"), i, f"'avg-{sec.label}=<usec>'"), "us", None)
    for kv in g.KV.finditer(m.group("rest")):
        key = kv.group("key")
        value = ex.num(kv.group("val"), i, f"'{key}=<number>'")
        sec.stats[_KV_NAMES[key]] = (value, "ratio" if key == "cv" else "us", None)
        sec.extended = sec.extended or key != "std-dev"
    ci = g.CI.search(m.group("rest"))
    if ci:  # sockperf >= 3.8: ``99.0% ci=[16.776, 16.806]``
        level = ex.num(ci.group("lvl"), i, "'<level>% ci'") / 100
        sec.level = level
        sec.stats["ci_low"] = (ex.num(ci.group("lo"), i, "'ci=[<low>, <high>]'"), "us", level)
        sec.stats["ci_high"] = (ex.num(ci.group("hi"), i, "'ci=[<low>, <high>]'"), "us", level)
        sec.extended = True
    sec.has_stats = True


def _dropped(ex: Execution, i: int, m: re.Match[str]) -> None:
    ex.cur.run.meta.update(
        dropped=ex.int_(m.group("d"), i, "'# dropped messages = <n>'"),
        duplicates=ex.int_(m.group("dup"), i, "'# duplicated messages = <n>'"),
        out_of_order=ex.int_(m.group("ooo"), i, "'# out-of-order messages = <n>'"),
    )


def _summary(ex: Execution, i: int, m: re.Match[str]) -> None:
    sec = ex.cur
    sec.summary_mean = ex.num(m.group("v"), i, "'Summary: ... is <usec> usec'")
    sec.summary_label = "rtt" if m.group("what") == "Round trip" else "lat"
    sec.has_stats = True


def _observations(ex: Execution, i: int, m: re.Match[str]) -> None:
    sec = ex.cur
    sec.count = ex.int_(m.group("n"), i, "'Total <n> observations'")
    sec.stats["count"] = (float(sec.count), "count", None)
    sec.has_stats = True


def _extreme(ex: Execution, i: int, m: re.Match[str]) -> None:
    sec, which = ex.cur, m.group("which")
    value = ex.value(m.group("v"), i, f"'<{which}> observation = <usec>'")
    sec.stats[which.lower()] = (value, "us", None)
    sec.has_min = sec.has_min or which == "MIN"
    sec.has_stats = True


def _percentile(ex: Execution, i: int, m: re.Match[str]) -> None:
    q = ex.num(m.group("q"), i, "'percentile <q> = <usec>'")
    value = ex.value(m.group("v"), i, f"'percentile {m.group('q')} = <usec>'")
    ex.cur.stats[fulllog.stat_name(q / 100)] = (value, "us", None)
    ex.cur.has_stats = True


def _no_valid(ex: Execution, i: int, m: re.Match[str]) -> None:
    ex.cur.no_valid = True


def _no_reply(ex: Execution, i: int, m: re.Match[str]) -> None:
    ex.cur.total_loss = True


def _tp_sent(ex: Execution, i: int, m: re.Match[str]) -> None:
    sec = ex.cur
    sec.throughput = True
    sec.run.meta["packets_sent"] = ex.int_(m.group("n"), i, "'Total of <n> messages sent'")
    sec.run.meta["duration_s"] = ex.num(m.group("s"), i, "'sent in <sec> sec'")


def _tp_size(ex: Execution, i: int, m: re.Match[str]) -> None:
    ex.cur.tp_msg_size = ex.int_(m.group("m"), i, "'msg-size=<bytes>'")
    ex.cur.tp_mps = m.group("mps")


def _tp_rate(ex: Execution, i: int, m: re.Match[str]) -> None:
    sec = ex.cur
    sec.throughput = True
    sec.extra.append(("message_rate_sender", "mean", float(m.group("r")), "msg/s"))
    if m.group("p"):
        sec.extra.append(("packet_rate_sender", "mean", float(m.group("p")), "pkt/s"))


def _tp_bandwidth(ex: Execution, i: int, m: re.Match[str]) -> None:
    scale = 2**20 if m.group("u") == "M" else 2**30  # sockperf's mega/giga are binary
    bits = ex.num(m.group("b"), i, "'BandWidth is <x> MBps (<y> Mbps)'") * scale
    ex.cur.extra.append(("throughput_sender", "mean", bits, "bps"))
    ex.cur.throughput = ex.cur.bandwidth = True


def _srv_total(ex: Execution, i: int, m: re.Match[str]) -> None:
    ex.srv_received = ex.int_(m.group("n"), i, "'Total <n> messages received and handled'")


def _srv_none(ex: Execution, i: int, m: re.Match[str]) -> None:
    ex.srv_received = 0


def _no_sent(ex: Execution, i: int, m: re.Match[str]) -> None:
    ex.cur.run.warnings.append("no messages were sent (interrupted during warm-up?)")


def _histogram_shown(ex: Execution, i: int, m: re.Match[str]) -> None:
    ex.cur.shown = (int(m.group("unit") or 1), [], i + 1)


def _histogram_part(ex: Execution, i: int, m: re.Match[str]) -> None:
    """A bar or the header of the console histogram; the same shape elsewhere is not one."""
    if ex.cur.shown is None:
        ex.cur.run.warnings.append(f"line {i + 1} not understood: {m.string.strip()[:120]!r}")
    elif m.group("bar") is not None:
        ex.cur.shown[1].append(len(m.group("bar")))


def _note(ex: Execution, i: int, m: re.Match[str]) -> None:
    ex.cur.run.warnings.append(m.group("msg"))


_HANDLERS = (
    (g.ERROR, _error),
    (g.END, _end),
    (g.TOTAL, _total),
    (g.VALID, _valid),
    (g.AVG, _avg),
    (g.DROPPED, _dropped),
    (g.SUMMARY, _summary),
    (g.OBS, _observations),
    (g.EXTREME, _extreme),
    (g.PCT, _percentile),
    (_NO_VALID, _no_valid),
    (_NO_REPLY, _no_reply),
    (g.TP_SENT, _tp_sent),
    (g.TP_SIZE, _tp_size),
    (g.TP_RATE, _tp_rate),
    (g.TP_BW, _tp_bandwidth),
    (g.SRV_TOTAL, _srv_total),
    (_SRV_NONE, _srv_none),
    (_NO_SENT, _no_sent),
    (g.NOTE_LINE, _note),
    (g.HIST_SHOWN, _histogram_shown),
    (g.HIST_BAR, _histogram_part),
)
