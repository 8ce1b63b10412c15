"""What ``count`` and ``cost`` read and what they count with: a text, standard input or files (whole, or record by
record), and the tokenizers or models named on the command line.

A file or standard input is read part by part (:mod:`tokenizer.chunked`, on every core that helps), so a long text
costs time, not memory. A device (``/dev/zero``) is refused, as file or as standard input, and so is a named pipe
that nothing writes to. Records (``--lines``) are read and counted a batch at a time by the estimate's own pipeline
(:mod:`analyses.estimate`), shared with the Estimate page.
"""

from __future__ import annotations

import argparse
import contextlib
import io as _bytes_io
import os
import stat
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, cast

from analyses.estimate import EstimateInputError
from analyses.tally import Counter, Tallies, Tally, count_input, split_key
from family import models, real
from family.models import Model
from tokenizer.chunked import (
    PART_CHARS,
    Counted,
    TooLongWithoutCut,
    count_parts,
    cut_text,
    cuts_safely,
    workers_for,
)
from tokenizer.labels import plural
from tokenizer.pretokenize import PatternTooCostly
from tokenizer.textfile import STDIN, iter_text, open_input, read_at_most, standard_input

from .common import UsageError, check_text, load_model, printable

COUNT_DEFAULT = ("cl100k_base", "o200k_base")
"""What ``count`` counts with when no --tokenizer is given: GPT-4 and GPT-4o."""

COUNT_HOLD_MAX_BYTES = 10_000_000
"""The most ``count -`` reads when a lab model's own pre-split pattern stops it cutting the text into parts
(10 MB): it holds the text and its pieces, about 18 bytes of memory for each byte of text (20 MB: 380 MB)."""

MAX_PROBLEMS_SHOWN = 20
"""Records that could not be read (broken JSONL lines...) are all counted; the first 20 are listed in text, the
first 1,000 in --json (:data:`analyses.tally.MAX_PROBLEMS_KEPT`)."""


def add_input_arguments(parser: argparse.ArgumentParser) -> None:
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
    parser.add_argument("--no-template-extras", dest="template_extras", action="store_false",
                        help="leave out what a model's official chat template adds to its format (Llama 3.1-3.3: a "
                        "system block with the knowledge cut-off and the day; Qwen 2.5: a default system message), "
                        "counted by default")


# -- what is counted with ----------------------------------------------------------------------------------------


def count_tokenizer(name: str):
    """A production tokenizer by registry name, or a lab model by file path."""
    if name in real.NAMES:
        try:
            return real.load(name)
        except real.TokenizerUnavailable as exc:
            raise UsageError(str(exc)) from None
    if name.endswith(".json") or Path(name).exists() or "/" in name:
        return load_model(name)
    raise UsageError(
        f"unknown tokenizer {name!r}: use one of {', '.join(real.NAMES)} (see --list) or a model file saved by "
        "'train'; a model by its product name (GPT-4o) goes with --model"
    )


def find_model(name: str) -> Model:
    check_text(name, "the model name")
    try:
        return models.find(name)
    except models.UncountableModel as exc:
        raise UsageError(str(exc)) from None
    except models.UnknownModel as exc:
        raise UsageError(f"{exc} (see: python -m tokenizer count --list)") from None


def counters_for(tokenizer_names: Sequence[str] | None, model_names: Sequence[str] | None,
                 default: Sequence[str] = COUNT_DEFAULT) -> list[Counter]:
    """Every -t and --model resolved (and loaded) before any input is read: an unknown name is exit 2 at once."""
    found_models = [find_model(name) for name in model_names or ()]
    rows = [Counter(name, count_tokenizer(name), name) for name in tokenizer_names or ()]
    rows += [Counter(model.name, count_tokenizer(model.tokenizer), model.tokenizer, model) for model in found_models]
    if not rows:
        rows = [Counter(name, count_tokenizer(name), name) for name in default]
    return rows


# -- what is read ------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Input:
    """What ``count`` or ``cost`` reads: a TEXT, standard input (-) or --file paths, whole or as records."""

    text: str | None
    paths: tuple[str, ...]
    kind: str  # "text" (each text whole) or a records kind of analyses.estimate: lines, jsonl, csv
    field: str | None
    column: str | None
    as_chat: bool = False  # each text or record that is not a chat: one user message
    extras: bool = True  # what a model's official template adds to its chat format is counted

    def kind_of(self, path: str | None) -> str:
        if self.kind != "records":
            return self.kind
        if self.column is not None:
            return "csv"
        if self.field is not None:
            return "jsonl"
        suffix = Path(path).suffix.lower() if path else ""
        return {".jsonl": "jsonl", ".ndjson": "jsonl", ".csv": "csv"}.get(suffix, "lines")


