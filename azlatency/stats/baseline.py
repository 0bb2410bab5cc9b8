"""Fleet baseline validation: does every VM meet what its size promises, and which one differs?

Seed 003's workflow ("Validating baseline Azure VM performance"): before a cluster goes live,
every VM is measured with sockperf, iperf3 (both directions) and fio against targets such as
"40-50 µs", "close to 11 Gbit/s", "~780 MB/s"; the one VM that differs from its peers is
redeployed and tested again.

* ``parse_target`` — ``"40-50 us"`` (a range), ``">= 11 Gbit/s"``, ``"<= 3.3 ms"``,
  ``"~780 MB/s ±10%"`` (about: ± the tolerance), ``"20k IOPS"``.
* ``verdicts`` — one row per check and VM: the estimate with its interval and a verdict.
  ``meets`` when the interval lies inside the target, ``fails`` when it lies wholly outside,
  ``inconclusive`` when it straddles a bound or no interval can be made (the row says why).
  A VM with one printed number (fio's IOPS, iperf3's end-of-test line) has no interval: the
  number is compared as printed and ``evidence`` says so.  Where the VM has per-packet or
  per-interval samples, the interval is ``summarize``'s (the run as the unit when there are
  several runs, the packets with a dependence check in one run); several printed values (one
  per run) give a Student t interval over the runs.
* ``fleet`` — per check, the VMs of one size side by side: a robust outlier rule (the modified
  z-score of Iglewicz & Hoaglin 1993, |0.6745 (x − median) / MAD| > 3.5, with the mean
  absolute deviation when the MAD is 0) names the VM that differs from its peers, with its
  ratio to the peers' median, and the seed's advice where it is worse: redeploy and re-test.

Expectations are plain dicts (``campaign.yaml``'s ``expectations:`` list, validated by
:mod:`azlatency.campaign.config`): ``check`` (name), ``metric``, ``stat`` (default ``mean``),
``target``, optional ``tool``, ``where`` (run column → value or list), ``vm`` (the run column
naming the VM under test: ``src_host``, the default, or ``dst_host``) and ``tolerance``
(for ``~`` targets, default 0.10).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import stats as sps

from .. import units
from ..schema import pct_label
from .common import check_level
from .intervals import summarize
from .sanity import UNITS, convert

VERDICTS = ("meets", "fails", "inconclusive", "no data")
_NUM = r"([0-9]*\.?[0-9]+(?:e[+-]?\d+)?)"
_TOL = rf"(?:\s*(?:±|\+/-|\+-)\s*{_NUM}\s*%)?"
_FORMS = [
    (re.compile(rf"^{_NUM}\s*(?:-|–|to|\.\.)\s*{_NUM}\s*(.*?){_TOL}$", re.I), "range"),
    (re.compile(rf"^(?:~|≈|about\s+|around\s+|close to\s+)?{_NUM}\s*(.*?){_TOL}$", re.I), "about"),
    (re.compile(rf"^(<=?|≤)\s*{_NUM}\s*(.*?)$", re.I), "at most"),
    (re.compile(rf"^(>=?|≥)\s*{_NUM}\s*(.*?)$", re.I), "at least"),
]
# Where a check's value is worse than its peers: below the median for "at least" targets,
# above it for "at most" ones, either way for a range or an "about".
_WORSE = {"at least": -1, "at most": 1, "range": 0, "about": 0}
OUTLIER_Z = 3.5  # Iglewicz & Hoaglin's cut for the modified z-score
MIN_PEERS = 4  # VMs of one size needed before one of them can be called different
# A VM is named only when it also differs by at least this share of the peers' median: in a
# tight fleet a 2 % difference can be "many MADs" and still not worth a redeploy.
MIN_EFFECT = 0.10
ADVICE = "redeploy that VM and test again"


@dataclass(frozen=True)
class Target:
    """A stated expectation: ``low <= value <= high`` in ``unit``; ``kind`` is how it was
    written (``range``, ``about``, ``at least``, ``at most``)."""

    low: float
    high: float
    unit: str
    kind: str
    text: str

    def to(self, unit: str) -> tuple[float, float]:
        """The bounds in ``unit`` (ValueError when the dimensions differ)."""
        return convert(self.low, self.unit, unit), convert(self.high, self.unit, unit)


def parse_target(text: str, tolerance: float = 0.1) -> Target:
    """``"40-50 us"``, ``">= 11 Gbit/s"``, ``"<= 3.3 ms"``, ``"~780 MB/s ±10%"``, ``"20k IOPS"``
    → a :class:`Target`; ValueError naming the forms for anything else, or an unknown unit."""
    t = " ".join(str(text).split())
    for pattern, kind in _FORMS:
        m = pattern.match(t)
        if not m:
            continue
        if kind == "range":
            low, high, unit = float(m[1]), float(m[2]), m[3].strip()
            if low > high:
                raise ValueError(f"target {text!r}: the range's low end is above its high end")
        elif kind == "about":
            v, unit = float(m[1]), m[2].strip()
            tol = float(m[3]) / 100 if m[3] else tolerance
            if not 0 <= tol < 1:
                raise ValueError(f"target {text!r}: tolerance must be between 0 and 100 %")
            low, high = v * (1 - tol), v * (1 + tol)
        elif kind == "at most":
            low, high, unit = -np.inf, float(m[2]), m[3].strip()
        else:
            low, high, unit = float(m[2]), np.inf, m[3].strip()
        if unit.lower() not in UNITS:
            raise ValueError(f"target {text!r}: unknown unit {unit!r}; known: {sorted(UNITS)}")
        return Target(low, high, unit, kind, t)
    raise ValueError(
        f"cannot read target {text!r}: write '40-50 us', '>= 11 Gbit/s', '<= 3.3 ms' or "
        "'~780 MB/s ±10%'"
    )


# What a metric measures, by name: the target's unit must be of the same dimension.
_DIMENSION = [
    (re.compile(r"^(rtt|half_rtt)$|^(c|s)?lat_|^await_|_us$"), "time"),
    (re.compile(r"^throughput"), "rate"),
    (re.compile(r"^iops"), "io_rate"),
    (re.compile(r"^disk_bandwidth"), "byte_rate"),
]


def check_units(metric: str, target: Target) -> None:
    """ValueError when ``target``'s unit cannot measure ``metric`` (a time for a rate...)."""
    have = UNITS[target.unit.lower()][0]
    for pattern, dim in _DIMENSION:
        if pattern.search(metric):
            if have != dim:
                raise ValueError(
                    f"target {target.text!r} is a {have.replace('_', ' ')}, but {metric!r} "
                    f"is a {dim.replace('_', ' ')}"
                )
            return


