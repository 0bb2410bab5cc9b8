"""sockperf's line grammar: the shapes of its lines, where one execution starts and ends in a
document, and its command line.  Private to :mod:`azlatency.parsers.sockperf`; shapes checked
against the format strings of sockperf 3.7 (``strings /usr/bin/sockperf``) and real 3.5-3.8
output (see ``docs/tools/sockperf.md``).
"""

from __future__ import annotations

import re
import shlex

from .._lines import plain_typography

TOOL = "sockperf"
DASH = "-" * 30

# --- line shapes ------------------------------------------------------------------------------
PROMPT = r"(?:\[[\w.-]+@[\w.-]+(?: [^\]]*)?\]\s*[#$%]\s*|[\w.-]+@[\w.-]+(?::[^\s#$]*)?\s*[#$%]\s*|(?:PS\s+)?[A-Za-z]:\\[^>]*>\s*|[$#>]\s*)?"
MODES = r"ping-pong|pp|under-load|ul|throughput|tp|playback|pb|server|sr"
# ``$VMA_SPEC=latency LD_PRELOAD=libvma.so sockperf server ...`` (sockperf 3.5 docs): the prompt
# may touch the command, and environment assignments may precede it.
CMD = re.compile(
    rf"^\s*`?{PROMPT}(?P<cmd>(?:[A-Za-z_]\w*=\S*\s+)*(?:sudo\s+(?:-\S+\s+)*)?"
    rf"(?:\S*/)?sockperf(?:\.exe)?(?:\s+(?:{MODES}|-\S+)(?:\s.*)?)?)`?\s*$"
)
SP = re.compile(r"^\s*sockperf\s*(?:\[\w+\]\s*)?:|^\s*sockperf\[")
# Two of sockperf's lines run together where a line break was lost: the second one's
# 'sockperf: ' right after the first one's last character ("...=   10.161sockperf: --->").
# Not after a colon: sockperf itself prints "sockperf[CLIENT] send on:" with no line break
# before its next message.
JOINED = re.compile(r"(?<=[^\s:])(?=sockperf: )")
# A command in Markdown emphasis ('_sockperf ping-pong -i 10.0.0.4 --tcp_', '**...**'), or
# opened and never closed (sockperf issue 172's '_sockperf ping-pong ... --full-rtt').
EMPHASIS = re.compile(r"^\s*(?P<e>\*\*|__|\*|_)(?P<body>\S.*?)(?P=e)?\s*$")
VERSION = re.compile(r"sockperf:\s*==\s*version\s*#(?P<raw>\S+)\s*==")
BANNER = re.compile(r"^\s*(?:VMA|XLIO)\s+(?:INFO|WARNING|DETAILS|DEBUG|ERROR|PANIC)\s*:")
IP = re.compile(
    r"(?:\[\s*(?P<idx>\d+)\]\s*)?IP\s*=\s*(?P<ip>\S+)\s+PORT\s*=\s*(?P<port>\d+)"
    r"\s*#\s*(?P<proto>TCP|UDP)"
)
IP_LINE = re.compile(r"^\s*(?:\[\s*\d+\]\s*)?IP\s*=\s*\S+\s+PORT\s*=")
# after the dashes above it when a lost line break ran them together (the dashes say nothing)
PARAMS = re.compile(
    r"^\s*(?:-{30})?test was performed using the following parameters:(?P<args>.*)$"
)
# "packet, txTime(sec), rxTime(sec), latency(usec)" (3.4+, client.cpp); "txTime, rxTime" before
# (2.x-3.3: Client.cpp dumpFullLog, "%.9lf, %.9lf" rows, a lost reply's rxTime 0).
CSV_HEAD = re.compile(
    r"^\s*(?:(?P<packet>packet)\s*,\s*)?txTime(?:\(sec\))?\s*,\s*rxTime(?:\(sec\))?"
    r"(?:\s*,\s*(?P<col>latency|rtt)(?:\(usec\))?)?\s*$"
)
CSV_ROW = re.compile(r"^\s*\d+(?:\.\d*)?\s*(?:,|$)")  # a cut file may end in "76"
# --histogram in the full log, after the rows (client.cpp storeHistogram, 3.9+): a parameter
# line, dashes, "bin (usec)  frequency", one row per non-empty bin ("5   87"; outlier bins
# "3-0   2" and "100-153   1"), dashes.
HIST_HEAD = re.compile(
    r"^\s*histogram was built using the following parameters:\s*--h_bin_size_us=(?P<bin>\d+)"
    r"\s+--h_lower_range_us=(?P<lo>\d+)\s+--h_upper_range_us=(?P<hi>\d+)\s*$"
)
HIST_COLS = re.compile(r"^\s*bin \(usec\)\s+frequency\s*$")
HIST_ROW = re.compile(r"^\s*(?P<a>\d+)(?:-(?P<b>\d+))?\s+(?P<n>\d+)\s*$")

