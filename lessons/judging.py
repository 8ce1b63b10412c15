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

Each rule is its answer kind's, declared once in :mod:`lessons.answers` (``ANSWER_KINDS``): these two look the
kind up.

>>> from decimal import Decimal
>>> q = Question("k", "How many tokens?", "number", Decimal("2.24"), exact=Decimal("2.235"))
>>> [judge(q, g)[0] for g in (2.23, 2.24, 2.25)]
[True, True, False]
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .answers import ANSWER_KINDS, KINDS


@dataclass(frozen=True)
class Question:
    """One prediction. ``answer`` is computed by the engine, never typed into content.

    kind     its answer kind (:data:`lessons.answers.ANSWER_KINDS`): ``"choice"`` (one of ``options``),
             ``"number"``, ``"split"`` (type the tokens, separated by ``|``, compared piece by piece),
             ``"order"`` (put ``options`` in order) or ``"word"`` (type something that meets a rule:
             ``check(guess) -> (right, what it does)``).
    answer   an option; a number; the list of tokens; the options in the right order; an example word.
    key      the question's name in this browser session (the predict store, its widgets). Given an ``id``
             and no key, the key is the id's (:class:`lessons.progress.QuestionId`).
    id       the question's stable name in a progress file: its family (a fixed name) and its parameters,
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
    lab_options: bool = False
    """The options are the lab's own words, marked for the catalogue (``N_``): kept and judged as written here, shown
    in the learner's language (:func:`ui.answers.option_text`). False: they are data (a pair, a token) or lesson
    content, shown as they are."""

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"Unknown question kind {self.kind!r}.")
        if self.id is not None:
            if not self.key:
                object.__setattr__(self, "key", self.id.key)
            elif self.key != self.id.key:
                raise ValueError(f"The question's key {self.key!r} is not its id's ({self.id.key!r}).")


def fits(q: Question, guess: Any) -> str | None:
    """None when ``guess`` has the type and shape ``q``'s answer kind takes (an answer the widget could have given);
    else what is wrong, in a few words for a message. :func:`judge` only ever sees a guess that fits.

    >>> q = Question("k", "Which?", "choice", "a", options=("a", "b"))
    >>> fits(q, "b"), fits(q, "c"), fits(q, 3)
    (None, '“c” is not one of its options', 'a choice question needs one of its options, not a number')
    """
    kind = ANSWER_KINDS.get(q.kind)
    return kind.fits(q, guess) if kind else f"unknown question kind {q.kind!r}"


def judge(q: Question, guess: Any) -> tuple[bool, str, tuple[bool, ...]]:
    """(right, detail, per-piece matches) for a guess. A guess that does not fit the question (:func:`fits`)
    is not right, and the detail says why: judging never fails on a guess.

    >>> judge(Question("k", "", "split", ["poha", "wal", "a"]), "poha | wala")
    (False, '1 of 3 pieces right (where they fall in the text): “poha”; you typed 2 pieces, the tokenizer made 3', (True, False))
    """
    problem = fits(q, guess)
    if problem:
        return False, problem, ()
    return ANSWER_KINDS[q.kind].judge(q, guess)


@dataclass(frozen=True)
class Verdict:
    """A guess judged, as the predict widget shows it."""

    guess: Any
    right: bool
    counted: bool
    """True for the first answer (the one in the score); False for a retry."""
    detail: str = ""
    matches: tuple[bool, ...] = field(default=())
    """For a split: which typed pieces match the truth, position by position."""


__all__ = ["Question", "Verdict", "fits", "judge"]
