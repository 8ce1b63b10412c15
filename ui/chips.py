"""Token chips: the one place tokens are drawn.

Every page that shows tokens builds :class:`Chip` objects (from the engine's
:class:`tokenizer.Token` with :func:`chip_from_token`) and draws them with
:func:`chips_html` or :func:`token_chips`. What a chip shows follows the
display rules of :mod:`ui.display`; this module adds the drawing:

- Colours come from Paul Tol's colour-blind-safe "light" palette, with black
  text (at least 8:1 contrast), and every chip has a border and a gap, so a
  boundary never depends on colour alone.
- A token that is not whole characters (part of a UTF-8 character) shows its
  bytes in hex inside ``⟨ ⟩`` with a dashed border, never as ``�``; and a run
  of such tokens has the characters it makes written under it, in a bracket,
  so Hindi bytes become letters again on every page.
- A combining mark with nothing to sit on is drawn on ``◌`` and named under
  the chip ("vowel sign e"): a projector and a phone have no hover.
- Every chip has a tooltip and a screen-reader label; ids can be shown under
  the chips (``show_ids=True``).
- All user text is escaped: it is shown as text, never run as HTML. Text
  inside a chip is isolated from its neighbours (``unicode-bidi: isolate``):
  the chips of right-to-left text still run left to right in token order.
"""

from __future__ import annotations

import html
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from i18n import N_, _, _n, number
from tokenizer import UNKNOWN_ID, TextTokenizer, Token, Tokenizer, bytes_label, is_whole
from tokenizer.labels import character_runs
from ui.display import describe_token, lone_marks, mark_name, plural, token_html, visible_token

# Paul Tol's "light" scheme (black text on each is at least 8.3:1).
PALETTE = ("#77AADD", "#99DDFF", "#44BB99", "#BBCC33", "#AAAA00", "#EEDD88", "#EE8866", "#FFAABB", "#DDDDDD")
UNKNOWN_COLOUR = "#FFFFFF"
HIGHLIGHT_COLOUR = "#FFEE33"

FONTS = (
    '"Noto Sans","Noto Sans Devanagari","Noto Sans Tamil","Noto Sans Bengali","Noto Sans Arabic",'
    '"Noto Naskh Arabic","Noto Color Emoji","Segoe UI",sans-serif'
)
MONO = 'ui-monospace,"DejaVu Sans Mono",monospace'

