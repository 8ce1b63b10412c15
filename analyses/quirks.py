"""Quirks: the places where token counts surprise people, as small pure helpers.

Each helper builds the inputs of one experiment, or reads its result; the
tokenizer itself (any :class:`~tokenizer.interface.TextTokenizer`) does the
counting, so every figure a page shows is measured.

- a word at the very start of a text, after a space, after a line break
  (:func:`space_forms`) and in lower case, Capitalised or CAPITALS
  (:func:`case_forms`): different bytes, so different tokens;
- counts do not add up when texts are joined (:func:`join_counts`): merges
  can cross the join, so count the final prompt, never the parts;
- the same records as CSV and as JSON, compact or indented
  (:func:`format_variants`): whitespace and repeated keys cost tokens;
- letters inside tokens (:func:`letter_counts`): a model reads token ids,
  not letters;
- pre-split pieces that start with a combining mark
  (:func:`pieces_starting_with_mark`): a vowel sign cut off its letter before
  any merge could join them.

>>> space_forms("chai")
(('start', 'chai'), ('space', ' chai'), ('newline', '\\nchai'))
>>> [text for _, text in case_forms("chai")]
['chai', 'Chai', 'CHAI']
"""

from __future__ import annotations

import csv
import io
import json
import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from difflib import SequenceMatcher
from typing import Any

from i18n import N_, _, _n, number
from tokenizer.interface import TextTokenizer, Token

# -- spaces and capitals -------------------------------------------------------------------------------


def space_forms(word: str) -> tuple[tuple[str, str], ...]:
    """The same word where a text can put it: at the very start, after a space, at the start of a new line.

    Keys: ``"start"``, ``"space"``, ``"newline"``. Spaces around ``word`` are taken off first.
    """
    word = word.strip()
    return (("start", word), ("space", " " + word), ("newline", "\n" + word))


def case_forms(word: str, *, leading_space: bool = False) -> tuple[tuple[str, str], ...]:
    """The word in lower case, Capitalised and in CAPITALS (keys ``"lower"``, ``"title"``, ``"upper"``),
    each after a space when ``leading_space`` (where a word sits inside a sentence).

    >>> case_forms("Indore", leading_space=True)
    (('lower', ' indore'), ('title', ' Indore'), ('upper', ' INDORE'))
    """
    word = word.strip()
    lead = " " if leading_space else ""
    title = word[:1].upper() + word[1:].lower()
    return (("lower", lead + word.lower()), ("title", lead + title), ("upper", lead + word.upper()))


# -- counts that do not add up ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Joined:
    """Texts counted one by one, and joined.

    ``parts``         each text's tokens, encoded on its own.
    ``whole``         the joined text's tokens.
    ``part_changed``  per part, per token: True where the token is not in the joined encoding.
    ``whole_changed`` per token of the joined text: True where it is not one of the parts' tokens
                      (the merges that crossed a join, or a piece cut differently).
    """

    parts: tuple[tuple[Token, ...], ...]
    whole: tuple[Token, ...]
    part_changed: tuple[tuple[bool, ...], ...]
    whole_changed: tuple[bool, ...]

    @property
    def counts(self) -> tuple[int, ...]:
        return tuple(len(p) for p in self.parts)

    @property
    def sum_of_parts(self) -> int:
        return sum(self.counts)

    @property
    def total(self) -> int:
        """The count that matters: the joined text's."""
        return len(self.whole)

    @property
    def difference(self) -> int:
        """``total - sum_of_parts``: negative when the joined text costs fewer tokens than its parts."""
        return self.total - self.sum_of_parts


def join_counts(tokenizer: TextTokenizer, parts: Sequence[str]) -> Joined:
    """Count ``parts`` one by one and joined, and find where the joined encoding differs.

    The tokens are lined up by their bytes (the longest runs of tokens the two encodings share);
    whatever is left over is where they differ.

    >>> from tokenizer import train
    >>> tok = train("chaiwala chaiwala chai", 7, unit="chars").tokenizer
    >>> j = join_counts(tok, ["chai", "wala"])
    >>> j.counts, j.sum_of_parts, j.total, [t.label for t in j.whole]
    ((1, 4), 5, 1, ['chaiwala'])
    >>> j.whole_changed, j.part_changed
    ((True,), ((True,), (True, True, True, True)))
    """
    encoded = [tuple(tokenizer.encode_tokens(p)) for p in parts]
    whole = tuple(tokenizer.encode_tokens("".join(parts)))
    flat = [t.bytes for tokens in encoded for t in tokens]
    joined = [t.bytes for t in whole]
    flat_changed = [True] * len(flat)
    whole_changed = [True] * len(joined)
    for block in SequenceMatcher(None, flat, joined, autojunk=False).get_matching_blocks():
        for k in range(block.size):
            flat_changed[block.a + k] = False
            whole_changed[block.b + k] = False
    part_changed = []
    start = 0
    for tokens in encoded:
        part_changed.append(tuple(flat_changed[start : start + len(tokens)]))
        start += len(tokens)
    return Joined(tuple(encoded), whole, tuple(part_changed), tuple(whole_changed))


