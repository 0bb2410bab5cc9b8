"""The PNG writer a figure's raster goes through: Pillow reads back the same pixels, text
and dpi, and the same pixels always give the same bytes."""

from __future__ import annotations

import numpy as np
import pytest
from PIL import Image

from azlatency.plots import _png


def _pixels(alpha: int = 255) -> np.ndarray:
    rng = np.random.default_rng(7)
    rgba = rng.integers(0, 256, size=(37, 53, 4), dtype=np.uint8)
    rgba[:10] = 255  # a flat band, as a figure's margin
    rgba[..., 3] = 255
    rgba[5, 7, 3] = alpha
    return rgba


def test_an_opaque_raster_is_written_as_rgb_with_its_text_and_dpi(tmp_path):
    rgba = _pixels()
    text = {"Software": "azlatency", "azlatency-legibility": '{"shown_pt": 9.5}'}
    shown = _png.write(tmp_path / "a.png", rgba, alpha=False, dpi=300, text=text)
    assert shown.mode == "RGB" and np.array_equal(np.asarray(shown), rgba[..., :3])
    with Image.open(tmp_path / "a.png") as im:
        assert (im.mode, im.size) == ("RGB", (53, 37))
        assert np.array_equal(np.asarray(im), rgba[..., :3])
        assert im.text == text
        assert im.info["dpi"] == pytest.approx((300, 300), abs=0.01)
    _png.write(tmp_path / "b.png", rgba, alpha=False, dpi=300, text=text)
    assert (tmp_path / "a.png").read_bytes() == (tmp_path / "b.png").read_bytes()


def test_a_raster_with_transparency_keeps_its_alpha(tmp_path):
    rgba = _pixels(alpha=0)
    shown = _png.write(tmp_path / "t.png", rgba, alpha=True, dpi=100, text={})
    assert shown.mode == "RGBA" and np.array_equal(np.asarray(shown), rgba)
    with Image.open(tmp_path / "t.png") as im:
        assert im.mode == "RGBA" and im.info["dpi"] == pytest.approx((100, 100), abs=0.01)
        assert np.array_equal(np.asarray(im), rgba)


def test_opaque_looks_at_every_alpha_byte_and_nothing_else():
    rgba = _pixels()
    rgba[..., :3] = 0  # black is opaque too
    assert _png.opaque(rgba.tobytes())
    assert not _png.opaque(_pixels(alpha=254).tobytes())
    assert _png.opaque(b"")


def test_encode_gives_the_image_as_png_bytes_without_metadata():
    import io

    rgba = _pixels(alpha=0)
    for image in (Image.fromarray(rgba[..., :3].copy()), Image.fromarray(rgba)):
        data = _png.encode(image)
        assert data.startswith(_png.SIGNATURE) and data == _png.encode(image)
        with Image.open(io.BytesIO(data)) as back:
            assert back.mode == image.mode and back.size == image.size
            assert np.array_equal(np.asarray(back), np.asarray(image))
            assert back.text == {} and "dpi" not in back.info
