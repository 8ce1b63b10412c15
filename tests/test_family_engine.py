"""Lesson 8's engine: WordPiece's score beside BPE's count, Unigram through SentencePiece, a real
tokenizer's pipeline stage by stage, and the special tokens of a chat template.

* WordPiece: the score checked by hand on the chai stall from the counts the engine reports, and the
  trainer checked against a brute-force reference written here (strings, no ids, every score a
  fraction); ``rule="count"`` is exactly the lab's BPE; a constructed corpus where the two rules pick
  different pairs; the tie rule (first seen) in both directions.
* Unigram: trained deterministically on a preset; pieces and scores; the n-best list is best first and
  every segmentation (n-best or sampled) joins back into the text; the lab's sampler draws each
  segmentation as often as SentencePiece's own and as the exact odds say, and a seed repeats its draws
  in another process (SentencePiece's own generator does not).
* Pipeline: cl100k on the lesson-4 Hindi sentence, stage by stage, matches the tokenizer's own
  encoding and quicktok's independent encoder; Qwen3's NFC; ``Ġ`` and ``▁`` in raw pieces.
* Special tokens: Mistral's chat template overhead; ``<|endoftext|>`` typed is many tokens, special is one id.
"""

from __future__ import annotations

import json
import math
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import lessons
from family import real
from family.chat import mistral_chat, template_name
from family.pipeline import stages
from family.unigram import (
    SPACE,
    UnigramError,
    characters,
    minimum_vocab,
    sentences,
    train_unigram,
)
from family.wordpiece import (
    continuation_labels,
    first_difference,
    symbol_counts,
    train_by_rule,
    train_wordpiece,
    wordpiece_score,
)
from tests.lesson_data import LESSON4
from tokenizer import train

ROOT = Path(__file__).resolve().parents[1]
PRESETS = lessons.presets()
CHAI = PRESETS["chai"]
FAMILY = lessons.data("family")
CHAR_PRESETS = [pid for pid, p in PRESETS.items() if p.unit == "chars"]


def both(corpus, merges, **kw):
    kw.setdefault("unit", "chars")
    kw.setdefault("split", "whitespace")
    return train_by_rule(corpus, merges, rule="count", **kw), train_by_rule(corpus, merges, rule="score", **kw)


# -- WordPiece: the score, by hand ---------------------------------------------------------------------
def occurrences(word: str, sub: str) -> int:
    """How often ``sub`` occurs in ``word``, overlaps included (for single characters: plain counting)."""
    return sum(1 for i in range(len(word) - len(sub) + 1) if word[i : i + len(sub)] == sub)


def test_chai_scores_by_hand_from_the_counts_the_engine_reports() -> None:
    words = dict(train(CHAI.corpus, 0, unit="chars", split="whitespace").words)
    bpe, wp = both(CHAI.corpus, 1)
    step = bpe.steps[0]
    h_a = step.winner
    # The counts, recounted here from the words: h and a occur 11 and 21 times, h a 11 times.
    assert h_a.left_count == sum(n * w.count("h") for w, n in words.items()) == 11
    assert h_a.right_count == sum(n * w.count("a") for w, n in words.items()) == 21
    assert h_a.count == sum(n * occurrences(w, "ha") for w, n in words.items()) == 11
    assert h_a.score == Fraction(11, 11 * 21) == Fraction(1, 21)
    # WordPiece's pick: p + o, 4 / (4 x 5) = 1/5, against BPE's 1/21.
    p_o = wp.steps[0].winner
    assert (p_o.left, p_o.right) == ("p", "o")
    assert (p_o.count, p_o.left_count, p_o.right_count) == (4, 4, 5)
    assert p_o.score == Fraction(4, 4 * 5) > h_a.score
    # Each rule also names the other's pick on the same corpus.
    assert (step.other.left, step.other.right) == ("p", "o")
    assert (wp.steps[0].other.left, wp.steps[0].other.right) == ("h", "a")
    # The two tables hold the same pairs' numbers, each in its rule's order.
    assert [c.count for c in step.by_count] == sorted((c.count for c in step.by_count), reverse=True)
    assert [c.score for c in step.by_score] == sorted((c.score for c in step.by_score), reverse=True)
    assert wordpiece_score(11, 11, 21) == Fraction(1, 21)
    with pytest.raises(ValueError):
        wordpiece_score(1, 0, 3)


