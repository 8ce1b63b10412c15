"""Property tests: the fast engine against the readable reference trainer (``tokenizer.reference``, the oracle), and round trips.

* Byte level with the regex pre-split round-trips any text.
* ``tokenizer.train`` learns exactly the oracle's merges, counts, ties and
  pair tables, for every unit, split, marker and tie rule.
* ``encode`` equals replaying every merge, in learned order, over each word.
* A tokenizer rebuilt from (config, merges, base) encodes the same.

Small alphabets (``a b`` and a space) make ties and runs like ``aaaa``
frequent, which is where BPE implementations go wrong.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, example, given, settings
from hypothesis import strategies as st

from tokenizer import (
    DEFAULT_PATTERN,
    GPT2_PATTERN,
    GPT4_PATTERN,
    UNKNOWN_ID,
    Tokenizer,
    TrainConfig,
    split_text,
    train,
)
from tokenizer.reference import distinct_words, encode_reference, train_reference

FAST = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
MEDIUM = settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
DATA = Path(__file__).parents[1] / "lessons" / "data" / "lesson4_english_hindi.json"

# -- strategies ------------------------------------------------------------------------
SMALL_ALPHABETS = ["ab ", "ab c", "aab \n", "कखा ", "aक ", "ab\u0301 "]


@st.composite
def corpora(draw, alphabet: str | None = None) -> str:
    """A small corpus: either raw text over a tiny alphabet, or repeated words."""
    alpha = alphabet or draw(st.sampled_from(SMALL_ALPHABETS))
    letters = alpha.replace(" ", "").replace("\n", "") or "a"
    if draw(st.booleans()):
        return draw(st.text(alphabet=alpha, min_size=1, max_size=50))
    words = draw(st.lists(st.text(alphabet=letters, min_size=1, max_size=7), min_size=1, max_size=6))
    order = draw(st.lists(st.sampled_from(words), min_size=1, max_size=25))
    sep = draw(st.sampled_from([" ", " ", "  ", "\n"]))
    return sep.join(order) + draw(st.sampled_from(["", " ", "\n"]))


SETTINGS = st.fixed_dictionaries(
    {
        "unit": st.sampled_from(["chars", "bytes"]),
        "split": st.sampled_from(["whitespace", "regex"]),
        "pattern": st.sampled_from([DEFAULT_PATTERN, DEFAULT_PATTERN, GPT2_PATTERN, GPT4_PATTERN]),
        "end_of_word": st.sampled_from([None, "</w>", "_"]),
        "ties": st.sampled_from(["first", "hf"]),
    }
)

ANY_TEXT = st.one_of(
    st.text(),
    st.text(alphabet=st.characters(codec="utf-8")),
    st.text(alphabet=" \n\t\r\x00\x07\x1b\u00a0\u200d\u2028aé\u0301क्ष👍🏽", max_size=30),
)
EDGE_TEXTS = [
    "",
    "\n",
    " ",
    "   ",
    "\n\n a\n",
    "\r\n",
    "\x00\x01\x7f",
    "e\u0301",  # e + combining acute
    "क्षि",  # conjunct + vowel sign
    "👍🏽 👨‍👩‍👧",  # emoji with a skin tone, a ZWJ family
    "\u00a0nbsp\u2028line",
    "\ufeffbom",
    "\U0010fffd",
    " leading and trailing ",
]


@cache
def lesson4_tokenizer(k: int, ties: str = "first"):
    data = json.loads(DATA.read_text(encoding="utf-8"))
    text = data["english_block"] * 10 + data["hindi_block"] * k
    return train(text, 100, unit="bytes", split="regex", ties=ties).tokenizer


@cache
def fixed_byte_tokenizer(marker: str | None):
    text = "aaaa aaa aa a ab ab ba\n\nचाय चाय पानी 👍👍 👍🏽 e\u0301e\u0301 \x00\x00 " * 3
    return train(text, 40, unit="bytes", split="regex", end_of_word=marker).tokenizer


def has_words(text: str, split: str, pattern: str = DEFAULT_PATTERN) -> bool:
    return bool(split_text(text, split, pattern))


# -- byte-level round trip ---------------------------------------------------------------
@pytest.mark.parametrize("text", EDGE_TEXTS)
@pytest.mark.parametrize("which", ["lesson4-k1", "lesson4-k10-hf", "fixed", "fixed-marker"])
def test_byte_level_round_trips_edge_cases(which, text):
    tok = {
        "lesson4-k1": lambda: lesson4_tokenizer(1),
        "lesson4-k10-hf": lambda: lesson4_tokenizer(10, "hf"),
        "fixed": lambda: fixed_byte_tokenizer(None),
        "fixed-marker": lambda: fixed_byte_tokenizer("</w>"),
    }[which]()
    ids = tok.encode(text)
    assert all(0 <= i < tok.vocab_size for i in ids)
    assert tok.decode(ids, errors="strict") == text
    assert tok.decode_bytes(ids) == text.encode("utf-8")


@MEDIUM
@given(text=ANY_TEXT)
@example(text="\n")
@example(text="a\u0301\u0301")
def test_byte_level_round_trips_fixed_tokenizers(text):
    for tok in (lesson4_tokenizer(1), lesson4_tokenizer(10, "hf"), fixed_byte_tokenizer(None), fixed_byte_tokenizer("</w>")):
        ids = tok.encode(text)
        assert tok.decode(ids, errors="strict") == text
        assert b"".join(tok.token_bytes_list(ids)) == text.encode("utf-8")


@FAST
@given(
    corpus=st.one_of(corpora(), ANY_TEXT.filter(bool)),
    text=ANY_TEXT,
    n=st.integers(0, 30),
    ties=st.sampled_from(["first", "hf"]),
    marker=st.sampled_from([None, "</w>"]),
    pattern=st.sampled_from([DEFAULT_PATTERN, GPT2_PATTERN, GPT4_PATTERN]),
)
def test_byte_level_round_trips_random_tokenizers(corpus, text, n, ties, marker, pattern):
    tok = train(corpus, n, unit="bytes", split="regex", pattern=pattern, ties=ties, end_of_word=marker).tokenizer
    for sample in (text, corpus, corpus + text):
        ids = tok.encode(sample)
        assert tok.decode(ids, errors="strict") == sample


@FAST
@given(corpus=corpora(), n=st.integers(0, 12), marker=st.sampled_from([None, "</w>", "_"]))
def test_chars_regex_round_trips_known_text(corpus, n, marker):
    tok = train(corpus, n, unit="chars", split="regex", end_of_word=marker).tokenizer
    assert tok.decode(tok.encode(corpus), errors="strict") == corpus


@FAST
@given(corpus=corpora(), n=st.integers(0, 12), unit=st.sampled_from(["chars", "bytes"]))
def test_whitespace_split_decodes_to_words(corpus, n, unit):
    """Documented: with a marker, words come back joined by single spaces; without, run together."""
    assume(has_words(corpus, "whitespace"))
    words = corpus.split()
    with_marker = train(corpus, n, unit=unit, split="whitespace", end_of_word="</w>").tokenizer
    assert with_marker.decode(with_marker.encode(corpus)) == " ".join(words)
    without = train(corpus, n, unit=unit, split="whitespace").tokenizer
    assert without.decode(without.encode(corpus)) == "".join(words)


# -- pre-split: the engine's pieces are split_text's pieces, for any pattern ---------------------
SPLIT_PATTERNS = [
    DEFAULT_PATTERN,
    GPT2_PATTERN,
    GPT4_PATTERN,
    r"\w+|\W",
    r"a*",  # can match nothing
    r"\b",  # matches nothing but boundaries
    r"(?<=a)b",
    r"(a)(b)?",  # groups of its own
    r"(?i)A+",
    r"(?x) a + # comment",
    r"[^\n]*\n?",
    r"x|",
    r"\X",
    r"a|ab",
    r"(?m)^a",
    r"a\Kb",  # \K moves the start of the match
]


@pytest.mark.parametrize("pattern", SPLIT_PATTERNS)
@settings(max_examples=50, deadline=None)
@given(text=st.text(alphabet="aAbB x\n", max_size=14))
def test_pieces_are_split_text_pieces_and_round_trip(pattern, text):
    tok = Tokenizer(TrainConfig(unit="bytes", split="regex", pattern=pattern), [])
    assert tok.pieces(text) == split_text(text, "regex", pattern)
    assert "".join(tok.pieces(text)) == text
    assert tok.decode(tok.encode(text), errors="strict") == text
    if text:
        trace = train(text, 3, unit="bytes", split="regex", pattern=pattern)
        assert list(trace.words) == distinct_words(text, "regex", pattern)


# -- the fast trainer against the oracle -----------------------------------------------------
def compare_with_oracle(corpus, n: int, cfg: dict) -> None:
    trace = train(corpus, n, table_size=10_000, max_ties=None, **cfg)
    want = train_reference(corpus, n, keep_tables=True, **cfg)
    steps = trace.steps

    assert [s.pair for s in steps] == want.merges
    assert [s.count for s in steps] == want.counts
    assert [s.token_id for s in steps] == [w.new_id for w in want.steps]
    assert trace.stopped_early == (len(want.steps) < n)
    assert [w for w, _ in trace.words] == [w for w, _ in want.words]
    assert list(trace.words) == want.words
    if cfg["unit"] == "chars":
        assert list(trace.tokenizer.base) == want.base
    assert trace.tokenizer.first_merge_id == want.first_merge_id
    for got, exp in zip(steps, want.steps):
        assert got.n_tied == exp.n_tied
        assert [t.pair for t in got.ties] == exp.tied
        assert all(t.count == exp.count for t in got.ties)
        assert got.n_pairs == exp.n_pairs
        assert [(row.pair, row.count) for row in got.table] == exp.table
    final = trace.segmentation(len(steps))
    assert [list(w.ids) for w in final] == want.segmentation
    return trace, want


def compare_bounded_tables(corpus, n: int, cfg: dict, table_size: int, max_ties: int | None, want) -> None:
    """With a small ``table_size`` / ``max_ties`` the engine keeps the top of the oracle's lists."""
    trace = train(corpus, n, table_size=table_size, max_ties=max_ties, **cfg)
    assert [s.pair for s in trace.steps] == want.merges
    for got, exp in zip(trace.steps, want.steps):
        assert [(row.pair, row.count) for row in got.table] == exp.table[:table_size]
        assert [t.pair for t in got.ties] == exp.tied[:max_ties]
        assert got.n_tied == exp.n_tied


