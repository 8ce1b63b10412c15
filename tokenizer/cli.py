"""Command line: train a model from a text file, encode text with it, export it, count tokens.

    python -m tokenizer train CORPUS.txt --merges 100 -o model.json --trace trace.json
    python -m tokenizer encode model.json --json -- "घने कोहरे से"
    python -m tokenizer export model.json -o tokenizer.json
    python -m tokenizer count --tokenizer cl100k_base --tokenizer model.json -- "घने कोहरे से"
    python -m tokenizer count --model GPT-4o --model "Llama 3" --file chats.jsonl --lines
    python -m tokenizer cost --model GPT-4o --output-tokens 150 --requests-per-month 30000 --file chats.jsonl --lines

``count --model`` and ``cost`` take models by product name (:mod:`family.models`); ``--lines`` reads records
(each line, JSONL record or CSV row) with per-record statistics and chat overhead (:mod:`analyses.estimate`,
shared with the Estimate page). Every mistake in the input ends with one line on stderr and exit code 2. ``train`` holds its
input and reads at most 100 MB of it, from a file or from standard input
(:data:`tokenizer.textfile.MAX_INPUT_BYTES`), ``encode -`` at most 1 MB (:data:`ENCODE_MAX_BYTES`,
as it shows every token); ``count`` and ``cost`` read a file or standard input part by
part (:mod:`tokenizer.chunked`, on every core that helps), so a long text costs them time, not memory. A device
(``/dev/zero``) is refused, as file or as standard input, and so is a named pipe that nothing
writes to. No output overwrites an input, and the outputs of one command are written all
together or not at all.
"""

from __future__ import annotations

import argparse
import contextlib
import io as _bytes_io
import json
import os
import re
import stat
import sys
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path
from typing import IO

from analyses.estimate import (
    MAX_RECORD_CHARS,
    EstimateInputError,
    Problem,
    Record,
    RecordStats,
    StatsBuilder,
    count_record,
    inr,
    iter_records,
    usd,
)
from analyses.estimate import cost as estimate_cost
from family import merges, models, real
from family.merges import MAX_REPLAY_CHARS, MAX_TREE_CHARS
from family.models import Model, Price

from . import io
from .chunked import (
    PART_CHARS,
    Counted,
    TooLongWithoutCut,
    count_parts,
    cut_text,
    cuts_safely,
    iter_lines,
    ordered_map,
    workers_for,
)
from .labels import hex_bytes, plural
from .model import DEFAULTS, TIES, UNITS, UNKNOWN_ID, Tokenizer
from .pretokenize import SPLITS, PatternTooCostly
from .textfile import (
    MAX_INPUT_BYTES,
    STDIN,
    decode_text,
    iter_text,
    open_input,
    read_at_most,
    read_limited,
    same_regular_file,
    standard_input,
    write_file,
    write_files,
)
from .train import StopReason, train


