"""Tokenization Lab: the home page.

Run with `scripts/run` (or `python -m streamlit run app.py`). The other pages
live in pages/ and the sidebar comes from ui/layout.py.
"""

import streamlit as st

import lessons
from ui.layout import APP_NAME, link_params, page_setup, sections

page_setup(APP_NAME)

english, hindi = "hello", "नमस्ते"
devanagari_bytes = len("क".encode())  # every Devanagari letter: computed, not typed
st.markdown(
    "Language models never see letters or words. They see **tokens**: chunks of "
    "text from a fixed vocabulary that a *tokenizer* learned from data. "
    "This lab opens the tokenizer up so you can watch it learn and work, one step at a time."
)
st.caption(
    f"A first taste: “{english}” is {len(english.encode('utf-8'))} bytes of UTF-8, "
    f"“{hindi}” is {len(hindi.encode('utf-8'))}. Tokenizers start from bytes, "
    "and that difference follows the text all the way to the bill."
)

st.subheader("What you will learn")
st.markdown(
    f"""
- **How BPE is trained, merge by merge.** Start from bytes, count which pairs sit
  next to each other most often, glue the top pair into a new token, repeat.
- **How text is encoded** by replaying those merges on something new.
- **Why Hindi usually costs more tokens than English.** Devanagari takes {devanagari_bytes} bytes
  per character in UTF-8, and a tokenizer trained mostly on English has learned
  few Hindi merges.
- **Bytes per character, tokens per word, and cost:** what a prompt in English,
  Hindi or Hinglish will use of a context window and a budget.
"""
)

for section, entries in sections():
    labs = [entry for entry in entries if entry.path != "app.py"]
    if not labs:
        continue
    st.subheader("Start here: the core labs" if section == "Core labs" else section)
    for first in range(0, len(labs), 2):
        for column, entry in zip(st.columns(2, border=True), labs[first : first + 2]):
            with column:
                st.page_link(entry.path, label=f"**{entry.title}**", icon=entry.icon,
                             query_params=link_params(entry.url_path))
                st.caption(entry.blurb)

st.subheader("Who it is for")
teachers, learners, engineers = st.columns(3, border=True)
with teachers:
    st.markdown("**:material/co_present: Teachers**")
    st.markdown(
        "Project it in class. Turn on *Large type* in the sidebar; a link you "
        "share keeps it on."
    )
with learners:
    st.markdown("**:material/self_improvement: Self-paced learners**")
    st.markdown("Go through the labs in order, try your own text, take your time.")
with engineers:
    st.markdown("**:material/calculate: Engineers**")
    st.markdown("Check how many tokens your real text needs before you pay for them.")
st.markdown(
    "Many of us read Hindi and write Hinglish, so the examples mix scripts on "
    "purpose: English, हिन्दी, and *yaar, kal milte hain*."
)

coming = lessons.examples("coming")
if coming:
    st.subheader("Coming later")
    st.caption("These labs are planned and not built yet.")
    st.markdown("\n".join(f"- :gray-badge[Coming soon] **{item['name']}**: {item['what']}" for item in coming))
