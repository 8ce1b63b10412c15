"""What the "Tokenize anything" page draws: any text cut by one or more tokenizers, side by side, with counts and
ids.

The page sets up and composes the sections here: :func:`intro`, then, inside ``state.published(PARAMS)``,
:func:`inputs_section` (the text, the examples, the tokenizers, the switches) and :func:`tokens_section` (the counts,
the chips, the ids table and where a lab token comes from).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from functools import partial
from html import escape as html_escape

import pandas as pd
import streamlit as st

import lessons
from analyses.textstats import utf8_length
from i18n import _, _n, localized, number
from tokenizer import TextTokenizer, hex_bytes
from ui import choices, predict, state, tables, viewport
from ui.chips import CSS as CHIPS_CSS
from ui.chips import chip_from_token, chips_html
from ui.display import lone_marks, md_escape, ratio, visible_token
from ui.layout import classroom_on, controls, figure
from ui.links import lesson_link
from ui.state import Key, Param
from ui.treeview import has_trees, tree_picker
from ui.uploads import too_big

PAGE = "tokenize"
MAX_TEXT_BYTES = 1_000_000  # a bigger paste is refused politely
MAX_CHIPS = 2_000  # chips drawn per tokenizer; every token is still counted, and listed in the CSV
MAX_TABLE_ROWS = 5_000
DEFAULT_TOKENIZERS = ("o200k_base",)
FALLBACK_TOKENIZERS = ("english-hindi",)  # when no real tokenizer is installed
EXAMPLES = lessons.examples("tokenize")
DEFAULT_TEXT = EXAMPLES[0]["text"] + " " + EXAMPLES[1]["text"]

# -- The page's session keys, declared once (the page, the warm-up, the benchmarks and the tests import them) --
TEXT = Param(PAGE, "text", DEFAULT_TEXT, max_len=1000)
SHOW_IDS = Param(PAGE, "ids", False)
COLOUR = Param(PAGE, "colour", "position", choices=("position", "id"))
PREDICT = Param(PAGE, "predict", False)
PARAMS = [TEXT, SHOW_IDS, COLOUR, PREDICT]
TOKS = choices.many_key(PAGE)  # the tokenizers picked (ui.choices.pick_many)
UPLOAD = choices.upload_key(PAGE)
COMPARE = Key(PAGE, "compare")
IDS_OPEN = Key(PAGE, "ids_open")
IDS_TOK = Key(PAGE, "ids_tok")
IDS_TABLE = Key(PAGE, "ids_table")
DOWNLOAD = Key(PAGE, "download")
TREE_OPEN = Key(PAGE, "tree_open")
TREE_TOK = Key(PAGE, "tree_tok")
TREE_ID = Key(PAGE, "tree_id")

Result = tuple[str, TextTokenizer, choices.Encoded]  # (the choice's key, the tokenizer, the text encoded)


def example_key(i: int) -> Key:
    """The button of the ``i``-th example (from 0)."""
    return Key(PAGE, f"example.{i}")


def use_example(text: str) -> None:
    state.set_value(TEXT, text)


# -- sections ---------------------------------------------------------------------------------------
def intro(large: bool) -> None:
    if not large:
        st.caption(_(
            "Type or paste any text (English, हिन्दी, Hinglish, emoji, code) and see how tokenizers cut it: real "
            "production tokenizers and the lab's own, side by side, with their counts and the ids a model reads."
        ))
    lesson_link(1)


def inputs_section(large: bool) -> list[tuple[str, TextTokenizer]]:
    """The text box, the examples, the tokenizers to compare and the switches (folded in classroom mode: the chips
    are the slide); returns the usable tokenizers."""
    with controls(_("The text, the tokenizers and the switches")):
        return _inputs(large)


def _inputs(large: bool) -> list[tuple[str, TextTokenizer]]:
    st.text_area(
        _("Text"),
        key=TEXT.skey,
        height=110 if large else 130,
        placeholder=_("Type or paste text here…"),
        help=_("Anything at all. Up to 1 MB; a long text is counted in full, and its first chips are drawn."),
    )
    if not classroom_on():  # classroom mode: fewer controls, so the chips are on the first screen
        # a click on an example brings its counts and tokens into view (ui/viewport.py)
        with st.container(horizontal=True, gap="small", vertical_alignment="center", key=viewport.action(PAGE)):
            st.caption(_("Try:"), width="content")
            for i, example in enumerate(EXAMPLES):
                st.button(localized(example)["label"], key=example_key(i).skey, on_click=use_example,
                          args=(example["text"],), type="tertiary")

    real_keys = [e.key for e in choices.real_entries()]
    default = [k for k in DEFAULT_TOKENIZERS if k in real_keys] or list(FALLBACK_TOKENIZERS)
    chosen = choices.pick_many(PAGE, default=default, label=_("Tokenizers (add more to compare them)"),
                               upload=not classroom_on())  # classroom mode: fewer controls

    with st.container(horizontal=True, gap="medium", vertical_alignment="center"):
        st.toggle(_("Predict first"), key=PREDICT.skey,
                  help=_("Guess each tokenizer's count before the lab shows the tokens; your score is kept."))
        st.toggle(_("Show ids under the chips"), key=SHOW_IDS.skey,
                  help=_("Every chip also shows its id when you hover over it."))
        colour_names = {"position": _("position"), "id": _("token id")}
        st.segmented_control(
            _("Colour chips by"),
            ("position", "id"),
            key=COLOUR.skey,
            required=True,
            format_func=colour_names.__getitem__,
            help=_("By position, neighbours always differ. By id, the same token always gets the same colour."),
        )
    return chosen


def tokens_section(chosen: Sequence[tuple[str, TextTokenizer]], large: bool) -> None:
    """Everything the text and the tokenizers give: predictions first if asked, then the counts, the chips, what
    they mean, the ids token by token and where a lab token comes from (or what to do to see them)."""
    text: str = state.value(TEXT) or ""
    if not chosen:
        st.info(_("Pick at least one tokenizer above."), icon=":material/list:")
        return
    if not text:
        st.info(_("Type or paste some text above, or pick one of the examples."), icon=":material/edit:")
        return
    if too_big(utf8_length(text), MAX_TEXT_BYTES, _("a few pages is plenty to see how a tokenizer behaves")):
        return
    if len(TEXT.dump(text)) > TEXT.max_len:  # what state.publish leaves out of the link
        st.caption(_("This text is too long to put in the page's link; the link keeps the tokenizers and the settings."))

    results = encode_all(chosen, text)
    if not results:
        return
    if state.value(PREDICT) and not predictions_section(results, text):
        return
    with st.container(key=viewport.result(PAGE)):  # what an example or a new text changes
        counts_section(results, large)
    legend_section(results, text)
    ids_section(results, text)
    provenance_section(results)


def encode_all(chosen: Sequence[tuple[str, TextTokenizer]], text: str) -> list[Result]:
    """The text encoded with each tokenizer (cached per tokenizer and text, for every learner); one that cannot
    encode it is named with its reason."""
    results = []
    for key, tok in chosen:
        try:
            results.append((key, tok, choices.encoded(key, text, max(MAX_CHIPS, MAX_TABLE_ROWS))))
        except ValueError as exc:  # e.g. a lab model whose pre-split pattern backtracks on this text
            st.warning(_("{name} cannot encode this text: {reason}", name=md_escape(tok.name), reason=md_escape(str(exc))),
                       icon=":material/timer_off:")
    return results


def predictions_section(results: Sequence[Result], text: str) -> bool:
    """Predict first: every count guessed before any is shown. Returns whether all are answered."""
    waiting = False
    with st.container(border=True):
        for key, tok, enc in results:
            waiting |= predict.ask(choices.count_question(key, tok, text, enc.measure, scope=PAGE)) is None
        st.caption(_("Your predictions on this page: {score}.", score=predict.score_line(PAGE)))
    if waiting:
        st.caption(_("The counts and the tokens appear once you have predicted each count."))
    return not waiting


def comparison_table(results: Sequence[Result]) -> None:
    """The tokenizers' counts side by side, one row each."""
    table = pd.DataFrame(
        {
            "tokenizer": [tok.name for _key, tok, _enc in results],
            "tokens": [enc.measure.tokens for *_rest, enc in results],
            "tokens per word": [enc.measure.tokens_per_word for *_rest, enc in results],
            "tokens per character": [enc.measure.tokens_per_char for *_rest, enc in results],
            "bytes per token": [enc.measure.bytes_per_token for *_rest, enc in results],
            "partial tokens": [enc.measure.partial for *_rest, enc in results],
        }
    )
    tables.show(
        table, hide_index=True, key=COMPARE.skey,
        column_config={  # the columns are named by their labels: the data's names stay the same in every language
            "tokenizer": st.column_config.TextColumn(_("tokenizer")),
            "tokens": st.column_config.NumberColumn(_("tokens")),
            "tokens per word": st.column_config.NumberColumn(_("tokens per word"), format="%.2f",
                                                             help=_("Tokens ÷ words (str.split()).")),
            "tokens per character": st.column_config.NumberColumn(_("tokens per character"), format="%.2f",
                                                                  help=_("Tokens ÷ code points.")),
            "bytes per token": st.column_config.NumberColumn(
                _("bytes per token"), format="%.2f", help=_("UTF-8 bytes ÷ tokens: how much text one token carries.")),
            "partial tokens": st.column_config.NumberColumn(
                _("partial tokens"), help=_("Tokens that are only part of a character's bytes.")),
        },
    )


