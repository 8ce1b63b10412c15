"""Unigram (Kudo 2018), trained with SentencePiece on a small corpus, offline and in memory.

BPE and WordPiece grow a vocabulary from single characters, one merge at a
time. Unigram goes the other way: it starts from a large set of candidate
pieces (frequent substrings of the corpus), gives every piece a probability,
and prunes, round after round, the pieces whose removal hurts the
likelihood of the corpus least, until the vocabulary has the size asked
for. It always keeps every character it saw, so any text made of them can
be written.

A text's segmentation is then a choice among many: each way of writing it
as pieces has a probability, the product of its pieces' probabilities (a
piece's *score* is the logarithm of its probability, so a segmentation's
score is the sum of its pieces' scores). Encoding picks the most likely
one; *subword regularisation* samples a different one each time a model
sees the text in training, so the model learns that ``▁chai`` and ``▁cha i``
mean the same thing.

The training is SentencePiece's own (``model_type="unigram"``), fed
sentences from memory and writing its model to a ``BytesIO``: nothing
touches the disk or the network; so are the best segmentation and the n-best
list. Sampling is SentencePiece's algorithm written out in Python (see
:meth:`UnigramModel.sample`), so a seed gives the same draws everywhere.
``sentencepiece`` is imported only when a model is trained or used, never by
``import tokenizer``.

Settings that keep the lab's view honest: ``character_coverage=1.0`` (every
character is kept: Hindi too), ``normalization_rule_name="identity"`` (the
text is read as typed; production SentencePiece models usually apply NFKC),
one thread, so a corpus always gives the same model.

>>> model = train_unigram("chai chai chai chaiwala chaiwala chaat chaat poha poha poha pohawala samosa", 30)
>>> model.vocab_size, model.requested        # this corpus supports fewer pieces than asked for
(19, 30)
>>> [p.piece for p in model.by_score()][:3]
['a', '▁chai', '▁poha']
>>> model.encode("chaiwala").pieces
('▁chai', 'w', 'a', 'l', 'a')
>>> [seg.pieces for seg in model.nbest("chaiwala", 3)][1]
('▁cha', 'i', 'w', 'a', 'l', 'a')
"""

from __future__ import annotations

import io
import math
import random
import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from i18n import _, number

SPACE = "\u2581"  # ▁: SentencePiece's mark for a space
META = ("<unk>", "<s>", "</s>")
"""The pieces SentencePiece adds to every model: unknown, begin and end of a sentence."""

MAX_SENTENCE_BYTES = 2_000
"""SentencePiece skips sentences longer than its limit (4,192 bytes); longer lines are cut at spaces."""

MAX_VOCAB = 5_000


class UnigramError(ValueError):
    """The corpus or the settings cannot give a model; ``str()`` says why and what to do, for a learner."""


@dataclass(frozen=True, slots=True)
class Piece:
    """One vocabulary entry: its id, its text (``▁`` for a space), its score and what kind it is.

    ``kind``: ``"special"`` (``<unk>``, ``<s>``, ``</s>``: no score of their own), ``"character"``
    (one character, or ``▁`` alone) or ``"piece"`` (longer). ``score`` is the natural log of the
    piece's probability.
    """

    id: int
    piece: str
    score: float
    kind: str

    @property
    def probability(self) -> float:
        return math.exp(self.score)


@dataclass(frozen=True, slots=True)
class Segmentation:
    """One way to write a text as pieces, and its score: the sum of its pieces' scores (a log probability)."""

    pieces: tuple[str, ...]
    score: float
    unknown_at: tuple[int, ...] = ()
    """The positions of the pieces outside the vocabulary."""

    @property
    def unknown(self) -> int:
        """How many pieces are outside the vocabulary (characters the corpus never had)."""
        return len(self.unknown_at)

    @property
    def text(self) -> str:
        """The pieces joined back into text: ``▁`` is a space, and the space SentencePiece put in front goes."""
        joined = "".join(self.pieces).replace(SPACE, " ")
        return joined[1:] if joined.startswith(" ") else joined


