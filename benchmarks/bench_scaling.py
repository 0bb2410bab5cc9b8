"""The scaling study of issue 13: generation, import and campaign summary from 10^6 to 10^9
samples, each against DuckDB doing the same reading in plain SQL in the same run
(docs/scaling.md).

For each size in ``AZL_SCALING_SIZES`` (default ``1e6,1e7,1e8``; ``1e9`` takes hours):

* **generate** — a ``large``-scale synthetic campaign (``azlatency.synth``) whose sockperf
  ``-t`` is chosen for the size (:func:`sockperf_time`); reported: seconds, bytes, samples.
* **import** — ``campaign.import_campaign(workers=<cores>)`` into a fresh store.  Peer: DuckDB
  ``read_csv`` of every sockperf ``--full-log`` file of the campaign (the rows that are nearly
  all the samples), the same four columns typed as the importer types them, every value
  parsed (``sum`` of each column), nothing written.  A second peer pays for a write as the
  import does: the same ``read_csv`` copied to one zstd Parquet file (DuckDB ``COPY``).
* **summary** — ``campaign.summarize_store(engine="duckdb")`` of the runs whose latency basis is
  the round trip: per run the quantiles of ``stats.DEFAULT_QUANTILES`` with exact
  order-statistic intervals, moments and the dependence check.  Peer: one plain-SQL
  ``quantile_cont`` of the same quantiles ``GROUP BY run_id`` over the store's samples
  Parquet, for the same runs (point estimates only).

Each step runs in a child process (``bench_synth_import``'s runner, with its memory watchdog,
``AZL_BENCH_MIN_FREE_GB``).  Reported per step: wall seconds, ``tree_peak_mb`` — the largest
summed PSS of the step's process and its worker processes, sampled every 0.25 s
(``_timing.TreePeak``) — and samples per second per core.

**Slices.**  A size above ``AZL_SCALING_SLICE`` (default ``1e8``) is measured as k equal
slices, each a campaign of its own seed: generate, import, peer, summary, peer, then delete
the slice's raw logs and store before the next, so disk holds one slice (~64 bytes a sample,
raw 40 + store 23, measured at 10^7).  A sliced size reports the sums of the slices' seconds
and the largest slice's memory; ``mode`` says which.  Every campaign and store is deleted after
it is measured.

Results accumulate: sizes measured in an earlier run stay in ``results/scaling.json`` (unless
``AZL_SCALING_FRESH=1``), and ``results/scaling.png`` charts them all.
"""

from __future__ import annotations

import datetime
import json
import math
import os
import shutil
from pathlib import Path

import bench_synth_import as synth_bench  # the child runner (benchmarks/ is on sys.path)

from azlatency.stats.common import DEFAULT_QUANTILES  # what summarize_store reports

HERE = Path(__file__).resolve().parent
WORK = HERE / "_data" / "scaling"
RESULTS = HERE / "results"
SIZES = [float(s) for s in os.environ.get("AZL_SCALING_SIZES", "1e6,1e7,1e8").split(",")]
SLICE = float(os.environ.get("AZL_SCALING_SLICE", "1e8"))
FRESH = os.environ.get("AZL_SCALING_FRESH") == "1"
CORES = os.cpu_count() or 1  # import workers; DuckDB's threads default to the same
# Samples of a `large` campaign, seed 0, against sockperf -t (measured at -t 2 and 3): its 50
# full-log runs give 464 317 a second after sockperf's 0.45 s warm-up and valid-time cut, the
# other tools (ping, latte, echo, iperf3) a fixed 109 720.
PER_SECOND, FIXED, WARMUP_S = 464_317, 109_720, 0.45
BYTES_PER_SAMPLE = 64  # raw logs 40 + store 23 (samples and cache), measured at 10^7

# DuckDB's read of the full-log rows: 21 header lines (sockperf 3.7 and 3.8 alike), then
# "seq, txTime, rxTime, rtt-or-latency"; the closing line of dashes is the one rejected row
# per file (the row count is checked against the generator's count).  Both peers read so.
READ_CSV = """read_csv({files}, skip = 21, header = false, delim = ',', auto_detect = false,
                         ignore_errors = true, columns = {columns})"""
