"""What the "Estimate" page draws: your own prompt or dataset, counted by the tokenizers of the models you name, and
what it costs per request and per month, in USD and in INR.

The counting and the money are the engine's (:mod:`analyses.estimate`, :mod:`family.models`); this module reads the
input (a pasted text or an uploaded file, read as one prompt, one record a line, JSONL or CSV), counts each record
with each chosen model's tokenizer (a progress bar while it takes more than a moment; kept for the session, so a
change of price or rate never counts again), and draws: a card per model (tokens, its prices with their date and
source, editable, and the cost), the per-record statistics, the five longest records and a histogram, the premium
over an English version of the same text, and the command line that gives the same numbers.

Bounds, by design: a file of up to :data:`UPLOAD_MB` MB, a paste of up to :data:`PASTE_MB` MB, up to
:data:`MAX_RECORDS` records, and the lab's own (pure Python) models on up to :data:`LAB_MAX_CHARS` characters; past
them the page says so and gives the command that counts any size. The uploaded file never goes in the link.
"""

from __future__ import annotations

import csv
import io
import math
import re
import shlex
from collections.abc import Sequence
from contextlib import nullcontext
from dataclasses import dataclass
from decimal import Decimal

import altair as alt
import pandas as pd
import streamlit as st

import lessons
from analyses import estimate as est
from analyses import tally as tally_
from analyses.textstats import utf8_length
from family import models as fm
from tokenizer import TextTokenizer
from ui import charts, choices, state, tables
from ui import premium as pv
from ui.display import join_words, md_escape, plural, readable_text
from ui.layout import classroom_on, figure
from ui.links import lesson_link
from ui.uploads import decode_text_file, too_big, uploaded_bytes, uploaded_file

PAGE = "estimate"
UPLOAD_MB = 20
UPLOAD_BYTES = UPLOAD_MB * 1_000_000
"""An uploaded file is read up to this size: 10,000 long chat records fit several times over; past it, the CLI."""
PASTE_MB = 2
PASTE_BYTES = PASTE_MB * 1_000_000
MAX_RECORDS = 50_000
"""Records counted per request (each model counts each one): past this, the command line."""
LAB_MAX_CHARS = 200_000
"""The lab's own models are pure Python (about 0.1 MB a second): they count up to this many characters."""
BATCH = 1_000
"""Records counted between two moves of the progress bar."""
PROGRESS_CHARS = 300_000
"""Counting shows a progress bar from this many characters (or :data:`BATCH` records) on: a moment."""
PREVIEW_CHARS = 90
HEADER_CHARS = 100_000
PREMIUM_MAX_CHARS = 20_000
"""The premium over English is measured on texts up to this long (its measures are cached for every learner)."""
BIG = 10**12
MAX_LISTED_PROBLEMS = 10
HISTOGRAM_BINS = 20

LIMITS = (f"This page reads up to {UPLOAD_MB} MB from a file ({PASTE_MB} MB pasted) and up to {MAX_RECORDS:,} records, "
          "so that one request stays quick; `python -m tokenizer count --file` and `cost --file` stream a file of any "
          "size.")
SOURCES = {"paste": "Paste text", "file": "Upload a file"}
KINDS = {"text": "One prompt", "lines": "One record a line", "jsonl": "JSONL: a record a line",
         "csv": "CSV: a row a record"}
OUTPUTS = {"tokens": "Tokens", "ratio": "× input"}
EXTENSIONS = {"jsonl": "jsonl", "ndjson": "jsonl", "json": "jsonl", "csv": "csv", "tsv": "csv"}
FILE_TYPES = ["txt", "text", "md", "jsonl", "ndjson", "json", "csv", "tsv", "log"]
EXAMPLE = lessons.examples("estimate")[0]


def tokens_text(n: float) -> str:
    """A token count as the page writes it: whole numbers as such, a mean with one decimal.

    >>> tokens_text(80.0), tokens_text(1234.25)
    ('80', '1,234.2')
    """
    return f"{n:,.0f}" if float(n).is_integer() else f"{n:,.1f}"


def _model_keys() -> tuple[str, ...]:
    return tuple(m.key for m in fm.models())


def default_models() -> tuple[str, ...]:
    """GPT-4o, GPT-4 and Llama 3.3 (the issue's three; the Llama 3.x with a published price), by their keys."""
    out = []
    for name in ("GPT-4o", "GPT-4", "Llama 3.3 70B"):
        try:
            out.append(fm.find(name).key)
        except fm.UnknownModel:
            continue
    return tuple(dict.fromkeys(out))


# -- the settings, all in the URL (never the file) ---------------------------------------------------
@dataclass(frozen=True)
class PriceParam(state.Param):
    """A price in USD per million tokens: a number >= 0, or None (no published price: the box starts empty)."""

    def parse(self, raw: str | None):
        if raw is None or raw == "":
            return self.default
        try:
            value = float(raw)
        except ValueError:
            return self.default
        if not math.isfinite(value) or value < 0:
            return self.default
        return min(value, float(BIG))

    def dump(self, value) -> str:
        return "" if value is None else f"{value:g}"


