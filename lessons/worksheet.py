"""Printable worksheets: a lesson's exercises without answers, and a separate answer key, both computed.

The exercises are the same ones the lesson page asks; the answers in the key
are computed by the engine when the worksheet is made, like everywhere else. How each answer kind is written
(boxes to tick, a line to fill) is the kind's own (:data:`lessons.answers.ANSWER_KINDS`).
"""

from __future__ import annotations

from tokenizer.plaintext import answer_text

from .answers import ANSWER_KINDS
from .course import Lesson
from .exercises import ExerciseError, compute


def worksheet_markdown(lesson: Lesson) -> str:
    """The exercises to answer on paper, without answers."""
    lines = [f"# {lesson.title}", "", f"Tokenization Lab worksheet · about {lesson.minutes} minutes", "",
             "## What you will be able to do", ""]
    lines += [f"- {o}" for o in lesson.objectives]
    lines += ["", "## Predict first, then check in the lab", ""]
    for number, exercise in enumerate(lesson.exercises, start=1):
        lines.append(f"**{number}.** {exercise.prompt}")
        lines.append("")
        try:
            computed = compute(exercise.op, exercise.args)
        except ExerciseError as exc:  # the lesson file's problem, said on the sheet: the other exercises are there
            lines += [f"(This exercise cannot be computed here: {exc}.)", ""]
            continue
        lines += ANSWER_KINDS[exercise.kind].blank(computed.options, exercise.unit)  # by its answer kind
        lines.append("")
    return "\n".join(lines).rstrip() + "\n"


def answer_key_markdown(lesson: Lesson) -> str:
    """The answers, computed now, with why."""
    lines = [f"# {lesson.title}: answer key", "", "Every answer was computed by the lab's engine when this key "
             "was made.", ""]
    for number, exercise in enumerate(lesson.exercises, start=1):
        try:
            computed = compute(exercise.op, exercise.args)
        except ExerciseError as exc:
            lines += [f"**{number}.** {exercise.prompt}", "", f"(This exercise cannot be computed here: {exc}.)", ""]
            continue
        answer = ANSWER_KINDS[exercise.kind].keyed(answer_text(computed.answer))
        lines.append(f"**{number}.** {exercise.prompt}")
        lines.append("")
        lines.append(f"Answer: **{answer}**" + (f" (also right: {', '.join(map(str, computed.also_right))})"
                                                if computed.also_right else ""))
        lines.append("")
        lines.append(exercise.explain + (f" {computed.facts}" if computed.facts else ""))
        lines.append("")
        if computed.more:
            lines += [f"{computed.more[0]}: {computed.more[1]}.", ""]
    return "\n".join(lines).rstrip() + "\n"


__all__ = ["answer_key_markdown", "worksheet_markdown"]
