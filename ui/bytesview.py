"""Drawing helpers for the Bytes per character page.

Three pictures of the same text, all built from :mod:`tokenizer.textstats`
and a tokenizer's own output (nothing here counts bytes its own way):

- :func:`char_rows`: one row per code point for a table (the character made
  safe to show, its code point, name, script, UTF-8 bytes in hex).
- :func:`grapheme_ladder_html`: what a reader sees (grapheme clusters) over
  the code points they are made of, over their bytes.
- :func:`token_ladder_html`: a byte-level tokenizer's tokens over the code
  points and bytes they cover, so a token that stops inside a character
  shows as a chip whose edge falls in the middle of that character.

A ladder is drawn as CSS-grid "lines", one grid column per byte, so every
row lines up on the bytes. Token chips come from :func:`ui.chips.chips_html`
(the one place chips are drawn); the grapheme boxes, code point cells and
byte cells are plain spans built here, with all text escaped.
"""

from __future__ import annotations

import html
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from typing import Sequence

import altair as alt
import pandas as pd
import streamlit as st

import lessons
from tokenizer import Token
from tokenizer.textstats import CharInfo, TextCounts, char_info, char_table, graphemes, text_counts
from ui.chips import CSS as CHIPS_CSS
from ui.chips import PALETTE, chip_from_token, chips_html, visible_plain, visible_text

TABLE_MAX_ROWS = 500
"""The character table lists at most this many code points."""
LADDER_MAX_BYTES = 200
"""The ladders show at most this many bytes of the text."""
MAX_TEXT_CHARS = 100_000
"""Longer text is cut to this many code points before anything is counted (keeps reruns fast)."""

NBSP = "\u00a0"
_INVISIBLE_CATEGORIES = {"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"}


# -- sample texts --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Sample:
    id: str
    label: str
    text: str
    group: str  # "example" (lesson 3) or "script"
    note: str = ""


@lru_cache(maxsize=1)
def samples() -> dict[str, Sample]:
    """The lesson 3 examples, then one sample per script, by id (lessons/data/sample_texts.json)."""
    raw = lessons.data("sample_texts")
    out: dict[str, Sample] = {}
    for entry in raw["examples"]:
        out[entry["id"]] = Sample(entry["id"], entry["label"], entry["text"], "example", entry.get("note", ""))
    for entry in raw["samples"]:
        out[entry["id"]] = Sample(entry["id"], entry["label"], entry["text"], "script", entry.get("note", ""))
    return out


def sample_caption(sample_id: str) -> str:
    sample = samples()[sample_id]
    return ("Lesson 3 · " if sample.group == "example" else "Script · ") + sample.label


# -- showing one character safely ----------------------------------------------------------------


def is_invisible(ch: str) -> bool:
    """Characters that draw nothing on their own (controls, joiners, format marks, selectors)."""
    if unicodedata.category(ch) in _INVISIBLE_CATEGORIES:
        return True
    return 0xFE00 <= ord(ch) <= 0xFE0F or 0xE0100 <= ord(ch) <= 0xE01EF


def display_char(ch: str) -> str:
    """One code point as plain text that can be shown alone.

    Whitespace as the chips show it (``·`` ``↵`` ``⇥``), invisible characters
    as their code (``U+200D``), a combining mark on a no-break space so it is
    not drawn on a dotted circle.
    """
    shown = visible_plain(ch)
    if shown != ch:
        return shown
    if is_invisible(ch) or (unicodedata.category(ch).startswith("Z") and ch != " "):
        return f"U+{ord(ch):04X}"
    if unicodedata.category(ch).startswith("M"):
        return NBSP + ch
    return ch


def display_grapheme(cluster: str) -> str:
    """A grapheme cluster as plain text: as it is, unless it would be invisible or start with a mark."""
    if len(cluster) == 1:
        return display_char(cluster)
    if all(is_invisible(ch) or ch in "\r\n" for ch in cluster):
        return " ".join(display_char(ch) for ch in cluster)
    shown = "".join(display_char(ch) if unicodedata.category(ch) == "Cc" else ch for ch in cluster)
    return NBSP + shown if unicodedata.category(shown[0]).startswith("M") else shown


