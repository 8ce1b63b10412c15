"""Inside a production tokenizer: the merges its ranks imply, a token's merge tree, and encoding step by step.

A rank-ordered byte-level BPE (GPT-4's ``cl100k_base``, GPT-4o's ``o200k_base``, GPT-2, Llama 3, Qwen, Mistral
Tekken) ships no list of merges, only a rank for every token's bytes. The merges are implied by the ranks: BPE
encodes a piece by merging, again and again, the two neighbours whose joined bytes have the lowest rank (the
leftmost such pair on a tie). So a token's two parts are what BPE, allowed only the merges ranked below the
token, makes of its bytes: the exercise Karpathy's minbpe sets (recover GPT-4's merges from tiktoken's ranks).
SentencePiece's BPE (Mistral's v3) works on characters with its own rule: the pair whose joined piece has the
highest score merges first; the same recovery holds with the score order for the rank.

Nothing is recovered for the whole vocabulary, ever: a token's parts are found the first time they are asked
for (one BPE run over the token's own bytes, at most a few hundred) and kept, per tokenizer and per process,
in a cache of at most :data:`MAX_CACHED` tokens (about 180 bytes each: under 12 MB for a tokenizer whose every
token was asked for). A tree of the longest token of o200k takes a few milliseconds cold.

>>> from family import real
>>> gpt4o = inside(real.load("o200k_base"))
>>> gpt4o.parts(gpt4o.tok.encode(" hello")[0]) is not None
True
>>> r = gpt4o.replay("घने")
>>> list(r.ids) == real.load("o200k_base").encode("घने")
True
"""

from __future__ import annotations

import functools
import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, fields
from heapq import heapify, heappop, heappush
from operator import attrgetter
from typing import Any

from tokenizer.labels import bytes_label, hex_bytes, is_whole
from tokenizer.provenance import MergeNode

MAX_CACHED = 65_536
"""Tokens whose two parts a tokenizer keeps, per process (the least recently asked go first)."""

MAX_REPLAY_CHARS = 20_000
"""The longest text replayed merge by merge (the command line's ``encode --steps``; the page takes 200)."""

class ReplayTooLong(ValueError):
    """A text too long to replay merge by merge (it says how long and what to do)."""


@dataclass(frozen=True, slots=True)
class Merge:
    """One merge: ``left`` + ``right`` -> ``result`` (ids), the merge's ``rank`` (its place in the merge order)."""

    left: int
    right: int
    result: int
    rank: int


@dataclass(frozen=True, slots=True)
class PieceStep:
    """One merge BPE applies while encoding: in pre-split piece ``piece``, the tokens at ``position`` and
    ``position + 1`` (counted in that piece's tokens before the merge) become ``token_id``.

    The same names as a lab model's :class:`tokenizer.replay.EncodeStep`, so a page draws both alike.
    """

    step: int
    piece: int
    position: int
    rank: int
    pair: tuple[int, int]
    left: str
    right: str
    token_id: int
    token: str
    whole: tuple[int, ...] = ()
    """Not a merge: the whole piece is a token BPE cannot reach, so the library looks it up (tiktoken looks up
    every piece whole before merging; for any other token that gives what the merges give). ``whole`` holds the
    tokens the merges had left, ``pair`` the first and the last of them."""

    @property
    def places(self) -> tuple[tuple[int, int], ...]:
        return ((self.piece, self.position),)


#: Every field of :class:`PieceStep` after its first two (its number, its piece's), in order: a replay renumbers the
#: steps of a piece worked out once (:meth:`Inside._replay_piece`) wherever the piece comes again.
_STEP_REST = attrgetter(*(f.name for f in fields(PieceStep) if f.name not in ("step", "piece")))


def last_parts(symbols: Sequence[Any], merges: Sequence[tuple[int, int, int]]) -> tuple[Any, Any]:
    """The two symbols the last of ``merges`` (from :func:`run_bpe` on ``symbols``) joined, when it made one."""
    _, j, _ = merges[-1]
    empty = symbols[0][:0]
    return empty.join(symbols[:j]), empty.join(symbols[j:])


