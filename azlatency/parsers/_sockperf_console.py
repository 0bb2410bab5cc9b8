"""sockperf console grammar: the shapes of its lines, where an execution starts and ends in
a document, and the parser of one execution (console summary, server log, throughput, and the
summary part of a ``--full-log`` file).  Private to :mod:`azlatency.parsers.sockperf`.
"""

from __future__ import annotations

import re
import shlex

from ..errors import ParseError
from . import _sockperf_fulllog as fulllog
from ._base import Run, integer, number

TOOL = "sockperf"
_DASH = "-" * 30

# --- line shapes ------------------------------------------------------------------------------
_PROMPT = r"(?:[\w.-]+@[\w.-]+(?::[^\s#$]*)?\s*[#$%]\s*|(?:PS\s+)?[A-Za-z]:\\[^>]*>\s*|[$#>]\s*)?"
_MODES = r"ping-pong|pp|under-load|ul|throughput|tp|playback|pb|server|sr"
# ``$VMA_SPEC=latency LD_PRELOAD=libvma.so sockperf server ...`` (sockperf 3.5 docs): the prompt
# may touch the command, and environment assignments may precede it.
_CMD = re.compile(
    rf"^\s*`?{_PROMPT}(?P<cmd>(?:[A-Za-z_]\w*=\S*\s+)*(?:sudo\s+(?:-\S+\s+)*)?"
    rf"(?:\S*/)?sockperf(?:\.exe)?(?:\s+(?:{_MODES}|-\S+)(?:\s.*)?)?)`?\s*$"
)
_SP = re.compile(r"^\s*sockperf\s*(?:\[\w+\]\s*)?:|^\s*sockperf\[")
_VERSION = re.compile(r"sockperf:\s*==\s*version\s*#(?P<raw>\S+)\s*==")
_BANNER = re.compile(r"^\s*(?:VMA|XLIO)\s+(?:INFO|WARNING|DETAILS|DEBUG|ERROR|PANIC)\s*:")
_IP = re.compile(
    r"(?:\[\s*(?P<idx>\d+)\]\s*)?IP\s*=\s*(?P<ip>\S+)\s+PORT\s*=\s*(?P<port>\d+)"
    r"\s*#\s*(?P<proto>TCP|UDP)"
)
_IP_LINE = re.compile(r"^\s*(?:\[\s*\d+\]\s*)?IP\s*=\s*\S+\s+PORT\s*=")
_PARAMS = re.compile(r"^\s*test was performed using the following parameters:(?P<args>.*)$")
_CSV_HEAD = re.compile(
    r"^\s*packet\s*,\s*txTime(?:\(sec\))?\s*,\s*rxTime(?:\(sec\))?"
    r"(?:\s*,\s*(?P<col>latency|rtt)(?:\(usec\))?)?\s*$"
)
_CSV_ROW = re.compile(r"^\s*\d+\s*(?:,|$)")  # a cut file may end in "76"

