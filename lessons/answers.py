"""The answer kinds: every way a question can be answered, each declared once, in :data:`ANSWER_KINDS`.

A question (:class:`lessons.judging.Question`) has one answer kind: ``"choice"`` (one of its options),
``"number"``, ``"split"`` (the tokens, typed and separated by ``|``), ``"order"`` (its options put in order) or
``"word"`` (something that meets a rule). Each kind's entry (:class:`AnswerKind`) says, below the UI:

- ``fits``: whether a guess has the type and shape the kind takes (an answer its widget could have given), and
  what is wrong, in a few words, if not; with no question (an answer loaded before its question is known), only
  the shape is checked;
- ``judge``: right or not, with a detail (which pieces of a split are right; a word's rule) and, for a split, the
  per-piece matches;
- ``blank`` and ``keyed``: how it is written on a printed worksheet (:mod:`lessons.worksheet`) and in its answer key;
- ``from_vote`` and ``options_as``: how a class poll carries it (a vote is text: read back as the widget's answer,
  for judging; the options sent as the choices a vote must be one of, or as the items an order is made of).

How each kind is drawn (the predict widget's input and verdict, a poll's answer widget) is the UI's, registered by
the same names in :mod:`ui.answers`. Adding a kind is one entry here, one there, and their tests
(tests/test_judging.py checks every kind has both).

>>> sorted(ANSWER_KINDS) == sorted(KINDS)
True
>>> ANSWER_KINDS["order"].from_vote("c | a | b"), ANSWER_KINDS["number"].from_vote("7,650")
(['c', 'a', 'b'], 7650)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from decimal import ROUND_HALF_DOWN, ROUND_HALF_UP, Decimal, InvalidOperation, localcontext
from typing import Any, Protocol

from i18n import N_, _, _n, number

MAX_TEXT = 2_000
"""The longest typed answer (a split, a word) a question takes, and a progress file keeps."""
MAX_PIECES = 500
"""The most pieces in a list answer (tokens, an order)."""
MAX_PIECE = 200
"""The longest piece of a list answer."""
_BLANK = "__________"


class Asked(Protocol):
    """What a kind's rules read of a question (:class:`lessons.judging.Question` has it all)."""

    @property
    def answer(self) -> Any: ...
    @property
    def options(self) -> tuple[str, ...]: ...
    @property
    def also_right(self) -> tuple[Any, ...]: ...
    @property
    def tolerance(self) -> float: ...
    @property
    def exact(self) -> Any: ...
    @property
    def check(self) -> Callable[[str], tuple[bool, str]] | None: ...


Judged = tuple[bool, str, tuple[bool, ...]]
"""(right, detail, per-piece matches): a guess judged."""


# -- what the kinds share ------------------------------------------------------------------------------------------
def parse_split(text: str) -> list[str]:
    """``"poha | wal | a"`` -> ``["poha", "wal", "a"]``; a piece keeps inner spaces, not the edges around ``|``.

    >>> parse_split("poha | wal | a"), parse_split("chah iye"), parse_split(" | a b | ")
    (['poha', 'wal', 'a'], ['chah', 'iye'], ['a b'])
    """
    parts = [p.strip() for p in text.split("|")] if "|" in text else text.split()
    return [p for p in parts if p]


def as_decimal(value: Any) -> Decimal | None:
    """A number exactly as it was typed or computed, or None when ``value`` is not a finite number.

    A float becomes the shortest decimal that reads back as it (2.23, not 2.2300000000000000266…), so
    comparing is exact: no float fuzz.

    >>> as_decimal(2.23), as_decimal(7), as_decimal(Decimal("2.235")), as_decimal("7"), as_decimal(True)
    (Decimal('2.23'), Decimal('7'), Decimal('2.235'), None, None)
    """
    if isinstance(value, bool):
        return None
    if isinstance(value, Decimal):
        number = value
    elif isinstance(value, int):
        number = Decimal(value)
    elif isinstance(value, float):
        number = Decimal(repr(value))
    else:
        return None
    return number if number.is_finite() else None


