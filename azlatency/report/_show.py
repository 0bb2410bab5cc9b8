"""Showing results in a notebook: figures, written summaries, and the claims tests check.

A notebook's **claims** are the key numbers its summary states.  ``claims(...)`` displays
them as one JSON output (MIME type :data:`CLAIMS_MIME`) in a cell tagged ``remove-cell`` (the
site leaves it out, the executed notebook keeps it); :func:`read_claims` gets them back from
an executed notebook, so tests assert on the numbers without parsing prose.
"""

from __future__ import annotations

import inspect
import io
import json
import math
import os
import tempfile
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import PIL.Image

from .. import plots
from .._console import counted  # noqa: F401  (report.counted: the notebooks write counts too)
from ..plots import png_bytes, render
from ..schema import Tables
from ._memo import memo

BOX = PIL.Image.Resampling.BOX

CLAIMS_MIME = "application/vnd.azlatency.claims+json"
_UNITS = {"us": "µs", "bps": "bit/s"}


def _plain(value: Any) -> Any:
    """JSON-ready Python values: numpy scalars unwrapped, NaN/NA as None, keys as str."""
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set)):
        return [_plain(v) for v in value]
    if isinstance(value, (pd.Series, np.ndarray)):
        return [_plain(v) for v in list(value)]
    if value is None or value is pd.NA:
        return None
    if isinstance(value, (np.bool_, bool)):
        return bool(value)
    if isinstance(value, (np.integer,)):
        return int(value)
    if isinstance(value, (float, np.floating)):
        return None if math.isnan(value) else float(value)
    return value


def claims(**values: Any) -> dict[str, Any]:
    """Display the notebook's key numbers as one JSON output and return them."""
    from IPython.display import display

    data = _plain(values)
    display({CLAIMS_MIME: data, "text/plain": json.dumps(data, sort_keys=True)}, raw=True)
    return data


# Said on a page where names of its claims repeat (tests/report/notebooks: never on ours).
REPEATED = "Several rows of this page share one name"


def keyed(pairs: Iterable[tuple[Any, Any]]) -> dict[str, Any]:
    """A claims dict from ``(name, value)`` pairs, every row kept: a name that repeats is
    said on the page and kept apart (``'X'``, ``'X (2)'``).  A dict comprehension keeps the
    last of them without a word: page 22's 36 iperf3 runs, all named '1→1 · iperf3', left
    one in its claims."""
    out: dict[str, Any] = {}
    seen: dict[str, int] = {}
    for name, value in pairs:
        name = str(name)
        seen[name] = seen.get(name, 0) + 1
        key, k = name, seen[name]
        while key in out:  # 'X (2)' may be a name of its own
            key, k = f"{name} ({k})", k + 1
        out[key] = value
    repeated = {k: n for k, n in seen.items() if n > 1}
    if repeated:
        shown = "; ".join(f"*{k}* ({n} rows)" for k, n in list(repeated.items())[:5])
        more = f" and {len(repeated) - 5} more" if len(repeated) > 5 else ""
        say(
            f"**{REPEATED}:** {shown}{more}. Their values are kept as *name*, *name (2)*, …; "
            "a sentence that names one may stand for any of them."
        )
    return out


def read_claims(notebook: str | Path) -> dict[str, Any]:
    """Every claim an executed notebook displayed (later outputs win on equal keys)."""
    nb = json.loads(Path(notebook).read_text(encoding="utf-8"))
    found: dict[str, Any] = {}
    for cell in nb.get("cells", []):
        for out in cell.get("outputs", []) if cell.get("cell_type") == "code" else []:
            data = out.get("data", {})
            if CLAIMS_MIME in data:
                value = data[CLAIMS_MIME]
                found.update(json.loads(value) if isinstance(value, str) else value)
    return found


def say(text: str):
    """Show Markdown (a summary whose numbers the code filled in)."""
    from IPython.display import Markdown, display

    display(Markdown(text))


def nothing_to_show(what: str, why: str) -> None:
    """Say in words that a section has nothing to show for these parameters, and why."""
    say(f"**Nothing to show: {what}.** {why}")


def no_round_trips(tables, name: str) -> str:
    """Why a latency page has nothing to draw: no run of a round-trip basis, and, when the
    campaign has one-way runs, that they are on page 40 (iperf 2's fixtures: the pages said
    'holds no latency run' while page 21 compared their one-way delays)."""
    one_way = tables.runs[tables.runs["latency_basis"] == "one_way"]
    text = f"{name} holds no round-trip latency run (rtt or half rtt)"
    if len(one_way):
        tools = ", ".join(sorted(set(one_way["tool"].astype(str))))
        text += (
            f"; its one-way delays ({tools}: {counted(len(one_way), 'run')}) are on the "
            "cross-tool page (40), beside the evidence of the clocks they rest on"
        )
    return text + "."


