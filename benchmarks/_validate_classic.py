"""The first simulation studies of azlatency.stats (``validate_stats.py --classic``): does each
interval cover the truth as often as it claims for a single run, and does the asymmetry test
keep its false-positive rate?  Their table is in docs/statistics.md ("Validation: coverage and
error rates"); the run-to-run designs of issue 11 are in ``_validate_designs.py``.

Studies (nominal level 95% everywhere):

* quantile intervals (p50, p99, p99.9) for iid lognormal latencies at n = 10⁴, with the exact
  coverage of the order-statistic interval computed from the binomial for comparison (an
  exact interval can only over-cover; at p99.9 and n = 10⁴ its discreteness alone gives 97.5%);
* the same for autocorrelated series: log latency an AR(1) with lag-1 correlation 0.5 and
  0.8, n = 10⁴ and 4·10⁴ (dependence detected and corrected automatically), and, as the
  control, the iid method on the same series;
* the mean (Student t / batch-means t), an exceedance probability (Clopper–Pearson), p99/p50
  (order-statistic bootstrap) and the Hodges–Lehmann shift;
* the asymmetry test A→B vs B→A: false-positive rate with no asymmetry and power for a true
  2% difference of medians, with one run per direction (iid and autocorrelated packets) and
  with six runs per direction that differ from run to run (the run as the unit); the naive
  packet test is shown beside it.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from _validate_designs import SIM_RUN  # benchmarks/ is on sys.path
from scipy import signal, stats

from azlatency import schema
from azlatency.stats import (
    asymmetry,
    compare,
    exceedance,
    mean_ci,
    quantile_ci,
    tail_ratios,
)
from azlatency.stats.intervals import exact_indices

MU, SIGMA = 4.0, 0.3  # log-latency: median e^4 ≈ 55 µs, p99/p50 ≈ 2
LEVEL = 0.95
QS = (0.5, 0.99, 0.999)


def ar1(
    n: int, phi: float, rng: np.random.Generator, sigma: float = SIGMA, mu: float = MU
) -> np.ndarray:
    """Lognormal series whose log is a stationary Gaussian AR(1); marginal lognormal(mu, σ)."""
    if phi == 0:
        return np.exp(mu + sigma * rng.standard_normal(n))
    e = rng.standard_normal(n + 300) * np.sqrt(1 - phi**2)
    return np.exp(mu + sigma * signal.lfilter([1.0], [1.0, -phi], e)[300:])


def _mc(hits: np.ndarray) -> tuple[float, float]:
    p = float(np.mean(hits)) if len(hits) else np.nan
    return p, float(np.sqrt(p * (1 - p) / max(len(hits), 1)))


def exact_coverage(n: int, q: float, level: float = LEVEL) -> float:
    """Coverage of the exact order-statistic interval: P(l+1 ≤ B ≤ u), B ~ Binomial(n, q)."""
    (lo,), (hi,) = exact_indices(n, [q], level)
    b = stats.binom(n, q)
    return float(b.cdf(hi) - b.cdf(lo))


def quantile_study(n, phi, reps, rng, dependence="auto") -> list[dict]:
    truth = np.exp(MU + SIGMA * stats.norm.ppf(QS))
    hits = {q: [] for q in QS}
    n_eff = {q: [] for q in QS}
    estimable = {q: 0 for q in QS}
    for _ in range(reps):
        res = quantile_ci(ar1(n, phi, rng), QS, LEVEL, dependence=dependence)
        for q, t, r in zip(QS, truth, res.itertuples()):
            if r.estimable:
                estimable[q] += 1
                hits[q].append(r.ci_low <= t <= r.ci_high)
                n_eff[q].append(r.n_eff)
    rows = []
    for q in QS:
        cov, se = _mc(np.array(hits[q]))
        rows.append(
            {
                "study": "quantile",
                "scenario": f"AR(1) φ={phi}" if phi else "iid lognormal",
                "n": n,
                "stat": f"p{q * 100:g}",
                "method": dependence,
                "reps": reps,
                "coverage": cov,
                "mc_se": se,
                "estimable": estimable[q] / reps,
                "n_eff": float(np.mean(n_eff[q])) if n_eff[q] else np.nan,
                "exact_coverage": exact_coverage(n, q) if phi == 0 else np.nan,
            }
        )
    return rows


def mean_study(n, phi, reps, rng) -> dict:
    truth = np.exp(MU + SIGMA**2 / 2)
    hits = []
    for _ in range(reps):
        r = mean_ci(ar1(n, phi, rng), LEVEL).iloc[0]
        hits.append(r.ci_low <= truth <= r.ci_high)
    cov, se = _mc(np.array(hits))
    return {
        "study": "mean",
        "scenario": f"AR(1) φ={phi}" if phi else "iid lognormal",
        "n": n,
        "stat": "mean",
        "method": "auto",
        "reps": reps,
        "coverage": cov,
        "mc_se": se,
    }


def exceedance_study(n, phi, reps, rng) -> dict:
    t = np.exp(MU + SIGMA * stats.norm.ppf(0.99))  # true P(X > t) = 1%
    hits = []
    for _ in range(reps):
        r = exceedance(ar1(n, phi, rng), t, LEVEL).iloc[0]
        hits.append(r.ci_low <= 0.01 <= r.ci_high)
    cov, se = _mc(np.array(hits))
    return {
        "study": "exceedance",
        "scenario": f"AR(1) φ={phi}" if phi else "iid lognormal",
        "n": n,
        "stat": "P(X > p99)",
        "method": "auto",
        "reps": reps,
        "coverage": cov,
        "mc_se": se,
    }


def ratio_study(n, reps, rng) -> dict:
    truth = np.exp(SIGMA * stats.norm.ppf(0.99))
    hits = []
    for _ in range(reps):
        r = tail_ratios(
            ar1(n, 0, rng), ratios=[(0.99, 0.5)], level=LEVEL, rng=rng, n_resamples=2000
        ).iloc[0]
        if r.estimable:
            hits.append(r.ci_low <= truth <= r.ci_high)
    cov, se = _mc(np.array(hits))
    return {
        "study": "tail ratio",
        "scenario": "iid lognormal",
        "n": n,
        "stat": "p99/p50",
        "method": "bootstrap",
        "reps": reps,
        "coverage": cov,
        "mc_se": se,
    }


def shift_study(n, phi, reps, rng) -> dict:
    delta = 2.0  # µs added to every latency of one side: a pure location shift
    hits = []
    for _ in range(reps):
        a = ar1(n, phi, rng) + delta
        b = ar1(n, phi, rng)
        r = compare(a, b, LEVEL, rng=rng, n_resamples=200).set_index("effect").loc["shift"]
        hits.append(r.ci_low <= delta <= r.ci_high)
    cov, se = _mc(np.array(hits))
    return {
        "study": "HL shift",
        "scenario": f"AR(1) φ={phi}" if phi else "iid lognormal",
        "n": n,
        "stat": "shift",
        "method": "auto",
        "reps": reps,
        "coverage": cov,
        "mc_se": se,
    }


# ---------------------------------------------------------------------------------------------
# Asymmetry


def _frames(values: dict[str, np.ndarray], zones: dict[str, tuple[str, str]]):
    parts = [
        pd.DataFrame(
            {"run_id": rid, "seq": np.arange(len(x)), "kind": "probe", "status": "ok", "rtt_us": x}
        )
        for rid, x in values.items()
    ]
    samples = schema.frame("samples", pd.concat(parts, ignore_index=True))
    base = SIM_RUN
    runs = schema.frame(
        "runs", [{**base, "run_id": r, "src_zone": s, "dst_zone": d} for r, (s, d) in zones.items()]
    )
    return samples, runs


def _asym_once(design: str, effect: float, rng, **kw) -> float:
    """p-value of the 1→2 vs 2→1 asymmetry test for one simulated campaign."""
    values, zones = {}, {}
    k, n, phi, run_sd = {
        "iid": (1, 2000, 0.0, 0.0),
        "ar1": (1, 2000, 0.8, 0.0),
        "runs": (6, 300, 0.0, 0.02),
    }[design]
    for src, dst in (("1", "2"), ("2", "1")):
        for i in range(k):
            rid = f"{src}{dst}-{i}"
            mu = 6.7 + (np.log1p(effect) if src == "1" else 0.0) + run_sd * rng.standard_normal()
            values[rid] = ar1(n, phi, rng, sigma=0.1, mu=mu)
            zones[rid] = (src, dst)
    samples, runs = _frames(values, zones)
    out = asymmetry(samples, runs, rng=rng, n_resamples=100, **kw)
    return float(out.loc[~out["mirrored"], "p_value"].iloc[0])


DESIGNS = [
    ("iid", "one run per direction, iid packets (n=2000)", {}),
    ("ar1", "one run per direction, AR(1) φ=0.8 packets (n=2000)", {}),
    ("ar1", "same, naive iid packet test", {"dependence": "iid"}),
    ("runs", "6 runs per direction, run-to-run sd 2% (n=300 each)", {}),
    ("runs", "same, naive pooled packet test", {"unit": "packet", "dependence": "iid"}),
]


def asymmetry_study(reps, rng, designs=DESIGNS, effects=(0.0, 0.02)) -> list[dict]:
    rows = []
    for design, label, kw in designs:
        for effect in effects:
            what = "false-positive rate" if effect == 0 else f"power at a {effect:.0%} shift"
            p = np.array([_asym_once(design, effect, rng, **kw) for _ in range(reps)])
            rate, se = _mc(p < 0.05)
            rows.append(
                {
                    "study": "asymmetry",
                    "scenario": label,
                    "stat": what,
                    "method": kw.get("dependence", kw.get("unit", "auto")),
                    "reps": reps,
                    "rate": rate,
                    "mc_se": se,
                }
            )
    return rows


# ---------------------------------------------------------------------------------------------


def run_full(rng) -> list[dict]:
    rows: list[dict] = []
    rows += quantile_study(10_000, 0.0, 2000, rng)
    for n, phi in ((10_000, 0.5), (10_000, 0.8), (40_000, 0.8)):
        rows += quantile_study(n, phi, 1000, rng)
        if phi == 0.8:
            rows += quantile_study(n, phi, 500, rng, dependence="iid")
    for phi in (0.0, 0.8):
        rows.append(mean_study(10_000, phi, 1000, rng))
        rows.append(exceedance_study(10_000, phi, 1000, rng))
        rows.append(shift_study(2000, phi, 500, rng))
    rows.append(ratio_study(10_000, 1000, rng))
    return rows + asymmetry_study(400, rng)


def run_quick(rng) -> list[dict]:
    """A few seconds: the main claims at few replicates (coarse, for the test suite)."""
    rows = quantile_study(10_000, 0.0, 20, rng) + quantile_study(10_000, 0.8, 20, rng)
    rows += [
        mean_study(10_000, 0.8, 12, rng),
        exceedance_study(10_000, 0.8, 12, rng),
        shift_study(500, 0.0, 8, rng),
    ]
    return rows + asymmetry_study(6, rng, designs=DESIGNS[1:3], effects=(0.0,))


def _md(frame: pd.DataFrame) -> str:
    """A GitHub markdown table (no tabulate dependency)."""
    head = "| " + " | ".join(map(str, frame.columns)) + " |"
    rule = "|" + "|".join("---" for _ in frame.columns) + "|"
    body = ["| " + " | ".join(map(str, row)) + " |" for row in frame.itertuples(index=False)]
    return "\n".join([head, rule, *body])


def markdown(table: pd.DataFrame) -> str:
    cov = table[table.study != "asymmetry"].copy()
    cov["n"] = cov["n"].astype(int)
    cov["coverage"] = (100 * cov["coverage"]).map("{:.1f}%".format)
    cov["± (MC se)"] = (100 * cov["mc_se"]).map("{:.1f}".format)
    cov["exact"] = (100 * cov["exact_coverage"]).map(lambda v: "" if np.isnan(v) else f"{v:.1f}%")
    cov["estimable"] = cov["estimable"].map(lambda v: "" if pd.isna(v) else f"{100 * v:.0f}%")
    cov["n_eff"] = cov["n_eff"].map(lambda v: "" if pd.isna(v) else f"{v:.0f}")
    cols = [
        "study",
        "scenario",
        "n",
        "stat",
        "method",
        "reps",
        "coverage",
        "± (MC se)",
        "exact",
        "estimable",
        "n_eff",
    ]
    asym = table[table.study == "asymmetry"].copy()
    asym["rate"] = (100 * asym["rate"]).map("{:.1f}%".format)
    asym["± (MC se)"] = (100 * asym["mc_se"]).map("{:.1f}".format)
    return (
        _md(cov[cols])
        + "\n\n"
        + _md(asym[["scenario", "stat", "method", "reps", "rate", "± (MC se)"]])
    )