def sentences(corpus: str, max_bytes: int = MAX_SENTENCE_BYTES) -> list[str]:
    """The corpus as SentencePiece's training sentences: its lines, a long line cut at spaces.

    A run without spaces longer than ``max_bytes`` is cut into ``max_bytes`` pieces (at a
    character boundary), so nothing is dropped.

    >>> sentences("chai chai\\n\\npoha poha poha", max_bytes=10)
    ['chai chai', 'poha poha', 'poha']
    """
    out: list[str] = []
    for line in corpus.splitlines():
        current: list[str] = []
        size = 0
        for word in line.split():
            data = word.encode("utf-8", errors="replace")
            while len(data) > max_bytes:  # one enormous "word" (a 1 MB paste without spaces)
                if current:
                    out.append(" ".join(current))
                    current, size = [], 0
                head = data[:max_bytes].decode("utf-8", errors="ignore")
                out.append(head)
                data = data[len(head.encode("utf-8")) :]
            word = data.decode("utf-8", errors="replace")
            if not word:
                continue
            if current and size + 1 + len(data) > max_bytes:
                out.append(" ".join(current))
                current, size = [], 0
            current.append(word)
            size += len(data) + (1 if size else 0)
        if current:
            out.append(" ".join(current))
    return out


def characters(corpus: str) -> list[str]:
    """The distinct characters of the corpus, spaces aside, in order of first appearance.

    >>> characters("chai poha")
    ['c', 'h', 'a', 'i', 'p', 'o']
    """
    seen: dict[str, None] = {}
    for sentence in sentences(corpus):
        for ch in sentence:
            if not ch.isspace():
                seen.setdefault(ch, None)
    return list(seen)


def minimum_vocab(corpus: str) -> int:
    """The smallest vocabulary SentencePiece accepts for this corpus: every character, ``▁``, and the 3 specials.

    >>> minimum_vocab("chai chai chai chaiwala chaiwala chaat chaat poha poha poha pohawala samosa")
    15
    """
    return len(characters(corpus)) + 1 + len(META)


_REASON = re.compile(r"\] ?(.*)$", re.S)


def _reason(exc: Exception) -> str:
    """SentencePiece's message without its source location."""
    text = " ".join(str(exc).split())
    found = _REASON.search(text)
    return (found.group(1) if found and found.group(1) else text)[:200]


def train_unigram(corpus: str, vocab_size: int) -> UnigramModel:
    """Train a Unigram model of (at most) ``vocab_size`` pieces on ``corpus``, in memory.

    A tiny corpus supports only a few pieces: SentencePiece then keeps what it can, and
    ``vocab_size`` of the model says how many (``requested`` is what was asked for). Raises
    :class:`UnigramError`, in words, when the corpus is empty, or ``vocab_size`` is below
    :func:`minimum_vocab` or above :data:`MAX_VOCAB`.
    """
    if isinstance(vocab_size, bool) or not isinstance(vocab_size, int):
        raise UnigramError(_("The vocabulary size must be a whole number (got {value}).", value=repr(vocab_size)))
    lines = sentences(corpus)
    if not lines:
        raise UnigramError(_("The corpus has no words to learn from: give it some text."))
    least = minimum_vocab(corpus)
    if vocab_size < least:
        raise UnigramError(_(
            "A vocabulary of {size} is too small for this corpus: it has {n} different characters, and Unigram keeps "
            "every one, plus ▁ for the space and {special} special pieces. Ask for at least {least}.",
            size=number(vocab_size), n=number(least - 1 - len(META)), special=len(META), least=number(least)))
    if vocab_size > MAX_VOCAB:
        raise UnigramError(_("The lab trains Unigram vocabularies of up to {n} pieces; ask for fewer.",
                             n=number(MAX_VOCAB)))
    import sentencepiece

    model = io.BytesIO()
    try:
        sentencepiece.SentencePieceTrainer.train(
            sentence_iterator=iter(lines),
            model_writer=model,
            model_type="unigram",
            vocab_size=vocab_size,
            hard_vocab_limit=False,  # a small corpus: keep what it supports rather than fail
            character_coverage=1.0,
            normalization_rule_name="identity",
            num_threads=1,
            minloglevel=2,
            max_sentence_length=MAX_SENTENCE_BYTES * 2,
        )
    except (RuntimeError, OSError, ValueError) as exc:
        raise UnigramError(_(
            "SentencePiece could not train on this text ({why}). Try a longer text, with words that repeat.",
            why=_reason(exc))) from None
    return UnigramModel(model.getvalue(), requested=vocab_size, n_sentences=len(lines))


