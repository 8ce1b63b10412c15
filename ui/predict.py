"""Predict, then run: the one widget that asks the learner to commit before the lab shows the truth.

Every prediction in the lab goes through :func:`ask`: the merge a trainer
picks next, how many tokens a word needs, which way a curve moves, the
tokens a word splits into, the order merges were learned in. The page builds
a :class:`Question` whose answer the engine computed, calls ``ask`` and, until
it returns a :class:`Verdict`, keeps the answer hidden.

Rules the widget keeps everywhere:

- The first answer is the one that counts; the learner may try again, and the
  retry is shown but does not change the score.
- An answer that is as good as the truth counts as right, with a sentence
  saying why the lab picked the other (``also_right``: a pair tied with the
  winner is right, and the tie rule explains the pick).
- The truth is shown beside the guess, with an explanation written for that
  question.
- Scores are kept per session across pages (``score()``), by scope.

All text is the learner's or the engine's: shown escaped, never as Markdown.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import ROUND_HALF_DOWN, ROUND_HALF_UP, Decimal, InvalidOperation, localcontext
from typing import Any, Callable

import streamlit as st

from lessons.progress import MAX_PIECES, MAX_TEXT  # the longest typed answer a progress file keeps
from ui.display import answer_text, callout_html, md_escape, plural, quantity

STORE = "lab.predictions"
KINDS = ("choice", "number", "split", "order", "word")


@dataclass(frozen=True)
class Question:
    """One prediction. ``answer`` is computed by the engine, never typed into content.

    kind     ``"choice"`` (one of ``options``), ``"number"``, ``"split"`` (type the tokens,
             separated by ``|``, compared piece by piece), ``"order"`` (put ``options`` in order) or
             ``"word"`` (type something that meets a rule: ``check(guess) -> (right, what it does)``).
    answer   an option; a number; the list of tokens; the options in the right order; an example word.
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
    check: Callable[[str], tuple[bool, str]] | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"Unknown question kind {self.kind!r}.")


@dataclass(frozen=True)
class Verdict:
    guess: Any
    right: bool
    counted: bool
    """True for the first answer (the one in the score); False for a retry."""
    detail: str = ""
    matches: tuple[bool, ...] = field(default=())
    """For a split: which typed pieces match the truth, position by position."""


# -- judging (pure) ------------------------------------------------------------------------------
def parse_split(text: str) -> list[str]:
    """``"poha | wal | a"`` -> ``["poha", "wal", "a"]``; a piece keeps inner spaces, not the edges around ``|``."""
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


def _what(guess: Any) -> str:
    """A guess described for a message: what was found where something else was expected."""
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


def fits(q: Question, guess: Any) -> str | None:
    """None when ``guess`` has the type and shape ``q``'s kind takes (an answer the widget could have given);
    else what is wrong, in a few words for a message. :func:`judge` only ever sees a guess that fits.

    >>> q = Question("k", "Which?", "choice", "a", options=("a", "b"))
    >>> fits(q, "b"), fits(q, "c"), fits(q, 3)
    (None, '“c” is not one of its options', 'a choice question needs one of its options, not a number')
    """
    if q.kind == "choice":
        if not isinstance(guess, str):
            return f"a choice question needs one of its options, not {_what(guess)}"
        allowed = (*q.options, *(a for a in q.also_right if isinstance(a, str))) or (q.answer,)
        return None if guess in allowed else f"“{_short(guess)}” is not one of its options"
    if q.kind == "number":
        return None if as_decimal(guess) is not None else f"a number question needs a number, not {_what(guess)}"
    if q.kind in ("split", "word"):
        what = "the tokens, typed as text" if q.kind == "split" else "a word"
        if isinstance(guess, str):
            if not guess.strip():
                return f"the answer is empty (it needs {what})"
            return None if len(guess) <= MAX_TEXT else f"the answer is longer than {MAX_TEXT:,} characters"
        if q.kind == "split" and isinstance(guess, (list, tuple)):
            if not guess or len(guess) > MAX_PIECES or not all(isinstance(g, str) and len(g) <= 200 for g in guess):
                return "the tokens are not a list of short pieces of text"
            return None
        return f"a {q.kind} question needs {what}, not {_what(guess)}"
    if q.kind == "order":
        if not isinstance(guess, (list, tuple)) or not all(isinstance(g, str) for g in guess):
            return f"an order question needs its options in a list, not {_what(guess)}"
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


