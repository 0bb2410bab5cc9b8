"""The zone matrix's other statistics: probe loss and jitter per zone pair.

Latency cells come from ``latency_percentiles`` (``_zones.zone_pair_medians``); the two
statistics here are not latencies.  Loss pools a pair's runs as total lost / total sent (a
mean of percentages would weigh a 10-probe run like a 10 000-probe one).  Jitter is kept with
its definition (docs/vocabulary.md, "Jitter"): one matrix shows one definition, the most
common among the chosen runs, and says which runs it left out for having another.
"""

from __future__ import annotations

import re

import numpy as np
import pandas as pd

from .._console import counted
from ..schema import Tables

_QUANTILE = re.compile(r"^p(\d{1,2}(?:\.\d+)?)$")
ACCEPTED = "a percentile 'pNN' or 'pNN.N' (e.g. 'p50', 'p99', 'p99.9'), 'mean', 'loss' or 'jitter'"

# Sample statuses of a probe that was sent: a timeout or a lost probe is a loss; duplicates
# and omitted warm-up probes are not sends of their own.
SENT = ("ok", "timeout", "lost", "error", "censored")
LOST = ("timeout", "lost")
PROBE_KINDS = ("packet", "reply", "probe")
# Tools whose counts over TCP are messages of one connection counted to the end: sent and
# received differ by what was in flight when the test stopped, not by loss (TCP delivers
# what it accepted).  qperf tcp_bw's 'send_msgs = 109,416', 'recv_msgs = 109,395' was
# '0.0192 % lost'.  (sockperf counts the replies of its valid duration, and prints its own
# '# dropped messages': its counts stay.)
TCP_MESSAGES = ("qperf",)

# Jitter definitions (metric/stat, docs/vocabulary.md), in the order a tie prefers them.
JITTER_NAMES = {
    "jitter/rfc3550": "jitter (RFC 3550)",
    "ipdv/mean": "IPDV mean (RFC 3393)",
    "ipdv/p50": "IPDV median (RFC 3393)",
    "jitter/p95-p50": "jitter (P95−P50)",
    "jitter/std": "jitter (standard deviation)",
    "jitter/mtr-javg": "jitter (mtr Javg)",
    "jitter/mtr-jint": "jitter (mtr Jint)",
}


def stat_kind(stat: str) -> str:
    """``'quantile'``, ``'mean'``, ``'loss'`` or ``'jitter'``; a ``ValueError`` naming the
    accepted statistics for anything else."""
    if stat in ("mean", "loss", "jitter"):
        return stat
    m = _QUANTILE.match(str(stat))
    if m and 0 < float(m[1]) < 100:
        return "quantile"
    raise ValueError(f"zone matrix statistic must be {ACCEPTED}; got {stat!r}")


def quantile_of(stat: str) -> float:
    """``'p99.9'`` → 0.999 (the median for ``'mean'``, whose row comes with it)."""
    return 0.5 if stat == "mean" else float(stat[1:]) / 100


def per_hop_runs(summaries: pd.DataFrame) -> set[str]:
    """Runs of a traced path (mtr): their loss and jitter are a hop's, not the pair's."""
    if "hop" not in summaries.columns:
        return set()
    return set(summaries.loc[summaries["hop"].notna(), "run_id"])


def run_loss(tables: Tables, runs: pd.DataFrame) -> pd.DataFrame:
    """Per run: probes ``sent`` and ``lost`` from the run's counts (``packets_sent``,
    ``packets_received``), else from its probe samples' statuses, else only its printed
    ``loss_pct`` (which cannot be pooled); none of a TCP connection's messages
    (:data:`TCP_MESSAGES`)."""
    s = tables.samples
    s = s[s["run_id"].isin(runs["run_id"]) & s["kind"].isin(PROBE_KINDS)]
    by_samples = s.groupby("run_id")["status"].agg(
        sent=lambda x: int(x.isin(SENT).sum()), lost=lambda x: int(x.isin(LOST).sum())
    )
    rows = []
    for r in runs.itertuples(index=False):
        sent, rcvd = r.packets_sent, r.packets_received
        if r.tool in TCP_MESSAGES and str(getattr(r, "protocol", "")).lower() == "tcp":
            continue  # messages in flight, not lost (TCP_MESSAGES)
        if pd.notna(sent) and pd.notna(rcvd) and sent > 0:
            rows.append((r.run_id, int(sent), max(int(sent) - int(rcvd), 0), np.nan, "counts"))
        elif r.run_id in by_samples.index and by_samples.loc[r.run_id, "sent"] > 0:
            b = by_samples.loc[r.run_id]
            rows.append((r.run_id, int(b["sent"]), int(b["lost"]), np.nan, "samples"))
        elif pd.notna(r.loss_pct):
            rows.append((r.run_id, np.nan, np.nan, float(r.loss_pct), "printed percentage"))
    return pd.DataFrame(rows, columns=["run_id", "sent", "lost", "loss_pct", "from"])


