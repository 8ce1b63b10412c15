"""What the Lessons page draws: the menu, a lesson (or, in classroom mode, its slides) with its exercises asked
before the truth is shown, the generated practice, the score, and the worksheets and progress to take away.

The lessons are data (``lessons/course/*.md``, read by :mod:`lessons.course`); their exercises and the practice
questions are built, with the engine's answers, by :mod:`ui.questions`. The progress box is
:mod:`views.lessons.progress`. This module declares the page's keys once and holds its sections, which
pages/12_Lessons.py composes.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import replace

import streamlit as st

from i18n import N_, _, _n, current, number, using
from lessons.course import Course, Lesson, course, render_body
from lessons.exercises import ExerciseError
from lessons.worksheet import answer_key_markdown, worksheet_markdown
from ui import predict, state
from ui.display import callout_html, md_escape
from ui.links import LESSON, LESSON_STEP, LESSONS_PAGE, draw_exercise, link
from ui.questions import practice_count, practice_merge
from ui.steps import Stepper
from views.lessons import progress

PAGE = LESSONS_PAGE
STEPPER = Stepper(LESSON_STEP, names=(N_("Start"), N_("Back"), N_("Next"), N_("End")))
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
        st.warning(md_escape(_("A lesson could not be loaded: {problem}", problem=problem)), icon=":material/error:")
    if not course.lessons:
        st.info(_("There are no lessons to show."))
        return False
    return True


LESSON_COUNTS = (N_("No short lessons"), N_("One short lesson"), N_("Two short lessons"), N_("Three short lessons"),
                 N_("Four short lessons"), N_("Five short lessons"), N_("Six short lessons"),
                 N_("Seven short lessons"), N_("Eight short lessons"), N_("Nine short lessons"),
                 N_("Ten short lessons"), N_("Eleven short lessons"), N_("Twelve short lessons"))


def lesson_count(n: int) -> str:
    """``9`` -> ``"Nine short lessons"``: the lessons that loaded (a damaged lesson file is not counted)."""
    if n < len(LESSON_COUNTS):
        return _(LESSON_COUNTS[n])
    return _n("{n} short lesson", "{n} short lessons", n)


# -- a lesson's exercises and the score ----------------------------------------------------------------
def lesson_progress(lesson: Lesson) -> tuple[int, int, int]:
    """(answered, right, total) for the lesson's exercises in this session."""
    right, tried = predict.score(lesson.id)
    return tried, right, len(lesson.exercises)


def progress_label(lesson: Lesson) -> str:
    answered, right, total = lesson_progress(lesson)
    mark = " ✓" if answered == total and total else ""
    return f"{lesson.number}. {lesson.title} · {answered}/{total}{mark}"


def sections(body: str) -> list[str]:
    """The lesson text cut at its ``##`` headings: one part per classroom slide."""
    parts = re.split(r"(?m)^(?=#{2,4} )", body)
    return [p.strip() for p in parts if p.strip()]


def score_line() -> str:
    right, tried = predict.score()
    total = len(course().exercises)
    lesson_tried = sum(lesson_progress(lesson)[0] for lesson in course().lessons)
    waiting = predict.waiting()
    later = (" " + _n("{n} loaded answer from lab pages waits to be checked on its page.",
                      "{n} loaded answers from lab pages wait to be checked on their page.", waiting)
             if waiting else "")
    return (_("Your score: {right} right of {answers} · {tried} of {total} lesson exercises answered. Your first "
              "answer to each question is the one that counts.", right=number(right),
              answers=_n("{n} answer", "{n} answers", tried), tried=number(lesson_tried), total=number(total))
            + later)


def intro(course: Course) -> None:
    st.caption(
        _("{lessons}, from what a token is to what a Hindi product's tokens cost. Every exercise asks you to commit "
          "to a prediction first; then the lab computes the truth with its own tokenizers and shows it beside your "
          "guess.", lessons=lesson_count(len(course.lessons))) + " " + score_line()
    )


def _pick(param: state.Param, lesson_id: str) -> None:
    state.set_value(param, lesson_id)
    STEPPER.reset()


def menu_section(course: Course, param: state.Param, compact: bool) -> Lesson:
    """The lessons to choose from (a select box when ``compact``: large type or classroom mode); returns the
    lesson chosen."""
    ids: Sequence[str] = param.choices
    by_id = {lesson.id: lesson for lesson in course.lessons}  # every choice is a lesson of the course
    titles = {i: f"{by_id[i].number}. {by_id[i].title}" for i in ids}  # fixed labels: a widget
    if compact:  # whose labels change with the score would be a new widget, and forget its value
        st.selectbox(_("Lesson"), ids, key=param.skey, format_func=titles.__getitem__, on_change=STEPPER.reset)
    else:
        st.markdown(_("**Lessons**"))
        with st.container(key=MENU):
            for i in ids:  # buttons: their labels can carry the progress
                st.button(progress_label(by_id[i]), key=pick_key(i).skey, on_click=_pick, args=(param, i),
                          type="primary" if i == st.session_state.get(param.skey) else "tertiary",
                          width="stretch")
    return course.lesson(state.value(param)) or course.lessons[0]