def judge(q: Question, guess: Any) -> tuple[bool, str, tuple[bool, ...]]:
    """(right, detail, per-piece matches) for a guess. A guess that does not fit the question (:func:`fits`)
    is not right, and the detail says why: judging never fails on a guess."""
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
        matches = tuple(i < len(truth) and typed[i] == truth[i] for i in range(len(typed)))
        right = typed == truth
        detail = f"{sum(matches)} of {plural(len(truth), 'piece')} in the right place" + (
            f"; you typed {plural(len(typed), 'piece')}, the tokenizer made {len(truth)}"
            if len(typed) != len(truth) else "")
        return right, detail, matches
    # order
    right = list(guess) == list(q.answer)
    placed = sum(1 for a, b in zip(guess, q.answer) if a == b)
    return right, f"{placed} of {len(q.answer)} in the right place", ()


def record(q: Question, guess: Any) -> Verdict:
    """Judge a guess and keep it: the first answer to a question counts, later ones are retries."""
    right, detail, matches = judge(q, guess)
    store = st.session_state.setdefault(STORE, {})
    first = q.key not in store
    if first:
        store[q.key] = {"guess": guess, "right": right, "scope": q.scope}
    st.session_state[_last_key(q)] = (guess, right, first, detail, matches)
    st.session_state.pop(f"predict._retry.{q.key}", None)
    return Verdict(guess, right, first, detail, matches)


def score(scope: str | None = None) -> tuple[int, int]:
    """(right, tried) over this session's first answers (in ``scope``, or all). ``right`` is always the lab's
    own judgement (:func:`record`, or a loaded file's guess judged again); an answer loaded from a file whose
    question is not known yet (``right`` None, see :func:`waiting`) is in neither number."""
    rows = [r for r in _rows(scope) if r.get("right") is not None]
    return sum(1 for r in rows if r["right"] is True), len(rows)


def waiting(scope: str | None = None) -> int:
    """Answers loaded from a progress file that wait for their question (asked again on its page) to be judged."""
    return sum(1 for r in _rows(scope) if r.get("right") is None)


def _rows(scope: str | None) -> list[dict]:
    store = st.session_state.get(STORE, {})
    return [r for r in store.values() if scope is None or r.get("scope") == scope]


def answered(key: str | Question) -> bool:
    """Whether the question has a kept first answer. Given the Question itself (not only its key), an answer
    kept for it that does not fit it (one loaded from a file) is set aside first, so a page that hides the
    truth until it is answered keeps it hidden; :func:`ask` then says why the answer was set aside."""
    store = st.session_state.get(STORE, {})
    if isinstance(key, Question):
        if key.key in store and (problem := fits(key, store[key.key].get("guess"))):
            _set_aside(key, problem)
        key = key.key
    return key in store


def _set_aside(q: Question, problem: str) -> None:
    del st.session_state[STORE][q.key]
    st.session_state[f"predict._set_aside.{q.key}"] = problem


def _last_key(q: Question) -> str:
    return f"predict._last.{q.key}"


def _input_key(q: Question) -> str:
    return f"predict.{q.key}.input"


# -- drawing -----------------------------------------------------------------------------------
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


def _check(q: Question) -> None:
    guess = st.session_state.get(_input_key(q))
    if guess is None or guess == "" or guess == []:
        st.session_state[f"predict._empty.{q.key}"] = True
        return
    record(q, guess)


def _retry(q: Question) -> None:
    st.session_state.pop(_last_key(q), None)
    st.session_state.pop(_input_key(q), None)
    st.session_state[f"predict._retry.{q.key}"] = True


def _draw_input(q: Question) -> None:
    key = _input_key(q)
    if q.kind == "choice":
        st.radio("Your prediction", q.options, index=None, key=key, horizontal=True, format_func=md_escape)
    elif q.kind == "number":
        places = decimal_places(q.answer)
        step = {"step": 1} if not places else {"step": 10.0 ** -places, "format": f"%.{places}f"}
        st.number_input(f"Your prediction{f' ({q.unit})' if q.unit else ''}", value=None, key=key,
                        placeholder="type a number", **step)
    elif q.kind == "split":
        st.text_input("Your prediction: the tokens, separated by |", key=key, placeholder="for example: poha | wal | a")
    elif q.kind == "word":
        st.text_input("Your answer", key=key, placeholder="type a word")
    else:
        st.multiselect("Your prediction: pick them in order, first to last", q.options, key=key)  # plain text


