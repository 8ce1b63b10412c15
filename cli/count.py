"""``count``: the tokens of a text, standard input or files, with production tokenizers, the lab's models or models
by product name; ``--lines`` counts record by record with per-record statistics and chat overhead; ``--list`` lists
every tokenizer and model.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from decimal import Decimal

from analyses.estimate import TEMPLATES, RecordStats, one_decimal
from analyses.tally import MAX_PROBLEMS_KEPT, split_key
from family import models, real
from family.models import Price
from tokenizer.labels import plural

from .common import UsageError, printable
from .inputs import (
    COUNT_DEFAULT,
    MAX_PROBLEMS_SHOWN,
    Counter,
    Gathered,
    Input,
    Tally,
    add_input_arguments,
    counters_for,
    gather,
    input_from,
    where,
)


def add_parser(sub) -> None:
    c = sub.add_parser("count", help="count tokens with production tokenizers or saved models")
    c.add_argument("text", nargs="?", help="the text to count, or - to read standard input (read part by part: any length; "
                   "put -- before text that starts with '-')")
    c.add_argument("--tokenizer", "-t", action="append", metavar="NAME",
                   help=f"one of {', '.join(real.NAMES)}, or a model file saved by 'train'; repeat to compare "
                   f"(default: {' and '.join(COUNT_DEFAULT)})")
    c.add_argument("--model", "-m", action="append", metavar="NAME",
                   help="a model by its product name (GPT-4o, 'Llama 3.1 8B', ...: see --list), counted with the "
                   "tokenizer it uses; repeat to compare")
    add_input_arguments(c)
    c.add_argument("--json", action="store_true", help='print {"results": [{"tokenizer", "tokens", "ids"}, ...]} '
                   "(ids only for a TEXT or - counted whole; with --file or --lines totals and statistics)")
    c.add_argument("--list", action="store_true", help="list the production tokenizers and the models by name")
    c.set_defaults(run=count_command)


def count_command(args: argparse.Namespace) -> None:
    if args.list:
        if args.text is not None or args.tokenizer or args.file or args.model or args.lines:
            raise UsageError("--list takes no text, no --file, no --tokenizer and no --model")
        _count_list(args.json)
        return
    given = input_from(args)
    counters = counters_for(args.tokenizer, args.model)  # every name checked before any input is read
    plain = (given.kind == "text" and not given.as_chat and given.paths == ()
             and all(c.model is None for c in counters))
    counted = gather(counters, given, keep_ids=args.json and plain)
    if args.json:
        if plain:
            _print_count_json([c.label for c in counters], counted.totals, counted.ids or [])
        else:
            print(json.dumps(_count_json(counters, given, counted), ensure_ascii=False))
        return
    if counted.tallies is None:  # each text whole (not --lines, not --as-chat)
        _print_count_table(counters, counted)
        if len(given.paths) > 1:
            _print_per_file(counters, given.paths, counted.per_file)
        return
    _print_records(counters, given, counted)


def _count_list(as_json: bool) -> None:
    rows = [(info, real.status(info.name)) for info in real.catalogue()]
    known = models.models()
    if as_json:
        out = [{"name": i.name, "title": i.title, "available": r is None, "reason": r} for i, r in rows]
        listed = [{"key": m.key, "name": m.name, "vendor": m.vendor, "tokenizer": m.tokenizer, "chat": m.chat,
                   "template": m.template, "reasoning": m.reasoning, "aliases": list(m.aliases), "source": m.source,
                   "price": price_json(models.price(m.key))}
                  for m in known]
        cannot = [{"name": m.name, "vendor": m.vendor, "why": m.why, "instead": m.instead, "checked": m.checked}
                  for m in models.uncountable()]
        print(json.dumps({"tokenizers": out, "models": listed, "uncountable": cannot}, ensure_ascii=False))
        return
    for info, reason in rows:  # the tokenizers (-t NAME) first, one a line, as before the models came
        print(f"{info.name:<15} {info.title:<26} {'available' if reason is None else 'unavailable: ' + reason}")
    print()
    print("models (--model NAME: its name or key, in any case and spacing):")
    width = max(len(m.name) for m in known)
    for m in known:
        known_price = models.price(m.key)
        shown = (f"${known_price.input_per_m} in / ${known_price.output_per_m} out per M tokens ({known_price.date})"
                 if known_price else "no published price: give --input-price and --output-price to cost")
        thinks = "; bills reasoning tokens as output" if m.reasoning else ""
        print(f"  {m.name:<{width}}  {m.key:<16} {m.tokenizer:<15} chat: {m.chat or 'unknown':<8} {shown}{thinks}")
    print()
    print("models the lab cannot count (their tokenizer is not published):")
    for u in models.uncountable():
        print(f"  {u.name} ({u.vendor}): {u.why}; instead, {u.instead}")


def price_json(known: Price | None) -> dict | None:
    if known is None:
        return None
    out = {"input_per_m": str(known.input_per_m), "output_per_m": str(known.output_per_m), "date": known.date,
           "source": known.source}
    for name in ("cached_input_per_m", "batch_input_per_m", "batch_output_per_m"):
        value = getattr(known, name)
        if value is not None:
            out[name] = str(value)
    return out


def _print_count_table(counters: Sequence[Counter], counted: Gathered) -> None:
    words = counted.words
    head = _head(counters)
    width = max(len(head), *(len(c.label) for c in counters))
    print(f"{head:<{width}}  {'tokens':>7}  {'per word':>8}  what")
    for counter, tokens in zip(counters, counted.totals):
        per_word = f"{tokens / words:.2f}" if words else "-"
        what = counter.tokenizer.name if counter.model is None else f"{counter.tokenizer.name}, {counter.model.vendor}"
        print(f"{counter.label:<{width}}  {tokens:>7}  {per_word:>8}  {what}")
    print(f"{plural(words, 'word')}, {plural(counted.characters, 'character')}, {plural(counted.bytes, 'byte')}")


def _head(counters: Sequence[Counter]) -> str:
    """The first column's title: tokenizers (-t), models (--model), or both."""
    kinds = {counter.model is None for counter in counters}
    return "tokenizer" if kinds == {True} else "model" if kinds == {False} else "model or tokenizer"