READ_CSV_SQL = f"""
SELECT count(*), sum(seq), sum(tx), sum(rx), sum(value)
FROM {READ_CSV.format(files="$files", columns="$columns")}
"""
CSV_COLUMNS = {"seq": "BIGINT", "tx": "DECIMAL(18,9)", "rx": "DECIMAL(18,9)", "value": "DOUBLE"}
_STEPS = {
    "scaling_generate": """
import dataclasses
from pathlib import Path
from _timing import TreePeak
from azlatency.synth import SCALES, make_campaign
scale = dataclasses.replace(SCALES["large"], name="large-t{t}", sockperf_time_s={t})
with TreePeak() as tp:
    truth = make_campaign({raw!r}, scale=scale, seed={seed}, name={name!r})
extra = {{"samples": truth.total_samples,
          "sockperf_samples": truth.data["samples"]["by_tool"]["sockperf"],
          "bytes": sum(p.stat().st_size for p in Path({raw!r}).rglob("*") if p.is_file()),
          "tree_peak_mb": round(tp.peak_mb)}}
""",
    "scaling_import": """
from _timing import TreePeak
with TreePeak() as tp:
    report = campaign.import_campaign({raw!r}, root={store!r}, workers={cores})
extra = {{"runs": report.counts["runs"], "samples": report.counts["samples"],
          "parsed_files": report.parsed, "processes": report.workers,
          "tree_peak_mb": round(tp.peak_mb)}}
""",
    "scaling_import_peer": """
from pathlib import Path
import duckdb
from _timing import TreePeak
files = sorted(str(p) for p in Path({raw!r}).rglob("*.fulllog.csv"))
con = duckdb.connect()
con.execute("SET enable_progress_bar = false")
with TreePeak() as tp:
    row = con.execute({sql!r}, {{"files": files, "columns": {columns!r}}}).fetchone()
extra = {{"rows": row[0], "files": len(files),
          "threads": int(con.execute("SELECT current_setting('threads')").fetchone()[0]),
          "tree_peak_mb": round(tp.peak_mb)}}
""",
    "scaling_import_peer_write": """
from pathlib import Path
import duckdb
from _timing import TreePeak
out = Path({out!r})
out.parent.mkdir(parents=True, exist_ok=True)
con = duckdb.connect()
con.execute("SET enable_progress_bar = false")
with TreePeak() as tp:
    con.execute({sql!r})
extra = {{"rows": pq.read_metadata(out).num_rows, "bytes": out.stat().st_size,
          "files": {files},
          "threads": int(con.execute("SELECT current_setting('threads')").fetchone()[0]),
          "tree_peak_mb": round(tp.peak_mb)}}
out.unlink()
""",
    "scaling_summary": """
from _timing import TreePeak
runs = campaign.load({name!r}, root={store!r}, samples=False).runs
ids = runs.loc[runs["latency_basis"] == "rtt", "run_id"]
with TreePeak() as tp:
    out = campaign.summarize_store({name!r}, {store!r}, run_ids=ids, metric="rtt",
                                engine="duckdb")
count = out[out["stat"] == "count"]
extra = {{"groups": int(out["run_id"].nunique()), "observations": int(count["n"].sum()),
          "rows_out": len(out), "tree_peak_mb": round(tp.peak_mb)}}
""",
    "scaling_summary_peer": """
import duckdb
from _timing import TreePeak
con = duckdb.connect()
con.execute("SET enable_progress_bar = false")
with TreePeak() as tp:
    rows = con.execute({sql!r}).fetchall()
extra = {{"groups": len(rows), "observations": sum(r[1] for r in rows),
          "tree_peak_mb": round(tp.peak_mb)}}
""",
}
# bench_synth_import's runner looks its steps up by name: these join its own.
synth_bench._STEPS.update(_STEPS)


def _sql_path(path: Path | str) -> str:
    return "'" + str(path).replace("'", "''") + "'"


def quantile_sql(folder: Path) -> str:
    """The summary peer: ``quantile_cont`` per round-trip run over the store in ``folder``."""
    qs = ", ".join(str(q) for q in DEFAULT_QUANTILES)
    return f"""
SELECT run_id, count(rtt_us) AS n, quantile_cont(rtt_us, [{qs}]) AS q
FROM read_parquet({_sql_path(folder / "samples" / "*" / "*.parquet")},
                  hive_partitioning = true, hive_types = {{'tool': VARCHAR}})
WHERE run_id IN (SELECT run_id FROM read_parquet({_sql_path(folder / "runs" / "*.parquet")})
                 WHERE latency_basis = 'rtt')
GROUP BY run_id
"""


