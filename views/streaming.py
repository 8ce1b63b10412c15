"""Drawing a token stream: what a naive and a careful decoder show, and the token that just arrived.

The decoding itself is the engine's (:mod:`analyses.stream`); this module only draws its events.

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
from typing import Sequence

import streamlit as st

from tokenizer import Token, hex_bytes
from analyses.stream import SoFar, StreamEvent, stream_tokens
from ui import choices
from ui.chips import FONTS, MONO, chip_from_token, chips_html
from ui.chips import CSS as CHIPS_CSS
from ui.display import lone_marks, mark_name, plural, readable_text, token_html

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
    enc = choices.encoded(key, text, limit)
    return enc, _events(key, text, limit, enc.tokens)


@st.cache_data(max_entries=128, show_spinner=False)
def _events(key: str, text: str, limit: int, _tokens: Sequence[Token]) -> tuple[StreamEvent, ...]:
    return tuple(stream_tokens(_tokens))


# -- HTML ------------------------------------------------------------------------------------------------
def _text_html(text: str) -> str:
    return html.escape(readable_text(text))


def bad_html(bad: bytes) -> str:
    """One replacement mark, marked: the bytes it stands for in its tooltip and label."""
    what = f"replacement mark: the bytes {hex_bytes(bad)} are not a character on their own"
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
    names = [mark_name(m) for m in lone_marks(text)]
    return f'<span class="tl-markname">{html.escape(", ".join(names))}</span>' if names else ""


def held_html(held: bytes) -> str:
    if not held:
        return ""
    what = html.escape(f"holding {hex_bytes(held)}: the start of a character, waiting for the rest", quote=True)
    return f'<span class="tl-held" title="{what}">holding {hex_bytes(held)}</span>'


def _panel(head: str, body: str, foot: str, css: str) -> str:
    return (
        f'<div class="tl-stream-panel {css}" role="region" aria-label="{html.escape(head, quote=True)}">'
        f'<div class="tl-stream-head">{html.escape(head)}</div>'
        f'<div class="tl-stream-text">{body}</div>'
        f'<div class="tl-stream-foot">{html.escape(foot)}</div></div>'
    )


def panels_html(now: SoFar, naive_title: str, careful_title: str) -> str:
    """The two decoders side by side (stacked on a narrow screen), after ``now.step`` tokens."""
    empty = '<span class="tl-empty">nothing yet</span>'
    naive_body = naive_html(now.naive) or empty
    marks = now.marks
    naive_foot = f"{plural(marks, 'replacement mark')} so far" if now.step else ""
    careful_body = (_text_html(now.text) if now.text else ("" if now.held else empty)) + held_html(now.held)
    careful_foot = "no replacement marks" if now.step else ""
    if now.held:
        careful_foot = f"holding {plural(len(now.held), 'byte')} back until the character is whole"
    return (
        '<div class="tl-stream">'
        + _panel(naive_title, naive_body, naive_foot, "tl-naive")
        + _panel(careful_title, careful_body, careful_foot, "tl-careful")
        + "</div>"
    )


def current_html(token: Token, event: StreamEvent, position: int, total: int) -> str:
    """The token that just arrived: its chip, its bytes, and what each decoder did with it."""
    chip = chips_html([chip_from_token(token, highlight=True)], show_ids=token.known, runs=False,
                      label=f"token {position}")
    naive = naive_html(event.naive_parts, token=True) if event.bytes else '<span class="tl-empty">nothing</span>'
    naive += _names_html("".join(text for text, bad in event.naive_parts if not bad))
    if event.text:
        careful = token_html(event.text) + _names_html(event.text)
    else:
        careful = '<span class="tl-empty">nothing yet</span>'
    careful += held_html(event.held_bytes)
    rows = [
        ("Token", f"{position:,} of {total:,}", ""),
        ("The token", chip, "raw"),
        ("Its bytes", html.escape(hex_bytes(event.bytes)) or "none", "tl-hexv"),
        ("Naive decoder adds", naive, "raw"),
        ("Careful decoder adds", careful, "raw"),
    ]
    out = ['<div class="tl-now" role="group" aria-label="the token that just arrived">']
    for key, value, kind in rows:
        cls = "tl-v" + (" tl-hexv" if kind == "tl-hexv" else "")
        out.append(f'<div><span class="tl-k">{html.escape(key)}</span><span class="{cls}">{value}</span></div>')
    out.append("</div>")
    return "".join(out)





# -- predict, then run ----------------------------------------------------------------------------------
WHOLE = "Whole characters: it shows cleanly"
BROKEN = "Part of a character: the naive decoder shows �"


def whole_question(run: str, events: Sequence[StreamEvent], k: int):
    """"Will token k show a whole character?": the answer is the engine's (``StreamEvent.whole``)."""
    from lessons.progress import STREAMING_WHOLE, QuestionId
    from ui.predict import Question

    event = events[k - 1]
    before = events[k - 2].held_bytes if k > 1 else b""
    if before:
        prompt = (f"The careful decoder is holding {hex_bytes(before)}, the start of a character. Token {k} arrives: "
                  "decoded on its own, will it be whole characters?")
    else:
        prompt = f"Nothing is held back. Token {k} arrives: decoded on its own, will it be whole characters?"
    marks = sum(1 for _, bad in event.naive_parts if bad)
    if event.whole:
        explain = (f"Token {k} is the bytes {hex_bytes(event.bytes)}: whole characters, so both decoders show "
                   f"“{readable_text(event.text)}”.")
    else:
        done = (f"completes “{readable_text(event.text)}”" if event.text else "shows nothing yet")
        held = f" and holds {hex_bytes(event.held_bytes)}" if event.held_bytes else ""
        explain = (f"Token {k} is the bytes {hex_bytes(event.bytes)}: not whole characters on their own, so the "
                   f"naive decoder shows {plural(marks, 'replacement mark')}; the careful decoder "
                   f"{done}{held}.")
    return Question(key="", id=QuestionId.of(STREAMING_WHOLE, run=run, token=k), prompt=prompt, kind="choice",
                    answer=WHOLE if event.whole else BROKEN, options=(WHOLE, BROKEN), explain=explain,
                    scope="streaming-page")

__all__ = ["BROKEN", "CSS", "WHOLE", "bad_html", "current_html", "events_for", "held_html", "naive_html", "panels_html",
           "whole_question"]
