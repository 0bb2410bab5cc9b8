"""NTttcp.exe console text (Windows, 5.3x).

No Windows console capture is public (corpus/SOURCES.md); the shape below is NTttcp's
documented output, and the fixture built from it is labelled "reconstructed"::

    Copyright Version 5.33
    Network activity progressing...

    Thread  Time(s) Throughput(KB/s) Avg B / Compl
    ======  ======= ================ =============
         0   30.001       103633.346     65536.000

    #####  Totals:  #####

       Bytes(MEG)    realtime(s) Avg Frame Size Throughput(MB/s)
    ================ =========== ============== ================
         6036.125000      30.001       1459.940          201.197
    ...

Every table is a header line, an underline of ``=`` runs (one per column) and value rows,
so tables are read by their headers, not by their position: a column a version adds or drops
changes nothing else.  Windows' KB and MEG are 2^10 and 2^20 bytes (the 5.35 XML in the corpus
shows it), so ``Throughput(KB/s)`` × 8192 is bits/s.
"""

from __future__ import annotations

import re
from decimal import Decimal

from ...errors import ParseError
from .._lines import STRAY_LINES, command_of, stray
from .._ranges import int64
from .totals import NAMES, TOOL, TOTALS, Totals, command_meta, dec

_UNDERLINE = re.compile(r"^\s*=+(?:\s+=+)*\s*$")
# (the next line run into it by a lost line break is not the version's: 'Copyright Version
# 5.33Network activity progressing...')
_VERSION = re.compile(r"^\s*Copyright Version\s+(\S+?)(?=Network activity|\s|$)")
_NUMERIC_ROW = re.compile(r"^\s*-?[0-9][0-9.]*(?:\s+-?[0-9][0-9.]*)*\s*$")
_KNOWN = re.compile(r"^\s*(?:Copyright Version|Network activity progressing|Thread\s+Time\(s\))")
_NOT_HEADER = re.compile(r"^\s*(?:Copyright Version|Network activity progressing)")
_KIB, _MIB = Decimal(1024), Decimal(2**20)
_CLOSING = {"Errors", "Avg. CPU %"}  # columns of the table NTttcp prints last
# Totals columns -> (metric, stat, unit, factor); None metric: handled by name below.
_COLUMNS = {
    "Avg Frame Size": ("frame_size", "mean", "bytes", 1),
    "Throughput(Buffers/s)": ("buffers_per_s", "mean", "1/s", 1),
    "Buffers": ("buffers", "total", "count", 1),
    "DPCs(count/s)": ("dpcs_per_s", "mean", "1/s", 1),
    "Pkts(num/DPC)": ("packets_per_dpc", "mean", "ratio", 1),
    "Intr(count/s)": ("interrupts_per_s", "mean", "1/s", 1),
    "Pkts(num/intr)": ("packets_per_interrupt", "mean", "ratio", 1),
}
_HANDLED = {
    "Bytes(MEG)",
    "realtime(s)",
    "Throughput(MB/s)",
    "Throughput(Mbit/s)",
    "Cycles/Byte",
    "Packets Sent",
    "Packets Received",
    "Retransmits",
    "Errors",
    "Avg. CPU %",
}


def _underline_at(lines: list[str], k: int) -> int | None:
    """The underline of a table whose header is ``lines[k]``: the next line, or the one after
    a stray line.  A header names at least one column NTttcp prints; a line above a header
    (a kernel message) is not one."""
    if not _KNOWN_COLUMN.search(lines[k]):
        return None
    if k + 1 < len(lines) and _UNDERLINE.match(lines[k + 1]):
        return k + 1
    if (
        k + 2 < len(lines)
        and _UNDERLINE.match(lines[k + 2])
        and lines[k + 1].strip()
        and not _KNOWN_COLUMN.search(lines[k + 1])
    ):
        return k + 2  # a stray line ('12.5', a kernel message) between header and underline
    return None


# Every column NTttcp prints (5.28-5.40): a table header names some of them.
_KNOWN_COLUMN = re.compile(
    "|".join(
        re.escape(c)
        for c in (*_COLUMNS, *_HANDLED, "Thread", "Time(s)", "Throughput(KB/s)", "Avg B / Compl")
    )
)


def _own(lines: list[str], k: int) -> bool:
    line = lines[k]
    return bool(
        not line.strip()
        or _UNDERLINE.match(line)
        or _NUMERIC_ROW.match(line)
        or TOTALS.search(line)
        or _KNOWN.match(line)
        or _underline_at(lines, k)
    )


