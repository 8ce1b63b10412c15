"""Tokenize anything: pick a tokenizer, type any text, see its tokens, its counts and its ids."""

import unicodedata

import pandas as pd
import streamlit as st

from tokenizer import UNKNOWN_ID, hex_bytes
from tokenizer.textstats import text_counts
from ui import state
from ui.chips import CSS, chip_from_token, chips_html, first_tokens, visible_plain
from ui.layout import large_type_on, page_setup
from ui.picker import pick_tokenizer

page_setup("Tokenize anything")

PAGE = "tokenize"
MAX_TEXT_BYTES = 1_000_000  # a bigger paste is refused politely
MAX_CHIPS = 2_000  # chips drawn; every token is still counted and listed in the CSV
MAX_TABLE_ROWS = 5_000

EXAMPLES = {
    "English": "Thick fog closed schools and roads in the city.",
    "हिन्दी": "घने कोहरे से शहर में स्कूल और सड़कें बंद रहीं।",
    "Hinglish": "Mera order 20 minute late hai, refund chahiye!",
    "Emoji": "Family 👩‍👩‍👧 at the chai stall ☕ in India 🇮🇳",
    "اردو": "شہر میں گھنی دھند ہے۔",
    "Code": "if x >= 10:\n\tprint(x)",
    "Markup": "<img src=x onerror=alert(1)> **bold** [link](https://example.com)",
}
DEFAULT_TEXT = EXAMPLES["English"] + " " + EXAMPLES["हिन्दी"]

TEXT = state.Param(PAGE, "text", DEFAULT_TEXT, max_len=1000)
SHOW_IDS = state.Param(PAGE, "ids", False)
COLOUR = state.Param(PAGE, "colour", "position", choices=("position", "id"))
PARAMS = [TEXT, SHOW_IDS, COLOUR]

st.caption(
    "Choose a tokenizer, then type or paste any text: English, हिन्दी, Hinglish, emoji, code. "
    "You see the tokens the tokenizer cuts it into, how long the text is counted several ways, and the ids a model reads."
)

name, tok = pick_tokenizer(PAGE, required=False)
state.restore(PARAMS)


def _use_example(text: str) -> None:
    state.set_value(TEXT, text)


st.text_area(
    "Text",
    key=TEXT.skey,
    height=130,
    placeholder="Type or paste text here…",
    help="Anything at all. Up to 1 MB; a long text is counted in full, and its first chips are drawn.",
)
with st.container(horizontal=True, gap="small", vertical_alignment="center"):
    st.caption("Try:", width="content")
    for i, (label, sample) in enumerate(EXAMPLES.items()):
        st.button(label, key=f"{PAGE}.example.{i}", on_click=_use_example, args=(sample,), type="tertiary")

with st.container(horizontal=True, gap="medium", vertical_alignment="center"):
    st.toggle("Show ids under the chips", key=SHOW_IDS.skey, help="Every chip also shows its id when you hover over it.")
    st.segmented_control(
        "Colour chips by",
        ("position", "id"),
        key=COLOUR.skey,
        required=True,
        format_func={"position": "position", "id": "token id"}.get,
        help="By position, neighbours always differ. By id, the same token always gets the same colour.",
    )

too_long = state.publish(PARAMS)
text: str = state.value(TEXT) or ""
if tok is None:  # "Upload a model file…" without a usable file yet: the picker said what to do
    st.stop()

if not text:
    st.info("Type or paste some text above, or pick one of the examples.", icon=":material/edit:")
    st.stop()
n_bytes = len(text.encode("utf-8", errors="surrogatepass"))
if n_bytes > MAX_TEXT_BYTES:
    st.warning(
        f"That is {n_bytes / 1e6:.1f} MB of text. This page takes up to {MAX_TEXT_BYTES / 1e6:.0f} MB: "
        "paste a shorter part (a few pages is plenty to see how a tokenizer behaves).",
        icon=":material/content_cut:",
    )
    st.stop()
if "text" in too_long:
    st.caption("This text is too long to put in the page's link; the link keeps the tokenizer and the settings.")

ids = tok.encode(text)  # every token, counted; Token objects only for what is drawn (fast on long text)
tokens = first_tokens(tok, text, max(MAX_CHIPS, MAX_TABLE_ROWS))
counts = text_counts(text)
n_tokens = len(ids)
is_bytes = tok.config.unit == "bytes"


def _ratio(a: int, b: int) -> str:
    return f"{a / b:.2f}" if b else "—"


