"""fio 3.33 ``--output-format=json``: one job with ``--group_reporting``, as seed 003 runs it.

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

    def command(self) -> str:
        size = f" --size={self.size}" if self.size else ""
        bs = f"{self.bs // 1024}k"
        return (
            f"fio --name={self.name} --filename={self.filename} --rw={self.rw} --bs={bs}"
            f" --iodepth={self.iodepth} --numjobs=1 --direct=1 --ioengine=libaio"
            f" --group_reporting --time_based --runtime={self.runtime_s}{size}"
            " --output-format=json"
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