CSS = f"""
<style>
.tl-chips{{display:flex;flex-wrap:wrap;gap:.35em .3em;align-items:flex-start;line-height:1.2;margin:.2em 0 .6em}}
.tl-chip{{display:inline-flex;flex-direction:column;align-items:center;border:2px solid #222;border-radius:.35em;
 padding:.12em .4em;color:#000;font-family:{FONTS};font-size:1.15em;white-space:pre-wrap;
 overflow-wrap:break-word;max-width:100%;box-sizing:border-box;min-width:1.2em}}
.tl-chip>.tl-text{{unicode-bidi:isolate;line-height:1.55;padding-bottom:.1em}}
.tl-chip .tl-ws{{color:#000}}
.tl-chip .tl-cp{{font-family:{MONO};font-size:.72em;border:1px solid #000;border-radius:.2em;padding:0 .15em;margin:0 .05em}}
.tl-chip .tl-hex{{font-family:{MONO};font-size:.82em}}
.tl-chip .tl-name{{font-size:.6em;line-height:1.1;color:#000;font-style:italic;white-space:normal;text-align:center}}
.tl-chip.tl-partial{{border-style:dashed}}
.tl-chip.tl-unknown{{border-style:dotted;background:#fff !important}}
.tl-chip.tl-hl{{outline:4px solid #000;outline-offset:1px}}
.tl-chip.tl-piece,.tl-run.tl-piece{{margin-left:.7em}}
.tl-chip .tl-id{{font-size:.62em;color:#000;font-family:{MONO}}}
.tl-chip .tl-count{{font-size:.62em;color:#000}}
.tl-run{{display:inline-flex;flex-direction:column;align-items:stretch;max-width:100%}}
.tl-run>.tl-run-chips{{display:flex;flex-wrap:wrap;gap:.35em .3em}}
.tl-run>.tl-run-text{{border:2px solid currentColor;border-top:none;border-radius:0 0 .35em .35em;text-align:center;
 font-family:{FONTS};font-size:1.05em;line-height:1.5;padding:0 .3em;margin-top:.15em;unicode-bidi:isolate}}
.tl-sep{{align-self:center;opacity:.75;padding:0 .15em}}
.tl-break{{flex-basis:100%;height:0}}
.tl-merge{{display:flex;flex-wrap:wrap;align-items:center;gap:.4em;font-size:1.05em;margin:.2em 0 .5em}}
.tl-merge .tl-chips{{margin:0}}
.tl-words{{display:grid;grid-template-columns:max-content minmax(0,1fr);column-gap:.8em;row-gap:.15em;align-items:center}}
.tl-word{{display:contents}}
.tl-word .tl-chips{{margin:.15em 0;align-items:center}}
.tl-word-label{{font-family:{FONTS};font-size:1.05em;white-space:nowrap;unicode-bidi:isolate;max-width:12em;
 overflow:hidden;text-overflow:ellipsis}}
.tl-word-count{{font-weight:600;white-space:nowrap;align-self:center;padding-left:.2em}}
.tl-keep{{display:inline-flex;align-items:center;gap:.3em}}
.tl-row-head{{margin:.2em 0 .1em}}
.tl-compact .tl-chips{{margin:.1em 0 .35em;gap:.25em .25em}}
.tl-compact .tl-chip{{font-size:1em;padding:.05em .3em}}
.tl-compact .tl-chip>.tl-text{{line-height:1.3;padding-bottom:0}}
.tl-compact .tl-run>.tl-run-text{{font-size:.95em;line-height:1.25;margin-top:.1em}}
.tl-labelled .tl-row-label{{white-space:normal;max-width:9em;overflow:visible;font-size:.95em}}
@media (max-width:640px){{.tl-labelled{{grid-template-columns:minmax(0,1fr)}} .tl-labelled .tl-row-label{{max-width:none}}}}
</style>
"""


@dataclass(frozen=True, slots=True)
class Chip:
    """What a chip shows. Build these from engine output with the helpers below.

    ``data`` (optional) is the token's bytes: with it, runs of partial
    tokens get the characters they make written under them. ``piece`` is
    the index of the pre-split piece the token came from;
    ``chips_html(..., mark_pieces=True)`` leaves a wider gap where it changes.
    """

    label: str
    token_id: int | None = None
    whole: bool = True
    known: bool = True
    count: int | None = None
    highlight: bool = False
    note: str = ""
    piece: int | None = None
    data: bytes | None = None


def chip_from_token(token: Token, highlight: bool = False) -> Chip:
    return Chip(
        label=token.label,
        token_id=None if token.id == UNKNOWN_ID else token.id,
        whole=token.whole,
        known=token.known,
        highlight=highlight,
        piece=token.piece,
        data=token.bytes,
    )


def chip_for_id(
    tokenizer: TextTokenizer, token_id: int, label: str | None = None, *, piece: int | None = None,
    highlight: bool = False,
) -> Chip:
    """A chip for one id of any tokenizer (``label`` is needed for a lab model's unseen character, id -1)."""
    if token_id == UNKNOWN_ID:
        return Chip(label=label or "?", token_id=None, whole=True, known=False, highlight=highlight, piece=piece)
    if not isinstance(tokenizer, Tokenizer):  # a production tokenizer: what a chip shows comes from the bytes
        data = tokenizer.token_bytes(token_id)
        return Chip(label=bytes_label(data) if label is None else label, token_id=token_id, whole=is_whole(data),
                    highlight=highlight, piece=piece, data=data)
    return Chip(
        label=tokenizer.label(token_id) if label is None else label,
        token_id=token_id,
        whole=tokenizer.is_whole(token_id),
        known=True,
        highlight=highlight,
        piece=piece,
        data=tokenizer.token_bytes(token_id),
    )


