"""The lesson checker behind ``python -m lessons check``: every lesson file valid, every answer computable."""

from __future__ import annotations

import json
from decimal import Decimal

from tokenizer.labels import plural

from .course import Course, render_body
from .exercises import ExerciseError, compute

PROBLEMS = 2
"""The exit code when any lesson file or answer has a problem (the lab's CLI exits 2 for input it refuses)."""


def check(course: Course, as_json: bool = False) -> tuple[int, str, list[str]]:
    """(exit code, what to print on standard output, problems for standard error). Each problem names its file
    first, then the field (``FILE: field: what``)."""
    problems = list(course.problems)
    rows = []
    for lesson in course.lessons:
        try:
            render_body(lesson)
        except ExerciseError as exc:  # "figures.<name>: what"
            problems.append(f"{lesson.file}: {exc}")
        for exercise in lesson.exercises:
            try:
                answer = compute(exercise.op, exercise.args).answer
            except ExerciseError as exc:
                problems.append(f"{lesson.file}: exercise {exercise.id!r}: the answer cannot be computed: {exc}")
                continue
            rows.append({"id": exercise.id, "lesson": exercise.lesson, "kind": exercise.kind,
                         "prompt": exercise.prompt, "answer": answer})
    if as_json:
        lessons = [{"id": lesson.id, "title": lesson.title} for lesson in course.lessons]
        out = json.dumps({"lessons": lessons, "exercises": rows, "problems": problems}, ensure_ascii=False,
                         default=_number)
    else:
        out = (f"{plural(len(course.lessons), 'lesson')}, {plural(len(rows), 'exercise')} with computed answers, "
               f"{plural(len(problems), 'problem')}")
    return (PROBLEMS if problems else 0), out, problems


def _number(value: object) -> float:
    """Money (a Decimal, to the paisa) as a JSON number."""
    if isinstance(value, Decimal):
        return float(value)
    raise TypeError(f"{type(value).__name__} is not JSON serializable")


__all__ = ["PROBLEMS", "check"]
