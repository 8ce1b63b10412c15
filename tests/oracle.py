"""The oracle: the textbook BPE trainer, written as plainly as possible.

This module is the reference the engine's fast trainer (``tokenizer.train``)
is checked against. It shares no code with the fast path except the
pre-split (``tokenizer.split_text``), which is not the algorithm under test.
It is deliberately slow: after every merge it throws all counts away and
recounts every adjacent pair in every distinct word.

The algorithm, one step at a time:

1. Count every adjacent pair of symbols inside every distinct word, each
   occurrence weighted by how often the word occurs in the corpus.
2. Rank the pairs: highest count first; among equal counts, by the tie rule.
3. The top pair wins. It becomes a new symbol with the next free id.
4. In every word, replace the pair by the new symbol, scanning left to right,
   non-overlapping (``a a a`` with pair ``(a, a)`` becomes ``aa a``).
5. Repeat until the requested number of merges is reached or no word has
   two symbols left.

Numbering (it matches ``tokenizer.train``, so merges can be compared as ids):

``unit="chars"``  base ids are the characters in order of first appearance,
                  scanning the distinct words in order of first appearance,
                  each left to right; the end-of-word marker, if any, takes
                  the id right after the first word's characters.
``unit="bytes"``  ids 0-255 are the bytes; the marker, if any, is 256.
New ids follow the base symbols in creation order (256 or 257 for bytes).

Tie rules:

``"first"``  the pair met first when scanning the distinct words in order of
             first appearance, each left to right, over the current
             segmentation.
``"hf"``     the order of Hugging Face ``tokenizers``' ``BpeTrainer``: the
             smallest pair ``(id_a, id_b)`` in HF's numbering. There the base
             symbols are numbered in sorted order: for bytes, the 256 bytes
             sorted by their GPT-2 byte-level stand-in character (the marker,
             if any, after them); for chars, the base symbols sorted by their
             string. Merged tokens are numbered in creation order after all
             base symbols, exactly as here.

Use::

    from tests.oracle import train_textbook
    result = train_textbook("low low low lower lowest", 4, unit="chars", split="whitespace")
    result.merges   # [(0, 1), (7, 2), (8, 3), (9, 4)]  (l=0 o=1 w=2 e=3 r=4 s=5 t=6)
    result.counts   # [5, 5, 2, 1]

``replay_encode`` is the matching textbook encoder: it replays every merge in
the order learned over each word, left to right, non-overlapping.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping, Sequence

from tokenizer import DEFAULT_PATTERN, split_text

UNKNOWN_ID = -1  # what a character never seen in training encodes to (chars unit)


# -- Hugging Face's numbering of bytes ------------------------------------------
def gpt2_byte_stand_ins() -> dict[int, str]:
    """GPT-2's ``bytes_to_unicode``: byte -> the printable character that stands for it.

    Printable bytes 33-126, 161-172 and 174-255 stand for themselves; every
    other byte, in byte order, gets the next character from U+0100 up.
    """
    keeps_itself = set(range(33, 127)) | set(range(161, 173)) | set(range(174, 256))
    table: dict[int, str] = {}
    next_code = 256
    for byte in range(256):
        if byte in keeps_itself:
            table[byte] = chr(byte)
        else:
            table[byte] = chr(next_code)
            next_code += 1
    return table


def hf_base_order(unit: str, base: Sequence[str] | None, marker_id: int | None) -> dict[int, int]:
    """Our base id -> its position in Hugging Face's numbering of the base symbols."""
    if unit == "bytes":
        stand_in = gpt2_byte_stand_ins()
        order = sorted(range(256), key=lambda byte: stand_in[byte])
        position = {byte: i for i, byte in enumerate(order)}
        if marker_id is not None:
            position[marker_id] = 256
        return position
    assert base is not None
    order = sorted(range(len(base)), key=lambda i: base[i])
    return {symbol_id: i for i, symbol_id in enumerate(order)}


