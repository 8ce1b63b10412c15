"""One step in words: the big step line, how the merge's count adds up, why this pair won.
"""

from __future__ import annotations

import html

import streamlit as st

from tokenizer import Trace
from ui.chips import CSS as CHIPS_CSS
from ui.chips import Chip, chips_html
from ui.display import pair_text, plural, visible_token
from ui.questions import tie_explanation, times
from ui.training import BY_RUN, Run, trace_of

from .chips import _cut

MAX_SOURCES = 6  # words named in "how the count adds up"



def step_summary(trace: Trace, k: int) -> str:
    """ "Merge 3 of 7: cha + i → chai, seen 5 times." (plain text)."""
    s = trace.steps[k - 1]
    return (
        f"Merge {k} of {len(trace.steps)}: {pair_text(_cut(s.left), _cut(s.right))} → {visible_token(_cut(s.token))}, "
        f"seen {times(s.count)}."
    )


@st.cache_data(max_entries=512, show_spinner=False, hash_funcs=BY_RUN)
def count_breakdown(run: Run, k: int) -> str:
    """How merge k's count adds up, word by word: "chai ×3 + chaiwala ×2 + … = 11" (cached per run and step)."""
    trace = trace_of(run)
    s = trace.steps[k - 1]
    sources, complete = trace.pair_sources(k)
    terms = []
    for src in sources[:MAX_SOURCES]:
        word = visible_token(_cut(src.word))
        terms.append(f"{word} ×{src.word_count}" if src.in_word == 1 else f"{word} {src.in_word}×{src.word_count}")
    rest = sources[MAX_SOURCES:]
    rest_sum = s.count - sum(src.adds for src in sources[:MAX_SOURCES])
    if rest or not complete:
        n_more = len(rest) if complete else None
        more = f"{plural(n_more, 'more word')}" if n_more is not None else "the other words"
        terms.append(f"{rest_sum:,} from {more}")
    twice = next((src for src in sources[:MAX_SOURCES] if src.in_word > 1), None)
    note = (f" (“{visible_token(_cut(twice.word))} {twice.in_word}×{twice.word_count}”: the pair is in it {times(twice.in_word)}, "
            f"and it occurs {times(twice.word_count)})") if twice else ""
    return f"How {s.count:,} adds up, each word counted as often as it occurs{note}:\n{' + '.join(terms)} = {s.count:,}"


@st.cache_data(max_entries=512, show_spinner=False, hash_funcs=BY_RUN)
def explain(run: Run, k: int) -> str:
    """:func:`tie_explanation` with notes, cached per run and step."""
    trace = trace_of(run)
    text = tie_explanation(trace, k)
    s = trace.steps[k - 1]
    if s.count == 1:
        sources, _ = trace.pair_sources(k, max_words=5_000)
        where = f" in “{visible_token(_cut(sources[0].word))}”" if sources else ""
        text += (
            f"\nThis pair occurs just once in the whole corpus{where}: merging it memorises part of one word "
            "rather than learning a piece that many words share."
        )
    return text



# The step's line is big; on a phone a little less, so the merge and what it changed share the screen.
STEP_HEADER_CSS = """<style>
.tl-step { display: flex; flex-wrap: wrap; align-items: center; gap: .4em; font-size: 1.3em; }
@media (max-width: 640px) { .tl-step { font-size: 1.05em; gap: .3em; } }
</style>"""


@st.cache_data(max_entries=512, show_spinner=False, hash_funcs=BY_RUN)
def step_header_html(run: Run, k: int, *, hide_winner: bool = False) -> str:
    """A big line: "Merge 3 of 7: [cha] + [i] → [chai] seen 5 times" (chips for the tokens)."""
    trace = trace_of(run)
    n = len(trace.steps)
    box = STEP_HEADER_CSS + '<div class="tl-step">'
    if k == 0:
        body = (
            f"<strong>Step 0 of {n}: before any merge.</strong>"
            f"<span>Every word is still single {'characters' if trace.config.unit == 'chars' else 'bytes'}.</span>"
        )
        return CHIPS_CSS + box + body + "</div>"
    s = trace.steps[k - 1]
    if hide_winner:
        return CHIPS_CSS + box + f"<strong>Merge {k} of {n}: which pair wins?</strong></div>"
    tok = trace.tokenizer

    def chip(label: str, token_id: int, hl: bool = False) -> str:
        c = Chip(_cut(label), token_id, whole=tok.is_whole(token_id), highlight=hl)
        return chips_html([c], label="token", runs=False)

    title = html.escape(_cut(step_summary(trace, k)), quote=True)
    return (
        CHIPS_CSS + box.replace('class="tl-step"', f'class="tl-step" title="{title}"')
        + f"<strong>Merge {k} of {n}:</strong>"
        + chip(s.left, s.pair[0]) + "<span>+</span>" + chip(s.right, s.pair[1]) + "<span>→</span>"
        + chip(s.token, s.token_id, True)
        + f"<span><strong>seen {html.escape(times(s.count))}</strong> · new token id {s.token_id}</span></div>"
    )
