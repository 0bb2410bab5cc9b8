"""Per-probe TCP echo CSV (simonpainter/echo_test ``client/echo_client.py``) and its client log.

The client keeps one TCP connection open, sends a probe every interval and writes one row per
reply::

    packet_num,timestamp,send_time_ns,receive_time_ns,rtt_us
    0,2026-11-21 00:47:42.387199,1795222062387202880,1795222062387918807,715.927

``send_time_ns``/``receive_time_ns`` are ``time.time_ns()`` (UTC, exact integers), ``rtt_us`` a
float, ``timestamp`` a ``datetime.now()`` string: local time without an offset, read as UTC (a
warning says when it is visibly not).  Python's ``csv.writer`` ends rows with CRLF.

When the connection breaks the client logs ``TCP CONNECTION DROP`` with a timestamp; the CSV
just stops.  The log is parsed as its own run (variant ``log``): ``complete=False``, one
``error`` probe per drop (its time, the packet number when the line has one) and a
``connection_drops`` count.  See ``docs/tools/echo_csv.md``.
"""

from __future__ import annotations

import calendar
import math
import re
from concurrent.futures import ThreadPoolExecutor
from functools import lru_cache

import numpy as np
import pandas as pd

from ...decode import decode
from ...errors import ParseError
from .._base import Parsed, Run, Span, ToolInfo
from .._lines import (
    STRAY_LINES,
    THREADS_FROM,
    computed_rtt,
    constant_str,
    in_code_span,
    int64_array,
    run_together,
    samples_frame,
    stray,
)
from . import stdout
from .fast import ROW_PREFIX, read_body
from .stdout import locate as locate_stdout

TOOL = "echo_csv"
HEADER = ("packet_num", "timestamp", "send_time_ns", "receive_time_ns", "rtt_us")
HEADER_LINE = ",".join(HEADER)

INFO = ToolInfo(
    tool=TOOL,
    description=(
        f"TCP echo probe CSV ('{HEADER_LINE}'), its client log ('TCP CONNECTION "
        "DROP') and the client's ping-style output ('ECHO host:port (N bytes of data)')"
    ),
    variants=("csv", "log", "stdout"),
    versions="simonpainter/echo_test client/echo_client.py output format",
    produces=("runs", "samples", "summaries"),
    latency_basis="rtt",
    open_ended=("csv", "log"),
    commands=("echo_client.py",),
)

_BLANK_LINES = re.compile(r"(?:[^\S\n]*\n)*")
_ROWISH = re.compile(r"^\s*\d+\s*,")  # what a (possibly cut) data row starts with
_TS = re.compile(
    r"(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2}):(\d{2})(?:[.,](\d{1,9}))?"
    r"\s*(Z|[+-]\d{2}:?\d{2})?"
)
_FENCE_OR_HEADING = re.compile(r"^\s*(?:```|~~~|#{1,6}\s)")
_DROP = re.compile(r"TCP CONNECTION DROP")  # upper case as the client logs it, not prose
_PACKET = re.compile(r"\bpacket(?:_num)?\s*[#:=]?\s*(\d+)", re.I)
# echo_client.py (eff7dae) logs 'Sending packet #N (64 bytes)...' before each probe and a drop
# without its number: 'TCP CONNECTION DROP: Connection closed by server'.
_SENDING = re.compile(r"\bSending packet #(\d+)")
_CONNECTED = re.compile(r"[Cc]onnected to \[?([\w.:-]+?)\]?:(\d+)\b")


# The reader's hook: the CSV opens on its header (spaces anywhere in it: _is_header), the
# client log on its drop line, the ping-style output on stdout's openers.
OPENERS = (
    re.compile(" *".join(map(re.escape, HEADER_LINE))),
    _DROP,
    *stdout.OPENERS,
)


def _is_header(line: str) -> bool:
    return line.lstrip("\ufeff").strip().replace(" ", "") == HEADER_LINE


_HEADER_START = re.compile(r"^\ufeff?\s*" + OPENERS[0].pattern)


def _run_into(line: str) -> int:
    """Where the first row starts in a header it ran into (a lost line break:
    '...,rtt_us1,2026-11-24 04:35:49.406285,...'), or 0."""
    m = _HEADER_START.match(line)
    return m.end() if m and m.end() < len(line) and isinstance(_row(line[m.end() :]), tuple) else 0