# -- the result ---------------------------------------------------------------------
@dataclass
class TextbookStep:
    """One merge: the pair, its new id, its count, and the pairs tied with it."""

    pair: tuple[int, int]
    new_id: int
    count: int
    tied: list[tuple[int, int]]
    """Every pair with the winning count, in tie-rule order, the winner first."""
    n_pairs: int
    """How many distinct pairs the count table had before the merge."""
    table: list[tuple[tuple[int, int], int]] | None = None
    """The whole ranked pair table before the merge (only with ``keep_tables=True``)."""

    @property
    def n_tied(self) -> int:
        return len(self.tied)


@dataclass
class TextbookResult:
    """What :func:`train_textbook` learned."""

    unit: str
    end_of_word: str | None
    base: list[str] | None
    """Chars unit: the base symbols by id (the marker included). Bytes unit: None."""
    marker_id: int | None
    first_merge_id: int
    words: list[tuple[str, int]]
    """The distinct words with their counts, in order of first appearance."""
    steps: list[TextbookStep]
    segmentation: list[list[int]] = field(default_factory=list)
    """Each distinct word's ids after the last merge."""

    @property
    def merges(self) -> list[tuple[int, int]]:
        return [step.pair for step in self.steps]

    @property
    def counts(self) -> list[int]:
        return [step.count for step in self.steps]


# -- training -----------------------------------------------------------------------
def distinct_words(
    corpus: str | Mapping[str, int], split: str = "regex", pattern: str = DEFAULT_PATTERN
) -> list[tuple[str, int]]:
    """The pre-split words with their counts, in order of first appearance."""
    counts: dict[str, int] = {}
    if isinstance(corpus, str):
        items: list[tuple[str, int]] = [(corpus, 1)]
    else:
        items = list(corpus.items())
    for text, weight in items:
        for word in split_text(text, split, pattern):
            counts[word] = counts.get(word, 0) + weight
    return list(counts.items())


def merge_left_to_right(symbols: list[int], pair: tuple[int, int], new_id: int) -> list[int]:
    """Replace every occurrence of ``pair`` by ``new_id``, left to right, non-overlapping."""
    out: list[int] = []
    i = 0
    while i < len(symbols):
        if i + 1 < len(symbols) and symbols[i] == pair[0] and symbols[i + 1] == pair[1]:
            out.append(new_id)
            i += 2
        else:
            out.append(symbols[i])
            i += 1
    return out


