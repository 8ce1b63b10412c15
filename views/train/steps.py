"""The merges, step by step: the step view (a fragment), the merge and why, the chart, the corpus after it; then
what to do next, the downloads, and the learner's own model kept for the session.
"""

from __future__ import annotations

import streamlit as st

import lessons
from i18n import _, _n, number
from lessons.course import TOKENIZER_KEY
from tokenizer import StopReason, Trace
from ui import charts, choices, predict, state, tables, viewport
from ui.codeview import algorithm_html
from ui.display import callout_html, md_escape
from ui.layout import figure, find_page, link_params, phone_only, swipe_columns, wide_only
from ui.presets import Settings
from ui.questions import guess_question
from ui.show import Show
from ui.training import Run, trace_of

from .chart import pair_chart_spec, pair_rows, rows_key
from .chips import (
    LARGE_TOP_WORDS,
    TOP_WORDS,
    base_symbols_html,
    corpus_caption,
    corpus_html,
    corpus_tokens,
    learned_tokens_html,
)
from .files import downloads_section, merges_columns, merges_frame
from .sentences import count_breakdown, explain, step_header_html
from .settings import CHART, CODE_OPEN, MERGES_TABLE, PAGE, PREDICT, STEP, STEPPER, TABLE_OPEN
from .text import punctuation_note, session_model_title


def trace_section(run: Run | None, source: str, preset_id: str, settings: Settings, show: Show) -> None:
    """The merges, step by step (a fragment), the downloads, and a learner's own model kept for the session."""
    if run is None:
        return
    trace = trace_of(run)
    n_steps = len(trace.steps)
    if trace.stop_reason is StopReason.NO_PAIRS:
        st.info(_n(
            "Training stopped after {done} of the {n} merge you asked for: every word is now a single token, so no "
            "pair is left to merge.",
            "Training stopped after {done} of the {n} merges you asked for: every word is now a single token, so no "
            "pair is left to merge.", trace.requested, done=number(n_steps)))
    punct = punctuation_note(trace)
    if punct:
        st.caption(punct)
    if n_steps == 0:
        zero_section(run, trace)
    else:
        st.fragment(steps_section, run_every=STEPPER.run_every())(trace, run, preset_id, show)
    if st.session_state.get(PREDICT.skey):
        st.caption(_("Downloads are hidden while you predict: the trace would give the answers away."))
    elif not show.classroom:
        with st.expander(_("Take it with you: the model and the trace as files"), icon=":material/download:"):
            downloads_section(run, trace, preset_id, settings)
    if preset_id in lessons.presets():
        return
    title = session_model_title(source, run.corpus, settings, n_steps)
    try:
        choices.keep_session_model(trace.tokenizer, title, source=_("trained on the Train page ({source})", source=_(source).lower()),
                                   counts=[s.count for s in trace.steps], ident=run.name)
    except ValueError as exc:  # a model bigger than the lab reads back (e.g. one token of a whole page)
        st.caption(md_escape(_("Not kept for the other pages: {why}", why=exc)))
    else:
        st.caption(md_escape(_("Kept for this session as “{title}”: pick it on {tokenize} or {encode}.", title=title,
                               tokenize=_("Tokenize anything"), encode=_("Encode step by step"))))


def zero_section(run: Run, trace: Trace) -> None:
    """0 merges: the base vocabulary and the corpus in it."""
    st.info(_(
        "0 merges: there is nothing to step through. The vocabulary is just the base symbols, and every "
        "word stays in single pieces. Set **Merges** above 0 to watch BPE learn."
    ))
    symbols, n_base = base_symbols_html(trace)
    st.markdown(_("**The base vocabulary: {n} symbols.** The ones this corpus uses:", n=number(n_base)))
    st.html(symbols)
    st.markdown(_("**The corpus, in base symbols**"))
    st.html(corpus_html(run, 0))
    st.caption(corpus_caption(trace))


