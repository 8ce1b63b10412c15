"""The engine's contract with the pages: the tokenizer interface, the trace's plain data, measures, provenance."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import lessons
from analyses.measure import measure, premium
from analyses.textstats import text_counts
from tests.lesson_data import LESSON4
from tokenizer import GPT2_PATTERN, StopReason, TextTokenizer, Tokenizer, Vocabulary, train
from tokenizer.provenance import made_by_merges, merge_tree, render_text
from tokenizer.reference import train_reference

CHAI = lessons.presets()["chai"]


def preset_trace(preset_id: str):
    preset = lessons.presets()[preset_id]
    return train(preset.corpus, preset.merges, **preset.config.to_dict())


# -- the interface ---------------------------------------------------------------------------------
def test_a_lab_model_is_a_text_tokenizer() -> None:
    tok = preset_trace("english-hindi").tokenizer
    assert isinstance(tok, TextTokenizer)
    assert (tok.unit, tok.licence) == ("bytes", "")
    assert "byte level" in tok.family and tok.vocab_size == 356
    named = tok.named("k = 1 model", source="a test")
    assert (named.name, named.source, tok.name) == ("k = 1 model", "a test", "Lab BPE model")
    assert named.encode("घने") == tok.encode("घने")


@settings(max_examples=100, deadline=None)
@given(text=st.text(max_size=60), limit=st.integers(0, 30))
def test_encode_tokens_can_stop_at_a_limit(text: str, limit: int) -> None:
    for tok in (preset_trace("english-hindi").tokenizer, preset_trace("readers").tokenizer):
        assert tok.encode_tokens(text, limit=limit) == tok.encode_tokens(text)[:limit]


def test_a_model_is_built_from_its_merges_through_public_names() -> None:
    trace = preset_trace("chai")
    tok = trace.tokenizer
    rebuilt = Tokenizer(tok.config, tok.merges, tok.base)
    assert rebuilt.encode("chaipoha pohawala") == tok.encode("chaipoha pohawala")
    vocab = Vocabulary("chars", tok.base)
    for a, b in tok.merges:
        vocab.add_merge(a, b)
    assert Tokenizer.from_vocabulary(tok.config, vocab).vocab() == tok.vocab()
    with pytest.raises(ValueError, match="merged twice"):
        vocab.add_merge(*tok.merges[0])


# -- the trace -----------------------------------------------------------------------------------------
def test_stop_reason_is_a_value() -> None:
    trace = train("low low low lower lowest", 50, unit="chars", split="whitespace")
    assert trace.stop_reason is StopReason.NO_PAIRS and trace.stopped_early
    assert len(trace.steps) < 50
    assert train("low low", 1, unit="chars", split="whitespace").stop_reason is None


def test_first_seen_says_where_a_tie_winner_was_met() -> None:
    """Example A: n + e and e + w tie at 10; n + e is met first, as the first pair of 'news'."""
    trace = preset_trace("news")
    step = trace.steps[0]
    assert step.n_tied == 2 and step.first_seen == (0, 0)
    # Example B, merge 4: a three-way tie at 1; lowe + r wins, met in 'lower' (word 1) at position 0.
    low = preset_trace("low")
    assert low.steps[3].first_seen == (1, 0)
    assert low.words[1][0] == "lower"
    assert train("aa bb", 1, unit="chars", split="whitespace", ties="hf").steps[0].first_seen is None


@settings(max_examples=150, deadline=None)
@given(st.text(alphabet="ab ", min_size=1, max_size=40).filter(str.strip), st.integers(1, 8))
def test_first_seen_is_where_the_reference_meets_the_winner(corpus: str, n: int) -> None:
    trace = train(corpus, n, unit="chars", split="whitespace")
    for step in trace.steps:
        w, pos = step.first_seen
        # Reading the words in order, each left to right, no earlier occurrence of the winner exists.
        seg = trace.segmentation(step.step - 1)
        for earlier in seg[:w]:
            assert step.pair not in zip(earlier.ids, earlier.ids[1:])
        ids = seg[w].ids
        assert (ids[pos], ids[pos + 1]) == step.pair
        assert step.pair not in zip(ids[:pos], ids[1 : pos + 1])


@settings(max_examples=150, deadline=None)
@given(st.text(alphabet="abc \n", min_size=1, max_size=60), st.integers(1, 8))
def test_pair_sources_add_up_to_the_count(corpus: str, n: int) -> None:
    trace = train(corpus, n, unit="bytes", pattern=GPT2_PATTERN)
    for step in trace.steps:
        sources, complete = trace.pair_sources(step.step)
        assert complete and sum(s.adds for s in sources) == step.count


def test_hf_numbers_sort_the_base_symbols() -> None:
    trace = train("news " * 5 + "new " * 3 + "newer " * 2, 1, unit="chars", split="whitespace", ties="hf")
    assert [trace.hf_number(trace.tokenizer.base.index(c)) for c in "enrsw"] == [0, 1, 2, 3, 4]
    byte = train("ab", 1, unit="bytes", ties="hf")
    assert byte.hf_number(ord("!")) == 0  # '!' is the first printable byte stand-in


# -- the reference trainer ---------------------------------------------------------------------------
def test_the_reference_trainer_reproduces_example_d() -> None:
    result = train_reference(CHAI.corpus, 7, **CHAI.config.to_dict())
    assert [(result.label(a) + "+" + result.label(b), s.count) for (a, b), s in zip(result.merges, result.steps)] == [
        ("h+a", 11), ("c+ha", 7), ("cha+i", 5), ("p+o", 4), ("po+ha", 4), ("w+a", 3), ("wa+l", 3)]


# -- measures -----------------------------------------------------------------------------------------
def test_measure_counts_with_any_tokenizer() -> None:
    tok = preset_trace("english-hindi").tokenizer
    text = LESSON4["test_hi"]
    m = measure(tok, text)
    ids = tok.encode(text)
    c = text_counts(text)
    assert (m.tokens, m.words, m.bytes, m.code_points) == (len(ids), c.words, c.bytes, c.code_points)
    assert m.partial == sum(1 for t in tok.encode_tokens(text) if not t.whole)
    assert m.tokens_per_word == pytest.approx(len(ids) / 10)
    assert measure(tok, "").tokens_per_word == 0.0


@pytest.mark.parametrize("preset_id", ["english-hindi", "english-hindi-fair"])
def test_the_premium_is_its_utf8_part_times_its_tokenizer_part(preset_id: str) -> None:
    tok = preset_trace(preset_id).tokenizer
    p = premium(tok, LESSON4["test_en"], LESSON4["test_hi"])
    assert p.premium == pytest.approx(p.utf8_part * p.tokenizer_part)
    assert p.utf8_part == pytest.approx(120 / 47)
    expected = next(e for e in LESSON4["expected"] if e["k"] == (1 if preset_id == "english-hindi" else 10))
    assert (p.english.tokens, p.hindi.tokens) == (expected["en_tokens"], expected["hi_tokens"])


# -- provenance -------------------------------------------------------------------------------------
def test_a_token_unfolds_into_the_merges_that_made_it() -> None:
    trace = preset_trace("chai")
    tok = trace.tokenizer
    counts = {s.token_id: s.count for s in trace.steps}
    (chai,) = tok.encode("chai")
    tree = merge_tree(tok, chai, counts)
    assert (tree.label, tree.step, tree.count) == ("chai", 3, 5)
    assert tree.depth() == 3 and tree.steps() == [1, 2, 3]
    assert render_text(tree).splitlines()[0] == "chai  (merge 3, seen 5 times)"
    leaves = []

    def walk(node):
        if node.is_base:
            leaves.append(node.label)
        for child in (node.left, node.right):
            if child is not None:
                walk(child)

    walk(tree)
    assert "".join(leaves) == "chai"
    assert made_by_merges(tok, tok.encode("chaipoha xyz")) == tok.encode("chaipoha")
    with pytest.raises(ValueError):
        merge_tree(tok, 10_000)
