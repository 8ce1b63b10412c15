"""What the "Train step by step" page draws: settings, the step view's pieces, its sentences.

The page reads its widgets, gets a :class:`tokenizer.Trace` from
:mod:`ui.training` and hands the trace and a step number to the helpers here.
Nothing here re-implements BPE: the helpers read the trace and ask the
trained tokenizer to segment a word after the first *k* merges.

Step semantics (the page says them in words too): step 0 is before any merge;
step *k* shows the pair table *before* merge *k*, the pair it picked, and the
corpus *after* merge *k*.

Everything a click redraws is cached per (trace, step): the caches are keyed
by the very trace they draw (:func:`trace_name`), which ``ui.training`` shares
between learners, so a classroom stepping through the same preset shares the
work, and two different runs can never get each other's output.
"""

from __future__ import annotations

import hashlib
import html
import json
import threading
import unicodedata
import uuid
import weakref
from functools import lru_cache
from typing import Any

import altair as alt
import pandas as pd
import regex
import streamlit as st

from tokenizer import UNKNOWN_ID, MergeStep, Trace
from tokenizer.export import to_hf_json
from tokenizer.io import tokenizer_to_json, trace_rows, trace_to_dict
from ui import charts
from ui.chips import CSS as CHIPS_CSS
from ui.chips import Chip, chips_html, word_rows_html
from ui.display import join_words, pair_text, plural, visible_token
from ui.training import MAX_CORPUS_CHARS, MAX_MERGES
from ui.predict import Question
from ui.presets import (
    MARKER_CHOICES,
    OWN,
    SPLIT_NAMES,
    TIE_NAMES,
    UNIT_NAMES,
    Settings,
    preset_ids,
    preset_settings,
)
from ui.state import Key, Param
from ui.steps import Stepper

PAGE = "train"
TEXT_IN_LINK = 400  # own text up to this many characters goes into the shareable link
TOP_WORDS = 40  # corpus words shown as chips
GUESS_OPTIONS = 5  # pairs offered in "predict first"
MAX_LISTED_TIES = 5  # tied pairs named in the tie sentence
MAX_SOURCES = 6  # words named in "how the count adds up"


WINNER_COLOUR = charts.ORANGE
TIE_COLOUR = charts.SAND
OTHER_COLOUR = charts.BLUE
STATUS_WINNER = "winner"
STATUS_TIE = "tied, lost the tie"
STATUS_OTHER = "other pairs"
STATUS_TOP = "top count"  # step 0: the most frequent pairs, before merge 1 picks one

# -- The page's session keys, declared once (the page, the warm-up, the benchmarks and the tests import them) --
PRESET = Param(PAGE, "preset", "chai", choices=preset_ids())
TEXT = Param(PAGE, "text", "", max_len=TEXT_IN_LINK)
STEP = Param(PAGE, "step", 0, lo=0, hi=MAX_MERGES)
PREDICT = Param(PAGE, "predict", False)
STEPPER = Stepper(STEP)
FIRST, PREV, NEXT, LAST = (STEPPER.key(name) for name in ("first", "prev", "next", "last"))
UPLOAD = Key(PAGE, "upload")
RESET = Key(PAGE, "reset")  # "Use the preset's settings"
CHART = Key(PAGE, "chart")
TABLE_OPEN = Key(PAGE, "table_open")
MERGES_TABLE = Key(PAGE, "merges_table")
CODE_OPEN = Key(PAGE, "code_open")
DL_MODEL = Key(PAGE, "dl_model")
DL_TRACE_JSON = Key(PAGE, "dltrace_json")
DL_TRACE_CSV = Key(PAGE, "dltrace_csv")
DL_HF = Key(PAGE, "dl_hf")
#: The trainer's settings, by the name :class:`ui.presets.Settings` gives each; their Params (with the chosen
#: preset's defaults) come from :func:`setting_params`.
SETTING = {name: Key(PAGE, name) for name in ("unit", "split", "pattern", "marker", "marker_text", "ties", "merges")}


