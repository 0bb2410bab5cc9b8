"""The parser template (``azlatency/parsers/_template.py``) is a working parser: copied as a
new tool, given one registry line and a folder of its output, it goes through ``azlatency
import`` into the store like any shipped tool (docs/contributing.md)."""

from __future__ import annotations

import importlib.util
import json
import shutil
import sys

import pytest
from click.testing import CliRunner

import azlatency
from azlatency import campaign, parsers
from azlatency.cli import main

OUTPUT = """\
$ toyping 10.0.0.2 -c 3
toyping to 10.0.0.2, 3 probes
probe 1: 101.5 us
probe 2: 99.0 us
probe 3: 100.5 us
done: 3 sent, 3 received, avg 100.3 us

$ toyping 10.0.0.3 -c 3
toyping to 10.0.0.3, 3 probes
probe 1: 250.0 us
probe 2: 260.0 us
"""


@pytest.fixture
def toyping(tmp_path, monkeypatch):
    """The template copied to a module of its own and registered: one module, one line."""
    path = tmp_path / "toyping.py"
    shutil.copy(parsers.__path__[0] + "/_template.py", path)
    spec = importlib.util.spec_from_file_location("azlatency.parsers.toyping", path)
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, spec.name, module)
    spec.loader.exec_module(module)
    monkeypatch.setitem(parsers.REGISTRY, "toyping", "toyping")  # the registry line
    parsers.get.cache_clear()
    yield module
    parsers.get.cache_clear()


def test_template_meets_the_contract(toyping):
    from azlatency.parsers._base import Parser

    assert isinstance(toyping, Parser) and "toyping" in parsers.tools()


def test_a_tool_from_the_template_is_read_and_imported(toyping, tmp_path):
    tables = azlatency.read(OUTPUT.encode(), source="note.txt")
    runs = tables.runs
    assert list(runs["dst_host"]) == ["10.0.0.2", "10.0.0.3"]
    assert list(runs["complete"]) == [True, False]
    assert runs["warnings"].iloc[1] == "cut short: no 'done:' line after line 11"
    assert list(tables.samples.groupby("run_id", sort=False)["rtt_us"].sum()) == [301.0, 510.0]

    raw = tmp_path / "raw" / "toy"
    raw.mkdir(parents=True)
    (raw / "az1-az2.txt").write_text(OUTPUT)
    (raw / "readme.txt").write_text("nothing a tool printed\n")
    res = CliRunner().invoke(
        main,
        ["import", str(raw), "--out", str(tmp_path / "processed"), "--workers", "1", "--json"],
        catch_exceptions=False,
    )
    report = json.loads(res.output)
    assert res.exit_code == 0, res.output
    skipped = {f["path"]: f["reason"] for f in report["files"] if f["status"] != "imported"}
    assert skipped == {"readme.txt": "unknown_format"}
    store = campaign.load("toy", root=tmp_path / "processed")
    assert list(store.runs["tool"]) == ["toyping", "toyping"]
    assert store.summaries.query("stat == 'mean' and source == 'reported'")["value"].tolist() == [
        100.3
    ]


def test_the_template_refuses_what_it_does_not_know(toyping):
    with pytest.raises(azlatency.ParseError, match=r"toyping: .*:3: expected toyping output"):
        azlatency.read(
            b"toyping to h, 2 probes\nprobe 1: 5 us\n12.5\n",
            tool="toyping",
            source="x.txt",
            strict=True,
        )
    lenient = azlatency.read(
        b"toyping to h, 1 probe\n12.5\nprobe 1: 5 us\n", tool="toyping", strict=False
    )
    assert "line 2 skipped" in lenient.runs["warnings"].iloc[0]
