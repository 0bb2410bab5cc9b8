"""The rendered site, opened in a real headless browser (Debian's chromium + chromedriver):
the index loads, every report it links to resolves, and every figure of every report is a
real image (``naturalWidth > 0``).  A screenshot is kept out of git for a person to look at
(``reports/site-screenshot.png``); the test asserts, the screenshot does not."""

from __future__ import annotations

import functools
import http.server
import json
import os
import re
import shutil
import threading
from pathlib import Path

import pytest

from azlatency.report import execute as notebooks
from azlatency.report import site
from tests.conftest import ROOT

pytestmark = pytest.mark.xdist_group("claims")  # the notebook runs of test_claims.py

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMEDRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"
HAVE_BROWSER = Path(CHROMIUM).exists() and Path(CHROMEDRIVER).exists()
# .ci/run sets it once it has installed chromium: a missing browser then fails the browser
# tests instead of skipping them, so CI cannot pass them by skipping.
BROWSER_REQUIRED = os.environ.get("AZLATENCY_BROWSER") == "required"
needs_browser = pytest.mark.skipif(
    not (HAVE_BROWSER or BROWSER_REQUIRED),
    reason="chromium and chromedriver are not installed (apt-get install chromium chromium-driver)",
)
FLAGS = (
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--window-size=1280,1600",
)


@pytest.fixture(scope="module")
def built(executed, tmp_path_factory) -> Path:
    """The site of the default-parameter runs; returns the reports folder."""
    reports = tmp_path_factory.mktemp("site")
    index = site.build(next(iter(executed.values())).parent, reports)
    assert index == reports / "index.html"
    return reports


def serve(folder):
    """``folder`` over HTTP on 127.0.0.1 (a free port): yields the base URL, then stops."""
    handler = functools.partial(_Quiet, directory=str(folder))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    thread.join()


@pytest.fixture(scope="module")
def served(built):
    """The reports folder over HTTP, as the base URL."""
    yield from serve(built)


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):  # keep the test output clean
        pass


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    if not HAVE_BROWSER:
        pytest.fail(f"AZLATENCY_BROWSER=required, but {CHROMIUM} or {CHROMEDRIVER} is missing")
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    opts = webdriver.ChromeOptions()
    opts.binary_location = CHROMIUM
    for flag in (*FLAGS, f"--user-data-dir={tmp_path_factory.mktemp('chromium-profile')}"):
        opts.add_argument(flag)
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=opts)
    driver.set_page_load_timeout(60)
    yield driver
    driver.quit()


def test_site_files(built):
    pages = {p.stem for p in (built / "site").glob("*.html")}
    assert {p.stem for p in notebooks.notebooks()} <= pages
    landing = (built / "index.html").read_text(encoding="utf-8")
    assert "url=site/index.html" in landing
    # The report is listed first on the index page.
    index = (built / "site" / "index.html").read_text(encoding="utf-8")
    first = index.index('href="90-campaign-report.html"')
    assert all(
        first < index.index(f'href="{p.stem}.html"')
        for p in notebooks.notebooks()
        if not p.stem.startswith("90-")
    )
    # Claims cells are left out of the site; executed notebooks keep them.
    assert "azlatency.claims" not in (built / "site" / "90-campaign-report.html").read_text(
        encoding="utf-8"
    )
    # A tool's flag reads as the tool takes it: docutils' smart quotes made page 40's
    # 'iperf 2 --trip-times' read 'iperf 2 –trip-times' (an en dash)
    page = (built / "site" / "40-cross-tool-agreement.html").read_text(encoding="utf-8")
    assert "iperf 2 --trip-times" in page
    flags = [
        m
        for p in (built / "site").glob("*.html")
        for m in re.findall(r" –[a-z]", p.read_text(encoding="utf-8"))
    ]
    assert flags == []


# What a loaded page shows, asked in one round trip to the browser: a WebDriver call per
# element and per image took half of the shapes site's check (8 of 16 s for 62 pages).
_FACTS = """
const main = document.querySelector("article[role=main]");
const h1 = document.querySelector("h1");
const images = main ? [...main.querySelectorAll("img")] : [];
return {
  heading: h1 ? h1.innerText : "",
  body: main ? main.innerText : null,
  images: images.length,
  broken: images.filter((i) => !(i.complete && i.naturalWidth > 0)).map((i) => i.src),
};
"""


def page_facts(browser) -> dict:
    """The page's first heading, its main text (None without one), how many images it has,
    and the ``src`` of each the browser could not load (not complete, or no width)."""
    return browser.execute_script(_FACTS)


