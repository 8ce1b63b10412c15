"""WordPiece's merge rule beside BPE's: the same pair counts, a different score.

BPE merges the pair seen most often. WordPiece (Schuster and Nakajima 2012;
the tokenizer of BERT) asks a different question: which two symbols occur
together *more than their own popularity predicts*? It scores a pair by

    score(a, b) = count(a b) / (count(a) x count(b))

where ``count(a b)`` is how often the pair sits side by side and
``count(a)``, ``count(b)`` how often each symbol occurs at all, every word
weighted by how often it occurs. A pair of two common symbols (``h + a``)
needs a huge count to score well; a pair whose parts hardly occur apart
(``p`` is always followed by ``o``) scores high with a small count.

This module trains a merge sequence with either rule over exactly the same
machinery, so the score is the only difference: the same pre-split, the
same starting symbols and ids as :func:`tokenizer.train`, the pair counts of
the readable reference trainer (:func:`tokenizer.reference.count_pairs`),
its :func:`~tokenizer.reference.merge`. With ``rule="count"`` it learns
exactly the merges :func:`tokenizer.train` learns.

The tie rule, for both rules: among the pairs with the top value (the count,
or the score compared exactly, as fractions), the pair met first wins,
reading the distinct words in order of first appearance, each left to right
(the lab's ``"first"`` rule).

A simplification, said out loud: real WordPiece vocabularies (BERT's) write a
piece that continues a word with the prefix ``##`` (``chai`` then ``##wala``),
so ``a`` at the start of a word and ``##a`` inside one are two different
tokens. This trainer does not: it starts from the same symbols as BPE, so
the score rule is the only thing that changes. :func:`continuation_labels`
writes its tokens the WordPiece way for display.

The chai stall, merge 1:

>>> bpe = train_by_rule(CHAI, 1, rule="count", unit="chars", split="whitespace")
>>> wp = train_by_rule(CHAI, 1, rule="score", unit="chars", split="whitespace")
>>> s = bpe.steps[0]
>>> (s.winner.left, s.winner.right, s.winner.count, s.winner.left_count, s.winner.right_count, str(s.winner.score))
('h', 'a', 11, 11, 21, '1/21')
>>> w = wp.steps[0]
>>> (w.winner.left, w.winner.right, w.winner.count, w.winner.left_count, w.winner.right_count, str(w.winner.score))
('p', 'o', 4, 4, 5, '1/5')
>>> [(c.left, c.right, str(c.score)) for c in w.ties]   # m + o ties at 1/5; p + o is met first (poha, then samosa)
[('p', 'o', '1/5'), ('m', 'o', '1/5')]
"""

from __future__ import annotations

import heapq
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from tokenizer.model import DEFAULTS, Tokenizer
from tokenizer.reference import count_pairs, merge
from tokenizer.train import MAX_TIES, TABLE_SIZE, StopReason, WordSplit, segmentation, train
from tokenizer.vocab import Vocabulary

Pair = tuple[int, int]
RULES = ("count", "score")
RULE_NAMES = {"count": "BPE", "score": "WordPiece"}
CONTINUATION = "##"
CHAI = "chai chai chai chaiwala chaiwala chaat chaat poha poha poha pohawala samosa"

# Two scores closer than this (relatively) are compared exactly, as fractions; a float
# division is off by at most 2**-53 relatively, so nothing further apart can be misordered.
_NEAR = 1e-9


# -- the two numbers ---------------------------------------------------------------------------
def wordpiece_score(pair_count: int, left_count: int, right_count: int) -> Fraction:
    """``count(a b) / (count(a) x count(b))``, exactly.

    >>> wordpiece_score(4, 4, 5), wordpiece_score(11, 11, 21)
    (Fraction(1, 5), Fraction(1, 21))
    """
    if left_count <= 0 or right_count <= 0:
        raise ValueError("A symbol of a pair that occurs must occur itself: its count cannot be 0.")
    return Fraction(pair_count, left_count * right_count)


def symbol_counts(words: Sequence[tuple[Sequence[int], int]]) -> dict[int, int]:
    """How often each symbol occurs, every word weighted by how often it occurs.

    >>> symbol_counts([([1, 2, 1], 3), ([2], 1)])
    {1: 6, 2: 4}
    """
    counts: dict[int, int] = {}
    for symbols, times in words:
        for symbol in symbols:
            counts[symbol] = counts.get(symbol, 0) + times
    return counts


def continuation_labels(labels: Sequence[str], prefix: str = CONTINUATION) -> list[str]:
    """A word's tokens written the WordPiece way: every token after the first carries ``##``.

    >>> continuation_labels(["poha", "wal", "a"])
    ['poha', '##wal', '##a']
    """
    return [label if i == 0 else prefix + label for i, label in enumerate(labels)]


