"""Part 1, "BPE vs WordPiece": both rules trained on one corpus (cached for everyone), stepped merge by merge side
by side, each with its chart, why it picked its pair, and the corpus its merges cut.
"""

from __future__ import annotations

import json
from typing import Any

import altair as alt
import pandas as pd
import streamlit as st

from family.ruletext import fmt_score, score_sum, tie_sentence
from family.wordpiece import RULE_NAMES, RuleStep, RuleTrace, continuation_labels, train_by_rule
from i18n import N_, _, _n, current, number
from ui import charts, state, tables, viewport
from ui.chips import CSS as CHIPS_CSS
from ui.chips import Chip, merge_html, word_rows_html
from ui.display import callout_html, md_escape, pair_text, visible_token
from ui.language import per_language
from ui.layout import figure
from ui.show import Show
from ui.training import BY_RUN, Run

from .corpus import corpus_picker
from .settings import (
    CHART,
    HASHES,
    LARGE_TOP_PAIRS,
    LARGE_TOP_WORDS,
    NUMBERS,
    NUMBERS_OPEN,
    PRESET,
    SEQUENCES,
    STEP,
    STEPPER,
    TEXT,
    TOP_PAIRS,
    TOP_WORDS,
    said,
    settings_for,
)


# -- cached engine results -------------------------------------------------------------------------
def rules_run(corpus: str, merges: int, preset_id: str) -> Run:
    """One training of both rules on a corpus with a preset's settings: what its traces, and the per-step caches
    below, are keyed by (:class:`ui.training.Run`: the real inputs, so two runs can never share a cache entry)."""
    return Run.of(corpus, merges, settings_for(preset_id))


@st.cache_resource(max_entries=32, show_spinner=False, hash_funcs=BY_RUN)  # the page's call shows a spinner
def rule_traces(run: Run) -> tuple[RuleTrace, RuleTrace]:
    """BPE's and WordPiece's merge sequences on one corpus, once per run (corpus, merges, settings) for everyone."""
    return (train_by_rule(run.corpus, run.merges, rule="count", table_size=TOP_PAIRS, **run.settings),
            train_by_rule(run.corpus, run.merges, rule="score", table_size=TOP_PAIRS, **run.settings))


def rule_trace(run: Run, rule: str) -> RuleTrace:
    """The run's trace of one rule (``"count"``: BPE, ``"score"``: WordPiece), from :func:`rule_traces`'s cache."""
    bpe, wp = rule_traces(run)
    return bpe if rule == "count" else wp


# -- numbers as text --------------------------------------------------------------------------------
def times(n: int) -> str:
    return _n("{n} time", "{n} times", n)


# -- one rule's state at a step ---------------------------------------------------------------------
def state_step(trace: RuleTrace, k: int) -> RuleStep | None:
    """The step whose table is shown at step k: merge k's (at step 0, merge 1's), None past the end."""
    index = max(k, 1) - 1
    return trace.steps[index] if index < len(trace.steps) else None


STATUS_NAMES = (N_("{rule} merges it"), N_("{rule} would merge it"), N_("both rules pick it"), charts.TIE_LOST,
                N_("top value (before merge 1)"), N_("other pairs"))


def statuses(rule: str) -> tuple[str, ...]:
    """The chart's and the table's notes on a pair, for one rule's view, in the current language."""
    me, other = RULE_NAMES[rule], RULE_NAMES["score" if rule == "count" else "count"]
    return (_(STATUS_NAMES[0], rule=me), _(STATUS_NAMES[1], rule=other), *(_(n) for n in STATUS_NAMES[2:]))


STATUS_COLOURS = (charts.ORANGE, charts.TEAL, charts.PINK, charts.SAND, charts.SAND, charts.BLUE)


def pair_rows(step: RuleStep, rule: str, *, reveal: bool, limit: int) -> list[dict[str, Any]]:
    """The chart's and the table's rows for one rule's corpus: its top pairs by its own value, plus the
    other rule's pick when that is further down. ``reveal=False`` (step 0) names no winner."""
    own = step.by_count if rule == "count" else step.by_score
    rows = list(own[:limit])
    if step.other.pair not in {c.pair for c in rows}:
        rows.append(step.other)
    names = statuses(rule)
    tied = {c.pair for c in step.ties} if step.n_tied > 1 else set()
    out = []
    for rank, c in enumerate(rows, start=1):
        mine, theirs = c.pair == step.winner.pair, c.pair == step.other.pair
        if not reveal:
            status = names[4] if c.value(rule) == step.winner.value(rule) else names[5]
        elif mine and theirs:
            status = names[2]
        elif mine:
            status = names[0]
        elif theirs:
            status = names[1]
        elif c.pair in tied:
            status = names[3]
        else:
            status = names[5]
        out.append({
            "rank": rank,
            "pair": pair_text(c.left, c.right),
            "count": c.count,
            "left_count": c.left_count,
            "right_count": c.right_count,
            "score": float(c.score),
            "score_text": score_sum(c),
            "status": status,
        })
    return out


