"""What the "English vs Hindi" page draws: the lesson-4 experiment over every share of the training text.

The engine does the work (:mod:`analyses.experiment`): one sweep trains a
tokenizer for every number of Hindi copies, once each at the largest budget,
and counts the two test sentences after every merge; any smaller budget is
read from the same runs (its merges are the first ones of the bigger run).
The sweep is cached per (texts, pair) for every learner (``st.cache_data``),
so dragging a slider only reads it. This module turns it into questions,
tables and charts; each chart is a template built and validated once per
process and filled with its data per click (as on the Train page).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, NamedTuple, Sequence

import altair as alt
import pandas as pd
import streamlit as st

import lessons
from tokenizer import Trace
from analyses.experiment import SCRIPTS, PairCost, Sweep, merges_by_script, mix, parallel_cost, sweep
from ui import charts
from ui import choices
from ui.chips import CSS as CHIPS_CSS
from ui.chips import Chip, chip_from_token, chips_html
from ui.training import trained
from lessons.progress import EVH_DIRECTION, QuestionId
from ui.predict import Question

PAGE = "evh"
LESSON_PRESET, FAIR_PRESET = "english-hindi", "english-hindi-fair"
MAX_COPIES = 20  # Hindi copies on the share slider: 0 (English only) to twice the fair share
BUDGET_MAX = 500  # every sweep trains this far (or until no pair is left); smaller budgets are read from it
OWN_PART_CHARS = 5_000  # each of the learner's two parts: 21 trainings of up to 150,000 characters, ~2 s once
TEST_CHARS = 400  # each test sentence
FILE_MB = 1

ENGLISH, HINDI = "English", "Hindi"
LANGUAGE_COLOURS = (charts.BLUE, charts.ORANGE)
SCRIPT_COLOURS = (charts.BLUE, charts.ORANGE, charts.TEAL, charts.GREY)
DIRECTIONS = ("goes down", "stays the same", "goes up")


# -- the lesson, from its data ---------------------------------------------------------------------
def lesson() -> dict:
    """The lesson-4 blocks and sentence pair (``lessons/data/lesson4_english_hindi.json``)."""
    return lessons.data("lesson4_english_hindi")


def settings() -> dict:
    """The trainer's five choices: the lesson presets' (byte level, ``" ?\\S+"``, first seen)."""
    return lessons.presets()[LESSON_PRESET].train_kwargs()


ENGLISH_COPIES = 10  # the English block's copies in every mix (the presets'; tests check they agree)


@lru_cache(maxsize=None)
def preset_copies(preset_id: str) -> int:
    """How many Hindi copies a lesson preset's corpus holds (found by building each mix and comparing)."""
    data, corpus = lesson(), lessons.presets()[preset_id].corpus
    for k in range(MAX_COPIES + 1):
        if mix([(data["english_block"], ENGLISH_COPIES), (data["hindi_block"], k)]) == corpus:
            return k
    raise ValueError(f"Preset {preset_id!r} is not the English block x{ENGLISH_COPIES} plus Hindi copies.")


def lesson_budget() -> int:
    return lessons.presets()[LESSON_PRESET].merges


# -- the engine, cached ----------------------------------------------------------------------------
class Texts(NamedTuple):
    """What an experiment reads: the two paragraphs it trains on and the two sentences it counts.
    (A tuple of strings: the caches below hash it in microseconds.)"""

    english: str
    hindi: str
    test_english: str
    test_hindi: str


def lesson_texts() -> Texts:
    data = lesson()
    return Texts(data["english_block"], data["hindi_block"], data["test_en"], data["test_hi"])


@st.cache_data(max_entries=32, show_spinner=f"Training {MAX_COPIES + 1} tokenizers, one for each share of the text…")
def sweep_of(texts: Texts) -> Sweep:
    """Every share from 0 to MAX_COPIES Hindi copies, trained once each (for every learner)."""
    return sweep(*texts, hindi_copies=range(MAX_COPIES + 1), english_copies=ENGLISH_COPIES, budget=BUDGET_MAX,
                 **settings())


def corpus(english: str, hindi: str, hindi_copies: int) -> str:
    return mix([(english, ENGLISH_COPIES), (hindi, hindi_copies)])


def trace_of(english: str, hindi: str, hindi_copies: int) -> Trace:
    """The run at one share, as a trace (cached per corpus by :func:`ui.training.trained`)."""
    return trained(corpus(english, hindi, hindi_copies), BUDGET_MAX, **settings())


