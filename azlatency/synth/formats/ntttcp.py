"""ntttcp-for-linux 1.4.0 sender console (seed 001: ``ntttcp -s $ip -W 2 -t 10 -l 1``).

``HH:MM:SS INFO:`` before every line, real tabs in the Totals block (the seed shows them
expanded at 8 columns; ``tests/fixtures/ntttcp/SOURCES.md`` explains ``util.c``'s format),
throughput by ``format_throughput``: 1000-based, ``%.2f`` and ``Gbps``/``Mbps``.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta


def _throughput(bps: float) -> str:
    for step, label in ((1e9, "Gbps"), (1e6, "Mbps"), (1e3, "Kbps")):
        if bps >= step:
            return f"{bps / step:.2f}{label}"
    return f"{bps:.2f}bps"


def sender(
    prompt: str,
    dst_ip: str,
    start_ns: int,
    duration_s: float,
    bits_per_s: float,
    retrans: int,
    threads: int,
    cpu: dict[str, float],
    connect_us: int,
    cores: int = 8,
) -> str:
    """``ntttcp -s <ip> -W 2 -t T -l 1`` with a 2-s warm-up and 60-s negotiated cycle; the
    clock times print whole seconds of ``start_ns`` + the event's offset."""
    t0 = datetime.fromtimestamp(start_ns // 1_000_000 / 1000, UTC)

    def at(seconds: float) -> str:
        return (t0 + timedelta(seconds=seconds)).strftime("%H:%M:%S")

    total_bytes = int(bits_per_s * duration_s / 8)
    run_end = 2 + duration_s + 0.1  # the run stops a little after its measured duration
    info = [
        (0, "Test cycle time negotiated is: 60 seconds"),
        (0, f"{threads} threads created"),
        (0, f"{threads} connections created in {connect_us} microseconds"),
        (0, "Network activity progressing..."),
        (2, "Test warmup completed."),
        (run_end, "Test run completed."),
        (run_end, "Test cooldown is in progress..."),
        (60, "Test cycle finished."),
        (60, "receiver exited from current test"),
        (60, f"{threads} connections tested"),
        (60, "#####  Totals:  #####"),
        (60, f"test duration\t:{duration_s:.2f} seconds"),
        (60, f"total bytes\t:{total_bytes}"),
        (60, f"\t throughput\t:{_throughput(total_bytes * 8 / duration_s)}"),
        (60, f"\t retrans segs\t:{retrans}"),
        (60, f"cpu cores\t:{cores}"),
        (60, f"\t cpu speed\t:{cpu['speed']:.3f}MHz"),
        (60, f"\t user\t\t:{cpu['user']:.2f}%"),
        (60, f"\t system\t\t:{cpu['system']:.2f}%"),
        (60, f"\t idle\t\t:{cpu['idle']:.2f}%"),
        (60, f"\t iowait\t\t:{cpu['iowait']:.2f}%"),
        (60, f"\t softirq\t:{cpu['softirq']:.2f}%"),
        (60, f"\t cycles/byte\t:{cpu['cycles_per_byte']:.2f}"),
        (60, f"cpu busy (all)\t:{cpu['busy_all']:.2f}%"),
    ]
    lines = [
        f"{prompt}ntttcp -s {dst_ip} -W 2 -t {round(duration_s)} -l 1",
        "NTTTCP for Linux 1.4.0",
        "---------------------------------------------------------",
    ]
    lines += [f"{at(t)} INFO: {msg}" for t, msg in info]
    return "\n".join(lines) + "\n"
