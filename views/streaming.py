"""What the Streaming page draws: a token stream, what a naive and a careful decoder show, and the token that
just arrived.

The decoding itself is the engine's (:mod:`analyses.stream`); this module declares the page's keys once, draws
its events and holds the page's sections, which the page composes.

- A replacement mark ``�`` made by the naive decoder is drawn as a marked box (a colour, a
  border and bold), with the bytes it stands for in its tooltip and screen-reader label: it is
  the point of the lesson, so it must never look like ordinary text or vanish.
- The bytes the careful decoder is holding are drawn after its text, in hex, in a dashed box:
  ``holding E0 A4``.
- The text itself follows the display rules (:func:`ui.display.readable_text`): spaces stay
  spaces, line breaks and invisible controls are made visible, everything is escaped.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from typing import NamedTuple

import streamlit as st

import lessons
from analyses.stream import SoFar, StreamEvent, partial_count, so_far, stream_tokens
from analyses.textstats import utf8_length
from i18n import N_, _, _n, localized, number
from lessons.progress import STREAMING_WHOLE, QuestionId
from tokenizer import TextTokenizer, Token, hex_bytes
from ui import choices, predict, state, viewport
from ui.chips import CSS as CHIPS_CSS
from ui.chips import FONTS, MONO, chip_from_token, chips_html, mark_label
from ui.display import lone_marks, md_escape, readable_text, token_html
from ui.layout import figure
from ui.predict import Question
from ui.steps import Stepper
from ui.uploads import too_big

PAGE = "stream"
MAX_TEXT_BYTES = 1_000_000  # a bigger paste is refused politely
MAX_STREAM = 300  # tokens streamed step by step; every token of the text is still counted
CONTENT = lessons.content("streaming")
EXAMPLES = lessons.examples("stream")
DEFAULT_TEXT = lessons.data("lesson4_english_hindi")["test_hi"]

TEXT = state.Param(PAGE, "text", DEFAULT_TEXT, max_len=1000)
STEP = state.Param(PAGE, "step", 0, lo=0, hi=1_000_000)
PREDICT = state.Param(PAGE, "predict", False)
PARAMS = [TEXT, STEP, PREDICT]
STEPPER = Stepper(STEP, autoplay_seconds=1.0)
SIGNATURE = state.Key(PAGE, "_signature")  # what is streamed (tokenizer and text): a new one starts again
ABOUT_OPEN = state.Key(PAGE, "about_open")


def example_key(i: int) -> state.Key:
    """The button of the ``i``-th example text."""
    return state.Key(PAGE, f"example.{i}")

BAD_COLOUR = "#EE8866"  # Paul Tol's light orange: black text on it is above 8:1

CSS = (
    CHIPS_CSS
    + f"""