COLUMNS = [
    "check",
    "vm",
    "vm_size",
    "tool",
    "metric",
    "stat",
    "unit",
    "estimate",
    "ci_low",
    "ci_high",
    "level",
    "evidence",
    "unit_of_analysis",
    "n_runs",
    "target",
    "target_low",
    "target_high",
    "verdict",
    "why",
]


def verdicts(
    runs: pd.DataFrame,
    samples: pd.DataFrame,
    summaries: pd.DataFrame,
    expectations: Sequence[dict],
    *,
    level: float = 0.95,
) -> pd.DataFrame:
    """One row per check and VM (see the module doc); VMs that have runs of some check but
    none of this one get ``no data``, so a missing measurement is never a silent pass."""
    level = check_level(level)
    rows: list[dict] = []
    vm_sizes = _vm_sizes(runs, expectations)
    for e in expectations:
        target = parse_target(e["target"], e.get("tolerance", 0.1))
        vm_col = e.get("vm", "src_host")
        every = _runs_of(runs, e)
        chosen = every[every[vm_col].notna()]
        seen = set()
        for vm, part in chosen.groupby(vm_col, sort=True):
            seen.add(vm)
            est = _estimate(part, samples, summaries, e, level)
            rows.append(_verdict(e, target, vm, part, est, level))
        if len(unnamed := every[every[vm_col].isna()]):
            rows.append(_unnamed(e, target, unnamed, samples, summaries, level))
        sizes = set(chosen["vm_size"].astype("string").fillna("")) if len(chosen) else set()
        peers = {vm for vm, size in vm_sizes.items() if (size or "") in sizes or not sizes}
        for vm in sorted(peers - seen):
            rows.append(
                {
                    **_head(e, target, vm, vm_sizes.get(vm)),
                    "verdict": "no data",
                    "why": f"no {e.get('tool') or ''} run of this check for this VM".replace(
                        "  ", " "
                    ),
                }
            )
    out = pd.DataFrame(rows, columns=COLUMNS)
    out["verdict"] = pd.Categorical(out["verdict"], categories=VERDICTS)
    return out


