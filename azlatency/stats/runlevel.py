"""The run as the unit of a comparison: one value per run, and a test the runs can support.

Real campaigns vary from run to run (a VM redeployed, another host, another hour).  Packets
of one run cannot tell a condition's effect from that variation, however many there are, so
a comparison of two conditions (two directions of a zone pair, two placements, ...) is made
on one statistic per run (its median by default), on the log scale, where a run's scale
factor is additive:

* **≥ 2 runs on both sides — Welch t on log run values.**  The ratio is the ratio of the
  geometric means of the run values, its interval exp(d ± t·se) with Welch–Satterthwaite
  degrees of freedom; the shift is the difference of mean run values with the Welch interval
  on the raw scale.  The run values carry every source of variation (between runs and the
  packet noise of each run's median, autocorrelated or not), so the test holds its level
  without modelling either.
* **1 run on a side, replicated conditions elsewhere — pooled between-run variance.**  The
  variance of log run values is pooled over every condition of the same kind with ≥ 2 runs
  (s² = Σ(k_i − 1)s_i² / Σ(k_i − 1), with that many degrees of freedom), and the pooled t
  test uses it.  That assumes these runs vary as much as the replicated ones; the row says
  so in ``assumption``, and the interval is as wide as that variance makes it.
* **1 run on a side and nothing to pool — not testable.**  The estimate is the ratio of the
  run values, with no interval and no p-value: "1 run per side: a direction effect cannot be
  separated from run-to-run variation".

Packet-level evidence within runs never makes a difference "significant" here.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy import stats

from .._console import counted

WELCH = "Welch t on log run {stat}s"
POOLED = "pooled t on log run {stat}s, between-run variance borrowed from replicated conditions"
GIVEN = "normal on log run {stat}s, between-run sd given (sigma = {sd:.3g})"


@dataclass(frozen=True)
class Pooled:
    """Between-run variance of log run values, pooled over replicated conditions."""

    var: float  # variance of the log of a run's statistic
    df: float  # Σ(k_i − 1); inf when the variance is given, not estimated
    n_cells: int  # conditions that contributed (each with ≥ 2 runs)
    n_runs: int

    def assumption(self) -> str:
        if np.isinf(self.df):
            return (
                f"runs assumed to vary with sd {np.sqrt(self.var):.3g} on the log scale "
                "(given, not estimated from these data)"
            )
        return (
            f"runs assumed to vary as much as in the {counted(self.n_cells, 'replicated condition')}"
            f" of this campaign ({counted(self.n_runs, 'run')}, between-run sd "
            f"{np.sqrt(self.var):.3g} on the log scale, {self.df:.0f} df)"
        )


def pool(cells) -> Pooled | None:
    """Pooled variance of log values over ``cells`` (arrays of positive run values, one per
    condition); conditions with fewer than 2 runs add nothing.  None when no condition has
    2 runs."""
    ss, df, n_runs, n_cells = 0.0, 0, 0, 0
    for v in cells:
        v = np.asarray(v, dtype=float)
        v = v[np.isfinite(v) & (v > 0)]
        if len(v) < 2:
            continue
        lv = np.log(v)
        ss += float(((lv - lv.mean()) ** 2).sum())
        df += len(v) - 1
        n_runs += len(v)
        n_cells += 1
    if df == 0:
        return None
    return Pooled(ss / df, float(df), n_cells, n_runs)


def resolve(between_runs, cells) -> Pooled | None:
    """What ``between_runs`` means: ``"pooled"`` (estimate from ``cells``), ``"none"`` (never
    borrow), a float (a known sd of log run values) or a ``Pooled``."""
    if isinstance(between_runs, Pooled):
        return between_runs
    if isinstance(between_runs, str):
        if between_runs == "none":
            return None
        if between_runs == "pooled":
            return pool(cells)
    elif isinstance(between_runs, (int, float)) and np.isfinite(between_runs) and between_runs >= 0:
        return Pooled(float(between_runs) ** 2, np.inf, 0, 0)
    raise ValueError(
        "between_runs must be 'pooled', 'none', a non-negative sd of log run "
        f"values, or a Pooled; got {between_runs!r}"
    )


def clean(values) -> tuple[np.ndarray, int]:
    """Finite positive run values (the log scale needs them) and how many were left out."""
    v = np.asarray(values, dtype=float)
    ok = np.isfinite(v) & (v > 0)
    return v[ok], int((~ok).sum())


def _t(d: float, se: float, df: float, level: float) -> tuple[float, float, float]:
    """(low, high, p) of a t statistic d/se with df degrees of freedom (normal when inf)."""
    if np.isinf(df):
        crit, p = stats.norm.ppf((1 + level) / 2), 2 * stats.norm.sf(abs(d) / se)
    else:
        crit, p = stats.t.ppf((1 + level) / 2, df), 2 * stats.t.sf(abs(d) / se, df)
    crit, p = float(crit), float(p)
    return d - crit * se, d + crit * se, p


def welch_df(va: float, ka: int, vb: float, kb: int) -> float:
    """Welch–Satterthwaite degrees of freedom of var_a/k_a + var_b/k_b."""
    a, b = va / ka, vb / kb
    den = a * a / (ka - 1) + b * b / (kb - 1)
    return (a + b) ** 2 / den if den > 0 else float(ka + kb - 2)


def untestable(va: np.ndarray, vb: np.ndarray, what: str) -> dict:
    """Estimates without an interval or a p-value, and the sentence that says why."""
    ka, kb = len(va), len(vb)
    note = (
        f"1 run per side: {what} effect cannot be separated from run-to-run variation"
        if ka == 1 and kb == 1
        else f"{ka} vs {kb} runs: a side with 1 run cannot show how much runs vary, so {what} "
        "effect cannot be separated from run-to-run variation"
    )
    return {
        "shift": (float(va.mean() - vb.mean()), np.nan, np.nan),
        "ratio": (float(np.exp(np.log(va).mean() - np.log(vb).mean())), np.nan, np.nan),
        "p_value": np.nan,
        "df": np.nan,
        "test": "",
        "method": "no test (1 run on a side)",
        "assumption": "",
        "testable": False,
        "note": note,
        "log_diff": float(np.log(va).mean() - np.log(vb).mean()),
        "log_se": np.nan,
    }


def run_test(
    va: np.ndarray, vb: np.ndarray, level: float, pooled: Pooled | None, *, stat: str, what: str
) -> dict:
    """The run-level comparison of positive run values ``va`` against ``vb`` (see the module
    doc): ``shift`` and ``ratio`` as (estimate, low, high), ``p_value``, ``df``, ``test``,
    ``method``, ``assumption``, ``testable`` and ``note``; ``log_diff`` and ``log_se``, the
    difference of mean log values and its standard error (an equivalence test reads them;
    NaN when not testable)."""
    ka, kb = len(va), len(vb)
    la, lb = np.log(va), np.log(vb)
    d = float(la.mean() - lb.mean())
    word = "median" if stat == "p50" else stat
    if ka >= 2 and kb >= 2:
        sa, sb = float(np.var(la, ddof=1)), float(np.var(lb, ddof=1))
        se = np.sqrt(sa / ka + sb / kb)
        df = welch_df(sa, ka, sb, kb)
        ra, rb = float(np.var(va, ddof=1)), float(np.var(vb, ddof=1))
        se_raw, df_raw = np.sqrt(ra / ka + rb / kb), welch_df(ra, ka, rb, kb)
        method, assumption = WELCH.format(stat=word), ""
    elif pooled is not None:
        se = np.sqrt(pooled.var * (1 / ka + 1 / kb))
        df = df_raw = pooled.df
        # Raw scale by the delta method: a run's sd is its level times the log-scale sd.
        ga, gb = np.exp(la.mean()), np.exp(lb.mean())
        se_raw = np.sqrt(pooled.var * (ga * ga / ka + gb * gb / kb))
        method = (POOLED if np.isfinite(pooled.df) else GIVEN).format(
            stat=word, sd=np.sqrt(pooled.var)
        )
        assumption = pooled.assumption()
    else:
        return untestable(va, vb, what)
    shift = float(va.mean() - vb.mean())
    if not se > 0:
        out = untestable(va, vb, what)
        out["method"] = "no test (no run-to-run variation)"  # not 1 run a side: runs alike
        out["note"] = (
            f"every run has the same {word}: no run-to-run variation to test "
            "against (coarse values such as integer milliseconds?)"
        )
        return out
    lo, hi, p = _t(d, se, df, level)
    slo, shi, _ = _t(shift, se_raw, df_raw, level) if se_raw > 0 else (np.nan, np.nan, 0)
    test = f"{method} ({ka} vs {kb} runs, {df:.3g} df), two-sided"
    return {
        "shift": (shift, slo, shi),
        "ratio": (float(np.exp(d)), float(np.exp(lo)), float(np.exp(hi))),
        "p_value": p,
        "df": float(df),
        "test": test,
        "method": method,
        "assumption": assumption,
        "testable": True,
        "note": "",
        "log_diff": d,
        "log_se": float(se),
    }


UNIT_WORDS = {"run": "runs", "packet": "packets", "batch": "packets (autocorrelation-corrected)"}


def caption(r: dict, *, adjust: str | None = None) -> str:
    """One row in plain words: what was compared, on what unit, how many runs, by what method,
    and what it allows one to say."""
    k = f"{fmt_count(r.get('n_runs_a'))} vs {fmt_count(r.get('n_runs_b'))} runs"
    effect = {"ratio": "ratio", "shift": "shift", "cliffs_delta": "Cliff's delta"}.get(
        str(r.get("effect")), str(r.get("effect"))
    )
    est = r.get("estimate")
    head = f"{r.get('a')} vs {r.get('b')}: {effect} {fmt3(est)}"
    if _finite(r.get("ci_low")) and _finite(r.get("ci_high")):
        head += f" ({r.get('level', 0.95):.0%} CI {fmt3(r['ci_low'])} to {fmt3(r['ci_high'])})"
    unit = UNIT_WORDS.get(str(r.get("unit_of_analysis")), str(r.get("unit_of_analysis")))
    parts = [head, f"unit: {unit}, {k}"]
    if r.get("method"):
        parts.append(f"method: {r['method']}")
    if _finite(r.get("p_value")):
        p = f"p = {fmt3(r['p_value'])}"
        if adjust and adjust != "none" and _finite(r.get("p_adj")):
            p += f" ({adjust}-adjusted {fmt3(r['p_adj'])})"
        parts.append(p)
    else:
        parts.append("no p-value")
    if r.get("assumption"):
        parts.append(f"assumption: {r['assumption']}")
    if r.get("unit_of_analysis") != "run":
        parts.append("run-to-run variation is not in this interval; not a test of the conditions")
    elif r.get("testable") is False and r.get("note"):
        parts.append(str(r["note"]).split("; ")[0])
    return "; ".join(parts)


def _finite(x) -> bool:
    try:
        return bool(np.isfinite(float(x)))
    except (TypeError, ValueError):
        return False


def fmt3(x) -> str:
    """A number as captions print it: 3 significant digits, "n/a" when missing."""
    return f"{float(x):.3g}" if _finite(x) else "n/a"


def fmt_count(x) -> str:
    """A count as captions print it, "?" when missing."""
    return str(int(x)) if _finite(x) else "?"
