"""Corpus words as chips: the most frequent words after *k* merges, the base symbols, the tokens learned.
"""

from __future__ import annotations

import streamlit as st

from i18n import _, _n, number
from tokenizer import UNKNOWN_ID, Trace
from ui.chips import CSS as CHIPS_CSS
from ui.chips import Chip, chips_html, word_rows_html
from ui.language import per_language
from ui.training import BY_RUN, Run, trace_of

TOP_WORDS = 40  # corpus words shown as chips



@st.cache_resource(max_entries=32, show_spinner=False, hash_funcs=BY_RUN)
def _top_words(run: Run, limit: int) -> list[tuple[str, int]]:
    """The ``limit`` most frequent distinct words (ties: first appearance first). Cached per run."""
    trace = trace_of(run)
    order = sorted(range(len(trace.words)), key=lambda i: -trace.words[i][1])
    return [trace.words[i] for i in order[:limit]]


LONG_WORD = 200
"""A corpus "word" (a piece with no space) is drawn with at most this many chips, each chip and the word itself
at most this many characters: a 1 MB run of one emoji is one word, and each step's view of it (cached per step)
would otherwise hold megabytes."""


def _cut(text: str) -> str:
    return text if len(text) <= LONG_WORD else text[:LONG_WORD] + "…"


def word_chips(trace: Trace, word: str, k: int, highlight_id: int | None = None) -> list[Chip]:
    tok = trace.tokenizer
    chips = []
    ids = tok.segment(word, k)
    for token_id in ids[:LONG_WORD]:
        if token_id == UNKNOWN_ID:  # cannot happen for training words; be safe
            chips.append(Chip("?", None, known=False))
            continue
        label = tok.label(token_id)
        chips.append(Chip(_cut(label), token_id, whole=tok.is_whole(token_id), highlight=token_id == highlight_id,
                          data=tok.token_bytes(token_id) if len(label) <= LONG_WORD else None))
    if len(ids) > LONG_WORD:
        chips.append(Chip("… " + _n("{n} more token", "{n} more tokens", len(ids) - LONG_WORD), None))
    return chips


@per_language(max_entries=512, hash_funcs=BY_RUN)
def corpus_html(run: Run, k: int, *, highlight_id: int | None = None, limit: int = TOP_WORDS) -> str:
    """The most frequent corpus words after ``k`` merges: each word, its chips, its count (cached per run, step
    and language: the chips' tooltips are written in it)."""
    trace = trace_of(run)
    rows = [(_cut(word), word_chips(trace, word, k, highlight_id), count) for word, count in _top_words(run, limit)]
    return CHIPS_CSS + word_rows_html(rows)


LARGE_TOP_WORDS = 7  # on a projector: the rows that fit on the first screen


def corpus_caption(trace: Trace, limit: int = TOP_WORDS) -> str:
    n = len(trace.words)
    total = trace.total_words
    if n <= limit:
        return _n("{n} distinct word, {total} in all; each row is one word, its tokens and how often it occurs.",
                  "{n} distinct words, {total} in all; each row is one word, its tokens and how often it occurs.",
                  n, total=number(total))
    return _("{n} distinct words ({total} in all): showing the {limit} most frequent, each with how often it occurs.",
             n=number(n), total=number(total), limit=number(limit))


@st.cache_data(max_entries=1024, show_spinner=False, hash_funcs=BY_RUN)
def corpus_tokens(run: Run, k: int, max_words: int = 2_000) -> int | None:
    """How many tokens the whole corpus is after k merges (None for big corpora). Cached per run and step."""
    trace = trace_of(run)
    if len(trace.words) > max_words:
        return None
    tok = trace.tokenizer
    return sum(count * len(tok.segment(word, k)) for word, count in trace.words)


def base_symbols_html(trace: Trace, limit: int = 120) -> tuple[str, int]:
    """The base symbols the corpus uses, as chips; and how many base symbols the vocabulary has."""
    tok = trace.tokenizer
    seen: dict[int, None] = {}
    for word, _count in trace.words:
        for token_id in tok.segment(word, 0):
            seen.setdefault(token_id, None)
        if len(seen) >= limit:
            break
    chips = [Chip(tok.label(i), i, whole=tok.is_whole(i)) for i in seen if i != UNKNOWN_ID]
    return CHIPS_CSS + chips_html(chips, show_ids=True, label=_("base symbols")), tok.first_merge_id

def learned_tokens_html(trace: Trace, k: int, limit: int = 40) -> str:
    """The tokens merges 1..k made, newest highlighted (the last ``limit`` of them)."""
    tok = trace.tokenizer
    steps = trace.steps[max(0, k - limit) : k]
    chips = [
        Chip(_cut(s.token), s.token_id, whole=tok.is_whole(s.token_id), highlight=s.step == k,
             note=_("merge {step}", step=number(s.step)))
        for s in steps
    ]
    return CHIPS_CSS + chips_html(chips, show_ids=True, label=_("tokens learned so far"), runs=False)
