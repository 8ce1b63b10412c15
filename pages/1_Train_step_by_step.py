"""Train step by step: watch BPE learn its merges one at a time.

Read the widgets -> train through ui.training (cached for every learner) -> draw
one step of the trace with views.train. The step view is a fragment: a click
on Next reruns only it. Step 0 is before any merge; step k shows the pair
counts *before* merge k, the pair it picked, and the corpus *after* merge k.
"""

import streamlit as st

from ui.layout import classroom_on, large_type_on, page_setup
import lessons
from tokenizer import StopReason
from ui import charts, predict, presets, tables, viewport
from ui import choices
from views import train as tv
from ui.codeview import algorithm_html
from ui.display import callout_html, join_words, md_code, md_escape, plural
from ui.training import MAX_MERGES, trained_with_progress
from ui.layout import figure, find_page, link_params
from ui.links import lesson_link
from ui.state import publish, restore
from ui.uploads import TEXT_UPLOAD_MB, decode_text_file, uploaded_bytes

page_setup("Train step by step")


LARGE = large_type_on()
CLASSROOM = classroom_on()  # fewer controls: the teacher steps, the class watches
STEPPER = tv.STEPPER

if not LARGE:
    st.caption(
        "BPE starts from single characters (or bytes). It counts which two neighbours occur together most "
        "often, glues that pair into one new token, and repeats. Pick a corpus, then step through the merges."
    )

# --- Settings: restored from the link first; a preset decides the defaults ---------------------
restore([tv.PRESET])
preset_id = st.session_state[tv.PRESET.skey]
preset_defaults = presets.preset_settings(preset_id)
params = tv.setting_params(preset_defaults)
url_params = [tv.PRESET, *params.values(), tv.TEXT, tv.STEP, tv.PREDICT]
restore(url_params)

pick, about = st.columns([2, 3] if LARGE else [3, 2], vertical_alignment="bottom")
pick.selectbox(
    "Corpus",
    presets.preset_ids(),
    key=tv.PRESET.skey,
    format_func=presets.preset_title,
    on_change=tv.apply_preset,
    help="Presets A to F are small worked examples of BPE training; the English + Hindi news presets are the "
    "experiment on who gets the cheap tokens when the merge budget is shared.",
)
preset = lessons.presets().get(preset_id)
if preset is not None and preset.note and not LARGE:
    about.html(callout_html(preset.note))
with about:  # back to the lesson that linked here, else the preset's own (in classroom mode too)
    lesson_link(preset.lesson if preset is not None else None)

settings = tv.current_settings(params)
changed = tv.changed_settings(settings, preset_defaults) if preset is not None else []


