"""What the "English vs Hindi" page draws: the lesson-4 experiment over every share of the training text.

The engine does the work (:mod:`analyses.experiment`): one sweep trains a
tokenizer for every number of Hindi copies, once each at the largest budget,
and counts the two test sentences after every merge; any smaller budget is
read from the same runs (its merges are the first ones of the bigger run).
The sweep is cached per (texts, pair) for every learner (:mod:`ui.experiment`),
so dragging a slider only reads it; its two questions are built in
:mod:`ui.questions`. This module turns it into tables and charts; each chart is
a template built and validated once per process and filled with its data per
click (as on the Train page).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

import altair as alt
import pandas as pd
import streamlit as st

import lessons
from analyses.experiment import SCRIPTS, PairCost, Sweep, merges_by_script, parallel_cost, split_by_script
from i18n import N_, _, _n, decimal, localized, number
from lessons.experiment import (
    BUDGET_MAX,
    ENGLISH_COPIES,
    EVH_PAGE,
    FAIR_PRESET,
    LESSON_PRESET,
    MAX_COPIES,
    Texts,
    lesson,
    lesson_budget,
    lesson_texts,
    preset_copies,
    settings,
)
from tokenizer.pretokenize import pattern_words
from ui import charts, choices, predict, state, tables, viewport
from ui.chips import CSS as CHIPS_CSS
from ui.chips import Chip, chip_from_token, chips_html
from ui.display import callout_html, md_code, md_escape
from ui.experiment import sweep_of, trace_of
from ui.language import per_language
from ui.layout import figure
from ui.predict import Question
from ui.questions import experiment_questions, experiment_why
from ui.uploads import decode_text_file, uploaded_bytes

PAGE = EVH_PAGE
OWN_PART_CHARS = 5_000  # each of the learner's two parts: 21 trainings of up to 150,000 characters, ~2 s once
TEST_CHARS = 400  # each test sentence
FILE_MB = 1

ENGLISH, HINDI = N_("English"), N_("Hindi")  # the charts' data: each drawn as _(ENGLISH), _(HINDI)
#: The scripts a learned token is sorted by (analyses.experiment.SCRIPTS), as the page names them.
SCRIPT_NAMES = {"Latin": N_("Latin"), "Devanagari": N_("Devanagari"), "mixed": N_("mixed"), "other": N_("other")}


def script_name(script: str) -> str:
    return _(SCRIPT_NAMES.get(script, script))
LANGUAGE_COLOURS = (charts.BLUE, charts.ORANGE)
SCRIPT_COLOURS = (charts.BLUE, charts.ORANGE, charts.TEAL, charts.GREY)


# -- the engine, cached: the experiment (ui.experiment) ----------------------------------------
def budget_limit(s: Sweep) -> int:
    """The largest budget worth a slider: past it every share has run out of pairs."""
    return max(1, max(run.learned for run in s.runs))


# -- tables ------------------------------------------------------------------------------------------
def lesson_table() -> pd.DataFrame:
    """The lesson's table, computed: its two shares at its budget."""
    s, budget = sweep_of(lesson_texts()), lesson_budget()
    points = [s.point(preset_copies(p), budget) for p in (LESSON_PRESET, FAIR_PRESET)]
    return pd.DataFrame({  # the columns are labelled in the learner's language by LESSON_COLUMNS
        "Hindi copies k": [p.hindi_copies for p in points],
        "English tokens": [p.english_tokens for p in points],
        "Hindi tokens": [p.hindi_tokens for p in points],
        "Hindi tokens per word": [round(p.hindi_per_word, 1) for p in points],
        "merges to Devanagari": [p.by_script["Devanagari"] for p in points],
    })


def lesson_columns() -> dict:
    """The lesson table's column labels in the learner's language."""
    return {"Hindi copies k": st.column_config.NumberColumn(_("Hindi copies k")),
            "English tokens": st.column_config.NumberColumn(_("English tokens")),
            "Hindi tokens": st.column_config.NumberColumn(_("Hindi tokens")),
            "Hindi tokens per word": st.column_config.NumberColumn(_("Hindi tokens per word")),
            "merges to Devanagari": st.column_config.NumberColumn(_("merges to Devanagari"))}


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
    for entry in choices.real_entries(featured=True):
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


def cost_columns() -> dict:
    """The cost table's columns, labelled in the learner's language."""
    return {
        "tokenizer": st.column_config.TextColumn(_("tokenizer")),
        "English tokens per word": st.column_config.NumberColumn(
            _("English tokens per word"), format="%.2f", help=_("All English tokens ÷ all English words.")),
        "Hindi tokens per word": st.column_config.NumberColumn(
            _("Hindi tokens per word"), format="%.2f", help=_("All Hindi tokens ÷ all Hindi words.")),
        "Hindi ÷ English tokens": st.column_config.NumberColumn(
            _("Hindi ÷ English tokens"), format="%.2f×",
            help=_("How many times as many tokens the same sentences take in Hindi as in English.")),
        "English tokens": st.column_config.NumberColumn(_("English tokens")),
        "Hindi tokens": st.column_config.NumberColumn(_("Hindi tokens")),
    }


