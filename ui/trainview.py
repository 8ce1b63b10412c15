"""What the "Train step by step" page draws, apart from the chips themselves.

The page reads its widgets, gets a :class:`tokenizer.Trace` from
:mod:`ui.engine` and hands the trace and a step number to the helpers here:

- the settings a preset stands for, and the URL parameters that share them;
- checks on the learner's own text and uploads, with a message that says what to do;
- the pair-count table as rows, and as an Altair bar chart (winner and ties marked);
- plain-words explanations: which pair won merge *k*, and how a tie was broken;
- the corpus words at a step, as chip rows (only the most frequent words are
  segmented, so a 1 MB upload stays fast);
- the files to download (model JSON, trace JSON and CSV).

Step semantics (the page says them in words too): step 0 is before any merge;
step *k* shows the pair table *before* merge *k*, the pair it picked, and the
corpus *after* merge *k*.

Nothing here re-implements BPE: the helpers only read the trace, and ask the
trained tokenizer to segment a word after the first *k* merges.
"""

from __future__ import annotations

import hashlib
import html
import json
import re
import time
import unicodedata
from dataclasses import dataclass
from typing import Any, Sequence

import altair as alt
import pandas as pd
import streamlit as st

import lessons
from tokenizer import UNKNOWN_ID, MergeStep, Trace
from tokenizer.io import tokenizer_to_json, trace_rows, trace_to_dict
from ui.chips import CSS as CHIPS_CSS
from ui.chips import Chip, chips_html, word_rows_html
from ui.engine import MAX_CORPUS_CHARS, MAX_MERGES
from ui.state import Param

PAGE = "train"
OWN = "own"  # the preset id of "your own text"
UPLOAD_LIMIT_MB = 2
UPLOAD_LIMIT_BYTES = 2_000_000  # the same as MAX_CORPUS_CHARS for ASCII text
TEXT_IN_LINK = 400  # own text up to this many characters goes into the shareable link
TOP_WORDS = 40  # corpus words shown as chips
GUESS_OPTIONS = 5  # pairs offered in "predict first"
MAX_LISTED_TIES = 5  # tied pairs named in the tie sentence

MARKERS = {"none": None, "</w>": "</w>", "_": "_"}
MARKER_CHOICES = ("none", "</w>", "_", "custom")
DEFAULT_CUSTOM_MARKER = "<end>"

UNIT_NAMES = {"chars": "characters", "bytes": "UTF-8 bytes"}
SPLIT_NAMES = {"whitespace": "whitespace", "regex": "regex pattern"}
TIE_NAMES = {"first": "first seen", "hf": "hf (Hugging Face)"}
MARKER_NAMES = {"none": "none", "</w>": "</w>", "_": "_", "custom": "custom…"}

# Paul Tol's "light" palette (black text on each is at least 8:1).
WINNER_COLOUR = "#EE8866"  # orange
TIE_COLOUR = "#EEDD88"  # light yellow
OTHER_COLOUR = "#77AADD"  # light blue
STATUS_WINNER = "winner"
STATUS_TIE = "tied, lost the tie"
STATUS_OTHER = "other pairs"
STATUS_TOP = "top count"  # step 0: the most frequent pairs, before merge 1 picks one

# Session keys that are not URL parameters.
AUTOPLAY_KEY = f"{PAGE}.autoplay"
AUTOPLAY_LAST = f"{PAGE}._autoplay_last"
AUTOPLAY_PENDING = f"{PAGE}._autoplay_pending"
UPLOAD_KEY = f"{PAGE}.upload"
GUESS_KEY = f"{PAGE}.guess"
GUESS_CONTEXT = f"{PAGE}._guess_context"
CHECK_KEY = f"{PAGE}.check"
PREDICTIONS = f"{PAGE}._predictions"  # {"<run>:<step>": (guess, right)}
NO_GUESS = f"{PAGE}._no_guess"
CUSTOM_MODELS = "lab.custom_models"  # read by the Tokenize page
MAX_CUSTOM_MODELS = 8


# --- Settings and URL state ------------------------------------------------------