class UsageError(Exception):
    """A problem with what the user asked for: reported in one line, exit code 2."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # one line, not argparse's usage block
        raise UsageError(f"{message} (see: {self.prog} --help)")


def _positive_int(value: str) -> int:
    # int() also reads other scripts' digits ("٣" is 3) and "1_000": only 0-9 are a number here.
    if not re.fullmatch(r"[+-]?[0-9]+", value):
        raise argparse.ArgumentTypeError(
            f"--merges needs a whole number written with the digits 0-9, not {_printable(repr(value))}"
        )
    if len(value) > 12:
        raise argparse.ArgumentTypeError(f"--merges {value[:12]}... is far more merges than any corpus allows")
    number = int(value)
    if number < 1:
        raise argparse.ArgumentTypeError(f"--merges must be 1 or more (got {number})")
    return number


def _number(flag: str, kind: type):
    """An argparse type: a number 0 or more written with the digits 0-9 (``kind`` int or Decimal)."""
    pattern = r"[0-9]+" if kind is int else r"[0-9]+(\.[0-9]+)?|\.[0-9]+"

    def parse(value: str):
        if not re.fullmatch(pattern, value.strip()) or len(value) > 30:
            whole = "a whole number" if kind is int else "a number"
            raise argparse.ArgumentTypeError(
                f"{flag} needs {whole} of 0 or more written with the digits 0-9, not {_printable(repr(value))}")
        return kind(value.strip())
    return parse


def _input_arguments(parser: argparse.ArgumentParser) -> None:
    """What ``count`` and ``cost`` read: --file, and records (--lines, --field, --column)."""
    parser.add_argument("--file", "-f", action="append", metavar="PATH",
                        help="a UTF-8 text file, read part by part (any size); repeat for several files, each its own text")
    parser.add_argument("--lines", action="store_true",
                        help="each line is a record (a .jsonl file: each JSON record; a .csv file: each row), "
                        "with per-record statistics")
    parser.add_argument("--field", metavar="NAME",
                        help="JSONL: the field to count (default: 'messages', a chat, else 'text' or 'prompt'); implies --lines")
    parser.add_argument("--column", metavar="NAME", help="CSV: the column to count (header row); implies --lines")
    parser.add_argument("--as-chat", action="store_true",
                        help="send each text (or record that is not a chat) as one user message: the model's chat "
                        "format's tokens are counted too (each text is then held whole, up to 1,000,000 characters)")


def _encode_tokenizer_parser() -> argparse.ArgumentParser:
    """``encode --tokenizer NAME [--steps] [--json] TEXT``: a production tokenizer instead of a model file (its own
    parser: argparse cannot take an optional first positional before ``--`` TEXT)."""
    p = _Parser(prog="python -m tokenizer encode --tokenizer NAME",
                description="Encode with a production tokenizer; --steps replays its merges one by one.")
    p.add_argument("--tokenizer", "-t", required=True, metavar="NAME", help=f"one of {', '.join(real.NAMES)}")
    p.add_argument("text", help="the text to encode, or - to read standard input (at most 1 MB; put -- before text "
                   "that starts with '-')")
    p.add_argument("--steps", action="store_true", help="the pre-split pieces and every merge BPE applies, in order "
                   f"(at most {MAX_REPLAY_CHARS:,} characters)")
    p.add_argument("--json", action="store_true", help='print {"ids", "count"} (--steps: {"pieces", "steps": '
                   '[{"piece", "left", "right", "result", "rank"}], "ids"}, bytes in hex)')
    return p


def _names_a_tokenizer(args: Sequence[str]) -> bool:
    """Whether ``encode``'s arguments (before any ``--``) give --tokenizer / -t."""
    for arg in args:
        if arg == "--":
            return False
        if arg in ("--tokenizer", "-t") or arg.startswith(("--tokenizer=", "-t")) and arg != "-":
            return True
    return False


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="python -m tokenizer", description="Train and use the Tokenization Lab's BPE tokenizer.")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    t = sub.add_parser("train", help="learn merges from a UTF-8 text file")
    t.add_argument("corpus", help="a UTF-8 text file to learn from, or - to read standard input (at most 100 MB)")
    t.add_argument("--merges", type=_positive_int, required=True, help="how many merges to learn")
    t.add_argument("--unit", choices=UNITS, default=DEFAULTS.unit, help="start from UTF-8 bytes (default) or characters")
    t.add_argument("--split", choices=SPLITS, default=DEFAULTS.split, help="pre-split by a regex (default) or by whitespace")
    t.add_argument("--pattern", default=DEFAULTS.pattern, help=f"the pre-split regex (default {DEFAULTS.pattern!r})")
    t.add_argument("--end-of-word", default=DEFAULTS.end_of_word, metavar="MARKER", help="append MARKER to every word, e.g. '</w>'")
    t.add_argument("--ties", choices=TIES, default=DEFAULTS.ties, help="how ties are broken (default: first seen)")
    t.add_argument("-o", "--output", required=True, metavar="MODEL.json", help="where to save the model")
    t.add_argument("--trace", metavar="TRACE.json", help="also save every step of training")

    e = sub.add_parser("encode", help="encode text with a saved model, or with a production tokenizer step by step "
                       "(encode --tokenizer NAME --steps TEXT)")
    e.add_argument("model", help="a model file saved by 'train'")
    e.add_argument("text", help="the text to encode, or - to read standard input (at most 1 MB; "
                   "put -- before text that starts with '-')")
    e.add_argument("--json", action="store_true", help="print ids, tokens and count as JSON")
    e.add_argument("--steps", action="store_true", help="with --tokenizer NAME instead of a model: see "
                   "'encode --tokenizer NAME --help'")

    r = sub.add_parser("tree", help="each token's merge tree in a production tokenizer (its merges, from its ranks)")
    r.add_argument("text", nargs="?", help=f"the text whose tokens to describe (at most {MAX_TREE_CHARS:,} characters), or -")
    r.add_argument("--tokenizer", "-t", required=True, metavar="NAME", help=f"one of {', '.join(real.NAMES)}")
    r.add_argument("--id", type=_number("--id", int), metavar="N", help="one token by its id instead of a text")
    r.add_argument("--json", action="store_true", help='print {"tokens": [{"id", "bytes", "rank", "merges": '
                   '[{"left", "right", "result", "rank"}]}]}, bytes in hex')

    v = sub.add_parser("vocab", help="a production tokenizer's whole vocabulary read by script")
    v.add_argument("--tokenizer", "-t", required=True, metavar="NAME", help=f"one of {', '.join(real.NAMES)}")
    v.add_argument("--json", action="store_true", help="every figure of the vocabulary page, as JSON")

    c = sub.add_parser("count", help="count tokens with production tokenizers or saved models")
    c.add_argument("text", nargs="?", help="the text to count, or - to read standard input (read part by part: any length; "
                   "put -- before text that starts with '-')")
    c.add_argument("--tokenizer", "-t", action="append", metavar="NAME",
                   help=f"one of {', '.join(real.NAMES)}, or a model file saved by 'train'; repeat to compare "
                   f"(default: {' and '.join(COUNT_DEFAULT)})")
    c.add_argument("--model", "-m", action="append", metavar="NAME",
                   help="a model by its product name (GPT-4o, 'Llama 3.1 8B', ...: see --list), counted with the "
                   "tokenizer it uses; repeat to compare")
    _input_arguments(c)
    c.add_argument("--json", action="store_true", help='print {"results": [{"tokenizer", "tokens", "ids"}, ...]} '
                   "(ids only for a TEXT or - counted whole; with --file or --lines totals and statistics)")
    c.add_argument("--list", action="store_true", help="list the production tokenizers and the models by name")

    k = sub.add_parser("cost", help="what a prompt or a dataset costs on models by name, in USD and INR")
    k.add_argument("text", nargs="?", help="the prompt, or - to read standard input (put -- before text that "
                   "starts with '-')")
    k.add_argument("--model", "-m", action="append", required=True, metavar="NAME",
                   help="a model by its product name (see count --list); repeat to compare")
    _input_arguments(k)
    out = k.add_mutually_exclusive_group()
    out.add_argument("--output-tokens", type=_number("--output-tokens", int), metavar="N",
                     help="expected output tokens a request (default 0)")
    out.add_argument("--output-ratio", type=_number("--output-ratio", Decimal), metavar="R",
                     help="expected output as a ratio of the input tokens (0.5: half as many)")
    k.add_argument("--requests-per-month", type=_number("--requests-per-month", int), default=COST_REQUESTS,
                   metavar="N", help=f"requests a month (default {COST_REQUESTS:,})")
    k.add_argument("--input-price", type=_number("--input-price", Decimal), metavar="USD_PER_M",
                   help="USD per million input tokens, instead of the published price (for every --model)")
    k.add_argument("--output-price", type=_number("--output-price", Decimal), metavar="USD_PER_M",
                   help="USD per million output tokens, instead of the published price (for every --model)")
    k.add_argument("--inr-per-usd", type=_number("--inr-per-usd", Decimal), metavar="X",
                   help="rupees per dollar (default: the dated rate in family/data/prices.toml)")
    k.add_argument("--json", action="store_true", help="print the figures as JSON (amounts as exact decimal strings)")
    x = sub.add_parser("export", help="write a byte-level model as a Hugging Face tokenizer.json")
    x.add_argument("model", help="a model file saved by 'train'")
    x.add_argument("-o", "--output", required=True, metavar="TOKENIZER.json", help="where to write it")
    return parser