def rows_key(rows: list[dict[str, Any]]) -> tuple[tuple[tuple[str, Any], ...], ...]:
    return tuple(tuple(r.items()) for r in rows)


CHART_DATA = "pairs"


def chart_records(rows: list[dict[str, Any]], rule: str) -> list[dict[str, Any]]:
    names = statuses(rule)
    arrow = {names[0]: f"  ← {RULE_NAMES[rule]}", names[1]: "  ← " + _("the other rule"), names[2]: "  ← " + _("both"),
             names[3]: "  " + _("tie")}
    out = []
    for r in rows:
        if rule == "count":
            mark = number(r["count"]) + " · " + _("score {score}", score=fmt_score(r["score"]))
        else:
            mark = fmt_score(r["score"]) + " · " + _("count {n}", n=number(r["count"]))
        out.append({**r, "bar": f"{r['rank']}. {r['pair']}", "mark": mark + arrow.get(r["status"], "")})
    return out


@per_language(max_entries=16)
def _template(rule: str, large: bool) -> str:
    """The chart with no data, as JSON (built and validated by Altair once per rule, type size and language)."""
    if rule == "count":
        x, title, fmt = "count", _("times seen: count(a b)"), None
        tip = [alt.Tooltip("count:Q", title="count(a b)"),
               alt.Tooltip("score_text:N", title=_("WordPiece score"))]
    else:
        x, title, fmt = "score", _("score: count(a b) ÷ (count(a) × count(b))"), ".2~f"
        tip = [alt.Tooltip("score_text:N", title=_("score")), alt.Tooltip("count:Q", title="count(a b)")]
    chart = charts.ranked_bars(
        CHART_DATA, x=x, x_title=title, statuses=statuses(rule), colours=STATUS_COLOURS,
        dashed=statuses(rule)[3], large=large, x_format=fmt, legend_columns=2,
        tooltip=[alt.Tooltip("pair:N", title=_("pair")), *tip, alt.Tooltip("status:N", title=_("note"))],
    )
    return json.dumps(charts.spec(chart, large=large, lang=current(), validate=True))


@per_language(max_entries=512)
def chart_spec(rows: tuple[tuple[tuple[str, Any], ...], ...], rule: str, large: bool) -> dict:
    """One rule's chart at one step in the current language: the validated template, filled with its rows (cached
    per rows, rule, type size and language)."""
    return charts.fill_ranked_bars(json.loads(_template(rule, large)), chart_records([dict(r) for r in rows], rule),
                                   data_name=CHART_DATA, x="count" if rule == "count" else "score",
                                   statuses=statuses(rule), headroom=2.9 if large else 2.3)


def numbers_frame(rows: list[dict[str, Any]]) -> pd.DataFrame:
    """The rows as a table: the three counts, the score, the note (named by :func:`numbers_columns`)."""
    frame = pd.DataFrame(rows, columns=["rank", "pair", "count", "left_count", "right_count", "score", "status"])
    return frame.rename(columns={"count": "count(a b)", "left_count": "count(a)", "right_count": "count(b)",
                                 "status": "note"})


def numbers_columns() -> dict:
    """The numbers table's columns named in the current language (the counts are formulas: the same in every one)."""
    return {"rank": st.column_config.NumberColumn(_("rank")), "pair": st.column_config.TextColumn(_("pair")),
            "score": st.column_config.NumberColumn(_("score"), format="%.4f"),
            "note": st.column_config.TextColumn(_("note"))}