def _print_per_file(counters: Sequence[Counter], paths: Sequence[str], per_file: Sequence[Sequence[int]]) -> None:
    width = max(len("file"), *(len(printable(path)) for path in paths))
    widths = [max(len(c.label), 7) for c in counters]
    print()
    print(f"{'file':<{width}}  " + "  ".join(f"{c.label:>{w}}" for c, w in zip(counters, widths)))
    for path, tokens in zip(paths, per_file):
        print(f"{printable(path):<{width}}  " + "  ".join(f"{n:>{w}}" for n, w in zip(tokens, widths)))


def _stats_json(given: Input, stats: RecordStats) -> dict:
    return {"records": stats.records, "mean": round(stats.mean, 2), "p50": stats.p50, "p95": stats.p95,
            "max": stats.max, "longest": [_longest_json(given, key, tokens) for key, tokens in stats.longest]}


def _longest_json(given: Input, key: int, tokens: int) -> dict:
    file_index, number = split_key(key)
    out: dict[str, object] = {"line": number, "tokens": tokens}
    if given.paths:
        out = {"file": printable(given.paths[file_index]), **out}
    return out


def chat_json(counter: Counter, tally: Tally, given: Input) -> dict:
    out: dict[str, object] = {"format": counter.model.chat if counter.model else None, "chats": tally.chats,
           "overhead_tokens": tally.overhead, "chats_without_overhead": tally.no_format}
    template = counter.model.template if counter.model else None
    if template is not None:
        out["template_extras"] = {"included": given.extras, "tokens": tally.extras, "what": TEMPLATES[template]}
    return out


def _count_json(counters: Sequence[Counter], given: Input, counted: Gathered) -> dict:
    results = []
    for i, counter in enumerate(counters):
        row: dict = {"tokenizer": counter.tokenizer_name, "tokens": counted.totals[i]}
        if counter.model is not None:
            row = {"model": counter.model.key, "name": counter.model.name, **row}
        if counted.tallies is not None:
            tally = counted.tallies[i]
            stats = tally.stats.result()
            row["tokens"] = stats.total
            row.update(_stats_json(given, stats))
            row["chat"] = chat_json(counter, tally, given)
        results.append(row)
    out: dict = {"results": results}
    if counted.tallies is None:
        out.update(words=counted.words, characters=counted.characters, bytes=counted.bytes)
        if given.paths:
            out["files"] = [{"file": printable(path), "tokens": dict(zip((c.label for c in counters), tokens))}
                            for path, tokens in zip(given.paths, counted.per_file)]
    else:
        out["problems"] = [{"file": file, "line": line, "reason": reason} for file, line, reason in counted.problems]
        out["problem_count"] = counted.problem_count
    return out


