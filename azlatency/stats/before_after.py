"""Before and after: two campaigns compared like benchstat, with the run as the unit.

The question after every change (a new VM size, a kernel, accelerated networking turned on,
last month against this month) is "what changed, and is it real?".  Packets of one run cannot
answer it: runs differ from run to run (another host, another hour), so each run gives one
value per statistic (:func:`run_statistics`: its p50, p99, p99.9, mean; a printed value; its
throughput; its loss) and :func:`before_after` compares the runs of each condition:

* **Ratio statistics** (latency, throughput): Welch t on the log run values, as
  :mod:`.runlevel` does for every run-level comparison.  The ratio after / before is the ratio
  of the geometric means of the run values, with the interval exp(d ± t·se).  A side with one
  run borrows the between-run variance pooled over the other conditions of the same tool and
  statistic (``between_runs="pooled"``; the row names the assumption); with nothing to borrow
  the row says "need ≥ 2 runs per side" and gives no p-value.  Never a p-value from packets.
* **Difference statistics** (loss, in percentage points): Welch t on the raw run values.
* **Holm** adjusts the p-values over the whole table (every row is one test of one family);
  ``significant`` is a run-level test with p_adj < 1 − level.  "~" is the verdict of a row
  with no significant change.
* **Equivalence** ("the same within ±m"): two one-sided tests (Schuirmann 1987, J.
  Pharmacokinet. Biopharm. 15(6)) of the ratio against 1 − m and 1 + m (of the difference
  against ±``abs_margin``), Holm-adjusted over the table too; a row is ``same`` when the
  adjusted TOST p-value is below 1 − level, so "no change" can be shown, not only "no
  evidence of a change".
* **The gate** (Firecracker's A/B rule): a row fails only when its change is significant and
  its estimate lies beyond the margin in the bad direction (latency up, throughput down, loss
  up).  Fixed-ratio thresholds alone cry wolf on run-to-run noise; significance alone fails
  on changes too small to matter.

:func:`geomean_rows` adds benchstat's summary row: per statistic, the geometric means of the
before values, the after values and the ratios (no interval: a summary, not a test).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd
from scipy import stats as sps

from .._console import counted
from . import runlevel as rl
from .common import by_execution, check_level, metric_column
from .common import observations as _observations
from .common import ordered as _ordered
from .compare import adjust_pvalues, check_adjust
from .intervals import sorted_quantile

SIDES = ("before", "after")
SCALES = ("ratio", "difference")
LATENCY_STATS = ("p50", "p99", "p99.9", "mean")
POINTS = {"pct": "pt"}  # a difference of percentages is in percentage points
VERDICTS = ("worse", "better", "same", "~", "not tested")
# The conditions whose between-run variance a one-run side may borrow: same tool, metric and
# statistic (a p99 varies from run to run more than a median does).
POOL_BY = ("tool", "metric", "stat")
COLUMNS = [
    "unit",
    "better",
    "scale",
    "n_runs_before",
    "n_runs_after",
    "before",
    "after",
    "estimate",
    "ci_low",
    "ci_high",
    "change_pct",
    "level",
    "margin",
    "df",
    "p_value",
    "p_adj",
    "tost_p",
    "tost_p_adj",
    "testable",
    "significant",
    "equivalent",
    "beyond_margin",
    "verdict",
    "gate",
    "method",
    "test",
    "assumption",
    "note",
    "caption",
]


# ---------------------------------------------------------------------------------------------
# One value per run


def _quantile_of(stat: str) -> float | None:
    if stat == "mean":
        return None
    try:
        return float(stat.removeprefix("p")) / 100
    except ValueError:
        raise ValueError(f"stat must be 'mean' or a percentile like 'p99', got {stat!r}") from None


def run_statistics(
    samples: pd.DataFrame,
    runs: pd.DataFrame | None = None,
    *,
    metric: str = "rtt",
    stats: Sequence[str] = LATENCY_STATS,
) -> pd.DataFrame:
    """One value per run (an execution's windows count as one run) and statistic of
    ``samples``' ``metric``: ``run_id``, ``stat``, ``value``, ``n`` (observations).

    A percentile is given when at least one observation lies beyond it (p99.9 needs 1,000);
    otherwise ``value`` is NaN and ``note`` says how many the run has: the run's maximum is
    no p99.9.  A run with censored values has no mean (its values are only bounds)."""
    column, _ = metric_column(metric)
    qs = {s: _quantile_of(s) for s in stats}
    data = _ordered(by_execution(samples, runs))
    rows = []
    for run_id, part in data.groupby("run_id", sort=True):
        obs = _observations(part, column)
        xs = np.sort(obs.series)
        n = len(xs)
        for stat, q in qs.items():
            value, note = np.nan, ""
            if n == 0:
                note = "no observation"
            elif q is None:
                if obs.n_censored:
                    note = "censored values: the mean is only bounded"
                else:
                    value = float(obs.values.mean())
            elif n * (1 - q) < 1:
                note = f"{n} observations: {stat} needs ≥ {int(np.ceil(1 / (1 - q) - 1e-9))}"
            else:
                value = float(sorted_quantile(xs, [q])[0])
            rows.append({"run_id": run_id, "stat": stat, "value": value, "n": n, "note": note})
    return pd.DataFrame(rows, columns=["run_id", "stat", "value", "n", "note"])


# ---------------------------------------------------------------------------------------------
# The comparison


def _welch_raw(va: np.ndarray, vb: np.ndarray, level: float) -> dict:
    """Welch t on raw run values (a difference statistic such as loss in points)."""
    ka, kb = len(va), len(vb)
    d = float(va.mean() - vb.mean())
    sa, sb = float(np.var(va, ddof=1)), float(np.var(vb, ddof=1))
    se = float(np.sqrt(sa / ka + sb / kb))
    if not se > 0:
        return {"testable": False, "estimate": d, "note": "every run has the same value"}
    df = rl.welch_df(sa, ka, sb, kb)
    crit = float(sps.t.ppf((1 + level) / 2, df))
    return {
        "testable": True,
        "estimate": d,
        "ci": (d - crit * se, d + crit * se),
        "p_value": float(2 * sps.t.sf(abs(d) / se, df)),
        "df": df,
        "d": d,
        "se": se,
        "method": "Welch t on run values",
        "test": f"Welch t on run values ({ka} vs {kb} runs, {df:.3g} df), two-sided",
        "assumption": "",
        "note": "",
    }


def _tost(d: float, se: float, df: float, low: float, high: float) -> float:
    """Two one-sided tests that ``d`` lies in (low, high): the larger of the two p-values."""
    if not (np.isfinite(se) and se > 0):
        return np.nan
    z = np.array([(d - low) / se, (high - d) / se])
    # sf(x, df) rather than t(df).sf: freezing a distribution costs more than the arithmetic
    p = sps.norm.sf(z) if np.isinf(df) else sps.t.sf(z, df)
    return float(p.max())


def _ratio_row(va, vb, level, pooled, stat, margin) -> dict:
    res = rl.run_test(va, vb, level, pooled, stat=stat, what="a before/after")
    est, lo, hi = res["ratio"]
    out = {
        "testable": res["testable"],
        "estimate": est,
        "ci": (lo, hi),
        "p_value": res["p_value"],
        "df": res["df"],
        "method": res["method"],
        "test": res["test"],
        "assumption": res["assumption"],
        "note": res["note"],
    }
    if res["testable"]:
        low, high = np.log1p(-margin), np.log1p(margin)
        out["tost_p"] = _tost(res["log_diff"], res["log_se"], res["df"], low, high)
    return out


def _need(ka: int, kb: int, scale: str, pooled) -> str:
    if scale == "ratio" and pooled is not None and ka and kb:
        return ""
    return f"need ≥ 2 runs per side ({kb} before, {ka} after)"


def _sides(after: np.ndarray, value: np.ndarray, scale: str):
    """The after and before run values of one row (usable ones) and how many were left out;
    ``after`` marks the after side's values."""
    out, dropped = [], 0
    for v in (value[after], value[~after]):
        keep = np.isfinite(v) & (v > 0) if scale == "ratio" else np.isfinite(v)
        dropped += int((~keep).sum())
        out.append(v[keep])
    return out[0], out[1], dropped


def _pools(values: pd.DataFrame, keys: list[str], pool_by: list[str], between_runs) -> dict:
    """Pooled between-run variance per ``pool_by`` group (ratio rows only): every side of
    every row with ≥ 2 runs is one condition."""
    if not (isinstance(between_runs, str) and between_runs == "pooled"):
        return {}
    ratio = values[values["scale"] == "ratio"]
    out = {}
    groups = ratio.groupby(pool_by, dropna=False, sort=False) if pool_by else [((), ratio)]
    for key, g in groups:
        cells = [c["value"].to_numpy(dtype=float) for _, c in g.groupby([*keys, "side"])]
        out[key if isinstance(key, tuple) else (key,)] = rl.pool(cells)
    return out


def _test_row(after, value, scale, level, pooled, stat, margin, abs_margin) -> dict:
    va, vb, dropped = _sides(after, value, scale)
    ka, kb = len(va), len(vb)
    base = {
        "n_runs_after": ka,
        "n_runs_before": kb,
        "after": _centre(va, scale),
        "before": _centre(vb, scale),
        "margin": margin if scale == "ratio" else abs_margin,
        "note": f"{counted(dropped, 'run value')} left out (missing, or not positive)"
        if dropped
        else "",
    }
    enough = ka >= 2 and kb >= 2
    if not enough and _need(ka, kb, scale, pooled):
        est = base["after"] / base["before"] if scale == "ratio" else base["after"] - base["before"]
        return {**base, "testable": False, "estimate": est, "note": _join(
            _need(ka, kb, scale, pooled), base["note"])}  # fmt: skip
    if scale == "ratio":
        res = _ratio_row(va, vb, level, pooled if not enough else None, stat, margin)
        if not res["testable"] and not enough:  # a pooled variance of 0
            res["note"] = _join(_need(ka, kb, scale, None), res["note"])
    else:
        res = _welch_raw(va, vb, level)
        if res["testable"]:
            res["tost_p"] = _tost(res["d"], res["se"], res["df"], -abs_margin, abs_margin)
    if not res["testable"] and enough and _identical(va, vb):
        res["identical"] = True
        res["note"] = f"every run has the same value on both sides ({va[0]:.4g})"
    return {**base, **res, "note": _join(res.get("note", ""), base["note"])}


def _identical(va: np.ndarray, vb: np.ndarray) -> bool:
    """Every run of both sides has the same value (loss 0 everywhere): nothing to test, and
    nothing changed in what was measured."""
    return bool(np.all(va == va[0]) and np.all(vb == va[0]))


def _centre(v: np.ndarray, scale: str) -> float:
    if not len(v):
        return np.nan
    return float(np.exp(np.log(v).mean())) if scale == "ratio" else float(v.mean())


def _join(*notes: str) -> str:
    return "; ".join(n for n in notes if n)


def before_after(
    values: pd.DataFrame,
    keys: Sequence[str],
    *,
    level: float = 0.95,
    margin: float = 0.10,
    abs_margin: float = 0.1,
    adjust: str = "holm",
    between_runs="pooled",
    pool_by: Sequence[str] = POOL_BY,
) -> pd.DataFrame:
    """One row per ``keys`` group of ``values`` (one value per run: ``side`` "before" or
    "after", ``value``; optional ``unit``, ``better`` "lower"/"higher" (default lower),
    ``scale`` "ratio"/"difference" (default ratio)): both sides' centres, the change after
    relative to before with its interval, p-values (Holm over the table), the equivalence
    test within ±``margin`` (a fraction, for ratios) or ±``abs_margin`` (in the unit, for
    differences), a ``verdict`` (worse, better, same, ~, not tested) and the ``gate``
    (fail, pass, not tested).  See the module doc."""
    level, adjust = check_level(level), check_adjust(adjust)
    if not 0 <= margin < 1:
        raise ValueError(f"margin must be a fraction in [0, 1) (0.1 for 10 %), got {margin!r}")
    keys = list(keys)
    values = _normalise(values, keys)
    pool_by = [c for c in pool_by if c in keys]
    groups = values.groupby(keys, dropna=False, sort=True).indices
    after = values["side"].eq("after").to_numpy()
    # the pooled variance serves only a side with one run: computed when one exists
    single = any(min(after[i].sum(), (~after[i]).sum()) == 1 for i in groups.values())
    pools = _pools(values, keys, pool_by, between_runs) if single else {}
    given = rl.resolve(between_runs, ()) if not isinstance(between_runs, str) else None
    rows = []
    value = values["value"].to_numpy(dtype=float)
    meta = values[["scale", "better", "unit"]].assign(
        stat=values["stat"].astype(str) if "stat" in values else "value"
    )
    for key, idx in groups.items():
        key = key if isinstance(key, tuple) else (key,)
        scale, better, unit, stat = meta.iloc[idx[0]]
        pkey = tuple(k for k, c in zip(key, keys) if c in pool_by)
        pooled = given if given is not None else pools.get(pkey)
        res = _test_row(after[idx], value[idx], scale, level, pooled, stat, margin, abs_margin)
        lo, hi = res.pop("ci", (np.nan, np.nan))
        rows.append(
            {
                **dict(zip(keys, key)),
                **{k: v for k, v in res.items() if k not in ("d", "se")},
                "unit": unit,
                "better": better,
                "scale": scale,
                "ci_low": lo,
                "ci_high": hi,
                "level": level,
            }
        )
    out = pd.DataFrame(rows)
    same = out.pop("identical").fillna(False).astype(bool) if "identical" in out else False
    out = out.reindex(columns=[*keys, *COLUMNS])
    return _finish(out, level, adjust, same)


def _normalise(values: pd.DataFrame, keys: list[str]) -> pd.DataFrame:
    missing = [c for c in ("side", "value", *keys) if c not in values.columns]
    if missing:
        raise ValueError(f"values need the columns {missing}")
    bad = set(values["side"].astype(str)) - set(SIDES)
    if bad:
        raise ValueError(f"side must be 'before' or 'after', got {sorted(bad)}")
    out = values.copy()
    for col, default, allowed in (
        ("scale", "ratio", SCALES),
        ("better", "lower", ("lower", "higher")),
    ):
        out[col] = out[col].fillna(default) if col in out else default
        wrong = set(out[col]) - set(allowed)
        if wrong:
            raise ValueError(f"{col} must be one of {allowed}, got {sorted(wrong)}")
    if "unit" not in out:
        out["unit"] = ""
    return out


def _finish(out: pd.DataFrame, level: float, adjust: str, identical=False) -> pd.DataFrame:
    """Holm over the table, verdicts, the gate and captions; ``identical`` rows (every run
    of both sides the same value) are "~" and pass the gate without a test."""
    out["testable"] = out["testable"].astype("boolean").fillna(False).astype(bool)
    p = out["p_value"].where(out["testable"]).to_numpy(dtype=float)
    tost = out["tost_p"].where(out["testable"]).to_numpy(dtype=float)
    out["p_adj"] = adjust_pvalues(p, adjust)
    out["tost_p_adj"] = adjust_pvalues(tost, adjust)
    alpha = 1 - level
    ratio = out["scale"].eq("ratio")
    out["change_pct"] = np.where(ratio, 100 * (out["estimate"] - 1), np.nan)
    out["significant"] = out["testable"] & (out["p_adj"] < alpha)
    out["equivalent"] = out["testable"] & (out["tost_p_adj"] < alpha)
    up = np.where(ratio, out["estimate"] - 1, out["estimate"])
    bad = np.where(out["better"].eq("lower"), up, -up)
    out["beyond_margin"] = bad > out["margin"]
    worse = out["significant"] & (bad > 0)
    untested = ~out["testable"] & ~pd.Series(identical, index=out.index)
    out["verdict"] = np.select(
        [untested, worse, out["significant"], out["equivalent"]],
        ["not tested", "worse", "better", "same"],
        "~",
    )
    out["gate"] = np.select(
        [untested, worse & out["beyond_margin"]], ["not tested", "fail"], "pass"
    )
    out["caption"] = [caption(r) for r in out.to_dict("records")]
    return out.reset_index(drop=True)


# ---------------------------------------------------------------------------------------------
# Words


def change_text(r: dict, digits: int = 3) -> str:
    """``'+25.1 % (95% CI +19.0 to +31.5 %)'`` for a ratio, ``'+0.4 pct (95% CI ...)'`` for a
    difference (``digits`` significant digits)."""
    if r["scale"] == "ratio":
        if not np.isfinite(r["estimate"]):
            return "n/a"
        text = f"{100 * (r['estimate'] - 1):+.1f} %"
        if np.isfinite(r["ci_low"]) and np.isfinite(r["ci_high"]):
            text += (
                f" ({r['level']:.0%} CI {100 * (r['ci_low'] - 1):+.1f} to "
                f"{100 * (r['ci_high'] - 1):+.1f} %)"
            )
        return text
    if not np.isfinite(r["estimate"]):
        return "n/a"
    unit = POINTS.get(r["unit"], r["unit"] or "")
    text = f"{r['estimate']:+.{digits}g} {unit}".rstrip()
    if np.isfinite(r["ci_low"]) and np.isfinite(r["ci_high"]):
        text += f" ({r['level']:.0%} CI {r['ci_low']:+.{digits}g} to {r['ci_high']:+.{digits}g})"
    return text


def margin_text(r: dict) -> str:
    """``'±10 %'`` (a ratio's margin), ``'±0.1 pt'`` (a difference's, in its unit)."""
    if r["scale"] == "ratio":
        return f"±{100 * r['margin']:.3g} %"
    return f"±{r['margin']:.3g} {POINTS.get(r['unit'], r['unit'] or '')}".rstrip()


def caption(r: dict) -> str:
    """A row in plain words: the change with its interval, runs per side, the test, the
    adjusted p-value, the equivalence test and what the row allows one to say."""
    runs = f"{rl.fmt_count(r['n_runs_before'])} vs {rl.fmt_count(r['n_runs_after'])} runs"
    if not r["testable"]:
        what = "no test" if r["verdict"] == "~" else "not tested"
        return f"{change_text(r)}; {runs}; {what}: {r['note'] or 'no run-level test'}"
    words = {
        "worse": "a significant change for the worse",
        "better": "a significant change for the better",
        "same": f"the same within {margin_text(r)} (equivalence shown)",
        "~": "no significant change, and not shown to be within " + margin_text(r),
    }[r["verdict"]]
    if r["verdict"] == "worse":
        words += (
            f", beyond {margin_text(r)}: fails the gate"
            if r["beyond_margin"]
            else f", within {margin_text(r)}: passes the gate"
        )
    parts = [
        change_text(r),
        f"unit: runs, {runs}",
        f"method: {r['method']}",
        f"p = {rl.fmt3(r['p_value'])} (holm-adjusted {rl.fmt3(r['p_adj'])})",
        f"equivalence (TOST, {margin_text(r)}): adjusted p = {rl.fmt3(r['tost_p_adj'])}",
    ]
    if r.get("assumption"):
        parts.append(f"assumption: {r['assumption']}")
    return "; ".join(parts) + f": {words}"


def geomean_rows(table: pd.DataFrame, by: Sequence[str] = ("stat",)) -> pd.DataFrame:
    """benchstat's summary row per ``by`` group of ratio rows measured on both sides: the
    geometric means of ``before``, ``after`` and ``estimate`` (no interval, no test)."""
    by = [c for c in by if c in table.columns]
    rows = []
    t = table[table["scale"].eq("ratio") & (table["before"] > 0) & (table["after"] > 0)]
    for key, g in t.groupby(by, sort=False) if by else [((), t)]:
        key = key if isinstance(key, tuple) else (key,)
        ratio = float(np.exp(np.log(g["estimate"].astype(float)).mean()))
        rows.append(
            {
                **dict(zip(by, key)),
                "rows": len(g),
                "unit": g["unit"].iloc[0] if g["unit"].nunique() == 1 else "",
                "before": float(np.exp(np.log(g["before"].astype(float)).mean())),
                "after": float(np.exp(np.log(g["after"].astype(float)).mean())),
                "estimate": ratio,
                "change_pct": 100 * (ratio - 1),
            }
        )
    return pd.DataFrame(
        rows, columns=[*by, "rows", "unit", "before", "after", "estimate", "change_pct"]
    )