def budget_limit(s: Sweep) -> int:
    """The largest budget worth a slider: past it every share has run out of pairs."""
    return max(1, max(run.learned for run in s.runs))


# -- predict, then run -----------------------------------------------------------------------------
def direction(before: int, after: int) -> str:
    return DIRECTIONS[(after > before) - (after < before) + 1]


def questions() -> tuple[Question, Question]:
    """'Give Hindi an equal share: which way does each count move?', answered by the lesson's sweep."""
    s = sweep_of(lesson_texts())
    lo, hi, budget = preset_copies(LESSON_PRESET), preset_copies(FAIR_PRESET), lesson_budget()
    before, after = s.point(lo, budget), s.point(hi, budget)
    setting = (f"Give Hindi an equal share of the training text: {hi} copies of the Hindi paragraph instead of "
               f"{lo}, as many as English has. The merge budget stays {budget}.")
    gained = after.by_script["Devanagari"] - before.by_script["Devanagari"]
    why = (f"Hindi now wins {after.by_script['Devanagari']} of the {budget} merges instead of "
           f"{before.by_script['Devanagari']}; the budget is fixed, so those {gained} merges came out of English's share.")
    hindi_q = Question(
        key="", id=QuestionId.of(EVH_DIRECTION, sentence="hindi"), scope=PAGE, kind="choice", options=DIRECTIONS,
        prompt=setting + " Does the Hindi sentence's token count go up or down?",
        answer=direction(before.hindi_tokens, after.hindi_tokens),
        explain=(f"The Hindi sentence goes from {before.hindi_tokens} tokens to {after.hindi_tokens} "
                 f"({before.hindi_per_word:.1f} → {after.hindi_per_word:.1f} per word). " + why),
    )
    english_q = Question(
        key="", id=QuestionId.of(EVH_DIRECTION, sentence="english"), scope=PAGE, kind="choice", options=DIRECTIONS,
        prompt="And the English sentence's token count?",
        answer=direction(before.english_tokens, after.english_tokens),
        explain=(f"The English sentence goes from {before.english_tokens} tokens to {after.english_tokens} "
                 f"({before.english_per_word:.2f} → {after.english_per_word:.2f} per word). " + why),
    )
    return hindi_q, english_q


# -- tables ------------------------------------------------------------------------------------------
def lesson_table() -> pd.DataFrame:
    """The lesson's table, computed: its two shares at its budget."""
    s, budget = sweep_of(lesson_texts()), lesson_budget()
    points = [s.point(preset_copies(p), budget) for p in (LESSON_PRESET, FAIR_PRESET)]
    return pd.DataFrame({
        "Hindi copies k": [p.hindi_copies for p in points],
        "English tokens": [p.english_tokens for p in points],
        "Hindi tokens": [p.hindi_tokens for p in points],
        "Hindi tokens per word": [round(p.hindi_per_word, 1) for p in points],
        "merges to Devanagari": [p.by_script["Devanagari"] for p in points],
    })


def lesson_matches() -> bool:
    """Whether the computed table is the one the lesson states (its data file's ``expected``)."""
    s, budget = sweep_of(lesson_texts()), lesson_budget()
    return all(
        (s.point(row["k"], budget).english_tokens, s.point(row["k"], budget).hindi_tokens,
         round(s.point(row["k"], budget).hindi_per_word, 1)) == (row["en_tokens"], row["hi_tokens"], row["hi_tokens_per_word"])
        for row in lesson()["expected"]
    )


@dataclass(frozen=True)
class CostRow:
    name: str
    cost: PairCost


def parallel_pairs() -> tuple[tuple[str, str], ...]:
    return tuple((p["en"], p["hi"]) for p in lessons.data("parallel_en_hi")["pairs"])


@st.cache_data(max_entries=16, show_spinner=False)
def real_cost(key: str) -> PairCost:
    """A production tokenizer on the parallel set (the same for every learner: cached per tokenizer)."""
    return parallel_cost(choices.load(key), parallel_pairs())


@st.cache_data(max_entries=256, show_spinner=False)
def lab_cost(english: str, hindi: str, hindi_copies: int, budget: int) -> PairCost:
    """The lab's tokenizer at one setting on the parallel set."""
    return parallel_cost(trace_of(english, hindi, hindi_copies).tokenizer_at(budget), parallel_pairs())


