"""The four stages of a real tokenizer, one text at a time: normalise -> pre-split -> model -> ids.

1. **Normalise**: make equivalent texts identical. Qwen3 turns the text into
   Unicode NFC (so ``ड़`` typed as one code point or as ``ड`` + ``़`` is read
   the same way); SentencePiece writes each space as ``▁`` and puts one in
   front of the text; GPT-4's and GPT-4o's tokenizers change nothing.
2. **Pre-split**: cut the text into pieces with a regular expression; merges
   never cross two pieces. SentencePiece has no pre-split: the ``▁`` marks are
   part of the text it segments.
3. **Model**: the subword model (BPE's merges, here) turns each piece into tokens.
4. **Ids**: each token's number in the vocabulary, which is all a model reads
   (the embedding lookup that follows belongs to the model, not the tokenizer).

Every stage is the tokenizer's own (:mod:`family.real`), and the stages
add up: encoding the pieces one by one gives the ids of the whole text.

>>> from tokenizer import real
>>> s = stages(real.load("cl100k_base"), "चाय fog")
>>> s.pieces              # GPT-4's pattern cuts before a vowel sign: ा is not a letter (\\p{L}) to it
('च', 'ाय', ' fog')
>>> [t.label for t in s.tokens], s.raw[-1], s.ids == tuple(real.load("cl100k_base").encode("चाय fog"))
(['⟨E0 A4⟩', '⟨9A⟩', 'ा⟨E0 A4⟩', '⟨AF⟩', ' fog'], 'Ġfog', True)
"""

from __future__ import annotations

from dataclasses import dataclass

import regex

from tokenizer.interface import Token

_CLUSTER = regex.compile(r"\X")


@dataclass(frozen=True)
class Stages:
    """What each stage makes of ``text`` (``tokens``, ``raw`` and ``ids`` cut at ``limit``, if given).

    ``pieces``   the pre-split pieces of the normalised text; None when the tokenizer has no pre-split.
    ``raw``      each token as the tokenizer itself writes it (``Ġ`` for a space in byte-level BPE,
                 ``▁`` in SentencePiece).
    ``changes``  the characters normalisation changed, (as typed, as read), for a tokenizer that
                 pre-splits (SentencePiece's ``▁`` for spaces is not listed).
    ``count``    how many tokens the whole text is.
    """

    text: str
    normalized: str
    pieces: tuple[str, ...] | None
    tokens: tuple[Token, ...]
    raw: tuple[str, ...]
    ids: tuple[int, ...]
    changes: tuple[tuple[str, str], ...]
    count: int


def stages(tok, text: str, *, limit: int | None = None) -> Stages:
    """Run ``text`` through a real tokenizer stage by stage (``tok`` from :func:`family.real.load`)."""
    normalized = tok.normalize(text)
    pieces = tok.pieces(text) if tok.pattern is not None else None  # SentencePiece has no pre-split
    ids = tok.encode(text)
    tokens = tok.encode_tokens(text, limit=limit)
    shown = [t.id for t in tokens]
    changes: list[tuple[str, str]] = []
    if pieces is not None and normalized != text:
        for cluster in dict.fromkeys(_CLUSTER.findall(text)):
            read = tok.normalize(cluster)
            if read != cluster:
                changes.append((cluster, read))
    return Stages(
        text=text,
        normalized=normalized,
        pieces=None if pieces is None else tuple(pieces),
        tokens=tuple(tokens),
        raw=tuple(tok.raw_piece(i) for i in shown),
        ids=tuple(shown),
        changes=tuple(changes),
        count=len(ids),
    )


__all__ = ["Stages", "stages"]
