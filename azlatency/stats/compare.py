"""Comparisons between two conditions: shift, ratio, rank test, effect size, many at once.

For samples ``a`` (a condition) and ``b`` (its reference), ``compare`` gives

* **shift** — the Hodges–Lehmann estimate, median of all a_i − b_j, with the distribution-free
  interval whose ends are the differences at the Mann–Whitney critical ranks (Lehmann 1975,
  §2.6); computed by exact selection without forming the m·n differences (``_hl``), so two
  runs of a million packets take seconds;
* **ratio** — median(a)/median(b) with a bootstrap percentile interval on order statistics
  (``_resample``); between runs (few values) the ratio is exp(HL of the log values) with its
  exact interval, a distribution-free scale comparison;
* **cliffs_delta** — δ = P(a > b) − P(a < b) = 2U/(m·n) − 1 (Cliff 1993, Psychol. Bull.
  114(3)), with a Wilson-score interval (Newcombe 2006, Stat. Med. 25(4)) on P(a > b) using
  the DeLong et al. (1988) placement variance, so the interval never collapses at ±1;
* **p_value** — two-sided Mann–Whitney U (``scipy.stats.mannwhitneyu``, method "auto": exact
  for small samples without ties, else normal with tie correction).

Autocorrelated packets (``dependence``) inflate each sample's variance term by its
batch-means variance inflation factor (of the placement series); the test, the HL ranks and
the δ interval all use it.  That is a comparison of two *runs*, not of two conditions:
``compare_groups`` (and ``asymmetry``) make the run the unit — one statistic per run, Welch t
on the log values, or a between-run variance borrowed from replicated conditions when a side
has one run, or no test at all (``runlevel``).  ``adjust_pvalues`` gives Holm (1979,
Scand. J. Statist. 6(2)) or Benjamini–Hochberg (1995) adjustment.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

import numpy as np
import pandas as pd
from scipy import stats

from .._console import counted
from . import _hl
from . import dependence as dep
from . import runlevel as rl
from ._groups import groups
from ._resample import percentile_interval, quantile_replicates
from .common import (
    Rng,
    as_rng,
    attach,
    by_execution,
    check_basis,
    check_level,
    join_notes,
    metric_column,
)
from .common import observations as _observations
from .common import ordered as _ordered
from .intervals import sorted_quantile

EFFECTS = ("shift", "ratio", "cliffs_delta")
COLUMNS = [
    "a",
    "b",
    "effect",
    "estimate",
    "ci_low",
    "ci_high",
    "level",
    "method",
    "unit_of_analysis",
    "n_a",
    "n_b",
    "n_eff_a",
    "n_eff_b",
    "median_a",
    "median_b",
    "p_value",
    "test",
    "estimable",
    "note",
    "n_runs_a",
    "n_runs_b",
    "df",
    "testable",
    "assumption",
]
ADJUST = ("holm", "fdr_bh", "bonferroni", "none")


def check_adjust(method: str) -> str:
    """``method`` if it is one of :data:`ADJUST`, else a ValueError (before any work)."""
    if method not in ADJUST:
        raise ValueError(f"adjust must be one of {ADJUST}, got {method!r}")
    return method


def adjust_pvalues(p, method: str = "holm") -> np.ndarray:
    """Adjusted p-values: Holm step-down, Benjamini–Hochberg (``fdr_bh``), Bonferroni, none.
    NaNs stay NaN and do not count as tests."""
    check_adjust(method)
    p = np.asarray(p, dtype=float)
    out = np.full(p.shape, np.nan)
    ok = np.isfinite(p)
    q = p[ok]
    m = len(q)
    if m == 0 or method == "none":
        out[ok] = q
        return out
    if method == "bonferroni":
        out[ok] = np.minimum(q * m, 1.0)
    elif method == "holm":
        order = np.argsort(q, kind="stable")
        adj = np.maximum.accumulate(q[order] * (m - np.arange(m)))
        res = np.empty(m)
        res[order] = np.minimum(adj, 1.0)
        out[ok] = res
    else:
        out[ok] = stats.false_discovery_control(q, method="bh")
    return out


# ---------------------------------------------------------------------------------------------
# Two samples of packets


def _placements(x: np.ndarray, ref_sorted: np.ndarray) -> np.ndarray:
    """Fraction of ``ref`` below each x, ties counting one half (the DeLong placement)."""
    lt = np.searchsorted(ref_sorted, x, side="left")
    le = np.searchsorted(ref_sorted, x, side="right")
    return (lt + le) / (2.0 * len(ref_sorted))


def _vif(series: np.ndarray, detected: bool) -> float:
    """Variance inflation of a placement series (1 when no dependence is used)."""
    if not detected or len(series) < dep.MIN_N:
        return 1.0
    var = float(np.var(series, ddof=1))
    if var == 0:
        return 1.0
    return max(1.0, dep.long_run_variance(series, dep.n_batches(len(series))) / var)


def _wilson(p: float, n_w: float, z: float) -> tuple[float, float]:
    centre = (p + z * z / (2 * n_w)) / (1 + z * z / n_w)
    half = z / (1 + z * z / n_w) * np.sqrt(p * (1 - p) / n_w + z * z / (4 * n_w * n_w))
    return max(0.0, centre - half), min(1.0, centre + half)


def _crit(level: float, df: int | None) -> float:
    """Two-sided critical value: normal, or Student t with the batch count's degrees of
    freedom when the variance comes from batch means."""
    a = (1 + level) / 2
    return float(stats.norm.ppf(a) if df is None else stats.t.ppf(a, df))


def _mwu_p(xa, xb, u, vif_a, vif_b, df: int | None) -> tuple[float, str]:
    m, n = len(xa), len(xb)
    if df is None:
        res = stats.mannwhitneyu(xa, xb, alternative="two-sided", method="auto")
        return float(res.pvalue), "Mann-Whitney U, two-sided"
    _, counts = np.unique(np.concatenate([xa, xb]), return_counts=True)
    big_n = m + n
    ties = float(((counts**3 - counts).sum()) / (big_n * (big_n - 1)))
    var = m * n / 12 * (n * vif_a + m * vif_b + 1 - ties)
    z = (abs(u - m * n / 2) - 0.5) / np.sqrt(var) if var > 0 else 0.0
    return float(
        min(1.0, 2 * stats.t.sf(z, df))
    ), f"Mann-Whitney U, two-sided, variance inflated by batch means (t, {df} df)"


def packet_compare(
    xa: np.ndarray,
    xb: np.ndarray,
    level: float = 0.95,
    *,
    dependence: str = "auto",
    rng: Rng = None,
    n_resamples: int = 4000,
    log_ratio: bool = False,
) -> list[dict]:
    """Rows of ``EFFECTS`` for two ordered series (effects of a relative to b)."""
    rng = as_rng(rng)
    xa = np.asarray(xa, dtype=float)
    xb = np.asarray(xb, dtype=float)
    xa, xb = xa[~np.isnan(xa)], xb[~np.isnan(xb)]
    m, n = len(xa), len(xb)
    base = {"level": level, "n_a": m, "n_b": n}
    if m < 2 or n < 2:
        return _no_estimate_rows(
            base, note="needs ≥ 2 values per side", method="", unit_of_analysis="packet"
        )
    da, db, dependent, notes = _assess_pair(xa, xb, dependence)
    sa, sb = np.sort(xa), np.sort(xb)
    pa, pb = _placements(xa, sb), _placements(xb, sa)
    vif_a = _vif(pa, dependent and (dependence == "batch" or da.detected))
    vif_b = _vif(pb, dependent and (dependence == "batch" or db.detected))
    u = float(pa.sum() * n)
    # Variances from b batches carry b−1 degrees of freedom: Student t, not the normal.
    df = min(dep.n_batches(m), dep.n_batches(n)) - 1 if dependent else None
    p_value, test = _mwu_p(xa, xb, u, vif_a, vif_b, df)
    unit = "batch" if dependent else "packet"
    med_a, med_b = float(np.median(xa)), float(np.median(xb))
    common = {
        **base,
        "unit_of_analysis": unit,
        "n_eff_a": m / vif_a,
        "n_eff_b": n / vif_b,
        "median_a": med_a,
        "median_b": med_b,
        "p_value": p_value,
        "test": test,
        "note": notes,
    }
    if np.isinf(sa[0]) or np.isinf(sb[0]):
        # Censored values (-inf: below a bound) rank fine but have no differences or ratios.
        why = join_notes("censored values: shift and ratio need actual values", notes)
        return [
            *(_not_estimable_row(common, e, why) for e in ("shift", "ratio")),
            _delta_row(pa, pb, level, vif_a, vif_b, df, common),
        ]
    rows = [_shift_row(sa, sb, level, vif_a, vif_b, df, rng, common)]
    if log_ratio:
        rows.append(_log_ratio_row(sa, sb, level, rng, common))
    else:
        rows.append(_ratio_row(sa, sb, level, vif_a, vif_b, df, rng, n_resamples, common))
    rows.append(_delta_row(pa, pb, level, vif_a, vif_b, df, common))
    return rows


def _no_estimate_rows(base: dict, **fields) -> list[dict]:
    """A row per effect of ``EFFECTS``, none estimable: ``base``, then ``fields`` (the why)."""
    return [{**base, "effect": e, "estimable": False, **fields} for e in EFFECTS]


def _assess_pair(xa: np.ndarray, xb: np.ndarray, dependence: str):
    """Each side's dependence assessment (None under ``iid``), whether either side is
    treated as dependent, and the notes they make."""
    if dependence not in ("auto", "iid", "batch"):
        raise ValueError(f"dependence must be 'auto', 'iid' or 'batch', got {dependence!r}")
    da = dep.assess(xa) if dependence != "iid" else None
    db = dep.assess(xb) if dependence != "iid" else None
    dependent = dependence == "batch" or any(d is not None and d.detected for d in (da, db))
    notes = join_notes(*(f"{s}: {d.note}" for s, d in (("a", da), ("b", db)) if d is not None))
    return da, db, dependent, notes


def _not_estimable_row(common: dict, effect: str, note: str, method: str = "") -> dict:
    """A row of ``effect`` with no estimate, saying why in ``note``."""
    return {
        **common,
        "effect": effect,
        "estimate": np.nan,
        "ci_low": np.nan,
        "ci_high": np.nan,
        "method": method,
        "estimable": False,
        "note": note,
    }


def _shift_row(sa, sb, level, vif_a, vif_b, df, rng, common) -> dict:
    m, n = len(sa), len(sb)
    dependent = df is not None
    var_factor = n * vif_a + m * vif_b + 1 if dependent else None
    lo_k, hi_k = _hl.ci_ranks(m, n, level, var_factor=var_factor, df=df)
    total = m * n
    mid = [(total - 1) // 2, total // 2]
    method = "Hodges-Lehmann (exact selection), Mann-Whitney ranks" + (
        ", variance inflated" if dependent else ""
    )
    if lo_k < 0:
        est = float(_hl.select(sa, sb, mid, rng).mean())
        return {
            **common,
            "effect": "shift",
            "estimate": est,
            "ci_low": np.nan,
            "ci_high": np.nan,
            "method": method,
            "estimable": False,
            "note": join_notes(
                f"m={m}, n={n} are too few for a {level:.0%} interval", common["note"]
            ),
        }
    vals = _hl.select(sa, sb, [*mid, lo_k, hi_k], rng)
    return {
        **common,
        "effect": "shift",
        "estimate": float(vals[:2].mean()),
        "ci_low": float(vals[2]),
        "ci_high": float(vals[3]),
        "method": method,
        "estimable": True,
    }


def _ratio_row(sa, sb, level, vif_a, vif_b, df, rng, n_resamples, common) -> dict:
    med_a, med_b = common["median_a"], common["median_b"]
    method = "ratio of medians, bootstrap percentile on order statistics"
    if med_b <= 0 or sa[0] <= 0 or sb[0] <= 0:
        why = join_notes("needs positive values", common["note"])
        return _not_estimable_row(common, "ratio", why, method)
    shrink = 1.0 if df is None else (_crit(level, None) / _crit(level, df)) ** 2
    ma = int(max(2, len(sa) / vif_a * shrink))
    mb = int(max(2, len(sb) / vif_b * shrink))
    ra = quantile_replicates(sa, [0.5], ma, n_resamples, rng)[:, 0]
    rb = quantile_replicates(sb, [0.5], mb, n_resamples, rng)[:, 0]
    lo, hi = percentile_interval(ra / rb, level)
    return {
        **common,
        "effect": "ratio",
        "estimate": med_a / med_b,
        "ci_low": lo,
        "ci_high": hi,
        "method": method,
        "estimable": True,
    }


def _log_ratio_row(sa, sb, level, rng, common) -> dict:
    method = "exp(Hodges-Lehmann of log values), exact Mann-Whitney ranks"
    if sa[0] <= 0 or sb[0] <= 0:
        why = join_notes("needs positive values", common["note"])
        return _not_estimable_row(common, "ratio", why, method)
    row = _shift_row(np.log(sa), np.log(sb), level, 1.0, 1.0, None, rng, common)
    for k in ("estimate", "ci_low", "ci_high"):
        row[k] = float(np.exp(row[k]))
    return {**row, "effect": "ratio", "method": method}


def _delta_row(pa, pb, level, vif_a, vif_b, df, common) -> dict:
    m, n = len(pa), len(pb)
    auc = float(pa.mean())
    var_auc = np.var(pa, ddof=1) * vif_a / m + np.var(pb, ddof=1) * vif_b / n
    if 0 < auc < 1 and var_auc > 0:
        n_w = auc * (1 - auc) / var_auc
    else:  # complete separation: the smaller effective sample is all we can lean on
        n_w = min(m / vif_a, n / vif_b)
    lo, hi = _wilson(auc, n_w, _crit(level, df))
    return {
        **common,
        "effect": "cliffs_delta",
        "estimate": 2 * auc - 1,
        "ci_low": 2 * lo - 1,
        "ci_high": 2 * hi - 1,
        "method": "Cliff's delta, Wilson interval on DeLong variance",
        "estimable": True,
    }


def compare(
    a,
    b,
    level: float = 0.95,
    *,
    dependence: str = "auto",
    rng: Rng = None,
    n_resamples: int = 4000,
    labels: tuple[str, str] = ("a", "b"),
) -> pd.DataFrame:
    """Shift, ratio and Cliff's δ of ``a`` relative to ``b`` (two series in measurement
    order), with intervals and the Mann–Whitney p-value; one row per effect."""
    level = check_level(level)
    rows = packet_compare(a, b, level, dependence=dependence, rng=rng, n_resamples=n_resamples)
    out = pd.DataFrame(rows).reindex(columns=COLUMNS)
    out["a"], out["b"] = labels
    return out


def compare_runs(
    a, b, level: float = 0.95, *, rng: Rng = None, labels: tuple[str, str] = ("a", "b")
) -> pd.DataFrame:
    """Run-level comparison: ``a`` and ``b`` hold one statistic per run (e.g. each run's
    median).  Runs are independent, so exact small-sample rank methods apply: the
    distribution-free alternative to the Welch test that ``compare_groups`` uses (exact, but
    3 runs against 3 cannot reach p < 0.1)."""
    level = check_level(level)
    rows = packet_compare(a, b, level, dependence="iid", rng=rng, log_ratio=True)
    out = pd.DataFrame(rows).reindex(columns=COLUMNS)
    out["unit_of_analysis"] = "run"
    out["n_runs_a"], out["n_runs_b"] = out["n_a"], out["n_b"]
    out["testable"] = out["p_value"].notna()
    out["a"], out["b"] = labels
    return out


# ---------------------------------------------------------------------------------------------
# Many groups


def _label(keys: tuple, by: list[str]) -> str:
    if len(by) == 1:
        return str(keys[0])
    return ", ".join(f"{k}={v}" for k, v in zip(by, keys))


def _run_stat(part: pd.DataFrame, column: str, stat: str) -> np.ndarray:
    """One value per run of a group: the run's ``stat`` (``mean`` or a percentile ``pNN``)."""
    out = []
    for _, run in part.groupby("run_id", sort=True):
        x = _observations(run, column).series
        if len(x):
            out.append(_series_stat(x, stat))
    return np.asarray(out, dtype=float)


