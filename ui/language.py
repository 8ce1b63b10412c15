"""The learner's language: chosen once per browser session, kept in the address, switched in the sidebar.

How the language of a run is decided (:func:`sync`, called by ``ui.frame.page_setup`` before anything is drawn):

- On the session's first run, and when the browser's Back or Forward brought this address, the address decides:
  ``?lang=hi`` (or ``en``; ``xx``, the pseudo-locale, for tests). Without one, the browser's own preference does:
  its ``Accept-Language`` header (the request that opened the session, ``st.context.headers``), Hindi when it
  ranks Hindi before English; otherwise English.
- After that the session keeps it (a plain page change, a rerun), and the sidebar's switch changes it.
- The address says it whenever it is not what the browser would pick by itself (so English for an English
  browser adds nothing to any address), and every link the lab builds carries it (:func:`link_param`, through
  ``ui.layout.link_params``): a reload, a shared link, a lesson's link open in the same language.

The language is then set for this run's context (:func:`i18n.use`), not for the process: one server serves
English and Hindi learners at once. A fragment's rerun, which does not run ``page_setup``, reads the session's
language through the hook registered here.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from typing import Any, ParamSpec, TypeVar

import streamlit as st

import i18n
from ui import state

P = ParamSpec("P")
R = TypeVar("R")

PARAM = "lang"
KEY = "lang_switch"
_STORE = "_lang_store"
_BROWSER = "_lang_browser"  # what the browser asks for, read once a session (its headers do not change)
#: An Accept-Language header longer than this is read up to here (a header is the client's to make up).
MAX_HEADER = 1000
MAX_ENTRIES = 20


def from_header(header: str | None) -> str | None:
    """The lab's language an ``Accept-Language`` header prefers: the first of the lab's languages in the order
    of the header's weights (``q=``), or None when it names none of them.

    >>> from_header("hi-IN,hi;q=0.9,en-US;q=0.8,en;q=0.7"), from_header("en-GB,en;q=0.9,hi;q=0.8")
    ('hi', 'en')
    >>> from_header("mr-IN,hi;q=0.9,en;q=0.8"), from_header("en;q=0.5,hi;q=0.9"), from_header("fr, *"), from_header("")
    ('hi', 'hi', None, None)
    """
    ranked = []
    for i, part in enumerate((header or "")[:MAX_HEADER].split(",")[:MAX_ENTRIES]):
        tag, _, params = part.strip().partition(";")
        weight = 1.0
        for param in params.split(";"):
            name, _, value = param.strip().partition("=")
            if name.strip().lower() == "q":
                try:
                    weight = float(value)
                except ValueError:
                    weight = 0.0
        lang = tag.strip().split("-")[0].lower()
        if lang in i18n.LANGUAGES and weight > 0:
            ranked.append((-weight, i, lang))
    return min(ranked)[2] if ranked else None


def browser_language() -> str:
    """What this browser asks for: its Accept-Language header, else the language it reports, else English. Read
    once a session: every link the lab draws asks (reading the headers costs 0.1-0.3 ms a time)."""
    known = st.session_state.get(_BROWSER)
    if known is not None:
        return known
    st.session_state[_BROWSER] = _from_browser()
    return st.session_state[_BROWSER]


def _from_browser() -> str:
    try:
        header = st.context.headers.get("Accept-Language")
        reported = st.context.locale
    except Exception:  # no browser (a bare script run)
        return i18n.DEFAULT
    return from_header(header) or from_header(reported) or i18n.DEFAULT


def current() -> str:
    """The session's language (English before the first run has decided it)."""
    lang = st.session_state.get(_STORE)
    return lang if lang in i18n.KNOWN else i18n.DEFAULT


def _session_language() -> str | None:
    # Outside a Streamlit run (the engine's words made by a command or a test in a process that loaded the kit)
    # there is no session: reading session_state there would only log Streamlit's warning about it.
    from streamlit.runtime.scriptrunner import get_script_run_ctx

    if get_script_run_ctx(suppress_warning=True) is None:
        return None
    try:
        return st.session_state.get(_STORE)
    except Exception:  # outside a Streamlit session
        return None


i18n.set_session_language(_session_language)


def _in_url() -> str | None:
    lang = st.query_params.get(PARAM)
    return lang if lang in i18n.KNOWN else None


def _remember() -> None:  # on_change: runs before the script, so the rerun sees the new language
    st.session_state[_STORE] = st.session_state[KEY]


def link_param() -> dict[str, str]:
    """``{"lang": ...}`` for a link the lab builds, when the language is not what the browser picks itself."""
    lang = current()
    return {} if lang == browser_language() == i18n.DEFAULT else {PARAM: lang}


