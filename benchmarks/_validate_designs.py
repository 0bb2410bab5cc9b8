"""The designs of issue 11's table, each simulated with known truth and measured through the
public ``azlatency.stats`` API only (other modules' internals may change under us).

Every design is a function ``(rng, **params) -> {stat: Outcome}`` for one simulated campaign.
An outcome is ``hit``/``miss``/``ne`` (not estimable) for an interval, or ``pos``/``neg``/
``ne`` (not testable) for a test of a null that holds; ``rel_err`` is estimate / truth − 1
where there is an estimate, ``warned`` says the row told the reader that the run is the unit.

Latencies are lognormal: log latency = ``MU`` + run effect (normal, sd ``sigma_b``: the
run-to-run variation of a VM redeployed, another host, another hour) + ``SIGMA`` × an AR(1)
of lag-1 correlation φ (1 Hz probes drift slowly).  With normal run effects the packets of
all runs together are again lognormal, with log-sd √(SIGMA² + sigma_b²): the truth of a
pooled statistic is exact, not simulated.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import optimize, signal, stats

from azlatency import schema
from azlatency import stats as az

MU, SIGMA = 4.0, 0.3  # median e^4 ≈ 55 µs, p99/p50 ≈ 2
LEVEL = 0.95


@dataclass(frozen=True)
class Outcome:
    status: str  # hit | miss | ne (intervals); pos | neg | ne (tests)
    rel_err: float = np.nan
    warned: bool = False
    estimand: str = ""


def log_ar1(n: int, phi: float, rng: np.random.Generator) -> np.ndarray:
    """Standard-normal stationary AR(1) of lag-1 correlation ``phi`` (started in equilibrium)."""
    e = rng.standard_normal(n)
    if phi == 0:
        return e
    e[1:] *= np.sqrt(1 - phi**2)  # e[0] stays N(0, 1): the stationary law, no burn-in needed
    return signal.lfilter([1.0], [1.0, -phi], e)


def runs_of(k: int, n: int, sigma_b: float, rng, *, phi: float = 0.0, shift: float = 0.0):
    """``k`` runs of ``n`` packets; each run's log level drawn with sd ``sigma_b``."""
    return [
        np.exp(MU + shift + sigma_b * rng.standard_normal() + SIGMA * log_ar1(n, phi, rng))
        for _ in range(k)
    ]


# The run columns every simulated run shares (one echo-CSV-like run of round trips).
SIM_RUN = {
    "source_path": "sim",
    "source_sha256": "0" * 64,
    "block": 0,
    "line_start": 1,
    "line_end": 1,
    "tool": "echo_csv",
    "parser_variant": "sim",
    "complete": True,
    "latency_basis": "rtt",
}


def frames(groups: dict[tuple, list[np.ndarray]], keys: tuple[str, ...]):
    """samples and runs frames: one run per array, the run columns ``keys`` from the group."""
    parts, rows = [], []
    base = SIM_RUN
    for g, arrays in groups.items():
        for i, x in enumerate(arrays):
            rid = "-".join(map(str, g)) + f"-{i}"
            parts.append(
                pd.DataFrame(
                    {
                        "run_id": rid,
                        "seq": np.arange(len(x)),
                        "kind": "probe",
                        "status": "ok",
                        "rtt_us": x,
                    }
                )
            )
            rows.append({**base, "run_id": rid, **dict(zip(keys, g))})
    return (
        schema.frame("samples", pd.concat(parts, ignore_index=True)),
        schema.frame("runs", rows),
    )


def _interval(row, truth: float, estimand: str = "") -> Outcome:
    if not bool(row.get("estimable", True)) or pd.isna(row["ci_low"]) or pd.isna(row["ci_high"]):
        return Outcome("ne", estimand=estimand)
    hit = row["ci_low"] <= truth <= row["ci_high"]
    rel = row["estimate"] / truth - 1 if pd.notna(row.get("estimate")) else np.nan
    return Outcome("hit" if hit else "miss", float(rel), estimand=estimand)


def _test(p_value, testable=True) -> Outcome:
    if not testable or p_value is None or pd.isna(p_value):
        return Outcome("ne")
    return Outcome("pos" if p_value < 0.05 else "neg")


# ---------------------------------------------------------------------------------------------
# Comparisons with no true effect


def asymmetry_null(rng, *, k: int, sigma_b: float, n: int = 500, phi: float = 0.0):
    """A→B against B→A with no true asymmetry, ``k`` runs per direction."""
    groups = {(s, d): runs_of(k, n, sigma_b, rng, phi=phi) for s, d in (("1", "2"), ("2", "1"))}
    samples, runs = frames(groups, ("src_zone", "dst_zone"))
    out = az.asymmetry(samples, runs, rng=rng, n_resamples=200)
    row = out[~out["mirrored"].astype(bool)].iloc[0]
    return {"A→B vs B→A": _test(row["p_value"], bool(row.get("testable", True)))}


