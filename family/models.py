"""Product models by the names people know, each mapped to the production tokenizer it uses, and their prices.

An engineer asks "what does this cost on GPT-4o?", not "on o200k_base". This module is that mapping, as data
(``family/data/models.toml``, each line with its source), and the published prices (``family/data/prices.toml``,
each with its date and source). Both files are read with :mod:`tomllib` once, and checked as they are read: an
unknown tokenizer, a missing field, a duplicate key or a price for a model not listed stops with a clear
:class:`ModelDataError` naming the file and the entry.

>>> find("gpt4o").tokenizer, find("GPT 4o").key, find("Llama 3.3").tokenizer
('o200k_base', 'gpt-4o', 'llama3')
>>> price("gpt-4o").input_per_m, price("qwen3") is None
(Decimal('2.50'), True)
>>> find("gpt-4-o-mini").name                 # hyphens, dots, spaces and case do not matter
'GPT-4o mini'
>>> find("gpt-4o-minni")
Traceback (most recent call last):
  ...
family.models.UnknownModel: unknown model 'gpt-4o-minni': did you mean GPT-4o mini, GPT-4.1 mini or GPT-5 mini?
>>> find("Claude 3.5 Sonnet")     # a well-known model whose tokenizer is not published
Traceback (most recent call last):
  ...
family.models.UncountableModel: Claude (Anthropic) cannot be counted here: Anthropic has not published ...; instead, ...
>>> find("gpt-5").tokenizer
'o200k_base'
"""

from __future__ import annotations

import difflib
import re
import tomllib
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from functools import lru_cache
from pathlib import Path
from typing import Any

from family.real import NAMES as TOKENIZERS
from i18n import LocalizedFields, localized

DATA = Path(__file__).parent / "data"
MODELS_FILE = DATA / "models.toml"
PRICES_FILE = DATA / "prices.toml"
CHATS = ("openai", "llama3", "chatml", "mistral")
"""The chat formats :func:`analyses.estimate.chat_overhead` knows."""
TEMPLATES = {"llama3.1": "llama3", "qwen2.5": "chatml"}
"""What an official template adds to its chat format (``template = ...`` in models.toml), and the format it adds to:
:data:`analyses.estimate.TEMPLATES` says what each is."""


@dataclass(frozen=True)
class Model(LocalizedFields):
    """A product model: ``key`` (URL/CLI slug), ``name`` (as people say it), ``vendor``, the ``tokenizer`` it
    uses (a :mod:`family.real` name), its ``chat`` format (None: unknown, no overhead counted), the ``source``
    of the mapping, other names people type (``aliases``), what its official template adds to the format
    (``template``: a key of :data:`TEMPLATES`, or None) and whether it bills hidden ``reasoning`` tokens as
    output."""

    key: str
    name: str
    vendor: str
    tokenizer: str
    chat: str | None
    source: str
    aliases: tuple[str, ...] = ()
    template: str | None = None
    reasoning: bool = False
    hi: dict[str, str] = field(default_factory=dict, compare=False)
    """``source`` in Hindi (``hi = { source = ... }`` beside the English), read by :meth:`shown`."""


@dataclass(frozen=True)
class Price(LocalizedFields):
    """A published price: USD per 1,000,000 input and output tokens of model ``model`` (a key), the
    ``date`` it was checked ("2025-08") and its ``source`` (URL, and the host for open weights); and where the
    provider publishes them, on the same page and date, the price of input read from its prompt cache
    (``cached_input_per_m``) and its batch prices (``batch_input_per_m``, ``batch_output_per_m``)."""

    model: str
    input_per_m: Decimal
    output_per_m: Decimal
    date: str
    source: str
    cached_input_per_m: Decimal | None = None
    batch_input_per_m: Decimal | None = None
    batch_output_per_m: Decimal | None = None
    hi: dict[str, str] = field(default_factory=dict, compare=False)
    """``source`` in Hindi (``hi = { source = ... }`` beside the English), read by :meth:`shown`."""


class ModelDataError(ValueError):
    """models.toml or prices.toml is wrong: one line naming the file and the entry."""


@dataclass(frozen=True)
class Uncountable(LocalizedFields):
    """A well-known model whose tokenizer is not published, so the lab cannot count it: its ``name`` and
    ``vendor``, the ``prefixes`` of the names that mean it, ``why`` and what to do ``instead``, and when this was
    last ``checked``."""

    name: str
    vendor: str
    prefixes: tuple[str, ...]
    why: str
    instead: str
    checked: str
    hi: dict[str, str] = field(default_factory=dict, compare=False)
    """``why`` and ``instead`` in Hindi (``hi = { why = ..., instead = ... }`` beside the English), read by
    :meth:`shown`."""