@dataclass(frozen=True)
class Settings:
    """The five training choices plus the merge budget, as the widgets hold them."""

    unit: str
    split: str
    pattern: str
    marker: str  # a MARKER_CHOICES entry
    marker_text: str  # the custom marker (used when marker == "custom")
    ties: str
    merges: int

    @property
    def end_of_word(self) -> str | None:
        if self.marker == "custom":
            return self.marker_text or None
        return MARKERS.get(self.marker)

    def train_kwargs(self) -> dict[str, Any]:
        """train()'s five choices (a plain dict: checking them is the engine's job, when it trains)."""
        return dict(unit=self.unit, split=self.split, pattern=self.pattern, end_of_word=self.end_of_word, ties=self.ties)


OWN_DEFAULTS = Settings("chars", "whitespace", r" ?\S+", "none", DEFAULT_CUSTOM_MARKER, "first", 20)


def preset_ids() -> tuple[str, ...]:
    return (*lessons.presets(), OWN)


def preset_title(preset_id: str) -> str:
    if preset_id == OWN:
        return "Your own text (type, paste or upload)"
    preset = lessons.presets().get(preset_id)
    return preset.title if preset else preset_id


def preset_settings(preset_id: str) -> Settings:
    """The settings a preset trains with (the defaults for "your own text")."""
    preset = lessons.presets().get(preset_id)
    if preset is None:
        return OWN_DEFAULTS
    marker = preset.end_of_word
    if marker is None:
        choice, text = "none", DEFAULT_CUSTOM_MARKER
    elif marker in MARKERS:
        choice, text = marker, DEFAULT_CUSTOM_MARKER
    else:
        choice, text = "custom", marker
    return Settings(preset.unit, preset.split, preset.pattern, choice, text, preset.ties, preset.merges)


PRESET = Param(PAGE, "preset", "chai", choices=preset_ids())
TEXT = Param(PAGE, "text", "", max_len=TEXT_IN_LINK)
STEP = Param(PAGE, "step", 0, lo=0, hi=MAX_MERGES)
PREDICT = Param(PAGE, "predict", False)


def setting_params(defaults: Settings) -> dict[str, Param]:
    """URL parameters for the settings; their defaults are the chosen preset's, so a
    link carries only what the learner changed (``?preset=chai&step=3``)."""
    return {
        "unit": Param(PAGE, "unit", defaults.unit, choices=("chars", "bytes")),
        "split": Param(PAGE, "split", defaults.split, choices=("whitespace", "regex")),
        "pattern": Param(PAGE, "pattern", defaults.pattern, max_len=200),
        "marker": Param(PAGE, "marker", defaults.marker, choices=MARKER_CHOICES),
        "marker_text": Param(PAGE, "marker_text", defaults.marker_text, max_len=12),
        "ties": Param(PAGE, "ties", defaults.ties, choices=("first", "hf")),
        "merges": Param(PAGE, "merges", defaults.merges, lo=0, hi=MAX_MERGES),
    }


def current_settings(params: dict[str, Param]) -> Settings:
    s = st.session_state
    return Settings(**{name: s.get(p.skey, p.default) for name, p in params.items()})


def apply_preset() -> None:
    """on_change of the preset box (and the "use the preset's settings" button):
    take the preset's settings and go back to step 0."""
    preset_id = st.session_state.get(PRESET.skey, PRESET.default)
    for param in setting_params(preset_settings(preset_id)).values():
        st.session_state[param.skey] = param.default
    st.session_state[STEP.skey] = 0
    st.session_state[AUTOPLAY_KEY] = False


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


# --- Step controls -----------------------------------------------------------------


def restart() -> None:
    """on_change of the own-text box and the upload: a new corpus starts at step 0."""
    st.session_state[STEP.skey] = 0
    st.session_state[AUTOPLAY_KEY] = False


def go_to(target: str, n_steps: int) -> None:
    """on_click of First / Previous / Next / Last."""
    step = int(st.session_state.get(STEP.skey, 0))
    new = {"first": 0, "previous": step - 1, "next": step + 1, "last": n_steps}[target]
    st.session_state[STEP.skey] = max(0, min(n_steps, new))


def clamp_step(n_steps: int) -> int:
    """Keep the step inside the trace (a link or a smaller merge budget can push it out)."""
    step = st.session_state.get(STEP.skey, 0)
    if not isinstance(step, int) or step < 0:
        step = 0
    step = min(step, n_steps)
    st.session_state[STEP.skey] = step
    return step


