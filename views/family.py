"""What "The family" page draws: BPE beside WordPiece step by step, Unigram's pieces and samples,
a real tokenizer's stages, a chat template's special tokens.

The page reads its widgets and calls the engine (:mod:`family.wordpiece`,
:mod:`family.unigram`, :mod:`family.pipeline`, :mod:`family.chat`)
through the cached helpers here; everything a click redraws is cached per
(corpus, settings, step), so a classroom stepping through a preset shares the work.

Step semantics: step 0 is before any merge (both rules see the same pairs);
step *k* shows each rule's pair table *before* its merge *k*, the pair it
picks, and its corpus *after* merge *k*. After their first different merge
the two corpora differ, so each rule's table is its own corpus's.
"""

from __future__ import annotations

import json
import math
from dataclasses import replace
from functools import lru_cache
from typing import Any, NamedTuple

import altair as alt
import pandas as pd
import streamlit as st

import lessons
from family import real
from family.chat import mistral_chat
from family.pipeline import stages
from family.real import TokenizerUnavailable
from family.ruletext import fmt_score, score_sum, tie_sentence
from family.unigram import META, UnigramError, minimum_vocab, train_unigram
from family.wordpiece import RULE_NAMES, RuleStep, RuleTrace, continuation_labels, train_by_rule
from tokenizer import is_whole
from ui import charts, choices, presets, state, tables, viewport
from ui.chips import CSS as CHIPS_CSS
from ui.chips import Chip, chip_from_token, chips_html, merge_html, token_chips, word_rows_html
from ui.display import callout_html, is_mark, md_code, md_escape, pair_text, plural, readable_text, visible_token
from ui.layout import classroom_on, controls, figure, large_type_on
from ui.state import Param
from ui.steps import Stepper

PAGE = "family"
CONTENT = lessons.data("family")

PARTS = ("merges", "unigram", "pipeline", "special")
PART_NAMES = {"merges": "BPE vs WordPiece", "unigram": "Unigram", "pipeline": "The pipeline",
              "special": "Special tokens"}

MAX_OWN_CHARS = 20_000  # the merge comparison recounts every pair at every step: a page or two of text
MAX_COMPARED_MERGES = 200
"""The most merges "BPE vs WordPiece" steps through, both trainers side by side (each step recounts every pair); not
Train's budget (:data:`ui.training.MAX_TRAIN_MERGES`)."""
OWN_MERGES = 20
TEXT_IN_LINK = 400
TOP_PAIRS = 8
LARGE_TOP_PAIRS = 6
TOP_WORDS = 12
LARGE_TOP_WORDS = 6

# Unigram
DEFAULT_VOCAB = 40
NBEST = 5
SAMPLES = 6
ALPHAS = (0.05, 0.1, 0.2, 0.5, 1.0)

# The pipeline and special tokens
SLIDE_IDS = 16
"""Classroom mode: the pipeline's ids shown in its figure (every one is one click away, under it)."""
PIPELINE_TOKENIZERS = ("cl100k_base", "o200k_base", "qwen3", "mistral-sp-v3", "r50k_base", "llama3", "mistral-tekken")
SPECIAL_TOKENIZERS = ("cl100k_base", "o200k_base", "r50k_base", "qwen3", "llama3")
ENDOFTEXT = "<|endoftext|>"
MAX_PIPELINE_CHARS = 2_000
MAX_PIPELINE_TOKENS = 400
MAX_MESSAGE_CHARS = 300
CHAT = tuple((m["role"], m["content"]) for m in CONTENT["chat"])


# -- the corpus ------------------------------------------------------------------------------------
def merges_default(preset_id: str) -> int:
    preset = lessons.presets().get(preset_id)
    return min(preset.merges, MAX_COMPARED_MERGES) if preset else OWN_MERGES


def word_default(preset_id: str) -> str:
    preset = lessons.presets().get(preset_id)
    return preset.examples[0] if preset and preset.examples else ""


def vocab_default(preset_id: str) -> int:
    """A Unigram vocabulary a little above the characters the preset's corpus must keep."""
    preset = lessons.presets().get(preset_id)
    if preset is None:
        return DEFAULT_VOCAB
    return max(DEFAULT_VOCAB, minimum_vocab(preset.corpus) + 20)


