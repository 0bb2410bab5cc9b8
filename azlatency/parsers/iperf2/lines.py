"""The lines iperf 2 prints (2.0.5 to 2.2.x), as patterns, and the columns after the rate.

Shapes from our captures (``tests/fixtures/iperf2/SOURCES.md``) and iperf 2's
``src/Locale.c`` (2.0.5, 2.0.13, 2.2.1):

* a client output opens with a dashed frame around ``Client connecting to H, TCP port P``
  and its settings; a server log with ``Server listening on TCP port P``; each connection
  prints ``[  1] local A port p connected with B port q`` and, from 2.1, the facts in
  brackets after it (``(trip-times)``, ``(peer 2.1.8)``, ``(icwnd/mss/irtt=14/1448/39)``,
  ``(ct=0.07 ms)``, ``on 2026-11-25 16:20:36 (UTC)``);
* interval lines ``[  3]  0.0- 1.0 sec   142 MBytes  1.19 Gbits/sec`` (2.0.5: one decimal),
  ``[  1] 0.0000-1.0000 sec ...`` (2.1: four), ``[  1] 0.00-1.00 sec ...`` (2.0.10+ with
  ``-e``, 2.2), with ``[SUM]`` / ``[SUM-2]`` lines for ``-P``; the test's total is the line
  that starts at 0 again, iperf 2 labels nothing;
* ``-e`` adds columns after the rate whose layout the ``[ ID] Interval`` header names and
  which differ by version, by side and by protocol (:data:`FIELDS`); some hold spaces
  (``0.008/ 0.002/ 0.048/ 0.003 ms``, ``892/0(0) pkts``, ``3.19 MByte``).
"""

from __future__ import annotations

import re

TOOL = "iperf2"

# Transfer and rate units: ``_lines``' iperf units.  A window or buffer size (``3.19 MByte``):
SIZE_UNITS = {"Byte": 1, "KByte": 2**10, "MByte": 2**20, "GByte": 2**30}

