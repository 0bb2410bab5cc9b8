"""``report._memo``: a campaign's statistics computed once per store and code, then read."""

from __future__ import annotations

import shutil
import threading
import time

import pandas as pd
import pytest

from azlatency import report as rep
from azlatency.campaign import import_campaign
from azlatency.report import _memo
from tests.conftest import ROOT


def test_a_result_is_kept_per_store_and_read_back(tmp_path):
    raw = tmp_path / "raw" / "seed004"
    shutil.copytree(ROOT / "data" / "raw" / "seed004-echo-uksouth", raw)
    import_campaign(raw, root=tmp_path / "processed", workers=1)
    _memo.clear()
    t = rep.load_campaigns("seed004", tmp_path)
    first = rep.latency_percentiles(t)
    again = rep.latency_percentiles(t, level=0.95, basis=None)  # the defaults, named
    assert again.equals(first)
    kept = list((tmp_path / "processed" / ".derived" / "seed004").rglob("latency_percentiles-*"))
    assert len(kept) == 1
    _memo.clear()  # a new process: read from disk
    assert rep.latency_percentiles(rep.load_campaigns("seed004", tmp_path)).equals(first)
    other = rep.latency_percentiles(t, level=0.9)  # other arguments: another entry
    assert len(list(kept[0].parent.glob("latency_percentiles-*"))) == 2
    assert other["level"].dropna().eq(0.9).all()
    sub = rep.subset(t, t.runs.iloc[:3])  # a subset carries no fingerprint: computed
    assert len(rep.latency_percentiles(sub)) <= len(first)


def test_a_new_generation_removes_the_old_and_samples_stay_in_memory(tmp_path, monkeypatch):
    """Entries live in a folder per store and code; the first entry of another code (or
    store) removes the folders before it: .derived held 3.3 GB of one campaign's stale
    entries before.  ``latency_samples`` (a frame of samples) is never written."""
    raw = tmp_path / "raw" / "seed004"
    shutil.copytree(ROOT / "data" / "raw" / "seed004-echo-uksouth", raw)
    import_campaign(raw, root=tmp_path / "processed", workers=1)
    derived = tmp_path / "processed" / ".derived" / "seed004"
    _memo.clear()
    t = rep.load_campaigns("seed004", tmp_path)
    pct = rep.latency_percentiles(t)
    rep.latency_samples(t, pct, basis="rtt")
    (first,) = [p for p in derived.iterdir() if p.is_dir()]
    # the page's percentiles, cut from those of every quantile a page asks for
    kept = sorted(p.name.split("-")[0] for p in first.iterdir())
    assert kept == ["_shared_percentiles", "latency_percentiles"]
    (derived / "zone_pair_medians-0123.pkl").write_bytes(b"")  # an entry of the flat layout
    _memo.clear()
    monkeypatch.setattr(_memo, "code_fingerprint", lambda: "other code")
    again = rep.latency_percentiles(rep.load_campaigns("seed004", tmp_path))
    assert again.equals(pct)
    (second,) = list(derived.iterdir())
    assert second != first and len(list(second.glob("latency_percentiles-*.pkl"))) == 1


@pytest.mark.skipif(_memo.fcntl is None, reason="no flock on this system")
def test_a_second_computer_of_an_entry_waits_for_the_first(tmp_path):
    """Two kernels asking for the same entry: the second waits for the first's lock (and then
    reads its result) instead of computing it side by side; the lock file goes with it."""
    path = tmp_path / "gen" / "latency_percentiles-x.pkl"
    order, inside = [], threading.Event()

    def first():
        with _memo._alone(path):
            inside.set()
            time.sleep(0.3)
            order.append("first done")

    a = threading.Thread(target=first)
    a.start()
    inside.wait()
    with _memo._alone(path):
        order.append("second in")
    a.join()
    assert order == ["first done", "second in"]
    assert list(path.parent.iterdir()) == []


