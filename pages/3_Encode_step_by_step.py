"""Encode step by step: replay a lab tokenizer's learned merges on a word or a sentence, one merge at a time.

The page sets up and composes the sections of views.encode; the step view is a fragment, so Next reruns only it.
"""

from ui import state
from ui.frame import page_setup
from ui.layout import large_type_on
from views import encode as ev

page_setup("Encode step by step")

LARGE = large_type_on()
ev.intro(LARGE)
key, tok = ev.pick_tokenizer()
with state.published(ev.PARAMS):  # every way out of the section leaves the address a link to the view
    ev.encode_section(key, tok, LARGE)
