"""Words are counted one way everywhere: :func:`tokenizer.word_count` is the rule, and every figure that
divides by words (the command line's ``count``, text counts, measurements, the English/Hindi experiment)
uses it. The counts here are hand-counted or the curriculum's own."""

from __future__ import annotations

import pytest

from analyses.experiment import share
from analyses.measure import measure, measure_many
from analyses.textstats import text_counts
from tests.cli_helpers import run_cli
from tests.lesson_data import LESSON4
from tokenizer import split_text, train, word_count

# White space of every kind the rule cuts at (space, tab, newline, no-break space), runs of it, at both ends;
# punctuation and the danda stay glued to their word: 7 words, counted by hand.
TRICKY = "  घने कोहरे\u00a0से\tशहर,\n\nमें  स्कूल। ok \n"
TRICKY_WORDS = 7


@pytest.mark.parametrize(("text", "n"), [
    ("the reader reads", 3),                   # lesson 2, example E: "3 words and 4 tokens"
    (LESSON4["test_hi"], 10),                  # lesson 4: "the Hindi one has 10 words"
    (LESSON4["test_en"], 9),                   # Thick fog closed schools and roads in the city.
    (TRICKY, TRICKY_WORDS),
    ("", 0),
    (" \t\n\u00a0", 0),
])
def test_the_rule_counts_the_curriculums_words(text, n):
    assert word_count(text) == n


def test_the_whitespace_presplit_cuts_text_into_the_same_words():
    assert split_text(TRICKY, "whitespace") == ["घने", "कोहरे", "से", "शहर,", "में", "स्कूल।", "ok"]
    assert len(split_text(TRICKY, "whitespace")) == word_count(TRICKY)


def test_every_word_figure_uses_the_one_rule(capsys):
    tok = train("घने कोहरे से शहर में स्कूल", 3, unit="chars", split="whitespace").tokenizer
    assert text_counts(TRICKY).words == TRICKY_WORDS
    assert measure(tok, TRICKY).words == TRICKY_WORDS
    assert measure_many(tok, [TRICKY, " \n "]).words == TRICKY_WORDS  # a text with no words is left out
    assert share(TRICKY, TRICKY, english_copies=1, hindi_copies=2).all_words == 3 * TRICKY_WORDS
    code, out, err = run_cli(capsys, "count", "-t", "cl100k_base", "--", TRICKY)
    assert code == 0, err
    assert f"{TRICKY_WORDS} words," in out
