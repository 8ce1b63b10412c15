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
from i18n import N_, _, _n, decimal, number
from tokenizer import TextTokenizer
from ui import charts, choices, state, tables
from ui.chips import Chip, token_chips
from ui.display import md_escape
from ui.language import per_language
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
#: Every kind a token can be (analyses.vocab.KINDS) as the page names it, marked for the catalogue (tested: the
#: same kinds).
KIND_NAMES = {
    "Latin": N_("Latin"), "Devanagari": N_("Devanagari"), "Bengali": N_("Bengali"), "Gurmukhi": N_("Gurmukhi"),
    "Gujarati": N_("Gujarati"), "Oriya": N_("Oriya"), "Tamil": N_("Tamil"), "Telugu": N_("Telugu"),
    "Kannada": N_("Kannada"), "Malayalam": N_("Malayalam"), "Sinhala": N_("Sinhala"), "Arabic": N_("Arabic"),
    "Hebrew": N_("Hebrew"), "Cyrillic": N_("Cyrillic"), "Greek": N_("Greek"), "Armenian": N_("Armenian"),
    "Georgian": N_("Georgian"), "Thai": N_("Thai"), "Lao": N_("Lao"), "Myanmar": N_("Myanmar"), "Khmer": N_("Khmer"),
    "Tibetan": N_("Tibetan"), "Ethiopic": N_("Ethiopic"), "Hangul": N_("Hangul"), "CJK": N_("CJK"),
    vocab.OTHER: N_("other scripts"), vocab.MIXED: N_("mixed"), vocab.NO_LETTERS: N_("no letters"),
    vocab.PARTIAL: N_("partial UTF-8"),
}


def kind_name(kind: str) -> str:
    """A script (or kind of token) in the learner's language."""
    return _(KIND_NAMES.get(kind, kind))


def intro(large: bool) -> None:
    """What the page is for, its lesson, and the one definition of a script's token (said at the end of the page in
    classroom mode, so the figure a lesson points at is on the first screen)."""
    if not large:
        st.caption(_(
            "A tokenizer's vocabulary decides what each language pays. Read the whole of it by script: how many "
            "tokens each script has, how long they are, and where in the merge order they come."
        ))
    lesson_link(10)
    if not classroom_on():
        definition()


def definition() -> None:
    st.info(_(vocab.DEFINITION), icon=":material/rule:")


def pick_section() -> list[tuple[str, TextTokenizer]]:
    """The tokenizer to read and one to set beside it (every production tokenizer; a lab model has too few
    tokens to read by script); [] after saying why when none can be read."""
    real = [e.key for e in choices.real_entries()]
    if not real:
        st.warning(_("No production tokenizer is installed here."), icon=":material/error:")
        return []
    left, right = st.columns(2)
    with left:
        key, tok = choices.pick_one(PAGE, default=DEFAULT_A if DEFAULT_A in real else real[0], kinds=("real",),
                                    label=_("Tokenizer"), upload=False)
    titles = {k: choices.title(k) for k in real}
    with right:
        state.restore([VS])
        if st.session_state.get(VS.skey) not in (*real, NONE):
            state.set_value(VS, NONE)
        titles[NONE] = _("nothing")
        other = st.selectbox(_("Beside it"), [*real, NONE], key=VS.skey, format_func=lambda k: titles.get(k, k))
    chosen = [(key, tok)] if tok is not None else []
    if other != NONE and other != key:
        try:
            chosen.append((other, choices.load(other)))
        except choices.Unavailable as exc:
            st.warning(md_escape(str(exc)), icon=":material/error:")
    return chosen


@st.cache_resource(show_spinner=False)
def read(key: str) -> vocab.Vocabulary:
    """A tokenizer's vocabulary by script, read once per server (the analysis keeps it too)."""
    return vocab.vocabulary(choices.load(key))


def vocabularies(chosen: list[tuple[str, TextTokenizer]]) -> list[vocab.Vocabulary]:
    """The chosen tokenizers' vocabularies, read by script (once per server)."""
    with st.spinner(_("Reading the whole vocabulary (once per server)…")):
        return [read(key) for key, _tok in chosen]


