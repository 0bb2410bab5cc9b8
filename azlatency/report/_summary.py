"""The key findings of a campaign, as Markdown (the top of ``90-campaign-report``)."""

from __future__ import annotations

from collections.abc import Collection

import pandas as pd

from ._pages import _extremes, bins_apart, cells_without_value, have_none, without_value
from ._show import counted, fmt, fmt_interval, fmt_value
from ._throughput import kinds, paced_sentence
from ._zones import held_out, spread


def _summarising(runs: pd.DataFrame | None, summaries: Collection[str]) -> str:
    """', 93 of them consoles summarising another run's probes (1 echo_csv, 92 sockperf),
    ...': a console beside the file of its own probes is a run of the store, counted
    once where figures are (synthetic-westeurope's 184 sockperf runs are 92 executions).
    The count left is of ``runs``, the loaded tables' (without the runs the import found read
    twice, which the store's count keeps)."""
    if runs is None or not len(summaries):
        return ""
    mine = runs[runs["run_id"].astype(str).isin(set(summaries))]
    if mine.empty:
        return ""
    each = ", ".join(f"{n} {tool}" for tool, n in mine["tool"].value_counts().sort_index().items())
    one = len(mine) == 1
    return (
        f", {len(mine)} of them {'a console' if one else 'consoles'} summarising another run's "
        f"probes ({each}), which the figures count once: {counted(len(runs) - len(mine), 'run')}"
    )


def campaign_findings(
    overview: dict[str, pd.DataFrame],
    headline: pd.DataFrame,
    medians: pd.DataFrame,
    asymmetry: pd.DataFrame,
    throughput: pd.DataFrame,
    *,
    synthetic: bool = False,
    runs: pd.DataFrame | None = None,
    summaries: Collection[str] = (),
) -> str:
    """One bullet each: what was measured, latency per basis (lowest and highest group),
    zone pairs, direction, throughput per tool, and what to be careful about (``runs``: the
    campaign's runs, for folders that name what no rule read; ``summaries``: those that
    summarise another run's samples, ``summarising_runs``)."""
    per_tool = overview["tools"].groupby("tool", sort=True)["runs"].sum()
    lines = (
        [
            "**This campaign is SYNTHETIC** (`azlatency synth`): the numbers show what the "
            "analysis recovers, not what a cloud does."
        ]
        if synthetic
        else []
    )
    lines.append(_measured_line(overview, per_tool, runs, summaries))
    lines += _latency_lines(headline)
    lines += _zone_lines(medians)
    lines += _direction_lines(asymmetry)
    lines += _throughput_lines(throughput)
    lines += _elsewhere_lines(per_tool, headline, throughput)
    lines += _careful_lines(overview, headline, runs)
    return "\n".join(lines)


def _measured_line(
    overview: dict[str, pd.DataFrame],
    per_tool: pd.Series,
    runs: pd.DataFrame | None,
    summaries: Collection[str],
) -> str:
    """'What was measured': runs, files, tools, consoles summarising others, files left out."""
    c = overview["campaigns"][["runs", "files_imported", "files_not_imported"]].sum()
    tools = ", ".join(f"{n} {tool}" for tool, n in per_tool.items())
    reasons = sorted(set(overview["not_imported"]["reason"]))
    return (
        f"- **What was measured:** {counted(c['runs'], 'run')} from "
        f"{counted(c['files_imported'], 'file')}"
        + (f" ({tools})" if tools else "")
        + _summarising(runs, summaries)
        + "; "
        f"{counted(c['files_not_imported'], 'file')} not imported"
        + (f" ({', '.join(reasons)})" if reasons else "")
        + "."
    )


def _direction_lines(asymmetry: pd.DataFrame) -> list[str]:
    """'Direction': the pairs tested both ways (a mirrored row is no test) and which differ."""
    tested = asymmetry[~asymmetry["mirrored"].astype(bool)] if len(asymmetry) else asymmetry
    if not len(tested):
        return []
    flagged = [f"{r.src_zone}↔{r.dst_zone}" for r in tested.itertuples() if r.asymmetric]
    return [
        f"- **Direction:** {counted(len(tested), 'pair')} measured both ways; "
        + (f"asymmetric: {', '.join(flagged)}." if flagged else "none differs at this level.")
    ]


