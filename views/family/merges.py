"""Part 1, "BPE vs WordPiece": both rules trained on one corpus (cached for everyone), stepped merge by merge side
by side, each with its chart, why it picked its pair, and the corpus its merges cut.
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

import altair as alt
import pandas as pd
import streamlit as st

from family.ruletext import fmt_score, score_sum, tie_sentence
from family.wordpiece import RULE_NAMES, RuleStep, RuleTrace, continuation_labels, train_by_rule
from ui import charts, state, tables, viewport
from ui.chips import CSS as CHIPS_CSS
from ui.chips import Chip, merge_html, word_rows_html
from ui.display import callout_html, md_escape, pair_text, plural, visible_token
from ui.layout import figure
from ui.show import Show
from ui.training import BY_RUN, Run

from .corpus import corpus_picker
from .settings import (
    CHART,
    CONTENT,
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
    settings_for,
)


# -- cached engine results -------------------------------------------------------------------------
def rules_run(corpus: str, merges: int, preset_id: str) -> Run:
    """One training of both rules on a corpus with a preset's settings: what its traces, and the per-step caches
    below, are keyed by (:class:`ui.training.Run`: the real inputs, so two runs can never share a cache entry)."""
    return Run.of(corpus, merges, settings_for(preset_id))


@st.cache_resource(max_entries=32, show_spinner="Training both rules…", hash_funcs=BY_RUN)
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
    return plural(n, "time")


# -- one rule's state at a step ---------------------------------------------------------------------
def state_step(trace: RuleTrace, k: int) -> RuleStep | None:
    """The step whose table is shown at step k: merge k's (at step 0, merge 1's), None past the end."""
    index = max(k, 1) - 1
    return trace.steps[index] if index < len(trace.steps) else None


def statuses(rule: str) -> tuple[str, ...]:
    me, other = RULE_NAMES[rule], RULE_NAMES["score" if rule == "count" else "count"]
    return (f"{me} merges it", f"{other} would merge it", "both rules pick it", charts.TIE_LOST,
            "top value (before merge 1)", "other pairs")


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
    arrow = {names[0]: f"  ← {RULE_NAMES[rule]}", names[1]: "  ← the other rule", names[2]: "  ← both",
             names[3]: "  tie"}
    out = []
    for r in rows:
        if rule == "count":
            mark = f"{r['count']:,} · score {fmt_score(r['score'])}"
        else:
            mark = f"{fmt_score(r['score'])} · count {r['count']:,}"
        out.append({**r, "bar": f"{r['rank']}. {r['pair']}", "mark": mark + arrow.get(r["status"], "")})
    return out


@lru_cache(maxsize=4)
def _template(rule: str, large: bool) -> str:
    """The chart with no data, as JSON (built and validated by Altair once per process)."""
    if rule == "count":
        x, title, fmt = "count", "times seen: count(a b)", None
        tip = [alt.Tooltip("count:Q", title="count(a b)"), alt.Tooltip("score_text:N", title="WordPiece score")]
    else:
        x, title, fmt = "score", "score: count(a b) ÷ (count(a) × count(b))", ".2~f"
        tip = [alt.Tooltip("score_text:N", title="score"), alt.Tooltip("count:Q", title="count(a b)")]
    chart = charts.ranked_bars(
        CHART_DATA, x=x, x_title=title, statuses=statuses(rule), colours=STATUS_COLOURS, dashed=statuses(rule)[3],
        large=large, x_format=fmt, legend_columns=2,
        tooltip=[alt.Tooltip("pair:N", title="pair"), *tip, alt.Tooltip("status:N", title="note")],
    )
    return json.dumps(charts.themed(chart, large=large).to_dict())


@st.cache_data(max_entries=512, show_spinner=False)
def chart_spec(rows: tuple[tuple[tuple[str, Any], ...], ...], rule: str, large: bool) -> dict:
    """One rule's chart at one step: the validated template, filled with its rows."""
    records = chart_records([dict(r) for r in rows], rule)
    return charts.fill_ranked_bars(json.loads(_template(rule, large)), records, data_name=CHART_DATA,
                                   x="count" if rule == "count" else "score", statuses=statuses(rule),
                                   headroom=2.9 if large else 2.3)


def numbers_frame(rows: list[dict[str, Any]]) -> pd.DataFrame:
    """The rows as a table: the three counts, the score, the note."""
    frame = pd.DataFrame(rows, columns=["rank", "pair", "count", "left_count", "right_count", "score", "status"])
    return frame.rename(columns={"count": "count(a b)", "left_count": "count(a)", "right_count": "count(b)",
                                 "status": "note"})