def test_the_tie_rule_is_first_seen_in_both_directions() -> None:
    """p + o and m + o both score 1/5 on the chai stall: p + o is met first (poha comes before samosa).
    Put samosa first and m + o wins: the rule, not the pair, decides."""
    wp = train_wordpiece(CHAI.corpus, 1, unit="chars", split="whitespace").steps[0]
    assert wp.n_tied == 2 and [(c.left, c.right) for c in wp.ties] == [("p", "o"), ("m", "o")]
    assert wp.ties[0].score == wp.ties[1].score == Fraction(1, 5)
    assert wp.first_seen == (3, 0)  # word 3 of the distinct words (poha), its first pair
    swapped = train_wordpiece("samosa " + CHAI.corpus, 1, unit="chars", split="whitespace").steps[0]
    assert (swapped.winner.left, swapped.winner.right) == ("m", "o")
    # BPE's ties follow the same rule (preset A: n + e and e + w at 10, n + e met first).
    news = train_by_rule(PRESETS["news"].corpus, 1, rule="count", unit="chars", split="whitespace").steps[0]
    assert news.n_tied == 2 and (news.winner.left, news.winner.right) == ("n", "e")


def test_a_corpus_where_the_two_rules_disagree() -> None:
    """a is everywhere, so a + b needs a huge count; z and q only ever occur together."""
    corpus = {"ab": 5, "ac": 5, "ad": 5, "zq": 2}
    bpe, wp = both(corpus, 1)
    assert (bpe.steps[0].winner.left, bpe.steps[0].winner.right, bpe.steps[0].winner.count) == ("a", "b", 5)
    assert bpe.steps[0].n_tied == 3  # a + b, a + c, a + d: first seen wins
    w = wp.steps[0].winner
    assert (w.left, w.right, w.count, w.score) == ("z", "q", 2, Fraction(1, 2))
    assert bpe.steps[0].winner.score == Fraction(5, 15 * 5) < w.score
    assert first_difference(bpe, wp) == 1
    # Where every pair is as rare as its parts, they agree.
    same = both({"xy": 3, "uv": 3}, 2)
    assert first_difference(*same) is None


# -- WordPiece: against a brute-force reference ----------------------------------------------------------
def brute_force(words: dict[str, int], merges: int, rule: str) -> list[tuple[str, str, Fraction | int]]:
    """The textbook loop on lists of strings: recount every symbol and pair, score each pair as a fraction,
    take the best (ties: first met reading the words in order, left to right), merge left to right."""
    split = [(list(w), n) for w, n in words.items()]
    out = []
    for _ in range(merges):
        symbol: dict[str, int] = {}
        pair: dict[tuple[str, str], int] = {}
        order: list[tuple[str, str]] = []
        for symbols, n in split:
            for s in symbols:
                symbol[s] = symbol.get(s, 0) + n
            for p in zip(symbols, symbols[1:]):
                if p not in pair:
                    order.append(p)
                pair[p] = pair.get(p, 0) + n
        if not pair:
            break

        def value(p, pair=pair, symbol=symbol):  # this step's counts, bound now
            return pair[p] if rule == "count" else Fraction(pair[p], symbol[p[0]] * symbol[p[1]])

        best = max(order, key=lambda p: (value(p), -order.index(p)))
        out.append((best[0], best[1], value(best)))
        merged = []
        for symbols, n in split:
            new, i = [], 0
            while i < len(symbols):
                if i + 1 < len(symbols) and (symbols[i], symbols[i + 1]) == best:
                    new.append(best[0] + best[1])
                    i += 2
                else:
                    new.append(symbols[i])
                    i += 1
            merged.append((new, n))
        split = merged
    return out


