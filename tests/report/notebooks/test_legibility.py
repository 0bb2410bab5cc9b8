"""Issue 31, item 3: every figure the report notebooks write is legible where the site shows
it — its smallest text at least 9 pt as shown, no tick label on top of its neighbour.  The
measure is the one ``plots.save`` writes into each PNG (``plots/_legibility.py``)."""

from __future__ import annotations

import json

import pytest
from PIL import Image

from azlatency.plots._legibility import KEY, MIN_SHOWN_PT

# the notebook runs of test_claims.py (a session fixture: in another group, another worker
# would run every notebook again)
pytestmark = pytest.mark.xdist_group("claims")


def _measure(png):
    with Image.open(png) as im:
        text = im.text.get(KEY)
    return json.loads(text) if text else None


def test_every_figure_is_legible_where_the_site_shows_it(executed, executed_other):
    checked, bad = 0, []
    for runs in (executed, executed_other):
        figures = next(iter(runs.values())).parent.parent / "figures"
        for png in sorted(figures.rglob("*.png")):
            m = _measure(png)
            assert m is not None, f"{png.name}: no legibility record (written by plots.save)"
            checked += 1
            name = png.relative_to(figures).as_posix()
            if m["shown_pt"] is not None and m["shown_pt"] < MIN_SHOWN_PT:
                bad.append(
                    f"{name}: {m['smallest_text']!r} at {m['smallest_pt']} pt on a "
                    f"{m['width_in']} in figure is shown at {m['shown_pt']} pt"
                )
            bad.extend(f"{name}: {c}" for c in m["collisions"][:3])
    assert checked >= 20
    assert not bad, "\n".join(bad)


def test_every_figure_has_a_caption_naming_its_file_and_axes(executed):
    """Issue 31, item 4: each figure output is followed by its caption — the figure's file,
    what it shows (its title) and its axes, whose labels state unit and basis."""
    seen = 0
    for nb in executed.values():
        cells = json.loads(nb.read_text(encoding="utf-8"))["cells"]
        outputs = [o for c in cells if c["cell_type"] == "code" for o in c.get("outputs", [])]
        for i, out in enumerate(outputs):
            files = out.get("metadata", {}).get("azlatency", {}).get("files")
            if not files:
                continue
            seen += 1
            after = "".join(outputs[i + 1]["data"]["text/markdown"]) if i + 1 < len(outputs) else ""
            stem = files[0].rsplit("/", 1)[-1].rsplit(".", 1)[0]
            assert after.startswith(f"*Figure `{stem}`.*"), (nb.name, stem, after[:80])
            assert "Axes: " in after, (nb.name, stem, after)
            if "latency" in after.lower():  # a latency axis says round trip or half of one
                assert "RTT" in after, (nb.name, stem, after)
    assert seen >= 10
