"""What the Bytes per character page draws: its sections (at the end of this module, composed by the page) and
their drawing helpers.

Three pictures of the same text, all built from :mod:`analyses.textstats`
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
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

import altair as alt
import pandas as pd
import streamlit as st

import i18n
import lessons
from analyses.textstats import (
    CharInfo,
    TextCounts,
    char_info,
    char_table,
    graphemes,
    text_counts,
)
from i18n import N_, _, _n, decimal, number
from tokenizer import Token
from ui import charts, choices, state, tables
from ui.chips import CSS as CHIPS_CSS
from ui.chips import PALETTE, chip_from_token, chips_html
from ui.display import code_point, md_escape, readable_text, token_html, visible_token
from ui.layout import Slides, classroom_on, controls, figure, large_type_on
from ui.links import lesson_link
from ui.state import Key, Param

TABLE_MAX_ROWS = 500
"""The character table lists at most this many code points."""
LADDER_MAX_BYTES = 200
"""The ladders show at most this many bytes of the text."""
MAX_TEXT_CHARS = 100_000
"""Longer text is cut to this many code points before anything is counted (keeps reruns fast)."""



# -- sample texts --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Sample(i18n.LocalizedFields):
    """A sample text; :meth:`shown` is its ``label`` or ``note`` in the learner's language."""

    id: str
    label: str
    text: str
    group: str  # "example" (lesson 3) or "script"
    note: str = ""
    hi: tuple[tuple[str, str], ...] = ()  # the label and the note in Hindi (lessons/data/sample_texts.json)


@lru_cache(maxsize=1)
def samples() -> dict[str, Sample]:
    """The lesson 3 examples, then one sample per script, by id (lessons/data/sample_texts.json)."""
    raw = lessons.data("sample_texts")
    out: dict[str, Sample] = {}
    for entry in raw["examples"]:
        out[entry["id"]] = Sample(entry["id"], entry["label"], entry["text"], "example", entry.get("note", ""),
                                  tuple(entry.get("hi", {}).items()))
    for entry in raw["samples"]:
        out[entry["id"]] = Sample(entry["id"], entry["label"], entry["text"], "script", entry.get("note", ""),
                                  tuple(entry.get("hi", {}).items()))
    return out


def sample_caption(sample_id: str) -> str:
    sample = samples()[sample_id]
    kind = _("Example") if sample.group == "example" else _("Script")
    return f"{kind} · {sample.shown('label')}"


# -- The page's session keys, declared once (the page and the tests import them) ----------------------------
PAGE = "bytes"
LADDER_TOKENIZERS = ("english-hindi", "english-hindi-fair", "cl100k_base", "o200k_base", "r50k_base")
LADDER_CHOICES = tuple(k for k in LADDER_TOKENIZERS if any(e.key == k for e in choices.entries(("real", "lab"))))
SAMPLE = Param(PAGE, "sample", "indore-hi", choices=tuple(samples()))
LADDER = Param(PAGE, choices.one_key(PAGE).name, LADDER_TOKENIZERS[0], choices=LADDER_CHOICES)
TEXT = Key(PAGE, "text")  # its Param (default: the chosen sample's text) comes from text_param()
SAMPLE_BOX = Key(PAGE, "sample_box")
"""The "Load a sample" box: it names the sample whose text is in the text box, and none when the learner's own text
is there (the ``sample`` setting keeps deciding the text's default in the link)."""
CHART = Key(PAGE, "chart")


def text_param(sample_id: str) -> Param:
    """The text's URL setting: its default is the chosen sample's text, so a link like ?sample=tamil stays short."""
    return Param(TEXT.page, TEXT.name, samples()[sample_id].text, max_len=400)


def url_params() -> list[Param]:
    """The page's settings in the URL: the sample and the tokenizer are restored first, since the sample decides
    the text's default."""
    state.restore([SAMPLE, LADDER])
    return [SAMPLE, text_param(state.value(SAMPLE)), LADDER, PART]


def load_sample() -> None:
    """on_change of the sample box: its text replaces the learner's."""
    picked = st.session_state.get(SAMPLE_BOX.skey)
    if picked in samples():
        state.set_value(SAMPLE, picked)
        st.session_state[TEXT.skey] = samples()[picked].text