def _careful_lines(
    overview: dict[str, pd.DataFrame], headline: pd.DataFrame, runs: pd.DataFrame | None
) -> list[str]:
    """'Careful': printed values without an interval, folders no rule read, quality notes."""
    caveats = []
    printed = int((headline["source"] == "reported").sum())
    if printed:
        caveats.append(
            f"{printed} of {len(headline)} latency groups "
            f"{'is a printed value' if printed == 1 else 'are printed values'} without an interval"
        )
    if runs is not None and (folders := _unread_folders(runs)):
        caveats.append(folders)
    q = overview["quality"]
    if len(q):
        caveats.append(
            "quality notes: "
            + ", ".join(
                f"{r.issue} ({counted(r.runs, 'run')}"
                + (
                    ", left out of every statistic: each is a run before it again)"
                    if r.issue == "repeated_run"
                    else ")"
                )
                for r in q.itertuples()
            )
        )
    return ["- **Careful:** " + "; ".join(caveats) + "."] if caveats else []


# What a tool's runs are when they are neither a latency group nor a throughput run.
ELSEWHERE = {
    "mtr": "traces: a round trip per hop",
    "owping": "one-way delays: page 40 sets them beside the round trip",
    "fio": "storage I/O",
    "iostat": "storage I/O",
    # a mean round trip is netperf's RT_LATENCY, printed (-v 2, -o) or from a classic table's
    # rate (10⁶ / rate × (1 + first burst)); an omni table never says the burst
    "netperf": "transaction rates without the burst they ran at: no mean round trip",
}


def _elsewhere_lines(per_tool: pd.Series, headline: pd.DataFrame, throughput) -> list[str]:
    """The tools whose runs no bullet above holds, named with what they are: a folder of
    mtr, lagscope and netperf runs counted '3 mtr' and said nothing more of them."""
    shown = set(headline.get("tool", pd.Series(dtype=str)).astype(str))
    shown |= set(throughput.get("tool", pd.Series(dtype=str)).astype(str))
    other = "no latency or throughput figure these pages read"
    rest = [
        f"{counted(int(n), f'{tool} run')} ({ELSEWHERE.get(str(tool), other)})"
        for tool, n in per_tool.items()
        if str(tool) not in shown
    ]
    return [f"- **Not in the figures above:** {', '.join(rest)}."] if rest else []


def _unread_folders(runs: pd.DataFrame) -> str:
    """Folders the runs sit in where nothing gave a run a scenario, placement or zone: a
    dump filed as same-zone/ and cross-zone/ without a campaign.yaml was labelled by its
    far ends alone, and the page said nothing of the folders' names."""
    said = [c for c in ("scenario", "placement", "src_zone", "dst_zone") if c in runs]
    if not len(runs) or runs[said].notna().any(axis=None):
        return ""
    parts = runs["source_path"].astype(str).str.split("/")
    folders = sorted({p[0] for p in parts if len(p) > 1})
    if len(folders) < 2:
        return ""
    shown = ", ".join(f"`{f}/`" for f in folders[:4]) + (" …" if len(folders) > 4 else "")
    return (
        f"the runs sit in {len(folders)} folders ({shown}) that no campaign.yaml rule reads, "
        'so no run has a scenario, placement or zone (a rule such as `glob: "same-zone/*"` '
        "with `set: {placement: same_zone}` names each)"
    )


def _zone_lines(medians: pd.DataFrame) -> list[str]:
    """The zone matrix's fastest and slowest pair, with its cells known only as a bound and
    the runs it holds out."""
    sp = spread(medians)
    if not sp or len(medians) <= 1:
        return []
    stats = set(medians["stat"].dropna().astype(str))
    stat = stats.pop() if len(stats) == 1 else "median (mean where only a mean printed)"
    what = f"- **Zone pairs** ({medians['tool'].iloc[0]}, {stat} {medians['basis'].iloc[0]}): "
    lo, hi = (pd.Series({"estimate": sp[k]}) for k in ("fastest_us", "slowest_us"))
    # a figure known only to a bin or to whole milliseconds: what that leaves of the ratio
    # (Windows ping's 1.5 ms against 1 ms was '1.5× apart', as page 20 no longer says)
    valued = medians.dropna(subset=["estimate"])
    ends = [valued.loc[valued["estimate"].astype(float).agg(k)] for k in ("idxmax", "idxmin")]
    return [
        (
            f"{what}{sp['fastest']} {fmt(sp['fastest_us'])}, the one pair with a value."
            if sp["fastest"] == sp["slowest"]
            else f"{what}fastest {sp['fastest']} {fmt(sp['fastest_us'])}, slowest "
            f"{sp['slowest']} {fmt(sp['slowest_us'])}, {sp['ratio']:.3g}× apart"
            f"{bins_apart(*ends)}."
        )
        + cells_without_value(medians, lo, hi)
        + ((" " + held) if (held := held_out(medians)) else "")
    ]


