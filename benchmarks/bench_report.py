"""``azlatency report`` on the bundled campaigns (stores imported): the default figure files
(PNG and SVG) against the same command writing PDF too (``--formats png,svg,pdf``, what every
report did before ``--formats``), alternating in the same run so the machine's load hits both
alike.  Issue 31 asks the warm report to take at most 20 s on 2 cores.

``python benchmarks/run_all.py report``.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ROUNDS = 2


def _report(out: Path, formats: str) -> float:
    from azlatency import paths

    cmd = [
        sys.executable,
        "-m",
        "azlatency.cli",
        "report",
        *paths.campaigns(),
        "-o",
        str(out),
        "--formats",
        formats,
    ]
    start = time.perf_counter()
    subprocess.run(cmd, check=True, capture_output=True, cwd=ROOT)
    return time.perf_counter() - start


def main() -> dict:
    subprocess.run(
        [sys.executable, "-m", "azlatency.make_run", "--import-only"],
        check=True,
        capture_output=True,
        cwd=ROOT,
    )
    times: dict[str, list[float]] = {"png,svg": [], "png,svg,pdf": []}
    with tempfile.TemporaryDirectory() as tmp:
        _report(Path(tmp) / "warm", "png")  # fonts, caches, compiled bytecode
        for i in range(ROUNDS):
            for formats in list(times) if i % 2 == 0 else list(times)[::-1]:
                times[formats].append(_report(Path(tmp) / f"r{i}-{formats}", formats))
    ours, peer = min(times["png,svg"]), min(times["png,svg,pdf"])
    return {
        "report_default_s": round(ours, 1),
        "peer": "the same command with --formats png,svg,pdf (every report before --formats)",
        "peer_s": round(peer, 1),
        "ratio": round(ours / peer, 3),
        "target_s": 20.0,
        "rounds": ROUNDS,
    }


if __name__ == "__main__":
    print(main())