def _runs_of(runs: pd.DataFrame, e: dict) -> pd.DataFrame:
    keep = runs
    if e.get("tool"):
        keep = keep[keep["tool"] == e["tool"]]
    for col, val in (e.get("where") or {}).items():
        if col not in keep.columns:
            raise ValueError(f"check {e.get('check')!r}: runs have no column {col!r}")
        vals = list(val) if isinstance(val, list | tuple | set) else [val]
        keep = keep[keep[col].astype("string").isin([str(v) for v in vals])]
    if e.get("vm_size"):
        keep = keep[keep["vm_size"].astype("string").isin(_listed(e["vm_size"]))]
    if e.get("hosts"):
        keep = keep[keep[e.get("vm", "src_host")].astype("string").isin(_listed(e["hosts"]))]
    vm_col = e.get("vm", "src_host")
    if vm_col not in keep.columns:
        raise ValueError(f"check {e.get('check')!r}: runs have no column {vm_col!r}")
    return keep


UNNAMED = "(VM not named)"


def _unnamed(e: dict, target: Target, part, samples, summaries, level: float) -> dict:
    """The runs of a check that name no VM under test (no ``src_host`` in the log or
    campaign.yaml's hosts), judged together and said so: they were left out without a
    word, and ``azlatency check`` of a one-VM folder said 'campaign.yaml states no
    expectations'."""
    est = _estimate(part, samples, summaries, e, level)
    row = _verdict(e, target, UNNAMED, part, est, level)
    vm_col = e.get("vm", "src_host")
    said = (
        ("1 run names" if len(part) == 1 else f"{len(part)} runs name")
        + f" no VM ({vm_col}), judged together (one VM or several: campaign.yaml's hosts can "
        "name them)"
    )
    return {**row, "why": join(said, row.get("why") or "")}


def _listed(value) -> list[str]:
    return [str(v) for v in (value if isinstance(value, list | tuple | set) else [value])]


def _vm_sizes(runs: pd.DataFrame, expectations: Sequence[dict]) -> dict[str, str | None]:
    """Every VM any check measures, with its size (the fleet)."""
    out: dict[str, str | None] = {}
    for e in expectations:
        vm_col = e.get("vm", "src_host")
        scope = ("vm", "check", "vm_size", "tool")
        part = _runs_of(runs, {k: v for k, v in e.items() if k in scope})
        if part.empty:
            continue
        sizes = part["vm_size"] if "vm_size" in part.columns else pd.Series(None, index=part.index)
        for vm, size in zip(part[vm_col], sizes):
            if pd.notna(vm):
                out.setdefault(str(vm), None if pd.isna(size) else str(size))
    return out


def _head(e: dict, target: Target, vm, vm_size) -> dict:
    return {
        "check": e.get("check") or f"{e['metric']} {e.get('stat', 'mean')}",
        "vm": vm,
        "vm_size": vm_size,
        "tool": e.get("tool"),
        "metric": e["metric"],
        "stat": e.get("stat", "mean"),
        "target": target.text,
        "level": np.nan,
        "n_runs": 0,
    }