_ID = r"\[\s*(?P<id>\*?\d+|SUM(?:-\d+)?|FD\d+)\]"
# (a decimal comma, which iperf 2 never prints, is matched so that the line is named, not lost)
_TIMES = r"\s*(?P<start>\d+(?:[.,]\d+)?)\s*-\s*(?P<end>\d+(?:[.,]\d+)?)\s+sec"
DASHES = re.compile(r"^-{20,}\s*$")
CLIENT = re.compile(
    r"^Client connecting to (?P<host>[^\s,]+), (?P<proto>TCP|UDP|SCTP) port (?P<port>\d+)"
    r"(?P<rest>.*)$"
)
SERVER = re.compile(r"^Server listening on (?P<proto>TCP|UDP|SCTP) port (?P<port>\d+)(?P<rest>.*)$")
CONNECTED = re.compile(
    rf"^{_ID}\s+local (?P<lip>\S+?)(?:%\S+)? port (?P<lport>\d+) connected with "
    r"(?P<rip>\S+?)(?:%\S+)? port (?P<rport>\d+)(?P<rest>.*)$"
)
HEADER = re.compile(r"^\[\s*(?:ID|SUM-cnt)\]\s+(?:Interval|Burst)\b(?P<cols>.*)$")
INTERVAL = re.compile(
    rf"^{_ID}{_TIMES}\s+(?P<xfer>\S+)\s+(?P<xunit>[KMGT]?Bytes)\s+(?P<rate>\S+)\s+"
    r"(?P<runit>[KMGT]?(?:bits|Bytes)/sec)(?P<rest>.*)$"
)
OUT_OF_ORDER = re.compile(rf"^{_ID}{_TIMES}\s+(?P<n>\d+) datagrams\s+received out-of-order")
SENT = re.compile(rf"^{_ID}\s+Sent (?P<n>\d+) datagrams\s*$")
SERVER_REPORT = re.compile(rf"^{_ID}\s+Server Report:\s*$")
NO_ACK = re.compile(
    rf"^{_ID}\s+WARNING: (?P<msg>did not receive ack of last datagram.*|ack of last datagram "
    r"failed.*)$"
)
TRIP_TIME = re.compile(rf"^{_ID}{_TIMES}\s+trip-time \(3WHS done->fin\+finack\) = (?P<t>\S+) sec")
VERSION = re.compile(r"^iperf version (?P<v>\d+\.\d+\S*) \(")
# A connection that failed: 2.0 "connect failed: Connection refused", 2.1 "tcp connect
# failed: ...", 2.2 "[  1] tcp connect to H port P failed (Connection refused) on ...".
CONNECT_FAILED = re.compile(
    r"^(?:(?:tcp |udp )?connect failed: (?P<a>.+)|\[\s*\d+\] (?:tcp|udp) connect to \S+ port "
    r"\d+ failed \((?P<b>[^)]+)\).*|(?:write|read) failed: (?P<c>.+)|"
    r"\[\s*\d+\] (?:WARNING: )?(?:Connection reset|Broken pipe).*)$"
)
# Settings between the dashes and elsewhere that change nothing read here (or are read by
# SETTING below): accepted without a word.
ACCEPTED = re.compile(
    r"^(?:TCP window size|UDP buffer size|Sending \d+ byte datagrams|Receiving \d+ byte "
    r"datagrams|Write buffer size|Read buffer size|TOS |TCP congestion control|Warn: |"
    r"WARNING: |MSS |Enabled |Isochronous:|Bursting|Bounceback|fair-queue|Burst wait|"
    r"Server will |Client will |Set SO_|Event based|Listen backlog|Multicast|Joining |"
    r"Waiting for server threads|\[\s*\d+\] (?:Client traffic to start|Server receiving to "
    r"start|WARNING: )|\[\s*\d+\] \S.* trip-time)"
)
MSG_SIZE = re.compile(
    r"^(?:Sending|Receiving) (?P<n>\d+) byte datagrams|^(?:Write|Read) buffer size:\s*"
    r"(?P<v>\d+(?:\.\d+)?) ?(?P<u>[KMG]?Byte)\b"
)
CONGESTION = re.compile(r"^TCP congestion control (?:using|default|set to) (?P<algo>\S+)")
# 2.1+: "on 2026-11-25 16:20:36 (UTC)" / "on 2026-11-25 16:28:55.906 (UTC)".
STARTED = re.compile(r" on (?P<t>\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(?:\.\d+)?) \(UTC\)")
PEER = re.compile(r"\(peer (?P<v>[^)]+)\)")
TCP_INIT = re.compile(r"\(icwnd/mss/irtt=(?P<icwnd>\d+)/(?P<mss>\d+)/(?P<irtt>\d+)\)")
CONNECT_TIME = re.compile(r"\(ct=(?P<ms>[\d.,]+) ms\)")