def extend_windows(lines: list[str], i: int) -> int:
    """End (exclusive) of the NTttcp.exe output that opens at ``lines[i]``: it goes on past
    :data:`STRAY_LINES` stray lines when its own lines follow (not a new ``Copyright``)."""
    k = i + 1
    while k < len(lines):
        if not _own(lines, k):
            nxt = next(
                (
                    j
                    for j in range(k + 1, min(k + 1 + STRAY_LINES, len(lines)))
                    if lines[j].strip() and _own(lines, j)
                ),
                None,
            )
            if nxt is None or _VERSION.match(lines[nxt]):
                break
        k += 1
    while k > i + 1 and not lines[k - 1].strip():
        k -= 1
    return k


# The titles NTttcp.exe prints over its tables (5.28-5.40), to read a header whose columns a
# copy collapsed (a web page outside <pre>: 'Bytes(MEG) realtime(s) Avg Frame Size ...').
_TITLES = (
    "Thread", "Time(s)", "Throughput(KB/s)", "Avg B / Compl", "Bytes(MEG)", "realtime(s)",
    "Avg Frame Size", "Throughput(MB/s)", "Throughput(Buffers/s)", "Cycles/Byte", "Buffers",
    "DPCs(count/s)", "Pkts(num/DPC)", "Intr(count/s)", "Pkts(num/intr)", "Packets Sent",
    "Packets Received", "Retransmits", "Errors", "Avg. CPU %",
)  # fmt: skip


def _columns(header: str, underline: str) -> list[str]:
    """Column names: the header cut where each ``=`` run starts (headers are right-aligned
    over their underline, so a name never starts before its run); where that cuts a title
    apart and the header is a run of NTttcp's titles, one a run, those titles."""
    starts = [m.start() for m in re.finditer(r"=+", underline)]
    bounds = starts[1:] + [max(len(header), len(underline))]
    names = [header[a:b].strip() for a, b in zip([0] + starts[1:], bounds)]
    if all(n in _TITLES for n in names):
        return names
    titled = _titled(header)
    return titled if titled is not None and len(titled) == len(starts) else names


def _cut_row(row: str, underline: str, names: list[str]) -> str | None:
    """Why the last ``row`` of a table was cut inside (it stops before its underline: values
    are right-aligned under their runs), or None.  A row whose runs of spaces a copy made
    one has no alignment left to tell by."""
    if "  " not in row.strip() or len(row.rstrip()) >= len(underline.rstrip()):
        return None
    return (
        f"cut short? the row stops at column {len(row.rstrip())}, its table "
        f"({' | '.join(names)}) at {len(underline.rstrip())}: not read"
    )


# the titles as words, the longest first ('Avg Frame Size' before a title of one word)
_TITLE_WORDS = sorted((t.split() for t in _TITLES), key=len, reverse=True)


def _titled(header: str) -> list[str] | None:
    """``header`` read as NTttcp's titles one after another (the longest first), or None."""
    words, out = header.split(), []
    while words:
        title = next((t for t in _TITLE_WORDS if words[: len(t)] == t), None)
        if title is None:
            return None
        out.append(" ".join(title))
        words = words[len(title) :]
    return out


