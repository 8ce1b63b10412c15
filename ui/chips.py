"""Token chips: the one place tokens are drawn.

Every page that shows tokens calls :func:`token_chips` (or builds the HTML
with :func:`chips_html` to embed it). The rules it keeps:

- Colours come from Paul Tol's colour-blind-safe "light" palette, with black
  text (at least 8:1 contrast), and every chip has a border and a gap, so a
  boundary never depends on colour alone.
- Spaces, newlines and tabs are made visible (``·``, ``↵``, ``⇥``).
- A token that is not whole characters (part of a UTF-8 character) shows its
  bytes in hex with a dashed border, never as ``�``.
- A combining mark that starts a token (a Devanagari vowel sign split from
  its letter) is drawn on a no-break space, so the browser does not strand
  it on a dotted circle.
- Every chip has a tooltip with its id and a screen-reader label.
- All user text is escaped: it is shown as text, never run as HTML.
"""

from __future__ import annotations

import html
import unicodedata
from dataclasses import dataclass
from typing import Iterable, Sequence

from tokenizer import UNKNOWN_ID, Token

# Paul Tol's "light" scheme (black text on each is at least 8.3:1).
PALETTE = ("#77AADD", "#99DDFF", "#44BB99", "#BBCC33", "#AAAA00", "#EEDD88", "#EE8866", "#FFAABB", "#DDDDDD")
UNKNOWN_COLOUR = "#FFFFFF"
HIGHLIGHT_COLOUR = "#FFEE33"

_VISIBLE = {" ": "·", "\n": "↵", "\t": "⇥", "\r": "␍"}

CSS = """
<style>
.tl-chips{display:flex;flex-wrap:wrap;gap:.35em .3em;align-items:flex-start;line-height:1.2;margin:.2em 0 .6em}
.tl-chip{display:inline-flex;flex-direction:column;align-items:center;border:2px solid #222;border-radius:.35em;
 padding:.12em .4em;color:#000;font-family:"Noto Sans","Noto Sans Devanagari","Noto Sans Tamil","Noto Sans Bengali",
 "Segoe UI",sans-serif;font-size:1.15em;white-space:pre;min-width:1.2em}
.tl-chip .tl-ws{color:#555}
.tl-chip.tl-partial{border-style:dashed;font-family:ui-monospace,"DejaVu Sans Mono",monospace;font-size:.95em}
.tl-chip.tl-unknown{border-style:dotted;background:#fff !important}
.tl-chip.tl-hl{outline:4px solid #000;outline-offset:1px}
.tl-chip .tl-id{font-size:.62em;color:#000;font-family:ui-monospace,monospace;opacity:.85}
.tl-chip .tl-count{font-size:.62em;color:#000}
.tl-sep{align-self:center;color:#666;padding:0 .15em}
.tl-legend{font-size:.85em;color:inherit;opacity:.8;margin-top:-.3em}
</style>
"""


@dataclass(frozen=True, slots=True)
class Chip:
    """What a chip shows. Build these from engine output with the helpers below."""

    label: str
    token_id: int | None = None
    whole: bool = True
    known: bool = True
    count: int | None = None
    highlight: bool = False
    note: str = ""


def chip_from_token(token: Token, highlight: bool = False) -> Chip:
    return Chip(
        label=token.label,
        token_id=None if token.id == UNKNOWN_ID else token.id,
        whole=token.whole,
        known=token.known,
        highlight=highlight,
    )


def visible_text(label: str) -> str:
    """Escape ``label`` for HTML and make whitespace and lone combining marks visible."""
    parts = []
    for i, ch in enumerate(label):
        if ch in _VISIBLE:
            parts.append(f'<span class="tl-ws">{_VISIBLE[ch]}</span>')
        elif i == 0 and unicodedata.category(ch).startswith("M"):
            parts.append("\u00a0" + html.escape(ch))  # a base for the mark: no dotted circle
        elif unicodedata.category(ch) == "Cc" or ch in "\u200b\u200c\u200d\u2060\ufeff":
            parts.append(f'<span class="tl-ws">{html.escape(f"U+{ord(ch):04X}")}</span>')
        else:
            parts.append(html.escape(ch))
    return "".join(parts)


def _describe(chip: Chip, position: int) -> str:
    if not chip.known:
        what = f"unseen character {chip.label!r}, not in the vocabulary"
    elif not chip.whole:
        what = f"part of a character, bytes {chip.label.strip('⟨⟩')}"
    else:
        what = repr(chip.label)
    id_part = f", id {chip.token_id}" if chip.token_id is not None else ""
    count_part = f", occurs {chip.count} times" if chip.count is not None else ""
    note = f". {chip.note}" if chip.note else ""
    return f"token {position + 1}: {what}{id_part}{count_part}{note}"


def chip_colour(chip: Chip, position: int, colour_by: str = "position") -> str:
    if not chip.known:
        return UNKNOWN_COLOUR
    if chip.highlight:
        return HIGHLIGHT_COLOUR
    key = chip.token_id if colour_by == "id" and chip.token_id is not None else position
    return PALETTE[key % len(PALETTE)]


def chips_html(
    chips: Sequence[Chip],
    *,
    show_ids: bool = False,
    colour_by: str = "position",
    label: str = "tokens",
    separator: str | None = None,
) -> str:
    """The HTML for a row of chips (without the CSS block: see :data:`CSS`)."""
    out = [f'<div class="tl-chips" role="list" aria-label="{html.escape(label)}: {len(chips)}">']
    for i, chip in enumerate(chips):
        classes = ["tl-chip"]
        if not chip.whole:
            classes.append("tl-partial")
        if not chip.known:
            classes.append("tl-unknown")
        if chip.highlight:
            classes.append("tl-hl")
        description = html.escape(_describe(chip, i), quote=True)
        body = visible_text(chip.label) or "∅"
        extra = ""
        if show_ids:
            extra += f'<span class="tl-id">{chip.token_id if chip.token_id is not None else "?"}</span>'
        if chip.count is not None:
            extra += f'<span class="tl-count">×{chip.count}</span>'
        if separator is not None and i:
            out.append(f'<span class="tl-sep" aria-hidden="true">{html.escape(separator)}</span>')
        out.append(
            f'<span class="{" ".join(classes)}" style="background:{chip_colour(chip, i, colour_by)}" role="listitem" '
            f'title="{description}" aria-label="{description}"><span>{body}</span>{extra}</span>'
        )
    out.append("</div>")
    return "".join(out)


def token_chips(chips: Iterable[Chip], **kwargs) -> None:
    """Draw a row of chips with Streamlit."""
    import streamlit as st

    st.html(CSS + chips_html(list(chips), **kwargs))


def word_rows_html(rows: Sequence[tuple[Sequence[Chip], int]], *, show_ids: bool = False) -> str:
    """Several words, each a row of chips followed by its count (for a corpus view)."""
    out = ['<div class="tl-words">']
    for chips, count in rows:
        out.append('<div style="display:flex;align-items:center;gap:.6em">')
        out.append(chips_html(chips, show_ids=show_ids, label="word tokens"))
        out.append(f'<span aria-label="occurs {count} times" style="font-weight:600">×{count}</span></div>')
    out.append("</div>")
    return "".join(out)