#: The names of Devanagari's combining marks as :func:`tokenizer.plaintext.mark_name` writes them, marked for the
#: catalogue: a chip writes a lone mark's name under it in the learner's language (:func:`mark_label`). Other
#: scripts' marks are named in English until their names are added here (tested: every Devanagari mark is).
DEVANAGARI_MARK_NAMES = (
    N_("inverted candrabindu"), N_("candrabindu"), N_("anusvara"), N_("visarga"), N_("vowel sign oe"),
    N_("vowel sign ooe"), N_("nukta"), N_("vowel sign aa"), N_("vowel sign i"), N_("vowel sign ii"),
    N_("vowel sign u"), N_("vowel sign uu"), N_("vowel sign vocalic r"), N_("vowel sign vocalic rr"),
    N_("vowel sign candra e"), N_("vowel sign short e"), N_("vowel sign e"), N_("vowel sign ai"),
    N_("vowel sign candra o"), N_("vowel sign short o"), N_("vowel sign o"), N_("vowel sign au"), N_("virama"),
    N_("vowel sign prishthamatra e"), N_("vowel sign aw"), N_("udatta"), N_("anudatta"),
    N_("devanagari grave accent"), N_("devanagari acute accent"), N_("vowel sign candra long e"),
    N_("vowel sign ue"), N_("vowel sign uue"), N_("vowel sign vocalic l"), N_("vowel sign vocalic ll"),
)


def mark_label(ch: str) -> str:
    """A combining mark's name for the screen, in the learner's language ("vowel sign e", "ए की मात्रा")."""
    return _(mark_name(ch))


def _chip_words() -> dict[str, str]:
    """The words of a chip's tooltip in the learner's language, looked up once a row (not once a chip)."""
    return {"token": _("token {position}: {what}"), "id": _(", id {id}"),
            "unseen": _("unseen character {token}, not in the vocabulary"), "part": _("part of a character: {token}")}


def _describe(chip: Chip, position: int, words: dict[str, str] | None = None) -> str:
    """A chip's tooltip and screen-reader label: "token 3: ' the', id 290" (in the learner's language)."""
    words = words or _chip_words()
    if not chip.known:
        what = words["unseen"].format(token=describe_token(chip.label))
    elif not chip.whole:
        what = words["part"].format(token=describe_token(chip.label))
    else:
        what = describe_token(chip.label)
    id_part = words["id"].format(id=chip.token_id) if chip.token_id is not None else ""  # an id is never grouped
    count_part = _n(", occurs {n} time", ", occurs {n} times", chip.count) if chip.count is not None else ""
    note = f". {chip.note}" if chip.note else ""
    return words["token"].format(position=number(position + 1), what=what) + f"{id_part}{count_part}{note}"


def chip_colour(chip: Chip, position: int, colour_by: str = "position") -> str:
    if not chip.known:
        return UNKNOWN_COLOUR
    if chip.highlight:
        return HIGHLIGHT_COLOUR
    key = chip.token_id if colour_by == "id" and chip.token_id is not None else position
    return PALETTE[key % len(PALETTE)]


def _chip_html(chip: Chip, i: int, *, show_ids: bool, colour_by: str, piece_gap: bool,
               words: dict[str, str] | None = None) -> str:
    classes = ["tl-chip"]
    if not chip.whole:
        classes.append("tl-partial")
    if not chip.known:
        classes.append("tl-unknown")
    if chip.highlight:
        classes.append("tl-hl")
    if piece_gap:
        classes.append("tl-piece")
    description = html.escape(_describe(chip, i, words), quote=True)
    extra = ""
    names = [mark_label(m) for m in lone_marks(chip.label)]
    if names:
        extra += f'<span class="tl-name" aria-hidden="true">{html.escape(", ".join(names))}</span>'
    if show_ids:
        extra += f'<span class="tl-id">{chip.token_id if chip.token_id is not None else "?"}</span>'
    if chip.count is not None:
        extra += f'<span class="tl-count">×{chip.count}</span>'
    return (
        f'<span class="{" ".join(classes)}" style="background:{chip_colour(chip, i, colour_by)}" role="listitem" '
        f'title="{description}" aria-label="{description}"><span class="tl-text">{token_html(chip.label)}</span>'
        f"{extra}</span>"
    )