def test_a_campaign_converts_and_reads_its_run_values_once(monkeypatch):
    """The pages' functions share the converted latency tables (in the process) and each
    run's value (``campaign_run_values``, which every contrast's estimator reads)."""
    import numpy as np

    from azlatency.report import _compare
    from azlatency.schema import Tables, empty
    from azlatency.stats.compare import run_value_map
    from tests.stats._frames import runs, samples

    s = samples({"a": np.array([3.0, 1.0, 2.0]), "b": np.array([5.0, 4.0])})
    r = runs([{"run_id": "a", "campaign": "c"}, {"run_id": "b", "campaign": "c"}])
    _memo.clear()
    t = _memo.stamp(Tables(r, s, empty("summaries")), "a store", None)  # memory only
    calls = []
    monkeypatch.setattr(
        _compare, "run_value_map", lambda *a: calls.append(a[2:]) or run_value_map(*a)
    )
    assert _compare.campaign_run_values(t, "rtt_us", "p50") == {"a": 2.0, "b": 4.5}
    assert _compare.campaign_run_values(t, "rtt_us", "p50") == {"a": 2.0, "b": 4.5}
    assert calls == [("rtt_us", "p50")]
    pct = rep.latency_percentiles(t)
    assert pct.loc[pct["stat"] == "p50", "estimate"].tolist() == [3.25]  # median of 2, 4.5
    (kept,) = [v for v in _memo._MEMORY.values() if isinstance(v, tuple) and len(v) == 4]
    assert kept[1] is not t.samples and kept[1]["rtt_us"].tolist() == [3.0, 1.0, 2.0, 5.0, 4.0]
    drawn = rep.latency_samples(t, pct, basis="rtt")
    assert drawn["rtt_us"].sum() == 15.0
    # only what a distribution is drawn from: every panel and series takes its rows
    assert {"label", "campaign", "rtt_us", "run_id", "status"} <= set(drawn.columns)
    assert "kind" in t.samples.columns and "kind" not in drawn.columns


def test_the_pages_quantiles_are_cut_from_one_computation(monkeypatch):
    """Pages 10 and 90 ask for QUANTILES, page 11 for SPECTRUM, of the same groups: a whole
    campaign's percentiles of both are computed once, and each is the frame it was alone."""
    import numpy as np

    from azlatency.report import _latency
    from azlatency.schema import Tables, empty
    from tests.stats._frames import runs, samples

    rng = np.random.default_rng(3)
    s = samples({r: rng.lognormal(4, 0.3, 400) for r in ("a", "b", "c")})
    r = runs([{"run_id": x, "campaign": "c", "scenario": x == "c"} for x in ("a", "b", "c")])
    t = Tables(r, s, empty("summaries"))
    alone = {
        qs: _latency._percentiles(t, None, 0.95, list(_latency.GROUP), qs, "auto")
        for qs in (rep.QUANTILES, rep.SPECTRUM)
    }
    _memo.clear()
    stamped = _memo.stamp(t, "a store", None)
    calls = []
    real = _latency._percentiles
    monkeypatch.setattr(_latency, "_percentiles", lambda *a: calls.append(a[4]) or real(*a))
    for qs, want in alone.items():
        got = rep.latency_percentiles(stamped, quantiles=qs)
        pd.testing.assert_frame_equal(got, want, check_exact=True)
        assert sorted(got["q"].dropna().unique()) == list(qs)
    assert calls == [_latency._SHARED]
    apart = Tables(r, s, empty("summaries"))  # not a campaign as loaded
    assert rep.latency_percentiles(apart, quantiles=rep.SPECTRUM).equals(alone[rep.SPECTRUM])
    assert rep.latency_percentiles(stamped, quantiles=(0.9, 0.5)).equals(
        real(t, None, 0.95, list(_latency.GROUP), (0.9, 0.5), "auto")
    )
    assert calls == [_latency._SHARED, rep.SPECTRUM, (0.9, 0.5)]  # unstamped; not sorted


def _seed(tmp_path, name="seed004-echo-uksouth"):
    raw = tmp_path / "raw" / name
    shutil.copytree(ROOT / "data" / "raw" / name, raw)
    import_campaign(raw, root=tmp_path / "processed", workers=1)
    _memo.clear()
    return rep.load_campaigns(name, tmp_path)