def _read_corpus(path: str) -> str:
    try:
        if path == "-":
            text = decode_text(read_at_most(standard_input(), STDIN), STDIN)
        else:
            raw = read_limited(path, f"the corpus {path}")
            text = decode_text(raw, f"the corpus {path}")
    except FileNotFoundError:
        raise UsageError(f"corpus file not found: {path}") from None
    except OSError as exc:
        raise UsageError(f"cannot read corpus {path}: {exc.strerror}") from None
    except ValueError as exc:  # a device, too large, not UTF-8: the message says which
        raise UsageError(str(exc).rstrip(".")) from None
    if not text.strip():
        where = STDIN if path == "-" else f"the corpus {path}"
        raise UsageError(f"{where} is empty: give it some text to learn from")
    return text


ENCODE_MAX_BYTES = 1_000_000
"""The most ``encode -`` reads (1 MB): it builds and prints every token with its label, about 140 bytes
of memory and 3 µs of CPU for each byte of text (1 MB: 170 MB and 3.5 s; 100 MB would be 14 GB).
Its text given as an argument is capped lower by the system (128 KB); ``count -`` counts any length."""


COUNT_HOLD_MAX_BYTES = 10_000_000
"""The most ``count -`` reads when a lab model's own pre-split pattern stops it cutting the text into parts
(10 MB): it holds the text and its pieces, about 18 bytes of memory for each byte of text (20 MB: 380 MB)."""


def _read_stdin_whole(limit: int = MAX_INPUT_BYTES, advice: str = "give a shorter text",
                      why: str = "the most the lab reads from one file") -> str:
    """Standard input exactly as given (a UTF-8 byte-order mark is kept), at most ``limit`` bytes:
    for a command that must hold its text."""
    try:
        raw = read_at_most(standard_input(), STDIN, limit, advice, why)
        return "".join(iter_text(_bytes_io.BytesIO(raw), STDIN))
    except ValueError as exc:
        raise UsageError(str(exc).rstrip(".")) from None


def _refuse_overwriting(output: str, flag: str, source: str, what: str, loses: str) -> None:
    """An output must not be an input, by any path to it (``x``, ``./x``, a link)."""
    if same_regular_file(output, source):
        raise UsageError(f"{flag} {output} is {what}: writing there would overwrite {loses}; choose another file name")


def _train(args: argparse.Namespace) -> None:
    _check_text(args.pattern, "--pattern")
    _check_text(args.end_of_word or "", "--end-of-word")
    if args.corpus != "-":
        _refuse_overwriting(args.output, "-o", args.corpus, "the corpus itself", "your text")
    if args.trace:
        if args.corpus != "-":
            _refuse_overwriting(args.trace, "--trace", args.corpus, "the corpus itself", "your text")
        _refuse_overwriting(args.trace, "--trace", args.output, f"the same file as -o {args.output}", "the model")
    text = _read_corpus(args.corpus)
    try:
        trace = train(
            text,
            args.merges,
            unit=args.unit,
            split=args.split,
            pattern=args.pattern,
            end_of_word=args.end_of_word,
            ties=args.ties,
            max_ties=None,
        )
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    outputs = [(args.output, io.tokenizer_to_json(trace.tokenizer))]
    if args.trace:
        outputs.append((args.trace, json.dumps(io.trace_to_dict(trace), ensure_ascii=False, indent=1)))
    try:
        write_files(outputs)  # both or neither: a failed trace leaves the old model in place
    except OSError as exc:
        raise UsageError(f"cannot write {exc.filename}: {exc.strerror}") from None
    done = f"learned {plural(len(trace.steps), 'merge')}, vocabulary {plural(trace.tokenizer.vocab_size, 'token')} -> {args.output}"
    print(_printable(done))
    if trace.stop_reason is StopReason.NO_PAIRS:
        print(
            f"stopped after {len(trace.steps)} of {args.merges} merges: every word is a single token, "
            "no pair is left to merge",
            file=sys.stderr,
        )


def _check_text(text: str, what: str = "the text to encode") -> None:
    """Text from the command line is decoded with surrogate escapes: a byte that is not UTF-8
    arrives as a lone surrogate, which is no character and must not be encoded (or saved) as one."""
    bad = next((i for i, ch in enumerate(text) if "\ud800" <= ch <= "\udfff"), None)
    if bad is None:
        return
    offset = len(text[:bad].encode("utf-8"))
    code = ord(text[bad])
    if 0xDC80 <= code <= 0xDCFF:
        raise UsageError(
            f"{what} is not valid UTF-8: the byte 0x{code - 0xDC00:02X} at offset {offset} cannot start "
            "or continue a character (set the terminal to UTF-8)"
        )
    raise UsageError(f"{what} has a lone surrogate U+{code:04X} at offset {offset}, which is not a character")


def _load(path: str) -> Tokenizer:
    try:
        return io.load(path)
    except ValueError as exc:
        raise UsageError(f"{path}: {exc}") from None


def _real(name: str):
    """A production tokenizer by its registry name (``tree``, ``vocab``, ``encode -t``)."""
    if name not in real.NAMES:
        raise UsageError(f"unknown tokenizer {name!r}: use one of {', '.join(real.NAMES)}")
    return _count_tokenizer(name)


def _text_argument(text: str | None, what: str) -> str:
    if text is None:
        raise UsageError(f"give {what}, or - to read standard input")
    _check_text(text)
    if text == "-":
        return _read_stdin_whole(ENCODE_MAX_BYTES, "give a shorter text", "the most these commands read")
    return text


