"""The colours of every aid, given once as CMYK: the press profile prints them as they are (DeviceCMYK, with
the shipped FOGRA39 output intent); the screen and the home printer get their RGB equivalents; the gray profile
(a monochrome laser printer) a gray of each, chosen here (GRAY), not left to a printer driver. Text is black
only (K), in all. No colour is the only carrier of a meaning: CUES says what else marks each, and
tests/render/test_colour_access.py holds every one to its contrast, simulated per colour-vision deficiency."""
from __future__ import annotations

from dataclasses import dataclass
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
    "flag": (0, 0.8, 1, 0.46),      # a ruling under review: its flag and the rule beside its text (a brick red)
}

# The gray profile: each colour as a share of black (K). The marks that carry a meaning are dark enough to
# stand 3:1 against the paper; `change` (changed text, --marks colour) sits halfway in luminance between the
# paper and the text (about 4.5:1 from both); the fills behind text stay light, text on them 4.5:1 or more.
GRAY: dict[str, float] = {
    "ink": 1, "muted": 0.65, "rule": 0.3, "accent": 0.8, "header": 0.1, "panel": 0.06, "draft": 0.12,
    "warning": 0.7, "change": 0.54, "flag": 0.75,
}


@dataclass(frozen=True)
class Cue:
    """An element whose colour says something: the colour, what it stands on, what else it must be told from
    (another colour of the palette, or None), and the cue that says it without colour."""
    element: str
    colour: str
    background: str  # "paper" or a colour of the palette
    against: str | None  # held to 3:1 against it too, unless `by_cue`
    cue: str
    mark: bool = True  # a mark (held to 3:1 against its background); False: a fill behind text (text on it 4.5:1)
    by_cue: bool = False  # told from `against` by its cue alone (an underline, bold capitals): the ratio is shown


CUES: tuple[Cue, ...] = (
    Cue("change bar (--marks bars, the default)", "change", "paper", None, "a 2.5 pt bar in the margin"),
    Cue("changed text (--marks colour)", "change", "paper", "ink", "underlined, dotted"),
    Cue("removed item (dashed line)", "change", "paper", None, "a dashed line where the item was"),
    Cue("card band", "accent", "paper", None, "its place: the top edge of every face"),
    Cue("card section heading (web page)", "accent", "paper", "ink", "bold capitals", by_cue=True),
    Cue("cross-reference, ruling link (web page)", "accent", "paper", "ink", "underlined (ink on paper)",
        by_cue=True),
    Cue("ruling under review: flag", "flag", "paper", "ink", "bold, and its label says so", by_cue=True),
    Cue("ruling under review: rule", "flag", "paper", None, "a 2.5 pt rule beside its text"),
    Cue("untranslated text (--draft): underline", "warning", "draft", None, "a wavy underline: its shape"),
    Cue("table header", "header", "paper", None, "bold, and a rule under it", mark=False),
    Cue("example box", "panel", "paper", None, "a 3 pt black rule beside it and its label", mark=False),
    Cue("untranslated text (--draft): fill", "draft", "paper", None, "the wavy underline", mark=False),
)

PROFILE = Path(__file__).resolve().parent.parent / "colour" / "FOGRA39L-aids.icc"
CONDITION = "FOGRA39"  # the output condition the profile characterizes (offset, coated paper)


def rgb(name: str, gray: bool = False) -> str:
    """The colour as #rrggbb for a screen or a home printer (the naive conversion, no profile); for the gray
    profile, its gray (the three parts equal)."""
    return css(name, gray=gray)


def css(name: str, press: bool = False, gray: bool = False) -> str:
    """The colour as a CSS value: device-cmyk() for the press, #rrggbb otherwise (a gray for the gray profile)."""
    if gray:
        return css_of((0, 0, 0, GRAY[name]), press)
    return css_of(PALETTE[name], press)


def css_of(cmyk: tuple[float, ...], press: bool = False) -> str:
    """Any CMYK colour as `css` gives a palette's (a game's `change_colour`)."""
    if press:
        return "device-cmyk({} {} {} {})".format(*(f"{v:g}" for v in cmyk))
    c, m, y, k = cmyk
    return "#" + "".join(f"{round(255 * (1 - part) * (1 - k)):02x}" for part in (c, m, y))


def css_variables(press: bool = False, important: bool = False, gray: bool = False) -> str:
    """`--ink: ...; --muted: ...` for a `:root` rule."""
    return " ".join(f"--{name}: {css(name, press, gray)}{' !important' if important else ''};" for name in PALETTE)


def reportlab(name: str, press: bool = False, gray: bool = False) -> Color:
    """The colour for ReportLab: CMYKColor for the press, RGB otherwise (a gray: three equal parts)."""
    if press:
        return CMYKColor(*((0, 0, 0, GRAY[name]) if gray else PALETTE[name]))
    value = rgb(name, gray)
    return Color(*(int(value[i:i + 2], 16) / 255 for i in (1, 3, 5)))
