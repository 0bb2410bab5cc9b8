"""Reported values: numbers that exist only as a table in a blog post or a wiki page.

A small CSV format (``docs/reported-values.md``) turns such a table into runs and
``source = "reported"`` summaries, so it can sit beside parsed runs in the same analyses::

    # where the numbers come from (comment lines start with '#')
    tool,scenario,src_zone,dst_zone,metric,stat,value,unit,n,note
    echo_csv,Same AZ,1,1,rtt,mean,850,us,,about 40000 probes per scenario

Required columns: ``tool, metric, stat, value, unit``.  Optional: run attributes (scenario,
region, zones, placement, vm_size, ...), ``n``, ``level``, ``bound_low``, ``bound_high``,
``note`` and ``label:<name>`` columns.  Rows with the same run attributes form one run.

A run is one execution of the tool.  Windows of one execution (the last 100 records, the
first hour) are not replicates: a ``window`` column names the part a row gives, and ``run``
names the execution, so rows of any file of a campaign with the same ``tool`` and ``run`` are
parts of one execution (``runs.execution``).  Rows with a ``window`` and no ``run`` are parts
of the execution their other attributes describe.
"""

from __future__ import annotations

import csv
import re
from typing import Any

from ..errors import ParseError
from . import tools
from ._base import Parsed, Run, Span, ToolInfo
from ._lines import integer, number, run_together

INFO = ToolInfo(
    tool="reported_csv",
    description="values reported in a document, transcribed as CSV (docs/reported-values.md)",
    variants=("reported-csv",),
    versions="format 1",
    produces=("runs", "summaries"),
    open_ended=("reported-csv",),
)

VARIANT = "reported-csv"
REQUIRED = ("tool", "metric", "stat", "value", "unit")
# Run-table columns a row may state, with how to read the cell.
RUN_ATTRS: dict[str, str] = {
    "scenario": "str",
    "region": "str",
    "src_zone": "str",
    "dst_zone": "str",
    "placement": "str",
    "vm_size": "str",
    "accelerated_networking": "bool",
    "src_host": "str",
    "dst_host": "str",
    "src_ip": "str",
    "dst_ip": "str",
    "port": "int",
    "protocol": "str",
    "mode": "str",
    "role": "str",
    "os": "str",
    "tool_version": "str",
    "command": "str",
    "msg_size_bytes": "int",
    "duration_s": "float",
    "streams": "int",
    "direction": "str",
    "latency_basis": "str",
}
SUMMARY_ATTRS = ("metric", "stat", "value", "unit", "n", "level", "bound_low", "bound_high")
LABEL_PREFIX = "label:"
_KNOWN = frozenset(RUN_ATTRS) | frozenset(SUMMARY_ATTRS) | {"tool", "note", "run", "window"}

# unit as written → (unit stored, factor).  Latency is stored in µs, throughput in bits/s.
UNITS: dict[str, tuple[str, float]] = {
    "us": ("us", 1.0),
    "usec": ("us", 1.0),
    "µs": ("us", 1.0),
    "μs": ("us", 1.0),
    "ns": ("us", 1e-3),
    "ms": ("us", 1e3),
    "s": ("s", 1.0),
    "bps": ("bps", 1.0),
    "kbps": ("bps", 1e3),
    "mbps": ("bps", 1e6),
    "gbps": ("bps", 1e9),
    "bytes": ("bytes", 1.0),
    "kib": ("bytes", 2.0**10),
    "mib": ("bytes", 2.0**20),
    "gib": ("bytes", 2.0**30),
    "pct": ("pct", 1.0),
    "%": ("pct", 1.0),
    "count": ("count", 1.0),
}
_LATENCY = ("rtt", "half_rtt")
_STAT = re.compile(
    r"count|mean|std|min|max|mdev|ci_low|ci_high|mean_ad|median_ad|siqr|cv|std_error"
    r"|p\d{1,2}(?:\.\d+)?"
)
_STAT_ALIASES = {
    "median": "p50",
    "average": "mean",
    "avg": "mean",
    "minimum": "min",
    "maximum": "max",
    "stddev": "std",
}
_METRIC = re.compile(r"[a-z][a-z0-9_]*")
_RANGE = re.compile(r"^\s*(?P<low>[^.]+(?:\.\d+)?)\s*\.\.\s*(?P<high>\S+)\s*$")
_TRUE, _FALSE = ("true", "yes", "on", "1"), ("false", "no", "off", "0")


