"""Statistics that hold up: pure functions from the tidy tables to tidy frames.

Every interval row says its ``method``, ``level`` and ``unit_of_analysis`` (``packet``,
``batch`` — packets with an autocorrelation correction — or ``run``), with ``n`` and
``n_eff``; where the data cannot support an interval the row has NaN bounds,
``estimable=False`` and a ``note`` saying why.  Everything random takes ``rng`` (a seed or a
``numpy.random.Generator``).  No plotting here.  Methods and references: docs/statistics.md.

>>> from azlatency import stats                                  # doctest: +SKIP
>>> stats.summarize(samples, runs, by=["src_zone", "dst_zone"])  # doctest: +SKIP
>>> stats.compare_groups(samples, "placement", runs=runs)       # doctest: +SKIP
"""

from __future__ import annotations

from .asymmetry import asymmetry
from .baseline import fleet, parse_target, stripe_spread, verdict_matrix, verdicts
from .before_after import before_after, geomean_rows, run_statistics
from .compare import adjust_pvalues, compare, compare_groups, compare_runs
from .intervals import mean_ci, quantile_ci, summarize
from .sanity import check_expectations, parse_expect, warmup
from .stability import breaks, change_points, last_records_before_break, rolling_quantiles
from .summary_only import (
    histogram_quantiles,
    ratio_of_printed_means,
    summary_only_interval,
    summary_ranges,
)
from .tails import exceedance, percentile_spectrum, pot_fit, tail_ratios

__all__ = [
    "adjust_pvalues",
    "asymmetry",
    "before_after",
    "breaks",
    "change_points",
    "check_expectations",
    "compare",
    "compare_groups",
    "compare_runs",
    "exceedance",
    "fleet",
    "geomean_rows",
    "histogram_quantiles",
    "last_records_before_break",
    "mean_ci",
    "parse_expect",
    "parse_target",
    "percentile_spectrum",
    "pot_fit",
    "quantile_ci",
    "rolling_quantiles",
    "run_statistics",
    "stripe_spread",
    "summarize",
    "summary_only_interval",
    "ratio_of_printed_means",
    "summary_ranges",
    "tail_ratios",
    "verdict_matrix",
    "verdicts",
    "warmup",
]