SOURCE = state.Param(PAGE, "source", "paste", choices=tuple(SOURCES))
KIND = state.Param(PAGE, "kind", "text", choices=tuple(KINDS))
FIELD = state.Param(PAGE, "field", "", max_len=100)
COLUMN = state.Param(PAGE, "column", "", max_len=200)
TEXT = state.Param(PAGE, "text", EXAMPLE["text"], max_len=1000)
ENGLISH = state.Param(PAGE, "en", EXAMPLE["english"], max_len=1000)
MODELS = state.Param(PAGE, "models", ",".join(default_models()), max_len=400)
OUTPUT = state.Param(PAGE, "output", "tokens", choices=tuple(OUTPUTS))
OUT_TOKENS = state.Param(PAGE, "out_tokens", 300, lo=0, hi=BIG)
OUT_RATIO = state.Param(PAGE, "out_ratio", 0.5, lo=0, hi=1000)
REQUESTS = state.Param(PAGE, "per_month", 100_000, lo=0, hi=BIG)
INR = state.Param(PAGE, "inr", float(fm.INR_PER_USD), lo=0, hi=BIG)
RECORDS_OF = state.Param(PAGE, "records_of", "", max_len=100)
AS_CHAT = state.Param(PAGE, "as_chat", False)
"""Count each text record as one user message in the model's chat format (its template's tokens added)."""
PARAMS = [SOURCE, KIND, FIELD, COLUMN, TEXT, ENGLISH, MODELS, OUTPUT, OUT_TOKENS, OUT_RATIO, REQUESTS, INR, RECORDS_OF,
          AS_CHAT]

MODELS_LIST = state.Key(PAGE, "models_list")
LAB_PICKED = state.Param(PAGE, "toks", "", max_len=400)
"""The lab's own models picked (ui.choices.pick_many keeps them in the link as ``?toks=``; read here only)."""
UPLOAD = state.Key(PAGE, "file")
EXAMPLE_BUTTON = state.Key(PAGE, "example")
STATS_TABLE = state.Key(PAGE, "stats")
LONGEST_TABLE = state.Key(PAGE, "longest")
HISTOGRAM = state.Key(PAGE, "histogram")
PREMIUM_TABLE = state.Key(PAGE, "premium")
ENGLISH_OPEN = state.Key(PAGE, "english_open")
_COUNTS = "estimate._counts"  # this session's counts of the data on screen (never more than one dataset's)


def price_params(key: str) -> tuple[PriceParam, PriceParam]:
    """The two price boxes of the model or lab tokenizer ``key`` (USD per million input / output tokens); each
    starts at the published price, or empty when none is known."""
    known = fm.price(key) if key in _model_keys() else None
    slug = key.replace(":", "_")
    return (PriceParam(PAGE, f"{slug}.in", float(known.input_per_m) if known else None, max_len=30),
            PriceParam(PAGE, f"{slug}.out", float(known.output_per_m) if known else None, max_len=30))


# -- what is counted -------------------------------------------------------------------------------
@dataclass(frozen=True)
class Target:
    """One thing to count with: a product model (``model``) or one of the lab's own tokenizers (``model`` None)."""

    key: str  # the model's key, or the lab tokenizer's choice key
    label: str  # "GPT-4o"
    tokenizer_key: str
    tok: TextTokenizer
    model: fm.Model | None

    @property
    def lab(self) -> bool:
        return self.model is None


@dataclass(frozen=True)
class Counted:
    """One target's counts of the data: the per-record statistics and the chat format's tokens in them."""

    stats: est.RecordStats
    overhead: int | None  # tokens the chat format adds, over every chat record; None: format unknown (or no chats)
    chats: int  # records that are chats
    refused: tuple[est.Problem, ...] = ()  # chats the model's template refuses: left out


@dataclass
class Data:
    """The input as read: its identity (for the session's counts), the records, the broken ones, what it is."""

    ident: str
    records: list[est.Record]
    problems: list[est.Problem]  # the first MAX_LISTED_PROBLEMS
    characters: int
    file_name: str | None
    problem_count: int = -1  # all the broken ones (-1: as many as listed)
    more: bool = False  # more than MAX_RECORDS records: reading stopped there

    @property
    def broken(self) -> int:
        return len(self.problems) if self.problem_count < 0 else self.problem_count


def models_changed() -> None:
    """on_change of the model picker: the link's list follows it."""
    state.set_value(MODELS, ",".join(st.session_state.get(MODELS_LIST.skey) or []))


def chosen_model_keys() -> list[str]:
    known = _model_keys()
    return [k for k in str(state.value(MODELS) or "").split(",") if k in known]


def use_example() -> None:
    state.set_value(TEXT, EXAMPLE["text"])
    state.set_value(ENGLISH, EXAMPLE["english"])
    state.set_value(KIND, "text")
    state.set_value(SOURCE, "paste")


def file_chosen() -> None:
    """on_change of the uploader: read the file the way its name says (JSONL, CSV, else a record a line)."""
    file = uploaded_file(UPLOAD.skey)
    if file is None:
        return
    ext = file.name.rsplit(".", 1)[-1].lower() if "." in file.name else ""
    state.set_value(KIND, EXTENSIONS.get(ext, "lines"))


def settings_box(what: str):
    """Where secondary settings go: in classroom mode a closed expander (the slide shows the results)."""
    return st.expander(what, icon=":material/tune:") if classroom_on() else nullcontext()


