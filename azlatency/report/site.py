"""Build the browsable HTML report site from executed notebooks.

Sphinx with myst-nb renders the executed notebooks (no re-execution) offline, from a copy
edited for readers (``_for_readers``): a page in a campaign's folder carries the campaign in
its title, so the navigation tells the five "90 · Campaign report" pages apart.
``reports/index.html`` is the page a reader opens first.
"""

from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path

_CONF = """
project = "azlatency reports"
author = "azlatency"
extensions = ["myst_nb"]
nb_execution_mode = "off"
exclude_patterns = ["_build"]
html_theme = "furo"
html_title = "azlatency reports"
html_static_path = ["_static"]
html_css_files = ["azlatency.css"]
myst_enable_extensions = ["dollarmath"]
# as written: docutils' smart quotes made the flag '--full-log' read '–full-log' (an en dash)
smartquotes = False
suppress_warnings = ["mystnb.unknown_mime_type"]


import functools

import furo
from sphinx.search.en import SearchEnglish


class English(SearchEnglish):
    # The search index stems every word of every page, and the pages say the same few
    # thousand words again and again: each word is stemmed once (a sixth of the site's time).
    def __init__(self, options):
        super().__init__(options)
        self.stem = functools.lru_cache(maxsize=None)(self.stem)


def setup(app):
    app.add_search_language(English)
    # Furo asks every page for the whole navigation, and Sphinx resolves the table of
    # contents again for each (a quarter of the site's time). Within one folder the pages'
    # navigations differ only in which entry is the current page: each folder's is resolved
    # once and the current entry moved; anything else is left to Sphinx.  Furo then parses
    # each page's navigation to add its own marks (another sixth): that too is done once a
    # folder (``furo_tree``), the current entry marked as furo marks it.
    resolved = {}
    current = '<li class="toctree-l1 current"><a class="current reference internal" href="#">'
    other = '<li class="toctree-l1"><a class="reference internal" href="{}">'
    marked = current.replace(' current">', ' current current-page">', 1)
    furo_tree = getattr(furo.get_navigation_tree, "furo", furo.get_navigation_tree)
    done = {}

    def navigation_tree(html):
        return done.pop(html, None) or furo_tree(html)

    navigation_tree.furo = furo_tree  # what the next build in this process wraps
    furo.get_navigation_tree = navigation_tree

    def navigation(app, pagename, templatename, context, doctree):
        toctree = context.get("toctree")
        if toctree is None:
            return
        folder, _, name = pagename.rpartition("/")
        mine = other.format(name + ".html")

        def memo(**kwargs):
            key = (folder, tuple(sorted(kwargs.items())))
            known = resolved.get(key)
            if known is not None and known.count(mine) == 1:
                html = known.replace(mine, current)
                tree = furo_tree(known)  # furo's own cache: once a folder
                entry = tree[tree.find(mine) : tree.find("</li>", tree.find(mine))]
                if tree.count(mine) == 1 and "current-page" not in tree and "<ul" not in entry:
                    done[html] = tree.replace(mine, marked)
                return html
            html = toctree(**kwargs)
            # the current entry, and the folder's section as the current list: nothing else
            if key not in resolved and html.count(current) == 1 and html.count("current") == 3:
                resolved[key] = html.replace(current, mine)
            return html

        context["toctree"] = memo

    app.connect("html-page-context", navigation, priority=400)  # before furo's
"""


# Furo's column is 46em; the figures are drawn for a 900 px column (plots/_legibility.py), so
# the content is that wide plus its padding.  Wide result tables scroll instead of squeezing
# every column into a word per line.
_CSS = """
.content { width: calc(900px + 6em); max-width: 100%; }
div.cell_output { overflow-x: auto; }
div.cell_output table { font-size: 0.8em; border-collapse: collapse; margin: 0.5em 0; }
div.cell_output th, div.cell_output td { padding: 2px 8px; border-bottom: 1px solid #e3e3e3;
  text-align: left; vertical-align: top; }
div.cell_output img { max-width: 100%; height: auto; }
"""


def _markdown(path: Path) -> list[str]:
    """A Markdown page's text, or each Markdown cell's of a notebook."""
    if path.suffix == ".md":
        return [path.read_text(encoding="utf-8")]
    return _markdown_cells(json.loads(path.read_text(encoding="utf-8")))


def _markdown_cells(nb: dict) -> list[str]:
    return [
        "".join(c.get("source", ""))
        for c in nb.get("cells", [])
        if c.get("cell_type") == "markdown"
    ]


def _title(path: Path) -> str:
    """The first ``# `` heading of a notebook's Markdown cells or of a Markdown page."""
    for text in _markdown(path):
        for line in text.splitlines():
            if line.startswith("# "):
                return line[2:].strip()
    return path.stem


