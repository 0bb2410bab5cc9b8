"""Latency basis conversion: round trip (``rtt``) and half round trip (``half_rtt``).

Tools disagree on what "latency" means (docs/vocabulary.md): sockperf and qperf print half a round
trip, ping, latte and echo CSVs a full one.  azlatency keeps what the tool said and converts
only on request, with one documented rule::

    rtt = 2 × half_rtt

The rule is a definition, not a measurement: a "half round trip" is not a one-way delay (the
two directions of a path can differ; see ``azlatency.stats.asymmetry``).  Converting never
changes the information, only the scale, so quantiles, ranks and tests are unaffected.

``to_rtt`` / ``to_half_rtt`` take a **samples** frame (``rtt_us`` / ``half_rtt_us`` and a
censored run's ``censor_high_us``) or a **summaries** frame (rows of metric ``half_rtt`` /
``rtt``; time units scale, counts and ratios do not) and return a converted copy.  After
``to_rtt`` a samples frame has one latency column, ``rtt_us``, so nothing downstream can mix
the two.  A ``runs`` frame is not converted: it records what the tool printed.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from .errors import AzlatencyError

BASES = ("rtt", "half_rtt")  # the two bases that convert into each other
FACTOR = {"rtt": 1.0, "half_rtt": 0.5}  # multiply an rtt by this to get the basis
COLUMN = {"rtt": "rtt_us", "half_rtt": "half_rtt_us", "one_way": "one_way_us"}
# A one-way delay (owping, irtt's send and receive delays) is measured between two clocks:
# it is not half a round trip, and no rule converts it; to_rtt/to_half_rtt leave it as is.
# Units whose values scale with the basis; any other unit (count, pct, ratio) is scale-free.
_TIME_UNITS = ("us", "ms", "ns", "s")


class BasisError(AzlatencyError, ValueError):
    """Latencies of different bases would be mixed, or a basis cannot be told."""


def to_rtt(df: pd.DataFrame, runs: pd.DataFrame | None = None) -> pd.DataFrame:
    """A copy of ``df`` (samples or summaries) with every latency as a round trip (×2 for
    half round trips).  ``runs`` is needed only for runs whose samples are all censored."""
    return _convert(df, "rtt", runs)


def to_half_rtt(df: pd.DataFrame, runs: pd.DataFrame | None = None) -> pd.DataFrame:
    """A copy of ``df`` (samples or summaries) with every latency as half a round trip (÷2)."""
    return _convert(df, "half_rtt", runs)


def basis_column(basis: str) -> str:
    """Sample column of a basis: ``'rtt'`` → ``'rtt_us'``."""
    if basis not in COLUMN:
        raise BasisError(f"latency basis must be one of {tuple(COLUMN)}, got {basis!r}")
    return COLUMN[basis]


def _convert(df: pd.DataFrame, target: str, runs: pd.DataFrame | None) -> pd.DataFrame:
    if {"metric", "stat", "value"} <= set(df.columns):
        return _convert_summaries(df, target)
    if "latency_basis" in df.columns and "seq" not in df.columns:
        raise BasisError(
            "a runs frame keeps the basis its tool printed; convert samples or summaries"
        )
    if "run_id" in df.columns:
        return _convert_samples(df, target, runs)
    raise BasisError("expected a samples frame (rtt_us/half_rtt_us) or a summaries frame")


def _convert_summaries(df: pd.DataFrame, target: str) -> pd.DataFrame:
    other = "half_rtt" if target == "rtt" else "rtt"
    out = df.copy()
    rows = out["metric"] == other
    if not rows.any():
        return out
    scale = FACTOR[target] / FACTOR[other]
    timed = rows & out["unit"].isin(_TIME_UNITS)
    for col in ("value", "bound_low", "bound_high"):
        if col in out.columns:
            out.loc[timed, col] = out.loc[timed, col] * scale
    out.loc[rows, "metric"] = target
    return out


def _convert_samples(df: pd.DataFrame, target: str, runs: pd.DataFrame | None) -> pd.DataFrame:
    other = "half_rtt" if target == "rtt" else "rtt"
    src, dst = COLUMN[other], COLUMN[target]
    scale = FACTOR[target] / FACTOR[other]
    out = df.copy()
    if "censor_high_us" in out.columns and out["censor_high_us"].notna().any():
        converted_runs = _runs_of_basis(out, other, runs)
        rows = out["run_id"].isin(converted_runs) & out["censor_high_us"].notna()
        out.loc[rows, "censor_high_us"] = out.loc[rows, "censor_high_us"] * scale
    if src not in out.columns:
        return out
    have_dst = out[dst] if dst in out.columns else pd.Series(np.nan, index=out.index)
    have_src = out[src]
    both = have_dst.notna() & have_src.notna()
    if both.any() and not np.allclose(have_dst[both], have_src[both] * scale, rtol=1e-9):
        raise BasisError(
            f"rows hold both {src} and {dst} and they disagree with rtt = 2 × half_rtt"
        )
    out[dst] = have_dst.where(have_dst.notna(), have_src * scale)
    return out.drop(columns=[src])


def _runs_of_basis(samples: pd.DataFrame, basis: str, runs: pd.DataFrame | None) -> set[str]:
    """Runs whose latencies are in ``basis``: from ``runs.latency_basis`` when given, else from
    which latency column the run's uncensored rows use."""
    if runs is not None and "latency_basis" in runs.columns:
        known = runs.dropna(subset=["latency_basis"])
        return set(known.loc[known["latency_basis"] == basis, "run_id"])
    col = COLUMN[basis]
    found: set[str] = set()
    for run_id, part in samples.groupby("run_id", sort=False):
        has = {b: COLUMN[b] in part.columns and part[COLUMN[b]].notna().any() for b in BASES}
        if has[basis] and not has["rtt" if basis == "half_rtt" else "half_rtt"]:
            found.add(run_id)
        elif not any(has.values()) and part["censor_high_us"].notna().any():
            raise BasisError(
                f"run {run_id!r} has only censored latencies; pass runs= so its basis "
                f"(latency_basis) is known before converting {col}"
            )
    return found
