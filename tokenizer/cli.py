"""Command line: train a model from a text file, encode text with it, export it, count tokens.

    python -m tokenizer train CORPUS.txt --merges 100 -o model.json --trace trace.json
    python -m tokenizer encode model.json --json -- "घने कोहरे से"
    python -m tokenizer export model.json -o tokenizer.json
    python -m tokenizer count --tokenizer cl100k_base --tokenizer model.json -- "घने कोहरे से"

Every mistake in the input ends with one line on stderr and exit code 2. ``train`` holds its
input and reads at most 100 MB of it, from a file or from standard input
(:data:`tokenizer.textfile.MAX_INPUT_BYTES`), ``encode -`` at most 1 MB (:data:`ENCODE_MAX_BYTES`,
as it shows every token); ``count`` reads a file or standard input part by
part (:mod:`tokenizer.chunked`), so a long text costs it time, not memory. A device
(``/dev/zero``) is refused, as file or as standard input, and so is a named pipe that nothing
writes to. No output overwrites an input, and the outputs of one command are written all
together or not at all.
"""

from __future__ import annotations

import argparse
import io as _bytes_io
import json
import os
import re
import stat
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import IO

from family import real

from . import io
from .chunked import PART_CHARS, Counted, TooLongWithoutCut, count_parts, cut_text, cuts_safely, workers_for
from .labels import hex_bytes, plural
from .model import DEFAULTS, TIES, UNITS, UNKNOWN_ID, Tokenizer
from .pretokenize import SPLITS, PatternTimeout
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

    e = sub.add_parser("encode", help="encode text with a saved model")
    e.add_argument("model", help="a model file saved by 'train'")
    e.add_argument("text", help="the text to encode, or - to read standard input (at most 1 MB; "
                   "put -- before text that starts with '-')")
    e.add_argument("--json", action="store_true", help="print ids, tokens and count as JSON")

    c = sub.add_parser("count", help="count tokens with production tokenizers or saved models")
    c.add_argument("text", nargs="?", help="the text to count, or - to read standard input (read part by part: any length; "
                   "put -- before text that starts with '-')")
    c.add_argument("--tokenizer", "-t", action="append", metavar="NAME",
                   help=f"one of {', '.join(real.NAMES)}, or a model file saved by 'train'; repeat to compare "
                   f"(default: {' and '.join(COUNT_DEFAULT)})")
    c.add_argument("--file", "-f", action="append", metavar="PATH",
                   help="count a UTF-8 text file, read part by part (any size); repeat for several files, each its own text")
    c.add_argument("--json", action="store_true", help='print {"results": [{"tokenizer", "tokens", "ids"}, ...]} '
                   "(ids only for a TEXT or -; with --file the totals only)")
    c.add_argument("--list", action="store_true", help="list the production tokenizers and whether each is available")
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


def _encode(args: argparse.Namespace) -> None:
    _check_text(args.text)
    tok = _load(args.model)
    if args.text == "-":
        args.text = _read_stdin_whole(ENCODE_MAX_BYTES, "use count - to count a longer text",
                                      "the most encode shows token by token")
    try:
        tokens = tok.encode_tokens(args.text)
    except PatternTimeout as exc:
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
        f"unknown tokenizer {name!r}: use one of {', '.join(real.NAMES)} (see --list) or a model file saved by 'train'"
    )


def _count_list(as_json: bool) -> None:
    rows = [(info, real.status(info.name)) for info in real.catalogue()]
    if as_json:
        out = [{"name": i.name, "title": i.title, "available": r is None, "reason": r} for i, r in rows]
        print(json.dumps({"tokenizers": out}, ensure_ascii=False))
        return
    for info, reason in rows:
        print(f"{info.name:<15} {info.title:<26} {'available' if reason is None else 'unavailable: ' + reason}")