# -- chips -----------------------------------------------------------------------------------------
@per_language(max_entries=256)
def merges_html(english: str, hindi: str, hindi_copies: int, budget: int) -> tuple[tuple[str, int, str], ...]:
    """The tokens the first ``budget`` merges made, grouped by script: (script, how many, their chips), for
    each script that has any. Each chip's tooltip says which merge made it (in the learner's language)."""
    tok = trace_of(english, hindi, hindi_copies).tokenizer
    first = tok.first_merge_id
    out = []
    for script, ids in merges_by_script(tok, budget).items():
        if ids:
            chips = [Chip(tok.label(i), i, whole=tok.is_whole(i), note=_("merge {n}", n=number(i - first + 1)),
                          data=tok.token_bytes(i)) for i in ids]
            label = _("{script} tokens", script=script_name(script))
            out.append((script, len(ids), CHIPS_CSS + chips_html(chips, label=label, runs=False)))
    return tuple(out)


@st.cache_data(max_entries=1024, show_spinner=False)
def sentence_html(english: str, hindi: str, hindi_copies: int, budget: int, text: str, label: str) -> str:
    """A sentence's chips with the tokenizer of one share after its first ``budget`` merges."""
    tok = trace_of(english, hindi, hindi_copies).tokenizer_at(budget)
    return CHIPS_CSS + chips_html([chip_from_token(t) for t in tok.encode_tokens(text)], label=label, mark_pieces=True)


# -- charts: templates built once, filled per click ------------------------------------------------
POINTS, CURSOR, CURVE = "points", "cursor", "curve"


def languages() -> list[str]:
    """English and Hindi, named in the learner's language (the charts' data and their legends)."""
    return [_(ENGLISH), _(HINDI)]


def _language_colour() -> alt.Scale:
    return alt.Scale(domain=languages(), range=list(LANGUAGE_COLOURS))


def shares_chart(*, large: bool) -> alt.LayerChart:
    """Tokens per word of each test sentence, for every number of Hindi copies; the current one marked."""
    s = charts.sizes(large)
    base = alt.Chart(alt.NamedData(POINTS)).encode(
        x=alt.X("copies:Q", title=_("Hindi copies in the training text (English: {n} copies)", n=ENGLISH_COPIES),
                scale=alt.Scale(domain=[0, MAX_COPIES], nice=False), axis=alt.Axis(tickMinStep=1)),
        y=alt.Y("per_word:Q", title=_("tokens per word")),
        color=alt.Color("language:N", scale=_language_colour(), legend=alt.Legend(orient="top", title=None)),
    )
    tooltip = [alt.Tooltip("language:N", title=_("language")), alt.Tooltip("copies:Q", title=_("Hindi copies")),
               alt.Tooltip("tokens:Q", title=_("tokens")),
               alt.Tooltip("per_word:Q", title=_("tokens per word"), format=".2f"),
               alt.Tooltip("share_words:Q", title=_("Hindi share of the words"), format=".0%"),
               alt.Tooltip("share_bytes:Q", title=_("Hindi share of the bytes"), format=".0%")]
    lines = base.mark_line(strokeWidth=3, interpolate="step-after").encode(
        strokeDash=alt.StrokeDash("language:N", scale=alt.Scale(domain=languages(), range=[[1, 0], [7, 4]]),
                                  legend=None))
    points = base.mark_point(filled=True, size=s.mark * 4, stroke="#000", strokeWidth=0.8).encode(
        shape=alt.Shape("language:N", scale=alt.Scale(domain=languages(), range=["circle", "square"]),
                        legend=None),
        tooltip=tooltip)
    cursor = alt.Chart(alt.NamedData(CURSOR))
    rule = cursor.mark_rule(color="#000", strokeWidth=2).encode(x="copies:Q")
    # The higher of the two values is labelled above its point, the lower one below: they never collide.
    above = cursor.transform_filter(alt.datum.above).mark_text(
        align="left", dx=8, dy=-12, fontSize=s.mark, fontWeight="bold").encode(x="copies:Q", y="per_word:Q", text="label:N")
    below = cursor.transform_filter(~alt.datum.above).mark_text(
        align="left", dx=8, dy=14, fontSize=s.mark, fontWeight="bold").encode(x="copies:Q", y="per_word:Q", text="label:N")
    return charts.layered(lines, points, rule, above, below).properties(height=300 if not large else 380)


