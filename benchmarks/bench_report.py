"""``azlatency report`` on the bundled campaigns (stores imported), four ways in the same run so
the machine's load hits all alike:

- ``cached``: the default, a second report into the same folder with nothing changed (every
  page restored from ``<out>/.cache``);
- ``one_campaign``: the default after one campaign's store changed (its pages and the shared
  pages it feeds run; seed 000 is re-imported from a copy with one log line appended);
- ``no_cache``: ``--no-cache``, every page run (the command before the cache: the peer);
- ``no_cache_pdf``: ``--no-cache --formats png,svg,pdf`` (every report before ``--formats``).

Issue 31 asks the warm report to take at most 20 s on 2 cores.
``python benchmarks/run_all.py report``.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ROUNDS = 2


def _report(out: Path, data: Path, campaigns: list[str], *extra: str) -> float:
    cmd = [sys.executable, "-m", "azlatency.cli", "report", *campaigns, "-o", str(out)]
    cmd += ["--data", str(data), *extra]
    start = time.perf_counter()
    subprocess.run(cmd, check=True, capture_output=True, cwd=ROOT)
    return time.perf_counter() - start


def main() -> dict:
    from azlatency import paths

    subprocess.run(
        [sys.executable, "-m", "azlatency.make_run", "--import-only"],
        check=True,
        capture_output=True,
        cwd=ROOT,
    )
    times: dict[str, list[float]] = {k: [] for k in ("cached", "one_campaign", "no_cache")}
    times["no_cache_pdf"] = []
    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp) / "data"
        shutil.copytree(paths.data_root() / "processed", data / "processed")
        names = list(paths.campaigns())
        changed = Path(tmp) / "changed" / "seed000-az-vs-as"
        shutil.copytree(paths.data_root() / "raw" / "seed000-az-vs-as", changed)
        campaigns = [str(changed) if n == changed.name else n for n in names]
        # raw campaigns are looked for under <data>/raw: link the others there
        (data / "raw").mkdir()
        for n in names:
            if n != changed.name:
                (data / "raw" / n).symlink_to(paths.data_root() / "raw" / n)
        out = Path(tmp) / "out"
        _report(out, data, campaigns)  # fonts, caches, bytecode, and the cache's entries
        ping = changed / "zones" / "ping.log"
        for i in range(ROUNDS):
            times["cached"].append(_report(out, data, campaigns))
            with ping.open("a", encoding="utf-8") as f:  # a different store for seed 000
                f.write(f"# benchmark round {i}\n")
            times["one_campaign"].append(_report(out, data, campaigns))
            for kind, extra in (("no_cache", ()), ("no_cache_pdf", ("--formats", "png,svg,pdf"))):
                times[kind].append(
                    _report(Path(tmp) / f"{kind}-{i}", data, campaigns, "--no-cache", *extra)
                )
    best = {k: round(min(v), 1) for k, v in times.items()}
    return {
        "report_cached_s": best["cached"],
        "report_one_campaign_changed_s": best["one_campaign"],
        "peer": "the same command with --no-cache (every page run, as before the cache)",
        "peer_s": best["no_cache"],
        "ratio_cached": round(best["cached"] / best["no_cache"], 3),
        "ratio_one_campaign": round(best["one_campaign"] / best["no_cache"], 3),
        "no_cache_with_pdf_s": best["no_cache_pdf"],
        "target_s": 20.0,
        "rounds": ROUNDS,
    }


if __name__ == "__main__":
    print(main())
