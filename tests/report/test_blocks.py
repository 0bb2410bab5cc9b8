"""azlatency.report: the notebooks' building blocks, on the example campaigns (values read
off their logs) and on small frames whose answer is known."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

import azlatency
from azlatency import report as rep
from azlatency import schema
from azlatency.campaign import import_campaign
from azlatency.schema import Tables
from tests.conftest import RAW


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    """A data root with the four real example campaigns imported."""
    root = tmp_path_factory.mktemp("data")
    for name in (
        "seed000-az-vs-as",
        "seed001-aks-azure-cni",
        "seed002-ppg-latte",
        "seed004-echo-uksouth",
    ):
        import_campaign(RAW / name, root=root / "processed", workers=1)
    return root


def _row(frame: pd.DataFrame, **where) -> pd.Series:
    hit = frame
    for k, v in where.items():
        hit = hit[hit[k] == v]
    assert len(hit) == 1, f"{len(hit)} rows for {where}"
    return hit.iloc[0]


# ---------------------------------------------------------------------------------------------
# Latency from printed statistics


def test_printed_percentiles_keep_basis_and_have_no_interval(data):
    t = rep.load_campaigns("seed001-aks-azure-cni", data)
    pct = rep.latency_percentiles(t)
    p50 = _row(pct, scenario="Azure CNI (AZ1 - AZ3)", tool="sockperf", stat="p50")
    # az1-az3.md: "sockperf: ---> percentile 50.000 =  700.618" (sockperf 3.8, half RTT)
    assert p50["estimate"] == 700.618 and p50["basis"] == "half_rtt"
    assert p50["source"] == "reported" and np.isnan(p50["ci_low"]) and not p50["estimable"]
    assert "no interval" in p50["note"]
    mean = _row(pct, scenario="Azure CNI (AZ1 - AZ3)", tool="sockperf", stat="mean")
    # "avg-latency=698.945 (std-dev=49.453, ..., 99.0% ci=[697.404, 700.486])": the tool's own
    assert (mean["ci_low"], mean["ci_high"], mean["level"]) == (697.404, 700.486, 0.99)


def test_explicit_conversion_doubles_half_round_trips_and_says_so(data):
    t = rep.load_campaigns("seed001-aks-azure-cni", data)
    pct = rep.latency_percentiles(t, basis="rtt")
    p50 = _row(pct, scenario="Azure CNI (AZ1 - AZ3)", tool="sockperf", stat="p50")
    assert p50["estimate"] == pytest.approx(2 * 700.618)
    assert p50["basis"] == "rtt" and p50["converted_from"] == "half_rtt"
    assert "printed as half_rtt" in p50["label"]


def test_headline_falls_back_to_the_mean_a_tool_printed(data):
    t = rep.load_campaigns("seed000-az-vs-as", data)
    head = rep.headline(rep.latency_percentiles(t))
    ping = _row(head, scenario="availability zones", tool="ping")
    # zones/ping.log: "rtt min/avg/max/mdev = 0.718/0.969/2.137/0.299 ms"
    assert (ping["stat"], ping["estimate"]) == ("mean", 969.0)
    sock = _row(head, scenario="availability zones", tool="sockperf", msg_size_bytes=350)
    # zones/sockperf-tcp-m350.log: "percentile 50.000 =   84.389" (--full-rtt: a round trip)
    assert (sock["stat"], sock["estimate"], sock["basis"]) == ("p50", 84.389, "rtt")


def test_labels_tell_printed_runs_of_one_group_apart(data):
    t = rep.load_campaigns("seed002-ppg-latte", data)
    labels = rep.headline(rep.latency_percentiles(t))["label"]
    b1s = sorted(x for x in labels if x.startswith("B1s cross-zone"))
    # latte's sender and receiver logs and the blog's number: one scenario, three runs
    assert len(b1s) == 3 and len(set(b1s)) == 3
    # the two logs name their target (latte -a 10.0.0.5:5005) and tell apart by their role
    assert sorted(x for x in b1s if "to 10.0.0.5" in x) == [
        "B1s cross-zone · to 10.0.0.5 · latte (client)",
        "B1s cross-zone · to 10.0.0.5 · latte (server)",
    ]


# ---------------------------------------------------------------------------------------------
# Samples


def _campaign(values: dict[tuple[str, str, int], np.ndarray], *, printed: bool = False):
    """Runs of sockperf between zones, ``values[(src, dst, rep)]`` their RTTs (µs)."""
    runs, samples, summaries = [], [], []
    t0 = 1_742_464_800 * 10**9
    for i, ((src, dst, r), x) in enumerate(values.items()):
        rid = f"r{i}"
        runs.append(
            {
                "run_id": rid,
                "campaign": "c",
                "source_path": f"{src}-{dst}-{r}.csv",
                "source_sha256": "0" * 64,
                "block": 0,
                "line_start": 1,
                "line_end": 1,
                "tool": "sockperf",
                "parser_variant": "full-log",
                "complete": True,
                "latency_basis": "rtt",
                "src_zone": src,
                "dst_zone": dst,
                "msg_size_bytes": 64,
                "scenario": "matrix",
                "protocol": "tcp",
            }
        )
        samples.append(
            pd.DataFrame(
                {
                    "run_id": rid,
                    "seq": np.arange(len(x)),
                    "kind": "packet",
                    "status": "ok",
                    "rtt_us": x,
                    "tx_time_ns": t0 + np.arange(len(x)) * 10**6,
                }
            )
        )
    if printed:  # the console summary of the first run: the same measurement
        runs.append(
            {
                **runs[0],
                "run_id": "console",
                "parser_variant": "console",
                "source_path": "console.log",
            }
        )
        summaries.append(
            {
                "run_id": "console",
                "metric": "rtt",
                "stat": "p50",
                "value": 1e6,
                "unit": "us",
                "source": "reported",
            }
        )
    return Tables(
        schema.frame("runs", runs),
        schema.frame("samples", pd.concat(samples)),
        schema.frame("summaries", summaries) if summaries else schema.empty("summaries"),
    )


def test_samples_give_exact_intervals_and_win_over_the_printed_summary():
    rng = np.random.default_rng(1)
    t = _campaign({("1", "2", 1): rng.lognormal(np.log(100), 0.05, 2000)}, printed=True)
    pct = rep.latency_percentiles(t)
    assert set(pct["source"]) == {"samples"}  # the console run's 1e6 is left out
    p50 = _row(pct, stat="p50")
    x = t.samples["rtt_us"].to_numpy()
    assert p50["estimate"] == pytest.approx(np.median(x))
    assert p50["ci_low"] < np.median(x) < p50["ci_high"] and p50["estimable"]


def test_percentile_table_gives_each_percentile_with_its_interval_or_says_why_not(data):
    t = rep.load_campaigns("seed000-az-vs-as", data)
    table = rep.percentile_table(rep.latency_percentiles(t)).set_index("label")
    row = table.loc["availability set · 1400 B · sockperf"]
    # avset/sockperf-tcp-m1400.log: "percentile 50.000 =   53.433", "percentile 99.900 =  219.133"
    # (0.999 as 99.9 / 100 is 0.9990000000000001: still found)
    assert [row[f"p{p} (95% CI)"] for p in (50, 90, 99, 99.9)] == [
        "53.43 µs",
        "59.03 µs",
        "67.66 µs",
        "219.1 µs",
    ]
    assert row["source"] == "reported"
    assert row["note"] == "printed by the tool: a percentile alone gives no interval"
    # seed 004's author printed a p95 and a p99 a scenario: those columns, nothing more
    t = rep.load_campaigns("seed004-echo-uksouth", data)
    table = rep.percentile_table(rep.latency_percentiles(t)).set_index("label")
    assert [c for c in table.columns if c.startswith("p")] == ["p95 (95% CI)", "p99 (95% CI)"]
    # latency-by-scenario.reported.csv: "rtt,p95,975,us" and "rtt,p99,"1,050",us"
    assert table.loc["Same AZ · echo_csv", ["p95 (95% CI)", "p99 (95% CI)"]].tolist() == [
        "975 µs",
        "1050 µs",
    ]
    # a group without a percentile the table has says so
    mixed = rep.percentile_table(rep.latency_percentiles(t), [0.5, 0.99]).iloc[0]
    assert mixed["p50 (95% CI)"] == "n/a" and mixed["note"].startswith("the tool printed no p50;")

    rng = np.random.default_rng(3)
    one = _campaign({("1", "2", 1): rng.lognormal(np.log(100), 0.05, 2000)})
    pct = rep.latency_percentiles(one, level=0.9)
    p50 = _row(pct, stat="p50")
    cell = rep.percentile_table(pct, level=0.9).iloc[0]["p50 (90% CI)"]
    assert cell == f"{p50.estimate:.4g} ({p50.ci_low:.4g}–{p50.ci_high:.4g}) µs"

    two = _campaign({("1", "2", r): rng.lognormal(np.log(100), 0.05, 2000) for r in (1, 2)})
    pct = rep.latency_percentiles(two)
    p50 = _row(pct, stat="p50")
    row = rep.percentile_table(pct).iloc[0]
    assert row["p50 (95% CI)"] == (
        f"{p50.estimate:.4g} (range {p50.range_low:.4g}–{p50.range_high:.4g}) µs"
    )
    assert row["n_runs"] == 2 and "needs ≥ 6 runs" in row["note"]


def test_zone_matrix_and_asymmetry_find_the_slow_direction():
    rng = np.random.default_rng(2)
    values = {}
    for r in range(6):  # six runs a direction: the run is the unit, and p can reach 0.002
        values[("1", "2", r)] = rng.lognormal(np.log(120 * rng.lognormal(0, 0.02)), 0.05, 400)
        values[("2", "1", r)] = rng.lognormal(np.log(100 * rng.lognormal(0, 0.02)), 0.05, 400)
        values[("1", "1", r)] = rng.lognormal(np.log(50), 0.05, 400)
    t = _campaign(values)
    med = rep.zone_pair_medians(t)
    assert set(zip(med["src_zone"], med["dst_zone"])) == {("1", "2"), ("2", "1"), ("1", "1")}
    assert _row(med, src_zone="1", dst_zone="2")["estimate"] == pytest.approx(120, rel=0.05)
    assert med["ci_low"].notna().all()  # six runs: an interval of the median across runs
    asym = rep.asymmetry_table(t, rng=0)
    tested = _row(asym, mirrored=False)
    assert tested["estimate"] == pytest.approx(1.2, rel=0.05)
    assert bool(tested["asymmetric"]) and tested["unit_of_analysis"] == "run"
    cells = rep.matrix_frame(med, asym)
    assert bool(_row(cells, src_zone="2", dst_zone="1")["asymmetric"])
    assert not bool(_row(cells, src_zone="1", dst_zone="1")["asymmetric"])
    assert rep.both_ways(med) == 1


def test_zone_matrix_of_printed_medians(data):
    t = rep.load_campaigns("seed001-aks-azure-cni", data)
    assert rep.main_tool(t.runs) == "sockperf"  # ties with qperf; sockperf prints a median
    med = rep.zone_pair_medians(t)
    assert len(med) == 4 and set(med["basis"]) == {"half_rtt"}
    # az1-az3.md: the client 10.2.0.141 is the zone-3 pod, the server 10.2.0.21 the zone-1 one
    assert _row(med, src_zone="3", dst_zone="1")["estimate"] == 700.618
    assert rep.asymmetry_table(t).empty  # one direction per pair, printed values only
    sp = rep.spread(med)
    # az1-az1.md p50 33.408 is the fastest; az2-az3.md p50 711.131 the slowest
    assert (sp["fastest"], sp["slowest"]) == ("1→1", "3→2")


# ---------------------------------------------------------------------------------------------
# Throughput, contrasts, cross-tool


def test_throughput_interval_from_iperf3_intervals(data):
    t = rep.load_campaigns("seed001-aks-azure-cni", data)
    tp = rep.throughput_table(t)
    iperf = _row(tp, scenario="Azure CNI (AZ1 - AZ3)", tool="iperf3")
    # az1-az3.md: ten 1-s intervals 7.26 ... 7.62 Gbits/sec (two "(omitted)" ones left out)
    rates = [7.26, 8.36, 8.32, 8.43, 8.26, 8.67, 7.72, 7.69, 6.77, 7.62]
    assert iperf["estimate"] == pytest.approx(np.mean(rates) * 1e9)
    # ten points whose lag-1 autocorrelation cannot be bounded below 1: no interval (issue 29),
    # the estimate and the reason instead
    assert iperf["n"] == 10 and np.isnan(iperf["ci_low"]) and np.isnan(iperf["ci_high"])
    assert "too short to check independence" in iperf["note"]
    assert iperf["reported_bps"] == 7.91e9  # "9.21 GBytes  7.91 Gbits/sec  receiver"
    ntttcp = _row(tp, scenario="Azure CNI (AZ1 - AZ3)", tool="ntttcp")
    # "throughput :11.87Gbps": one number, no interval
    assert ntttcp["estimate"] == 11.87e9 and np.isnan(ntttcp["ci_low"])


def test_contrasts_hold_everything_else_equal(data):
    t = rep.load_campaigns(["seed000-az-vs-as", "seed002-ppg-latte"], data)
    c = rep.contrasts(t)
    avset = _row(
        c,
        factor="placement",
        a="availability_set",
        b="cross_zone",
        context="sockperf, 350 B, D4as_v4, AN on",
    )
    # avset/sockperf-tcp-m350.log p50 44.215 against zones/sockperf-tcp-m350.log p50 84.389
    assert avset["estimate"] == pytest.approx(44.215 / 84.389)
    assert avset["source"] == "reported" and np.isnan(avset["ci_low"])
    an = _row(c, factor="accelerated_networking", context="latte, D4s_v3, same zone")
    # blog-comparison: "55 to 61.09 usecs" with AN against 308.55 without: bounds, not a CI
    assert (an["bound_low"], an["bound_high"]) == pytest.approx((55 / 308.55, 61.09 / 308.55))
    # never across campaigns, never across tools
    assert not (
        (c["factor"] == "placement")
        & c["context"].str.startswith("ping")
        & (c["b"] != "cross_zone")
    ).any()
    forest = rep.forest_frame(c)
    assert set(forest["interval"]) == {"none", "bounds", "confidence interval"}
    # the one interval: ping's printed means, mdev and counts (Fieller), seed 000
    ci = forest[forest["interval"] == "confidence interval"]
    assert list(ci["context"]) == ["ping, D4as_v4, AN on"]
    assert forest.loc[forest["interval"] == "bounds", "label"].str.endswith("[bounds]").all()


def test_cross_tool_compares_like_statistics(data):
    t = rep.load_campaigns(["seed000-az-vs-as", "seed001-aks-azure-cni"], data)
    ct = rep.cross_tool(t)
    ping = _row(ct, scenario="availability zones", tool="ping")
    # ping prints a mean only (969 µs), so it is compared with sockperf's mean (85.902)
    assert ping["ratio_of"] == "mean"
    assert ping["ratio_to_reference"] == pytest.approx(969 / 85.902)
    qperf = _row(ct, scenario="Azure CNI (AZ1 - AZ3)", tool="qperf")
    # qperf "latency = 699 us" and sockperf "avg-latency=698.945", both half RTTs, doubled
    assert qperf["estimate"] == 1398 and qperf["converted_from"] == "half_rtt"
    assert qperf["ratio_to_reference"] == pytest.approx(699 / 698.945)


# ---------------------------------------------------------------------------------------------
# Long runs


def test_reported_segments_in_break_order(data):
    t = rep.load_campaigns("seed004-echo-uksouth", data)
    seg = rep.reported_segments(t)
    same = seg[seg["scenario"] == "Same AZ"]
    assert same["from_end_first"].tolist() == [500, 400, 300, 200, 100]
    # last-records-before-break.reported.csv: "last 100 records ... 789.58"
    assert same["mean"].iloc[-1] == 789.58 and same["mean_ci_low"].isna().all()
    assert [rep.segment_label(a, b) for a, b in zip(same["from_end_first"], same["from_end_last"])][
        -2:
    ] == ["200–101", "last 100"]
    assert rep.long_runs(t).empty  # printed tables only: no samples, no long run


def test_sessions_and_the_run_before_the_break():
    from azlatency import stats

    t0 = 1_742_464_800 * 10**9
    hour = 3600
    runs = [
        {
            "run_id": rid,
            "campaign": "c",
            "source_path": f"{rid}.csv",
            "source_sha256": "0",
            "block": 0,
            "line_start": 1,
            "line_end": 1,
            "tool": "echo_csv",
            "parser_variant": "csv",
            "complete": rid != "log",
            "latency_basis": "rtt",
            "scenario": "echo",
            "src_host": "a",
            "dst_host": "b",
        }
        for rid in ("one", "two", "log")
    ]
    one = pd.DataFrame(
        {
            "run_id": "one",
            "seq": np.arange(2 * hour),
            "kind": "probe",
            "status": "ok",
            "rtt_us": 800.0,
            "time_ns": t0 + np.arange(2 * hour) * 10**9,
        }
    )
    drop = t0 + 2 * hour * 10**9 + 5 * 10**9
    log = pd.DataFrame(
        {
            "run_id": ["log"],
            "seq": [2 * hour],
            "kind": "probe",
            "status": "error",
            "rtt_us": np.nan,
            "time_ns": [drop],
        }
    )
    two = one.assign(run_id="two", time_ns=one["time_ns"] + 3 * hour * 10**9)
    t = Tables(
        schema.frame("runs", runs),
        schema.frame("samples", pd.concat([one, log, two])),
        schema.empty("summaries"),
    )
    assert rep.long_runs(t)["run_id"].tolist() == ["one", "two"]
    ((name, session),) = rep.sessions(t)
    assert set(session["run_id"]) == {"one", "two", "log"} and "a → b" in name
    times = rep.break_times(stats.breaks(t.samples, t.runs))
    assert times == [drop]
    assert rep.broken_runs(t.samples, times) == ["one"]  # "two" ends long after the drop


# ---------------------------------------------------------------------------------------------
# Import overview, claims, formatting


def test_import_overview(data):
    ov = rep.import_overview(["seed000-az-vs-as", "seed004-echo-uksouth"], data)
    runs = dict(zip(ov["campaigns"]["campaign"], ov["campaigns"]["runs"]))
    # seed000: 8 logs of one run each; seed004: 15 window rows + 3 scenarios (two CSVs)
    assert runs == {"seed000-az-vs-as": 8, "seed004-echo-uksouth": 18}
    assert set(ov["not_imported"]["reason"]) == {"ignored"}  # README.md, by campaign.yaml
    assert ov["tools"].groupby("campaign")["runs"].sum().to_dict() == runs
    assert "unlabelled_zones" in set(ov["quality"]["issue"])  # seed004's cross-region client


def test_synthetic_campaigns_are_named():
    runs = schema.frame(
        "runs",
        [
            {
                "run_id": "a",
                "campaign": "s",
                "source_path": "x",
                "source_sha256": "0",
                "block": 0,
                "line_start": 1,
                "line_end": 1,
                "tool": "ping",
                "parser_variant": "x",
                "complete": True,
                "labels": json.dumps({"synthetic": "true"}),
            },
            {
                "run_id": "b",
                "campaign": "r",
                "source_path": "x",
                "source_sha256": "0",
                "block": 0,
                "line_start": 1,
                "line_end": 1,
                "tool": "ping",
                "parser_variant": "x",
                "complete": True,
                "labels": "{}",
            },
        ],
    )
    assert rep.synthetic(runs) == ["s"]


def test_claims_round_trip(tmp_path, monkeypatch):
    shown = []
    monkeypatch.setattr("IPython.display.display", lambda obj, raw=False: shown.append(obj))
    data = rep.claims(a=np.float64(1.5), b=np.int64(2), c=float("nan"), d={"x": np.bool_(True)})
    assert data == {"a": 1.5, "b": 2, "c": None, "d": {"x": True}}
    nb = {
        "cells": [
            {
                "cell_type": "code",
                "outputs": [{"output_type": "display_data", "data": shown[0], "metadata": {}}],
            }
        ]
    }
    path = tmp_path / "x.ipynb"
    path.write_text(json.dumps(nb), encoding="utf-8")
    assert rep.read_claims(path) == data


def test_formatting():
    assert rep.fmt(700.618) == "700.6 µs"
    assert rep.fmt(7.91e9, "bps") == "7.91 Gbit/s"
    row = {"estimate": 7.91e9, "ci_low": 7.48e9, "ci_high": 8.34e9, "level": 0.95}
    assert rep.fmt_interval(row, "bps") == "7.91 Gbit/s (95% CI 7.48–8.34)"
    assert (
        rep.fmt_interval(
            {"estimate": 700.618, "ci_low": np.nan, "ci_high": np.nan, "source": "reported"}
        )
        == "700.6 µs (printed by the tool, no interval)"
    )


def test_runs_with_observations_in_a_column():
    """``sample_runs``: runs with an ``ok`` value in the column or a censored row with its
    bound; ``histogram_runs``: runs with a histogram bin holding packets."""
    from azlatency.report._data import histogram_runs, sample_runs

    s = schema.frame(
        "samples",
        {
            "run_id": ["a", "a", "b", "c", "d", "e", "e"],
            "seq": [0, 1, 0, 0, 0, 0, 1],
            "kind": ["packet"] * 5 + ["histogram"] * 2,
            "status": ["ok", "lost", "lost", "ok", "censored", "ok", "ok"],
            "rtt_us": [10.0, None, None, None, None, 5.0, 6.0],
            "censor_high_us": [None, None, None, None, 1000.0, None, None],
            "count": [None] * 5 + [0, 3],
            "bin_high_us": [None] * 5 + [6.0, 7.0],
        },
    )
    assert sample_runs(s, "rtt_us") == {"a", "d", "e"}
    assert sample_runs(s, "half_rtt_us") == set()  # no such column
    assert histogram_runs(s) == {"e"}


# ---------------------------------------------------------------------------------------------
# A run is one execution


def test_windows_of_one_run_are_not_replicates(data):
    """Seed 004: one 11-hour run per scenario, given whole and in five 100-record windows.
    The windows used to count as runs: 'ratio 0.61 (95% CI 0.564 to 0.659) ... 6 vs 6 runs'."""
    t = rep.load_campaigns("seed004-echo-uksouth", data)
    c = rep.contrasts(t)
    assert len(c) == 3 and (c["n_runs_a"] == 1).all() and (c["n_runs_b"] == 1).all()
    assert not c["testable"].any() and c["p_value"].isna().all() and c["ci_low"].isna().all()
    same = _row(c, a="same_zone", b="cross_zone")
    # latency-by-scenario.reported.csv: the whole runs' means, 850 and "1,425" µs
    assert same["estimate"] == pytest.approx(850 / 1425)
    # the windows do not even enter: a campaign-level figure describes whole executions
    assert "no interval the data can give" in same["note"]
    assert "1 vs 1 runs" in same["caption"]
    ids = set(rep.latency_runs(t.runs)["run_id"])
    assert len(ids) == 3  # the three whole runs; the fifteen windows are notebook 30's
    assert len(rep.latency_runs(t.runs, windows=True)) == 18
    head = rep.headline(rep.latency_percentiles(t))
    assert sorted(head["estimate"]) == [850, 1425, 5300]  # not 789.58, a window's mean


def test_exceedance_uses_every_run_of_a_group():
    rng = np.random.default_rng(4)
    low = rng.lognormal(np.log(100), 0.02, 2000)  # never above twice the median
    high = [np.where(rng.random(2000) < 0.12, 300.0, low) for _ in range(2)]
    t = _campaign({("1", "2", 1): low, ("1", "2", 2): high[0], ("1", "2", 3): high[1]})
    pct = rep.latency_percentiles(t)
    ex = rep.exceedance(t, pct, multiples=[2.0])
    assert len(ex) == 1
    row = ex.iloc[0]
    shares = [float(np.mean(x > row["threshold"])) for x in (low, *high)]
    assert shares[0] == 0 and 0.1 < shares[1] < 0.14
    # the share of all 6000 packets, with the run as the unit, not the first run's 0
    assert row["estimate"] == pytest.approx(np.mean(shares)) and row["n"] == 6000
    assert row["unit_of_analysis"] == "run" and row["ci_low"] < row["estimate"] < row["ci_high"]


# ---------------------------------------------------------------------------------------------
# The page's first lines: the campaign's question, answered (issue 31)


def test_every_seed_states_its_question_and_compare(data):
    for name in ("seed000-az-vs-as", "seed001-aks-azure-cni", "seed002-ppg-latte",
                 "seed004-echo-uksouth"):  # fmt: skip
        info = rep.about(name, data)
        assert info["question"].strip().endswith("?") and "placement" in info["compare"]


def _answer(data, name):
    info = rep.about(name, data)
    return rep.campaign_answer(
        rep.load_campaigns(name, data),
        info["question"],
        info["compare"],
        conclusion=info["conclusion"],
    )


def test_seed004_answer_is_the_posts_how_much_slower_table(data):
    md, claims = _answer(data, "seed004-echo-uksouth")
    # the post: cross-AZ 1.7x, cross-region 6.2x (vs same zone) and 3.7x (vs cross-AZ), from
    # its means 850, 1425 and 5300 µs: printed values of one run each, so no test
    assert "**cross-zone is 1.68× same zone**" in md
    assert "**cross-region is 6.24× same zone**" in md
    assert "**cross-region is 3.72× cross-zone**" in md
    placement = claims[claims["factor"] == "placement"]
    assert len(placement) == 3 and set(placement["evidence"]) == {"printed values"}
    assert all("printed values, one run each: no test" in t for t in placement["text"])
    assert md.startswith("**Question.** How much slower is TCP echo latency")


def test_seed000_answer_leads_with_sockperf_and_ping_has_its_interval(data):
    md, claims = _answer(data, "seed000-az-vs-as")
    answer = claims[claims["section"] == "answer"].reset_index(drop=True)
    # sockperf percentile 50.000: zones 84.389 / 93.556 µs, availability set 44.215 / 53.433,
    # each over ~10^6 packets; ping's 20-packet means 969 and 1902 µs; then iperf3's throughput,
    # which the question does not ask about but placement is its factor too
    assert list(answer["tool"]) == ["sockperf", "sockperf", "ping", "iperf3"]
    assert "**cross-zone is 1.91× availability set** (sockperf, 350 B" in md
    assert "**cross-zone is 1.75× availability set** (sockperf, 1400 B" in md
    # ping's printed mean, mdev and count (avg 1.902 ms, mdev 2.507; 0.969, 0.299; 20 each)
    # give Fieller's interval, which holds 1: no direction, whatever the means say
    ping = answer.iloc[2]
    assert ping["direction"] == "none" and ping["evidence"] == "printed mean, std and count"
    assert ping["ci_low"] == pytest.approx(0.7494, abs=1e-4)
    assert ping["ci_high"] == pytest.approx(3.2595, abs=1e-4)
    # both iperf3 logs print 3.81 Gbits/sec for sender and receiver (a D4as_v4's cap?): the
    # means of their ten 1-s intervals, one run a side, are not told apart
    tp = answer.iloc[3]
    assert tp["basis"] == "throughput" and tp["direction"] == "none"
    assert tp["evidence"] == "samples, one run a side" and (tp["n_obs_a"], tp["n_obs_b"]) == (
        10,
        10,
    )
    assert "3.816 Gbit/s vs 3.816 Gbit/s" in tp["text"]
    assert "**availability set and cross-zone are not told apart** (ping" in md
    assert "The write-up concluded" in md and "no dramatical differences" in md


def test_seed001_answer_covers_every_cross_zone_pair(data):
    md, claims = _answer(data, "seed001-aks-azure-cni")
    sock = claims[
        (claims["tool"] == "sockperf")
        & (claims["a"] == "cross-zone")
        & (claims["b"] == "same zone")
    ]
    head = sock[sock["kind"] == "range"].iloc[0]
    pairs = sock[sock["kind"] == "pair"].set_index(sock[sock["kind"] == "pair"]["groups_a"].str[0])
    # sockperf p50 (half RTT): 1→1 33.408; 2→1 52.745, 3→1 700.618, 3→2 711.131 µs
    assert pairs.loc["2→1 · Azure CNI (AZ1 - AZ2)", "estimate"] == pytest.approx(52.745 / 33.408)
    assert pairs.loc["3→1 · Azure CNI (AZ1 - AZ3)", "estimate"] == pytest.approx(700.618 / 33.408)
    assert pairs.loc["3→2 · Azure CNI (AZ2 - AZ3)", "estimate"] == pytest.approx(711.131 / 33.408)
    assert (head["estimate_low"], head["estimate_high"]) == (
        pytest.approx(52.745 / 33.408),
        pytest.approx(711.131 / 33.408),
    )
    assert "**cross-zone is 1.58× to 21.29× same zone, depending on the pair**" in md
    # the first contrast of the page covers all three cross-zone pairs, not the first one
    first = claims[claims["parent"].isna()].iloc[0]
    assert first["kind"] == "range" and len(first["groups_a"]) == 3


def test_seed002_published_ranges_give_bounds_and_no_direction(data):
    md, claims = _answer(data, "seed002-ppg-latte")
    # "55 to 61.09 usecs" (same zone, AN) against "54 to 57 usec" (PPG): 54/61.09 .. 57/55
    ppg = claims[(claims["b"] == "proximity placement group") & (claims["a"] == "same zone")]
    ppg = ppg.iloc[0]
    assert ppg["direction"] == "none"
    assert (ppg["bound_low"], ppg["bound_high"]) == (
        pytest.approx(55 / 57),
        pytest.approx(61.09 / 54),
    )
    assert "**same zone and proximity placement group are not told apart**" in md
    # the question also asks about accelerated networking (308.55 µs off against 55-61.09 on)
    an = claims[claims["factor"] == "accelerated_networking"]
    same = an[an["context"].str.contains("same zone")].iloc[0]
    assert (same["bound_low"], same["bound_high"]) == (
        pytest.approx(308.55 / 61.09),
        pytest.approx(308.55 / 55),
    )
    assert "**Answer, by accelerated networking:**" in md and "**Answer, by VM size:**" in md


def test_a_tested_answer_gives_the_interval_and_unit(synth_loaded):
    md, claims = rep.campaign_answer(synth_loaded[1], None, "placement")
    assert md.startswith("**Question** (not stated in campaign.yaml)")
    tested = claims[claims["evidence"] == "tested across runs"]
    assert len(tested) >= 1
    assert "95% CI of the ratio" in md and "tested across runs," in md


def test_a_campaign_where_nothing_varies_answers_so():
    # a folder of one tool's runs to one service (the paping captures): no condition differs,
    # so the page's question gets an answer that says so, as a claim, not a title alone
    from tests.conftest import FIXTURES

    t = azlatency.read(FIXTURES / "paping" / "paping--1.5.5-linux-veth-c20-nocolor-hostname.txt")
    md, claims = rep.campaign_answer(t)
    assert md.startswith("**Question** (not stated in campaign.yaml)")
    assert (
        "**Answer:** Nothing to compare: no two latency or throughput runs differ in one "
        "condition alone" in md
    )
    assert claims["kind"].tolist() == ["statement"]
    assert claims["evidence"].tolist() == ["the runs' conditions"]


def test_author_tables_are_shown_as_published(data):
    got = rep.author_tables(rep.load_campaigns("seed004-echo-uksouth", data))
    assert sorted(got) == [
        "last-records-before-break.reported.csv",
        "latency-by-scenario.reported.csv",
    ]
    t = got["latency-by-scenario.reported.csv"].set_index("scenario")
    # the post's "Latency Measurement" table (seed 004 lines 97-103) and its break times
    assert list(t.index) == ["Same AZ", "Cross AZ", "Cross Region"]
    assert list(t.columns) == ["broke_at", "src_region", "mean rtt (µs)", "p95 rtt (µs)",
                               "p99 rtt (µs)", "min rtt (µs)", "max rtt (µs)"]  # fmt: skip
    assert t.loc["Same AZ"].tolist()[2:] == [850, 975, 1050, 726, 404402]
    assert t.loc["Cross Region", "p99 rtt (µs)"] == 8100
    assert t.loc["Cross AZ", "broke_at"] == "2025-03-20 13:23:58"
    w = got["last-records-before-break.reported.csv"].set_index("scenario")
    assert w.loc["Same AZ", "last 100 records — mean rtt (µs)"] == 789.58
    assert w.columns[0] == "records 500-401 — mean rtt (µs)"
    seed000 = rep.author_tables(rep.load_campaigns("seed000-az-vs-as", data))
    assert seed000 == {}  # its logs are the tools' own output: no published table to copy


def test_author_tables_keep_ranges_and_put_our_runs_beside(data):
    """Seed 002's blog table: '55..61.09' stays a range, and the B1s row, the one scenario
    the campaign also has latte's own output for, gets both runs' printed means beside it."""
    got = rep.author_tables(rep.load_campaigns("seed002-ppg-latte", data), ours=True)
    t = got["blog-comparison.reported.csv"].set_index("scenario")
    assert list(t.columns) == ["mean rtt (µs)", "ours — mean rtt (µs)"]
    assert t.loc["B1s cross-zone", "mean rtt (µs)"] == 2130.93
    # latte-receiver.log, latte-sender.log (in file order)
    assert t.loc["B1s cross-zone", "ours — mean rtt (µs)"] == "2026.51, 2026.4 (2 runs, printed)"
    assert t.loc["D4s_v3 same zone with accelerated networking", "mean rtt (µs)"] == "55..61.09"
    assert t.loc["D4s_v3 cross-zone", "ours — mean rtt (µs)"] == ""
    plain = rep.author_tables(rep.load_campaigns("seed002-ppg-latte", data))
    assert list(plain["blog-comparison.reported.csv"].columns) == ["scenario", "mean rtt (µs)"]


def test_key_findings_set_like_numbers_side_by_side(data):
    """Issue 31: seed 000's findings read 'Latency (rtt): from 44.22 µs ... (sockperf, p50) to
    1902 µs (ping, mean)', a range over unrelated numbers.  Now a bullet per tool and
    statistic, with the printed values of seed000's logs."""
    t = rep.load_campaigns("seed000-az-vs-as", data)
    head = rep.headline(rep.latency_percentiles(t))
    text = rep.campaign_findings(
        rep.import_overview("seed000-az-vs-as", data),
        head,
        rep.zone_pair_medians(t),
        rep.asymmetry_table(t, rng=1),
        rep.throughput_table(t),
    )
    lines = text.splitlines()
    # zones/ping.log avg 0.969 ms, avset/ping.log avg 1.902 ms
    assert (
        "- **Latency (rtt), ping mean:** from 969 µs (*availability zones*) to 1902 µs "
        "(*availability set*), 2 groups (printed by the tool, no intervals)." in lines
    )
    # avset/sockperf-tcp-m350.log "percentile 50.000 = 44.215", zones/...-m1400.log 93.556
    (sock,) = [line for line in lines if line.startswith("- **Latency (rtt), sockperf p50:**")]
    assert "from 44.22 µs (*availability set · 350 B*)" in sock
    assert "to 93.56 µs (*availability zones · 1400 B*), 4 groups" in sock
    assert not any(line.startswith("- **Latency (rtt):**") for line in lines)
    # both iperf3 runs print 3.81 Gbits/sec: one figure, not a range from it to itself
    assert "- **Throughput (iperf3):** 3.816 Gbit/s in each of 2 runs." in lines


def test_one_tools_tcp_and_icmp_round_trips_are_two_groups(tmp_path):
    # hping3 -S (a SYN ping) and hping3 -1 (ICMP) to the same host were one group, their
    # medians pooled; a tool that names two protocols has a group for each, and says which
    import shutil

    from tests.conftest import FIXTURES

    raw = tmp_path / "raw" / "syn-vs-icmp"
    raw.mkdir(parents=True)
    for name in ("veth-S-p443-c10-file", "veth-S-c50-i20ms", "veth-icmp-c5"):
        src = FIXTURES / "hping3" / f"hping3--3.0.0a2-linux-{name}.txt"
        shutil.copy(src, raw / src.name)
    import_campaign(raw, root=tmp_path / "processed", workers=1)
    p = rep.latency_percentiles(rep.load_campaigns("syn-vs-icmp", tmp_path))
    p50 = p[p["stat"] == "p50"].set_index("label")
    # icmp-c5: 0.8 0.6 0.5 0.4 0.2 ms; the two SYN runs: the median of their medians
    assert sorted(p50.index) == ["ICMP · hping3", "TCP · hping3"]
    assert p50.loc["ICMP · hping3", "estimate"] == 500.0
    assert p50.loc["TCP · hping3", "n_runs"] == 2