def setting_params(defaults: Settings) -> dict[str, Param]:
    """URL parameters for the settings; their defaults are the chosen preset's, so a
    link carries only what the learner changed (``?preset=chai&step=3``)."""
    rules: dict[str, dict[str, Any]] = {
        "unit": {"choices": ("chars", "bytes")},
        "split": {"choices": ("whitespace", "regex")},
        "pattern": {"max_len": 200},
        "marker": {"choices": MARKER_CHOICES},
        "marker_text": {"max_len": 12},
        "ties": {"choices": ("first", "hf")},
        "merges": {"lo": 0, "hi": MAX_MERGES},
    }
    return {name: Param(key.page, key.name, getattr(defaults, name), **rules[name]) for name, key in SETTING.items()}


def current_settings(params: dict[str, Param]) -> Settings:
    s = st.session_state
    return Settings(**{name: s.get(p.skey, p.default) for name, p in params.items()})


def apply_preset() -> None:
    """on_change of the preset box (and "use the preset's settings"): the preset's settings, step 0."""
    preset_id = st.session_state.get(PRESET.skey, PRESET.default)
    for param in setting_params(preset_settings(preset_id)).values():
        st.session_state[param.skey] = param.default
    STEPPER.reset()  # step 0, autoplay off


def changed_settings(current: Settings, preset: Settings) -> list[str]:
    """Which settings differ from the preset's, in words."""
    out = []
    if current.unit != preset.unit:
        out.append(f"unit (preset: {UNIT_NAMES[preset.unit]})")
    if current.split != preset.split:
        out.append(f"pre-split (preset: {SPLIT_NAMES[preset.split]})")
    elif current.split == "regex" and current.pattern != preset.pattern:
        out.append("the regex pattern")
    if current.end_of_word != preset.end_of_word:
        out.append("the end-of-word marker")
    if current.ties != preset.ties:
        out.append(f"tie rule (preset: {TIE_NAMES[preset.ties]})")
    if current.merges != preset.merges:
        out.append(f"number of merges (preset: {preset.merges})")
    return out


# --- Own text --------------------------------------------------------------------------------


def text_problem(text: str) -> tuple[str, str] | None:
    """("info" | "warning", message) when the text cannot be trained on, else None."""
    if len(text) > MAX_CORPUS_CHARS:
        return "warning", (
            f"This text is {len(text):,} characters long; the lab trains on up to {MAX_CORPUS_CHARS:,} "
            "characters (about 2 MB). Paste a shorter extract: a few pages already show every idea."
        )
    if not text.strip():
        return "info", (
            "Type or paste some text above, or upload a .txt file, to train on it. "
            "A few sentences are enough; repeated words make the merges easy to follow."
        )
    return None


@st.cache_data(max_entries=64, show_spinner=False)
def text_notes(text: str) -> list[str]:
    """Friendly notes about tricky text (nothing here stops training)."""
    sample = text[:100_000]
    notes = []
    controls = sorted({ch for ch in sample if unicodedata.category(ch) == "Cc" and ch not in "\n\t\r"})
    if controls:
        shown = ", ".join(f"U+{ord(ch):04X}" for ch in controls[:3])
        notes.append(
            f"Your text has control characters ({shown}). They are kept as they are and shown by their code "
            "point in the chips; delete them if they got in by accident."
        )
    if any(len(g) > 1 for g in regex.findall(r"\X", sample) if not g.isspace()):
        notes.append(
            "Some characters you see are built from several code points: a letter with a combining mark "
            "(such as a Devanagari vowel sign), or an emoji joined with U+200D. BPE starts from code points "
            "(or bytes), so it has to learn to glue those back together; until it does, one character you see "
            "can be split across chips."
        )
    if any(unicodedata.bidirectional(ch) in ("R", "AL") for ch in sample):
        notes.append(
            "Right-to-left text (Arabic, Urdu, Hebrew): each chip shows its letters in reading order, "
            "and the chips of a word are laid out left to right in the order BPE stores them."
        )
    if "<" in sample and ">" in sample:
        notes.append("Markup such as HTML tags is treated as plain text: it is counted and shown, never run.")
    return notes


def punctuation_note(trace: Trace) -> str | None:
    """With the whitespace split, "hain," and "hain" are different words: say so when it happens."""
    if trace.config.split != "whitespace":
        return None
    words = {w for w, _ in trace.words[:20_000]}
    for word in words:
        bare = word.strip(".,!?;:'\"()[]«»“”‘’।")
        if bare and bare != word and bare in words:
            return (
                f"With the whitespace split, “{word}” and “{bare}” are different words: punctuation stays glued "
                "to the word before it, so BPE counts them apart (a regex pre-split can cut it off)."
            )
    return None


