"""Page state that lives in the URL, so any view can be shared as a link.

A page declares its settings once as :class:`Param` objects, calls
:func:`restore` before drawing its widgets and :func:`publish` after. The
widgets use ``key=param.skey`` and no ``value=``: Streamlit then takes the
value we put in session state.

One rule, for every page: **a link with settings is the whole view.**

- When a page is *entered* (a click on a link, a page change in the sidebar, a
  full load, or the browser's Back and Forward) and the URL names any of its
  settings, the URL wins for those and every setting it does not name takes its
  default. A link from a lesson always counts as naming the view (it carries
  ``from=<lesson>``, so the page can link back to that lesson).
- A plain page change (no settings in the URL, or exactly the settings the
  learner left there, which is what the sidebar's links carry) brings back what
  the learner left on that page, including what was too long for a link.
- On a rerun within the page (a widget, a fragment), the widgets' own values
  win.

:func:`begin_run` (called by ``ui.frame.page_setup`` first thing on every
page) tells "entered now" from "a rerun of the same page": a different page
than the last run, a history navigation (Streamlit flags it), or an address the
page never had since it was entered (a link to the same page). Fragment runs
never enter.

Each view is one entry in the browser's history: Streamlit pushes a history
entry for every change of ``st.query_params`` in a run (``pushState``; only runs
started by Back and Forward use ``replaceState``). So :func:`publish` changes
the address at most once per call, leaves a parameter alone when the address
already says the value on screen (``?k=1`` stays even where 1 is the default),
and writes the settings the page published in its last run together, so a run
that changes several writes them in one step. Bad values in a URL fall back to
the default instead of breaking the page.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlencode

import streamlit as st
from streamlit.runtime.scriptrunner import get_script_run_ctx

_KEEP = "_kept_state"  # skey -> the value each setting had when last published
_KEPT_URL = "_kept_url"  # page -> {name: text}: the settings part of that page's address when last published
_RUN = "_state_run"  # this run's page and how it was entered (see begin_run)
_SEEN = "_state_seen"  # the addresses this page has had since it was entered
_SEEN_MAX = 32

#: The URL key that says which lesson (and, in classroom mode, which part) a link came from.
ORIGIN = "from"
#: URL keys that are never a page's settings: they travel with every link.
_NOT_SETTINGS = frozenset({ORIGIN, "embed", "embed_options"})


@dataclass(frozen=True)
class Key:
    """A session-state key, declared once as an object that pages, views, the warm-up, the benchmarks and the
    tests import (never retyped as ``"train.next"``). A widget takes ``key=KEY.skey``.

    >>> Key("train", "next").skey
    'train.next'
    """

    page: str
    name: str

    @property
    def skey(self) -> str:
        """The widget / session-state key: unique across pages."""
        return f"{self.page}.{self.name}"

    def of(self, *items: str) -> str:
        """The session-state key of this key for one item (a question, a context): a key made per item is declared
        once too, as the Key it is made from, never built inline.

        >>> Key("predict", "_retry").of("lesson:bpe:first")
        'predict._retry.lesson:bpe:first'
        """
        return ".".join((self.skey, *items))


@dataclass(frozen=True)
class Param(Key):
    """A setting that lives in the URL too (a :class:`Key` with a default, and the rules for reading a link).

    >>> Param("train", "step", 0, lo=0, hi=50).parse("99")
    50
    """

    default: Any
    choices: tuple = field(default=())
    lo: float | None = None
    hi: float | None = None
    max_len: int = 400

    def parse(self, raw: str | None) -> Any:
        """A URL string to a valid value, or the default."""
        if raw is None:
            return self.default
        try:
            if isinstance(self.default, bool):
                value: Any = raw.lower() in ("1", "true", "yes", "on")
            elif isinstance(self.default, int):
                value = int(raw)
            elif isinstance(self.default, float):
                value = float(raw)
                if not math.isfinite(value):  # "nan" or "inf" in a link: no widget can show it
                    return self.default
            else:
                value = raw[: self.max_len]
        except ValueError:
            return self.default
        if self.choices and value not in self.choices:
            return self.default
        if self.lo is not None and value < self.lo:
            value = type(self.default)(self.lo)
        if self.hi is not None and value > self.hi:
            value = type(self.default)(self.hi)
        return value

    def dump(self, value: Any) -> str:
        if isinstance(value, bool):
            return "1" if value else "0"
        return str(value)


def _address() -> str:
    """The address's query, in one canonical form (to compare two addresses)."""
    return urlencode(sorted(st.query_params.to_dict().items()))


