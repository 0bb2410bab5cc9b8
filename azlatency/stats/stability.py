"""Stability over long runs: rolling quantiles, gaps and breaks, change points, and the
"last N records before the break" table of seed 004.

* ``rolling_quantiles`` — quantiles over a trailing time window (or a count of packets),
  pandas' rolling quantile (linear interpolation), per run.
* ``breaks`` — silent stretches (a time gap longer than ``gap_factor`` × the run's median
  interval and ``min_gap_s``), missing sequence numbers, bursts of timeouts/losses, and runs
  that end in a drop (last record not ``ok``, or ``runs.complete`` False).
* ``change_points`` — changes of level and of dispersion.  The series is cut into blocks of
  ``block`` packets; the block medians of log latency (level) and the log of the block
  interquartile ranges (dispersion) are segmented by penalised least squares with ruptures'
  ``KernelCPD(kernel="linear")`` (exact PELT in C: Killick, Fearnhead & Eckley 2012, JASA
  107(500)).  The penalty is ``penalty`` × log(blocks) × σ̂², with σ̂² the long-run variance of
  the residuals of a first pass (batch means), so autocorrelated noise does not pass for
  change.  Blocks make it robust to single spikes and cheap: 40,000 points take well under a
  second.  Medians before and after each change are reported on the original scale.
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

from . import _dependence as dep
from ._common import check_basis, check_level, metric_column, observations, ordered

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


def rolling_quantiles(samples: pd.DataFrame, *, metric: str = "rtt",
                      quantiles: Sequence[float] = (0.5, 0.99), window: str | int = "60s",
                      min_periods: int = 10, step: int = 1) -> pd.DataFrame:
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
            frame = pd.DataFrame({
                "run_id": run_id, "seq": ok["seq"].to_numpy(),
                "time_ns": ok[tcol].to_numpy() if tcol else pd.NA,
                "q": q, "value": v, "window": str(window), "unit": unit})
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
        rows.append({"run_id": run_id, "kind": "gap", "start_seq": seq[i], "end_seq": seq[i + 1],
                     "start_ns": int(t[i]), "end_ns": int(t[i + 1]), "duration_s": dt[i] / 1e9,
                     "n": int(round(dt[i] / typical)) - 1 if typical else 0,
                     "note": f"silent for {dt[i] / 1e9:.3g} s (typical interval "
                             f"{typical / 1e9:.3g} s)"})
    return rows


def _runs_of(mask: np.ndarray) -> list[tuple[int, int]]:
    """(start, end) index pairs (end exclusive) of consecutive True stretches."""
    edges = np.diff(np.concatenate([[0], mask.astype(int), [0]]))
    return list(zip(np.flatnonzero(edges == 1), np.flatnonzero(edges == -1)))


def breaks(samples: pd.DataFrame, runs: pd.DataFrame | None = None, *,
           gap_factor: float = 10.0, min_gap_s: float = 1.0) -> pd.DataFrame:
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
        jumps = np.flatnonzero(np.diff(seq) > 1)
        for i in jumps:
            out.append({"run_id": run_id, "kind": "missing_seq", "start_seq": seq[i],
                        "end_seq": seq[i + 1], "start_ns": times[i] or pd.NA,
                        "end_ns": times[i + 1] or pd.NA, "n": int(seq[i + 1] - seq[i] - 1),
                        "note": "sequence numbers missing from the log"})
        for s, e in _runs_of(np.isin(status, NOT_OK)):
            out.append({"run_id": run_id, "kind": "loss_burst", "start_seq": seq[s],
                        "end_seq": seq[e - 1], "start_ns": times[s] or pd.NA,
                        "end_ns": times[e - 1] or pd.NA, "n": int(e - s),
                        "note": ", ".join(sorted(set(status[s:e])))})
        ends_bad = len(status) and status[-1] in NOT_OK
        flag = complete.get(run_id)
        incomplete = flag is not None and not pd.isna(flag) and not bool(flag)
        if ends_bad or incomplete:
            last_ok = np.flatnonzero(status == "ok")
            i = int(last_ok[-1]) if len(last_ok) else 0
            out.append({"run_id": run_id, "kind": "end", "start_seq": seq[i],
                        "end_seq": seq[-1], "start_ns": times[i] or pd.NA,
                        "end_ns": times[-1] or pd.NA, "n": int(len(seq) - 1 - i),
                        "note": "run ends in a drop" if ends_bad else
                        "run did not complete (the tool's summary is missing)"})
    cols = ["run_id", "kind", "start_seq", "end_seq", "start_ns", "end_ns", "duration_s", "n",
            "note"]
    return pd.DataFrame(out, columns=cols)


# ---------------------------------------------------------------------------------------------
# Change points


def _segment(signal: np.ndarray, penalty: float, min_size: int) -> list[int]:
    """Change indices (block positions) of ``signal`` by penalised least squares, with the
    penalty scaled by the long-run variance of the first pass's residuals."""
    import ruptures as rpt

    nb = len(signal)
    if nb < 2 * min_size + 1:
        return []
    d = np.diff(signal)
    sigma2 = (stats.median_abs_deviation(d, scale="normal") ** 2) / 2
    if sigma2 == 0:
        sigma2 = float(np.var(signal)) or 1e-12
    algo = rpt.KernelCPD(kernel="linear", min_size=min_size).fit(signal.reshape(-1, 1))
    bkps = algo.predict(pen=penalty * np.log(nb) * sigma2)
    resid = signal.copy()
    for s, e in zip([0, *bkps[:-1]], bkps):
        resid[s:e] -= np.median(signal[s:e])
    lrv = dep.long_run_variance(resid, int(np.clip(np.sqrt(nb), 10, 50)))
    if lrv > sigma2:
        bkps = algo.predict(pen=penalty * np.log(nb) * lrv)
    return [int(b) for b in bkps[:-1]]