def caption(fig) -> str:
    """What a figure shows, from its own text: the title (the figure's, else its first
    panel's) and every axis label, which state unit and basis (``plots._labels``)."""
    title = fig._suptitle.get_text() if getattr(fig, "_suptitle", None) is not None else ""
    panels = [a for a in fig.axes if a.get_visible()]
    if not title:
        title = next((a.get_title() for a in panels if a.get_title()), "")
    labels: list[str] = []
    for a in panels:
        for text in (a.get_xlabel(), a.get_ylabel()):
            text = " ".join(text.split())
            if text and text not in labels:
                labels.append(text)
    parts = [" ".join(title.split()).rstrip(".")] if title else []
    if labels:
        parts.append("Axes: " + "; ".join(labels))
    return ". ".join(parts) + ("." if parts else "")


def figure(
    fig,
    figures_dir: str | Path,
    name: str,
    *,
    caption_text: str | None = None,
    see: str | None = None,
) -> list[Path]:
    """Save ``fig`` as ``<figures_dir>/<name>.png`` (and ``.svg``, ``.pdf``: the formats of
    ``$AZLATENCY_FIGURE_FORMATS``, which ``azlatency report --formats`` sets; default png and
    svg), show it inline with its caption (``caption_text``, else :func:`caption` of the
    figure; ``see``: what the reader should see in it, said first), close it.  The output's
    metadata names the files written, so a report can keep them with the executed page
    (``report.cache``)."""

    saved = render(fig, Path(figures_dir) / name, formats=_formats())
    text = caption_text if caption_text is not None else caption(fig)
    shown = _inline(saved.image, saved.dpi / fig.dpi) if saved.image is not None else fig
    _shown(shown, saved.paths, name, text, see)
    plt.close(fig)
    return saved.paths


def chart(
    tables: Tables, figures_dir: str | Path, name: str, draw, *args, see: str | None = None, **kw
) -> list[Path]:
    """:func:`figure` of ``draw(*args, **kw)`` in the report style, drawn once for a campaign
    store, package code and arguments (``_memo``): page 90 shows the charts of pages 10, 20
    and 22 and drew each of them again (3.3 of page 90's 11 s profiled on
    synthetic-westeurope).  A later page asking for a chart gets the files the first one
    wrote, under its own ``name``; ``tables`` (the campaign as loaded) only key the memo,
    ``draw`` gets what it is given."""
    formats = _formats()
    if "png" not in formats:  # the page shows the figure itself: draw it
        with plots.style("report"):
            return figure(draw(*args, **kw), figures_dir, name, see=see)
    given = inspect.signature(draw).bind(*args, **kw)
    given.apply_defaults()  # one form a call: f(x, b=1) is f(x, 1), and f(x) where b's default is 1
    files, text, k = _drawn(tables, draw, given.args, given.kwargs, formats)
    paths = []
    for fmt, data in files.items():
        path = Path(figures_dir) / f"{name}.{fmt}"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        paths.append(path)
    with PIL.Image.open(io.BytesIO(files["png"])) as image:
        _shown(_inline(image, k), paths, name, text, see)
    return paths


@memo
def _drawn(tables: Tables, draw, args: tuple, kw: dict, formats: tuple[str, ...]):
    """The bytes of each format of ``draw(*args, **kw)`` rendered (the report style), its
    caption, and how many times finer the PNG is than the figure (:func:`chart`)."""
    with plots.style("report"):
        fig = draw(*args, **kw)
        with tempfile.TemporaryDirectory() as folder:
            saved = render(fig, Path(folder) / "chart", formats=formats)
            files = {p.suffix[1:]: p.read_bytes() for p in saved.paths}
    text, k = caption(fig), saved.dpi / fig.dpi
    plt.close(fig)
    return files, text, k


def _formats() -> tuple[str, ...]:
    """The formats of ``$AZLATENCY_FIGURE_FORMATS`` (default png and svg), PNG if none."""
    wanted = os.environ.get("AZLATENCY_FIGURE_FORMATS", "png,svg").split(",")
    return tuple(f for f in ("pdf", "svg", "png") if f in wanted) or ("png",)


def _shown(shown, paths: list[Path], name: str, text: str, see: str | None) -> None:
    """Display a figure (or its pixels) with the files it was written to, then its caption
    (``see`` first)."""
    from IPython.display import display

    if see:  # what to see first, then what is drawn
        text = f"**{see}** {text}"
    display(shown, metadata={"azlatency": {"files": [str(p.resolve()) for p in paths]}})
    if text:
        say(f"*Figure `{name}`.* {text}")