def train_textbook(
    corpus: str | Mapping[str, int],
    merges: int,
    *,
    unit: str = "bytes",
    split: str = "regex",
    pattern: str = DEFAULT_PATTERN,
    end_of_word: str | None = None,
    ties: str = "first",
    keep_tables: bool = False,
) -> TextbookResult:
    """Train BPE the textbook way (recount everything after every merge): the oracle.

    Takes the same settings as ``tokenizer.train`` and numbers symbols the
    same way, so ``result.merges`` (a list of id pairs) and ``result.counts``
    can be compared with the engine's ``trace.steps[i].pair`` / ``.count``.
    ``corpus`` is text, or a mapping of text -> count. Stops early when no
    word has two symbols left. ``keep_tables=True`` also keeps, for every
    step, the whole pair table in rank order (costly on big corpora).
    """
    if unit not in ("chars", "bytes"):
        raise ValueError(f"unknown unit {unit!r}")
    if ties not in ("first", "hf"):
        raise ValueError(f"unknown tie rule {ties!r}")
    marker = end_of_word or None
    words = distinct_words(corpus, split, pattern)

    # Base symbols and each word as a list of ids.
    base: list[str] | None
    marker_id: int | None = None
    sequences: list[list[int]] = []
    if unit == "bytes":
        base = None
        if marker is not None:
            marker_id = 256
        first_merge_id = 256 if marker is None else 257
        for word, _ in words:
            sequences.append(list(word.encode("utf-8")))
    else:
        base = []
        char_id: dict[str, int] = {}
        for index, (word, _) in enumerate(words):
            for ch in word:
                if ch not in char_id:
                    char_id[ch] = len(base)
                    base.append(ch)
            if index == 0 and marker is not None:
                marker_id = len(base)
                base.append(marker)
        first_merge_id = len(base)
        for word, _ in words:
            sequences.append([char_id[ch] for ch in word])
    if marker_id is not None:
        for seq in sequences:
            seq.append(marker_id)

    hf_position = hf_base_order(unit, base, marker_id) if ties == "hf" else {}

    def hf_number(symbol_id: int) -> int:
        return hf_position[symbol_id] if symbol_id < first_merge_id else symbol_id

    steps: list[TextbookStep] = []
    for step in range(merges):
        # 1. Count every adjacent pair, and note the order pairs are first met.
        counts: dict[tuple[int, int], int] = {}
        first_met: dict[tuple[int, int], int] = {}
        for seq, (_, freq) in zip(sequences, words):
            for i in range(len(seq) - 1):
                pair = (seq[i], seq[i + 1])
                counts[pair] = counts.get(pair, 0) + freq
                if pair not in first_met:
                    first_met[pair] = len(first_met)
        if not counts:
            break

        # 2. Rank: highest count, then the tie rule.
        if ties == "first":
            ranked = sorted(counts, key=lambda p: (-counts[p], first_met[p]))
        else:
            ranked = sorted(counts, key=lambda p: (-counts[p], hf_number(p[0]), hf_number(p[1])))

        # 3. The winner becomes a new symbol.
        best = ranked[0]
        new_id = first_merge_id + step
        tied = [p for p in ranked if counts[p] == counts[best]]
        table = [(p, counts[p]) for p in ranked] if keep_tables else None
        steps.append(TextbookStep(best, new_id, counts[best], tied, len(counts), table))

        # 4. Apply it in every word.
        sequences = [merge_left_to_right(seq, best, new_id) for seq in sequences]

    return TextbookResult(
        unit=unit,
        end_of_word=marker,
        base=base,
        marker_id=marker_id,
        first_merge_id=first_merge_id,
        words=words,
        steps=steps,
        segmentation=sequences,
    )


# -- encoding -----------------------------------------------------------------------
def replay_encode(
    text: str,
    merges: Sequence[tuple[int, int]],
    *,
    unit: str,
    base: Sequence[str] | None = None,
    split: str = "regex",
    pattern: str = DEFAULT_PATTERN,
    end_of_word: str | None = None,
) -> list[int]:
    """Encode ``text`` the textbook way: every merge, in learned order, over each word.

    Each pre-split word becomes its base ids (plus the marker id, if any);
    then merge ``r`` (which makes id ``first_merge_id + r``) is applied left
    to right, non-overlapping, for ``r = 0, 1, ...``. In the chars unit a
    character not in ``base`` becomes ``UNKNOWN_ID`` (-1), which no merge
    touches. ``base`` follows ``tokenizer.Tokenizer``: a chars model whose
    base lacks the marker gets it appended.
    """
    marker = end_of_word or None
    if unit == "bytes":
        char_id: dict[str, int] = {}
        marker_id = 256 if marker is not None else None
        first_merge_id = 256 if marker is None else 257
    else:
        symbols = list(base or ())
        char_id = {sym: i for i, sym in enumerate(symbols) if sym != marker}
        marker_id = None
        if marker is not None:
            if marker not in symbols:
                symbols.append(marker)
            marker_id = symbols.index(marker)
        first_merge_id = len(symbols)

    out: list[int] = []
    for word in split_text(text, split, pattern):
        if unit == "bytes":
            seq = list(word.encode("utf-8"))
        else:
            seq = [char_id.get(ch, UNKNOWN_ID) for ch in word]
        if marker_id is not None:
            seq.append(marker_id)
        for rank, pair in enumerate(merges):
            seq = merge_left_to_right(seq, (pair[0], pair[1]), first_merge_id + rank)
        out.extend(seq)
    return out


__all__ = [
    "TextbookResult",
    "TextbookStep",
    "UNKNOWN_ID",
    "distinct_words",
    "gpt2_byte_stand_ins",
    "hf_base_order",
    "merge_left_to_right",
    "replay_encode",
    "train_textbook",
]
