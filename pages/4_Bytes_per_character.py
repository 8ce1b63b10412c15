"""Bytes per character: what UTF-8 charges for each character, and what a byte-level tokenizer makes of it."""

import streamlit as st

from analyses.textstats import text_counts
from views import bytes as bv
from ui import charts, state, tables
from ui import choices
from ui.display import md_escape, visible_token
from ui.layout import Slides, classroom_on, figure, large_type_on, page_setup
from ui.links import lesson_link

page_setup("Bytes per character")

SAMPLES = bv.samples()
SAMPLE, LADDER, LADDER_TOKENIZERS, LADDER_CHOICES = bv.SAMPLE, bv.LADDER, bv.LADDER_TOKENIZERS, bv.LADDER_CHOICES
state.restore([SAMPLE, LADDER])
TEXT = bv.text_param(state.value(SAMPLE))
state.restore([TEXT])


def px(width: int) -> int:
    """A table column width, wider in large type (the table's text grows with it)."""
    return round(width * 1.3) if large_type_on() else width


def n_bytes(s: str) -> int:
    return text_counts(s).bytes


def _load_sample() -> None:
    st.session_state[TEXT.skey] = SAMPLES[st.session_state[SAMPLE.skey]].text


ki = text_counts("कि")
if not classroom_on():  # classroom mode: the teacher says it, the figure is on the first screen
    st.markdown(
        "Computers keep text as bytes, and most software and almost every web page today use **UTF-8** to turn "
        "characters into bytes. UTF-8 is kind to English: a letter like `a` takes "
        f"{n_bytes('a')} byte, while every Devanagari code point (क, {visible_token('ि')}, {visible_token('ं')} …) takes "
        f"{n_bytes('क')}, and so does "
        f"every letter of Tamil (க), Telugu (క), Kannada (ಕ) and Bengali (ক): {max(n_bytes(c) for c in 'கకಕক')} "
        "bytes each. A byte-level tokenizer starts from these bytes, so this is where Hindi's extra token cost begins."
    )

lesson_link(3)
left, right = st.columns([3, 2], vertical_alignment="top")
with right:
    st.selectbox(
        "Load a sample",
        options=list(SAMPLES),
        format_func=bv.sample_caption,
        key=SAMPLE.skey,
        on_change=_load_sample,
        help="Worked examples of bytes per character, and one short sentence per script. Picking one replaces "
        "your text.",
    )
    chosen = SAMPLES[state.value(SAMPLE)]
    if chosen.note and st.session_state.get(TEXT.skey) == chosen.text:
        st.caption(chosen.note)
with left:
    st.text_area(
        "Your text",
        key=TEXT.skey,
        height=110,
        help="Anything: Hindi, Hinglish, Tamil, Urdu, emoji, code. "
        f"The first {bv.MAX_TEXT_CHARS:,} code points are analysed.",
    )
    if len(st.session_state.get(TEXT.skey) or "") > TEXT.max_len:
        st.caption(
            f":material/link_off: Longer than {TEXT.max_len} characters: a link to this page keeps the sample "
            "and the tokenizer, but not this text."
        )

raw = st.session_state.get(TEXT.skey, "") or ""
text = raw[: bv.MAX_TEXT_CHARS]
counts = text_counts(text)
ladder_text = bv.prefix_within_bytes(text, bv.LADDER_MAX_BYTES)

if not raw:
    st.info("Type or paste some text above, or load a sample, to see its characters and bytes.", icon=":material/edit:")
elif len(raw) > bv.MAX_TEXT_CHARS:
    st.warning(
        f"Your text is {len(raw):,} code points long. To stay quick this page looks at the first "
        f"{bv.MAX_TEXT_CHARS:,} only: every count below is for that part. Paste a shorter piece to see all of it.",
        icon=":material/content_cut:",
    )
if text.strip() == "" and text:
    st.info(
        "Your text is only spaces or line breaks. They are characters too, and cost bytes like any other.",
        icon=":material/space_bar:",
    )

notes = bv.text_notes(text[: bv.TABLE_MAX_ROWS * 4])
if notes.controls:
    shown = ", ".join(notes.controls[:5]) + (" …" if len(notes.controls) > 5 else "")
    st.info(
        f"Your text contains control characters ({shown}). They take bytes but draw nothing, "
        "so the table and ladders show them by their code.",
        icon=":material/visibility_off:",
    )
if notes.right_to_left:
    st.info(
        "Right-to-left text (Urdu, Arabic, Hebrew): the table and the ladders list code points in the order they "
        "are stored, which is reading order, drawn left to right, one cell each. Letters are shown in their "
        "stand-alone shapes.",
        icon=":material/format_textdirection_r_to_l:",
    )

# Classroom mode: one slide at a time. The three views (every code point, grapheme clusters, the byte ladder) are
# tabs under the counts; a link that names a tokenizer opens on its byte ladder.
PARTS = ("Every code point", "Grapheme clusters", "Byte ladder")
part = Slides({p: p for p in PARTS}, PARTS[2] if LADDER.name in st.query_params else PARTS[0])