def _settings(shared: Iterable[str]) -> dict[str, str]:
    """What the URL says about the page's settings: every key but those every link carries."""
    return {k: v for k, v in st.query_params.to_dict().items() if k not in shared and k not in _NOT_SETTINGS}


def _this_run() -> dict | None:
    return st.session_state.get(_RUN)


def _fragment_run() -> bool:
    ctx = get_script_run_ctx()
    return bool(ctx is not None and ctx.fragment_ids_this_run)


def history_navigation() -> bool:
    """Whether this run was started by the browser's Back or Forward button: the URL is then the view."""
    ctx = get_script_run_ctx()
    return bool(ctx is not None and ctx.is_history_navigation)


def begin_run(page: str, shared: Iterable[str] = ()) -> str | None:
    """Decide, once per run and before any :func:`restore`, whether this run enters the page.

    ``page`` names the page (its URL path); ``shared`` are the URL keys every link carries (large type,
    classroom mode), which are not the page's settings. ``ui.frame.page_setup`` calls this on every page.
    Returns ``"link"`` (entered; the URL is the whole view), ``"plain"`` (entered; what the learner left here
    comes back) or ``None`` (a rerun within the page: the widgets' values win).
    """
    shared = frozenset(shared)
    address = _address()
    last = _this_run()
    seen = st.session_state.get(_SEEN, [])
    history = history_navigation()
    entered = history or last is None or last["page"] != page or address not in seen
    mode = None
    if entered:
        settings = _settings(shared)
        left = st.session_state.get(_KEPT_URL, {}).get(page, {})
        plain = ORIGIN not in st.query_params and (settings == left or (not settings and not history))
        mode = "plain" if plain else "link"
        seen = [address]
    st.session_state[_SEEN] = seen
    st.session_state[_PUBLISHING] = []  # blocks left open by a run that failed are gone
    st.session_state[_RUN] = {
        "page": page,
        "shared": shared,
        "mode": mode,
        "decided": set(),  # skeys whose value this entry has set
        "forgotten": set(),  # page keys whose kept values this entry has dropped (a link is the whole view)
        "restored": {},  # skey -> Param, restored in this run
        "published": set(),  # skeys published in this run (and its fragment runs)
        "published_before": set() if entered or last is None else set(last["published"]),
    }
    return mode


def note_address() -> None:
    """Call after changing st.query_params outside :func:`publish`: the page has had this address, so a rerun
    that comes back with it is not a new visit."""
    seen = st.session_state.setdefault(_SEEN, [])
    address = _address()
    if address not in seen:
        seen.append(address)
        del seen[:-_SEEN_MAX]


def address_settings() -> dict[str, str]:
    """What the address says about the page's settings (every key but those every link carries: large type,
    classroom mode, where a link came from)."""
    run = _this_run()
    return _settings(run["shared"] if run is not None else ())


def entering() -> str | None:
    """How this run enters the page (``"link"``: the address is the whole view; ``"plain"``), or None for a rerun
    within the page (a widget, a fragment)."""
    run = _this_run()
    return None if run is None or _fragment_run() else run["mode"]


def enter_again() -> None:
    """Call when a run ends before the page's settings are restored (a page that asks something first): the next
    run enters the page again, so the address (a link's settings) still decides the view, not what the session
    kept from an earlier visit."""
    st.session_state[_SEEN] = []


def kept_address(page: str) -> dict[str, str]:
    """The settings part of the address the learner left ``page`` with (for a link that brings it back),
    or {} for the page being shown (its address changes as the learner works) and a page not visited."""
    run = _this_run()
    if run is not None and run["page"] == page:
        return {}
    return dict(st.session_state.get(_KEPT_URL, {}).get(page, {}))


def origin() -> str:
    """Where a link came from (``?from=<lesson>`` or ``<lesson>.<part>``), or ""."""
    return st.query_params.get(ORIGIN, "")


def _forget(page_key: str, kept: dict, run: dict) -> None:
    """Entered by a link: what the learner left on this page is not part of the view (kept copies and values
    of settings this run has not decided yet go)."""
    if page_key in run["forgotten"]:
        return
    run["forgotten"].add(page_key)
    prefix = f"{page_key}."
    for skey in [k for k in kept if k.startswith(prefix) and k not in run["decided"]]:
        del kept[skey]
        st.session_state.pop(skey, None)


