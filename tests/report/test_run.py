"""``report.run``'s kernel environment: what every kernel of a report inherits."""

from __future__ import annotations

import os

from azlatency.report import run


def test_parallel_kernels_share_the_cores_between_their_blas_threads(monkeypatch):
    for name in run.BLAS_THREADS:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr(os, "cpu_count", lambda: 4)
    with run._deterministic_kernels(2):
        assert os.environ["PYTHONHASHSEED"] == "0"
        assert {os.environ[n] for n in run.BLAS_THREADS} == {"2"}
    assert not any(n in os.environ for n in run.BLAS_THREADS)  # put back as it was


def test_a_blas_setting_of_the_user_is_left_alone(monkeypatch):
    monkeypatch.setenv("OPENBLAS_NUM_THREADS", "3")
    with run._deterministic_kernels(2):
        assert os.environ["OPENBLAS_NUM_THREADS"] == "3"
