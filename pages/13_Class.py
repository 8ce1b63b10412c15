"""Class: start a class, join one with its code, and (the teacher) project its code and see what it thinks."""

from ui import classroom, state
from ui.layout import page_setup
from views import classroom as cv

page_setup("Class")
cv.take_teacher_link()  # before anything is drawn: the secret leaves the address bar at once

with state.published(cv.PARAMS):
    if classroom.teaching():
        cv.projector_section()
        cv.dashboard_section()
    elif classroom.member():
        cv.learner_section()
    else:
        cv.outside_section()