class UnigramModel:
    """A trained Unigram model: its pieces with scores, and three ways to segment a text.

    ``encode`` (the most likely segmentation), ``nbest`` (the n most likely, best first) and
    ``sample`` (random segmentations, as subword regularisation draws them in training).
    """

    def __init__(self, proto: bytes, *, requested: int, n_sentences: int) -> None:
        import sentencepiece

        self.proto = proto
        self.requested = requested
        self.n_sentences = n_sentences
        self._sp: Any = sentencepiece.SentencePieceProcessor(model_proto=proto)
        self._scores = [self._sp.get_score(i) for i in range(self._sp.get_piece_size())]
        scored = [s for i, s in enumerate(self._scores) if not self._sp.is_control(i) and not self._sp.is_unknown(i)]
        # An unknown piece has no score of its own: SentencePiece charges it 10 below the lowest score.
        self._unknown_score = min(scored, default=0.0) - 10.0

    @property
    def vocab_size(self) -> int:
        return len(self._scores)

    @cached_property
    def pieces(self) -> tuple[Piece, ...]:
        """Every piece in id order."""
        sp = self._sp
        out = []
        for i, score in enumerate(self._scores):
            text = sp.id_to_piece(i)
            kind = "special" if (sp.is_control(i) or sp.is_unknown(i)) else ("character" if len(text) == 1 else "piece")
            out.append(Piece(i, text, score, kind))
        return tuple(out)

    def by_score(self) -> list[Piece]:
        """The pieces with a score (not the specials), the most likely first (ties: by id)."""
        return sorted((p for p in self.pieces if p.kind != "special"), key=lambda p: (-p.score, p.id))

    def _segmentation(self, pieces: Sequence[str]) -> Segmentation:
        sp = self._sp
        ids = [sp.piece_to_id(p) for p in pieces]
        unknown = tuple(i for i, token_id in enumerate(ids) if sp.is_unknown(token_id))
        score = sum(self._unknown_score if sp.is_unknown(i) else self._scores[i] for i in ids)
        return Segmentation(tuple(pieces), score, unknown)

    def encode(self, text: str) -> Segmentation:
        """The most likely segmentation (what encoding without sampling gives)."""
        return self._segmentation(self._sp.encode(text, out_type=str))

    def nbest(self, text: str, n: int) -> list[Segmentation]:
        """The ``n`` most likely segmentations, best first (fewer when the text has fewer)."""
        if not text.strip() or n < 1:
            return []
        return [self._segmentation(p) for p in self._sp.nbest_encode_as_pieces(text, n)]

    # -- sampling: subword regularisation --------------------------------------------------------
    @cached_property
    def _lookup(self) -> tuple[dict[str, float], int]:
        """Every piece a text can be cut into (not the specials), with its score; the longest length."""
        table = {p.piece: p.score for p in self.pieces if p.kind != "special"}
        return table, max(map(len, table), default=1)

    def lattice(self, text: str) -> tuple[str, list[list[tuple[int, str, float]]]]:
        """The text as SentencePiece reads it, and every way to cut it: for each end position ``j``, the
        pieces ending there as (start, piece, score). A character no piece starts with gets an unknown
        piece of its own, scored 10 below the lowest score, as SentencePiece does."""
        normal = self._sp.normalize(text)
        table, longest = self._lookup
        ends: list[list[tuple[int, str, float]]] = [[] for _end in range(len(normal) + 1)]
        for i in range(len(normal)):
            single = False
            for j in range(i + 1, min(len(normal), i + longest) + 1):
                score = table.get(normal[i:j])
                if score is not None:
                    ends[j].append((i, normal[i:j], score))
                    single = single or j == i + 1
            if not single:
                ends[i + 1].append((i, normal[i], self._unknown_score))
        return normal, ends

    def log_total(self, text: str, alpha: float = 1.0) -> float:
        """log of the sum, over every segmentation of the text, of exp(alpha x its score): the
        normaliser of the sampling odds (the forward pass of :meth:`sample`)."""
        normal, ends = self.lattice(text)
        return _forward(ends, alpha)[len(normal)]

    def sample(self, text: str, n: int, *, alpha: float = 0.1, seed: int = 1) -> list[Segmentation]:
        """``n`` segmentations drawn at random from all of them, each with probability proportional
        to (its probability) ** ``alpha``: a small ``alpha`` flattens the odds, so unlikely splits
        come up more often. The same ``seed`` gives the same draws, on any machine.

        This is SentencePiece's own sampling (``encode(..., enable_sampling=True, nbest_size=-1)``:
        forward filtering, backward sampling over every way to cut the text) written out in Python
        with Python's random generator: SentencePiece's generator gives different draws for the same
        seed in two processes, so a shared link would not show the same samples. The tests check that
        both draw each segmentation equally often.
        """
        if not text.strip() or n < 1:
            return []
        if not 0 < alpha <= 1:
            raise UnigramError("The sampling smoothness alpha must be above 0 and at most 1.")
        normal, ends = self.lattice(text)
        forward = _forward(ends, alpha)
        rng = random.Random(int(seed))
        out = []
        for _draw in range(n):
            pieces: list[tuple[str, bool]] = []
            j = len(normal)
            while j > 0:
                # Choose the piece that ends at j, each with its share of the ways to reach j.
                weights = [math.exp(forward[i] + alpha * score - forward[j]) for i, _piece, score in ends[j]]
                i, piece, score = ends[j][_pick(rng, weights)]
                pieces.append((piece, piece not in self._lookup[0]))
                j = i
            out.append(self._segmentation(_join_unknown(pieces[::-1])))
        return out

    def decode(self, pieces: Sequence[str]) -> str:
        """SentencePiece's own decoding of pieces back to text."""
        return self._sp.decode_pieces(list(pieces))