PART = Param(PAGE, "part", "merges", choices=PARTS)
PRESET = Param(PAGE, "preset", "chai", choices=presets.preset_ids())
TEXT = Param(PAGE, "text", "", max_len=TEXT_IN_LINK)
STEP = Param(PAGE, "step", 0, lo=0, hi=MAX_COMPARED_MERGES)
STEPPER = Stepper(STEP)
HASHES = Param(PAGE, "hashes", False)
ALPHA = Param(PAGE, "alpha", 0.1, choices=ALPHAS)
SEED = Param(PAGE, "seed", 1, lo=0, hi=2**31 - 1)
PTEXT = Param(PAGE, "ptext", lessons.data("lesson4_english_hindi")["test_hi"], max_len=600)
STOK = Param(PAGE, "stok", "cl100k_base", choices=SPECIAL_TOKENIZERS)
SPECIAL = Param(PAGE, "special", ENDOFTEXT, max_len=60)
MESSAGES = tuple(Param(PAGE, f"m{i}", content, max_len=MAX_MESSAGE_CHARS) for i, (_, content) in enumerate(CHAT))
SEQUENCES = state.Key(PAGE, "sequences")
NUMBERS_OPEN = state.Key(PAGE, "numbers_open")
PIECES = state.Key(PAGE, "pieces")
USE_MINIMUM = state.Key(PAGE, "use_minimum")
AGAIN = state.Key(PAGE, "again")
ABOUT_OPEN = state.Key(PAGE, "about_open")
CHAT_RESET = state.Key(PAGE, "chat_reset")


def chart_key(rule: str) -> state.Key:
    """The pairs chart of one rule (``"count"``: BPE, ``"score"``: WordPiece)."""
    return state.Key(PAGE, f"chart.{rule}")


def numbers_key(rule: str) -> state.Key:
    """The numbers table of one rule."""
    return state.Key(PAGE, f"numbers.{rule}")


def word_example_key(i: int) -> state.Key:
    """The ``i``-th example word's button (Unigram)."""
    return state.Key(PAGE, f"word.{i}")


def ptext_example_key(i: int) -> state.Key:
    """The ``i``-th example text's button (the pipeline)."""
    return state.Key(PAGE, f"ptext.{i}")


MERGES = Param(PAGE, "merges", OWN_MERGES, lo=0, hi=MAX_COMPARED_MERGES)
VOCAB = Param(PAGE, "vocab", DEFAULT_VOCAB, lo=1, hi=5_000)
WORD = Param(PAGE, "word", "", max_len=200)
"""The settings whose defaults follow the corpus: each corpus's own are :func:`corpus_params`."""


def corpus_params(preset_id: str) -> dict[str, Param]:
    """The settings whose defaults follow the corpus (a link carries only what the learner changed)."""
    return {
        "merges": replace(MERGES, default=merges_default(preset_id)),
        "vocab": replace(VOCAB, default=vocab_default(preset_id)),
        "word": replace(WORD, default=word_default(preset_id)),
    }


def apply_preset() -> None:
    """on_change of the corpus box: the new corpus's defaults, step 0."""
    preset_id = st.session_state.get(PRESET.skey, PRESET.default)
    for param in corpus_params(preset_id).values():
        st.session_state[param.skey] = param.default
    Stepper(STEP).reset()  # step 0, autoplay off


def settings_for(preset_id: str) -> dict[str, Any]:
    """The trainer settings of a preset (your own text: characters, whitespace split, no marker)."""
    return presets.preset_settings(preset_id).config().to_dict()


def settings_summary(preset_id: str) -> str:
    s = presets.preset_settings(preset_id)
    split = "whitespace split" if s.split == "whitespace" else f"regex pre-split {visible_token(s.pattern)}"
    marker = f"end-of-word marker {s.end_of_word}" if s.end_of_word else "no end-of-word marker"
    return f"{presets.UNIT_NAMES[s.unit]} · {split} · {marker}"


# -- cached engine results -------------------------------------------------------------------------
def _items(settings: dict[str, Any]) -> tuple[tuple[str, Any], ...]:
    return tuple(sorted(settings.items()))