def placement_null(rng, *, k: int, sigma_b: float, n: int = 500):
    """Two placements with no true difference, ``k`` runs each (``compare_groups``)."""
    groups = {(p,): runs_of(k, n, sigma_b, rng) for p in ("ppg", "none")}
    samples, runs = frames(groups, ("placement",))
    out = az.compare_groups(samples, "placement", runs=runs, rng=rng, n_resamples=200)
    row = out.iloc[0]
    return {"placement a vs b": _test(row["p_value"], bool(row.get("testable", True)))}


# ---------------------------------------------------------------------------------------------
# Pooled statistics over runs


def pooled_exceedance(rng, *, k: int, sigma_b: float, n: int = 1000):
    """P(X > t) over ``k`` runs, t a typical run's p95; truth: the share of all packets of
    all runs (the runs' exceedances averaged over the run-effect law)."""
    t = np.exp(MU + SIGMA * stats.norm.ppf(0.95))
    truth = float(stats.norm.sf(SIGMA * stats.norm.ppf(0.95) / np.hypot(SIGMA, sigma_b)))
    samples, runs = frames({("a",): runs_of(k, n, sigma_b, rng)}, ("scenario",))
    row = az.exceedance(samples, t, runs=runs, by="scenario").iloc[0]
    return {"P(X > t)": _interval(row, truth, "pooled share")}


def _quantile_truth(q: float, sigma_b: float, method: str) -> tuple[float, str]:
    """The truth the row claims: a typical run's quantile when it says it is the median of
    the runs' estimates; otherwise the quantile of all packets of all runs."""
    z = stats.norm.ppf(q)
    if "median across runs" in method or "median of run" in method:
        return float(np.exp(MU + SIGMA * z)), "median run"
    return float(np.exp(MU + np.hypot(SIGMA, sigma_b) * z)), "pooled"


def pooled_quantiles(rng, *, k: int, sigma_b: float, n: int = 1000, unit: str = "auto"):
    """``summarize`` p50 and p99 of one condition measured by ``k`` runs."""
    samples, runs = frames({("a",): runs_of(k, n, sigma_b, rng)}, ("scenario",))
    out = az.summarize(samples, runs, by="scenario", quantiles=(0.5, 0.99), unit=unit)
    res = {}
    for _, row in out[out["stat"].isin(["p50", "p99"])].iterrows():
        truth, estimand = _quantile_truth(row["q"], sigma_b, str(row["method"]))
        o = _interval(row, truth, estimand)
        note = str(row.get("note", ""))
        # only a packet-unit row can warn; a run-unit row saying "the run is the unit" is not
        # a warning
        warned = unit == "packet" and ("run-to-run" in note or "run is the unit" in note)
        res[row["stat"]] = Outcome(o.status, o.rel_err, warned, estimand)
    return res


# ---------------------------------------------------------------------------------------------
# One series


def _mixture_quantile(q: float, share: float, factor: float, spread: float) -> float:
    """Quantile of body lognormal(MU, SIGMA) mixed with a ``share`` of spikes
    lognormal(MU + log factor, spread)."""

    def sf(t):
        lt = np.log(t)
        return (1 - share) * stats.norm.sf((lt - MU) / SIGMA) + share * stats.norm.sf(
            (lt - MU - np.log(factor)) / spread
        )

    return float(optimize.brentq(lambda t: sf(t) - (1 - q), np.exp(MU - 5), np.exp(MU + 20)))


def spiky(n: int, rng, share: float = 0.001, factor: float = 10.0, spread: float = 0.5):
    x = np.exp(MU + SIGMA * rng.standard_normal(n))
    hit = rng.random(n) < share
    x[hit] = np.exp(MU + np.log(factor) + spread * rng.standard_normal(int(hit.sum())))
    return x


def quantile_dependent(rng, *, n: int, phi: float):
    """``quantile_ci(dependence="auto")`` of p50 and p99 of one log-AR(1) series."""
    x = np.exp(MU + SIGMA * log_ar1(n, phi, rng))
    out = az.quantile_ci(x, [0.5, 0.99], LEVEL, dependence="auto")
    return {
        r["stat"]: _interval(r, float(np.exp(MU + SIGMA * stats.norm.ppf(r["q"]))))
        for _, r in out.iterrows()
    }


