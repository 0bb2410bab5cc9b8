"""azlatency.stats speed on a million samples, each figure beside a named peer run on the same
data in the same process.

* all quantile intervals (p25 … p99.999, eight of them) of a 10⁶-sample run, with the
  autocorrelation test and the batch-means correction it triggers (target: about a second);
  peers: ``numpy.percentile`` (point estimates only, no intervals) and
  ``scipy.stats.quantile_test(...).confidence_interval()`` looped over the eight quantiles
  (the same exact intervals for independent packets);
* ``summarize`` of the same run as a samples frame (count, mean, std, min, max, quantiles);
* a comparison of two 10⁶-sample runs (Hodges–Lehmann shift and interval by exact selection,
  ratio of medians, Cliff's δ, Mann–Whitney; target: a few seconds); peer:
  ``scipy.stats.mannwhitneyu`` alone (the test only: no shift, no intervals).  Forming the
  10¹² pairwise differences for a brute-force Hodges–Lehmann is not possible at all;
* tail ratios, exceedance and a peaks-over-threshold fit on the 10⁶ run;
* change points on 40,000 points (a seed-004-sized echo run); peer: ruptures ``Binseg`` with
  the l2 cost on the raw series (jump 5).
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pandas as pd
from scipy import signal, stats

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from _timing import best_of  # noqa: E402  benchmarks/ is on sys.path (run directly or by run_all)

from azlatency import schema  # noqa: E402
from azlatency.stats import (  # noqa: E402
    change_points,
    compare,
    exceedance,
    pot_fit,
    quantile_ci,
    summarize,
    tail_ratios,
)

N = 1_000_000
SEED = 20250320
QS = (0.25, 0.5, 0.75, 0.9, 0.99, 0.999, 0.9999, 0.99999)


def _series(n: int, phi: float, rng, mu: float = 4.0, sigma: float = 0.3) -> np.ndarray:
    e = rng.standard_normal(n + 300) * np.sqrt(1 - phi**2)
    return np.exp(mu + sigma * signal.lfilter([1.0], [1.0, -phi], e)[300:])


def _time(fn, repeat: int = 3) -> float:
    return best_of(fn, repeat)[0]


def main() -> dict:
    rng = np.random.default_rng(SEED)
    x = _series(N, 0.3, rng)  # mildly autocorrelated, like a sockperf full log
    y = _series(N, 0.3, rng, mu=4.01)
    out: dict = {"n": N}

    ours = _time(lambda: quantile_ci(x, QS))
    npct = _time(lambda: np.percentile(x, [100 * q for q in QS]))
    scipy_loop = _time(
        lambda: [stats.quantile_test(x, p=q).confidence_interval() for q in QS], repeat=1
    )
    iid = _time(lambda: quantile_ci(x, QS, dependence="iid"))
    out["quantile_intervals"] = {
        "azlatency_s": ours,
        "azlatency_iid_s": iid,
        "numpy_percentile_s": npct,
        "scipy_quantile_test_loop_s": scipy_loop,
        "ratio_vs_numpy_percentile": ours / npct,
        "speedup_vs_scipy_loop": scipy_loop / ours,
    }

    frame = schema.frame(
        "samples",
        pd.DataFrame(
            {"run_id": "r", "seq": np.arange(N), "kind": "packet", "status": "ok", "rtt_us": x}
        ),
    )
    out["summarize_s"] = _time(lambda: summarize(frame), repeat=1)

    comp = _time(lambda: compare(x, y, rng=1), repeat=1)
    mwu = _time(lambda: stats.mannwhitneyu(x, y), repeat=1)
    out["compare"] = {
        "azlatency_s": comp,
        "scipy_mannwhitneyu_s": mwu,
        "ratio_vs_mannwhitneyu": comp / mwu,
    }

    out["tail_ratios_s"] = _time(lambda: tail_ratios(x, rng=1), repeat=1)
    out["exceedance_s"] = _time(lambda: exceedance(x, [100.0, 200.0]), repeat=1)
    out["pot_fit_s"] = _time(lambda: pot_fit(x, rng=1, n_resamples=200), repeat=1)

    echo = _series(40_000, 0.5, rng, mu=6.7, sigma=0.1)
    echo[20_000:] *= 1.08
    ef = schema.frame(
        "samples",
        pd.DataFrame(
            {
                "run_id": "e",
                "seq": np.arange(len(echo)),
                "kind": "probe",
                "status": "ok",
                "rtt_us": echo,
            }
        ),
    )
    cps = _time(lambda: change_points(ef), repeat=1)
    import ruptures as rpt

    log = np.log(echo).reshape(-1, 1)
    binseg = _time(
        lambda: (
            rpt.Binseg(model="l2", min_size=50, jump=5)
            .fit(log)
            .predict(pen=3 * np.log(len(log)) * np.var(np.diff(log[:, 0])) / 2)
        ),
        repeat=1,
    )
    out["change_points_40k"] = {
        "azlatency_s": cps,
        "ruptures_binseg_l2_s": binseg,
        "speedup_vs_binseg": binseg / cps,
    }
    return out


if __name__ == "__main__":
    import json

    print(json.dumps(main(), indent=1))
