"""What the "Vocabulary by script" page draws: a production tokenizer's whole vocabulary read by script
(:mod:`analyses.vocab`), two tokenizers side by side.

The page composes the sections here inside ``state.published(PARAMS)``: :func:`intro` (the one definition of a
script's token), :func:`pick_section`, :func:`counts_section` (tokens per script), :func:`script_section` (one
script: its count, where in the rank order its tokens are, their byte lengths, the longest) and
:func:`search_section`. Every figure is read from arrays built once per tokenizer and process; charts are built
once per (tokenizers, script, type size).
"""

from __future__ import annotations

import altair as alt
import pandas as pd
import streamlit as st

import lessons
from analyses import vocab
from tokenizer import TextTokenizer
from ui import charts, choices, state, tables
from ui.chips import Chip, token_chips
from ui.display import md_escape, plural
from ui.layout import classroom_on, figure
from ui.links import lesson_link
from ui.state import Key, Param

PAGE = "vocab"
DEFAULT_A, DEFAULT_B = "o200k_base", "cl100k_base"
SCRIPTS = vocab.SCRIPTS
MAX_FIND = vocab.MAX_NEEDLE
LONGEST = 12
SHOWN_HITS = 60
PAIR = lessons.data("lesson4_english_hindi")

VS = Param(PAGE, "vs", DEFAULT_B, max_len=40)
SCRIPT = Param(PAGE, "script", "Devanagari", choices=vocab.KINDS)
FIND = Param(PAGE, "find", "", max_len=MAX_FIND)
PARAMS = [VS, SCRIPT, FIND]
TOK = choices.one_key(PAGE)
COUNTS_TABLE = Key(PAGE, "counts_table")
CURVE = Key(PAGE, "curve")
LENGTHS = Key(PAGE, "lengths")
NONE = "none"
SLIDE_CURVE_PX = 440
"""The curve's height on a slide (classroom mode): the pickers folded, the metrics above it, the whole figure on a
1920x1080 projector's first screen."""


def intro(large: bool) -> None:
    """What the page is for, its lesson, and the one definition of a script's token (said at the end of the page in
    classroom mode, so the figure a lesson points at is on the first screen)."""
    if not large:
        st.caption(
            "A tokenizer's vocabulary decides what each language pays. Read the whole of it by script: how many "
            "tokens each script has, how long they are, and where in the merge order they come."
        )
    lesson_link(10)
    if not classroom_on():
        definition()


def definition() -> None:
    st.info(vocab.DEFINITION, icon=":material/rule:")


def pick_section() -> list[tuple[str, TextTokenizer]]:
    """The tokenizer to read and one to set beside it (every production tokenizer; a lab model has too few
    tokens to read by script); [] after saying why when none can be read."""
    real = [e.key for e in choices.real_entries()]
    if not real:
        st.warning("No production tokenizer is installed here.", icon=":material/error:")
        return []
    left, right = st.columns(2)
    with left:
        key, tok = choices.pick_one(PAGE, default=DEFAULT_A if DEFAULT_A in real else real[0], kinds=("real",),
                                    label="Tokenizer", upload=False)
    titles = {k: choices.title(k) for k in real}
    with right:
        state.restore([VS])
        if st.session_state.get(VS.skey) not in (*real, NONE):
            state.set_value(VS, NONE)
        other = st.selectbox("Beside it", [*real, NONE], key=VS.skey,
                             format_func=lambda k: "nothing" if k == NONE else titles.get(k, k))
    chosen = [(key, tok)] if tok is not None else []
    if other != NONE and other != key:
        try:
            chosen.append((other, choices.load(other)))
        except choices.Unavailable as exc:
            st.warning(md_escape(str(exc)), icon=":material/error:")
    return chosen


@st.cache_resource(show_spinner="Reading the whole vocabulary (once per server)…")
def read(key: str) -> vocab.Vocabulary:
    """A tokenizer's vocabulary by script, read once per server (the analysis keeps it too)."""
    return vocab.vocabulary(choices.load(key))


