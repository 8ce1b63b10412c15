"""Beyond Hindi: what many languages pay per character over English, split into the UTF-8 part and the tokenizer part."""

import streamlit as st

from ui.layout import figure, large_type_on, page_setup
import lessons
from ui import charts, state, tables, viewport
from ui import choices
from ui import premium as pv
from ui.display import join_words, md_escape
from ui.links import lesson_link

page_setup("Beyond Hindi")


PAGE = "langs"
LARGE = large_type_on()
SPEC = lessons.data("languages")
GROUPS = {"all": "All", **SPEC["groups"]}
PERS = {"char": "character", "grapheme": "letter (grapheme)"}
SAMPLES = {"long": "Long passages", "line": "One line"}
DEFAULT_TOKENIZERS = ("o200k_base", "cl100k_base")
FALLBACK_TOKENIZERS = ("english-hindi-fair",)  # when no real tokenizer is installed
GROUP = state.Param(PAGE, "group", "all", choices=tuple(GROUPS))
PER = state.Param(PAGE, "per", "char", choices=tuple(PERS))
SAMPLE = state.Param(PAGE, "sample", "long", choices=tuple(SAMPLES))
state.restore([GROUP, PER, SAMPLE])

try:
    ALL, MISSING = pv.language_samples()
except lessons.SamplesUnavailable as exc:
    st.error(md_escape(str(exc)), icon=":material/error:")
    st.stop()

st.markdown(
    f"The Real tokenizers page weighed Hindi against English. Here are {len(ALL) - 1} languages in "
    f"{len({s.script for s in ALL[1:]})} scripts, each reading the Universal Declaration of Human Rights. "
    "**× English** is how many tokens a language pays per character for each token English pays per character: "
    "**UTF-8 part** (bytes per character, against English) × **tokenizer part** (tokens per byte, against English)."
)
lesson_link(5)
ELSEWHERE = [f"{s.label} ({s.passage})" for s in ALL[1:] if s.passage != ALL[0].passage]

real_keys = [e.key for e in choices.real_entries()]
default = [k for k in DEFAULT_TOKENIZERS if k in real_keys] or list(FALLBACK_TOKENIZERS)
chosen = choices.pick_many(PAGE, default=default, label="Tokenizers to measure", upload=False)
keys = [key for key, _ in chosen]

# a choice here brings the chart it changes into view (ui/viewport.py)
left, right = st.container(key=viewport.action("languages")).columns([3, 2])
with left:
    st.segmented_control("Languages", tuple(GROUPS), key=GROUP.skey, format_func=GROUPS.get, required=True)
with right:
    st.segmented_control("Compare per", tuple(PERS), key=PER.skey, format_func=PERS.get, required=True,
                         help="A character is a code point as stored. A letter is a grapheme cluster, what a reader "
                         "counts as one: क plus its vowel sign ि is one letter, two characters.")
group, per = state.value(GROUP), state.value(PER)
one = pv.UNIT_WORDS[per][0]

chart_choices = (*keys, pv.BYTES_KEY)
CHART = state.Param(PAGE, "chart", chart_choices[0], choices=chart_choices)
state.restore([CHART])
if state.value(CHART) not in chart_choices:
    state.set_value(CHART, chart_choices[0])
names = {key: tok.name for key, tok in chosen} | {pv.BYTES_KEY: "UTF-8 bytes, no merges"}
left, right = st.columns([3, 2])
with left:
    st.selectbox("Chart for", chart_choices, key=CHART.skey, format_func=names.get,
                 help="The chart shows one tokenizer at a time; the table below has them all. “UTF-8 bytes, no "
                 "merges” is a byte-level tokenizer that learned nothing: its premium is the UTF-8 part alone.")
with right:
    st.segmented_control("Sample", tuple(SAMPLES), key=SAMPLE.skey, format_func=SAMPLES.get, required=True,
                         help="One line per language, or that line with the longer passages gflanguages keeps "
                         "(up to about 2,000 characters). A longer sample gives steadier figures.")
line = state.value(SAMPLE) == "line"
state.publish([GROUP, PER, SAMPLE, CHART])
chart_key = state.value(CHART)

picked = pv.samples_in(group)
settings = (tuple(keys), group, per, line)
try:
    view = pv.language_view(*settings, chart_key)
except ValueError as exc:  # e.g. a lab model whose pre-split pattern gives up on a text
    st.warning(md_escape(f"A tokenizer could not read a sample: {exc}"), icon=":material/error:")
    st.stop()

with st.container(key=viewport.result("languages")), figure("language-chart"):
    st.subheader(f"Tokens per {one}, against English")
    charts.draw(pv.language_chart_spec(*settings, chart_key, LARGE), key=f"{PAGE}.chart")
st.caption(
    f"Orange: × English, the language's tokens per {one} ÷ English's. Blue: the UTF-8 part, its bytes per {one} ÷ "
    f"English's. Green: the tokenizer part, its tokens per byte ÷ English's (below 1: the tokenizer packs that "
    "language's bytes into bigger tokens than English's). On this log scale the two parts add up to the premium."
)
if view.summary:
    st.markdown(md_escape(view.summary))

with st.expander("Why per character, and where that misleads", icon=":material/straighten:", expanded=not LARGE):
    st.markdown(
        "The samples are only roughly parallel. The fonts catalogue this page reads from (gflanguages) keeps, for each "
        "language, one line of the Declaration and a few longer passages, cut at different places and not always "
        f"from the same articles: in most languages the line comes from the same place ({md_escape(ALL[0].passage)}), "
        f"but not in {md_escape(join_words(ELSEWHERE))}. Comparing whole samples would mostly compare their lengths, so "
        f"every figure here is **per {one}**: a longer passage does not count against its language."
    )
    st.markdown(
        "Per character is fair between scripts that write sounds letter by letter (Latin, Cyrillic, Devanagari, "
        "Tamil, Arabic…). It is not fair to Chinese and Japanese, where one character is a syllable or a whole word: "
        "the same sentence needs far fewer of them, so their figures here overstate what the same meaning costs. "
        "Korean's syllable blocks sit in between. For an exact premium, measure translations of the same text, as the "
        "Real tokenizers page does."
    )
    short = [s.label for s in picked if len(s.line if line else s.text) < pv.SHORT_SAMPLE]
    if short:
        st.caption(md_escape(f"Short samples (under {pv.SHORT_SAMPLE:,} characters), so less steady: "
                             f"{join_words(short)}."))

st.subheader("Every language and tokenizer")
st.caption(
    f"One row per language and tokenizer, plus one row counting raw UTF-8 bytes (a byte-level tokenizer with no "
    f"merges). Click a column's heading to sort. × English = UTF-8 part × tokenizer part, per {one}."
)
tables.show(pv.language_frame(*settings, chart_key), hide_index=True, key=f"{PAGE}.table", height=420,
             column_config=pv.language_columns(per))

with st.expander("The sample texts", key=f"{PAGE}.samples_open", on_change="rerun", icon=":material/translate:") as box:
    if box.open:
        st.caption(md_escape(SPEC["source"]) + " Right-to-left text is shown in its reading order.")
        tables.show(pv.samples_table(picked, line), hide_index=True, key=f"{PAGE}.samples", width="stretch",
                     column_config={"text": st.column_config.TextColumn(width="large")})
        if MISSING:
            st.caption(md_escape("Not in this gflanguages version, so left out: " + ", ".join(MISSING) + "."))

choices.about_box(chosen, key=f"{PAGE}.about_open",
                     note="Everything is offline: the vocabularies and the sample texts come from installed packages.")
