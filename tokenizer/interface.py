"""The one tokenizer interface every view uses.

The lab shows many tokenizers side by side: the small BPE models it trains
itself, and production tokenizers such as GPT-4's ``cl100k_base``. A page
must draw all of them the same way, so it never reads a tokenizer's
internals; it asks only what is in :class:`TextTokenizer`:

- who it is: ``name``, ``family`` (the algorithm), ``unit`` (what it starts
  from), ``vocab_size``, ``source`` (where it came from) and ``licence``;
- ``encode(text)``: the ids a model reads;
- ``encode_tokens(text, limit=None)``: the same tokens ready to draw, each a
  :class:`Token` with its id, bytes, label and whether it is whole
  characters; ``limit`` stops early on a long text;
- ``decode(ids)`` and ``token_bytes(id)``.

A byte-level token can end in the middle of a character (every Devanagari
letter is three UTF-8 bytes). Such a token is not *whole*: its label shows
the stray bytes as hex, ``⟨E0 A4⟩``, never as the replacement mark ``�``.

>>> from tokenizer import train
>>> tok = train("chai chai chaiwala", 2, unit="chars", split="whitespace").tokenizer
>>> isinstance(tok, TextTokenizer)
True
>>> [(t.label, t.whole) for t in tok.encode_tokens("chai")]
[('cha', True), ('i', True)]
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

UNKNOWN_ID = -1
"""The id of a character a character-unit model never saw in training (it keeps its text)."""


@dataclass(frozen=True, slots=True)
class Token:
    """One token of an encoded text, ready to draw.

    ``id``     the number a model reads; ``UNKNOWN_ID`` (-1) for a character
               never seen in training (character unit only).
    ``label``  the token's text; bytes that are not whole characters are
               shown as ``⟨E0 A4⟩``.
    ``bytes``  the UTF-8 bytes the token stands for.
    ``whole``  False when the bytes are not complete characters on their own.
    ``known``  False for a character never seen in training.
    ``piece``  the index of the pre-split piece the token came from (0 for a
               tokenizer that does not pre-split).
    """

    id: int
    label: str
    bytes: bytes
    whole: bool
    known: bool
    piece: int


@runtime_checkable
class TextTokenizer(Protocol):
    """What every tokenizer in the lab offers (the lab's own BPE and the real ones)."""

    @property
    def name(self) -> str:
        """What a page calls it, e.g. ``"GPT-4 (cl100k_base)"``."""
        ...

    @property
    def family(self) -> str:
        """The algorithm, in a few words, e.g. ``"byte-level BPE"``."""
        ...

    @property
    def unit(self) -> str:
        """What it starts from: ``"bytes"`` or ``"chars"``."""
        ...

    @property
    def vocab_size(self) -> int: ...

    @property
    def source(self) -> str:
        """Where it came from (a package and version, or "trained in the lab")."""
        ...

    @property
    def licence(self) -> str:
        """The licence its vocabulary is under ("" for the lab's own models)."""
        ...

    def encode(self, text: str) -> list[int]: ...

    def encode_tokens(self, text: str, *, limit: int | None = None) -> list[Token]: ...

    def decode(self, ids: Iterable[int]) -> str: ...

    def token_bytes(self, token_id: int) -> bytes: ...


__all__ = ["TextTokenizer", "Token", "UNKNOWN_ID"]