def run_bpe(symbols: Sequence[Any], rank_of: Callable[[Any], int | None], limit: int | None = None
            ) -> tuple[list[Any], list[tuple[int, int, int]]]:
    """BPE on ``symbols`` (bytes or strings): merge the neighbours whose joined symbol has the lowest rank
    (``rank_of``; None: not a token), the leftmost on a tie, until no pair (or none ranked below ``limit``) is
    left. Returns the final symbols and each merge as (left's index, right's index, rank), indexes into
    ``symbols``. A heap keeps it n log n (a long piece of one letter is no worse than a word).

    >>> ranks = {b"a": 0, b"b": 1, b"ab": 2, b"abb": 3}
    >>> run_bpe([b"a", b"b", b"b"], ranks.get)
    ([b'abb'], [(0, 1, 2), (0, 2, 3)])
    >>> run_bpe([b"a", b"b", b"b"], ranks.get, limit=3)[0]
    [b'ab', b'b']
    """
    n = len(symbols)
    sym = list(symbols)
    nxt = list(range(1, n + 1))
    prv = list(range(-1, n - 1))
    if n:
        nxt[-1] = -1
    alive = [True] * n
    heap: list[tuple[int, int, int, int, int]] = []

    def candidate(i: int) -> tuple[int, int, int, int, int] | None:
        j = nxt[i]
        if j < 0:
            return None
        rank = rank_of(sym[i] + sym[j])
        if rank is None or (limit is not None and rank >= limit):
            return None
        return rank, i, j, len(sym[i]), len(sym[j])

    for i in range(n - 1):
        entry = candidate(i)
        if entry is not None:
            heap.append(entry)
    heapify(heap)
    merges: list[tuple[int, int, int]] = []
    while heap:
        rank, i, j, li, lj = heappop(heap)
        if not (alive[i] and alive[j] and nxt[i] == j and len(sym[i]) == li and len(sym[j]) == lj):
            continue  # stale: one of the two has merged since
        merges.append((i, j, rank))
        sym[i] = sym[i] + sym[j]
        alive[j] = False
        nxt[i] = nxt[j]
        if nxt[j] >= 0:
            prv[nxt[j]] = i
        for k in (prv[i], i):
            if k >= 0 and (entry := candidate(k)) is not None:
                heappush(heap, entry)
    final = [sym[i] for i in range(n) if alive[i]]
    return final, merges


class _Prefix:
    """Prefix sums over a list that changes (a Fenwick tree): tokens before a symbol, as symbols merge."""

    def __init__(self, values: Sequence[int]) -> None:
        self._n = len(values)
        self._values = list(values)
        self._tree = [0] * (self._n + 1)
        for i, v in enumerate(values):
            self._add(i, v)

    def _add(self, i: int, delta: int) -> None:
        i += 1
        while i <= self._n:
            self._tree[i] += delta
            i += i & -i

    def set(self, i: int, value: int) -> None:
        self._add(i, value - self._values[i])
        self._values[i] = value

    def sum(self, i: int) -> int:
        """The sum of the values before index ``i``."""
        total = 0
        while i > 0:
            total += self._tree[i]
            i -= i & -i
        return total


