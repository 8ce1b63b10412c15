"""What the "Train step by step" page draws: settings, the step view's pieces, its sentences.

The page sets up and composes the sections at the end of this module
(:func:`settings_section`, :func:`corpus_section`, :func:`training_section`,
:func:`trace_section`): they read the widgets, get a :class:`tokenizer.Trace`
from :mod:`ui.training` and hand the trace and a step number to the helpers
above them. Nothing here re-implements BPE: the helpers read the trace and ask the
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

import html
import json
import threading
import unicodedata
import uuid
import weakref
from collections.abc import Sequence
from functools import lru_cache, partial
from typing import Any

import altair as alt
import pandas as pd
import regex
import streamlit as st

import lessons
from lessons.course import TOKENIZER_KEY
from tokenizer import UNKNOWN_ID, MergeStep, StopReason, Trace
from tokenizer.export import to_hf_json
from tokenizer.io import tokenizer_to_json, trace_rows, trace_to_dict
from ui import charts, choices, predict, state, tables, viewport
from ui.chips import CSS as CHIPS_CSS
from ui.chips import Chip, chips_html, word_rows_html
from ui.codeview import algorithm_html
from ui.display import callout_html, join_words, md_code, md_escape, pair_text, plural, visible_token
from ui.layout import figure, find_page, link_params, phone_only, swipe_columns, wide_only
from ui.links import lesson_link
from ui.presets import (
    MARKER_CHOICES,
    MARKER_NAMES,
    OWN,
    SPLIT_NAMES,
    TIE_NAMES,
    UNIT_NAMES,
    Settings,
    preset_ids,
    preset_settings,
    preset_title,
)
from ui.questions import guess_question, run_key, tie_explanation, times
from ui.state import Key, Param
from ui.steps import Stepper
from ui.training import MAX_CORPUS_CHARS, MAX_TRAIN_MERGES, trained_with_progress
from ui.uploads import TEXT_UPLOAD_MB, decode_text_file, uploaded_bytes

PAGE = "train"
TEXT_IN_LINK = 400  # own text up to this many characters goes into the shareable link
TOP_WORDS = 40  # corpus words shown as chips
MAX_SOURCES = 6  # words named in "how the count adds up"


WINNER_COLOUR = charts.ORANGE
TIE_COLOUR = charts.SAND
OTHER_COLOUR = charts.BLUE
STATUS_WINNER = "winner"
STATUS_TIE = charts.TIE_LOST
STATUS_OTHER = "other pairs"
STATUS_TOP = "top count"  # step 0: the most frequent pairs, before merge 1 picks one

# -- The page's session keys, declared once (the page, the warm-up, the benchmarks and the tests import them) --
PRESET = Param(PAGE, "preset", "chai", choices=preset_ids())
TEXT = Param(PAGE, "text", "", max_len=TEXT_IN_LINK)
STEP = Param(PAGE, "step", 0, lo=0, hi=MAX_TRAIN_MERGES)
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
        "merges": {"lo": 0, "hi": MAX_TRAIN_MERGES},
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
                "pair": pair_text(_cut(pc.left), _cut(pc.right)),
                "left": visible_token(_cut(pc.left)),
                "right": visible_token(_cut(pc.right)),
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


def step_summary(trace: Trace, k: int) -> str:
    """ "Merge 3 of 7: cha + i → chai, seen 5 times." (plain text)."""
    s = trace.steps[k - 1]
    return (
        f"Merge {k} of {len(trace.steps)}: {pair_text(_cut(s.left), _cut(s.right))} → {visible_token(_cut(s.token))}, "
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


# The step's line is big; on a phone a little less, so the merge and what it changed share the screen.
STEP_HEADER_CSS = """<style>
.tl-step { display: flex; flex-wrap: wrap; align-items: center; gap: .4em; font-size: 1.3em; }
@media (max-width: 640px) { .tl-step { font-size: 1.05em; gap: .3em; } }
</style>"""


@st.cache_data(max_entries=512, show_spinner=False, hash_funcs=BY_TRACE)
def step_header_html(trace: Trace, k: int, *, hide_winner: bool = False) -> str:
    """A big line: "Merge 3 of 7: [cha] + [i] → [chai] seen 5 times" (chips for the tokens)."""
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


def learned_tokens_html(trace: Trace, k: int, limit: int = 40) -> str:
    """The tokens merges 1..k made, newest highlighted (the last ``limit`` of them)."""
    tok = trace.tokenizer
    steps = trace.steps[max(0, k - limit) : k]
    chips = [
        Chip(_cut(s.token), s.token_id, whole=tok.is_whole(s.token_id), highlight=s.step == k, note=f"merge {s.step}")
        for s in steps
    ]
    return CHIPS_CSS + chips_html(chips, show_ids=True, label="tokens learned so far", runs=False)


@st.cache_data(max_entries=64, show_spinner=False, hash_funcs=BY_TRACE)
def merges_frame(trace: Trace, k: int) -> pd.DataFrame:
    """Merges 1..k as a table, with plain column names (cached per trace and step)."""
    rows = trace_rows(trace)[:k]
    frame = pd.DataFrame(rows, columns=["step", "left", "right", "token", "token_id", "count", "tied_pairs", "vocab_size"])
    for column in ("left", "right", "token"):
        frame[column] = frame[column].map(lambda token: visible_token(_cut(token)))
    frame["tied_pairs"] = [n - 1 if n > 1 else None for n in frame["tied_pairs"]]
    frame["tied_pairs"] = frame["tied_pairs"].astype("Int64")
    return frame.rename(
        columns={"token_id": "new id", "count": "times seen", "tied_pairs": "other pairs with that count",
                 "vocab_size": "vocabulary size"}
    )


# --- Runs and downloads -----------------------------------------------------------------------


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


# --- The page's sections (pages/1_Train_step_by_step.py composes them) ----------------------------------------


def intro(large: bool) -> None:
    if not large:
        st.caption(
            "BPE starts from single characters (or bytes). It counts which two neighbours occur together most "
            "often, glues that pair into one new token, and repeats. Pick a corpus, then step through the merges."
        )


def url_params() -> list[Param]:
    """The page's settings in the URL, the trainer's with the chosen preset's defaults (restored first, since the
    preset decides the others' defaults)."""
    state.restore([PRESET])
    params = setting_params(preset_settings(st.session_state[PRESET.skey]))
    return [PRESET, *params.values(), TEXT, STEP, PREDICT]