# -- 1. the input --------------------------------------------------------------------------------------
def intro() -> None:
    if not classroom_on():
        st.markdown(
            "What will your prompts cost? Paste a prompt, or upload a dataset (text, JSONL, CSV), pick the models "
            "you would send it to, and read the tokens each one's tokenizer counts, exactly, and the cost per request "
            "and per month in USD and INR. **Prices change**: each one below shows its date and source, and every "
            "one is yours to change (the link keeps your numbers; a file is never put in the link)."
        )
    lesson_link(5)


def input_section(large: bool) -> Data | None:
    """The text box or the uploader, how to read it, and the records read; None (after saying why) when there is
    nothing to count. Classroom mode: the text box only (how to read it, and a file, in a closed box)."""
    with settings_box("Paste or upload, and how to read it"):
        st.segmented_control("Your input", tuple(SOURCES), key=SOURCE.skey, format_func=SOURCES.get, required=True)
        kind_picker()
    if state.value(SOURCE) == "file":
        raw, name = uploaded_bytes(
            "A file: plain text, JSONL or CSV", key=UPLOAD.skey, types=FILE_TYPES, limit_mb=UPLOAD_MB,
            on_change=file_chosen,
            help="UTF-8. A text file is one prompt or one record a line; JSONL one record a line (a chat's "
            "`messages`, or a field you name); CSV one row a record (a column you pick).")
        st.caption(LIMITS)
        if raw is None:
            st.info("Upload a file to count it (a file is never put in the link: after a reload, upload it again). "
                    "Or paste text instead.", icon=":material/upload_file:")
            return None
        if len(raw) > UPLOAD_BYTES:
            too_big_for_page(f"This file is {len(raw) / 1e6:,.1f} MB; this page reads files of up to {UPLOAD_MB} MB.",
                             name)
            return None
        text, problem = decode_text_file(raw, UPLOAD_BYTES)
        del raw
        if problem:
            st.warning(md_escape(f"{name}: {problem}"), icon=":material/error:")
            return None
        ident = f"file:{getattr(uploaded_file(UPLOAD.skey), 'file_id', name)}:{len(text)}"
    else:
        st.text_area("Your prompt or records", key=TEXT.skey, height=90 if classroom_on() else 130,
                     placeholder="Paste a prompt, or records one a line…",
                     help=f"Up to {PASTE_MB} MB; bigger: upload a file (up to {UPLOAD_MB} MB).")
        if not classroom_on():
            st.button(f"Back to the example: {EXAMPLE['label']}", key=EXAMPLE_BUTTON.skey, on_click=use_example,
                      type="tertiary", icon=":material/restart_alt:")
        text, name = state.value(TEXT) or "", None
        if not text.strip():
            st.info("Paste a prompt above (or records, one a line), or upload a file.", icon=":material/edit:")
            return None
        if too_big(utf8_length(text), PASTE_BYTES, f"or upload it as a file, up to {UPLOAD_MB} MB"):
            return None
        if state.too_long([TEXT]):
            st.caption("This text is too long to put in the page's link; the link keeps the models and the numbers.")
        ident = "text:" + state.digest(text)
    return read_section(text, ident, name)


def kind_picker() -> None:
    st.segmented_control("Read it as", tuple(KINDS), key=KIND.skey, format_func=KINDS.get, required=True,
                         help="One prompt: the whole text is one request. One record a line: each non-empty line "
                         "is a request. JSONL: each line a JSON record. CSV: each row, from the column you pick.")


def too_big_for_page(message: str, file_name: str | None) -> None:
    """The one message for input bigger than the page reads: the command that counts any size."""
    kind = state.value(KIND)
    cmd = " ".join(_file_args(kind, file_name, state.value(FIELD), state.value(COLUMN)))
    st.warning(md_escape(f"{message} The command line counts a file of any size, streaming it, with the same "
                         "numbers:"),
               icon=":material/terminal:")
    st.code(f"python -m tokenizer count {_model_args(chosen_model_keys())} {cmd}\n"
            f"python -m tokenizer cost {_model_args(chosen_model_keys())} {cmd}",
            language=None, wrap_lines=True)  # plain text: large type reaches it


def _header(text: str) -> list[str]:
    """A CSV's header row (read from its start only: a whole file's copy per click is not needed for it)."""
    try:
        return next(csv.reader(io.StringIO(text[:HEADER_CHARS], newline="")), [])
    except csv.Error:
        return []


def missing_column(text: str, column: str) -> str:
    """The engine's words for a CSV without ``column`` (it lists the columns there are)."""
    try:
        est.read_records(text.split("\n", 1)[0] + "\n", "csv", column=column)
    except est.EstimateInputError as exc:
        return str(exc)
    return f"This CSV has no column “{column}”."