@dataclass(frozen=True)
class Replay:
    """A text encoded step by step: its pre-split pieces, each piece's starting tokens, and every merge BPE
    applies, piece by piece, in the order it applies them. The methods a page needs have the names of
    :class:`tokenizer.replay.EncodeTrace`, so Encode step by step draws a lab model and a production tokenizer
    with one view."""

    tokenizer: Any
    inside: Inside
    pieces: tuple[str, ...]
    start: tuple[tuple[int, ...], ...]
    steps: tuple[PieceStep, ...]
    library: tuple[int, ...]  # what the tokenizer's own library gives for the text (see :attr:`agrees`)
    _symbols: tuple[tuple[Any, ...], ...] = field(repr=False)
    _events: tuple[tuple[int, int, int], ...] = field(repr=False)  # per step: the piece's (left, right) indexes
    _final: tuple[tuple[int, ...], ...] = field(repr=False)
    _first: tuple[int, ...] = field(repr=False)  # per piece: the index of its first step (one more at the end)

    def ids_at(self, step: int) -> tuple[tuple[int, ...], ...]:
        """Every piece's ids after ``step`` merges (0: the starting tokens)."""
        if not 0 <= step <= len(self.steps):
            raise ValueError(f"Step {step} is outside this replay (0 to {len(self.steps)}).")
        if step == 0:
            return self.start
        current = self.steps[step - 1].piece
        out = [*self._final[:current], self._piece_after(current, self._events[self._first[current] : step]),
               *self.start[current + 1 :]]
        return tuple(out)

    def _piece_after(self, p: int, events: Sequence[tuple[int, int, int]]) -> tuple[int, ...]:
        sym = list(self._symbols[p])
        alive = [True] * len(sym)
        for i, j, _ in events:
            if i < 0:  # the whole piece, looked up
                sym = [sym[0][:0].join(x for x, keep in zip(sym, alive) if keep)]
                alive = [True]
                continue
            sym[i] = sym[i] + sym[j]
            alive[j] = False
        ids: list[int] = []
        for s, keep in zip(sym, alive):
            if keep:
                ids.extend(self.inside.symbol_ids(s))
        return tuple(ids)

    def candidates(self, step: int) -> list[tuple[int | None, int, int, str, str]]:
        """Before merge ``step`` fires: every distinct pair of neighbours in its piece (BPE works one piece at a
        time), as (the rank of the token the two make, or None when they make none; left id; right id; left label;
        right label), the next to fire first."""
        from tokenizer.replay import _candidates

        piece = self.steps[step - 1].piece
        return _candidates([self.ids_at(step - 1)[piece]], lambda pair: self.inside.pair_rank(*pair),
                           self.inside.label)

    def labels_at(self, step: int) -> list[list[str]]:
        return [[self.inside.label(i) for i in ids] for ids in self.ids_at(step)]

    @property
    def final(self) -> tuple[tuple[int, ...], ...]:
        return self._final

    @property
    def ids(self) -> list[int]:
        """The final ids, all pieces in order: what the tokenizer's own library gives (see :attr:`agrees`)."""
        return [i for piece in self._final for i in piece]

    @property
    def agrees(self) -> bool:
        """Whether the replay ends in the library's own ids. It does on any text but one with a character added to
        Unicode after the library's tables: the lab's pre-split (the ``regex`` module) knows Unicode 17, tiktoken's
        Rust engine 16, so a letter of 2025 is cut as a letter here and not there (tests/test_inside.py)."""
        return self.ids == list(self.library)

    @property
    def n_learned(self) -> int:
        return self.inside.n_merges

    @property
    def start_unit(self) -> str:
        return "bytes" if self.inside.unit == "bytes" else "characters"

    marker = None

    def unseen(self) -> list[str]:
        return []

    def skipped(self, step: int) -> list:
        return []

    def to_json(self) -> dict:
        """``{"pieces": [...], "steps": [{"piece", "left", "right", "result", "rank"}], "ids": [...]}``, bytes in hex."""
        hexed = self.inside.hex
        return {
            "tokenizer": self.inside.key,
            "pieces": list(self.pieces),
            "steps": [{"piece": s.piece, "position": s.position, "left": hexed(s.pair[0]), "right": hexed(s.pair[1]),
                       "result": hexed(s.token_id), "rank": s.rank, "id": s.token_id}
                      | ({"lookup": [hexed(i) for i in s.whole]} if s.whole else {}) for s in self.steps],
            "ids": self.ids,
        } | ({} if self.agrees else {"library_ids": list(self.library)})


