"""Cost, context and speed: tokens turned into rupees, into room in a context window, and into decoding steps."""

from contextlib import nullcontext

import streamlit as st

from i18n import _
from ui import state
from ui.display import md_escape
from ui.frame import page_setup
from ui.layout import Slides, classroom_on, large_type_on
from ui.links import lesson_link
from views import cost as cv

page_setup("Cost, context and speed")


LARGE = large_type_on()

with state.published(cv.PARAMS):  # the address says what is on screen, however the page ends
    if not classroom_on():  # classroom mode: the teacher says it, the figure is on the first screen
        st.markdown(_(
            "**{title}.** {what} An API bills tokens, not words, so the same story costs what its tokenizer makes of "
            "it. Every number below is yours to change (the link keeps them); the results are worked out by the lab as "
            "you type.", title=md_escape(cv.scenario_text("title")), what=md_escape(cv.scenario_text("what"))))
    st.button(_("Back to the lesson-5 news app"), key=cv.RESET.skey, on_click=cv.back_to_scenario, type="tertiary",
              icon=":material/restart_alt:")
    lesson_link(5)

    # Classroom mode: one part per slide, as tabs; a link opens the part it names (?part=window), as tabs too.
    part = Slides(cv.part_names(), cv.PART)

    with part("bill"):
        article, month = st.columns(2, gap="large") if classroom_on() else (nullcontext(), nullcontext())
        with article:  # classroom mode: an article and a month side by side, both bills on one slide
            found = cv.article_section(LARGE)
        with month:
            monthly = cv.month_section(found, LARGE)
    with part("window"):
        cv.window_section(found, LARGE)
    with part("presend"):
        cv.presend_section(found, LARGE)
    with part("speed"):
        cv.speed_section(found, LARGE)
    with part("cleaning"):
        cv.cleaning_section(found, monthly)
    with part("planning"):
        cv.planning_section(found)

