"""Measuring a text with a tokenizer: the figures every comparison in the lab is made of.

Works with any :class:`tokenizer.TextTokenizer` (the lab's models and the
real ones), so a page or the command line compares them with one rule.

``tokens per word``   tokens / words (words: :func:`tokenizer.pretokenize.word_count`, ``str.split()``); English prose
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

Any language can stand in for Hindi. When the two texts are not translations
of each other (samples cut at different places), compare them per unit of
text instead of as wholes: ``per="char"`` divides each side by its code
points, ``per="grapheme"`` by its grapheme clusters. The split still holds:

    premium per character = (bytes per character, relative) x (tokens per byte, relative)

>>> from tokenizer import train
>>> tok = train("ab ab ab", 1, unit="chars", split="whitespace").tokenizer
>>> m = measure(tok, "ab ab abc")
>>> (m.tokens, m.words, m.unknown, round(m.tokens_per_word, 2))
(4, 3, 1, 1.33)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from tokenizer.interface import UNKNOWN_ID, TextTokenizer
from tokenizer.labels import is_whole
from tokenizer.pretokenize import word_count

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


def measure_many(tokenizer: TextTokenizer, texts: Iterable[str]) -> Measure:
    """A sample of texts measured together, each encoded on its own (as each would be sent): the sums.
    A text with no words in it (empty, or only spaces) is left out.

    >>> from tokenizer import train
    >>> tok = train("aa bb", 0, unit="bytes").tokenizer
    >>> m = measure_many(tok, ["chai wala", "poha", "  "])
    >>> (m.tokens, m.words, round(m.tokens_per_word, 2))
    (13, 3, 4.33)
    """
    found = [measure(tokenizer, text) for text in texts if word_count(text)]  # texts with words
    return Measure(*(sum(getattr(m, f) for m in found) for f in Measure.__dataclass_fields__))


PER = ("text", "char", "grapheme")
"""What a premium is measured per: the whole text, a code point, a grapheme cluster."""


def _units(m: Measure, per: str) -> int:
    return {"text": 1, "char": m.code_points, "grapheme": m.graphemes}[per]


def _relative(other: float, other_units: int, english: float, english_units: int) -> float:
    """(other / other_units) / (english / english_units), or 0 when either side is empty."""
    if not (other_units and english_units and english):
        return 0.0
    return (other / other_units) / (english / english_units)


@dataclass(frozen=True, slots=True)
class Premium:
    """How much more one text costs than an English one, and why.

    ``other`` is the text in another language (Hindi on the Real tokenizers page). ``per``
    says what is compared: the whole texts (``"text"``: they say the same thing), or a code
    point or grapheme cluster of each (when the texts are not exact translations).
    """

    english: Measure
    other: Measure
    per: str = "text"

    def __post_init__(self) -> None:
        if self.per not in PER:
            raise ValueError(f"per must be one of {', '.join(PER)}, not {self.per!r}.")

    @property
    def hindi(self) -> Measure:
        """The other text, by the name the Hindi pages use."""
        return self.other

    @property
    def other_per_unit(self) -> float:
        """The other text's tokens per unit of ``per`` (per text, per character, per letter); 0 when empty."""
        units = _units(self.other, self.per)
        return self.other.tokens / units if units else 0.0

    @property
    def premium(self) -> float:
        """Other tokens / English tokens (each per ``per``)."""
        return _relative(self.other.tokens, _units(self.other, self.per),
                         self.english.tokens, _units(self.english, self.per))

    @property
    def utf8_part(self) -> float:
        """Other bytes / English bytes (each per ``per``): what UTF-8 alone charges."""
        return _relative(self.other.bytes, _units(self.other, self.per),
                         self.english.bytes, _units(self.english, self.per))

    @property
    def tokenizer_part(self) -> float:
        """Other tokens per byte / English tokens per byte: what the tokenizer adds (or takes back)."""
        en, other = self.english.tokens_per_byte, self.other.tokens_per_byte
        return other / en if en else 0.0


def premium(tokenizer: TextTokenizer, english: str, other: str, *, per: str = "text") -> Premium:
    """Measure a text and its counterpart in another language with one tokenizer.

    >>> from tokenizer import train
    >>> tok = train("aa bb", 0, unit="bytes").tokenizer      # no merges: one token per byte
    >>> p = premium(tok, "news", "खबर")
    >>> (p.premium, round(p.utf8_part, 2), p.tokenizer_part)
    (2.25, 2.25, 1.0)

    Per character, "खबर" (3 code points, 9 bytes) against "news" (4, 4): 3 bytes a
    character against 1.

    >>> p = premium(tok, "news", "खबर", per="char")
    >>> (p.premium, p.utf8_part, p.tokenizer_part)
    (3.0, 3.0, 1.0)
    """
    return Premium(measure(tokenizer, english), measure(tokenizer, other), per)


def byte_measure(text: str) -> Measure:
    """``text`` counted one token per UTF-8 byte: a byte-level tokenizer with no merges.

    >>> m = byte_measure("खबर")
    >>> (m.tokens, m.bytes, m.partial)
    (9, 9, 9)
    """
    c = text_counts(text)
    partial = c.bytes - sum(1 for ch in text if ord(ch) < 0x80)  # a byte of a 2-4 byte character is partial
    return Measure(c.bytes, c.words, c.code_points, c.graphemes, c.bytes, partial, 0)


def char_measure(text: str) -> Measure:
    """``text`` counted one token per code point (a character-level tokenizer that knows every character).

    >>> p = Premium(char_measure("news"), char_measure("खबर"))
    >>> (p.premium, p.utf8_part, round(p.tokenizer_part, 3))
    (0.75, 2.25, 0.333)
    """
    c = text_counts(text)
    return Measure(c.code_points, c.words, c.code_points, c.graphemes, c.bytes, 0, 0)


__all__ = ["PER", "Measure", "Premium", "byte_measure", "char_measure", "measure", "premium"]
