"""A whole vocabulary read by script: how many tokens each script has, how long they are, where they rank.

**A script's token** (said once, here, and on the page that shows it): a token whose bytes decode as UTF-8, that
has at least one letter or mark, and every letter and mark of which is of that script. Spaces, digits,
punctuation and symbols are ignored, and so are the letters and marks Unicode gives to no one script (its
*Common* and *Inherited* scripts: a combining accent any script may carry). Han, Hiragana and Katakana count as
one script, CJK, since Japanese writes them together. A token with letters of two scripts is *mixed*; one with no
letter or mark at all is *no letters*; one whose bytes are not whole UTF-8 characters is *partial UTF-8* (a
piece of a character: lesson 6's streaming must hold it back).

The figures are computed once per tokenizer and process (o200k's 200,000 tokens in well under a second here),
then every question (a script's curve, its longest tokens, a search) reads arrays.

>>> from family import real
>>> v = vocabulary(real.load("cl100k_base"))
>>> v.count("Devanagari") < vocabulary(real.load("o200k_base")).count("Devanagari")
True
>>> script_of("घने")
'Devanagari'
>>> script_of("e\\u0301"), script_of("ab1 क"), script_of(" 12,"), script_of("\\xe0\\xa4".encode("latin-1").decode("utf-8", "replace"))
('Latin', 'mixed', 'no letters', 'no letters')
"""

from __future__ import annotations

import threading
import unicodedata
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from typing import Any

import numpy as np
import regex

from i18n import N_

SCRIPTS = ("Latin", "Devanagari", "Bengali", "Gurmukhi", "Gujarati", "Oriya", "Tamil", "Telugu", "Kannada",
           "Malayalam", "Sinhala", "Arabic", "Hebrew", "Cyrillic", "Greek", "Armenian", "Georgian", "Thai", "Lao",
           "Myanmar", "Khmer", "Tibetan", "Ethiopic", "Hangul", "CJK")
"""The scripts counted by name, in this order; a letter of any other script counts as "other scripts"."""

OTHER, MIXED, NO_LETTERS, PARTIAL = "other scripts", "mixed", "no letters", "partial UTF-8"
KINDS = (*SCRIPTS, OTHER, MIXED, NO_LETTERS, PARTIAL)
"""Every kind a token can be, each token exactly one."""

DEFINITION = N_(  # English, marked for the catalogue: a page shows _(DEFINITION)
    "A script's token: its bytes decode as UTF-8, it has at least one letter or mark, and every letter and mark "
    "in it is of that script. Spaces, digits, punctuation and symbols are ignored, and so are letters and marks "
    "Unicode gives to no one script (a combining accent any script may carry). Han, Hiragana and Katakana count "
    "as one script, CJK. A token with letters of two scripts is mixed; one with no letter or mark is 'no "
    "letters'; one whose bytes are not whole characters is partial UTF-8."
)

RANK_BIN = 1000
"""The curve of a script counts its tokens per this many ranks."""

MAX_SEARCH = 100
MAX_NEEDLE = 100

_CODES = {name: code for code, name in enumerate(KINDS)}
_SCRIPT_RE = regex.compile(
    "|".join(
        f"(?P<{name}>\\p{{sc={name}}})" if name != "CJK" else
        "(?P<CJK>[\\p{sc=Han}\\p{sc=Hiragana}\\p{sc=Katakana}\\p{sc=Bopomofo}])"
        for name in SCRIPTS
    )
)
_NEUTRAL = regex.compile(r"[\p{sc=Common}\p{sc=Inherited}]")


@lru_cache(maxsize=65_536)
def _char_script(ch: str) -> str | None:
    """The script a letter or mark counts for; None for what the definition ignores."""
    if unicodedata.category(ch)[0] not in "LM" or _NEUTRAL.match(ch):
        return None
    m = _SCRIPT_RE.match(ch)
    return m.lastgroup if m else OTHER


def script_of(text: str) -> str:
    """The kind of a token that is whole text (see the module's definition)."""
    found: str | None = None
    for ch in text:
        s = _char_script(ch)
        if s is None:
            continue
        if found is None:
            found = s
        elif s != found:
            return MIXED
    return found or NO_LETTERS