def copy_sql(raw: Path, out: Path) -> tuple[str, int]:
    """The second import peer: ``READ_CSV_SQL``'s read of the full logs under ``raw``, copied
    to one zstd Parquet file ``out``, so that it pays for a write as the import does (the
    import writes more: run ids, kind, status and the schema's other columns, after checking
    the rows and recomputing sockperf's statistics).  DuckDB's ``COPY`` takes no parameters,
    so the files and columns are written out.  Also the number of files."""
    files = sorted(raw.rglob("*.fulllog.csv"))
    listed = "[" + ", ".join(map(_sql_path, files)) + "]"
    columns = (
        "{" + ", ".join(f"{_sql_path(k)}: {_sql_path(v)}" for k, v in CSV_COLUMNS.items()) + "}"
    )
    return (
        f"""
COPY (SELECT * FROM {READ_CSV.format(files=listed, columns=columns)})
TO {_sql_path(out)} (FORMAT parquet, COMPRESSION zstd)
""",
        len(files),
    )


def sockperf_time(samples: float) -> int:
    """sockperf ``-t`` (whole seconds) of the ``large`` campaign nearest ``samples``."""
    return max(2, round(WARMUP_S + (samples - FIXED) / PER_SECOND))


def label(size: float) -> str:
    e = round(math.log10(size))
    return f"1e{e}" if 10**e == size else f"{size:.3g}"


def _disk_check(samples: float) -> None:
    WORK.mkdir(parents=True, exist_ok=True)
    need = samples * BYTES_PER_SAMPLE * 1.25
    free = shutil.disk_usage(WORK).free
    if free < need:
        raise RuntimeError(
            f"a slice of {samples:.3g} samples needs ~{need / 1e9:.0f} GB free under "
            f"benchmarks/_data, there are {free / 1e9:.0f} GB: lower AZL_SCALING_SLICE"
        )


def _slice(size_label: str, index: int, k: int, t: int) -> dict:
    """Generate, import, summarise one campaign (both peers too), then delete it."""
    name = f"scaling-{size_label}" if k == 1 else f"scaling-{size_label}-s{index:02d}"
    raw, store = WORK / "raw" / name, WORK / "store"
    shutil.rmtree(raw, ignore_errors=True)
    shutil.rmtree(store / name, ignore_errors=True)
    kw = {"raw": str(raw), "store": str(store), "name": name, "cores": CORES}
    out: dict = {
        "campaign": name,
        "seed": index,
        "sockperf_time_s": t,
        "load_average_1min": round(os.getloadavg()[0], 1),
    }
    try:
        out["generate"] = synth_bench._child("scaling_generate", t=t, seed=index, **kw)
        if "failed" in out["generate"]:
            return out
        out["import_peer"] = synth_bench._child(
            "scaling_import_peer", sql=READ_CSV_SQL, columns=CSV_COLUMNS, **kw
        )
        peer_out = WORK / "peer" / f"{name}.parquet"
        sql, n_files = copy_sql(raw, peer_out)
        out["import_peer_write"] = synth_bench._child(
            "scaling_import_peer_write", sql=sql, files=n_files, out=str(peer_out), **kw
        )
        out["import"] = synth_bench._child("scaling_import", **kw)
        if "failed" in out["import"]:
            return out
        out["summary"] = synth_bench._child("scaling_summary", **kw)
        out["summary_peer"] = synth_bench._child(
            "scaling_summary_peer", sql=quantile_sql(store / name), **kw
        )
    finally:
        shutil.rmtree(raw, ignore_errors=True)
        shutil.rmtree(store / name, ignore_errors=True)
    return out


_STEP_NAMES = ("generate", "import", "import_peer", "import_peer_write", "summary", "summary_peer")
_COUNTS = (
    "samples",
    "sockperf_samples",
    "bytes",
    "runs",
    "rows",
    "files",
    "groups",
    "observations",
)


def _combine(slices: list[dict]) -> dict:
    """Steps over all slices: seconds and counts summed, memory the largest slice's."""
    steps = {}
    for step in _STEP_NAMES:
        parts = [s.get(step) for s in slices]
        if any(p is None for p in parts):
            steps[step] = {"failed": "not run (an earlier step failed)"}
            continue
        failed = [p for p in parts if "failed" in p]
        if failed:
            steps[step] = failed[0]
            continue
        combined = {
            "seconds": round(sum(p["seconds"] for p in parts), 2),
            "tree_peak_mb": max(p["tree_peak_mb"] for p in parts),
        }
        for key in _COUNTS:
            if key in parts[0]:
                combined[key] = sum(p[key] for p in parts)
        steps[step] = combined
    return steps


