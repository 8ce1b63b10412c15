"""Encode step by step: replay a tokenizer's learned merges on a word or a sentence, one merge at a time."""

import pandas as pd
import streamlit as st

from tokenizer import UNKNOWN_ID
from tokenizer.replay import EncodeTrace, encode_trace
from ui import state
from ui.chips import CSS, Chip, chip_for_id, md_code, merge_html, token_chips, visible_plain
from ui.layout import page_setup
from ui.picker import pick_tokenizer, set_choice

page_setup("Encode step by step")

PAGE = "encode"
MAX_CHARS = 200  # a word or a sentence; long text belongs on the Tokenize page

# (button label, preset id, text): the curriculum's examples, ready to replay.
EXAMPLES = (
    ("newsroom · preset A", "news", "newsroom"),
    ("readership · preset E", "readers", "readership"),
    ("xylophone · preset E", "readers", "xylophone"),
    ("स्कूलों · English + Hindi, k = 10", "english-hindi-fair", "स्कूलों"),
    ("स्कूलों · English + Hindi, k = 1", "english-hindi", "स्कूलों"),
)

TEXT = state.Param(PAGE, "text", "readership", max_len=MAX_CHARS * 2)
STEP = state.Param(PAGE, "step", 0, lo=0, hi=1_000_000)
PARAMS = [TEXT, STEP]
_SIGNATURE = f"{PAGE}._signature"


def _use_example(preset: str, text: str) -> None:
    set_choice(PAGE, preset)
    state.set_value(TEXT, text)
    state.set_value(STEP, 0)


def _go(step: int) -> None:
    state.set_value(STEP, step)


st.caption(
    "To encode new text, a BPE tokenizer cuts it into single characters (or bytes) and replays the merges it "
    "learned, in the order it learned them. A merge fires wherever its pair sits side by side; most find nothing. "
    "Step through the ones that fire."
)
with st.container(horizontal=True, gap="small", vertical_alignment="center"):
    st.caption("Ready examples:", width="content")
    for i, (label, preset, word) in enumerate(EXAMPLES):
        st.button(label, key=f"{PAGE}.example.{i}", on_click=_use_example, args=(preset, word))

name, tok = pick_tokenizer(PAGE, default="readers", required=False)
state.restore(PARAMS)
st.text_input(
    "A word or a sentence",
    key=TEXT.skey,
    help=f"Up to {MAX_CHARS} characters. For long text, use the Tokenize anything page.",
)
text: str = state.value(TEXT) or ""
if tok is None:
    state.publish(PARAMS)
    st.stop()
if not text.strip():
    state.publish(PARAMS)
    st.info("Type a word or a sentence above, or pick a ready example.", icon=":material/edit:")
    st.stop()
if len(text) > MAX_CHARS:
    text = text[:MAX_CHARS]
    st.warning(
        f"This page replays merges on a word or a sentence, so it uses the first {MAX_CHARS} characters. "
        "For long text, use the Tokenize anything page.",
        icon=":material/content_cut:",
    )

trace: EncodeTrace = encode_trace(tok, text)
n = len(trace.steps)

# A new text or tokenizer starts again from step 0; a shared link keeps its step.
signature = (name, text)
if st.session_state.get(_SIGNATURE, signature) != signature:
    state.set_value(STEP, 0)
st.session_state[_SIGNATURE] = signature
if (state.value(STEP) or 0) > n:
    state.set_value(STEP, n)

if not trace.pieces:
    state.publish(PARAMS)
    st.info("This tokenizer splits on whitespace and drops the spaces, so there is nothing to encode.")
    st.stop()


def chips_at(step: int, highlight: set[tuple[int, int]] = frozenset()) -> list[Chip]:
    """The tokens after ``step`` merges, piece by piece, as chips."""
    out = []
    for p, (ids, labels) in enumerate(zip(trace.ids_at(step), trace.labels_at(step))):
        for j, (token_id, label) in enumerate(zip(ids, labels)):
            out.append(chip_for_id(tok, token_id, label, piece=p, highlight=(p, j) in highlight))
    return out


def count_tokens(step: int) -> int:
    return sum(len(ids) for ids in trace.ids_at(step))


def draw_key() -> None:
    """A one-line key to the chips on this page (only what the chips shown can need)."""
    key = ["the number under a chip is its id"]
    if len(trace.pieces) > 1:
        key.append("a wider gap separates the pre-split pieces (merges never cross them)")
    if any(UNKNOWN_ID in ids for ids in trace.start):
        key.append("white with a dotted border and ?: a character never seen in training (it keeps its text but has no id)")
    if tok.config.unit == "bytes":
        key.append("dashed border: part of a character, shown as its bytes in hex")
    st.caption("Key: " + "; ".join(key) + ".")


unit = "bytes" if tok.config.unit == "bytes" else "characters"
if tok.config.end_of_word:
    unit = "symbols"  # the end-of-word marker is a starting symbol but not a character
if count_tokens(0) == 1:
    unit = unit.removesuffix("s")
