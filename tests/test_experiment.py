"""The English-vs-Hindi experiment in the engine (analyses/experiment.py): lesson 4's table, the prefix
property the sweep rests on, merges by script, compression curves and the parallel set."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import lessons
from analyses.experiment import (
    SCRIPTS,
    compression_curve,
    merges_by_script,
    mix,
    parallel_cost,
    script_of_token,
    share,
    split_by_script,
    sweep,
)
from tests.lesson_data import LESSON4
from tokenizer import train

SETTINGS = lessons.presets()["english-hindi"].train_kwargs()
EXPECTED = [(row["k"], row["en_tokens"], row["hi_tokens"], row["hi_tokens_per_word"]) for row in LESSON4["expected"]]
PAIRS = [(p["en"], p["hi"]) for p in lessons.data("parallel_en_hi")["pairs"]]


def lesson_mix(k: int) -> str:
    return mix([(LESSON4["english_block"], 10), (LESSON4["hindi_block"], k)])


@pytest.fixture(scope="module")
def lesson_sweep():
    return sweep(LESSON4["english_block"], LESSON4["hindi_block"], LESSON4["test_en"], LESSON4["test_hi"],
                 hindi_copies=range(21), english_copies=10, budget=500, **SETTINGS)


# -- lesson 4 ---------------------------------------------------------------------------------------
def test_the_curriculum_table_is_what_the_lesson_states() -> None:
    assert EXPECTED == [(1, 13, 69, 6.9), (10, 16, 31, 3.1)]


def test_the_mix_is_the_presets_corpus() -> None:
    presets = lessons.presets()
    assert lesson_mix(1) == presets["english-hindi"].corpus
    assert lesson_mix(10) == presets["english-hindi-fair"].corpus
    assert presets["english-hindi"].merges == presets["english-hindi-fair"].merges == LESSON4["settings"]["merges"]


@pytest.mark.parametrize("k, en_tokens, hi_tokens, hi_per_word", EXPECTED)
def test_lesson4_table_from_the_sweep(lesson_sweep, k, en_tokens, hi_tokens, hi_per_word) -> None:
    point = lesson_sweep.point(k, 100)
    assert (point.english_tokens, point.hindi_tokens, round(point.hindi_per_word, 1)) == (en_tokens, hi_tokens, hi_per_word)
    assert point.hindi_words == 10
    # The same figures from a tokenizer trained with exactly the lesson's budget.
    tok = train(lesson_mix(k), 100, **SETTINGS).tokenizer
    assert (len(tok.encode(LESSON4["test_en"])), len(tok.encode(LESSON4["test_hi"]))) == (en_tokens, hi_tokens)


def test_equal_share_moves_hindi_down_and_english_up(lesson_sweep) -> None:
    one, fair = lesson_sweep.point(1, 100), lesson_sweep.point(10, 100)
    assert fair.hindi_tokens < one.hindi_tokens and fair.english_tokens > one.english_tokens
    assert fair.by_script["Devanagari"] > one.by_script["Devanagari"]
    assert fair.by_script["Latin"] < one.by_script["Latin"]


def test_the_sweep_equals_a_training_at_every_share_and_budget(lesson_sweep) -> None:
    """Each point read from the max-budget runs is what training with that budget gives."""
    for k in (0, 1, 4, 10, 20):
        for budget in (0, 1, 37, 100, 234, 500):
            tok = train(lesson_mix(k), budget, **SETTINGS).tokenizer
            point = lesson_sweep.point(k, budget)
            assert point.english_tokens == len(tok.encode(LESSON4["test_en"])), (k, budget)
            assert point.hindi_tokens == len(tok.encode(LESSON4["test_hi"])), (k, budget)
            assert dict(point.by_script) == {s: len(ids) for s, ids in merges_by_script(tok).items()}, (k, budget)


def test_share_of_words_and_bytes(lesson_sweep) -> None:
    s = lesson_sweep.run(10).share
    assert (s.hindi_words, s.all_words) == (360, 700)
    assert (s.hindi_bytes, s.all_bytes) == (4410, 6270)
    assert lesson_sweep.run(0).share.of_words == 0.0
    assert share("a ", "", english_copies=0, hindi_copies=0).of_words == 0.0


def test_sweep_refuses_a_budget_it_did_not_train(lesson_sweep) -> None:
    with pytest.raises(ValueError, match="outside"):
        lesson_sweep.point(1, 501)
    with pytest.raises(ValueError, match="no run"):
        lesson_sweep.run(21)


def test_mix_refuses_bad_copies() -> None:
    with pytest.raises(ValueError, match="whole number"):
        mix([("a ", -1)])
    with pytest.raises(ValueError, match="whole number"):
        mix([("a ", True)])


# -- the prefix property ----------------------------------------------------------------------------
CORPORA = [
    pytest.param(lesson_mix(1), SETTINGS, id="lesson4-k1"),
    pytest.param(lesson_mix(10), SETTINGS, id="lesson4-k10"),
    pytest.param(lesson_mix(3), {**SETTINGS, "ties": "hf"}, id="lesson4-k3-hf"),
    pytest.param("chai chai chai chaiwala chaiwala chaat chaat poha poha poha pohawala samosa",
                 {"unit": "chars", "split": "whitespace"}, id="chai-chars"),
    pytest.param(lessons.presets()["readers"].corpus, lessons.presets()["readers"].train_kwargs(), id="readers-marker"),
    pytest.param(" ".join(p for pair in PAIRS for p in pair), {}, id="parallel-set-bytes"),
]


@pytest.mark.parametrize("corpus, kwargs", CORPORA)
def test_a_smaller_budget_learns_the_first_merges_of_a_bigger_one(corpus, kwargs) -> None:
    """Training is deterministic and greedy: budget b gives exactly the first b merges of the max-budget run
    (the same pairs, counts and ties), and trace.tokenizer_at(b) is that smaller tokenizer."""
    big = train(corpus, 300, **kwargs)
    for budget in (0, 1, 2, 5, 17, 60, 150, len(big.steps)):
        small = train(corpus, budget, **kwargs)
        assert small.tokenizer.merges == big.tokenizer.merges[:budget]
        assert [(s.pair, s.count, s.n_tied) for s in small.steps] == [(s.pair, s.count, s.n_tied) for s in big.steps[:budget]]
        assert big.tokenizer_at(budget).merges == small.tokenizer.merges


@settings(max_examples=40, deadline=None)
@given(text=st.text(alphabet="ab कखि ।.\n", min_size=1, max_size=60), budget=st.integers(0, 30),
       unit=st.sampled_from(["bytes", "chars"]))
def test_prefix_property_on_any_text(text, budget, unit) -> None:
    big = train(text, 40, unit=unit)
    assert train(text, budget, unit=unit).tokenizer.merges == big.tokenizer.merges[:budget]


# -- merges by script ---------------------------------------------------------------------------------
@pytest.mark.parametrize("k", [0, 1, 10, 20])
def test_merges_by_script_add_up_to_the_budget(lesson_sweep, k) -> None:
    tok = train(lesson_mix(k), 500, **SETTINGS).tokenizer
    run = lesson_sweep.run(k)
    for budget in range(0, 501, 7):
        groups = merges_by_script(tok, budget)
        assert list(groups) == list(SCRIPTS)
        assert sum(len(ids) for ids in groups.values()) == min(budget, len(tok.merges))
        assert sum(run.by_script(budget).values()) == min(budget, run.learned)
        assert {s: len(ids) for s, ids in groups.items()} == run.by_script(budget)
        # Each group holds merged tokens in the order they were learned.
        for ids in groups.values():
            assert list(ids) == sorted(ids) and all(i >= tok.first_merge_id for i in ids)


@pytest.mark.parametrize(
    "text, script",
    [
        (" the", "Latin"), ("city.", "Latin"), ("Ünïcødé", "Latin"), (" शहर", "Devanagari"), ("।", "Devanagari"),
        ("गईं।", "Devanagari"), ("१२३", "Devanagari"), (" ", "other"), (". ", "other"), ("2024", "other"),
        ("₹", "other"), ("खবর", "mixed"), ("WiFi-वाला", "mixed"), ("চা", "other"), ("茶", "other"),
        ("chai☕", "Latin"), ("e\u0301", "Latin"),
    ],
)
def test_script_of_whole_tokens(text, script) -> None:
    assert script_of_token(text.encode("utf-8")) == script


def test_script_of_partial_tokens() -> None:
    ka = "क".encode()  # E0 A4 95
    ii = "ी".encode()  # E0 A5 80
    assert script_of_token(ka[:2]) == "Devanagari"  # E0 A4: U+0900-U+093F, all Devanagari
    assert script_of_token(ii[:2]) == "Devanagari"  # E0 A5: U+0940-U+097F
    assert script_of_token(ka[:1]) == "other"  # E0 alone: U+0800-U+0FFF, many scripts
    assert script_of_token(b" " + ka[:1]) == "other"
    assert script_of_token(ka[2:]) == "other"  # a lone continuation byte
    assert script_of_token(ka[2:] + ii[:2]) == "Devanagari"  # the end of one letter, the start of the next
    assert script_of_token(b"a" + ka[:2]) == "mixed"
    assert script_of_token("চ".encode()[:2]) == "other"  # E0 A6: Bengali
    assert script_of_token("é".encode()[:1]) == "other"  # a two-byte lead: cannot tell
    assert script_of_token("😀".encode()[:2]) == "other"


def test_every_lesson_merge_is_latin_or_devanagari(lesson_sweep) -> None:
    """The lesson's texts have no digits or symbols apart from full stops and dandas, which ride along."""
    for run in lesson_sweep.runs:
        assert set(run.scripts) <= {"Latin", "Devanagari"}
    assert set(lesson_sweep.run(0).scripts) == {"Latin"}


