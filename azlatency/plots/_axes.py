"""What every chart needs once it has many groups: legends that fit, series told apart past
the palette, and log axes that read as plain numbers (``600 µs``, not ``6 × 10²``)."""

from __future__ import annotations

import math
import textwrap

import matplotlib as mpl
import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.axis import Axis
from matplotlib.legend import Legend
from matplotlib.ticker import Formatter

SEP = " · "  # how report labels join their parts (campaign · scenario · zone · size · tool)
# A legend goes outside the axes, on the right: inside, it sits over data points sooner or
# later (issue 37); ``inside_max=`` keeps a short one inside where a caller knows the corner.
INSIDE_MAX = 0
ROWS_MAX = 24  # legend entries per column
WRAP = 48  # characters per legend line
LINESTYLES = ("-", "--", ":", "-.")
MARKERS = ("o", "s", "^", "D")
HATCHES = ("", "//", "..", "xx")


def common_prefix(labels: list[str]) -> str:
    """The leading ``" · "``-separated parts that all of two or more labels share, leaving
    every label at least one part of its own."""
    parts = [label.split(SEP) for label in labels]
    if len(parts) < 2:
        return ""
    n = 0
    while all(len(p) > n + 1 for p in parts) and len({p[n] for p in parts}) == 1:
        n += 1
    return SEP.join(parts[0][:n])


def legend_labels(labels: list[str]) -> tuple[str, list[str]]:
    """The part all ``labels`` share (see :func:`common_prefix`) and each label without it,
    wrapped at ``WRAP`` characters: what :func:`legend` shows."""
    prefix = common_prefix(labels)
    cut = len(prefix) + len(SEP) if prefix else 0
    wrapped = [
        textwrap.fill(label[cut:], WRAP, subsequent_indent="  ", break_on_hyphens=False)
        for label in labels
    ]
    return prefix, wrapped


def legend(
    ax: Axes,
    *,
    title: str | None = None,
    fontsize: str | float | None = None,
    inside_max: int = INSIDE_MAX,
    **kwargs,
) -> Legend | None:
    """``ax``'s legend, readable with many entries: the part every label shares (``campaign
    · scenario``) is said once, in the title; long labels wrap; more than ``inside_max``
    entries go outside the axes on the right, in columns of at most ``ROWS_MAX`` (saving
    with ``bbox_inches="tight"``, as :func:`save` does, keeps them in the file)."""
    handles, labels = ax.get_legend_handles_labels()
    if not handles:
        return None
    prefix, labels = legend_labels(labels)
    if prefix:
        title = f"{prefix}{SEP}{title}" if title else prefix
    if len(handles) > inside_max:
        kwargs = {
            "loc": "upper left",
            "bbox_to_anchor": (1.01, 1.0),
            "borderaxespad": 0.0,
            "ncols": math.ceil(len(handles) / ROWS_MAX),
            "handlelength": 3.0,  # long enough to show a dash pattern (series_style)
            **kwargs,
        }
        fontsize = fontsize or "small"
    return ax.legend(
        handles, labels, title=title, fontsize=fontsize, title_fontsize=fontsize, **kwargs
    )


def series_style(i: int, *, dots: bool = False, bars: bool = False) -> dict:
    """The line style of the ``i``-th series: solid while the colour cycle lasts, then
    dashed, dotted, dash-dotted, so no two of the first 4 × colours series look alike;
    with ``dots``, the marker instead (circle, square, triangle, diamond); with ``bars``, the
    colour and a hatch (none, hatched, dotted, crossed) of a bar series."""
    colours = len(mpl.rcParams["axes.prop_cycle"].by_key().get("color", [None])) or 1
    turn = i // colours
    if bars:
        return {"color": series_colour(i), "hatch": HATCHES[turn % len(HATCHES)]}
    if dots:
        return {"marker": MARKERS[turn % len(MARKERS)]}
    return {"linestyle": LINESTYLES[turn % len(LINESTYLES)]}


