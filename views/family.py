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

import hashlib
import json
import math
from functools import lru_cache
from typing import Any

import altair as alt
import pandas as pd
import streamlit as st

import lessons
from family.unigram import META
from family.wordpiece import RULE_NAMES, RuleStep, RuleTrace, continuation_labels, train_by_rule
from ui import charts, presets
from ui.chips import CSS as CHIPS_CSS
from ui.chips import Chip, merge_html, word_rows_html
from ui.display import pair_text, plural, visible_token
from family.ruletext import fmt_score, score_sum, tie_sentence  # noqa: F401 (fv.fmt_score is used by tests)
from ui.state import Param
from ui.steps import Stepper

PAGE = "family"
CONTENT = lessons.data("family")

PARTS = ("merges", "unigram", "pipeline", "special")
PART_NAMES = {"merges": "BPE vs WordPiece", "unigram": "Unigram", "pipeline": "The pipeline",
              "special": "Special tokens"}

MAX_OWN_CHARS = 20_000  # the merge comparison recounts every pair at every step: a page or two of text
MAX_MERGES = 200
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
    return min(preset.merges, MAX_MERGES) if preset else OWN_MERGES


def word_default(preset_id: str) -> str:
    preset = lessons.presets().get(preset_id)
    return preset.examples[0] if preset and preset.examples else ""


def vocab_default(preset_id: str) -> int:
    """A Unigram vocabulary a little above the characters the preset's corpus must keep."""
    preset = lessons.presets().get(preset_id)
    if preset is None:
        return DEFAULT_VOCAB
    from family.unigram import minimum_vocab

    return max(DEFAULT_VOCAB, minimum_vocab(preset.corpus) + 20)


PART = Param(PAGE, "part", "merges", choices=PARTS)
PRESET = Param(PAGE, "preset", "chai", choices=presets.preset_ids())
TEXT = Param(PAGE, "text", "", max_len=TEXT_IN_LINK)
STEP = Param(PAGE, "step", 0, lo=0, hi=MAX_MERGES)
HASHES = Param(PAGE, "hashes", False)
ALPHA = Param(PAGE, "alpha", 0.1, choices=ALPHAS)
SEED = Param(PAGE, "seed", 1, lo=0, hi=2**31 - 1)
PTEXT = Param(PAGE, "ptext", lessons.data("lesson4_english_hindi")["test_hi"], max_len=600)
STOK = Param(PAGE, "stok", "cl100k_base", choices=SPECIAL_TOKENIZERS)
SPECIAL = Param(PAGE, "special", ENDOFTEXT, max_len=60)
MESSAGES = tuple(Param(PAGE, f"m{i}", content, max_len=MAX_MESSAGE_CHARS) for i, (_, content) in enumerate(CHAT))


def corpus_params(preset_id: str) -> dict[str, Param]:
    """The settings whose defaults follow the corpus (a link carries only what the learner changed)."""
    return {
        "merges": Param(PAGE, "merges", merges_default(preset_id), lo=0, hi=MAX_MERGES),
        "vocab": Param(PAGE, "vocab", vocab_default(preset_id), lo=1, hi=5_000),
        "word": Param(PAGE, "word", word_default(preset_id), max_len=200),
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


def run_key(corpus: str, merges: int, preset_id: str) -> str:
    """A short key for one run (corpus, merges, settings): what the per-step caches are keyed by."""
    digest = hashlib.sha1(corpus.encode("utf-8", errors="surrogatepass")).hexdigest()[:16]
    return f"{preset_id}|{merges}|{digest}"


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
    return (f"{me} merges it", f"{other} would merge it", "both rules pick it", "tied, lost the tie",
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
def why(key: str, rule: str, _trace: RuleTrace, k: int) -> str:
    """Why this rule picked its pair at merge k, with the other rule's view of the same pair (plain text).
    Cached per (run ``key``, ``rule``, step)."""
    trace = _trace
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
def corpus_html(key: str, rule: str, _trace: RuleTrace, k: int, limit: int, hashes: bool = False) -> str:
    """The most frequent corpus words after k merges of this rule (``hashes``: written with ##, the
    WordPiece way). Cached per (run ``key``, ``rule``, step)."""
    tok = _trace.tokenizer
    k = min(k, len(_trace.steps))
    new_id = _trace.steps[k - 1].token_id if k else None
    rows = []
    for word, count in _top_words(_trace, limit):
        ids = tok.segment(word, k)
        labels = [tok.label(i) for i in ids]
        if hashes:
            labels = continuation_labels(labels)
        chips = [Chip(label, i, whole=tok.is_whole(i), highlight=i == new_id, data=tok.token_bytes(i))
                 for i, label in zip(ids, labels)]
        rows.append((word, chips, count))
    return CHIPS_CSS + word_rows_html(rows)


@st.cache_data(max_entries=512, show_spinner=False)
def corpus_tokens(key: str, rule: str, _trace: RuleTrace, k: int) -> int:
    """How many tokens the whole corpus is after k merges of this rule."""
    tok = _trace.tokenizer
    k = min(k, len(_trace.steps))
    return sum(n * len(tok.segment(word, k)) for word, n in _trace.words)


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
    from family.unigram import train_unigram

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
    from family import real
    from family.pipeline import stages

    return stages(real.load(key), text, limit=MAX_PIPELINE_TOKENS)


@st.cache_data(max_entries=64, show_spinner="Wrapping the chat in Mistral's template…")
def chat(messages: tuple[tuple[str, str], ...]):
    from family.chat import mistral_chat

    return mistral_chat(messages)


def code_points(text: str) -> str:
    return " ".join(f"U+{ord(ch):04X}" for ch in text)


__all__ = ["META", "PAGE", "PARTS"]