def vocabularies(chosen: list[tuple[str, TextTokenizer]]) -> list[vocab.Vocabulary]:
    """The chosen tokenizers' vocabularies, read by script (once per server)."""
    return [read(key) for key, _ in chosen]


def counts_section(found: list[vocab.Vocabulary]) -> None:
    """Tokens per kind, every chosen tokenizer side by side."""
    rows = []
    for kind in vocab.KINDS:
        counts = [v.count(kind) for v in found]
        if any(counts):
            rows.append({"kind": kind, **{f"{v.title}": c for v, c in zip(found, counts)},
                         **{f"{v.title}, share": c / v.tokens for v, c in zip(found, counts)}})
    with figure("vocab-counts"):
        st.subheader("Tokens per script")
        sizes = " · ".join(f"{md_escape(v.title)}: {v.tokens:,} ordinary tokens ({v.special:,} special or unused ids)"
                           for v in found)
        st.caption(sizes)
        config = {f"{v.title}, share": st.column_config.NumberColumn(format="percent") for v in found}
        tables.show(pd.DataFrame(rows), hide_index=True, key=COUNTS_TABLE.skey, column_config=config)


def pick_script() -> str:
    kinds = list(vocab.KINDS)
    return st.selectbox("Script", kinds, key=SCRIPT.skey,
                        help="Each token counts for one kind: a script, mixed, no letters, or partial UTF-8.")


def script_section(found: list[vocab.Vocabulary], script: str, large: bool) -> None:
    """One script in every chosen tokenizer: its count, its tokens per 1,000 ranks, byte lengths, the longest."""
    cols = st.columns(len(found))
    for col, v in zip(cols, found):
        s = v.summary(script)
        col.metric(f"{v.title}: {script} tokens", f"{s['tokens']:,}", help=f"{s['share']:.2%} of its ordinary tokens")
    classroom = classroom_on()
    if len(found) == 2 and script in SCRIPTS and not classroom:
        st.markdown(premium_sentence(*found, script))
    if not any(v.count(script) for v in found):
        st.info(f"No {script} token in {' or '.join(v.title for v in found)}.", icon=":material/block:")
        return
    with figure("vocab-curve"):
        st.markdown(f"**Where {script} tokens come in the merge order**: tokens of the script per 1,000 ranks")
        charts.draw(curve_spec(tuple(v.key for v in found), script, large, SLIDE_CURVE_PX if classroom else None),
                    key=CURVE.skey)
    if len(found) == 2 and script in SCRIPTS and classroom:  # after the figure: it leads the projector's screen
        st.markdown(premium_sentence(*found, script))
    st.caption("A merge's rank is when training learned it: early ranks are the commonest pairs of the training "
               "text. A script whose tokens come late was rare in it.")
    if not classroom_on():
        st.markdown(f"**How long {script} tokens are**, in bytes")
        charts.draw(lengths_spec(tuple(v.key for v in found), script, large), key=LENGTHS.skey)
    for v in found:
        longest = v.longest(script, LONGEST)
        if longest:
            st.markdown(f"**The longest {script} tokens of {md_escape(v.title)}** (the number under each is its id)")
            token_chips([_chip(v, i, text) for i, _, text in longest], show_ids=True,
                        label=f"longest {script} tokens of {v.title}")


def premium_sentence(a: vocab.Vocabulary, b: vocab.Vocabulary, script: str) -> str:
    """What the two counts do to lesson 4's Hindi sentence (Devanagari), or the counts alone."""
    line = (f"{md_escape(a.title)} has **{a.count(script):,}** {script} tokens, {md_escape(b.title)} "
            f"**{b.count(script):,}**.")
    if script != "Devanagari":
        return line
    counts = [choices.encoded(v.key, PAIR["test_hi"], 0).measure.tokens for v in (a, b)]
    english = [choices.encoded(v.key, PAIR["test_en"], 0).measure.tokens for v in (a, b)]
    return line + (f" Lesson 4's Hindi sentence costs {plural(counts[0], 'token')} in {md_escape(a.title)} and "
                   f"{plural(counts[1], 'token')} in {md_escape(b.title)} (English: {english[0]} and {english[1]}): "
                   "a tokenizer with few Devanagari tokens spells Hindi in letters and bytes.")


