"""Zone × zone matrix of medians with intervals and asymmetry marks."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.colors import LogNorm

from ._axes import plain_log
from ._labels import latency_label


def zone_matrix(
    data: pd.DataFrame,
    *,
    src: str = "src_zone",
    dst: str = "dst_zone",
    value: str = "value",
    low: str | None = "ci_low",
    high: str | None = "ci_high",
    asymmetric: str | None = None,
    untestable: str | None = "untestable",
    basis: str = "rtt",
    unit: str = "us",
    log_color: bool = True,
    label: str | None = None,
    ax: Axes | None = None,
    **kwargs,
) -> Axes:
    """Heatmap of ``value`` with rows = source zone, columns = destination zone.

    Each cell shows the value and, when given, its interval ``[low, high]``; cells where the
    ``asymmetric`` column is true get a ``†`` and a thick edge (A→B differs from B→A under a
    run-level test, ``report.matrix_frame``); cells where ``untestable`` is true get a
    ``‡`` (the column is used when present): measured both ways, but with 1 run a direction the test cannot tell a direction
    from run-to-run variation.  Empty cells (pair not measured) stay blank and say "n/a".
    ``label`` names the colour bar when the cells are not medians (``"p99 rtt [µs]"``,
    ``"loss [%]"``); by default it is the median latency of ``basis`` in ``unit``.
    """
    ax = ax if ax is not None else plt.gca()
    untestable = untestable if untestable in data.columns else None
    zones, idx, grid = _grid(data, src, dst, value)
    finite_values = grid[np.isfinite(grid) & (grid > 0)]
    norm = None
    if log_color and finite_values.size:
        norm = LogNorm(vmin=finite_values.min(), vmax=finite_values.max())
    mesh = ax.imshow(
        np.ma.masked_invalid(grid), cmap=kwargs.pop("cmap", "cividis"), norm=norm, **kwargs
    )
    cbar = ax.figure.colorbar(mesh, ax=ax, fraction=0.046, pad=0.04)
    cbar.set_label(label or latency_label(basis, unit, what="Median"))
    if norm is not None:
        plain_log(cbar.ax.yaxis)
    shown = np.log10(grid) if norm is not None else grid  # for choosing the text colour
    finite = shown[np.isfinite(shown)]
    mid = (finite.min() + finite.max()) / 2 if finite.size else 0
    for row in data.itertuples(index=False):
        r = row._asdict()
        if pd.isna(r[src]) or pd.isna(r[dst]) or pd.isna(r[value]):
            continue
        i, j = idx[str(r[src])], idx[str(r[dst])]
        text, edge = _cell_text(r, value, low, high, asymmetric, untestable)
        if edge:
            ax.add_patch(plt.Rectangle((j - 0.5, i - 0.5), 1, 1, fill=False, lw=2.0, ec="#D55E00"))
        color = "white" if shown[i, j] < mid else "black"
        ax.text(j, i, text, ha="center", va="center", fontsize="small", color=color)
    for i in range(len(zones)):
        for j in range(len(zones)):
            if np.isnan(grid[i, j]):
                ax.text(j, i, "n/a", ha="center", va="center", fontsize="small", color="0.5")
    ax.set_xticks(range(len(zones)), [f"zone {z}" for z in zones])
    ax.set_yticks(range(len(zones)), [f"zone {z}" for z in zones])
    ax.set_xlabel("Destination (server)")
    ax.set_ylabel("Source (client)")
    ax.grid(False)
    legend = _legend(data, asymmetric, untestable)
    if legend:
        ax.set_title("; ".join(legend), fontsize="small", loc="left")
    return ax


def _grid(
    data: pd.DataFrame, src: str, dst: str, value: str
) -> tuple[list[str], dict[str, int], np.ndarray]:
    """The zones in order, their index, and the matrix of ``value`` (NaN where not measured)."""
    zones = sorted(set(data[src].dropna().astype(str)) | set(data[dst].dropna().astype(str)))
    idx = {z: i for i, z in enumerate(zones)}
    grid = np.full((len(zones), len(zones)), np.nan)
    for row in data.itertuples(index=False):
        r = row._asdict()
        if pd.isna(r[src]) or pd.isna(r[dst]):
            continue
        grid[idx[str(r[src])], idx[str(r[dst])]] = r[value]
    return zones, idx, grid


def _cell_text(
    r: dict,
    value: str,
    low: str | None,
    high: str | None,
    asymmetric: str | None,
    untestable: str | None,
) -> tuple[str, bool]:
    """A cell's text (value, interval, mark) and whether it gets the asymmetry edge."""
    text = f"{r[value]:.4g}"
    if low and high and low in r and not pd.isna(r[low]) and not pd.isna(r[high]):
        text += f"\n[{r[low]:.4g}, {r[high]:.4g}]"
    if asymmetric and _true(r.get(asymmetric)):
        return text + " †", True
    if untestable and _true(r.get(untestable)):
        return text + " ‡", False
    return text, False


def _legend(data: pd.DataFrame, asymmetric: str | None, untestable: str | None) -> list[str]:
    """What the marks mean, for the marks this matrix can show."""
    legend = []
    if asymmetric:
        legend.append("† A→B differs from B→A (runs as the unit, adjusted)")
    if untestable and data[untestable].map(_true).any():
        legend.append("‡ 1 run per direction: not testable")
    return legend


def _true(v) -> bool:
    """A cell flag is set only when it is a real true (not NA, not a truthy string)."""
    return isinstance(v, (bool, np.bool_)) and bool(v)