def _series_stat(x: np.ndarray, stat: str) -> float:
    """``stat`` of one run's observations (censored ones ``-inf``): a mean has none then."""
    if stat == "mean":
        return x.mean() if np.isfinite(x).all() else np.nan
    q = float(stat.lstrip("p")) / 100
    return sorted_quantile(np.sort(x), [q])[0]


def run_values(part: pd.DataFrame, column: str, stat: str) -> np.ndarray:
    """The finite, positive per-run ``stat`` values of a group (what run-level tests use)."""
    return rl.clean(_run_stat(part, column, stat))[0]


def run_value_map(
    samples: pd.DataFrame, runs: pd.DataFrame | None, column: str, stat: str
) -> dict[str, float]:
    """Each execution's ``stat`` of ``column`` (windows of one execution are one), as
    :func:`run_values` gives it, computed in one pass over a whole campaign's samples: a
    page that compares many groups looks its runs up here instead of cutting the samples
    frame once per comparison (that was 20 of the 34 s of the synthetic campaign's claims)."""
    if column not in samples.columns or samples.empty:
        return {}
    out = {}
    for group in groups(samples, runs, [], column):  # one group: every run, by run id
        for obs in group.runs:
            if obs.n:
                out[str(obs.run_ids[0])] = float(_series_stat(obs.series, stat))
    return out


