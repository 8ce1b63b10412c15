"""The premium of a language over English, split into its two parts: one table and one chart for every page.

premium = (other bytes / English bytes) x (other tokens per byte / English tokens per byte)
        = the UTF-8 part                x the tokenizer part

The measuring is the engine's (:func:`analyses.measure.premium`); this
module turns the measures into rows, a table and a chart. Two pages draw it:

- *Real tokenizers*: one sentence and its Hindi translation, a row per
  tokenizer (:func:`rows`), compared as whole texts, beside published figures;
- *Beyond Hindi*: many languages' sample texts, a row per (language,
  tokenizer) (:func:`language_rows`), compared per character because the
  samples are not exact translations.

On a logarithmic axis the two parts add up to the premium, so the chart
(:func:`chart`) draws each as a bar from 1 (the same cost as English): right of
1 costs the other language more, left of 1 costs it less.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

import altair as alt
import pandas as pd
import streamlit as st

import i18n
import lessons
from analyses.measure import Premium, byte_measure, char_measure, measure, premium
from analyses.textstats import text_counts
from i18n import N_, _, decimal
from lessons import LanguageSample
from ui import charts, choices
from ui.display import readable_text

#: The parts, the published figure and the two reference rows are English data, marked for the catalogue: a table
#: or a chart shows each through _() (:func:`shown`), so the rows, cached for every learner, are the same in any
#: language.
PARTS = (N_("premium"), N_("UTF-8 part"), N_("tokenizer part"))
PART_COLOURS = (charts.ORANGE, charts.BLUE, charts.TEAL)
PUBLISHED = N_("published (FLORES-200)")  # short: the legend fits a phone
UTF8 = N_("UTF-8 bytes (no tokenizer)")
CHARS = N_("Characters (code points)")
OWN_LICENCE = N_("the lab's own")


def shown(name: str) -> str:
    """A row's name or licence as a learner reads it: the references' and the lab's words translated, a
    tokenizer's name as it is."""
    return _(name) if name in (UTF8, CHARS, OWN_LICENCE, PUBLISHED, *PARTS) else name
BYTES_KEY = "utf8"
"""The key of the reference "tokenizer" that counts raw UTF-8 bytes (a byte-level tokenizer with no merges)."""
UNIT_WORDS = {"text": ("text", "texts"), "char": ("character", "characters"), "grapheme": ("letter", "letters")}
"""What one unit of ``per`` is called in the data (a table's column names; a grapheme cluster is a letter as a reader
counts it). On screen: :func:`unit_word`."""


def unit_word(per: str, many: bool = False) -> str:
    """One unit of ``per`` (or several) as the learner's language calls it: "character", "अक्षर"."""
    words = {"text": (_("text"), _("texts")), "char": (_("character"), _("characters")),
             "grapheme": (_("letter"), _("letters"))}
    return words[per][1 if many else 0]
SHORT_SAMPLE = 500
"""A sample shorter than this many characters is named as less steady on the Beyond Hindi page."""


@dataclass(frozen=True)
class Row:
    """One tokenizer on one language, against English."""

    key: str  # the tokenizer's key, or "utf8" / "chars" for the references
    name: str  # the tokenizer's name
    measured: Premium
    licence: str = ""
    language: str = "Hindi"
    script: str = ""
    language_id: str = ""  # gflanguages id on the Beyond Hindi page

    @property
    def en_tokens(self) -> int:
        return self.measured.english.tokens

    @property
    def tokens(self) -> int:
        """Tokens of the other language's text."""
        return self.measured.other.tokens

    hi_tokens = tokens  # the Real tokenizers page's other language is Hindi

    @property
    def premium(self) -> float:
        return self.measured.premium

    @property
    def utf8_part(self) -> float:
        return self.measured.utf8_part

    @property
    def tokenizer_part(self) -> float:
        return self.measured.tokenizer_part

    @property
    def per_unit(self) -> float:
        """The other text's tokens per unit of ``per`` (per character, per letter)."""
        return self.measured.other_per_unit