class UnknownModel(ValueError):
    """No model by that name. ``name`` is what was asked, ``suggestions`` the closest known names;
    ``str(exc)`` is one friendly line."""

    def __init__(self, name: str, suggestions: tuple[str, ...]) -> None:
        self.name = name
        self.suggestions = suggestions
        super().__init__(name, suggestions)

    def __str__(self) -> str:
        shown = self.name if len(self.name) <= 60 else self.name[:60] + "..."
        if self.suggestions:
            *first, last = self.suggestions
            names = f"{', '.join(first)} or {last}" if first else last
            return f"unknown model {shown!r}: did you mean {names}?"
        return f"unknown model {shown!r}; known: {', '.join(m.key for m in models())}"


class UncountableModel(UnknownModel):
    """A model the lab knows it cannot count (:class:`Uncountable`): ``str(exc)`` says so, why, and what to do."""

    def __init__(self, name: str, model: Uncountable) -> None:
        self.model = model
        super().__init__(name, ())

    def __str__(self) -> str:
        m = self.model
        return f"{m.name} ({m.vendor}) cannot be counted here: {m.why}; instead, {m.instead}"


def normalise(name: str) -> str:
    """A name as :func:`find` compares it: lower case, without spaces, dots, hyphens or underscores.

    >>> normalise(" GPT-4.1 mini "), normalise("gpt_4o")
    ('gpt41mini', 'gpt4o')
    """
    return re.sub(r"[\s.\-_]+", "", name).casefold()


def models() -> tuple[Model, ...]:
    """Every product model, in the file's order."""
    return _models()


def find(name: str) -> Model:
    """The model whose key, name or alias is ``name`` (ignoring case, spaces, dots and hyphens).

    Raises :class:`UnknownModel` naming the closest known names, or :class:`UncountableModel` for a model whose
    tokenizer is not published (Claude, Gemini: :func:`uncountable`).
    """
    index = _index()
    wanted = normalise(name)
    if wanted in index:
        return index[wanted]
    for known in uncountable():
        if any(wanted.startswith(prefix) for prefix in known.prefixes):
            raise UncountableModel(name, known)
    # Names that begin with what was typed ("llama 3.1" -> its sizes) first, then the closest spellings.
    starting = [known for known in index if len(wanted) > 1 and known.startswith(wanted)]
    close = difflib.get_close_matches(wanted, list(index), n=3, cutoff=0.75)
    names = tuple(dict.fromkeys(index[c].name for c in [*starting, *close]))[:3]
    raise UnknownModel(name, names)


def uncountable() -> tuple[Uncountable, ...]:
    """The well-known models the lab cannot count (their tokenizer is not published), in the file's order."""
    return _uncountable()


def price(key: str) -> Price | None:
    """The published price of model ``key`` (a :attr:`Model.key`), or None when none is known."""
    return _prices()[0].get(key)


def _exchange() -> tuple[Decimal, str, str]:
    return _prices()[1]


def exchange_source() -> str:
    """Where the default exchange rate comes from (``INR_SOURCE``), in the run's language (``[exchange.hi]``)."""
    return str(localized({"source": _exchange()[2], "hi": _exchange_hindi()})["source"])


@lru_cache(maxsize=1)
def _exchange_hindi() -> dict[str, str]:
    return dict((_load(PRICES_FILE).get("exchange") or {}).get("hi", {}))


@dataclass(frozen=True)
class Assumption(LocalizedFields):
    """A named, dated assumption the estimate makes where nothing is measured or published: its value, the
    ``date`` it was made and its ``basis`` (why this figure)."""

    name: str
    value: int
    date: str
    basis: str
    hi: dict[str, str] = field(default_factory=dict, compare=False)
    """``basis`` in Hindi (``[reasoning.hi]`` beside the English), read by :meth:`shown`."""


def reasoning_budget() -> Assumption:
    """The reasoning tokens a request assumed for a model that bills hidden reasoning as output
    (prices.toml, ``[reasoning]``)."""
    return _reasoning()


