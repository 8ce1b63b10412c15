"""The estimate's one pipeline: an input's records, each counted with every counter, a batch at a time.

    text fragments --records.batches--> batches of records --count_batch--> each counter's counts --> Tallies

The Estimate page and the command line (``count --lines``, ``cost``) both call :func:`count_input`: the same text
gives the same records (:func:`analyses.records.batches`), counted by the same rules (a text plainly; a chat's
contents plus its model's chat format, :func:`analyses.estimate.count_chat`; a text sent as one user message when
``as_chat``), summed into the same statistics. So the page and the command it prints agree by construction.

A counter is a tokenizer, with the product model whose chat format it counts (a tokenizer alone counts a chat's
contents only, and says so). Counters that share a tokenizer and a chat format count each record once. Plain texts
are counted a batch at a time (a production tokenizer's ``count_many``: one call a batch, no object a record), so
millions of short records cost little more than the text in them; the batches may be counted on several threads
(``workers``: the production tokenizers let go of the GIL while they encode), and are added up in order.

>>> from family import models, real
>>> gpt4o = models.find("GPT-4o")
>>> counters = [Counter("GPT-4o", real.load("o200k_base"), "o200k_base", gpt4o)]
>>> text = '{"text": "chai pe charcha"}\\n{"messages": [{"role": "user", "content": "hi"}]}\\nnot json\\n'
>>> tallies = count_input(counters, [text], "jsonl")
>>> gpt = tallies.tallies[0]
>>> gpt.stats.result().records, gpt.chats, tallies.problems
(2, 1, [(None, 3, 'not JSON (Expecting value, column 1)')])
>>> gpt.overhead == 3 + 1 + 3   # OpenAI's rule: 3 a message, its role's token ("user"), 3 for the reply's start
True
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, cast

from analyses.estimate import (
    BATCH_RECORDS,
    Batch,
    EstimateInputError,
    Messages,
    Problem,
    Record,
    StatsBuilder,
    batches,
    count_chat,
)
from family.models import Model
from tokenizer.chunked import ordered_map

MAX_PROBLEMS_KEPT = 1000
"""Records that could not be read or counted are all counted; the first 1,000 are kept to be listed (a file of
broken lines must not hold millions of them)."""

SOURCE_SHIFT = 40
"""A record's key in the statistics is its source's index above its line number (``index << 40 | line``), so the
five longest records of several files say which file each is in."""


@dataclass(frozen=True)
class Counter:
    """What counts: a ``tokenizer`` (a :class:`~tokenizer.interface.TextTokenizer`), called ``label`` in what is
    shown, by its ``tokenizer_name`` (a registry name or a model file), with the product ``model`` whose chat format
    it counts (None: the tokenizer alone; a chat's contents only)."""

    label: str
    tokenizer: Any
    tokenizer_name: str
    model: Model | None = None


@dataclass
class Tally:
    """One counter's records: the per-record statistics (a chat's format included), how many records were chats,
    the tokens their format added (``overhead``, already in the statistics; ``extras`` of them what the model's
    official template adds besides, when counted: :data:`analyses.estimate.TEMPLATES`), the chats counted without a format
    (``no_format``: the model's is not known, or no model), and the chats the model's template refuses (left out
    of the statistics; the first :data:`MAX_PROBLEMS_KEPT` in ``refusals``)."""

    stats: StatsBuilder = field(default_factory=StatsBuilder)
    chats: int = 0
    overhead: int = 0
    extras: int = 0
    no_format: int = 0
    refused: int = 0
    refusals: list[Problem] = field(default_factory=list)


@dataclass
class Tallies:
    """Every counter's :class:`Tally` (in the counters' order), and the records that could not be read or counted:
    ``problems`` (source label or None, line, reason), the first :data:`MAX_PROBLEMS_KEPT` of ``problem_count``
    (a chat a counter's template refuses is listed as ``"<label>: <reason>"``). ``sources``: the inputs counted
    into it so far; ``characters``: the text read so far."""

    counters: tuple[Counter, ...]
    tallies: list[Tally]
    problems: list[tuple[str | None, int, str]] = field(default_factory=list)
    problem_count: int = 0
    sources: int = 0
    characters: int = 0

    @classmethod
    def start(cls, counters: Sequence[Counter]) -> Tallies:
        return cls(tuple(counters), [Tally() for _ in counters])

    def problem(self, source: str | None, number: int, reason: str) -> None:
        self.problem_count += 1
        if len(self.problems) < MAX_PROBLEMS_KEPT:
            self.problems.append((source, number, reason))

    def counted(self) -> int:
        """How many records some counter counted."""
        return max((tally.stats.records for tally in self.tallies), default=0)


def record_key(source_index: int, number: int) -> int:
    """A record's key in the statistics: its source's index above its line number."""
    return (source_index << SOURCE_SHIFT) | number


def split_key(key: int) -> tuple[int, int]:
    """(source index, line number) of a key made by :func:`record_key`."""
    return key >> SOURCE_SHIFT, key & ((1 << SOURCE_SHIFT) - 1)


def count_many(tokenizer, texts: Sequence[str]) -> list[int]:
    """How many tokens each text is: the tokenizer's own batch count where it has one (a production tokenizer:
    one call, no object a text), else one encoding a text."""
    many = getattr(tokenizer, "count_many", None)
    if many is not None:
        return many(texts)
    encode = tokenizer.encode
    return [len(encode(text)) for text in texts]


@dataclass
class _Column:
    """One counter's counts of a batch: a count a record (None: its chat refused) and its chat figures."""

    counts: list[int | None]
    chats: int = 0
    overhead: int = 0
    extras: int = 0
    no_format: int = 0
    refusals: list[Problem] = field(default_factory=list)


def _chat_key(counter: Counter) -> tuple:
    """What a counter's count of a chat depends on besides its tokenizer: its model's chat format."""
    model = counter.model
    return (None,) if model is None or model.chat is None else (model.key,)


def count_batch(counters: Sequence[Counter], batch: Batch, as_chat: bool = False,
                extras: bool = True) -> list[_Column]:
    """Each counter's counts of the records of ``batch`` (every record a user message when ``as_chat``; the official
    templates' extras counted when ``extras``)."""
    texts = batch.texts
    chats: dict[int, Messages] = batch.chats
    if as_chat:
        chats = {i: (chats[i] if text is None else (("user", text),)) for i, text in enumerate(texts)}
    if chats:
        plain = [i for i, text in enumerate(texts) if i not in chats]
        plain_texts = cast(list[str], [texts[i] for i in plain])  # the records that are not chats are texts
    else:
        plain, plain_texts = None, cast(list[str], texts)  # no chat: every record is a text
    counted_texts: dict[int, list[int]] = {}
    columns: dict[tuple, _Column] = {}
    out = []
    for counter in counters:
        tok = counter.tokenizer
        key = (id(tok), *_chat_key(counter))
        column = columns.get(key)
        if column is None:
            if id(tok) not in counted_texts:
                counted_texts[id(tok)] = count_many(tok, plain_texts) if plain_texts else []
            counts = counted_texts[id(tok)]
            if plain is None:
                column = _Column(cast(list[int | None], counts))
            else:
                column = _Column([None] * len(texts))
                for i, n in zip(plain, counts):
                    column.counts[i] = n
                _count_chats(column, counter, chats, batch.numbers, extras)
            columns[key] = column
        out.append(column)
    return out


def _count_chats(column: _Column, counter: Counter, chats: dict[int, Messages], numbers: Sequence[int],
                 extras: bool) -> None:
    for i, messages in chats.items():
        column.chats += 1
        try:
            counted = count_chat(counter.tokenizer, messages, counter.model, extras)
        except EstimateInputError as exc:  # a chat the model's template refuses
            column.refusals.append(Problem(numbers[i], str(exc)))
            continue
        if counted.overhead is None:
            column.no_format += 1
        else:
            column.overhead += counted.overhead
            column.extras += counted.extras
        column.counts[i] = counted.tokens


def add_batch(tallies: Tallies, batch: Batch, columns: Sequence[_Column], source: str | None) -> None:
    """Add a counted batch to ``tallies``: its problems, and each counter's counts into its statistics."""
    for p in batch.problems:
        tallies.problem(source, p.number, p.reason)
    base = tallies.sources << SOURCE_SHIFT
    for counter, tally, column in zip(tallies.counters, tallies.tallies, columns):
        counts, numbers = column.counts, batch.numbers
        if column.refusals:
            for p in column.refusals:
                tally.refused += 1
                if len(tally.refusals) < MAX_PROBLEMS_KEPT:
                    tally.refusals.append(p)
                tallies.problem(source, p.number, f"{counter.label}: {p.reason}")
            kept = [(n, c) for n, c in zip(numbers, counts) if c is not None]
            numbers, counts = [n for n, _ in kept], [c for _, c in kept]
        tally.stats.add_many(numbers, cast(list[int], counts), base)  # a None (a refused chat) was dropped above
        tally.chats += column.chats
        tally.overhead += column.overhead
        tally.extras += column.extras
        tally.no_format += column.no_format
    tallies.characters += batch.characters


def count_input(counters: Sequence[Counter], fragments: Iterable[str], kind: str, *, field: str | None = None,
                column: str | None = None, as_chat: bool = False, extras: bool = True, into: Tallies | None = None,
                source: str | None = None, progress: Progress | None = None, workers: int = 1) -> Tallies:
    """Count the records of the text given as ``fragments`` (read as ``kind``, with ``field`` or ``column``: see
    :func:`analyses.records.batches`) with every counter, adding them to ``into`` (a fresh :class:`Tallies`
    by default) as one more source, called ``source`` in its problems (None: the only one). A text is sent as one
    user message when ``as_chat``; the official templates' extras are counted when ``extras``. ``progress`` is
    called after each batch; ``workers`` threads count the batches.

    :class:`EstimateInputError` for input with nothing to count (and a CSV without the column); ValueError from the
    fragments (a file that is not UTF-8) and from a tokenizer (a lab model's costly pattern) is the caller's.
    """
    return _count(counters, batches(fragments, kind, field, column), as_chat, extras, into, source, progress, workers)


def count_records(counters: Sequence[Counter], records: Sequence[Record], *, as_chat: bool = False,
                  extras: bool = True, progress: Progress | None = None, batch_records: int = BATCH_RECORDS) -> Tallies:
    """:func:`count_input` for records already read (with :func:`analyses.records.batches`, as the Estimate page
    holds them to show the longest): the same counting, in batches of ``batch_records``."""

    def batched() -> Iterator[Batch]:
        for start in range(0, len(records), batch_records):
            batch = Batch()
            for record in records[start:start + batch_records]:
                if record.messages is None:
                    batch.add(record.number, record.text or "")
                    batch.characters += len(record.text or "")
                else:
                    batch.add(record.number, record.messages)
                    batch.characters += sum(len(message[1]) for message in record.messages)
            yield batch

    return _count(counters, batched(), as_chat, extras, None, None, progress, 1)


Progress = Callable[[Tallies, Batch], None]
"""Called after each batch is added: the tallies so far and the batch (its records and characters)."""


def _count(counters: Sequence[Counter], batched: Iterable[Batch], as_chat: bool, extras: bool, into: Tallies | None,
           source: str | None, progress: Progress | None, workers: int) -> Tallies:
    tallies = into if into is not None else Tallies.start(counters)

    def work(batch: Batch) -> tuple[Batch, list[_Column]]:
        return batch, count_batch(tallies.counters, batch, as_chat, extras)

    for batch, columns in ordered_map(work, batched, workers):
        add_batch(tallies, batch, columns, source)
        if progress is not None:
            progress(tallies, batch)
    tallies.sources += 1
    return tallies


__all__ = ["MAX_PROBLEMS_KEPT", "SOURCE_SHIFT", "Counter", "Tallies", "Tally", "add_batch", "count_batch", "count_input",
           "count_many", "count_records", "record_key", "split_key"]
