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


class Refusal(Exception):
    """An error whose message is a sentence marked for the catalogue with its fields apart
    (``BadInput(N_("This class is full: it has {n} learners."), n=1000)``): ``str(error)`` is the English (a log,
    the command line); :meth:`said` is the sentence in the run's language, its numbers as the language writes them
    and a word of the lab's own (the field ``what``, marked ``N_``) translated too. ``message``: the sentence when
    none is given. The class store's refusals and a teacher's own question's blanks are of this kind
    (``lessons.classroom.ClassError``, ``lessons.own.OwnError``).

    >>> error = Refusal(N_("The {what} is longer than {limit} characters."), what="name", limit=1000)
    >>> str(error)
    'The name is longer than 1,000 characters.'
    >>> with using("xx"):
    ...     error.said()
    '⟦The ⟦name⟧ is longer than 1,000 characters.⟧'
    """

    message = ""

    def __init__(self, message: str | None = None, /, **fields: Any) -> None:
        self.template = message or self.message
        """The sentence before its fields are filled in (what the catalogue translates)."""
        self.fields = fields
        """The sentence's fields: numbers, and words of the lab's own marked ``N_``."""
        english = {k: f"{v:,}" if _is_count(v) else v for k, v in fields.items()}
        super().__init__(self.template.format(**english) if fields else self.template)

    def said(self) -> str:
        """The sentence in the run's language."""
        return _(self.template, **{k: number(v) if _is_count(v) else _(v) if k == "what" else v
                                   for k, v in self.fields.items()})


def _is_count(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


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


class LocalizedFields:
    """A record of content data (a frozen dataclass) with its Hindi beside its English, as ``hi``: a field's name
    to its Hindi (a mapping, or its items as pairs to stay hashable). :meth:`shown` is one field in the current
    language, by :func:`localized` (the English on the command line)."""

    hi: Mapping[str, str] | tuple[tuple[str, str], ...]

    def shown(self, name: str) -> str:
        """The field ``name`` in the current language.

        >>> from dataclasses import dataclass
        >>> @dataclass(frozen=True)
        ... class Preset(LocalizedFields):
        ...     title: str
        ...     hi: tuple[tuple[str, str], ...] = ()
        >>> preset = Preset("Numbers", (("title", "संख्याएँ"),))
        >>> preset.shown("title")
        'Numbers'
        >>> with using("hi"):
        ...     preset.shown("title")
        'संख्याएँ'
        """
        return str(localized({name: getattr(self, name), "hi": dict(self.hi)})[name])


__all__ = ["DEFAULT", "KNOWN", "LANGUAGES", "LocalizedFields", "MARKS", "N_", "PSEUDO", "Refusal", "_", "_n", "current",
           "decimal", "localized", "money", "number", "set_session_language", "use", "using"]
