"""A synthetic fleet baseline in seed 003's tools and commands, with one degraded VM.

Seed 003 ("Validating baseline Azure VM performance") checks six DS14_v2 Cassandra nodes
before they go live: sockperf between VM pairs (Accelerated Networking working: 40-50 µs),
iperf3 from the client VM to each node in both directions (close to 11 Gbit/s), and fio on
the four striped P30 data disks and the local disk.  One of the six VMs "showed different
IOPS and latency"; the fix was to redeploy it and test again.

:func:`make_baseline` writes that campaign: per node ``cass-N/`` sockperf ``--full-log`` files
(five runs to the next node), fio's default text output for each of the seed's fio
commands (or its JSON, ``fio_output="json"``), ``iostat -x`` over the four striped disks
during the 4 KiB random read (the degraded VM's ``sde`` waits longer), and under ``loadgen/to-cass-N/`` the iperf3 client text, forward and ``--reverse``
(three runs each); a ``campaign.yaml`` whose ``expectations:`` are the seed's table; a README
saying it is synthetic; and ``truth.json`` naming the degraded VM.  Same seed, same bytes.
"""

from __future__ import annotations

import json
import os
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from . import GENERATOR
from . import generate as g
from ._bundle import rebuild, up_to_date
from .formats import fio, iostat, iperf3, sockperf
from .model import Shape

NAME = "synthetic-seed003-baseline"
NODES = tuple(f"cass-{i}" for i in range(1, 7))
DEGRADED = "cass-4"
SIZE = "Standard_DS14_v2"
START_S = 1_795_000_000  # 2026-11-18 09:46:40 UTC
REPS = 3
SOCKPERF_REPS = 5


@dataclass(frozen=True)
class DiskTest:
    """One of seed 003's fio commands and the level a healthy DS14_v2 measures."""

    key: str
    name: str
    filename: str
    rw: str
    bs: int
    iops: float  # healthy mean
    size: str | None = "4G"
    reps: int = 1


# IOPS chosen so the printed figures sit on the seed's numbers: 1 MiB random read on the four
# disks ~780 MB/s, 4 KiB random read ~20 k IOPS, RAID0 4 KiB random write ~19 k (~3.3 ms at
# iodepth 64), local disk 1 MiB random write ~530 MB/s, local 4 KiB random write ~50 k (~1.1 ms
# at iodepth 64 is what the seed reports; Little's law gives 64 / 50 k = 1.3 ms).
DISK_TESTS = (
    DiskTest("disks-1m-randread", "4-disks", "/dev/sdc:/dev/sdd:/dev/sde:/dev/sdf", "randread",
             1 << 20, 780e6 / (1 << 20)),
    DiskTest("disks-4k-randread", "4-disks", "/dev/sdc:/dev/sdd:/dev/sde:/dev/sdf", "randread",
             4096, 20_000, reps=REPS),
    DiskTest("raid0-4k-randwrite", "raid0", "/data/fio1", "randwrite", 4096, 19_300, None),
    DiskTest("local-1m-randwrite", "raid0", "/mnt/resource/fio1", "randwrite", 1 << 20,
             530e6 / (1 << 20)),
    DiskTest("local-4k-randwrite", "raid0", "/mnt/resource/fio1", "randwrite", 4096, 50_000),
)  # fmt: skip
IODEPTH = 64
DEGRADE_IOPS = 0.62  # the degraded VM's share of the healthy IOPS on the striped data disks

