"""``cost``: what a prompt or a dataset costs on models by product name, a request and a month, in USD and INR, and
what the bill is made of: the input (measured: counted with each model's tokenizer), the output (assumed: what the
user expects), a reasoning model's hidden reasoning tokens (assumed: a named, dated budget, billed as output), and the
discounts where the provider publishes them (cached input, batch)."""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal

from analyses.estimate import Cost, EstimateInputError, inr, one_decimal, usd
from analyses.estimate import cost as estimate_cost
from family import models
from family.models import Model, Price
from tokenizer.labels import plural

from .common import UsageError, number, printable, shown
from .count import chat_json, chat_line, price_json
from .inputs import Counter, Gathered, Input, add_input_arguments, count_tokenizer, find_model, gather, input_from

COST_REQUESTS = 1000
"""``cost``'s requests a month when --requests-per-month is not given."""


@dataclass(frozen=True)
class GivenPrice:
    """A price from the command line: USD per million tokens, for one model (``model``: the name as typed) or,
    with no model, for every model without a price of its own."""

    model: str | None
    usd_per_m: Decimal


def _price_argument(flag: str):
    """An argparse type: ``USD_PER_M`` (every model) or ``MODEL=USD_PER_M`` (that model only)."""
    amount = number(flag, Decimal)

    def parse(value: str) -> GivenPrice:
        name, sep, figure = value.rpartition("=")
        if not sep:
            return GivenPrice(None, amount(value))
        if not name.strip():
            raise argparse.ArgumentTypeError(f"{flag} MODEL=USD_PER_M needs the model's name before '=', not "
                                             f"{shown(value)}")
        return GivenPrice(name.strip(), amount(figure))
    return parse


def add_parser(sub) -> None:
    k = sub.add_parser("cost", help="what a prompt or a dataset costs on models by name, in USD and INR")
    k.add_argument("text", nargs="?", help="the prompt, or - to read standard input (put -- before text that "
                   "starts with '-')")
    k.add_argument("--model", "-m", action="append", required=True, metavar="NAME",
                   help="a model by its product name (see count --list); repeat to compare")
    add_input_arguments(k)
    out = k.add_mutually_exclusive_group()
    out.add_argument("--output-tokens", type=number("--output-tokens", int), metavar="N",
                     help="expected output tokens a request (default 0)")
    out.add_argument("--output-ratio", type=number("--output-ratio", Decimal), metavar="R",
                     help="expected output as a ratio of the input tokens (0.5: half as many)")
    k.add_argument("--reasoning-tokens", type=number("--reasoning-tokens", int), metavar="N",
                   help="hidden reasoning tokens a request of a reasoning model (o1, o3, o4-mini, GPT-5), billed as "
                   f"output (default: the lab's reasoning budget, {models.reasoning_budget().value:,}, an assumption "
                   "dated in family/data/prices.toml)")
    k.add_argument("--requests-per-month", type=number("--requests-per-month", int), default=COST_REQUESTS,
                   metavar="N", help=f"requests a month (default {COST_REQUESTS:,})")
    k.add_argument("--input-price", type=_price_argument("--input-price"), action="append", metavar="[MODEL=]USD_PER_M",
                   help="USD per million input tokens instead of the published price: MODEL=USD_PER_M for one model "
                   "(repeat for others), a bare number for every --model")
    k.add_argument("--output-price", type=_price_argument("--output-price"), action="append",
                   metavar="[MODEL=]USD_PER_M", help="USD per million output tokens, as --input-price")
    k.add_argument("--cached-share", type=number("--cached-share", Decimal), default=Decimal(0), metavar="R",
                   help="the share of the input read from the provider's prompt cache (0 to 1), at its published "
                   "cached-input price")
    k.add_argument("--batch", action="store_true", help="the provider's batch prices, where published")
    k.add_argument("--inr-per-usd", type=number("--inr-per-usd", Decimal), metavar="X",
                   help="rupees per dollar (default: the dated rate in family/data/prices.toml)")
    k.add_argument("--json", action="store_true", help="print the figures as JSON (amounts as exact decimal strings)")
    k.set_defaults(run=cost_command)


# -- prices ------------------------------------------------------------------------------------------------------


def _given_for(found: Sequence[Model], given: Sequence[GivenPrice] | None, flag: str) -> list[Decimal | None]:
    """Each model's price from ``flag``: its own (MODEL=), else the one for every model, else None."""
    general, own = None, {}
    for price in given or ():
        if price.model is None:
            general = price.usd_per_m
            continue
        model = find_model(price.model)
        if model.key not in {m.key for m in found}:
            raise UsageError(printable(f"{flag} names {model.name}, which is not one of the --model given"))
        own[model.key] = price.usd_per_m
    return [own.get(model.key, general) for model in found]


