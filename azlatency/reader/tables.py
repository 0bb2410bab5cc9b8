"""The runs of every block as the three tables: located, labelled with where they came
from, a repeated copy of a run named, and built into frames."""

from __future__ import annotations

import bisect
import difflib
import json
import re
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pandas as pd

from .. import schema
from .._console import counted
from ..decode import Decoded
from ..errors import (
    ParseError,
    SchemaError,
    shift_lines,
)
from ..parsers import get
from ..parsers._base import Parsed, Span
from ..parsers._lines import command_of, repeated_str
from ..schema import Tables
from .outline import _command_passed_over, _commands, _context, _outline, _pick_command


def _tables(
    spans: list[Span],
    blocks: list[Parsed | None],
    decoded: Decoded,
    sha: str,
    source: str | None,
    *,
    lines: list[str] | None,
    strict: bool = False,
) -> Tables:
    # Headings and fences matter only above a block's first line: a whole-file output of a
    # million lines needs none of it.
    upto = max((s.start for s in spans), default=0) + 1
    headings, fenced = _outline(lines[:upto], spans) if lines is not None else ([], [])
    rows: list[_RunRows] = []
    covered = _covered(spans)
    for block_no, (span, parsed) in enumerate(zip(spans, blocks)):
        if parsed is None:
            continue
        first = len(rows)
        where = _Block(
            block_no,
            span,
            sha,
            source or "<text>",
            decoded.encoding,
            headings[span.start] if headings else None,
            _context(lines, fenced, span.start) if lines is not None else None,
            *_block_commands(lines, span, parsed.tool),
        )
        rows.extend(_run_rows(where, parsed.tool, k, run) for k, run in enumerate(parsed.runs))
        if lines is not None and len(rows) > first:
            _beside(lines, span, covered, parsed.tool, rows[first], rows[-1])
    samples = _Samples(rows)
    _repeats(rows, lines, samples.hashes())
    try:
        return _frames(rows, samples)
    except (SchemaError, OverflowError):
        return _without_unstorable(rows, source, strict)


def _covered(spans: list[Span]) -> Callable[[int], bool]:
    """Whether a line (0-based) lies in one of ``spans`` (sorted, not overlapping)."""
    starts = [s.start for s in spans]

    def inside(i: int) -> bool:
        k = bisect.bisect_right(starts, i) - 1
        return k >= 0 and i < spans[k].end

    return inside


_DIGITS = re.compile(r"\d+")
# Shapes this alike (difflib's ratio) name the line.  Over every fixture and corpus file the
# only pair at 0.75 or more is a command line above its output (0.87, skipped as a command).
_NEAR = 0.8


def _shape(line: str) -> str:
    return _DIGITS.sub("0", line.strip())


def _beside(lines: list[str], span: Span, covered, tool: str, first, last) -> None:
    """The line just above or below an output, in no output, shaped like the output's own
    line next to it (numbers aside) but not read by its parser: a damaged or cut line of the
    output ('10.77.0.1 : [10], 64 bytes, nan ms (...)' after fping's replies) was left out of
    its block, and so of the run, without a word.  The run beside it names it."""
    # the output's first and last line that is not blank (a walk from each end: a block may
    # hold ten million lines)
    top = next((i for i in range(span.start, span.end) if lines[i].strip()), None)
    if top is None:
        return
    bottom = next(i for i in range(span.end - 1, top - 1, -1) if lines[i].strip())
    commands = get(tool).INFO.command_names()
    for at, mine, run in ((span.start - 1, top, first), (span.end, bottom, last)):
        if at < 0 or at >= len(lines) or covered(at) or not lines[at].strip():
            continue
        a, b = _shape(lines[at]), _shape(lines[mine])
        if min(len(a), len(b)) < 8 or command_of(lines[at], commands)[0]:
            continue
        if difflib.SequenceMatcher(None, a, b, autojunk=False).ratio() >= _NEAR:
            note = (
                f"line {at + 1} looks like this {tool} output's line {mine + 1} but does not "
                "read: a damaged or cut line? (left out)"
            )
            _warn(run, note)


@dataclass
class _Block:
    """Where a block sits and what stands above it: the labels every run of it gets."""

    no: int
    span: Span
    sha: str
    source: str
    encoding: str
    heading: str | None
    context: str | None
    commands: list[tuple]  # (command, prompt host) candidates above the block
    passed: str | None  # the warning when a shell line stands between it and its command
    server: re.Pattern | None  # the tool's server command, to tell a server's run apart


