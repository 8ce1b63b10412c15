"""Links between the lessons and the lab: one rule for every page.

A lesson's link opens a page with the lesson's settings and says where it came from (``from=<lesson>``, or
``<lesson>.<part>`` in classroom mode); the page it opens links back to *that* lesson. A page reached
otherwise links back to the lesson its example comes from. Large type and classroom mode travel with every link.

Predict first: a link whose page shows the answers of some of its lesson's exercises names them (``ask`` in the
lesson file; ``python -m lessons check`` computes which with :mod:`lessons.reveals`). The page it opens asks those
not answered yet before it shows anything (:func:`ask_first`, called by every page's ``page_setup``); once they
are answered, or skipped, the page opens as the link says. On the Lessons page such a link says so.
"""

from __future__ import annotations

import streamlit as st

from i18n import N_, _, _n
from lessons.course import Exercise, Lesson, Link, course
from lessons.exercises import ExerciseError
from lessons.progress import LESSON_EXERCISE, QuestionId
from ui import predict, state
from ui.display import and_words, md_escape
from ui.layout import PAGES, classroom_on, link_params
from ui.questions import exercise_question

#: The Lessons page's settings this module reads: the lesson shown, and (in classroom mode) its part.
LESSONS_PAGE = "lessons"
LESSON = state.Param(LESSONS_PAGE, "lesson", "")
"""The lesson shown; its choices are the course's lessons, which can change while the lab runs
(``views.lessons.lesson_param`` gives it them on every run)."""
LESSON_STEP = state.Param(LESSONS_PAGE, "step", 0, lo=0, hi=200)
"""Classroom mode: the part of the lesson on screen."""


def page_path(url_path: str) -> str:
    """A page's file from its URL path (for st.page_link)."""
    return next(e.path for e in PAGES if e.url_path == url_path)


def _shown_lesson() -> tuple[Lesson, int | None] | None:
    """The lesson the Lessons page is showing (and, in classroom mode, its part): where a link drawn there
    comes from."""
    lesson = course().lesson(st.session_state.get(LESSON.skey, "")) or next(iter(course().lessons), None)
    if lesson is None:
        return None
    part = st.session_state.get(LESSON_STEP.skey) if classroom_on() else None
    return lesson, part if isinstance(part, int) and part >= 0 else None


def link_origin() -> tuple[Lesson, int | None] | None:
    """The lesson (and part) this page was reached from: ``?from=<lesson id>`` or ``<lesson id>.<part>``."""
    lesson_id, part = state.origin(), None
    head, dot, tail = lesson_id.rpartition(".")
    if dot and tail.isdigit() and len(tail) <= 4:
        lesson_id, part = head, int(tail)
    lesson = course().lesson(lesson_id) if lesson_id else None
    return None if lesson is None else (lesson, part)


def link(item: Link, *, label: str | None = None) -> None:
    """A link into the lab with the lesson's settings (and large type or classroom mode, if on).

    It also says where it comes from (``from=<lesson>``, ``<lesson>.<part>`` in classroom mode): the page
    it opens links back to this lesson, and the address stays a link to the view with its way back. A link whose
    page asks some of the lesson's exercises first says so while they are not answered.
    """
    shown = _shown_lesson()
    origin = {} if shown is None else {state.ORIGIN: shown[0].id + ("" if shown[1] is None else f".{shown[1]}")}
    params = {**item.params, **origin, **(link_params() or {})}
    text = label or item.label or _("Open it in the lab")
    todo = _unanswered(shown[0], item.ask) if shown is not None else []
    st.page_link(page_path(item.page), label=md_escape(text + (" " + _(PREDICT_FIRST) if todo else "")),
                 icon=":material/quiz:" if todo else ":material/arrow_forward:", query_params=params or None)
    # no help tooltip: Streamlit draws a second, hidden copy of a link that has one (a page's first link is then
    # one nobody sees)


# -- predict first: a link whose page gives exercises away asks them first ---------------------------------------
PREDICT_FIRST = N_("(predict first)")
"""What a lesson link's label says while the page it opens asks some of the lesson's exercises first."""
VISIT = state.Key("links", "visit")
"""The view on screen that a lesson's link made ask first: its page, its marker (page, lesson id, settings, the
exercise ids the link asks), whether the learner skipped it, and the exercises this visit asks (those unanswered
when it came: their verdicts stay in the box as they are answered, then above the view). A visit to another page
ends it: the next link to the view asks again what is still unanswered."""
SKIP = state.Key("links", "skip")


def exercise_key(exercise: Exercise) -> str:
    """An exercise's key in the predict store (its question's id, without computing its answer)."""
    return QuestionId.of(LESSON_EXERCISE, lesson=exercise.lesson, exercise=exercise.id).key


def _unanswered(lesson: Lesson, ask: tuple[str, ...]) -> list[Exercise]:
    """The exercises ``ask`` names that this session has not answered, in lesson order."""
    return [e for e in lesson.exercises if e.id in ask and not predict.answered(exercise_key(e))]


def asked_here(page: str) -> tuple[Lesson, list[Exercise]] | None:
    """The lesson this page was reached from and the exercises its link asks first (every link of that lesson to
    this page with exactly the settings in the address), or None."""
    reached = link_origin()
    if reached is None:
        return None
    lesson, settings = reached[0], state.address_settings()
    links = [*lesson.tries, *(e.view for e in lesson.exercises if e.view is not None)]
    ask = {a for item in links if item.page == page and item.params == settings for a in item.ask}
    asked = [e for e in lesson.exercises if e.id in ask]
    return (lesson, asked) if asked else None


