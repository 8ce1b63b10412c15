"""Part 2, "Unigram": the pieces SentencePiece keeps, the most likely segmentations of a word, and segmentations
drawn at random (subword regularisation).
"""

from __future__ import annotations

import html
import math

import pandas as pd
import streamlit as st

import lessons
from family.unigram import META, UnigramError, minimum_vocab, train_unigram
from i18n import _, _n, decimal, number
from ui import state, tables
from ui.chips import CSS as CHIPS_CSS
from ui.chips import Chip, chips_html
from ui.display import callout_html, md_code, md_escape, readable_text, visible_token
from ui.language import per_language
from ui.layout import figure
from ui.show import Show

from .corpus import corpus_picker
from .settings import (
    AGAIN,
    ALPHA,
    ALPHAS,
    NBEST,
    PIECES,
    PRESET,
    SAMPLES,
    SEED,
    TEXT,
    USE_MINIMUM,
    said,
    word_example_key,
)


@st.cache_resource(max_entries=32, show_spinner=False)  # the call site shows a spinner in the learner's language
def unigram_model(corpus: str, vocab_size: int):
    """A Unigram model once per (corpus, size) for everyone (raises UnigramError, in words)."""
    return train_unigram(corpus, vocab_size)


@per_language(max_entries=256)
def pieces_frame(corpus: str, vocab_size: int) -> pd.DataFrame:
    """The pieces, most likely first, their kind in the current language (cached per model and language)."""
    ranked = unigram_model(corpus, vocab_size).by_score()
    character, longer = _("character"), _("longer")
    return pd.DataFrame({
        "piece": [visible_token(p.piece) for p in ranked],
        "score": [round(p.score, 3) for p in ranked],
        "probability": [p.probability for p in ranked],
        "kind": [character if p.kind == "character" else longer for p in ranked],
    })


@st.cache_data(max_entries=512, show_spinner=False)
def segmentations(corpus: str, vocab_size: int, text: str, alpha: float, seed: int):
    """(best, n-best list, samples) for a text: cached per model, text, alpha and seed, so a view repeats."""
    model = unigram_model(corpus, vocab_size)
    return model.encode(text), model.nbest(text, NBEST), model.sample(text, SAMPLES, alpha=alpha, seed=seed)


def segmentation_chips(seg) -> list[Chip]:
    """A Unigram segmentation as chips; a piece outside the vocabulary is drawn as unknown."""
    unknown = set(seg.unknown_at)
    return [Chip(p, None, known=i not in unknown) for i, p in enumerate(seg.pieces)]


def odds(score: float, best: float) -> str:
    """How likely a segmentation is next to the best one: ``1 in 166``."""
    ratio = math.exp(score - best)
    if ratio >= 0.995:
        return _("the best")
    if ratio < 0.5:
        return _("1 in {n}", n=number(round(1 / ratio)))
    return _("{percent}% as likely", percent=round(ratio * 100))



def part_unigram(show: Show) -> None:
    with show.folded(_("The corpus and the vocabulary size")):  # classroom mode: folded, the pieces are the slide
        corpus, preset_id, params = corpus_picker("vocab", show)
    with state.published([PRESET, TEXT, params["vocab"], params["word"], ALPHA, SEED]):
        _unigram(corpus, preset_id, params, show)