@lru_cache(maxsize=1)
def _reasoning() -> Assumption:
    data = _load(PRICES_FILE).get("reasoning")
    where = f"{PRICES_FILE.name}, [reasoning]"
    if not isinstance(data, dict):
        raise ModelDataError(f"{PRICES_FILE.name}: missing [reasoning] (tokens_per_request, date, basis)")
    tokens = data.get("tokens_per_request")
    if not isinstance(tokens, int) or isinstance(tokens, bool) or tokens < 0:
        raise ModelDataError(f"{where}: tokens_per_request is a whole number of 0 or more, not {tokens!r}")
    return Assumption("reasoning budget", tokens, _field(data, "date", where), _field(data, "basis", where),
                      dict(data.get("hi", {})))


# -- reading and checking the data -------------------------------------------------------------------------


def _load(path: Path) -> dict[str, Any]:
    try:
        with path.open("rb") as handle:
            return tomllib.load(handle, parse_float=Decimal)
    except tomllib.TOMLDecodeError as exc:
        raise ModelDataError(f"{path.name}: not valid TOML ({exc})") from exc


def _field(entry: dict, field: str, where: str, kind: type = str) -> Any:
    if field not in entry:
        raise ModelDataError(f"{where}: missing field {field!r}")
    value = entry[field]
    if kind is Decimal:
        try:
            value = Decimal(str(value))
        except InvalidOperation:
            raise ModelDataError(f"{where}: {field} is not a number: {value!r}") from None
        if not value.is_finite() or value < 0:
            raise ModelDataError(f"{where}: {field} must be a number >= 0, not {value}")
        return value
    if not isinstance(value, kind) or (isinstance(value, str) and not value.strip()):
        raise ModelDataError(f"{where}: {field} must be a non-empty {kind.__name__}, not {value!r}")
    return value


def parse_models(data: dict[str, Any], file: str = "models.toml") -> tuple[Model, ...]:
    """Build and check the models of a parsed models.toml (``{"model": [...]}``)."""
    found: list[Model] = []
    names: dict[str, str] = {}
    for number, entry in enumerate(data.get("model", []), 1):
        where = f"{file}, model {number} ({entry.get('key', '?')})"
        unknown = set(entry) - {"key", "name", "vendor", "tokenizer", "chat", "source", "aliases", "template",
                                "reasoning", "hi"}
        if unknown:
            raise ModelDataError(f"{where}: unknown field(s) {', '.join(sorted(unknown))}")
        key, tokenizer = _field(entry, "key", where), _field(entry, "tokenizer", where)
        if key != key.lower() or " " in key:
            raise ModelDataError(f"{where}: a key is lower case without spaces: {key!r}")
        if tokenizer not in TOKENIZERS:
            raise ModelDataError(f"{where}: unknown tokenizer {tokenizer!r}; known: {', '.join(TOKENIZERS)}")
        chat = entry.get("chat")
        if chat is not None and chat not in CHATS:
            raise ModelDataError(f"{where}: unknown chat format {chat!r}; known: {', '.join(CHATS)}")
        aliases = entry.get("aliases", [])
        if not isinstance(aliases, list) or not all(isinstance(a, str) and a.strip() for a in aliases):
            raise ModelDataError(f"{where}: aliases must be a list of names, not {aliases!r}")
        aliases = tuple(aliases)
        template = entry.get("template")
        if template is not None and TEMPLATES.get(template) != chat:
            raise ModelDataError(f"{where}: template {template!r} is not one of the {chat} format's "
                                 f"({', '.join(t for t, c in TEMPLATES.items() if c == chat) or 'none'})")
        reasoning = entry.get("reasoning", False)
        if not isinstance(reasoning, bool):
            raise ModelDataError(f"{where}: reasoning is true or false, not {reasoning!r}")
        model = Model(key, _field(entry, "name", where), _field(entry, "vendor", where), tokenizer, chat,
                      _field(entry, "source", where), aliases, template, reasoning, dict(entry.get("hi", {})))
        for spelling in (key, model.name, *aliases):
            other = names.setdefault(normalise(spelling), key)
            if other != key or (spelling == key and any(m.key == key for m in found)):
                raise ModelDataError(f"{where}: duplicate name {spelling!r} (already {other})")
        found.append(model)
    if not found:
        raise ModelDataError(f"{file}: no [[model]] entries")
    return tuple(found)


_DISCOUNTS = ("cached_input_per_m", "batch_input_per_m", "batch_output_per_m")


