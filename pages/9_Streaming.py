"""Streaming: a reply arrives token by token; decoded naively it shows �, decoded carefully it shows text."""

import hashlib

import streamlit as st

from ui.layout import figure, large_type_on, page_setup
import lessons
from analyses.stream import partial_count, so_far
from analyses.textstats import utf8_length
from ui import predict, state, viewport
from views import streaming
from ui import choices
from ui.chips import chip_from_token, chips_html
from ui.display import md_escape, plural
from ui.uploads import too_big
from ui.links import lesson_link
from ui.steps import Stepper

page_setup("Streaming")


PAGE = "stream"
MAX_TEXT_BYTES = 1_000_000  # a bigger paste is refused politely
MAX_STREAM = 300  # tokens streamed step by step; every token of the text is still counted
CONTENT = lessons.content("streaming")
EXAMPLES = lessons.examples("stream")
DEFAULT_TEXT = lessons.data("lesson4_english_hindi")["test_hi"]
LARGE = large_type_on()

TEXT = state.Param(PAGE, "text", DEFAULT_TEXT, max_len=1000)
STEP = state.Param(PAGE, "step", 0, lo=0, hi=1_000_000)
PREDICT = state.Param(PAGE, "predict", False)
PARAMS = [TEXT, STEP, PREDICT]
STEPPER = Stepper(STEP, autoplay_seconds=1.0)
_SIGNATURE = f"{PAGE}._signature"


def _use_example(text: str) -> None:
    state.set_value(TEXT, text)
    STEPPER.reset()


if not LARGE:
    st.caption(md_escape(CONTENT["intro"]))
lesson_link(6)
with st.container(horizontal=True, gap="small", vertical_alignment="center"):
    st.caption("Try:", width="content")
    for i, example in enumerate(EXAMPLES):
        st.button(example["label"], key=f"{PAGE}.example.{i}", on_click=_use_example, args=(example["text"],),
                  type="tertiary")

# The picker and the text share a row (a phone stacks them), so the stream's panels come right after Next on the
# first screen, on a projector and on a laptop.
pick_col, text_col = st.columns([2, 3], gap="medium")
with pick_col:
    key, tok = choices.pick_one(PAGE, default="english-hindi", kinds=("lab", "real", "session"))
state.restore(PARAMS)
text_col.text_area("Text to stream", key=TEXT.skey, height=80 if LARGE else 90,
                   help=f"Any text, up to 1 MB. The first {MAX_STREAM} tokens are streamed step by step; all are "
                   "counted.")
too_long = state.publish(PARAMS)
text: str = state.value(TEXT) or ""
if tok is None:
    st.stop()
if not text:
    st.info("Type some text above, or pick one of the examples.", icon=":material/edit:")
    st.stop()
if too_big(utf8_length(text), MAX_TEXT_BYTES, "a sentence or two is plenty to watch a stream"):
    st.stop()
if "text" in too_long:
    st.caption("This text is too long to put in the page's link; the link keeps the tokenizer and the step.")

try:
    enc, events = streaming.events_for(key, text, MAX_STREAM)
except ValueError as exc:  # e.g. a lab model whose pre-split pattern backtracks on this text
    st.warning(md_escape(f"{tok.name} cannot encode this text: {exc}"), icon=":material/timer_off:")
    st.stop()
n = len(events)
total, partial = enc.measure.tokens, enc.measure.partial
run = hashlib.sha1(f"{key}\n{text}".encode("utf-8", "surrogatepass")).hexdigest()[:16]

# A new text or tokenizer starts again from the first token; a shared link keeps its step.
if st.session_state.get(_SIGNATURE, run) != run:
    STEPPER.reset()
st.session_state[_SIGNATURE] = run

if n == 0:
    st.info("This tokenizer makes no tokens of this text (it splits on whitespace and drops the spaces, and the "
            "text is only spaces). Type some words.", icon=":material/space_bar:")
    st.stop()

