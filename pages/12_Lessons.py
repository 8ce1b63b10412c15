"""Lessons: the course, one lesson at a time, with exercises answered before the lab shows the truth.

The lessons are Markdown files in lessons/course/ (read by lessons.course); every
exercise's answer is computed by the engine when it is asked (lessons.exercises).
In classroom mode a lesson is shown one part per click, with the shared step controls.
In Hindi (?lang=hi) course() is the course in Hindi: each lesson's words from lessons/course/hi/ over its English
facts, a lesson without its Hindi file in English.
"""

import streamlit as st

from lessons.course import course
from ui import state
from ui.frame import page_setup
from ui.layout import classroom_on, large_type_on
from views import lessons as lp
from views.lessons import opened

page_setup("Lessons")

COURSE = course()
LARGE = large_type_on()
CLASSROOM = classroom_on()
LESSON = lp.lesson_param(COURSE)
state.restore([lp.LESSON_STEP])  # classroom mode publishes it (the part on screen) with the lesson

with state.published([LESSON, lp.LESSON_STEP] if CLASSROOM else [LESSON]):
    if not lp.problems_section(COURSE):
        state.stop()
    if not CLASSROOM:
        lp.intro(COURSE)
    left, right = (st.container(), st.container()) if (LARGE or CLASSROOM) else st.columns([1, 3], gap="large")
    with left:
        lesson = lp.menu_section(COURSE, LESSON, LARGE or CLASSROOM)
    with right:
        if CLASSROOM:
            st.fragment(lp.slides_section)(lesson)
        else:
            lp.lesson_section(lesson)
if CLASSROOM:
    state.stop()

lp.practice_section()
lp.takeaway_section(lesson)
opened.opened_section(lp.lesson_section)  # a lesson file: a class's own questions, a lesson being written
