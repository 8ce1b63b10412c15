"""BPE training the textbook way: the lab's readable reference.

This is the algorithm the lab teaches, written to be read rather than to be
fast. It is also the *oracle*: the fast trainer in :mod:`tokenizer.train`
keeps its pair counts up to date instead of recounting them, and the tests
check, on thousands of generated corpora and every setting, that it learns
exactly the merges, counts and ties this function learns.

Byte-pair encoding (Gage 1994; brought to language by Sennrich, Haddow and
Birch in 2016) starts from the smallest pieces of text, single characters
or single UTF-8 bytes, and learns bigger tokens one *merge* at a time:

1. Count every pair of neighbouring symbols inside every word. A word that
   occurs 5 times adds 5 to each of its pairs.
2. The pair counted most often wins. When several pairs share the top count,
   a fixed *tie rule* picks one (see below).
3. The winning pair becomes a new token, with the next free id.
4. Everywhere the pair occurs, left to right, it is replaced by the new
   token (``a a a`` with the pair ``a a`` becomes ``aa a``).
5. Repeat, recounting from scratch, until the merge budget is spent or every
   word is a single token.

A worked example (the lesson's chai stall): ``h`` then ``a`` sit side by
side 11 times, more than any other pair, so the first merge makes ``ha``.

>>> result = train_reference("chai chai chai chaiwala chaiwala chaat chaat poha poha poha pohawala samosa",
...                          3, unit="chars", split="whitespace")
>>> [(result.label(s.pair[0]) + " + " + result.label(s.pair[1]), s.count) for s in result.steps]
[('h + a', 11), ('c + ha', 7), ('cha + i', 5)]

Numbering (the same as :func:`tokenizer.train`, so results compare as ids):
in the character unit the base ids are the characters in order of first
appearance (distinct words in order, each left to right), the end-of-word
marker, if any, right after the first word's characters; in the byte unit
ids 0-255 are the bytes and the marker, if any, is 256. New ids follow.

Tie rules:

``"first"``  the tied pair met first when reading the distinct words in order
             of first appearance, each left to right (every curriculum example
             uses this rule);
``"hf"``     the order Hugging Face ``tokenizers`` uses: the smallest pair of
             ids, numbering the base symbols in sorted order (for bytes, sorted
             by GPT-2's printable stand-in for each byte).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from .bytelevel import gpt2_byte_stand_ins
from .interface import UNKNOWN_ID
from .labels import bytes_label
from .model import DEFAULTS, TIES, UNITS
from .pretokenize import split_text, split_texts

Pair = tuple[int, int]


# -- the two small helpers --------------------------------------------------------
def count_pairs(words: Sequence[tuple[list[int], int]]) -> tuple[dict[Pair, int], dict[Pair, int]]:
    """Count neighbouring pairs in every word, weighted by how often the word occurs.

    Also returns the order in which each pair is first met (reading the words
    in order, each left to right), which is what the ``first`` tie rule uses.

    >>> count_pairs([([1, 2, 1, 2], 3)])
    ({(1, 2): 6, (2, 1): 3}, {(1, 2): 0, (2, 1): 1})
    """
    counts: dict[Pair, int] = {}
    first_met: dict[Pair, int] = {}
    for symbols, times in words:
        for pair in zip(symbols, symbols[1:]):
            counts[pair] = counts.get(pair, 0) + times
            first_met.setdefault(pair, len(first_met))
    return counts, first_met


def merge(symbols: list[int], pair: Pair, new_id: int) -> list[int]:
    """Replace ``pair`` by ``new_id`` everywhere in ``symbols``, left to right, without overlaps.

    >>> merge([7, 7, 7], (7, 7), 9)
    [9, 7]
    """
    out: list[int] = []
    i = 0
    while i < len(symbols):
        if i + 1 < len(symbols) and (symbols[i], symbols[i + 1]) == pair:
            out.append(new_id)
            i += 2
        else:
            out.append(symbols[i])
            i += 1
    return out


# -- the result ---------------------------------------------------------------------
@dataclass
class ReferenceStep:
    """One merge: the pair, its new id, its count, and every pair tied with it (winner first)."""

    pair: Pair
    new_id: int
    count: int
    tied: list[Pair]
    n_pairs: int
    """How many distinct pairs were counted before the merge."""
    table: list[tuple[Pair, int]] | None = None
    """The whole ranked pair table before the merge (only with ``keep_tables=True``)."""

    @property
    def n_tied(self) -> int:
        return len(self.tied)


@dataclass
class ReferenceResult:
    """What :func:`train_reference` learned."""

    unit: str
    end_of_word: str | None
    base: list[str] | None
    """Character unit: the base symbols by id (the marker included). Byte unit: None."""
    marker_id: int | None
    first_merge_id: int
    words: list[tuple[str, int]]
    """The distinct words with their counts, in order of first appearance."""
    steps: list[ReferenceStep]
    segmentation: list[list[int]] = field(default_factory=list)
    """Each distinct word's ids after the last merge."""

    @property
    def merges(self) -> list[Pair]:
        return [step.pair for step in self.steps]

    @property
    def counts(self) -> list[int]:
        return [step.count for step in self.steps]

    def label(self, token_id: int) -> str:
        """A token's text; in the byte unit, stray bytes of a character as ``⟨E0 A4⟩``."""
        if self.base is not None:
            return "".join(self.base[i] for i in self._base_ids(token_id))
        marker = self.end_of_word or ""
        ids = self._base_ids(token_id)
        data = bytes(i for i in ids if i != self.marker_id)
        return bytes_label(data) + (marker if ids[-1] == self.marker_id else "")

    def _base_ids(self, token_id: int) -> list[int]:
        if token_id < self.first_merge_id:
            return [token_id]
        left, right = self.steps[token_id - self.first_merge_id].pair
        return self._base_ids(left) + self._base_ids(right)


