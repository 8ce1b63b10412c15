"""Numbers as a tokenizer meets them: digit groups and the two ways of writing commas.

A tokenizer does not read a number, it reads digits, and each tokenizer has
its own rule for cutting a run of digits into tokens:

- one token per digit (Qwen, Mistral's tokenizers);
- groups of up to three digits from the left (GPT-4's ``cl100k_base``,
  GPT-4o's ``o200k_base``, Llama 3): ``12345`` -> ``123 45``, groups that do
  not line up with place value (the ``123`` here is not "123 thousand");
- no rule at all: a byte-level BPE without a digit rule in its pre-split
  (GPT-2) cuts numbers wherever its learned merges happen to fall.

Writing a number with commas puts the boundaries back where place value
puts them, and there are two conventions:

>>> international("12345678"), indian("12345678")
('12,345,678', '1,23,45,678')
>>> group_digits("12345"), group_digits("12345", align="right")
(['123', '45'], ['12', '345'])

The same value written two ways is two different texts, and so two different
token counts. Singh and Strouse (2024, arXiv:2402.14903) found that making GPT-3.5
and GPT-4 see right-aligned groups of three, with commas, "leads to largely
improved performance" on addition; the safer lesson is still to do arithmetic in code.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from i18n import N_, _, number

MAX_DIGITS = 2_000
"""The longest number the helpers take (a 500-digit number is fine; a pasted book is not)."""

_NUMBER = re.compile(r"([+-]?)(\d+)(?:\.(\d+))?")
_SEPARATORS = re.compile(r"[,_\s\u00a0\u202f']")


@dataclass(frozen=True, slots=True)
class Number:
    """A number as text: its sign, its integer digits and its fraction digits (each a string).

    >>> parse_number("-1,23,456.50")
    Number(sign='-', digits='123456', fraction='50')
    """

    sign: str
    digits: str
    fraction: str = ""

    def write(self, integer_part: str) -> str:
        """The number with ``integer_part`` in place of its digits (sign and fraction kept)."""
        return self.sign + integer_part + (f".{self.fraction}" if self.fraction else "")

    @property
    def plain(self) -> str:
        """The number without commas: ``-123456.50``."""
        return self.write(self.digits)


def parse_number(text: str) -> Number:
    """Read a number typed by a person: digits with an optional sign and decimal point; commas,
    spaces, underscores and apostrophes between digits are ignored (whichever grouping was used).

    Raises ``ValueError`` with a sentence a learner understands.

    >>> parse_number(" 1,23,456 ").digits
    '123456'
    >>> parse_number("12 lakh")
    Traceback (most recent call last):
    ...
    ValueError: “12 lakh” is not a number: use digits only (a sign, commas and one decimal point are fine).
    """
    shown = text.strip()
    if not shown:
        raise ValueError(_("Type a number, for example 12345678."))
    if len(shown) > MAX_DIGITS * 2:
        raise ValueError(_("That is {n} characters; this lab takes numbers of up to {most} digits.",
                           n=number(len(shown)), most=number(MAX_DIGITS)))
    match = _NUMBER.fullmatch(_SEPARATORS.sub("", shown))
    if match is None:
        cut = shown if len(shown) <= 40 else shown[:40] + "…"
        raise ValueError(_("“{text}” is not a number: use digits only (a sign, commas and one decimal point are "
                           "fine).", text=cut))
    sign, digits, fraction = match.group(1), match.group(2), match.group(3) or ""
    if len(digits) + len(fraction) > MAX_DIGITS:
        raise ValueError(_("That number has {n} digits; this lab takes up to {most}.",
                           n=number(len(digits) + len(fraction)), most=number(MAX_DIGITS)))
    digits = digits.lstrip("0") or "0"
    if digits == "0" and not fraction.strip("0"):
        sign = ""  # -0 is 0
    return Number(sign if sign == "-" else "", digits, fraction)


def group_digits(digits: str, size: int = 3, *, align: str = "left") -> list[str]:
    """Cut a run of digits into groups of ``size``: from the left (the last group is short) or
    right-aligned, as place value does (the first group is short).

    >>> group_digits("1234567"), group_digits("1234567", align="right")
    (['123', '456', '7'], ['1', '234', '567'])
    >>> group_digits("7", align="right"), group_digits("")
    (['7'], [])
    """
    if size < 1:
        raise ValueError("A group has at least one digit.")
    if align not in ("left", "right"):
        raise ValueError(f"align is 'left' or 'right', not {align!r}.")
    if align == "left":
        return [digits[i : i + size] for i in range(0, len(digits), size)]
    first = len(digits) % size or size
    return [digits[:first]] + [digits[i : i + size] for i in range(first, len(digits), size)] if digits else []


def international_groups(digits: str) -> list[str]:
    """Groups of three from the right (thousand, million, billion).

    >>> international_groups("123456")
    ['123', '456']
    """
    return group_digits(digits, 3, align="right")


def indian_groups(digits: str) -> list[str]:
    """The Indian system: the last three digits (hundreds), then groups of two (thousand, lakh, crore…).

    >>> indian_groups("123456"), indian_groups("12345678"), indian_groups("999")
    (['1', '23', '456'], ['1', '23', '45', '678'], ['999'])
    """
    if len(digits) <= 3:
        return [digits] if digits else []
    return group_digits(digits[:-3], 2, align="right") + [digits[-3:]]


def international(text: str) -> str:
    """A number with international commas: ``123456`` -> ``123,456`` (sign and decimals kept).

    >>> international("1234567.5"), international("-999"), international("1,23,456")
    ('1,234,567.5', '-999', '123,456')
    """
    number = parse_number(text)
    return number.write(",".join(international_groups(number.digits)))


def indian(text: str) -> str:
    """A number with Indian commas: ``123456`` -> ``1,23,456`` (sign and decimals kept).

    >>> indian("123456"), indian("10000000"), indian("123,456.75")
    ('1,23,456', '1,00,00,000', '1,23,456.75')
    """
    number = parse_number(text)
    return number.write(",".join(indian_groups(number.digits)))


# -- what a tokenizer does with digits (measured, never assumed) ------------------------------------------

DIGIT_PROBE = "1234567"
"""The number a tokenizer is shown to find its digit rule: seven digits, so that each rule cuts it differently."""

STYLES = {  # marked for the catalogue: a page draws them through i18n._
    "digits": N_("one token per digit"),
    "left": N_("groups of up to three digits from the left"),
    "right": N_("right-aligned groups of three"),
    "whole": N_("the whole number as one token"),
    "other": N_("no digit rule: its learned merges decide"),
}
"""What :func:`digit_style` can find, in words."""


def digit_groups(token_texts: Sequence[str]) -> list[str]:
    """The digit groups in a number's tokens: spaces (SentencePiece's ``▁``) and empty tokens left out.

    >>> digit_groups([" ", "1", "2", "3"]), digit_groups(["123", "45"])
    (['1', '2', '3'], ['123', '45'])
    """
    groups = [t.replace("\u2581", "").strip() for t in token_texts]
    return [g for g in groups if g]


def digit_style(groups: Sequence[str], digits: str = DIGIT_PROBE) -> str:
    """Which rule a tokenizer followed to cut ``digits`` into ``groups`` (a key of :data:`STYLES`).

    >>> digit_style(["123", "456", "7"]), digit_style(list("1234567")), digit_style(["123", "45", "67"])
    ('left', 'digits', 'other')
    >>> digit_style(["1", "234", "567"])
    'right'
    """
    groups = list(groups)
    if "".join(groups) != digits:
        return "other"
    if groups == list(digits):
        return "digits"
    if len(groups) == 1:
        return "whole"
    if groups == group_digits(digits, 3):
        return "left"
    if groups == group_digits(digits, 3, align="right"):
        return "right"
    return "other"


__all__ = [
    "DIGIT_PROBE",
    "MAX_DIGITS",
    "Number",
    "STYLES",
    "digit_groups",
    "digit_style",
    "group_digits",
    "indian",
    "indian_groups",
    "international",
    "international_groups",
    "parse_number",
]
