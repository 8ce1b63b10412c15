"""The family: BPE beside WordPiece merge by merge, Unigram's pieces and sampled splits, a real tokenizer's
pipeline stage by stage, and the special tokens of a chat template (curriculum lesson 8).

Read the widgets -> the engine (family.wordpiece, family.unigram, family.pipeline, family.chat)
through views.family's caches -> draw with the shared helpers. One part of the lesson is drawn at a time;
the merge steps are a fragment, so Next reruns only them.
"""

from contextlib import nullcontext

import streamlit as st

from ui.layout import classroom_on, figure, large_type_on, page_setup

page_setup("The family")

import lessons  # noqa: E402
from tokenizer import is_whole  # noqa: E402
from ui import charts, presets, state, tables, viewport  # noqa: E402
from ui import choices  # noqa: E402
from views import family as fv  # noqa: E402
from ui.chips import CSS, Chip, chip_from_token, chips_html, token_chips  # noqa: E402
from ui.display import callout_html, is_mark, md_code, md_escape, plural, readable_text  # noqa: E402
from ui.links import lesson_link  # noqa: E402
from ui.steps import Stepper  # noqa: E402

LARGE = large_type_on()
TEXTS = fv.CONTENT
STEPPER = Stepper(fv.STEP)

if not LARGE:
    st.caption(md_escape(TEXTS["intro"]))
    st.caption(md_escape(TEXTS["history"]))
lesson_link(8)

state.restore([fv.PART, fv.PRESET])
part = st.segmented_control("Part", fv.PARTS, key=fv.PART.skey, required=True, format_func=fv.PART_NAMES.get,
                            label_visibility="collapsed")
state.publish([fv.PART])


# --- the corpus (BPE vs WordPiece, and Unigram) --------------------------------------------------
def corpus_picker(setting: str) -> tuple[str | None, str, dict[str, state.Param]]:
    """The corpus box with the part's own setting beside it (``"merges"`` or ``"vocab"``), and your own
    text; returns (corpus or None, preset id, the corpus's params)."""
    preset_id = st.session_state[fv.PRESET.skey]
    params = fv.corpus_params(preset_id)
    state.restore([fv.TEXT, *params.values()])
    pick, number = st.columns([3, 2] if LARGE else [3, 1.4], vertical_alignment="bottom")
    pick.selectbox("Corpus", presets.preset_ids(), key=fv.PRESET.skey, format_func=presets.preset_title,
                   on_change=fv.apply_preset,
                   help="The lab's presets (the Train page's worked examples and the English + Hindi news), or your "
                   "own text. Both rules and Unigram train on the same words.")
    if setting == "merges":
        number.number_input("Merges", min_value=0, max_value=fv.MAX_MERGES, step=1, key=params["merges"].skey,
                            on_change=STEPPER.reset, help="How many merges each rule learns (the same for both).")
    else:
        number.number_input("Vocabulary size", min_value=1, max_value=5_000, step=1, key=params["vocab"].skey,
                            help=f"How many pieces Unigram keeps, its {len(fv.META)} special pieces included. A small "
                            "corpus supports only a few beyond its characters.")
    preset = lessons.presets().get(preset_id)
    if not LARGE:  # on a projector the screen is for the step itself
        st.caption(md_escape(f"{presets.preset_title(preset_id)}: {fv.settings_summary(preset_id)}"
                             + (f". {preset.note}" if preset is not None and preset.note else "")))
    if preset is None:
        st.text_area("Your text", key=fv.TEXT.skey, height=110, on_change=STEPPER.reset,
                     placeholder="chai chai chaiwala poha pohawala… any language, any script.",
                     help=f"Up to {fv.MAX_OWN_CHARS:,} characters (the comparison recounts every pair at every step). "
                     f"Texts up to {fv.TEXT_IN_LINK} characters go into the page's link.")
        corpus = st.session_state.get(fv.TEXT.skey) or ""
        if not corpus.strip():
            st.info("Type or paste some text above to train on it: a few sentences with repeated words are enough.",
                    icon=":material/edit:")
            return None, preset_id, params
        if len(corpus) > fv.MAX_OWN_CHARS:
            st.warning(f"This text is {len(corpus):,} characters long; this page uses the first {fv.MAX_OWN_CHARS:,} "
                       "(the Train page takes more).", icon=":material/content_cut:")
            corpus = corpus[: fv.MAX_OWN_CHARS]
        return corpus, preset_id, params
    return preset.corpus, preset_id, params


