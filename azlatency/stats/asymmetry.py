"""Zone-pair asymmetry: A→B against B→A for every pair of zones measured both ways.

For each stratum of ``by`` (tool, message size, ... — only like is compared with like) and
each unordered pair of zones {A, B} with runs in both directions, the samples of A→B are
compared with those of B→A by ``compare.group_pair`` with the run as the unit
(``runlevel``): one median per run; Welch t on the log run medians when both directions have
≥ 2 runs; with 1 run in a direction, the between-run variance pooled over every replicated
cell of the stratum (each directed zone pair with ≥ 2 runs, same-zone cells included), named
in ``assumption`` — or, with nothing to pool (or ``between_runs="none"``), no p-value and the
note "1 run per side: a direction effect cannot be separated from run-to-run variation".
Packets are never the unit of the test: with one run per direction and run medians that
vary by 10 %, a packet test flags an asymmetry in almost every campaign that has none.  The
p-values of all pairs are adjusted together (Holm by default); ``significant`` is true only
for a run-level test below ``1 - level`` after adjustment, and ``caption`` says each row in
plain words (unit, runs per side, method).

The table has one row per effect and *ordered* pair: the pair as tested (``mirrored`` False,
``src_zone`` < ``dst_zone``) and its mirror image (shift and δ negated, ratio and its interval
inverted), so ``pivot(index="src_zone", columns="dst_zone", values="estimate")`` of one
effect is the full antisymmetric matrix, ready to plot.

What "direction" means is stated in ``direction_meaning``: for a round-trip tool (ping,
sockperf, qperf, latte, echo) a packet crosses the path both ways in every measurement, so
A→B is "A's VM was the client", not a one-way path — an asymmetry says the client side
matters (host, NIC, scheduler), not that the wire is faster one way.  For throughput the
direction is the data flow (iperf3 ``-R`` runs are turned round).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from . import runlevel as rl
from .common import (
    READ_COLUMNS,
    Rng,
    as_rng,
    by_execution,
    check_basis,
    check_level,
    metric_column,
)
from .common import ordered as _ordered
from .compare import COLUMNS, check_adjust, finish, group_pair, run_values

ROUND_TRIP = (
    "round trip: A→B means the VM in src_zone was the client; each measurement "
    "crosses the path both ways, so this is not a one-way delay"
)
DATA_FLOW = "data flow from src_zone to dst_zone (reverse-mode runs turned round)"
DEFAULT_BY = ("tool", "protocol", "msg_size_bytes")


def flow(runs: pd.DataFrame) -> pd.DataFrame:
    """``runs`` with each reverse run's zones turned round, to the way its data went: iperf's
    -R, owping's reverse session, flow from the server (``dst_zone``) to the client.  A
    throughput, a loss or a jitter is of that flow: owping's 3→1 loss was '16.25 % of 400
    probes', its 3→1 session's 39 of 200 pooled with its 1→3 session's 26."""
    if "direction" not in runs.columns:
        return runs
    rev = runs["direction"].astype("string").eq("reverse").fillna(False).to_numpy()
    if not rev.any():
        return runs
    out = runs.copy()
    out.loc[rev, ["src_zone", "dst_zone"]] = runs.loc[rev, ["dst_zone", "src_zone"]].to_numpy()
    return out


def directed(runs: pd.DataFrame, throughput: bool) -> pd.DataFrame:
    """run_id → (src_zone, dst_zone) as the direction of the comparison: a throughput run's
    data flow (:func:`flow`), a latency run's client first; runs without both zones left
    out."""
    out = (flow(runs) if throughput else runs)[["run_id", "src_zone", "dst_zone"]].copy()
    out = out.dropna(subset=["src_zone", "dst_zone"])
    out["src_zone"] = out["src_zone"].astype(str)
    out["dst_zone"] = out["dst_zone"].astype(str)
    return out  # same-zone cells stay: they tell how much runs vary


def _mirror(rows: pd.DataFrame) -> pd.DataFrame:
    m = rows.copy()
    m["src_zone"], m["dst_zone"] = rows["dst_zone"], rows["src_zone"]
    m["a"], m["b"] = rows["b"], rows["a"]
    m["median_a"], m["median_b"] = rows["median_b"], rows["median_a"]
    m["n_a"], m["n_b"] = rows["n_b"], rows["n_a"]
    m["n_runs_a"], m["n_runs_b"] = rows["n_runs_b"], rows["n_runs_a"]
    m["n_eff_a"], m["n_eff_b"] = rows["n_eff_b"], rows["n_eff_a"]
    ratio = rows["effect"] == "ratio"
    with np.errstate(divide="ignore"):
        m.loc[ratio, "estimate"] = 1 / rows.loc[ratio, "estimate"]
        m.loc[ratio, "ci_low"] = 1 / rows.loc[ratio, "ci_high"]
        m.loc[ratio, "ci_high"] = 1 / rows.loc[ratio, "ci_low"]
    other = ~ratio
    m.loc[other, "estimate"] = -rows.loc[other, "estimate"]
    m.loc[other, "ci_low"] = -rows.loc[other, "ci_high"]
    m.loc[other, "ci_high"] = -rows.loc[other, "ci_low"]
    m["mirrored"] = True
    return m