def _sample_metric(e: dict) -> tuple[str, str | None] | None:
    """(summarize metric, sample role) for checks samples can answer, else None."""
    metric = e["metric"]
    if metric in units.BASES:
        return metric, None
    m = re.fullmatch(r"throughput(?:_(sender|receiver))?", metric)
    if m:
        return "throughput", m[1]
    return None


def _estimate(
    part: pd.DataFrame, samples: pd.DataFrame, summaries: pd.DataFrame, e: dict, level: float
) -> dict:
    stat = e.get("stat", "mean")
    wanted = _sample_metric(e)
    if wanted is not None and not samples.empty:
        got = _from_samples(part, samples, wanted, stat, level)
        if got is not None:
            return got
    return _from_printed(part, summaries, e["metric"], stat, level)


def _from_samples(part, samples, wanted, stat, level) -> dict | None:
    metric, role = wanted
    s = samples[samples["run_id"].isin(part["run_id"])]
    if metric == "throughput":
        s = s[(s["kind"] == "interval") & s["bits_per_second"].notna()]
        if role is not None and "role" in s.columns:
            s = s[s["role"] == role]
        # the [SUM] line where a run has several streams, else its one stream
        has_sum = s.groupby("run_id")["stream"].transform(lambda x: (x == "SUM").any())
        s = s[(s["stream"] == "SUM") | ~has_sum]
        streams = s.groupby("run_id")["stream"].nunique()
        s = s[s["run_id"].isin(streams[streams == 1].index)]
    else:
        s = units.to_rtt(s, part) if metric == "rtt" else units.to_half_rtt(s, part)
        # censored values (Windows "time<1ms") bound the statistics: summarize keeps them
        s = s[s[units.COLUMN[metric]].notna() | (s["status"] == "censored")]
    if s.empty:
        return None
    q = _quantile(stat)
    if stat != "mean" and q is None:
        return None
    quantiles = [q] if q is not None else [0.5]
    table = summarize(
        s.assign(_vm="vm"), part, by="_vm", metric=metric, level=level, quantiles=quantiles
    )
    pick = table[table["stat"] == (stat if q is None else pct_label(q))]
    if pick.empty:
        return None
    x = pick.iloc[0]
    return {
        "unit": x["unit"],
        "estimate": x["estimate"],
        "ci_low": x["ci_low"],
        "ci_high": x["ci_high"],
        "level": x["level"],
        "evidence": "samples",
        "unit_of_analysis": x["unit_of_analysis"],
        "n_runs": int(s["run_id"].nunique()),
        "estimable": bool(x["estimable"]),
        "note": x["note"] or "",
    }


def _quantile(stat: str) -> float | None:
    m = re.fullmatch(r"p(\d+(?:\.\d+)?)", stat)
    return float(m[1]) / 100 if m else None


def _from_printed(part, summaries, metric, stat, level) -> dict:
    s = summaries[summaries["run_id"].isin(part["run_id"])]
    note = ""
    if metric in units.BASES and not (s["metric"] == metric).any():
        other = "half_rtt" if metric == "rtt" else "rtt"
        if (s["metric"] == other).any():
            conv = units.to_rtt if metric == "rtt" else units.to_half_rtt
            s = conv(s[s["metric"] == other])
            note = f"converted from {other} (rtt = 2 × half_rtt)"
    s = s[(s["metric"] == metric) & (s["stat"] == stat)]
    if s.empty:
        return {"evidence": "none", "n_runs": 0, "note": f"no {metric} {stat} in these runs"}
    if "source" in s.columns and (s["source"] == "reported").any():
        s = s[s["source"] == "reported"]  # as the tool printed it
    per_run = s.groupby("run_id", sort=False).agg(value=("value", "first"), unit=("unit", "first"))
    unit = str(per_run["unit"].iloc[0])
    values = np.array(
        [convert(v, u, unit) for v, u in zip(per_run["value"], per_run["unit"])], dtype=float
    )
    k = len(values)
    base = {"unit": unit, "n_runs": k, "estimate": float(np.mean(values))}
    if k == 1:
        return {
            **base,
            "evidence": "printed",
            "unit_of_analysis": "none",
            "ci_low": values[0],
            "ci_high": values[0],
            "note": join(note, "one printed value, no interval: compared as printed"),
        }
    sd = float(np.std(values, ddof=1))
    half = sps.t.ppf((1 + level) / 2, k - 1) * sd / np.sqrt(k)
    what = "means" if stat == "mean" else f"{stat} values (their mean is the estimate)"
    return {
        **base,
        "evidence": "printed",
        "unit_of_analysis": "run",
        "ci_low": base["estimate"] - half,
        "ci_high": base["estimate"] + half,
        "level": level,
        "estimable": True,
        "note": join(note, f"Student t over {k} runs' printed {what}"),
    }


