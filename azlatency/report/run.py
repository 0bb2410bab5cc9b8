"""``azlatency report CAMPAIGN...``: import what is stale, run the notebooks that apply, render
the site, say what happened.

Layout of the output folder (default ``reports/``), which is what one publishes: nothing in
it holds a path of the machine that built it::

    index.html                    redirects to site/index.html (the front page)
    site/                         the HTML site (Sphinx + myst-nb, offline)
    claims/**/NN-*.json           every claim a page made, as data (diff two reports with it)
    figures/, figures/<campaign>/ PDF, SVG, PNG of every figure

and of the build folder beside it (``paths.build_dir``: ``build/report`` of a checkout for its
``reports/``, else ``.<out>.build`` next to the output folder), which is not published::

    notebooks/NN-*.ipynb          the import overview over every campaign
    notebooks/<campaign>/NN-*     a campaign's own pages, executed (outputs and paths)
    notebooks/**/NN-*.md          pages of notebooks not run (what the data lacks) or failed
    failed/**/NN-*.ipynb          executed copies of failed notebooks, traceback included
    .cache/<key>/                 pages as they ran, reused while their inputs are unchanged
                                  (``report.cache``; ``--no-cache`` runs every page again)

Exit status: 0; 1 when an import or a notebook failed; 3 with ``strict`` when the data has
quality problems (files not imported other than those campaign.yaml ignores, runs flagged).
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import time
from collections.abc import Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from .. import paths
from .._console import console as _console
from .._console import counted
from ..campaign.importer import import_many
from ..campaign.load import load, read_manifest, store_path
from ..errors import AzlatencyError
from . import cache as page_cache
from . import execute as notebooks
from . import frontpage, site
from ._needs import SAMPLE_COLUMNS, missing, need
from ._show import read_claims
from .site import _title

STATUS_OK, STATUS_DATA, STATUS_FAILED = 0, 3, 1
# Figure files written unless --formats says otherwise (PDF on request: it is the slowest).
FIGURE_FORMATS = ("png", "svg")
ALL_FORMATS = ("png", "svg", "pdf")
FORMATS_ENV = "AZLATENCY_FIGURE_FORMATS"
_RESERVED = {"campaigns", "data_root", "reports_dir", "figures_dir"}


@dataclass
class Page:
    """One page of the site: a notebook over some campaigns, run, skipped or failed."""

    stem: str
    campaigns: list[str]
    folder: str = ""  # the campaign's folder for per-campaign pages, "" for shared ones
    status: str = "pending"  # pending -> run / skipped / failed
    reason: str = ""
    seconds: float = 0.0
    cached: bool = False  # restored from the report's cache, not run again (seconds: its run)
    left_out: dict[str, str] = field(default_factory=dict)  # campaign -> what it lacks

    @property
    def doc(self) -> str:
        return f"{self.folder}/{self.stem}" if self.folder else self.stem


@dataclass
class Outcome:
    campaigns: list[str]
    pages: list[Page]
    problems: list[str]  # data-quality problems (fail with --strict)
    errors: list[str]  # imports or notebooks that failed
    figures: int = 0
    index: Path | None = None
    build: Path | None = None  # executed notebooks, failed ones, the page cache

    def status(self, strict: bool = False) -> int:
        if self.errors:
            return STATUS_FAILED
        return STATUS_DATA if strict and self.problems else STATUS_OK


def slug(name: str) -> str:
    """A campaign name as a folder and URL part."""
    return re.sub(r"[^A-Za-z0-9._-]+", "-", name).strip("-") or "campaign"


def parse_params(items: Sequence[str]) -> dict[str, object]:
    """``["min_hours=0.25", "tool=sockperf"]`` -> values read as YAML scalars or lists (so
    ``0.25`` is a float, ``[a, b]`` a list, ``none`` None)."""

    out: dict[str, object] = {}
    for item in items:
        name, sep, value = item.partition("=")
        if not sep or not name.strip().isidentifier():
            raise AzlatencyError(f"-p expects NAME=VALUE, got {item!r}")
        out[name.strip()] = yaml.safe_load(value) if value.strip() else None
    return out


def _select(only: Sequence[str] | None) -> list[Path]:
    every = notebooks.notebooks()
    if not only:
        return every
    known = {p.stem[:2]: p for p in every}
    wrong = [n for n in only if n[:2] not in known]
    if wrong:
        raise AzlatencyError(
            f"--notebooks {','.join(wrong)}: no such notebook; known: {', '.join(sorted(known))}"
        )
    return [known[n[:2]] for n in dict.fromkeys(only)]


def _check_params(params: dict, declared: dict[str, set[str]]) -> None:
    taken = set().union(*declared.values())
    bad = sorted(set(params) - taken)
    if bad or _RESERVED & set(params):
        raise AzlatencyError(
            f"-p {', '.join(bad or sorted(_RESERVED & set(params)))}: campaigns are the "
            "arguments and paths come from -o/--data; the notebooks take "
            + ", ".join(sorted(taken - _RESERVED))
        )


@contextlib.contextmanager
def _kernel_env(name: str, value: str) -> Iterator[None]:
    """Set ``name`` for the kernels started inside (they inherit the environment), then put
    back what was there."""
    old = os.environ.get(name)
    os.environ[name] = value
    try:
        yield
    finally:
        if old is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = old


# The thread pools of numpy's BLAS (OpenBLAS, MKL) and OpenMP: one thread per core each by
# default, and OpenBLAS's threads spin while they wait.  Two kernels at a time on two cores
# each started two spinning threads: a matrix product of a tail or dependence estimate that
# takes 0.08 s alone took 30 s (tests/stats/test_dependence.py beside a busy kernel).
BLAS_THREADS = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")


@contextlib.contextmanager
def _deterministic_kernels(workers: int = 1) -> Iterator[None]:
    """Kernels inherit this environment: a fixed hash seed keeps set and dict-of-set orders
    (and so table rows and legends) the same from one run to the next; with ``workers``
    kernels at a time, each one's BLAS gets its share of the cores (unless the user set it)."""
    threads = str(max(1, (os.cpu_count() or 1) // max(1, workers)))
    with contextlib.ExitStack() as stack:
        stack.enter_context(_kernel_env("PYTHONHASHSEED", "0"))
        for name in BLAS_THREADS:
            if name not in os.environ:
                stack.enter_context(_kernel_env(name, threads))
        yield


@contextlib.contextmanager
def _kernel_environment(workers: int, formats: Sequence[str]) -> Iterator[None]:
    """What the report's kernels inherit when they start: the figure formats asked for and
    :func:`_deterministic_kernels`."""
    with _kernel_env(FORMATS_ENV, ",".join(formats)), _deterministic_kernels(workers):
        yield


def _clean(out: Path, build: Path) -> None:
    """Remove what an earlier report wrote (only the folders this command owns; the page
    cache stays, and the site, which ``site.build`` updates or builds afresh)."""
    for sub in ("figures", "claims", "notebooks", "failed", ".cache"):
        shutil.rmtree(out / sub, ignore_errors=True)  # the last three: an older layout's
    for sub in ("notebooks", "failed"):
        shutil.rmtree(build / sub, ignore_errors=True)


def import_all(
    campaigns: Sequence[str], data_root: Path, outcome_errors: list[str], *, progress=None
) -> list:
    """Import each campaign (incremental: an unchanged one is only hashed; first imports side
    by side, ``campaign.importer.import_many``) into ``data_root/processed``; a name that is
    not a path is looked for under ``data_root/raw`` first.  The reports of those that
    imported."""

    sources = []
    for c in campaigns:
        mine = paths.raw_dir(data_root) / str(c)
        sources.append(mine if not Path(c).expanduser().exists() and mine.exists() else c)
    done = import_many(sources, root=paths.processed_dir(data_root), progress=progress)
    reports = []
    for c, got in zip(campaigns, done, strict=True):
        if isinstance(got, AzlatencyError):
            outcome_errors.append(f"import of {c} failed: {got}")
        else:
            reports.append(got)
    return reports


def quality_problems(reports: Sequence) -> list[str]:
    """What ``--strict`` fails on, one line per campaign and kind."""
    out = []
    for r in reports:
        skipped = r.not_imported[r.not_imported["reason"] != "ignored"]
        if len(skipped):
            why = ", ".join(f"{k} {v}" for k, v in skipped["reason"].value_counts().items())
            out.append(f"{r.campaign}: {counted(len(skipped), 'file')} not imported ({why})")
        if len(r.quality):
            issues = ", ".join(sorted(set(r.quality["issue"].astype(str))))
            runs = r.quality["run_id"].dropna().nunique()
            out.append(f"{r.campaign}: {counted(runs, 'run')} flagged ({issues})")
    return out


def plan(names: Sequence[str], chosen: Sequence[Path], data_root: Path, params: dict) -> list[Page]:
    """Which notebook runs on which campaigns; the others become pages saying why not."""

    root = paths.processed_dir(data_root)
    tables = {n: load(n, root, columns=SAMPLE_COLUMNS) for n in names}
    pages = []
    for nb in chosen:
        lacks = {n: missing(nb.stem, tables[n], {**params, "data_root": data_root}) for n in names}
        if need(nb.stem).per_campaign:
            for n in names:
                p = Page(nb.stem, [n], folder=slug(n))
                if lacks[n]:
                    p.status, p.reason = "skipped", lacks[n]
                pages.append(p)
            continue
        ok = [n for n in names if lacks[n] is None]
        p = Page(nb.stem, ok, left_out={n: r for n, r in lacks.items() if r})
        if not ok:
            p.status, p.campaigns = "skipped", list(names)
            p.reason = f"needs {need(nb.stem).what}; none of these campaigns has it."
            p.left_out = {}
        pages.append(p)
    return pages


def _params_for(
    page: Page, out: Path, data_root: Path, user: dict, declared: set[str]
) -> dict[str, object]:
    figures = out / "figures" / page.folder if page.folder else out / "figures"
    every = {
        **user,
        "campaigns": page.campaigns,
        "data_root": str(data_root),
        "reports_dir": str(out),
        "figures_dir": str(figures),
    }
    return {k: v for k, v in every.items() if k in declared}


def _longest_first(pages: list[Page], data_root: Path) -> list[Page]:
    """The pages in the order to start them: the most samples to read first (a page's time
    grows with them), so that the last page to finish is a short one."""

    samples: dict[str, int] = {}
    for c in {c for p in pages for c in p.campaigns}:
        manifest = read_manifest(store_path(c, paths.processed_dir(data_root))) or {}
        samples[c] = int(manifest.get("report", {}).get("counts", {}).get("samples", 0) or 0)
    # The biggest campaign's pages first; the two kernels take different campaigns where
    # they can (one campaign's statistics are computed once, then read: report._memo), and
    # within a campaign its report page leads, which asks for most of them.
    by_size = sorted(
        pages, key=lambda p: (-sum(samples[c] for c in p.campaigns), p.stem[:2] != "90")
    )
    groups: dict[tuple, list[Page]] = {}
    for p in by_size:
        groups.setdefault(tuple(p.campaigns), []).append(p)
    queues = list(groups.values())
    out: list[Page] = []
    while any(queues):
        for q in queues:
            if q:
                out.append(q.pop(0))
    return out


def execute_pages(
    pages: Sequence[Page],
    sources: dict[str, Path],
    out: Path,
    build: Path,
    data_root: Path,
    user: dict,
    declared: dict[str, set[str]],
    *,
    workers: int = 2,
    progress=None,
    cache: page_cache.Cache | None = None,
    formats: Sequence[str] = FIGURE_FORMATS,
    refresh: bool = False,
    kernels: notebooks.Kernels | None = None,
) -> list[str]:
    """Run every pending page (``workers`` kernels at a time); the errors of those that failed,
    each naming the notebook, the campaigns, the cell and the error.  With ``cache``, a page
    whose key is there is restored instead (unless ``refresh``) and a page that ran is kept.
    ``kernels``: the caller's (some maybe started ahead, in :func:`_kernel_environment`),
    else new ones here; those started here inherit :func:`_deterministic_kernels`."""
    todo = _longest_first([p for p in pages if p.status == "pending"], data_root)
    if cache is not None:
        page_cache.code_fingerprint()  # once, before the threads

    def one(page: Page) -> str | None:
        where = build / "notebooks" / page.folder
        executed = where / f"{page.stem}.ipynb"
        params = _params_for(page, out, data_root, user, declared[page.stem])
        start = time.perf_counter()
        key = None
        if cache is not None:
            key = page_cache.key(sources[page.stem], params, page.campaigns, data_root, formats)
            took = None if refresh else cache.restore(key, executed)
            if took is not None:
                page.status, page.cached, page.seconds = "run", True, took
                if progress is not None:
                    progress(page)
                return None
        try:
            notebooks.execute(sources[page.stem], where, params, kernels=kernels)
            page.status = "run"
            if key is not None:  # a cache was given
                cache.keep(key, executed, time.perf_counter() - start)
            return None
        except AzlatencyError as exc:
            page.status, page.reason = "failed", str(exc)
            dest = build / "failed" / page.folder
            dest.mkdir(parents=True, exist_ok=True)
            shutil.move(where / f"{page.stem}.ipynb", dest / f"{page.stem}.ipynb")
            return f"{exc} (campaigns: {', '.join(page.campaigns)})"
        finally:
            page.seconds = time.perf_counter() - start
            if progress is not None:
                progress(page)

    with contextlib.ExitStack() as stack:
        stack.enter_context(_deterministic_kernels(workers))
        if kernels is None:
            kernels = stack.enter_context(notebooks.Kernels())
        pool = stack.enter_context(ThreadPoolExecutor(max_workers=max(1, workers)))
        return [e for e in pool.map(one, todo) if e]


def write_pages(pages: Sequence[Page], sources: dict[str, Path], build: Path) -> None:
    """Markdown pages for notebooks not run or failed; a note at the top of a shared page
    naming the campaigns it left out and what they lack."""
    for p in pages:
        folder = build / "notebooks" / p.folder
        folder.mkdir(parents=True, exist_ok=True)
        title = _title(sources[p.stem])
        on = ", ".join(f"`{c}`" for c in p.campaigns)
        if p.status == "skipped":
            body = (
                f"**Not run for {on}.** This page {p.reason}\n\n"
                "Nothing is drawn rather than an empty chart; the other pages show what "
                "the data does answer.\n"
            )
        elif p.status == "failed":
            body = (
                f"**This notebook failed on {on}:** {p.reason}\n\nThe executed copy, "
                f"traceback included, is `failed/{p.doc}.ipynb` in the report folder.\n"
            )
        else:
            if p.left_out:
                _note(folder / f"{p.stem}.ipynb", p.left_out)
            continue
        (folder / f"{p.stem}.md").write_text(f"# {title}\n\n{body}", encoding="utf-8")


def write_claims(pages: Sequence[Page], out: Path, build: Path) -> list[Path]:
    """``<out>/claims/[<campaign>/]<page>.json``: every claim a page made (``rep.claims``:
    its key numbers, and a campaign page's answer as a claims table), so CI can diff what a
    report says between two runs of it."""

    written = []
    shutil.rmtree(out / "claims", ignore_errors=True)
    for p in pages:
        executed = build / "notebooks" / p.folder / f"{p.stem}.ipynb"
        if p.status != "run" or not executed.is_file():
            continue
        target = out / "claims" / p.folder / f"{p.stem}.json"
        target.parent.mkdir(parents=True, exist_ok=True)
        text = json.dumps(read_claims(executed), indent=1, sort_keys=True, ensure_ascii=False)
        target.write_text(text + "\n", encoding="utf-8")
        written.append(target)
    return written


def _note(executed: Path, left_out: dict[str, str]) -> None:
    nb = json.loads(executed.read_text(encoding="utf-8"))
    lines = [f"- `{c}`: {why}" for c, why in sorted(left_out.items())]
    cell = {
        "cell_type": "markdown",
        "id": "left-out",
        "metadata": {},
        "source": "**Campaigns left out of this page:**\n\n" + "\n".join(lines),
    }
    nb["cells"].insert(1, cell)
    executed.write_text(json.dumps(nb, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


# Over 60 lines on purpose: the report's one sequence (import while kernels start, plan,
# execute, write, render), each step a call, read top to bottom; cut in two, the halves
# would pass a dozen values (kernels, cache, bar, paths, parameters) between them.
def run_report(
    campaigns: Sequence[str],
    out: str | os.PathLike[str] | None = None,
    *,
    data_root: str | os.PathLike[str] | None = None,
    level: float | None = None,
    params: dict | None = None,
    only: Sequence[str] | None = None,
    workers: int = 2,
    console=None,
    formats: Sequence[str] = FIGURE_FORMATS,
    cache: bool = True,
) -> Outcome:
    """Import, plan, execute, render (see the module's docstring); print progress and return
    what happened (:meth:`Outcome.status` is the exit status).

    ``cache``: reuse the pages of an earlier report into ``out`` whose inputs are unchanged
    (``report.cache``); ``False`` runs every page again and refreshes the cache.

    ``formats`` are the figure files each notebook writes to ``<out>/figures`` (any of
    png, svg, pdf; the pages show the PNG rendering either way): passed to the kernels as
    ``AZLATENCY_FIGURE_FORMATS``, read by ``report.figure``."""
    console = console or _console()
    formats = _formats(formats)
    root = paths.data_root(data_root)
    out = paths.reports_dir(out)
    user = {**(params or {}), **({"level": level} if level is not None else {})}
    chosen = _select(only)
    sources = {p.stem: p for p in chosen}
    declared = {p.stem: set(notebooks.parameters_of(p)) for p in chosen}
    _check_params(user, declared)
    errors: list[str] = []
    bar = _progress(console)
    build = paths.build_dir(out)
    kept = page_cache.Cache(out, build)
    with bar:
        with notebooks.Kernels() as kernels:
            ahead = not cache or kept.empty()
            if ahead:
                # every page will run: the kernels start (and import) while the campaigns do;
                # no more than there may be pages (one notebook on one campaign: one kernel)
                with _kernel_environment(workers, formats):
                    kernels.start(max(1, min(workers, len(chosen) * len(campaigns))))
            task = bar.add_task("importing", total=len(campaigns))
            reports = import_all(campaigns, root, errors, progress=lambda: bar.advance(task))
            changed = sum(r.changed for r in reports)
            if not ahead and changed:
                # a campaign's store changed, so its pages will run: their kernels start
                # while the pages are planned and the others restored
                with _kernel_environment(workers, formats):
                    kernels.start(max(1, min(workers, len(chosen) * changed)))
            names = list(dict.fromkeys(r.campaign for r in reports))
            outcome = Outcome(names, [], quality_problems(reports), errors)
            if not names:
                return outcome
            bar.update(task, description="checking what each notebook needs")
            outcome.pages = plan(names, chosen, root, user)
            outcome.build = build
            _clean(out, build)
            pending = sum(p.status == "pending" for p in outcome.pages)
            bar.update(task, description="notebooks", completed=0, total=pending)
            with _kernel_env(FORMATS_ENV, ",".join(formats)):  # execute_pages adds the rest
                errors += execute_pages(
                    outcome.pages,
                    sources,
                    out,
                    build,
                    root,
                    user,
                    declared,
                    workers=workers,
                    progress=lambda _p: bar.advance(task),
                    cache=kept,
                    formats=formats,
                    refresh=not cache,
                    kernels=kernels,
                )
        kept.prune()
        write_pages(outcome.pages, sources, build)
        write_claims(outcome.pages, out, build)
        bar.update(task, description="rendering the site", completed=0, total=1)
        outcome.index = _render_site(outcome, sources, root, out, build)
    outcome.figures = len({p.with_suffix("") for p in (out / "figures").rglob("*.png")})
    return outcome


def _progress(console):
    """The transient progress bar of ``run_report``."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

    return Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        console=console,
        transient=True,
    )


def _render_site(
    outcome: Outcome, sources: dict[str, Path], root: Path, out: Path, build: Path
) -> Path:
    """The front page and the site of the executed pages; returns the site's index."""
    titles = {stem: _title(src) for stem, src in sources.items()}
    index = frontpage.markdown(outcome.campaigns, outcome.pages, build / "notebooks", titles)
    return site.build(
        build / "notebooks",
        out,
        build_dir=build / "site-src",
        index=index,
        order=[p.doc for p in outcome.pages],
        hidden={str(root): "[data root]", str(build.resolve()): "[build folder]"},
    )


def _formats(formats: Sequence[str]) -> tuple[str, ...]:
    bad = sorted(set(formats) - set(ALL_FORMATS))
    if bad or not formats:
        raise AzlatencyError(
            f"figure formats must be some of {', '.join(ALL_FORMATS)}, got {', '.join(formats)}"
        )
    # PNG is always written: the site and the front page link it
    return tuple(dict.fromkeys(["png", *formats]))


def print_summary(outcome: Outcome, out: Path, console, *, strict: bool = False) -> None:
    """The table of pages (run / skipped with the reason / failed), figures, where to open."""
    from rich.table import Table

    t = Table(title="azlatency report", title_justify="left")
    for col in ("page", "campaigns", "status", "seconds / why"):
        t.add_column(col, overflow="fold")
    colour = {"run": "green", "skipped": "yellow", "failed": "red"}
    for p in outcome.pages:
        why = p.reason
        if p.status == "run":
            why = f"cached (ran in {p.seconds:.1f})" if p.cached else f"{p.seconds:.1f}"
        if p.status == "run" and p.left_out:
            why += f"; left out {', '.join(sorted(p.left_out))}"
        t.add_row(
            p.doc, ", ".join(p.campaigns), f"[{colour.get(p.status, 'white')}]{p.status}[/]", why
        )
    console.print(t)
    n = {s: sum(p.status == s for p in outcome.pages) for s in ("run", "skipped", "failed")}
    cached = sum(p.cached for p in outcome.pages)
    console.print(
        f"{n['run']} run"
        + (f" ({cached} unchanged, from the cache)" if cached else "")
        + f", {n['skipped']} skipped, {n['failed']} failed; "
        f"{counted(outcome.figures, 'figure')} in {out / 'figures'}",
        highlight=False,
    )
    for problem in outcome.problems:
        console.print(
            f"[yellow]data quality[/yellow] {problem}"
            + (" (fails with --strict)" if strict else ""),
            highlight=False,
        )
    for error in outcome.errors:
        console.print(f"[red]FAILED[/red] {error}", highlight=False)
    if outcome.index is not None:
        console.print(f"open {outcome.index}", highlight=False)