def autoplay_changed(n_steps: int) -> None:
    """Turning autoplay on at the last step starts again from the beginning."""
    if st.session_state.get(AUTOPLAY_KEY):
        if st.session_state.get(STEP.skey, 0) >= n_steps:
            st.session_state[STEP.skey] = 0
        st.session_state[AUTOPLAY_LAST] = time.monotonic()


def apply_autoplay(n_steps: int) -> str | None:
    """Before the step widgets are drawn: take a pending autoplay step, and stop at
    the end. Returns a message when autoplay just stopped."""
    if st.session_state.pop(AUTOPLAY_PENDING, False) and st.session_state.get(AUTOPLAY_KEY):
        st.session_state[STEP.skey] = min(n_steps, int(st.session_state.get(STEP.skey, 0)) + 1)
    if st.session_state.get(AUTOPLAY_KEY) and st.session_state.get(STEP.skey, 0) >= n_steps:
        st.session_state[AUTOPLAY_KEY] = False
        return "Autoplay stopped at the last merge."
    return None


AUTOPLAY_SECONDS = 1.5


@st.fragment(run_every=AUTOPLAY_SECONDS)
def autoplay_ticker() -> None:
    """Draws nothing. Every AUTOPLAY_SECONDS, while autoplay is on, asks for the next
    step and reruns the page (the page calls this only while autoplay is on)."""
    if not st.session_state.get(AUTOPLAY_KEY):
        return
    now = time.monotonic()
    if now - st.session_state.get(AUTOPLAY_LAST, 0.0) < AUTOPLAY_SECONDS * 0.8:
        return  # this is the page's own run, not a tick
    st.session_state[AUTOPLAY_LAST] = now
    st.session_state[AUTOPLAY_PENDING] = True
    st.rerun(scope="app")


# --- Own text and uploads ------------------------------------------------------------


def decode_upload(data: bytes) -> tuple[str | None, str | None]:
    """An uploaded file's bytes -> (text, None) or (None, what is wrong and what to do)."""
    if not data.strip():
        return None, "This file is empty. Upload a .txt file with some text in it, or type your text on the left."
    if len(data) > UPLOAD_LIMIT_BYTES:
        return None, (
            f"This file is {len(data):,} bytes; the limit is {UPLOAD_LIMIT_MB} MB ({UPLOAD_LIMIT_BYTES:,} bytes). "
            "Upload a shorter extract (a chapter or a few articles is plenty to see BPE at work)."
        )
    if data[:2] in (b"\xff\xfe", b"\xfe\xff"):
        return None, (
            "This file is saved as UTF-16, not UTF-8. Open it in a text editor and save it again "
            "with the encoding UTF-8 (in Notepad: Save as, then Encoding: UTF-8), then upload it again."
        )
    if b"\x00" in data:
        offset = data.index(b"\x00")
        return None, (
            f"This file looks binary, not plain text (it has a NUL byte at offset {offset:,}). "
            "Upload a plain .txt file saved as UTF-8; a Word or PDF file will not work."
        )
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        return None, (
            f"This file is not valid UTF-8: the byte at offset {exc.start:,} (0x{data[exc.start]:02X}) "
            "cannot start or continue a character. It was probably saved in another encoding. "
            "Save it as UTF-8 (in Notepad: Save as, then Encoding: UTF-8) and upload it again."
        )
    return text.removeprefix("\ufeff"), None


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
    import regex

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


def marker_problem(settings: Settings) -> str | None:
    """A custom marker the learner has not finished typing, in words. (A marker that clashes with
    the text is refused by the engine, whose message the page shows.)"""
    if settings.marker == "custom" and not settings.marker_text:
        return "The custom end-of-word marker is empty: type one (such as </w>), or choose none."
    if settings.marker == "custom" and any(ch.isspace() for ch in settings.marker_text):
        return "An end-of-word marker cannot contain spaces: type one without spaces (such as </w>)."
    return None


def custom_model_name(settings: Settings, n_merges: int, source: str) -> str:
    unit = "chars" if settings.unit == "chars" else "bytes"
    return f"{source} ({unit}, {n_merges} merges)"