# A spreadsheet saved as CSV in a locale with a decimal comma (de, fr, es, ...) separates
# cells with ';' and writes 2130,93 — read that too; a tab-separated paste keeps the point.
_DELIMITERS = (",", ";", "\t")


def _row(line: str, delimiter: str = ",") -> list[str]:
    return [cell.strip() for cell in next(csv.reader([line], delimiter=delimiter))]


def _delimiter(line: str) -> str | None:
    """The delimiter that makes ``line`` a header with the required columns, if any."""
    if line.lstrip().startswith("#"):
        return None
    for delimiter in _DELIMITERS:
        if delimiter not in line:
            continue
        try:
            cells = {c.lower() for c in _row(line, delimiter)}
        except csv.Error:
            continue
        if all(r in cells for r in REQUIRED):
            return delimiter
    return None


def _is_header(line: str) -> bool:
    return _delimiter(line) is not None


def _known(name: str) -> bool:
    """Whether ``name`` (lower case) is a column of the format."""
    return name in _KNOWN or (name.startswith(LABEL_PREFIX) and len(name) > 6)


def _header_and_row(line: str) -> tuple[str, str] | None:
    """A header with its first row run into it by a lost line break ('...,unit,necho_csv,Same
    AZ,...': the last column and the row's first cell are one cell): the header's line and
    the row's, when every header cell is a known column and the row has as many cells; None
    otherwise.  Read as a header, the table was lost without a word."""
    delimiter = _delimiter(line)
    if delimiter is None:
        return None
    cells = _row(line, delimiter)
    names = [c.lower() for c in cells]
    if all(_known(n) for n in names):
        return None
    k = next(i for i, n in enumerate(names) if not _known(n))  # the joined cell
    head = [n for n in sorted(_KNOWN, key=len, reverse=True) if names[k].startswith(n)]
    if not head or len(cells) - k != k + 1 or not all(_known(n) for n in names[:k]):
        return None
    cut = len(head[0])
    row = [cells[k][cut:], *cells[k + 1 :]]
    return delimiter.join([*cells[:k], cells[k][:cut]]), delimiter.join(row)


# The comment a reported-values file opens with (docs/reported-values.md).
_MARKER = "# azlatency reported values"
# A file that opens with the marker is reported values even with a few stray lines (a shell's,
# a kernel's) above its header; ``parse`` names them.
_STRAY_BEFORE_HEADER = 3


def whole_file(head: str) -> bool:
    """The first line that is neither blank nor a ``#`` comment is a reported-values header
    (or, in a file that opens with the marker comment, one of the first few)."""
    marked = head.lstrip("\ufeff").startswith(_MARKER)
    stray = 0
    for line in head.split("\n"):
        if line.strip() and not line.lstrip().startswith("#"):
            if _is_header(line):
                return True
            stray += 1
            if not marked or stray > _STRAY_BEFORE_HEADER:
                return False
    return False


def locate(lines: list[str]) -> list[Span]:
    """A header line and the rows under it, up to a code fence or a blank line that no row
    of the table follows (rows after a blank line are the table's: the parser reads them, so
    a row pasted twice is a located error, not a row dropped unseen)."""
    spans, i = [], 0
    while i < len(lines):
        if not _is_header(lines[i]):
            i += 1
            continue
        j = i + 1
        header = lines[i]
        if joined := _header_and_row(header):
            header = joined[0]  # its first row is on its line
        while j < len(lines):
            if lines[j].lstrip().startswith("```"):
                break
            if not lines[j].strip():
                k = next((k for k in range(j, len(lines)) if lines[k].strip()), len(lines))
                if k == len(lines) or not _fits(header, lines[k]):
                    break
                j = k
            j += 1
        if j > i + 1 or joined:
            spans.append(Span(i, j, INFO.tool))
        i = j
    return spans


def _fits(header: str, line: str) -> bool:
    """Whether ``line`` is a row of the table ``header`` opens: as many cells, and a number
    in its ``value`` column."""
    delimiter = _delimiter(header)
    if delimiter is None or _is_header(line) or line.lstrip().startswith(("#", "```")):
        return False
    names = [c.lower() for c in _row(header, delimiter)]
    try:
        cells = _row(line, delimiter)
    except csv.Error:
        return False
    if len(cells) != len(names):
        return False
    return bool(re.fullmatch(r"[-+]?\d[\d.,]*(?:[eE][-+]?\d+)?", cells[names.index("value")]))


