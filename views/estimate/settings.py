"""The Estimate page's settings, all in the URL (never the file), and its bounds.

Bounds, by design: a file of up to :data:`UPLOAD_MB` MB, a paste of up to :data:`PASTE_MB` MB, up to
:data:`MAX_RECORDS` records, and the lab's own (pure Python) models on up to :data:`LAB_MAX_CHARS` characters; past
them the page says so and gives the command that counts any size. The uploaded file never goes in the link.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import lessons
from family import models as fm
from i18n import N_, _, number
from ui import state

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



def limits() -> str:
    """What the page reads, and the commands that read more, in the learner's language."""
    return _("This page reads up to {upload} MB from a file ({paste} MB pasted) and up to {records} records, so that "
             "one request stays quick; `python -m tokenizer count --file` and `cost --file` stream a file of any size.",
             upload=UPLOAD_MB, paste=PASTE_MB, records=number(MAX_RECORDS))


# The choices' names, marked for the catalogue (drawn through _()); the keys are the link's values.
SOURCES = {"paste": N_("Paste text"), "file": N_("Upload a file")}
KINDS = {"text": N_("One prompt"), "lines": N_("A record a line"), "jsonl": N_("JSONL"), "csv": N_("CSV")}
OUTPUTS = {"tokens": N_("Tokens"), "ratio": N_("× input")}
EXTENSIONS = {"jsonl": "jsonl", "ndjson": "jsonl", "json": "jsonl", "csv": "csv", "tsv": "csv"}
FILE_TYPES = ["txt", "text", "md", "jsonl", "ndjson", "json", "csv", "tsv", "log"]
EXAMPLE = lessons.examples("estimate")[0]


def model_keys() -> tuple[str, ...]:
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
REASONING = state.Param(PAGE, "reasoning", fm.reasoning_budget().value, lo=0, hi=BIG)
"""Reasoning tokens a request of a model that bills them as output: the lab's dated assumption, yours to change."""
CACHED = state.Param(PAGE, "cached", 0.0, lo=0, hi=1)
"""The share of the input read from the provider's prompt cache (0 to 1), at its published cached-input price."""
BATCH_PRICES = state.Param(PAGE, "batch", False)
"""The provider's batch prices, where published."""
REQUESTS = state.Param(PAGE, "per_month", 100_000, lo=0, hi=BIG)
INR = state.Param(PAGE, "inr", float(fm.INR_PER_USD), lo=0, hi=BIG)
RECORDS_OF = state.Param(PAGE, "records_of", "", max_len=100)
AS_CHAT = state.Param(PAGE, "as_chat", False)
"""Count each text record as one user message in the model's chat format (its template's tokens added)."""
EXTRAS = state.Param(PAGE, "extras", True)
"""Count what a model's official chat template adds to its format (Llama 3.1-3.3's dated block, Qwen 2.5's system)."""
PARAMS = [SOURCE, KIND, FIELD, COLUMN, TEXT, ENGLISH, MODELS, OUTPUT, OUT_TOKENS, OUT_RATIO, REASONING, CACHED,
          BATCH_PRICES, REQUESTS, INR, RECORDS_OF, AS_CHAT, EXTRAS]

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
COUNTS = state.Key(PAGE, "_counts")
"""This session's counts of the data on screen (never more than one dataset's)."""


def price_params(key: str) -> tuple[PriceParam, PriceParam]:
    """The two price boxes of the model or lab tokenizer ``key`` (USD per million input / output tokens); each
    starts at the published price, or empty when none is known."""
    known = fm.price(key) if key in model_keys() else None
    slug = key.replace(":", "_")
    return (PriceParam(PAGE, f"{slug}.in", float(known.input_per_m) if known else None, max_len=30),
            PriceParam(PAGE, f"{slug}.out", float(known.output_per_m) if known else None, max_len=30))


def chosen_model_keys() -> list[str]:
    known = model_keys()
    return [k for k in str(state.value(MODELS) or "").split(",") if k in known]