def remember_custom_model(name: str, run: str, trace: Trace) -> None:
    """Keep a model trained on the learner's own text for the Tokenize page (this session)."""
    models = st.session_state.setdefault(CUSTOM_MODELS, {})
    models.pop(name, None)
    models[name] = tokenizer_json(run, trace)
    while len(models) > MAX_CUSTOM_MODELS:
        models.pop(next(iter(models)))


# --- Labels ----------------------------------------------------------------------------

_VISIBLE = {" ": "·", "\n": "↵", "\t": "⇥", "\r": "␍"}
_INVISIBLE = "\u200b\u200c\u200d\u2060\ufeff"


_HEX_GROUP = re.compile(r"(⟨[0-9A-F]{2}(?: [0-9A-F]{2})*⟩)")


def visible(label: str) -> str:
    """A token label as plain text with whitespace and invisible characters shown
    (for charts, tables and sentences; chips do their own, as HTML). Stray bytes,
    shown by the engine as ``⟨E0 A4⟩``, are kept as they are."""
    return "".join(
        part if i % 2 else _visible_chars(part, first=i == 0) for i, part in enumerate(_HEX_GROUP.split(label))
    )


def _visible_chars(label: str, first: bool) -> str:
    out = []
    for i, ch in enumerate(label):
        if ch in _VISIBLE:
            out.append(_VISIBLE[ch])
        elif unicodedata.category(ch) == "Cc" or ch in _INVISIBLE:
            out.append(f"U+{ord(ch):04X}")
        elif i == 0 and first and unicodedata.category(ch).startswith("M"):
            out.append("\u25cc" + ch)  # a dotted circle as the mark's base, on purpose
        else:
            out.append(ch)
    return "".join(out)


def md_escape(text: str) -> str:
    """Text for a widget label (which Streamlit reads as markdown): every ASCII
    punctuation mark backslash-escaped, so it shows as typed."""
    return "".join("\\" + ch if ch in _MD_SPECIAL else ch for ch in text)


_MD_SPECIAL = set("\\`*_{}[]()#+-.!|<>~$:&=^\"'")


def pair_text(left: str, right: str) -> str:
    return f"{visible(left)} + {visible(right)}"


def times(n: int) -> str:
    return "1 time" if n == 1 else f"{n:,} times"


def join_words(items: Sequence[str], more: int = 0) -> str:
    """["a", "b", "c"] -> "a, b and c"; with more=4 -> "a, b, c and 4 more"."""
    items = list(items)
    if more:
        return ", ".join(items) + f" and {more:,} more"
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


# --- The pair-count table ------------------------------------------------------------


def pair_rows(step: MergeStep, *, reveal: bool = True) -> list[dict[str, Any]]:
    """The table before ``step``'s merge, one dict per pair, in rank order.

    ``reveal=False`` (step 0) marks the top-count pairs without naming a winner.
    """
    tied = {t.pair for t in step.ties} if step.n_tied > 1 else set()
    rows = []
    for rank, pc in enumerate(step.table, start=1):
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
                "left": visible(pc.left),
                "right": visible(pc.right),
                "count": pc.count,
                "status": status,
            }
        )
    return rows


def pair_frame(rows: list[dict[str, Any]]) -> pd.DataFrame:
    frame = pd.DataFrame(rows, columns=["rank", "pair", "left", "right", "count", "status"])
    return frame.rename(columns={"count": "times seen", "status": "note"})