def shown_sample(text: str) -> str | None:
    """The sample whose text is ``text`` (the ``sample`` setting's first), or None for the learner's own text."""
    chosen = state.value(SAMPLE)
    if chosen in samples() and samples()[chosen].text == text:
        return chosen
    return next((s.id for s in samples().values() if s.text == text), None)


# -- showing one character safely: the lab's one set of display rules (ui.display) ----------------
display_char = visible_token  # one code point, shown so it can be seen alone
display_grapheme = visible_token  # one grapheme cluster


# -- the character table -------------------------------------------------------------------------

TABLE_COLUMNS = ("#", "character", "UTF-8 (hex)", "bytes", "code point", "in grapheme", "script", "name")
"""The character table's columns: the bytes right after the character, so they are on a phone's first screen."""


@st.cache_data(max_entries=128, show_spinner=False)
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


def text_notes(text: str) -> TextNotes:
    controls: list[str] = []
    rtl = 0
    for ch in text:
        if unicodedata.category(ch) == "Cc" and ch not in "\n\t\r":
            code = code_point(ch)
            if code not in controls:
                controls.append(code)
        if unicodedata.bidirectional(ch) in ("R", "AL"):
            rtl += 1
    return TextNotes(tuple(controls), rtl)


def prefix_within_bytes(text: str, max_bytes: int = LADDER_MAX_BYTES) -> str:
    """The longest start of ``text`` that is at most ``max_bytes`` UTF-8 bytes, cut between code points."""
    data = text.encode("utf-8", errors="surrogatepass")
    if len(data) <= max_bytes:
        return text
    return data[:max_bytes].decode("utf-8", errors="ignore")


# -- ladders -------------------------------------------------------------------------------------
#
# A ladder is a row of *units* that wrap like words: each unit is a small grid, one column per
# byte, with what sits on top (a grapheme cluster, or tokens) over the code points over the bytes.
# A unit always starts and ends on a boundary that every row shares, so nothing in it is cut and the
# browser wraps whole units to the width it has (a phone, a projector), with no width guessing.

LADDER_CSS = """
<style>
.tl-ladder{direction:ltr;margin:.3em 0 .8em;display:flex;flex-wrap:wrap;gap:.9em .5em;align-items:stretch}
.tl-unit{display:inline-grid;column-gap:2px;row-gap:3px;align-items:stretch;grid-auto-columns:minmax(1.9em,auto)}
.tl-unit .tl-chips{margin:0}
.tl-unit .tl-top>.tl-chips{height:100%}
.tl-unit .tl-top .tl-chip{width:100%;height:100%;justify-content:flex-start;white-space:pre}
.tl-unit.tl-labels{grid-auto-columns:auto}
.tl-rowlabel{font-size:.72em;opacity:.8;padding-right:.3em;align-self:center;white-space:nowrap}
.tl-g{border:2px solid #222;border-radius:.35em;background:#fff;color:#000;text-align:center;
 padding:.12em .3em;font-size:1.25em;white-space:pre;unicode-bidi:isolate;
 font-family:"Noto Sans","Noto Sans Devanagari","Noto Sans Tamil","Noto Sans Bengali","Noto Sans Arabic",
 "Noto Naskh Arabic","Noto Color Emoji","Segoe UI",sans-serif}
.tl-cp{border:1px solid #444;background:#fff;color:#000;text-align:center;padding:.1em .15em;
 font-size:1.05em;white-space:pre;unicode-bidi:isolate;
 font-family:"Noto Sans","Noto Sans Devanagari","Noto Sans Tamil","Noto Sans Bengali","Noto Sans Arabic",
 "Noto Naskh Arabic","Noto Color Emoji","Segoe UI",sans-serif}
.tl-cp .tl-code{font-family:ui-monospace,"DejaVu Sans Mono",monospace;font-size:.7em;color:#333}
.tl-cp.tl-split{border:2px dashed #000;background:#FFF3D6}
.tl-b{border:1px solid #888;background:#EEEEEE;color:#000;text-align:center;
 font-family:ui-monospace,"DejaVu Sans Mono",monospace;font-size:.85em;padding:.15em .1em}
.tl-b.tl-cont{background:#F8F8F8;color:#333}
</style>
"""


