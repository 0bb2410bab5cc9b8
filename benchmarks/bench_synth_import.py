"""A ~10^8-sample synthetic campaign (``azlatency synth --size large``): generation, import,
and a campaign-wide percentile summary — wall time and peak memory of each, with a named peer
measured in the same run.

* **generate** — ``make_campaign(size="large", seed=0)`` into ``benchmarks/_data/synth-large``
  (reused when its ``truth.json`` is from this generator); reported: seconds, bytes, samples.
* **import** — ``import_campaign(workers=2)`` into a fresh store.  Peer: ``pyarrow.csv``
  reading the rows of every ``--full-log`` file (the same columns, decimal times) and nothing
  else — the floor for bytes → columns; the ratio says what parsing, labelling, checking and
  writing the store cost above it.
* **summary** — ``campaign.summarize_store(store, run_ids=<runs with latency_basis "rtt">)``:
  per run, count/mean/std/min/max and p25 … p99.999 with distribution-free intervals and the
  autocorrelation check, the rows ``stats.summarize(load().samples, runs, by="run_id")``
  gives, reading ``samples.parquet`` run by run (the 8 columns the statistics use).  Peer:
  ``numpy.quantile`` — read ``run_id`` and ``rtt_us`` of every row with pyarrow into pandas,
  drop the rows without an ``rtt_us``, and take p50, p90, p99, p99.9 and p99.99 of each run
  (5 point estimates a run; no status filter, measurement order or intervals): the floor for
  "percentiles per run" from the same file, holding two columns of the whole campaign.

Each step runs in its own child process, which reports wall time and peak RSS
(``ru_maxrss``) above its RSS after imports.  The machine is shared, so a watchdog stops a
child when the machine's available memory falls below ``AZL_BENCH_MIN_FREE_GB`` (default 1.5)
and reports the child's peak then (``VmHWM``) and how far it got.  The store is removed at the
end; the generated campaign stays (``_data`` is not committed) unless ``AZL_BENCH_CLEAN=1``.

``AZL_SYNTH_FRACTION`` (default 1) scales sockperf's ``-t`` of the ``large`` size (0.1: ~10^7
samples, a quick trial of the script).  At 10^8 the summary used to ``load()`` every sample
and was stopped at 22 GB; run by run it needs the memory of the largest run (2.7 × 10^6
samples): measured 2026-11-21, 1.02 × 10^8 samples, summary 74 s / 2.0 GB, peer 35 s /
14.4 GB (docs/statistics.md, "A store too big to load").
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _timing import proc_status_mb  # benchmarks/ is on sys.path (run directly or by run_all)

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
DATA = HERE / "_data" / "synth-large"
SIZE = os.environ.get("AZL_SYNTH_SIZE", "large")  # "small" for a quick trial of the script
FRACTION = float(os.environ.get("AZL_SYNTH_FRACTION", "1"))
MIN_FREE_GB = float(os.environ.get("AZL_BENCH_MIN_FREE_GB", "1.5"))

_PRELUDE = """
import json, resource, sys, time
sys.path[:0] = [{root!r}, {bench!r}]
from _timing import proc_status_mb
import numpy as np, pandas as pd, pyarrow as pa, pyarrow.csv as pacsv, pyarrow.parquet as pq
import azlatency
from azlatency import campaign, stats
base = proc_status_mb("VmRSS")
start = time.perf_counter()
"""

_STEPS = {
    "import": """
report = campaign.import_campaign({raw!r}, root={store!r}, workers=2)
extra = {{"runs": report.counts["runs"], "samples": report.counts["samples"],
          "not_imported": int((report.not_imported["reason"] != "ignored").sum()),
          "parsed_files": report.parsed}}
""",
    "import_peer": """
from pathlib import Path
rows = 0
types = {{"seq": pa.int64(), "tx": pa.decimal128(20, 9), "rx": pa.decimal128(20, 9),
          "value": pa.float64()}}
for path in sorted(Path({raw!r}).rglob("*.fulllog.csv")):
    data = path.read_bytes()
    head = data.index(b"packet, ")
    body = data[data.index(b"\\n", head) + 1: data.rindex(b"\\n---")]
    tbl = pacsv.read_csv(pa.BufferReader(body), read_options=pacsv.ReadOptions(
        column_names=list(types), block_size=1 << 24), convert_options=pacsv.ConvertOptions(
        column_types=types))
    rows += tbl.num_rows
    del tbl, data, body
extra = {{"rows": rows}}
""",
    "summary": """
runs = campaign.load({name!r}, root={store!r}, samples=False).runs
ids = runs.loc[runs["latency_basis"] == "rtt", "run_id"]
out = campaign.summarize_store({name!r}, {store!r}, run_ids=ids, metric="rtt")
count = out[out["stat"] == "count"]
extra = {{"groups": int(out["run_id"].nunique()), "observations": int(count["n"].sum()),
          "rows_out": len(out),
          "estimable_p99": int(out.loc[out["stat"] == "p99", "estimable"].sum())}}
""",
    "summary_peer": """