def ask(q: Question, *, button: str = "Check") -> Verdict | None:
    """Draw the question (or the verdict, once answered); None while the learner has not answered.

    After an answer the verdict is drawn: the guess beside the truth, the
    explanation, and whether it counted; with a "Try again" button.
    """
    last = st.session_state.get(_last_key(q))
    retrying = st.session_state.get(f"predict._retry.{q.key}", False)
    if last is None and answered(q) and not retrying:  # answered earlier (another page, a loaded file)
        last = _kept(q)
    if last is None:
        if set_aside := st.session_state.pop(f"predict._set_aside.{q.key}", None):
            st.html(callout_html(f"Your earlier answer to this question was set aside: {set_aside}. "
                                 "Answer it again.", "warning"))
        st.markdown(md_escape(q.prompt))
        _draw_input(q)
        st.button(button, key=f"predict.{q.key}.check", type="primary", on_click=_check, args=(q,))
        if st.session_state.pop(f"predict._empty.{q.key}", False):
            st.warning("Make a prediction first, then press **Check**.")
        return None
    guess, right, counted, detail, matches = last
    verdict = Verdict(guess, right, counted, detail, matches)
    draw_verdict(q, verdict)
    st.button("Try again", key=f"predict.{q.key}.retry", on_click=_retry, args=(q,), type="tertiary",
              help="Answer again. Your first answer is the one that counts in the score.")
    return verdict


def _kept(q: Question) -> tuple:
    """The kept first answer to ``q`` (one that fits it: :func:`answered` set aside any other), judged now
    against the question as it is asked; a loaded answer that waited for its page is stored judged."""
    store = st.session_state[STORE]
    kept = store[q.key]
    guess = kept["guess"]
    right, detail, matches = judge(q, guess)
    if kept.get("right") is None or kept["right"] != right or kept.get("scope") != q.scope:
        store[q.key] = {"guess": guess, "right": right, "scope": q.scope}
    return guess, right, True, detail, matches


def draw_verdict(q: Question, v: Verdict) -> None:
    truth = answer_text(q.answer)
    guess = answer_text(v.guess if q.kind != "split" or not isinstance(v.guess, str) else parse_split(v.guess))
    if q.kind == "word":
        head = ("Right! " if v.right else "Not this time. ") + (v.detail or "")
        if not v.right:
            head += f" For example, “{truth}” works."
        why = q.explain + (f"\nRemember: {q.hint}" if q.hint and not v.right else "")
        parts = [head] + ([why] if why else [])
        if not v.counted:
            parts.append("(A retry: your first answer is the one in the score.)")
        st.html(callout_html("\n".join(parts), "success" if v.right else "info"))
        return
    if v.right and v.guess != q.answer and q.kind == "choice":
        head = f"Right: {guess} ties with the lab's pick, {truth}."
        why = q.explain_also_right or q.explain
    elif v.right:
        head = f"Right! You predicted {quantity(v.guess, q.unit) if q.kind == 'number' else guess}."
        why = q.explain
    else:
        if q.kind == "number":  # with the unit, by the one plural rule: "1 token", "2 code points"
            guess, truth = quantity(v.guess, q.unit), quantity(q.answer, q.unit)
        head = f"Not this time. You predicted {guess}; the lab computed {truth}."
        why = q.explain + (f"\nRemember: {q.hint}" if q.hint else "")
    parts = [head]
    if v.detail:
        parts.append(v.detail[0].upper() + v.detail[1:] + ".")
    if why:
        parts.append(why)
    if not v.counted:
        parts.append("(A retry: your first answer is the one in the score.)")
    st.html(callout_html("\n".join(parts), "success" if v.right else "info"))


def score_line(scope: str | None = None) -> str:
    right, tried = score(scope)
    return f"{right} of {tried}" if tried else "none yet"


__all__ = ["Question", "Verdict", "answered", "as_decimal", "ask", "draw_verdict", "fits", "judge", "parse_split",
           "record", "score", "score_line", "waiting"]