# -- one step's numbers ------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Candidate:
    """A pair of neighbouring symbols with the three counts both rules read.

    ``count``: how often the pair occurs; ``left_count`` and ``right_count``: how often
    its left and its right symbol occur at all (each word weighted by how often it occurs).
    """

    pair: Pair
    left: str
    right: str
    count: int
    left_count: int
    right_count: int

    @property
    def score(self) -> Fraction:
        """WordPiece's score, exactly."""
        return wordpiece_score(self.count, self.left_count, self.right_count)

    def value(self, rule: str) -> int | Fraction:
        """What ``rule`` ranks by: the count (BPE) or the score (WordPiece)."""
        return self.count if rule == "count" else self.score


@dataclass(frozen=True, slots=True)
class RuleStep:
    """One merge of one rule, and what the other rule would have merged on the same corpus.

    ``winner``   the merged pair; ``token_id`` and ``token`` the new token.
    ``ties``     every pair with the winner's value under this rule, the winner first
                 (at most ``max_ties``); ``n_tied`` how many there were in all (1: no tie).
    ``other``    the pair the other rule picks on this same corpus (it may be the winner).
    ``by_count`` the top of the table by count; ``by_score`` by score (each in its rule's
                 order, ties broken by first seen); ``n_pairs`` how many distinct pairs there were.
    ``first_seen`` where the winner is met first: (index of the word in ``RuleTrace.words``,
                 position of the pair's left symbol in that word's tokens before the merge).
    """

    step: int
    rule: str
    winner: Candidate
    token_id: int
    token: str
    ties: tuple[Candidate, ...]
    n_tied: int
    other: Candidate
    by_count: tuple[Candidate, ...]
    by_score: tuple[Candidate, ...]
    n_pairs: int
    first_seen: tuple[int, int]

    @property
    def agree(self) -> bool:
        """Both rules pick the same pair here."""
        return self.other.pair == self.winner.pair


@dataclass(frozen=True)
class RuleTrace:
    """A merge sequence learned by one rule: the tokenizer, every step, the corpus words."""

    rule: str
    tokenizer: Tokenizer
    steps: tuple[RuleStep, ...]
    words: tuple[tuple[str, int], ...]
    requested: int
    stop_reason: StopReason | None = None

    @property
    def name(self) -> str:
        """``"BPE"`` or ``"WordPiece"``."""
        return RULE_NAMES[self.rule]

    def segmentation(self, step: int) -> list[WordSplit]:
        """The corpus words as they stand after ``step`` merges (0: before any)."""
        return segmentation(self.tokenizer, self.words, step, len(self.steps))


def _ranked_by_score(
    counts: Mapping[Pair, int], first_met: Mapping[Pair, int], symbols: Mapping[int, int], top: int
) -> tuple[list[Pair], int]:
    """The ``top`` pairs by score (exact; ties by first met) and how many share the best score.

    Floats order the pairs quickly; the ones within a hair of the cut-off (or of the best)
    are then compared exactly as fractions, so a tie is a tie and never a rounding error.
    """
    approx = {p: c / (symbols[p[0]] * symbols[p[1]]) for p, c in counts.items()}
    order = sorted(counts, key=lambda p: (-approx[p], first_met[p]))
    best = approx[order[0]]
    cut = approx[order[min(top, len(order)) - 1]]
    keep = [p for p in order if approx[p] >= min(cut, best) * (1 - _NEAR)]
    exact = {p: Fraction(counts[p], symbols[p[0]] * symbols[p[1]]) for p in keep}
    keep.sort(key=lambda p: (-exact[p], first_met[p]))
    n_best = sum(1 for p in keep if exact[p] == exact[keep[0]])
    return keep, n_best