def read_section(text: str, ident: str, file_name: str | None) -> Data | None:
    """The JSONL field or the CSV column, then the records read from ``text``."""
    kind = state.value(KIND)
    field = column = None
    if kind == "jsonl":
        st.text_input("Field", key=FIELD.skey, placeholder="messages, text or prompt",
                      help="The field that holds each record's text, or its chat (a list of role and content). "
                      "Empty: a record's `messages` if it has them, else its `text` or `prompt`.")
        field = (state.value(FIELD) or "").strip() or None
    elif kind == "csv":
        header = _header(text)
        if not header:
            st.warning("This CSV has no header row: its first line names the columns.", icon=":material/error:")
            return None
        wanted = state.value(COLUMN)
        if wanted and wanted not in header:  # a link (or the last file) named a column this file does not have
            st.warning(md_escape(missing_column(text, wanted) + f" Showing the column “{header[0]}”."),
                       icon=":material/error:")
        if not wanted or wanted not in header:
            state.set_value(COLUMN, header[0])
        st.selectbox("Column", header, key=COLUMN.skey, help="The column that holds each record's text.")
        column = state.value(COLUMN)
    if kind == "text" and len(text) > est.MAX_RECORD_CHARS:
        too_big_for_page(f"As one prompt, this text is longer than any model reads ({est.MAX_RECORD_CHARS:,} "
                         "characters is the most one record may have): read it as one record a line, or", file_name)
        return None
    cached = st.session_state.get(_COUNTS)
    key = (ident, kind, field, column)
    if cached is not None and cached["key"] == key:
        data = cached["data"]
    else:
        try:
            data = read_data(text, kind, field, column, ident, file_name)
        except est.EstimateInputError as exc:
            st.warning(md_escape(str(exc)), icon=":material/error:")
            return None
        st.session_state[_COUNTS] = {"key": key, "data": data, "counts": {}}
    if data.more:
        too_big_for_page(f"This input has more than {MAX_RECORDS:,} records; this page counts up to {MAX_RECORDS:,} "
                         "in one go.", file_name)
        return None
    if data.broken:
        say_problems(data)
    if not data.records:
        st.warning("Nothing to count: no record could be read. " + _kind_hint(kind), icon=":material/error:")
        return None
    return data


def read_data(text: str, kind: str, field: str | None, column: str | None, ident: str,
              file_name: str | None) -> Data:
    """The records of ``text``, read as a stream and held up to MAX_RECORDS (one more says there are more: a file
    of millions of short lines is refused without a million records in memory); the first broken ones listed, all
    of them counted."""
    records: list[est.Record] = []
    problems: list[est.Problem] = []
    broken = 0
    for item in est.iter_records(io.StringIO(text, newline=""), kind, field, column):
        if isinstance(item, est.Record):
            if len(records) == MAX_RECORDS:
                return Data(ident, [], problems, len(text), file_name, broken, more=True)
            records.append(item)
        else:
            broken += 1
            if len(problems) < MAX_LISTED_PROBLEMS:
                problems.append(item)
    return Data(ident, records, problems, len(text), file_name, broken)


def _kind_hint(kind: str) -> str:
    return {"jsonl": "Each line should be a JSON object with the field named (or `messages`, `text` or `prompt`).",
            "csv": "Each row should have text in the column picked.",
            }.get(kind, "Paste or upload some text.")


def say_problems(data: Data) -> None:
    """Broken records: which, why (the first), and that the rest are counted."""
    problems, broken = data.problems, data.broken
    numbers = [str(p.number) for p in problems[:MAX_LISTED_PROBLEMS]]
    which = join_words(numbers, broken - len(numbers))
    st.warning(md_escape(
        f"{plural(broken, 'line')} could not be read and {'is' if broken == 1 else 'are'} left out: "
        f"line{'s' if broken > 1 else ''} {which} (line {problems[0].number}: {problems[0].reason}). "
        f"The other {plural(len(data.records), 'record')} are counted."), icon=":material/rule:")


# -- 2. the models ---------------------------------------------------------------------------------------
def models_section() -> list[Target]:
    """The product models (by name, each with its tokenizer) and the lab's own; the usable ones."""
    known = {m.key: m for m in fm.models()}
    st.session_state[MODELS_LIST.skey] = chosen_model_keys()
    labels = {k: f"{m.name} · {m.tokenizer}" for k, m in known.items()}
    st.multiselect("Models", list(known), key=MODELS_LIST.skey, format_func=lambda k: labels.get(k, k),
                   on_change=models_changed, placeholder="Pick the models you would send it to",
                   help="By product name; each counts with the tokenizer it uses (after the name). The mapping is "
                   "data, with its source (the About box below).")
    st.toggle("Send each text as a user message (count the chat format's tokens too)", key=AS_CHAT.skey,
              help="A chat API wraps each message in its model's template: a few tokens a message, and the reply's "
              "start. Records that are chats already (JSONL `messages`) are always counted with their template.")
    targets = []
    for key in chosen_model_keys():
        m = known[key]
        try:
            targets.append(Target(key, m.name, m.tokenizer, choices.load(m.tokenizer), m))
        except choices.Unavailable as exc:
            st.warning(md_escape(f"{m.name}: {exc}"), icon=":material/error:")
    if not classroom_on() or st.query_params.get(LAB_PICKED.name):  # classroom: fewer controls, unless linked
        with st.expander("The lab's own models (no price: give one to see a cost)", icon=":material/science:"):
            for key, tok in choices.pick_many(PAGE, default=[], kinds=("lab", "session"), label="The lab's models",
                                              upload=False):
                targets.append(Target(key, tok.name, key, tok, None))
    if not targets:
        st.info("Pick at least one model.", icon=":material/list:")
    return targets


# -- 3. counting -------------------------------------------------------------------------------------
def counted_from(tally: tally_.Tally) -> Counted:
    """A target's counts as the page keeps them, from the estimate pipeline's tally."""
    return Counted(tally.stats.result(), tally.overhead if tally.chats and not tally.no_format else None, tally.chats,
                   tuple(tally.refusals))


