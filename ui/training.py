"""The engine as pages use it: cached training, and the one identity a run is cached by.

Training results are cached across reruns and across learners
(``st.cache_resource``: one shared, read-only object per distinct corpus and
settings). Pages never call :func:`tokenizer.train` directly.

A view's cached drawing of a training takes the :class:`Run` (what determines the training), never the trace it
made, and is keyed by the run's name (``hash_funcs=BY_RUN``).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import streamlit as st
from streamlit.runtime.scriptrunner import add_script_run_ctx, get_script_run_ctx

import lessons
from i18n import _, number
from lessons.questions import run_key
from tokenizer import Trace, train
from tokenizer.train import SHOWN_MAX_TIES, SHOWN_TABLE_SIZE

MAX_TRAIN_MERGES = 5000
"""The most merges a page asks the lab to train (Train step by step's budget): every step is kept in the trace, with
its pair table. (A model file may hold up to :data:`tokenizer.io.MAX_MODEL_MERGES`; The family compares BPE and
WordPiece over at most ``views.family.settings.MAX_COMPARED_MERGES``.)"""
MAX_CORPUS_CHARS = 2_000_000  # about 2 MB of text: trains in seconds, with a progress bar


BIG_CORPUS_CHARS = 50_000  # from here on: a progress bar, and a smaller cache


@dataclass(frozen=True)
class Run:
    """A training run named by what determines it: the corpus, the number of merges and the trainer's settings
    (:meth:`tokenizer.TrainConfig.to_dict`). The one identity the views' caches key a run by (Train's steps, The
    family's two rules): a cached function takes the run and gets its trace(s) from the training cache inside, so
    equal inputs share one entry between learners and different inputs never meet, whichever object the trainer
    made. A trace trained again (after it left the training cache) is found under the same entries: it is the
    same trace.

    >>> a = Run.of("chai chai chaiwala", 3, {"unit": "chars"})
    >>> a.name == Run.of("chai chai chaiwala", 3, {"unit": "chars"}).name, a.name == Run.of("chai chai", 3, {"unit": "chars"}).name
    (True, False)
    """

    corpus: str = field(repr=False)
    merges: int
    config: tuple[tuple[str, Any], ...]
    """The trainer's settings as sorted (name, value) pairs."""

    @classmethod
    def of(cls, corpus: str, merges: int, config: Mapping[str, Any]) -> Run:
        return cls(corpus, merges, tuple(sorted(config.items())))

    @property
    def settings(self) -> dict[str, Any]:
        """The trainer's settings as keyword arguments."""
        return dict(self.config)

    @cached_property
    def name(self) -> str:
        """:func:`lessons.questions.run_key`'s digest of the inputs: what the caches hash a run by. Read once per
        run object, so a 2 MB corpus is not hashed again by every cached call of a rerun (about 14 ms each)."""
        return run_key(self.corpus, self.settings, self.merges)


BY_RUN: dict[str | type[Any], Callable[[Any], Any]] = {Run: lambda run: run.name}
"""``hash_funcs`` for a cache that takes a :class:`Run`: the run is hashed by its :attr:`Run.name`."""


def _train(corpus: str, merges: int, _progress: Callable[[int, int], None] | None = None, **settings) -> Trace:
    """Train with the page's table and tie bounds; ``settings`` are train()'s five choices."""
    return train(corpus, merges, **settings, table_size=SHOWN_TABLE_SIZE, max_ties=SHOWN_MAX_TIES,
                 progress=_progress)


# Presets and short texts are cheap to keep; a trace of a 2 MB upload holds tens of MB, so only a
# few of those stay, and not for ever.
@st.cache_resource(max_entries=64, show_spinner=False)
def _trained_small(corpus: str, merges: int, _progress=None, **settings) -> Trace:
    return _train(corpus, merges, **settings, _progress=_progress)


@st.cache_resource(max_entries=4, ttl=3600, show_spinner=False)
def _trained_big(corpus: str, merges: int, _progress=None, **settings) -> Trace:
    return _train(corpus, merges, **settings, _progress=_progress)


def trained(corpus: str, merges: int, **settings) -> Trace:
    """Train once per distinct corpus and settings; every learner shares the result."""
    cache = _trained_small if len(corpus) < BIG_CORPUS_CHARS else _trained_big
    return cache(corpus, merges, **settings)


def trained_with_progress(run: Run) -> Trace:
    """Like :func:`trace_of`, with a progress bar when the corpus is large.

    The training runs in a helper thread while this one draws the bar. (Drawing
    the bar from inside the cached function would not work: Streamlit records
    every element call made inside a cached function and replays it on each
    cache hit, onto a bar that belonged to an earlier run and is gone, which
    raises CacheReplayClosureError on the next rerun.) A cache hit returns at
    once and shows no bar.
    """
    corpus, merges, settings = run.corpus, run.merges, run.settings
    if len(corpus) < BIG_CORPUS_CHARS:
        return trained(corpus, merges, **settings)
    seen = [0, max(merges, 1)]

    def report(done: int, total: int) -> None:  # runs in the helper thread: no st calls
        seen[0], seen[1] = done, max(total, 1)

    ctx = get_script_run_ctx()

    def work() -> Trace:
        if ctx is not None:
            add_script_run_ctx(threading.current_thread(), ctx)
        return trained(corpus, merges, **settings, _progress=report)

    bar = None
    with ThreadPoolExecutor(max_workers=1) as pool:
        future = pool.submit(work)
        while True:
            try:
                trace = future.result(timeout=0.05 if bar is None else 0.2)
                break
            except FutureTimeout:
                if bar is None:
                    bar = st.progress(0.0, text=_("Training…"))
                bar.progress(min(seen[0] / seen[1], 1.0),
                             text=_("Training: merge {k} of {n}", k=number(seen[0]), n=number(seen[1])))
    if bar is not None:
        bar.empty()
    return trace


def trace_of(run: Run) -> Trace:
    """The run's trace, from the training cache every learner shares."""
    return trained(run.corpus, run.merges, **run.settings)


def preset_run(preset_id: str) -> Run:
    """A lesson preset's training (its corpus, merges and settings)."""
    preset = lessons.presets()[preset_id]
    return Run.of(preset.corpus, preset.merges, preset.train_kwargs())


def preset_trace(preset_id: str) -> Trace:
    return trace_of(preset_run(preset_id))
