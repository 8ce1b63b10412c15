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
from decimal import Decimal
from typing import Any, Callable

import streamlit as st

from ui.display import answer_text, callout_html, md_escape, quantity

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


def judge(q: Question, guess: Any) -> tuple[bool, str, tuple[bool, ...]]:
    """(right, detail, per-piece matches) for a guess."""
    if q.kind == "choice":
        right = guess == q.answer or guess in q.also_right
        return right, "", ()
    if q.kind == "number":
        right = guess is not None and abs(float(guess) - float(q.answer)) <= q.tolerance
        return right, "", ()
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
        detail = f"{sum(matches)} of {len(truth)} pieces in the right place" + (
            f"; you typed {len(typed)} pieces, the tokenizer made {len(truth)}" if len(typed) != len(truth) else ""
        )
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
    """(right, tried) over this session's first answers (in ``scope``, or all)."""
    store = st.session_state.get(STORE, {})
    rows = [r for r in store.values() if scope is None or r.get("scope") == scope]
    return sum(1 for r in rows if r["right"]), len(rows)


def answered(key: str) -> bool:
    return key in st.session_state.get(STORE, {})


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
    if last is None and answered(q.key) and not retrying:  # answered earlier (another page, a reload of the page)
        kept = st.session_state[STORE][q.key]
        right, detail, matches = judge(q, kept["guess"])
        last = (kept["guess"], right, True, detail, matches)
    if last is None:
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


__all__ = ["Question", "Verdict", "answered", "ask", "draw_verdict", "judge", "parse_split", "record", "score",
           "score_line"]