def cost_rows(lab_name: str, lab: PairCost) -> tuple[list[CostRow], list[tuple[str, str]]]:
    """The lab's row, then one per production tokenizer that loads; and (title, reason) for those that do not."""
    rows, missing = [CostRow(lab_name, lab)], []
    for entry in choices.real_entries():
        try:
            rows.append(CostRow(choices.load(entry.key).name, real_cost(entry.key)))
        except choices.Unavailable as exc:
            missing.append((entry.title, str(exc)))
    return rows, missing


def cost_table(rows: Sequence[CostRow]) -> pd.DataFrame:
    return pd.DataFrame({
        "tokenizer": [r.name for r in rows],
        "English tokens per word": [r.cost.english_per_word for r in rows],
        "Hindi tokens per word": [r.cost.hindi_per_word for r in rows],
        "Hindi ÷ English tokens": [r.cost.ratio for r in rows],
        "English tokens": [r.cost.english_tokens for r in rows],
        "Hindi tokens": [r.cost.hindi_tokens for r in rows],
    })


COST_COLUMNS = {
    "English tokens per word": st.column_config.NumberColumn(format="%.2f", help="All English tokens ÷ all English words."),
    "Hindi tokens per word": st.column_config.NumberColumn(format="%.2f", help="All Hindi tokens ÷ all Hindi words."),
    "Hindi ÷ English tokens": st.column_config.NumberColumn(
        format="%.2f×", help="How many times as many tokens the same sentences take in Hindi as in English."),
}


# -- chips -----------------------------------------------------------------------------------------
@st.cache_data(max_entries=256, show_spinner=False)
def merges_html(english: str, hindi: str, hindi_copies: int, budget: int) -> tuple[tuple[str, int, str], ...]:
    """The tokens the first ``budget`` merges made, grouped by script: (script, how many, their chips), for
    each script that has any. Each chip's tooltip says which merge made it."""
    tok = trace_of(english, hindi, hindi_copies).tokenizer
    first = tok.first_merge_id
    out = []
    for script, ids in merges_by_script(tok, budget).items():
        if ids:
            chips = [Chip(tok.label(i), i, whole=tok.is_whole(i), note=f"merge {i - first + 1}", data=tok.token_bytes(i))
                     for i in ids]
            out.append((script, len(ids), CHIPS_CSS + chips_html(chips, label=f"{script} tokens", runs=False)))
    return tuple(out)


@st.cache_data(max_entries=1024, show_spinner=False)
def sentence_html(english: str, hindi: str, hindi_copies: int, budget: int, text: str, label: str) -> str:
    """A sentence's chips with the tokenizer of one share after its first ``budget`` merges."""
    tok = trace_of(english, hindi, hindi_copies).tokenizer_at(budget)
    return CHIPS_CSS + chips_html([chip_from_token(t) for t in tok.encode_tokens(text)], label=label, mark_pieces=True)


# -- charts: templates built once, filled per click ------------------------------------------------
POINTS, CURSOR, CURVE = "points", "cursor", "curve"


def _language_colour() -> alt.Scale:
    return alt.Scale(domain=[ENGLISH, HINDI], range=list(LANGUAGE_COLOURS))


def shares_chart(*, large: bool) -> alt.LayerChart:
    """Tokens per word of each test sentence, for every number of Hindi copies; the current one marked."""
    s = charts.sizes(large)
    base = alt.Chart(alt.NamedData(POINTS)).encode(
        x=alt.X("copies:Q", title="Hindi copies in the training text (English: 10 copies)",
                scale=alt.Scale(domain=[0, MAX_COPIES], nice=False), axis=alt.Axis(tickMinStep=1)),
        y=alt.Y("per_word:Q", title="tokens per word"),
        color=alt.Color("language:N", scale=_language_colour(), legend=alt.Legend(orient="top", title=None)),
    )
    tooltip = [alt.Tooltip("language:N"), alt.Tooltip("copies:Q", title="Hindi copies"),
               alt.Tooltip("tokens:Q"), alt.Tooltip("per_word:Q", title="tokens per word", format=".2f"),
               alt.Tooltip("share_words:Q", title="Hindi share of the words", format=".0%"),
               alt.Tooltip("share_bytes:Q", title="Hindi share of the bytes", format=".0%")]
    lines = base.mark_line(strokeWidth=3, interpolate="step-after").encode(
        strokeDash=alt.StrokeDash("language:N", scale=alt.Scale(domain=[ENGLISH, HINDI], range=[[1, 0], [7, 4]]),
                                  legend=None))
    points = base.mark_point(filled=True, size=s.mark * 4, stroke="#000", strokeWidth=0.8).encode(
        shape=alt.Shape("language:N", scale=alt.Scale(domain=[ENGLISH, HINDI], range=["circle", "square"]),
                        legend=None),
        tooltip=tooltip)
    cursor = alt.Chart(alt.NamedData(CURSOR))
    rule = cursor.mark_rule(color="#000", strokeWidth=2).encode(x="copies:Q")
    # The higher of the two values is labelled above its point, the lower one below: they never collide.
    above = cursor.transform_filter(alt.datum.above).mark_text(
        align="left", dx=8, dy=-12, fontSize=s.mark, fontWeight="bold").encode(x="copies:Q", y="per_word:Q", text="label:N")
    below = cursor.transform_filter(~alt.datum.above).mark_text(
        align="left", dx=8, dy=14, fontSize=s.mark, fontWeight="bold").encode(x="copies:Q", y="per_word:Q", text="label:N")
    return alt.layer(lines, points, rule, above, below).properties(height=300 if not large else 380)