def pair_chart(rows: list[dict[str, Any]], *, large: bool = False) -> alt.Chart:
    """Horizontal bars, one per pair, in rank order: the winner orange, the pairs it
    beat on a tie yellow with a dashed outline, a text mark naming both."""
    data = pd.DataFrame(rows)
    data["bar"] = [f"{r['rank']}. {r['pair']}" for r in rows]
    suffix = {STATUS_WINNER: "  ← winner", STATUS_TIE: "  tie"}
    data["mark"] = [f"{r['count']:,}{suffix.get(r['status'], '')}" for r in rows]
    statuses = [s for s in (STATUS_WINNER, STATUS_TIE, STATUS_TOP, STATUS_OTHER) if s in set(data["status"])]
    colours = {STATUS_WINNER: WINNER_COLOUR, STATUS_TIE: TIE_COLOUR, STATUS_TOP: TIE_COLOUR, STATUS_OTHER: OTHER_COLOUR}
    font = 18 if large else 13
    order = list(data["bar"])
    y = alt.Y("bar:N", sort=order, title=None, axis=alt.Axis(labelFontSize=font, labelLimit=400, labelOverlap=False))
    base = alt.Chart(data).encode(y=y)
    bars = base.mark_bar(stroke="#000", strokeWidth=1.5).encode(
        x=alt.X("count:Q", title="times seen before this merge", axis=alt.Axis(tickMinStep=1, labelFontSize=font - 2,
                                                                                titleFontSize=font - 2)),
        color=alt.Color(
            "status:N",
            scale=alt.Scale(domain=statuses, range=[colours[s] for s in statuses]),
            legend=alt.Legend(title=None, orient="bottom", labelFontSize=font - 2, symbolSize=font * 14,
                              symbolStrokeWidth=1, symbolStrokeColor="#000", symbolType="square"),
        ),
        strokeDash=alt.condition(
            alt.datum.status == STATUS_TIE, alt.value([5, 3]), alt.value([1, 0])
        ),
        tooltip=[
            alt.Tooltip("pair:N", title="pair"),
            alt.Tooltip("count:Q", title="times seen"),
            alt.Tooltip("status:N", title="note"),
        ],
    )
    text = base.mark_text(align="left", dx=5, fontSize=font, fontWeight="bold").encode(
        x="count:Q", text="mark:N"
    )
    return (bars + text).properties(height=alt.Step(34 if large else 26))


@st.cache_data(max_entries=256, show_spinner=False)
def pair_chart_spec(rows: tuple[tuple[tuple[str, Any], ...], ...], large: bool = False) -> dict:
    """The chart as its Vega-Lite spec, built and checked by Altair once per distinct table.

    Altair checks a chart against the Vega-Lite schema every time it is built and
    drawn (about 0.1 s); a step view is redrawn on every click, so the page draws
    this cached spec with ``st.vega_lite_chart``. ``rows`` is ``pair_rows()`` as
    tuples of items (hashable).
    """
    return pair_chart([dict(r) for r in rows], large=large).to_dict()


def rows_key(rows: list[dict[str, Any]]) -> tuple[tuple[tuple[str, Any], ...], ...]:
    return tuple(tuple(r.items()) for r in rows)


# --- Sentences -------------------------------------------------------------------------


def step_summary(trace: Trace, k: int) -> str:
    """ "Merge 3 of 7: cha + i → chai, seen 5 times." (plain text)."""
    s = trace.steps[k - 1]
    return (
        f"Merge {k} of {len(trace.steps)}: {pair_text(s.left, s.right)} → {visible(s.token)}, "
        f"seen {times(s.count)}."
    )


def first_seen(trace: Trace, k: int, limit: int = 20_000) -> tuple[int, int, tuple[int, int]] | None:
    """Where the first tied pair turns up when reading the words in order before merge k:
    (word index, position in the word, pair), or None if not found in the first ``limit`` words."""
    s = trace.steps[k - 1]
    wanted = {t.pair for t in s.ties}
    tok = trace.tokenizer
    for w, (word, _count) in enumerate(trace.words[:limit]):
        ids = tok.segment(word, k - 1)
        for i in range(len(ids) - 1):
            if (ids[i], ids[i + 1]) in wanted:
                return w, i, (ids[i], ids[i + 1])
    return None


@st.cache_data(max_entries=512, show_spinner=False)
def explain(run: str, _trace: Trace, k: int) -> str:
    """:func:`tie_explanation`, cached per run and step (it can scan a big corpus)."""
    return tie_explanation(_trace, k)


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
        return (
            f"{head} Rule 'hf' (the order of Hugging Face tokenizers): number the base symbols in sorted order "
            f"and the merged tokens after them, in the order they were made; the pair with the smallest left id "
            f"(then the smallest right id) wins. So {winner} wins."
        )
    found = first_seen(trace, k)
    if found is None or found[2] != s.pair:
        return (
            f"{head} Rule 'first seen': reading the words in the order they first appear in the corpus, "
            f"each left to right, the tied pair met first wins: {winner}."
        )
    w, position, _ = found
    shown = [visible(word) for word, _ in trace.words[: max(3, w + 1)][:6]]
    more_words = "…" if len(trace.words) > len(shown) else ""
    words = ", ".join(shown) + (", " + more_words if more_words else "")
    word = visible(trace.words[w][0])
    where = f"as the very first pair of “{word}”" if position == 0 and w == 0 else f"in “{word}”"
    return (
        f"{head} Rule 'first seen': read the words in the order they first appear ({words}), each left to "
        f"right; the tied pair met first wins. {winner} is met first, {where}. So it wins."
    )


