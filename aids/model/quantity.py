"""Table cells as data: numbers, fractions, signed modifiers, ranges, percentages and quantities with a unit.

Cells are parsed from what the source says, as written (`+1` stays signed, `1.0` keeps its decimal),
scaled when an edition changes the distance unit, and formatted per language only when rendered.
"""
from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass
from decimal import ROUND_CEILING, ROUND_FLOOR, ROUND_HALF_UP, Decimal, InvalidOperation
from fractions import Fraction
from typing import Any

from ruamel.yaml.comments import CommentedMap

from ..errors import Problems
from ..source.shape import AnyOf, Field, Shape, choice
from ..source.yamlfile import check_map
from .text import placeholders_at

# Distance units an edition may print in; factors to millimetres give the physical conversion.
DISTANCE_UNITS = {"mm": Decimal(1), "cm": Decimal(10), "in": Decimal("25.4")}
CLDR_UNITS = {"mm": "length-millimeter", "cm": "length-centimeter", "in": "length-inch"}
# Units counted in the game's own measures, never scaled.
GAME_UNITS = ("move", "speed")
DEGREE = "°"  # an angle (a unit's facing): the same in every language and edition
UNITS = (*DISTANCE_UNITS, *GAME_UNITS, DEGREE)
ROUNDING_MODES = {"nearest": ROUND_HALF_UP, "down": ROUND_FLOOR, "up": ROUND_CEILING}
VULGAR = {"½": Fraction(1, 2), "¼": Fraction(1, 4), "¾": Fraction(3, 4), "⅓": Fraction(1, 3),
          "⅔": Fraction(2, 3), "⅛": Fraction(1, 8)}
GLYPHS = {v: k for k, v in VULGAR.items()}
MINUS = "\u2212"

_NUMBER = r"[0-9]+(?:\.[0-9]+)?"
# A sign as users type it: +, a hyphen, a true minus, or the en dash word processors put for a minus.
_SIGN = r"[+\-−–]"
_SIGNED = re.compile(rf"({_SIGN})\s*({_NUMBER})\Z")
_PLAIN = re.compile(rf"{_NUMBER}\Z")
_FRACTION = re.compile(rf"({_SIGN}?)\s*([0-9]*)\s*([½¼¾⅓⅔⅛]|[0-9]+/[0-9]+)\Z")
_PERCENT = re.compile(rf"({_SIGN}?)\s*({_NUMBER})\s*%\Z")
# A number as a source must not write it: a decimal comma (1,5) or no digit before the point (.5).
_MISSPELT = re.compile(rf"({_SIGN}?)\s*([0-9]*)[.,]([0-9]+)(\s*(?:%|mm|cm|in|move|speed|°))?\Z")
_RANGE = re.compile(rf"({_NUMBER})\s*[-–]\s*({_NUMBER})\Z")
_OPEN = re.compile(rf"({_NUMBER})\s*([+-])\Z")  # 8+ "8 and more", 12- "12 or less"
_QUANTITY = re.compile(r"(.+?)\s*(mm|cm|in|move|speed|°)\Z")
DASHES = {"-", "–", "—", "--"}


@dataclass(frozen=True)
class Num:
    """An integer or decimal as written: `places` decimals kept, `signed` when written with + or −."""
    value: Decimal
    places: int = 0
    signed: bool = False


@dataclass(frozen=True)
class Frac:
    value: Fraction
    signed: bool = False  # +½, −¼: a modifier


@dataclass(frozen=True)
class Percent:
    value: Decimal  # 20 for 20 %
    signed: bool = False  # +10 %, −20 %


@dataclass(frozen=True)
class Range:
    low: Num | None  # None: "… or less"
    high: Num | None  # None: "… and more"

    def bounds(self) -> tuple[Decimal | None, Decimal | None]:
        return (self.low.value if self.low else None, self.high.value if self.high else None)


@dataclass(frozen=True)
class Quantity:
    amount: Num | Frac
    unit: str


@dataclass(frozen=True)
class Dash:
    """Not applicable."""


@dataclass(frozen=True)
class Empty:
    """Nothing printed (a blank cell of a matrix)."""


