"""fio 3.33 ``--output-format=json`` and the normal (default) text: one job with
``--group_reporting``, as seed 003 runs it (the seed uses the default text).

Layout copied from fio 3.33's own output (``tests/fixtures/fio/``, ``stat.c``
``show_thread_status_json``): ``"key" : value`` pairs with two-space indents, floats with six
decimals, ``read``/``write``/``trim`` blocks with ``slat_ns``/``clat_ns``/``lat_ns`` (``clat``
with its seventeen default percentiles, integers in ns), ``bw`` in KiB/s, ``bw_bytes`` in B/s,
and the per-window ``iops_*``/``bw_*`` figures fio logs every 500 ms.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

PERCENTILES = (1, 5, 10, 20, 30, 40, 50, 60, 70, 80, 90, 95, 99, 99.5, 99.9, 99.95, 99.99)


@dataclass(frozen=True)
class Job:
    """One fio job and what it measured (latencies in ns, per I/O)."""

    name: str
    filename: str
    rw: str  # read, write, randread, randwrite
    bs: int  # bytes
    iodepth: int
    runtime_s: int
    size: str | None
    start_s: int  # epoch seconds at the end of the job (fio's timestamp)
    clat_ns: np.ndarray  # a sample of completion latencies, ns
    iops: float  # the job's I/Os per second over the run
    window_iops: np.ndarray  # fio's per-500-ms IOPS samples

    @property
    def direction(self) -> str:
        return "write" if "write" in self.rw else "read"

    def command(self, output: str = "json") -> str:
        """The command line; ``output="normal"`` is fio's default (no ``--output-format``)."""
        size = f" --size={self.size}" if self.size else ""
        bs = f"{self.bs // 1024}k"
        fmt = " --output-format=json" if output == "json" else ""
        return (
            f"fio --name={self.name} --filename={self.filename} --rw={self.rw} --bs={bs}"
            f" --iodepth={self.iodepth} --numjobs=1 --direct=1 --ioengine=libaio"
            f" --group_reporting --time_based --runtime={self.runtime_s}{size}{fmt}"
        )


def _stats(x: np.ndarray) -> dict:
    return {
        "min": int(x.min()),
        "max": int(x.max()),
        "mean": float(x.mean()),
        "stddev": float(x.std(ddof=1)) if len(x) > 1 else 0.0,
    }


def _zero() -> dict:
    return {"min": 0, "max": 0, "mean": 0.0, "stddev": 0.0, "N": 0}


