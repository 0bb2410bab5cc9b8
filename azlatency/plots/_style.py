"""The publication look, as a context — importing azlatency never touches ``rcParams``."""

from __future__ import annotations

import io
import re
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import NamedTuple

import matplotlib as mpl
import numpy as np
import PIL.Image
from matplotlib.transforms import Bbox

from . import _legibility
from . import _png as _png_file

# Okabe & Ito (2008) colour-blind-safe palette.
PALETTE = ("#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7", "#56B4E9", "#F0E442", "#000000")
# Column widths in inches of a typical two-column paper (IEEE: 3.5 in / 7.16 in).
WIDTHS = {"one_column": 3.5, "two_column": 7.16}

_STYLES = {
    "paper": {
        "font.size": 8,
        "axes.titlesize": 8,
        "axes.labelsize": 8,
        "legend.fontsize": 7,
        "xtick.labelsize": 7,
        "ytick.labelsize": 7,
        "figure.figsize": (WIDTHS["one_column"], WIDTHS["one_column"] * 0.75),
        "lines.linewidth": 1.0,
    },
    "report": {
        # 11 pt, so "small" (×0.833) is still 9.5 pt as the site shows a 7.16 in figure
        # (plots/_legibility.py: issue 31 asks for 9 pt at least)
        "font.size": 11,
        "axes.titlesize": 12,
        "axes.labelsize": 11,
        "legend.fontsize": 10,
        "figure.figsize": (WIDTHS["two_column"], WIDTHS["two_column"] * 0.5),
        "lines.linewidth": 1.4,
    },
}
_COMMON = {
    "pdf.fonttype": 42,  # embed TrueType, not Type 3: journals ask for it
    "ps.fonttype": 42,
    "svg.fonttype": "none",
    "axes.prop_cycle": mpl.cycler(color=PALETTE),
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.grid": True,
    "grid.alpha": 0.3,
    "savefig.bbox": "tight",
    "figure.dpi": 100,
    "image.cmap": "cividis",
}


@contextmanager
def style(name: str = "paper") -> Iterator[None]:
    """``with azlatency.plots.style("paper"): ...`` — the look, undone on exit."""
    if name not in _STYLES:
        raise ValueError(f"unknown style {name!r}; known: {', '.join(_STYLES)}")
    with mpl.rc_context({**_COMMON, **_STYLES[name]}):
        yield


def figsize(width: str = "one_column", aspect: float = 0.75) -> tuple[float, float]:
    """(width, height) [inches] of a figure as wide as ``WIDTHS[width]``, ``aspect`` times
    as tall."""
    w = WIDTHS[width]
    return (w, w * aspect)


def save(
    fig, stem: str | Path, *, formats: tuple[str, ...] = ("pdf", "svg", "png"), dpi: int = 300
) -> list[Path]:
    """Write ``stem.pdf``, ``stem.svg`` and ``stem.png`` (300 dpi); return the paths.  The PNG
    carries how large its smallest text is shown on the report site (``_legibility``).

    The figure is laid out once for all the formats (:func:`_laid_out`): matplotlib would lay
    it out and measure its tight box again for each file, and that, not the drawing, is most
    of a many-panel figure's time.  With a tight box (the styles' default), a figure without a
    layout engine whose labels or legend stand out of it has its axes narrowed to make room
    (:func:`_within_width`); they stay so after saving."""
    return render(fig, stem, formats=formats, dpi=dpi).paths


class Saved(NamedTuple):
    """What :func:`render` wrote, and the PNG's pixels (``None`` without a PNG) at ``dpi``."""

    paths: list[Path]
    image: PIL.Image.Image | None
    dpi: int


def render(
    fig, stem: str | Path, *, formats: tuple[str, ...] = ("pdf", "svg", "png"), dpi: int = 300
) -> Saved:
    """:func:`save`, also handing back the PNG's pixels: a page shows them reduced rather than
    decoding the file it just wrote or drawing the figure again."""
    stem = Path(stem)
    stem.parent.mkdir(parents=True, exist_ok=True)
    paths, image = [], None
    with _laid_out(fig) as box:
        size = (box.width, box.height) if isinstance(box, Bbox) else None  # inches, as saved
        legible = _legibility.encode(fig, drawn=True, size_in=size) if "png" in formats else ""
        for fmt in formats:
            path = stem.with_suffix(f".{fmt}")
            if fmt == "png":
                image = _png(fig, path, dpi, box, legible)
            else:
                # metadata without dates keeps the files reproducible
                meta = {"Creator": "azlatency", "CreationDate" if fmt == "pdf" else "Date": None}
                # a fixed salt makes SVG element ids (random by default) the same every build
                with mpl.rc_context({"svg.hashsalt": "azlatency"}):
                    fig.savefig(
                        out := io.BytesIO(), format=fmt, dpi=dpi, metadata=meta, bbox_inches=box
                    )
                data = out.getvalue()
                path.write_bytes(_numbered_ids(data) if fmt == "svg" else data)
            paths.append(path)
    return Saved(paths, image, dpi)


# matplotlib names an SVG clip path or marker by a hash of its box or path at full precision
# (``svg.hashsalt``): a layout one part in 10^13 off, which no drawn coordinate shows, renamed
# every clip path of a report page's figure between two runs of the same logs.
_SVG_ID = re.compile(rb'\bid="([mp][0-9a-f]{10})"')
_SVG_REF = re.compile(rb"(?<=#)[mp][0-9a-f]{10}\b")