def marker_problem(settings: Settings) -> str | None:
    """A custom marker the learner has not finished typing, in words. (A marker that clashes with
    the text is refused by the engine, whose message the page shows.)"""
    if settings.marker == "custom" and not settings.marker_text:
        return "The custom end-of-word marker is empty: type one (such as </w>), or choose none."
    if settings.marker == "custom" and any(ch.isspace() for ch in settings.marker_text):
        return "An end-of-word marker cannot contain spaces: type one without spaces (such as </w>)."
    return None


def session_model_title(source: str, text: str, settings: Settings, n_merges: int) -> str:
    """A session model's name: where it came from, the start of its text, its settings."""
    start = " ".join(text.split()[:4])
    if len(start) > 32:
        start = start[:32] + "…"
    unit = "chars" if settings.unit == "chars" else "bytes"
    return f"{source} “{start}” ({unit}, {plural(n_merges, 'merge')})"


# --- Caches keyed by the trace they draw -------------------------------------------------------------

_NAMES: dict[int, tuple[weakref.ref, str]] = {}  # id(trace) -> (the trace, weakly; its name)
_NAMES_LOCK = threading.Lock()


def trace_name(trace: Trace) -> str:
    """A name for this very trace object, never given to another: what the caches below hash a trace by.

    A trace holds its whole corpus, so hashing its contents on every click would cost more than the drawing it
    saves. ``ui.training`` hands every learner the same trace object for the same corpus and settings, so one
    name per object shares the cached drawings between learners; a trace trained again (after it left the
    training cache) is a new object with a new name, so it never meets a stale entry, even at a reused ``id``.
    """
    with _NAMES_LOCK:
        known = _NAMES.get(id(trace))
        if known is not None and known[0]() is trace:
            return known[1]
        for key in [key for key, (ref, _) in _NAMES.items() if ref() is None]:  # traces gone since
            del _NAMES[key]
        name = uuid.uuid4().hex
        _NAMES[id(trace)] = (weakref.ref(trace), name)
        return name


BY_TRACE = {Trace: trace_name}
"""``hash_funcs`` for the caches here: a trace argument is hashed by :func:`trace_name`."""


# --- The pair-count table ------------------------------------------------------------


def pair_rows(step: MergeStep, *, reveal: bool = True, limit: int | None = None) -> list[dict[str, Any]]:
    """The table before ``step``'s merge, one dict per pair, in rank order.

    ``reveal=False`` (step 0, or while predicting) marks the top-count pairs without naming a winner.
    """
    tied = {t.pair for t in step.ties} if step.n_tied > 1 else set()
    rows = []
    for rank, pc in enumerate(step.table[:limit], start=1):
        if not reveal:
            status = STATUS_TOP if pc.count == step.count else STATUS_OTHER
        elif pc.pair == step.pair:
            status = STATUS_WINNER
        elif pc.pair in tied or (step.n_tied > len(step.ties) and pc.count == step.count):
            status = STATUS_TIE
        else:
            status = STATUS_OTHER
        rows.append(
            {
                "rank": rank,
                "pair": pair_text(pc.left, pc.right),
                "left": visible_token(pc.left),
                "right": visible_token(pc.right),
                "count": pc.count,
                "status": status,
            }
        )
    return rows


CHART_DATA = "pairs"
STATUSES = (STATUS_WINNER, STATUS_TIE, STATUS_TOP, STATUS_OTHER)
STATUS_COLOURS = (WINNER_COLOUR, TIE_COLOUR, TIE_COLOUR, OTHER_COLOUR)


