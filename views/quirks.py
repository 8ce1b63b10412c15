"""Views for the Quirks page: tokens of a few short texts side by side, one column per tokenizer.

The experiments are the engine's (:mod:`analyses.quirks`, :mod:`analyses.numbers`); the tokens are the
real tokenizers' (:func:`ui.choices.encoded`, cached). This module lays them out.
"""

from __future__ import annotations

from typing import Sequence

import streamlit as st

from tokenizer import TextTokenizer
from analyses.quirks import Joined, join_counts
from ui import choices
from ui.chips import CSS, Chip, chip_from_token, labelled_rows_html
from ui.chips import token_chips as draw_chips
from ui.display import md_escape, plural

MAX_CHIPS = 400  # chips drawn per row; every token is still counted


def columns(chosen: Sequence[tuple[str, TextTokenizer]], large: bool) -> list[tuple[str, TextTokenizer, object]]:
    """One column per tokenizer: up to three a row (two in large type); a phone stacks them."""
    per_row = 2 if large else 3
    out = []
    for start in range(0, len(chosen), per_row):
        row = chosen[start : start + per_row]
        cols = st.columns(len(row) if len(row) > 1 else 1, gap="medium")
        out += [(key, tok, col) for (key, tok), col in zip(row, cols)]
    return out


def token_chips(key: str, text: str, *, limit: int = MAX_CHIPS) -> tuple[list[Chip], int]:
    """The chips of ``text`` with tokenizer ``key`` (the first ``limit``) and its token count. Encoded with
    ``MAX_CHIPS`` tokens kept, the one cache entry every section of the page uses for that text."""
    enc = choices.encoded(key, text, MAX_CHIPS)
    return [chip_from_token(t) for t in enc.tokens[:limit]], enc.measure.tokens


@st.cache_data(max_entries=64, show_spinner=False)
def joined(key: str, parts: tuple[str, ...]) -> Joined:
    """:func:`analyses.quirks.join_counts` once per (tokenizer, texts), for every learner."""
    return join_counts(choices.load(key), parts)


def count_note(count: int, shown: int, noun: str = "token") -> str:
    """``"5 tokens"``, and how many are drawn when not all are."""
    note = plural(count, noun)
    return note + (f" (first {shown:,} shown)" if count > shown else "")


def rows(rows: Sequence[tuple[str, Sequence[Chip], str]], *, show_ids: bool = False) -> None:
    """Labelled rows of chips (label, chips, note)."""
    st.html(CSS + labelled_rows_html(rows, show_ids=show_ids))


def chip_row(chips: Sequence[Chip], *, label: str, line_breaks: bool = False) -> None:
    """One row of chips (``line_breaks``: a new line after a token that ends in one, as in the text)."""
    draw_chips(chips, label=label, line_breaks=line_breaks)


def heading(tok: TextTokenizer) -> None:
    st.markdown(f"**{md_escape(tok.name)}**")


def too_long(text: str, limit: int, what: str) -> bool:
    """True (after saying so) when ``text`` is longer than this experiment takes."""
    if len(text) <= limit:
        return False
    st.warning(
        f"That is {len(text):,} characters; this example takes {what} of up to {limit:,} characters. "
        "A short text shows the quirk best: paste a shorter part.",
        icon=":material/content_cut:",
    )
    return True


__all__ = ["MAX_CHIPS", "chip_row", "columns", "count_note", "heading", "joined", "rows", "token_chips", "too_long"]
