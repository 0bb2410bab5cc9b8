"""The fleet view of a baseline check: every VM's value with its interval against the target."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.lines import Line2D
from matplotlib.patches import Patch

from ._labels import latency_label

# verdict -> (colour, marker); colour-blind safe (Okabe-Ito) and told apart by marker too
VERDICT_LOOK = {
    "meets": ("#009E73", "o"),
    "fails": ("#D55E00", "X"),
    "inconclusive": ("#7F7F7F", "D"),
    "no data": ("#BBBBBB", "None"),
}
# unit -> (scale divisor, axis unit) for a readable axis
_DISPLAY = {
    "bps": (1e9, "Gbit/s"),
    "bytes/s": (1e6, "MB/s"),
    "io/s": (1e3, "k IOPS"),
    "us": (1.0, "µs"),
}


def display_unit(unit: str, values: np.ndarray) -> tuple[float, str]:
    """(divisor, unit) to draw ``values`` given in ``unit``: Gbit/s, MB/s, k IOPS, µs or ms."""
    scale, shown = _DISPLAY.get(unit, (1.0, unit))
    finite = values[np.isfinite(values)]
    if unit == "us" and finite.size and np.median(np.abs(finite)) >= 1000:
        return 1e3, "ms"
    return scale, shown


# metric name (fio, iperf3) -> what the axis calls it
_NAMES = {
    "iops": "IOPS",
    "disk_bandwidth": "bandwidth",
    "lat": "I/O latency (submission + completion)",
    "clat": "completion latency",
    "throughput_receiver": "throughput at the receiver",
    "throughput_sender": "throughput at the sender",
}


def axis_label(metric: str, stat: str, unit: str) -> str:
    """``rtt``/``half_rtt`` carry their basis; fio's ``iops_read`` reads "read IOPS", iperf3's
    ``throughput_receiver`` "throughput at the receiver"; the unit in parentheses."""
    what = "Mean" if stat == "mean" else stat
    if metric in ("rtt", "half_rtt"):
        return latency_label(metric, unit, what=f"{what} latency")
    if metric in _NAMES:
        return f"{what} {_NAMES[metric]} ({unit})"
    base, _, side = metric.rpartition("_")
    if base in _NAMES and side in ("read", "write", "trim"):
        return f"{what} {side} {_NAMES[base]} ({unit})"
    return f"{what} {metric.replace('_', ' ')} ({unit})"


def fleet(data: pd.DataFrame, *, ax: Axes | None = None, label: str = "vm") -> Axes:
    """One row per VM of one check (``stats.baseline.fleet`` rows): the estimate as a marker
    coloured and shaped by its verdict, its interval as a bar (a printed value with no interval
    is an open marker), the target as a shaded band, and "redeploy?" beside a VM the fleet rule
    names.  The axis says the statistic, the metric (with its basis for latency) and the unit."""
    ax = ax if ax is not None else plt.gca()
    d = data.reset_index(drop=True)
    y = np.arange(len(d))[::-1]
    unit = str(d["unit"].dropna().iloc[0]) if d["unit"].notna().any() else ""
    est = d["estimate"].to_numpy(dtype="float64", na_value=np.nan)
    scale, shown = display_unit(unit, est)
    est = est / scale
    lo = d["ci_low"].to_numpy(dtype="float64", na_value=np.nan) / scale
    hi = d["ci_high"].to_numpy(dtype="float64", na_value=np.nan) / scale
    t_lo = d["target_low"].dropna()
    t_hi = d["target_high"].dropna()
    band = (
        float(t_lo.iloc[0]) / scale if len(t_lo) else -np.inf,
        float(t_hi.iloc[0]) / scale if len(t_hi) else np.inf,
    )
    _target_band(ax, band, est, lo, hi)
    printed = d["evidence"].eq("printed") & d["n_runs"].eq(1)
    for i, row in d.iterrows():
        _vm(ax, row, y[i], est[i], lo[i], hi[i], printed[i])
    ax.set_yticks(y, d[label].astype(str))
    ax.set_ylim(-0.7, len(d) - 0.3)
    stat = str(d["stat"].iloc[0]) if len(d) else "mean"
    ax.set_xlabel(axis_label(str(d["metric"].iloc[0]), stat, shown))
    handles = _handles(d, printed)
    ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False)
    ax.grid(axis="y", visible=False)
    return ax


def _target_band(ax: Axes, band: tuple[float, float], est, lo, hi) -> None:
    """Shade the target ``band`` and set the x range to the values, intervals and band."""
    finite = np.concatenate([v[np.isfinite(v)] for v in (est, lo, hi, np.array(band))])
    if finite.size:
        span = finite.max() - finite.min() or abs(finite.max()) or 1.0
        left, right = finite.min() - 0.08 * span, finite.max() + 0.08 * span
        ax.axvspan(max(band[0], left), min(band[1], right), color="#56B4E9", alpha=0.18, lw=0)
        ax.set_xlim(left, right)


def _vm(ax: Axes, row: pd.Series, y: float, est: float, lo: float, hi: float, printed) -> None:
    """One VM: its interval, its estimate marked by verdict (open when printed), advice."""
    colour, marker = VERDICT_LOOK.get(str(row["verdict"]), VERDICT_LOOK["no data"])
    if not np.isfinite(est):
        ax.text(0.01, y, "no data", transform=ax.get_yaxis_transform(), va="center")
        return
    if np.isfinite(lo) and np.isfinite(hi) and not printed:
        ax.plot([lo, hi], [y, y], color=colour, lw=1.6)
    ax.plot(
        est, y, marker=marker, ms=6, color=colour, mfc="white" if printed else colour, ls="none"
    )
    if bool(row.get("advice")):
        ax.annotate(
            "redeploy?",
            (est, y),
            xytext=(6, 4),
            textcoords="offset points",
            color=colour,
            fontsize="small",
            fontweight="bold",
        )


def _handles(d: pd.DataFrame, printed: pd.Series) -> list:
    """Legend entries: the target, each verdict present, and the open "printed value"."""
    handles = [Patch(color="#56B4E9", alpha=0.3, label=f"target {d['target'].iloc[0]}")]
    for name in ("meets", "fails", "inconclusive"):
        if (d["verdict"].astype(str) == name).any():
            colour, marker = VERDICT_LOOK[name]
            handles.append(Line2D([], [], color=colour, marker=marker, ls="none", label=name))
    if printed.any():
        handles.append(
            Line2D([], [], color="0.3", marker="o", mfc="white", ls="none", label="printed value")
        )
    return handles