# --- Part 1: BPE vs WordPiece --------------------------------------------------------------------
def draw_rule(trace, k: int, key: str) -> None:
    """One rule's column at step k: its merge, its chart, why."""
    name = trace.name
    st.markdown(f"**{name}**: " + ("the most frequent pair" if trace.rule == "count" else "the highest score"))
    step = fv.state_step(trace, k)
    if step is None:
        st.info(f"{name} has stopped: every word is a single token, so no pair is left to merge.")
        return
    if k:
        st.html(fv.merge_line(trace, k))
    rows = fv.pair_rows(step, trace.rule, reveal=k > 0, limit=fv.LARGE_TOP_PAIRS if LARGE else fv.TOP_PAIRS)
    charts.draw(fv.chart_spec(fv.rows_key(rows), trace.rule, LARGE), key=f"{fv.PAGE}.chart.{trace.rule}")
    shown = min(len(rows), fv.LARGE_TOP_PAIRS if LARGE else fv.TOP_PAIRS)
    if not LARGE:
        st.caption(f"The top {shown} of {plural(step.n_pairs, 'distinct pair')} before merge {max(k, 1)}"
                   + (", and the other rule's pick." if len(rows) > shown else "."))
    if k:
        st.html(callout_html(fv.why(key, trace.rule, trace, k)))


def draw_steps(bpe, wp, key: str) -> None:
    n = max(len(bpe.steps), len(wp.steps))
    # The heading, Next, then each rule's merge, chart and why: one laptop screen. The slider comes after the charts.
    with st.container(key=viewport.action("family")):
        heading = st.empty()  # filled once the stepper has said which step (an autoplay tick moves it on)
        k = STEPPER.draw(n)
        heading.markdown(f"#### {f'Merge {k} of {n}' if k else f'Before merge 1 of {n}'}")
    state.publish([fv.STEP])
    with st.container(key=viewport.result("family")):
        if k == 0:
            st.markdown("**Before any merge** both rules see the same corpus and the same pairs; the charts show each "
                        "rule's top pairs. Press **Next**: which pair does each merge first?")
        left, right = figure("merge-rules").columns(2, gap="large")
        with left:
            draw_rule(bpe, k, key)
        with right:
            draw_rule(wp, k, key)
    if not LARGE:
        st.slider("Merge (0 = before any)", min_value=0, max_value=n, key=fv.STEP.skey)
    words = fv.LARGE_TOP_WORDS if LARGE else fv.TOP_WORDS
    title = f"The corpus after merge {k}" if k else "The corpus before any merge"
    heading, toggle = st.columns([3, 2], vertical_alignment="center")
    heading.markdown(f"**{title}**, cut by each rule's merges")
    hashes = toggle.toggle("WordPiece with ##", key=fv.HASHES.skey,
                           help="Write WordPiece's tokens as a WordPiece vocabulary does: ## on every piece after a "
                           "word's first (see “## and the real WordPiece” below).")
    state.publish([fv.HASHES])
    c_bpe, c_wp = st.columns(2, gap="large")
    for column, trace in ((c_bpe, bpe), (c_wp, wp)):
        with column:
            st.html(fv.corpus_html(key, trace.rule, trace, k, words, hashes and trace.rule == "score"))
            st.caption(f"{trace.name}: the whole corpus is {plural(fv.corpus_tokens(key, trace.rule, trace, k), 'token')}"
                       + (f" (the {words} most frequent of {plural(len(trace.words), 'distinct word')} shown)."
                          if len(trace.words) > words else "."))
    if k:
        st.markdown("**Both merge sequences so far**")
        tables.show(fv.sequences_frame(bpe, wp, k), hide_index=True, key=f"{fv.PAGE}.sequences",
                     column_config={"score": st.column_config.TextColumn(help="WordPiece's score of its pick.")})
    with st.expander("The numbers behind the charts: count(a b), count(a), count(b) and the score",
                     key=f"{fv.PAGE}.numbers_open", on_change="rerun", icon=":material/calculate:") as box:
        if box.open:
            for trace in (bpe, wp):
                step = fv.state_step(trace, k)
                if step is None:
                    continue
                st.markdown(f"**{trace.name}'s corpus before merge {max(k, 1)}**")
                rows = fv.pair_rows(step, trace.rule, reveal=k > 0, limit=fv.TOP_PAIRS)
                tables.show(fv.numbers_frame(rows), hide_index=True, key=f"{fv.PAGE}.numbers.{trace.rule}",
                             column_config={"score": st.column_config.NumberColumn(format="%.4f")})


