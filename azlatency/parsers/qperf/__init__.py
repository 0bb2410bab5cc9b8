"""qperf (0.4.x) text output: one ``test:`` header, then indented ``key  =  value unit`` lines.

What qperf prints was checked against its source (``qperf.c`` of 0.4.11, Debian's package) and
against our captures (``tests/fixtures/qperf/SOURCES.md``):

* every test prints ``<name>:`` and then, after it ran, a table of ``key = value unit`` lines
  (``place_show``); values are scaled by 1000 per step (``view_band``, ``view_rate``,
  ``view_time``, ``view_size``, ``view_cost``) unless ``-uu``; bandwidth is in **bytes**/s
  (``GB/sec`` = 10^9 bytes/s) unless ``-ub`` (``Gb/sec`` = 10^9 bits/s); sizes that are a whole
  power of 1024 print as ``64 KiB (65,536)``; counts of a million or more as ``3.61 million``;
* values at or below zero are hidden unless the key is always shown (``latency``, ``bw``,
  ``send_bw``, ``recv_bw``, ``msg_rate`` of the rate tests);
* local errors go to stdout after the header (``10.204.0.1: failed to connect``); errors the
  server reports go to stderr as ``server: <message>`` and so may precede the header in a
  ``> file 2>&1`` capture; a failing test ends qperf, so it is the last test of the output;
* qperf never calls ``setlocale``: numbers are always C-locale, with ``,`` thousands.

One run per test and per ``-oo`` loop value.  ``conf`` facts (node names, qperf version, OS)
apply to every run of the block; ``conf`` and ``quit`` make runs of their own only when the
block has nothing else.  A test that printed no results is a failed run (``complete=False``,
its error message in ``warnings``), not a ParseError: the log was read correctly.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from dataclasses import dataclass, field
from functools import cache

from ...errors import ParseError
from .._base import Parsed, Run, Span, ToolInfo
from .._lines import command_above, command_of, name_joined
from .command import Command, default_msg_size, parse_command

INFO = ToolInfo(
    tool="qperf",
    description="qperf test results ('tcp_lat:' then 'latency = 16.9 us' lines), any verbosity",
    variants=("text",),
    versions="0.4.11 (captured); 0.4.9-0.4.11 share the output code",
    produces=("runs", "summaries"),
    flags="-vvs (message counts), -vu (msg_size per run in -oo sweeps)",
    latency_basis="half_rtt",
    open_ended=("text",),
)

TOOL = "qperf"

# Tests of qperf 0.4.11 (``qperf --help tests``); other names of the same shape are accepted.
TESTS = frozenset(
    (
        "conf",
        "quit",
        "rds_bw",
        "rds_lat",
        "sctp_bw",
        "sctp_lat",
        "sdp_bw",
        "sdp_lat",
        "tcp_bw",
        "tcp_lat",
        "udp_bw",
        "udp_lat",
        "rc_bi_bw",
        "rc_bw",
        "rc_lat",
        "uc_bi_bw",
        "uc_bw",
        "uc_lat",
        "ud_bi_bw",
        "ud_bw",
        "ud_lat",
        "xrc_bi_bw",
        "xrc_bw",
        "xrc_lat",
        "rc_rdma_read_bw",
        "rc_rdma_read_lat",
        "rc_rdma_write_bw",
        "rc_rdma_write_lat",
        "rc_rdma_write_poll_lat",
        "uc_rdma_write_bw",
        "uc_rdma_write_lat",
        "uc_rdma_write_poll_lat",
        "rc_compare_swap_mr",
        "rc_fetch_add_mr",
        "ver_rc_compare_swap",
        "ver_rc_fetch_add",
    )
)
_HEADER = re.compile(r"^\s*([a-z][a-z0-9_]*):\s*$")
_TEST_SHAPE = re.compile(r"^[a-z]+(?:_[a-z]+)*_(?:lat|bw|mr)$")
# indented as qperf prints it; at column 0 where a copy took the indentation off (a web page)
_KV = re.compile(r"^\s*([a-z][a-z0-9_]*)\s+=\s+(.*?)\s*$")
# The reader's hook: locate() opens only at a test header (_header), a known test's name or a
# name of _TEST_SHAPE, so the line holds '<test>:' or '_lat:', '_bw:', '_mr:'.
_OWN_NAMES = sorted(t for t in TESTS if not _TEST_SHAPE.match(t))  # conf, quit, ver_rc_...
OPENERS = (re.compile("|".join(re.escape(f"{x}:") for x in ("_lat", "_bw", "_mr", *_OWN_NAMES))),)

# Lines run together (a lost line break): a test header and the line after it ('tcp_bw:' and
# '    bw  =  1.75 GB/sec'), two value lines ('rem_os  =  Linux 6.18' and '    rem_qperf  =
# 0.4.11'), or a line and the header after it ('latency  =  6.21 us' and 'udp_lat:').  A
# known test's name only: a longest-first alternation, so '...usudp_lat:' cuts before 'udp'.
_JOINED_HEAD = re.compile(r"^\s*[a-z][a-z0-9_]*:(?=\s*\S)")
_JOINED_VALUE = re.compile(r"(?<=\S)\s+(?=[a-z][a-z0-9_]*\s+=\s)")
_JOINED_HEADER = re.compile(r"(?:" + "|".join(sorted(TESTS, key=len, reverse=True)) + r"):\s*$")
_JOINED_TAIL = re.compile(r"(?<=\S)" + _JOINED_HEADER.pattern)

_WARNING = re.compile(r"^warning:\s*(.*?)\s*$")
_REMOTE = re.compile(r"^(?:server|client): ")
# What qperf's error() and the system's strerror() say; used to tell an error line from prose.
_ERROR_WORDS = re.compile(
    r"fail|unable|cannot|can't|not supported|refused|timed out|bad |invalid|must |error|"
    r"missing|no such|not responding|not implemented|unreachable",
    re.I,
)
_NOT_MESSAGE = re.compile(r"^\s|^```|^~~~|^#{1,6}\s|^\|")
# A ',' groups thousands by three (C locale): '27,6 us' is a localized 27.6 or a damaged
# figure, not 276 — no number.
_INT = r"(?:\d{1,3}(?:,\d{3})+|\d+)"
_VALUE = re.compile(
    rf"^(?P<num>-?{_INT}(?:\.\d+)?)(?:\s+(?P<unit>[^()]*?))?(?:\s*\((?P<exact>{_INT})\))?$"
)

# unit printed → (unit kind, factor to the kind's base unit).  Sources: qperf.c view_* tables.
_UNITS: dict[str, tuple[str, float]] = {
    **{
        u: ("bps", 8 * 1000.0**i)
        for i, u in enumerate(("bytes/sec", "KB/sec", "MB/sec", "GB/sec", "TB/sec"))
    },
    **{
        u: ("bps", 1000.0**i)
        for i, u in enumerate(("bits/sec", "Kb/sec", "Mb/sec", "Gb/sec", "Tb/sec"))
    },
    **{u: ("msg/s", 1000.0**i) for i, u in enumerate(("/sec", "K/sec", "M/sec", "G/sec", "T/sec"))},
    **{u: ("us", 1000.0 ** (i - 1)) for i, u in enumerate(("ns", "us", "ms", "sec"))},
    **{u: ("s/GB", 1000.0 ** (i - 3)) for i, u in enumerate(("ns/GB", "us/GB", "ms/GB", "sec/GB"))},
    **{u: ("bytes", 1000.0**i) for i, u in enumerate(("bytes", "KB", "MB", "GB", "TB"))},
    **{u: ("bytes", 1024.0 ** (i + 1)) for i, u in enumerate(("KiB", "MiB", "GiB", "TiB"))},
    **{
        u: ("count", 1000.0**i)
        for i, u in enumerate(("", "thousand", "million", "billion", "trillion"))
    },
    "% cpus": ("pct", 1.0),
}
# Keys with text values: ``conf`` and the RDMA device parameter (``view_strn``).
_TEXT_KEYS = frozenset(
    f"{side}_{k}" for side in ("loc", "rem") for k in ("node", "cpu", "os", "qperf", "id")
) | {"id"}
# Parameters ``show_used`` prints (-vu/-vvu), maybe with loc_/rem_ when the sides differ.
_PARAMS = frozenset(
    (
        "access_recv",
        "affinity",
        "alt_port",
        "flip",
        "id",
        "msg_size",
        "mtu_size",
        "no_msgs",
        "poll_mode",
        "port",
        "rd_atomic",
        "service_level",
        "sock_buf_size",
        "src_path_bits",
        "time",
        "timeout",
        "use_cm",
    )
)
# Results renamed to the shared vocabulary (docs/vocabulary.md); the rest keep qperf's name.
_RENAME = {
    "latency": "half_rtt",
    "bw": "throughput",
    "send_bw": "throughput_sender",
    "recv_bw": "throughput_receiver",
    "send_bytes": "transfer_sender",
    "recv_bytes": "transfer_receiver",
}
# The statistic a value is, by its kind: rates and shares are means over the test; amounts are
# totals.  ``*_max_cqe`` is the one maximum qperf prints.
_STAT_OF_KIND = {
    "bps": "mean",
    "msg/s": "mean",
    "us": "total",
    "s/GB": "mean",
    "pct": "mean",
    "bytes": "total",
    "count": "total",
}
_PROTOCOLS = {"tcp": "tcp", "udp": "udp", "sctp": "sctp", "sdp": "sdp", "rds": "rds"}
_RDMA = ("rc", "uc", "ud", "xrc")
_DATAGRAM = ("udp_", "ud_", "rds_")
_INT64_LIMIT = 2.0**63  # counts and sizes go to Int64 columns


@dataclass
class _Value:
    raw: str
    line_no: int
    kind: str | None = None  # None: a text value
    value: float | None = None  # in the kind's base unit
    exact: bool = True  # False when qperf rounded a count ("3.61 million")


@dataclass
class _Test:
    name: str
    line_no: int
    end: int
    values: dict[str, _Value] = field(default_factory=dict)
    messages: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


# ---------------------------------------------------------------------------------------------
# Line classes, shared by locate and parse.


def _header(line: str) -> str | None:
    m = _HEADER.match(line)
    if m and (m.group(1) in TESTS or _TEST_SHAPE.match(m.group(1))):
        return m.group(1)
    return None


def _is_message(line: str) -> bool:
    text = line.strip()
    return bool(text) and not _NOT_MESSAGE.match(line) and len(text) < 300 and " = " not in text


def _is_error(line: str) -> bool:
    return _is_message(line) and bool(_REMOTE.match(line) or _ERROR_WORDS.search(line))


def _is_command(line: str) -> bool:
    return command_of(line, ("qperf",))[0] is not None


def _cut(line: str) -> int:
    """Where ``line`` holds the end of one qperf line and the start of the next (a lost line
    break), or 0."""
    head = _JOINED_HEAD.match(line)
    if head and _header(head.group()) is not None:
        rest = line[head.end() :]
        if _KV.match(rest) or _WARNING.match(rest.lstrip()) or _is_error(rest.lstrip()):
            return head.end()
    kv = _KV.match(line)
    if (kv or _WARNING.match(line)) and (
        value := _JOINED_VALUE.search(line, kv.start(2) if kv else 0)
    ):
        return value.start()
    if not line.rstrip().endswith(":") or _header(line) is not None:
        return 0
    if kv:  # a count's empty unit leaves a space: '31,748 ' and 'tcp_lat:'
        tail = _JOINED_HEADER.search(line, kv.start(2))
    else:
        tail = _JOINED_TAIL.search(line)
    return tail.start() if tail else 0


def _expand(lines: list[str]) -> tuple[list[str], list[int], list[tuple[int, int]]]:
    """``lines`` with each line that ran several of qperf's lines together cut into them;
    for each piece the index of its line; (line number, pieces) of each line cut
    (``_lines.name_joined``).  ``lines`` itself when none is."""
    cuts = {i: c for i, line in enumerate(lines) if (c := _cut(line))}
    if not cuts:
        return lines, list(range(len(lines))), []
    pieces: list[str] = []
    at: list[int] = []
    joined: list[tuple[int, int]] = []
    for i, line in enumerate(lines):
        n = len(pieces)
        while i in cuts and (c := _cut(line)):
            pieces.append(line[:c].rstrip())
            at.append(i)
            line = line[c:] if _KV.match(line[c:]) else line[c:].lstrip()
        pieces.append(line)
        at.append(i)
        if i in cuts:
            joined.append((i + 1, len(pieces) - n))
    return pieces, at, joined


# ---------------------------------------------------------------------------------------------
# locate


def locate(lines: list[str]) -> list[Span]:
    """qperf outputs in a document: runs of test headers with their value lines, plus the
    ``qperf`` command line and ``server:`` error lines just above the first header.  A line
    that ran several of qperf's lines together is read as those lines."""
    pieces, at, cut = _expand(lines)
    spans = _locate(pieces)
    if not cut:
        return spans
    return [Span(at[s.start], at[s.end - 1] + 1, s.tool) for s in spans]


