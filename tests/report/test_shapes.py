"""``azlatency report`` on campaign shapes no bundled campaign has (``shapes.SHAPES``, built
from real fixtures): one report over all six at once (every notebook runs where it applies,
and says what is missing where it does not), then ``--strict`` and determinism on two of
them, then a failing notebook.  Slow-ish: the kernels are the cost, so runs are shared."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from azlatency.cli import main
from azlatency.report import read_claims
from tests.report.notebooks import test_site
from tests.report.shapes import SHAPES, build

pytestmark = pytest.mark.xdist_group("report")  # one report over the shapes, built once
browser = test_site.browser  # headless chromium (skipped without it)
needs_browser = test_site.needs_browser


def _report(*args: str) -> tuple[int, str]:
    res = CliRunner().invoke(main, ["report", *args], catch_exceptions=False)
    return res.exit_code, res.output


@pytest.fixture(scope="module")
def raw(tmp_path_factory) -> dict[str, Path]:
    return build(tmp_path_factory.mktemp("raw"))


@pytest.fixture(scope="module")
def first(raw, tmp_path_factory):
    """One report over every shape: (exit code, output, report folder, data root)."""
    base = tmp_path_factory.mktemp("report")
    out, data = base / "reports", base / "data"
    code, text = _report(*map(str, raw.values()), "-o", str(out), "--data", str(data))
    return code, text, out, data


def _build(out: Path) -> Path:
    """Where a report into ``out`` keeps its executed notebooks (not published)."""
    from azlatency.paths import build_dir

    return build_dir(out)


def _html(out: Path, doc: str) -> str:
    return (out / "site" / f"{doc}.html").read_text(encoding="utf-8")


def _text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def test_every_shape_reports_without_failure(first):
    code, text, out, _ = first
    assert code == 0, text
    assert "0 failed" in text and f"open {out / 'index.html'}" in text
    # what one publishes: the site, figures and claims; no notebook, no cache, no path of
    # the machine that built it (issue 37)
    assert sorted(p.name for p in out.iterdir()) == ["claims", "figures", "index.html", "site"]
    machine = [str(out.resolve().parent), str(Path.home())]
    for f in out.rglob("*"):
        if f.is_file() and f.suffix in (".html", ".json", ".svg", ".txt", ".md", ".ipynb"):
            text = f.read_text(encoding="utf-8", errors="replace")
            assert not any(m in text for m in machine), f
    executed = list((_build(out) / "notebooks").rglob("*.ipynb"))
    assert len(executed) >= 10
    for nb in executed:  # no cell failed quietly into a stored error
        cells = json.loads(nb.read_text(encoding="utf-8"))["cells"]
        errors = [o for c in cells for o in c.get("outputs", []) if o["output_type"] == "error"]
        assert not errors, nb
    assert not (_build(out) / "failed").exists()


def test_a_notebook_that_does_not_apply_says_what_is_missing(first):
    _, text, out, _ = first
    # No shape holds a long run: each shape's 30 is a page saying so, in the site too.
    for shape in SHAPES:
        page = (_build(out) / "notebooks" / shape / "30-long-run-stability.md").read_text(
            encoding="utf-8"
        )
        assert page.startswith("# 30 · ") and "needs a long run" in page, shape
    assert "Not run for" in _text(_html(out, "no-yaml/30-long-run-stability"))
    # Zone pairs: only the shapes whose runs know both zones get a matrix.
    for shape in ("ping-iperf3", "no-yaml", "windows", "parse-failure"):
        assert (_build(out) / "notebooks" / shape / "20-zone-pair-matrix.md").is_file(), shape
    for shape in ("one-direction", "markdown-note"):
        assert (_build(out) / "notebooks" / shape / "20-zone-pair-matrix.ipynb").is_file(), shape
    # Throughput: a page for each shape with iperf3 / ntttcp; the others say they have none.
    tools = set()
    for shape in ("ping-iperf3", "windows"):
        tp = read_claims(_build(out) / "notebooks" / shape / "22-throughput.ipynb")
        # labels end in the tool and its output form: "... · iperf3 (json)", "... · ntttcp"
        tools |= {k.split(" · ")[-1].split()[0] for k in tp["throughput_bps"]}
    assert tools == {"iperf3", "ntttcp"}
    shown = _text(_html(out, "no-yaml/22-throughput"))
    assert "Not run for" in shown and "throughput runs" in shown


def test_pages_say_what_the_data_could_not_answer(first):
    _, _, out, _ = first
    # one direction per pair: a matrix, and no A->B against B->A
    c = read_claims(_build(out) / "notebooks" / "one-direction" / "20-zone-pair-matrix.ipynb")
    assert set(c["medians"]) == {"1->2", "1->3", "2->3"} and c["pairs_both_ways"] == 0
    assert "measured in both directions" in _text(_html(out, "one-direction/20-zone-pair-matrix"))
    report = _text(_html(out, "ping-iperf3/90-campaign-report"))
    assert "Nothing to show: latency" not in report and "Throughput" in report
    # a pasted table of printed values is shown as published, numbers and all
    note = _html(out, "markdown-note/90-campaign-report")
    table = note.split("The author's table", 1)[1].split("</table>", 1)[0]
    assert "<table" in table and "Cross AZ" in table and "1950" in table
    # the file that failed to parse is on the import page with its reason
    imp = read_claims(_build(out) / "notebooks" / "01-import-and-quality.ipynb")
    assert imp["files_not_imported"]["parse-failure"] == 1
    assert "parse_error" in _text(_html(out, "01-import-and-quality"))


def test_front_page_starts_each_campaign_with_its_answer(first):
    _, _, out, _ = first
    index = _html(out, "index")
    shown = _text(index)
    assert "Start here." in shown
    for shape in SHAPES:
        assert f'href="{shape}/90-campaign-report.html"' in index, shape
        assert f"{shape}" in shown
    # busybox ping "round-trip min/avg/max = ..." c4-ok: the 2->3 pair has 4 replies
    front = read_claims(_build(out) / "notebooks" / "one-direction" / "90-campaign-report.ipynb")[
        "front"
    ]
    assert set(front["zone_medians_us"]) == {"1->2", "1->3", "2->3"}
    # each campaign: its question (none stated here), its first answer, its counts, its pages
    main = shown.split("Start here.", 1)[1]  # the page, not the navigation beside it
    section = main.split("one-direction", 1)[1].split("parse-failure", 1)[0]
    assert "Answer." in section and "runs from 3 files" in section
    failure = main.split("parse-failure", 1)[1]
    assert "1 run from 1 file (1 not imported" in failure
    assert "SYNTHETIC" not in shown  # no shape is synthetic


def test_strict_fails_on_data_quality_and_reruns_are_identical(first, raw, tmp_path):
    _, _, out, data = first
    shapes = ("one-direction", "parse-failure")
    code, text = _report(
        *(str(raw[s]) for s in shapes),
        "-o",
        str(tmp_path),
        "--data",
        str(data),
        "--notebooks",
        "90",
        "--strict",
        "--formats",
        "svg,pdf",
        "--jobs",
        "1",  # two pages: one kernel starts, not two (the first report runs two)
    )
    assert code == 3, text
    assert "parse-failure: 1 file not imported (parse_error 1)" in _text(text)
    # its three pings share a target that its rules put in zones 2 and 3 (zone_conflict)
    assert "one-direction: 3 runs flagged (loss, zone_conflict)" in _text(text)
    # PDF only on request (the first report took the default, PNG and SVG)
    assert not list((out / "figures").rglob("*.pdf"))
    for s in shapes:
        suffixes = {f.suffix for f in (tmp_path / "figures" / s).iterdir()}
        assert suffixes == {".png", ".svg", ".pdf"}, suffixes
    # same inputs, same figures (SVG, PNG bytes) and numbers
    for s in shapes:
        again = sorted(f for f in (tmp_path / "figures" / s).iterdir() if f.suffix != ".pdf")
        assert again and [f.read_bytes() for f in again] == [
            (out / "figures" / s / f.name).read_bytes() for f in again
        ]
        nb = f"{s}/90-campaign-report.ipynb"
        assert read_claims(_build(tmp_path) / "notebooks" / nb) == read_claims(
            _build(out) / "notebooks" / nb
        )


def test_a_failing_notebook_is_named_with_its_cell_and_error(first, raw, tmp_path):
    _, _, _, data = first
    code, text = _report(
        str(raw["no-yaml"]),
        "-o",
        str(tmp_path),
        "--data",
        str(data),
        "--notebooks",
        "10",
        "-p",
        "level=1.5",
    )
    flat = _text(text)
    assert code == 1, text
    assert re.search(
        r"FAILED notebook 10-latency-distributions\.ipynb failed in cell id "
        r"'[\w-]+': ValueError: level must be between 0 and 1",
        flat,
    ), flat
    failed = _build(tmp_path) / "failed" / "no-yaml" / "10-latency-distributions.ipynb"
    assert failed.is_file()  # in the build folder, not published
    assert "This notebook failed" in _text(_html(tmp_path, "no-yaml/10-latency-distributions"))


def test_a_second_report_reuses_unchanged_pages_and_reruns_changed_ones(first, raw, tmp_path):
    _, _, _, data = first
    shapes = ("one-direction", "markdown-note")  # the shapes with a zone matrix
    args = [*(str(raw[s]) for s in shapes), "-o", str(tmp_path), "--data", str(data)]
    args += ["--notebooks", "20", "--jobs", "1"]  # two small pages: one kernel starts, not two
    code, text = _report(*args)
    assert code == 0 and "unchanged" not in text, text
    matrices = sorted((_build(tmp_path) / "notebooks").glob("*/20-zone-pair-matrix.ipynb"))
    figures = sorted((tmp_path / "figures").glob("*/20-*"))
    before = {f: f.read_bytes() for f in [*matrices, *figures]}
    assert len(matrices) == 2 and figures
    code, text = _report(*args)
    assert code == 0 and "2 run (2 unchanged, from the cache)" in _text(text), text
    assert "cached (ran in" in _text(text)
    assert {f: f.read_bytes() for f in before} == before  # notebooks and figures, byte for byte
    # another parameter is another page: both run again, and a number moves with it
    code, text = _report(*args, "--level", "0.5")
    assert code == 0 and "unchanged" not in text, text
    for nb in matrices:
        assert read_claims(nb)["level"] == 0.5, nb


def test_unknown_parameter_is_refused_before_any_work(raw, tmp_path):
    code, text = _report(str(raw["no-yaml"]), "-o", str(tmp_path), "-p", "windw=2min")
    assert code == 2 and "-p windw" in text and "window" in text
    assert not (_build(tmp_path) / "notebooks").exists()


@pytest.fixture(scope="module")
def served_shapes(first):
    """The shapes' report folder over HTTP on 127.0.0.1."""
    yield from test_site.serve(first[2])


