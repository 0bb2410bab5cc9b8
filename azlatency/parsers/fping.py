"""fping (fping.org, 4.x-5.x): ICMP echo to many targets at once::

    10.77.0.1 : [0], 64 bytes, 0.051 ms (0.051 avg, 0% loss)
    10.77.0.9 : [0], timed out (NaN avg, 100% loss)

    10.77.0.1 : xmt/rcv/%loss = 20/20/0%, min/avg/max = 0.038/0.047/0.055
    10.77.0.9 : 0.045 - 0.049           (-C: every probe; '-' a lost one)

One run per target of one invocation, in the order the targets first appear.  Each reply and
timeout line (``-c``/``-C``/``-l``; ``-D`` puts ``[epoch]`` before it) is a ``reply`` sample
(``ok`` or ``timeout``; ``duplicate for [n]`` a ``duplicate``); without them (``-q -C``) the
``-C`` line's values are the samples.  The per-target summary gives the counts and the
reported rtt (min/avg/max, ms → µs); ``-s`` totals are a run of their own (``totals``: the
elapsed time, every target's echoes, min/avg/max pooled over the targets).  ``-e``/``-a`` ("is alive (0.036 ms)") give one reply each.
Round trips (``latency_basis = "rtt"``); IPDV is computed from the replies.  See
``docs/tools/fping.md``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ..errors import NothingMeasured, ParseError
from . import _delay
from ._base import Parsed, Run, Span, ToolInfo
from ._lines import (
    STRAY_LINES,
    beside_known,
    command_above,
    computed,
    computed_rtt,
    decimal_to_ns,
    gapless,
    host_and_ip,
    joined_kinds,
    known_lines,
    located,
    samples_frame,
    unjoin,
)

TOOL = "fping"

INFO = ToolInfo(
    tool=TOOL,
    description="fping per-target probe lines, 'xmt/rcv/%loss' summaries, -C values, -s stats",
    variants=("count", "alive"),
    versions="fping 5.1 (Debian 12, captured); the line formats of 5.0-5.2 (fping.c)",
    produces=("runs", "samples", "summaries"),
    flags="-c N or -C N (per-probe lines); -D (timestamps), -s (elapsed time)",
    latency_basis="rtt",
)

_NUM = r"\d+(?:\.\d+)?(?:e[+-]?\d+)?"  # sprint_tm: %.3f, %.2f, %.1f, %.0f or %.3e ms
# A decimal comma, which fping (C locale) never prints: matched so that a localized or
# damaged copy's line is named, not left out of the output with its run
_NUM = rf"(?:{_NUM}|\d+,\d+)"
_TS = r"(?:\[(?P<ts>\d+\.\d+)\]\s+)?"  # -D: the receive (or timeout) time, epoch seconds
_HOST = r"(?P<host>[^\s\[\]]+)"
_FROM = r"(?:\s+\[<- (?P<src>[^\]\s]+)\])?"  # a reply from another address than the target
_REPLY = re.compile(
    rf"^\s*{_TS}{_HOST}\s+: \[(?P<seq>\d+)\], (?P<bytes>\d+) bytes, (?P<ms>{_NUM}) ms "
    rf"\((?P<avg>{_NUM}|NaN) avg, (?P<pct>\d+)% (?:loss|return)\){_FROM}\s*$"
)
_TIMEOUT = re.compile(
    rf"^\s*{_TS}{_HOST}\s+: \[(?P<seq>\d+)\], timed out "
    rf"\((?P<avg>{_NUM}|NaN) avg, (?P<pct>\d+)% (?:loss|return)\)\s*$"
)
_DUP = re.compile(
    rf"^\s*{_HOST}\s+: duplicate for \[(?P<seq>\d+)\], (?P<bytes>\d+) bytes, "
    rf"(?P<ms>{_NUM}) ms{_FROM}\s*$"
)
_SUMMARY = re.compile(
    rf"^\s*{_HOST}\s+: xmt/rcv/%(?P<what>loss|return) = (?P<sent>\d+)/(?P<received>\d+)/"
    rf"(?P<pct>\d+)%(?:, outage\(ms\) = (?P<outage>\d+))?"
    rf"(?:, min/avg/max = (?P<min>{_NUM})/(?P<avg>{_NUM})/(?P<max>{_NUM}))?\s*$"
)
_ALL = re.compile(rf"^\s*{_HOST}\s+:(?P<values>(?: (?:{_NUM}|-))+)\s*$")  # -C
_ALIVE = re.compile(rf"^\s*{_HOST} is alive(?: \((?P<ms>{_NUM}) ms\))?{_FROM}\s*$")
_UNREACHABLE = re.compile(rf"^\s*{_HOST} is unreachable\s*$")
_ICMP = re.compile(rf"^\s*(?P<what>ICMP .+?) from (?P<src>\S+) for ICMP Echo sent to {_HOST}\s*$")
# getaddrinfo's messages (glibc, musl, macOS) after the name that did not resolve
_UNKNOWN = re.compile(
    r"^\s*(?:fping: )?(?P<host>[^\s:]+):? (?P<message>Name or service not known|"
    r"Temporary failure in name resolution|No address associated with hostname|"
    r"nodename nor servname provided, or not known|Name does not resolve|"
    r"can't parse address \S+: .+)\s*$"
)
_STAMP = re.compile(r"^\s*\[(?P<hms>\d\d:\d\d:\d\d)\]\s*$")  # -Q / SIGQUIT interval block
_GLOBAL = re.compile(
    r"^\s*(?P<n>\d+) (?P<what>targets|alive|unreachable|unknown addresses|timeouts \(waiting "
    r"for response\)|ICMP Echos sent|ICMP Echo Replies received|other ICMP received)\s*$"
)
_GLOBAL_MS = re.compile(rf"^\s*(?P<ms>{_NUM}) ms \((?P<what>min|avg|max) round trip time\)\s*$")
_ELAPSED = re.compile(rf"^\s*(?P<s>{_NUM}) sec \(elapsed real time\)\s*$")
_KINDS = (
    ("reply", _REPLY),
    ("timeout", _TIMEOUT),
    ("dup", _DUP),
    ("summary", _SUMMARY),
    ("alive", _ALIVE),
    ("unreachable", _UNREACHABLE),
    ("icmp", _ICMP),
    ("unknown", _UNKNOWN),
    ("stamp", _STAMP),
    ("global", _GLOBAL),
    ("global_ms", _GLOBAL_MS),
    ("elapsed", _ELAPSED),
    ("all", _ALL),
)
_PROBES = ("reply", "timeout", "dup", "alive")
# Lines that open an output; the -s totals, and a bare [hh:mm:ss] not followed by a summary,
# are too plain to ("   2 targets").
_OPENS = (*_PROBES, "summary", "all", "unreachable", "icmp", "unknown", "stamp")
# The reader's hook: every line at which locate() opens an output.  _kind matches from the
# line's start, so a search finds each; a '[hh:mm:ss]' opens only with a summary line below
# it, inside the same output.  -C's lines alone ('10.0.0.4 : 0.51 0.49 -', _ALL) hold no
# word, only whitespace before ': ' (\s+ then ': '): one branch per character \s matches
# (str.isspace, none above U+3000) keeps that literal whole for the reader.
_SPACES = "".join(c for c in map(chr, range(0x3001)) if c.isspace())
_ALL_OPENS = re.compile("|".join(re.escape(c + ": ") for c in _SPACES))
OPENERS = (
    *(pattern for name, pattern in _KINDS if name in _OPENS and name not in ("all", "stamp")),
    _ALL_OPENS,
)
_INTEGERS = {
    "seq": "a probe index",
    "bytes": "a reply size in bytes",
    "sent": "a count of probes sent",
    "received": "a count of replies",
    "n": "a count",
}


def _kind(line: str) -> tuple[str, re.Match[str]] | tuple[None, None]:
    for name, pattern in _KINDS:
        m = pattern.match(line)
        if m:
            if name == "all" and not _looks_like_target(m["host"]):
                return None, None  # 'Latency : 12.5' is no -C line
            return name, m
    return None, None


def _name(line: str) -> str | None:
    return _kind(line)[0]


_PATTERNS = dict(_KINDS)
_NAMES = {pattern: name for name, pattern in _KINDS}


def _pattern(line: str) -> re.Pattern[str] | None:
    """The pattern of a line's kind (:func:`_kind`), for ``_lines.known_lines``."""
    name = _kind(line)[0]
    return _PATTERNS[name] if name is not None else None


