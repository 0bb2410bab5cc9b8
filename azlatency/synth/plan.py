"""Write one synthetic campaign: every execution's files, and the truth about each.

Logs are filed as ``<scenario>/<client VM>/to-<server VM>/<file>``.  Each execution draws
from its own generator, seeded by the campaign seed and the execution's name, so one
execution's numbers never depend on which others were written, and the same seed gives the
same bytes.  A campaign clock advances from ``model.start`` through the executions, so logs
that print times (ping ``-D``, iperf3 JSON, ntttcp, the echo probes) tell a coherent day.
"""

from __future__ import annotations

import zlib
from collections.abc import Iterable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np

from . import generate as g
from .formats import echo, iperf3, latte, ntttcp, ping, qperf, sockperf
from .hosts import Host
from .model import Model, Scale

SOCKPERF_PORT = 11111
IPERF3_PORT = 5201
LATTE_PORT = 5005
_COOKIE = "abcdefghijklmnopqrstuvwxyz234567"


def _ends(src: Host, dst: Host) -> dict[str, str | None]:
    """The hosts and zones of a pair's two ends, as every record names them."""
    return {"src_host": src.name, "dst_host": dst.name, "src_zone": src.zone, "dst_zone": dst.zone}


def _epoch_ns(iso: str) -> int:
    dt = datetime.fromisoformat(iso.replace("Z", "+00:00")).astimezone(UTC)
    return int(dt.timestamp()) * 1_000_000_000