<style>
.tl-stream{{display:grid;grid-template-columns:repeat(auto-fit,minmax(min(100%,18em),1fr));gap:.8em;margin:.3em 0 .8em}}
.tl-stream-panel{{border:2px solid #222;border-radius:.5em;padding:.5em .8em;min-width:0}}
.tl-stream-head{{font-weight:600;margin-bottom:.3em}}
.tl-stream-text{{font-family:{FONTS};font-size:1.5em;line-height:1.7;white-space:pre-wrap;overflow-wrap:anywhere;
 min-height:1.7em;color:#000}}
.tl-stream-foot{{font-size:.9em;margin-top:.3em}}
.tl-bad{{display:inline-block;background:{BAD_COLOUR};border:2px solid #000;border-radius:.25em;font-weight:700;
 padding:0 .12em;margin:0 .06em;line-height:1.25;color:#000}}
.tl-held{{display:inline-block;border:2px dashed #000;border-radius:.25em;font-family:{MONO};font-size:.62em;
 padding:0 .3em;margin-left:.25em;vertical-align:middle;white-space:nowrap;color:#000}}
.tl-empty{{font-style:italic;font-size:.7em;opacity:.8}}
.tl-markname{{font-style:italic;font-size:.6em;margin-left:.4em}}
.tl-now{{display:flex;flex-wrap:wrap;gap:.6em 1.6em;align-items:center;margin:.2em 0 .6em}}
.tl-now>div{{display:flex;flex-direction:column;gap:.15em;min-width:0}}
.tl-now .tl-k{{font-size:.85em;font-weight:600}}
.tl-now .tl-v{{font-family:{FONTS};font-size:1.25em;white-space:pre-wrap;overflow-wrap:anywhere}}
.tl-now .tl-hexv{{font-family:{MONO};font-size:1.05em}}
.tl-now .tl-chips{{margin:0}}
</style>
"""
)


# -- the engine's events, once per (tokenizer, text) -------------------------------------------------------
def events_for(key: str, text: str, limit: int) -> tuple[choices.Encoded, tuple[StreamEvent, ...]]:
    """The text encoded by tokenizer ``key`` (measured in full) and its first ``limit`` tokens streamed."""
    return choices.encoded(key, text, limit), _events(key, text, limit)


@st.cache_data(max_entries=128, show_spinner=False)
def _events(key: str, text: str, limit: int) -> tuple[StreamEvent, ...]:
    """Keyed by everything the events depend on: the tokens are read from :func:`ui.choices.encoded`'s cache."""
    return tuple(stream_tokens(choices.encoded(key, text, limit).tokens))


# -- HTML ------------------------------------------------------------------------------------------------
def _text_html(text: str) -> str:
    return html.escape(readable_text(text))


def bad_html(bad: bytes) -> str:
    """One replacement mark, marked: the bytes it stands for in its tooltip and label."""
    what = _("replacement mark: the bytes {bytes} are not a character on their own", bytes=hex_bytes(bad))
    what = html.escape(what, quote=True)
    return f'<span class="tl-bad" title="{what}" aria-label="{what}" role="img">\ufffd</span>'


def naive_html(parts: Sequence[tuple[str, bytes]], *, token: bool = False) -> str:
    """The naive decoder's output: text as text, each replacement mark marked.

    ``token``: the output of one token, shown by the token rules (a space as ``·``, a lone vowel sign on ``◌``);
    otherwise a text as a whole (spaces as spaces).
    """
    text_html = token_html if token else _text_html
    return "".join(bad_html(bad) if bad else text_html(text) for text, bad in parts)


def _names_html(text: str) -> str:
    """The names of the marks that start ``text`` with nothing to sit on ("vowel sign o"): no hover on a projector."""
    names = [mark_label(m) for m in lone_marks(text)]  # in the learner's language
    return f'<span class="tl-markname">{html.escape(", ".join(names))}</span>' if names else ""


def held_html(held: bytes) -> str:
    if not held:
        return ""
    what = html.escape(_("holding {bytes}: the start of a character, waiting for the rest", bytes=hex_bytes(held)),
                       quote=True)
    shown = html.escape(_("holding {bytes}", bytes=hex_bytes(held)))
    return f'<span class="tl-held" title="{what}">{shown}</span>'


def _panel(head: str, body: str, foot: str, css: str) -> str:
    return (
        f'<div class="tl-stream-panel {css}" role="region" aria-label="{html.escape(head, quote=True)}">'
        f'<div class="tl-stream-head">{html.escape(head)}</div>'
        f'<div class="tl-stream-text">{body}</div>'
        f'<div class="tl-stream-foot">{html.escape(foot)}</div></div>'
    )


def panels_html(now: SoFar, naive_title: str, careful_title: str) -> str:
    """The two decoders side by side (stacked on a narrow screen), after ``now.step`` tokens."""
    nothing_yet = html.escape(_("nothing yet"))  # (a call inside an f-string is not extracted)
    empty = f'<span class="tl-empty">{nothing_yet}</span>'
    naive_body = naive_html(now.naive) or empty
    marks = now.marks
    naive_foot = _n("{n} replacement mark so far", "{n} replacement marks so far", marks) if now.step else ""
    careful_body = (_text_html(now.text) if now.text else ("" if now.held else empty)) + held_html(now.held)
    careful_foot = _("no replacement marks") if now.step else ""
    if now.held:
        careful_foot = _n("holding {n} byte back until the character is whole",
                          "holding {n} bytes back until the character is whole", len(now.held))
    return (
        '<div class="tl-stream">'
        + _panel(naive_title, naive_body, naive_foot, "tl-naive")
        + _panel(careful_title, careful_body, careful_foot, "tl-careful")
        + "</div>"
    )


def current_html(token: Token, event: StreamEvent, position: int, total: int) -> str:
    """The token that just arrived: its chip, its bytes, and what each decoder did with it."""
    chip = chips_html([chip_from_token(token, highlight=True)], show_ids=token.known, runs=False,
                      label=_("token {n}", n=number(position)))
    nothing, nothing_yet = html.escape(_("nothing")), html.escape(_("nothing yet"))
    naive = naive_html(event.naive_parts, token=True) if event.bytes else f'<span class="tl-empty">{nothing}</span>'
    naive += _names_html("".join(text for text, bad in event.naive_parts if not bad))
    if event.text:
        careful = token_html(event.text) + _names_html(event.text)
    else:
        careful = f'<span class="tl-empty">{nothing_yet}</span>'
    careful += held_html(event.held_bytes)
    rows = [
        (_("Token"), html.escape(_("{position} of {total}", position=number(position), total=number(total))), ""),
        (_("The token"), chip, "raw"),
        (_("Its bytes"), html.escape(hex_bytes(event.bytes)) or html.escape(_("none")), "tl-hexv"),
        (_("Naive decoder adds"), naive, "raw"),
        (_("Careful decoder adds"), careful, "raw"),
    ]
    arrived = html.escape(_("the token that just arrived"), quote=True)
    out = [f'<div class="tl-now" role="group" aria-label="{arrived}">']
    for key, value, kind in rows:
        cls = "tl-v" + (" tl-hexv" if kind == "tl-hexv" else "")
        out.append(f'<div><span class="tl-k">{html.escape(key)}</span><span class="{cls}">{value}</span></div>')
    out.append("</div>")
    return "".join(out)





# -- predict, then run ----------------------------------------------------------------------------------
WHOLE = N_("Whole characters: it shows cleanly")
BROKEN = N_("Part of a character: the naive decoder shows �")
"""The question's two options: kept and judged as written here, shown in the learner's language (lab_options)."""


def whole_question(run: str, events: Sequence[StreamEvent], k: int) -> Question:
    """"Will token k show a whole character?": the answer is the engine's (``StreamEvent.whole``). ``run`` names
    what is streamed (:attr:`Stream.run`)."""
    event = events[k - 1]
    before = events[k - 2].held_bytes if k > 1 else b""
    if before:
        prompt = _("The careful decoder is holding {bytes}, the start of a character. Token {k} arrives: decoded on "
                   "its own, will it be whole characters?", bytes=hex_bytes(before), k=number(k))
    else:
        prompt = _("Nothing is held back. Token {k} arrives: decoded on its own, will it be whole characters?",
                   k=number(k))
    marks = sum(1 for _text, bad in event.naive_parts if bad)
    if event.whole:
        explain = _("Token {k} is the bytes {bytes}: whole characters, so both decoders show “{text}”.", k=number(k),
                    bytes=hex_bytes(event.bytes), text=readable_text(event.text))
    else:
        naive = _n("Token {k} is the bytes {bytes}: not whole characters on their own, so the naive decoder shows "
                   "{n} replacement mark.", "Token {k} is the bytes {bytes}: not whole characters on their own, so "
                   "the naive decoder shows {n} replacement marks.", marks, k=number(k), bytes=hex_bytes(event.bytes))
        if event.text:
            careful = (_("The careful decoder completes “{text}” and holds {held}.", text=readable_text(event.text),
                         held=hex_bytes(event.held_bytes)) if event.held_bytes
                       else _("The careful decoder completes “{text}”.", text=readable_text(event.text)))
        else:
            careful = (_("The careful decoder shows nothing yet and holds {held}.", held=hex_bytes(event.held_bytes))
                       if event.held_bytes else _("The careful decoder shows nothing yet."))
        explain = naive + " " + careful
    return Question(key="", id=QuestionId.of(STREAMING_WHOLE, run=run, token=k), prompt=prompt, kind="choice",
                    answer=WHOLE if event.whole else BROKEN, options=(WHOLE, BROKEN), explain=explain,
                    scope="streaming-page", lab_options=True)

# -- the page's sections ---------------------------------------------------------------------------------
class Stream(NamedTuple):
    """One text streamed by one tokenizer."""

    key: str
    tok: TextTokenizer
    text: str
    enc: choices.Encoded
    events: tuple[StreamEvent, ...]

    @property
    def run(self) -> str:
        """An identity for what is streamed (its questions' ids carry it; a new one starts again)."""
        return state.digest(self.key, self.text)

    @property
    def n(self) -> int:
        """Tokens streamed step by step (at most :data:`MAX_STREAM`)."""
        return len(self.events)


def intro() -> None:
    st.caption(md_escape(localized(CONTENT)["intro"]))


def _use_example(text: str) -> None:
    state.set_value(TEXT, text)
    STEPPER.reset()


def examples_section() -> None:
    with st.container(horizontal=True, gap="small", vertical_alignment="center"):
        st.caption(_("Try:"), width="content")
        for i, example in enumerate(EXAMPLES):
            st.button(localized(example)["label"], key=example_key(i).skey, on_click=_use_example, args=(example["text"],),
                      type="tertiary")


def input_section(large: bool) -> tuple[str, TextTokenizer | None]:
    """The tokenizer and the text, side by side; returns the tokenizer's (key, tokenizer or None)."""
    # The picker and the text share a row (a phone stacks them), so the stream's panels come right after Next on
    # the first screen, on a projector and on a laptop.
    pick_col, text_col = st.columns([2, 3], gap="medium")
    with pick_col:
        key, tok = choices.pick_one(PAGE, default="english-hindi", kinds=("lab", "real", "session"),
                                    label=_("Tokenizer"))
    text_col.text_area(_("Text to stream"), key=TEXT.skey, height=80 if large else 90,
                       help=_("Any text, up to 1 MB. The first {n} tokens are streamed step by step; all are counted.",
                              n=number(MAX_STREAM)))
    return key, tok


def stream_of(key: str, tok: TextTokenizer | None) -> Stream | None:
    """The text streamed by the tokenizer, or None (after saying what to do)."""
    text: str = state.value(TEXT) or ""
    if tok is None:
        return None
    if not text:
        st.info(_("Type some text above, or pick one of the examples."), icon=":material/edit:")
        return None
    if too_big(utf8_length(text), MAX_TEXT_BYTES, _("a sentence or two is plenty to watch a stream")):
        return None
    if TEXT.name in state.too_long([TEXT]):
        st.caption(_("This text is too long to put in the page's link; the link keeps the tokenizer and the step."))
    try:
        enc, events = events_for(key, text, MAX_STREAM)
    except ValueError as exc:  # e.g. a lab model whose pre-split pattern backtracks on this text
        st.warning(md_escape(_("{name} cannot encode this text: {why}", name=tok.name, why=exc)),
                   icon=":material/timer_off:")
        return None
    stream = Stream(key, tok, text, enc, events)
    # A new text or tokenizer starts again from the first token; a shared link keeps its step.
    if st.session_state.get(SIGNATURE.skey, stream.run) != stream.run:
        STEPPER.reset()
    st.session_state[SIGNATURE.skey] = stream.run
    if not stream.n:
        st.info(_("This tokenizer makes no tokens of this text (it splits on whitespace and drops the spaces, and the "
                  "text is only spaces). Type some words."), icon=":material/space_bar:")
        return None
    return stream


def figure_section(stream: Stream) -> None:
    """The lesson's figure: how many tokens are not whole characters on their own."""
    total, partial, tok = stream.enc.measure.tokens, stream.enc.measure.partial, stream.tok
    if partial:
        share = f"{partial / total:.0%}"
        st.markdown(
            _n("**{partial} of {n} token ({share})** are not whole characters on their own: a naive stream shows "
               "each of them as �.", "**{partial} of {n} tokens ({share})** are not whole characters on their own: "
               "a naive stream shows each of them as �.", total, partial=number(partial), share=share)
            + " " + _n("{name} cuts this text into {n} token.", "{name} cuts this text into {n} tokens.", total,
                       name=md_escape(tok.name))
        )
    else:
        why = (_("This tokenizer works on characters, so a token is never part of one.") if tok.unit == "chars"
               else _("Try Hindi with a byte-level tokenizer, for example the lab's English + Hindi one."))
        st.markdown(_n("**0 of {n} token** are partial: every token is whole characters, so a naive stream shows "
                       "this text cleanly.", "**0 of {n} tokens** are partial: every token is whole characters, so "
                       "a naive stream shows this text cleanly.", total) + " " + why)
    if total > stream.n:
        st.caption(_("Streaming the first {n} of {total} tokens; the count above is over all of them.",
                      n=number(stream.n), total=number(total)))


def _predict_toggle() -> None:
    st.toggle(_("Predict first"), key=PREDICT.skey,
              help=_("Before each token is shown, say whether it will be whole characters on its own."))


def stream_section(stream: Stream, large: bool) -> None:
    """The step view (a fragment: a click or an autoplay tick reruns only this)."""
    n, enc, events, total = stream.n, stream.enc, stream.events, stream.enc.measure.tokens
    predicting = bool(st.session_state.get(PREDICT.skey))
    with st.container(key=viewport.action("stream")):  # a click here brings the panels into view
        k = STEPPER.draw(n, slider=None if large else _("Tokens streamed"), autoplay_disabled=predicting,
                         extra=_predict_toggle)
    state.publish(PARAMS)
    hidden = False
    if predicting and k:
        question = whole_question(stream.run, events, k)
        with st.container(border=True):
            hidden = predict.ask(question) is None
            st.caption(_("Your predictions on this page: {score}.", score=predict.score_line("streaming-page")))
    shown = k - 1 if hidden else k
    now = so_far(events, shown)
    # what Next changes: both decoders and the token sent
    with st.container(key=viewport.result("stream")), figure("stream-panels"):
        words = localized(CONTENT)
        st.html(CSS + panels_html(now, words["naive"], words["careful"]))
        if shown:
            st.html(CSS + current_html(enc.tokens[shown - 1], events[shown - 1], shown, n))
    if not shown and predicting:
        st.info(_("**Predict first** is on: press **Next**, then say whether the first token is whole characters "
                  "before it is shown."), icon=":material/psychology:")
    elif not shown:
        st.caption(_("Press **Next** (or **Autoplay**) to send the tokens one at a time, as a model writes them."))

    visible = enc.tokens[:shown] if predicting else enc.tokens[:n]
    chips = [chip_from_token(t, highlight=i == shown - 1) for i, t in enumerate(visible)]
    st.markdown(_("**The tokens** so far (the rest are hidden while you predict)") if predicting
                else _("**The tokens**, the one just sent outlined"))
    if chips:
        st.html(CSS + chips_html(chips, label=_("the tokens"), mark_pieces=True))
    st.caption(_("Dashed border: part of a character, in hex bytes, with the letters the tokens make written under "
                 "them."))
    if k == n and not hidden:
        end = so_far(events, n)
        if n == total and end.text == stream.text:
            st.success(
                _n("The careful decoder gave back the text exactly. The naive one showed {n} replacement mark for the "
                   "{partial} tokens that were not whole characters on their own.", "The careful decoder gave back "
                   "the text exactly. The naive one showed {n} replacement marks for the {partial} tokens that were "
                   "not whole characters on their own.", end.marks, partial=number(partial_count(events))),
                icon=":material/check_circle:",
            )
        elif n == total:
            st.info(
                _("The careful stream is not exactly your text: this tokenizer changes the text it reads (a lab model "
                  "with the whitespace split drops the spaces, SentencePiece adds one at the start, Qwen3 normalises "
                  "to NFC). What it streams is what its tokens hold, and no character is broken."),
                icon=":material/info:",
            )


def about_section(key: str, tok: TextTokenizer) -> None:
    """Where a production tokenizer's data comes from (nothing for the lab's own)."""
    if key in {e.key for e in choices.real_entries()}:
        choices.about_box([(key, tok)], key=ABOUT_OPEN.skey, note=choices.OFFLINE_NOTE)


__all__ = ["BROKEN", "CSS", "PARAMS", "STEPPER", "Stream", "WHOLE", "about_section", "bad_html", "current_html",
           "events_for", "examples_section", "figure_section", "held_html", "input_section", "intro", "naive_html",
           "panels_html", "stream_of", "stream_section", "whole_question"]
