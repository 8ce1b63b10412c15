"""The Estimate page, part 3: every record counted with each chosen model, by the estimate's one pipeline
(:func:`analyses.tally.count_records`, the command line's too), with a progress bar past a moment; kept for the
session, so a change of price or rate never counts again."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import streamlit as st

from analyses import estimate as est
from analyses import tally as tally_
from i18n import _, number
from ui import state
from ui.display import and_words, md_escape

from . import settings as s
from .parts import Data, Target


@dataclass(frozen=True)
class Counted:
    """One target's counts of the data: the per-record statistics, the chat format's tokens in them (and what the
    official template added among them)."""

    stats: est.RecordStats
    overhead: int | None  # tokens the chat format adds, over every chat record; None: format unknown (or no chats)
    chats: int  # records that are chats
    refused: tuple[est.Problem, ...] = ()  # chats the model's template refuses: left out
    extras: int = 0  # of the overhead, what the model's official template adds besides its format


def counted_from(tally: tally_.Tally) -> Counted:
    """A target's counts as the page keeps them, from the estimate pipeline's tally."""
    overhead = tally.overhead if tally.chats and not tally.no_format else None
    return Counted(tally.stats.result(), overhead, tally.chats, tuple(tally.refusals), tally.extras)


def count_targets(targets: Sequence[Target], data: Data, bar, as_chat: bool = False,
                  extras: bool = True) -> dict[str, Counted]:
    """Every record counted with each target by the estimate's one pipeline (the command line's: a chat's format
    tokens too, kept apart to show them), moving the bar every BATCH records. A chat a model's template refuses is
    left out and named."""
    counters = [tally_.Counter(t.label, t.tok, t.tokenizer_key, t.model) for t in targets]
    n = len(data.records)

    def moved(tallies: tally_.Tallies, batch: est.Batch) -> None:
        done = tallies.counted() + max((t.refused for t in tallies.tallies), default=0)
        if bar is not None and n > 1:
            bar.progress(min(done / n, 1.0), text=_("Counting: {done} of {n} records", done=number(done), n=number(n)))

    tallies = tally_.count_records(counters, data.records, as_chat=as_chat, extras=extras, progress=moved,
                                   batch_records=s.BATCH)
    return {t.key: counted_from(tally) for t, tally in zip(targets, tallies.tallies)}


def count_section(targets: Sequence[Target], data: Data) -> dict[str, Counted]:
    """Each target's counts, from the session's store or counted now (with a progress bar past a moment)."""
    store = st.session_state[s.COUNTS.skey]["counts"]
    how = (bool(state.value(s.AS_CHAT)), bool(state.value(s.EXTRAS)))
    todo = [t for t in targets if (t.key, how) not in store]
    lab_big = [t for t in todo if t.lab and data.characters > s.LAB_MAX_CHARS]
    if lab_big:
        st.info(md_escape(_(
            "{models}: the lab's own models are pure Python and count up to {most} characters here; this input has "
            "{n}. The production tokenizers count it all.", models=and_words([t.label for t in lab_big]),
            most=number(s.LAB_MAX_CHARS), n=number(data.characters))), icon=":material/speed:")
        todo = [t for t in todo if t not in lab_big]
    slow = data.characters > s.PROGRESS_CHARS or len(data.records) > s.BATCH
    bar = st.progress(0.0, text=_("Counting…")) if todo and slow else None
    try:  # every target in one pass (targets on one tokenizer count each record once)
        found = count_targets(todo, data, bar, *how) if todo else {}
    except (ValueError, est.EstimateInputError):  # one of them refuses the input: count each alone, to say which
        found = {}
        for target in todo:
            try:
                found.update(count_targets([target], data, bar, *how))
            except (ValueError, est.EstimateInputError) as exc:
                st.warning(md_escape(_("{name} cannot count this input: {why}", name=target.label, why=exc)),
                           icon=":material/error:")
    if bar is not None:
        bar.empty()
    store.update({(key, how): counted for key, counted in found.items()})
    return {t.key: store[t.key, how] for t in targets if (t.key, how) in store}


__all__ = ["Counted", "count_section", "count_targets", "counted_from"]