def learned(trace) -> list[tuple[str, str, Fraction | int]]:
    return [(s.winner.left, s.winner.right, s.winner.value(trace.rule)) for s in trace.steps]


@pytest.mark.parametrize("preset_id", [p for p in CHAR_PRESETS if PRESETS[p].end_of_word is None])
def test_both_rules_equal_the_brute_force_reference_on_the_presets(preset_id: str) -> None:
    preset = PRESETS[preset_id]
    words = dict(train(preset.corpus, 0, **preset.train_kwargs()).words)
    for rule in ("count", "score"):
        trace = train_by_rule(preset.corpus, 12, rule=rule, **preset.train_kwargs())
        assert learned(trace) == brute_force(words, 12, rule)


@settings(max_examples=120, deadline=None)
@given(st.dictionaries(st.text(alphabet="abcd", min_size=1, max_size=6), st.integers(1, 5), min_size=1, max_size=6),
       st.integers(1, 8))
def test_both_rules_equal_the_brute_force_reference_on_any_corpus(words: dict[str, int], merges: int) -> None:
    for rule in ("count", "score"):
        trace = train_by_rule(words, merges, rule=rule, unit="chars", split="whitespace")
        assert learned(trace) == brute_force(words, merges, rule)
        # Each step's numbers are the counts of the corpus as it stood.
        for step, split in zip(trace.steps, [trace.segmentation(k) for k in range(len(trace.steps))]):
            assert step.winner.left_count == sum(w.count * w.tokens.count(step.winner.left) for w in split)


@pytest.mark.parametrize("preset_id", list(PRESETS))
def test_the_count_rule_is_exactly_the_labs_bpe(preset_id: str) -> None:
    preset = PRESETS[preset_id]
    merges = min(preset.merges, 40)
    ours = train_by_rule(preset.corpus, merges, rule="count", **preset.train_kwargs())
    lab = train(preset.corpus, merges, **preset.train_kwargs())
    assert [s.winner.pair for s in ours.steps] == [s.pair for s in lab.steps]
    assert [s.winner.count for s in ours.steps] == [s.count for s in lab.steps]
    assert [s.n_tied for s in ours.steps] == [s.n_tied for s in lab.steps]
    assert ours.tokenizer.encode(preset.corpus) == lab.tokenizer.encode(preset.corpus)


def test_segmentation_tokenizer_and_wordpiece_labels() -> None:
    wp = train_wordpiece(CHAI.corpus, CHAI.merges, unit="chars", split="whitespace")
    final = {w.word: w.tokens for w in wp.segmentation(len(wp.steps))}
    assert final["pohawala"] == tuple(t.label for t in wp.tokenizer.encode_tokens("pohawala"))
    assert continuation_labels(final["pohawala"]) == [final["pohawala"][0], *("##" + t for t in final["pohawala"][1:])]
    assert continuation_labels([]) == []
    assert symbol_counts([([1, 1], 2)]) == {1: 4}
    assert wp.name == "WordPiece" and "WordPiece" in wp.tokenizer.name


def test_bad_settings_are_refused_in_words() -> None:
    with pytest.raises(ValueError, match="rule"):
        train_by_rule("chai", 1, rule="likelihood")
    with pytest.raises(ValueError, match="first"):
        train_by_rule("chai", 1, rule="score", ties="hf")
    with pytest.raises(ValueError, match="whole number"):
        train_by_rule("chai", -1, rule="score")
    with pytest.raises(ValueError, match="no words"):
        train_by_rule("   ", 1, rule="score", unit="chars", split="whitespace")
    trace = train_by_rule("ab", 5, rule="score", unit="chars", split="whitespace")
    assert len(trace.steps) == 1 and trace.stop_reason is not None


