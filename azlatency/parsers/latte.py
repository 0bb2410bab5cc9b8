"""latte (Microsoft's Windows latency tool, ``latte.exe``).

latte prints no version.  Its output is a key/value summary::

    Protocol      UDP
    ...
    Iterations    100100
    Latency(usec) 224.79
    CPU(%)        11.3
    CtxSwitch/sec 2164     (0.62/iteration)

then, with ``-hist``, an ``Interval(usec)   Frequency`` table (one row per bucket, the first
column is the bucket's lower edge).  With ``-csv`` the same summary comes as one comma-separated
row; ``-csvh`` adds a header row.  No public ``-csv`` capture exists (corpus/SOURCES.md), so that
dialect is reconstructed: see ``docs/tools/latte.md`` for what is assumed.

Basis: ``Latency(usec)`` is the mean round trip; ``-hrtt`` makes it half of it.  Only the
command line can tell, so without one the run says ``rtt`` (the default) and a warning says it
was assumed.  A block with the settings but no ``Latency(usec)`` line is a run that had not
finished when the log was taken (seed 002 shows one): it is kept with ``complete=False``.
"""

from __future__ import annotations

import math
import re
import shlex
from fractions import Fraction

import numpy as np

from ..errors import ParseError
from ._base import Parsed, Run, Span, ToolInfo
from ._lines import command_above, command_of, integer, number, samples_frame

INFO = ToolInfo(
    tool="latte",
    description="latte.exe summary ('Latency(usec)'), -hist histogram, -csv/-csvh rows",
    variants=("text", "text-hist", "csv", "csvh"),
    versions="latte.exe builds linked from the Azure docs (2017-2021); no version is printed",
    produces=("runs", "samples", "summaries"),
    flags="-hist (histogram samples); -hrtt changes the basis to half_rtt",
    latency_basis="rtt",
    open_ended=("csv", "csvh"),
)

TOOL = "latte"
# The summary keys in the order latte prints them; -csv uses the same order (assumed).
KEYS = (
    "Protocol",
    "SendMethod",
    "ReceiveMethod",
    "SO_SNDBUF",
    "SO_RCVBUF",
    "MsgSize(byte)",
    "Iterations",
    "Latency(usec)",
    "CPU(%)",
    "CtxSwitch/sec",
    "SysCall/sec",
    "Interrupt/sec",
)
_KEY_SET = frozenset(KEYS)
_KV = re.compile(r"^\s*(" + "|".join(re.escape(k) for k in KEYS) + r")(?:\s+(.*?))?\s*$")
_HIST_HEADER = re.compile(r"^\s*Interval\(usec\)\s+Frequency\s*$")
_HIST_ROW = re.compile(r"^\s*(\d{1,18})\s+(\d{1,18})\s*$")  # 18 digits: within int64
_HIST_LONG = re.compile(r"^\s*\d+\s+\d+\s*$")  # a row with a longer number: beyond int64
_PER_ITER = re.compile(r"^(\S+)\s*\(\s*(\S+?)\s*/\s*iteration\s*\)$")
# A headerless -csv row: the twelve fields of KEYS, protocol first, the counts where the text
# output has them (a looser pattern would claim other CSV tables in notes).
_CSV_ROW = re.compile(
    r"^\s*(?:TCP|UDP)\s*,[^,]*,[^,]*,[^,]*,[^,]*,\s*\d+\s*,\s*\d+\s*(?:,[^,]*){5}$", re.I
)
_CSV_LOOSE = re.compile(r"^\s*(?:TCP|UDP)\s*,", re.I)  # a row under a -csvh header
_COUNTERS = {
    "CtxSwitch/sec": "context_switches",
    "SysCall/sec": "syscalls",
    "Interrupt/sec": "interrupts",
}
# Percentiles read off the histogram; each is kept only when n * (1 - q) >= 1.
PERCENTILES = ("50", "90", "99", "99.9", "99.99", "99.999")


def _is_header(line: str) -> bool:
    fields = [f.strip() for f in line.split(",")]
    return (
        len(fields) > 1
        and fields[0].lstrip("\ufeff") == "Protocol"
        and all(f in _KEY_SET for f in fields)
    )


def _is_start(line: str) -> bool:
    m = _KV.match(line.lstrip("\ufeff"))
    if m and m.group(1) == "Protocol" and m.group(2):
        return True
    return _is_header(line) or bool(_CSV_ROW.match(line.lstrip("\ufeff")))


def _is_command(line: str) -> bool:
    return command_of(line, ("latte",))[0] is not None


