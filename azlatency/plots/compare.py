"""Comparisons: forest plot of effects, throughput bars, latency against message size."""

from __future__ import annotations

import textwrap

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.axes import Axes

from ._axes import hue_title, legend, log_scale, plain_log, series_style, whiskers
from ._labels import latency_label, throughput_label


def forest(
    data: pd.DataFrame,
    *,
    label: str = "comparison",
    effect: str = "estimate",
    low: str = "ci_low",
    high: str = "ci_high",
    p: str | None = "p_adjusted",
    testable: str | None = "testable",
    reference: float = 1.0,
    xlabel: str = "Ratio of medians (B / A)",
    log_x: bool = True,
    wrap: int | None = None,
    ax: Axes | None = None,
    **kwargs,
) -> Axes:
    """One row per comparison: the effect as a dot, its interval as a bar, the adjusted
    p-value at the right margin, a vertical line at ``reference`` (1 for ratios, 0 for shifts).
    Where the ``testable`` column (used when present) is false the margin says "no test" (1
    run on a side with nothing to borrow run-to-run variation from, or printed values).

    ``wrap``: labels longer than that many characters are broken into lines (a row takes
    room for its lines; :func:`forest_height` sizes the figure alike): a forest of 120-letter
    labels on one line each was saved 22 in wide, its text shown at 4 pt on the site."""
    ax = ax if ax is not None else plt.gca()
    d = data.reset_index(drop=True)
    labels = [_wrapped(t, wrap) for t in d[label].astype(str)]
    y = _row_centres([t.count("\n") + 1 for t in labels])
    est = d[effect].to_numpy(dtype="float64", na_value=np.nan)
    lo = d[low].to_numpy(dtype="float64", na_value=np.nan)
    hi = d[high].to_numpy(dtype="float64", na_value=np.nan)
    err = np.vstack([est - lo, hi - est])
    ax.errorbar(est, y, xerr=err, fmt="o", capsize=2, **kwargs)
    ax.axvline(reference, color="0.4", lw=0.8, ls="--")
    ax.set_yticks(y, labels, **({"fontsize": "small"} if wrap else {}))
    if len(y):  # a row's margin, not 5 % of a long forest's height above and below it
        ax.set_ylim(y.min() - 0.7, y.max() + 0.7)
    if log_x:
        log_scale(ax, "x")
    ax.set_xlabel(xlabel)
    if p and p in d:
        trans = ax.get_yaxis_transform()
        tested = d[testable] if testable and testable in d else pd.Series(True, index=d.index)
        for yi, pv, ok in zip(y, d[p], tested):
            txt = "p n/a" if pd.isna(pv) else (f"p={pv:.2g}" if pv >= 1e-4 else "p<1e-4")
            if pd.isna(pv) and not pd.isna(ok) and not bool(ok):
                txt = "no test"
            ax.text(1.01, yi, txt, transform=trans, va="center", fontsize="small")
    ax.grid(axis="y", visible=False)
    return ax


# the room a row's second and later lines take, in rows of one line
_LINE = 0.5


def _wrapped(text: str, width: int | None) -> str:
    if not width or len(text) <= width:
        return text
    return "\n".join(textwrap.wrap(text, width, break_long_words=False, break_on_hyphens=False))


def _row_centres(lines: list[int]) -> np.ndarray:
    """Where each row's centre stands, the first at the top, the last at 0: one unit a row,
    and :data:`_LINE` more for each line after its first."""
    heights = 1 + _LINE * (np.asarray(lines, dtype=float) - 1)
    up = heights[::-1]  # bottom row first
    centres = np.concatenate([[0.0], np.cumsum((up[:-1] + up[1:]) / 2)]) if len(up) else up
    return centres[::-1]


def forest_height(
    labels, *, wrap: int | None = None, row_in: float = 0.32, extra_in: float = 1.4
) -> float:
    """The height (inches) of a figure holding :func:`forest` of ``labels`` (wrapped at
    ``wrap`` characters as it wraps them): ``row_in`` a row of one line, ``extra_in`` for the
    title and the axis."""
    lines = [_wrapped(str(t), wrap).count("\n") + 1 for t in labels]
    return float(extra_in + row_in * sum(1 + _LINE * (n - 1) for n in lines))