def _locate(lines: list[str]) -> list[Span]:
    spans: list[Span] = []
    i, n = 0, len(lines)
    while i < n:
        if _header(lines[i]) is None or not _opens_block(lines, i):
            i += 1
            continue
        start = i
        while start > 0 and start > i - 4 and _REMOTE.match(lines[start - 1]):
            start -= 1
        start = command_above(lines, start, 0, ("qperf",), reach=1)
        end = _block_end(lines, i)
        spans.append(Span(start, end, TOOL))
        i = end
    return spans


def _opens_block(lines: list[str], i: int) -> bool:
    nxt = lines[i + 1] if i + 1 < len(lines) else ""
    if _KV.match(nxt) or _WARNING.match(nxt) or _is_error(nxt):
        return True
    # A stray line (a kernel message, a shell's) between the header and its values.
    after = [line for line in lines[i + 2 : i + 2 + _STRAY] if line.strip()]
    if any(_KV.match(line) or _is_error(line) for line in after):
        return True
    above = [lines[k] for k in range(max(0, i - 4), i)]
    return any(_is_command(line) for line in above) or bool(above and _REMOTE.match(above[-1]))


# Stray lines looked past between a header and its first value.
_STRAY = 3


def _block_end(lines: list[str], i: int) -> int:
    """End (exclusive) of the block whose first header is ``lines[i]``."""
    has_values = False
    j = i + 1
    while j < len(lines):
        line = lines[j]
        if _header(line) is not None:
            has_values = False
        elif _KV.match(line):
            has_values = True
        elif _WARNING.match(line) or _REMOTE.match(line):
            pass
        elif not line.strip() and _continues(lines, j):
            pass  # qperf prints no blank line; one pasted between its tests does not end it
        elif _is_error(line) and not has_values:
            pass
        elif not line.strip() or not _stray_inside(lines, j):
            break
        j += 1
    return j


