"""Categories: a value with its interval per category, and counts per category."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.axes import Axes

from ._axes import hue_title, legend, log_scale, series_colour, series_style, whiskers
from ._labels import latency_label

# point_intervals(orient="auto") lists categories down the left past these.
AUTO_H_CATEGORIES = 8
AUTO_H_CHARS = 24


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
    orient: str = "auto",
    bound_low: str | None = "bound_low",
    bound_high: str | None = "bound_high",
    ax: Axes | None = None,
    **kwargs,
) -> Axes:
    """A dot per category of ``x`` (and ``hue``) with its interval as a whisker.

    Categories keep their order of first appearance.  A row without an interval gets no
    whisker (a printed statistic has none); rows where the boolean column ``hollow`` is true
    are drawn as open markers (e.g. printed values, to set them apart from estimates with an
    interval).  The value axis states basis and unit unless ``ylabel`` is given.

    A row without a value is not left blank: when the columns ``bound_low`` / ``bound_high``
    bound it (a median among censored replies, ``time<1ms``: below 1000 µs) a caret sits at
    the bound, pointing the way the value lies, with the bound in words (``< 1000``), or a bar
    spans both bounds; a row with no bound either says "no value".

    ``orient="h"`` lists the categories down the left, first at the top, with the values
    along x (``log_y`` and ``ylabel`` then describe that axis): the way to show many or long
    labels, in a figure :func:`rows_height` tall.  ``"auto"`` (the default) chooses it when
    there are more than :data:`AUTO_H_CATEGORIES` categories or a label longer than
    :data:`AUTO_H_CHARS` characters; ``"v"`` keeps them along x.
    """
    ax = ax if ax is not None else plt.gca()
    cats = list(dict.fromkeys(data[x].astype(str)))
    flip = _across(cats, orient)
    pos = {c: (len(cats) - 1 - i if flip else i) for i, c in enumerate(cats)}
    hues = list(dict.fromkeys(data[hue].astype(str))) if hue else [None]
    step = 0.6 / max(len(hues), 1)
    for k, h in enumerate(hues):
        part = data if h is None else data[data[hue].astype(str) == h]
        at = np.array([pos[c] for c in part[x].astype(str)], dtype=float)
        shift = (k - (len(hues) - 1) / 2) * step if len(hues) > 1 else 0.0
        at += -shift if flip else shift
        _series(
            ax,
            part,
            at,
            k,
            h,
            y=y,
            low=low,
            high=high,
            flip=flip,
            hollow=hollow,
            bounds=(bound_low, bound_high),
            kwargs=kwargs,
        )
    label = ylabel if ylabel is not None else latency_label(basis, unit)
    _axes(ax, cats, flip, label, log_y)
    if hue:
        legend(ax, title=hue_title(hue), fontsize="small")
    return ax


def _across(cats: list[str], orient: str) -> bool:
    """Whether ``point_intervals`` lists the categories down the left (``orient`` "h", or
    "auto" with many or long categories)."""
    if orient == "auto":
        long = max((len(c) for c in cats), default=0) > AUTO_H_CHARS
        orient = "h" if len(cats) > AUTO_H_CATEGORIES or long else "v"
    if orient not in ("h", "v"):
        raise ValueError(f"orient must be 'auto', 'h' or 'v', got {orient!r}")
    return orient == "h"


def _axes(ax: Axes, cats: list[str], flip: bool, label: str, log_y: bool) -> None:
    """The category axis (down the left when ``flip``, first at the top) and the value axis
    with its ``label``, logarithmic when ``log_y``."""
    if flip:
        ax.set_yticks(range(len(cats))[::-1], cats)
        ax.set_ylim(-0.5, len(cats) - 0.5)
        value_axis, set_label, cat_grid = "x", ax.set_xlabel, "y"
    else:
        ax.set_xticks(range(len(cats)), cats, rotation=20, ha="right")
        ax.set_xlim(-0.5, len(cats) - 0.5)
        value_axis, set_label, cat_grid = "y", ax.set_ylabel, "x"
    if log_y:
        log_scale(ax, value_axis)
    set_label(label)
    ax.grid(axis=cat_grid, visible=False)


def _series(
    ax: Axes,
    part: pd.DataFrame,
    at: np.ndarray,
    k: int,
    h: str | None,
    *,
    y: str,
    low: str | None,
    high: str | None,
    flip: bool,
    hollow: str | None,
    bounds: tuple[str | None, str | None],
    kwargs: dict,
) -> None:
    """One hue of ``point_intervals`` at positions ``at``: dots and whiskers (``kwargs`` go
    to ``errorbar``), the rows without a value, and open markers over the ``hollow`` rows."""
    vals = part[y].to_numpy(dtype="float64", na_value=np.nan)
    err = whiskers(part, vals, low, high)
    # The colour is set, not drawn from the axes' cycle: the open markers below would
    # advance the cycle, and two series would share a look.
    marker, color = series_style(k, dots=True)["marker"], series_colour(k)
    style = {
        "marker": marker,
        "color": color,
        "linestyle": "none",
        "capsize": 3,
        "label": h,
        **kwargs,
    }
    if flip:
        line = ax.errorbar(vals, at, xerr=err, **style)
    else:
        line = ax.errorbar(at, vals, yerr=err, **style)
    ranged = _published_ranges(part, vals, err, *bounds)
    if np.isnan(vals).any() or ranged.any():
        color = line.lines[0].get_color()  # as given, unless kwargs named one
        _without_value(ax, part, at, vals, flip, color, *bounds, ranged=ranged)
    if hollow and hollow in part:
        open_ = part[hollow].fillna(False).to_numpy(dtype=bool)
        if open_.any():
            color = line.lines[0].get_color()
            xy = (vals[open_], at[open_]) if flip else (at[open_], vals[open_])
            ax.plot(*xy, marker=marker, ls="none", color=color, mfc="white", mec=color, zorder=3)


def _column(part: pd.DataFrame, name: str | None) -> np.ndarray:
    if name and name in part:
        return part[name].to_numpy(dtype="float64", na_value=np.nan)
    return np.full(len(part), np.nan)


def _published_ranges(
    part: pd.DataFrame, vals: np.ndarray, err: np.ndarray | None, low: str | None, high: str | None
) -> np.ndarray:
    """Rows with a value, no interval and two bounds apart: a value the source gives only as a
    range (seed 002's "54 to 57 usec", kept as its high end), drawn with its range."""
    lows, highs = _column(part, low), _column(part, high)
    no_whisker = np.ones(len(part), bool) if err is None else (err == 0).all(axis=0)
    return np.isfinite(vals) & np.isfinite(lows) & np.isfinite(highs) & (lows < highs) & no_whisker


def _without_value(
    ax: Axes,
    part: pd.DataFrame,
    at: np.ndarray,
    vals: np.ndarray,
    flip: bool,
    color,
    low: str | None,
    high: str | None,
    ranged: np.ndarray | None = None,
) -> None:
    """The rows of ``part`` without a value: what their bounds say, or "no value"; and the
    ``ranged`` rows' published ranges (a bar from bound to bound)."""
    lows, highs = _column(part, low), _column(part, high)
    also = np.zeros(len(part), bool) if ranged is None else ranged
    for i in np.flatnonzero(np.isnan(vals) | also):
        a, lo, hi = at[i], lows[i], highs[i]
        lo = lo if np.isfinite(lo) and lo > 0 else np.nan  # 0 is no bound on a latency
        if np.isfinite(lo) and np.isfinite(hi):
            xs, text, where = [lo, hi], f"{lo:g}–{hi:g}", hi
            marker = "|" if flip else "_"  # caps across the bar
        elif np.isfinite(hi) or np.isfinite(lo):
            where = hi if np.isfinite(hi) else lo
            xs, text = [where], f"< {hi:g}" if np.isfinite(hi) else f"> {lo:g}"
            marker = ("<" if flip else "v") if np.isfinite(hi) else (">" if flip else "^")
        else:
            # x in axes fractions along the value axis, y at the category (or the reverse)
            how = ax.get_yaxis_transform() if flip else ax.get_xaxis_transform()
            xy = (0.01, a) if flip else (a, 0.01)
            ax.annotate(
                "no value",
                xy,
                xycoords=how,
                ha="left" if flip else "center",
                va="center" if flip else "bottom",
                fontsize="small",
                color="0.4",
            )
            continue
        ys = [a] * len(xs)
        ax.plot(*((xs, ys) if flip else (ys, xs)), marker=marker, color=color, lw=1, gid="bound")
        ax.annotate(
            text,
            (where, a) if flip else (a, where),
            xytext=(5, 0) if flip else (0, 5),
            textcoords="offset points",
            ha="left" if flip else "center",
            va="center" if flip else "bottom",
            fontsize="small",
            color=color,
        )


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
    for k, h in enumerate(hues):
        part = data if h is None else data[data[hue].astype(str) == h]
        cy = part[y].astype(str).tolist()
        width = part[x].to_numpy(dtype="float64")
        start = np.array([left[c] for c in cy])
        style = {**series_style(k, bars=True), **kwargs}
        ax.barh([pos[c] for c in cy], width, left=start, label=h, **style)
        for c, w in zip(cy, width):
            left[c] += w
    ax.set_yticks(ys, cats)
    ax.set_xlabel(xlabel)
    ax.grid(axis="y", visible=False)
    if hue:
        ax.legend(title=hue, fontsize="small", loc="lower right")
    return ax