def count_targets(targets: Sequence[Target], data: Data, bar, as_chat: bool = False) -> dict[str, Counted]:
    """Every record counted with each target by the estimate's one pipeline (:func:`analyses.tally.count_records`,
    the same as the command line's: a chat's format tokens too, kept apart to show them), moving the bar every BATCH
    records. A chat a model's template refuses is left out and named."""
    counters = [tally_.Counter(t.label, t.tok, t.tokenizer_key, t.model) for t in targets]
    n = len(data.records)

    def moved(tallies: tally_.Tallies, batch: est.Batch) -> None:
        done = tallies.counted() + max((t.refused for t in tallies.tallies), default=0)
        if bar is not None and n > 1:
            bar.progress(min(done / n, 1.0), text=f"Counting: {done:,} of {n:,} records")

    tallies = tally_.count_records(counters, data.records, as_chat=as_chat, progress=moved, batch_records=BATCH)
    return {t.key: counted_from(tally) for t, tally in zip(targets, tallies.tallies)}


def count_section(targets: Sequence[Target], data: Data) -> dict[str, Counted]:
    """Each target's counts, from the session's store or counted now (with a progress bar past a moment)."""
    store = st.session_state[_COUNTS]["counts"]
    as_chat = bool(state.value(AS_CHAT))
    todo = [t for t in targets if (t.key, as_chat) not in store]
    lab_big = [t for t in todo if t.lab and data.characters > LAB_MAX_CHARS]
    if lab_big:
        st.info(md_escape(
            f"{join_words([t.label for t in lab_big])}: the lab's own models are pure Python and count up to "
            f"{LAB_MAX_CHARS:,} characters here; this input has {data.characters:,}. The production tokenizers count "
            "it all."), icon=":material/speed:")
        todo = [t for t in todo if t not in lab_big]
    slow = data.characters > PROGRESS_CHARS or len(data.records) > BATCH
    bar = st.progress(0.0, text="Counting…") if todo and slow else None
    try:  # every target in one pass (targets on one tokenizer count each record once)
        found = count_targets(todo, data, bar, as_chat) if todo else {}
    except (ValueError, est.EstimateInputError):  # one of them refuses the input: count each alone, to say which
        found = {}
        for target in todo:
            try:
                found.update(count_targets([target], data, bar, as_chat))
            except (ValueError, est.EstimateInputError) as exc:
                st.warning(md_escape(f"{target.label} cannot count this input: {exc}"), icon=":material/error:")
    store.update({(key, as_chat): counted for key, counted in found.items()})
    if bar is not None:
        bar.empty()
    return {t.key: store[t.key, as_chat] for t in targets if (t.key, as_chat) in store}


# -- 4. the settings of the bill -------------------------------------------------------------------------
def bill_settings(large: bool) -> None:
    with settings_box("Change the numbers: output, requests, the exchange rate"):
        c1, c2, c3, c4 = (*st.columns(2), *st.columns(2)) if large else st.columns(4)
        with c1:
            st.segmented_control("Expected output", tuple(OUTPUTS), key=OUTPUT.skey, format_func=OUTPUTS.get,
                                 required=True, help="What the model writes back: a number of tokens a request, or "
                                 "a ratio of the input (0.5: half as many tokens as the request).")
        with c2:
            if state.value(OUTPUT) == "ratio":
                st.number_input("Output ÷ input", key=OUT_RATIO.skey, min_value=0.0, step=0.1, format="%.2f")
            else:
                st.number_input("Output tokens a request", key=OUT_TOKENS.skey, min_value=0, step=50)
        with c3:
            st.number_input("Requests a month", key=REQUESTS.skey, min_value=0, step=1000)
        with c4:
            st.number_input("INR per USD", key=INR.skey, min_value=0.0, step=0.5, format="%.2f",
                            help=f"The default is {fm.INR_PER_USD} ({fm.INR_DATE}, {fm.INR_SOURCE}).")


def exchange_note() -> str:
    """The exchange rate used, dated (the lab's default) or said to be yours."""
    rate = state.value(INR)
    return (f"Exchange rate: Rs {rate:,.2f} a dollar"
            + (f" (the lab's default, {fm.INR_DATE}: {fm.INR_SOURCE})."
               if Decimal(str(rate)) == fm.INR_PER_USD else " (yours)."))


def _output_kwargs() -> dict:
    if state.value(OUTPUT) == "ratio":
        return {"output_ratio": float(state.value(OUT_RATIO))}
    return {"output_tokens": float(state.value(OUT_TOKENS))}


def price_of(target: Target) -> tuple[fm.Price | None, str]:
    """The price in the boxes (the published one, or yours), and where it comes from, in words."""
    p_in, p_out = price_params(target.key)
    v_in, v_out = state.value(p_in), state.value(p_out)
    known = fm.price(target.key) if target.model is not None else None
    if v_in is None or v_out is None:
        return None, ""
    if known is not None and v_in == p_in.default and v_out == p_out.default:
        return known, f"published {known.date}: {known.source}"
    price = fm.Price(target.key, Decimal(str(v_in)), Decimal(str(v_out)), "yours", "set on this page")
    was = f" (published {known.date}: ${known.input_per_m} / ${known.output_per_m})" if known else ""
    return price, f"your price{was}"


def price_inputs(target: Target) -> None:
    p_in, p_out = price_params(target.key)
    a, b = st.columns(2)
    a.number_input("USD per 1M input tokens", key=p_in.skey, min_value=0.0, step=0.05, format="%.3f",
                   placeholder="enter a price")
    b.number_input("USD per 1M output tokens", key=p_out.skey, min_value=0.0, step=0.05, format="%.3f",
                   placeholder="enter a price")