# -- one sentence pair (Real tokenizers) -----------------------------------------------------------
@st.cache_data(max_entries=256, show_spinner=False)
def measured(key: str, english: str, hindi: str) -> Premium:
    """One tokenizer on the pair, cached for every learner."""
    return premium(choices.load(key), english, hindi)


def rows(keys: list[str], english: str, hindi: str) -> list[Row]:
    """One row per tokenizer, then the two references (raw UTF-8 bytes, characters)."""
    out = []
    for key in keys:
        tok = choices.load(key)
        out.append(Row(key, tok.name, measured(key, english, hindi), tok.licence or OWN_LICENCE))
    out.append(Row(BYTES_KEY, UTF8, Premium(byte_measure(english), byte_measure(hindi))))
    out.append(Row("chars", CHARS, Premium(char_measure(english), char_measure(hindi))))
    return out


def table(data: list[Row]) -> pd.DataFrame:
    return pd.DataFrame(
        {
            "tokenizer": [shown(r.name) for r in data],  # the premium and its parts next, on a phone's first screen
            "Hindi premium": [r.premium for r in data],
            "UTF-8 part": [r.utf8_part for r in data],
            "tokenizer part": [r.tokenizer_part for r in data],
            "English": [r.en_tokens for r in data],
            "Hindi": [r.hi_tokens for r in data],
            "licence": [shown(r.licence) for r in data],
        }
    )


def columns() -> dict:
    """The premium table's columns, labelled in the learner's language."""
    return {
        "tokenizer": st.column_config.TextColumn(_("tokenizer")),
        "English": st.column_config.NumberColumn(
            _("English"), help=_("Tokens for the English text (bytes or characters on the reference rows).")),
        "Hindi": st.column_config.NumberColumn(_("Hindi"), help=_("Tokens for the Hindi text.")),
        "Hindi premium": st.column_config.NumberColumn(_("Hindi premium"), format="%.2f×",
                                                       help=_("Hindi tokens ÷ English tokens.")),
        "UTF-8 part": st.column_config.NumberColumn(
            _("UTF-8 part"), format="%.2f×", help=_("Hindi bytes ÷ English bytes: what UTF-8 alone charges.")),
        "tokenizer part": st.column_config.NumberColumn(
            _("tokenizer part"), format="%.2f×",
            help=_("Hindi tokens per byte ÷ English tokens per byte: what the tokenizer adds (above 1) or takes back "
                   "(below 1). Premium = UTF-8 part × tokenizer part.")),
        "licence": st.column_config.TextColumn(_("licence")),
    }


def published() -> list[dict]:
    return lessons.data("published_premiums")["rows"]


# -- many languages (Beyond Hindi) -----------------------------------------------------------------
LABEL_JOIN = " · "


def language_label(sample: LanguageSample) -> str:
    """``"Hindi · हिन्दी"``: the name a learner knows, and the language's own (English: the data's label)."""
    return sample.label if sample.native == sample.label else f"{sample.label}{LABEL_JOIN}{sample.native}"


def _hindi_names() -> dict[str, dict]:
    spec = lessons.data("languages")
    return {entry["id"]: entry.get("hi", {}) for entry in (spec["english"], *spec["languages"])}


def shown_language(language_id: str, label: str) -> str:
    """A language's label (:func:`language_label`) as the learner's language names it: "तमिल · தமிழ்" in Hindi,
    "Tamil · தமிழ்" in English (the Hindi names beside the English in lessons/data/languages.json)."""
    hindi = _hindi_names().get(language_id, {}).get("label")
    if not hindi or i18n.current() == i18n.DEFAULT:
        return label
    english, _sep, native = label.partition(LABEL_JOIN)
    name = i18n.localized({"label": english, "hi": {"label": hindi}})["label"]  # marked in the pseudo-locale
    return name if not native or native == hindi else f"{name}{LABEL_JOIN}{native}"


#: Where Babel's Hindi name for a script is shorter than a Hindi reader expects (CLDR's "सरलीकृत" for Hans alone).
_HINDI_SCRIPTS = {"Hans": "सरलीकृत हान", "Hant": "पारंपरिक हान"}