def settings_section(large: bool, classroom: bool) -> tuple[str, Settings]:
    """The corpus box, the preset's note and lesson, the trainer's settings (hidden in classroom mode: the
    preset's are used) and, when they differ from the preset's, a way back. Returns (preset id, settings)."""
    preset_id = st.session_state[PRESET.skey]
    preset_defaults = preset_settings(preset_id)
    params = setting_params(preset_defaults)
    pick, about = st.columns([2, 3] if large else [3, 2], vertical_alignment="bottom")
    pick.selectbox(
        "Corpus",
        preset_ids(),
        key=PRESET.skey,
        format_func=preset_title,
        on_change=apply_preset,
        help="Presets A to F are small worked examples of BPE training; the English + Hindi news presets are the "
        "experiment on who gets the cheap tokens when the merge budget is shared.",
    )
    preset = lessons.presets().get(preset_id)
    if preset is not None and preset.note and not large:
        about.html(callout_html(preset.note))
    with about:  # back to the lesson that linked here, else the preset's own (in classroom mode too)
        lesson_link(preset.lesson if preset is not None else None)

    settings = current_settings(params)
    changed = changed_settings(settings, preset_defaults) if preset is not None else []
    if classroom:
        about.caption(md_escape(f"Trainer settings: {settings.summary()}"))
    else:
        with (about if large else st).expander(f"Trainer settings: {md_escape(settings.summary())}",
                                               expanded=bool(changed) or preset is None, icon=":material/tune:"):
            settings_widgets(params, settings, large)
    settings = current_settings(params)
    if changed:
        note, reset = st.columns([4, 1], vertical_alignment="center")
        note.caption(
            "**Custom run**: you changed " + join_words(changed) + ". The numbers below are for your settings, "
            "not the worked example's."
        )
        reset.button("Use the preset's settings", key=RESET.skey, on_click=apply_preset)
    return preset_id, settings