def join(*notes: str) -> str:
    return "; ".join(n for n in notes if n)


def _verdict(e: dict, target: Target, vm, part: pd.DataFrame, est: dict, level: float) -> dict:
    size = part["vm_size"].dropna() if "vm_size" in part.columns else pd.Series(dtype=object)
    head = _head(e, target, vm, str(size.iloc[0]) if len(size) else None)
    if est.get("evidence") == "none":
        return {**head, "verdict": "no data", "why": est["note"]}
    unit = est["unit"]
    try:
        lo_t, hi_t = target.to(unit)
    except ValueError as exc:
        raise ValueError(f"check {head['check']!r}: target {target.text!r}: {exc}") from None
    row = {
        **head,
        **{k: est.get(k, np.nan) for k in ("unit", "estimate", "ci_low", "ci_high")},
        "level": est.get("level", np.nan),
        "evidence": est["evidence"],
        "unit_of_analysis": est.get("unit_of_analysis"),
        "n_runs": est["n_runs"],
        "target_low": lo_t,
        "target_high": hi_t,
    }
    note = est.get("note", "")
    x, lo, hi = est["estimate"], est.get("ci_low", np.nan), est.get("ci_high", np.nan)
    inside = lo_t <= x <= hi_t
    if x < lo_t and (paced := _paced(part, e, lo_t, unit)):
        return {**row, "verdict": "inconclusive", "why": join(paced, note)}
    if est["evidence"] == "printed" and est["n_runs"] == 1:
        return {**row, "verdict": "meets" if inside else "fails", "why": note}
    if not est.get("estimable", True) or not (np.isfinite(lo) and np.isfinite(hi)):
        side = "inside" if inside else "outside"
        why = f"no interval ({note or 'not estimable'}); the estimate lies {side} the target"
        return {**row, "verdict": "inconclusive", "why": why}
    pct = f"{level:.0%}" if np.isnan(row["level"]) else f"{row['level']:.0%}"
    if lo_t <= lo and hi <= hi_t:
        return {**row, "verdict": "meets", "why": note}
    if hi < lo_t or lo > hi_t:
        return {**row, "verdict": "fails", "why": note}
    bound = lo_t if lo < lo_t <= hi else hi_t
    why = join(f"the {pct} interval straddles the target's bound {bound:.4g} {unit}", note)
    return {**row, "verdict": "inconclusive", "why": why}


# Tools that send UDP at a set rate (-b; 1 Mbit/s by default; iperf3's JSON states the rate
# asked): qperf's udp_bw sends as fast as it can, so its UDP figures are no pace.
PACED_UDP = ("iperf3", "iperf2")


# The option that sets a sender's pace, by tool: iperf's -b, sockperf's --mps (messages a
# second, which its NOTE line repeats: 'using msg-size=1000, mps=20000').
PACE_FLAG = {"sockperf": "--mps"}


