"""Throughput per run: the tool's figure, and an interval from its per-interval rates."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd

from .. import stats
from ..schema import Tables
from ..stats import runlevel
from ..stats.baseline import PACED_UDP, asked_bps, pace_flags
from ..stats.common import INTERVAL_CORE
from ._data import host_pair, strings, throughput_runs
from ._latency import label_part
from ._memo import memo
from ._show import counted, fmt

# The figure a tool prints for a run, in order of preference: (metric, stat, side).
_FIGURES = (
    ("throughput_receiver", "mean", "receiver"),  # iperf3: what arrived
    ("throughput", "mean", "receiver"),  # qperf tcp_bw: received bytes / time
    ("throughput_sender", "mean", "sender"),  # ntttcp's sender-side total
)
COLUMNS = [
    "campaign",
    "run_id",
    "tool",
    "parser_variant",
    "scenario",
    "src_zone",
    "dst_zone",
    "placement",
    "accelerated_networking",
    "vm_size",
    "heading",
    "src_host",
    "dst_host",
    "dst_ip",
    "source_path",
    "line_start",
    "streams",
    "protocol",
    "mode",  # the tool's test: ethr's bandwidth and pps (1-byte packets) are two measures
    "direction",  # reverse: iperf's -R, the server sent (``where`` names the data's way)
    "both_ways",  # both flows at once: iperf3 --bidir (the figure: the forward flow's), iperf 2 -d
    "paced_bps",  # the rate the run asked for and reached (its figure is that pace), or NaN
    "loss_pct",  # a UDP run's datagrams lost (its receiver's count), or NaN
    "label",
    "where",
    "series",
    "run",
    "side",
    "reported_bps",
    *INTERVAL_CORE,
    "source",
    "n",
    "note",
]


# Why a run's figure has no interval, by where the figure comes from.
_WHY_NONE = {
    "reported": "one number per run: no interval",
    "computed": "no total printed: computed from the run's lines (the run's warnings say how), "
    "no interval",
    "none": "no figure: no total printed and no single series of interval rates",
}


def _figure(summaries: pd.DataFrame, run_id: str) -> tuple[float, str, str]:
    """The run's figure, its side and its source: the tool's own, else the parser's from the
    run's lines where the tool printed no total (iperf 2's -P streams without a [SUM]: the sum
    of their totals; a log cut after its first interval: that interval's rate).  Those runs
    had no figure, and every sentence of page 22 left them out."""
    mine = summaries[summaries["run_id"] == run_id]
    for source in ("reported", "computed"):
        s = mine[mine["source"] == source]
        for metric, stat, side in _FIGURES:
            hit = s[(s["metric"] == metric) & (s["stat"] == stat)]
            if len(hit):
                return float(hit["value"].iloc[0]), side, source
    return np.nan, "", "reported"


def _intervals(
    samples: pd.DataFrame, run_id: str, forward: str = "receiver"
) -> tuple[pd.Series, str, list[float]]:
    """Per-interval rates of the whole run: the SUM stream when there are several streams;
    where both flows are logged (iperf3 --bidir), the ``forward`` role's rows (the flow from
    client to server: a client's sender rows, a server's receiver rows; a client's figure
    was its reverse flow's, beside the forward flow's printed total and arrow); omitted
    (warm-up) and partial intervals left out.  With the end whose reports they are ('' if
    not said) and the lengths of the partial intervals left out (seconds)."""
    s = samples[
        (samples["run_id"] == run_id)
        & (samples["kind"] == "interval")
        & (samples["status"] == "ok")
    ]
    if s.empty or "bits_per_second" not in s.columns:
        return pd.Series([], dtype=float), "", []
    if "role" in s.columns and s["role"].nunique() > 1:
        s = s[s["role"] == forward]  # first: text --bidir prints a stream a flow, no SUM
    if "stream" in s.columns and s["stream"].eq("SUM").any():
        s = s[s["stream"] == "SUM"]
    elif "stream" in s.columns and s["stream"].nunique() > 1:
        return pd.Series([], dtype=float), "", []  # per-stream rows without a sum
    roles = set(s["role"].dropna().astype(str)) if "role" in s.columns else set()
    side = roles.pop() if len(roles) == 1 else ""
    s = s.sort_values("seq")
    rates = s["bits_per_second"].astype(float)
    if {"start_s", "end_s"} <= set(s.columns):
        # a partial interval (an iperf3 receiver's last 0.017 s, after the sender stopped) is
        # the drain of a queue, not the path's rate: a server's figure of 98.9 Mbit/s (its
        # printed receiver total) was 79.6, the mean of 99.1, 99.8 and that tail's 39.8. A
        # run's own last part (-t 2.5: half a second) is kept
        length = (s["end_s"] - s["start_s"]).astype(float)
        full = length.isna() | (length >= 0.25 * length.median())
        return rates[full.to_numpy()].dropna(), side, length[~full].tolist()
    return rates.dropna(), side, []


@memo
def throughput_table(tables: Tables, *, level: float = 0.95) -> pd.DataFrame:
    """One row per throughput run, in bits/s.  With per-interval rates (iperf3) the estimate
    is their mean with ``stats.mean_ci``'s interval (a short series: n_eff from a bound on its
    autocorrelation, or none and why; batch means when long and autocorrelated); otherwise the
    tool's figure, which one number per run cannot give an interval for."""
    runs = throughput_runs(tables.runs, tables.summaries)
    # the interval rows once (_intervals keeps the same rows of them): three comparisons over
    # every sample of a campaign per throughput run were most of the table's time
    samples = tables.samples
    samples = samples[(samples["kind"] == "interval") & (samples["status"] == "ok")]
    rows = []
    for r in runs.to_dict("records"):
        figure, side, source = _figure(tables.summaries, r["run_id"])
        base = {k: r.get(k) for k in COLUMNS if k in r}
        base.update(
            reported_bps=figure if source == "reported" else np.nan,
            side=side,
            label=" · ".join(str(x) for x in (r.get("scenario"), r["tool"]) if isinstance(x, str)),
        )
        base["both_ways"] = at_once(r)
        x, reports, part = _intervals(
            samples, r["run_id"], "sender" if r.get("role") == "client" else "receiver"
        )
        lost = _sent_not_arrived(r, reports, side, source, figure)
        if lost:
            x = x.iloc[:0]  # a UDP sender's rates count no loss: what arrived is the figure
        if len(x) >= 2:
            ci = stats.mean_ci(x.to_numpy(), level).iloc[0]
            left = (
                f" ({counted(len(part), 'partial interval')} of "
                f"{', '.join(f'{v:.3g}' for v in part)} s left out)"
                if part
                else ""
            )
            base.update(
                estimate=ci["estimate"],
                ci_low=ci["ci_low"],
                ci_high=ci["ci_high"],
                level=level,
                method=f"mean of {len(x)} interval rates{left}, {ci['method']}",
                source="samples",
                n=len(x),
                note=ci["note"] or "intervals of one run are not independent draws; see method",
            )
            # the end whose interval reports these are: an iperf3 client's are the sender's
            # (seed 000's 3.816 Gbit/s, said as 'the receiver's figure' beside its printed
            # receiver line of 3.81 Gbits/sec)
            base["side"] = reports or side or "sender"
        else:
            base.update(
                estimate=figure,
                ci_low=np.nan,
                ci_high=np.nan,
                level=np.nan,
                method="printed by the tool" if source == "reported" else "computed from the log",
                source=source,
                n=np.nan,
                note=lost
                or _WHY_NONE["none" if source == "reported" and np.isnan(figure) else source],
            )
        base["paced_bps"] = _held_to(r, base["estimate"])
        rows.append(base)
    return _names(pd.DataFrame(rows, columns=COLUMNS))


