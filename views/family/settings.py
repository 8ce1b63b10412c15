"""The family page's settings: its parts, its bounds, its session keys and URL parameters, and the settings
whose defaults follow the chosen corpus.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import streamlit as st

import lessons
from family.unigram import minimum_vocab
from i18n import N_, _, localized
from tokenizer.model import UNIT_NAMES
from ui import presets, state
from ui.display import visible_token
from ui.state import Param
from ui.steps import Stepper

PAGE = "family"
CONTENT = lessons.data("family")

PARTS = ("merges", "unigram", "pipeline", "special")
PART_NAMES = {"merges": N_("BPE vs WordPiece"), "unigram": "Unigram", "pipeline": N_("The pipeline"),
              "special": N_("Special tokens")}
"""The parts' names, marked for the catalogue (Unigram is a name in every language): drawn through ``_()``."""


def said(*path: str) -> str:
    """A text of the page's content (lessons/data/family.json) in the current language: its Hindi beside the
    English, in the ``hi`` table of the record it is in (``said("rules", "count")``)."""
    record = CONTENT
    for name in path[:-1]:
        record = record[name]
    return str(localized(record).get(path[-1], ""))

MAX_OWN_CHARS = 20_000  # the merge comparison recounts every pair at every step: a page or two of text
MAX_COMPARED_MERGES = 200
"""The most merges "BPE vs WordPiece" steps through, both trainers side by side (each step recounts every pair); not
Train's budget (:data:`ui.training.MAX_TRAIN_MERGES`)."""
OWN_MERGES = 20
TEXT_IN_LINK = 400
TOP_PAIRS = 8
LARGE_TOP_PAIRS = 6
TOP_WORDS = 12
LARGE_TOP_WORDS = 6

# Unigram
DEFAULT_VOCAB = 40
NBEST = 5
SAMPLES = 6
ALPHAS = (0.05, 0.1, 0.2, 0.5, 1.0)

# The pipeline and special tokens
SLIDE_IDS = 16
"""Classroom mode: the pipeline's ids shown in its figure (every one is one click away, under it)."""
PIPELINE_TOKENIZERS = ("cl100k_base", "o200k_base", "qwen3", "mistral-sp-v3", "r50k_base", "llama3", "mistral-tekken")
SPECIAL_TOKENIZERS = ("cl100k_base", "o200k_base", "r50k_base", "qwen3", "llama3")
ENDOFTEXT = "<|endoftext|>"
MAX_PIPELINE_CHARS = 2_000
MAX_PIPELINE_TOKENS = 400
MAX_MESSAGE_CHARS = 300
CHAT = tuple((m["role"], m["content"]) for m in CONTENT["chat"])


# -- the corpus ------------------------------------------------------------------------------------
def merges_default(preset_id: str) -> int:
    preset = lessons.presets().get(preset_id)
    return min(preset.merges, MAX_COMPARED_MERGES) if preset else OWN_MERGES


def word_default(preset_id: str) -> str:
    preset = lessons.presets().get(preset_id)
    return preset.examples[0] if preset and preset.examples else ""


def vocab_default(preset_id: str) -> int:
    """A Unigram vocabulary a little above the characters the preset's corpus must keep."""
    preset = lessons.presets().get(preset_id)
    if preset is None:
        return DEFAULT_VOCAB
    return max(DEFAULT_VOCAB, minimum_vocab(preset.corpus) + 20)


PART = Param(PAGE, "part", "merges", choices=PARTS)
PRESET = Param(PAGE, "preset", "chai", choices=presets.preset_ids())
TEXT = Param(PAGE, "text", "", max_len=TEXT_IN_LINK)
STEP = Param(PAGE, "step", 0, lo=0, hi=MAX_COMPARED_MERGES)
STEPPER = Stepper(STEP)
HASHES = Param(PAGE, "hashes", False)
ALPHA = Param(PAGE, "alpha", 0.1, choices=ALPHAS)
SEED = Param(PAGE, "seed", 1, lo=0, hi=2**31 - 1)
PTEXT = Param(PAGE, "ptext", lessons.data("lesson4_english_hindi")["test_hi"], max_len=600)
STOK = Param(PAGE, "stok", "cl100k_base", choices=SPECIAL_TOKENIZERS)
SPECIAL = Param(PAGE, "special", ENDOFTEXT, max_len=60)
MESSAGES = tuple(Param(PAGE, f"m{i}", content, max_len=MAX_MESSAGE_CHARS) for i, (_role, content) in enumerate(CHAT))
SEQUENCES = state.Key(PAGE, "sequences")
NUMBERS_OPEN = state.Key(PAGE, "numbers_open")
PIECES = state.Key(PAGE, "pieces")
USE_MINIMUM = state.Key(PAGE, "use_minimum")
AGAIN = state.Key(PAGE, "again")
ABOUT_OPEN = state.Key(PAGE, "about_open")
CHAT_RESET = state.Key(PAGE, "chat_reset")


CHART = state.Key(PAGE, "chart")
"""The pairs chart of one rule: ``CHART.of(rule)`` (``"count"``: BPE, ``"score"``: WordPiece)."""
NUMBERS = state.Key(PAGE, "numbers")
"""The numbers table of one rule: ``NUMBERS.of(rule)``."""


def word_example_key(i: int) -> str:
    """The ``i``-th example word's button (Unigram)."""
    return WORD_EXAMPLE.of(str(i))


def ptext_example_key(i: int) -> str:
    """The ``i``-th example text's button (the pipeline)."""
    return PTEXT_EXAMPLE.of(str(i))


WORD_EXAMPLE = state.Key(PAGE, "word_example")
PTEXT_EXAMPLE = state.Key(PAGE, "ptext_example")


MERGES = Param(PAGE, "merges", OWN_MERGES, lo=0, hi=MAX_COMPARED_MERGES)
VOCAB = Param(PAGE, "vocab", DEFAULT_VOCAB, lo=1, hi=5_000)
WORD = Param(PAGE, "word", "", max_len=200)
"""The settings whose defaults follow the corpus: each corpus's own are :func:`corpus_params`."""


def corpus_params(preset_id: str) -> dict[str, Param]:
    """The settings whose defaults follow the corpus (a link carries only what the learner changed)."""
    return {
        "merges": replace(MERGES, default=merges_default(preset_id)),
        "vocab": replace(VOCAB, default=vocab_default(preset_id)),
        "word": replace(WORD, default=word_default(preset_id)),
    }


def apply_preset() -> None:
    """on_change of the corpus box: the new corpus's defaults, step 0."""
    preset_id = st.session_state.get(PRESET.skey, PRESET.default)
    for param in corpus_params(preset_id).values():
        st.session_state[param.skey] = param.default
    Stepper(STEP).reset()  # step 0, autoplay off


def settings_for(preset_id: str) -> dict[str, Any]:
    """The trainer settings of a preset (your own text: characters, whitespace split, no marker)."""
    return presets.preset_settings(preset_id).config().to_dict()


def settings_summary(preset_id: str) -> str:
    s = presets.preset_settings(preset_id)
    split = (_("whitespace split") if s.split == "whitespace" else
             _("regex pre-split {pattern}", pattern=visible_token(s.pattern)))
    marker = (_("end-of-word marker {marker}", marker=s.end_of_word) if s.end_of_word else
              _("no end-of-word marker"))
    return f"{_(UNIT_NAMES[s.unit])} · {split} · {marker}"