def test_a_chart_is_drawn_once_and_written_under_each_name(tmp_path, monkeypatch):
    """Pages 10 and 90 draw the same chart of a campaign: the second gets the files and the
    pixels of the first (in the process, and from disk in another), under its own name; the
    files are those :func:`report.figure` writes of the same figure."""
    import IPython.display

    from azlatency import plots
    from azlatency.report import _show

    t = _seed(tmp_path)
    head = rep.headline(rep.latency_percentiles(t))
    part = head[head["basis"] == "rtt"]
    shown, drawn = [], []
    monkeypatch.setattr(IPython.display, "display", lambda x, **kw: shown.append((x, kw)))
    monkeypatch.setattr(
        _show, "render", lambda *a, **kw: drawn.append(a[1]) or plots.render(*a, **kw)
    )
    monkeypatch.setenv("AZLATENCY_FIGURE_FORMATS", "png,svg")
    out = tmp_path / "figures"
    see = rep.see_latency(part)
    first = rep.chart(t, out, "10-medians-rtt", rep.latency_figure, part, "rtt", see=see)
    again = rep.chart(t, out, "90-x-latency-rtt", rep.latency_figure, part, basis="rtt", mark="")
    assert len(drawn) == 1  # the defaults and the arguments by name are one call
    assert [p.name for p in again] == ["90-x-latency-rtt.svg", "90-x-latency-rtt.png"]
    for a, b in zip(first, again, strict=True):
        assert a.read_bytes() == b.read_bytes() and a != b
    images = [x for x, _ in shown if isinstance(x, IPython.display.Image)]
    assert len(images) == 2 and images[0].data == images[1].data
    files = [kw["metadata"]["azlatency"]["files"] for x, kw in shown if x in images]
    assert files == [[str(p.resolve()) for p in first], [str(p.resolve()) for p in again]]
    with plots.style("report"):  # the caption is the figure's own, 'see' said first
        text = rep.caption(rep.latency_figure(part, "rtt"))
    texts = [x.data for x, _ in shown if isinstance(x, IPython.display.Markdown)]
    assert text and texts == [
        f"*Figure `10-medians-rtt`.* **{see}** {text}",
        f"*Figure `90-x-latency-rtt`.* {text}",
    ]

    _memo.clear()  # another kernel: read from disk, not drawn
    rep.chart(
        rep.load_campaigns("seed004-echo-uksouth", tmp_path),
        out,
        "c",
        rep.latency_figure,
        part,
        "rtt",
    )
    assert len(drawn) == 1 and (out / "c.png").read_bytes() == first[1].read_bytes()

    with plots.style("report"):  # as report.figure writes the figure drawn in the page
        direct = rep.figure(rep.latency_figure(part, "rtt"), tmp_path / "direct", "d")
    assert [p.read_bytes() for p in direct] == [p.read_bytes() for p in first]

    monkeypatch.setenv("AZLATENCY_NO_MEMO", "1")
    rep.chart(t, out, "d", rep.latency_figure, part, "rtt")
    monkeypatch.delenv("AZLATENCY_NO_MEMO")
    monkeypatch.setenv("AZLATENCY_FIGURE_FORMATS", "svg")  # no pixels to show: drawn in the page
    assert [p.name for p in rep.chart(t, out, "e", rep.latency_figure, part, "rtt")] == ["e.svg"]
    assert len(drawn) == 4


def test_only_a_named_function_of_the_package_keys_a_kept_result():
    import hashlib

    def key(obj) -> str:
        h = hashlib.sha256()
        _memo._digest(h, obj)
        return h.hexdigest()

    assert key(rep.latency_figure) == key(rep.latency_figure) != key(rep.matrix_figure)
    assert _memo._named(rep.latency_figure) and not _memo._named(lambda: 0)
    assert not _memo._named(pd.DataFrame) and not _memo._named("azlatency.report")


def test_a_factors_claims_are_the_same_alone_and_estimated_once(tmp_path, monkeypatch):
    """Page 21 asks for the claims of every factor, page 90's answer for the asked factor and
    then the others: each factor's pairs are estimated once, and its claims are the same
    rows alone as among the others (only the adjustment over a page's claims differs)."""
    from azlatency.report import _compare

    t = _seed(tmp_path, "seed002-ppg-latte")
    calls = []
    real = _compare.Estimator.__call__
    monkeypatch.setattr(
        _compare.Estimator, "__call__", lambda self, *a: calls.append(a[0]) or real(self, *a)
    )
    every = rep.contrast_claims(t, rng=0)
    # 7 contrasts, 2 VM sizes latte measured only with other conditions apart, and 6 sides of
    # a contrast whose other runs it leaves out (the B1s client/server logs, the AN-off row)
    assert len(every) == 15 and set(calls) == {"placement", "accelerated_networking", "vm_size"}
    left = every[every["n_runs_a"].notna() & every["kind"].eq("not_compared")]
    assert sorted(left["n_runs_a"]) == [1, 1, 4, 4, 4, 5]
    n = len(calls)
    info = rep.about("seed002-ppg-latte", tmp_path)
    _, claims = rep.campaign_answer(t, info["question"], info["compare"], rng=0)
    assert len(calls) == n and len(claims)
    keep = ["claim_id", "kind", "a", "b", "evidence"]
    numbers = ["estimate", "ci_low", "ci_high", "p_value"]
    for f, alone in every.groupby("factor"):
        got = rep.contrast_claims(t, factors=[f], rng=0)
        a = got[keep + numbers].astype(dict.fromkeys(numbers, float)).sort_values("claim_id")
        b = alone[keep + numbers].astype(dict.fromkeys(numbers, float)).sort_values("claim_id")
        pd.testing.assert_frame_equal(a.reset_index(drop=True), b.reset_index(drop=True))
    assert len(calls) == n