def counts_section(found: list[vocab.Vocabulary]) -> None:
    """Tokens per kind, every chosen tokenizer side by side."""
    rows = []
    for kind in vocab.KINDS:
        counts = [v.count(kind) for v in found]
        if any(counts):
            rows.append({"kind": kind_name(kind), **{f"{v.title}": c for v, c in zip(found, counts)},
                         **{f"{v.title}, share": c / v.tokens for v, c in zip(found, counts)}})
    with figure("vocab-counts"):
        st.subheader(_("Tokens per script"))
        sizes = " · ".join(_("{title}: {tokens} ordinary tokens ({special} special or unused ids)",
                             title=md_escape(v.title), tokens=number(v.tokens), special=number(v.special))
                           for v in found)
        st.caption(sizes)
        config = {"kind": st.column_config.TextColumn(_("kind"))}
        config |= {f"{v.title}, share": st.column_config.NumberColumn(_("{title}, share", title=v.title),
                                                                       format="percent") for v in found}
        tables.show(pd.DataFrame(rows), hide_index=True, key=COUNTS_TABLE.skey, column_config=config)


def pick_script() -> str:
    kinds = list(vocab.KINDS)
    names = {kind: kind_name(kind) for kind in kinds}
    return st.selectbox(_("Script"), kinds, key=SCRIPT.skey, format_func=names.__getitem__,
                        help=_("Each token counts for one kind: a script, mixed, no letters, or partial UTF-8."))


def script_section(found: list[vocab.Vocabulary], script: str, large: bool) -> None:
    """One script in every chosen tokenizer: its count, its tokens per 1,000 ranks, byte lengths, the longest."""
    name = kind_name(script)
    cols = st.columns(len(found))
    for col, v in zip(cols, found):
        s = v.summary(script)
        col.metric(_("{title}: {script} tokens", title=v.title, script=name), number(s["tokens"]),
                   help=_("{share} of its ordinary tokens", share=decimal(s["share"] * 100) + "%"))
    classroom = classroom_on()
    if len(found) == 2 and script in SCRIPTS and not classroom:
        st.markdown(premium_sentence(found[0], found[1], script))
    if not any(v.count(script) for v in found):
        st.info(_("No {script} token in {titles}.", script=name, titles=_(" or ").join(v.title for v in found)),
                icon=":material/block:")
        return
    with figure("vocab-curve"):
        st.markdown(_("**Where {script} tokens come in the merge order**: tokens of the script per 1,000 ranks",
                      script=name))
        charts.draw(curve_spec(tuple(v.key for v in found), script, large, SLIDE_CURVE_PX if classroom else None),
                    key=CURVE.skey)
    if len(found) == 2 and script in SCRIPTS and classroom:  # after the figure: it leads the projector's screen
        st.markdown(premium_sentence(found[0], found[1], script))
    st.caption(_("A merge's rank is when training learned it: early ranks are the commonest pairs of the training "
                 "text. A script whose tokens come late was rare in it."))
    if not classroom_on():
        st.markdown(_("**How long {script} tokens are**, in bytes", script=name))
        charts.draw(lengths_spec(tuple(v.key for v in found), script, large), key=LENGTHS.skey)
    for v in found:
        longest = v.longest(script, LONGEST)
        if longest:
            st.markdown(_("**The longest {script} tokens of {title}** (the number under each is its id)", script=name,
                          title=md_escape(v.title)))
            token_chips([_chip(v, i, text) for i, _rank, text in longest], show_ids=True,
                        label=_("longest {script} tokens of {title}", script=name, title=v.title))


