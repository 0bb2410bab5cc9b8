"""ntttcp: Microsoft's NTttcp (Windows) and ntttcp-for-linux throughput tool.

Five dialects, chosen by what the text looks like, never by the caller:

* ``console`` — ntttcp-for-linux console text: ``NTTTCP for Linux 1.4.0``, ``INFO:`` lines
  (1.4.0 prefixes them with ``HH:MM:SS``), a ``#####  Totals:  #####`` block of
  ``key :value`` lines, with ``-V`` a ``Thread Time(s) Throughput`` table before it;
* ``xml-linux`` — ntttcp-for-linux ``-x`` (``<ntttcps version="5.33-linux">`` on the sender,
  ``<ntttcpr>`` on the receiver);
* ``xml-windows`` — NTttcp.exe ``-xml`` (5.3x; UTF-8 BOM; several documents appended to one
  file when the same ``-xml`` file is reused);
* ``json`` — ntttcp-for-linux ``-j``: the XML's tree as JSON, every value a string;
* ``console-windows`` — NTttcp.exe console tables (``Thread  Time(s) Throughput(KB/s) ...``).

ntttcp prints one total per side: a sender (``-s``) run gives ``throughput_sender`` and
``transfer_sender``, a receiver (``-r``) run the ``_receiver`` pair.  Units differ by OS and
are documented in ``docs/tools/ntttcp.md``: the Linux text scales by 1000 (``98.39Gbps``), the
Linux XML's ``MB``/``KB`` are 10^6/10^3 bytes, Windows' are 2^20/2^10 bytes; ``mbps`` and
``Bps`` mean the same on both.  The XML and JSON dialects live in ``ntttcp/doc.py``, the
Windows console in ``ntttcp/windows.py``; this module holds detection, location, the Linux
console and the run builder they share.
"""

from __future__ import annotations

import re
from decimal import Decimal

from ...errors import ParseError
from .._base import Parsed, Span, ToolInfo
from .._lines import STRAY_LINES, command_above, command_of, in_code_span, pieces, run_together
from .._ranges import int64
from .doc import _ROOT_OPEN, locate_xml, parse_json, parse_xml
from .totals import NAMES, TOOL, TOTALS, Totals, build_run, command_meta, dec, rate_bps
from .windows import extend_windows, parse_windows

INFO = ToolInfo(
    tool="ntttcp",
    description="ntttcp-for-linux console/XML/JSON, NTttcp.exe XML and console ('#####  Totals:  #####')",
    variants=("console", "xml-linux", "xml-windows", "json", "console-windows"),
    versions="ntttcp-for-linux 1.3-1.4 (XML version 5.33-linux); NTttcp.exe 5.33-5.39",
    produces=("runs", "samples", "summaries"),
    flags="-V (per-thread table) or -x/-xml (per-thread XML) for thread samples",
    commands=("NTttcp",),
)

LINUX_BANNER = re.compile(r"NTTTCP for Linux\s+(\S+)")
# 1.4.0 prints "HH:MM:SS INFO: msg"; older builds and -O logs print "INFO: msg".  logger.c
# pads the level to four characters: "ERR : msg", and with -V "DBG : msg" (1.4.3, captured).
_PREFIX = re.compile(
    r"^\s*(?:\d{1,2}:\d{2}:\d{2}\s+)?(INFO|WARN(?:ING)?|ERR(?:OR)?|DBG|DEBUG)\s?:\s?"
)
# throughputmanagement.c prints one each second, without a time or level (on a terminal it
# rewrites one line with '\r'; into a file or pipe each is a line of its own).
_REALTIME = re.compile(r"^\s*Real-time throughput:\s*[0-9.]+\s*[KMGT]?bps\s*$")
_KV = re.compile(r"^\s*([A-Za-z][\w /().%-]*?)\s*:\s*(\S.*?)\s*$")
_THREAD_ROW = re.compile(r"^\s*(\d+)\s+([0-9.]+)\s+([0-9.]+\s*[KMGT]?bps)\s*$")
_THREAD_LIKE = re.compile(r"^\s*\d+\s+\S+\s+\S*bps\s*$")  # a row whose time or rate is damaged
_THREAD_HEAD = re.compile(r"^\s*Thread\s+Time\(s\)\s+Throughput\s*$")
_WINDOWS_MARK = re.compile(
    r"^\s*(?:Copyright Version \d|Thread\s+Time\(s\)\s+Throughput\(KB/s\)"
    r"|Bytes\(MEG\)\s+realtime\(s\))"
)
# print_flags() (parameter.c) opens a -V run's settings with its role, before any INFO line.
_ROLE_FLAG = re.compile(r"^\*\*\* (sender|receiver) role\s*$")
_XML_ROOT = re.compile(r"<(ntttcp[sr])[\s>]")
_JSON_ROOT = re.compile(r'"(ntttcp[sr])"\s*:')
# The reader's hook: every line locate() opens at (searched, or matched from the line's
# start), and an XML document's root element (locate_xml).
OPENERS = (LINUX_BANNER, TOTALS, _WINDOWS_MARK, _ROOT_OPEN)