@needs_browser
def test_index_links_and_figures_in_a_browser(served, browser):
    from selenium.webdriver.common.by import By

    browser.get(f"{served}/index.html")  # the landing page redirects to the site's index
    browser.implicitly_wait(5)
    assert browser.title.startswith("azlatency reports")
    links = [
        a.get_attribute("href")
        for a in browser.find_elements(By.CSS_SELECTOR, "article[role=main] a.reference.internal")
    ]
    expected = {f"{p.stem}.html" for p in notebooks.notebooks()}
    assert {link.rsplit("/", 1)[-1] for link in links} >= expected
    shots = ROOT / "reports"
    shots.mkdir(exist_ok=True)
    browser.save_screenshot(str(shots / "site-index-screenshot.png"))
    for link in dict.fromkeys(links):
        browser.get(link)
        page = link.rsplit("/", 1)[-1]
        facts = page_facts(browser)
        assert facts["heading"][:2] == page[:2], f"{page} shows {facts['heading']!r}"
        assert facts["images"], f"{page} shows no figure"
        assert not facts["broken"], f"{page}: broken images {facts['broken']}"
        if page.startswith("90-"):
            height = browser.execute_script("return document.body.scrollHeight")
            browser.set_window_size(1280, min(max(height, 1600), 8000))
            browser.save_screenshot(str(shots / "site-screenshot.png"))
            browser.set_window_size(1280, 1600)


def code(source: str, tag: str) -> dict:
    meta = {"tags": [tag]}
    return {
        "cell_type": "code",
        "id": tag,
        "metadata": meta,
        "source": source,
        "outputs": [],
        "execution_count": None,
    }