def _run_rows(pa, pb, column, *, level, stat, pooled, what, rng) -> pd.DataFrame:
    """Run-level rows of ``EFFECTS`` (see ``runlevel``): one value per run, never packets."""
    return value_rows(
        _run_stat(pa, column, stat),
        _run_stat(pb, column, stat),
        level=level,
        stat=stat,
        pooled=pooled,
        what=what,
        rng=rng,
    )


def value_rows(va, vb, *, level, stat, pooled, what, rng) -> pd.DataFrame:
    """:func:`_run_rows` of two sides' run values (``run_value_map`` looks them up)."""
    va, drop_a = rl.clean(va)
    vb, drop_b = rl.clean(vb)
    ka, kb, dropped = len(va), len(vb), drop_a + drop_b
    left = f"{counted(dropped, 'run')} without a positive {stat} left out" if dropped else ""
    note = join_notes(f"per-run {stat} of {ka} vs {kb} runs", left)
    base = {
        "level": level,
        "unit_of_analysis": "run",
        "n_a": ka,
        "n_b": kb,
        "n_runs_a": ka,
        "n_runs_b": kb,
        "n_eff_a": float(ka),
        "n_eff_b": float(kb),
        "median_a": float(np.median(va)) if ka else np.nan,
        "median_b": float(np.median(vb)) if kb else np.nan,
    }
    if not ka or not kb:
        why = join_notes(note, "a side has no run value")
        rows = _no_estimate_rows(base, testable=False, method="", note=why)
        return pd.DataFrame(rows).reindex(columns=COLUMNS)
    res = rl.run_test(va, vb, level, pooled, stat=stat, what=what)
    common = {
        **base,
        "p_value": res["p_value"],
        "test": res["test"],
        "df": res["df"],
        "testable": res["testable"],
        "assumption": res["assumption"],
        "note": join_notes(res["note"], note),
    }
    rows = []
    for effect in ("shift", "ratio"):
        est, lo, hi = res[effect]
        rows.append(
            {
                **common,
                "effect": effect,
                "estimate": est,
                "ci_low": lo,
                "ci_high": hi,
                "method": res["method"],
                "estimable": bool(np.isfinite([lo, hi]).all()),
            }
        )
    rows.append(_run_delta_row(va, vb, level, rng, base, common))
    return pd.DataFrame(rows).reindex(columns=COLUMNS)


