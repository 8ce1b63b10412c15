"""Measuring a text with a tokenizer: the figures every comparison in the lab is made of.

Works with any :class:`tokenizer.TextTokenizer` (the lab's models and the
real ones), so a page or the command line compares them with one rule.

``tokens per word``   tokens / words (words: ``str.split()``); English prose
                      with a large tokenizer is about 1.3: measure, don't trust.
``tokens per char``   tokens / code points: a health metric that drifts when
                      the input changes shape.
``bytes per token``   UTF-8 bytes / tokens: how much text one token carries.
``partial tokens``    tokens that are not whole characters on their own
                      (part of a character's UTF-8 bytes).

The Hindi premium of a tokenizer is how many more tokens the same meaning
costs in Hindi than in English. It splits exactly into two parts:

    premium = (Hindi bytes / English bytes) x (Hindi tokens per byte / English tokens per byte)
            = the UTF-8 part                x the tokenizer part

>>> from tokenizer import train
>>> tok = train("ab ab ab", 1, unit="chars", split="whitespace").tokenizer
>>> m = measure(tok, "ab ab abc")
>>> (m.tokens, m.words, m.unknown, round(m.tokens_per_word, 2))
(4, 3, 1, 1.33)
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Sequence

from .interface import UNKNOWN_ID, TextTokenizer
from .labels import is_whole
from .textstats import text_counts


@dataclass(frozen=True, slots=True)
class Measure:
    """A text measured with one tokenizer."""

    tokens: int
    words: int
    code_points: int
    graphemes: int
    bytes: int
    partial: int
    unknown: int

    @property
    def tokens_per_word(self) -> float:
        return self.tokens / self.words if self.words else 0.0

    @property
    def tokens_per_char(self) -> float:
        return self.tokens / self.code_points if self.code_points else 0.0

    @property
    def chars_per_token(self) -> float:
        return self.code_points / self.tokens if self.tokens else 0.0

    @property
    def bytes_per_token(self) -> float:
        return self.bytes / self.tokens if self.tokens else 0.0

    @property
    def tokens_per_byte(self) -> float:
        return self.tokens / self.bytes if self.bytes else 0.0


def measure(tokenizer: TextTokenizer, text: str, ids: Sequence[int] | None = None) -> Measure:
    """Count ``text`` with ``tokenizer`` (``ids``: its encoding, when already at hand)."""
    if ids is None:
        ids = tokenizer.encode(text)
    counts = Counter(ids)
    unknown = counts.pop(UNKNOWN_ID, 0)
    partial = sum(n for token_id, n in counts.items() if not is_whole(tokenizer.token_bytes(token_id)))
    c = text_counts(text)
    return Measure(len(ids), c.words, c.code_points, c.graphemes, c.bytes, partial, unknown)


@dataclass(frozen=True, slots=True)
class Premium:
    """How much more one text (Hindi) costs than its translation (English), and why."""

    english: Measure
    hindi: Measure

    @property
    def premium(self) -> float:
        """Hindi tokens / English tokens."""
        return self.hindi.tokens / self.english.tokens if self.english.tokens else 0.0

    @property
    def utf8_part(self) -> float:
        """Hindi bytes / English bytes: what UTF-8 alone charges."""
        return self.hindi.bytes / self.english.bytes if self.english.bytes else 0.0

    @property
    def tokenizer_part(self) -> float:
        """Hindi tokens per byte / English tokens per byte: what the tokenizer adds (or takes back)."""
        en, hi = self.english.tokens_per_byte, self.hindi.tokens_per_byte
        return hi / en if en else 0.0


def premium(tokenizer: TextTokenizer, english: str, hindi: str) -> Premium:
    """Measure a text and its translation with one tokenizer.

    >>> from tokenizer import train
    >>> tok = train("aa bb", 0, unit="bytes").tokenizer      # no merges: one token per byte
    >>> p = premium(tok, "news", "खबर")
    >>> (p.premium, round(p.utf8_part, 2), p.tokenizer_part)
    (2.25, 2.25, 1.0)
    """
    return Premium(measure(tokenizer, english), measure(tokenizer, hindi))


__all__ = ["Measure", "Premium", "measure", "premium"]
