"""Warm-up and sanity: did a run settle, and does a campaign look like what was expected?

* ``warmup`` — the MSER-5 truncation rule (White 1997, Simulation 69(6); White, Cobb & Spratt
  2000, WSC): batch the series in fives, and pick the truncation d (at most half the series)
  that minimises the squared standard error of the remaining batch means,
  Σ_{j>d}(Z_j − Z̄_d)² / (k−d)².  It runs on log latency, so one spike cannot pull it.  The first
  ``truncate_at`` packets are compared with the rest (``compare``: Hodges–Lehmann shift and a
  Mann–Whitney test, widened for autocorrelation); ``detected`` needs a cut and p < ``alpha``.
* ``check_expectations`` — a pass/fail table of reported or computed summaries against stated
  expectations such as seed 003's "latency is around 40-50" (µs) and "close to ~11Gbps".
  Expectations are dicts (or a frame) with ``metric``, ``stat``, ``expect`` (text such as
  ``"40-50 us"``, ``"~11 Gbps"``, ``"<1 ms"``, ``">= 4 Gbps"``) or ``low``/``high``/``unit``, and
  an optional ``where`` filter on run columns.  Units are converted to the summary's unit;
  latencies of the other basis are converted explicitly (``units``) and the note says so.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import numpy as np
import pandas as pd

from .. import units
from .common import as_rng, check_basis, metric_column, observations, ordered
from .compare import compare
from .dependence import integrated_time

# Unit → (dimension, factor to the base unit: µs for time, bit/s for rates, bytes, bytes/s).
UNITS = {
    "ns": ("time", 1e-3),
    "us": ("time", 1.0),
    "µs": ("time", 1.0),
    "usec": ("time", 1.0),
    "ms": ("time", 1e3),
    "s": ("time", 1e6),
    "bps": ("rate", 1.0),
    "kbps": ("rate", 1e3),
    "mbps": ("rate", 1e6),
    "gbps": ("rate", 1e9),
    "kbit/s": ("rate", 1e3),
    "mbit/s": ("rate", 1e6),
    "gbit/s": ("rate", 1e9),
    "mbits/sec": ("rate", 1e6),
    "gbits/sec": ("rate", 1e9),
    "bytes": ("bytes", 1.0),
    "kb": ("bytes", 1e3),
    "mb": ("bytes", 1e6),
    "gb": ("bytes", 1e9),
    "bytes/s": ("byte_rate", 1.0),
    "b/s": ("byte_rate", 1.0),
    "kb/s": ("byte_rate", 1e3),
    "mb/s": ("byte_rate", 1e6),
    "gb/s": ("byte_rate", 1e9),
    "kib/s": ("byte_rate", 1024.0),
    "mib/s": ("byte_rate", 1024.0**2),
    "gib/s": ("byte_rate", 1024.0**3),
    "io/s": ("io_rate", 1.0),
    "iops": ("io_rate", 1.0),
    "kiops": ("io_rate", 1e3),
    "k iops": ("io_rate", 1e3),
    "pct": ("pct", 1.0),
    "%": ("pct", 1.0),
    "count": ("count", 1.0),
    "": ("count", 1.0),
}
_NUM = r"([0-9]*\.?[0-9]+(?:e[+-]?\d+)?)"
_EXPECT = [
    (re.compile(rf"^{_NUM}\s*(?:-|–|to|\.\.)\s*{_NUM}\s*(\S*)$", re.I), "range"),
    (re.compile(rf"^(?:~|≈|about\s+|around\s+){_NUM}\s*(\S*)$", re.I), "about"),
    (re.compile(rf"^(<=?|≤)\s*{_NUM}\s*(\S*)$", re.I), "below"),
    (re.compile(rf"^(>=?|≥)\s*{_NUM}\s*(\S*)$", re.I), "above"),
]


def convert(value: float, unit: str, to: str) -> float:
    """``value`` in ``unit`` expressed in ``to`` (same dimension, else ValueError)."""
    a, b = UNITS.get(unit.lower()), UNITS.get(to.lower())
    if a is None or b is None:
        raise ValueError(f"unknown unit {unit if a is None else to!r}; known: {sorted(UNITS)}")
    if a[0] != b[0]:
        raise ValueError(f"cannot compare {unit!r} ({a[0]}) with {to!r} ({b[0]})")
    return value * a[1] / b[1]


def parse_expect(text: str, tolerance: float = 0.1) -> tuple[float, float, str]:
    """``"40-50 us"`` → (40, 50, 'us'); ``"~11 Gbps"`` → (9.9, 12.1, 'Gbps') at ±10%;
    ``"<1 ms"`` → (-inf, 1, 'ms'); ``">= 4 Gbps"`` → (4, inf, 'Gbps')."""
    t = text.strip()
    for pattern, kind in _EXPECT:
        m = pattern.match(t)
        if not m:
            continue
        if kind == "range":
            return float(m[1]), float(m[2]), m[3]
        if kind == "about":
            v = float(m[1])
            return v * (1 - tolerance), v * (1 + tolerance), m[2]
        if kind == "below":
            return -np.inf, float(m[2]), m[3]
        return float(m[2]), np.inf, m[3]
    raise ValueError(f"cannot read expectation {text!r}: write '40-50 us', '~11 Gbps', '<1 ms'")


def _spec(e: dict, tolerance: float) -> tuple[float, float, str]:
    if "expect" in e and isinstance(e["expect"], str):
        return parse_expect(e["expect"], e.get("tolerance", tolerance))
    return float(e.get("low", -np.inf)), float(e.get("high", np.inf)), e.get("unit", "")


def _candidates(summaries, runs, e) -> tuple[pd.DataFrame, str]:
    """Summary rows an expectation applies to, with the basis converted if needed."""
    rows = summaries
    note = ""
    metric = e["metric"]
    if metric in units.BASES:
        other = "half_rtt" if metric == "rtt" else "rtt"
        if (rows["metric"] == other).any() and e.get("convert_basis", True):
            conv = units.to_rtt if metric == "rtt" else units.to_half_rtt
            converted = conv(rows[rows["metric"] == other])
            converted["converted_basis"] = True
            rows = pd.concat([rows.assign(converted_basis=False), converted], ignore_index=True)
            note = f"converted from {other} (rtt = 2 × half_rtt)"
    if "converted_basis" not in rows.columns:
        rows = rows.assign(converted_basis=False)
    rows = rows[(rows["metric"] == metric) & (rows["stat"] == e.get("stat", "mean"))]
    if "source" in e:
        rows = rows[rows["source"] == e["source"]]
    where = e.get("where") or {}
    if where:
        if runs is None:
            raise ValueError("an expectation with 'where' needs runs=")
        keep = runs
        for col, val in where.items():
            vals = val if isinstance(val, (list, tuple, set)) else [val]
            keep = keep[keep[col].isin(vals)]
        rows = rows[rows["run_id"].isin(keep["run_id"])]
    return rows, note


def check_expectations(
    summaries: pd.DataFrame,
    runs: pd.DataFrame | None,
    expectations: Sequence[dict] | pd.DataFrame,
    *,
    tolerance: float = 0.1,
) -> pd.DataFrame:
    """One row per expectation and matching summary: observed value, bounds, ``passed``.

    An expectation that matches nothing gives one row with ``passed`` = NA and a note."""
    if isinstance(expectations, pd.DataFrame):
        expectations = expectations.to_dict("records")
    out = []
    for e in expectations:
        name = e.get("name", f"{e['metric']} {e.get('stat', 'mean')} {e.get('expect', '')}")
        low, high, unit = _spec(e, tolerance)
        rows, note = _candidates(summaries, runs, e)
        base = {"expectation": name, "metric": e["metric"], "stat": e.get("stat", "mean")}
        if rows.empty:
            out.append({**base, "passed": pd.NA, "note": "no matching summary"})
            continue
        for r in rows.itertuples(index=False):
            lo = convert(low, unit, r.unit) if unit else low
            hi = convert(high, unit, r.unit) if unit else high
            ok = bool(lo <= r.value <= hi)
            out.append(
                {
                    **base,
                    "run_id": r.run_id,
                    "source": r.source,
                    "observed": r.value,
                    "unit": r.unit,
                    "expected_low": lo,
                    "expected_high": hi,
                    "passed": ok,
                    "note": note if r.converted_basis else "",
                }
            )
    cols = [
        "expectation",
        "run_id",
        "metric",
        "stat",
        "source",
        "observed",
        "unit",
        "expected_low",
        "expected_high",
        "passed",
        "note",
    ]
    result = pd.DataFrame(out).reindex(columns=cols)
    result["passed"] = result["passed"].astype("boolean")
    if runs is not None:
        extra = [
            c for c in ("tool", "heading", "scenario", "src_zone", "dst_zone") if c in runs.columns
        ]
        result["run_id"] = result["run_id"].astype(runs["run_id"].dtype)
        result = result.merge(runs[["run_id", *extra]], on="run_id", how="left")
    return result


# ---------------------------------------------------------------------------------------------
# Warm-up


def mser(x: np.ndarray, batch: int = 5, max_fraction: float = 0.5) -> int:
    """MSER-``batch`` truncation point: how many leading observations to drop."""
    k = len(x) // batch
    if k < 4:
        return 0
    z = x[: k * batch].reshape(k, batch).mean(axis=1)
    # For every truncation d: sum and sum of squares of z[d:], from reversed cumulative sums.
    s1 = np.cumsum(z[::-1])[::-1]
    s2 = np.cumsum((z**2)[::-1])[::-1]
    d = np.arange(int(k * max_fraction) + 1)
    m = k - d
    ss = s2[d] - s1[d] ** 2 / m
    return int(d[np.argmin(ss / m**2)]) * batch


# Resamples of the null of no warm-up (a stationary run): the p-value's floor is 1/(B+1).
NULL_RESAMPLES = 400
# Block length of the null in autocorrelation times: short blocks break the run's memory and
# make the null too calm (the block bootstrap's variance bias is about τ / length).
BLOCK_TAUS = 5.0
# Fewer effective values than this (n / τ̂ of the rest) leave too few blocks for the null to
# be calibrated (at n = 2,000 and AR(1) φ = 0.9, n/τ ≈ 105: 3.3 % false warm-ups at α = 1 %):
# no test, and the note says why.
MIN_EFFECTIVE = 200


def _gap(y: np.ndarray, cut: int) -> float:
    """How far the first ``cut`` log values sit from the rest, in standard errors of a
    difference of means (as if independent: the block null carries the dependence); 0
    without a cut.  Standardised, so a cut of five values that strays by chance does not
    outweigh a long warm-up."""
    n = len(y)
    if not cut or cut >= n:
        return 0.0
    sd = float(np.std(y))
    if sd == 0:
        return 0.0
    return float(abs(y[:cut].mean() - y[cut:].mean()) / sd * np.sqrt(cut * (n - cut) / n))


def warmup_null_p(
    logx: np.ndarray, cut: int, batch: int, max_fraction: float, rng, b: int
) -> tuple[float, float]:
    """(p-value, τ̂ of the rest) of the start-vs-rest gap at ``cut`` under "no warm-up".

    MSER picks the cut that makes the start look most different, and a run's packets are
    autocorrelated, so a plain two-sample test at that cut finds warm-ups in stationary runs
    (7.5-30 % of AR(1) runs at α = 0.01, issue 29).  The null here is the run itself without
    its order: a stationary block bootstrap (blocks of 5τ̂, τ̂ the run's integrated
    autocorrelation time, so the resamples keep its memory) through the same MSER cut and the
    same statistic.  The blocks come from the part after the cut (the run as it is once warm),
    resampled to the run's length: a warm-up, if there is one, is not in its own null.  A rest
    whose memory is longer than half of it has no such null: NaN."""
    n, rest, observed = len(logx), logx[cut:], _gap(logx, cut)
    m = len(rest)
    tau = integrated_time(rest)
    if not np.isfinite(tau) or m / tau < MIN_EFFECTIVE:
        return np.nan, tau
    length = max(1, int(np.ceil(BLOCK_TAUS * tau)))
    blocks = -(-n // length)
    hits = 0
    for _ in range(b):
        starts = rng.integers(0, m, size=blocks)
        y = rest[((starts[:, None] + np.arange(length)) % m).ravel()[:n]]
        hits += _gap(y, mser(y, batch, max_fraction)) >= observed
    return (hits + 1) / (b + 1), float(tau)


def warmup(
    samples: pd.DataFrame,
    *,
    metric: str = "rtt",
    batch: int = 5,
    max_fraction: float = 0.5,
    alpha: float = 0.01,
    level: float = 0.95,
    rng=None,
) -> pd.DataFrame:
    """Per run: the MSER-5 warm-up cut and whether the start differs from the rest.

    The cut's effect (Hodges-Lehmann shift and its interval) comes from ``compare``; whether
    a warm-up is *detected* from :func:`warmup_null_p`, a null that repeats the cut's choice
    on block resamples of the run, so a stationary run flags a warm-up at about ``alpha``
    whatever its autocorrelation."""
    rng = as_rng(rng)
    column, unit = metric_column(metric)
    check_basis(samples, metric)
    out = []
    for run_id, part in ordered(samples).groupby("run_id", sort=True):
        ok = part[part["status"].astype(str).eq("ok") & part[column].notna()]
        x = observations(ok, column).values
        base = {
            "run_id": run_id,
            "n": len(x),
            "unit": unit,
            "method": f"MSER-{batch} on log values; Hodges-Lehmann shift; p-value from a "
            "stationary block bootstrap of the run through the same cut",
        }
        logx = np.log(np.clip(x, 1e-12, None))
        cut = mser(logx, batch, max_fraction) if len(x) else 0
        row = {**base, "truncate_at": cut, "detected": False}
        if cut:
            row.update(_warmup_effect(ok, x, logx, cut, batch, max_fraction, alpha, level, rng))
        out.append(row)
    result = pd.DataFrame(out).reindex(columns=WARMUP_COLUMNS)
    result["detected"] = result["detected"].astype("boolean")  # NA: not tested
    return result


WARMUP_COLUMNS = [
    "run_id",
    "n",
    "truncate_at",
    "truncate_seq",
    "warmup_s",
    "median_first",
    "median_rest",
    "shift",
    "shift_ci_low",
    "shift_ci_high",
    "p_value",
    "detected",
    "unit",
    "method",
    "note",
]


def _warmup_effect(ok, x, logx, cut, batch, max_fraction, alpha, level, rng) -> dict:
    """What a warm-up cut at ``cut`` means for one run: where and when, the shift of the
    start against the rest, and the block-bootstrap null's p-value."""
    row = {}
    t = ok["tx_time_ns"] if "tx_time_ns" in ok.columns else ok.get("time_ns")
    row["truncate_seq"] = ok["seq"].iloc[cut]
    if t is not None and t.notna().iloc[[0, cut]].all():
        row["warmup_s"] = (int(t.iloc[cut]) - int(t.iloc[0])) / 1e9
    res = compare(x[:cut], x[cut:], level, rng=rng)
    shift = res[res["effect"] == "shift"].iloc[0]
    p, tau = warmup_null_p(logx, cut, batch, max_fraction, rng, NULL_RESAMPLES)
    row.update(
        median_first=float(np.median(x[:cut])),
        median_rest=float(np.median(x[cut:])),
        shift=shift["estimate"],
        shift_ci_low=shift["ci_low"],
        shift_ci_high=shift["ci_high"],
        p_value=p,
        detected=bool(p < alpha) if np.isfinite(p) else pd.NA,
        note=(
            f"null: {NULL_RESAMPLES} block resamples of the rest"
            if np.isfinite(p)
            else "not tested: the rest's memory leaves "
            + (
                f"{(len(x) - cut) / tau:.0f} effective values (n/τ), fewer than {MIN_EFFECTIVE}"
                if np.isfinite(tau)
                else "no measurable autocorrelation time"
            )
            + " to test the start against"
        ),
    )
    return row