def scripts_chart(*, large: bool) -> alt.LayerChart:
    """How the merge budget splits between scripts, for every number of Hindi copies; the current one outlined."""
    x = alt.X("copies:O", title=_("Hindi copies in the training text"), axis=alt.Axis(labelAngle=0))
    bars = alt.Chart(alt.NamedData(POINTS)).mark_bar(stroke="#000", strokeWidth=0.6).encode(
        x=x,
        y=alt.Y("merges:Q", title=_("merges"), stack="zero"),
        color=alt.Color("script:N", scale=alt.Scale(domain=[script_name(sc) for sc in SCRIPTS],
                                                    range=list(SCRIPT_COLOURS)),
                        legend=alt.Legend(orient="top", title=None)),
        order=alt.Order("order:Q"),
        tooltip=[alt.Tooltip("copies:O", title=_("Hindi copies")), alt.Tooltip("script:N", title=_("script")),
                 alt.Tooltip("merges:Q", title=_("merges"))],
    )
    outline = alt.Chart(alt.NamedData(CURSOR)).mark_bar(fillOpacity=0, stroke="#000", strokeWidth=3).encode(
        x=x, y="total:Q")
    return charts.layered(bars, outline).properties(height=300 if not large else 380)


def curve_chart(*, large: bool) -> alt.LayerChart:
    """Each test sentence's token count after every merge up to the budget; the step cursor marked."""
    s = charts.sizes(large)
    colour = alt.Color("language:N", scale=_language_colour(), legend=alt.Legend(orient="top", title=None))
    lines = alt.Chart(alt.NamedData(CURVE)).mark_line(strokeWidth=3, interpolate="step-after").encode(
        x=alt.X("merge:Q", title=_("after merge"), axis=alt.Axis(tickMinStep=1)),
        y=alt.Y("tokens:Q", title=_("tokens in the sentence"), scale=alt.Scale(zero=True)),
        color=colour,
        strokeDash=alt.StrokeDash("language:N", scale=alt.Scale(domain=languages(), range=[[1, 0], [7, 4]]),
                                  legend=None),
        tooltip=[alt.Tooltip("language:N", title=_("language")), alt.Tooltip("merge:Q", title=_("after merge")),
                 alt.Tooltip("tokens:Q", title=_("tokens"))],
    )
    cursor = alt.Chart(alt.NamedData(CURSOR))
    rule = cursor.mark_rule(color="#000", strokeWidth=2).encode(x="merge:Q")
    dots = cursor.mark_point(filled=True, size=s.mark * 6, stroke="#000").encode(x="merge:Q", y="tokens:Q", color=colour)
    labels = cursor.mark_text(align="left", dx=9, dy=-9, fontSize=s.mark, fontWeight="bold").encode(
        x="merge:Q", y="tokens:Q", text="label:N")
    return charts.layered(lines, rule, dots, labels).properties(height=300 if not large else 380)


def cost_chart(*, large: bool) -> alt.Chart:
    """Tokens per word in English and Hindi on the parallel set, one pair of bars per tokenizer."""
    s = charts.sizes(large)
    base = alt.Chart(alt.NamedData(POINTS)).encode(
        y=alt.Y("tokenizer:N", sort=None, title=None),
        yOffset=alt.YOffset("language:N", sort=languages()),
    )
    bars = base.mark_bar(stroke="#000", strokeWidth=0.6).encode(
        x=alt.X("per_word:Q", title=_("tokens per word on the parallel set")),
        color=alt.Color("language:N", scale=_language_colour(), legend=alt.Legend(orient="top", title=None)),
        tooltip=[alt.Tooltip("tokenizer:N", title=_("tokenizer")), alt.Tooltip("language:N", title=_("language")),
                 alt.Tooltip("per_word:Q", title=_("tokens per word"), format=".2f")],
    )
    text = base.mark_text(align="left", dx=4, fontSize=s.small).encode(x="per_word:Q", text="label:N")
    return (bars + text).properties(height=alt.Step(s.step * 0.55))


_BUILDERS: dict[str, Callable[..., alt.TopLevelMixin]] = {"shares": shares_chart, "scripts": scripts_chart, "curve": curve_chart, "cost": cost_chart}


@per_language(max_entries=24)
def _template(name: str, large: bool) -> str:
    """A chart with no data, its words in the learner's language, as JSON (built and validated by Altair once per
    chart, type size and language)."""
    return json.dumps(charts.themed(_BUILDERS[name](large=large), large=large).to_dict())


def _filled(name: str, large: bool, **datasets: list[dict[str, Any]]) -> dict:
    spec = json.loads(_template(name, large))
    spec["datasets"] = datasets
    return spec


@per_language(max_entries=512)
def shares_spec(texts: Texts, budget: int, copies: int, large: bool) -> dict:
    records, cursor = [], []
    english, hindi = languages()
    for p in sweep_of(texts).at(budget):
        for language, tokens, per_word in ((english, p.english_tokens, p.english_per_word),
                                           (hindi, p.hindi_tokens, p.hindi_per_word)):
            row = {"copies": p.hindi_copies, "language": language, "tokens": tokens, "per_word": per_word,
                   "share_words": p.share.of_words, "share_bytes": p.share.of_bytes}
            records.append(row)
            if p.hindi_copies == copies:
                cursor.append({**row, "label": decimal(per_word, 1)})
    if len(cursor) == 2:
        high = max(range(2), key=lambda i: (cursor[i]["per_word"], cursor[i]["language"] == hindi))
        for i, row in enumerate(cursor):
            row["above"] = i == high
    return _filled("shares", large, **{POINTS: records, CURSOR: cursor})


