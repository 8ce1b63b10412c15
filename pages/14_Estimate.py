"""Estimate: your own prompt or dataset, counted by the tokenizers of the models you name, priced per request and
per month in USD and INR.

The page sets up and composes the sections of views.estimate.
"""

from i18n import _
from ui import state
from ui.frame import page_setup
from ui.show import Show
from views import estimate as ev

page_setup("Estimate")

SHOW = Show.now()
ev.intro(SHOW)
with state.published(ev.PARAMS):  # every way out of a section leaves the address a link to the view
    with SHOW.folded(_("Your prompt, the models, and how to read them")):  # classroom mode: folded, the costs are the slide
        data = ev.input_section(SHOW)
        targets = ev.models_section(SHOW, data)
    if data is not None and targets:
        ev.results_section(SHOW, targets, data)