def _for_readers(path: Path, campaign: str | None, hidden: dict[str, str]) -> tuple[str, str]:
    """The site's copy of a page, edited for readers, and its first heading (any level: what
    Sphinx takes for its title):

    - a campaign's page gets the campaign after its first ``# `` heading (its title);
    - every code cell is folded (``hide-input``: the reader opens it with a click), so a page
      reads as its question, numbers and figures;
    - the folders of the machine that ran the report (``hidden``: path -> what to show, e.g.
      the data root -> ``[data root]``) are replaced wherever they appear, in code and outputs."""
    heading = re.compile(r"^# (.*?)\s*$", re.M)

    def retitled(text: str) -> str:
        return heading.sub(lambda m: f"# {m[1]} — {campaign}", text, count=1) if campaign else text

    if path.suffix == ".md":
        text = _unpath(retitled(path.read_text(encoding="utf-8")), hidden)
        return text, _first_heading([text])
    nb = json.loads(path.read_text(encoding="utf-8"))
    cells = nb.get("cells", [])
    heading_cell = next(
        (
            c
            for c in cells
            if c.get("cell_type") == "markdown" and heading.search("".join(c["source"]))
        ),
        None,
    )
    if heading_cell is not None:
        heading_cell["source"] = retitled("".join(heading_cell["source"]))
    for c in cells:
        if c.get("cell_type") != "code":
            continue
        tags = c.setdefault("metadata", {}).setdefault("tags", [])
        if not {"remove-cell", "remove-input", "hide-input"} & set(tags):
            tags.append("hide-input")
    # a path inside a JSON string is spelled as JSON escapes it
    text = json.dumps(nb, indent=1, ensure_ascii=False)
    escaped = {json.dumps(k)[1:-1]: json.dumps(v)[1:-1] for k, v in hidden.items()}
    return _unpath(text, escaped) + "\n", _first_heading(_markdown_cells(nb))


def _unpath(text: str, hidden: dict[str, str]) -> str:
    """``text`` with each path of ``hidden`` replaced by what it maps to (longest first, so a
    folder inside another is replaced as itself)."""
    for real, shown in sorted(hidden.items(), key=lambda kv: -len(kv[0])):
        text = text.replace(real, shown)
    return text


def _pages(executed_dir: Path) -> dict[str, Path]:
    """Document name (``folder/stem``) -> page, for every notebook and Markdown page."""
    found = sorted(
        p
        for p in executed_dir.rglob("*")
        if p.suffix in (".ipynb", ".md") and ".ipynb_checkpoints" not in p.parts
    )
    return {p.relative_to(executed_dir).with_suffix("").as_posix(): p for p in found}


def _toctrees(docs: list[str]) -> str:
    """The navigation: the pages over all campaigns first, then one section per campaign (its
    folder's pages), in the order of ``docs``."""
    groups: dict[str, list[str]] = {}
    for d in docs:
        groups.setdefault(d.rsplit("/", 1)[0] if "/" in d else "", []).append(d)
    out = []
    for folder, members in sorted(groups.items(), key=lambda kv: kv[0] != ""):
        caption = folder or "All campaigns"
        out.append(
            f"```{{toctree}}\n:hidden:\n:maxdepth: 1\n:caption: {caption}\n\n"
            + "\n".join(members)
            + "\n```\n"
        )
    return "\n".join(out)


def _default_index(docs: list[str], pages: dict[str, Path]) -> str:
    return (
        "# azlatency reports\n\n"
        "Executed notebooks over the bundled example campaigns. Start with the campaign report.\n\n"
        + "\n".join(f"- [{_title(pages[d])}]({d}{pages[d].suffix})" for d in docs)
        + "\n"
    )