def _looks_like_target(host: str) -> bool:
    """A ``-C`` line alone is ``name : numbers``: take it only for an address or a dotted
    name (another tool's ``label : 12.5`` has neither)."""
    return "." in host.strip(".") or ":" in host


def _host_of(kind: str, m: re.Match[str]) -> str | None:
    return m["host"] if "host" in m.groupdict() else None


# ---------------------------------------------------------------------------------------------
# Locating: one block per invocation.


@dataclass
class _Seen:
    """What an invocation has printed so far, to tell its lines from the next one's."""

    closed: set[str] = field(default_factory=set)  # targets whose final summary was printed
    listed: set[str] = field(default_factory=set)  # targets whose -C line was printed
    interval: set[str] | None = None  # targets summarised since the last [hh:mm:ss]

    def next_invocation(self, kind: str, m: re.Match[str]) -> bool:
        host = _host_of(kind, m)
        if kind in _PROBES or kind == "unreachable":
            return host in self.closed or host in self.listed
        if kind == "summary":
            if self.interval is not None and host not in self.interval:
                return False
            return host in self.closed
        if kind == "all":
            return host in self.listed or host in self.closed
        return False

    def note(self, kind: str, m: re.Match[str]) -> None:
        host = _host_of(kind, m)
        if kind in _PROBES:
            self.interval = None
        elif kind == "stamp":
            self.interval = set()
        elif kind == "summary":
            if self.interval is not None and host not in self.interval:
                self.interval.add(host)
            else:
                self.closed.add(host)
        elif kind == "all":
            self.listed.add(host)