# -- compression curves ---------------------------------------------------------------------------------
TOKENIZERS = {
    "lesson-k1": lambda: train(lesson_mix(1), 300, **SETTINGS).tokenizer,
    "lesson-k10": lambda: train(lesson_mix(10), 300, **SETTINGS).tokenizer,
    "chars-marker": lambda: train(lessons.presets()["readers"].corpus, 12,
                                  **lessons.presets()["readers"].train_kwargs()).tokenizer,
    "chai-chars": lambda: train("chai chai chai chaiwala chaiwala chaat chaat poha poha poha pohawala samosa", 7,
                                unit="chars", split="whitespace").tokenizer,
}
TEXTS = [LESSON4["test_en"], LESSON4["test_hi"], "Mera order 20 minute late hai, refund chahiye!", "xylophone readership",
         "chaipoha halwa xyz", "", "👩‍👩‍👧 ₹1,23,456", *PAIRS[0]]


@pytest.mark.parametrize("name", list(TOKENIZERS))
def test_the_curve_is_every_budgets_count_and_never_rises(name) -> None:
    tok = TOKENIZERS[name]()
    for text in TEXTS:
        curve = compression_curve(tok, text)
        assert len(curve) == len(tok.merges) + 1
        assert curve[-1] == len(tok.encode(text))
        assert all(a >= b for a, b in zip(curve, curve[1:])), text
        pieces = tok.pieces(text)
        assert curve[0] == sum(len(tok.segment(p, 0)) for p in pieces)
        for budget in range(len(tok.merges) + 1):
            assert curve[budget] == sum(len(tok.segment(p, budget)) for p in pieces), (text, budget)


