"""The predict-first questions as the pages ask them: the plain builders (:mod:`lessons.questions`) with the UI kit's
caches.

Building a question (its prompt, its explanation, its engine-computed answer, rebuilding it from a saved id) is
plain code below the UI, :mod:`lessons.questions`, so a loaded progress file is judged without the UI kit. What
lives here is only what a page adds: the caches every learner shares (an exercise's computed answer, a preset's
training, lesson 4's sweep) and what only the session knows (a lesson file opened in it, its class's own
questions), gathered in :data:`CACHED`, which each function below passes on; and the digest that names a text in
Encode's questions (:func:`ui.state.digest`). The pages use these (views/train/, views/lessons/,
views/english_hindi.py, views/encode.py, views/cost.py); a progress file loaded on a page resolves through
:func:`resolve`, and so do the class polls.
"""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import streamlit as st

import i18n
from lessons import questions as plain
from lessons.course import Exercise, course
from lessons.exercises import MAX_LISTED_TIES, Computed, compute, tie_explanation, times
from lessons.judging import Question
from lessons.progress import WAITS, QuestionId, Waits
from lessons.questions import (
    COUNT_PRESETS,
    DIRECTIONS,
    ENCODE_OPTIONS,
    GUESS_OPTIONS,
    PRACTICE_PRESETS,
    PRACTICE_SCOPE,
    TRAIN_SCOPE,
    direction,
    fit_question,
    guess_question,
    merge_question,
    practice_count,
    practice_count_question,
    practice_merge,
    practice_merge_question,
    unseen_words,
)
from ui import experiment, own, training
from ui.presets import Settings
from ui.state import digest


# -- the caches ----------------------------------------------------------------------------------------
@st.cache_resource(max_entries=256, show_spinner=False)
def _computed(op: str, args: str, lang: str) -> Computed:
    with i18n.using(lang):
        return compute(op, json.loads(args))


def computed(exercise: Exercise | str) -> Computed:
    """An exercise's computed answer, once per server for its operation, its arguments and the learner's language
    (read-only, shared by every learner of that language: its facts are sentences): a course exercise by its key,
    or any exercise (a lesson file's, a teacher's own question)."""
    if isinstance(exercise, str):
        exercise = next(e for e in course().exercises if e.key == exercise)
    return _computed(exercise.op, json.dumps(exercise.args, sort_keys=True, ensure_ascii=False), i18n.current())


CACHED = plain.Sources(computed=computed, preset_trace=training.preset_trace, sweep=experiment.sweep_of,
                       outside=own.find)
"""The sources a page builds questions from: the server's caches, and the session's own lessons."""


# -- the builders, with them ---------------------------------------------------------------------------
def run_key(corpus: str, settings: Settings) -> str:
    """A short id of a training run (corpus + the page's settings): :func:`lessons.questions.run_key`."""
    return plain.run_key(corpus, settings.config().to_dict(), settings.merges)


def exercise_question(exercise: Exercise) -> Question:
    """A lesson exercise as the predict widget asks it (raises ExerciseError when it cannot be computed here)."""
    return plain.exercise_question(exercise, CACHED)


def experiment_why() -> str:
    return plain.experiment_why(CACHED)


def direction_questions() -> tuple[Question, Question]:
    return plain.direction_questions(CACHED)


def experiment_questions() -> tuple[Question, Question]:
    return plain.experiment_questions(CACHED)


def encode_question(tokenizer_key: str, trace: Any, step: int, text: str) -> Question:
    """Encode's "which pair merges next?" (:func:`lessons.questions.encode_question`), its id keeping the text's
    digest, never the text."""
    return plain.encode_question(tokenizer_key, trace, step, digest(text, length=12))


def resolve(qid: QuestionId) -> Question | Waits | None:
    """The question ``qid`` names, as the lab asks it now (:func:`lessons.questions.resolve`, with the caches)."""
    return plain.resolve(qid, CACHED)


def from_key(key: str) -> Question | None:
    """The question a saved key names (:func:`lessons.questions.from_key`, with the caches)."""
    return plain.from_key(key, CACHED)


LAB = replace(CACHED, outside=plain.PLAIN.outside)
"""The caches without the session's own lessons: only the lab's own questions, the same for every session."""


def lab_question(key: str) -> Question | None:
    """The lab's own question a key names (not a lesson file's, not a teacher's own), rebuilt in this run's language
    (its prompt, explanation and facts are built per language; its answers are values, the same in every language):
    what a class poll shows each learner in theirs. None when the key names no question the lab itself asks."""
    return plain.from_key(key, LAB)


__all__ = ["CACHED", "COUNT_PRESETS", "DIRECTIONS", "ENCODE_OPTIONS", "GUESS_OPTIONS", "MAX_LISTED_TIES",
           "PRACTICE_PRESETS", "PRACTICE_SCOPE", "TRAIN_SCOPE", "WAITS", "computed", "direction",
           "direction_questions", "encode_question", "exercise_question", "experiment_questions", "experiment_why",
           "fit_question", "from_key", "guess_question", "lab_question", "merge_question", "practice_count",
           "practice_count_question", "practice_merge", "practice_merge_question", "resolve", "run_key",
           "tie_explanation", "times", "unseen_words"]