def at_once(run: dict) -> bool:
    """Whether ``run`` carried data both ways at once: iperf3's --bidir (one run, its figure
    the forward flow's) or one way of iperf 2's -d (each way a run; the parser's
    ``both_ways`` label, where the log tells -d from -r).  Such a flow shares the path with
    the other: it is not set against a flow that had it alone."""
    if run.get("direction") == "bidir":
        return True
    labels = run.get("labels")
    return isinstance(labels, str) and json.loads(labels or "{}").get("both_ways") == "at once"


def _sent_not_arrived(run: dict, reports: str, side: str, source: str, figure: float) -> str:
    """Why a UDP run's figure is the receiver's printed total, not the mean of its interval
    rates, or '': those rates are the sender's (an iperf client's), which count no loss, and
    the receiver's total was printed.  iperf3 -u -b 50M through a blackout lost 22.4 % of its
    datagrams: its sender's intervals averaged 49.98 Mbit/s, the receiver got 38.77; a run
    that lost every datagram was '1.05 Mbit/s' beside one that lost none."""
    udp = str(run.get("protocol") or "").lower() == "udp"
    printed = source == "reported" and not np.isnan(figure)
    if not (udp and reports == "sender" and side == "receiver" and printed):
        return ""
    loss = run.get("loss_pct")
    known = isinstance(loss, (int, float)) and not np.isnan(loss)
    lost = f"{loss:.3g} % of its datagrams lost" if known else "its loss not printed"
    return (
        f"UDP: what arrived, the receiver's printed total ({lost}); the sender's interval "
        "rates count no loss: one number per run, no interval"
    )


