"""What the "Cost, context and speed" page draws: the scenario's inputs, measured rates, the window-fill chart.

The arithmetic is the engine's (:mod:`tokenizer.cost`); this module reads the
scenario (``lessons/data/cost_scenarios.json``), measures tokens per word with
a tokenizer (cached for every learner) and draws the context window as a bar
of articles, built once per distinct input.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

import altair as alt
import pandas as pd
import streamlit as st

import lessons
from tokenizer.cost import CostInputError, Fit, Rate, rate
from ui import charts, tokenizers

LANGUAGES = ("english", "hindi")
NAMES = {"english": "English", "hindi": "Hindi"}
MAX_TEXT_CHARS = 200_000
"""Your own text is measured up to this many characters (a few long articles is plenty for a rate)."""
MAX_DRAWN_ARTICLES = 40
"""Past this many articles in one window, the chart draws them as one block."""


def scenarios() -> dict[str, dict]:
    """Every scenario of the cost page, by id, in file order."""
    return {s["id"]: s for s in lessons.data("cost_scenarios")["scenarios"]}


def attempt(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> tuple[Any, str | None]:
    """``(fn(...), None)``, or ``(None, the learner's message)`` when the engine refuses an input."""
    try:
        return fn(*args, **kwargs), None
    except CostInputError as exc:
        return None, str(exc)


# -- measured rates --------------------------------------------------------------------------------
@st.cache_data(max_entries=32, show_spinner="Measuring the parallel set…")
def parallel_rates(key: str) -> tuple[Rate, Rate]:
    """Tokens per word of the lab's English/Hindi parallel set (each sentence counted on its own)."""
    tok = tokenizers.load(key)
    pairs = lessons.data("parallel_en_hi")["pairs"]
    return rate(tok, [p["en"] for p in pairs]), rate(tok, [p["hi"] for p in pairs])


@st.cache_data(max_entries=64, show_spinner="Measuring your text…")
def text_rate(key: str, text: str) -> Rate:
    """Tokens per word of one text (raises CostInputError when it has no words)."""
    return rate(tokenizers.load(key), [text[:MAX_TEXT_CHARS]])


def parallel_size() -> int:
    return len(lessons.data("parallel_en_hi")["pairs"])


# -- the window, drawn ------------------------------------------------------------------------------
ARTICLE, FREE, CAP, MARGIN = "an article", "room left", "the reply (output cap)", "margin"
KIND_COLOURS = {ARTICLE: charts.BLUE, FREE: "#FFFFFF", CAP: charts.ORANGE, MARGIN: charts.GREY}


def window_records(fits: tuple[tuple[str, Fit], ...]) -> list[dict]:
    """One record per drawn segment of each language's window (start and end in tokens)."""
    out = []
    for language, fit in fits:
        def add(kind: str, start: int, end: int, label: str = "") -> None:
            if end > start:
                out.append({"language": language, "kind": kind, "start": start, "end": end, "label": label,
                            "tokens": end - start, "wide": (end - start) / fit.window >= 0.035})

        if fit.count > MAX_DRAWN_ARTICLES:
            add(ARTICLE, 0, fit.used, f"{fit.count:,} articles")
        else:
            for i in range(fit.count):
                add(ARTICLE, i * fit.each, (i + 1) * fit.each, str(i + 1))
        add(FREE, fit.used, fit.room)
        add(CAP, fit.room, fit.room + fit.output_cap)  # named by the legend: a word would not fit on a phone
        add(MARGIN, fit.room + fit.output_cap, fit.window)
    return out


@st.cache_data(max_entries=64, show_spinner=False)
def window_spec(fits: tuple[tuple[str, Fit], ...], large: bool) -> dict:
    """The context window of each language as one bar: the articles that fit, the room left, the reply, the margin."""
    s = charts.sizes(large)
    data = pd.DataFrame(window_records(fits))
    window = fits[0][1].window
    kinds = [k for k in KIND_COLOURS if k in set(data["kind"])]
    x = alt.X("start:Q", scale=alt.Scale(domain=[0, window], nice=False),
              title=f"tokens in the {window:,}-token context window", axis=alt.Axis(format=",d", tickCount=8))
    base = alt.Chart(data).encode(y=alt.Y("language:N", title=None, sort=[lang for lang, _ in fits]))
    bars = base.mark_bar(stroke="#000", strokeWidth=1).encode(
        x=x, x2="end:Q",
        color=alt.Color("kind:N", scale=alt.Scale(domain=kinds, range=[KIND_COLOURS[k] for k in kinds]),
                        legend=alt.Legend(orient="top", title=None, columns=2)),
        tooltip=[alt.Tooltip("language:N"), alt.Tooltip("kind:N"), alt.Tooltip("label:N", title="which"),
                 alt.Tooltip("tokens:Q", format=",d")],
    )
    labels = base.transform_filter(alt.datum.wide).transform_filter(alt.datum.label != "").transform_calculate(
        middle="(datum.start + datum.end) / 2").mark_text(fontSize=s.mark - 2, color="#000").encode(
        x=alt.X("middle:Q", scale=alt.Scale(domain=[0, window], nice=False)), text="label:N")
    return charts.spec(alt.layer(bars, labels).properties(height=alt.Step(s.step * 1.6)), large=large)


@dataclass(frozen=True)
class Article:
    """One language's article as the page uses it: words, and the tokens in and out."""

    story_words: int
    input_tokens: int
    summary_words: int
    output_tokens: int


__all__ = ["ARTICLE", "Article", "CAP", "FREE", "LANGUAGES", "MARGIN", "MAX_TEXT_CHARS", "NAMES", "attempt",
           "parallel_rates", "parallel_size", "scenarios", "text_rate", "window_records", "window_spec"]
