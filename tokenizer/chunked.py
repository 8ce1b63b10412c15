"""Counting tokens of a text of any length in bounded memory: cut it where no tokenizer can join across.

Every tokenizer ``count`` offers cuts text into pieces before any merge (its pre-split), and no
token crosses a piece. :func:`cut_text` cuts a stream of text only at places that are piece
boundaries for all of them, whatever comes before or after, so each cut part can be encoded on
its own (:func:`encode_parts`) and the ids join into the whole text's ids. Two kinds of place:

``line``   after a newline between two visible characters, the second not ``/``
           (``"x\\nY"`` and ``'}\\n{"'`` are cut after the ``\\n``: a JSONL file's every line end);
``word``   before a single space between two letters (``"ab cd"`` is cut before the space).

Why these hold for each pre-split:

- the tiktoken patterns (GPT-2/3/4/4o, Llama 3, Qwen, Mistral Tekken): no alternative puts a
  newline and a visible character after it in one piece, but GPT-4o's and Tekken's
  ``[^\\s\\p{L}\\p{N}]+[\\r\\n/]*`` (punctuation, then newlines and slashes: ``}\\n/``), hence no
  cut before ``/``. A piece that starts at a visible character never reaches back (the one
  character a piece may take in front of its letters is never a newline: ``[^\\r\\n\\p{L}\\p{N}]?``;
  of a punctuation run, only a space: `` ?``); the newline runs ``\\s*[\\r\\n]+``, ``\\s+(?!\\S)``
  and ``\\s+`` stop at a visible character. A letter run stops at a space, and a space before a
  letter starts a new piece. The one alternative that looks at the end of the text,
  ``\\s++$``, sees only the newline (the character before it is visible), which ``\\s`` takes
  alone anyway. Qwen3 normalises to NFC first: a newline and a space compose with nothing and
  the character after a cut is a starter or, a mark, composes with no newline, so NFC of the
  parts is NFC of the whole;
- SentencePiece (Mistral v3) has no pre-split but starts a word at each space, and no piece of
  its vocabulary holds a newline; it also adds a space in front of the text, which a part after
  the first must not get: each such part is encoded after a short seed (``"a"`` before a space,
  ``"a\\n"`` before a letter), whose own tokens are then taken off;
- the lab's own models split by whitespace, or by one of the lab's patterns (`` ?\\S+``, GPT-2's,
  GPT-4's): the same reasoning. A model with a pattern of its own may join anything
  (``[\\s\\S]+``), so it cannot be cut: :func:`cuts_safely` says so and ``count`` holds that text
  whole (up to the 100 MB every command reads).

The claim is checked, not only argued: tests/test_cli_bounds.py compares the parts' ids with the
whole text's for every tokenizer on generated text (hypothesis) and on the bench corpus.

>>> list(cut_text(["one two\\nthree fo", "ur. x", "y"], target=4))    # the last cut in what has come
['one two\\nthree', ' four. xy']
"""

from __future__ import annotations

import os
import re
from array import array
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import TypeVar

import regex

from .pretokenize import word_count

PART_CHARS = 1 << 18
"""How much text is gathered before it is cut and encoded (256 K characters): the ids of one part are
what ``count`` holds at a time (about 10 MB for GPT-4)."""

MAX_UNCUT_CHARS = 10_000_000
"""The longest stretch of text without a place to cut (10 M characters): longer, and the text is
refused rather than held (a line of 10 MB with no space between two words is not prose)."""

MAX_IDS_HELD = 25_000_000
"""``--json`` prints every id, so it holds them (4 bytes each): at most 25 M ids in all (100 MB)."""

_VISIBLE = r"[\p{L}\p{M}\p{N}\p{P}\p{S}]"  # never whitespace, in any Unicode version
_CUT = regex.compile(rf"(?r)(?<={_VISIBLE})\n(?=(?!/){_VISIBLE})|(?<=\p{{L}}) (?=\p{{L}})")
"""The newline or the space of a cut place, searched from the end (``(?r)``): the last one in a
stretch of text (the pattern starts at a newline or a space, which keeps the search fast)."""

_SEED_WORD = "a"  # before a part that starts with a space
_SEED_LINE = "a\n"  # before a part that starts at a visible character (after a newline)

T = TypeVar("T")
R = TypeVar("R")


class TooLongWithoutCut(ValueError):
    """The text has more than :data:`MAX_UNCUT_CHARS` characters with no place to cut."""


