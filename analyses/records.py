"""Records from a text or a dataset, read as a stream: the whole text, each line, each JSONL record, each CSV row.

Part of the estimate (:mod:`analyses.estimate`, which re-exports every name here). The text comes as fragments (pieces
of one text, cut anywhere: a file read a part at a time, or a whole text in one piece), and its records come out a
batch at a time (:func:`batches`: each batch the records of about one fragment, as plain lists, so that millions of
short records cost little more than their text). :func:`iter_records` and :func:`read_records` give the same records
one :class:`Record` at a time. Each record is bounded (:data:`MAX_RECORD_CHARS`), so a file of any size streams
through in bounded memory. Whatever the text, a record comes out or a :class:`Problem` saying why not; only input
with nothing to count at all, or a CSV without the column asked for, stops with an :class:`EstimateInputError`.

The Estimate page and the command line both read through :func:`batches`: the same text gives the same records.

>>> read_records("name,city\\rAsha,Pune\\r\\rRavi,Indore", "csv", column="city")
([Record(number=2, text='Pune', messages=None), Record(number=4, text='Indore', messages=None)], [])
"""

from __future__ import annotations

import csv
import json
import json.scanner
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from i18n import N_, _, _n
from i18n import number as number_of


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

BATCH_RECORDS = 4096
"""The most records in one batch of a CSV (lines and JSONL come a fragment at a time)."""

Messages = tuple[tuple[str, ...], ...]
"""A chat: its messages as (role, content), or (role, content, name) for a message with a ``name``."""


@dataclass(frozen=True)
class Record:
    """One record: its 1-based ``number`` (its line; for CSV the line its row starts on, the header being
    line 1), and either ``text`` or a chat's ``messages`` ((role, content) pairs; (role, content, name) for a
    message with a name)."""

    number: int
    text: str | None
    messages: Messages | None = None


@dataclass(frozen=True)
class Problem:
    """A record that could not be read (a broken JSONL line, a row without the column...): its number and why."""

    number: int
    reason: str


@dataclass(slots=True)
class Batch:
    """Records read together, as plain lists (no object a record): record ``i`` is on line ``numbers[i]`` and is
    the text ``texts[i]``, or, where that is None, the chat ``chats[i]``. ``problems``: the records of these lines
    that could not be read. ``characters``: how much of the text was read to make this batch (for progress)."""

    numbers: list[int] = field(default_factory=list)
    texts: list[str | None] = field(default_factory=list)
    chats: dict[int, Messages] = field(default_factory=dict)
    problems: list[Problem] = field(default_factory=list)
    characters: int = 0

    def __len__(self) -> int:
        return len(self.numbers)

    def add(self, number: int, item: str | Messages | Problem) -> None:
        """Add a record's text or chat, or a problem, on line ``number``."""
        if isinstance(item, Problem):
            self.problems.append(item)
        elif isinstance(item, str):
            self.numbers.append(number)
            self.texts.append(item)
        else:
            self.chats[len(self.numbers)] = item
            self.numbers.append(number)
            self.texts.append(None)

    def records(self) -> Iterator[Record | Problem]:
        """The batch one record (or problem) at a time, in line order."""
        problems = iter(self.problems)
        problem = next(problems, None)
        for i, (number, text) in enumerate(zip(self.numbers, self.texts)):
            while problem is not None and problem.number < number:
                yield problem
                problem = next(problems, None)
            yield Record(number, text) if text is not None else Record(number, None, self.chats[i])
        if problem is not None:
            yield problem
            yield from problems


# -- reading --------------------------------------------------------------------------------------------------


def batches(fragments: Iterable[str], kind: str, field: str | None = None,
            column: str | None = None) -> Iterator[Batch]:
    """The records of the text given as ``fragments`` (pieces of one text, cut anywhere), a batch at a time, with a
    :class:`Problem` for each that cannot be read.

    ``kind`` is one of :data:`KINDS`. ``text``: the whole text is one record. ``lines``: each line that is not
    blank (a line ends at ``\\n``, ``\\r\\n`` or a bare ``\\r``, as in a file opened with ``newline=""``; not at a
    form feed or U+2028, which ``str.splitlines`` would cut at). ``jsonl``: each line that is not blank is a JSON
    object; with ``field=None`` its ``messages`` (a chat: a list of ``{"role", "content"}``) if there, else its
    ``text`` or ``prompt``; with ``field="x"`` its ``x`` (a string or a chat). A chat's content may be OpenAI's list
    of parts: its text parts are joined by a line break (images and other parts are not counted). ``csv``: the
    header row names the columns; ``column`` is the one counted (it may be left out when there is only one).

    Raises :class:`EstimateInputError` for input with nothing to count, an unknown kind, a CSV without the
    column (naming the columns there are) or with a header row and no rows.
    """
    if kind not in KINDS:
        raise EstimateInputError(f"unknown kind of input {kind!r}; use one of {', '.join(KINDS)}")
    readers = {"text": _text_batches, "lines": _line_batches, "jsonl": _jsonl_batches, "csv": _csv_batches}
    found = False
    for batch in readers[kind](_pieces(fragments), field if kind == "jsonl" else column):
        found = found or bool(batch.numbers or batch.problems)
        yield batch
    if not found:
        raise EstimateInputError(_("there is nothing to count: the input is empty (or only blank lines)"))


