"""The lesson checker behind ``python -m lessons check``: every lesson file valid, every answer computable, and no
link that gives an exercise's answer away: a link whose page shows the answer of one of its lesson's exercises
asks it first (``ask``), and asks nothing else (:func:`link_problems`, with the model of :mod:`lessons.reveals`).

A course in another language (the Hindi words laid over the English lessons, :mod:`lessons.overlay`) is checked
beside the English one (:func:`translation_problems`): each translation agrees with its English file (refused when it
does not), its figures and every exercise are computed by the engine in that language with the same answers as in
English, and its technical words take the glossary's forms (``i18n/glossary.toml``)."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from decimal import Decimal

from tokenizer.labels import plural

from .course import PLACEHOLDER, Course, Lesson, Link, render_body
from .exercises import ExerciseError, compute
from .reveals import Unknown, exercise_answered_by, shows

PROBLEMS = 2
"""The exit code when any lesson file or answer has a problem (the lab's CLI exits 2 for input it refuses)."""


def check(course: Course, as_json: bool = False,
          translations: Mapping[str, Course] | None = None) -> tuple[int, str, list[str]]:
    """(exit code, what to print on standard output, problems for standard error). Each problem names its file
    first, then the field (``FILE: field: what``). ``translations``: the course in other languages (``{"hi":
    load_course(lang="hi")}``), each checked against ``course`` (:func:`translation_problems`)."""
    problems = list(course.problems)
    translated: dict[str, list[str]] = {}
    for lang, other in (translations or {}).items():
        problems += translation_problems(course, other, lang)
        translated[lang] = [lesson.id for lesson in other.lessons if lesson.lang == lang]
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
        languages = {"languages": translated} if translations else {}
        out = json.dumps({"lessons": lessons, "exercises": rows, "problems": problems, **languages},
                         ensure_ascii=False, default=_number)
    else:
        out = (f"{plural(len(course.lessons), 'lesson')}, {plural(len(rows), 'exercise')} with computed answers, "
               f"{plural(len(problems), 'problem')}")
        out += "".join(f"; in {lang}: {len(ids)} of {len(course.lessons)}"
                       + ("" if len(ids) == len(course.lessons) else " (the others in English)")
                       for lang, ids in translated.items())
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


def translation_problems(english: Course, translated: Course, lang: str) -> list[str]:
    """What is wrong with ``translated``, the course in ``lang`` (:func:`lessons.course.load_course` with ``lang``),
    beside ``english``: a translation it refused (its shape disagrees with the English), a figure or an exercise
    the engine cannot compute in ``lang`` or whose answer differs from the English one, a technical word not in the
    glossary's form. Each names the translation's file first (``hi/03-bytes-per-character.md: ...``)."""
    import i18n

    problems = [p for p in translated.problems if p not in english.problems]
    for lesson in translated.lessons:
        original = english.lesson(lesson.id)
        if lesson.lang != lang or original is None:
            continue
        file = f"{lang}/{lesson.file}"
        with i18n.using(lang):
            try:
                render_body(lesson)
            except ExerciseError as exc:
                problems.append(f"{file}: {exc}")
            for exercise, source in zip(lesson.exercises, original.exercises):
                try:
                    same = compute(exercise.op, exercise.args).answer == compute(source.op, source.args).answer
                except ExerciseError as exc:
                    problems.append(f"{file}: exercise {exercise.id!r}: the answer cannot be computed in {lang}: {exc}")
                    continue
                if (exercise.id, exercise.op, exercise.args) != (source.id, source.op, source.args) or not same:
                    problems.append(f"{file}: exercise {exercise.id!r}: its answer differs from the English one")
        problems += [f"{file}: {p}" for p in glossary_problems(original, lesson, lang)]
    return problems


def word_pairs(english: Lesson, translated: Lesson) -> list[tuple[str, str]]:
    """(English, translation) for every text of a lesson: title, each objective, key point and link label, each
    exercise's words, and the body section by section."""
    pairs = [(english.title, translated.title), *zip(english.objectives, translated.objectives),
             *zip(english.key_points, translated.key_points),
             *((a.label, b.label) for a, b in zip(english.tries, translated.tries))]
    for a, b in zip(english.exercises, translated.exercises):
        pairs += [(a.prompt, b.prompt), (a.explain, b.explain), (a.hint, b.hint)]
        if a.view is not None and b.view is not None:
            pairs.append((a.view.label, b.view.label))
    pairs += zip(_sections(english.body), _sections(translated.body))
    return [(a, b) for a, b in pairs if a and b]


def _sections(body: str) -> list[str]:
    return [part for part in re.split(r"(?m)^(?=## )", body) if part.strip()]


def glossary_problems(english: Lesson, translated: Lesson, lang: str) -> list[str]:
    """Each text of ``translated`` that writes a technical word otherwise than ``i18n/glossary.toml`` says (the
    catalogue's rule, :func:`i18n.tool.glossary_problems`, on the lesson's texts)."""
    from babel.messages.catalog import Catalog

    from i18n.tool import glossary_problems as catalogue_problems

    catalogue = Catalog(locale=lang)
    for source, words in word_pairs(english, translated):
        catalogue.add(PLACEHOLDER.sub(" ", source), PLACEHOLDER.sub(" ", words))
    return catalogue_problems(catalogue, lang)


def _number(value: object) -> float:
    """Money (a Decimal, to the paisa) as a JSON number."""
    if isinstance(value, Decimal):
        return float(value)
    raise TypeError(f"{type(value).__name__} is not JSON serializable")


__all__ = ["PROBLEMS", "asks_needed", "check", "glossary_problems", "lesson_links", "link_problems",
           "translation_problems", "word_pairs"]