def _encode_steps(args: argparse.Namespace) -> None:
    tok = _real(args.tokenizer)
    text = _text_argument(args.text, "the text to encode")
    try:
        replay = merges.inside(tok).replay(text)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    if args.json:
        print(json.dumps(replay.to_json() if args.steps else {"ids": replay.ids, "count": len(replay.ids)},
                         ensure_ascii=False))
    else:
        print("\n".join(merges.replay_lines(replay) if args.steps else ["ids: " + " ".join(map(str, replay.ids))]))


def _tree(args: argparse.Namespace) -> None:
    tok = _real(args.tokenizer)
    text = None if args.id is not None and args.text is None else _text_argument(args.text, "a text or --id N")
    try:
        report = merges.tree_report(tok, text, args.id)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    print(json.dumps(report, ensure_ascii=False) if args.json else "\n".join(merges.tree_lines(report)))


def _vocab(args: argparse.Namespace) -> None:
    from analyses import vocab  # numpy: only for this command

    found = vocab.vocabulary(_real(args.tokenizer))
    print(json.dumps(found.to_json(), ensure_ascii=False) if args.json else "\n".join(vocab.text_lines(found)))


def _encode(args: argparse.Namespace) -> None:
    if args.steps:
        raise UsageError("--steps replays a production tokenizer's merges: give --tokenizer NAME instead of a model")
    _check_text(args.text)
    tok = _load(args.model)
    if args.text == "-":
        args.text = _read_stdin_whole(ENCODE_MAX_BYTES, "use count - to count a longer text",
                                      "the most encode shows token by token")
    try:
        tokens = tok.encode_tokens(args.text)
    except PatternTooCostly as exc:
        raise UsageError(f"cannot encode this text with {args.model}: {exc}") from None
    if args.json:
        out: dict = {
            "ids": [t.id for t in tokens],
            "tokens": [t.label for t in tokens],
            "count": len(tokens),
        }
        if tok.config.unit == "bytes":
            out["bytes"] = [hex_bytes(t.bytes) for t in tokens]
        print(json.dumps(out, ensure_ascii=False))
    else:
        print(f"{plural(len(tokens), 'token')}: " + " | ".join(t.label for t in tokens))
        print("ids: " + " ".join("?" if t.id == UNKNOWN_ID else str(t.id) for t in tokens))


def _export(args: argparse.Namespace) -> None:
    from .export import to_hf_json

    _refuse_overwriting(args.output, "-o", args.model, "the model file itself", "your model")
    tok = _load(args.model)
    try:
        text = to_hf_json(tok)
    except ValueError as exc:
        raise UsageError(f"cannot export {args.model}: {exc}") from None
    try:
        write_file(args.output, text)
    except OSError as exc:
        raise UsageError(f"cannot write {exc.filename}: {exc.strerror}") from None
    print(_printable(f"wrote a Hugging Face tokenizer ({tok.vocab_size} tokens, {len(tok.merges)} merges) -> {args.output}"))


def _printable(line: str) -> str:
    """A line that any output can take: a file name that is not UTF-8 arrives from the command
    line as lone surrogates, shown here as escapes rather than failing to print."""
    return line.encode("utf-8", "backslashreplace").decode("utf-8")




COUNT_DEFAULT = ("cl100k_base", "o200k_base")
"""What ``count`` counts with when no --tokenizer is given: GPT-4 and GPT-4o."""


def _count_tokenizer(name: str):
    """A production tokenizer by registry name, or a lab model by file path."""
    if name in real.NAMES:
        try:
            return real.load(name)
        except real.TokenizerUnavailable as exc:
            raise UsageError(str(exc)) from None
    if name.endswith(".json") or Path(name).exists() or "/" in name:
        return _load(name)
    raise UsageError(
        f"unknown tokenizer {name!r}: use one of {', '.join(real.NAMES)} (see --list) or a model file saved by "
        "'train'; a model by its product name (GPT-4o) goes with --model"
    )


COST_REQUESTS = 1000
"""``cost``'s requests a month when --requests-per-month is not given."""

MAX_PROBLEMS_SHOWN = 20
"""Records that could not be read (broken JSONL lines...) are all counted; the first 20 are listed in text, the
first 1,000 in --json (a file of broken lines must not print, or hold, millions of them)."""
MAX_PROBLEMS_KEPT = 1000


@dataclass(frozen=True)
class _Counter:
    """One row of ``count`` or ``cost``: a tokenizer by name (``-t``) or a model by name (``--model``)."""

    label: str  # what the row is called: the -t name, or the model's product name
    tokenizer: object
    tokenizer_name: str  # the registry name, or the model file's path
    model: Model | None = None


def _find_model(name: str) -> Model:
    _check_text(name, "the model name")
    try:
        return models.find(name)
    except models.UnknownModel as exc:
        raise UsageError(f"{exc} (see: python -m tokenizer count --list)") from None


def _counters(tokenizer_names: Sequence[str] | None, model_names: Sequence[str] | None,
              default: Sequence[str] = COUNT_DEFAULT) -> list[_Counter]:
    """Every -t and --model resolved (and loaded) before any input is read: an unknown name is exit 2 at once."""
    found_models = [_find_model(name) for name in model_names or ()]
    rows = [_Counter(name, _count_tokenizer(name), name) for name in tokenizer_names or ()]
    rows += [_Counter(model.name, _count_tokenizer(model.tokenizer), model.tokenizer, model) for model in found_models]
    if not rows:
        rows = [_Counter(name, _count_tokenizer(name), name) for name in default]
    return rows


def _count_list(as_json: bool) -> None:
    rows = [(info, real.status(info.name)) for info in real.catalogue()]
    known = models.models()
    if as_json:
        out = [{"name": i.name, "title": i.title, "available": r is None, "reason": r} for i, r in rows]
        listed = [{"key": m.key, "name": m.name, "vendor": m.vendor, "tokenizer": m.tokenizer, "chat": m.chat,
                   "aliases": list(m.aliases), "source": m.source, "price": _price_json(models.price(m.key))}
                  for m in known]
        print(json.dumps({"tokenizers": out, "models": listed}, ensure_ascii=False))
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
        print(f"  {m.name:<{width}}  {m.key:<16} {m.tokenizer:<15} chat: {m.chat or 'unknown':<8} {shown}")


