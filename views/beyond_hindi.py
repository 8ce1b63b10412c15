"""What the "Beyond Hindi" page draws: many languages' tokens per character against English, in two parts.

The measuring, the chart and the table are the kit's (:mod:`ui.premium`, shared with Real tokenizers); this
module declares the page's keys once and holds its sections, which the page composes.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import NamedTuple

import streamlit as st

import i18n
import lessons
from i18n import N_, _, localized, number
from tokenizer import TextTokenizer
from ui import charts, choices, state, tables, viewport
from ui import premium as pv
from ui.display import and_words, md_escape, translated
from ui.layout import classroom_on, figure

PAGE = "langs"
SPEC = lessons.data("languages")
GROUPS = {"all": N_("All"), **SPEC["groups"]}  # the groups' Hindi is beside them in lessons/data/languages.json
PERS = {"char": N_("character"), "grapheme": N_("letter (grapheme)")}
SAMPLES = {"long": N_("Long passages"), "line": N_("One line")}


def group_names() -> dict[str, str]:
    """The groups of languages as the learner's language names them."""
    hindi = SPEC.get("hi", {}).get("groups", {})
    return {"all": _("All"), **{group: localized({"name": name, "hi": {"name": hindi.get(group, name)}})["name"]
                                for group, name in SPEC["groups"].items()}}
DEFAULT_TOKENIZERS = ("o200k_base", "cl100k_base")
FALLBACK_TOKENIZERS = ("english-hindi-fair",)  # when no real tokenizer is installed
GROUP = state.Param(PAGE, "group", "all", choices=tuple(GROUPS))
PER = state.Param(PAGE, "per", "char", choices=tuple(PERS))
SAMPLE = state.Param(PAGE, "sample", "long", choices=tuple(SAMPLES))
CHART = state.Param(PAGE, "chart", DEFAULT_TOKENIZERS[0])
"""The tokenizer charted; its choices are the tokenizers picked (:func:`chart_param`). The chart itself is
drawn under the same key."""
PARAMS = [GROUP, PER, SAMPLE]
TABLE = state.Key(PAGE, "table")
PARTS_CHART = state.Key(PAGE, "parts_chart")
SAMPLES_OPEN = state.Key(PAGE, "samples_open")
SAMPLES_TABLE = state.Key(PAGE, "samples")
ABOUT_OPEN = state.Key(PAGE, "about_open")


class Samples(NamedTuple):
    all: tuple  # English first
    missing: tuple[str, ...]


class Settings(NamedTuple):
    keys: tuple[str, ...]
    group: str
    per: str
    line: bool
    chart_key: str

    @property
    def measured(self) -> tuple[tuple[str, ...], str, str, bool]:
        """What the kit's language functions take before the chart's key."""
        return self.keys, self.group, self.per, self.line

    @property
    def one(self) -> str:
        """The unit compared, in words in the learner's language ("character", "कैरेक्टर")."""
        return pv.unit_word(self.per)


def samples() -> Samples | None:
    """The sample texts, or None (after saying why they cannot be read)."""
    try:
        return Samples(*pv.language_samples())
    except lessons.SamplesUnavailable as exc:
        st.error(md_escape(str(exc)), icon=":material/error:")
        return None


def intro(found: Samples) -> None:
    st.markdown(_(
        "The Real tokenizers page weighed Hindi against English. Here are {n} languages in {scripts} scripts, each "
        "reading the Universal Declaration of Human Rights. **× English** is how many tokens a language pays per "
        "character for each token English pays per character: **UTF-8 part** (bytes per character, against English) "
        "× **tokenizer part** (tokens per byte, against English).", n=len(found.all) - 1,
        scripts=len({s.script for s in found.all[1:]})))


def pick_section() -> list[tuple[str, TextTokenizer]]:
    real_keys = [e.key for e in choices.real_entries()]
    default = [k for k in DEFAULT_TOKENIZERS if k in real_keys] or list(FALLBACK_TOKENIZERS)
    return choices.pick_many(PAGE, default=default, label=_("Tokenizers to measure"), upload=False)


