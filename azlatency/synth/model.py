"""The campaign model: every effect a synthetic campaign puts in, with its default and unit.

``docs/synth.md`` documents each field.  Defaults follow the seeds: tens of µs of round trip
within a zone and a little over 100 µs across zones (seed 000: 54.5 µs in an availability
set, 94.8 µs zone 3 → zone 1), one slow pair near 1.4 ms (seed 001: AZ1–AZ3 latency 699 µs,
half a round trip), accelerated networking off about 5× slower (seed 002: 308.55 against
55-61 µs), a message-size slope (seed 000: 1400 against 350 bytes, +8.9 µs), and an 11-hour
echo run at one probe a second that drifts, shifts and finally loses its connection
(seed 004).

One run's latencies are a *scale family*: ``scale × D`` where ``D`` (the :class:`Shape`) is the
same for every path.  So the ratio of two conditions' medians, means or percentiles is the
ratio of their scales, and the truth of an effect is one number.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass, field
from statistics import NormalDist
from typing import Any

SIZES = ("tiny", "small", "large")


def pair_key(a: str, b: str) -> str:
    """Unordered zone pair key: ``pair_key("3", "1") == "1-3"``."""
    lo, hi = sorted((a, b))
    return f"{lo}-{hi}"


def direction_key(src: str, dst: str) -> str:
    """Directed zone pair key: client zone ``>`` server zone (``"1>2"``)."""
    return f"{src}>{dst}"


@dataclass(frozen=True)
class Shape:
    """The distribution ``D`` of one run's latency divided by its scale."""

    body_sigma: float = 0.05  # sd of log latency in the lognormal body (seed 000: p90/p50 1.05)
    ar_phi: float = 0.5  # AR(1) coefficient of the log body between consecutive packets
    tail_prob: float = 0.004  # share of packets that get a heavy-tail excess
    tail_alpha: float = 2.5  # Pareto shape of the excess (smaller: heavier tail)
    tail_scale: float = 1.0  # Pareto minimum of the excess, × the run's scale
    run_sigma: float = 0.02  # sd of the log of each run's own scale (run-to-run variation)

    def median(self) -> float:
        """Median of ``D``.  The excess is at least ``tail_scale`` (≥ 1 > the body's median
        region), so below the median only the body counts: F(x) = (1 − p)·Φ(ln x / σ)."""
        return math.exp(self.body_sigma * NormalDist().inv_cdf(0.5 / (1 - self.tail_prob)))

    def mean(self) -> float:
        """Mean of ``D``: lognormal body plus p × the Pareto excess's mean."""
        body = math.exp(self.body_sigma**2 / 2)
        if self.tail_alpha <= 1:
            return math.inf
        return body + self.tail_prob * self.tail_scale * self.tail_alpha / (self.tail_alpha - 1)


@dataclass(frozen=True)
class Echo:
    """The long TCP echo run (seed 004): one probe every ``interval_s`` for hours."""

    src_zone: str = "2"  # client VM's zone
    dst_zone: str = "1"  # echo server's zone
    interval_s: float = 1.0  # seconds between probes
    overhead_us: float = 700.0  # Python client + xinetd echo on small VMs, added to the path RTT
    drift_us_per_hour: float = 4.0  # slow linear drift of the level, µs per hour
    change_at_frac: float = 0.59  # level shift at this fraction of the run (≈ 6.5 h of 11)
    change_shift_us: float = -120.0  # size of the level shift, µs (a host move, seed 004)
    break_at_frac: float = 0.84  # the TCP connection breaks at this fraction (≈ 9.25 h)
    reconnect_s: float = 15.0  # the wrapper starts a new client this long after the drop
    port: int = 7  # TCP echo port (xinetd)


@dataclass(frozen=True)
class Scale:
    """How much is measured: counts and durations per size (``tiny``, ``small``, ``large``)."""

    name: str
    repetitions: int  # sockperf runs per directed zone pair (and per placement / AN pair)
    sockperf_time_s: int  # sockperf -t
    sockperf_mps: int  # sockperf --mps (full-log runs are paced)
    msg_sizes: tuple[int, ...]  # message sizes of the sweep, bytes
    msg_repetitions: int  # sockperf runs per message size
    ping_count: int  # ping -c / -n
    ping_interval_s: float  # ping -i
    latte_iterations: int  # latte -i
    latte_buckets: int  # latte -hc (1-µs buckets 0 .. hc, the last one open)
    latte_repetitions: int  # latte runs per direction
    console_every_rep: bool  # keep the sockperf console of every repetition (else the first)
    echo_hours: float  # length of the echo session
    throughput_time_s: int  # iperf3 -t, ntttcp -t, qperf -t


