"""The family: BPE beside WordPiece merge by merge, Unigram's pieces and sampled splits, a real tokenizer's
pipeline stage by stage, and the special tokens of a chat template (curriculum lesson 8).

Read the widgets -> the engine (family.wordpiece, family.unigram, family.pipeline, family.chat)
through views.family's caches -> draw with the shared helpers. One part of the lesson is drawn at a time;
the merge steps are a fragment, so Next reruns only them.
"""

import streamlit as st

from i18n import _
from ui import state
from ui.display import md_escape
from ui.frame import page_setup
from ui.links import lesson_link
from ui.show import Show
from views import family as fv

page_setup("The family")

show = Show.now()  # large type, classroom mode
if not show.large:
    st.caption(md_escape(fv.said("intro")))
    st.caption(md_escape(fv.said("history")))
lesson_link(8)

state.restore([fv.PRESET])  # each part publishes it with the settings it draws
with state.published([fv.PART]):
    part = st.segmented_control(_("Part"), fv.PARTS, key=fv.PART.skey, required=True,
                                format_func={p: _(name) for p, name in fv.PART_NAMES.items()}.get,
                                label_visibility="collapsed")

fv.SECTIONS[part](show)