def _stray_inside(lines: list[str], j: int) -> bool:
    """A stray line (a kernel message, a shell's) inside the output: its next test header or
    value follows within :data:`_STRAY` lines, with no command, prompt or Markdown between.
    The parser names it; a split here would cost the later tests the -vv 'conf' lines."""
    if re.match(r"\s*(?:```|~~~|#{1,6}\s)", lines[j]) or _is_command(lines[j]):
        return False
    for k in range(j + 1, min(j + 1 + _STRAY, len(lines))):
        line = lines[k]
        if not line.strip():
            continue
        if _is_command(line) or re.match(r"\s*(?:```|~~~|#{1,6}\s)", line):
            return False
        if _header(line) is not None or _KV.match(line):
            return True
    return False


def _continues(lines: list[str], j: int) -> bool:
    """Blank lines from ``lines[j]`` lead straight to a test header and its values (no command
    or prompt between): the same invocation's output, pasted with a gap."""
    k = j
    while k < len(lines) and not lines[k].strip():
        k += 1
    return k + 1 < len(lines) and _header(lines[k]) is not None and bool(_KV.match(lines[k + 1]))


# ---------------------------------------------------------------------------------------------
# parse


def parse(text: str, *, source: str | None = None, strict: bool = True) -> Parsed:
    lines, at, joined = _expand(text.split("\n"))
    command: Command | None = None
    tests: list[_Test] = []
    orphans: list[tuple[int, str]] = []  # error lines not right after a header
    skipped: list[str] = []
    for i, line in enumerate(lines):
        no = at[i] + 1
        name = _header(line)
        if name is not None:
            tests.append(_Test(name, no, no))
            continue
        if not line.strip():
            continue
        cur = tests[-1] if tests else None
        kv = _KV.match(line)
        if kv and cur is not None:
            cur.values[kv.group(1)] = _value(kv.group(1), kv.group(2), no, source, strict, skipped)
            cur.end = no
        elif (w := _WARNING.match(line)) and cur is not None:
            cur.warnings.append(w.group(1))
            cur.end = no
        elif command is None and not tests and _is_command(line):
            command = parse_command(command_of(line, ("qperf",))[0] or "")
        elif _is_message(line) and cur is not None and not cur.values and not _REMOTE.match(line):
            cur.messages.append(line.strip())
            cur.end = no
        elif _is_message(line) and (_REMOTE.match(line) or _is_error(line)):
            orphans.append((no, line.strip()))
        elif strict:
            raise ParseError(
                TOOL,
                source,
                no,
                f"expected a test header ('tcp_lat:') or an "
                f"indented 'key = value' line, got {line.strip()[:80]!r}",
            )
        else:
            skipped.append(f"line {no} skipped: {line.strip()[:80]!r}")
    if not tests:
        raise ParseError(
            TOOL,
            source,
            1,
            "expected a qperf test header such as 'tcp_lat:'",
            hint="qperf prints '<test>:' before each test's results",
        )
    _attach_orphans(tests, orphans)
    runs = _runs(tests, command)
    if skipped:
        runs[0].warnings.extend(skipped)
    name_joined(runs, joined, TOOL)
    return Parsed(TOOL, runs)