@MEDIUM
@given(corpus=corpora(), n=st.integers(0, 16), cfg=SETTINGS)
@example(corpus="aaaa aaa aa a", n=6, cfg={"unit": "chars", "split": "whitespace", "end_of_word": None, "ties": "first"})
@example(corpus="aaaaaaa", n=4, cfg={"unit": "bytes", "split": "regex", "end_of_word": None, "ties": "hf"})
@example(corpus="ab ba ab ba abab baba", n=8, cfg={"unit": "chars", "split": "regex", "end_of_word": "_", "ties": "first"})
def test_fast_trainer_equals_oracle(corpus, n, cfg):
    assume(has_words(corpus, cfg["split"], cfg.get("pattern", DEFAULT_PATTERN)))
    if cfg["unit"] == "chars" and cfg["end_of_word"] is not None:
        # A one-character marker that also occurs in the text is a separate case (see below).
        assume(cfg["end_of_word"] not in corpus)
    compare_with_oracle(corpus, n, cfg)


@FAST
@given(
    corpus=corpora(),
    n=st.integers(1, 12),
    cfg=SETTINGS,
    table_size=st.integers(0, 6),
    max_ties=st.one_of(st.none(), st.integers(1, 4)),
)
def test_bounded_tables_and_ties_are_the_top_of_the_oracle_lists(corpus, n, cfg, table_size, max_ties):
    assume(has_words(corpus, cfg["split"], cfg.get("pattern", DEFAULT_PATTERN)))
    if cfg["unit"] == "chars" and cfg["end_of_word"] is not None:
        assume(cfg["end_of_word"] not in corpus)
    want = train_reference(corpus, n, keep_tables=True, **cfg)
    compare_bounded_tables(corpus, n, cfg, table_size, max_ties, want)


