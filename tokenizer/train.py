"""BPE training that returns a trace you can replay, one merge at a time.

The algorithm is the textbook one: count every adjacent pair of symbols
inside every word (weighted by how often the word occurs), merge the most
frequent pair into a new symbol, repeat. Recounting everything after every
merge is slow, so this trainer keeps the counts up to date instead: a merge
only changes the pairs next to where it fired, in the words that hold it.

A heap ordered by (count, tie key) finds the best pair. Counts only ever
fall for an existing pair (a merge creates new pairs only with its new
token), so stale heap entries are always *too good*; popping one, we check
it against the live counts and push it back corrected if it is stale.

Tie rules, when several pairs share the top count:

``first``  the pair met first when scanning the distinct words in order of
           first appearance, each left to right, over the current
           segmentation (the rule of every curriculum example);
``hf``     the smallest pair of ids in Hugging Face ``tokenizers``'
           numbering (its byte-level alphabet is sorted by the printable
           stand-in character of each byte), so learners can watch two real
           rules disagree.
"""

from __future__ import annotations

import heapq
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from enum import Enum
from operator import add

from .bytelevel import hf_base_rank
from .interface import UNKNOWN_ID
from .model import DEFAULTS, Tokenizer, TrainConfig
from .pretokenize import split_text, split_texts
from .vocab import Vocabulary

ProgressCallback = Callable[[int, int], None]

# How much of each step's ranking a trace keeps: the pair-count table and the tied pairs.
TABLE_SIZE = 10
"""Rows of the pair-count table kept per step, unless told (:func:`train`, ``train_by_rule``)."""
MAX_TIES = 20
"""Tied pairs listed per step, unless told."""
SHOWN_TABLE_SIZE = 12
"""What the lab's pages and its exercises keep (both train with these), so an exercise's answer is
read from the very trace a page draws."""
SHOWN_MAX_TIES = 12


class StopReason(str, Enum):
    """Why training stopped before the requested number of merges (a value, not a sentence:
    a page says it in its own words)."""

    NO_PAIRS = "no_pairs"
    """Every word is a single token: no pair is left to merge."""


@dataclass(frozen=True, slots=True)
class PairCount:
    """One row of the pair-count table: a pair of ids, their labels, and its count."""

    pair: tuple[int, int]
    left: str
    right: str
    count: int


@dataclass(frozen=True, slots=True)
class MergeStep:
    """What happened at one step of training.

    ``ties`` lists the pairs that shared the winning count, in the order
    the tie rule ranks them, the winner first (at most ``max_ties`` of them);
    ``n_tied`` is how many there were in all (1: no tie). ``table`` is the
    top of the pair-count table *before* the merge, in rank order, and
    ``n_pairs`` how many distinct pairs that table had in all.
    ``first_seen`` (tie rule ``first``) is where the winning pair is met
    first reading the corpus: (index of the distinct word in
    ``Trace.words``, position of the pair's left symbol in that word's
    tokens before the merge); None under rule ``hf``.
    """

    step: int
    pair: tuple[int, int]
    left: str
    right: str
    token_id: int
    token: str
    count: int
    ties: tuple[PairCount, ...]
    n_tied: int
    table: tuple[PairCount, ...]
    n_pairs: int
    vocab_size: int
    first_seen: tuple[int, int] | None = None


@dataclass(frozen=True, slots=True)
class WordSplit:
    """A distinct word of the corpus, how often it occurs, and its tokens at some step."""

    word: str
    count: int
    ids: tuple[int, ...]
    tokens: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class PairSource:
    """One word's share of a pair's count: the pair occurs ``in_word`` times in ``word``, which occurs
    ``word_count`` times, so it adds ``in_word * word_count``."""

    word: str
    in_word: int
    word_count: int

    @property
    def adds(self) -> int:
        return self.in_word * self.word_count


def segmentation(tok: Tokenizer, words: Iterable[tuple[str, int]], step: int, steps: int) -> list[WordSplit]:
    """Corpus ``words`` (word, count) as they stand after ``step`` of a trace's ``steps`` merges (0: before any)."""
    if not 0 <= step <= steps:
        raise ValueError(f"Step {step} is outside this trace (0 to {steps}).")
    out = []
    for word, count in words:
        ids = tuple(tok.segment(word, step))
        out.append(WordSplit(word, count, ids, tuple(tok.label(i) for i in ids)))
    return out