Value = Num | Frac | Percent | Range | Quantity | Dash | Empty


def as_written(src, node: Any, key: Any) -> str | None:
    """The scalar `node[key]` as the source spells it (`+1`, `1.0`), or None if it is not a scalar."""
    value = node[key]
    if isinstance(value, str):
        return value.strip()
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    where = src.at(node, key, value=not isinstance(key, int))
    if where.line and src.text:
        line = src.text.splitlines()[where.line - 1]
        m = re.match(r"[^\s,\]\}#]+", line[where.col - 1:])
        if m:
            return m.group(0)
    return str(value)


QUANTITY = "q"  # {q:name}: a value of the text's `with:` map, formatted and converted per edition


def value_at(src, node: Any, key: Any, unit: str | None) -> Value | None:
    """The value `node[key]` as written (in `unit` when it has none of its own); None when it is not one."""
    text = as_written(src, node, key)
    return parse_value(text, unit) if text is not None or node[key] is None else None


def misspelt_at(src, node: Any, key: Any, problems: Problems) -> bool:
    """A number written as the source must not (1,5 or .5) is reported, not taken for text."""
    text = as_written(src, node, key)
    fixed = number_as_written(text) if text else None
    if fixed:
        problems.add(src.at(node, key, value=not isinstance(key, int)),
                     f"'{text}' is not a number as a source writes it",
                     f"{fixed} (a decimal point; each language prints its own separator)")
    return bool(fixed)


def values_at(src, node: Any, keys: list[Any], raw: Any, problems: Problems) -> dict[str, Value]:
    """The values of a `with:` map (`raw`) beside the texts `node[key]` of `keys`: each used by a `{q:name}` of
    the texts, and every `{q:name}` with its value (other kinds of placeholder are the caller's)."""
    raw = {} if raw is None else raw
    values: dict[str, Value] = {}
    if not hasattr(raw, "items"):
        problems.add(src.at(node, "with", value=True), "with must be a mapping", "with: {radius: 30 cm}")
        raw = {}
    for name in raw:
        value = value_at(src, raw, name, None)
        if value is None and misspelt_at(src, raw, name, problems):
            continue
        if value is None or isinstance(value, Empty):
            problems.add(src.at(raw, name, value=True), f"'{raw[name]}' is not a value",
                         "a number, fraction, percentage or quantity such as 30 cm or 45°")
        else:
            values[str(name)] = value
    used = set()
    for key in keys:
        for kind, name, whole, offset in placeholders_at(str(node[key])):
            if kind != QUANTITY:
                continue
            if name not in values and name not in raw:
                problems.add(src.at_text(node, key, offset), f"placeholder '{whole}' has no value",
                             f"with: {{{name}: ...}}")
            used.add(name)
    for name in raw:
        if str(name) not in used:
            problems.add(src.at(raw, name), f"value '{name}' is not used in the text", f"{{q:{name}}} in the text")
    return values


def parse_number(text: str) -> Num | None:
    text = text.strip()
    m = _SIGNED.match(text)
    if m:
        value = Decimal(m.group(2))
        return Num(value if m.group(1) == "+" else -value, _places(m.group(2)), True)
    if _PLAIN.match(text):
        return Num(Decimal(text), _places(text))
    return None


def parse_amount(text: str) -> Num | Frac | None:
    m = _FRACTION.match(text.strip())
    if m:
        value = int(m.group(2) or 0) + (VULGAR.get(m.group(3)) or Fraction(m.group(3)))
        return Frac(value if m.group(1) in ("", "+") else -value, bool(m.group(1)))
    return parse_number(text)


def parse_value(text: str | None, unit: str | None = None) -> Value | None:
    """A cell's value from its written form; None when it is not a value (then it is text)."""
    if text is None or text == "":
        return Empty()
    text = text.strip()
    if text in DASHES:
        return Dash()
    m = _PERCENT.match(text)
    if m:
        value = Decimal(m.group(2))
        return Percent(value if m.group(1) in ("", "+") else -value, bool(m.group(1)))
    m = _QUANTITY.match(text)
    if m and (amount := parse_amount(m.group(1))) is not None:
        return Quantity(amount, m.group(2))
    amount = parse_amount(text)
    if amount is not None:
        return Quantity(amount, unit) if unit else amount
    m = _RANGE.match(text)
    if m:
        return Range(parse_number(m.group(1)), parse_number(m.group(2)))
    m = _OPEN.match(text)
    if m:
        n = parse_number(m.group(1))
        return Range(n, None) if m.group(2) == "+" else Range(None, n)
    return None


