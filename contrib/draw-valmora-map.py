"""Draw the map of the Valmora sample scenario "The Ford at Alder Mill" (games/valmora-scenarios/figures/
alder-mill-map.png) as a board wargame's printed map comes scanned: 2000 x 1703 pixels, RGBA (an alpha channel
every pixel of which is opaque, as scanning and export tools write it), with the terrain of the scenario's rules:
the Alder river, its ford, the mill (a stone building), the road north to Valmora, the woods, the ridge and the
objectives of each side, on the board's paper, with the grain and mottling of a scan. Drawn at twice the size and
scaled down, so its edges are smoothed as a scan's are. Same script, same bytes.

    .venv/bin/python contrib/draw-valmora-map.py
"""
from __future__ import annotations

import math
import random
from pathlib import Path

from PIL import Image, ImageChops, ImageDraw, ImageFilter

SIZE = (2000, 1703)
K = 2  # drawn at twice the size
COLUMNS, ROWS = 20, 15
OUT = Path(__file__).resolve().parent.parent / "games" / "valmora-scenarios" / "figures" / "alder-mill-map.png"
PAPER, GRID, WOODS, RIVER, ROAD, RIDGE = (243, 234, 210), (185, 166, 126), (111, 143, 78), (74, 123, 176), \
    (122, 90, 50), (201, 178, 130)
VALMORA, DUCHY = (140, 28, 19), (31, 63, 115)


def hexes(width: float, height: float) -> tuple[float, float, float, list[tuple[int, int, float, float]]]:
    """Flat-topped hexes filling the picture: their radius, the margins, and (column, row, centre) of each."""
    radius = min(width / (1.5 * COLUMNS + 0.5), height / (math.sqrt(3) * (ROWS + 0.5)))
    left = (width - radius * (1.5 * COLUMNS + 0.5)) / 2
    top = (height - radius * math.sqrt(3) * (ROWS + 0.5)) / 2
    cells = [(c, r, left + radius + 1.5 * radius * c, top + math.sqrt(3) * radius * (r + 0.5 + 0.5 * (c % 2)))
             for c in range(COLUMNS) for r in range(ROWS)]
    return radius, left, top, cells


def corners(x: float, y: float, radius: float) -> list[tuple[float, float]]:
    return [(x + radius * math.cos(math.pi / 3 * i), y + radius * math.sin(math.pi / 3 * i)) for i in range(6)]


def river_y(x: float, width: float, height: float) -> float:
    """The Alder across the map, west to east, bending south of the mill."""
    t = x / width
    return height * (0.52 + 0.08 * math.sin(2 * math.pi * t * 1.3 + 0.4) + 0.04 * math.sin(2 * math.pi * t * 3.1))


def draw() -> Image.Image:
    width, height = SIZE[0] * K, SIZE[1] * K
    radius, _, _, cells = hexes(width, height)
    image = Image.new("RGBA", (width, height), (226, 214, 186, 255))  # the board's margin
    pen = ImageDraw.Draw(image)
    for _, _, x, y in cells:  # the board: paper inside the hexes, nothing outside them
        pen.polygon(corners(x, y, radius), fill=PAPER + (255,))
    road_x = width * 0.5
    for c, r, x, y in cells:  # terrain, hex by hex
        fill = None
        if (x < width * 0.3 and y < height * 0.35) or (x > width * 0.72 and y > height * 0.7) or \
                (c in (13, 14) and 2 <= r <= 4):
            fill = WOODS + (255,)
        elif y < river_y(x, width, height) - 3.2 * radius and abs(x - width * 0.62) < width * 0.14 and r >= 3:
            fill = RIDGE + (255,)
        if fill:
            pen.polygon(corners(x, y, radius * 0.98), fill=fill)
    for c, r, x, y in cells:
        pen.line([*corners(x, y, radius), corners(x, y, radius)[0]], fill=GRID + (255,), width=3 * K)
        pen.text((x - radius * 0.3, y - radius * 0.8), f"{c + 1:02d}{r + 1:02d}", fill=GRID + (255,),
                 font_size=int(radius * 0.28))
    river = [(x, river_y(x, width, height)) for x in range(0, width + 1, 8)]
    pen.line(river, fill=RIVER + (255,), width=int(radius * 0.32), joint="curve")
    road = [(road_x + radius * 0.4 * math.sin(y / height * 5), y) for y in range(0, height + 1, 8)]
    for a, b in zip(road[::6], road[3::6]):  # dashed, as the road is on the rules' own figure
        pen.line([a, b], fill=ROAD + (255,), width=int(radius * 0.12))
    ford = (road_x + radius * 0.4 * math.sin(river_y(road_x, width, height) / height * 5),
            river_y(road_x, width, height))
    pen.rectangle([ford[0] - radius * 0.6, ford[1] - radius * 0.35, ford[0] + radius * 0.6, ford[1] + radius * 0.35],
                  fill=(200, 176, 122, 255), outline=ROAD + (255,), width=3 * K)
    mill = (ford[0] + radius * 1.6, ford[1] - radius * 1.5)
    pen.rectangle([mill[0] - radius * 0.35, mill[1] - radius * 0.35, mill[0] + radius * 0.35, mill[1] + radius * 0.35],
                  fill=(90, 80, 70, 255))
    for x, y in ((width * 0.5, height * 0.14), (width * 0.3, height * 0.8)):  # Valmora's objectives: triangles
        pen.polygon([(x, y - radius * 0.4), (x + radius * 0.4, y + radius * 0.3), (x - radius * 0.4, y + radius * 0.3)],
                    fill=VALMORA + (255,))
    for x, y in ((width * 0.74, height * 0.12), (width * 0.22, height * 0.9)):  # the Duchy's: squares
        pen.rectangle([x - radius * 0.35, y - radius * 0.25, x + radius * 0.35, y + radius * 0.25],
                      outline=DUCHY + (255,), width=5 * K)
    image = image.filter(ImageFilter.GaussianBlur(0.6))  # the printed board's soft edges, as a scan has them
    return scanned(image.resize(SIZE, Image.Resampling.LANCZOS))


def scanned(image: Image.Image) -> Image.Image:
    """The paper's mottling (blurred noise) and the scanner's grain over the drawing, the same on every run."""
    rng = random.Random(1809)
    mottling = Image.frombytes("L", (SIZE[0] // 8, SIZE[1] // 8), rng.randbytes(SIZE[0] // 8 * (SIZE[1] // 8)))
    mottling = mottling.filter(ImageFilter.GaussianBlur(3)).resize(SIZE, Image.Resampling.BICUBIC)
    grain = Image.frombytes("L", SIZE, bytes(128 + rng.randrange(-5, 6) for _ in range(SIZE[0] * SIZE[1])))
    shade = ImageChops.add(mottling.point(lambda v: 128 + (v - 128) // 3), grain, scale=1.0, offset=-128)
    rgb = image.convert("RGB")
    lit = ImageChops.add(rgb, Image.merge("RGB", [shade] * 3), scale=1.0, offset=-128)
    lit.putalpha(255)
    return lit


if __name__ == "__main__":
    draw().save(OUT, "PNG", optimize=True)
    print(f"{OUT}: {OUT.stat().st_size:,} bytes")
