"""The lines iperf3 prints (3.0 to 3.18), as patterns, and the small facts read off them.

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
"""

from __future__ import annotations

import re

from ...errors import NothingMeasured
from .model import TOOL

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
# iperf_locale.c report_{sender,receiver}_not_available_format: a -V server's placeholder for
# the half of the test it did not measure (3.6 and later).
NOT_AVAILABLE = re.compile(rf"^{_ID}\s+\((?P<side>sender|receiver) statistics not available\)$")
SERVER_OUTPUT = re.compile(r"^Server (?:JSON )?output:\s*$")
JITTER = re.compile(r"^(?P<jit>\S+) ms\s+(?P<lost>-?\d+)/\s*(?P<total>\d+)\s+\((?P<pct>[^)%]*)%\)$")
# iperf_locale.c report_outoforder / report_sum_outoforder (UDP receiver, after the summary).
OUT_OF_ORDER = re.compile(
    rf"^{_ID}\s+\S+\s*-\s*\S+\s+sec\s+(?P<n>\S+) datagrams received out-of-order"
)
# -d (debug) lines of iperf 3.12-3.18 (printf under test->debug in iperf_api.c, iperf_tcp.c,
# iperf_udp.c, iperf_client_api.c, tcp_info.c): skipped with one warning per test.
DEBUG = re.compile(
    r"^(?:sent \d+ bytes of \d+, (?:pending \d+, )?total \d+$|SNDBUF is \d+, expecting \d+$|"
    r"RCVBUF is \d+, expecting \d+$|Setting (?:application|fair-queue socket) pacing to \d+$|"
    r"Congestion algorithm is \S+$|tcpi_snd_cwnd \d+ tcpi_snd_mss \d+ tcpi_rtt \d+$|"
    r"interval_len [\d.]+ bytes_transferred \d+$|interval forces keep$|"
    r"ignoring short interval with no data$|Late receive, state = -?\d+$|"
    r"State change: State set to |Sending Connect message to Socket \d+$|"
    r"Connect received for Socket \d+, |pcount \d+ packet_count \d+$|"
    r"End condition set to file-size: \d+ bytes$|"
    r"Interval \d+ - throughput \d+ bps \(limit \d+\)$)"
)
# -d: "send_results" and the like, then the JSON exchanged (cJSON_Print: "{" ... "}").
DEBUG_BLOCK = re.compile(r"^(?:send_parameters:|get_parameters:|send_results|get_results)$")
# The JSON -d prints after those (cJSON_Print): a line opens with a brace, a bracket or tabs;
# with spaces before a key or a brace where a copy expanded the tabs (a terminal, a page), a
# key where it took them off.  No line of iperf3's text opens with a quote.
DEBUG_JSON = re.compile(r'^(?:[{}\]"]|\t| +["{}\[\]])')
# iperf 2 (the `iperf` package): another tool, whose output looks like iperf3's in places.
IPERF2 = re.compile(
    r"^(?:Client connecting to \S+, (?:TCP|UDP|SCTP) port \d+|"
    r"Server listening on (?:TCP|UDP|SCTP) port \d+|"
    r"\[\s*(?:\d+|SUM)\] local \S+ port \d+ connected with \S+ port \d+|"
    r"\[\s*\d+\] Server Report:|Sending \d+ byte datagrams, IPG target)"
)
# Words one of which each IPERF2 line holds: a text with none of them (``in``, a fast scan)
# has no such line.
IPERF2_WORDS = (
    "Client connecting to ",
    "Server listening on TCP port ",
    "Server listening on UDP port ",
    "Server listening on SCTP port ",
    " connected with ",
    "] Server Report:",
    " byte datagrams, IPG target",
)
COUNT_CWND = re.compile(r"^(?P<n>-?\d+)(?:\s+(?P<cwnd>\S+)\s+(?P<cunit>[KMGT]?Bytes))?$")
# Any line iperf3 prints, once the timestamp is off: used by the locator and the shape finder.
ANCHOR = re.compile(
    r"\[\s*(?:\d+|SUM|ID)\s*\]|Connecting to host |Reverse mode, |(?:- ){8}|iperf Done|"
    r"Server listening on |Accepted connection from |-{20}|iperf3: |Server (?:JSON )?output:|"
    r"Test Complete|CPU Utilization|Starting Test: |Time: |iperf 3\."
)


