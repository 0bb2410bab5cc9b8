"""fio's normal (default) text output: one run per job report, the JSON reader's metrics.

The layout is fio 3.x's ``show_thread_status_normal`` (stat.c), captured with fio 3.33
(``tests/fixtures/fio/SOURCES.md``)::

    raid0: (g=0): rw=randread, bs=(R) 4096B-4096B, ..., ioengine=libaio, iodepth=16
    fio-3.33
    Starting 1 process

    raid0: (groupid=0, jobs=1): err= 0: pid=7655: Wed Nov 25 05:50:07 2026
      read: IOPS=340k, BW=1329MiB/s (1393MB/s)(2659MiB/2001msec)
        slat (nsec): min=1773, max=328295, avg=1930.47, stdev=938.31
        clat (nsec): min=1974, max=386795, avg=44761.76, stdev=7184.14
         lat (usec): min=3, max=388, avg=46.69, stdev= 7.40
        clat percentiles (usec):
         |  1.00th=[   42],  5.00th=[   42], ...
       bw (  MiB/s): min= 1265, max= 1374, per=99.69%, avg=1324.78, stdev=55.15, samples=3
       iops        : min=323972, max=351894, avg=339142.67, stdev=14117.34, samples=3
      ...
      cpu          : usr=22.35%, sys=77.45%, ctx=7, majf=0, minf=27
         issued rwts: total=680728,0,0,0 short=0,0,0,0 dropped=0,0,0,0

    Run status group 0 (all jobs):
       READ: bw=1329MiB/s (1393MB/s), ..., io=2659MiB (2788MB), run=2001-2001msec

Numbers are read as printed (fio's ``num2str``): ``IOPS=340k`` is 340,000 io/s (about four
significant digits; the JSON has the exact figure), ``BW=1329MiB/s`` is 1329 × 2²⁰ bytes/s and
``83.4MB/s`` (``--kb_base=1000`` prints the decimal unit first) 83.4 × 10⁶; latencies are in
the unit of their line (``nsec``, ``usec``, ``msec``; ``max=15081k`` nsec is 15,081,000 ns),
percentiles in the unit of their heading.  Metrics and units are the JSON reader's
(``iops_read`` io/s, ``disk_bandwidth_read`` bytes/s, ``clat_read`` µs, ...), so a job
measured both ways compares.  A job report not followed by its ``Run status group`` (the
capture ends inside it) is incomplete, with the line it stops at; a line inside a job report
that is not one of fio's is a located ParseError (strict) or a skipped line (lenient).
"""

from __future__ import annotations

import json
import re
from decimal import Decimal, InvalidOperation

from ...errors import ParseError
from .._base import Run
from .._lines import pieces, run_together
from .units import bucket_span_ns, percentile_stat