def scripts_chart(*, large: bool) -> alt.LayerChart:
    """How the merge budget splits between scripts, for every number of Hindi copies; the current one outlined."""
    x = alt.X("copies:O", title="Hindi copies in the training text", axis=alt.Axis(labelAngle=0))
    bars = alt.Chart(alt.NamedData(POINTS)).mark_bar(stroke="#000", strokeWidth=0.6).encode(
        x=x,
        y=alt.Y("merges:Q", title="merges", stack="zero"),
        color=alt.Color("script:N", scale=alt.Scale(domain=list(SCRIPTS), range=list(SCRIPT_COLOURS)),
                        legend=alt.Legend(orient="top", title=None)),
        order=alt.Order("order:Q"),
        tooltip=[alt.Tooltip("copies:O", title="Hindi copies"), alt.Tooltip("script:N"), alt.Tooltip("merges:Q")],
    )
    outline = alt.Chart(alt.NamedData(CURSOR)).mark_bar(fillOpacity=0, stroke="#000", strokeWidth=3).encode(
        x=x, y="total:Q")
    return alt.layer(bars, outline).properties(height=300 if not large else 380)


def curve_chart(*, large: bool) -> alt.LayerChart:
    """Each test sentence's token count after every merge up to the budget; the step cursor marked."""
    s = charts.sizes(large)
    colour = alt.Color("language:N", scale=_language_colour(), legend=alt.Legend(orient="top", title=None))
    lines = alt.Chart(alt.NamedData(CURVE)).mark_line(strokeWidth=3, interpolate="step-after").encode(
        x=alt.X("merge:Q", title="after merge", axis=alt.Axis(tickMinStep=1)),
        y=alt.Y("tokens:Q", title="tokens in the sentence", scale=alt.Scale(zero=True)),
        color=colour,
        strokeDash=alt.StrokeDash("language:N", scale=alt.Scale(domain=[ENGLISH, HINDI], range=[[1, 0], [7, 4]]),
                                  legend=None),
        tooltip=[alt.Tooltip("language:N"), alt.Tooltip("merge:Q", title="after merge"), alt.Tooltip("tokens:Q")],
    )
    cursor = alt.Chart(alt.NamedData(CURSOR))
    rule = cursor.mark_rule(color="#000", strokeWidth=2).encode(x="merge:Q")
    dots = cursor.mark_point(filled=True, size=s.mark * 6, stroke="#000").encode(x="merge:Q", y="tokens:Q", color=colour)
    labels = cursor.mark_text(align="left", dx=9, dy=-9, fontSize=s.mark, fontWeight="bold").encode(
        x="merge:Q", y="tokens:Q", text="label:N")
    return alt.layer(lines, rule, dots, labels).properties(height=300 if not large else 380)


def cost_chart(*, large: bool) -> alt.Chart:
    """Tokens per word in English and Hindi on the parallel set, one pair of bars per tokenizer."""
    s = charts.sizes(large)
    base = alt.Chart(alt.NamedData(POINTS)).encode(
        y=alt.Y("tokenizer:N", sort=None, title=None),
        yOffset=alt.YOffset("language:N", sort=[ENGLISH, HINDI]),
    )
    bars = base.mark_bar(stroke="#000", strokeWidth=0.6).encode(
        x=alt.X("per_word:Q", title="tokens per word on the parallel set"),
        color=alt.Color("language:N", scale=_language_colour(), legend=alt.Legend(orient="top", title=None)),
        tooltip=[alt.Tooltip("tokenizer:N"), alt.Tooltip("language:N"),
                 alt.Tooltip("per_word:Q", title="tokens per word", format=".2f")],
    )
    text = base.mark_text(align="left", dx=4, fontSize=s.small).encode(x="per_word:Q", text="label:N")
    return (bars + text).properties(height=alt.Step(s.step * 0.55))