class Inside:
    """A production tokenizer seen from inside: its merges (recovered from its ranks, token by token, cached),
    each token's merge tree, and encoding replayed merge by merge. Get one with :func:`inside`."""

    unit = "bytes"

    def __init__(self, tok: Any) -> None:
        self.tok = tok
        self._lock = threading.Lock()
        self._parts: OrderedDict[int, tuple[int, int] | None] = OrderedDict()

    # -- what each kind provides ------------------------------------------------------------------
    @property
    def key(self) -> str:
        return self.tok.key

    @property
    def n_merges(self) -> int:
        raise NotImplementedError

    def rank(self, token_id: int) -> int | None:
        """The token's place in the merge order (None for a starting symbol: a byte, or one character)."""
        raise NotImplementedError

    def symbol(self, token_id: int) -> Any:
        """What BPE joins to make the token (its bytes; SentencePiece: its piece's text)."""
        raise NotImplementedError

    def is_base(self, token_id: int) -> bool:
        """Whether the token is a starting symbol (a byte; SentencePiece: a character or a fallback byte)."""
        raise NotImplementedError

    def _rank_of(self, symbol: Any) -> int | None:
        raise NotImplementedError

    def symbol_ids(self, symbol: Any) -> list[int]:
        """The ids a final symbol stands for (one token; SentencePiece: an unknown character is its bytes)."""
        raise NotImplementedError

    def _start(self, piece: str) -> list[Any]:
        raise NotImplementedError

    def _pieces(self, text: str) -> list[str]:
        return self.tok.pieces(text)

    def _whole_piece(self, piece: str) -> int | None:
        """tiktoken looks a piece up whole before it merges anything: the id it finds, or None."""
        return None

    def _offset_of(self, token_id: int) -> int:
        return 0

    # -- what every kind shares --------------------------------------------------------------------
    def label(self, token_id: int) -> str:
        return bytes_label(self.tok.token_bytes(token_id))

    def hex(self, token_id: int) -> str:
        return hex_bytes(self.tok.token_bytes(token_id))

    def whole(self, token_id: int) -> bool:
        return is_whole(self.tok.token_bytes(token_id))

    def _id(self, symbol: Any) -> int:
        ids = self.symbol_ids(symbol)
        return ids[0]

    def parts(self, token_id: int) -> tuple[int, int] | None:
        """The two tokens a merge joined to make ``token_id`` (None for a starting symbol, or a token BPE cannot
        reach by merges: a piece that equals it is found whole). Recovered once, then cached."""
        with self._lock:
            if token_id in self._parts:
                self._parts.move_to_end(token_id)
                return self._parts[token_id]
        rank = self.rank(token_id)
        found = None
        if rank is not None:
            symbol = self.symbol(token_id)
            start = self._split_symbol(symbol)
            # What BPE makes of the token's bytes: when the token comes out whole, its last merge joined its two
            # parts. Only merges ranked below the token can fire before it in a vocabulary BPE built (the minbpe
            # exercise runs with that limit); a vocabulary extended by hand may reach a token through a merge ranked
            # after it (678 of Llama 3's tokens), which this finds too.
            final, merged = run_bpe(start, self._rank_of)
            if final == [symbol] and merged:
                left, right = last_parts(start, merged)
                found = (self._id(left), self._id(right))
        with self._lock:
            self._parts[token_id] = found
            while len(self._parts) > MAX_CACHED:
                self._parts.popitem(last=False)
        return found

    def _split_symbol(self, symbol: Any) -> list[Any]:
        return [symbol[i : i + 1] for i in range(len(symbol))]

    def tree(self, token_id: int) -> MergeNode:
        """The token's merge tree: leaves the starting symbols (bytes, or characters), each node's ``rank``
        its merge's place (``step`` too, so the lab's tree drawing reads it), the root the token itself."""
        self.tok.token_bytes(token_id)  # checks the id (ValueError)
        parts = self.parts(token_id)
        rank = self.rank(token_id)
        label = self.label(token_id)
        if parts is None:
            return MergeNode(token_id, label, None, None, rank=rank, unreached=rank is not None)
        return MergeNode(token_id, label, rank, None, self.tree(parts[0]), self.tree(parts[1]), rank=rank)

    def merges(self, token_id: int) -> list[Merge]:
        """Every merge that builds the token, in the order BPE applies them (lowest rank first, the root last)."""
        out: list[Merge] = []

        def walk(node: MergeNode) -> None:
            if node.left is None or node.right is None:
                return
            walk(node.left)
            walk(node.right)
            out.append(Merge(node.left.id, node.right.id, node.id, node.rank or 0))

        walk(self.tree(token_id))
        return sorted(out, key=lambda m: m.rank)

    def replay(self, text: str, *, limit: int = MAX_REPLAY_CHARS) -> Replay:
        """Encode ``text`` as the tokenizer does, recording every merge: its pre-split first, then in each piece
        the merges in the order BPE applies them. Raises :class:`ReplayTooLong` over ``limit`` characters."""
        if len(text) > limit:
            raise ReplayTooLong(
                f"This text is {len(text):,} characters; merges are replayed one by one on at most {limit:,} "
                "(count a longer text with count, which has no such limit).")
        pieces = tuple(self._pieces(text))
        starts: list[tuple[int, ...]] = []
        symbols: list[tuple[Any, ...]] = []
        events: list[tuple[int, int, int]] = []
        steps: list[PieceStep] = []
        finals: list[tuple[int, ...]] = []
        first: list[int] = []
        label = functools.cache(self.label)  # each token's label made once a replay (a long text repeats its tokens)
        replayed = functools.cache(lambda piece: self._replay_piece(piece, label))  # a piece that comes again: once
        for p, piece in enumerate(pieces):
            first.append(len(steps))
            start, ids_before, merged, made, ids = replayed(piece)
            symbols.append(start)
            starts.append(ids_before)
            events.extend(merged)
            steps.extend(PieceStep(len(steps) + n, p, *_STEP_REST(m)) for n, m in enumerate(made, 1))
            finals.append(ids)
        first.append(len(steps))
        return Replay(self.tok, self, pieces, tuple(starts), tuple(steps), tuple(self.tok.encode(text)),
                      tuple(symbols), tuple(events), tuple(finals), tuple(first))

    def _replay_piece(self, piece: str, label: Callable[[int], str]
                      ) -> tuple[tuple[Any, ...], tuple[int, ...], tuple[tuple[int, int, int], ...],
                                 tuple[PieceStep, ...], tuple[int, ...]]:
        """One pre-split piece of :meth:`replay`: its first symbols, their ids, BPE's merges (as events), the steps
        (numbered from 1, piece 0: the replay numbers them in the text) and the piece's final ids."""
        start = self._start(piece)
        widths = [len(self.symbol_ids(x)) for x in start]  # tokens each symbol stands for (1, or its bytes)
        ids_before = tuple(i for x in start for i in self.symbol_ids(x))
        whole = self._whole_piece(piece)
        final, merged = run_bpe(start, self._rank_of)
        sym = list(start)
        before = _Prefix(widths)  # tokens before each symbol, kept as merges go (n log n on a long piece)
        events: list[tuple[int, int, int]] = []
        steps: list[PieceStep] = []
        for i, j, rank in merged:
            left, right = self._id(sym[i]), self._id(sym[j])
            position = before.sum(i)
            sym[i] = sym[i] + sym[j]
            before.set(i, 1)
            before.set(j, 0)
            result = self._id(sym[i])
            events.append((i, j, rank))
            steps.append(PieceStep(len(steps) + 1, 0, position, rank, (left, right), label(left), label(right),
                                   result, label(result)))
        ids = [i for f in final for i in self.symbol_ids(f)]
        if whole is not None and len(final) > 1:  # a token BPE does not reach: the library finds it whole
            events.append((-1, -1, whole - self._offset_of(whole)))
            steps.append(PieceStep(len(steps) + 1, 0, 0, self.rank(whole) or 0, (ids[0], ids[-1]),
                                   label(ids[0]), label(ids[-1]), whole, label(whole), tuple(ids)))
            ids = [whole]
        return tuple(start), ids_before, tuple(events), tuple(steps), tuple(ids)

    def known(self, symbol: Any) -> bool:
        """Whether ``symbol`` (bytes; SentencePiece: text) is a token of the vocabulary."""
        return self._rank_of(symbol) is not None or len(symbol) == 1

    def pair_rank(self, left: int, right: int) -> int | None:
        """The rank of the token two tokens make side by side (None: they make none)."""
        try:
            return self._rank_of(self.symbol(left) + self.symbol(right))
        except KeyError:  # a SentencePiece fallback byte joins nothing
            return None

    def cached(self) -> int:
        """How many tokens' parts are kept now."""
        return len(self._parts)