# -- training -----------------------------------------------------------------------
def train_reference(
    corpus: str | Mapping[str, int],
    merges: int,
    *,
    unit: str = DEFAULTS.unit,
    split: str = DEFAULTS.split,
    pattern: str = DEFAULTS.pattern,
    end_of_word: str | None = DEFAULTS.end_of_word,
    ties: str = DEFAULTS.ties,
    keep_tables: bool = False,
) -> ReferenceResult:
    """Learn up to ``merges`` merges from ``corpus``, recounting every pair after every merge.

    Takes the same settings as :func:`tokenizer.train`. ``keep_tables`` also
    keeps every step's whole ranked pair table (slow on a big corpus).
    """
    if unit not in UNITS:
        raise ValueError(f"unknown unit {unit!r}")
    if ties not in TIES:
        raise ValueError(f"unknown tie rule {ties!r}")
    marker = end_of_word or None
    distinct = distinct_words(corpus, split, pattern)
    base, marker_id, first_merge_id, words = _starting_symbols(distinct, unit, marker)
    tie_order = _hf_tie_order(unit, base, marker_id, first_merge_id) if ties == "hf" else None

    steps: list[ReferenceStep] = []
    for step in range(merges):
        # 1. Count every pair of neighbours, each word weighted by how often it occurs.
        counts, first_met = count_pairs(words)
        if not counts:
            break  # every word is a single token: nothing is left to merge
        # 2. Rank the pairs: the highest count first, a tie settled by the tie rule.
        if tie_order is None:
            ranked = sorted(counts, key=lambda p: (-counts[p], first_met[p]))
        else:
            ranked = sorted(counts, key=lambda p: (-counts[p], tie_order(p)))
        best = ranked[0]
        # 3. The winner becomes a new token with the next free id.
        new_id = first_merge_id + step
        # 4. Replace the pair in every word, left to right.
        words = [(merge(symbols, best, new_id), times) for symbols, times in words]

        tied = [p for p in ranked if counts[p] == counts[best]]
        table = [(p, counts[p]) for p in ranked] if keep_tables else None
        steps.append(ReferenceStep(best, new_id, counts[best], tied, len(counts), table))

    return ReferenceResult(
        unit=unit,
        end_of_word=marker,
        base=base,
        marker_id=marker_id,
        first_merge_id=first_merge_id,
        words=distinct,
        steps=steps,
        segmentation=[symbols for symbols, _ in words],
    )


