"""Parser registry: tool name → module, loaded lazily.

Adding a tool: write ``azlatency/parsers/<tool>.py`` (copy the contract from ``_base.py``),
add one line below, add fixtures under ``tests/fixtures/<tool>/``, one changelog line.
"""

from __future__ import annotations

import importlib
from functools import cache
from types import ModuleType

from ..errors import UnknownToolError

# Alphabetical. The value is the module name under azlatency.parsers.
REGISTRY: dict[str, str] = {
    "echo_csv": "echo_csv",
    "ethr": "ethr",
    "fio": "fio",
    "iperf3": "iperf3",
    "latte": "latte",
    "ntttcp": "ntttcp",
    "ping": "ping",
    "qperf": "qperf",
    "reported_csv": "reported_csv",
    "sockperf": "sockperf",
    "uping": "uping",
}


def tools() -> list[str]:
    """Names of every registered tool."""
    return sorted(REGISTRY)


@cache
def get(tool: str) -> ModuleType:
    """The parser module of ``tool``; :class:`UnknownToolError` lists the known tools."""
    try:
        name = REGISTRY[tool]
    except KeyError:
        raise UnknownToolError(
            f"unknown tool {tool!r}; known tools: {', '.join(tools())}"
        ) from None
    return importlib.import_module(f"{__name__}.{name}")


def modules() -> list[ModuleType]:
    """Every parser module, in registry order."""
    return [get(t) for t in tools()]
