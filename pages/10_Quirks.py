"""Quirks: live examples where token counts surprise, measured with the real tokenizers."""

from ui import state
from ui.frame import page_setup
from ui.layout import large_type_on
from ui.links import lesson_link
from views import quirks as qv

page_setup("Quirks")

LARGE = large_type_on()

if not LARGE:
    qv.intro()
lesson_link(7)
chosen = qv.pick_section()
with state.published(qv.PARAMS):
    tabs = qv.tabs_section()
if not qv.ready(chosen):
    state.stop()

for name, tab in zip(qv.TABS, qv.TAB_NAMES):  # only the open tab is drawn
    with tabs(tab):
        if tabs.open(tab):
            qv.SECTIONS[name](chosen, LARGE)