FRAGMENT_CHARS = 1 << 18
"""A fragment longer than this (a whole text given in one piece) is read this much at a time, so a batch, and what
reading it holds, stays bounded (20 MB of two-letter lines split at once would be 7 million strings)."""


def _pieces(fragments: Iterable[str]) -> Iterator[str]:
    for fragment in fragments:
        if len(fragment) <= FRAGMENT_CHARS:
            yield fragment
        else:
            yield from (fragment[i:i + FRAGMENT_CHARS] for i in range(0, len(fragment), FRAGMENT_CHARS))


def iter_records(lines: Iterable[str], kind: str, field: str | None = None,
                 column: str | None = None) -> Iterator[Record | Problem]:
    """The records of ``lines`` (any pieces of one text: a file opened with ``newline=""``, :func:`lines_of` one, or
    a text in one piece), one at a time in line order: :func:`batches`, record by record."""
    for batch in batches(lines, kind, field, column):
        yield from batch.records()


def read_records(text: str, kind: str, field: str | None = None,
                 column: str | None = None) -> tuple[list[Record], list[Problem]]:
    """All the records of ``text`` and the problems met on the way (the page's convenience over iter_records)."""
    records: list[Record] = []
    problems: list[Problem] = []
    for item in iter_records([text], kind, field, column):
        if isinstance(item, Record):
            records.append(item)
        else:
            problems.append(item)
    return records, problems


def lines_of(file) -> Iterator[str]:
    """The lines of a text file object, each read with a bound (``readline(MAX_RECORD_CHARS + 1)``), so a
    file without line breaks is never read whole (as pieces of one text, they are what :func:`batches` reads)."""
    return iter(lambda: file.readline(MAX_RECORD_CHARS + 1), "")


_LINE_END = re.compile(r"\r\n?|\n")


def split_lines(fragments: Iterable[str]) -> Iterator[tuple[list[str | None], int]]:
    """The lines of the text of ``fragments``, a fragment at a time: (the lines ended in it, each without its line
    end, or None for a line longer than :data:`MAX_RECORD_CHARS`; the fragment's length). Every line is one entry,
    blank ones too, so its place in the lists is its line number. A line longer than the bound is never held: once
    it has passed the bound, the rest of it is skipped as it comes.

    >>> [line for lines, _ in split_lines(["a\\r", "\\nb\\rc\\u2028d\\n", "e"]) for line in lines]
    ['a', 'b', 'c\\u2028d', 'e']
    """
    carry: list[str] = []  # the start of a line not ended yet
    size = 0  # its length
    skipping = False  # inside a line too long, already given as None: drop the rest of it
    after_cr = False  # the last fragment ended with \r: a \n at the start of this one ends no second line
    for fragment in fragments:
        if not fragment:
            continue
        read = len(fragment)
        if after_cr:
            after_cr = False
            if fragment[0] == "\n":
                fragment = fragment[1:]
                if not fragment:
                    yield [], read
                    continue
        after_cr = fragment[-1] == "\r"
        parts = _LINE_END.split(fragment) if "\r" in fragment else fragment.split("\n")
        done: list[str | None] = []
        if len(parts) == 1:  # no line ends here
            if not skipping:
                size += len(fragment)
                if size > MAX_RECORD_CHARS:
                    done.append(None)
                    carry, size, skipping = [], 0, True
                else:
                    carry.append(fragment)
            yield done, read
            continue
        head = parts[0]
        if skipping:  # the end of a line too long
            skipping = False
        else:
            if carry:
                carry.append(head)
                head = "".join(carry)
            done.append(head if len(head) <= MAX_RECORD_CHARS else None)
        middle = parts[1:-1]
        if middle and max(map(len, middle)) > MAX_RECORD_CHARS:
            middle = [line if len(line) <= MAX_RECORD_CHARS else None for line in middle]
        done += middle
        last = parts[-1]
        carry, size = ([last], len(last)) if last else ([], 0)
        if size > MAX_RECORD_CHARS:
            done.append(None)
            carry, size, skipping = [], 0, True
        yield done, read
    if carry and not skipping:
        yield ["".join(carry)], 0