def _block_commands(lines: list[str] | None, span: Span, tool: str) -> tuple:
    """The commands above a block, the warning when one was passed over, the server pattern."""
    info = get(tool).INFO
    names = info.command_names()
    cands = _commands(lines, span, names) if lines is not None else []
    passed = None
    if not cands and lines is not None and span.start:
        passed = _command_passed_over(lines, span, names)
    return cands, passed, re.compile(info.server_command) if info.server_command else None


def _run_rows(where: _Block, tool: str, k: int, run) -> _RunRows:
    """One run of a block as its rows, labelled with where it came from (lines in the file's
    count, the command above it, its warnings and implausible summaries)."""
    span = where.span
    run_id = f"{where.sha[:12]}-{where.no:03d}-{k:03d}"
    meta = dict(run.meta)
    meta.setdefault("tool", tool)
    meta.setdefault("complete", True)
    cmd, host = _pick_command(where.commands, meta.get("role"), where.server)
    if cmd and not meta.get("command"):
        meta["command"] = cmd
    if host and not meta.get("prompt_host"):
        meta["prompt_host"] = host
    warnings = list(run.warnings) + ([meta.pop("warnings")] if meta.get("warnings") else [])
    kept, flagged = _plausible(run.summaries)
    warnings += flagged
    if span.start:  # parsers count lines within their block; the file's count is wanted
        warnings = [shift_lines(w, span.start) for w in warnings]
    if where.passed and not meta.get("command"):
        warnings.append(where.passed)  # counted in the file's lines already
    meta.update(
        run_id=run_id,
        source_path=where.source,
        source_sha256=where.sha,
        encoding=where.encoding,
        block=where.no,
        line_start=span.start + run.line_start,
        line_end=span.start + run.line_end,
        heading=where.heading,
        context=where.context,
        warnings="; ".join(warnings) if warnings else None,
    )
    if isinstance(meta.get("labels"), dict):
        meta["labels"] = json.dumps(meta["labels"], sort_keys=True)
    # the run_id column is added to all runs' samples at once (_Samples.table)
    rows = run.sample_rows()
    summaries = [{"run_id": run_id, **row.__dict__} for row in kept]
    return _RunRows(
        tool, meta["line_start"], meta, rows if rows and rows[2] > rows[1] else None, summaries
    )


def _without_unstorable(rows: list[_RunRows], source: str | None, strict: bool) -> Tables:
    """A number beyond what a column stores (int64): find the runs that carry one and raise,
    or (lenient) drop them, at their first line rather than as a bare SchemaError."""
    problems, keep = [], []
    for r in rows:
        try:
            _frames([r])
        except (SchemaError, OverflowError) as exc:
            err = _too_big(r.tool, source, r.line, exc)
            if strict:
                raise err from None
            problems.append(err)
        else:
            keep.append(r)
    tables = _frames(keep)
    tables.problems.extend(problems)
    return tables


_COUNTS = ("packets_sent", "packets_received", "loss_pct")


def _figures(r: _RunRows, hashes: np.ndarray | None) -> tuple | None:
    """What a run measured, without where it sits: its summaries and (the ends of) its
    samples.  None when it holds too little to tell a copy from a coincidence: fewer than
    20 samples or 5 distinct ones (ten 1-s iperf3 intervals capped at one rate), or, with no
    samples, fewer than four distinct non-zero measured figures (an idle disk, a failed
    test, a count) unless it names the message size it measured (a qperf -oo sweep visits
    each size once)."""
    summ = tuple(
        sorted(
            (s["metric"], s["stat"], repr(s["value"]), s["unit"], s["source"]) for s in r.summaries
        )
    )
    distinct = {
        s["value"]
        for s in r.summaries
        if s["stat"] not in ("count", "total") and s["value"] == s["value"] and s["value"]
    }
    # the counts a run's meta holds are figures too (fping's 'xmt/rcv/%loss = 10/9/10%')
    counts = tuple(r.meta.get(c) for c in _COUNTS)
    distinct |= {float(v) for v in counts if v is not None and pd.notna(v) and float(v)}
    summ = (*summ, counts)
    digest, varied = None, False
    if r.n:  # hashes: _Samples.hashes
        digest = (r.n, int(hashes.sum()))
        varied = r.n >= 20 and len(np.unique(hashes)) >= 5
    if digest is not None:  # the figures come from the samples: they decide
        return (r.tool, r.meta.get("mode"), summ, digest) if varied else None
    if len(distinct) >= 4:
        return (r.tool, r.meta.get("mode"), summ)
    if r.meta.get("msg_size_bytes") is not None and distinct:
        return (r.tool, r.meta.get("mode"), r.meta.get("msg_size_bytes"), summ)
    return None