def test_hugging_face_wordpiece_trainer_counts_like_bpe() -> None:
    """The page says so: tokenizers' WordPieceTrainer merges h + a first on the chai stall (BPE's pick),
    not p + o (the score's)."""
    tokenizers = pytest.importorskip("tokenizers")
    from tokenizers import models, pre_tokenizers, trainers

    tok = tokenizers.Tokenizer(models.WordPiece(unk_token="[UNK]"))
    tok.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
    alphabet = len(set(CHAI.corpus.replace(" ", "")))
    # [UNK], the letters, the letters as ##continuations, then the first merge.
    tok.train_from_iterator([CHAI.corpus], trainers.WordPieceTrainer(vocab_size=200, special_tokens=["[UNK]"]))
    vocab = sorted(tok.get_vocab().items(), key=lambda kv: kv[1])
    merged = [piece for piece, _ in vocab if piece != "[UNK]" and len(piece.removeprefix("##")) > 1]
    assert merged[0] == "##ha"
    bpe = train(CHAI.corpus, 1, unit="chars", split="whitespace").steps[0]
    assert "##" + bpe.token == merged[0] and alphabet > 2


# -- Unigram ----------------------------------------------------------------------------------------------
def test_unigram_on_the_chai_preset_is_deterministic() -> None:
    a = train_unigram(CHAI.corpus, 30)
    b = train_unigram(CHAI.corpus, 30)
    assert a.proto == b.proto
    assert [(p.piece, p.score) for p in a.pieces] == [(p.piece, p.score) for p in b.pieces]
    # A tiny corpus supports fewer pieces than asked for; every character stays, and ▁.
    assert a.requested == 30 and minimum_vocab(CHAI.corpus) <= a.vocab_size < 30
    kept = {p.piece for p in a.pieces}
    assert set(characters(CHAI.corpus)) | {SPACE, "<unk>", "<s>", "</s>"} <= kept
    ranked = a.by_score()
    assert [p.score for p in ranked] == sorted((p.score for p in ranked), reverse=True)
    assert all(p.kind != "special" for p in ranked) and all(p.score < 0 for p in ranked)
    assert {p.piece for p in a.pieces if p.kind == "piece"} >= {"▁chai", "▁poha"}
    assert all(0 < p.probability < 1 for p in ranked)  # the scores are log probabilities


@pytest.mark.parametrize("text", ["chaipoha", "pohawala samosa", "chai", "xyz chai"])
def test_nbest_and_samples_join_back_into_the_text(text: str) -> None:
    model = train_unigram(CHAI.corpus, 30)
    best = model.nbest(text, 5)
    assert best and best[0] == model.encode(text)
    assert [s.score for s in best] == sorted((s.score for s in best), reverse=True)
    assert len({s.pieces for s in best}) == len(best)
    samples = model.sample(text, 8, alpha=0.1, seed=3)
    for seg in [*best, *samples]:
        assert seg.text == text
        assert model.decode(seg.pieces) == text
        assert seg.pieces[0].startswith(SPACE)
    assert samples == model.sample(text, 8, alpha=0.1, seed=3)  # seeded: the same draws
    assert (best[0].unknown > 0) == ("xyz" in text)
    assert [best[0].pieces[i] for i in best[0].unknown_at] == (["xyz"] if "xyz" in text else [])


def test_sampling_explores_several_segmentations() -> None:
    model = train_unigram(CHAI.corpus, 30)
    drawn = {s.pieces for s in model.sample("chaiwala", 30, alpha=0.1, seed=1)}
    assert len(drawn) >= 2 and all("".join(p) == "▁chaiwala" for p in drawn)
    assert model.nbest("", 3) == [] and model.sample(" ", 3) == []
    with pytest.raises(UnigramError):
        model.sample("chai", 2, alpha=0)


def segmentations_of(model, text: str) -> list[tuple[tuple[str, ...], float]]:
    """Every way to cut the text into the model's pieces (brute force), each with its score."""
    normal, _ = model.lattice(text)
    table = {p.piece: p.score for p in model.pieces if p.kind != "special"}
    out = []

    def cut(rest: str, pieces: tuple[str, ...], score: float) -> None:
        if not rest:
            out.append((pieces, score))
        for j in range(1, len(rest) + 1):
            if rest[:j] in table:
                cut(rest[j:], pieces + (rest[:j],), score + table[rest[:j]])

    cut(normal, (), 0.0)
    return out


