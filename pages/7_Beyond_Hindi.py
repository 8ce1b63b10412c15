"""Beyond Hindi: what many languages pay per character over English, split into the UTF-8 part and the tokenizer part."""

from i18n import _
from ui import state
from ui.frame import page_setup
from ui.layout import classroom_on, controls, large_type_on
from ui.links import lesson_link
from views import beyond_hindi as bv

page_setup("Beyond Hindi")

LARGE = large_type_on()

found = bv.samples()
if found is None:
    state.stop()
if not classroom_on():  # classroom mode: the teacher says it, the chart is the slide
    bv.intro(found)
lesson_link(5)
with controls(_("The languages, the tokenizers and how they are compared")):
    chosen = bv.pick_section()
    chart = bv.chart_param(chosen)
    with state.published([*bv.PARAMS, chart]):
        settings = bv.controls_section(chosen, chart)
if not bv.chart_section(settings, LARGE):
    state.stop()
bv.why_section(found, settings, LARGE)
bv.table_section(settings)
bv.samples_section(found, settings)
bv.about_section(chosen)