def change_points(samples: pd.DataFrame, *, metric: str = "rtt", block: int = 10,
                  penalty: float = 3.0, min_blocks: int = 5,
                  kinds: Sequence[str] = ("level", "dispersion")) -> pd.DataFrame:
    """Changes of level (median) and dispersion (IQR) in each run, one row per change."""
    column, unit = metric_column(metric)
    check_basis(samples, metric)
    tcol = _time_column(samples)
    out = []
    for run_id, part in ordered(samples).groupby("run_id", sort=True):
        ok = _ok_frame(part, column)
        x = ok[column].to_numpy(dtype=float)
        nb = len(x) // block
        if nb < 2 * min_blocks + 1:
            continue
        y = np.log(np.clip(x[: nb * block], 1e-12, None)).reshape(nb, block)
        q1, med, q3 = np.quantile(y, [0.25, 0.5, 0.75], axis=1)
        signals = {"level": med, "dispersion": np.log(np.maximum(q3 - q1, 1e-9))}
        for kind in kinds:
            cps = _segment(signals[kind], penalty, min_blocks)
            edges = [0, *cps, nb]
            for j, cp in enumerate(cps):
                before = x[edges[j] * block: cp * block]
                after = x[cp * block: edges[j + 2] * block]
                stat = np.median if kind == "level" else stats.iqr
                b, a = float(stat(before)), float(stat(after))
                i = cp * block
                out.append({
                    "run_id": run_id, "kind": kind, "index": i, "seq": ok["seq"].iloc[i],
                    "time_ns": ok[tcol].iloc[i] if tcol else pd.NA,
                    "before": b, "after": a, "change": a - b,
                    "ratio": a / b if b else np.nan, "statistic": "median" if kind == "level"
                    else "iqr", "unit": unit, "block": block, "penalty": penalty,
                    "method": "PELT (ruptures KernelCPD linear) on block "
                              + ("medians" if kind == "level" else "log IQR") + " of log values"})
    cols = ["run_id", "kind", "index", "seq", "time_ns", "before", "after", "change", "ratio",
            "statistic", "unit", "block", "penalty", "method"]
    return pd.DataFrame(out, columns=cols)


# ---------------------------------------------------------------------------------------------
# Seed 004: the last records before the break


def _segment_row(run_id, x, first, last, label, level, vif) -> dict:
    n = len(x)
    m = float(x.mean())
    half = stats.t.ppf((1 + level) / 2, n - 1) * x.std(ddof=1) * np.sqrt(vif / n) \
        if n > 1 else np.nan
    return {"run_id": run_id, "segment": label, "from_end_first": first,
            "from_end_last": last, "n": n, "mean": m, "median": float(np.median(x)),
            "mean_ci_low": m - half, "mean_ci_high": m + half}


def last_records_before_break(samples: pd.DataFrame, runs: pd.DataFrame | None = None, *,
                              metric: str = "rtt", n_last: int = 500, segment: int = 100,
                              at: str = "end", level: float = 0.95) -> pd.DataFrame:
    """Segments of the last ``n_last`` observations before each run's break.

    ``at="end"``: the run's last observations (an echo run ends when its connection breaks);
    ``at="first_break"``: those before the first gap, loss burst or drop found by ``breaks``.
    The last row of each run compares the final segment with the one before it."""
    level = check_level(level)
    if at not in ("end", "first_break"):
        raise ValueError(f"at must be 'end' or 'first_break', got {at!r}")
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
        # Dependence is measured on the run before the examined window when there is enough
        # of it: a change just before the break (the thing studied) would inflate it.
        earlier = whole[:-n_last]
        vif = _run_vif(earlier if len(earlier) >= 4 * dep.MIN_N else whole)
        x = whole[-n_last:]
        k = len(x)
        rows = []
        for j in range(-(-k // segment) - 1, -1, -1):  # segments aligned on the break
            first, last = min((j + 1) * segment, k), j * segment + 1
            seg = x[k - first: k - last + 1]
            label = f"Last {first} records" if last == 1 else f"Records {first}-{last}"
            rows.append(_segment_row(run_id, seg, first, last, label, level, vif))
        if len(rows) >= 2:
            prev, final = x[k - rows[-2]["from_end_first"]: k - rows[-2]["from_end_last"] + 1], \
                x[k - rows[-1]["from_end_first"]:]
            diff, lo, hi = _welch(final, prev, level, vif)
            rows[-1].update(change_vs_previous=diff, change_ci_low=lo, change_ci_high=hi)
        for r in rows:
            r["vif"] = vif
        out.extend(rows)
    cols = ["run_id", "segment", "from_end_first", "from_end_last", "n", "mean", "median",
            "mean_ci_low", "mean_ci_high", "change_vs_previous", "change_ci_low",
            "change_ci_high", "vif"]
    result = pd.DataFrame(out).reindex(columns=cols)
    result["unit"], result["level"] = unit, level
    result["method"] = ("segment means, Student t; change: Welch t; both widened by the run's "
                        "variance inflation (batch means) when it is autocorrelated")
    return result


def _run_vif(x: np.ndarray) -> float:
    """Variance inflation of a mean of consecutive packets, from the whole run (batch means);
    1 when the run shows no autocorrelation."""
    if len(x) < dep.MIN_N or not dep.assess(x).detected:
        return 1.0
    var = float(np.var(x, ddof=1))
    lrv = dep.long_run_variance(x, dep.n_batches(len(x)))
    return max(1.0, lrv / var) if var > 0 else 1.0


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