# -- the text counted four ways ---------------------------------------------------------------------
if counts.code_points:
    per_grapheme = counts.bytes / counts.graphemes
    # Five across; in large type three and two, so the labels are not cut short. Classroom mode: on the code
    # points' slide.
    with part("Every code point"):
        c1, c2, c3, c4, c5 = [*st.columns(3), *st.columns(3)[:2]] if large_type_on() else st.columns(5)
    c1.metric("Code points", f"{counts.code_points:,}", help="Unicode characters as stored, one number each.")
    c2.metric(
        "Grapheme clusters",
        f"{counts.graphemes:,}",
        help="Characters as a reader sees them: a letter with its vowel signs, or a whole emoji family.",
    )
    c3.metric("UTF-8 bytes", f"{counts.bytes:,}")
    c4.metric("Bytes per code point", f"{counts.bytes_per_char:.2f}")
    c5.metric("Bytes per grapheme", f"{per_grapheme:.2f}")

    with part("Every code point"), figure("code-points"):
        # -- every code point -----------------------------------------------------------------------------
        st.subheader("Every code point")
        table = bv.char_rows(text)
        shown_rows = len(table)
        st.caption(
            "One row per code point. Spaces show as ·, line breaks as ↵, invisible characters by their code; "
            "a vowel sign or other combining mark is drawn on its own, with the grapheme it belongs to beside it."
            + (
                f" Showing the first {shown_rows:,} of {counts.code_points:,} code points."
                if shown_rows < counts.code_points
                else ""
            )
        )
        tables.show(
            table,
            hide_index=True,
            width="stretch",
            height=min(38 + 35 * shown_rows, 420),
            column_config={
                "#": st.column_config.NumberColumn("#", width=px(44)),
                "character": st.column_config.TextColumn("character", width=px(80)),
                "in grapheme": st.column_config.TextColumn("in grapheme", width=px(96)),
                "code point": st.column_config.TextColumn("code point", width=px(88)),
                "UTF-8 (hex)": st.column_config.TextColumn("UTF-8 (hex)", width=px(104)),
                "bytes": st.column_config.NumberColumn("bytes", width=px(56)),
                "script": st.column_config.TextColumn("script", width=px(96)),
                "name": st.column_config.TextColumn("name", width="large"),
            },
        )

    # -- graphemes ----------------------------------------------------------------------------------
    ladder_counts = text_counts(ladder_text)
    capped = (
        f" Showing the first {ladder_counts.code_points:,} code points ({ladder_counts.bytes} bytes): "
        f"the ladders stop at {bv.LADDER_MAX_BYTES} bytes."
        if ladder_counts.bytes < counts.bytes
        else ""
    )
    with part("Grapheme clusters"):
        st.subheader("What a reader sees: grapheme clusters")
        st.caption(
            "One letter to a reader can be several code points. कि looks like one shape, yet it is क plus the vowel "
            f"sign ि: {ki.code_points} code points and {ki.bytes} bytes in {ki.graphemes} grapheme cluster. "
            "Top row: grapheme clusters (what you would count as letters). Middle: the code points in each. "
            "Bottom: their UTF-8 bytes in hex; the lighter bytes continue the character the darker one starts." + capped
        )
        st.html(bv.grapheme_ladder_html(ladder_text))

# -- the byte ladder ------------------------------------------------------------------------------------
with part("Byte ladder"):
    st.subheader("Byte ladder: tokens over their bytes")
    st.selectbox(
        "Byte-level tokenizer",
        options=list(LADDER_CHOICES),
        format_func=choices.option_label,
        key=LADDER.skey,
        help="The lab's two English + Hindi tokenizers (the same merge budget, with 1 or 10 copies of the Hindi "
        "text), and real byte-level tokenizers of production models.",
    )
    ladder_key = state.value(LADDER)
    try:
        choices.load(ladder_key)
    except choices.Unavailable as exc:
        st.warning(md_escape(str(exc)), icon=":material/error:")
        ladder_key = LADDER_TOKENIZERS[0]
    (st.container() if not classroom_on() else st.expander("How to read the ladder")).caption(
        "A byte-level tokenizer starts with every one of the 256 byte values as a token, so it can write any text and "
        "nothing is ever unknown. The price: a token can stop in the middle of a character. Dashed chips are tokens "
        "that are not whole characters (their bytes in hex); a code point with a dashed, shaded box is cut by a token "
        "boundary. The number under each chip is its id."
    )
    if ladder_text:
        ladder, lc = bv.token_ladder_for(ladder_key, ladder_text)
        with figure("byte-ladder"):  # the ladder and its counts
            m1, m2, m3, m4 = st.columns(4)
            m1.metric("Tokens", f"{lc.tokens:,}")
            m2.metric(
                "Not whole characters",
                f"{lc.partial:,}",
                help="Tokens whose bytes are not complete characters on their own (decoded alone they would be broken).",
            )
            m3.metric(
                "Characters cut",
                f"{lc.split_chars:,}",
                help="Code points with a token boundary inside them: their bytes are spread over two or more tokens.",
            )
            m4.metric("Bytes", f"{lc.bytes:,}")
            st.html(ladder)
    else:
        st.info("Type some text above to see how this tokenizer cuts it into tokens.", icon=":material/edit:")

# -- comparing scripts ----------------------------------------------------------------------------------
st.subheader("Scripts compared")
st.caption(
    "Each sample says roughly “Indore is a clean city”. Bytes per code point is what UTF-8 charges for each "
    "stored character; bytes per grapheme is per character as a reader counts them. Your text is the top row."
)
compare = bv.comparison_table("script", text, counts)
charts.draw(bv.comparison_spec(compare, large=large_type_on()), key=bv.CHART.skey)
with st.expander("The numbers behind the chart"):
    tables.show(compare, hide_index=True, width="stretch", column_config=bv.RATIO_COLUMNS)

st.subheader("Worked examples")
st.caption(
    "The same words in Hindi and in Latin letters, and a syllable that is two code points. "
    "Counted by the lab just now."
)
tables.show(bv.comparison_table("example"), hide_index=True, width="stretch", column_config=bv.RATIO_COLUMNS)

state.publish([SAMPLE, TEXT, LADDER])  # too long a text is left out of the link: said under the text box
