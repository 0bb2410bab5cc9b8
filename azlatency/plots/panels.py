"""Small multiples: one panel per campaign (or any column), each with its own legend."""

from __future__ import annotations

from collections.abc import Callable

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from ._axes import hue_title, legend, legend_labels
from ._legibility import INLINE_DPI, SITE_COLUMN_PX
from ._style import WIDTHS

LINE_IN = 0.19  # inches a legend line takes at the report style's small size (9.2 pt)


def _legend_lines(labels: list[str]) -> int:
    """Lines of text in the one-column legend :func:`legend` draws for ``labels``."""
    prefix, wrapped = legend_labels(labels)
    return sum(label.count("\n") + 1 for label in wrapped) + bool(prefix)


def _by_name(column: pd.Series) -> tuple[np.ndarray, list[str]]:
    """Each row's place in the sorted names (``str``) of ``column``'s values, -1 where it has
    none, and those names: values alike as text are one name.  One factorize of the column,
    not a text copy of every row (the synthetic campaign's 945k samples)."""
    codes, uniques = pd.factorize(column)
    names = sorted({str(u) for u in uniques})
    place = {name: i for i, name in enumerate(names)}
    lookup = np.array([place[str(u)] for u in uniques] + [-1], dtype=np.intp)
    return lookup[codes], names  # a missing value's code, -1, takes the last entry: -1


def _split(part: pd.DataFrame, at: np.ndarray, groups: list[list[int]]) -> list[pd.DataFrame]:
    """The rows of ``part`` whose ``at`` is one of each group's, in their order in ``part``:
    one take a group, not a filter of every row for each."""
    order = np.argsort(at, kind="stable")
    ranked = at[order]

    def rows(i: int) -> np.ndarray:
        return order[np.searchsorted(ranked, i, "left") : np.searchsorted(ranked, i, "right")]

    return [part.iloc[np.sort(np.concatenate([rows(i) for i in g]))] for g in groups]


def _chunks(part: pd.DataFrame, hue: str, size: int) -> list[pd.DataFrame]:
    """``part`` cut into frames of at most ``size`` values of ``hue`` each (in sorted order)."""
    if hue not in part or size < 1:
        return [part]
    at, values = _by_name(part[hue])
    if len(values) <= size:
        return [part]
    n = -(-len(values) // size)
    per = -(-len(values) // n)  # balanced: 9 values → 5 + 4, not 8 + 1
    return _split(
        part, at, [list(range(i, min(i + per, len(values)))) for i in range(0, len(values), per)]
    )


def panels(
    data: pd.DataFrame,
    plot: Callable,
    *,
    by: str = "campaign",
    hue: str = "label",
    width: float = WIDTHS["two_column"],
    min_height: float = 2.4,
    sharex: bool = True,
    max_series: int = 8,
    **kwargs,
) -> Figure:
    """``plot(part, hue=hue, ax=ax, **kwargs)`` for each value of ``by`` (sorted), stacked in
    one figure sharing the x axis: thirty series of three campaigns become three readable
    panels.  Every legend is one column to the right of its panel, which is as tall as the
    legend needs; the figure is as much wider than ``width`` as the widest legend (constrained
    layout); the x label is drawn once, at the bottom.  Rows without a ``by`` value get the
    last panel.  A frame with one value of ``by`` (or without the column) is one panel.
    A panel holds at most ``max_series`` values of ``hue`` (colours past eight repeat and the
    eye cannot follow them): more become further panels of the same ``by`` value."""
    if by in data:
        at, keys = _by_name(data[by])
        parts = _split(data, at, [[i] for i in range(len(keys))] + [[-1]] * int((at < 0).any()))
    else:
        parts = [data]
    parts = [chunk for part in parts for chunk in _chunks(part, hue, max_series)]
    heights = [
        max(
            min_height,
            LINE_IN * _legend_lines(part[hue].dropna().astype(str).unique().tolist()) + 0.8,
        )
        for part in parts
    ]
    fig, axes = plt.subplots(
        len(parts),
        1,
        figsize=(width, sum(heights)),
        sharex=sharex,
        squeeze=False,
        gridspec_kw={"height_ratios": heights},
        layout="constrained",
    )
    axes = axes[:, 0]
    legends = []
    for part, ax in zip(parts, axes):
        plot(part, hue=hue, ax=ax, **kwargs)
        legends.append(legend(ax, title=hue_title(hue), inside_max=0, ncols=1))
    for ax in axes[:-1]:
        ax.set_xlabel("")
    # The layout fits the legends beside the panels: widen the figure by the widest one, so
    # the panels keep ``width`` — up to the site's column (SITE_COLUMN_PX), past which the
    # page would shrink the figure and its text: then the panels give up the width.
    renderer = fig.canvas.get_renderer()
    beside = max(
        (leg.get_window_extent(renderer).width / fig.dpi for leg in legends if leg), default=0.0
    )
    widest = SITE_COLUMN_PX / INLINE_DPI
    fig.set_size_inches(min(width + beside, max(widest, beside + 3.0)), sum(heights))
    return fig
