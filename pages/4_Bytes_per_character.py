"""Bytes per character: what UTF-8 charges for each character, and what a byte-level tokenizer makes of it.

The page sets up and composes the sections of views.bytes.
"""

from ui import state
from ui.frame import page_setup
from views import bytes as bv

page_setup("Bytes per character")

bv.intro()
params = bv.url_params()  # restored first: the sample decides the text's default
with state.published(params):  # too long a text is left out of the link: said under the text box
    text, counts = bv.input_section(params[1])
    part = bv.slides()
    bv.code_points_section(text, counts, part)
    bv.graphemes_section(text, counts, part)
    with part("ladder"):
        bv.byte_ladder_section(text)
    bv.scripts_section(text, counts)