def input_from(args: argparse.Namespace, verb: str = "count") -> Input:
    """The input asked for, checked before anything is read."""
    if args.text is not None and args.file:
        raise UsageError(f"give the text to {verb}, - or --file PATH, not both")
    if args.text is None and not args.file:
        raise UsageError(f"give the text to {verb}, - to read it from standard input, or --file PATH")
    if args.text not in (None, "-"):
        check_text(args.text, f"the text to {verb}")
    if args.field is not None and args.column is not None:
        raise UsageError("--field is for JSONL and --column for CSV: give one of them")
    for flag, value in (("--field", args.field), ("--column", args.column)):
        if value is not None:
            check_text(value, flag)
    records = args.lines or args.field is not None or args.column is not None
    return Input(args.text, tuple(args.file or ()), "records" if records else "text", args.field, args.column,
                 bool(getattr(args, "as_chat", False)), bool(getattr(args, "template_extras", True)))


class OpenFiles:
    """The files ``count --file`` reads, all opened (and refused: missing, a directory, a device, an empty file,
    a silent named pipe) before any is read; closed together. ``total``: their bytes, for the progress bar."""

    def __init__(self, paths: Sequence[str]) -> None:
        self.paths = list(paths)
        self.files: list[IO[bytes]] = []
        self.total: int | None = 0

    def __enter__(self) -> OpenFiles:
        try:
            for path in self.paths:
                self.files.append(self._open(path))
        except BaseException:
            self.close()
            raise
        return self

    def _open(self, path: str) -> IO[bytes]:
        what = printable(f"the file {path}")
        try:
            f = open_input(path, what)
        except FileNotFoundError:
            raise UsageError(printable(f"file not found: {path}")) from None
        except IsADirectoryError:
            raise UsageError(f"{what} is a directory: give a text file (one --file for each)") from None
        except OSError as exc:
            raise UsageError(printable(f"cannot read {path}: {exc.strerror}")) from None
        except ValueError as exc:  # a device, a named pipe nothing writes to
            raise UsageError(str(exc).rstrip(".")) from None
        mode = os.fstat(f.fileno())
        if stat.S_ISREG(mode.st_mode):
            if mode.st_size == 0:
                f.close()
                raise UsageError(printable(f"{what} is empty: there is nothing to count"))
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
        return f if self.bar is None else cast(IO[bytes], _Metered(f, self.bar))  # read as the file is

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


# -- counting --------------------------------------------------------------------------------------------------


@dataclass
class Gathered:
    """What ``count`` or ``cost`` found, per counter (in order): the total, and per record (records mode: the
    estimate pipeline's tallies, :mod:`analyses.tally`)."""

    totals: list[int]
    tallies: list[Tally] | None  # records mode
    texts: int = 0  # texts counted whole (text mode): TEXT, -, or each file
    words: int = 0
    characters: int = 0
    bytes: int = 0
    ids: list | None = None
    per_file: list[list[int]] = field(default_factory=list)  # text mode: each file's totals
    problems: list[tuple[str | None, int, str]] = field(default_factory=list)  # (file, line, reason), the first ones
    problem_count: int = 0


