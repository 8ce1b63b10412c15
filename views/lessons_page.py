"""What the Lessons page draws around its lessons: the menu, a lesson (or, in classroom mode, its slides), the
generated practice, and the worksheets and progress to take away.

A lesson's questions and practice questions are :mod:`views.lessons`; the progress file is :mod:`views.progress`.
This module declares the page's keys once and holds its sections, which the page composes.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import streamlit as st

from lessons.course import Course, Lesson, render_body
from lessons.exercises import ExerciseError
from lessons.worksheet import answer_key_markdown, worksheet_markdown
from ui import predict, state
from ui.display import callout_html, md_escape
from ui.links import LESSON, LESSON_STEP, LESSONS_PAGE, link
from ui.steps import Stepper
from views import lessons as lv
from views import progress

PAGE = LESSONS_PAGE
STEPPER = Stepper(LESSON_STEP, names=("Start", "Back", "Next", "End"))
PRACTICE_OPEN = state.Key(PAGE, "practice_open")
SEED = state.Key(PAGE, "seed")  # the practice questions' seed
REROLL = state.Key(PAGE, "reroll")
WORKSHEET = state.Key(PAGE, "worksheet")
ANSWERS = state.Key(PAGE, "answers")
MENU = "tl-menu-lessons"  # ui/layout.py: a menu's labels wrap, from the left


def pick_key(lesson_id: str) -> state.Key:
    """The menu button of one lesson."""
    return state.Key(PAGE, f"pick.{lesson_id}")


def lesson_param(course: Course) -> state.Param:
    """:data:`ui.links.LESSON` with the course's lessons as its choices (the first is the default)."""
    ids = tuple(lesson.id for lesson in course.lessons)
    return replace(LESSON, default=ids[0] if ids else "", choices=ids)


def problems_section(course: Course) -> bool:
    """Name each damaged lesson file (the others still work); False when there is no lesson to show."""
    for problem in course.problems:
        st.warning(md_escape(f"A lesson could not be loaded: {problem}"), icon=":material/error:")
    if not course.lessons:
        st.info("There are no lessons to show.")
        return False
    return True


def lesson_count(n: int) -> str:
    """``9`` -> ``"Nine short lessons"``: the lessons that loaded (a damaged lesson file is not counted)."""
    words = ("No", "One", "Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten", "Eleven", "Twelve")
    return (words[n] if n < len(words) else f"{n:,}") + (" short lesson" if n == 1 else " short lessons")


def intro(course: Course) -> None:
    st.caption(
        f"{lesson_count(len(course.lessons))}, from what a token is to what a Hindi product's tokens cost. "
        "Every exercise asks you to "
        "commit to a prediction first; then the lab computes the truth with its own tokenizers and shows it beside "
        "your guess. " + lv.score_line()
    )


def _pick(param: state.Param, lesson_id: str) -> None:
    state.set_value(param, lesson_id)
    STEPPER.reset()


def menu_section(course: Course, param: state.Param, compact: bool) -> Lesson:
    """The lessons to choose from (a select box when ``compact``: large type or classroom mode); returns the
    lesson chosen."""
    ids: Sequence[str] = param.choices
    titles = {i: f"{course.lesson(i).number}. {course.lesson(i).title}" for i in ids}  # fixed labels: a widget
    if compact:  # whose labels change with the score would be a new widget, and forget its value
        st.selectbox("Lesson", ids, key=param.skey, format_func=titles.get, on_change=STEPPER.reset)
    else:
        st.markdown("**Lessons**")
        with st.container(key=MENU):
            for i in ids:  # buttons: their labels can carry the progress
                st.button(lv.progress_label(course.lesson(i)), key=pick_key(i).skey, on_click=_pick, args=(param, i),
                          type="primary" if i == st.session_state.get(param.skey) else "tertiary",
                          width="stretch")
    return course.lesson(state.value(param)) or course.lessons[0]


def _tries(lesson: Lesson) -> None:
    if lesson.tries:
        st.markdown("**Try it in the lab**")
        for item in lesson.tries:
            link(item)