def locate(lines: list[str]) -> list[Span]:
    """From a line of fping's own (or the ``fping`` command above it) while the lines are
    fping's, blank lines and up to :data:`STRAY_LINES` stray lines between them; a probe line
    of a target whose summary was printed starts the next invocation."""
    spans: list[Span] = []
    i, n = 0, len(lines)
    while i < n:
        kind, m = _kind(lines[i])
        if kind is None and beside_known(lines, i, _name):  # lines run together (unjoin)?
            kind = next((k for k in joined_kinds(lines[i], _name) if k in _OPENS), None)
        if kind not in _OPENS or (kind == "stamp" and not _summary_next(lines, i)):
            i += 1
            continue
        start = command_above(lines, i, spans[-1].end if spans else 0, (TOOL,))
        seen, last, j = _Seen(), i, i
        while j < n:
            line = lines[j]
            kind, m = _kind(line) if line.strip() else ("blank", None)
            if kind == "blank":
                j += 1
                continue
            if kind is None and (parts := unjoin(line, _name)):
                for part in parts:  # lines run together: the parser names it
                    seen.note(*_kind(part))
                last = j
                j += 1
                continue
            if kind is None:
                ahead = [_kind(x)[0] for x in lines[j + 1 : j + 1 + STRAY_LINES] if x.strip()]
                if not any(ahead):
                    break
                j += 1
                continue
            if j > i and seen.next_invocation(kind, m):
                break
            seen.note(kind, m)
            last = j
            j += 1
        spans.append(Span(start, last + 1, TOOL))
        i = last + 1
    return spans


def _summary_next(lines: list[str], i: int) -> bool:
    """Is the next fping line after ``[hh:mm:ss]`` (past stray lines) a summary?"""
    for line in lines[i + 1 : i + 2 + STRAY_LINES]:
        kind = _kind(line)[0] if line.strip() else None
        if kind is not None:
            return kind == "summary"
    return False


# ---------------------------------------------------------------------------------------------
# Parsing.


@dataclass
class _Target:
    host: str
    first: int  # line of its first appearance
    last: int
    probes: list[tuple] = field(default_factory=list)  # seq, status, rtt_us, ns, bytes, msg
    values: list[float] | None = None  # the -C line (NaN: '-')
    values_no: int = 0
    summary: re.Match[str] | None = None
    summary_no: int = 0
    alive: re.Match[str] | None = None
    unreachable: bool = False
    icmp: list[str] = field(default_factory=list)
    intervals: int = 0
    unknown: str | None = None
    again: list[str] = field(default_factory=list)  # a target's one-off line seen twice


# what parse looks for, said when it finds none
_EXPECTED = (
    "'host : [0], 64 bytes, 0.05 ms (0.05 avg, 0% loss)', "
    "'host : xmt/rcv/%loss = ...' or 'host is alive' lines"
)


def parse(text: str, *, source: str | None = None, strict: bool = True) -> Parsed:
    lines, spans = located(text, TOOL, locate, source, _EXPECTED)
    runs: list[Run] = []
    for span in spans:
        runs.extend(_invocation(lines, span, source, strict))
    return Parsed(TOOL, runs)


