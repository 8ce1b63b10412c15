"""Links between the lessons and the lab: one rule for every page.

A lesson's link opens a page with the lesson's settings and says where it came from (``from=<lesson>``, or
``<lesson>.<part>`` in classroom mode); the page it opens links back to *that* lesson. A page reached
otherwise links back to the lesson its example comes from. Large type and classroom mode travel with every link.
"""

from __future__ import annotations

import streamlit as st

from i18n import _
from lessons.course import Lesson, Link, course
from ui import state
from ui.display import md_escape
from ui.layout import PAGES, classroom_on, link_params

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
    it opens links back to this lesson, and the address stays a link to the view with its way back.
    """
    shown = _shown_lesson()
    origin = {} if shown is None else {state.ORIGIN: shown[0].id + ("" if shown[1] is None else f".{shown[1]}")}
    params = {**item.params, **origin, **(link_params() or {})}
    st.page_link(page_path(item.page), label=md_escape(label or item.label or _("Open it in the lab")),
                 icon=":material/arrow_forward:", query_params=params or None)


def lesson_link(number: int | None) -> None:
    """A link back to the lesson this page was reached from (and its part, in classroom mode); reached
    otherwise, to the lesson with this number (where the page's example comes from), if the course has it."""
    reached = link_origin()
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
