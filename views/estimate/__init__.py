"""What the "Estimate" page draws: your own prompt or dataset, counted by the tokenizers of the models you name, and
what it costs a request and a month, in USD and in INR, the input (measured) and the output (assumed) apart.

A package of parts, in the page's order (each a module; the page composes :func:`intro`, :func:`input_section`,
:func:`models_section` and :func:`results_section`, passing one :class:`ui.show.Show` that says how it is shown):

``settings``  the page's settings (all in the URL, never the file) and its bounds
``parts``     what the parts hand each other: the input as read (``Data``), the things to count it with (``Target``)
``reading``   1. your input, pasted or uploaded, read into records as the command line reads the same file
``picking``   2. the models, by product name (the reasoning ones and those the lab cannot count said there)
``counting``  3. every record counted by the estimate's one pipeline (analyses.tally, the command line's too)
``bill``      4. the bill: its settings, each model's price, a card a model, what the bill is made of
``records``   5. many records: statistics, the five longest, a histogram
``premium``   6. the premium over an English version of the same text
``command``   7. the command line that gives the same numbers (run by the tests), and where everything comes from

The counting and the money are the engine's (:mod:`analyses.estimate`, :mod:`analyses.tally`,
:mod:`family.models`); these modules read the input, draw, and keep the counts for the session.
"""

from __future__ import annotations

from collections.abc import Sequence

import streamlit as st

from family import models as fm
from i18n import _
from ui.show import Show

from . import settings
from .bill import bill_settings, card_key, cards, exchange_note, price_of
from .command import Asked, about_section, command_lines, command_section
from .counting import Counted, count_section, count_targets
from .parts import Data, Target
from .picking import models_section
from .premium import premium_section
from .reading import input_section, intro
from .records import records_section
from .settings import (
    AS_CHAT,
    BATCH_PRICES,
    CACHED,
    COLUMN,
    ENGLISH,
    EXAMPLE,
    EXTRAS,
    FIELD,
    INR,
    KIND,
    MODELS,
    MODELS_LIST,
    OUT_RATIO,
    OUT_TOKENS,
    OUTPUT,
    PARAMS,
    PREMIUM_MAX_CHARS,
    REASONING,
    RECORDS_OF,
    REQUESTS,
    SOURCE,
    TEXT,
    UPLOAD,
    UPLOAD_BYTES,
    UPLOAD_MB,
    default_models,
    price_params,
)


def results_section(show: Show, targets: Sequence[Target], data: Data) -> None:
    """Everything under the input and the models: counted, then what it costs (a card a model), the records'
    statistics, the premium over English, the command line, and where it all comes from."""
    counts = count_section(targets, data)
    if not counts:
        return
    st.subheader(_("What it costs"))
    bill_settings(show, targets)
    cards(show, targets, counts, data)
    if not any(c.chats for c in counts.values()) and any(t.model is not None and t.model.chat for t in targets):
        st.caption(_("Sent through a chat API, each model's chat format adds a few tokens a request: switch on "
                     "“Send each text as a user message” above to count them."))
    st.caption(exchange_note() + " " + _("The input tokens are measured, exactly; the output (and any reasoning) is "
                                         "assumed; the cost takes every request to be like the mean of your records. "
                                         "Prices change: each one shows its date and source."))
    records_section(show, targets, counts, data)
    premium_section(targets, data)
    command_section(targets, data)
    about_section(targets)


__all__ = ["AS_CHAT", "BATCH_PRICES", "CACHED", "COLUMN", "ENGLISH", "EXAMPLE", "EXTRAS", "FIELD", "INR", "KIND",
           "MODELS", "MODELS_LIST", "OUTPUT", "OUT_RATIO", "OUT_TOKENS", "PARAMS", "PREMIUM_MAX_CHARS", "REASONING",
           "RECORDS_OF", "REQUESTS", "SOURCE", "TEXT", "UPLOAD", "UPLOAD_BYTES", "UPLOAD_MB", "Asked", "Counted", "Data",
           "Show", "Target", "card_key", "command_lines", "count_targets", "default_models", "fm", "input_section",
           "intro", "models_section", "price_of", "price_params", "results_section", "settings"]
