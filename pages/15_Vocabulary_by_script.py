"""Vocabulary by script: a production tokenizer's whole vocabulary read by script, two tokenizers side by side."""

from i18n import _
from ui import state
from ui.frame import page_setup
from ui.layout import classroom_on, controls, large_type_on
from views import vocabulary as vv

page_setup("Vocabulary by script")

LARGE = large_type_on()
CLASSROOM = classroom_on()  # the lesson's figure (a script's curve) first, the table and the definition after it
vv.intro(LARGE)
with state.published(vv.PARAMS):  # every way out of a section leaves the address a link to the view
    with controls(_("The tokenizers and the script")):  # classroom mode: folded, the script's figure is the slide
        chosen = vv.pick_section()
        script = vv.pick_script() if chosen and CLASSROOM else None
    if chosen:
        found = vv.vocabularies(chosen)
        if not CLASSROOM:
            vv.counts_section(found)
            script = vv.pick_script()
        vv.script_section(found, script, LARGE)
        if CLASSROOM:
            vv.counts_section(found)
        vv.search_section(found)
if CLASSROOM:
    vv.definition()