# --- output lines (searched, so two messages on one line are both seen) ------------------------
_TOTAL = re.compile(
    r"\[Total Run\]\s*RunTime=(?P<rt>\S+)\s*sec;(?:\s*Warm up time=(?P<wu>\S+)\s*msec;)?"
    r"\s*SentMessages=(?P<sent>\S+?);\s*ReceivedMessages=(?P<recv>\S+?)"
    r"(?:;\s*SkippedMessages=(?P<skip>\S+?))?\s*$"
)
_SERVER_NO = re.compile(r"Printing statistics for Server No:\s*(?P<no>\d+)")
_VALID = re.compile(
    r"\[Valid Duration\]\s*RunTime=(?P<rt>\S+)\s*sec;\s*SentMessages=(?P<sent>\S+?);"
    r"\s*ReceivedMessages=(?P<recv>\S+?)\s*$"
)
# ``avg-lat=`` up to 3.5, ``avg-latency=``/``avg-rtt=`` from 3.6; 3.8 adds mean-ad ... ci.
_AVG = re.compile(r"====>\s*avg-(?P<label>latency|lat|rtt)\s*=\s*(?P<mean>[^\s(]+)\s*\((?P<rest>.*)\)")
_KV = re.compile(r"(?P<key>std-dev|mean-ad|median-ad|siqr|cv|std-error)\s*=\s*(?P<val>[^,\s)]+)")
_CI = re.compile(r"(?P<lvl>[\d.]+)%\s*ci\s*=\s*\[(?P<lo>[^,\]]+),\s*(?P<hi>[^\]]+)\]")
_DROPPED = re.compile(
    r"# dropped messages = (?P<d>\S+?); # duplicated messages = (?P<dup>\S+?);"
    r" # out-of-order messages = (?P<ooo>\d+)"
)
_SUMMARY = re.compile(
    r"Summary:\s*(?P<what>Latency|Round trip)(?:\s+of burst of \d+ messages)?\s+is\s+(?P<v>\S+)\s*usec"
)
_OBS = re.compile(r"Total\s+(?P<n>\S+)\s+observations")
_EXTREME = re.compile(r"--->\s*<(?P<which>MAX|MIN)>\s*observation\s*=\s*(?P<v>.*?)\s*$")
_PCT = re.compile(r"--->\s*percentile\s+(?P<q>\S+)\s*=\s*(?P<v>.*?)\s*$")
_END = re.compile(r"Test end \(interrupted by (?P<why>timer|user|signal \d+)\)")
_ERROR = re.compile(r"sockperf:\s*ERROR:\s*(?P<msg>.*?)\s*$")
_NOTE_LINE = re.compile(r"sockperf:\s*(?P<msg>(?:Info|Warning|WARNING|NOTE)\b.*?)\s*$")
_TP_SENT = re.compile(
    r"Total of (?P<n>\d+) messages sent in (?P<s>\S+) sec(?: \((?P<skip>\d+) messages skipped\))?"
)
_TP_SIZE = re.compile(r"using (?:average )?msg-size=(?P<m>\d+)")
_TP_RATE = re.compile(
    r"Message Rate is (?P<r>\d+) \[msg/sec\](?:, Packet Rate is about (?P<p>\d+) \[pkt/sec\])?"
)
# sockperf's MBps/Mbps are binary: MBps = bytes / 2**20 and Mbps = 8 * MBps (checked against
# 3.7: 68773 msg/s x 1400 B x 8 / 2**20 = 734.58 "Mbps").
_TP_BW = re.compile(r"BandWidth is (?P<B>\S+) (?P<u>[MG])Bps \((?P<b>\S+) [MG]bps\)")
_SRV_TOTAL = re.compile(r"Total (?P<n>\d+) messages received and handled")
_MODE_NAMES = {
    "pp": "ping-pong", "ul": "under-load", "tp": "throughput", "pb": "playback", "sr": "server",
}
_CHATTER = re.compile(
    r"Warmup stage|Starting test|Test ended|using \w+\(\) to block|listen on:|send on:"
    r"|cleanupAfterLoop|each percentile contains|\[tid \d+\]"
)


# ---------------------------------------------------------------------------------------------
# Finding executions in a document


def _kind(line: str, in_csv: bool) -> str:
    if not line.strip():
        return "blank"
    if in_csv and _CSV_ROW.match(line):
        return "row"
    if _SP.match(line):
        return "version" if _VERSION.search(line) else "sp"
    if _IP_LINE.match(line):
        return "ip"
    if _BANNER.match(line):
        return "banner"
    if line.strip() == _DASH:
        return "dash"
    if _PARAMS.match(line):
        return "params"
    if _CSV_HEAD.match(line):
        return "csvhead"
    if _CMD.match(line):
        return "cmd"
    return "other"


def executions(lines: list[str]) -> list[tuple[int, int]]:
    """(start, end) of every sockperf execution in ``lines`` (0-based, end exclusive)."""
    out: list[tuple[int, int]] = []
    start = last = None
    body = total = real = in_csv = False
    blanks = 0

    def close():
        if start is not None and real:
            out.append((start, last + 1))

    for i, line in enumerate(lines):
        k = _kind(line, in_csv)
        if k == "blank":
            blanks += 1
            if start is not None and blanks > 2:
                close()
                start, in_csv = None, False
            continue
        blanks = 0
        if k == "other" or (k == "cmd" and start is not None and not body and last == i - 1
                            and _kind(lines[last], False) == "cmd"):
            close()
            start, in_csv = None, False
            if k == "other":
                continue
        nxt = next((x for x in lines[i + 1 : i + 3] if x.strip()), "")
        header = k in ("cmd", "banner", "version", "params") or (
            k == "dash" and bool(_PARAMS.match(nxt))
        )
        is_total = k == "sp" and "[Total Run]" in line
        if start is not None and ((header and body) or k == "cmd" or (is_total and total)):
            close()
            start = None
        if start is None:
            if k in ("row", "dash") and not header:
                continue
            start, body, total, real, in_csv = i, False, False, False, False
        last = i
        body = body or not header
        total = total or is_total
        # sockperf writes its dashes right above the CSV header; a bare CSV with the same
        # header is not claimed (it could be anyone's).
        csv_real = k == "csvhead" and i > 0 and lines[i - 1].strip() == _DASH
        real = real or k in ("sp", "version") or csv_real
        if k == "csvhead":
            in_csv = True
        elif k == "dash":
            in_csv = False
    close()
    return out