def _tables(
    lines: list[str],
    source: str | None,
    strict: bool = True,
    cut: list[tuple[int, str]] | None = None,
) -> list[tuple[int, int, list[str], list[tuple[int, list[str]]]]]:
    """(header line, underline line, column names, [(line, values)]) of every table; a
    stray line between the header and its underline, or between rows, is looked past.

    Values are right-aligned under their ``=`` runs, so a last line that stops short of its
    underline is a row cut inside (``31.3`` of ``31.30``): a located ParseError, or (lenient)
    a warning and the row left unread — never a shorter number."""
    out = []
    last = max((i for i, x in enumerate(lines) if x.strip()), default=-1)
    k = 0
    while k < len(lines) - 1:
        # NTttcp 5.28 prints its tables right under '#####  Totals:  #####' and 'Network
        # activity progressing...', with no blank line: NTttcp's own lines are never a header
        # (nor a stray line above one).
        header = lines[k].strip() and not (
            _UNDERLINE.match(lines[k])
            or _NUMERIC_ROW.match(lines[k])
            or TOTALS.search(lines[k])
            or _NOT_HEADER.match(lines[k])
        )
        under = _underline_at(lines, k) if header else None
        if under is None:
            k += 1
            continue
        names = _columns(lines[k], lines[under])
        rows = []
        j = under + 1
        while j < len(lines):
            if not _NUMERIC_ROW.match(lines[j]):
                if (
                    j + 1 < len(lines)
                    and lines[j].strip()
                    and not _own(lines, j)
                    and _NUMERIC_ROW.match(lines[j + 1])
                ):
                    j += 1  # a stray line between rows
                    continue
                break
            values = lines[j].split()
            if j == last and (reason := _cut_row(lines[j], lines[under], names)):
                if strict:
                    raise ParseError(TOOL, source, j + 1, reason)
                if cut is not None:
                    cut.append((j + 1, reason))
                j += 1
                break
            if len(values) != len(names):
                reason = (
                    f"expected {len(names)} values under {' | '.join(names)}, got {len(values)}"
                )
                if strict or cut is None:
                    raise ParseError(TOOL, source, j + 1, reason)
                cut.append((j + 1, reason))  # a stray number ('12.5') among the rows: named
                j += 1
                continue
            rows.append((j + 1, values))
            j += 1
        out.append((k + 1, under + 1, names, rows))
        k = j
    return out


def parse_windows(lines: list[str], source: str | None, strict: bool) -> list[Totals]:
    t = Totals(variant="console-windows", os="windows")
    first = next((i for i, x in enumerate(lines) if x.strip()), 0)
    t.line_start = first + 1
    t.line_end = max((i + 1 for i, x in enumerate(lines) if x.strip()), default=1)
    at, command = next(
        ((k, c) for k, c in enumerate(command_of(x, NAMES)[0] for x in lines[:3]) if c), (0, None)
    )
    try:
        cmd = command_meta(command, source, at + 1)
    except ParseError as exc:
        if strict:
            raise
        t.warnings.append(f"line {at + 1} skipped: {exc.reason}")
        cmd = {}
    t.role = cmd.pop("role", None)
    t.meta.update(cmd)
    for line in lines:
        m = _VERSION.match(line)
        if m:
            t.version = m.group(1)
    seen_totals = any(TOTALS.search(x) for x in lines)
    cut: list[tuple[int, str]] = []
    tables = _tables(lines, source, strict, cut)
    read = {at} if command is not None else set()
    for header, under, _names, rows in tables:
        read.update((header - 1, under - 1, *(no - 1 for no, _ in rows)))
    read.update(no - 1 for no, _ in cut)  # the cut row: warned about below
    for k, line in enumerate(lines):
        if (
            k not in read
            and line.strip()
            and not (TOTALS.search(line) or _KNOWN.match(line) or _UNDERLINE.match(line))
        ):
            stray(TOOL, source, k + 1, line, strict, t.warnings)
    _read_tables(t, tables, source, strict)
    t.warnings.extend(f"line {no} skipped: {reason}" for no, reason in cut)
    _empty_threads(t)
    if not seen_totals or t.bits_per_second is None:
        t.complete = False
        t.warnings.append(
            "no '#####  Totals:  #####' tables: NTttcp did not finish or the log was cut"
        )
    elif not any(_CLOSING & set(names) and rows for _h, _u, names, rows in tables):
        # NTttcp prints the Packets/Retransmits/Errors/CPU table last.
        t.complete = False
        t.warnings.append(
            f"cut short? no 'Packets Sent ... Errors  Avg. CPU %' table after line "
            f"{t.line_end}: the Totals tables are incomplete"
        )
    return [t]


def _number(value: str, name: str, no: int, source: str | None) -> Decimal:
    out = dec(value)
    if out is None:
        raise ParseError(TOOL, source, no, f"expected a number under {name!r}, got {value!r}")
    return out


def _empty_threads(t: Totals) -> None:
    """NTttcp 5.40's per-thread bug (microsoft/ntttcp issue 24): a thread of a test that moved
    data printed as ``0    0.000    0.000``.  Such a row is no measurement: status ``error``."""
    if not t.total_bytes:
        return
    empty = [r for r in t.thread_rows if r.get("end_s") == 0 and not r.get("bits_per_second")]
    for row in empty:
        row["status"] = "error"
    if empty:
        t.warnings.append(
            f"{len(empty)} of {len(t.thread_rows)} threads print 0.000 s at 0 KB/s while the "
            f"totals show {t.total_bytes} bytes: their rows are kept as errors, not measurements"
        )