def _too_long(number: int) -> Problem:
    return Problem(number, _("the line is longer than {n} characters (skipped)", n=number_of(MAX_RECORD_CHARS)))


def _text_batches(fragments: Iterable[str], _unused: object) -> Iterator[Batch]:
    parts: list[str] = []
    size = 0
    for fragment in fragments:
        size += len(fragment)
        if size <= MAX_RECORD_CHARS:
            parts.append(fragment)
        else:
            parts.clear()  # read on to the end (a byte that is not UTF-8 further on is still reported)
    batch = Batch(characters=size)
    if size > MAX_RECORD_CHARS:
        batch.problems.append(Problem(1, _("the text is longer than {n} characters, the most one record (one "
                                           "request) may hold", n=number_of(MAX_RECORD_CHARS))))
    elif size:
        batch.add(1, "".join(parts))
    yield batch


def _line_batches(fragments: Iterable[str], _unused: object) -> Iterator[Batch]:
    number = 0
    for lines, read in split_lines(fragments):
        batch = Batch(characters=read)
        for line in lines:
            number += 1
            if line is None:
                batch.problems.append(_too_long(number))
            elif line and not line.isspace():  # what str.strip() would leave something of
                batch.numbers.append(number)
                batch.texts.append(line)
        yield batch


_DECODER = json.JSONDecoder(strict=False)  # strict=False: a tab or other control character inside a string is kept
_SCAN = json.scanner.make_scanner(_DECODER)  # type: ignore[arg-type]  # typeshed names the class, a decoder is what it takes  # one JSON value at an index: json.loads without its wrapping, per line
_MISSING = object()


def _jsonl_batches(fragments: Iterable[str], field: str | None) -> Iterator[Batch]:
    number = 0
    scan = _SCAN
    for lines, read in split_lines(fragments):
        batch = Batch(characters=read)
        numbers, texts = batch.numbers, batch.texts
        for line in lines:
            number += 1
            if line is None:
                batch.problems.append(_too_long(number))
                continue
            if not line or line.isspace():
                continue
            # The common case at C speed: one JSON object filling the line, its text a string.
            try:
                data, end = scan(line, 0)
            except Exception:  # not JSON, or white space before it: the full reading below says which
                data, end = _MISSING, -1
            if end == len(line) and type(data) is dict:
                if field is None:
                    value = data.get("messages", _MISSING)
                    if value is _MISSING:
                        value = data.get("text", _MISSING)
                        if value is _MISSING:
                            value = data.get("prompt", _MISSING)
                else:
                    value = data.get(field, _MISSING)
                if type(value) is str:
                    numbers.append(number)
                    texts.append(value)
                    continue
            batch.add(number, _jsonl_record(number, line, field))
        yield batch


# Python's JSON reader's reasons (json.JSONDecodeError.msg), each its own English word for word, so an English reason
# is the reader's; the frame gives the column. A reason not here is shown as the reader gives it.
JSON_REASONS = frozenset({
    N_("Expecting value"),
    N_("Expecting property name enclosed in double quotes"),
    N_("Expecting ':' delimiter"),
    N_("Expecting ',' delimiter"),
    N_("Unterminated string starting at"),
    N_("Invalid control character at"),
    N_("Invalid \\escape"),
    N_("Invalid \\uXXXX escape"),
    N_("Extra data"),
    N_("Illegal trailing comma before end of object"),
    N_("Illegal trailing comma before end of array"),
})


def json_reason(reason: str) -> str:
    """Python's JSON reader's ``reason`` for a broken line in the run's language, where the lab knows it."""
    return _(reason) if reason in JSON_REASONS else reason


def _jsonl_record(number: int, line: str, field: str | None) -> str | Messages | Problem:
    """A JSONL line's text, its chat, or the problem with it."""
    try:
        data = json.loads(line, strict=False)  # strict=False: a tab or other control character inside a string is kept
    except json.JSONDecodeError as exc:
        return Problem(number, _("not JSON ({why}, column {column})", why=json_reason(exc.msg),
                                 column=number_of(exc.colno)))
    except ValueError:  # Python's guard against converting a number of thousands of digits
        return Problem(number, _("a number too long to read"))
    except RecursionError:
        return Problem(number, _("JSON nested too deep to read"))
    if not isinstance(data, dict):
        return Problem(number, _("a JSON {type}, not an object ({{...}})", type=type(data).__name__))
    if field is None:
        field = next((name for name in ("messages", *TEXT_FIELDS) if name in data), None)
        if field is None:
            return Problem(number, _("no {messages}, {text} or {prompt} field (it has {names}): name the field",
                                     messages="'messages'", text="'text'", prompt="'prompt'", names=_names(data)))
    elif field not in data:
        return Problem(number, _("no field {field} (it has {names})", field=repr(field), names=_names(data)))
    value = data[field]
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        return _chat(number, value)
    return Problem(number, _("field {field} is a JSON {type}, not text or a chat", field=repr(field),
                             type=type(value).__name__))