@dataclass(frozen=True)
class _Span:
    start: int  # byte offset in the ladder text
    end: int


def _code_point_spans(text: str) -> list[tuple[CharInfo, _Span]]:
    out, pos = [], 0
    for ch in text:
        info = char_info(ch)
        out.append((info, _Span(pos, pos + info.n_bytes)))
        pos += info.n_bytes
    return out


def _place(row: int, col: int, span: int = 1) -> str:
    return f"grid-row:{row};grid-column:{col} / span {span}"


def _labels_unit(top: str) -> str:
    """The first unit: what each row is."""
    rows = [(1, top), (2, _("code point")), (3, _("byte"))]
    return '<div class="tl-unit tl-labels" aria-hidden="true">' + "".join(
        f'<span class="tl-rowlabel" style="{_place(r, 1)}">{html.escape(t)}</span>' for r, t in rows
    ) + "</div>"


def _lower_rows(cps: Sequence[tuple[CharInfo, _Span]], data: bytes, start: int, end: int,
                cut_at: frozenset[int]) -> list[str]:
    """The code point row and the byte row of one unit covering bytes [start, end)."""
    out = []
    for info, span in cps:
        if span.end <= start or span.start >= end:
            continue
        classes = ["tl-cp"]
        notes = [f"{info.code_point} {info.name}", _n("{n} byte", "{n} bytes", info.n_bytes)]
        if any(span.start < cut < span.end for cut in cut_at):
            classes.append("tl-split")
            notes.append(_("a token boundary falls inside this character"))
        shown = display_char(info.char)
        body = html.escape(shown)
        if shown.startswith("U+"):
            body = f'<span class="tl-code">{body}</span>'
        title = html.escape(", ".join(notes), quote=True)
        out.append(
            f'<span class="{" ".join(classes)}" style="{_place(2, span.start - start + 1, span.end - span.start)}" '
            f'title="{title}" aria-label="{title}">{body}</span>'
        )
    roles = {"cont": _("continuation byte"), "ascii": _("ASCII byte"), "first": _("first byte of a character")}
    for offset in range(start, end):
        byte = data[offset]
        continuation = 0x80 <= byte < 0xC0
        role = roles["cont" if continuation else ("ascii" if byte < 0x80 else "first")]
        cls = "tl-b tl-cont" if continuation else "tl-b"
        title = html.escape(_("byte {n}: {hex}, {role}", n=number(offset + 1), hex=format(byte, "02X"), role=role), quote=True)
        out.append(f'<span class="{cls}" style="{_place(3, offset - start + 1)}" title="{title}">{byte:02X}</span>')
    return out


@st.cache_data(max_entries=128, show_spinner=False)
def grapheme_ladder_html(text: str, lang: str = i18n.DEFAULT) -> str:
    """Grapheme clusters over their code points over their bytes (all of ``text``: cap it first), its words in
    ``lang`` (the cache keeps one per language)."""
    with i18n.using(lang):
        return _grapheme_ladder_html(text)


def _grapheme_ladder_html(text: str) -> str:
    data = text.encode("utf-8", errors="surrogatepass")
    cps = _code_point_spans(text)
    what = html.escape(_("graphemes over code points over bytes"), quote=True)
    out = [LADDER_CSS, f'<div class="tl-ladder tl-gra" role="list" aria-label="{what}">', _labels_unit(_("grapheme"))]
    pos = 0
    for index, cluster in enumerate(graphemes(text)):
        size = len(cluster.encode("utf-8", errors="surrogatepass"))
        title = html.escape(
            _("grapheme {index}: {code_points}, {bytes}", index=number(index + 1),
              code_points=_n("{n} code point", "{n} code points", len(cluster)),
              bytes=_n("{n} byte", "{n} bytes", size)),
            quote=True,
        )
        out.append(f'<div class="tl-unit" role="listitem" aria-label="{title}">')
        out.append(f'<span class="tl-g" style="{_place(1, 1, size)}" title="{title}">{token_html(cluster)}</span>')
        out.extend(_lower_rows(cps, data, pos, pos + size, frozenset()))
        out.append("</div>")
        pos += size
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
    split = sum(1 for _info, span in _decoded_spans(data) if any(span.start < cut < span.end for cut in cuts))
    return LadderCounts(len(tokens), sum(1 for t in tokens if not t.whole), split, len(data))