def build(
    executed_dir: Path,
    reports_dir: Path,
    *,
    build_dir: Path | None = None,
    index: str | None = None,
    order: list[str] | None = None,
    hidden: dict[str, str] | None = None,
) -> Path:
    """Render the notebooks and Markdown pages under ``executed_dir`` (subfolders too) into
    ``reports_dir/site``; return ``reports/index.html``.  ``index`` is the front page's
    Markdown (default: a list of the pages, the campaign report first); ``order`` the
    document names in the order of the navigation; ``hidden`` maps folders of this machine
    (the data root, the report folder) to what the pages show instead.  The report folder
    itself is always hidden, as ``[report folder]``.

    ``build_dir``: the site's sources, kept there for the next build, which then updates the
    site in place (Sphinx reads and writes only the pages whose source changed) when it has
    the same pages, titles and configuration; else, and without ``build_dir``, the site is
    built afresh."""
    hidden = {str(Path(reports_dir).resolve()): "[report folder]", **(hidden or {})}
    pages = _pages(executed_dir)
    # The 90-campaign-report notebook is what a reader opens first: list it first.
    docs = sorted(pages, key=lambda d: (not Path(d).name.startswith("90-"), d))
    if order is not None:
        docs = [d for d in order if d in pages] + [d for d in docs if d not in order]
    toctrees = _toctrees(docs)
    files = {"conf.py": _CONF, "_static/azlatency.css": _CSS}
    titles = []
    for doc in docs:
        campaign = doc.rsplit("/", 1)[0] if "/" in doc else None  # a campaign's own folder
        name = pages[doc].relative_to(executed_dir).as_posix()
        files[name], title = _for_readers(pages[doc], campaign, hidden)
        titles.append(f"{doc}: {title}")
    index = _unpath(index or _default_index(docs, pages), hidden) + "\n" + toctrees
    files["index.md"] = index
    site = reports_dir / "site"
    keep = build_dir is not None
    build_dir = build_dir or reports_dir / ".site-src"
    # Sphinx rewrites only the pages whose source changed, and every page's navigation lists
    # every page: the site is updated in place only when that list and its titles are the
    # ones it was built with, else built afresh.
    nav = "\n".join([toctrees, *titles, _CONF, _CSS])
    update = keep and _built_with(build_dir, site) == nav
    # myst-nb writes a page's images into <reports>/jupyter_execute, and a page whose images
    # are gone counts as changed: kept in the source folder between builds
    scratch, kept = reports_dir / "jupyter_execute", build_dir / "_build" / "jupyter_execute"
    shutil.rmtree(scratch, ignore_errors=True)
    if not update:
        shutil.rmtree(build_dir, ignore_errors=True)
        shutil.rmtree(site, ignore_errors=True)
    elif kept.is_dir():
        shutil.move(kept, scratch)
    _sync(build_dir, files)
    (build_dir / NAV).unlink(missing_ok=True)  # until this build has succeeded
    _sphinx(build_dir, site, fresh=not update)
    (build_dir / NAV).write_text(nav, encoding="utf-8")
    if keep and scratch.is_dir():
        shutil.move(scratch, kept)
    landing = reports_dir / "index.html"
    landing.write_text(
        '<!doctype html><meta charset="utf-8"><title>azlatency reports</title>'
        '<meta http-equiv="refresh" content="0; url=site/index.html">'
        '<p><a href="site/index.html">azlatency reports</a></p>\n',
        encoding="utf-8",
    )
    if not keep:
        shutil.rmtree(build_dir, ignore_errors=True)
        shutil.rmtree(scratch, ignore_errors=True)
    return landing


# In the source folder: the navigation (pages, titles, configuration) the site was built with.
NAV = ".azlatency-nav"


def _built_with(build_dir: Path, site: Path) -> str | None:
    if not (site / "index.html").is_file():
        return None
    if not (build_dir / "_build" / "doctrees" / "environment.pickle").is_file():
        return None
    try:
        return (build_dir / NAV).read_text(encoding="utf-8")
    except OSError:
        return None


def _sync(build_dir: Path, files: dict[str, str]) -> None:
    """``build_dir`` holding ``files`` (relative path -> text) and nothing else but Sphinx's
    ``_build``: a file whose text is already there is not written again, so its time tells
    Sphinx it has not changed."""
    build_dir.mkdir(parents=True, exist_ok=True)
    for old in build_dir.rglob("*"):
        rel = old.relative_to(build_dir)
        if old.is_file() and rel.parts[0] != "_build" and rel.as_posix() not in files:
            old.unlink()
    for name, text in files.items():
        path = build_dir / name
        try:
            if path.read_text(encoding="utf-8") == text:
                continue
        except (OSError, UnicodeDecodeError):
            path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def _first_heading(cells: list[str]) -> str:
    for cell in cells:
        for line in cell.splitlines():
            if re.match(r"#{1,6} ", line):
                return line
    return ""


def _sphinx(src: Path, out: Path, *, fresh: bool = True) -> None:
    from sphinx.application import Sphinx

    doctrees = src / "_build" / "doctrees"
    app = Sphinx(
        str(src),
        str(src),
        str(out),
        str(doctrees),
        "html",
        status=None,
        warning=None,
        freshenv=fresh,
        keep_going=True,
        # two processes read and write the pages (myst-nb and furo are parallel-safe): the
        # same files, 0.8 of 4.2 s for the bundled campaigns' 58 pages on 2 cores
        parallel=min(2, os.cpu_count() or 1),
    )
    app.build()
    if app.statuscode:
        raise RuntimeError(f"sphinx failed with status {app.statuscode}")