def loss_cells(tables: Tables, runs: pd.DataFrame) -> pd.DataFrame:
    """One row per (src_zone, dst_zone): percent of probes lost, pooled over the pair's runs
    as total lost / total sent.  A run known only by its printed percentage is pooled only
    when it is the pair's one run; otherwise it is left out and the note says so."""
    loss = run_loss(tables, runs).merge(runs[["run_id", "src_zone", "dst_zone"]], on="run_id")
    rows = []
    for (src, dst), g in loss.groupby(["src_zone", "dst_zone"], sort=True):
        with_counts = g[g["sent"].notna()]
        pct_only = g[g["sent"].isna()]
        note, est, n = "", np.nan, np.nan
        if len(with_counts):
            n = int(with_counts["sent"].sum())
            est = 100.0 * with_counts["lost"].sum() / n
            how = "/".join(sorted(set(with_counts["from"])))
            note = f"total lost / total sent over {counted(len(with_counts), 'run')} ({how})"
            if len(pct_only):
                note += f"; {counted(len(pct_only), 'run')} printed only a percentage: left out"
        elif len(pct_only) == 1:
            est = float(pct_only["loss_pct"].iloc[0])
            note = "the tool's printed percentage (no counts to pool)"
        else:
            note = f"{len(pct_only)} runs printed only percentages: a mean of them is no loss rate"
        rows.append(
            {
                "src_zone": src,
                "dst_zone": dst,
                "estimate": est,
                "n": n,
                "n_runs": len(with_counts) if len(with_counts) else len(pct_only),
                "range_low": 100.0 * (with_counts["lost"] / with_counts["sent"]).min()
                if len(with_counts)
                else np.nan,
                "range_high": 100.0 * (with_counts["lost"] / with_counts["sent"]).max()
                if len(with_counts)
                else np.nan,
                "unit_of_analysis": "probe",
                "method": "pooled: total lost / total sent",
                "source": "reported" if "counts" in set(g["from"]) else "samples",
                "estimable": bool(np.isfinite(est)),
                "note": note,
            }
        )
    return pd.DataFrame(rows)


def jitter_figures(tables: Tables, runs: pd.DataFrame) -> pd.DataFrame:
    """Every end-to-end jitter figure of ``runs`` with its ``definition`` (``metric/stat``),
    one per run and definition: the printed one where the tool printed it, else ours."""
    s = tables.summaries
    s = s[s["run_id"].isin(runs["run_id"]) & s["metric"].isin(["jitter", "ipdv"])]
    if "hop" in s.columns:
        s = s[s["hop"].isna()]
    s = s.assign(definition=s["metric"] + "/" + s["stat"])
    s = s[s["definition"].isin(JITTER_NAMES) & s["value"].notna()]
    s = s.assign(ours=s["source"] != "reported").sort_values(["run_id", "ours"])
    return s.drop_duplicates(["run_id", "definition"])[
        ["run_id", "definition", "value", "unit", "source"]
    ]


def jitter_cells(tables: Tables, runs: pd.DataFrame) -> pd.DataFrame:
    """One row per (src_zone, dst_zone) with the most common jitter definition among
    ``runs`` (ties: :data:`JITTER_NAMES` order); the run's figure, or the median of the
    pair's runs' figures with their range.  Runs with only another definition are named in
    ``note``, never mixed in."""
    fig = jitter_figures(tables, runs)
    if fig.empty:
        return pd.DataFrame()
    order = list(JITTER_NAMES)
    count = fig.groupby("definition")["run_id"].nunique()
    chosen = sorted(count.index, key=lambda d: (-count[d], order.index(d)))[0]
    used = fig[fig["definition"] == chosen]
    others = sorted(set(fig["run_id"]) - set(used["run_id"]))
    other_defs = sorted(set(fig.loc[fig["run_id"].isin(others), "definition"]))
    left = (
        f"; left out: {counted(len(others), 'run')} whose jitter is {', '.join(other_defs)}"
        if others
        else ""
    )
    used = used.merge(runs[["run_id", "src_zone", "dst_zone"]], on="run_id")
    rows = []
    for (src, dst), g in used.groupby(["src_zone", "dst_zone"], sort=True):
        v = g["value"].astype(float)
        one = len(g) == 1
        rows.append(
            {
                "src_zone": src,
                "dst_zone": dst,
                "definition": chosen,
                "estimate": float(v.iloc[0]) if one else float(v.median()),
                "n_runs": len(g),
                "range_low": np.nan if one else float(v.min()),
                "range_high": np.nan if one else float(v.max()),
                "unit_of_analysis": "run",
                "method": "printed by the tool"
                if one and g["source"].iloc[0] == "reported"
                else ("computed from samples" if one else f"median of {len(g)} runs' figures"),
                "source": "/".join(sorted(set(g["source"]))),
                "estimable": True,
                "note": f"{JITTER_NAMES[chosen]}: one definition per matrix{left}",
            }
        )
    return pd.DataFrame(rows)


def stat_label(stat: str, basis: str | None = None, definition: str | None = None) -> str:
    """What a matrix cell is, with its unit: ``'p99 rtt [µs]'``, ``'loss [%]'``,
    ``'jitter (RFC 3550) [µs]'``."""
    kind = stat_kind(stat)
    if kind == "loss":
        return "loss [%]"
    if kind == "jitter":
        return f"{JITTER_NAMES.get(str(definition), 'jitter')} [µs]"
    word = "median" if stat == "p50" else stat
    return f"{word} {str(basis or '').replace('_', ' ')} [µs]".replace("  ", " ")