metrics = [
    ("Tokens", f"{n_tokens:,}", "How many tokens this tokenizer cuts the text into: what a model reads, and what you pay for."),
    ("Words", f"{counts.words:,}", "Runs of characters between spaces (Python's str.split()). Punctuation stays glued to its word."),
    ("Tokens per word", _ratio(n_tokens, counts.words), "Tokens ÷ words. Large tokenizers give English prose about 1.3; measure your own text, don't trust the rule of thumb."),
    ("Characters per token", _ratio(counts.code_points, n_tokens), "Code points ÷ tokens. Large tokenizers give English prose about 4."),
    ("Code points", f"{counts.code_points:,}", "Unicode code points, what Python's len() counts. कि is 2: the letter क and the vowel sign ि."),
    ("Grapheme clusters", f"{counts.graphemes:,}", "User-perceived characters: what a reader calls one letter. कि is 1, and so is 👩‍👩‍👧."),
    ("UTF-8 bytes", f"{counts.bytes:,}", "The text's size in UTF-8: 1 byte for each ASCII character, 3 for each Devanagari code point, 4 for most emoji."),
]
if is_bytes:
    partial_ids = {i for i in set(ids) if not tok.is_whole(i)}
    metrics.append(("Partial tokens", f"{sum(i in partial_ids for i in ids):,}", "Tokens that hold only some of a character's bytes: not valid text on their own. They are drawn as hex bytes with a dashed border."))
else:
    metrics.append(("Unseen characters", f"{ids.count(UNKNOWN_ID):,}", "Characters never seen in training. Each still stands as a token of its own with its own text, but has no id: white chips with a dotted border."))
per_row = 2 if large_type_on() else 4  # room for whole labels when the type is large
for first in range(0, len(metrics), per_row):
    for column, (label, value, help_text) in zip(st.columns(per_row), metrics[first : first + per_row]):
        column.metric(label, value, help=help_text)

if not n_tokens:
    st.info(
        "No tokens: this tokenizer splits text on whitespace and drops the spaces, and the text is only spaces.",
        icon=":material/space_bar:",
    )
    st.stop()

st.subheader("Tokens")
shown = tokens[:MAX_CHIPS]
chips = chips_html(
    [chip_from_token(t) for t in shown],
    show_ids=bool(state.value(SHOW_IDS)),
    colour_by=state.value(COLOUR) or "position",
    label=f"{n_tokens} tokens",
    mark_pieces=True,
    line_breaks=True,
)
st.html(CSS + chips)
if n_tokens > MAX_CHIPS:
    st.caption(f"Showing the first {MAX_CHIPS:,} of {n_tokens:,} tokens. All of them are counted above and listed in the CSV below.")

legend = ["· is a space, ↵ a newline, ⇥ a tab", "a wider gap separates the pre-split pieces", "hover over a chip for its id"]
if is_bytes:
    legend.append("dashed border: part of a character, shown as its bytes in hex ⟨E0 A4⟩")
else:
    legend.append("white with a dotted border: a character never seen in training")
st.caption("; ".join(legend) + ".")
if tok.config.split == "whitespace":
    st.caption("This tokenizer splits on whitespace and drops it: the spaces and newlines between words are not tokens.")
if 'class="tl-lone"' in chips:
    st.caption(
        "A chip that starts with a vowel sign or other combining mark holds it without its letter: "
        "the letter is in the chip before. It is drawn on a blank space so you can see it."
    )
if any(unicodedata.bidirectional(ch) in ("R", "AL") for ch in text[:20_000]):
    st.caption(
        "Right-to-left text: the chips go left to right in token order (the first token is on the left), "
        "while the letters inside each chip read right to left."
    )

st.subheader("Ids")
rows = tokens[:MAX_TABLE_ROWS]
table = pd.DataFrame(
    {
        "position": range(1, len(rows) + 1),
        "token": [visible_plain(t.label, mark_base=True) for t in rows],
        "id": pd.array([t.id if t.known else None for t in rows], dtype="Int64"),
        "bytes (hex)": [hex_bytes(t.bytes) for t in rows],
        "whole characters": [t.whole for t in rows],
        "piece": [t.piece + 1 for t in rows],
    }
)
st.dataframe(
    table,
    hide_index=True,
    placeholder="—",
    key=f"{PAGE}.ids_table",
    column_config={
        "id": st.column_config.NumberColumn("id", help="The number the model reads. Empty for a character never seen in training.", format="%d"),
        "bytes (hex)": st.column_config.TextColumn("bytes (hex)", width="medium"),
        "whole characters": st.column_config.CheckboxColumn("whole characters", help="False when the token is only part of a character's bytes."),
        "piece": st.column_config.NumberColumn("piece", help="Which pre-split piece (word) the token comes from. Merges never cross pieces."),
    },
)
if n_tokens > MAX_TABLE_ROWS:
    st.caption(f"The table shows the first {MAX_TABLE_ROWS:,} tokens; the CSV has all {n_tokens:,}.")


def _csv() -> bytes:
    """Built when the button is clicked: every token of the text."""
    every = tok.encode_tokens(text)
    full = pd.DataFrame(
        {
            "position": range(1, n_tokens + 1),
            "token": [t.label for t in every],
            "id": pd.array([t.id if t.known else None for t in every], dtype="Int64"),
            "bytes_hex": [hex_bytes(t.bytes) for t in every],
            "whole": [t.whole for t in every],
            "piece": [t.piece + 1 for t in every],
        }
    )
    return full.to_csv(index=False).encode("utf-8-sig")  # the BOM lets spreadsheet apps read Hindi correctly


st.download_button(
    "Download the tokens as CSV",
    data=_csv,
    file_name="tokens.csv",
    mime="text/csv",
    key=f"{PAGE}.download",
    on_click="ignore",
    icon=":material/download:",
)