@cache
def _babel_scripts(locale: str) -> dict[str, str]:
    from babel import Locale

    return dict(Locale.parse(locale).scripts)


def shown_script(language_id: str, name: str) -> str:
    """A sample's script (gflanguages' English name, ``name``; its ISO 15924 code ends ``language_id``, as ``Deva``
    in ``hi_Deva``) as the learner's language names it: Babel's (CLDR's) names in Hindi, देवनागरी, तमिल; the English
    name where Babel names none."""
    code = language_id.rpartition("_")[2]
    if i18n.current() == i18n.DEFAULT or not code:
        return name
    hindi = _HINDI_SCRIPTS.get(code) or _babel_scripts("hi").get(code)
    return i18n.localized({"script": name, "hi": {"script": hindi}})["script"] if hindi else name


def shown_passage(language_id: str, passage: str) -> str:
    """Which part of the Declaration a sample is from, in the learner's language."""
    hindi = _hindi_names().get(language_id, {}).get("passage")
    return i18n.localized({"passage": passage, "hi": {"passage": hindi}})["passage"] if hindi else passage


def samples_in(group: str) -> tuple[LanguageSample, ...]:
    """English, then the languages of ``group`` (``"all"``: every one), from the samples read once per server."""
    found, _names = language_samples()
    return (found[0], *[s for s in found[1:] if group == "all" or s.group == group])


@st.cache_resource(max_entries=64, show_spinner=False)
def language_rows(keys: tuple[str, ...], group: str, per: str, line: bool) -> tuple[Row, ...]:
    """A row per (language, tokenizer), English first, then a raw-bytes row per language; measured once per
    server for every learner (rows are frozen, so they are shared, not copied).

    English is the yardstick. ``line``: measure the one-line samples, not the longer ones.
    """
    samples = samples_in(group)
    english = samples[0]
    pick = (lambda s: s.line) if line else (lambda s: s.text)
    out = []
    for key in keys:
        tok = choices.load(key)
        base = measure(tok, pick(english))
        for sample in samples:
            m = base if sample is english else measure(tok, pick(sample))
            out.append(Row(key, tok.name, Premium(base, m, per), tok.licence or "the lab's own",
                           language_label(sample), sample.script, sample.id))
    base = byte_measure(pick(english))
    for sample in samples:
        out.append(Row(BYTES_KEY, UTF8, Premium(base, byte_measure(pick(sample)), per), "", language_label(sample),
                       sample.script, sample.id))
    return tuple(out)


def language_table(data: Sequence[Row], per: str) -> pd.DataFrame:
    one, many = UNIT_WORDS[per]
    return pd.DataFrame(
        {  # × English and its parts next, on a phone's first screen
            "language": [shown_language(r.language_id, r.language) for r in data],
            "tokenizer": [shown(r.name) for r in data],
            "× English": [r.premium for r in data],
            "UTF-8 part": [r.utf8_part for r in data],
            "tokenizer part": [r.tokenizer_part for r in data],
            f"tokens per {one}": [r.per_unit for r in data],
            many: [r.measured.other.code_points if per == "char" else r.measured.other.graphemes for r in data],
            "UTF-8 bytes": [r.measured.other.bytes for r in data],
            "tokens": [r.tokens for r in data],
            "script": [shown_script(r.language_id, r.script) for r in data],
        }
    )