def part_merges() -> None:
    corpus, preset_id, params = corpus_picker("merges")
    merges_param = params["merges"]
    state.restore([fv.STEP, fv.HASHES])
    state.publish([fv.PRESET, fv.TEXT, merges_param])
    if not LARGE:  # on a projector the charts' axes carry the two formulas
        st.markdown(f"- {md_escape(TEXTS['rules']['count'])}\n- {md_escape(TEXTS['rules']['score'])}")
        st.caption(md_escape(TEXTS["rules"]["why"] + " " + TEXTS["ties"]))
    if corpus is None:
        return
    merges = int(st.session_state[merges_param.skey])
    try:
        bpe, wp = fv.traces(corpus, merges, preset_id)
    except ValueError as exc:
        st.html(callout_html(f"Cannot train on this text: {exc}", "warning"))
        return
    if merges == 0 or not (bpe.steps or wp.steps):
        st.info("0 merges: set **Merges** above 0 to watch both rules learn." if merges == 0 else
                "Every word is a single symbol already: there is no pair to merge.")
        return
    key = fv.run_key(corpus, merges, preset_id)
    st.fragment(draw_steps, run_every=STEPPER.run_every())(bpe, wp, key)
    with st.expander("## and the real WordPiece", icon=":material/tag:"):
        st.markdown(md_escape(TEXTS["continuation"]))
        st.caption(md_escape(TEXTS["hf_note"]))