def _value(key: str, raw: str, no: int, source, strict: bool, skipped: list[str]) -> _Value:
    m = _VALUE.match(raw)
    if m is None or (m.group("unit") or "") not in _UNITS:
        if key in _TEXT_KEYS:
            return _Value(raw, no)
        units = "', '".join(u for u in _UNITS if u)
        reason = f"expected '<number> <unit>' after '{key} =' (units '{units}'), got {raw!r}"
        if re.match(r"-?\d+,\d", raw):
            reason += " (qperf prints C-locale numbers, ',' grouping thousands by three)"
        if strict:
            raise ParseError(TOOL, source, no, reason)
        skipped.append(f"line {no} skipped: {reason}")
        return _Value(raw, no)
    unit = m.group("unit") or ""
    kind, factor = _UNITS[unit]
    want = _expected_kind(key)
    if want is not None and kind != want:
        reason = f"'{key}' is printed in {unit or 'plain numbers'!r}, expected a {want} unit"
        if strict:
            raise ParseError(TOOL, source, no, reason)
        skipped.append(f"line {no} skipped: {reason}")
        return _Value(raw, no)
    if m.group("exact"):  # "64 KiB (65,536)": the exact number is in the parentheses
        value, exact = float(m.group("exact").replace(",", "")), True
    else:
        value, exact = float(m.group("num").replace(",", "")) * factor, factor == 1.0
    if kind in ("count", "bytes") and value >= _INT64_LIMIT:
        reason = (
            f"expected '{key} = <{kind}>' within int64 (the tables' Int64), got {raw!r}: "
            "out of range for int64"
        )
        if strict:
            raise ParseError(TOOL, source, no, reason)
        skipped.append(f"line {no} skipped: {reason}")
        return _Value(raw, no)
    return _Value(raw, no, kind, value, exact or kind != "count")