def language_columns(per: str) -> dict:
    """The language table's columns, labelled in the learner's language (the data's names stay English)."""
    one, many = UNIT_WORDS[per]
    unit = unit_word(per)
    return {
        "language": st.column_config.TextColumn(_("language"), pinned=True),
        "tokenizer": st.column_config.TextColumn(_("tokenizer")),
        many: st.column_config.NumberColumn(
            unit_word(per, many=True),
            help=_("Code points in the sample.") if per == "char" else _(
                "Grapheme clusters in the sample: letters as a reader counts them (a consonant with its vowel sign "
                "is one).")),
        "UTF-8 bytes": st.column_config.NumberColumn(
            _("UTF-8 bytes"), help=_("The sample's size in UTF-8: what a byte-level tokenizer with no merges would "
                                     "count.")),
        "tokens": st.column_config.NumberColumn(_("tokens"), help=_("The tokenizer's tokens for the sample.")),
        f"tokens per {one}": st.column_config.NumberColumn(_("tokens per {unit}", unit=unit), format="%.3f"),
        "× English": st.column_config.NumberColumn(
            _("× English"), format="%.2f×",
            help=_("Tokens per {unit} ÷ English's tokens per {unit}: the premium.", unit=unit)),
        "UTF-8 part": st.column_config.NumberColumn(
            _("UTF-8 part"), format="%.2f×",
            help=_("UTF-8 bytes per {unit} ÷ English's: what UTF-8 alone charges.", unit=unit)),
        "tokenizer part": st.column_config.NumberColumn(
            _("tokenizer part"), format="%.2f×",
            help=_("Tokens per byte ÷ English's tokens per byte: what the tokenizer adds (above 1) or takes back "
                   "(below 1). × English = UTF-8 part × tokenizer part.")),
        "script": st.column_config.TextColumn(_("script")),
    }


# -- the chart -------------------------------------------------------------------------------------
def chart(data: list[Row], *, large: bool, by: str = "tokenizer", x_title: str = "", show_published: bool = True,
          bar: float = 0.7, parts: Sequence[str] = PARTS, height: int | None = None) -> alt.LayerChart:
    """Each row's premium and its two parts, as bars from 1 on a log scale.

    ``by``: what names a row on the y axis, ``"tokenizer"`` or ``"language"``. ``show_published``:
    add the published figure under the lab's own where one matches (Real tokenizers only).
    ``bar``: one bar's thickness, as a share of the normal band (thinner for many rows). ``parts``: which of
    :data:`PARTS` to draw. ``height``: the plot's height in px, for a chart sized to a projector's screen (its legend
    then one row, a language's name on one line); None: a bar's height, whatever the rows.
    """
    s = charts.sizes(large)
    label = (lambda r: shown(r.name)) if by == "tokenizer" else (lambda r: shown_language(r.language_id, r.language))
    keys = {r.key: label(r) for r in data}
    records = [{by: label(r), "part": _(part), "value": value, "label": f"{decimal(value)}×"}
               for r in data for part, value in zip(PARTS, (r.premium, r.utf8_part, r.tokenizer_part)) if part in parts]
    if show_published:
        for p in published():  # the published figure as a bar of its own, under the lab's measurement
            if p["matches"] in keys:
                records.append({by: keys[p["matches"]], "part": _(PUBLISHED), "value": p["premium"],
                                "label": f"{decimal(p['premium'])}×"})  # grey and dashed: the legend names it
    long = pd.DataFrame(records)
    named = [_(p) for p in (*PARTS, PUBLISHED)]  # the parts as the legend names them
    drawn = [p for p in named if p in set(long["part"])]
    colours = dict(zip(named, (*PART_COLOURS, charts.GREY)))
    order = [label(r) for r in data]
    positive = long["value"][long["value"] > 0]
    lo = min(0.25, float(positive.min()) / 1.4) if len(positive) else 0.25
    hi = max(8.0, float(long["value"].max()) * 2.2)  # room for the longest bar's label, on a phone too
    scale = alt.Scale(type="log", domain=[lo, hi], nice=False)
    # A language's name and its own name on two lines ("Hindi · हिन्दी"), so the labels stay narrow on a phone.
    two_lines = by == "language" and height is None
    axis = alt.Axis(labelExpr=f"split(datum.label, '{LABEL_JOIN}')") if two_lines else alt.Axis()
    base = alt.Chart(long).transform_filter(alt.datum.value > 0).encode(
        y=alt.Y(f"{by}:N", sort=order, title=None, axis=axis),
        yOffset=alt.YOffset("part:N", sort=drawn),
    )
    bars = base.mark_bar(stroke="#000", strokeWidth=0.8).encode(
        strokeDash=alt.condition(alt.datum.part == _(PUBLISHED), alt.value([4, 2]), alt.value([1, 0])),
        # the title on two lines and the legend two to a row: both fit a phone's width
        x=alt.X("value:Q", scale=scale,
                title=x_title or [_("× as many in Hindi as in English"), _("(log scale; 1 = the same)")],
                axis=alt.Axis(values=[0.25, 0.5, 1, 2, 4, 8, 16, 32])),
        x2=alt.datum(1),
        color=alt.Color("part:N", scale=alt.Scale(domain=drawn, range=[colours[p] for p in drawn]),
                        legend=None if len(drawn) == 1 else alt.Legend(  # one colour needs no legend
                            orient="top", title=None, columns=len(drawn) if height else 2 if by == "language" else 1)),
        tooltip=[alt.Tooltip(f"{by}:N", title=_("tokenizer") if by == "tokenizer" else _("language")),
                 alt.Tooltip("part:N", title=_("part")), alt.Tooltip("value:Q", format=".2f", title=_("value"))],
    )
    right = base.transform_filter(alt.datum.value >= 1).mark_text(align="left", dx=4, fontSize=s.small).encode(
        x="value:Q", text="label:N")
    # below 1 the bar runs left from 1, towards the names: its label goes right of the 1 line, in the bar's own row
    left = base.transform_filter(alt.datum.value < 1).mark_text(align="left", dx=4, fontSize=s.small).encode(
        x=alt.datum(1), text="label:N")
    one = alt.Chart(pd.DataFrame({"x": [1.0]})).mark_rule(color="#000", strokeWidth=2).encode(x=alt.X("x:Q", scale=scale))
    return charts.layered(bars, right, left, one).properties(height=height or alt.Step(s.step * bar))