# --- Part 2: Unigram ------------------------------------------------------------------------------
def part_unigram() -> None:
    from family.unigram import UnigramError, minimum_vocab

    corpus, preset_id, params = corpus_picker("vocab")
    vocab_param, word_param = params["vocab"], params["word"]
    state.restore([fv.ALPHA, fv.SEED])
    state.publish([fv.PRESET, fv.TEXT, vocab_param])
    if not LARGE:
        st.markdown(md_escape(TEXTS["unigram"]))
    if corpus is None:
        state.publish([word_param, fv.ALPHA, fv.SEED])
        return
    vocab = int(st.session_state[vocab_param.skey])
    try:
        model = fv.unigram_model(corpus, vocab)
    except UnigramError as exc:
        st.html(callout_html(str(exc), "warning"))
        least = minimum_vocab(corpus)
        if 0 < least <= 5_000 and vocab < least:
            st.button(f"Use {least:,}", key=f"{fv.PAGE}.use_minimum", on_click=state.set_value,
                      args=(vocab_param, least), icon=":material/build:")
        state.publish([word_param, fv.ALPHA, fv.SEED])
        return
    ranked = model.by_score()
    longer = sum(1 for p in ranked if p.kind == "piece")
    cols = st.columns(4 if not LARGE else 2)
    cols[0].metric("Pieces asked for", f"{model.requested:,}")
    cols[1].metric("Pieces kept", f"{model.vocab_size:,}",
                   help=f"With its {len(fv.META)} special pieces ({', '.join(md_code(m) for m in fv.META)}), which "
                   "have no score.")
    cols[2 % len(cols)].metric("Single characters", f"{len(ranked) - longer:,}", help="Every character stays, and ▁.")
    cols[3 % len(cols)].metric("Longer pieces", f"{longer:,}")
    if model.vocab_size < model.requested:
        st.caption(f"This corpus supports {plural(model.vocab_size, 'piece')}: Unigram can only keep candidate pieces "
                   "that still earn their place after pruning. A longer text supports more.")
    table, segs = figure("unigram-pieces").columns([2, 3] if not LARGE else [1, 1], gap="large")
    with table:
        st.markdown("**The pieces, most likely first**")
        tables.show(pieces_table := fv.pieces_frame(corpus, vocab), hide_index=True, key=f"{fv.PAGE}.pieces",
                     height=min(420, 38 + 35 * len(pieces_table)),
                     column_config={
                         "score": st.column_config.NumberColumn(help="The log of the piece's probability: closer to "
                                                                "0 is more likely."),
                         "probability": st.column_config.NumberColumn(format="percent",
                                                                      help="e to the power of the score."),
                         "kind": st.column_config.TextColumn(help="One character (every one is kept), or longer."),
                     })
        if not LARGE:
            st.caption(md_escape(TEXTS["unigram_settings"]))
    with segs:
        preset = lessons.presets().get(preset_id)
        st.text_input("Text to segment", key=word_param.skey, max_chars=200,
                      help="A word or a short phrase. Characters the corpus never had stay as one unknown piece.")
        examples = preset.examples if preset else ()
        if examples:
            with st.container(horizontal=True, gap="small", vertical_alignment="center"):
                st.caption("Try:", width="content")
                for i, example in enumerate(examples):
                    st.button(example, key=f"{fv.PAGE}.word.{i}", on_click=state.set_value, args=(word_param, example),
                              type="tertiary")
        text = (st.session_state.get(word_param.skey) or "").strip()
        if not text and preset is None:
            text = corpus.split()[0]
            st.caption(md_escape(f"Segmenting the first word of your text, “{text}”."))
        if not text:
            st.info("Type a word or a short phrase to segment.", icon=":material/edit:")
            state.publish([word_param, fv.ALPHA, fv.SEED])
            return
        alpha = st.session_state[fv.ALPHA.skey]
        seed = int(st.session_state[fv.SEED.skey])
        best, nbest, samples = fv.segmentations(corpus, vocab, text, alpha, seed)
        st.markdown(f"**The {plural(len(nbest), 'most likely segmentation')}**, best first (what encoding gives is the "
                    "first)")
        rows = []
        for i, seg in enumerate(nbest, start=1):
            tail = (f'<span class="tl-count" style="white-space:nowrap">score {seg.score:.2f} · '
                    f'{fv.odds(seg.score, nbest[0].score)}</span>')
            rows.append(chips_html(fv.segmentation_chips(seg), label=f"segmentation {i}", tail=tail))
        st.html(CSS + "".join(rows))
        if best.unknown:
            st.caption("White chips with a dotted border: characters the corpus never had, kept as one unknown piece "
                       "(<unk>).")
    st.markdown("**Subword regularisation: segmentations drawn at random**")
    if not LARGE:
        st.caption(md_escape(TEXTS["regularisation"]))
    c_alpha, c_seed, c_again = st.columns([3, 2, 2], vertical_alignment="bottom")
    c_alpha.select_slider("alpha (smaller: more adventurous)", fv.ALPHAS, key=fv.ALPHA.skey)
    c_seed.number_input("Seed", min_value=0, max_value=2**31 - 1, step=1, key=fv.SEED.skey)
    c_again.button("Sample again", key=f"{fv.PAGE}.again", icon=":material/casino:",
                   on_click=lambda: state.set_value(fv.SEED, int(st.session_state[fv.SEED.skey]) + 1))
    state.publish([word_param, fv.ALPHA, fv.SEED])
    best_pieces = nbest[0].pieces if nbest else ()
    rows = []
    for i, seg in enumerate(samples, start=1):
        note = "the best split" if seg.pieces == best_pieces else f"score {seg.score:.2f}"
        tail = f'<span class="tl-count" style="white-space:nowrap">draw {i} · {note}</span>'
        rows.append(chips_html(fv.segmentation_chips(seg), label=f"draw {i}", tail=tail))
    st.html(CSS + "".join(rows))
    distinct = len({s.pieces for s in samples})
    st.caption(f"{plural(distinct, 'different segmentation')} in {plural(len(samples), 'draw')} (alpha {alpha:g}, "
               f"seed {seed}). Every one spells the same text: “{readable_text(samples[0].text if samples else text)}”.")


