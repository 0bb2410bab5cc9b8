"""A notebook's kernel starts in the folder its executed copy goes to, and running it does
not change this process's working directory: papermill's ``cwd=`` did (``os.chdir`` for the
run), so two notebooks executing at once on threads flipped it between their folders."""

from __future__ import annotations

import json
import os
import threading
import time
from concurrent.futures import ThreadPoolExecutor

from azlatency.report import execute as notebooks
from tests.report.notebooks.test_kernel_reuse import code_notebook


def test_kernels_start_in_their_folder_and_leave_the_cwd_alone(tmp_path):
    source = code_notebook(
        tmp_path / "where.ipynb", "import os, time\ntime.sleep(1.0)\nprint(os.getcwd())"
    )
    before = os.getcwd()
    seen: set[str] = set()
    running = True

    def watch():
        while running:
            seen.add(os.getcwd())
            time.sleep(0.005)

    watcher = threading.Thread(target=watch)
    watcher.start()
    try:
        with ThreadPoolExecutor(2) as pool:
            runs = list(
                pool.map(lambda k: notebooks.execute(source, tmp_path / f"out{k}"), range(2))
            )
    finally:
        running = False
        watcher.join()
    assert seen == {before} and os.getcwd() == before
    for k, run in enumerate(runs):
        out = json.loads(run.output.read_text(encoding="utf-8"))["cells"][-1]["outputs"]
        printed = "".join("".join(o.get("text", "")) for o in out).strip()
        assert os.path.realpath(printed) == os.path.realpath(tmp_path / f"out{k}")
