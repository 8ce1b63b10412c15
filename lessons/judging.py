"""Judging a guess: a question, and whether a guess answers it. Pure rules, no UI.

The predict widget (:mod:`ui.predict`) asks questions and keeps the answers; a
progress file's answers are checked when they are loaded (:mod:`lessons.progress`).
Both judge with these rules, so a loaded answer is judged exactly as a typed one:

- :func:`fits`: whether a guess has the type and shape its question takes (an
  answer the widget could have given); what is wrong, in a few words, if not.
- :func:`judge`: right or not, with a detail (which pieces of a split are right, by where they fall in the
  text; a word's rule).
  A number is compared exactly, in Decimal: within the tolerance of the
  unrounded truth, or that truth rounded to the places the learner types
  (half either way: Rs 2.235 is 2.23 or 2.24). A choice tied with the lab's
  pick (``also_right``) is right.

>>> q = Question("k", "How many tokens?", "number", Decimal("2.24"), exact=Decimal("2.235"))
>>> [judge(q, g)[0] for g in (2.23, 2.24, 2.25)]
[True, True, False]
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from decimal import ROUND_HALF_DOWN, ROUND_HALF_UP, Decimal, InvalidOperation, localcontext
from typing import Any

from tokenizer.labels import plural

KINDS = ("choice", "number", "split", "order", "word")
MAX_TEXT = 2_000
"""The longest typed answer (a split, a word) a question takes, and a progress file keeps."""
MAX_PIECES = 500
"""The most pieces in a list answer (tokens, an order)."""
MAX_PIECE = 200
"""The longest piece of a list answer."""


@dataclass(frozen=True)
class Question:
    """One prediction. ``answer`` is computed by the engine, never typed into content.

    kind     ``"choice"`` (one of ``options``), ``"number"``, ``"split"`` (type the tokens,
             separated by ``|``, compared piece by piece), ``"order"`` (put ``options`` in order) or
             ``"word"`` (type something that meets a rule: ``check(guess) -> (right, what it does)``).
    answer   an option; a number; the list of tokens; the options in the right order; an example word.
    key      the question's name in this browser session (the predict store, its widgets). Given an ``id``
             and no key, the key is the id's (:class:`lessons.progress.QuestionId`).
    id       the question's stable name in a progress file: a fixed kind of question and its parameters,
             independent of its text and of the values it shows. None: the answer is kept for the session
             only.
    """

    key: str
    prompt: str
    kind: str
    answer: Any
    options: tuple[str, ...] = ()
    also_right: tuple[Any, ...] = ()
    explain: str = ""
    explain_also_right: str = ""
    tolerance: float = 0.0
    unit: str = ""
    exact: Any = None
    """For a number: the unrounded truth when ``answer`` is rounded for showing (Rs 2.235 shown as 2.24); a
    guess is judged against it. None: ``answer`` is exact."""
    scope: str = ""
    hint: str = ""
    """Shown when the answer is wrong: the misconception the question is there to catch."""
    more: tuple[str, str] | None = None
    """(title, text): detail one click away under the explanation (every token with its bytes)."""
    check: Callable[[str], tuple[bool, str]] | None = field(default=None, compare=False)
    id: Any = None
    """A :class:`lessons.progress.QuestionId` (its ``key`` names the question in the session)."""

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"Unknown question kind {self.kind!r}.")
        if self.id is not None:
            if not self.key:
                object.__setattr__(self, "key", self.id.key)
            elif self.key != self.id.key:
                raise ValueError(f"The question's key {self.key!r} is not its id's ({self.id.key!r}).")


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
        return "nothing"
    if isinstance(guess, bool):
        return "true/false"
    if isinstance(guess, (int, float, Decimal)):
        return "a number"
    if isinstance(guess, str):
        return "text"
    if isinstance(guess, (list, tuple)):
        return f"a list of {len(guess)}"
    return "a table" if isinstance(guess, dict) else type(guess).__name__


def _short(text: str, limit: int = 40) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def short_pieces(guess: Any) -> bool:
    """Whether ``guess`` is a list of at most :data:`MAX_PIECES` texts of at most :data:`MAX_PIECE` characters."""
    return (isinstance(guess, (list, tuple)) and len(guess) <= MAX_PIECES
            and all(isinstance(g, str) and len(g) <= MAX_PIECE for g in guess))


def fits(q: Question, guess: Any) -> str | None:
    """None when ``guess`` has the type and shape ``q``'s kind takes (an answer the widget could have given);
    else what is wrong, in a few words for a message. :func:`judge` only ever sees a guess that fits.

    >>> q = Question("k", "Which?", "choice", "a", options=("a", "b"))
    >>> fits(q, "b"), fits(q, "c"), fits(q, 3)
    (None, '“c” is not one of its options', 'a choice question needs one of its options, not a number')
    """
    if q.kind == "choice":
        if not isinstance(guess, str):
            return f"a choice question needs one of its options, not {what(guess)}"
        allowed = (*q.options, *(a for a in q.also_right if isinstance(a, str))) or (q.answer,)
        return None if guess in allowed else f"“{_short(guess)}” is not one of its options"
    if q.kind == "number":
        return None if as_decimal(guess) is not None else f"a number question needs a number, not {what(guess)}"
    if q.kind in ("split", "word"):
        wanted = "the tokens, typed as text" if q.kind == "split" else "a word"
        if isinstance(guess, str):
            if not guess.strip():
                return f"the answer is empty (it needs {wanted})"
            return None if len(guess) <= MAX_TEXT else f"the answer is longer than {MAX_TEXT:,} characters"
        if q.kind == "split" and isinstance(guess, (list, tuple)):
            return None if guess and short_pieces(guess) else "the tokens are not a list of short pieces of text"
        return f"a {q.kind} question needs {wanted}, not {what(guess)}"
    if q.kind == "order":
        if not isinstance(guess, (list, tuple)) or not all(isinstance(g, str) for g in guess):
            return f"an order question needs its options in a list, not {what(guess)}"
        if not guess:
            return "the order is empty"
        if len(set(guess)) != len(guess):
            return "an option appears twice in the order"
        unknown = next((g for g in guess if g not in q.options), None)
        return None if unknown is None else f"“{_short(unknown)}” is not one of its options"
    return f"unknown question kind {q.kind!r}"


def _number_right(q: Question, guess: Any) -> bool:
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
    head = f"{len(right)} of {plural(len(truth), 'piece')} right (where they fall in the text)"
    if len(right) == len(truth) == len(typed):
        if typed != truth:  # the same cuts, but a space typed where the token has none, or left out where it has one
            return (f"all {plural(len(truth), 'piece')} fall where the tokenizer cut, but the spaces differ: a token "
                    "keeps the space before a word, shown as ·")
        return f"all {plural(len(truth), 'piece')} right"
    if right and len(right) < len(truth):
        head += f": {shown}"
    elif not right:
        head = f"none of the {plural(len(truth), 'piece')} right (where they fall in the text)" if len(truth) > 1 \
            else "the piece is not right"
    if len(typed) != len(truth):
        head += f"; you typed {plural(len(typed), 'piece')}, the tokenizer made {len(truth)}"
    return head


def judge(q: Question, guess: Any) -> tuple[bool, str, tuple[bool, ...]]:
    """(right, detail, per-piece matches) for a guess. A guess that does not fit the question (:func:`fits`)
    is not right, and the detail says why: judging never fails on a guess.

    >>> judge(Question("k", "", "split", ["poha", "wal", "a"]), "poha | wala")
    (False, '1 of 3 pieces right (where they fall in the text): “poha”; you typed 2 pieces, the tokenizer made 3', (True, False))
    """
    problem = fits(q, guess)
    if problem:
        return False, problem, ()
    if q.kind == "choice":
        right = guess == q.answer or guess in q.also_right
        return right, "", ()
    if q.kind == "number":
        return _number_right(q, guess), "", ()
    if q.kind == "word":
        if q.check is None:
            raise ValueError("A word question needs its check.")
        right, detail = q.check(str(guess))
        return right, detail, ()
    if q.kind == "split":
        typed = parse_split(guess) if isinstance(guess, str) else list(guess)
        truth = [t.strip() for t in q.answer]
        matches = piece_matches(typed, truth)
        right = typed == truth
        return right, split_detail(typed, truth, matches), matches
    # order
    right = list(guess) == list(q.answer)
    placed = sum(1 for a, b in zip(guess, q.answer) if a == b)
    return right, f"{placed} of {len(q.answer)} in the right place", ()


__all__ = ["KINDS", "MAX_PIECE", "MAX_PIECES", "MAX_TEXT", "Question", "as_decimal", "decimal_places", "fits",
           "judge", "parse_split", "piece_matches", "short_pieces", "split_detail", "what"]
