"""ethr (Microsoft's cross-platform network tool): JSON-lines logs written with ``-o``.

Every line is one record ``{"Time": "...Z", "Title": "", "Type": ..., ...}``:

* ``INFO`` / ``ERROR`` records carry a ``Message`` — the console text, including the interval
  table (``[  580]     TCP      000-001 sec    15.10G``), the TCP-connect probes
  (``[tcp] Connection from [::1]:56752 to [::1]:8888: 0.000ns``) and the MyTraceRoute table;
* ``TestResult`` records carry the per-second aggregate: ``BitsPerSecond`` (``914.94M``),
  ``ConnectionsPerSecond``, ``PacketsPerSecond`` (``249.25K``), ``AverageLatency`` — numbers as
  strings with a 1000-based suffix, ``""`` or ``"--  "`` when that measurement is off;
* ``LatencyResult`` records carry one latency batch: ``Avg``, ``Min``, ``P50`` … ``P9999``,
  ``Max`` as durations (``127.014us``, ``1.940ms``, ``0.000ns``), under keys that name other
  statistics than they hold (``"P50"`` is the maximum: ``runs.LATENCY_FIELDS``).

ethr prints no version and no end-of-test summary; statistics over a test's intervals are
therefore ``computed``.  How records are grouped into tests (and tests into runs) is documented
in ``docs/tools/ethr.md``; the run builders live in ``ethr/runs.py``.
"""

from __future__ import annotations

from ...errors import ParseError
from .._base import Parsed, Span, ToolInfo
from .._lines import stray
from .._ranges import check_int64
from . import console
from .records import _CLIENT_BANNER, _DONE, _RECORD, TOOL, group, read_records
from .runs import build, int64_problem

INFO = ToolInfo(
    tool="ethr",
    description="ethr -o JSON-lines logs (TestResult, LatencyResult, INFO/ERROR records) and its console (client and server)",
    variants=("jsonl-client", "jsonl-server", "console-client", "console-server"),
    versions="ethr 0.2 - 1.0 (2021-2024 logs; v1.0.0 built and captured, console and log)",
    produces=("runs", "samples", "summaries"),
    flags="-o <file> (the JSON-lines log)",
    latency_basis="rtt",
    open_ended=("jsonl-client", "jsonl-server", "console-server"),
)
# The reader's hook: a log's record, or the console's banner, test line or tables.
OPENERS = (_RECORD, *console.OPENERS)

# ---------------------------------------------------------------------------------------------
# Detection and location


def whole_file(head: str) -> bool:
    first = next((x for x in head.split("\n") if x.strip()), "")
    return bool(_RECORD.match(first.lstrip("\ufeff")))


def locate(lines: list[str]) -> list[Span]:
    """Runs of consecutive ethr records (a log pasted into a note), and console outputs."""
    return sorted(_record_spans(lines) + _console_spans(lines), key=lambda s: s.start)


def _console_spans(lines: list[str]) -> list[Span]:
    """From the banner (or, pasted without it, 'Using destination: ...') through 'Ethr done,
    ...' and its 'Hint:' line, or to the next output's banner."""
    spans, i = [], 0
    while i < len(lines):
        if not (console.BANNER.match(lines[i]) or _CLIENT_BANNER.match(lines[i].strip())):
            i += 1
            continue
        j, tested = i + 1, bool(_CLIENT_BANNER.match(lines[i].strip()))
        while j < len(lines) and not console.BANNER.match(lines[j]):
            line = lines[j].strip()
            if line.startswith(_DONE):
                j += 1
                while j < len(lines) and not lines[j].strip():
                    j += 1
                j += j < len(lines) and lines[j].strip().startswith("Hint:")
                break
            if _CLIENT_BANNER.match(line):
                if tested:
                    break  # a second test without a banner of its own
                tested = True
            j += 1
        spans.append(Span(i, j, TOOL))
        i = j
    return spans


def _record_spans(lines: list[str]) -> list[Span]:
    spans, i = [], 0
    while i < len(lines):
        if not _RECORD.match(lines[i]):
            i += 1
            continue
        j = i + 1
        while j < len(lines) and _RECORD.match(lines[j]):
            j += 1
        spans.append(Span(i, j, TOOL))
        i = j
    return spans


# ---------------------------------------------------------------------------------------------


def parse(text: str, *, source: str | None = None, strict: bool = True) -> Parsed:
    lines = text.split("\n")
    if not any(_RECORD.match(x) for x in lines) and console.is_console(lines):
        return _parse_console(lines, source, strict)
    warnings: list[str] = []
    recs = []
    for rec in read_records(text, source, strict, warnings):
        reason = int64_problem(rec)  # a record is one line: the number's line is rec.line
        if reason is None:
            recs.append(rec)
        elif strict:
            raise ParseError(TOOL, source, rec.line, reason)
        else:
            warnings.append(f"line {rec.line} skipped: {reason}")
    if not recs:
        # located at the block's first line: every line of it was read and none was a record
        # (lenient: those skipped say why, e.g. a record cut short)
        raise ParseError(
            TOOL,
            source,
            1 if text.strip() else None,
            "no ethr records found (expected JSON lines with "
            '"Time" and "Type", as written by ethr -o)' + (f"; {warnings[0]}" if warnings else ""),
        )
    runs = []
    for test in group(recs):
        runs.extend(check_int64(run, TOOL, source) for run in build(test, source, strict))
    if warnings and runs:
        runs[0].warnings[:0] = warnings
    return Parsed(TOOL, runs)


def _parse_console(lines: list[str], source: str | None, strict: bool) -> Parsed:
    version = console.version(lines)
    strays: list[tuple[int, str]] = []
    recs = console.records(lines, strays)
    said: list[str] = []
    for no, line in strays:
        stray(TOOL, source, no, line, strict, said)  # raises when strict
    runs = []
    for test in group(recs):
        test.form = "console"
        for run in build(test, source, strict):
            run.meta["tool_version"] = version
            # a client's console ends 'Ethr done, ...': this one was cut before it (a
            # server's runs until stopped)
            if not test.done and test.role == "client":
                run.warnings.append(
                    f"no 'Ethr done, ...' line after line {test.records[-1].line}: the "
                    "output was cut short"
                )
                if run.meta.get("mode") != "latency":  # a latency batch is whole on its line
                    run.meta["complete"] = False
            runs.append(check_int64(run, TOOL, source))
    if not runs:
        raise ParseError(TOOL, source, 1, "no ethr test in its console output")
    for (no, _), warning in zip(strays, said):  # each said in the run around it (or above)
        run = next((r for r in reversed(runs) if r.line_start <= no), runs[0])
        run.warnings.append(warning)
    return Parsed(TOOL, runs)