def counts_section(results: Sequence[Result], large: bool) -> None:
    """The text's own counts, each tokenizer's count (metrics for one, a table for several) and its chips."""
    counts = results[0][2].measure  # the text's own counts (words, code points, ...), measured once, cached
    if not classroom_on():
        st.caption(_(
            "The text: {words} · {code_points} · {graphemes} · {bytes}. Words are runs of characters between spaces; "
            "a grapheme cluster is what a reader calls one letter.",
            words=_n("{n} word", "{n} words", counts.words),
            code_points=_n("{n} code point", "{n} code points", counts.code_points),
            graphemes=_n("{n} grapheme cluster", "{n} grapheme clusters", counts.graphemes),
            bytes=_n("{n} UTF-8 byte", "{n} UTF-8 bytes", counts.bytes),
        ))
    if len(results) == 1:
        key, tok, enc = results[0]
        m = enc.measure
        cols = st.columns(4)
        cols[0].metric(_("Tokens"), number(m.tokens), help=_("What a model reads, and what you pay for."))
        cols[1].metric(_("Tokens per word"), ratio(m.tokens, m.words),
                       help=_("Large tokenizers give English prose about 1.3: measure your own text, don't trust the "
                              "rule of thumb."))
        cols[2].metric(_("Characters per token"), ratio(m.code_points, m.tokens),
                       help=_("Code points per token. Large tokenizers give English prose about 4."))
        if m.unknown:
            cols[3].metric(_("Unseen characters"), number(m.unknown),
                           help=_("Characters this character-level model never saw in training: no id, shown with ?."))
        else:
            cols[3].metric(_("Partial tokens"), number(m.partial),
                           help=_("Tokens that hold only part of a character's bytes: not text on their own. Drawn as "
                                  "hex bytes with a dashed border; the letters they make are written under them."))
    elif not classroom_on():  # classroom mode: the table comes after the chips, so they are on the first screen
        comparison_table(results)

    show_ids = bool(state.value(SHOW_IDS))
    colour_by = state.value(COLOUR) or "position"
    chips_box = figure("token-chips")
    # Classroom mode: each tokenizer's name and its chips in one element, the chips a little tighter, so that four
    # tokenizers on a Hindi sentence are one projector screen.
    compact = classroom_on() and len(results) > 1
    for _key, tok, enc in results:
        m = enc.measure
        count = _n("{n} token", "{n} tokens", m.tokens)
        head = (f'<div class="tl-row-head"><strong>{html_escape(tok.name)}</strong> · {html_escape(count)}</div>'
                if len(results) > 1 or large else "")
        row = chips_html([chip_from_token(t) for t in enc.tokens[:MAX_CHIPS]], show_ids=show_ids, colour_by=colour_by,
                         label=tok.name, total=m.tokens, mark_pieces=True, line_breaks=True)
        chips_box.html(CHIPS_CSS + (f'<div class="tl-compact">{head}{row}</div>' if compact else head + row))
        if m.tokens > MAX_CHIPS:
            st.caption(_("Showing the first {shown} of {n} tokens; all are counted.", shown=number(MAX_CHIPS),
                         n=number(m.tokens)))
        if m.tokens == 0:
            st.caption(_("No tokens: this tokenizer splits on whitespace and drops the spaces, and the text is only "
                         "spaces."))
    if len(results) > 1 and classroom_on():
        comparison_table(results)


