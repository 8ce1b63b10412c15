"""An engineer's estimate: records from a text or a dataset, per-record token statistics, chat overhead, money.

Pure: no UI. The page (Estimate) and the command line (``python -m tokenizer count`` / ``cost``) both use it.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from decimal import Decimal

from family.models import Model, Price


class EstimateInputError(ValueError):
    """Input the estimate cannot use (a CSV without the column asked for, a negative rate...): one friendly line."""


KINDS = ("text", "lines", "jsonl", "csv")
"""How a text becomes records: the whole text is one record | each non-empty line | each JSONL record | each CSV row."""

OUTPUT_KINDS = ("tokens", "ratio")
"""How the expected output is given: a number of tokens (int), or a ratio of the input tokens (float)."""


@dataclass(frozen=True)
class Record:
    """One record: its 1-based line (or CSV row) ``number``, and either ``text`` or a chat's ``messages``
    ((role, content) pairs)."""

    number: int
    text: str | None
    messages: tuple[tuple[str, str], ...] | None = None


@dataclass(frozen=True)
class Problem:
    """A record that could not be read (a broken JSONL line, a row without the column...): its number and why."""

    number: int
    reason: str


def iter_records(lines: Iterable[str], kind: str, field: str | None = None,
                 column: str | None = None) -> Iterator[Record | Problem]:
    """The records of ``lines`` (any iterable of lines, e.g. a file opened with ``newline=""``), one at a time."""
    raise NotImplementedError


def read_records(text: str, kind: str, field: str | None = None,
                 column: str | None = None) -> tuple[list[Record], list[Problem]]:
    """All the records of ``text`` and the problems met on the way (the page's convenience over iter_records)."""
    raise NotImplementedError


@dataclass(frozen=True)
class RecordStats:
    """Per-record token counts summed up: records, total, mean, p50, p95, max, the five longest
    ((record number, tokens), longest first)."""

    records: int
    total: int
    mean: float
    p50: float
    p95: float
    max: int
    longest: tuple[tuple[int, int], ...]

    def histogram(self, bins: int = 20) -> list[tuple[int, int, int]]:
        """(low, high, records) for up to ``bins`` integer bins covering 0..max."""
        raise NotImplementedError


class StatsBuilder:
    """Collects one token count per record (an ``array('I')``: 4 bytes a record) and sums them up."""

    def add(self, number: int, tokens: int) -> None:
        """Record ``number`` has ``tokens`` tokens."""
        raise NotImplementedError

    def result(self) -> RecordStats:
        """The statistics of everything added so far."""
        raise NotImplementedError


def chat_overhead(model: Model, messages: Sequence[tuple[str, str]]) -> int | None:
    """Tokens the model's chat format adds on top of the messages' contents; None when the format is unknown."""
    raise NotImplementedError


def record_tokens(tokenizer, record: Record, model: Model | None) -> int:
    """A record's tokens: a text counted plainly; a chat's contents plus the model's chat overhead."""
    raise NotImplementedError


@dataclass(frozen=True)
class Cost:
    """What requests cost: tokens in and out per request, the price used, USD and INR per request and per month."""

    input_tokens: float
    output_tokens: float
    price: Price
    usd_per_request: Decimal
    usd_per_month: Decimal
    inr_per_request: Decimal
    inr_per_month: Decimal


def cost(input_tokens: float, price: Price, *, output_tokens: float | None = None,
         output_ratio: float | None = None, requests_per_month: int, inr_per_usd: Decimal) -> Cost:
    """The cost of a request of ``input_tokens`` and the expected output (tokens or a ratio of input: exactly one)."""
    raise NotImplementedError


def usd(amount: Decimal) -> str:
    """Dollars for display: ``"$0.0031"``."""
    raise NotImplementedError


def inr(amount: Decimal) -> str:
    """Rupees for display: ``"Rs 0.27"``, ``"Rs 1,23,456"``."""
    raise NotImplementedError


def premium(tokens_other: int, tokens_english: int) -> float:
    """How many times the English tokens the other language's text costs (2.1 = 2.1x)."""
    raise NotImplementedError