# -- sentences -------------------------------------------------------------------------------------
@st.cache_data(max_entries=1024, show_spinner=False, hash_funcs=BY_RUN)
def why(run: Run, rule: str, k: int) -> str:
    """Why this rule picked its pair at merge k, with the other rule's view of the same pair (plain text).
    Cached per (run, ``rule``, step)."""
    trace = rule_trace(run, rule)
    s = trace.steps[k - 1]
    w, o = s.winner, s.other
    pair = pair_text(w.left, w.right)
    if trace.rule == "count":
        runner = next((c for c in s.by_count if c.pair != w.pair), None)
        head = f"{pair} is seen {times(w.count)}, more than any other pair" + (
            f" (next: {pair_text(runner.left, runner.right)}, {times(runner.count)})." if runner and runner.count < w.count
            else ".")
        score = f" Its WordPiece score is {score_sum(w)}."
        other = ("WordPiece picks it too: it also has the highest score." if s.agree else
                 f"WordPiece would pick {pair_text(o.left, o.right)} instead: seen only {times(o.count)}, but its score "
                 f"is {score_sum(o)}.")
        text = f"{head}{score} {other}"
    else:
        head = f"{pair} has the highest score: {score_sum(w)}."
        if w.count == w.left_count and w.count == w.right_count:
            alone = f" {visible_token(w.left)} and {visible_token(w.right)} never occur apart."
        elif w.count == w.left_count:
            alone = f" Every {visible_token(w.left)} is followed by {visible_token(w.right)}."
        elif w.count == w.right_count:
            alone = f" Every {visible_token(w.right)} comes after {visible_token(w.left)}."
        else:
            alone = ""
        other = ("BPE picks it too: it is also the most frequent pair." if s.agree else
                 f"It is seen {times(w.count)}; BPE would pick {pair_text(o.left, o.right)}, seen {times(o.count)}, "
                 f"whose score is only {score_sum(o)}.")
        text = f"{head}{alone} {other}"
    tie = tie_sentence(trace, s)
    return text + ("\n" + tie if tie else "")


def merge_line(trace: RuleTrace, k: int) -> str:
    """``[h] + [a] → [ha]`` as chips, the new token highlighted."""
    s = trace.steps[k - 1]
    tok = trace.tokenizer

    def chip(token_id: int, label: str, hl: bool = False) -> Chip:
        return Chip(label, token_id, whole=tok.is_whole(token_id), highlight=hl)

    value = times(s.winner.count) if trace.rule == "count" else f"score {fmt_score(float(s.winner.score))}"
    return CHIPS_CSS + merge_html(chip(s.winner.pair[0], s.winner.left), chip(s.winner.pair[1], s.winner.right),
                                  chip(s.token_id, s.token, True), after=value)


# -- the corpus after a merge -----------------------------------------------------------------------
def _top_words(trace: RuleTrace, limit: int) -> list[tuple[str, int]]:
    order = sorted(range(len(trace.words)), key=lambda i: -trace.words[i][1])
    return [trace.words[i] for i in order[:limit]]


@st.cache_data(max_entries=1024, show_spinner=False, hash_funcs=BY_RUN)
def corpus_html(run: Run, rule: str, k: int, limit: int, hashes: bool = False) -> str:
    """The most frequent corpus words after k merges of this rule (``hashes``: written with ##, the
    WordPiece way). Cached per (run, ``rule``, step)."""
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
            "same pair": "yes" if b and w and b.winner.pair == w.winner.pair else "",
        })
    frame = pd.DataFrame(rows, columns=["merge", "BPE merges", "count", "WordPiece merges", "score", "same pair"])
    frame["count"] = frame["count"].astype("Int64")
    return frame