def _forward(ends: list[list[tuple[int, str, float]]], alpha: float) -> list[float]:
    """forward[j]: log of the sum, over every way to cut the first j characters, of exp(alpha x score)."""
    forward = [0.0] + [-math.inf] * (len(ends) - 1)
    for j in range(1, len(ends)):
        terms = [forward[i] + alpha * score for i, _piece, score in ends[j] if forward[i] > -math.inf]
        if terms:
            top = max(terms)
            forward[j] = top + math.log(sum(math.exp(t - top) for t in terms))
    return forward


def _pick(rng: random.Random, weights: Sequence[float]) -> int:
    """An index drawn with probability proportional to its weight."""
    point = rng.random() * sum(weights)
    for index, weight in enumerate(weights):
        point -= weight
        if point < 0:
            return index
    return len(weights) - 1


def _join_unknown(pieces: Sequence[tuple[str, bool]]) -> list[str]:
    """Pieces in order, neighbouring unknown characters joined into one unknown piece (as SentencePiece
    writes them)."""
    out: list[str] = []
    previous_unknown = False
    for piece, unknown in pieces:
        if unknown and previous_unknown:
            out[-1] += piece
        else:
            out.append(piece)
        previous_unknown = unknown
    return out


__all__ = [
    "MAX_VOCAB",
    "META",
    "Piece",
    "SPACE",
    "Segmentation",
    "UnigramError",
    "UnigramModel",
    "characters",
    "minimum_vocab",
    "sentences",
    "train_unigram",
]