def _ratio(a: dict, b: dict, key: str) -> float | None:
    return round(a[key] / b[key], 2) if key in a and key in b and b[key] else None


def _per_core(step: dict, count: str) -> float | None:
    if count in step and step.get("seconds"):
        return round(step[count] / step["seconds"] / CORES)
    return None


def measure(size: float) -> dict:
    """One point of the curve: ``size`` samples, whole or in slices."""
    k = max(1, math.ceil(size / SLICE))
    t = sockperf_time(size / k)
    size_label = label(size)
    _disk_check(size / k)
    slices = []
    for i in range(k):
        print(f"   {size_label}: slice {i + 1}/{k}, sockperf -t {t}", flush=True)
        slices.append(_slice(size_label, i, k, t))
        if any("failed" in step for step in slices[-1].values() if isinstance(step, dict)):
            break  # the next slices would fail alike: report this one
    steps = _combine(slices)
    gen, imp, summ = steps["generate"], steps["import"], steps["summary"]
    peer_rows = steps["import_peer"].get("rows")
    if peer_rows is not None and peer_rows != gen.get("sockperf_samples"):
        steps["import_peer"]["warning"] = "rows read differ from the full-log rows generated"
    return {
        "size": size_label,
        "samples": gen.get("samples"),
        "mode": "whole" if k == 1 else f"{k} slices",
        "slices": k,
        "slices_measured": len(slices),  # fewer than k when a step failed
        "measured": datetime.date.today().isoformat(),
        "cores": CORES,
        "load_average_1min": [s["load_average_1min"] for s in slices],
        **steps,
        "import_time_ratio_vs_duckdb": _ratio(imp, steps["import_peer"], "seconds"),
        "import_time_ratio_vs_duckdb_write": _ratio(imp, steps["import_peer_write"], "seconds"),
        "summary_time_ratio_vs_duckdb": _ratio(summ, steps["summary_peer"], "seconds"),
        "import_memory_ratio_vs_duckdb": _ratio(imp, steps["import_peer"], "tree_peak_mb"),
        "summary_memory_ratio_vs_duckdb": _ratio(summ, steps["summary_peer"], "tree_peak_mb"),
        "samples_per_s_per_core": {
            # one process, numpy on one core: the rate per core is the rate
            "generate": round(gen["samples"] / gen["seconds"]) if "seconds" in gen else None,
            "import": _per_core(imp, "samples"),
            "import_peer": _per_core(steps["import_peer"], "rows"),
            "import_peer_write": _per_core(steps["import_peer_write"], "rows"),
            "summary": _per_core(summ, "observations"),
            "summary_peer": _per_core(steps["summary_peer"], "observations"),
        },
        "per_slice": slices if k > 1 else None,
    }


def _exponents(points: list[dict]) -> None:
    """Local slope of log(seconds) against log(samples) from the previous size: 1 is linear."""
    for prev, cur in zip(points, points[1:]):
        out = {}
        for step in _STEP_NAMES[1:]:  # not generate
            a, b = prev.get(step, {}), cur.get(step, {})
            if a.get("seconds") and b.get("seconds") and prev["samples"] and cur["samples"]:
                out[step] = round(
                    math.log(b["seconds"] / a["seconds"])
                    / math.log(cur["samples"] / prev["samples"]),
                    2,
                )
        cur["time_exponent_vs_previous_size"] = out


def cluster(
    point: dict, nodes: int = 16, cores_per_node: int = CORES, samples: float = 1e9
) -> dict:
    """Seconds a cluster would take for ``samples``, from ``point``'s per-core rates:
    samples / (rate per core × nodes × cores per node) — perfect scaling, no shared-storage
    or gathering cost (an extrapolation, not a measurement)."""
    rates = point["samples_per_s_per_core"]
    return {
        "from_size": point["size"],
        "nodes": nodes,
        "cores_per_node": cores_per_node,
        "samples": samples,
        "seconds": {
            step: round(samples / (rate * nodes * cores_per_node), 1)
            for step, rate in rates.items()
            if rate
        },
    }