def short_series(rng, *, n: int, phi: float):
    """Issue 29's grid: ``mean_ci`` and ``quantile_ci`` (p50), ``dependence="auto"``, of one
    short log-AR(1) series (``ping -c 20``, a 100-record window)."""
    x = np.exp(MU + SIGMA * log_ar1(n, phi, rng))
    mean = az.mean_ci(x, LEVEL).iloc[0]
    p50 = az.quantile_ci(x, 0.5, LEVEL).iloc[0]
    return {
        "mean": _interval(mean, float(np.exp(MU + SIGMA**2 / 2))),
        "p50": _interval(p50, float(np.exp(MU))),
    }


def quantile_spikes(rng, *, n: int = 10_000):
    """``quantile_ci`` of p50, p99, p99.9 of an iid body with 0.1 % spikes (×10)."""
    out = az.quantile_ci(spiky(n, rng), [0.5, 0.99, 0.999], LEVEL)
    return {
        r["stat"]: _interval(r, _mixture_quantile(r["q"], 0.001, 10.0, 0.5))
        for _, r in out.iterrows()
    }


def pot_spikes(rng, *, n: int = 100_000):
    """``pot_fit`` p99.99 of an iid body with 0.1 % spikes: the GPD is fitted over a
    threshold that mixes body and spikes."""
    out = az.pot_fit(spiky(n, rng), quantiles=(0.9999,), rng=rng, n_resamples=200)
    row = out[out["stat"] == "p99.99"].iloc[0]
    return {"p99.99": _interval(row, _mixture_quantile(0.9999, 0.001, 10.0, 0.5))}


def pot_lognormal(rng, *, n: int = 100_000):
    """``pot_fit`` p99.99 of an iid log-normal (a light tail whose GPD shape drifts with the
    threshold): issue 29 measured the GPD interval at 72 % coverage."""
    out = az.pot_fit(
        np.exp(MU + SIGMA * rng.standard_normal(n)), quantiles=(0.9999,), rng=rng, n_resamples=200
    )
    row = out[out["stat"] == "p99.99"].iloc[0]
    return {"p99.99": _interval(row, float(np.exp(MU + SIGMA * stats.norm.ppf(0.9999))))}


# ---------------------------------------------------------------------------------------------
# Change points


