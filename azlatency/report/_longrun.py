"""Long runs: which runs are long, and the printed "last records before the break" tables."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd

from .. import stats
from ..schema import Tables, pct_label
from ._data import labels, latency_runs, subset, synthetic
from ._show import counted, fmt

_RANGE = re.compile(r"(\d+)\s*[-–]\s*(\d+)")
_LAST = re.compile(r"last\s+(\d+)", re.I)
SEGMENT_COLUMNS = [
    "campaign",
    "scenario",
    "run_id",
    "segment",
    "from_end_first",
    "from_end_last",
    "n",
    "mean",
    "mean_ci_low",
    "mean_ci_high",
    "source",
]


def long_runs(tables: Tables, *, min_hours: float = 1.0) -> pd.DataFrame:
    """Latency runs with timed samples spanning at least ``min_hours``, longest first, with
    ``span_h`` and ``n_samples`` columns."""
    cols = [*tables.runs.columns, "span_h", "n_samples"]
    s = tables.samples
    tcol = next(
        (c for c in ("time_ns", "tx_time_ns") if c in s.columns and s[c].notna().any()), None
    )
    runs = latency_runs(tables.runs, windows=True)
    if tcol is None or runs.empty:
        return pd.DataFrame(columns=cols)
    s = s[s["run_id"].isin(runs["run_id"]) & s[tcol].notna()]
    t = s.groupby("run_id")[tcol].agg(["min", "max", "size"])
    t["span_h"] = (t["max"] - t["min"]).astype("float64") / 3.6e12
    out = runs.merge(
        t[["span_h", "size"]].rename(columns={"size": "n_samples"}),
        left_on="run_id",
        right_index=True,
    )
    out = out[out["span_h"] >= min_hours].sort_values("span_h", ascending=False)
    return out.reindex(columns=cols).reset_index(drop=True)


def _window(text: str) -> tuple[float, float]:
    m = _RANGE.search(text)
    if m:
        return float(m[1]), float(m[2])
    m = _LAST.search(text)
    if m:
        return float(m[1]), 1.0
    return np.nan, np.nan


def reported_segments(tables: Tables, *, metric: str = "rtt") -> pd.DataFrame:
    """Printed means of the last records before a break (runs labelled ``window``, seed 004),
    in the shape of ``stats.last_records_before_break`` so both draw alike; the printed
    tables carry no spread, so there is no interval."""
    runs = tables.runs[tables.runs["parser_variant"] == "reported-csv"]
    lab = labels(runs)
    if "window" not in lab.columns:
        return pd.DataFrame(columns=SEGMENT_COLUMNS)
    runs = runs.assign(window=lab["window"]).dropna(subset=["window"])
    s = tables.summaries[
        (tables.summaries["metric"] == metric) & (tables.summaries["stat"] == "mean")
    ]
    rows = []
    for r in runs.merge(s[["run_id", "value", "n"]], on="run_id").itertuples(index=False):
        first, last = _window(r.window)
        rows.append(
            {
                "campaign": r.campaign,
                "scenario": r.scenario,
                "run_id": r.run_id,
                "segment": r.window,
                "from_end_first": first,
                "from_end_last": last,
                "n": r.n,
                "mean": r.value,
                "mean_ci_low": np.nan,
                "mean_ci_high": np.nan,
                "source": "reported",
            }
        )
    out = pd.DataFrame(rows, columns=SEGMENT_COLUMNS)
    return out.sort_values(
        ["campaign", "scenario", "from_end_first"], ascending=[True, True, False]
    ).reset_index(drop=True)


def segment_label(first: float, last: float) -> str:
    """``(500, 401)`` → ``'500–401'``, ``(100, 1)`` → ``'last 100'``: one x axis for printed
    and computed segments."""
    return f"last {int(first)}" if last == 1 else f"{int(first)}–{int(last)}"


# ---------------------------------------------------------------------------------------------
# Sessions: the runs of one long measurement (a connection that broke and was restarted is
# two runs, and the client's log of the drop a third)

SESSION = ("campaign", "scenario", "src_host", "dst_host", "tool")
EVENT_KINDS = ("gap", "loss_burst", "end")


def sessions(tables: Tables, *, min_hours: float = 1.0) -> list[tuple[str, pd.DataFrame]]:
    """(name, runs) per session holding a long run: every latency run that shares its
    campaign, scenario, hosts and tool, so a break between two runs is seen."""
    long = long_runs(tables, min_hours=min_hours)
    runs = latency_runs(tables.runs, windows=True)
    cols = [c for c in SESSION if c in runs.columns]
    out = []
    for key, g in long.groupby(cols, dropna=False, sort=True):
        key = key if isinstance(key, tuple) else (key,)
        mask = np.ones(len(runs), dtype=bool)
        for c, v in zip(cols, key):
            mask &= runs[c].isna().to_numpy() if pd.isna(v) else runs[c].eq(v).fillna(False)
        name = " · ".join(
            str(v) for c, v in zip(cols, key) if not pd.isna(v) and c in ("scenario", "tool")
        )
        if "src_host" in cols and not pd.isna(g["src_host"].iloc[0]):
            name += f" ({g['src_host'].iloc[0]} → {g['dst_host'].iloc[0]})"
        out.append((name, runs[mask].reset_index(drop=True)))
    return out


def break_times(events: pd.DataFrame) -> list[int]:
    """Start times (ns) of the connection breaks in a ``stats.breaks`` frame: gaps, bursts of
    timeouts or drops, runs that ended in a drop — one per distinct time."""
    e = events[events["kind"].isin(EVENT_KINDS)].dropna(subset=["start_ns"])
    return sorted({int(x) for x in e["start_ns"]})


def broken_runs(samples: pd.DataFrame, times: list[int], *, within_s: float = 60.0) -> list[str]:
    """Runs whose last observation comes at most ``within_s`` before a break: their last
    records are the ones "before the break" (seed 004)."""
    ok = samples[samples["status"].astype(str).eq("ok")]
    tcol = "time_ns" if "time_ns" in ok.columns and ok["time_ns"].notna().any() else "tx_time_ns"
    last = ok.groupby("run_id")[tcol].max()
    out = []
    for run_id, t_end in last.items():
        if any(0 <= b - int(t_end) <= within_s * 1e9 for b in times):
            out.append(str(run_id))
    return out


def rolling_wide(rolling: pd.DataFrame) -> pd.DataFrame:
    """``stats.rolling_quantiles`` output as columns ``p50``, ``p99``, ... per time, with an
    empty row between runs so a line does not bridge a break."""
    if rolling.empty:
        return pd.DataFrame(columns=["time_ns"])
    w = rolling.pivot_table(index=["run_id", "time_ns"], columns="q", values="value")
    w.columns = [pct_label(q) for q in w.columns]
    parts = []
    for _, g in w.reset_index().groupby("run_id", sort=False):
        g = g.sort_values("time_ns")
        parts.append(g)
        parts.append(pd.DataFrame({"time_ns": [int(g["time_ns"].iloc[-1]) + 1]}))
    out = pd.concat(parts, ignore_index=True).drop(columns="run_id")
    return out.sort_values("time_ns", kind="stable").reset_index(drop=True)


def analyse_session(
    tables: Tables, name: str, runs: pd.DataFrame, *, window: str = "10min", step: int = 30
) -> dict:
    """Everything the long-run report shows for one session: its ``ok`` samples, the breaks
    (``stats.breaks``) and their times, change points in time order (``stats.change_points``)
    and rolling p50/p99 (``stats.rolling_quantiles``, every ``step``-th point, wide)."""

    sub = subset(tables, runs)
    basis = runs["latency_basis"].mode().iloc[0]
    events = stats.breaks(sub.samples, sub.runs)
    ok = sub.samples[sub.samples["status"].astype(str).eq("ok")]
    changes = stats.change_points(ok, metric=basis).sort_values("time_ns", ignore_index=True)
    rolling = rolling_wide(stats.rolling_quantiles(ok, metric=basis, window=window, step=step))
    return {
        "name": name,
        "runs": runs,
        "basis": basis,
        "samples": ok,
        "events": events,
        "breaks": break_times(events),
        "changes": changes,
        "rolling": rolling,
        "synthetic": bool(synthetic(runs)),
    }


def session_words(r: dict) -> str:
    """'1 break (at 17:15 UTC); level change +12.3 µs at 10:40 UTC': a session's breaks and
    change points (:func:`analyse_session`'s ``r``), as page 30 and a stability answer say
    them."""
    changes = ", ".join(
        f"{c.kind} change {'+' if c.change >= 0 else '−'}{fmt(abs(c.change))} at "
        f"{pd.Timestamp(int(c.time_ns), unit='ns', tz='UTC'):%H:%M} UTC"
        for c in r["changes"].itertuples()
    )
    at = ", ".join(f"{pd.Timestamp(int(b), unit='ns', tz='UTC'):%H:%M}" for b in r["breaks"])
    breaks = counted(len(r["breaks"]), "break") + (f" (at {at} UTC)" if at else "")
    return f"{breaks}; {changes or 'no change point'}"


def span_words(hours: float) -> str:
    """'10 s', '25 min', '3.5 h': how long a run's timed samples span."""
    if hours >= 1:
        return f"{hours:.3g} h"
    return f"{hours * 60:.3g} min" if hours >= 1 / 60 else f"{hours * 3600:.3g} s"


def before_breaks(
    tables: Tables,
    sessions: list[dict],
    *,
    n_last: int = 500,
    segment: int = 100,
    level: float = 0.95,
) -> pd.DataFrame:
    """``stats.last_records_before_break`` for every run of the ``sessions``
    (:func:`analyse_session` results) that ended in a break, in the shape of
    :func:`reported_segments`."""

    parts = []
    for s in sessions:
        samples = tables.samples[tables.samples["run_id"].isin(s["runs"]["run_id"])]
        broken = broken_runs(samples, s["breaks"])
        if not broken:
            continue
        seg = stats.last_records_before_break(
            samples[samples["run_id"].isin(broken)],
            metric=s["basis"],
            n_last=n_last,
            segment=segment,
            level=level,
        )
        parts.append(
            seg.assign(campaign=s["runs"]["campaign"].iloc[0], scenario=s["name"], source="samples")
        )
    if not parts:
        return pd.DataFrame(columns=SEGMENT_COLUMNS)
    return pd.concat(parts, ignore_index=True)


def segments(*frames: pd.DataFrame) -> pd.DataFrame:
    """Printed and computed segment tables together, with a ``window`` label for the x axis
    and a ``series`` label (campaign · scenario)."""
    frames = [f for f in frames if len(f)]
    if not frames:
        return pd.DataFrame(columns=[*SEGMENT_COLUMNS, "window", "series"])
    both = pd.concat(frames, ignore_index=True)
    both["window"] = [
        segment_label(a, b) for a, b in zip(both["from_end_first"], both["from_end_last"])
    ]
    both["series"] = both["campaign"].astype(str) + " · " + both["scenario"].astype(str)
    return both