def decimal_places(answer: Any) -> int:
    """How many decimals a learner types for ``answer``: none for a whole number, else as many as it is given
    to (at most 3), so 2.46 or 6.9 can be typed.

    >>> decimal_places(9), decimal_places(6.0), decimal_places(6.9), decimal_places(Decimal("2.46"))
    (0, 0, 1, 2)
    """
    if isinstance(answer, bool) or isinstance(answer, int):
        return 0
    if isinstance(answer, (float, Decimal)):
        if float(answer).is_integer():
            return 0
        text = format(Decimal(str(answer)).normalize(), "f")
        return min(len(text.partition(".")[2]), 3)
    return 0


def what(guess: Any) -> str:
    """A guess described for a message: what was found where something else was expected.

    >>> what(None), what(True), what(2.5), what("x"), what(["a", "b"]), what({})
    ('nothing', 'true/false', 'a number', 'text', 'a list of 2', 'a table')
    """
    if guess is None:
        return _("nothing")
    if isinstance(guess, bool):
        return _("true/false")
    if isinstance(guess, (int, float, Decimal)):
        return _("a number")
    if isinstance(guess, str):
        return _("text")
    if isinstance(guess, (list, tuple)):
        return _("a list of {n}", n=number(len(guess)))
    return _("a table") if isinstance(guess, dict) else type(guess).__name__


def _short(text: str, limit: int = 40) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def short_pieces(guess: Any) -> bool:
    """Whether ``guess`` is a list of at most :data:`MAX_PIECES` texts of at most :data:`MAX_PIECE` characters."""
    return (isinstance(guess, (list, tuple)) and len(guess) <= MAX_PIECES
            and all(isinstance(g, str) and len(g) <= MAX_PIECE for g in guess))


def _number_right(q: Asked, guess: Any) -> bool:
    """Exact, in Decimal: within the tolerance of the unrounded truth, or the truth rounded to the places the
    learner types (a half either way: Rs 2.235 is 2.23 or 2.24; money compares to the paisa, exactly)."""
    g, truth = as_decimal(guess), as_decimal(q.exact if q.exact is not None else q.answer)
    if g is None or truth is None:
        return False
    tolerance = as_decimal(q.tolerance) or Decimal(0)
    with localcontext() as ctx:
        ctx.prec = 200  # wide enough that the sums below are exact for any float-sized number
        try:
            if truth - tolerance <= g <= truth + tolerance:
                return True
            quantum = Decimal(1).scaleb(-decimal_places(q.answer))
            return any(g == truth.quantize(quantum, rounding) for rounding in (ROUND_HALF_UP, ROUND_HALF_DOWN))
        except InvalidOperation:  # a number too big to round to the places: not the answer
            return False


def _letters(piece: str) -> str:
    """What a piece covers of the text, for finding where it falls: its characters without spaces (typed or shown
    as ·, which a learner may leave out)."""
    return "".join(ch for ch in piece if not ch.isspace() and ch != "·")


def piece_matches(typed: list[str], truth: list[str]) -> tuple[bool, ...]:
    """For each typed piece: whether the tokenizer made the same piece at the same place in the text (where the
    piece starts, counted in the text's characters without spaces). A right piece after a wrong one still counts.

    >>> piece_matches(["cha", "hiye", "!"], ["ch", "ahi", "ye", "!"])
    (False, False, True)
    >>> piece_matches(["poha", "wala"], ["poha", "wal", "a"])
    (True, False)
    """
    def placed(pieces: list[str]) -> list[tuple[int, str]]:
        out, at = [], 0
        for piece in pieces:
            letters = _letters(piece)
            out.append((at, letters or piece))  # a piece that is only a space: known by itself, where it falls
            at += len(letters)
        return out

    made = set(placed(truth))
    return tuple(spot in made for spot in placed(typed))