def _prices(found: Sequence[Model], args: argparse.Namespace) -> list[tuple[Price, bool, bool]]:
    """Each model's price and whether its input and output price were given: the published one, with
    --input-price / --output-price instead where given. A model with no published price needs both: exit 2 naming
    what to give."""
    inputs = _given_for(found, args.input_price, "--input-price")
    outputs = _given_for(found, args.output_price, "--output-price")
    out = []
    for model, given_in, given_out in zip(found, inputs, outputs):
        known = models.price(model.key)
        if known is None:
            if given_in is None or given_out is None:
                missing = " and ".join(f"{flag} {model.key}=USD_PER_M" for flag, value in
                                       (("--input-price", given_in), ("--output-price", given_out)) if value is None)
                raise UsageError(f"no published price is known for {model.name}: give {missing} (USD per million "
                                 "tokens)")
            price = Price(model.key, given_in, given_out, "given", "the command line")
        else:
            price = Price(model.key, given_in if given_in is not None else known.input_per_m,
                          given_out if given_out is not None else known.output_per_m, known.date, known.source,
                          known.cached_input_per_m, known.batch_input_per_m, known.batch_output_per_m)
        out.append((price, given_in is not None, given_out is not None))
    return out


def _price_note(price: Price, given_in: bool, given_out: bool, known: Price | None, c: Cost) -> str:
    def one(flag: str, given: bool, value: Decimal) -> str:
        return f"${value} per M ({flag})" if given else f"${value} per M"

    shown_prices = (f"input {one('--input-price', given_in, c.input_part.usd_per_m)}, "
                    f"output {one('--output-price', given_out, c.output_part.usd_per_m)}")
    if c.batch and price.batch_input_per_m is not None:
        shown_prices += " (batch)"
    if known is not None and not (given_in and given_out):
        shown_prices += f"; published {known.date}, {known.source}"
    return shown_prices


# -- the command -------------------------------------------------------------------------------------------------


def cost_command(args: argparse.Namespace) -> None:
    given = input_from(args, "price")
    found = [find_model(name) for name in args.model]
    prices = _prices(found, args)
    rate = args.inr_per_usd if args.inr_per_usd is not None else models.INR_PER_USD
    if rate <= 0:
        raise UsageError("--inr-per-usd must be more than 0")
    if args.cached_share > 1:
        raise UsageError(f"--cached-share is the share of the input read from the cache, 0 to 1, not {args.cached_share}")
    counters = [Counter(m.name, count_tokenizer(m.tokenizer), m.tokenizer, m) for m in found]
    counted = gather(counters, given)
    if counted.tallies is not None:
        requests = [tally.stats.result() for tally in counted.tallies]
        per_request = [Decimal(s.total) / s.records if s.records else Decimal(0) for s in requests]  # exact means
        how = [("the text as one user message" if s.records == 1 else f"mean of {s.records:,} texts, each one user "
                "message") if given.kind == "text" else f"mean of {plural(s.records, 'record')}" for s in requests]
    else:
        per_request = [Decimal(total) / counted.texts for total in counted.totals]
        how = ["the text" if counted.texts == 1 else f"mean of {counted.texts} files" for _ in counters]
    output = ({"output_ratio": float(args.output_ratio)} if args.output_ratio is not None
              else {"output_tokens": args.output_tokens or 0})
    budget = models.reasoning_budget()
    reasoning = [(args.reasoning_tokens if args.reasoning_tokens is not None else budget.value) if m.reasoning else 0
                 for m in found]
    try:
        costs = [estimate_cost(tokens, price, **output, reasoning_tokens=thinking, cached_share=args.cached_share,
                               batch=args.batch, requests_per_month=args.requests_per_month, inr_per_usd=rate)
                 for tokens, (price, _, _), thinking in zip(per_request, prices, reasoning)]
    except EstimateInputError as exc:
        raise UsageError(str(exc).rstrip(".")) from None
    if args.json:
        print(json.dumps(_cost_json(counters, counted, costs, prices, how, args, rate, given), ensure_ascii=False))
        return
    for i, (counter, c, note, (price, given_in, given_out)) in enumerate(zip(counters, costs, how, prices)):
        _print_model(counter, c, per_request[i], note, price, given_in, given_out, args, counted, i, given)
    source = "--inr-per-usd" if args.inr_per_usd is not None else f"{models.INR_DATE}, {models.INR_SOURCE}"
    print(f"Rs {rate} per USD ({source}). Prices change: check each one's date and source. The input is measured "
          "(counted with each model's tokenizer); the output and any reasoning are assumptions.")
    if args.reasoning_tokens is not None and not any(m.reasoning for m in found):
        print("--reasoning-tokens: none of these models bills reasoning tokens (see count --list)")
    if counted.problem_count:
        print(f"{plural(counted.problem_count, 'record')} not counted (count --lines --json lists them), first: "
              + printable(f"line {counted.problems[0][1]}: {counted.problems[0][2]}"))