def premium_sentence(a: vocab.Vocabulary, b: vocab.Vocabulary, script: str) -> str:
    """What the two counts do to lesson 4's Hindi sentence (Devanagari), or the counts alone."""
    line = _("{a} has **{count_a}** {script} tokens, {b} **{count_b}**.", a=md_escape(a.title),
             count_a=number(a.count(script)), script=kind_name(script), b=md_escape(b.title),
             count_b=number(b.count(script)))
    if script != "Devanagari":
        return line
    counts = [choices.encoded(v.key, PAIR["test_hi"], 0).measure.tokens for v in (a, b)]
    english = [choices.encoded(v.key, PAIR["test_en"], 0).measure.tokens for v in (a, b)]
    return line + " " + _(
        "Lesson 4's Hindi sentence costs {tokens_a} in {a} and {tokens_b} in {b} (English: {en_a} and {en_b}): a "
        "tokenizer with few Devanagari tokens spells Hindi in letters and bytes.",
        tokens_a=_n("{n} token", "{n} tokens", counts[0]), a=md_escape(a.title),
        tokens_b=_n("{n} token", "{n} tokens", counts[1]), b=md_escape(b.title), en_a=english[0], en_b=english[1])


def _chip(v: vocab.Vocabulary, token_id: int, text: str) -> Chip:
    data = choices.load(v.key).token_bytes(token_id)
    from tokenizer import bytes_label, is_whole

    return Chip(bytes_label(data), token_id, whole=is_whole(data), data=data)


@per_language(max_entries=64)
def curve_spec(keys: tuple[str, ...], script: str, large: bool, height: int | None = None) -> dict:
    """A script's tokens per 1,000 ranks, a line a tokenizer; ``height``: the chart's, on a slide (the projector's
    screen under the page's metrics), else nine bands of its type."""
    rows = []
    for key in keys:
        v = read(key)
        rows += [{"tokenizer": v.title, "rank (thousands)": i, "tokens": n} for i, n in enumerate(v.curve(script))]
    s = charts.sizes(large)
    chart = alt.Chart(pd.DataFrame(rows)).mark_line(strokeWidth=2.5 if large else 1.5).encode(
        x=alt.X("rank (thousands):Q", title=_("rank, in thousands")),
        y=alt.Y("tokens:Q", title=_("tokens per 1,000 ranks")),  # the script: in the heading above the chart
        color=alt.Color("tokenizer:N", scale=alt.Scale(range=[charts.BLUE, charts.ORANGE]),
                        legend=alt.Legend(orient="top", title=None)),
        strokeDash="tokenizer:N",
    ).properties(height=height or s.step * 9)
    return charts.spec(chart, large=large)


@per_language(max_entries=64)
def lengths_spec(keys: tuple[str, ...], script: str, large: bool) -> dict:
    rows = []
    for key in keys:
        v = read(key)
        rows += [{"tokenizer": v.title, "bytes": n, "tokens": c} for n, c in v.length_counts(script).items()]
    s = charts.sizes(large)
    chart = alt.Chart(pd.DataFrame(rows)).mark_bar(stroke=charts.TEXT, strokeWidth=0.5).encode(
        x=alt.X("bytes:O", title=_("bytes in the token")),
        xOffset="tokenizer:N",
        y=alt.Y("tokens:Q", title=_("tokens")),
        color=alt.Color("tokenizer:N", scale=alt.Scale(range=[charts.BLUE, charts.ORANGE]),
                        legend=alt.Legend(orient="top", title=None)),
    ).properties(height=s.step * 7)
    return charts.spec(chart, large=large)


def search_section(found: list[vocab.Vocabulary]) -> None:
    """Tokens containing a string, in every chosen tokenizer."""
    st.text_input(_("Find tokens that contain"), key=FIND.skey, max_chars=MAX_FIND,
                  placeholder=_("for example: {text}", text="वाला"),
                  help=_("Up to {n} characters; its UTF-8 bytes are looked for inside every token's bytes.",
                         n=number(MAX_FIND)))
    needle = state.value(FIND) or ""
    if not needle:
        return
    for v in found:
        n, hits = v.search(needle, SHOWN_HITS)
        st.markdown(f"**{md_escape(v.title)}**: " + _n("{n} token contains it", "{n} tokens contain it", n)
                    + (_(" (the first {n} by rank)", n=SHOWN_HITS) if n > SHOWN_HITS else ""))
        if hits:
            token_chips([_chip(v, i, text) for i, _rank, text, _more in hits], show_ids=True,
                        label=_("tokens of {title}", title=v.title))


__all__ = ["PARAMS", "counts_section", "definition", "intro", "pick_script", "pick_section", "script_section",
           "search_section", "vocabularies"]