# ---------------------------------------------------------------------------------------------
# One execution


_VALUE_OPTS = {
    "-i", "--ip", "--addr", "-p", "--port", "-m", "--msg-size", "-t", "--time", "--mps",
    "--pps", "-b", "--burst", "--reply-every", "--full-log", "-f", "--file", "-F",
    "--iomux-type", "-r", "--range", "--srv-num", "--playback", "--ci_sig_level",
}


def command_options(cmd: str) -> tuple[str | None, dict[str, str]]:
    """(mode, options) of a sockperf command line; flags map to ``""``."""
    try:
        tokens = shlex.split(cmd)
    except ValueError:  # unbalanced quotes in a pasted command
        tokens = cmd.split()
    at = next((k for k, t in enumerate(tokens) if re.search(r"sockperf(?:\.exe)?$", t)), None)
    if at is None:
        return None, {}
    rest = tokens[at + 1 :]
    mode = None
    if rest and re.fullmatch(_MODES, rest[0]):
        mode = _MODE_NAMES.get(rest[0], rest[0])
        rest = rest[1:]
    opts: dict[str, str] = {}
    k = 0
    while k < len(rest):
        tok = rest[k]
        if tok.startswith("--") and "=" in tok:
            key, _, val = tok.partition("=")
            opts[key] = val
        elif tok in _VALUE_OPTS and k + 1 < len(rest):
            opts[tok] = rest[k + 1]
            k += 1
        elif re.fullmatch(r"-[impt]\d\S*", tok):  # ``-m1400``
            opts[tok[:2]] = tok[2:]
        elif tok.startswith("-"):
            opts[tok] = ""
        k += 1
    return mode, opts


def _opt(opts: dict[str, str], *names: str) -> str | None:
    return next((opts[n] for n in names if n in opts), None)


def _version_tuple(version: str | None) -> tuple[int, ...]:
    m = re.match(r"\d+(?:\.\d+)*", version or "")
    return tuple(int(x) for x in m.group(0).split(".")) if m else ()


class _Section:
    """What sockperf printed for one server (one run)."""

    def __init__(self, first: int) -> None:
        self.first = self.last = first
        self.server_no: int | None = None
        self.run = Run()
        self.label: str | None = None  # lat / latency / rtt from the avg line
        self.extended = False  # 3.8 dispersion figures present
        self.level: float | None = None
        self.count: int | None = None
        self.has_stats = self.has_min = self.no_valid = self.total_loss = False
        self.summary_mean: float | None = None
        self.summary_label: str | None = None
        self.stats: dict[str, tuple[float, str, float | None]] = {}
        self.extra: list[tuple[str, str, float, str]] = []  # throughput summaries
        self.tp_msg_size: int | None = None
        self.csv_col: str | None = None
        self.throughput = False
        self.bandwidth = False
        self.rows: fulllog.Rows | None = None
        self.rows_closed = True

    def content(self) -> bool:
        return (
            self.has_stats or self.no_valid or self.total_loss or self.throughput
            or self.rows is not None or bool(self.run.meta)
        )


