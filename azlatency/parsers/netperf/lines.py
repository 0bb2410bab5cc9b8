"""The lines netperf prints (2.6 to 2.7.1), as patterns, and the small facts read off them.

Shapes from our captures (``tests/fixtures/netperf/SOURCES.md``) and netperf's source
(``src/netlib.c``, ``src/nettest_bsd.c``, ``src/nettest_omni.c``):

* every test opens with a banner: ``MIGRATED TCP REQUEST/RESPONSE TEST from 0.0.0.0 (0.0.0.0)
  port 0 AF_INET to 10.0.0.2 () port 0 AF_INET : histogram : demo : first burst 0`` (a classic
  test name run by the omni code), ``OMNI Send|Recv TEST from ...`` (``-t omni``);
* ``-D`` prints ``Interim result: %7.2f %s/s over %.3f seconds ending at %ld.%.3ld``
  (netlib.c) before the final table;
* ``-v 2`` adds a verbose table and a histogram of the latency of each transaction (RR tests)
  or of each send() call (STREAM tests), ten columns a decade (or ``HIST_NUM_OF_BUCKET``
  columns when netperf was built with the patch PerfKitBenchmarker applies).
"""

from __future__ import annotations

import re

from .._lines import host_and_ip

TOOL = "netperf"

# netlib.c format_units(): byte units are powers of 1024, bit units powers of ten; "Trans"
# is a transaction rate.  Classic tables add "/sec", omni and interim lines "/s".
BITS_PER_SECOND = {
    "10^0bits": 1.0,
    "10^3bits": 1e3,
    "10^6bits": 1e6,
    "10^9bits": 1e9,
    "Bytes": 8.0,
    "KBytes": 8.0 * 2**10,
    "MBytes": 8.0 * 2**20,
    "GBytes": 8.0 * 2**30,
}
TRANS = "Trans"

BANNER = re.compile(
    r"^\"?(?:(?P<migrated>MIGRATED) )?(?P<what>.+?) TEST from (?P<lhost>\S*) \((?P<lip>[^)]*)\)"
    r" port (?P<lport>\d+) (?P<laf>AF_\w+) to (?P<rhost>\S*) \((?P<rip>[^)]*)\) port "
    r"(?P<rport>\d+) (?P<raf>AF_\w+)(?P<opts>.*?)\"?,?\s*$"
)
INTERIM = re.compile(
    r"^Interim result:\s+(?P<value>\S+) (?P<unit>[\w^]+)/s over (?P<secs>\S+) seconds ending "
    r"at (?P<epoch>\d+\.\d+)\s*$"
)
KEYVAL = re.compile(r"^(?P<key>[A-Z][A-Z0-9_]*)=(?P<value>.*?)\s*$")
WARN = re.compile(r"^!!!(?P<text>.*)$")
CONFIDENCE = re.compile(r"^!!! Confidence intervals: Throughput\s*:\s*(?P<pct>\S+)%")
HIST_TITLE = re.compile(r"^Histogram of (?P<what>.+?)\.?\s*$")
HIST_ROW = re.compile(
    r"^(?P<row>UNIT_USEC|TEN_USEC|HUNDRED_USEC|TENTH_MSEC|UNIT_MSEC|TEN_MSEC|"
    r"HUNDRED_MSEC|UNIT_SEC|TEN_SEC)\s*(?P<cells>(?::\s*\d+)+)\s*$"
)
# The reader takes a leading '>' for an e-mail quote marker (reader.unquote), so the line
# arrives as "100_SECS: 0".
HIST_OVER = re.compile(r"^>?100_SECS:\s*(?P<n>\d+)\s*$")
HIST_TOTAL = re.compile(r"^HIST_TOTAL:\s*(?P<n>\d+)\s*$")
# The decade each histogram row covers, in µs (netlib.c HIST_add / HIST_report; TENTH_MSEC is
# the OLD_HISTOGRAM build's first row, which folds the two finer rows into it).
HIST_SCALE_US = {
    "UNIT_USEC": 1.0,
    "TEN_USEC": 10.0,
    "HUNDRED_USEC": 100.0,
    "TENTH_MSEC": 100.0,
    "UNIT_MSEC": 1e3,
    "TEN_MSEC": 1e4,
    "HUNDRED_MSEC": 1e5,
    "UNIT_SEC": 1e6,
    "TEN_SEC": 1e7,
}
# The control connection failing, a data connection breaking, netserver refusing: netperf's
# own messages (netlib.c, nettest_bsd.c, nettest_omni.c), with or without a ``netperf:``.
ERROR = re.compile(
    r"^(?:netperf: .*|establish control: .*|establish_control could not .*|"
    r"(?:send|recv)_\w+: .*(?:error|fail|errno).*|remote error .*|"
    r"Resource temporarily unavailable|netperf: remote error .*)$"
)
HINTS = {
    "establish control": "nothing accepted the control connection: is `netserver` running on "
    "that host and port (-p), and does a firewall let it through?",
    "Connection reset": "the other end closed the connection during the test",
}