class _RankedBytes(Inside):
    """Rank-ordered byte-level BPE (tiktoken's kind): the ranks are the merge order, rank + offset the id."""

    def __init__(self, tok: Any) -> None:
        super().__init__(tok)
        self._ranks, self._offset = tok.merge_ranks()
        self._byte_ids = [self._ranks[bytes([b])] + self._offset for b in range(256)]

    @property
    def n_merges(self) -> int:
        return len(self._ranks) - 256

    def rank(self, token_id: int) -> int | None:
        data = self.tok.token_bytes(token_id)
        rank = self._ranks.get(data)
        if rank is None or len(data) < 2 or rank + self._offset != token_id:  # a byte, or a special token
            return None
        return rank

    def is_base(self, token_id: int) -> bool:
        data = self.tok.token_bytes(token_id)
        return len(data) == 1 and self._ranks.get(data, -1) + self._offset == token_id

    def symbol(self, token_id: int) -> bytes:
        return self.tok.token_bytes(token_id)

    def _rank_of(self, symbol: bytes) -> int | None:
        return self._ranks.get(symbol)

    def symbol_ids(self, symbol: bytes) -> list[int]:
        return [self._ranks[symbol] + self._offset]

    def _start(self, piece: str) -> list[bytes]:
        data = piece.encode("utf-8")
        return [data[i : i + 1] for i in range(len(data))]

    def _whole_piece(self, piece: str) -> int | None:
        rank = self._ranks.get(piece.encode("utf-8"))
        return None if rank is None else rank + self._offset

    def _offset_of(self, token_id: int) -> int:
        return self._offset


