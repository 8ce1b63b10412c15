"""Every worked example of curriculum lessons 1, 2 and 4, run through the engine.

The expected values are the curriculum's published figures, copied as they
are printed: the engine must reproduce them exactly. Nothing here recomputes
them by re-implementing the algorithm.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import lessons
import tokenizer
from tokenizer import UNKNOWN_ID, split_text, train

DATA = Path(__file__).parents[1] / "lessons" / "data" / "lesson4_english_hindi.json"


# -- Lesson 1 ------------------------------------------------------------------------
HINGLISH = "Mera order 20 minute late hai, refund chahiye!"


def test_lesson1_whitespace_split_glues_punctuation():
    pieces = split_text(HINGLISH, "whitespace")
    assert len(pieces) == 8
    assert "hai," in pieces
    assert "chahiye!" in pieces


def test_lesson1_tokenizer_uses_the_same_split():
    tok = train(HINGLISH, 0, unit="chars", split="whitespace").tokenizer
    assert tok.pieces(HINGLISH) == split_text(HINGLISH, "whitespace")


# -- Lesson 2: the presets, read from lessons/presets.toml (what the pages train on) ------------
PRESET_IDS = {"A": "news", "B": "low", "C": "play", "D": "chai", "E": "readers", "F": "lowmarker"}
MARKERS = {"A": None, "B": None, "C": "_", "D": None, "E": "</w>", "F": "</w>"}  # as the curriculum gives them


def run(name: str) -> tokenizer.Trace:
    preset = lessons.presets()[PRESET_IDS[name]]
    return train(preset.corpus, preset.merges, **preset.config.to_dict(), table_size=100, max_ties=None)


def test_lesson2_presets_have_the_curriculum_settings():
    for name, preset_id in PRESET_IDS.items():
        config = lessons.presets()[preset_id].config
        assert (config.unit, config.split, config.end_of_word, config.ties) == ("chars", "whitespace", MARKERS[name], "first")


@pytest.fixture(scope="module")
def traces() -> dict[str, tokenizer.Trace]:
    return {name: run(name) for name in PRESET_IDS}


# Merges as (left, right), with the published count where the curriculum gives one.
MERGES = {
    "A": [("n", "e", 10), ("ne", "w", 10), ("new", "s", 5)],
    "B": [("l", "o", 5), ("lo", "w", 5), ("low", "e", 2), ("lowe", "r", 1)],
    "C": [("p", "l", 14), ("pl", "a", 14), ("pla", "y", 14), ("play", "_", 5)],
    "D": [
        ("h", "a", 11),
        ("c", "ha", 7),
        ("cha", "i", 5),
        ("p", "o", 4),
        ("po", "ha", 4),
        ("w", "a", 3),
        ("wa", "l", 3),
    ],
    "E": [
        ("e", "a", None),
        ("ea", "d", None),
        ("e", "</w>", None),
        ("r", "ead", None),
        ("e", "r", None),
        ("er", "</w>", None),
        ("l", "ead", None),
        ("t", "h", None),
        ("th", "e</w>", None),
        ("read", "er</w>", None),
        ("s", "</w>", None),
        ("lead", "er</w>", None),
    ],
    "F": [
        ("l", "o", None),
        ("lo", "w", None),
        ("e", "r", None),
        ("er", "</w>", None),
        ("low", "</w>", None),
        ("n", "e", None),
        ("ne", "w", None),
        ("new", "er</w>", None),
        ("low", "er</w>", None),
        ("low", "e", None),
    ],
}


@pytest.mark.parametrize("name", sorted(MERGES))
def test_lesson2_merges_in_order(traces, name):
    trace = traces[name]
    expected = MERGES[name]
    assert not trace.stopped_early
    assert [(s.left, s.right) for s in trace.steps] == [(a, b) for a, b, _ in expected]
    # Each new token is the two labels joined.
    assert [s.token for s in trace.steps] == [a + b for a, b, _ in expected]


@pytest.mark.parametrize("name", [n for n in sorted(MERGES) if all(c is not None for _, _, c in MERGES[n])])
def test_lesson2_merge_counts(traces, name):
    # The curriculum publishes counts for presets A-D.
    assert [s.count for s in traces[name].steps] == [c for _, _, c in MERGES[name]]


def test_lesson2_A_tie_at_first_step(traces):
    step = traces["A"].steps[0]
    assert step.n_tied == 2
    assert [(t.left, t.right, t.count) for t in step.ties] == [("n", "e", 10), ("e", "w", 10)]
    assert (step.ties[0].left, step.ties[0].right) == (step.left, step.right)  # first seen wins


def test_lesson2_A_newsroom(traces):
    tokens = traces["A"].tokenizer.encode_tokens("newsroom")
    assert [t.label for t in tokens] == ["news", "r", "o", "o", "m"]
    assert len(tokens) == 5


def test_lesson2_B_three_way_tie_at_step_4(traces):
    step = traces["B"].steps[3]
    assert step.count == 1
    assert step.n_tied == 3
    assert len(step.ties) == 3
    assert all(t.count == 1 for t in step.ties)
    # First seen wins: `lowe r` (in `lower`) is met before anything in `lowest`.
    assert (step.ties[0].left, step.ties[0].right) == ("lowe", "r")


C_FIRST_TABLE = {
    ("p", "l"): 14,
    ("l", "a"): 14,
    ("a", "y"): 14,
    ("y", "_"): 5,
    ("y", "s"): 2,
    ("s", "_"): 2,
    ("y", "e"): 4,
    ("e", "r"): 4,
    ("r", "_"): 4,
    ("y", "i"): 3,
    ("i", "n"): 3,
    ("n", "g"): 3,
    ("g", "_"): 3,
}


def test_lesson2_C_first_pair_table(traces):
    step = traces["C"].steps[0]
    assert step.n_pairs == 13
    table = {(row.left, row.right): row.count for row in step.table}
    assert len(step.table) == 13
    assert table == C_FIRST_TABLE
    counts = [row.count for row in step.table]
    assert counts == sorted(counts, reverse=True)  # the table is in rank order


def test_lesson2_C_table_size_bounds_the_table():
    p = lessons.presets()[PRESET_IDS["C"]]
    trace = train(p.corpus, 1, **p.config.to_dict(), table_size=5)
    assert len(trace.steps[0].table) == 5
    assert trace.steps[0].n_pairs == 13


# The final segmentation: word -> (count, tokens).
FINAL = {
    "C": {
        "play": (5, ["play_"]),
        "plays": (2, ["play", "s", "_"]),
        "player": (4, ["play", "e", "r", "_"]),
        "playing": (3, ["play", "i", "n", "g", "_"]),
    },
    "D": {
        "chai": (3, ["chai"]),
        "chaiwala": (2, ["chai", "wal", "a"]),
        "chaat": (2, ["cha", "a", "t"]),
        "poha": (3, ["poha"]),
        "pohawala": (1, ["poha", "wal", "a"]),
        "samosa": (1, ["s", "a", "m", "o", "s", "a"]),
    },
    "F": {
        "low": (None, ["low</w>"]),
        "lower": (None, ["lower</w>"]),
        "newer": (None, ["newer</w>"]),
        "lowest": (None, ["lowe", "s", "t", "</w>"]),
        "wider": (None, ["w", "i", "d", "er</w>"]),
    },
}


@pytest.mark.parametrize("name", sorted(FINAL))
def test_lesson2_final_segmentation(traces, name):
    trace = traces[name]
    final = {w.word: w for w in trace.segmentation(len(trace.steps))}
    assert set(final) == set(FINAL[name])
    for word, (count, tokens) in FINAL[name].items():
        assert list(final[word].tokens) == tokens, word
        if count is not None:
            assert final[word].count == count, word


def test_lesson2_segmentation_step_zero_is_characters(traces):
    words = traces["D"].segmentation(0)
    assert [list(w.tokens) for w in words] == [list(w.word) for w in words]


ENCODINGS = [
    ("D", "chai", ["chai"]),
    ("D", "chaipoha", ["chai", "poha"]),
    ("D", "pohawala", ["poha", "wal", "a"]),
    ("D", "halwa", ["ha", "l", "wa"]),
    ("D", "xyz", ["x", "y", "z"]),
    ("E", "readable", ["read", "a", "b", "l", "e</w>"]),
    ("E", "readership", ["read", "er", "s", "h", "i", "p", "</w>"]),
    ("E", "xylophone", ["x", "y", "l", "o", "p", "h", "o", "n", "e</w>"]),
]


@pytest.mark.parametrize(("name", "text", "labels"), ENCODINGS, ids=[f"{n}-{t}" for n, t, _ in ENCODINGS])
def test_lesson2_encodings(traces, name, text, labels):
    assert [t.label for t in traces[name].tokenizer.encode_tokens(text)] == labels


@pytest.mark.parametrize(
    ("text", "n_tokens"),
    [("reader", 1), ("leader", 1), ("readable", 5), ("readership", 7), ("xylophone", 9), ("the reader reads", 4)],
)
def test_lesson2_E_token_counts(traces, text, n_tokens):
    tok = traces["E"].tokenizer
    assert len(tok.encode(text)) == n_tokens
    assert len(tok.encode_tokens(text)) == n_tokens


def test_lesson2_E_three_words_four_tokens(traces):
    tok = traces["E"].tokenizer
    assert len(tok.pieces("the reader reads")) == 3
    assert len(tok.encode("the reader reads")) == 4


def test_lesson2_E_readable_is_in_the_corpus_and_still_splits(traces):
    trace = traces["E"]
    assert dict(trace.words)["readable"] == 3
    assert len(trace.tokenizer.encode("readable")) > 1


def test_lesson2_E_xylophone_costs_nine_readers(traces):
    tok = traces["E"].tokenizer
    assert len(tok.encode("xylophone")) == 9 * len(tok.encode("reader"))


def test_lesson2_D_unknown_characters(traces):
    tok = traces["D"].tokenizer
    tokens = tok.encode_tokens("xyz")
    assert [t.label for t in tokens] == ["x", "y", "z"]
    assert all(not t.known for t in tokens)
    assert all(t.id == UNKNOWN_ID for t in tokens)
    assert tok.encode("xyz") == [UNKNOWN_ID] * 3


def test_lesson2_D_known_tokens_are_flagged_known(traces):
    tokens = traces["D"].tokenizer.encode_tokens("halwa")
    assert all(t.known and t.id != UNKNOWN_ID for t in tokens)


def test_lesson2_E_unseen_letters_keep_their_text(traces):
    tokens = traces["E"].tokenizer.encode_tokens("xylophone")
    corpus_chars = set(lessons.presets()[PRESET_IDS["E"]].corpus)
    unseen = [t.label for t in tokens if not t.known]
    assert unseen == [ch for ch in "xylophone" if ch not in corpus_chars]
    assert unseen  # the word does have letters the corpus never showed
    assert all(t.id == UNKNOWN_ID for t in tokens if not t.known)


# -- Lesson 4: English vs Hindi ------------------------------------------------------
LESSON4_TABLE = [
    # k, EN tokens, HI tokens, HI tokens per word
    (1, 13, 69, 6.9),
    (10, 16, 31, 3.1),
]


@pytest.fixture(scope="module")
def lesson4() -> dict:
    return json.loads(DATA.read_text(encoding="utf-8"))


def test_lesson4_data_file_matches_the_curriculum(lesson4):
    assert [(e["k"], e["en_tokens"], e["hi_tokens"], e["hi_tokens_per_word"]) for e in lesson4["expected"]] == (
        LESSON4_TABLE
    )
    assert lesson4["settings"]["split_regex"] == r" ?\S+"
    assert lesson4["settings"]["merges"] == 100
    assert len(lesson4["test_hi"].split()) == 10
    assert lesson4["english_block"].endswith(". ") and lesson4["hindi_block"].endswith("। ")


@pytest.mark.parametrize(("k", "en_tokens", "hi_tokens", "hi_per_word"), LESSON4_TABLE)
def test_lesson4_english_vs_hindi(lesson4, k, en_tokens, hi_tokens, hi_per_word):
    text = lesson4["english_block"] * 10 + lesson4["hindi_block"] * k
    trace = train(text, 100, unit="bytes", split="regex", pattern=r" ?\S+", ties="first")
    tok = trace.tokenizer
    assert len(trace.steps) == 100
    assert tok.first_merge_id == 256
    assert trace.steps[0].token_id == 256
    en = tok.encode(lesson4["test_en"])
    hi = tok.encode(lesson4["test_hi"])
    assert (len(en), len(hi)) == (en_tokens, hi_tokens)
    assert round(len(hi) / len(lesson4["test_hi"].split()), 1) == hi_per_word
    # Byte level: both sentences come back exactly.
    assert tok.decode(en) == lesson4["test_en"]
    assert tok.decode(hi) == lesson4["test_hi"]