# ---------------------------------------------------------------------------------------------
# Detection and location.


def whole_file(head: str) -> bool:
    """XML and JSON outputs are whole files (the reader does not scan them line by line)."""
    text = head.lstrip("\ufeff \t\r\n")
    if text.startswith("<"):
        return bool(_XML_ROOT.search(text[:400]))
    if text.startswith("{"):
        return bool(_JSON_ROOT.search(text[:400]))
    return False


def _is_command(line: str) -> bool:
    return command_of(line, NAMES)[0] is not None


def _linux_line(line: str, prefixed: bool) -> bool:
    """Does ``line`` continue a Linux console output?  Once lines carry the ``INFO:`` prefix,
    an unprefixed ``key: value`` line is prose after the output, not part of it."""
    s = line.strip()
    if _PREFIX.match(line) or s.startswith("---") or TOTALS.search(s) or _REALTIME.match(s):
        return True
    if _ROLE_FLAG.match(s):
        return True
    if prefixed or s.startswith(("#", "$", "```", "~~~")):
        return False
    return bool(_KV.match(line) or _THREAD_ROW.match(line)) or s.startswith("=====")


def _command_above(lines: list[str], i: int, floor: int) -> int:
    """``i``, or the ntttcp command line above it."""
    return command_above(lines, i, floor, NAMES, reach=3)


def locate(lines: list[str]) -> list[Span]:
    """Linux console outputs open at ``NTTTCP for Linux`` (or, for a log without the banner,
    at ``#####  Totals:  #####``); Windows ones at ``Copyright Version`` or the first table
    header.  The command line directly above is included: the parser reads the role from it.
    XML documents pasted into notes are found by their root element."""
    spans: list[Span] = []
    i, n, floor = 0, len(lines), 0
    while i < n:
        line = lines[i]
        if _marks(LINUX_BANNER, line) or (_marks(TOTALS, line) and not _WINDOWS_AROUND(lines, i)):
            start = _command_above(lines, i, floor)
            end = _extend_linux(lines, i)
        elif _WINDOWS_MARK.match(line):
            start = _command_above(lines, i, floor)
            end = extend_windows(lines, i)
        else:
            i += 1
            continue
        spans.append(Span(start, end, TOOL))
        i = floor = max(end, i + 1)
    return spans + locate_xml(lines)


def _marks(pattern: re.Pattern[str], line: str) -> bool:
    """``pattern`` (the banner, the Totals marker) on ``line``, not quoted in prose."""
    m = pattern.search(line)
    return m is not None and not in_code_span(line, m.start())


def _WINDOWS_AROUND(lines: list[str], i: int) -> bool:  # noqa: N802 - reads as a predicate
    return any(_WINDOWS_MARK.match(x) for x in lines[i + 1 : i + 6])