def _invocation(lines: list[str], span: Span, source: str | None, strict: bool) -> list[Run]:
    targets: dict[str, _Target] = {}
    totals: list[dict[str, tuple[int, str]]] = []  # -s: what → (line, value as printed)
    warnings: list[str] = []
    seen = _Seen()
    for no, pattern, m in known_lines(
        lines,
        span,
        TOOL,
        _pattern,
        _INTEGERS,
        source=source,
        strict=strict,
        warnings=warnings,
        command_first=True,  # the command: the reader keeps it as runs.command
    ):
        kind = _NAMES[pattern]
        if comma := _decimal_comma(m):
            reason = f"expected a '.' decimal point (fping prints C-locale numbers), got {comma!r}"
            if strict:
                raise ParseError(TOOL, source, no, reason)
            warnings.append(f"line {no} skipped: {reason}")
            continue
        interval = seen.interval is not None and kind == "summary"
        interval = interval and m["host"] not in seen.interval
        seen.note(kind, m)
        if kind in ("global", "global_ms", "elapsed"):
            value = m["n"] if kind == "global" else m["ms" if kind == "global_ms" else "s"]
            what = m["what"] if kind != "elapsed" else "elapsed"
            if not totals or what in totals[-1]:
                totals.append({})  # a second -s block (pasted twice): a run of its own
            totals[-1][what] = (no, value)
        elif kind != "stamp":
            host = _host_of(kind, m)
            t = targets.setdefault(host, _Target(host, no, no))
            t.last = no
            _line(t, kind, m, no, interval)
    if not targets:
        raise ParseError(TOOL, source, span.start + 1, "fping output without a target line")
    # fping 5.0+ prints a line for each lost probe ("[1], timed out"); older ones do not
    five = any(p[1] == "timeout" for t in targets.values() for p in t.probes)
    runs = [_run(t, five) for t in targets.values() if not _unresolved(t)]
    if not runs:
        said = "; ".join(f"{t.host}: {t.unknown}" for t in targets.values())
        raise NothingMeasured(
            TOOL,
            source,
            span.start + 1,
            f"fping measured nothing: {said}",
            hint="no target name resolved",
        )
    for t in targets.values():
        if _unresolved(t):  # no run of its own: said on the first one
            runs[0].warnings.append(f"line {t.first}: {t.host}: {t.unknown} (no run)")
    runs.extend([_totals(block, runs) for block in totals])
    runs[0].warnings[:0] = warnings
    return runs


def _decimal_comma(m: re.Match[str]) -> str | None:
    """The first figure of ``m`` printed with a decimal comma, else None."""
    for key in ("ms", "avg", "min", "max", "s", "values"):
        value = m.groupdict().get(key)
        if value and "," in value:
            return value.strip()
    return None


def _unresolved(t: _Target) -> bool:
    return t.unknown is not None and not (t.probes or t.values or t.summary or t.alive)


def _line(t: _Target, kind: str, m: re.Match[str], no: int, interval: bool) -> None:
    ns = decimal_to_ns(m["ts"]) if "ts" in m.groupdict() and m["ts"] else None
    if kind == "reply":
        t.probes.append(
            (int(m["seq"]), "ok", _delay.scaled(m["ms"], 1000), ns, int(m["bytes"]), _src(m))
        )
    elif kind == "timeout":
        t.probes.append((int(m["seq"]), "timeout", np.nan, ns, None, "timed out"))
    elif kind == "dup":
        t.probes.append(
            (
                int(m["seq"]),
                "duplicate",
                _delay.scaled(m["ms"], 1000),
                None,
                int(m["bytes"]),
                _src(m),
            )
        )
    elif kind == "summary":
        if interval:
            t.intervals += 1  # -Q: a window's figures, not kept (the final line covers all)
        else:
            if t.summary is not None and t.summary.group(0).strip() == m.group(0).strip():
                t.again.append(
                    f"line {no}: the same summary of {t.host} as line {t.summary_no}: "
                    "a repeated copy?"
                )
            t.summary, t.summary_no = m, no
    elif kind == "all":
        t.values = [np.nan if v == "-" else _delay.scaled(v, 1000) for v in m["values"].split()]
        t.values_no = no
    elif kind == "alive":
        if t.alive is not None:  # without -c/-l fping reports a target once
            t.again.append(f"line {no}: {t.host} is alive a second time: a repeated copy? (read)")
        t.alive = m
    elif kind == "unreachable":
        t.unreachable = True
    elif kind == "icmp":
        t.icmp.append(f"line {no}: {m['what']} from {m['src']}")
    elif kind == "unknown":
        t.unknown = m["message"]


def _src(m: re.Match[str]) -> str | None:
    return f"reply from {m['src']}" if m["src"] else None


