"""The lesson checker behind ``python -m lessons check``: every lesson file valid, every answer computable, and no
link that gives an exercise's answer away: a link whose page shows the answer of one of its lesson's exercises
asks it first (``ask``), and asks nothing else (:func:`link_problems`, with the model of :mod:`lessons.reveals`)."""

from __future__ import annotations

import json
from decimal import Decimal

from tokenizer.labels import plural

from .course import Course, Lesson, Link, render_body
from .exercises import ExerciseError, compute
from .reveals import Unknown, exercise_answered_by, shows

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
        problems += link_problems(lesson)
    if as_json:
        lessons = [{"id": lesson.id, "title": lesson.title} for lesson in course.lessons]
        out = json.dumps({"lessons": lessons, "exercises": rows, "problems": problems}, ensure_ascii=False,
                         default=_number)
    else:
        out = (f"{plural(len(course.lessons), 'lesson')}, {plural(len(rows), 'exercise')} with computed answers, "
               f"{plural(len(problems), 'problem')}")
    return (PROBLEMS if problems else 0), out, problems


def lesson_links(lesson: Lesson) -> list[tuple[str, Link, str]]:
    """(where, link, the id of the exercise it belongs to or "") for every link of a lesson, in lesson order."""
    out = [(f"try {i}", link, "") for i, link in enumerate(lesson.tries, start=1)]
    out += [(f"exercise '{e.id}' view", e.view, e.id) for e in lesson.exercises if e.view is not None]
    return out


def asks_needed(lesson: Lesson, link: Link, own: str = "") -> list[str]:
    """The lesson's exercises whose answers the page ``link`` opens shows, in lesson order: what it must ask first.
    An exercise's own view link is drawn once it is answered, so its own exercise is left out (``own``); an exercise
    that cannot be computed here is the checker's other problem."""
    needed = []
    for exercise in lesson.exercises:
        if exercise.id == own:
            continue
        try:
            if exercise_answered_by(link, exercise):
                needed.append(exercise.id)
        except ExerciseError:
            continue
    return needed


def link_problems(lesson: Lesson) -> list[str]:
    """Each link of ``lesson`` whose ``ask`` is not exactly the exercises its page gives away (``FILE: where:
    what``), or whose page the model does not know."""
    problems = []
    numbers = {e.id: n for n, e in enumerate(lesson.exercises, start=1)}
    for where, link, own in lesson_links(lesson):
        if any(isinstance(f, Unknown) for f in shows(link)):
            problems.append(f"{lesson.file}: {where}: the checker does not know what page {link.page!r} shows "
                            "(lessons/reveals.py PAGES), so it cannot tell which answers the link gives away")
            continue
        needed = asks_needed(lesson, link, own)
        missing = [a for a in needed if a not in link.ask]
        extra = [a for a in link.ask if a not in needed]
        if missing:
            named = ", ".join(f"{numbers[a]} ({a!r})" for a in missing)
            problems.append(f"{lesson.file}: {where}: '{link.label or link.page}' opens a page that shows the answer "
                            f"of exercise {named} without asking it first: add it to the link's 'ask' (ask = "
                            f"[{', '.join(repr(a) for a in needed)}]), or choose settings that do not show it")
        if extra:
            problems.append(f"{lesson.file}: {where}: 'ask' names {', '.join(map(repr, extra))}, whose answer its page "
                            "does not show: leave it out")
    return problems


def _number(value: object) -> float:
    """Money (a Decimal, to the paisa) as a JSON number."""
    if isinstance(value, Decimal):
        return float(value)
    raise TypeError(f"{type(value).__name__} is not JSON serializable")


__all__ = ["PROBLEMS", "asks_needed", "check", "lesson_links", "link_problems"]
