"""Real tokenizers: the same meaning in English and Hindi, counted by production tokenizers, side by side."""

from ui import state
from ui.layout import classroom_on, large_type_on, page_setup
from ui.links import lesson_link
from views import real as rv

page_setup("Real tokenizers")

LARGE = large_type_on()

with state.published(rv.PARAMS):
    if not classroom_on():  # classroom mode: the teacher says it, the figure is on the first screen
        rv.intro()
    lesson_link(9)
    pair = rv.pair_section()
if pair is None:
    state.stop()
english, hindi = pair

chosen = rv.pick_section()
if not chosen:
    state.stop()
if not rv.premium_section(chosen, english, hindi, LARGE):
    state.stop()
rv.tokens_section(chosen, english, hindi)
rv.about_section(chosen)