def _direction(job: Job) -> dict:
    runtime_ms = job.runtime_s * 1000 + 1
    total = int(round(job.iops * runtime_ms / 1000))
    io_bytes = total * job.bs
    clat = job.clat_ns
    pct = np.percentile(clat, PERCENTILES, method="inverted_cdf")
    lat = clat + 1200  # submission adds about a microsecond (libaio)
    w = job.window_iops
    return {
        "io_bytes": io_bytes,
        "io_kbytes": io_bytes // 1024,
        "bw_bytes": int(io_bytes * 1000 // runtime_ms),
        "bw": int(io_bytes * 1000 // runtime_ms // 1024),
        "iops": total * 1000 / runtime_ms,
        "runtime": runtime_ms,
        "total_ios": total,
        "short_ios": 0,
        "drop_ios": 0,
        "slat_ns": {"min": 600, "max": 41000, "mean": 1200.0, "stddev": 800.0, "N": total},
        "clat_ns": {
            **_stats(clat),
            "N": total,
            "percentile": {f"{p:f}": int(v) for p, v in zip(PERCENTILES, pct)},
        },
        "lat_ns": {**_stats(lat), "N": total},
        "bw_min": int(w.min() * job.bs / 1024),
        "bw_max": int(w.max() * job.bs / 1024),
        "bw_agg": 100.0,
        "bw_mean": float(w.mean() * job.bs / 1024),
        "bw_dev": float(w.std(ddof=1) * job.bs / 1024),
        "bw_samples": len(w),
        "iops_min": int(w.min()),
        "iops_max": int(w.max()),
        "iops_mean": float(w.mean()),
        "iops_stddev": float(w.std(ddof=1)),
        "iops_samples": len(w),
    }


def _empty() -> dict:
    out = {
        "io_bytes": 0,
        "io_kbytes": 0,
        "bw_bytes": 0,
        "bw": 0,
        "iops": 0.0,
        "runtime": 0,
        "total_ios": 0,
        "short_ios": 0,
        "drop_ios": 0,
        "slat_ns": _zero(),
        "clat_ns": _zero(),
        "lat_ns": _zero(),
    }
    for k in ("bw_min", "bw_max"):
        out[k] = 0
    out.update({"bw_agg": 0.0, "bw_mean": 0.0, "bw_dev": 0.0, "bw_samples": 0})
    out.update({"iops_min": 0, "iops_max": 0, "iops_mean": 0.0, "iops_stddev": 0.0})
    out["iops_samples"] = 0
    return out


def document(job: Job) -> dict:
    options = {
        "name": job.name,
        "filename": job.filename,
        "rw": job.rw,
        "bs": f"{job.bs // 1024}k",
        "iodepth": str(job.iodepth),
        "numjobs": "1",
        "direct": "1",
        "ioengine": "libaio",
        "group_reporting": "",
        "time_based": "",
        "runtime": str(job.runtime_s),
    }
    if job.size:
        options["size"] = job.size
    sides = {"read": _empty(), "write": _empty(), "trim": _empty()}
    sides[job.direction] = _direction(job)
    stamp = time.strftime("%a %b %d %H:%M:%S %Y", time.gmtime(job.start_s))
    return {
        "fio version": "fio-3.33",
        "timestamp": job.start_s,
        "timestamp_ms": job.start_s * 1000 + 317,
        "time": stamp,
        "jobs": [
            {
                "jobname": job.name,
                "groupid": 0,
                "error": 0,
                "eta": 0,
                "elapsed": job.runtime_s + 1,
                "job options": options,
                **sides,
                "sync": {"total_ios": 0, "lat_ns": _zero()},
                "job_runtime": job.runtime_s * 1000 + 1,
                "usr_cpu": 3.21,
                "sys_cpu": 11.87,
                "ctx": int(job.iops * job.runtime_s * 0.6),
                "majf": 0,
                "minf": 78,
                "iodepth_level": {"1": 0.1, "2": 0.1, "4": 0.1, "8": 0.1, "16": 0.1, "32": 0.1},
                "latency_ns": {},
                "latency_us": {},
                "latency_ms": {},
            }
        ],
    }


def _value(v, indent: str) -> str:
    if isinstance(v, dict):
        if not v:
            return "{}"
        inner = indent + "  "
        items = [f'{inner}"{k}" : {_value(x, inner)}' for k, x in v.items()]
        return "{\n" + ",\n".join(items) + f"\n{indent}}}"
    if isinstance(v, list):
        inner = indent + "  "
        return "[\n" + ",\n".join(inner + _value(x, inner) for x in v) + f"\n{indent}]"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float):
        return f"{v:f}"
    if isinstance(v, int):
        return str(v)
    return '"' + str(v).replace("\\", "\\\\").replace('"', '\\"') + '"'


def json_text(job: Job) -> str:
    """The document as fio prints it (its own JSON writer, not Python's)."""
    return _value(document(job), "") + "\n"


# ---------------------------------------------------------------------------------------------
# fio 3.33's normal (default) text, as seed 003's commands print it (no --output-format).
# Layout and number formats from the captures in tests/fixtures/fio/ (stat.c
# show_thread_status_normal): num2str's four significant characters, the nsec → usec → msec
# scaling of each latency line and of the percentile block, percentiles rounded up.


def _num2str(v: float, base: int, units: tuple[str, ...]) -> str:
    """fio's ``num2str`` for 4 characters: ``340k``, ``46.9k``, ``1329Mi``, ``9388``."""
    i = 0
    while v >= 10_000 and i < len(units) - 1:
        v /= base
        i += 1
    if i == 0:
        return f"{int(v)}"
    digits = len(str(int(v)))
    decimals = max(0, 4 - digits - 1) if digits < 3 else 0
    return f"{v:.{decimals}f}{units[i]}"


def _iops_text(v: float) -> str:
    return _num2str(v, 1000, ("", "k", "M", "G"))


def _bytes_text(v: float, binary: bool = True) -> str:
    units = ("", "Ki", "Mi", "Gi", "Ti") if binary else ("", "k", "M", "G", "T")
    return _num2str(v, 1024 if binary else 1000, units) + "B"


def _lat_line(kind: str, ns: dict) -> str:
    """``clat (usec): min=..., max=..., avg=..., stdev=...`` of the JSON writer's ``*_ns``
    statistics, scaled as fio scales them."""
    lo, hi, mean, dev = (float(ns[k]) for k in ("min", "max", "mean", "stddev"))
    unit = "nsec"
    for nxt in ("usec", "msec"):
        if lo > 2000 and hi > 99999 and dev > 1000.0:
            lo, hi, mean, dev = lo / 1000, hi / 1000, mean / 1000, dev / 1000
            unit = nxt
        else:
            break
    pad = " " if kind == "lat" else ""
    return (
        f"    {pad}{kind} ({unit}): min={int(lo)}, max={int(hi)}, avg={mean:5.2f}, stdev={dev:5.2f}"
    )


def _percentile_lines(percentile: dict) -> list[str]:
    """The ``clat percentiles`` block of the JSON writer's percentiles (ns)."""
    vals = [int(v) for v in percentile.values()]
    unit, div = "nsec", 1
    if min(vals) > 2000 and max(vals) > 99999:
        unit, div = "usec", 1000
        if min(vals) > 2_000_000 and max(vals) > 99_999_999:
            unit, div = "msec", 1_000_000
    shown = [(v + div - 1) // div for v in vals]
    cells = [f"{p:5.2f}th=[{v:5d}]" for p, v in zip(PERCENTILES, shown)]
    rows = [cells[i : i + 4] for i in range(0, len(cells), 4)]
    out = [f"    clat percentiles ({unit}):"]
    for k, row in enumerate(rows):
        out.append("     | " + ", ".join(row) + ("," if k < len(rows) - 1 else ""))
    return out


def normal_text(job: Job, *, disks: tuple[str, ...] = ("sdc", "sdd", "sde", "sdf")) -> str:
    """The job's report in fio's default output (one job, ``--group_reporting``)."""
    d = _direction(job)
    runtime_ms = d["runtime"]
    bs = f"{job.bs}B" if job.bs < 1 << 20 else f"{job.bs // 1024}KiB"
    banner = (
        f"{job.name}: (g=0): rw={job.rw}, bs=(R) {bs}-{bs}, (W) {bs}-{bs}, (T) {bs}-{bs}, "
        f"ioengine=libaio, iodepth={job.iodepth}"
    )
    stamp = time.strftime("%a %b %d %H:%M:%S %Y", time.gmtime(job.start_s))
    bw = _bytes_text(d["bw_bytes"]) + "/s"
    bw_dec = _bytes_text(d["bw_bytes"], binary=False) + "/s"
    io = _bytes_text(d["io_bytes"])
    io_dec = _bytes_text(d["io_bytes"], binary=False)
    zone = "; 0 zone resets" if job.direction == "write" else ""
    w = job.window_iops
    kib = w * job.bs / 1024
    total = d["total_ios"]
    issued = f"{total},0,0,0" if job.direction == "read" else f"0,{total},0,0"
    lines = [
        banner,
        "fio-3.33",
        "Starting 1 process",
        "",
        f"{job.name}: (groupid=0, jobs=1): err= 0: pid=4242: {stamp}",
        f"  {job.direction}: IOPS={_iops_text(d['iops'])}, BW={bw} ({bw_dec})"
        f"({io}/{runtime_ms}msec){zone}",
        _lat_line("slat", d["slat_ns"]),  # the same figures as json_text's, as printed
        _lat_line("clat", d["clat_ns"]),
        _lat_line("lat", d["lat_ns"]),
        *_percentile_lines(d["clat_ns"]["percentile"]),
        f"   bw (  KiB/s): min={int(kib.min())}, max={int(kib.max())}, per=100.00%, "
        f"avg={kib.mean():.2f}, stdev={kib.std(ddof=1):.2f}, samples={len(w)}",
        f"   iops        : min={int(w.min())}, max={int(w.max())}, avg={w.mean():.2f}, "
        f"stdev={w.std(ddof=1):.2f}, samples={len(w)}",
        "  cpu          : usr=3.21%, sys=11.87%, ctx="
        f"{int(job.iops * job.runtime_s * 0.6)}, majf=0, minf=78",
        "  IO depths    : 1=0.1%, 2=0.1%, 4=0.1%, 8=0.1%, 16=0.1%, 32=0.1%, >=64=99.9%",
        "     submit    : 0=0.0%, 4=100.0%, 8=0.0%, 16=0.0%, 32=0.0%, 64=0.0%, >=64=0.0%",
        "     complete  : 0=0.0%, 4=100.0%, 8=0.0%, 16=0.0%, 32=0.0%, 64=0.1%, >=64=0.0%",
        f"     issued rwts: total={issued} short=0,0,0,0 dropped=0,0,0,0",
        f"     latency   : target=0, window=0, percentile=100.00%, depth={job.iodepth}",
        "",
        "Run status group 0 (all jobs):",
        f"{'READ' if job.direction == 'read' else 'WRITE':>7}: bw={bw} ({bw_dec}), "
        f"{bw}-{bw} ({bw_dec}-{bw_dec}), io={io} ({io_dec}), run={runtime_ms}-{runtime_ms}msec",
        "",
        "Disk stats (read/write):",
    ]
    share = total // len(disks)
    for name in disks:
        r, wr = (share, 0) if job.direction == "read" else (0, share)
        lines.append(
            f"  {name}: ios={r}/{wr}, merge=0/0, ticks={r // 40}/{wr // 40}, "
            f"in_queue={share // 40}, util=99.{len(name) + 50}%"
        )
    return "\n".join(lines) + "\n"
