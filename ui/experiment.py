"""Lesson 4's experiment as pages use it: its sweep, cached for every learner.

The experiment itself (the lesson's data and settings, the sweep, uncached) is plain code below the UI,
:mod:`lessons.experiment`, which English vs Hindi (:mod:`views.english_hindi`) imports its names from. This module
adds only the caches: the sweep per (texts, pair) for every learner (``st.cache_data``) and a share's run as a
trace (:func:`ui.training.trained`). Its two predict-first questions are built from it (:mod:`ui.questions`).
"""

from __future__ import annotations

import streamlit as st

from analyses.experiment import Sweep
from i18n import _n
from lessons import experiment as plain
from lessons.experiment import BUDGET_MAX, MAX_COPIES, Texts, corpus, settings
from tokenizer import Trace
from ui.training import trained


def sweep_of(texts: Texts) -> Sweep:
    """Every share from 0 to MAX_COPIES Hindi copies, trained once each (for every learner), with a spinner in the
    learner's language while they train (the cache's own would be English, its text fixed at import)."""
    with st.spinner(_n("Training {n} tokenizer, one for each share of the text…",
                       "Training {n} tokenizers, one for each share of the text…", MAX_COPIES + 1)):
        return _cached_sweep(texts)


@st.cache_data(max_entries=32, show_spinner=False)
def _cached_sweep(texts: Texts) -> Sweep:
    return plain.sweep_of(texts)


def trace_of(english: str, hindi: str, hindi_copies: int) -> Trace:
    """The run at one share, as a trace (cached per corpus by :func:`ui.training.trained`)."""
    return trained(corpus(english, hindi, hindi_copies), BUDGET_MAX, **settings())


__all__ = ["sweep_of", "trace_of"]