@per_language(max_entries=512)
def scripts_spec(texts: Texts, budget: int, copies: int, large: bool) -> dict:
    points = sweep_of(texts).at(budget)
    names = {script: script_name(script) for script in SCRIPTS}
    records: list[dict[str, Any]] = [
        {"copies": p.hindi_copies, "script": names[script], "merges": p.by_script[script], "order": i}
        for p in points for i, script in enumerate(SCRIPTS)]
    now = next(p for p in points if p.hindi_copies == copies)
    cursor: list[dict[str, Any]] = [{"copies": copies, "total": sum(now.by_script.values())}]
    return _filled("scripts", large, **{POINTS: records, CURSOR: cursor})


@st.cache_data(max_entries=64, show_spinner=False)
def _curve_records(english: tuple[int, ...], hindi: tuple[int, ...], names: tuple[str, str]) -> list[dict[str, Any]]:
    return [{"merge": b, "language": language, "tokens": n}
            for language, curve in zip(names, (english, hindi)) for b, n in enumerate(curve)]


def curve_spec(english: tuple[int, ...], hindi: tuple[int, ...], cursor: int, large: bool) -> dict:
    """The curves up to the budget (``english``/``hindi`` already cut there), the cursor at ``cursor``."""
    english_name, hindi_name = languages()
    names = (english_name, hindi_name)
    marks = [{"merge": cursor, "language": language, "tokens": curve[cursor],
              "label": f"{language}: {number(curve[cursor])}"} for language, curve in zip(names, (english, hindi))]
    return _filled("curve", large, **{CURVE: _curve_records(english, hindi, names), CURSOR: marks})


@per_language(max_entries=256)
def cost_spec(rows: tuple[tuple[str, float, float], ...], large: bool) -> dict:
    english, hindi = languages()
    records = [{"tokenizer": name, "language": language, "per_word": value, "label": decimal(value)}
               for name, en, hi in rows for language, value in ((english, en), (hindi, hi))]
    return _filled("cost", large, **{POINTS: records})


__all__ = [
    "CostRow", "cost_columns", "FILE_MB", "OWN_PART_CHARS", "PAGE", "TEST_CHARS", "budget_limit", "cost_rows",
    "cost_spec", "cost_table", "curve_spec", "lab_cost", "lesson_matches", "lesson_table", "merges_html",
    "parallel_pairs", "real_cost", "scripts_spec", "sentence_html", "shares_spec",
]


# -- the page: its settings, declared once ---------------------------------------------------------
LESSON_K, FAIR_K = preset_copies(LESSON_PRESET), preset_copies(FAIR_PRESET)
LESSON_BUDGET = lesson_budget()
_LESSON = lesson()

COPIES = state.Param(PAGE, "k", LESSON_K, lo=0, hi=MAX_COPIES)
BUDGET = state.Param(PAGE, "budget", LESSON_BUDGET, lo=0, hi=BUDGET_MAX)
STEP = state.Param(PAGE, "step", LESSON_BUDGET, lo=0, hi=BUDGET_MAX)
SOURCE = state.Param(PAGE, "train", "lesson", choices=("lesson", "own"))
OWN_EN = state.Param(PAGE, "own_en", "", max_len=400)
OWN_HI = state.Param(PAGE, "own_hi", "", max_len=400)
TEST_EN = state.Param(PAGE, "en", _LESSON["test_en"], max_len=TEST_CHARS)
TEST_HI = state.Param(PAGE, "hi", _LESSON["test_hi"], max_len=TEST_CHARS)
SETTINGS = [COPIES, BUDGET, SOURCE, OWN_EN, OWN_HI, TEST_EN, TEST_HI]
"""Published by the page; the step cursor (:data:`STEP`) is published by its fragment."""
REVEALED = state.Key(PAGE, "revealed")  # the learner skipped the prediction
UPLOAD = state.Key(PAGE, "upload")
OWN_STARTED = state.Key(PAGE, "_own_started")
RESET_PAIR = state.Key(PAGE, "reset_pair")
BACK = state.Key(PAGE, "back")
SKIP = state.Key(PAGE, "skip")
SHARES_CHART = state.Key(PAGE, "shares_chart")
SCRIPTS_CHART = state.Key(PAGE, "scripts_chart")
CURVE_CHART = state.Key(PAGE, "curve_chart")
LESSON_TABLE = state.Key(PAGE, "lesson_table")
COST_TABLE = state.Key(PAGE, "cost_table")
COST_CHART = state.Key(PAGE, "cost_chart")
CHIP_COLUMNS = [2, 3]  # English | Hindi: the Hindi sentence has several times the tokens


class View(NamedTuple):
    """Whether the page is open yet: the two questions, and whether the rest is shown."""

    questions: tuple[Question, Question]
    answered: bool
    revealed: bool