def _tries(lesson: Lesson) -> None:
    if lesson.tries:
        st.markdown(_("**Try it in the lab**"))
        for item in lesson.tries:
            link(item)


def _body(lesson: Lesson) -> str:
    try:
        return render_body(lesson)
    except ExerciseError as exc:
        st.warning(md_escape(_("A number in this lesson cannot be computed here: {why}", why=exc)),
                   icon=":material/error:")
        return lesson.body


def _key_points(lesson: Lesson) -> None:
    st.markdown("### " + _("Key points"))
    st.markdown("\n".join(f"- {md_escape(point)}" for point in lesson.key_points))


def lesson_section(lesson: Lesson, *, trusted: bool = True) -> None:
    """The whole lesson: objectives, text, links into the lab, exercises, key points. ``trusted=False``: a lesson
    file someone opened in the browser: its text is shown as text (never Markdown, never a link)."""
    st.subheader(md_escape(f"{lesson.number}. {lesson.title}" if lesson.number else lesson.title))
    answered, right, total = lesson_progress(lesson)
    st.caption(_("About {minutes} minutes · {answered} of {total} exercises answered, {right} right",
                 minutes=number(lesson.minutes), answered=number(answered), total=number(total), right=number(right)))
    st.html(callout_html(_("By the end you can:") + "\n" + "\n".join(f"• {o}" for o in lesson.objectives)))
    st.markdown(_body(lesson)) if trusted else st.html(callout_html(lesson.body))
    _tries(lesson)
    if lesson.exercises:
        st.markdown("### " + _("Predict, then run"))
    for n, exercise in enumerate(lesson.exercises, start=1):
        draw_exercise(exercise, n, len(lesson.exercises))
    _key_points(lesson)


def slides_section(lesson: Lesson) -> None:
    """Classroom mode: one part of the lesson per click (objectives, each section, the links, each exercise).
    A fragment: a click reruns only this."""
    slides: list = [("objectives", None), *[("text", part) for part in sections(_body(lesson))]]
    if lesson.tries:
        slides.append(("tries", None))
    slides += [("exercise", (n, e)) for n, e in enumerate(lesson.exercises, start=1)]
    slides.append(("key points", None))
    k = STEPPER.draw(len(slides) - 1, autoplay=False, label=f"**{lesson.number}. {md_escape(lesson.title)}**")
    state.publish([LESSON_STEP])
    kind, item = slides[k]
    st.caption(_("Part {k} of {n}", k=number(k + 1), n=number(len(slides))))
    if kind == "objectives":
        st.html(callout_html(f"{lesson.title}\n\n" + _("By the end you can:") + "\n"
                             + "\n".join(f"• {o}" for o in lesson.objectives)))
    elif kind == "text":
        st.markdown(item)
    elif kind == "tries":
        _tries(lesson)
    elif kind == "exercise":
        draw_exercise(item[1], item[0], len(lesson.exercises))
    else:
        _key_points(lesson)


def _reroll() -> None:
    st.session_state[SEED.skey] = st.session_state.get(SEED.skey, 1) + 1


def practice_section() -> None:
    """Questions made for any corpus and step, in a box filled only when opened."""
    with st.expander(_("More practice: questions the lab makes up for you"), key=PRACTICE_OPEN.skey,
                     on_change="rerun", icon=":material/casino:") as box:
        if box.open:
            seed = st.session_state.setdefault(SEED.skey, 1)
            st.button(_("New questions"), key=REROLL.skey, icon=":material/refresh:", on_click=_reroll)
            with st.container(border=True):
                predict.ask(practice_merge(seed))
            with st.container(border=True):
                predict.ask(practice_count(seed))


def _sheet(make: Callable[[Lesson], str], lesson: Lesson, lang: str) -> str:
    """A worksheet or answer key, written in ``lang`` (the page's: made when the button is pressed, maybe outside
    the run that drew it)."""
    with using(lang):
        return make(lesson)


def takeaway_section(lesson: Lesson) -> None:
    """The worksheet and its answer key (in the page's language), and the progress file."""
    lang = current()
    with st.expander(_("Worksheets and your progress"), icon=":material/download:"):
        st.markdown(_("**A printable worksheet for this lesson**, and its answer key apart (both computed now)."))
        with st.container(horizontal=True):
            st.download_button(_("Worksheet (Markdown)"), lambda: _sheet(worksheet_markdown, lesson, lang),
                               f"{lesson.id}-worksheet.md", "text/markdown", key=WORKSHEET.skey, on_click="ignore",
                               icon=":material/description:")
            st.download_button(_("Answer key (Markdown)"), lambda: _sheet(answer_key_markdown, lesson, lang),
                               f"{lesson.id}-answers.md", "text/markdown", key=ANSWERS.skey, on_click="ignore",
                               icon=":material/key:")
        st.markdown(_("**Your progress**: your answers and score. This browser keeps them for you (on this device, "
                      "not on the server): close it and come back another day, they are here. Save them as a file to "
                      "carry them to another machine, then load the file back there. In a class, the class keeps your "
                      "answers, apart from these."))
        progress.draw(PAGE)
