"""Vocabulary by script: a production tokenizer's whole vocabulary read by script, two tokenizers side by side."""

from ui import state
from ui.layout import large_type_on, page_setup
from views import vocabulary as vv

page_setup("Vocabulary by script")

LARGE = large_type_on()
vv.intro(LARGE)
with state.published(vv.PARAMS):  # every way out of a section leaves the address a link to the view
    chosen = vv.pick_section()
    if chosen:
        found = vv.counts_section(chosen)
        script = vv.pick_script()
        vv.script_section(found, script, LARGE)
        vv.search_section(found)