class _SentencePiece(Inside):
    """SentencePiece BPE: characters (``▁`` a space) merged by score, an unknown character falls back to bytes."""

    unit = "chars"

    def __init__(self, tok: Any) -> None:
        super().__init__(tok)
        self._ids, scores, self._fallback = tok.merge_pieces()
        self._user = sorted(tok.user_symbols(), key=len, reverse=True)  # found whole, longest first
        merged = [i for p, i in self._ids.items() if len(p) > 1 and p not in self._user]
        # The merge order: the highest score first. Pieces with one score share one rank (Mistral's runs of ▁ all
        # score -1e9), and BPE then takes the leftmost pair, as SentencePiece does.
        levels = {score: r for r, score in enumerate(sorted({scores[i] for i in merged}, reverse=True))}
        self._order = {i: levels[scores[i]] for i in merged}
        self._n_merges = len(merged)
        self._rank_by_piece = {p: self._order[i] for p, i in self._ids.items() if i in self._order}
        self._text = {i: p for p, i in self._ids.items()}

    @property
    def n_merges(self) -> int:
        return self._n_merges

    def rank(self, token_id: int) -> int | None:
        self.tok.token_bytes(token_id)
        return self._order.get(token_id)

    def symbol(self, token_id: int) -> str:
        return self._text[token_id]

    def is_base(self, token_id: int) -> bool:
        self.tok.token_bytes(token_id)
        return token_id in self._fallback or len(self._text.get(token_id, "")) == 1

    def _rank_of(self, symbol: str) -> int | None:
        return self._rank_by_piece.get(symbol)

    def symbol_ids(self, symbol: str) -> list[int]:
        found = self._ids.get(symbol)
        if found is not None:
            return [found]
        return [self._fallback[b] for b in symbol.encode("utf-8")]

    def _pieces(self, text: str) -> list[str]:
        # SentencePiece has no pre-split: its "pieces" here are the words the tokens fall in (from one ▁ to the
        # next); merges never join across them, since no piece has a ▁ but at its start... except runs of ▁,
        # so the whole normalised text is one piece when it holds a run of spaces.
        normal = self.tok.normalize(text)
        words: list[str] = []
        for ch in normal:
            if ch == "\u2581" and words and not words[-1].endswith("\u2581"):
                words.append(ch)
            elif not words:
                words.append(ch)
            else:
                words[-1] += ch
        return words

    def _start(self, piece: str) -> list[str]:
        out: list[str] = []
        i = 0
        while i < len(piece):  # a user-defined symbol is one symbol from the start (SentencePiece's prefix match)
            found = next((u for u in self._user if piece.startswith(u, i)), None) if self._user else None
            out.append(found or piece[i])
            i += len(found) if found else 1
        return out

    def label(self, token_id: int) -> str:
        return bytes_label(self.tok.token_bytes(token_id))


