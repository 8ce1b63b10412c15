"""What "The family" page draws: BPE beside WordPiece step by step, Unigram's pieces and samples,
a real tokenizer's stages, a chat template's special tokens.

The page reads its widgets and calls the engine (:mod:`family.wordpiece`,
:mod:`family.unigram`, :mod:`family.pipeline`, :mod:`family.chat`)
through the cached helpers here; everything a click redraws is cached per
(corpus, settings, step), so a classroom stepping through a preset shares the work.

Step semantics: step 0 is before any merge (both rules see the same pairs);
step *k* shows each rule's pair table *before* its merge *k*, the pair it
picks, and its corpus *after* merge *k*. After their first different merge
the two corpora differ, so each rule's table is its own corpus's.

A package with one module a part of the lesson, in the page's order (the page draws one part at a time:
``SECTIONS[part](show)``, passing one :class:`ui.show.Show` that says how the page is shown):

``settings``  the parts, the bounds, the session keys and URL parameters, the settings that follow the corpus
``corpus``    the corpus box "BPE vs WordPiece" and "Unigram" share
``merges``    1. BPE vs WordPiece, merge by merge side by side
``unigram``   2. Unigram's pieces, its most likely segmentations, segmentations drawn at random
``pipeline``  3. a real tokenizer's stages
``special``   4. a chat template's special tokens
"""

from __future__ import annotations

from collections.abc import Callable

from family.unigram import META
from ui.show import Show

from .merges import (
    CHART_DATA,
    chart_spec,
    corpus_html,
    corpus_tokens,
    pair_rows,
    part_merges,
    rows_key,
    rule_traces,
    rules_run,
    why,
)
from .pipeline import part_pipeline
from .settings import (
    ABOUT_OPEN,
    AGAIN,
    ALPHA,
    CHAT_RESET,
    CONTENT,
    HASHES,
    LARGE_TOP_PAIRS,
    MAX_COMPARED_MERGES,
    MERGES,
    MESSAGES,
    NBEST,
    NUMBERS_OPEN,
    PAGE,
    PART,
    PART_NAMES,
    PARTS,
    PRESET,
    PTEXT,
    SAMPLES,
    SEED,
    SPECIAL,
    STEP,
    STEPPER,
    STOK,
    TEXT,
    TOP_PAIRS,
    USE_MINIMUM,
    VOCAB,
    WORD,
    ptext_example_key,
    said,
    settings_for,
    vocab_default,
    word_example_key,
)
from .special import part_special
from .unigram import part_unigram

#: The page's parts, each drawn by one section.
SECTIONS: dict[str, Callable[[Show], None]] = {
    "merges": part_merges, "unigram": part_unigram, "pipeline": part_pipeline, "special": part_special,
}

__all__ = [
    "ABOUT_OPEN", "AGAIN", "ALPHA", "CHART_DATA", "CHAT_RESET", "CONTENT", "HASHES", "LARGE_TOP_PAIRS",
    "MAX_COMPARED_MERGES", "MERGES", "MESSAGES", "META", "NBEST", "NUMBERS_OPEN", "PAGE", "PART", "PARTS",
    "PART_NAMES", "PRESET", "PTEXT", "SAMPLES", "SECTIONS", "SEED", "SPECIAL", "STEP", "STEPPER", "STOK",
    "TEXT", "TOP_PAIRS", "USE_MINIMUM", "VOCAB", "WORD", "chart_spec", "corpus_html", "corpus_tokens", "pair_rows",
    "ptext_example_key", "rows_key", "rule_traces", "rules_run", "said", "settings_for", "vocab_default", "why",
    "word_example_key",
]