def split_detail(typed: list[str], truth: list[str], matches: tuple[bool, ...]) -> str:
    """How many pieces are right, by where they fall in the text, and which.

    >>> split_detail(["cha", "hiye", "!"], ["ch", "ahi", "ye", "!"], (False, False, True))
    '1 of 4 pieces right (where they fall in the text): “!”; you typed 3 pieces, the tokenizer made 4'
    """
    right = [piece for piece, ok in zip(typed, matches) if ok]
    shown = ", ".join(f"“{_short(piece, 20)}”" for piece in right[:8]) + (", …" if len(right) > 8 else "")
    head = _n("{right} of {n} piece right (where they fall in the text)",
              "{right} of {n} pieces right (where they fall in the text)", len(truth), right=number(len(right)))
    if len(right) == len(truth) == len(typed):
        if typed != truth:  # the same cuts, but a space typed where the token has none, or left out where it has one
            return _n("all {n} piece fall where the tokenizer cut, but the spaces differ: a token keeps the space "
                      "before a word, shown as ·", "all {n} pieces fall where the tokenizer cut, but the spaces "
                      "differ: a token keeps the space before a word, shown as ·", len(truth))
        return _n("all {n} piece right", "all {n} pieces right", len(truth))
    if right and len(right) < len(truth):
        head += f": {shown}"
    elif not right:
        head = _n("none of the {n} piece right (where they fall in the text)",
                  "none of the {n} pieces right (where they fall in the text)", len(truth)) if len(truth) > 1 \
            else _("the piece is not right")
    if len(typed) != len(truth):
        head += "; " + _n("you typed {n} piece, the tokenizer made {made}", "you typed {n} pieces, the tokenizer "
                          "made {made}", len(typed), made=number(len(truth)))
    return head


# -- choice: one of its options ------------------------------------------------------------------------------------
def _choice_fits(q: Asked | None, guess: Any) -> str | None:
    if not isinstance(guess, str):
        return _("a choice question needs one of its options, not {what}", what=what(guess))
    if q is None:
        return None
    allowed = (*q.options, *(a for a in q.also_right if isinstance(a, str))) or (q.answer,)
    return None if guess in allowed else _("“{guess}” is not one of its options", guess=_short(guess))


def _choice_judge(q: Asked, guess: Any) -> Judged:
    """Right when it is the lab's pick or tied with it (``also_right``)."""
    return guess == q.answer or guess in q.also_right, "", ()


def _ticks(options: tuple[str, ...], unit: str) -> list[str]:
    return [f"- [ ] {option}" for option in options]


# -- number --------------------------------------------------------------------------------------------------------
def _number_fits(q: Asked | None, guess: Any) -> str | None:
    return None if as_decimal(guess) is not None else _("a number question needs a number, not {what}",
                                                        what=what(guess))


def _number_judge(q: Asked, guess: Any) -> Judged:
    return _number_right(q, guess), "", ()


def _answer_line(options: tuple[str, ...], unit: str) -> list[str]:
    # the unit as the exercise gives it (N_("tokens")…), in the reader's language, as the predict widget shows it
    return [_("Your answer ({unit}): {blank}", unit=_(unit), blank=_BLANK) if unit else
            _("Your answer: {blank}", blank=_BLANK)]


def _number_from_vote(text: str) -> Any:
    """A vote as the number widget gives it (answer_text writes 7,650); text that is no number stays text."""
    try:
        number = Decimal(text.replace(",", ""))
    except ArithmeticError:
        return text
    return int(number) if number == number.to_integral_value() else float(number)


# -- typed text: a split (the tokens), a word ----------------------------------------------------------------------
def _typed_fits(name: str, wanted: str, lists: bool) -> Callable[[Asked | None, Any], str | None]:
    """A typed answer: non-empty text of at most MAX_TEXT characters (a split also as its list of pieces)."""
    def fits(q: Asked | None, guess: Any) -> str | None:
        if isinstance(guess, str):
            if not guess.strip():
                return _("the answer is empty (it needs {wanted})", wanted=_(wanted))
            return None if len(guess) <= MAX_TEXT else _("the answer is longer than {n} characters",
                                                          n=number(MAX_TEXT))
        if lists and isinstance(guess, (list, tuple)):
            return None if guess and short_pieces(guess) else _("the tokens are not a list of short pieces of text")
        return _("a {kind} question needs {wanted}, not {what}", kind=_(name), wanted=_(wanted), what=what(guess))
    return fits


def _split_judge(q: Asked, guess: Any) -> Judged:
    """Piece by piece, by where each typed piece falls in the text."""
    typed = parse_split(guess) if isinstance(guess, str) else list(guess)
    truth = [t.strip() for t in q.answer]
    matches = piece_matches(typed, truth)
    return typed == truth, split_detail(typed, truth, matches), matches