def whole_file(head: str) -> bool:
    """The file is one echo CSV when its first line that is not blank is the header."""
    start = _BLANK_LINES.match(head).end()
    first = head[start:].split("\n", 1)[0].rstrip("\r")
    return _is_header(first) or bool(_run_into(first))


# ---------------------------------------------------------------------------------------------
# Locating the CSV and the log inside documents.


def locate(lines: list[str]) -> list[Span]:
    spans: list[Span] = []
    i, n = 0, len(lines)
    while i < n:
        if _is_header(lines[i]) or _run_into(lines[i]):
            j = i + 1
            while j < n and _ROWISH.match(lines[j]):
                j += 1
            spans.append(Span(i, j, TOOL))
            i = j
        elif (m := _DROP.search(lines[i])) and not in_code_span(lines[i], m.start()):
            # The client log around the drop: its lines all open with a timestamp; a few
            # lines that do not (a kernel message, a note) stay inside when the log goes on
            # after them, and the parser names them.
            start = _log_edge(lines, i, -1, spans[-1].end if spans else 0)
            j = _log_edge(lines, i, 1, n) + 1
            spans.append(Span(start, j, TOOL))
            i = j
        else:
            i += 1

    return spans + locate_stdout(lines, TOOL)


def _log_line(line: str) -> bool:
    m = _TS.match(line.strip())
    return m is not None


# The Python logging client prints its statistics title on a line of its own, without a
# timestamp (the message starts with a newline).
_LOG_OWN = re.compile(r"^\s*--- Echo Client Statistics ---\s*$")


def _log_edge(lines: list[str], i: int, step: int, limit: int) -> int:
    """The last line of the client log from ``lines[i]`` on in direction ``step`` (-1 up, 1
    down), not past ``limit``: past up to :data:`STRAY_LINES` untimestamped lines when a
    timestamped one follows them."""
    edge, k = i, i + step
    while (k >= limit) if step < 0 else (k < limit):
        if _log_line(lines[k]) and not _is_header(lines[k]):
            edge = k
            k += step
            continue
        ahead = [k + d * step for d in range(1, STRAY_LINES + 1)]
        ahead = [x for x in ahead if ((x >= limit) if step < 0 else (x < limit))]
        if not lines[k].strip() or not any(_log_line(lines[x]) for x in ahead):
            break
        if _FENCE_OR_HEADING.match(lines[k]):
            break
        k += step
    return edge


# ---------------------------------------------------------------------------------------------
# Parsing.


def parse(text: str, *, source: str | None = None, strict: bool = True) -> Parsed:
    start = _BLANK_LINES.match(text).end()  # the first line that is not blank
    end = text.find("\n", start)
    head = text[start:] if end < 0 else text[start:end]
    if start == len(text):
        raise ParseError(TOOL, source, None, f"empty input: expected the header '{HEADER_LINE}'")
    first = text.count("\n", 0, start)  # 0-based line of the header
    if joined := _run_into(head.rstrip("\r")):
        run = _parse_csv(text.split("\n"), first, source, strict, joined=joined)
        run.warnings.append(run_together(first + 1, 2, "the echo CSV"))
        return Parsed(TOOL, [run])
    if _is_header(head.rstrip("\r")):
        run = None
        if end >= 0 and len(text) - end > _FAST_BYTES:
            run = _fast_csv(
                text.encode("utf-8", errors="surrogatepass"),
                first,
                len(text[: end + 1].encode("utf-8", errors="surrogatepass")),
            )
        return Parsed(TOOL, [run or _parse_csv(text.split("\n"), first, source, strict)])
    lines = text.split("\n")
    if any(_DROP.search(line) for line in lines):
        return Parsed(TOOL, [_parse_log(lines, source, strict)])

    spans = stdout.locate(lines, TOOL)
    if spans:
        return Parsed(TOOL, [stdout.parse(lines, span, _ECHO, source, strict) for span in spans])
    raise ParseError(
        TOOL,
        source,
        first + 1,
        f"expected the header '{HEADER_LINE}', got {head.strip()[:120]!r}",
        hint="the file is not an echo_client.py CSV, or its columns changed",
    )


# The reader may hand over any big file (BOM, CRLF) to parse_bytes: it cleans its own input.
PARSE_BYTES_CLEANS = True


