"""An engineer's estimate: records from a text or a dataset, per-record token statistics, chat overhead, money.

Pure: no UI. The Estimate page and the command line (``python -m tokenizer count`` / ``cost``) both use it.
A text becomes records (:func:`iter_records`: the whole text, each line, each JSONL record or each CSV row),
each record is counted with a model's real tokenizer (:func:`record_tokens`, with the chat format's own tokens
for a chat: :func:`chat_overhead`), the counts are summed up (:class:`StatsBuilder`), and a price turns tokens
into money (:func:`cost`).

>>> records, problems = read_records('{"text": "chai"}\\nnot json\\n{"messages": [{"role": "user", "content": "hi"}]}', "jsonl")
>>> [(r.number, r.text, r.messages) for r in records], problems
([(1, 'chai', None), (3, None, (('user', 'hi'),))], [Problem(number=2, reason='not JSON (Expecting value, column 1)')])
>>> builder = StatsBuilder()
>>> for number, tokens in enumerate([3, 9, 4, 4], 1):
...     builder.add(number, tokens)
>>> stats = builder.result()
>>> stats.total, stats.mean, stats.p50, stats.max, stats.longest[:2]
(20, 5.0, 4.0, 9, ((2, 9), (3, 4)))
>>> from family.models import price
>>> c = cost(1000, price("gpt-4o"), output_tokens=500, requests_per_month=10_000, inr_per_usd=Decimal("88"))
>>> usd(c.usd_per_request), usd(c.usd_per_month), inr(c.inr_per_month)
('$0.0075', '$75.00', 'Rs 6,600')
"""

from __future__ import annotations

import heapq
import math
import operator
from array import array
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal
from functools import lru_cache

from analyses.cost import CostInputError, amount, rupees
from analyses.cost import count as whole_count
from analyses.records import (
    BATCH_RECORDS,
    KINDS,
    MAX_RECORD_CHARS,
    Batch,
    EstimateInputError,
    Messages,
    Problem,
    Record,
    batches,
    iter_records,
    lines_of,
    read_records,
)
from family.models import Model, Price
from i18n import N_, _

OUTPUT_KINDS = ("tokens", "ratio")
"""How the expected output is given: a number of tokens (int), or a ratio of the input tokens (float)."""