def _price_json(known: Price | None) -> dict | None:
    if known is None:
        return None
    return {"input_per_m": str(known.input_per_m), "output_per_m": str(known.output_per_m), "date": known.date,
            "source": known.source}


@dataclass(frozen=True)
class _Input:
    """What ``count`` or ``cost`` reads: a TEXT, standard input (-) or --file paths, whole or as records."""

    text: str | None
    paths: tuple[str, ...]
    kind: str  # "text" (each text whole) or a records kind of analyses.estimate: lines, jsonl, csv
    field: str | None
    column: str | None
    as_chat: bool = False  # each text or record that is not a chat: one user message

    def kind_of(self, path: str | None) -> str:
        if self.kind != "records":
            return self.kind
        if self.column is not None:
            return "csv"
        if self.field is not None:
            return "jsonl"
        suffix = Path(path).suffix.lower() if path else ""
        return {".jsonl": "jsonl", ".ndjson": "jsonl", ".csv": "csv"}.get(suffix, "lines")


def _input(args: argparse.Namespace, verb: str = "count") -> _Input:
    """The input asked for, checked before anything is read."""
    if args.text is not None and args.file:
        raise UsageError(f"give the text to {verb}, - or --file PATH, not both")
    if args.text is None and not args.file:
        raise UsageError(f"give the text to {verb}, - to read it from standard input, or --file PATH")
    if args.text not in (None, "-"):
        _check_text(args.text, f"the text to {verb}")
    if args.field is not None and args.column is not None:
        raise UsageError("--field is for JSONL and --column for CSV: give one of them")
    for flag, value in (("--field", args.field), ("--column", args.column)):
        if value is not None:
            _check_text(value, flag)
    records = args.lines or args.field is not None or args.column is not None
    return _Input(args.text, tuple(args.file or ()), "records" if records else "text", args.field, args.column,
                  bool(getattr(args, "as_chat", False)))


@dataclass
class _Tally:
    """One counter's records: the statistics, and the chat overhead counted in them."""

    stats: StatsBuilder = field(default_factory=StatsBuilder)
    chats: int = 0
    overhead: int = 0
    no_format: int = 0  # chats counted without overhead: the model's format is unknown (or no model)


@dataclass
class _Counted:
    """What ``count`` or ``cost`` found, per counter (in order): the total, and per record (records mode)."""

    totals: list[int]
    tallies: list[_Tally] | None  # records mode
    texts: int = 0  # texts counted whole (text mode): TEXT, -, or each file
    words: int = 0
    characters: int = 0
    bytes: int = 0
    ids: list | None = None
    per_file: list[list[int]] = field(default_factory=list)  # text mode: each file's totals
    sources: int = 0  # records mode: the files (or texts) read so far
    problems: list[tuple[str | None, int, str]] = field(default_factory=list)  # (file, line, reason), the first ones
    problem_count: int = 0


def _gather(counters: Sequence[_Counter], given: _Input, keep_ids: bool = False) -> _Counted:
    """Count ``given`` with every counter: texts streamed part by part, records a batch at a time (each on the
    cores that help). Every problem is a UsageError, raised before anything is printed."""
    unique: dict[int, object] = {}
    for counter in counters:
        unique.setdefault(id(counter.tokenizer), counter.tokenizer)
    toks = list(unique.values())
    place = {key: i for i, key in enumerate(unique)}
    columns = [place[id(counter.tokenizer)] for counter in counters]
    if given.kind == "text" and not given.as_chat:  # as a chat, each text is one record (held whole)
        return _gather_texts(toks, columns, given, keep_ids)
    result = _Counted([0] * len(counters), [_Tally() for _ in counters])
    try:
        if given.text == "-":
            with progress_bar(None) as bar:
                _count_records(counters, _stream_lines(bar.reading(standard_input()), STDIN),
                               given.kind_of(None), given, None, result)
        elif given.text is not None:
            _count_records(counters, _bytes_io.StringIO(given.text, newline=""), given.kind_of(None), given, None,
                           result)
        else:
            with _open_files(given.paths) as files, progress_bar(files.total) as bar:
                for path, f in files:
                    what = _printable(f"the file {path}")
                    lines = _stream_lines(bar.reading(f), what)
                    label = _printable(path) if len(given.paths) > 1 else None
                    _count_records(counters, lines, given.kind_of(path), given, label, result, what)
    except EstimateInputError as exc:
        raise UsageError(str(exc).rstrip(".")) from None
    except PatternTooCostly as exc:
        raise UsageError(f"cannot count this text: {exc}") from None
    except ValueError as exc:  # not UTF-8, binary, a device as standard input
        raise UsageError(str(exc).rstrip(".")) from None
    return result


def _gather_texts(toks: Sequence, columns: Sequence[int], given: _Input, keep_ids: bool) -> _Counted:
    """Each text counted whole (streamed when it comes from a file or standard input)."""
    pieces: list[Counted] = []
    try:
        if given.text == "-":
            pieces.append(_count_stream(toks, standard_input(), STDIN, keep_ids=keep_ids))
        elif given.text is not None:
            pieces.append(count_parts(toks, [given.text], keep_ids=keep_ids))
        else:
            with _open_files(given.paths) as files, progress_bar(files.total) as bar:  # one bar for every file
                for path, f in files:
                    pieces.append(_count_stream(toks, f, _printable(f"the file {path}"), bar=bar))
    except PatternTooCostly as exc:
        raise UsageError(f"cannot count this text: {exc}") from None
    except ValueError as exc:  # a device or a terminal as standard input, too many ids to list
        raise UsageError(str(exc).rstrip(".")) from None
    result = _Counted([sum(piece.tokens[c] for piece in pieces) for c in columns], None, len(pieces),
                      sum(p.words for p in pieces), sum(p.characters for p in pieces), sum(p.bytes for p in pieces))
    result.per_file = [[piece.tokens[c] for c in columns] for piece in pieces]
    if keep_ids and len(pieces) == 1:
        result.ids = [pieces[0].ids[c] for c in columns]
    return result