def _token_units(tokens: Sequence[Token]) -> list[tuple[int, int]]:
    """Group tokens into the smallest runs that start and end between code points (token index ranges)."""
    units, start, pos = [], 0, 0
    data = b"".join(t.bytes for t in tokens)
    boundaries = {span.end for _info, span in _decoded_spans(data)} | {0}
    for i, token in enumerate(tokens):
        pos += len(token.bytes)
        if pos in boundaries:
            units.append((start, i + 1))
            start = i + 1
    if start < len(tokens):
        units.append((start, len(tokens)))
    return units


def token_ladder_html(tokens: Sequence[Token], show_ids: bool = True) -> str:
    """A byte-level tokenizer's tokens, each over the code points and bytes it covers.

    ``tokens`` come from ``encode_tokens`` of a byte-level tokenizer (tokens
    with no bytes, such as an end-of-word marker, are left out). A code point
    cut by a token boundary has a dashed, shaded box. ``show_ids``: each token's id under it.
    """
    tokens = [t for t in tokens if t.bytes]
    data = b"".join(t.bytes for t in tokens)
    cps = _decoded_spans(data)
    cuts = _token_cuts(tokens)
    what = html.escape(_("tokens over code points over bytes"), quote=True)
    out = [CHIPS_CSS, LADDER_CSS, f'<div class="tl-ladder tl-tok" role="list" aria-label="{what}">',
           _labels_unit(_("token"))]
    pos = 0
    for first, last in _token_units(tokens):
        start = pos
        label = html.escape(_("tokens {first} to {last}", first=number(first + 1), last=number(last)) if last - first > 1
                            else _("token {n}", n=number(first + 1)), quote=True)
        out.append(f'<div class="tl-unit" role="listitem" aria-label="{label}">')
        for i in range(first, last):
            size = len(tokens[i].bytes)
            chip = chips_html([chip_from_token(tokens[i])], show_ids=show_ids, colour_by="id",
                              label=_("token {n}", n=number(i + 1)), runs=False)
            out.append(f'<div class="tl-top" style="{_place(1, pos - start + 1, size)}">{chip}</div>')
            pos += size
        out.extend(_lower_rows(cps, data, start, pos, cuts))
        out.append("</div>")
    out.append("</div>")
    return "".join(out)


# -- comparing scripts ---------------------------------------------------------------------------

MEASURES = ("bytes per code point", "bytes per grapheme")
#: The measures' names as a chart and a table show them (English, marked for the catalogue).
MEASURE_NAMES = {"bytes per code point": N_("bytes per code point"), "bytes per grapheme": N_("bytes per grapheme")}
MEASURE_COLOURS = (PALETTE[0], PALETTE[6])  # Tol light: #77AADD, #EE8866 (black text on both)
YOUR_TEXT = N_("Your text")


def _row(label: str, text: str, counts: TextCounts) -> dict:
    per_grapheme = counts.bytes / counts.graphemes if counts.graphemes else 0.0
    return {  # the key figures first, so they are on a phone's first screen; the text last
        "sample": label,
        "bytes per code point": round(counts.bytes_per_char, 2),
        "bytes per grapheme": round(per_grapheme, 2),
        "bytes": counts.bytes,
        "code points": counts.code_points,
        "graphemes": counts.graphemes,
        "text": text,
    }


def ratio_columns() -> dict:
    """The comparison table's columns in the learner's language; ratios always with two decimals, so 1.00 and 2.69
    line up."""
    return {
        "sample": st.column_config.TextColumn(_("sample")),
        "bytes per code point": st.column_config.NumberColumn(_("bytes per code point"), format="%.2f"),
        "bytes per grapheme": st.column_config.NumberColumn(_("bytes per grapheme"), format="%.2f"),
        "bytes": st.column_config.NumberColumn(_("bytes")),
        "code points": st.column_config.NumberColumn(_("code points")),
        "graphemes": st.column_config.NumberColumn(_("graphemes")),
        "text": st.column_config.TextColumn(_("text")),
    }