def drift_and_spikes(rng, n: int = 39_600, phi: float = 0.9, shift: float = 1.0):
    """11 hours at 1 Hz: log-AR(1) (sd 0.1), +3 % drift, eight single-packet spikes of 3-20×,
    and a level ``shift`` from the middle on."""
    x = np.exp(6.7 + 0.1 * log_ar1(n, phi, rng)) * np.linspace(1.0, 1.03, n)
    spikes = rng.choice(n, 8, replace=False)
    x[spikes] *= rng.uniform(3, 20, 8)
    x[n // 2 :] *= shift
    return x


def _series_frame(x: np.ndarray) -> pd.DataFrame:
    t0 = 1_742_464_800 * 10**9
    return schema.frame(
        "samples",
        pd.DataFrame(
            {
                "run_id": "r",
                "seq": np.arange(len(x)),
                "kind": "probe",
                "status": "ok",
                "tx_time_ns": t0 + np.arange(len(x), dtype=np.int64) * 10**9,
                "rtt_us": x,
            }
        ),
    )


def warmup_null(rng, *, phi: float, n: int = 2_000):
    """``warmup`` on a stationary log-AR(1) run: any warm-up it finds is false ("not tested"
    for a run too short for its memory counts as no finding)."""
    x = np.exp(MU + SIGMA * log_ar1(n, phi, rng))
    found = az.warmup(_series_frame(x), rng=rng)["detected"].fillna(False).iloc[0]
    return {"false warm-up": Outcome("pos" if bool(found) else "neg")}


def last_records_null(rng, *, phi: float = 0.5, n: int = 4_000, spikes: float = 0.0):
    """``last_records_before_break`` on one stationary run (seed 004's table): a "change"
    interval of the last 100 records against the 100 before that excludes 0 is false.
    ``spikes``: the share of packets multiplied by 100."""
    x = np.exp(MU + SIGMA * log_ar1(n, phi, rng))
    x[rng.random(n) < spikes] *= 100
    last = az.last_records_before_break(_series_frame(x)).iloc[-1]
    lo, hi = last["change_ci_low"], last["change_ci_high"]
    if pd.isna(lo) or pd.isna(hi):
        return {"change excludes 0": Outcome("ne")}
    return {"change excludes 0": Outcome("pos" if lo > 0 or hi < 0 else "neg")}


def change_null(rng, *, phi: float = 0.9):
    """Any level change reported on drift + spikes is false."""
    out = az.change_points(_series_frame(drift_and_spikes(rng, phi=phi)))
    return {"≥ 1 false level change": Outcome("pos" if (out["kind"] == "level").any() else "neg")}


def change_shift(rng, *, phi: float = 0.9, shift: float = 1.2):
    """A real +20 % shift: found within 5 minutes, with the truth in its magnitude interval
    (not found counts as a miss)."""
    x = drift_and_spikes(rng, phi=phi, shift=shift)
    out = az.change_points(_series_frame(x), kinds=("level",))
    near = out[(out["index"] - len(x) // 2).abs() <= 300]
    if near.empty or "ci_low" not in near.columns:
        return {"+20 % shift magnitude": Outcome("miss")}
    return {
        "+20 % shift magnitude": _interval(near.assign(estimate=near["magnitude"]).iloc[0], shift)
    }


# ---------------------------------------------------------------------------------------------
# Before and after (issue 41): two campaigns, the run as the unit, the gate and equivalence

AB_STATS = ("p50", "p99")


def _ab_values(rng, *, k: int, sigma_b: float, ratio: float, n: int, conditions: int = 1):
    """Run values (``stats.run_statistics``: each run's p50 and p99 from its packets) of
    ``conditions`` conditions measured in two campaigns of ``k`` runs each; the after
    campaign's packets × ``ratio``.  Packets: log-AR(1) φ = 0.5 within a run."""
    parts = []
    for c in range(conditions):
        groups = {
            (side, str(c)): runs_of(k, n, sigma_b, rng, phi=0.5, shift=np.log(r))
            for side, r in (("before", 1.0), ("after", ratio))
        }
        samples, runs = frames(groups, ("campaign", "scenario"))  # the campaign is the side
        v = az.run_statistics(samples, runs, stats=AB_STATS)
        parts.append(v.merge(runs[["run_id", "campaign", "scenario"]], on="run_id"))
    return pd.concat(parts, ignore_index=True).rename(columns={"campaign": "side"})


def ab_null(rng, *, k: int, sigma_b: float, n: int = 1000):
    """No change: per statistic, the two-sided test's false positives and the gate's false
    failures at margins 0 and 10 % (one row, no adjustment: Holm over a table only lowers
    them)."""
    v = _ab_values(rng, k=k, sigma_b=sigma_b, ratio=1.0, n=n)
    t = az.before_after(v, ["stat"], margin=0.10, adjust="none").set_index("stat")
    out = {}
    for s in AB_STATS:
        r = t.loc[s]
        out[f"{s}: significant (two-sided)"] = _test(r["p_value"], bool(r["testable"]))
        # at margin 0 the gate fails exactly the significant changes for the worse
        out[f"{s}: gate fails, margin 0"] = Outcome("pos" if r["verdict"] == "worse" else "neg")
        out[f"{s}: gate fails, margin 10 %"] = Outcome("pos" if r["gate"] == "fail" else "neg")
    return out


def ab_table_null(rng, *, k: int, sigma_b: float, conditions: int = 10, n: int = 1000):
    """No change in any of ``conditions`` conditions × 2 statistics, Holm over the table: does
    the gate fail the campaign (any row)?"""
    v = _ab_values(rng, k=k, sigma_b=sigma_b, ratio=1.0, n=n, conditions=conditions)
    t = az.before_after(v, ["scenario", "stat"], margin=0.10)
    return {
        "gate fails the campaign, margin 0": Outcome(
            "pos" if (t["verdict"] == "worse").any() else "neg"
        ),
        "gate fails the campaign, margin 10 %": Outcome(
            "pos" if (t["gate"] == "fail").any() else "neg"
        ),
    }


def ab_power(rng, *, k: int, sigma_b: float, change: float, n: int = 1000):
    """Latency ×(1 + ``change``): how often the change is detected (significant, for the
    worse) and how often the gate fails at margin 10 %, per statistic."""
    v = _ab_values(rng, k=k, sigma_b=sigma_b, ratio=1 + change, n=n)
    t = az.before_after(v, ["stat"], margin=0.10, adjust="none").set_index("stat")
    out = {}
    for s in AB_STATS:
        r = t.loc[s]
        out[f"{s}: detected"] = Outcome("pos" if r["verdict"] == "worse" else "neg")
        out[f"{s}: gate fails, margin 10 %"] = Outcome("pos" if r["gate"] == "fail" else "neg")
    return out


def ab_equivalence(rng, *, k: int, sigma_b: float, ratio: float, n: int = 1000):
    """True ratio ``ratio``: how often "the same within ±10 %" is claimed (TOST, one row)."""
    v = _ab_values(rng, k=k, sigma_b=sigma_b, ratio=ratio, n=n)
    t = az.before_after(v, ["stat"], margin=0.10, adjust="none").set_index("stat")
    return {
        f"{s}: claims the same ±10 %": Outcome("pos" if t.loc[s, "verdict"] == "same" else "neg")
        for s in AB_STATS
    }