_INSIDE: dict[str, Inside] = {}
_INSIDE_LOCK = threading.Lock()


def inside(tok: Any) -> Inside:
    """The :class:`Inside` of a production tokenizer (:mod:`family.real`), one per tokenizer and process.

    Raises ValueError for a tokenizer whose merges the lab cannot read (a lab model has its merges already:
    :mod:`tokenizer.provenance`)."""
    key = getattr(tok, "key", None)
    if key is None or not (hasattr(tok, "merge_ranks") or hasattr(tok, "merge_pieces")):
        raise ValueError(f"{getattr(tok, 'name', tok)!s} is not a production tokenizer whose merges the lab reads.")
    with _INSIDE_LOCK:
        found = _INSIDE.get(key)
        if found is None or found.tok is not tok:
            found = _INSIDE[key] = _RankedBytes(tok) if hasattr(tok, "merge_ranks") else _SentencePiece(tok)
        return found


MAX_TREE_CHARS = 10_000
"""The longest text whose tokens ``tree`` describes (a token a line: a page of text is plenty)."""


def tree_report(tok: Any, text: str | None = None, token_id: int | None = None) -> dict:
    """What the ``tree`` command prints: for each token of ``text`` (or the one ``token_id``) its id, bytes (hex),
    rank and merges in BPE's order. Raises ValueError, with a sentence, for an id out of range, an unused id, a
    text over :data:`MAX_TREE_CHARS` or neither given."""
    view = inside(tok)
    if token_id is not None:
        ids = [token_id]
    elif text is None:
        raise ValueError("give a text, or --id N for one token")
    elif len(text) > MAX_TREE_CHARS:
        raise ValueError(f"the text is {len(text):,} characters; tree describes the tokens of at most "
                         f"{MAX_TREE_CHARS:,} (count counts any length)")
    else:
        ids = tok.encode(text)
    out = []
    for i in ids:
        tok.token_bytes(i)  # an id out of range or unused: ValueError, with the tokenizer's own sentence
        if view.rank(i) is None and not view.is_base(i):
            raise ValueError(f"id {i} is a special token of {tok.name}: no merge made it")
        out.append(tree_json(view, i))
    return {"tokenizer": tok.key, "tokens": out}


def tree_lines(report: dict) -> list[str]:
    """The ``tree`` command's plain output: each token, then its merges, one a line."""
    lines = []
    for t in report["tokens"]:
        head = f"id {t['id']}: {t['bytes']}" + (f" (rank {t['rank']})" if t["rank"] is not None else " (a base symbol)")
        lines.append(head)
        lines += [f"  rank {m['rank']}: {m['left']} + {m['right']} -> {m['result']}" for m in t["merges"]]
    return lines


def replay_lines(replay: Replay) -> list[str]:
    """``encode --steps``'s plain output: the pieces, every merge, the ids."""
    lines = [f"pieces: {' | '.join(repr(p) for p in replay.pieces)}"]
    for s in replay.steps:
        lines.append(f"{s.step}. piece {s.piece + 1}: {s.left} + {s.right} -> {s.token} (rank {s.rank}, id {s.token_id})")
    lines.append("ids: " + " ".join(str(i) for i in replay.ids))
    if not replay.agrees:
        lines.append("library ids: " + " ".join(str(i) for i in replay.library)
                     + "  (the library cuts this text otherwise: a character newer than its Unicode tables)")
    return lines


def tree_json(view: Inside, token_id: int) -> dict:
    """One token as the ``tree`` command prints it: id, bytes (hex), rank, and its merges in BPE's order."""
    return {
        "id": token_id,
        "bytes": view.hex(token_id),
        "rank": view.rank(token_id),
        "merges": [{"left": view.hex(m.left), "right": view.hex(m.right), "result": view.hex(m.result),
                    "rank": m.rank} for m in view.merges(token_id)],
    }


__all__ = ["Inside", "MAX_CACHED", "MAX_REPLAY_CHARS", "MAX_TREE_CHARS", "Merge", "PieceStep", "Replay",
           "ReplayTooLong", "inside", "replay_lines", "run_bpe", "tree_json", "tree_lines", "tree_report"]
