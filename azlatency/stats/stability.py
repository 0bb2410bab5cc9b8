"""Stability over long runs: rolling quantiles, gaps and breaks, change points, and the
"last N records before the break" table of seed 004.

* ``rolling_quantiles`` — quantiles over a trailing time window (or a count of packets),
  pandas' rolling quantile (linear interpolation), per run.
* ``breaks`` — silent stretches (a time gap longer than ``gap_factor`` × the run's median
  interval and ``min_gap_s``), missing sequence numbers, bursts of timeouts/losses, and runs
  that end in a drop (last record not ``ok``, or ``runs.complete`` False).
* ``change_points`` — changes of level and of dispersion that drift and spikes do not fake.
  The series is cut into blocks of ``block`` packets; the block medians of log latency
  (level) and the log of the block interquartile ranges (dispersion) are the signals, each
  clipped to its rolling median ± 4 robust sd (a block full of spikes is not a step).
  Exact PELT (ruptures ``KernelCPD(kernel="linear")``, in C: Killick, Fearnhead & Eckley
  2012, JASA 107(500)) with a low penalty proposes candidates; they are then pruned, weakest
  first, until each is a *local step* — the mean of up to ``window`` blocks after it minus
  the mean before, less what the drift moves in as many blocks — that is at least
  ``min_effect`` and significant at ``alpha`` for the whole run.  The null centre (drift) and
  spread (noise with its autocorrelation) of that step are read off the run itself: median
  and MAD of the step statistic at every position.  Each change carries its magnitude as a
  ratio with an interval.  40,000 points take well under a second.
* ``last_records_before_break`` — the last ``n_last`` observations of each run before it
  broke, in segments of ``segment`` (seed 004: "Records 500-401 … Last 100 records"), with
  each segment's mean and median, a t interval of the mean and the change of the last
  segment against the one before (Welch interval), so a "drop of 166 µs" can be weighed
  against the noise.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd
from scipy import stats

from . import dependence as dep
from .common import check_basis, check_level, metric_column, observations, ordered

NOT_OK = ("timeout", "lost", "error")


def _time_column(samples: pd.DataFrame) -> str | None:
    for c in ("time_ns", "tx_time_ns", "rx_time_ns"):
        if c in samples.columns and samples[c].notna().any():
            return c
    return None


def _ok_frame(part: pd.DataFrame, column: str) -> pd.DataFrame:
    ok = part["status"].astype(str).eq("ok") & part[column].notna()
    return part.loc[ok]


# ---------------------------------------------------------------------------------------------
# Rolling quantiles


def rolling_quantiles(
    samples: pd.DataFrame,
    *,
    metric: str = "rtt",
    quantiles: Sequence[float] = (0.5, 0.99),
    window: str | int = "60s",
    min_periods: int = 10,
    step: int = 1,
) -> pd.DataFrame:
    """Trailing-window quantiles per run.  ``window`` is a pandas offset (``"60s"``) over the
    run's time column, or a number of packets.  ``step`` keeps every step-th point."""
    column, unit = metric_column(metric)
    check_basis(samples, metric)
    tcol = _time_column(samples)
    if isinstance(window, str) and tcol is None:
        raise ValueError("a time window needs time_ns or tx_time_ns; give window as a count")
    out = []
    for run_id, part in ordered(samples).groupby("run_id", sort=True):
        ok = _ok_frame(part, column)
        values = ok[column].astype(float)
        if isinstance(window, str):
            values.index = pd.to_datetime(ok[tcol].astype("int64"), unit="ns", utc=True)
            if not values.index.is_monotonic_increasing:
                raise ValueError(f"run {run_id}: time column is not increasing")
        else:
            values = values.reset_index(drop=True)
        roll = values.rolling(window, min_periods=min_periods)
        for q in quantiles:
            v = roll.quantile(q).to_numpy()
            frame = pd.DataFrame(
                {
                    "run_id": run_id,
                    "seq": ok["seq"].to_numpy(),
                    "time_ns": ok[tcol].to_numpy() if tcol else pd.NA,
                    "q": q,
                    "value": v,
                    "window": str(window),
                    "unit": unit,
                }
            )
            out.append(frame.iloc[::step])
    if not out:
        return pd.DataFrame(columns=["run_id", "seq", "time_ns", "q", "value", "window", "unit"])
    return pd.concat(out, ignore_index=True).dropna(subset=["value"])


