"""A trained BPE tokenizer: its settings, its ordered merges, and what follows.

The ordered list of merges is the single source of truth. The vocabulary,
each token's bytes and its display label are all derived from it.

Inside the engine a word is held as a Python string with one character per
symbol: symbol id ``i`` is the character ``chr(i)``. Merging the pair
``(a, b)`` into ``z`` everywhere in a word is then exactly
``word.replace(chr(a) + chr(b), chr(z))``: left to right, non-overlapping,
the BPE rule, done in C.

Encoding replays merges lowest rank first. That gives the same tokens as
replaying every merge in the order it was learned (a merge can only create
pairs that contain its new token, and every merge of such a pair was learned
later), and it is much faster.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import repeat
from operator import add
from typing import Iterable, Sequence


from .labels import bytes_label, is_whole
from .pretokenize import DEFAULT_PATTERN, SPLITS, compile_pattern, split_text

UNITS = ("chars", "bytes")
TIES = ("first", "hf")
UNKNOWN_ID = -1
"""The id ``encode`` gives a character never seen in training (character unit only)."""

_SENTINEL = chr(0x10FFFF)  # stands for an unseen character inside a symbol string
MAX_VOCAB = 0x10FFFF


class _CharTable(dict):
    """Character code -> its symbol, for ``str.translate``; a character not in the table is unseen."""

    def __missing__(self, code: int) -> str:
        return _SENTINEL


@dataclass(frozen=True)
class TrainConfig:
    """The five choices that define a BPE trainer (the curriculum's table).

    ``unit``         ``"chars"`` (Unicode code points) or ``"bytes"`` (UTF-8 bytes, ids 0-255).
    ``split``        ``"regex"`` (pieces are matches of ``pattern``) or ``"whitespace"``.
    ``pattern``      the pre-split regular expression for ``split="regex"``.
    ``end_of_word``  ``None``, or a marker such as ``"</w>"`` appended to every word as its own symbol.
    ``ties``         ``"first"``: the pair met first scanning the distinct words in order of first
                     appearance, each left to right; ``"hf"``: the order Hugging Face ``tokenizers``
                     uses (smallest pair of ids in its byte-level numbering).
    """

    unit: str = "bytes"
    split: str = "regex"
    pattern: str = DEFAULT_PATTERN
    end_of_word: str | None = None
    ties: str = "first"

    def __post_init__(self) -> None:
        if self.unit not in UNITS:
            raise ValueError(f"Unknown unit {self.unit!r}: use 'chars' or 'bytes'.")
        if self.split not in SPLITS:
            raise ValueError(f"Unknown pre-split {self.split!r}: use 'regex' or 'whitespace'.")
        if self.ties not in TIES:
            raise ValueError(f"Unknown tie rule {self.ties!r}: use 'first' or 'hf'.")
        if self.end_of_word == "":
            object.__setattr__(self, "end_of_word", None)
        if self.split == "regex":
            compile_pattern(self.pattern)

    def to_dict(self) -> dict:
        return {
            "unit": self.unit,
            "split": self.split,
            "pattern": self.pattern,
            "end_of_word": self.end_of_word,
            "ties": self.ties,
        }


@dataclass(frozen=True, slots=True)
class Token:
    """One token of an encoded text, ready to draw.

    ``id`` is ``UNKNOWN_ID`` (-1) for a character never seen in training
    (character unit only); ``known`` says the same as a flag.
    ``label`` is the token's text, with stray bytes of a split character as
    ``⟨E0 A4⟩``; ``whole`` is False when the token is not whole characters.
    ``piece`` is the index of the pre-split piece the token came from.
    """

    id: int
    label: str
    bytes: bytes
    whole: bool
    known: bool
    piece: int


class Tokenizer:
    """Settings + base symbols + ordered merges. Build one with :func:`tokenizer.train`."""

    def __init__(
        self,
        config: TrainConfig,
        merges: Sequence[tuple[int, int]],
        base: Sequence[str] | None = None,
    ) -> None:
        self.config = config
        marker = config.end_of_word
        if config.unit == "bytes":
            if base is not None:
                raise ValueError("A byte-level tokenizer has the 256 bytes as its base; do not pass base symbols.")
            symbols_bytes: list[bytes] = [bytes([i]) for i in range(256)]
            texts: list[str] = [bytes_label(b) for b in symbols_bytes]
            self.base: tuple[str, ...] = ()
            self._char_ids: dict[str, int] = {}
        else:
            base = tuple(base or ())
            if len(set(base)) != len(base):
                raise ValueError("The base symbols of a tokenizer must be distinct.")
            for sym in base:
                if len(sym) != 1 and sym != marker:
                    raise ValueError(f"Base symbol {sym!r} is not one character (nor the end-of-word marker).")
            self.base = base
            symbols_bytes = [b"" if sym == marker else sym.encode("utf-8") for sym in base]
            texts = list(base)
            self._char_ids = {sym: i for i, sym in enumerate(base) if sym != marker}
        self.marker_id: int | None = None
        if marker is not None:
            if config.unit == "bytes":
                self.marker_id = 256
                symbols_bytes.append(b"")
                texts.append(marker)
            elif marker in base:
                self.marker_id = base.index(marker)
            else:  # a character-unit model always carries its marker
                self.marker_id = len(symbols_bytes)
                self.base = (*self.base, marker)
                symbols_bytes.append(b"")
                texts.append(marker)
        self.first_merge_id = len(symbols_bytes)
        self._whole_by_label = config.unit == "chars"
        self._bytes = symbols_bytes
        self._texts = texts
        self._ranks: dict[str, int] = {}
        self._pair_strings: list[str] = []  # merge rank -> its pair as a symbol string
        self._merges: list[tuple[int, int]] = []
        self._ends = [i == self.marker_id for i in range(len(symbols_bytes))]
        for a, b in merges:
            self._add_merge(int(a), int(b))
        self._cache: dict[str, tuple[int, ...]] = {}
        # The character unit turns a piece into symbols with one str.translate call.
        self._char_table = _CharTable({ord(ch): chr(i) for ch, i in self._char_ids.items()})

    # -- vocabulary ------------------------------------------------------------
    def _add_merge(self, a: int, b: int) -> int:
        new = self.first_merge_id + len(self._merges)
        if not (0 <= a < new and 0 <= b < new):
            raise ValueError(f"Merge {len(self._merges) + 1} uses id {max(a, b)}, which does not exist yet.")
        if new >= MAX_VOCAB:
            raise ValueError("The vocabulary is too large.")
        if self._ends[a]:
            raise ValueError("A merge cannot put anything after the end-of-word marker.")
        pair = chr(a) + chr(b)
        if pair in self._ranks:
            raise ValueError(f"The pair ({a}, {b}) is merged twice.")
        self._ranks[pair] = len(self._merges)
        self._pair_strings.append(pair)
        self._merges.append((a, b))
        self._bytes.append(self._bytes[a] + self._bytes[b])
        self._ends.append(self._ends[b])
        if self.config.unit == "chars":
            self._texts.append(self._texts[a] + self._texts[b])
        else:
            tail = self.config.end_of_word if self._ends[b] else ""
            self._texts.append(bytes_label(self._bytes[-1]) + (tail or ""))
        return new

    @property
    def merges(self) -> tuple[tuple[int, int], ...]:
        """The merges in the order they were learned: merge ``r`` makes id ``first_merge_id + r``."""
        return tuple(self._merges)

    @property
    def vocab_size(self) -> int:
        return len(self._bytes)

    def label(self, token_id: int) -> str:
        """The token as a person should see it (``⟨E0 A4⟩`` for stray bytes)."""
        self._check_id(token_id)
        return self._texts[token_id]

    def token_bytes(self, token_id: int) -> bytes:
        """The UTF-8 bytes a token stands for (the end-of-word marker adds none)."""
        self._check_id(token_id)
        return self._bytes[token_id]

    def is_whole(self, token_id: int) -> bool:
        """True when the token is whole characters on its own (always, in the character unit)."""
        self._check_id(token_id)
        return self._whole_by_label or is_whole(self._bytes[token_id])

    def vocab(self) -> list[tuple[int, str]]:
        """Every id with its label, in id order."""
        return list(enumerate(self._texts))

    def _check_id(self, token_id: int) -> None:
        if not 0 <= token_id < len(self._bytes):
            if token_id == UNKNOWN_ID:
                raise ValueError("Id -1 stands for a character never seen in training; it has no fixed text.")
            raise ValueError(f"Id {token_id} is not in this vocabulary (0 to {len(self._bytes) - 1}).")

    # -- encoding --------------------------------------------------------------
    def pieces(self, text: str) -> list[str]:
        """The pre-split pieces of ``text``."""
        return split_text(text, self.config.split, self.config.pattern)

    def _symbols(self, piece: str) -> str:
        """A piece as a symbol string (one character per id); unseen characters become a sentinel."""
        if self.config.unit == "bytes":
            # Byte i is symbol chr(i), which is exactly what decoding as Latin-1 gives.
            s = piece.encode("utf-8").decode("latin-1")
        else:
            s = piece.translate(self._char_table)
        if self.marker_id is not None:
            s += chr(self.marker_id)
        return s

    def _bpe(self, s: str, limit: int | None = None) -> str:
        """Apply merges to a symbol string, lowest rank first (ranks below ``limit`` only)."""
        get = self._ranks.get
        pairs = self._pair_strings
        never = len(pairs) if limit is None else min(limit, len(pairs))
        first = self.first_merge_id
        while len(s) > 1:
            # The lowest rank among the adjacent pairs, every look-up done by map
            # in C; a pair that is not a merge counts as ``never``.
            rank = min(map(get, map(add, s, s[1:]), repeat(never)))
            if rank >= never:
                break
            s = s.replace(pairs[rank], chr(first + rank))
        return s

    def _encode_piece(self, piece: str) -> tuple[int, ...]:
        cached = self._cache.get(piece)
        if cached is not None:
            return cached
        s = self._symbols(piece)
        if _SENTINEL in s:
            ids: list[int] = []
            for i, chunk in enumerate(s.split(_SENTINEL)):
                if i:
                    ids.append(UNKNOWN_ID)
                ids.extend(map(ord, self._bpe(chunk)))
            out = tuple(ids)
        else:
            out = tuple(map(ord, self._bpe(s)))
        if len(self._cache) > 200_000:
            self._cache.clear()
        self._cache[piece] = out
        return out

    def encode(self, text: str) -> list[int]:
        """Text to ids. In the character unit an unseen character gives ``UNKNOWN_ID`` (-1)."""
        ids: list[int] = []
        extend = ids.extend
        cached = self._cache.get  # the same dict object even when _encode_piece clears it
        encode_piece = self._encode_piece
        for piece in self.pieces(text):
            # Words repeat: most pieces are answered by the cache without a method call.
            out = cached(piece)
            extend(out if out is not None else encode_piece(piece))
        return ids

    def encode_tokens(self, text: str) -> list[Token]:
        """Text to :class:`Token` objects, each with its label, bytes and flags."""
        tokens: list[Token] = []
        for index, piece in enumerate(self.pieces(text)):
            ids = self._encode_piece(piece)
            unknown_chars = iter([ch for ch in piece if ch not in self._char_ids]) if UNKNOWN_ID in ids else None
            for token_id in ids:
                if token_id == UNKNOWN_ID:
                    ch = next(unknown_chars)  # type: ignore[arg-type]
                    tokens.append(Token(UNKNOWN_ID, ch, ch.encode("utf-8"), True, False, index))
                else:
                    tokens.append(
                        Token(token_id, self._texts[token_id], self._bytes[token_id], self.is_whole(token_id), True, index)
                    )
        return tokens

    def segment(self, piece: str, merges: int | None = None) -> list[int]:
        """One piece's ids after only the first ``merges`` merges (all when None)."""
        s = self._symbols(piece)
        out: list[int] = []
        for i, chunk in enumerate(s.split(_SENTINEL)):
            if i:
                out.append(UNKNOWN_ID)
            out.extend(map(ord, self._bpe(chunk, merges)))
        return out

    # -- decoding --------------------------------------------------------------
    def _marker_bytes(self) -> bytes:
        return b" " if self.config.split == "whitespace" else b""

    def decode_bytes(self, ids: Iterable[int]) -> bytes:
        """Ids to the raw bytes they stand for."""
        return b"".join(self.token_bytes_list(ids))

    def token_bytes_list(self, ids: Iterable[int]) -> list[bytes]:
        """Each id's bytes, for display (a byte-level token can be part of a character)."""
        out = []
        spacer = self._marker_bytes()
        for token_id in ids:
            data = self.token_bytes(token_id)
            if spacer and self._ends[token_id]:
                data += spacer
            out.append(data)
        return out

    def decode(self, ids: Iterable[int], errors: str = "replace") -> str:
        """Ids to text.

        Lossless for the ``regex`` pre-split. With ``whitespace`` the spaces
        between words were never tokens: an end-of-word marker brings each
        back as one space, and without a marker the words run together.
        Bytes that do not form whole characters become ``�`` unless
        ``errors="strict"``.
        """
        text = self.decode_bytes(ids).decode("utf-8", errors=errors)
        if self.config.split == "whitespace" and self.marker_id is not None and text.endswith(" "):
            text = text[:-1]
        return text

    def partial_tokens(self, ids: Iterable[int]) -> list[int]:
        """Positions of the tokens that are not whole characters on their own."""
        return [i for i, token_id in enumerate(ids) if not self.is_whole(token_id)]

    def __repr__(self) -> str:
        c = self.config
        return f"Tokenizer(unit={c.unit!r}, split={c.split!r}, merges={len(self._merges)}, vocab_size={self.vocab_size})"