# -- statistics -----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class RecordStats:
    """Per-record token counts summed up: how many ``records``, their ``total``, ``mean``, ``p50`` and ``p95``
    (nearest-rank percentiles: :func:`percentile`), ``max``, and the five ``longest`` as (record number,
    tokens), longest first (the earlier record first among equals)."""

    records: int
    total: int
    mean: float
    p50: float
    p95: float
    max: int
    longest: tuple[tuple[int, int], ...]
    distribution: tuple[tuple[int, int], ...] = field(default=(), repr=False, compare=False)
    """(tokens, how many records have that many), fewest tokens first: what :meth:`histogram` reads."""

    def histogram(self, bins: int = 20) -> list[tuple[int, int, int]]:
        """(low, high, records) for at most ``bins`` bins of equal whole-number width from the shortest record
        to the longest; ``low`` and ``high`` are both included (a record of ``high`` tokens is in that bin).

        >>> builder = StatsBuilder()
        >>> for number, tokens in enumerate([1, 2, 2, 3, 10], 1):
        ...     builder.add(number, tokens)
        >>> builder.result().histogram(bins=4)
        [(1, 3, 4), (4, 6, 0), (7, 9, 0), (10, 12, 1)]
        """
        if bins < 1:
            raise EstimateInputError(f"a histogram needs at least one bin (you asked for {bins})")
        if not self.distribution:
            return []
        low, high = self.distribution[0][0], self.distribution[-1][0]
        width = max(1, math.ceil((high - low + 1) / bins))
        tally = [0] * ((high - low) // width + 1)
        for tokens, records in self.distribution:
            tally[(tokens - low) // width] += records
        return [(low + i * width, low + (i + 1) * width - 1, n) for i, n in enumerate(tally)]


class StatsBuilder:
    """Collects one token count per record (an ``array('I')``: 4 bytes a record, whatever the records hold)
    and the five longest, then sums them up (:meth:`result`, which holds one entry per distinct count more)."""

    LONGEST = 5

    def __init__(self) -> None:
        self._counts = array("I")
        self._longest: list[tuple[int, int]] = []  # a min-heap of (tokens, -number)

    @property
    def records(self) -> int:
        """How many records were added."""
        return len(self._counts)

    def add(self, number: int, tokens: int) -> None:
        """Record ``number`` has ``tokens`` tokens."""
        if tokens < 0:
            raise EstimateInputError(f"a record cannot have {tokens} tokens")
        self._counts.append(tokens)
        self._keep((tokens, -number))

    def _keep(self, entry: tuple[int, int]) -> None:
        if len(self._longest) < self.LONGEST:
            heapq.heappush(self._longest, entry)
        elif entry > self._longest[0]:
            heapq.heapreplace(self._longest, entry)

    def add_many(self, numbers: Sequence[int], counts: Sequence[int], base: int = 0) -> None:
        """Records ``base + numbers[i]`` have ``counts[i]`` tokens: :meth:`add` for a batch, at C speed but for
        the few records that may be among the longest."""
        if not counts:
            return
        if min(counts) < 0:
            raise EstimateInputError(f"a record cannot have {min(counts)} tokens")
        self._counts.extend(counts)
        longest = self._longest
        if len(longest) == self.LONGEST and max(counts) < longest[0][0]:
            return  # none of these is among the longest
        for tokens, negative in heapq.nlargest(self.LONGEST, zip(counts, map(operator.neg, numbers))):
            self._keep((tokens, negative - base))

    def result(self) -> RecordStats:
        """The statistics of everything added so far."""
        distribution = tuple(sorted(Counter(self._counts).items()))
        records, total = len(self._counts), sum(self._counts)
        longest = tuple((-n, tokens) for tokens, n in sorted(self._longest, reverse=True))
        return RecordStats(records, total, total / records if records else 0.0,
                           float(_percentile(distribution, records, 50)), float(_percentile(distribution, records, 95)),
                           distribution[-1][0] if distribution else 0, longest, distribution)


def percentile(sorted_counts: Sequence[int], p: float) -> int:
    """The nearest-rank ``p``-th percentile of counts sorted in increasing order: the smallest count with at
    least ``p`` % of the counts at or below it (always one of the counts; 0 for none).

    >>> percentile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 95), percentile([5, 7], 50), percentile([], 50)
    (10, 5, 0)
    """
    return _percentile(tuple(Counter(sorted_counts).items()), len(sorted_counts), p)


def _percentile(distribution: Sequence[tuple[int, int]], records: int, p: float) -> int:
    """:func:`percentile` read from (count, records) pairs, fewest first."""
    rank = max(1, math.ceil(p / 100 * records))
    seen = 0
    for tokens, how_many in distribution:
        seen += how_many
        if seen >= rank:
            return tokens
    return 0


# -- chat overhead ----------------------------------------------------------------------------------------------


def chat_overhead(model: Model, messages: Messages, extras: bool = True) -> int | None:
    """Tokens ``model``'s chat format adds on top of the messages' contents: the whole chat as the model reads
    it, counted with the model's real tokenizer (:func:`family.real.load`), minus each content counted alone.
    None when the model's format is unknown (``model.chat`` is None). A message is (role, content), or
    (role, content, name) when it has a ``name``. Per format:

    ``openai``  OpenAI's published rule (the cookbook "How to count tokens with tiktoken", for gpt-3.5-turbo
                and later): 3 tokens a message, plus every value's tokens (its role's; its name's, and 1 more
                for having a name), and 3 for the reply's priming ``<|start|>assistant<|message|>``.
    ``llama3``  Meta's format: ``<|begin_of_text|>`` once; per message
                ``<|start_header_id|>{role}<|end_header_id|>\\n\\n{content}<|eot_id|>``, the content stripped
                of surrounding white space as Meta's template does; then the generation prompt
                ``<|start_header_id|>assistant<|end_header_id|>\\n\\n``. A message's name is left out.
    ``chatml``  Qwen's ChatML: ``<|im_start|>{role}\\n{content}<|im_end|>\\n`` per message, then
                ``<|im_start|>assistant\\n``. A name is left out.
    ``mistral`` Mistral's instruct template applied by mistral-common (:func:`family.chat.mistral_total`)
                with the model's own tokenizer: v3 SentencePiece (Mistral 7B v0.3) or Tekken (Mistral NeMo),
                both offline from the data files family.real checks. A chat ending with an assistant's reply
                (a training record) is taken as mistral-common's fine-tuning mode takes it. A name is left out.

    With ``extras``, what the model's official template adds besides (``model.template``: :data:`TEMPLATES`) is
    counted too: Llama 3.1-3.3's system block with the knowledge cut-off and the day, Qwen 2.5's default system
    message when a chat has none (:func:`template_extras` says how many tokens).

    The llama3 and chatml chats are counted piece by piece: each special token is one token, the text between
    two is encoded as ordinary text. :class:`EstimateInputError` for a chat the template refuses (Mistral's:
    roles other than user, assistant and system, or a chat that starts with an assistant's reply).
    """
    if model.chat is None:
        return None
    if not messages:
        return 0
    tokenizer = _real(model)
    return _chat_total(model, tokenizer, messages, extras) - sum(tokenizer.count(m[1]) for m in messages)


TEMPLATES = {  # marked for the catalogue: a page draws them through i18n._ (the command line as they are)
    "llama3.1": N_("the system block Llama 3.1-3.3's official template always writes (knowledge cut-off, today's date)"),
    "qwen2.5": N_("the default system message Qwen 2.5's official template adds to a chat without one"),
}
"""What a model's official template adds to its chat format (``model.template``), in words."""

LLAMA31_DATED = "Cutting Knowledge Date: December 2023\nToday Date: 26 Jul 2024\n\n"
"""The head of Llama 3.1-3.3's system block (Meta's tokenizer_config.json chat template). 3.2's writes today's date
where 3.1's has this fixed one: every day of the form '%d %b %Y' is the same number of tokens (tested)."""

QWEN25_DEFAULT_SYSTEM = "You are Qwen, created by Alibaba Cloud. You are a helpful assistant."
"""The system message Qwen2.5's chat template puts first when a chat has none (Qwen3's adds none)."""


def template_extras(model: Model, messages: Messages) -> int:
    """Tokens ``model``'s official template adds beyond its chat format (:data:`TEMPLATES`), 0 for most models."""
    if model.template is None or model.chat is None or not messages:
        return 0
    tokenizer = _real(model)
    return _chat_total(model, tokenizer, messages, True) - _chat_total(model, tokenizer, messages, False)


def _real(model: Model):
    from family import real

    return real.load(model.tokenizer)


def _pairs(messages: Messages) -> list[tuple[str, str]]:
    """The messages as (role, content), their names left out (only OpenAI's format counts a name)."""
    return [(m[0], m[1]) for m in messages]


def _chat_total(model: Model, tokenizer, messages: Messages, extras: bool = True) -> int:
    """The whole chat in ``model``'s format (with its official template's extras), counted (``tokenizer`` is the
    model's real one)."""
    if model.chat == "openai":
        return _openai(tokenizer, messages)
    if model.chat == "mistral":
        return _mistral_total(model, _pairs(messages))
    template = model.template if extras else None
    if model.chat == "llama3":
        return _specials_and_text(tokenizer, llama3_parts(_pairs(messages), dated=template == "llama3.1"))
    pairs = _pairs(messages)
    if template == "qwen2.5" and pairs[0][0] != "system":
        pairs = [("system", QWEN25_DEFAULT_SYSTEM), *pairs]
    return _specials_and_text(tokenizer, chatml_parts(pairs))


def _openai(tokenizer, messages: Messages) -> int:
    total = 3  # the reply's priming
    for message in messages:
        total += 3 + _role_tokens(tokenizer, message[0]) + tokenizer.count(message[1])
        if len(message) > 2:  # a name: its tokens, and one more
            total += tokenizer.count(message[2]) + 1
    return total


@lru_cache(maxsize=64)
def _role_tokens(tokenizer, role: str) -> int:
    return tokenizer.count(role)


def _specials_and_text(tokenizer, parts: Sequence[tuple[str, bool]]) -> int:
    """The tokens of a template written as (text, is a special token) parts."""
    specials = tokenizer.special_tokens
    total = 0
    for text, special in parts:
        if special:
            if text not in specials:
                raise EstimateInputError(f"the {tokenizer.name} tokenizer has no special token {text}")
            total += 1
        elif text:
            total += tokenizer.count(text)
    return total


def llama3_parts(messages: Sequence[tuple[str, str]], dated: bool = False) -> list[tuple[str, bool]]:
    """Meta's Llama 3 chat format as (text, is a special token) parts, ending with the generation prompt; ``dated``:
    Llama 3.1-3.3's official template, whose system block (the chat's system message in it, trimmed, or none)
    always comes first and starts with :data:`LLAMA31_DATED`."""
    parts = [("<|begin_of_text|>", True)]
    if dated:
        system = ""
        if messages and messages[0][0] == "system":
            system, messages = messages[0][1].strip(), messages[1:]
        parts += [("<|start_header_id|>", True), ("system", False), ("<|end_header_id|>", True),
                  ("\n\n" + LLAMA31_DATED + system, False), ("<|eot_id|>", True)]
    for role, content in [*messages, ("assistant", None)]:
        parts += [("<|start_header_id|>", True), (role, False), ("<|end_header_id|>", True)]
        if content is None:
            parts.append(("\n\n", False))
        else:
            parts += [("\n\n" + content.strip(), False), ("<|eot_id|>", True)]
    return parts


def chatml_parts(messages: Sequence[tuple[str, str]]) -> list[tuple[str, bool]]:
    """ChatML (Qwen) as (text, is a special token) parts, ending with the generation prompt."""
    parts: list[tuple[str, bool]] = []
    for role, content in messages:
        parts += [("<|im_start|>", True), (f"{role}\n{content}", False), ("<|im_end|>", True), ("\n", False)]
    return parts + [("<|im_start|>", True), ("assistant\n", False)]


def _mistral_total(model: Model, messages: Sequence[tuple[str, str]]) -> int:
    from family.chat import mistral_total

    try:
        return mistral_total(messages, model.tokenizer)
    except ValueError as exc:
        raise EstimateInputError(str(exc)) from None


@dataclass(frozen=True)
class RecordCount:
    """A record's tokens in two parts: its ``contents`` (a text; a chat's contents, each counted alone) and the
    ``overhead`` its model's chat format adds (None for a text, or without a model or a known format), of which
    ``extras`` are what the model's official template adds besides (:data:`TEMPLATES`)."""

    contents: int
    overhead: int | None = None
    extras: int = 0

    @property
    def tokens(self) -> int:
        return self.contents + (self.overhead or 0)


def count_record(tokenizer, record: Record, model: Model | None, extras: bool = True) -> RecordCount:
    """A record counted with ``tokenizer``: its contents, and for a chat ``model``'s overhead
    (:func:`count_chat`).

    :class:`EstimateInputError` for a chat the model's template refuses (the caller may count it as a Problem).
    """
    if record.messages is None:
        return RecordCount(_counter(tokenizer)(record.text or ""))
    return count_chat(tokenizer, record.messages, model, extras)


def count_chat(tokenizer, messages: Messages, model: Model | None, extras: bool = True) -> RecordCount:
    """A chat counted with ``tokenizer``: its contents (each message's content alone), and ``model``'s chat
    overhead (with the model's own tokenizer, the whole chat is encoded once and the contents taken off; with
    another, :func:`chat_overhead`; None without a model or a known format), the official template's extras
    included when ``extras`` (and said apart).

    :class:`EstimateInputError` for a chat the model's template refuses.
    """
    count = _counter(tokenizer)
    contents = sum(count(m[1]) for m in messages)
    if model is None or model.chat is None:
        return RecordCount(contents)
    added = template_extras(model, messages) if extras else 0
    if messages and tokenizer is _real(model):
        return RecordCount(contents, _chat_total(model, tokenizer, messages, extras) - contents, added)
    return RecordCount(contents, chat_overhead(model, messages, extras), added)


def _counter(tokenizer):
    return getattr(tokenizer, "count", None) or (lambda text: len(tokenizer.encode(text)))


def record_tokens(tokenizer, record: Record, model: Model | None, extras: bool = True) -> int:
    """A record's tokens counted with ``tokenizer``: a text plainly; a chat's contents plus ``model``'s chat
    overhead (none when ``model`` is None or its format is unknown): :func:`count_record`'s total."""
    return count_record(tokenizer, record, model, extras).tokens


# -- money ----------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class BillPart:
    """One part of a request's bill: ``what`` it is ("input", "cached input", "output", "reasoning"), its
    ``tokens`` a request, the price per million ``usd_per_m`` and whether the tokens are ``measured`` (counted
    by a tokenizer) or assumed (an output the user expects, a reasoning budget)."""

    what: str
    tokens: Decimal
    usd_per_m: Decimal
    measured: bool

    @property
    def usd_per_request(self) -> Decimal:
        return self.tokens * self.usd_per_m / 1_000_000


@dataclass(frozen=True)
class Cost:
    """What requests cost: tokens in and out per request, the price used, USD and INR per request and per month
    (exact decimals: round only to show them, with :func:`usd` and :func:`inr`), and the bill's ``parts`` (input,
    cached input, output, reasoning: :meth:`part`), with ``notes`` on prices that were not published."""

    input_tokens: float
    output_tokens: float
    price: Price
    usd_per_request: Decimal
    usd_per_month: Decimal
    inr_per_request: Decimal
    inr_per_month: Decimal
    requests_per_month: int = field(default=0)
    parts: tuple[BillPart, ...] = ()
    reasoning_tokens: float = 0
    inr_per_usd: Decimal = Decimal(0)
    notes: tuple[str, ...] = ()
    batch: bool = False

    def part(self, what: str) -> BillPart | None:
        """The part of the bill called ``what``, or None when there is none."""
        return next((p for p in self.parts if p.what == what), None)

    @property
    def input_part(self) -> BillPart:
        """The input's part, on every bill."""
        return self._always("input")

    @property
    def output_part(self) -> BillPart:
        """The output's part, on every bill (zero tokens when none is expected)."""
        return self._always("output")

    def _always(self, what: str) -> BillPart:
        part = self.part(what)
        if part is None:
            raise LookupError(f"a bill without its {what} part")
        return part

    def month(self, usd_per_request: Decimal) -> Decimal:
        """An amount a request, for a month of requests."""
        return usd_per_request * self.requests_per_month

    def inr(self, usd: Decimal) -> Decimal:
        """An amount in USD, in rupees at the rate used."""
        return usd * self.inr_per_usd


def _tokens(value: float | Decimal, what: str) -> Decimal:
    try:
        number = amount(value, what)
    except CostInputError as exc:
        raise EstimateInputError(str(exc)) from None
    return number


def cost(input_tokens: float | Decimal, price: Price, *, output_tokens: float | None = None,
         output_ratio: float | Decimal | None = None, reasoning_tokens: float = 0, cached_share: float | Decimal = 0,
         batch: bool = False, requests_per_month: int, inr_per_usd: Decimal) -> Cost:
    """The cost of a request of ``input_tokens`` (measured; a mean may be fractional) and the expected output
    (assumed), given as ``output_tokens`` or as ``output_ratio`` of the input (exactly one), plus
    ``reasoning_tokens`` (a reasoning model's hidden tokens, assumed, billed at the output price), at ``price``
    (USD per million tokens), and of ``requests_per_month`` such requests, in USD and in INR at ``inr_per_usd``.

    Discounts, where the price data has them: ``cached_share`` of the input (0 to 1) read from the provider's
    prompt cache at the cached-input price; ``batch``: the batch prices. A model without them is priced at its
    list prices, and :attr:`Cost.notes` says so.

    :class:`EstimateInputError` for a negative or non-numeric figure, both or neither output given.
    """
    if (output_tokens is None) == (output_ratio is None):
        raise EstimateInputError("give the expected output as tokens or as a ratio of the input: one of the two")
    inputs = _tokens(input_tokens, N_("Input tokens"))
    if output_tokens is not None:
        outputs = _tokens(output_tokens, N_("Output tokens"))
    else:
        assert output_ratio is not None  # exactly one of the two, checked above
        outputs = inputs * _tokens(output_ratio, N_("The output ratio"))
    reasoning = _tokens(reasoning_tokens, N_("Reasoning tokens"))
    share = _tokens(cached_share, N_("The cached share"))
    if share > 1:
        raise EstimateInputError(_("The cached share is a part of the input, from 0 to 1 (not {share})",
                                   share=cached_share))
    try:
        requests = whole_count(requests_per_month, N_("Requests per month"))
        rate = amount(inr_per_usd, N_("Rupees per dollar"))
    except CostInputError as exc:
        raise EstimateInputError(str(exc)) from None
    notes: list[str] = []  # marked for the catalogue: a page draws them through i18n._
    input_rate, output_rate = price.input_per_m, price.output_per_m
    if batch:
        if price.batch_input_per_m is None or price.batch_output_per_m is None:
            notes.append(N_("no batch price published here: the list prices"))
        else:
            input_rate, output_rate = price.batch_input_per_m, price.batch_output_per_m
    cached_rate = price.cached_input_per_m
    if cached_rate is None:
        if share:
            notes.append(N_("no cached-input price published here: the cached share at the input price"))
        cached_rate = input_rate
    elif share and batch and price.batch_input_per_m is not None:
        notes.append(N_("the cached share at the cached-input price, not batch-discounted further"))
    parts = [BillPart("input", inputs * (1 - share), input_rate, True)]
    if share:
        parts.append(BillPart("cached input", inputs * share, cached_rate, True))
    parts.append(BillPart("output", outputs, output_rate, False))
    if reasoning:
        parts.append(BillPart("reasoning", reasoning, output_rate, False))
    per_request = sum((part.usd_per_request for part in parts), Decimal(0))
    return Cost(float(inputs), float(outputs), price, per_request, per_request * requests,
                per_request * rate, per_request * requests * rate, requests, tuple(parts), float(reasoning), rate,
                tuple(notes), batch)


SMALL = Decimal("0.10")
"""Amounts below this (a dime, ten paise) are shown to three significant digits: a request's cost is often a few
cents, and "$0.02" for $0.0248 hides a fifth of it (a month of requests multiplies the error)."""


def _small(value: Decimal) -> str | None:
    """Below :data:`SMALL` and not zero: three significant digits, trailing zeros dropped (0.0248, 0.0031), else
    None."""
    if value == 0 or abs(value) >= SMALL:
        return None
    places = -value.adjusted() + 2
    rounded = value.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP)
    if abs(rounded) >= SMALL:  # 0.09996 is shown as 0.10
        return None
    return f"{rounded:f}".rstrip("0")


def usd(amount: Decimal) -> str:
    """Dollars for display: cents, or three significant digits below ten cents.

    >>> usd(Decimal("0.02484")), usd(Decimal("0.00312")), usd(Decimal("75")), usd(Decimal("1234567.891"))
    ('$0.0248', '$0.00312', '$75.00', '$1,234,567.89')
    >>> usd(Decimal(0)), usd(Decimal("0.5"))
    ('$0.00', '$0.50')
    """
    value = Decimal(amount)
    sign = "-" if value < 0 else ""
    small = _small(abs(value))
    if small is not None:
        return f"{sign}${small}"
    rounded = abs(value).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
    return f"{sign if rounded else ''}${rounded:,.2f}"


def inr(amount: Decimal) -> str:
    """Rupees for display, as the lab shows money (:func:`analyses.cost.rupees`: Indian grouping, paise below
    Rs 1,000), with three significant digits below ten paise.

    >>> inr(Decimal("0.2743")), inr(Decimal("123456.4")), inr(Decimal("0.00275")), inr(Decimal("0.0625"))
    ('Rs 0.27', 'Rs 1,23,456', 'Rs 0.00275', 'Rs 0.0625')
    """
    small = _small(Decimal(amount))
    return "Rs " + small if small is not None else rupees(Decimal(amount))


def one_decimal(value: Decimal | int | float) -> Decimal:
    """A token count to one decimal, halves rounded up: the lab's one rule for showing a mean (on the page's
    cards and table and on the command line). Give it exact: ``Decimal(total) / records``.

    >>> one_decimal(Decimal(93) / 4), one_decimal(Decimal(3) / 20), one_decimal(7)
    (Decimal('23.3'), Decimal('0.2'), Decimal('7.0'))
    """
    return Decimal(value).quantize(Decimal("0.1"), rounding=ROUND_HALF_UP)


def mean_shown(total: int, records: int) -> str:
    """The mean of ``records`` counts summing to ``total`` as the page writes it: a whole number as such, else one
    decimal, halves up (:func:`one_decimal`), with thousands separated.

    >>> mean_shown(93, 4), mean_shown(80, 1), mean_shown(4937, 4)
    ('23.3', '80', '1,234.3')
    """
    if not records:
        return "0"
    if total % records == 0:
        return f"{total // records:,}"
    return f"{one_decimal(Decimal(total) / records):,}"


def premium(tokens_other: int, tokens_english: int) -> float:
    """How many times the English tokens the other language's text costs (2.1 = 2.1x), as on Real tokenizers.

    >>> premium(21, 10)
    2.1
    """
    if tokens_english <= 0 or tokens_other < 0:
        raise EstimateInputError(_("a premium needs an English text of at least one token to compare with"))
    return tokens_other / tokens_english


__all__ = ["BATCH_RECORDS", "Batch", "BillPart", "Cost", "EstimateInputError", "KINDS", "MAX_RECORD_CHARS", "OUTPUT_KINDS", "Problem", "Record", "batches",
           "RecordCount", "RecordStats", "StatsBuilder", "LLAMA31_DATED", "QWEN25_DEFAULT_SYSTEM", "TEMPLATES", "chat_overhead", "cost", "count_chat", "count_record", "inr", "iter_records", "lines_of", "mean_shown", "one_decimal", "percentile",
           "premium", "read_records", "record_tokens", "template_extras", "usd"]