class _Reader:
    def __init__(self, source: str | None, strict: bool) -> None:
        self.source, self.strict = source, strict
        self.warnings: list[str] = []
        self.delimiter = ","

    def number(self, text: str, line_no: int, what: str) -> float:
        if self.delimiter == ";":  # decimal comma: "1.050,5" or "1 050,5" is 1050.5
            text = re.sub(r"[.\s\u202f\xa0]", "", text).replace(",", ".")
        return number(text, tool=INFO.tool, source=self.source, line_no=line_no, what=what)

    def integer(self, text: str, line_no: int, what: str) -> int:
        if self.delimiter == ";":
            text = re.sub(r"[.\s\u202f\xa0]", "", text)
        return integer(text, tool=INFO.tool, source=self.source, line_no=line_no, what=what)

    def fail(self, line_no: int, reason: str, hint: str | None = None) -> ParseError:
        return ParseError(INFO.tool, self.source, line_no, reason, hint=hint)

    def header(self, line: str, line_no: int) -> list[str]:
        self.delimiter = _delimiter(line) or ","
        names = [c.lower() for c in _row(line, self.delimiter)]
        for name in names:
            if not _known(name):
                raise self.fail(
                    line_no,
                    f"unknown column {name!r}",
                    hint="see docs/reported-values.md; free columns are written 'label:<name>'",
                )
        dup = {n for n in names if names.count(n) > 1}
        if dup:
            raise self.fail(line_no, f"column {sorted(dup)[0]!r} appears twice")
        return names

    def value(self, cells: dict[str, str], line_no: int) -> dict[str, Any]:
        """Summary fields of one row, converted to the stored unit."""
        unit_text = cells["unit"]
        if unit_text.lower() not in UNITS:
            raise self.fail(line_no, f"unknown unit {unit_text!r}; use one of {', '.join(UNITS)}")
        unit, factor = UNITS[unit_text.lower()]
        metric = cells["metric"]
        if not _METRIC.fullmatch(metric):
            raise self.fail(line_no, f"expected a metric name like 'rtt', got {metric!r}")
        if unit == "s" and metric in _LATENCY:
            unit, factor = "us", 1e6
        stat = _STAT_ALIASES.get(cells["stat"].lower(), cells["stat"].lower())
        if not _STAT.fullmatch(stat):
            raise self.fail(
                line_no, f"unknown stat {cells['stat']!r}", hint="see docs/vocabulary.md"
            )
        out: dict[str, Any] = {"metric": metric, "stat": stat, "unit": unit}
        m = _RANGE.match(cells["value"])
        if m:  # "55..61.09": only known to lie in an interval (vocabulary: value = upper bound)
            low = self.number(m["low"], line_no, "range start") * factor
            high = self.number(m["high"], line_no, "range end") * factor
            if low > high:
                raise self.fail(line_no, f"range {cells['value']!r} runs backwards")
            out.update(value=high, bound_low=low, bound_high=high)
        else:
            out["value"] = self.number(cells["value"], line_no, "a number or 'low..high'") * factor
        for key in ("bound_low", "bound_high"):
            if cells.get(key):
                out[key] = self.number(cells[key], line_no, key) * factor
        if cells.get("n"):
            out["n"] = self.integer(cells["n"], line_no, "a whole count n")
        if cells.get("level"):
            level = self.number(cells["level"], line_no, "a confidence level")
            if not 0 < level < 1:
                raise self.fail(line_no, f"level must lie between 0 and 1, got {level}")
            out["level"] = level
        return out

    def attrs(self, cells: dict[str, str], line_no: int) -> dict[str, Any]:
        """Run attributes of one row (they decide which run the row belongs to)."""

        tool = cells["tool"]
        known = [t for t in tools() if t != INFO.tool]
        if tool not in known:
            raise self.fail(line_no, f"unknown tool {tool!r}; known tools: {', '.join(known)}")
        out: dict[str, Any] = {"tool": tool}
        for key, kind in RUN_ATTRS.items():
            text = cells.get(key, "")
            if not text:
                continue
            if kind == "int":
                out[key] = self.integer(text, line_no, key)
            elif kind == "float":
                out[key] = self.number(text, line_no, key)
            elif kind == "bool":
                if text.lower() not in _TRUE + _FALSE:
                    raise self.fail(line_no, f"expected true/false for {key}, got {text!r}")
                out[key] = text.lower() in _TRUE
            else:
                out[key] = text
        labels = {
            k[len(LABEL_PREFIX) :]: v for k, v in cells.items() if k.startswith(LABEL_PREFIX) and v
        }
        if cells.get("note"):
            labels["note"] = cells["note"]
        if cells.get("window"):
            labels["window"] = cells["window"]
        if cells.get("run"):
            out["execution"] = f"{tool}:{cells['run']}"
        elif labels.get("window"):
            # Windows of one execution the row does not name: the execution is what the row
            # says without its window (and without what it says of the window: its note).
            rest = {k: v for k, v in out.items() if k != "labels"}
            out["execution"] = f"{tool}:" + ",".join(f"{k}={v}" for k, v in sorted(rest.items()))
        out["labels"] = tuple(sorted(labels.items()))
        return out