def _threads(t: Totals, names: list[str], rows, source: str | None) -> None:
    col = {name: i for i, name in enumerate(names)}
    t.threads = len(rows)
    for no, values in rows:
        index = values[col["Thread"]]
        seq = int64(
            _number(index, "Thread", no, source),
            tool=TOOL,
            source=source,
            line_no=no,
            what="a thread number under 'Thread'",
            text=index,
        )
        row = {"seq": seq, "kind": "thread", "status": "ok", "stream": index, "start_s": 0.0}
        if "Time(s)" in col:
            row["end_s"] = float(_number(values[col["Time(s)"]], "Time(s)", no, source))
        if "Throughput(KB/s)" in col:
            kbs = _number(values[col["Throughput(KB/s)"]], "Throughput(KB/s)", no, source)
            row["bits_per_second"] = float(kbs * _KIB * 8)
        t.thread_rows.append(row)


def _read_tables(t: Totals, tables: list, source: str | None, strict: bool) -> None:
    """The thread table and the totals' first rows into ``t``, each column once."""
    read_at: dict[str, int] = {}  # a column (or the thread table) → the line it was read on
    for line_no, _under, names, rows in tables:
        if names[:1] == ["Thread"]:
            if not _again(t, ["Thread"], line_no, read_at):
                _threads(t, names, rows, source)
            continue
        for no, values in rows[:1]:
            again = _again(t, names, no, read_at)
            for name, value in zip(names, values):
                if name not in again:
                    _total(t, name, value, no, source, strict)


def _again(t: Totals, names: list[str], no: int, read_at: dict[str, int]) -> set[str]:
    """The columns of ``names`` (``["Thread"]``: the thread table) read already, on another
    line.  NTttcp prints each once, so a second one is a pasted copy or another run's: it is
    named in one warning and not read twice."""
    again = {n for n in names if n in read_at}
    if again:
        first = min(read_at[n] for n in again)
        if again == {"Thread"}:
            what = "the thread table"
        elif again == set(names):
            what = "the totals table"
        else:
            what = "the totals " + ", ".join(repr(n) for n in names if n in again)
        t.warnings.append(f"line {no}: {what} again (read on line {first}); not read twice")
    read_at.update((n, no) for n in names if n not in again)
    return again


def _total(t: Totals, name: str, value: str, no: int, source: str | None, strict: bool) -> None:
    if name not in _COLUMNS and name not in _HANDLED:
        t.warnings.append(f"line {no}: unknown NTttcp column {name!r} ({value}) not read")
        return
    try:
        x = _number(value, name, no, source)
        if name == "Bytes(MEG)":
            n = _count((x * _MIB).to_integral_value(), name, value, no, source)
        elif name in _COUNTS:
            n = _count(x, name, value, no, source)
    except ParseError as exc:
        if strict:
            raise
        t.warnings.append(f"line {no} skipped: {exc.reason}")
        return
    if name in _COLUMNS:
        metric, stat, unit, factor = _COLUMNS[name]
        t.extra.append((metric, stat, float(x * factor), unit))
    elif name == "Bytes(MEG)":
        t.total_bytes = n
    elif name == "realtime(s)":
        t.duration_s = float(x)
    elif name == "Throughput(MB/s)":  # unless a Mbit/s column came first
        if t.bits_per_second is None:
            t.bits_per_second = float(x * _MIB * 8)
    elif name == "Throughput(Mbit/s)":  # more digits than MB/s when a version prints it
        t.bits_per_second = float(x * 10**6)
    elif name == "Cycles/Byte":
        t.cpu["cycles_per_byte"] = float(x)
    elif name == "Avg. CPU %":
        t.cpu["cpu_avg"] = float(x)
    elif name == "Retransmits":
        t.retransmits = n
    else:
        t.meta[_COUNTS[name]] = n


# Count columns (int64 in the tables), and the run column each fills.
_COUNTS = {
    "Retransmits": "retransmits",
    "Packets Sent": "packets_sent",
    "Packets Received": "packets_received",
    "Errors": "errors",
}


def _count(x: Decimal, name: str, text: str, no: int, source: str | None) -> int:
    return int64(x, tool=TOOL, source=source, line_no=no, what=f"a count under {name!r}", text=text)