@needs_browser
def test_every_page_and_image_loads_in_a_browser(first, served_shapes, browser):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    browser.get(f"{served_shapes}/index.html")  # the landing page redirects to the site's
    found = WebDriverWait(browser, 30).until(
        lambda b: b.find_elements(By.CSS_SELECTOR, "a.reference.internal")
    )
    # No implicit wait below: each page is static and loaded when get() returns, and a wait
    # made every page without a figure cost its full length in find_elements (92 s here).
    browser.implicitly_wait(0)
    assert browser.title.startswith("azlatency reports")
    links = dict.fromkeys(a.get_attribute("href").split("#")[0] for a in found)
    pages = {
        p.relative_to(_build(first[2]) / "notebooks").with_suffix(".html").as_posix()
        for p in (_build(first[2]) / "notebooks").rglob("*")
        if p.suffix in (".ipynb", ".md")
    }
    assert {link.split("/site/", 1)[-1] for link in links} >= pages
    figures = 0
    for link in links:
        browser.get(link)
        page = link.split("/site/", 1)[-1]
        facts = test_site.page_facts(browser)
        assert facts["heading"], f"{page} has no title"
        body = facts["body"]
        assert body is not None, f"{page} has no main article"
        assert "Traceback" not in body and "Error" not in body.split("\n")[0], page
        figures += facts["images"]
        assert not facts["broken"], f"{page}: broken images {facts['broken']}"
    assert figures >= 10
