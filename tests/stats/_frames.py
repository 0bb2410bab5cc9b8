"""Small builders of samples/runs frames for the stats tests (schema-valid, seeded)."""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy import signal

from azlatency import schema

T0 = 1_742_464_800 * 10**9  # 2025-03-20 10:00:00 UTC, the day of seed 004's runs


def ar1_lognormal(n: int, phi: float, rng, *, mu: float = 4.0, sigma: float = 0.3) -> np.ndarray:
    """Lognormal latencies whose log follows a stationary AR(1) with lag-1 correlation phi."""
    e = rng.normal(size=n + 200) * np.sqrt(1 - phi**2)
    z = signal.lfilter([1.0], [1.0, -phi], e)[200:]
    return np.exp(mu + sigma * z)


def samples(
    values_by_run: dict[str, np.ndarray],
    *,
    column: str = "rtt_us",
    interval_ns: int = 10**9,
    status: dict[str, np.ndarray] | None = None,
) -> pd.DataFrame:
    """A samples frame: one probe per ``interval_ns`` per run, status ``ok`` unless given."""
    parts = []
    for run_id, x in values_by_run.items():
        n = len(x)
        st = (
            np.full(n, "ok", dtype=object)
            if status is None or run_id not in status
            else status[run_id]
        )
        parts.append(
            pd.DataFrame(
                {
                    "run_id": run_id,
                    "seq": np.arange(n),
                    "kind": "probe",
                    "status": st,
                    "tx_time_ns": T0 + np.arange(n, dtype=np.int64) * interval_ns,
                    column: np.where(st == "ok", x, np.nan),
                }
            )
        )
    return schema.frame("samples", pd.concat(parts, ignore_index=True))


def runs(rows: list[dict]) -> pd.DataFrame:
    """A runs frame with the required columns filled in."""
    base = {
        "source_path": "test.txt",
        "source_sha256": "0" * 64,
        "block": 0,
        "line_start": 1,
        "line_end": 1,
        "tool": "echo_csv",
        "parser_variant": "test",
        "complete": True,
        "latency_basis": "rtt",
    }
    return schema.frame("runs", [{**base, **r} for r in rows])