def cut_text(fragments: Iterable[str], target: int = PART_CHARS, most: int = MAX_UNCUT_CHARS,
             what: str = "the text") -> Iterator[str]:
    """The text of ``fragments`` (pieces of one text, cut anywhere) again, in parts of about
    ``target`` characters that end at cut places (the last part ends where the text does).

    Holds at most ``most`` + one fragment: a longer stretch with no cut raises :class:`TooLongWithoutCut`.
    """
    buffer = ""
    searched = 0  # everything before this was searched and has no cut
    for fragment in fragments:
        buffer += fragment
        while len(buffer) >= target:
            # A reversed search sees only its slice, lookbehinds too: it starts a character early.
            match = _CUT.search(buffer, max(searched - 1, 0))
            if match is None:
                if len(buffer) > most:
                    raise TooLongWithoutCut(
                        f"{what} has more than {most / 1e6:,.0f} MB with no line break and no space between "
                        "two words, where count cuts text to count it in pieces: break it into lines"
                    )
                searched = max(len(buffer) - 2, 0)
                break
            at = match.end() if match.group() == "\n" else match.start()  # after a newline, before a space
            yield buffer[:at]
            buffer = buffer[at:]
            searched = 0
    if buffer:
        yield buffer


_LINE_END = re.compile(r"\r\n?|\n")


def iter_lines(fragments: Iterable[str], most: int = MAX_UNCUT_CHARS) -> Iterator[str]:
    r"""The lines of the text of ``fragments`` (pieces of one text, cut anywhere), each with its ending, as a file
    opened with ``newline=""`` gives them: a line ends at ``\n``, ``\r\n`` or a bare ``\r`` (and nowhere else:
    not at U+2028 or a form feed, as ``str.splitlines`` would). A line longer than ``most`` characters comes in
    pieces of ``most`` (as ``readline(most)`` gives it), so memory stays bounded.

    >>> list(iter_lines(["a\r", "\nb\rc", "\u2028d\n", "e"]))
    ['a\r\n', 'b\r', 'c\u2028d\n', 'e']
    >>> list(iter_lines(["abcdefg\nh"], most=3))
    ['abc', 'def', 'g\n', 'h']
    """
    buffer = ""
    for fragment in fragments:
        buffer += fragment
        start = 0
        while (end := _LINE_END.search(buffer, start)) is not None:  # each search runs to the next line end only
            if end.group() == "\r" and end.end() == len(buffer):
                break  # a \r\n may be cut between two fragments: wait for the next
            line, start = buffer[start:end.end()], end.end()
            while len(line) > most:
                yield line[:most]
                line = line[most:]
            yield line
        buffer = buffer[start:]
        while len(buffer) > most:
            yield buffer[:most]
            buffer = buffer[most:]
    if buffer:
        yield buffer


def cuts_safely(tokenizer) -> bool:
    """Whether ``tokenizer``'s pre-split never joins across :func:`cut_text`'s cut places: every
    production tokenizer (which says so: ``cuts_safely = True``), and a lab model that splits by whitespace or
    by one of the lab's patterns."""
    from .model import Tokenizer
    from .pretokenize import DEFAULT_PATTERN, GPT2_PATTERN, GPT4_PATTERN

    if isinstance(tokenizer, Tokenizer):
        config = tokenizer.config
        return config.split == "whitespace" or config.pattern in (DEFAULT_PATTERN, GPT2_PATTERN, GPT4_PATTERN)
    return getattr(tokenizer, "cuts_safely", False) is True


def encode_parts(encode: Callable[[str], Sequence[int]], parts: Iterable[str]) -> Iterator[Sequence[int]]:
    """The ids of each part from :func:`cut_text` (or of a text given whole, as one part),
    in the context of the text before it: joined, they are the whole text's ids."""
    part_encoder = _PartEncoder(encode)
    for index, part in enumerate(parts):
        yield part_encoder(index, part)


class _PartEncoder:
    """``encode`` for the part at ``index`` of a cut text, alone: a part after the first is encoded after a
    short seed whose own tokens are taken off (see the module's docstring). Safe to call from several threads
    (the seeds' lengths are measured once, up front)."""

    def __init__(self, encode: Callable[[str], Sequence[int]]) -> None:
        self.encode = encode
        self.seeds = {seed: len(encode(seed)) for seed in (_SEED_WORD, _SEED_LINE)}

    def __call__(self, index: int, part: str) -> Sequence[int]:
        if index == 0 or not part:
            return self.encode(part)
        seed = _SEED_WORD if part[0] == " " else _SEED_LINE
        return self.encode(seed + part)[self.seeds[seed]:]


@dataclass
class Counted:
    """What :func:`count_parts` found: per tokenizer its token count (and its ids when kept),
    and the text's words, characters and UTF-8 bytes."""

    tokens: list[int]
    ids: list[array] | None
    words: int = 0
    characters: int = 0
    bytes: int = 0
    parts: int = 0


def workers_for(tokenizers: Sequence) -> int:
    """How many threads :func:`count_parts` should encode with: one per core this process may run on (at most
    :data:`MAX_WORKERS`) when every tokenizer is a production one (tiktoken, SentencePiece and Tekken encode in
    native code and let go of the GIL meanwhile; they are read-only, shared by every caller); else 1 (a lab
    model encodes in Python, where threads only take turns)."""
    from .model import Tokenizer

    if not tokenizers or any(isinstance(tok, Tokenizer) for tok in tokenizers):
        return 1
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        cores = os.cpu_count() or 1
    return max(1, min(cores, MAX_WORKERS))


