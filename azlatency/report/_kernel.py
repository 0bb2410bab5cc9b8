"""Inside a reused report kernel (``execute.Kernels``): make it look new to the next notebook.

``fresh(cwd)`` runs silently before a notebook's first cell.  The first call in a kernel
records what a new kernel starts with (matplotlib's rcParams once pyplot is loaded with the
inline backend, the warning filters); every later call puts those back and empties the user
namespace (``%reset -f``: variables, ``In``/``Out``), closes every figure, forgets which
warnings were already shown (so each notebook shows its own), collects garbage and freezes
what survives (``gc.freeze``: later collections skip it).  Then the execution count
restarts at 1 and the working directory is the notebook's folder.  Modules stay imported:
that is the point.

``warm()`` runs while a kernel started ahead starts (``execute.Kernels.start``): it imports
what the notebooks' first cells import.
"""

from __future__ import annotations

import gc
import importlib
import os
import warnings

import matplotlib as mpl
import matplotlib.pyplot as plt

_FIRST: tuple[dict, list] | None = None
# What the notebooks' first cells import (pandas and matplotlib.pyplot come with them).
_IMPORTS = ("azlatency.plots", "azlatency.stats", "azlatency.report")


def warm() -> None:
    for name in _IMPORTS:
        importlib.import_module(name)


def fresh(cwd: str) -> None:
    global _FIRST
    from IPython import get_ipython

    shell = get_ipython()
    if _FIRST is None:
        _FIRST = (dict(mpl.rcParams), list(warnings.filters))
    else:
        shell.run_line_magic("reset", "-f")
        plt.close("all")
        rc, filters = _FIRST
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # deprecated keys warn when set back
            mpl.rcParams.update(rc)
        warnings.resetwarnings()  # bumps the filters' version: every "already shown" is forgotten
        warnings.filters[:] = filters
        registry = getattr(warnings, "_onceregistry", None)
        if registry is not None:
            registry.clear()
        gc.collect()
        # What survives is the kernel's own (modules, caches): out of later collections, a
        # full one of which (here and in %reset) took 0.1 s a page with pandas and
        # matplotlib loaded.  Reference counting still frees what the next page drops.
        gc.freeze()
    shell.execution_count = 1
    os.chdir(cwd)