def locate(lines: list[str]) -> list[Span]:
    """Each output opens at ``Protocol <x>`` (or a -csv row / -csvh header), with the latte
    command line above it when there is one, and runs while lines are summary keys,
    the histogram, or blank lines that lead to the histogram.  Prose stops it."""
    spans: list[Span] = []
    i, n, prev_end = 0, len(lines), 0
    while i < n:
        if not _is_start(lines[i]):
            i += 1
            continue
        start = _command_above(lines, i, prev_end)
        end = _extend(lines, i)
        spans.append(Span(start, end, TOOL))
        i = prev_end = end
    return spans


def _command_above(lines: list[str], i: int, floor: int) -> int:
    """``i``, or the line of the latte command above it: the parser needs the command for
    the role and the basis (-hrtt)."""
    return command_above(lines, i, floor, ("latte",))


def _extend(lines: list[str], i: int) -> int:
    """End (exclusive) of the output that opens at ``lines[i]``."""
    csv = "," in lines[i]
    row = _CSV_LOOSE if _is_header(lines[i]) else _CSV_ROW  # the header says how many fields
    in_hist = False
    k = i + 1
    while k < len(lines):
        line = lines[k]
        m = _KV.match(line)
        if csv:
            if not row.match(line):
                break
        elif m and m.group(1) != "Protocol":
            pass
        elif _HIST_HEADER.match(line):
            in_hist = True
        elif in_hist and _HIST_LONG.match(line):  # a row too long for int64 too: parse says so
            pass
        elif not line.strip():
            nxt = next((j for j in range(k + 1, len(lines)) if lines[j].strip()), None)
            if nxt is None or in_hist or not _HIST_HEADER.match(lines[nxt]):
                break
        else:
            break
        k += 1
    return k


# ---------------------------------------------------------------------------------------------
# Parsing one block (it may hold several runs when a whole file is given).


class _Block:
    """One latte output being read: settings, figures, histogram rows."""

    def __init__(self, line_no: int, command: str | None = None) -> None:
        self.start = line_no
        self.end = line_no
        self.command = command
        self.values: dict[str, tuple[str, int]] = {}  # key -> (raw text, line)
        self.variant = "text"
        self.hist_line: int | None = None
        self.hist: list[tuple[int, int, int]] = []  # (label, count, line)
        self.warnings: list[str] = []

    def empty(self) -> bool:
        return not self.values and self.hist_line is None


def parse(text: str, *, source: str | None = None, strict: bool = True) -> Parsed:
    blocks = [b for b in _blocks(text, source, strict) if not b.empty()]
    if not blocks:
        # located at the last line: the output ends (or was cut) before a summary or CSV row
        last = max((i for i, x in enumerate(text.split("\n"), 1) if x.strip()), default=None)
        raise ParseError(
            TOOL,
            source,
            last,
            "no latte output found (expected 'Protocol', 'Latency(usec)', ... lines or a -csv row)",
        )
    return Parsed(TOOL, [_run(b, source, strict) for b in blocks])


def _blocks(text: str, source: str | None, strict: bool) -> list[_Block]:
    """The outputs in ``text``, one block each (some may be empty)."""
    blocks: list[_Block] = []
    cur: _Block | None = None
    header: list[str] | None = None
    for no, raw in enumerate(text.split("\n"), start=1):
        line = raw.lstrip("\ufeff").rstrip()
        if not line.strip():
            continue
        if cur is not None and cur.hist_line is not None:  # 10,000 rows: the hot path
            hm = _HIST_ROW.match(line)
            if hm:
                cur.hist.append((int(hm.group(1)), int(hm.group(2)), no))
                cur.end = no
                continue
        cmd = command_of(line, ("latte",))[0]
        if cmd is not None:
            cur = _Block(no, cmd)
            blocks.append(cur)
            continue
        m = _KV.match(line)
        if m and m.group(2) is not None:
            if cur is None or (m.group(1) in cur.values) or cur.hist_line is not None:
                cur = _Block(no)
                blocks.append(cur)
            cur.values[m.group(1)] = (m.group(2), no)
            cur.end = no
        elif _is_header(line):
            header = [f.strip().lstrip("\ufeff") for f in line.split(",")]
            if cur is None or not cur.empty():
                cur = _Block(no, None)
                blocks.append(cur)
            cur.variant, cur.end = "csvh", no
        elif _CSV_ROW.match(line) or (header and _CSV_LOOSE.match(line)):
            if cur is None or not cur.empty():
                cur = _Block(no)
                blocks.append(cur)
            # A -csvh header stays in force for the rows after it (outputs appended to one file).
            cur.variant = "csvh" if header else "csv"
            _csv_values(cur, line, no, header, source)
            cur.end = no
        elif cur is not None and _HIST_HEADER.match(line):
            cur.hist_line, cur.end = no, no
        else:
            _unknown(cur, line, no, source, strict)
    return blocks