def draw_exercise(exercise: Exercise, number: int, total: int, *, view: bool = True) -> predict.Verdict | None:
    """One of a lesson's exercises, asked (or its verdict, once answered) in a box; ``view``: with its link into the
    lab once answered. The Lessons page draws every exercise with it, and a page that asks first its own."""
    with st.container(border=True, key=f"exercise-{exercise.lesson}-{exercise.id}"):
        st.markdown(_("**Exercise {number} of {total}**", number=number, total=total))
        try:
            verdict = predict.ask(exercise_question(exercise))
        except ExerciseError as exc:
            st.warning(md_escape(_("This exercise cannot be computed here: {problem}", problem=exc)),
                       icon=":material/error:")
            return None
        if view and verdict is not None and exercise.view is not None:
            link(exercise.view, label=exercise.view.label or _("See it in the lab"))
        return verdict


def _skip() -> None:
    st.session_state[VISIT.skey]["skipped"] = True


def ask_first(page: str) -> None:
    """Predict first, for a page a lesson's link opened: while the exercises that link asks (their answers are on
    this page) are not all answered, ask them and draw nothing else (the learner may skip, for this visit); once they
    are, the page is drawn as the link says, under the verdicts given here (folded in classroom mode, so the figure
    keeps the first screen). ``page_setup`` calls this on every page."""
    visit = st.session_state.get(VISIT.skey)
    if visit is not None and visit["page"] != page:  # another page now: that visit is over
        st.session_state.pop(VISIT.skey, None)
        visit = None
    found = asked_here(page)
    if found is None:
        return
    lesson, exercises = found
    marker = (page, lesson.id, tuple(sorted(state.address_settings().items())), tuple(e.id for e in exercises))
    todo = [e for e in exercises if not predict.answered(exercise_key(e))]
    if visit is None or visit["marker"] != marker:
        visit = st.session_state[VISIT.skey] = {"page": page, "marker": marker, "skipped": False,
                                                 "asking": [e.id for e in todo]}
    numbers = {e.id: n for n, e in enumerate(lesson.exercises, start=1)}
    total = len(lesson.exercises)
    asking = [e for e in exercises if e.id in visit["asking"]]  # what this visit asks: its verdicts stay as answered
    if not todo or visit["skipped"]:
        done = [e for e in asking if e not in todo]
        if done:
            right = sum(1 for e in done if _right(e))
            with st.expander(_("Your predictions: {right} of {tried} right", right=right, tried=len(done)),
                             expanded=not classroom_on(),
                             icon=":material/quiz:"):
                for e in done:  # the verdicts only: the page may ask the same question itself (English vs Hindi)
                    q = exercise_question(e)
                    st.markdown(_("**Exercise {number} of {total}**", number=numbers[e.id], total=total))
                    verdict = predict.verdict_of(q)
                    if verdict is not None:  # answered: it is among the done
                        predict.draw_verdict(q, verdict)
        return
    named = _numbers([str(numbers[e.id]) for e in asking])
    with st.container(border=True, key="tl-ask-first"):
        st.markdown(_n("**Predict first.** This view shows the answer to exercise {numbers} of lesson {lesson}, "
                       "*{title}*. Commit to a prediction here; then the lab shows it.",
                       "**Predict first.** This view shows the answers to exercises {numbers} of lesson {lesson}, "
                       "*{title}*. Commit to a prediction here; then the lab shows it.",
                       len(asking), numbers=named, lesson=lesson.number, title=md_escape(lesson.title)))
        for e in asking:
            draw_exercise(e, numbers[e.id], total, view=False)
        with st.container(horizontal=True, vertical_alignment="center", gap="medium"):
            st.button(_("Skip, show me the view"), key=SKIP.skey, type="tertiary", icon=":material/visibility:",
                      on_click=_skip)
            lesson_link(None)  # the way back to the lesson (and its part), as the page itself would draw it
    state.enter_again()  # the next run enters the page again: the link's settings, not the session's, decide it
    state.stop()


def _numbers(items: list[str]) -> str:
    """``["1", "2", "4"]`` -> "1, 2 and 4", in the language of the run."""
    return and_words(items)


def _right(exercise: Exercise) -> bool:
    entry = predict.store().get(exercise_key(exercise), {})
    return entry.get("right") is True


def lesson_link(number: int | None) -> None:
    """A link back to the lesson this page was reached from (and its part, in classroom mode); reached
    otherwise, to the lesson with this number (where the page's example comes from), if the course has it."""
    reached = link_origin()
    lesson: Lesson | None
    if reached is not None:
        lesson, part = reached
    else:
        lesson = next((item for item in course().lessons if item.number == number), None)
        part = None
    if lesson is None:
        return
    params = {"lesson": lesson.id}
    label = _("In the lessons: {number}. {title}", number=lesson.number, title=lesson.title)
    if part is not None and classroom_on():
        params["step"] = str(part)
        label += _(" (part {n})", n=part + 1)
    st.page_link(page_path("Lessons"), label=md_escape(label), icon=":material/menu_book:",
                 query_params={**params, **(link_params() or {})})
