"""A PDF's figures prepared as publishing tools prepare them, once laid out and before the PDF is written: each
raster image scaled down to the size it prints at the profile's resolution (home and gray 150 ppi, press 300,
never up), in the profile's colours (RGB; gray; for the press the output intent's CMYK by littleCMS, a neutral
image black only: render/recolour.py), and encoded as its content asks (a photograph JPEG at high quality, a
drawing of few colours PNG, lossless). WeasyPrint then writes the small image it is given (a JPEG as it is)
where it would otherwise have decoded and compressed the full one again: most of what a figure cost a PDF.

Transparency is kept: PDF/X-4, what the press PDF claims (pdfx.py), allows it, and a figure over a theme's page
art must let the paper show through. A press image with transparency stays RGB here (WeasyPrint writes no CMYK
image with an alpha channel), and the press pass converts it with its mask kept (recolour.py); so does a press
drawing (PNG holds no CMYK, and the pass converts it without loss).

A prepared image is kept in the output folder's `.aids-cache/prepared_images/` under the digest of all it is made
from: the source's bytes, the pixels asked, the profile, this module and recolour.py, the output intent's profile,
the versions of Pillow and littleCMS. Read back, its bytes must have the sha256 its record holds, else it is made
again.
"""
from __future__ import annotations

import contextvars
import functools
import hashlib
import io
import json
import math
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from PIL import Image, ImageCms

from ..folder import Folder
from . import recolour, weasyprint_internals
from .colours import PROFILE

PPI = {"home": 150, "gray": 150, "press": 300}  # what each profile's printer resolves of a continuous-tone image
CSS_PPI = 96  # WeasyPrint's px: an inch is 96 of them
JPEG_QUALITY = 92  # no artefact a reader sees in print; chroma kept whole (4:4:4), so coloured edges stay sharp
FEW_COLOURS, DRAWN_SHARE = 32, 0.75  # a drawing: its 32 most frequent colours cover three quarters of its pixels
SAMPLE = 256  # pixels a side of the sample its colours are counted on
KEPT = 256  # prepared images in the cache at most, the oldest removed first


def prepare(data: bytes, size: tuple[int, int], profile: str) -> bytes:
    """The image `data` (PNG or JPEG) at `size` pixels (never more than its own) in `profile`'s colours, encoded
    as PNG or JPEG by its content."""
    with Image.open(io.BytesIO(data)) as source:
        source.load()
        icc = source.info.get("icc_profile")
        image = _opaque_or_alpha(source)
    if size[0] < image.width and size[1] < image.height:
        image = image.resize(size, Image.Resampling.LANCZOS, reducing_gap=3.0)
    if icc and profile != "press":  # in sRGB, as the PDF's DeviceRGB and DeviceGray are read
        image = _to_srgb(image, icc)
    photograph = image.mode in ("RGB", "L") and not drawn(image)
    if photograph or profile != "press":  # a press drawing stays RGB: PNG holds no CMYK, and the press pass
        image = _coloured(image, profile, icc)  # converts it without loss (recolour.py)
    out = io.BytesIO()
    if photograph:
        image.save(out, "JPEG", quality=JPEG_QUALITY, subsampling=0, optimize=False)
    else:
        image.save(out, "PNG", compress_level=1)  # WeasyPrint compresses its pixels again into the PDF
    return out.getvalue()


def _opaque_or_alpha(image: Image.Image) -> Image.Image:
    """RGB or L, or with their alpha (RGBA, LA) where some pixel is not opaque: an alpha channel of 255 alone, or
    a palette's, is dropped, as nothing shows through."""
    gray = image.mode in ("1", "L", "LA", "I", "I;16", "F") or image.mode == "P" and _gray_palette(image)
    alpha = image.mode in ("RGBA", "LA", "PA") or "transparency" in image.info
    mode = ("LA" if gray else "RGBA") if alpha else ("L" if gray else "RGB")
    if image.mode == "CMYK":
        mode = "RGB"
    converted = image.convert(mode) if image.mode != mode else image.copy()
    if alpha and converted.getchannel("A").getextrema() == (255, 255):
        converted = converted.convert(mode[:-1])
    return converted


def _gray_palette(image: Image.Image) -> bool:
    palette = image.getpalette() or []
    return all(palette[i] == palette[i + 1] == palette[i + 2] for i in range(0, len(palette) - 2, 3))


def _to_srgb(image: Image.Image, icc: bytes) -> Image.Image:
    if image.mode not in ("RGB", "RGBA"):
        return image
    try:
        source = ImageCms.ImageCmsProfile(io.BytesIO(icc))
    except (OSError, ImageCms.PyCMSError):
        return image  # a damaged profile: its pixels taken as sRGB, as a browser takes them
    return ImageCms.profileToProfile(image, source, ImageCms.createProfile("sRGB"), outputMode=image.mode) or image


def _coloured(image: Image.Image, profile: str, icc: bytes | None) -> Image.Image:
    """In the profile's colours: gray for gray, CMYK (or black alone for a neutral image) for the press."""
    if profile == "gray" and image.mode in ("RGB", "RGBA"):
        return image.convert("LA" if image.mode == "RGBA" else "L")
    if profile == "press" and image.mode == "RGB":
        return recolour.PRESS_TARGET.image(image, icc)
    return image