# the bundled campaign; 6 repetitions per direction because with the run as the unit a
# 3-against-3 rank test cannot go below p = 0.1 (no asymmetry could ever be shown), and a 95%
# order-statistic interval of the median across runs needs n >= 6 (1 - 2/2^6 = 0.969)
_SMALL = Scale(
    "small",
    repetitions=6,
    sockperf_time_s=10,
    sockperf_mps=1000,
    msg_sizes=(14, 64, 350, 1400),
    msg_repetitions=2,
    ping_count=100,
    ping_interval_s=0.2,
    latte_iterations=65100,
    latte_buckets=9998,
    latte_repetitions=3,
    console_every_rep=True,
    echo_hours=11.0,
    throughput_time_s=10,
)
SCALES: dict[str, Scale] = {
    # tests: a few thousand packets; 5 repetitions so a run-level test can reach p < 0.05
    "tiny": dataclasses.replace(
        _SMALL,
        name="tiny",
        repetitions=5,
        sockperf_time_s=2,
        sockperf_mps=50,
        msg_sizes=(64, 1400),
        ping_count=20,
        latte_iterations=2000,
        latte_buckets=999,
        latte_repetitions=2,
        console_every_rep=False,
        echo_hours=0.5,
        throughput_time_s=5,
    ),
    "small": _SMALL,
    # benchmarks: ~10^8 packets, nearly all in sockperf --full-log files
    "large": dataclasses.replace(
        _SMALL,
        name="large",
        repetitions=3,
        sockperf_time_s=220,
        sockperf_mps=12500,
        ping_count=1000,
        throughput_time_s=60,
    ),
}


def _base() -> dict[str, float]:
    return {"1-1": 52.0, "2-2": 58.0, "3-3": 49.0, "1-2": 118.0, "2-3": 146.0, "1-3": 1420.0}


def _throughput() -> dict[str, float]:
    return {"1-1": 12.3, "2-2": 12.2, "3-3": 12.3, "1-2": 11.8, "2-3": 11.9, "1-3": 7.9}


@dataclass(frozen=True)
class Model:
    """Every effect of a synthetic campaign (docs/synth.md lists each with its unit)."""

    region: str = "westeurope"
    zones: tuple[str, ...] = ("1", "2", "3")
    start: str = "2026-03-02T08:00:00Z"  # when the campaign's first command ran (UTC)
    base_rtt_us: dict[str, float] = field(default_factory=_base)  # median RTT per zone pair
    asymmetry: dict[str, float] = field(default_factory=lambda: {"1>2": 1.2})  # × on src>dst
    shape: Shape = field(default_factory=Shape)
    placement_zone: str = "1"  # the zone of the placement and accelerated-networking pairs
    placement_factor: dict[str, float] = field(
        default_factory=lambda: {"same_zone": 1.0, "availability_set": 0.92, "ppg": 0.80}
    )
    an_off_factor: float = 5.0  # × on the RTT when accelerated networking is off
    msg_slope_us_per_byte: float = 0.0085  # RTT added per byte of message above ref_msg_bytes
    ref_msg_bytes: int = 64  # message size the base RTTs hold for
    icmp_extra_us: float = 650.0  # ping: ICMP is slow-pathed (seed 000: 0.97 ms vs 95 µs)
    windows_extra_us: float = 12.0  # latte on Windows VMs: extra RTT of the Windows stack
    throughput_gbps: dict[str, float] = field(default_factory=_throughput)  # per zone pair
    throughput_cv: float = 0.02  # sd/mean of throughput between 1-s intervals
    echo: Echo = field(default_factory=Echo)

    def __post_init__(self) -> None:
        for key in self.base_rtt_us:
            a, _, b = key.partition("-")
            if pair_key(a, b) != key:
                raise ValueError(f"base_rtt_us key {key!r}: write zone pairs as 'low-high'")
        for zone_a in self.zones:
            for zone_b in self.zones:
                if pair_key(zone_a, zone_b) not in self.base_rtt_us:
                    raise ValueError(f"base_rtt_us has no entry for zones {zone_a} and {zone_b}")
                if pair_key(zone_a, zone_b) not in self.throughput_gbps:
                    raise ValueError(f"throughput_gbps has no entry for {zone_a} and {zone_b}")

    # --- the scale of a path -------------------------------------------------------------

    def path_rtt_us(self, src_zone: str, dst_zone: str) -> float:
        """Median-scale RTT of the zonal path src → dst, asymmetry included (µs)."""
        base = self.base_rtt_us[pair_key(src_zone, dst_zone)]
        return base * self.asymmetry.get(direction_key(src_zone, dst_zone), 1.0)

    def scale_us(
        self,
        src_zone: str,
        dst_zone: str,
        *,
        placement: str | None = None,
        accelerated: bool = True,
        msg_bytes: int | None = None,
        extra_us: float = 0.0,
    ) -> float:
        """The scale (µs) of one condition before run-to-run variation: the path's RTT,
        × placement and AN factors, + message-size slope, + ``extra_us``."""
        scale = self.path_rtt_us(src_zone, dst_zone)
        if placement is not None:
            scale *= self.placement_factor[placement]
        if not accelerated:
            scale *= self.an_off_factor
        size = self.ref_msg_bytes if msg_bytes is None else msg_bytes
        return scale + self.msg_slope_us_per_byte * (size - self.ref_msg_bytes) + extra_us

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)
