"""The documentation builds (``make docs``) without a warning, and the API reference lists
every public function with its parameters."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from azlatency import plots, stats
from tests.conftest import ROOT


@pytest.fixture(scope="module")
def api_html(tmp_path_factory):
    out = tmp_path_factory.mktemp("docs")
    # -W: a docstring Sphinx cannot read fails the build, as it fails `make docs`.  A process
    # of its own: Sphinx registers its nodes once per process, and the site tests build too.
    res = subprocess.run(
        [
            sys.executable,
            "-m",
            "sphinx",
            "-q",
            "-E",
            "-W",
            "-b",
            "html",
            str(ROOT / "docs"),
            str(out),
        ],
        capture_output=True,
        text=True,
    )
    assert res.returncode == 0, res.stderr
    return (out / "api.html").read_text(encoding="utf-8")


def test_every_public_function_is_in_the_reference(api_html):
    ids = set(re.findall(r'id="(azlatency\.[\w.]+)"', api_html))
    for module, names in (("azlatency.stats", stats.__all__), ("azlatency.plots", plots.__all__)):
        for name in names:
            if callable(getattr(module == "azlatency.stats" and stats or plots, name)):
                assert f"{module}.{name}" in ids, f"{module}.{name} missing from docs/api.md"
    for name in (
        "azlatency.read",
        "azlatency.campaign.load",
        "azlatency.campaign.query",
        "azlatency.campaign.import_campaign",
        "azlatency.report.run.run_report",
    ):
        assert name in ids, name


def test_the_entry_points_document_parameters_and_units(api_html):
    """numpydoc sections, rendered: each entry point says its parameters and what it
    returns, with units."""
    for name in (
        "azlatency.read",
        "azlatency.campaign.load",
        "azlatency.campaign.query",
        "azlatency.campaign.import_campaign",
    ):
        at = api_html.index(f'id="{name}"')
        section = api_html[at : api_html.index('<dl class="py', at + 10)]
        assert "Parameters" in section and "Returns" in section, name
    assert "[µs]" in api_html