def sync() -> str:
    """Decide this run's language (see the module), set it for the run, and make the address say it."""
    if _STORE not in st.session_state or state.history_navigation():
        st.session_state[_STORE] = _in_url() or browser_language()
    lang = current()
    i18n.use(lang)
    wanted = link_param().get(PARAM)
    if st.query_params.get(PARAM) != wanted:
        if wanted is None:
            del st.query_params[PARAM]
        else:
            st.query_params[PARAM] = wanted
        state.note_address()
    return lang


#: Devanagari set for reading: Streamlit's headings have a line height of 1.2, which on a heading that wraps (a phone,
#: large type; Hindi titles are often longer than the English) puts one line's vowel signs (ि, ी, ु) against the
#: next line's. Drawn only in Hindi, so English is laid out as before.
DEVANAGARI_CSS = """
<style>
/* ui.language: Devanagari */
[data-testid="stMain"] :is(h1, h2, h3, h4), [data-testid="stSidebar"] :is(h1, h2, h3, h4) { line-height: 1.4 !important; }
</style>
"""


def document() -> None:
    """Say the page's language to the browser (``<html lang="hi">``: a screen reader reads Hindi with a Hindi
    voice, a browser picks its fonts and line breaking by it) and set Devanagari for reading; call it where it takes
    no room (the sidebar's end)."""
    lang = "en" if current() == i18n.PSEUDO else current()
    st.html(f'<script>document.documentElement.lang = "{lang}";</script>', unsafe_allow_javascript=True)
    if lang == "hi":
        st.html(DEVANAGARI_CSS)


def switch() -> None:
    """English / हिन्दी, in the sidebar: each language named in itself, so a learner who reads only one finds it."""
    options = list(i18n.LANGUAGES) + ([i18n.PSEUDO] if current() == i18n.PSEUDO else [])
    st.session_state[KEY] = current()  # the widget is created without a value: no double-default warning
    st.segmented_control("Language · भाषा", options, key=KEY, required=True, on_change=_remember,
                         format_func=lambda lang: i18n.LANGUAGES.get(lang, lang), label_visibility="collapsed")




def per_language(*, max_entries: int, hash_funcs: dict[str | type[Any], Callable[[Any], Any]] | None = None,
                 resource: bool = False) -> Callable[[Callable[P, R]], Callable[P, R]]:
    """Cache a function that writes words (a sentence, a chart's axes, chips' tooltips) once per its arguments and
    the run's language: the decorated function is called as it is written, its body runs in the language of the
    run that first asked (:func:`i18n.using`), and a Hindi learner's call never meets an English entry.

    ``st.cache_data`` (``resource``: ``st.cache_resource``, a read-only object every learner shares) with
    ``max_entries`` and ``hash_funcs`` (``ui.training.BY_RUN`` for a function of a run), no spinner of its own (the
    caller's is ``st.spinner(_(...))``). Each argument is hashed by its own name, as Streamlit does (an
    ``_argument`` is not), after the defaults are filled in, so ``f(x)`` and ``f(x, limit=40)`` share an entry;
    the cache is named by the function's module, name and source, as Streamlit names one.

    >>> calls = []
    >>> @per_language(max_entries=4)
    ... def greeting(name: str, punctuation: str = ".") -> str:
    ...     calls.append(name)
    ...     return i18n._("Text") + punctuation
    >>> greeting("a"), greeting("a", "."), len(calls)
    ('Text.', 'Text.', 1)
    >>> with i18n.using("hi"):
    ...     hindi = greeting("a")
    >>> hindi != "Text." and greeting("a") == "Text." and len(calls) == 2
    True
    """
    store = (st.cache_resource if resource else st.cache_data)(max_entries=max_entries, show_spinner=False,
                                                               hash_funcs=hash_funcs)

    def decorate(fn: Callable[P, R]) -> Callable[P, R]:
        signature = inspect.signature(fn)

        def in_language(lang: str, /, **arguments: Any) -> R:
            bound = inspect.BoundArguments(signature, dict(arguments))
            with i18n.using(lang):
                return fn(*bound.args, **bound.kwargs)

        # Streamlit names a cache by its function's module, qualified name and source: ``fn``'s (inspect.getsource
        # follows __wrapped__), so two decorated functions never share one; the arguments are in_language's own.
        in_language.__signature__ = inspect.signature(in_language)  # type: ignore[attr-defined]
        in_language.__module__, in_language.__qualname__ = fn.__module__, fn.__qualname__
        in_language.__wrapped__ = fn  # type: ignore[attr-defined]
        cached = store(in_language)

        @functools.wraps(fn)
        def call(*args: P.args, **kwargs: P.kwargs) -> R:
            bound = signature.bind(*args, **kwargs)
            bound.apply_defaults()
            return cached(i18n.current(), **bound.arguments)

        return call

    return decorate


__all__ = ["DEVANAGARI_CSS", "KEY", "PARAM", "browser_language", "current", "document", "from_header", "link_param",
           "per_language", "switch", "sync"]