def _held_to(run: dict, figure: float) -> float:
    """The rate ``run`` asked for (``stats.baseline.asked_bps``) where its figure reached it
    (within 5 %), else NaN."""
    rate = asked_bps(run.get("labels"), run.get("streams"))
    return rate if rate > 0 and figure >= 0.95 * rate else np.nan


def _names(out: pd.DataFrame) -> pd.DataFrame:
    """``where``: the scenario, with the zones when they vary within it (the data's way: a
    reverse-mode run's server first); without either, the
    heading of the write-up, else the hosts the log names, else the file and line (seed 001
    without its yaml said 'from 7.91 Gbit/s ((no scenario)) to 25.72 Gbit/s ((no
    scenario))'); the hosts too where they vary within it; ``series``: the tool, with its
    output variant when one tool came in several (iperf3 text and JSON); ``run``: what tells
    apart runs of one place and series; ``label``: all three."""
    if out.empty:
        return out

    rev = strings(out, "direction").eq("reverse").fillna(False)
    src = strings(out, "src_zone").where(~rev, strings(out, "dst_zone"))
    dst = strings(out, "dst_zone").where(~rev, strings(out, "src_zone"))
    zones = src + "→" + dst  # the way the data went, as page 20 and the zone answer say it
    hosts = out.apply(host_pair, axis=1).astype("string").replace("", pd.NA)
    hosts = hosts.where(~rev, hosts.str.split("→").str[::-1].str.join("→"))
    line = strings(out, "line_start").fillna("")
    file = strings(out, "source_path").str.rsplit("/", n=1).str[-1] + line.where(
        line == "", ":" + line
    )
    factors = _factors(out)
    scen = (
        strings(out, "scenario")
        .fillna(zones)
        .fillna(factors)
        .fillna("‘" + strings(out, "heading") + "’")
        .fillna(hosts)
        .fillna(file)
        .fillna("(no scenario)")
    )
    varies = zones.groupby(scen).transform(lambda z: z.nunique(dropna=False) > 1)
    where = scen.where(~varies | zones.isna(), scen + " · " + zones)
    varies = factors.groupby(where).transform(lambda f: f.nunique(dropna=False) > 1)
    where = where.where(~varies | factors.isna(), where + " · " + factors)
    varies = hosts.groupby(where).transform(lambda h: h.nunique() > 1)
    out["where"] = where.where(~varies | hosts.isna(), where + " · " + hosts)
    many = out.groupby("tool")["parser_variant"].transform("nunique") > 1
    out["series"] = out["tool"].where(~many, out["tool"] + " (" + out["parser_variant"] + ")")
    path = strings(out, "source_path").fillna("")
    at = line.where(line == "", ":" + line)
    out["run"] = _runs_apart(out, [path.str.rsplit("/", n=1).str[-1], file, path + at])
    out["label"] = (out["where"] + " · " + out["series"]).where(
        out["run"] == "", out["where"] + " · " + out["series"] + " · " + out["run"]
    )
    return out