@pytest.mark.parametrize(("text", "alpha"), [("chaipoha", 0.1), ("pohawala samosa", 0.5), ("chai", 1.0)])
def test_sampling_draws_each_segmentation_as_often_as_sentencepiece(text: str, alpha: float) -> None:
    """The lab's sampler is SentencePiece's (forward filtering, backward sampling) written in Python:
    its normaliser is the brute-force sum over every segmentation, and both draw each one as often."""
    from collections import Counter

    model = train_unigram(CHAI.corpus, 30)
    every = segmentations_of(model, text)
    exact = math.log(sum(math.exp(alpha * score) for _, score in every))
    assert model.log_total(text, alpha) == pytest.approx(exact)
    n = 3_000
    ours = Counter(seg.pieces for seg in model.sample(text, n, alpha=alpha, seed=11))
    theirs = Counter(tuple(model._sp.encode(text, out_type=str, enable_sampling=True, alpha=alpha, nbest_size=-1))
                     for _ in range(n))
    odds = {pieces: math.exp(alpha * score - exact) for pieces, score in every}
    for pieces in set(ours) | set(theirs):
        assert pieces in odds
        assert abs(ours[pieces] / n - odds[pieces]) < 0.04 and abs(theirs[pieces] / n - odds[pieces]) < 0.04


def test_the_same_seed_gives_the_same_draws_in_another_process() -> None:
    code = (
        "import json, lessons\n"
        "from family.unigram import train_unigram\n"
        "m = train_unigram(lessons.presets()['chai'].corpus, 30)\n"
        "print(json.dumps([s.pieces for s in m.sample('chaipoha pohawala', 6, alpha=0.1, seed=5)]))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60,
                            check=True)
    there = [tuple(p) for p in json.loads(result.stdout.strip().splitlines()[-1])]
    assert there == [s.pieces for s in train_unigram(CHAI.corpus, 30).sample("chaipoha pohawala", 6, alpha=0.1, seed=5)]


def test_unigram_errors_say_what_to_do() -> None:
    least = minimum_vocab(CHAI.corpus)
    assert least == len(set(CHAI.corpus.replace(" ", ""))) + 1 + 3
    with pytest.raises(UnigramError, match=f"at least {least}"):
        train_unigram(CHAI.corpus, least - 1)
    with pytest.raises(UnigramError, match="no words"):
        train_unigram("  \n ", 20)
    with pytest.raises(UnigramError, match="whole number"):
        train_unigram(CHAI.corpus, 20.5)
    assert train_unigram(CHAI.corpus, least).vocab_size == least


def test_unigram_takes_long_lines_and_hindi() -> None:
    assert sentences("a b\n\nc", max_bytes=3) == ["a b", "c"]
    assert sentences("x" * 25, max_bytes=10) == ["x" * 10, "x" * 10, "x" * 5]
    assert all(len(s.encode()) <= 12 for s in sentences("खबर " * 20, max_bytes=12))
    preset = PRESETS["english-hindi-fair"]
    model = train_unigram(preset.corpus, minimum_vocab(preset.corpus) + 30)
    seg = model.encode(LESSON4["test_hi"])
    assert seg.text == LESSON4["test_hi"] and seg.unknown == 0


# -- the pipeline ------------------------------------------------------------------------------------------
def test_cl100k_pipeline_on_the_hindi_sentence_matches_its_own_encoding() -> None:
    tok = real.load("cl100k_base")
    text = LESSON4["test_hi"]
    s = stages(tok, text)
    assert s.normalized == text and s.changes == ()  # GPT-4 normalises nothing
    assert "".join(s.pieces) == text
    # Encoding the pieces one by one gives the whole text's ids: merges never cross a piece.
    assert [i for piece in s.pieces for i in tok.encode(piece)] == list(s.ids) == tok.encode(text)
    assert s.count == len(s.ids) == tok.count(text)
    assert b"".join(t.bytes for t in s.tokens) == text.encode("utf-8")
    quicktok = pytest.importorskip("quicktok")
    assert list(s.ids) == quicktok.get_encoding("cl100k_base").encode_ordinary(text)
    # GPT-4's pattern cuts a vowel sign off its consonant: it is not a letter (\p{L}) to it.
    assert s.pieces[:2] == ("घन", "े")
    assert stages(tok, text, limit=5).ids == s.ids[:5]