def _numbered_ids(svg: bytes) -> bytes:
    """``svg`` with its hashed ids renamed in the order they are defined (``p0000000001``)."""
    names: dict[bytes, bytes] = {}
    counts = {b"m": 0, b"p": 0}
    for m in _SVG_ID.finditer(svg):
        kind = m[1][:1]
        if m[1] not in names:
            counts[kind] += 1
            names[m[1]] = kind + b"%010d" % counts[kind]
    if not names:
        return svg
    svg = _SVG_ID.sub(lambda m: b'id="' + names[m[1]] + b'"', svg)
    return _SVG_REF.sub(lambda m: names.get(m[0], m[0]), svg)


def _png(fig, path: Path, dpi: int, box, legible: str) -> PIL.Image.Image:
    """Write ``path``: the figure drawn once at ``dpi`` to raw RGBA, stored as RGB where it is
    opaque (a quarter less to encode) by :func:`_png.write` (unfiltered rows at zlib's fastest
    level: half the time of Pillow's writer, 1.04x its bytes), with how large its text is
    shown (``_legibility``) and no date.  Handed back as written: RGB when opaque."""
    raw = io.BytesIO()
    fig.savefig(raw, format="rgba", dpi=dpi, bbox_inches=box)
    w, h = (box.size if isinstance(box, Bbox) else fig.get_size_inches()) * dpi
    size = (int(w), int(h))  # as matplotlib's Agg renderer sizes its canvas
    if raw.getbuffer().nbytes != 4 * size[0] * size[1]:  # never seen; let matplotlib write it
        meta = {"Software": "azlatency", _legibility.KEY: legible}
        fig.savefig(path, format="png", dpi=dpi, metadata=meta, bbox_inches=box)
        with PIL.Image.open(path) as im:
            return im.convert("RGBA")
    buf = raw.getbuffer()
    alpha = not _png_file.opaque(buf)
    rgba = np.frombuffer(buf, np.uint8).reshape(size[1], size[0], 4)
    text = {"Software": "azlatency", _legibility.KEY: legible}
    return _png_file.write(path, rgba, alpha=alpha, dpi=dpi, text=text)


@contextmanager
def _laid_out(fig) -> Iterator[object]:
    """Inside: ``fig`` laid out (its layout engine run once, then off) and the box to save
    (:func:`_box`).  The layout engine is put back on leaving, so the figure can still
    change and be saved again."""
    engine = fig.get_layout_engine()
    box = _box(fig, engine)
    fig.set_layout_engine(None)
    try:
        yield box
    finally:
        fig.set_layout_engine(engine)


def _box(fig, engine) -> object:
    """``fig`` laid out by ``engine`` and ``savefig.bbox`` measured once (tight: in inches,
    padded as savefig pads it).  For a tight box only the engine runs, not a draw with
    rendering off first as savefig does: measuring the box updates every tick, title and
    legend it measures, so that draw changed no file of 106 report figures and cost a
    sixteenth of their time."""
    box = mpl.rcParams["savefig.bbox"]
    if box != "tight":
        fig.draw_without_rendering()  # the layout, and the ticks _legibility measures
        return box
    if fig.axes and engine is not None:
        with suppress(ValueError):  # as Figure.draw runs it (matplotlib 3.11)
            engine.execute(fig)
    pad = mpl.rcParams["savefig.pad_inches"]
    renderer = fig.canvas.get_renderer()
    tight = fig.get_tightbbox(renderer)
    if engine is None:
        tight = _within_width(fig, tight, renderer)
    return tight.padded(pad)


def _within_width(fig, tight: Bbox, renderer) -> Bbox:
    """The tight box of ``fig`` (no layout engine) once its axes make room for the labels
    and legends that stood out of it, so that the box is no wider than the figure or the
    site's column (:data:`_legibility.SITE_COLUMN_PX` at the inline dpi, 9 in), whichever is
    wider; ``tight`` as it is when it already is.  A tight box grows around what stands out
    instead, and the site shrinks the wider image to its column: 10 pt labels of a 7.16 in
    figure saved 10.6 in wide were shown at 8 pt.  A layout engine for every figure did this
    at twice their time; here the axes are narrowed, their left edges held, and the box
    measured again (a title centred over the axes moves half as far: up to three times).  A
    round that leaves the box as wide (a figure title wider than the room, which no axes
    carry) is undone: it squeezed the axes for nothing."""
    width = fig.get_size_inches()[0]
    pad = 2 * mpl.rcParams["savefig.pad_inches"]  # the box is padded on both sides
    room = max(width, _legibility.SITE_COLUMN_PX / _legibility.INLINE_DPI) - pad
    for _ in range(3):
        excess = (tight.width - room) / width  # of the figure's width
        if excess <= 0.001 or not fig.axes:
            break
        boxes = [ax.get_position() for ax in fig.axes]
        x0, x1 = min(b.x0 for b in boxes), max(b.x1 for b in boxes)
        scale = (x1 - x0 - excess) / (x1 - x0)
        if scale < 0.3:  # labels about as wide as the room: none to make (legibility says)
            break
        for ax, b in zip(fig.axes, boxes, strict=True):
            ax.set_position([x0 + (b.x0 - x0) * scale, b.y0, b.width * scale, b.height])
        narrowed = fig.get_tightbbox(renderer)
        if narrowed.width > tight.width - 0.01:  # inches: nothing came in
            for ax, b in zip(fig.axes, boxes, strict=True):
                ax.set_position(b)
            break
        tight = narrowed
    return tight