def chips_html(
    chips: Sequence[Chip],
    *,
    show_ids: bool = False,
    colour_by: str = "position",
    label: str = "tokens",
    separator: str | None = None,
    mark_pieces: bool = False,
    line_breaks: bool = False,
    runs: bool = True,
    tail: str = "",
    total: int | None = None,
    summary: str | None = None,
) -> str:
    """The HTML for a row of chips (without the CSS block: see :data:`CSS`).

    A screen reader hears the row as a list named once, by :func:`list_label`: ``label`` and how many
    tokens (``total``, when the chips drawn are only the first of more); ``summary`` replaces the count.

    ``colour_by``: ``"position"`` (neighbours differ) or ``"id"`` (the same
    token always has the same colour). ``mark_pieces``: a wider gap where the
    pre-split piece changes (needs ``Chip.piece``). ``line_breaks``: start a
    new line after a token that ends in a newline, like the text does.
    ``runs``: write the characters a run of partial tokens makes under it
    (needs ``Chip.data``). ``tail``: HTML to put after the last chip, on its line.
    """
    run_at: dict[int, tuple[int, str]] = {}
    if runs and any(not c.whole for c in chips) and all(c.data is not None for c in chips):
        run_at = {start: (end, text) for start, end, text in character_runs([c.data or b"" for c in chips])}
    name = html.escape(list_label(label, len(chips), total=total, summary=summary), quote=True)
    out = [f'<div class="tl-chips" role="list" aria-label="{name}">']

    def piece_gap(j: int) -> bool:  # a new pre-split piece starts at chip j (runs never span two pieces)
        return bool(mark_pieces and separator is None and j and chips[j].piece is not None
                    and chips[j].piece != chips[j - 1].piece)

    items: list[str] = []
    words = _chip_words()
    i = 0
    while i < len(chips):
        if separator is not None and i:
            items.append(f'<span class="tl-sep" aria-hidden="true">{html.escape(separator)}</span>')
        end, text = run_at.get(i, (i + 1, None))
        if text is None:
            items.append(_chip_html(chips[i], i, show_ids=show_ids, colour_by=colour_by, piece_gap=piece_gap(i),
                                    words=words))
        else:
            group = "".join(
                _chip_html(chips[j], j, show_ids=show_ids, colour_by=colour_by, piece_gap=False, words=words)
                for j in range(i, end)
            )
            shown = html.escape(visible_token(text))
            made = html.escape(_("tokens {first} to {last} make {text}", first=number(i + 1), last=number(end),
                                 text=visible_token(text)), quote=True)
            together = html.escape(_("these tokens together make these characters"), quote=True)
            # One item of the list, itself a list of its tokens (a list holds only list items).
            items.append(
                f'<span class="tl-run{" tl-piece" if piece_gap(i) else ""}" role="listitem" '
                f'aria-label="{made}">'
                f'<span class="tl-run-chips" role="list">{group}</span>'
                f'<span class="tl-run-text" title="{together}" aria-hidden="true">'
                f'{shown}</span></span>'
            )
        if line_breaks and chips[end - 1].label.endswith("\n") and end < len(chips):
            items.append('<span class="tl-break" aria-hidden="true"></span>')
        i = end
    if tail and items:  # the tail stays on the line of the last chip
        items[-1] = f'<span class="tl-keep">{items[-1]}{tail}</span>'
    elif tail:
        items.append(tail)
    out.extend(items)
    out.append("</div>")
    return "".join(out)


