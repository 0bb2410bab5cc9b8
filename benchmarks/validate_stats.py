"""Validation against known truth: every design of issue 11's table, simulated, measured
through the public ``azlatency.stats`` API, each cell with its Monte-Carlo error and a verdict.

    .venv/bin/python benchmarks/validate_stats.py            # full study, both cores (minutes)
    .venv/bin/python benchmarks/validate_stats.py --quick    # seconds (the test suite runs it)
    .venv/bin/python benchmarks/validate_stats.py --classic  # the single-run studies before

The full study writes ``benchmarks/results/validate_stats.md`` and prints it; ``make bench``
runs it through ``main()`` (``benchmarks/run_all.py``).  The designs are in
``_validate_designs.py``.

Bar (nominal 95 %): an interval's coverage within ±2.5 points of 95 %, where a replicate the
method calls "not estimable" counts as honest — the lower bar is checked on (covered + not
estimable) / replicates, the upper on the coverage of the intervals given — and a test's
false-positive rate ≤ 6 % (change points: ≤ 5 %, "≤ 1 in 20 series"); "not testable" is not a
false positive.  A power (kind ``power``: the before/after power and equivalence rates) is
measured and printed, with no bar.  Verdicts: ``pass``; ``pass (MC)`` when the bar lies within 2 Monte-Carlo
standard errors of the measure; ``over-covers`` (too wide, honest but wasteful); ``warned``
(misses, but every row said the run is the unit); ``fail``.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from functools import partial
from pathlib import Path
from typing import NamedTuple

import numpy as np
import pandas as pd

HERE = Path(__file__).resolve().parent
for p in (HERE.parent, HERE):  # the project, and our helper modules
    if str(p) not in sys.path:
        sys.path.insert(0, str(p))

import _validate_designs as d  # noqa: E402

from azlatency._console import counted  # noqa: E402

SEED = 20261122
NOMINAL, COVER_TOL, FP_BAR = 0.95, 0.025, 0.06
ERROR = "__error__"
CHUNK = 25  # replicates per task; seeds depend on (design, chunk) only, not on the workers


class Design(NamedTuple):  # not a dataclass: run_all loads us without sys.modules
    group: str
    label: str
    fn: object  # (rng) -> {stat: Outcome}
    kind: str  # "coverage" or "fp"
    reps: int
    quick_reps: int  # 0: left out of the quick study
    bar: float = FP_BAR


def designs() -> list[Design]:  # noqa: C901 (a table: one loop per row of issue 11's designs)
    """Every design of issue 11's table (the row it answers in ``group``).  The quick study
    keeps a cell or two of each row (``quick_reps`` > 0)."""
    out: list[Design] = []

    def add(group, label, fn, kind, reps, quick, bar=FP_BAR):
        out.append(Design(group, label, fn, kind, reps, quick, bar))

    asym, place = "asymmetry, no true asymmetry", "placement, no true difference"
    for sb in (0.0, 0.05, 0.1, 0.2):
        for k in (1, 3, 6):
            quick = 6 if (sb, k) in ((0.1, 1), (0.2, 6)) else 0
            add(
                asym,
                f"σ_between={sb}, {counted(k, 'run')} per direction, 500 iid packets each",
                partial(d.asymmetry_null, k=k, sigma_b=sb),
                "fp",
                200,
                quick,
            )
    add(
        asym,
        "σ_between=0, 1 run per direction, 2000 packets AR(1) φ=0.9",
        partial(d.asymmetry_null, k=1, sigma_b=0.0, n=2000, phi=0.9),
        "fp",
        200,
        6,
    )
    for sb in (0.05, 0.2):
        for k in (1, 3, 6):
            add(
                place,
                f"σ_between={sb}, {counted(k, 'run')} per placement, 500 packets each",
                partial(d.placement_null, k=k, sigma_b=sb),
                "fp",
                200,
                6 if (sb, k) == (0.2, 3) else 0,
            )
    for sb in (0.0, 0.05, 0.2):
        for k in (3, 10):
            add(
                "exceedance pooled over runs",
                f"σ_between={sb}, {k} runs × 1000",
                partial(d.pooled_exceedance, k=k, sigma_b=sb),
                "coverage",
                400,
                20 if k == 10 and sb in (0.0, 0.2) else 0,
            )
            add(
                "pooled p50/p99, run unit (auto)",
                f"σ_between={sb}, {k} runs × 1000",
                partial(d.pooled_quantiles, k=k, sigma_b=sb),
                "coverage",
                400,
                20 if sb == 0.2 else 0,
            )
    # issue 29 item 4: the pooled population of runs (stats.population), k = 5, 10, 30 runs
    for sb in (0.0, 0.05, 0.2, 0.5):
        for k in (5, 10, 30):
            add(
                "pooled population p50/p99 (unit='population')",
                f"σ_between={sb}, {k} runs × 1000",
                partial(d.pooled_quantiles, k=k, sigma_b=sb, unit="population"),
                "coverage",
                200,
                10 if k == 10 and sb in (0.0, 0.5) else 0,
            )
    for sb in (0.05, 0.2):
        add(
            "unit='packet' over 10 runs",
            f"σ_between={sb}, 10 runs × 1000",
            partial(d.pooled_quantiles, k=10, sigma_b=sb, unit="packet"),
            "coverage",
            400,
            20 if sb == 0.2 else 0,
        )
    for n in (50, 10_000):
        for phi in (0.0, 0.5, 0.9, 0.99):
            add(
                "quantile CI, dependence='auto'",
                f"n={n}, log-AR(1) φ={phi}",
                partial(d.quantile_dependent, n=n, phi=phi),
                "coverage",
                400,
                30 if phi in (0.0, 0.9, 0.99) else 0,
            )
    for n in (10, 20, 50, 100, 200):
        for phi in (0.0, 0.3, 0.5, 0.7, 0.9):
            add(
                "short series, mean and p50, dependence='auto'",
                f"n={n}, log-AR(1) φ={phi}",
                partial(d.short_series, n=n, phi=phi),
                "coverage",
                200,
                20 if (n, phi) in ((10, 0.7), (20, 0.0), (50, 0.5)) else 0,
            )
    add(
        "quantile CI, spike mixture",
        "n=10⁴, iid body + 0.1 % spikes ×10",
        partial(d.quantile_spikes),
        "coverage",
        400,
        20,
    )
    cp = "change points, drift + spikes"
    for phi in (0.5, 0.9):
        add(
            cp,
            f"11 h at 1 Hz, AR(1) φ={phi}, +3 % drift, 8 spikes, no shift",
            partial(d.change_null, phi=phi),
            "fp",
            100,
            3 if phi == 0.9 else 0,
            bar=0.05,
        )
    add(cp, "same (φ=0.9) with a +20 % shift at 5.5 h", partial(d.change_shift), "coverage", 100, 2)
    for spikes in (0.0, 0.001):
        add(
            "last records before a break, stationary run",
            "n=4000, log-AR(1) φ=0.5" + (", 0.1 % spikes ×100" if spikes else "") + ", no change",
            partial(d.last_records_null, spikes=spikes),
            "fp",
            400,
            10 if spikes else 0,
            bar=0.05,
        )
    for phi in (0.5, 0.9):
        add(
            "warm-up, stationary run",
            f"n=2000, log-AR(1) φ={phi}, no warm-up (α = 0.01)",
            partial(d.warmup_null, phi=phi),
            "fp",
            200,
            2 if phi == 0.9 else 0,
            bar=0.02,
        )
    add(
        "GPD tail, spike mixture",
        "n=10⁵, iid body + 0.1 % spikes ×10",
        partial(d.pot_spikes),
        "coverage",
        200,
        1,
    )
    _before_after(add)
    add(
        "GPD tail, log-normal (light tail)",
        "n=10⁵, iid log-normal, p99.99",
        partial(d.pot_lognormal),
        "coverage",
        150,
        1,
    )
    return out


def _before_after(add) -> None:
    """Issue 41: two campaigns compared with the run as the unit (``stats.before_after``).
    Runs of 1,000 packets (log-AR(1) φ = 0.5) whose level varies from run to run (σ_b); each
    run's p50 and p99 its values."""
    null, power, equiv = (
        "before/after, no change (one row)",
        "before/after power, 10 % margin",
        "before/after equivalence (TOST ±10 %)",
    )
    for sb in (0.05, 0.2):
        for k in (3, 5, 10):
            quick = 10 if (sb, k) == (0.05, 5) else 0
            add(null, f"σ_between={sb}, {k} runs a side", partial(d.ab_null, k=k, sigma_b=sb),
                "fp", 300, quick)  # fmt: skip
    add(
        "before/after, no change (a table, Holm)",
        "σ_between=0.05, 5 runs a side, 10 conditions × p50, p99",
        partial(d.ab_table_null, k=5, sigma_b=0.05),
        "fp",
        100,
        2,
    )
    for change in (0.05, 0.10, 0.20):
        for k in (3, 5, 10):
            quick = 6 if (change, k) == (0.20, 5) else 0
            add(power, f"σ_between=0.05, {k} runs a side, +{change:.0%}",
                partial(d.ab_power, k=k, sigma_b=0.05, change=change), "power", 200, quick)  # fmt: skip
    for ratio in (0.90, 1.10):
        for k in (5, 10):
            add(equiv, f"σ_between=0.05, {k} runs a side, true ratio {ratio:.2f} (the margin)",
                partial(d.ab_equivalence, k=k, sigma_b=0.05, ratio=ratio), "fp", 300,
                6 if (ratio, k) == (1.10, 5) else 0)  # fmt: skip
    for k in (3, 5, 10):
        add(equiv, f"σ_between=0.05, {k} runs a side, no change",
            partial(d.ab_equivalence, k=k, sigma_b=0.05, ratio=1.0), "power", 200,
            6 if k == 5 else 0)  # fmt: skip