def _run(t: _Target, five: bool) -> Run:
    run = Run(line_start=t.first, line_end=t.last)
    host, ip = host_and_ip(t.host, None)
    counted = t.summary is not None or t.values is not None or bool(t.probes)
    run.meta.update(
        tool=TOOL,
        parser_variant="count" if counted else "alive",
        latency_basis="rtt",
        protocol="icmpv6" if ip and ":" in ip else "icmp",
        dst_host=host,
        dst_ip=ip,
        complete=t.summary is not None
        or t.values is not None
        or t.alive is not None
        or t.unreachable,
    )
    if t.icmp:
        run.meta["errors"] = len(t.icmp)
        run.warnings.extend(t.icmp)  # fping does not say which probe it answered
    run.warnings.extend(t.again)
    if t.intervals:
        run.warnings.append(
            f"{t.intervals} interval summaries (-Q or SIGQUIT) not kept: the final summary "
            "covers every probe"
        )
    _summary(run, t)
    probes = _probes(run, t)
    if probes:
        _samples(run, probes, five)
    if not run.meta["complete"]:
        run.warnings.append(
            f"no summary for {t.host} after line {t.last}: the output was cut before fping finished"
        )
    return run


def _summary(run: Run, t: _Target) -> None:
    m = t.summary
    if m is None and t.values is not None:
        # -C prints no counts: its values are every probe sent, '-' the lost ones
        sent, received = len(t.values), int((~np.isnan(t.values)).sum())
        run.meta.update(
            packets_sent=sent,
            packets_received=received,
            loss_pct=100.0 * (sent - received) / sent if sent else None,
        )
        return
    if m is None:
        if t.alive is not None:
            run.meta["packets_received"] = 1
        elif t.unreachable:
            run.meta["packets_received"] = 0
        return
    sent, received = int(m["sent"]), int(m["received"])
    run.meta.update(packets_sent=sent, packets_received=min(sent, received))
    if m["what"] == "loss":
        # fping prints the loss truncated to a whole percent (7% for 1 of 13): keep the exact
        # figure its own counts give
        run.meta["loss_pct"] = 100.0 * (sent - received) / sent if sent else None
    else:
        run.meta["duplicates"] = received - sent  # '%return': more replies than probes (-l)
    run.add("rtt", "count", received, "count")
    if m["min"] is not None:
        for stat, group in (("min", "min"), ("mean", "avg"), ("max", "max")):
            run.add("rtt", stat, _delay.scaled(m[group], 1000), "us")


def _probes(run: Run, t: _Target) -> list[tuple]:
    """The probes as samples: the probe lines, else the ``-C`` values, else the ``-e`` reply."""
    if t.probes:
        if t.values is not None:
            _check_values(run, t)
        return t.probes
    if t.values is not None:
        return [
            (k, "timeout" if np.isnan(v) else "ok", v, None, None, None)
            for k, v in enumerate(t.values)
        ]
    if t.alive is not None and t.alive["ms"] is not None:
        # '-e': the first reply's time; fping does not say which of its tries it answered
        return [(None, "ok", _delay.scaled(t.alive["ms"], 1000), None, None, _src(t.alive))]
    return []


def _as_probe_line(us: float) -> float:
    """A -C value as a probe line prints it (fping.c ``sprint_tm``: 3, 2, 1 or 0 decimals of
    ms below 1, 10, 100 ms and above); fping before 5.0 printed -C values to 2 decimals."""
    ms = us / 1000
    digits = 3 if ms < 1 else 2 if ms < 10 else 1 if ms < 100 else 0
    return round(round(ms, digits) * 1000, 6)


def _check_values(run: Run, t: _Target) -> None:
    """The -C line repeats the probe lines' values: say where they disagree."""
    shown = {p[0]: p[2] for p in t.probes if p[1] in ("ok", "timeout")}
    differ = [
        k
        for k, v in enumerate(t.values)
        if k in shown
        and not (np.isnan(v) and np.isnan(shown[k]) or shown[k] in (v, _as_probe_line(v)))
    ]
    if differ or len(t.values) != len(shown):
        run.warnings.append(
            f"line {t.values_no}: the -C values disagree with the probe lines at "
            f"{len(differ) + abs(len(t.values) - len(shown))} probes (the probe lines are kept)"
        )