def _inline(image: PIL.Image.Image, k: float):
    """The figure as the page shows it: the PNG's pixels reduced ``k`` times (to the figure's
    dpi, as the inline backend would draw it; each pixel the mean of the ones it covers),
    not drawn a fourth time; written by :func:`plots.png_bytes` (0.3x Pillow's time, fewer
    bytes, the same pixels)."""
    from IPython.display import Image

    whole = round(k)
    small = (
        image.reduce(whole)
        if abs(k - whole) < 1e-9
        else image.resize((max(1, round(image.width / k)), max(1, round(image.height / k))), BOX)
    )
    if small.mode == "RGBA" and small.getextrema()[3] == (255, 255):
        small = small.convert("RGB")  # opaque: a quarter smaller on the page
    return Image(data=png_bytes(small), format="png")


def table(
    df: pd.DataFrame, columns: list[str] | None = None, *, digits: int = 4, max_chars: int = 90
):
    """``df`` for display: ``columns`` only, floats to ``digits`` significant digits, long
    text cut at ``max_chars`` (the frame itself keeps everything), no index."""
    out = (df[[c for c in columns if c in df.columns]] if columns else df).copy()
    for c in out.columns:
        if c.endswith("_ns") and pd.api.types.is_numeric_dtype(out[c]):
            # integer ns since the epoch → a readable UTC time (the frame keeps the integers)
            out[c] = pd.to_datetime(out[c].astype("Int64"), unit="ns", utc=True).dt.strftime(
                "%Y-%m-%d %H:%M:%S UTC"
            )
    floats = [c for c in out.columns if pd.api.types.is_float_dtype(out[c])]
    for c in out.columns:
        if c not in floats and (out[c].dtype == object or pd.api.types.is_string_dtype(out[c])):
            out[c] = out[c].map(lambda v: _cut(v, max_chars))
    return (
        out.reset_index(drop=True)
        .style.hide(axis="index")
        .format(lambda v: f"{v:.{digits}g}", subset=floats, na_rep="")
        .format(na_rep="", subset=[c for c in out.columns if c not in floats])
    )