# ---------------------------------------------------------------------------------------------
# Running


def _chunk(task) -> tuple[int, list[dict]]:
    i, fn, chunk, reps, seed = task
    rng = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(i, chunk)))
    return i, [_guarded(fn, rng) for _ in range(reps)]


def _guarded(fn, rng) -> dict:
    """One replicate; an exception raised by the API is an outcome of its own (a crash is
    not a correct answer), so one bad cell cannot stop the study."""
    try:
        return fn(rng)
    except Exception as exc:  # noqa: BLE001 - any failure of the code under test is recorded
        text = f"{type(exc).__name__}: {exc}".replace("|", "/")[:120]
        return {ERROR: d.Outcome("error", estimand=text)}


def _tasks(items: list[Design], quick: bool, seed: int, scale: float = 1.0):
    for i, des in enumerate(items):
        total = des.quick_reps if quick else max(1, round(des.reps * scale))
        for c, start in enumerate(range(0, total, CHUNK)):  # nothing when total is 0
            yield i, des.fn, c, min(CHUNK, total - start), seed


def simulate(
    items: list[Design], quick: bool, seed: int, workers: int, scale: float = 1.0
) -> dict[int, list]:
    results: dict[int, list] = {i: [] for i in range(len(items))}
    tasks = list(_tasks(items, quick, seed, scale))
    if workers <= 1:
        done = map(_chunk, tasks)
    else:
        pool = ProcessPoolExecutor(workers)
        done = pool.map(_chunk, tasks)
    for i, outs in done:  # map keeps task order: results do not depend on the workers
        results[i].extend(outs)
    if workers > 1:
        pool.shutdown()
    return results