def draw_settings() -> None:
    """The five trainer settings and the merge budget (hidden in classroom mode: the preset's are used)."""
    with (about if LARGE else st).expander(f"Trainer settings: {md_escape(settings.summary())}",
                                           expanded=bool(changed) or preset is None, icon=":material/tune:"):
        if LARGE:  # two rows, so the labels are not squeezed letter by letter
            c_unit, c_split, c_marker = st.columns(3)
            c_ties, c_merges, _ = st.columns(3)
        else:
            c_unit, c_split, c_marker, c_ties, c_merges = st.columns([1.1, 1.5, 1.4, 1.3, 1])
        c_unit.radio(
            "Unit",
            ("chars", "bytes"),
            key=params["unit"].skey,
            format_func=presets.UNIT_NAMES.get,
            help="What BPE starts from: Unicode characters (code points), or the UTF-8 bytes of the text (ids 0-255).",
        )
        split = c_split.radio(
            "Pre-split",
            ("whitespace", "regex"),
            key=params["split"].skey,
            format_func=presets.SPLIT_NAMES.get,
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
        if split == "regex":
            c_split.caption("With spaces shown: " + md_code(settings.pattern))
        marker = c_marker.selectbox(
            "End-of-word marker",
            presets.MARKER_CHOICES,
            key=params["marker"].skey,
            format_func=presets.MARKER_NAMES.get,
            help="A symbol added to the end of every word, so a token can mean 'at the end of a word'.",
        )
        c_marker.text_input("Custom marker", key=params["marker_text"].skey, disabled=marker != "custom", max_chars=12)
        c_ties.radio(
            "Ties",
            ("first", "hf"),
            key=params["ties"].skey,
            format_func=presets.TIE_NAMES.get,
            help="When pairs share the top count. First seen: the pair met first reading the words in order. "
            "hf: the order Hugging Face tokenizers use.",
        )
        c_merges.number_input("Merges", min_value=0, max_value=MAX_MERGES, step=1, key=params["merges"].skey)


if CLASSROOM:
    about.caption(md_escape(f"Trainer settings: {settings.summary()}"))
else:
    draw_settings()

settings = tv.current_settings(params)
if changed:
    note, reset = st.columns([4, 1], vertical_alignment="center")
    note.caption(
        "**Custom run**: you changed " + join_words(changed) + ". The numbers below are for your settings, "
        "not the worked example's."
    )
    reset.button("Use the preset's settings", key=tv.RESET.skey, on_click=tv.apply_preset)

# --- The corpus ------------------------------------------------------------------------------
corpus: str | None = None
source = "My text"
if preset is not None:
    corpus = preset.corpus
    if not LARGE and not CLASSROOM:
        with st.expander(f"The corpus text ({len(corpus):,} characters)", icon=":material/article:"):
            st.code(corpus, language=None, wrap_lines=True, height=min(400, 40 + 24 * (1 + len(corpus) // 120)))
else:
    typed, uploaded = st.columns([3, 2])
    typed.text_area(
        "Your text",
        key=tv.TEXT.skey,
        height=150,
        placeholder="chai chai chai chaiwala, poha poha pohawala... any language, any script.",
        on_change=STEPPER.reset,
        help=f"Up to {tv.MAX_CORPUS_CHARS:,} characters. Texts up to {tv.TEXT_IN_LINK} characters are kept "
        "in the link when you share it.",
    )
    data, file_name = uploaded_bytes(
        "…or upload a .txt file (UTF-8)", key=tv.UPLOAD.skey, types=["txt"], limit_mb=TEXT_UPLOAD_MB,
        on_change=STEPPER.reset, container=uploaded,
    )
    if data is not None:
        text, error = decode_text_file(data)
        if error:
            st.html(callout_html(error, "warning"))
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
        st.html(callout_html(problem, "warning"))
    else:
        try:
            trace = trained_with_progress(corpus, settings.merges, **settings.config().to_dict())
        except ValueError as exc:  # e.g. a regex pattern that does not compile, or a corpus with no words
            st.html(callout_html(f"Cannot train with these settings: {exc}", "warning"))


# --- Step through the merges -----------------------------------------------------------------
def draw_zero(trace, run: str) -> None:
    st.info(
        "0 merges: there is nothing to step through. The vocabulary is just the base symbols, and every "
        "word stays in single pieces. Set **Merges** above 0 to watch BPE learn."
    )
    symbols, n_base = tv.base_symbols_html(trace)
    st.markdown(f"**The base vocabulary: {n_base:,} symbols.** The ones this corpus uses:")
    st.html(symbols)
    st.markdown("**The corpus, in base symbols**")
    st.html(tv.corpus_html(trace, 0))
    st.caption(tv.corpus_caption(trace))


def predict_toggle() -> None:
    st.toggle("Predict first", key=tv.PREDICT.skey, help="Hide each merge's winner until you pick the pair you think wins.")


def draw_steps(trace, run: str) -> None:
    """The step view: controls, the merge and why, the chart, the corpus after it (a fragment)."""
    n = len(trace.steps)
    predicting = bool(st.session_state.get(tv.PREDICT.skey))
    with st.container(key=viewport.action(tv.PAGE)):  # a click here brings the step's result into view
        k = STEPPER.draw(n, slider=None if LARGE else "Step (0 = before any merge)", autoplay_disabled=predicting,
                         extra=predict_toggle)
    publish([tv.STEP, tv.PREDICT])
    step = trace.steps[max(k, 1) - 1]  # the merge this view is about (merge 1 at step 0)
    question = tv.guess_question(run, trace, k) if predicting and k else None
    hidden = predicting and (k == 0 or not predict.answered(question))
    with st.container(key=viewport.result(tv.PAGE)):  # the merge, the chart, why: what Next changes
        st.html(tv.step_header_html(trace, k, hide_winner=hidden and k > 0))
        if question is not None:
            with st.container(border=True):
                hidden = predict.ask(question) is None

        # Secondary numbers, one line, after the key ones (the count is in the header).
        shown_k = k - 1 if hidden and k else k  # while predicting, the corpus length would give the count away
        tokens_now = tv.corpus_tokens(trace, shown_k)
        facts = [f"vocabulary {trace.base_size + k:,} ({trace.base_size:,} base + {k:,} merged)",
                 f"{plural(step.n_pairs, 'distinct pair')} before merge {max(k, 1)}"]
        if tokens_now is not None:
            facts.append(f"the corpus is {tokens_now:,} tokens" + (" before this merge" if hidden and k else ""))
        if predicting:
            facts.append(f"your predictions: {predict.score_line('train')}")
        facts_later = not hidden and not LARGE  # under the chart: the merge and its chart share a phone's screen
        if not facts_later:
            st.caption(" · ".join(facts))

        if hidden and k == 0:
            st.info("**Predict first** is on: press **Next**, then guess which pair merge 1 picks before it is shown.")
            with figure("train-corpus"):
                st.markdown("**The corpus before any merge**")
                st.html(tv.corpus_html(trace, 0))
            st.caption(tv.corpus_caption(trace))
            return
        if hidden:
            with figure("train-corpus"):
                st.markdown(f"**The corpus before merge {k}**: which two neighbours occur most often?")
                st.html(tv.corpus_html(trace, k - 1))
            st.caption(tv.corpus_caption(trace))
            return

        rows = tv.pair_rows(step, reveal=k > 0, limit=8 if LARGE else None)
        if LARGE:  # one screen on a projector: the chart, why, and the corpus after it, side by side
            left, why, right = st.columns([3.1, 2.6, 3.9], gap="medium")
        else:
            left, right = st.columns([3, 2], gap="medium")
            why = right
        words = tv.LARGE_TOP_WORDS if LARGE else tv.TOP_WORDS
        with left, figure("pair-chart"):
            st.markdown(f"**Pair counts before merge {max(k, 1)}**")
            charts.draw(tv.pair_chart_spec(tv.rows_key(rows), LARGE), key=tv.CHART.skey)
            shown = (f"The top {len(rows)} of {step.n_pairs:,} distinct pairs." if step.n_pairs > len(rows)
                     else f"All {plural(step.n_pairs, 'distinct pair')}.")
            st.caption(shown + (" Press **Next** to see which one wins." if k == 0 else ""))
            if facts_later:
                st.caption(" · ".join(facts))
        if k:
            with why:
                st.markdown("**Why this pair**" if step.n_tied <= 1 else "**The tie, and the rule that broke it**")
                st.html(callout_html(tv.explain(trace, k) + "\n" + tv.count_breakdown(trace, k)))
        with right, figure("train-corpus"):
            if k:
                st.markdown(f"**The corpus after merge {k}**")
                st.html(tv.corpus_html(trace, k, highlight_id=step.token_id, limit=words))
            else:
                st.markdown("**The corpus before any merge**")
                st.html(tv.corpus_html(trace, 0, limit=words))
            st.caption(tv.corpus_caption(trace, words) + (" The new token has a black outline." if k else ""))

    if k == n:
        draw_next_steps()
    if k:
        st.markdown(f"**Tokens learned so far: {k:,}**" + (" (the last 40 shown)" if k > 40 else ""))
        st.html(tv.learned_tokens_html(trace, k))
    if CLASSROOM:
        return
    with st.expander("Every merge so far, as a table", key=tv.TABLE_OPEN.skey, on_change="rerun",
                     icon=":material/table:") as table_box:
        if table_box.open:
            tables.show(tv.merges_frame(trace, k), hide_index=True, key=tv.MERGES_TABLE.skey,
                         column_config={"other pairs with that count": st.column_config.NumberColumn(
                             help="How many other pairs had the same top count (empty: no tie).")})
    with st.expander("The algorithm, at this step", key=tv.CODE_OPEN.skey, on_change="rerun",
                     icon=":material/code:") as code_box:
        if code_box.open:
            st.caption(
                "The lab's readable reference trainer (tokenizer/reference.py): it recounts every pair after every "
                "merge. The fast trainer that made this trace keeps its counts up to date instead; the tests check "
                "that both learn exactly the same merges. Highlighted: what this loop did at this step."
            )
            st.html(algorithm_html(trace, k))


def draw_next_steps() -> None:
    """After the last merge: where to go next, and the preset's words to try, one click away."""
    encode = find_page("Encode step by step")
    st.success("That was the last merge. Next: use these merges to cut a word the corpus never had.",
               icon=":material/flag:")
    words = preset.examples if preset is not None else ()
    if encode is None:
        return
    with st.container(horizontal=True, gap="small"):
        for i, word in enumerate(words):
            st.page_link(encode.path, label=f"Encode “{md_escape(word)}”", icon=":material/arrow_forward:",
                         query_params={**(link_params() or {}), "tok": preset_id, "text": word})
        if not words:
            st.page_link(encode.path, label="Encode a word with these merges", icon=":material/arrow_forward:",
                         query_params=link_params())


def draw_downloads(trace, run: str) -> None:
    model = tv.tokenizer_json(trace)
    stem = tv.file_stem(preset_id, settings, len(trace.steps))
    with st.container(horizontal=True):
        st.download_button("Model (JSON)", model, f"{stem}.json", "application/json", key=tv.DL_MODEL.skey,
                           on_click="ignore", icon=":material/download:")
        st.download_button("Trace (JSON)", lambda: tv.trace_json(trace), f"{stem}-trace.json", "application/json",
                           key=tv.DL_TRACE_JSON.skey, on_click="ignore", icon=":material/download:")
        st.download_button("Trace (CSV)", lambda: tv.trace_csv(trace), f"{stem}-trace.csv", "text/csv",
                           key=tv.DL_TRACE_CSV.skey, on_click="ignore", icon=":material/download:")
        hf, why_not = tv.hf_export(trace) if trace.config.unit == "bytes" else (None, None)
        if hf is not None:
            st.download_button("Hugging Face tokenizer.json", hf, f"{stem}-tokenizer.json", "application/json",
                               key=tv.DL_HF.skey, on_click="ignore", icon=":material/download:")
    if why_not:
        st.caption(md_escape(f"No Hugging Face tokenizer.json for this model: {why_not}"))
    st.caption(
        f"The model holds all {len(trace.steps):,} merges; use it on *Tokenize anything* or *Encode step by step* "
        "(upload it there in another session). The trace lists every merge with its count and its ties."
        + ("" if trace.config.unit == "bytes" else " Only a byte-level model can be written as a Hugging Face "
           "tokenizer.json: theirs start from the 256 bytes, and this model starts from characters.")
    )


if trace is not None:
    run = tv.run_key(corpus, settings)
    n_steps = len(trace.steps)
    if trace.stop_reason is StopReason.NO_PAIRS:
        st.info(
            f"Training stopped after {n_steps:,} of the {trace.requested:,} merges you asked for: every word is "
            "now a single token, so no pair is left to merge."
        )
    punct = tv.punctuation_note(trace)
    if punct:
        st.caption(punct)
    if n_steps == 0:
        draw_zero(trace, run)
    else:
        st.fragment(draw_steps, run_every=STEPPER.run_every())(trace, run)
    if st.session_state.get(tv.PREDICT.skey):
        st.caption("Downloads are hidden while you predict: the trace would give the answers away.")
    elif not CLASSROOM:
        with st.expander("Take it with you: the model and the trace as files", icon=":material/download:"):
            draw_downloads(trace, run)
    if preset is None:
        title = tv.session_model_title(source, corpus, settings, n_steps)
        try:
            choices.keep_session_model(trace.tokenizer, title, source=f"trained on the Train page ({source.lower()})",
                                          counts=[s.count for s in trace.steps], ident=run)
        except ValueError as exc:  # a model bigger than the lab reads back (e.g. one token of a whole page)
            st.caption(md_escape(f"Not kept for the other pages: {exc}"))
        else:
            st.caption(md_escape(f"Kept for this session as “{title}”: pick it on Tokenize anything or Encode step by step."))

too_long = publish(url_params)
if "text" in too_long:
    st.caption(
        f"Your text is longer than {tv.TEXT_IN_LINK} characters, so a shared link keeps the settings and step "
        "but not the text."
    )
if set(too_long) - {"text"}:
    st.caption("Too long to keep in a shared link: " + ", ".join(sorted(set(too_long) - {"text"})) + ".")
if preset is None and st.session_state.get(tv.UPLOAD.skey) is not None:
    st.caption("An uploaded file is not part of a shared link: the link keeps the settings and step only.")
