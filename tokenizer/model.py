"""A trained BPE tokenizer: its settings, its ordered merges, and what follows.

The ordered list of merges is the single source of truth (see
:mod:`tokenizer.vocab`). The vocabulary, each token's bytes and its display
label are all derived from it.

Encoding replays merges lowest rank first. That gives the same tokens as
replaying every merge in the order it was learned (a merge can only create
pairs that contain its new token, and every merge of such a pair was learned
later), and it is much faster.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, fields
from heapq import heapify, heappop, heappush
from itertools import repeat
from operator import add

from .interface import UNKNOWN_ID, Token
from .labels import is_whole
from .pretokenize import DEFAULT_PATTERN, N_, SPLITS, compile_pattern, split_text
from .vocab import SENTINEL as _SENTINEL
from .vocab import Vocabulary

UNITS = ("chars", "bytes")
UNIT_NAMES = {"chars": N_("characters"), "bytes": N_("UTF-8 bytes")}
"""The units' names for a reader, in English and marked for the catalogue (one place for them: the pages, a
teacher's own questions): a page that translates draws them through ``_()``."""
_LONG_PIECE = 200  # symbols: a longer piece is merged with a heap (Tokenizer._bpe_long), a shorter one by str.replace
_KEPT_PIECE = 10_000  # symbols: a piece this long, once merged, is kept for the next request of it (Tokenizer._bpe)
_LONG_KEPT = 2  # how many: a step's pieces and the step before's (a few MB for the longest corpus Train takes)
TIES = ("first", "hf")


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
        return {name: getattr(self, name) for name in SETTINGS}


SETTINGS: tuple[str, ...] = tuple(f.name for f in fields(TrainConfig))
"""The trainer's setting names, in the order a model file writes them: ``unit``, ``split``, ``pattern``,
``end_of_word``, ``ties`` (the fields above: one place for them)."""

DEFAULTS = TrainConfig()
"""The trainer's defaults, written once (the fields above): :func:`tokenizer.train`, the textbook
reference and the BPE / WordPiece trainer take theirs from here.

>>> DEFAULTS.to_dict()
{'unit': 'bytes', 'split': 'regex', 'pattern': ' ?\\S+', 'end_of_word': None, 'ties': 'first'}
"""