# Classic (bsd) test tables: the first header line says which one follows.
RR_HEAD = re.compile(r"^Local /Remote\s*$")
STREAM_HEAD = re.compile(r"^Recv\s+Send\s+Send\b")
UDP_STREAM_HEAD = re.compile(r"^Socket\s+Message\s+Elapsed\s+Messages\b")
VERBOSE_HEAD = re.compile(r"^Alignment\s+Offset\b")
MSS_HEAD = re.compile(r"^Maximum\s*$")

NUMBER = r"-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?"
ROW = re.compile(rf"^\s*{NUMBER}(?:\s+{NUMBER})*\s*$")


def rate(value: float, unit: str) -> tuple[str, float] | None:
    """``("bps", bits/s)`` or ``("trans", transactions/s)`` of a netperf rate and its unit
    word (``10^6bits``, ``KBytes``, ``Trans``, with or without ``/s``/``/sec``)."""
    word = unit.split("/")[0]
    if word in (TRANS, "Tran"):
        return "trans", value
    factor = BITS_PER_SECOND.get(word)
    return None if factor is None else ("bps", value * factor)


# "netperf -H host -t TCP_RR -- -O ...", after a prompt or "kubectl exec ... --" too
# (the last "netperf" of the line: "kubectl exec -n netperf -it netperf-client -- netperf -H")
INVOCATION = re.compile(r"^(?:.*\s)?(?:\S*/)?netperf(?:\.exe)?\s+(?P<args>-\S.*?)\s*$")


def command_facts(args: str) -> dict:
    """Test, protocol and far end from a netperf command line (its global options, before
    ``--``), for an output printed without its banner (``-P 0``, or a paste that left it
    out); ``-t`` defaults to TCP_STREAM, as netperf does."""
    words = args.split()
    words = words[: words.index("--")] if "--" in words else words
    test, host = "TCP_STREAM", None
    for k, w in enumerate(words):
        value = words[k + 1] if k + 1 < len(words) else None
        if w in ("-t", "-H") and value is not None:
            test, host = (value, host) if w == "-t" else (test, value.split(",")[0])
        elif w.startswith(("-t", "-H")) and len(w) > 2:
            test, host = (w[2:], host) if w[1] == "t" else (test, w[2:].split(",")[0])
    upper = test.upper()
    name, ip = host_and_ip(host, None)
    facts: dict = {"test": upper, "opts": "", "remote_host": name, "remote_ip": ip}
    if upper.split("_")[0] in ("TCP", "UDP", "SCTP"):
        facts["protocol"] = upper.split("_")[0].lower()
    modes = (("_CRR", "crr"), ("_RR", "rr"), ("MAERTS", "maerts"), ("STREAM", "stream"))
    facts["mode"] = next((mode for key, mode in modes if key in upper), None)
    return facts


def banner_facts(m: re.Match[str]) -> dict:
    """Test, protocol and the two ends from a banner match.  ``MIGRATED`` banners name the
    classic test (``TCP REQUEST/RESPONSE``); omni ones its direction (``OMNI Send|Recv``)."""
    what = m["what"].strip()
    upper = what.upper()
    facts: dict = {"test": what}
    proto = re.match(r"^(TCP|UDP|SCTP|SDP|DLCO|DLCL|STREAM|DG)\b", upper)
    if proto and proto[1] in ("TCP", "UDP", "SCTP"):
        facts["protocol"] = proto[1].lower()
    if "CONNECT/REQUEST/RESPONSE" in upper:
        facts["mode"] = "crr"
    elif "REQUEST/RESPONSE" in upper or "SEND|RECV" in upper:
        facts["mode"] = "rr"
    elif "MAERTS" in upper or upper.endswith(" RECV"):
        facts["mode"] = "maerts"
    elif "STREAM" in upper or "SENDFILE" in upper or upper.endswith(" SEND"):
        facts["mode"] = "stream"
    opts = facts["opts"] = m["opts"]
    burst = re.search(r"first burst (\d+)", opts)
    if burst:
        facts["first_burst"] = int(burst[1])
    # a classic request/response banner prints ': first burst N' where the build can burst;
    # ': interval' where it can pace (-w/-b), whose waits a printed rate includes
    facts["classic_rr"] = "REQUEST/RESPONSE" in upper
    facts["intervals"] = re.search(r": (?:spin )?interval\b", opts) is not None
    conf = re.search(r"\+/-(\S+)% @ (\d+)% conf\.", opts)
    if conf:
        facts["confidence"] = (conf[2], conf[1])
    for side, host, ip, port in (
        ("local", "lhost", "lip", "lport"),
        ("remote", "rhost", "rip", "rport"),
    ):
        facts[f"{side}_host"] = m[host] or None
        facts[f"{side}_ip"] = m[ip] or None
        facts[f"{side}_port"] = int(m[port])
    return facts
