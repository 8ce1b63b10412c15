"""Tokens into money, context and time: the arithmetic of shipping a model to Hindi readers.

An API bills tokens, not words, so the same article costs more in a language
its tokenizer cuts into more pieces. Everything here is plain arithmetic on
token counts, kept in one place so that the Cost page, its tests and anyone
planning a budget compute it the same way. Money is kept as ``Decimal`` (paise
never drift), and shown with Indian digit grouping by :func:`rupees`.

The lesson-5 news app, worked through (its inputs are in
``lessons/data/cost_scenarios.json``; these figures are computed, never stored):

>>> prices = Prices(1, 4)                        # Rs per 1,000 input tokens, per 1,000 output tokens
>>> hindi, english = article_cost(1500, 240, prices), article_cost(550, 80, prices)
>>> rupees(hindi.input), rupees(hindi.output), rupees(hindi.total), rupees(english.total)
('Rs 1.50', 'Rs 0.96', 'Rs 2.46', 'Rs 0.87')
>>> rupees(monthly_cost(hindi.total, articles_per_day=1000, days=30))
'Rs 73,800'
>>> fit = window_fit(1500, window=8000, output_cap=300, margin=50)
>>> (fit.room, fit.count, fit.used)
(7650, 5, 7500)
>>> window_fit(550, window=8000, output_cap=300, margin=50).count
13
>>> check = presend_check(1550, window=8000, output_cap=300, margin=50, prices=prices)
>>> (check.accepted, check.needed, rupees(check.worst_case))
(True, 1900, 'Rs 2.75')
>>> presend_check(7700, window=8000, output_cap=300, margin=50, prices=prices).accepted
False
>>> rupees(article_cost(cleaned(1500, 15), 240, prices).total)
'Rs 2.24'
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation

from i18n import N_, _
from i18n import number as number_of
from tokenizer.interface import TextTokenizer

from .measure import Measure, measure_many
from .numbers import indian_groups

PER_TOKENS = 1000
"""Prices are quoted per this many tokens."""

MONEY_PAISE_BELOW = Decimal(1000)
"""Amounts below this are shown to the paisa (Rs 2.46); larger ones to the rupee (Rs 73,800)."""


TOKENS_PER_ARTICLE = N_("Tokens per article")
"""What the window's arithmetic calls one article's tokens (a page tells its refusal apart by it: ``exc.what``)."""


class CostInputError(ValueError):
    """An input the arithmetic cannot use; ``str()`` says which, and what would work, for the learner, in the run's
    language (``i18n``: English on the command line). ``what``: the input's name as the engine marks it (English,
    ``N_``; a caller of :func:`count` or :func:`amount` passes its own name marked the same way), or None for a
    refusal of several inputs together."""

    def __init__(self, message: str, what: str | None = None) -> None:
        super().__init__(message)
        self.what = what


# -- checking inputs -----------------------------------------------------------------------------
def _decimal(value: object, what: str) -> Decimal:
    try:
        number = value if isinstance(value, Decimal) else Decimal(str(value))
    except (InvalidOperation, ValueError):
        raise CostInputError(_("{what} must be a number (you gave {value}).", what=_(what), value=repr(value)),
                             what) from None
    if not number.is_finite():
        raise CostInputError(_("{what} must be a number (you gave {value}).", what=_(what), value=value), what)
    return number


def count(value: object, what: str, *, at_least: int = 0) -> int:
    """``value`` as a whole count, or :class:`CostInputError` naming ``what`` when it is below ``at_least``.

    >>> count(550, "Input tokens")
    550
    >>> count(-3, "Articles a day")
    Traceback (most recent call last):
    ...
    analyses.cost.CostInputError: Articles a day cannot be negative (you gave -3).
    >>> count(0, "Tokens per article", at_least=1)
    Traceback (most recent call last):
    ...
    analyses.cost.CostInputError: Tokens per article must be at least 1 (you gave 0).
    """
    number = _decimal(value, what)
    if number != number.to_integral_value():
        raise CostInputError(_("{what} must be a whole number (you gave {value}).", what=_(what), value=value), what)
    if number < at_least:
        if at_least == 0:
            raise CostInputError(_("{what} cannot be negative (you gave {value}).", what=_(what), value=value), what)
        raise CostInputError(_("{what} must be at least {least} (you gave {value}).", what=_(what),
                               least=number_of(at_least), value=value), what)
    return int(number)


def amount(value: object, what: str) -> Decimal:
    """A price or an amount of money: a number, 0 or more."""
    number = _decimal(value, what)
    if number < 0:
        raise CostInputError(_("{what} cannot be negative (you gave {value}).", what=_(what), value=value), what)
    return number


# -- money -------------------------------------------------------------------------------------------
def indian_digits(n: int) -> str:
    """A whole number with Indian digit grouping: the last three digits, then pairs (lakh, crore).

    >>> indian_digits(73800), indian_digits(123456), indian_digits(12345678), indian_digits(-999)
    ('73,800', '1,23,456', '1,23,45,678', '-999')
    """
    return ("-" if n < 0 else "") + ",".join(indian_groups(str(abs(n))))


def rupees(value: Decimal | float, *, paise: bool | None = None) -> str:
    """Money as the lab shows it: ``Rs``, Indian digit grouping, paise below Rs 1,000 (or when asked).

    Rounded half up, the way a bill is: Rs 2.235 is Rs 2.24.

    >>> rupees(Decimal("2.235")), rupees(73800), rupees(123456.5), rupees(123456.5, paise=True)
    ('Rs 2.24', 'Rs 73,800', 'Rs 1,23,457', 'Rs 1,23,456.50')
    >>> rupees(0.87), rupees(0)
    ('Rs 0.87', 'Rs 0.00')
    """
    number = _decimal(value, N_("An amount"))
    rounded = number.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
    show_paise = abs(rounded) < MONEY_PAISE_BELOW if paise is None else paise
    if not show_paise:
        rounded = number.quantize(Decimal(1), rounding=ROUND_HALF_UP)
    whole = int(abs(rounded))
    sign = "-" if rounded < 0 else ""
    text = indian_digits(whole)
    if show_paise:
        text += f".{int((abs(rounded) - whole) * 100):02d}"
    return f"Rs {sign}{text}"


# -- what one article costs --------------------------------------------------------------------------
@dataclass(frozen=True)
class Prices:
    """What the API charges, in rupees per 1,000 tokens: reading (input) and writing (output)."""

    input_per_1000: Decimal
    output_per_1000: Decimal

    def __init__(self, input_per_1000: object, output_per_1000: object) -> None:
        object.__setattr__(self, "input_per_1000", amount(input_per_1000, N_("The price of 1,000 input tokens")))
        object.__setattr__(self, "output_per_1000", amount(output_per_1000, N_("The price of 1,000 output tokens")))

    def of_input(self, tokens: int) -> Decimal:
        return self.input_per_1000 * tokens / PER_TOKENS

    def of_output(self, tokens: int) -> Decimal:
        return self.output_per_1000 * tokens / PER_TOKENS


@dataclass(frozen=True)
class ArticleCost:
    """One request: the tokens sent (the story and the instructions) and the tokens written back."""

    input_tokens: int
    output_tokens: int
    input: Decimal
    output: Decimal

    @property
    def total(self) -> Decimal:
        return self.input + self.output


def article_cost(input_tokens: int, output_tokens: int, prices: Prices) -> ArticleCost:
    """What one article costs: input tokens at the input price, plus output tokens at the output price.

    >>> c = article_cost(550, 80, Prices(1, 4))
    >>> (c.input, c.output, c.total)
    (Decimal('0.55'), Decimal('0.32'), Decimal('0.87'))
    """
    tokens_in = count(input_tokens, N_("Input tokens per article"))
    tokens_out = count(output_tokens, N_("Output tokens per article"))
    return ArticleCost(tokens_in, tokens_out, prices.of_input(tokens_in), prices.of_output(tokens_out))


def monthly_cost(per_article: Decimal, *, articles_per_day: int, days: int) -> Decimal:
    """The bill for ``days`` days of ``articles_per_day`` articles.

    >>> monthly_cost(Decimal("0.87"), articles_per_day=1000, days=30)
    Decimal('26100.00')
    """
    return per_article * count(articles_per_day, N_("Articles a day")) * count(days, N_("Days"))


# -- the context window ----------------------------------------------------------------------------
@dataclass(frozen=True)
class Fit:
    """How many articles of ``each`` tokens fit in one prompt, leaving room for the reply and a margin."""

    window: int
    output_cap: int
    margin: int
    each: int
    count: int

    @property
    def room(self) -> int:
        """Tokens left for the prompt: the window minus the reply's cap and the safety margin."""
        return self.window - self.output_cap - self.margin

    @property
    def exact(self) -> float:
        """The room divided by one article's tokens, before rounding down to whole articles."""
        return self.room / self.each

    @property
    def used(self) -> int:
        return self.count * self.each

    @property
    def free(self) -> int:
        """Room left over after the articles that fit (too little for one more)."""
        return self.room - self.used


