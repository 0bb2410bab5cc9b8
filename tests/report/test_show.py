"""Showing a figure on a page: the inline image is the saved PNG's pixels, reduced."""

from __future__ import annotations

import io

import numpy as np
from PIL import Image

from azlatency.report import _show


def test_the_inline_image_is_the_png_reduced_to_the_figure_dpi():
    rng = np.random.default_rng(3)
    big = Image.fromarray(rng.integers(0, 256, size=(90, 120, 3), dtype=np.uint8))
    shown = _show._inline(big, 3.0)
    with Image.open(io.BytesIO(shown.data)) as im:
        assert (im.mode, im.size) == ("RGB", (40, 30))
        assert np.array_equal(np.asarray(im), np.asarray(big.reduce(3)))
    opaque = Image.fromarray(np.full((9, 12, 4), 200, np.uint8)).convert("RGBA")
    opaque.putalpha(255)
    with Image.open(io.BytesIO(_show._inline(opaque, 3.0).data)) as im:
        assert im.mode == "RGB"  # opaque: no alpha on the page
