"""What the Lessons page draws: lesson links, exercises as predict-then-run questions, progress, practice.

The lessons themselves are data (``lessons/course/*.md``, read by
:mod:`lessons.course`); answers are computed by :mod:`lessons.exercises` when a
question is asked. This module turns them into the shared predict widget's
questions (:mod:`ui.predict`), draws links into the lab with the lesson's
settings in the URL, and builds the generated practice questions.
"""

from __future__ import annotations

import random
import re
from dataclasses import replace

import streamlit as st

import lessons
from lessons.course import Exercise, Lesson, course
from lessons.exercises import Computed, ExerciseError, compute, preset_trace
from lessons.progress import LESSON_EXERCISE, PRACTICE_COUNT, PRACTICE_MERGE, QuestionId
from ui import predict
from ui.display import md_escape, plural
from ui.links import LESSONS_PAGE, link
from views.train import merge_question

PAGE = LESSONS_PAGE


@st.cache_resource(max_entries=256, show_spinner=False)
def computed(exercise_key: str) -> Computed:
    """An exercise's computed answer, once per server (read-only, shared by every learner)."""
    exercise = next(e for e in course().exercises if e.key == exercise_key)
    return compute(exercise.op, exercise.args)


def question(exercise: Exercise) -> predict.Question:
    c = computed(exercise.key)
    return predict.Question(
        key="",
        id=QuestionId.of(LESSON_EXERCISE, lesson=exercise.lesson, exercise=exercise.id),
        prompt=exercise.prompt,
        kind=exercise.kind,
        answer=c.answer,
        options=c.options,
        also_right=c.also_right,
        explain=(exercise.explain + (f" {c.facts}" if c.facts else "")).strip(),
        explain_also_right=(c.facts or exercise.explain),
        tolerance=exercise.tolerance,
        exact=c.exact,
        unit=exercise.unit,
        scope=exercise.lesson,
        hint=exercise.hint,
        check=c.check,
    )


def progress(lesson: Lesson) -> tuple[int, int, int]:
    """(answered, right, total) for the lesson's exercises in this session."""
    right, tried = predict.score(lesson.id)
    return tried, right, len(lesson.exercises)


def progress_label(lesson: Lesson) -> str:
    answered, right, total = progress(lesson)
    mark = " ✓" if answered == total and total else ""
    return f"{lesson.number}. {lesson.title} · {answered}/{total}{mark}"


def draw_exercise(exercise: Exercise, number: int, total: int) -> None:
    with st.container(border=True, key=f"exercise-{exercise.lesson}-{exercise.id}"):
        st.markdown(f"**Exercise {number} of {total}**")
        try:
            verdict = predict.ask(question(exercise))
        except ExerciseError as exc:
            st.warning(md_escape(f"This exercise cannot be computed here: {exc}"), icon=":material/error:")
            return
        if verdict is not None and exercise.view is not None:
            link(exercise.view, label=exercise.view.label or "See it in the lab")


def sections(body: str) -> list[str]:
    """The lesson text cut at its ``##`` headings: one part per classroom slide."""
    parts = re.split(r"(?m)^(?=#{2,4} )", body)
    return [p.strip() for p in parts if p.strip()]


# -- generated practice ------------------------------------------------------------------------------
PRACTICE_PRESETS = ("news", "low", "play", "chai", "readers", "lowmarker")


def practice_merge(seed: int) -> predict.Question:
    """ "Which pair merges next?" for a preset and step picked by ``seed``, distractors from the pair table."""
    rng = random.Random(seed)
    preset_id = rng.choice(PRACTICE_PRESETS)
    step = rng.randint(1, len(preset_trace(preset_id).steps))
    return practice_merge_question(preset_id, step)


def practice_merge_question(preset_id: str, step: int) -> predict.Question:
    """The practice question "which pair does merge ``step`` of the preset pick?" (its key names both)."""
    q = merge_question(preset_trace(preset_id), step, QuestionId.of(PRACTICE_MERGE, preset=preset_id, step=step),
                       scope="practice")
    title = lessons.presets()[preset_id].title
    return replace(q, prompt=f"{title}: which pair does merge {step} pick? "
                   "Count each word as many times as it occurs, in the corpus as it stands after the merges before it.")


def unseen_words(preset_id: str) -> list[str]:
    """Words of the parallel English sentences that the preset's corpus never had."""
    corpus = set(lessons.presets()[preset_id].corpus.lower().split())
    words = []
    for pair in lessons.data("parallel_en_hi")["pairs"]:
        for word in re.findall(r"[A-Za-z]+", pair["en"]):
            if word.lower() not in corpus and len(word) > 3 and word.lower() not in words:
                words.append(word.lower())
    return words


COUNT_PRESETS = ("chai", "readers", "news")


def practice_count(seed: int) -> predict.Question:
    """ "How many tokens?" for a word the preset's corpus never had."""
    rng = random.Random(seed)
    preset_id = rng.choice(COUNT_PRESETS)
    return practice_count_question(preset_id, rng.choice(unseen_words(preset_id)))


def practice_count_question(preset_id: str, word: str) -> predict.Question:
    """The practice question "how many tokens is ``word``?" with the preset's merges (its key names both)."""
    c = compute("count_tokens", {"tokenizer": preset_id, "text": word})
    title = lessons.presets()[preset_id].title
    return predict.Question(
        key="", id=QuestionId.of(PRACTICE_COUNT, preset=preset_id, word=word), prompt=f"With the merges of “{title}”, how many tokens is "
        f"“{word}”, a word its corpus never had?", kind="number", answer=c.answer, unit="tokens",
        explain="An unseen word is cut into the pieces the merges can build: " + c.facts, scope="practice")


def score_line() -> str:
    right, tried = predict.score()
    total = len(course().exercises)
    lesson_tried = sum(progress(lesson)[0] for lesson in course().lessons)
    waiting = predict.waiting()
    later = (f" {plural(waiting, 'loaded answer')} from lab pages {'waits' if waiting == 1 else 'wait'} to be checked "
             f"on {'its' if waiting == 1 else 'their'} page." if waiting else "")
    return (f"Your score: {right} right of {plural(tried, 'answer')} · {lesson_tried} of {total} lesson exercises "
            "answered. Your first answer to each question is the one that counts." + later)


__all__ = ["computed", "draw_exercise", "practice_count",
           "practice_count_question", "practice_merge", "practice_merge_question", "progress",
           "progress_label", "question", "score_line", "sections"]
