"""Real tokenizers: the same meaning in English and Hindi, counted by production tokenizers, side by side."""

from i18n import _
from ui import state
from ui.frame import page_setup
from ui.layout import classroom_on, controls, large_type_on
from ui.links import lesson_link
from views import real as rv

page_setup("Real tokenizers")

LARGE = large_type_on()

with state.published(rv.PARAMS):
    if not classroom_on():  # classroom mode: the teacher says it, the figure is on the first screen
        rv.intro()
    lesson_link(9)
    with controls(_("The sentence pair and the tokenizers")):  # classroom mode: folded, the chart is the slide
        pair = rv.pair_section()
        chosen = rv.pick_section() if pair is not None else []
if pair is None or not chosen:
    state.stop()
english, hindi = pair
if not rv.premium_section(chosen, english, hindi, LARGE):
    state.stop()
rv.tokens_section(chosen, english, hindi)
rv.about_section(chosen)