def _throughput_lines(throughput: pd.DataFrame) -> list[str]:
    """A bullet per tool series: its range of runs, and how many runs have no figure."""
    lines = []
    for series, every in throughput.groupby(kinds(throughput), sort=True):
        g = every.dropna(subset=["estimate"])
        if g.empty:
            lines.append(
                f"- **Throughput ({series}):** none of its {counted(len(every), 'run')} has a "
                "figure (page 22's table says why)."
            )
            continue
        low, high = fmt(g["estimate"].min(), "bps"), fmt(g["estimate"].max(), "bps")
        lines.append(
            f"- **Throughput ({series}):** "
            + (
                f"{low} (1 run)."
                if len(g) == 1
                else f"{low} in each of {len(g)} runs."
                if low == high
                else f"{low} to {high} over {len(g)} runs."
            )
            + have_none(len(every) - len(g), "run").replace("the table's", "page 22's")
            + paced_sentence(g)
        )
    return lines


def _latency_lines(headline: pd.DataFrame) -> list[str]:
    """A bullet per basis, tool and statistic: the lowest and highest group of numbers that
    can be set side by side.  One range over every group mixed ping's mean with sockperf's
    median ("from 44.22 µs ... to 1902 µs", issue 31); the groups' labels lose the tool's name,
    which the bullet says once."""
    out = []
    for (basis, tool, stat), every in headline.groupby(["basis", "tool", "stat"], sort=True):
        g = every.dropna(subset=["estimate"])
        head = f"- **Latency ({basis}), {tool} {stat}:**"
        if g.empty:  # known only as bounds (Windows ping's time<1ms), or no value at all
            out.append(f"{head}{without_value(every, tool=str(tool))}")
            continue
        printed = g["source"].eq("reported").all()
        tail = " (printed by the tool, no intervals)" if printed else ""

        def show(r: pd.Series, tool: str = str(tool), printed: bool = printed) -> str:
            where = " · ".join(p for p in str(r["label"]).split(" · ") if p != tool) or tool
            return f"{fmt_value(r) if printed else fmt_interval(r)} (*{where}*)"

        if len(g) == 1:
            lo = hi = g.iloc[0]
            out.append(f"{head} {show(lo)}{tail}.{without_value(every, lo, hi, tool=str(tool))}")
            continue
        lo, hi = _extremes(g)  # two groups of one value: both named
        out.append(
            f"{head} from {show(lo)} to {show(hi)}, {len(g)} groups{tail}."
            + without_value(every, lo, hi, tool=str(tool))
        )
    return out


def front_numbers(
    overview: dict[str, pd.DataFrame],
    percentiles: pd.DataFrame,
    medians: pd.DataFrame,
    *,
    summaries: Collection[str] = (),
) -> dict[str, object]:
    """The headline numbers a multi-campaign front page shows for a campaign: runs, files
    imported and not (campaign.yaml's ignored files counted apart), the runs that are
    consoles beside their own full logs (``summaries``: :func:`_compare.summarising_runs`),
    the median per zone pair (tool, statistic and basis of the matrix) and the worst p99 per
    basis (never across bases: a half round trip is not comparable with a round trip)."""
    c = overview["campaigns"]
    reasons = overview["not_imported"]["reason"].astype(str)
    worst: dict[str, dict[str, object]] = {}
    p99 = percentiles[percentiles["stat"].eq("p99")].dropna(subset=["estimate"])
    for basis, g in p99.groupby("basis", sort=True):
        top = g.loc[g["estimate"].idxmax()]
        worst[str(basis)] = {
            "value_us": float(top["estimate"]),
            "label": str(top["label"]),
            "source": str(top["source"]),
        }
    first = medians.iloc[0] if len(medians) else None
    return {
        "runs": int(c["runs"].sum()),
        "consoles": len(summaries),
        "files_imported": int(c["files_imported"].sum()),
        "files_not_imported": int((reasons != "ignored").sum()),
        "files_ignored": int((reasons == "ignored").sum()),
        "zone_medians_us": {
            f"{r.src_zone}->{r.dst_zone}": float(r.estimate) for r in medians.itertuples()
        },
        "zone_what": None
        if first is None
        else f"{first['stat']} {first['basis']} of {first['tool']}",
        "worst_p99_us": worst,
    }
