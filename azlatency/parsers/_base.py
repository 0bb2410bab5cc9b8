"""The parser contract: what a parser module exposes (:class:`Parser`, :class:`ToolInfo`, the
optional :data:`HOOKS`) and the result types it returns.  The line helpers every parser shares
(strict conversions, commands above an output, stray lines) are ``_lines``.

A parser — a module ``azlatency/parsers/<tool>.py``, or a package ``<tool>/`` whose
``__init__`` holds the contract when the tool needs several files — exposes (:class:`Parser`)

* ``INFO: ToolInfo`` — the tool, the variants and versions it understands, what it produces;
* ``locate(lines: list[str]) -> list[Span]`` — where this tool's outputs sit in a document
  (0-based, end exclusive); the reader cuts them out and parses each as its own block;
* ``parse(text, *, source=None, strict=True) -> Parsed`` — a pure function of the text of one
  block.  It returns one or more :class:`Run` s; line numbers are 1-based within ``text``.

``parse`` raises :class:`~azlatency.errors.ParseError` (never ``IndexError``/``KeyError``/
``ValueError``) when the text is not what it expected.  With ``strict=False`` it may skip a bad
line instead, recording it in ``Run.warnings``.

It may also define the optional hooks named in :data:`HOOKS`; the reader finds them with
:func:`hook` and by no other name.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

import pandas as pd


@dataclass(frozen=True)
class ToolInfo:
    tool: str
    description: str
    variants: tuple[str, ...]
    versions: str  # human-readable range, e.g. "2.x, 3.0-3.8"
    produces: tuple[str, ...] = ("runs", "summaries")
    flags: str = ""  # flags the tool needs for the richest output, e.g. "--full-log"
    latency_basis: str | None = None  # default basis of the latency it prints
    # Variants whose output has no end the tool prints (a CSV of probes, qperf's ``key =
    # value`` lines): cut at a line boundary, they read as a shorter whole output.
    open_ended: tuple[str, ...] = ()
    # The tool measures the machine it runs on (disks, CPU), not a path to another host: its
    # runs have no destination, and none is missing.
    local: bool = False
    # A command line that starts the tool's server side (a regular expression searched in it):
    # above a client's output, beside the client's command, it is not the output's command.
    server_command: str = ""
    # Names the tool's command goes by besides ``tool`` (and ``tool`` with ``-`` for ``_``):
    # a command line naming one of them, above an output, is that output's command.
    commands: tuple[str, ...] = ()
    # Each output holds the samples it has (netperf's -v 2 histogram under its own table): a
    # run without samples is an execution of its own, never a console that summarises another
    # file's samples (sockperf's beside its --full-log); a figure of samples that leaves it
    # out says so.
    own_samples: bool = False

    def command_names(self) -> tuple[str, ...]:
        """Every name a command line of this tool starts with."""
        return tuple(sorted({self.tool, self.tool.replace("_", "-"), *self.commands}))


@runtime_checkable
class Parser(Protocol):
    """The contract of a parser module (``tests/test_contract.py`` checks every registered
    tool against it)."""

    INFO: ToolInfo

    def locate(self, lines: list[str]) -> list[Span]: ...

    def parse(self, text: str, *, source: str | None = None, strict: bool = True) -> Parsed: ...


#: Optional hooks a parser module may define: name -> its signature and what the reader
#: does with it.
HOOKS: dict[str, str] = {
    "whole_file": "whole_file(head: str) -> bool: claim a whole file from its first 64 KiB "
    "(a JSON document, a CSV under its header) before any locate() runs",
    "parse_bytes": "parse_bytes(data: bytes, *, source=None, strict=True) -> Parsed: read a "
    "big file claimed by whole_file from its bytes, without a decoded copy",
    "PARSE_BYTES_CLEANS": "bool: parse_bytes decodes its own input (BOM, CRLF, ANSI colours), "
    "so it takes any file it claims, not only plain ones",
    "OPENERS": "tuple of re.Pattern: every output locate() finds holds a line that matches one "
    "of them (re.search), such as the line it opens on.  The reader asks locate() only about "
    "a document they may match (reader/openers.py)",
}


def hook(module: Any, name: str) -> Any:
    """``module``'s optional hook ``name`` (see :data:`HOOKS`), or None when it has none."""
    if name not in HOOKS:
        raise KeyError(f"{name!r} is not a declared parser hook; declared: {', '.join(HOOKS)}")
    return getattr(module, name, None)


@dataclass(frozen=True)
class Span:
    """Where one output sits in a document: ``lines[start:end]`` (0-based, end exclusive)."""

    start: int
    end: int
    tool: str
    weight: float = 1.0  # tie-break when locators of two tools claim overlapping lines


@dataclass
class Summary:
    metric: str
    stat: str
    value: float
    unit: str
    source: str = "reported"
    level: float | None = None
    bound_low: float | None = None
    bound_high: float | None = None
    n: int | None = None
    hop: int | None = None  # a per-hop statistic of a traced path (mtr); None: end to end


@dataclass
class Run:
    """One tool execution found in a text block."""

    meta: dict[str, Any] = field(default_factory=dict)  # run-table columns
    samples: pd.DataFrame | None = None  # sample-table columns without run_id (see ``shared``)
    summaries: list[Summary] = field(default_factory=list)
    line_start: int = 1  # 1-based within the parsed text
    line_end: int = 1
    warnings: list[str] = field(default_factory=list)
    # The samples as rows [a, b) of one frame that the runs of a parse share (``share``), cut
    # into ``samples`` only when that is read: the reader takes the shared frame whole.  A
    # server log of 1,200 iperf3 tests cut its frame into 1,200 and the reader joined them
    # again: a third of its read.
    shared: tuple[pd.DataFrame, int, int] | None = field(default=None, repr=False, compare=False)

    def add(self, metric: str, stat: str, value: float | None, unit: str, **kw: Any) -> None:
        """Append a summary row; a ``None`` value is skipped (the tool did not print it)."""
        if value is not None:
            self.summaries.append(Summary(metric, stat, float(value), unit, **kw))

    def share(self, frame: pd.DataFrame, a: int, b: int) -> None:
        """The run's samples are ``frame``'s rows ``a`` to ``b`` (end excluded)."""
        self.samples = None
        self.shared = (frame, a, b)

    def sample_rows(self) -> tuple[pd.DataFrame, int, int] | None:
        """The samples as rows [a, b) of a frame (the shared one until ``samples`` is read, as
        it may then be written to; else the run's own); None without samples."""
        if self.shared is not None and self.__dict__.get("_samples") is None:
            return self.shared
        own = self.samples
        return None if own is None else (own, 0, len(own))

    def _own_samples(self) -> pd.DataFrame | None:
        """``samples``: the run's own frame, or its rows of the shared one (with a RangeIndex
        from 0), cut once when first read."""
        own = self.__dict__.get("_samples")
        if own is None and self.shared is not None:
            frame, a, b = self.shared
            own = frame.iloc[a:b]
            own.index = pd.RangeIndex(b - a)
            self.__dict__["_samples"] = own
        return own

    def _set_samples(self, frame: pd.DataFrame | None) -> None:
        self.__dict__["_samples"] = frame
        self.__dict__["shared"] = None  # a frame of its own replaces shared rows


Run.samples = property(Run._own_samples, Run._set_samples)  # type: ignore[assignment]


@dataclass
class Parsed:
    tool: str
    runs: list[Run]