def _names(data: dict) -> str:
    names = [repr(name) for name in list(data)[:10]]
    return ", ".join(names) + (", ..." if len(data) > 10 else "") if names else _("no fields")


def _chat(number: int, messages: list) -> Messages | Problem:
    """A chat from a list of ``{"role", "content"}``; content a string, null, or OpenAI's list of parts."""
    if not messages:
        return Problem(number, _("an empty chat (no messages)"))
    pairs = []
    for position, message in enumerate(messages, 1):
        role = message.get("role") if isinstance(message, dict) else None
        if not isinstance(role, str) or not role:
            return Problem(number, _('message {n} has no role (a chat is a list of {{"role", "content"}})',
                                     n=number_of(position)))
        content = message.get("content")
        if isinstance(content, list):
            content = "\n".join(part.get("text", "") if isinstance(part, dict) else part
                                for part in content if isinstance(part, str) or
                                (isinstance(part, dict) and isinstance(part.get("text"), str)))
        elif content is None:
            content = ""
        if not isinstance(content, str):
            return Problem(number, _("message {n}'s content is a JSON {type}, not text", n=number_of(position),
                                     type=type(content).__name__))
        name = message.get("name")
        pairs.append((role, content, name) if isinstance(name, str) and name else (role, content))
    return tuple(pairs)


def _lines_with_ends(fragments: Iterable[str]) -> Iterator[str | None]:
    """The lines of the text of ``fragments`` with their line ends (as a file opened with ``newline=""`` gives
    them, which the csv module needs for a quoted cell with a line break); None for a line too long."""
    from tokenizer.chunked import iter_lines

    skipping = False
    for piece in iter_lines(fragments, MAX_RECORD_CHARS + 1):
        ends = piece.endswith(("\n", "\r"))
        if skipping:
            skipping = not ends
            continue
        if len(piece.rstrip("\r\n")) > MAX_RECORD_CHARS:
            skipping = not ends
            yield None
        else:
            yield piece


def _csv_batches(fragments: Iterable[str], column: str | None) -> Iterator[Batch]:
    batch = Batch()
    for number, item in _csv_records(_lines_with_ends(fragments), column):
        batch.add(number, item)
        if len(batch.numbers) + len(batch.problems) >= BATCH_RECORDS:
            yield batch
            batch = Batch()
    yield batch


def _csv_records(lines: Iterable[str | None], column: str | None) -> Iterator[tuple[int, str | Problem]]:
    long_lines: list[int] = []
    line_number = 0

    def bounded() -> Iterator[str]:
        nonlocal line_number
        for line in lines:
            line_number += 1
            if line is None:
                long_lines.append(line_number)
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
            reason = (_("a cell is longer than {n} characters", n=number_of(csv.field_size_limit())) if too_big
                      else _("not CSV ({why})", why=exc))
            yield start, Problem(start, reason)
            start = reader.line_num + 1
            continue
        for n in long_lines:
            yield n, _too_long(n)
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
            yield number, Problem(number, _n("the row has {n} value: none in column {column}",
                                             "the row has {n} values: none in column {column}", len(row),
                                             column=repr(name)))
        else:
            yield number, row[index]
    if index is not None and rows == 1:
        raise EstimateInputError(_("the CSV has a header row (column {column}) but no rows under it",
                                   column=repr(name)))


def _column_index(header: list[str], column: str | None) -> int:
    names = [name.strip() for name in header]
    if column is None and len(names) == 1:
        return 0
    if column is not None and column.strip() in names:
        return names.index(column.strip())
    there = ", ".join(repr(name) for name in names[:20]) + (", ..." if len(names) > 20 else "")
    if column is None:
        raise EstimateInputError(_("name the CSV column to count; the columns are {columns}", columns=there))
    raise EstimateInputError(_("the CSV has no column {column}; its columns are {columns}", column=repr(column),
                               columns=there))


__all__ = ["BATCH_RECORDS", "Batch", "EstimateInputError", "KINDS", "MAX_RECORD_CHARS", "Messages", "Problem", "Record",
           "TEXT_FIELDS", "batches", "iter_records", "lines_of", "read_records", "split_lines"]
