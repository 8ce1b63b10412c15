"""``cost``: what a prompt or a dataset costs on models by product name, a request and a month, in USD and INR."""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from decimal import Decimal

from analyses.estimate import EstimateInputError, inr, usd
from analyses.estimate import cost as estimate_cost
from family import models
from family.models import Model, Price
from tokenizer.labels import plural

from .common import UsageError, number, printable
from .count import chat_json, chat_line, price_json
from .inputs import Counter, Gathered, Input, add_input_arguments, count_tokenizer, find_model, gather, input_from

COST_REQUESTS = 1000
"""``cost``'s requests a month when --requests-per-month is not given."""


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
    k.add_argument("--requests-per-month", type=number("--requests-per-month", int), default=COST_REQUESTS,
                   metavar="N", help=f"requests a month (default {COST_REQUESTS:,})")
    k.add_argument("--input-price", type=number("--input-price", Decimal), metavar="USD_PER_M",
                   help="USD per million input tokens, instead of the published price (for every --model)")
    k.add_argument("--output-price", type=number("--output-price", Decimal), metavar="USD_PER_M",
                   help="USD per million output tokens, instead of the published price (for every --model)")
    k.add_argument("--inr-per-usd", type=number("--inr-per-usd", Decimal), metavar="X",
                   help="rupees per dollar (default: the dated rate in family/data/prices.toml)")
    k.add_argument("--json", action="store_true", help="print the figures as JSON (amounts as exact decimal strings)")
    k.set_defaults(run=cost_command)


def _prices(found: Sequence[Model], args: argparse.Namespace) -> list[Price]:
    """Each model's price: the published one, with --input-price / --output-price instead where given.
    A model with no published price needs both flags: exit 2 naming what is missing."""
    prices = []
    for model in found:
        known = models.price(model.key)
        if known is None and (args.input_price is None or args.output_price is None):
            missing = " and ".join(flag for flag, value in (("--input-price", args.input_price),
                                                            ("--output-price", args.output_price)) if value is None)
            raise UsageError(f"no published price is known for {model.name}: give {missing} "
                             "(USD per million tokens)")
        if known is None:
            prices.append(Price(model.key, args.input_price, args.output_price, "given", "the command line"))
            continue
        if args.input_price is not None or args.output_price is not None:
            known = Price(model.key, args.input_price if args.input_price is not None else known.input_per_m,
                          args.output_price if args.output_price is not None else known.output_per_m,
                          known.date, known.source)
        prices.append(known)
    return prices


def _price_note(price: Price, args: argparse.Namespace, known: Price | None) -> str:
    def one(flag: str, given, value: Decimal) -> str:
        return f"${value} per M ({flag})" if given is not None else f"${value} per M"

    shown = (f"input {one('--input-price', args.input_price, price.input_per_m)}, "
             f"output {one('--output-price', args.output_price, price.output_per_m)}")
    if known is not None and (args.input_price is None or args.output_price is None):
        shown += f"; published {known.date}, {known.source}"
    return shown


def cost_command(args: argparse.Namespace) -> None:
    given = input_from(args, "price")
    found = [find_model(name) for name in args.model]
    prices = _prices(found, args)
    rate = args.inr_per_usd if args.inr_per_usd is not None else models.INR_PER_USD
    if rate <= 0:
        raise UsageError("--inr-per-usd must be more than 0")
    counters = [Counter(m.name, count_tokenizer(m.tokenizer), m.tokenizer, m) for m in found]
    counted = gather(counters, given)
    if counted.tallies is not None:
        requests = [tally.stats.result() for tally in counted.tallies]
        per_request = [s.mean for s in requests]
        how = [("the text as one user message" if s.records == 1 else f"mean of {s.records:,} texts, each one user "
                "message") if given.kind == "text" else f"mean of {plural(s.records, 'record')}" for s in requests]
    else:
        per_request = [total / counted.texts for total in counted.totals]
        how = ["the text" if counted.texts == 1 else f"mean of {counted.texts} files" for _ in counters]
    output = ({"output_ratio": float(args.output_ratio)} if args.output_ratio is not None
              else {"output_tokens": args.output_tokens or 0})
    try:
        costs = [estimate_cost(tokens, price, **output, requests_per_month=args.requests_per_month, inr_per_usd=rate)
                 for tokens, price in zip(per_request, prices)]
    except EstimateInputError as exc:
        raise UsageError(str(exc).rstrip(".")) from None
    if args.json:
        print(json.dumps(_cost_json(counters, counted, costs, how, args, rate, given), ensure_ascii=False))
        return
    for i, (counter, c, note) in enumerate(zip(counters, costs, how)):
        model = counter.model
        overhead = ""
        if counted.tallies is not None and counted.tallies[i].chats:
            overhead = "; " + chat_line(counter, counted.tallies[i], given).split(": ", 1)[1]
        print(f"{model.name} ({model.tokenizer})")
        print(f"  input   {c.input_tokens:,.1f} tokens a request, {note}{overhead}")
        output = (f"{args.output_ratio} x input" if args.output_ratio is not None else
                  "none given: --output-tokens N or --output-ratio R" if args.output_tokens is None else "given")
        print(f"  output  {c.output_tokens:,.1f} tokens a request ({output})")
        print(f"  prices  {_price_note(c.price, args, models.price(model.key))}")
        print(f"  cost    {usd(c.usd_per_request)} ({inr(c.inr_per_request)}) a request; "
              f"{usd(c.usd_per_month)} ({inr(c.inr_per_month)}) a month at {args.requests_per_month:,} requests")
    source = "--inr-per-usd" if args.inr_per_usd is not None else f"{models.INR_DATE}, {models.INR_SOURCE}"
    print(f"Rs {rate} per USD ({source}). Prices change: check each one's date and source.")
    if counted.problem_count:
        print(f"{plural(counted.problem_count, 'record')} not counted (count --lines --json lists them), first: "
              + printable(f"line {counted.problems[0][1]}: {counted.problems[0][2]}"))


def _cost_json(counters, counted: Gathered, costs, how, args: argparse.Namespace, rate: Decimal, given: Input) -> dict:
    rows = []
    for i, (counter, c, note) in enumerate(zip(counters, costs, how)):
        row = {"model": counter.model.key, "name": counter.model.name, "tokenizer": counter.tokenizer_name,
               "input_tokens": c.input_tokens, "input_is": note, "output_tokens": c.output_tokens,
               "price": {**price_json(c.price),
                         "input_given": args.input_price is not None, "output_given": args.output_price is not None},
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


__all__ = ["COST_REQUESTS", "add_parser", "cost_command"]