def _window(window: int, output_cap: int, margin: int) -> tuple[int, int, int]:
    window = count(window, N_("The context window"), at_least=1)
    output_cap = count(output_cap, N_("The output cap"))
    margin = count(margin, N_("The margin"))
    if output_cap + margin >= window:
        raise CostInputError(_(
            "The window ({window} tokens) must be larger than the output cap plus the margin ({cap} + {margin} = "
            "{sum}): otherwise no prompt fits at all.", window=number_of(window), cap=number_of(output_cap),
            margin=number_of(margin), sum=number_of(output_cap + margin)))
    return window, output_cap, margin


def window_fit(each: int, *, window: int, output_cap: int, margin: int) -> Fit:
    """Whole articles of ``each`` tokens that fit in the window's room for the prompt.

    >>> f = window_fit(550, window=8000, output_cap=300, margin=50)
    >>> (f.room, f.count, f.used, f.free)
    (7650, 13, 7150, 500)
    """
    window, output_cap, margin = _window(window, output_cap, margin)
    each = count(each, TOKENS_PER_ARTICLE, at_least=1)
    return Fit(window, output_cap, margin, each, (window - output_cap - margin) // each)


@dataclass(frozen=True)
class Check:
    """The check to run before sending a prompt: does it fit with the reply and the margin, and at what cost?"""

    prompt: int
    window: int
    output_cap: int
    margin: int
    worst_case: Decimal
    """The cost if the reply uses its whole cap: the most this request can cost."""

    @property
    def needed(self) -> int:
        return self.prompt + self.output_cap + self.margin

    @property
    def accepted(self) -> bool:
        return self.needed <= self.window

    @property
    def over_by(self) -> int:
        return max(0, self.needed - self.window)


def presend_check(prompt: int, *, window: int, output_cap: int, margin: int, prices: Prices) -> Check:
    """Accept a prompt only if prompt + output cap + margin fits the window; price its worst case.

    >>> c = presend_check(7700, window=8000, output_cap=300, margin=50, prices=Prices(1, 4))
    >>> (c.accepted, c.needed, c.over_by)
    (False, 8050, 50)
    """
    window, output_cap, margin = _window(window, output_cap, margin)
    prompt = count(prompt, N_("The prompt"))
    worst = prices.of_input(prompt) + prices.of_output(output_cap)
    return Check(prompt, window, output_cap, margin, worst)


# -- speed -----------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Speed:
    """What a request costs in time, counted in the work a model does rather than in seconds.

    A model reads the whole prompt before it writes (prefill: a longer prompt means a later
    first token), then writes the reply one token per decoding step.
    """

    prompt_tokens: int
    output_tokens: int

    @property
    def decoding_steps(self) -> int:
        """One step per output token: three times the tokens is three times the steps."""
        return self.output_tokens


def speed(prompt_tokens: int, output_tokens: int) -> Speed:
    """
    >>> speed(1500, 240).decoding_steps / speed(550, 80).decoding_steps
    3.0
    """
    return Speed(count(prompt_tokens, N_("Input tokens per article")),
                 count(output_tokens, N_("Output tokens per article")))


# -- levers and planning figures -------------------------------------------------------------------
def cleaned(tokens: int, percent: float) -> int:
    """The tokens left after cutting ``percent`` of them (bylines, menus, boilerplate), to the nearest token.

    >>> cleaned(1500, 15), cleaned(550, 15)
    (1275, 468)
    """
    tokens = count(tokens, N_("Input tokens per article"))
    share = _decimal(percent, N_("The share of tokens cleaned away"))
    if not 0 <= share <= 100:
        raise CostInputError(_("The share of tokens cleaned away must be between 0 and 100 % (you gave {value}).",
                               value=percent), N_("The share of tokens cleaned away"))
    return int((tokens * (100 - share) / 100).quantize(Decimal(1), rounding=ROUND_HALF_UP))


def tokens_for(words: int, tokens_per_word: float) -> int:
    """The planning figure at work: words x tokens per word measured on your own text, to the nearest token.

    >>> tokens_for(410, 3.66)
    1501
    """
    words = count(words, N_("Words"))
    rate = amount(tokens_per_word, N_("Tokens per word"))
    return int((rate * words).quantize(Decimal(1), rounding=ROUND_HALF_UP))


def rate(tokenizer: TextTokenizer, texts: Iterable[str]) -> Measure:
    """Tokens per word (and per character) over a sample, each text counted on its own (as each would be
    sent): :func:`analyses.measure.measure_many`, with a sentence for the learner when there is nothing to
    measure (raises :class:`CostInputError`).

    >>> from tokenizer import train
    >>> tok = train("aa bb", 0, unit="bytes").tokenizer
    >>> r = rate(tok, ["chai wala", "poha"])
    >>> (r.tokens, r.words, round(r.tokens_per_word, 2))
    (13, 3, 4.33)
    """
    found = measure_many(tokenizer, texts)
    if not found.words:
        raise CostInputError(_("There is no text to measure: type a few sentences (words separated by spaces)."))
    return found


def ratio(a: Decimal | float, b: Decimal | float) -> float:
    """``a / b`` as a float, or 0.0 when ``b`` is 0 (a ratio of costs or of counts).

    >>> round(ratio(Decimal("73800"), Decimal("26100")), 2)
    2.83
    """
    return float(a) / float(b) if b else 0.0


__all__ = [
    "ArticleCost",
    "Check",
    "CostInputError",
    "Fit",
    "PER_TOKENS",
    "Prices",
    "Speed",
    "amount",
    "article_cost",
    "cleaned",
    "count",
    "indian_digits",
    "monthly_cost",
    "presend_check",
    "rate",
    "ratio",
    "rupees",
    "speed",
    "tokens_for",
    "window_fit",
]