# -- training ----------------------------------------------------------------------------------
def train_by_rule(
    corpus: str | Mapping[str, int],
    merges: int,
    *,
    rule: str,
    unit: str = DEFAULTS.unit,
    split: str = DEFAULTS.split,
    pattern: str = DEFAULTS.pattern,
    end_of_word: str | None = DEFAULTS.end_of_word,
    ties: str = DEFAULTS.ties,
    table_size: int = TABLE_SIZE,
    max_ties: int = MAX_TIES,
) -> RuleTrace:
    """Learn up to ``merges`` merges, picking each by ``rule``: ``"count"`` (BPE) or ``"score"`` (WordPiece).

    The settings are :func:`tokenizer.train`'s (the tie rule can only be ``"first"``). Every
    step recounts the pairs from scratch (the readable way), so keep corpora small: this is
    for watching, not for training a production vocabulary.

    >>> trace = train_by_rule("news " * 5 + "new " * 3 + "newer " * 2, 2, rule="score", unit="chars", split="whitespace")
    >>> [(s.winner.left, s.winner.right, str(s.winner.score), s.n_tied) for s in trace.steps]
    [('w', 's', '1/10', 1), ('n', 'e', '1/12', 4)]
    """
    if rule not in RULES:
        raise ValueError(f"Unknown rule {rule!r}: use 'count' (BPE) or 'score' (WordPiece).")
    if ties != "first":
        raise ValueError("The BPE / WordPiece comparison breaks ties one way only: 'first' (the pair met first).")
    # Zero merges of the lab's trainer: the same checks, the same words, the same starting ids.
    start = train(corpus, 0, unit=unit, split=split, pattern=pattern, end_of_word=end_of_word, ties=ties)
    if isinstance(merges, bool) or not isinstance(merges, int) or merges < 0:
        raise ValueError(f"The number of merges must be a whole number, 0 or more (got {merges!r}).")
    tok0 = start.tokenizer
    vocab = Vocabulary(tok0.config.unit, tok0.base or None, tok0.config.end_of_word)
    words: list[tuple[list[int], int]] = [(tok0.segment(word, 0), n) for word, n in start.words]
    other_rule = "score" if rule == "count" else "count"

    steps: list[RuleStep] = []
    stop_reason = None
    for step in range(1, merges + 1):
        counts, first_met = count_pairs(words)
        if not counts:
            stop_reason = StopReason.NO_PAIRS
            break
        symbols = symbol_counts(words)

        def candidate(p: Pair, counts=counts, symbols=symbols) -> Candidate:  # this step's counts, bound now
            return Candidate(p, vocab.label(p[0]), vocab.label(p[1]), counts[p], symbols[p[0]], symbols[p[1]])

        by_count = heapq.nsmallest(max(table_size, max_ties, 1), counts, key=lambda p: (-counts[p], first_met[p]))
        n_top_count = sum(1 for c in counts.values() if c == counts[by_count[0]])
        by_score, n_top_score = _ranked_by_score(counts, first_met, symbols, max(table_size, max_ties, 1))
        ranked, n_tied = (by_count, n_top_count) if rule == "count" else (by_score, n_top_score)
        best = ranked[0]
        other = (by_count if other_rule == "count" else by_score)[0]
        winner = candidate(best)
        tied = tuple(candidate(p) for p in ranked[: min(n_tied, max_ties)])
        first_seen = next(
            (w, i) for w, (symbols_w, _) in enumerate(words) for i in range(len(symbols_w) - 1)
            if (symbols_w[i], symbols_w[i + 1]) == best
        )
        new_id = vocab.add_merge(*best)
        steps.append(
            RuleStep(
                step=step,
                rule=rule,
                winner=winner,
                token_id=new_id,
                token=vocab.label(new_id),
                ties=tied,
                n_tied=n_tied,
                other=candidate(other),
                by_count=tuple(candidate(p) for p in by_count[:table_size]),
                by_score=tuple(candidate(p) for p in by_score[:table_size]),
                n_pairs=len(counts),
                first_seen=first_seen,
            )
        )
        words = [(merge(symbols_w, best, new_id), n) for symbols_w, n in words]
    return RuleTrace(
        rule=rule,
        tokenizer=Tokenizer.from_vocabulary(tok0.config, vocab, name=f"Lab {RULE_NAMES[rule]}-style model"),
        steps=tuple(steps),
        words=start.words,
        requested=merges,
        stop_reason=stop_reason,
    )


def train_wordpiece(corpus: str | Mapping[str, int], merges: int, **settings) -> RuleTrace:
    """WordPiece's rule: each merge is the pair with the highest score (see :func:`train_by_rule`)."""
    return train_by_rule(corpus, merges, rule="score", **settings)


def first_difference(a: RuleTrace, b: RuleTrace) -> int | None:
    """The first step at which two traces merge different pairs (None: they agree throughout).

    >>> first_difference(train_by_rule(CHAI, 3, rule="count", unit="chars", split="whitespace"),
    ...                  train_by_rule(CHAI, 3, rule="score", unit="chars", split="whitespace"))
    1
    """
    for x, y in zip(a.steps, b.steps):
        if x.winner.pair != y.winner.pair:
            return x.step
    if len(a.steps) != len(b.steps):
        return min(len(a.steps), len(b.steps)) + 1
    return None


__all__ = [
    "CONTINUATION",
    "Candidate",
    "RULES",
    "RULE_NAMES",
    "RuleStep",
    "RuleTrace",
    "continuation_labels",
    "first_difference",
    "symbol_counts",
    "train_by_rule",
    "train_wordpiece",
    "wordpiece_score",
]