TOOL = "fio"
_NUM = r"\d+(?:\.\d+)?"
_BYTES = r"(?:[KMGTPE]i|[kMGTPE])?B"  # num2str with N2S_BYTE: 'KiB' binary, 'kB' decimal
BANNER = re.compile(r"^(?P<name>\S[^:]*): \(g=(?P<g>\d+)\): rw=(?P<rw>\w+), bs=(?P<bs>.*)$")
_BS = re.compile(rf"\((?P<d>[RWT])\) (?P<lo>{_NUM})(?P<lu>{_BYTES})-(?P<hi>{_NUM})(?P<hu>{_BYTES})")
JOB = re.compile(
    r"^(?P<name>\S[^:]*): \(groupid=(?P<g>\d+), jobs=(?P<jobs>\d+)\): err=\s*(?P<err>-?\d+): "
    r"pid=(?P<pid>\d+)"
)
VERSION = re.compile(r"^fio-(?P<v>\d[\w.\-]*)\s*$")
DIR = re.compile(
    rf"^\s+(?P<d>read|write|trim|mixed): IOPS=(?P<iops>{_NUM}[kMGTPE]?), "
    rf"BW=(?P<bw>{_NUM})(?P<bwu>{_BYTES})/s \((?P<alt>{_NUM})(?P<altu>{_BYTES})/s\)"
    rf"\((?P<io>{_NUM})(?P<iou>{_BYTES})/(?P<rt>\d+)msec\)(?:; \d+ zone resets)?\s*$"
)
_SI = rf"{_NUM}[kMGTPE]?"
LAT = re.compile(
    rf"^\s+(?P<kind>slat|clat|lat|sync) \((?P<unit>nsec|usec|msec)\): min=\s*(?P<min>{_SI}), "
    rf"max=\s*(?P<max>{_SI}), avg=\s*(?P<avg>{_NUM}), stdev=\s*(?P<std>{_NUM})\s*$"
)
PCT_HEAD = re.compile(
    r"^\s+(?P<kind>slat|clat|lat|sync) percentiles \((?P<unit>nsec|usec|msec)\):\s*$"
)
PCT_LINE = re.compile(rf"^\s+\|(?:\s*{_NUM}th=\[\s*\d+\],?)+\s*$")
PCT = re.compile(rf"(?P<p>{_NUM})th=\[\s*(?P<v>\d+)\]")
# fio 2.x prints no ', samples=N' (nor an 'iops :' line)
BW = re.compile(
    rf"^\s+bw \(\s*(?P<u>KiB|kB|MiB)/s\): min=\s*(?P<min>\d+), max=\s*(?P<max>\d+), "
    rf"per=\s*{_NUM}%, avg=\s*(?P<avg>{_NUM}), stdev=\s*(?P<std>{_NUM})"
    r"(?:, samples=\s*(?P<n>\d+))?\s*$"
)
IOPS = re.compile(
    rf"^\s+iops\s+: min=\s*(?P<min>\d+), max=\s*(?P<max>\d+), avg=\s*(?P<avg>{_NUM}), "
    rf"stdev=\s*(?P<std>{_NUM}), samples=\s*(?P<n>\d+)\s*$"
)
CPU = re.compile(
    rf"^\s+cpu\s+: usr=(?P<usr>{_NUM})%, sys=(?P<sys>{_NUM})%, ctx=(?P<ctx>\d+), "
    r"majf=(?P<majf>\d+), minf=(?P<minf>\d+)\s*$"
)
# fio 2.x: 'issued rwt: total=r,w,t, short=r,w,t, dropped=r,w,t' (no sync slot, commas)
ISSUED = re.compile(
    r"^\s+issued rwts?: total=(?P<r>\d+),(?P<w>\d+),(?P<t>\d+)(?:,(?P<s>\d+))?,? "
    r"short=[\d,]+,? dropped=[\d,]+\s*$"
)
GROUP = re.compile(r"^Run status group (?P<g>\d+) \(all jobs\):")
_SHARES = rf"(?:(?:>=)?\d+={_NUM}%(?:, )?)+"
# lines of a job report read for nothing: distributions the tables do not hold
KNOWN = re.compile(
    rf"^\s+(?:lat \((?:nsec|usec|msec)\)\s+: {_SHARES}|IO depths\s+: {_SHARES}|"
    rf"(?:submit|complete)\s+: {_SHARES}|"
    rf"latency\s+: target=\d+, window=\d+, percentile={_NUM}%, depth=\d+|"
    r"fsync/fdatasync/sync_file_range:|"
    r"steadystate\s*: attained=(?:yes|no), .*)\s*$"  # --steadystate (stat.c, not captured)
)
# Lines of the normal output outside a job report: banner, version, start, group summary.
_AROUND = re.compile(
    r"^(?:\S[^:]*: \(g=\d+\): rw=|fio-\d|Starting \d+ (?:process|thread)|\.\.\.$|"
    r"Run status group \d+|Disk stats \(read/write\):|Jobs: )"
)
_TIME = {"nsec": 1, "usec": 1000, "msec": 1000_000}  # ns per unit
_PREFIX = {"": 1, "k": 1000, "M": 10**6, "G": 10**9, "T": 10**12, "P": 10**15, "E": 10**18}
_PREFIX.update({"Ki": 1 << 10, "Mi": 1 << 20, "Gi": 1 << 30, "Ti": 1 << 40, "Pi": 1 << 50})
_PREFIX["Ei"] = 1 << 60


def size(value: str, unit: str) -> Decimal:
    """A printed size in bytes, exactly: ``1329`` ``MiB`` → 1329 × 2²⁰; ``83.4`` ``MB`` →
    83,400,000 (fio's ``KiB``/``MiB`` are powers of 1024, ``kB``/``MB`` powers of 1000)."""
    return Decimal(value) * _PREFIX[unit.removesuffix("B")]


def count(text: str) -> Decimal:
    """A printed count (``num2str`` without a unit): ``340k`` → 340,000; ``15081k`` →
    15,081,000; ``9388`` → 9388."""
    m = re.fullmatch(rf"({_NUM})([kMGTPE]?)", text)
    if not m:
        raise ValueError(f"not a fio count: {text!r}")
    return Decimal(m[1]) * _PREFIX[m[2]]


