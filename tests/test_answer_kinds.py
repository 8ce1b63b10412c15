"""The answer kinds' one registry (lessons/answers.py below the UI, ui/answers.py for drawing): every kind is declared
in both, and what each declares (a worksheet's blank, a vote read back, the options a posed question sends, a shape
checked before its question is known) does what the pages and the progress file rely on. Each case small enough
to check by hand."""

from __future__ import annotations

import doctest

import pytest

import lessons.answers
from lessons.answers import ANSWER_KINDS, KINDS
from lessons.judging import Question, fits
from ui.answers import DRAWN


def test_every_answer_kind_is_declared_below_the_ui_and_drawn_in_it() -> None:
    assert set(DRAWN) == set(ANSWER_KINDS) == set(KINDS) == {"choice", "number", "split", "order", "word"}
    assert all(kind.name == name for name, kind in ANSWER_KINDS.items())


def test_the_worked_examples_in_the_registry_hold() -> None:
    result = doctest.testmod(lessons.answers)
    assert result.attempted and not result.failed


def test_a_kind_unknown_to_the_registry_is_no_question() -> None:
    with pytest.raises(ValueError, match="Unknown question kind 'essay'"):
        Question("k", "Why?", "essay", "because")


@pytest.mark.parametrize(("kind", "options", "unit", "lines"), [
    ("choice", ("a", "b"), "", ["- [ ] a", "- [ ] b"]),
    ("order", ("b", "a"), "", ["Number these 1, 2, 3… in the order they happen:", "- ( ) b", "- ( ) a"]),
    ("split", (), "", ["Tokens, separated by | : ____________________"]),
    ("number", (), "tokens", ["Your answer (tokens): __________"]),
    ("number", (), "", ["Your answer: __________"]),
    ("word", (), "", ["Your answer: __________"]),
])
def test_each_kind_is_written_on_a_worksheet_as_its_blank(kind, options, unit, lines) -> None:
    assert ANSWER_KINDS[kind].blank(options, unit) == lines


def test_only_a_word_is_keyed_as_an_example() -> None:
    assert ANSWER_KINDS["word"].keyed("chai") == "any word that meets the rule, for example chai"
    assert {ANSWER_KINDS[k].keyed("chai") for k in KINDS if k != "word"} == {"chai"}


@pytest.mark.parametrize(("kind", "vote", "guess"), [
    ("number", "7,650", 7650),  # answer_text writes the thousands' commas
    ("number", "2.5", 2.5),
    ("number", "many", "many"),  # not a number: judged (and refused) as the text it is
    ("order", "c | a | b", ["c", "a", "b"]),
    ("choice", "h + a", "h + a"),
    ("split", "poha | wal | a", "poha | wal | a"),  # a split judges the typed text itself
    ("word", "chai", "chai"),
])
def test_a_vote_is_read_back_as_its_kinds_widget_gives_it(kind, vote, guess) -> None:
    read = ANSWER_KINDS[kind].from_vote(vote)
    assert read == guess and type(read) is type(guess)


def test_a_posed_question_sends_its_options_as_its_kind_says() -> None:
    assert ANSWER_KINDS["choice"].posed_options(("a", "b")) == {"choices": ["a", "b"], "items": None}
    assert ANSWER_KINDS["order"].posed_options(("a", "b")) == {"choices": None, "items": ["a", "b"]}
    assert ANSWER_KINDS["number"].posed_options(()) == {"choices": None, "items": None}
    assert ANSWER_KINDS["choice"].posed_options(()) == {"choices": None, "items": None}


@pytest.mark.parametrize(("kind", "guess", "problem"), [
    ("choice", "any option at all", None),  # its options are not known yet: any text may be one
    ("choice", 3, "a choice question needs one of its options, not a number"),
    ("number", 7, None),
    ("number", "7", "a number question needs a number, not text"),
    ("order", ["b", "a"], None),
    ("order", ["a", "a"], "an option appears twice in the order"),
    ("split", " ", "the answer is empty (it needs the tokens, typed as text)"),
])
def test_before_its_question_is_known_only_a_guesss_shape_is_checked(kind, guess, problem) -> None:
    """What the progress file checks of an answer that waits for its page (a question made from the learner's text)."""
    assert ANSWER_KINDS[kind].fits(None, guess) == problem


def test_with_its_question_the_same_rule_checks_the_options_too() -> None:
    q = Question("k", "Which?", "choice", "a", options=("a", "b"))
    assert ANSWER_KINDS["choice"].fits(q, "c") == fits(q, "c") == "“c” is not one of its options"


def test_a_teacher_previews_the_labs_answer_as_its_kind_writes_it() -> None:
    tied = Question("k", "Which?", "choice", "a", options=("a", "b", "c"), also_right=("b",))
    assert DRAWN["choice"].preview(tied) == ["The lab's answer: a", "  ✓  a", "  ✓ (a tie: also right)  b", "  ✗  c",
                                             "2 options are right (a tie): a learner who picks any of them is right."]
    assert DRAWN["number"].preview(Question("n", "How many?", "number", 7, unit="tokens")) == [
        "The lab's answer: 7 tokens"]
    assert DRAWN["split"].preview(Question("s", "Cut?", "split", ["po", "ha"])) == ["The lab's answer: po | ha"]