def test_the_curve_starts_at_the_bytes_in_the_byte_unit() -> None:
    tok = TOKENIZERS["lesson-k1"]()
    for text in TEXTS:
        assert compression_curve(tok, text)[0] == len(text.encode("utf-8"))


@settings(max_examples=40, deadline=None)
@given(text=st.text(alphabet="ab कखि ।.\n", max_size=40), unit=st.sampled_from(["bytes", "chars"]))
def test_the_curve_matches_a_smaller_tokenizer_for_any_text(text, unit) -> None:
    trace = train("ab ab abab कखि कखि कि । a.b", 12, unit=unit)
    curve = compression_curve(trace.tokenizer, text)
    assert curve == tuple(len(trace.tokenizer_at(b).encode(text)) for b in range(len(trace.steps) + 1))


# -- the parallel set, and splitting a file ------------------------------------------------------------
def test_the_parallel_set() -> None:
    assert len(PAIRS) == 34
    assert all(en.strip() and hi.strip() for en, hi in PAIRS)


def test_parallel_cost_adds_up_sentence_by_sentence() -> None:
    tok = TOKENIZERS["lesson-k10"]()
    cost = parallel_cost(tok, PAIRS)
    assert cost.pairs == 34
    assert cost.english_tokens == sum(len(tok.encode(en)) for en, _ in PAIRS)
    assert cost.hindi_tokens == sum(len(tok.encode(hi)) for _, hi in PAIRS)
    assert cost.english_words == sum(len(en.split()) for en, _ in PAIRS)
    assert cost.hindi_words == sum(len(hi.split()) for _, hi in PAIRS)
    assert cost.ratio == pytest.approx(cost.hindi_tokens / cost.english_tokens)
    assert cost.hindi_per_word == pytest.approx(cost.hindi_tokens / cost.hindi_words)
    empty = parallel_cost(tok, [])
    assert (empty.english_per_word, empty.hindi_per_word, empty.ratio) == (0.0, 0.0, 0.0)


def test_split_by_script() -> None:
    text = "Heavy rain.\r\nभारी बारिश।\n\n  2024  \nFog today, कोहरा.\nकोहरा है, fog."
    assert split_by_script(text) == ("Heavy rain. Fog today, कोहरा. ", "भारी बारिश। कोहरा है, fog. ")
    assert split_by_script("") == ("", "")
    assert split_by_script("केवल हिन्दी") == ("", "केवल हिन्दी ")