def chart_param(chosen: Sequence[tuple[str, TextTokenizer]]) -> state.Param:
    """:data:`CHART` with the tokenizers picked (and raw UTF-8 bytes) as its choices."""
    options = (*(key for key, _tok in chosen), pv.BYTES_KEY)
    return replace(CHART, default=options[0], choices=options)


def controls_section(chosen: Sequence[tuple[str, TextTokenizer]], chart: state.Param) -> Settings:
    """The languages, the unit, the tokenizer charted and the sample; returns the settings they make."""
    # a choice here brings the chart it changes into view (ui/viewport.py)
    left, right = st.container(key=viewport.action("languages")).columns([3, 2])
    with left:
        groups = group_names()
        st.segmented_control(_("Languages"), tuple(GROUPS), key=GROUP.skey, format_func=groups.__getitem__, required=True)
    with right:
        st.segmented_control(_("Compare per"), tuple(PERS), key=PER.skey, format_func=translated(PERS).__getitem__,
                             required=True,
                             help=_("A character is a code point as stored. A letter is a grapheme cluster, what a "
                                    "reader counts as one: क plus its vowel sign ि is one letter, two characters."))
    if state.value(chart) not in chart.choices:
        state.set_value(chart, chart.default)
    names = {key: tok.name for key, tok in chosen} | {pv.BYTES_KEY: _("UTF-8 bytes, no merges")}
    left, right = st.columns([3, 2])
    with left:
        st.selectbox(_("Chart for"), chart.choices, key=chart.skey, format_func=names.__getitem__,
                     help=_("The chart shows one tokenizer at a time; the table below has them all. “{bytes}” is a "
                            "byte-level tokenizer that learned nothing: its premium is the UTF-8 part alone.",
                            bytes=names[pv.BYTES_KEY]))
    with right:
        st.segmented_control(_("Sample"), tuple(SAMPLES), key=SAMPLE.skey, format_func=translated(SAMPLES).__getitem__,
                             required=True,
                             help=_("One line per language, or that line with the longer passages gflanguages keeps "
                                    "(up to about {n} characters). A longer sample gives steadier figures.",
                                    n=number(2_000)))
    return Settings(tuple(key for key, _tok in chosen), state.value(GROUP), state.value(PER),
                    state.value(SAMPLE) == "line", state.value(chart))


def chart_section(settings: Settings, large: bool) -> bool:
    """The chart for one tokenizer; False (after saying why) when a tokenizer cannot read a sample."""
    try:
        view = pv.language_view(*settings.measured, settings.chart_key)
    except ValueError as exc:  # e.g. a lab model whose pre-split pattern gives up on a text
        st.warning(_("A tokenizer could not read a sample: {reason}", reason=md_escape(str(exc))),
                   icon=":material/error:")
        return False
    one = settings.one
    slide = classroom_on()  # the premium alone, sized to the projector's screen; its two parts one click away
    with st.container(key=viewport.result("languages")), figure("language-chart"):
        st.subheader(_("Tokens per {unit}, against English", unit=one))
        charts.draw(pv.language_chart_spec(*settings.measured, settings.chart_key, large, slide=slide,
                                           lang=i18n.current()), key=CHART.skey)
    parts = _("Blue: the UTF-8 part, its bytes per {unit} ÷ English's. Green: the tokenizer part, its tokens per "
              "byte ÷ English's (below 1: the tokenizer packs that language's bytes into bigger tokens than "
              "English's). On this log scale the two parts add up to the premium.", unit=one)
    if slide:
        with st.expander(_("The premium's two parts, language by language"), icon=":material/stacked_bar_chart:"):
            charts.draw(pv.language_chart_spec(*settings.measured, settings.chart_key, large, lang=i18n.current()),
                        key=PARTS_CHART.skey)
            st.caption(parts)
    else:
        st.caption(_("Orange: × English, the language's tokens per {unit} ÷ English's.", unit=one) + " " + parts)
    summary = pv.summary_of(view.chart_rows)
    if summary:
        st.markdown(md_escape(summary))
    return True


