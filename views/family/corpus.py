"""The corpus box, shared by "BPE vs WordPiece" and "Unigram": a preset or your own text, with the part's own
setting beside it.
"""

from __future__ import annotations

import streamlit as st

import lessons
from family.unigram import META
from i18n import _, number
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
    pick, box = st.columns([3, 2] if show.large else [3, 1.4], vertical_alignment="bottom")
    pick.selectbox(_("Corpus"), presets.preset_ids(), key=PRESET.skey,
                   format_func=presets.preset_titles().__getitem__,  # this run's language
                   on_change=apply_preset,
                   help=_("The lab's presets (the Train page's worked examples and the English + Hindi news), or "
                          "your own text. Both rules and Unigram train on the same words."))
    if setting == "merges":
        box.number_input(_("Merges"), min_value=0, max_value=MAX_COMPARED_MERGES, step=1, key=params["merges"].skey,
                         on_change=STEPPER.reset, help=_("How many merges each rule learns (the same for both)."))
    else:
        box.number_input(_("Vocabulary size"), min_value=1, max_value=5_000, step=1, key=params["vocab"].skey,
                         help=_("How many pieces Unigram keeps, its {n} special pieces included. A small corpus "
                                "supports only a few beyond its characters.", n=len(META)))
    preset = lessons.presets().get(preset_id)
    if not show.large:  # on a projector the screen is for the step itself
        st.caption(md_escape(f"{presets.preset_title(preset_id)}: {settings_summary(preset_id)}"
                             + (f". {preset.shown('note')}" if preset is not None and preset.note else "")))
    if preset is None:
        st.text_area(_("Your text"), key=TEXT.skey, height=110, on_change=STEPPER.reset,
                     placeholder=_("chai chai chaiwala poha pohawala… any language, any script."),
                     help=_("Up to {max} characters (the comparison recounts every pair at every step). Texts up "
                            "to {link} characters go into the page's link.", max=number(MAX_OWN_CHARS),
                            link=number(TEXT_IN_LINK)))
        corpus = st.session_state.get(TEXT.skey) or ""
        if not corpus.strip():
            st.info(_("Type or paste some text above to train on it: a few sentences with repeated words are "
                      "enough."), icon=":material/edit:")
            return None, preset_id, params
        if len(corpus) > MAX_OWN_CHARS:
            st.warning(_("This text is {n} characters long; this page uses the first {max} (the Train page takes "
                         "more).", n=number(len(corpus)), max=number(MAX_OWN_CHARS)), icon=":material/content_cut:")
            corpus = corpus[: MAX_OWN_CHARS]
        return corpus, preset_id, params
    return preset.corpus, preset_id, params
