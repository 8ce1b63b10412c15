"""Records from a text or a dataset, read as a stream: the whole text, each line, each JSONL record, each CSV row.

Part of the estimate (:mod:`analyses.estimate`, which re-exports every name here). One record is held at a
time, and each is bounded (:data:`MAX_RECORD_CHARS`), so a file of any size streams through in bounded memory.
Whatever the text, a record comes out or a :class:`Problem` saying why not; only input with nothing to count
at all, or a CSV without the column asked for, stops with an :class:`EstimateInputError`.

>>> read_records("name,city\\rAsha,Pune\\r\\rRavi,Indore", "csv", column="city")
([Record(number=2, text='Pune', messages=None), Record(number=4, text='Indore', messages=None)], [])
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from tokenizer.labels import plural


class EstimateInputError(ValueError):
    """Input the estimate cannot use (a CSV without the column asked for, a negative rate...): one friendly line."""


KINDS = ("text", "lines", "jsonl", "csv")
"""How a text becomes records: the whole text is one record | each non-empty line | each JSONL record | each CSV row."""

MAX_RECORD_CHARS = 1_000_000
"""The most characters one record (one line, one JSONL record, the whole text) may hold: a longer one is a
:class:`Problem`, so what is held at once stays bounded however big the file. (A CSV cell is bounded lower, by
the csv module's field limit, 131,072 characters.)"""

TEXT_FIELDS = ("text", "prompt")
"""The fields a JSONL record's text is looked for in, in order, when no field is named (after ``messages``)."""


@dataclass(frozen=True)
class Record:
    """One record: its 1-based ``number`` (its line; for CSV the line its row starts on, the header being
    line 1), and either ``text`` or a chat's ``messages`` ((role, content) pairs)."""

    number: int
    text: str | None
    messages: tuple[tuple[str, str], ...] | None = None


@dataclass(frozen=True)
class Problem:
    """A record that could not be read (a broken JSONL line, a row without the column...): its number and why."""

    number: int
    reason: str


# -- records ----------------------------------------------------------------------------------------------


def _numbered(lines: Iterable[str]) -> Iterator[tuple[int, str | None]]:
    """(line number, the line with its ending) for each line; ``None`` for a line longer than
    :data:`MAX_RECORD_CHARS`. A long line may come in pieces (``file.readline(limit)``): the pieces after the
    first, up to the one that ends the line, are skipped."""
    number, skipping = 0, False
    for piece in lines:
        ends = piece.endswith(("\n", "\r"))
        if skipping:
            skipping = not ends
            continue
        number += 1
        if len(piece.rstrip("\r\n")) > MAX_RECORD_CHARS:
            skipping = not ends
            yield number, None
        else:
            yield number, piece


def _too_long(number: int, what: str = "line") -> Problem:
    return Problem(number, f"the {what} is longer than {MAX_RECORD_CHARS:,} characters (skipped)")


def lines_of(file) -> Iterator[str]:
    """The lines of a text file object, each read with a bound (``readline(MAX_RECORD_CHARS + 1)``), so a
    file without line breaks is never read whole: :func:`iter_records` skips the rest of a line that long."""
    return iter(lambda: file.readline(MAX_RECORD_CHARS + 1), "")


def iter_records(lines: Iterable[str], kind: str, field: str | None = None,
                 column: str | None = None) -> Iterator[Record | Problem]:
    """The records of ``lines`` (any iterable of lines, e.g. a file opened with ``newline=""``, or
    :func:`lines_of` one), one at a time, with a :class:`Problem` for each that cannot be read.

    ``kind`` is one of :data:`KINDS`. ``jsonl``: each non-empty line is a JSON object; with ``field=None`` its
    ``messages`` (a chat: a list of ``{"role", "content"}``) if there, else its ``text`` or ``prompt``; with
    ``field="x"`` its ``x`` (a string or a chat). A chat's content may be OpenAI's list of parts: its text
    parts are joined by a line break (images and other parts are not counted). ``csv``: the header row names
    the columns; ``column`` is the one counted (it may be left out when there is only one).

    Raises :class:`EstimateInputError` for input with nothing to count, an unknown kind, a CSV without the
    column (naming the columns there are) or with a header row and no rows.
    """
    if kind not in KINDS:
        raise EstimateInputError(f"unknown kind of input {kind!r}; use one of {', '.join(KINDS)}")
    readers = {"text": _text_records, "lines": _line_records, "jsonl": _jsonl_records, "csv": _csv_records}
    found = False
    for item in readers[kind](lines, field if kind == "jsonl" else column):
        found = True
        yield item
    if not found:
        raise EstimateInputError("there is nothing to count: the input is empty (or only blank lines)")


def read_records(text: str, kind: str, field: str | None = None,
                 column: str | None = None) -> tuple[list[Record], list[Problem]]:
    """All the records of ``text`` and the problems met on the way (the page's convenience over iter_records)."""
    records: list[Record] = []
    problems: list[Problem] = []
    # Lines end at \n, \r\n or a bare \r, as in a file opened with newline="" (str.splitlines would also cut
    # at \f, \x85, U+2028...: not line ends to a file, a CSV reader or a JSON one).
    for item in iter_records(io.StringIO(text, newline=""), kind, field, column):
        (records if isinstance(item, Record) else problems).append(item)
    return records, problems


def _text_records(lines: Iterable[str], _: object) -> Iterator[Record | Problem]:
    parts: list[str] = []
    size = 0
    for _number, line in _numbered(lines):
        size += MAX_RECORD_CHARS + 1 if line is None else len(line)
        if size <= MAX_RECORD_CHARS:
            parts.append(line)
        else:
            parts.clear()
    if size > MAX_RECORD_CHARS:
        yield Problem(1, f"the text is longer than {MAX_RECORD_CHARS:,} characters: count it line by line, or with "
                         "the command line's streaming count (python -m tokenizer count --file)")
    elif size:
        yield Record(1, "".join(parts))


def _line_records(lines: Iterable[str], _: object) -> Iterator[Record | Problem]:
    for number, line in _numbered(lines):
        if line is None:
            yield _too_long(number)
        elif line.strip():
            yield Record(number, line.rstrip("\r\n"))


def _jsonl_records(lines: Iterable[str], field: str | None) -> Iterator[Record | Problem]:
    for number, line in _numbered(lines):
        if line is None:
            yield _too_long(number)
        elif line.strip():
            yield _jsonl_record(number, line, field)


def _jsonl_record(number: int, line: str, field: str | None) -> Record | Problem:
    try:
        data = json.loads(line, strict=False)  # strict=False: a tab or other control character inside a string is kept
    except json.JSONDecodeError as exc:
        return Problem(number, f"not JSON ({exc.msg}, column {exc.colno})")
    except ValueError:  # Python's guard against converting a number of thousands of digits
        return Problem(number, "a number too long to read")
    except RecursionError:
        return Problem(number, "JSON nested too deep to read")
    if not isinstance(data, dict):
        return Problem(number, f"a JSON {type(data).__name__}, not an object ({{...}})")
    if field is None:
        field = next((name for name in ("messages", *TEXT_FIELDS) if name in data), None)
        if field is None:
            return Problem(number, f"no 'messages', 'text' or 'prompt' field (it has {_names(data)}): name the field")
    elif field not in data:
        return Problem(number, f"no field {field!r} (it has {_names(data)})")
    value = data[field]
    if isinstance(value, str):
        return Record(number, value)
    if isinstance(value, list):
        return _chat(number, value)
    return Problem(number, f"field {field!r} is a JSON {type(value).__name__}, not text or a chat")


def _names(data: dict) -> str:
    names = [repr(name) for name in list(data)[:10]]
    return ", ".join(names) + (", ..." if len(data) > 10 else "") if names else "no fields"


def _chat(number: int, messages: list) -> Record | Problem:
    """A chat record from a list of ``{"role", "content"}``; content a string, null, or OpenAI's list of parts."""
    if not messages:
        return Problem(number, "an empty chat (no messages)")
    pairs = []
    for position, message in enumerate(messages, 1):
        role = message.get("role") if isinstance(message, dict) else None
        if not isinstance(role, str) or not role:
            return Problem(number, f"message {position} has no role (a chat is a list of {{\"role\", \"content\"}})")
        content = message.get("content")
        if isinstance(content, list):
            content = "\n".join(part.get("text", "") if isinstance(part, dict) else part
                                for part in content if isinstance(part, str) or
                                (isinstance(part, dict) and isinstance(part.get("text"), str)))
        elif content is None:
            content = ""
        if not isinstance(content, str):
            return Problem(number, f"message {position}'s content is a JSON {type(content).__name__}, not text")
        pairs.append((role, content))
    return Record(number, None, tuple(pairs))


def _csv_records(lines: Iterable[str], column: str | None) -> Iterator[Record | Problem]:
    long_lines: list[int] = []

    def bounded() -> Iterator[str]:
        for number, line in _numbered(lines):
            if line is None:
                long_lines.append(number)
                yield "\n"
            else:
                yield line

    reader = csv.reader(bounded())
    index, start, name, rows = None, 1, "", 0
    while True:
        try:
            row = next(reader, None)
        except csv.Error as exc:
            too_big = "field larger than field limit" in str(exc)
            reason = f"a cell is longer than {csv.field_size_limit():,} characters" if too_big else f"not CSV ({exc})"
            yield Problem(start, reason)
            start = reader.line_num + 1
            continue
        yield from (_too_long(n) for n in long_lines)
        long_lines.clear()
        if row is None:
            break
        number, start = start, reader.line_num + 1
        if not any(cell.strip() for cell in row):
            continue
        rows += 1
        if index is None:
            index = _column_index(row, column)
            name = row[index].strip()
        elif index >= len(row):
            yield Problem(number, f"the row has {plural(len(row), 'value')}: none in column {name!r}")
        else:
            yield Record(number, row[index])
    if index is not None and rows == 1:
        raise EstimateInputError(f"the CSV has a header row (column {name!r}) but no rows under it")


def _column_index(header: list[str], column: str | None) -> int:
    names = [name.strip() for name in header]
    if column is None and len(names) == 1:
        return 0
    if column is not None and column.strip() in names:
        return names.index(column.strip())
    there = ", ".join(repr(name) for name in names[:20]) + (", ..." if len(names) > 20 else "")
    if column is None:
        raise EstimateInputError(f"name the CSV column to count; the columns are {there}")
    raise EstimateInputError(f"the CSV has no column {column!r}; its columns are {there}")


__all__ = ["EstimateInputError", "KINDS", "MAX_RECORD_CHARS", "Problem", "Record", "TEXT_FIELDS", "iter_records",
           "lines_of", "read_records"]