# --- Corpus words as chips ----------------------------------------------------------------


@st.cache_resource(max_entries=32, show_spinner=False)
def _top_words(run_key: str, _trace: Trace, limit: int) -> list[tuple[str, int]]:
    """The ``limit`` most frequent distinct words (ties: first appearance first). Cached per run."""
    order = sorted(range(len(_trace.words)), key=lambda i: -_trace.words[i][1])
    return [_trace.words[i] for i in order[:limit]]


def top_words(run: str, trace: Trace, limit: int = TOP_WORDS) -> list[tuple[str, int]]:
    return _top_words(run, trace, limit)


def word_chips(trace: Trace, word: str, k: int, highlight_id: int | None = None) -> list[Chip]:
    tok = trace.tokenizer
    chips = []
    for token_id in tok.segment(word, k):
        if token_id == UNKNOWN_ID:  # cannot happen for training words; be safe
            chips.append(Chip("?", None, known=False))
            continue
        chips.append(
            Chip(tok.label(token_id), token_id, whole=tok.is_whole(token_id), highlight=token_id == highlight_id)
        )
    return chips


@st.cache_data(max_entries=512, show_spinner=False)
def corpus_html(run: str, _trace: Trace, k: int, *, highlight_id: int | None = None, limit: int = TOP_WORDS) -> str:
    """The most frequent corpus words after ``k`` merges, one chip row each, with counts
    (cached per run and step)."""
    trace = _trace
    rows = [(word_chips(trace, word, k, highlight_id), count) for word, count in top_words(run, trace, limit)]
    return CHIPS_CSS + word_rows_html(rows)


def corpus_caption(trace: Trace, limit: int = TOP_WORDS) -> str:
    n = len(trace.words)
    total = trace.total_words
    if n <= limit:
        return f"{n:,} distinct words, {total:,} in all; each row is one word and how often it occurs."
    return (
        f"{n:,} distinct words ({total:,} in all): showing the {limit} most frequent, "
        "each with how often it occurs."
    )


@st.cache_data(max_entries=1024, show_spinner=False)
def corpus_tokens(run: str, _trace: Trace, k: int, max_words: int = 2_000) -> int | None:
    """How many tokens the whole corpus is after k merges (None for big corpora: too slow
    to redo on every click). Cached per run and step."""
    trace = _trace
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

    def chip(label: str, token_id: int, hl: bool = False) -> str:
        c = Chip(label, token_id, whole=trace.tokenizer.is_whole(token_id), highlight=hl)
        return chips_html([c], label="token")

    box = box.replace('<div class="tl-step"', f'<div class="tl-step" title="{html.escape(step_summary(trace, k))}"')
    return (
        CHIPS_CSS + box + f"<strong>Merge {k} of {n}:</strong>"
        + chip(s.left, s.pair[0]) + "<span>+</span>" + chip(s.right, s.pair[1]) + "<span>→</span>"
        + chip(s.token, s.token_id, True)
        + f"<span>new token id {s.token_id}, seen {html.escape(times(s.count))}</span></div>"
    )


def note_html(text: str, kind: str = "info") -> str:
    """A callout holding text that may contain the learner's own words (escaped, never markdown)."""
    colours = {"info": "rgba(28,131,225,.12)", "warning": "rgba(255,189,69,.22)", "success": "rgba(33,195,84,.14)",
               "error": "rgba(255,43,43,.12)"}
    role = "alert" if kind in ("warning", "error") else "status"
    return (
        f'<div role="{role}" class="tl-note tl-note-{kind}" style="background:{colours[kind]};border-radius:.5em;'
        f'padding:.75em 1em;margin:.2em 0 .6em;line-height:1.5;white-space:pre-wrap;overflow-wrap:anywhere">'
        f"{html.escape(text)}</div>"
    )


