"""The model's series have the properties docs/synth.md states, and the renderer prints what
Python's formatting would."""

from __future__ import annotations

import math

import numpy as np
import pytest

from azlatency.synth import Model, Shape
from azlatency.synth import generate as g
from azlatency.synth._render import Num, render_bytes
from azlatency.synth.model import SCALES, Echo


def test_ar1_is_stationary_with_unit_variance_and_the_lag_one_correlation():
    z = g.ar1(np.random.default_rng(1), 400_000, 0.5)
    assert abs(z.mean()) < 0.02 and z.var() == pytest.approx(1, abs=0.02)
    assert np.corrcoef(z[1:], z[:-1])[0, 1] == pytest.approx(0.5, abs=0.01)
    assert np.corrcoef(z[2:], z[:-2])[0, 1] == pytest.approx(0.25, abs=0.01)
    assert z[:1000].var() == pytest.approx(1, abs=0.15)  # stationary from the first value


def test_shape_median_and_mean_are_those_of_the_draws():
    shape = Shape()
    x = g.shape_sample(np.random.default_rng(2), 2_000_000, shape)
    assert np.median(x) == pytest.approx(shape.median(), abs=0.001)
    assert x.mean() == pytest.approx(shape.mean(), rel=0.003)
    tail = x > 1.0 + shape.tail_scale  # only a tail excess gets this far (body sd is 5%)
    assert tail.mean() == pytest.approx(shape.tail_prob, rel=0.1)


def test_latency_is_a_scale_family():
    a = g.latency_ns(np.random.default_rng(3), 10_000, 50.0, Shape())
    b = g.latency_ns(np.random.default_rng(3), 10_000, 500.0, Shape())
    assert np.abs(b / a - 10).max() < 0.001  # same draws, ten times the scale (ns rounding)


def test_paced_sends_wait_for_the_schedule_and_for_the_reply():
    rng = np.random.default_rng(4)
    rtt = rng.integers(50_000, 3_000_000, 20_000).astype(np.int64)  # some slower than 1 ms
    t0 = 2_400_000_000
    tx, rx = g.paced_times(rng, rtt, 1000, t0)
    due = t0 + np.arange(len(tx)) * 1_000_000
    assert (tx >= due).all() and (rx == tx + rtt).all()
    assert (tx[1:] >= rx[:-1] + 40).all()  # never before the previous reply (+ client work)
    late = tx[1:] > due[1:]
    assert (tx[1:][late] < rx[:-1][late] + 400).all()  # behind schedule: right after the reply
    back = g.paced_times(rng, rtt, None, t0)[0]
    assert (back[1:] - (back[:-1] + rtt[:-1])).max() < 400


def test_echo_session_breaks_and_resumes_where_the_model_says():
    echo = Echo()
    t0 = 1_772_438_460_000_000_000
    s = g.echo_series(np.random.default_rng(5), echo, 11.0, 818.0, Shape(), t0)
    hours = 11 * 3600e9
    assert s["break_ns"] - t0 == pytest.approx(echo.break_at_frac * hours, abs=1e9)
    assert s["change_ns"] - t0 == round(echo.change_at_frac * hours)
    first = s["tx_ns"][s["session"] == 1]
    second = s["tx_ns"][s["session"] == 2]
    assert first[-1] < s["break_ns"] < s["drop_ns"] < s["resume_ns"] <= second[0]
    assert s["resume_ns"] - s["drop_ns"] == echo.reconnect_s * 1e9
    assert len(s["tx_ns"]) == pytest.approx(11 * 3600 - echo.reconnect_s - 1, abs=2)
    rtt = (s["rx_ns"] - s["tx_ns"]) / 1000
    before = np.median(rtt[(s["tx_ns"] < s["change_ns"]) & (s["tx_ns"] > s["change_ns"] - 3.6e12)])
    after = np.median(rtt[(s["tx_ns"] >= s["change_ns"]) & (s["tx_ns"] < s["change_ns"] + 3.6e12)])
    assert after - before == pytest.approx(echo.change_shift_us, abs=10)


def test_sockperf_stats_use_the_rank_rule():
    values = np.arange(1, 101, dtype=float)
    s = g.sockperf_stats(values)
    assert s[0.5] == 50 and s[0.99] == 99 and s[0.25] == 25  # rank ⌊0.5 + q·n⌋
    assert s["std"] == pytest.approx(np.std(values, ddof=1))


def test_model_scale_combines_the_effects():
    m = Model()
    assert m.scale_us("1", "2") == pytest.approx(118 * 1.2)
    assert m.scale_us("2", "1") == pytest.approx(118)
    assert m.scale_us("1", "1", placement="ppg") == pytest.approx(52 * 0.8)
    assert m.scale_us("1", "1", accelerated=False) == pytest.approx(52 * 5)
    assert m.scale_us("1", "1", msg_bytes=1400) == pytest.approx(52 + 0.0085 * 1336)
    with pytest.raises(ValueError, match="no entry for zones 1 and 4"):
        Model(zones=("1", "2", "3", "4"))


def test_sizes_are_ordered():
    tiny, small, large = (SCALES[s] for s in ("tiny", "small", "large"))
    assert tiny.repetitions >= 5  # a run-level test of 5 against 5 runs can reach p < 0.05
    assert small.repetitions >= 6 and small.echo_hours == 11.0  # n >= 6: a 95% median interval
    per_run = [s.sockperf_mps * (s.sockperf_time_s - 0.45) for s in (tiny, small, large)]
    assert per_run == sorted(per_run) and per_run[2] > 2.5e6  # large: 1.02e8 in all (seed 0)


@pytest.mark.parametrize("frac", [0, 3, 9])
def test_render_matches_python_formatting(frac):
    rng = np.random.default_rng(frac)
    v = np.concatenate([[0, 1, 9, 10, 999, 1000], rng.integers(0, 10**15, 5000)])
    mine = render_bytes([Num(v, frac), b"|", Num(v[::-1].copy()), b"\n"]).decode()
    scale = 10**frac
    want = "".join(
        (f"{a // scale}.{a % scale:0{frac}d}" if frac else str(a)) + f"|{b}\n"
        for a, b in zip(v.tolist(), v[::-1].tolist())
    )
    assert mine == want


def test_render_strip_is_python_repr_of_the_microseconds():
    d = np.concatenate(
        [[0, 5, 100000, 100830, 2583698], np.random.default_rng(9).integers(0, 10**12, 5000)]
    )
    mine = render_bytes([Num(d, 3, strip=True), b"\n"]).decode().split("\n")[:-1]
    assert mine == [repr(x / 1000) for x in d.tolist()]
    assert math.isclose(float(mine[3]), 100.83)