@lru_cache(maxsize=4)
def _rows_for(group: str, lang: str) -> tuple[dict, ...]:
    with i18n.using(lang):  # the samples' labels in ``lang`` (the cache keeps one per language)
        return tuple(_row(s.shown("label"), s.text, text_counts(s.text)) for s in samples().values()
                     if s.group == group)


def comparison_table(
    group: str = "script", your_text: str | None = None, your_counts: TextCounts | None = None
) -> pd.DataFrame:
    """One row per sample of ``group`` (counted by textstats), plus the reader's own text first if given."""
    rows = [dict(r) for r in _rows_for(group, i18n.current())]
    if your_text is not None and your_counts is not None and your_counts.code_points:
        shown = your_text if len(your_text) <= 60 else your_text[:60] + "…"
        rows.insert(0, _row(_(YOUR_TEXT), shown, your_counts))
    for row in rows:
        row["text"] = readable_text(row["text"])
    return pd.DataFrame(rows)


def comparison_chart(table: pd.DataFrame, *, large: bool = False) -> alt.LayerChart:
    """Grouped horizontal bars: bytes per code point and per grapheme for each row of ``table``."""
    long = table.melt(
        id_vars=["sample", "code points", "graphemes", "bytes"],
        value_vars=list(MEASURES),
        var_name="measure",
        value_name="value",
    )
    names = [_(MEASURE_NAMES[m]) for m in MEASURES]  # the legend's words, in the learner's language
    long["measure"] = long["measure"].map(dict(zip(MEASURES, names)))
    order = list(table["sample"])
    s = charts.sizes(large)
    top = max(float(long["value"].max()) * 1.15, 1.5)  # room for the value label after the longest bar
    base = alt.Chart(long).encode(
        y=alt.Y("sample:N", sort=order, title=None),
        yOffset=alt.YOffset("measure:N", sort=names),
        x=alt.X(
            "value:Q",
            title=_("UTF-8 bytes per character"),
            scale=alt.Scale(domain=[0, top]),
            axis=alt.Axis(tickMinStep=0.5),
        ),
        tooltip=[
            alt.Tooltip("sample:N", title=_("sample")),
            alt.Tooltip("measure:N", title=_("measure")),
            alt.Tooltip("value:Q", format=".2f", title=_("value")),
            alt.Tooltip("code points:Q", title=_("code points")),
            alt.Tooltip("graphemes:Q", title=_("graphemes")),
            alt.Tooltip("bytes:Q", title=_("bytes")),
        ],
    )
    bars = base.mark_bar(stroke="#000", strokeWidth=0.6).encode(
        color=alt.Color(
            "measure:N",
            scale=alt.Scale(domain=names, range=list(MEASURE_COLOURS)),
            legend=alt.Legend(orient="top", title=None, direction="vertical"),  # one a line: fits a phone
        )
    )
    labels = base.mark_text(align="left", dx=4, fontSize=s.small).encode(text=alt.Text("value:Q", format=".2f"))
    return charts.layered(bars, labels).properties(height=alt.Step(s.step * 0.9))


@st.cache_data(max_entries=128, show_spinner=False)
def comparison_spec(table: pd.DataFrame, *, large: bool = False, lang: str = i18n.DEFAULT) -> dict:
    """:func:`comparison_chart` in the lab's chart look, as a Vega-Lite spec (see :mod:`ui.charts`), built once
    per distinct table and language."""
    with i18n.using(lang):
        return charts.spec(comparison_chart(table, large=large), large=large)


@st.cache_data(max_entries=128, show_spinner=False)
def token_ladder_for(key: str, text: str, show_ids: bool = True, lang: str = i18n.DEFAULT) -> tuple[str, LadderCounts]:
    """The token ladder of ``text`` with the tokenizer ``key`` (ui.choices), and its counts; once per pair and
    language (the ladder's words are in ``lang``)."""
    tokens = choices.load(key).encode_tokens(text)
    with i18n.using(lang):
        return token_ladder_html(tokens, show_ids), ladder_counts(tokens)


# -- The page's sections (pages/4_Bytes_per_character.py composes them) ------------------------------------
PARTS = {"code-points": N_("Every code point"), "graphemes": N_("Grapheme clusters"), "ladder": N_("Byte ladder")}
"""The page's three views of the text (the ``part`` setting's values, and their names); in classroom mode, one slide
each."""