_AFTER_COLUMNS = (
    "p_adj",
    "adjust",
    "significant",
    "caption",
    "direction_meaning",
    "metric",
)


def _stratum_pairs(
    stratum: pd.DataFrame, keys: dict, column: str, first: int, *, between_runs, stat, **kw
) -> list[pd.DataFrame]:
    """A→B against B→A for each zone pair of one stratum measured both ways (``kw`` go to
    ``group_pair``); pairs are numbered on from ``first``."""
    dirs = {k: g for k, g in stratum.groupby(["src_zone", "dst_zone"], sort=True)}
    todo = [(za, zb) for (za, zb) in sorted(dirs) if za < zb and (zb, za) in dirs]
    if not todo:
        return []
    pool = between_runs == "pooled" if isinstance(between_runs, str) else False
    pooled = rl.resolve(
        between_runs, [run_values(g, column, stat) for g in dirs.values()] if pool else ()
    )
    out: list[pd.DataFrame] = []
    for za, zb in todo:
        res = group_pair(
            dirs[(za, zb)],
            dirs[(zb, za)],
            column,
            stat=stat,
            pooled=pooled,
            what="a direction",
            **kw,
        )
        res["a"], res["b"] = f"{za}→{zb}", f"{zb}→{za}"
        for k, v in keys.items():
            res[k] = v
        res["src_zone"], res["dst_zone"] = za, zb
        res["pair"] = first + len(out)
        out.append(res)
    return out


def asymmetry(
    samples: pd.DataFrame,
    runs: pd.DataFrame,
    *,
    metric: str = "rtt",
    by: Sequence[str] | None = None,
    level: float = 0.95,
    adjust: str = "holm",
    unit: str = "auto",
    stat: str = "p50",
    dependence: str = "auto",
    rng: Rng = None,
    n_resamples: int = 4000,
    between_runs="pooled",
) -> pd.DataFrame:
    """A→B against B→A for every zone pair measured in both directions (see module doc).
    ``between_runs`` as in ``compare_groups``: ``"pooled"``, ``"none"``, a known sd of log
    run medians, or a ``runlevel.Pooled``."""
    level, adjust = check_level(level), check_adjust(adjust)
    rng = as_rng(rng)
    column, _ = metric_column(metric)
    check_basis(samples, metric)
    throughput = metric in ("throughput", "bits_per_second")
    missing = [c for c in ("run_id", "src_zone", "dst_zone") if c not in runs.columns]
    if missing:
        raise ValueError(f"runs need {missing} for an asymmetry table (campaign metadata)")
    by = [c for c in (DEFAULT_BY if by is None else by) if c in runs.columns]
    strata = runs[["run_id", *by]].merge(directed(runs, throughput), on="run_id")
    # only the columns the comparisons read (and any the merge would suffix): merging and
    # sorting every column of a campaign's samples was most of the table's time
    read = [*READ_COLUMNS, column, *strata.columns]
    samples = samples[[c for c in samples.columns if c in read]]
    data = _ordered(by_execution(samples.merge(strata, on="run_id", how="inner"), runs))
    parts: list[pd.DataFrame] = []
    for keys, stratum in data.groupby(by, sort=True, dropna=False) if by else [((), data)]:
        keys = dict(zip(by, keys if isinstance(keys, tuple) else (keys,)))
        parts += _stratum_pairs(
            stratum,
            keys,
            column,
            len(parts),
            between_runs=between_runs,
            stat=stat,
            level=level,
            unit=unit,
            dependence=dependence,
            rng=rng,
            n_resamples=n_resamples,
        )
    cols = [*by, "src_zone", "dst_zone", "mirrored", *COLUMNS, *_AFTER_COLUMNS]
    if not parts:
        return pd.DataFrame(columns=cols)
    tested = finish(pd.concat(parts, ignore_index=True), "pair", adjust, level)
    tested["mirrored"] = False
    out = pd.concat([tested, _mirror(tested)], ignore_index=True)
    out["caption"] = [rl.caption(r, adjust=adjust) for r in out.to_dict("records")]
    out["direction_meaning"] = DATA_FLOW if throughput else ROUND_TRIP
    out["metric"] = metric
    return out[cols]
