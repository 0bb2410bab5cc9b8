"""sysstat 12.6's ``iostat -x -d -t -y <interval> <count>``: extended device statistics.

Layout copied from sysstat 12.6.1's own output (``tests/fixtures/iostat/``): the banner, then
per report a ``MM/DD/YY HH:MM:SS`` line (``-t``), the ``Device`` header of sysstat 12's
columns and one row per device, values with two decimals right-aligned as sysstat prints
them, a blank line after each report.  ``-y`` leaves out the since-boot report.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

COLUMNS = (
    ("r/s", 8), ("rkB/s", 9), ("rrqm/s", 8), ("%rrqm", 6), ("r_await", 7), ("rareq-sz", 8),
    ("w/s", 7), ("wkB/s", 9), ("wrqm/s", 8), ("%wrqm", 6), ("w_await", 7), ("wareq-sz", 8),
    ("d/s", 7), ("dkB/s", 9), ("drqm/s", 8), ("%drqm", 6), ("d_await", 7), ("dareq-sz", 8),
    ("f/s", 7), ("f_await", 7), ("aqu-sz", 7), ("%util", 6),
)  # fmt: skip


@dataclass(frozen=True)
class Disk:
    """One device's load in one report: reads per second, bytes per read, read await (ms)."""

    name: str
    reads_s: float
    read_bytes: int
    r_await_ms: float


def _row(d: Disk) -> str:
    kb = d.reads_s * d.read_bytes / 1024
    queue = d.reads_s * d.r_await_ms / 1000  # Little's law: requests in flight
    values = {
        "r/s": d.reads_s, "rkB/s": kb, "r_await": d.r_await_ms,
        "rareq-sz": d.read_bytes / 1024, "aqu-sz": queue,
        "%util": 100.0 * (1 - np.exp(-queue)),  # busy whenever a request is in flight
    }  # fmt: skip
    cells = "".join(f" {values.get(name, 0.0):{width}.2f}" for name, width in COLUMNS)
    return f"{d.name:<12}{cells}"


def text(host: str, start_s: int, reports: list[list[Disk]], *, cpus: int = 16) -> str:
    """The output of ``iostat -x -d -t -y`` over ``reports`` (one list of disks each), the
    first taken at ``start_s`` (epoch seconds), one a second apart."""
    day = time.strftime("%m/%d/%y", time.gmtime(start_s))
    lines = [f"Linux 5.15.0-1064-azure ({host}) \t{day} \t_x86_64_\t({cpus} CPU)", ""]
    header = "Device      " + "".join(f" {name:>{width}}" for name, width in COLUMNS)
    for k, disks in enumerate(reports):
        lines.append(time.strftime("%m/%d/%y %H:%M:%S", time.gmtime(start_s + k)))
        lines.append(header)
        lines.extend(_row(d) for d in disks)
        lines.extend(["", ""])
    return "\n".join(lines[:-1]) + "\n"


def stripe(
    rng: np.random.Generator, iops: float, read_bytes: int, names: tuple[str, ...],
    slow: dict[str, float] | None = None, await_ms: float = 3.2,
) -> list[Disk]:  # fmt: skip
    """A RAID0 stripe under random reads: each disk serves an equal share of the IOPS (the
    stripe waits for its slowest member), ``slow`` disks with their await multiplied."""
    share = iops / len(names)
    out = []
    for name in names:
        factor = (slow or {}).get(name, 1.0)
        out.append(
            Disk(
                name,
                float(share * (1 + 0.01 * rng.standard_normal())),
                read_bytes,
                float(await_ms * factor * (1 + 0.03 * rng.standard_normal())),
            )
        )
    return out