def settings_widgets(params: dict[str, Param], settings: Settings, large: bool) -> None:
    """The five trainer settings and the merge budget."""
    if large:  # two rows, so the labels are not squeezed letter by letter
        c_unit, c_split, c_marker = st.columns(3)
        c_ties, c_merges, _ = st.columns(3)
    else:
        c_unit, c_split, c_marker, c_ties, c_merges = st.columns([1.1, 1.5, 1.4, 1.3, 1])
    c_unit.radio(
        "Unit",
        ("chars", "bytes"),
        key=params["unit"].skey,
        format_func=UNIT_NAMES.get,
        help="What BPE starts from: Unicode characters (code points), or the UTF-8 bytes of the text (ids 0-255).",
    )
    split = c_split.radio(
        "Pre-split",
        ("whitespace", "regex"),
        key=params["split"].skey,
        format_func=SPLIT_NAMES.get,
        horizontal=True,
        help="BPE merges only inside the pieces the text is first cut into. Whitespace drops the spaces; "
        "the regex keeps what the pattern matches (the default ` ?\\S+` keeps one space before each word).",
    )
    c_split.text_input(
        "Pattern",
        key=params["pattern"].skey,
        disabled=split != "regex",
        help="A regular expression (Python `regex` module). Each match is one piece; text between matches "
        "becomes pieces of its own.",
    )
    if split == "regex":
        c_split.caption("With spaces shown: " + md_code(settings.pattern))
    marker = c_marker.selectbox(
        "End-of-word marker",
        MARKER_CHOICES,
        key=params["marker"].skey,
        format_func=MARKER_NAMES.get,
        help="A symbol added to the end of every word, so a token can mean 'at the end of a word'.",
    )
    c_marker.text_input("Custom marker", key=params["marker_text"].skey, disabled=marker != "custom", max_chars=12)
    c_ties.radio(
        "Ties",
        ("first", "hf"),
        key=params["ties"].skey,
        format_func=TIE_NAMES.get,
        help="When pairs share the top count. First seen: the pair met first reading the words in order. "
        "hf: the order Hugging Face tokenizers use.",
    )
    c_merges.number_input("Merges", min_value=0, max_value=MAX_TRAIN_MERGES, step=1, key=params["merges"].skey)


