"""Lessons outside the course: a class's own (its teacher's questions, kept with the class) and lesson files
opened in this browser session. Their exercises are lesson exercises like the course's, found by
:func:`ui.questions.resolve` through :func:`find` (the course first), so a posed question is rebuilt, judged and
kept as any other.

- A class's own lesson is ``class-<code>`` (:func:`lessons.own.lesson_id`): only this session's own class (as its
  teacher or one of its learners) is looked up.
- A lesson file opened on the Lessons page stays in this session (:func:`open_lesson`), at most a few.
"""

from __future__ import annotations

import streamlit as st

from lessons import own
from lessons.classroom import ClassError
from lessons.course import Exercise, Lesson, LessonError, exercise_from
from ui import classroom

OPENED = "lessons.opened"
"""This session's opened lesson files: lesson id -> :class:`Lesson`."""
MAX_OPENED = 5


def opened() -> dict[str, Lesson]:
    return st.session_state.get(OPENED, {})


def open_lesson(lesson: Lesson) -> None:
    """Keep an opened lesson file in this session (the oldest of more than :data:`MAX_OPENED` goes)."""
    kept = dict(st.session_state.get(OPENED, {}))
    kept.pop(lesson.id, None)
    kept[lesson.id] = lesson
    while len(kept) > MAX_OPENED:
        kept.pop(next(iter(kept)))
    st.session_state[OPENED] = kept


@st.cache_data(ttl=15, max_entries=512, show_spinner=False)
def _class_tables(code: str, secret: str | None, learner_id: str | None) -> list[dict]:
    """The class's own questions as kept (a few seconds' cache: the teacher's bar asks every tick)."""
    return classroom.store().own_questions(code, secret=secret, learner_id=learner_id)


def class_exercises(code: str) -> list[Exercise]:
    """This session's class's own questions as lesson exercises (none for a class it is not in)."""
    who_teaches, who_learns = classroom.teaching(), classroom.member()
    who = who_teaches or who_learns
    if who is None or who.code != code:
        return []
    try:
        tables = _class_tables(code, who_teaches.secret if who_teaches else None,
                               who_learns.learner_id if who_teaches is None and who_learns else None)
    except ClassError:
        return []
    out = []
    for table in tables:
        try:
            out.append(exercise_from(table, own.lesson_id(code)))
        except LessonError:  # kept by another version of the lab: leave it out
            continue
    return out


def forget_cached() -> None:
    """After the teacher keeps a question: the next look reads it."""
    _class_tables.clear()


def find(lesson_id: str, exercise_id: str) -> Exercise | None:
    """An exercise of a lesson outside the course: a lesson file opened in this session, or this session's own
    class's questions."""
    lesson = opened().get(lesson_id)
    if lesson is not None:
        return next((e for e in lesson.exercises if exercise_id in (e.id, *e.former_ids)), None)
    code = own.code_of(lesson_id)
    if code is not None:
        return next((e for e in class_exercises(code) if e.id == exercise_id), None)
    return None


__all__ = ["MAX_OPENED", "OPENED", "class_exercises", "find", "forget_cached", "open_lesson", "opened"]