def slide_height(bars: int) -> int:
    """A premium chart's plot height on a slide: its bars at the normal band, or fewer px each when there are many,
    so the chart stays on a projector's first screen (:data:`ui.charts.SLIDE_CHART_PX`)."""
    return min(bars * charts.SLIDE_BAR_PX, charts.SLIDE_CHART_PX)


@st.cache_data(max_entries=64, show_spinner=False)
def chart_spec(data: tuple[Row, ...], large: bool, by: str = "tokenizer", x_title: str = "",
               show_published: bool = True, bar: float = 0.7, height: int | None = None,
               lang: str = i18n.DEFAULT) -> dict:
    """:func:`chart` as a spec, its words in ``lang`` (cached per language too)."""
    with i18n.using(lang):
        return charts.spec(chart(list(data), large=large, by=by, x_title=x_title, show_published=show_published,
                                 bar=bar, height=height), large=large)




@st.cache_resource(show_spinner=False)
def language_samples() -> tuple[tuple[LanguageSample, ...], tuple[str, ...]]:
    """Every language's sample text, read from gflanguages once per server (raises lessons.SamplesUnavailable)."""
    return lessons.language_samples()


@dataclass(frozen=True)
class LanguageView:
    """What the Beyond Hindi page draws for one chosen tokenizer."""

    chart_rows: tuple[Row, ...]  # that tokenizer, one row per language but English, the dearest first
    table_rows: tuple[Row, ...]  # every row, language by language in the chart's order, English last
    summary: str


@st.cache_resource(max_entries=128, show_spinner=False)
def language_view(keys: tuple[str, ...], group: str, per: str, line: bool, chart_key: str) -> LanguageView:
    """The rows of :func:`language_rows` ordered for the chart (``chart_key``'s) and the table, with a summary."""
    return order_languages(language_rows(keys, group, per, line), chart_key)


def order_languages(data: Sequence[Row], chart_key: str, *, english_id: str = "en_Latn") -> LanguageView:
    """Order the rows for the chart and the table, and say in one sentence who pays most and least."""
    chart_rows = sorted((r for r in data if r.key == chart_key and r.language_id != english_id),
                        key=lambda r: -r.premium)
    order = {r.language_id: i for i, r in enumerate(chart_rows)}
    keys = list(dict.fromkeys(r.key for r in data))
    table_rows = sorted(data, key=lambda r: (order.get(r.language_id, len(order)), keys.index(r.key)))
    return LanguageView(tuple(chart_rows), tuple(table_rows), summary_of(chart_rows))


