"""A vocabulary built from base symbols and ordered merges.

The ordered list of merges is the single source of truth: every token's
bytes and label follow from it. The trainer grows a :class:`Vocabulary` one
merge at a time; a :class:`tokenizer.Tokenizer` is built from one, and so is
a model loaded from a file.

Inside the engine a word is held as a Python string with one character per
symbol: symbol id ``i`` is the character ``chr(i)`` (see
:meth:`Vocabulary.symbol_string`). Merging the pair ``(a, b)`` into ``z``
everywhere in a word is then exactly ``word.replace(chr(a) + chr(b),
chr(z))``: left to right, non-overlapping, the BPE rule, done in C.

>>> v = Vocabulary("chars", ["c", "h", "a", "i"])
>>> v.add_merge(1, 2), v.add_merge(0, 4)
(4, 5)
>>> v.label(5), v.merges
('cha', ((1, 2), (0, 4)))
>>> [ord(s) for s in v.symbol_string("chai")]
[0, 1, 2, 3]
"""

from __future__ import annotations

from collections.abc import Sequence

from .labels import bytes_label

MAX_VOCAB = 0x10FFFF
SENTINEL = chr(0x10FFFF)
"""Stands for a character never seen in training inside a symbol string (character unit)."""


class _CharTable(dict):
    """Character code -> its symbol, for ``str.translate``; a character not in the table is unseen."""

    def __missing__(self, code: int) -> str:
        return SENTINEL


class Vocabulary:
    """Base symbols, an optional end-of-word marker, and merges in the order they were learned.

    ``unit="bytes"``: ids 0-255 are the bytes, the marker (if any) is 256.
    ``unit="chars"``: ``base`` lists the base symbols by id (the marker may be
    among them; if not, it is added after them). Merge ``r`` makes id
    ``first_merge_id + r``.
    """

    def __init__(self, unit: str, base: Sequence[str] | None = None, end_of_word: str | None = None) -> None:
        self.unit = unit
        self.end_of_word = end_of_word or None
        marker = self.end_of_word
        if unit == "bytes":
            if base:
                raise ValueError("A byte-level tokenizer has the 256 bytes as its base; do not pass base symbols.")
            token_bytes: list[bytes] = [bytes([i]) for i in range(256)]
            labels: list[str] = [bytes_label(b) for b in token_bytes]
            self.base: tuple[str, ...] = ()
            char_ids: dict[str, int] = {}
        else:
            base = tuple(base or ())
            if len(set(base)) != len(base):
                raise ValueError("The base symbols of a tokenizer must be distinct.")
            for sym in base:
                if not isinstance(sym, str) or (len(sym) != 1 and sym != marker):
                    raise ValueError(f"Base symbol {sym!r} is not one character (nor the end-of-word marker).")
            self.base = base
            token_bytes = [b"" if sym == marker else sym.encode("utf-8") for sym in base]
            labels = list(base)
            char_ids = {sym: i for i, sym in enumerate(base) if sym != marker}
        self.marker_id: int | None = None
        if marker is not None:
            if unit == "bytes":
                self.marker_id = 256
                token_bytes.append(b"")
                labels.append(marker)
            elif marker in base:  # type: ignore[operator]
                self.marker_id = self.base.index(marker)
            else:  # a character-unit model always carries its marker
                self.marker_id = len(token_bytes)
                self.base = (*self.base, marker)
                token_bytes.append(b"")
                labels.append(marker)
        self.first_merge_id = len(token_bytes)
        self._bytes = token_bytes
        self._labels = labels
        self._ends = [i == self.marker_id for i in range(len(token_bytes))]
        self._merges: list[tuple[int, int]] = []
        self._pair_ids: set[tuple[int, int]] = set()
        self._char_ids = char_ids
        # The character unit turns a piece into symbols with one str.translate call.
        self._char_table = _CharTable({ord(ch): chr(i) for ch, i in char_ids.items()})

    # -- growing -------------------------------------------------------------------
    def add_merge(self, a: int, b: int) -> int:
        """Learn the merge of ``a`` and ``b``; returns the new token's id."""
        new = self.first_merge_id + len(self._merges)
        if not (0 <= a < new and 0 <= b < new):
            raise ValueError(f"Merge {len(self._merges) + 1} uses id {max(a, b)}, which does not exist yet.")
        if new >= MAX_VOCAB:
            raise ValueError("The vocabulary is too large.")
        if self._ends[a]:
            raise ValueError("A merge cannot put anything after the end-of-word marker.")
        if (a, b) in self._pair_ids:
            raise ValueError(f"The pair ({a}, {b}) is merged twice.")
        self._pair_ids.add((a, b))
        self._merges.append((a, b))
        data = self._bytes[a] + self._bytes[b]
        self._bytes.append(data)
        self._ends.append(self._ends[b])
        if self.unit == "chars":
            self._labels.append(self._labels[a] + self._labels[b])
        else:
            tail = self.end_of_word if self._ends[b] else ""
            self._labels.append(bytes_label(data) + (tail or ""))
        return new

    # -- reading -------------------------------------------------------------------
    @property
    def merges(self) -> tuple[tuple[int, int], ...]:
        """The merges in the order they were learned."""
        return tuple(self._merges)

    @property
    def size(self) -> int:
        return len(self._bytes)

    @property
    def labels(self) -> Sequence[str]:
        """Every id's label, in id order (read-only: do not change it)."""
        return self._labels

    def label(self, token_id: int) -> str:
        return self._labels[token_id]

    def token_bytes(self, token_id: int) -> bytes:
        return self._bytes[token_id]

    def ends_word(self, token_id: int) -> bool:
        """True when the token ends with the end-of-word marker."""
        return self._ends[token_id]

    def knows(self, ch: str) -> bool:
        """Whether a character has a base symbol (always True in the byte unit)."""
        return self.unit == "bytes" or ch in self._char_ids

    def symbol_string(self, piece: str) -> str:
        """A piece as a symbol string (one character per id, the marker appended);
        a character never seen in training becomes :data:`SENTINEL`."""
        if self.unit == "bytes":
            # Byte i is symbol chr(i), which is exactly what decoding as Latin-1 gives.
            s = piece.encode("utf-8", errors="surrogatepass").decode("latin-1")
        else:
            s = piece.translate(self._char_table)
        if self.marker_id is not None:
            s += chr(self.marker_id)
        return s


__all__ = ["MAX_VOCAB", "SENTINEL", "Vocabulary"]