def why_section(found: Samples, settings: Settings, large: bool) -> None:
    """Why the figures are per character, and where that misleads."""
    one = settings.one
    name = {s.id: pv.shown_language(s.id, s.label) for s in found.all}
    elsewhere = [f"{name[s.id]} ({pv.shown_passage(s.id, s.passage)})" for s in found.all[1:]
                 if s.passage != found.all[0].passage]
    with st.expander(_("Why per character, and where that misleads"), icon=":material/straighten:",
                     expanded=not large):
        st.markdown(_(
            "The samples are only roughly parallel. The fonts catalogue this page reads from (gflanguages) keeps, for "
            "each language, one line of the Declaration and a few longer passages, cut at different places and not "
            "always from the same articles: in most languages the line comes from the same place ({passage}), but "
            "not in {elsewhere}. Comparing whole samples would mostly compare their lengths, so every figure here is "
            "**per {unit}**: a longer passage does not count against its language.",
            passage=md_escape(pv.shown_passage(found.all[0].id, found.all[0].passage)),
            elsewhere=md_escape(and_words(elsewhere)), unit=one))
        st.markdown(_(
            "Per character is fair between scripts that write sounds letter by letter (Latin, Cyrillic, Devanagari, "
            "Tamil, Arabic…). It is not fair to Chinese and Japanese, where one character is a syllable or a whole "
            "word: the same sentence needs far fewer of them, so their figures here overstate what the same meaning "
            "costs. Korean's syllable blocks sit in between. For an exact premium, measure translations of the same "
            "text, as the Real tokenizers page does."
        ))
        short = [name.get(s.id, s.label) for s in pv.samples_in(settings.group)
                 if len(s.line if settings.line else s.text) < pv.SHORT_SAMPLE]
        if short:
            st.caption(md_escape(_("Short samples (under {n} characters), so less steady: {languages}.",
                                   n=number(pv.SHORT_SAMPLE), languages=and_words(short))))


def table_section(settings: Settings) -> None:
    st.subheader(_("Every language and tokenizer"))
    st.caption(_(
        "One row per language and tokenizer, plus one row counting raw UTF-8 bytes (a byte-level tokenizer with no "
        "merges). Click a column's heading to sort. × English = UTF-8 part × tokenizer part, per {unit}.",
        unit=settings.one))
    tables.show(pv.language_frame(*settings.measured, settings.chart_key, i18n.current()), hide_index=True,
                key=TABLE.skey,
                height=420, column_config=pv.language_columns(settings.per))


def samples_section(found: Samples, settings: Settings) -> None:
    """The sample texts, in a box filled only when opened."""
    with st.expander(_("The sample texts"), key=SAMPLES_OPEN.skey, on_change="rerun",
                     icon=":material/translate:") as box:
        if box.open:
            st.caption(md_escape(localized(SPEC)["source"]) + " " + _("Right-to-left text is shown in its reading "
                                                                       "order."))
            tables.show(pv.samples_table(pv.samples_in(settings.group), settings.line), hide_index=True,
                        key=SAMPLES_TABLE.skey, width="stretch",
                        column_config={"language": st.column_config.TextColumn(_("language")),
                                       "script": st.column_config.TextColumn(_("script")),
                                       "the line is from": st.column_config.TextColumn(_("the line is from")),
                                       "characters": st.column_config.NumberColumn(_("characters")),
                                       "UTF-8 bytes": st.column_config.NumberColumn(_("UTF-8 bytes")),
                                       "text": st.column_config.TextColumn(_("text"), width="large")})
            if found.missing:
                st.caption(md_escape(_("Not in this gflanguages version, so left out: {missing}.",
                                       missing=", ".join(found.missing))))


def about_section(chosen: Sequence[tuple[str, TextTokenizer]]) -> None:
    choices.about_box(chosen, key=ABOUT_OPEN.skey,
                      note=_("Everything is offline: the vocabularies and the sample texts come from installed "
                             "packages."))