# ---------------------------------------------------------------------------------------------
# Gaps and breaks


def _gaps(run_id, part, tcol, gap_factor, min_gap_s) -> list[dict]:
    t = part[tcol].to_numpy(dtype="int64", na_value=np.iinfo(np.int64).min)
    valid = t != np.iinfo(np.int64).min
    t, seq = t[valid], part["seq"].to_numpy()[valid]
    if len(t) < 3:
        return []
    dt = np.diff(t)
    typical = float(np.median(dt[dt > 0])) if (dt > 0).any() else 0.0
    limit = max(gap_factor * typical, min_gap_s * 1e9)
    rows = []
    for i in np.flatnonzero(dt > limit):
        rows.append(
            {
                "run_id": run_id,
                "kind": "gap",
                "start_seq": seq[i],
                "end_seq": seq[i + 1],
                "start_ns": int(t[i]),
                "end_ns": int(t[i + 1]),
                "duration_s": dt[i] / 1e9,
                "n": int(round(dt[i] / typical)) - 1 if typical else 0,
                "note": f"silent for {dt[i] / 1e9:.3g} s (typical interval {typical / 1e9:.3g} s)",
            }
        )
    return rows


def _runs_of(mask: np.ndarray) -> list[tuple[int, int]]:
    """(start, end) index pairs (end exclusive) of consecutive True stretches."""
    edges = np.diff(np.concatenate([[0], mask.astype(int), [0]]))
    return list(zip(np.flatnonzero(edges == 1), np.flatnonzero(edges == -1)))


def breaks(
    samples: pd.DataFrame,
    runs: pd.DataFrame | None = None,
    *,
    gap_factor: float = 10.0,
    min_gap_s: float = 1.0,
) -> pd.DataFrame:
    """Gaps, missing sequence numbers, loss bursts and broken run ends, one row each."""
    tcol = _time_column(samples)
    out: list[dict] = []
    complete = {}
    if runs is not None and "complete" in runs.columns:
        complete = dict(zip(runs["run_id"], runs["complete"]))
    for run_id, part in ordered(samples).groupby("run_id", sort=True):
        seq = part["seq"].to_numpy(dtype="int64", na_value=-1)
        status = part["status"].astype(str).to_numpy()
        times = part[tcol].to_numpy(dtype="int64", na_value=0) if tcol else np.zeros(len(seq))
        if tcol:
            out.extend(_gaps(run_id, part, tcol, gap_factor, min_gap_s))
        out.extend(_lost(run_id, seq, status, times))
        end = _broken_end(run_id, seq, status, times, complete.get(run_id))
        if end:
            out.append(end)
    return pd.DataFrame(out, columns=BREAK_COLUMNS)


BREAK_COLUMNS = [
    "run_id",
    "kind",
    "start_seq",
    "end_seq",
    "start_ns",
    "end_ns",
    "duration_s",
    "n",
    "note",
]


def _span(run_id, kind: str, seq, times, i: int, j: int, n: int, note: str) -> dict:
    """A row of ``breaks`` from sample ``i`` to sample ``j`` of one run."""
    return {
        "run_id": run_id,
        "kind": kind,
        "start_seq": seq[i],
        "end_seq": seq[j],
        "start_ns": times[i] or pd.NA,
        "end_ns": times[j] or pd.NA,
        "n": n,
        "note": note,
    }


def _lost(run_id, seq: np.ndarray, status: np.ndarray, times) -> list[dict]:
    """Missing sequence numbers and bursts of lost probes in one run."""
    out = [
        _span(
            run_id,
            "missing_seq",
            seq,
            times,
            i,
            i + 1,
            int(seq[i + 1] - seq[i] - 1),
            "sequence numbers missing from the log",
        )
        for i in np.flatnonzero(np.diff(seq) > 1).tolist()
    ]
    for s, e in _runs_of(np.isin(status, NOT_OK)):
        note = ", ".join(sorted(set(status[s:e])))
        out.append(_span(run_id, "loss_burst", seq, times, s, e - 1, int(e - s), note))
    return out


