"""The colours of every aid, given once as CMYK: the press profile prints them as they are (DeviceCMYK, with
the shipped FOGRA39 output intent); the screen and the home printer get their RGB equivalents. Text is
black only (K), in both."""
from __future__ import annotations

from pathlib import Path

from reportlab.lib.colors import CMYKColor, Color

CMYK = tuple[float, float, float, float]

PALETTE: dict[str, CMYK] = {
    "ink": (0, 0, 0, 1),            # every text: black only, never a four-colour grey
    "muted": (0, 0, 0, 0.65),       # colophons, running heads, subtitles
    "rule": (0, 0, 0, 0.3),         # table rules and borders
    "accent": (0.15, 0.9, 0.8, 0.45),  # the card's band, exception boxes, links on screen
    "header": (0, 0, 0, 0.08),      # behind table headers
    "panel": (0, 0, 0, 0.05),       # behind examples on screen
    "draft": (0, 0.05, 0.5, 0),     # behind text a draft leaves untranslated
    "warning": (0, 1, 1, 0.2),      # the wavy underline of a draft's untranslated text
    "change": (0.9, 0.55, 0, 0.1),   # change bars, and changed text with --marks colour (a blue)
}

PROFILE = Path(__file__).resolve().parent.parent / "colour" / "FOGRA39L-aids.icc"
CONDITION = "FOGRA39"  # the output condition the profile characterizes (offset, coated paper)


def rgb(name: str) -> str:
    """The colour as #rrggbb for a screen or a home printer (the naive conversion, no profile)."""
    return css_of(PALETTE[name])


def css(name: str, press: bool = False) -> str:
    """The colour as a CSS value: device-cmyk() for the press, #rrggbb otherwise."""
    return css_of(PALETTE[name], press)


def css_of(cmyk: tuple[float, ...], press: bool = False) -> str:
    """Any CMYK colour as `css` gives a palette's (a game's `change_colour`)."""
    if press:
        return "device-cmyk({} {} {} {})".format(*(f"{v:g}" for v in cmyk))
    c, m, y, k = cmyk
    return "#" + "".join(f"{round(255 * (1 - part) * (1 - k)):02x}" for part in (c, m, y))


def css_variables(press: bool = False, important: bool = False) -> str:
    """`--ink: ...; --muted: ...` for a `:root` rule."""
    return " ".join(f"--{name}: {css(name, press)}{' !important' if important else ''};" for name in PALETTE)


def reportlab(name: str, press: bool = False) -> Color:
    """The colour for ReportLab: CMYKColor for the press, RGB otherwise."""
    if press:
        return CMYKColor(*PALETTE[name])
    value = rgb(name)
    return Color(*(int(value[i:i + 2], 16) / 255 for i in (1, 3, 5)))