def _extend_linux(lines: list[str], i: int) -> int:
    k, prefixed = i + 1, bool(_PREFIX.match(lines[i]))
    while k < len(lines):
        line = lines[k]
        if LINUX_BANNER.search(line) or _is_command(line):
            break
        if not line.strip():  # a blank line continues only if the output does after it
            nxt = next((j for j in range(k + 1, min(k + 3, len(lines))) if lines[j].strip()), None)
            if nxt is None or not _linux_line(lines[nxt], prefixed):
                break
        elif not _linux_line(line, prefixed) and not _stray_inside(lines, k, prefixed):
            break
        prefixed = prefixed or bool(_PREFIX.match(line))
        k += 1
    while k > i + 1 and not lines[k - 1].strip():
        k -= 1
    return k


def _stray_inside(lines: list[str], k: int, prefixed: bool) -> bool:
    """Is ``lines[k]`` a stray line inside the output (a kernel message, a shell's line): the
    output goes on within :data:`STRAY_LINES` lines, with no new run or Markdown between?
    The parser names it."""
    if re.match(r"\s*(?:```|~~~|#{1,6}\s)", lines[k]):
        return False
    for j in range(k + 1, min(k + 1 + STRAY_LINES, len(lines))):
        line = lines[j]
        if not line.strip():
            continue
        if LINUX_BANNER.search(line) or _is_command(line):
            return False
        if _linux_line(line, prefixed):
            return True
    return False


# ---------------------------------------------------------------------------------------------
# Parsing.


def parse(text: str, *, source: str | None = None, strict: bool = True) -> Parsed:
    head = text.lstrip("\ufeff \t\r\n")
    if head.startswith("<") or (_XML_ROOT.search(head[:2000]) and not TOTALS.search(text)):
        return Parsed(TOOL, [build_run(t, source) for t in parse_xml(text, source)])
    if head.startswith("{"):
        return Parsed(TOOL, [build_run(t, source) for t in parse_json(text, source, strict)])
    lines = text.split("\n")
    if any(_WINDOWS_MARK.match(x) for x in lines):
        return Parsed(TOOL, [build_run(t, source) for t in parse_windows(lines, source, strict)])
    if not any(LINUX_BANNER.search(x) or TOTALS.search(x) for x in lines):
        raise ParseError(
            TOOL,
            source,
            None,
            "no ntttcp output found (expected 'NTTTCP for Linux', '#####  Totals:  #####', "
            "an <ntttcps>/<ntttcpr> document or NTttcp.exe tables)",
        )
    return Parsed(TOOL, [build_run(t, source) for t in _parse_linux(lines, source, strict)])


def _split_linux(lines: list[str]) -> list[tuple[int, int]]:
    """(start, end) line indexes of each run: a new run opens at a command line or banner
    that follows a finished one (a Totals block seen)."""
    starts = [0]
    seen_totals = False
    for i, line in enumerate(lines):
        opener = LINUX_BANNER.search(line) or _is_command(line)
        if opener and seen_totals and i > starts[-1]:
            starts.append(i)
            seen_totals = False
        if TOTALS.search(line):
            seen_totals = True
    return list(zip(starts, starts[1:] + [len(lines)]))


# Two of ntttcp's lines run together where a line break was lost: a message's 'hh:mm:ss
# INFO:' right after another line's last letter ('...4 threads created10:02:09 INFO: 4
# connections created ...'), a level right after a line of dashes, the banner right after the
# command.  Read as one line, the second's fact (threads, version) was lost without a word.
_LEVEL = r"(?:INFO|WARN(?:ING)?|ERR(?:OR)?|DBG|DEBUG)\s?:"
_JOINED = re.compile(
    rf"(?<=[^\s\d:])(?=\d{{1,2}}:\d{{2}}:\d{{2}}\s+{_LEVEL})|(?<=-{{10}})(?={_LEVEL})"
    r"|(?<=\S)(?=NTTTCP for Linux\s)"
)


def _parse_linux(lines: list[str], source: str | None, strict: bool) -> list[Totals]:
    out = []
    for a, b in _split_linux(lines):
        block = _LinuxBlock(source, strict)
        for no in range(a, b):
            cuts = [m.start() for m in _JOINED.finditer(lines[no])]
            for piece in pieces(lines[no], cuts):
                block.feed(no + 1, piece)
            if cuts:
                block.t.warnings.append(run_together(no + 1, len(cuts) + 1, TOOL))
        if block.first is not None:
            out.append(block.finish())
    return out