def number_as_written(text: str) -> str | None:
    """How a source writes the number `text` misspells (1,5 → 1.5, .5 → 0.5); None if it is no such number."""
    m = _MISSPELT.match(text.strip())
    if not m or parse_value(text) is not None:
        return None
    return f"{m.group(1)}{m.group(2) or 0}.{m.group(3)}{m.group(4) or ''}"


def as_decimal(amount: Num | Frac) -> Decimal:
    if isinstance(amount, Num):
        return amount.value
    return Decimal(amount.value.numerator) / amount.value.denominator


def _places(text: str) -> int:
    return len(text.split(".", 1)[1]) if "." in text else 0


# --- editions: the unit distances are printed in ---------------------------------------------

@dataclass(frozen=True)
class Measure:
    """How an edition prints distances: in `unit`, source distances times `scale`, rounded to `step`."""
    unit: str | None = None  # None: as the source says
    scale: Decimal | None = None  # None: the physical conversion
    step: Decimal | None = None
    mode: str = "nearest"

    def convert(self, q: Quantity) -> Quantity:
        if self.unit is None or q.unit not in DISTANCE_UNITS or q.unit == self.unit:
            return q
        scale = self.scale if self.scale is not None else DISTANCE_UNITS[q.unit] / DISTANCE_UNITS[self.unit]
        value = as_decimal(q.amount) * scale
        if self.step:
            value = (value / self.step).quantize(Decimal(1), rounding=ROUNDING_MODES[self.mode]) * self.step
            places = decimals(self.step.normalize())
        else:
            places = 2
        value = value.quantize(Decimal(1).scaleb(-places)).normalize()
        places = decimals(value)
        signed = q.amount.signed
        return Quantity(Num(value.quantize(Decimal(1).scaleb(-places)), places, signed), self.unit)


POSITIVE = {"type": ["number", "string"], "pattern": r"^\s*[0-9]*\.?[0-9]+\s*$", "exclusiveMinimum": 0}
ROUNDING = Shape("rounding", (Field("to", POSITIVE, True, "the step distances are rounded to, e.g. 0.5"),
                              Field("mode", choice(ROUNDING_MODES))))
# An edition's measure: the fields of `edition:` in game.yaml besides its id
MEASURE = (Field("unit", choice(DISTANCE_UNITS), doc="the unit this edition prints distances in"),
           Field("scale", POSITIVE, doc="the factor from the rules' unit to this one, e.g. 0.4 from cm to in"),
           Field("rounding", AnyOf((POSITIVE, ROUNDING)), doc="0.5, or {to: 0.5, mode: nearest|down|up}"))
MEASURE_FIELDS = [f.name for f in MEASURE]


def read_measure(src, node: CommentedMap, problems: Problems) -> Measure:
    """An edition's `unit`, `scale` and `rounding: {to: 0.5, mode: nearest|down|up}`, each checked at its position."""
    unit = node.get("unit")
    if unit is not None and str(unit) not in DISTANCE_UNITS:
        problems.add(src.at(node, "unit", value=True), f"unknown unit '{unit}'", ", ".join(DISTANCE_UNITS))
        unit = None
    scale = None
    if node.get("scale") is not None:
        scale = _positive(src, node, "scale", problems)
        if node.get("unit") is None and scale is not None:
            problems.add(src.at(node, "scale"), "scale without a unit", "unit: cm, in or mm")
    step, mode = None, "nearest"
    rounding = node.get("rounding")
    if rounding is not None:
        if isinstance(rounding, CommentedMap):
            if check_map(src, rounding, problems, ROUNDING):
                step = _positive(src, rounding, "to", problems)
            mode = str(rounding.get("mode", "nearest"))
            if mode not in ROUNDING_MODES:
                problems.add(src.at(rounding, "mode", value=True), f"unknown rounding mode '{mode}'",
                             ", ".join(ROUNDING_MODES))
                mode = "nearest"
        else:
            step = _positive(src, node, "rounding", problems)
    return Measure(str(unit) if unit else None, scale, step, mode)