marker = tok.config.end_of_word

if n == 0:
    state.set_value(STEP, 0)
    state.publish(PARAMS)
    st.subheader("No merge fires")
    token_chips(chips_at(0), show_ids=True, label="tokens", mark_pieces=True)
    draw_key()
    st.info(
        f"None of the {len(tok.merges)} learned merges finds its pair in this text, so it stays as its "
        f"{count_tokens(0)} starting {unit}: one token each.",
        icon=":material/block:",
    )
    st.stop()

st.slider("Step", 0, n, key=STEP.skey, help="0 is the start; each step is one learned merge that fires.")
step = int(state.value(STEP))
with st.container(horizontal=True, gap="small"):
    st.button("Start", key=f"{PAGE}.first", on_click=_go, args=(0,), disabled=step == 0, icon=":material/first_page:")
    st.button("Previous", key=f"{PAGE}.prev", on_click=_go, args=(max(step - 1, 0),), disabled=step == 0, icon=":material/chevron_left:")
    st.button("Next", key=f"{PAGE}.next", on_click=_go, args=(min(step + 1, n),), disabled=step == n, icon=":material/chevron_right:", type="primary")
    st.button("End", key=f"{PAGE}.last", on_click=_go, args=(n,), disabled=step == n, icon=":material/last_page:")
state.publish(PARAMS)

if step == 0:
    st.subheader(f"Start: {count_tokens(0)} tokens")
    start = f"The text is cut into {len(trace.pieces)} piece{'s' if len(trace.pieces) != 1 else ''} (the pre-split), each piece into single {unit}"
    start += f", and each word ends with the marker {md_code(marker)}." if marker else "."
    st.markdown(start + f" {n} merge{'s' if n != 1 else ''} will fire. Press **Next**.")
    token_chips(chips_at(0), show_ids=True, label="starting tokens", mark_pieces=True)
else:
    s = trace.steps[step - 1]
    k = len(s.places)
    st.subheader(f"Step {step} of {n}")
    st.html(
        CSS
        + merge_html(
            chip_for_id(tok, s.pair[0]),
            chip_for_id(tok, s.pair[1]),
            chip_for_id(tok, s.token_id, highlight=True),
            before=f"Merge #{s.rank + 1} of the {len(tok.merges)} learned:",
            after=f"fired at {k} place{'s' if k != 1 else ''}.",
        )
    )
    where = sorted({p for p, _ in s.places})
    if len(trace.pieces) > 1:
        shown = ", ".join(md_code(trace.pieces[p]) for p in where[:8]) + (" …" if len(where) > 8 else "")
        st.markdown(f"In {shown}.")
    skipped = range(trace.steps[step - 2].rank + 1 if step > 1 else 0, s.rank)
    if skipped:
        listed = ", ".join(
            f"#{r + 1} {md_code(tok.label(tok.merges[r][0]))} + {md_code(tok.label(tok.merges[r][1]))}" for r in skipped[:6]
        )
        st.caption(
            f"Skipped since the last step: {listed}{' …' if len(skipped) > 6 else ''}. "
            f"{'Their pairs are' if len(skipped) > 1 else 'Its pair is'} nowhere in the text, so nothing happens."
        )
    before = {(p, j) for p, j in s.places} | {(p, j + 1) for p, j in s.places}
    st.markdown("**Before**")
    token_chips(chips_at(step - 1, before), show_ids=True, label="tokens before the merge", mark_pieces=True)
    after = {(p, j) for p, ids in enumerate(trace.ids_at(step)) for j, t in enumerate(ids) if t == s.token_id}
    st.markdown("**After: the final tokens**" if step == n else "**After**")
    token_chips(chips_at(step, after), show_ids=True, label="tokens after the merge", mark_pieces=True)

draw_key()

if step == n:
    final = count_tokens(n)
    st.success(
        f"No merge applies any more: no two neighbouring tokens form a pair this tokenizer learned. "
        f"{final} token{'s' if final != 1 else ''} from {count_tokens(0)} starting {unit}; "
        f"{n} of the {len(tok.merges)} learned merges fired.",
        icon=":material/check_circle:",
    )

if step:
    st.subheader("Merges so far")
    rows = trace.steps[:step]
    st.dataframe(
        pd.DataFrame(
            {
                "step": [r.step for r in rows],
                "merge #": [r.rank + 1 for r in rows],
                "pair": [f"{visible_plain(r.left, mark_base=True)} + {visible_plain(r.right, mark_base=True)}" for r in rows],
                "new token": [visible_plain(r.token, mark_base=True) for r in rows],
                "id": [r.token_id for r in rows],
                "places": [len(r.places) for r in rows],
            }
        ),
        hide_index=True,
        key=f"{PAGE}.steps_table",
        column_config={
            "merge #": st.column_config.NumberColumn("merge #", help="The merge's place in the order it was learned (1 = first)."),
            "places": st.column_config.NumberColumn("places", help="How many times the pair was found side by side and merged."),
        },
    )