def _count(args: argparse.Namespace) -> None:
    if args.list:
        if args.text is not None or args.tokenizer or args.file:
            raise UsageError("--list takes no text, no --file and no --tokenizer")
        _count_list(args.json)
        return
    if args.text is not None and args.file:
        raise UsageError("give the text to count, - or --file PATH, not both")
    if args.text is None and not args.file:
        raise UsageError("give the text to count, - to read it from standard input, or --file PATH")
    if args.text not in (None, "-"):
        _check_text(args.text, "the text to count")
    names = args.tokenizer or list(COUNT_DEFAULT)
    tokenizers = [(name, _count_tokenizer(name)) for name in names]  # every name checked before any output
    toks = [tok for _, tok in tokenizers]
    if args.file:
        with _open_files(args.file) as files:
            counted = [_count_stream(toks, f, _printable(f"the file {path}"), size=files.total)
                       for path, f in files]
        _print_files(names, tokenizers, args.file, counted, args.json)
        return
    try:
        if args.text == "-":  # read, decoded and counted a part at a time: memory is one part, however long
            counted = _count_stream(toks, standard_input(), STDIN, keep_ids=args.json)
        else:
            counted = count_parts(toks, [args.text], keep_ids=args.json)
    except PatternTimeout as exc:
        raise UsageError(f"cannot count this text: {exc}") from None
    except ValueError as exc:  # a device or a terminal as standard input, too many ids to list
        raise UsageError(str(exc).rstrip(".")) from None
    if args.json:
        _print_count_json(names, counted.tokens, counted.ids or [])
        return
    _print_count_table(tokenizers, counted)


def _print_count_table(tokenizers: Sequence[tuple[str, object]], counted: Counted) -> None:
    words = counted.words
    width = max(len("tokenizer"), *(len(name) for name, _ in tokenizers))
    print(f"{'tokenizer':<{width}}  {'tokens':>7}  {'per word':>8}  what")
    for (name, tok), tokens in zip(tokenizers, counted.tokens):
        per_word = f"{tokens / words:.2f}" if words else "-"
        print(f"{name:<{width}}  {tokens:>7}  {per_word:>8}  {tok.name}")
    print(f"{plural(words, 'word')}, {plural(counted.characters, 'character')}, {plural(counted.bytes, 'byte')}")


def _count_stream(toks: Sequence, f: IO[bytes], what: str, keep_ids: bool = False, size: int | None = None) -> Counted:
    """The tokens of the text read from ``f``, a part at a time (:mod:`tokenizer.chunked`), on every core that
    helps (:func:`~tokenizer.chunked.workers_for`), with a progress bar on a terminal. ``size``: the bytes to read
    in all, for the bar (None: not known). Any problem is a UsageError."""
    if not all(cuts_safely(tok) for tok in toks):  # a lab model's own pattern: held whole, up to 10 MB
        try:
            raw = read_at_most(f, what, COUNT_HOLD_MAX_BYTES, "give a shorter text",
                               "the most count holds whole for a model with a pre-split pattern of its own")
            text = "".join(iter_text(_bytes_io.BytesIO(raw), what))
            return count_parts(toks, [text], keep_ids=keep_ids)
        except PatternTimeout as exc:
            raise UsageError(f"cannot count this text: {exc}") from None
        except ValueError as exc:
            raise UsageError(str(exc).rstrip(".")) from None
    with progress_bar(size) as bar:
        try:
            parts = cut_text(iter_text(bar.reading(f), what, chunk=PART_CHARS), what=what)
            return count_parts(toks, parts, keep_ids=keep_ids, workers=workers_for(toks))
        except PatternTimeout as exc:
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


def _print_files(names: Sequence[str], tokenizers, paths: Sequence[str], counted: Sequence[Counted],
                 as_json: bool) -> None:
    """The totals of ``count --file`` over every file, then (for several files) each file's tokens."""
    total = Counted([sum(c.tokens[i] for c in counted) for i in range(len(names))], None,
                    sum(c.words for c in counted), sum(c.characters for c in counted), sum(c.bytes for c in counted))
    if as_json:
        out = {
            "results": [{"tokenizer": name, "tokens": tokens} for name, tokens in zip(names, total.tokens)],
            "words": total.words, "characters": total.characters, "bytes": total.bytes,
            "files": [{"file": _printable(path), "tokens": dict(zip(names, c.tokens)), "bytes": c.bytes}
                      for path, c in zip(paths, counted)],
        }
        print(json.dumps(out, ensure_ascii=False))
        return
    _print_count_table(tokenizers, total)
    if len(paths) > 1:
        width = max(len("file"), *(len(_printable(path)) for path in paths))
        print()
        print(f"{'file':<{width}}  " + "  ".join(f"{name:>{max(len(name), 7)}}" for name in names))
        for path, c in zip(paths, counted):
            print(f"{_printable(path):<{width}}  "
                  + "  ".join(f"{tokens:>{max(len(name), 7)}}" for name, tokens in zip(names, c.tokens)))


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


COMMANDS = {"train": _train, "encode": _encode, "export": _export, "count": _count}


def main(argv: Sequence[str] | None = None) -> int:
    try:
        args = _parser().parse_args(argv)
        COMMANDS[args.command](args)
    except UsageError as exc:
        print(_printable(f"error: {exc}"), file=sys.stderr)
        return 2
    return 0
