"""What the "Real tokenizers" page draws: one sentence pair, counted by production tokenizers side by side.

The premium table and chart are the kit's (:mod:`ui.premium`, shared with Beyond Hindi); this module
declares the page's keys once and holds its sections, which the page composes.
"""

from __future__ import annotations

from collections.abc import Sequence

import streamlit as st

import i18n
import lessons
from i18n import _, _n, decimal
from tokenizer import TextTokenizer
from ui import charts, choices, state, tables
from ui import premium as pv
from ui.chips import chip_from_token, token_chips
from ui.display import md_escape
from ui.layout import classroom_on, figure
from ui.treeview import tree_picker

PAGE = "real"
MAX_CHARS = 5_000
PAIR = lessons.data("lesson4_english_hindi")
ENGLISH = state.Param(PAGE, "en", PAIR["test_en"], max_len=600)
HINDI = state.Param(PAGE, "hi", PAIR["test_hi"], max_len=600)
PARAMS = [ENGLISH, HINDI]
RESET = state.Key(PAGE, "reset")
CHART = state.Key(PAGE, "chart")
TABLE = state.Key(PAGE, "table")
TOKENS_OPEN = state.Key(PAGE, "tokens_open")
ABOUT_OPEN = state.Key(PAGE, "about_open")
TREE_OPEN = state.Key(PAGE, "tree_open")
TREE_TOK = state.Key(PAGE, "tree_tok")
TREE_ID = state.Key(PAGE, "tree_id")


def intro() -> None:
    st.markdown(_(
        "Count with the tokenizer of the model you deploy: the same text gives different counts on different "
        "tokenizers. Here each one reads the same sentence in English and in Hindi. Its **Hindi premium** is how many "
        "times as many tokens the Hindi takes, and it splits into two parts: what **UTF-8** charges (Devanagari takes "
        "3 bytes a letter) and what the **tokenizer** adds or takes back (how many of its merges went to Hindi)."
    ))


def _reset_pair() -> None:
    state.set_value(ENGLISH, PAIR["test_en"])
    state.set_value(HINDI, PAIR["test_hi"])


def pair_section() -> tuple[str, str] | None:
    """The two text boxes; returns the pair to measure, or None (after saying what to type)."""
    en_col, hi_col = st.columns(2)
    en_col.text_area(_("English"), key=ENGLISH.skey, height=90)
    hi_col.text_area(_("हिन्दी (Hindi)"), key=HINDI.skey, height=90)
    st.button(_("Back to the news sentence"), key=RESET.skey, on_click=_reset_pair, type="tertiary",
              icon=":material/restart_alt:")
    english = (state.value(ENGLISH) or "")[:MAX_CHARS]
    hindi = (state.value(HINDI) or "")[:MAX_CHARS]
    if not english.strip() or not hindi.strip():
        st.info(_("Type a sentence in both boxes (the same meaning in English and in Hindi)."), icon=":material/edit:")
        return None
    if state.too_long(PARAMS):
        st.caption(_("These texts are too long for the page's link; the link keeps the rest of the page."))
    return english, hindi


def pick_section() -> list[tuple[str, TextTokenizer]]:
    """The tokenizers to measure (every real one to start with); [] after saying to pick one."""
    real = [e.key for e in choices.real_entries(featured=True)]
    chosen = choices.pick_many(PAGE, default=real or ["english-hindi", "english-hindi-fair"],
                               label=_("Tokenizers to measure"))
    if not chosen:
        st.info(_("Pick at least one tokenizer."), icon=":material/list:")
    return chosen


def premium_section(chosen: Sequence[tuple[str, TextTokenizer]], english: str, hindi: str, large: bool) -> bool:
    """The premium chart and table; False (after saying why) when a tokenizer cannot read the text."""
    try:
        data = pv.rows([key for key, _tok in chosen], english, hindi)
    except ValueError as exc:
        st.warning(_("A tokenizer could not read this text: {reason}", reason=md_escape(str(exc))),
                   icon=":material/error:")
        return False
    # Classroom mode: the chart sized to the projector's screen, without the published figures (the caption says
    # them, in words), so that each bar keeps room for its 20-px label; the table is under it.
    slide = classroom_on()
    with figure("premium-chart"):
        st.subheader(_("The Hindi premium, and its two parts"))
        charts.draw(pv.chart_spec(tuple(data), large, show_published=not slide,
                                  height=pv.slide_height(len(data) * len(pv.PARTS)) if slide else None,
                                  lang=i18n.current()), key=CHART.skey)
    src = lessons.data("published_premiums")
    published = "; ".join(f"{pv.shown(r.name)} {decimal(p['premium'])}×" for r in data for p in pv.published()
                          if p["matches"] == r.key)
    source = md_escape(src["source"])
    st.caption(
        _("Orange: Hindi tokens ÷ English tokens. Blue: the UTF-8 part, Hindi bytes ÷ English bytes. Green: the "
          "tokenizer part, Hindi tokens per byte ÷ English tokens per byte (below 1: the tokenizer gives Hindi bigger "
          "pieces than bytes). On this log scale the two parts add up to the premium.") + " "
        + (_("Published over many parallel sentences ({source}): {figures}; one sentence pair will not match it "
             "exactly.", source=source, figures=md_escape(published)) if slide and published else
           _("Grey, dashed: the premium published for that tokenizer over many parallel sentences ({source}); one "
             "sentence pair will not match it exactly.", source=source))
    )
    tables.show(pv.table(data), hide_index=True, key=TABLE.skey, column_config=pv.columns())
    return True


def tokens_section(chosen: Sequence[tuple[str, TextTokenizer]], english: str, hindi: str) -> None:
    """Every tokenizer's tokens of both texts, in a box filled only when opened; then any token's merge tree."""
    with st.expander(_("See the tokens"), key=TOKENS_OPEN.skey, on_change="rerun", icon=":material/view_week:") as box:
        if box.open:
            for key, tok in chosen:
                for lang, text in ((_("English"), english), (_("Hindi"), hindi)):
                    enc = choices.encoded(key, text, 600)  # cached: the table's counts encoded it already
                    st.markdown(f"**{md_escape(tok.name)}**, {lang}: "
                                + _n("{n} token", "{n} tokens", enc.measure.tokens))
                    token_chips([chip_from_token(t) for t in enc.tokens], label=f"{tok.name}, {lang}",
                                mark_pieces=True)
    with st.expander(_("Where does a token come from? Its merges, down to its bytes"), key=TREE_OPEN.skey,
                     on_change="rerun", icon=":material/account_tree:") as box:
        if box.open:
            tree_picker([(key, tok, choices.encoded(key, hindi, 600).tokens + choices.encoded(key, english, 600).tokens)
                         for key, tok in chosen], tok_key=TREE_TOK.skey, id_key=TREE_ID.skey,
                        counts=choices.trace_counts)


def about_section(chosen: Sequence[tuple[str, TextTokenizer]]) -> None:
    choices.about_box(chosen, key=ABOUT_OPEN.skey, note=choices.OFFLINE_NOTE)
