"""Estimate: your own prompt or dataset, counted by the tokenizers of the models you name, priced per request and
per month in USD and INR.

The page sets up and composes the sections of views.estimate.
"""

from ui import state
from ui.layout import large_type_on, page_setup
from views import estimate as ev

page_setup("Estimate")

LARGE = large_type_on()
ev.intro()
with state.published(ev.PARAMS):  # every way out of a section leaves the address a link to the view
    data = ev.input_section(LARGE)
    targets = ev.models_section()
    if data is not None and targets:
        ev.results_section(targets, data, LARGE)