# -- 5. the cards: one model each ------------------------------------------------------------------------
def card_key(key: str) -> str:
    """The container key of a model's card (its element carries the class ``st-key-<this>``).

    >>> card_key("gpt-4.1"), card_key("session:ab12")
    ('tl-card-gpt-4-1', 'tl-card-session-ab12')
    """
    return "tl-card-" + re.sub(r"[^a-z0-9-]", "-", key.lower())


def model_card(target: Target, counted: Counted, data: Data, large: bool) -> est.Cost | None:
    s = counted.stats
    many = s.records > 1
    st.markdown(f"**{md_escape(target.label)}** · counts with {md_escape(target.tok.name)}"
                + ("" if target.model is None else f" · {md_escape(target.model.vendor)}"))
    with settings_box("Change its prices"):
        price_inputs(target)
    price, where = price_of(target)
    if price is None:
        st.info(md_escape(f"No published price for {target.label} is known here: enter one (USD per million tokens, "
                          "input and output) to see its cost."), icon=":material/edit:")
    else:
        st.caption(md_escape(f"${price.input_per_m} / ${price.output_per_m} per million input / output tokens: "
                             f"{where}."))
    bill = None
    if price is not None:
        try:
            bill = est.cost(s.mean, price, requests_per_month=int(state.value(REQUESTS)),
                            inr_per_usd=Decimal(str(state.value(INR))), **_output_kwargs())
        except (ValueError, est.EstimateInputError) as exc:
            st.warning(md_escape(str(exc)), icon=":material/error:")
    tokens_col, request_col, month_col = st.columns(3)
    tokens_col.metric("Input tokens" + (" a request (mean)" if many else ""),
                      tokens_text(s.mean) if many else f"{s.total:,}",
                      help="Counted exactly with the model's tokenizer"
                      + (f"; {s.total:,} in all {s.records:,} records." if many else "."))
    if bill is not None:
        request_col.metric("USD a request", est.usd(bill.usd_per_request))
        request_col.metric("INR a request", est.inr(bill.inr_per_request))
        month_col.metric("USD a month", est.usd(bill.usd_per_month))
        month_col.metric("INR a month", est.inr(bill.inr_per_month))
        st.caption(md_escape(
            f"{tokens_text(bill.input_tokens)} tokens in + {tokens_text(bill.output_tokens)} out a request, "
            f"× {int(state.value(REQUESTS)):,} requests a month."
            + (f" All {s.records:,} records once: {est.usd(bill.usd_per_request * s.records)} "
               f"({est.inr(bill.inr_per_request * s.records)})." if many else "")))
    if counted.refused:
        first, lines = counted.refused[0], [str(p.number) for p in counted.refused]
        st.warning(md_escape(
            f"{target.label}'s chat template refuses {plural(len(lines), 'record')}, left out of its count: "
            f"line{'s' if len(lines) > 1 else ''} {join_words(lines[:MAX_LISTED_PROBLEMS], max(0, len(lines) - MAX_LISTED_PROBLEMS))}"
            f" (line {first.number}: {first.reason})."), icon=":material/rule:")
    if counted.chats:
        if counted.overhead is None:
            st.caption(md_escape(f"{target.label}'s chat format is not published here: the tokens it adds around each "
                                 "message are not counted (the contents are)."))
        else:
            st.caption(md_escape(f"Chat format ({target.model.chat}): {plural(counted.overhead, 'token')} around the "
                                 f"messages of {plural(counted.chats, 'chat')}, counted in the input."))
    return bill


# -- 6. records: statistics, the longest, a histogram -----------------------------------------------------
def stats_table(targets: Sequence[Target], counts: dict[str, Counted]) -> None:
    rows = []
    for t in targets:
        if t.key not in counts:
            continue
        c = counts[t.key]
        s = c.stats
        rows.append({"model": t.label, "tokenizer": t.tokenizer_key, "records": s.records, "tokens": s.total,
                     "mean": s.mean, "p50": s.p50, "p95": s.p95, "max": s.max,
                     "chat format tokens": c.overhead})
    tables.show(pd.DataFrame(rows), hide_index=True, key=STATS_TABLE.skey, placeholder="—", column_config={
        "mean": st.column_config.NumberColumn(format="%.1f", help="Tokens a record, on average."),
        "p50": st.column_config.NumberColumn(format="%.1f", help="Half the records have this many tokens or fewer."),
        "p95": st.column_config.NumberColumn(format="%.1f", help="95 in 100 records have this many or fewer."),
        "chat format tokens": st.column_config.NumberColumn(help="What the chat template adds around the messages, "
                                                            "in all (already in the tokens); empty: not a chat, or the "
                                                            "format is not published."),
    })


def _preview(record: est.Record) -> str:
    if record.messages is not None:
        text = " | ".join(f"{role}: {content}" for role, content in record.messages)
    else:
        text = record.text or ""
    return readable_text(text, limit=PREVIEW_CHARS)