@st.cache_resource(max_entries=32, show_spinner="Training both rules…")
def rule_traces(corpus: str, merges: int, settings: tuple[tuple[str, Any], ...]) -> tuple[RuleTrace, RuleTrace]:
    """BPE's and WordPiece's merge sequences on one corpus, once per (corpus, merges, settings) for everyone."""
    kw = dict(settings)
    return (train_by_rule(corpus, merges, rule="count", table_size=TOP_PAIRS, **kw),
            train_by_rule(corpus, merges, rule="score", table_size=TOP_PAIRS, **kw))


def traces(corpus: str, merges: int, preset_id: str) -> tuple[RuleTrace, RuleTrace]:
    return rule_traces(corpus, merges, _items(settings_for(preset_id)))


class Run(NamedTuple):
    """One training of both rules: what its traces, and the per-step caches below, are keyed by (the real
    inputs, so two runs can never share a cache entry)."""

    corpus: str
    merges: int
    preset_id: str

    def trace(self, rule: str) -> RuleTrace:
        """The run's trace of one rule (``"count"``: BPE, ``"score"``: WordPiece), from :func:`rule_traces`'s cache."""
        bpe, wp = traces(*self)
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
@st.cache_data(max_entries=1024, show_spinner=False)
def why(run: Run, rule: str, k: int) -> str:
    """Why this rule picked its pair at merge k, with the other rule's view of the same pair (plain text).
    Cached per (run, ``rule``, step)."""
    trace = run.trace(rule)
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


@st.cache_data(max_entries=1024, show_spinner=False)
def corpus_html(run: Run, rule: str, k: int, limit: int, hashes: bool = False) -> str:
    """The most frequent corpus words after k merges of this rule (``hashes``: written with ##, the
    WordPiece way). Cached per (run, ``rule``, step)."""
    trace = run.trace(rule)
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


@st.cache_data(max_entries=512, show_spinner=False)
def corpus_tokens(run: Run, rule: str, k: int) -> int:
    """How many tokens the whole corpus is after k merges of this rule."""
    trace = run.trace(rule)
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


# -- Unigram ---------------------------------------------------------------------------------------
@st.cache_resource(max_entries=32, show_spinner="Training Unigram with SentencePiece…")
def unigram_model(corpus: str, vocab_size: int):
    """A Unigram model once per (corpus, size) for everyone (raises UnigramError, in words)."""
    return train_unigram(corpus, vocab_size)


