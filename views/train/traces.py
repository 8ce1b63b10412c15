"""Caches keyed by the trace they draw: a name for each trace object, never given to another.
"""

from __future__ import annotations

import threading
import uuid
import weakref

from tokenizer import Trace

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