def _data_bytes(run: Run, size: int, five: bool) -> int:
    """The data bytes of a reply of ``size``.  fping 5.0+ prints the ICMP message: 8 bytes
    of header and the data, 64 for the default 56 (ping's "56 data bytes").  Before 5.0 an
    IPv4 reply counted its 20-byte IP header too: the default read "84 bytes".  Only 5.0's
    lines for lost probes tell the versions apart; without them, 84 is read as the old
    default and said."""
    if size == 84 and not five and run.meta["protocol"] == "icmp":
        run.warnings.append(
            "'84 bytes': read as fping before 5.0, which counted the 20-byte IP header (56 "
            "data bytes); from fping 5.0 it would be 76 data bytes (-b 76)"
        )
        return 56
    return size - 8


def _samples(run: Run, probes: list[tuple], five: bool) -> None:
    seq = pd.array([p[0] for p in probes], dtype="Int64")
    status = np.array([p[1] for p in probes], dtype=object)
    rtt = np.array([p[2] for p in probes], dtype=float)
    ok = status == "ok"
    time_ns = pd.array([p[3] for p in probes], dtype="Int64")
    cols = {
        "seq": seq,
        "kind": "reply",
        "status": status,
        "rtt_us": rtt,
        "payload_bytes": pd.array([p[4] for p in probes], dtype="Int64"),
        "message": [p[5] for p in probes],
    }
    if not time_ns.isna().all():
        cols["time_ns"] = time_ns
        cols["rx_time_ns"] = pd.array(
            [p[3] if p[1] == "ok" else None for p in probes], dtype="Int64"
        )
    if not seq.isna().any():
        cols["ipdv_us"] = _delay.ipdv(seq.to_numpy(dtype=np.int64), rtt, ok)
    run.samples = samples_frame(cols)
    sizes = {p[4] for p in probes if p[4] is not None}
    if len(sizes) == 1:
        run.meta["msg_size_bytes"] = _data_bytes(run, sizes.pop(), five)
    dups = int((status == "duplicate").sum())
    if dups:
        run.meta["duplicates"] = dups
    received = run.meta.get("packets_received")
    if received is not None and run.meta.get("parser_variant") == "count" and received != ok.sum():
        run.warnings.append(
            f"the summary counts {received} replies, the output shows {int(ok.sum())}"
        )
    computed_rtt(run, rtt[ok])
    if "ipdv_us" in cols:
        computed(run, "ipdv", cols["ipdv_us"])
    if not seq.isna().any() and not gapless(int(s) for s in seq[status != "duplicate"]):
        run.warnings.append("probe indexes are not consecutive (lines missing?)")


_TOTALS = {
    "targets": "targets",
    "alive": "alive",
    "unreachable": "unreachable",
    "unknown addresses": "unknown_addresses",
    "timeouts (waiting for response)": "timeouts",
    "other ICMP received": "other_icmp",
}


def _totals(totals: dict[str, tuple[int, str]], runs: list[Run]) -> Run:
    """``-s``: a run of its own (``parser_variant = "totals"``), the invocation over every
    target: its elapsed time, the echoes and replies of all targets, and min/avg/max pooled
    over them (metric ``rtt_pooled``: no target's own figure, so no latency basis).  Kept
    apart from the targets' runs, so that an output cut before its ``-s`` block reads as the
    same targets."""
    nos = [no for no, _ in totals.values()]
    run = Run(line_start=min(nos), line_end=max(nos))
    labels = {key: int(totals[what][1]) for what, key in _TOTALS.items() if what in totals}
    run.meta.update(
        tool=TOOL,
        parser_variant="totals",
        mode="totals",
        complete="elapsed" in totals,
        labels=labels,
    )
    if "ICMP Echos sent" in totals:
        run.meta["packets_sent"] = int(totals["ICMP Echos sent"][1])
    if "ICMP Echo Replies received" in totals:
        run.meta["packets_received"] = int(totals["ICMP Echo Replies received"][1])
    if "elapsed" in totals:
        run.meta["duration_s"] = float(totals["elapsed"][1])
    else:
        run.warnings.append(
            f"the -s totals end at line {max(nos)} without 'sec (elapsed real time)': cut short"
        )
    for what, stat in (("min", "min"), ("avg", "mean"), ("max", "max")):
        if what in totals:
            run.add("rtt_pooled", stat, _delay.scaled(totals[what][1], 1000), "us")
    sent = sum(r.meta.get("packets_sent") or 0 for r in runs)
    said = run.meta.get("packets_sent")
    known = all(r.meta.get("packets_sent") is not None for r in runs)
    if said is not None and known and said != sent:
        run.warnings.append(f"-s counts {said} echoes sent, the targets' summaries {sent}")
    return run