def kind_of(data: bytes) -> str:
    """The kind of a token by its bytes: a script, mixed, no letters, or partial UTF-8."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return PARTIAL
    return script_of(text)


@dataclass(frozen=True, eq=False)
class Vocabulary:
    """A tokenizer's ordinary tokens (no special ones), read by script: arrays indexed like ``ids``."""

    key: str
    title: str
    size: int
    special: int
    ids: np.ndarray  # every ordinary token's id, in merge order (rank order)
    ranks: np.ndarray  # its rank (0 = first); for SentencePiece the id
    kinds: np.ndarray  # its kind's index in KINDS
    byte_lengths: np.ndarray
    char_lengths: np.ndarray  # characters (0 for partial UTF-8)
    data: list[bytes] = field(repr=False)

    @property
    def tokens(self) -> int:
        return len(self.ids)

    def count(self, kind: str) -> int:
        return int(self._counts[_CODES[kind]])

    @property
    def _counts(self) -> np.ndarray:
        return np.bincount(self.kinds, minlength=len(KINDS))

    def counts(self) -> dict[str, int]:
        """Tokens of every kind, in :data:`KINDS` order (all kinds, zeros included)."""
        c = self._counts
        return {kind: int(c[i]) for i, kind in enumerate(KINDS)}

    def mask(self, kind: str) -> np.ndarray:
        return self.kinds == _CODES[kind]

    def curve(self, kind: str, bin_size: int = RANK_BIN) -> list[int]:
        """Tokens of ``kind`` per ``bin_size`` ranks, from rank 0 to the last."""
        bins = int(self.ranks.max()) // bin_size + 1 if len(self.ranks) else 0
        return np.bincount(self.ranks[self.mask(kind)] // bin_size, minlength=bins).tolist()

    def length_counts(self, kind: str) -> dict[int, int]:
        """How many tokens of ``kind`` have each byte length."""
        lengths = self.byte_lengths[self.mask(kind)]
        values, counts = np.unique(lengths, return_counts=True)
        return {int(v): int(c) for v, c in zip(values, counts)}

    def summary(self, kind: str) -> dict[str, Any]:
        """A kind's figures: tokens, share, byte lengths (mean, median, max) and ranks (first, median, last)."""
        m = self.mask(kind)
        n = int(m.sum())
        out: dict[str, Any] = {"tokens": n, "share": n / self.tokens if self.tokens else 0.0}
        if n:
            b, r = self.byte_lengths[m], self.ranks[m]
            out["bytes"] = {"mean": round(float(b.mean()), 2), "median": float(np.median(b)), "max": int(b.max())}
            out["ranks"] = {"first": int(r.min()), "median": int(np.median(r)), "last": int(r.max())}
        return out

    def longest(self, kind: str, n: int = 10) -> list[tuple[int, int, str]]:
        """The ``n`` longest tokens of ``kind`` in characters (bytes for partial UTF-8), the earliest rank first
        on a tie: (id, rank, the token's text)."""
        idx = np.flatnonzero(self.mask(kind))
        if not len(idx):
            return []
        size = self.byte_lengths[idx] if kind == PARTIAL else self.char_lengths[idx]
        order = idx[np.lexsort((self.ranks[idx], -size.astype(np.int64)))][:n]
        return [(int(self.ids[i]), int(self.ranks[i]), _text(self.data[i])) for i in order]

    def search(self, needle: str, limit: int = MAX_SEARCH) -> tuple[int, list[tuple[int, int, str, str]]]:
        """Tokens whose bytes contain ``needle``'s (at most :data:`MAX_NEEDLE` characters): how many, and the first
        ``limit`` by rank as (id, rank, text, kind)."""
        if not needle:
            return 0, []
        if len(needle) > MAX_NEEDLE:
            raise ValueError(f"Search for at most {MAX_NEEDLE} characters (this is {len(needle):,}).")
        target = needle.encode("utf-8", "replace")
        blob, starts = self._blob
        size = len(target)
        if size > len(blob):
            return 0, []
        found = np.ones(len(blob) - size + 1, dtype=bool)
        for j, byte in enumerate(target):  # every place in the joined bytes, at numpy's speed
            found &= blob[j : len(blob) - size + 1 + j] == byte
        places = np.flatnonzero(found)
        owner = np.searchsorted(starts, places, side="right") - 1
        inside = places + size <= starts[owner + 1]  # kept where it lies inside one token
        hits = np.unique(owner[inside]).tolist()
        return len(hits), [(int(self.ids[i]), int(self.ranks[i]), _text(self.data[i]), KINDS[int(self.kinds[i])])
                           for i in hits[:limit]]

    @cached_property
    def _blob(self) -> tuple[np.ndarray, np.ndarray]:
        """Every token's bytes joined (a search reads it at C speed) and where each token starts (one more at
        the end)."""
        starts = np.zeros(len(self.data) + 1, dtype=np.int64)
        np.cumsum(self.byte_lengths, out=starts[1:])
        return np.frombuffer(b"".join(self.data), dtype=np.uint8), starts

    def to_json(self, longest: int = 10) -> dict[str, Any]:
        """The figures the vocabulary page shows, as plain data (the ``vocab`` command prints it)."""
        scripts = {kind: self.summary(kind) for kind in KINDS if self.count(kind)}
        for kind, figures in scripts.items():
            figures["per_1000_ranks"] = self.curve(kind)
            figures["byte_lengths"] = {str(k): v for k, v in self.length_counts(kind).items()}
            figures["longest"] = [{"id": i, "rank": r, "text": t} for i, r, t in self.longest(kind, longest)]
        return {
            "tokenizer": self.key,
            "title": self.title,
            "size": self.size,
            "tokens": self.tokens,
            "special": self.special,
            "partial_utf8": self.count(PARTIAL),
            "no_letters": self.count(NO_LETTERS),
            "mixed": self.count(MIXED),
            "per_script": {kind: self.count(kind) for kind in SCRIPTS + (OTHER,) if self.count(kind)},
            "definition": DEFINITION,
            "kinds": scripts,
        }


def text_lines(v: Vocabulary) -> list[str]:
    """The ``vocab`` command's plain output: the size, then a line a kind (tokens, share, median bytes and rank)."""
    lines = [f"{v.title}: {v.size:,} ids, {v.tokens:,} ordinary tokens, {v.special:,} special or unused",
             f"{'kind':<16}{'tokens':>9}{'share':>8}{'median bytes':>14}{'median rank':>13}"]
    for kind in KINDS:
        f = v.summary(kind)
        if f["tokens"]:
            lines.append(f"{kind:<16}{f['tokens']:>9,}{f['share']:>8.1%}{f['bytes']['median']:>14g}"
                         f"{f['ranks']['median']:>13,}")
    lines.append(DEFINITION)
    return lines


def _text(data: bytes) -> str:
    from tokenizer.labels import bytes_label

    return bytes_label(data)


_LOCK = threading.Lock()
_BUILT: dict[str, Vocabulary] = {}


def vocabulary(tok: Any) -> Vocabulary:
    """The vocabulary of a production tokenizer (:mod:`family.real`) read by script, once per process."""
    key = tok.key
    with _LOCK:
        found = _BUILT.get(key)
    if found is not None:
        return found
    built = _read(tok)
    with _LOCK:
        return _BUILT.setdefault(key, built)


def _read(tok: Any) -> Vocabulary:
    if hasattr(tok, "merge_ranks"):
        ranks, offset = tok.merge_ranks()
        pairs = sorted(ranks.items(), key=lambda item: item[1])
        data = [d for d, _ in pairs]
        rank_list = [r for _, r in pairs]
        ids = [r + offset for r in rank_list]
    elif hasattr(tok, "merge_pieces"):
        normal, _, fallback = tok.merge_pieces()
        ids = sorted({*normal.values(), *fallback})
        data = [tok.token_bytes(i) for i in ids]
        rank_list = ids
    else:
        raise ValueError(f"{tok.name} is not a production tokenizer whose vocabulary the lab reads.")
    kinds = np.empty(len(data), dtype=np.int8)
    chars = np.empty(len(data), dtype=np.int32)
    latin, none, partial = _CODES["Latin"], _CODES[NO_LETTERS], _CODES[PARTIAL]
    ascii_letter = regex.compile(rb"[A-Za-z]").search
    for n, d in enumerate(data):
        if d.isascii():  # most of every vocabulary: Latin or no letters, without a look at each character
            kinds[n], chars[n] = (latin if ascii_letter(d) else none), len(d)
            continue
        try:
            text = d.decode("utf-8")
        except UnicodeDecodeError:
            kinds[n], chars[n] = partial, 0
            continue
        kinds[n], chars[n] = _CODES[script_of(text)], len(text)
    return Vocabulary(
        key=tok.key, title=tok.name, size=tok.vocab_size, special=tok.vocab_size - len(data),
        ids=np.asarray(ids, dtype=np.int64), ranks=np.asarray(rank_list, dtype=np.int64), kinds=kinds,
        byte_lengths=np.fromiter((len(d) for d in data), dtype=np.int32, count=len(data)), char_lengths=chars,
        data=data,
    )


__all__ = ["DEFINITION", "KINDS", "MIXED", "NO_LETTERS", "OTHER", "PARTIAL", "RANK_BIN", "SCRIPTS", "Vocabulary",
           "kind_of", "script_of", "text_lines", "vocabulary"]