@cache  # a few dozen keys, repeated in every block of a long sweep
def _expected_kind(key: str) -> str | None:
    """The unit kind qperf prints ``key`` in (show_info, show_rest, ParInfo types)."""
    base = key[4:] if key[:4] in ("loc_", "rem_") else key
    if base in ("latency", "time", "timeout") or base.endswith(("_real_time", "_cpu_time")):
        return "us"
    if base in ("bw", "send_bw", "recv_bw"):
        return "bps"
    if base == "msg_rate":
        return "msg/s"
    if base.endswith("_cost"):
        return "s/GB"
    if "_cpus_" in base:
        return "pct"
    if base.endswith("_bytes") or base in ("msg_size", "mtu_size", "sock_buf_size"):
        return "bytes"
    if base.endswith(("_msgs", "_errors", "_max_cqe")):
        return "count"
    return None


def _attach_orphans(tests: list[_Test], orphans: list[tuple[int, str]]) -> None:
    """stderr lines (``server: ...``) land before the stdout they belong with; a failing test
    is qperf's last, so they go to the last test without results, else to the last test."""
    if not orphans:
        return
    empty = [t for t in tests if not t.values and t.name not in ("quit",)]
    target = empty[-1] if empty else tests[-1]
    target.messages.extend(text for _, text in orphans)


# ---------------------------------------------------------------------------------------------
# runs


