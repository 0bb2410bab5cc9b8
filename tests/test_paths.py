"""Where azlatency reads and writes: ``paths`` defines each folder once."""

from __future__ import annotations

from azlatency import paths


def test_a_given_data_root_wins_over_the_environment(tmp_path, monkeypatch):
    monkeypatch.setenv(paths.ENV_VAR, str(tmp_path / "env"))
    assert paths.data_root() == tmp_path / "env"
    assert paths.data_root(tmp_path / "mine") == tmp_path / "mine"
    assert paths.raw_dir(tmp_path) == tmp_path / "raw"
    assert paths.processed_dir() == tmp_path / "env" / "processed"
    assert paths.store_dir("c", paths.processed_dir(tmp_path)) == tmp_path / "processed" / "c"
    assert (
        paths.derived_dir("c", tmp_path / "processed") == tmp_path / "processed" / ".derived" / "c"
    )


def test_the_checkout_reports_build_beside_it_anything_else_in_a_hidden_sibling(tmp_path):
    root = paths.project_root()
    assert root is not None  # the tests run from a checkout
    assert paths.reports_dir() == root / "reports"
    assert paths.build_dir(root / "reports") == root / "build" / "report"
    assert paths.reports_dir(tmp_path / "out") == tmp_path / "out"
    assert paths.build_dir(tmp_path / "out") == tmp_path / ".out.build"
