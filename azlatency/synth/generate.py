"""Series from the model: latencies, send/receive times, throughput intervals, the echo run.

Everything takes a ``numpy.random.Generator`` and returns arrays; nothing here formats text.
Latencies leave as integer nanoseconds, the resolution of the tools' clocks, so writers can
print ``seconds.nanoseconds`` and ``%.3f`` µs exactly and the parsers read back the same
numbers.  All of it is vectorised (no Python loop per packet): ``large`` draws 10^8 packets.
"""

from __future__ import annotations

import math
from statistics import NormalDist

import numpy as np

from .model import Echo, Shape

_AR_TERMS = 64  # (1 − φB)⁻¹ = Π (1 + φ^(2^j) B^(2^j)), six factors: lags up to 63, error φ^64


def ar1(rng: np.random.Generator, n: int, phi: float) -> np.ndarray:
    """A stationary AR(1) series of unit variance: z_t = φ z_{t−1} + √(1 − φ²) ε_t.

    Computed as a product of six lag filters on the innovations (each a vectorised
    shifted add), after a burn-in of 64 innovations, so the start is stationary too; the
    truncation error is φ^64 (below 1e-19 for φ = 0.5).
    """
    if not -1 < phi < 1:
        raise ValueError(f"ar_phi must be in (-1, 1), got {phi}")
    e = rng.standard_normal(n + _AR_TERMS) * math.sqrt(1 - phi * phi)
    if phi != 0:
        step, power = 1, phi
        while step < _AR_TERMS:
            e[step:] += power * e[:-step].copy()
            step, power = step * 2, power * power
    return e[_AR_TERMS:]


def shape_sample(rng: np.random.Generator, n: int, shape: Shape) -> np.ndarray:
    """``n`` consecutive draws of ``D``: lognormal AR(1) body plus rare Pareto excesses."""
    x = np.exp(shape.body_sigma * ar1(rng, n, shape.ar_phi))
    hit = np.flatnonzero(rng.random(n) < shape.tail_prob)
    if len(hit):
        # numpy's pareto is the Lomax form: (1 + pareto) * m is a classical Pareto of minimum m.
        x[hit] += shape.tail_scale * (1.0 + rng.pareto(shape.tail_alpha, len(hit)))
    return x


def run_factor(rng: np.random.Generator, shape: Shape) -> float:
    """One run's own multiplier of the scale (run-to-run variation, median 1)."""
    return float(math.exp(shape.run_sigma * rng.standard_normal()))


def latency_ns(rng: np.random.Generator, n: int, scale_us: float, shape: Shape) -> np.ndarray:
    """``n`` consecutive round trips in integer ns (at least 1 µs)."""
    x = shape_sample(rng, n, shape)
    x *= scale_us * 1000.0
    np.rint(x, out=x)
    return np.maximum(x, 1000.0).astype(np.int64)


def paced_times(
    rng: np.random.Generator, rtt_ns: np.ndarray, mps: int | None, t0_ns: int
) -> tuple[np.ndarray, np.ndarray]:
    """Send and receive times of a ping-pong client (sockperf): packet k is due at
    t0 + k/mps but never leaves before the reply to k − 1 came back (plus a few hundred ns of
    client work); ``mps=None`` sends back to back.  Receive = send + RTT.

    The wait behind schedule is a Lindley recursion, W_k = max(0, W_{k−1} + X_k), solved
    without a loop as the partial sums minus their running minimum.
    """
    n = len(rtt_ns)
    gap = rng.integers(40, 400, n, dtype=np.int64)  # client work between reply and next send
    if mps is None:
        tx = np.empty(n, dtype=np.int64)
        tx[0] = t0_ns
        np.cumsum((rtt_ns + gap)[:-1], out=tx[1:])
        tx[1:] += t0_ns
        return tx, tx + rtt_ns
    period = 1_000_000_000 // mps
    due = t0_ns + np.arange(n, dtype=np.int64) * period
    step = np.zeros(n, dtype=np.int64)
    step[1:] = rtt_ns[:-1] + gap[:-1] - period
    s = np.cumsum(step)
    wait = s - np.minimum(np.minimum.accumulate(s), 0)
    tx = due + wait
    return tx, tx + rtt_ns