def list_label(label: str, shown: int, *, total: int | None = None, summary: str | None = None) -> str:
    """What a screen reader hears for a row of chips: its name and its size, said once.

    ``"GPT-4o (o200k_base): 17 tokens"``; a label that already says "token" gets the number alone
    (``"tokens of chai: 4"``); a label naming one token is all (``"new token"``); ``total`` above ``shown``
    says how many are drawn. ``summary`` (e.g. ``"2 tokens, occurs 3 times"``) replaces the count.

    >>> list_label("GPT-4o (o200k_base)", 17), list_label("Hindi tokens", 1), list_label("new token", 1)
    ('GPT-4o (o200k_base): 17 tokens', 'Hindi tokens: 1', 'new token')
    >>> list_label("GPT-4o", 500, total=1200)
    'GPT-4o: 1,200 tokens, the first 500 shown'
    """
    if summary is not None:
        return f"{label}: {summary}" if summary else label
    count = shown if total is None else total
    if count == shown == 1 and "token" in label.lower() and "tokens" not in label.lower():
        return label  # "new token", "token 3": one token, named
    said = number(count) if "token" in label.lower() else _n("{n} token", "{n} tokens", count)
    more = _(", the first {n} shown", n=number(shown)) if count > shown else ""
    return f"{label}: {said}{more}"


def token_chips(chips: Iterable[Chip], **kwargs) -> None:
    """Draw a row of chips with Streamlit."""
    import streamlit as st

    st.html(CSS + chips_html(list(chips), **kwargs))


def merge_html(left: Chip, right: Chip, result: Chip, *, before: str = "", after: str = "") -> str:
    """``before [left] + [right] → [result] after`` as one line (``before``/``after`` are plain text, escaped)."""

    def one(chip: Chip, name: str) -> str:
        return chips_html([chip], show_ids=chip.token_id is not None, label=name, runs=False)

    parts = ['<div class="tl-merge">']
    if before:
        parts.append(f"<span>{html.escape(before)}</span>")
    becomes = html.escape(_("becomes"), quote=True)
    parts += [one(left, _("left")), "<span aria-hidden='true'>+</span>", one(right, _("right")),
              f"<span role='img' aria-label='{becomes}'>→</span>", one(result, _("new token"))]
    if after:
        parts.append(f"<span>{html.escape(after)}</span>")
    parts.append("</div>")
    return "".join(parts)


def word_rows_html(rows: Sequence[tuple[str, Sequence[Chip], int]], *, show_ids: bool = False) -> str:
    """Several words, each as: the word itself, its chips, how often it occurs (for a corpus view).

    The word is written out first, so a row of byte chips always says which word it is.
    """
    out = ['<div class="tl-words">']
    for word, chips, count in rows:
        out.append('<div class="tl-word">')
        out.append(f'<span class="tl-word-label">{html.escape(word.strip() or word)}</span>')
        count_html = f'<span class="tl-word-count" aria-hidden="true">×{count}</span>'  # said in the list's label
        out.append(chips_html(chips, show_ids=show_ids, label=f"tokens of {word.strip() or word}", tail=count_html,
                              summary=f"{len(chips):,}, the word occurs {plural(count, 'time')}"))
        out.append("</div>")
    out.append("</div>")
    return "".join(out)


def labelled_rows_html(rows: Sequence[tuple[str, Sequence[Chip], str]], *, show_ids: bool = False,
                       mark_pieces: bool = False) -> str:
    """Several short texts, each as: a label, its chips, a note after the last chip (e.g. "2 tokens").

    For side-by-side experiments ("cricket" at the start of a text, after a space…). Label and note are
    plain text, escaped; a label is written out in full (it wraps rather than being cut).
    """
    out = ['<div class="tl-words tl-labelled">']
    for label, chips, note in rows:
        out.append('<div class="tl-word">')
        out.append(f'<span class="tl-word-label tl-row-label">{html.escape(label)}</span>')
        tail = f'<span class="tl-word-count" aria-hidden="true">{html.escape(note)}</span>' if note else ""
        out.append(chips_html(chips, show_ids=show_ids, label=label, tail=tail, mark_pieces=mark_pieces,
                              summary=note or None))  # the note is said once, in the list's label
        out.append("</div>")
    out.append("</div>")
    return "".join(out)