def predict_toggle() -> None:
    st.toggle(_("Predict first"), key=PREDICT.skey,
              help=_("Hide each merge's winner until you pick the pair you think wins."))


def steps_section(trace: Trace, run: Run, preset_id: str, show: Show) -> None:
    """The step view (a fragment): controls, the merge and why, the chart, the corpus after it."""
    with state.published([STEP, PREDICT]):  # a fragment run publishes the step too
        n = len(trace.steps)
        predicting = bool(st.session_state.get(PREDICT.skey))
        with st.container(key=viewport.action(PAGE)):  # a click here brings the step's result into view
            k = STEPPER.draw(n, slider=None if show.large else _("Step (0 = before any merge)"),
                             autoplay_disabled=predicting, extra=predict_toggle)
    with st.container(key=viewport.result(PAGE)):  # the merge, the chart, why: what Next changes
        shown = merge_view(trace, run, k, predicting, show)
    if not shown:
        return
    if k == n:
        next_steps(preset_id)
    if k:
        st.markdown(_("**Tokens learned so far: {n}**", n=number(k)) + (" " + _("(the last 40 shown)") if k > 40 else ""))
        st.html(learned_tokens_html(trace, k))
    if show.classroom:
        return
    with st.expander(_("Every merge so far, as a table"), key=TABLE_OPEN.skey, on_change="rerun",
                     icon=":material/table:") as table_box:
        if table_box.open:
            tables.show(merges_frame(run, k), hide_index=True, key=MERGES_TABLE.skey, column_config=merges_columns())
    with st.expander(_("The algorithm, at this step"), key=CODE_OPEN.skey, on_change="rerun",
                     icon=":material/code:") as code_box:
        if code_box.open:
            st.caption(_(
                "The lab's readable reference trainer (tokenizer/reference.py): it recounts every pair after every "
                "merge. The fast trainer that made this trace keeps its counts up to date instead; the tests check "
                "that both learn exactly the same merges. Highlighted: what this loop did at this step."
            ))
            st.html(algorithm_html(trace, k))