def _factors(out: pd.DataFrame) -> pd.Series:
    """The placement, accelerated networking and VM size of each run where the campaign's
    runs differ in them ('AN on'), else NA: qperf runs filed under an-on/ and an-off/ were
    'qp.txt:5' and 'qp.txt:15' on page 22, which page 10 calls 'AN on' and 'AN off'."""
    cols = [
        c
        for c in ("placement", "accelerated_networking", "vm_size")
        if c in out and out[c].astype("string").nunique(dropna=False) > 1
    ]
    words = out[cols].apply(
        lambda r: " · ".join(label_part(c, v) for c, v in r.items() if pd.notna(v)), axis=1
    ) if cols else pd.Series("", index=out.index)  # fmt: skip
    return words.astype("string").replace("", pd.NA)


def _runs_apart(out: pd.DataFrame, names: list[pd.Series]) -> pd.Series:
    """``run``: what tells apart the runs of one place and series, else empty: the first of
    ``names`` (the file; with its line; its whole path) that does.  The seed 003 baseline's
    36 iperf3 runs were all '1→1 · iperf3': the page named its lowest and highest run alike,
    its claims kept one of the 36 and its chart drew them on one bar."""
    run = pd.Series("", index=out.index, dtype=object)
    left = out.duplicated(["where", "series"], keep=False)
    for name in names:
        run[left] = name[left].fillna("")
        left &= out.assign(run=run).duplicated(["where", "series", "run"], keep=False)
    return run.astype(str)


# What two throughput runs must share to be set side by side (with the factors but the one
# compared): one tool, protocol, region and side of the test (client or server log), as many
# streams, and a figure of the same end (what arrived, or what was sent).
HELD = ("campaign", "tool", "protocol", "mode", "region", "role", "streams", "side", "both_ways")


class ThroughputEstimator:
    """A throughput contrast, ``other`` runs against ``ref`` runs (rows of
    :func:`throughput_table`, each with its figure as ``estimate``): the ratio of their
    figures (of their geometric means, a side of several runs; shown by its median run), with
    a Welch interval on the logs across runs where each side has two or more runs; one run on
    a side, no test (one number per run, or a mean of one run's intervals, cannot tell a
    factor from run-to-run variation)."""

    def __init__(self, level: float) -> None:
        self.level = level

    def __call__(self, factor: str, ref: pd.DataFrame, other: pd.DataFrame) -> dict:
        va, vb = (runlevel.clean(x["estimate"].to_numpy(dtype=float))[0] for x in (other, ref))
        if any(x["estimate"].eq(0).any() for x in (other, ref)):
            # a ratio of logs cannot hold it, and leaving the run out would hide the loss
            return {
                "source": "reported",
                "method": "",
                "note": "a run's figure is 0 bit/s (nothing arrived): no ratio",
            }
        if not len(va) or not len(vb):
            return {"source": "reported", "method": "", "note": "a side has no throughput figure"}
        res = runlevel.run_test(va, vb, self.level, None, stat="mean", what=f"a {factor}")
        est, lo, hi = res["ratio"]
        sampled = other["source"].eq("samples").all() and ref["source"].eq("samples").all()
        paced = paced_note(pd.concat([other, ref]))
        unit = "run" if res["testable"] else "sampled run" if sampled else "printed value"
        return {
            "stat": "mean",
            "value_a": float(np.median(va)),
            "value_b": float(np.median(vb)),
            "estimate": est,
            "ci_low": lo,
            "ci_high": hi,
            "level": self.level,
            "p_value": res["p_value"],
            "method": f"ratio of run figures: {res['method']}",
            "source": "samples" if sampled else "reported",
            "note": res["note"],
            "unit_of_analysis": unit,
            "n_runs_a": len(va),
            "n_runs_b": len(vb),
            "testable": res["testable"],
            "assumption": res["assumption"],
            **({"also": paced} if paced else {}),
        }