def _cut(v: Any, max_chars: int) -> Any:
    """Long text cut at the last word boundary before ``max_chars``, never mid-word."""
    if not isinstance(v, str) or len(v) <= max_chars:
        return v
    head = v[: max_chars - 1]
    space = head.rfind(" ")
    return (head[:space] if space > max_chars // 2 else head).rstrip(" ,;:") + " …"


def _scale(v: float, unit: str) -> tuple[float, str]:
    if unit == "bps":
        for scale, prefix in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
            if abs(v) >= scale:
                return scale, f"{prefix}bit/s"
        return 1.0, "bit/s"
    if unit == "us":  # 554 ms, not 5.545e+05 µs (a real ping of 554 ms, issue 37)
        for scale, name in ((1e6, "s"), (1e3, "ms")):
            if abs(v) >= 10 * scale:
                return scale, name
        return 1.0, "µs"
    return 1.0, _UNITS.get(unit, unit)


def fmt(value: Any, unit: str = "us", digits: int = 4) -> str:
    """``fmt(700.618)`` → ``'700.6 µs'``; ``fmt(554000)`` → ``'554 ms'``; ``fmt(7.91e9,
    'bps')`` → ``'7.91 Gbit/s'``."""
    if not _known(value):
        return "n/a"
    scale, text = _scale(float(value), unit)
    return f"{float(value) / scale:.{digits}g} {text}".strip()


def _known(*values: Any) -> bool:
    """Every one of ``values`` is there: not None, not NaN or NA."""
    return all(v is not None and not pd.isna(v) for v in values)


def printed_range(row: Any) -> tuple[float, float] | None:
    """``(low, high)`` of a value known only as a published range (seed 002's "54 to 57
    usec": ``bound_low``, ``bound_high``; its ``estimate`` is the high end), else None."""
    lo, hi = row.get("bound_low"), row.get("bound_high")
    if not _known(lo, hi) or float(lo) == float(hi):
        return None
    return float(lo), float(hi)


def fmt_value(row: Any, unit: str = "us", digits: int = 4) -> str:
    """A row's ``estimate`` as :func:`fmt` gives it, or its published range: ``'54–57 µs'``
    (the high end alone read as a value the author never gave)."""
    bounds = printed_range(row)
    return (
        fmt(row["estimate"], unit, digits) if bounds is None else fmt_range(*bounds, unit, digits)
    )


def fmt_range(lo: float, hi: float, unit: str = "us", digits: int = 4) -> str:
    """``'54–57 µs'``, ``'0–100 µs'``: a range (published, a histogram bin), both ends in the
    unit of the high one."""
    scale, text = _scale(hi, unit)
    return f"{lo / scale:.{digits}g}–{hi / scale:.{digits}g} {text}".strip()


def fmt_bound(row: Any, unit: str = "us", digits: int = 4) -> str:
    """A row with no value but bounds (``bound_low``, ``bound_high``): ``'< 1000 µs'`` (a
    median among Windows ping's ``time<1ms`` replies), ``'> 5 ms'``, ``'1–2 ms'``; ``''``
    where nothing bounds it.  A latency's low bound of 0 is no bound."""
    lo, hi = (
        float(row.get(k)) if pd.notna(row.get(k)) else np.nan for k in ("bound_low", "bound_high")
    )
    lo = lo if lo > 0 else np.nan
    hi = hi if np.isfinite(hi) else np.nan
    if np.isnan(lo) and np.isnan(hi):
        return ""
    if np.isnan(lo):
        return f"< {fmt(hi, unit, digits)}"
    if np.isnan(hi):
        return f"> {fmt(lo, unit, digits)}"
    return fmt_range(lo, hi, unit, digits)


def fmt_cell(row: Any, unit: str = "us", digits: int = 4) -> str:
    """A value as a table cell whose header names the interval: ``'265.5 (258.5–274.4) µs'``;
    ``'773.2 (range 760.1–790.4) µs'`` where too few runs give an interval, ``'700.6 µs'``
    with neither (the table's note says why), a published range or a bound (``'< 1 ms'``)
    where no estimate is known, else ``'n/a'``."""
    est = row["estimate"]
    if not _known(est):
        return fmt_bound(row, unit, digits) or "n/a"
    if printed_range(row) is not None:
        return fmt_value(row, unit, digits)
    lo, hi, what = row.get("ci_low"), row.get("ci_high"), ""
    if not _known(lo, hi):  # too few runs for an interval: the range across them
        lo, hi, what = row.get("range_low"), row.get("range_high"), "range "
    if not _known(lo, hi):
        return fmt(est, unit, digits)
    scale, text = _scale(float(est), unit)
    est, lo, hi = (float(v) / scale for v in (est, lo, hi))
    return f"{est:.{digits}g} ({what}{lo:.{digits}g}–{hi:.{digits}g}) {text}".strip()


def fmt_interval(row: Any, unit: str = "us", digits: int = 4) -> str:
    """``'700.6 µs (95% CI 697.4–703.9)'``, or the value and why it has no interval."""
    est = row["estimate"]
    if not _known(est):
        return "n/a"
    lo, hi = row.get("ci_low"), row.get("ci_high")
    if not _known(lo, hi):
        if printed_range(row) is not None:
            return f"{fmt_value(row, unit, digits)} (a published range, no interval)"
        why = (
            "printed by the tool, no interval" if row.get("source") == "reported" else "no interval"
        )
        n, low, high = (row.get(k) for k in ("n_runs", "range_low", "range_high"))
        note, level = str(row.get("note") or ""), row.get("level")
        lvl = f"a {float(level):.0%} interval" if _known(level) else "an interval"
        if _known(n, low, high):  # the runs' range, in the estimate's unit
            scale, text = _scale(float(est), unit)
            spread = f"{float(low) / scale:.{digits}g}–{float(high) / scale:.{digits}g} {text}"
        if row.get("source") == "reported" and _known(n, low, high) and n > 1:
            # a zone cell of several runs' printed values ('20.1 µs (printed by the tool)' was
            # the median of ethr's or sockperf's 6.419 and 33.78 µs, which none printed)
            why = f"the median of {int(n)} runs' printed values, {spread}; no interval"
        elif why == "no interval" and "median across runs needs" in note and _known(n, low, high):
            # a median across too few runs for its interval: the runs' range, as the matrix
            # gives it ('141.9 µs (no interval)' of five runs from 138.8 to 147.4 µs)
            why = f"{int(n)} runs, too few for {lvl}; they range {spread}"
        elif why == "no interval" and "fit, an interval needs" in note and _known(row.get("n")):
            # one run's samples, too autocorrelated for the batches an interval needs
            why = f"{int(row['n'])} autocorrelated samples, too few for {lvl}"
        return f"{fmt(est, unit, digits)} ({why})"
    scale, text = _scale(float(est), unit)
    level = row.get("level")
    lvl = f"{float(level):.0%} CI" if _known(level) else "CI"
    return (
        f"{float(est) / scale:.{digits}g} {text} ({lvl} {float(lo) / scale:.{digits}g}"
        f"–{float(hi) / scale:.{digits}g})"
    )
