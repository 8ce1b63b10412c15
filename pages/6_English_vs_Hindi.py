"""English vs Hindi: who gets the cheap tokens when English and Hindi share one merge budget (lesson 4).

Read the widgets -> the engine's sweep over every share of the training text
(analyses.experiment, cached per texts for every learner by views.english_hindi) ->
draw. The page opens on the lesson's first row (1 Hindi copy, 100 merges) and
asks for a prediction before the curves are shown; the step cursor of the
compression curve is a fragment, so dragging it reruns only that part.
"""

import streamlit as st

from ui import state
from ui.frame import page_setup
from ui.layout import classroom_on, large_type_on
from ui.links import lesson_link
from views import english_hindi as ev

page_setup("English vs Hindi")

LARGE = large_type_on()
CLASSROOM = classroom_on()  # one screen: the curves over every share come first, the chips after them

with state.published(ev.SETTINGS):  # the sliders and texts, however the page ends
    view = ev.open_view()
    if not CLASSROOM:  # classroom mode: the teacher says it, the figure is on the first screen
        ev.intro()
    lesson_link(4)
    setting = ev.controls_section(view)
    ev.counts_section(setting)
    if not view.revealed:  # the question comes right under the numbers it is about
        ev.predictions_section(view)
    if view.revealed and CLASSROOM:
        ev.shares_section(setting, LARGE)
    ev.chips_section(setting, CLASSROOM)
    if not view.revealed:
        ev.locked_note()
        state.stop()
    if view.answered:
        ev.predictions_section(view)
    ev.lesson_table_section(setting)
    if not CLASSROOM:
        ev.shares_section(setting, LARGE)
    ev.merges_section(setting)
    st.fragment(ev.curve_section)(setting, LARGE, CLASSROOM)
    ev.cost_section(setting, LARGE)
    ev.findings_section()
ev.link_note()
