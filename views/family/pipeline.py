"""Part 3, "The pipeline": a real tokenizer's four stages (normalise, pre-split, model, ids) on one text.
"""

from __future__ import annotations

import streamlit as st

import lessons
from family import real
from family.pipeline import stages
from family.real import TokenizerUnavailable
from i18n import _, _n, localized, number
from ui import choices, state
from ui.chips import CSS as CHIPS_CSS
from ui.chips import Chip, chip_from_token, chips_html
from ui.display import callout_html, is_mark, md_code, md_escape, readable_text
from ui.layout import figure
from ui.show import Show

from .settings import (
    ABOUT_OPEN,
    MAX_PIPELINE_CHARS,
    MAX_PIPELINE_TOKENS,
    PAGE,
    PIPELINE_TOKENIZERS,
    PTEXT,
    SLIDE_IDS,
    ptext_example_key,
    said,
)


@st.cache_data(max_entries=128, show_spinner=False)
def pipeline(key: str, text: str):
    """A real tokenizer's stages on a text (cached per tokenizer and text)."""
    return stages(real.load(key), text, limit=MAX_PIPELINE_TOKENS)


def code_points(text: str) -> str:
    return " ".join(f"U+{ord(ch):04X}" for ch in text)

def _use_text(text: str) -> None:
    state.set_value(PTEXT, text)


def part_pipeline(show: Show) -> None:
    with state.published([PTEXT]):
        _pipeline(show)


def _pipeline(show: Show) -> None:
    if not show.large:
        st.markdown(md_escape(said("pipeline")))
    real_keys = [e.key for e in choices.real_entries()]
    default = next((k for k in PIPELINE_TOKENIZERS if k in real_keys), None)
    if default is None:
        st.warning(_("No production tokenizer is installed here, so there is no real pipeline to show."))
        return
    with show.folded(_("The tokenizer and the text")):  # classroom mode: folded, the four stages are the slide
        key, tok = choices.pick_one(PAGE, default=default, kinds=("real",), label=_("Real tokenizer"),
                                       upload=False)
        st.text_area(_("Text"), key=PTEXT.skey, height=90,
                     help=_("Any text; the first {n} characters are run through the stages.",
                            n=number(MAX_PIPELINE_CHARS)))
        with st.container(horizontal=True, gap="small", vertical_alignment="center"):
            st.caption(_("Try:"), width="content")
            for i, example in enumerate(lessons.examples("family")):
                st.button(localized(example)["label"], key=ptext_example_key(i), on_click=_use_text, args=(example["text"],),
                          type="tertiary")
    if tok is None:
        return
    text = st.session_state.get(PTEXT.skey) or ""
    if not text.strip():
        st.info(_("Type some text above, or pick an example."), icon=":material/edit:")
        return
    if state.too_long([PTEXT]):
        st.caption(_("This text is too long for the page's link; the link keeps the tokenizer."))
    if len(text) > MAX_PIPELINE_CHARS:
        st.warning(_("The stages are shown for the first {n} characters.", n=number(MAX_PIPELINE_CHARS)),
                   icon=":material/content_cut:")
        text = text[: MAX_PIPELINE_CHARS]
    try:
        s = pipeline(key, text)
    except (TokenizerUnavailable, ValueError) as exc:
        st.warning(md_escape(str(exc)), icon=":material/error:")
        return

    # Classroom mode: the four stages on one projector screen, two a column, the chips a little tighter; what each
    # stage's marks mean and the tokens as the vocabulary writes them one click away, under it.
    slide = show.classroom
    box = figure("pipeline-stages")
    first, second = box.columns(2, gap="large") if slide else (box, box)

    def chips(items: list, **kwargs) -> None:
        row = chips_html(items, **kwargs)
        st.html(CHIPS_CSS + (f'<div class="tl-compact">{row}</div>' if slide else row))

    with first:
        st.markdown("#### " + _("1 · Normalise"))
        if not slide:
            st.caption(md_escape(said("normalisers", key)))
        st.html(callout_html(readable_text(s.normalized)))
        if s.changes:
            st.markdown(_("Changed:") + " " + "; ".join(
                f"{md_code(before, visible=False)} ({code_points(before)}) → {md_code(after, visible=False)} "
                f"({code_points(after)})" for before, after in s.changes[:8]))
        elif s.normalized == text and not slide:
            st.caption(_("Nothing changed for this text."))

        st.markdown("#### " + _("2 · Pre-split"))
        if s.pieces is None:
            st.caption(md_escape(said("presplit_none")))
        else:
            shown = s.pieces[: MAX_PIPELINE_TOKENS]
            chips([Chip(p, None, piece=i) for i, p in enumerate(shown)], label=_("pieces"), colour_by="position")
            st.caption(_n("{n} piece, cut by the tokenizer's own regular expression; a merge never crosses two pieces.",
                          "{n} pieces, cut by the tokenizer's own regular expression; a merge never crosses two "
                          "pieces.", len(s.pieces))
                       + (" " + _("The first ones are shown.") if len(s.pieces) > len(shown) else ""))
            marked = sum(1 for piece in s.pieces if is_mark(piece[0]))
            if marked and not slide:
                pieces = _n("{n} piece", "{n} pieces", marked)
                st.caption(md_escape(said("presplit_marks").format(pieces=pieces[:1].upper() + pieces[1:])))

    with second:
        st.markdown("#### " + _("3 · Model: the subword model makes tokens"))
        chips([chip_from_token(t) for t in s.tokens], label=_("tokens"), mark_pieces=True)
        written = [Chip(raw, t.id, whole=True, piece=t.piece) for raw, t in zip(s.raw, s.tokens)]
        if not slide:
            st.caption(md_escape(said("markers")))
            chips(written, label=_("tokens as the vocabulary writes them"), mark_pieces=True, runs=False)

    with first if slide else second:  # classroom mode: under the pre-split, beside the tokens (the longer column)
        st.markdown("#### " + _("4 · Ids: {tokens}", tokens=_n("{n} token", "{n} tokens", s.count)))
        ids = s.ids[:SLIDE_IDS] if slide else s.ids  # classroom mode: the first ones, every one under the figure
        st.code(", ".join(str(i) for i in ids) + (" …" if s.count > len(ids) else ""), language=None, wrap_lines=True)
        if not slide:
            st.caption(md_escape(said("ids")))
    if slide:
        with st.expander(_("How its vocabulary writes the tokens (Ġ, ▁), and what the stages mean"),
                         icon=":material/menu_book:"):
            st.caption(md_escape(said("normalisers", key)))
            st.caption(md_escape(said("markers")))
            chips(written, label=_("tokens as the vocabulary writes them"), mark_pieces=True, runs=False)
            st.caption(md_escape(said("ids")))
            st.code(", ".join(str(i) for i in s.ids) + (" …" if s.count > len(s.ids) else ""), language=None,
                    wrap_lines=True)
    choices.about_box([(key, tok)], key=ABOUT_OPEN.skey, note=choices.OFFLINE_NOTE)
