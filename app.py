"""Tokenization Lab: the home page.

Run with `scripts/run` (or `python -m streamlit run app.py`). The other pages
live in pages/ and the sidebar comes from ui/layout.py.
"""

import streamlit as st

import lessons
from i18n import _, localized, number
from ui.frame import page_setup
from ui.layout import APP_NAME, link_params, sections

page_setup(APP_NAME)

english, hindi = "hello", "नमस्ते"
devanagari_bytes = len("क".encode())  # every Devanagari letter: computed, not typed
st.markdown(_(
    "Language models never see letters or words. They see **tokens**: chunks of "
    "text from a fixed vocabulary that a *tokenizer* learned from data. "
    "This lab opens the tokenizer up so you can watch it learn and work, one step at a time."
))
st.caption(_(
    "A first taste: “{english}” is {english_bytes} bytes of UTF-8, “{hindi}” is {hindi_bytes}. Tokenizers start "
    "from bytes, and that difference follows the text all the way to the bill.",
    english=english, english_bytes=number(len(english.encode("utf-8"))),
    hindi=hindi, hindi_bytes=number(len(hindi.encode("utf-8"))),
))

st.subheader(_("What you will learn"))
st.markdown(_(
    "- **How BPE is trained, merge by merge.** Start from bytes, count which pairs sit\n"
    "  next to each other most often, glue the top pair into a new token, repeat.\n"
    "- **How text is encoded** by replaying those merges on something new.\n"
    "- **Why Hindi usually costs more tokens than English.** Devanagari takes {bytes} bytes\n"
    "  per character in UTF-8, and a tokenizer trained mostly on English has learned\n"
    "  few Hindi merges.\n"
    "- **Bytes per character, tokens per word, and cost:** what a prompt in English,\n"
    "  Hindi or Hinglish will use of a context window and a budget.",
    bytes=number(devanagari_bytes),
))

for section, entries in sections():
    labs = [entry for entry in entries if entry.path != "app.py"]
    if not labs:
        continue
    st.subheader(_("Start here: the core labs") if section == "Core labs" else _(section))
    for first in range(0, len(labs), 2):
        for column, entry in zip(st.columns(2, border=True), labs[first : first + 2]):
            with column:
                st.page_link(entry.path, label=f"**{_(entry.title)}**", icon=entry.icon,
                             query_params=link_params(entry.url_path))
                st.caption(_(entry.blurb))

st.subheader(_("Who it is for"))
teachers, learners, engineers = st.columns(3, border=True)
with teachers:
    st.markdown("**:material/co_present: " + _("Teachers") + "**")
    st.markdown(_(
        "Project it in class. Turn on *Large type* in the sidebar; a link you "
        "share keeps it on."
    ))
with learners:
    st.markdown("**:material/self_improvement: " + _("Self-paced learners") + "**")
    st.markdown(_("Go through the labs in order, try your own text, take your time."))
with engineers:
    st.markdown("**:material/calculate: " + _("Engineers") + "**")
    st.markdown(_("Check how many tokens your real text needs before you pay for them."))
st.markdown(_(
    "Many of us read Hindi and write Hinglish, so the examples mix scripts on "
    "purpose: English, हिन्दी, and *yaar, kal milte hain*."
))

coming = [localized(item) for item in lessons.examples("coming")]
if coming:
    st.subheader(_("Coming later"))
    st.caption(_("These labs are planned and not built yet."))
    soon = _("Coming soon")  # (outside the f-string, where the extractor reads it)
    st.markdown("\n".join(f"- :gray-badge[{soon}] **{item['name']}**: {item['what']}" for item in coming))
