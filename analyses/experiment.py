"""Who gets the cheap tokens: the English-vs-Hindi experiment (lesson 4), as plain data.

A BPE tokenizer has one merge budget for every language in its training
text. Train it on an English news paragraph repeated 10 times and its Hindi
translation repeated ``k`` times, then count the tokens of a new sentence in
each language: with ``k = 1`` the Hindi sentence costs about five times as
many tokens as the English one; give Hindi the same share (``k = 10``) and the
gap shrinks, paid for by English. This module computes that, for every ``k``
at once, and the views of it a page draws:

- :func:`mix`: the training text, blocks repeated and joined;
- :func:`script_of_token`: is a learned token Latin, Devanagari, mixed or other?
- :func:`merges_by_script`: where the merge budget went;
- :func:`compression_curve`: a text's token count after each merge;
- :func:`sweep`: every share of the training text, every budget up to a maximum;
- :func:`parallel_cost`: tokens per word per language on a parallel set.

Training is deterministic and greedy: the merges of a run with budget ``b``
are exactly the first ``b`` merges of a run with any larger budget on the same
text (each merge depends only on the merges before it). So one run at the
largest budget answers every smaller budget: a tokenizer at budget ``b`` is
``trace.tokenizer_at(b)``, and a text's token count at budget ``b`` is
``compression_curve(...)[b]``.

>>> english, hindi = "the news is new. ", "खबर नई है। "
>>> text = mix([(english, 3), (hindi, 1)])
>>> text == english * 3 + hindi
True
>>> from tokenizer import train
>>> tok = train(text, 10).tokenizer
>>> [tok.label(i) for i in merges_by_script(tok)["Latin"]]
[' n', ' ne', ' new', 'th', 'the', ' news', ' i', ' is', ' new.']
>>> [tok.label(i) for i in merges_by_script(tok)["Devanagari"]]
['⟨E0 A4⟩']
>>> compression_curve(tok, " news")       # 5 bytes, then one token fewer per merge that fires
(5, 4, 3, 2, 2, 2, 2, 1, 1, 1, 1)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

import regex

from tokenizer.interface import TextTokenizer
from tokenizer.model import Tokenizer
from tokenizer.pretokenize import word_count
from tokenizer.replay import encode_trace
from tokenizer.train import train

SCRIPTS = ("Latin", "Devanagari", "mixed", "other")
"""The classes of :func:`script_of_token`, in the order a page lists them."""

# Devanagari by code-point block (as lesson 3 counts it: U+0900-U+097F, and its extensions), so the
# danda ``।``, which Unicode files under the Common script, counts as Devanagari.
_DEVANAGARI = ((0x0900, 0x097F), (0xA8E0, 0xA8FF), (0x11B00, 0x11B5F))
_LATIN = regex.compile(r"\p{Script=Latin}")
_NEUTRAL = regex.compile(r"[\p{Script=Common}\p{Script=Inherited}]")  # spaces, punctuation, digits, accents


def _is_devanagari(lo: int, hi: int) -> bool:
    return any(start <= lo and hi <= end for start, end in _DEVANAGARI)


def _char_script(ch: str) -> str | None:
    """``"Latin"``, ``"Devanagari"``, ``"other"`` (another script's letter), or None (neutral)."""
    cp = ord(ch)
    if _is_devanagari(cp, cp):
        return "Devanagari"
    if _LATIN.match(ch):
        return "Latin"
    if _NEUTRAL.match(ch):
        return None
    return "other"


def _fragment_script(data: bytes) -> str | None:
    """The script of an unfinished UTF-8 character (a lead byte and some of its continuation bytes),
    when every character it could become is in one script's block; None when the bytes cannot tell.

    ``E0 A4`` can only become U+0900-U+093F: Devanagari. ``E0`` alone could be anything from
    U+0800 to U+0FFF (Samaritan to Tibetan): it cannot tell.
    """
    lead = data[0]
    if 0xE0 <= lead <= 0xEF:
        size, bits = 3, lead & 0x0F
    elif 0xF0 <= lead <= 0xF4:
        size, bits = 4, lead & 0x07
    else:  # a two-byte character cut after its lead byte: U+0080-U+07FF, Latin and others mixed
        return None
    lo = hi = bits
    for i in range(1, size):
        byte = data[i] & 0x3F if i < len(data) else None
        lo = (lo << 6) | (0x00 if byte is None else byte)
        hi = (hi << 6) | (0x3F if byte is None else byte)
    return "Devanagari" if _is_devanagari(lo, hi) else None


def _byte_scripts(data: bytes) -> Iterable[str | None]:
    """The script of each character (or fragment of one) in ``data``, in order."""
    i = 0
    while i < len(data):
        lead = data[i]
        size = 1 if lead < 0x80 else 2 if 0xC0 <= lead < 0xE0 else 3 if 0xE0 <= lead < 0xF0 else 4 if lead >= 0xF0 else 0
        if size == 0:  # a continuation byte whose lead byte is in another token: it cannot tell
            yield None
            i += 1
            continue
        end = i + 1
        while end < len(data) and end - i < size and 0x80 <= data[end] < 0xC0:
            end += 1
        chunk = data[i:end]
        try:
            yield _char_script(chunk.decode("utf-8"))
        except UnicodeDecodeError:
            yield _fragment_script(chunk)
        i = end


def script_of_token(data: bytes) -> str:
    """Which script a token's bytes belong to: one of :data:`SCRIPTS`.

    ``Latin`` or ``Devanagari``: letters of that script only (spaces, digits and punctuation may
    come along); ``mixed``: letters of both, or of one of them and another script; ``other``:
    no letters of either (spaces, punctuation, digits), another script only, or stray bytes too
    few to tell a script. Devanagari is the Unicode block U+0900-U+097F (and its extensions),
    so the danda ``।`` is Devanagari. A token that ends inside a character counts by what that
    character can still become: ``E0 A4`` starts U+0900-U+093F, all Devanagari.

    >>> [script_of_token(s.encode()) for s in (" the", "city.", " शहर", "।", ". ", "WiFi-वाला", "१२")]
    ['Latin', 'Latin', 'Devanagari', 'Devanagari', 'other', 'mixed', 'Devanagari']
    >>> script_of_token("क".encode()[:2]), script_of_token(" ".encode() + "क".encode()[:1])
    ('Devanagari', 'other')
    >>> script_of_token("খবর".encode()), script_of_token("chai খবর".encode())   # Bengali
    ('other', 'mixed')
    """
    found = {script for script in _byte_scripts(data) if script is not None}
    if not found:
        return "other"
    if len(found) > 1:
        return "mixed"
    (script,) = found
    return script


def merges_by_script(tokenizer: Tokenizer, budget: int | None = None) -> dict[str, tuple[int, ...]]:
    """The tokens the first ``budget`` merges made (all, when None), grouped by
    :func:`script_of_token`: script -> token ids in the order learned. Every script of
    :data:`SCRIPTS` is a key, and the groups add up to the merges counted.

    >>> from tokenizer import train
    >>> tok = train("chai chai chai चाय चाय", 8).tokenizer
    >>> {script: [tok.label(i) for i in ids] for script, ids in merges_by_script(tok).items()}
    {'Latin': ['ch', 'cha', 'chai', ' chai'], 'Devanagari': ['⟨E0 A4⟩', ' ⟨E0 A4⟩', ' च', ' च⟨E0 A4⟩'], 'mixed': [], 'other': []}
    >>> {script: len(ids) for script, ids in merges_by_script(tok, budget=3).items()}
    {'Latin': 2, 'Devanagari': 1, 'mixed': 0, 'other': 0}
    """
    n = len(tokenizer.merges) if budget is None else max(0, min(budget, len(tokenizer.merges)))
    out: dict[str, list[int]] = {script: [] for script in SCRIPTS}
    first = tokenizer.first_merge_id
    for token_id in range(first, first + n):
        out[script_of_token(tokenizer.token_bytes(token_id))].append(token_id)
    return {script: tuple(ids) for script, ids in out.items()}


def compression_curve(tokenizer: Tokenizer, text: str) -> tuple[int, ...]:
    """How many tokens ``text`` is after each merge: entry ``b`` is its count with only the first
    ``b`` merges (0: before any), for every ``b`` up to all of them.

    The curve never goes up (a merge only ever joins tokens), and it ends at the count of
    ``tokenizer.encode(text)``. It comes from one replay of the encoding
    (:func:`tokenizer.replay.encode_trace`), which records only the merges that fire: merge ``r``
    firing ``n`` times takes ``n`` tokens off every entry after ``r``.

    >>> from tokenizer import train
    >>> tok = train("news news news new newer", 3, unit="chars", split="whitespace").tokenizer
    >>> compression_curve(tok, "newsroom")
    (8, 7, 6, 5)
    >>> compression_curve(tok, "xyz")                  # no merge fires
    (3, 3, 3, 3)
    """
    replay = encode_trace(tokenizer, text)
    saved = [0] * (len(tokenizer.merges) + 1)
    for step in replay.steps:
        saved[step.rank + 1] += len(step.places)
    count = sum(len(ids) for ids in replay.start)
    curve = []
    for drop in saved:
        count -= drop
        curve.append(count)
    return tuple(curve)


def _at(curve: Sequence[int], budget: int) -> int:
    """A curve's value at ``budget`` (its last value past the merges that were learned)."""
    return curve[max(0, min(budget, len(curve) - 1))]


@dataclass(frozen=True)
class Share:
    """How much of a training text is Hindi, by words and by UTF-8 bytes."""

    hindi_words: int
    all_words: int
    hindi_bytes: int
    all_bytes: int

    @property
    def of_words(self) -> float:
        return self.hindi_words / self.all_words if self.all_words else 0.0

    @property
    def of_bytes(self) -> float:
        return self.hindi_bytes / self.all_bytes if self.all_bytes else 0.0


def share(english: str, hindi: str, *, english_copies: int, hindi_copies: int) -> Share:
    """The Hindi share of ``english * english_copies + hindi * hindi_copies``.

    >>> s = share("the city ", "शहर ", english_copies=1, hindi_copies=1)
    >>> (round(s.of_words, 2), round(s.of_bytes, 2))
    (0.33, 0.53)
    """
    en_w, hi_w = word_count(english) * english_copies, word_count(hindi) * hindi_copies
    en_b, hi_b = len(english.encode("utf-8")) * english_copies, len(hindi.encode("utf-8")) * hindi_copies
    return Share(hi_w, en_w + hi_w, hi_b, en_b + hi_b)


def mix(blocks: Sequence[tuple[str, int]]) -> str:
    """The training text: each block repeated its number of copies, in order, nothing in between.

    >>> mix([("ab ", 2), ("क ", 1), ("never ", 0)])
    'ab ab क '
    """
    for _, copies in blocks:
        if isinstance(copies, bool) or not isinstance(copies, int) or copies < 0:
            raise ValueError(f"The number of copies must be a whole number, 0 or more (got {copies!r}).")
    return "".join(text * copies for text, copies in blocks)


@dataclass(frozen=True)
class ShareRun:
    """One point of a sweep: the tokenizer trained with ``hindi_copies`` copies of the Hindi block.

    ``english`` and ``hindi`` are the two test sentences' :func:`compression_curve` over every
    merge learned; ``scripts`` is the :func:`script_of_token` of each merge, in order.
    """

    hindi_copies: int
    share: Share
    english: tuple[int, ...]
    hindi: tuple[int, ...]
    scripts: tuple[str, ...]

    @property
    def learned(self) -> int:
        """How many merges were learned (fewer than the budget when every word became one token)."""
        return len(self.scripts)

    def english_tokens(self, budget: int) -> int:
        return _at(self.english, budget)

    def hindi_tokens(self, budget: int) -> int:
        return _at(self.hindi, budget)

    def by_script(self, budget: int) -> dict[str, int]:
        """How many of the first ``budget`` merges went to each script (all of :data:`SCRIPTS`)."""
        head = self.scripts[: max(0, budget)]
        return {script: head.count(script) for script in SCRIPTS}


@dataclass(frozen=True)
class Counts:
    """An English text and its Hindi translation, counted with one tokenizer: tokens and words on each side."""

    english_tokens: int
    english_words: int
    hindi_tokens: int
    hindi_words: int

    @property
    def english_per_word(self) -> float:
        return self.english_tokens / self.english_words if self.english_words else 0.0

    @property
    def hindi_per_word(self) -> float:
        return self.hindi_tokens / self.hindi_words if self.hindi_words else 0.0

    @property
    def ratio(self) -> float:
        """Hindi tokens / English tokens: how many times as many tokens the same meaning costs in Hindi."""
        return self.hindi_tokens / self.english_tokens if self.english_tokens else 0.0


@dataclass(frozen=True)
class Point(Counts):
    """A sweep read at one budget: the two test sentences' counts for ``hindi_copies`` copies."""

    hindi_copies: int
    share: Share
    by_script: Mapping[str, int]


@dataclass(frozen=True)
class Sweep:
    """Every share of the training text, trained once each at the largest budget."""

    runs: tuple[ShareRun, ...]
    budget: int
    english_copies: int
    test_english: str
    test_hindi: str

    def run(self, hindi_copies: int) -> ShareRun:
        for run in self.runs:
            if run.hindi_copies == hindi_copies:
                return run
        raise ValueError(f"This sweep has no run with {hindi_copies} Hindi copies.")

    def point(self, hindi_copies: int, budget: int) -> Point:
        if not 0 <= budget <= self.budget:
            raise ValueError(f"Budget {budget} is outside this sweep (0 to {self.budget}).")
        run = self.run(hindi_copies)
        return Point(english_tokens=run.english_tokens(budget), english_words=word_count(self.test_english),
                     hindi_tokens=run.hindi_tokens(budget), hindi_words=word_count(self.test_hindi),
                     hindi_copies=run.hindi_copies, share=run.share, by_script=run.by_script(budget))

    def at(self, budget: int) -> list[Point]:
        """Every share at one budget, in order of Hindi copies."""
        return [self.point(run.hindi_copies, budget) for run in self.runs]


def sweep(
    english: str,
    hindi: str,
    test_english: str,
    test_hindi: str,
    *,
    hindi_copies: Iterable[int],
    english_copies: int = 10,
    budget: int = 100,
    **settings,
) -> Sweep:
    """Train on ``english * english_copies + hindi * k`` for every ``k`` in ``hindi_copies``, once
    each at ``budget`` merges, and count the two test sentences after every merge.

    ``settings`` are :func:`tokenizer.train`'s five choices (lesson 4: the defaults, byte level,
    ``" ?\\S+"``, first seen). A smaller budget is read from the same runs
    (:meth:`Sweep.point`): its merges are the first ones of the bigger run.

    >>> s = sweep("the news is new. ", "खबर नई है। ", "new news", "नई खबर", hindi_copies=[0, 3], english_copies=3,
    ...           budget=20)
    >>> [(p.hindi_copies, p.english_tokens, p.hindi_tokens) for p in s.at(20)]
    [(0, 4, 16), (3, 4, 5)]
    >>> s.point(3, 20).by_script, s.point(3, 10).by_script
    ({'Latin': 9, 'Devanagari': 11, 'mixed': 0, 'other': 0}, {'Latin': 7, 'Devanagari': 3, 'mixed': 0, 'other': 0})
    >>> s.run(0).learned                     # English alone runs out of pairs after 10 merges
    10
    """
    runs = []
    for k in hindi_copies:
        tok = train(mix([(english, english_copies), (hindi, k)]), budget, table_size=0, max_ties=1,
                    **settings).tokenizer
        runs.append(
            ShareRun(
                hindi_copies=k,
                share=share(english, hindi, english_copies=english_copies, hindi_copies=k),
                english=compression_curve(tok, test_english),
                hindi=compression_curve(tok, test_hindi),
                scripts=tuple(script_of_token(tok.token_bytes(tok.first_merge_id + r)) for r in range(len(tok.merges))),
            )
        )
    return Sweep(tuple(runs), budget, english_copies, test_english, test_hindi)


@dataclass(frozen=True)
class PairCost(Counts):
    """A parallel set counted with one tokenizer: every pair's tokens and words, added up."""

    pairs: int


def parallel_cost(tokenizer: TextTokenizer, pairs: Iterable[tuple[str, str]]) -> PairCost:
    """Count every (English, Hindi) pair with ``tokenizer``, sentence by sentence, and add up.

    Tokens per word is total tokens / total words on each side; the ratio compares tokens for
    the same meaning (Hindi uses about as many words as English, so the two ratios are close).

    >>> from tokenizer import train
    >>> tok = train("aa bb", 0).tokenizer                     # no merges: one token per byte
    >>> c = parallel_cost(tok, [("the news", "खबर"), ("new", "नई")])
    >>> (c.english_tokens, c.english_words, c.hindi_tokens, c.hindi_words, c.ratio)
    (11, 3, 15, 2, 1.3636363636363635)
    """
    en_t = en_w = hi_t = hi_w = n = 0
    for english, hindi in pairs:
        en_t += len(tokenizer.encode(english))
        hi_t += len(tokenizer.encode(hindi))
        en_w += word_count(english)
        hi_w += word_count(hindi)
        n += 1
    return PairCost(english_tokens=en_t, english_words=en_w, hindi_tokens=hi_t, hindi_words=hi_w, pairs=n)


def split_by_script(text: str) -> tuple[str, str]:
    """One text with both languages -> (its English part, its Hindi part), line by line: a line
    with more Devanagari letters than Latin ones goes to the Hindi part. Lines without letters of
    either are left out. Each part keeps its lines in order, joined by spaces, ending in a space.

    >>> split_by_script("Heavy rain.\\nभारी बारिश।\\n\\n2024\\nFog today.")
    ('Heavy rain. Fog today. ', 'भारी बारिश। ')
    """
    english: list[str] = []
    hindi: list[str] = []
    for line in text.splitlines():
        scripts = [s for s in map(_char_script, line) if s is not None]
        dev, lat = scripts.count("Devanagari"), scripts.count("Latin")
        if dev > lat:
            hindi.append(line.strip())
        elif lat:
            english.append(line.strip())
    return (" ".join(english) + " " if english else "", " ".join(hindi) + " " if hindi else "")


__all__ = [
    "Counts",
    "PairCost",
    "Point",
    "SCRIPTS",
    "Share",
    "ShareRun",
    "Sweep",
    "compression_curve",
    "merges_by_script",
    "mix",
    "parallel_cost",
    "script_of_token",
    "share",
    "split_by_script",
    "sweep",
]