# Totals keys of ntttcp-for-linux 1.4.0 (util.c print_test_results) -> handler name.
_LINUX_KEYS = {
    "test duration": "duration",
    "total bytes": "bytes",
    "throughput": "rate",
    "retrans segs": "retrans",
    "cpu cores": "cores",
    "cpu speed": "speed",
    "user": "cpu_user",
    "system": "cpu_system",
    "idle": "cpu_idle",
    "iowait": "cpu_iowait",
    "softirq": "cpu_softirq",
    "cycles/byte": "cycles_per_byte",
    "cpu busy (all)": "cpu_busy",
    "tcpi rtt": "tcp_rtt",  # -V TCP sender, after the closing line: '%u us'
}
# The Totals line util.c prints last (1.4.0 -V TCP senders add 'tcpi rtt' after it, then
# every build a line of dashes): since 1.3.2 'cpu busy (all)'; 1.3.1 and older builds end at
# 'cycles/byte'.
_CLOSING = "cpu busy (all)"
_CLOSING_OLD = "cycles/byte"
# Totals counts printed without a unit or fixed decimals: a cut inside one still reads as a
# number, so a cut-short run whose last line is one says so.
_UNITLESS = ("total bytes", "retrans segs", "cpu cores")
_INFO_FACTS = (
    (re.compile(r"^(\d+) threads created"), "threads"),
    (re.compile(r"^(\d+) connections created"), "created"),
    (re.compile(r"^(\d+) connections tested"), "connections"),
    (re.compile(r"^Test cycle time negotiated is: (\d+) seconds"), "cycle"),
)
_INFO_WHAT = {
    "threads": "'<n> threads created'",
    "created": "'<n> connections created'",
    "connections": "'<n> connections tested'",
    "cycle": "'Test cycle time negotiated is: <n> seconds'",
}


