"""Train step by step: watch BPE learn its merges one at a time.

The page sets up and composes the sections of views.train: the settings and the corpus -> training through
ui.training (cached for every learner) -> one step of the trace. The step view is a fragment: a click on Next
reruns only it. Step 0 is before any merge; step k shows the pair counts *before* merge k, the pair it picked,
and the corpus *after* merge k.
"""

from ui import state
from ui.frame import page_setup
from ui.show import Show
from views import train as tv

page_setup("Train step by step")

show = Show.now()  # large type, classroom mode (fewer controls: the teacher steps, the class watches)

tv.intro(show)
params = tv.url_params()  # restored first: the preset decides the other settings' defaults
with state.published(params):  # however the sections end, the address is a link to what is on screen
    preset_id, settings = tv.settings_section(show)
    corpus, source = tv.corpus_section(preset_id, show)
    run = tv.training_section(corpus, settings)
    tv.trace_section(run, source, preset_id, settings, show)
tv.link_notes(params, preset_id)
