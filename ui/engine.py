"""The engine as pages use it: cached training and the tokenizer choices.

Training results are cached across reruns and across learners
(``st.cache_resource``: one shared, read-only object per distinct corpus and
settings). Pages never call :func:`tokenizer.train` directly.
"""

from __future__ import annotations

from typing import Callable

import streamlit as st

import lessons
from tokenizer import Trace, train

MAX_MERGES = 5000
MAX_CORPUS_CHARS = 2_000_000  # about 2 MB of text: trains in seconds, with a progress bar


@st.cache_resource(max_entries=48, show_spinner=False)
def trained(
    corpus: str,
    merges: int,
    unit: str = "bytes",
    split: str = "regex",
    pattern: str = r" ?\S+",
    end_of_word: str | None = None,
    ties: str = "first",
    _progress: Callable[[int, int], None] | None = None,
) -> Trace:
    """Train once per distinct corpus and settings; every learner shares the result."""
    return train(
        corpus,
        merges,
        unit=unit,
        split=split,
        pattern=pattern,
        end_of_word=end_of_word,
        ties=ties,
        table_size=12,
        max_ties=12,
        progress=_progress,
    )


def trained_with_progress(corpus: str, merges: int, **settings) -> Trace:
    """Like :func:`trained`, with a progress bar when the corpus is large."""
    if len(corpus) < 50_000:
        return trained(corpus, merges, **settings)
    bar = st.progress(0.0, text="Training…")

    def report(done: int, total: int) -> None:
        bar.progress(done / max(total, 1), text=f"Training: merge {done:,} of {total:,}")

    trace = trained(corpus, merges, **settings, _progress=report)
    bar.empty()
    return trace


def preset_trace(preset_id: str) -> Trace:
    preset = lessons.presets()[preset_id]
    return trained(preset.corpus, preset.merges, **preset.train_kwargs())
