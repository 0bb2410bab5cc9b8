"""What every ntttcp dialect reports (:class:`Totals`) and the one place that turns it into
a Run; the Linux console, XML/JSON (``doc.py``) and Windows console (``windows.py``) readers
fill it."""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation

import pandas as pd

from .._base import Run
from .._ranges import check_int64, int64

TOOL = "ntttcp"
NAMES = ("ntttcp", "NTttcp", "ntttcp.exe", "NTttcp.exe")
TOTALS = re.compile(r"#{3,}\s*Totals:\s*#{3,}")
_RATE = re.compile(r"^([0-9]+(?:\.[0-9]+)?)\s*([KMGT]?)bps$")
_SCALE = {"": 1, "K": 10**3, "M": 10**6, "G": 10**9, "T": 10**12}

# ---------------------------------------------------------------------------------------------
# What every dialect reports, and the one place that turns it into a Run.


@dataclass
class Totals:
    """The figures one ntttcp run reports, in base units, whatever the dialect."""

    variant: str
    os: str
    line_start: int = 1
    line_end: int = 1
    role: str | None = None  # "sender" / "receiver"
    version: str | None = None
    complete: bool = True
    duration_s: float | None = None
    total_bytes: int | None = None
    bits_per_second: float | None = None
    retransmits: int | None = None
    tcp_rtt_us: float | None = None
    connections: int | None = None
    threads: int | None = None
    cpu: dict[str, float] = field(default_factory=dict)  # metric -> pct (cpu_user, ...)
    extra: list[tuple[str, str, float, str]] = field(
        default_factory=list
    )  # metric, stat, value, unit
    meta: dict = field(default_factory=dict)  # run columns (protocol, port, hosts, counts)
    labels: dict = field(default_factory=dict)
    thread_rows: list[dict] = field(default_factory=list)  # samples of kind "thread"
    warnings: list[str] = field(default_factory=list)


def build_run(t: Totals, source: str | None = None) -> Run:
    run = Run(line_start=t.line_start, line_end=t.line_end, warnings=list(t.warnings))
    meta = run.meta
    meta.update(
        tool=TOOL,
        parser_variant=t.variant,
        os=t.os,
        tool_version=t.version,
        role=t.role,
        mode="throughput",
        complete=t.complete,
        duration_s=t.duration_s,
        streams=t.connections if t.connections is not None else t.threads,
    )
    meta.update({k: v for k, v in t.meta.items() if v is not None})
    if t.labels:
        meta["labels"] = dict(t.labels)
    if t.threads is not None and t.connections is not None and t.threads != t.connections:
        meta.setdefault("labels", {})["threads"] = t.threads
    if t.role is None and (t.bits_per_second is not None or t.total_bytes is not None):
        run.warnings.append(
            "sender or receiver unknown (no -s/-r command line, no sender-only lines): "
            "totals named 'throughput'/'transfer'"
        )
    if t.total_bytes == 0:
        run.warnings.append("0 bytes transferred: nothing reached the receiver (total loss)")
    side = f"_{t.role}" if t.role else ""
    run.add(f"throughput{side}", "mean", t.bits_per_second, "bps")
    run.add(f"transfer{side}", "total", t.total_bytes, "bytes")
    run.add("retransmits", "total", t.retransmits, "count")
    run.add("tcp_rtt", "mean", t.tcp_rtt_us, "us")
    run.add("connections", "count", t.connections, "count")
    for metric, value in t.cpu.items():
        run.add(metric, "mean", value, "cycles/byte" if metric == "cycles_per_byte" else "pct")
    for metric, stat, value, unit in t.extra:
        run.add(metric, stat, value, unit)
    if t.thread_rows:
        run.samples = pd.DataFrame(t.thread_rows)
    return check_int64(run, TOOL, source)


def dec(text: str) -> Decimal | None:
    try:
        value = Decimal(text.strip())
    except (InvalidOperation, AttributeError):
        return None
    # No ntttcp figure has 30 digits; a longer one is damage, and would overflow a float.
    return value if value.is_finite() and value.adjusted() <= 30 else None


def rate_bps(text: str) -> float | None:
    """``'98.39Gbps'`` → 98.39e9 (ntttcp-for-linux scales by 1000: util.c format_throughput)."""
    m = _RATE.match(text.strip())
    value = dec(m.group(1)) if m else None
    return None if value is None else float(value * _SCALE[m.group(2)])


def command_meta(
    command: str | None, source: str | None = None, line_no: int | None = None
) -> dict:
    """Role, receiver address, protocol and duration from an ntttcp command line (at
    ``line_no``: a port beyond int64 is a ParseError there).

    Both ``-s <addr>`` and ``-r <addr>`` name the receiver's address on Linux; NTttcp.exe puts
    it third in ``-m <threads>,<cpu>,<addr>``.  Shell variables (``$ip``) are not addresses.
    """
    if not command:
        return {}
    try:
        args = shlex.split(command)
    except ValueError:
        args = command.split()
    out: dict = {"protocol": "tcp"}
    for i, arg in enumerate(args):
        nxt = args[i + 1] if i + 1 < len(args) else ""
        if arg in ("-s", "-r"):
            out["role"] = "sender" if arg == "-s" else "receiver"
            if nxt and not nxt.startswith("-") and "$" not in nxt:
                out["dst_ip"] = nxt
        elif arg == "-m" and nxt.count(",") >= 2:
            addr = nxt.split(",")[2]
            if addr and "$" not in addr:
                out["dst_ip"] = addr
        elif arg == "-u":
            out["protocol"] = "udp"
        elif arg == "-p" and nxt.isdecimal():
            out["port"] = int64(
                int(nxt),
                tool=TOOL,
                source=source,
                line_no=line_no,
                what="a port after -p",
                text=nxt,
            )
    return out