def _se(p: float, n: int) -> float:
    return float(np.sqrt(p * (1 - p) / n)) if n else np.nan


def verdict(
    kind: str,
    measure: float,
    se: float,
    bar: float,
    over: float = np.nan,
    over_se: float = np.nan,
    warned: float = 0.0,
) -> str:
    """``se`` (and ``over_se``) are the Monte-Carlo errors *at the bar* (binomial at the bar's
    rate): an observed 0 % or 100 % has an empirical error of 0, which would make a handful
    of replicates look decisive."""
    if kind == "fp":
        return "pass" if measure <= bar else "pass (MC)" if measure - 2 * se <= bar else "fail"
    low = NOMINAL - COVER_TOL
    if measure < low and measure + 2 * se < low:
        return "warned" if warned >= 0.99 else "fail"
    if (
        not np.isnan(over)
        and over > NOMINAL + COVER_TOL
        and over - 2 * over_se > NOMINAL + COVER_TOL
    ):
        return "over-covers"
    strict = measure >= low and (np.isnan(over) or over <= NOMINAL + COVER_TOL)
    return "pass" if strict else "pass (MC)"


def _row(des: Design, stat: str, outs: list) -> dict:
    status = np.array([o.status for o in outs])
    reps = len(outs)
    ne = float(np.mean(status == "ne"))
    errors = [o.estimand for o in outs if o.status == "error"]
    row = {
        "group": des.group,
        "design": des.label,
        "stat": stat,
        "reps": reps,
        "not_estimable": ne,
        "errors": len(errors) / reps,
        "error": errors[0] if errors else "",
    }
    if des.kind == "fp":
        rate = float(np.mean((status == "pos") | (status == "error")))
        row.update(
            kind="false-positive rate", result=rate, mc_se=_se(rate, reps), bar=f"≤ {des.bar:.0%}"
        )
        row["verdict"] = verdict("fp", rate, _se(des.bar, reps), des.bar)
        return row
    if des.kind == "power":  # a rate measured, not held to a bar (errors count as misses)
        rate = float(np.mean(status == "pos"))
        row.update(kind="power", result=rate, mc_se=_se(rate, reps), bar="")
        row["verdict"] = "measured" if not errors else "fail"
        return row
    status = np.where(status == "error", "miss", status)
    given = int(np.sum(status != "ne"))
    cov = float(np.mean(status[status != "ne"] == "hit")) if given else np.nan
    honest = float(np.mean(status != "miss"))
    errs = np.array([o.rel_err for o in outs if o.status != "ne"], dtype=float)
    warned = float(np.mean([o.warned for o in outs]))
    estimands = [o.estimand for o in outs if o.estimand and o.status != "error"]
    row.update(
        kind="coverage",
        result=cov,
        mc_se=_se(cov, given) if given else np.nan,
        honest=honest,
        honest_se=_se(honest, reps),
        median_rel_err=float(np.nanmedian(errs)) if np.isfinite(errs).any() else np.nan,
        warned=warned,
        estimand=max(set(estimands), key=estimands.count) if estimands else "",
        bar="95 ± 2.5 %",
    )
    at_bar = _se(NOMINAL, reps), _se(NOMINAL, given)
    row["verdict"] = (
        "pass (not estimable)"
        if not given
        else verdict("coverage", honest, at_bar[0], 0, cov, at_bar[1], warned)
    )
    return row


