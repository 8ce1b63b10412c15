"""Token chips: the one place tokens are drawn.

Every page that shows tokens calls :func:`token_chips` (or builds the HTML
with :func:`chips_html` to embed it). The rules it keeps:

- Colours come from Paul Tol's colour-blind-safe "light" palette, with black
  text (at least 8:1 contrast), and every chip has a border and a gap, so a
  boundary never depends on colour alone.
- Spaces, newlines and tabs are made visible (``·``, ``↵``, ``⇥``; with
  ``line_breaks=True`` a newline also starts a new row). Control characters,
  bidirectional controls and a literal ``U+FFFD`` are shown as their code
  point (``U+0007``), and so is a zero-width or other format character at a
  token's edge or alone; between two visible characters it stays, so that
  👩‍👩‍👧 is still one emoji and क्‍ष keeps its joiner. Nothing in a chip is
  invisible, reorders its neighbours or looks like a broken byte.
- A token that is not whole characters (part of a UTF-8 character) shows its
  bytes in hex inside ``⟨ ⟩`` with a dashed border, never as ``�``.
- A combining mark with nothing to sit on (a Devanagari vowel sign that
  starts a token, or follows a space we drew as ``·``) is drawn on a
  no-break space. NBSP is the base Unicode recommends for showing a mark on
  its own, and HarfBuzz (Chromium, Firefox) treats it as a placeholder, so
  the mark is drawn by itself, with no dotted circle (checked in Debian
  Chromium with Noto Sans Devanagari, see tests/browser/test_page_tokenize.py).
  The chip's label for screen readers and tooltip says it is a mark on its own.
  (Table cells get the same base from ``visible_plain(label, mark_base=True)``.)
- Every chip has a tooltip with its id and a screen-reader label; ids can
  also be shown under the chips (``show_ids=True``).
- All user text is escaped: it is shown as text, never run as HTML.
  For Markdown elements (captions, alerts), :func:`md_code` puts user text in
  an inline code span and :func:`md_escape` escapes it as prose; both also stop
  Streamlit's ``:material/...:`` icon codes.
- Text inside a chip is isolated from its neighbours (``unicode-bidi:
  isolate``): the chips of right-to-left text still run left to right in
  token order.
"""

from __future__ import annotations

import html
import re
import unicodedata
from dataclasses import dataclass
from typing import Iterable, Sequence

from tokenizer import UNKNOWN_ID, Token, Tokenizer

# Paul Tol's "light" scheme (black text on each is at least 8.3:1).
PALETTE = ("#77AADD", "#99DDFF", "#44BB99", "#BBCC33", "#AAAA00", "#EEDD88", "#EE8866", "#FFAABB", "#DDDDDD")
UNKNOWN_COLOUR = "#FFFFFF"
HIGHLIGHT_COLOUR = "#FFEE33"

_VISIBLE = {" ": "·", "\n": "↵", "\t": "⇥", "\r": "␍"}
# Shown as U+XXXX wherever they are: they would be invisible, or would reorder the text around them.
_ALWAYS_CODE = set("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\ufffd")
_HEX_GROUP = re.compile(r"⟨([0-9A-F]{2}(?: [0-9A-F]{2})*)⟩")