@st.cache_data(max_entries=256, show_spinner=False)
def pieces_frame(corpus: str, vocab_size: int) -> pd.DataFrame:
    model = unigram_model(corpus, vocab_size)
    ranked = model.by_score()
    return pd.DataFrame({
        "piece": [visible_token(p.piece) for p in ranked],
        "score": [round(p.score, 3) for p in ranked],
        "probability": [p.probability for p in ranked],
        "kind": ["character" if p.kind == "character" else "longer" for p in ranked],
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
        return "the best"
    return f"1 in {1 / ratio:,.0f}" if ratio < 0.5 else f"{ratio:.0%} as likely"


# -- the pipeline and special tokens -------------------------------------------------------------------
@st.cache_data(max_entries=128, show_spinner=False)
def pipeline(key: str, text: str):
    """A real tokenizer's stages on a text (cached per tokenizer and text)."""
    return stages(real.load(key), text, limit=MAX_PIPELINE_TOKENS)


@st.cache_data(max_entries=64, show_spinner="Wrapping the chat in Mistral's template…")
def chat(messages: tuple[tuple[str, str], ...]):
    return mistral_chat(messages)


def code_points(text: str) -> str:
    return " ".join(f"U+{ord(ch):04X}" for ch in text)

# --- the corpus (BPE vs WordPiece, and Unigram) --------------------------------------------------
def corpus_picker(setting: str) -> tuple[str | None, str, dict[str, state.Param]]:
    """The corpus box with the part's own setting beside it (``"merges"`` or ``"vocab"``), and your own
    text; returns (corpus or None, preset id, the corpus's params)."""
    preset_id = st.session_state[PRESET.skey]
    params = corpus_params(preset_id)
    state.restore([TEXT, *params.values()])
    pick, number = st.columns([3, 2] if large_type_on() else [3, 1.4], vertical_alignment="bottom")
    pick.selectbox("Corpus", presets.preset_ids(), key=PRESET.skey, format_func=presets.preset_title,
                   on_change=apply_preset,
                   help="The lab's presets (the Train page's worked examples and the English + Hindi news), or your "
                   "own text. Both rules and Unigram train on the same words.")
    if setting == "merges":
        number.number_input("Merges", min_value=0, max_value=MAX_COMPARED_MERGES, step=1, key=params["merges"].skey,
                            on_change=STEPPER.reset, help="How many merges each rule learns (the same for both).")
    else:
        number.number_input("Vocabulary size", min_value=1, max_value=5_000, step=1, key=params["vocab"].skey,
                            help=f"How many pieces Unigram keeps, its {len(META)} special pieces included. A small "
                            "corpus supports only a few beyond its characters.")
    preset = lessons.presets().get(preset_id)
    if not large_type_on():  # on a projector the screen is for the step itself
        st.caption(md_escape(f"{presets.preset_title(preset_id)}: {settings_summary(preset_id)}"
                             + (f". {preset.note}" if preset is not None and preset.note else "")))
    if preset is None:
        st.text_area("Your text", key=TEXT.skey, height=110, on_change=STEPPER.reset,
                     placeholder="chai chai chaiwala poha pohawala… any language, any script.",
                     help=f"Up to {MAX_OWN_CHARS:,} characters (the comparison recounts every pair at every step). "
                     f"Texts up to {TEXT_IN_LINK} characters go into the page's link.")
        corpus = st.session_state.get(TEXT.skey) or ""
        if not corpus.strip():
            st.info("Type or paste some text above to train on it: a few sentences with repeated words are enough.",
                    icon=":material/edit:")
            return None, preset_id, params
        if len(corpus) > MAX_OWN_CHARS:
            st.warning(f"This text is {len(corpus):,} characters long; this page uses the first {MAX_OWN_CHARS:,} "
                       "(the Train page takes more).", icon=":material/content_cut:")
            corpus = corpus[: MAX_OWN_CHARS]
        return corpus, preset_id, params
    return preset.corpus, preset_id, params


# --- Part 1: BPE vs WordPiece --------------------------------------------------------------------
def draw_rule(run: Run, rule: str, k: int, *, why_too: bool = True) -> None:
    """One rule's column at step k: its merge, its chart, why (``why_too``; classroom mode draws it under the
    figure, :func:`draw_why`)."""
    trace = run.trace(rule)
    name = trace.name
    st.markdown(f"**{name}**: " + ("the most frequent pair" if trace.rule == "count" else "the highest score"))
    step = state_step(trace, k)
    if step is None:
        st.info(f"{name} has stopped: every word is a single token, so no pair is left to merge.")
        return
    if k:
        st.html(merge_line(trace, k))
    rows = pair_rows(step, trace.rule, reveal=k > 0, limit=LARGE_TOP_PAIRS if large_type_on() else TOP_PAIRS)
    charts.draw(chart_spec(rows_key(rows), trace.rule, large_type_on()), key=chart_key(trace.rule).skey)
    shown = min(len(rows), LARGE_TOP_PAIRS if large_type_on() else TOP_PAIRS)
    if not large_type_on():
        st.caption(f"The top {shown} of {plural(step.n_pairs, 'distinct pair')} before merge {max(k, 1)}"
                   + (", and the other rule's pick." if len(rows) > shown else "."))
    if k and why_too:
        draw_why(run, rule, k)


def draw_why(run: Run, rule: str, k: int) -> None:
    """Why the rule picked its pair at step k (nothing before merge 1 or once it has stopped)."""
    trace = run.trace(rule)
    if k and state_step(trace, k) is not None:
        st.html(callout_html(why(run, trace.rule, k)))


def draw_steps(run: Run) -> None:
    bpe, wp = traces(*run)
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
        slide = classroom_on()  # classroom mode: each rule's merge and chart on the first screen, why under them
        left, right = figure("merge-rules").columns(2, gap="large")
        with left:
            draw_rule(run, "count", k, why_too=not slide)
        with right:
            draw_rule(run, "score", k, why_too=not slide)
        if slide and k:
            for column, rule in zip(st.columns(2, gap="large"), ("count", "score")):
                with column:
                    draw_why(run, rule, k)
    if not large_type_on():
        st.slider("Merge (0 = before any)", min_value=0, max_value=n, key=STEP.skey)
    words = LARGE_TOP_WORDS if large_type_on() else TOP_WORDS
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
                tables.show(numbers_frame(rows), hide_index=True, key=numbers_key(trace.rule).skey,
                             column_config={"score": st.column_config.NumberColumn(format="%.4f")})


def part_merges() -> None:
    with controls("The corpus and the merges"):  # classroom mode: folded, the two rules' merges are the slide
        corpus, preset_id, params = corpus_picker("merges")
    merges_param = params["merges"]
    state.restore([STEP, HASHES])
    state.publish([PRESET, TEXT, merges_param])
    if not large_type_on():  # on a projector the charts' axes carry the two formulas
        st.markdown(f"- {md_escape(CONTENT['rules']['count'])}\n- {md_escape(CONTENT['rules']['score'])}")
        st.caption(md_escape(CONTENT["rules"]["why"] + " " + CONTENT["ties"]))
    if corpus is None:
        return
    merges = int(st.session_state[merges_param.skey])
    try:
        bpe, wp = traces(corpus, merges, preset_id)
    except ValueError as exc:
        st.html(callout_html(f"Cannot train on this text: {exc}", "warning"))
        return
    if merges == 0 or not (bpe.steps or wp.steps):
        st.info("0 merges: set **Merges** above 0 to watch both rules learn." if merges == 0 else
                "Every word is a single symbol already: there is no pair to merge.")
        return
    st.fragment(draw_steps, run_every=STEPPER.run_every())(Run(corpus, merges, preset_id))
    with st.expander("## and the real WordPiece", icon=":material/tag:"):
        st.markdown(md_escape(CONTENT["continuation"]))
        st.caption(md_escape(CONTENT["hf_note"]))


# --- Part 2: Unigram ------------------------------------------------------------------------------
def part_unigram() -> None:
    with controls("The corpus and the vocabulary size"):  # classroom mode: folded, the pieces are the slide
        corpus, preset_id, params = corpus_picker("vocab")
    with state.published([PRESET, TEXT, params["vocab"], params["word"], ALPHA, SEED]):
        _unigram(corpus, preset_id, params)


def _unigram(corpus: str | None, preset_id: str, params: dict[str, state.Param]) -> None:
    vocab_param, word_param = params["vocab"], params["word"]
    if not large_type_on():
        st.markdown(md_escape(CONTENT["unigram"]))
    if corpus is None:
        return
    vocab = int(st.session_state[vocab_param.skey])
    try:
        model = unigram_model(corpus, vocab)
    except UnigramError as exc:
        st.html(callout_html(str(exc), "warning"))
        least = minimum_vocab(corpus)
        if 0 < least <= 5_000 and vocab < least:
            st.button(f"Use {least:,}", key=USE_MINIMUM.skey, on_click=state.set_value,
                      args=(vocab_param, least), icon=":material/build:")
        return
    ranked = model.by_score()
    longer = sum(1 for p in ranked if p.kind == "piece")
    cols = st.columns(4 if not large_type_on() or classroom_on() else 2)  # classroom mode: one row, wide screen
    cols[0].metric("Pieces asked for", f"{model.requested:,}")
    cols[1].metric("Pieces kept", f"{model.vocab_size:,}",
                   help=f"With its {len(META)} special pieces ({', '.join(md_code(m) for m in META)}), which "
                   "have no score.")
    cols[2 % len(cols)].metric("Single characters", f"{len(ranked) - longer:,}", help="Every character stays, and ▁.")
    cols[3 % len(cols)].metric("Longer pieces", f"{longer:,}")
    if model.vocab_size < model.requested and not classroom_on():
        st.caption(f"This corpus supports {plural(model.vocab_size, 'piece')}: Unigram can only keep candidate pieces "
                   "that still earn their place after pruning. A longer text supports more.")
    table, segs = figure("unigram-pieces").columns([2, 3] if not large_type_on() else [1, 1], gap="large")
    with table:
        st.markdown("**The pieces, most likely first**")
        tables.show(pieces_table := pieces_frame(corpus, vocab), hide_index=True, key=PIECES.skey,
                     height=min(420, 38 + 35 * len(pieces_table)),
                     column_config={
                         "score": st.column_config.NumberColumn(help="The log of the piece's probability: closer to "
                                                                "0 is more likely."),
                         "probability": st.column_config.NumberColumn(format="percent",
                                                                      help="e to the power of the score."),
                         "kind": st.column_config.TextColumn(help="One character (every one is kept), or longer."),
                     })
        if not large_type_on():
            st.caption(md_escape(CONTENT["unigram_settings"]))
    with segs:
        preset = lessons.presets().get(preset_id)
        st.text_input("Text to segment", key=word_param.skey, max_chars=200,
                      help="A word or a short phrase. Characters the corpus never had stay as one unknown piece.")
        examples = preset.examples if preset else ()
        if examples:
            with st.container(horizontal=True, gap="small", vertical_alignment="center"):
                st.caption("Try:", width="content")
                for i, example in enumerate(examples):
                    st.button(example, key=word_example_key(i).skey, on_click=state.set_value, args=(word_param, example),
                              type="tertiary")
        text = (st.session_state.get(word_param.skey) or "").strip()
        if not text and preset is None:
            text = corpus.split()[0]
            st.caption(md_escape(f"Segmenting the first word of your text, “{text}”."))
        if not text:
            st.info("Type a word or a short phrase to segment.", icon=":material/edit:")
            return
        alpha = st.session_state[ALPHA.skey]
        seed = int(st.session_state[SEED.skey])
        best, nbest, samples = segmentations(corpus, vocab, text, alpha, seed)
        st.markdown(f"**The {plural(len(nbest), 'most likely segmentation')}**, best first (what encoding gives is the "
                    "first)")
        rows = []
        for i, seg in enumerate(nbest, start=1):
            tail = (f'<span class="tl-count" style="white-space:nowrap">score {seg.score:.2f} · '
                    f'{odds(seg.score, nbest[0].score)}</span>')
            rows.append(chips_html(segmentation_chips(seg), label=f"segmentation {i}", tail=tail))
        st.html(CHIPS_CSS + "".join(rows))
        if best.unknown:
            st.caption("White chips with a dotted border: characters the corpus never had, kept as one unknown piece "
                       "(<unk>).")
    st.markdown("**Subword regularisation: segmentations drawn at random**")
    if not large_type_on():
        st.caption(md_escape(CONTENT["regularisation"]))
    c_alpha, c_seed, c_again = st.columns([3, 2, 2], vertical_alignment="bottom")
    c_alpha.select_slider("alpha (smaller: more adventurous)", ALPHAS, key=ALPHA.skey)
    c_seed.number_input("Seed", min_value=0, max_value=2**31 - 1, step=1, key=SEED.skey)
    c_again.button("Sample again", key=AGAIN.skey, icon=":material/casino:",
                   on_click=lambda: state.set_value(SEED, int(st.session_state[SEED.skey]) + 1))
    best_pieces = nbest[0].pieces if nbest else ()
    rows = []
    for i, seg in enumerate(samples, start=1):
        note = "the best split" if seg.pieces == best_pieces else f"score {seg.score:.2f}"
        tail = f'<span class="tl-count" style="white-space:nowrap">draw {i} · {note}</span>'
        rows.append(chips_html(segmentation_chips(seg), label=f"draw {i}", tail=tail))
    st.html(CHIPS_CSS + "".join(rows))
    distinct = len({s.pieces for s in samples})
    st.caption(f"{plural(distinct, 'different segmentation')} in {plural(len(samples), 'draw')} (alpha {alpha:g}, "
               f"seed {seed}). Every one spells the same text: “{readable_text(samples[0].text if samples else text)}”.")


# --- Part 3: the pipeline -------------------------------------------------------------------------
def _use_text(text: str) -> None:
    state.set_value(PTEXT, text)


def part_pipeline() -> None:
    with state.published([PTEXT]):
        _pipeline()


def _pipeline() -> None:
    if not large_type_on():
        st.markdown(md_escape(CONTENT["pipeline"]))
    real_keys = [e.key for e in choices.real_entries()]
    default = next((k for k in PIPELINE_TOKENIZERS if k in real_keys), None)
    if default is None:
        st.warning("No production tokenizer is installed here, so there is no real pipeline to show.")
        return
    with controls("The tokenizer and the text"):  # classroom mode: folded, the four stages are the slide
        key, tok = choices.pick_one(PAGE, default=default, kinds=("real",), label="Real tokenizer", upload=False)
        st.text_area("Text", key=PTEXT.skey, height=90,
                     help=f"Any text; the first {MAX_PIPELINE_CHARS:,} characters are run through the stages.")
        with st.container(horizontal=True, gap="small", vertical_alignment="center"):
            st.caption("Try:", width="content")
            for i, example in enumerate(lessons.examples("family")):
                st.button(example["label"], key=ptext_example_key(i).skey, on_click=_use_text, args=(example["text"],),
                          type="tertiary")
    if tok is None:
        return
    text = st.session_state.get(PTEXT.skey) or ""
    if not text.strip():
        st.info("Type some text above, or pick an example.", icon=":material/edit:")
        return
    if state.too_long([PTEXT]):
        st.caption("This text is too long for the page's link; the link keeps the tokenizer.")
    if len(text) > MAX_PIPELINE_CHARS:
        st.warning(f"The stages are shown for the first {MAX_PIPELINE_CHARS:,} characters.",
                   icon=":material/content_cut:")
        text = text[: MAX_PIPELINE_CHARS]
    try:
        s = pipeline(key, text)
    except (TokenizerUnavailable, ValueError) as exc:
        st.warning(md_escape(str(exc)), icon=":material/error:")
        return

    # Classroom mode: the four stages on one projector screen, two a column, the chips a little tighter; what each
    # stage's marks mean and the tokens as the vocabulary writes them one click away, under it.
    slide = classroom_on()
    box = figure("pipeline-stages")
    first, second = box.columns(2, gap="large") if slide else (box, box)

    def chips(items: list, **kwargs) -> None:
        row = chips_html(items, **kwargs)
        st.html(CHIPS_CSS + (f'<div class="tl-compact">{row}</div>' if slide else row))

    with first:
        st.markdown("#### 1 · Normalise")
        if not slide:
            st.caption(md_escape(CONTENT["normalisers"].get(key, "")))
        st.html(callout_html(readable_text(s.normalized)))
        if s.changes:
            st.markdown("Changed: " + "; ".join(
                f"{md_code(before, visible=False)} ({code_points(before)}) → {md_code(after, visible=False)} "
                f"({code_points(after)})" for before, after in s.changes[:8]))
        elif s.normalized == text and not slide:
            st.caption("Nothing changed for this text.")

        st.markdown("#### 2 · Pre-split")
        if s.pieces is None:
            st.caption(md_escape(CONTENT["presplit_none"]))
        else:
            shown = s.pieces[: MAX_PIPELINE_TOKENS]
            chips([Chip(p, None, piece=i) for i, p in enumerate(shown)], label="pieces", colour_by="position")
            st.caption(f"{plural(len(s.pieces), 'piece')}, cut by the tokenizer's own regular expression; a merge never "
                       "crosses two pieces." + (" The first ones are shown." if len(s.pieces) > len(shown) else ""))
            marked = sum(1 for piece in s.pieces if is_mark(piece[0]))
            if marked and not slide:
                st.caption(md_escape(CONTENT["presplit_marks"].format(pieces=plural(marked, "piece").capitalize())))

    with second:
        st.markdown("#### 3 · Model: the subword model makes tokens")
        chips([chip_from_token(t) for t in s.tokens], label="tokens", mark_pieces=True)
        written = [Chip(raw, t.id, whole=True, piece=t.piece) for raw, t in zip(s.raw, s.tokens)]
        if not slide:
            st.caption(md_escape(CONTENT["markers"]))
            chips(written, label="tokens as the vocabulary writes them", mark_pieces=True, runs=False)

    with first if slide else second:  # classroom mode: under the pre-split, beside the tokens (the longer column)
        st.markdown(f"#### 4 · Ids: {plural(s.count, 'token')}")
        ids = s.ids[:SLIDE_IDS] if slide else s.ids  # classroom mode: the first ones, every one under the figure
        st.code(", ".join(str(i) for i in ids) + (" …" if s.count > len(ids) else ""), language=None, wrap_lines=True)
        if not slide:
            st.caption(md_escape(CONTENT["ids"]))
    if slide:
        with st.expander("How its vocabulary writes the tokens (Ġ, ▁), and what the stages mean",
                         icon=":material/menu_book:"):
            st.caption(md_escape(CONTENT["normalisers"].get(key, "")))
            st.caption(md_escape(CONTENT["markers"]))
            chips(written, label="tokens as the vocabulary writes them", mark_pieces=True, runs=False)
            st.caption(md_escape(CONTENT["ids"]))
            st.code(", ".join(str(i) for i in s.ids) + (" …" if s.count > len(s.ids) else ""), language=None,
                    wrap_lines=True)
    choices.about_box([(key, tok)], key=ABOUT_OPEN.skey, note=choices.OFFLINE_NOTE)


# --- Part 4: special tokens -----------------------------------------------------------------------
def _reset_chat() -> None:
    for param in MESSAGES:
        state.set_value(param, param.default)


def part_special() -> None:
    with state.published([*MESSAGES, STOK, SPECIAL]):
        _special()


def _special() -> None:
    if not large_type_on():
        st.markdown(md_escape(CONTENT["special"]))
    st.markdown("**A short chat, wrapped in a real chat template**")
    with controls("The messages", icon=":material/edit_note:"):
        for (role, _), param in zip(CHAT, MESSAGES):  # classroom mode: folded away, the chat is the slide
            st.text_input(f"{role.capitalize()} message", key=param.skey, max_chars=MAX_MESSAGE_CHARS)
        st.button("Back to the chai-stall chat", key=CHAT_RESET.skey, on_click=_reset_chat, type="tertiary",
                  icon=":material/restart_alt:")
    messages = tuple((role, st.session_state.get(p.skey) or "") for (role, _), p in zip(CHAT, MESSAGES))
    if any(not text.strip() for _, text in messages):
        st.info("Write something in every message: an empty turn is still a turn, but there is nothing to count.",
                icon=":material/edit:")
    else:
        try:
            c = chat(messages)
        except (TokenizerUnavailable, ValueError) as exc:
            st.warning(md_escape(str(exc)), icon=":material/error:")
        else:
            cols = st.columns(4 if not large_type_on() else 2)
            cols[0].metric("Tokens the model reads", f"{c.total:,}")
            cols[1].metric("The messages alone", f"{sum(c.content):,}", help="Each message's text, tokenized on its own.")
            cols[2 % len(cols)].metric("Added by the template", f"{c.added:,}")
            cols[3 % len(cols)].metric("Per message", f"{c.per_message:.1f}")
            with figure("chat-template"):
                token_chips([Chip(t.piece, t.id, whole=is_whole(t.bytes), highlight=t.special, data=t.bytes)
                             for t in c.tokens], label="the templated chat", show_ids=not large_type_on())
            specials = ", ".join(f"{md_code(piece, visible=False)} ×{n}" for piece, n in c.specials())
            st.markdown(f"Highlighted: the special tokens the template put in: {specials}.")
            st.caption(md_escape(CONTENT["template"].format(template=c.template)))

    st.markdown("**Typed as text, or the special token itself?**")
    st.caption(md_escape(CONTENT["endoftext"]))
    c_tok, c_special = st.columns(2)
    key = c_tok.selectbox("Tokenizer", SPECIAL_TOKENIZERS, key=STOK.skey, format_func=choices.title)
    try:
        tok = choices.load(key)
    except choices.Unavailable as exc:
        st.warning(md_escape(str(exc)), icon=":material/error:")
        return
    names = list(tok.special_tokens)
    if st.session_state.get(SPECIAL.skey) not in names:
        state.set_value(SPECIAL, ENDOFTEXT if ENDOFTEXT in names else names[0])
    special = c_special.selectbox("Special token", names, key=SPECIAL.skey)
    typed = tok.encode_tokens(special)
    as_special = tok.encode_special(special)
    st.markdown(f"Typed into a prompt: **{plural(len(typed), 'token')}**")
    token_chips([chip_from_token(t) for t in typed], label="typed", show_ids=True)
    st.markdown(f"Put in by the template: **{plural(len(as_special), 'token')}**, id {as_special[0]:,}")
    token_chips([Chip(special, as_special[0], highlight=True)], label="the special token", show_ids=True)


#: The page's parts, each drawn by one section.
SECTIONS = {"merges": part_merges, "unigram": part_unigram, "pipeline": part_pipeline, "special": part_special}


__all__ = ["META", "PAGE", "PARTS"]