_LINE_SYMBOLS = {"\n": "↵", "\t": "⇥", "\r": "␍"}
_BIDI_CONTROLS = set("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def display_text(text: str) -> str:
    """A short text as plain text for a table cell: spaces and joiners kept (so emoji and words read
    normally), line breaks and tabs as ``↵`` ``⇥``, control and direction characters by their code."""
    out = []
    for ch in text:
        if ch in _LINE_SYMBOLS:
            out.append(_LINE_SYMBOLS[ch])
        elif ch in _BIDI_CONTROLS or unicodedata.category(ch) == "Cc":
            out.append(f"U+{ord(ch):04X}")
        else:
            out.append(ch)
    return "".join(out)


# -- the character table -------------------------------------------------------------------------

TABLE_COLUMNS = ("#", "character", "in grapheme", "code point", "UTF-8 (hex)", "bytes", "script", "name")
"""The character table's columns: the byte columns before the long name, so they stay in view on a narrow screen."""


def char_rows(text: str, limit: int = TABLE_MAX_ROWS) -> pd.DataFrame:
    """One row per code point (the first ``limit``), with the grapheme cluster it belongs to."""
    infos = char_table(text, limit)
    owner: list[str] = []
    for cluster in graphemes(text[: limit + 64]):  # a little extra so the last cluster is whole
        owner.extend([cluster] * len(cluster))
        if len(owner) >= len(infos):
            break
    rows = {
        "#": list(range(1, len(infos) + 1)),
        "character": [display_char(i.char) for i in infos],
        "in grapheme": [display_grapheme(g) for g in owner[: len(infos)]],
        "code point": [i.code_point for i in infos],
        "name": [i.name for i in infos],
        "script": [i.script for i in infos],
        "UTF-8 (hex)": [i.utf8 for i in infos],
        "bytes": [i.n_bytes for i in infos],
    }
    return pd.DataFrame(rows, columns=list(TABLE_COLUMNS))


@dataclass(frozen=True)
class TextNotes:
    """Things worth a word of explanation in a text."""

    controls: tuple[str, ...]  # code points of control characters other than newline and tab
    right_to_left: int  # code points of right-to-left scripts
    marks: int  # combining marks (vowel signs, accents)
    joiners: int  # zero-width joiners and non-joiners


def text_notes(text: str) -> TextNotes:
    controls: list[str] = []
    rtl = marks = joiners = 0
    for ch in text:
        category = unicodedata.category(ch)
        if category == "Cc" and ch not in "\n\t\r":
            code = f"U+{ord(ch):04X}"
            if code not in controls:
                controls.append(code)
        elif category.startswith("M"):
            marks += 1
        elif ch in "\u200c\u200d":
            joiners += 1
        if unicodedata.bidirectional(ch) in ("R", "AL"):
            rtl += 1
    return TextNotes(tuple(controls), rtl, marks, joiners)


def prefix_within_bytes(text: str, max_bytes: int = LADDER_MAX_BYTES) -> str:
    """The longest start of ``text`` that is at most ``max_bytes`` UTF-8 bytes, cut between code points."""
    data = text.encode("utf-8", errors="surrogatepass")
    if len(data) <= max_bytes:
        return text
    return data[:max_bytes].decode("utf-8", errors="ignore")


# -- ladders -------------------------------------------------------------------------------------

LADDER_CSS = """
<style>
.tl-ladder{direction:ltr;margin:.3em 0 .8em}
.tl-line{display:grid;justify-content:start;column-gap:2px;row-gap:3px;margin:0 0 .9em;overflow-x:auto;
 padding-bottom:2px;align-items:stretch}
.tl-line>.tl-chips{display:contents}
.tl-line .tl-chip{grid-row:1;justify-content:flex-start;min-width:0}
.tl-rowlabel{font-size:.72em;opacity:.8;padding-right:.5em;align-self:center;white-space:nowrap}
.tl-g{grid-row:1;border:2px solid #222;border-radius:.35em;background:#fff;color:#000;text-align:center;
 padding:.12em .3em;font-size:1.25em;white-space:pre;unicode-bidi:isolate;
 font-family:"Noto Sans","Noto Sans Devanagari","Noto Sans Tamil","Noto Sans Bengali","Noto Sans Arabic",
 "Noto Naskh Arabic","Noto Color Emoji","Segoe UI",sans-serif}
.tl-cp{grid-row:2;border:1px solid #444;background:#fff;color:#000;text-align:center;padding:.1em .15em;
 font-size:1.05em;white-space:pre;unicode-bidi:isolate;overflow:hidden;text-overflow:clip;
 font-family:"Noto Sans","Noto Sans Devanagari","Noto Sans Tamil","Noto Sans Bengali","Noto Sans Arabic",
 "Noto Naskh Arabic","Noto Color Emoji","Segoe UI",sans-serif}
.tl-cp .tl-code{font-family:ui-monospace,"DejaVu Sans Mono",monospace;font-size:.7em;color:#333}
.tl-cp.tl-cut{border-style:dashed;background:#FFF3D6}
.tl-cp.tl-split{border:2px dashed #000;background:#FFF3D6}
.tl-b{grid-row:3;border:1px solid #888;background:#EEEEEE;color:#000;text-align:center;
 font-family:ui-monospace,"DejaVu Sans Mono",monospace;font-size:.85em;padding:.15em .1em}
.tl-b.tl-cont{background:#F8F8F8;color:#333}
</style>
"""


@dataclass(frozen=True)
class _Span:
    start: int  # byte offset in the ladder text
    end: int


# Width estimates in em of the ladder's font size, used to break a ladder into lines that fit
# the page (the browser cannot wrap a grid). Rough on purpose: a line that still comes out too
# wide scrolls sideways instead of being cut off.
BYTE_EM = 2.05  # one byte column (min 1.9em) plus the gap
LINE_EM = 45.0  # what fits beside the row labels in the main column at 1280 px
LINE_EM_LARGE = 27.0  # the same with large type on


def _text_em(text: str, size: float) -> float:
    """About how wide ``text`` is drawn at ``size`` em (marks and joiners take no room)."""
    width = 0.0
    for ch in text:
        category = unicodedata.category(ch)
        if category.startswith("M") or ch in "\u200c\u200d\ufe0f":
            continue
        width += 0.6 if ch in "⟨⟩0123456789ABCDEF " else (1.25 if ord(ch) > 0x2000 else 0.62)
    return width * size


def _cp_em(info: CharInfo) -> float:
    shown = display_char(info.char)
    return (len(shown) * 0.46 + 0.5) if shown.startswith("U+") else _text_em(shown, 1.05) + 0.5


def _lines(widths: Sequence[float], budget: float) -> list[list[int]]:
    """Group units (by their estimated widths) into lines of at most ``budget`` em (a wider unit gets its own)."""
    lines: list[list[int]] = []
    used = budget + 1
    for index, width in enumerate(widths):
        if lines and used + width <= budget:
            lines[-1].append(index)
            used += width
        else:
            lines.append([index])
            used = width
    return lines


def _unit_widths(spans: Sequence[_Span], tops: Sequence[float], cps: Sequence[tuple[CharInfo, _Span]]) -> list[float]:
    """Each unit's width: its bytes, its top box, or the code points starting in it, whichever is widest."""
    starts: dict[int, float] = {}
    for info, span in cps:
        starts[span.start] = _cp_em(info)
    out = []
    for span, top in zip(spans, tops):
        cps_em = sum(starts.get(offset, 0.0) for offset in range(span.start, span.end))
        out.append(max((span.end - span.start) * BYTE_EM, top, cps_em))
    return out


def _code_point_spans(text: str) -> list[tuple[CharInfo, _Span]]:
    out, pos = [], 0
    for ch in text:
        info = char_info(ch)
        out.append((info, _Span(pos, pos + info.n_bytes)))
        pos += info.n_bytes
    return out


def _row_label(row: int, text: str) -> str:
    return (
        f'<span class="tl-rowlabel" style="grid-column:1;grid-row:{row}" aria-hidden="true">{html.escape(text)}</span>'
    )


def _lower_rows(
    cps: Sequence[tuple[CharInfo, _Span]], data: bytes, start: int, end: int, cut_at: frozenset[int]
) -> list[str]:
    """The code point row and the byte row of one line covering bytes [start, end)."""
    out = [_row_label(2, "code point"), _row_label(3, "byte")]
    for info, span in cps:
        if span.end <= start or span.start >= end:
            continue
        a, b = max(span.start, start), min(span.end, end)
        classes = ["tl-cp"]
        notes = [f"{info.code_point} {info.name}", f"{info.n_bytes} byte{'s' if info.n_bytes > 1 else ''}"]
        if (a, b) != (span.start, span.end):
            classes.append("tl-cut")
            notes.append("continues on the next line" if b < span.end else "continued from the line above")
        if any(span.start < cut < span.end for cut in cut_at):
            classes.append("tl-split")
            notes.append("a token boundary falls inside this character")
        shown = display_char(info.char)
        body = html.escape(shown)
        if shown.startswith("U+"):
            body = f'<span class="tl-code">{body}</span>'
        title = html.escape(", ".join(notes), quote=True)
        out.append(
            f'<span class="{" ".join(classes)}" style="grid-column:{a - start + 2} / span {b - a}" '
            f'title="{title}" aria-label="{title}">{body}</span>'
        )
    for offset in range(start, end):
        byte = data[offset]
        continuation = 0x80 <= byte < 0xC0
        role = "continuation byte" if continuation else ("ASCII byte" if byte < 0x80 else "first byte of a character")
        cls = "tl-b tl-cont" if continuation else "tl-b"
        out.append(
            f'<span class="{cls}" style="grid-column:{offset - start + 2}" '
            f'title="byte {offset + 1}: {byte:02X}, {role}">'
            f"{byte:02X}</span>"
        )
    return out


def _line_open(width: int, label: str, extra_class: str = "") -> str:
    columns = f"max-content repeat({width}, minmax(1.9em, auto))"
    classes = f"tl-line {extra_class}".strip()
    return (
        f'<div class="{classes}" role="group" aria-label="{html.escape(label, quote=True)}" '
        f'style="grid-template-columns:{columns}">'
    )


def grapheme_ladder_html(text: str, *, line_em: float = LINE_EM) -> str:
    """Grapheme clusters over their code points over their bytes (all of ``text``: cap it first)."""
    data = text.encode("utf-8", errors="surrogatepass")
    cps = _code_point_spans(text)
    clusters: list[tuple[str, _Span]] = []
    pos = 0
    for cluster in graphemes(text):
        size = len(cluster.encode("utf-8", errors="surrogatepass"))
        clusters.append((cluster, _Span(pos, pos + size)))
        pos += size
    tops = [_text_em(display_grapheme(c), 1.25) + 1.0 for c, _ in clusters]
    widths = _unit_widths([span for _, span in clusters], tops, cps)
    out = [LADDER_CSS, '<div class="tl-ladder">']
    for line in _lines(widths, line_em):
        start, end = clusters[line[0]][1].start, clusters[line[-1]][1].end
        out.append(_line_open(end - start, f"graphemes {line[0] + 1} to {line[-1] + 1}"))
        out.append(_row_label(1, "grapheme"))
        for index in line:
            cluster, span = clusters[index]
            size = span.end - span.start
            title = html.escape(
                f"grapheme {index + 1}: {len(cluster)} code point{'s' if len(cluster) > 1 else ''}, "
                f"{size} byte{'s' if size > 1 else ''}",
                quote=True,
            )
            out.append(
                f'<span class="tl-g" style="grid-column:{span.start - start + 2} / span {size}" title="{title}" '
                f'aria-label="{title}">{visible_text(cluster)}</span>'
            )
        out.extend(_lower_rows(cps, data, start, end, frozenset()))
        out.append("</div>")
    out.append("</div>")
    return "".join(out)


@dataclass(frozen=True)
class LadderCounts:
    tokens: int
    partial: int  # tokens that are not whole characters on their own
    split_chars: int  # code points that a token boundary cuts through
    bytes: int


def _token_cuts(tokens: Sequence[Token]) -> frozenset[int]:
    cuts, pos = set(), 0
    for token in tokens:
        pos += len(token.bytes)
        cuts.add(pos)
    return frozenset(cuts)


def _decoded_spans(data: bytes) -> list[tuple[CharInfo, _Span]]:
    try:
        return _code_point_spans(data.decode("utf-8"))
    except UnicodeDecodeError:  # not one text (cannot happen for a byte-level encoding of a str)
        return []


def ladder_counts(tokens: Sequence[Token]) -> LadderCounts:
    data = b"".join(t.bytes for t in tokens)
    cuts = _token_cuts(tokens)
    split = sum(1 for _, span in _decoded_spans(data) if any(span.start < cut < span.end for cut in cuts))
    return LadderCounts(len(tokens), sum(1 for t in tokens if not t.whole), split, len(data))


def token_ladder_html(tokens: Sequence[Token], *, line_em: float = LINE_EM, name: str = "tl-tok") -> str:
    """A byte-level tokenizer's tokens, each over the code points and bytes it covers.

    ``tokens`` come from ``Tokenizer.encode_tokens`` of a byte-unit tokenizer
    (tokens with no bytes, such as an end-of-word marker, are left out).
    ``name`` is a CSS class that keeps this ladder's layout rules apart from
    another ladder's on the same page.
    """
    tokens = [t for t in tokens if t.bytes]
    data = b"".join(t.bytes for t in tokens)
    cps = _decoded_spans(data)
    cuts = _token_cuts(tokens)
    spans, pos = [], 0
    for token in tokens:
        spans.append(_Span(pos, pos + len(token.bytes)))
        pos += len(token.bytes)
    tops = [_text_em(t.label, 1.15) + 1.2 for t in tokens]
    rules: list[str] = []
    body: list[str] = []
    for n, line in enumerate(_lines(_unit_widths(spans, tops, cps), line_em)):
        start, end = spans[line[0]].start, spans[line[-1]].end
        line_class = f"tl-ln{n}"
        for k, index in enumerate(line, start=1):
            span = spans[index]
            rules.append(
                f".{name} .{line_class}>.tl-chips>.tl-chip:nth-child({k})"
                f"{{grid-column:{span.start - start + 2} / span {span.end - span.start}}}"
            )
        label = f"tokens {line[0] + 1} to {line[-1] + 1}"
        body.append(_line_open(end - start, label, line_class))
        body.append(_row_label(1, "token"))
        body.append(chips_html([chip_from_token(tokens[i]) for i in line], show_ids=True, colour_by="id", label=label))
        body.extend(_lower_rows(cps, data, start, end, cuts))
        body.append("</div>")
    style = "<style>" + "\n".join(rules) + "</style>"
    return CHIPS_CSS + LADDER_CSS + style + f'<div class="tl-ladder {name}">' + "".join(body) + "</div>"


# -- comparing scripts ---------------------------------------------------------------------------

MEASURES = ("bytes per code point", "bytes per grapheme")
MEASURE_COLOURS = (PALETTE[0], PALETTE[6])  # Tol light: #77AADD, #EE8866 (black text on both)
YOUR_TEXT = "Your text"


def _row(label: str, text: str, counts: TextCounts) -> dict:
    per_grapheme = counts.bytes / counts.graphemes if counts.graphemes else 0.0
    return {
        "sample": label,
        "text": text,
        "code points": counts.code_points,
        "graphemes": counts.graphemes,
        "bytes": counts.bytes,
        "bytes per code point": round(counts.bytes_per_char, 2),
        "bytes per grapheme": round(per_grapheme, 2),
    }


# Ratios always with two decimals, so 1.00 and 2.69 line up.
RATIO_COLUMNS = {
    "bytes per code point": st.column_config.NumberColumn("bytes per code point", format="%.2f"),
    "bytes per grapheme": st.column_config.NumberColumn("bytes per grapheme", format="%.2f"),
}


@lru_cache(maxsize=2)
def _rows_for(group: str) -> tuple[dict, ...]:
    return tuple(_row(s.label, s.text, text_counts(s.text)) for s in samples().values() if s.group == group)


def comparison_table(
    group: str = "script", your_text: str | None = None, your_counts: TextCounts | None = None
) -> pd.DataFrame:
    """One row per sample of ``group`` (counted by textstats), plus the reader's own text first if given."""
    rows = [dict(r) for r in _rows_for(group)]
    if your_text is not None and your_counts is not None and your_counts.code_points:
        shown = your_text if len(your_text) <= 60 else your_text[:60] + "…"
        rows.insert(0, _row(YOUR_TEXT, shown, your_counts))
    for row in rows:
        row["text"] = display_text(row["text"])
    return pd.DataFrame(rows)


def comparison_chart(table: pd.DataFrame, *, large: bool = False) -> alt.LayerChart:
    """Grouped horizontal bars: bytes per code point and per grapheme for each row of ``table``."""
    long = table.melt(
        id_vars=["sample", "code points", "graphemes", "bytes"],
        value_vars=list(MEASURES),
        var_name="measure",
        value_name="value",
    )
    order = list(table["sample"])
    size = 18 if large else 13
    top = max(float(long["value"].max()) * 1.15, 1.5)  # room for the value label after the longest bar
    base = alt.Chart(long).encode(
        y=alt.Y("sample:N", sort=order, title=None, axis=alt.Axis(labelLimit=320)),
        yOffset=alt.YOffset("measure:N", sort=list(MEASURES)),
        x=alt.X(
            "value:Q",
            title="UTF-8 bytes per character",
            scale=alt.Scale(domain=[0, top]),
            axis=alt.Axis(tickMinStep=0.5),
        ),
        tooltip=[
            alt.Tooltip("sample:N"),
            alt.Tooltip("measure:N"),
            alt.Tooltip("value:Q", format=".2f"),
            alt.Tooltip("code points:Q"),
            alt.Tooltip("graphemes:Q"),
            alt.Tooltip("bytes:Q"),
        ],
    )
    bars = base.mark_bar(stroke="#000", strokeWidth=0.6).encode(
        color=alt.Color(
            "measure:N",
            scale=alt.Scale(domain=list(MEASURES), range=list(MEASURE_COLOURS)),
            legend=alt.Legend(orient="top", title=None),
        )
    )
    labels = base.mark_text(align="left", dx=4, color="#000", fontSize=size - 1).encode(
        text=alt.Text("value:Q", format=".2f")
    )
    step = 30 if large else 22
    return (
        alt.layer(bars, labels)
        .properties(height=alt.Step(step), background="#FFFFFF")
        .configure_axis(
            labelColor="#000", titleColor="#000", labelFontSize=size, titleFontSize=size, gridColor="#DDDDDD"
        )
        .configure_legend(labelColor="#000", labelFontSize=size, symbolStrokeColor="#000")
        .configure_view(stroke=None)
    )


def comparison_spec(table: pd.DataFrame, *, large: bool = False) -> dict:
    """:func:`comparison_chart` as a Vega-Lite spec for ``st.vega_lite_chart``.

    Skips Altair's schema validation, which costs about 40 ms on every rerun;
    the tests validate the same chart once.
    """
    return comparison_chart(table, large=large).to_dict(validate=False)


__all__ = [
    "LADDER_MAX_BYTES",
    "MAX_TEXT_CHARS",
    "TABLE_MAX_ROWS",
    "Sample",
    "char_rows",
    "comparison_chart",
    "comparison_spec",
    "comparison_table",
    "display_char",
    "display_grapheme",
    "grapheme_ladder_html",
    "ladder_counts",
    "prefix_within_bytes",
    "samples",
    "text_notes",
    "token_ladder_html",
]
