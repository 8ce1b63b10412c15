"""The Lessons page's "Open a lesson file": a lesson that is not in the course (a class's own questions, downloaded
from the Class page; a lesson being written), read as the course's are (:func:`lessons.course.parse_lesson`: the
same checks, the same bounds) and shown with the same sections, its answers computed by the lab when asked. It
stays in this browser session (:mod:`ui.own`), so its answers are judged and saved like the course's.
"""

from __future__ import annotations

import streamlit as st

from i18n import _, number
from lessons.course import MAX_LESSON_BYTES, LessonError, course, parse_lesson
from ui import own, state
from ui.display import callout_html
from ui.uploads import forget_upload, uploaded_bytes, uploaded_file

PAGE = "lessons"
UPLOAD = state.Key(PAGE, "open_file")
SAID = state.Key(PAGE, "_opened_said").skey


def _read() -> None:
    """on_change: read the file as a lesson, keep it in the session, and let the file go."""
    file = uploaded_file(UPLOAD.skey)
    if file is None:
        return
    name, data = file.name, file.getvalue()
    forget_upload(UPLOAD.skey)
    try:
        if len(data) > MAX_LESSON_BYTES:
            raise LessonError(_("{name}: {n} bytes; a lesson file may be up to {most}", name=name,
                                n=number(len(data)), most=number(MAX_LESSON_BYTES)))
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise LessonError(_("{name}: not UTF-8 text, so not a lesson file", name=name)) from None
        lesson = parse_lesson(text, name, number=0)
        if course().lesson(lesson.id) is not None:
            raise LessonError(_("{name}: its id {id} is a lesson of the course already (open the course's own from "
                                "the menu)", name=name, id=repr(lesson.id)))
    except LessonError as exc:
        st.session_state[SAID] = ("warning", _("That file cannot be opened as a lesson: {why}", why=exc))
        return
    own.open_lesson(lesson)
    st.session_state[SAID] = ("success", _("Opened “{title}”: it is below.", title=lesson.title))


def opened_section(draw_lesson) -> None:
    """The uploader, then each lesson opened in this session, drawn by ``draw_lesson(lesson, trusted=False)`` (the
    page's own lesson section, its text as text)."""
    with st.expander(_("Open a lesson file (your teacher's questions, say)"), icon=":material/upload_file:"):
        uploaded_bytes(_("A lesson file (.md)"), key=UPLOAD.skey, types=["md"], limit_mb=1, on_change=_read,
                       help=_("A lesson file of this lab: the Class page's “Download them as a lesson file”, or a "
                              "lesson being written (`python -m lessons check --course FILE` checks it first)."))
        if said := st.session_state.pop(SAID, None):
            st.html(callout_html(said[1], said[0]))
    for lesson in reversed(list(own.opened().values())):
        with st.container(border=True, key=f"opened-{lesson.id}"):
            draw_lesson(lesson, trusted=False)  # someone's file: its text is shown as text


__all__ = ["UPLOAD", "opened_section"]
