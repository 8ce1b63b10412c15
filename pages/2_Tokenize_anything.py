"""Tokenize anything: type any text, see it cut by one or more tokenizers, side by side, with counts and ids.

The page sets up and composes the sections of views.tokenize.
"""

from ui import state
from ui.frame import page_setup
from ui.layout import large_type_on
from views import tokenize as tkv

page_setup("Tokenize anything")

LARGE = large_type_on()
tkv.intro(LARGE)
with state.published(tkv.PARAMS):  # every way out of a section leaves the address a link to the view
    chosen = tkv.inputs_section(LARGE)
    tkv.tokens_section(chosen, LARGE)