def is_text(lines: list[str]) -> bool:
    """fio's normal output: a job report, or (every job failed) a banner and a group line."""
    head = lines[:4000]
    return any(JOB.match(x) for x in head) or (
        any(BANNER.match(x) for x in head) and any(GROUP.match(x) for x in head)
    )


def text_spans(lines: list[str], stray: int = 3) -> list[tuple[int, int]]:
    """(start, end) of each stretch of fio normal output in a document: from a banner or job
    line through the job reports, group summaries and disk stats (indented lines), past up to
    ``stray`` foreign lines (a kernel message) when fio's lines go on after them."""

    def fio_line(x: str) -> bool:
        return bool(x.strip()) and (x[0] in " \t" or bool(_AROUND.match(x) or JOB.match(x)))

    out, i, n = [], 0, len(lines)
    while i < n:
        if not (BANNER.match(lines[i]) or JOB.match(lines[i])):
            i += 1
            continue
        start = last = i
        j = i + 1
        while j < n:
            x = lines[j]
            if x.strip() and not fio_line(x):
                ahead = [k for k in range(j + 1, min(n, j + 1 + stray + 3)) if lines[k].strip()]
                foreign = 1
                resumed = False
                for k in ahead:
                    if fio_line(lines[k]):
                        resumed = True
                        break
                    foreign += 1
                    if foreign > stray:
                        break
                if not resumed:
                    break
            elif x.strip():
                last = j
            j += 1
        out.append((start, last + 1))
        i = last + 1
    return [(a, b) for a, b in out if any(JOB.match(x) for x in lines[a:b])]


class _Block:
    """One fio output: its banners, version line, notes, job reports and group summaries (a
    document may hold several, e.g. seed 003's commands run one after the other, each job
    named ``raid0``: a report takes the banner of its own output)."""

    def __init__(self, start: int) -> None:
        self.start = start
        self.banners: dict[tuple[str, int], tuple[int, re.Match]] = {}
        self.clones: set[tuple[str, int]] = set()  # banners followed by '...' (numjobs > 1)
        self.version: str | None = None
        self.notes: list[str] = []  # fio's notes and errors before the reports ("fio: pid=")
        self.reports: list[int] = []
        self.groups: list[tuple[int, int]] = []  # (group id, line) of 'Run status group N'
        self.end = start


# Lines of fio's run together where a line break was lost: the version right after the
# banner ('... iodepth=1fio-3.33': the banner's block sizes took it, and the version was
# lost) and 'Starting N processes' right after the version ('fio-3.33Starting 1 process').
_JOINED = re.compile(
    r"(?<=\S)(?=fio-\d[\w.\-]*(?:$|Starting \d))|(?<=\S)(?=Starting \d+ (?:process|thread))"
)


def _apart(x: str) -> list[str]:
    """``x``, or the lines of fio's a lost line break ran together into it."""
    if "fio-" not in x[1:] and "Starting" not in x[1:]:
        return [x]
    return pieces(x, [m.start() for m in _JOINED.finditer(x)])


def _blocks(lines: list[str]) -> list[_Block]:
    blocks: list[_Block] = []
    cur = None
    for i, whole in enumerate(lines):
        parts = _apart(whole)
        for x in parts:
            cur = _read_line(blocks, cur, lines, i, x)
        if len(parts) > 1:
            cur.notes.append(run_together(i + 1, len(parts), "fio"))
    return blocks


def _read_line(
    blocks: list[_Block], cur: _Block | None, lines: list[str], i: int, x: str
) -> _Block:
    """Line ``i`` (or the piece ``x`` of it) taken into the block it belongs to; the block."""
    m = BANNER.match(x)
    if cur is None or (m and (cur.reports or cur.groups)):
        cur = _Block(i if m else 0)
        blocks.append(cur)
    if m:
        cur.banners.setdefault((m["name"], int(m["g"])), (i, m))
        if i + 1 < len(lines) and lines[i + 1].strip() == "...":
            cur.clones.add((m["name"], int(m["g"])))
    elif (v := VERSION.match(x.strip())) and cur.version is None:
        cur.version = v["v"]
    elif JOB.match(x):
        cur.reports.append(i)
    elif g := GROUP.match(x):
        cur.groups.append((int(g["g"]), i))
    elif not (cur.reports or cur.groups) and x.strip() and not _AROUND.match(x):
        cur.notes.append(x.strip())
    cur.end = i + 1
    return cur


