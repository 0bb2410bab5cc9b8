"""Axis labels that state unit and basis."""

from __future__ import annotations

_BASIS = {"rtt": "RTT", "half_rtt": "half RTT (one-way estimate)"}
_UNITS = {"us": "µs", "bps": "bit/s", "bytes": "bytes", "pct": "%", "s": "s", "ms": "ms"}


def basis_of(column: str) -> str | None:
    if column.startswith("half_rtt"):
        return "half_rtt"
    if column.startswith("rtt"):
        return "rtt"
    return None


def latency_label(basis: str | None, unit: str = "us", what: str = "Latency") -> str:
    """``latency_label("rtt")`` → ``'Latency, RTT (µs)'``."""
    if basis not in _BASIS:
        raise ValueError(
            f"latency basis must be one of {sorted(_BASIS)}, got {basis!r}: a latency axis "
            "has to say whether it is a round trip or half of one"
        )
    return f"{what}, {_BASIS[basis]} ({_UNITS.get(unit, unit)})"


def unit_label(name: str, unit: str) -> str:
    """An axis label with its unit as readers write it: ``unit_label("RTT", "us")`` is
    ``"RTT (µs)"``."""
    return f"{name} ({_UNITS.get(unit, unit)})"


def throughput_label(side: str | None = None, scale: float = 1e9) -> str:
    """The throughput axis label for values divided by ``scale`` [bit/s]: ``"Throughput
    (receiver) [Gbit/s]"``."""
    prefix = {1e9: "Gbit/s", 1e6: "Mbit/s", 1e3: "kbit/s", 1.0: "bit/s"}[scale]
    who = f" ({side})" if side else ""
    return f"Throughput{who} [{prefix}]"