def legend_section(results: Sequence[Result], text: str) -> None:
    """What the chips mean: only what the chips shown can need."""
    any_partial = any(enc.measure.partial > 0 for *_rest, enc in results)
    any_unknown = any(enc.measure.unknown > 0 for *_rest, enc in results)
    any_lone = any(lone_marks(t.label) for *_rest, enc in results for t in enc.tokens[:MAX_CHIPS])
    legend = [_("· is a space, ↵ a newline, ⇥ a tab"), _("a wider gap separates the pre-split pieces"),
              _("hover over a chip for its id")]
    if any_partial:
        legend.append(_("dashed border: part of a character, as hex bytes ⟨E0 A4⟩, with the letters the tokens make "
                        "written under them"))
    st.caption(_("{legend}.", legend="; ".join(legend)))
    if any_lone:
        st.caption(_(
            "A chip showing ◌ holds a vowel sign or other mark without its letter (the letter is in the chip "
            "before); its name is written under it."
        ))
    if any_unknown:
        st.info(_(
            "A character-level model gives characters it never saw in training no id: they are white chips with a "
            "dotted border and ? for an id. A byte-level tokenizer never meets an unknown, since every character is "
            "made of bytes it knows: pick one above to compare."),
            icon=":material/help:",
        )
    lossy = [tok.name for _key, tok, enc in results if not enc.round_trips and not enc.measure.unknown]
    if lossy:
        st.caption(_(
            "{names}: decoding the tokens does not give back your text exactly. A lab model with the whitespace split "
            "drops the spaces (they are not tokens); some tokenizers also normalise the text.",
            names=md_escape(", ".join(lossy))))
    if any(unicodedata.bidirectional(ch) in ("R", "AL") for ch in text[:20_000]):
        st.caption(_(
            "Right-to-left text: the chips go left to right in token order (the first token is on the left), "
            "while the letters inside each chip read right to left."
        ))