def throughput_bars(
    data: pd.DataFrame,
    *,
    x: str = "scenario",
    y: str = "value",
    low: str | None = "ci_low",
    high: str | None = "ci_high",
    hue: str | None = None,
    side: str | None = "receiver",
    scale: float = 1e9,
    log_y: bool | str = "auto",
    ax: Axes | None = None,
    **kwargs,
) -> Axes:
    """Bars of throughput (bits/s, shown scaled) per ``x`` and ``hue``, with interval whiskers.
    Rows that share an ``x`` and a ``hue`` (repeated runs) stand side by side in its slot,
    each a narrower bar, not drawn over one another.

    ``log_y="auto"`` puts the value axis on a log scale when the bars span a factor of 5 or
    more: on a linear axis a 98 Gbit/s bar flattens 8 against 12 Gbit/s (seed 001's ntttcp
    beside iperf3); the label then says "log scale"."""
    ax = ax if ax is not None else plt.gca()
    cats = list(dict.fromkeys(data[x].astype(str)))
    hues = list(dict.fromkeys(data[hue].astype(str))) if hue else [None]
    width = 0.8 / len(hues)
    for k, h in enumerate(hues):
        part = data if h is None else data[data[hue].astype(str) == h]
        pos = {c: i for i, c in enumerate(cats)}
        at = part[x].astype(str)
        nth = at.groupby(at).cumcount().to_numpy()
        runs = at.map(at.value_counts()).to_numpy()
        each = width / runs
        xs = np.array([pos[c] for c in at]) - 0.4 + width * k + each * (nth + 0.5)
        vals = part[y].to_numpy(dtype="float64") / scale
        yerr = whiskers(part, vals, low, high, scale)
        style = {**series_style(k, bars=True), **kwargs}
        # a gap between a slot's runs, so that each shows as a bar of its own
        drawn = np.where(runs > 1, each * 0.8, each)
        ax.bar(xs, vals, width=drawn, yerr=yerr, capsize=2, label=h, **style)
    # Many or long names turn further, anchored at their end, so neighbours do not overlap.
    crowded = len(cats) > 6 or max((len(c) for c in cats), default=0) > 14
    ax.set_xticks(
        range(len(cats)), cats, rotation=45 if crowded else 20, ha="right", rotation_mode="anchor"
    )
    values = data[y].to_numpy(dtype="float64", na_value=np.nan) / scale
    values = values[np.isfinite(values) & (values > 0)]
    wide = len(values) > 1 and values.max() / values.min() >= 5
    label = throughput_label(side, scale)
    if (log_y is True or (log_y == "auto" and wide)) and log_scale(ax, "y"):
        label += ", log scale"
    ax.set_ylabel(label)
    if hue:
        legend(ax, title=hue_title(hue))
    return ax


def latency_vs_size(
    data: pd.DataFrame,
    *,
    x: str = "msg_size_bytes",
    y: str = "value",
    low: str | None = "ci_low",
    high: str | None = "ci_high",
    hue: str | None = None,
    basis: str = "rtt",
    unit: str = "us",
    ax: Axes | None = None,
    **kwargs,
) -> Axes:
    """Latency against message size (log x), a line per ``hue`` with interval whiskers."""
    ax = ax if ax is not None else plt.gca()
    groups = [(None, data)] if hue is None else list(data.groupby(hue, sort=True))
    for i, (key, part) in enumerate(groups):
        part = part.sort_values(x)
        xs = part[x].to_numpy(dtype="float64")
        vals = part[y].to_numpy(dtype="float64")
        yerr = whiskers(part, vals, low, high)
        style = {"marker": "o", "ms": 3, "capsize": 2, **series_style(i), **kwargs}
        ax.errorbar(xs, vals, yerr=yerr, label=None if key is None else str(key), **style)
    ax.set_xscale("log", base=2)
    plain_log(ax.xaxis)
    ax.set_xlabel("Message size (bytes)")
    ax.set_ylabel(latency_label(basis, unit))
    if hue:
        legend(ax, title=hue_title(hue))
    return ax