def merge_view(trace: Trace, run: Run, k: int, predicting: bool, show: Show) -> bool:
    """Step ``k``: the merge (or the question, while predicting), its chart, why it won, the corpus after it.
    Returns False while the winner is hidden (nothing after it may give it away)."""
    step = trace.steps[max(k, 1) - 1]  # the merge this view is about (merge 1 at step 0)
    question = guess_question(run.name, trace, k) if predicting and k else None
    hidden = predicting and (k == 0 or question is None or not predict.answered(question))
    st.html(step_header_html(run, k, hide_winner=hidden and k > 0))
    # In large type, while the question waits: it beside the corpus it is about, both on the projector's first screen.
    asking = show.large and question is not None and hidden
    ask_box, corpus_box = st.columns([2, 3], gap="large") if asking else (st.container(), st.container())
    if question is not None:
        with ask_box, st.container(border=True):
            hidden = predict.ask(question) is None

    # Secondary numbers, one line, after the key ones (the count is in the header).
    shown_k = k - 1 if hidden and k else k  # while predicting, the corpus length would give the count away
    tokens_now = corpus_tokens(run, shown_k)
    facts = [_("vocabulary {size} ({base} base + {k} merged)", size=number(trace.base_size + k),
               base=number(trace.base_size), k=number(k)),
             _n("{n} distinct pair before merge {k}", "{n} distinct pairs before merge {k}", step.n_pairs,
                k=number(max(k, 1)))]
    if tokens_now is not None:
        facts.append(_n("the corpus is {n} token before this merge", "the corpus is {n} tokens before this merge",
                        tokens_now) if hidden and k else
                     _n("the corpus is {n} token", "the corpus is {n} tokens", tokens_now))
    if predicting:
        facts.append(_("your predictions: {score}", score=predict.score_line(PAGE)))
    facts_later = not hidden and not show.large  # under the chart: the merge and its chart share a phone's screen
    if not facts_later:
        ask_box.caption(" · ".join(facts))

    if hidden and k == 0:
        st.info(_("**Predict first** is on: press **Next**, then guess which pair merge 1 picks before it is shown."))
        with figure("train-corpus"):
            st.markdown(_("**The corpus before any merge**"))
            st.html(corpus_html(run, 0))
        st.caption(corpus_caption(trace))
        return False
    if hidden:
        with corpus_box, figure("train-corpus"):
            st.markdown(_("**The corpus before merge {k}**: which two neighbours occur most often?", k=number(k)))
            st.html(corpus_html(run, k - 1))
        corpus_box.caption(corpus_caption(trace))
        return False

    rows = pair_rows(step, reveal=k > 0, limit=8 if show.large else None)
    # Side by side on a wide screen: the pair counts and why the winner won, the corpus after the merge. A phone
    # swipes between them, the corpus (what changed) first, so one step is one screen there too.
    hint = (_("Swipe sideways for the pair counts and why this pair won.") if k
            else _("Swipe sideways for the pair counts before merge 1."))
    if show.large:  # one screen on a projector: the chart, why, and the corpus after it, side by side
        left, why, right = swipe_columns("train-step", [3.1, 2.6, 3.9], phone_first=2, hint=hint, gap="medium")
    else:
        left, right = swipe_columns("train-step", [3, 2], phone_first=1, hint=hint, gap="medium")
        why = None  # beside the chart on a wide screen (over the corpus); under it in a phone's panel
    words = LARGE_TOP_WORDS if show.large else TOP_WORDS
    with left, figure("pair-chart"):
        st.markdown(_("**Pair counts before merge {k}**", k=number(max(k, 1))))
        charts.draw(pair_chart_spec(rows_key(rows), show.large), key=CHART.skey)
        shown = (_("The top {top} of {n} distinct pairs.", top=number(len(rows)), n=number(step.n_pairs))
                 if step.n_pairs > len(rows) else
                 _n("All {n} distinct pair.", "All {n} distinct pairs.", step.n_pairs))
        st.caption(shown + (" " + _("Press **Next** to see which one wins.") if k == 0 else ""))
        if facts_later:
            st.caption(" · ".join(facts))
    if k:
        title = _("Why this pair") if step.n_tied <= 1 else _("The tie, and the rule that broke it")
        why_html = (f'<p style="margin:0 0 .5rem"><strong>{title}</strong></p>'
                    + callout_html(explain(run, k) + "\n" + count_breakdown(run, k)))
        if why is not None:
            why.html(why_html)
        else:
            left.html(phone_only(why_html))
            right.html(wide_only(why_html))
    with right, figure("train-corpus"):
        if k:
            st.markdown(_("**The corpus after merge {k}**", k=number(k)))
            st.html(corpus_html(run, k, highlight_id=step.token_id, limit=words))
        else:
            st.markdown(_("**The corpus before any merge**"))
            st.html(corpus_html(run, 0, limit=words))
        st.caption(corpus_caption(trace, words) + (" " + _("The new token has a black outline.") if k else ""))
    return True


def next_steps(preset_id: str) -> None:
    """After the last merge: where to go next, and the preset's words to try, one click away."""
    encode = find_page("Encode step by step")
    st.success(_("That was the last merge. Next: use these merges to cut a word the corpus never had."),
               icon=":material/flag:")
    preset = lessons.presets().get(preset_id)
    words = preset.examples if preset is not None else ()
    if encode is None:
        return
    with st.container(horizontal=True, gap="small"):
        for word in words:
            st.page_link(encode.path, label=_("Encode “{word}”", word=md_escape(word)), icon=":material/arrow_forward:",
                         query_params={**(link_params() or {}), TOKENIZER_KEY: preset_id, "text": word})
        if not words:
            st.page_link(encode.path, label=_("Encode a word with these merges"), icon=":material/arrow_forward:",
                         query_params=link_params())