# -- formatting ------------------------------------------------------------------------------------------

FORMATS = {  # marked for the catalogue: a page draws them through i18n._
    "csv": N_("CSV"),
    "compact": N_("JSON, compact"),
    "indented": N_("JSON, indented"),
    "escaped": N_("JSON, indented, non-ASCII escaped"),
}
"""The ways :func:`format_variants` writes the same records, with their names."""

MAX_RECORDS = 1_000
MAX_CSV_CHARS = 50_000
"""The longest CSV text :func:`records_from_csv` reads: a few pages of records, far more than a quirk needs."""
MAX_FIELDS = 50
"""The most fields a record may have: enough for any table a lesson shows, few enough to read."""
MAX_NAMES_WRITTEN = 100_000
"""The most characters of field names the records may make JSON write (JSON writes every name in every record,
so 1,000 records of 2,000 characters of names would be 2,000,000 characters from 50,000 of CSV)."""
_INT = re.compile(r"[+-]?[0-9]{1,15}")
_FLOAT = re.compile(r"[+-]?[0-9]{1,15}\.[0-9]{1,15}")


def _value(cell: str) -> Any:
    """A CSV cell as JSON would hold it: a number stays a number, everything else is text.

    Only ASCII digits make a number: ``१५`` stays text, as written (JSON would write it as ``15``).

    >>> _value("15"), _value("-2.5"), _value("१५"), _value("15 rupees")
    (15, -2.5, '१५', '15 rupees')
    """
    if _INT.fullmatch(cell):
        return int(cell)
    if _FLOAT.fullmatch(cell):
        return float(cell)
    return cell


def records_from_csv(text: str) -> list[dict[str, Any]]:
    """Records from CSV text: the first line names the fields, each later line is one record.

    A line may end in ``\\n``, ``\\r\\n`` or a bare ``\\r`` (old Mac files, a ``%0D`` in a link). Any text gives
    records or a ``ValueError`` saying what is wrong, and what the records make is bounded: :data:`MAX_CSV_CHARS`
    of text, :data:`MAX_RECORDS` records of at most :data:`MAX_FIELDS` fields, :data:`MAX_NAMES_WRITTEN`
    characters of field names written as JSON.

    >>> records_from_csv("item,price\\nchai,15\\nsamosa,20")
    [{'item': 'chai', 'price': 15}, {'item': 'samosa', 'price': 20}]
    >>> records_from_csv("name,city\\rAsha,Pune")
    [{'name': 'Asha', 'city': 'Pune'}]
    """
    if len(text) > MAX_CSV_CHARS:
        raise ValueError(_("That is {n} characters of records; this lab reads up to {most}.", n=number(len(text)),
                           most=number(MAX_CSV_CHARS)))
    lines = io.StringIO(text.strip().replace("\r\n", "\n").replace("\r", "\n"))
    reader = csv.reader(lines)
    rows: list[list[str]] = []
    try:
        for row in reader:
            if len(row) > MAX_FIELDS:
                raise ValueError(_("Line {line} has {n} values; this lab takes up to {most} fields a record.",
                                   line=number(reader.line_num), n=number(len(row)), most=number(MAX_FIELDS)))
            if any(cell.strip() for cell in row):
                rows.append(row)
            if len(rows) - 1 > MAX_RECORDS:
                raise ValueError(_("That is more than {most} records; this lab takes up to {most}.",
                                   most=number(MAX_RECORDS)))
    except csv.Error as exc:  # a net: with the line ends made one and the size bounded, none is known to happen
        raise ValueError(_("Line {line} is not CSV the lab can read ({why}).", line=number(reader.line_num),
                           why=exc)) from None
    if len(rows) < 2:
        raise ValueError(_("Write a header line with the field names, then at least one record, one per line."))
    header = [name.strip() for name in rows[0]]
    if any(not name for name in header):
        raise ValueError(_("Every field in the header line needs a name."))
    if len(set(header)) != len(header):
        raise ValueError(_("Two fields in the header line have the same name."))
    written = (len(rows) - 1) * sum(len(name) for name in header)
    if written > MAX_NAMES_WRITTEN:
        raise ValueError(_("JSON writes the field names in every record: {records} records would write {n} "
                           "characters of names; this lab takes up to {most}. Use fewer records or shorter field "
                           "names.", records=number(len(rows) - 1), n=number(written), most=number(MAX_NAMES_WRITTEN)))
    records = []
    for line, row in enumerate(rows[1:], start=2):
        if len(row) != len(header):
            raise ValueError(_n("Line {line} has {n} value, but the header names {fields}.",
                                "Line {line} has {n} values, but the header names {fields}.", len(row),
                                line=number(line), fields=_n("{n} field", "{n} fields", len(header))))
        records.append({name: _value(cell.strip()) for name, cell in zip(header, row)})
    return records