# Column groups after the rate, tried in this order at each position (the first that matches
# is taken).  Their names say what they are; ``model.row_figures`` gives them meaning.
_N = r"-?\d+(?:\.\d+)?"
FIELDS: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (name, re.compile(pattern))
    for name, pattern in (
        (
            "jitter_loss",
            rf"\s+(?P<jitter>{_N}|-?nan) ms\s+(?P<lost>-?\d+)/\s*(?P<total>-?\d+)"
            r"\s+\((?P<pct>[^)%]*)%\)",
        ),
        (
            "latency",
            r"\s+(?P<avg>-?[\d.]+|-)/\s*(?P<min>-?[\d.]+|-)/\s*(?P<max>-?[\d.]+|-)/"
            r"\s*(?P<std>-?[\d.]+|-) ms",
        ),
        ("loss", r"\s+(?P<lost>-?\d+)/\s*(?P<total>-?\d+)\s+\((?P<pct>[^)%]*)%\)"),
        ("count_size", r"\s+\((?P<cnt>\d+)/(?P<size>\d+)\)"),
        ("pps", rf"\s+(?P<pps>{_N}) pps"),
        ("rx_inp", r"\s+(?P<rx>\d+)/(?P<inp>[\d.]+)\((?P<inp2>[\d.]+)\) pkts"),
        (
            "tcp_info",
            r"\s+(?:(?P<inflight>-?\d+)K\((?P<inflight_pkts>\d+)\)/)?"
            r"(?:(?P<cwnd>-?\d+)K(?:\((?P<cwnd_pkts>\d+)\))?|NA)/(?P<rtt>\d+)"
            r"(?:\((?P<rttvar>\d+)\))?\s*us",
        ),
        ("reads", r"\s+(?P<reads>\d+)(?:=|\s+)(?P<dist>\d+(?::\d+){7})"),
        ("triple", r"\s+(?P<a>\d+)/(?P<b>\d+)/(?P<c>\d+)(?=\s|$)"),
        ("pair", r"\s+(?P<a>\d+)/(?P<b>\d+)(?=\s|$)"),
        ("in_progress", rf"\s+(?P<v>{_N}) (?P<u>[KMG]?Byte)\b"),
        ("latency3", r"\s+(?P<avg>\d+\.\d+)/(?P<min>\d+\.\d+)/(?P<max>\d+\.\d+)(?=\s|$)"),
        ("number", rf"\s+(?P<v>{_N}(?:[eE][-+]?\d+)?)(?=\s|$)"),
        ("omitted", r"\s+\(omitted\)"),
    )
)
# Header words of the columns FIELDS reads; a header with other words (isochronous, bounce-
# back, burst, fq-rate, write-times reports) has columns this parser does not know.
KNOWN_COLUMNS = re.compile(
    r"^(?:Transfer|Bandwidth|Jitter|Lost/Total|Datagrams|Latency|Burst|avg/min/max/stdev|"
    r"avg/min/max|\(cnt/size\)|inP|InP|NetPwr|Reads=Dist|Reads|Dist\(bin=\S+\)|PPS|Rx/inP|"
    r"Read/Timeo/NA|Read/Timeo/Trunc|N/A\(Read/Timeo/Trunc\)|Write/Err|Write/Err/Timeo|Rtry|"
    r"Cwnd/RTT|Cwnd/RTT\(var\)|Cwnd\(pkts\)/RTT\(var\)|InF\(pkts\)/Cwnd\(pkts\)/RTT\(var\))$"
)


# Header words that each announce one column group of FIELDS (a multi-word column counts
# once: "Jitter Lost/Total", "Burst Latency avg/min/max/stdev", "Reads Dist(bin=16.0K)").
_GROUP_WORDS = re.compile(
    r"^(?:Lost/Total|avg/min/max/stdev|avg/min/max|\(cnt/size\)|inP|InP|NetPwr|Reads=Dist|"
    r"Dist\(bin=\S+\)|PPS|Rx/inP|Read/Timeo/NA|Read/Timeo/Trunc|N/A\(Read/Timeo/Trunc\)|"
    r"Write/Err|Write/Err/Timeo|Rtry|Cwnd/RTT|Cwnd/RTT\(var\)|Cwnd\(pkts\)/RTT\(var\)|"
    r"InF\(pkts\)/Cwnd\(pkts\)/RTT\(var\))$"
)


def expected_groups(cols: str) -> int:
    """How many column groups a stream's line under this header holds at least (NetPwr, last,
    may be empty when iperf 2 has no RTT to divide by)."""
    words = cols.split()
    n = sum(1 for w in words if _GROUP_WORDS.match(w))
    return n - 1 if words and words[-1] == "NetPwr" else n


def unknown_columns(cols: str) -> list[str]:
    """The words of a ``[ ID] Interval`` header that name no column this parser reads."""
    return [w for w in cols.split() if not KNOWN_COLUMNS.match(w)]


def rest_fields(rest: str) -> tuple[list[tuple[str, re.Match[str]]], str]:
    """The column groups of ``rest`` (the text after an interval line's rate), in order, and
    what is left that none matched."""
    out: list[tuple[str, re.Match[str]]] = []
    pos = 0
    rest = rest.rstrip()
    while pos < len(rest):
        for name, pattern in FIELDS:
            m = pattern.match(rest, pos)
            if m and m.end() > pos:
                out.append((name, m))
                pos = m.end()
                break
        else:
            return out, rest[pos:]
    return out, ""


def times_round(text: str) -> bool:
    """``2.0``, ``2.00``, ``2.0000``: a time iperf 2 would print at an interval boundary."""
    return bool(re.fullmatch(r"\d+(?:\.0+)?", text))