def corpus_section(preset_id: str, large: bool, classroom: bool) -> tuple[str | None, str]:
    """The preset's corpus, or the learner's own text (typed or uploaded). Returns (the corpus, or None when there
    is nothing to train on yet; where it came from)."""
    preset = lessons.presets().get(preset_id)
    if preset is not None:
        if not large and not classroom:
            with st.expander(f"The corpus text ({len(preset.corpus):,} characters)", icon=":material/article:"):
                st.code(preset.corpus, language=None, wrap_lines=True,
                        height=min(400, 40 + 24 * (1 + len(preset.corpus) // 120)))
        return preset.corpus, "My text"
    corpus: str | None = None
    source = "My text"
    typed, uploaded = st.columns([3, 2])
    typed.text_area(
        "Your text",
        key=TEXT.skey,
        height=150,
        placeholder="chai chai chai chaiwala, poha poha pohawala... any language, any script.",
        on_change=STEPPER.reset,
        help=f"Up to {MAX_CORPUS_CHARS:,} characters. Texts up to {TEXT_IN_LINK} characters are kept "
        "in the link when you share it.",
    )
    data, _ = uploaded_bytes(
        "…or upload a .txt file (UTF-8)", key=UPLOAD.skey, types=["txt"], limit_mb=TEXT_UPLOAD_MB,
        on_change=STEPPER.reset, container=uploaded,
    )
    if data is not None:
        text, error = decode_text_file(data)
        if error:
            st.html(callout_html(error, "warning"))
        else:
            corpus = text
            source = "My upload"
            uploaded.caption(
                f"Training on the uploaded file ({len(text):,} characters). Remove it to train on the text box."
            )
    else:
        corpus = st.session_state.get(TEXT.skey, "")
    if corpus is not None:
        problem = text_problem(corpus)
        if problem:
            (st.warning if problem[0] == "warning" else st.info)(problem[1])
            corpus = None
        else:
            for note in text_notes(corpus):
                st.caption(note)
    return corpus, source


def training_section(corpus: str | None, settings: Settings) -> Trace | None:
    """Train (cached for every learner; a progress bar for a big corpus), or say why not."""
    if corpus is None:
        return None
    problem = marker_problem(settings)
    if problem:
        st.html(callout_html(problem, "warning"))
        return None
    try:
        return trained_with_progress(corpus, settings.merges, **settings.config().to_dict())
    except ValueError as exc:  # e.g. a regex pattern that does not compile, or a corpus with no words
        st.html(callout_html(f"Cannot train with these settings: {exc}", "warning"))
        return None


def trace_section(trace: Trace | None, corpus: str | None, source: str, preset_id: str, settings: Settings, large: bool,
                  classroom: bool) -> None:
    """The merges, step by step (a fragment), the downloads, and a learner's own model kept for the session."""
    if trace is None or corpus is None:
        return
    run = run_key(corpus, settings)
    n_steps = len(trace.steps)
    if trace.stop_reason is StopReason.NO_PAIRS:
        st.info(
            f"Training stopped after {n_steps:,} of the {trace.requested:,} merges you asked for: every word is "
            "now a single token, so no pair is left to merge."
        )
    punct = punctuation_note(trace)
    if punct:
        st.caption(punct)
    if n_steps == 0:
        zero_section(trace)
    else:
        st.fragment(steps_section, run_every=STEPPER.run_every())(trace, run, preset_id, large, classroom)
    if st.session_state.get(PREDICT.skey):
        st.caption("Downloads are hidden while you predict: the trace would give the answers away.")
    elif not classroom:
        with st.expander("Take it with you: the model and the trace as files", icon=":material/download:"):
            downloads_section(trace, preset_id, settings)
    if preset_id in lessons.presets():
        return
    title = session_model_title(source, corpus, settings, n_steps)
    try:
        choices.keep_session_model(trace.tokenizer, title, source=f"trained on the Train page ({source.lower()})",
                                   counts=[s.count for s in trace.steps], ident=run)
    except ValueError as exc:  # a model bigger than the lab reads back (e.g. one token of a whole page)
        st.caption(md_escape(f"Not kept for the other pages: {exc}"))
    else:
        st.caption(md_escape(f"Kept for this session as “{title}”: pick it on Tokenize anything or Encode step by step."))


def zero_section(trace: Trace) -> None:
    """0 merges: the base vocabulary and the corpus in it."""
    st.info(
        "0 merges: there is nothing to step through. The vocabulary is just the base symbols, and every "
        "word stays in single pieces. Set **Merges** above 0 to watch BPE learn."
    )
    symbols, n_base = base_symbols_html(trace)
    st.markdown(f"**The base vocabulary: {n_base:,} symbols.** The ones this corpus uses:")
    st.html(symbols)
    st.markdown("**The corpus, in base symbols**")
    st.html(corpus_html(trace, 0))
    st.caption(corpus_caption(trace))


def predict_toggle() -> None:
    st.toggle("Predict first", key=PREDICT.skey, help="Hide each merge's winner until you pick the pair you think wins.")


def steps_section(trace: Trace, run: str, preset_id: str, large: bool, classroom: bool) -> None:
    """The step view (a fragment): controls, the merge and why, the chart, the corpus after it."""
    with state.published([STEP, PREDICT]):  # a fragment run publishes the step too
        n = len(trace.steps)
        predicting = bool(st.session_state.get(PREDICT.skey))
        with st.container(key=viewport.action(PAGE)):  # a click here brings the step's result into view
            k = STEPPER.draw(n, slider=None if large else "Step (0 = before any merge)", autoplay_disabled=predicting,
                             extra=predict_toggle)
    with st.container(key=viewport.result(PAGE)):  # the merge, the chart, why: what Next changes
        shown = merge_view(trace, run, k, predicting, large)
    if not shown:
        return
    if k == n:
        next_steps(preset_id)
    if k:
        st.markdown(f"**Tokens learned so far: {k:,}**" + (" (the last 40 shown)" if k > 40 else ""))
        st.html(learned_tokens_html(trace, k))
    if classroom:
        return
    with st.expander("Every merge so far, as a table", key=TABLE_OPEN.skey, on_change="rerun",
                     icon=":material/table:") as table_box:
        if table_box.open:
            tables.show(merges_frame(trace, k), hide_index=True, key=MERGES_TABLE.skey,
                        column_config={"other pairs with that count": st.column_config.NumberColumn(
                            help="How many other pairs had the same top count (empty: no tie).")})
    with st.expander("The algorithm, at this step", key=CODE_OPEN.skey, on_change="rerun",
                     icon=":material/code:") as code_box:
        if code_box.open:
            st.caption(
                "The lab's readable reference trainer (tokenizer/reference.py): it recounts every pair after every "
                "merge. The fast trainer that made this trace keeps its counts up to date instead; the tests check "
                "that both learn exactly the same merges. Highlighted: what this loop did at this step."
            )
            st.html(algorithm_html(trace, k))


def merge_view(trace: Trace, run: str, k: int, predicting: bool, large: bool) -> bool:
    """Step ``k``: the merge (or the question, while predicting), its chart, why it won, the corpus after it.
    Returns False while the winner is hidden (nothing after it may give it away)."""
    step = trace.steps[max(k, 1) - 1]  # the merge this view is about (merge 1 at step 0)
    question = guess_question(run, trace, k) if predicting and k else None
    hidden = predicting and (k == 0 or not predict.answered(question))
    st.html(step_header_html(trace, k, hide_winner=hidden and k > 0))
    # In large type, while the question waits: it beside the corpus it is about, both on the projector's first screen.
    asking = large and question is not None and hidden
    ask_box, corpus_box = st.columns([2, 3], gap="large") if asking else (st.container(), st.container())
    if question is not None:
        with ask_box, st.container(border=True):
            hidden = predict.ask(question) is None

    # Secondary numbers, one line, after the key ones (the count is in the header).
    shown_k = k - 1 if hidden and k else k  # while predicting, the corpus length would give the count away
    tokens_now = corpus_tokens(trace, shown_k)
    facts = [f"vocabulary {trace.base_size + k:,} ({trace.base_size:,} base + {k:,} merged)",
             f"{plural(step.n_pairs, 'distinct pair')} before merge {max(k, 1)}"]
    if tokens_now is not None:
        facts.append(f"the corpus is {tokens_now:,} tokens" + (" before this merge" if hidden and k else ""))
    if predicting:
        facts.append(f"your predictions: {predict.score_line(PAGE)}")
    facts_later = not hidden and not large  # under the chart: the merge and its chart share a phone's screen
    if not facts_later:
        ask_box.caption(" · ".join(facts))

    if hidden and k == 0:
        st.info("**Predict first** is on: press **Next**, then guess which pair merge 1 picks before it is shown.")
        with figure("train-corpus"):
            st.markdown("**The corpus before any merge**")
            st.html(corpus_html(trace, 0))
        st.caption(corpus_caption(trace))
        return False
    if hidden:
        with corpus_box, figure("train-corpus"):
            st.markdown(f"**The corpus before merge {k}**: which two neighbours occur most often?")
            st.html(corpus_html(trace, k - 1))
        corpus_box.caption(corpus_caption(trace))
        return False

    rows = pair_rows(step, reveal=k > 0, limit=8 if large else None)
    # Side by side on a wide screen: the pair counts and why the winner won, the corpus after the merge. A phone
    # swipes between them, the corpus (what changed) first, so one step is one screen there too.
    hint = ("Swipe sideways for the pair counts and why this pair won." if k
            else "Swipe sideways for the pair counts before merge 1.")
    if large:  # one screen on a projector: the chart, why, and the corpus after it, side by side
        left, why, right = swipe_columns("train-step", [3.1, 2.6, 3.9], phone_first=2, hint=hint, gap="medium")
    else:
        left, right = swipe_columns("train-step", [3, 2], phone_first=1, hint=hint, gap="medium")
        why = None  # beside the chart on a wide screen (over the corpus); under it in a phone's panel
    words = LARGE_TOP_WORDS if large else TOP_WORDS
    with left, figure("pair-chart"):
        st.markdown(f"**Pair counts before merge {max(k, 1)}**")
        charts.draw(pair_chart_spec(rows_key(rows), large), key=CHART.skey)
        shown = (f"The top {len(rows)} of {step.n_pairs:,} distinct pairs." if step.n_pairs > len(rows)
                 else f"All {plural(step.n_pairs, 'distinct pair')}.")
        st.caption(shown + (" Press **Next** to see which one wins." if k == 0 else ""))
        if facts_later:
            st.caption(" · ".join(facts))
    if k:
        title = "Why this pair" if step.n_tied <= 1 else "The tie, and the rule that broke it"
        why_html = (f'<p style="margin:0 0 .5rem"><strong>{title}</strong></p>'
                    + callout_html(explain(trace, k) + "\n" + count_breakdown(trace, k)))
        if why is not None:
            why.html(why_html)
        else:
            left.html(phone_only(why_html))
            right.html(wide_only(why_html))
    with right, figure("train-corpus"):
        if k:
            st.markdown(f"**The corpus after merge {k}**")
            st.html(corpus_html(trace, k, highlight_id=step.token_id, limit=words))
        else:
            st.markdown("**The corpus before any merge**")
            st.html(corpus_html(trace, 0, limit=words))
        st.caption(corpus_caption(trace, words) + (" The new token has a black outline." if k else ""))
    return True


def next_steps(preset_id: str) -> None:
    """After the last merge: where to go next, and the preset's words to try, one click away."""
    encode = find_page("Encode step by step")
    st.success("That was the last merge. Next: use these merges to cut a word the corpus never had.",
               icon=":material/flag:")
    preset = lessons.presets().get(preset_id)
    words = preset.examples if preset is not None else ()
    if encode is None:
        return
    with st.container(horizontal=True, gap="small"):
        for word in words:
            st.page_link(encode.path, label=f"Encode “{md_escape(word)}”", icon=":material/arrow_forward:",
                         query_params={**(link_params() or {}), TOKENIZER_KEY: preset_id, "text": word})
        if not words:
            st.page_link(encode.path, label="Encode a word with these merges", icon=":material/arrow_forward:",
                         query_params=link_params())


def downloads_section(trace: Trace, preset_id: str, settings: Settings) -> None:
    """The model and the trace as files (and a Hugging Face tokenizer.json for a byte-level model)."""
    model = tokenizer_json(trace)
    stem = file_stem(preset_id, settings, len(trace.steps))
    with st.container(horizontal=True):
        st.download_button("Model (JSON)", model, f"{stem}.json", "application/json", key=DL_MODEL.skey,
                           on_click="ignore", icon=":material/download:")
        st.download_button("Trace (JSON)", partial(trace_json, trace), f"{stem}-trace.json", "application/json",
                           key=DL_TRACE_JSON.skey, on_click="ignore", icon=":material/download:")
        st.download_button("Trace (CSV)", partial(trace_csv, trace), f"{stem}-trace.csv", "text/csv",
                           key=DL_TRACE_CSV.skey, on_click="ignore", icon=":material/download:")
        hf, why_not = hf_export(trace) if trace.config.unit == "bytes" else (None, None)
        if hf is not None:
            st.download_button("Hugging Face tokenizer.json", hf, f"{stem}-tokenizer.json", "application/json",
                               key=DL_HF.skey, on_click="ignore", icon=":material/download:")
    if why_not:
        st.caption(md_escape(f"No Hugging Face tokenizer.json for this model: {why_not}"))
    st.caption(
        f"The model holds all {len(trace.steps):,} merges; use it on *Tokenize anything* or *Encode step by step* "
        "(upload it there in another session). The trace lists every merge with its count and its ties."
        + ("" if trace.config.unit == "bytes" else " Only a byte-level model can be written as a Hugging Face "
           "tokenizer.json: theirs start from the 256 bytes, and this model starts from characters.")
    )


def link_notes(params: Sequence[Param], preset_id: str) -> None:
    """After the settings are published: what a shared link leaves out (too long, or an uploaded file)."""
    left_out = {p.name for p in params if p.name not in st.query_params and state.value(p) != p.default}
    if "text" in left_out:
        st.caption(
            f"Your text is longer than {TEXT_IN_LINK} characters, so a shared link keeps the settings and step "
            "but not the text."
        )
    if left_out - {"text"}:
        st.caption("Too long to keep in a shared link: " + ", ".join(sorted(left_out - {"text"})) + ".")
    if preset_id not in lessons.presets() and st.session_state.get(UPLOAD.skey) is not None:
        st.caption("An uploaded file is not part of a shared link: the link keeps the settings and step only.")
