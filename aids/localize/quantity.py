"""Values of tables and labels as printed in one language: CLDR numbers, signs, fractions, units and plurals."""
from __future__ import annotations

from fractions import Fraction

from babel.numbers import format_percent, get_plus_sign_symbol
from babel.units import format_unit, get_unit_name

from ..model.quantity import (
    CLDR_UNITS,
    DEGREE,
    DISTANCE_UNITS,
    GLYPHS,
    MINUS,
    Dash,
    Empty,
    Frac,
    Num,
    Percent,
    Quantity,
    Range,
    Value,
    as_decimal,
)
from .localizer import Localizer


def format_value(value: Value, lz: Localizer, *, bare: bool = False) -> str:
    """`value` as printed in the language of `lz` (`bare`: a quantity without its unit)."""
    if isinstance(value, Empty):
        return ""
    if isinstance(value, Dash):
        return "–"
    if isinstance(value, Num):
        return _sign(value, lz.number(value.value, places=value.places), lz)
    if isinstance(value, Frac):
        return _sign(value, (MINUS if value.value < 0 else "") + format_fraction(abs(value.value)), lz)
    if isinstance(value, Percent):
        return _sign(value, format_percent(value.value / 100, locale=lz.locale).replace("-", MINUS), lz)
    if isinstance(value, Range):
        return _range(value, lz)
    if isinstance(value, Quantity):
        return _quantity(value, lz, bare)
    raise TypeError(value)


def _range(value: Range, lz: Localizer) -> str:
    """A range of scores: 3–5, or open at one end (8 and more, 12 or less)."""
    low = format_value(value.low, lz) if value.low else ""
    high = format_value(value.high, lz) if value.high else ""
    if value.low and value.high:
        return f"{low}–{high}"
    if value.low:
        return lz.pgettext("an open range of scores, e.g. 8 and more", "%(n)s and more") % {"n": low}
    return lz.pgettext("an open range of scores, e.g. 12 or less", "%(n)s or less") % {"n": high}


def _quantity(value: Quantity, lz: Localizer, bare: bool) -> str:
    """An amount with its unit: a distance as CLDR writes it, degrees, or a game's unit (2 moves)."""
    amount = format_value(value.amount, lz)
    if bare:
        return amount
    if value.unit in DISTANCE_UNITS and isinstance(value.amount, Num):
        # CLDR knows each language's unit and its plural: 1 cal, 2 cale, 12,5 cala
        pattern = "#,##0" + ("." + "0" * value.amount.places if value.amount.places else "")
        return _sign(value.amount, format_unit(value.amount.value, CLDR_UNITS[value.unit], "short",
                                               format=pattern, locale=lz.locale).replace("-", MINUS), lz)
    if value.unit in DISTANCE_UNITS:
        return f"{amount}\u00a0{unit_name(value.unit, lz)}"
    if value.unit == DEGREE:
        return f"{amount}{DEGREE}"
    return game_unit(value, lz) % {"n": amount}


def _sign(value: Num | Frac | Percent, text: str, lz: Localizer) -> str:
    """`text` with the locale's plus sign when the source wrote one (+1, +½, +10 %); a minus is already there."""
    return get_plus_sign_symbol(lz.locale) + text if value.signed and value.value > 0 else text


def format_fraction(value: Fraction) -> str:
    whole, part = divmod(value, 1)
    glyph = GLYPHS.get(part, f"{part.numerator}/{part.denominator}") if part else ""
    return f"{whole or ''}{glyph}" if part else str(whole)


def unit_name(unit: str, lz: Localizer) -> str:
    """The short CLDR name of a distance unit (cm, cale, дюйм.), as printed after a table title."""
    return str(get_unit_name(CLDR_UNITS[unit], length="short", locale=lz.locale))


def game_unit(q: Quantity, lz: Localizer) -> str:
    """The pattern "%(n)s move" for `q`: a fraction below one takes its own form (½ ruchu, ½ хода)."""
    amount = abs(as_decimal(q.amount))  # −1 move takes the form of 1 move
    if q.unit == "speed":
        if amount < 1:
            return lz.pgettext("a fraction of the normal speed, e.g. ¼ speed", "%(n)s speed")
        return lz.pgettext("a multiple of the normal speed", "%(n)s × speed")
    if amount < 1:
        return lz.pgettext("a fraction of a move, e.g. ½ move", "%(n)s move")
    category = lz.locale.plural_form(amount)
    forms = {
        "one": lambda: lz.pgettext("a number of moves, CLDR plural category one (1 move)", "%(n)s move"),
        "few": lambda: lz.pgettext("a number of moves, CLDR plural category few (pl: 2 ruchy; ru: 2 хода)",
                                   "%(n)s moves"),
        "many": lambda: lz.pgettext("a number of moves, CLDR plural category many (pl: 5 ruchów; ru: 5 ходов)",
                                    "%(n)s moves"),
        "other": lambda: lz.pgettext("a number of moves, CLDR plural category other (pl: 1,5 ruchu; "
                                     "ru: 1,5 хода)", "%(n)s moves"),
    }
    return forms.get(category, forms["other"])()