CSS = """
<style>
.tl-chips{display:flex;flex-wrap:wrap;gap:.35em .3em;align-items:flex-start;line-height:1.2;margin:.2em 0 .6em}
.tl-chip{display:inline-flex;flex-direction:column;align-items:center;border:2px solid #222;border-radius:.35em;
 padding:.12em .4em;color:#000;font-family:"Noto Sans","Noto Sans Devanagari","Noto Sans Tamil","Noto Sans Bengali",
 "Noto Sans Arabic","Noto Naskh Arabic","Segoe UI",sans-serif;font-size:1.15em;white-space:pre-wrap;
 overflow-wrap:anywhere;max-width:100%;box-sizing:border-box;min-width:1.2em}
.tl-chip>.tl-text{unicode-bidi:isolate;line-height:1.55;padding-bottom:.1em}  /* room for marks below the line (् ू) */
.tl-chip .tl-ws{color:#000}
.tl-chip .tl-lone{padding-right:.15em}
.tl-chip .tl-cp{font-family:ui-monospace,"DejaVu Sans Mono",monospace;font-size:.72em;border:1px solid #000;
 border-radius:.2em;padding:0 .15em;margin:0 .05em}
.tl-chip .tl-hex{font-family:ui-monospace,"DejaVu Sans Mono",monospace;font-size:.82em}
.tl-chip.tl-partial{border-style:dashed}
.tl-chip.tl-unknown{border-style:dotted;background:#fff !important}
.tl-chip.tl-hl{outline:4px solid #000;outline-offset:1px}
.tl-chip.tl-piece{margin-left:.7em}
.tl-chip .tl-id{font-size:.62em;color:#000;font-family:ui-monospace,monospace}
.tl-chip .tl-count{font-size:.62em;color:#000}
.tl-sep{align-self:center;color:#666;padding:0 .15em}
.tl-break{flex-basis:100%;height:0}
.tl-legend{font-size:.85em;color:inherit;opacity:.8;margin-top:-.3em}
.tl-merge{display:flex;flex-wrap:wrap;align-items:center;gap:.4em;font-size:1.05em;margin:.2em 0 .5em}
.tl-merge .tl-chips{margin:0}
</style>
"""


@dataclass(frozen=True, slots=True)
class Chip:
    """What a chip shows. Build these from engine output with the helpers below.

    ``piece`` (optional) is the index of the pre-split piece the token came
    from; ``chips_html(..., mark_pieces=True)`` leaves a wider gap where it changes.
    """

    label: str
    token_id: int | None = None
    whole: bool = True
    known: bool = True
    count: int | None = None
    highlight: bool = False
    note: str = ""
    piece: int | None = None


def chip_from_token(token: Token, highlight: bool = False) -> Chip:
    return Chip(
        label=token.label,
        token_id=None if token.id == UNKNOWN_ID else token.id,
        whole=token.whole,
        known=token.known,
        highlight=highlight,
        piece=token.piece,
    )


def first_tokens(tokenizer: Tokenizer, text: str, limit: int) -> list[Token]:
    """The first ``limit`` tokens of ``text``, exactly as ``tokenizer.encode_tokens(text)[:limit]``.

    For drawing the start of a long text: building a :class:`Token` for each of
    half a million tokens takes seconds, so this encodes a prefix of the text
    instead, drops the tokens of its last (possibly cut) piece, and checks that
    the prefix's other pieces are the text's own first pieces; if anything
    does not line up it falls back to encoding the whole text.
    """
    if len(text) <= 8 * limit + 1000:
        return tokenizer.encode_tokens(text)[:limit]
    pieces = None
    cut = 8 * limit
    while cut < len(text):
        prefix_tokens = tokenizer.encode_tokens(text[:cut])
        if prefix_tokens:
            last = prefix_tokens[-1].piece
            kept = [t for t in prefix_tokens if t.piece < last]
            if len(kept) >= limit:
                pieces = pieces if pieces is not None else tokenizer.pieces(text)
                if tokenizer.pieces(text[:cut])[:last] == pieces[:last]:
                    return kept[:limit]
                break
        cut *= 2
    return tokenizer.encode_tokens(text)[:limit]


def chip_for_id(
    tokenizer: Tokenizer, token_id: int, label: str | None = None, *, piece: int | None = None, highlight: bool = False
) -> Chip:
    """A chip for one id of ``tokenizer`` (``label`` is needed for an unseen character, id -1)."""
    if token_id == UNKNOWN_ID:
        return Chip(label=label or "?", token_id=None, whole=True, known=False, highlight=highlight, piece=piece)
    return Chip(
        label=tokenizer.label(token_id) if label is None else label,
        token_id=token_id,
        whole=tokenizer.is_whole(token_id),
        known=True,
        highlight=highlight,
        piece=piece,
    )


def _is_mark(ch: str) -> bool:
    return unicodedata.category(ch).startswith("M")


def _code(ch: str) -> str:
    return f'<span class="tl-cp">{html.escape(f"U+{ord(ch):04X}")}</span>'