def _run_delta_row(va, vb, level, rng, base: dict, common: dict) -> dict:
    """Cliff's delta of the run values, with its own interval (≥ 2 runs a side), beside the
    run-level test's p-value."""
    if len(va) < 2 or len(vb) < 2:
        return _not_estimable_row(
            common,
            "cliffs_delta",
            join_notes(common["note"], "Cliff's delta needs ≥ 2 runs per side"),
            method="Cliff's delta of run values",
        )
    delta = packet_compare(va, vb, level, dependence="iid", rng=rng, log_ratio=True)[2]
    return {
        **delta,
        **{k: common[k] for k in ("p_value", "test", "df", "testable", "assumption", "note")},
        **{k: base[k] for k in base},
        "effect": "cliffs_delta",
    }


UNITS = ("auto", "run", "packet")


def group_pair(
    pa: pd.DataFrame,
    pb: pd.DataFrame,
    column: str,
    *,
    level: float,
    unit: str,
    stat: str,
    dependence: str,
    rng,
    n_resamples: int,
    pooled: rl.Pooled | None = None,
    what: str = "a condition",
) -> pd.DataFrame:
    """Compare two groups of samples.  The run is the unit (``unit`` "auto" or "run"):
    Welch t on log run values with ≥ 2 runs a side, the ``pooled`` between-run variance when
    a side has 1 run, else no test.  ``unit="packet"`` pools packets on request: its p-value
    is shown but ``testable`` is False (it says nothing about the conditions)."""
    if unit not in UNITS:
        raise ValueError(f"unit must be one of {UNITS}, got {unit!r}")
    ka, kb = pa["run_id"].nunique(), pb["run_id"].nunique()
    if unit != "packet":
        return _run_rows(pa, pb, column, level=level, stat=stat, pooled=pooled, what=what, rng=rng)
    oa, ob = _observations(pa, column), _observations(pb, column)
    out = compare(
        oa.series, ob.series, level, dependence=dependence, rng=rng, n_resamples=n_resamples
    )
    caveat = (
        f"packets of {ka} vs {kb} runs pooled: run-to-run variation is not in the "
        "interval, and the p-value is no test of the conditions"
    )
    out["note"] = [join_notes(x, caveat) for x in out["note"].fillna("")]
    out["n_runs_a"], out["n_runs_b"], out["testable"] = ka, kb, False
    return out


