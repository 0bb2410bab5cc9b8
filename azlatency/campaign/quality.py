"""The quality list of an import: runs that are in the tables but need a second look.

Each row names the file, the run, an issue from
:data:`azlatency.campaign.import_report.ISSUES` and a detail.
Nothing here changes the tables; analyses decide what to do with, say, an incomplete run.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np
import pandas as pd

from .import_report import ISSUES

_COUNTS = (  # run column → issue, when the count is above zero
    ("dropped", "dropped"),
    ("duplicates", "duplicates"),
    ("out_of_order", "out_of_order"),
    ("errors", "errors"),
)
_ORDER = {issue: i for i, issue in enumerate(ISSUES)}


# What makes two runs' figures the same: every summary row but its run_id.
FIGURES = (
    "run_id",
    "metric",
    "stat",
    "value",
    "unit",
    "source",
    "level",
    "n",
    "hop",
    "bound_low",
    "bound_high",
)
# How unlikely two runs alike are to show the same figures, in bits, before one run read
# twice is what the note says: 'Minimum = 1ms, Maximum = 2ms, Average = 1ms' over three
# replies of 1, 1 and 2 ms tells 2.5 bits (a campaign of Windows pings repeats it), a paced
# UDP iperf3's two intervals of ~100 Mbit/s 2 bits; nine ethr percentiles printed to the
# nanosecond ~120, ten pings of a zone pair ~30, samples with their own times no end.
_TELLING_BITS = 24.0
_VALUES = ("rtt_us", "half_rtt_us", "one_way_us", "bits_per_second", "count", "bytes")
_TIMES = ("time_ns", "tx_time_ns", "rx_time_ns")
# Known on both runs and different: two runs, whatever their figures.
# (The client's and the server's report of one transfer are two runs: their roles differ.)
_APART = ("start_time", "src_ip", "dst_ip", "src_host", "dst_host", "role", "mode", "protocol")

SamplesOf = Callable[[list[str]], pd.DataFrame]


def repeated(
    runs: pd.DataFrame, summaries: pd.DataFrame, samples_of: SamplesOf | None = None
) -> list[dict[str, Any]]:
    """A ``repeated_run`` row for every run that is a run before it again: one output saved
    twice (a copy under another name, with other line ends or a prompt above it), pasted
    twice into a file, or its console beside its log.  Both stay in the tables; a report
    leaves the one named out (``report._data.load_campaigns``), so that no statistic counts
    one run twice.

    The same run shows every figure of the other (its summaries: the tool's own and those
    computed from its samples) and, with samples, the same samples in the same order; and
    its figures tell enough (:data:`_TELLING_BITS`) that two runs would not show them by
    chance.  ``samples_of`` gives the samples of the runs named (only runs whose figures
    match another's are asked for)."""
    if not len(summaries) or len(runs) < 2:
        return []
    s = summaries.loc[:, list(FIGURES)].sort_values(list(FIGURES), kind="stable")
    row_hash = pd.util.hash_pandas_object(s.drop(columns="run_id"), index=False)
    keys = row_hash.groupby(s["run_id"].to_numpy()).agg(lambda h: hash(tuple(h)))
    alike = keys[keys.duplicated(keep=False)]
    if not len(alike):
        return []
    figures = s[s["run_id"].isin(alike.index)]
    bits = _reported_bits(figures).reindex(alike.index, fill_value=0.0)
    sampled = pd.DataFrame(columns=["digest", "bits", "n"])
    if samples_of is not None:
        sampled = _sample_evidence(samples_of(list(alike.index)))
        bits = bits.combine(sampled["bits"].reindex(alike.index, fill_value=0.0), max)
    key = {rid: (k, sampled["digest"].get(rid)) for rid, k in alike.items()}
    info = runs.set_index("run_id")
    first: dict[tuple, list[str]] = {}
    out = []
    for rid in runs["run_id"]:  # file order: the first of a kind is the one named
        if rid not in key or bits[rid] < _TELLING_BITS:
            continue
        before = first.setdefault((info.at[rid, "tool"], key[rid]), [])
        same = next((o for o in before if not _apart(info.loc[o], info.loc[rid])), None)
        if same is None:
            before.append(rid)
            continue
        shown = f"{int(figures['run_id'].eq(rid).sum())} statistics"
        if rid in sampled.index:
            shown += f", {int(sampled.at[rid, 'n'])} samples in order"
        where = f"{info.at[same, 'source_path']} (line {info.at[same, 'line_start']})"
        out.append(
            {
                "run_id": rid,
                "issue": "repeated_run",
                "detail": f"every figure ({shown}) is run {same}'s of {where}: one run read "
                "twice (a copy, or its console and its log)? Both are in the store; a "
                "report leaves this one out of its statistics",
            }
        )
    return out


def printed_again(runs: pd.DataFrame, samples_of: SamplesOf | None) -> list[dict[str, Any]]:
    """A ``repeated_run`` row for every run whose samples are another run's printed to fewer
    digits: one execution in two outputs (irtt's console, '207µs', beside its ``-o`` JSON of
    nanoseconds), which :func:`repeated` cannot see (no figure is the same to the letter).
    Counted twice, a pair's probes were twice its own and one execution was two runs of a
    test across runs.  Candidates are runs of one tool with the same probes sent and
    received, not told apart (:data:`_APART`); they are one execution where the samples, in
    sequence order, have the same statuses and every value lies within half a printed digit
    of the other's, and the values tell :data:`_TELLING_BITS`.  The coarser is named."""
    if samples_of is None or len(runs) < 2 or "packets_sent" not in runs:
        return []
    key = ["tool", "packets_sent", "packets_received"]
    counted = runs.dropna(subset=key)
    counted = counted[counted.duplicated(key, keep=False)]
    samples = samples_of(list(counted["run_id"])) if len(counted) else pd.DataFrame()
    if samples.empty:
        return []
    probes = {rid: _Probes(g) for rid, g in samples.groupby("run_id", sort=False)}
    info = counted.set_index("run_id")
    done = info["complete"] if "complete" in info else pd.Series(dtype=object)
    out, named = [], set()
    for _, group in counted.groupby(key, sort=False):
        ids = [r for r in group["run_id"] if r in probes and probes[r].values is not None]
        for i, a in enumerate(ids):
            for b in ids[i + 1 :]:
                if {a, b} & named:
                    continue
                coarse = probes[a].printed_again(probes[b])  # cheap: first (86 alike runs)
                if coarse is None or _apart(info.loc[a], info.loc[b]):
                    continue
                # the coarser one named; of two alike, one cut short, else the later
                cut = _false(done.get(a)) and not _false(done.get(b))
                gone, kept = (a, b) if coarse > 0 or (coarse == 0 and cut) else (b, a)
                named.add(gone)
                where = f"{info.at[kept, 'source_path']} (line {info.at[kept, 'line_start']})"
                how = (
                    "printed to fewer digits: one run in two outputs (a console and its file)?"
                    if coarse
                    else "to the letter, its other figures not: one run read twice (a copy "
                    "cut short, or its console and its log)?"
                )
                out.append(
                    {
                        "run_id": gone,
                        "issue": "repeated_run",
                        "detail": f"its {probes[gone].n} samples are run {kept}'s of {where} "
                        f"{how} Both are in the store; a report leaves this one out of its "
                        "statistics",
                    }
                )
    return out


class _Probes:
    """One run's samples as :func:`printed_again` compares them: in sequence order where
    each has its own (irtt's console prints a lost probe after the replies), their statuses,
    the first value column they fill and, asked once, each value's printed digit."""

    def __init__(self, g: pd.DataFrame) -> None:
        if "seq" in g and g["seq"].notna().all() and g["seq"].is_unique:
            g = g.sort_values("seq", kind="stable")
        self.n = len(g)
        self.seq = g["seq"].to_numpy(dtype=float) if "seq" in g else None
        self.status = g["status"].astype(str).to_numpy() if "status" in g else None
        col = next((c for c in _VALUES if c in g and g[c].notna().any()), None)
        self.col = col
        self.values = None if col is None else g[col].to_numpy(dtype=float, na_value=math.nan)
        self._ulps: Any = None

    def ulps(self) -> Any:
        if self._ulps is None:
            self._ulps = pd.Series(self.values).map(_ulp).to_numpy()
        return self._ulps

    def printed_again(self, other: _Probes) -> int | None:
        """1 where this run is ``other`` printed to fewer digits, -1 where ``other`` is this
        run so, 0 where they are the same to the letter, None where they are two runs."""
        x, y = self.values, other.values
        if self.col != other.col or x is None or y is None or len(x) != len(y):
            return None
        for mine, theirs in ((self.seq, other.seq), (self.status, other.status)):
            if mine is not None and theirs is not None and not (mine == theirs).all():
                return None
        known = x == x
        if not (known == (y == y)).all() or not known.any():
            return None
        gap = abs(x[known] - y[known])
        if (gap > 0.05 * abs(y[known]) + 1e-9).any():  # further than any printed digit
            return None
        ux, uy = self.ulps()[known], other.ulps()[known]
        half = 0.5 * np.maximum(ux, uy) * (1 + 1e-9)
        if (gap > half).any() or _told(pd.Series(x)) < _TELLING_BITS:
            return None
        return int(np.sign(ux.sum() - uy.sum())) if gap.any() else 0


def _ulp(value: float) -> float:
    """A unit in the last place of ``value`` as printed (:func:`_significant` digits)."""
    if value == 0 or value != value:
        return 0.0
    return 10.0 ** (math.floor(math.log10(abs(value))) - _significant(value) + 1)


def _apart(a: pd.Series, b: pd.Series) -> bool:
    return any(
        not pd.isna(a[c]) and not pd.isna(b[c]) and a[c] != b[c] for c in _APART if c in a.index
    )


def _reported_bits(s: pd.DataFrame) -> pd.Series:
    """Per run, what its printed figures tell: 3.3 bits a significant digit past the first
    two (runs of one path share their leading digits), counts and percentages left out."""
    printed = s[(s["source"] == "reported") & ~s["unit"].isin(("count", "pct"))]
    digits = printed["value"].map(_significant)
    return (3.32 * (digits - 2).clip(lower=0)).groupby(printed["run_id"]).sum()


def _told(values: pd.Series) -> float:
    """What a run of these values tells: their count times their collision entropy."""
    known = values.dropna()
    if not len(known):
        return 0.0
    p = known.value_counts(normalize=True)
    return len(known) * -math.log2(float((p**2).sum()))


def _significant(value: float) -> int:
    """Significant digits of ``value`` as the tool printed it: the fewest of the value and
    the value in binary units ('1.10 GBytes' is stored as 1,181,116,006.4 bytes)."""
    if pd.isna(value) or value == 0:
        return 0
    return min(
        len(f"{abs(value) / 1024**k:.9e}".split("e")[0].replace(".", "").rstrip("0"))
        for k in range(5)
    )


def _sample_evidence(samples: pd.DataFrame) -> pd.DataFrame:
    """Per run: a digest of its samples in order, what they tell (what its values and its
    statuses tell: a count times a collision entropy; samples with their own times tell
    without end) and how many there are."""
    rows = {}
    for rid, g in samples.groupby("run_id", sort=False) if len(samples) else ():
        g = g.drop(columns="run_id").reset_index(drop=True)
        digest = hash(pd.util.hash_pandas_object(g, index=False).to_numpy().tobytes())
        value = next((g[c] for c in _VALUES if c in g and g[c].notna().any()), None)
        if any(c in g and g[c].notna().sum() >= 2 for c in _TIMES):
            bits = math.inf
        else:
            bits = _told(g["status"]) if "status" in g else 0.0
            bits += _told(value) if value is not None else 0.0
        rows[rid] = {"digest": digest, "bits": bits, "n": len(g)}
    return pd.DataFrame.from_dict(rows, orient="index", columns=["digest", "bits", "n"])


def _false(value: Any) -> bool:
    return value is not None and not pd.isna(value) and not bool(value)


def _num(value: Any) -> float | None:
    return None if value is None or pd.isna(value) else float(value)


def assess(
    runs: pd.DataFrame,
    censored: dict[str, int],
    summaries: pd.DataFrame,
    extra: list[dict[str, Any]],
    samples_of: SamplesOf | None = None,
) -> list[dict[str, Any]]:
    """Quality rows for ``runs``; ``censored`` counts censored samples per run (taken when
    each file was parsed); ``summaries`` are the campaign's (every column :data:`FIGURES`
    names); ``extra`` adds rows found elsewhere (labels, reader); ``samples_of`` reads the
    samples of the runs it is given (:func:`repeated`)."""
    bounded = summaries[summaries["bound_low"].notna() | summaries["bound_high"].notna()]
    intervals = bounded.groupby("run_id").size().to_dict() if len(bounded) else {}
    rows: list[dict[str, Any]] = list(extra) + repeated(runs, summaries, samples_of)
    named = {r["run_id"] for r in rows if r.get("issue") == "repeated_run"}
    rows += printed_again(runs[~runs["run_id"].isin(named)], samples_of)
    for run in runs.itertuples(index=False):
        found: list[tuple[str, str]] = []
        if _false(run.complete):
            found.append(("incomplete", "no final summary: the run may have been cut short"))
        if _false(run.warmup_excluded):
            found.append(("warmup_included", "statistics include the tool's warm-up"))
        loss = _num(run.loss_pct)
        if loss:
            sent, got = run.packets_sent, run.packets_received
            counts = f" ({got} of {sent} received)" if not pd.isna(sent) else ""
            found.append(("loss", f"{loss:g}% lost{counts}"))
        for column, issue in _COUNTS:
            n = _num(getattr(run, column))
            if n:
                found.append((issue, f"{column} = {int(n)}"))
        if censored.get(run.run_id):
            found.append(("censored", f"{censored[run.run_id]} censored samples"))
        if intervals.get(run.run_id):
            found.append(
                ("interval_values", f"{intervals[run.run_id]} statistics known only as an interval")
            )
        if isinstance(run.warnings, str) and run.warnings:
            found.append(("parser_warning", run.warnings[:300]))
        rows.extend({"run_id": run.run_id, "issue": i, "detail": d} for i, d in found)
    by_id = runs.set_index("run_id")[["source_path", "tool"]].to_dict(orient="index")
    for row in rows:
        info = by_id.get(row.get("run_id"), {})
        row.setdefault("source_path", info.get("source_path"))
        row.setdefault("tool", info.get("tool"))
    rows.sort(
        key=lambda r: (
            str(r.get("source_path")),
            str(r.get("run_id") or ""),
            _ORDER.get(r["issue"], 99),
            str(r.get("detail")),
        )
    )
    return rows