@st.cache_data(max_entries=32, show_spinner=False)
def histogram_spec(bins: tuple[tuple[int, int, int], ...], label: str, large: bool) -> dict:
    data = pd.DataFrame([{"low": lo, "high": hi, "records": n} for lo, hi, n in bins])
    chart = alt.Chart(data).mark_bar(stroke="#000", strokeWidth=1, color=charts.BLUE).encode(
        x=alt.X("low:Q", bin="binned", title=f"tokens a record ({label})", axis=alt.Axis(format=",d", tickCount=10)),
        x2="high:Q",
        y=alt.Y("records:Q", title="records", axis=alt.Axis(format=",d", tickMinStep=1)),
        tooltip=[alt.Tooltip("low:Q", title="from", format=",d"), alt.Tooltip("high:Q", title="to", format=",d"),
                 alt.Tooltip("records:Q", format=",d")],
    ).properties(height=260 if large else 220)
    return charts.spec(chart, large=large)


def records_section(targets: Sequence[Target], counts: dict[str, Counted], data: Data, large: bool) -> None:
    counted = [t for t in targets if t.key in counts]
    if not counted or len(data.records) < 2:
        return
    st.subheader("Your records")
    stats_table(counted, counts)
    names = {t.key: t.label for t in counted}
    if state.value(RECORDS_OF) not in names:
        state.set_value(RECORDS_OF, counted[0].key)
    which = st.selectbox("The longest records and the histogram of", list(names), key=RECORDS_OF.skey,
                         format_func=names.get) if len(names) > 1 else counted[0].key
    s = counts[which].stats
    by_number = {r.number: r for r in data.records if r.number in {n for n, _ in s.longest}}
    st.markdown(f"**The {plural(len(s.longest), 'longest record')}** ({md_escape(names[which])})")
    tables.show(pd.DataFrame([{"line": n, "tokens": tokens, "starts": _preview(by_number[n])}
                              for n, tokens in s.longest]),
                hide_index=True, key=LONGEST_TABLE.skey,
                column_config={"line": st.column_config.NumberColumn(help="The record's line (or row) in the input."),
                               "starts": st.column_config.TextColumn(width="large")})
    with figure("estimate-histogram"):
        charts.draw(histogram_spec(tuple(s.histogram(HISTOGRAM_BINS)), names[which], large), key=HISTOGRAM.skey)


# -- 7. the premium over English -----------------------------------------------------------------------------
def premium_section(targets: Sequence[Target], data: Data, large: bool) -> None:
    if state.value(SOURCE) != "paste" or state.value(KIND) != "text":
        return
    with st.expander("The same text in English: what your language pays over it", icon=":material/translate:",
                     key=ENGLISH_OPEN.skey):
        st.text_area("The English version", key=ENGLISH.skey, height=100,
                     help="The same meaning in English: each model's tokens for your text ÷ its tokens for this.")
        english = (state.value(ENGLISH) or "").strip()
        if not english:
            st.caption("Paste the English version of your text to see the premium each model's tokenizer charges.")
            return
        text = data.records[0].text or ""
        if len(text) > PREMIUM_MAX_CHARS or len(english) > PREMIUM_MAX_CHARS:
            st.caption(f"The premium is measured on texts of up to {PREMIUM_MAX_CHARS:,} characters: compare a "
                       "paragraph or two.")
            return
        rows = []
        for t in targets:
            try:
                m = pv.measured(t.tokenizer_key, english, text)
            except (ValueError, choices.Unavailable):
                continue
            rows.append({"model": t.label, "your text": m.other.tokens, "English": m.english.tokens,
                         "premium": est.premium(m.other.tokens, m.english.tokens) if m.english.tokens else None,
                         "UTF-8 part": m.utf8_part, "tokenizer part": m.tokenizer_part})
        tables.show(pd.DataFrame(rows), hide_index=True, key=PREMIUM_TABLE.skey, placeholder="—", column_config={
            "premium": st.column_config.NumberColumn(format="%.2f×", help="Your text's tokens ÷ the English tokens: "
                                                     "what the same request costs over English."),
            "UTF-8 part": pv.COLUMNS["UTF-8 part"], "tokenizer part": pv.COLUMNS["tokenizer part"]})
        st.caption("As on the Real tokenizers page: premium = UTF-8 part × tokenizer part.")


# -- 8. the command line -----------------------------------------------------------------------------
def _model_args(keys: Sequence[str]) -> str:
    return " ".join(f"--model {shlex.quote(k)}" for k in keys) or "--model MODEL"


def _file_args(kind: str, file_name: str | None, field: str | None, column: str | None) -> list[str]:
    ext = {"jsonl": "jsonl", "csv": "csv"}.get(kind, "txt")
    args = ["--file", shlex.quote(file_name) if file_name else f"YOUR_FILE.{ext}"]
    if kind != "text":
        args.append("--lines")
    if kind == "jsonl" and field:
        args += ["--field", shlex.quote(field)]
    if kind == "csv" and column:
        args += ["--column", shlex.quote(column)]
    return args