def throughput_series(
    rng: np.random.Generator, n: int, mean_bps: float, cv: float, phi: float = 0.6
) -> np.ndarray:
    """``n`` per-interval throughputs (bits/s): AR(1) noise of sd ``cv`` × mean around it."""
    return mean_bps * np.maximum(1.0 + cv * ar1(rng, n, phi), 0.05)


def echo_series(
    rng: np.random.Generator, echo: Echo, hours: float, scale_us: float, shape: Shape, t0_ns: int
) -> dict[str, np.ndarray | int]:
    """The probes of the echo session: send times every ``interval_s`` (plus scheduling jitter),
    RTTs with drift and a level shift, cut at the break and resumed after ``reconnect_s``.

    Returns send/receive ns, the session (1 before the break, 2 after) of each probe, and the
    change, break, logged drop, reconnect and end times in ns.
    """
    interval_ns = int(round(echo.interval_s * 1e9))
    duration_ns = int(round(hours * 3600e9))
    change_ns = t0_ns + int(round(echo.change_at_frac * duration_ns))
    # The connection breaks at some moment between two probes; the client notices when the
    # next probe fails, logs the drop, and the wrapper reconnects ``reconnect_s`` later.
    break_ns = (
        t0_ns + int(round(echo.break_at_frac * duration_ns)) + int(rng.integers(0, interval_ns))
    )
    first = np.arange(t0_ns, break_ns, interval_ns, dtype=np.int64)
    drop_ns = int(first[-1]) + interval_ns + int(rng.integers(50_000, 400_000))
    resume_ns = drop_ns + int(round(echo.reconnect_s * 1e9))
    second = np.arange(resume_ns, t0_ns + duration_ns, interval_ns, dtype=np.int64)
    due = np.concatenate([first, second])
    session = np.concatenate([np.ones(len(first), np.int8), np.full(len(second), 2, np.int8)])
    # time.sleep(interval) after each probe: the schedule slips by the RTT and the wake-up;
    # what matters here is that send times stay near the grid, so add a small jitter instead.
    tx = due + rng.integers(20_000, 120_000, len(due), dtype=np.int64)
    hours_in = (tx - t0_ns) / 3600e9
    level = scale_us + echo.drift_us_per_hour * hours_in
    level = level + np.where(tx >= change_ns, echo.change_shift_us, 0.0)
    rtt = shape_sample(rng, len(tx), shape) * level * 1000.0
    rtt_ns = np.maximum(np.rint(rtt), 1000.0).astype(np.int64)
    return {
        "tx_ns": tx,
        "rx_ns": tx + rtt_ns,
        "session": session,
        "change_ns": change_ns,
        "break_ns": break_ns,
        "drop_ns": drop_ns,
        "resume_ns": resume_ns,
        "end_ns": t0_ns + duration_ns,
    }


def sockperf_stats(values: np.ndarray, level: float = 0.99) -> dict[str, float]:
    """What sockperf prints about ``values`` (µs): count, mean, std (n − 1), min, max, the
    eight percentiles by its rank rule ⌊0.5 + q·n⌋ (1-based), and the 3.8 dispersion figures.
    The parser recomputes these from a full log and warns beyond 0.002 µs."""

    n = len(values)
    qs = (0.25, 0.5, 0.75, 0.9, 0.99, 0.999, 0.9999, 0.99999)
    ranks = {q: min(max(math.floor(0.5 + q * n) - 1, 0), n - 1) for q in qs}
    part = np.partition(values, sorted({0, n - 1, *ranks.values()}))
    mean = float(values.mean())
    std = float(values.std(ddof=1)) if n > 1 else 0.0
    out = {"count": n, "mean": mean, "std": std, "min": float(part[0]), "max": float(part[-1])}
    for q, k in ranks.items():
        out[q] = float(part[k])
    out["mean_ad"] = float(np.abs(values - mean).mean())
    # sockperf's median-ad: around the median, scaled to estimate a standard deviation
    # (ticks.cpp TicksDuration::medianad, × 1.48260221851)
    out["median_ad"] = 1.48260221851 * float(np.median(np.abs(values - np.median(values))))
    out["siqr"] = (out[0.75] - out[0.25]) / 2
    out["cv"] = std / mean if mean else 0.0
    out["std_error"] = std / math.sqrt(n)
    z = NormalDist().inv_cdf(0.5 + level / 2)
    out["ci_low"], out["ci_high"] = mean - z * out["std_error"], mean + z * out["std_error"]
    return out