def px(width: int) -> int:
    """A table column width, wider in large type (the table's text grows with it)."""
    return round(width * 1.3) if large_type_on() else width


def n_bytes(s: str) -> int:
    return text_counts(s).bytes


def intro() -> None:
    """What UTF-8 charges, in numbers the lab counts (classroom mode: the teacher says it), and the lesson."""
    if not classroom_on():  # classroom mode: the teacher says it, the figure is on the first screen
        st.markdown(_(
            "Computers keep text as bytes, and most software and almost every web page today use **UTF-8** to turn "
            "characters into bytes. UTF-8 is kind to English: a letter like `a` takes {a} byte, while every "
            "Devanagari code point (क, {i}, {m} …) takes {ka}, and so does every letter of Tamil (க), Telugu (క), "
            "Kannada (ಕ) and Bengali (ক): {others} bytes each. A byte-level tokenizer starts from these bytes, so this "
            "is where Hindi's extra token cost begins.", a=n_bytes("a"), i=visible_token("ि"), m=visible_token("ं"),
            ka=n_bytes("क"), others=max(n_bytes(c) for c in "கకಕক")))
    lesson_link(3)


def input_section(text_setting: Param) -> tuple[str, TextCounts]:
    """The sample box and the text box (folded in classroom mode: the views of the text are the slide), then what
    the page will make of the text (cut, only spaces, control characters, right to left). Returns the text the page
    analyses, and its counts."""
    with controls(_("Your text, or a sample")):
        _text_boxes(text_setting)
    raw = st.session_state.get(TEXT.skey, "") or ""
    return _text_notes(raw)


def _text_boxes(text_setting: Param) -> None:
    left, right = st.columns([3, 2], vertical_alignment="top")
    with right:
        shown = shown_sample(st.session_state.get(TEXT.skey) or "")
        st.session_state[SAMPLE_BOX.skey] = shown  # the box says what is in the text box (None: the learner's own)
        captions = {sample: sample_caption(sample) for sample in samples()}  # now: the format function reads no state
        st.selectbox(
            _("Load a sample"),
            options=list(samples()),
            format_func=captions.__getitem__,
            key=SAMPLE_BOX.skey,
            on_change=load_sample,
            placeholder=_("Your own text: pick a sample to replace it"),
            help=_("Worked examples of bytes per character, and one short sentence per script. Picking one replaces "
                   "your text."),
        )
        if shown is not None and samples()[shown].note:
            st.caption(samples()[shown].shown("note"))
    with left:
        st.text_area(
            _("Your text"),
            key=TEXT.skey,
            height=110,
            help=_("Anything: Hindi, Hinglish, Tamil, Urdu, emoji, code. The first {n} code points are analysed.",
                   n=number(MAX_TEXT_CHARS)),
        )
        if len(st.session_state.get(TEXT.skey) or "") > text_setting.max_len:
            st.caption(":material/link_off: " + _(
                "Longer than {n} characters: a link to this page keeps the sample and the tokenizer, but not this "
                "text.", n=number(text_setting.max_len)))


def _text_notes(raw: str) -> tuple[str, TextCounts]:
    text = raw[:MAX_TEXT_CHARS]
    if not raw:
        st.info(_("Type or paste some text above, or load a sample, to see its characters and bytes."),
                icon=":material/edit:")
    elif len(raw) > MAX_TEXT_CHARS:
        st.warning(
            _("Your text is {n} code points long. To stay quick this page looks at the first {shown} only: every count "
              "below is for that part. Paste a shorter piece to see all of it.", n=number(len(raw)),
              shown=number(MAX_TEXT_CHARS)),
            icon=":material/content_cut:",
        )
    if text.strip() == "" and text:
        st.info(
            _("Your text is only spaces or line breaks. They are characters too, and cost bytes like any other."),
            icon=":material/space_bar:",
        )
    notes = text_notes(text[: TABLE_MAX_ROWS * 4])
    if notes.controls:
        shown = ", ".join(notes.controls[:5]) + (" …" if len(notes.controls) > 5 else "")
        st.info(
            _("Your text contains control characters ({codes}). They take bytes but draw nothing, so the table and "
              "ladders show them by their code.", codes=shown),
            icon=":material/visibility_off:",
        )
    if notes.right_to_left:
        st.info(
            _("Right-to-left text (Urdu, Arabic, Hebrew): the table and the ladders list code points in the order "
              "they are stored, which is reading order, drawn left to right, one cell each. Letters are shown in "
              "their stand-alone shapes."),
            icon=":material/format_textdirection_r_to_l:",
        )
    return text, text_counts(text)