@dataclass(frozen=True)
class Trace:
    """The result of training: the tokenizer, every step, and the corpus to replay them on."""

    tokenizer: Tokenizer
    steps: tuple[MergeStep, ...]
    words: tuple[tuple[str, int], ...]
    requested: int
    stop_reason: StopReason | None = None
    total_words: int = field(default=0)

    @property
    def config(self) -> TrainConfig:
        return self.tokenizer.config

    @property
    def base_size(self) -> int:
        """How many base symbols the vocabulary starts with (the 256 bytes, or the corpus's characters)."""
        return self.tokenizer.first_merge_id

    @property
    def stopped_early(self) -> bool:
        return self.stop_reason is not None

    def segmentation(self, step: int) -> list[WordSplit]:
        """The corpus words as they stand after ``step`` merges (0: before any)."""
        return segmentation(self.tokenizer, self.words, step, len(self.steps))

    def pair_sources(self, step: int, max_words: int = 20_000) -> tuple[list[PairSource], bool]:
        """How merge ``step``'s count adds up, word by word, in corpus order.

        Returns the words holding the pair just before the merge, and whether
        every distinct word was read (only the first ``max_words`` are, on a
        big corpus).

        >>> trace = train("chai chai chai chaiwala chaiwala chaat chaat poha poha poha pohawala samosa", 1,
        ...               unit="chars", split="whitespace")
        >>> sources, complete = trace.pair_sources(1)
        >>> [(p.word, p.adds) for p in sources], sum(p.adds for p in sources)
        ([('chai', 3), ('chaiwala', 2), ('chaat', 2), ('poha', 3), ('pohawala', 1)], 11)
        """
        if not 1 <= step <= len(self.steps):  # step 0 is before any merge: there is no pair to add up
            raise ValueError(f"Merge {step} is outside this trace (1 to {len(self.steps)}).")
        merge = self.steps[step - 1]
        a, b = merge.pair
        tok = self.tokenizer
        out = []
        for word, count in self.words[:max_words]:
            ids = tok.segment(word, step - 1)
            n = sum(1 for x, y in zip(ids, ids[1:]) if x == a and y == b)
            if n:
                out.append(PairSource(word, n, count))
        return out, len(self.words) <= max_words

    def hf_number(self, token_id: int) -> int:
        """A token's number in Hugging Face's order, which rule ``hf`` breaks ties by: the base
        symbols sorted (bytes by their GPT-2 stand-in character), then merged tokens in the order made."""
        tok = self.tokenizer
        if token_id >= tok.first_merge_id:
            return token_id
        return hf_base_rank(tok.unit, tok.base, tok.first_merge_id)[token_id]

    def tokenizer_at(self, step: int) -> Tokenizer:
        """A tokenizer that knows only the first ``step`` merges."""
        tok = self.tokenizer
        return Tokenizer(tok.config, tok.merges[:step], tok.base or None)