# --- output lines (searched, so two messages on one line are both seen) ------------------------
TOTAL = re.compile(
    r"\[Total Run\]\s*RunTime=(?P<rt>\S+)\s*sec;(?:\s*Warm up time=(?P<wu>\S+)\s*msec;)?"
    r"\s*SentMessages=(?P<sent>\S+?);\s*ReceivedMessages=(?P<recv>\S+?)"
    r"(?:;\s*SkippedMessages=(?P<skip>\S+?))?\s*$"
)
SERVER_NO = re.compile(r"Printing statistics for Server No:\s*(?P<no>\d+)")
VALID = re.compile(
    r"\[Valid Duration\]\s*RunTime=(?P<rt>\S+)\s*sec;\s*SentMessages=(?P<sent>\S+?);"
    r"\s*ReceivedMessages=(?P<recv>\S+?)\s*$"
)
# ``avg-lat=`` up to 3.5, ``avg-latency=``/``avg-rtt=`` from 3.6; 3.8 adds mean-ad ... ci.
AVG = re.compile(
    r"====>\s*avg-(?P<label>latency|lat|rtt)\s*=\s*(?P<mean>[^\s(]+)\s*\((?P<rest>.*)\)"
)
KV = re.compile(r"(?P<key>std-dev|mean-ad|median-ad|siqr|cv|std-error)\s*=\s*(?P<val>[^,\s)]+)")
CI = re.compile(r"(?P<lvl>[\d.]+)%\s*ci\s*=\s*\[(?P<lo>[^,\]]+),\s*(?P<hi>[^\]]+)\]")
DROPPED = re.compile(
    r"# dropped messages = (?P<d>\S+?); # duplicated messages = (?P<dup>\S+?);"
    r" # out-of-order messages = (?P<ooo>\d+)"
)
SUMMARY = re.compile(
    r"Summary:\s*(?P<what>Latency|Round trip)(?:\s+of burst of \d+ messages)?\s+is\s+(?P<v>\S+)\s*usec"
)
OBS = re.compile(r"Total\s+(?P<n>\S+)\s+observations")
# '<MAX>'; 'MAX' where a Markdown page took '<MAX>' for a tag and dropped it
EXTREME = re.compile(r"--->\s*<?(?P<which>MAX|MIN)>?\s*observation\s*=\s*(?P<v>.*?)\s*$")
PCT = re.compile(r"--->\s*percentile\s+(?P<q>\S+)\s*=\s*(?P<v>.*?)\s*$")
END = re.compile(r"Test end \(interrupted by (?P<why>timer|user|signal \d+)\)")
ERROR = re.compile(r"sockperf:\s*ERROR:\s*(?P<msg>.*?)\s*$")
NOTE_LINE = re.compile(r"sockperf:\s*(?P<msg>(?:Info|Warning|WARNING|NOTE)\b.*?)\s*$")
TP_SENT = re.compile(
    r"Total of (?P<n>\d+) messages sent in (?P<s>\S+) sec(?: \((?P<skip>\d+) messages skipped\))?"
)
TP_SIZE = re.compile(r"NOTE:.*?using (?:average )?msg-size=(?P<m>\d+)(?:,\s*mps=(?P<mps>\w+))?")
TP_RATE = re.compile(
    r"Message Rate is (?P<r>\d+) \[msg/sec\](?:, Packet Rate is about (?P<p>\d+) \[pkt/sec\])?"
)
# sockperf's MBps/Mbps are binary: MBps = bytes / 2**20 and Mbps = 8 * MBps (checked against
# 3.7: 68773 msg/s x 1400 B x 8 / 2**20 = 734.58 "Mbps").
TP_BW = re.compile(r"BandWidth is (?P<B>\S+) (?P<u>[MG])Bps \((?P<b>\S+) [MG]bps\)")
# --histogram on the console (client.cpp printHistogram, 3.10): a title, a 'bins frequency'
# header, a row per non-empty bin ("5-10  ###"; outlier bins "3-5  # (outliers)").  At
# "Display to scale" a '#' is one observation; scaled, '#' = up to <unit> (rounded up).
HIST_SHOWN = re.compile(
    r"\[Histogram\] Display (?:to scale|scaled to fit on screen \(Key: '#' = up to "
    r"(?P<unit>\d+) samples\))"
)
# its header ('bar' empty) or a bar
HIST_BAR = re.compile(
    r"^\s*sockperf:\s+(?:bins(?:\s+frequency)?|\d+-\d+\s*(?P<bar>#*)\s*(?:\(outliers\))?)\s*$"
)
SRV_TOTAL = re.compile(r"Total (?P<n>\d+) messages received and handled")
# Lines around a command in a document that are context, not output: a Markdown fence, a
# heading, a shell comment (``# host``, ``# client``) inside a fenced block of commands.
CONTEXT = re.compile(r"^\s*(?:```|~~~|#{1,6}(?:\s|$))")
MODE_NAMES = {
    "pp": "ping-pong",
    "ul": "under-load",
    "tp": "throughput",
    "pb": "playback",
    "sr": "server",
}
CHATTER = re.compile(
    r"Warmup stage|Starting test|Test ended|using \w+\(\) to block|listen on:|send on:"
    r"|cleanupAfterLoop|each percentile contains|\[tid \d+\]"
)