def chart(points: list[dict], path: Path) -> None:
    """Log-log: seconds against samples (left) and peak memory (right); open markers are
    sizes measured in slices."""
    from matplotlib.figure import Figure  # no pyplot: no global state, no GUI backend
    from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter

    series = {
        "import": "import_campaign",
        "import_peer": "DuckDB read_csv",
        "import_peer_write": "DuckDB read_csv → Parquet",
        "summary": "summarize_store (duckdb)",
        "summary_peer": "DuckDB quantile_cont",
    }
    fig = Figure(figsize=(10, 4.2), layout="constrained")
    ax_t, ax_m = fig.subplots(1, 2)
    for (step, name), marker in zip(series.items(), "osvD^"):
        for ax, key in ((ax_t, "seconds"), (ax_m, "tree_peak_mb")):
            pts = [
                (p["samples"], p[step][key], p["slices"] > 1)
                for p in points
                if key in p.get(step, {})
            ]
            if not pts:
                continue
            (line,) = ax.plot(
                [x for x, _, _ in pts], [y for _, y, _ in pts], marker=marker, label=name
            )
            for x, y, sliced in pts:
                if sliced:
                    ax.plot([x], [y], marker=marker, color="white", markersize=4)
    imp = [p for p in points if "seconds" in p.get("import", {})]
    if imp:  # a slope-1 line through the largest import: where a linear curve would run
        n0, t0 = imp[-1]["samples"], imp[-1]["import"]["seconds"]
        xs = [p["samples"] for p in points if p["samples"]]
        ax_t.plot(
            [min(xs), max(xs)],
            [t0 * min(xs) / n0, t0 * max(xs) / n0],
            ls=":",
            color="grey",
            label="∝ samples",
        )
    if any(p["slices"] > 1 for p in points):
        ax_t.plot([], [], "o", color="grey", markerfacecolor="white", label="in slices")
    ax_m.axhline(2048, ls="--", color="grey", label="2 GB target")
    ax_t.set(
        xscale="log",
        yscale="log",
        xlabel="samples",
        ylabel="wall seconds",
        title=f"time ({CORES} cores)",
    )
    ax_m.set(
        xscale="log",
        yscale="log",
        xlabel="samples",
        ylabel="peak memory, MB (PSS, with workers)",
        title="peak memory",
    )
    for ax in (ax_t, ax_m):
        ax.yaxis.set_major_locator(LogLocator(subs=(1.0, 2.0, 5.0)))
        ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))
        ax.yaxis.set_minor_formatter(NullFormatter())
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize="small")
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)


def _previous() -> list[dict]:
    try:
        return json.loads((RESULTS / "scaling.json").read_text(encoding="utf-8"))["points"]
    except (OSError, ValueError, KeyError):
        return []


def main() -> dict:
    """Measure every size of ``AZL_SCALING_SIZES``; the results file is rewritten after each
    size, so a 10^9 run that is stopped keeps the sizes measured before it."""
    wanted = {label(s) for s in SIZES}
    kept = [] if FRESH else [p for p in _previous() if p["size"] not in wanted]
    result: dict = {}
    for size in SIZES:
        kept = [p for p in kept if p["size"] != label(size)] + [measure(size)]
        result = _result(kept, wanted)
        _save(result)
    return result


def _result(points: list[dict], wanted: set[str]) -> dict:
    points.sort(key=lambda p: p["samples"] or 0)
    for p in points:
        p.pop("time_exponent_vs_previous_size", None)
    _exponents(points)
    measured = [p for p in points if p["samples_per_s_per_core"].get("import")]
    chart(points, RESULTS / "scaling.png")
    return {
        "sizes_run_now": sorted(wanted),
        "slice_samples": SLICE,
        "machine": {
            "cores": CORES,
            "memory_gb": round(os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE") / 2**30, 1),
        },
        "points": points,
        "cluster_16_nodes_1e9": cluster(measured[-1]) if measured else None,
        "chart": "benchmarks/results/scaling.png",
    }


def _save(result: dict) -> None:
    RESULTS.mkdir(exist_ok=True)
    text = json.dumps(result, indent=1, default=str)
    (RESULTS / "scaling.json").write_text(text + "\n", encoding="utf-8")


if __name__ == "__main__":
    print(json.dumps(main(), indent=1, default=str))
