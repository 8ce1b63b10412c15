"""How each answer kind is drawn: its input in the predict widget, its verdict, its answer widget in a class poll,
and the lab's answer as a teacher previews it before posing.

The kinds themselves (how a guess of each is checked, judged, written on a worksheet and read back from a vote) are
declared below the UI, in :data:`lessons.answers.ANSWER_KINDS`; this is their drawing, registered by the same names
in :data:`DRAWN`. :mod:`ui.predict` and :mod:`ui.poll` look a kind up here and draw what it says. Adding a kind is
an entry there, one here, and their tests (tests/test_judging.py checks that every kind has both).

All text is the learner's or the engine's: shown escaped, never as Markdown.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import streamlit as st

from i18n import N_, _, current, decimal, number
from lessons.answers import decimal_places, parse_split
from lessons.judging import Question, Verdict
from ui.display import answer_text, md_escape, quantity

RETRY = N_("(A retry: your first answer is the one in the score.)")
"""The verdict's note on a retry (marked for the catalogue: draw it through ``_()``)."""


def option_text(q: Question | dict, option: str) -> str:
    """A choice's option as the learner reads it (Markdown-escaped: a radio's options are Markdown). Its value stays
    the question's (what is judged and kept); a question whose options are the lab's own words (``lab_options``, on
    a posed question's dict too) shows them in the learner's language; data (a pair, a token) reads as it is."""
    words = q.get("lab_options") if isinstance(q, dict) else q.lab_options
    return md_escape(_(option) if words else option)


def _quantity(value: Any, unit: str) -> str:
    """An answer with its unit, as the learner's language writes it: English by the one plural rule
    (:func:`tokenizer.plaintext.quantity`), Hindi with its numbers grouped the Indian way and the unit through the
    catalogue (a lesson exercise's own unit is lesson content, and stays as written)."""
    if current() == "en":
        return quantity(value, unit)
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return answer_text(value) + (f" {_(unit)}" if unit else "")
    shown = number(value) if float(value).is_integer() else decimal(value, decimal_places(value))
    return shown + (f" {_(unit)}" if unit else "")


# -- the predict widget's inputs -----------------------------------------------------------------------------------
def _radio(q: Question, key: str) -> None:
    st.radio(_("Your prediction"), q.options, index=None, key=key, horizontal=True,
             format_func=lambda option: option_text(q, option))


def _number(q: Question, key: str) -> None:
    places = decimal_places(q.answer)
    step = {"step": 1} if not places else {"step": 10.0 ** -places, "format": f"%.{places}f"}
    label = _("Your prediction ({unit})", unit=_(q.unit)) if q.unit else _("Your prediction")
    st.number_input(label, value=None, key=key, placeholder=_("type a number"), **step)


def _tokens(q: Question, key: str) -> None:
    st.text_input(_("Your prediction: the tokens, separated by |"), key=key,
                  placeholder=_("for example: {tokens}", tokens="poha | wal | a"))


def _word(q: Question, key: str) -> None:
    st.text_input(_("Your answer"), key=key, placeholder=_("type a word"))


def _in_order(q: Question, key: str) -> None:
    st.multiselect(_("Your prediction: pick them in order, first to last"), q.options, key=key)  # plain text


# -- a class poll's answer widget (the posed question as every screen gets it: a dict, never its answer) -----------
def _vote_text(posed: dict, key: str) -> Any:
    return st.text_input(_("Your answer"), key=key, max_chars=200)


def _vote_choice(posed: dict, key: str) -> Any:
    if not posed.get("choices"):
        return _vote_text(posed, key)
    # a radio's options are Markdown: a posed choice is shown as typed (never a link), its value unchanged
    shown = {option: option_text(posed, option) for option in posed["choices"]}  # this run's language
    return st.radio(_("Your answer"), posed["choices"], index=None, key=key, horizontal=True, format_func=shown.get)


def _vote_number(posed: dict, key: str) -> Any:
    unit = posed.get("unit")
    return st.number_input(_("Your answer ({unit})", unit=_(unit)) if unit else _("Your answer"), value=None, key=key)


def _vote_order(posed: dict, key: str) -> Any:
    if not posed.get("items"):
        return _vote_text(posed, key)
    picked = st.multiselect(_("Your answer: pick them in order, first to last"), posed["items"], key=key)
    return " | ".join(picked) if picked else None


# -- the verdict: the guess beside the truth, and why (plain text, a line each) ------------------------------------
def _shown(value: Any) -> str:
    """A guess or a truth as a verdict writes it (a split typed as text: its pieces)."""
    return answer_text(parse_split(value) if isinstance(value, str) else value)