def parse_prices(data: dict[str, Any], keys: set[str], file: str = "prices.toml"
                 ) -> tuple[dict[str, Price], tuple[Decimal, str, str]]:
    """Build and check the prices (by model key) and the exchange rate of a parsed prices.toml."""
    found: dict[str, Price] = {}
    for number, entry in enumerate(data.get("price", []), 1):
        where = f"{file}, price {number} ({entry.get('model', '?')})"
        key = _field(entry, "model", where)
        if key not in keys:
            raise ModelDataError(f"{where}: a price for an unknown model {key!r}")
        if key in found:
            raise ModelDataError(f"{where}: duplicate price for {key!r}")
        unknown = set(entry) - {"model", "input_per_m", "output_per_m", "date", "source", "hi", *_DISCOUNTS}
        if unknown:
            raise ModelDataError(f"{where}: unknown field(s) {', '.join(sorted(unknown))}")
        batch = [name for name in ("batch_input_per_m", "batch_output_per_m") if name in entry]
        if len(batch) == 1:
            raise ModelDataError(f"{where}: {batch[0]} without the other batch price")
        found[key] = Price(key, _field(entry, "input_per_m", where, Decimal),
                           _field(entry, "output_per_m", where, Decimal),
                           _field(entry, "date", where), _field(entry, "source", where),
                           **{name: _field(entry, name, where, Decimal) for name in _DISCOUNTS if name in entry},
                           hi=dict(entry.get("hi", {})))
    exchange = data.get("exchange")
    if not isinstance(exchange, dict):
        raise ModelDataError(f"{file}: missing [exchange] (inr_per_usd, date, source)")
    where = f"{file}, [exchange]"
    rate = _field(exchange, "inr_per_usd", where, Decimal)
    if rate == 0:
        raise ModelDataError(f"{where}: inr_per_usd must be more than 0")
    return found, (rate, _field(exchange, "date", where), _field(exchange, "source", where))


@lru_cache(maxsize=1)
def _models() -> tuple[Model, ...]:
    return parse_models(_load(MODELS_FILE), MODELS_FILE.name)


def parse_uncountable(data: dict[str, Any], file: str = "models.toml") -> tuple[Uncountable, ...]:
    """Build and check the ``[[uncountable]]`` entries of a parsed models.toml."""
    found = []
    for number, entry in enumerate(data.get("uncountable", []), 1):
        where = f"{file}, uncountable {number} ({entry.get('name', '?')})"
        unknown = set(entry) - {"name", "vendor", "prefixes", "why", "instead", "checked", "hi"}
        if unknown:
            raise ModelDataError(f"{where}: unknown field(s) {', '.join(sorted(unknown))}")
        prefixes = entry.get("prefixes")
        if not isinstance(prefixes, list) or not prefixes or not all(
                isinstance(p, str) and p == normalise(p) and p for p in prefixes):
            raise ModelDataError(f"{where}: prefixes must be a list of names written as compared (lower case, "
                                 f"no spaces, dots or hyphens), not {prefixes!r}")
        found.append(Uncountable(_field(entry, "name", where), _field(entry, "vendor", where), tuple(prefixes),
                                 _field(entry, "why", where), _field(entry, "instead", where),
                                 _field(entry, "checked", where), dict(entry.get("hi", {}))))
    return tuple(found)


@lru_cache(maxsize=1)
def _uncountable() -> tuple[Uncountable, ...]:
    found = parse_uncountable(_load(MODELS_FILE), MODELS_FILE.name)
    for model in _models():
        for spelling in (model.key, model.name, *model.aliases):
            if any(normalise(spelling).startswith(p) for u in found for p in u.prefixes):
                raise ModelDataError(f"{MODELS_FILE.name}: {spelling!r} is a model and also uncountable")
    return found


@lru_cache(maxsize=1)
def _index() -> dict[str, Model]:
    return {normalise(s): m for m in _models() for s in (m.key, m.name, *m.aliases)}


@lru_cache(maxsize=1)
def _prices() -> tuple[dict[str, Price], tuple[Decimal, str, str]]:
    return parse_prices(_load(PRICES_FILE), {m.key for m in _models()}, PRICES_FILE.name)


def __getattr__(name: str) -> Any:
    """``INR_PER_USD``, ``INR_DATE``, ``INR_SOURCE``: the default exchange rate, read from prices.toml."""
    fields = {"INR_PER_USD": 0, "INR_DATE": 1, "INR_SOURCE": 2}
    if name in fields:
        return _exchange()[fields[name]]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