_ENDS = 1000  # a long run's first and last thousand rows


def _ends(samples: pd.DataFrame) -> pd.DataFrame:
    """The first and last :data:`_ENDS` rows of a long run, from two slices: ``iloc`` of their
    positions took 33 ms of a 10-million-row sockperf log (the Arrow string columns' take),
    the slices and their concat 1.5 ms, for the same rows."""
    return pd.concat([samples.iloc[:_ENDS], samples.iloc[-_ENDS:]])


def _row_hashes(samples: pd.DataFrame) -> np.ndarray:
    """A hash of each row but its run id, column by column from the arrays (each column's
    hash as ``hash_pandas_object`` makes it, combined as it combines a frame's) without
    building the frame without the run id: half the time of a read of a log of many short
    runs (1,200 iperf3 tests: 2.2 ms a run before)."""
    out = np.full(len(samples), 0x345678, dtype=np.uint64)
    mult = np.uint64(1000003)
    names = [c for c in samples.columns if c != "run_id"]
    for i, name in enumerate(names):
        # ExtensionArray._hash_pandas_object: the hook hash_pandas_object calls
        out ^= samples[name].array._hash_pandas_object(
            encoding="utf8", hash_key="0123456789123456", categorize=True
        )
        out *= mult
        mult += np.uint64(82520 + 2 * (len(names) - i))
    return out + np.uint64(97531)


_NUMBER = re.compile(r"\d+(?:\.\d+)?")


def _repeats(rows: list[_RunRows], lines: list[str] | None, hashes: dict[int, np.ndarray]) -> None:
    """A run whose figures repeat an earlier run's of the same file, value for value, or whose
    lines repeat an earlier run's word for word (three or more lines, or eight or more
    numbers: a short run of lost probes has too few figures to compare), was most likely pasted twice: both stay (two
    identical executions are possible, if unlikely), and the later one says so, so a
    run-level test is not handed a replicate unseen."""
    seen: dict[tuple, _RunRows] = {}
    for k, r in enumerate(rows):
        key = _figures(r, hashes.get(k))
        if key is None and lines is not None:
            a, b = r.meta["line_start"], r.meta["line_end"]
            text = tuple(x.strip() for x in lines[a - 1 : b] if x.strip())
            # the numbers are counted only where the lines are too few to decide
            enough = len(text) >= 3 or sum(len(_NUMBER.findall(x)) for x in text) >= 8
            key = ("text", r.tool, text) if enough else None
        if key is None:
            continue
        first = seen.setdefault(key, r)
        where = (first.meta["line_start"], first.meta["line_end"])
        if first is r or (key[0] == "text" and where == (r.meta["line_start"], r.meta["line_end"])):
            continue  # (two runs of one block's lines: a client's and its server's, embedded)
        old = r.meta.get("warnings")
        if old and "repeated copy" in old:
            continue  # its parser said so already
        note = (
            f"the same figures as the run at lines {first.meta['line_start']}-"
            f"{first.meta['line_end']}: a repeated copy? (both read)"
        )
        _warn(r, note)


def _warn(row: _RunRows, note: str) -> None:
    """Add ``note`` to a run's warnings (its rows not yet framed)."""
    old = row.meta.get("warnings")
    row.meta["warnings"] = f"{old}; {note}" if old else note


def _plausible(summaries: list) -> tuple[list, list[str]]:
    """The summaries a tool can have meant, and a warning for each one left out."""
    zero = schema.moved_nothing(summaries)
    kept, flagged = [], []
    for i, s in enumerate(summaries):
        why = "zero throughput for a test that moved data" if i in zero else None
        why = why or schema.implausible(s.metric, s.stat, s.value, s.unit)
        if why:
            flagged.append(f"{s.metric} {s.stat} = {s.value:g} {s.unit} not stored: {why}")
        else:
            kept.append(s)
    return kept, flagged


def _too_big(tool: str, source: str | None, line: int, exc: Exception) -> ParseError:
    if isinstance(exc, SchemaError) and "missing required column" in str(exc):
        # a parser's fault, not the input's: say so rather than blame a number
        return ParseError(tool, source, line, f"the run does not fit the tables ({exc})")
    return ParseError(tool, source, line, f"value out of range for int64 ({exc})")