def _unknown(cur: _Block | None, line: str, no: int, source: str | None, strict: bool) -> None:
    """A line that is not latte's: a ParseError, or (lenient, inside a block) a skip."""
    reason = f"expected a latte summary line ('Key value'), got {line.strip()[:80]!r}"
    if cur is not None and cur.hist_line is not None and _HIST_LONG.match(line):
        reason = (
            f"expected a histogram row '<usec> <count>' within int64, got "
            f"{line.strip()[:80]!r}: out of range for int64"
        )
    if strict or cur is None:
        raise ParseError(TOOL, source, no, reason)
    cur.warnings.append(f"line {no} skipped: {reason}")


def _csv_values(
    block: _Block, line: str, no: int, header: list[str] | None, source: str | None
) -> None:
    fields = [f.strip() for f in line.split(",")]
    names = header or list(KEYS)
    if len(fields) != len(names):
        raise ParseError(
            TOOL,
            source,
            no,
            f"expected {len(names)} comma-separated fields ({', '.join(names)}), got {len(fields)}",
        )
    for name, value in zip(names, fields):
        block.values[name] = (value, no)


def _run(block: _Block, source: str | None, strict: bool) -> Run:
    run = Run(line_start=block.start, line_end=block.end, warnings=list(block.warnings))
    meta = run.meta
    meta.update(tool=TOOL, os="windows", mode="ping-pong")
    variant = block.variant + ("-hist" if block.hist_line is not None else "")
    meta["parser_variant"] = variant
    basis = _command_meta(block.command, meta, run)
    v = block.values

    def num(key: str, what: str) -> float | None:
        return None if key not in v else _finite(v[key][0], v[key][1], what, source)

    def count(key: str, what: str) -> int | None:
        if key not in v:
            return None
        try:
            value = integer(v[key][0], tool=TOOL, source=source, line_no=v[key][1], what=what)
            if value < 0:
                raise ParseError(TOOL, source, v[key][1], f"expected {what}, got {v[key][0]!r}")
        except ParseError as exc:
            if strict:
                raise
            run.warnings.append(f"line {v[key][1]} skipped: {exc.reason}")
            return None
        return value

    if "Protocol" in v:
        meta["protocol"] = v["Protocol"][0].lower()
    meta["msg_size_bytes"] = count("MsgSize(byte)", "'MsgSize(byte) <bytes>'")
    iterations = count("Iterations", "'Iterations <count>'")
    labels = {
        name: v[key][0]
        for key, name in (
            ("SendMethod", "send_method"),
            ("ReceiveMethod", "receive_method"),
            ("SO_SNDBUF", "so_sndbuf"),
            ("SO_RCVBUF", "so_rcvbuf"),
        )
        if key in v
    }
    if labels:
        meta["labels"] = labels
    latency = num("Latency(usec)", "'Latency(usec) <usec>'")
    run.add(basis, "mean", latency, "us", n=iterations)
    run.add(basis, "count", iterations, "count")
    run.add("cpu", "mean", num("CPU(%)", "'CPU(%) <percent>'"), "pct")
    for key, name in _COUNTERS.items():
        _counter(run, v, key, name, source)
    meta["complete"] = latency is not None
    if latency is None:
        run.warnings.append(
            "no 'Latency(usec)' line: latte printed its settings but no result "
            "(still running or interrupted when the log was taken)"
        )
    if block.hist_line is not None:
        _histogram(run, block, basis, iterations, source, strict)
    return run


def _counter(run: Run, v: dict, key: str, name: str, source: str | None) -> None:
    if key not in v:
        return
    text, no = v[key]
    per_iter = None
    m = _PER_ITER.match(text)
    if m:
        text, per_iter = m.group(1), m.group(2)
    what = f"'{key} <count> (<x>/iteration)'"
    run.add(f"{name}_per_s", "mean", _finite(text, no, what, source), "1/s")
    if per_iter is not None:
        run.add(f"{name}_per_iteration", "mean", _finite(per_iter, no, what, source), "1/iteration")


def _finite(text: str, no: int, what: str, source: str | None) -> float:
    value = number(text, tool=TOOL, source=source, line_no=no, what=what)
    if not math.isfinite(value):  # number() refuses 'nan'; latte never prints 'inf' either
        raise ParseError(TOOL, source, no, f"expected {what}, got {text.strip()!r}")
    return value


def _command_meta(command: str | None, meta: dict, run: Run) -> str:
    """Role, address and basis from the command line; returns the latency metric name."""
    if command is None:
        run.warnings.append(
            "latency basis assumed 'rtt' (latte's default): the command line is not shown, "
            "so -hrtt cannot be ruled out"
        )
        meta["latency_basis"] = "rtt"
        return "rtt"
    meta["command"] = command
    try:
        args = shlex.split(command, posix=False)
    except ValueError:  # an unbalanced quote: fall back to whitespace
        args = command.split()
    flags = {a.lower() for a in args}
    meta["role"] = "client" if "-c" in flags else "server"
    basis = "half_rtt" if "-hrtt" in flags else "rtt"
    meta["latency_basis"] = basis
    for flag, value in zip(args, args[1:]):
        if flag.lower() == "-a":
            host, _, port = value.rpartition(":")
            if host and port.isdecimal() and int(port) < 65536:
                meta["dst_ip"], meta["port"] = host.strip("[]"), int(port)
    return basis