def _positive(src, node, key, problems: Problems) -> Decimal | None:
    text = as_written(src, node, key)
    try:
        value = Decimal(text) if text else None
    except InvalidOperation:
        value = None
    if value is None or value <= 0:
        problems.add(src.at(node, key, value=True), f"{key} '{node[key]}' is not a positive number",
                     "a number such as 0.4")
        return None
    return value


def decimals(value: Decimal) -> int:
    """How many decimal places `value` is written with (0 for a whole number)."""
    exponent = value.as_tuple().exponent
    return max(0, -exponent) if isinstance(exponent, int) else 0


def measure_of(edition) -> Measure:
    return (edition.options.get("measure") if edition is not None else None) or Measure()


def convert(value: Value, measure: Measure) -> Value:
    return measure.convert(value) if isinstance(value, Quantity) else value


def check_bands(placed: list[tuple[Range, Any, str]], problems: Problems) -> None:
    """Bands must cover the scores without a gap or an overlap (whole numbers; open ends only at the ends).

    Bands are checked in the direction they are written, upwards (3-, 4-7, 8+) or downwards (8+, 4-7, 3-):
    a problem is reported at the later of two bands, with the bound it needs to follow the one before it.
    """
    def by_low(band: tuple[Range, Any, str]) -> tuple[bool, Decimal | int]:
        low = band[0].bounds()[0]
        return (low is not None, low or 0)

    ordered = sorted(placed, key=by_low)
    down = len(placed) > 1 and by_low(placed[0]) > by_low(placed[-1])
    if down:
        ordered.reverse()
    for n, (band, where, written) in enumerate(ordered):
        low, high = band.bounds()
        if low is not None and high is not None and low > high:
            problems.add(where, f"band {written} runs backwards", "low-high with low <= high")
        if n == 0:
            continue
        before, _, previous = ordered[n - 1]
        _check_joint(band, before, down, where, written, previous, problems)


def _check_joint(band: Range, before: Range, down: bool, where: Any, written: str, previous: str,
                 problems: Problems) -> None:
    """A band follows the one before it without a gap or an overlap: upwards it starts after the one before
    ends; downwards it ends before that one starts."""
    low, high = band.bounds()
    edge, limit = (high, before.bounds()[0]) if down else (low, before.bounds()[1])
    step = -1 if down else 1
    expected = f"a band ending at {limit - 1}" if down and limit is not None else \
        f"a band starting at {limit + 1}" if limit is not None else ""
    if edge is None or limit is None:
        problems.add(where, f"overlapping result bands: {written} and {previous} are both open-ended",
                     "one band for every score")
    elif (edge - limit) * step <= 0:
        problems.add(where, f"overlapping result bands: {written} and {previous} share {edge}", expected)
    elif (edge - limit) * step > 1:
        first, last = sorted((limit + step, edge - step))
        missing = f"{first}" + (f"-{last}" if last > first else "")
        problems.add(where, f"gap between result bands: no band for {missing}", expected)


def value_text(value: Value | None) -> str:
    """A value as a release records it: its kind and fields, the same for the same value ("num 0.1",
    "range 4 6", "quantity num 12 cm"), "" for none."""
    if value is None:
        return ""
    if not dataclasses.is_dataclass(value):
        return str(value)
    parts = [type(value).__name__.lower()]
    for item in dataclasses.fields(value):
        field_value = getattr(value, item.name)
        if isinstance(field_value, bool):
            parts += [item.name] if field_value else []
        elif dataclasses.is_dataclass(field_value) or field_value is None:
            parts.append(value_text(field_value) or "-")  # type: ignore[arg-type]
        elif item.name != "places":
            parts.append(str(field_value))
    return " ".join(parts)
