"""Characters, code points, grapheme clusters and bytes.

What a reader calls "one letter" can be several Unicode code points, and
each code point is 1 to 4 UTF-8 bytes. ``कि`` looks like one shape: it is
``क`` plus the vowel sign ``ि``, two code points, six bytes.

>>> c = text_counts("कि")
>>> (c.graphemes, c.code_points, c.bytes)
(1, 2, 6)
>>> text_counts("खबर").bytes
9
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass

import regex

from tokenizer.pretokenize import word_count

_SCRIPTS = (
    "Latin", "Devanagari", "Bengali", "Tamil", "Telugu", "Kannada", "Malayalam", "Gujarati",
    "Gurmukhi", "Oriya", "Arabic", "Han", "Hiragana", "Katakana", "Hangul", "Cyrillic", "Greek",
    "Hebrew", "Thai", "Inherited", "Common",
)  # fmt: skip
_SCRIPT_RE = [(name, regex.compile(rf"\p{{Script={name}}}")) for name in _SCRIPTS]
_GRAPHEME = regex.compile(r"\X")


@dataclass(frozen=True, slots=True)
class CharInfo:
    """One code point: what it is and what it costs in UTF-8."""

    char: str
    code_point: str
    name: str
    script: str
    category: str
    utf8: str
    n_bytes: int


@dataclass(frozen=True, slots=True)
class TextCounts:
    """How long a text is, counted four ways."""

    code_points: int
    graphemes: int
    bytes: int
    words: int

    @property
    def bytes_per_char(self) -> float:
        """UTF-8 bytes per code point (0 for empty text)."""
        return self.bytes / self.code_points if self.code_points else 0.0

    @property
    def bytes_per_grapheme(self) -> float:
        """UTF-8 bytes per user-perceived character (0 for empty text).

        >>> round(text_counts("इंदौर").bytes_per_grapheme, 2)
        5.0
        """
        return self.bytes / self.graphemes if self.graphemes else 0.0


def script_of(ch: str) -> str:
    for name, pattern in _SCRIPT_RE:
        if pattern.match(ch):
            return name
    return "Other"


def char_name(ch: str) -> str:
    name = unicodedata.name(ch, "")
    if name:
        return name
    category = unicodedata.category(ch)
    if category == "Cc":
        return f"control character {ord(ch):#04x}"
    return f"unnamed ({category})"


def char_info(ch: str) -> CharInfo:
    data = ch.encode("utf-8", errors="surrogatepass")
    return CharInfo(
        char=ch,
        code_point=f"U+{ord(ch):04X}",
        name=char_name(ch),
        script=script_of(ch),
        category=unicodedata.category(ch),
        utf8=" ".join(f"{b:02X}" for b in data),
        n_bytes=len(data),
    )


def char_table(text: str, limit: int | None = None) -> list[CharInfo]:
    """One row per code point (the first ``limit`` of them)."""
    chars = text if limit is None else text[:limit]
    return [char_info(ch) for ch in chars]


def graphemes(text: str) -> list[str]:
    """User-perceived characters (extended grapheme clusters)."""
    return _GRAPHEME.findall(text)


def utf8_length(text: str) -> int:
    """How many UTF-8 bytes ``text`` takes (a lone surrogate counts its three bytes): cheap, unlike graphemes."""
    return len(text.encode("utf-8", errors="surrogatepass"))


def text_counts(text: str) -> TextCounts:
    return TextCounts(
        code_points=len(text),
        graphemes=len(graphemes(text)),
        bytes=utf8_length(text),
        words=word_count(text),
    )