def _print_records(counters: Sequence[Counter], given: Input, counted: Gathered) -> None:
    """Per counter: the total and the per-record statistics; the five longest records; chat overhead; problems."""
    tallies = counted.tallies
    assert tallies is not None  # records mode
    stats = [tally.stats.result() for tally in tallies]
    head = _head(counters)
    width = max(len(head), *(len(c.label) for c in counters))
    print(f"{head:<{width}}  {'tokens':>11}  {'records':>9}  {'mean':>9}  {'p50':>7}  {'p95':>7}  {'max':>7}")
    for counter, s in zip(counters, stats):
        mean = one_decimal(Decimal(s.total) / s.records) if s.records else Decimal("0.0")
        print(f"{counter.label:<{width}}  {s.total:>11,}  {s.records:>9,}  {mean:>9,}  {s.p50:>7,.0f}  "
              f"{s.p95:>7,.0f}  {s.max:>7,}")
    label = "file:line" if len(given.paths) > 1 else "line"
    print(f"longest records ({label}: tokens):")
    for counter, s in zip(counters, stats):
        print(f"  {counter.label:<{width}}  " + ", ".join(f"{where(given, key)}: {tokens:,}" for key, tokens in s.longest))
    for counter, tally in zip(counters, tallies):
        if tally.chats:
            print(chat_line(counter, tally, given))
    if counted.problem_count:
        print(f"{plural(counted.problem_count, 'record')} not counted:")
        for file, line, reason in counted.problems[:MAX_PROBLEMS_SHOWN]:
            print(printable(f"  {file + ':' if file else 'line '}{line}: {reason}"))
        if counted.problem_count > MAX_PROBLEMS_SHOWN:
            print(f"  ... and {counted.problem_count - MAX_PROBLEMS_SHOWN:,} more (--json lists {MAX_PROBLEMS_KEPT:,})")


def chat_line(counter: Counter, tally: Tally, given: Input) -> str:
    if tally.no_format == tally.chats:
        why = "no model given (-t counts contents only)" if counter.model is None else \
            f"{counter.model.name}'s chat format is not known"
        return f"{counter.label}: {plural(tally.chats, 'chat')}, contents only: {why}"
    model = counter.model
    assert model is not None and model.chat is not None  # a chat with overhead has a model with a known format
    said = (f"{counter.label}: {plural(tally.chats, 'chat')}, {tally.overhead:,} tokens of chat overhead included "
            f"({FORMAT_NAMES[model.chat]}")
    template = model.template
    if template is not None and given.extras:
        said += f"; {tally.extras:,} of them the official template's: {TEMPLATES[template]}; --no-template-extras"
    elif template is not None:
        said += f"; left out, by --no-template-extras: {TEMPLATES[template]}"
    return said + ")"


FORMAT_NAMES = {"openai": "OpenAI's published per-message overhead", "llama3": "Llama 3's header tokens",
                "chatml": "ChatML's tokens (Qwen)", "mistral": "Mistral's template, through mistral-common"}


def _print_count_json(names: Sequence[str], tokens: Sequence[int], ids: Sequence[Sequence[int]]) -> None:
    """``{"results": [{"tokenizer", "tokens", "ids"}, ...]}`` as ``json.dumps`` writes it, written a
    slice of ids at a time (millions of ids are never one Python list or one string)."""
    write = sys.stdout.write
    write('{"results": [')
    for i, (name, count, held) in enumerate(zip(names, tokens, ids)):
        write(", " if i else "")
        write(f'{{"tokenizer": {json.dumps(name)}, "tokens": {count}, "ids": [')
        for start in range(0, len(held), 65536):
            write(", " if start else "")
            write(", ".join(map(str, held[start:start + 65536])))
        write("]}")
    write("]}\n")


__all__ = ["FORMAT_NAMES", "add_parser", "chat_json", "chat_line", "count_command", "price_json"]