EXPECTATIONS = """\
expectations:
  # seed 003's table for DS14_v2 ("latency is around 40-50" is printed sockperf latency, which
  # is half the round trip; the seed writes "ms", the figure is µs)
  - check: VM-pair latency (sockperf)
    tool: sockperf
    metric: latency
    basis: half_rtt
    target: 40-50 us
    vm_size: Standard_DS14_v2
  - check: throughput to node (iperf3)
    tool: iperf3
    metric: throughput_receiver
    target: ~11 Gbit/s ±10%
    vm: dst_host
    where: {direction: forward}
  - check: throughput from node (iperf3 --reverse)
    tool: iperf3
    metric: throughput_receiver
    target: ~11 Gbit/s ±10%
    vm: dst_host
    where: {direction: reverse}
  - check: data disks 1 MiB random read
    tool: fio
    metric: disk_bandwidth_read
    target: ~780 MB/s ±10%
    where: {mode: randread, msg_size_bytes: 1048576}
  - check: data disks 4 KiB random read IOPS
    tool: fio
    metric: iops_read
    target: ~20k IOPS ±10%
    where: {mode: randread, msg_size_bytes: 4096}
  - check: RAID0 4 KiB random write IOPS
    tool: fio
    metric: iops_write
    target: ~19k IOPS ±10%
    where: {mode: randwrite, msg_size_bytes: 4096, scenario: raid0 /data}
  - check: RAID0 4 KiB random write latency
    tool: fio
    metric: lat_write
    target: ~3.3 ms ±15%
    where: {mode: randwrite, msg_size_bytes: 4096, scenario: raid0 /data}
  - check: local disk 1 MiB random write
    tool: fio
    metric: disk_bandwidth_write
    target: ~530 MB/s ±10%
    where: {mode: randwrite, msg_size_bytes: 1048576}
  - check: local disk 4 KiB random write IOPS
    tool: fio
    metric: iops_write
    target: ~50k IOPS ±10%
    where: {mode: randwrite, msg_size_bytes: 4096, scenario: local disk}
"""


def _rng(seed: int, key: str) -> np.random.Generator:
    return np.random.default_rng([seed, zlib.crc32(key.encode())])


def _ip(i: int) -> str:
    return f"10.3.0.{10 + i}"


def campaign_yaml() -> str:
    hosts = "\n".join(
        f"  {n}: {{ip: {_ip(i)}, zone: 1, vm_size: {SIZE}, accelerated_networking: true}}"
        for i, n in enumerate(NODES, 1)
    )
    return f"""\
# SYNTHETIC campaign made by azlatency.synth.baseline: not a measurement.  Seed 003's fleet
# baseline workflow in its own tools and commands; truth.json names the degraded VM.
name: {NAME}
description: >
  SYNTHETIC: six Standard_DS14_v2 Cassandra nodes checked against what their size promises
  (seed 003): sockperf between node pairs, iperf3 from the client VM to each node in both
  directions, fio on the striped P30 data disks and the local disk.  One node is degraded.
question: >
  Does every VM measure what a Standard_DS14_v2 promises, and which one should be redeployed?
compare: baseline
defaults:
  region: westeurope
  notes: >
    SYNTHETIC. Generated by azlatency.synth.baseline; not measured on any cloud.  One VM has
    {DEGRADE_IOPS:.0%} of the healthy IOPS on its data disks (truth.json).
  labels:
    synthetic: "true"
hosts:
{hosts}
  loadgen: {{ip: 10.3.0.4, zone: 1, vm_size: {SIZE}, accelerated_networking: true}}
ignore:
  - README.md
  - truth.json
rules:
  # fio prints no host: the folder says which node ran it
  - path: "{{src_host}}/fio-*"
    tool: fio
  - path: "{{src_host}}/iostat-*"
    tool: iostat
  - path: "{{src_host}}/sockperf-to-{{dst_host}}-r*"
    tool: sockperf
  - path: "{{src_host}}/to-{{dst_host}}/iperf3-*"
    tool: iperf3
  - glob: "*/fio-disks-*"
    set: {{scenario: data disks (4 x P30)}}
  - glob: "*/iostat-disks-*"
    set: {{scenario: data disks (4 x P30)}}
  - glob: "*/fio-raid0-*"
    set: {{scenario: raid0 /data}}
  - glob: "*/fio-local-*"
    set: {{scenario: local disk}}
{EXPECTATIONS}"""


def _write(root: Path, rel: str, text: str) -> None:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(text.encode("utf-8"))


