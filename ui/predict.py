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

from typing import Any

import streamlit as st

from i18n import _, number
from lessons.judging import Question, Verdict, fits, judge
from ui import classroom
from ui.answers import DRAWN
from ui.answers import RETRY as RETRY_NOTE
from ui.display import callout_html, md_escape
from ui.state import Key

STORE = "lab.predictions"
"""The session's first answers where it is now: ``{question key: {"guess", "right", "scope", "id"}}`` (``id``: the
question's :class:`lessons.progress.QuestionId`, what "Save my progress" writes; ``right`` None: loaded, waiting for
its page). An answer given in a class (or brought back from one) also has ``"class"``: the class's code, so what a
learner answered in a class and outside it can be told apart. Read it through :func:`store`."""
CONTEXT = "lab.predictions.context"
"""Where :data:`STORE`'s answers were given: "" on one's own, ``class:<code>`` in a class."""
STASH = "lab.predictions.stash"
"""The answers of the other contexts this session has been in, by context, while it is in another."""
RETRY, SET_ASIDE, EMPTY, LAST = (Key("predict", n) for n in ("_retry", "_set_aside", "_empty", "_last"))
"""Per question (``RETRY.of(q.key)``): "Try again" pressed; why its kept answer was set aside; Check pressed with no
answer; the verdict drawn last (per context too: ``LAST.of(context, q.key)``)."""


# -- the store: one per context, so answers in a class and outside it never mix -------------------------------------
def context() -> str:
    """Where this browser answers now: "" on one's own (kept in the browser, ui/keep.py), ``class:<code>`` in a class
    (kept on the server by the class)."""
    code = classroom.in_class()
    return f"class:{code}" if code else ""


def store() -> dict[str, dict[str, Any]]:
    """The answers of the context this browser is in now. Joining a class puts the learner's own answers aside (the
    class asks its questions afresh, and keeps its answers on the server), leaving it brings them back: a class's
    answers never count as one's own, nor one's own in a class."""
    here = context()
    if st.session_state.get(CONTEXT, "") != here:
        stash = st.session_state.setdefault(STASH, {})
        stash[st.session_state.get(CONTEXT, "")] = st.session_state.pop(STORE, {})
        st.session_state[STORE] = stash.pop(here, {})
        st.session_state[CONTEXT] = here
    return st.session_state.setdefault(STORE, {})


def set_store(answers: dict[str, dict[str, Any]]) -> None:
    """Replace the answers of the context this browser is in now (a loaded file, a class's answers back)."""
    store()
    st.session_state[STORE] = answers


def own_answers() -> dict[str, dict[str, Any]]:
    """The learner's own answers (given outside any class), wherever this browser is now: what the browser keeps.
    Never an answer marked with a class (given in one, or brought back from one), whichever store it is in."""
    answers = store() if context() == "" else st.session_state.get(STASH, {}).get("", {})
    return {key: entry for key, entry in answers.items() if not entry.get("class")}


def set_own_answers(answers: dict[str, dict[str, Any]]) -> None:
    """Replace the learner's own answers (read back from what the browser kept, or forgotten)."""
    if context() == "":
        set_store(answers)
    else:
        st.session_state.setdefault(STASH, {})[""] = answers


# -- the store -----------------------------------------------------------------------------------
# Judging (whether a guess fits its question and is right) is lessons.judging's, with no UI: a loaded
# progress file is judged by the same rules.
def _entry(q: Question, guess: Any, right: bool | None, in_class: str | None = None) -> dict[str, Any]:
    entry = {"guess": guess, "right": right, "scope": q.scope, "id": q.id}
    return entry | {"class": in_class} if in_class else entry


def record(q: Question, guess: Any, *, kept: bool = False) -> Verdict:
    """Judge a guess and keep it: the first answer to a question counts, later ones are retries. ``kept``: the
    class's server has it already (a poll's answer, kept for every voter at Reveal), so it is not sent again."""
    right, detail, matches = judge(q, guess)
    answers = store()
    first = q.key not in answers
    if first:
        answers[q.key] = _entry(q, guess, right, classroom.learning_in())
    st.session_state[_last_key(q)] = (guess, right, first, detail, matches)
    st.session_state.pop(RETRY.of(q.key), None)
    if not kept:
        classroom.remember_answer(q, guess, right)  # a learner in a class: kept on the server too
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
    return [r for r in store().values() if scope is None or r.get("scope") == scope]


def answered(key: str | Question) -> bool:
    """Whether the question has a kept first answer. Given the Question itself (not only its key), an answer
    kept for it that does not fit it (one loaded from a file) is set aside first, so a page that hides the
    truth until it is answered keeps it hidden; :func:`ask` then says why the answer was set aside."""
    answers = store()
    if isinstance(key, Question):
        if key.key in answers and (problem := fits(key, answers[key.key].get("guess"))):
            _set_aside(key, problem)
        key = key.key
    return key in answers