def _unigram(corpus: str | None, preset_id: str, params: dict[str, state.Param], show: Show) -> None:
    vocab_param, word_param = params["vocab"], params["word"]
    if not show.large:
        st.markdown(md_escape(said("unigram")))
    if corpus is None:
        return
    vocab = int(st.session_state[vocab_param.skey])
    try:
        with st.spinner(_("Training Unigram with SentencePiece…")):
            model = unigram_model(corpus, vocab)
    except UnigramError as exc:
        st.html(callout_html(str(exc), "warning"))
        least = minimum_vocab(corpus)
        if 0 < least <= 5_000 and vocab < least:
            st.button(_("Use {n}", n=number(least)), key=USE_MINIMUM.skey, on_click=state.set_value,
                      args=(vocab_param, least), icon=":material/build:")
        return
    ranked = model.by_score()
    longer = sum(1 for p in ranked if p.kind == "piece")
    cols = st.columns(4 if not show.large or show.classroom else 2)  # classroom mode: one row, wide screen
    cols[0].metric(_("Pieces asked for"), number(model.requested))
    cols[1].metric(_("Pieces kept"), number(model.vocab_size),
                   help=_("With its {n} special pieces ({pieces}), which have no score.", n=len(META),
                          pieces=", ".join(md_code(m) for m in META)))
    cols[2 % len(cols)].metric(_("Single characters"), number(len(ranked) - longer),
                               help=_("Every character stays, and ▁."))
    cols[3 % len(cols)].metric(_("Longer pieces"), number(longer))
    if model.vocab_size < model.requested and not show.classroom:
        st.caption(_n("This corpus supports {n} piece: Unigram can only keep candidate pieces that still earn their "
                      "place after pruning. A longer text supports more.",
                      "This corpus supports {n} pieces: Unigram can only keep candidate pieces that still earn their "
                      "place after pruning. A longer text supports more.", model.vocab_size))
    table, segs = figure("unigram-pieces").columns([2, 3] if not show.large else [1, 1], gap="large")
    with table:
        st.markdown(_("**The pieces, most likely first**"))
        tables.show(pieces_table := pieces_frame(corpus, vocab), hide_index=True, key=PIECES.skey,
                     height=min(420, 38 + 35 * len(pieces_table)),
                     column_config={
                         "piece": st.column_config.TextColumn(_("piece")),
                         "score": st.column_config.NumberColumn(_("score"), help=_(
                             "The log of the piece's probability: closer to 0 is more likely.")),
                         "probability": st.column_config.NumberColumn(_("probability"), format="percent",
                                                                      help=_("e to the power of the score.")),
                         "kind": st.column_config.TextColumn(_("kind"), help=_(
                             "One character (every one is kept), or longer.")),
                     })
        if not show.large:
            st.caption(md_escape(said("unigram_settings")))
    with segs:
        preset = lessons.presets().get(preset_id)
        st.text_input(_("Text to segment"), key=word_param.skey, max_chars=200,
                      help=_("A word or a short phrase. Characters the corpus never had stay as one unknown piece."))
        examples = preset.examples if preset else ()
        if examples:
            with st.container(horizontal=True, gap="small", vertical_alignment="center"):
                st.caption(_("Try:"), width="content")
                for i, example in enumerate(examples):
                    st.button(example, key=word_example_key(i), on_click=state.set_value, args=(word_param, example),
                              type="tertiary")
        text = (st.session_state.get(word_param.skey) or "").strip()
        if not text and preset is None:
            text = corpus.split()[0]
            st.caption(md_escape(_("Segmenting the first word of your text, “{word}”.", word=text)))
        if not text:
            st.info(_("Type a word or a short phrase to segment."), icon=":material/edit:")
            return
        alpha = st.session_state[ALPHA.skey]
        seed = int(st.session_state[SEED.skey])
        best, nbest, samples = segmentations(corpus, vocab, text, alpha, seed)
        st.markdown(_n("**The {n} most likely segmentation**, best first (what encoding gives is the first)",
                       "**The {n} most likely segmentations**, best first (what encoding gives is the first)",
                       len(nbest)))
        rows = []
        for i, seg in enumerate(nbest, start=1):
            said_score = html.escape(_("score {score}", score=decimal(seg.score, 2)) + " · "
                                     + odds(seg.score, nbest[0].score))
            tail = f'<span class="tl-count" style="white-space:nowrap">{said_score}</span>'
            rows.append(chips_html(segmentation_chips(seg), label=_("segmentation {i}", i=i), tail=tail))
        st.html(CHIPS_CSS + "".join(rows))
        if best.unknown:
            st.caption(_("White chips with a dotted border: characters the corpus never had, kept as one unknown "
                         "piece (<unk>)."))
    st.markdown(_("**Subword regularisation: segmentations drawn at random**"))
    if not show.large:
        st.caption(md_escape(said("regularisation")))
    c_alpha, c_seed, c_again = st.columns([3, 2, 2], vertical_alignment="bottom")
    c_alpha.select_slider(_("alpha (smaller: more adventurous)"), ALPHAS, key=ALPHA.skey)
    c_seed.number_input(_("Seed"), min_value=0, max_value=2**31 - 1, step=1, key=SEED.skey)
    c_again.button(_("Sample again"), key=AGAIN.skey, icon=":material/casino:",
                   on_click=lambda: state.set_value(SEED, int(st.session_state[SEED.skey]) + 1))
    best_pieces = nbest[0].pieces if nbest else ()
    rows = []
    for i, seg in enumerate(samples, start=1):
        note = _("the best split") if seg.pieces == best_pieces else _("score {score}", score=decimal(seg.score, 2))
        drawn = html.escape(_("draw {i}", i=i) + " · " + note)
        tail = f'<span class="tl-count" style="white-space:nowrap">{drawn}</span>'
        rows.append(chips_html(segmentation_chips(seg), label=_("draw {i}", i=i), tail=tail))
    st.html(CHIPS_CSS + "".join(rows))
    distinct = len({s.pieces for s in samples})
    st.caption(_("{different} in {draws} (alpha {alpha}, seed {seed}). Every one spells the same text: “{text}”.",
                 different=_n("{n} different segmentation", "{n} different segmentations", distinct),
                 draws=_n("{n} draw", "{n} draws", len(samples)), alpha=f"{alpha:g}", seed=seed,
                 text=readable_text(samples[0].text if samples else text)))
