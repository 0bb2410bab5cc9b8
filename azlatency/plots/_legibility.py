"""How large a figure's text is where readers see it, and whether its tick labels collide.

The report site shows a notebook's inline PNG (drawn at ``figure.dpi``, 100) at its own size
in CSS pixels (96 to the inch), shrunk to the content column when wider
(``div.cell_output img { max-width: 100% }``; alabaster at ``page_width`` 1200 px less the
sidebar leaves about :data:`SITE_COLUMN_PX`).  A 10 pt label on a 7.16 in figure is shown at
10.4 pt; on a 12 in figure at 7.5 pt.  :func:`save` writes the measure into every PNG it
writes (a text chunk, ``azlatency-legibility``) so a test can check every figure a report
wrote without drawing it again.
"""

from __future__ import annotations

import json
import math

from matplotlib.text import Text

SITE_COLUMN_PX = 900
INLINE_DPI = 100  # the notebooks' figure.dpi (_style._COMMON)
CSS_PX_PER_IN = 96
MIN_SHOWN_PT = 9.0  # issue 31: a figure's text at least 9 pt at the width the site shows it
KEY = "azlatency-legibility"


def shown_scale(width_in: float) -> float:
    """Size on the site over size in the figure: 100 px to the figure's inch shown at 96 CSS
    px to the inch, shrunk when the figure is wider than the column."""
    return min(1.0, SITE_COLUMN_PX / (width_in * INLINE_DPI)) * INLINE_DPI / CSS_PX_PER_IN


def legibility(fig, *, drawn: bool = False, size_in: tuple[float, float] | None = None) -> dict:
    """``{"width_in", "height_in", "smallest_pt", "smallest_text", "shown_pt", "collisions"}``:
    the smallest visible text (points in the figure, and as shown on the site) and the tick
    labels that overlap a neighbour on their axis (``"ax 0 y: 'a' / 'b'"``).  ``drawn``: the
    figure was just drawn (laid out), as :func:`save` does before it measures.  ``size_in``:
    the size of the image saved (a tight box is wider than the figure where long labels
    stand out of it: a 7.16 in forest plot was saved 21.8 in wide, its labels shown at 4 pt
    while the figure's size said 10), else the figure's."""
    if not drawn:
        fig.draw_without_rendering()
    renderer = fig.canvas.get_renderer()
    texts = [t for t in fig.findobj(Text) if _in_view(t)]
    width, height = (float(x) for x in (size_in or fig.get_size_inches()))
    smallest = min(texts, key=lambda t: t.get_fontsize(), default=None)
    pt = float(smallest.get_fontsize()) if smallest is not None else None
    return {
        "width_in": round(width, 3),
        "height_in": round(height, 3),
        "smallest_pt": pt,
        "smallest_text": smallest.get_text()[:40] if smallest is not None else None,
        "shown_pt": round(pt * shown_scale(width), 2) if pt is not None else None,
        "collisions": _collisions(fig, renderer),
    }


def _in_view(t: Text) -> bool:
    """A text inside an Axes counts when it lies in the figure (matplotlib keeps tick labels
    of ticks outside the view limits, invisible in effect)."""
    if not (t.get_visible() and t.get_text().strip()):
        return False
    try:
        x, y = t.get_transform().transform(t.get_position())
    except (ValueError, TypeError):
        return True
    w, h = t.figure.bbox.width, t.figure.bbox.height
    return -1 <= x <= w + 1 and -1 <= y <= h + 1


def _collisions(fig, renderer) -> list[str]:
    """Tick labels closer to their neighbour than a line of their text.  Labels turned by an
    angle (``rotation=45``) are parallel lines: they clash when the gap across them, the step
    between ticks times the sine of the angle, is less than the text's height (their upright
    boxes overlap either way)."""
    out = []
    for k, ax in enumerate(fig.axes):
        for name, labels in (("x", ax.get_xticklabels()), ("y", ax.get_yticklabels())):
            shown = [t for t in labels if _in_view(t)]
            boxes = sorted(
                ((t, t.get_window_extent(renderer)) for t in shown),
                key=lambda b: b[1].x0 if name == "x" else b[1].y0,
            )
            for (a, ba), (b, bb) in zip(boxes, boxes[1:]):
                if _clash(a, ba, bb, name, fig.dpi):
                    out.append(f"ax {k} {name}: {a.get_text()[:30]!r} / {b.get_text()[:30]!r}")
    return out


def _clash(t: Text, a, b, axis: str, dpi: float) -> bool:
    turn = math.radians(t.get_rotation() % 180)
    if abs(math.sin(turn)) < 0.05:  # upright: the boxes tell
        both = a.intersection(a, b)
        return both is not None and both.width > 1 and both.height > 1
    line = t.get_fontsize() * dpi / 72
    if axis == "x":
        gap = abs(b.x1 - a.x1) * abs(math.sin(turn))  # anchored at the same end
    else:
        gap = abs(b.y0 - a.y0) * abs(math.cos(turn))
    return gap < 0.9 * line


def encode(fig, *, drawn: bool = False, size_in: tuple[float, float] | None = None) -> str:
    """:func:`legibility` as the JSON :func:`save` writes into a PNG's ``KEY`` text chunk."""
    return json.dumps(legibility(fig, drawn=drawn, size_in=size_in), sort_keys=True)
