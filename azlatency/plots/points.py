"""Categories: a value with its interval per category, and counts per category."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.axes import Axes

from ._labels import latency_label


def point_intervals(
    data: pd.DataFrame,
    *,
    x: str = "label",
    y: str = "estimate",
    low: str | None = "ci_low",
    high: str | None = "ci_high",
    hue: str | None = None,
    basis: str | None = "rtt",
    unit: str = "us",
    ylabel: str | None = None,
    log_y: bool = True,
    hollow: str | None = None,
    ax: Axes | None = None,
    **kwargs,
) -> Axes:
    """A dot per category of ``x`` (and ``hue``) with its interval as a whisker.

    Categories keep their order of first appearance.  A row without an interval gets no
    whisker (a printed statistic has none); rows where the boolean column ``hollow`` is true
    are drawn as open markers (e.g. printed values, to set them apart from estimates with an
    interval).  The y label states basis and unit unless ``ylabel`` is given.
    """
    ax = ax if ax is not None else plt.gca()
    cats = list(dict.fromkeys(data[x].astype(str)))
    pos = {c: i for i, c in enumerate(cats)}
    hues = list(dict.fromkeys(data[hue].astype(str))) if hue else [None]
    step = 0.6 / max(len(hues), 1)
    for k, h in enumerate(hues):
        part = data if h is None else data[data[hue].astype(str) == h]
        xs = np.array([pos[c] for c in part[x].astype(str)], dtype=float)
        xs += (k - (len(hues) - 1) / 2) * step if len(hues) > 1 else 0.0
        ys = part[y].to_numpy(dtype="float64", na_value=np.nan)
        yerr = None
        if low and high and low in part and high in part:
            lo = part[low].to_numpy(dtype="float64", na_value=np.nan)
            hi = part[high].to_numpy(dtype="float64", na_value=np.nan)
            yerr = np.nan_to_num(np.vstack([ys - lo, hi - ys]), nan=0.0)
        line = ax.errorbar(xs, ys, yerr=yerr, fmt="o", capsize=3, label=h, **kwargs)
        if hollow and hollow in part:
            open_ = part[hollow].fillna(False).to_numpy(dtype=bool)
            if open_.any():
                color = line.lines[0].get_color()
                ax.plot(xs[open_], ys[open_], "o", mfc="white", mec=color, zorder=3)
    ax.set_xticks(range(len(cats)), cats, rotation=20, ha="right")
    ax.set_xlim(-0.5, len(cats) - 0.5)
    if log_y:
        ax.set_yscale("log")
    ax.set_ylabel(ylabel if ylabel is not None else latency_label(basis, unit))
    ax.grid(axis="x", visible=False)
    if hue:
        ax.legend(title=hue, fontsize="small")
    return ax


def count_bars(
    data: pd.DataFrame,
    *,
    y: str = "campaign",
    x: str = "runs",
    hue: str | None = "tool",
    xlabel: str = "Runs",
    ax: Axes | None = None,
    **kwargs,
) -> Axes:
    """Horizontal bars of counts per ``y``, stacked by ``hue`` (e.g. runs per campaign and
    tool); each segment holds one (y, hue) count."""
    ax = ax if ax is not None else plt.gca()
    cats = list(dict.fromkeys(data[y].astype(str)))
    ys = np.arange(len(cats))[::-1]
    pos = dict(zip(cats, ys))
    left = dict.fromkeys(cats, 0.0)
    hues = list(dict.fromkeys(data[hue].astype(str))) if hue else [None]
    for h in hues:
        part = data if h is None else data[data[hue].astype(str) == h]
        cy = part[y].astype(str).tolist()
        width = part[x].to_numpy(dtype="float64")
        start = np.array([left[c] for c in cy])
        ax.barh([pos[c] for c in cy], width, left=start, label=h, **kwargs)
        for c, w in zip(cy, width):
            left[c] += w
    ax.set_yticks(ys, cats)
    ax.set_xlabel(xlabel)
    ax.grid(axis="y", visible=False)
    if hue:
        ax.legend(title=hue, fontsize="small", loc="lower right")
    return ax