def _tokens_line(options: tuple[str, ...], unit: str) -> list[str]:
    return [_("Tokens, separated by | : {blank}", blank=_BLANK + _BLANK)]


def _word_judge(q: Asked, guess: Any) -> Judged:
    """By the question's rule (``check``): any word that meets it is right."""
    if q.check is None:
        raise ValueError("A word question needs its check.")
    right, detail = q.check(str(guess))
    return right, detail, ()


# -- order: its options, first to last -----------------------------------------------------------------------------
def _order_fits(q: Asked | None, guess: Any) -> str | None:
    if not isinstance(guess, (list, tuple)) or not all(isinstance(g, str) for g in guess):
        return _("an order question needs its options in a list, not {what}", what=what(guess))
    if not guess:
        return _("the order is empty")
    if len(set(guess)) != len(guess):
        return _("an option appears twice in the order")
    unknown = None if q is None else next((g for g in guess if g not in q.options), None)
    return None if unknown is None else _("“{guess}” is not one of its options", guess=_short(unknown))


def _order_judge(q: Asked, guess: Any) -> Judged:
    placed = sum(1 for a, b in zip(guess, q.answer) if a == b)
    return list(guess) == list(q.answer), _("{placed} of {n} in the right place", placed=number(placed),
                                            n=number(len(q.answer))), ()


def _numbered(options: tuple[str, ...], unit: str) -> list[str]:
    return [_("Number these 1, 2, 3… in the order they happen:"), *(f"- ( ) {option}" for option in options)]


# -- the registry --------------------------------------------------------------------------------------------------
def _as_is(text: str) -> Any:
    return text


@dataclass(frozen=True)
class AnswerKind:
    """One answer kind, below the UI: how a guess of it is checked, judged, written on paper and carried by a poll."""

    name: str
    fits: Callable[[Asked | None, Any], str | None]
    """None when a guess has the shape this kind takes, else what is wrong. ``q`` None: the question is not known
    yet (a loaded answer that waits for its page): only the guess's type and shape are checked."""
    judge: Callable[[Asked, Any], Judged]
    """(right, detail, per-piece matches) for a guess that fits."""
    blank: Callable[[tuple[str, ...], str], list[str]]
    """The worksheet's lines under the prompt, from the computed options and the exercise's unit."""
    keyed: Callable[[str], str] = _as_is
    """The answer key's answer, from the computed answer as text."""
    from_vote: Callable[[str], Any] = _as_is
    """A class vote (always text) as this kind's answer widget gives it, for judging."""
    options_as: str = ""
    """How a posed question sends its options: ``"choices"`` (a vote must be one of them), ``"items"`` (what an
    answer is made of), or not at all."""

    def posed_options(self, options: tuple[str, ...]) -> dict[str, list[str] | None]:
        """The ``choices`` and ``items`` of a posed question with these options (:func:`ui.classroom.payload`)."""
        return {field: list(options) if options and field == self.options_as else None for field in ("choices", "items")}


ANSWER_KINDS: dict[str, AnswerKind] = {k.name: k for k in (
    AnswerKind("choice", _choice_fits, _choice_judge, _ticks, options_as="choices"),
    AnswerKind("number", _number_fits, _number_judge, _answer_line, from_vote=_number_from_vote),
    AnswerKind("split", _typed_fits(N_("split"), N_("the tokens, typed as text"), lists=True), _split_judge,
               _tokens_line),
    AnswerKind("order", _order_fits, _order_judge, _numbered, from_vote=parse_split, options_as="items"),
    AnswerKind("word", _typed_fits(N_("word"), N_("a word"), lists=False), _word_judge, _answer_line,
               keyed=lambda answer: _("any word that meets the rule, for example {answer}", answer=answer)),
)}
"""Every answer kind, by its name (a lesson file's ``kind``, a posed question's)."""
KINDS = tuple(ANSWER_KINDS)


__all__ = ["ANSWER_KINDS", "KINDS", "MAX_PIECE", "MAX_PIECES", "MAX_TEXT", "AnswerKind", "Asked", "Judged",
           "as_decimal", "decimal_places", "parse_split", "piece_matches", "short_pieces", "split_detail", "what"]
