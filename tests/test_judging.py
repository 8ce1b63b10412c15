"""The judging rules (lessons.judging), with no UI: each case small enough to check by hand. (That lessons/ loads
no UI library is tests/test_import_purity.py's.)"""

from __future__ import annotations

from decimal import Decimal

import pytest

from lessons.answers import MAX_PIECES, MAX_TEXT, as_decimal, decimal_places, parse_split
from lessons.judging import Question, fits, judge


def choice(**kw) -> Question:
    return Question("c", "Which pair merges first?", "choice", "n + e", options=("e + w", "n + e", "s + x"), **kw)


def test_a_choice_is_right_when_it_is_the_answer_or_tied_with_it() -> None:
    tied = choice(also_right=("e + w",))
    assert judge(tied, "n + e") == (True, "", ())
    assert judge(tied, "e + w") == (True, "", ())  # n + e and e + w are both seen 10 times in the news corpus
    assert judge(tied, "s + x") == (False, "", ())
    assert judge(choice(), "e + w") == (False, "", ())  # no tie declared: only the pick is right


def test_a_choice_must_be_one_of_its_options() -> None:
    assert fits(choice(), "n + e") is None
    assert fits(choice(), "z + z") == "“z + z” is not one of its options"
    assert fits(choice(), ["n + e"]) == "a choice question needs one of its options, not a list of 1"
    assert judge(choice(), "z + z") == (False, "“z + z” is not one of its options", ())


@pytest.mark.parametrize(("answer", "tolerance", "exact", "guess", "right"), [
    (9, 0, None, 9, True),
    (9, 0, None, 9.0, True),
    (9, 0, None, 10, False),
    (69, 6, None, 63, True),  # 69 - 6
    (69, 6, None, 75, True),  # 69 + 6
    (69, 6, None, 76, False),
    (2.24, 0.01, None, 2.23, True),  # exactly 0.01 away, in decimals (floats say 0.0100000000000002)
    (Decimal("2.24"), 0, Decimal("2.235"), 2.23, True),  # half a paisa rounds either way
    (Decimal("2.24"), 0, Decimal("2.235"), 2.24, True),
    (Decimal("2.24"), 0, Decimal("2.235"), 2.235, True),
    (Decimal("2.24"), 0, Decimal("2.235"), 2.25, False),
    (Decimal("2.24"), 0, Decimal("2.235"), 2.2349, False),
    (6.9, 0, 6.94, 6.9, True),  # the truth 6.94 rounded to the one place the answer shows
    (6.9, 0, 6.94, 7.0, False),
])
def test_a_number_is_compared_exactly(answer, tolerance, exact, guess, right) -> None:
    q = Question("n", "", "number", answer, tolerance=tolerance, exact=exact)
    assert judge(q, guess)[0] is right


@pytest.mark.parametrize("guess", ["7", True, None, float("nan"), float("inf"), [7]])
def test_a_number_question_takes_only_a_finite_number(guess) -> None:
    q = Question("n", "", "number", 7)
    assert fits(q, guess) is not None and judge(q, guess)[0] is False


def test_a_split_is_compared_piece_by_piece() -> None:
    q = Question("s", "", "split", ["poha", "wal", "a"])
    assert judge(q, "poha | wal | a") == (True, "all 3 pieces right", (True, True, True))
    assert judge(q, ["poha", "wal", "a"])[0] is True  # a list of pieces, as a file may hold it
    assert judge(q, "po | ha | wal | a") == (
        False, "2 of 3 pieces right (where they fall in the text): “wal”, “a”; you typed 4 pieces, the tokenizer "
        "made 3", (False, False, True, True))
    assert judge(q, "poha wala") == (
        False, "1 of 3 pieces right (where they fall in the text): “poha”; you typed 2 pieces, the tokenizer made 3",
        (True, False))
    assert judge(q, "p | ohawal | a")[1] == "1 of 3 pieces right (where they fall in the text): “a”"


def test_a_split_gets_credit_for_each_piece_where_it_falls_in_the_text() -> None:
    """The issue's case: cha | hiye | ! for ch | ahi | ye | !: the ! is right, though it is the third piece typed
    and the fourth made. A piece counts only where it falls: the same letters elsewhere do not."""
    q = Question("s", "", "split", ["ch", "ahi", "ye", "!"])
    right, detail, matches = judge(q, "cha | hiye | !")
    assert not right and matches == (False, False, True)
    assert detail == "1 of 4 pieces right (where they fall in the text): “!”; you typed 3 pieces, the tokenizer made 4"
    assert judge(q, "c | h | ahi | ye!")[2] == (False, False, True, False)
    assert judge(q, "ahi | ch | ye | !")[2] == (False, False, True, True)  # ahi first: not where the tokenizer put it
    assert judge(q, "chahiye!")[1] == "none of the 4 pieces right (where they fall in the text); you typed 1 piece, " \
        "the tokenizer made 4"
    # A leading space, shown as ·, may be typed or left out: the piece still falls where it falls.
    spaced = Question("s", "", "split", ["·order", "·20"])
    assert judge(spaced, "order | 20")[2] == (True, True) and not judge(spaced, "order | 20")[0]
    assert judge(spaced, "order | 20")[1] == ("all 2 pieces fall where the tokenizer cut, but the spaces differ: a "
                                              "token keeps the space before a word, shown as ·")
    assert judge(spaced, "·order | ·20")[:2] == (True, "all 2 pieces right")
    assert fits(q, "  ") == "the answer is empty (it needs the tokens, typed as text)"
    assert fits(q, "a" * (MAX_TEXT + 1)) == f"the answer is longer than {MAX_TEXT:,} characters"
    assert fits(q, ["a"] * (MAX_PIECES + 1)) == "the tokens are not a list of short pieces of text"


def test_an_order_counts_the_places_it_has_right() -> None:
    q = Question("o", "", "order", ["n + e", "ne + w", "new + s"], options=("new + s", "n + e", "ne + w"))
    assert judge(q, ["n + e", "ne + w", "new + s"]) == (True, "3 of 3 in the right place", ())
    assert judge(q, ["n + e", "new + s", "ne + w"]) == (False, "1 of 3 in the right place", ())
    assert fits(q, ["n + e", "n + e"]) == "an option appears twice in the order"
    assert fits(q, []) == "the order is empty"
    assert fits(q, ["made up"]) == "“made up” is not one of its options"


def test_a_word_is_judged_by_its_rule() -> None:
    q = Question("w", "", "word", "xylophone", check=lambda g: (len(g) > 5, f"{g} has {len(g)} letters"))
    assert judge(q, "xylophone") == (True, "xylophone has 9 letters", ())
    assert judge(q, "chai") == (False, "chai has 4 letters", ())
    assert fits(q, 3) == "a word question needs a word, not a number"
    with pytest.raises(ValueError, match="needs its check"):
        judge(Question("w", "", "word", "x"), "x")


def test_small_helpers() -> None:
    assert parse_split("poha | wal | a") == ["poha", "wal", "a"] and parse_split("chah iye") == ["chah", "iye"]
    assert as_decimal(2.23) == Decimal("2.23") and as_decimal(True) is None and as_decimal("2") is None
    assert [decimal_places(a) for a in (9, 6.0, 6.9, Decimal("2.46"), 1.23456)] == [0, 0, 1, 2, 3]

