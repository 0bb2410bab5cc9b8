"""Distributions: ECDF, CCDF on log axes, the percentile spectrum in "nines"."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.ticker import FixedLocator, FuncFormatter, NullLocator

from ._axes import hue_title, legend, log_scale, series_style
from ._labels import basis_of, latency_label


def _groups(data: pd.DataFrame, hue: str | None):
    if hue is None:
        yield None, data
    else:
        yield from data.groupby(hue, sort=True, observed=True)


def _values(part: pd.DataFrame, x: str) -> np.ndarray:
    v = part[x].to_numpy(dtype="float64", na_value=np.nan)
    return np.sort(v[np.isfinite(v)])


def _thin(n: int, max_points: int | None) -> np.ndarray:
    """Indices of the sorted values to draw: all of them up to ``max_points``, else evenly
    spaced ranks plus ranks spaced geometrically towards the top, so the tail a CCDF shows
    keeps every extreme point while a million-sample step line stays a few thousand."""
    if max_points is None or n <= max_points:
        return np.arange(n)
    half = max_points // 2
    even = np.linspace(0, n - 1, half).round().astype(int)
    top = n - np.unique(np.geomspace(1, n, half).round().astype(int))
    return np.unique(np.concatenate([even, top, [0, n - 1]]))


def ecdf(
    data: pd.DataFrame,
    *,
    x: str = "rtt_us",
    hue: str | None = None,
    log_x: bool = True,
    complementary: bool = False,
    basis: str | None = None,
    max_points: int | None = 4000,
    ax: Axes | None = None,
    **kwargs,
) -> Axes:
    """Empirical CDF of ``x`` per ``hue`` group (a step line each).

    With ``complementary=True`` the CCDF, P(X > x), on log–log axes: the tail becomes visible.
    Only finite values are drawn (censored / timeout samples carry NaN and are left out).
    A group of more than ``max_points`` values is drawn at a subset of its ranks (every
    extreme one kept; ``None`` draws all): the saved SVG/PDF stay small.
    """
    ax = ax if ax is not None else plt.gca()
    drawn = 0
    for key, part in _groups(data, hue):
        v = _values(part, x)
        if not len(v):
            continue
        n = len(v)
        idx = _thin(n, max_points)
        style = {**series_style(drawn), **kwargs}
        drawn += 1
        if complementary:
            y = 1.0 - (idx + 1) / n
            keep = y > 0  # log axis cannot show the last point (P = 0)
            ax.step(v[idx][keep], y[keep], where="post", label=str(key) if hue else None, **style)
        else:
            y = (idx + 1) / n
            ax.step(v[idx], y, where="post", label=str(key) if hue else None, **style)
    if log_x:
        log_scale(ax, "x")
    if complementary:
        log_scale(ax, "y", plain=False)
        ax.set_ylabel("P(latency > x)")
    else:
        ax.set_ylabel("Cumulative fraction")
    ax.set_xlabel(latency_label(basis or basis_of(x)))
    if hue:
        legend(ax, title=hue_title(hue))
    return ax


def ccdf(
    data: pd.DataFrame, *, x: str = "rtt_us", hue: str | None = None, ax=None, **kwargs
) -> Axes:
    """CCDF on log–log axes (see :func:`ecdf`)."""
    return ecdf(data, x=x, hue=hue, complementary=True, log_x=True, ax=ax, **kwargs)


def nines(q: np.ndarray | float) -> np.ndarray:
    """Quantile → "nines": 0.9 → 1, 0.99 → 2, 0.999 → 3 (p50 → 0.30)."""
    return -np.log10(1.0 - np.asarray(q, dtype="float64"))


def _nines_label(v: float, _pos=None) -> str:
    pct = 100.0 * (1.0 - 10.0 ** (-v))
    return f"{pct:.10g}"


def percentile_spectrum(
    data: pd.DataFrame,
    *,
    q: str = "q",
    y: str = "value",
    low: str | None = "ci_low",
    high: str | None = "ci_high",
    hue: str | None = None,
    basis: str | None = "rtt",
    unit: str = "us",
    log_y: bool = True,
    ax: Axes | None = None,
    **kwargs,
) -> Axes:
    """Percentiles against "nines" (x ticks 50, 90, 99, 99.9, 99.99, 99.999) with interval
    bands where ``low``/``high`` are given; NaN bounds (not estimable) leave gaps in the band.
    """
    ax = ax if ax is not None else plt.gca()
    for i, (key, part) in enumerate(_groups(data, hue)):
        part = part.sort_values(q)
        x = nines(part[q].to_numpy(dtype="float64"))
        yy = part[y].to_numpy(dtype="float64", na_value=np.nan)
        style = {"marker": "o", "ms": 3, **series_style(i), **kwargs}
        (line,) = ax.plot(x, yy, label=str(key) if hue else None, **style)
        if low and high and low in part and high in part:
            lo = part[low].to_numpy(dtype="float64", na_value=np.nan)
            hi = part[high].to_numpy(dtype="float64", na_value=np.nan)
            ax.fill_between(x, lo, hi, color=line.get_color(), alpha=0.2, linewidth=0)
    ticks = [q_ for q_ in (0.5, 0.9, 0.99, 0.999, 0.9999, 0.99999)]
    ax.xaxis.set_major_locator(FixedLocator(nines(ticks)))
    ax.xaxis.set_minor_locator(NullLocator())
    ax.xaxis.set_major_formatter(FuncFormatter(_nines_label))
    ax.set_xlabel("Percentile")
    if log_y:
        log_scale(ax, "y")
    ax.set_ylabel(latency_label(basis, unit))
    if hue:
        legend(ax, title=hue_title(hue))
    return ax