def _set_aside(q: Question, problem: str) -> None:
    del store()[q.key]
    st.session_state[SET_ASIDE.of(q.key)] = problem


def _last_key(q: Question) -> str:
    """The verdict drawn for ``q`` last, in the context it was given in (a class's is not one's own)."""
    return LAST.of(context(), q.key)


_INPUT = ("predict.", ".input")


def input_key(q: Question) -> str:
    """The key of a question's answer widget (the tests set it)."""
    return f"{_INPUT[0]}{q.key}{_INPUT[1]}"


def key_of_input(widget_key: str | None) -> str | None:
    """The question key an answer widget's key belongs to (the inverse of :func:`input_key`), or None."""
    head, tail = _INPUT
    if widget_key and widget_key.startswith(head) and widget_key.endswith(tail):
        return widget_key[len(head):-len(tail)]
    return None


# -- drawing -----------------------------------------------------------------------------------
def _check(q: Question) -> None:
    guess = st.session_state.get(input_key(q))
    if guess is None or guess == "" or guess == []:
        st.session_state[EMPTY.of(q.key)] = True
        return
    record(q, guess)


def _retry(q: Question) -> None:
    st.session_state.pop(_last_key(q), None)
    st.session_state.pop(input_key(q), None)
    st.session_state[RETRY.of(q.key)] = True


def _draw_input(q: Question) -> None:
    DRAWN[q.kind].input(q, input_key(q))  # by its answer kind (ui.answers)


def ask(q: Question, *, button: str | None = None) -> Verdict | None:
    """Draw the question (or the verdict, once answered); None while the learner has not answered.

    After an answer the verdict is drawn: the guess beside the truth, the
    explanation, and whether it counted; with a "Try again" button. ``button``: the check button's label,
    already translated (default: "Check", in the learner's language).
    """
    last = st.session_state.get(_last_key(q))
    retrying = st.session_state.get(RETRY.of(q.key), False)
    if last is None and answered(q) and not retrying:  # answered earlier (another page, a loaded file)
        last = _kept(q)
    if last is None:
        if set_aside := st.session_state.pop(SET_ASIDE.of(q.key), None):
            st.html(callout_html(_("Your earlier answer to this question was set aside: {why}. Answer it again.",
                                   why=set_aside), "warning"))
        st.markdown(md_escape(q.prompt))
        _draw_input(q)
        st.button(button or _("Check"), key=f"predict.{q.key}.check", type="primary", on_click=_check, args=(q,))
        if st.session_state.pop(EMPTY.of(q.key), False):
            st.warning(_("Make a prediction first, then press **{check}**.", check=button or _("Check")))
        classroom.pose_button(q)  # the teacher of a class: every learner answers it on their own screen
        return None
    guess, right, counted, _detail, matches = last
    detail = judge(q, guess)[1]  # worded now, in the learner's language (it may have changed since the answer)
    verdict = Verdict(guess, right, counted, detail, matches)
    draw_verdict(q, verdict)
    st.button(_("Try again"), key=f"predict.{q.key}.retry", on_click=_retry, args=(q,), type="tertiary",
              help=_("Answer again. Your first answer is the one that counts in the score."))
    classroom.pose_button(q)
    return verdict


def verdict_of(q: Question) -> Verdict | None:
    """The verdict of the kept first answer to ``q``, judged now (None when it has none): to show it again without
    its widgets (a question drawn twice on a page would be two widgets with one key)."""
    if not answered(q):
        return None
    guess, right, counted, detail, matches = _kept(q)
    return Verdict(guess, right, counted, detail, matches)


def _kept(q: Question) -> tuple:
    """The kept first answer to ``q`` (one that fits it: :func:`answered` set aside any other), judged now
    against the question as it is asked; a loaded answer that waited for its page is stored judged."""
    answers = store()
    kept = answers[q.key]
    guess = kept["guess"]
    right, detail, matches = judge(q, guess)
    if kept != _entry(q, guess, right, kept.get("class")):
        answers[q.key] = _entry(q, guess, right, kept.get("class"))
    return guess, right, True, detail, matches


def draw_verdict(q: Question, v: Verdict) -> None:
    """The verdict, as its answer kind words it (ui.answers): the guess beside the truth, the detail, why."""
    drawn = DRAWN[q.kind]
    parts = drawn.verdict(q, v) + ([] if v.counted else [_(RETRY_NOTE)])
    st.html(callout_html("\n".join(parts), "success" if v.right else "info", q.more if drawn.more else None))


def score_line(scope: str | None = None) -> str:
    right, tried = score(scope)
    return _("{right} of {tried}", right=number(right), tried=number(tried)) if tried else _("none yet")


__all__ = ["Question", "Verdict", "answered", "ask", "context", "draw_verdict", "own_answers", "record", "score",
           "score_line", "set_own_answers", "set_store", "store", "verdict_of", "waiting"]