# -- sentences -------------------------------------------------------------------------------------
@per_language(max_entries=1024, hash_funcs=BY_RUN)
def why(run: Run, rule: str, k: int) -> str:
    """Why this rule picked its pair at merge k, with the other rule's view of the same pair (plain text, in the
    current language). Cached per (run, ``rule``, step, language)."""
    trace = rule_trace(run, rule)
    s = trace.steps[k - 1]
    w, o = s.winner, s.other
    pair = pair_text(w.left, w.right)
    if trace.rule == "count":
        runner = next((c for c in s.by_count if c.pair != w.pair), None)
        head = (_("{pair} is seen {times}, more than any other pair (next: {runner}, {runner_times}).", pair=pair,
                  times=times(w.count), runner=pair_text(runner.left, runner.right), runner_times=times(runner.count))
                if runner and runner.count < w.count else
                _("{pair} is seen {times}, more than any other pair.", pair=pair, times=times(w.count)))
        score = " " + _("Its WordPiece score is {score}.", score=score_sum(w))
        other = (_("WordPiece picks it too: it also has the highest score.") if s.agree else
                 _("WordPiece would pick {pair} instead: seen only {times}, but its score is {score}.",
                   pair=pair_text(o.left, o.right), times=times(o.count), score=score_sum(o)))
        text = f"{head}{score} {other}"
    else:
        head = _("{pair} has the highest score: {score}.", pair=pair, score=score_sum(w))
        left, right = visible_token(w.left), visible_token(w.right)
        if w.count == w.left_count and w.count == w.right_count:
            alone = " " + _("{left} and {right} never occur apart.", left=left, right=right)
        elif w.count == w.left_count:
            alone = " " + _("Every {left} is followed by {right}.", left=left, right=right)
        elif w.count == w.right_count:
            alone = " " + _("Every {right} comes after {left}.", left=left, right=right)
        else:
            alone = ""
        other = (_("BPE picks it too: it is also the most frequent pair.") if s.agree else
                 _("It is seen {times}; BPE would pick {pair}, seen {other_times}, whose score is only {score}.",
                   times=times(w.count), pair=pair_text(o.left, o.right), other_times=times(o.count),
                   score=score_sum(o)))
        text = f"{head}{alone} {other}"
    tie = tie_sentence(trace, s)
    return text + ("\n" + tie if tie else "")


def merge_line(trace: RuleTrace, k: int) -> str:
    """``[h] + [a] → [ha]`` as chips, the new token highlighted."""
    s = trace.steps[k - 1]
    tok = trace.tokenizer

    def chip(token_id: int, label: str, hl: bool = False) -> Chip:
        return Chip(label, token_id, whole=tok.is_whole(token_id), highlight=hl)

    value = (times(s.winner.count) if trace.rule == "count" else
             _("score {score}", score=fmt_score(float(s.winner.score))))
    return CHIPS_CSS + merge_html(chip(s.winner.pair[0], s.winner.left), chip(s.winner.pair[1], s.winner.right),
                                  chip(s.token_id, s.token, True), after=value)


# -- the corpus after a merge -----------------------------------------------------------------------
def _top_words(trace: RuleTrace, limit: int) -> list[tuple[str, int]]:
    order = sorted(range(len(trace.words)), key=lambda i: -trace.words[i][1])
    return [trace.words[i] for i in order[:limit]]


@per_language(max_entries=1024, hash_funcs=BY_RUN)
def corpus_html(run: Run, rule: str, k: int, limit: int, hashes: bool = False) -> str:
    """The most frequent corpus words after k merges of this rule (``hashes``: written with ##, the
    WordPiece way). Cached per (run, ``rule``, step, language: the chips' tooltips are in it)."""
    trace = rule_trace(run, rule)
    tok = trace.tokenizer
    k = min(k, len(trace.steps))
    new_id = trace.steps[k - 1].token_id if k else None
    rows = []
    for word, count in _top_words(trace, limit):
        ids = tok.segment(word, k)
        labels = [tok.label(i) for i in ids]
        if hashes:
            labels = continuation_labels(labels)
        chips = [Chip(label, i, whole=tok.is_whole(i), highlight=i == new_id, data=tok.token_bytes(i))
                 for i, label in zip(ids, labels)]
        rows.append((word, chips, count))
    return CHIPS_CSS + word_rows_html(rows)


@st.cache_data(max_entries=512, show_spinner=False, hash_funcs=BY_RUN)
def corpus_tokens(run: Run, rule: str, k: int) -> int:
    """How many tokens the whole corpus is after k merges of this rule."""
    trace = rule_trace(run, rule)
    tok = trace.tokenizer
    k = min(k, len(trace.steps))
    return sum(n * len(tok.segment(word, k)) for word, n in trace.words)