PART = Param(PAGE, "part", "", choices=("", *PARTS))
"""The view on screen as a tab (``?part=ladder``); "" (the default): every view on the page, or in classroom mode
the first tab."""


def slides() -> Slides:
    """The three views of the text (every code point, grapheme clusters, the byte ladder): tabs under the counts in
    classroom mode or when a link names one, the one on screen in the address. In classroom mode a link that names a
    tokenizer and no view opens on its byte ladder."""
    return Slides({part: _(name) for part, name in PARTS.items()}, PART,
                  first="ladder" if LADDER.name in st.query_params else "code-points")


def code_points_section(text: str, counts: TextCounts, part: Slides) -> None:
    """The text counted four ways, and every code point in a table (nothing for an empty text)."""
    if not counts.code_points:
        return
    per_grapheme = counts.bytes / counts.graphemes
    # Five across; in large type three and two, so the labels are not cut short (classroom mode: five across again,
    # on the code points' slide, with the whole width of the projector).
    with part("code-points"):
        c1, c2, c3, c4, c5 = ([*st.columns(3), *st.columns(3)[:2]] if large_type_on() and not classroom_on()
                              else st.columns(5))
    c1.metric(_("Code points"), number(counts.code_points), help=_("Unicode characters as stored, one number each."))
    c2.metric(
        _("Grapheme clusters"),
        number(counts.graphemes),
        help=_("Characters as a reader sees them: a letter with its vowel signs, or a whole emoji family."),
    )
    c3.metric(_("UTF-8 bytes"), number(counts.bytes))
    c4.metric(_("Bytes per code point"), decimal(counts.bytes_per_char))
    c5.metric(_("Bytes per grapheme"), decimal(per_grapheme))

    with part("code-points"), figure("code-points"):
        st.subheader(_("Every code point"))
        table = char_rows(text)
        shown_rows = len(table)
        st.caption(
            _("One row per code point. Spaces show as ·, line breaks as ↵, invisible characters by their code; a "
              "vowel sign or other combining mark is drawn on its own, with the grapheme it belongs to beside it.")
            + (
                _(" Showing the first {shown} of {n} code points.", shown=number(shown_rows),
                  n=number(counts.code_points))
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
                "character": st.column_config.TextColumn(_("character"), width=px(80)),
                "in grapheme": st.column_config.TextColumn(_("in grapheme"), width=px(96)),
                "code point": st.column_config.TextColumn(_("code point"), width=px(88)),
                "UTF-8 (hex)": st.column_config.TextColumn("UTF-8 (hex)", width=px(104)),
                "bytes": st.column_config.NumberColumn(_("bytes"), width=px(56)),
                "script": st.column_config.TextColumn(_("script"), width=px(96)),
                "name": st.column_config.TextColumn(_("name"), width="large"),
            },
        )


def graphemes_section(text: str, counts: TextCounts, part: Slides) -> None:
    """What a reader sees: grapheme clusters over their code points over their bytes (nothing for an empty text)."""
    if not counts.code_points:
        return
    ladder_text = prefix_within_bytes(text, LADDER_MAX_BYTES)
    ladder_counts = text_counts(ladder_text)
    capped = (
        _(" Showing the first {n} code points ({bytes} bytes): the ladders stop at {most} bytes.",
          n=number(ladder_counts.code_points), bytes=number(ladder_counts.bytes), most=number(LADDER_MAX_BYTES))
        if ladder_counts.bytes < counts.bytes
        else ""
    )
    ki = text_counts("कि")
    with part("graphemes"):
        st.subheader(_("What a reader sees: grapheme clusters"))
        st.caption(_(
            "One letter to a reader can be several code points. कि looks like one shape, yet it is क plus the vowel "
            "sign ि: {code_points} code points and {bytes} bytes in {graphemes} grapheme cluster. Top row: grapheme "
            "clusters (what you would count as letters). Middle: the code points in each. Bottom: their UTF-8 bytes "
            "in hex; the lighter bytes continue the character the darker one starts.", code_points=ki.code_points,
            bytes=ki.bytes, graphemes=ki.graphemes) + capped)
        st.html(grapheme_ladder_html(ladder_text, i18n.current()))