@dataclass
class _RunRows:
    """One run's rows, before the frames are built."""

    tool: str
    line: int
    meta: dict
    samples: tuple[pd.DataFrame, int, int] | None  # rows [a, b) of a frame (Run.sample_rows)
    summaries: list[dict]

    @property
    def n(self) -> int:
        return 0 if self.samples is None else self.samples[2] - self.samples[1]

    def frame(self) -> pd.DataFrame:
        """The samples as a frame of their own (a slice of a shared one)."""
        frame, a, b = self.samples
        return frame if (a, b) == (0, len(frame)) else frame.iloc[a:b].reset_index(drop=True)


def _frames(rows: list[_RunRows], samples: _Samples | None = None) -> Tables:
    run_rows = [r.meta for r in rows]
    summary_rows = [s for r in rows for s in r.summaries]
    runs = schema.frame("runs", run_rows) if run_rows else schema.empty("runs")
    table = (samples or _Samples(rows)).table()
    samples_frame = schema.frame("samples", table) if table is not None else schema.empty("samples")
    _said(runs, [_impossible(samples_frame, "samples", "sample"), _impossible(runs, "runs", None)])
    summaries = (
        schema.frame("summaries", summary_rows) if summary_rows else schema.empty("summaries")
    )
    return Tables(runs, samples_frame, summaries)


# Ends of a range, which may be open: a histogram's last bin (latte's '>= 9998' up to inf)
_OPEN_ENDED = re.compile(r"bin_|bound_")


def _impossible(frame: pd.DataFrame, table: str, one: str | None) -> dict[str, list[str]]:
    """``frame``'s values no tool prints, left empty, and what was, by run_id (``one``: what
    a row is, or None for the runs table): an infinity ('inf' in a log, or a number beyond
    float64: '1e400'), a figure below zero where none can be (``schema.NEVER_NEGATIVE``: '-5'
    for '5') and a loss over 100 %.  One pass over each column: a run at a time cost a
    server log's 1,200 tests more than their parse."""
    said: dict[str, list[str]] = {}
    if not len(frame):
        return said
    never = schema.NEVER_NEGATIVE[table]
    # the names and dtypes as lists: frame.dtypes.items() alone took 150 µs a small table
    for col, dtype in zip(frame.columns.tolist(), frame.dtypes.tolist(), strict=True):
        kind = dtype.kind
        if kind not in "fi" or _OPEN_ENDED.match(col) or (kind == "i" and col not in never):
            continue
        column, over = frame[col], None
        if kind == "f":
            values = column.to_numpy(dtype=float, na_value=np.nan)
            inf, neg = np.isinf(values), None if col not in never else values < 0
            if col == "loss_pct":  # 14 lost of 50 sent, '14' damaged to '18849': 37698 %
                over = values > 100
        elif column.to_numpy(dtype=np.int64, na_value=0).min() >= 0:
            # Int64: no mask of 10 million values made unless one is below zero; a missing
            # value read as 0 (a view of the values where none is missing: 6 ms a column of
            # 10 million, where the array's own min copied the unmasked ones first, 90 ms)
            continue
        else:
            inf, neg = None, column.lt(0).to_numpy(dtype=bool, na_value=False)
        for why, bad in (("not a finite number", inf), ("below zero", neg), ("over 100", over)):
            if bad is None or not bad.any():
                continue
            frame[col] = frame[col].mask(bad)
            ids = pd.Series(frame["run_id"].to_numpy()[bad]).value_counts(sort=False)
            for rid, n in ids.items():
                what = f"{col} of {counted(int(n), one)}" if one else col
                said.setdefault(rid, []).append(f"{what} not stored: {why}")
    return said


def _said(runs: pd.DataFrame, said: list[dict[str, list[str]]]) -> None:
    """What each of ``said`` says of a run added to the run's ``warnings``."""
    notes_of: dict[str, list[str]] = {}
    for one in said:
        for rid, notes in one.items():
            notes_of.setdefault(rid, []).extend(notes)
    for rid, notes in notes_of.items():
        at = runs.index[runs["run_id"] == rid]
        old = runs.at[at[0], "warnings"]
        runs.loc[at, "warnings"] = "; ".join([*([old] if isinstance(old, str) else []), *notes])


# Beyond it, runs' samples that take turns in shape are joined in run order as they come:
# joining the runs of each shape and then putting the rows back in order holds a second copy.
_REORDER_ROWS = 1_000_000


