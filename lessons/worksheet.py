"""Printable worksheets: a lesson's exercises without answers, and a separate answer key, both computed.

The exercises are the same ones the lesson page asks; the answers in the key
are computed by the engine when the worksheet is made, like everywhere else. How each answer kind is written
(boxes to tick, a line to fill) is the kind's own (:data:`lessons.answers.ANSWER_KINDS`). The sheets are written in
the run's language: a Hindi lesson (:func:`lessons.course.course` in Hindi) on a sheet whose frame is Hindi too.
"""

from __future__ import annotations

from i18n import _, number
from tokenizer.plaintext import answer_text

from .answers import ANSWER_KINDS
from .course import Lesson
from .exercises import ExerciseError, compute


def worksheet_markdown(lesson: Lesson) -> str:
    """The exercises to answer on paper, without answers."""
    lines = [f"# {lesson.title}", "", _("Tokenization Lab worksheet · about {minutes} minutes",
                                        minutes=number(lesson.minutes)), "",
             "## " + _("What you will be able to do"), ""]
    lines += [f"- {o}" for o in lesson.objectives]
    lines += ["", "## " + _("Predict first, then check in the lab"), ""]
    for n, exercise in enumerate(lesson.exercises, start=1):
        lines.append(f"**{n}.** {exercise.prompt}")
        lines.append("")
        try:
            computed = compute(exercise.op, exercise.args)
        except ExerciseError as exc:  # the lesson file's problem, said on the sheet: the other exercises are there
            lines += [_cannot(exc), ""]
            continue
        lines += ANSWER_KINDS[exercise.kind].blank(computed.options, exercise.unit)  # by its answer kind
        lines.append("")
    return "\n".join(lines).rstrip() + "\n"


def answer_key_markdown(lesson: Lesson) -> str:
    """The answers, computed now, with why."""
    lines = ["# " + _("{title}: answer key", title=lesson.title), "",
             _("Every answer was computed by the lab's engine when this key was made."), ""]
    for n, exercise in enumerate(lesson.exercises, start=1):
        try:
            computed = compute(exercise.op, exercise.args)
        except ExerciseError as exc:
            lines += [f"**{n}.** {exercise.prompt}", "", _cannot(exc), ""]
            continue
        answer = ANSWER_KINDS[exercise.kind].keyed(answer_text(computed.answer))
        lines.append(f"**{n}.** {exercise.prompt}")
        lines.append("")
        also = (_(" (also right: {answers})", answers=", ".join(map(str, computed.also_right)))
                if computed.also_right else "")
        lines.append(_("Answer: **{answer}**", answer=answer) + also)
        lines.append("")
        lines.append(exercise.explain + (f" {computed.facts}" if computed.facts else ""))
        lines.append("")
        if computed.more:
            lines += [f"{computed.more[0]}: {computed.more[1]}.", ""]
    return "\n".join(lines).rstrip() + "\n"


def _cannot(exc: ExerciseError) -> str:
    return _("(This exercise cannot be computed here: {why}.)", why=exc)


__all__ = ["answer_key_markdown", "worksheet_markdown"]
