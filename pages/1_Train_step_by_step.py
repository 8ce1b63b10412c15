"""Train step by step: watch BPE learn its merges one at a time.

Read the widgets -> train through ui.engine (cached for every learner) -> draw
one step of the trace with ui.trainview (charts, sentences) and ui.chips.
Step 0 is before any merge; step k shows the pair counts *before* merge k,
the pair it picked, and the corpus *after* merge k.
"""

import streamlit as st

from ui.layout import large_type_on, page_setup

page_setup("Train step by step")

import lessons  # noqa: E402
from tokenizer import StopReason  # noqa: E402
from ui import trainview as tv  # noqa: E402
from ui.engine import MAX_MERGES, trained_with_progress  # noqa: E402
from ui.state import publish, restore  # noqa: E402

st.markdown(
    "BPE starts from single characters (or bytes). It counts which two neighbours occur together most "
    "often, glues that pair into one new token, and repeats. Pick a corpus, then step through the merges."
)

# --- Settings: restored from the link first; a preset decides the defaults ---------------------
restore([tv.PRESET])
preset_id = st.session_state[tv.PRESET.skey]
preset_defaults = tv.preset_settings(preset_id)
params = tv.setting_params(preset_defaults)
url_params = [tv.PRESET, *params.values(), tv.TEXT, tv.STEP, tv.PREDICT]
restore(url_params)

st.subheader("1 · Corpus and settings")
pick, about = st.columns([3, 2], vertical_alignment="bottom")
pick.selectbox(
    "Corpus",
    tv.preset_ids(),
    key=tv.PRESET.skey,
    format_func=tv.preset_title,
    on_change=tv.apply_preset,
    help="Presets A to F are the worked examples of lesson 2; the English + Hindi ones are lesson 4's experiment.",
)
preset = lessons.presets().get(preset_id)
if preset is not None and preset.note:
    about.html(tv.note_html(preset.note))

with st.container(border=True):
    if large_type_on():  # two rows, so the labels are not squeezed letter by letter
        c_unit, c_split, c_marker = st.columns(3)
        c_ties, c_merges, _ = st.columns(3)
    else:
        c_unit, c_split, c_marker, c_ties, c_merges = st.columns([1.1, 1.5, 1.4, 1.3, 1])
    c_unit.radio(
        "Unit",
        ("chars", "bytes"),
        key=params["unit"].skey,
        format_func=tv.UNIT_NAMES.get,
        help="What BPE starts from: Unicode characters (code points), or the UTF-8 bytes of the text (ids 0-255).",
    )
    split = c_split.radio(
        "Pre-split",
        ("whitespace", "regex"),
        key=params["split"].skey,
        format_func=tv.SPLIT_NAMES.get,
        horizontal=True,
        help="BPE merges only inside the pieces the text is first cut into. Whitespace drops the spaces; "
        "the regex keeps what the pattern matches (the default ` ?\\S+` keeps one space before each word).",
    )
    c_split.text_input(
        "Pattern",
        key=params["pattern"].skey,
        disabled=split != "regex",
        help="A regular expression (Python `regex` module). Each match is one piece; text between matches "
        "becomes pieces of its own.",
    )
    marker = c_marker.selectbox(
        "End-of-word marker",
        tv.MARKER_CHOICES,
        key=params["marker"].skey,
        format_func=tv.MARKER_NAMES.get,
        help="A symbol added to the end of every word, so a token can mean 'at the end of a word'.",
    )
    c_marker.text_input(
        "Custom marker", key=params["marker_text"].skey, disabled=marker != "custom", max_chars=12
    )
    c_ties.radio(
        "Ties",
        ("first", "hf"),
        key=params["ties"].skey,
        format_func=tv.TIE_NAMES.get,
        help="When pairs share the top count. First seen: the pair met first reading the words in order. "
        "hf: the order Hugging Face tokenizers use.",
    )
    c_merges.number_input("Merges", min_value=0, max_value=MAX_MERGES, step=1, key=params["merges"].skey)

