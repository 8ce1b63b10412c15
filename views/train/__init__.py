"""What the "Train step by step" page draws: settings, the step view's pieces, its sentences.

A package of parts, in the page's order (each a module; the page composes :func:`intro`, :func:`settings_section`,
:func:`corpus_section`, :func:`training_section` and :func:`trace_section`, passing one :class:`ui.show.Show` that
says how it is shown):

``settings``   the page's session keys and URL parameters, the trainer's settings with the preset's defaults
``text``       a learner's own text: why it cannot be trained on, notes on tricky text, the session model's name
``inputs``     the sections drawn first: the corpus (a preset, or own text typed or uploaded), the settings, training
``steps``      the merges, step by step (a fragment): the merge and why, its chart, the corpus after it, what next
``chart``      the pair-count table and its chart
``sentences``  one step in words: the big step line, how the count adds up, why this pair won
``chips``      corpus words as chips after *k* merges, the base symbols, the tokens learned so far
``files``      the merges as a table; the model and the trace as files

They read the widgets, get a :class:`ui.training.Run` (and its :class:`tokenizer.Trace`) from :mod:`ui.training`
and hand the run or the trace and a step number to the helpers. Nothing here re-implements BPE: the helpers read the trace and ask the trained tokenizer to segment
a word after the first *k* merges.

Step semantics (the page says them in words too): step 0 is before any merge; step *k* shows the pair table
*before* merge *k*, the pair it picked, and the corpus *after* merge *k*.

Everything a click redraws is cached per (run, step): the caches take the :class:`ui.training.Run` (the corpus,
merges and settings that determine the trace) and are keyed by it (``hash_funcs=ui.training.BY_RUN``), so a classroom
stepping through the same preset shares the work, and two different runs can never get each other's output.
"""

from __future__ import annotations

from .chart import (
    CHART_DATA,
    STATUS_OTHER,
    STATUS_TIE,
    STATUS_TOP,
    STATUS_WINNER,
    TIE_COLOUR,
    WINNER_COLOUR,
    pair_chart,
    pair_chart_spec,
    pair_rows,
    rows_key,
)
from .chips import LONG_WORD, corpus_caption, corpus_html, corpus_tokens
from .files import hf_export, merges_frame, tokenizer_json, trace_csv, trace_json
from .inputs import corpus_section, intro, link_notes, settings_section, training_section
from .sentences import count_breakdown, explain, step_header_html, step_summary
from .settings import (
    CODE_OPEN,
    CORPUS_OPEN,
    FIRST,
    LAST,
    NEXT,
    PAGE,
    PREDICT,
    PRESET,
    PREV,
    RESET,
    SETTING,
    STEP,
    STEPPER,
    TABLE_OPEN,
    TEXT,
    UPLOAD,
    url_params,
)
from .steps import trace_section
from .text import text_notes

__all__ = [
    "CHART_DATA", "CODE_OPEN", "CORPUS_OPEN", "FIRST", "LAST", "LONG_WORD", "NEXT", "PAGE", "PREDICT", "PRESET",
    "PREV", "RESET", "SETTING", "STATUS_OTHER", "STATUS_TIE", "STATUS_TOP", "STATUS_WINNER", "STEP", "STEPPER",
    "TABLE_OPEN", "TEXT", "TIE_COLOUR", "UPLOAD", "WINNER_COLOUR", "corpus_caption", "corpus_html", "corpus_section", "corpus_tokens",
    "count_breakdown", "explain", "hf_export", "intro", "link_notes", "merges_frame", "pair_chart", "pair_chart_spec",
    "pair_rows", "rows_key", "settings_section", "step_header_html", "step_summary", "text_notes", "tokenizer_json",
    "trace_csv", "trace_json", "trace_section", "training_section", "url_params",
]
