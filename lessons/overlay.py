"""A lesson in another language: its words from ``lessons/course/<lang>/<file>``, laid over the English lesson's facts.

The translation is an overlay that holds only words (``lessons/course/hi/03-bytes-per-character.md``, the English
file's name)::

    +++
    title = "..."
    objectives = ["...", "..."]     # as many as the English, same order
    key_points = ["...", "..."]     # as many as the English, same order
    try = ["label of the 1st [[try]]", "label of the 2nd"]   # one per English [[try]], same order
    [exercise.khabar-bytes]          # one table per English exercise id
    prompt = "..."
    explain = "..."
    hint = "..."                     # only where the English exercise has a hint
    view = "..."                     # the view link's label, only where the English exercise's view has one
    +++
    The body: the same {{placeholders}} as the English body, the same number of "## " sections.

Everything that is a fact (ids, answers, operations, the texts tokenized, links' pages and settings, figures,
minutes, ``ask``) lives only in the English file, so a translation cannot change one: :func:`translate` keeps the
English lesson's objects and replaces only their words. A translation whose shape disagrees with the English (an
exercise missing or extra, a count of objectives that differs, a placeholder missing or extra, another number of
sections, a text quoted in the English prompt missing from its translation) is refused with a
:class:`~lessons.course.LessonError` naming the file and the field; the lesson is then shown in English.
"""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

from .lessonfile import (
    FRONT_MATTER,
    MAX_LESSON_BYTES,
    PLACEHOLDER,
    Lesson,
    LessonError,
    read_file,
    read_toml,
    text_field,
)

OVERLAY_FIELDS = {"title", "objectives", "key_points", "try", "exercise"}
EXERCISE_WORDS = {"prompt", "explain", "hint", "view"}
#: A text quoted in an exercise's prompt (“…” or `…`): what is being tokenized, kept as it is in every language.
QUOTED = re.compile(r"“([^”]+)”|`([^`]+)`")
SECTION = re.compile(r"(?m)^## ")


def overlay_file(folder: Path, lang: str, file: str) -> Path:
    """Where the ``lang`` words of lesson file ``file`` are: ``<folder>/<lang>/<file>``."""
    return folder / lang / file


def quoted(text: str) -> list[str]:
    """The texts quoted in ``text``: ``“खबर” and `khabar``` -> ``["खबर", "khabar"]``."""
    return [a or b for a, b in QUOTED.findall(text)]


def sections(body: str) -> int:
    """How many ``## `` sections a lesson's body has."""
    return len(SECTION.findall(body))


def _list(data: dict, name: str, where: str, wanted: int) -> tuple[str, ...]:
    value = data.get(name, [] if wanted == 0 else None)
    if value is None:
        raise LessonError(f"{where}: '{name}' is missing")
    if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
        raise LessonError(f"{where}: '{name}' must be a list of texts")
    if len(value) != wanted:
        raise LessonError(f"{where}: '{name}' has {len(value)}, the English {wanted}: one for each, in its order")
    return tuple(v.strip() for v in value)