def _shown_as_code(label: str, i: int) -> bool:
    """Should ``label[i]`` be drawn as its code point rather than as itself?"""
    ch = label[i]
    category = unicodedata.category(ch)
    if ch in _ALWAYS_CODE or category in ("Cc", "Cs"):
        return True
    if category == "Cf":
        # A joiner or other format character does its work between two visible
        # characters (👩‍👧, क्‍ष); at a token's edge or alone it would be invisible.
        def visible(j: int) -> bool:
            return 0 <= j < len(label) and unicodedata.category(label[j]) != "Cf" and label[j] not in _VISIBLE

        return not (visible(i - 1) and visible(i + 1))
    return False


def visible_text(label: str) -> str:
    """Escape ``label`` for HTML and make whitespace, controls and lone combining marks visible.

    A lone mark (with nothing to sit on) is drawn on a no-break space, inside
    ``<span class="tl-lone">`` so a little room keeps it off what follows.
    """
    parts = []
    base_ok = False  # is there a drawn character for a combining mark to sit on?
    lone = False  # inside a tl-lone span
    for i, ch in enumerate(label):
        if lone and not _is_mark(ch):
            parts.append("</span>")
            lone = False
        if ch in _VISIBLE:
            parts.append(f'<span class="tl-ws">{_VISIBLE[ch]}</span>')
            base_ok = False
        elif _shown_as_code(label, i):
            parts.append(_code(ch))
            base_ok = False
        elif _is_mark(ch):
            if not base_ok:
                parts.append('<span class="tl-lone">\u00a0')  # a base for the mark: no dotted circle
                base_ok = lone = True
            parts.append(html.escape(ch))
        else:
            parts.append(html.escape(ch))
            base_ok = True
    if lone:
        parts.append("</span>")
    return "".join(parts)


def _body_html(chip: Chip) -> str:
    """The chip's text: partial tokens get their ⟨hex⟩ groups in a monospace span."""
    if not chip.label:
        return "∅"
    if chip.whole:
        return visible_text(chip.label)
    out, pos = [], 0
    for match in _HEX_GROUP.finditer(chip.label):
        out.append(visible_text(chip.label[pos : match.start()]))
        out.append(f'<span class="tl-hex">⟨{match.group(1)}⟩</span>')
        pos = match.end()
    out.append(visible_text(chip.label[pos:]))
    return "".join(out)


def visible_plain(label: str, *, mark_base: bool = False) -> str:
    """``label`` as plain text with whitespace and invisible characters made visible (for tables).

    ``⟨E0 A4⟩`` byte groups are kept as they are. ``mark_base``: put a no-break
    space before a combining mark that has nothing to sit on (for display, as
    the chips do; a table cell would otherwise draw a dotted circle).
    """
    out, pos = [], 0
    for match in _HEX_GROUP.finditer(label):
        out.append(_plain(label[pos : match.start()], mark_base))
        out.append(match.group(0))
        pos = match.end()
    out.append(_plain(label[pos:], mark_base))
    return "".join(out)


def _plain(label: str, mark_base: bool) -> str:
    out = []
    base_ok = False
    for i, ch in enumerate(label):
        if ch in _VISIBLE:
            out.append(_VISIBLE[ch])
            base_ok = False
        elif _shown_as_code(label, i):
            out.append(f"U+{ord(ch):04X}")
            base_ok = False
        else:
            if mark_base and not base_ok and _is_mark(ch):
                out.append("\u00a0")
            out.append(ch)
            base_ok = True
    return "".join(out)


_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|<>~:$&\"'=^%@/])")
_ICON_CODE = re.compile(r":(?=material/|streamlit:)", re.IGNORECASE)


def _no_icons(text: str) -> str:
    # Streamlit turns ``:material/name:`` into an icon even inside code spans and
    # after backslashes; a word joiner after the colon stops it and is invisible.
    return _ICON_CODE.sub(":\u2060", text)


def md_escape(text: str) -> str:
    """``text`` escaped for Streamlit Markdown (alerts, captions): shown as typed, never formatted."""
    return _MD_SPECIAL.sub(r"\\\1", _no_icons(text))


