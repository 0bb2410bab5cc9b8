"""Synthetic campaigns in the tools' own log formats, with known truth (``azlatency synth``).

>>> from azlatency.synth import make_campaign                      # doctest: +SKIP
>>> truth = make_campaign("/tmp/synth", size="tiny", seed=1)        # doctest: +SKIP
>>> truth.effects["asymmetry"]                                      # doctest: +SKIP

:func:`make_campaign` writes a raw campaign folder — sockperf console and ``--full-log``,
ping (Linux ``-D`` and Windows), latte ``-hist``, qperf, iperf3 text and JSON, ntttcp, echo CSV
and its client log, a ``campaign.yaml`` and a README saying it is synthetic — plus
``truth.json`` with every effect put in.  The importer reads it like any real dump.  The model
and every parameter: ``docs/synth.md``.  Same seed, same bytes.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ._bundle import rebuild, up_to_date
from .hosts import SCENARIOS, campaign_yaml, inventory
from .model import SCALES, SIZES, Echo, Model, Scale, Shape, direction_key, pair_key
from .plan import Builder

__all__ = [
    "BUNDLED",
    "SCALES",
    "SIZES",
    "Echo",
    "Model",
    "Scale",
    "Shape",
    "Truth",
    "ensure_bundled",
    "make_campaign",
]


def _generator_stamp() -> str:
    """Identity of the code that writes campaigns: a hash of this package's sources, so a
    bundled campaign written by another version is rebuilt (``ensure_bundled``)."""
    here = Path(__file__).resolve().parent
    h = hashlib.sha256()
    for path in sorted([*here.glob("*.py"), *here.glob("formats/*.py")]):
        h.update(path.relative_to(here).as_posix().encode() + b"\0" + path.read_bytes())
    return f"azlatency.synth/{h.hexdigest()[:12]}"


GENERATOR = _generator_stamp()
BUNDLED = "synthetic-westeurope"  # the campaign `make run` builds under data/raw
TRUTH = "truth.json"


@dataclass(frozen=True)
class Truth:
    """What a synthetic campaign holds: ``data`` is the content of its ``truth.json``."""

    path: Path
    data: dict[str, Any]

    @property
    def seed(self) -> int:
        return self.data["seed"]

    @property
    def size(self) -> str:
        return self.data["size"]

    @property
    def effects(self) -> dict[str, Any]:
        return self.data["effects"]

    @property
    def runs(self) -> list[dict[str, Any]]:
        return self.data["runs"]

    @property
    def echo(self) -> dict[str, Any]:
        return self.data["echo"]

    @property
    def total_samples(self) -> int:
        return self.data["samples"]["total"]

    @classmethod
    def load(cls, campaign: str | os.PathLike[str]) -> Truth:
        path = Path(campaign)
        return cls(path, json.loads((path / TRUTH).read_text(encoding="utf-8")))


def _scenarios(b: Builder) -> dict[str, Any]:
    """Every execution of the campaign, in the order they ran."""
    _zone_matrix(b)
    _placements(b)
    m, sc, h = b.model, b.scale, b.hosts
    wa, wb = h[f"win-z{m.zones[0]}-a"], h[f"win-z{m.zones[1]}-a"]
    for src, dst in ((wa, wb), (wb, wa)):
        for rep in range(1, sc.latte_repetitions + 1):
            b.latte("windows", src, dst, rep, scenario=SCENARIOS["windows"])
        b.ping_windows("windows", src, dst, scenario=SCENARIOS["windows"])
    return b.echo_session(
        "long-run-echo", h["vm-echo-cli"], h["vm-echo-srv"], scenario=SCENARIOS["long-run-echo"]
    )


def _zone_matrix(b: Builder) -> None:
    """Every tool between every pair of zones (a VM in each)."""
    m, sc, h = b.model, b.scale, b.hosts
    folder = "zone-matrix"
    for za in m.zones:
        for zb in m.zones:
            src, dst = h[f"vm-z{za}-a"], h[f"vm-z{zb}-b"]
            label = SCENARIOS[folder]
            for rep in range(1, sc.repetitions + 1):
                b.sockperf(folder, src, dst, rep, scenario=label)
            b.ping_linux(folder, src, dst, scenario=label)
            b.qperf(folder, src, dst, scenario=label)
            b.iperf3(folder, src, dst, as_json=False, scenario=label)
            b.iperf3(folder, src, dst, as_json=True, scenario=label)
            b.ntttcp(folder, src, dst, scenario=label)


def _placements(b: Builder) -> None:
    """sockperf in one zone: by placement, with and without accelerated networking, by
    message size."""
    m, sc, h = b.model, b.scale, b.hosts
    pz = m.placement_zone
    pairs = {
        "same_zone": (f"vm-z{pz}-a", f"vm-z{pz}-b"),
        "ppg": ("vm-ppg-a", "vm-ppg-b"),
        "availability_set": ("vm-as-a", "vm-as-b"),
    }
    for placement, (a, z) in pairs.items():
        for rep in range(1, sc.repetitions + 1):
            b.sockperf(
                "placement",
                h[a],
                h[z],
                rep,
                version="3.8",
                placement=placement,
                scenario=SCENARIOS["placement"],
            )
    for a, z in ((f"vm-z{pz}-a", f"vm-z{pz}-b"), ("vm-noan-a", "vm-noan-b")):
        for rep in range(1, sc.repetitions + 1):
            b.sockperf(
                "accelerated-networking",
                h[a],
                h[z],
                rep,
                version="3.8",
                scenario=SCENARIOS["accelerated-networking"],
            )
    for msg in sc.msg_sizes:
        for rep in range(1, sc.msg_repetitions + 1):
            b.sockperf(
                "message-size",
                h[f"vm-z{pz}-a"],
                h[f"vm-z{pz}-b"],
                rep,
                msg=msg,
                full_rtt=False,
                version="3.8",
                scenario=SCENARIOS["message-size"],
            )


def _effects(model: Model) -> dict[str, Any]:
    """The effects, stated the way an analysis estimates them (ratios of scales)."""
    zones = model.zones
    directed = {}
    for a in zones:
        for b in zones:
            directed[direction_key(a, b)] = model.path_rtt_us(a, b)
    pairs = sorted({pair_key(a, b) for a in zones for b in zones if a != b})
    asym = {}
    for p in pairs:
        a, b = p.split("-")
        asym[p] = {
            "ratio_a_to_b_over_b_to_a": directed[direction_key(a, b)]
            / directed[direction_key(b, a)],
            "a": a,
            "b": b,
        }
    shape = model.shape
    return {
        "scale_family": "latency = run scale × D; D's median and mean below; ratios of "
        "conditions' medians, means and percentiles equal ratios of scales",
        "shape_median": shape.median(),
        "shape_mean": shape.mean(),
        "directed_path_rtt_us": directed,
        "asymmetry": asym,
        "asymmetric_pairs": sorted(
            p for p, v in asym.items() if v["ratio_a_to_b_over_b_to_a"] != 1
        ),
        "symmetric_pairs": sorted(p for p, v in asym.items() if v["ratio_a_to_b_over_b_to_a"] == 1),
        "placement_ratio_vs_same_zone": {
            k: v / model.placement_factor.get("same_zone", 1.0)
            for k, v in model.placement_factor.items()
        },
        "accelerated_networking_off_ratio": model.an_off_factor,
        "msg_slope_us_per_byte": model.msg_slope_us_per_byte,
        "msg_slope_basis": "rtt (the message-size runs print half of it: slope / 2 per byte)",
        "icmp_extra_us": model.icmp_extra_us,
        "throughput_gbps": dict(model.throughput_gbps),
    }


def make_campaign(
    out_dir: str | os.PathLike[str],
    *,
    size: str = "tiny",
    seed: int = 0,
    model: Model | None = None,
    name: str | None = None,
    scale: Scale | None = None,
) -> Truth:
    """Write a synthetic raw campaign into ``out_dir`` (created; must be empty or absent) and
    return its :class:`Truth`.  ``size``: ``tiny`` (tests), ``small`` (the bundled campaign),
    ``large`` (~10^8 packets, for benchmarks); ``scale`` replaces the size's counts and
    durations (e.g. ``dataclasses.replace(SCALES["large"], sockperf_time_s=55)``)."""
    if scale is None:
        if size not in SCALES:
            raise ValueError(f"size must be one of {', '.join(SIZES)}, got {size!r}")
        scale = SCALES[size]
    size = scale.name
    model = model or Model()
    root = Path(out_dir)
    if root.exists() and any(root.iterdir()):
        raise FileExistsError(f"{root} is not empty")
    root.mkdir(parents=True, exist_ok=True)
    name = name or root.name
    hosts = inventory(model)
    b = Builder(root, model, scale, seed, hosts)
    echo_truth = _scenarios(b)
    by_tool: dict[str, int] = {}
    for run in b.runs:
        by_tool[run["tool"]] = by_tool.get(run["tool"], 0) + run["n_samples"]
    data = {
        "synthetic": True,
        "generator": GENERATOR,
        "seed": seed,
        "size": size,
        "campaign": name,
        "model": model.to_dict(),
        "scale": dataclasses.asdict(scale),
        "hosts": {k: dataclasses.asdict(v) for k, v in hosts.items()},
        "effects": _effects(model),
        "echo": echo_truth,
        "samples": {"total": sum(by_tool.values()), "by_tool": by_tool},
        "runs": b.runs,
    }
    (root / "campaign.yaml").write_text(
        campaign_yaml(model, hosts, name, seed, size), encoding="utf-8", newline="\n"
    )
    (root / "README.md").write_text(_readme(name, seed, size, data), encoding="utf-8", newline="\n")
    (root / TRUTH).write_text(
        json.dumps(data, indent=1, sort_keys=True) + "\n", encoding="utf-8", newline="\n"
    )
    return Truth(root, data)


def _readme(name: str, seed: int, size: str, data: dict[str, Any]) -> str:
    return f"""\