# --- Part 3: the pipeline -------------------------------------------------------------------------
def _use_text(text: str) -> None:
    state.set_value(fv.PTEXT, text)


def part_pipeline() -> None:
    from family.real import TokenizerUnavailable

    if not LARGE:
        st.markdown(md_escape(TEXTS["pipeline"]))
    state.restore([fv.PTEXT])
    real_keys = [e.key for e in choices.real_entries()]
    default = next((k for k in fv.PIPELINE_TOKENIZERS if k in real_keys), None)
    if default is None:
        st.warning("No production tokenizer is installed here, so there is no real pipeline to show.")
        state.publish([fv.PTEXT])
        return
    key, tok = choices.pick_one(fv.PAGE, default=default, kinds=("real",), label="Real tokenizer", upload=False)
    st.text_area("Text", key=fv.PTEXT.skey, height=90,
                 help=f"Any text; the first {fv.MAX_PIPELINE_CHARS:,} characters are run through the stages.")
    with st.container(horizontal=True, gap="small", vertical_alignment="center"):
        st.caption("Try:", width="content")
        for i, example in enumerate(lessons.examples("family")):
            st.button(example["label"], key=f"{fv.PAGE}.ptext.{i}", on_click=_use_text, args=(example["text"],),
                      type="tertiary")
    too_long = state.publish([fv.PTEXT])
    if tok is None:
        return
    text = st.session_state.get(fv.PTEXT.skey) or ""
    if not text.strip():
        st.info("Type some text above, or pick an example.", icon=":material/edit:")
        return
    if "ptext" in too_long:
        st.caption("This text is too long for the page's link; the link keeps the tokenizer.")
    if len(text) > fv.MAX_PIPELINE_CHARS:
        st.warning(f"The stages are shown for the first {fv.MAX_PIPELINE_CHARS:,} characters.",
                   icon=":material/content_cut:")
        text = text[: fv.MAX_PIPELINE_CHARS]
    try:
        s = fv.pipeline(key, text)
    except (TokenizerUnavailable, ValueError) as exc:
        st.warning(md_escape(str(exc)), icon=":material/error:")
        return

    with figure("pipeline-stages"):  # the four stages, from the first
        st.markdown("#### 1 · Normalise")
        st.caption(md_escape(TEXTS["normalisers"].get(key, "")))
        st.html(callout_html(readable_text(s.normalized)))
        if s.changes:
            st.markdown("Changed: " + "; ".join(
                f"{md_code(before, visible=False)} ({fv.code_points(before)}) → {md_code(after, visible=False)} "
                f"({fv.code_points(after)})" for before, after in s.changes[:8]))
        elif s.normalized == text:
            st.caption("Nothing changed for this text.")

        st.markdown("#### 2 · Pre-split")
        if s.pieces is None:
            st.caption(md_escape(TEXTS["presplit_none"]))
        else:
            shown = s.pieces[: fv.MAX_PIPELINE_TOKENS]
            token_chips([Chip(p, None, piece=i) for i, p in enumerate(shown)], label="pieces",
                        colour_by="position")
            st.caption(f"{plural(len(s.pieces), 'piece')}, cut by the tokenizer's own regular expression; a merge never "
                       "crosses two pieces." + (" The first ones are shown." if len(s.pieces) > len(shown) else ""))
            marked = sum(1 for piece in s.pieces if is_mark(piece[0]))
            if marked:
                st.caption(md_escape(TEXTS["presplit_marks"].format(pieces=plural(marked, "piece").capitalize())))

        st.markdown("#### 3 · Model: the subword model makes tokens")
        token_chips([chip_from_token(t) for t in s.tokens], label="tokens", mark_pieces=True)
        st.caption(md_escape(TEXTS["markers"]))
        token_chips([Chip(raw, t.id, whole=True, piece=t.piece) for raw, t in zip(s.raw, s.tokens)],
                    label="tokens as the vocabulary writes them", mark_pieces=True, runs=False)

        st.markdown(f"#### 4 · Ids: {plural(s.count, 'token')}")
        st.code(", ".join(str(i) for i in s.ids) + (" …" if s.count > len(s.ids) else ""), language=None, wrap_lines=True)
        st.caption(md_escape(TEXTS["ids"]))
    choices.about_box([(key, tok)], key=f"{fv.PAGE}.about_open", note=choices.OFFLINE_NOTE)


    # --- Part 4: special tokens -----------------------------------------------------------------------


