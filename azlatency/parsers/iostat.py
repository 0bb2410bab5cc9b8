"""iostat -x (sysstat): extended device statistics, one run per device per report.

sysstat prints a banner, then one report per interval: ``avg-cpu`` (unless ``-d``), a
``Device`` header and one row per device::

    Linux 6.18.44 (vm) 	11/25/26 	_x86_64_	(2 CPU)

    11/25/26 03:12:00                                   (with -t)
    Device   r/s  rkB/s  rrqm/s %rrqm r_await rareq-sz  w/s  wkB/s ... aqu-sz  %util
    loop0   0.00   0.00    0.00  0.00    0.00     0.00 1109.00 70976.00 ... 0.11 11.20

Columns are read by their header, so sysstat 12's layout (``r_await``, ``rareq-sz``,
``aqu-sz``, discard and flush columns) and the older one (``Device:``, ``avgrq-sz`` in
sectors, ``avgqu-sz``, ``await``, ``svctm``) both read; ``-m`` (MB/s) too.

A report is a window of one execution, not a replicate: every run of one iostat invocation
and device shares ``runs.execution``.  The first report of an invocation without ``-y``
holds the averages since boot, not an interval: its labels say ``"since_boot": true``.
Units follow fio's names: ``iops_read`` [io/s], ``disk_bandwidth_read`` [bytes/s],
``await_read`` [µs], ``request_size_read`` [bytes], ``queue_size`` [requests], ``util`` [%].
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

from ..errors import ParseError
from ._base import Parsed, Run, Span, ToolInfo
from ._lines import command_of, number, run_together, stray, unjoin

INFO = ToolInfo(
    tool="iostat",
    description="sysstat iostat -x extended device statistics (text), per device and report",
    variants=("x", "x-legacy"),
    versions="sysstat 10.x-12.x (12.6.1 captured)",
    produces=("runs", "summaries"),
    flags="-x (extended statistics); -t (timestamps) and -y (no since-boot report) help",
    open_ended=("x", "x-legacy"),
    local=True,
)
TOOL = "iostat"

_BANNER = re.compile(
    r"^(?P<os>Linux)\s+(?P<kernel>\S+)\s+\((?P<host>[^)]*)\)\s+(?P<date>\S+)\s+_(?P<arch>\w+)_"
    r"\s+\((?P<cpus>\d+) CPU\)\s*$"
)
_DEVICE_HEAD = re.compile(r"^Device:?\s+(?=.*\br/s\b)(?=.*\bw/s\b).*$")
_AVG_CPU = re.compile(r"^avg-cpu:\s+%user")
_CPU_VALUES = re.compile(r"^\s+\d+[.,]\d+(\s+\d+[.,]\d+){3,}\s*$")
_TIMESTAMP = re.compile(
    r"^(\d{1,4}[/.-]\d{1,2}[/.-]\d{2,4}[ T]\d{1,2}:\d{2}:\d{2}(\s*[AP]M)?|"
    r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{4})\s*$"
)
_NUMBER = r"-?\d[\d.,]*"  # a value as iostat prints it (a decimal comma in some locales)
_ROW = re.compile(rf"^(?P<dev>[A-Za-z][\w.:/-]*)\s+(?P<rest>{_NUMBER}(\s+{_NUMBER})+)\s*$")
_DEVICE = re.compile(r"^[A-Za-z][\w.:/-]*\s")


_VALUE = re.compile(_NUMBER)


def _as_wide(line: str, header: list[str] | None) -> bool:
    """A device name and as many fields as the Device header has columns, most of them
    numbers but not all (a damaged row, 'nan' in place of a value): iostat's line, to be
    named, not taken for text after the output (a sentence of as many words is not)."""
    if header is None or not _DEVICE.match(line):
        return False
    values = line.split()[1:]
    numbers = sum(bool(_VALUE.fullmatch(v)) for v in values)
    return len(values) == len(header) and numbers * 2 >= len(values)


def _kind(line: str, header: list[str] | None) -> str | None:
    """'head' for a Device header of known columns only, 'row' for a device row (as wide as
    ``header``, when one is known), else None: the lines :func:`_apart` cuts a line into."""
    if _DEVICE_HEAD.match(line):
        return "head" if all(c in _COLUMNS for c in line.split()[1:]) else None
    m = _ROW.match(line.strip())
    if m is None:
        return None
    return "row" if header is None or len(m["rest"].split()) == len(header) else None


def _apart(line: str, header: list[str] | None) -> list[str]:
    """The Device header and rows a lost line break ran together into ``line`` ('... 0.00
    0.00loop1  0.00 ...', '... aqu-sz  %utilvda  1.96 ...'), when there is one way to cut it
    so; [] for a line that reads as it is (or not at all), and for the lines around the rows
    (the banner, the CPU report, a timestamp: never cut)."""
    if _kind(line, header) is not None or _as_wide(line, header):
        return []
    if _BANNER.match(line) or _AVG_CPU.match(line) or _CPU_VALUES.match(line):
        return []
    if _TIMESTAMP.match(line.strip()) or command_of(line, ("iostat",))[0]:
        return []
    return unjoin(line, lambda p: _kind(p, header))


# Header column -> (metric, unit, factor to that unit). ``avgrq-sz`` counts 512-byte sectors.
_COLUMNS: dict[str, tuple[str, str, float]] = {
    "r/s": ("iops_read", "io/s", 1.0),
    "w/s": ("iops_write", "io/s", 1.0),
    "d/s": ("iops_discard", "io/s", 1.0),
    "f/s": ("iops_flush", "io/s", 1.0),
    "rkB/s": ("disk_bandwidth_read", "bytes/s", 1024.0),
    "wkB/s": ("disk_bandwidth_write", "bytes/s", 1024.0),
    "dkB/s": ("disk_bandwidth_discard", "bytes/s", 1024.0),
    "rMB/s": ("disk_bandwidth_read", "bytes/s", 1048576.0),
    "wMB/s": ("disk_bandwidth_write", "bytes/s", 1048576.0),
    "dMB/s": ("disk_bandwidth_discard", "bytes/s", 1048576.0),
    "rrqm/s": ("merged_read", "io/s", 1.0),
    "wrqm/s": ("merged_write", "io/s", 1.0),
    "drqm/s": ("merged_discard", "io/s", 1.0),
    "%rrqm": ("merged_read_share", "pct", 1.0),
    "%wrqm": ("merged_write_share", "pct", 1.0),
    "%drqm": ("merged_discard_share", "pct", 1.0),
    "r_await": ("await_read", "us", 1000.0),
    "w_await": ("await_write", "us", 1000.0),
    "d_await": ("await_discard", "us", 1000.0),
    "f_await": ("await_flush", "us", 1000.0),
    "await": ("await", "us", 1000.0),
    "svctm": ("service_time", "us", 1000.0),
    "rareq-sz": ("request_size_read", "bytes", 1024.0),
    "wareq-sz": ("request_size_write", "bytes", 1024.0),
    "dareq-sz": ("request_size_discard", "bytes", 1024.0),
    "avgrq-sz": ("request_size", "bytes", 512.0),
    "aqu-sz": ("queue_size", "requests", 1.0),
    "avgqu-sz": ("queue_size", "requests", 1.0),
    "%util": ("util", "pct", 1.0),
}


def locate(lines: list[str]) -> list[Span]:
    """From a banner or the first ``Device`` header (with the command line just above, when
    there is one) to the last device row before other text."""
    spans: list[Span] = []
    i, n = 0, len(lines)
    while i < n:
        if not (_BANNER.match(lines[i]) or _DEVICE_HEAD.match(lines[i])):
            i += 1
            continue
        start = i - 1 if i and command_of(lines[i - 1], ("iostat",))[0] else i
        j, last = i + 1, i + 1
        header = lines[i].split()[1:] if _DEVICE_HEAD.match(lines[i]) else None
        while j < n:
            s = lines[j]
            if _BANNER.match(s):
                break  # the next invocation: a span of its own
            if _DEVICE_HEAD.match(s):
                header, last = s.split()[1:], j + 1
            elif (
                _AVG_CPU.match(s)
                or _CPU_VALUES.match(s)
                or (_ROW.match(s) or _TIMESTAMP.match(s.strip()) or _as_wide(s, header))
            ):
                last = j + 1
            elif s.strip() and (parts := _apart(s, header)):
                header = next((p.split()[1:] for p in parts if _DEVICE_HEAD.match(p)), header)
                last = j + 1
            elif s.strip():
                break
            j += 1
        spans.append(Span(start, last, TOOL))
        i = max(last, i + 1)
    return spans


@dataclass
class _Where:
    """Where the reading is: the invocation (its command and banner) and its report."""

    host: str | None = None
    banner: int | None = None  # line of the banner
    date: str | None = None
    no_since_boot: bool = False  # the command line has -y
    report: int = 0  # reports of the invocation so far
    header: list[str] | None = None  # the columns of the last Device header
    stamp: str | None = None  # the last timestamp (-t)
    first: str | None = None  # the invocation's first timestamp
    cpu_values_next: bool = False

    def context(self, no: int, line: str, s: str) -> bool:
        """Whether ``line`` (``s`` stripped) is one around the device rows, now read."""
        cmd, _ = command_of(line, ("iostat",))
        if cmd:
            self.no_since_boot = bool(re.search(r"\s-\w*y", " " + cmd))
        elif m := _BANNER.match(line):
            self.host, self.banner, self.date, self.report = m["host"], no, m["date"], 0
            self.header = self.first = None
        elif _AVG_CPU.match(line):
            self.cpu_values_next = True
        elif self.cpu_values_next and _CPU_VALUES.match(line):
            self.cpu_values_next = False
        elif _TIMESTAMP.match(s):
            self.stamp, self.first = s, self.first or s
        elif _DEVICE_HEAD.match(line):
            self.header = line.split()[1:]
            self.report += 1
        else:
            return False
        return True


def parse(text: str, *, source: str | None = None, strict: bool = True) -> Parsed:
    """One run per device row: its report's values as summaries (``source="reported"``)."""
    lines = text.split("\n")
    runs: list[Run] = []
    at = _Where()
    skipped: list[str] = []
    for no, whole in enumerate(lines, start=1):
        inside = at.banner is not None or at.header is not None
        parts = _apart(whole, at.header) if inside and whole.strip() else []
        if parts:
            skipped.append(run_together(no, len(parts), TOOL))
        for line in parts or [whole]:
            _line(no, line, at, runs, skipped, source, strict)
    if not runs:
        # located at the last line: the output ends (or was cut) before any device row
        last = max((i for i, x in enumerate(lines, start=1) if x.strip()), default=None)
        raise ParseError(
            TOOL,
            source,
            last,
            "no device row after the banner or Device header (cut short?)",
            hint="expected a 'Device' header with r/s and w/s columns and a row per device "
            "(iostat -x)",
        )
    if skipped:
        runs[0].warnings[:0] = skipped
    return Parsed(TOOL, runs)


def _line(
    no: int, line: str, at: _Where, runs: list[Run], skipped: list[str], source, strict
) -> None:
    """Line ``no`` of the output, read: a line around the rows, a device row, or a stray."""
    s = line.strip()
    if not s or at.context(no, line, s):
        return
    m = _ROW.match(line)
    if m and at.header is not None:
        values = m["rest"].split()
        if len(values) != len(at.header):
            raise_or_skip(
                source,
                no,
                f"expected {len(at.header)} values under the Device header, got {len(values)}",
                strict,
                skipped,
            )
            return
        runs.append(_run(m["dev"], values, source, no, at))
        return
    if _as_wide(line, at.header):
        name, bad = next(
            (h, v) for h, v in zip(at.header, line.split()[1:]) if not _VALUE.fullmatch(v)
        )
        why = f"expected a number in column {name} of device {line.split()[0]}, got {bad!r}"
        raise_or_skip(source, no, why, strict, skipped)
        return
    stray(TOOL, source, no, line, strict, skipped)


def raise_or_skip(source, no, reason, strict, skipped) -> None:
    if strict:
        raise ParseError(TOOL, source, no, reason)
    skipped.append(f"line {no} skipped: {reason}")


def _run(dev: str, values: list[str], source: str | None, no: int, at: _Where) -> Run:
    """The run of device ``dev``'s row (line ``no``) of the report ``at`` is in."""
    run = Run(line_start=no, line_end=no)
    header = at.header
    invocation = f"{at.host}:{at.date}:{at.first or f'banner-line-{at.banner}'}"
    legacy = any(h in header for h in ("avgrq-sz", "avgqu-sz", "svctm"))
    since_boot = at.report == 1 and not at.no_since_boot
    labels = {"device": dev, "report": at.report, "since_boot": since_boot}
    if at.stamp:
        labels["timestamp"] = at.stamp
    run.meta.update(
        tool=TOOL,
        parser_variant="x-legacy" if legacy else "x",
        mode="disk",
        role="host",
        src_host=at.host,
        complete=True,
        labels=json.dumps(labels, sort_keys=True),
        # every report of one invocation and device is a window of one execution
        # (the banner's host and date, and the first report's time when -t printed one)
        execution=f"iostat:{invocation}:{dev}",
    )
    for name, value in zip(header, values):
        if name not in _COLUMNS:
            continue
        metric, unit, factor = _COLUMNS[name]
        v = number(
            value.replace(",", "."),
            tool=TOOL,
            source=source,
            line_no=no,
            what=f"a number in column {name}",
        )
        run.add(metric, "mean", v * factor, unit)
    return run