class Builder:
    """Writes files under ``root`` and keeps the truth of every execution."""

    def __init__(
        self, root: Path, model: Model, scale: Scale, seed: int, hosts: dict[str, Host]
    ) -> None:
        self.root, self.model, self.scale, self.seed, self.hosts = root, model, scale, seed, hosts
        self.clock_ns = _epoch_ns(model.start) + 300 * 1_000_000_000
        self.runs: list[dict[str, Any]] = []

    # --- plumbing ---------------------------------------------------------------------------

    def rng(self, key: str) -> np.random.Generator:
        return np.random.default_rng([self.seed, zlib.crc32(key.encode())])

    def path(self, folder: str, src: Host, dst: Host, name: str) -> str:
        return f"{folder}/{src.name}/to-{dst.name}/{name}"

    def write(self, rel: str, content: str | bytes | Iterable[bytes | np.ndarray]) -> None:
        path = self.root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, str):
            content = content.encode("utf-8")
        with open(path, "wb") as f:
            if isinstance(content, bytes):
                f.write(content)
            else:
                for piece in content:
                    f.write(piece)

    def advance(self, seconds: float, rng: np.random.Generator) -> int:
        """Start time (ns) of the next execution, which lasts ``seconds``."""
        start = self.clock_ns
        self.clock_ns += int((seconds + rng.uniform(20, 40)) * 1e9)
        return start

    def record(self, **facts: Any) -> None:
        facts.setdefault("tool_files", [])
        self.runs.append(facts)

    def condition(self, src: Host, dst: Host, **kw: Any) -> float:
        """Scale (µs) of a path between two inventory hosts."""
        zone = self.model.placement_zone
        return self.model.scale_us(src.zone or zone, dst.zone or zone, **kw)

    def _draw(
        self, rng: np.random.Generator, src: Host, dst: Host, n: int, **kw: Any
    ) -> tuple[float, float, np.ndarray]:
        """A latency run between two hosts: the path's scale (µs, ``condition(**kw)``), the
        run's factor and ``n`` latencies (ns) drawn at their product."""
        scale = self.condition(src, dst, **kw)
        factor = g.run_factor(rng, self.model.shape)
        return scale, factor, g.latency_ns(rng, n, scale * factor, self.model.shape)

    # --- sockperf ---------------------------------------------------------------------------

    def sockperf(
        self,
        folder: str,
        src: Host,
        dst: Host,
        rep: int,
        *,
        msg: int = 64,
        full_rtt: bool = True,
        version: str = "3.7",
        placement: str | None = None,
        scenario: str,
    ) -> None:
        key = f"{folder}/{src.name}/{dst.name}/sockperf/m{msg}/r{rep}"
        rng = self.rng(key)
        sc = self.scale
        scale = self.condition(
            src,
            dst,
            placement=placement,
            accelerated=src.accelerated and dst.accelerated,
            msg_bytes=msg,
        )
        stem = f"sockperf-m{msg}-r{rep}"
        run, factor = self._ping_pong(rng, dst, scale, msg, full_rtt, version, stem)
        start = self.advance(sc.sockperf_time_s + 3, rng)
        console_rel = self.path(folder, src, dst, f"{stem}.log")
        log_rel = self.path(folder, src, dst, f"{stem}.fulllog.csv")
        files = [log_rel]
        if rep == 1 or sc.console_every_rep:
            self.write(console_rel, sockperf.console(run, src.prompt))
            files.insert(0, console_rel)
        self.write(log_rel, sockperf.full_log(run))
        self._latency_run(
            scenario=scenario,
            tool="sockperf",
            files=files,
            samples_file=log_rel,
            src=src,
            dst=dst,
            msg=msg,
            placement=placement,
            basis="rtt" if full_rtt else "half_rtt",
            scale=scale,
            factor=factor,
            n_samples=len(run.rtt_ns),
            start_ns=start,
            version=version,
            rep=rep,
        )

    def _ping_pong(
        self,
        rng: np.random.Generator,
        dst: Host,
        scale: float,
        msg: int,
        full_rtt: bool,
        version: str,
        stem: str,
    ) -> tuple[sockperf.PingPong, float]:
        """Draw one sockperf ping-pong run (latencies, send times, counts) and its run factor."""
        sc = self.scale
        factor = g.run_factor(rng, self.model.shape)
        valid_s = sc.sockperf_time_s - 0.45 + float(rng.choice([-0.001, 0.0, 0.0, 0.001]))
        cap = int(sc.sockperf_mps * valid_s)
        rtt = g.latency_ns(rng, cap, scale * factor, self.model.shape)
        t0 = 2_400_000_000 + int(rng.integers(0, 45_000_000))  # monotonic, as sockperf 3.7
        tx, _ = g.paced_times(rng, rtt, sc.sockperf_mps, t0)
        keep = int(np.searchsorted(tx, t0 + int(valid_s * 1e9)))
        tx, rtt = tx[:keep], rtt[:keep]
        total = max(keep + 1, int(round(keep * sc.sockperf_time_s / valid_s)))
        run = sockperf.PingPong(
            version,
            dst.ip,
            SOCKPERF_PORT,
            msg,
            sc.sockperf_time_s,
            sc.sockperf_mps,
            full_rtt,
            tx,
            rtt,
            valid_s,
            total,
            f"{stem}.fulllog.csv",
            sc.sockperf_time_s + float(rng.choice([0.0, 0.0, 0.001])),
        )
        return run, factor

    def _latency_run(
        self,
        *,
        scenario: str,
        tool: str,
        files: list[str],
        samples_file: str | None,
        src: Host,
        dst: Host,
        basis: str,
        scale: float,
        factor: float,
        n_samples: int,
        start_ns: int,
        msg: int | None = None,
        placement: str | None = None,
        **extra: Any,
    ) -> None:
        shape = self.model.shape
        run_scale = scale * factor
        half = 0.5 if basis == "half_rtt" else 1.0
        self.record(
            scenario=scenario,
            tool=tool,
            files=files,
            samples_file=samples_file,
            **_ends(src, dst),
            placement_factor=placement,
            accelerated_networking=src.accelerated and dst.accelerated,
            msg_size_bytes=msg,
            latency_basis=basis,
            condition_scale_us=scale,
            run_factor=factor,
            run_scale_us=run_scale,
            median_us=run_scale * shape.median() * half,
            mean_us=run_scale * shape.mean() * half,
            n_samples=n_samples,
            start_ns=start_ns,
            **extra,
        )

    # --- ping -------------------------------------------------------------------------------

    def ping_linux(
        self, folder: str, src: Host, dst: Host, *, scenario: str, rep: int | None = None
    ) -> None:
        """One ``ping -D`` run; ``rep`` numbers repetitions (``ping-r{rep}.txt``)."""
        tail = "" if rep is None else f"/r{rep}"
        rng = self.rng(f"{folder}/{src.name}/{dst.name}/ping{tail}")
        sc = self.scale
        n = sc.ping_count
        scale, factor, rtt = self._draw(rng, src, dst, n, extra_us=self.model.icmp_extra_us)
        start = self.advance(n * sc.ping_interval_s, rng)
        step = int(sc.ping_interval_s * 1e9)
        # iputils' -i 0.2 gaps come out 201-206 ms (tests/fixtures/ping/...-D-c5-timestamps)
        gaps = step + rng.integers(1_000_000, 6_000_000, n, dtype=np.int64)
        gaps[0] = 0
        tx = start + np.cumsum(gaps)
        rel = self.path(folder, src, dst, "ping.txt" if rep is None else f"ping-r{rep}.txt")
        text = ping.linux(src.prompt, dst.ip, tx, rtt, sc.ping_interval_s)
        self._ping_run(rel, text, src, dst, (scale, factor, n, start), scenario, resolution_us=1.0)

    def ping_windows(self, folder: str, src: Host, dst: Host, *, scenario: str) -> None:
        rng = self.rng(f"{folder}/{src.name}/{dst.name}/ping")
        n = 30
        scale, factor, rtt = self._draw(rng, src, dst, n, extra_us=self.model.icmp_extra_us)
        start = self.advance(n, rng)
        rel = self.path(folder, src, dst, "ping.txt")
        text = ping.windows(src.prompt, dst.ip, rtt)
        self._ping_run(rel, text, src, dst, (scale, factor, n, start), scenario, resolution_us=1e3)

    def _ping_run(
        self,
        rel: str,
        text: str,
        src: Host,
        dst: Host,
        drawn: tuple[float, float, int, int],
        scenario: str,
        resolution_us: float,
    ) -> None:
        """Write one ping log and record its run (``drawn``: scale, factor, replies, start)."""
        scale, factor, n, start = drawn
        self.write(rel, text)
        self._latency_run(
            scenario=scenario,
            tool="ping",
            files=[rel],
            samples_file=rel,
            src=src,
            dst=dst,
            basis="rtt",
            scale=scale,
            factor=factor,
            n_samples=n,
            start_ns=start,
            resolution_us=resolution_us,
        )

    # --- latte ------------------------------------------------------------------------------

    def latte(self, folder: str, src: Host, dst: Host, rep: int, *, scenario: str) -> None:
        rng = self.rng(f"{folder}/{src.name}/{dst.name}/latte/r{rep}")
        sc = self.scale
        scale, factor, rtt = self._draw(
            rng, src, dst, sc.latte_iterations, msg_bytes=4, extra_us=self.model.windows_extra_us
        )
        start = self.advance(float(rtt.sum()) / 1e9 + 5, rng)
        rel = self.path(folder, src, dst, f"latte-r{rep}.txt")
        self.write(rel, latte.client(src.prompt, dst.ip, LATTE_PORT, rtt, sc.latte_buckets, rng))
        self._latency_run(
            scenario=scenario,
            tool="latte",
            files=[rel],
            samples_file=rel,
            src=src,
            dst=dst,
            msg=4,
            basis="rtt",
            scale=scale,
            factor=factor,
            n_samples=sc.latte_buckets + 1,
            start_ns=start,
            rep=rep,
            observations=sc.latte_iterations,
            reported_mean_us=float(rtt.mean()) / 1000,
        )

    # --- throughput tools -------------------------------------------------------------------

    def _gbps(self, src: Host, dst: Host) -> float:
        zone = self.model.placement_zone
        return self.model.throughput_gbps[
            f"{'-'.join(sorted((src.zone or zone, dst.zone or zone)))}"
        ]

    def qperf(self, folder: str, src: Host, dst: Host, *, scenario: str) -> None:
        rng = self.rng(f"{folder}/{src.name}/{dst.name}/qperf")
        t = self.scale.throughput_time_s
        scale, factor, sample = self._draw(rng, src, dst, 200_000, msg_bytes=1)
        half_mean = float(sample.mean()) / 2000
        bw = self._gbps(src, dst) * 1e9 / 8 * float(rng.uniform(0.93, 0.99))
        start = self.advance(2 * t + 2, rng)
        rel = self.path(folder, src, dst, "qperf.txt")
        self.write(rel, qperf.session(src.prompt, dst.ip, t, bw, half_mean))
        self._latency_run(
            scenario=scenario,
            tool="qperf",
            files=[rel],
            samples_file=None,
            src=src,
            dst=dst,
            msg=1,
            basis="half_rtt",
            scale=scale,
            factor=factor,
            n_samples=0,
            start_ns=start,
            reported_mean_us=qperf.reported_half_rtt_us(t, half_mean),
            throughput_bps=bw * 8,
        )

    def iperf3(
        self,
        folder: str,
        src: Host,
        dst: Host,
        *,
        as_json: bool,
        scenario: str,
        rep: int | None = None,
    ) -> None:
        """One iperf3 client run; ``rep`` numbers repetitions (``iperf3-r{rep}.txt``)."""
        kind = "json" if as_json else "text"
        tail = "" if rep is None else f"/r{rep}"
        rng = self.rng(f"{folder}/{src.name}/{dst.name}/iperf3/{kind}{tail}")
        t = self.scale.throughput_time_s
        mean_bps = self._gbps(src, dst) * 1e9 * float(rng.uniform(0.96, 1.0))
        bps = g.throughput_series(rng, t, mean_bps, self.model.throughput_cv)
        ends = np.round(np.arange(1, t + 1) + rng.uniform(0, 0.0006, t).cumsum(), 6)
        secs = np.diff(np.concatenate([[0.0], ends]))
        blocks = np.maximum(np.rint(bps * secs / 8 / 131072), 1).astype(np.int64)
        retrans = rng.poisson(max(mean_bps / 1e9 * 150, 1), t).astype(np.int64)
        cwnd = rng.integers(600_000, 1_600_000, t).astype(np.int64)
        rtt_us = self.condition(src, dst) * rng.uniform(1.5, 4.0, t)
        start = self.advance(t + 1, rng)
        run = iperf3.Client(
            src.name,
            src.ip,
            int(rng.integers(32768, 60999)),
            dst.ip,
            IPERF3_PORT,
            start // 1_000_000_000,
            ends,
            blocks * 131072,
            retrans,
            cwnd,
            rtt_us.astype(np.int64),
            float(rng.uniform(0, 0.004)),
            int(blocks.sum() - rng.integers(0, 40)) * 131072,
            "".join(rng.choice(list(_COOKIE), 36)),
            t,
            float(rng.uniform(8, 16)),
            float(rng.uniform(25, 40)),
        )
        rel = self._write_iperf3(folder, src, dst, run, as_json, rep)
        total = int(run.bytes.sum())
        self.record(
            scenario=scenario,
            tool="iperf3",
            files=[rel],
            samples_file=rel,
            **_ends(src, dst),
            throughput_model_bps=self._gbps(src, dst) * 1e9,
            throughput_bps=total * 8 / float(ends[-1]),
            n_samples=t,
            start_ns=start,
            variant=kind,
        )

    def _write_iperf3(
        self, folder: str, src: Host, dst: Host, run: iperf3.Client, as_json: bool, rep: int | None
    ) -> str:
        """Write ``run`` as iperf3's JSON or text; the file's path in the campaign."""
        stem = "iperf3" if rep is None else f"iperf3-r{rep}"
        if as_json:
            rel = self.path(folder, src, dst, f"{stem}.json")
            info = f"Linux {src.name} 6.5.0-1025-azure #26~22.04.1-Ubuntu SMP x86_64"
            self.write(rel, iperf3.json_text(run, info))
        else:
            rel = self.path(folder, src, dst, f"{stem}.txt")
            self.write(rel, iperf3.text(run, src.prompt))
        return rel

    def ntttcp(self, folder: str, src: Host, dst: Host, *, scenario: str) -> None:
        rng = self.rng(f"{folder}/{src.name}/{dst.name}/ntttcp")
        t = self.scale.throughput_time_s
        duration = t + float(rng.uniform(0.25, 0.85))
        bps = self._gbps(src, dst) * 1e9 * float(rng.uniform(0.98, 1.01))
        cpu = {
            "speed": 2593.9 + float(rng.integers(0, 10)) / 1000,
            "user": rng.uniform(0.8, 1.0),
            "system": rng.uniform(7.2, 8.0),
            "idle": rng.uniform(84, 86),
            "iowait": rng.uniform(0, 0.02),
            "softirq": rng.uniform(6.2, 7.0),
            "cycles_per_byte": rng.uniform(2.0, 2.2),
            "busy_all": rng.uniform(57, 62),
        }
        start = self.advance(60, rng)
        retrans = int(rng.integers(20_000, 100_000))
        rel = self.path(folder, src, dst, "ntttcp.txt")
        self.write(
            rel,
            ntttcp.sender(
                src.prompt,
                dst.ip,
                start,
                duration,
                bps,
                retrans,
                64,
                cpu,
                int(rng.integers(18_000, 31_000)),
            ),
        )
        self.record(
            scenario=scenario,
            tool="ntttcp",
            files=[rel],
            samples_file=None,
            **_ends(src, dst),
            throughput_model_bps=self._gbps(src, dst) * 1e9,
            throughput_bps=bps,
            n_samples=0,
            start_ns=start,
        )

    # --- the echo session -------------------------------------------------------------------

    def echo_session(self, folder: str, src: Host, dst: Host, *, scenario: str) -> dict:
        """Two echo-probe sessions around a break, and the client's log; returns their truth."""
        m = self.model
        rng = self.rng(f"{folder}/{src.name}/{dst.name}/echo")
        scale = self.condition(src, dst, extra_us=m.echo.overhead_us)
        t0 = _epoch_ns(m.start) + 60 * 1_000_000_000
        s = g.echo_series(rng, m.echo, self.scale.echo_hours, scale, m.shape, t0)
        files, logs = [], []
        for part in (1, 2):
            rel, lines = self._echo_part(folder, src, dst, scenario, s, part, rng, scale, t0)
            files.append(rel)
            logs += lines
        log_rel = self.path(folder, src, dst, "echo-client.log")
        self.write(log_rel, "\n".join(logs) + "\n")
        self._echo_record(scenario, src, dst, log_rel, n_samples=1, start_ns=t0, session="log")
        return {
            "files": [*files, log_rel],
            "src_host": src.name,
            "dst_host": dst.name,
            "start_ns": t0,
            "end_ns": s["end_ns"],
            "change_ns": s["change_ns"],
            "break_ns": s["break_ns"],
            "drop_logged_ns": s["drop_ns"],
            "resume_ns": s["resume_ns"],
            "level_us_at_start": scale,
            "drift_us_per_hour": m.echo.drift_us_per_hour,
            "change_shift_us": m.echo.change_shift_us,
            "interval_s": m.echo.interval_s,
            "probes": int(len(s["tx_ns"])),
            "probes_before_break": int((s["session"] == 1).sum()),
        }

    def _echo_part(
        self,
        folder: str,
        src: Host,
        dst: Host,
        scenario: str,
        s: dict,
        part: int,
        rng: np.random.Generator,
        scale: float,
        t0: int,
    ) -> tuple[str, list[str]]:
        """Write session ``part`` (1 before the break, 2 after) of the echo series ``s`` as a
        CSV and record it; returns its path and the client-log lines it makes."""
        sel = s["session"] == part
        tx, rx = s["tx_ns"][sel], s["rx_ns"][sel]
        name = f"echo-{part}.csv"
        rel = self.path(folder, src, dst, name)
        stamp_us = tx // 1000 - rng.integers(2, 7, len(tx))
        self.write(rel, echo.csv_rows(tx, rx, stamp_us))
        connected = (t0 if part == 1 else s["resume_ns"]) // 1000 - 1800
        lines = echo.log_lines(
            dst.ip,
            self.model.echo.port,
            name,
            connected,
            tx,
            rx,
            drop_us=s["drop_ns"] // 1000 if part == 1 else None,
            done=part == 2,
        )
        self._echo_record(
            scenario,
            src,
            dst,
            rel,
            condition_scale_us=scale,
            n_samples=int(sel.sum()),
            start_ns=int(tx[0]),
            session=part,
        )
        return rel, lines

    def _echo_record(self, scenario: str, src: Host, dst: Host, rel: str, **kw: Any) -> None:
        """Record one file of the echo session (a session's CSV or the client log)."""
        self.record(
            scenario=scenario,
            tool="echo_csv",
            files=[rel],
            samples_file=rel,
            **_ends(src, dst),
            latency_basis="rtt",
            **kw,
        )