def parse_bytes(data: bytes, *, source: str | None = None, strict: bool = True) -> Parsed:
    """The reader's path for big files: rows straight from the bytes (UTF-8, with or without
    BOM, LF or CRLF) when well formed; otherwise decoded and read line by line."""
    start = re.match(rb"(?:[ \t\r\f\v]*\n)*", data).end()
    end = data.find(b"\n", start)
    # the header alone (one a row ran into goes line by line: parse)
    if end > 0 and _is_header(data[start:end].decode("utf-8", errors="replace").rstrip("\r")):
        run = _fast_csv(data, data.count(b"\n", 0, start), end + 1)
        if run is not None:
            return Parsed(TOOL, [run])
    return parse(decode(data).text, source=source, strict=strict)


# Below this many bytes of rows the line-by-line parser is as quick as setting up pyarrow.
_FAST_BYTES = 16 * 1024


def _fast_csv(data: bytes, first: int, offset: int) -> Run | None:
    """The run from well-formed rows at ``data[offset:]`` (0-based line ``first + 1``), or None."""
    rows = read_body(data, offset, iso_ns)
    if rows is None:
        return None
    n = len(rows.seq)
    run = Run(line_start=first + 1, line_end=first + 1 + n)
    # Already in the schema's dtypes, around the arrays pyarrow gave (no copy of a column, and
    # no million Python strings for the constant ones), and not copied into the frame (the
    # constructor's copies of 1M probes' columns: 56 ms in a fresh process).
    time_ns = rows.time_ns
    samples = pd.DataFrame(
        {
            "seq": int64_array(rows.seq),
            "kind": constant_str("probe", n),
            "status": constant_str("ok", n),
            "time_ns": int64_array(time_ns)
            if isinstance(time_ns, np.ndarray)
            else pd.array(time_ns, dtype="Int64"),
            "tx_time_ns": int64_array(rows.tx),
            "rx_time_ns": int64_array(rows.rx),
            "rtt_us": rows.rtt,
        },
        copy=False,
    )
    if rows.cut is not None:
        line = rows.cut.decode("utf-8", errors="replace")
        _cut_off(run, first + 2 + len(rows.seq), line)
    # The round trips' statistics (numpy, which lets go of the GIL) on the other core while the
    # checks run: 27 and 28 ms of a million probes, one after the other before.  Not for a
    # short file: handing the GIL between two threads can wait a switch interval (5 ms).
    lines = np.arange(first + 2, first + 2 + n)
    if n < THREADS_FROM:
        _checks(run, samples, lines)
        _csv_meta(run, samples, rtt_summaries=_rtt_summaries(rows.rtt))
        return run
    with ThreadPoolExecutor(1) as pool:
        stats = pool.submit(_rtt_summaries, rows.rtt)
        _checks(run, samples, lines)
        _csv_meta(run, samples, rtt_summaries=stats.result())
    return run


def _rtt_summaries(rtt: np.ndarray) -> list:
    """What :func:`computed_rtt` adds to a run (it has no summaries yet), for ``rtt``."""
    scratch = Run()
    computed_rtt(scratch, rtt)
    return scratch.summaries


def _cut_off(run: Run, line_no: int, line: str) -> None:
    reason = f"expected '{HEADER_LINE}' values, got {line.strip()[:120]!r}"
    run.warnings.append(f"line {line_no}: last row is cut off, dropped ({reason})")
    run.meta["complete"] = False


def _parse_csv(
    lines: list[str], first: int, source: str | None, strict: bool, joined: int = 0
) -> Run:
    """The run of the CSV whose header is ``lines[first]``; ``joined``: where in the header's
    line the first row starts (:func:`_run_into`), 0 when it has a line of its own."""
    run = Run(line_start=first + 1, line_end=first + 1)
    seq, stamps, tx, rx, rtt, where = [], [], [], [], [], []
    last = max(i for i, line in enumerate(lines) if line.strip())
    for i in range(first if joined else first + 1, last + 1):
        line = lines[i].rstrip("\r")[joined if i == first else 0 :]
        if not line.strip():
            continue
        row = _row(line)
        if not isinstance(row, tuple):
            if row is None and i == last and ROW_PREFIX.match(line):
                # a writer cut off mid-row (copied while it ran)
                _cut_off(run, i + 1, line)
                continue
            reason = row or f"expected '{HEADER_LINE}' values, got {line.strip()[:120]!r}"
            if strict:
                raise ParseError(TOOL, source, i + 1, reason)
            run.warnings.append(f"line {i + 1} skipped: {reason}")
            continue
        seq.append(row[0])
        stamps.append(row[1])
        tx.append(row[2])
        rx.append(row[3])
        rtt.append(row[4])
        where.append(i + 1)
        run.line_end = i + 1
    samples = _samples(seq, stamps, tx, rx, rtt)
    _checks(run, samples, where)
    _csv_meta(run, samples)
    return run


