"""The Estimate page, part 6: the premium over an English version of the same text: each model's tokens for your
text over its tokens for the English, split into its UTF-8 part and its tokenizer part, as on Real tokenizers."""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd
import streamlit as st

from analyses import estimate as est
from i18n import _, number
from ui import choices, state, tables
from ui import premium as pv

from . import settings as s
from .parts import Data, Target


def premium_section(targets: Sequence[Target], data: Data) -> None:
    if state.value(s.SOURCE) != "paste" or state.value(s.KIND) != "text":
        return
    with st.expander(_("The same text in English: what your language pays over it"), icon=":material/translate:",
                     key=s.ENGLISH_OPEN.skey):
        st.text_area(_("The English version"), key=s.ENGLISH.skey, height=100,
                     help=_("The same meaning in English: each model's tokens for your text ÷ its tokens for this."))
        english = (state.value(s.ENGLISH) or "").strip()
        if not english:
            st.caption(_("Paste the English version of your text to see the premium each model's tokenizer charges."))
            return
        text = data.records[0].text or ""
        if len(text) > s.PREMIUM_MAX_CHARS or len(english) > s.PREMIUM_MAX_CHARS:
            st.caption(_("The premium is measured on texts of up to {n} characters: compare a paragraph or two.",
                         n=number(s.PREMIUM_MAX_CHARS)))
            return
        rows = []
        for t in targets:
            try:
                m = pv.measured(t.tokenizer_key, english, text)
            except (ValueError, choices.Unavailable):
                continue
            rows.append({"model": t.label, "your text": m.other.tokens, "English": m.english.tokens,
                         "premium": est.premium(m.other.tokens, m.english.tokens) if m.english.tokens else None,
                         "UTF-8 part": m.utf8_part, "tokenizer part": m.tokenizer_part})
        shared = pv.columns()  # the premium kit's columns, labelled in the learner's language
        tables.show(pd.DataFrame(rows), hide_index=True, key=s.PREMIUM_TABLE.skey, placeholder="—", column_config={
            "model": st.column_config.TextColumn(_("model")),
            "your text": st.column_config.NumberColumn(_("your text")),
            "English": shared["English"],
            "premium": st.column_config.NumberColumn(_("premium"), format="%.2f×", help=_(
                "Your text's tokens ÷ the English tokens: what the same request costs over English.")),
            "UTF-8 part": shared["UTF-8 part"], "tokenizer part": shared["tokenizer part"]})
        st.caption(_("As on the Real tokenizers page: premium = UTF-8 part × tokenizer part."))


__all__ = ["premium_section"]
