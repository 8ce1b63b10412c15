"""Parity with Hugging Face ``tokenizers``: ``ties="hf"`` must learn HF's merges.

Setting: byte level, regex pre-split `` ?\\S+``, no end-of-word marker. HF is
configured to do exactly that: split into `` ?\\S+`` matches (the gaps kept as
pieces of their own, ``behavior="isolated"``), then map bytes to GPT-2's
stand-in characters with ``ByteLevel(use_regex=False)``. Its merges are read
back from the saved JSON and the stand-ins mapped back to bytes, then compared
with the bytes of each of our merged pairs.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
import tokenizers
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from tokenizers import Regex, models, pre_tokenizers, trainers
from tokenizers.pre_tokenizers import ByteLevel, Split

from tokenizer import train
from tokenizer.bytelevel import gpt2_byte_stand_ins

DATA = Path(__file__).parents[1] / "lessons" / "data" / "lesson4_english_hindi.json"
STAND_IN_TO_BYTE = {ch: byte for byte, ch in gpt2_byte_stand_ins().items()}

BytePair = tuple[bytes, bytes]


def hf_merges(text: str, n: int) -> list[BytePair]:
    """Train HF's BpeTrainer for ``n`` merges on ``text``; its merges as byte pairs."""
    tok = tokenizers.Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.Sequence(
        [Split(Regex(r" ?\S+"), behavior="isolated"), ByteLevel(add_prefix_space=False, use_regex=False)]
    )
    trainer = trainers.BpeTrainer(
        vocab_size=256 + n,
        initial_alphabet=ByteLevel.alphabet(),
        show_progress=False,
        special_tokens=[],
        min_frequency=0,
    )
    tok.train_from_iterator([text], trainer=trainer)
    merges = json.loads(tok.to_str())["model"]["merges"]
    out = []
    for entry in merges:
        left, right = entry.split(" ") if isinstance(entry, str) else entry
        out.append((bytes(STAND_IN_TO_BYTE[c] for c in left), bytes(STAND_IN_TO_BYTE[c] for c in right)))
    return out


def our_merges(text: str, n: int) -> tuple[list[BytePair], bool]:
    trace = train(text, n, unit="bytes", split="regex", pattern=r" ?\S+", ties="hf")
    tok = trace.tokenizer
    if trace.stopped_early:  # only allowed when no pair is left: every word is one token
        assert all(len(w.ids) == 1 for w in trace.segmentation(len(trace.steps)))
    return [(tok.token_bytes(s.pair[0]), tok.token_bytes(s.pair[1])) for s in trace.steps], trace.stopped_early


def assert_parity(text: str, n: int, expected_count: int | None = None) -> None:
    ours, stopped_early = our_merges(text, n)
    theirs = hf_merges(text, n)
    both = min(len(ours), len(theirs))
    # Both stop at the same point: after n merges, or when no pair is left.
    assert len(ours) == len(theirs)
    if expected_count is not None:
        assert both == expected_count
    if not stopped_early:
        assert both == n
    for step, (a, b) in enumerate(zip(ours[:both], theirs[:both]), start=1):
        assert a == b, f"merge {step} differs: ours {a!r}, HF {b!r}"


# -- the curriculum's lesson 4 corpus --------------------------------------------------
@pytest.fixture(scope="module")
def lesson4() -> dict:
    return json.loads(DATA.read_text(encoding="utf-8"))


@pytest.mark.parametrize("k", [1, 10])
def test_hf_parity_lesson4(lesson4, k):
    text = lesson4["english_block"] * 10 + lesson4["hindi_block"] * k
    assert_parity(text, 100, expected_count=100)


def test_tie_rules_can_disagree(lesson4):
    """The two tie rules are really different (else the parity tests would prove little)."""
    text = lesson4["english_block"] * 10 + lesson4["hindi_block"]
    first = [s.pair for s in train(text, 100, unit="bytes", ties="first").steps]
    hf = [s.pair for s in train(text, 100, unit="bytes", ties="hf").steps]
    assert first != hf


# -- generated mixed Hindi / English text ------------------------------------------------
EN_WORDS = "the city rain roads school train late fog new budget council will open next year chai tea market Indore".split()
HI_WORDS = "भारी बारिश शहर सड़कें बंद नगर परिषद स्कूल नया बजट कोहरे रेलें देर राज्य साल चाय बाज़ार इंदौर".split()
PUNCT = ["", "", "", ",", ".", "।", "!", "?"]


def mixed_text(seed: int, sentences: int) -> str:
    rng = random.Random(seed)
    lines = []
    for _ in range(sentences):
        words = [rng.choice(rng.choice([EN_WORDS, HI_WORDS])) for _ in range(rng.randint(3, 10))]
        line = " ".join(words) + rng.choice(PUNCT)
        lines.append(line * rng.randint(1, 4))  # varied counts, and words glued across copies
    sep = rng.choice(["\n", " ", "  ", "\n\n"])
    return sep.join(lines) + rng.choice(["", "\n", " "])


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_hf_parity_mixed_hindi_english(seed):
    text = mixed_text(seed, sentences=40)
    assert_parity(text, 200)


def test_hf_parity_runs_out_of_pairs():
    # Few distinct words: both trainers stop early, at the same merge.
    text = "chai chai चाय  chai\nचाय"
    ours, stopped_early = our_merges(text, 500)
    assert stopped_early
    assert 0 < len(ours) < 500
    assert_parity(text, 500, expected_count=len(ours))


# -- hypothesis: small corpora over a few ASCII and Devanagari characters ---------------------
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    text=st.text(alphabet="ab कखा\u093e\n", min_size=1, max_size=60),
    n=st.integers(1, 30),
)
def test_hf_parity_small_corpora(text, n):
    assume(text.strip())
    assert_parity(text, n)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    words=st.lists(st.text(alphabet="aab कख", min_size=1, max_size=6), min_size=1, max_size=8),
    repeats=st.lists(st.integers(1, 6), min_size=8, max_size=8),
    n=st.integers(1, 40),
)
def test_hf_parity_repeated_words(words, repeats, n):
    text = " ".join(" ".join([w] * r) for w, r in zip(words, repeats))
    assume(text.strip())
    assert_parity(text, n)


# -- the numbering the "hf" tie rule relies on ---------------------------------------------
def test_hf_numbers_bytes_by_sorted_stand_in():
    """HF's base ids are the 256 stand-in characters in sorted order: the assumption of both rankings, the
    engine's (tokenizer.bytelevel, which the fast trainer uses) and the oracle's (written apart in the reference)."""
    from tokenizer.bytelevel import hf_base_rank
    from tokenizer.reference import hf_base_order

    stand_in = gpt2_byte_stand_ins()
    assert sorted(stand_in.values()) == sorted(ByteLevel.alphabet())
    tok = tokenizers.Tokenizer(models.BPE())
    tok.pre_tokenizer = ByteLevel(add_prefix_space=False, use_regex=False)
    trainer = trainers.BpeTrainer(
        vocab_size=256, initial_alphabet=ByteLevel.alphabet(), show_progress=False, special_tokens=[]
    )
    tok.train_from_iterator(["ab"], trainer=trainer)
    vocab = json.loads(tok.to_str())["model"]["vocab"]
    position = hf_base_order("bytes", None, None)
    assert {STAND_IN_TO_BYTE[ch]: i for ch, i in vocab.items()} == position
    assert {STAND_IN_TO_BYTE[ch]: i for ch, i in vocab.items()} == dict(enumerate(hf_base_rank("bytes", None, 256)))
