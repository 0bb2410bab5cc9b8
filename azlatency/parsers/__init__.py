"""Parser registry: tool name → module, loaded lazily.

Adding a tool: write ``azlatency/parsers/<tool>.py`` (the contract is ``_base.Parser``; a tool
that needs several files is a package ``<tool>/`` with the contract in its ``__init__``), add
one line below, add fixtures under ``tests/fixtures/<tool>/``, one changelog line.
``tests/test_contract.py`` checks the contract, the hooks and that no module imports in a
circle.
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
    "fping": "fping",
    "hping3": "hping3",
    "iostat": "iostat",
    "iperf2": "iperf2",
    "iperf3": "iperf3",
    "irtt": "irtt",
    "lagscope": "lagscope",
    "latte": "latte",
    "mtr": "mtr",
    "ncps": "ncps",
    "netperf": "netperf",
    "ntttcp": "ntttcp",
    "owping": "owping",
    "paping": "paping",
    "ping": "ping",
    "psping": "psping",
    "qperf": "qperf",
    "reported_csv": "reported_csv",
    "sockperf": "sockperf",
    "twping": "twping",
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
