"""Tidy frames straight from the model, without writing logs: for simulation studies that
repeat a design over many seeds (the nominal-rate checks of ``tests/synth``) and for
benchmarks that need big ``samples`` tables but not the parsing.

The numbers come from the same generators as the log writers (``generate.py``), so a frame
drawn here and a campaign written by :func:`azlatency.synth.make_campaign` follow one model;
only the file formats are skipped.
"""

from __future__ import annotations

import zlib
from collections.abc import Sequence

import numpy as np
import pandas as pd

from .. import schema
from . import generate as g
from .model import Model


def matrix_frames(
    model: Model | None = None,
    *,
    seed: int = 0,
    repetitions: int = 5,
    packets: int = 100,
    pairs: Sequence[tuple[str, str]] | None = None,
    msg_bytes: int = 64,
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """``(runs, samples)`` of sockperf ``--full-rtt`` runs between zones: ``repetitions`` runs
    of ``packets`` round trips for every directed pair (default: every ordered pair of the
    model's zones), with run-to-run variation, in the schema's columns and dtypes.

    ``runs.labels`` holds each run's drawn ``run_scale_us`` (JSON) so a study can compare an
    estimate with the realised truth as well as with the model's.
    """
    model = model or Model()
    zones = model.zones
    pairs = list(pairs) if pairs is not None else [(a, b) for a in zones for b in zones]
    run_rows, seqs, values, ids = [], [], [], []
    for src, dst in pairs:
        scale = model.scale_us(src, dst, msg_bytes=msg_bytes)
        for rep in range(1, repetitions + 1):
            key = f"{src}>{dst}/r{rep}"
            rng = np.random.default_rng([seed, zlib.crc32(key.encode())])
            factor = g.run_factor(rng, model.shape)
            rtt = g.latency_ns(rng, packets, scale * factor, model.shape)
            run_id = f"synth-{seed}-{src}{dst}-{rep:03d}"
            run_rows.append(
                {
                    "run_id": run_id,
                    "campaign": "synthetic",
                    "source_path": f"<synth {key}>",
                    "source_sha256": "",
                    "block": 0,
                    "line_start": 1,
                    "line_end": 1,
                    "tool": "sockperf",
                    "parser_variant": "synthetic",
                    "mode": "ping-pong",
                    "protocol": "tcp",
                    "msg_size_bytes": msg_bytes,
                    "latency_basis": "rtt",
                    "src_zone": src,
                    "dst_zone": dst,
                    "region": model.region,
                    "complete": True,
                    "labels": f'{{"run_scale_us": {scale * factor!r}, "synthetic": "true"}}',
                }
            )
            ids.append(np.full(packets, len(run_rows) - 1))
            seqs.append(np.arange(packets))
            values.append(rtt / 1000.0)
    runs = schema.frame("runs", run_rows)
    index = np.concatenate(ids)
    samples = schema.frame(
        "samples",
        {
            "run_id": runs["run_id"].to_numpy()[index],
            "seq": np.concatenate(seqs),
            "kind": "packet",
            "status": "ok",
            "rtt_us": np.concatenate(values),
        },
    )
    return runs, samples