def test_qwen3_reads_nfc_and_says_what_changed() -> None:
    tok = real.load("qwen3")
    typed = "स\u095ck"  # ड़ as one code point, which NFC writes as ड + nukta
    s = stages(tok, typed)
    assert s.normalized == "स\u0921\u093ck" != typed
    assert s.changes == (("\u095c", "\u0921\u093c"),)
    assert list(s.ids) == tok.encode("स\u0921\u093ck")
    assert stages(real.load("cl100k_base"), typed).changes == ()


def test_space_markers_in_raw_pieces() -> None:
    gpt2 = stages(real.load("r50k_base"), "chai and fog")
    assert gpt2.raw == ("ch", "ai", "Ġand", "Ġfog")
    mistral = stages(real.load("mistral-sp-v3"), "chai and fog")
    assert mistral.pieces is None
    assert mistral.normalized == "▁chai▁and▁fog"
    assert mistral.raw[0].startswith("▁") and "▁and" in mistral.raw
    assert "".join(mistral.raw) == mistral.normalized


# -- special tokens ----------------------------------------------------------------------------------------
def test_the_chat_templates_overhead_is_counted() -> None:
    messages = [(m["role"], m["content"]) for m in FAMILY["chat"]]
    chat = mistral_chat(messages)
    users = sum(1 for role, _ in messages if role == "user")
    assistants = len(messages) - users
    # <s> once, [INST] and [/INST] around each user message, </s> after each assistant reply.
    assert chat.specials() == [("<s>", 1), ("[INST]", users), ("[/INST]", users), ("</s>", assistants)]
    assert chat.added == 1 + 2 * users + assistants == sum(t.special for t in chat.tokens)
    assert chat.total == sum(chat.content) + chat.added
    assert chat.per_message == chat.added / len(messages)
    # The ids are mistral-common's own.
    from mistral_common.protocol.instruct.messages import AssistantMessage, UserMessage
    from mistral_common.protocol.instruct.request import ChatCompletionRequest

    from family.chat import _mistral

    kinds = {"user": UserMessage, "assistant": AssistantMessage}
    request = ChatCompletionRequest(messages=[kinds[r](content=c) for r, c in messages])
    assert [t.id for t in chat.tokens] == _mistral().encode_chat_completion(request).tokens
    assert "Mistral" in template_name()
    with pytest.raises(ValueError, match="refuses"):
        mistral_chat([("assistant", "Namaste")])
    with pytest.raises(ValueError, match="role"):
        mistral_chat([("narrator", "x")])


@pytest.mark.parametrize("name", ["cl100k_base", "o200k_base", "qwen3", "r50k_base"])
def test_endoftext_typed_is_many_tokens_special_is_one_id(name: str) -> None:
    tok = real.load(name)
    typed = tok.encode("<|endoftext|>")
    special = tok.encode_special("<|endoftext|>")
    assert len(typed) > 1
    assert special == [tok.special_tokens["<|endoftext|>"]]
    assert tok.raw_piece(special[0]) == "<|endoftext|>"
    assert tok.decode(typed) == "<|endoftext|>"
    # Around it, the text is ordinary text either way.
    assert tok.encode_special("chai<|endoftext|>") == tok.encode("chai") + special


def test_sentencepiece_reads_no_special_tokens_from_text() -> None:
    tok = real.load("mistral-sp-v3")
    assert tok.special_tokens == {}
    with pytest.raises(ValueError):
        tok.encode_special("[INST]")
    assert len(tok.encode("[INST]")) > 1