def sequences_frame(bpe: RuleTrace, wp: RuleTrace, k: int) -> pd.DataFrame:
    """Merges 1..k of both rules, side by side."""
    rows = []
    for i in range(k):
        b = bpe.steps[i] if i < len(bpe.steps) else None
        w = wp.steps[i] if i < len(wp.steps) else None
        rows.append({
            "merge": i + 1,
            "BPE merges": f"{pair_text(b.winner.left, b.winner.right)} → {visible_token(b.token)}" if b else "—",
            "count": b.winner.count if b else None,
            "WordPiece merges": f"{pair_text(w.winner.left, w.winner.right)} → {visible_token(w.token)}" if w else "—",
            "score": fmt_score(float(w.winner.score)) if w else "—",
            "same pair": _("yes") if b and w and b.winner.pair == w.winner.pair else "",
        })
    frame = pd.DataFrame(rows, columns=["merge", "BPE merges", "count", "WordPiece merges", "score", "same pair"])
    frame["count"] = frame["count"].astype("Int64")
    return frame


def sequences_columns() -> dict:
    """The sequences table's columns named in the current language."""
    return {"merge": st.column_config.NumberColumn(_("merge")),
            "BPE merges": st.column_config.TextColumn(_("BPE merges")),
            "count": st.column_config.NumberColumn(_("count")),
            "WordPiece merges": st.column_config.TextColumn(_("WordPiece merges")),
            "score": st.column_config.TextColumn(_("score"), help=_("WordPiece's score of its pick.")),
            "same pair": st.column_config.TextColumn(_("same pair"))}



# -- drawing the part ----------------------------------------------------------------------------------
REAL_WORDPIECE = N_("## and the real WordPiece")
def draw_rule(run: Run, rule: str, k: int, show: Show, *, why_too: bool = True) -> None:
    """One rule's column at step k: its merge, its chart, why (``why_too``; classroom mode draws it under the
    figure, :func:`draw_why`)."""
    trace = rule_trace(run, rule)
    name = trace.name
    st.markdown(f"**{name}**: " + (_("the most frequent pair") if trace.rule == "count" else _("the highest score")))
    step = state_step(trace, k)
    if step is None:
        st.info(_("{name} has stopped: every word is a single token, so no pair is left to merge.", name=name))
        return
    if k:
        st.html(merge_line(trace, k))
    rows = pair_rows(step, trace.rule, reveal=k > 0, limit=LARGE_TOP_PAIRS if show.large else TOP_PAIRS)
    charts.draw(chart_spec(rows_key(rows), trace.rule, show.large), key=CHART.of(trace.rule))
    shown = min(len(rows), LARGE_TOP_PAIRS if show.large else TOP_PAIRS)
    if not show.large:
        st.caption(_n("The top {shown} of {n} distinct pair before merge {k}",
                      "The top {shown} of {n} distinct pairs before merge {k}", step.n_pairs, shown=number(shown),
                      k=number(max(k, 1)))
                   + (_(", and the other rule's pick.") if len(rows) > shown else _(".")))
    if k and why_too:
        draw_why(run, rule, k)


def draw_why(run: Run, rule: str, k: int) -> None:
    """Why the rule picked its pair at step k (nothing before merge 1 or once it has stopped)."""
    trace = rule_trace(run, rule)
    if k and state_step(trace, k) is not None:
        st.html(callout_html(why(run, trace.rule, k)))


