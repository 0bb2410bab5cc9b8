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

Numbers are read as printed: ``IOPS=340k`` is 340,000 io/s (fio rounds to about three
digits; the JSON has the exact figure), ``BW=1329MiB/s`` 1329 × 2²⁰ bytes/s, latencies in the
unit of their line (``nsec``, ``usec``, ``msec``; ``max=15081k`` nsec is 15,081,000 ns),
percentiles in the unit of their heading.  Metrics and units are the JSON reader's
(``iops_read`` io/s, ``disk_bandwidth_read`` bytes/s, ``clat_read`` µs, ...), so a job
measured both ways compares.  A job report not followed by its ``Run status group`` (the
capture ends inside it) is incomplete, with the line it stops at.
"""

from __future__ import annotations

import json
import re

from ...errors import ParseError
from .._base import Run
from .units import percentile_stat

TOOL = "fio"
BANNER = re.compile(
    r"^(?P<name>\S[^:]*): \(g=(?P<g>\d+)\): rw=(?P<rw>\w+), bs=\(R\) (?P<bs>[\d.]+\w*?)B?-"
)
JOB = re.compile(
    r"^(?P<name>\S[^:]*): \(groupid=(?P<g>\d+), jobs=(?P<jobs>\d+)\): err=\s*(?P<err>-?\d+)"
)
VERSION = re.compile(r"^fio-(?P<v>\d[\w.\-]*)\s*$")
DIR = re.compile(
    r"^\s+(?P<d>read|write|trim|mixed): IOPS=(?P<iops>[\d.]+[kMG]?), "
    r"BW=(?P<bw>[\d.]+)(?P<bwu>[KMGT]?i?B)/s \([\d.]+[kMGT]?B/s\)"
    r"\((?P<io>[\d.]+)(?P<iou>[KMGTP]?i?B)/(?P<rt>\d+)msec\)"
)
LAT = re.compile(
    r"^\s+(?P<kind>slat|clat|lat|sync) \((?P<unit>nsec|usec|msec)\): min=\s*(?P<min>[\d.]+k?), "
    r"max=\s*(?P<max>[\d.]+k?), avg=\s*(?P<avg>[\d.]+), stdev=\s*(?P<std>[\d.]+)"
)
PCT_HEAD = re.compile(r"^\s+(?P<kind>clat|lat|sync) percentiles \((?P<unit>nsec|usec|msec)\):")
PCT = re.compile(r"(?P<p>[\d.]+)th=\[\s*(?P<v>\d+)\]")
BW = re.compile(
    r"^\s+bw \(\s*(?P<u>[KMGT]?i?B)/s\): min=\s*(?P<min>[\d.]+), max=\s*(?P<max>[\d.]+), "
    r"per=[\d.]+%, avg=\s*(?P<avg>[\d.]+), stdev=\s*(?P<std>[\d.]+), samples=\s*(?P<n>\d+)"
)
IOPS = re.compile(
    r"^\s+iops\s+: min=\s*(?P<min>[\d.]+), max=\s*(?P<max>[\d.]+), avg=\s*(?P<avg>[\d.]+), "
    r"stdev=\s*(?P<std>[\d.]+), samples=\s*(?P<n>\d+)"
)
CPU = re.compile(
    r"^\s+cpu\s+: usr=(?P<usr>[\d.]+)%, sys=(?P<sys>[\d.]+)%, ctx=(?P<ctx>\d+), "
    r"majf=(?P<majf>\d+), minf=(?P<minf>\d+)"
)
ISSUED = re.compile(r"^\s+issued rwts: total=(?P<r>\d+),(?P<w>\d+),(?P<t>\d+),\d+")
GROUP = re.compile(r"^Run status group (?P<g>\d+) \(all jobs\):")
# lines of a job report read for nothing (distributions the tables do not hold)
KNOWN = re.compile(
    r"^\s+(?:lat \((?:nsec|usec|msec)\)\s*:|\||IO depths|submit|complete|latency\s+:|"
    r"fsync/fdatasync|clat prio|cpu)|^\s*$"
)
_TIME = {"nsec": 1e-3, "usec": 1.0, "msec": 1e3}  # -> µs
_BIN = {"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40, "P": 1 << 50}
_DEC = {"": 1.0, "k": 1e3, "M": 1e6, "G": 1e9}


def _binary(value: str, unit: str) -> float:
    """``1329`` ``MiB`` → bytes (fio's ``KiB``/``MiB`` are powers of 1024)."""
    return float(value) * _BIN[unit.rstrip("B").rstrip("i")]


def _suffixed(text: str) -> float:
    """``340k`` → 340000.0; ``15081k`` → 15081000.0; ``9388`` → 9388.0."""
    m = re.fullmatch(r"([\d.]+)([kMG]?)", text)
    return float(m[1]) * _DEC[m[2]] if m else float("nan")


# Lines of the normal output outside a job report: banner, version, start, group summary.
_AROUND = re.compile(
    r"^(?:\S[^:]*: \(g=\d+\): rw=|fio-\d|Starting \d+ (?:process|thread)|\.\.\.$|"
    r"Run status group \d+|Disk stats \(read/write\):|Jobs: )"
)


def is_text(lines: list[str]) -> bool:
    return any(JOB.match(x) for x in lines[:4000])


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


def parse_text(lines: list[str], source: str | None, strict: bool) -> list[Run]:
    """Every job report of fio's normal output in ``lines`` (the whole input), as runs."""
    banners: dict[str, dict] = {}
    version = None
    for x in lines:
        m = BANNER.match(x)
        if m and m["name"] not in banners:
            banners[m["name"]] = {"rw": m["rw"], "line": x}
        v = VERSION.match(x.strip())
        if v and version is None:
            version = v["v"]
    starts = [i for i, x in enumerate(lines) if JOB.match(x)]
    groups = {int(m["g"]): i for i, x in enumerate(lines) if (m := GROUP.match(x))}
    runs = []
    for k, i in enumerate(starts):
        stop = starts[k + 1] if k + 1 < len(starts) else len(lines)
        g = int(JOB.match(lines[i])["g"])
        end_at = min([j for gg, j in groups.items() if j > i] or [stop])
        stop = min(stop, end_at)
        grouped = any(gg == g and j > i for gg, j in groups.items())
        runs.append(_job(lines, i, stop, banners, version, grouped, source, strict))
    return runs


def _job(lines, i, stop, banners, version, grouped, source, strict) -> Run:
    head = JOB.match(lines[i])
    name, jobs, err = head["name"], int(head["jobs"]), int(head["err"])
    run = Run(line_start=i + 1, line_end=i + 1)
    meta = run.meta
    meta["parser_variant"] = "normal"
    meta["tool_version"] = version
    banner = banners.get(name, {})
    meta["mode"] = banner.get("rw")
    labels: dict = {"jobname": name, "groupid": int(head["g"])}
    bl = banner.get("line", "")
    if m := re.search(r"bs=\(R\) ([\d.]+)([KMGT]?)i?B-", bl):  # "4096B", "64.0KiB", "1024KiB"
        meta["msg_size_bytes"] = int(float(m[1]) * _BIN[m[2]])
    if m := re.search(r"ioengine=(\w+)", bl):
        labels["ioengine"] = m[1]
    if m := re.search(r"iodepth=(\d+)", bl):
        labels["iodepth"] = int(m[1])
    meta["streams"] = jobs
    if jobs > 1:
        labels["group_reported"] = True
    meta["complete"] = err == 0 and grouped
    if err:
        run.warnings.append(f"fio job {name!r} ended with error {err} (an errno value)")
    d = None  # the direction whose lines follow
    pct_kind = pct_unit = None
    runtime = 0.0
    last = i
    for j in range(i + 1, stop):
        x = lines[j]
        if not x.strip():
            continue
        if GROUP.match(x):
            break
        last = j
        if m := DIR.match(x):
            d = m["d"]
            run.add(f"disk_bandwidth_{d}", "mean", _binary(m["bw"], m["bwu"]), "bytes/s")
            run.add(f"iops_{d}", "mean", _suffixed(m["iops"]), "io/s")
            run.add(f"transfer_{d}", "total", _binary(m["io"], m["iou"]), "bytes")
            runtime = max(runtime, int(m["rt"]) / 1000)
            pct_kind = None
            continue
        if x.strip().startswith("fsync/fdatasync"):
            d, pct_kind = "sync", None
            continue
        if m := LAT.match(x):
            kind = "lat" if m["kind"] == "sync" else m["kind"]
            scale = _TIME[m["unit"]]
            metric = f"{kind}_{d}"
            for stat, key in (("min", "min"), ("max", "max"), ("mean", "avg"), ("std", "std")):
                run.add(metric, stat, _suffixed(m[key]) * scale, "us")
            pct_kind = None
            continue
        if m := PCT_HEAD.match(x):
            kind = "lat" if m["kind"] == "sync" else m["kind"]
            pct_kind, pct_unit = f"{kind}_{d}", _TIME[m["unit"]]
            continue
        if pct_kind and x.strip().startswith("|"):
            for p in PCT.finditer(x):
                stat = percentile_stat(p["p"])
                if stat is not None:
                    run.add(pct_kind, stat, int(p["v"]) * pct_unit, "us")
            continue
        pct_kind = None
        if (m := BW.match(x)) and d:
            unit = _BIN[m["u"].rstrip("B").rstrip("i")]
            for stat in ("mean", "min", "max", "std"):
                key = "avg" if stat == "mean" else stat
                run.add(f"disk_bandwidth_{d}_per_interval", stat, float(m[key]) * unit,
                        "bytes/s", n=int(m["n"]))  # fmt: skip
            continue
        if (m := IOPS.match(x)) and d:
            for stat in ("mean", "min", "max", "std"):
                key = "avg" if stat == "mean" else stat
                run.add(f"iops_{d}_per_interval", stat, float(m[key]), "io/s", n=int(m["n"]))
            continue
        if m := CPU.match(x):
            run.add("cpu_user", "mean", float(m["usr"]), "pct")
            run.add("cpu_system", "mean", float(m["sys"]), "pct")
            run.add("context_switches", "total", int(m["ctx"]), "count")
            run.add("page_faults_major", "total", int(m["majf"]), "count")
            run.add("page_faults_minor", "total", int(m["minf"]), "count")
            continue
        if m := ISSUED.match(x):
            for key, dd in (("r", "read"), ("w", "write"), ("t", "trim")):
                if int(m[key]):
                    run.add(f"ios_{dd}", "total", int(m[key]), "count")
            continue
        if KNOWN.match(x):
            continue  # a distribution line the tables do not hold
        err_ = ParseError(TOOL, source, j + 1, f"expected a line of fio's job report, got "
                          f"{x.strip()[:80]!r}")  # fmt: skip
        if strict:
            raise err_
        run.warnings.append(f"line {j + 1} skipped: {err_.reason}")
    run.line_end = last + 1
    if runtime:
        meta["duration_s"] = runtime
    if not grouped:
        run.warnings.append(
            f"no 'Run status group' after the job report (it stops at line {last + 1}): cut short?"
        )
    meta["labels"] = json.dumps(labels, sort_keys=True)
    return run