def distinct_words(
    corpus: str | Mapping[str, int], split: str = DEFAULTS.split, pattern: str = DEFAULTS.pattern
) -> list[tuple[str, int]]:
    """The pre-split words with their counts, in order of first appearance."""
    counts: dict[str, int] = {}
    items = [(corpus, 1)] if isinstance(corpus, str) else list(corpus.items())
    split_words = split_texts([text for text, _ in items], split, pattern)  # one time budget for all the words
    for words, (_, weight) in zip(split_words, items):
        for word in words:
            counts[word] = counts.get(word, 0) + weight
    return list(counts.items())


def _starting_symbols(
    distinct: list[tuple[str, int]], unit: str, marker: str | None
) -> tuple[list[str] | None, int | None, int, list[tuple[list[int], int]]]:
    """(base symbols, marker id, first merge id, each word as base ids with its count)."""
    if unit == "bytes":
        marker_id = 256 if marker is not None else None
        words = [(list(word.encode("utf-8", errors="surrogatepass")), n) for word, n in distinct]
        base: list[str] | None = None
        first_merge_id = 256 if marker is None else 257
    else:
        base = []
        char_id: dict[str, int] = {}
        marker_id = None
        for index, (word, _) in enumerate(distinct):
            for ch in word:
                if ch not in char_id:
                    char_id[ch] = len(base)
                    base.append(ch)
            if index == 0 and marker is not None:
                marker_id = len(base)
                base.append(marker)
        first_merge_id = len(base)
        words = [([char_id[ch] for ch in word], n) for word, n in distinct]
    if marker_id is not None:
        words = [(symbols + [marker_id], n) for symbols, n in words]
    return base, marker_id, first_merge_id, words


# -- Hugging Face's tie order ------------------------------------------------------------
# Written here on its own, not taken from the engine (tokenizer.bytelevel.hf_base_rank): the tests
# check the fast trainer's "hf" ties against this ranking, so it must be a second, independent one.
# Only the byte table is shared (tokenizer.bytelevel); tests/test_hf_parity.py checks it, and
# both rankings, against Hugging Face's own numbering.
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


def _hf_tie_order(unit: str, base: list[str] | None, marker_id: int | None, first_merge_id: int):
    position = hf_base_order(unit, base, marker_id)

    def number(symbol_id: int) -> int:
        return position[symbol_id] if symbol_id < first_merge_id else symbol_id

    return lambda pair: (number(pair[0]), number(pair[1]))


# -- encoding -----------------------------------------------------------------------
def encode_reference(
    text: str,
    merges: Sequence[Pair],
    *,
    unit: str,
    base: Sequence[str] | None = None,
    split: str = DEFAULTS.split,
    pattern: str = DEFAULTS.pattern,
    end_of_word: str | None = DEFAULTS.end_of_word,
) -> list[int]:
    """Encode the textbook way: every merge, in the order learned, over each word.

    Each pre-split word starts as its base ids (plus the marker id, if any);
    then merge ``r`` (which makes id ``first_merge_id + r``) is applied left
    to right, for ``r = 0, 1, ...``. In the character unit a character not in
    ``base`` is ``UNKNOWN_ID`` (-1), which no merge touches.
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
            seq = list(word.encode("utf-8", errors="surrogatepass"))
        else:
            seq = [char_id.get(ch, UNKNOWN_ID) for ch in word]
        if marker_id is not None:
            seq.append(marker_id)
        for rank, pair in enumerate(merges):
            seq = merge(seq, (pair[0], pair[1]), first_merge_id + rank)
        out.extend(seq)
    return out


__all__ = [
    "ReferenceResult",
    "ReferenceStep",
    "count_pairs",
    "distinct_words",
    "encode_reference",
    "hf_base_order",
    "merge",
    "train_reference",
]