def _told(q: Question, v: Verdict, shown: Callable[[Question, Any], str]) -> list[str]:
    """Right or not, the guess beside the lab's answer, the judging's detail and the explanation (with the hint
    when wrong)."""
    if v.right:
        head, why = _("Right! You predicted {guess}.", guess=shown(q, v.guess)), q.explain
    else:
        head = _("Not this time. You predicted {guess}; the lab computed {answer}.", guess=shown(q, v.guess),
                 answer=shown(q, q.answer))
        why = q.explain + ("\n" + _("Remember: {hint}", hint=q.hint) if q.hint else "")
    parts = [head]
    if v.detail:
        parts.append(v.detail[0].upper() + v.detail[1:] + ".")
    return parts + ([why] if why else [])


def _as_text(q: Question, value: Any) -> str:
    if q.lab_options and isinstance(value, str):
        return _(value)
    return answer_text(value)


def _choice_verdict(q: Question, v: Verdict) -> list[str]:
    """A pick tied with the lab's is right, and says so, with why the lab picked the other."""
    if v.right and v.guess != q.answer:
        head = _("Right: {guess} ties with the lab's pick, {answer}.", guess=_as_text(q, v.guess),
                 answer=_as_text(q, q.answer))
        why = q.explain_also_right or q.explain
        return [head] + ([v.detail[0].upper() + v.detail[1:] + "."] if v.detail else []) + ([why] if why else [])
    return _told(q, v, _as_text)


def _number_verdict(q: Question, v: Verdict) -> list[str]:
    """With the unit, by the one plural rule: "1 token", "2 code points"."""
    return _told(q, v, lambda q, value: _quantity(value, q.unit))


def _split_verdict(q: Question, v: Verdict) -> list[str]:
    return _told(q, v, lambda q, value: _shown(value))


def _word_verdict(q: Question, v: Verdict) -> list[str]:
    """Any word that meets the rule: what the guess does, and an example that works."""
    head = (_("Right!") if v.right else _("Not this time.")) + " " + (v.detail or "")
    if not v.right:
        head += " " + _("For example, “{word}” works.", word=answer_text(q.answer))
    why = q.explain + ("\n" + _("Remember: {hint}", hint=q.hint) if q.hint and not v.right else "")
    return [head] + ([why] if why else [])


# -- the teacher's preview before posing (plain text): the lab's answer --------------------------------------------
def _preview(q: Question) -> list[str]:
    return [_("The lab's answer: {answer}", answer=answer_text(q.answer))]


def _number_preview(q: Question) -> list[str]:
    return [_("The lab's answer: {answer}", answer=_quantity(q.answer, q.unit) if current() != "en"
              else answer_text(q.answer) + (f" {q.unit}" if q.unit else ""))]


def _choice_preview(q: Question) -> list[str]:
    """Each option marked right, tied (also right) or wrong."""
    lines = _preview(q)
    for option in q.options:
        mark = "✓" if option == q.answer else "✓ " + _("(a tie: also right)") if option in q.also_right else "✗"
        lines.append(f"  {mark}  {_(option) if q.lab_options else option}")
    if q.also_right:
        lines.append(_("{n} options are right (a tie): a learner who picks any of them is right.",
                       n=number(len(q.also_right) + 1)))
    return lines


@dataclass(frozen=True)
class Drawn:
    """How one answer kind is drawn."""

    input: Callable[[Question, str], None]
    """The predict widget's answer input for the question, under the widget key it is given."""
    verdict: Callable[[Question, Verdict], list[str]]
    """The verdict's lines (without the retry note): the guess beside the truth, the detail, why."""
    vote: Callable[[dict, str], Any]
    """A class poll's answer widget for a posed question (:func:`ui.classroom.payload`); returns the answer."""
    preview: Callable[[Question], list[str]] = _preview
    """What a teacher reads before posing it (the Class page's own questions): the lab's answer, as lines."""
    more: bool = True
    """Whether the verdict offers the question's detail one click away (``Question.more``)."""


DRAWN: dict[str, Drawn] = {
    "choice": Drawn(_radio, _choice_verdict, _vote_choice, preview=_choice_preview),
    "number": Drawn(_number, _number_verdict, _vote_number, preview=_number_preview),
    "split": Drawn(_tokens, _split_verdict, _vote_text),
    "order": Drawn(_in_order, lambda q, v: _told(q, v, _as_text), _vote_order),
    "word": Drawn(_word, _word_verdict, _vote_text, more=False),
}
"""Every answer kind's drawing, by the names of :data:`lessons.answers.ANSWER_KINDS`."""


def draw_vote(posed: dict, key: str) -> Any:
    """A posed question's answer widget; a kind this lab does not know (posed by another version) is typed."""
    drawn = DRAWN.get(posed.get("kind", ""))
    return (drawn.vote if drawn else _vote_text)(posed, key)


__all__ = ["DRAWN", "RETRY", "Drawn", "draw_vote"]