def tokens_csv(tok: TextTokenizer, text: str) -> bytes:
    """Every token of the text as CSV, built when the download button is clicked. Streamlit calls this outside the
    session's run, so it uses only what the run handed it (no cache, no session state)."""
    every = tok.encode_tokens(text)
    full = pd.DataFrame(
        {
            "position": range(1, len(every) + 1),
            "token": [t.label for t in every],
            "id": pd.array([t.id if t.known else None for t in every], dtype="Int64"),
            "bytes_hex": [hex_bytes(t.bytes) for t in every],
            "whole": [t.whole for t in every],
            "piece": [t.piece + 1 for t in every],
        }
    )
    return full.to_csv(index=False).encode("utf-8-sig")  # the BOM lets spreadsheet apps read Hindi right


def ids_section(results: Sequence[Result], text: str) -> None:
    """Ids and bytes, token by token (built only when opened), and every token as CSV."""
    names = {key: tok.name for key, tok, _enc in results}
    with st.expander(_("Ids and bytes, token by token"), key=IDS_OPEN.skey, on_change="rerun",
                     icon=":material/table:") as ids_box:
        if not ids_box.open:
            return
        which = st.selectbox(_("Tokenizer"), list(names), format_func=names.__getitem__, key=IDS_TOK.skey) \
            if len(names) > 1 else next(iter(names))
        enc = next(e for k, _tok, e in results if k == which)
        rows = enc.tokens[:MAX_TABLE_ROWS]
        tables.show(
            pd.DataFrame(
                {
                    "position": range(1, len(rows) + 1),
                    "token": [visible_token(t.label) for t in rows],
                    "id": pd.array([t.id if t.known else None for t in rows], dtype="Int64"),
                    "bytes (hex)": [hex_bytes(t.bytes) for t in rows],
                    "whole characters": [t.whole for t in rows],
                    "piece": [t.piece + 1 for t in rows],
                }
            ),
            hide_index=True,
            placeholder="—",
            key=IDS_TABLE.skey,
            column_config={
                "position": st.column_config.NumberColumn(_("position")),
                "token": st.column_config.TextColumn(_("token")),
                "id": st.column_config.NumberColumn(_("id"), help=_("The number the model reads. Empty for a character never seen in training."), format="%d"),
                "bytes (hex)": st.column_config.TextColumn(_("bytes (hex)")),
                "whole characters": st.column_config.CheckboxColumn(_("whole characters"), help=_("False when the token is only part of a character's bytes.")),
                "piece": st.column_config.NumberColumn(_("piece"), help=_("Which pre-split piece the token comes from. Merges never cross pieces.")),
            },
        )
        if enc.measure.tokens > MAX_TABLE_ROWS:
            st.caption(_("The table shows the first {shown} tokens; the CSV has all {n}.", shown=number(MAX_TABLE_ROWS),
                         n=number(enc.measure.tokens)))
        csv_tok = next(tok for key, tok, _enc in results if key == which)
        st.download_button(_("Download the tokens as CSV"), data=partial(tokens_csv, csv_tok, text),
                           file_name="tokens.csv", mime="text/csv", key=DOWNLOAD.skey, on_click="ignore",
                           icon=":material/download:")


def provenance_section(results: Sequence[Result]) -> None:
    """Where a token comes from: its merges, down to single characters or bytes (built only when opened). A lab
    model's from what it learned, a production tokenizer's from its ranks."""
    lab = [(key, tok, enc) for key, tok, enc in results if has_trees(tok)]
    if not lab:
        return
    with st.expander(_("Where does a token come from? Its merges, down to single characters or bytes"),
                     key=TREE_OPEN.skey, on_change="rerun", icon=":material/account_tree:") as tree_box:
        if not tree_box.open:
            return
        tree_picker([(key, tok, enc.tokens) for key, tok, enc in lab], tok_key=TREE_TOK.skey, id_key=TREE_ID.skey,
                    counts=choices.trace_counts)