def finish(result: pd.DataFrame, key: str, adjust: str, level: float) -> pd.DataFrame:
    """Adjust the p-values of the comparisons (one per ``key``), mark ``significant`` (a
    run-level test only) and write each row's plain-words ``caption``."""
    per = result.groupby(key)["p_value"].first()
    adj = dict(zip(per.index, adjust_pvalues(per.to_numpy(dtype=float), adjust)))
    result["p_adj"] = result[key].map(adj).astype(float)
    result["adjust"] = adjust
    result["testable"] = result["testable"].astype("boolean").fillna(False).astype(bool)
    result["significant"] = (
        result["testable"] & result["unit_of_analysis"].eq("run") & (result["p_adj"] < 1 - level)
    )
    result["caption"] = [rl.caption(r, adjust=adjust) for r in result.to_dict("records")]
    return result


def compare_groups(
    frame: pd.DataFrame,
    by: str | Sequence[str],
    *,
    runs: pd.DataFrame | None = None,
    pairs: Sequence[tuple] | None = None,
    metric: str = "rtt",
    adjust: str = "holm",
    level: float = 0.95,
    unit: str = "auto",
    stat: str = "p50",
    dependence: str = "auto",
    rng: Rng = None,
    n_resamples: int = 4000,
    between_runs="pooled",
) -> pd.DataFrame:
    """Compare every pair of groups of ``by`` (or the given ``pairs`` of group labels, each
    ``(a, b)`` meaning a relative to b), with p-values adjusted across all comparisons.

    The run is the unit: each run's ``stat`` is one value (``runlevel``).  With ≥ 2 runs a
    side, Welch t on the log values; with 1 run on a side, ``between_runs="pooled"`` borrows
    the between-run variance of the groups that have ≥ 2 runs (named in ``assumption``),
    ``"none"`` reports no p-value; a float is a known sd of log run values, a
    ``runlevel.Pooled`` a variance estimated elsewhere.  ``unit="packet"`` pools packets
    (never ``significant``).  Group labels are the ``by`` value, or ``"col=value, ..."``."""
    level, adjust = check_level(level), check_adjust(adjust)
    rng = as_rng(rng)
    by = [by] if isinstance(by, str) else list(by)
    column, _ = metric_column(metric)
    check_basis(frame, metric)
    groups = _labelled_groups(_ordered(by_execution(attach(frame, runs, by), runs)), by)
    if pairs is None:
        pairs = list(itertools.combinations(groups, 2))
    pairs = [(str(la), str(lb)) for la, lb in pairs]
    # every pair checked before the first draws its random numbers (a bad last pair
    # raised after the others had drawn theirs)
    missing = sorted({x for pair in pairs for x in pair} - set(groups))
    if missing:
        raise ValueError(f"no group {missing}; groups are {sorted(groups)}")
    pooled = rl.resolve(
        between_runs,
        (run_values(g, column, stat) for g in groups.values())
        if isinstance(between_runs, str) and between_runs == "pooled"
        else (),
    )
    what = f"a {', '.join(by)}"
    parts = []
    for i, (la, lb) in enumerate(pairs):
        out = group_pair(
            groups[la],
            groups[lb],
            column,
            level=level,
            unit=unit,
            stat=stat,
            dependence=dependence,
            rng=rng,
            n_resamples=n_resamples,
            pooled=pooled,
            what=what,
        )
        out["a"], out["b"], out["comparison"] = la, lb, i
        parts.append(out)
    return _adjusted(parts, metric=metric, adjust=adjust, level=level)


def _labelled_groups(data: pd.DataFrame, by: list[str]) -> dict[str, pd.DataFrame]:
    """The rows of each group of ``by``, keyed by its label (``_label``)."""
    return {
        _label(k if isinstance(k, tuple) else (k,), by): g
        for k, g in data.groupby(by, sort=True, dropna=False)
    }


def _adjusted(parts: list[pd.DataFrame], *, metric: str, adjust: str, level: float) -> pd.DataFrame:
    """The comparisons of ``compare_groups`` in one frame, p-values adjusted across them."""
    tail = ["p_adj", "adjust", "significant", "caption", "metric"]
    if not parts:
        return pd.DataFrame(columns=["comparison", *COLUMNS, *tail])
    result = finish(pd.concat(parts, ignore_index=True), "comparison", adjust, level)
    result["metric"] = metric
    return result[["comparison", *COLUMNS, *tail]]