# ---------------------------------------------------------------------------------------------
# Finding executions in a document


def line_kind(line: str, in_csv: bool) -> str:
    if not line.strip():
        return "blank"
    if in_csv and (CSV_ROW.match(line) or HIST_ROW.match(line)):
        return "row"
    if HIST_HEAD.match(line) or HIST_COLS.match(line):
        return "hist"
    if SP.match(line):
        return "version" if VERSION.search(line) else "sp"
    if IP_LINE.match(line):
        return "ip"
    if BANNER.match(line):
        return "banner"
    if line.strip() == DASH:
        return "dash"
    if PARAMS.match(line):
        return "params"
    if CSV_HEAD.match(line):
        return "csvhead"
    if command_in(line) is not None or joined_command(line) is not None:
        return "cmd"
    return "other"


def command_in(line: str) -> str | None:
    """The sockperf command ``line`` holds, as typed or in Markdown emphasis; else None."""
    m = CMD.match(line)
    if m is None and (e := EMPHASIS.match(line)) is not None:
        m = CMD.match(e["body"])
    return plain_typography(m["cmd"].strip()) if m is not None else None


def joined_command(line: str) -> int | None:
    """Where the output's first line starts in ``line`` when a lost line break ran it into
    the command above it: sockperf's ('$ sockperf pp -i 10.0.0.4 --tcpsockperf: == version
    #3.7 ==', '_sockperf pp ..._sockperf: ...') or a library's banner ('... -p 5001 VMA
    INFO: ---'); else None.  A cut inside quotes is no cut (a command may grep for
    'sockperf: ...')."""
    if SP.match(line):
        return None
    cuts = [m.start() for m in JOINED.finditer(line)] if "sockperf: " in line else []
    if "VMA" in line or "XLIO" in line:
        cuts = sorted(cuts + [m.start() for m in _BANNER_IN.finditer(line)])
    for cut in cuts:
        head = line[:cut]
        if head.count('"') % 2 == 0 and head.count("'") % 2 == 0:
            return cut if command_in(head) is not None else None
    return None


# where a library's banner line (BANNER) starts after another line's last character
_BANNER_IN = re.compile(rf"(?<=\S)(?={BANNER.pattern.removeprefix('^')})")


# Lines that are not sockperf's (a kernel message, a shell's) looked past inside an execution.
STRAY_LINES = 3


def _resumes(lines: list[str], i: int, in_csv: bool, total: bool, body: bool) -> bool:
    """Does the execution go on after the stray line ``lines[i]``: within
    :data:`STRAY_LINES` lines comes one of its own that does not open the next execution
    (before any output, a banner or the version line goes on from the command above)."""
    seen = 0
    for j in range(i + 1, len(lines)):
        k = line_kind(lines[j], in_csv)
        if k == "blank":
            continue
        if k != "other":
            nxt = next((x for x in lines[j + 1 : j + 3] if x.strip()), "")
            opens = (
                k in ("cmd", "banner", "version", "params")
                or (k == "dash" and bool(PARAMS.match(nxt)))
                or (k == "sp" and total and "[Total Run]" in lines[j])
            )
            return not opens or not body
        seen += 1
        if seen >= STRAY_LINES:
            return False
    return False