@FAST
@given(
    counts=st.dictionaries(st.text(alphabet="ab ", min_size=1, max_size=7), st.integers(1, 9), min_size=1, max_size=6),
    n=st.integers(0, 12),
    cfg=SETTINGS,
)
def test_fast_trainer_equals_oracle_on_word_counts(counts, n, cfg):
    """A corpus given as a mapping text -> count (each text is pre-split, the counts add up)."""
    assume(any(has_words(text, cfg["split"], cfg.get("pattern", DEFAULT_PATTERN)) for text in counts))
    compare_with_oracle(counts, n, cfg)


@pytest.mark.parametrize("ties", ["first", "hf"])
@pytest.mark.parametrize("unit", ["chars", "bytes"])
def test_fast_trainer_equals_oracle_on_lesson4(unit, ties):
    data = json.loads(DATA.read_text(encoding="utf-8"))
    text = data["english_block"] * 10 + data["hindi_block"] * 3
    cfg = {"unit": unit, "split": "regex", "end_of_word": None, "ties": ties}
    compare_with_oracle(text, 60, cfg)


def test_marker_character_inside_a_word_is_refused_with_a_clear_message():
    """In the character unit a one-character marker cannot also be a character of the text."""
    with pytest.raises(ValueError, match="end-of-word marker '_' also occurs in the text"):
        train("a_b a_b c", 2, unit="chars", split="whitespace", end_of_word="_")
    # A longer marker never clashes: characters are single code points.
    trace = train("a</w>b a</w>b c", 2, unit="chars", split="whitespace", end_of_word="</w>")
    assert all(t.known for t in trace.tokenizer.encode_tokens("a</w>b c"))