class Tokenizer:
    """A trained BPE model: settings + base symbols + ordered merges.

    Build one with :func:`tokenizer.train`, by loading a file
    (:mod:`tokenizer.io`), or directly from its merges:
    ``Tokenizer(config, merges, base)``. It is a :class:`TextTokenizer`,
    so every page draws it like any real tokenizer.
    """

    family_name = "BPE (this lab)"

    def __init__(
        self,
        config: TrainConfig,
        merges: Sequence[tuple[int, int]],
        base: Sequence[str] | None = None,
        *,
        name: str = "Lab BPE model",
        source: str = "trained in the lab",
    ) -> None:
        self.config = config
        vocab = Vocabulary(config.unit, base, config.end_of_word)
        for a, b in merges:
            vocab.add_merge(int(a), int(b))
        self._init_from(vocab, name, source)

    @classmethod
    def from_vocabulary(cls, config: TrainConfig, vocab: Vocabulary, *, name: str = "Lab BPE model",
                        source: str = "trained in the lab") -> Tokenizer:
        """A tokenizer over a vocabulary that is already built (the trainer's)."""
        if vocab.unit != config.unit or vocab.end_of_word != config.end_of_word:
            raise ValueError("The vocabulary was built with other settings than this config.")
        tok = cls.__new__(cls)
        tok.config = config
        tok._init_from(vocab, name, source)
        return tok

    def _init_from(self, vocab: Vocabulary, name: str, source: str) -> None:
        self.name = name
        self.source = source
        self._vocab = vocab
        self.base = vocab.base
        self.marker_id = vocab.marker_id
        self.first_merge_id = vocab.first_merge_id
        self._whole_by_label = self.config.unit == "chars"
        self._bytes = [vocab.token_bytes(i) for i in range(vocab.size)]
        self._texts = list(vocab.labels)
        self._ends = [vocab.ends_word(i) for i in range(vocab.size)]
        self._merges = vocab.merges
        self._pair_strings = [chr(a) + chr(b) for a, b in self._merges]  # merge rank -> its pair as symbols
        self._ranks = {pair: rank for rank, pair in enumerate(self._pair_strings)}
        self._cache: dict[str, tuple[int, ...]] = {}
        self._long: dict[tuple[str, int], str] = {}  # the last long pieces merged (see _bpe)

    def named(self, name: str, source: str | None = None) -> Tokenizer:
        """The same model under another name (shares its tables; cheap)."""
        other = copy.copy(self)
        other.name = name
        if source is not None:
            other.source = source
        return other

    # -- the tokenizer interface -----------------------------------------------
    @property
    def family(self) -> str:
        return f"{self.family_name}, {'byte level' if self.config.unit == 'bytes' else 'character level'}"

    @property
    def unit(self) -> str:
        return self.config.unit

    @property
    def licence(self) -> str:
        return ""

    # -- vocabulary ------------------------------------------------------------
    @property
    def merges(self) -> tuple[tuple[int, int], ...]:
        """The merges in the order they were learned: merge ``r`` makes id ``first_merge_id + r``."""
        return self._merges

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

    def ends_word(self, token_id: int) -> bool:
        """True when the token ends with the end-of-word marker."""
        self._check_id(token_id)
        return self._ends[token_id]

    def knows(self, ch: str) -> bool:
        """Whether a character has a token (always True in the byte unit)."""
        return self._vocab.knows(ch)

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
        return self._vocab.symbol_string(piece)

    def _bpe(self, s: str, limit: int | None = None) -> str:
        """Apply merges to a symbol string, lowest rank first (ranks below ``limit`` only)."""
        get = self._ranks.get
        pairs = self._pair_strings
        never = len(pairs) if limit is None else min(limit, len(pairs))
        first = self.first_merge_id
        if len(s) > _KEPT_PIECE:
            # A long piece is merged again at the same step by each view of it (the Train page's count of a pair,
            # its chips, the corpus's tokens): kept for the next, so a 1 MB word is merged once a step, not four times
            done = self._long.get((s, never))
            if done is None:
                done = self._bpe_long(s, never)
                if len(self._long) >= _LONG_KEPT:
                    self._long.clear()
                self._long[s, never] = done
            return done
        if len(s) > _LONG_PIECE:
            return self._bpe_long(s, never)
        while len(s) > 1:
            # The lowest rank among the adjacent pairs, every look-up done by map
            # in C; a pair that is not a merge counts as ``never``.
            rank = min(map(get, map(add, s, s[1:]), repeat(never)))
            if rank >= never:
                break
            s = s.replace(pairs[rank], chr(first + rank))
        return s

    def _bpe_long(self, s: str, never: int) -> str:
        """:meth:`_bpe` for a long symbol string, in time n log n: the loop above scans the whole string once per
        merge that fires, which is quadratic on a long piece (a text with no spaces: 33,000 characters took 5.6 s
        with a lab model of 5,000 merges). Here every adjacent pair waits in a heap by (rank, position): the lowest
        rank goes first and, within a rank, the leftmost, which is exactly what ``str.replace`` does (a merge makes
        a token whose pairs all have higher ranks, so no pair of the rank being applied appears meanwhile)."""
        get = self._ranks.get
        pairs = self._pair_strings
        first = self.first_merge_id
        sym = list(s)
        n = len(sym)
        nxt = list(range(1, n + 1))
        nxt[-1] = -1
        prev = list(range(-1, n - 1))
        heap = [(r, i) for i, r in enumerate(map(get, map(add, s, s[1:]))) if r is not None and r < never]
        heapify(heap)
        while heap:
            r, i = heappop(heap)
            j = nxt[i]
            if j < 0 or not sym[i] or sym[i] + sym[j] != pairs[r]:
                continue  # stale: a merge before it took one of its two symbols
            sym[i] = chr(first + r)
            sym[j] = ""
            k = nxt[i] = nxt[j]
            if k >= 0:
                prev[k] = i
                q = get(sym[i] + sym[k])
                if q is not None and q < never:
                    heappush(heap, (q, i))
            h = prev[i]
            if h >= 0:
                q = get(sym[h] + sym[i])
                if q is not None and q < never:
                    heappush(heap, (q, h))
        return "".join(sym)

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

    def encode_tokens(self, text: str, *, limit: int | None = None) -> list[Token]:
        """Text to :class:`Token` objects, each with its label, bytes and flags.

        ``limit`` stops after that many tokens (the first ``limit`` of the
        whole text's tokens): a page drawing the start of a long text does
        not build a Token for each of half a million tokens.
        """
        tokens: list[Token] = []
        append = tokens.append
        texts, data, knows = self._texts, self._bytes, self._vocab.knows
        whole = self.is_whole
        for index, piece in enumerate(self.pieces(text)):
            if limit is not None and len(tokens) >= limit:
                break
            ids = self._encode_piece(piece)
            unknown_chars = iter([ch for ch in piece if not knows(ch)]) if UNKNOWN_ID in ids else None
            for token_id in ids:
                if token_id == UNKNOWN_ID:
                    ch = next(unknown_chars)  # type: ignore[arg-type]
                    append(Token(UNKNOWN_ID, ch, ch.encode("utf-8", errors="surrogatepass"), True, False, index))
                else:
                    append(Token(token_id, texts[token_id], data[token_id], whole(token_id), True, index))
        return tokens if limit is None else tokens[:limit]

    def count(self, text: str) -> int:
        """How many tokens ``text`` is."""
        return len(self.encode(text))

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
        return f"Tokenizer(name={self.name!r}, unit={c.unit!r}, split={c.split!r}, merges={len(self._merges)}, vocab_size={self.vocab_size})"