def _stream_lines(f: IO[bytes], what: str) -> Iterable[str]:
    """The lines of a binary file, decoded as :func:`~tokenizer.textfile.iter_text` decodes (the same
    messages for UTF-16, binary, invalid UTF-8), a part at a time."""
    return iter_lines(iter_text(f, what, chunk=PART_CHARS), MAX_RECORD_CHARS + 1)


RECORD_BATCH_CHARS = 1 << 18
"""Records are counted in batches of about 256 K characters (one batch per thread at a time)."""


def _batches(items: Iterable[Record | Problem]) -> Iterator[list[Record | Problem]]:
    batch: list[Record | Problem] = []
    size = 0
    for item in items:
        batch.append(item)
        if isinstance(item, Record):
            size += len(item.text) if item.text is not None else sum(len(c) for _, c in item.messages or ())
        if size >= RECORD_BATCH_CHARS or len(batch) >= 4096:
            yield batch
            batch, size = [], 0
    if batch:
        yield batch


def _count_records(counters: Sequence[_Counter], lines: Iterable[str], kind: str, given: _Input, label: str | None,
                   result: _Counted, what: str | None = None) -> None:
    """Add the records of ``lines`` to ``result``: each counter's count of each record (and its chat overhead)."""
    toks = list({id(c.tokenizer): c.tokenizer for c in counters}.values())

    def count_batch(batch: list[Record | Problem]) -> list:
        out = []
        for item in batch:
            if isinstance(item, Problem):
                out.append(item)
                continue
            counted: dict[tuple, tuple] = {}  # counters on one tokenizer and one chat format count alike
            row = []
            for counter in counters:
                key = (id(counter.tokenizer), counter.model.chat if counter.model is not None else None)
                if key not in counted:
                    try:
                        c = count_record(counter.tokenizer, item, counter.model)
                        counted[key] = (c.contents, c.overhead, None)
                    except EstimateInputError as exc:  # a chat the model's template refuses
                        counted[key] = (0, None, str(exc))
                row.append(counted[key])
            out.append((item.number, item.messages is not None, row))
        return out

    try:
        records = iter_records(lines, kind, given.field, given.column)
        if given.as_chat:  # what is not a chat already is sent as one user message
            records = (Record(r.number, None, (("user", r.text),)) if isinstance(r, Record) and r.messages is None
                       else r for r in records)
        for done in ordered_map(count_batch, _batches(records), workers_for(toks)):
            for item in done:
                if isinstance(item, Problem):
                    _problem(result, label, item.number, item.reason)
                    continue
                number, chat, row = item
                for (tokens, overhead, refused), tally, counter in zip(row, result.tallies, counters):
                    if refused is not None:
                        _problem(result, label, number, f"{counter.label}: {refused}")
                        continue
                    if chat:
                        tally.chats += 1
                        if overhead is None:
                            tally.no_format += 1
                        else:
                            tally.overhead += overhead
                            tokens += overhead
                    tally.stats.add(_record_key(result.sources, number), tokens)
        result.sources += 1
    except EstimateInputError as exc:
        where = f"{what}: " if what else ""
        raise UsageError(f"{where}{exc}".rstrip(".")) from None


def _record_key(file_index: int, number: int) -> int:
    """A record's number for the statistics, unique across files: the file's index above its line number."""
    return (file_index << 40) | number


def _problem(result: _Counted, label: str | None, number: int, reason: str) -> None:
    result.problem_count += 1
    if len(result.problems) < MAX_PROBLEMS_KEPT:
        result.problems.append((label, number, reason))


def _where(given: _Input, key: int) -> str:
    """Where a record is, from its statistics key: ``17`` (line 17), or ``b.jsonl:17`` for several files."""
    file_index, number = key >> 40, key & ((1 << 40) - 1)
    if len(given.paths) > 1:
        return f"{_printable(given.paths[file_index])}:{number}"
    return str(number)


def _count(args: argparse.Namespace) -> None:
    if args.list:
        if args.text is not None or args.tokenizer or args.file or args.model or args.lines:
            raise UsageError("--list takes no text, no --file, no --tokenizer and no --model")
        _count_list(args.json)
        return
    given = _input(args)
    counters = _counters(args.tokenizer, args.model)  # every name checked before any input is read
    plain = (given.kind == "text" and not given.as_chat and given.paths == ()
             and all(c.model is None for c in counters))
    counted = _gather(counters, given, keep_ids=args.json and plain)
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


def _print_count_table(counters: Sequence[_Counter], counted) -> None:
    words = counted.words
    head = _head(counters)
    width = max(len(head), *(len(c.label) for c in counters))
    print(f"{head:<{width}}  {'tokens':>7}  {'per word':>8}  what")
    for counter, tokens in zip(counters, counted.totals):
        per_word = f"{tokens / words:.2f}" if words else "-"
        what = counter.tokenizer.name if counter.model is None else f"{counter.tokenizer.name}, {counter.model.vendor}"
        print(f"{counter.label:<{width}}  {tokens:>7}  {per_word:>8}  {what}")
    print(f"{plural(words, 'word')}, {plural(counted.characters, 'character')}, {plural(counted.bytes, 'byte')}")


def _head(counters: Sequence[_Counter]) -> str:
    """The first column's title: tokenizers (-t), models (--model), or both."""
    kinds = {counter.model is None for counter in counters}
    return "tokenizer" if kinds == {True} else "model" if kinds == {False} else "model or tokenizer"


def _print_per_file(counters: Sequence[_Counter], paths: Sequence[str], per_file: Sequence[Sequence[int]]) -> None:
    width = max(len("file"), *(len(_printable(path)) for path in paths))
    widths = [max(len(c.label), 7) for c in counters]
    print()
    print(f"{'file':<{width}}  " + "  ".join(f"{c.label:>{w}}" for c, w in zip(counters, widths)))
    for path, tokens in zip(paths, per_file):
        print(f"{_printable(path):<{width}}  " + "  ".join(f"{n:>{w}}" for n, w in zip(tokens, widths)))


