"""What the "Real tokenizers" page draws: the Hindi premium of each tokenizer, split into its two parts.

premium = (Hindi bytes / English bytes) x (Hindi tokens per byte / English tokens per byte)

The measuring is the engine's (:func:`tokenizer.measure.premium`); this
module turns the measures into a table and a chart. On a logarithmic axis the
two parts add up to the premium, so the chart draws each as a bar from 1
(the same cost in both languages): right of 1 costs Hindi more, left of 1
costs it less.
"""

from __future__ import annotations

from dataclasses import dataclass

import altair as alt
import pandas as pd
import streamlit as st

import lessons
from tokenizer.measure import Premium, premium
from tokenizer.textstats import text_counts
from ui import charts, tokenizers

PARTS = ("premium", "UTF-8 part", "tokenizer part")
PART_COLOURS = (charts.ORANGE, charts.BLUE, charts.TEAL)
PUBLISHED = "published premium (FLORES-200)"
UTF8 = "UTF-8 bytes (no tokenizer)"
CHARS = "Characters (code points)"


@dataclass(frozen=True)
class Row:
    key: str
    name: str
    en_tokens: int
    hi_tokens: int
    premium: float
    utf8_part: float
    tokenizer_part: float
    licence: str


@st.cache_data(max_entries=256, show_spinner=False)
def measured(key: str, english: str, hindi: str) -> Premium:
    """One tokenizer on the pair, cached for every learner."""
    return premium(tokenizers.load(key), english, hindi)


def rows(keys: list[str], english: str, hindi: str) -> list[Row]:
    """One row per tokenizer, then the two references (raw UTF-8 bytes, characters)."""
    out = []
    for key in keys:
        tok = tokenizers.load(key)
        p = measured(key, english, hindi)
        out.append(Row(key, tok.name, p.english.tokens, p.hindi.tokens, p.premium, p.utf8_part, p.tokenizer_part,
                       tok.licence or "the lab's own"))
    en, hi = text_counts(english), text_counts(hindi)
    bytes_ratio = hi.bytes / en.bytes if en.bytes else 0.0
    out.append(Row("utf8", UTF8, en.bytes, hi.bytes, bytes_ratio, bytes_ratio, 1.0, ""))
    chars_ratio = hi.code_points / en.code_points if en.code_points else 0.0
    out.append(Row("chars", CHARS, en.code_points, hi.code_points, chars_ratio, chars_ratio, 1.0, ""))
    return out


def table(data: list[Row]) -> pd.DataFrame:
    return pd.DataFrame(
        {
            "tokenizer": [r.name for r in data],
            "English": [r.en_tokens for r in data],
            "Hindi": [r.hi_tokens for r in data],
            "Hindi premium": [r.premium for r in data],
            "UTF-8 part": [r.utf8_part for r in data],
            "tokenizer part": [r.tokenizer_part for r in data],
            "licence": [r.licence for r in data],
        }
    )


COLUMNS = {
    "English": st.column_config.NumberColumn(help="Tokens for the English text (bytes or characters on the reference rows)."),
    "Hindi": st.column_config.NumberColumn(help="Tokens for the Hindi text."),
    "Hindi premium": st.column_config.NumberColumn(format="%.2f×", help="Hindi tokens ÷ English tokens."),
    "UTF-8 part": st.column_config.NumberColumn(format="%.2f×", help="Hindi bytes ÷ English bytes: what UTF-8 alone charges."),
    "tokenizer part": st.column_config.NumberColumn(
        format="%.2f×", help="Hindi tokens per byte ÷ English tokens per byte: what the tokenizer adds (above 1) or "
        "takes back (below 1). Premium = UTF-8 part × tokenizer part."),
}


def published() -> list[dict]:
    return lessons.data("published_premiums")["rows"]


def chart(data: list[Row], *, large: bool) -> alt.LayerChart:
    s = charts.sizes(large)
    names = {r.key: r.name for r in data}
    records = [{"tokenizer": r.name, "part": part, "value": value, "label": f"{value:.2f}×"}
               for r in data for part, value in zip(PARTS, (r.premium, r.utf8_part, r.tokenizer_part))]
    for p in published():  # the published figure as a bar of its own, under the lab's measurement
        if p["matches"] in names:
            records.append({"tokenizer": names[p["matches"]], "part": PUBLISHED, "value": p["premium"],
                            "label": f"{p['premium']:.2f}× published"})
    long = pd.DataFrame(records)
    parts = [p for p in (*PARTS, PUBLISHED) if p in set(long["part"])]
    colours = dict(zip((*PARTS, PUBLISHED), (*PART_COLOURS, charts.GREY)))
    order = [r.name for r in data]
    lo = min(0.25, float(long["value"].min()) / 1.4)
    hi = max(8.0, float(long["value"].max()) * 1.6)
    scale = alt.Scale(type="log", domain=[lo, hi], nice=False)
    base = alt.Chart(long).encode(
        y=alt.Y("tokenizer:N", sort=order, title=None),
        yOffset=alt.YOffset("part:N", sort=parts),
    )
    bars = base.mark_bar(stroke="#000", strokeWidth=0.8).encode(
        x=alt.X("value:Q", scale=scale, title="× as many in Hindi as in English (log scale; 1 = the same)",
                axis=alt.Axis(values=[0.25, 0.5, 1, 2, 4, 8, 16, 32])),
        x2=alt.datum(1),
        color=alt.Color("part:N", scale=alt.Scale(domain=parts, range=[colours[p] for p in parts]),
                        legend=alt.Legend(orient="top", title=None)),
        tooltip=[alt.Tooltip("tokenizer:N"), alt.Tooltip("part:N"), alt.Tooltip("value:Q", format=".2f")],
    )
    right = base.transform_filter(alt.datum.value >= 1).mark_text(align="left", dx=4, fontSize=s.mark - 2).encode(
        x="value:Q", text="label:N")
    left = base.transform_filter(alt.datum.value < 1).mark_text(align="right", dx=-4, fontSize=s.mark - 2).encode(
        x="value:Q", text="label:N")
    one = alt.Chart(pd.DataFrame({"x": [1.0]})).mark_rule(color="#000", strokeWidth=2).encode(x=alt.X("x:Q", scale=scale))
    return alt.layer(bars, right, left, one).properties(height=alt.Step(s.step * 0.7))


@st.cache_data(max_entries=64, show_spinner=False)
def chart_spec(data: tuple[Row, ...], large: bool) -> dict:
    return charts.spec(chart(list(data), large=large), large=large)


__all__ = ["COLUMNS", "Row", "chart", "chart_spec", "measured", "published", "rows", "table"]