def kinds(tp: pd.DataFrame) -> pd.Series:
    """Each run's series, with its protocol where one series holds two ('iperf3, tcp' and
    'iperf3, udp'), and its test where one holds two ('ethr, udp, pps test'): a range of a
    tool's runs went from a UDP run's paced 1 Mbit/s to a TCP run's 9 Gbit/s, one figure of
    each kind."""
    if "protocol" not in tp or tp.empty:
        return tp["series"] if "series" in tp else pd.Series(dtype=object)
    proto = tp["protocol"].astype("string")
    two = proto.groupby(tp["series"]).transform(lambda p: p.nunique() > 1).astype(bool)
    out = tp["series"].where(~two, tp["series"] + ", " + proto.fillna("protocol not stated"))
    if "mode" not in tp:
        return out
    # and its test where one holds two: ethr's pps test (1-byte packets, 1.135 Mbit/s) was
    # the low end of a range whose high end was its bandwidth test at 100 Mbit/s
    mode = tp["mode"].astype("string")
    two = mode.groupby(out).transform(lambda m: m.nunique() > 1).astype(bool)
    return out.where(~two, out + ", " + mode.fillna("test not stated") + " test")


def paced_sentence(runs: pd.DataFrame) -> str:
    """:func:`paced_note` as a sentence after another (' 2 runs asked for ...'), or ''."""
    note = paced_note(runs)
    return f" {note[0].upper()}{note[1:]}." if note else ""


def paced_note(runs: pd.DataFrame) -> str:
    """Why ``runs``' figures (rows of :func:`throughput_table`) may be the rate their sender
    was asked for, not what the path carries: iperf sends UDP at a set rate (``-b``, 1 Mbit/s
    by default; ``stats.baseline.PACED_UDP``: qperf's udp_bw sends as fast as it can), and a
    run that states its target rate (iperf3's JSON) and reached it was held to it
    (``paced_bps``).  The iperf3 fixtures, paced with ``-b 100M``, reached 100.1 Mbit/s within
    a zone and across zones."""
    udp = runs["protocol"].astype("string").str.lower().eq("udp").fillna(False)
    udp &= runs["tool"].isin(PACED_UDP)
    parts = []
    if udp.any():
        n = int(udp.sum())
        which = "" if n == len(runs) else f"{n} of the {len(runs)} runs are UDP: "
        parts.append(
            f"{which}UDP is sent at the rate its sender is asked for (iperf's -b; 1 Mbit/s by "
            "default): a figure near that rate is the pace, not what the path carries"
        )
        parts.append(_lost(runs[udp]))
    held = runs.loc[~udp, "paced_bps"].dropna()
    if len(held):
        streams = pd.to_numeric(runs.loc[held.index, "streams"], errors="coerce").fillna(1)
        each = held / streams
        rate, n = fmt(float(each.min()), "bps"), len(held)
        if each.max() > each.min():
            rate += f" to {fmt(float(each.max()), 'bps')}"
        its = "its figure is" if n == 1 else "their figures are"
        flags = pace_flags(runs.loc[held.index, "tool"], named=False)
        parts.append(
            f"{counted(n, 'run')} asked for {rate} a stream ({flags}) and reached it: {its} "
            "the pace asked, not what the path carries"
        )
    return "; ".join(p for p in parts if p)


def _lost(udp: pd.DataFrame) -> str:
    """Which of the UDP ``udp`` runs lost datagrams, or '': their figures are what arrived
    (the receiver's), below the pace by what was lost."""
    if "loss_pct" not in udp:
        return ""
    loss = pd.to_numeric(udp["loss_pct"], errors="coerce")
    if not (loss > 0).any():
        return ""
    lossy = udp[loss > 0]
    each = ", ".join(f"{w} {v:.3g} %" for w, v in zip(lossy["where"], loss[loss > 0], strict=True))
    return (
        f"{counted(len(lossy), 'run')} lost datagrams ({each}): each figure is what arrived, "
        "below the pace by what was lost"
    )