def format_variants(records: Sequence[dict[str, Any]]) -> dict[str, str]:
    """The same records written each way of :data:`FORMATS` (key -> text).

    >>> v = format_variants([{"item": "चाय", "price": 15}])
    >>> v["compact"], v["escaped"].split("\\n")[2]
    ('[{"item":"चाय","price":15}]', '    "item": "\\\\u091a\\\\u093e\\\\u092f",')
    >>> v["csv"]
    'item,price\\nचाय,15\\n'
    """
    records = list(records)
    out = io.StringIO()
    if records:
        writer = csv.DictWriter(out, fieldnames=list(records[0]), lineterminator="\n")
        writer.writeheader()
        writer.writerows(records)
    return {
        "csv": out.getvalue(),
        "compact": json.dumps(records, ensure_ascii=False, separators=(",", ":")),
        "indented": json.dumps(records, ensure_ascii=False, indent=2),
        "escaped": json.dumps(records, indent=2),
    }


# -- letters ---------------------------------------------------------------------------------------------


def letter_counts(chunks: Sequence[bytes], letter: str, *, ignore_case: bool = True) -> list[int]:
    """How many times ``letter`` occurs inside each token (given as its bytes).

    A letter whose bytes are split across two tokens is in neither (compare with the text's own count).

    >>> letter_counts([b"str", b"aw", b"berry"], "r")
    [1, 0, 2]
    >>> letter_counts([b"R", b"\\xe0\\xa4"], "r")
    [1, 0]
    """
    if not letter:
        raise ValueError(_("Type the letter to count."))
    fold = (lambda s: s.casefold()) if ignore_case else (lambda s: s)
    target = fold(letter)
    return [fold(data.decode("utf-8", errors="ignore")).count(target) for data in chunks]


def count_letter(text: str, letter: str, *, ignore_case: bool = True) -> int:
    """How many times ``letter`` occurs in ``text``.

    >>> count_letter("Strawberry", "R"), count_letter("Strawberry", "R", ignore_case=False)
    (3, 0)
    """
    if not letter:
        raise ValueError(_("Type the letter to count."))
    if ignore_case:
        return text.casefold().count(letter.casefold())
    return text.count(letter)


# -- the pre-split ---------------------------------------------------------------------------------------


def starts_with_mark(piece: str) -> bool:
    """True when a piece begins with a combining mark (a vowel sign, a virama…): cut off its letter.

    >>> starts_with_mark("े"), starts_with_mark(" शहर"), starts_with_mark("ोहर")
    (True, False, True)
    """
    return bool(piece) and unicodedata.category(piece[0]).startswith("M")


def pieces_starting_with_mark(pieces: Sequence[str]) -> list[int]:
    """The positions of the pieces that begin with a combining mark.

    >>> pieces_starting_with_mark(["घन", "े", " क", "ोहर", "े"])
    [1, 3, 4]
    """
    return [i for i, piece in enumerate(pieces) if starts_with_mark(piece)]


__all__ = [
    "FORMATS",
    "Joined",
    "MAX_CSV_CHARS",
    "MAX_FIELDS",
    "MAX_NAMES_WRITTEN",
    "MAX_RECORDS",
    "case_forms",
    "count_letter",
    "format_variants",
    "join_counts",
    "letter_counts",
    "pieces_starting_with_mark",
    "records_from_csv",
    "space_forms",
    "starts_with_mark",
]
