"""Encoding, shown one merge at a time.

To encode new text, a BPE tokenizer starts from single characters (or
bytes) and applies the merges it learned, in the order it learned them, each
over every word, left to right. Most merges find nothing to do in a short
text; this module records only the ones that fire, where they fire, and the
tokens after each, so a page can replay the process.

>>> from tokenizer import train
>>> tok = train("news " * 5 + "new " * 3 + "newer " * 2, 3, unit="chars", split="whitespace").tokenizer
>>> [(s.left, s.right, s.token) for s in encode_trace(tok, "newsroom").steps]
[('n', 'e', 'ne'), ('ne', 'w', 'new'), ('new', 's', 'news')]
"""

from __future__ import annotations

from dataclasses import dataclass

from .model import UNKNOWN_ID, Tokenizer


@dataclass(frozen=True, slots=True)
class EncodeStep:
    """One merge that fired: which learned merge it was, and where it fired.

    ``rank`` is the merge's place in the learned order (0 = learned first);
    ``places`` holds (piece, position) pairs, the position counted in tokens
    before the merge; ``pieces`` every piece's ids after it.
    """

    step: int
    rank: int
    pair: tuple[int, int]
    left: str
    right: str
    token_id: int
    token: str
    places: tuple[tuple[int, int], ...]
    pieces: tuple[tuple[int, ...], ...]


@dataclass(frozen=True)
class EncodeTrace:
    """The pieces of a text, their starting symbols, and every merge that fired."""

    tokenizer: Tokenizer
    pieces: tuple[str, ...]
    start: tuple[tuple[int, ...], ...]
    steps: tuple[EncodeStep, ...]

    def ids_at(self, step: int) -> tuple[tuple[int, ...], ...]:
        """Every piece's ids after ``step`` merges have fired (0: the starting symbols)."""
        if not 0 <= step <= len(self.steps):
            raise ValueError(f"Step {step} is outside this replay (0 to {len(self.steps)}).")
        return self.start if step == 0 else self.steps[step - 1].pieces

    def labels_at(self, step: int) -> list[list[str]]:
        """Every piece's token labels after ``step`` merges; an unseen character shows as itself."""
        out = []
        for piece, ids in zip(self.pieces, self.ids_at(step)):
            unseen = iter(ch for ch in piece if not self.tokenizer.knows(ch))
            out.append([next(unseen) if i == UNKNOWN_ID else self.tokenizer.label(i) for i in ids])
        return out

    @property
    def final(self) -> tuple[tuple[int, ...], ...]:
        return self.ids_at(len(self.steps))

    @property
    def n_learned(self) -> int:
        """How many merges the tokenizer learned (most of them find nothing to do here)."""
        return len(self.tokenizer.merges)

    @property
    def start_unit(self) -> str:
        """What the pieces start as: ``"bytes"``, ``"characters"``, or ``"symbols"`` (with an end-of-word marker)."""
        if self.tokenizer.config.end_of_word:
            return "symbols"
        return "bytes" if self.tokenizer.unit == "bytes" else "characters"

    @property
    def marker(self) -> str | None:
        return self.tokenizer.config.end_of_word

    def unseen(self) -> list[str]:
        """The characters of the text never seen in training (character unit), in order, once each."""
        return list(dict.fromkeys(ch for piece in self.pieces for ch in piece if not self.tokenizer.knows(ch)))

    def skipped(self, step: int) -> list[tuple[int, str, str]]:
        """The learned merges passed over just before ``step`` fired (their pair is nowhere in the text):
        (rank, left label, right label)."""
        s = self.steps[step - 1]
        first = self.steps[step - 2].rank + 1 if step > 1 else 0
        tok = self.tokenizer
        return [(r, tok.label(tok.merges[r][0]), tok.label(tok.merges[r][1])) for r in range(first, s.rank)]


    def candidates(self, step: int) -> list[tuple[int | None, int, int, str, str]]:
        """Before merge ``step`` fires: every distinct pair of neighbours in the text, as (its merge's rank, or
        None when no merge joins it; left id; right id; left label; right label), the next to fire first."""
        return _candidates(self.ids_at(step - 1), {pair: rank for rank, pair in enumerate(self.tokenizer.merges)}.get,
                           self.tokenizer.label)


def _candidates(pieces, rank_of, label) -> list[tuple[int | None, int, int, str, str]]:
    seen: dict[tuple[int, int], int | None] = {}
    for ids in pieces:
        for pair in zip(ids, ids[1:]):
            if pair not in seen and UNKNOWN_ID not in pair:
                seen[pair] = rank_of(pair)
    order = sorted(seen, key=lambda pair: (seen[pair] is None, seen[pair] or 0))
    return [(seen[pair], pair[0], pair[1], label(pair[0]), label(pair[1])) for pair in order]


def encode_trace(tokenizer: Tokenizer, text: str) -> EncodeTrace:
    """Replay the learned merges on ``text`` in order, recording each one that fires."""
    pieces = tuple(tokenizer.pieces(text))
    current = [list(tokenizer.segment(piece, 0)) for piece in pieces]
    start = tuple(tuple(ids) for ids in current)
    rank_of = {pair: rank for rank, pair in enumerate(tokenizer.merges)}
    steps: list[EncodeStep] = []
    while True:
        best = None
        for ids in current:
            for pair in zip(ids, ids[1:]):
                rank = rank_of.get(pair)
                if rank is not None and (best is None or rank < best):
                    best = rank
        if best is None:
            break
        a, b = tokenizer.merges[best]
        new_id = tokenizer.first_merge_id + best
        places = []
        for p, ids in enumerate(current):
            merged: list[int] = []
            j = 0
            while j < len(ids):
                if j + 1 < len(ids) and ids[j] == a and ids[j + 1] == b:
                    places.append((p, j))
                    merged.append(new_id)
                    j += 2
                else:
                    merged.append(ids[j])
                    j += 1
            current[p] = merged
        steps.append(
            EncodeStep(
                step=len(steps) + 1,
                rank=best,
                pair=(a, b),
                left=tokenizer.label(a),
                right=tokenizer.label(b),
                token_id=new_id,
                token=tokenizer.label(new_id),
                places=tuple(places),
                pieces=tuple(tuple(ids) for ids in current),
            )
        )
    return EncodeTrace(tokenizer, pieces, start, tuple(steps))