class Setting(NamedTuple):
    """What the page shows: the texts, the sweep over every share, and the share and budget chosen."""

    texts: Texts
    sweep: Sweep
    copies: int
    budget: int
    point: Any  # the sweep's point at (copies, budget)
    learned: int  # merges learned: fewer than the budget when no pair is left to merge
    own: bool  # the learner's own texts, not the lesson's


def open_view() -> View:
    """Restore the step cursor and say whether the page is open: the two questions (lesson 4's own exercises) come
    first, whatever the link sets (a link with a share and a budget opened on every share's counts: the answers);
    answered or skipped once, the page is open."""
    state.restore([STEP])
    qs = experiment_questions()
    answered = all(predict.answered(q) for q in qs)
    return View(qs, answered, answered or st.session_state.get(REVEALED.skey, False))


def intro() -> None:
    st.markdown(_(
        "A tokenizer has one budget of merges for every language in its training text. Whichever language fills "
        "more of that text wins more of the merges, and its words become a few big tokens; the other language is "
        "left with small pieces, often single bytes. Here the lab's own byte-level BPE learns from an English news "
        "paragraph and its Hindi translation, and you choose how much of each it reads."
    ))
    st.caption(_(
        "The training text is the English paragraph {n} times, then the Hindi paragraph k times. Byte-level BPE; "
        "before merging, {split} (the pattern {pattern}, · standing for the space); a tie goes to the pair seen "
        "first. Then it counts the tokens of a new sentence in each language.", n=ENGLISH_COPIES,
        split=_(pattern_words("regex", settings()["pattern"])), pattern=md_code(settings()["pattern"])))


# --- the texts ------------------------------------------------------------------------------------
def _own_switched() -> None:
    """Your own text starts from the lesson's paragraphs, to edit (once: on switching, or on a link with
    ``train=own``); a part the learner empties later stays empty."""
    if st.session_state.get(SOURCE.skey) == "own" and not st.session_state.get(OWN_STARTED.skey):
        st.session_state[OWN_STARTED.skey] = True
        for param, block in ((OWN_EN, "english_block"), (OWN_HI, "hindi_block")):
            if not (st.session_state.get(param.skey) or "").strip():
                state.set_value(param, _LESSON[block])


def _reset_pair() -> None:
    state.set_value(TEST_EN, _LESSON["test_en"])
    state.set_value(TEST_HI, _LESSON["test_hi"])


def _budget_changed() -> None:
    """A new budget puts the step cursor at its end."""
    state.set_value(STEP, st.session_state.get(BUDGET.skey, LESSON_BUDGET))


def _back_to_lesson() -> None:
    for param in (COPIES, BUDGET, STEP, SOURCE, TEST_EN, TEST_HI):
        state.set_value(param, param.default)


def _part(text: str) -> str:
    """One paragraph as the mix uses it: single spaces, and one at the end so copies do not run together."""
    return " ".join(text.split()) + " " if text.strip() else ""