_BUILDERS = {"shares": shares_chart, "scripts": scripts_chart, "curve": curve_chart, "cost": cost_chart}


@lru_cache(maxsize=8)
def _template(name: str, large: bool) -> str:
    """A chart with no data, as JSON (built and validated by Altair once per process)."""
    return json.dumps(charts.themed(_BUILDERS[name](large=large), large=large).to_dict())


def _filled(name: str, large: bool, **datasets: list[dict[str, Any]]) -> dict:
    spec = json.loads(_template(name, large))
    spec["datasets"] = datasets
    return spec


@st.cache_data(max_entries=512, show_spinner=False)
def shares_spec(texts: Texts, budget: int, copies: int, large: bool) -> dict:
    records, cursor = [], []
    for p in sweep_of(texts).at(budget):
        for language, tokens, per_word in ((ENGLISH, p.english_tokens, p.english_per_word),
                                           (HINDI, p.hindi_tokens, p.hindi_per_word)):
            row = {"copies": p.hindi_copies, "language": language, "tokens": tokens, "per_word": per_word,
                   "share_words": p.share.of_words, "share_bytes": p.share.of_bytes}
            records.append(row)
            if p.hindi_copies == copies:
                cursor.append({**row, "label": f"{per_word:.1f}"})
    if len(cursor) == 2:
        high = max(range(2), key=lambda i: (cursor[i]["per_word"], cursor[i]["language"] == HINDI))
        for i, row in enumerate(cursor):
            row["above"] = i == high
    return _filled("shares", large, **{POINTS: records, CURSOR: cursor})


@st.cache_data(max_entries=512, show_spinner=False)
def scripts_spec(texts: Texts, budget: int, copies: int, large: bool) -> dict:
    points = sweep_of(texts).at(budget)
    records = [{"copies": p.hindi_copies, "script": script, "merges": p.by_script[script], "order": i}
               for p in points for i, script in enumerate(SCRIPTS)]
    now = next(p for p in points if p.hindi_copies == copies)
    cursor = [{"copies": copies, "total": sum(now.by_script.values())}]
    return _filled("scripts", large, **{POINTS: records, CURSOR: cursor})


@st.cache_data(max_entries=64, show_spinner=False)
def _curve_records(english: tuple[int, ...], hindi: tuple[int, ...]) -> list[dict[str, Any]]:
    return [{"merge": b, "language": language, "tokens": n}
            for language, curve in ((ENGLISH, english), (HINDI, hindi)) for b, n in enumerate(curve)]


def curve_spec(english: tuple[int, ...], hindi: tuple[int, ...], cursor: int, large: bool) -> dict:
    """The curves up to the budget (``english``/``hindi`` already cut there), the cursor at ``cursor``."""
    marks = [{"merge": cursor, "language": language, "tokens": curve[cursor], "label": f"{language}: {curve[cursor]}"}
             for language, curve in ((ENGLISH, english), (HINDI, hindi))]
    return _filled("curve", large, **{CURVE: _curve_records(english, hindi), CURSOR: marks})


@st.cache_data(max_entries=256, show_spinner=False)
def cost_spec(rows: tuple[tuple[str, float, float], ...], large: bool) -> dict:
    records = [{"tokenizer": name, "language": language, "per_word": value, "label": f"{value:.2f}"}
               for name, en, hi in rows for language, value in ((ENGLISH, en), (HINDI, hi))]
    return _filled("cost", large, **{POINTS: records})


__all__ = [
    "BUDGET_MAX", "COST_COLUMNS", "CostRow", "ENGLISH_COPIES", "FILE_MB", "MAX_COPIES", "OWN_PART_CHARS", "PAGE",
    "TEST_CHARS", "Texts", "budget_limit", "corpus", "cost_rows", "cost_spec", "cost_table", "curve_spec", "lab_cost",
    "lesson", "lesson_budget", "lesson_texts", "merges_html", "lesson_matches", "lesson_table", "parallel_pairs", "preset_copies", "questions",
    "real_cost", "scripts_spec", "sentence_html", "settings", "shares_spec", "sweep_of", "trace_of",
]
