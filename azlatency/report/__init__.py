"""Building blocks of the report notebooks (``notebooks/NN-area-question.ipynb``).

The notebooks stay thin: they load campaigns, call these helpers and ``azlatency.stats``,
draw with ``azlatency.plots`` and write a summary.  What is here joins the statistics to
the data a campaign actually has — samples where a tool logged them, printed statistics
where it did not — and says which is which in every row (``source``).

>>> from azlatency import report as rep                       # doctest: +SKIP
>>> t = rep.load_campaigns("seed001-aks-azure-cni")              # doctest: +SKIP
>>> rep.zone_pair_medians(t)                                    # doctest: +SKIP
"""

from __future__ import annotations

from ._ab_show import (
    change_figure,
    comparison_markdown,
    gate_annotations,
    gate_junit,
    gate_lines,
    gate_markdown,
    nothing_compared,
)
from ._ab_show import findings as compare_findings
from ._ab_show import sections as compare_sections
from ._answer import campaign_answer
from ._baseline import (
    baseline,
    baseline_findings,
    baseline_table,
    check_lines,
    fleet_figure,
    github_annotations,
    has_expectations,
    junit_xml,
)
from ._before_after import STATS as COMPARE_STATS
from ._before_after import (
    Comparison,
    baseline_comparison,
    baseline_of,
    compare_campaigns,
    compare_tables,
    has_baseline,
)
from ._claims import contrast_claims, render
from ._claims import forest as claims_forest
from ._claims import markdown as claims_markdown
from ._claims import to_records as claim_records
from ._compare import (
    FACTOR_NAMES,
    FACTORS,
    contrast_pairs,
    contrasts,
    cross_tool,
    forest_frame,
    size_series,
)
from ._data import (
    empty_tables,
    figures_dir,
    histogram_runs,
    import_overview,
    labels,
    latency_runs,
    load_campaigns,
    names,
    one_campaign,
    sample_runs,
    subset,
    synthetic,
    throughput_runs,
)
from ._latency import GROUP, QUANTILES, SPECTRUM, group_labels, headline, latency_percentiles
from ._longrun import (
    analyse_session,
    before_breaks,
    break_times,
    broken_runs,
    long_runs,
    reported_segments,
    rolling_wide,
    segment_label,
    segments,
    sessions,
)
from ._one_way import one_way_markdown, one_way_notes
from ._pages import (
    banner,
    cross_tool_claims,
    distribution_claims,
    import_claims,
    longrun_claims,
    mark,
    see_forest,
    see_latency,
    see_matrix,
    see_throughput,
    tail_claims,
    throughput_claims,
    zone_matrix_claims,
)
from ._question import about, author_tables
from ._show import (
    CLAIMS_MIME,
    caption,
    claims,
    figure,
    fmt,
    fmt_interval,
    no_round_trips,
    nothing_to_show,
    read_claims,
    say,
    table,
)
from ._summary import campaign_findings, front_numbers
from ._tails import exceedance, latency_samples, tail_ratios
from ._throughput import throughput_table
from ._zones import (
    asymmetry_table,
    both_ways,
    latency_stat,
    main_tool,
    matrix_frame,
    matrix_label,
    matrix_style,
    spread,
    zone_pair_medians,
    zoned_runs,
)

__all__ = [
    "about",
    "author_tables",
    "campaign_answer",
    "claim_records",
    "claims_markdown",
    "claims_forest",
    "banner",
    "cross_tool_claims",
    "distribution_claims",
    "import_claims",
    "longrun_claims",
    "mark",
    "see_forest",
    "see_latency",
    "see_matrix",
    "see_throughput",
    "tail_claims",
    "throughput_claims",
    "zone_matrix_claims",
    "contrast_claims",
    "one_campaign",
    "render",
    "baseline",
    "baseline_findings",
    "baseline_table",
    "check_lines",
    "COMPARE_STATS",
    "baseline_comparison",
    "change_figure",
    "has_baseline",
    "Comparison",
    "baseline_of",
    "compare_campaigns",
    "compare_findings",
    "compare_sections",
    "compare_tables",
    "comparison_markdown",
    "gate_annotations",
    "gate_junit",
    "gate_lines",
    "gate_markdown",
    "nothing_compared",
    "fleet_figure",
    "github_annotations",
    "has_expectations",
    "junit_xml",
    "CLAIMS_MIME",
    "FACTOR_NAMES",
    "FACTORS",
    "GROUP",
    "QUANTILES",
    "SPECTRUM",
    "analyse_session",
    "asymmetry_table",
    "before_breaks",
    "both_ways",
    "campaign_findings",
    "caption",
    "break_times",
    "broken_runs",
    "claims",
    "contrast_pairs",
    "contrasts",
    "cross_tool",
    "empty_tables",
    "exceedance",
    "figure",
    "figures_dir",
    "fmt",
    "fmt_interval",
    "forest_frame",
    "front_numbers",
    "group_labels",
    "headline",
    "histogram_runs",
    "import_overview",
    "labels",
    "latency_percentiles",
    "latency_runs",
    "latency_samples",
    "latency_stat",
    "load_campaigns",
    "long_runs",
    "main_tool",
    "matrix_frame",
    "matrix_label",
    "matrix_style",
    "names",
    "no_round_trips",
    "nothing_to_show",
    "one_way_markdown",
    "one_way_notes",
    "read_claims",
    "reported_segments",
    "rolling_wide",
    "sample_runs",
    "say",
    "segment_label",
    "segments",
    "sessions",
    "size_series",
    "spread",
    "subset",
    "synthetic",
    "table",
    "tail_ratios",
    "throughput_runs",
    "throughput_table",
    "zone_pair_medians",
    "zoned_runs",
]
