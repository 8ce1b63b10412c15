"""Class: start a class, join one with its code, and (the teacher) project its code and see what it thinks."""

from ui import classroom, state
from ui.frame import page_setup
from views import classroom as cv

cv.take_teacher_link()  # first: the secret leaves the address bar, and page_setup draws the teacher's class bar
page_setup("Class")

with state.published(cv.PARAMS):
    if classroom.teaching():
        cv.projector_section()
        if not classroom.ended():
            cv.own_questions_section()
        cv.dashboard_section()
    elif classroom.member():
        cv.learner_section()
    else:
        cv.outside_section()