def _row(line: str) -> tuple[int, str, int, int, float] | str | None:
    """The values of a data row; None when it is not one (maybe cut off), or why not when
    an integer is beyond int64 (never a cut: a cut makes numbers shorter)."""
    fields = line.split(",")
    if len(fields) != len(HEADER):
        return None
    try:
        row = (int(fields[0]), fields[1].strip(), int(fields[2]), int(fields[3]), float(fields[4]))
    except ValueError:
        return None
    for k in (0, 2, 3):
        if not _fits(row[k]):
            return (
                f"expected {HEADER[k]} (an integer), got {fields[k].strip()!r}: out of "
                "range for int64"
            )
    return row if math.isfinite(row[4]) else None


def _fits(value: int) -> bool:
    """Within int64 (and so within datetime64[ns]: years 1677-2262)."""
    return -(2**63) <= value < 2**63


def _samples(seq, stamps, tx, rx, rtt) -> pd.DataFrame:
    return samples_frame(
        {
            "seq": pd.array(seq, dtype="Int64"),
            "kind": "probe",
            "status": "ok",
            "time_ns": pd.array([iso_ns(s) for s in stamps], dtype="Int64"),
            "tx_time_ns": pd.array(tx, dtype="Int64"),
            "rx_time_ns": pd.array(rx, dtype="Int64"),
            "rtt_us": np.asarray(rtt, dtype=float),
        }
    )


def _checks(run: Run, s: pd.DataFrame, where: list[int]) -> None:
    """Warnings the analyst should see once: bad timestamps, local time, gaps, odd rtt."""
    if not len(s):
        return
    bad_ts = s["time_ns"].isna()
    if bad_ts.any():
        k = int(np.argmax(bad_ts.to_numpy()))
        run.warnings.append(
            f"{int(bad_ts.sum())} timestamps not ISO 'YYYY-MM-DD HH:MM:SS[.f]' (first at line "
            f"{where[k]}): time_ns left empty"
        )
    offset = _median(s["time_ns"] - s["tx_time_ns"])
    if pd.notna(offset) and abs(offset) > 60e9:
        run.warnings.append(
            f"timestamp column is {offset / 3.6e12:+.2f} h from send_time_ns: it is probably "
            "local time (read as UTC); tx_time_ns/rx_time_ns hold the exact UTC times"
        )
    derived = (s["rx_time_ns"] - s["tx_time_ns"]).astype("float64") / 1000.0
    off = ((derived - s["rtt_us"]).abs() > 1.0).to_numpy()
    if off.any():
        k = int(np.argmax(off))
        run.warnings.append(
            f"{int(off.sum())} rows have rtt_us more than 1 us away from receive_time_ns - "
            f"send_time_ns (first at line {where[k]})"
        )
    steps = np.diff(s["seq"].to_numpy(dtype="int64"))
    if len(steps) and (steps != 1).any():
        k = int(np.argmax(steps != 1))
        run.warnings.append(
            f"packet_num is not consecutive in {int((steps != 1).sum())} places (first after "
            f"packet {int(s['seq'].iloc[k])}, line {where[k]})"
        )


def _median(values: pd.Series) -> float:
    """``values.median()`` of an Int64 column, NA left out (NaN when nothing is left): numpy's
    median of the valid values, the same number without pandas' float copy, flatten and NaN
    scan (39 ms of a million probes in a fresh process, 10 ms so)."""
    valid = values.notna().to_numpy()
    data = values.to_numpy(dtype="int64", na_value=0)
    if not valid.all():
        data = data[valid]
    return float(np.median(data)) if len(data) else math.nan


# What the CSV and the client's log both are: one TCP connection probed by the client.
_ECHO = {"tool": TOOL, "mode": "echo", "protocol": "tcp", "role": "client", "latency_basis": "rtt"}