class Execution:
    """Parser of one sockperf execution: ``lines[start:end]`` of a block."""

    def __init__(self, lines, start, end, source, strict, block=None) -> None:
        self.lines, self.start, self.end = lines, start, end
        self.source, self.strict, self.block = source, strict, block
        self.command: str | None = None
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
        return number(text, tool=TOOL, source=self.source, line_no=i + 1, what=what)

    def int_(self, text: str, i: int, what: str) -> int:
        return integer(text, tool=TOOL, source=self.source, line_no=i + 1, what=what)

    @property
    def cur(self) -> _Section:
        return self.sections[-1]

    # -- driver -----------------------------------------------------------------------------
    def parse(self) -> list[Run]:
        i = self.start
        while i < self.end:
            line = self.lines[i]
            try:
                i = self._line(i, line)
            except ParseError as exc:
                if self._cut(i, line):
                    self.cur.run.warnings.append(f"line {i + 1} dropped: cut short {line.strip()!r}")
                    self.cut = True
                elif self.strict:
                    raise
                else:
                    self.cur.run.warnings.append(f"line {i + 1} skipped: {exc.reason}")
                i += 1
        return [self._finish(sec) for sec in self.sections if sec.content() or sec is self.sections[0]]

    def _cut(self, i: int, line: str) -> bool:
        """A truncated capture ends inside a line: the last line of the execution whose value
        is missing or a bare prefix of a number (``percentile 90.000 =  ``) was cut, not wrong."""
        last = max((k for k in range(self.start, self.end) if self.lines[k].strip()), default=-1)
        return i == last and re.search(r"[=:]\s*[\d.]*\s*$", line) is not None

    def _line(self, i: int, line: str) -> int:
        """Handle line ``i``; return the index of the next line to read."""
        if not line.strip():
            return i + 1
        if i == self.start or (self.command is None and self.version_raw is None):
            m = _CMD.match(line)
            if m and not _SP.match(line):
                self.command = m.group("cmd").strip()
                self.mode, self.opts = command_options(self.command)
                return i + 1
        if _BANNER.match(line):
            m = re.search(r"(VMA|XLIO)_VERSION:\s*(\S+)", line)
            if m:
                self.labels[f"{m.group(1).lower()}_version"] = m.group(2)
            return i + 1
        m = _CSV_HEAD.match(line)
        if m:
            return self._csv(i, m.group("col"))
        m = _PARAMS.match(line)
        if m:
            for key, _, val in (t.partition("=") for t in m.group("args").split()):
                self.params[key] = val
            return i + 1
        self._output(i, line)
        return i + 1

    def _output(self, i: int, line: str) -> None:
        if _SERVER_NO.search(line):
            self._stats_line(i, line)
            return
        sec = self.cur
        sec.last = max(sec.last, i)
        m = _VERSION.search(line)
        if m:
            self.version_raw = m.group("raw")
        if "[SERVER]" in line:
            self.role = "server"
        elif "sockperf[CLIENT]" in line:
            self.role = "client"
        m = _IP.search(line)
        if m:
            idx = int(m.group("idx") or 0)
            self.ips[idx] = (m.group("ip"), int(m.group("port")), m.group("proto").lower())
        m = _ERROR.search(line)
        if m:
            self.errors.append(m.group("msg"))
            return
        m = _END.search(line)
        if m:
            self.end_why = self.end_why or m.group("why")
            return
        if "Test ended" in line:
            self.ended = True
        if self._stats_line(i, line) or self._other_line(i, line):
            return
        if _SP.match(line) and not _CHATTER.search(line) and not _VERSION.search(line):
            sec.run.warnings.append(f"line {i + 1} not understood: {line.strip()[:120]!r}")

    # -- client statistics ------------------------------------------------------------------
    def _stats_line(self, i: int, line: str) -> bool:
        sec = self.cur
        m = _SERVER_NO.search(line)
        if m:
            no = int(m.group("no"))
            if sec.server_no is None and not sec.content():
                sec.server_no = no
            else:
                new = _Section(i)
                new.server_no = no
                self.sections.append(new)
            return True
        m = _VALID.search(line)
        if m:
            sec.run.meta.update(
                duration_s=self.num(m.group("rt"), i, "'RunTime=<sec>'"),
                packets_sent=self.int_(m.group("sent"), i, "'SentMessages=<n>'"),
                packets_received=self.int_(m.group("recv"), i, "'ReceivedMessages=<n>'"),
            )
            return True
        m = _AVG.search(line)
        if m:
            self._avg(i, sec, m)
            return True
        m = _DROPPED.search(line)
        if m:
            sec.run.meta.update(
                dropped=self.int_(m.group("d"), i, "'# dropped messages = <n>'"),
                duplicates=self.int_(m.group("dup"), i, "'# duplicated messages = <n>'"),
                out_of_order=self.int_(m.group("ooo"), i, "'# out-of-order messages = <n>'"),
            )
            return True
        m = _SUMMARY.search(line)
        if m:
            sec.summary_mean = self.num(m.group("v"), i, "'Summary: ... is <usec> usec'")
            sec.summary_label = "rtt" if m.group("what") == "Round trip" else "lat"
            sec.has_stats = True
            return True
        m = _OBS.search(line)
        if m:
            sec.count = self.int_(m.group("n"), i, "'Total <n> observations'")
            sec.stats["count"] = (float(sec.count), "count", None)
            sec.has_stats = True
            return True
        m = _EXTREME.search(line)
        if m:
            which = m.group("which")
            value = self.num(m.group("v"), i, f"'<{which}> observation = <usec>'")
            sec.stats[which.lower()] = (value, "us", None)
            sec.has_min = sec.has_min or which == "MIN"
            sec.has_stats = True
            return True
        m = _PCT.search(line)
        if m:
            q = self.num(m.group("q"), i, "'percentile <q> = <usec>'")
            value = self.num(m.group("v"), i, f"'percentile {m.group('q')} = <usec>'")
            sec.stats[fulllog.stat_name(q / 100)] = (value, "us", None)
            sec.has_stats = True
            return True
        if "No valid observations found" in line:
            sec.no_valid = True
            return True
        if "No messages were received from the server" in line:
            sec.total_loss = True
            return True
        return False

    def _avg(self, i: int, sec: _Section, m: re.Match[str]) -> None:
        sec.label = m.group("label")
        sec.stats["mean"] = (self.num(m.group("mean"), i, f"'avg-{sec.label}=<usec>'"), "us", None)
        names = {"std-dev": "std", "mean-ad": "mean_ad", "median-ad": "median_ad",
                 "siqr": "siqr", "cv": "cv", "std-error": "std_error"}
        for kv in _KV.finditer(m.group("rest")):
            key = kv.group("key")
            value = self.num(kv.group("val"), i, f"'{key}=<number>'")
            sec.stats[names[key]] = (value, "ratio" if key == "cv" else "us", None)
            sec.extended = sec.extended or key != "std-dev"
        ci = _CI.search(m.group("rest"))
        if ci:  # sockperf >= 3.8: ``99.0% ci=[16.776, 16.806]``
            level = self.num(ci.group("lvl"), i, "'<level>% ci'") / 100
            sec.level = level
            sec.stats["ci_low"] = (self.num(ci.group("lo"), i, "'ci=[<low>, <high>]'"), "us", level)
            sec.stats["ci_high"] = (self.num(ci.group("hi"), i, "'ci=[<low>, <high>]'"), "us", level)
            sec.extended = True
        sec.has_stats = True

    # -- run-wide, throughput and server lines ----------------------------------------------
    def _other_line(self, i: int, line: str) -> bool:
        sec = self.cur
        m = _TOTAL.search(line)
        if m:
            self.total = {
                "runtime": self.num(m.group("rt"), i, "'RunTime=<sec>'"),
                "sent": self.int_(m.group("sent"), i, "'SentMessages=<n>'"),
                "received": self.int_(m.group("recv"), i, "'ReceivedMessages=<n>'"),
            }
            if m.group("wu") is not None:  # absent before 3.x
                self.total["warmup"] = self.num(m.group("wu"), i, "'Warm up time=<msec>'") / 1000
            if m.group("skip") is not None:
                self.total["skipped"] = self.int_(m.group("skip"), i, "'SkippedMessages=<n>'")
            return True
        m = _TP_SENT.search(line)
        if m:
            sec.throughput = True
            sec.run.meta["packets_sent"] = int(m.group("n"))
            sec.run.meta["duration_s"] = self.num(m.group("s"), i, "'sent in <sec> sec'")
            return True
        m = _TP_SIZE.search(line)
        if m and "NOTE" in line:
            sec.tp_msg_size = int(m.group("m"))
            return True
        m = _TP_RATE.search(line)
        if m:
            sec.throughput = True
            sec.extra.append(("message_rate_sender", "mean", float(m.group("r")), "msg/s"))
            if m.group("p"):
                sec.extra.append(("packet_rate_sender", "mean", float(m.group("p")), "pkt/s"))
            return True
        m = _TP_BW.search(line)
        if m:
            scale = 2**20 if m.group("u") == "M" else 2**30
            bits = self.num(m.group("b"), i, "'BandWidth is <x> MBps (<y> Mbps)'") * scale
            sec.extra.append(("throughput_sender", "mean", bits, "bps"))
            sec.throughput = sec.bandwidth = True
            return True
        m = _SRV_TOTAL.search(line)
        if m:
            self.srv_received = int(m.group("n"))
            return True
        if "No messages were received on the server" in line:
            self.srv_received = 0
            return True
        if "No messages were sent" in line:
            sec.run.warnings.append("no messages were sent (interrupted during warm-up?)")
            return True
        m = _NOTE_LINE.search(line)
        if m:
            sec.run.warnings.append(m.group("msg"))
            return True
        return False

    # -- the --full-log CSV block -----------------------------------------------------------
    def _csv(self, i: int, col: str | None) -> int:
        sec = self.cur
        kw = dict(has_value=col is not None, first_line_no=i + 2, source=self.source,
                  strict=self.strict)
        if self.block is not None and i == self.end - 1:
            b = self.block
            rows = fulllog.read_rows(b.data, b.start, b.end, closed=b.closed, **kw)
            closed, nxt = b.closed, self.end
        else:
            k = i + 1
            while k < self.end and self.lines[k].strip() != _DASH:
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

    # -- building the run -------------------------------------------------------------------
    def _finish(self, sec: _Section) -> Run:
        from ._sockperf_run import build_run

        return build_run(self, sec)