# {name} — SYNTHETIC

**This folder is synthetic.** Nothing here was measured on a cloud: every log was written by
`azlatency synth --seed {seed} --size {size}` from the model documented in `docs/synth.md`,
in the output formats of the real tools (sockperf, ping, latte, qperf, iperf3, ntttcp, the
echo-probe client), so the importer reads it through the same path as real logs.

* `truth.json` — every effect put in (base RTT per directed zone pair, asymmetry, placement
  and accelerated-networking factors, message-size slope, echo drift / change point / break
  times), the seed, the size, and per run its files, hosts, scale and sample count
  ({data["samples"]["total"]} samples in all).
* `campaign.yaml` — the host inventory and rules; every run carries the label
  `synthetic: "true"`.
* Logs are filed as `<scenario>/<client VM>/to-<server VM>/<file>`.

Regenerate with `azlatency synth <folder> --size {size} --seed {seed}` (same bytes).
"""


def ensure_bundled(
    raw_root: str | os.PathLike[str], *, seed: int = 0, size: str = "small"
) -> Path | None:
    """Build ``<raw_root>/synthetic-westeurope`` when it is absent or was made by another
    generator version; return its path when (re)built, ``None`` when it was up to date.

    A folder of that name whose ``truth.json`` does not say ``synthetic: true`` is never
    touched (it is somebody's real data): :class:`FileExistsError`.
    """
    target = Path(raw_root) / BUNDLED
    if up_to_date(target, {"generator": GENERATOR, "seed": seed, "size": size}):
        return None
    return rebuild(target, lambda staging: make_campaign(staging, size=size, seed=seed,
                                                         name=BUNDLED))  # fmt: skip