def test_a_campaigns_pages_carry_the_campaign_in_their_title(tmp_path):
    """Five campaigns each have a "90 · Campaign report": the site's titles name the campaign
    and the navigation has a section per campaign; every code cell is folded; the folders of
    the machine that ran the report are not shown; the executed notebooks themselves are left
    as they are."""
    executed = tmp_path / "notebooks"
    data = tmp_path / "data"
    shared = {
        "cell_type": "markdown",
        "id": "t",
        "metadata": {},
        "source": "# 01 · Shared page\n\ntext",
    }
    report = {
        "cell_type": "markdown",
        "id": "t",
        "metadata": {},
        "source": "intro\n\n# 90 · Campaign report\n",
    }
    for folder, cell in (("", shared), ("camp-a", report), ("camp-b", report)):
        (executed / folder).mkdir(parents=True, exist_ok=True)
        cells = [cell, code('campaigns = ["default"]', "parameters")]
        if folder:
            injected = f'campaigns = ["{folder}"]\ndata_root = "{data}"'
            cells.append(code(injected, "injected-parameters"))
            shown = code("print(data_root)", "shown")
            shown["outputs"] = [{"output_type": "stream", "name": "stdout", "text": f"{data}\n"}]
            cells.append(shown)
        nb = {"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
        name = "01-shared" if not folder else "90-campaign-report"
        (executed / folder / f"{name}.ipynb").write_text(json.dumps(nb), encoding="utf-8")
    (executed / "camp-b" / "20-zone-pair-matrix.md").write_text(
        "# 20 · Zone pairs\n\n**Not run for `camp-b`.**\n", encoding="utf-8"
    )
    before = {p: p.read_bytes() for p in executed.rglob("*") if p.is_file()}
    site.build(executed, tmp_path / "reports", hidden={str(data): "[data root]"})
    out = tmp_path / "reports" / "site"

    def h1(page: str) -> str:
        text = (out / page).read_text(encoding="utf-8")
        return text.split("<h1>", 1)[1].split("<", 1)[0]

    assert h1("01-shared.html") == "01 · Shared page"
    assert h1("camp-a/90-campaign-report.html") == "90 · Campaign report — camp-a"
    assert h1("camp-b/90-campaign-report.html") == "90 · Campaign report — camp-b"
    assert h1("camp-b/20-zone-pair-matrix.html") == "20 · Zone pairs — camp-b"
    index = (out / "index.html").read_text(encoding="utf-8")
    assert "90 · Campaign report — camp-a" in index and "90 · Campaign report — camp-b" in index
    sections = re.findall(r'class="caption-text">([^<]+)<', index)
    assert sections == ["All campaigns", "camp-a", "camp-b"]
    assert {p: p.read_bytes() for p in executed.rglob("*") if p.is_file()} == before
    # Every code cell is folded; the output stays in view; no path of this machine shows.
    page = (out / "camp-a/90-campaign-report.html").read_text(encoding="utf-8")
    assert page.count("<details") == 3
    folded = page.split("<details", 1)[1].split("</details>", 1)[0]
    assert "default" in folded
    assert str(data) not in page and str(tmp_path) not in page
    assert page.count("[data root]") == 2  # the injected parameter and the printed output
    shared_page = (out / "01-shared.html").read_text(encoding="utf-8")
    assert shared_page.count("<details") == 1 and "default" in shared_page


# a 1x1 PNG, as a notebook's image output (myst-nb writes it beside the site and notes it as
# the page's dependency)
_PIXEL = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="


def _page(title: str, said: str) -> dict:
    shown = code("show()", "shown")
    shown["outputs"] = [
        {"output_type": "display_data", "metadata": {}, "data": {"image/png": _PIXEL}},
        {"output_type": "stream", "name": "stdout", "text": f"{said}\n"},
    ]
    heading = {"cell_type": "markdown", "id": "t", "metadata": {}, "source": f"# {title}\n"}
    return {"cells": [heading, shown], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}


def _files(folder: Path) -> dict[str, bytes]:
    return {
        p.relative_to(folder).as_posix(): p.read_bytes() for p in folder.rglob("*") if p.is_file()
    }


def test_a_site_kept_beside_its_source_is_updated_as_a_fresh_build_would_be(tmp_path):
    """With a source folder kept between builds (``build_dir``), Sphinx rewrites only the pages
    whose source changed: a build with nothing changed rewrites no page, one with a page's
    output changed gives the very files of a fresh build, and a changed title (on every page's
    navigation) builds the site afresh."""
    executed, reports, src = tmp_path / "notebooks", tmp_path / "reports", tmp_path / "src"
    pages = {"01-shared": ("01 · Shared", "one"), "camp-a/10-page": ("10 · A page", "ten")}

    def write(pages):
        for name, (title, said) in pages.items():
            (executed / name).parent.mkdir(parents=True, exist_ok=True)
            text = json.dumps(_page(title, said))
            (executed / f"{name}.ipynb").write_text(text, encoding="utf-8")

    def fresh() -> dict[str, bytes]:
        other = tmp_path / f"fresh-{len(list(tmp_path.glob('fresh-*')))}"
        site.build(executed, other)
        return _files(other / "site")

    write(pages)
    site.build(executed, reports, build_dir=src)
    page = reports / "site" / "camp-a" / "10-page.html"
    written = page.stat().st_mtime_ns
    assert not (reports / "jupyter_execute").exists()  # myst-nb's images wait in src
    site.build(executed, reports, build_dir=src)
    assert page.stat().st_mtime_ns == written  # nothing changed, nothing rewritten
    assert _files(reports / "site") == fresh()

    write({**pages, "camp-a/10-page": ("10 · A page", "ten, changed")})
    site.build(executed, reports, build_dir=src)
    assert "ten, changed" in page.read_text(encoding="utf-8")
    assert _files(reports / "site") == fresh()

    write({**pages, "01-shared": ("01 · Renamed", "one")})
    site.build(executed, reports, build_dir=src)
    assert "01 · Renamed" in page.read_text(encoding="utf-8")  # the other page's navigation
    assert _files(reports / "site") == fresh()


def test_each_pages_navigation_is_the_one_sphinx_resolves(tmp_path, monkeypatch):
    """The site's conf resolves each folder's navigation once and moves the current entry,
    has furo mark it once a folder and stems each word of the search index once
    (``site._CONF``'s ``setup``): every file equals a build where Sphinx and furo do it all
    for each page (pages at the top and in two folders, the front page, the index and
    search)."""
    executed = tmp_path / "notebooks"
    for name in ("01-shared", "02-other", "camp-a/10-page", "camp-a/11-page", "camp-b/10-page"):
        (executed / name).parent.mkdir(parents=True, exist_ok=True)
        text = json.dumps(_page(name, name))  # each page titled with its own name
        (executed / f"{name}.ipynb").write_text(text, encoding="utf-8")
    site.build(executed, tmp_path / "moved")
    monkeypatch.setattr(site, "_CONF", site._CONF.split("\ndef setup(app):")[0] + "\n")
    site.build(executed, tmp_path / "resolved")
    moved, resolved = _files(tmp_path / "moved" / "site"), _files(tmp_path / "resolved" / "site")
    assert moved == resolved
    page = moved["camp-a/11-page.html"].decode()
    assert page.count('<li class="toctree-l1 current current-page">') == 1