settings = tv.current_settings(params)
if preset_id != tv.OWN:
    changed = tv.changed_settings(settings, preset_defaults)
    if changed:
        note, reset = st.columns([4, 1], vertical_alignment="center")
        note.caption(
            "**Custom run**: you changed " + tv.join_words(changed) + ". The numbers below are for your settings, "
            "not the worked example's."
        )
        reset.button("Use the preset's settings", key="train.reset", on_click=tv.apply_preset)

# --- The corpus ------------------------------------------------------------------------------
corpus: str | None = None
source = "My text"
if preset is not None:
    corpus = preset.corpus
    with st.expander(f"The corpus text ({len(corpus):,} characters)"):
        st.code(corpus, language=None, wrap_lines=True, height=min(400, 40 + 24 * (1 + len(corpus) // 120)))
else:
    typed, uploaded = st.columns([3, 2])
    typed.text_area(
        "Your text",
        key=tv.TEXT.skey,
        height=150,
        placeholder="chai chai chai chaiwala, poha poha pohawala... any language, any script.",
        on_change=tv.restart,
        help=f"Up to {tv.MAX_CORPUS_CHARS:,} characters. Texts up to {tv.TEXT_IN_LINK} characters are kept "
        "in the link when you share it.",
    )
    upload = uploaded.file_uploader(
        f"…or upload a .txt file (UTF-8, up to {tv.UPLOAD_LIMIT_MB} MB)",
        type=["txt"],
        key=tv.UPLOAD_KEY,
        # Let bigger files through to decode_upload, which says what the limit is and what to do
        # (Streamlit's own refusal is only a red icon).
        max_upload_size=50,
        on_change=tv.restart,
    )
    if upload is not None:
        text, error = tv.decode_upload(upload.getvalue())
        if error:
            st.html(tv.note_html(error, "warning"))
        else:
            corpus = text
            source = "My upload"
            uploaded.caption(
                f"Training on the uploaded file ({len(text):,} characters). Remove it to train on the text box."
            )
    else:
        corpus = st.session_state.get(tv.TEXT.skey, "")
    if corpus is not None:
        problem = tv.text_problem(corpus)
        if problem:
            (st.warning if problem[0] == "warning" else st.info)(problem[1])
            corpus = None
        else:
            for note in tv.text_notes(corpus):
                st.caption(note)

trace = None
if corpus is not None:
    problem = tv.marker_problem(settings)
    if problem:
        st.html(tv.note_html(problem, "warning"))
    else:
        try:
            trace = trained_with_progress(corpus, settings.merges, **settings.train_kwargs())
        except ValueError as exc:  # e.g. a regex pattern that does not compile, or a corpus with no words
            st.html(tv.note_html(f"Cannot train with these settings: {exc}", "warning"))


# --- Step through the merges -----------------------------------------------------------------
def draw_steps(trace, run: str) -> None:
    st.subheader("2 · Step through the merges")
    n = len(trace.steps)
    if trace.stop_reason is StopReason.NO_PAIRS:
        st.info(
            f"Training stopped after {n:,} of the {trace.requested:,} merges you asked for: every word is now "
            "a single token, so no pair is left to merge."
        )
    if n == 0:
        st.info(
            "0 merges: there is nothing to step through. The vocabulary is just the base symbols, and every "
            "word stays in single pieces. Set **Merges** above 0 to watch BPE learn."
        )
        symbols, n_base = tv.base_symbols_html(trace)
        st.markdown(f"**The base vocabulary: {n_base:,} symbols.** The ones this corpus uses:")
        st.html(symbols)
        st.markdown("**The corpus, in base symbols**")
        st.html(tv.corpus_html(run, trace, 0))
        st.caption(tv.corpus_caption(trace))
        return

    stopped = tv.apply_autoplay(n)
    k = tv.clamp_step(n)
    with st.container(horizontal=True, vertical_alignment="center"):
        st.button("First", key="train.first", icon=":material/first_page:", on_click=tv.go_to, args=("first", n),
                  disabled=k == 0)
        st.button("Previous", key="train.prev", icon=":material/chevron_left:", on_click=tv.go_to,
                  args=("previous", n), disabled=k == 0)
        st.button("Next", key="train.next", icon=":material/chevron_right:", on_click=tv.go_to, args=("next", n),
                  disabled=k == n, type="primary")
        st.button("Last", key="train.last", icon=":material/last_page:", on_click=tv.go_to, args=("last", n),
                  disabled=k == n)
        predict = st.toggle(
            "Predict first",
            key=tv.PREDICT.skey,
            help="Hide each merge's winner until you pick the pair you think wins.",
        )
        if predict:
            st.session_state[tv.AUTOPLAY_KEY] = False  # guessing and autoplay do not mix
        st.toggle(
            "Autoplay",
            key=tv.AUTOPLAY_KEY,
            on_change=tv.autoplay_changed,
            args=(n,),
            disabled=predict,
            help=f"Step forward every {tv.AUTOPLAY_SECONDS:g} seconds until the last merge."
            + (" (Off while you predict.)" if predict else ""),
        )
    st.slider("Step (0 = before any merge)", min_value=0, max_value=n, key=tv.STEP.skey)
    if stopped:
        st.toast(stopped)
    if st.session_state.get(tv.AUTOPLAY_KEY) and not predict:
        tv.autoplay_ticker()

    key = tv.prediction_key(run, k)
    predictions = st.session_state.get(tv.PREDICTIONS, {})
    hidden = predict and (k == 0 or key not in predictions)
    step = trace.steps[max(k, 1) - 1]  # the merge this view is about (merge 1 at step 0)
    tok = trace.tokenizer

    st.html(tv.step_header_html(trace, k, hide_winner=hidden))
    if large_type_on():
        m_vocab, m_pairs = st.columns(2)
        m_tokens, m_score = st.columns(2)
    else:
        m_vocab, m_pairs, m_tokens, m_score = st.columns(4)
    m_vocab.metric(
        "Vocabulary",
        f"{tok.first_merge_id + k:,}",
        delta=f"+{k:,} merged" if k else None,
        delta_color="off",
        help=f"{tok.first_merge_id:,} base symbols + {k:,} tokens made by merges.",
    )
    m_pairs.metric(
        "Distinct pairs", f"{step.n_pairs:,}", help=f"Different neighbour pairs in the corpus before merge {max(k, 1)}."
    )
    # While the learner predicts, the corpus is shown before the merge: so is its length (the drop
    # would give the winning pair's count away).
    tokens_now = tv.corpus_tokens(run, trace, k - 1 if hidden and k else k)
    if tokens_now is not None:
        m_tokens.metric(
            "Corpus tokens",
            f"{tokens_now:,}",
            delta=(tokens_now - tv.corpus_tokens(run, trace, k - 1)) if k and not hidden else None,
            delta_color="inverse",
            help="Every word, as often as it occurs, after this many merges. Each merge makes it shorter.",
        )
    if predict:
        right, tried = tv.score()
        m_score.metric("Your predictions", f"{right} of {tried}" if tried else "none yet", help="Right of tried, this session.")

    if hidden and k == 0:
        st.info("**Predict first** is on: press **Next**, then guess which pair merge 1 picks before it is shown.")
        st.markdown("**The corpus before any merge**")
        st.html(tv.corpus_html(run, trace, 0))
        st.caption(tv.corpus_caption(trace))
        return
    if hidden:
        st.markdown(
            f"**Predict merge {k}.** This is the corpus before it. Which two neighbours occur most often? "
            "Count each word as many times as it occurs."
        )
        st.html(tv.corpus_html(run, trace, k - 1))
        st.caption(tv.corpus_caption(trace))
        tv.reset_guess_widget(key)
        st.radio(
            "Your prediction", tv.guess_options(step), index=None, key=tv.GUESS_KEY, horizontal=True,
            format_func=tv.md_escape,
        )
        st.button("Check", key=tv.CHECK_KEY, type="primary", on_click=tv.check_guess,
                  args=(key, tv.pair_text(step.left, step.right)))
        if st.session_state.pop(tv.NO_GUESS, False):
            st.warning("Pick a pair first, then press **Check**.")
        return
    if predict and k:
        guess, was_right = predictions[key]
        winner = tv.pair_text(step.left, step.right)
        if was_right:
            st.html(tv.note_html(f"Right! You predicted {guess}, and {winner} wins merge {k}.", "success"))
        else:
            picked = next((r for r in tv.pair_rows(step) if r["pair"] == guess), None)
            seen = f" (seen {tv.times(picked['count'])})" if picked else ""
            st.html(tv.note_html(
                f"Not this time: you predicted {guess}{seen}. The winner is {winner}, seen {tv.times(step.count)}.",
                "info",
            ))

    rows = tv.pair_rows(step, reveal=k > 0)
    if large_type_on():  # one column: the chart and the chips need the width
        left, right = st.container(), st.container()
    else:
        left, right = st.columns([3, 2], gap="large")
    with left:
        st.markdown(f"**Pair counts before merge {max(k, 1)}**")
        shown = f"The top {len(rows)} of {step.n_pairs:,} distinct pairs." if step.n_pairs > len(rows) else (
            f"All {step.n_pairs:,} distinct pairs.")
        st.caption(shown + (" Press **Next** to see which one wins." if k == 0 else ""))
        chart_tab, table_tab = st.tabs(["Chart", "Table"])
        chart_tab.vega_lite_chart(tv.pair_chart_spec(tv.rows_key(rows), large_type_on()), width="stretch")
        table_tab.dataframe(tv.pair_frame(rows), hide_index=True, key="train.pairs")
    with right:
        if k:
            st.markdown("**Why this pair**" if step.n_tied <= 1 else "**The tie, and the rule that broke it**")
            st.html(tv.note_html(tv.explain(run, trace, k)))
            st.markdown(f"**The corpus after merge {k}**")
            st.html(tv.corpus_html(run, trace, k, highlight_id=step.token_id))
        else:
            st.markdown("**The corpus before any merge**")
            st.html(tv.corpus_html(run, trace, 0))
        st.caption(tv.corpus_caption(trace) + (" The new token has a black outline." if k else ""))

    if k:
        st.markdown(f"**Tokens learned so far: {k:,}**" + (" (the last 40 shown)" if k > 40 else ""))
        st.html(tv.learned_tokens_html(trace, k))
        with st.expander("Every merge so far, as a table"):
            st.dataframe(tv.merges_frame(run, trace, k), hide_index=True, key="train.merges_table")


def draw_downloads(trace, run: str) -> None:
    st.subheader("3 · Take it with you")
    model = tv.tokenizer_json(run, trace)
    trace_json, trace_csv = tv.trace_files(run, trace)
    stem = tv.file_stem(preset_id, settings, len(trace.steps))
    with st.container(horizontal=True):
        st.download_button("Model (JSON)", model, f"{stem}.json", "application/json", key="train.dl_model",
                           on_click="ignore", icon=":material/download:")
        st.download_button("Trace (JSON)", trace_json, f"{stem}-trace.json", "application/json",
                           key="train.dl_trace_json", on_click="ignore", icon=":material/download:")
        st.download_button("Trace (CSV)", trace_csv, f"{stem}-trace.csv", "text/csv", key="train.dl_trace_csv",
                           on_click="ignore", icon=":material/download:")
    st.caption(
        f"The model holds all {len(trace.steps):,} merges; upload it on the *Tokenize anything* page to use it. "
        "The trace lists every merge with its count and how many pairs tied."
    )


if trace is not None:
    run = tv.run_key(corpus, settings)
    draw_steps(trace, run)
    if st.session_state.get(tv.PREDICT.skey):
        st.caption("Downloads are hidden while you predict: the trace would give the answers away.")
    else:
        draw_downloads(trace, run)
    if preset is None:
        name = tv.custom_model_name(settings, len(trace.steps), source)
        tv.remember_custom_model(name, run, trace)
        st.caption(f"Kept for this session as “{name}”: pick it on the *Tokenize anything* page.")

too_long = publish(url_params)
if "text" in too_long:
    st.caption(
        f"Your text is longer than {tv.TEXT_IN_LINK} characters, so a shared link keeps the settings and step "
        "but not the text."
    )
if set(too_long) - {"text"}:
    st.caption("Too long to keep in a shared link: " + ", ".join(sorted(set(too_long) - {"text"})) + ".")
if preset is None and "text" not in too_long and st.session_state.get(tv.UPLOAD_KEY) is not None:
    st.caption("An uploaded file is not part of a shared link: the link keeps the settings and step only.")
