"""Long runs: latency over time with rolling quantiles, change points and breaks."""

from __future__ import annotations

from collections.abc import Sequence

import matplotlib.pyplot as plt
import pandas as pd
from matplotlib.axes import Axes

from ._axes import log_scale
from ._labels import basis_of, latency_label


def _to_datetime(values) -> pd.DatetimeIndex:
    v = pd.Series(values)
    if pd.api.types.is_integer_dtype(v.dtype):
        return pd.DatetimeIndex(pd.to_datetime(v.astype("int64"), unit="ns", utc=True))
    return pd.DatetimeIndex(pd.to_datetime(v, utc=True))


def timeseries(
    data: pd.DataFrame,
    *,
    t: str = "time_ns",
    y: str = "rtt_us",
    rolling: pd.DataFrame | None = None,
    rolling_t: str = "time_ns",
    rolling_cols: Sequence[str] = ("p50", "p99"),
    change_points: Sequence | None = None,
    breaks: Sequence | None = None,
    basis: str | None = None,
    log_y: bool = True,
    ax: Axes | None = None,
    **kwargs,
) -> Axes:
    """Raw observations as faint dots, rolling quantiles as lines, change points as dashed
    vertical lines and connection breaks as red solid lines.  Times are integer ns (UTC) or
    datetimes; the x axis is UTC."""
    ax = ax if ax is not None else plt.gca()
    d = data.dropna(subset=[y])
    ax.plot(
        _to_datetime(d[t]),
        d[y].to_numpy(dtype="float64"),
        ".",
        ms=1.5,
        alpha=0.25,
        color="0.5",
        label="observations",
        rasterized=True,
        **kwargs,
    )
    if rolling is not None and len(rolling):
        rt = _to_datetime(rolling[rolling_t])
        for col in rolling_cols:
            if col in rolling:
                ax.plot(rt, rolling[col].to_numpy(dtype="float64"), lw=1.2, label=f"rolling {col}")
    for i, cp in enumerate(change_points or ()):
        ax.axvline(
            _to_datetime([cp])[0],
            color="#E69F00",
            ls="--",
            lw=1,
            label="change point" if i == 0 else None,
        )
    for i, br in enumerate(breaks or ()):
        ax.axvline(
            _to_datetime([br])[0],
            color="#D55E00",
            lw=1.5,
            label="connection break" if i == 0 else None,
        )
    if log_y:
        log_scale(ax, "y")
    ax.set_ylabel(latency_label(basis or basis_of(y)))
    ax.set_xlabel("Time (UTC)")
    ax.legend(loc="upper left", fontsize="small")
    if not len(d):
        ax.text(0.5, 0.5, "no observations", transform=ax.transAxes, ha="center")
    return ax