def drawn(image: Image.Image) -> bool:
    """Whether `image` is a drawing (line art, a map of flat colours), not a photograph: whether its few most
    frequent colours cover most of a sample of its pixels. A drawing is kept lossless (PNG): JPEG blurs its edges
    and costs more bytes on its flat areas."""
    sample = image.resize((min(SAMPLE, image.width), min(SAMPLE, image.height)), Image.Resampling.NEAREST)
    counts = sorted((n for n, _ in sample.getcolors(sample.width * sample.height) or []), reverse=True)
    return sum(counts[:FEW_COLOURS]) >= DRAWN_SHARE * sample.width * sample.height


def pixels(size: tuple[int, int], printed: tuple[float, float], profile: str) -> tuple[int, int]:
    """The pixels an image of `size` is prepared at to print `printed` (CSS px, its largest placing) at the
    profile's resolution: its own where it has fewer (never scaled up), else its ratio kept."""
    scale = max(printed[0] / size[0], printed[1] / size[1]) * PPI[profile] / CSS_PPI
    if scale >= 1:
        return size
    return max(1, math.ceil(size[0] * scale)), max(1, math.ceil(size[1] * scale))


# --- in a laid-out document ----------------------------------------------------------------------------

def replace_images(document: Any, profile: str) -> None:
    """Every raster image the laid-out WeasyPrint `document` places in a box (a figure, never page art) replaced
    by itself prepared for `profile` at the largest size it prints (one image however often it is placed)."""
    placed = list(weasyprint_internals.raster_images_placed(document))
    largest: dict[str, tuple[float, float]] = {}
    for box, image in placed:
        was = largest.get(image.id, (0.0, 0.0))
        largest[image.id] = (max(was[0], box.width), max(was[1], box.height))
    made: dict[str, Any] = {}
    for box, image in placed:
        if image.id not in made:
            made[image.id] = _replacement(image, largest[image.id], profile)
        weasyprint_internals.replace_raster_image(box, made[image.id])


def _replacement(image: Any, printed: tuple[float, float], profile: str) -> Any:
    source = weasyprint_internals.raster_image_bytes(image)
    size = pixels((image.width, image.height), printed, profile)
    data = prepared(source, size, profile)
    return weasyprint_internals.raster_image_like(image, Image.open(io.BytesIO(data)), data)


def prepared(source: bytes, size: tuple[int, int], profile: str) -> bytes:
    """`prepare`, from the cache where it holds the image made of the same."""
    key = cache_key(source, size, profile)
    cache = _cache.get()
    found = cache.get(key) if cache is not None else None
    if found is None:
        found = prepare(source, size, profile)
        if cache is not None:
            cache.put(key, found)
    return found


def cache_key(source: bytes, size: tuple[int, int], profile: str) -> str:
    material = {"source": hashlib.sha256(source).hexdigest(), "size": list(size), "profile": profile,
                "environment": environment()}
    return hashlib.sha256(json.dumps(material, sort_keys=True).encode()).hexdigest()


@functools.cache
def environment() -> str:
    """What a prepared image depends on besides its source: how it is made (this module, recolour.py), the output
    intent's profile, Pillow and littleCMS."""
    import PIL
    digest = hashlib.sha256(f"{PIL.__version__} {getattr(ImageCms.core, 'littlecms_version', '')}".encode())
    for path in (Path(__file__), Path(recolour.__file__), PROFILE):
        digest.update(hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()


class Cache:
    """Prepared images in a folder (`<output>/.aids-cache/prepared_images`): `<key>.img` and `<key>.json`, the
    record of its sha256."""

    def __init__(self, folder: Folder) -> None:
        self.folder = folder
        self.hits = self.misses = 0

    def get(self, key: str) -> bytes | None:
        try:
            meta = json.loads(self.folder.read(f"{key}.json") or b"null")
            data = self.folder.read(f"{key}.img")
        except (ValueError, OSError):
            meta = data = None
        if not isinstance(meta, dict) or data is None or meta.get("key") != key \
                or meta.get("sha256") != hashlib.sha256(data).hexdigest():
            self.misses += 1
            return None
        self.hits += 1
        return data

    def put(self, key: str, data: bytes) -> None:
        self.folder.write(f"{key}.img", data)
        self.folder.write(f"{key}.json", json.dumps({"key": key, "sha256": hashlib.sha256(data).hexdigest()},
                                                    sort_keys=True).encode())
        self.trim()

    def trim(self, limit: int = KEPT) -> None:
        """At most `limit` images kept: the oldest others removed."""
        names = [n[:-4] for n in self.folder.names() if n.endswith(".img")] if self.folder.is_dir() else []
        if len(names) <= limit:
            return
        stamps = {n: getattr(self.folder.lstat(n + ".img"), "st_mtime_ns", 0) for n in names}
        for name in sorted(names, key=lambda n: (stamps[n], n))[:len(names) - limit]:
            self.folder.remove(name + ".img")
            self.folder.remove(name + ".json")


_cache: contextvars.ContextVar[Cache | None] = contextvars.ContextVar("prepared_images", default=None)


@contextmanager
def cached(folder: Folder | None) -> Iterator[Cache | None]:
    """Images prepared while this runs kept in `folder` (None: in no folder)."""
    cache = Cache(folder) if folder is not None else None
    token = _cache.set(cache)
    try:
        yield cache
    finally:
        _cache.reset(token)
