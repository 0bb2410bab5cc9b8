"""Warm kernels (``execute.Kernels``): the second notebook in a kernel runs in the same process
and sees what a new kernel would show it — no variables, figures, rcParams or "already
shown" warnings of the first, execution count 1, its own folder — through the same client,
and a kernel that failed a notebook is not reused, nor its client."""

from __future__ import annotations

import json
import os

import pytest

from azlatency.errors import AzlatencyError
from azlatency.report import execute as notebooks


def code_notebook(path, *sources: str):
    """A notebook of code cells, one per source, written to ``path`` (also for test_kernel_cwd)."""
    cells = [
        {
            "cell_type": "code",
            "id": f"c{i}",
            "metadata": {},
            "execution_count": None,
            "outputs": [],
            "source": src,
        }
        for i, src in enumerate(sources)
    ]
    nb = {
        "cells": cells,
        "metadata": {
            "kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}
        },
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    path.write_text(json.dumps(nb), encoding="utf-8")
    return path


def _printed(executed) -> list[str]:
    cells = json.loads(executed.output.read_text(encoding="utf-8"))["cells"]
    return ["".join("".join(o.get("text", "")) for o in c["outputs"]) for c in cells]


def _counts(executed) -> list[int]:
    cells = json.loads(executed.output.read_text(encoding="utf-8"))["cells"]
    return [c["execution_count"] for c in cells]


def test_a_reused_kernel_looks_new_to_the_next_notebook(tmp_path):
    (tmp_path / "warner.py").write_text(
        "import warnings\ndef w():\n    warnings.warn('from-module', UserWarning)\n",
        encoding="utf-8",
    )
    setup = f"import sys; sys.path.insert(0, {str(tmp_path)!r}); import warner, os"
    first = code_notebook(
        tmp_path / "first.ipynb",
        setup,
        "import matplotlib.pyplot as plt\nx = 1\nplt.rcParams['lines.linewidth'] = 9\n"
        "fig = plt.figure()\nwarner.w()",
        "print(os.getpid())",
    )
    second = code_notebook(
        tmp_path / "second.ipynb",
        setup,
        "import matplotlib.pyplot as plt\n"
        "print('x' in globals(), plt.rcParams['lines.linewidth'], plt.get_fignums())\n"
        "warner.w()",
        "print(os.getpid())\nprint(os.getcwd())",
    )
    with notebooks.Kernels() as kernels:
        a = notebooks.execute(first, tmp_path / "a", kernels=kernels)
        client = kernels.client()
        b = notebooks.execute(second, tmp_path / "b", kernels=kernels)
        # the client is kept too (a new one waits 0.2 s for the kernel's output to fall quiet)
        assert client is not None and kernels.client() is client
    pa, pb = _printed(a), _printed(b)
    assert "from-module" in pa[1]
    assert pa[2].strip() == pb[2].splitlines()[0].strip()  # the same process
    assert pb[1].startswith("False 1.5 []")  # no variable, rcParams and figures as new
    assert "from-module" in pb[1]  # shown again: the first notebook's "already shown" is gone
    assert os.path.realpath(pb[2].splitlines()[1]) == os.path.realpath(tmp_path / "b")
    assert _counts(b) == [1, 2, 3]


def test_a_kernel_that_failed_a_notebook_is_replaced(tmp_path):
    pid = "import os\nprint(os.getpid())"
    failing = code_notebook(tmp_path / "failing.ipynb", pid, "raise ValueError('no')")
    after = code_notebook(tmp_path / "after.ipynb", pid)
    with notebooks.Kernels() as kernels:
        with pytest.raises(AzlatencyError, match="ValueError: no"):
            notebooks.execute(failing, tmp_path / "f", kernels=kernels)
        failed_pid = _printed_file(tmp_path / "f" / "failing.ipynb")[0]
        assert kernels.client() is None  # its client went with it
        b = notebooks.execute(after, tmp_path / "b", kernels=kernels)
    assert _printed(b)[0].strip() != failed_pid.strip()


def _printed_file(path) -> list[str]:
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    return ["".join("".join(o.get("text", "")) for o in c.get("outputs", [])) for c in cells]


def test_the_executed_copy_is_written_once_and_the_kernel_freezes_what_it_keeps(
    tmp_path, monkeypatch
):
    """papermill writes the whole executed notebook twice a cell; a warm kernel's run writes it
    once, at the end.  From the second notebook on, what the kernel kept is frozen out of the
    garbage collector (a full collection cost 0.1 s a page)."""
    import papermill.engines

    writes = []
    real = papermill.engines.write_ipynb
    monkeypatch.setattr(
        papermill.engines, "write_ipynb", lambda nb, path: (writes.append(path), real(nb, path))
    )
    freeze = "import gc\nprint(gc.get_freeze_count() > 0)"
    first = code_notebook(tmp_path / "first.ipynb", "x = 1", "y = 2", freeze)
    second = code_notebook(tmp_path / "second.ipynb", "x = 1", "y = 2", freeze)
    with notebooks.Kernels() as kernels:
        a = notebooks.execute(first, tmp_path / "a", kernels=kernels)
        b = notebooks.execute(second, tmp_path / "b", kernels=kernels)
    assert writes == [str(a.output), str(b.output)]
    assert _printed(a)[2].strip() == "False" and _printed(b)[2].strip() == "True"


def test_a_kernel_started_ahead_has_the_imports_and_nothing_else(tmp_path, monkeypatch):
    """``Kernels.start``: the first notebook of a thread runs in the kernel started ahead, which
    has imported the notebooks' modules while it started, binds no name in the notebook's
    namespace, and shows figures inline even when the caller's MPLBACKEND is headless."""
    monkeypatch.setenv("MPLBACKEND", "agg")
    page = code_notebook(
        tmp_path / "page.ipynb",
        "import os, sys\nprint(os.getpid(), 'azlatency.stats' in sys.modules)\n"
        "print(sorted(k for k in globals() if not k.startswith('_') and k not in "
        "('In', 'Out', 'exit', 'quit', 'get_ipython', 'open', 'os', 'sys')))",
        "import matplotlib.pyplot as plt\nplt.plot([1, 2])",
    )
    with notebooks.Kernels() as kernels:
        kernels.start(1)
        ahead = kernels._ahead[0]
        pid = ahead.provisioner.process.pid
        done = notebooks.execute(page, tmp_path / "a", kernels=kernels)
        assert kernels.get() is ahead and not kernels._ahead
    assert os.environ["MPLBACKEND"] == "agg"
    printed = _printed(done)[0].splitlines()
    assert printed == [f"{pid} True", "[]"]
    cells = json.loads(done.output.read_text(encoding="utf-8"))["cells"]
    assert any("image/png" in o.get("data", {}) for o in cells[-1]["outputs"])