def count_stream(toks: Sequence, f: IO[bytes], what: str, keep_ids: bool = False,
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


def gather(counters: Sequence[Counter], given: Input, keep_ids: bool = False) -> Gathered:
    """Count ``given`` with every counter: texts streamed part by part, records a batch at a time by the estimate's
    pipeline (:func:`analyses.tally.count_input`, as the Estimate page counts), each on the cores that help. Every
    problem is a UsageError, raised before anything is printed."""
    unique: dict[int, object] = {}
    for counter in counters:
        unique.setdefault(id(counter.tokenizer), counter.tokenizer)
    toks = list(unique.values())
    place = {key: i for i, key in enumerate(unique)}
    columns = [place[id(counter.tokenizer)] for counter in counters]
    if given.kind == "text" and not given.as_chat:  # as a chat, each text is one record (held whole)
        return _gather_texts(toks, columns, given, keep_ids)
    tallies = Tallies.start(counters)
    workers = workers_for(toks)

    def count(fragments, kind: str, source: str | None, what: str | None = None) -> None:
        try:
            count_input(counters, fragments, kind, field=given.field, column=given.column, as_chat=given.as_chat,
                        extras=given.extras, into=tallies, source=source, workers=workers)
        except EstimateInputError as exc:
            raise UsageError(f"{what}: {exc}".rstrip(".") if what else str(exc).rstrip(".")) from None

    try:
        if given.text == "-":
            with progress_bar(None) as bar:
                count(iter_text(bar.reading(standard_input()), STDIN, chunk=PART_CHARS), given.kind_of(None), None)
        elif given.text is not None:
            count([given.text], given.kind_of(None), None)
        else:
            with OpenFiles(given.paths) as files, progress_bar(files.total) as bar:
                for path, f in files:
                    what = printable(f"the file {path}")
                    label = printable(path) if len(given.paths) > 1 else None
                    count(iter_text(bar.reading(f), what, chunk=PART_CHARS), given.kind_of(path), label, what)
    except PatternTooCostly as exc:
        raise UsageError(f"cannot count this text: {exc}") from None
    except ValueError as exc:  # not UTF-8, binary, a device as standard input
        raise UsageError(str(exc).rstrip(".")) from None
    if not tallies.counted():  # nothing counted is no answer: exit 2, saying why
        raise UsageError(_none_counted(tallies, given))
    return Gathered([t.stats.result().total for t in tallies.tallies], tallies.tallies,
                    problems=tallies.problems, problem_count=tallies.problem_count)


def _none_counted(tallies: Tallies, given: Input) -> str:
    if not tallies.problems:
        return "no record could be counted: the input is empty"
    source, line, reason = tallies.problems[0]
    where = f"{source}:{line}" if source else f"line {line}"
    said = (f"no record could be counted: {plural(tallies.problem_count, 'record')} read, none counted; "
            f"{where}: {reason}")
    if given.as_chat and given.kind == "text" and "longer than" in reason:
        said += "; leave out --as-chat to count a text of any length (or give --lines: a message a line)"
    return printable(said)


def _gather_texts(toks: Sequence, columns: Sequence[int], given: Input, keep_ids: bool) -> Gathered:
    """Each text counted whole (streamed when it comes from a file or standard input)."""
    pieces: list[Counted] = []
    try:
        if given.text == "-":
            pieces.append(count_stream(toks, standard_input(), STDIN, keep_ids=keep_ids))
        elif given.text is not None:
            pieces.append(count_parts(toks, [given.text], keep_ids=keep_ids))
        else:
            with OpenFiles(given.paths) as files, progress_bar(files.total) as bar:  # one bar for every file
                for path, f in files:
                    pieces.append(count_stream(toks, f, printable(f"the file {path}"), bar=bar))
    except PatternTooCostly as exc:
        raise UsageError(f"cannot count this text: {exc}") from None
    except ValueError as exc:  # a device or a terminal as standard input, too many ids to list
        raise UsageError(str(exc).rstrip(".")) from None
    result = Gathered([sum(piece.tokens[c] for piece in pieces) for c in columns], None, len(pieces),
                      sum(p.words for p in pieces), sum(p.characters for p in pieces), sum(p.bytes for p in pieces))
    result.per_file = [[piece.tokens[c] for c in columns] for piece in pieces]
    ids = pieces[0].ids if keep_ids and len(pieces) == 1 else None
    if ids is not None:
        result.ids = [ids[c] for c in columns]
    return result


def where(given: Input, key: int) -> str:
    """Where a record is, from its statistics key: ``17`` (line 17), or ``b.jsonl:17`` for several files."""
    file_index, number = split_key(key)
    if len(given.paths) > 1:
        return f"{printable(given.paths[file_index])}:{number}"
    return str(number)


__all__ = ["COUNT_DEFAULT", "COUNT_HOLD_MAX_BYTES", "MAX_PROBLEMS_SHOWN", "Counter", "Gathered", "Input", "OpenFiles",
           "Tally", "add_input_arguments", "count_stream", "count_tokenizer", "counters_for", "find_model", "gather",
           "input_from", "progress_bar", "where"]