def _reset_chat() -> None:
    for param in fv.MESSAGES:
        state.set_value(param, param.default)


def part_special() -> None:
    from family.real import TokenizerUnavailable

    if not LARGE:
        st.markdown(md_escape(TEXTS["special"]))
    state.restore([*fv.MESSAGES, fv.STOK, fv.SPECIAL])
    st.markdown("**A short chat, wrapped in a real chat template**")
    with st.expander("The messages", icon=":material/edit_note:") if classroom_on() else nullcontext():
        for (role, _), param in zip(fv.CHAT, fv.MESSAGES):  # classroom mode: folded away, the chat is the slide
            st.text_input(f"{role.capitalize()} message", key=param.skey, max_chars=fv.MAX_MESSAGE_CHARS)
        st.button("Back to the chai-stall chat", key=f"{fv.PAGE}.chat_reset", on_click=_reset_chat, type="tertiary",
                  icon=":material/restart_alt:")
    messages = tuple((role, st.session_state.get(p.skey) or "") for (role, _), p in zip(fv.CHAT, fv.MESSAGES))
    if any(not text.strip() for _, text in messages):
        st.info("Write something in every message: an empty turn is still a turn, but there is nothing to count.",
                icon=":material/edit:")
    else:
        try:
            c = fv.chat(messages)
        except (TokenizerUnavailable, ValueError) as exc:
            st.warning(md_escape(str(exc)), icon=":material/error:")
        else:
            cols = st.columns(4 if not LARGE else 2)
            cols[0].metric("Tokens the model reads", f"{c.total:,}")
            cols[1].metric("The messages alone", f"{sum(c.content):,}", help="Each message's text, tokenized on its own.")
            cols[2 % len(cols)].metric("Added by the template", f"{c.added:,}")
            cols[3 % len(cols)].metric("Per message", f"{c.per_message:.1f}")
            with figure("chat-template"):
                token_chips([Chip(t.piece, t.id, whole=is_whole(t.bytes), highlight=t.special, data=t.bytes)
                             for t in c.tokens], label="the templated chat", show_ids=not LARGE)
            specials = ", ".join(f"{md_code(piece, visible=False)} ×{n}" for piece, n in c.specials())
            st.markdown(f"Highlighted: the special tokens the template put in: {specials}.")
            st.caption(md_escape(TEXTS["template"].format(template=c.template)))

    st.markdown("**Typed as text, or the special token itself?**")
    st.caption(md_escape(TEXTS["endoftext"]))
    c_tok, c_special = st.columns(2)
    key = c_tok.selectbox("Tokenizer", fv.SPECIAL_TOKENIZERS, key=fv.STOK.skey, format_func=choices.title)
    try:
        tok = choices.load(key)
    except choices.Unavailable as exc:
        st.warning(md_escape(str(exc)), icon=":material/error:")
        state.publish([*fv.MESSAGES, fv.STOK, fv.SPECIAL])
        return
    names = list(tok.special_tokens)
    if st.session_state.get(fv.SPECIAL.skey) not in names:
        state.set_value(fv.SPECIAL, fv.ENDOFTEXT if fv.ENDOFTEXT in names else names[0])
    special = c_special.selectbox("Special token", names, key=fv.SPECIAL.skey)
    state.publish([*fv.MESSAGES, fv.STOK, fv.SPECIAL])
    typed = tok.encode_tokens(special)
    as_special = tok.encode_special(special)
    st.markdown(f"Typed into a prompt: **{plural(len(typed), 'token')}**")
    token_chips([chip_from_token(t) for t in typed], label="typed", show_ids=True)
    st.markdown(f"Put in by the template: **{plural(len(as_special), 'token')}**, id {as_special[0]:,}")
    token_chips([Chip(special, as_special[0], highlight=True)], label="the special token", show_ids=True)


{"merges": part_merges, "unigram": part_unigram, "pipeline": part_pipeline, "special": part_special}[part]()