def _money(c: Cost, usd_per_request: Decimal) -> str:
    return f"{usd(usd_per_request)} a request, {usd(c.month(usd_per_request))} a month"


def _print_model(counter: Counter, c: Cost, mean: Decimal, note: str, price: Price, given_in: bool, given_out: bool,
                 args: argparse.Namespace, counted: Gathered, i: int, given: Input) -> None:
    model = counter.model
    assert model is not None  # cost counts models
    overhead = ""
    if counted.tallies is not None and counted.tallies[i].chats:
        overhead = "; " + chat_line(counter, counted.tallies[i], given).split(": ", 1)[1]
    print(f"{model.name} ({model.tokenizer})")
    cached = c.part("cached input")
    spent_in = c.input_part.usd_per_request + (cached.usd_per_request if cached else 0)
    from_cache = (f"; {args.cached_share:%} of it from the cache at ${cached.usd_per_m} per M" if cached else "")
    print(f"  input   {one_decimal(mean):,} tokens a request, {note}{overhead} (measured{from_cache}): "
          f"{_money(c, spent_in)}")
    output = (f"{args.output_ratio} x input" if args.output_ratio is not None else
              "none given: --output-tokens N or --output-ratio R" if args.output_tokens is None else "--output-tokens")
    print(f"  output  {one_decimal(c.output_tokens):,} tokens a request (assumed: {output}): "
          f"{_money(c, c.output_part.usd_per_request)}")
    thinking = c.part("reasoning")
    if model.reasoning:
        budget = models.reasoning_budget()
        why = ("--reasoning-tokens" if args.reasoning_tokens is not None else
               f"the lab's {budget.name}, {budget.date}; --reasoning-tokens N to change it")
        spent = _money(c, thinking.usd_per_request) if thinking else "none"
        print(f"  reasoning {one_decimal(c.reasoning_tokens):,} tokens a request (assumed: {why}), billed as output: "
              f"{spent}")
    print(f"  prices  {_price_note(price, given_in, given_out, models.price(model.key), c)}")
    for text in c.notes:
        print(f"  note    {text}")
    print(f"  cost    {usd(c.usd_per_request)} ({inr(c.inr_per_request)}) a request; "
          f"{usd(c.usd_per_month)} ({inr(c.inr_per_month)}) a month at {args.requests_per_month:,} requests")


def _bill_json(c: Cost) -> list[dict]:
    return [{"part": p.what, "tokens": float(p.tokens), "usd_per_m": str(p.usd_per_m), "measured": p.measured,
             "usd_per_request": str(p.usd_per_request), "usd_per_month": str(c.month(p.usd_per_request)),
             "inr_per_request": str(c.inr(p.usd_per_request)), "inr_per_month": str(c.inr(c.month(p.usd_per_request)))}
            for p in c.parts]


def _reasoning_json(model: Model, c: Cost, args: argparse.Namespace) -> dict | None:
    if not model.reasoning:
        return None
    budget = models.reasoning_budget()
    return {"tokens": c.reasoning_tokens, "assumed": True, "name": budget.name, "date": budget.date,
            "basis": budget.basis, "given": args.reasoning_tokens is not None}


def _cost_json(counters, counted: Gathered, costs, prices, how, args: argparse.Namespace, rate: Decimal,
               given: Input) -> dict:
    rows = []
    for i, (counter, c, note, (price, given_in, given_out)) in enumerate(zip(counters, costs, how, prices)):
        published = price_json(price) or {}
        model = counter.model
        assert model is not None  # cost counts models
        row = {"model": model.key, "name": model.name, "tokenizer": counter.tokenizer_name,
               "input_tokens": c.input_tokens, "input_is": note, "output_tokens": c.output_tokens,
               "price": {**published, "input_given": given_in, "output_given": given_out},
               "bill": _bill_json(c), "reasoning": _reasoning_json(model, c, args),
               "discounts": {"cached_share": str(args.cached_share), "batch": args.batch, "notes": list(c.notes)},
               "usd_per_request": str(c.usd_per_request), "usd_per_month": str(c.usd_per_month),
               "inr_per_request": str(c.inr_per_request), "inr_per_month": str(c.inr_per_month)}
        if counted.tallies is not None:
            row["chat"] = chat_json(counter, counted.tallies[i], given)
        rows.append(row)
    out = {"models": rows, "requests_per_month": args.requests_per_month, "inr_per_usd": str(rate),
           "inr_date": None if args.inr_per_usd is not None else models.INR_DATE,
           "inr_source": "--inr-per-usd" if args.inr_per_usd is not None else models.INR_SOURCE}
    if counted.tallies is not None:
        out["problems"] = [{"file": f, "line": n, "reason": r} for f, n, r in counted.problems]
        out["problem_count"] = counted.problem_count
    return out


__all__ = ["COST_REQUESTS", "GivenPrice", "add_parser", "cost_command"]