def _ordered_rows(
    run: Run, rows: list[tuple[int, int, int]], source: str | None, strict: bool
) -> list[tuple[int, int, int, int]]:
    """(seq, label, count, line) of the rows whose interval follows the one before.

    VirtualClient's example (corpus) has one zero-count row labelled 2164 between 2777 and
    2779.  A zero-count row carries no observation, so it is dropped with a warning; a row with
    observations in an unknown bucket is an error (skipped with a warning when lenient).
    """
    kept: list[tuple[int, int, int, int]] = []
    for seq, (label, count, no) in enumerate(rows):
        if kept and label <= kept[-1][1]:
            reason = f"histogram interval {label} does not follow {kept[-1][1]}"
            if count and strict:
                raise ParseError(TOOL, source, no, reason, hint="the table was edited or mangled")
            run.warnings.append(f"line {no} skipped: {reason} (count {count})")
            continue
        kept.append((seq, label, count, no))
    return kept


def _histogram(
    run: Run, block: _Block, basis: str, iterations: int | None, source: str | None, strict: bool
) -> None:
    rows = _ordered_rows(run, block.hist, source, strict)
    if not rows:
        run.warnings.append(f"line {block.hist_line}: histogram header without rows")
        run.meta["complete"] = False
        return
    seq = np.array([r[0] for r in rows], dtype=np.int64)
    labels = np.array([r[1] for r in rows], dtype=np.int64)
    counts = np.array([r[2] for r in rows], dtype=np.int64)
    # Buckets are -hl wide (1 us by default): the commonest step between rows.  The last row is
    # open-ended: values past the range land there when -hc bounds it (VirtualClient runs
    # `-hist -hl 1 -hc 9998` and gets 9,999 rows), so only ">= its label" is known.
    steps = np.diff(labels)
    width = float(np.bincount(steps).argmax()) if len(steps) else math.inf
    low = labels.astype(float)
    high = np.append(low[:-1] + width, math.inf)
    run.samples = samples_frame(
        {
            "seq": seq,
            "kind": "histogram",
            "status": "ok",
            "bin_low_us": low,
            "bin_high_us": high,
            "count": counts,
        }
    )
    total = sum(r[2] for r in rows)  # Python ints: a mangled table must not wrap around
    if total != sum(r[1] for r in block.hist) or total >= 2**53:
        run.warnings.append(
            "histogram rows with observations were skipped, or its counts are "
            "beyond belief: no statistics from it"
        )
        run.meta["complete"] = False
        return
    n = total
    if iterations is not None and total != iterations:
        run.warnings.append(f"histogram holds {total} observations, Iterations says {iterations}")
        if total < iterations:  # cut short: the missing ones lie past the last row read
            run.meta["complete"] = False
            n = iterations
    _hist_stats(run, basis, low, high, counts, n)


def _hist_stats(run: Run, basis: str, low, high, counts, n: int) -> None:
    """Percentiles, min, max and mean known only to a bucket: value = upper edge, with bounds."""
    if n == 0:
        return
    cum = np.cumsum(counts)
    nonzero = np.nonzero(counts)[0]

    def bucket(stat: str, i: int) -> None:
        if math.isinf(high[i]):
            run.warnings.append(
                f"{basis} {stat} lies in the open-ended last bucket (>= {low[i]:g} us)"
            )
            return
        run.add(
            basis, stat, high[i], "us", source="computed", bound_low=low[i], bound_high=high[i], n=n
        )

    if len(nonzero):
        bucket("min", int(nonzero[0]))
        if cum[-1] == n:
            bucket("max", int(nonzero[-1]))
    for p in PERCENTILES:
        q = Fraction(p) / 100
        if n * (1 - q) < 1:
            continue
        k = math.ceil(q * n)  # rank of the inverted-CDF quantile
        i = int(np.searchsorted(cum, k))
        if i >= len(cum):
            run.warnings.append(f"{basis} p{p} lies past the histogram rows read")
            continue
        bucket(f"p{p}", i)
    if cum[-1] == n and not counts[-1]:
        mean_low = float((low * counts).sum() / n)
        mean_high = float((high[:-1] * counts[:-1]).sum() / n)
        run.add(
            basis,
            "mean",
            mean_high,
            "us",
            source="computed",
            bound_low=mean_low,
            bound_high=mean_high,
            n=n,
        )