def byte_ladder_section(text: str) -> None:
    """A byte-level tokenizer's tokens over the bytes of the text's start, with their counts."""
    ladder_text = prefix_within_bytes(text, LADDER_MAX_BYTES)
    if not classroom_on():  # classroom mode: the tab says it
        st.subheader(_("Byte ladder: tokens over their bytes"))
    ladder_labels = {key: choices.option_label(key) for key in LADDER_CHOICES}  # the picker's words, drawn now
    with controls(_("The byte-level tokenizer, and how to read the ladder")):  # classroom mode: folded, the ladder is
        st.selectbox(  # the slide
            _("Byte-level tokenizer"),
            options=list(LADDER_CHOICES),
            format_func=ladder_labels.__getitem__,
            key=LADDER.skey,
            help=_("The lab's two English + Hindi tokenizers (the same merge budget, with 1 or 10 copies of the Hindi "
                   "text), and real byte-level tokenizers of production models."),
        )
        st.caption(
            _("A byte-level tokenizer starts with every one of the 256 byte values as a token, so it can write any "
              "text and nothing is ever unknown. The price: a token can stop in the middle of a character. Dashed "
              "chips are tokens that are not whole characters (their bytes in hex); a code point with a dashed, "
              "shaded box is cut by a token boundary.")
            + ("" if classroom_on() else _(" The number under each chip is its id."))
        )
    ladder_key = state.value(LADDER)
    try:
        choices.load(ladder_key)
    except choices.Unavailable as exc:
        st.warning(md_escape(str(exc)), icon=":material/error:")
        ladder_key = LADDER_TOKENIZERS[0]
    if not ladder_text:
        st.info(_("Type some text above to see how this tokenizer cuts it into tokens."), icon=":material/edit:")
        return
    ladder, lc = token_ladder_for(ladder_key, ladder_text, not classroom_on(), i18n.current())  # classroom mode: no ids, one screen
    with figure("byte-ladder"):  # the ladder and its counts
        m1, m2, m3, m4 = st.columns(4)
        m1.metric(_("Tokens"), number(lc.tokens))
        m2.metric(
            _("Not whole characters"),
            number(lc.partial),
            help=_("Tokens whose bytes are not complete characters on their own (decoded alone they would be "
                   "broken)."),
        )
        m3.metric(
            _("Characters cut"),
            number(lc.split_chars),
            help=_("Code points with a token boundary inside them: their bytes are spread over two or more tokens."),
        )
        m4.metric(_("Bytes"), number(lc.bytes))
        st.html(ladder)


def scripts_section(text: str, counts: TextCounts) -> None:
    """The text beside one sample per script, and the worked examples."""
    st.subheader(_("Scripts compared"))
    st.caption(_(
        "Each sample says roughly “Indore is a clean city”. Bytes per code point is what UTF-8 charges for each "
        "stored character; bytes per grapheme is per character as a reader counts them. Your text is the top row."
    ))
    compare = comparison_table("script", text, counts)
    charts.draw(comparison_spec(compare, large=large_type_on(), lang=i18n.current()), key=CHART.skey)
    with st.expander(_("The numbers behind the chart")):
        tables.show(compare, hide_index=True, width="stretch", column_config=ratio_columns())

    # Lesson 3's exercises count these very words: folded, so the page gives no answer away before it is asked.
    with st.expander(_("Worked examples: lesson 3's words, counted (the answers to its exercises)"),
                     icon=":material/key:"):
        st.caption(_(
            "The same words in Hindi and in Latin letters, and a syllable that is two code points. "
            "Counted by the lab just now."
        ))
        tables.show(comparison_table("example"), hide_index=True, width="stretch", column_config=ratio_columns())


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
