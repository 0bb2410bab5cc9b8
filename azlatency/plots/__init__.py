"""Charts: axes-level functions (data first, keyword-only options, ``ax=None``, Axes returned).

Nothing here calls ``plt.show()`` or ``savefig``; :func:`save` writes PDF, SVG and PNG
(:func:`render` also hands back the PNG's pixels).
Importing this package changes no global settings; the publication look is
``with azlatency.plots.style("paper"): ...``.
"""

from ._axes import legend, plain_log, rows_height
from ._labels import latency_label, throughput_label, unit_label
from ._png import encode as png_bytes
from ._style import PALETTE, WIDTHS, Saved, figsize, render, save, style
from .baseline import fleet
from .compare import forest, forest_height, latency_vs_size, throughput_bars
from .distributions import ccdf, ecdf, nines, percentile_spectrum
from .matrix import zone_matrix
from .panels import panels
from .points import count_bars, point_intervals
from .timeseries import timeseries

__all__ = [
    "PALETTE",
    "Saved",
    "WIDTHS",
    "ccdf",
    "count_bars",
    "ecdf",
    "figsize",
    "fleet",
    "forest",
    "forest_height",
    "latency_label",
    "latency_vs_size",
    "legend",
    "nines",
    "panels",
    "percentile_spectrum",
    "plain_log",
    "png_bytes",
    "point_intervals",
    "render",
    "rows_height",
    "save",
    "style",
    "throughput_bars",
    "throughput_label",
    "timeseries",
    "unit_label",
    "zone_matrix",
]
