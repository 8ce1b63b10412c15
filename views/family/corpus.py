"""The corpus box, shared by "BPE vs WordPiece" and "Unigram": a preset or your own text, with the part's own
setting beside it.
"""

from __future__ import annotations

import streamlit as st

import lessons
from family.unigram import META
from ui import presets, state
from ui.display import md_escape
from ui.show import Show

from .settings import (
    MAX_COMPARED_MERGES,
    MAX_OWN_CHARS,
    PRESET,
    STEPPER,
    TEXT,
    TEXT_IN_LINK,
    apply_preset,
    corpus_params,
    settings_summary,
)


def corpus_picker(setting: str, show: Show) -> tuple[str | None, str, dict[str, state.Param]]:
    """The corpus box with the part's own setting beside it (``"merges"`` or ``"vocab"``), and your own
    text; returns (corpus or None, preset id, the corpus's params)."""
    preset_id = st.session_state[PRESET.skey]
    params = corpus_params(preset_id)
    state.restore([TEXT, *params.values()])
    pick, number = st.columns([3, 2] if show.large else [3, 1.4], vertical_alignment="bottom")
    pick.selectbox("Corpus", presets.preset_ids(), key=PRESET.skey, format_func=presets.preset_title,
                   on_change=apply_preset,
                   help="The lab's presets (the Train page's worked examples and the English + Hindi news), or your "
                   "own text. Both rules and Unigram train on the same words.")
    if setting == "merges":
        number.number_input("Merges", min_value=0, max_value=MAX_COMPARED_MERGES, step=1, key=params["merges"].skey,
                            on_change=STEPPER.reset, help="How many merges each rule learns (the same for both).")
    else:
        number.number_input("Vocabulary size", min_value=1, max_value=5_000, step=1, key=params["vocab"].skey,
                            help=f"How many pieces Unigram keeps, its {len(META)} special pieces included. A small "
                            "corpus supports only a few beyond its characters.")
    preset = lessons.presets().get(preset_id)
    if not show.large:  # on a projector the screen is for the step itself
        st.caption(md_escape(f"{presets.preset_title(preset_id)}: {settings_summary(preset_id)}"
                             + (f". {preset.note}" if preset is not None and preset.note else "")))
    if preset is None:
        st.text_area("Your text", key=TEXT.skey, height=110, on_change=STEPPER.reset,
                     placeholder="chai chai chaiwala poha pohawala… any language, any script.",
                     help=f"Up to {MAX_OWN_CHARS:,} characters (the comparison recounts every pair at every step). "
                     f"Texts up to {TEXT_IN_LINK} characters go into the page's link.")
        corpus = st.session_state.get(TEXT.skey) or ""
        if not corpus.strip():
            st.info("Type or paste some text above to train on it: a few sentences with repeated words are enough.",
                    icon=":material/edit:")
            return None, preset_id, params
        if len(corpus) > MAX_OWN_CHARS:
            st.warning(f"This text is {len(corpus):,} characters long; this page uses the first {MAX_OWN_CHARS:,} "
                       "(the Train page takes more).", icon=":material/content_cut:")
            corpus = corpus[: MAX_OWN_CHARS]
        return corpus, preset_id, params
    return preset.corpus, preset_id, params