def summary_of(chart_rows: Sequence[Row]) -> str:
    """Who pays most and least, in one sentence in the current language ("" for no rows). A page says it with
    ``summary_of(view.chart_rows)`` where it draws it (a view, cached for every learner, keeps the English)."""
    if not chart_rows:
        return ""
    top, low = chart_rows[0], chart_rows[-1]
    summary = _("With {name}, {top} pays the most: {premium}× English's tokens per {unit} (its UTF-8 part, {utf8}×, "
                "times its tokenizer part, {part}×); {low} the least, {low_premium}×.", name=shown(top.name),
                top=shown_language(top.language_id, top.language), premium=decimal(top.premium),
                unit=unit_word(top.measured.per), utf8=decimal(top.utf8_part), part=decimal(top.tokenizer_part),
                low=shown_language(low.language_id, low.language), low_premium=decimal(low.premium))
    hindi = next((r for r in chart_rows if r.language_id == "hi_Deva"), None)
    if hindi is not None:
        summary += " " + _("Hindi: {premium}×.", premium=decimal(hindi.premium))
    dear = sum(1 for r in chart_rows if r.premium >= 2)
    summary += " " + _("{dear} of {n} languages pay twice English's rate or more.", dear=dear, n=len(chart_rows))
    return summary


@st.cache_data(max_entries=64, show_spinner=False)
def language_chart_spec(keys: tuple[str, ...], group: str, per: str, line: bool, chart_key: str, large: bool,
                        slide: bool = False, lang: str = i18n.DEFAULT) -> dict:
    """The premium chart of ``chart_key`` by language, built once per distinct view and language. ``slide``: sized to
    a projector's screen, the premium alone (one bar a language; its two parts are the other chart's, one click
    away)."""
    rows = language_view(keys, group, per, line, chart_key).chart_rows
    with i18n.using(lang):
        return charts.spec(chart(list(rows), large=large, by="language", show_published=False, bar=0.6,
                                 x_title=_("× English, per {unit} (log scale)", unit=unit_word(per)),
                                 parts=PARTS[:1] if slide else PARTS,
                                 height=slide_height(len(rows)) if slide else None), large=large)


@st.cache_data(max_entries=64, show_spinner=False)
def language_frame(keys: tuple[str, ...], group: str, per: str, line: bool, chart_key: str,
                   lang: str = i18n.DEFAULT) -> pd.DataFrame:
    """The table of every language and tokenizer, in the chart's order (its names in ``lang``)."""
    with i18n.using(lang):
        return language_table(language_view(keys, group, per, line, chart_key).table_rows, per)


def samples_table(samples: Sequence[LanguageSample], line: bool) -> pd.DataFrame:
    """The texts the page measured, shown as text (line breaks as ↵)."""

    texts = [s.line if line else s.text for s in samples]
    counts = [text_counts(t) for t in texts]
    return pd.DataFrame(
        {
            "language": [shown_language(s.id, language_label(s)) for s in samples],
            "script": [shown_script(s.id, s.script) for s in samples],
            "the line is from": [shown_passage(s.id, s.passage) for s in samples],
            "characters": [c.code_points for c in counts],
            "UTF-8 bytes": [c.bytes for c in counts],
            "text": [readable_text(t, limit=400) for t in texts],
        }
    )


__all__ = ["BYTES_KEY", "columns", "shown", "LanguageView", "Row", "SHORT_SAMPLE", "UNIT_WORDS", "chart", "chart_spec",
           "language_chart_spec", "language_columns", "language_frame", "language_label", "language_rows",
           "language_samples", "language_table", "language_view", "measured", "order_languages", "published", "rows",
           "samples_in", "samples_table", "shown_language", "shown_passage", "shown_script", "summary_of", "table", "unit_word"]