def timestamp_shape(lines: list[str]) -> re.Pattern[str] | None:
    """The ``--timestamps`` prefix of this output as a pattern, learnt from the first line
    with a date-like text (digits and ``:``) before an iperf3 line whose shape half the lines
    (of the first 200 not blank) open with: iperf3 stamps every line, a foreign line only
    itself.  The format is any strftime string (``%c`` by default, ``'%Y-%m-%d %H:%M:%S '``
    in the zeandon log), so it is learnt rather than listed: digit runs become ``\\d+``,
    letter runs ``[^\\W\\d_]+``, spaces `` +``."""
    filled = [x for x in lines[:200] if x.strip()]
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
            parts.append(
                r"\d+"
                if t.isdigit()
                else " +"
                if t.isspace()
                else r"[^\W\d_]+"
                if t.isalpha()
                else re.escape(t)
            )
        shape = re.compile("^" + "".join(parts))
        # not a foreign line's ('Nov 28 08:00:01 vm1 systemd[1]: ...', its '[1]' an anchor)
        if 2 * sum(bool(shape.match(x)) for x in filled) >= len(filled):
            return shape
    return None


def strip_timestamps(lines: list[str], shape: re.Pattern[str] | None) -> list[str]:
    """``lines`` without the ``--timestamps`` prefix of ``shape``: the one a line opens with,
    and one after another line's last character where a lost line break ran two lines
    together ('... is sending2026-11-21 00:47:10 [  5] local ...'), so that the reader cuts
    the line before the second ('[  5]') as it would without timestamps."""
    if shape is None:
        return lines
    inner = re.compile(rf"(?<=\S)(?:{shape.pattern.removeprefix('^')})(?=\[|[A-Z])")
    # the stamp of an empty line, its trailing space taken off by a copy (an editor's trim)
    alone = re.compile(shape.pattern.removesuffix(" +") + r"\s*$")
    out = []
    for line in lines:
        m = shape.match(line)
        rest = line[m.end() :] if m else "" if alone.match(line) else line
        out.append(inner.sub("", rest) if m else rest)
    return out


# ---------------------------------------------------------------------------------------------
# command line


def command_flags(command: str) -> dict[str, str | bool]:
    """The iperf3 options that change how the output reads (``$ip``-style values are kept as
    text and ignored where an address is expected)."""
    tokens = command.split()
    flags: dict[str, str | bool] = {}
    names = {
        "-c": "client",
        "--client": "client",
        "-s": "server",
        "--server": "server",
        "-R": "reverse",
        "--reverse": "reverse",
        "--bidir": "bidir",
        "-u": "udp",
        "--udp": "udp",
        "-P": "parallel",
        "--parallel": "parallel",
        "-t": "time",
        "--time": "time",
        "-O": "omit",
        "--omit": "omit",
        "-p": "port",
        "--port": "port",
        "-J": "json",
        "--json": "json",
    }
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


# Flags read as numbers; the text reader checks them against int64 at the command's line.
INT_FLAGS = ("parallel", "omit", "port")


def int_flag(flags: dict[str, str | bool], name: str) -> int | None:
    value = flags.get(name)
    return int(value) if isinstance(value, str) and value.isdecimal() else None


HINTS = {
    "unable to connect": "nothing accepted the connection: is `iperf3 -s` running on that "
    "host and port, and does a firewall let it through?",
    "server is busy": "another client was testing: iperf3 -s serves one test at a time",
    "unable to receive": "the connection broke during the test",
    "control socket has closed": "the other end went away during the test",
}


def error_only(messages: list[str], source: str | None, line_no: int) -> NothingMeasured:
    """An output with iperf3's error and no measurement: the import report must list it."""
    msg = messages[0]
    hint = next((h for k, h in HINTS.items() if k in msg), None)
    return NothingMeasured(
        TOOL, source, line_no, f"iperf3 reported an error and measured nothing: {msg!r}", hint=hint
    )


_LABEL = re.compile(r"\b(sender|receiver)\s*$")


def label_of(rest: str) -> str | None:
    if "sender" not in rest and "receiver" not in rest:  # an interval line: no search
        return None
    m = _LABEL.search(rest)
    return m.group(1) if m else None


def tag_side(tag: str | None) -> str | None:
    if not tag:
        return None
    return "sender" if tag.startswith("TX") else "receiver"


def is_ip(host: str) -> bool:
    return bool(re.fullmatch(r"\d{1,3}(?:\.\d{1,3}){3}", host)) or (
        ":" in host and re.fullmatch(r"[\da-fA-F:.]+", host) is not None
    )