def parse(text: str, *, source: str | None = None, strict: bool = True) -> Parsed:
    reader = _Reader(source, strict)
    lines = text.split("\n")
    names: list[str] | None = None
    runs: dict[tuple, Run] = {}
    seen: dict[tuple, int] = {}
    for line_no, line in enumerate(lines, start=1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        if names is None:
            if not _is_header(line):
                err = reader.fail(
                    line_no,
                    f"expected a header with {', '.join(REQUIRED)}, got {line.strip()[:80]!r}",
                )
                if strict:
                    raise err
                reader.warnings.append(f"line {line_no} skipped: {err.reason}")
                continue
            joined = _header_and_row(line)
            names = reader.header(joined[0] if joined else line, line_no)
            if not joined:
                continue
            line = joined[1]
            reader.warnings.append(run_together(line_no, 2, INFO.tool))
        try:
            attrs, summary = _read_row(reader, line, line_no, names)
            key = tuple(sorted(attrs.items()))
            stat_key = (key, summary["metric"], summary["stat"])
            if stat_key in seen:
                raise reader.fail(
                    line_no,
                    f"{summary['metric']} {summary['stat']} of this run "
                    f"is already given on line {seen[stat_key]}",
                )
        except (ParseError, csv.Error) as exc:
            err = exc if isinstance(exc, ParseError) else reader.fail(line_no, f"bad CSV: {exc}")
            if strict:
                raise err from None
            reader.warnings.append(f"line {line_no} skipped: {err.reason}")
            continue
        seen[stat_key] = line_no
        run = runs.get(key)
        if run is None:
            run = runs[key] = Run(meta=_meta(attrs), line_start=line_no)
        run.line_end = line_no
        run.add(**summary, source="reported")
    if names is None:
        raise reader.fail(None, "no header line", hint="the first non-comment line names columns")
    if not runs:
        # located at the last line read: the file ends (or was cut) after its header
        last = max((i for i, x in enumerate(text.split("\n"), 1) if x.strip()), default=None)
        raise reader.fail(last, "no rows under the header (cut short?)")
    ordered = list(runs.values())
    ordered[0].warnings.extend(reader.warnings)
    for run in ordered:
        metrics = {s.metric for s in run.summaries} & set(_LATENCY)
        if "latency_basis" not in run.meta and len(metrics) == 1:
            run.meta["latency_basis"] = metrics.pop()
    return Parsed(INFO.tool, ordered)


def _read_row(reader: _Reader, line: str, line_no: int, names: list[str]) -> tuple[dict, dict]:
    """The run attributes and the reported value of a data row; a ParseError (or csv.Error)
    when its cells do not fit the header."""
    cells = _row(line, reader.delimiter)
    if len(cells) != len(names):
        raise reader.fail(line_no, f"expected {len(names)} cells, got {len(cells)}")
    row = dict(zip(names, cells))
    missing = [r for r in REQUIRED if not row.get(r)]
    if missing:
        raise reader.fail(line_no, f"empty required cell {missing[0]!r}")
    return reader.attrs(row, line_no), reader.value(row, line_no)


def _meta(attrs: dict[str, Any]) -> dict[str, Any]:
    meta = {k: v for k, v in attrs.items() if k != "labels"}
    meta.update(parser_variant=VARIANT, complete=True)
    if attrs["labels"]:
        meta["labels"] = dict(attrs["labels"])
    return meta
