"""TEMPLATE for a new parser: copy to ``azlatency/parsers/<tool>.py`` (docs/contributing.md).

Not registered: ``tests/parsers/test_template.py`` copies it, registers it under the name of its toy
tool and imports a folder through ``azlatency import``, so the template stays a working parser.
It reads the output of a made-up probe tool, ``toyping``::

    $ toyping 10.0.0.2 -c 3
    toyping to 10.0.0.2, 3 probes
    probe 1: 101.5 us
    probe 2: 99.0 us
    probe 3: 100.5 us
    done: 3 sent, 3 received, avg 100.3 us

What a real parser adds is in the comments marked ``TOOL:``.  Keep the shape: module
constants for the format's facts, ``locate`` to find the tool's outputs in a document, ``parse``
as a pure function of one block's text, a located ``ParseError`` for anything unexpected.
"""

from __future__ import annotations

import re

from ..errors import ParseError
from ._base import Parsed, Run, Span, ToolInfo
from ._lines import integer, number, samples_frame, stray

# TOOL: the variants (dialects, versions, OSes) you read, with a fixture for each.
INFO = ToolInfo(
    tool="toyping",
    description="toyping probe lines and its 'done:' summary",
    variants=("text",),
    versions="toyping 1.x",
    produces=("runs", "samples", "summaries"),
    flags="-c <count>",
    latency_basis="rtt",  # TOOL: what the printed latency is: rtt or half_rtt
)
TOOL = INFO.tool

_HEAD = re.compile(r"^toyping to (?P<host>\S+), (?P<count>\d+) probes?\s*$")
_PROBE = re.compile(r"^probe (?P<seq>\d+): (?P<rtt>\S+) us\s*$")
_DONE = re.compile(
    r"^done: (?P<sent>\d+) sent, (?P<received>\d+) received, avg (?P<avg>\S+) us\s*$"
)
_COMMAND = re.compile(r"^\s*\$\s+toyping\s")


def locate(lines: list[str]) -> list[Span]:
    """Each output from its title line (or the command line just above it) to its ``done:``
    line, or to the next title or the end when it was cut short."""
    spans: list[Span] = []
    i = 0
    while i < len(lines):
        if not _HEAD.match(lines[i]):
            i += 1
            continue
        start = i - 1 if i and _COMMAND.match(lines[i - 1]) else i
        j = i + 1
        while j < len(lines) and not _HEAD.match(lines[j]):
            j += 1
            if _DONE.match(lines[j - 1]):
                break
        spans.append(Span(start, j, TOOL))
        i = j
    return spans


def parse(text: str, *, source: str | None = None, strict: bool = True) -> Parsed:
    """The runs of one block: one per title line; line numbers are 1-based in ``text``."""
    runs: list[Run] = []
    run: Run | None = None
    probes: dict[str, list] = {}
    for no, line in enumerate(text.split("\n"), start=1):
        if not line.strip() or _COMMAND.match(line):
            continue
        if m := _HEAD.match(line):
            run, probes = _start(m, no), {"seq": [], "kind": [], "status": [], "rtt_us": []}
            runs.append(run)
            run.samples = probes  # replaced by a frame in _finish
        elif run is None:
            raise ParseError(
                TOOL,
                source,
                no,
                f"expected 'toyping to <host>, <n> probes', got {line.strip()[:80]!r}",
            )
        elif run.meta["complete"]:
            # After 'done:' only a new title may follow: anything else is not this run's.
            stray(TOOL, source, no, line, strict, run.warnings)
        elif m := _PROBE.match(line):
            probes["seq"].append(
                integer(m["seq"], tool=TOOL, source=source, line_no=no, what="a probe number")
            )
            # seq, kind and status are required; schema.SAMPLE_COLUMNS says what each holds
            probes["kind"].append("probe")
            probes["status"].append("ok")
            probes["rtt_us"].append(
                number(m["rtt"], tool=TOOL, source=source, line_no=no, what="a round trip in us")
            )
            run.line_end = no
        elif m := _DONE.match(line):
            _done(run, m, source, no)
        else:
            # TOOL: a real log interleaves other lines (kernel messages, a shell prompt):
            # strict mode names the line, lenient mode skips it and says so.
            stray(TOOL, source, no, line, strict, run.warnings)
    if not runs:
        raise ParseError(
            TOOL,
            source,
            None,
            "no toyping output found",
            hint="expected a line 'toyping to <host>, <n> probes'",
        )
    for r in runs:
        _finish(r)
    return Parsed(TOOL, runs)


def _start(m: re.Match[str], no: int) -> Run:
    run = Run(line_start=no, line_end=no)
    run.meta.update(
        tool=TOOL,
        parser_variant="text",
        latency_basis=INFO.latency_basis,
        mode="ping-pong",
        dst_host=m["host"],
        complete=False,
    )
    return run


def _done(run: Run, m: re.Match[str], source: str | None, no: int) -> None:
    sent = integer(m["sent"], tool=TOOL, source=source, line_no=no, what="probes sent")
    received = integer(m["received"], tool=TOOL, source=source, line_no=no, what="probes received")
    avg = number(m["avg"], tool=TOOL, source=source, line_no=no, what="the mean in us")
    run.meta.update(
        packets_sent=sent,
        packets_received=received,
        complete=True,
        loss_pct=100.0 * (sent - received) / sent if sent else None,
    )
    # Units travel with every number: the summary says 'us', the samples column 'rtt_us'.
    run.add("rtt", "mean", avg, "us", n=received)
    run.line_end = no


def _finish(run: Run) -> None:
    probes = run.samples
    run.samples = samples_frame(probes) if probes and probes["seq"] else None
    if not run.meta["complete"]:
        # No silent wrong answers: a run without its summary line was cut short.
        run.warnings.append(f"cut short: no 'done:' line after line {run.line_end}")