def parse_text(lines: list[str], source: str | None, strict: bool) -> list[Run]:
    """Every job report of fio's normal output in ``lines`` (the whole input), as runs."""
    runs: list[Run] = []
    seen: dict[str, int] = {}  # pid -> line of its report
    blocks = _blocks(lines)
    for block in blocks:
        if not block.reports:
            runs += _failed(block, lines)
            continue
        by_name: dict[tuple[str, int], list[str]] = {}  # (name, group) -> pids, in order
        for i in block.reports:
            m = JOB.match(lines[i])
            pids = by_name.setdefault((m["name"], int(m["g"])), [])
            if m["pid"] not in pids:
                pids.append(m["pid"])
        ends = block.reports + [j for _, j in block.groups] + [block.end]
        for i in block.reports:
            stop = min(j for j in ends if j > i)
            run = _job(block, lines, i, stop, by_name, source, strict)
            pid = JOB.match(lines[i])["pid"]
            if pid in seen:  # fio reports each job (process) once
                run.warnings.append(
                    f"the report of pid {pid} at line {i + 1} repeats the one at line "
                    f"{seen[pid] + 1}"
                )
            seen.setdefault(pid, i)
            runs.append(run)
    if not runs:
        raise ParseError(
            TOOL,
            source,
            len(lines),
            "expected a fio job report ('<name>: (groupid=0, jobs=1): err= 0: pid=...')",
        )
    return runs


def _failed(block: _Block, lines: list[str]) -> list[Run]:
    """No job report at all (every job failed before its first I/O, e.g. a missing file with
    ``--readonly``; the JSON of such a run still has a job entry with ``error``): one
    incomplete run per banner, carrying fio's error lines."""
    runs = []
    last = max([j for j in range(block.start, block.end) if lines[j].strip()], default=0)
    for (name, g), (i, m) in block.banners.items():
        run = Run(line_start=i + 1, line_end=max(i, last) + 1)
        labels = _banner(run.meta, m, (name, g) in block.clones)
        labels.update(jobname=name, groupid=g)
        run.meta.update(
            streams=1,
            parser_variant="normal",
            tool_version=block.version,
            complete=False,
            labels=json.dumps(labels, sort_keys=True),
        )
        run.warnings = block.notes + [f"fio printed no report for job {name!r}: it did no I/O"]
        runs.append(run)
    return runs


def _banner(meta: dict, m: re.Match | None, cloned: bool) -> dict:
    """mode, block size, engine and depth from ``name: (g=0): rw=read, bs=(R) 4096B-4096B,
    (W) ..., ioengine=libaio, iodepth=16`` (the sizes as num2str printed them)."""
    labels: dict = {}
    if m is None:
        return labels
    meta["mode"] = m["rw"]
    sizes = {}
    for b in _BS.finditer(m["bs"]):
        lo, hi = size(b["lo"], b["lu"]), size(b["hi"], b["hu"])
        # num2str keeps four digits: '64.0KiB' is taken as 65536 (block sizes are whole
        # KiB), but a decimal unit is a rounding ('1049kB' for 1 MiB with kb_base=1000)
        decimal = b["lu"] not in ("B", "KiB", "MiB", "GiB", "TiB")
        exact = lo == hi and lo == lo.to_integral_value() and 0 < lo < 2**63 and not decimal
        sizes[b["d"]] = int(lo) if exact else None
    values = set(sizes.values())
    if len(values) == 1 and None not in values:
        meta["msg_size_bytes"] = values.pop()
    elif sizes:
        for d, key in (("R", "read"), ("W", "write"), ("T", "trim")):
            if sizes.get(d) is not None:
                labels[f"bs_{key}_bytes"] = sizes[d]
        if None in values:  # a range (bsrange) or a size num2str rounded ("9.77KiB")
            labels["bs_printed"] = m["bs"].split(", ioengine=")[0]
    if e := re.search(r", ioengine=([\w.\-]+)", m["bs"]):
        labels["ioengine"] = e[1]
    if d := re.search(r", iodepth=(\d{1,9})\s*$", m["bs"]):  # fio 3.33 always prints it
        labels["iodepth"] = int(d[1])
    if not cloned:  # clones ('...' under the banner): counted from the reports
        labels["numjobs"] = 1
    return labels