def _excerpt(word: str, marker: str, width: int = 30) -> str:
    """``word``, or the part of it around ``marker`` when it is long."""
    if len(word) <= width:
        return word
    at = word.index(marker)
    start = max(0, min(at - width // 2, len(word) - width))
    return ("…" if start else "") + word[start : start + width] + ("…" if start + width < len(word) else "")


def count_words(text: str, config: TrainConfig) -> dict[str, int]:
    """Distinct pre-split pieces with their counts, in order of first appearance."""
    return dict(Counter(split_text(text, config.split, config.pattern)))


def train(
    corpus: str | Mapping[str, int],
    merges: int,
    *,
    unit: str = DEFAULTS.unit,
    split: str = DEFAULTS.split,
    pattern: str = DEFAULTS.pattern,
    end_of_word: str | None = DEFAULTS.end_of_word,
    ties: str = DEFAULTS.ties,
    table_size: int = TABLE_SIZE,
    max_ties: int | None = MAX_TIES,
    progress: ProgressCallback | None = None,
) -> Trace:
    """Learn up to ``merges`` merges from ``corpus`` and return the :class:`Trace`.

    ``corpus`` is text, or a mapping of word -> count (in order of first
    appearance). Training stops early, and the trace says why, when no pair
    is left to merge. ``table_size`` bounds the pair-count table kept per
    step; ``max_ties`` bounds the tied pairs listed per step (None: all).
    ``progress(done, total)`` is called now and then on long runs.

    >>> trace = train("low low low lower lowest", 4, unit="chars", split="whitespace")
    >>> [(s.left, s.right, s.count) for s in trace.steps]
    [('l', 'o', 5), ('lo', 'w', 5), ('low', 'e', 2), ('lowe', 'r', 1)]
    >>> trace.steps[3].n_tied
    3
    """
    config = TrainConfig(unit=unit, split=split, pattern=pattern, end_of_word=end_of_word, ties=ties)
    if isinstance(merges, bool) or not isinstance(merges, int) or merges < 0:
        raise ValueError(f"The number of merges must be a whole number, 0 or more (got {merges!r}).")
    word_counts = _word_counts(corpus, config)
    _check_marker(word_counts, config.end_of_word)
    vocab = Vocabulary(config.unit, _base_symbols(config, word_counts), config.end_of_word)
    words = [vocab.symbol_string(w) for w in word_counts]
    freqs = list(word_counts.values())
    base_rank = hf_base_rank(unit, vocab.base, vocab.first_merge_id) if ties == "hf" else []
    trainer = _Trainer(words, freqs, config.ties, base_rank, vocab.first_merge_id)

    steps: list[MergeStep] = []
    stop_reason = None
    every = max(1, merges // 100)
    for step in range(1, merges + 1):
        chosen = trainer.choose(table_size, max_ties)
        if chosen is None:
            stop_reason = StopReason.NO_PAIRS
            break
        first_seen = trainer.where_first(chosen.pair) if trainer.first_rule else None
        new_id = vocab.add_merge(ord(chosen.pair[0]), ord(chosen.pair[1]))
        trainer.merge(chosen.pair, chr(new_id))
        steps.append(_merge_step(step, chosen, new_id, first_seen, vocab))
        if progress is not None and (step % every == 0 or step == merges):
            progress(step, merges)
    return Trace(
        tokenizer=Tokenizer.from_vocabulary(config, vocab),
        steps=tuple(steps),
        words=tuple(word_counts.items()),
        requested=merges,
        stop_reason=stop_reason,
        total_words=sum(freqs),
    )


def _word_counts(corpus: str | Mapping[str, int], config: TrainConfig) -> dict[str, int]:
    """Each distinct pre-split word of ``corpus`` (text, or word -> count) with how often it occurs, in order of
    first appearance."""
    if isinstance(corpus, str):
        word_counts = count_words(corpus, config)
    else:
        word_counts = {}
        for word, count in corpus.items():
            if isinstance(count, bool) or not isinstance(count, int) or count < 1:
                raise ValueError(f"The count of {word!r} must be a whole number, 1 or more.")
        # one split for all the words: one time budget, not one each
        for pieces, count in zip(split_texts(list(corpus), config.split, config.pattern), corpus.values()):
            for piece in pieces:
                word_counts[piece] = word_counts.get(piece, 0) + count
    if not word_counts:
        raise ValueError("The corpus has no words to learn from: give it some text.")
    return word_counts


def _check_marker(word_counts: Mapping[str, int], marker: str | None) -> None:
    """A one-character end-of-word marker must not occur in the text: in the character unit it would be one symbol
    for both, in the byte unit two tokens that look the same (the letter and the marker)."""
    if marker is None or len(marker) != 1:
        return
    clash = next((word for word in word_counts if marker in word), None)
    if clash is not None:
        raise ValueError(
            f"The end-of-word marker {marker!r} also occurs in the text (in {_excerpt(clash, marker)!r}): "
            "pick a marker that does not, such as '</w>'."
        )


def _base_symbols(config: TrainConfig, word_counts: Mapping[str, int]) -> list[str] | None:
    """The character unit's base symbols: characters in order of first appearance, the marker after the first
    word's. None in the byte unit (its base is the 256 bytes)."""
    if config.unit == "bytes":
        return None
    seen: dict[str, None] = {}
    for word in word_counts:
        for ch in word:
            seen.setdefault(ch, None)
        if config.end_of_word is not None:
            seen.setdefault(config.end_of_word, None)
    return list(seen)


def _merge_step(step: int, chosen: _Choice, new_id: int, first_seen: tuple[int, int] | None,
                vocab: Vocabulary) -> MergeStep:
    """What the trace keeps of one merge: the pair, the new token, the ties and the top of the pair-count table."""
    labels = vocab.labels  # id -> label, the new token's included
    a, b = ord(chosen.pair[0]), ord(chosen.pair[1])

    def row(q: Pair, c: int) -> PairCount:
        x, y = ord(q[0]), ord(q[1])
        return PairCount((x, y), labels[x], labels[y], c)

    # The tied pairs and the table are both the top of one ranking: build the rows of the longer once and give
    # the shorter its first rows.
    tied, table = chosen.tied, chosen.table
    rows = [row(q, c) for q, c in (tied if len(tied) > len(table) else table)]
    return MergeStep(step=step, pair=(a, b), left=labels[a], right=labels[b], token_id=new_id, token=labels[new_id],
                     count=chosen.count, ties=tuple(rows[: len(tied)]), n_tied=chosen.n_tied,
                     table=tuple(rows[: len(table)]), n_pairs=chosen.n_pairs, vocab_size=vocab.size,
                     first_seen=first_seen)


Pair = str
"""A pair of symbols as the trainer holds it: two characters, ``chr(left id) + chr(right id)``. A word is a string
of such characters (one per symbol), so finding, counting and merging a pair in it are str operations done in C."""


@dataclass(frozen=True, slots=True)
class _Choice:
    """One step's choice (:meth:`_Trainer.choose`): the winning pair and its count, the pairs tied with it (at most
    ``max_ties``) and how many there were, the top ``table_size`` rows of the pair-count table, and how many distinct
    pairs there were. Rows are ``(pair, count)``, the winner first."""

    pair: Pair
    count: int
    tied: list[tuple[Pair, int]]
    n_tied: int
    table: list[tuple[Pair, int]]
    n_pairs: int


class _Trainer:
    """Incremental pair counts over symbol-string words (see the module docstring and :data:`Pair`)."""

    def __init__(self, words: list[str], freqs: list[int], ties: str, base_rank: list[int], first_id: int) -> None:
        self.words = words
        self.freqs = freqs
        self.first_rule = ties == "first"
        self.base_rank = base_rank
        self.first_id = first_id
        # One pass lists, for every pair, the words it occurs in (a word once per
        # occurrence, in word order); counts, holders and first words all follow
        # from those lists, the sums done by C code rather than one step at a time.
        occurs: defaultdict[str, list[int]] = defaultdict(list)
        for w, s in enumerate(words):
            for q in map(add, s, s[1:]):
                occurs[q].append(w)
        freq = freqs.__getitem__
        self.counts: dict[str, int] = {q: sum(map(freq, ws)) for q, ws in occurs.items()}
        self.where: dict[str, set[int]] = {q: set(ws) for q, ws in occurs.items()}
        self.first_word: dict[str, int] = {q: ws[0] for q, ws in occurs.items()}
        self.hist: Counter[int] = Counter(self.counts.values())
        self.heap = [(-c, self._key(q), q) for q, c in self.counts.items()]
        heapq.heapify(self.heap)

    # The second element of a heap entry: the first word holding the pair
    # (rule "first"; pairs in the same word are then ordered by position),
    # or a fixed rank of the pair (rule "hf").
    def _key(self, q: str) -> int:
        if self.first_rule:
            return self.first_word[q]
        rank = self.base_rank
        a, b = ord(q[0]), ord(q[1])
        ra = rank[a] if a < self.first_id else a
        rb = rank[b] if b < self.first_id else b
        return (ra << 21) | rb

    def _first_word(self, q: str) -> int:
        w = self.first_word[q]
        if q in self.words[w]:
            return w
        holders = self.where[q]
        live = {v for v in holders if q in self.words[v]}
        self.where[q] = live
        w = min(live)
        self.first_word[q] = w
        return w

    def where_first(self, q: str) -> tuple[int, int]:
        """(word, position) where pair ``q`` is met first reading the words in order, each left to right."""
        w = self._first_word(q)
        return w, self.words[w].find(q)

    def _pop_valid(self) -> tuple[int, int, str] | None:
        heap, counts = self.heap, self.counts
        while heap:
            negc, key, q = heapq.heappop(heap)
            c = counts.get(q, 0)
            if c == 0:
                continue
            if self.first_rule:
                fresh = self._first_word(q)
                if c == -negc and fresh == key:
                    return c, key, q
                heapq.heappush(heap, (-c, fresh, q))
            elif c == -negc:
                return c, key, q
            else:
                heapq.heappush(heap, (-c, key, q))
        return None

    def choose(self, table_size: int, max_ties: int | None) -> _Choice | None:
        """Pick the winning pair; also gather the tied pairs and the top of the table.

        Both lists are (pair, count) rows from the top of the same ranking, the winner first.
        """
        top = self._pop_valid()
        if top is None:
            return None
        best_count = top[0]
        n_tied = self.hist[best_count]
        want = max(table_size, n_tied if max_ties is None else min(max_ties, n_tied), 1)
        got = [top]
        while True:
            last = got[-1]
            same_group = False
            nxt = self._pop_valid()
            if nxt is None:
                break
            same_group = nxt[0] == last[0] and nxt[1] == last[1]
            if len(got) >= want and not same_group:
                heapq.heappush(self.heap, (-nxt[0], nxt[1], nxt[2]))
                break
            got.append(nxt)
        if self.first_rule:
            words = self.words
            got.sort(key=lambda e: (-e[0], e[1], words[e[1]].find(e[2])))
        else:
            got.sort(key=lambda e: (-e[0], e[1]))
        winner = got[0]
        for e in got[1:]:
            heapq.heappush(self.heap, (-e[0], e[1], e[2]))
        tied = [(e[2], e[0]) for e in got if e[0] == best_count]
        if max_ties is not None:
            tied = tied[:max_ties]
        table = [(e[2], e[0]) for e in got[:table_size]]
        return _Choice(winner[2], best_count, tied, n_tied, table, len(self.counts))

    def merge(self, pair: str, z: str) -> None:
        """Merge ``pair`` into the new symbol ``z`` in every word, updating the counts."""
        a, b = pair[0], pair[1]
        words, counts, hist = self.words, self.counts, self.hist
        # Only the pairs touching an occurrence change: (x, a) -> (x, z),
        # (b, y) -> (z, y), and (b, a) -> (z, z) between two occurrences side by
        # side. So the loop lists just the new pairs (those holding z), with the
        # words they occur in; each one's count and the pair it replaces follow.
        occurs: defaultdict[str, list[int]] = defaultdict(list)
        for w in self.where.pop(pair):
            s = words[w]
            if pair not in s:
                continue
            parts = s.split(pair)  # the parts between occurrences (or a word edge)
            words[w] = z.join(parts)
            head, tail = parts[0], parts[-1]
            if head:
                occurs[head[-1] + z].append(w)
            if tail:
                occurs[z + tail[0]].append(w)
            if len(parts) > 2:  # the pair occurs two or more times: the parts between
                for part in parts[1:-1]:
                    if part:
                        occurs[z + part[0]].append(w)
                        occurs[part[-1] + z].append(w)
                    else:
                        occurs[z + z].append(w)
        freq = self.freqs.__getitem__
        inc = {q: sum(map(freq, ws)) for q, ws in occurs.items()}
        dec: dict[str, int] = {}
        dget = dec.get
        for q, c in inc.items():
            x, y = q[0], q[1]  # a pair is two characters, chr(left id) + chr(right id)
            gone = (b if x == z else x) + (a if y == z else y)  # the old pair q replaces
            dec[gone] = dget(gone, 0) + c
        old = counts.pop(pair)
        hist[old] -= 1
        self.first_word.pop(pair, None)
        for q, d in dec.items():
            if q == pair:  # a == b: the pair's own later occurrences, already gone with it
                continue
            c = counts[q]
            hist[c] -= 1
            c -= d
            if c:
                counts[q] = c
                hist[c] += 1
            else:
                del counts[q]
        push = heapq.heappush
        for q, c in inc.items():
            counts[q] = c
            hist[c] += 1
            ws = occurs[q]
            self.where[q] = set(ws)
            self.first_word[q] = min(ws)
            push(self.heap, (-c, self._key(q), q))


__all__ = ["MergeStep", "PairCount", "PairSource", "StopReason", "Trace", "WordSplit", "count_words", "train", "UNKNOWN_ID"]