MAX_WORKERS = 8
"""The most threads :func:`count_parts` encodes with; each holds a part and its ids (about 10 MB) at a time."""


def count_parts(tokenizers: Sequence, parts: Iterable[str], keep_ids: bool = False,
                most_ids: int = MAX_IDS_HELD, workers: int = 1) -> Counted:
    """Count the tokens of a text given as parts (from :func:`cut_text`, or one part) with each
    tokenizer, in one pass: memory is one part (``workers`` parts, two each in flight, when several threads
    encode) and, with ``keep_ids``, the ids (at most ``most_ids`` in all, else ValueError).

    With ``workers`` > 1 the parts are encoded by that many threads, each part whole by one thread, and added
    up in the parts' order: the same counts and ids as one thread gives (tokenizers that release the GIL run
    truly in parallel, see :func:`workers_for`)."""
    counted = Counted([0] * len(tokenizers), [array("i") for _ in tokenizers] if keep_ids else None)
    encoders = [_PartEncoder(tok.encode) for tok in tokenizers]

    def work(job: tuple[int, str]) -> tuple[int, int, int, list]:
        index, part = job
        found = [encode(index, part) for encode in encoders]
        data = part.encode("utf-8", "surrogatepass")
        # the parts are cut at white space: their word counts add up
        return words_in(part, data), len(part), len(data), found if keep_ids else [len(ids) for ids in found]

    held = 0
    for words, characters, size, found in ordered_map(work, enumerate(parts), workers):
        counted.parts += 1
        counted.words += words
        counted.characters += characters
        counted.bytes += size
        for i, ids in enumerate(found):
            if counted.ids is None:
                counted.tokens[i] += ids
                continue
            counted.tokens[i] += len(ids)
            held += len(ids)
            if held > most_ids:
                raise ValueError(
                    f"--json lists every token id, and this text has more than {most_ids:,} tokens: "
                    "leave out --json to count a text of any length, or give a shorter one"
                )
            counted.ids[i].extend(ids)
    return counted


_WIDE_SPACES = tuple((lead, re.compile(pattern)) for lead, pattern in (
    (b"\xc2", rb"\xc2[\x85\xa0]"),  # U+0085, U+00A0
    (b"\xe1", rb"\xe1\x9a\x80"),  # U+1680
    (b"\xe2", rb"\xe2(?:\x80[\x80-\x8a\xa8\xa9\xaf]|\x81\x9f)"),  # U+2000-200A, U+2028, U+2029, U+202F, U+205F
    (b"\xe3", rb"\xe3\x80\x80"),  # U+3000
))
"""The white space ``str.split`` knows beyond ASCII (all of it: ``str.isspace`` outside ASCII) in UTF-8, each
behind its lead byte (a one-byte search is a ``memchr``: far faster than any pattern over the whole text)."""
_MARK = bytes(0x20 if chr(b).isspace() else 0x78 for b in range(128)) + b"x" * 128
"""Each UTF-8 byte as ``" "`` (an ASCII white-space character) or ``"x"`` (anything else; every byte of a
character beyond ASCII is 0x80 or more)."""


def words_in(text: str, data: bytes | None = None) -> int:
    r""":func:`~tokenizer.pretokenize.word_count` of ``text`` (``len(text.split())``), counted without building
    the words: in its UTF-8 bytes (``data``, when already encoded), each white-space byte marked, the words are
    the places where a mark follows a space. A text with white space beyond ASCII is split as usual.

    >>> words_in(" chai  pani\n\x1cचाय\t"), words_in("a\u3000b"), words_in("")
    (3, 2, 0)
    """
    if data is None:
        data = text.encode("utf-8", "surrogatepass")
    if any(lead in data and pattern.search(data) for lead, pattern in _WIDE_SPACES):
        return word_count(text)
    marked = data.translate(_MARK)
    return marked.count(b" x") + marked.startswith(b"x")


def ordered_map(function: Callable[[T], R], items: Iterable[T], workers: int = 1) -> Iterator[R]:
    """``map(function, items)`` run by ``workers`` threads, results in the items' order, with at most two
    items a thread in flight (``items`` is read only as fast as results are taken: a stream stays a stream).
    An exception in ``function`` is raised here, at its item's turn; the items not yet started are dropped."""
    if workers <= 1:
        yield from map(function, items)
        return
    from concurrent.futures import ThreadPoolExecutor

    pending: deque = deque()
    with ThreadPoolExecutor(workers, thread_name_prefix="count") as pool:
        try:
            for item in items:
                pending.append(pool.submit(function, item))
                if len(pending) >= 2 * workers:
                    yield pending.popleft().result()
            while pending:
                yield pending.popleft().result()
        finally:
            for future in pending:
                future.cancel()


__all__ = ["MAX_IDS_HELD", "MAX_UNCUT_CHARS", "MAX_WORKERS", "PART_CHARS", "Counted", "TooLongWithoutCut",
           "count_parts", "cut_text", "cuts_safely", "encode_parts", "iter_lines", "ordered_map", "words_in", "workers_for"]