def run(quick: bool = False, seed: int = SEED, workers: int = 1, scale: float = 1.0):
    """The study as a table, one row per (design, statistic); ``scale`` multiplies the full
    study's replicates (a busy machine)."""
    items = designs()
    results = simulate(items, quick, seed, workers, scale)
    rows = []
    for i, des in enumerate(items):
        outs = results[i]
        if not outs:  # left out of this study (quick_reps = 0)
            continue
        stats_seen = [s for s in dict.fromkeys(s for o in outs for s in o) if s != ERROR]
        for stat in stats_seen or [ERROR]:
            rows.append(_row(des, stat, [o.get(stat, o.get(ERROR)) for o in outs]))
    return pd.DataFrame(rows)


# ---------------------------------------------------------------------------------------------
# Output


def _pct(v: float, digits: int = 1) -> str:
    return "" if v is None or pd.isna(v) else f"{100 * v:.{digits}f}"


def markdown(table: pd.DataFrame) -> str:
    """One GitHub table: designs × result, MC error, not estimable, verdict."""
    head = (
        "| row of issue 11 | design | statistic | reps | measure | result % | ± MC se | "
        "not estimable % | (covered + n.e.) % | median error % | verdict |"
    )
    lines = [head, "|" + "---|" * 11]
    for r in table.itertuples(index=False):
        measure = {"coverage": "coverage", "power": "rate (power)"}.get(r.kind, "false positives")
        if r.kind == "coverage" and getattr(r, "estimand", ""):
            measure += f" ({r.estimand})"
        extra = [_pct(getattr(r, "honest", np.nan)), _pct(getattr(r, "median_rel_err", np.nan))]
        warned = getattr(r, "warned", np.nan)
        verdict_ = r.verdict + (
            f", {_pct(warned, 0)} % warned"
            if warned == warned and warned and r.verdict != "pass"
            else ""
        )
        if getattr(r, "errors", 0):
            verdict_ += f"; {_pct(r.errors, 0)} % raised {r.error}"
        lines.append(
            f"| {r.group} | {r.design} | {r.stat} | {r.reps} | {measure} | "
            f"{_pct(r.result)} | {_pct(r.mc_se)} | {_pct(r.not_estimable, 0)} | "
            f"{extra[0]} | {extra[1]} | {verdict_} |"
        )
    return "\n".join(lines)