def _runs(tests: list[_Test], command: Command | None) -> list[Run]:
    conf = _conf([t for t in tests if t.name == "conf"])
    measured = [t for t in tests if t.name not in ("conf", "quit")]
    loop_values = command.loop_values() if command else {}
    printed = Counter(t.name for t in measured or tests)
    seen: dict[str, int] = {}
    runs = []
    for test in measured or tests:
        k = seen.get(test.name, 0)
        seen[test.name] = k + 1
        loop = loop_values[k] if k < len(loop_values) else {}
        runs.append(_run(test, command, conf, loop))
        times = command.tests.count(test.name) * max(1, len(loop_values)) if command else 0
        if times and printed[test.name] > times:
            # every run of that test: which one is extra, and so which loop step each is, is
            # not known
            runs[-1].warnings.append(
                f"{test.name} printed {printed[test.name]} times where the command runs it "
                f"{times}: a second invocation or a repeated paste? (read with this command's "
                "settings" + (", loop values in order" if loop_values else "") + ")"
            )
    return runs


def _conf(tests: list[_Test]) -> dict[str, str]:
    out: dict[str, str] = {}
    for t in tests:
        out.update({k: v.raw for k, v in t.values.items()})
    return out


def _run(test: _Test, command: Command | None, conf: dict[str, str], loop: dict) -> Run:
    run = Run(line_start=test.line_no, line_end=test.end)
    labels: dict = {}
    meta = run.meta
    meta.update(parser_variant="text", role="client", mode=test.name)
    meta["protocol"], transport = _protocol(test.name)
    if transport:
        labels["transport"] = transport
    if test.name.endswith("_lat"):
        meta["latency_basis"] = "half_rtt"
    _apply_conf(meta, labels, conf)
    if command is not None:
        meta["command"] = command.text
        if command.host and not meta.get("dst_host"):
            meta["dst_ip" if command.host_is_ip else "dst_host"] = command.host
    _apply_params(run, test, command, loop, labels)
    _results(run, test)
    _quality(run, test)
    run.warnings[:0] = test.warnings + test.messages
    if labels:
        meta["labels"] = json.dumps(labels, sort_keys=True)
    return run


def _protocol(name: str) -> tuple[str | None, str | None]:
    first = name.split("_")[0]
    if first in _PROTOCOLS:
        return _PROTOCOLS[first], None
    if name.startswith("ver_rc_"):
        return "rdma", "rc"
    if first in _RDMA:
        return "rdma", first
    return None, None


def _apply_conf(meta: dict, labels: dict, conf: dict[str, str]) -> None:
    if not conf:
        return
    if conf.get("loc_qperf"):
        meta["tool_version"] = conf["loc_qperf"]
    if conf.get("loc_node"):
        meta["src_host"] = conf["loc_node"]
    if conf.get("rem_node"):
        meta["dst_host"] = conf["rem_node"]
    os_name = conf.get("loc_os", "").split(" ")[0].lower()
    if os_name:
        meta["os"] = os_name
    for key in ("loc_cpu", "rem_cpu", "loc_os", "rem_os", "rem_qperf"):
        if conf.get(key):
            labels[key] = conf[key]


def _apply_params(run: Run, test: _Test, command: Command | None, loop: dict, labels: dict):
    meta, values = run.meta, test.values
    for key, v in values.items():
        base = key[4:] if key[:4] in ("loc_", "rem_") else key
        if base in _PARAMS and key not in ("msg_size", "time"):
            labels[key + _SUFFIX.get(v.kind, "")] = v.raw if v.kind is None else _plain(v)
    size, src = _msg_size(test, command, loop)
    if size is not None:
        meta["msg_size_bytes"] = size
        labels["msg_size_source"] = src
    if "time" in values and values["time"].kind == "us":
        meta["duration_s"] = values["time"].value / 1e6
    elif (real := _first(values, ("send_real_time", "loc_real_time"))) is not None:
        meta["duration_s"] = real.value / 1e6
    elif command is not None and command.time_s is not None and test.values:
        meta["duration_s"] = command.time_s
    for name, value in loop.items():
        if name != "msg_size":
            labels[f"loop_{name}"] = value


_SUFFIX = {"us": "_s", "bytes": "_bytes"}


def _plain(v: _Value) -> float | int:
    """A parameter's value for the labels: times in seconds, sizes in bytes, ints as ints."""
    value = v.value / 1e6 if v.kind == "us" else v.value
    return int(value) if value is not None and float(value).is_integer() else value


