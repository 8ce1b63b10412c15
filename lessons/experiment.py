"""Lesson 4's experiment, below the UI: English and Hindi sharing one training text, its settings and its sweep.

The engine does the work (:mod:`analyses.experiment`): one sweep trains a tokenizer for every number of Hindi
copies, once each at the largest budget, and counts the two test sentences after every merge. This module holds
the lesson's data and settings and runs the sweep, uncached; the pages get it cached for every learner from
:mod:`ui.experiment`, and the questions built on it (:mod:`lessons.questions`) take it from either.
"""

from __future__ import annotations

from typing import NamedTuple

import lessons
from analyses.experiment import Sweep, mix, sweep

EVH_PAGE = "evh"  # English vs Hindi: its keys' page, and its questions' scope
LESSON_PRESET, FAIR_PRESET = lessons.LESSON4_PRESET, lessons.LESSON4_FAIR_PRESET  # the experiment's, as data
MAX_COPIES = lessons.MAX_HINDI_COPIES  # Hindi copies on the share slider: 0 (English only) to twice the fair share
BUDGET_MAX = 500  # every sweep trains this far (or until no pair is left); smaller budgets are read from it
ENGLISH_COPIES = lessons.ENGLISH_COPIES  # the English block's copies in every mix


def lesson() -> dict:
    """The lesson-4 blocks and sentence pair (``lessons/data/lesson4_english_hindi.json``)."""
    return lessons.data("lesson4_english_hindi")


def settings() -> dict:
    """The trainer's five choices: the lesson presets' (byte level, ``" ?\\S+"``, first seen)."""
    return lessons.presets()[LESSON_PRESET].train_kwargs()


def preset_copies(preset_id: str) -> int:
    """How many Hindi copies a lesson preset's corpus holds (:func:`lessons.hindi_copies`)."""
    k = lessons.hindi_copies(preset_id)
    if k is None:
        raise ValueError(f"Preset {preset_id!r} is not the English block x{ENGLISH_COPIES} plus Hindi copies.")
    return k


def lesson_budget() -> int:
    return lessons.presets()[LESSON_PRESET].merges


class Texts(NamedTuple):
    """What an experiment reads: the two paragraphs it trains on and the two sentences it counts.
    (A tuple of strings: the caches hash it in microseconds.)"""

    english: str
    hindi: str
    test_english: str
    test_hindi: str


def lesson_texts() -> Texts:
    data = lesson()
    return Texts(data["english_block"], data["hindi_block"], data["test_en"], data["test_hi"])


def sweep_of(texts: Texts) -> Sweep:
    """Every share from 0 to MAX_COPIES Hindi copies, trained once each (uncached: :func:`ui.experiment.sweep_of`
    is the pages' cached one)."""
    return sweep(*texts, hindi_copies=range(MAX_COPIES + 1), english_copies=ENGLISH_COPIES, budget=BUDGET_MAX,
                 **settings())


def corpus(english: str, hindi: str, hindi_copies: int) -> str:
    return mix([(english, ENGLISH_COPIES), (hindi, hindi_copies)])


__all__ = ["BUDGET_MAX", "ENGLISH_COPIES", "EVH_PAGE", "FAIR_PRESET", "LESSON_PRESET", "MAX_COPIES", "Texts", "corpus",
           "lesson", "lesson_budget", "lesson_texts", "preset_copies", "settings", "sweep_of"]