class _LinuxBlock:
    """One ntttcp-for-linux console run being read, line by line."""

    def __init__(self, source: str | None, strict: bool) -> None:
        self.source, self.strict = source, strict
        self.t = Totals(variant="console", os="linux")
        self.first: int | None = None
        self.in_totals = False
        self.in_threads = False
        self.command: str | None = None
        self.sender_lines = False
        self.flag_role: str | None = None  # '*** sender role' (-V)
        self.prefixed = False  # lines so far carry 'hh:mm:ss INFO:' (1.4)
        self.closed = False  # the Totals block's last line (or the dashes after it) read
        self.last_key: tuple[int, str] | None = None  # (line, key) of the last Totals line

    def fail(self, no: int, reason: str) -> None:
        if self.strict:
            raise ParseError(TOOL, self.source, no, reason)
        self.t.warnings.append(f"line {no} skipped: {reason}")

    def feed(self, no: int, raw: str) -> None:
        line = raw.rstrip()
        if not line.strip() or line.strip().startswith(("```", "~~~")):
            return
        if self._head(no, line):
            return
        p = _PREFIX.match(line)
        if p is None and self.prefixed and not line.strip().startswith("---"):
            # Every line of 1.4's output carries its time and level: this one is not ntttcp's.
            self.fail(
                no, f"expected an ntttcp line ('hh:mm:ss INFO: ...'), got {line.strip()[:80]!r}"
            )
            return
        self.prefixed = self.prefixed or p is not None
        msg = line[p.end() :] if p else line.strip()
        flag = _ROLE_FLAG.match(msg.strip()) if p is None else None
        if flag:
            self._seen(no)
            self.flag_role = flag.group(1)
            return
        if p is None and not self._unprefixed_own(msg):
            self.fail(no, f"expected an ntttcp line, got {line.strip()[:80]!r}")
            return
        if not msg.strip() or msg.strip().startswith("---"):
            # util.c prints a dashes line after the Totals block: the run's end.
            self.closed = self.closed or (self.in_totals and msg.strip().startswith("---"))
            return
        self._seen(no)
        self._message(no, p, msg)

    def _head(self, no: int, line: str) -> bool:
        """The command line, the version banner or a progress line: whether ``line`` is one."""
        cmd = command_of(line, NAMES)[0]
        if cmd is not None:
            self._seen(no)
            try:
                command_meta(cmd, self.source, no)  # finish() reads it again: check it here
            except ParseError as exc:
                self.fail(no, exc.reason)
                return True
            self.command = cmd
            return True
        m = LINUX_BANNER.search(line)
        if m:
            self.t.version = m.group(1)
            self._seen(no)
            return True
        if _REALTIME.match(line):
            self._seen(no)  # ntttcp's own progress line: its figures are the Totals'
            return True
        return False

    def _message(self, no: int, p: re.Match | None, msg: str) -> None:
        """A message of ntttcp's (``p``: its 'hh:mm:ss LEVEL:' prefix, if any)."""
        level = p.group(1)[:3] if p else None
        if level == "DBG":
            return  # -V's debug lines (connections, sockets, limits): no figure of the run
        if self.in_threads and not (msg.strip().startswith("=") or _THREAD_ROW.match(msg)):
            if _THREAD_LIKE.match(msg):  # a row of the table, its time or rate no number
                self.fail(no, f"expected 'thread  seconds  rate', got {msg.strip()!r}")
                return
            self.in_threads = False  # the table ends at the first line that is not a row
        if level == "ERR" or level == "WAR":
            self.t.warnings.append(f"line {no}: ntttcp {p.group(1)}: {msg.strip()}")
        elif TOTALS.search(msg):
            self.in_totals, self.in_threads = True, False
        elif _THREAD_HEAD.match(msg):
            self.in_threads = True
        elif self.in_threads and (msg.strip().startswith("=") or _THREAD_ROW.match(msg)):
            self._thread(no, msg)
        elif self.in_totals:
            self._total(no, msg)
        else:
            self._info(no, msg)

    def _unprefixed_own(self, msg: str) -> bool:
        """A line without a level that ntttcp prints: print_flags' ``key: value`` settings and
        ``*** ...`` flags, Totals and thread-table lines of -O logs, dashes and ``=====``."""
        s = msg.strip()
        return bool(
            not s
            or s.startswith(("---", "=", "*** "))
            or _KV.match(msg)
            or _THREAD_ROW.match(msg)
            or _THREAD_HEAD.match(msg)
            or TOTALS.search(s)
        )

    def _seen(self, no: int) -> None:
        if self.first is None:
            self.first = no
        self.t.line_end = no

    def _int(self, no: int, value, what: str, text: str) -> int | None:
        """``value`` (read from line ``no`` as ``text``) as an int64; None when it is out of
        range and the line was skipped (lenient)."""
        try:
            return int64(value, tool=TOOL, source=self.source, line_no=no, what=what, text=text)
        except ParseError as exc:
            self.fail(no, exc.reason)
            return None

    def _info(self, no: int, msg: str) -> None:
        s = msg.strip()
        if s.startswith("receiver exited"):
            self.sender_lines = True  # only the sender reports its receiver leaving
        for pattern, name in _INFO_FACTS:
            m = pattern.match(s)
            if m:
                value = self._int(no, int(m.group(1)), _INFO_WHAT[name], m.group(1))
                if value is None:
                    return
                if name == "threads":
                    self.t.threads = value
                elif name == "connections":
                    self.t.connections, self.sender_lines = value, True
                elif name == "created" and self.t.connections is None:
                    self.t.connections = value
                elif name == "cycle":
                    self.t.labels["test_cycle_s"] = value

    def _thread(self, no: int, msg: str) -> None:
        m = _THREAD_ROW.match(msg)
        if not m:
            return  # the ====== underline
        seq = self._int(no, int(m.group(1)), "a thread number", m.group(1))
        if seq is None:
            return
        bps = rate_bps(m.group(3).replace(" ", ""))
        self.t.thread_rows.append(
            {
                "seq": seq,
                "kind": "thread",
                "status": "ok",
                "stream": m.group(1),
                "start_s": 0.0,
                "end_s": float(m.group(2)),
                "bits_per_second": bps,
            }
        )

    def _total(self, no: int, msg: str) -> None:
        m = _KV.match(msg)
        key = re.sub(r"\s+", " ", m.group(1)).strip().lower() if m else None
        if key not in _LINUX_KEYS:
            self.t.warnings.append(f"line {no}: unrecognised Totals line {msg.strip()[:60]!r}")
            return
        self.last_key = (no, key)
        name, value = _LINUX_KEYS[key], m.group(2).strip()
        parsed = _linux_value(name, value)
        if parsed is None:
            self.fail(no, f"expected a number for {key!r}, got {value!r}")
            return
        t = self.t
        if name in ("bytes", "retrans", "cores"):
            parsed = self._int(no, parsed, f"a count for {key!r}", value)
            if parsed is None:
                return
        if key == _CLOSING or (key == _CLOSING_OLD and _before_1_3_2(t.version)):
            self.closed = True
        if name == "duration":
            t.duration_s = float(parsed)
        elif name == "bytes":
            t.total_bytes = parsed
        elif name == "rate":
            t.bits_per_second = float(parsed)
        elif name == "retrans":
            # Not a sender's line only: receivers print it too since util.c bceb216 (2020,
            # before 1.4.0; a 1.4.3 receiver capture shows 'retrans segs :0').
            t.retransmits = parsed
        elif name == "cores":
            t.labels["cpu_cores"] = parsed
        elif name == "tcp_rtt":
            t.tcp_rtt_us = float(parsed)
        elif name == "speed":
            t.labels["cpu_speed_mhz"] = float(parsed)
        else:
            t.cpu[name] = float(parsed)

    def finish(self) -> Totals:
        t = self.t
        t.line_start = self.first or 1
        if t.thread_rows:
            # A receiver's 'N threads created' counts its sync thread too (ntttcp.c: ports + 1
            # unless -N); the -V table lists the data threads only, as the XML does.
            t.threads = len(t.thread_rows)
        cmd = command_meta(self.command)
        t.role = cmd.pop("role", None) or self.flag_role
        if t.role is None and self.in_totals:
            # util.c prints 'N connections tested' only on the sender.
            t.role = "sender" if self.sender_lines else "receiver"
        t.meta.update(cmd)
        if not self.in_totals:
            t.complete = False
            t.warnings.append(
                "no '#####  Totals:  #####' block: the run did not finish or the log was cut"
            )
        elif not self.closed:
            t.complete = False
            what = _CLOSING_OLD if _before_1_3_2(t.version) else _CLOSING
            note = ""
            if self.last_key in ((t.line_end, k) for k in _UNITLESS):
                no, key = self.last_key
                note = f"; the {key!r} value on line {no} may be cut too"
            t.warnings.append(
                f"cut short? no {what!r} line after line {t.line_end}: the Totals block is "
                f"incomplete{note}"
            )
        return t


def _before_1_3_2(version: str | None) -> bool:
    """Is ``version`` older than 1.3.2, whose Totals end at 'cycles/byte'?  (Unknown: no.)"""
    m = re.match(r"(\d+)\.(\d+)(?:\.(\d+))?", version or "")
    if not m:
        return False
    return tuple(int(x or 0) for x in m.groups()) < (1, 3, 2)


def _linux_value(name: str, value: str) -> Decimal | float | None:
    if name == "rate":
        return rate_bps(value)
    if name == "cycles_per_byte":
        # util.c prints '%.2f' and no unit: '1.6' is '1.69' cut short, not a reading.
        m = re.fullmatch(r"[0-9]+\.[0-9]{2}", value)
        return dec(value) if m else None
    suffix = {
        "duration": r"\s*seconds?",
        "speed": r"\s*MHz",
        "tcp_rtt": r"\s*us",
        "bytes": "",
        "retrans": "",
        "cores": "",
    }.get(name, r"\s*%")
    m = re.fullmatch(r"([0-9]+(?:\.[0-9]+)?)" + suffix, value)
    return dec(m.group(1)) if m else None