def pace_flags(tools: Iterable[str], *, named: bool = True) -> str:
    """'iperf3 -b', 'iperf3 -b, sockperf --mps' (``named``: with the tool), or '-b'."""
    tools = sorted({str(t) for t in tools})
    if not named:
        return ", ".join(dict.fromkeys(PACE_FLAG.get(t, "-b") for t in tools))
    return ", ".join(f"{t} {PACE_FLAG.get(t, '-b')}" for t in tools)


def asked_bps(labels: str | None, streams: float | None) -> float:
    """The rate a run's log says it asked for, in bit/s: iperf3 JSON's ``target_bitrate`` a
    stream, sockperf's ``--mps`` times its message size (their ``target_bitrate_bps``
    label) times the run's streams; NaN where none."""
    stated = json.loads(labels) if isinstance(labels, str) and labels else {}
    try:
        rate = float(stated.get("target_bitrate_bps") or "nan")
    except (TypeError, ValueError):
        return np.nan
    return rate * (float(streams) if streams is not None and pd.notna(streams) else 1.0)


def _paced(part: pd.DataFrame, e: dict, low: float, unit: str) -> str:
    """Why a throughput below the target's ``low`` (in ``unit``) says nothing of the VM: the
    runs were sent at a set rate below it (a run whose log states the rate it asked for,
    iperf3's JSON ``target_bitrate``; iperf's UDP, 1 Mbit/s unless ``-b`` says otherwise).
    A VM measured with ``iperf3 -u`` and no ``-b`` 'failed' a 5 Gbit/s target at 1 Mbit/s."""
    if not str(e["metric"]).startswith("throughput"):
        return ""
    streams = part["streams"] if "streams" in part else pd.Series(1, index=part.index)
    labels = part["labels"] if "labels" in part else pd.Series("", index=part.index)
    asked = (asked_bps(text, n) for text, n in zip(labels, streams))
    rates = [r for r in asked if r > 0]
    if rates and all(convert(r, "bps", unit) < low for r in rates):
        return (
            f"the runs asked for {max(rates) / 1e6:.4g} Mbit/s ({pace_flags(part['tool'])}), "
            "below the target: they measured the pace asked, not the VM"
        )
    udp = part["protocol"].astype("string").str.lower().eq("udp") if "protocol" in part else None
    if udp is not None and (udp & part["tool"].isin(PACED_UDP)).fillna(False).all() and not rates:
        return (
            "iperf sends UDP at the rate it is asked for (-b; 1 Mbit/s by default), which the "
            "log does not state: a figure below the target may be that pace, not the VM"
        )
    return ""


def fleet(
    table: pd.DataFrame,
    *,
    z: float = OUTLIER_Z,
    min_peers: int = MIN_PEERS,
    min_effect: float = MIN_EFFECT,
) -> pd.DataFrame:
    """``verdicts`` output with, per check and VM size, the peers' median, each VM's ratio to
    it, its modified z-score, ``outlier`` and ``advice`` (see the module doc).  A VM is an
    outlier when its absolute modified z-score exceeds ``z`` and it differs from the median by at least ``min_effect`` of it;
    ``min_peers`` VMs of the size are needed before any is named."""
    out = table.copy()
    for col in ("fleet_median", "ratio_to_median", "robust_z"):
        out[col] = np.nan
    out["outlier"] = False
    out["advice"] = ""
    size = out["vm_size"].astype("string").fillna("")
    for _, idx in out.groupby([out["check"], size], sort=False).groups.items():
        part = out.loc[idx]
        ok = part["estimate"].notna() & part["vm"].ne(UNNAMED)  # no VM to set against peers
        x = part.loc[ok, "estimate"].astype(float)
        if len(x) < min_peers:
            continue
        med = float(np.median(x))
        mad = float(np.median(np.abs(x - med)))
        scale = mad / 0.6745 if mad > 0 else 1.253314 * float(np.mean(np.abs(x - med)))
        out.loc[x.index, "fleet_median"] = med
        out.loc[x.index, "ratio_to_median"] = x / med if med else np.nan
        if scale <= 0:
            out.loc[x.index, "robust_z"] = 0.0
            continue
        zs = (x - med) / scale
        out.loc[x.index, "robust_z"] = zs
        kind = parse_target(part["target"].iloc[0]).kind
        worse = _WORSE[kind]
        for i, zi in zs.items():
            if abs(zi) <= z or not abs(x[i] / med - 1) >= min_effect:
                continue
            out.loc[i, "outlier"] = True
            if worse == 0 or np.sign(zi) == worse or out.loc[i, "verdict"] == "fails":
                ratio = out.loc[i, "ratio_to_median"]
                out.loc[i, "advice"] = (
                    f"differs from its {len(x) - 1} peers ({ratio:.2f}× their median, "
                    f"modified z {zi:+.1f}): {ADVICE}"
                )
    return out