def _broken_end(run_id, seq: np.ndarray, status: np.ndarray, times, flag) -> dict | None:
    """The row of a run that ends in a drop or did not complete, from its last good probe."""
    ends_bad = len(status) and status[-1] in NOT_OK
    incomplete = flag is not None and not pd.isna(flag) and not bool(flag)
    if not (ends_bad or incomplete):
        return None
    last_ok = np.flatnonzero(status == "ok")
    i = int(last_ok[-1]) if len(last_ok) else 0
    note = (
        "run ends in a drop" if ends_bad else "run did not complete (the tool's summary is missing)"
    )
    return _span(run_id, "end", seq, times, i, -1, int(len(seq) - 1 - i), note)


# ---------------------------------------------------------------------------------------------
# Change points

CP_COLUMNS = [
    "run_id",
    "kind",
    "index",
    "seq",
    "time_ns",
    "before",
    "after",
    "change",
    "ratio",
    "magnitude",
    "ci_low",
    "ci_high",
    "level",
    "z",
    "drift_ratio",
    "window",
    "statistic",
    "unit",
    "block",
    "penalty",
    "min_effect",
    "method",
]


def _clean(signal: np.ndarray, half: int, scale: float) -> np.ndarray:
    """``signal`` clipped to its centred rolling median ± 4 ``scale``: a block full of spikes
    is pulled back to its neighbours, while a step (longer than ``half`` blocks) stays."""
    centre = pd.Series(signal).rolling(2 * half + 1, center=True, min_periods=1).median()
    return np.clip(signal, centre - 4 * scale, centre + 4 * scale).to_numpy()