def _context_between(lines: list[str], a: int, b: int) -> bool:
    """Only context lines (fences, headings, comments; at least one) between two lines, and
    at most :data:`STRAY_LINES` stray lines, which the parser names."""
    between = [x for x in lines[a + 1 : b] if x.strip()]
    strays = [x for x in between if not CONTEXT.match(x)]
    return (
        any(CONTEXT.match(x) for x in between)
        and len(strays) <= STRAY_LINES
        and all(line_kind(x, False) == "other" for x in strays)
    )


def _banner_opens(lines: list[str], i: int) -> bool:
    """Is the library banner at ``lines[i]`` the head of the next execution: a command, a
    version line or a full log's parameters follow it (past more banner lines)?"""
    for j in range(i + 1, min(len(lines), i + 200)):
        k = line_kind(lines[j], False)
        if k not in ("blank", "banner"):
            return k in ("cmd", "version", "params")
    return False


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
        k = line_kind(line, in_csv)
        if k == "blank":
            blanks += 1
            if start is not None and blanks > 2:
                close()
                start, in_csv = None, False
            continue
        blanks = 0
        if k == "other" and start is not None and _resumes(lines, i, in_csv, total, body):
            continue  # a stray line inside the execution: the parser names it
        if k == "other" or (
            k == "cmd"
            and start is not None
            and not body
            and last == i - 1
            and line_kind(lines[last], False) == "cmd"
        ):
            close()
            start, in_csv = None, False
            if k == "other":
                continue
        nxt = next((x for x in lines[i + 1 : i + 3] if x.strip()), "")
        header = k in ("cmd", "version", "params") or (k == "dash" and bool(PARAMS.match(nxt)))
        # An LD_PRELOAD library (libvma, libxlio) prints its banner before sockperf's version
        # line, and its warnings while sockperf runs: only the first open an execution.
        header = header or (k == "banner" and (not body or _banner_opens(lines, i)))
        is_total = k == "sp" and "[Total Run]" in line
        # Commands in one fenced block, or fences apart (the client's and a server started
        # beside it), are one head: the parser takes the command its output belongs to.
        head = k == "cmd" and start is not None and not body and _context_between(lines, last, i)
        if (
            start is not None
            and not head
            and ((header and body) or k == "cmd" or (is_total and total))
        ):
            close()
            start = None
        if start is None:
            if k in ("row", "dash") and not header:
                continue
            start, body, total, real, in_csv = i, False, False, False, False
            if k == "csvhead" and i > 0 and lines[i - 1].strip() == DASH:
                start = i - 1  # the dashes that make a bare CSV sockperf's belong to it
        last = i
        body = body or not header
        total = total or is_total
        # sockperf writes its dashes right above the CSV header; a bare CSV with the same
        # header is not claimed (it could be anyone's).
        csv_real = k == "csvhead" and i > 0 and lines[i - 1].strip() == DASH
        real = real or k in ("sp", "version") or csv_real
        if k == "csvhead" or (k == "hist" and HIST_COLS.match(line)):
            in_csv = True
        elif k == "dash":
            in_csv = False
    close()
    return out


# ---------------------------------------------------------------------------------------------
# Command line


VALUE_OPTS = {
    "-i",
    "--ip",
    "--addr",
    "-p",
    "--port",
    "-m",
    "--msg-size",
    "-t",
    "--time",
    "--mps",
    "--pps",
    "-b",
    "--burst",
    "--reply-every",
    "--full-log",
    "-f",
    "--file",
    "-F",
    "--iomux-type",
    "-r",
    "--range",
    "--srv-num",
    "--playback",
    "--ci_sig_level",
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
    if rest and re.fullmatch(MODES, rest[0]):
        mode = MODE_NAMES.get(rest[0], rest[0])
        rest = rest[1:]
    opts: dict[str, str] = {}
    k = 0
    while k < len(rest):
        tok = rest[k]
        if tok.startswith("--") and "=" in tok:
            key, _, val = tok.partition("=")
            opts[key] = val
        elif tok in VALUE_OPTS and k + 1 < len(rest):
            opts[tok] = rest[k + 1]
            k += 1
        elif re.fullmatch(r"-[impt]\d\S*", tok):  # ``-m1400``
            opts[tok[:2]] = tok[2:]
        elif tok.startswith("-"):
            opts[tok] = ""
        k += 1
    return mode, opts