def _sockperf(root: Path, seed: int, i: int, node: str, rep: int) -> dict[str, Any]:
    peer_i = i % len(NODES) + 1
    rng = _rng(seed, f"sockperf/{node}/{rep}")
    half_us = 45.0 * float(np.exp(0.015 * rng.standard_normal()))
    shape = Shape(body_sigma=0.06, tail_prob=0.001, run_sigma=0.0)
    rtt = g.latency_ns(rng, 5000, 2 * half_us / shape.mean(), shape)
    tx, _ = g.paced_times(rng, rtt, 1000, 2_400_000_000)
    stem = f"sockperf-to-{NODES[peer_i - 1]}-r{rep}"
    run = sockperf.PingPong(
        "3.8", _ip(peer_i), 11111, 64, 5, 1000, False, tx, rtt, 4.55, 5002, f"{stem}.csv", 5.0
    )
    # the full log only: its console output would be a second run of the same execution
    (root / node).mkdir(parents=True, exist_ok=True)
    with open(root / node / f"{stem}.csv", "wb") as f:
        for piece in sockperf.full_log(run):
            f.write(piece)
    return {"tool": "sockperf", "vm": node, "half_rtt_mean_us": float(rtt.mean()) / 2000}


def _iperf3(root: Path, seed: int, i: int, node: str, rep: int, reverse: bool) -> dict[str, Any]:
    key = f"iperf3/{node}/{'reverse' if reverse else 'forward'}/{rep}"
    rng = _rng(seed, key)
    t = 10
    mean_bps = 11.0e9 * float(rng.uniform(0.985, 1.0))
    bps = g.throughput_series(rng, t, mean_bps, 0.02)
    ends = np.round(np.arange(1, t + 1) + rng.uniform(0, 0.0006, t).cumsum(), 6)
    secs = np.diff(np.concatenate([[0.0], ends]))
    blocks = np.maximum(np.rint(bps * secs / 8 / 131072), 1).astype(np.int64)
    run = iperf3.Client(
        "loadgen",
        "10.3.0.4",
        int(rng.integers(32768, 60999)),
        _ip(i),
        5201,
        START_S + 3600 + 60 * (3 * i + rep),
        ends,
        blocks * 131072,
        rng.poisson(30, t).astype(np.int64),
        rng.integers(1_500_000, 3_000_000, t).astype(np.int64),
        rng.uniform(300, 700, t).astype(np.int64),
        float(rng.uniform(0, 0.004)),
        int(blocks.sum() - rng.integers(0, 40)) * 131072,
        "".join(rng.choice(list("abcdefghijklmnopqrstuvwxyz234567"), 36)),
        t,
        float(rng.uniform(8, 16)),
        float(rng.uniform(25, 40)),
    )
    text = iperf3.text(run, "root@loadgen:~# ")
    if reverse:  # -R: the same lines; iperf3 says who sends
        text = text.replace(f" -t {t}\n", f" -t {t} -R\n", 1).replace(
            "port 5201\n[  5] local",
            f"port 5201\nReverse mode, remote host {_ip(i)} is sending\n[  5] local",
            1,
        )
    name = f"iperf3-{'reverse' if reverse else 'forward'}-r{rep}.txt"
    _write(root, f"loadgen/to-{node}/{name}", text)
    return {"tool": "iperf3", "vm": node, "reverse": reverse, "bps": float(blocks.sum()) * 8 / t}