# -- the lesson's figure: how many tokens are not whole characters on their own ---------------------------
share = f" ({partial / total:.0%})" if partial else ""
if partial:
    st.markdown(
        f"**{partial:,} of {total:,} tokens{share}** are not whole characters on their own: "
        f"a naive stream shows each of them as �. {md_escape(tok.name)} cuts this text into {plural(total, 'token')}."
    )
else:
    why = (" This tokenizer works on characters, so a token is never part of one." if tok.unit == "chars"
           else " Try Hindi with a byte-level tokenizer, for example the lab's English + Hindi one.")
    st.markdown(f"**0 of {total:,} tokens** are partial: every token is whole characters, so a naive stream shows "
                f"this text cleanly.{why}")
if total > n:
    st.caption(f"Streaming the first {n:,} of {total:,} tokens; the count above is over all of them.")
streamed_partial = partial_count(events)


def predict_toggle() -> None:
    st.toggle("Predict first", key=PREDICT.skey,
              help="Before each token is shown, say whether it will be whole characters on its own.")


def draw_stream() -> None:
    """The step view (a fragment: a click or an autoplay tick reruns only this)."""
    predicting = bool(st.session_state.get(PREDICT.skey))
    with st.container(key=viewport.action("stream")):  # a click here brings the panels into view
        k = STEPPER.draw(n, slider=None if LARGE else "Tokens streamed", autoplay_disabled=predicting,
                         extra=predict_toggle)
    state.publish(PARAMS)
    hidden = False
    if predicting and k:
        question = streaming.whole_question(run, events, k)
        with st.container(border=True):
            hidden = predict.ask(question) is None
            st.caption(f"Your predictions on this page: {predict.score_line('streaming-page')}.")
    shown = k - 1 if hidden else k
    now = so_far(events, shown)
    # what Next changes: both decoders and the token sent
    with st.container(key=viewport.result("stream")), figure("stream-panels"):
        st.html(streaming.CSS + streaming.panels_html(now, CONTENT["naive"], CONTENT["careful"]))
        if shown:
            st.html(streaming.CSS + streaming.current_html(enc.tokens[shown - 1], events[shown - 1], shown, n))
    if not shown and predicting:
        st.info("**Predict first** is on: press **Next**, then say whether the first token is whole characters "
                "before it is shown.", icon=":material/psychology:")
    elif not shown:
        st.caption("Press **Next** (or **Autoplay**) to send the tokens one at a time, as a model writes them.")

    visible = enc.tokens[:shown] if predicting else enc.tokens[:n]
    chips = [chip_from_token(t, highlight=i == shown - 1) for i, t in enumerate(visible)]
    st.markdown("**The tokens**" + (" so far (the rest are hidden while you predict)" if predicting else
                                    ", the one just sent outlined"))
    if chips:
        st.html(streaming.CSS + chips_html(chips, label="the tokens", mark_pieces=True))
    legend = "Dashed border: part of a character, in hex bytes, with the letters the tokens make written under them."
    st.caption(legend)
    if k == n and not hidden:
        end = so_far(events, n)
        if n == total and end.text == text:
            st.success(
                f"The careful decoder gave back the text exactly. The naive one showed "
                f"{plural(end.marks, 'replacement mark')} for the {streamed_partial:,} tokens that were not whole "
                "characters on their own.",
                icon=":material/check_circle:",
            )
        elif n == total:
            st.info(
                "The careful stream is not exactly your text: this tokenizer changes the text it reads (a lab model "
                "with the whitespace split drops the spaces, SentencePiece adds one at the start, Qwen3 normalises "
                "to NFC). What it streams is what its tokens hold, and no character is broken.",
                icon=":material/info:",
            )


st.fragment(draw_stream, run_every=STEPPER.run_every())()
if key in {e.key for e in choices.real_entries()}:  # a production tokenizer: where its data comes from
    choices.about_box([(key, tok)], key=f"{PAGE}.about_open", note=choices.OFFLINE_NOTE)