def _job(block: _Block, lines, i: int, stop: int, by_name: dict, source, strict) -> Run:
    head = JOB.match(lines[i])
    name, g, jobs, err = head["name"], int(head["g"]), int(head["jobs"]), int(head["err"])
    run = Run(line_start=i + 1, line_end=i + 1)
    meta = run.meta
    meta["parser_variant"] = "normal"
    meta["tool_version"] = block.version
    banner = block.banners.get((name, g))
    labels = _banner(meta, banner[1] if banner else None, (name, g) in block.clones)
    labels.update(jobname=name, groupid=g)
    meta["streams"] = jobs
    if jobs > 1:  # --group_reporting: one report for the group's jobs
        labels.update(numjobs=jobs, group_reported=True)
    elif (name, g) in block.clones:  # numjobs clones reported one by one
        pids = by_name[(name, g)]
        labels.update(numjobs=len(pids), clone=pids.index(head["pid"]))
    grouped = any(gg == g and j > i for gg, j in block.groups)
    meta["complete"] = err == 0 and grouped
    run.warnings.extend(block.notes)
    if err:
        run.warnings.append(f"fio job {name!r} ended with error {err} (an errno value)")
    state = _State()
    # fio 2.x kept its latency histogram in µs (3.0 moved it to ns): a printed percentile is
    # a µs bucket's midpoint, rounded up only when the heading says msec
    state.hist_ns = 1000 if (block.version or "3").split(".")[0] in ("1", "2") else 1
    last = i
    for j in range(i + 1, stop):
        x = lines[j]
        if not x.strip():
            continue
        last = j
        try:
            _line(run, state, x)
        except (ValueError, InvalidOperation, ArithmeticError):
            error = ParseError(
                TOOL,
                source,
                j + 1,
                f"expected a line of fio's job report, got {x.strip()[:80]!r}",
            )
            if strict:
                raise error from None
            run.warnings.append(f"line {j + 1} skipped: {error.reason}")
    run.line_end = last + 1
    if state.runtime:
        meta["duration_s"] = state.runtime / 1000  # the longest direction, as JSON
    if not grouped:
        run.warnings.append(
            f"no 'Run status group' after the job report (it stops at line {last + 1}): cut short?"
        )
    meta["labels"] = json.dumps(labels, sort_keys=True)
    return run


class _State:
    """Where a job report's reading is: its direction, an open percentile block, kb_base."""

    def __init__(self) -> None:
        self.d: str | None = None
        self.pct: tuple[str, int] | None = None  # (metric, ns per printed unit)
        self.kb_base = 1024
        self.hist_ns = 1  # ns per unit of fio's latency histogram (2.x: µs, 1000)
        self.runtime = 0
        self.mixed = False


def _line(run: Run, st: _State, x: str) -> None:
    """One non-blank line of a job report into ``run``; ValueError when it is not fio's."""
    if st.pct and x.lstrip().startswith("|"):
        _percentiles(run, st, x)
        return
    pct, st.pct = st.pct, None
    if any(take(run, st, x) for take in _TAKES) or KNOWN.match(x):
        return
    st.pct = pct  # a line skipped (lenient) inside a percentile block does not end it
    raise ValueError(x)


def _percentiles(run: Run, st: _State, x: str) -> None:
    """A ``|  1.00th=[   42], ...`` line of the open percentile block."""
    if not PCT_LINE.match(x):
        raise ValueError(x)  # the block stays open: its next lines are still read
    metric, per = st.pct
    for p in PCT.finditer(x):
        stat = percentile_stat(p["p"])
        if stat is None:
            raise ValueError(p["p"])
        value = int(p["v"])
        # fio prints the bucket's midpoint m (ns) rounded *up* to the unit
        # (show_clat_percentiles: '(ovals[j] + 999) / 1000' once per step), so m is in
        # ((value - 1) unit, value unit] and the percentile in m's bucket (units.py);
        # fio 2.x's buckets are µs (hist_ns), the same log-linear scheme
        h = st.hist_ns
        step = per // h  # histogram units per printed unit
        low, high = bucket_span_ns(
            max(0, (value - 1) * step + 1) if step > 1 else value, value * step
        )
        run.add(metric, stat, value * per / 1000, "us", bound_low=low * h / 1000,
                bound_high=high * h / 1000)  # fmt: skip


# Each of the following reads one kind of line of a job report and says whether ``x`` was it.


