"""fio ``--output-format=json`` and ``json+`` (fio 3.x): one run per job entry; fio's normal
(default) text output is read by ``text.py`` into the same metrics (``parser_variant`` normal).

The JSON is fio's ``show_thread_status_json`` (``stat.c`` of fio 3.33, checked against our
captures, ``tests/fixtures/fio/SOURCES.md``): ``jobs[]`` (or ``client_stats[]`` in client/server
mode), each with ``job options`` and one object per I/O direction (``read``, ``write``,
``trim``; ``mixed`` with ``unified_rw_reporting=mixed``; ``sync`` for fsync latency).

Facts the parser relies on:

* latencies are integer/float **nanoseconds** (``clat_ns``, ``slat_ns``, ``lat_ns``; since fio
  3.0).  fio 2.x wrote ``clat``/``slat``/``lat`` in µs with no ``N`` (one per I/O issued),
  ``bw`` in KiB/s and no ``bw_bytes``, per-interval figures without a sample count, percentile
  lists padded with ``"0.00": 0`` (duplicate keys), and ``io_bytes`` in KiB until fio 2.16 put
  ``io_kbytes`` beside it (``stat.c`` of fio-2.1 ... fio-2.21; captured: fio-2.21);
* ``bw_bytes`` is bytes/s (1000 × io_bytes / runtime ms); ``bw``, ``bw_min``, ``bw_max``,
  ``bw_mean``, ``bw_dev`` are KiB/s (``/ 1024`` in ``add_ddir_status_json`` and
  ``__add_samples``), the last four from per-interval samples;
* percentiles (``"99.000000": 1528``) and ``json+`` bins are the *midpoint* of a log-linear
  bucket (``plat_idx_to_val``: 64 buckets per power of two), so each is only known to lie in
  that bucket: the summaries carry its edges in ``bound_low``/``bound_high``;
* fio prints notes and, with ``--output-format=json,normal``, text before and after the JSON;
* fio forces ``LC_NUMERIC`` to ``en_US`` unless set (``libfio.c``), and JSON floats are
  C-formatted: there is no localised variant.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass
from typing import Any

from ...errors import ParseError
from .._base import Parsed, Run, Span, ToolInfo
from .._lines import (
    STRAY_LINES,
    invalid_json,
    json_closed,
    json_without_copy,
    json_without_strays,
    samples_frame,
    stray,
)
from .._ranges import line_of
from .text import BANNER, JOB, is_text, parse_text, text_spans
from .units import bucket_edges_ns, percentile_stat, size_bytes

INFO = ToolInfo(
    tool="fio",
    description="fio normal text output, --output-format=json / json+ (one run per job)",
    variants=("json", "json+", "normal"),
    versions="2.x (µs latency keys) and 3.x (*_ns) JSON; normal text 2.x and 3.x "
    "(captured: fio-3.33, and fio-2.21 built from source)",
    produces=("runs", "samples", "summaries"),
    flags="--output-format=json+ for the completion-latency histogram (samples)",
    latency_basis=None,
    local=True,
)

TOOL = "fio"
_OPEN = re.compile(r"^\s*\{\s*$")
_VERSION_KEY = re.compile(r'^\s*"fio version"\s*:\s*"fio-')
# The reader's hook.  A JSON output opens at a '{' line with '"fio version"' a few lines below
# it, inside its span; text_spans() keeps a normal output only when it holds a job report
# line ('name: (groupid=0, jobs=1): err= 0: pid=N'), whether it opens there or at a banner.
OPENERS = (_VERSION_KEY, JOB)
_JOBNAME = re.compile(r'^\s*"jobname"\s*:')
# Lines fio writes around its JSON: notes and errors ("fio: ...", "note: ..."), the job banner
# of the normal output ("job: (g=0): rw=read, ..."), "fio-3.33", "Starting 1 process".
_PRE_LINE = re.compile(
    r"^(?:fio[:\- ]|note:|warning:|\S+: \(g=\d+\): rw=|Starting \d+ (?:process|thread)|$)", re.I
)
_BANNER = re.compile(r"^(?:\S+: \(g=\d+\): rw=|fio-\d|Starting \d+ (?:process|thread)|Jobs: )")
DIRECTIONS = ("read", "write", "trim", "mixed")
LATENCIES = ("slat", "clat", "lat")
KIB = 1024


# ---------------------------------------------------------------------------------------------
# detection


def _opens_at(lines: list[str], i: int) -> bool:
    """``lines[i]`` is the ``{`` of fio's JSON: the next non-blank line is ``"fio version"``."""
    if not _OPEN.match(lines[i]):
        return False
    after = [x for x in lines[i + 1 : i + 7] if x.strip()][: 1 + STRAY_LINES]
    return any(_VERSION_KEY.match(x) for x in after)  # maybe past a stray line


def _json_start(lines: list[str], limit: int | None = None) -> int | None:
    stop = len(lines) if limit is None else min(len(lines), limit)
    return next((i for i in range(stop) if _opens_at(lines, i)), None)


def whole_file(head_text: str) -> bool:
    """A file that is fio output from its first line: only fio's own notes and banner may
    precede the JSON (so a document that merely contains fio JSON is left to ``locate``)."""
    lines = head_text.split("\n")[:60]
    start = _json_start(lines, 40)
    if start is None:  # fio's normal output: its banner or first job report, then a report
        start = next((i for i, x in enumerate(lines[:40]) if BANNER.match(x) or JOB.match(x)), None)
        if start is None or not is_text(lines):
            return False
    return all(_PRE_LINE.match(x.strip()) for x in lines[:start])


def locate(lines: list[str]) -> list[Span]:
    """fio JSON inside a document: from the ``{`` line to the ``}`` at column 0 closing it;
    fio's normal output: from its banner or first job report through its group summary."""
    spans = [Span(a, b, TOOL) for a, b in text_spans(lines)]
    i = 0
    while i < len(lines):
        if not _opens_at(lines, i):
            i += 1
            continue
        end = next((j for j in range(i + 1, len(lines)) if lines[j].rstrip() == "}"), None)
        if end is None:
            end = len(lines) - 1  # cut short: parse will say so
        spans.append(Span(i, end + 1, TOOL))
        i = end + 1
    spans.sort(key=lambda s: s.start)
    kept: list[Span] = []
    for s in spans:
        if kept and s.start < kept[-1].end:
            continue
        # --output-format=json,normal: the text report right after the JSON holds the same
        # figures (the JSON's, to more digits): one run, not two
        if (
            kept
            and lines[kept[-1].end - 1].rstrip() == "}"
            and all(not x.strip() for x in lines[kept[-1].end : s.start])
        ):
            continue
        kept.append(s)
    return kept


# ---------------------------------------------------------------------------------------------
# parse


def parse(text: str, *, source: str | None = None, strict: bool = True) -> Parsed:
    lines = text.split("\n")
    start = _json_start(lines)
    if start is None and is_text(lines):
        return Parsed(TOOL, parse_text(lines, source, strict))
    if start is None:
        raise ParseError(
            TOOL,
            source,
            1,
            "expected fio JSON: a '{' line, then '\"fio version\" : \"fio-3...\"'",
            hint="run fio with --output-format=json",
        )
    body = "\n".join(lines[start:])
    try:
        doc, end = json.JSONDecoder().raw_decode(body)
        strays, copy_notes, cut = [], [], False
    except json.JSONDecodeError as exc:
        body, doc, end, strays, copy_notes = _repair(body, exc, start, source, strict)
        lines = lines[:start] + body.split("\n")
        cut = (
            end == len(body)
            and not body[end:].strip()
            and bool(copy_notes)
            and copy_notes[-1].startswith("the JSON is cut short")
        )
    notes = [x.strip() for x in lines[:start] if x.strip() and not _BANNER.match(x.strip())]
    notes += copy_notes
    for no, line in strays:
        stray(TOOL, source, start + no, line, strict, notes)
    tail = body[end:].strip()
    if tail:
        notes.append(
            f"{tail.count(chr(10)) + 1} lines of text after the JSON not read "
            "(fio 'normal' output of --output-format=json,normal?)"
        )
    jobs = doc.get("jobs", doc.get("client_stats")) if isinstance(doc, dict) else None
    if not isinstance(jobs, list):
        raise ParseError(TOOL, source, start + 1, "expected a 'jobs' (or 'client_stats') list")
    job_lines = _job_lines(lines, start, start + body[:end].count("\n"))
    runs, skipped = _job_runs(doc, jobs, job_lines, lines, start, source, strict)
    for run in runs:
        run.warnings[:0] = notes + skipped
        if cut:
            run.meta["complete"] = False  # its figures are fio's, but not all of them
    return Parsed(TOOL, runs)


def _repair(body: str, exc: json.JSONDecodeError, start: int, source: str | None, strict: bool):
    """The document of ``body`` (from line ``start`` on) that failed to load with ``exc``,
    read again without stray lines or a pasted copy: (body, document, where it ends in the
    body, the stray lines, a note on the copy); a ParseError when that does not load."""
    copy_notes: list[str] = []
    body, doc, end, strays = json_without_strays(
        json.JSONDecoder().raw_decode, body, 0, exc, cut_ok=not strict
    )
    if doc is None:
        body, doc, end, copied = json_without_copy(
            json.JSONDecoder().raw_decode, body, 0, exc, offset=start
        )
        if copied:
            if strict:
                raise ParseError(TOOL, source, start + exc.lineno, copied) from None
            copy_notes.append(copied)
    if doc is None and not strict and (closed := json_closed(body)) is not None:
        # a copy cut short keeps what it holds whole: the run, its cut named
        doc, cut = closed
        last = start + body.count("\n", 0, cut) + 1
        end_line = start + body.rstrip().count("\n") + 1
        copy_notes.append(
            f"the JSON is cut short at line {end_line}: read to line {last}, its last whole "
            "member; what fio wrote after it is missing"
            + (
                f" (lines {last + 1}-{end_line} not read: the document breaks after line "
                f"{last}, a block pasted twice or a copy broken there)"
                if end_line - last > 1
                else ""
            )
        )
        return body, doc, len(body), strays, copy_notes
    if doc is None:
        raise invalid_json(TOOL, source, start + exc.lineno, exc, body) from None
    return body, doc, end, strays, copy_notes


def _job_runs(doc, jobs, job_lines, lines, start, source, strict) -> tuple[list[Run], list[str]]:
    """One run per job, and (lenient) a note for each job skipped."""
    runs: list[Run] = []
    skipped: list[str] = []
    errors: list[ParseError] = []
    for k, job in enumerate(jobs):
        first, last = job_lines[k] if k < len(job_lines) else (start + 1, start + 1)
        at = _At(source, lines[first - 1 : last], first)
        try:
            runs.append(_run(doc, jobs, k, job, at, last))
        except ParseError as exc:
            if strict:
                raise
            skipped.append(f"job {k} skipped: {exc.reason}")
            errors.append(exc)
    if not runs and errors:
        raise errors[0]  # every job failed: the first one's error, at its line
    if not runs:
        raise ParseError(TOOL, source, start + 1, "no job results in the JSON")
    return runs, skipped


def _job_lines(lines: list[str], start: int, end: int) -> list[tuple[int, int]]:
    """1-based (first, last) line of each job object, found by its ``"jobname"`` key."""
    names = [i for i in range(start, end + 1) if _JOBNAME.match(lines[i])]
    out = []
    for k, i in enumerate(names):
        last = names[k + 1] - 2 if k + 1 < len(names) else end - 1
        out.append((i, max(i, last) + 1))  # the '{' above "jobname" is line i (1-based)
    return out


@dataclass(frozen=True)
class _At:
    """Where a job's values are.  ``json`` reports no positions, so a bad value is found by
    its key and its text on one line (fio writes one ``"key" : value`` per line); when that
    fails (a float written differently, a one-line document), the job's first line."""

    source: str | None
    lines: list[str]  # the job's lines
    first: int  # line number of lines[0], the job's '{'

    def error(self, reason: str, *texts: str) -> ParseError:
        """A ParseError at the first line holding all ``texts`` (JSON texts; none: the job)."""
        line = line_of(self.lines, self.first, *texts) if texts else self.first
        return ParseError(TOOL, self.source, line, reason)


def _kv(key: str, value: Any) -> tuple[str, ...]:
    """The texts that find ``"key" : value`` (an int or a string: json.dumps writes them as
    fio does; a float may be written otherwise, so it is not searched for)."""
    if isinstance(value, bool) or not isinstance(value, int | str):
        return ()
    return json.dumps(key), json.dumps(value)


def _num(obj: dict, key: str, where: str, at: _At) -> float | None:
    value = obj.get(key)
    if value is None:
        return None
    if (
        isinstance(value, bool)
        or not isinstance(value, int | float)
        or (isinstance(value, float) and not math.isfinite(value))
    ):  # json takes NaN, Infinity
        raise at.error(f"expected a number for {where}.{key}, got {value!r}", *_kv(key, value))
    if isinstance(value, int) and not -(2**63) <= value < 2**63:
        raise at.error(
            f"expected {where}.{key} within fio's 64-bit counters, got {value}: out "
            "of range for int64",
            *_kv(key, value),
        )
    return value


def _run(doc: dict, jobs: list, k: int, job: Any, at: _At, last: int) -> Run:
    first = at.first
    if not isinstance(job, dict):
        raise at.error(f"expected a job object, got {type(job).__name__}")
    name = str(job.get("jobname", ""))
    # fio 2.x: latencies in µs under 'clat'/'slat'/'lat' (3.0 wrote clat_ns ...)
    v2 = any(
        isinstance(job.get(d), dict) and "clat" in job[d] and "clat_ns" not in job[d]
        for d in DIRECTIONS + ("sync",)
    )
    options = {**_options(doc.get("global options")), **_options(job.get("job options"))}
    run = Run(line_start=first, line_end=last)
    meta = run.meta
    meta["tool_version"] = str(doc.get("fio version", "")).removeprefix("fio-") or None
    meta["mode"] = options.get("rw") or options.get("readwrite")
    labels = _sizes(meta, options, at)
    labels.update(jobname=name, groupid=job.get("groupid"), options=options)
    # The job shape people filter on, as numbers (fio's defaults when not given: 1 and 1).
    labels["iodepth"] = _int_option(options, "iodepth", 1)
    labels["numjobs"] = _int_option(options, "numjobs", 1)
    if "ioengine" in options:
        labels["ioengine"] = options["ioengine"]
    _streams(meta, labels, jobs, k, name, options)
    if isinstance(job.get("hostname"), str):  # client/server mode: the fio server that ran it
        host = job["hostname"]
        meta[
            "dst_ip"
            if re.match(r"^[\d.:a-fA-F]+$", host) and any(c in host for c in ".:")
            else "dst_host"
        ] = host
        port = job.get("port")
        meta["port"] = port if isinstance(port, int) and 0 < port < 65536 else None
    if isinstance(doc.get("timestamp"), int):
        labels["report_time_unix_s"] = doc["timestamp"]
    error = _num(job, "error", name, at) or 0
    meta["complete"] = error == 0
    if error:
        run.warnings.append(f"fio job {name!r} ended with error {int(error)} (an errno value)")
    runtimes, hist = [], []
    for d in DIRECTIONS + ("sync",):
        part = job.get(d)
        if isinstance(part, dict) and _had_io(part, d, at):
            runtimes.append(_num(part, "runtime", d, at) or 0)
            hist.extend(_direction(run, d, part, at, v2))
    if runtimes and max(runtimes) > 0:
        meta["duration_s"] = max(runtimes) / 1000  # runtime is in ms (stat.c)
    _cpu(run, job, at)
    meta["parser_variant"] = "json+" if hist else "json"
    if hist:
        run.samples = samples_frame(
            {
                "seq": list(range(len(hist))),
                "kind": ["histogram"] * len(hist),
                "status": ["ok"] * len(hist),
                "stream": [h[0] for h in hist],
                "bin_low_us": [h[1] for h in hist],
                "bin_high_us": [h[2] for h in hist],
                "count": [h[3] for h in hist],
            }
        )
    meta["labels"] = json.dumps(labels, sort_keys=True, default=str)
    return run


def _n(value: float) -> int | None:
    """An observation count for the Int64 ``n`` column (None when it cannot be one)."""
    return int(value) if 0 <= value < 2**63 else None


def _int_option(options: dict[str, str], key: str, default: int) -> int | str:
    value = options.get(key)
    if value is None:
        return default
    return int(value) if value.isdecimal() and len(value) < 10 else value  # < 10 digits: fits


def _options(value: Any) -> dict[str, str]:
    return {str(k): str(v) for k, v in value.items()} if isinstance(value, dict) else {}


def _sizes(meta: dict, options: dict[str, str], at: _At) -> dict:
    """msg_size_bytes from ``bs`` (``4k`` = 4096: fio's kb_base is 1024 unless set to 1000);
    ``bs=4k,16k`` gives a size per direction; no bs at all is fio's default of 4096.

    fio reads options in the order given, so ``kb_base=1000`` changes only the sizes after it
    (fio 3.33: ``--bs=1m --kb_base=1000`` moved 1,048,576 bytes per I/O, ``--kb_base=1000
    --bs=1m`` 1,000,000); the JSON lists the options in that order."""
    labels: dict = {}
    order = list(options)
    key = "bs" if "bs" in options else "blocksize"
    kb_base = 1024
    if options.get("kb_base") == "1000" and (
        key not in order or order.index("kb_base") < order.index(key)
    ):
        kb_base = 1000
    raw = options.get("bs", options.get("blocksize"))
    if raw is None:
        if not any(k in options for k in ("bsrange", "blocksize_range", "bssplit")):
            meta["msg_size_bytes"] = 4096
            labels["bs_source"] = "default"
        return labels
    sizes = [size_bytes(p, kb_base) for p in raw.split(",") if p.strip()]
    for size in sizes:
        if size is not None and not 0 <= size < 2**63:  # msg_size_bytes is Int64
            raise at.error(
                f"expected {key} within int64 bytes, got {raw!r}: out of range for int64",
                *_kv(key, raw),
            )
    if sizes and None not in sizes:
        if len(set(sizes)) == 1:
            meta["msg_size_bytes"] = sizes[0]
        if len(sizes) > 1:
            for d, size in zip(("read", "write", "trim"), sizes):
                labels[f"bs_{d}_bytes"] = size
    return labels


def _streams(meta: dict, labels: dict, jobs: list, k: int, name: str, options: dict) -> None:
    """numjobs clones share a jobname: one entry per clone, or one for all of them when
    --group_reporting summed them (fio does not list group_reporting in the options)."""
    numjobs = _int_option(options, "numjobs", 1)
    numjobs = max(1, numjobs) if isinstance(numjobs, int) else 1
    same = [j for j in jobs if isinstance(j, dict) and str(j.get("jobname", "")) == name]
    if numjobs > 1 and len(same) < numjobs:
        meta["streams"] = numjobs
        labels["group_reported"] = True
    else:
        meta["streams"] = 1
        if numjobs > 1:
            labels["clone"] = sum(
                1 for j in jobs[:k] if isinstance(j, dict) and str(j.get("jobname", "")) == name
            )


def _had_io(part: dict, d: str, at: _At) -> bool:
    ios = _num(part, "total_ios", d, at) or 0
    return ios > 0 or (_num(part, "io_bytes", d, at) or 0) > 0


def _direction(run: Run, d: str, part: dict, at: _At, v2: bool = False) -> list[tuple]:
    """The rows of one I/O direction.  ``v2``: fio 2.x JSON, whose ``bw`` (KiB/s) is the
    only bandwidth, whose per-interval figures carry no sample count, whose ``io_bytes`` is
    KiB until ``io_kbytes`` appears beside it (fio 2.16), and whose latencies are µs."""
    n = lambda key: _num(part, key, d, at)  # noqa: E731 - a local shorthand
    if d != "sync":
        # The run's figure (io_bytes / runtime), then the statistics of fio's per-interval
        # samples (every bw_avg_time, 500 ms by default), which is a different basis: with
        # --group_reporting the interval minimum can exceed the run's mean.
        bw = n("bw_bytes") if not v2 else (None if n("bw") is None else n("bw") * KIB)
        run.add(f"disk_bandwidth_{d}", "mean", bw, "bytes/s")
        samples = n("bw_samples") or 0
        # fio 2.x logs interval figures without their count: present when any was logged
        logged = (n("bw_max") or 0) > 0 if v2 else samples > 0
        if logged:
            for stat, key in (
                ("mean", "bw_mean"),
                ("min", "bw_min"),
                ("max", "bw_max"),
                ("std", "bw_dev"),
            ):
                v = n(key)
                run.add(
                    f"disk_bandwidth_{d}_per_interval",
                    stat,
                    None if v is None else v * KIB,
                    "bytes/s",
                    n=_n(samples) if samples else None,
                )
        run.add(f"iops_{d}", "mean", n("iops"), "io/s")
        samples = n("iops_samples") or 0
        if samples:
            for stat, key in (
                ("mean", "iops_mean"),
                ("min", "iops_min"),
                ("max", "iops_max"),
                ("std", "iops_stddev"),
            ):
                run.add(f"iops_{d}_per_interval", stat, n(key), "io/s", n=_n(samples))
        io = n("io_bytes")
        if v2 and "io_kbytes" not in part and io is not None:  # fio < 2.16: KiB
            io *= KIB
        run.add(f"transfer_{d}", "total", io, "bytes")
        for key in ("short_ios", "drop_ios"):
            if n(key):
                run.add(f"{key}_{d}", "total", n(key), "count")
    run.add(f"ios_{d}", "total", n("total_ios"), "count")
    hist = []
    for kind in LATENCIES:
        lat = part.get(kind if v2 else f"{kind}_ns")
        if isinstance(lat, dict):
            hist.extend(_latency(run, f"{kind}_{d}", lat, at, n("total_ios") if v2 else None))
    return hist


def _latency(run: Run, metric: str, lat: dict, at: _At, v2_ios: float | None = None) -> list[tuple]:
    """min/max/mean/std/count and percentiles in µs; json+ bins as histogram samples.
    ``v2_ios``: fio 2.x, whose latencies are µs and carry no ``N``: one per I/O issued."""
    per_us = 1000 if v2_ios is None else 1  # the document's unit per µs
    if v2_ios is None:
        count = _num(lat, "N", metric, at) or 0
    else:  # a latency fio did not measure is all zeros (psync has no slat)
        measured = any(_num(lat, k, metric, at) for k in ("max", "mean"))
        count = v2_ios if measured else 0
    if not count:
        return []  # fio prints zeros for a latency it did not measure (psync has no slat)
    count = _n(count)
    for stat, key in (("min", "min"), ("max", "max"), ("mean", "mean"), ("std", "stddev")):
        v = _num(lat, key, metric, at)
        run.add(metric, stat, None if v is None else v / per_us, "us", n=count)
    run.add(metric, "count", count, "count", n=count)
    pct = lat.get("percentile")
    if isinstance(pct, dict):
        for key, value in pct.items():
            if v2_ios is not None and key == "0.00":
                continue  # fio 2.x pads the list with "0.00": 0 entries (duplicate keys)
            stat = percentile_stat(key)
            if stat is None:
                raise at.error(
                    f"expected '<percent>': <ns> in {metric} percentiles, got {key!r}: {value!r}",
                    *_kv(key, value),
                )
            value = _num(pct, key, f"{metric}.percentile", at)
            # the bucket of the midpoint: ns buckets, or fio 2.x's µs ones (same scheme)
            low, high = bucket_edges_ns(int(value))  # finite (_num checked it)
            run.add(
                metric,
                stat,
                value / per_us,
                "us",
                bound_low=low / per_us,
                bound_high=high / per_us,
                n=count,
            )
    bins = lat.get("bins")
    out = []
    if isinstance(bins, dict):
        for key, c in sorted(bins.items(), key=lambda kv: _int_key(kv[0], metric, at)):
            if isinstance(c, bool) or not isinstance(c, int) or not 0 <= c < 2**63:
                raise at.error(
                    f"expected a count for bin {key} of {metric}, got {c!r}", *_kv(key, c)
                )
            low, high = bucket_edges_ns(_int_key(key, metric, at))
            out.append((metric, low / per_us, high / per_us, c))
        reported = {k: v for k, v in pct.items() if k != "0.00"} if isinstance(pct, dict) else {}
        _computed_percentiles(run, metric, bins, reported, per_us)
    return out


def _computed_percentiles(
    run: Run, metric: str, bins: dict, reported: dict, per_us: int = 1000
) -> None:
    """The reported percentiles again, from the json+ bins, the way fio computes them
    (``calc_clat_percentiles``: the first bucket where the running count reaches p% of N), so
    reported and computed can be checked against each other."""
    ordered = sorted((int(k), c) for k, c in bins.items())
    total = _n(sum(c for _, c in ordered))
    if not total:
        return
    run.add(metric, "count", total, "count", source="computed", n=total)
    for key in reported:
        threshold = float(key) / 100 * total
        running = 0
        for value, c in ordered:
            running += c
            if running >= threshold:
                low, high = bucket_edges_ns(value)
                run.add(
                    metric,
                    percentile_stat(key),
                    value / per_us,
                    "us",
                    source="computed",
                    bound_low=low / per_us,
                    bound_high=high / per_us,
                    n=total,
                )
                break


def _int_key(key: str, metric: str, at: _At) -> int:
    if not key.isdecimal():
        raise at.error(f"expected a bin value in ns in {metric}, got {key!r}", json.dumps(key))
    return int(key)  # any size: bin edges are floats (bin_low_us), not int64


def _cpu(run: Run, job: dict, at: _At) -> None:
    for metric, key, stat, unit in (
        ("cpu_user", "usr_cpu", "mean", "pct"),
        ("cpu_system", "sys_cpu", "mean", "pct"),
        ("context_switches", "ctx", "total", "count"),
        ("page_faults_major", "majf", "total", "count"),
        ("page_faults_minor", "minf", "total", "count"),
    ):
        run.add(metric, stat, _num(job, key, "job", at), unit)