def _chip(v: vocab.Vocabulary, token_id: int, text: str) -> Chip:
    data = choices.load(v.key).token_bytes(token_id)
    from tokenizer import bytes_label, is_whole

    return Chip(bytes_label(data), token_id, whole=is_whole(data), data=data)


@st.cache_data(max_entries=64, show_spinner=False)
def curve_spec(keys: tuple[str, ...], script: str, large: bool, height: int | None = None) -> dict:
    """A script's tokens per 1,000 ranks, a line a tokenizer; ``height``: the chart's, on a slide (the projector's
    screen under the page's metrics), else nine bands of its type."""
    rows = []
    for key in keys:
        v = read(key)
        rows += [{"tokenizer": v.title, "rank (thousands)": i, "tokens": n} for i, n in enumerate(v.curve(script))]
    s = charts.sizes(large)
    chart = alt.Chart(pd.DataFrame(rows)).mark_line(strokeWidth=2.5 if large else 1.5).encode(
        x=alt.X("rank (thousands):Q", title="rank, in thousands"),
        y=alt.Y("tokens:Q", title="tokens per 1,000 ranks"),  # the script: in the heading above the chart
        color=alt.Color("tokenizer:N", scale=alt.Scale(range=[charts.BLUE, charts.ORANGE]),
                        legend=alt.Legend(orient="top", title=None)),
        strokeDash="tokenizer:N",
    ).properties(height=height or s.step * 9)
    return charts.spec(chart, large=large)


@st.cache_data(max_entries=64, show_spinner=False)
def lengths_spec(keys: tuple[str, ...], script: str, large: bool) -> dict:
    rows = []
    for key in keys:
        v = read(key)
        rows += [{"tokenizer": v.title, "bytes": n, "tokens": c} for n, c in v.length_counts(script).items()]
    s = charts.sizes(large)
    chart = alt.Chart(pd.DataFrame(rows)).mark_bar(stroke=charts.TEXT, strokeWidth=0.5).encode(
        x=alt.X("bytes:O", title="bytes in the token"),
        xOffset="tokenizer:N",
        y=alt.Y("tokens:Q", title="tokens"),
        color=alt.Color("tokenizer:N", scale=alt.Scale(range=[charts.BLUE, charts.ORANGE]),
                        legend=alt.Legend(orient="top", title=None)),
    ).properties(height=s.step * 7)
    return charts.spec(chart, large=large)


def search_section(found: list[vocab.Vocabulary]) -> None:
    """Tokens containing a string, in every chosen tokenizer."""
    st.text_input("Find tokens that contain", key=FIND.skey, max_chars=MAX_FIND, placeholder="for example: वाला",
                  help=f"Up to {MAX_FIND} characters; its UTF-8 bytes are looked for inside every token's bytes.")
    needle = state.value(FIND) or ""
    if not needle:
        return
    for v in found:
        n, hits = v.search(needle, SHOWN_HITS)
        st.markdown(f"**{md_escape(v.title)}**: {plural(n, 'token')} contain{'s' if n == 1 else ''} it"
                    + (f" (the first {SHOWN_HITS} by rank)" if n > SHOWN_HITS else ""))
        if hits:
            token_chips([_chip(v, i, text) for i, _, text, _ in hits], show_ids=True, label=f"tokens of {v.title}")


__all__ = ["PARAMS", "counts_section", "definition", "intro", "pick_script", "pick_section", "script_section",
           "search_section", "vocabularies"]
