"""Numbers as the learner's language writes them: one place for every integer, decimal and amount the lab prints.

English is written exactly as Python writes it (``f"{n:,}"``, ``f"{x:,.2f}"``): what the lab printed before
translation, byte for byte. Hindi is grouped the Indian way, by Babel's ``hi_IN`` number pattern (CLDR's
``#,##,##0.###``): 1,23,456 and 12,34,567.50, with the same digits as English, since the rounding is done first
by Python's own formatting in both languages (Babel would round half to even: 2.675 is 2.67 in Python, from the
float's binary value). Digits stay Latin (CLDR's default for ``hi``), as Hindi newspapers and bills print them.
"""

from __future__ import annotations

import math
import sys
from functools import cache

from babel import Locale
from babel.numbers import get_decimal_symbol, get_group_symbol

#: Babel's locale for each language whose numbers are not written as Python writes them.
BABEL_LOCALES = {"hi": "hi_IN"}
CURRENCY_SIGNS = {"INR": "₹", "USD": "$"}


def _lang() -> str:
    return sys.modules["i18n"].current()  # the package imports this module: no import cycle, no import a call


@cache
def _rule(locale: str) -> tuple[int, int, str, str]:
    """The locale's grouping (the first group's size, the others'), group separator and decimal sign, from
    Babel's CLDR data (``hi_IN``: 3, 2, "," and ".")."""
    loc = Locale.parse(locale)
    primary, secondary = loc.decimal_formats[None].grouping
    return primary, secondary, get_group_symbol(loc), get_decimal_symbol(loc)


def _grouped(text: str, lang: str) -> str:
    """A number already rounded and written by Python without grouping (``"-1234567.50"``), grouped as ``lang``
    groups it."""
    primary, secondary, group, point = _rule(BABEL_LOCALES[lang])
    sign, digits = ("-", text[1:]) if text.startswith("-") else ("", text)
    whole, dot, fraction = digits.partition(".")
    groups = [whole[-primary:]] if len(whole) > primary else [whole]
    rest = whole[:-primary] if len(whole) > primary else ""
    while rest:
        groups.append(rest[-secondary:])
        rest = rest[:-secondary]
    return sign + group.join(reversed(groups)) + (point + fraction if dot else "")


def number(n: int | float, lang: str | None = None) -> str:
    """An integer (a count) written for the language: ``123,456`` in English, ``1,23,456`` in Hindi. A float is
    rounded to a whole number first; what is not a finite number is written as it is.

    >>> number(123456), number(123456, "hi"), number(-1234567, "hi"), number(999, "hi")
    ('123,456', '1,23,456', '-12,34,567', '999')
    """
    if type(n) is int and -1000 < n < 1000:  # no group to separate, in any language
        return str(n)
    if isinstance(n, float) and not math.isfinite(n):
        return str(n)
    lang = lang or _lang()
    if lang not in BABEL_LOCALES:
        return f"{round(n):,}"
    return _grouped(f"{round(n)}", lang)


def decimal(x: float, places: int = 2, lang: str | None = None) -> str:
    """A decimal with exactly ``places`` decimals, grouped for the language.

    >>> decimal(1234567.891), decimal(1234567.891, lang="hi"), decimal(2.675, lang="hi"), decimal(0.5, 0, "hi")
    ('1,234,567.89', '12,34,567.89', '2.67', '0')
    """
    if not math.isfinite(x):
        return str(x)
    lang = lang or _lang()
    if lang not in BABEL_LOCALES:
        return f"{x:,.{places}f}"
    return _grouped(f"{x:.{places}f}", lang)


def money(amount: float, currency: str = "INR", places: int = 2, lang: str | None = None) -> str:
    """An amount with its currency's sign, grouped for the language: ``₹1,23,456.50`` in Hindi,
    ``₹123,456.50`` in English (a currency without a sign here is written with its code).

    >>> money(123456.5), money(123456.5, lang="hi"), money(0.0042, "USD", 4, "hi")
    ('₹123,456.50', '₹1,23,456.50', '$0.0042')
    """
    sign = CURRENCY_SIGNS.get(currency, currency + " ")
    written = decimal(abs(amount), places, lang)
    return ("-" if amount < 0 and written.strip("0.,") else "") + sign + written


__all__ = ["decimal", "money", "number"]