def learned_tokens_html(trace: Trace, k: int, limit: int = 40) -> str:
    """The tokens merges 1..k made, newest highlighted (the last ``limit`` of them)."""
    tok = trace.tokenizer
    steps = trace.steps[max(0, k - limit) : k]
    chips = [
        Chip(s.token, s.token_id, whole=tok.is_whole(s.token_id), highlight=s.step == k, note=f"merge {s.step}")
        for s in steps
    ]
    return CHIPS_CSS + chips_html(chips, show_ids=True, label="tokens learned so far", separator=None)


@st.cache_data(max_entries=64, show_spinner=False)
def merges_frame(run: str, _trace: Trace, k: int) -> pd.DataFrame:
    """Merges 1..k as a table (cached per run and step)."""
    rows = trace_rows(_trace)[:k]
    frame = pd.DataFrame(rows, columns=["step", "left", "right", "token", "token_id", "count", "tied_pairs", "vocab_size"])
    for column in ("left", "right", "token"):
        frame[column] = frame[column].map(visible)
    return frame.rename(columns={"count": "times seen", "tied_pairs": "pairs tied", "vocab_size": "vocabulary"})


# --- Predict first ---------------------------------------------------------------------------


def guess_options(step: MergeStep) -> list[str]:
    """Up to GUESS_OPTIONS top pairs of the table, in alphabetical order (not by count)."""
    labels = []
    for pc in step.table[:GUESS_OPTIONS]:
        label = pair_text(pc.left, pc.right)
        if label in labels:  # two different pairs that look the same: tell them apart
            label += f" (ids {pc.pair[0]}, {pc.pair[1]})"
        labels.append(label)
    return sorted(labels, key=str.casefold)


def prediction_key(run: str, k: int) -> str:
    return f"{run}:{k}"


def check_guess(key: str, winner: str) -> None:
    """on_click of Check: record the guess for this run and step (once)."""
    guess = st.session_state.get(GUESS_KEY)
    if guess is None:
        st.session_state[NO_GUESS] = True
        return
    predictions = st.session_state.setdefault(PREDICTIONS, {})
    if key not in predictions:
        predictions[key] = (guess, guess == winner)


def score() -> tuple[int, int]:
    """(right, tried) over this session's predictions."""
    predictions = st.session_state.get(PREDICTIONS, {})
    return sum(1 for _, right in predictions.values() if right), len(predictions)


def reset_guess_widget(context: str) -> None:
    """A new step or run gets a fresh, unanswered guess box."""
    if st.session_state.get(GUESS_CONTEXT) != context:
        st.session_state.pop(GUESS_KEY, None)
        st.session_state[GUESS_CONTEXT] = context


# --- Runs and downloads -----------------------------------------------------------------------

def run_key(corpus: str, settings: Settings) -> str:
    """A short id of a training run (corpus + settings)."""
    digest = hashlib.sha1(corpus.encode("utf-8", "surrogatepass"))
    digest.update(json.dumps(settings.train_kwargs() | {"merges": settings.merges}, sort_keys=True).encode())
    return digest.hexdigest()[:16]


@st.cache_data(max_entries=16, show_spinner=False)
def tokenizer_json(run: str, _trace: Trace) -> str:
    return tokenizer_to_json(_trace.tokenizer)


@st.cache_data(max_entries=16, show_spinner=False)
def trace_files(run: str, _trace: Trace) -> tuple[str, bytes]:
    """(trace JSON, trace CSV as UTF-8 with a byte-order mark, so spreadsheets read Hindi right)."""
    as_json = json.dumps(trace_to_dict(_trace), ensure_ascii=False, indent=1)
    as_csv = pd.DataFrame(trace_rows(_trace)).to_csv(index=False).encode("utf-8-sig")
    return as_json, as_csv


def file_stem(preset_id: str, settings: Settings, n_merges: int) -> str:
    name = "my-text" if preset_id == OWN else preset_id
    return f"bpe-{name}-{settings.unit}-{n_merges}-merges"

