"""Real tokenizers: the same meaning in English and Hindi, counted by production tokenizers, side by side."""

import streamlit as st

from ui.layout import classroom_on, figure, large_type_on, page_setup
import lessons
from ui import charts, state, tables
from ui import choices
from ui import premium as pv
from ui.chips import chip_from_token, token_chips
from ui.display import md_escape, plural
from ui.links import lesson_link

page_setup("Real tokenizers")


PAGE = "real"
MAX_CHARS = 5_000
LARGE = large_type_on()
PAIR = lessons.data("lesson4_english_hindi")
ENGLISH = state.Param(PAGE, "en", PAIR["test_en"], max_len=600)
HINDI = state.Param(PAGE, "hi", PAIR["test_hi"], max_len=600)
state.restore([ENGLISH, HINDI])

if not classroom_on():  # classroom mode: the teacher says it, the figure is on the first screen
    st.markdown(
        "Count with the tokenizer of the model you deploy: the same text gives different counts on different "
        "tokenizers. Here each one reads the same sentence in English and in Hindi. Its **Hindi premium** is how many "
        "times as many tokens the Hindi takes, and it splits into two parts: what **UTF-8** charges (Devanagari takes "
        "3 bytes a letter) and what the **tokenizer** adds or takes back (how many of its merges went to Hindi)."
    )


lesson_link(9)
def _reset_pair() -> None:
    state.set_value(ENGLISH, PAIR["test_en"])
    state.set_value(HINDI, PAIR["test_hi"])


en_col, hi_col = st.columns(2)
en_col.text_area("English", key=ENGLISH.skey, height=90)
hi_col.text_area("हिन्दी (Hindi)", key=HINDI.skey, height=90)
st.button("Back to the news sentence", key=f"{PAGE}.reset", on_click=_reset_pair, type="tertiary",
          icon=":material/restart_alt:")
too_long = state.publish([ENGLISH, HINDI])
english = (state.value(ENGLISH) or "")[:MAX_CHARS]
hindi = (state.value(HINDI) or "")[:MAX_CHARS]
if not english.strip() or not hindi.strip():
    st.info("Type a sentence in both boxes (the same meaning in English and in Hindi).", icon=":material/edit:")
    st.stop()
if too_long:
    st.caption("These texts are too long for the page's link; the link keeps the rest of the page.")

real = [e.key for e in choices.real_entries()]
chosen = choices.pick_many(PAGE, default=real or ["english-hindi", "english-hindi-fair"],
                              label="Tokenizers to measure")
keys = [key for key, _ in chosen]
if not keys:
    st.info("Pick at least one tokenizer.", icon=":material/list:")
    st.stop()
try:
    data = pv.rows(keys, english, hindi)
except ValueError as exc:
    st.warning(md_escape(f"A tokenizer could not read this text: {exc}"), icon=":material/error:")
    st.stop()

with figure("premium-chart"):
    st.subheader("The Hindi premium, and its two parts")
    charts.draw(pv.chart_spec(tuple(data), LARGE), key=f"{PAGE}.chart")
src = lessons.data("published_premiums")
st.caption(
    "Orange: Hindi tokens ÷ English tokens. Blue: the UTF-8 part, Hindi bytes ÷ English bytes. Green: the "
    "tokenizer part, Hindi tokens per byte ÷ English tokens per byte (below 1: the tokenizer gives Hindi bigger "
    "pieces than bytes). On this log scale the two parts add up to the premium. Grey, dashed: the premium published for "
    "that tokenizer over many parallel sentences (" + md_escape(src["source"]) + "); one sentence pair "
    "will not match it exactly."
)
tables.show(pv.table(data), hide_index=True, key=f"{PAGE}.table", column_config=pv.COLUMNS)

with st.expander("See the tokens", key=f"{PAGE}.tokens_open", on_change="rerun", icon=":material/view_week:") as box:
    if box.open:
        for key, tok in chosen:
            for lang, text in (("English", english), ("Hindi", hindi)):
                enc = choices.encoded(key, text, 600)  # cached: the table's counts encoded it already
                st.markdown(f"**{md_escape(tok.name)}**, {lang}: {plural(enc.measure.tokens, 'token')}")
                token_chips([chip_from_token(t) for t in enc.tokens], label=f"{tok.name}, {lang}", mark_pieces=True)

choices.about_box(chosen, key=f"{PAGE}.about_open", note=choices.OFFLINE_NOTE)