def translate(lesson: Lesson, text: str, file: str, lang: str) -> Lesson:
    """``lesson`` (English) with the words of its ``lang`` file's ``text`` (``file`` names it in messages)."""
    match = FRONT_MATTER.match(text.removeprefix("\ufeff").replace("\r\n", "\n"))
    if not match:
        raise LessonError(f"{file}: the file must start with front matter between two '+++' lines")
    data = read_toml(match.group(1), f"{file}: front matter")
    unknown = sorted(set(data) - OVERLAY_FIELDS)
    if unknown:
        raise LessonError(f"{file}: '{unknown[0]}' is not a translation's field (ids, answers, links and figures "
                          f"stay in the English file; the fields are: {', '.join(sorted(OVERLAY_FIELDS))})")
    title = text_field(data, "title", file)
    objectives = _list(data, "objectives", file, len(lesson.objectives))
    key_points = _list(data, "key_points", file, len(lesson.key_points))
    labels = _list(data, "try", file, len(lesson.tries))
    exercises = data.get("exercise", {})
    if not isinstance(exercises, dict) or not all(isinstance(v, dict) for v in exercises.values()):
        raise LessonError(f"{file}: 'exercise' must be tables named by the English exercises' ids ([exercise.ID])")
    ids = [e.id for e in lesson.exercises]
    missing, extra = [i for i in ids if i not in exercises], [i for i in exercises if i not in ids]
    if missing:
        raise LessonError(f"{file}: exercise {missing[0]!r} has no translation ([exercise.{missing[0]}])")
    if extra:
        raise LessonError(f"{file}: exercise {extra[0]!r} is not an exercise of the English lesson")
    translated = []
    for exercise in lesson.exercises:
        words, where = exercises[exercise.id], f"{file} exercise '{exercise.id}'"
        unknown = sorted(set(words) - EXERCISE_WORDS)
        if unknown:
            raise LessonError(f"{where}: '{unknown[0]}' is not a translation's field (the fields are: "
                              f"{', '.join(sorted(EXERCISE_WORDS))})")
        for name, english in (("hint", exercise.hint), ("view", exercise.view.label if exercise.view else "")):
            if name in words and not english:
                raise LessonError(f"{where}: '{name}' is translated, but the English exercise has none")
        prompt = text_field(words, "prompt", where)
        lost = [q for q in quoted(exercise.prompt) if q not in prompt]
        if lost:
            raise LessonError(f"{where}: 'prompt' does not quote {lost[0]!r} as the English does (a text being "
                              "tokenized stays as it is)")
        view = exercise.view and replace(exercise.view, label=text_field(words, "view", where)
                                         if exercise.view.label else "")
        translated.append(replace(exercise, prompt=prompt, explain=text_field(words, "explain", where),
                                  hint=text_field(words, "hint", where) if exercise.hint else "", view=view))
    body = match.group(2).strip()
    if not body:
        raise LessonError(f"{file}: the lesson has no text after its front matter")
    wanted, used = set(PLACEHOLDER.findall(lesson.body)), set(PLACEHOLDER.findall(body))
    lost, added = sorted(wanted - used), sorted(used - wanted)
    if lost:
        raise LessonError(f"{file}: the text does not use {{{{{lost[0]}}}}}, which the English does")
    if added:
        raise LessonError(f"{file}: the text uses {{{{{added[0]}}}}}, which the English does not")
    if sections(body) != sections(lesson.body):
        raise LessonError(f"{file}: {sections(body)} sections ('## ' headings), the English {sections(lesson.body)}")
    return replace(lesson, title=title, objectives=objectives, key_points=key_points, body=body,
                   tries=tuple(replace(t, label=label) for t, label in zip(lesson.tries, labels)),
                   exercises=tuple(translated), lang=lang)


def pseudo_lesson(lesson: Lesson) -> Lesson:
    """``lesson`` as the pseudo-locale shows a translated one: every word of it marked (:func:`i18n.catalog.pseudo`),
    so a test can tell a lesson that has its translation from one that does not."""
    from i18n import PSEUDO
    from i18n.catalog import pseudo

    return replace(
        lesson, title=pseudo(lesson.title), objectives=tuple(map(pseudo, lesson.objectives)),
        key_points=tuple(map(pseudo, lesson.key_points)), body=pseudo(lesson.body),
        tries=tuple(replace(t, label=pseudo(t.label)) for t in lesson.tries),
        exercises=tuple(replace(e, prompt=pseudo(e.prompt), explain=pseudo(e.explain),
                                hint=pseudo(e.hint) if e.hint else "",
                                view=e.view and replace(e.view, label=pseudo(e.view.label) if e.view.label else ""))
                        for e in lesson.exercises), lang=PSEUDO)


def in_language(lesson: Lesson, folder: Path, lang: str) -> Lesson:
    """``lesson`` in ``lang``: its translation laid over it, or ``lesson`` itself (English) when it has none. Raises
    :class:`LessonError` for a translation that cannot be used. The pseudo-locale marks a lesson that has a Hindi
    file (``hi``), and leaves one without it unmarked."""
    from i18n import PSEUDO

    source = "hi" if lang == PSEUDO else lang
    if not (folder / source).is_dir() or not overlay_file(folder, source, lesson.file).exists():
        return lesson
    text = read_file(folder / source, lesson.file, MAX_LESSON_BYTES)
    translated = translate(lesson, text, f"{source}/{lesson.file}", source)
    return pseudo_lesson(lesson) if lang == PSEUDO else translated


__all__ = ["EXERCISE_WORDS", "OVERLAY_FIELDS", "in_language", "overlay_file", "pseudo_lesson", "quoted", "sections",
           "translate"]
