"""Serial dependence of one run's packets: detect it, and measure how much it costs.

Packets of one run are autocorrelated (a busy host slows several packets in a row), so a run
of n packets carries less information than n independent draws.  Two steps:

1. **Detect** with the Ljung–Box portmanteau test on the *ranks* of the series (ranks make it
   insensitive to the heavy tail of latencies): Q = n(n+2) Σ_{k≤L} ρ_k² / (n−k) against
   χ²(L).  Ljung & Box (1978), Biometrika 65(2):297–303.
2. **Measure** with non-overlapping batch means (Fishman 1978; Flegal & Jones 2010, Ann.
   Statist. 38(2)): the long-run variance of a series Y is estimated by m·Var(batch means)
   over b batches of m consecutive points.  For a quantile q the series is the indicator
   I(x_t ≤ ξ̂_q), whose long-run variance sets the width of a quantile interval (the
   asymptotic variance of the sample quantile under dependence, Sen 1972); the effective
   sample size is n_eff = n·q(1−q)/σ̂²_LRV.  We never let n_eff exceed n: negative
   dependence is rare in latency series and an interval narrower than the iid one would
   claim more than the data hold.

The batch length comes from the data, not from n alone.  It is a multiple of the *integrated
autocorrelation time* τ = 1 + 2Σ_k ρ_k of the ranks, estimated with Sokal's automatic window
(the smallest lag M with M ≥ 5·τ̂(M); Sokal 1997, "Monte Carlo methods in statistical
mechanics", §3; the rule of ``emcee.autocorr.integrated_time``).  The ranks carry the longest
memory of any indicator I(x ≤ ξ) of a Gaussian-copula series, so one batch length serves
every quantile.  Batches are ``BATCH_FACTOR``·τ̂ long because the downward bias of batch
means is about Σ_k k·ρ_k/(m·τ) relative to the long-run variance — for an AR(1), τ/(2m)·…,
≈ 0.5/``BATCH_FACTOR`` — so m = 10τ keeps it near 5%.  A fixed count (the earlier
clip(n/100, 20, 100)) made batches of 100 points for a 1 Hz series whose memory is 200 points
long, and the interval of its median covered 16–81% instead of 95%.

When the series is too short for its memory there is no honest interval, and ``assess`` says
so (``Dependence.reason``): the window never closes (τ̂ cannot be measured: M ≥ 5τ̂(M) has no
solution below n/2), or fewer than ``MIN_BATCHES`` batches of length m fit.  The effective
sample size n/τ̂ is reported either way.  The uncertainty of the batch-means variance is
carried by Student's t with b−1 degrees of freedom (for quantiles: n_eff shrunk by
(z/t_{b−1})², the normal-theory equivalent).

``n_batches(n)`` — the old fixed rule — is kept for the callers that use it (``compare``,
``stability``), which carry their own calibration.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from scipy import stats
from scipy.fft import next_fast_len

DETECT_ALPHA = 0.01
MAX_LAG = 10
MIN_N = 50
SOKAL_C = 5.0  # window M ≥ 5·τ̂(M) (Sokal 1997)
BATCH_FACTOR = 10.0  # batch length m = 10·τ̂: batch-means bias ≈ 5%
MIN_BATCH_LEN = 10
DIRECT_LAGS = 64  # integrated_time: lags summed directly before it takes the FFT
MIN_BATCHES = 20  # fewer batches: the variance estimate is too rough to carry (t with b−1 df)
# Below this many points a test cannot tell "independent" from "autocorrelated" reliably
# (issue 29: Ljung-Box misses φ = 0.5 at n = 50 half the time), so the interval is built on an
# upper confidence bound of the lag-1 autocorrelation instead of on "not detected".
SMALL_N = 200
BOUND_Z = 1.645  # one-sided 95 % bound on the lag-1 rank autocorrelation
MIN_BOUNDED_N_EFF = 3.0  # a t interval needs a couple of degrees of freedom


@dataclass(frozen=True)
class Dependence:
    detected: bool
    p_value: float
    acf1: float  # lag-1 autocorrelation of the ranks
    n_batches: int
    tau: float = np.nan  # integrated autocorrelation time of the ranks (Sokal window)
    batch_len: int = 0
    reason: str = ""  # why no dependence-aware interval can be had ("" when it can)
    # ``sorted_view`` of the series (the permutation and the sorted values, or None and its
    # ``Counted``): a by-product of its ranks, which the quantiles read (None: not kept)
    sort: tuple[np.ndarray | None, np.ndarray | Counted] | None = field(
        default=None, repr=False, compare=False
    )
    # a short series' n_eff from an upper bound on its lag-1 autocorrelation (``bounded``),
    # not from batches: tau is then (1 + ρ_u)/(1 − ρ_u)
    bounded: bool = False
    upper: float = np.nan  # that bound

    @property
    def estimable(self) -> bool:
        return not self.reason

    @property
    def note(self) -> str:
        if self.bounded:
            return (
                f"n < {SMALL_N}: too short to rule out autocorrelation; n_eff = n/τ with τ from "
                f"the 95% upper bound {self.upper:.2f} of the lag-1 rank autocorrelation "
                f"(r={self.acf1:.2f}, AR(1)), τ≈{self.tau:.3g}"
            )
        if np.isnan(self.p_value):
            return "too few points to test for autocorrelation"
        verdict = "autocorrelated" if self.detected else "no autocorrelation detected"
        memory = (
            f", τ≈{self.tau:.3g}, batches of {self.batch_len}"
            if self.detected and np.isfinite(self.tau)
            else ""
        )
        return (
            f"{verdict} (Ljung-Box on ranks, p={self.p_value:.2g}, lag-1 r={self.acf1:.2f}{memory})"
        )


def n_batches(n: int) -> int:
    return int(np.clip(n // 100, 20, 100))


_SIGN = np.uint64(1 << 63)
_ONES = np.uint64(2**64 - 1)


def sorted_order(x: np.ndarray, ticks: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """(order, x[order]): a permutation that sorts ``x``, and ``x`` sorted (``ticks``: its
    ``_ticks``, when already made).

    numpy's argsort of floats is an indirect sort, three times the cost of a direct one.  So
    each value's bits are mapped to an unsigned integer of the same order (the sign flipped
    for positives, every bit for negatives), the lowest bits of which are replaced by the
    value's index, and those keys are sorted directly.  The order is right unless two values
    differ only in the bits given up — a relative difference below 2⁻⁵² · n, far finer than
    any clock measures latency, though continuous simulated values do come that close — and
    the sorted values show when it is not (they must never decrease).  Those few places are
    then put right by a stable sort of the nearly sorted values (timsort: about one pass)."""
    x = np.ascontiguousarray(x, dtype=np.float64)
    n = len(x)
    if n < 2:
        return np.arange(n), x.copy()
    got = _on_grid(x, ticks)
    if got is not None:
        return got
    low = np.uint64((1 << int(n - 1).bit_length()) - 1)  # the bits that hold the index
    u = x.view(np.uint64)
    key = u ^ ((u >> np.uint64(63)) * _ONES | _SIGN)
    key &= ~low
    key |= np.arange(n, dtype=np.uint64)
    key.sort()
    key &= low
    order = key.view(np.int64)
    xs = x[order]
    if not (xs[1:] >= xs[:-1]).all():  # values closer than the dropped bits, or NaN
        fix = np.argsort(xs, kind="stable")  # timsort: nearly sorted input is one pass
        order, xs = order[fix], xs[fix]
    return order, xs


GRID = 1000.0  # latencies in µs printed to the nanosecond: every tool's resolution


def _ticks(x: np.ndarray) -> np.ndarray:
    """x·``GRID`` rounded to whole ticks, k: ``x`` is on the grid where k/GRID == x exactly."""
    k = x * GRID
    np.rint(k, out=k)
    return k


def _on_grid(
    x: np.ndarray, ticks: np.ndarray | None = None
) -> tuple[np.ndarray, np.ndarray] | None:
    """``sorted_order`` of values that are all whole multiples of 1/``GRID`` (x == k/GRID
    exactly, k ≥ 0), or None.  The key is k itself with the index below it, so the sorted
    keys hold the sorted values: k/GRID again, read in order rather than gathered from x at
    random places (a 1.24 × 10⁶-value run: 45 ms instead of the general path's 60)."""
    n = len(x)
    bits = int(n - 1).bit_length()
    k = _ticks(x) if ticks is None else ticks
    if not (k.min() >= 0 and k.max() < 2.0 ** (62 - bits) and (k / GRID == x).all()):
        return None  # NaN fails the comparisons too
    key = k.astype(np.int64)
    key <<= bits
    key |= np.arange(n, dtype=np.int64)
    key.sort()
    order = key & ((1 << bits) - 1)
    key >>= bits
    xs = key.astype(np.float64)
    xs /= GRID
    return order, xs


# A series is counted rather than sorted when its ticks span at most this many times its length
# (plus a floor for short series): the counts, their running sum and the rank table are
# arrays of the span.  Measured on the 50 long runs of a 10^8 campaign (spans 0.4–6 times
# their length): counting costs about 15 ns an observation and 10 a tick, the sort path 40
# an observation, so counting wins below a span of about 2.5 n (at 3.7 n it was 35% slower).
COUNT_SPAN = 2
CHUNK = 1 << 16  # values a slice of Counted.batch_counts


class Counted:
    """The sorted view of a series on the nanosecond grid, from counts instead of a sort.

    Each value is a whole number of ticks k = x·``GRID``; with ``cum`` the running count of
    values up to each tick (from the smallest, ``lo``), the sorted value of rank r is the
    tick where ``cum`` first exceeds r, the average rank of a tie group is read off the
    same counts, and the values ≤ a threshold are the ticks below its cut.  Indexing it
    (``c[i]`` with an int or an int array) gives the sorted values ``np.sort(x)[i]`` — the
    same floats, k/``GRID`` — so it stands where the sorted array stood.  A 2.69 × 10⁶-point
    run: no sort (37 ms), no scatter of ranks (17 ms); a bincount and a gather instead."""

    def __init__(self, ticks: np.ndarray, lo: int, cum: np.ndarray):
        self.ticks, self.lo, self.cum = ticks, lo, cum  # ticks: k − lo, in series order

    def __len__(self) -> int:
        return len(self.ticks)

    def __getitem__(self, rank):
        t = np.searchsorted(self.cum, rank, side="right")
        return (t + self.lo).astype(np.float64) / GRID if np.ndim(t) else (t + self.lo) / GRID

    def ranks(self) -> np.ndarray:
        """``centred_ranks`` of the series: the tie group of a tick holds the sorted places
        s..e−1 (s, e: the running counts before and after it), average rank (s + e + 1)/2."""
        n = len(self.ticks)
        table = np.empty(len(self.cum))  # in place: integers below 2^53, halves, all exact
        table[0] = 0.0
        table[1:] = self.cum[:-1]  # s
        table += self.cum  # s + e
        table -= n  # (s + e + 1) − (n + 1)
        table *= 0.5
        return table[self.ticks]

    def cuts(self, thresholds: np.ndarray) -> np.ndarray:
        """Per threshold ξ, the first tick whose value exceeds ξ: the values ≤ ξ are the ticks
        below it.  ⌊ξ·GRID⌋ is that tick less one, or one off by rounding: the exact
        comparison of the values either side puts it right."""
        span = len(self.cum)
        th = np.asarray(thresholds, dtype=float)
        t = np.clip(np.nan_to_num(np.floor(th * GRID) - self.lo, nan=-1.0), -1, span - 1)
        t = t.astype(np.int64)
        t += (t + 1 < span) & ((t + 1 + self.lo) / GRID <= th)
        t -= (t >= 0) & ((t + self.lo) / GRID > th)
        return t + 1

    def batch_counts(self, thresholds: np.ndarray, b: int) -> np.ndarray:
        """``_batch_counts``: each value's place among the thresholds' distinct cuts e_0 < e_1
        < … (how many are ≤ its tick, from a table of the span), one count of (batch, place)
        pairs, and running sums over the places: a value is below cut e_a when its place is
        ≤ a."""
        n = len(self.ticks)
        m = n // b
        cuts = self.cuts(thresholds)
        edges = np.unique(cuts)
        k = len(edges)
        small = np.uint8 if k < 255 else np.int64  # a byte a tick: the span's passes are light
        marks = np.zeros(len(self.cum) + 1, dtype=small)
        marks[edges] = 1
        place = np.cumsum(marks[:-1], dtype=small)
        ticks = self.ticks[n - b * m :].reshape(b, m)
        hist = np.empty((b, k + 1), dtype=np.intp)
        rows = max(1, CHUNK // m)  # batches a slice: its pairs stay in the cache
        for r in range(0, b, rows):
            s = min(rows, b - r)
            pairs = np.add(
                place[ticks[r : r + s]],
                (np.arange(s, dtype=np.intp) * (k + 1))[:, None],
                dtype=np.intp,
            )  # (batch, place), cast in the same pass
            hist[r : r + s] = np.bincount(pairs.ravel(), minlength=s * (k + 1)).reshape(s, k + 1)
        below = np.cumsum(hist, axis=1)
        return np.ascontiguousarray(below[:, np.searchsorted(edges, cuts)].T)


def counted(x: np.ndarray, ticks: np.ndarray | None = None) -> Counted | None:
    """``Counted`` of values that are all whole multiples of 1/``GRID`` (x == k/GRID exactly)
    spanning at most ``COUNT_SPAN``·n ticks, or None (``ticks``: ``_ticks(x)``, when made)."""
    n = len(x)
    if n < 2:
        return None
    k = _ticks(x) if ticks is None else ticks
    lo, hi = k.min(), k.max()
    if not (np.isfinite(lo) and np.isfinite(hi) and hi - lo < COUNT_SPAN * n + (1 << 16)):
        return None  # NaN fails too
    if not (k / GRID == x).all():
        return None
    t = k.astype(np.intp)  # k is left as it is: the sort may read it yet
    t -= int(lo)
    cum = np.bincount(t, minlength=int(hi - lo) + 1)
    np.cumsum(cum, out=cum)
    return Counted(t, int(lo), cum)


def sorted_view(x: np.ndarray) -> tuple[np.ndarray | None, np.ndarray | Counted]:
    """The sorted series as the ranks and the quantiles read it: (None, ``counted(x)``) for
    values on the nanosecond grid within a short span, else ``sorted_order(x)``.  The ticks
    are made once for both (a run too wide to count is most often still on the grid)."""
    x = np.ascontiguousarray(x, dtype=np.float64)
    if len(x) < 2:
        return sorted_order(x)
    k = _ticks(x)
    c = counted(x, k)
    return (None, c) if c is not None else sorted_order(x, k)


def centred_ranks(x: np.ndarray, sort: tuple | None = None) -> np.ndarray:
    """Ranks of ``x`` (ties get their average rank) less their mean, (n+1)/2: the series both
    the Ljung–Box test and the autocorrelation time read (computed once per series in
    ``assess``; a rank costs a sort, or a count: ``Counted``).  ``sort``: ``sorted_view(x)``,
    when already known.

    Equal to ``scipy.stats.rankdata(x) - mean`` value for value (tests/stats), in a fifth of
    its time: ties are averaged, so any sorting permutation will do (``sorted_order``); the
    average rank of a tie group of sorted places s..e−1 is (s + e + 1)/2, exact in floating
    point as rankdata's is."""
    x = np.asarray(x)
    n = len(x)
    if n == 0:
        return np.zeros(0)
    order, xs = sorted_view(x) if sort is None else sort
    if isinstance(xs, Counted):
        return xs.ranks()
    starts = np.flatnonzero(np.concatenate(([True], xs[1:] != xs[:-1])))
    ends = np.append(starts[1:], n)
    r = np.empty(n)
    r[order] = np.repeat((starts + ends + 1) / 2.0 - (n + 1) / 2.0, ends - starts)
    return r


def _lag_products(r: np.ndarray, lags: range) -> np.ndarray:
    """Σ_i r_i·r_{i+k} for each k in ``lags`` (0 < k < len(r)).

    einsum, not `@`: a BLAS dot wakes OpenBLAS's threads, which then spin and take the cores
    from the threads summarising other runs (campaign/engines/duck.py) — 2 threads ran no faster than 1."""
    return np.array([float(np.einsum("i,i->", r[:-k], r[k:])) for k in lags])


def rank_acf(
    x: np.ndarray,
    max_lag: int = MAX_LAG,
    ranks: np.ndarray | None = None,
    denom: float | None = None,
) -> np.ndarray:
    """Autocorrelations ρ_1..ρ_L of the ranks of ``x`` (``ranks``: its ``centred_ranks``;
    ``denom``: Σ ranks², when already known)."""
    r = centred_ranks(x) if ranks is None else ranks
    denom = float(np.einsum("i,i->", r, r)) if denom is None else denom
    if denom == 0:
        return np.zeros(max_lag)
    return _lag_products(r, range(1, max_lag + 1)) / denom


def ljung_box(
    x: np.ndarray,
    lags: int = MAX_LAG,
    ranks: np.ndarray | None = None,
    rho: np.ndarray | None = None,
) -> tuple[float, float, float]:
    """(Q, p-value, lag-1 autocorrelation) of the Ljung–Box test on ranks (``rho``: their
    ``rank_acf`` to at least ``lags`` lags, when already known)."""
    n = len(x)
    lags = min(lags, max(1, n // 5))
    rho = rank_acf(x, lags, ranks) if rho is None or len(rho) < lags else rho[:lags]
    k = np.arange(1, lags + 1)
    q = float(n * (n + 2) * np.sum(rho**2 / (n - k)))
    return q, float(stats.chi2.sf(q, lags)), float(rho[0])


def _window(acf: np.ndarray, c: float) -> float | None:
    """τ̂(M) at Sokal's window M (the smallest lag with M ≥ c·τ̂(M)) among the lags 0 … len−1
    of the normalised ``acf`` (acf[0] = 1), or None when none of them closes it."""
    taus = 2 * np.cumsum(acf) - 1  # τ̂(M) = 1 + 2Σ_{k≤M} ρ̂_k
    ok = np.arange(len(acf)) >= c * taus
    if not ok.any():
        return None
    return float(max(taus[int(np.argmax(ok))], 1.0))


def integrated_time(
    x: np.ndarray,
    c: float = SOKAL_C,
    ranks: np.ndarray | None = None,
    rho: np.ndarray | None = None,
    denom: float | None = None,
) -> float:
    """Integrated autocorrelation time τ = 1 + 2Σρ_k of the ranks of ``x`` with Sokal's
    automatic window (smallest M with M ≥ c·τ̂(M)); ``inf`` when no window below n/2 closes
    (the memory is too long for the series to measure).  ``rho``: the first lags of the
    ranks' autocorrelation (``rank_acf``), and ``denom`` (Σ ranks²), when already known.

    A short memory closes the window within a few lags: those are summed directly, up to
    ``DIRECT_LAGS`` (a lag costs about a hundredth of the FFT, whose length is 1.5·n).  A
    longer memory takes every lag below n/2 from one FFT."""
    n = len(x)
    r = centred_ranks(x) if ranks is None else ranks
    half = n // 2
    denom = float(np.einsum("i,i->", r, r)) if denom is None else denom
    if denom <= 0:
        return 1.0
    acf = np.concatenate(([1.0], [] if rho is None else rho[: max(half - 1, 0)]))
    while len(acf) < min(half, DIRECT_LAGS):
        if (tau := _window(acf, c)) is not None:
            return tau
        more = range(len(acf), min(len(acf) + max(8, len(acf) // 2), half, DIRECT_LAGS))
        acf = np.concatenate((acf, _lag_products(r, more) / denom))
    if (tau := _window(acf[:half], c)) is not None:
        return tau
    if len(acf) >= half:
        return np.inf
    # Lags 0 … half−1 are all the window reads.  A circular correlation of length N ≥ n + half
    # has no wrap-around at those lags, and a 5-smooth N keeps pocketfft off its slow path
    # (Bluestein's, for lengths with a large prime factor: 3-5x slower).
    size = next_fast_len(n + half, real=True)
    f = np.fft.rfft(r, size)
    acf = np.fft.irfft(f.real**2 + f.imag**2, size)[: max(half, 1)]
    if acf[0] <= 0:
        return 1.0
    tau = _window(acf / acf[0], c)
    return np.inf if tau is None else tau


def batching(n: int, tau: float, detected: bool) -> tuple[int, int, str]:
    """(batch length, batch count, reason) for n points of autocorrelation time ``tau``."""
    if not np.isfinite(tau):
        return (
            0,
            0,
            (
                f"memory longer than the series: the autocorrelation of {n} points "
                "does not die out within n/2 lags (n_eff cannot be measured)"
            ),
        )
    m = int(max(MIN_BATCH_LEN, np.ceil(BATCH_FACTOR * tau)))
    b = n // m
    if b < MIN_BATCHES and detected:
        return (
            m,
            b,
            (
                f"n_eff ≈ n/τ = {n / tau:.0f} ({n} points, autocorrelation time "
                f"τ≈{tau:.3g}): {b} batches of {m} fit, an interval needs "
                f"≥ {MIN_BATCHES} (n ≥ {MIN_BATCHES * m})"
            ),
        )
    return m, max(b, 2), ""


def assess(x: np.ndarray, *, alpha: float = DETECT_ALPHA) -> Dependence:
    """Is the series ``x`` (in measurement order) autocorrelated, how long is its memory,
    and how should it be batched?"""
    n = len(x)
    if n < MIN_N:
        return Dependence(False, np.nan, np.nan, 0)
    sort = sorted_view(x)
    ranks = centred_ranks(x, sort)
    denom = float(np.einsum("i,i->", ranks, ranks))  # one pass, for both
    rho = rank_acf(x, MAX_LAG, ranks, denom)  # n ≥ MIN_N > MAX_LAG
    _, p, acf1 = ljung_box(x, ranks=ranks, rho=rho)
    detected = p < alpha
    tau = integrated_time(x, ranks=ranks, rho=rho, denom=denom)
    m, b, reason = batching(n, tau, detected)
    if not detected:
        reason = ""
    return Dependence(detected, p, acf1, b, tau, m, reason, sort=sort)


def bounded(x: np.ndarray, sort=None) -> Dependence:
    """A short series (n < ``SMALL_N``): the autocorrelation time of an AR(1) whose lag-1
    autocorrelation is the one-sided 95 % upper bound of the observed one, corrected for the
    small-sample bias of r₁ (Marriott & Pope 1954: E r₁ ≈ ρ − (1 + 4ρ)/n) and with the iid
    standard error 1/√n.  "Not detected" is never read as "absent": an iid series of 20 points
    still gets τ ≈ 1.9 (its interval ~1.4× the iid one), and one whose bound reaches 1 gets no
    interval, with the reason."""
    n = len(x)
    if n < 3:
        return Dependence(False, np.nan, np.nan, 0, np.inf, 0, "fewer than 3 points", bounded=True)
    sort = sorted_view(x) if sort is None else sort
    ranks = centred_ranks(x, sort)
    denom = float(np.einsum("i,i->", ranks, ranks))
    r1 = float(_lag_products(ranks, range(1, 2))[0] / denom) if denom > 0 else 0.0
    upper = min(r1 + (1 + 4 * max(r1, 0.0)) / n + BOUND_Z / np.sqrt(n), 1.0)
    upper = max(upper, 0.0)
    tau = (1 + upper) / (1 - upper) if upper < 1 else np.inf
    n_eff = n / tau
    reason = ""
    if not n_eff >= MIN_BOUNDED_N_EFF:
        reason = (
            f"n={n} is too short to check independence: the lag-1 autocorrelation may be as "
            f"high as {upper:.2f} (r={r1:.2f}), leaving n_eff ≈ {n_eff:.1f} < "
            f"{MIN_BOUNDED_N_EFF:g}"
        )
    return Dependence(True, np.nan, r1, 0, tau, 0, reason, sort=sort, bounded=True, upper=upper)


def _batched(y: np.ndarray, b: int) -> np.ndarray:
    """``y`` cut into ``b`` equal consecutive batches (the first n mod b points dropped: they
    belong to the start of a run, which warm-up may have disturbed anyway)."""
    m = len(y) // b
    return y[len(y) - b * m :].reshape(b, m)


def long_run_variance(y: np.ndarray, b: int) -> float:
    """Batch-means estimate of lim n·Var(ȳ)."""
    batches = _batched(np.asarray(y, dtype=float), b)
    m = batches.shape[1]
    return float(m * np.var(np.einsum("ij->i", batches) / m, ddof=1))


def t_shrink(b: int, level: float) -> float:
    """(z/t_{b−1})²: how much to shrink n_eff for a variance estimated from b batches."""
    a = (1 + level) / 2
    return float((stats.norm.ppf(a) / stats.t.ppf(a, b - 1)) ** 2)


def quantile_n_eff(
    x: np.ndarray, thresholds: np.ndarray, qs: np.ndarray, b: int, sort: tuple | None = None
) -> np.ndarray:
    """Effective sample size of each quantile: n·q(1−q) / long-run variance of I(x ≤ ξ̂_q),
    capped at n (never more information than independent draws).  ``sort``: ``x``'s
    ``sorted_view``, when known."""
    n = len(x)
    m = n // b
    if sort is None:
        counts = _batch_counts(x, thresholds, b)
    elif isinstance(sort[1], Counted):
        counts = sort[1].batch_counts(thresholds, b)
    else:
        counts = _sorted_counts(sort, thresholds, b)
    out = np.empty(len(qs))
    for i, q in enumerate(qs):
        frac = counts[i] / m
        lrv = m * np.var(frac, ddof=1)
        iid = q * (1 - q)
        out[i] = n * iid / max(lrv, iid)
    return out


def _batch_counts(x: np.ndarray, thresholds: np.ndarray, b: int) -> np.ndarray:
    """counts[i, j]: the values ≤ thresholds[i] in batch j (``_batched``), by comparison."""
    batches = _batched(x, b)
    # count per batch by einsum: a reduction along short rows pays numpy's per-row cost
    return np.array(
        [np.einsum("ij->i", (batches <= xi).view(np.uint8), dtype=np.int64) for xi in thresholds]
    ).reshape(len(thresholds), b)


def _sorted_counts(
    sort: tuple[np.ndarray, np.ndarray], thresholds: np.ndarray, b: int
) -> np.ndarray:
    """``_batch_counts`` from the sort: the values ≤ ξ are the first searchsorted(ξ) in sorted
    order, so one pass tags each value with its batch and the counts are running sums of
    the batches of consecutive sorted stretches — two passes over the series, not two per
    threshold."""
    order, xs = sort
    n = len(xs)
    m = n // b
    skip = n - b * m  # _batched drops the first n mod b points: an extra bin, dropped
    batch = order - skip
    batch //= m
    batch[batch < 0] = b
    cuts = np.searchsorted(xs, thresholds, side="right")
    rank = np.argsort(cuts, kind="stable")
    out = np.empty((len(thresholds), b), dtype=np.int64)
    running = np.zeros(b + 1, dtype=np.int64)
    at = 0
    for i in rank:
        running += np.bincount(batch[at : cuts[i]], minlength=b + 1)
        at = max(at, cuts[i])
        out[i] = running[:b]
    return out


def mean_n_eff(x: np.ndarray, b: int) -> float:
    """Effective sample size of the mean: n·Var(x) / long-run variance, capped at n."""
    var = float(np.var(x, ddof=1))
    if var == 0:
        return float(len(x))
    return len(x) * var / max(long_run_variance(x, b), var)