def series_colour(i: int) -> str | None:
    """The colour of the ``i``-th series: the rcParams cycle's, taken by index so that no
    other artist drawn in between can shift it."""
    colours = mpl.rcParams["axes.prop_cycle"].by_key().get("color") or [None]
    return colours[i % len(colours)]


class _Plain(Formatter):
    """Plain numbers (``20``, ``600``, ``0.1``) on a log axis.  Every power of the base is
    labelled; on a base-10 axis so are the minor ticks at 2 and 5 times a power when it spans
    at most three decades, 2, 3 and 5 times within a decade, and all within half of one."""

    def __init__(self, minor: bool, base: float = 10) -> None:
        self.minor, self.base = minor, base

    def __call__(self, x, pos=None) -> str:
        return self._label(x, self._shown())

    def format_ticks(self, values) -> list[str]:
        """Every tick's label, the view measured once (matplotlib asks once a tick)."""
        self.set_locs(values)
        shown = self._shown()
        return [self._label(x, shown) for x in values]

    def _shown(self) -> tuple[int, ...] | None:
        """The leading digits whose ticks are labelled: None for every tick (major)."""
        if not self.minor:
            return None
        if self.base != 10:
            return ()
        lo, hi = sorted(abs(v) for v in self.axis.get_view_interval())
        decades = math.log10(hi / lo) if lo > 0 else math.inf
        if decades <= 0.5:
            return tuple(range(1, 10))
        if decades <= 1:
            return (2, 3, 5)
        if decades <= 3:
            return (2, 5)
        return ()

    @staticmethod
    def _label(x, shown: tuple[int, ...] | None) -> str:
        if x <= 0:
            return ""
        if shown is None:
            return f"{x:g}"
        first = round(x / 10 ** math.floor(math.log10(x) + 1e-9)) if shown else None
        return f"{x:g}" if first in shown else ""


def log_scale(ax: Axes, which: str = "y", *, plain: bool = True) -> bool:
    """Put ``ax``'s ``which`` axis ("x" or "y") on a log scale in plain numbers, if what is
    drawn has a positive value there; an axes with nothing to draw stays linear (matplotlib
    cannot place log ticks on no data) and says so.  ``plain=False`` keeps matplotlib's
    ``10⁻³`` labels (probabilities).  True when the axis is log."""
    lo, hi = ax.dataLim.intervalx if which == "x" else ax.dataLim.intervaly
    if not (math.isfinite(lo) and math.isfinite(hi) and hi > 0):
        if not ax.texts:
            ax.text(0.5, 0.5, "no value to draw", transform=ax.transAxes, ha="center")
        return False
    (ax.set_xscale if which == "x" else ax.set_yscale)("log")
    if plain:
        plain_log(ax.xaxis if which == "x" else ax.yaxis)
    return True


def plain_log(axis: Axis) -> None:
    """Label a log-scaled axis with plain numbers (major and minor ticks)."""
    base = getattr(axis.get_transform(), "base", 10)
    axis.set_major_formatter(_Plain(minor=False, base=base))
    axis.set_minor_formatter(_Plain(minor=True, base=base))


def hue_title(hue: str | None) -> str | None:
    """A legend's title from the ``hue`` column's name (``label`` says nothing)."""
    return None if hue in (None, "label") else hue


def rows_height(n: int, *, per_row: float = 0.24, extra: float = 1.3) -> float:
    """Figure height (inches) for ``n`` labelled rows (a forest or a horizontal dot chart)."""
    return per_row * max(n, 1) + extra


def whiskers(
    part: pd.DataFrame, values: np.ndarray, low: str | None, high: str | None, scale: float = 1.0
) -> np.ndarray | None:
    """``errorbar``'s lengths below and above ``values`` from ``part``'s ``low`` and ``high``
    columns (divided by ``scale``): None without both columns, 0 where a bound is missing
    (not estimable)."""
    if not (low and high and low in part and high in part):
        return None
    lo = part[low].to_numpy(dtype="float64", na_value=np.nan) / scale
    hi = part[high].to_numpy(dtype="float64", na_value=np.nan) / scale
    return np.nan_to_num(np.vstack([values - lo, hi - values]), nan=0.0)