def draw_steps(run: Run, show: Show) -> None:
    bpe, wp = rule_traces(run)
    n = max(len(bpe.steps), len(wp.steps))
    # The heading, Next, then each rule's merge, chart and why: one laptop screen. The slider comes after the charts.
    with st.container(key=viewport.action("family")):
        heading = st.empty()  # filled once the stepper has said which step (an autoplay tick moves it on)
        k = STEPPER.draw(n)
        title = (_("Merge {k} of {n}", k=number(k), n=number(n)) if k else
                 _("Before merge 1 of {n}", n=number(n)))
        heading.markdown(f"#### {title}")
    state.publish([STEP])
    with st.container(key=viewport.result("family")):
        if k == 0:
            st.markdown(_("**Before any merge** both rules see the same corpus and the same pairs; the charts show "
                          "each rule's top pairs. Press **Next**: which pair does each merge first?"))
        slide = show.classroom  # classroom mode: each rule's merge and chart on the first screen, why under them
        left, right = figure("merge-rules").columns(2, gap="large")
        with left:
            draw_rule(run, "count", k, show, why_too=not slide)
        with right:
            draw_rule(run, "score", k, show, why_too=not slide)
        if slide and k:
            for column, rule in zip(st.columns(2, gap="large"), ("count", "score")):
                with column:
                    draw_why(run, rule, k)
    if not show.large:
        st.slider(_("Merge (0 = before any)"), min_value=0, max_value=n, key=STEP.skey)
    words = LARGE_TOP_WORDS if show.large else TOP_WORDS
    heading, toggle = st.columns([3, 2], vertical_alignment="center")
    heading.markdown(_("**The corpus after merge {k}**, cut by each rule's merges", k=number(k)) if k else
                     _("**The corpus before any merge**, cut by each rule's merges"))
    hashes = toggle.toggle(_("WordPiece with ##"), key=HASHES.skey,
                           help=_("Write WordPiece's tokens as a WordPiece vocabulary does: ## on every piece after a "
                                  "word's first (see “{title}” below).", title=_(REAL_WORDPIECE)))
    state.publish([HASHES])
    c_bpe, c_wp = st.columns(2, gap="large")
    for column, trace in ((c_bpe, bpe), (c_wp, wp)):
        with column:
            st.html(corpus_html(run, trace.rule, k, words, hashes and trace.rule == "score"))
            tokens = corpus_tokens(run, trace.rule, k)
            st.caption(
                _n("{name}: the whole corpus is {n} token (the {words} most frequent of {distinct} shown).",
                    "{name}: the whole corpus is {n} tokens (the {words} most frequent of {distinct} shown).", tokens,
                    name=trace.name, words=number(words),
                    distinct=_n("{n} distinct word", "{n} distinct words", len(trace.words)))
                 if len(trace.words) > words else
                 _n("{name}: the whole corpus is {n} token.", "{name}: the whole corpus is {n} tokens.", tokens,
                    name=trace.name))
    if k:
        st.markdown(_("**Both merge sequences so far**"))
        tables.show(sequences_frame(bpe, wp, k), hide_index=True, key=SEQUENCES.skey, column_config=sequences_columns())
    with st.expander(_("The numbers behind the charts: count(a b), count(a), count(b) and the score"),
                     key=NUMBERS_OPEN.skey, on_change="rerun", icon=":material/calculate:") as box:
        if box.open:
            for trace in (bpe, wp):
                step = state_step(trace, k)
                if step is None:
                    continue
                st.markdown(_("**{name}'s corpus before merge {k}**", name=trace.name, k=number(max(k, 1))))
                rows = pair_rows(step, trace.rule, reveal=k > 0, limit=TOP_PAIRS)
                tables.show(numbers_frame(rows), hide_index=True, key=NUMBERS.of(trace.rule),
                             column_config=numbers_columns())


def part_merges(show: Show) -> None:
    with show.folded(_("The corpus and the merges")):  # classroom mode: folded, the two rules' merges are the slide
        corpus, preset_id, params = corpus_picker("merges", show)
    merges_param = params["merges"]
    state.restore([STEP, HASHES])
    state.publish([PRESET, TEXT, merges_param])
    if not show.large:  # on a projector the charts' axes carry the two formulas
        count, score = md_escape(said("rules", "count")), md_escape(said("rules", "score"))
        st.markdown(f"- {count}\n- {score}")
        st.caption(md_escape(said("rules", "why") + " " + said("ties")))
    if corpus is None:
        return
    merges = int(st.session_state[merges_param.skey])
    run = rules_run(corpus, merges, preset_id)
    try:
        with st.spinner(_("Training both rules…")):  # in the learner's language, the first time only
            bpe, wp = rule_traces(run)
    except ValueError as exc:
        st.html(callout_html(_("Cannot train on this text: {why}", why=exc), "warning"))
        return
    if merges == 0 or not (bpe.steps or wp.steps):
        st.info(_("0 merges: set **Merges** above 0 to watch both rules learn.") if merges == 0 else
                _("Every word is a single symbol already: there is no pair to merge."))
        return
    st.fragment(draw_steps, run_every=STEPPER.run_every())(run, show)
    with st.expander(_(REAL_WORDPIECE), icon=":material/tag:"):
        st.markdown(md_escape(said("continuation")))
        st.caption(md_escape(said("hf_note")))