def _stats_json(given: _Input, stats: RecordStats) -> dict:
    return {"records": stats.records, "mean": round(stats.mean, 2), "p50": stats.p50, "p95": stats.p95,
            "max": stats.max, "longest": [_longest_json(given, key, tokens) for key, tokens in stats.longest]}


def _longest_json(given: _Input, key: int, tokens: int) -> dict:
    file_index, number = key >> 40, key & ((1 << 40) - 1)
    out = {"line": number, "tokens": tokens}
    if given.paths:
        out = {"file": _printable(given.paths[file_index]), **out}
    return out


def _chat_json(counter: _Counter, tally: _Tally) -> dict:
    return {"format": counter.model.chat if counter.model else None, "chats": tally.chats,
            "overhead_tokens": tally.overhead, "chats_without_overhead": tally.no_format}


def _count_json(counters: Sequence[_Counter], given: _Input, counted: _Counted) -> dict:
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
            row["chat"] = _chat_json(counter, tally)
        results.append(row)
    out: dict = {"results": results}
    if counted.tallies is None:
        out.update(words=counted.words, characters=counted.characters, bytes=counted.bytes)
        if given.paths:
            out["files"] = [{"file": _printable(path), "tokens": dict(zip((c.label for c in counters), tokens))}
                            for path, tokens in zip(given.paths, counted.per_file)]
    else:
        out["problems"] = [{"file": file, "line": line, "reason": reason} for file, line, reason in counted.problems]
        out["problem_count"] = counted.problem_count
    return out


def _print_records(counters: Sequence[_Counter], given: _Input, counted: _Counted) -> None:
    """Per counter: the total and the per-record statistics; the five longest records; chat overhead; problems."""
    stats = [tally.stats.result() for tally in counted.tallies]
    head = _head(counters)
    width = max(len(head), *(len(c.label) for c in counters))
    print(f"{head:<{width}}  {'tokens':>11}  {'records':>9}  {'mean':>9}  {'p50':>7}  {'p95':>7}  {'max':>7}")
    for counter, s in zip(counters, stats):
        print(f"{counter.label:<{width}}  {s.total:>11,}  {s.records:>9,}  {s.mean:>9,.1f}  {s.p50:>7,.0f}  "
              f"{s.p95:>7,.0f}  {s.max:>7,}")
    where = "file:line" if len(given.paths) > 1 else "line"
    print(f"longest records ({where}: tokens):")
    for counter, s in zip(counters, stats):
        print(f"  {counter.label:<{width}}  " + ", ".join(f"{_where(given, key)}: {tokens:,}" for key, tokens in s.longest))
    for counter, tally in zip(counters, counted.tallies):
        if tally.chats:
            print(_chat_line(counter, tally))
    if counted.problem_count:
        print(f"{plural(counted.problem_count, 'record')} not counted:")
        for file, line, reason in counted.problems[:MAX_PROBLEMS_SHOWN]:
            print(_printable(f"  {file + ':' if file else 'line '}{line}: {reason}"))
        if counted.problem_count > MAX_PROBLEMS_SHOWN:
            print(f"  ... and {counted.problem_count - MAX_PROBLEMS_SHOWN:,} more (--json lists {MAX_PROBLEMS_KEPT:,})")


def _chat_line(counter: _Counter, tally: _Tally) -> str:
    if tally.no_format == tally.chats:
        why = "no model given (-t counts contents only)" if counter.model is None else \
            f"{counter.model.name}'s chat format is not known"
        return f"{counter.label}: {plural(tally.chats, 'chat')}, contents only: {why}"
    return (f"{counter.label}: {plural(tally.chats, 'chat')}, {tally.overhead:,} tokens of chat overhead included "
            f"({_FORMAT_NAMES[counter.model.chat]})")


_FORMAT_NAMES = {"openai": "OpenAI's published per-message overhead", "llama3": "Llama 3's header tokens",
                 "chatml": "ChatML's tokens (Qwen)", "mistral": "Mistral's template, through mistral-common"}


# -- cost -------------------------------------------------------------------------------------------------------


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


def _cost(args: argparse.Namespace) -> None:
    given = _input(args, "price")
    found = [_find_model(name) for name in args.model]
    prices = _prices(found, args)
    rate = args.inr_per_usd if args.inr_per_usd is not None else models.INR_PER_USD
    if rate <= 0:
        raise UsageError("--inr-per-usd must be more than 0")
    counters = [_Counter(m.name, _count_tokenizer(m.tokenizer), m.tokenizer, m) for m in found]
    counted = _gather(counters, given)
    if counted.tallies is not None:
        requests = [tally.stats.result() for tally in counted.tallies]
        if not any(s.records for s in requests):
            raise UsageError("no record could be counted: " + (counted.problems[0][2] if counted.problems else
                                                                 "the input is empty"))
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
        print(json.dumps(_cost_json(counters, counted, costs, how, args, rate), ensure_ascii=False))
        return
    for i, (counter, c, note) in enumerate(zip(counters, costs, how)):
        model = counter.model
        overhead = ""
        if counted.tallies is not None and counted.tallies[i].chats:
            overhead = "; " + _chat_line(counter, counted.tallies[i]).split(": ", 1)[1]
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
              + _printable(f"line {counted.problems[0][1]}: {counted.problems[0][2]}"))