def chart_records(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The chart's data: one record per pair, with its bar label and the text drawn after the bar."""
    suffix = {STATUS_WINNER: "  ← winner", STATUS_TIE: "  tie"}
    return [{**r, "bar": f"{r['rank']}. {r['pair']}", "mark": f"{r['count']:,}{suffix.get(r['status'], '')}"}
            for r in rows]


def pair_chart(*, large: bool = False) -> alt.LayerChart:
    """Horizontal bars, one per pair, in rank order: the winner orange, the pairs it
    beat on a tie yellow with a dashed outline, a text mark naming both.

    The chart reads named data (``CHART_DATA``): it is the template that
    :func:`pair_chart_spec` fills in for each step."""
    return charts.ranked_bars(
        CHART_DATA, x="count", x_title="times seen before this merge", statuses=STATUSES, colours=STATUS_COLOURS,
        dashed=STATUS_TIE, large=large,
        tooltip=[alt.Tooltip("pair:N", title="pair"), alt.Tooltip("count:Q", title="times seen"),
                 alt.Tooltip("status:N", title="note")],
    )


@lru_cache(maxsize=2)
def _template(large: bool) -> str:
    """The chart with no data, as JSON (built and validated by Altair once per process)."""
    return json.dumps(charts.themed(pair_chart(large=large), large=large).to_dict())


def _fill(spec: dict, rows: list[dict[str, Any]], large: bool) -> dict:
    """Put one step's rows into a chart spec: its data, the x range, the legend's entries."""
    return charts.fill_ranked_bars(spec, chart_records(rows), data_name=CHART_DATA, x="count", statuses=STATUSES,
                                   headroom=1.75 if large else 1.3)  # room for the label


@st.cache_data(max_entries=512, show_spinner=False)
def pair_chart_spec(rows: tuple[tuple[tuple[str, Any], ...], ...], large: bool = False) -> dict:
    """One step's chart as a Vega-Lite spec: the validated template, filled with this table.

    Building an Altair chart costs ~45 ms a step (too much for a classroom's clicks); filling the
    template costs well under 1 ms. ``rows`` is :func:`rows_key` of :func:`pair_rows`.
    """
    return _fill(json.loads(_template(large)), [dict(r) for r in rows], large)


def rows_key(rows: list[dict[str, Any]]) -> tuple[tuple[tuple[str, Any], ...], ...]:
    return tuple(tuple(r.items()) for r in rows)


# --- Sentences -------------------------------------------------------------------------


def times(n: int) -> str:
    return plural(n, "time")


def step_summary(trace: Trace, k: int) -> str:
    """ "Merge 3 of 7: cha + i → chai, seen 5 times." (plain text)."""
    s = trace.steps[k - 1]
    return (
        f"Merge {k} of {len(trace.steps)}: {pair_text(s.left, s.right)} → {visible_token(s.token)}, "
        f"seen {times(s.count)}."
    )


@st.cache_data(max_entries=512, show_spinner=False, hash_funcs=BY_TRACE)
def count_breakdown(trace: Trace, k: int) -> str:
    """How merge k's count adds up, word by word: "chai ×3 + chaiwala ×2 + … = 11" (cached per trace and step)."""
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


@st.cache_data(max_entries=512, show_spinner=False, hash_funcs=BY_TRACE)
def explain(trace: Trace, k: int) -> str:
    """:func:`tie_explanation` with notes, cached per trace and step."""
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


def tie_explanation(trace: Trace, k: int) -> str:
    """The tie at merge k and the rule that broke it, in plain words (plain text)."""
    s = trace.steps[k - 1]
    winner = pair_text(s.left, s.right)
    if s.n_tied <= 1:
        runner = next((pc for pc in s.table if pc.pair != s.pair), None)
        if runner is None:
            return f"No tie: {winner} is the only pair left."
        return (
            f"No tie: {winner} was seen {times(s.count)}, more than any other pair "
            f"(next best: {pair_text(runner.left, runner.right)}, {times(runner.count)})."
        )
    names = [pair_text(t.left, t.right) for t in s.ties[:MAX_LISTED_TIES]]
    more = s.n_tied - len(names)
    listed = join_words(names, more) + ("" if not more else " pair" if more == 1 else " pairs")
    both = "both" if s.n_tied == 2 else "all"
    head = f"Tie: {listed} were {both} seen {times(s.count)}."
    if trace.config.ties == "hf":
        numbered = ", ".join(
            f"{pair_text(t.left, t.right)} is ({trace.hf_number(t.pair[0])}, {trace.hf_number(t.pair[1])})"
            for t in s.ties[:MAX_LISTED_TIES]
        )
        return (
            f"{head} Rule 'hf', the order of Hugging Face tokenizers: number the base symbols in sorted order "
            f"(bytes by the printable character that stands for each), and merged tokens after them in the order "
            f"they were made. The tied pair whose left token has the smallest number wins (then the smallest "
            f"right number). Here {numbered}. So {winner} wins."
        )
    if s.first_seen is None:
        return f"{head} Rule 'first seen': the tied pair met first, reading the words in order, wins: {winner}."
    w, position = s.first_seen
    shown = [visible_token(word) for word, _ in trace.words[: max(3, w + 1)][:6]]
    words = ", ".join(shown) + (", …" if len(trace.words) > len(shown) else "")
    word = visible_token(trace.words[w][0])
    where = f"as the very first pair of “{word}”" if position == 0 and w == 0 else f"in “{word}”"
    return (
        f"{head} Rule 'first seen': read the words in the order they first appear ({words}), each left to "
        f"right; the tied pair met first wins. {winner} is met first, {where}. So it wins."
    )


# --- Corpus words as chips ----------------------------------------------------------------


@st.cache_resource(max_entries=32, show_spinner=False, hash_funcs=BY_TRACE)
def _top_words(trace: Trace, limit: int) -> list[tuple[str, int]]:
    """The ``limit`` most frequent distinct words (ties: first appearance first). Cached per trace."""
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
        chips.append(Chip(f"… {len(ids) - LONG_WORD:,} more tokens", None))
    return chips


@st.cache_data(max_entries=512, show_spinner=False, hash_funcs=BY_TRACE)
def corpus_html(trace: Trace, k: int, *, highlight_id: int | None = None, limit: int = TOP_WORDS) -> str:
    """The most frequent corpus words after ``k`` merges: each word, its chips, its count (cached per trace and step)."""
    rows = [(_cut(word), word_chips(trace, word, k, highlight_id), count) for word, count in _top_words(trace, limit)]
    return CHIPS_CSS + word_rows_html(rows)


LARGE_TOP_WORDS = 7  # on a projector: the rows that fit on the first screen


def corpus_caption(trace: Trace, limit: int = TOP_WORDS) -> str:
    n = len(trace.words)
    total = trace.total_words
    if n <= limit:
        return f"{plural(n, 'distinct word')}, {total:,} in all; each row is one word, its tokens and how often it occurs."
    return f"{n:,} distinct words ({total:,} in all): showing the {limit} most frequent, each with how often it occurs."


@st.cache_data(max_entries=1024, show_spinner=False, hash_funcs=BY_TRACE)
def corpus_tokens(trace: Trace, k: int, max_words: int = 2_000) -> int | None:
    """How many tokens the whole corpus is after k merges (None for big corpora). Cached per trace and step."""
    if len(trace.words) > max_words:
        return None
    tok = trace.tokenizer
    return sum(count * len(tok.segment(word, k)) for word, count in trace.words)


def base_symbols_html(trace: Trace, limit: int = 120) -> tuple[str, int]:
    """The base symbols the corpus uses, as chips; and how many base symbols the vocabulary has."""
    tok = trace.tokenizer
    seen: dict[int, None] = {}
    for word, _ in trace.words:
        for token_id in tok.segment(word, 0):
            seen.setdefault(token_id, None)
        if len(seen) >= limit:
            break
    chips = [Chip(tok.label(i), i, whole=tok.is_whole(i)) for i in seen if i != UNKNOWN_ID]
    return CHIPS_CSS + chips_html(chips, show_ids=True, label="base symbols"), tok.first_merge_id


@st.cache_data(max_entries=512, show_spinner=False, hash_funcs=BY_TRACE)
def step_header_html(trace: Trace, k: int, *, hide_winner: bool = False) -> str:
    """A big line: "Merge 3 of 7: [cha] + [i] → [chai] seen 5 times" (chips for the tokens)."""
    n = len(trace.steps)
    box = '<div class="tl-step" style="display:flex;flex-wrap:wrap;align-items:center;gap:.4em;font-size:1.3em">'
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


def learned_tokens_html(trace: Trace, k: int, limit: int = 40) -> str:
    """The tokens merges 1..k made, newest highlighted (the last ``limit`` of them)."""
    tok = trace.tokenizer
    steps = trace.steps[max(0, k - limit) : k]
    chips = [
        Chip(s.token, s.token_id, whole=tok.is_whole(s.token_id), highlight=s.step == k, note=f"merge {s.step}")
        for s in steps
    ]
    return CHIPS_CSS + chips_html(chips, show_ids=True, label="tokens learned so far", runs=False)


@st.cache_data(max_entries=64, show_spinner=False, hash_funcs=BY_TRACE)
def merges_frame(trace: Trace, k: int) -> pd.DataFrame:
    """Merges 1..k as a table, with plain column names (cached per trace and step)."""
    rows = trace_rows(trace)[:k]
    frame = pd.DataFrame(rows, columns=["step", "left", "right", "token", "token_id", "count", "tied_pairs", "vocab_size"])
    for column in ("left", "right", "token"):
        frame[column] = frame[column].map(visible_token)
    frame["tied_pairs"] = [n - 1 if n > 1 else None for n in frame["tied_pairs"]]
    frame["tied_pairs"] = frame["tied_pairs"].astype("Int64")
    return frame.rename(
        columns={"token_id": "new id", "count": "times seen", "tied_pairs": "other pairs with that count",
                 "vocab_size": "vocabulary size"}
    )


# --- Predict first ---------------------------------------------------------------------------


def guess_question(run: str, trace: Trace, k: int) -> Question:
    """"Which pair does merge k pick?": the top pairs of the table, in alphabetical order (not by count).
    A pair tied with the winner counts as right, and the answer says how the tie was broken."""
    step = trace.steps[k - 1]
    labels: list[str] = []
    by_pair: dict[tuple[int, int], str] = {}
    for pc in step.table[:GUESS_OPTIONS]:
        label = pair_text(pc.left, pc.right)
        if label in labels:  # two different pairs that look the same: tell them apart
            label += f" (ids {pc.pair[0]}, {pc.pair[1]})"
        labels.append(label)
        by_pair[pc.pair] = label
    winner = by_pair.get(step.pair, pair_text(step.left, step.right))
    tied = tuple(by_pair[t.pair] for t in step.ties if t.pair in by_pair and t.pair != step.pair)
    counts = "; ".join(f"{by_pair[pc.pair]}: {times(pc.count)}" for pc in step.table[:GUESS_OPTIONS])
    return Question(
        key=f"train:{run}:{k}",
        prompt=f"Which pair does merge {k} pick? Count each word as many times as it occurs.",
        kind="choice",
        answer=winner,
        options=tuple(sorted(labels, key=str.casefold)),
        also_right=tied,
        explain=f"Counted before the merge: {counts}.",
        explain_also_right=tie_explanation(trace, k),
        scope="train",
    )


# --- Runs and downloads -----------------------------------------------------------------------


def run_key(corpus: str, settings: Settings) -> str:
    """A short id of a training run (corpus + settings) that outlives the server: it names the run's "predict first"
    questions in saved progress (``train:<run>:<k>``, rebuilt by views.progress) and the session model it keeps.
    (The caches here are keyed by the trace itself: :func:`trace_name`.)"""
    digest = hashlib.sha1(corpus.encode("utf-8", "surrogatepass"))
    digest.update(json.dumps(settings.config().to_dict() | {"merges": settings.merges}, sort_keys=True).encode())
    return digest.hexdigest()[:16]


@st.cache_data(max_entries=16, show_spinner=False, hash_funcs=BY_TRACE)
def tokenizer_json(trace: Trace) -> str:
    return tokenizer_to_json(trace.tokenizer)


@st.cache_data(max_entries=16, show_spinner=False, hash_funcs=BY_TRACE)
def hf_export(trace: Trace) -> tuple[str | None, str | None]:
    """(the model as a Hugging Face tokenizer.json, None) or (None, why it cannot be), once per trace."""
    try:
        return to_hf_json(trace.tokenizer), None
    except ValueError as exc:
        return None, str(exc)


def trace_json(trace: Trace) -> str:
    return json.dumps(trace_to_dict(trace), ensure_ascii=False, indent=1)


def trace_csv(trace: Trace) -> bytes:
    """The trace as CSV, UTF-8 with a byte-order mark so spreadsheets read Hindi right."""
    return pd.DataFrame(trace_rows(trace)).to_csv(index=False).encode("utf-8-sig")


def file_stem(preset_id: str, settings: Settings, n_merges: int) -> str:
    name = "my-text" if preset_id == OWN else preset_id
    return f"bpe-{name}-{settings.unit}-{n_merges}-merges"