def _direction(run: Run, st: _State, x: str) -> bool:
    """``read: IOPS=340k, BW=1329MiB/s (1393MB/s)(2659MiB/2001msec)`` opens a direction."""
    if not (m := DIR.match(x)):
        return False
    st.d = m["d"]
    st.mixed = st.mixed or st.d == "mixed"
    if m["bwu"] not in ("B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB") or "i" in m["altu"]:
        st.kb_base = 1000  # fio prints the kb_base unit first (i2p: is it a power of 2)
    run.add(f"disk_bandwidth_{st.d}", "mean", size(m["bw"], m["bwu"]), "bytes/s")
    run.add(f"iops_{st.d}", "mean", count(m["iops"]), "io/s")
    run.add(f"transfer_{st.d}", "total", size(m["io"], m["iou"]), "bytes")
    st.runtime = max(st.runtime, int(m["rt"]))
    return True


def _sync(run: Run, st: _State, x: str) -> bool:
    if x.strip() != "fsync/fdatasync/sync_file_range:":
        return False
    st.d = "sync"
    return True


def _in_direction(m: re.Match | None, st: _State) -> bool:
    """A latency line or heading of the open direction: ``sync`` ones only under fsync."""
    return bool(m) and bool(st.d) and (m["kind"] == "sync") == (st.d == "sync")


def _latency(run: Run, st: _State, x: str) -> bool:
    if not _in_direction(m := LAT.match(x), st):
        return False
    per = _TIME[m["unit"]]
    metric = f"{'lat' if m['kind'] == 'sync' else m['kind']}_{st.d}"
    for stat, key in (("min", "min"), ("max", "max"), ("mean", "avg"), ("std", "std")):
        run.add(metric, stat, count(m[key]) * per / 1000, "us")
    return True


def _percentile_heading(run: Run, st: _State, x: str) -> bool:
    if not _in_direction(m := PCT_HEAD.match(x), st):
        return False
    st.pct = (f"{'lat' if m['kind'] == 'sync' else m['kind']}_{st.d}", _TIME[m["unit"]])
    return True


def _bandwidth_samples(run: Run, st: _State, x: str) -> bool:
    if not ((m := BW.match(x)) and st.d not in (None, "sync")):
        return False
    # fio's interval samples are KiB/s whatever kb_base says (stat.c: '/ 1024'); the
    # label says 'kB' with kb_base=1000, and 'MiB' means divided by kb_base once more
    unit = 1024 * (st.kb_base if m["u"] == "MiB" else 1)
    n = int(m["n"]) if m["n"] else None  # fio 2.x does not say how many samples
    for stat, key in (("mean", "avg"), ("min", "min"), ("max", "max"), ("std", "std")):
        run.add(f"disk_bandwidth_{st.d}_per_interval", stat, Decimal(m[key]) * unit,
                "bytes/s", n=n if n is not None and n < 2**63 else None)  # fmt: skip
    return True


def _iops_samples(run: Run, st: _State, x: str) -> bool:
    if not ((m := IOPS.match(x)) and st.d not in (None, "sync")):
        return False
    n = int(m["n"])
    for stat, key in (("mean", "avg"), ("min", "min"), ("max", "max"), ("std", "std")):
        run.add(f"iops_{st.d}_per_interval", stat, float(m[key]), "io/s",
                n=n if n < 2**63 else None)  # fmt: skip
    return True


def _cpu(run: Run, st: _State, x: str) -> bool:
    if not (m := CPU.match(x)):
        return False
    run.add("cpu_user", "mean", float(m["usr"]), "pct")
    run.add("cpu_system", "mean", float(m["sys"]), "pct")
    run.add("context_switches", "total", int(m["ctx"]), "count")
    run.add("page_faults_major", "total", int(m["majf"]), "count")
    run.add("page_faults_minor", "total", int(m["minf"]), "count")
    return True


def _issued(run: Run, st: _State, x: str) -> bool:
    if not (m := ISSUED.match(x)):
        return False
    # unified_rw_reporting=mixed counts every I/O in the read slot
    ios = {
        d: int(m[k] or 0) for k, d in (("r", "read"), ("w", "write"), ("t", "trim"), ("s", "sync"))
    }
    if st.mixed:
        ios = {"mixed": ios["read"] + ios["write"] + ios["trim"], "sync": ios["sync"]}
    for d, n in ios.items():
        if n:
            run.add(f"ios_{d}", "total", n, "count")
    return True


_TAKES = (
    _direction,
    _sync,
    _latency,
    _percentile_heading,
    _bandwidth_samples,
    _iops_samples,
    _cpu,
    _issued,
)