def _cost_json(counters, counted: _Counted, costs, how, args: argparse.Namespace, rate: Decimal) -> dict:
    rows = []
    for i, (counter, c, note) in enumerate(zip(counters, costs, how)):
        row = {"model": counter.model.key, "name": counter.model.name, "tokenizer": counter.tokenizer_name,
               "input_tokens": c.input_tokens, "input_is": note, "output_tokens": c.output_tokens,
               "price": {**_price_json(c.price),
                         "input_given": args.input_price is not None, "output_given": args.output_price is not None},
               "usd_per_request": str(c.usd_per_request), "usd_per_month": str(c.usd_per_month),
               "inr_per_request": str(c.inr_per_request), "inr_per_month": str(c.inr_per_month)}
        if counted.tallies is not None:
            row["chat"] = _chat_json(counter, counted.tallies[i])
        rows.append(row)
    out = {"models": rows, "requests_per_month": args.requests_per_month, "inr_per_usd": str(rate),
           "inr_date": None if args.inr_per_usd is not None else models.INR_DATE,
           "inr_source": "--inr-per-usd" if args.inr_per_usd is not None else models.INR_SOURCE}
    if counted.tallies is not None:
        out["problems"] = [{"file": f, "line": n, "reason": r} for f, n, r in counted.problems]
        out["problem_count"] = counted.problem_count
    return out


def _count_stream(toks: Sequence, f: IO[bytes], what: str, keep_ids: bool = False,
                  bar: progress_bar | None = None) -> Counted:
    """The tokens of the text read from ``f``, a part at a time (:mod:`tokenizer.chunked`), on every core that
    helps (:func:`~tokenizer.chunked.workers_for`), moving ``bar`` (default: a bar of its own, of unknown total,
    shown on a terminal only). Any problem is a UsageError."""
    if not all(cuts_safely(tok) for tok in toks):  # a lab model's own pattern: held whole, up to 10 MB
        try:
            raw = read_at_most(f, what, COUNT_HOLD_MAX_BYTES, "give a shorter text",
                               "the most count holds whole for a model with a pre-split pattern of its own")
            text = "".join(iter_text(_bytes_io.BytesIO(raw), what))
            return count_parts(toks, [text], keep_ids=keep_ids)
        except PatternTooCostly as exc:
            raise UsageError(f"cannot count this text: {exc}") from None
        except ValueError as exc:
            raise UsageError(str(exc).rstrip(".")) from None
    with contextlib.ExitStack() as stack:
        if bar is None:
            bar = stack.enter_context(progress_bar(None))
        try:
            parts = cut_text(iter_text(bar.reading(f), what, chunk=PART_CHARS), what=what)
            return count_parts(toks, parts, keep_ids=keep_ids, workers=workers_for(toks))
        except PatternTooCostly as exc:
            raise UsageError(f"cannot count this text: {exc}") from None
        except (TooLongWithoutCut, ValueError) as exc:  # not UTF-8, binary, too many ids to list
            raise UsageError(str(exc).rstrip(".")) from None


class _OpenFiles:
    """The files ``count --file`` reads, all opened (and refused: missing, a directory, a device, an empty file,
    a silent named pipe) before any is read; closed together. ``total``: their bytes, for the progress bar."""

    def __init__(self, paths: Sequence[str]) -> None:
        self.paths = list(paths)
        self.files: list[IO[bytes]] = []
        self.total: int | None = 0

    def __enter__(self) -> _OpenFiles:
        try:
            for path in self.paths:
                self.files.append(self._open(path))
        except BaseException:
            self.close()
            raise
        return self

    def _open(self, path: str) -> IO[bytes]:
        what = _printable(f"the file {path}")
        try:
            f = open_input(path, what)
        except FileNotFoundError:
            raise UsageError(_printable(f"file not found: {path}")) from None
        except IsADirectoryError:
            raise UsageError(f"{what} is a directory: give a text file (one --file for each)") from None
        except OSError as exc:
            raise UsageError(_printable(f"cannot read {path}: {exc.strerror}")) from None
        except ValueError as exc:  # a device, a named pipe nothing writes to
            raise UsageError(str(exc).rstrip(".")) from None
        mode = os.fstat(f.fileno())
        if stat.S_ISREG(mode.st_mode):
            if mode.st_size == 0:
                f.close()
                raise UsageError(_printable(f"{what} is empty: there is nothing to count"))
            if self.total is not None:
                self.total += mode.st_size
        else:  # a pipe: its size is not known
            self.total = None
        return f

    def __iter__(self):
        return iter(zip(self.paths, self.files))

    def close(self) -> None:
        for f in self.files:
            f.close()

    def __exit__(self, *exc) -> None:
        self.close()


_open_files = _OpenFiles


class progress_bar:  # noqa: N801 - used as a function: ``with progress_bar(size) as bar``
    """A progress bar on standard error (tqdm) while a file is read, when standard error is a terminal; nothing
    otherwise (a pipe or a file gets no bar: a log stays clean). ``bar.reading(f)`` is ``f``, moving the bar
    by the bytes read."""

    def __init__(self, total: int | None) -> None:
        self.bar = None
        if _stderr_is_terminal():
            from tqdm import tqdm

            self.bar = tqdm(total=total, unit="B", unit_scale=True, unit_divisor=1000, file=sys.stderr,
                            desc="counting", leave=False, dynamic_ncols=True)

    def reading(self, f: IO[bytes]) -> IO[bytes]:
        return f if self.bar is None else _Metered(f, self.bar)

    def __enter__(self) -> progress_bar:
        return self

    def __exit__(self, *exc) -> None:
        if self.bar is not None:
            self.bar.close()


def _stderr_is_terminal() -> bool:
    try:
        return sys.stderr.isatty()
    except (AttributeError, ValueError):
        return False


class _Metered:
    """A binary file whose reads move a progress bar."""

    def __init__(self, f: IO[bytes], bar) -> None:
        self.f, self.bar = f, bar

    def read(self, size: int = -1) -> bytes:
        data = self.f.read(size)
        self.bar.update(len(data))
        return data


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


COMMANDS = {"train": _train, "encode": _encode, "export": _export, "count": _count, "cost": _cost, "tree": _tree,
            "vocab": _vocab}


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        if argv[:1] == ["encode"] and _names_a_tokenizer(argv[1:]):
            _encode_steps(_encode_tokenizer_parser().parse_args(argv[1:]))
            return 0
        args = _parser().parse_args(argv)
        COMMANDS[args.command](args)
    except UsageError as exc:
        print(_printable(f"error: {exc}"), file=sys.stderr)
        return 2
    return 0
