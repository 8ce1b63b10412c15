"""The lab in more than one language: every string a learner reads, and every number, as their language writes it.

The bottom of the house (pure Python and Babel, no Streamlit): any layer may import it. The strings are gettext
messages, the English text is the message id, and the translations are catalogues under ``i18n/locale/``
(``hi/LC_MESSAGES/lab.po``), read with Babel when this package is imported (:mod:`i18n.catalog`)::

    from i18n import _, _n, N_

    st.text_area(_("Text"), help=_("Up to {mb} MB.", mb=1))
    st.caption(_n("{n} word", "{n} words", words))   # {n} is the number, written as the language writes it
    TITLE = N_("Tokenize anything")                    # marked for the catalogue, translated where it is drawn

The language is the run's, not the process's: one server serves English and Hindi learners at once, so it lives
in a :class:`contextvars.ContextVar` that ``ui.frame.page_setup`` sets at the start of every Streamlit run
(:func:`use`; a test or a command uses :func:`using`). Where no run has set it (a fragment rerun, a callback),
the session's own language comes from the hook the UI registers (:func:`set_session_language`), then English.

A message is translated when it is drawn, never when a module is imported: text made at import time (a page
registry, a switch's label) is marked with :func:`N_` and passed through :func:`_` where it is shown. A cached
function returns data, not sentences, or is cached per language (``ui.language.per_language``: the run's language
in its key, its body run in it).

Numbers: :func:`number`, :func:`decimal` and :func:`money` (:mod:`i18n.numbers`): English as Python writes them
(123,456), Hindi grouped the Indian way (1,23,456) by Babel's ``hi_IN``. Plurals follow each language's rule
(Hindi: one for 0 and 1, other above), from the catalogue's ``Plural-Forms``.

The pseudo-locale ``xx`` (``?lang=xx``) wraps every translated string in ⟦ ⟧ (:data:`MARKS`), so a test can find
visible text that did not pass through the catalogue.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from i18n.catalog import MARKS, translations
from i18n.numbers import decimal, money, number

#: The languages a learner can choose, each named in itself (as the switch shows it).
LANGUAGES: dict[str, str] = {"en": "English", "hi": "हिन्दी"}
DEFAULT = "en"
#: The pseudo-locale: every translated string wrapped in MARKS (tests; not offered in the switch).
PSEUDO = "xx"
KNOWN = frozenset(LANGUAGES) | {PSEUDO}

_current: ContextVar[str | None] = ContextVar("lab_language", default=None)
_session_language: Callable[[], str | None] | None = None


def set_session_language(hook: Callable[[], str | None] | None) -> None:
    """Where the session's language is kept, for a run that has not set one (a fragment's rerun, a callback):
    ``ui.language`` registers a function that reads the session's state."""
    global _session_language
    _session_language = hook


def current() -> str:
    """The language of this run (or of the ``with using(...)`` block), else the session's, else English.

    >>> current()
    'en'
    """
    lang = _current.get()
    if lang is None and _session_language is not None:
        lang = _session_language()
    return lang if lang in KNOWN else DEFAULT


def use(lang: str) -> None:
    """Set the language for the rest of this context (a Streamlit run: ``ui.frame.page_setup`` calls this first
    thing). An unknown language is English."""
    _current.set(lang if lang in KNOWN else DEFAULT)


@contextmanager
def using(lang: str) -> Iterator[None]:
    """The block runs in ``lang``; the language before it comes back after.

    >>> with using("hi"):
    ...     number(123456)
    '1,23,456'
    >>> number(123456)
    '123,456'
    """
    token = _current.set(lang if lang in KNOWN else DEFAULT)
    try:
        yield
    finally:
        _current.reset(token)


def _(message: str, /, **fields: Any) -> str:
    """``message`` in the current language (the English itself when the catalogue has no translation); with
    ``fields``, its ``{name}`` placeholders filled in afterwards (``str.format``): numbers among them are written
    as the language writes them only if the caller passes them through :func:`number` first.

    >>> _("Text")
    'Text'
    >>> with using("xx"):
    ...     _("{n} of {m}", n=1, m=2)
    '⟦1 of 2⟧'
    """
    text = translations(current()).gettext(message)
    return text.format(**fields) if fields else text


def _n(singular: str, plural: str, n: int, /, **fields: Any) -> str:
    """The form of a message for the count ``n``, by the language's plural rule, with ``{n}`` written as the
    language writes numbers (and any other ``fields`` filled in).

    >>> _n("{n} word", "{n} words", 1), _n("{n} word", "{n} words", 12345)
    ('1 word', '12,345 words')
    """
    text = translations(current()).ngettext(singular, plural, n)
    return text.format(n=number(n), **fields)


def N_(message: str) -> str:
    """Mark ``message`` for the catalogue without translating it (text made at import time: translate it with
    :func:`_` where it is drawn)."""
    return message


def localized(record: Mapping[str, Any]) -> dict[str, Any]:
    """A record of content data (an example in ``lessons/examples.toml``) in the current language: its fields,
    with those its sub-table for the language gives (``hi = { label = "संख्याएँ" }``) in their place. In the
    pseudo-locale the fields that have a Hindi form are marked, as a catalogue's strings are.

    >>> example = {"label": "Numbers", "text": "₹1,23,456", "hi": {"label": "संख्याएँ"}}
    >>> localized(example)["label"], localized(example)["text"]
    ('Numbers', '₹1,23,456')
    >>> with using("hi"):
    ...     localized(example)["label"]
    'संख्याएँ'
    """
    lang = current()
    own = {k: v for k, v in record.items() if k not in LANGUAGES}
    if lang == PSEUDO:
        from i18n.catalog import pseudo

        return {**own, **{k: pseudo(own[k]) for k in record.get("hi", {}) if isinstance(own.get(k), str)}}
    return {**own, **record.get(lang, {})}


__all__ = ["DEFAULT", "KNOWN", "LANGUAGES", "MARKS", "N_", "PSEUDO", "_", "_n", "current", "decimal",
           "localized", "money", "number", "set_session_language", "use", "using"]