tbl = pq.read_table({store!r} + "/" + {name!r} + "/samples", columns=["run_id", "rtt_us"])
df = tbl.to_pandas()
df = df[df["rtt_us"].notna()]
qs = [0.5, 0.9, 0.99, 0.999, 0.9999]
groups = 0
for _, values in df.groupby("run_id", sort=True)["rtt_us"]:
    np.quantile(values.to_numpy(), qs)
    groups += 1
extra = {{"groups": groups, "rows": len(df)}}
""",
}

_EPILOGUE = """
elapsed = time.perf_counter() - start
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps({"seconds": elapsed, "peak_mb": peak - base, **extra}))
"""


def _meminfo_gb(key: str = "MemAvailable") -> float:
    with open("/proc/meminfo") as f:
        for line in f:
            if line.startswith(key + ":"):
                return int(line.split()[1]) / 2**20
    return float("inf")


def _child(step: str, **kw) -> dict:
    """Run one step in a child; stop it if the machine runs short of memory."""
    code = _PRELUDE.format(root=str(ROOT), bench=str(HERE)) + _STEPS[step].format(**kw) + _EPILOGUE
    start = time.perf_counter()
    proc = subprocess.Popen(
        [sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    while proc.poll() is None:
        if _meminfo_gb() < MIN_FREE_GB:
            peak = proc_status_mb("VmHWM", proc.pid)
            proc.kill()
            proc.communicate()
            return {
                "failed": f"stopped by the watchdog: available memory below {MIN_FREE_GB} GB",
                "peak_rss_mb_when_stopped": peak,
                "seconds_when_stopped": round(time.perf_counter() - start, 1),
            }
        time.sleep(0.5)
    out, err = proc.communicate()
    if proc.returncode:
        return {
            "failed": err.strip().splitlines()[-1:] or [f"exit {proc.returncode}"],
            "returncode": proc.returncode,
        }
    return json.loads(out.strip().splitlines()[-1])


def generate(path: Path = DATA, size: str = SIZE, fraction: float = FRACTION) -> tuple[Path, dict]:
    """The campaign, generated once (same seed, same bytes) and reused while current."""
    import dataclasses

    sys.path.insert(0, str(ROOT))
    from azlatency.synth import GENERATOR, SCALES, make_campaign

    scale = SCALES[size]
    if fraction != 1:
        t = max(2, round(scale.sockperf_time_s * fraction))
        scale = dataclasses.replace(scale, name=f"{size}-t{t}", sockperf_time_s=t)
    truth_file = path / "truth.json"
    if truth_file.is_file():
        truth = json.loads(truth_file.read_text())
        if (truth.get("generator"), truth.get("scale"), truth.get("seed")) == (
            GENERATOR,
            dataclasses.asdict(scale) | {"msg_sizes": list(scale.msg_sizes)},
            0,
        ):
            return path, {"reused": True, "samples": truth["samples"]["total"]}
    shutil.rmtree(path, ignore_errors=True)
    start = time.perf_counter()
    truth = make_campaign(path, scale=scale, seed=0, name="synth-large")
    seconds = time.perf_counter() - start
    size_bytes = sum(p.stat().st_size for p in path.rglob("*") if p.is_file())
    return path, {
        "reused": False,
        "seconds": round(seconds, 1),
        "samples": truth.total_samples,
        "gigabytes": round(size_bytes / 1e9, 2),
        "ns_per_sample": round(seconds / truth.total_samples * 1e9, 1),
    }


def main() -> dict:
    raw, gen = generate()
    store = Path(tempfile.mkdtemp(prefix="azl-synth-store-", dir=HERE / "_data"))
    try:
        kw = {"raw": str(raw), "store": str(store), "name": raw.name}
        imp = _child("import", **kw)
        imp_peer = _child("import_peer", **kw)
        summ = _child("summary", **kw) if "failed" not in imp else {"skipped": "import failed"}
        summ_peer = _child("summary_peer", **kw) if "failed" not in imp else {}
    finally:
        shutil.rmtree(store, ignore_errors=True)
        if os.environ.get("AZL_BENCH_CLEAN") == "1":
            shutil.rmtree(raw, ignore_errors=True)

    def ratio(a: dict, b: dict, key: str) -> float | None:
        if key in a and key in b and b[key]:
            return round(a[key] / b[key], 2)
        return None

    return {
        "size": SIZE,
        "fraction": FRACTION,
        "generate": gen,
        "import": imp,
        "import_peer_pyarrow_csv_rows": imp_peer,
        "import_time_ratio_vs_peer": ratio(imp, imp_peer, "seconds"),
        "import_memory_ratio_vs_peer": ratio(imp, imp_peer, "peak_mb"),
        "summary": summ,
        "summary_peer_numpy_quantile": summ_peer,
        "summary_time_ratio_vs_peer": ratio(summ, summ_peer, "seconds"),
        "summary_memory_ratio_vs_peer": ratio(summ, summ_peer, "peak_mb"),
    }


if __name__ == "__main__":
    print(json.dumps(main(), indent=1))