class _Scan:
    """Local step statistics of one block signal: D_t(w) = mean of the w blocks after t minus
    the mean of the w blocks before.  Under "no change" D_t(w) is centred on what the drift
    moves in w blocks and spread by the noise *and its autocorrelation*; both are read off
    the series itself, robustly (median and MAD over every t), since real changes touch only
    a few t."""

    def __init__(self, signal: np.ndarray):
        self.s = signal
        self.cum = np.concatenate([[0.0], np.cumsum(signal)])
        self._null: dict[tuple[int, int | None], tuple[float, float]] = {}  # by (w, at)

    def step(self, t: int, w: int) -> float:
        c = self.cum
        return float((c[t + w] - c[t]) / w - (c[t] - c[t - w]) / w)

    def null(self, w: int, at: int | None = None) -> tuple[float, float]:
        """(drift, sd) of D_t(w) over the series, leaving out the places within ``w`` of ``at``
        (the change under test): in a short run a real step touches most places, and would
        otherwise widen its own null."""
        key = (w, at)
        if key not in self._null:
            c, n = self.cum, len(self.s)
            t = np.arange(w, n - w + 1)
            if at is not None:
                away = np.abs(t - at) >= w
                if away.sum() >= min(2 * w, len(t) // 4):
                    t = t[away]
            d = (c[t + w] - c[t]) / w - (c[t] - c[t - w]) / w
            med = float(np.median(d))
            self._null[key] = (med, float(stats.median_abs_deviation(d, scale="normal")))
        return self._null[key]


# The maximum of |D_t(w)| over a run of nb blocks behaves like the largest of about
# SCAN_PLACES·nb/w independent normals: simulated on 11-hour 1 Hz log-AR(1) series (φ = 0.9,
# blocks of 10), the 95th percentile of the maximum is 4.1 at w = 60 (19·nb/w places) and
# 4.2 at w = 12 (5·nb/w).  40 leaves room for the search over w that pruning adds, so a
# change found anywhere in the run is tested at about its nominal level.
SCAN_PLACES = 40


def _assess(
    scan: _Scan, cps: list[int], i: int, window: int, alpha: float, min_log: float
) -> tuple[float, float, float, int]:
    """(step net of drift, z, threshold ratio, w) of change ``cps[i]`` with windows bounded by
    its neighbours; the ratio is ≥ 1 when it passes both the significance threshold (corrected
    for the places a change could have been found) and the minimum effect."""
    nb = len(scan.s)
    prev = cps[i - 1] if i > 0 else 0
    nxt = cps[i + 1] if i + 1 < len(cps) else nb
    t = cps[i]
    w = min(window, t - prev, nxt - t)
    drift, sd = scan.null(w, t)
    c = scan.step(t, w) - drift
    z = abs(c) / sd if sd > 0 else np.inf
    crit = stats.norm.isf(alpha / 2 / max(SCAN_PLACES * nb / w, 1.0))
    return c, z, min(z / crit, abs(c) / min_log if min_log > 0 else np.inf), w


def _segment(
    signal: np.ndarray, penalty: float, min_size: int, window: int, alpha: float, min_log: float
) -> list[tuple[int, float, float, float, int]]:
    """Changes of one block signal: (block index, step, z, drift over the window, w) each.

    Candidates come from exact penalised least squares (PELT) with a deliberately low penalty
    (``penalty`` · log(blocks) · σ̂², σ̂ from the MAD of differences): on a drifting or slowly
    wandering series it proposes a staircase.  Candidates are then removed, weakest first,
    until every one left is a local step that is significant against the series' own null
    spread and at least ``min_log`` (log scale) beyond the drift."""
    import ruptures as rpt

    nb = len(signal)
    if nb < 2 * min_size + 1:
        return []
    sigma = stats.median_abs_deviation(np.diff(signal), scale="normal") / np.sqrt(2)
    if sigma == 0:
        sigma = float(np.std(signal)) or 1e-6
    y = _clean(signal, min_size, sigma)
    window = int(min(window, (nb - 1) // 4))
    if window < min_size:
        return []
    algo = rpt.KernelCPD(kernel="linear", min_size=min_size).fit(y.reshape(-1, 1))
    cps = [int(b) for b in algo.predict(pen=penalty * np.log(nb) * sigma**2)[:-1]]
    scan = _Scan(y)
    ratios = [_assess(scan, cps, i, window, alpha, min_log)[2] for i in range(len(cps))]
    while cps:
        weakest = int(np.argmin(ratios))
        if ratios[weakest] >= 1:
            break
        del cps[weakest], ratios[weakest]
        for i in (weakest - 1, weakest):  # only the neighbours' windows changed
            if 0 <= i < len(cps):
                ratios[i] = _assess(scan, cps, i, window, alpha, min_log)[2]
    out = []
    for i, t in enumerate(cps):
        c, z, _, w = _assess(scan, cps, i, window, alpha, min_log)
        out.append((t, c, z, scan.null(w, t)[0], w))
    return out


def change_points(
    samples: pd.DataFrame,
    *,
    metric: str = "rtt",
    block: int = 10,
    penalty: float = 3.0,
    min_blocks: int = 5,
    kinds: Sequence[str] = ("level", "dispersion"),
    min_effect: float = 0.05,
    min_effect_dispersion: float = 0.25,
    window: int = 60,
    alpha: float = 0.05,
    level: float = 0.95,
) -> pd.DataFrame:
    """Changes of level (median) and dispersion (IQR) in each run, one row per change.

    A change must be a local step: the mean of up to ``window`` block values after it
    against those before, net of the drift the series shows over as many blocks, at least
    ``min_effect`` (level; ``min_effect_dispersion`` for the IQR) and significant at ``alpha``
    for the whole run against the series' own noise and autocorrelation.  ``magnitude`` is
    that step as a ratio (after / before) with a ``level`` interval; ``before``/``after``/
    ``ratio`` are the medians (or IQRs) of the whole segments on either side."""
    level = check_level(level)
    column, unit = metric_column(metric)
    check_basis(samples, metric)
    tcol = _time_column(samples)
    zq = stats.norm.ppf((1 + level) / 2)
    out = []
    for run_id, part in ordered(samples).groupby("run_id", sort=True):
        ok = _ok_frame(part, column)
        x = ok[column].to_numpy(dtype=float)
        nb = len(x) // block
        if nb < 2 * min_blocks + 1:
            continue
        signals = _block_signals(x, nb, block)
        for kind in kinds:
            effect = min_effect if kind == "level" else min_effect_dispersion
            found = _segment(signals[kind], penalty, min_blocks, window, alpha, np.log1p(effect))
            for change in _measure_changes(x, found, nb, block, kind, zq):
                i = change["index"]
                out.append(
                    {
                        **change,
                        "run_id": run_id,
                        "kind": kind,
                        "seq": ok["seq"].iloc[i],
                        "time_ns": ok[tcol].iloc[i] if tcol else pd.NA,
                        "level": level,
                        "statistic": "median" if kind == "level" else "iqr",
                        "unit": unit,
                        "block": block,
                        "penalty": penalty,
                        "min_effect": effect,
                        "method": _CP_METHOD.format("medians" if kind == "level" else "log IQR"),
                    }
                )
    return pd.DataFrame(out, columns=CP_COLUMNS)


_CP_METHOD = (
    "PELT (ruptures KernelCPD linear) candidates on block {} of log values, kept "
    "when the local step net of drift passes the minimum effect and a "
    "run-wide test against the series' own noise (MAD of local steps)"
)


def _block_signals(x: np.ndarray, nb: int, block: int) -> dict[str, np.ndarray]:
    """The ``level`` (median) and ``dispersion`` (log IQR) of log values in ``nb`` blocks."""
    y = np.log(np.clip(x[: nb * block], 1e-12, None)).reshape(nb, block)
    q1, med, q3 = np.quantile(y, [0.25, 0.5, 0.75], axis=1)
    return {"level": med, "dispersion": np.log(np.maximum(q3 - q1, 1e-9))}


def _measure_changes(
    x: np.ndarray,
    found: list[tuple[int, float, float, float, int]],
    nb: int,
    block: int,
    kind: str,
    zq: float,
) -> list[dict]:
    """Each change ``found`` in one signal: the whole segments either side and the step's ratio."""
    edges = [0, *(f[0] for f in found), nb]
    stat = np.median if kind == "level" else stats.iqr
    out = []
    for j, (cp, c, z, drift, w) in enumerate(found):
        b = float(stat(x[edges[j] * block : cp * block]))
        a = float(stat(x[cp * block : edges[j + 2] * block]))
        sd = abs(c) / z if np.isfinite(z) and z > 0 else 0.0
        out.append(
            {
                "index": cp * block,
                "before": b,
                "after": a,
                "change": a - b,
                "ratio": a / b if b else np.nan,
                "magnitude": float(np.exp(c)),
                "ci_low": float(np.exp(c - zq * sd)),
                "ci_high": float(np.exp(c + zq * sd)),
                "z": z,
                "drift_ratio": float(np.exp(drift)),
                "window": w * block,
            }
        )
    return out


# ---------------------------------------------------------------------------------------------
# Seed 004: the last records before the break


def _segment_row(run_id, x, first, last, label, level, vif) -> dict:
    n = len(x)
    m = float(x.mean())
    half = (
        stats.t.ppf((1 + level) / 2, n - 1) * x.std(ddof=1) * np.sqrt(vif / n) if n > 1 else np.nan
    )
    return {
        "run_id": run_id,
        "segment": label,
        "from_end_first": first,
        "from_end_last": last,
        "n": n,
        "mean": m,
        "median": float(np.median(x)),
        "mean_ci_low": m - half,
        "mean_ci_high": m + half,
    }


def last_records_before_break(
    samples: pd.DataFrame,
    runs: pd.DataFrame | None = None,
    *,
    metric: str = "rtt",
    n_last: int = 500,
    segment: int = 100,
    at: str = "end",
    level: float = 0.95,
) -> pd.DataFrame:
    """Segments of the last ``n_last`` observations before each run's break.

    ``at="end"``: the run's last observations (an echo run ends when its connection breaks);
    ``at="first_break"``: those before the first gap, loss burst or drop found by ``breaks``.
    The last row of each run compares the final segment with the one before it."""
    level = check_level(level)
    if at not in ("end", "first_break"):
        raise ValueError(f"at must be 'end' or 'first_break', got {at!r}")
    for name, value in (("n_last", n_last), ("segment", segment)):
        # whole[-0:] is the whole run: n_last=0 examined every record, not none
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
            raise ValueError(f"{name} must be a whole number of records, 1 or more, got {value!r}")
    column, unit = metric_column(metric)
    check_basis(samples, metric)
    found = breaks(samples, runs) if at == "first_break" else None
    out = []
    for run_id, part in ordered(samples).groupby("run_id", sort=True):
        if found is not None:
            mine = found[found["run_id"] == run_id]
            if len(mine):
                stop = mine["start_seq"].min()
                part = part[part["seq"] <= stop]
        whole = observations(part, column).values
        out.extend(_last_segments(run_id, whole, n_last, segment, level))
    cols = [
        "run_id",
        "segment",
        "from_end_first",
        "from_end_last",
        "n",
        "mean",
        "median",
        "mean_ci_low",
        "mean_ci_high",
        "change_vs_previous",
        "change_ci_low",
        "change_ci_high",
        "vif",
    ]
    result = pd.DataFrame(out).reindex(columns=cols)
    result["unit"], result["level"] = unit, level
    result["method"] = (
        "segment means, Student t; change: Welch t; both widened by the run's "
        "variance inflation (batch means) when it is autocorrelated"
    )
    return result


def _last_segments(
    run_id, whole: np.ndarray, n_last: int, segment: int, level: float
) -> list[dict]:
    """The segment rows of one run's last ``n_last`` values, the final one with its change."""
    # Dependence is measured on the run before the examined window when there is enough
    # of it: a change just before the break (the thing studied) would inflate it.
    earlier = whole[:-n_last]
    vif = _run_vif(earlier if len(earlier) >= 4 * dep.MIN_N else whole)
    x = whole[-n_last:]
    k = len(x)
    rows = []
    for j in range(-(-k // segment) - 1, -1, -1):  # segments aligned on the break
        first, last = min((j + 1) * segment, k), j * segment + 1
        seg = x[k - first : k - last + 1]
        label = f"Last {first} records" if last == 1 else f"Records {first}-{last}"
        rows.append(_segment_row(run_id, seg, first, last, label, level, vif))
    if len(rows) >= 2:
        prev, final = (
            x[k - rows[-2]["from_end_first"] : k - rows[-2]["from_end_last"] + 1],
            x[k - rows[-1]["from_end_first"] :],
        )
        diff, lo, hi = _welch(final, prev, level, vif)
        rows[-1].update(change_vs_previous=diff, change_ci_low=lo, change_ci_high=hi)
    for r in rows:
        r["vif"] = vif
    return rows


def _run_vif(x: np.ndarray) -> float:
    """Variance inflation of a mean of consecutive packets, from the whole run (batch means);
    1 when the run shows no autocorrelation.

    The larger of the values' and their ranks' inflation: a few spikes (0.1 % of packets ×100)
    dominate the values' variance and, being independent, pull the values' ratio to 1 while
    the body between them stays correlated; a segment without a spike then got an interval
    too narrow (false changes in 16 % of stationary φ = 0.5 runs).  Ranks keep the body's
    memory."""
    if len(x) < dep.MIN_N or not dep.assess(x).detected:
        return 1.0
    b = dep.n_batches(len(x))
    out = 1.0
    for y in (x, dep.centred_ranks(x)):
        var = float(np.var(y, ddof=1))
        if var > 0:
            out = max(out, dep.long_run_variance(y, b) / var)
    return out


def _welch(a: np.ndarray, b: np.ndarray, level: float, vif: float = 1.0):
    """Difference of means a − b with a Welch interval, its standard error scaled by √vif."""
    diff = float(a.mean() - b.mean())
    if len(a) < 2 or len(b) < 2:
        return diff, np.nan, np.nan
    va, vb = a.var(ddof=1) / len(a), b.var(ddof=1) / len(b)
    se = np.sqrt((va + vb) * vif)
    df = (va + vb) ** 2 / (va**2 / (len(a) - 1) + vb**2 / (len(b) - 1)) if va + vb > 0 else 1
    half = stats.t.ppf((1 + level) / 2, df) * se
    return diff, diff - half, diff + half