def _body(lesson: Lesson) -> str:
    try:
        return render_body(lesson)
    except ExerciseError as exc:
        st.warning(md_escape(f"A number in this lesson cannot be computed here: {exc}"), icon=":material/error:")
        return lesson.body


def _key_points(lesson: Lesson) -> None:
    st.markdown("### Key points")
    st.markdown("\n".join(f"- {md_escape(point)}" for point in lesson.key_points))


def lesson_section(lesson: Lesson) -> None:
    """The whole lesson: objectives, text, links into the lab, exercises, key points."""
    st.subheader(f"{lesson.number}. {lesson.title}")
    answered, right, total = lv.progress(lesson)
    st.caption(f"About {lesson.minutes} minutes · {answered} of {total} exercises answered, {right} right")
    st.html(callout_html("By the end you can:\n" + "\n".join(f"• {o}" for o in lesson.objectives)))
    st.markdown(_body(lesson))
    _tries(lesson)
    if lesson.exercises:
        st.markdown("### Predict, then run")
    for number, exercise in enumerate(lesson.exercises, start=1):
        lv.draw_exercise(exercise, number, len(lesson.exercises))
    _key_points(lesson)


def slides_section(lesson: Lesson) -> None:
    """Classroom mode: one part of the lesson per click (objectives, each section, the links, each exercise).
    A fragment: a click reruns only this."""
    slides: list = [("objectives", None), *[("text", part) for part in lv.sections(_body(lesson))]]
    if lesson.tries:
        slides.append(("tries", None))
    slides += [("exercise", (n, e)) for n, e in enumerate(lesson.exercises, start=1)]
    slides.append(("key points", None))
    k = STEPPER.draw(len(slides) - 1, autoplay=False, label=f"**{lesson.number}. {md_escape(lesson.title)}**")
    state.publish([LESSON_STEP])
    kind, item = slides[k]
    st.caption(f"Part {k + 1} of {len(slides)}")
    if kind == "objectives":
        st.html(callout_html(f"{lesson.title}\n\nBy the end you can:\n" + "\n".join(f"• {o}" for o in lesson.objectives)))
    elif kind == "text":
        st.markdown(item)
    elif kind == "tries":
        _tries(lesson)
    elif kind == "exercise":
        lv.draw_exercise(item[1], item[0], len(lesson.exercises))
    else:
        _key_points(lesson)


def _reroll() -> None:
    st.session_state[SEED.skey] = st.session_state.get(SEED.skey, 1) + 1


def practice_section() -> None:
    """Questions made for any corpus and step, in a box filled only when opened."""
    with st.expander("More practice: questions the lab makes up for you", key=PRACTICE_OPEN.skey,
                     on_change="rerun", icon=":material/casino:") as box:
        if box.open:
            seed = st.session_state.setdefault(SEED.skey, 1)
            st.button("New questions", key=REROLL.skey, icon=":material/refresh:", on_click=_reroll)
            with st.container(border=True):
                predict.ask(lv.practice_merge(seed))
            with st.container(border=True):
                predict.ask(lv.practice_count(seed))


def takeaway_section(lesson: Lesson) -> None:
    """The worksheet and its answer key, and the progress file."""
    with st.expander("Worksheets and your progress", icon=":material/download:"):
        st.markdown("**A printable worksheet for this lesson**, and its answer key apart (both computed now).")
        with st.container(horizontal=True):
            st.download_button("Worksheet (Markdown)", lambda: worksheet_markdown(lesson), f"{lesson.id}-worksheet.md",
                               "text/markdown", key=WORKSHEET.skey, on_click="ignore", icon=":material/description:")
            st.download_button("Answer key (Markdown)", lambda: answer_key_markdown(lesson), f"{lesson.id}-answers.md",
                               "text/markdown", key=ANSWERS.skey, on_click="ignore", icon=":material/key:")
        st.markdown("**Your progress**: your answers and score in this browser session. Save them as a file to carry "
                    "them to another day or another machine, then load the file back here.")
        progress.draw(PAGE)