class _Samples:
    """The runs' samples joined for the repeated-copy check and the samples table.

    Runs whose frames have the same columns and dtypes are joined together: ``pd.concat``
    aligns nothing among them (a server log's 1,200 iperf3 tests of four shapes joined one by
    one spent 0.45 s aligning columns, 0.05 s so), and one hash per column serves them all.
    Runs that share one frame (``Run.share``), all of its rows in order, are that frame."""

    def __init__(self, rows: list[_RunRows]) -> None:
        self.rows = rows
        self.shapes: dict[tuple, list[int]] = {}  # (columns, dtypes) -> runs, in order
        self.joined: dict[tuple, pd.DataFrame] = {}  # a shape's runs joined, when all short
        shape_of: dict[int, tuple] = {}  # id(frame) -> its shape, once for a shared frame
        for k, r in enumerate(rows):
            if r.samples is not None:
                frame = r.samples[0]
                key = shape_of.get(id(frame))
                if key is None:
                    key = (tuple(frame.columns.tolist()), tuple(frame.dtypes.tolist()))
                    shape_of[id(frame)] = key
                self.shapes.setdefault(key, []).append(k)
        for shape, ks in self.shapes.items():
            whole = self._whole(ks)
            if whole is not None:
                self.joined[shape] = whole

    def _whole(self, ks: list[int]) -> pd.DataFrame | None:
        """The frame the runs ``ks`` share when they are all of its rows, in order."""
        frame, end = self.rows[ks[0]].samples[0], 0
        for k in ks:
            f, a, b = self.rows[k].samples
            if f is not frame or a != end:
                return None
            end = b
        return frame if end == len(frame) else None

    def hashes(self) -> dict[int, np.ndarray]:
        """Each run's :func:`_row_hashes` (of its first and last thousand rows past 2,000),
        the short runs of a shape hashed in one go: a row's hash is its own values'."""
        out: dict[int, np.ndarray] = {}
        for shape, ks in self.shapes.items():
            short = [k for k in ks if self.rows[k].n <= 2 * _ENDS]
            for k in ks:
                if self.rows[k].n > 2 * _ENDS:
                    out[k] = _row_hashes(_ends(self.rows[k].frame()))
            if not short:
                continue
            if len(short) == len(ks) and shape in self.joined:  # one shared frame
                every = _row_hashes(self.joined[shape])
                for k in ks:
                    out[k] = every[self.rows[k].samples[1] : self.rows[k].samples[2]]
                continue
            joined = pd.concat([self.rows[k].frame() for k in short], ignore_index=True)
            if len(short) == len(ks):
                self.joined[shape] = joined  # the table's too
            every, start = _row_hashes(joined), 0
            for k in short:
                out[k], start = every[start : start + self.rows[k].n], start + self.rows[k].n
        return out

    def _joined(self, shape: tuple) -> pd.DataFrame:
        """The runs of ``shape`` joined (by :meth:`hashes` already when all are short)."""
        if shape in self.joined:
            return self.joined[shape]
        return _join([self.rows[k].frame() for k in self.shapes[shape]])

    def table(self) -> pd.DataFrame | None:
        """Every run's samples in run order, with its ``run_id`` first; None when none has."""
        order = sorted(k for ks in self.shapes.values() for k in ks)
        if not order:
            return None
        lengths = {k: self.rows[k].n for k in order}
        groups = list(self.shapes.values())
        in_order = [k for ks in groups for k in ks] == order
        if not in_order and sum(lengths.values()) > _REORDER_ROWS:
            groups, in_order = [order], True
            parts = [_join([self.rows[k].frame() for k in order])]
        else:
            parts = [self._joined(shape) for shape in self.shapes]
        # a shallow copy of a lone part: the run_id goes into the table, not a run's frame
        frame = _join(parts).copy(deep=False)
        if not in_order:
            frame = frame.take(_back_in_order(groups, lengths)).reset_index(drop=True)
        ids = [self.rows[k].meta["run_id"] for k in order]
        frame.insert(0, "run_id", repeated_str(ids, [lengths[k] for k in order]))
        return frame


def _join(frames: list[pd.DataFrame]) -> pd.DataFrame:
    """``pd.concat`` of ``frames``, or the lone frame as it is: concat copies even one, and
    a long run's copy is its whole samples again at the peak."""
    return frames[0] if len(frames) == 1 else pd.concat(frames, ignore_index=True)


def _back_in_order(groups: list[list[int]], lengths: dict[int, int]) -> np.ndarray:
    """Row positions, in run order, of the runs' rows joined group after group."""
    start, at = 0, {}
    for ks in groups:
        for k in ks:
            at[k], start = start, start + lengths[k]
    return np.concatenate([np.arange(at[k], at[k] + lengths[k]) for k in sorted(at)])