def md_code(text: str, *, visible: bool = True) -> str:
    """``text`` as a Markdown inline code span: shown literally, never as Markdown or HTML.

    Use it to put user text (a word, a token) inside ``st.markdown`` / ``st.caption``.
    ``visible``: show whitespace and invisible characters as the chips do.
    """
    shown = visible_plain(text) if visible else re.sub(r"[\r\n]+", " ", text)
    shown = _no_icons(shown) or "∅"
    longest = max((len(run) for run in re.findall(r"`+", shown)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if shown.startswith("`") or shown.endswith("`") else ""
    return f"{fence}{pad}{shown}{pad}{fence}"


def _describe(chip: Chip, position: int) -> str:
    if not chip.known:
        what = f"unseen character {visible_plain(chip.label)!r}, not in the vocabulary"
    elif not chip.whole:
        what = f"part of a character: {visible_plain(chip.label)!r}"
    else:
        what = repr(visible_plain(chip.label))
        if chip.label and _is_mark(chip.label[0]):
            name = unicodedata.name(chip.label[0], "combining mark").lower()
            what += f", starts with a {name} on its own"
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
    mark_pieces: bool = False,
    line_breaks: bool = False,
) -> str:
    """The HTML for a row of chips (without the CSS block: see :data:`CSS`).

    ``colour_by``: ``"position"`` (neighbours differ) or ``"id"`` (the same
    token always has the same colour). ``mark_pieces``: a wider gap where the
    pre-split piece changes (needs ``Chip.piece``). ``line_breaks``: start a
    new line after a token that ends in a newline, like the text does.
    """
    out = [f'<div class="tl-chips" role="list" aria-label="{html.escape(label)}: {len(chips)}">']
    previous_piece = None
    for i, chip in enumerate(chips):
        classes = ["tl-chip"]
        if not chip.whole:
            classes.append("tl-partial")
        if not chip.known:
            classes.append("tl-unknown")
        if chip.highlight:
            classes.append("tl-hl")
        if mark_pieces and i and chip.piece is not None and chip.piece != previous_piece and separator is None:
            classes.append("tl-piece")
        previous_piece = chip.piece
        description = html.escape(_describe(chip, i), quote=True)
        extra = ""
        if show_ids:
            extra += f'<span class="tl-id">{chip.token_id if chip.token_id is not None else "?"}</span>'
        if chip.count is not None:
            extra += f'<span class="tl-count">×{chip.count}</span>'
        if separator is not None and i:
            out.append(f'<span class="tl-sep" aria-hidden="true">{html.escape(separator)}</span>')
        out.append(
            f'<span class="{" ".join(classes)}" style="background:{chip_colour(chip, i, colour_by)}" role="listitem" '
            f'title="{description}" aria-label="{description}"><span class="tl-text">{_body_html(chip)}</span>{extra}</span>'
        )
        if line_breaks and chip.label.endswith("\n") and i + 1 < len(chips):
            out.append('<span class="tl-break" aria-hidden="true"></span>')
    out.append("</div>")
    return "".join(out)


def token_chips(chips: Iterable[Chip], **kwargs) -> None:
    """Draw a row of chips with Streamlit."""
    import streamlit as st

    st.html(CSS + chips_html(list(chips), **kwargs))


def merge_html(left: Chip, right: Chip, result: Chip, *, before: str = "", after: str = "") -> str:
    """``before [left] + [right] → [result] after`` as one line (``before``/``after`` are plain text, escaped)."""

    def one(chip: Chip, name: str) -> str:
        return chips_html([chip], show_ids=chip.token_id is not None, label=name)

    parts = ['<div class="tl-merge">']
    if before:
        parts.append(f"<span>{html.escape(before)}</span>")
    parts += [one(left, "left"), "<span aria-hidden='true'>+</span>", one(right, "right"),
              "<span aria-label='becomes'>→</span>", one(result, "new token")]
    if after:
        parts.append(f"<span>{html.escape(after)}</span>")
    parts.append("</div>")
    return "".join(parts)


def word_rows_html(rows: Sequence[tuple[Sequence[Chip], int]], *, show_ids: bool = False) -> str:
    """Several words, each a row of chips followed by its count (for a corpus view)."""
    out = ['<div class="tl-words">']
    for chips, count in rows:
        out.append('<div style="display:flex;align-items:center;gap:.6em">')
        out.append(chips_html(chips, show_ids=show_ids, label="word tokens"))
        out.append(f'<span aria-label="occurs {count} times" style="font-weight:600">×{count}</span></div>')
    out.append("</div>")
    return "".join(out)
