"""Latency per scenario from whatever a campaign holds: samples where the tool gave them
(intervals from ``azlatency.stats``), the tool's printed statistics where it did not.

Every row says where its number comes from (``source``: ``samples``, ``histogram`` or
``reported``), its
basis (``basis``, and ``converted_from`` when it was converted on request with
``azlatency.units``) and its interval method; a printed percentile has no interval, and the
row says so instead of inventing one.

When a group has runs with samples, its runs without samples are left out: sockperf prints a
summary of the very packets its ``--full-log`` file holds, so the two are one measurement.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence

import numpy as np
import pandas as pd

from .. import parsers, stats, units
from ..schema import Tables
from ..stats.common import DEFAULT_QUANTILES, INTERVAL_COLUMNS, READ_COLUMNS
from ._data import histogram_runs, labels, latency_runs, sample_runs, subset, whole_ms
from ._memo import memo, stamped
from ._show import counted, fmt_cell

GROUP = (
    "campaign",
    "scenario",
    "src_zone",
    "dst_zone",
    "zone_pair",  # the pair of zones where which end ran the client is not known
    "placement",
    "accelerated_networking",
    "vm_size",
    "msg_size_bytes",
    # the endpoints the logs name: without labels, each pair of hosts is its own group, never
    # pooled with another target's runs (two unrelated pings are two groups)
    "src_host",
    "dst_host",
    "dst_ip",
    # a tool's TCP and UDP (or ICMP) round trips to the same host are two groups: sockperf
    # with and without --tcp, hping3 -S and -1, psping's TCP connect and ICMP (only where a
    # tool names two: _mixed_protocols)
    "protocol",
)
QUANTILES = DEFAULT_QUANTILES
# The spectrum of the tail pages (page 11): from the median to p99.999.
SPECTRUM = (0.5, 0.75, 0.9, 0.95, 0.99, 0.995, 0.999, 0.9995, 0.9999, 0.99995, 0.99999)
# Pages 10 and 90 ask for QUANTILES, page 11 for SPECTRUM, of the same groups: computed once
# for both (each quantile's row is computed on its own, so a row is the same in either).
_SHARED = tuple(sorted({*QUANTILES, *SPECTRUM}))
_PCT = re.compile(r"^p(\d+(?:\.\d+)?)$")
REPORTED_PCT = "printed by the tool: a percentile alone gives no interval"
KEEP_STATS = ("mean", "min", "max")


def _q(stat: str) -> float:
    m = _PCT.match(stat)
    return float(m[1]) / 100 if m else np.nan


def _convert(tables: Tables, basis: str | None) -> tuple[Tables, dict[str, str]]:
    """Latency tables in ``basis`` (explicit ``units`` conversion), the runs carrying a
    ``converted_from`` column, and run → the basis its tool printed."""
    runs, samples, summaries, printed = _converted(tables, basis)
    return Tables(runs, samples, summaries), printed


@memo(disk=False)
def _converted(tables: Tables, basis: str | None) -> tuple:
    """:func:`_convert`'s tables as a tuple, kept in the process: the percentiles, the tails
    and the samples of a campaign's pages each cut the same latency runs out of its samples
    again (0.2 to 0.6 s a call, eight calls for the synthetic campaign's pages)."""
    runs = latency_runs(tables.runs)
    printed = dict(zip(runs["run_id"], runs["latency_basis"]))
    runs = runs.assign(converted_from=None)
    if basis is not None:
        runs.loc[runs["latency_basis"] != basis, "converted_from"] = runs["latency_basis"]
    t = subset(tables, runs)
    if basis is None:
        return t.runs, t.samples, t.summaries, printed
    conv = units.to_rtt if basis == "rtt" else units.to_half_rtt
    samples = conv(t.samples, t.runs) if len(t.samples) else t.samples
    return t.runs, samples, conv(t.summaries), printed


def _sample_rows(
    t: Tables,
    ids: set[str],
    basis: str,
    by: list[str],
    level: float,
    quantiles: Sequence[float],
    unit: str,
) -> pd.DataFrame:
    # the columns summarize reads (its groups, a run's order and status, both bases for
    # check_basis) before the rows: filtering takes every column it keeps (0.3 s)
    read = {*by, "tool", "converted_from", *READ_COLUMNS, *units.COLUMN.values()}
    samples = t.samples[[c for c in t.samples.columns if c in read]]
    samples = samples[samples["run_id"].isin(ids)]
    runs = t.runs[t.runs["run_id"].isin(ids)]
    out = stats.summarize(
        samples,
        runs,
        by=[*by, "tool", "converted_from"],
        metric=basis,
        level=level,
        quantiles=quantiles,
        unit=unit,
    )
    out = out[out["q"].notna() | out["stat"].isin(KEEP_STATS)].copy()
    out["source"] = "samples"
    out["run_id"] = pd.NA
    return out


def _histogram_rows(
    t: Tables, ids: set[str], basis: str, by: list[str], level: float, quantiles: Sequence[float]
) -> pd.DataFrame:
    """Percentiles of merged histograms (exact: counts add), each known to its bin."""
    samples = t.samples[t.samples["run_id"].isin(ids)]
    runs = t.runs[t.runs["run_id"].isin(ids)]
    cols = [*by, "tool", "converted_from"]
    out = stats.histogram_quantiles(samples, runs, by=cols, quantiles=quantiles, level=level)
    out["metric"], out["source"], out["run_id"] = basis, "histogram", pd.NA
    return _printed_in_bin(out, t, runs, basis, cols)


def _printed_in_bin(
    out: pd.DataFrame, t: Tables, runs: pd.DataFrame, basis: str, cols: list[str]
) -> pd.DataFrame:
    """A one-run group's histogram quantile whose run printed that quantile inside its bin
    takes the printed value (exact: of every transaction), its interval staying the bins':
    lagscope's 100 µs bins put 2→1's median at '100 µs (95% CI 0–100)' (the bin's top
    edge) beside 1→2's printed 30 µs, where lagscope printed '50% 22'."""
    if out.empty:
        return out
    one = out["n_runs"].eq(1) & out["stat"].astype(str).str.startswith("p")
    if not one.any():
        return out
    s = t.summaries
    s = s[s["run_id"].isin(runs["run_id"]) & s["metric"].eq(basis) & s["source"].eq("reported")]
    printed = {  # a value and the range it was printed to (lagscope's '22': 22–23 µs)
        (r, st): (v, lo, hi)
        for r, st, v, lo, hi in zip(
            s["run_id"], s["stat"].astype(str), s["value"], s["bound_low"], s["bound_high"]
        )
    }
    of_key = {k: r for r, k in _keys(runs, cols).items()}  # one run a group: the row's run
    k = out.reindex(columns=cols).astype("string").fillna("<NA>")
    out = out.copy()
    for i, key in zip(out.index[one], k[one].itertuples(index=False, name=None)):
        v, v_lo, v_hi = printed.get((of_key.get(key), str(out.at[i, "stat"])), (None,) * 3)
        lo, hi = out.at[i, "bound_low"], out.at[i, "bound_high"]
        if v is not None and pd.notna(lo) and lo <= v <= hi:
            out.at[i, "estimate"] = v  # no longer known only to its bin: to what it printed
            out.loc[i, ["bound_low", "bound_high"]] = [v_lo, v_hi]
            out.at[i, "note"] = "printed by the tool, inside its bin (the interval is the bins')"
    return out


def _reported_rows(
    t: Tables, ids: set[str], basis: str, by: list[str], level: float
) -> pd.DataFrame:
    s = t.summaries[
        t.summaries["run_id"].isin(ids)
        & (t.summaries["metric"] == basis)
        & (t.summaries["source"] == "reported")
    ]
    s = s[s["stat"].map(lambda x: bool(_PCT.match(x)) or x in KEEP_STATS)]
    if s.empty:
        return pd.DataFrame()
    # The mean gets the interval its printed mean, std and count allow (or the tool's own).
    means = stats.summary_only_interval(
        t.summaries[t.summaries["run_id"].isin(ids)], metric=basis, level=level
    )
    means = means.set_index("run_id") if len(means) else means
    rows = []
    for r in s.itertuples(index=False):
        base = {
            "run_id": r.run_id,
            "metric": basis,
            "unit": r.unit,
            "stat": r.stat,
            "q": _q(r.stat),
            "estimate": r.value,
            "ci_low": np.nan,
            "ci_high": np.nan,
            "level": np.nan,
            "method": "printed by the tool",
            "unit_of_analysis": "packet",
            "n": r.n,
            "n_runs": 1,
            "n_eff": np.nan,
            "estimable": False,
            "note": REPORTED_PCT if r.stat.startswith("p") else "printed by the tool",
            "bound_low": r.bound_low,
            "bound_high": r.bound_high,
            "range_low": np.nan,
            "range_high": np.nan,
            "source": "reported",
        }
        if r.stat == "mean" and len(means) and r.run_id in means.index:
            m = means.loc[r.run_id]
            base.update({k: m[k] for k in ("ci_low", "ci_high", "level", "method", "estimable")})
            # the caveat of an interval only where there is one (a tool that printed no std
            # gets the reason it has none, not "assumes independent packets")
            base["note"] = (m.get("caveat") if m["estimable"] else "") or m["note"]
        rows.append(base)
    out = _out_of_order(pd.DataFrame(rows))
    cols = [c for c in [*by, "tool", "converted_from"] if c in t.runs.columns]
    return out.merge(t.runs[["run_id", *cols]], on="run_id", how="left")


_ORDER = {"min": 0.0, "max": 1.0}


def _out_of_order(rows: pd.DataFrame) -> pd.DataFrame:
    """A run's printed percentiles that break the order of the rest (ethr prints a P50 above
    its P90: 'P50 1.940ms', 'P90 124.105us', 'P99 141.989us') are not used: the estimate is
    left empty and the note gives the printed value and what it contradicts.  The rest are
    the longest run of them, min and max included, that does not decrease with q (the store
    keeps every value as printed)."""
    for _, g in rows.groupby("run_id", sort=False):
        order = g["q"].fillna(g["stat"].map(_ORDER)).dropna()
        if len(order) < 2:
            continue
        ranked = g.loc[order.sort_values(kind="stable").index]
        ranked = ranked[ranked["estimate"].notna()]  # a printed 'nan' is in no order
        values = ranked["estimate"].to_numpy(dtype=float)
        if (np.diff(values) >= 0).all():
            continue
        keep = _longest_rising(values)
        for i, (idx, r) in enumerate(ranked.iterrows()):
            if keep[i] or not r["stat"].startswith("p"):
                continue
            near = ranked.iloc[[j for j in range(len(ranked)) if keep[j]]]
            other = near.iloc[
                (near["q"].fillna(near["stat"].map(_ORDER)) - order[idx]).abs().argmin()
            ]
            rows.loc[idx, "estimate"] = np.nan
            rows.loc[idx, "note"] = (
                f"printed {r['estimate']:g} {r['unit']}, out of order with the run's other "
                f"percentiles ({other['stat']} {other['estimate']:g} {other['unit']}): not used"
            )
    return rows


def _longest_rising(values: np.ndarray) -> list[bool]:
    """Which of ``values`` form the longest subsequence that never decreases (the first such
    where there are several); O(n²), n is a run's dozen printed figures."""
    n = len(values)
    best, prev = [1] * n, [-1] * n
    for i in range(n):
        for j in range(i):
            if values[j] <= values[i] and best[j] + 1 > best[i]:
                best[i], prev[i] = best[j] + 1, j
    i, keep = int(np.argmax(best)), [False] * n
    while i >= 0:
        keep[i], i = True, prev[i]
    return keep


def label_part(col: str, value) -> str:
    """How a label says ``col``'s ``value``: 'AN on', 'D4as_v4', '350 B', 'to 10.0.0.5'."""
    if col == "src_zone":
        return ""  # shown with dst_zone
    if col == "dst_zone":
        return "zone {}→{}"
    if col == "accelerated_networking":
        return f"AN {'on' if value else 'off'}"
    if col == "vm_size":
        return str(value).removeprefix("Standard_")
    if col == "msg_size_bytes":
        return f"{int(value)} B"
    if col == "src_host":
        return f"from {value}"
    if col in ("dst_host", "dst_ip"):
        return f"to {value}"
    if col == "protocol":
        return str(value).upper().replace("V6", "v6")
    return str(value)


def _labels(out: pd.DataFrame, by: list[str], runs: pd.DataFrame) -> pd.Series:
    """A short label per row: the scenario, then the ``by`` values that vary within it
    (zones, placement, AN, VM size, message size), then the tool; the campaign when several
    are shown; the run's role, file or a free label when printed runs would look the same."""
    if out.empty:
        return pd.Series([], dtype=str)
    scen = [c for c in ("campaign", "scenario") if c in by]
    rest = [c for c in by if c not in scen]
    keyed = out[scen].astype("string").fillna("") if scen else pd.DataFrame(index=out.index)
    key = keyed.apply(tuple, axis=1) if scen else pd.Series([()] * len(out), index=out.index)
    hosts = [c for c in ("src_host", "dst_host", "dst_ip") if c in rest]
    varies = _varying(out, key, [c for c in rest if c not in hosts])
    many = "campaign" in out.columns and out["campaign"].nunique() > 1
    label = pd.Series(
        [_row_label(r, by, varies[key[i]], many) for i, r in out.iterrows()],
        index=out.index,
        dtype=object,
    )
    label = _with_hosts(label, out, hosts)
    return _runs_apart(label, out, runs)


def _varying(out: pd.DataFrame, key: pd.Series, candidates: list[str]) -> dict:
    """Per scenario ``key``: the columns of ``candidates`` whose value varies within it."""
    varies = {}
    for k in key.unique():
        rows = out[key == k]
        varies[k] = [c for c in candidates if _differs(rows, c)]
        if "src_zone" in varies[k] and "dst_zone" not in varies[k]:
            varies[k].append("dst_zone")  # the arrow is drawn with dst_zone: 1→1 and 2→1
    return varies


def _differs(rows: pd.DataFrame, col: str) -> bool:
    """Whether ``col`` tells ``rows`` apart; a protocol only where one tool measured with
    several (ping's is ICMP and sockperf's TCP: no label needs to say so)."""
    if col == "protocol":
        return bool((rows.groupby("tool")[col].nunique(dropna=False) > 1).any())
    return rows[col].astype("string").nunique(dropna=False) > 1


def _row_label(r: pd.Series, by: list[str], varies: list[str], many: bool) -> str:
    """The label of one row: campaign (when ``many``), scenario, the ``varies`` values, tool."""
    parts = [str(r["campaign"])] if many else []
    if "scenario" in by and isinstance(r.get("scenario"), str):
        parts.append(r["scenario"])
    zoned = not pd.isna(r.get("src_zone")) and not pd.isna(r.get("dst_zone"))
    for c in varies:
        v = r.get(c)
        if c == "dst_zone" and not zoned:  # one end's zone known: 'zone nan→1' was shown
            src = r.get("src_zone")
            if pd.notna(v) or pd.notna(src):
                parts.append(f"to zone {v}" if pd.notna(v) else f"from zone {src}")
            continue
        if pd.isna(v) or c == "src_zone" or (c == "zone_pair" and zoned):
            continue
        if c == "zone_pair":
            parts.append(f"zones {str(v).replace('-', '–')} (direction unknown)")
            continue
        if c == "placement" and zoned and v in ("same_zone", "cross_zone"):
            continue  # the zones shown already say it
        text = label_part(c, v)
        parts.append(text.format(r.get("src_zone"), v) if c == "dst_zone" else text)
    parts.append(str(r["tool"]))
    text = " · ".join(parts)
    if isinstance(r.get("converted_from"), str):
        text += f" (printed as {r['converted_from']})"
    return text


def _runs_apart(label: pd.Series, out: pd.DataFrame, runs: pd.DataFrame) -> pd.Series:
    """Printed runs that share a label (latte's sender and receiver, seed 004's windows): add
    the first run attribute that tells them all apart (role, file name, a free label), or
    every attribute that differs when none does alone.  Where those leave two runs alike (a
    write-up's runs under two headings of one file), the heading above each output, else the
    line it starts at, else its run id: a label is one run's printed figures, never two
    runs' mixed."""
    rep = out["run_id"].notna()
    if not rep.any():
        return label
    info = runs.set_index("run_id")
    free = labels(runs).set_index(runs["run_id"])
    sources = [
        info["role"],
        info["source_path"].map(lambda p: str(p).rsplit("/", 1)[-1]),
        *(
            free[c].map(lambda v, c=c: f"{c} {_whole(v)}" if pd.notna(v) else v)
            for c in free.columns
        ),
    ]
    last = [
        *([info["heading"].map(_quoted)] if "heading" in info else []),
        *([info["line_start"].map(_line)] if "line_start" in info else []),
        pd.Series(info.index, index=info.index),
    ]
    for lab in label[rep].unique():
        rows = rep & (label == lab)
        ids = out.loc[rows, "run_id"]
        first = ~ids.duplicated()
        n = int(first.sum())
        if n < 2:
            continue
        cols = [ids.map(src).astype("string").fillna("") for src in sources]
        cols = [c for c in cols if c[first].nunique() > 1]
        alone = [c for c in cols if c[first].nunique() == n and c.ne("").all()]
        use = alone[:1] or cols
        extra = (
            pd.Series([", ".join(x for x in vals if x) for vals in zip(*use)], index=ids.index)
            if use
            else pd.Series("", index=ids.index)
        )
        if extra[first].nunique() < n:
            apart = (ids.map(src).astype("string").fillna("") for src in last)
            tell = next(c for c in apart if c[first].nunique() == n and c.ne("").all())
            extra = (extra + ", " + tell).str.removeprefix(", ")
        label[rows] = label[rows] + extra.map(lambda x: f" ({x})" if x else "")
    return label


def _whole(value: object) -> object:
    """A free label's number as written: 101, not the 101.0 a column with gaps holds."""
    return int(value) if isinstance(value, float) and value.is_integer() else value


def _quoted(heading: object) -> object:
    return f"‘{heading}’" if isinstance(heading, str) and heading.strip() else pd.NA


def _line(n: object) -> object:
    return f"line {int(n)}" if pd.notna(n) else pd.NA


def _with_hosts(label: pd.Series, out: pd.DataFrame, hosts: list[str]) -> pd.Series:
    """Labels shared by groups of other endpoints get the hosts that tell them apart
    (``'· to 10.0.0.5'``): two pings to two targets never read as one group."""
    if not hosts:
        return label
    names = out[hosts].astype("string").fillna("")
    ends = names.agg("|".join, axis=1)
    for lab in label.unique():
        rows = label == lab
        if ends[rows].nunique() < 2:
            continue
        differ = [c for c in hosts if names.loc[rows, c].nunique() > 1]
        if "dst_host" in differ and "dst_ip" in differ:
            differ.remove("dst_ip")  # the host names it
        extra = names.loc[rows, differ].apply(
            lambda r: " · ".join(label_part(c, v) for c, v in r.items() if v), axis=1
        )
        parts = label[rows].str.rsplit(" · ", n=1)
        label[rows] = [
            f"{p[0]} · {x} · {p[1]}" if len(p) == 2 and x else f"{lab} ({x})" if x else lab
            for p, x in zip(parts, extra)
        ]
    return label


def _keys(runs: pd.DataFrame, cols: list[str]) -> dict[str, tuple]:
    """run_id → its group key over ``cols`` (unknown values compare equal)."""
    k = runs[cols].astype("string").fillna("<NA>")
    return dict(zip(runs["run_id"], k.itertuples(index=False, name=None)))


def group_labels(percentiles: pd.DataFrame, cols: list[str]) -> dict[tuple, str]:
    """Group key (as :func:`_keys` makes it) → label, from a :func:`latency_percentiles`
    frame."""
    k = percentiles[cols].astype("string").fillna("<NA>")
    return dict(zip(k.itertuples(index=False, name=None), percentiles["label"]))


@memo
def latency_percentiles(
    tables: Tables,
    *,
    basis: str | None = None,
    level: float = 0.95,
    by: Sequence[str] = GROUP,
    quantiles: Sequence[float] = QUANTILES,
    unit: str = "auto",
) -> pd.DataFrame:
    """Mean, min, max and percentiles of every latency group, with intervals where the data
    allow them.

    Runs with samples are summarised per group of ``by`` + tool by ``stats.summarize``
    (``unit="auto"``: the run is the unit when a group has several runs); runs without
    samples give one row per printed statistic.  ``basis=None`` keeps each run in the basis
    its tool printed; ``"rtt"`` or ``"half_rtt"`` converts explicitly (``converted_from``
    says from what)."""
    qs = tuple(float(q) for q in quantiles)
    if stamped(tables) and qs != _SHARED and list(qs) == sorted(set(qs)) and set(qs) <= {*_SHARED}:
        # a whole campaign's: cut from the rows of every quantile any page asks for; the
        # rows of the quantiles not asked for are left out, the printed ones all kept
        whole = _shared_percentiles(tables, basis=basis, level=level, by=list(by), unit=unit)
        keep = whole["source"].eq("reported") | whole["q"].isna() | whole["q"].isin(qs)
        return whole[keep].reset_index(drop=True)
    return _percentiles(tables, basis, level, list(by), qs, unit)


@memo
def _shared_percentiles(
    tables: Tables, *, basis: str | None, level: float, by: Sequence[str], unit: str
) -> pd.DataFrame:
    """:func:`latency_percentiles` of every quantile in ``_SHARED``, kept for the pages that
    ask for some of them (0.3 to 1.4 s a campaign's page)."""
    return _percentiles(tables, basis, level, list(by), _SHARED, unit)


def _mixed_protocols(runs: pd.DataFrame) -> bool:
    """Whether one tool's runs name two protocols (sockperf with and without ``--tcp``; ICMP
    over IPv4 and IPv6 are one): only then does the protocol make groups, and a run that
    names none is a group of its own rather than pooled with either."""
    if "protocol" not in runs.columns:
        return False
    known = runs.dropna(subset=["protocol"])
    family = known["protocol"].astype(str).str.removesuffix("v6")  # ICMP over IPv4 or IPv6
    return bool((family.groupby(known["tool"]).nunique() > 1).any())


def _percentiles(
    tables: Tables,
    basis: str | None,
    level: float,
    by: list[str],
    quantiles: Sequence[float],
    unit: str,
) -> pd.DataFrame:
    mixed = _mixed_protocols(tables.runs)
    by = [c for c in by if c in tables.runs.columns and (c != "protocol" or mixed)]
    t, printed = _convert(tables, basis)
    keys = _keys(t.runs, [*by, "tool", "converted_from"])
    tool_of = dict(zip(t.runs["run_id"], t.runs["tool"].astype(str)))
    parts, apart = [], set()
    for b in ("rtt", "half_rtt"):
        ids = {rid for rid, pb in printed.items() if (basis or pb) == b}
        if not ids:
            continue
        with_samples = ids & sample_runs(t.samples, units.basis_column(b))
        if with_samples:
            parts.append(_sample_rows(t, with_samples, b, by, level, quantiles, unit))
        # Histogram bins are in the basis printed: used only when nothing was converted.
        hist = (ids & histogram_runs(t.samples)) - with_samples if basis in (None, b) else set()
        hist = {r for r in hist if printed[r] == b}
        if hist:
            parts.append(_histogram_rows(t, hist, b, by, level, quantiles))
        with_samples |= hist
        sampled = {keys[r] for r in with_samples}
        printed_only = {r for r in ids - with_samples if keys[r] not in sampled}
        # a run of a tool whose outputs hold their own samples is no console summarising
        # another's: its group's figure leaves it out (a mean is not pooled with samples), said
        apart |= {r for r in ids - with_samples if keys[r] in sampled and _own_samples(tool_of[r])}
        reported = _reported_rows(t, printed_only, b, by, level)
        if len(reported):
            parts.append(reported)
    cols = [
        *by,
        "tool",
        "label",
        "basis",
        "converted_from",
        "stat",
        "q",
        *INTERVAL_COLUMNS,
        "unit",
        "source",
        "run_id",
        "step_us",
    ]
    if not parts:
        return pd.DataFrame(columns=cols)
    out = _untimed(pd.concat(parts, ignore_index=True).rename(columns={"metric": "basis"}))
    out["label"] = _labels(out, by, t.runs)
    out = _printed_apart(out, apart, keys, [*by, "tool", "converted_from"])
    out["step_us"] = _steps(out, t.runs, keys, [*by, "tool", "converted_from"])
    return out.reindex(columns=cols).reset_index(drop=True)


def _steps(out: pd.DataFrame, runs: pd.DataFrame, keys: dict, cols: list[str]) -> pd.Series:
    """Each row's printing step in µs: 1000 where its figure is of samples and every run of
    its group printed whole milliseconds, truncated (Windows ping: '1ms' is 1.000-1.999 ms,
    '<1ms' below 1), else NaN.  Such a figure is known only to lie in [figure, figure + step):
    1.5 ms against 1 ms medians of such values could be 0.75× to 2.5× (``_pages.step_span``)."""
    group = runs["run_id"].map(keys)
    whole = {k: whole_ms(g) for k, g in runs.groupby(group, sort=False)} if len(runs) else {}
    k = out.reindex(columns=cols).astype("string").fillna("<NA>").itertuples(index=False, name=None)
    step = [
        1000.0 if s == "samples" and whole.get(x, False) else np.nan
        for x, s in zip(k, out["source"])
    ]
    return pd.Series(step, index=out.index, dtype=float)


# A sample figure's note of the group's runs it leaves out (:func:`_printed_apart`), which
# :func:`apart` reads back for the pages' sentences.
_APART = "of the group printed summary statistics only, not pooled with these samples"
_APART_COUNT = re.compile(r"(\d+) more runs? " + re.escape(_APART))


def apart(r: pd.Series) -> str:
    """'leaves out 1 run that printed a summary only' of a figure from samples whose group
    holds runs that printed statistics alone (:func:`_printed_apart`), else ''."""
    k = _APART_COUNT.search(str(r.get("note") or ""))
    return f"leaves out {counted(int(k[1]), 'run')} that printed a summary only" if k else ""


@functools.cache
def _own_samples(tool: str) -> bool:
    return tool in parsers.tools() and parsers.get(tool).INFO.own_samples


def _printed_apart(out: pd.DataFrame, apart: set, keys: dict, cols: list[str]) -> pd.DataFrame:
    """The rows of each group from samples that leave out runs of the group which printed
    summary statistics only, their note saying so: netperf's classic TCP_RR table (a mean
    round trip) beside a -v 2 histogram of the same pair, whose median said 'one run' of
    the pair's two."""
    if not apart:
        return out
    n: dict[tuple, int] = {}
    for r in apart:
        n[keys[r]] = n.get(keys[r], 0) + 1
    k = out.reindex(columns=cols).astype("string").fillna("<NA>")
    more = pd.Series([n.get(x, 0) for x in k.itertuples(index=False, name=None)], index=out.index)
    hit = more.gt(0) & out["source"].ne("reported")
    if not hit.any():
        return out
    said = more[hit].map(lambda m: f"{counted(m, 'more run')} {_APART}")
    before = out.loc[hit, "note"].astype("string").replace("", pd.NA)
    out = out.copy()
    out.loc[hit, "note"] = said.where(before.isna(), before + "; " + said)
    return out


_UNTIMED = ("printed as 0 µs", "0 µs from the samples")


def _untimed(out: pd.DataFrame) -> pd.DataFrame:
    """Latencies of 0 µs are no value: no packet crosses a network in no time, so a tool that
    prints 0 (ethr's '0.000ns' connects on Windows, its server's batches of mostly 0) or whose
    every sample is 0 timed below its resolution.  Set against one, a group was 'inf× apart'
    on a page; here its statistic has no value and ``note`` says why."""
    stat = out["stat"].astype(str)
    timed = stat.isin(("mean", "min", "max")) | stat.str.fullmatch(r"p[\d.]+")
    zero = out["estimate"].eq(0) & timed
    if not zero.any():
        return out
    out = out.copy()
    what = out["source"].map({"reported": _UNTIMED[0]}).fillna(_UNTIMED[1])
    said = what + ": below what the tool can time, no value"
    out.loc[zero, ["estimate", "ci_low", "ci_high"]] = np.nan
    before = out.loc[zero, "note"].astype("string").replace("", pd.NA)
    out.loc[zero, "note"] = said[zero].where(before.isna(), said[zero] + "; " + before)
    return out


def headline(
    percentiles: pd.DataFrame, stat: str = "p50", *, fallback: bool = True
) -> pd.DataFrame:
    """One row per label: ``stat`` where the group has it, else its mean (a tool that prints
    only a mean, like ping's summary line or qperf), with ``stat`` saying which.  With
    ``fallback=False`` a group without ``stat`` gets an empty row of ``stat`` whose note
    says what the tool printed instead."""
    rows = []
    for _, g in percentiles.groupby("label", sort=False):
        want, mean = g[g["stat"] == stat], g[g["stat"] == "mean"]
        if want["estimate"].notna().any():
            pick = want
        elif fallback and mean["estimate"].notna().any():
            pick = mean
            untimed = want["note"].astype("string").str.startswith(_UNTIMED[0], na=False)
            if untimed.any():  # a median printed as 0: the mean stands in, and says why
                row = mean.iloc[0].copy()
                said = str(want["note"][untimed].iloc[0]).split("; ")[0]
                row["note"] = f"the {stat} {said}; the mean instead"
                rows.append(row)
                continue
        elif not fallback and want.empty:
            rows.append(_missing(g, stat))
            continue
        else:  # nothing estimable: the wanted row, whose bounds say what is known
            pick = want if len(want) else g
        rows.append(pick.iloc[0])
    return pd.DataFrame(rows).reset_index(drop=True) if rows else percentiles.iloc[0:0]


# Page 10 tabulates the percentiles from the median to p99.9; the finer tail is page 11's.
TABLED = (0.5, 0.999)


def percentile_rows(
    percentiles: pd.DataFrame, quantiles: Sequence[float] | None = None
) -> pd.DataFrame:
    """The rows of ``percentiles`` :func:`percentile_table` shows: those of ``quantiles``, by
    default every percentile from p50 to p99.9 that some group has (a printed 'percentile
    99.900' is q 0.9990000000000001: matched to 9 places)."""
    key = percentiles["q"].round(9)
    if quantiles is None:
        return percentiles[key.between(*TABLED)]
    return percentiles[key.isin([round(q, 9) for q in quantiles])]


def percentile_table(
    percentiles: pd.DataFrame,
    quantiles: Sequence[float] | None = None,
    *,
    level: float = 0.95,
) -> pd.DataFrame:
    """One row per latency group and basis that has percentiles: each of ``quantiles`` (by
    default every one from p50 to p99.9 that some group has: the samples' p50, p75, p90,
    p99, p99.9 and what the tools printed, seed 004's p95 too) as ``'265.5 (258.5–274.4)
    µs'``, the estimate and its interval at ``level``; the range across the runs where too
    few give an interval, the estimate alone where there is neither (printed by the tool, or
    not estimable), the bound where only one is known (``'< 1 ms'``), ``'n/a'`` where the
    group has no such percentile; ``note`` says why, each reason once.  Each group's
    ``source`` (samples or reported) and ``n_runs`` too."""
    want = percentile_rows(percentiles, quantiles)
    shown = quantiles if quantiles is not None else sorted(want["q"].round(9).unique())
    names = {round(q, 9): f"p{100 * q:g}" for q in shown}
    heads = {q: f"{name} ({level:.0%} CI)" for q, name in names.items()}
    rows = []
    for (label, basis), g in want.groupby(["label", "basis"], sort=False):
        by_q = {round(float(r["q"]), 9): r for _, r in g.iterrows()}
        row = {"label": label, "basis": basis, "source": ", ".join(dict.fromkeys(g["source"]))}
        row["n_runs"] = g["n_runs"].max()
        row |= {head: fmt_cell(by_q[q]) if q in by_q else "n/a" for q, head in heads.items()}
        # each reason once (a short series gives the same few for every percentile), those
        # of the cells with no value first: a page cuts a long note short
        no_ci = g["ci_low"].isna() | g["ci_high"].isna()
        lacking = pd.concat([g.loc[g["estimate"].isna(), "note"], g.loc[no_ci, "note"]])
        why = dict.fromkeys(p for n in lacking.dropna() for p in n.split("; ") if p)
        absent = [name for q, name in names.items() if q not in by_q]
        if absent:  # the 'n/a' cells: seed 004's table gives p95 and p99 alone
            said = f"the tool printed no {_or(absent)}"
            if set(g["source"]) != {"reported"}:
                said = f"{_or(absent)} not computed from the samples (page 11 has more)"
            why = {said: None, **why}
        row["note"] = "; ".join(why)
        rows.append(row)
    columns = ["label", "basis", "source", "n_runs", *heads.values(), "note"]
    return pd.DataFrame(rows, columns=columns)


def _or(names: list[str]) -> str:
    """``['p50', 'p90', 'p99.9']`` -> ``'p50, p90 or p99.9'``."""
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} or {names[-1]}"


def _missing(group: pd.DataFrame, stat: str) -> pd.Series:
    """A group's row for a statistic it does not have: empty, saying what there is."""
    row = group.iloc[0].copy()
    for c in ("estimate", "ci_low", "ci_high", "level", "bound_low", "bound_high"):
        if c in row.index:
            row[c] = np.nan
    row["stat"], row["q"], row["estimable"] = stat, _q(stat), False
    has = ", ".join(sorted(set(group["stat"].astype(str))))
    row["note"] = f"no {stat}: the tool printed only {has}"
    row["method"] = ""
    return row