def _fio(root: Path, seed: int, node: str, test: DiskTest, rep: int, output: str) -> dict[str, Any]:
    rng = _rng(seed, f"fio/{node}/{test.key}/{rep}")
    iops = test.iops * float(rng.uniform(0.985, 1.015))
    degraded = node == DEGRADED and test.filename.startswith("/dev/sd")
    if degraded:
        iops *= DEGRADE_IOPS
    # Little's law at a full queue: mean completion latency = iodepth / IOPS
    mean_ns = IODEPTH / iops * 1e9
    sigma = 0.35
    clat = rng.lognormal(np.log(mean_ns) - sigma**2 / 2, sigma, 20_000)
    windows = iops * (1 + 0.015 * rng.standard_normal(20))
    job = fio.Job(
        test.name,
        test.filename,
        test.rw,
        test.bs,
        IODEPTH,
        10,
        test.size,
        START_S + 7200 + 600 * NODES.index(node) + 30 * rep,
        np.maximum(np.rint(clat), 1000).astype(np.int64),
        iops,
        np.maximum(windows, 1),
    )
    suffix = f"-r{rep}" if test.reps > 1 else ""
    if output == "json":
        text, ext = fio.json_text(job), "json"
    else:  # fio's default output, as the seed runs it
        text, ext = fio.normal_text(job), "txt"
    _write(
        root,
        f"{node}/fio-{test.key}{suffix}.{ext}",
        f"root@{node}:~# {job.command(output)}\n{text}",
    )
    out = {"tool": "fio", "vm": node, "test": test.key, "iops": iops, "degraded": degraded}
    if test.key == "disks-4k-randread" and rep == 1:
        # the seed watched iostat beside this test: how the IOPS spread over the stripe
        _iostat(root, rng, node, iops, degraded, job.start_s - job.runtime_s // 2)
    return out


STRIPE = ("sdc", "sdd", "sde", "sdf")
SLOW_DISK = "sde"  # the degraded VM's slow member: its reads wait 1/DEGRADE_IOPS as long


def _iostat(root: Path, rng, node: str, iops: float, degraded: bool, start_s: int) -> None:
    # a healthy member waits as on a healthy VM; the slow one holds the stripe back
    healthy = iops / DEGRADE_IOPS if degraded else iops
    slow = {SLOW_DISK: 1 / DEGRADE_IOPS**2} if degraded else None
    reports = [
        iostat.stripe(rng, iops, 4096, STRIPE, slow, await_ms=IODEPTH / healthy * 1000)
        for _ in range(3)
    ]
    _write(
        root,
        f"{node}/iostat-disks-4k-randread.txt",
        f"root@{node}:~# iostat -x -d -t -y 1 3\n" + iostat.text(node, start_s, reports),
    )


def make_baseline(
    root: str | os.PathLike[str], *, seed: int = 3, fio_output: str = "normal"
) -> dict[str, Any]:
    """Write the campaign into ``root`` (created; must not exist) and return its truth.
    ``fio_output``: ``"normal"`` (fio's default text, as the seed runs it) or ``"json"``
    (``--output-format=json``): the same jobs, so the same verdicts either way."""
    if fio_output not in ("normal", "json"):
        raise ValueError(f"fio_output must be 'normal' or 'json', got {fio_output!r}")
    out = Path(root)
    out.mkdir(parents=True)
    runs: list[dict[str, Any]] = []
    for i, node in enumerate(NODES, 1):
        for rep in range(1, SOCKPERF_REPS + 1):
            runs.append(_sockperf(out, seed, i, node, rep))
        for rep in range(1, REPS + 1):
            runs.append(_iperf3(out, seed, i, node, rep, reverse=False))
            runs.append(_iperf3(out, seed, i, node, rep, reverse=True))
        for test in DISK_TESTS:
            for rep in range(1, test.reps + 1):
                runs.append(_fio(out, seed, node, test, rep, fio_output))
    truth = {
        "synthetic": True,
        "generator": "azlatency.synth.baseline",
        "seed": seed,
        "degraded_vm": DEGRADED,
        "slow_disk": SLOW_DISK,
        "degraded": f"{DEGRADE_IOPS:.0%} of the healthy IOPS on the striped data disks "
        "(/dev/sdc:/dev/sdd:/dev/sde:/dev/sdf), so their latency is 1/{:.2f} as long".format(
            DEGRADE_IOPS
        ),
        "runs": runs,
    }
    (out / "campaign.yaml").write_text(campaign_yaml(), encoding="utf-8")
    (out / "README.md").write_text(
        f"# {NAME} (SYNTHETIC)\n\nWritten by `azlatency.synth.baseline` (seed {seed}): seed "
        "003's fleet baseline workflow in its own tools and commands, not a measurement. "
        f"{DEGRADED} is degraded on its data disks; `truth.json` says how.\n",
        encoding="utf-8",
    )
    (out / "truth.json").write_text(json.dumps(truth, indent=1), encoding="utf-8")
    return truth


def ensure_baseline(raw_root: str | os.PathLike[str], *, seed: int = 3) -> Path | None:
    """Build ``<raw_root>/synthetic-seed003-baseline`` when absent or written by other code;
    the path when (re)built, ``None`` when up to date.  A folder of that name that is not
    synthetic is never touched (:class:`FileExistsError`)."""

    target = Path(raw_root) / NAME
    if up_to_date(target, {"stamp": GENERATOR, "seed": seed}):
        return None

    def build(staging: Path) -> None:
        truth = make_baseline(staging, seed=seed)
        truth["stamp"] = GENERATOR
        (staging / "truth.json").write_text(json.dumps(truth, indent=1), encoding="utf-8")

    return rebuild(target, build)