def verdict_matrix(table: pd.DataFrame) -> pd.DataFrame:
    """VM × check: the verdict of each (rows: VMs, columns: checks in their given order)."""
    checks = list(dict.fromkeys(table["check"]))
    m = table.pivot_table(
        index="vm", columns="check", values="verdict", aggfunc="first", observed=False
    )
    return m.reindex(columns=checks).astype("string").fillna("no data")


SLOW_MEMBER = 1.5  # a disk whose reads wait this much longer than its stripe's median


def stripe_spread(
    runs: pd.DataFrame, summaries: pd.DataFrame, *, slow: float = SLOW_MEMBER
) -> pd.DataFrame:
    """How a VM's load spreads over its disks, from ``iostat -x`` runs (one per device and
    report): per VM and device the mean ``r/s``, ``w/s`` and read/write await over the
    reports, and ``await_vs_stripe``, the device's await over the median of its VM's devices
    in the same scenario.  A RAID0 stripe serves equal shares, so a member whose requests
    wait ``slow`` times its peers' is the one holding the stripe back (``slow_member``)."""

    io = runs[runs["tool"].astype(str) == "iostat"]
    cols = ["vm", "scenario", "device", "reports", "reads_per_s", "writes_per_s",
            "await_read_ms", "await_write_ms", "await_vs_stripe", "slow_member"]  # fmt: skip
    if io.empty:
        return pd.DataFrame(columns=cols)
    labels = io["labels"].map(lambda x: json.loads(x) if isinstance(x, str) and x else {})
    meta = pd.DataFrame(
        {
            "run_id": io["run_id"].to_numpy(),
            "vm": io["src_host"].astype(str).to_numpy(),
            "scenario": io["scenario"].astype(str).to_numpy() if "scenario" in io else "",
            "device": [d.get("device") for d in labels],
            "since_boot": [bool(d.get("since_boot")) for d in labels],
        }
    )
    meta = meta[~meta["since_boot"]]  # the averages since boot are no interval of the load
    s = summaries[summaries["run_id"].isin(meta["run_id"]) & (summaries["stat"] == "mean")]
    wide = s.pivot_table(index="run_id", columns="metric", values="value", aggfunc="first")
    wide = meta.merge(wide, left_on="run_id", right_index=True, how="left")
    for m in ("iops_read", "iops_write", "await_read", "await_write"):
        if m not in wide:
            wide[m] = np.nan
    g = wide.groupby(["vm", "scenario", "device"], sort=True)
    out = pd.DataFrame(
        {
            "reports": g.size(),
            "reads_per_s": g["iops_read"].mean(),
            "writes_per_s": g["iops_write"].mean(),
            "await_read_ms": g["await_read"].mean() / 1000,
            "await_write_ms": g["await_write"].mean() / 1000,
        }
    ).reset_index()
    reads, writes = out["reads_per_s"].fillna(0), out["writes_per_s"].fillna(0)
    wait = out["await_read_ms"].where(reads >= writes, out["await_write_ms"])  # the load's side
    median = wait.groupby([out["vm"], out["scenario"]]).transform("median")
    out["await_vs_stripe"] = wait / median
    out["slow_member"] = out["await_vs_stripe"] >= slow
    return out[cols]
