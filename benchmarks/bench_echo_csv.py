"""echo CSV: time of ``azlatency.read`` on a 1,000,000-probe file, against ``pandas.read_csv``
(C engine) reading the same file with the same column types.

A million probes is 11.6 days at echo_client.py's one probe a second (seed 004 ran about 40,000
per scenario).  The file (``benchmarks/_data/echo-csv-1m.csv``, made once, seeded) has the
shape our captures have: Python ``csv.writer`` rows with CRLF, ``timestamp`` from
``datetime.isoformat(sep=" ")`` (which drops the fraction when it is zero), ``time.time_ns()``
send/receive times one second apart with jitter, log-normal round trips around 850 µs (seed
004's same-zone mean) with a thin tail, ``rtt_us`` = (receive − send)/1000 as a Python float.

Each reader runs in a child process that reports wall time and peak RSS above its RSS after
imports (pandas, and azlatency with every parser module: a one-time cost, 0.3-0.8 s on a cold
start without bytecode caches, that ``bench_sockperf_fulllog.py`` leaves out the same way).  Target: time ratio ours / pandas ≤ 2 (we also convert timestamps to exact ns, check
the rows and compute the statistics).
"""

from __future__ import annotations

import csv
import datetime as dt
import json
import math
import subprocess
import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
DATA = HERE / "_data" / "echo-csv-1m.csv"
ROWS = 1_000_000
SEED = 20261121


def make_csv(path: Path = DATA, rows: int = ROWS) -> Path:
    rng = np.random.default_rng(SEED)
    rtt_ns = np.round(rng.lognormal(math.log(850_000), 0.12, rows)).astype(np.int64)
    tail = rng.random(rows) < 0.0005
    rtt_ns[tail] *= rng.integers(5, 400, tail.sum())
    tx = 1_742_428_800_000_000_000 + np.arange(rows, dtype=np.int64) * 1_000_000_000
    tx += rng.integers(0, 3_000_000, rows)
    stamp_lag = rng.integers(2_000, 8_000, rows)  # datetime.now() runs just before time_ns()
    rx = tx + rtt_ns
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    epoch = dt.datetime(1970, 1, 1)
    with tmp.open("w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)  # CRLF, as echo_client.py's csv.writer writes
        w.writerow(["packet_num", "timestamp", "send_time_ns", "receive_time_ns", "rtt_us"])
        for i in range(rows):
            t, r = int(tx[i]), int(rx[i])
            stamp = epoch + dt.timedelta(microseconds=(t - int(stamp_lag[i])) // 1000)
            w.writerow([i, stamp.isoformat(sep=" "), t, r, (r - t) / 1000])
    tmp.replace(path)
    return path


_CHILD = r"""
import json, resource, sys, time
which, path = sys.argv[1], sys.argv[2]
import pandas as pd
import azlatency  # imports before the timer, as pandas: every parser module (the reader asks
import azlatency.parsers  # each whether it claims the file), as bench_sockperf_fulllog.py does
azlatency.parsers.modules()
base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
t = time.perf_counter()
if which == "azlatency":
    tables = azlatency.read(path)
    rows = len(tables.samples)
    frames = sum(int(f.memory_usage(deep=True).sum()) for f in tables)
else:
    df = pd.read_csv(path, engine="c", dtype={"packet_num": "int64", "timestamp": "str",
                     "send_time_ns": "int64", "receive_time_ns": "int64", "rtt_us": "float64"})
    rows = len(df)
    frames = int(df.memory_usage(deep=True).sum())
wall = time.perf_counter() - t
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - base
print(json.dumps({"wall_s": wall, "peak_mb": peak / 1024, "frames_mb": frames / 2**20, "rows": rows}))
"""


def _run(which: str) -> dict:
    out = subprocess.run(
        [sys.executable, "-c", _CHILD, which, str(DATA)],
        check=True,
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def main(repeat: int = 3) -> dict:
    if not DATA.is_file():
        make_csv()
    # Interleaved, best of ``repeat`` (as bench_sockperf_fulllog.py): a neighbour's load on the
    # shared machine hits both alike, and one run each moved the ratio by half.
    runs: dict[str, list[dict]] = {"azlatency": [], "pandas": []}
    for _ in range(repeat):
        for which, got in runs.items():
            got.append(_run(which))
    ours, peer = (min(runs[w], key=lambda r: r["wall_s"]) for w in runs)
    assert ours["rows"] == peer["rows"] == ROWS
    return {
        "input": f"{DATA.name} ({DATA.stat().st_size / 2**20:.1f} MB, {ROWS} probes, CRLF)",
        "peer": "pandas.read_csv(engine='c') with the same dtypes",
        "azlatency_s": round(ours["wall_s"], 3),
        "pandas_s": round(peer["wall_s"], 3),
        "time_ratio": round(ours["wall_s"] / peer["wall_s"], 2),
        "azlatency_peak_mb": round(ours["peak_mb"], 1),
        "pandas_peak_mb": round(peer["peak_mb"], 1),
        "azlatency_frames_mb": round(ours["frames_mb"], 1),
        "peak_over_frames": round(ours["peak_mb"] / ours["frames_mb"], 2),
    }


if __name__ == "__main__":
    print(json.dumps(main(), indent=1))
