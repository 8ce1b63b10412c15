"""The lab's own models on the command line: ``train`` a model from a text, ``encode`` with it, ``export`` it for
Hugging Face ``tokenizers``.

``train`` holds its input and reads at most 100 MB of it, from a file or from standard input
(:data:`tokenizer.textfile.MAX_INPUT_BYTES`), ``encode -`` at most 1 MB (:data:`ENCODE_MAX_BYTES`, as it shows
every token). No output overwrites an input, and the outputs of one command are written all together or not at all.
"""

from __future__ import annotations

import argparse
import json
import sys

from tokenizer import io
from tokenizer.labels import hex_bytes, plural
from tokenizer.model import DEFAULTS, TIES, UNITS, UNKNOWN_ID
from tokenizer.pretokenize import SPLITS, PatternTooCostly
from tokenizer.textfile import STDIN, decode_text, read_at_most, read_limited, standard_input, write_file, write_files
from tokenizer.train import StopReason, train

from .common import UsageError, check_text, load_model, positive_int, printable, read_stdin_whole, refuse_overwriting

ENCODE_MAX_BYTES = 1_000_000
"""The most ``encode -`` reads (1 MB): it builds and prints every token with its label, about 140 bytes
of memory and 3 µs of CPU for each byte of text (1 MB: 170 MB and 3.5 s; 100 MB would be 14 GB).
Its text given as an argument is capped lower by the system (128 KB); ``count -`` counts any length."""


def add_parsers(sub) -> None:
    t = sub.add_parser("train", help="learn merges from a UTF-8 text file")
    t.add_argument("corpus", help="a UTF-8 text file to learn from, or - to read standard input (at most 100 MB)")
    t.add_argument("--merges", type=positive_int, required=True, help="how many merges to learn")
    t.add_argument("--unit", choices=UNITS, default=DEFAULTS.unit, help="start from UTF-8 bytes (default) or characters")
    t.add_argument("--split", choices=SPLITS, default=DEFAULTS.split, help="pre-split by a regex (default) or by whitespace")
    t.add_argument("--pattern", default=DEFAULTS.pattern, help=f"the pre-split regex (default {DEFAULTS.pattern!r})")
    t.add_argument("--end-of-word", default=DEFAULTS.end_of_word, metavar="MARKER", help="append MARKER to every word, e.g. '</w>'")
    t.add_argument("--ties", choices=TIES, default=DEFAULTS.ties, help="how ties are broken (default: first seen)")
    t.add_argument("-o", "--output", required=True, metavar="MODEL.json", help="where to save the model")
    t.add_argument("--trace", metavar="TRACE.json", help="also save every step of training")
    t.set_defaults(run=train_command)

    e = sub.add_parser("encode", help="encode text with a saved model, or with a production tokenizer step by step "
                       "(encode --tokenizer NAME --steps TEXT)")
    e.add_argument("model", help="a model file saved by 'train'")
    e.add_argument("text", help="the text to encode, or - to read standard input (at most 1 MB; "
                   "put -- before text that starts with '-')")
    e.add_argument("--json", action="store_true", help="print ids, tokens and count as JSON")
    e.add_argument("--steps", action="store_true", help="with --tokenizer NAME instead of a model: see "
                   "'encode --tokenizer NAME --help'")
    e.set_defaults(run=encode_command)


def add_export_parser(sub) -> None:
    x = sub.add_parser("export", help="write a byte-level model as a Hugging Face tokenizer.json")
    x.add_argument("model", help="a model file saved by 'train'")
    x.add_argument("-o", "--output", required=True, metavar="TOKENIZER.json", help="where to write it")
    x.set_defaults(run=export_command)


def read_corpus(path: str) -> str:
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


def train_command(args: argparse.Namespace) -> None:
    check_text(args.pattern, "--pattern")
    check_text(args.end_of_word or "", "--end-of-word")
    if args.corpus != "-":
        refuse_overwriting(args.output, "-o", args.corpus, "the corpus itself", "your text")
    if args.trace:
        if args.corpus != "-":
            refuse_overwriting(args.trace, "--trace", args.corpus, "the corpus itself", "your text")
        refuse_overwriting(args.trace, "--trace", args.output, f"the same file as -o {args.output}", "the model")
    text = read_corpus(args.corpus)
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
    print(printable(done))
    if trace.stop_reason is StopReason.NO_PAIRS:
        print(
            f"stopped after {len(trace.steps)} of {args.merges} merges: every word is a single token, "
            "no pair is left to merge",
            file=sys.stderr,
        )


def encode_command(args: argparse.Namespace) -> None:
    if args.steps:
        raise UsageError("--steps replays a production tokenizer's merges: give --tokenizer NAME instead of a model")
    check_text(args.text)
    tok = load_model(args.model)
    if args.text == "-":
        args.text = read_stdin_whole(ENCODE_MAX_BYTES, "use count - to count a longer text",
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


def export_command(args: argparse.Namespace) -> None:
    from tokenizer.export import to_hf_json

    refuse_overwriting(args.output, "-o", args.model, "the model file itself", "your model")
    tok = load_model(args.model)
    try:
        text = to_hf_json(tok)
    except ValueError as exc:
        raise UsageError(f"cannot export {args.model}: {exc}") from None
    try:
        write_file(args.output, text)
    except OSError as exc:
        raise UsageError(f"cannot write {exc.filename}: {exc.strerror}") from None
    print(printable(f"wrote a Hugging Face tokenizer ({tok.vocab_size} tokens, {len(tok.merges)} merges) -> {args.output}"))


__all__ = ["ENCODE_MAX_BYTES", "add_export_parser", "add_parsers", "encode_command", "export_command", "read_corpus",
           "train_command"]