def _msg_size(test: _Test, command: Command | None, loop: dict) -> tuple[int | None, str | None]:
    """The message size: printed (-vu), else the -oo loop value or -m of the command line,
    else qperf's default for the test when the command line shows none was given."""
    if "msg_size" in test.values and test.values["msg_size"].kind == "bytes":
        return int(test.values["msg_size"].value), "printed"
    if "msg_size" in loop:
        return loop["msg_size"], "command"
    if command is not None:
        if command.msg_size is not None:
            return command.msg_size, "command"
        if command.sets_msg_size:
            return None, None  # given, but not readable: no default either
        default = default_msg_size(test.name)
        if default is not None:
            return default, "default"
    return None, None


def _first(values: dict[str, _Value], keys: tuple[str, ...]) -> _Value | None:
    for k in keys:
        if k in values and values[k].value is not None:
            return values[k]
    return None


def _results(run: Run, test: _Test) -> None:
    for key, v in test.values.items():
        base = key[4:] if key[:4] in ("loc_", "rem_") else key
        if v.kind is None or base in _PARAMS or key in _TEXT_KEYS:
            continue
        if key == "latency" and v.value == 0:
            continue  # qperf prints 0 when no message came back (calc_results): no latency
        metric = _RENAME.get(key, key)
        stat = "max" if key.endswith("max_cqe") else _STAT_OF_KIND[v.kind]
        if key == "latency":
            stat = "mean"  # real time / messages (calc_results): a mean half round trip
        value, unit = v.value, v.kind
        if v.kind == "us" and key != "latency":
            value, unit = v.value / 1e6, "s"  # times other than latency: seconds
        run.add(metric, stat, value, unit)


def _exact(values: dict[str, _Value], *keys: str) -> int | None:
    for k in keys:
        v = values.get(k)
        if v is not None and v.kind == "count" and v.exact:
            return int(v.value)
    return None


def _quality(run: Run, test: _Test) -> None:
    values, meta = test.values, run.meta
    stats_shown = any(k.endswith(("_msgs", "_bytes", "_errors")) for k in values)
    if test.name.endswith("_lat"):
        sent = _exact(values, "loc_send_msgs")
        received = _exact(values, "loc_recv_msgs")
    else:
        sent = _exact(values, "send_msgs", "loc_send_msgs", "rem_send_msgs")
        received = _exact(values, "recv_msgs", "rem_recv_msgs", "loc_recv_msgs")
    if stats_shown:  # -vvs hides zero counts: an absent count is 0
        sent = 0 if sent is None and not _any_msgs(values, "send") else sent
        received = 0 if received is None and not _any_msgs(values, "recv") else received
    lat = values.get("latency")
    if lat is not None and lat.value == 0:
        received = 0
        run.warnings.append("latency = 0: no message came back (total loss); no half_rtt kept")
    meta["packets_sent"], meta["packets_received"] = sent, received
    errors = [v for k, v in values.items() if k.endswith("_errors") and v.kind == "count"]
    if errors and all(v.exact for v in errors):
        total = sum(int(v.value) for v in errors)
        if total < _INT64_LIMIT:
            meta["errors"] = total
        else:  # each count fits the column, their sum does not: say so, keep the run
            lines = ", ".join(str(v.line_no) for v in errors)
            run.warnings.append(
                f"error counts on lines {lines} add up past int64: errors left empty"
            )
    if lat is not None and lat.value == 0:
        meta["loss_pct"] = 100.0
    elif (
        test.name.startswith(_DATAGRAM)
        and not test.name.endswith("_lat")
        and sent
        and received is not None
    ):
        meta["loss_pct"] = max(0.0, 100.0 * (sent - received) / sent)
    n = _latency_n(values)
    if n:
        for s in run.summaries:
            if s.metric == "half_rtt":
                s.n = n
    meta["complete"] = bool(values) or test.name in ("quit",)
    if not values and test.name not in ("quit", "conf") and not test.messages:
        run.warnings.append("no results after the test header (output cut short?)")


def _any_msgs(values: dict[str, _Value], side: str) -> bool:
    return any(k.endswith(f"{side}_msgs") for k in values)


def _latency_n(values: dict[str, _Value]) -> int | None:
    """qperf's latency is real time / (messages received by both sides) (calc_results)."""
    loc, rem = _exact(values, "loc_recv_msgs"), _exact(values, "rem_recv_msgs")
    return loc + rem if loc is not None and rem is not None else None
