"""Streaming: a reply arrives token by token; decoded naively it shows �, decoded carefully it shows text."""

import streamlit as st

from ui import state
from ui.frame import page_setup
from ui.layout import large_type_on
from ui.links import lesson_link
from views import streaming as sv

page_setup("Streaming")

LARGE = large_type_on()

if not LARGE:
    sv.intro()
lesson_link(6)
sv.examples_section()
with state.published(sv.PARAMS):
    key, tok = sv.input_section(LARGE)
stream = sv.stream_of(key, tok)
if stream is None:
    state.stop()
sv.figure_section(stream)
st.fragment(sv.stream_section, run_every=sv.STEPPER.run_every())(stream, LARGE)
sv.about_section(key, tok)