@pytest.mark.parametrize("ties", ["first", "hf"])
@pytest.mark.parametrize("split", ["whitespace", "regex"])
def test_bytes_unit_marker_character_in_the_text_is_refused_too(split, ties):
    """In the bytes unit the marker is id 256, apart from the byte of ``_``, but both tokens
    would be shown as ``_``: the same rule as in the character unit, the same message."""
    with pytest.raises(ValueError, match="end-of-word marker '_' also occurs in the text"):
        train("a_b a_b c__ _ a_b_", 8, unit="bytes", split=split, end_of_word="_", ties=ties)
    # A marker the text does not use is fine, and learns what the oracle learns.
    compare_with_oracle("a-b a-b c-- - a-b-", 8, {"unit": "bytes", "split": split, "end_of_word": "_", "ties": ties})


# -- encoding ------------------------------------------------------------------------------
def replay(tok: Tokenizer, text: str, merges=None) -> list[int]:
    c = tok.config
    return encode_reference(
        text,
        tok.merges if merges is None else merges,
        unit=c.unit,
        base=tok.base or None,
        split=c.split,
        pattern=c.pattern,
        end_of_word=c.end_of_word,
    )


@MEDIUM
@given(corpus=corpora(), n=st.integers(0, 16), cfg=SETTINGS, data=st.data())
def test_encode_equals_replaying_merges_in_order(corpus, n, cfg, data):
    assume(has_words(corpus, cfg["split"], cfg.get("pattern", DEFAULT_PATTERN)))
    if cfg["unit"] == "chars" and cfg["end_of_word"] is not None:
        assume(cfg["end_of_word"] not in corpus)
    trace = train(corpus, n, **cfg)
    tok = trace.tokenizer
    extra = data.draw(st.text(alphabet=sorted(set(corpus)) + list("xé👍 "), max_size=30))
    for text in (corpus, extra, corpus[::-1]):
        if cfg["unit"] == "chars" and cfg["end_of_word"] is not None and cfg["end_of_word"] in text:
            continue
        assert tok.encode(text) == replay(tok, text)
    # Every intermediate tokenizer too, and the trace's segmentation at that step.
    step = data.draw(st.integers(0, len(trace.steps)))
    partial = trace.tokenizer_at(step)
    assert partial.encode(corpus) == replay(tok, corpus, tok.merges[:step])
    for w in trace.segmentation(step):
        assert list(w.ids) == replay(tok, w.word, tok.merges[:step])


@FAST
@given(corpus=corpora(alphabet="ab "), n=st.integers(0, 10), marker=st.sampled_from([None, "</w>"]), data=st.data())
def test_unknown_characters_in_chars_unit(corpus, n, marker, data):
    assume(has_words(corpus, "whitespace"))
    tok = train(corpus, n, unit="chars", split="whitespace", end_of_word=marker).tokenizer
    text = data.draw(st.text(alphabet="abxy ", max_size=20))
    tokens = tok.encode_tokens(text)
    ids = tok.encode(text)
    assert [t.id for t in tokens] == ids == replay(tok, text)
    for t in tokens:
        assert t.known == (t.id != UNKNOWN_ID)
        assert t.known == (t.label in corpus or t.label.endswith(marker or "\0"))
    # Every character of the text is accounted for, in order.
    marker_text = marker or ""
    assert "".join(t.label for t in tokens) == "".join(w + marker_text for w in text.split())


# -- rebuilding a tokenizer ------------------------------------------------------------------
@FAST
@given(corpus=corpora(), n=st.integers(0, 16), cfg=SETTINGS, data=st.data())
def test_rebuilt_tokenizer_gives_the_same_ids(corpus, n, cfg, data):
    assume(has_words(corpus, cfg["split"], cfg.get("pattern", DEFAULT_PATTERN)))
    if cfg["unit"] == "chars" and cfg["end_of_word"] is not None:
        assume(cfg["end_of_word"] not in corpus)
    tok = train(corpus, n, **cfg).tokenizer
    rebuilt = Tokenizer(tok.config, tok.merges, tok.base or None)
    assert rebuilt.merges == tok.merges
    assert rebuilt.vocab() == tok.vocab()
    text = data.draw(st.text(alphabet=sorted(set(corpus)) + list("xé "), max_size=30))
    for sample in (corpus, text):
        if cfg["unit"] == "chars" and cfg["end_of_word"] is not None and cfg["end_of_word"] in sample:
            continue
        assert rebuilt.encode(sample) == tok.encode(sample)
        assert [(t.id, t.label) for t in rebuilt.encode_tokens(sample)] == [(t.id, t.label) for t in tok.encode_tokens(sample)]


def test_reverse_patterns_are_refused_with_a_clear_message():
    """A (?r) pattern finds pieces right to left; the pieces would not join back into the text."""
    with pytest.raises(ValueError, match="right to left"):
        split_text("ab cd", "regex", r"(?r)\S+")
    with pytest.raises(ValueError, match="right to left"):
        train("ab cd", 1, pattern=r"(?r)\S+")
