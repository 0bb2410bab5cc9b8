"""sockperf 3.7 / 3.8 ping-pong client: console output and ``--full-log`` file.

Shapes copied from real output: ``tests/fixtures/sockperf/`` (3.7, captured: ANSI colours on
the version, average and "Total N observations" lines even when redirected; the full log's
parameter line, summary and ``packet, txTime(sec), rxTime(sec), rtt(usec)`` rows between
30-dash lines; times in seconds since a monotonic origin about 2.4 s before the first packet)
and seed 001 (3.8: ``== version #3.8-0.git31ee322aa82a == `` and the extended average line).
Printed statistics are those of the rows, by sockperf's rank rule, so the parser's check of
printed against computed figures passes.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

from .._render import Num, render
from ..generate import sockperf_stats

DASH = "-" * 30
ON, OFF = "\x1b[2;35m", "\x1b[0m"
VERSIONS = {"3.7": "3.7-no.git", "3.8": "3.8-0.git31ee322aa82a"}
PERCENTILES = (0.99999, 0.9999, 0.999, 0.99, 0.9, 0.75, 0.5, 0.25)


@dataclass(frozen=True)
class PingPong:
    """One sockperf ping-pong client execution and what it measured."""

    version: str  # "3.7" or "3.8"
    dst_ip: str
    port: int
    msg_size: int
    time_s: int  # -t
    mps: int  # --mps
    full_rtt: bool  # --full-rtt: rtt(usec) and avg-rtt; else latency(usec) = RTT / 2
    tx_ns: np.ndarray  # send times of the valid packets (monotonic ns)
    rtt_ns: np.ndarray  # their round trips (ns)
    valid_s: float  # [Valid Duration] RunTime
    total_sent: int  # [Total Run] SentMessages (warm-up and tail included)
    full_log: str | None = None  # --full-log file name
    total_run_s: float | None = None  # [Total Run] RunTime (default: -t)

    @property
    def value_thousandths(self) -> np.ndarray:
        """The printed latency column in units of 0.001 µs: RTT, or half of it rounded."""
        return self.rtt_ns if self.full_rtt else (self.rtt_ns + 1) // 2

    def values_us(self) -> np.ndarray:
        return self.value_thousandths / 1000.0

    def command(self) -> str:
        cmd = (
            f"sockperf ping-pong -i {self.dst_ip} -p {self.port} --tcp -m {self.msg_size}"
            f" -t {self.time_s} --mps {self.mps}"
        )
        if self.full_rtt:
            cmd += " --full-rtt"
        if self.full_log:
            cmd += f" --full-log {self.full_log}"
        return cmd


def _stats_lines(run: PingPong) -> tuple[list[str], dict]:
    """From ``[Total Run]`` to ``<MIN>``: what the console and the full log share."""
    s = sockperf_stats(run.values_us())
    n = s["count"]
    label = "avg-rtt" if run.full_rtt else "avg-latency"
    extra = ""
    if run.version == "3.8":
        extra = (
            f", mean-ad={s['mean_ad']:.3f}, median-ad={s['median_ad']:.3f}, "
            f"siqr={s['siqr']:.3f}, cv={s['cv']:.3f}, std-error={s['std_error']:.3f}, "
            f"99.0% ci=[{s['ci_low']:.3f}, {s['ci_high']:.3f}]"
        )
    lines = [
        f"sockperf: [Total Run] RunTime={run.total_run_s or run.time_s:.3f} sec; "
        "Warm up time=400 msec; "
        f"SentMessages={run.total_sent}; ReceivedMessages={run.total_sent - 1}",
        "sockperf: ========= Printing statistics for Server No: 0",
        f"sockperf: [Valid Duration] RunTime={run.valid_s:.3f} sec; SentMessages={n}; "
        f"ReceivedMessages={n}",
        f"sockperf: {ON}====> {label}={s['mean']:.3f} (std-dev={s['std']:.3f}{extra}){OFF}",
        "sockperf: # dropped messages = 0; # duplicated messages = 0; # out-of-order messages = 0",
    ]
    return lines, s


def _tail_lines(run: PingPong, s: dict) -> list[str]:
    n = s["count"]
    lines = [
        f"sockperf: {ON}Total {n} observations{OFF}; each percentile contains {n / 100:.2f} "
        "observations",
        f"sockperf: ---> <MAX> observation = {s['max']:8.3f}",
    ]
    lines += [f"sockperf: ---> percentile {q * 100:6.3f} = {s[q]:8.3f}" for q in PERCENTILES]
    lines.append(f"sockperf: ---> <MIN> observation = {s['min']:8.3f}")
    return lines


def console(run: PingPong, prompt: str) -> str:
    """The client's terminal output, with the prompt and command line above it."""
    head, s = _stats_lines(run)
    summary = ("Round trip" if run.full_rtt else "Latency") + f" is {s['mean']:.3f} usec"
    lines = [
        f"{prompt}{run.command()}",
        f"sockperf: {ON}== version #{VERSIONS[run.version]} == {OFF}",
        "sockperf[CLIENT] send on:sockperf: using recvfrom() to block on socket(s)",
        "",
        f"[ 0] IP = {run.dst_ip:<15} PORT = {run.port:5d} # TCP",
        "sockperf: Warmup stage (sending a few dummy messages)...",
        "sockperf: Starting test...",
        "sockperf: Test end (interrupted by timer)",
        "sockperf: Test ended",
        *head,
        f"sockperf: Summary: {summary}",
        *_tail_lines(run, s),
    ]
    return "\n".join(lines) + "\n"


def full_log(run: PingPong) -> Iterator[bytes | np.ndarray]:
    """The ``--full-log`` file, in pieces (the rows come in chunks of a million)."""
    head, s = _stats_lines(run)
    params = (
        f"--mps={run.mps} --burst=1 --reply-every=1 --msg-size={run.msg_size} "
        f"--time={run.time_s}" + (" --full-rtt" if run.full_rtt else "")
    )
    column = "rtt(usec)" if run.full_rtt else "latency(usec)"
    top = [
        DASH,
        f"test was performed using the following parameters: {params}",
        DASH,
        *head,
        *_tail_lines(run, s),
        DASH,
        f"packet, txTime(sec), rxTime(sec), {column}",
    ]
    yield ("\n".join(top) + "\n").encode()
    n = len(run.tx_ns)
    yield from render(
        [
            Num(np.arange(n, dtype=np.int64)),
            b", ",
            Num(run.tx_ns, 9),
            b", ",
            Num(run.tx_ns + run.rtt_ns, 9),
            b", ",
            Num(run.value_thousandths, 3),
            b"\n",
        ],
        n,
    )
    yield (DASH + "\n").encode()