def main(quick: bool = False, workers: int | None = None, scale: float = 1.0) -> dict:
    """The full study (``make bench``): table written to results/validate_stats.md."""
    workers = workers or min(2, os.cpu_count() or 1)
    start = time.perf_counter()
    table = run(quick=quick, workers=workers, scale=scale)
    seconds = time.perf_counter() - start
    text = (
        f"Seed {SEED}, {'quick' if quick else 'full'} study"
        + (f" at {scale:g}× the replicates" if scale != 1 and not quick else "")
        + f", {seconds / 60:.1f} min on "
        f"{counted(workers, 'worker')}, {time.strftime('%Y-%m-%d', time.gmtime())}.\n\n"
        + markdown(table)
        + "\n"
    )
    out = HERE / "results"
    out.mkdir(exist_ok=True)
    (out / "validate_stats.md").write_text(text, encoding="utf-8")
    print(text)
    counts = table["verdict"].str.split(" ").str[0].value_counts().to_dict()
    return {
        "quick": quick,
        "seconds": round(seconds, 1),
        "verdicts": counts,
        "failing": table.loc[
            table["verdict"].isin(["fail", "warned", "over-covers"]),
            ["group", "design", "stat", "verdict"],
        ].to_dict("records"),
    }


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="few replicates (seconds)")
    parser.add_argument("--classic", action="store_true", help="the earlier single-run studies")
    parser.add_argument("--workers", type=int, default=None, help="processes (default 2)")
    parser.add_argument("--scale", type=float, default=1.0, help="× the full replicates")
    args = parser.parse_args()
    if args.classic:
        import _validate_classic as classic

        rng = np.random.default_rng(20250320)
        t0 = time.perf_counter()
        rows = classic.run_quick(rng) if args.quick else classic.run_full(rng)
        print(classic.markdown(pd.DataFrame(rows)))
        print(f"\n{time.perf_counter() - t0:.1f} s")
    elif args.quick:
        t0 = time.perf_counter()
        print(markdown(run(quick=True, workers=args.workers or 1)))
        print(f"\n{time.perf_counter() - t0:.1f} s")
    else:
        main(workers=args.workers, scale=args.scale)