def _trim(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[:limit].rsplit(" ", 1)[0] + " "


def texts_section() -> Texts:
    """The texts expander's contents; returns the texts to use (the lesson's where the learner's are missing)."""
    english, hindi = _LESSON["english_block"], _LESSON["hindi_block"]
    _own_switched()
    sources = {"lesson": _("The lesson's news paragraph"), "own": _("My own English and Hindi text")}
    st.radio(_("Training text"), ("lesson", "own"), key=SOURCE.skey, horizontal=True, on_change=_own_switched,
             format_func=sources.get)
    if st.session_state.get(SOURCE.skey) == "own":
        typed_en, typed_hi, upload = st.columns([2, 2, 1.4])
        typed_en.text_area(_("English part"), key=OWN_EN.skey, height=130, max_chars=OWN_PART_CHARS,
                           help=_("Up to {n} characters. It is repeated {copies} times.", n=number(OWN_PART_CHARS),
                                  copies=ENGLISH_COPIES))
        typed_hi.text_area(_("Hindi part (हिन्दी)"), key=OWN_HI.skey, height=130, max_chars=OWN_PART_CHARS,
                           help=_("Up to {n} characters. It is repeated k times.", n=number(OWN_PART_CHARS)))
        data, name = uploaded_bytes(_("…or one .txt file with both"), key=UPLOAD.skey, types=["txt"],
                                    limit_mb=FILE_MB, container=upload,
                                    help=_("Lines mostly in Devanagari go to the Hindi part, the other lines with "
                                           "letters to the English part."))
        own_en, own_hi = state.value(OWN_EN) or "", state.value(OWN_HI) or ""
        if data is not None and name is not None:  # both, or neither
            text, error = decode_text_file(data, limit_bytes=FILE_MB * 1_000_000)
            if error is not None:
                st.html(callout_html(error, "warning"))
            elif text is not None:  # one of the two is there
                own_en, own_hi = split_by_script(text)
                cut_en, cut_hi = len(own_en) > OWN_PART_CHARS, len(own_hi) > OWN_PART_CHARS
                own_en, own_hi = _trim(own_en, OWN_PART_CHARS), _trim(own_hi, OWN_PART_CHARS)
                cut = (_("The English and Hindi parts are cut to their first {n} characters, so that all {m} "
                         "tokenizers train in seconds.", n=number(OWN_PART_CHARS), m=MAX_COPIES + 1)
                       if cut_en and cut_hi else
                       _("The {part} part is cut to its first {n} characters, so that all {m} tokenizers train in "
                         "seconds.", part=_(ENGLISH) if cut_en else _(HINDI), n=number(OWN_PART_CHARS),
                         m=MAX_COPIES + 1) if cut_en or cut_hi else "")
                upload.caption(_("From {name}: {en} characters of English, {hi} of Hindi.", name=md_escape(name),
                                 en=number(len(own_en)), hi=number(len(own_hi))) + (" " + cut if cut else ""))
        own_en, own_hi = _part(own_en), _part(own_hi)
        if own_en and own_hi:
            english, hindi = own_en, own_hi
            st.caption(_("Line breaks and runs of spaces become single spaces, and each part ends in a space, so "
                         "its copies do not run together."))
        else:
            missing = (_("Type an English part and a Hindi part (or upload a file with both).") if not (own_en or own_hi)
                       else _("Type an English part (or upload a file with both).") if not own_en
                       else _("Type a Hindi part (or upload a file with both)."))
            st.info(missing + " " + _("Until then the lab trains on the lesson's paragraphs."), icon=":material/edit:")
    pair_en, pair_hi = st.columns(2)
    pair_en.text_input(_("English test sentence"), key=TEST_EN.skey, max_chars=TEST_CHARS)
    pair_hi.text_input(_("Hindi test sentence (the same meaning)"), key=TEST_HI.skey, max_chars=TEST_CHARS)
    st.button(_("Back to the lesson's sentences"), key=RESET_PAIR.skey, on_click=_reset_pair, type="tertiary",
              icon=":material/restart_alt:")
    test_en, test_hi = (state.value(TEST_EN) or "").strip(), (state.value(TEST_HI) or "").strip()
    if not test_en or not test_hi:
        st.info(_("Type a sentence in both languages. Until then the lab counts the lesson's sentences."),
                icon=":material/edit:")
        test_en, test_hi = _LESSON["test_en"], _LESSON["test_hi"]
    return Texts(english, hindi, test_en, test_hi)


def controls_section(view: View) -> Setting:
    """Once the page is open: the texts (in an expander) and the sliders above them; returns the setting."""
    if view.revealed:
        controls = st.container()
        with st.expander(_("Your own texts: the paragraphs to train on, the sentences to count"),
                         icon=":material/edit_note:",
                         expanded=state.value(SOURCE) == "own" or (TEST_EN.name in st.query_params)):
            texts = texts_section()
    else:
        texts = lesson_texts()
    s = sweep_of(texts)
    limit = budget_limit(s)
    if view.revealed:
        if state.value(BUDGET) > limit:
            state.set_value(BUDGET, limit)
        with controls:
            c_k, c_budget, c_back = st.columns([2.5, 2.5, 1.4], vertical_alignment="bottom")
            c_k.slider(_("Hindi copies k (English: {n} copies)", n=ENGLISH_COPIES), 0, MAX_COPIES, key=COPIES.skey,
                       help=_("k = {k} gives Hindi the same share as English: the same news, as many times.", k=FAIR_K))
            c_budget.slider(_("Merge budget"), 0, limit, key=BUDGET.skey, on_change=_budget_changed,
                            help=_("How many merges the tokenizer learns. Past {n} every word of the training text is "
                                   "one token already, so there is nothing left to merge.", n=number(limit)))
            c_back.button(_("Back to the lesson"), key=BACK.skey, on_click=_back_to_lesson,
                          icon=":material/restart_alt:")
        copies, budget = state.value(COPIES), state.value(BUDGET)
    else:
        copies, budget = LESSON_K, LESSON_BUDGET
    learned = min(budget, s.run(copies).learned)
    return Setting(texts, s, copies, budget, s.point(copies, budget), learned, texts != lesson_texts())


# --- the current setting: counts and chips --------------------------------------------------------
def counts_section(setting: Setting) -> None:
    point = setting.point
    st.subheader(_("{copies}, {merges}", copies=_n("{n} Hindi copy", "{n} Hindi copies", setting.copies),
                   merges=_n("{n} merge", "{n} merges", setting.budget)))
    m_en, m_hi, m_word, m_ratio = st.columns(4)
    m_en.metric(_("English tokens"), number(point.english_tokens),
                help=_n("{n} word in the sentence.", "{n} words in the sentence.", point.english_words))
    m_hi.metric(_("Hindi tokens"), number(point.hindi_tokens),
                help=_n("{n} word in the sentence.", "{n} words in the sentence.", point.hindi_words))
    m_word.metric(_("Tokens per word: English · Hindi"),
                  f"{decimal(point.english_per_word, 1)} · {decimal(point.hindi_per_word, 1)}")
    m_ratio.metric(_("Hindi ÷ English"), f"{decimal(point.ratio, 1)}×",
                   help=_("How many times as many tokens the same meaning takes in Hindi."))


def predictions_section(view: View) -> None:
    """The two questions (or, once answered, the guesses beside the computed truth)."""
    with st.container(border=True, key=viewport.keep("evh-predictions")):  # after Check, the verdicts in view
        st.markdown(_("**Predict first**") if not view.answered else _("**Your predictions**"))
        q_hindi, q_english = st.columns(2)
        with q_hindi:
            predict.ask(view.questions[0])
        with q_english:
            predict.ask(view.questions[1])
        if not view.answered:
            st.button(_("Skip, show me"), key=SKIP.skey, type="tertiary", icon=":material/visibility:",
                      on_click=lambda: st.session_state.update({REVEALED.skey: True}))
        else:
            st.caption(experiment_why())


def sentences_section(setting: Setting, merges: int, counts: tuple[int, int], classroom: bool, when: str = "") -> None:
    """Both test sentences as chips, side by side (English | Hindi), after the first ``merges`` merges."""
    columns = (st.container(), st.container()) if classroom else st.columns(CHIP_COLUMNS)  # classroom: full width
    texts = setting.texts
    for column, language, text, count in zip(columns, languages(), (texts.test_english, texts.test_hindi), counts):
        with column:
            st.markdown(f"**{language}{when}**: " + _n("{n} token", "{n} tokens", count))
            label = (_("{language} tokens at this step", language=language) if when
                     else _("{language} tokens", language=language))
            st.html(sentence_html(texts.english, texts.hindi, setting.copies, merges, text, label))


def chips_section(setting: Setting, classroom: bool) -> None:
    sentences_section(setting, setting.budget, (setting.point.english_tokens, setting.point.hindi_tokens), classroom)
    st.caption(_("A dashed chip is part of a character (its bytes in hex); the letters such chips make together "
                 "are written under them."))


def locked_note() -> None:
    st.caption(_("Answer both (or skip) to open the rest: the controls, the curves over every share, where the "
                 "merges went, merge by merge, and what real tokenizers charge."))


# --- every share ----------------------------------------------------------------------------------
def shares_section(setting: Setting, large: bool) -> None:
    """The lesson's key figure: tokens per word at every share of the training text, and where the merges went."""
    texts, budget, copies, point = setting.texts, setting.budget, setting.copies, setting.point
    with figure("share-chart"):
        st.subheader(_("Every share of the training text"))
        left, right = st.columns(2, gap="medium")
        with left:
            st.markdown(_n("**Tokens per word, at {n} merge**", "**Tokens per word, at {n} merges**", budget))
            charts.draw(shares_spec(texts, budget, copies, large), key=SHARES_CHART.skey)
        with right:
            went = ", ".join(f"{number(n)} {script_name(script)}" for script, n in point.by_script.items() if n)
            st.markdown(_n("**Where the {n} merge went**", "**Where the {n} merges went**", budget)
                        + (f" (k = {copies}: {went})" if went else ""))
            charts.draw(scripts_spec(texts, budget, copies, large), key=SCRIPTS_CHART.skey)
    fair = setting.sweep.point(FAIR_K, budget).share
    st.caption(_(
        "The slider counts copies rather than percent, because copies say what changed: the English paragraph is "
        "always there {n} times, so k = {fair} is the fair share (the same news, as often in each language), and the "
        "lesson's two rows are k = {lesson} and k = {fair}. At k = {fair} Hindi is {words} of the words but {bytes} of "
        "the bytes: a Devanagari letter is 3 bytes of UTF-8, an English one 1. The counts move in steps: every copy "
        "of a paragraph adds the same pairs, so a pair's count rises in whole copies and overtakes the others only "
        "now and then.", n=ENGLISH_COPIES, fair=FAIR_K, lesson=LESSON_K, words=format(fair.of_words, ".0%"),
        bytes=format(fair.of_bytes, ".0%")))


# --- the lesson's table ---------------------------------------------------------------------------
def lesson_table_section(setting: Setting) -> None:
    st.subheader(_("The lesson's table, computed"))
    tables.show(lesson_table(), hide_index=True, key=LESSON_TABLE.skey, column_config=lesson_columns())
    st.caption(
        (_("Run just now by the lab's engine, with the lesson's paragraphs and sentences and {n} merges: the same "
           "figures lesson 4 gives.", n=number(LESSON_BUDGET)) if lesson_matches()
         else _("These differ from the figures lesson 4 gives: the lab's engine and the lesson disagree."))
        + (_(" Your own texts do not change this table; the rest of the page uses them.") if setting.own else "")
    )


# --- where the merges went ------------------------------------------------------------------------
def merges_section(setting: Setting) -> None:
    texts, copies, budget, learned = setting.texts, setting.copies, setting.budget, setting.learned
    groups = merges_html(texts.english, texts.hindi, copies, budget)
    st.subheader(_n("The {n} merge by script", "The {n} merges by script", learned))
    st.markdown(" · ".join(f"**{number(n)}** {script_name(script)}" for script, n in setting.point.by_script.items())
                + " " + _n("(of {n} merge)", "(of {n} merges)", learned))
    if learned < budget:
        st.caption(_n("With k = {k} training stops after {n} merge: by then every word of its text is a single "
                      "token, so no pair is left to merge.",
                      "With k = {k} training stops after {n} merges: by then every word of its text is a single "
                      "token, so no pair is left to merge.", learned, k=copies))
    for (script, n, chips), column in zip(groups, st.columns(max(len(groups), 1))):
        with column:
            st.markdown(f"**{script_name(script)}**: " + _n("{n} token", "{n} tokens", n))
            st.html(chips)
    st.caption(_(
        "Each learned token is sorted by the script of its bytes: Latin or Devanagari letters (with any spaces and "
        "punctuation), mixed (both), or other (only spaces, punctuation or digits, another script, or stray bytes too "
        "few to say). A token that ends inside a Devanagari letter, such as ⟨E0 A4⟩, counts as Devanagari: no other "
        "script's letters start with those bytes. Hover over a token to see which merge made it."
    ))


# --- merge by merge -------------------------------------------------------------------------------
def curve_section(setting: Setting, large: bool, classroom: bool) -> None:
    """The compression curve and its step cursor (a fragment: dragging the cursor reruns only this)."""
    budget, copies = setting.budget, setting.copies
    st.subheader(_("Merge by merge"))
    if budget == 0:
        st.info(_("With a budget of 0 merges every token is a single byte. Raise the budget to watch the counts "
                  "fall."))
        return
    if state.value(STEP) > budget:
        state.set_value(STEP, budget)
    st.slider(_("After merge (drag to replay the training)"), 0, budget, key=STEP.skey)
    state.publish([STEP])
    step = state.value(STEP)
    run = setting.sweep.run(copies)
    english_curve = tuple(run.english_tokens(b) for b in range(budget + 1))
    hindi_curve = tuple(run.hindi_tokens(b) for b in range(budget + 1))
    charts.draw(curve_spec(english_curve, hindi_curve, step, large), key=CURVE_CHART.skey)
    sentences_section(setting, step, (english_curve[step], hindi_curve[step]), classroom,
                      _(" after merge {n}", n=number(step)))
    st.caption(_(
        "Each merge the tokenizer learned, in order, and what it does to the two sentences: most merges find nothing "
        "to join in a short sentence, so the lines fall in steps. Merge 0 is the raw UTF-8 bytes."
    ))


# --- the parallel set and real tokenizers ---------------------------------------------------------
def cost_section(setting: Setting, large: bool) -> None:
    texts, copies, budget = setting.texts, setting.copies, setting.budget
    st.subheader(_("Tokens per word on a parallel set, lab and real tokenizers"))
    pairs = parallel_pairs()
    lab_name = _("Lab BPE: k = {k}, {merges}", k=copies, merges=_n("{n} merge", "{n} merges", budget))
    rows, missing = cost_rows(lab_name, lab_cost(texts.english, texts.hindi, copies, budget))
    tables.show(cost_table(rows), hide_index=True, key=COST_TABLE.skey, column_config=cost_columns())
    charts.draw(cost_spec(tuple((r.name, r.cost.english_per_word, r.cost.hindi_per_word) for r in rows), large),
                key=COST_CHART.skey)
    published = lessons.data("published_premiums")
    figures = ", ".join(f"{localized(row)['what']} {decimal(row['premium'], 2).rstrip('0').rstrip('.')}×"
                        for row in published["rows"])
    st.caption(_(
        "{n} English sentences and their Hindi translations written for the lab (news, weather, food, travel, "
        "numbers), counted sentence by sentence and added up. The first row is the lab's tokenizer at the setting "
        "above: it learned from one short paragraph per language, so most of these words are new to it; compare its "
        "Hindi with its English, and watch the ratio move with the sliders. For comparison, published figures for "
        "Hindi against English on many more sentences (FLORES-200): {figures} ({source}).", n=len(pairs),
        figures=figures, source=md_escape(published["source"])))
    for title, reason in missing:
        st.caption(_("Not available here: {title} ({reason}).", title=md_escape(title), reason=md_escape(reason)))


# --- what others found ----------------------------------------------------------------------------
def findings_section() -> None:
    st.subheader(_("What researchers found"))
    for finding in map(localized, lessons.data("published_language_costs")["findings"]):
        st.html(callout_html(f"{finding['finding']}\n— {finding['who']}, “{finding['title']}”, {finding['venue']}."))
    st.caption(_("Published findings, not measured by this lab."))


def link_note() -> None:
    if state.too_long(SETTINGS):
        st.caption(_("Your texts are too long to keep in a shared link; the link keeps the sliders."))
