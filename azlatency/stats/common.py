"""Shared plumbing of ``azlatency.stats``: random generators, picking observations out of a
samples frame, the columns every interval row carries, and the exact binomial interval of a
share (also with the run as the unit: `run_shares`).

What counts as an observation (docs/statistics.md, "Censored and missing values"):

* ``status == "ok"`` rows with a value are observations;
* ``status == "censored"`` rows (Windows ``time<1ms``) are values known only to lie below
  ``censor_high_us``: they take part in ranks (below every uncensored value at or above the
  bound) but never in sums, so a mean becomes a pair of bounds;
* ``timeout``, ``lost``, ``error``, ``duplicate``, ``omitted`` rows are not observations; they
  are counted (``n_excluded``) and a note says that tail percentiles are conditional on a reply.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np
import pandas as pd
from scipy import stats

from ..schema import execution_ids
from ..units import COLUMN, BasisError
from . import dependence as dep

Rng = int | np.random.Generator | None

# Column order of every interval table: the estimate, its interval, how it was made.
INTERVAL_COLUMNS = [
    "estimate",
    "ci_low",
    "ci_high",
    "level",
    "method",
    "unit_of_analysis",
    "n",
    "n_runs",
    "n_eff",
    "estimable",
    "note",
    "bound_low",
    "bound_high",
    "range_low",
    "range_high",
]
# The head every interval table shares, in this order; tables add their own columns around it.
INTERVAL_CORE = INTERVAL_COLUMNS[:3] + ["level", "method"]
DEFAULT_QUANTILES = (0.25, 0.5, 0.75, 0.9, 0.99, 0.999, 0.9999, 0.99999)


def as_rng(rng: Rng) -> np.random.Generator:
    """A numpy Generator from a seed, a Generator, or ``None`` (fresh entropy)."""
    if isinstance(rng, np.random.Generator):
        return rng
    return np.random.default_rng(rng)


def nines(q: float | np.ndarray) -> float | np.ndarray:
    """``-log10(1 - q)``: 0.9 → 1, 0.99 → 2, 0.999 → 3 (the x axis of a percentile spectrum)."""
    return -np.log10(1.0 - np.asarray(q, dtype=float))


def metric_column(metric: str) -> tuple[str, str]:
    """The samples column and unit of ``metric`` (``'rtt'``, ``'half_rtt'``, or a column)."""
    if metric in COLUMN:
        return COLUMN[metric], "us"
    if metric in ("throughput", "bits_per_second"):
        return "bits_per_second", "bps"
    for suffix, unit in (("_us", "us"), ("_s", "s"), ("_bytes", "bytes"), ("_pct", "pct")):
        if metric.endswith(suffix):
            return metric, unit
    return metric, ""


def check_basis(samples: pd.DataFrame, metric: str) -> None:
    """Refuse to read ``rtt`` when some runs only hold ``half_rtt`` (or the reverse)."""
    if metric not in COLUMN:
        return
    other = "half_rtt" if metric == "rtt" else "rtt"
    if COLUMN[other] not in samples.columns:
        if COLUMN[metric] not in samples.columns:
            raise BasisError(f"samples have no {COLUMN[metric]} column")
        return
    mine = samples[COLUMN[metric]] if COLUMN[metric] in samples.columns else None
    theirs = samples[COLUMN[other]].notna()
    if mine is not None:
        theirs &= mine.isna()
    if theirs.any():
        runs = sorted(samples.loc[theirs, "run_id"].astype(str).unique())[:5]
        fix = "to_rtt" if metric == "rtt" else "to_half_rtt"
        raise BasisError(
            f"runs {runs} hold {COLUMN[other]} only; convert explicitly with "
            f"azlatency.units.{fix}(samples) or analyse metric={other!r}"
        )


def attach(samples: pd.DataFrame, runs: pd.DataFrame | None, by: list[str]) -> pd.DataFrame:
    """``samples`` with the ``by`` columns that live in ``runs`` merged in by ``run_id``."""
    need = [c for c in by if c not in samples.columns]
    if not need:
        return samples
    if runs is None:
        raise ValueError(f"columns {need} are not in samples; pass runs= to take them from runs")
    missing = [c for c in need if c not in runs.columns]
    if missing:
        raise ValueError(f"columns {missing} are neither in samples nor in runs")
    return samples.merge(runs[["run_id", *need]], on="run_id", how="left", validate="m:1")


def by_execution(samples: pd.DataFrame, runs: pd.DataFrame | None) -> pd.DataFrame:
    """``samples`` whose ``run_id`` is the execution each run is a window of (``runs.execution``):
    where the run is the unit of analysis, windows of one execution are one unit, never
    replicates.  Unchanged when no run of ``runs`` is a window."""
    if runs is None or "execution" not in runs.columns or runs["execution"].isna().all():
        return samples
    key = samples["run_id"].map(execution_ids(runs))
    return samples.assign(run_id=key.fillna(samples["run_id"]).astype(samples["run_id"].dtype))


# The samples columns a grouped statistic reads besides its ``by`` and value columns.
READ_COLUMNS = ("run_id", "seq", "tx_time_ns", "time_ns", "status", "censor_high_us")


def grouping(
    samples: pd.DataFrame, runs: pd.DataFrame | None, by: list[str], column: str
) -> pd.DataFrame:
    """The frame a statistic per ``by`` group iterates over: only the samples columns it reads
    (a group of a frame with every column took each of them, Arrow strings included: 2.6 s of
    notebook 11's 24), the run columns of ``by`` attached, windows of one execution made one
    run where the run is not itself a group, in measurement order."""
    keep = [c for c in dict.fromkeys([*by, *READ_COLUMNS, column]) if c in samples.columns]
    frame = attach(samples[keep] if len(keep) < samples.shape[1] else samples, runs, by)
    return ordered(frame if "run_id" in by else by_execution(frame, runs))


def ordered(samples: pd.DataFrame) -> pd.DataFrame:
    """Rows in measurement order within each run (``seq``, then send time), run by run."""
    keys = [k for k in ("run_id", "seq", "tx_time_ns", "time_ns") if k in samples.columns]
    if not keys or _in_order(samples, keys):
        return samples
    return samples.sort_values(keys, kind="stable")


def _in_order(samples: pd.DataFrame, keys: list[str]) -> bool:
    """True when the rows are already sorted by ``keys`` with no ties left for the later keys
    to break: runs in order and ``seq`` strictly increasing in each (as the store keeps
    them), so sorting would change nothing.  Checked in O(n); a sort of a few million rows by
    a string run id costs a factorize and a lexsort."""
    if keys[:2] != ["run_id", "seq"] or len(samples) < 2:
        return False
    run, seq = samples["run_id"], samples["seq"]
    if seq.hasnans or run.hasnans or not run.is_monotonic_increasing:
        return False
    r = run.to_numpy()
    q = seq.to_numpy(dtype=np.int64)
    same = r[1:] == r[:-1]
    return bool(np.all(q[1:][same] > q[:-1][same]))


@dataclass
class Observations:
    """The usable values of one series or group, in measurement order.

    ``series`` holds every observation in order; a censored value is ``-inf`` there (it is
    below ``bound``, and ranks put it below every value)."""

    series: np.ndarray
    bound: float  # largest censoring bound (NaN when nothing is censored)
    n_censored: int
    n_excluded: int  # timeouts, losses, errors, duplicates...
    run_ids: np.ndarray  # run of each entry of ``series``

    @property
    def n(self) -> int:
        return len(self.series)

    @property
    def values(self) -> np.ndarray:
        """The uncensored observations, in order."""
        return self.series[np.isfinite(self.series)] if self.n_censored else self.series

    @cached_property
    def variance(self) -> np.floating:
        """Variance (n−1) of ``values``, computed once: the std row and the mean's interval
        both read it (a pass and a whole-series temporary each: 3.7 ms for a 1.5 × 10⁶-point
        run, about 4% of its summary)."""
        return np.var(self.values, ddof=1)


def observations(part: pd.DataFrame, column: str) -> Observations:
    """Split a samples frame (already ordered) into observations, censored values, exclusions."""
    return observe(Columns.of(part, column))


@dataclass
class Columns:
    """What :func:`observations` reads from a samples frame, as arrays read once: a frame cut
    into groups by position (``stats._groups``) observes each part without taking its rows
    of every column."""

    vals: np.ndarray  # the value column as float, NaN where missing or not a number
    ok: np.ndarray  # status "ok" and a value (a value, without a status column)
    censored: np.ndarray  # status "censored" with a bound
    bound: np.ndarray | None  # censor_high_us as float
    runs: np.ndarray | None  # run id (str) of each row

    @classmethod
    def of(cls, part: pd.DataFrame, column: str, *, runs: bool = True) -> Columns:
        """The arrays of ``part``; ``runs=False`` leaves the run ids to the caller (a frame
        cut by position names each row's run itself, and a million Arrow strings made
        Python objects cost 0.1 s)."""
        # `status.astype(str) == "ok"` compares as the object array did, without making one
        status = part["status"].astype(str) if "status" in part.columns else None
        vals = pd.to_numeric(part[column], errors="coerce").to_numpy(dtype=float, na_value=np.nan)
        ok = np.isfinite(vals)
        if status is not None:
            ok = (status == "ok").to_numpy(dtype=bool) & ok
        cens, bound = np.zeros(len(part), bool), None
        if status is not None and "censor_high_us" in part.columns:
            has_bound = part["censor_high_us"].notna().to_numpy()
            cens = (status == "censored").to_numpy(dtype=bool) & has_bound
            bound = part["censor_high_us"].to_numpy(dtype=float, na_value=np.nan)
        ids = part["run_id"].astype(str).to_numpy() if runs and "run_id" in part else None
        return cls(vals, ok, cens, bound, ids)


def observe(c: Columns, pos: np.ndarray | None = None) -> Observations:
    """The :class:`Observations` of the rows ``pos`` of ``c`` (every row when None), in the
    order given."""

    def take(a):
        return a if pos is None else a[pos]

    vals, ok, cens = take(c.vals), take(c.ok), take(c.censored)
    bound = np.nan
    if cens.any():
        bound = float(take(c.bound)[cens].max())
    keep = ok | cens
    series = np.where(cens, -np.inf, vals)[keep]
    run_ids = take(c.runs)[keep] if c.runs is not None else np.zeros(int(keep.sum()), dtype=object)
    return Observations(series, bound, int(cens.sum()), int(len(vals) - keep.sum()), run_ids)


def row(
    estimate=np.nan,
    low=np.nan,
    high=np.nan,
    *,
    level,
    method,
    unit,
    n,
    n_runs=1,
    n_eff=np.nan,
    estimable=True,
    note="",
    bounds=(np.nan, np.nan),
    range_=(np.nan, np.nan),
) -> dict:
    """One interval row with every column of ``INTERVAL_COLUMNS``.

    ``bounds``: the value is only known to lie in this interval (censoring); ``range_``: the
    smallest and largest per-run value when the run is the unit of analysis."""
    return {
        "estimate": float(estimate),
        "ci_low": float(low),
        "ci_high": float(high),
        "level": float(level),
        "method": method,
        "unit_of_analysis": unit,
        "n": int(n),
        "n_runs": int(n_runs),
        "n_eff": float(n_eff),
        "estimable": bool(estimable),
        "note": note,
        "bound_low": float(bounds[0]),
        "bound_high": float(bounds[1]),
        "range_low": float(range_[0]),
        "range_high": float(range_[1]),
    }


def not_estimable(*, level, method, unit, n, note, n_runs=1, estimate=np.nan, **kw) -> dict:
    """A row that says there is no interval, and why; never a made-up number."""
    return row(
        estimate,
        level=level,
        method=method,
        unit=unit,
        n=n,
        n_runs=n_runs,
        estimable=False,
        note=note,
        **kw,
    )


def check_level(level: float) -> float:
    if not 0 < level < 1:
        raise ValueError(f"level must be between 0 and 1 (0.95 for 95%), got {level!r}")
    return float(level)


def join_notes(*notes: str) -> str:
    return "; ".join(n for n in notes if n)


def clopper_pearson(k, n, level: float):
    """Exact binomial interval; accepts a fractional (effective) n and k, as numbers (a pair of
    floats) or arrays of them (a pair of arrays)."""
    a = (1 - level) / 2
    k, n = np.asarray(k, dtype=float), np.asarray(n, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        lo = np.where(k <= 0, 0.0, stats.beta.ppf(a, np.maximum(k, 1e-300), n - k + 1))
        hi = np.where(k >= n, 1.0, stats.beta.ppf(1 - a, k + 1, np.maximum(n - k, 1e-300)))
    return (float(lo), float(hi)) if lo.ndim == 0 else (lo, hi)


def run_shares(k_i: np.ndarray, n_i: np.ndarray, level: float):
    """The share of all packets above a threshold with the run as the unit, from each run's
    count above it ``k_i`` and packets ``n_i``: (p, the runs' shares p_i, the ratio
    estimator's cluster variance k/(k−1)·Σ n_i²(p_i − p)²/n², n_eff = p(1−p)/variance shrunk
    by (z/t_{k−1})² and capped at n; n where the variance is 0).  ``k_i`` may hold one column
    per threshold (k × m)."""
    k, n = len(n_i), float(n_i.sum())
    nn = n_i if k_i.ndim == 1 else n_i[:, None]
    p_i = np.divide(k_i, nn, out=np.zeros(k_i.shape), where=nn > 0)
    p = k_i.sum(0) / n
    var = k / (k - 1) * np.sum((nn * (p_i - p)) ** 2, 0) / n**2
    with np.errstate(divide="ignore", invalid="ignore"):
        n_eff = np.where(var > 0, np.minimum(n, p * (1 - p) / var * dep.t_shrink(k, level)), n)
    return p, p_i, var, n_eff