def restore(params: Sequence[Param]) -> None:
    """Put each setting's value in session state before its widget is drawn (see the module's rule)."""
    kept = st.session_state.setdefault(_KEEP, {})
    run = _this_run()
    entering = run is not None and run["mode"] is not None and not _fragment_run()
    for p in params:
        if run is not None:
            run["restored"][p.skey] = p
        if entering and run is not None and p.skey not in run["decided"]:
            if run["mode"] == "link":
                _forget(p.page, kept, run)
            run["decided"].add(p.skey)
            if p.name in st.query_params:
                st.session_state[p.skey] = p.parse(st.query_params.get(p.name))
            elif run["mode"] == "plain" and p.skey in kept:
                st.session_state[p.skey] = kept[p.skey]
            else:
                st.session_state[p.skey] = p.default
            continue
        if p.skey in st.session_state:
            continue
        if p.name in st.query_params:
            st.session_state[p.skey] = p.parse(st.query_params.get(p.name))
        elif p.skey in kept:
            st.session_state[p.skey] = kept[p.skey]
        else:
            st.session_state[p.skey] = p.default


def publish(params: Sequence[Param]) -> list[str]:
    """Write the current values to the URL (defaults are left out). Returns the names too long to share.

    The address changes at most once per call (each change is a history entry), a parameter that already
    says the value on screen is left as it is, and the settings this page published in its last run and
    restored in this one are written in the same step.
    """
    kept = st.session_state.setdefault(_KEEP, {})
    run = _this_run()
    mine = {p.skey for p in params}
    todo = list(params)
    if run is not None:
        todo += [p for skey, p in run["restored"].items() if skey in run["published_before"] and skey not in mine]
        run["published"].update(mine)
    current = st.query_params.to_dict()
    new = dict(current)
    too_long = []
    for p in todo:
        value = st.session_state.get(p.skey, p.default)
        kept[p.skey] = value
        text = p.dump(value)
        if p.name in current and p.parse(current[p.name]) == value and len(current[p.name]) <= p.max_len:
            continue  # the address already says it (a link's ?k=1 stays, though 1 is the default)
        if value == p.default:
            new.pop(p.name, None)
        elif len(text) > p.max_len:
            new.pop(p.name, None)
            if p.skey in mine:
                too_long.append(p.name)
        else:
            new[p.name] = text
    if new != current:
        st.query_params.from_dict(new)
    if run is not None:
        st.session_state.setdefault(_KEPT_URL, {})[run["page"]] = _settings(run["shared"])
    note_address()
    return too_long


_PUBLISHING = "_state_publishing"  # the params of the published() blocks open in this run, innermost last


@contextmanager
def published(params: Sequence[Param]) -> Iterator[None]:
    """Restore ``params`` now, and publish them when the block ends, however it ends: a section that returns
    early or fails still leaves the address a link to what is on screen::

        with state.published(PARAMS):
            draw_the_page()

    To end the page early inside the block, call :func:`stop` (never ``st.stop()``: once a run is stopped,
    nothing more reaches the browser, so the address could not be written after it).
    """
    restore(params)
    mine = list(params)
    open_blocks = st.session_state.setdefault(_PUBLISHING, [])
    open_blocks.append(mine)
    try:
        yield
    finally:
        if any(block is mine for block in open_blocks):  # not published yet by stop()
            open_blocks[:] = [block for block in open_blocks if block is not mine]
            publish(mine)


def stop() -> None:
    """``st.stop()`` for a page whose settings are published: publish every open :func:`published` block
    first, then stop the run."""
    open_blocks = st.session_state.get(_PUBLISHING, [])
    while open_blocks:
        publish(open_blocks.pop())
    st.stop()


def too_long(params: Sequence[Param]) -> list[str]:
    """The names of ``params`` whose value is too long for a link (:func:`publish` leaves them out of it)."""
    out = []
    for p in params:
        v = value(p)
        if v != p.default and len(p.dump(v)) > p.max_len:
            out.append(p.name)
    return out


def digest(*parts: str, length: int = 16) -> str:
    """A short identity for what some text names (a model's JSON, a question about a text and a tokenizer): the
    one recipe the lab uses where a hash is an identity. It never keys a cache: a cache takes the real inputs.

    >>> digest("cl100k_base", "chai")
    '5eaab96a6db61328'
    """
    return hashlib.sha1("\n".join(parts).encode("utf-8", "surrogatepass")).hexdigest()[:length]


def value(param: Param) -> Any:
    return st.session_state.get(param.skey, param.default)


def set_value(param: Param, new: Any) -> None:
    """Change a setting from code (e.g. a button), before its widget is drawn in this run."""
    st.session_state[param.skey] = new