# -- drawing the part ----------------------------------------------------------------------------------
def draw_rule(run: Run, rule: str, k: int, show: Show, *, why_too: bool = True) -> None:
    """One rule's column at step k: its merge, its chart, why (``why_too``; classroom mode draws it under the
    figure, :func:`draw_why`)."""
    trace = rule_trace(run, rule)
    name = trace.name
    st.markdown(f"**{name}**: " + ("the most frequent pair" if trace.rule == "count" else "the highest score"))
    step = state_step(trace, k)
    if step is None:
        st.info(f"{name} has stopped: every word is a single token, so no pair is left to merge.")
        return
    if k:
        st.html(merge_line(trace, k))
    rows = pair_rows(step, trace.rule, reveal=k > 0, limit=LARGE_TOP_PAIRS if show.large else TOP_PAIRS)
    charts.draw(chart_spec(rows_key(rows), trace.rule, show.large), key=CHART.of(trace.rule))
    shown = min(len(rows), LARGE_TOP_PAIRS if show.large else TOP_PAIRS)
    if not show.large:
        st.caption(f"The top {shown} of {plural(step.n_pairs, 'distinct pair')} before merge {max(k, 1)}"
                   + (", and the other rule's pick." if len(rows) > shown else "."))
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
        heading.markdown(f"#### {f'Merge {k} of {n}' if k else f'Before merge 1 of {n}'}")
    state.publish([STEP])
    with st.container(key=viewport.result("family")):
        if k == 0:
            st.markdown("**Before any merge** both rules see the same corpus and the same pairs; the charts show each "
                        "rule's top pairs. Press **Next**: which pair does each merge first?")
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
        st.slider("Merge (0 = before any)", min_value=0, max_value=n, key=STEP.skey)
    words = LARGE_TOP_WORDS if show.large else TOP_WORDS
    title = f"The corpus after merge {k}" if k else "The corpus before any merge"
    heading, toggle = st.columns([3, 2], vertical_alignment="center")
    heading.markdown(f"**{title}**, cut by each rule's merges")
    hashes = toggle.toggle("WordPiece with ##", key=HASHES.skey,
                           help="Write WordPiece's tokens as a WordPiece vocabulary does: ## on every piece after a "
                           "word's first (see “## and the real WordPiece” below).")
    state.publish([HASHES])
    c_bpe, c_wp = st.columns(2, gap="large")
    for column, trace in ((c_bpe, bpe), (c_wp, wp)):
        with column:
            st.html(corpus_html(run, trace.rule, k, words, hashes and trace.rule == "score"))
            st.caption(f"{trace.name}: the whole corpus is {plural(corpus_tokens(run, trace.rule, k), 'token')}"
                       + (f" (the {words} most frequent of {plural(len(trace.words), 'distinct word')} shown)."
                          if len(trace.words) > words else "."))
    if k:
        st.markdown("**Both merge sequences so far**")
        tables.show(sequences_frame(bpe, wp, k), hide_index=True, key=SEQUENCES.skey,
                     column_config={"score": st.column_config.TextColumn(help="WordPiece's score of its pick.")})
    with st.expander("The numbers behind the charts: count(a b), count(a), count(b) and the score",
                     key=NUMBERS_OPEN.skey, on_change="rerun", icon=":material/calculate:") as box:
        if box.open:
            for trace in (bpe, wp):
                step = state_step(trace, k)
                if step is None:
                    continue
                st.markdown(f"**{trace.name}'s corpus before merge {max(k, 1)}**")
                rows = pair_rows(step, trace.rule, reveal=k > 0, limit=TOP_PAIRS)
                tables.show(numbers_frame(rows), hide_index=True, key=NUMBERS.of(trace.rule),
                             column_config={"score": st.column_config.NumberColumn(format="%.4f")})


def part_merges(show: Show) -> None:
    with show.folded("The corpus and the merges"):  # classroom mode: folded, the two rules' merges are the slide
        corpus, preset_id, params = corpus_picker("merges", show)
    merges_param = params["merges"]
    state.restore([STEP, HASHES])
    state.publish([PRESET, TEXT, merges_param])
    if not show.large:  # on a projector the charts' axes carry the two formulas
        st.markdown(f"- {md_escape(CONTENT['rules']['count'])}\n- {md_escape(CONTENT['rules']['score'])}")
        st.caption(md_escape(CONTENT["rules"]["why"] + " " + CONTENT["ties"]))
    if corpus is None:
        return
    merges = int(st.session_state[merges_param.skey])
    run = rules_run(corpus, merges, preset_id)
    try:
        bpe, wp = rule_traces(run)
    except ValueError as exc:
        st.html(callout_html(f"Cannot train on this text: {exc}", "warning"))
        return
    if merges == 0 or not (bpe.steps or wp.steps):
        st.info("0 merges: set **Merges** above 0 to watch both rules learn." if merges == 0 else
                "Every word is a single symbol already: there is no pair to merge.")
        return
    st.fragment(draw_steps, run_every=STEPPER.run_every())(run, show)
    with st.expander("## and the real WordPiece", icon=":material/tag:"):
        st.markdown(md_escape(CONTENT["continuation"]))
        st.caption(md_escape(CONTENT["hf_note"]))