def _csv_meta(run: Run, s: pd.DataFrame, rtt_summaries: list | None = None) -> None:
    """The run's meta from its samples ``s``, and its computed rtt statistics (given as
    ``rtt_summaries`` when they were computed already)."""
    meta = run.meta
    meta.update(_ECHO, parser_variant="csv", packets_received=len(s))
    meta.setdefault("complete", True)
    run.samples = s
    if not len(s):
        meta["complete"] = False
        run.warnings.append("no probe rows after the header (no reply was received)")
        return
    tx, rx = s["tx_time_ns"], s["rx_time_ns"]
    meta["start_time"] = pd.Timestamp(int(tx.min()), unit="ns", tz="UTC")
    meta["duration_s"] = (int(rx.max()) - int(tx.min())) / 1e9
    if rtt_summaries is None:
        computed_rtt(run, s["rtt_us"].to_numpy(dtype=float))
    else:
        run.summaries.extend(rtt_summaries)


# ---------------------------------------------------------------------------------------------
# Timestamps: exact integer ns, no float on the way.


@lru_cache(maxsize=4096)
def _day_s(y: int, mo: int, d: int) -> int:
    return calendar.timegm((y, mo, d, 0, 0, 0))


def iso_ns(text: str) -> int | None:
    """``'2026-11-21 00:47:42.387199'`` → ns since the epoch; no offset means UTC."""
    m = _TS.fullmatch(text.strip())
    if not m:
        return None
    y, mo, d, h, mi, sec, frac, tz = m.groups()
    if not 1678 <= int(y) <= 2261:  # what integer ns since 1970 (int64) can hold
        return None
    if not (
        1 <= int(mo) <= 12
        and 1 <= int(d) <= calendar.monthrange(int(y), int(mo))[1]
        and int(h) <= 23
        and int(mi) <= 59
        and int(sec) <= 59
    ):
        return None  # 30 February, second 60: datetime.now() never writes them
    secs = _day_s(int(y), int(mo), int(d)) + int(h) * 3600 + int(mi) * 60 + int(sec)
    if tz and tz != "Z":
        sign = -1 if tz[0] == "-" else 1
        hh, mm = int(tz[1:3]), int(tz[-2:])
        secs -= sign * (hh * 3600 + mm * 60)
    return secs * 1_000_000_000 + int((frac or "").ljust(9, "0"))


# ---------------------------------------------------------------------------------------------
# The client's log: connection drops.


def _parse_log(lines: list[str], source: str | None, strict: bool = True) -> Run:
    run = Run(line_start=1, line_end=len(lines))
    meta = run.meta
    meta.update(_ECHO, parser_variant="log")
    drops: list[dict] = []
    sending = None  # the probe last sent, where the log says so
    for no, line in enumerate(lines, start=1):
        if line.strip() and not _log_line(line) and not _LOG_OWN.match(line):
            stray(TOOL, source, no, line, strict, run.warnings)
            continue
        m = _CONNECTED.search(line)
        if m and "dst_ip" not in meta and int(m.group(2)) < 65536:  # a port, not noise
            meta["dst_ip"], meta["port"] = m.group(1), int(m.group(2))
        ts = _TS.search(line)
        if ts is not None and "start_time" not in meta and iso_ns(ts.group(0)) is not None:
            meta["start_time"] = pd.Timestamp(iso_ns(ts.group(0)), unit="ns", tz="UTC")
        sent = _SENDING.search(line)
        if sent:
            sending = sent.group(1)
        if not _DROP.search(line):
            continue
        time_ns = iso_ns(ts.group(0)) if ts else None
        packet = _PACKET.search(line[_DROP.search(line).end() :])
        message = line[_DROP.search(line).start() :].strip()
        number = packet.group(1) if packet else sending  # the probe the drop cut off
        seq = int(number) if number is not None else None
        if seq is not None and not _fits(seq):
            reason = f"expected 'packet <n>', got {packet.group(1)!r}: out of range for int64"
            if strict:
                raise ParseError(TOOL, source, no, reason)
            run.warnings.append(f"line {no}: {reason}; the drop is kept without its packet")
            seq = None
        drops.append({"seq": seq, "time_ns": time_ns, "message": message})
        when = ts.group(0).strip() if ts else "an unknown time"
        run.warnings.append(f"TCP connection dropped at {when} (line {no}): {message}")
    meta["complete"] = not drops
    run.add("connection_drops", "count", len(drops), "count")
    run.samples = samples_frame(
        {
            "seq": pd.array([d["seq"] for d in drops], dtype="Int64"),
            "kind": "probe",
            "status": "error",
            "time_ns": pd.array([d["time_ns"] for d in drops], dtype="Int64"),
            "message": [d["message"] for d in drops],
        }
    )
    return run
