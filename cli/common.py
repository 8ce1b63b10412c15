"""What every command of the command line shares: one-line errors, argument types, reading a text or a model.

Every mistake in the input is a :class:`UsageError`: :func:`cli.main` prints it as one line on standard error and
exits with code 2.
"""

from __future__ import annotations

import argparse
import io as _bytes_io
import re
from typing import NoReturn

from tokenizer import io
from tokenizer.model import Tokenizer
from tokenizer.textfile import MAX_INPUT_BYTES, STDIN, iter_text, read_at_most, same_regular_file, standard_input


class UsageError(Exception):
    """A problem with what the user asked for: reported in one line, exit code 2."""


class Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:  # one line, not argparse's usage block
        raise UsageError(f"{message} (see: {self.prog} --help)")


def printable(line: str) -> str:
    """A line that any output can take: a file name that is not UTF-8 arrives from the command
    line as lone surrogates, shown here as escapes rather than failing to print."""
    return line.encode("utf-8", "backslashreplace").decode("utf-8")


def positive_int(value: str) -> int:
    # int() also reads other scripts' digits ("٣" is 3) and "1_000": only 0-9 are a number here.
    if not re.fullmatch(r"[+-]?[0-9]+", value):
        raise argparse.ArgumentTypeError(
            f"--merges needs a whole number written with the digits 0-9, not {printable(repr(value))}"
        )
    if len(value) > 12:
        raise argparse.ArgumentTypeError(f"--merges {value[:12]}... is far more merges than any corpus allows")
    number = int(value)
    if number < 1:
        raise argparse.ArgumentTypeError(f"--merges must be 1 or more (got {number})")
    return number


def number(flag: str, kind: type):
    """An argparse type: a number 0 or more written with the digits 0-9 (``kind`` int or Decimal)."""
    pattern = r"[0-9]+" if kind is int else r"[0-9]+(\.[0-9]+)?|\.[0-9]+"

    def parse(value: str):
        if not re.fullmatch(pattern, value.strip()) or len(value) > 30:
            whole = "a whole number" if kind is int else "a number"
            raise argparse.ArgumentTypeError(
                f"{flag} needs {whole} of 0 or more written with the digits 0-9, not {shown(value)}")
        return kind(value.strip())
    return parse


def shown(value: str, most: int = 40) -> str:
    """A value the user gave, quoted for a message, cut short (a 5,000-character argument is not echoed whole)."""
    if len(value) <= most:
        return printable(repr(value))
    return printable(repr(value[:most])) + f"... ({len(value):,} characters)"


def check_text(text: str, what: str = "the text to encode") -> None:
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


def load_model(path: str) -> Tokenizer:
    """A lab model saved by ``train`` (the model limits are checked as it is read)."""
    try:
        return io.load(path)
    except ValueError as exc:
        raise UsageError(f"{path}: {exc}") from None


def read_stdin_whole(limit: int = MAX_INPUT_BYTES, advice: str = "give a shorter text",
                     why: str = "the most the lab reads from one file") -> str:
    """Standard input as every file is read (:func:`~tokenizer.textfile.iter_text`: a UTF-8 byte-order mark at
    its start dropped), at most ``limit`` bytes: for a command that must hold its text."""
    try:
        raw = read_at_most(standard_input(), STDIN, limit, advice, why)
        return "".join(iter_text(_bytes_io.BytesIO(raw), STDIN))
    except ValueError as exc:
        raise UsageError(str(exc).rstrip(".")) from None


def refuse_overwriting(output: str, flag: str, source: str, what: str, loses: str) -> None:
    """An output must not be an input, by any path to it (``x``, ``./x``, a link)."""
    if same_regular_file(output, source):
        raise UsageError(f"{flag} {output} is {what}: writing there would overwrite {loses}; choose another file name")


__all__ = ["Parser", "UsageError", "check_text", "load_model", "number", "positive_int", "printable",
           "read_stdin_whole", "refuse_overwriting", "shown"]