def command_lines(model_keys: Sequence[str], *, prices: dict[str, tuple[Decimal, Decimal]], output: str,
                  out_tokens: int, out_ratio: float, requests: int, inr: float, kind: str, field: str | None,
                  column: str | None, file_name: str | None, text: str | None, as_chat: bool = False) -> list[str]:
    """The ``python -m tokenizer cost`` commands that give the page's numbers: one for the models at their published
    prices, and one for each model whose price you changed (the CLI takes one price pair a command).

    >>> (line,) = command_lines(["gpt-4o", "gpt-4"], prices={}, output="tokens", out_tokens=300, out_ratio=0.5,
    ...     requests=1000, inr=85.0, kind="jsonl", field="messages", column=None, file_name=None, text=None)
    >>> print(line)
    python -m tokenizer cost --model gpt-4o --model gpt-4 --output-tokens 300 --requests-per-month 1000
    --inr-per-usd 85 --file YOUR_FILE.jsonl --lines --field messages
    """
    out = f"--output-ratio {out_ratio:g}" if output == "ratio" else f"--output-tokens {out_tokens}"
    common = f"{out} --requests-per-month {requests} --inr-per-usd {inr:g}" + (" --as-chat" if as_chat else "")
    if kind == "text" and text is not None and len(text) <= 300 and "\n" not in text:
        source = ("-- " if text.startswith("-") else "") + shlex.quote(text)  # "-5% off" is a text, not a flag
    else:
        source = " ".join(_file_args(kind, file_name, field, column))
    groups: list[tuple[list[str], str]] = []
    plain = [k for k in model_keys if k not in prices]
    if plain:
        groups.append((plain, ""))
    for key in model_keys:
        if key in prices:
            p_in, p_out = prices[key]
            groups.append(([key], f" --input-price {p_in} --output-price {p_out}"))
    return [f"python -m tokenizer cost {_model_args(keys)} {common}{extra} {source}" for keys, extra in groups]


def command_section(targets: Sequence[Target], data: Data) -> None:
    models = [t for t in targets if not t.lab]
    prices = {}
    for t in models:
        price, _ = price_of(t)
        known = fm.price(t.key)
        if price is not None and (known is None or price != known):
            prices[t.key] = (price.input_per_m, price.output_per_m)
    st.markdown("**The same numbers on the command line**")
    if not models:
        st.caption("The command line prices product models: pick one above.")
        return
    kind = state.value(KIND)
    text = data.records[0].text if state.value(SOURCE) == "paste" and kind == "text" else None
    lines = command_lines([t.key for t in models], prices=prices, output=state.value(OUTPUT),
                          out_tokens=int(state.value(OUT_TOKENS)), out_ratio=float(state.value(OUT_RATIO)),
                          requests=int(state.value(REQUESTS)), inr=float(state.value(INR)), kind=kind,
                          field=(state.value(FIELD) or "").strip() or None, column=state.value(COLUMN) or None,
                          file_name=data.file_name, text=text, as_chat=bool(state.value(AS_CHAT)))
    st.code("\n".join(lines), language=None, wrap_lines=True)  # plain: large type reaches it
    notes = []
    if text is None and data.file_name is None:
        notes.append("Save your text as the file named.")
    if any(t.lab for t in targets):
        notes.append("The lab's own models are not on the command line.")
    no_price = [t.label for t in models if price_of(t)[0] is None]
    if no_price:
        notes.append(f"{join_words(no_price)}: give --input-price and --output-price.")
    if notes:
        st.caption(md_escape(" ".join(notes)))


def about_section(targets: Sequence[Target]) -> None:
    with st.expander("Where the models, tokenizers and prices come from", icon=":material/info:"):
        for t in targets:
            if t.model is None:
                continue
            p = fm.price(t.key)
            st.markdown(md_escape(f"{t.model.name} ({t.model.vendor}) uses {t.model.tokenizer}: {t.model.source}.")
                        + "  \n" + md_escape(f"Price: ${p.input_per_m} / ${p.output_per_m} per million tokens, "
                                             f"{p.date}, {p.source}." if p else "Price: none published here."))
        st.caption(LIMITS)
        st.caption(md_escape(f"Prices change: check each provider's page before you budget. Exchange rate: "
                             f"{fm.INR_PER_USD} ({fm.INR_DATE}, {fm.INR_SOURCE}). {choices.OFFLINE_NOTE}"))


def results_section(targets: Sequence[Target], data: Data, large: bool) -> None:
    counts = count_section(targets, data)
    if not counts:
        return
    st.subheader("What it costs")
    bill_settings(large)
    with figure("estimate-cost"):  # what lesson 5 links to: a card a model
        for t in targets:
            if t.key not in counts:
                continue
            with st.container(border=True, key=card_key(t.key)), state.published(list(price_params(t.key))):
                model_card(t, counts[t.key], data, large)
    if not any(c.chats for c in counts.values()) and any(t.model is not None and t.model.chat for t in targets):
        st.caption("Sent through a chat API, each model's chat format adds a few tokens a request: switch on “Send "
                   "each text as a user message” above to count them.")
    st.caption(md_escape("Prices change: each one shows its date and source. " + exchange_note() + " The tokens are "
                         "exact; the cost assumes every request is like the mean of your records."))
    records_section(targets, counts, data, large)
    premium_section(targets, data, large)
    command_section(targets, data)
    about_section(targets)


__all__ = ["BATCH", "EXAMPLE", "INR", "KIND", "LAB_MAX_CHARS", "MAX_RECORDS", "MODELS",
           "MODELS_LIST", "OUTPUT", "OUT_RATIO", "OUT_TOKENS", "PARAMS", "PASTE_BYTES", "REQUESTS", "SOURCE", "TEXT",
           "UPLOAD", "UPLOAD_BYTES", "UPLOAD_MB", "Counted", "card_key", "Data", "Target", "command_lines", "count_targets",
           "count_section", "default_models", "input_section", "intro", "models_section", "price_params",
           "results_section"]
